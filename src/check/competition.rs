//! Competitions and their stages: properties with known meanings, and routing
//! of winners, losers and qualification places, checked as a graph.

use super::expr::Scope;
use super::names::did_you_mean;
use super::{Checker, source_info};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::Evaluator;
use crate::ir::{self, ExprKind, Program, RouteFrom, RouteTarget, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// What a property's value must be.
#[derive(Clone, Copy)]
enum Want {
    Number,
    Date,
    DateTime,
    Bool,
    AnyEnum,
    AnyQuantity,
    Rule,
    EnumOrRule,
    Text,
}

/// The generic vocabulary of competitions and stages. Meanings, not figures: the
/// edition gives every value.
const PROPERTIES: [(&str, Want); 38] = [
    ("order", Want::Number),
    ("day", Want::Date),
    ("first_day", Want::Date),
    ("last_day", Want::Date),
    ("starts", Want::DateTime),
    ("part", Want::AnyEnum),
    ("boards", Want::Number),
    ("rounds", Want::Number),
    ("teams", Want::Number),
    ("min_teams", Want::Number),
    ("max_teams", Want::Number),
    ("max_players", Want::Number),
    ("segments", Want::Number),
    ("screens", Want::Bool),
    ("halftime_change", Want::Bool),
    ("system", Want::AnyEnum),
    ("draw", Want::AnyEnum),
    ("first_round", Want::AnyEnum),
    ("format", Want::AnyEnum),
    ("home", Want::AnyEnum),
    ("tie_break", Want::EnumOrRule),
    ("vp_scale", Want::Rule),
    ("carry_over", Want::AnyQuantity),
    ("bye_score", Want::AnyQuantity),
    ("late_start_round", Want::Number),
    ("late_withdrawal", Want::AnyEnum),
    ("withdrawal_boards", Want::Number),
    ("walkovers", Want::Bool),
    ("seating", Want::EnumOrRule),
    ("district_prize", Want::AnyQuantity),
    ("trophy_points", Want::Rule),
    ("inheritance", Want::AnyEnum),
    ("walkover_inheritance", Want::AnyEnum),
    ("equal_rankings", Want::AnyEnum),
    ("knockout_tie", Want::AnyEnum),
    ("table_numbers", Want::AnyEnum),
    ("title", Want::Text),
    ("prize", Want::AnyQuantity),
];

impl Checker {
    pub(crate) fn lower_competition(&mut self, index: u32, decl: &ast::CompetitionDecl) {
        self.lowering_competition = Some(index);
        let properties = self.properties(&decl.properties);
        let mut stages: Vec<ir::Stage> = Vec::new();
        let mut first_at: BTreeMap<&str, Span> = BTreeMap::new();
        for s in &decl.stages {
            if let Some(first) = first_at.insert(&s.name.text, s.name.span) {
                self.diags.push(
                    Diagnostic::error(
                        "E0102",
                        format!("stage `{}` is defined twice", s.name.text),
                        s.name.span,
                    )
                    .with_note(first, "first defined here"),
                );
            }
        }
        let stage_names: Vec<&str> = decl.stages.iter().map(|s| s.name.text.as_str()).collect();
        for s in &decl.stages {
            let props = self.properties(&s.properties);
            let mut routes = Vec::new();
            let mut groups: BTreeMap<String, Span> = BTreeMap::new();
            for r in &s.routes {
                let from = match (&r.from, s.kind) {
                    (ast::RouteFrom::Places(a, b), ast::StageKind::Qualification) => {
                        if a > b || *a == 0 {
                            self.diags.push(
                                Diagnostic::error(
                                    "E0306",
                                    format!("places {a}..{b} contain no place"),
                                    r.span,
                                )
                                .with_help("write the better place first, from 1"),
                            );
                        }
                        RouteFrom::Places(*a, *b)
                    }
                    (ast::RouteFrom::Group(g), ast::StageKind::Stage) if g.text == "winners" => {
                        RouteFrom::Winners
                    }
                    (ast::RouteFrom::Group(g), ast::StageKind::Stage) if g.text == "losers" => {
                        RouteFrom::Losers
                    }
                    (ast::RouteFrom::Group(g), ast::StageKind::Qualification)
                        if g.text == "rest" =>
                    {
                        RouteFrom::Rest
                    }
                    (ast::RouteFrom::Group(g), kind) => {
                        let known: &[&str] = match kind {
                            ast::StageKind::Stage => &["winners", "losers"],
                            ast::StageKind::Qualification => &["places A..B", "rest"],
                        };
                        let mut d = Diagnostic::error(
                            "E0105",
                            format!("`{}` is not a group this stage can route", g.text),
                            g.span,
                        )
                        .with_help(format!("route {}", known.join(" or ")));
                        if let Some(h) = did_you_mean(&g.text, known.iter().copied()) {
                            d = d.with_help(h);
                        }
                        self.diags.push(d);
                        continue;
                    }
                    (ast::RouteFrom::Places(..), ast::StageKind::Stage) => {
                        self.diags.push(
                            Diagnostic::error(
                                "E0105",
                                "only a qualification routes places",
                                r.span,
                            )
                            .with_help("route `winners` and `losers` of a knockout stage"),
                        );
                        continue;
                    }
                };
                let key = format!("{from:?}");
                if let Some(first) = groups.insert(key, r.span) {
                    self.diags.push(
                        Diagnostic::error("E0102", "this group is routed twice", r.span)
                            .with_note(first, "first routed here"),
                    );
                }
                let to = match &r.to {
                    ast::RouteTarget::Out => RouteTarget::Out,
                    ast::RouteTarget::Place(a, b) => RouteTarget::Place(*a, *b),
                    ast::RouteTarget::Stage(n) => match stage_names
                        .iter()
                        .position(|x| *x == n.text)
                    {
                        Some(p) => RouteTarget::Stage(super::idx(p)),
                        None => {
                            let mut d = Diagnostic::error(
                                "E0101",
                                format!("unknown stage `{}`", n.text),
                                n.span,
                            )
                            .with_label(format!("`{}` has no stage of this name", decl.name.text));
                            if let Some(h) = did_you_mean(&n.text, stage_names.iter().copied()) {
                                d = d.with_help(h);
                            }
                            self.diags.push(d);
                            continue;
                        }
                    },
                };
                routes.push(ir::Route { from, to });
            }
            if s.kind == ast::StageKind::Stage {
                for (group, from) in [
                    ("winners", RouteFrom::Winners),
                    ("losers", RouteFrom::Losers),
                ] {
                    if !routes.iter().any(|r| r.from == from) {
                        self.diags.push(
                            Diagnostic::error(
                                "E0404",
                                format!(
                                    "stage `{}` does not say where its {group} go",
                                    s.name.text
                                ),
                                s.name.span,
                            )
                            .with_help(format!(
                                "add `{group} -> STAGE`, `{group} -> out` or `{group} -> place N`"
                            )),
                        );
                    }
                }
            }
            stages.push(ir::Stage {
                name: s.name.text.clone(),
                title: s.title.clone(),
                qualification: s.kind == ast::StageKind::Qualification,
                source: source_info(&s.source),
                properties: props,
                routes,
                span: s.name.span,
            });
        }
        if let Some(c) = self.program.competitions.get_mut(index as usize) {
            c.properties = properties;
            c.stages = stages;
        }
        self.lowering_competition = None;
    }

    fn properties(&mut self, props: &[ast::Property]) -> Vec<(String, ir::Expr)> {
        let mut out: Vec<(String, ir::Expr)> = Vec::new();
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        for p in props {
            if let Some(first) = seen.insert(&p.key.text, p.key.span) {
                self.diags.push(
                    Diagnostic::error(
                        "E0102",
                        format!("`{}` is given twice", p.key.text),
                        p.key.span,
                    )
                    .with_note(first, "first given here"),
                );
                continue;
            }
            let Some((_, want)) = PROPERTIES.iter().find(|(k, _)| *k == p.key.text) else {
                let mut d = Diagnostic::error(
                    "E0105",
                    format!("unknown property `{}`", p.key.text),
                    p.key.span,
                );
                d = match did_you_mean(&p.key.text, PROPERTIES.iter().map(|(k, _)| *k)) {
                    Some(h) => d.with_help(h),
                    None => d.with_help(
                        "see docs/language.md for the properties of competitions and stages",
                    ),
                };
                self.diags.push(d);
                continue;
            };
            let mut scope = Scope::default();
            let value = match &p.value.kind {
                ast::ExprKind::Path(segs) => self.path(segs, p.value.span, &mut scope, true),
                _ => self.expr(&p.value, &mut scope),
            };
            let ok = match (want, &value.ty) {
                (_, Type::Error) => true,
                // `boards = 32` and `boards = 32 boards` say the same; a rule of one
                // parameter is applied to the number of teams when the stage is run.
                (Want::Number, Type::Num(_)) | (Want::Number | Want::AnyQuantity, Type::Rule) => {
                    true
                }
                (Want::Date, Type::Date)
                | (Want::DateTime, Type::DateTime)
                | (Want::Bool, Type::Bool) => true,
                (Want::AnyEnum | Want::EnumOrRule, Type::Enum(_))
                | (Want::Rule | Want::EnumOrRule, Type::Rule)
                | (Want::Text, Type::Text) => true,
                (Want::AnyQuantity, Type::Num(u)) => !u.is_none(),
                _ => false,
            };
            if !ok {
                let expected = match want {
                    Want::Number => "a number",
                    Want::Date => "a date",
                    Want::DateTime => "a date and time",
                    Want::Bool => "`true` or `false`",
                    Want::AnyEnum => "a variant of an enum",
                    Want::AnyQuantity => "a quantity with a unit",
                    Want::Rule => "the name of a scale or function",
                    Want::EnumOrRule => {
                        "a variant of an enum, or the name of a scale over positions 1, 2, …"
                    }
                    Want::Text => "a quoted text",
                };
                let found = self.program.type_name(&value.ty);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`{}` must be {expected}, found `{found}`", p.key.text),
                        p.value.span,
                    )
                    .with_label(format!("this is `{found}`")),
                );
            }
            out.push((p.key.text.clone(), value));
        }
        out
    }

    /// `competition.property`, `competition.stage.property`, `competition.stage.winners`.
    pub(crate) fn competition_path(
        &mut self,
        c: u32,
        first: &ast::Name,
        rest: &[ast::Name],
        span: Span,
    ) -> ir::Expr {
        let poison = || ir::Expr {
            kind: ExprKind::Lit(Value::Bool(false)),
            ty: Type::Error,
            span,
        };
        let Some(comp) = self.program.competitions.get(c as usize).cloned() else {
            return poison();
        };
        if self.lowering_competition == Some(c) {
            self.diags.push(
                Diagnostic::error(
                    "E0105",
                    format!(
                        "a property of `{}` cannot read `{}` itself",
                        first.text, first.text
                    ),
                    span,
                )
                .with_label("the competition is still being read here")
                .with_help("name the value in a `const` and use it in both places"),
            );
            return poison();
        }
        let Some(second) = rest.first() else {
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` is a competition, not a value", first.text),
                    span,
                )
                .with_help(format!(
                    "read one of its properties or stages: `{}.{}`",
                    first.text,
                    comp.stages.first().map_or("property", |s| s.name.as_str())
                )),
            );
            return poison();
        };
        if let Some((_, e)) = comp.properties.iter().find(|(k, _)| *k == second.text) {
            return ir::Expr { span, ..e.clone() };
        }
        let Some(stage) = comp.stages.iter().find(|s| s.name == second.text) else {
            let names: Vec<&str> = comp
                .stages
                .iter()
                .map(|s| s.name.as_str())
                .chain(comp.properties.iter().map(|(k, _)| k.as_str()))
                .collect();
            let mut d = Diagnostic::error(
                "E0105",
                format!("`{}` has no stage or property `{}`", comp.name, second.text),
                second.span,
            );
            if let Some(h) = did_you_mean(&second.text, names) {
                d = d.with_help(h);
            }
            self.diags.push(d);
            return poison();
        };
        let Some(third) = rest.get(1) else {
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` is a stage, not a value", second.text),
                    span,
                )
                .with_help(format!(
                    "read one of its properties: `{}.{}.boards`",
                    first.text, second.text
                )),
            );
            return poison();
        };
        if let Some((_, e)) = stage.properties.iter().find(|(k, _)| *k == third.text) {
            return ir::Expr { span, ..e.clone() };
        }
        let group = match third.text.as_str() {
            "winners" => Some(RouteFrom::Winners),
            "losers" => Some(RouteFrom::Losers),
            "rest" => Some(RouteFrom::Rest),
            _ => None,
        };
        if let Some(route) = group.and_then(|g| stage.routes.iter().find(|r| r.from == g)) {
            return ir::Expr {
                kind: ExprKind::Lit(Value::Route(route_words(&comp, &route.to))),
                ty: Type::Route,
                span,
            };
        }
        let names: Vec<&str> = stage
            .properties
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(["winners", "losers", "rest"])
            .collect();
        let mut d = Diagnostic::error(
            "E0105",
            format!("stage `{}` has no property `{}`", stage.name, third.text),
            third.span,
        );
        d = match did_you_mean(&third.text, names) {
            Some(h) => d.with_help(h),
            None => d.with_help(format!(
                "its properties are {}",
                super::expr::list(
                    &stage
                        .properties
                        .iter()
                        .map(|(k, _)| k.as_str())
                        .collect::<Vec<_>>()
                )
            )),
        };
        self.diags.push(d);
        poison()
    }
}

/// A route target in words: a stage name, `out`, `place 3`, `places 5–6`.
pub fn route_words(comp: &ir::Competition, to: &RouteTarget) -> String {
    match to {
        RouteTarget::Stage(i) => comp
            .stages
            .get(*i as usize)
            .map_or("?".into(), |s| s.name.clone()),
        RouteTarget::Out => "out".into(),
        RouteTarget::Place(a, b) if a == b => format!("place {a}"),
        RouteTarget::Place(a, b) => format!("places {a}–{b}"),
    }
}

fn number_prop(program: &Program, stage: &ir::Stage, key: &str) -> Option<Decimal> {
    let (_, e) = stage.properties.iter().find(|(k, _)| k == key)?;
    match Evaluator::new(program).eval_closed(e).ok()? {
        Value::Num(n, _) => Some(n),
        _ => None,
    }
}

/// When a stage starts: its day, and the index of its part of the day when the
/// part is an enum value (the edition declares the parts in time order).
fn start_of(program: &Program, stage: &ir::Stage) -> Option<(ir::Date, Option<(u32, u32)>)> {
    let day = date_prop(program, stage)?;
    let part = stage
        .properties
        .iter()
        .find(|(k, _)| k == "part")
        .and_then(
            |(_, e)| match Evaluator::new(program).eval_closed(e).ok()? {
                Value::Enum(en, v) => Some((en, v)),
                _ => None,
            },
        );
    Some((day, part))
}

/// `Mon 2015-07-27, DayPart.Morning`
fn when(program: &Program, day: ir::Date, part: Option<(u32, u32)>) -> String {
    match part {
        Some((e, v)) => format!("{day}, {}", Value::Enum(e, v).show(program)),
        None => day.to_string(),
    }
}

fn date_prop(program: &Program, stage: &ir::Stage) -> Option<ir::Date> {
    let (_, e) = stage
        .properties
        .iter()
        .find(|(k, _)| k == "day" || k == "first_day")?;
    match Evaluator::new(program).eval_closed(e).ok()? {
        Value::Date(d) => Some(d),
        _ => None,
    }
}

/// Routing as a graph: no cycles, team counts that add up, no stage fed by a
/// stage played after it.
pub(crate) fn check_routing(program: &Program, diags: &mut Diagnostics) {
    'competitions: for comp in &program.competitions {
        // Cycles.
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
        for start in 0..n {
            if let Some(cycle) = find_cycle(start, &edges, &mut state, &mut Vec::new()) {
                let names: Vec<String> = cycle
                    .iter()
                    .filter_map(|i| comp.stages.get(*i).map(|s| format!("`{}`", s.name)))
                    .collect();
                if let Some(s) = cycle.first().and_then(|i| comp.stages.get(*i)) {
                    diags.push(
                        Diagnostic::error(
                            "E0402",
                            format!("the routing of `{}` goes round in a circle", comp.name),
                            s.span,
                        )
                        .with_label(format!("{} → back here", names.join(" → ")))
                        .with_help("every route must lead on to a later stage, `out` or a place"),
                    );
                }
                // One cycle per competition; its team counts mean nothing.
                continue 'competitions;
            }
        }
        // Team counts.
        let teams: Vec<Option<Decimal>> = comp
            .stages
            .iter()
            .map(|s| number_prop(program, s, "teams"))
            .collect();
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
                let size = match r.from {
                    RouteFrom::Places(a, b) => Some(Decimal::from(b.saturating_sub(a) + 1)),
                    RouteFrom::Winners | RouteFrom::Losers => teams
                        .get(i)
                        .copied()
                        .flatten()
                        .and_then(|x| x.checked_div(Decimal::TWO)),
                    RouteFrom::Rest => None,
                };
                if let Some(slot) = inflow.get_mut(t) {
                    *slot = match (*slot, size) {
                        (Some(a), Some(b)) => a.checked_add(b),
                        _ => None,
                    };
                }
            }
            // Stages fed by a stage played later (same day: by the part of day).
            if let Some((day, part)) = start_of(program, s) {
                for r in &s.routes {
                    let RouteTarget::Stage(t) = r.to else {
                        continue;
                    };
                    let Some(target) = comp.stages.get(t as usize) else {
                        continue;
                    };
                    let Some((tday, tpart)) = start_of(program, target) else {
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
                                    when(program, tday, tpart),
                                    s.name,
                                    when(program, day, part)
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
        check_orders_and_places(program, comp, &teams, diags);
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
    program: &Program,
    comp: &ir::Competition,
    teams: &[Option<Decimal>],
    diags: &mut Diagnostics,
) {
    let mut orders: BTreeMap<Decimal, &ir::Stage> = BTreeMap::new();
    let mut finals: Vec<(u32, u32, &ir::Stage)> = Vec::new();
    for (i, s) in comp.stages.iter().enumerate() {
        if let Some(order) = number_prop(program, s, "order")
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
            let group = match r.from {
                RouteFrom::Winners | RouteFrom::Losers => teams
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|t| t.checked_div(Decimal::TWO)),
                RouteFrom::Places(x, y) => Some(Decimal::from(y.saturating_sub(x) + 1)),
                RouteFrom::Rest => None,
            };
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
}
