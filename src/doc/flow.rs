//! A competition's stages as an inline SVG flow, drawn from the typed IR: one
//! box per stage (the qualification first) with its title, day, part of the day
//! and boards; an arrow for every route to another stage, labelled (winners,
//! losers, a qualification's places), and under each box the routes that leave
//! the competition (out, a final place).
//!
//! Layout: a stage's column is the length of the longest route chain that leads
//! to it, so every arrow points right; within a column, stages stand in the
//! document's order. Every route is one `<g class="route">` naming its ends
//! (`data-from`, `data-to`), so a reader — or a test — can find each one.

use super::words::{count, day, part, places};
use crate::ir::Program;
use crate::ir::competition::{Competition, Schedule, Target};
use maud::{Markup, html};

const BOX_W: u32 = 212;
const BOX_H: u32 = 58;
const GAP_X: u32 = 64;
const GAP_Y: u32 = 50;
const PAD: u32 = 12;

/// A box: the qualification or a knockout stage.
struct Node<'c> {
    name: &'c str,
    title: String,
    schedule: &'c Schedule,
    boards: String,
    /// Routes: label, target.
    routes: Vec<(String, &'static str, Target)>,
}

/// The SVG of a competition's flow (an empty string when it has no stages).
pub fn svg(p: &Program, c: &Competition) -> String {
    let nodes = nodes(p, c);
    if nodes.is_empty() {
        return String::new();
    }
    let qualified = c.qualification.is_some();
    let columns = columns(&nodes, qualified);
    let rows = rows(&nodes, &columns, qualified);
    let n_columns = columns.iter().max().map_or(1, |c| c + 1);
    let n_rows = rows.iter().max().map_or(1, |r| r + 1);
    let width = PAD * 2 + n_columns * (BOX_W + GAP_X) - GAP_X;
    let height = PAD * 2 + n_rows * (BOX_H + GAP_Y);
    let at = |i: usize| {
        (
            PAD + columns[i] * (BOX_W + GAP_X),
            PAD + rows[i] * (BOX_H + GAP_Y),
        )
    };
    let marker = format!("arrow-{}", c.name);
    // The checker keeps a route to a stage of the competition; an IR from
    // elsewhere (a damaged cache) draws it as leaving rather than fail.
    let index_of = |t: &Target| match t {
        Target::Stage(s) => s
            .checked_add(usize::from(qualified))
            .filter(|j| *j < nodes.len()),
        _ => None,
    };
    let mut routes = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let (x, y) = at(i);
        let to_stages = n.routes.iter().filter(|r| index_of(&r.2).is_some()).count();
        let (mut k, mut tail) = (0u32, 0u32);
        for (label, kind, target) in &n.routes {
            match index_of(target) {
                Some(j) => {
                    k += 1;
                    let from = (x + BOX_W, y + BOX_H * k / (to_stages as u32 + 1));
                    let (tx, ty) = at(j);
                    let to = nodes.get(j).map_or("?", |t| t.name);
                    let ends = Ends {
                        from: n.name,
                        to,
                        label,
                        kind,
                    };
                    routes.push(arrow(&ends, from, (tx, ty + BOX_H / 2), &marker));
                }
                None => {
                    tail += 1;
                    let ends = Ends {
                        from: n.name,
                        to: "",
                        label,
                        kind,
                    };
                    routes.push(exit(&ends, target, (x, y + BOX_H), tail));
                }
            }
        }
    }
    html! {
        svg xmlns="http://www.w3.org/2000/svg" class="stage-flow" width=(width) height=(height)
            viewBox=(format!("0 0 {width} {height}")) role="img"
            aria-label=(format!("The stages of {} and the routes between them", c.title)) {
            defs {
                marker id=(marker) viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse" {
                    path d="M 0 0 L 10 5 L 0 10 z" {}
                }
            }
            @for (i, n) in nodes.iter().enumerate() {
                (stage_box(n, at(i)))
            }
            @for r in &routes { (r) }
        }
    }
    .into_string()
}

/// The boxes: the qualification first, then the stages in the document's order.
fn nodes<'c>(p: &Program, c: &'c Competition) -> Vec<Node<'c>> {
    let mut out = Vec::new();
    if let Some(q) = &c.qualification {
        let mut routes: Vec<(String, &'static str, Target)> = q
            .places
            .iter()
            .map(|(a, b, t)| (places(*a, *b), "places", *t))
            .collect();
        routes.push(("the rest".into(), "rest", q.rest));
        out.push(Node {
            name: &q.name,
            title: q.title.clone(),
            schedule: &q.schedule,
            boards: count(p, &q.boards),
            routes,
        });
    }
    for s in &c.stages {
        out.push(Node {
            name: &s.name,
            title: format!("{}. {}", s.order, s.title),
            schedule: &s.schedule,
            boards: count(p, &s.boards),
            routes: vec![
                ("winners".into(), "winners", s.winners),
                ("losers".into(), "losers", s.losers),
            ],
        });
    }
    for n in &mut out {
        n.boards = format!("{} boards{}", n.boards, {
            let part = part(p, n.schedule);
            if part.is_empty() {
                String::new()
            } else {
                format!(" · {part}")
            }
        });
    }
    out
}

/// Each box's column: the longest chain of routes that leads to it (the
/// qualification's is 0, a stage no route reaches starts after it).
fn columns(nodes: &[Node], qualified: bool) -> Vec<u32> {
    let offset = usize::from(qualified);
    let mut col = vec![0u32; nodes.len()];
    if qualified {
        col.iter_mut().skip(1).for_each(|c| *c = 1);
    }
    // The check refuses cycles; the bound keeps a slip from looping for ever.
    for _ in 0..=nodes.len() {
        let mut changed = false;
        for i in 0..nodes.len() {
            for (_, _, t) in &nodes[i].routes {
                if let Target::Stage(s) = t {
                    let j = s + offset;
                    if j < col.len() && j != i && col[j] <= col[i] {
                        col[j] = col[i] + 1;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    col
}

/// Each box's row in its column: the row of the box whose winners (or first
/// places) lead to it, so that a chain of winners stays on one line, else the
/// first row free; boxes are placed column by column, in the document's order.
fn rows(nodes: &[Node], columns: &[u32], qualified: bool) -> Vec<u32> {
    let offset = usize::from(qualified);
    let mut rows: Vec<Option<u32>> = vec![None; nodes.len()];
    let mut taken: std::collections::BTreeSet<(u32, u32)> = std::collections::BTreeSet::new();
    let last = columns.iter().max().copied().unwrap_or(0);
    for col in 0..=last {
        for i in (0..nodes.len()).filter(|i| columns[*i] == col) {
            // The first route of a box is its winners' (a qualification's first places).
            let preferred = nodes
                .iter()
                .enumerate()
                .find_map(|(j, n)| match n.routes.first() {
                    Some((_, _, Target::Stage(s))) if s + offset == i => rows[j],
                    _ => None,
                });
            let row = preferred
                .filter(|r| !taken.contains(&(col, *r)))
                .unwrap_or_else(|| (0..).find(|r| !taken.contains(&(col, *r))).unwrap_or(0));
            taken.insert((col, row));
            rows[i] = Some(row);
        }
    }
    rows.into_iter().map(|r| r.unwrap_or(0)).collect()
}

/// A box with the stage's title, day and boards.
fn stage_box(n: &Node, (x, y): (u32, u32)) -> Markup {
    let when = short_day(n.schedule);
    html! {
        g.stage data-stage=(n.name) {
            title { (n.title) }
            rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="4" {}
            text x=(x + 8) y=(y + 17) class="title" { (n.title) }
            text x=(x + 8) y=(y + 33) { (if when.is_empty() { "day not given".to_string() } else { when }) }
            text x=(x + 8) y=(y + 49) { (n.boards) }
        }
    }
}

/// The day for a box: a last day in the same year without its year, so the
/// range fits (`Sat 2015-07-25 – Sun 07-26`).
fn short_day(s: &Schedule) -> String {
    match (s.day, s.last_day) {
        (Some(a), Some(b)) if a.year == b.year => {
            let year = format!("{:04}-", b.year);
            format!("{a} – {}", b.to_string().replacen(&year, "", 1))
        }
        _ => day(s),
    }
}

/// A route's ends and words.
struct Ends<'a> {
    from: &'a str,
    to: &'a str,
    label: &'a str,
    kind: &'a str,
}

/// A route to another stage: a curve from the box's right side to the target's left.
///
/// To the next column it is a curve; further, it runs along the channel below the
/// upper of the two rows (below the routes written under the boxes), so that it
/// crosses no box on its way.
fn arrow(e: &Ends, (x1, y1): (u32, u32), (x2, y2): (u32, u32), marker: &str) -> Markup {
    let bend = GAP_X / 2;
    let d = if x2 <= x1 + GAP_X {
        format!(
            "M {x1} {y1} C {} {y1}, {} {y2}, {x2} {y2}",
            x1 + bend,
            x2.saturating_sub(bend)
        )
    } else {
        let row_top = |y: u32| y - (y - PAD) % (BOX_H + GAP_Y);
        // Routes from different columns run at different heights, so that two
        // sharing the channel can be told apart.
        let lane = (x1 / (BOX_W + GAP_X)) % 4;
        let channel = row_top(y1.min(y2)) + BOX_H + GAP_Y - 6 - 5 * lane;
        let (a, b) = (x1 + 10, x2.saturating_sub(12));
        format!("M {x1} {y1} L {a} {y1} L {a} {channel} L {b} {channel} L {b} {y2} L {x2} {y2}")
    };
    html! {
        g class=(format!("route {}", e.kind)) data-from=(e.from) data-to=(e.to) {
            path d=(d) marker-end=(format!("url(#{marker})")) {}
            text x=(x1 + 4) y=(y1.saturating_sub(3)) class="label" { (e.label) }
        }
    }
}

/// A route out of the competition or to a final place, written under the box.
fn exit(e: &Ends, target: &Target, (x, y): (u32, u32), line: u32) -> Markup {
    let (to, words) = match target {
        Target::Place(a, b) => (
            format!("place-{a}-{b}"),
            format!("final {}", places(*a, *b)),
        ),
        // A stage target is drawn as an arrow; this is only reached for `Out`.
        Target::Out | Target::Stage(_) => ("out".to_string(), "out".to_string()),
    };
    let ty = y + 13 * line;
    html! {
        g class=(format!("route exit {}", e.kind)) data-from=(e.from) data-to=(to) {
            path d=(format!("M {} {} l 0 {}", x + 4, ty - 11, 8)) {}
            text x=(x + 10) y=(ty) class="label" { (e.label) " → " (words) }
        }
    }
}
