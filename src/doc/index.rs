//! The site's frame (head, navigation), its index — the edition's name, its
//! chapters with what each holds, its competitions — and the page of the
//! document's own texts.

use super::model::{Entry, Model, PAGES};
use super::rule::warnings;
use crate::diag::counted;
use maud::{DOCTYPE, Markup, html};

/// A whole page: the head (charset first, the site's one style sheet), a
/// navigation line back to the index, and `body`.
pub fn frame(title: &str, edition: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content="bfr doc";
                title { (title) " — " (edition) }
                link rel="stylesheet" href="style.css";
            }
            body {
                nav { a href="index.html" { (edition) } }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// The edition's name, as its header gives it.
pub fn edition_name(m: &Model) -> String {
    m.program
        .edition
        .as_ref()
        .map_or_else(|| "Edition".to_string(), |e| e.name.clone())
}

/// The index page.
pub fn page(m: &Model) -> String {
    let p = m.program;
    let name = edition_name(m);
    let count = |c: &super::Chapter, f: fn(&Entry) -> bool| {
        c.entries.iter().filter(|e| f(&e.entry)).count()
    };
    let body = html! {
        h1 { (name) }
        @if let Some(e) = &p.edition {
            @if let Some(s) = &e.source { p.meta { "Encodes: " (s) } }
            @if let Some(u) = &e.updated { p.meta { "Document last updated: " (u.to_string()) } }
            @if let Some((a, b)) = &e.period { p.meta { "Event: " (a.to_string()) " to " (b.to_string()) } }
        }
        p.meta {
            (counted(p.rules.len(), "rule")) ", " (counted(p.texts.len(), "procedure")) ", "
            (counted(p.examples.len(), "example")) ", " (counted(p.competitions.len(), "competition"))
            @if m.document.as_ref().is_some_and(|d| !d.texts.is_empty()) {
                " · " a href=(PAGES) { "the document's text" }
            }
        }
        h2 { "Chapters" }
        table.rows {
            thead { tr { th { "chapter" } th { "what it holds" } th.num { "rules" } th.num { "examples" } th.num { "warnings" } } }
            tbody {
                @for c in &m.chapters {
                    tr {
                        td { a href=(c.page) { (c.name) } }
                        td { (c.about) }
                        td.num { (count(c, |e| matches!(e, Entry::Rule(_)))) }
                        td.num { (count(c, |e| matches!(e, Entry::Example(_)))) }
                        td.num { (c.loose.len() + c.entries.iter().map(|e| e.warnings.len()).sum::<usize>()) }
                    }
                }
            }
        }
        h2 { "Competitions" }
        @if p.competitions.is_empty() { p { "The edition declares no competition." } }
        ul {
            @for (i, c) in p.competitions.iter().enumerate() {
                li {
                    @match m.entry_anchor(&Entry::Competition(u32::try_from(i).unwrap_or(u32::MAX))) {
                        Some(a) => a href=(a.href()) { (c.title) },
                        None => (c.title),
                    }
                    " (" code { (c.name) } "): "
                    (c.qualification.iter().count() + c.stages.len()) " stages"
                    @if let Some(s) = &c.source { " · " (s.id) }
                }
            }
        }
        @if !m.unplaced.is_empty() {
            h2 { "Warnings" }
            (warnings(&m.unplaced))
        }
    };
    frame("Index", &name, body)
}

/// The page of the document's texts, one section per page the data holds;
/// `None` when it holds none.
pub fn document_pages(m: &Model) -> Option<String> {
    let doc = m.document.as_ref()?;
    if doc.texts.is_empty() {
        return None;
    }
    let mut texts: Vec<_> = doc.texts.iter().collect();
    texts.sort_by_key(|t| t.number);
    let name = edition_name(m);
    let body = html! {
        h1 { "The document's text" }
        p.meta { "The pages of the document the edition's data holds (" (texts.len()) " of " (doc.pages) "), as extracted." }
        @for t in texts {
            section.page id=(format!("page-{}", t.number)) {
                h2 { "Page " (t.number) }
                p { (t.text) }
            }
        }
    };
    Some(frame("The document's text", &name, body))
}
