//! Hover on a name: its declaration as written (the type or signature), its
//! `///` lines, its source reference, and the document's text of the page the
//! reference names, where the edition's document data holds it.

use super::index::Def;
use super::navigate::target;
use super::store::Analysis;
use crate::document::Document;
use crate::source::{printable_name, printable_page};
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

/// How much of a page's text a hover quotes.
const EXCERPT_CHARS: usize = 600;

/// The hover of the name at `pos` of file `file`.
pub fn hover(a: &Analysis, file: usize, pos: Position) -> Option<Hover> {
    let def = a.index.defs.get(target(a, file, pos)?)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown(def, a.document.as_ref()),
        }),
        range: None,
    })
}

/// The hover's text. What it quotes (the declaration, its `///` lines, the
/// reference, the document's page) shows a control character or one that
/// reorders text escaped (`\u{202e}`), as every text output of bfr does: an
/// editor shows a hover as it is.
pub fn markdown(def: &Def, document: Option<&Document>) -> String {
    let mut out = format!("```bfr\n{}\n```\n", printable_page(&def.signature));
    if !def.doc.is_empty() {
        out.push('\n');
        out.push_str(&printable_page(&def.doc.join("\n")));
        out.push('\n');
    }
    if let Some(s) = &def.source {
        // One line: a line break in these would end it, so it is escaped too.
        let mut line = format!("\nSource: `{}`", printable_name(&s.id));
        if let Some(p) = &s.pages {
            line.push_str(&format!(", page {}", printable_name(p)));
        }
        if let Some(sec) = &s.section {
            line.push_str(&format!(", section \"{}\"", printable_name(sec)));
        }
        out.push_str(&line);
        out.push('\n');
        let page = s.pages.as_deref().and_then(first_page).or_else(|| {
            document
                .and_then(|d| d.id(&s.id))
                .and_then(|e| e.pages.first().copied())
        });
        if let (Some(doc), Some(page)) = (document, page)
            && let Some(text) = doc.text(page)
        {
            out.push_str(&format!("\nThe document, page {page}:\n\n"));
            for line in excerpt(text, s.section.as_deref()).lines() {
                out.push_str(&format!("> {}\n", printable_page(line)));
            }
        }
    }
    out
}

/// The first page of a page list as written (`14-15,19` → 14).
fn first_page(pages: &str) -> Option<u32> {
    let digits: String = pages.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Up to [`EXCERPT_CHARS`] of a page's text, from the section's heading where
/// the page holds it, else from the page's start; cut at a word's end.
fn excerpt(text: &str, section: Option<&str>) -> String {
    let start = section
        .and_then(|s| {
            let lower = text.to_lowercase();
            // Lower-casing keeps byte lengths for the letters of these texts;
            // where it did not, the offset is not a boundary and is not used.
            lower
                .find(&s.to_lowercase())
                .filter(|i| text.is_char_boundary(*i))
        })
        .unwrap_or(0);
    let rest = text.get(start..).unwrap_or(text);
    let mut out: String = rest.chars().take(EXCERPT_CHARS).collect();
    if out.len() < rest.len() {
        if let Some(cut) = out.rfind(char::is_whitespace) {
            out.truncate(cut);
        }
        out.push_str(" …");
    }
    out.trim().to_string()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn the_excerpt_starts_at_the_section_and_ends_at_a_word() {
        let text = format!("Inledning. Sen ankomst {} slut", "ord ".repeat(300));
        let e = excerpt(&text, Some("sen ankomst"));
        assert!(e.starts_with("Sen ankomst ord"), "{e}");
        assert!(e.ends_with("ord …"), "{e}");
        assert!(e.chars().count() <= EXCERPT_CHARS + 2);
        assert_eq!(excerpt("kort", Some("saknas")), "kort");
    }

    /// A fn whose `///` line, section and signature each hold a character
    /// that reorders text (and the section a line break).
    pub(in crate::lsp) fn reordering_def() -> Def {
        let at = super::super::index::Place {
            file: 0,
            start: 0,
            end: 1,
        };
        let span = crate::source::Span::new(0, 0, 0);
        Def {
            name: "late".into(),
            kind: super::super::index::DefKind::Fn,
            at,
            whole: at,
            container: None,
            doc: vec!["Late \u{202e}arrival".into()],
            source: Some(crate::syntax::ast::SourceRef {
                id: "X-LATE".into(),
                pages: Some("7".into()),
                section: Some("Sen \u{2067}ankomst\nslut".into()),
                span,
                id_span: span,
                pages_span: None,
                section_span: None,
            }),
            signature: "fn late(m: minutes) -> \u{202a}number".into(),
        }
    }

    /// Whether `text` holds no character that reorders text.
    pub(in crate::lsp) fn shows_in_order(text: &str) -> bool {
        !text
            .chars()
            .any(|c| crate::source::direction_control(c).is_some())
    }

    #[test]
    fn what_the_hover_quotes_shows_a_reordering_character_escaped() {
        let hover = markdown(&reordering_def(), None);
        assert!(shows_in_order(&hover), "{hover}");
        for escaped in [
            "\\u{202e}arrival",
            "\\u{2067}ankomst\\nslut\"",
            "\\u{202a}number",
        ] {
            assert!(hover.contains(escaped), "{escaped} in {hover}");
        }
    }

    #[test]
    fn the_first_page_of_a_list() {
        assert_eq!(first_page("14-15,19"), Some(14));
        assert_eq!(first_page("5,11"), Some(5));
        assert_eq!(first_page(""), None);
    }
}
