//! `bfr run <edition> <event>`: an event file played through the edition's rules.

use super::commands::{edition_errors, not_checked_line};
use super::output::Output;
use super::output::{diagnostics_json, diagnostics_text, json_line as json, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::edition;
use std::path::Path;

/// `bfr run`; `html` writes the report as a page (`--format html`).
pub fn run(
    out: &Output,
    edition_path: &Path,
    event_path: &Path,
    write_draw: bool,
    html: bool,
) -> u8 {
    let io = |path: &Path, message: String| {
        match out.format {
            Format::Text => stderr(&format!("error: {message}\n")),
            Format::Json => json(&serde_json::json!({
                "error": "io", "path": path.display().to_string(), "message": message
            })),
        }
        EXIT_IO
    };
    if let Err(code) = super::commands::rules_path(edition_path) {
        return code;
    }
    let mut loaded = match edition::cache::load(edition_path, out.cache.as_deref()) {
        Ok(l) => l,
        Err(e) => return io(&e.path, e.to_string()),
    };
    let Some(mut checked) = loaded.checked.take() else {
        let errors = edition_errors(&loaded.diagnostics);
        match out.format {
            Format::Text => {
                diagnostics_text(&errors, &loaded.sources, out.colour);
                stderr(&not_checked_line(edition_path, &loaded.diagnostics));
            }
            Format::Json => json(&serde_json::json!({
                "report": null, "pending": null,
                "diagnostics": diagnostics_json(&errors, &loaded.sources),
            })),
        }
        return EXIT_FOUND;
    };
    // The edition's own warnings are `bfr check`'s business; only the event's problems here.
    let mut sources = loaded.sources;
    let bytes = match edition::read_input(event_path, &mut sources) {
        Ok(Ok(b)) => b,
        Ok(Err(refused)) => {
            let mut diags = crate::diag::Diagnostics::default();
            diags.push(refused);
            match out.format {
                Format::Text => diagnostics_text(&diags, &sources, out.colour),
                Format::Json => json(&serde_json::json!({
                    "report": null, "pending": null,
                    "diagnostics": diagnostics_json(&diags, &sources),
                })),
            }
            return EXIT_FOUND;
        }
        Err(e) => return io(event_path, e.to_string()),
    };
    let mut ran = crate::event::run_bytes(
        &mut checked,
        &mut sources,
        &event_path.display().to_string(),
        &bytes,
    );
    // Only a file that is UTF-8 runs without errors, so only such text is written back.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // The new text is made before anything is shown: draws that cannot be written
    // into the file are an error of the run (E0729), in the text and the JSON alike.
    let is_json = crate::event::is_json(&event_path.display().to_string());
    let new_text = write_draw
        .then(|| crate::event::with_draws_written(&mut ran, &text, is_json))
        .flatten();
    match out.format {
        Format::Text => {
            diagnostics_text(&ran.diagnostics, &sources, out.colour);
            if html {
                stdout(&super::html::event_run(&ran, &sources));
            } else {
                stdout(&super::render::event_run(&ran));
            }
        }
        Format::Json => json(&ran.to_json(&sources)),
    }
    if ran.diagnostics.has_errors() || ran.outcome.is_none() {
        if write_draw {
            stderr("no draw written: fix the errors first\n");
        }
        return EXIT_FOUND;
    }
    if write_draw {
        return write_draws(event_path, new_text, &ran);
    }
    EXIT_OK
}

/// `--write-draw`: the event file's new text, with the draws made and not yet
/// recorded written in (`None`: every draw is recorded), written into the event
/// file (through a link, to the file it names) whole or not at all
/// (`replace::replace_file`).
fn write_draws(event_path: &Path, new_text: Option<String>, ran: &crate::event::Ran) -> u8 {
    let Some(new) = new_text.filter(|_| !ran.unrecorded.is_empty()) else {
        stderr("every draw made is already recorded in the file\n");
        return EXIT_OK;
    };
    if let Err(e) = super::replace::replace_file(event_path, new.as_bytes()) {
        stderr(&format!("error: {e}; no draw was recorded\n"));
        return EXIT_IO;
    }
    let what: Vec<String> = ran
        .unrecorded
        .iter()
        .map(|d| match (&d.round, &d.stage) {
            (Some(r), _) => format!("round {r}"),
            (_, Some(s)) => format!("stage `{s}`"),
            _ => String::new(),
        })
        .collect();
    stderr(&format!(
        "recorded the draw of {} in {}\n",
        what.join(", "),
        event_path.display()
    ));
    EXIT_OK
}
