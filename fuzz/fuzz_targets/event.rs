//! An event file run against the 2015 edition (`bfr run rules/2015 FILE`): the
//! first byte says TOML or JSON, the rest is the file's bytes. Renders the
//! report as text and JSON, with the diagnostics, and writes the draws made
//! into the file as `--write-draw` would.
#![no_main]

use bfr::cli::render;
use bfr::event;
use bfr_fuzz::{rendered, twice, with_edition};
use libfuzzer_sys::fuzz_target;

fn one(data: &[u8]) -> String {
    let Some((&kind, bytes)) = data.split_first() else {
        return String::new();
    };
    let name = if kind % 2 == 0 {
        "event.toml"
    } else {
        "event.json"
    };
    let (ran, mut out) = with_edition(|checked, sources| {
        let ran = event::run_bytes(checked, sources, name, bytes);
        let mut out = render::event_run(&ran);
        out.push_str(&rendered(&ran.diagnostics, sources));
        (ran, out)
    });
    if let Some(outcome) = &ran.outcome {
        out.push_str(&serde_json::to_string(outcome).unwrap_or_default());
    }
    if !ran.diagnostics.has_errors()
        && !ran.unrecorded.is_empty()
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        match event::write_draws(text, event::is_json(name), &ran.unrecorded) {
            Ok(written) => out.push_str(&written),
            Err(e) => out.push_str(&e.to_string()),
        }
    }
    out
}

fuzz_target!(|data: &[u8]| twice(|| one(data)));
