//! Warnings for characters that make an editor show a file otherwise than bfr
//! reads it: the invisible characters that reorder text, and a line end bfr
//! does not take for one.
//!
//! A right-to-left override in a comment or a quoted text makes an editor show
//! the rest of its line backwards, so a file can read one way on screen and
//! another to bfr ("Trojan Source", CVE-2021-42574). A comment or a text may hold
//! any character, in a rule file as in an event or entries file, so each file is
//! read as it is and each line holding such a character gets one warning (`W0003`);
//! diagnostics show the character as `�` and text output escapes it (see
//! [`crate::source::direction_control`]).

use crate::diag::Diagnostic;
use crate::source::{FileId, Span, direction_control};

/// The most characters one warning marks; a line may hold thousands.
const MARKED_PER_LINE: usize = 8;

/// One `W0003` warning per line of `text` that holds a character reordering the
/// text shown after it, marking the first `MARKED_PER_LINE` such characters of the line.
pub fn direction_warnings(text: &str, file: FileId) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let found: Vec<(usize, char, &str)> = line
            .char_indices()
            .filter_map(|(i, c)| direction_control(c).map(|name| (at + i, c, name)))
            .collect();
        at += line.len();
        let Some(&(first, c, name)) = found.first() else {
            continue;
        };
        let mut warning = Diagnostic::warning(
            "W0003",
            format!(
                "this line holds U+{:04X} {name}, an invisible character that makes an editor show the text after it in another order than bfr reads it",
                u32::from(c)
            ),
            Span::new(file, first, first + c.len_utf8()),
        )
        .with_label(match found.len() {
            1 => "here (shown as �)".to_string(),
            n => format!("here (shown as �), and {} more on this line", n - 1),
        });
        for &(other, c, name) in found.iter().skip(1).take(MARKED_PER_LINE - 1) {
            warning = warning.with_note(
                Span::new(file, other, other + c.len_utf8()),
                format!("U+{:04X} {name}", u32::from(c)),
            );
        }
        warnings.push(warning.with_help(
            "remove it: no file bfr reads needs one, as the letters of a right-to-left script show in their own direction",
        ));
    }
    warnings
}

/// One `W0004` for a `.bfr` text holding a carriage return that no line feed
/// follows (the line end of old Macs), at the first, counting the rest. bfr
/// ends a line, and so a `//` comment, only at a line feed; an editor ends it
/// at a lone carriage return too, so a rule written after one in a comment is
/// shown on a line of its own and never read.
pub fn lone_return_warning(text: &str, file: FileId) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    let mut lone = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .map(|(i, _)| i);
    let first = lone.next()?;
    let more = lone.count();
    Some(
        Diagnostic::warning(
            "W0004",
            "a carriage return without a line feed: an editor starts a new line here, bfr does not, so a comment before it runs on over what follows",
            Span::new(file, first, first + 1),
        )
        .with_label(match more {
            0 => "here".to_string(),
            n => format!("here, and {n} more in this file"),
        })
        .with_help("save the file with Unix (LF) or Windows (CRLF) line ends"),
    )
}

#[cfg(test)]
mod tests {
    use super::{direction_warnings, lone_return_warning};

    #[test]
    fn a_lone_carriage_return_is_one_warning_for_the_file() {
        let text = "// a note\rexample \"x\" ref X { 1 == 1 }\r\nconst a: number = 1\r";
        let w = lone_return_warning(text, 0).unwrap();
        assert_eq!(
            (w.code, w.span.start),
            ("W0004", text.find('\r').unwrap() as u32)
        );
        assert_eq!(w.label, "here, and 1 more in this file");
        // Windows line ends are line ends.
        assert!(lone_return_warning("// a\r\nconst a: number = 1\r\n", 0).is_none());
    }

    #[test]
    fn each_line_holding_a_reordering_character_gets_one_warning() {
        let text = "const a: number = 1 // ok\n\
                    const b: number = 2 // \u{202e}1 = b\u{202c}\n\
                    const c: text = \"\u{2067}x\u{2069}\" // \u{200f}\n";
        let warnings = direction_warnings(text, 0);
        let found: Vec<_> = warnings
            .iter()
            .map(|w| (w.code, &text[w.span.start as usize..w.span.end as usize]))
            .collect();
        assert_eq!(found, [("W0003", "\u{202e}"), ("W0003", "\u{2067}")]);
        assert!(
            warnings[0]
                .message
                .contains("U+202E RIGHT-TO-LEFT OVERRIDE")
        );
        assert!(direction_warnings("const a: number = 1\n", 0).is_empty());
    }

    #[test]
    fn a_line_of_many_is_one_warning_marking_the_first_eight() {
        let text = format!("\u{feff}// ok\r\n// {}\r\n", "\u{202d}x".repeat(10));
        let warnings = direction_warnings(&text, 0);
        assert_eq!(warnings.len(), 1);
        let w = &warnings[0];
        assert_eq!(
            &text[w.span.start as usize..w.span.end as usize],
            "\u{202d}"
        );
        assert_eq!(w.span.start as usize, text.find('\u{202d}').unwrap_or(0));
        assert_eq!(w.label, "here (shown as �), and 9 more on this line");
        assert_eq!(w.notes.len(), 7);
        for (span, _) in &w.notes {
            assert_eq!(&text[span.start as usize..span.end as usize], "\u{202d}");
        }
    }
}
