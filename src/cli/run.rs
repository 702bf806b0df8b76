//! `bfr run <edition> <event>`: an event file played through the edition's rules.

use super::commands::Output;
use super::output::{diagnostics_json, diagnostics_text, json_line as json, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::edition;
use std::path::Path;

/// `bfr run`
pub fn run(out: &Output, edition_path: &Path, event_path: &Path) -> u8 {
    let io = |path: &Path, message: String| {
        match out.format {
            Format::Text => stderr(&format!("error: {message}\n")),
            Format::Json => json(&serde_json::json!({
                "error": "io", "path": path.display().to_string(), "message": message
            })),
        }
        EXIT_IO
    };
    let mut loaded = match edition::load(edition_path) {
        Ok(l) => l,
        Err(e) => return io(&e.path, e.to_string()),
    };
    let Some(checked) = loaded.checked.take() else {
        match out.format {
            Format::Text => {
                diagnostics_text(&loaded.diagnostics, &loaded.sources, out.colour);
                stderr(&format!(
                    "{}: {} errors; fix them first (`bfr check {}`)\n",
                    edition_path.display(),
                    loaded.diagnostics.error_count(),
                    edition_path.display()
                ));
            }
            Format::Json => json(&serde_json::json!({
                "report": null, "pending": null,
                "diagnostics": diagnostics_json(&loaded.diagnostics, &loaded.sources),
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
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let ran = crate::event::run(
        &checked,
        &mut sources,
        &event_path.display().to_string(),
        &text,
    );
    match out.format {
        Format::Text => {
            diagnostics_text(&ran.diagnostics, &sources, out.colour);
            stdout(&super::render::event_run(&ran));
        }
        Format::Json => json(&ran.to_json(&sources)),
    }
    if ran.diagnostics.has_errors() || ran.outcome.is_none() {
        EXIT_FOUND
    } else {
        EXIT_OK
    }
}
