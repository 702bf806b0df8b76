//! A flat token scan of `.bfr` text with logos, run before pest.
//!
//! pest is a recursive-descent parser: a file with 100,000 nested parentheses or
//! `if`s would overflow the stack inside it, and its call limit counts calls, not
//! depth. bfr builds pest without its per-rule look at the remaining stack (a
//! quarter of its time), so this scan is what keeps pest's recursion bounded: in
//! one linear pass — skipping strings and comments, which logos makes exact — it
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

use logos::Logos;

/// The tokens that matter for nesting; everything else is skipped.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[^(){}\[\]\x22/,;=<>!\p{XID_Continue}]+")]
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
}

/// The deepest nesting of brackets a file may have. Real rule files stay below 10.
pub const MAX_DEPTH: usize = 64;

/// The most `if`, `let` and `match` that may be open inside one another (as the
/// scan counts them). Real rules stay below 30; the lowering refuses an expression
/// more than 1,024 levels deep, so this bound only meets text that would be refused
/// anyway, or text with thousands of them in one list of properties.
pub const MAX_OPEN: usize = 2048;

/// Whether `word` is one of the reserved words declarations begin with, which no
/// expression can take. A `match` on the text is compiled to a switch on its
/// length, where a list's `contains` compares with every entry: every word of a
/// file is looked up here.
fn starts_declaration(word: &str) -> bool {
    matches!(
        word,
        "const"
            | "fn"
            | "reading"
            | "scale"
            | "table"
            | "example"
            | "enum"
            | "record"
            | "unit"
            | "procedure"
            | "competition"
            | "remove"
            | "edition"
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
pub fn too_deep(text: &str) -> Option<TooDeep> {
    // How many `if`, `let` and `match` are open at each bracket level, and in all.
    let mut open = vec![0usize];
    let mut total = 0usize;
    let mut lexer = Token::lexer(text);
    while let Some(tok) = lexer.next() {
        match tok {
            Ok(Token::Open) => {
                if open.len() > MAX_DEPTH {
                    return Some(TooDeep::Brackets(lexer.span().start));
                }
                open.push(0);
            }
            Ok(Token::Close) => {
                if open.len() > 1 {
                    total -= open.pop().unwrap_or(0);
                }
            }
            Ok(Token::End) => forget_level(&mut open, &mut total),
            Ok(Token::Word) if starts_declaration(lexer.slice()) => {
                forget_level(&mut open, &mut total)
            }
            Ok(Token::Word) => {
                let n = openers(lexer.slice().as_bytes());
                if n > 0 {
                    total += n;
                    if let Some(level) = open.last_mut() {
                        *level += n;
                    }
                    if total > MAX_OPEN {
                        let span = lexer.span();
                        return Some(TooDeep::Open(span.start, span.len()));
                    }
                }
            }
            // An unterminated string or stray character: pest reports it in words.
            Ok(_) | Err(()) => {}
        }
    }
    None
}

/// Forgets the `if`, `let` and `match` of the innermost bracket level.
fn forget_level(open: &mut [usize], total: &mut usize) {
    if let Some(level) = open.last_mut() {
        *total -= *level;
        *level = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
