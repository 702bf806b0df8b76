//! Writing results and diagnostics: results to stdout, diagnostics to stderr.
//!
//! A write that fails (the reader gone, a full disk) is remembered, not ignored:
//! the command then ends with exit 3 and a message, so output that was lost is
//! never reported as a success.

use super::Format;
use super::{EXIT_FOUND, EXIT_IO};
use crate::diag::{self, Colour, Diagnostic, Diagnostics};
use crate::edition;
use crate::source::{Sources, printable_text};
use std::borrow::Cow;
use std::io::Write;
use std::sync::Mutex;

/// A write that failed: the output is incomplete.
#[derive(Debug, Clone)]
pub(super) enum WriteFailure {
    /// The reader closed the pipe (`bfr list | head`): it chose to stop
    /// reading, so there is nothing to tell it, though the exit status still
    /// says the output was cut short.
    ReaderGone,
    /// Any other failure (a full disk): where, and what the system said.
    Failed(String),
}

/// The first write failure of this run, if any.
static WRITE_ERROR: Mutex<Option<WriteFailure>> = Mutex::new(None);

fn remember(stream: &str, result: std::io::Result<()>) {
    if let Err(e) = result
        && let Ok(mut slot) = WRITE_ERROR.lock()
        && slot.is_none()
    {
        *slot = Some(if e.kind() == std::io::ErrorKind::BrokenPipe {
            WriteFailure::ReaderGone
        } else {
            WriteFailure::Failed(format!("could not write to {stream}: {e}"))
        });
    }
}

/// Writes text for people to stdout, every control character but a line
/// break escaped: a title, a team's name or a text value from a file cannot
/// move the cursor, clear the screen or colour what follows it.
pub(super) fn stdout(text: &str) {
    write_stdout(&printable_text(text));
}

/// Writes a data format for programs (JSON, CSV) to stdout as it is: its own
/// quoting holds every character, and escaping one would change the data.
pub(super) fn stdout_data(text: &str) {
    write_stdout(text);
}

/// Writes text bfr has coloured to stdout: as it is when `plain`, the same text
/// uncoloured, holds no control character of its own, else `plain` escaped as
/// [`stdout`] writes it. A file's content thus never reaches the terminal as a
/// control sequence; only then does the output lose its colours.
pub(super) fn stdout_painted(painted: &str, plain: &str) {
    match printable_text(plain) {
        Cow::Borrowed(_) => write_stdout(painted),
        Cow::Owned(escaped) => write_stdout(&escaped),
    }
}

fn write_stdout(text: &str) {
    remember(
        "standard output",
        std::io::stdout().lock().write_all(text.as_bytes()),
    );
}

/// Writes to stderr.
pub(super) fn stderr(text: &str) {
    remember(
        "standard error",
        std::io::stderr().lock().write_all(text.as_bytes()),
    );
}

/// Flushes both streams and returns the first write failure of the run, if any.
pub(super) fn finish() -> Option<WriteFailure> {
    remember("standard output", std::io::stdout().lock().flush());
    remember("standard error", std::io::stderr().lock().flush());
    WRITE_ERROR.lock().ok().and_then(|slot| slot.clone())
}

/// A JSON value, pretty-printed, on stdout.
pub(super) fn json_line(v: &serde_json::Value) {
    stdout_data(&format!(
        "{}\n",
        serde_json::to_string_pretty(v).unwrap_or_default()
    ));
}

/// Diagnostics as text on stderr, in their stable order, as many as are shown
/// (see [`diag::shown`]).
pub(super) fn diagnostics_text(diags: &Diagnostics, sources: &Sources, colour: Colour) {
    let mut renderer = diag::Renderer::new(sources, colour);
    for d in diag::shown(diags, sources) {
        stderr(&renderer.render(&d));
    }
}

/// Diagnostics as a JSON array, in their stable order, as many as are shown.
pub(super) fn diagnostics_json(diags: &Diagnostics, sources: &Sources) -> serde_json::Value {
    serde_json::Value::Array(
        diag::shown(diags, sources)
            .iter()
            .map(|d| diag::to_json(d, sources))
            .collect(),
    )
}

/// A command refused by one diagnostic, after the input file's `warnings`:
/// shown on stderr, and in JSON mode also as `{"errors": [...]}` on stdout.
/// Returns exit 1.
pub(super) fn refused(out: &Output, warnings: Diagnostics, d: Diagnostic, sources: &Sources) -> u8 {
    let mut diags = warnings;
    diags.push(d);
    out.diagnostics(&diags, sources);
    if out.format == Format::Json {
        json_line(&serde_json::json!({
            "errors": diagnostics_json(&diags, sources)
        }));
    }
    EXIT_FOUND
}

/// The warnings about the text of an input file read beside the edition (a
/// federation command's file): the direction controls an editor may hide
/// (W0003), as rules, event and entries files get them.
pub(super) fn input_warnings(text: &str, file: crate::source::FileId) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for warning in crate::syntax::direction_warnings(text, file) {
        diags.push(warning);
    }
    diags
}

/// How to print.
pub struct Output {
    pub format: Format,
    pub colour: Colour,
    /// The cache directory for compiled editions; `None` with `--no-cache`.
    pub cache: Option<std::path::PathBuf>,
}

impl Output {
    pub(super) fn diagnostics(&self, diags: &Diagnostics, sources: &Sources) {
        if self.format == Format::Json {
            return;
        }
        diagnostics_text(diags, sources, self.colour);
    }

    /// Says that a file could not be read or written, and gives the exit status
    /// for it.
    pub(super) fn io_error(&self, e: &edition::IoError) -> u8 {
        let (path, message) = (&e.path, e.to_string());
        match self.format {
            Format::Text => stderr(&format!("error: {message}\n")),
            Format::Json => stdout_data(&format!(
                "{}\n",
                serde_json::json!({"error": "io", "path": path.display().to_string(), "message": message})
            )),
        }
        EXIT_IO
    }
}

pub(super) use crate::diag::counted;
