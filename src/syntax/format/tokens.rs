//! The lossless token stream `bfr fmt` lays out: every byte of a `.bfr` file is
//! one token, so comments, strings and line breaks survive formatting.
//!
//! Word-like atoms the grammar reads without spaces inside — dates, clock times,
//! rule IDs (`CC-FEE`) and page lists (`p.14-15,19`) — are single tokens, so the
//! formatter can never put a space inside them.

use logos::Logos;

/// One token of a `.bfr` file.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Spaces, tabs, carriage returns and a byte-order mark.
    #[regex(r"[ \t\r\u{FEFF}]+")]
    Space,
    /// A line break.
    #[token("\n")]
    Newline,
    /// `// …`, `/// …` (a doc comment) or `//// …`, to the end of the line.
    #[regex(r"//[^\n]*", allow_greedy = true)]
    Comment,
    /// A string literal; it may span lines.
    #[regex(r#""([^"\\]|\\.)*""#)]
    Str,
    /// `2015-07-24`
    #[regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")]
    Date,
    /// `20:00`
    #[regex(r"[0-9]{2}:[0-9]{2}")]
    Clock,
    /// `12`, `2.25`
    #[regex(r"[0-9]+(\.[0-9]+)?")]
    Number,
    /// A name or a keyword.
    #[regex(r"[\p{XID_Start}_]\p{XID_Continue}*")]
    Word,
    /// An inventory ID with a hyphen: `CC-FEE`, `X-VP25`.
    #[regex(r"[A-Z][A-Z0-9]*(-[A-Z0-9]+)+")]
    RuleId,
    /// The pages of a source reference: `p.14`, `p.14-15,19`.
    #[regex(r"p\.[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*")]
    Pages,
    /// `(`, `[`, `{`
    #[token("(")]
    #[token("[")]
    #[token("{")]
    Open,
    /// `)`, `]`, `}`
    #[token(")")]
    #[token("]")]
    #[token("}")]
    Close,
    /// `,`
    #[token(",")]
    Comma,
    /// `;`
    #[token(";")]
    Semi,
    /// `:`
    #[token(":")]
    Colon,
    /// `.`: a path or a member.
    #[token(".")]
    Dot,
    /// `..`: a range of places or dates.
    #[token("..")]
    DotDot,
    /// `/`: a division, or inside a unit (`SEK/player`).
    #[token("/")]
    Slash,
    /// `%`: the first letter of a unit name (`%vol`).
    #[token("%")]
    Percent,
    /// `-`: a subtraction or a negation.
    #[token("-")]
    Minus,
    /// Every other operator: `+ * = == != < <= > >= => ->`.
    #[token("+")]
    #[token("*")]
    #[token("=")]
    #[token("==")]
    #[token("!=")]
    #[token("<")]
    #[token("<=")]
    #[token(">")]
    #[token(">=")]
    #[token("=>")]
    #[token("->")]
    Op,
}

/// A token with its text and the byte offset where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text, exactly as written.
    pub text: &'a str,
    /// Byte offset in the file.
    pub start: usize,
}

/// Splits `text` into tokens, or gives the byte offset of the first character no
/// token starts with (only possible in text the parser refuses too).
pub fn tokens(text: &str) -> Result<Vec<Token<'_>>, usize> {
    let mut lexer = Kind::lexer(text);
    let mut out = Vec::new();
    while let Some(kind) = lexer.next() {
        let span = lexer.span();
        match kind {
            Ok(kind) => out.push(Token {
                kind,
                text: lexer.slice(),
                start: span.start,
            }),
            Err(()) => return Err(span.start),
        }
    }
    Ok(out)
}

/// The language's words, for completion and highlighting: the reserved words,
/// then those that are keywords only where they stand (`stages`, `place`,
/// `source`, …), both as the grammar has them (`syntax::RESERVED`,
/// `syntax::CONTEXTUAL`).
pub fn keywords() -> impl Iterator<Item = &'static str> {
    crate::syntax::RESERVED
        .iter()
        .chain(crate::syntax::CONTEXTUAL.iter())
        .copied()
}

impl Token<'_> {
    /// A reserved word: never a name.
    pub fn is_reserved(&self) -> bool {
        self.kind == Kind::Word && crate::syntax::RESERVED.contains(&self.text)
    }

    /// A word that is a keyword only where it stands and a name elsewhere
    /// (`place`, `out`, `source`, …).
    pub fn is_contextual(&self) -> bool {
        self.kind == Kind::Word && crate::syntax::CONTEXTUAL.contains(&self.text)
    }

    /// A name, number or other atom (not punctuation).
    pub fn is_atom(&self) -> bool {
        matches!(
            self.kind,
            Kind::Word | Kind::Number | Kind::Date | Kind::Clock | Kind::RuleId | Kind::Pages
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        tokens(text)
            .unwrap_or_default()
            .into_iter()
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn atoms_the_grammar_reads_whole_are_one_token() {
        assert_eq!(
            kinds("ref CC-FEE p.14-15,19"),
            vec![
                (Kind::Word, "ref"),
                (Kind::Space, " "),
                (Kind::RuleId, "CC-FEE"),
                (Kind::Space, " "),
                (Kind::Pages, "p.14-15,19")
            ]
        );
        assert_eq!(
            kinds("Fri 2015-07-24 20:00"),
            vec![
                (Kind::Word, "Fri"),
                (Kind::Space, " "),
                (Kind::Date, "2015-07-24"),
                (Kind::Space, " "),
                (Kind::Clock, "20:00")
            ]
        );
    }

    #[test]
    fn ranges_and_decimals_are_told_apart() {
        assert_eq!(
            kinds("1..3"),
            vec![
                (Kind::Number, "1"),
                (Kind::DotDot, ".."),
                (Kind::Number, "3")
            ]
        );
        assert_eq!(kinds("2.25"), vec![(Kind::Number, "2.25")]);
        assert_eq!(
            kinds("2015-07"),
            vec![
                (Kind::Number, "2015"),
                (Kind::Minus, "-"),
                (Kind::Number, "07")
            ]
        );
    }

    #[test]
    fn every_byte_is_in_a_token() {
        let text = "/// doc\nconst a: SEK/player = 5 SEK/player // note\n\"x\ny\"";
        let joined: String = tokens(text)
            .unwrap_or_default()
            .iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(joined, text);
        assert_eq!(tokens("a §"), Err(2));
        // Names with any letter are one word: `Fjåre`, `för`, a decomposed `å`.
        for name in ["Fjåre", "tid_för_paus", "Fja\u{30a}re", "_Östvik2"] {
            let toks = tokens(name).unwrap_or_default();
            assert_eq!(toks.len(), 1, "{name}");
            assert_eq!((toks[0].kind, toks[0].text), (Kind::Word, name));
        }
    }
}
