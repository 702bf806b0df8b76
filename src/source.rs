//! The files of an edition and spans into them.
//!
//! A [`Span`] is a file id plus a byte range, as pest gives it. The renderer turns
//! bytes into characters for ariadne through each file's line index, so district
//! names such as `Jämtl.-Härjedalen` never shift a label.

use serde::Serialize;
use std::borrow::Cow;

/// The UTF-8 byte-order mark some editors write at the start of a file. It is
/// kept in the text, so spans stay byte offsets into the file as read.
pub const BYTE_ORDER_MARK: &str = "\u{feff}";

/// Index of a file in a [`Sources`] store.
pub type FileId = u32;

/// A byte range in one source file. Spans never take part in equality of AST or IR
/// nodes: two nodes that differ only in where they were written are the same node.
#[derive(
    Debug, Clone, Copy, Default, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl PartialEq for Span {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Span {}

impl Span {
    /// A span from byte offsets; offsets past `u32::MAX` are clamped (files that
    /// large are refused before parsing).
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span {
            file,
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// The smallest span that covers both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as the user named it (relative paths stay relative, so output is
    /// the same on every machine).
    pub name: String,
    /// The text.
    pub text: String,
    /// Byte offsets at which lines start, computed on first use: diagnostics
    /// find their line by binary search instead of scanning the text each time.
    lines: std::sync::OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// Byte offsets of line starts (the first is 0).
    fn line_starts(&self) -> &[usize] {
        self.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// 0-based line of a byte offset, and the byte range of that line (without
    /// its newline).
    pub fn line_of(&self, offset: usize) -> (usize, std::ops::Range<usize>) {
        let starts = self.line_starts();
        let offset = offset.min(self.text.len());
        let line = starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let start = starts.get(line).copied().unwrap_or(0);
        let end = starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next.saturating_sub(1));
        (line, start..end.max(start))
    }

    /// The byte range of 0-based line `line` (without its newline); empty past
    /// the last line.
    pub fn line_of_index(&self, line: usize) -> std::ops::Range<usize> {
        let starts = self.line_starts();
        let Some(start) = starts.get(line).copied() else {
            return self.text.len()..self.text.len();
        };
        let end = starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next.saturating_sub(1));
        start..end.max(start)
    }
}

/// Every text bfr has read in this run: the files of the editions, and the
/// expression given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a text and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: printable_name(&name.into()),
            text: text.into(),
            lines: std::sync::OnceLock::new(),
        });
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }

    /// The file's name, or `?` for an id this store does not hold.
    pub fn name(&self, id: FileId) -> &str {
        self.get(id).map_or("?", |f| f.name.as_str())
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let Some(f) = self.get(file) else {
            return (0, 0);
        };
        let (line, range) = f.line_of(offset as usize);
        let upto = (offset as usize).clamp(range.start, f.text.len());
        // A byte-order mark is not a column: an editor does not show it.
        let from = if range.start == 0 && f.text.starts_with(BYTE_ORDER_MARK) {
            BYTE_ORDER_MARK.len().min(upto)
        } else {
            range.start
        };
        let col = f.text.get(from..upto).map_or(0, |l| l.chars().count());
        (line + 1, col + 1)
    }

    /// All files, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (u32::try_from(i).unwrap_or(u32::MAX), f))
    }
}

/// A file name as it can be printed on one line: control characters (a newline
/// in a file name, say) are shown escaped, so a name cannot break a diagnostic's
/// header or forge a line of output.
pub fn printable_name(name: &str) -> String {
    escaped(name, |c| c.is_control() || direction_control(c).is_some()).into_owned()
}

/// A text of several lines as it can be printed: control characters but the
/// line breaks shown escaped, so that a title or note from an edition cannot move
/// the cursor, clear the screen or colour what follows it; and the characters
/// that reorder text (see [`direction_control`]) escaped, so that it cannot show
/// its words in another order than they have.
pub fn printable_text(text: &str) -> Cow<'_, str> {
    escaped(text, |c| {
        (c.is_control() && c != '\n') || direction_control(c).is_some()
    })
}

/// A page of HTML (or a hover's Markdown) as a file may hold it: every control
/// character but a tab and the line breaks (HTML forbids most of them) and the
/// characters that reorder text ([`direction_control`]) escaped, as
/// [`printable_text`] escapes them, so that an edition's text shows its words on
/// the page in the order they have.
pub fn printable_page(page: &str) -> Cow<'_, str> {
    escaped(page, |c| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || direction_control(c).is_some()
    })
}

/// The Unicode name of `c` if it is one of the invisible characters that change
/// the order in which the text after it is shown (an embedding, an override, an
/// isolate or the end of one). A line holding one can show an editor its words in
/// an order other than the order bfr reads them in ("Trojan Source",
/// CVE-2021-42574), so bfr warns of them and never shows them raw.
pub fn direction_control(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        _ => return None,
    })
}

/// A file's text as a diagnostic may echo it: every control character but a
/// line break (`\n`, or `\r` before it) and a tab, and the Unicode line and
/// paragraph separators and the characters that reorder text
/// ([`direction_control`]), replaced by one visible character (`␛` for an escape,
/// `␇` for a bell, `�` where Unicode has no picture). One character stands for
/// one, so every column is where it was; a line is what bfr counts as a line, in
/// the order bfr reads it.
pub fn pictured(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| {
        (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
            || matches!(c, '\u{2028}' | '\u{2029}')
            || direction_control(c).is_some()
    };
    let lone_return = |at: usize| text.as_bytes().get(at + 1) != Some(&b'\n');
    let shown = |at: usize, c: char| c == '\r' && lone_return(at) || hidden(c);
    if !text.char_indices().any(|(at, c)| shown(at, c)) {
        return Cow::Borrowed(text);
    }
    text.char_indices()
        .map(|(at, c)| match c {
            _ if !shown(at, c) => c,
            '\0'..='\x1f' => char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'),
            '\x7f' => '\u{2421}',
            _ => '\u{fffd}',
        })
        .collect::<String>()
        .into()
}

/// `text` with every character that `hidden` picks written as its escape;
/// borrowed when there is none.
fn escaped(text: &str, hidden: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&hidden) {
        return Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_default().collect()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// The operating system said no (missing, permission, …).
    Io(std::io::Error),
    /// The path is not a regular file: a named pipe, a device, a socket. Reading
    /// one could block for ever or never end, so bfr does not try.
    NotAFile(&'static str),
    /// The file holds more bytes than the limit (the size found, at least).
    TooLarge(u64),
}

/// What kind of thing a path is, in words, when it is not a regular file.
fn kind_of(meta: &std::fs::Metadata) -> Option<&'static str> {
    let ft = meta.file_type();
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a named pipe");
        }
        if ft.is_char_device() || ft.is_block_device() {
            return Some("a device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Reads a file of at most `limit` bytes. The kind (a regular file, links
/// followed) and the size are checked before the file is opened, and the read
/// itself stops after `limit + 1` bytes, so a file that grows while it is read, or
/// a special file that claims a size of 0, cannot make bfr read without end.
pub fn read_bounded(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(Refusal::Io)?;
    if let Some(kind) = kind_of(&meta) {
        return Err(Refusal::NotAFile(kind));
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(Refusal::Io)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > limit {
        return Err(Refusal::TooLarge(read));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pictured_text_keeps_its_lines_tabs_and_columns() {
        let text = "a\u{1b}[2J\u{7}b\tc\r\nd\re\u{c}f\u{7f}g\u{85}h\u{2028}i\u{202e}j\u{2069}\n";
        let shown = pictured(text);
        assert_eq!(
            shown,
            "a␛[2J␇b\tc\r\nd␍e␌f␡g\u{fffd}h\u{fffd}i\u{fffd}j\u{fffd}\n"
        );
        assert_eq!(shown.chars().count(), text.chars().count());
        assert!(matches!(pictured("plain\ttext\r\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn printable_texts_escape_all_control_characters_but_line_breaks() {
        assert_eq!(
            printable_text("a\u{1b}[2J\nb\tc\r"),
            "a\\u{1b}[2J\nb\\tc\\r"
        );
        assert!(matches!(printable_text("a\nb"), Cow::Borrowed(_)));
        assert_eq!(printable_name("a\nb"), "a\\nb");
    }

    #[test]
    fn characters_that_reorder_text_are_escaped_and_named() {
        let reversed = "Cup\u{202e}puC\u{202c} \u{2066}x\u{2069}";
        assert_eq!(
            printable_text(reversed),
            "Cup\\u{202e}puC\\u{202c} \\u{2066}x\\u{2069}"
        );
        assert_eq!(printable_name("a\u{202e}b"), "a\\u{202e}b");
        let named: Vec<_> = ('\u{2000}'..='\u{206f}')
            .filter_map(direction_control)
            .collect();
        assert_eq!(named.len(), 9, "{named:?}");
        // Marks (U+200E, U+200F) change no order of their own: Arabic or Hebrew
        // text may need them, and they are left as they are.
        assert_eq!(direction_control('\u{200f}'), None);
        assert!(matches!(printable_text("\u{200f}שלום"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_page_keeps_its_whitespace_and_escapes_what_html_forbids() {
        let page = "<td>A\tB\r\n\u{202e}C\u{1b}[2J\u{7f}</td>\n";
        assert_eq!(
            printable_page(page),
            "<td>A\tB\r\n\\u{202e}C\\u{1b}[2J\\u{7f}</td>\n"
        );
        assert!(matches!(
            printable_page("<p>\u{200f}שלום\t</p>\r\n"),
            Cow::Borrowed(_)
        ));
    }
}
