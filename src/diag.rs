//! Diagnostics: what bfr tells an editor about their files.
//!
//! Every diagnostic has a stable code (documented in `docs/diagnostics.md`), one
//! primary span, plain words and, where a fix is known, a `help` line. Stages build
//! [`Diagnostic`] values; they are rendered (ariadne, or JSON) only at the edge, in
//! the CLI.

use crate::source::{Sources, Span};
use serde::Serialize;

/// How bad a diagnostic is. Errors fail `bfr check`; warnings report the
/// document's own defects and leave the exit code at 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something the editor should know; the edition still works.
    Warning,
    /// The edition cannot be used as written.
    Error,
}

/// One message about the input.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    /// Stable code, e.g. `E0101`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// One line, lowercase, user input in backticks.
    pub message: String,
    /// Where the problem is.
    #[serde(skip)]
    pub span: Span,
    /// What the primary label says at the span.
    pub label: String,
    /// Further places that explain the problem.
    #[serde(skip)]
    pub notes: Vec<(Span, String)>,
    /// How to fix it, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with a code, a message and the span it is about.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A warning with a code, a message and the span it is about.
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    /// Sets the text of the primary label.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a secondary place.
    pub fn with_note(mut self, span: Span, text: impl Into<String>) -> Self {
        self.notes.push((span, text.into()));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A diagnostic about no place in particular (an empty directory).
    pub fn nowhere(mut self) -> Self {
        self.span = Span {
            file: u32::MAX,
            start: 0,
            end: 0,
        };
        self
    }
}

/// Diagnostics collected by a stage. Stages report every problem they find, not
/// only the first.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// All of them, in a stable order: by file, position, then code.
    pub fn sorted(&self) -> Vec<&Diagnostic> {
        let mut v: Vec<&Diagnostic> = self.items.iter().collect();
        v.sort_by_key(|d| (d.span.file, d.span.start, d.span.end, d.code));
        v
    }

    /// Moves all of `other` into this.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// How to colour rendered diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// ANSI colours.
    On,
    /// Plain text (snapshots, pipes).
    Off,
}

/// Renders one diagnostic for a terminal with ariadne.
pub fn render(d: &Diagnostic, sources: &Sources, colour: Colour) -> String {
    use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
    if sources.get(d.span.file).is_none() {
        // Not about a place in a file (an empty directory, say).
        let mut out = format!("{}[{}]: {}\n", kind_word(d), d.code, d.message);
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {h}\n"));
        }
        return out;
    }
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let name = |span: Span| sources.name(span.file).to_string();
    let range = |span: Span| char_range(sources, span);
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(colour == Colour::On);
    let primary = (name(d.span), range(d.span));
    let mut report = Report::build(kind, primary.clone())
        .with_config(config)
        .with_code(d.code)
        .with_message(&d.message);
    let label_colour = if d.is_error() {
        Color::Red
    } else {
        Color::Yellow
    };
    // ariadne underlines only labels that have a message.
    let text = if d.label.is_empty() { "here" } else { &d.label };
    report = report.with_label(
        Label::new(primary)
            .with_color(label_colour)
            .with_message(text),
    );
    for (span, text) in &d.notes {
        report = report.with_label(
            Label::new((name(*span), range(*span)))
                .with_message(text)
                .with_color(Color::Blue),
        );
    }
    if let Some(help) = &d.help {
        report = report.with_help(help);
    }
    let cache = ariadne::sources(
        sources
            .iter()
            .map(|(_, f)| (f.name.clone(), f.text.clone())),
    );
    let mut out = Vec::new();
    if report.finish().write(cache, &mut out).is_err() {
        return format!("{}[{}]: {}\n", kind_word(d), d.code, d.message);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A span's byte range, moved out to character boundaries and into the text.
/// Spans from bfr are always on boundaries; one about a byte that is not UTF-8
/// points into the replacement character that stands for it.
fn char_range(sources: &Sources, span: Span) -> std::ops::Range<usize> {
    let text = sources.get(span.file).map_or("", |f| f.text.as_str());
    let mut start = (span.start as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (span.end as usize).clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

fn kind_word(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A diagnostic as JSON: code, severity, message, file, line, column, help.
pub fn to_json(d: &Diagnostic, sources: &Sources) -> serde_json::Value {
    if sources.get(d.span.file).is_none() {
        return serde_json::json!({
            "code": d.code, "severity": d.severity, "message": d.message, "help": d.help,
        });
    }
    let (line, column) = sources.line_col(d.span.file, d.span.start);
    let (end_line, end_column) = sources.line_col(d.span.file, d.span.end);
    serde_json::json!({
        "code": d.code,
        "severity": d.severity,
        "message": d.message,
        "label": d.label,
        "help": d.help,
        "file": sources.name(d.span.file),
        "start": { "byte": d.span.start, "line": line, "column": column },
        "end": { "byte": d.span.end, "line": end_line, "column": end_column },
        "notes": d.notes.iter().map(|(s, t)| {
            let (l, c) = sources.line_col(s.file, s.start);
            serde_json::json!({"file": sources.name(s.file), "line": l, "column": c, "text": t})
        }).collect::<Vec<_>>(),
    })
}
