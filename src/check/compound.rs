//! Typing compound expressions: `match` over an enum's variants, and record
//! literals against their record type.

use super::Checker;
use super::expr::{Scope, list, mk, poison};
use super::names::{TypeName, did_you_mean};
use crate::diag::Diagnostic;
use crate::ir::{self, ExprKind, Type};
use crate::source::Span;
use crate::syntax::ast;

impl Checker {
    /// `match x { … }`: the scrutinee must be an enum; every arm names one of
    /// its variants once (or is `_`), no arm is unreachable, and the arms'
    /// values join into one type.
    pub(super) fn match_expr(
        &mut self,
        scrutinee: &ast::Expr,
        arms: &[(Option<Vec<ast::Name>>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let s = self.expr(scrutinee, scope);
        let info = self.scrutinee_enum(&s.ty, scrutinee.span);
        let mut out_arms = Vec::new();
        let mut covered = vec![false; info.as_ref().map_or(0, |i| i.variants.len())];
        let mut seen_wildcard = false;
        let mut ty: Option<Type> = None;
        for (pattern, value) in arms {
            let v = self.expr(value, scope);
            ty = Some(self.join_arm_type(ty, &v.ty, value.span));
            let pat_span = pattern_span(pattern.as_deref()).unwrap_or(value.span);
            if seen_wildcard {
                self.diags.push(
                    Diagnostic::error("E0303", "this arm can never be reached", pat_span)
                        .with_label("an earlier `_` arm takes every value")
                        .with_help("move it before the `_` arm, or remove it"),
                );
            }
            let variant = match (pattern, &info) {
                (None, _) => {
                    self.wildcard_arm(&covered, value.span);
                    seen_wildcard = true;
                    None
                }
                (Some(p), Some(info)) => self.variant_arm(p, info, &mut covered, pat_span),
                (Some(_), None) => None,
            };
            out_arms.push((variant, v));
        }
        if let Some(info) = &info
            && !seen_wildcard
        {
            self.missing_arms(info, &covered, span);
        }
        mk(
            ExprKind::Match(Box::new(s), out_arms),
            ty.unwrap_or(Type::Error),
            span,
        )
    }

    /// The enum a `match` is over; `None` (reported unless already an error)
    /// when the scrutinee is not an enum.
    fn scrutinee_enum(&mut self, ty: &Type, span: Span) -> Option<ir::EnumInfo> {
        match ty {
            Type::Enum(e) => self.program.enums.get(*e as usize).cloned(),
            Type::Error => None,
            other => {
                let t = self.program.type_name(other);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`match` needs an enum value, found `{t}`"),
                        span,
                    )
                    .with_help("use `if … then … else …` for other values"),
                );
                None
            }
        }
    }

    /// The type of the arms so far joined with one more arm's; on a mismatch
    /// the arms so far keep their type.
    fn join_arm_type(&mut self, so_far: Option<Type>, arm: &Type, span: Span) -> Type {
        match so_far {
            None => arm.clone(),
            Some(t) => match t.join(arm) {
                Some(joined) => joined,
                None => {
                    self.mismatch(&t, arm, span);
                    t
                }
            },
        }
    }

    /// A `_` arm after every variant already has one can never be reached.
    fn wildcard_arm(&mut self, covered: &[bool], span: Span) {
        if !covered.is_empty() && covered.iter().all(|c| *c) {
            self.diags.push(
                Diagnostic::error("E0303", "this `_` arm can never be reached", span)
                    .with_label("every variant already has an arm"),
            );
        }
    }

    /// The variant an arm's pattern (`V` or `Enum.V`) names, marked covered;
    /// `None` (reported) for a pattern that names no variant of `info`.
    fn variant_arm(
        &mut self,
        p: &[ast::Name],
        info: &ir::EnumInfo,
        covered: &mut [bool],
        pat_span: Span,
    ) -> Option<u32> {
        let qualifier_ok = match p {
            [_] => true,
            [q, _] => q.text == info.name,
            _ => false,
        };
        let l = match p.last() {
            Some(l) if qualifier_ok => l,
            _ => {
                self.diags.push(Diagnostic::error(
                    "E0104",
                    format!("this pattern is not a variant of `{}`", info.name),
                    pat_span,
                ));
                return None;
            }
        };
        let Some(pos) = info.variants.iter().position(|v| *v == l.text) else {
            self.unknown_variant(info, &l.text, l.span);
            return None;
        };
        if covered.get(pos).copied().unwrap_or(false) {
            self.diags.push(
                Diagnostic::error(
                    "E0303",
                    format!("`{}` already has an arm", l.text),
                    pat_span,
                )
                .with_label("this arm can never be reached"),
            );
        }
        if let Some(c) = covered.get_mut(pos) {
            *c = true;
        }
        Some(super::idx(pos))
    }

    /// Without a `_` arm, every variant needs an arm of its own.
    fn missing_arms(&mut self, info: &ir::EnumInfo, covered: &[bool], span: Span) {
        let missing: Vec<&str> = info
            .variants
            .iter()
            .zip(covered)
            .filter(|(_, c)| !**c)
            .map(|(v, _)| v.as_str())
            .collect();
        if !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    "E0304",
                    format!("`match` has no arm for {}", list(&missing)),
                    span,
                )
                .with_help("add the missing arms, or a `_ => value` arm"),
            );
        }
    }

    pub(super) fn record(
        &mut self,
        name: &ast::Name,
        fields: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let Some(TypeName::Record(r)) = self.names.types.get(&name.text).cloned() else {
            self.unknown_name(name, scope);
            return poison(span);
        };
        let Some(info) = self.program.records.get(r as usize).cloned() else {
            return poison(span);
        };
        let mut values: Vec<Option<ir::Expr>> = vec![None; info.fields.len()];
        for (f, v) in fields {
            match info.fields.iter().position(|(n, _)| *n == f.text) {
                Some(pos) => {
                    let want = info.fields.get(pos).map_or(Type::Error, |(_, t)| t.clone());
                    let x = self.expect(v, &want, scope);
                    if let Some(slot) = values.get_mut(pos) {
                        if slot.is_some() {
                            self.diags.push(Diagnostic::error(
                                "E0102",
                                format!("`{}` is given twice", f.text),
                                f.span,
                            ));
                        }
                        *slot = Some(x);
                    }
                }
                None => {
                    let mut d = Diagnostic::error(
                        "E0105",
                        format!("`{}` has no field `{}`", info.name, f.text),
                        f.span,
                    );
                    if let Some(h) =
                        did_you_mean(&f.text, info.fields.iter().map(|(n, _)| n.as_str()))
                    {
                        d = d.with_help(h);
                    }
                    self.diags.push(d);
                }
            }
        }
        let missing: Vec<&str> = info
            .fields
            .iter()
            .zip(&values)
            .filter(|(_, v)| v.is_none())
            .map(|((n, _), _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    "E0304",
                    format!("`{}` needs {}", info.name, list(&missing)),
                    span,
                )
                .with_help("give every field a value"),
            );
            return poison(span);
        }
        let values = values
            .into_iter()
            .map(|v| v.unwrap_or_else(|| poison(span)))
            .collect();
        mk(ExprKind::Record(r, values), Type::Record(r), span)
    }
}

/// From a pattern's first name to its last; `None` for `_`.
fn pattern_span(pattern: Option<&[ast::Name]>) -> Option<Span> {
    let p = pattern?;
    Some(p.first()?.span.to(p.last()?.span))
}
