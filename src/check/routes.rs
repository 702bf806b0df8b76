//! A stage's routes as written → declared routes. The place numbers of
//! `places A..B` and `place A..B` are expressions: whole numbers, consts, or
//! arithmetic on them (`places cc_places + 1 place .. cc_places + bc_places`), so a
//! figure the edition states once moves every route that uses it. A route whose
//! bounds are all literals is settled while it is read; one that names a const is
//! computed once every rule is checked ([`Checker::resolve_places`]), before the
//! routing is checked as a graph.

use super::Checker;
use super::compute::Computer;
use super::declared::{Route, RouteFrom, RouteTarget};
use super::expr::Scope;
use super::names::{TypeName, did_you_mean};
use crate::diag::Diagnostic;
use crate::ir::{self, ExprKind, Program, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;

/// A route whose place numbers are computed later: where it is, and its bounds.
#[derive(Debug, Clone)]
pub(crate) struct PendingPlaces {
    /// The competition, the stage and the route (indices into `Checker::declared`).
    comp: u32,
    stage: usize,
    route: usize,
    /// `places A..B` of a qualification.
    from: Option<(ir::Expr, ir::Expr)>,
    /// `place A..B` as the target.
    to: Option<(ir::Expr, ir::Expr)>,
    /// The whole route.
    span: Span,
}

/// The group side of a route, the target side, and both sides' bounds.
type Sides = (RouteFrom, Option<(ir::Expr, ir::Expr)>);

impl Checker {
    /// The routes of stage `stage` (`s`) of competition `comp`, in order; a knockout
    /// stage must route both its winners and its losers.
    pub(crate) fn stage_routes(
        &mut self,
        (comp, comp_name): (u32, &str),
        stage: usize,
        s: &ast::StageDecl,
        stage_names: &[&str],
    ) -> Vec<Route> {
        let mut routes = Vec::new();
        let mut groups: BTreeMap<&str, Span> = BTreeMap::new();
        for r in &s.routes {
            let Some((from, from_bounds)) = self.route_from(r, s.kind) else {
                continue;
            };
            if let ast::RouteFrom::Group(g) = &r.from
                && let Some(first) = groups.insert(&g.text, r.span)
            {
                // Places routed twice are overlapping places (E0405), found once
                // their numbers are known.
                self.diags.push(
                    Diagnostic::error("E0102", "this group is routed twice", r.span)
                        .with_note(first, "first routed here"),
                );
            }
            let Some((to, to_bounds)) = self.route_target(&r.to, comp_name, stage_names) else {
                continue;
            };
            let mut route = Route { from, to };
            if self.settle_now(&mut route, &from_bounds, &to_bounds, r.span) {
                routes.push(route);
                continue;
            }
            self.pending_places.push(PendingPlaces {
                comp,
                stage,
                route: routes.len(),
                from: from_bounds,
                to: to_bounds,
                span: r.span,
            });
            routes.push(route);
        }
        if s.kind == ast::StageKind::Stage {
            for (group, from) in [
                ("winners", RouteFrom::Winners),
                ("losers", RouteFrom::Losers),
            ] {
                // A route written with a target that failed was reported there.
                let written = s
                    .routes
                    .iter()
                    .any(|r| matches!(&r.from, ast::RouteFrom::Group(g) if g.text == group));
                if !written && !routes.iter().any(|r| r.from == from) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0404",
                            format!("stage `{}` does not say where its {group} go", s.name.text),
                            s.name.span,
                        )
                        .with_help(format!(
                            "add `{group} -> STAGE`, `{group} -> out` or `{group} -> place N`"
                        )),
                    );
                }
            }
        }
        routes
    }

    /// Who a route moves; `places A..B` with its bounds checked, still to compute.
    fn route_from(&mut self, r: &ast::Route, kind: ast::StageKind) -> Option<Sides> {
        let group = match (&r.from, kind) {
            (ast::RouteFrom::Places(a, b), ast::StageKind::Qualification) => {
                let bounds = (self.place_bound(a), self.place_bound(b));
                return Some((RouteFrom::Places(0, 0), Some(bounds)));
            }
            (ast::RouteFrom::Places(..), ast::StageKind::Stage) => {
                self.diags.push(
                    Diagnostic::error("E0105", "only a qualification routes places", r.span)
                        .with_help("route `winners` and `losers` of a knockout stage"),
                );
                return None;
            }
            (ast::RouteFrom::Group(g), _) => g,
        };
        match (group.text.as_str(), kind) {
            ("winners", ast::StageKind::Stage) => return Some((RouteFrom::Winners, None)),
            ("losers", ast::StageKind::Stage) => return Some((RouteFrom::Losers, None)),
            ("rest", ast::StageKind::Qualification) => return Some((RouteFrom::Rest, None)),
            _ => {}
        }
        let known: &[&str] = match kind {
            ast::StageKind::Stage => &["winners", "losers"],
            ast::StageKind::Qualification => &["places A..B", "rest"],
        };
        let mut d = Diagnostic::error(
            "E0105",
            format!("`{}` is not a group this stage can route", group.text),
            group.span,
        )
        .with_help(format!("route {}", known.join(" or ")));
        if let Some(h) = did_you_mean(&group.text, known.iter().copied()) {
            d = d.with_help(h);
        }
        self.diags.push(d);
        None
    }

    /// Where a route goes; `place A..B` with its bounds checked, still to compute.
    fn route_target(
        &mut self,
        to: &ast::RouteTarget,
        comp_name: &str,
        stage_names: &[&str],
    ) -> Option<(RouteTarget, Option<(ir::Expr, ir::Expr)>)> {
        match to {
            ast::RouteTarget::Out => Some((RouteTarget::Out, None)),
            ast::RouteTarget::Place(a, b) => {
                let bounds = (self.place_bound(a), self.place_bound(b));
                Some((RouteTarget::Place(0, 0), Some(bounds)))
            }
            ast::RouteTarget::Stage(n) => {
                if let Some(p) = stage_names.iter().position(|x| *x == n.text) {
                    return Some((RouteTarget::Stage(super::idx(p)), None));
                }
                let mut d =
                    Diagnostic::error("E0101", format!("unknown stage `{}`", n.text), n.span)
                        .with_label(format!("`{comp_name}` has no stage of this name"));
                if let Some(h) = did_you_mean(&n.text, stage_names.iter().copied()) {
                    d = d.with_help(h);
                }
                self.diags.push(d);
                None
            }
        }
    }

    /// A place number as written, checked as an expression: a number, or a quantity
    /// of a unit that counts whole things (`32 places`). A wrong type is reported
    /// here and the bound becomes an error, which is not computed again.
    fn place_bound(&mut self, e: &ast::Expr) -> ir::Expr {
        let mut bound = self.expr(e, &mut Scope::default());
        let counts = match &bound.ty {
            Type::Error => true,
            Type::Num(u) => {
                u.is_none()
                    || u.as_base().is_some_and(|b| {
                        matches!(
                            self.names.types.get(b),
                            Some(TypeName::Unit { whole: true, .. })
                        )
                    })
            }
            _ => false,
        };
        if !counts {
            let found = self.program.type_name(&bound.ty);
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("a place number must count whole things, found `{found}`"),
                    bound.span,
                )
                .with_label(format!("this is `{found}`"))
                .with_help(
                    "give a whole number, or a quantity of a `whole` unit such as `32 places`",
                ),
            );
            bound.ty = Type::Error;
        }
        bound
    }

    /// Settles a route whose bounds are all literals (or already wrong); returns
    /// false for one that must wait until its consts can be computed.
    fn settle_now(
        &mut self,
        route: &mut Route,
        from: &Option<(ir::Expr, ir::Expr)>,
        to: &Option<(ir::Expr, ir::Expr)>,
        span: Span,
    ) -> bool {
        let literal = |e: &ir::Expr| matches!(e.kind, ExprKind::Lit(_)) || e.ty == Type::Error;
        let all = from
            .iter()
            .chain(to.iter())
            .all(|(a, b)| literal(a) && literal(b));
        if all {
            let at = (&self.program, &self.computer);
            settle(at, route, (from, to), span, &mut self.diags);
        }
        all
    }

    /// Computes the place numbers that name consts, now that every rule is checked;
    /// reports those that cannot be computed or are not whole numbers from 1
    /// (E0412), and empty ranges (E0306). A failure is not reported when the
    /// edition has errors already: it may be one of them seen again. Returns
    /// whether every route was settled.
    pub(crate) fn resolve_places(&mut self) -> bool {
        let quiet = self.diags.has_errors();
        let mut settled = true;
        for p in std::mem::take(&mut self.pending_places) {
            let mut diags = crate::diag::Diagnostics::default();
            let Some(route) = self
                .declared
                .get_mut(p.comp as usize)
                .and_then(|c| c.stages.get_mut(p.stage))
                .and_then(|s| s.routes.get_mut(p.route))
            else {
                continue;
            };
            settle(
                (&self.program, &self.computer),
                route,
                (&p.from, &p.to),
                p.span,
                &mut diags,
            );
            // A place number refused by the check's steps leaves the route unsettled.
            settled &= !diags.has_errors() && !self.computer.refused_any();
            if !quiet {
                self.diags.extend(diags);
            }
        }
        settled
    }

    /// Whether route `route` of stage `stage` of competition `comp` goes to places
    /// not yet computed.
    pub(crate) fn target_pending(&self, comp: u32, stage: usize, route: usize) -> bool {
        self.pending_places
            .iter()
            .any(|p| p.comp == comp && p.stage == stage && p.route == route && p.to.is_some())
    }
}

/// Both ends of a range of places, as written.
type Ends = (ir::Expr, ir::Expr);

/// Computes a route's place numbers into it. A bound that fails leaves the
/// route as it is, with a diagnostic.
fn settle(
    at: (&Program, &Computer),
    route: &mut Route,
    (from, to): (&Option<Ends>, &Option<Ends>),
    span: Span,
    diags: &mut crate::diag::Diagnostics,
) {
    if let Some((a, b)) = from
        && let Some((a, b)) = range(at, (a, b), false, span, diags)
    {
        route.from = RouteFrom::Places(a, b);
    }
    if let Some((a, b)) = to
        && let Some((a, b)) = range(at, (a, b), true, span, diags)
    {
        route.to = RouteTarget::Place(a, b);
    }
}

/// Both ends of a range (`places A..B`, or the `place A..B` a route goes to),
/// computed; an empty range is E0306.
fn range(
    at: (&Program, &Computer),
    (a, b): (&ir::Expr, &ir::Expr),
    target: bool,
    span: Span,
    diags: &mut crate::diag::Diagnostics,
) -> Option<(u32, u32)> {
    let lo = place_number(at, a, diags);
    let hi = place_number(at, b, diags);
    let (lo, hi) = (lo?, hi?);
    if lo > hi {
        diags.push(
            Diagnostic::error(
                "E0306",
                if target {
                    format!("place {lo}..{hi} contains no place")
                } else {
                    format!("places {lo}..{hi} contain no place")
                },
                span,
            )
            .with_help("write the better place first"),
        );
        return None;
    }
    Some((lo, hi))
}

/// One place number, computed: a whole number from 1 (E0412 otherwise). A bound
/// of the wrong type was reported when it was read.
fn place_number(
    (program, computer): (&Program, &Computer),
    e: &ir::Expr,
    diags: &mut crate::diag::Diagnostics,
) -> Option<u32> {
    if e.ty == Type::Error {
        return None;
    }
    // No room left in the check's steps: said once, by the check.
    let problem = match computer.value(program, e)? {
        Err(err) if super::reported_at_its_const(program, &err) => return None,
        Err(err) => format!("this place number cannot be computed: {}", err.message),
        Ok(Value::Num(n, unit)) => {
            let shown = Value::Num(n, unit).show(program);
            if !n.fract().is_zero() {
                format!("a place number must be whole, and this one is {shown}")
            } else if n < Decimal::ONE {
                format!("places are numbered from 1, and this one is {shown}")
            } else if let Some(v) = n.to_u32() {
                return Some(v);
            } else {
                format!("{shown} is too large a place number")
            }
        }
        Ok(v) => format!("this place number is {}, not a number", v.show(program)),
    };
    diags.push(
        Diagnostic::error("E0412", problem, e.span)
            .with_help("give a whole number from 1, a const, or arithmetic on them"),
    );
    None
}
