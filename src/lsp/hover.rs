//! Hover on a name: its declaration as written (the type or signature), its
//! `///` lines, its source reference, and the document's text of the page the
//! reference names, where the edition's document data holds it.

use super::index::Def;
use super::navigate::target;
use super::store::Analysis;
use crate::document::Document;
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

/// The hover's text.
pub fn markdown(def: &Def, document: Option<&Document>) -> String {
    let mut out = format!("```bfr\n{}\n```\n", def.signature);
    if !def.doc.is_empty() {
        out.push('\n');
        out.push_str(&def.doc.join("\n"));
        out.push('\n');
    }
    if let Some(s) = &def.source {
        let mut line = format!("\nSource: `{}`", s.id);
        if let Some(p) = &s.pages {
            line.push_str(&format!(", page {p}"));
        }
        if let Some(sec) = &s.section {
            line.push_str(&format!(", section \"{sec}\""));
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
                out.push_str(&format!("> {line}\n"));
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
mod tests {
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

    #[test]
    fn the_first_page_of_a_list() {
        assert_eq!(first_page("14-15,19"), Some(14));
        assert_eq!(first_page("5,11"), Some(5));
        assert_eq!(first_page(""), None);
    }
}
