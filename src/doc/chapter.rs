//! A chapter's page: the file's opening comment, then every declaration in the
//! file's order; a competition with its stage flow and its stages as a table.

use super::flow;
use super::index::{edition_name, frame};
use super::model::{Chapter, Entry, Model, stage_id};
use super::rule::{entry, source, warnings};
use crate::ir::competition::{Count, Schedule, Target};
use crate::ir::{Competition, Program, Value};
use maud::{Markup, html};

/// The page of one chapter.
pub fn page(m: &Model, c: &Chapter) -> String {
    let mut notices = 0;
    let body = html! {
        h1 { (c.name) }
        @if !c.about.is_empty() { p.about { (c.about) } }
        @if !c.loose.is_empty() {
            h2 { "Warnings about this file" }
            (warnings(&c.loose))
        }
        @for placed in &c.entries {
            @match &placed.entry {
                Entry::Competition(i) => @if let Some(comp) = m.program.competitions.get(*i as usize) {
                    (competition(m, comp))
                    (warnings(&placed.warnings))
                },
                Entry::Notice(..) => {
                    ({ notices += 1; entry(m, placed, notices) })
                },
                _ => (entry(m, placed, 0)),
            }
        }
    };
    frame(&c.name, &edition_name(m), body)
}

/// A competition: its source, the stage flow, and a table of its stages.
fn competition(m: &Model, c: &Competition) -> Markup {
    let p = m.program;
    let id = format!("competition-{}", c.name);
    html! {
        section.competition id=(id) {
            h2 { span.kind { "competition" } " " (c.title) " " code { (c.name) } }
            (source(m, c.source.as_ref()))
            div.flow { (maud::PreEscaped(flow::svg(p, c))) }
            table.rows.stages {
                thead { tr {
                    th.num { "#" } th { "stage" } th { "day" } th { "part of the day" }
                    th { "boards" } th { "winners" } th { "losers" } th { "source" }
                } }
                tbody {
                    @if let Some(q) = &c.qualification {
                        tr id=(stage_id(c, &q.name)) {
                            td.num { "–" }
                            td { (q.title) " " code { (q.name) } br; "qualification" }
                            td { (day(&q.schedule)) }
                            td { (part(p, &q.schedule)) }
                            td { (count(p, &q.boards)) }
                            td colspan="2" {
                                @for (a, b, t) in &q.places { (places(*a, *b)) " → " (target(c, t)) br; }
                                "the rest → " (target(c, &q.rest))
                            }
                            td { (source(m, q.source.as_ref())) }
                        }
                    }
                    @for s in &c.stages {
                        tr id=(stage_id(c, &s.name)) {
                            td.num { (s.order) }
                            td { (s.title) " " code { (s.name) } }
                            td { (day(&s.schedule)) }
                            td { (part(p, &s.schedule)) }
                            td { (count(p, &s.boards)) }
                            td { (target(c, &s.winners)) }
                            td { (target(c, &s.losers)) }
                            td { (source(m, s.source.as_ref())) }
                        }
                    }
                }
            }
        }
    }
}

/// `places 1–32`, `place 3`.
pub fn places(a: u32, b: u32) -> String {
    if a == b {
        format!("place {a}")
    } else {
        format!("places {a}–{b}")
    }
}

/// Where a route leads: a link to the stage's row, or out, or a final place.
fn target(c: &Competition, t: &Target) -> Markup {
    match t {
        Target::Stage(i) => match c.stages.get(*i) {
            Some(s) => html! { a href=(format!("#{}", stage_id(c, &s.name))) { (s.title) } },
            None => html! { "?" },
        },
        Target::Out => html! { "out" },
        Target::Place(a, b) => html! { "final " (places(*a, *b)) },
    }
}

/// The day (and the last day, when it runs over several).
pub fn day(s: &Schedule) -> String {
    match (s.day, s.last_day) {
        (Some(a), Some(b)) => format!("{a} – {b}"),
        (Some(a), None) => a.to_string(),
        _ => String::new(),
    }
}

/// The part of the day, in the document's words where the enum gives them.
pub fn part(p: &Program, s: &Schedule) -> String {
    s.part.as_ref().map_or_else(String::new, |v| words(p, v))
}

/// An enum value in the document's words (its label), else as the edition writes it.
pub fn words(p: &Program, v: &Value) -> String {
    if let Value::Enum(e, i) = v
        && let Some(info) = p.enums.get(*e as usize)
    {
        if let Some(Some(label)) = info.labels.get(*i as usize) {
            return label.clone();
        }
        if let Some(name) = info.variants.get(*i as usize) {
            return name.clone();
        }
    }
    v.show(p)
}

/// `32`, or the rule that gives the count for the field size.
pub fn count(p: &Program, c: &Count) -> String {
    match c {
        Count::Fixed(n) => n.to_string(),
        Count::OfField(i) => p
            .rules
            .get(*i as usize)
            .map_or_else(|| "?".into(), |r| format!("{}(teams)", r.name)),
    }
}
