//! A chapter's page: the file's opening comment, then every declaration in the
//! file's order; a competition with its stage flow and its stages as a table.

use super::flow;
use super::index::{edition_name, frame};
use super::model::{Chapter, Entry, Model, stage_id};
use super::rule::{entry, source, warnings};
use super::words::{count, day, part, places};
use crate::ir::Competition;
use crate::ir::competition::Target;
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
            @if let Some((first, last)) = c.days() {
                div.days {
                    p { "Played " (first.through(last)) "; a stage without a day of its own is played on these days." }
                    (source(m, c.days_source.as_ref()))
                }
            }
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
