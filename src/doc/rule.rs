//! One declaration on its chapter page: its heading and anchor, its source (the
//! inventory ID, the pages — linked to the document's own text where the data
//! has it — and the section), its doc comment, its body (a table or a scale as a
//! table, a procedure's paragraphs, an example's assertions), the rules it uses
//! and is used by, and the check's warnings that point into it.

use super::model::PAGES;
use super::model::{Entry, Model, Placed, User, anchor_id};
use crate::diag::Diagnostic;
use crate::ir::{Example, Rule, RuleBody, SourceInfo, TextRule, Type};
use crate::source::Span;
use maud::{Markup, html};
use std::collections::BTreeSet;

/// A declaration (a competition is drawn by `chapter`).
pub fn entry(m: &Model, placed: &Placed, notice: usize) -> Markup {
    let p = m.program;
    let id = anchor_id(p, &placed.entry);
    let body = match &placed.entry {
        Entry::Rule(i) => p.rules.get(*i as usize).map(|r| rule(m, *i, r)),
        Entry::Text(i) => p.texts.get(*i as usize).map(|t| text(m, t)),
        Entry::Unit(i) => p.units.get(*i as usize).map(|u| {
            html! {
                h3 { span.kind { "unit" } " " code { (u.name) } }
                p.doc {
                    (u.description.clone().unwrap_or_default())
                    @if u.count { @if u.description.is_some() { " · " } "a count: whole numbers, never below zero" }
                    @else if u.whole { @if u.description.is_some() { " · " } "counted in whole numbers" }
                    @if !u.aliases.is_empty() { " · also written " (u.aliases.join(", ")) }
                }
            }
        }),
        Entry::Enum(i) => p.enums.get(*i as usize).map(|e| {
            html! {
                h3 { span.kind { "enum" } " " code { (e.name) } }
                (source(m, e.source.as_ref()))
                table.rows {
                    thead { tr { th { "variant" } th { "the document's words" } } }
                    tbody {
                        @for (n, v) in e.variants.iter().enumerate() {
                            tr { td { code { (v) } } td { (e.labels.get(n).cloned().flatten().unwrap_or_default()) } }
                        }
                    }
                }
            }
        }),
        Entry::Record(i) => p.records.get(*i as usize).map(|r| {
            html! {
                h3 { span.kind { "record" } " " code { (r.name) } }
                (source(m, r.source.as_ref()))
                table.rows {
                    thead { tr { th { "field" } th { "type" } } }
                    tbody {
                        @for (f, t) in &r.fields {
                            tr { td { code { (f) } } td { code { (p.type_name(t)) } } }
                        }
                    }
                }
            }
        }),
        Entry::Example(i) => p.examples.get(*i as usize).map(|e| example(m, *i, e)),
        // The check reports a notice as a warning (W0601) in the same words:
        // shown once, as the warning, when there is one.
        Entry::Notice(words, src) => Some(html! {
            h3 { span.kind { "note" } " The edition's editors note" }
            (source(m, src.as_ref()))
            @if placed.warnings.is_empty() { p { (words) } }
        }),
        Entry::Competition(_) => None,
    };
    let Some(body) = body else {
        return html! {};
    };
    let class = match &placed.entry {
        Entry::Notice(..) => "item notice",
        Entry::Example(_) => "item example",
        _ => "item",
    };
    let notice_id = format!("notice-{notice}");
    html! {
        section class=(class) id=(id.unwrap_or(notice_id)) {
            (body)
            (warnings(&placed.warnings))
        }
    }
}

/// The check's warnings shown on a declaration or a page.
pub fn warnings(ws: &[&Diagnostic]) -> Markup {
    html! {
        @for w in ws {
            div.warning {
                span.code { (w.code) } " " (w.message)
                @if !w.label.is_empty() { " — " (w.label) }
                @if let Some(h) = &w.help { br; span.help { "Help: " (h) } }
            }
        }
    }
}

/// `CC-ENTRY · p. 14 · "Att delta"`, the pages linked to their text.
pub fn source(m: &Model, s: Option<&SourceInfo>) -> Markup {
    let Some(s) = s else {
        return html! { p.source { "no source reference" } };
    };
    html! {
        p.source {
            span.ref-id { (s.id) }
            @if let Some(pages) = &s.pages {
                " · p. "
                @for (n, part) in pages.split(',').enumerate() {
                    @if n > 0 { ", " }
                    @for (k, page) in part.split('-').enumerate() {
                        @if k > 0 { "–" }
                        (page_link(m, page.trim()))
                    }
                }
            }
            @if let Some(section) = &s.section { " · “" (section) "”" }
        }
    }
}

/// A page number, linked to the document's text of that page when the data has it.
fn page_link(m: &Model, page: &str) -> Markup {
    match page.parse::<u32>() {
        Ok(n) if m.has_page_text(n) => {
            html! { a href=(format!("{PAGES}#page-{n}")) { (page) } }
        }
        _ => html! { (page) },
    }
}

/// The text of an expression as the edition writes it, its continuation lines
/// moved left as far as they all go.
fn written(m: &Model, span: Span) -> String {
    let text = m.sources.slice(span);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").to_string();
    let rest: Vec<&str> = lines.collect();
    let indent = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = first;
    for l in rest {
        out.push('\n');
        out.push_str(l.get(indent..).unwrap_or(l.trim_start()));
    }
    out
}

fn rule(m: &Model, i: u32, r: &Rule) -> Markup {
    let p = m.program;
    let kind = match &r.body {
        RuleBody::Const { .. } if r.reading => "reading",
        RuleBody::Const { .. } => "const",
        RuleBody::Fn { .. } => "fn",
        RuleBody::Table { .. } => "table",
        RuleBody::Scale { .. } => "scale",
    };
    let signature = if matches!(r.body, RuleBody::Const { .. }) {
        format!(": {}", p.answer_type_name(r))
    } else {
        p.signature(r)
    };
    html! {
        h3 { span.kind { (kind) } " " code { (r.name) (signature) } }
        (source(m, r.source.as_ref()))
        @if !r.doc.is_empty() { p.doc { (r.doc) } }
        (rule_body(m, r))
        (links(m, "Uses", m.uses.get(i as usize).into_iter().flatten().map(|u| User::Rule(*u))))
        (links(m, "Used by", m.used_by.get(i as usize).into_iter().flatten().copied()))
    }
}

fn rule_body(m: &Model, r: &Rule) -> Markup {
    let p = m.program;
    match &r.body {
        RuleBody::Const { value } => html! { pre.code { "= " (written(m, value.span)) } },
        RuleBody::Fn { body } => html! { pre.code { "= " (written(m, body.span)) } },
        RuleBody::Table { rows } => {
            let variants = match r.params.first().map(|(_, t)| t) {
                Some(Type::Enum(e)) => p.enums.get(*e as usize),
                _ => None,
            };
            let key = r.params.first().map_or("", |(n, _)| n.as_str());
            html! {
                table.rows {
                    thead { tr { th { (key) } th { "value" } } }
                    tbody {
                        @for (n, row) in rows.iter().enumerate() {
                            tr {
                                td { code { (variants.and_then(|e| e.variants.get(n)).map_or("?", |v| v.as_str())) } }
                                td { code { (written(m, row.span)) } }
                            }
                        }
                    }
                }
            }
        }
        RuleBody::Scale { arms } => {
            let key = r.params.first().map_or("", |(n, _)| n.as_str());
            html! {
                table.rows {
                    thead { tr { th { (key) } th { (p.answer_type_name(r)) } } }
                    tbody {
                        @for arm in arms {
                            tr { td { code { (arm.text) } } td { code { (written(m, arm.value.span)) } } }
                        }
                    }
                }
            }
        }
    }
}

fn text(m: &Model, t: &TextRule) -> Markup {
    html! {
        h3 { span.kind { "procedure" } " " code { (t.name) } }
        (source(m, t.source.as_ref()))
        @for para in &t.paragraphs { p { (para) } }
    }
}

/// An example: its assertions as written, and whether the document's example
/// is known to contradict its rule.
fn example(m: &Model, i: u32, e: &Example) -> Markup {
    html! {
        h3 { span.kind { "example" } " " (e.title) }
        (source(m, e.source.as_ref()))
        @if e.contradicts {
            p.contradicts { "The document's example contradicts its rule: kept as written, expected to fail." }
        }
        pre.code {
            @for (n, a) in e.assertions.iter().enumerate() {
                @if n > 0 { "\n" }
                (written(m, a.span))
            }
        }
        (links(m, "Uses", m.example_uses.get(i as usize).into_iter().flatten().map(|u| User::Rule(*u))))
    }
}

/// A line of links to rules, examples and competitions.
fn links(m: &Model, what: &str, users: impl Iterator<Item = User>) -> Markup {
    let users: BTreeSet<User> = users.collect();
    if users.is_empty() {
        return html! {};
    }
    let p = m.program;
    let name = |u: User| match u {
        User::Rule(i) => p
            .rules
            .get(i as usize)
            .map_or("?".into(), |r| r.name.clone()),
        User::Example(i) => p
            .examples
            .get(i as usize)
            .map_or("?".into(), |e| format!("example “{}”", e.title)),
        User::Competition(i) => p
            .competitions
            .get(i as usize)
            .map_or("?".into(), |c| format!("competition {}", c.title)),
    };
    html! {
        p.links {
            span.what { (what) ": " }
            @for (n, u) in users.iter().enumerate() {
                @if n > 0 { ", " }
                @match m.user_anchor(*u) {
                    Some(a) => a href=(a.href()) { (name(*u)) },
                    None => (name(*u)),
                }
            }
        }
    }
}
