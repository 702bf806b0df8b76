//! Writing results and diagnostics: results to stdout, diagnostics to stderr.

use crate::diag::{self, Diagnostics};
use crate::source::Sources;
use std::io::Write;

/// Writes to stdout. A closed pipe (`bfr … | head`) is not an error worth a panic.
pub(super) fn stdout(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Writes to stderr.
pub(super) fn stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// A JSON value, pretty-printed, on stdout.
pub(super) fn json_line(v: &serde_json::Value) {
    stdout(&format!(
        "{}\n",
        serde_json::to_string_pretty(v).unwrap_or_default()
    ));
}

/// Diagnostics as a JSON array, in their stable order.
pub(super) fn diagnostics_json(diags: &Diagnostics, sources: &Sources) -> serde_json::Value {
    serde_json::Value::Array(
        diags
            .sorted()
            .into_iter()
            .map(|d| diag::to_json(d, sources))
            .collect(),
    )
}
