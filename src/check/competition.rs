//! Competitions and their stages: properties with known meanings, and routing
//! of winners, losers and qualification places (checked as a graph in `routing`).

use super::declared::{Declared, DeclaredStage, Property, RouteFrom, RouteTarget};
use super::expr::Scope;
use super::names::did_you_mean;
use super::vocabulary::{self, Want};
use super::{Checker, source_info};
use crate::diag::Diagnostic;
use crate::ir::{self, ExprKind, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeMap;

impl Checker {
    pub(crate) fn lower_competition(&mut self, index: u32, decl: &ast::CompetitionDecl) {
        self.lowering_competition = Some(index);
        let properties = self.properties(
            &decl.properties,
            vocabulary::Scope::Competition,
            Some((&decl.name.text, decl.name.span)),
            &[],
        );
        let defaults = self.properties(&decl.stage_defaults, vocabulary::Scope::Stage, None, &[]);
        // A default stands for no stage until one takes it.
        for (_, written) in self
            .count_units
            .iter_mut()
            .filter(|((scope, _), _)| *scope == vocabulary::Scope::Stage)
        {
            for w in written {
                w.stands_for = 0;
            }
        }
        let mut stages: Vec<DeclaredStage> = Vec::new();
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
            let scope = match s.kind {
                ast::StageKind::Qualification => vocabulary::Scope::Qualification,
                ast::StageKind::Stage => vocabulary::Scope::Stage,
            };
            let defaults: &[Property] = match s.kind {
                ast::StageKind::Stage => &defaults,
                ast::StageKind::Qualification => &[],
            };
            let mut props = self.properties(
                &s.properties,
                scope,
                Some((&s.name.text, s.name.span)),
                defaults,
            );
            // A stage takes every default it does not set itself.
            let own: Vec<String> = props.iter().map(|p| p.key.clone()).collect();
            let taken = defaults.iter().filter(|d| !own.contains(&d.key));
            if scope == vocabulary::Scope::Stage {
                for d in taken.clone() {
                    self.count_taken_from_defaults(&d.key);
                }
            }
            props.extend(taken.cloned());
            let routes = self.stage_routes((index, &decl.name.text), stages.len(), s, &stage_names);
            stages.push(DeclaredStage {
                name: s.name.text.clone(),
                title: s.title.clone(),
                qualification: s.kind == ast::StageKind::Qualification,
                source: source_info(&s.source),
                properties: props,
                routes,
                span: s.name.span,
            });
        }
        if let Some(c) = self.declared.get_mut(index as usize) {
            c.properties = properties;
            c.stages = stages;
        }
        self.counts_written_two_ways();
        self.lowering_competition = None;
    }

    fn properties(
        &mut self,
        props: &[ast::Property],
        scope: vocabulary::Scope,
        block: Option<(&str, Span)>,
        defaults: &[Property],
    ) -> Vec<Property> {
        let mut out: Vec<Property> = Vec::new();
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        let mut unknown: Vec<&str> = Vec::new();
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
            let Some(def) = vocabulary::property(&p.key.text, scope) else {
                self.diags.push(unknown_property(&p.key, scope));
                unknown.push(&p.key.text);
                continue;
            };
            let value = self.property_value(p, def.want, scope);
            out.push(Property {
                key: p.key.text.clone(),
                value,
            });
        }
        // Defaults are checked once, apart; the stages that take them say what they need.
        if let Some(block) = block {
            self.missing_required(block, scope, (&out, defaults), &unknown);
        }
        out
    }

    /// A property's value, typed, and E0201 when it is not what the vocabulary
    /// wants (or a count written another way than its siblings).
    fn property_value(
        &mut self,
        p: &ast::Property,
        want: Want,
        scope: vocabulary::Scope,
    ) -> ir::Expr {
        let mut locals = Scope::default();
        let value = match &p.value.kind {
            ast::ExprKind::Path(segs) => self.path(segs, p.value.span, &mut locals, true),
            _ => self.expr(&p.value, &mut locals),
        };
        if !fits(want, &value.ty) {
            let found = self.program.type_name(&value.ty);
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` must be {}, found `{found}`", p.key.text, want.words()),
                    p.value.span,
                )
                .with_label(format!("this is `{found}`")),
            );
        } else if matches!(want, Want::Count | Want::Whole)
            && let Type::Num(unit) = &value.ty
        {
            self.count_written_one_way(&p.key.text, unit, (scope, p.value.span));
        }
        value
    }

    /// E0409 for each property block `name` (at `at`) must give and does not,
    /// itself or by the `defaults`; a key `unknown` that looks misspelt for it
    /// already has its error.
    fn missing_required(
        &mut self,
        (name, at): (&str, Span),
        scope: vocabulary::Scope,
        (out, defaults): (&[Property], &[Property]),
        unknown: &[&str],
    ) {
        let given: Vec<&str> = out
            .iter()
            .map(|p| p.key.as_str())
            .chain(defaults.iter().map(|p| p.key.as_str()))
            .collect();
        for def in vocabulary::PROPERTIES {
            // A misspelt key already has its "did you mean"; one mistake, one error.
            let misspelt = unknown.iter().any(|k| did_you_mean(k, [def.key]).is_some());
            if def.required && def.scopes.contains(&scope) && !given.contains(&def.key) && !misspelt
            {
                self.diags.push(
                    Diagnostic::error("E0409", format!("`{name}` does not say `{}`", def.key), at)
                        .with_label(format!(
                            "{} must give `{}`: {}",
                            scope.words(),
                            def.key,
                            def.want.words()
                        ))
                        .with_help(format!("add `{} = …`", def.key)),
                );
            }
        }
    }

    /// `competition.property`, `competition.stage.property`, `competition.stage.winners`.
    pub(crate) fn competition_path(
        &mut self,
        c: u32,
        first: &ast::Name,
        rest: &[ast::Name],
        span: Span,
    ) -> ir::Expr {
        let Some(comp) = self.declared.get(c as usize).cloned() else {
            return poison(span);
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
            return poison(span);
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
            return poison(span);
        };
        if let Some(p) = Property::find(&comp.properties, &second.text) {
            return ir::Expr {
                span,
                ..p.value.clone()
            };
        }
        let Some(stage_index) = comp.stages.iter().position(|s| s.name == second.text) else {
            self.diags.push(no_stage_or_property(&comp, second));
            return poison(span);
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
            return poison(span);
        };
        let path = [first, second, third];
        self.stage_member(c, &comp, stage_index, path, span)
    }

    /// `competition.stage.member`, once the competition and stage are known:
    /// a property of the stage, or where its winners, losers or rest go.
    fn stage_member(
        &mut self,
        c: u32,
        comp: &Declared,
        stage_index: usize,
        [first, second, third]: [&ast::Name; 3],
        span: Span,
    ) -> ir::Expr {
        let Some(stage) = comp.stages.get(stage_index) else {
            return poison(span);
        };
        if let Some(p) = Property::find(&stage.properties, &third.text) {
            return ir::Expr {
                span,
                ..p.value.clone()
            };
        }
        let group = match third.text.as_str() {
            "winners" => Some(RouteFrom::Winners),
            "losers" => Some(RouteFrom::Losers),
            "rest" => Some(RouteFrom::Rest),
            _ => None,
        };
        let found = group.and_then(|g| stage.routes.iter().position(|r| r.from == g));
        let Some((at, route)) = found.and_then(|i| Some((i, stage.routes.get(i)?))) else {
            self.diags.push(no_stage_property(stage, third));
            return poison(span);
        };
        if self.target_pending(c, stage_index, at) {
            self.diags.push(
                Diagnostic::error(
                    "E0412",
                    format!(
                        "`{}.{}.{}` goes to places computed from consts, which an expression cannot read",
                        first.text, second.text, third.text
                    ),
                    span,
                )
                .with_help("read the consts the route names instead"),
            );
            return poison(span);
        }
        ir::Expr {
            kind: ExprKind::Lit(Value::Route(route_words(comp, &route.to))),
            ty: Type::Route,
            span,
        }
    }
}

/// The placeholder for a path that could not be read; its error is already reported.
fn poison(span: Span) -> ir::Expr {
    ir::Expr {
        kind: ExprKind::Lit(Value::Bool(false)),
        ty: Type::Error,
        span,
    }
}

/// `competition.name` where `name` is neither a stage nor a property of it.
fn no_stage_or_property(comp: &Declared, second: &ast::Name) -> Diagnostic {
    let names: Vec<&str> = comp
        .stages
        .iter()
        .map(|s| s.name.as_str())
        .chain(comp.properties.iter().map(|p| p.key.as_str()))
        .collect();
    let d = Diagnostic::error(
        "E0105",
        format!("`{}` has no stage or property `{}`", comp.name, second.text),
        second.span,
    );
    match did_you_mean(&second.text, names) {
        Some(h) => d.with_help(h),
        None => d,
    }
}

/// `competition.stage.name` where `name` is neither a property of the stage
/// nor one of its routed groups.
fn no_stage_property(stage: &DeclaredStage, third: &ast::Name) -> Diagnostic {
    let names: Vec<&str> = stage
        .properties
        .iter()
        .map(|p| p.key.as_str())
        .chain(["winners", "losers", "rest"])
        .collect();
    let d = Diagnostic::error(
        "E0105",
        format!("stage `{}` has no property `{}`", stage.name, third.text),
        third.span,
    );
    match did_you_mean(&third.text, names) {
        Some(h) => d.with_help(h),
        None => d.with_help(format!(
            "its properties are {}",
            super::expr::list(
                &stage
                    .properties
                    .iter()
                    .map(|p| p.key.as_str())
                    .collect::<Vec<_>>()
            )
        )),
    }
}

/// A route target in words: a stage name, `out`, `place 3`, `places 5–6`.
pub(crate) fn route_words(comp: &Declared, to: &RouteTarget) -> String {
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

impl Checker {
    /// Notes the unit count property `key` is written in, for
    /// [`Self::counts_written_two_ways`], as standing for one stage.
    fn count_written_one_way(
        &mut self,
        key: &str,
        unit: &ir::Unit,
        (scope, at): (vocabulary::Scope, Span),
    ) {
        let slot = (scope, key.to_string());
        self.count_units
            .entry(slot)
            .or_default()
            .push(CountWritten {
                unit: unit.clone(),
                at,
                stands_for: 1,
            });
    }

    /// A stage takes count property `key` from the competition's `stages`
    /// defaults: the defaults' unit is written once more (it is the first
    /// place noted, the defaults being read before the stages).
    fn count_taken_from_defaults(&mut self, key: &str) {
        let slot = (vocabulary::Scope::Stage, key.to_string());
        if let Some(first) = self.count_units.get_mut(&slot).and_then(|w| w.first_mut()) {
            first.stands_for += 1;
        }
    }

    /// E0201 at each count property written in another unit than the way most
    /// of the competition's knockout stages write it, defaults counted for each
    /// stage that takes them (the way first given where two ways are as
    /// common): `boards = 32` there, `boards = 32 board` here. A stage written
    /// apart from its siblings is a slip, and an example comparing them
    /// (`cup.final.boards == cup.semi.boards * 2`) would not type. The
    /// qualification, and another competition, may count their own way.
    fn counts_written_two_ways(&mut self) {
        for ((_, key), written) in std::mem::take(&mut self.count_units) {
            let weighed: Vec<(&ir::Unit, usize)> = written
                .iter()
                .map(|w| (&w.unit, w.stands_for.max(1)))
                .collect();
            let Some(most) = super::most_common(&weighed) else {
                continue;
            };
            let Some(way) = written.get(most.first) else {
                continue;
            };
            let words = |u: &ir::Unit| {
                if u.is_none() {
                    "a bare number".to_string()
                } else {
                    format!("in `{u}`")
                }
            };
            let stages: usize = weighed.iter().map(|(_, n)| n).sum();
            let (there, as_there) = if most.tied || most.count == 1 {
                (
                    format!("{} where first given", words(&way.unit)),
                    "as where it was first given",
                )
            } else {
                (
                    format!(
                        "{} in {} of the {stages} stages",
                        words(&way.unit),
                        most.count
                    ),
                    "as most stages do",
                )
            };
            for w in written.iter().filter(|w| w.unit != way.unit) {
                let d = Diagnostic::error(
                    "E0201",
                    format!(
                        "`{key}` is {} here, but {there}: a property is written the same way in every knockout stage of a competition",
                        words(&w.unit),
                    ),
                    w.at,
                )
                .with_label(format!("this is {}", words(&w.unit)))
                .with_note(way.at, format!("{} here", words(&way.unit)))
                .with_help(if way.unit.is_none() {
                    format!("leave out the unit: write a bare number, {as_there}")
                } else {
                    format!("write it in `{}`, {as_there}", way.unit)
                });
                self.diags.push(d);
            }
        }
    }
}

/// Where a count property is written, in which unit, and how many stages it
/// stands for (a default: each stage that takes it).
pub(crate) struct CountWritten {
    unit: ir::Unit,
    at: Span,
    stands_for: usize,
}

/// Whether a value of type `ty` can be what `want` asks for; the figures and
/// names themselves are checked when the competition is typed.
fn fits(want: Want, ty: &Type) -> bool {
    match (want, ty) {
        (_, Type::Error) => true,
        (Want::Count, Type::Num(_) | Type::Rule) | (Want::Whole, Type::Num(_)) => true,
        (Want::Date, Type::Date) | (Want::Bool, Type::Bool) => true,
        (Want::AnyEnum | Want::Meaning(_), Type::Enum(_)) => true,
        (Want::Quantity, Type::Num(u)) => !u.is_none(),
        (Want::Rule | Want::MeaningOrRule(_), Type::Rule) => true,
        (Want::Criteria | Want::MeaningOrRule(_), Type::Enum(_)) => true,
        (Want::Criteria, Type::List(element)) => matches!(**element, Type::Enum(_) | Type::Error),
        _ => false,
    }
}

/// The help for a day written under the key of another kind of block: the key
/// this block dates itself with.
fn dated_elsewhere(key: &str, scope: vocabulary::Scope) -> Option<String> {
    use vocabulary::Scope;
    match (key, scope) {
        ("day", Scope::Competition) => Some(
            "a competition's days are `first_day` and `last_day`; `day` dates a knockout stage"
                .into(),
        ),
        ("day", Scope::Qualification) => Some(
            "a qualification's days are `first_day` and `last_day`; `day` dates a knockout stage"
                .into(),
        ),
        ("first_day" | "last_day", Scope::Stage) => Some(
            "a knockout stage is played on one `day` (`day = Mon 2015-07-27`); `first_day` and `last_day` date a competition or a qualification".into(),
        ),
        _ => None,
    }
}

/// An unknown key, or a key of another kind of block.
fn unknown_property(key: &ast::Name, scope: vocabulary::Scope) -> Diagnostic {
    let elsewhere: Vec<&str> = vocabulary::scopes_of(&key.text)
        .iter()
        .map(|s| s.words())
        .collect();
    if !elsewhere.is_empty() {
        let other = elsewhere.join(" or ");
        return Diagnostic::error(
            "E0105",
            format!(
                "`{}` is a property of {other}, not of {}",
                key.text,
                scope.words()
            ),
            key.span,
        )
        .with_help(
            dated_elsewhere(&key.text, scope)
                .unwrap_or_else(|| format!("move it to {other}, or remove it")),
        );
    }
    let d = Diagnostic::error(
        "E0105",
        format!("unknown property `{}`", key.text),
        key.span,
    );
    match did_you_mean(&key.text, vocabulary::keys_in(scope)) {
        Some(h) => d.with_help(h),
        None => d.with_help(format!(
            "see docs/language.md for the properties of {}",
            scope.words()
        )),
    }
}
