//! Source references against the document's data: every rule says where in the
//! document it comes from, and that claim is checked. An ID the document does not
//! have (W0202), a page it does not have (W0203), a page where the ID does not
//! stand (W0204), and a section or text the cited pages do not hold (W0205) are
//! warnings, with the nearest ID or heading where one is close.

use crate::diag::{Diagnostic, Diagnostics};
use crate::document::{Document, Origin, normalise};
use crate::names::nearest;
use crate::syntax::ast::{self, Decl, SourceRef};

/// Checks every `ref` of the edition's files against `doc`.
pub fn check_refs(doc: &Document, files: &[ast::File], diags: &mut Diagnostics) {
    for item in files.iter().flat_map(|f| &f.items) {
        for r in refs_of(&item.decl) {
            check_ref(doc, r, diags);
        }
    }
}

/// The references a declaration writes (a competition's stages have their own).
fn refs_of(decl: &Decl) -> Vec<&SourceRef> {
    let one = match decl {
        Decl::Edition(_) | Decl::Unit(_) | Decl::Remove(_) => None,
        Decl::Enum(d) => d.source.as_deref(),
        Decl::Record(d) => d.source.as_deref(),
        Decl::Table(d) => d.source.as_deref(),
        Decl::Scale(d) => d.source.as_deref(),
        Decl::Fn(d) => d.source.as_deref(),
        Decl::Const(d) => d.source.as_deref(),
        Decl::Example(d) => d.source.as_deref(),
        Decl::Text(d) => d.source.as_deref(),
        Decl::Notice(d) => d.source.as_deref(),
        Decl::Entries(d) | Decl::Federation(d) => d.source.as_deref(),
        Decl::Competition(c) => {
            let mut all: Vec<&SourceRef> = c.source.as_deref().into_iter().collect();
            all.extend(c.stages.iter().filter_map(|s| s.source.as_deref()));
            return all;
        }
    };
    one.into_iter().collect()
}

fn check_ref(doc: &Document, r: &SourceRef, diags: &mut Diagnostics) {
    let Some(entry) = doc.id(&r.id) else {
        let mut d = Diagnostic::warning(
            "W0202",
            format!("`{}` is not a rule ID of the document", r.id),
            r.id_span,
        )
        .with_label("no rule has this ID");
        d = match nearest(&r.id, doc.ids.iter().map(|e| e.id.as_str())) {
            Some(n) => d.with_help(format!("did you mean `{n}`?")),
            None => d.with_help("use the ID the inventory gives the rule"),
        };
        diags.push(d);
        return;
    };
    if entry.origin == Origin::Outside {
        // A fact from outside the document: its "section" names the outside source.
        return;
    }
    let cited = match &r.pages {
        Some(text) => match cited_pages(doc, r, text, diags) {
            Some(p) => p,
            None => return,
        },
        None => entry.pages.clone(),
    };
    if r.pages.is_some()
        && !entry.pages.is_empty()
        && !cited.iter().any(|p| entry.pages.contains(p))
    {
        diags.push(
            Diagnostic::warning(
                "W0204",
                format!(
                    "`{}` stands on {}, not on p.{}",
                    r.id,
                    show_pages(&entry.pages),
                    r.pages.as_deref().unwrap_or_default()
                ),
                r.pages_span.unwrap_or(r.span),
            )
            .with_label("the rule is not on these pages")
            .with_help(format!(
                "cite {}, or check the ID",
                show_pages(&entry.pages)
            )),
        );
    }
    if let Some(section) = &r.section
        && !doc.quote_on(section, &cited)
    {
        diags.push(section_not_found(doc, r, section, &cited));
    }
}

/// The pages `p.5,9` or `p.17-18` name; a page outside the document or a range
/// that runs backwards is reported, and the reference is checked no further.
fn cited_pages(
    doc: &Document,
    r: &SourceRef,
    text: &str,
    diags: &mut Diagnostics,
) -> Option<Vec<u32>> {
    let span = r.pages_span.unwrap_or(r.span);
    let mut pages = Vec::new();
    for part in text.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) else {
            return None;
        };
        let outside = [a, b].into_iter().find(|p| *p == 0 || *p > doc.pages);
        if let Some(p) = outside {
            diags.push(
                Diagnostic::warning(
                    "W0203",
                    format!("the document has no page {p}: it has {} pages", doc.pages),
                    span,
                )
                .with_label(format!("page {p}"))
                .with_help(format!("cite a page from 1 to {}", doc.pages)),
            );
            return None;
        }
        if a > b {
            diags.push(
                Diagnostic::warning("W0203", format!("the pages {a}-{b} run backwards"), span)
                    .with_label("the first page is after the last")
                    .with_help(format!("write p.{b}-{a}")),
            );
            return None;
        }
        pages.extend(a..=b);
    }
    Some(pages)
}

fn section_not_found(doc: &Document, r: &SourceRef, section: &str, cited: &[u32]) -> Diagnostic {
    let on = show_pages(cited);
    let where_ = if doc.has_text(cited) {
        format!("is neither a heading nor text on {on}")
    } else {
        format!("is not a heading of a section on {on}")
    };
    let mut d = Diagnostic::warning(
        "W0205",
        format!("\"{section}\" {where_}"),
        r.section_span.unwrap_or(r.span),
    )
    .with_label("not found on the cited page(s)");
    let here: Vec<&str> = doc
        .sections
        .iter()
        .filter(|s| cited.iter().any(|p| (s.first..=s.last).contains(p)))
        .map(|s| s.title.as_str())
        .collect();
    let elsewhere = doc
        .sections
        .iter()
        .find(|s| normalise(&s.title) == normalise(section));
    d = if let Some(n) = nearest(section, here.iter().copied()) {
        d.with_help(format!("did you mean \"{n}\"?"))
    } else if let Some(s) = elsewhere {
        d.with_help(format!(
            "\"{}\" is a heading on {}; check the page",
            s.title,
            show_pages(&(s.first..=s.last).collect::<Vec<_>>())
        ))
    } else if here.is_empty() {
        d.with_help("quote the section's heading as the document writes it")
    } else {
        d.with_help(format!("the sections there: {}", quoted(&here)))
    };
    d
}

fn quoted(titles: &[&str]) -> String {
    let shown: Vec<String> = titles.iter().take(6).map(|t| format!("\"{t}\"")).collect();
    let more = if titles.len() > 6 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// `p.14`, `pp.17-18`, `pp.5, 11`.
fn show_pages(pages: &[u32]) -> String {
    match pages {
        [] => "no page".into(),
        [one] => format!("p.{one}"),
        _ => {
            let contiguous = pages.windows(2).all(|w| w[1] == w[0] + 1);
            match (contiguous, pages.first(), pages.last()) {
                (true, Some(a), Some(b)) => format!("pp.{a}-{b}"),
                _ => {
                    let all: Vec<String> = pages.iter().map(u32::to_string).collect();
                    format!("pp.{}", all.join(", "))
                }
            }
        }
    }
}
