//! A bound on what a director's file may ask the reader to hold, applied before
//! the file is parsed.
//!
//! A TOML or JSON reader holds every value of the file at once, at some tens of
//! bytes each: `order = [0,0,0,…]` in a file under the 64 MiB limit is thirty
//! million values, more memory than a machine has. Every value after a file's
//! first is introduced by a sign (a comma, `=` or `:`, an opening bracket or
//! brace, and in TOML the `.` of a dotted key, `a.b.c = 1`, each part of which
//! makes a table), so counting those signs outside quotes and comments, in one
//! pass over the bytes, bounds the values before the reader builds any. A
//! decimal point counts too: at most one more sign for a number, harmless at
//! this bound.

use std::ops::Range;

/// The most values a director's file (an event, entries, starts, pairs or
/// vacancies file) may hold: far above any festival's (an entries file of
/// 10,000 players, teams and pairs, each with its fields, has about 300,000),
/// far below what exhausts memory.
pub const MAX_VALUES: usize = 1_000_000;

/// [`MAX_VALUES`] as messages write it.
pub const MAX_VALUES_SHOWN: &str = "1,000,000";

/// The notation of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// TOML: `#` comments, `"…"`, `'…'` and their three-quote forms.
    Toml,
    /// JSON: `"…"` only.
    Json,
}

/// The sign that makes `text` hold more than `limit` values, as a byte range;
/// `None` when it holds at most that many.
pub fn past(text: &str, notation: Notation, limit: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut count = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i = match (b, notation) {
            (b'"', _) => after_quoted(bytes, i, b'"', notation == Notation::Toml),
            (b'\'', Notation::Toml) => after_quoted(bytes, i, b'\'', true),
            (b'#', Notation::Toml) => bytes
                .get(i..)
                .and_then(|rest| rest.iter().position(|&c| c == b'\n'))
                .map_or(bytes.len(), |n| i + n),
            (b',' | b'[' | b'{', _) | (b'=' | b'.', Notation::Toml) | (b':', Notation::Json) => {
                count += 1;
                if count > limit {
                    return Some(i..i + 1);
                }
                i + 1
            }
            _ => i + 1,
        };
    }
    None
}

/// Where the quoted text opening at `start` with `quote` ends (past its
/// closing quote; the end of the text when it has none). A backslash escapes
/// the next byte in a `"` text; TOML's three-quote forms run to three quotes.
fn after_quoted(bytes: &[u8], start: usize, quote: u8, triple_allowed: bool) -> usize {
    let escapes = quote == b'"';
    let triple = triple_allowed && bytes.get(start..start + 3) == Some(&[quote; 3][..]);
    let mut i = start + if triple { 3 } else { 1 };
    while let Some(&c) = bytes.get(i) {
        if escapes && c == b'\\' {
            i += 2;
            continue;
        }
        if c == quote {
            if !triple {
                return i + 1;
            }
            if bytes.get(i..i + 3) == Some(&[quote; 3][..]) {
                // A closing `"""` may be followed by up to two more quotes
                // that belong to the text.
                let mut end = i + 3;
                while end < i + 5 && bytes.get(end) == Some(&quote) {
                    end += 1;
                }
                return end;
            }
        }
        if !triple && c == b'\n' {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_in_quotes_and_comments_are_not_counted() {
        let toml = "a = \"x,y[z]\" # b = [1,2]\nc = 'p,q'\nd = \"\"\"\n,,,\"\"\"\ne = '''{,}'''";
        // Four `=`, nothing else.
        assert_eq!(past(toml, Notation::Toml, 4), None);
        assert_eq!(
            past(toml, Notation::Toml, 3).map(|r| r.start),
            toml.rfind('=')
        );
        let json = r#"{"a\"b,": [1, "c:d"], "e": {}}"#;
        // `{`, `:`, `[`, `,`, `,`, `:`, `{`.
        assert_eq!(past(json, Notation::Json, 7), None);
        assert_eq!(
            past(json, Notation::Json, 6).map(|r| r.start),
            json.rfind('{')
        );
    }

    #[test]
    fn each_part_of_a_dotted_key_is_a_value() {
        // Each `.` makes a table: `k.a.b = 1` is three tables and a value.
        let wide = "k1.a.b = 1\nk2.a.b = 1\n[t.u]\n";
        assert_eq!(past(wide, Notation::Toml, 8), None);
        assert_eq!(
            past(wide, Notation::Toml, 7).map(|r| r.start),
            wide.rfind('.')
        );
        // A dot in a quoted key is not a sign.
        assert_eq!(past("\"a.b\" = 1", Notation::Toml, 1), None);
    }

    #[test]
    fn the_sign_past_the_bound_is_the_place_shown() {
        let text = format!("order = [{}]", "0,".repeat(10));
        let at = past(&text, Notation::Toml, 5).unwrap();
        assert_eq!(&text[at.clone()], ",");
        // `=`, `[` and three commas are the five allowed.
        assert_eq!(at.start, "order = [0,0,0,0".len());
    }

    #[test]
    fn an_unclosed_quote_or_a_comment_at_the_end_ends_the_count() {
        assert_eq!(past("a = \"open, [", Notation::Toml, 1), None);
        assert_eq!(past("a = 1 # [,,,", Notation::Toml, 1), None);
        assert_eq!(past("\"\\", Notation::Json, 0), None);
        // A basic text ends at its line: the signs after it count.
        assert!(past("a = \"open\nb = [1]", Notation::Toml, 2).is_some());
    }
}
