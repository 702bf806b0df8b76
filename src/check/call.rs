//! Typing calls: a rule called with positional or named arguments, and the
//! builtins with their arities and argument types.

use super::Checker;
use super::expr::{Scope, arguments, mk, poison};
use super::names::{ValueName, did_you_mean};
use crate::diag::Diagnostic;
use crate::ir::{self, Builtin, ExprKind, ListLoop, Type};
use crate::source::Span;
use crate::syntax::ast;

impl Checker {
    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let ast::ExprKind::Path(segments) = &callee.kind else {
            self.diags.push(Diagnostic::error(
                "E0204",
                "only rules and built-ins can be called",
                callee.span,
            ));
            return poison(span);
        };
        let [name] = segments.as_slice() else {
            self.diags.push(
                Diagnostic::error("E0204", "this cannot be called", callee.span)
                    .with_help("call a rule by its name: `rule_name(arguments)`"),
            );
            return poison(span);
        };
        if scope.get(&name.text).is_none()
            && let Some(b) = Builtin::named(&name.text)
        {
            return self.builtin(b, name, args, span, scope);
        }
        if scope.get(&name.text).is_none()
            && let Some(op) = ListLoop::named(&name.text)
        {
            return self.list_loop(op, args, span, scope);
        }
        let Some(ValueName::Rule(i)) = self.names.values.get(&name.text).copied() else {
            if scope.get(&name.text).is_some() || self.names.values.contains_key(&name.text) {
                self.diags.push(Diagnostic::error(
                    "E0204",
                    format!("`{}` is not a rule and cannot be called", name.text),
                    name.span,
                ));
            } else {
                let rules: Vec<&str> = self
                    .names
                    .values
                    .keys()
                    .map(String::as_str)
                    .chain(Builtin::ALL.iter().map(|(n, _)| *n))
                    .chain(ListLoop::ALL.iter().map(|(n, _)| *n))
                    .collect();
                let mut d =
                    Diagnostic::error("E0101", format!("unknown rule `{}`", name.text), name.span)
                        .with_label("not defined in this edition");
                if let Some(h) = did_you_mean(&name.text, rules) {
                    d = d.with_help(h);
                }
                self.diags.push(d);
            }
            for (_, a) in args {
                self.expr(a, scope);
            }
            return poison(span);
        };
        let Some(rule) = self.program.rules.get(i as usize).cloned() else {
            return poison(span);
        };
        let signature = format!(
            "{}({})",
            rule.name,
            rule.params
                .iter()
                .map(|(n, t)| format!("{n}: {}", self.program.type_name(t)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if args.len() != rule.params.len() {
            self.diags.push(
                Diagnostic::error(
                    "E0203",
                    format!(
                        "`{}` takes {} but was given {}",
                        rule.name,
                        arguments(rule.params.len()),
                        args.len()
                    ),
                    span,
                )
                .with_label(format!("{} given here", arguments(args.len())))
                .with_help(format!("call it as `{signature}`")),
            );
            for (_, a) in args {
                self.expr(a, scope);
            }
            return poison(span);
        }
        // Named arguments may come in any order; positional ones fill in order.
        let mut slots: Vec<Option<ir::Expr>> = vec![None; rule.params.len()];
        for (pos, (label, a)) in args.iter().enumerate() {
            let target = match label {
                Some(l) => match rule.params.iter().position(|(n, _)| *n == l.text) {
                    Some(p) => p,
                    None => {
                        let mut d = Diagnostic::error(
                            "E0203",
                            format!("`{}` has no parameter `{}`", rule.name, l.text),
                            l.span,
                        );
                        d = match did_you_mean(&l.text, rule.params.iter().map(|(n, _)| n.as_str()))
                        {
                            Some(h) => d.with_help(h),
                            None => d.with_help(format!("call it as `{signature}`")),
                        };
                        self.diags.push(d);
                        self.expr(a, scope);
                        continue;
                    }
                },
                None => pos,
            };
            let want = rule
                .params
                .get(target)
                .map_or(Type::Error, |(_, t)| t.clone());
            let v = self.expect(a, &want, scope);
            match slots.get_mut(target) {
                Some(slot @ None) => *slot = Some(v),
                _ => self.diags.push(Diagnostic::error(
                    "E0203",
                    "this parameter is given twice",
                    a.span,
                )),
            }
        }
        let args: Vec<ir::Expr> = slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| poison(span)))
            .collect();
        mk(ExprKind::Call(i, args), rule.ret.clone(), span)
    }

    fn builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        if b.is_list_builtin() || (matches!(b, Builtin::Min | Builtin::Max) && args.len() == 1) {
            return self.list_builtin(b, name, args, span, scope);
        }
        let xs: Vec<ir::Expr> = args.iter().map(|(_, a)| self.expr(a, scope)).collect();
        let arity_ok = match b {
            Builtin::Min | Builtin::Max => xs.len() >= 2,
            Builtin::Round => xs.len() == 1 || xs.len() == 2,
            Builtin::Pow | Builtin::Mod | Builtin::At => xs.len() == 2,
            _ => xs.len() == 1,
        };
        if !arity_ok {
            self.diags.push(
                Diagnostic::error(
                    "E0203",
                    format!("`{}` was given {}", name.text, arguments(xs.len())),
                    span,
                )
                .with_help(builtin_usage(b)),
            );
            return poison(span);
        }
        let first = xs.first().map_or(Type::Error, |x| x.ty.clone());
        let number = Type::number();
        let want_all = |c: &mut Checker, xs: &[ir::Expr], want: &Type| {
            for x in xs {
                if !x.ty.fits(want) {
                    c.mismatch(want, &x.ty, x.span);
                }
            }
        };
        let ty = match b {
            Builtin::Min | Builtin::Max => {
                let ordered = matches!(
                    first,
                    Type::Num(_)
                        | Type::Duration
                        | Type::Date
                        | Type::Time
                        | Type::DateTime
                        | Type::Error
                ) || (b == Builtin::Max && matches!(first, Type::Penalty(_)));
                if !ordered {
                    self.diags.push(
                        Diagnostic::error(
                            "E0201",
                            format!("`{}` has no order", self.program.type_name(&first)),
                            span,
                        )
                        .with_help(builtin_usage(b)),
                    );
                }
                want_all(self, xs.get(1..).unwrap_or(&[]), &first);
                first
            }
            Builtin::Ceil | Builtin::Floor | Builtin::Abs => {
                if !matches!(first, Type::Num(_) | Type::Error) {
                    self.mismatch(&number, &first, span);
                }
                first
            }
            Builtin::Round => {
                if !matches!(first, Type::Num(_) | Type::Error) {
                    self.mismatch(&number, &first, span);
                }
                want_all(self, xs.get(1..).unwrap_or(&[]), &number);
                first
            }
            Builtin::Sqrt | Builtin::Pow => {
                want_all(self, &xs, &number);
                number
            }
            Builtin::Mod => {
                want_all(self, xs.get(1..).unwrap_or(&[]), &first);
                first
            }
            Builtin::IsReferral => {
                want_all(self, &xs, &Type::Penalty(None));
                Type::Bool
            }
            Builtin::Year => {
                if !matches!(first, Type::Date | Type::DateTime | Type::Error) {
                    self.mismatch(&Type::Date, &first, span);
                }
                number
            }
            Builtin::At => {
                if let [d, t] = xs.as_slice() {
                    if !d.ty.fits(&Type::Date) {
                        self.mismatch(&Type::Date, &d.ty, d.span);
                    }
                    if !t.ty.fits(&Type::Time) {
                        self.mismatch(&Type::Time, &t.ty, t.span);
                    }
                }
                Type::DateTime
            }
            Builtin::DateOf => {
                want_all(self, &xs, &Type::DateTime);
                Type::Date
            }
            // Typed by `list_builtin` before this match is reached.
            Builtin::Len | Builtin::Sum | Builtin::Contains | Builtin::Concat | Builtin::Range => {
                Type::Error
            }
        };
        mk(ExprKind::Builtin(b, xs), ty, span)
    }
}

fn builtin_usage(b: Builtin) -> &'static str {
    match b {
        Builtin::Min => "use it as `min(a, b, …)` with values of one type",
        Builtin::Max => {
            "use it as `max(a, b, …)` with values of one type (penalties: the most severe)"
        }
        Builtin::Round => "use it as `round(x)` or `round(x, decimals)`",
        Builtin::Pow => "use it as `pow(base, exponent)`",
        Builtin::Mod => "use it as `mod(a, b)`",
        _ => "it takes one argument",
    }
}
