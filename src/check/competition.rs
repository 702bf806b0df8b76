//! Competitions and their stages: properties with known meanings, and routing
//! of winners, losers and qualification places (checked as a graph in `routing`).

use super::expr::Scope;
use super::names::did_you_mean;
use super::{Checker, source_info};
use crate::diag::Diagnostic;
use crate::ir::{self, ExprKind, RouteFrom, RouteTarget, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
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
