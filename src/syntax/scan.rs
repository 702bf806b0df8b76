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
