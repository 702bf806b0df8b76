//! Diagnostics: what bfr tells an editor about their files.
//!
//! Every diagnostic has a stable code (documented in `docs/diagnostics.md`), one
//! primary span, plain words and, where a fix is known, a `help` line. Stages build
//! [`Diagnostic`] values; they are rendered (ariadne, or JSON) only at the edge, in
//! the CLI.

use crate::source::{BYTE_ORDER_MARK, FileId, Sources, Span, pictured};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;

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
    /// Whether what it is about was kept as an invalid part (a bad literal read
    /// as an invalid expression), so that the stages after the one that found
    /// it still run: see [`Diagnostics::push_contained`].
    #[serde(skip)]
    pub contained: bool,
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
            contained: false,
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

    /// Adds one whose error is contained: what it is about was kept as an
    /// invalid part (a bad literal read as an invalid expression), so the
    /// stages after the one that found it still run, and take that part as an
    /// error already said.
    pub fn push_contained(&mut self, mut d: Diagnostic) {
        d.contained = true;
        self.items.push(d);
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// Whether any error is not contained: the stages after the one that
    /// found it cannot run.
    pub fn has_blocking_errors(&self) -> bool {
        self.items.iter().any(|d| d.is_error() && !d.contained)
    }

    /// How many were added so far: a mark for [`added_since`](Self::added_since).
    pub fn mark(&self) -> usize {
        self.items.len()
    }

    /// Those added since `mark`, in the order added.
    pub fn added_since(&self, mark: usize) -> &[Diagnostic] {
        self.items.get(mark..).unwrap_or_default()
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

    /// Each of them, to add to (a note a later stage knows more for).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Diagnostic> {
        self.items.iter_mut()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Leaves out the warnings `drop` says yes to, and returns how many it left out.
    /// Errors always stay.
    pub fn drop_warnings(&mut self, drop: impl Fn(&Diagnostic) -> bool) -> usize {
        let before = self.items.len();
        self.items.retain(|d| d.is_error() || !drop(d));
        before - self.items.len()
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

/// The error for data file `name` whose `bytes` are not UTF-8 text: the file is
/// added to `sources` with each bad byte shown as U+FFFD, the first under the
/// label; `what` names the file in the help ("event file"). Never decoded by
/// guesswork: a Latin-1 `ä` might as well be another letter.
pub fn not_utf8(
    code: &'static str,
    name: &str,
    bytes: &[u8],
    sources: &mut Sources,
    what: &str,
) -> Diagnostic {
    let at = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |_| bytes.len());
    let file = sources.add(name, String::from_utf8_lossy(bytes).into_owned());
    Diagnostic::error(
        code,
        format!(
            "`{name}` is not UTF-8 text: byte {at} (0x{:02X}) is not UTF-8",
            bytes.get(at).copied().unwrap_or(0)
        ),
        Span::new(file, at, at + char::REPLACEMENT_CHARACTER.len_utf8()),
    )
    .with_label("this byte is not UTF-8 (å, ä and ö saved as Latin-1 look like this)")
    .with_help(format!(
        "save the {what} as UTF-8 (in most editors: Save As…, encoding UTF-8) and run it again"
    ))
}

/// Renders one diagnostic for a terminal with ariadne. To render many, use a
/// [`Renderer`]: it prepares each file once.
pub fn render(d: &Diagnostic, sources: &Sources, colour: Colour) -> String {
    Renderer::new(sources, colour).render(d)
}

/// Source lines longer than this are not echoed: the diagnostic gives the
/// place and the line's length instead (a 100 MB one-line file must not come
/// back as a 100 MB message).
pub const MAX_ECHOED_LINE: usize = 400;
/// A label spanning more lines than this is not echoed either.
pub const MAX_ECHOED_LINES: usize = 200;
/// Messages, labels and help longer than this are shortened in the middle,
/// with the size left out stated.
pub const MAX_TEXT: usize = 400;

/// ariadne's view of the sources: each file is prepared (its lines indexed)
/// once, the first time a diagnostic points into it.
struct SourceCache<'s> {
    sources: &'s Sources,
    prepared: BTreeMap<FileId, Prepared<'s>>,
}

/// One file as ariadne sees it.
struct Prepared<'s> {
    /// The file's own text, whose bytes the spans count.
    own: ariadne::Source<Cow<'s, str>>,
    /// The text ariadne echoes, when the file holds control characters: with
    /// them pictured ([`pictured`]), so that an escape sequence in a file
    /// cannot clear the screen or rewrite the report around it.
    shown: Option<ariadne::Source<Cow<'s, str>>>,
}

impl<'s> SourceCache<'s> {
    /// The file, prepared the first time it is asked for. Without its
    /// byte-order mark, which would count as the first line's first column
    /// although no editor shows it.
    fn prepare(&mut self, file: FileId) -> Option<&Prepared<'s>> {
        let sources = self.sources;
        let text = sources.get(file)?.text.as_str();
        let text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
        Some(self.prepared.entry(file).or_insert_with(|| Prepared {
            own: ariadne::Source::from(Cow::Borrowed(text)),
            shown: match pictured(text) {
                Cow::Borrowed(_) => None,
                owned => Some(ariadne::Source::from(owned)),
            },
        }))
    }

    /// The character range a byte span covers, clamped to the file and widened
    /// to whole characters. The same in the text shown, where one character
    /// stands for one.
    fn char_range(&mut self, span: Span) -> std::ops::Range<usize> {
        // ariadne is given the text after a byte-order mark (see `prepare`).
        let skipped = self.byte_order_mark(span.file);
        let Some(Prepared { own: source, .. }) = self.prepare(span.file) else {
            return 0..0;
        };
        let text: &str = source.text();
        // A byte inside a letter counts as that letter: the start rounds down
        // and the end up, so a span never loses the letter it touches.
        let at = |byte: usize, round_up: bool| -> usize {
            let byte = byte.saturating_sub(skipped).min(text.len());
            match source.get_byte_line(byte) {
                Some((line, _, col)) => {
                    let line_text = source.get_line_text(line).unwrap_or("");
                    let mut col = col.min(line_text.len());
                    while !line_text.is_char_boundary(col) {
                        if round_up {
                            col += 1;
                        } else {
                            col -= 1;
                        }
                    }
                    line.offset() + line_text[..col].chars().count()
                }
                None => source.len(),
            }
        };
        let start = at(span.start as usize, false);
        let end = at(span.end as usize, true).max(start);
        start..end
    }

    /// The bytes of the byte-order mark the file starts with, or 0.
    fn byte_order_mark(&self, file: FileId) -> usize {
        self.sources
            .get(file)
            .filter(|f| f.text.starts_with(BYTE_ORDER_MARK))
            .map_or(0, |_| BYTE_ORDER_MARK.len())
    }
}

impl<'s> ariadne::Cache<FileId> for SourceCache<'s> {
    type Storage = Cow<'s, str>;

    fn fetch(
        &mut self,
        id: &FileId,
    ) -> Result<&ariadne::Source<Cow<'s, str>>, impl std::fmt::Debug> {
        let prepared = self.prepare(*id).ok_or("unknown file")?;
        Ok::<_, &str>(prepared.shown.as_ref().unwrap_or(&prepared.own))
    }

    fn display<'a>(&self, id: &'a FileId) -> Option<impl std::fmt::Display + 'a> {
        Some(self.sources.name(*id).to_string())
    }
}

/// Renders diagnostics of one run for a terminal: one cache of prepared
/// sources for all of them.
pub struct Renderer<'s> {
    sources: &'s Sources,
    colour: Colour,
    cache: SourceCache<'s>,
}

impl<'s> Renderer<'s> {
    /// A renderer for diagnostics about these sources.
    pub fn new(sources: &'s Sources, colour: Colour) -> Self {
        Renderer {
            sources,
            colour,
            cache: SourceCache {
                sources,
                prepared: BTreeMap::new(),
            },
        }
    }

    /// One diagnostic as text.
    pub fn render(&mut self, d: &Diagnostic) -> String {
        let sources = self.sources;
        if sources.get(d.span.file).is_none() {
            // Not about a place in a file (an empty directory, say).
            let mut out = format!("{}[{}]: {}\n", kind_word(d), d.code, printable(&d.message));
            if let Some(h) = &d.help {
                out.push_str(&format!("  help: {}\n", printable(h)));
            }
            return out;
        }
        let mut spans = std::iter::once(d.span).chain(d.notes.iter().map(|(s, _)| *s));
        if spans.any(|s| too_long_to_echo(sources, s).is_some()) {
            return self.compact(d);
        }
        let mut out = Vec::new();
        let report = self.report(d);
        if report.write(&mut self.cache, &mut out).is_err() {
            return format!("{}[{}]: {}\n", kind_word(d), d.code, printable(&d.message));
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The ariadne report of a diagnostic.
    fn report(
        &mut self,
        d: &Diagnostic,
    ) -> ariadne::Report<'static, (FileId, std::ops::Range<usize>)> {
        use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
        let kind = match d.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        // Character offsets, not bytes: ariadne 0.6 places the header of a
        // label in a second file by a character offset read as a byte offset,
        // which lands inside a multi-byte letter (and panics) in any file with
        // `å` or `─` before the label.
        let config = Config::default()
            .with_index_type(IndexType::Char)
            .with_color(self.colour == Colour::On);
        let mut place = |span: Span| (span.file, self.cache.char_range(span));
        let main = place(d.span);
        let notes: Vec<_> = d
            .notes
            .iter()
            .map(|(span, text)| (place(*span), text))
            .collect();
        let mut report = Report::build(kind, main.clone())
            .with_config(config)
            .with_code(d.code)
            .with_message(printable(&d.message));
        let label_colour = if d.is_error() {
            Color::Red
        } else {
            Color::Yellow
        };
        // ariadne underlines only labels that have a message.
        let text = if d.label.is_empty() {
            "here".to_string()
        } else {
            printable(&d.label)
        };
        let mut labels = vec![(main, text, label_colour)];
        labels.extend(
            notes
                .into_iter()
                .map(|(at, text)| (at, printable(text), Color::Blue)),
        );
        // ariadne starts a new section, headed by the main place, whenever a
        // label lies above the one before it in the same file: one section per
        // file, the main file first and each in line order, keeps every header
        // true.
        let mut files: Vec<FileId> = Vec::new();
        for ((file, _), _, _) in &labels {
            if !files.contains(file) {
                files.push(*file);
            }
        }
        labels.sort_by_key(|((file, range), _, _)| {
            (files.iter().position(|f| f == file), range.start)
        });
        for (at, text, colour) in labels {
            report = report.with_label(Label::new(at).with_message(text).with_color(colour));
        }
        if let Some(help) = &d.help {
            report = report.with_help(printable(help));
        }
        report.finish()
    }

    /// A diagnostic some of whose lines are too long to echo: places and words,
    /// and the part of its own line the diagnostic points at ([`excerpt`]).
    fn compact(&self, d: &Diagnostic) -> String {
        let sources = self.sources;
        let at = |span: Span| {
            let (line, col) = sources.line_col(span.file, span.start);
            format!("{}:{line}:{col}", sources.name(span.file))
        };
        let mut out = format!("{}[{}]: {}\n", kind_word(d), d.code, printable(&d.message));
        match too_long_to_echo(sources, d.span) {
            Some(long) => out.push_str(&format!("  --> {} ({long}, shown in part)\n", at(d.span))),
            None => out.push_str(&format!("  --> {}\n", at(d.span))),
        }
        match excerpt(sources, d.span) {
            Some((text, marks)) => {
                out.push_str(&format!("   | {text}\n   | {marks}"));
                if !d.label.is_empty() {
                    out.push_str(&format!(" {}", printable(&d.label)));
                }
                out.push('\n');
            }
            None if !d.label.is_empty() => {
                out.push_str(&format!("  = {}\n", printable(&d.label)));
            }
            None => {}
        }
        for (span, text) in &d.notes {
            let long = too_long_to_echo(sources, *span)
                .map(|long| format!(" ({long}, not shown)"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  note at {}{long}: {}\n",
                at(*span),
                printable(text)
            ));
        }
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {}\n", printable(h)));
        }
        out
    }
}

/// Bytes of a span shown at most in [`excerpt`], and of its line either side.
const EXCERPT_SPAN: usize = 80;
const EXCERPT_CONTEXT: usize = 40;

/// The part of a long line a span points at, with a little of the line either
/// side (`…` where the line goes on), and under it the marks under the span:
/// where a line is too long to echo, the director still sees the result the
/// problem is about. `None` for a span in no file.
fn excerpt(sources: &Sources, span: Span) -> Option<(String, String)> {
    let file = sources.get(span.file)?;
    let text = file.text.as_str();
    let (_, line) = file.line_of(span.start as usize);
    let boundary_down = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = boundary_down((span.start as usize).clamp(line.start, line.end));
    let end = (span.end as usize).clamp(start, line.end);
    let cut = boundary_down(end.min(start + EXCERPT_SPAN));
    let before = boundary_down(start.saturating_sub(EXCERPT_CONTEXT).max(line.start));
    let after = if cut < end {
        cut
    } else {
        boundary_down((end + EXCERPT_CONTEXT).min(line.end))
    };
    let piece = |a: usize, b: usize| {
        crate::source::printable_text(text.get(a..b).unwrap_or("").trim_end_matches(['\r', '\n']))
            .into_owned()
    };
    let head = if before > line.start { "…" } else { "" };
    let lead = format!("{head}{}", piece(before, start));
    let marked = format!("{}{}", piece(start, cut), if cut < end { "…" } else { "" });
    let tail = if after < line.end && cut == end {
        "…"
    } else {
        ""
    };
    let shown = format!("{lead}{marked}{}{tail}", piece(cut, after));
    let width = unicode_width::UnicodeWidthStr::width;
    let marks = format!(
        "{}{}",
        " ".repeat(width(lead.as_str())),
        "^".repeat(width(marked.as_str()).max(1))
    );
    Some((shown, marks))
}

/// Why the lines a span covers are not echoed whole, if they are too long: how
/// many lines, or how long one is.
fn too_long_to_echo(sources: &Sources, span: Span) -> Option<String> {
    let file = sources.get(span.file)?;
    let (first, range) = file.line_of(span.start as usize);
    let (last, _) = file.line_of(span.end as usize);
    if last.saturating_sub(first) > MAX_ECHOED_LINES {
        return Some(counted(last.saturating_sub(first) + 1, "line"));
    }
    (first..=last)
        .map(|l| {
            if l == first {
                range.len()
            } else {
                file.line_of_index(l).len()
            }
        })
        .find(|len| *len > MAX_ECHOED_LINE)
        .map(|len| format!("a line of {len} bytes"))
}

/// A text shortened to about [`MAX_TEXT`] bytes, if longer: its start and end
/// are kept and the middle is replaced by how many bytes were left out.
pub fn bounded(text: &str) -> String {
    if text.len() <= MAX_TEXT {
        return text.to_string();
    }
    let mut head = MAX_TEXT / 2;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - MAX_TEXT / 4;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}…[{} bytes left out]…{}",
        text.get(..head).unwrap_or(""),
        tail - head,
        text.get(tail..).unwrap_or("")
    )
}

/// A span's byte range, moved out to character boundaries and into the text.
/// Spans from bfr are always on boundaries; one about a byte that is not UTF-8
/// points into the replacement character that stands for it.
fn kind_word(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A message, label or help as the terminal shows it: [`bounded`], and with
/// control characters escaped, so that a name from a file (a team's, a rule's)
/// cannot move the cursor, colour the screen or forge a line of output. JSON
/// escapes them itself.
fn printable(text: &str) -> String {
    crate::source::printable_name(&bounded(text))
}

/// A diagnostic as JSON: code, severity, message, file, line, column, help.
pub fn to_json(d: &Diagnostic, sources: &Sources) -> serde_json::Value {
    if sources.get(d.span.file).is_none() {
        return serde_json::json!({
            "code": d.code, "severity": d.severity, "message": bounded(&d.message),
            "help": d.help.as_deref().map(bounded),
        });
    }
    let (line, column) = sources.line_col(d.span.file, d.span.start);
    let (end_line, end_column) = sources.line_col(d.span.file, d.span.end);
    serde_json::json!({
        "code": d.code,
        "severity": d.severity,
        "message": bounded(&d.message),
        "label": bounded(&d.label),
        "help": d.help.as_deref().map(bounded),
        "file": sources.name(d.span.file),
        "start": { "byte": d.span.start, "line": line, "column": column },
        "end": { "byte": d.span.end, "line": end_line, "column": end_column },
        "notes": d.notes.iter().map(|(s, t)| {
            let (l, c) = sources.line_col(s.file, s.start);
            serde_json::json!({"file": sources.name(s.file), "line": l, "column": c, "text": bounded(t)})
        }).collect::<Vec<_>>(),
    })
}

/// At most this many diagnostics are shown for one file.
pub const MAX_SHOWN_PER_FILE: usize = 100;
/// At most this many diagnostics are shown in one run.
pub const MAX_SHOWN: usize = 1_000;

/// The diagnostics to show, in their stable order: at most
/// [`MAX_SHOWN_PER_FILE`] for a file and [`MAX_SHOWN`] in all, a file's errors
/// chosen before its warnings. A file with more gets one `W0002` line after its
/// own saying how many errors and warnings were left out, and one last `W0002`
/// counts those of the files not shown at all. The counts a command prints
/// (`3 errors, 1 warning`) are of all of them.
pub fn shown<'d>(
    diags: &'d Diagnostics,
    sources: &Sources,
) -> Vec<std::borrow::Cow<'d, Diagnostic>> {
    use std::borrow::Cow;
    let sorted = diags.sorted();
    let mut out: Vec<Cow<'d, Diagnostic>> = Vec::new();
    let mut total = 0usize;
    // Diagnostics of files not shown at all: errors, warnings, files.
    let mut unshown = (0usize, 0usize, 0usize);
    for group in sorted.chunk_by(|a, b| a.span.file == b.span.file) {
        let room = MAX_SHOWN_PER_FILE.min(MAX_SHOWN.saturating_sub(total));
        let (shown, rest) = chosen(group, room);
        out.extend(shown.iter().map(|d| Cow::Borrowed(*d)));
        total += shown.len();
        let errors = rest.iter().filter(|d| d.is_error()).count();
        let warnings = rest.len() - errors;
        if shown.is_empty() {
            unshown = (unshown.0 + errors, unshown.1 + warnings, unshown.2 + 1);
        } else if !rest.is_empty() {
            let file = group.first().map_or(u32::MAX, |d| d.span.file);
            let whose = if sources.get(file).is_some() {
                format!(" in `{}`", sources.name(file))
            } else {
                String::new()
            };
            out.push(Cow::Owned(left_out(&whose, errors, warnings)));
        }
    }
    if unshown.0 + unshown.1 > 0 {
        let whose = format!(" in {} more {}", unshown.2, agreeing(unshown.2, "file"));
        out.push(Cow::Owned(left_out(&whose, unshown.0, unshown.1)));
    }
    out
}

/// The diagnostics to show where each file's are listed apart (an editor's
/// problems of a file): at most [`MAX_SHOWN_PER_FILE`] for a file, chosen as
/// [`shown`] chooses them, with no bound across files, and a file with more
/// gets one `W0002` at its start saying how many were left out. Diagnostics
/// about no file are kept as they are.
pub fn shown_per_file(diags: &Diagnostics) -> Vec<Cow<'_, Diagnostic>> {
    let sorted = diags.sorted();
    let mut out: Vec<Cow<'_, Diagnostic>> = Vec::new();
    for group in sorted.chunk_by(|a, b| a.span.file == b.span.file) {
        let file = group.first().map_or(u32::MAX, |d| d.span.file);
        if file == u32::MAX {
            out.extend(group.iter().map(|d| Cow::Borrowed(*d)));
            continue;
        }
        let (shown, rest) = chosen(group, MAX_SHOWN_PER_FILE);
        out.extend(shown.iter().map(|d| Cow::Borrowed(*d)));
        if !rest.is_empty() {
            let errors = rest.iter().filter(|d| d.is_error()).count();
            let mut note = left_out("", errors, rest.len() - errors);
            note.span = Span {
                file,
                start: 0,
                end: 0,
            };
            note.help = Some(format!(
                "an editor is sent at most {MAX_SHOWN_PER_FILE} diagnostics per file; fix these first"
            ));
            out.push(Cow::Owned(note));
        }
    }
    out
}

/// Which of one file's diagnostics (`group`, in their order) fill the `room`
/// there is, and which are left out, each in that order: the errors first, so
/// that a file's many warnings never hide the error that refused it.
fn chosen<'d>(group: &[&'d Diagnostic], room: usize) -> (Vec<&'d Diagnostic>, Vec<&'d Diagnostic>) {
    if group.len() <= room {
        return (group.to_vec(), Vec::new());
    }
    let errors = group.iter().filter(|d| d.is_error()).count();
    let mut rooms = (room, room.saturating_sub(errors));
    group.iter().copied().partition(|d| {
        let left = if d.is_error() {
            &mut rooms.0
        } else {
            &mut rooms.1
        };
        let fits = *left > 0;
        *left = left.saturating_sub(1);
        fits
    })
}

/// A count and the thing counted, agreeing in number: `1 error`, `0 errors`,
/// `2 entries`, `3 matches`. Every count phrase bfr prints is made here, so none
/// says "1 rounds". `n` is any number (a count, or a quantity of boards).
pub fn counted(n: impl std::fmt::Display, thing: &str) -> String {
    let n = n.to_string();
    let noun = agreeing(&n, thing);
    format!("{n} {noun}")
}

/// `thing` in the number of `n` (`and 2 more diagnostics`): as [`counted`], without
/// the number.
pub fn agreeing(n: impl std::fmt::Display, thing: &str) -> String {
    if n.to_string() == "1" {
        thing.to_string()
    } else {
        plural(thing)
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[impl AsRef<str>]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
        Some((last, _)) => last.as_ref().to_string(),
        None => String::new(),
    }
}

/// An English noun's plural, for the nouns bfr counts: `-s`, `-es` after a
/// hiss (`match`, `box`), `-ies` after a consonant and `y` (`entry`, not `day`).
fn plural(thing: &str) -> String {
    if let Some(stem) = thing.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| thing.ends_with(e))
    {
        return format!("{thing}es");
    }
    format!("{thing}s")
}

/// The `W0002` line for diagnostics not shown.
fn left_out(whose: &str, errors: usize, warnings: usize) -> Diagnostic {
    Diagnostic::warning(
        "W0002",
        format!(
            "and {} more {}{whose} not shown ({}, {})",
            errors + warnings,
            agreeing(errors + warnings, "diagnostic"),
            counted(errors, "error"),
            counted(warnings, "warning")
        ),
        Span::default(),
    )
    .nowhere()
    .with_help(format!(
        "bfr shows at most {MAX_SHOWN_PER_FILE} diagnostics per file and {MAX_SHOWN} in all; fix these first"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_error_not_contained_blocks_the_stages_after_it() {
        let at = Span::new(0, 0, 1);
        let mut read = Diagnostics::default();
        read.push(Diagnostic::warning("W0001", "a warning", at));
        read.push_contained(Diagnostic::error("E0007", "a bad date", at));
        assert!(read.has_errors() && !read.has_blocking_errors());
        // Carried through the sets a stage hands on.
        let mut checked = Diagnostics::default();
        checked.extend(read.clone());
        assert!(!checked.has_blocking_errors());
        // And through a set rebuilt one by one, as a stage that sorts or
        // filters them makes.
        let mut rebuilt = Diagnostics::default();
        for d in read.sorted() {
            rebuilt.push(d.clone());
        }
        assert!(!rebuilt.has_blocking_errors());
        checked.push(Diagnostic::error("E0001", "a syntax error", at));
        assert!(checked.has_blocking_errors());
        assert_eq!(checked.error_count(), 2);
    }

    #[test]
    fn a_long_line_is_shown_around_the_span_with_marks_under_it() {
        let mut sources = Sources::new();
        let line = format!("{}\"Åsa–Öberg 3-4\"{}\n", "é".repeat(300), "x".repeat(300));
        let file = sources.add("wide.toml", line.clone());
        let start = line.find('"').unwrap();
        let span = Span::new(file, start, start + "\"Åsa–Öberg 3-4\"".len());
        let (text, marks) = excerpt(&sources, span).unwrap();
        // 40 bytes of context are 20 two-byte letters; the marks sit under the span.
        assert_eq!(
            text,
            format!("…{}\"Åsa–Öberg 3-4\"{}…", "é".repeat(20), "x".repeat(40))
        );
        assert_eq!(marks, format!("{}{}", " ".repeat(21), "^".repeat(15)));
        // A span longer than the excerpt shows its start, cut.
        let long = Span::new(file, 0, line.len() - 1);
        let (text, marks) = excerpt(&sources, long).unwrap();
        assert_eq!(text, format!("{}…", "é".repeat(40)));
        assert_eq!(marks, "^".repeat(41));
        let rendered = render(
            &Diagnostic::error("E0701", "not understood", span).with_label("this result"),
            &sources,
            Colour::Off,
        );
        assert!(
            rendered.contains("(a line of 919 bytes, shown in part)"),
            "{rendered}"
        );
    }

    /// Counts agree with their nouns, the irregular endings bfr counts included.
    #[test]
    fn a_files_errors_are_shown_before_its_many_warnings() {
        let mut diags = Diagnostics::default();
        let mut sources = Sources::new();
        let file = sources.add("many.bfr", "x\n".repeat(MAX_SHOWN_PER_FILE + 10));
        for line in 0..MAX_SHOWN_PER_FILE + 5 {
            let at = Span::new(file, 2 * line, 2 * line + 1);
            diags.push(Diagnostic::warning("W0003", "hidden", at));
        }
        let last = Span::new(
            file,
            2 * (MAX_SHOWN_PER_FILE + 8),
            2 * (MAX_SHOWN_PER_FILE + 8) + 1,
        );
        diags.push(Diagnostic::error("E1111", "refused", last));
        let picked = shown(&diags, &sources);
        let codes: Vec<&str> = picked.iter().map(|d| d.code).collect();
        assert_eq!(codes.len(), MAX_SHOWN_PER_FILE + 1);
        assert_eq!(
            codes[MAX_SHOWN_PER_FILE - 1],
            "E1111",
            "the error, last by place"
        );
        assert!(
            codes[..MAX_SHOWN_PER_FILE - 1]
                .iter()
                .all(|c| *c == "W0003")
        );
        assert_eq!(codes[MAX_SHOWN_PER_FILE], "W0002");
        assert!(
            picked[MAX_SHOWN_PER_FILE]
                .message
                .contains("(0 errors, 6 warnings)")
        );
        // Within the room, all as before.
        let mut few = Diagnostics::default();
        few.push(Diagnostic::warning(
            "W0003",
            "hidden",
            Span::new(file, 0, 1),
        ));
        few.push(Diagnostic::error("E1111", "refused", Span::new(file, 2, 3)));
        let codes: Vec<&str> = shown(&few, &sources).iter().map(|d| d.code).collect();
        assert_eq!(codes, ["W0003", "E1111"]);
    }

    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(counted(1, "round"), "1 round");
        assert_eq!(counted(0, "error"), "0 errors");
        assert_eq!(counted(3, "match"), "3 matches");
        assert_eq!(counted(2, "baseline entry"), "2 baseline entries");
        assert_eq!(counted(2, "day"), "2 days");
        assert_eq!(counted(rust_decimal::Decimal::ONE, "board"), "1 board");
        assert_eq!(agreeing(1, "problem"), "problem");
        assert_eq!(agreeing(4, "problem"), "problems");
    }

    #[test]
    fn a_list_in_words_ends_with_and() {
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        let none: [&str; 0] = [];
        assert_eq!(and_list(&none), "");
    }

    /// A note in a second file whose earlier lines hold multi-byte letters:
    /// ariadne must be given character offsets there, or it slices inside a
    /// letter and panics.
    #[test]
    fn a_note_in_another_file_after_multibyte_letters_renders_at_its_place() {
        let mut sources = Sources::new();
        let first = sources.add("a.bfr", "// ── ä ──\nconst x = 1\n");
        let second = sources.add("b.bfr", "// ── registrering ── å ä ö ─────\nconst x = 2\n");
        let at = |file, text: &str, needle: &str| {
            let start = text.find(needle).unwrap_or(0);
            Span::new(file, start, start + needle.len())
        };
        let d = Diagnostic::error(
            "E0102",
            "`x` is defined twice",
            at(
                second,
                "// ── registrering ── å ä ö ─────\nconst x = 2\n",
                "x = 2",
            ),
        )
        .with_label("again")
        .with_note(
            at(first, "// ── ä ──\nconst x = 1\n", "x = 1"),
            "first defined here",
        );
        let text = Renderer::new(&sources, Colour::Off).render(&d);
        assert!(text.contains("b.bfr:2:7"), "{text}");
        assert!(text.contains("a.bfr:2:7"), "{text}");
        assert!(text.contains("first defined here"), "{text}");
        let swapped = Diagnostic::error("E0102", "`x` is defined twice", d.notes[0].0)
            .with_note(d.span, "again");
        let text = Renderer::new(&sources, Colour::Off).render(&swapped);
        assert!(text.contains("b.bfr:2:7"), "{text}");
    }

    /// A byte-order mark is not a column: the text header and the JSON place of
    /// a word on the first line are where an editor shows it.
    #[test]
    fn a_byte_order_mark_does_not_shift_the_first_lines_columns() {
        let mut sources = Sources::new();
        let text = "\u{feff}competition = \"cupp\"\nseed = 7\n";
        let file = sources.add("event.toml", text);
        let place = |needle: &str| {
            let start = text.find(needle).unwrap_or(0);
            Span::new(file, start, start + needle.len())
        };
        for (needle, at) in [("\"cupp\"", "1:15"), ("7", "2:8")] {
            let d = Diagnostic::error("E0700", "unknown", place(needle)).with_label("here");
            let rendered = Renderer::new(&sources, Colour::Off).render(&d);
            assert!(rendered.contains(&format!("event.toml:{at}")), "{rendered}");
            assert!(rendered.contains(needle), "{rendered}");
            let json = to_json(&d, &sources);
            let (line, column) = at.split_once(':').unwrap_or_default();
            assert_eq!(json["start"]["line"].to_string(), line);
            assert_eq!(json["start"]["column"].to_string(), column);
        }
    }

    /// A line echoed under a diagnostic shows its control characters as
    /// pictures: an escape sequence in a file cannot clear the screen, and a
    /// form feed is not a line break, so the header's place is the JSON's.
    #[test]
    fn control_characters_in_an_echoed_line_are_shown_as_pictures() {
        let mut sources = Sources::new();
        let text = "const a = 1\n\u{1b}[2J\u{c}\u{7}\r oops + 2\n";
        let file = sources.add("x.bfr", text);
        let start = text.find("oops").unwrap_or(0);
        let d = Diagnostic::error("E0001", "unexpected", Span::new(file, start, start + 4))
            .with_label("here");
        let shown = Renderer::new(&sources, Colour::Off).render(&d);
        assert!(
            !shown.contains(|c: char| c.is_control() && c != '\n'),
            "{shown:?}"
        );
        assert!(shown.contains("␛[2J␌␇␍ oops + 2"), "{shown}");
        assert!(shown.contains("x.bfr:2:9"), "{shown}");
        let json = to_json(&d, &sources);
        assert_eq!(json["start"]["line"], 2);
        assert_eq!(json["start"]["column"], 9);
        // The label's mark is under the word, one column per character.
        let echoed = shown.lines().find(|l| l.contains("oops")).unwrap_or("");
        let mark = shown.lines().find(|l| l.contains('┬')).unwrap_or("");
        let column = |line: &str, c: char| line.chars().position(|x| x == c);
        assert_eq!(column(echoed, 'o'), column(mark, '─'), "{shown}");
    }

    /// A note above the main place in the same file is shown in that file's
    /// one section, not under a second header that repeats the main place.
    #[test]
    fn a_note_above_the_main_place_shares_its_files_section() {
        let mut sources = Sources::new();
        let text = "competition = \"cup\"\n\n[[round]]\nwithdrawn = [5]\n";
        let file = sources.add("event.toml", text);
        let find = |needle: &str| {
            let start = text.find(needle).unwrap_or(0);
            Span::new(file, start, start + needle.len())
        };
        let d = Diagnostic::error("E0718", "the run stopped", find("5"))
            .with_label("stopped here")
            .with_note(find("\"cup\""), "in this competition");
        let shown = Renderer::new(&sources, Colour::Off).render(&d);
        assert_eq!(shown.matches("event.toml").count(), 1, "{shown}");
        assert!(shown.contains("event.toml:4:14"), "{shown}");
        let competition = shown.find("in this competition").unwrap_or(usize::MAX);
        let stopped = shown.find("stopped here").unwrap_or(0);
        assert!(competition < stopped, "{shown}");
    }
}
