//! The files of an edition and spans into them.
//!
//! A [`Span`] is a file id plus a byte range. Byte offsets are what pest gives and
//! what ariadne is configured to read (`IndexType::Byte`), so district names such as
//! `Jämtl.-Härjedalen` never shift a label.

use serde::Serialize;

/// Index of a file in a [`Sources`] store.
pub type FileId = u32;

/// A byte range in one source file. Spans never take part in equality of AST or IR
/// nodes: two nodes that differ only in where they were written are the same node.
#[derive(Debug, Clone, Copy, Default, Serialize)]
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
            name: name.into(),
            text: text.into(),
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
        let upto = f.text.get(..offset as usize).unwrap_or(&f.text);
        let line = upto.matches('\n').count() + 1;
        let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// All files, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (u32::try_from(i).unwrap_or(u32::MAX), f))
    }
}
