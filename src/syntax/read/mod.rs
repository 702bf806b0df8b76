//! A direct reader of `.bfr` text: text → AST without pest.
//!
//! pest spends most of its time on its own machinery (a token queue, attempts
//! kept for "expected …", a snapshot at every sequence) and on the grammar's
//! backtracking. This reader follows `grammar/bfr.pest` rule by rule — the same
//! ordered choices, the same places where layout is skipped (so every span ends
//! where pest's pair ends, trailing layout included) — and builds the AST as the
//! lowering (`syntax::lower`) would from pest's pairs.
//!
//! It reads only what it can read exactly as pest and the lowering would.
//! Anything else — text the grammar refuses, a shape the lowering refuses (a
//! number too large, a date not in the calendar, a duration out of order), a tree
//! near the lowering's depth limit or deeper than the reader recurses — makes it
//! answer [`Step::Unread`] (or `None` for an expression), and pest parses that
//! item and the lowering lowers it as before, so every diagnostic comes from the
//! one grammar and is worded as it always was. The tests (`read::tests`) check
//! that both give the same tree, spans included, or the same diagnostic, on every
//! `.bfr` file of the repository and on mutated copies of the edition's items.

mod block;
mod decl;
mod expr;
mod literal;

use super::ast::{Expr, Item, Name};
use super::lower::nfc;
use crate::source::{FileId, Span};

/// A byte range of the text: where a token starts and ends.
type Bytes = (usize, usize);

/// What the reader made of the text at one position of a file.
pub(super) enum Step {
    /// One item and where pest's `item` pair would end.
    Item(Box<Item>, usize),
    /// Only layout is left: the file ends.
    End,
    /// Not read here: pest parses this item.
    Unread,
}

/// How deep [`Reader::expr`] recurses before leaving the item to pest.
const MAX_RECURSION: usize = 96;

/// Nesting the lowering counts (`Lower::nested`) that one root expression may
/// add up before the reader leaves it to pest: over all its branches but the
/// values of a list, of which only the deepest counts. The count bounds the
/// deepest branch, so under it the lowering's depth limit cannot be reached.
const MAX_NESTING: usize = super::lower::MAX_EXPR_DEPTH / 2;

/// A position in one text, with what makes spans and what may stop the reading.
pub(super) struct Reader<'t> {
    text: &'t str,
    pos: usize,
    file: FileId,
    /// Added to every position for spans: an expression read inside an event file.
    base: usize,
    /// Set when the text is something this reader leaves to pest: every rule then
    /// fails, and the caller answers [`Step::Unread`].
    unsure: bool,
    /// How many [`Reader::expr`] calls are under way.
    recursion: usize,
    /// The nesting the lowering would count in the current root expression.
    nesting: usize,
    /// The last position a name was looked for and where the name there ends:
    /// the grammar tries a name at one place up to four times (a lambda's
    /// parameter, an argument's name, a record's name, a path).
    last_ident: (usize, Option<usize>),
}

/// Reads the item that follows `at` (after layout), as `file_step` would.
pub(super) fn item(text: &str, file: FileId, at: usize) -> Step {
    let mut r = Reader::new(text, file, 0, at);
    r.skip();
    if r.pos >= text.len() {
        return Step::End;
    }
    match r.item() {
        Some(item) if !r.unsure => Step::Item(Box::new(item), r.pos),
        _ => Step::Unread,
    }
}

/// Reads a whole text as one expression (`expr_input`), its spans moved by `base`;
/// `None` where pest must parse it.
pub(super) fn expr_input(text: &str, file: FileId, base: usize) -> Option<Expr> {
    let mut r = Reader::new(text, file, base, 0);
    r.skip();
    let e = r.root_expr()?;
    r.skip();
    (r.pos == text.len() && !r.unsure).then_some(e)
}

impl<'t> Reader<'t> {
    fn new(text: &'t str, file: FileId, base: usize, pos: usize) -> Self {
        Reader {
            text,
            pos,
            file,
            base,
            unsure: false,
            recursion: 0,
            nesting: 0,
            last_ident: (usize::MAX, None),
        }
    }

    /// Gives up on the item: pest reads it.
    fn give_up<T>(&mut self) -> Option<T> {
        self.unsure = true;
        None
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, self.base + start, self.base + end)
    }

    fn name(&self, (start, end): (usize, usize)) -> Name {
        Name {
            text: nfc(self.text.get(start..end).unwrap_or("")),
            span: self.span(start, end),
        }
    }

    fn rest(&self) -> &'t [u8] {
        self.text.as_bytes().get(self.pos..).unwrap_or(&[])
    }

    fn at_str(&self, s: &str) -> bool {
        // Most tries fail at the first byte: no call to compare the rest.
        let (rest, s) = (self.rest(), s.as_bytes());
        rest.first() == s.first() && rest.starts_with(s)
    }

    /// Whether the grammar's literal token `s` stands here: a word (a token
    /// that begins with a letter) only as a whole word, as the grammar writes
    /// every keyword (`!glued_then ~ "then"`, `or_op = @{ "or" ~ !ident_char }`);
    /// punctuation as it is.
    fn at_token(&self, s: &str) -> bool {
        let is_word = s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
        self.at_str(s) && !(is_word && ident_char_at(self.text, self.pos + s.len()))
    }

    /// Takes the literal token `s` (see [`Reader::at_token`]) if it stands here.
    fn eat(&mut self, s: &str) -> bool {
        let found = self.at_token(s);
        if found {
            self.pos += s.len();
        }
        found
    }

    fn peek(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// pest's implicit layout between two tokens of a non-atomic rule: the
    /// grammar's `WHITESPACE`, repeated.
    fn skip(&mut self) {
        loop {
            let rest = self.rest();
            match rest.first() {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.pos += 1,
                Some(0xEF) if rest.starts_with("\u{FEFF}".as_bytes()) => self.pos += 3,
                // `//` not followed by `/`, or `////`: a comment; `///` is a doc.
                Some(b'/')
                    if rest.starts_with(b"//")
                        && (rest.get(2) != Some(&b'/') || rest.get(3) == Some(&b'/')) =>
                {
                    let line = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    self.pos += line;
                }
                _ => return,
            }
        }
    }

    /// `ident = @{ !keyword ~ ident_start ~ ident_char* }`: its byte range.
    fn ident(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        let end = if self.last_ident.0 == start {
            self.last_ident.1
        } else {
            let end = self.ident_end();
            self.last_ident = (start, end);
            end
        }?;
        self.pos = end;
        Some((start, end))
    }

    /// Where the name at the position ends, if one begins there.
    fn ident_end(&self) -> Option<usize> {
        let start = self.pos;
        let first = self.text.get(start..)?.chars().next()?;
        if !(first == '_' || is_xid_start(first)) {
            return None;
        }
        let end = word_end(self.text, start);
        (!is_keyword(self.text.get(start..end)?)).then_some(end)
    }

    /// `path = ${ ident ~ ("." ~ ident)* }`: names joined by dots, no layout.
    fn path_names(&mut self) -> Option<(Vec<Name>, usize)> {
        let start = self.pos;
        let first = self.ident()?;
        let mut names = vec![self.name(first)];
        loop {
            let before = self.pos;
            if !self.eat(".") {
                break;
            }
            match self.ident() {
                Some(n) => names.push(self.name(n)),
                None => {
                    self.pos = before;
                    break;
                }
            }
        }
        Some((names, start))
    }

    /// `token`, layout, then `read`; where either is missing the position is left
    /// where it was.
    fn token_then<T>(
        &mut self,
        token: &str,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        let start = self.pos;
        if !self.eat(token) {
            return None;
        }
        self.skip();
        let read = read(self);
        if read.is_none() {
            self.pos = start;
        }
        read
    }

    /// Reads `part*` where layout may stand between the parts (skipped before
    /// each from the second on, as pest does); each part is read and kept by
    /// `part` itself, which says whether it read one. The position ends after
    /// the last part that was read. False when a part left the reader unsure.
    fn parts(&mut self, mut part: impl FnMut(&mut Self) -> bool) -> bool {
        let mut first = true;
        loop {
            let before = self.pos;
            if !first {
                self.skip();
            }
            first = false;
            if !part(self) {
                self.pos = before;
                break;
            }
        }
        !self.unsure
    }

    /// Reads `(sep ~ part)*` after a first part (layout before each `sep`
    /// only from the second repetition on, as pest does); each part is pushed by
    /// `part` itself. The position ends after the last part that was read.
    fn repeat_after(&mut self, sep: &str, mut part: impl FnMut(&mut Self) -> bool) {
        let mut first = true;
        loop {
            let before = self.pos;
            if !first {
                self.skip();
            }
            first = false;
            if !self.eat(sep) {
                self.pos = before;
                return;
            }
            self.skip();
            if !part(self) {
                self.pos = before;
                return;
            }
        }
    }

    /// `"{" ~ (X ~ ("," ~ X)* ~ ","?)? ~ "}"` and the like: `open`, a list of
    /// parts separated by commas with an optional trailing comma, `close`.
    fn comma_list(
        &mut self,
        open: &str,
        close: &str,
        mut part: impl FnMut(&mut Self) -> bool,
    ) -> bool {
        if !self.eat(open) {
            return false;
        }
        self.skip();
        let before = self.pos;
        if part(self) {
            self.skip();
            self.repeat_after(",", &mut part);
            self.skip();
            self.eat(",");
        } else {
            self.pos = before;
        }
        self.skip();
        self.eat(close)
    }
}

/// Where the run of name characters that starts at `at` ends.
fn word_end(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or("");
    // ASCII first, byte by byte; the first other character goes the long way.
    let ascii = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    match rest.as_bytes().get(ascii) {
        Some(b) if !b.is_ascii() => rest
            .get(ascii..)
            .unwrap_or("")
            .char_indices()
            .find(|&(_, c)| !is_ident_char(c))
            .map_or(text.len(), |(i, _)| at + ascii + i),
        _ => at + ascii,
    }
}

/// `ident_char` at byte `at` (pest's `!ident_char` is its negation).
fn ident_char_at(text: &str, at: usize) -> bool {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(is_ident_char)
}

fn is_ident_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        pest::unicode::XID_CONTINUE(c)
    }
}

fn is_xid_start(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        pest::unicode::XID_START(c)
    }
}

/// The grammar's `keyword`: a whole word that is a reserved word, except
/// `refer` and `notice`, which the grammar's trie leaves to names.
fn is_keyword(word: &str) -> bool {
    // Spelt out rather than looked up in `RESERVED`, so that the compiler compares
    // lengths and then words of known length; a test keeps the two the same.
    matches!(
        word,
        "reading"
            | "edition"
            | "unit"
            | "enum"
            | "record"
            | "table"
            | "scale"
            | "fn"
            | "const"
            | "example"
            | "procedure"
            | "competition"
            | "stage"
            | "qualification"
            | "ref"
            | "domain"
            | "if"
            | "then"
            | "else"
            | "match"
            | "let"
            | "in"
            | "and"
            | "or"
            | "not"
            | "true"
            | "false"
            | "warning"
            | "deduct"
            | "forfeit"
            | "contradicts"
            | "alias"
            | "whole"
            | "as"
            | "cites"
            | "remove"
    )
}

#[cfg(test)]
mod tests;
