//! Checking a competition's routing as a graph: no cycles, team counts that add
//! up, no stage fed by one played after it, stage orders and places.

use super::compute::Computer;
use super::declared::{Declared, DeclaredStage, Property, RouteFrom, RouteTarget};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{self, Program, Value};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// The edition, and what the check computes of it.
#[derive(Clone, Copy)]
struct Edition<'a> {
    program: &'a Program,
    computer: &'a Computer,
}

impl Edition<'_> {
    /// A property's value; `None` when it cannot be computed (reported where the
    /// property is typed, or by the check as its steps spent).
    fn value(self, p: &Property) -> Option<Value> {
        self.computer.value(self.program, &p.value)?.ok()
    }
}

fn number_prop(ed: Edition, stage: &DeclaredStage, key: &str) -> Option<Decimal> {
    match ed.value(Property::find(&stage.properties, key)?)? {
        Value::Num(n, _) => Some(n),
        _ => None,
    }
}

/// When a stage starts: its day, and the index of its part of the day when the
/// part is an enum value (the edition declares the parts in time order).
fn start_of(ed: Edition, stage: &DeclaredStage) -> Option<(ir::Date, Option<(u32, u32)>)> {
    let day = date_prop(ed, stage)?;
    let part = Property::find(&stage.properties, "part").and_then(|p| match ed.value(p)? {
        Value::Enum(en, v) => Some((en, v)),
        _ => None,
    });
    Some((day, part))
}

/// `Mon 2015-07-27, DayPart.Morning`
fn when(program: &Program, day: ir::Date, part: Option<(u32, u32)>) -> String {
    match part {
        Some((e, v)) => format!("{day}, {}", Value::Enum(e, v).show(program)),
        None => day.to_string(),
    }
}

fn date_prop(ed: Edition, stage: &DeclaredStage) -> Option<ir::Date> {
    let p = stage
        .properties
        .iter()
        .find(|p| p.key == "day" || p.key == "first_day")?;
    match ed.value(p)? {
        Value::Date(d) => Some(d),
        _ => None,
    }
}

/// Routing as a graph: no cycles, team counts that add up, no stage fed by a
/// stage played after it.
pub(crate) fn check_routing(
    program: &Program,
    declared: &[Declared],
    diags: &mut Diagnostics,
    computer: &Computer,
) {
    let ed = Edition { program, computer };
    for comp in declared {
        if let Some(cycle) = first_cycle(comp) {
            if let Some(d) = cycle_error(comp, &cycle) {
                diags.push(d);
            }
            // One cycle per competition; its team counts mean nothing.
            continue;
        }
        let teams: Vec<Option<Decimal>> = comp
            .stages
            .iter()
            .map(|s| number_prop(ed, s, "teams"))
            .collect();
        check_feeding_order(ed, comp, diags);
        check_orders_and_places(ed, comp, &teams, diags);
        check_team_counts(comp, &teams, diags);
    }
}

/// The first cycle in a competition's routing between stages, as stage indices.
fn first_cycle(comp: &Declared) -> Option<Vec<usize>> {
    let n = comp.stages.len();
    let edges: Vec<Vec<usize>> = comp
        .stages
        .iter()
        .map(|s| {
            s.routes
                .iter()
                .filter_map(|r| match r.to {
                    RouteTarget::Stage(t) => Some(t as usize),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let mut state = vec![0u8; n];
    (0..n).find_map(|start| find_cycle(start, &edges, &mut state, &mut Vec::new()))
}

/// The error for a routing cycle, at its first stage.
fn cycle_error(comp: &Declared, cycle: &[usize]) -> Option<Diagnostic> {
    let names: Vec<String> = cycle
        .iter()
        .filter_map(|i| comp.stages.get(*i).map(|s| format!("`{}`", s.name)))
        .collect();
    let s = cycle.first().and_then(|i| comp.stages.get(*i))?;
    Some(
        Diagnostic::error(
            "E0402",
            format!("the routing of `{}` goes round in a circle", comp.name),
            s.span,
        )
        .with_label(format!("{} → back here", names.join(" → ")))
        .with_help("every route must lead on to a later stage, `out` or a place"),
    )
}

/// How many teams a route carries from a stage of `from_teams` teams: a range
/// of places, or half the teams for its winners or losers; unknown for the rest.
fn group_size(from: &RouteFrom, from_teams: Option<Decimal>) -> Option<Decimal> {
    match *from {
        RouteFrom::Places(a, b) => Some(Decimal::from(b.saturating_sub(a) + 1)),
        RouteFrom::Winners | RouteFrom::Losers => {
            from_teams.and_then(|x| x.checked_div(Decimal::TWO))
        }
        RouteFrom::Rest => None,
    }
}

/// No stage is played before (or, on the same day, in the same or an earlier
/// part of the day than) a stage that feeds it.
fn check_feeding_order(ed: Edition, comp: &Declared, diags: &mut Diagnostics) {
    for s in &comp.stages {
        let Some((day, part)) = start_of(ed, s) else {
            continue;
        };
        for r in &s.routes {
            let RouteTarget::Stage(t) = r.to else {
                continue;
            };
            let Some(target) = comp.stages.get(t as usize) else {
                continue;
            };
            let Some((tday, tpart)) = start_of(ed, target) else {
                continue;
            };
            let same_day_but_earlier = tday == day
                && matches!((part, tpart), (Some((e, a)), Some((f, b))) if e == f && b <= a);
            if tday < day || same_day_but_earlier {
                diags.push(
                    Diagnostic::error(
                        "E0406",
                        format!(
                            "`{}` ({}) is played before `{}` ({}), which feeds it",
                            target.name,
                            when(ed.program, tday, tpart),
                            s.name,
                            when(ed.program, day, part)
                        ),
                        target.span,
                    )
                    .with_note(s.span, "the stage that feeds it")
                    .with_help("check the days and parts of day of both stages"),
                );
            }
        }
    }
}

/// A stage that routes lead to is declared for as many teams as they bring.
fn check_team_counts(comp: &Declared, teams: &[Option<Decimal>], diags: &mut Diagnostics) {
    let n = comp.stages.len();
    let mut inflow: Vec<Option<Decimal>> = vec![Some(Decimal::ZERO); n];
    let mut fed = vec![false; n];
    for (i, s) in comp.stages.iter().enumerate() {
        for r in &s.routes {
            let RouteTarget::Stage(t) = r.to else {
                continue;
            };
            let t = t as usize;
            if let Some(f) = fed.get_mut(t) {
                *f = true;
            }
            let size = group_size(&r.from, teams.get(i).copied().flatten());
            if let Some(slot) = inflow.get_mut(t) {
                *slot = match (*slot, size) {
                    (Some(a), Some(b)) => a.checked_add(b),
                    _ => None,
                };
            }
        }
    }
    for (i, s) in comp.stages.iter().enumerate() {
        let (Some(Some(declared)), Some(Some(arriving)), Some(true)) =
            (teams.get(i), inflow.get(i), fed.get(i))
        else {
            continue;
        };
        if declared != arriving {
            diags.push(
                Diagnostic::error(
                    "E0403",
                    format!(
                        "stage `{}` is declared for {} teams, but its routes bring {}",
                        s.name,
                        declared.normalize(),
                        arriving.normalize()
                    ),
                    s.span,
                )
                .with_help("check `teams` here and the routes that lead here"),
            );
        }
    }
}

fn find_cycle(
    node: usize,
    edges: &[Vec<usize>],
    state: &mut [u8],
    path: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    match state.get(node) {
        Some(2) | None => return None,
        Some(1) => {
            let start = path.iter().position(|x| *x == node).unwrap_or(0);
            return Some(path.get(start..).unwrap_or(&[]).to_vec());
        }
        _ => {}
    }
    if let Some(s) = state.get_mut(node) {
        *s = 1;
    }
    path.push(node);
    for next in edges.get(node).map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(c) = find_cycle(*next, edges, state, path) {
            return Some(c);
        }
    }
    path.pop();
    if let Some(s) = state.get_mut(node) {
        *s = 2;
    }
    None
}

/// Stage numbers are unique; qualification places and final places are given
/// once each, and a group shares exactly as many places as it has teams.
fn check_orders_and_places(
    ed: Edition,
    comp: &Declared,
    teams: &[Option<Decimal>],
    diags: &mut Diagnostics,
) {
    let mut orders: BTreeMap<Decimal, &DeclaredStage> = BTreeMap::new();
    let mut finals: Vec<(u32, u32, &DeclaredStage)> = Vec::new();
    for (i, s) in comp.stages.iter().enumerate() {
        if let Some(order) = number_prop(ed, s, "order")
            && let Some(first) = orders.insert(order, s)
        {
            diags.push(
                Diagnostic::error(
                    "E0407",
                    format!(
                        "`{}` and `{}` are both stage {}",
                        first.name,
                        s.name,
                        order.normalize()
                    ),
                    s.span,
                )
                .with_note(first.span, "the other stage")
                .with_help("give every stage its own `order`"),
            );
        }
        check_stage_places(s, teams.get(i).copied().flatten(), &mut finals, diags);
    }
}

/// One stage's routes: its qualification places do not overlap, each group
/// going to final places fits them, and no final place is given twice;
/// `finals` holds the final places the earlier stages give.
fn check_stage_places<'a>(
    s: &'a DeclaredStage,
    stage_teams: Option<Decimal>,
    finals: &mut Vec<(u32, u32, &'a DeclaredStage)>,
    diags: &mut Diagnostics,
) {
    let mut qual: Vec<(u32, u32)> = Vec::new();
    for r in &s.routes {
        if let RouteFrom::Places(a, b) = r.from {
            if let Some((c, d)) = qual.iter().find(|(c, d)| a <= *d && *c <= b) {
                diags.push(
                    Diagnostic::error(
                        "E0405",
                        format!("places {a}..{b} of `{}` overlap places {c}..{d}", s.name),
                        s.span,
                    )
                    .with_help("route each place of the qualification once"),
                );
            }
            qual.push((a, b));
        }
        let RouteTarget::Place(a, b) = r.to else {
            continue;
        };
        let group = group_size(&r.from, stage_teams);
        let size = Decimal::from(b.saturating_sub(a) + 1);
        if let Some(g) = group
            && g != size
        {
            diags.push(
                Diagnostic::error(
                    "E0405",
                    format!(
                        "{} teams of `{}` go to {} place(s), {a}..{b}",
                        g.normalize(),
                        s.name,
                        size
                    ),
                    s.span,
                )
                .with_help("a group shares exactly as many places as it has teams"),
            );
        }
        if let Some((c, d, other)) = finals.iter().find(|(c, d, _)| a <= *d && *c <= b) {
            diags.push(
                Diagnostic::error(
                    "E0405",
                    format!(
                        "place(s) {a}..{b} from `{}` are also given by `{}` ({c}..{d})",
                        s.name, other.name
                    ),
                    s.span,
                )
                .with_note(other.span, "the other stage")
                .with_help("give every final place once"),
            );
        }
        finals.push((a, b, s));
    }
}
