//! A flat scan of `.bfr` text, byte by byte, run before pest.
//!
//! pest is a recursive-descent parser: a file with 100,000 nested parentheses or
//! `if`s would overflow the stack inside it, and its call limit counts calls, not
//! depth. bfr builds pest without its per-rule look at the remaining stack (a
//! quarter of its time), so this scan is what keeps pest's recursion bounded: in
//! one linear pass — skipping strings and comments whole — it
//! measures how deeply brackets nest and how many `if`, `let` and `match` can be
//! open inside one another, and deep input is refused with a diagnostic before
//! pest sees it.
//!
//! Every way the grammar recurses passes through a bracket (`(`, `[`, `{`) or
//! through `if`, `let` or `match` (a condition, a bound value or a matched value
//! holds a whole expression); `not`, a leading `-`, operators and `.name`/calls
//! are repetitions in the grammar, and their depth in the tree is the lowering's
//! to bound. The scan counts every `if`, `let` and `match` it sees — at the end of
//! a longer word too (`2if` is `2` then `if`) — and forgets those of one bracket
//! level when that level closes, or at a token that no expression can go on over
//! (`,`, `;`, `=>` or a declaration keyword): any `if`, `let` or `match` of that
//! level has ended there. The count is therefore never below pest's nesting.
//!
//! The same pass bounds what pest holds in memory: it counts the pieces from the
//! start of one declaration to the next ([`MAX_PIECES`]) and the commas of each
//! list ([`MAX_LIST_LEN`]), so no declaration pest is given is longer than a fixed
//! size, however large and dense the file. A place counts as the start of a
//! declaration only where pest's declaration before it cannot go on over it
//! (see `Pieces::step`); else one declaration of endless pieces could begin
//! the count afresh at each and pass.
//!
//! It was first a logos lexer; a byte loop with a table of name bytes does the
//! same in about three quarters of the instructions (every file is scanned whole
//! before it is read). The lexer is kept in the tests as the reference the loop
//! must agree with, on generated texts and on every rules file of the repository.

/// The deepest nesting of brackets a file may have. Real rule files stay below 10.
pub const MAX_DEPTH: usize = 64;

/// The most `if`, `let` and `match` that may be open inside one another (as the
/// scan counts them). Real rules stay below 30; the lowering refuses an expression
/// more than 1,024 levels deep, so this bound only meets text that would be refused
/// anyway, or text with thousands of them in one list of properties.
pub const MAX_OPEN: usize = 2048;

/// The most pieces (words, numbers, signs, quoted texts and comments; layout not
/// counted) from the start of one declaration to the next, or in one expression read on
/// its own (an incident's rule, `bfr eval`). Where the direct reader leaves a
/// declaration to pest, pest holds a queue of tokens for all of it — up to about
/// twenty per piece, over a kilobyte for the two bytes of `+1` — and a syntax
/// error in it is worded from a second, detailed parse; this bound is what keeps
/// that queue, and the time spent on it, a fixed size, whatever the file. A list
/// of 10,000 values (the most a list may hold) written as `-12.5 VP,` is 60,000
/// pieces; the largest declaration of the 2015 edition is about 1,100.
pub const MAX_PIECES: usize = 100_000;

/// The most values a list holds (E0208): a list with more commas than this is
/// refused before it is parsed, as the checker would refuse it after.
pub use crate::ir::MAX_LIST_LEN;

/// Whether `word` is one of the reserved words declarations begin with, which no
/// expression can take. A `match` on the text is compiled to a switch on its
/// length, where a list's `contains` compares with every entry: every word of a
/// file is looked up here.
fn starts_declaration(word: &[u8]) -> bool {
    matches!(
        word,
        b"const"
            | b"fn"
            | b"reading"
            | b"scale"
            | b"table"
            | b"example"
            | b"enum"
            | b"record"
            | b"unit"
            | b"procedure"
            | b"competition"
            | b"remove"
            | b"edition"
    )
}

/// Why a text is refused before it is parsed, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooDeep {
    /// The byte offset of the first bracket that goes deeper than [`MAX_DEPTH`].
    Brackets(usize),
    /// The byte offset of the word holding the `if`, `let` or `match` that makes
    /// more than [`MAX_OPEN`] open, and its length.
    Open(usize, usize),
    /// The byte offset and length of the declaration word (or the first piece,
    /// where none came before) that more than [`MAX_PIECES`] pieces follow.
    Long(usize, usize),
    /// The byte offset of the `[` of a list with more than [`MAX_LIST_LEN`]
    /// commas between its brackets: more values than a list may hold.
    LongList(usize),
}

/// For each bracket level open, where its `[` is and how many commas stand in
/// it so far; `None` for a `(` or `{` and the text outside all brackets. Only a
/// list literal has commas at the level of a `[` (an index and a list type hold
/// one expression or type), and `n` values are written with at least `n - 1`.
type ListCommas = Vec<Option<(usize, usize)>>;

/// A piece of text as the count of pieces and list values tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    /// A name, keyword or number.
    Word(&'a [u8]),
    /// `(`, `{` or `[`; `list` for `[`.
    Open {
        list: bool,
    },
    /// `)`, `]` or `}`; `brace` for `}`.
    Close {
        brace: bool,
    },
    Comma,
    /// A quoted text, with or without its closing quote.
    Quoted,
    Comment,
    /// Any other sign or operator.
    Other,
}

/// The last piece other than a comment, as far as it tells whether the word
/// after it begins a declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Before {
    /// None yet, or a `}` or a quoted text: the end of a declaration, which no
    /// expression continues over with a name.
    End,
    /// `remove` or a comma: an `example` here is one of a `remove`'s targets.
    ListOfTargets,
    Other,
}

/// A word that begins a declaration only where the piece after it says so
/// (`notice "…"`, `entries {`, `federation ref …`), and is a name elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    at: usize,
    len: usize,
    /// `notice`, followed by a quoted text; else `entries` or `federation`,
    /// followed by `{` or `ref`.
    notice: bool,
}

impl Pending {
    /// Whether `next` shows the word to begin a declaration.
    fn begun_by(self, next: Piece) -> bool {
        if self.notice {
            next == Piece::Quoted
        } else {
            matches!(next, Piece::Open { list: false } | Piece::Word(b"ref"))
        }
    }
}

/// The pieces since the last declaration word and the commas of each list
/// open, piece by piece: the part of the pre-scan that bounds what the parser
/// holds (E0011, E0208).
struct Pieces {
    count: usize,
    /// The declaration word's byte offset and length; `None` before the first.
    start: Option<(usize, usize)>,
    lists: ListCommas,
    before: Before,
    /// A word not counted yet, until the piece after it says whether it
    /// begins a declaration.
    pending: Option<Pending>,
}

impl Pieces {
    fn new() -> Self {
        Pieces {
            count: 0,
            start: None,
            lists: vec![None],
            before: Before::End,
            pending: None,
        }
    }

    /// Counts `piece`, `len` bytes at `at`; where that makes a declaration or a
    /// list too long, where it begins.
    ///
    /// A reserved declaration word begins a declaration, but for an `example`
    /// among a `remove`'s targets. `notice`, `entries` and `federation` are
    /// names too: outside brackets, one begins a declaration where the piece
    /// after it says so and no name could go on from the piece before it
    /// (`notice "…"` is never in an expression, so `notice` needs only the
    /// piece after it). Each of these can begin one declaration at most in any other
    /// (`unit notice "…"`, `const c: entries ref …`), so none lets a
    /// declaration grow without bound by beginning the count afresh.
    fn step(&mut self, piece: Piece, at: usize, len: usize) -> Option<TooDeep> {
        if piece == Piece::Comment {
            return self.one(at, len);
        }
        if let Some(word) = self.pending.take() {
            if word.begun_by(piece) {
                self.declaration(word.at, word.len);
            } else if let Some(long) = self.one(word.at, word.len) {
                return Some(long);
            }
        }
        let outside = self.lists.len() == 1;
        let long = match piece {
            Piece::Word(b"example") if self.before == Before::ListOfTargets => self.one(at, len),
            Piece::Word(word) if starts_declaration(word) => {
                self.declaration(at, len);
                None
            }
            Piece::Word(b"notice") if outside => {
                self.pending = Some(Pending {
                    at,
                    len,
                    notice: true,
                });
                None
            }
            Piece::Word(b"entries" | b"federation") if outside && self.before == Before::End => {
                self.pending = Some(Pending {
                    at,
                    len,
                    notice: false,
                });
                None
            }
            _ => self.one(at, len),
        };
        if long.is_some() {
            return long;
        }
        self.before = match piece {
            Piece::Word(b"remove") | Piece::Comma => Before::ListOfTargets,
            Piece::Close { brace: true } | Piece::Quoted => Before::End,
            _ => Before::Other,
        };
        match piece {
            Piece::Open { list } => self.lists.push(list.then_some((at, 0))),
            Piece::Close { .. } if self.lists.len() > 1 => {
                self.lists.pop();
            }
            Piece::Comma => return self.one_comma(),
            _ => {}
        }
        None
    }

    /// At the end of the text: a word still waiting is counted.
    fn finish(&mut self) -> Option<TooDeep> {
        let word = self.pending.take()?;
        self.one(word.at, word.len)
    }

    /// One more comma at the innermost level; where that makes more than
    /// [`MAX_LIST_LEN`] in a list, the list's `[`.
    fn one_comma(&mut self) -> Option<TooDeep> {
        let (at, commas) = self.lists.last_mut()?.as_mut()?;
        *commas += 1;
        (*commas > MAX_LIST_LEN).then_some(TooDeep::LongList(*at))
    }

    /// Counts one more piece, `len` bytes at `at`; where that makes too many,
    /// the place the declaration (or the text) begins.
    fn one(&mut self, at: usize, len: usize) -> Option<TooDeep> {
        let (start, start_len) = *self.start.get_or_insert((at, len));
        self.count += 1;
        (self.count > MAX_PIECES).then_some(TooDeep::Long(start, start_len))
    }

    /// A declaration word at `at`: it is the first piece of a new declaration.
    fn declaration(&mut self, at: usize, len: usize) {
        self.count = 1;
        self.start = Some((at, len));
    }
}

/// How many `if`, `let` or `match` open in `word` (a run of letters, digits
/// and `_`): one if it ends with one of them, else none. The grammar reads these
/// keywords only where no letter, digit or `_` follows (`match_x` and `ifx` are
/// names), and within a word only its end is followed by none; its start may
/// follow a number (`2if` is `2` then `if`), so the end is what is looked at.
fn openers(word: &[u8]) -> usize {
    usize::from(word.ends_with(b"if") || word.ends_with(b"let") || word.ends_with(b"match"))
}

/// The first place where `text` nests too deeply for the parser, if any.
///
/// One pass over the bytes, written out rather than lexed: every file is scanned
/// before it is read, and a byte loop does in a few instructions what a lexer's
/// state machine does per token. Strings (any character after a backslash, a line
/// break too) and `//` comments are passed over whole; an unterminated string
/// runs to the end of the text.
pub fn too_deep(text: &str) -> Option<TooDeep> {
    // How many `if`, `let` and `match` are open at each bracket level, and in all.
    let mut open = vec![0usize];
    let mut total = 0usize;
    let mut pieces = Pieces::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if !is_layout(b) && !is_name_byte(b) && b < 0x80 {
            // A sign, a bracket, a quoted text or a comment: one piece each (a
            // two-sign operator such as `=>` is one, as the branch below takes it).
            if let Some(long) = pieces.step(sign(bytes, at), at, 1) {
                return Some(long);
            }
        }
        match b {
            b'(' | b'{' | b'[' => {
                if open.len() > MAX_DEPTH {
                    return Some(TooDeep::Brackets(at));
                }
                open.push(0);
                at += 1;
            }
            b')' | b'}' | b']' => {
                if open.len() > 1 {
                    total -= open.pop().unwrap_or(0);
                }
                at += 1;
            }
            b'"' => at = string_end(bytes, at + 1),
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = memchr_newline(bytes, at);
            }
            b',' | b';' => {
                forget_level(&mut open, &mut total);
                at += 1;
            }
            // `=>` ends every `if` of its level; `==`, `<=`, `>=` and `!=` are one
            // operator, so the `=` of `<=>` does not begin a `=>`.
            b'=' if bytes.get(at + 1) == Some(&b'>') => {
                forget_level(&mut open, &mut total);
                at += 2;
            }
            b'=' | b'<' | b'>' | b'!' => at += 1 + usize::from(bytes.get(at + 1) == Some(&b'=')),
            // Other ASCII: layout and operators that no nesting depends on.
            0..0x80 if !is_name_byte(b) => at += 1,
            _ => {
                let end = word_end(text, at);
                if end == at {
                    // A character that is not part of a name: its length in bytes.
                    let len = text
                        .get(at..)
                        .and_then(|r| r.chars().next())
                        .map_or(1, char::len_utf8);
                    if let Some(long) = pieces.step(Piece::Other, at, len) {
                        return Some(long);
                    }
                    at += len;
                    continue;
                }
                let word = bytes.get(at..end).unwrap_or_default();
                if starts_declaration(word) {
                    forget_level(&mut open, &mut total);
                }
                if let Some(long) = pieces.step(Piece::Word(word), at, end - at) {
                    return Some(long);
                }
                if openers(word) > 0 && one_more_open(&mut open, &mut total) {
                    return Some(TooDeep::Open(at, end - at));
                }
                at = end;
            }
        }
    }
    pieces.finish()
}

/// A `{` left open: where it is, and the line that shows it should have been
/// closed before it — the first line inside it that is not indented more than
/// the line the `{` stands on (a `}` so indented closes it), or the end of the
/// text. Strings and comments are passed over whole. Only where every bracket
/// closes the one it should and only braces are left open at the end: a `)`
/// missing or a closed block's slip is no brace's. Said only of a file that
/// does not parse: a rule file as `bfr fmt` writes it indents whatever stands
/// inside braces, so a line that is not is where the missing `}` belongs.
pub fn unclosed_brace(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    if !only_braces_left_open(bytes) {
        return None;
    }
    // Each open bracket, where it is, and the indentation of its line.
    let mut open: Vec<(u8, usize, usize)> = Vec::new();
    let mut indent = 0;
    let mut line_start = true;
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if line_start && !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            line_start = false;
            let comment = b == b'/' && bytes.get(at + 1) == Some(&b'/');
            if let Some(&(b'{', brace, brace_indent)) = open.last()
                && !comment
                && (indent < brace_indent || (indent == brace_indent && b != b'}'))
            {
                return Some((brace, at));
            }
        }
        match b {
            b'\n' => {
                (line_start, indent) = (true, 0);
                at += 1;
            }
            b' ' | b'\t' if line_start => {
                indent += 1;
                at += 1;
            }
            b'(' | b'{' | b'[' => {
                open.push((b, at, indent));
                at += 1;
            }
            b')' | b'}' | b']' => {
                open.pop();
                at += 1;
            }
            b'"' => at = string_end(bytes, at + 1),
            b'/' if bytes.get(at + 1) == Some(&b'/') => at = memchr_newline(bytes, at),
            _ => at += 1,
        }
    }
    open.iter()
        .rev()
        .find(|(k, _, _)| *k == b'{')
        .map(|&(_, brace, _)| (brace, text.len()))
}

/// Whether each closing bracket of `bytes` closes the kind opened last, and
/// what is open at the end is one or more `{` and nothing else.
fn only_braces_left_open(bytes: &[u8]) -> bool {
    let mut open: Vec<u8> = Vec::new();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'(' | b'{' | b'[' => open.push(b),
            b')' | b'}' | b']' => {
                let opener = match b {
                    b')' => b'(',
                    b'}' => b'{',
                    _ => b'[',
                };
                if open.pop() != Some(opener) {
                    return false;
                }
            }
            b'"' => {
                at = string_end(bytes, at + 1);
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = memchr_newline(bytes, at);
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    !open.is_empty() && open.iter().all(|&k| k == b'{')
}

/// The piece that the ASCII sign at `at` begins.
fn sign(bytes: &[u8], at: usize) -> Piece<'static> {
    match bytes.get(at) {
        Some(&b'[') => Piece::Open { list: true },
        Some(&b'(' | &b'{') => Piece::Open { list: false },
        Some(&b) if matches!(b, b')' | b'}' | b']') => Piece::Close { brace: b == b'}' },
        Some(&b',') => Piece::Comma,
        Some(&b'"') => Piece::Quoted,
        Some(&b'/') if bytes.get(at + 1) == Some(&b'/') => Piece::Comment,
        _ => Piece::Other,
    }
}

/// Where the string whose text begins at `at` ends: after its closing quote, or
/// at the end of the text if it has none.
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => return at + 1,
            // The escaped character, a line break or a multi-byte one, is passed
            // over with the rest of the string: none of its bytes is a quote.
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Where the line holding `at` ends (at its line break, or the end of the text).
fn memchr_newline(bytes: &[u8], at: usize) -> usize {
    bytes
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        .map_or(bytes.len(), |n| at + n)
}

/// Layout between pieces: not counted as one.
fn is_layout(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// An ASCII letter, digit or `_`: the ASCII part of `XID_Continue`.
fn is_name_byte(b: u8) -> bool {
    NAME_BYTES[usize::from(b)]
}

/// [`is_name_byte`] for every byte: one load, where the comparisons it stands for
/// are most of the scan's instructions (most bytes of a file are in names).
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'_';
        b += 1;
    }
    table
};

/// Where the run of name characters (`XID_Continue`, as pest's names) that
/// begins at `at` ends; `at` if none begins there.
fn word_end(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    loop {
        // ASCII byte by byte; another character is decoded and looked up.
        match bytes.get(at) {
            Some(&b) if is_name_byte(b) => at += 1,
            Some(&b) if b >= 0x80 => match text.get(at..).and_then(|r| r.chars().next()) {
                Some(c) if pest::unicode::XID_CONTINUE(c) => at += c.len_utf8(),
                _ => return at,
            },
            _ => return at,
        }
    }
}

/// One more `if`, `let` or `match` open at the innermost bracket level; whether
/// that makes more than [`MAX_OPEN`] open in all.
fn one_more_open(open: &mut [usize], total: &mut usize) -> bool {
    *total += 1;
    if let Some(level) = open.last_mut() {
        *level += 1;
    }
    *total > MAX_OPEN
}

/// Forgets the `if`, `let` and `match` of the innermost bracket level.
fn forget_level(open: &mut [usize], total: &mut usize) {
    if let Some(level) = open.last_mut() {
        *total -= *level;
        *level = 0;
    }
}

/// The scan as first written, with a logos lexer: slower (a token per word), and
/// kept as the reference [`too_deep`] is compared with.
#[cfg(test)]
mod by_lexer {
    use super::{
        MAX_DEPTH, Piece, Pieces, TooDeep, forget_level, one_more_open, openers, starts_declaration,
    };
    use logos::Logos;

    /// The tokens that matter for nesting, and every other piece; layout is skipped.
    #[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
    #[logos(skip r"[ \t\r\n]+")]
    enum Token {
        #[token("(")]
        #[token("{")]
        #[token("[")]
        Open,
        #[token(")")]
        #[token("}")]
        #[token("]")]
        Close,
        // pest's string takes any character after a backslash, a line break too.
        #[regex(r#""([^"\\]|\\(.|\n))*""#)]
        Str,
        /// A quoted text without its closing quote runs to the end of the text.
        #[regex(r#""([^"\\]|\\(.|\n))*\\?"#)]
        Unterminated,
        #[regex(r"//[^\n]*", allow_greedy = true)]
        Comment,
        #[token("/")]
        Slash,
        /// A name, keyword or number: as long as pest's names are (`XID_Continue`).
        #[regex(r"\p{XID_Continue}+")]
        Word,
        /// Where every `if`, `let` and `match` of the level has ended.
        #[token(",")]
        #[token(";")]
        #[token("=>")]
        End,
        /// Operators that share a character with `=>` (`<=>` is `<=` and `>`).
        #[token("=")]
        #[token("==")]
        #[token("<=")]
        #[token(">=")]
        #[token("!=")]
        #[token("<")]
        #[token(">")]
        #[token("!")]
        Operator,
        /// Any other sign: a piece, and nothing more.
        #[regex(r"[^ \t\r\n(){}\[\]\x22/,;=<>!\p{XID_Continue}]")]
        Other,
    }

    /// The scan as it was first written, on logos: the reference the byte loop
    /// must agree with.
    pub(super) fn too_deep(text: &str) -> Option<TooDeep> {
        // How many `if`, `let` and `match` are open at each bracket level, and in all.
        let mut open = vec![0usize];
        let mut total = 0usize;
        let mut pieces = Pieces::new();
        let mut lexer = Token::lexer(text);
        while let Some(tok) = lexer.next() {
            let span = lexer.span();
            let slice = lexer.slice();
            // The byte loop gives a word's or a stray character's length, else 1.
            let (piece, len) = match tok {
                Ok(Token::Word) => (Piece::Word(slice.as_bytes()), span.len()),
                Ok(Token::Other) => (Piece::Other, span.len()),
                Ok(Token::Open) => (Piece::Open { list: slice == "[" }, 1),
                Ok(Token::Close) => (
                    Piece::Close {
                        brace: slice == "}",
                    },
                    1,
                ),
                Ok(Token::End) if slice == "," => (Piece::Comma, 1),
                Ok(Token::Str | Token::Unterminated) => (Piece::Quoted, 1),
                Ok(Token::Comment) => (Piece::Comment, 1),
                _ => (Piece::Other, 1),
            };
            if tok == Ok(Token::Word) && starts_declaration(slice.as_bytes()) {
                forget_level(&mut open, &mut total);
            }
            if let Some(long) = pieces.step(piece, span.start, len) {
                return Some(long);
            }
            match tok {
                Ok(Token::Open) => {
                    if open.len() > MAX_DEPTH {
                        return Some(TooDeep::Brackets(span.start));
                    }
                    open.push(0);
                }
                Ok(Token::Close) => {
                    if open.len() > 1 {
                        total -= open.pop().unwrap_or(0);
                    }
                }
                Ok(Token::End) => forget_level(&mut open, &mut total),
                Ok(Token::Word)
                    if openers(slice.as_bytes()) > 0 && one_more_open(&mut open, &mut total) =>
                {
                    return Some(TooDeep::Open(span.start, span.len()));
                }
                // An unterminated string or stray character: pest reports it in words.
                Ok(_) | Err(()) => {}
            }
        }
        pieces.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Texts made of the pieces the scan tells apart: brackets, quotes and
    /// escapes, comments, separators, operators sharing a character with `=>`,
    /// openers and declaration words, non-ASCII name and other characters.
    fn pieces() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "\"",
            "\\",
            "/",
            "//",
            "\n",
            ",",
            ";",
            "=",
            "=>",
            "==",
            "<",
            "<=",
            ">",
            ">=",
            "!",
            "!=",
            " ",
            "if",
            "let",
            "match",
            "2if",
            "outlet",
            "const",
            "fn",
            "constant",
            "x",
            "_",
            "remove",
            "example",
            "notice",
            "entries",
            "federation",
            "ref",
            "é",
            "Ω",
            "\u{301}",
            "中",
            "·",
            "😀",
            "\u{feff}",
            "\t",
            "\r",
            ".",
            "+",
            "-",
            "1",
        ]);
        prop::collection::vec(piece, 0..200).prop_map(|v| v.concat())
    }

    #[test]
    fn a_brace_left_open_is_found_where_the_indentation_leaves_it_or_at_the_end() {
        let text =
            "table t(k: number) -> number ref X-1 {\n  1 => 2,\n\nconst c: number ref X-2 = 1\n";
        let brace = text.find('{').unwrap();
        assert_eq!(
            unclosed_brace(text),
            Some((brace, text.find("const").unwrap()))
        );
        // Braces in strings and comments do not count, nor comments at the
        // margin; a closed brace is closed.
        let text = "fn f() -> number ref X-1 {\n// {\n  \"{\n\"\n  g(\n  )\n}\nconst c = 1\n";
        assert_eq!(unclosed_brace(text), None);
        let text = "enum E ref X-1 {\n  A,\n";
        assert_eq!(
            unclosed_brace(text),
            Some((text.find('{').unwrap(), text.len()))
        );
        // A nested block's `}` forgotten: the next line at its indentation.
        let text = "competition c {\n  stage a {\n    teams = 2\n  stage b {\n  }\n}\n";
        let a = text.find("a {").unwrap() + 2;
        assert_eq!(
            unclosed_brace(text),
            Some((a, text.find("  stage b").unwrap() + 2))
        );
        // A `}` indented as an outer block's end closes that block, not this one.
        let text = "competition c {\n  stage a {\n    teams = 2\n}\n";
        assert_eq!(unclosed_brace(text), Some((a, text.rfind('}').unwrap())));
        // A `)` left open inside a closed block, or a closed block with a row at
        // the margin: no brace is left open.
        let text = "fn f(x: number) -> number ref X-1 {\n  min(x, 2\n}\nconst c = 1\n";
        assert_eq!(unclosed_brace(text), None);
        let text = "table t(k: number) -> number ref X-1 {\n  1 => 2,\n3 => ,\n}\n";
        assert_eq!(unclosed_brace(text), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        /// With the bounds as they are, and (through a text deep enough to reach
        /// them) on every position where the two could part.
        #[test]
        fn the_byte_loop_agrees_with_the_lexer(text in pieces(), depth in 0usize..70) {
            prop_assert_eq!(too_deep(&text), by_lexer::too_deep(&text));
            let deep = format!("{}{text}", "(".repeat(depth));
            prop_assert_eq!(too_deep(&deep), by_lexer::too_deep(&deep));
            let opened = format!("{}{text}", "if ".repeat(MAX_OPEN - 2));
            prop_assert_eq!(too_deep(&opened), by_lexer::too_deep(&opened));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        /// Near the bound on pieces, where a piece counted by one scan and not
        /// the other would part them.
        #[test]
        fn the_byte_loop_agrees_with_the_lexer_on_pieces(text in pieces(), gap in 0usize..200) {
            let long = format!("{}{text}", "x ".repeat(MAX_PIECES - gap));
            prop_assert_eq!(too_deep(&long), by_lexer::too_deep(&long));
            let list = format!("[{}{text}", "1,".repeat(MAX_LIST_LEN - gap / 4));
            prop_assert_eq!(too_deep(&list), by_lexer::too_deep(&list));
        }
    }

    /// `const c: number ref X-A = 1` and `+1` as many times as it takes to make
    /// `pieces` pieces in all (ten, then two each).
    fn sum_of_pieces(pieces: usize) -> String {
        format!(
            "const c: number ref X-A = 1{}",
            "+1".repeat((pieces - 10) / 2)
        )
    }

    #[test]
    fn a_declaration_of_too_many_pieces_is_refused_where_it_begins() {
        let at_bound = format!("unit VP\n{}", sum_of_pieces(MAX_PIECES));
        assert_eq!(too_deep(&at_bound), None);
        let over = format!("unit VP\n{} 1", sum_of_pieces(MAX_PIECES));
        assert_eq!(too_deep(&over), Some(TooDeep::Long(8, 5)));
        // Every declaration word begins the count afresh.
        let two = format!(
            "{}\n{}",
            sum_of_pieces(MAX_PIECES),
            sum_of_pieces(MAX_PIECES)
        );
        assert_eq!(too_deep(&two), None);
        // An expression read on its own is refused where it begins.
        let expr = format!("  x{}", "+1".repeat(MAX_PIECES / 2));
        assert_eq!(too_deep(&expr), Some(TooDeep::Long(2, 1)));
    }

    #[test]
    fn an_example_among_a_removes_targets_is_a_piece_of_the_remove() {
        let targets = |n: usize| format!("remove example \"a\"{}", ", example \"a\"".repeat(n));
        // `remove` and `example "a"` are three pieces, each `, example "a"` three.
        assert_eq!(too_deep(&targets((MAX_PIECES - 3) / 3)), None);
        assert_eq!(
            too_deep(&targets(MAX_PIECES / 3)),
            Some(TooDeep::Long(0, 6))
        );
        let commented = format!("remove a{}", ", // c\nexample \"a\"".repeat(MAX_PIECES / 3));
        assert_eq!(too_deep(&commented), Some(TooDeep::Long(0, 6)));
        // An example declared after a `remove` begins a declaration of its own:
        // `example "e" { c == 1` and `; }` are eight pieces, each `+1` two.
        let example = |n: usize| format!("example \"e\" {{ c == 1{}; }}", "+1".repeat(n));
        for remove in ["remove a", "remove a, example \"b\""] {
            let after = format!("{remove}\n{}", example((MAX_PIECES - 8) / 2));
            assert_eq!(too_deep(&after), None, "{remove}");
            let over = format!("{remove}\n{}", example((MAX_PIECES - 8) / 2 + 1));
            assert_eq!(
                too_deep(&over),
                Some(TooDeep::Long(remove.len() + 1, 7)),
                "{remove}"
            );
        }
    }

    #[test]
    fn notice_entries_and_federation_begin_a_declaration_where_they_begin_one() {
        let after = |decls: &str| format!("{}\n{decls}", sum_of_pieces(MAX_PIECES));
        let notices = after(&"notice \"n\" ref X-A\n".repeat(1000));
        assert_eq!(too_deep(&notices), None);
        let fns = "fn f() -> integer { 1 }\n";
        for decl in ["entries ref X-A { a = f }\n", "federation { a = f }\n"] {
            assert_eq!(too_deep(&after(&format!("{fns}{decl}").repeat(1000))), None);
        }
        // Used as names, they begin nothing: not `notice` without a quoted text
        // after it, nor any of them inside brackets, nor `entries` or
        // `federation` where an expression goes on to them.
        for long in [
            format!(
                "const c: integer = notice{}",
                " + notice".repeat(MAX_PIECES / 2)
            ),
            format!("enum E {{ a{} }}", ", notice \"n\"".repeat(MAX_PIECES / 3)),
            format!(
                "const c: R = x{}",
                " + entries {a: 1}".repeat(MAX_PIECES / 7)
            ),
            format!(
                "const c: R = x{}",
                "\n+ federation {a: 1}".repeat(MAX_PIECES / 7)
            ),
            format!("const c: R = f({})", "notice \"n\" ".repeat(MAX_PIECES / 2)),
        ] {
            let word = long.split(' ').next().map_or(0, str::len);
            assert_eq!(too_deep(&long), Some(TooDeep::Long(0, word)), "{long:.40}");
        }
    }

    #[test]
    fn a_list_of_more_commas_than_values_a_list_holds_is_refused_at_its_bracket() {
        let list =
            |commas: usize| format!("const c: [number] ref X-A = [{}1]", "1,".repeat(commas));
        assert_eq!(too_deep(&list(MAX_LIST_LEN)), None);
        assert_eq!(
            too_deep(&list(MAX_LIST_LEN + 1)),
            Some(TooDeep::LongList(28))
        );
        // Commas count in the list itself, not in calls, records, lists or
        // quoted texts inside it, nor after it.
        let inner = "f(1, 2), {a = 1, b = 2}, [1, 2], \"1, 2\", ".repeat(MAX_LIST_LEN / 4);
        assert_eq!(too_deep(&format!("[{inner}]")), None);
        let calls = format!("f({})", "1,".repeat(MAX_LIST_LEN + 1));
        assert_eq!(too_deep(&calls), None);
        let two = format!(
            "[{}], [{}]",
            "1,".repeat(MAX_LIST_LEN),
            "1,".repeat(MAX_LIST_LEN)
        );
        assert_eq!(too_deep(&two), None);
    }

    #[test]
    fn a_quoted_text_or_a_comment_is_one_piece_and_layout_none() {
        let words = "a b c ".repeat(MAX_PIECES);
        let quoted = format!("{}\"{words}\" // {words}\n", sum_of_pieces(MAX_PIECES - 2));
        assert_eq!(too_deep(&quoted), None);
        let spaced = format!(
            "{}{}",
            sum_of_pieces(MAX_PIECES),
            " \t\r\n".repeat(MAX_PIECES)
        );
        assert_eq!(too_deep(&spaced), None);
        // A stray sign counts, as the parser would still have to go over it.
        let signed = format!("{} §", sum_of_pieces(MAX_PIECES));
        assert_eq!(too_deep(&signed), Some(TooDeep::Long(0, 5)));
    }

    #[test]
    fn the_byte_loop_agrees_with_the_lexer_on_every_rules_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for dir in ["rules/2015", "tests/cases", "editors", "docs", "fuzz/seeds"] {
            for path in files_under(&root.join(dir)) {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                assert_eq!(
                    too_deep(&text),
                    by_lexer::too_deep(&text),
                    "{}",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(seen > 100, "only {seen} files");
    }

    fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn counts_depth_outside_strings_and_comments() {
        assert_eq!(too_deep("f((1))"), None);
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert_eq!(too_deep(&deep), Some(TooDeep::Brackets(MAX_DEPTH)));
        let quoted = format!("\"{}\"", "(".repeat(1000));
        assert_eq!(too_deep(&quoted), None);
        let commented = format!("// {}\n1", "(".repeat(1000));
        assert_eq!(too_deep(&commented), None);
        assert_eq!(too_deep(&"(".repeat(MAX_DEPTH)), None);
    }

    #[test]
    fn an_if_let_or_match_counts_where_a_word_ends_with_it() {
        assert_eq!(openers(b"if"), 1);
        assert_eq!(openers(b"2if"), 1);
        assert_eq!(openers(b"ififif"), 1);
        assert_eq!(openers(b"tariff_matches_letter"), 0);
        assert_eq!(openers(b"match_x"), 0);
        assert_eq!(openers(b"outlet"), 1);
        assert_eq!(openers(b"fee"), 0);
        assert_eq!(openers(b"IF"), 0);
    }

    #[test]
    fn ifs_are_counted_until_they_end() {
        let open = |n: usize| format!("x = {}1", "if a then ".repeat(n));
        assert_eq!(too_deep(&open(MAX_OPEN)), None);
        assert!(matches!(
            too_deep(&open(MAX_OPEN + 1)),
            Some(TooDeep::Open(..))
        ));
        // Closed by a separator, a closing bracket or a declaration keyword.
        for end in [", ", "; ", " => ", "\nconst ", "\nfn "] {
            let text = format!("{}{end}{}", open(MAX_OPEN), open(MAX_OPEN));
            assert_eq!(too_deep(&text), None, "{end}");
        }
        let text = format!("({}) + ({})", open(MAX_OPEN - 1), open(MAX_OPEN - 1));
        assert_eq!(too_deep(&text), None);
        // Not closed by a word that only looks like a declaration keyword, nor
        // by a comparison that shares a character with `=>`.
        for gap in [" constant ", " notice ", " <=> ", " ==> ", " >=> "] {
            let text = format!("{}{gap}{}", open(MAX_OPEN / 2), open(MAX_OPEN / 2 + 1));
            assert!(too_deep(&text).is_some(), "{gap}");
        }
        // Nor inside strings and comments.
        let quoted = format!(
            "\"{}\" // {}\n1",
            "if ".repeat(MAX_OPEN + 1),
            "if ".repeat(MAX_OPEN + 1)
        );
        assert_eq!(too_deep(&quoted), None);
        let escaped = format!("\"\\\n{}\"", "if ".repeat(MAX_OPEN + 1));
        assert_eq!(too_deep(&escaped), None);
    }

    #[test]
    fn list_brackets_count_like_the_others() {
        assert_eq!(too_deep(&"[".repeat(MAX_DEPTH)), None);
        assert_eq!(
            too_deep(&"[".repeat(MAX_DEPTH + 1)),
            Some(TooDeep::Brackets(MAX_DEPTH))
        );
        let mixed = "([{".repeat(MAX_DEPTH / 3 + 1);
        assert!(too_deep(&mixed).is_some());
        // A list type nests too: `[[[…VP…]]]`.
        let nested_type = format!(
            "{}VP{}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(too_deep(&nested_type), Some(TooDeep::Brackets(MAX_DEPTH)));
    }

    /// The pre-scan resets the nesting count at a declaration's word only
    /// where that word is never a name, so an expression naming `notice` or
    /// `entries` does not reset it; every other declaration word does.
    #[test]
    fn the_pre_scan_knows_the_declaration_words_that_are_never_names() {
        for word in crate::syntax::DECLARATION_STARTS {
            let as_name = format!("const c: integer = {word}");
            let a_name = crate::syntax::parse_file(&as_name, 0).is_ok();
            assert_eq!(
                starts_declaration(word.as_bytes()),
                !a_name,
                "`{word}`: a name: {a_name}"
            );
        }
    }
}
