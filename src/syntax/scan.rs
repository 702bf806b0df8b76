//! A flat token scan of `.bfr` text with logos, run before pest.
//!
//! pest is a recursive-descent parser: a file with 100,000 nested parentheses would
//! overflow the stack inside it, and its call limit counts calls, not depth. This
//! scan measures nesting depth in one linear pass — skipping strings and comments,
//! which logos makes exact — so deep input is refused with a diagnostic before pest
//! sees it.

use logos::Logos;

/// The tokens that matter for nesting; everything else is skipped.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[^(){}\[\]\x22/]+")]
enum Token {
    #[token("(")]
    #[token("{")]
    #[token("[")]
    Open,
    #[token(")")]
    #[token("}")]
    #[token("]")]
    Close,
    #[regex(r#""([^"\\]|\\.)*""#)]
    Str,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    Comment,
    #[token("/")]
    Slash,
}

/// Words, strings and comments: enough to find a name written with letters
/// outside ASCII (`avgift_för_sent`) without looking inside strings or comments.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[^\x22/\p{Alphabetic}\p{Nd}_]+")]
enum Lexeme {
    #[regex(r"[\p{Alphabetic}\p{Nd}_]+")]
    Word,
    #[regex(r#""([^"\\]|\\.)*""#)]
    Str,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    Comment,
    #[token("/")]
    Slash,
}

/// The byte range of the first word outside strings and comments that has a
/// letter outside ASCII, if any. Names are ASCII; the document's spellings go in
/// quoted labels.
pub fn non_ascii_word(text: &str) -> Option<(usize, usize)> {
    let mut lexer = Lexeme::lexer(text);
    while let Some(tok) = lexer.next() {
        if tok == Ok(Lexeme::Word) && !lexer.slice().is_ascii() {
            let span = lexer.span();
            return Some((span.start, span.end));
        }
    }
    None
}

/// An ASCII spelling of a name: Swedish (and other Latin) letters lose their marks
/// (`för` → `for`, `Skåne` → `Skane`); any other letter is left out.
pub fn ascii_spelling(word: &str) -> String {
    word.chars()
        .filter_map(|c| {
            if c.is_ascii() {
                return Some(c);
            }
            let plain = match c {
                'å' | 'ä' | 'à' | 'á' | 'â' | 'ã' | 'æ' => 'a',
                'Å' | 'Ä' | 'À' | 'Á' | 'Â' | 'Ã' | 'Æ' => 'A',
                'ö' | 'ø' | 'ò' | 'ó' | 'ô' | 'õ' => 'o',
                'Ö' | 'Ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' => 'O',
                'é' | 'è' | 'ê' | 'ë' => 'e',
                'É' | 'È' | 'Ê' | 'Ë' => 'E',
                'ü' | 'ù' | 'ú' | 'û' => 'u',
                'Ü' | 'Ù' | 'Ú' | 'Û' => 'U',
                'í' | 'ì' | 'î' | 'ï' => 'i',
                'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
                'ç' => 'c',
                'Ç' => 'C',
                'ñ' => 'n',
                'Ñ' => 'N',
                _ => return None,
            };
            Some(plain)
        })
        .collect()
}

/// The deepest nesting a file may have. Real rule files stay below 10.
pub const MAX_DEPTH: usize = 64;

/// Byte offset of the first bracket that goes deeper than [`MAX_DEPTH`], if any.
pub fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut lexer = Token::lexer(text);
    while let Some(tok) = lexer.next() {
        match tok {
            Ok(Token::Open) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(lexer.span().start);
                }
            }
            Ok(Token::Close) => depth = depth.saturating_sub(1),
            // An unterminated string or stray character: pest reports it in words.
            Ok(_) | Err(()) => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_depth_outside_strings_and_comments() {
        assert_eq!(too_deep("f((1))"), None);
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert_eq!(too_deep(&deep), Some(MAX_DEPTH));
        let quoted = format!("\"{}\"", "(".repeat(1000));
        assert_eq!(too_deep(&quoted), None);
        let commented = format!("// {}\n1", "(".repeat(1000));
        assert_eq!(too_deep(&commented), None);
        assert_eq!(too_deep(&"(".repeat(MAX_DEPTH)), None);
    }

    #[test]
    fn finds_names_with_letters_outside_ascii_only_outside_strings_and_comments() {
        let text = "const cc_ko_avgift_för_sent: SEK = 1 SEK";
        assert_eq!(non_ascii_word(text), Some((6, 28)));
        assert_eq!(non_ascii_word("x = \"Skåne\" // Örebro\ny"), None);
        assert_eq!(non_ascii_word("District.Skåne"), Some((9, 15)));
        assert_eq!(
            ascii_spelling("cc_ko_avgift_för_sent"),
            "cc_ko_avgift_for_sent"
        );
        assert_eq!(ascii_spelling("ÅngermanlandÄÖ"), "AngermanlandAO");
        assert_eq!(ascii_spelling("x\u{3c0}y"), "xy");
    }

    #[test]
    fn list_brackets_count_like_the_others() {
        assert_eq!(too_deep(&"[".repeat(MAX_DEPTH)), None);
        assert_eq!(too_deep(&"[".repeat(MAX_DEPTH + 1)), Some(MAX_DEPTH));
        let mixed = "([{".repeat(MAX_DEPTH / 3 + 1);
        assert!(too_deep(&mixed).is_some());
        // A list type nests too: `[[[…VP…]]]`.
        let nested_type = format!(
            "{}VP{}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(too_deep(&nested_type), Some(MAX_DEPTH));
    }
}
