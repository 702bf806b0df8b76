//! Typing calls: a rule called with positional or named arguments, and the
//! builtins with their arities and argument types.

use super::Checker;
use super::expr::{Scope, arguments, mk, poison};
use super::names::{ValueName, did_you_mean};
use crate::diag::Diagnostic;
use crate::ir::{self, Builtin, ExprKind, ListLoop, Type};
use crate::source::Span;
use crate::syntax::ast;

/// A call's arguments as written: an optional parameter name and a value.
type Args = [(Option<ast::Name>, ast::Expr)];

impl Checker {
    /// `name(args)`: a builtin or list loop (unless a local hides it), or a
    /// rule of the edition with its arguments matched to its parameters.
    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &Args,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let Some(name) = self.callee_name(callee) else {
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
            self.not_a_rule(name, scope);
            self.check_args_alone(args, scope);
            return poison(span);
        };
        let Some(rule) = self.program.rules.get(i as usize).cloned() else {
            return poison(span);
        };
        let signature = self.rule_signature(&rule);
        if args.len() != rule.params.len() {
            self.wrong_arity(&rule, &signature, args.len(), span);
            self.check_args_alone(args, scope);
            return poison(span);
        }
        let args = self.bind_arguments(&rule, &signature, args, span, scope);
        mk(ExprKind::Call(i, args), rule.ret.clone(), span)
    }

    /// The single name a call is made through; anything else is reported.
    fn callee_name<'e>(&mut self, callee: &'e ast::Expr) -> Option<&'e ast::Name> {
        let ast::ExprKind::Path(segments) = &callee.kind else {
            self.diags.push(Diagnostic::error(
                "E0204",
                "only rules and built-ins can be called",
                callee.span,
            ));
            return None;
        };
        let [name] = segments.as_slice() else {
            self.diags.push(
                Diagnostic::error("E0204", "this cannot be called", callee.span)
                    .with_help("call a rule by its name: `rule_name(arguments)`"),
            );
            return None;
        };
        Some(name)
    }

    /// Reports a called name that is not a rule: a local or a value that
    /// cannot be called, or a name not defined at all (with "did you mean").
    fn not_a_rule(&mut self, name: &ast::Name, scope: &Scope) {
        if scope.get(&name.text).is_some() || self.names.values.contains_key(&name.text) {
            self.diags.push(Diagnostic::error(
                "E0204",
                format!("`{}` is not a rule and cannot be called", name.text),
                name.span,
            ));
            return;
        }
        // Only what can be called: a const is no candidate for a call.
        let rules: Vec<&str> = self
            .names
            .values
            .iter()
            .filter(|(_, v)| match v {
                ValueName::Rule(i) => self
                    .program
                    .rules
                    .get(*i as usize)
                    .is_none_or(|r| !r.params.is_empty()),
                ValueName::Competition(_) => false,
            })
            .map(|(n, _)| n.as_str())
            .chain(Builtin::ALL.iter().map(|(n, _)| *n))
            .chain(ListLoop::ALL.iter().map(|(n, _)| *n))
            .collect();
        let mut d = Diagnostic::error("E0101", format!("unknown rule `{}`", name.text), name.span)
            .with_label("not defined in this edition");
        if let Some(h) = did_you_mean(&name.text, rules) {
            d = d.with_help(h);
        }
        self.diags.push(d);
    }

    /// Types the arguments of a call that failed, so mistakes inside them
    /// are still reported.
    fn check_args_alone(&mut self, args: &Args, scope: &mut Scope) {
        for (_, a) in args {
            self.expr(a, scope);
        }
    }

    /// `name(param: type, …)`, as help for a wrong call.
    fn rule_signature(&self, rule: &ir::Rule) -> String {
        format!("{}({})", rule.name, self.program.params_shown(rule))
    }

    fn wrong_arity(&mut self, rule: &ir::Rule, signature: &str, given: usize, span: Span) {
        self.diags.push(
            Diagnostic::error(
                "E0203",
                format!(
                    "`{}` takes {} but was given {}",
                    rule.name,
                    arguments(rule.params.len()),
                    given
                ),
                span,
            )
            .with_label(format!("{} given here", arguments(given)))
            .with_help(format!("call it as `{signature}`")),
        );
    }

    /// The arguments in parameter order, each checked against its
    /// parameter's type. Named arguments may come in any order; positional
    /// ones fill in order. A parameter left unfilled holds a poisoned value.
    fn bind_arguments(
        &mut self,
        rule: &ir::Rule,
        signature: &str,
        args: &Args,
        span: Span,
        scope: &mut Scope,
    ) -> Vec<ir::Expr> {
        let mut slots: Vec<Option<ir::Expr>> = vec![None; rule.params.len()];
        for (pos, (label, a)) in args.iter().enumerate() {
            let target = match label {
                Some(l) => match self.named_parameter(rule, signature, l) {
                    Some(p) => p,
                    None => {
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
            let counting = rule.counting.get(target).copied().unwrap_or_default();
            let v = self.expect_counted(a, (&want, counting), scope);
            match slots.get_mut(target) {
                Some(slot @ None) => *slot = Some(v),
                _ => self.diags.push(Diagnostic::error(
                    "E0203",
                    "this parameter is given twice",
                    a.span,
                )),
            }
        }
        slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| poison(span)))
            .collect()
    }

    /// The position of the parameter a named argument names; `None`
    /// (reported) when the rule has no such parameter.
    fn named_parameter(
        &mut self,
        rule: &ir::Rule,
        signature: &str,
        label: &ast::Name,
    ) -> Option<usize> {
        if let Some(p) = rule.params.iter().position(|(n, _)| *n == label.text) {
            return Some(p);
        }
        let d = Diagnostic::error(
            "E0203",
            format!("`{}` has no parameter `{}`", rule.name, label.text),
            label.span,
        );
        let d = match did_you_mean(&label.text, rule.params.iter().map(|(n, _)| n.as_str())) {
            Some(h) => d.with_help(h),
            None => d.with_help(format!("call it as `{signature}`")),
        };
        self.diags.push(d);
        None
    }

    /// A builtin call: list builtins go to `list_builtin`; the others are
    /// checked for arity, then typed by their arguments.
    fn builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &Args,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        if b.is_list_builtin() || (matches!(b, Builtin::Min | Builtin::Max) && args.len() == 1) {
            return self.list_builtin(b, name, args, span, scope);
        }
        let xs: Vec<ir::Expr> = args.iter().map(|(_, a)| self.expr(a, scope)).collect();
        if !builtin_arity_ok(b, xs.len()) {
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
        let ty = self.builtin_type(b, &xs, span);
        mk(ExprKind::Builtin(b, xs), ty, span)
    }

    /// The type of a scalar builtin's result, reporting arguments of the
    /// wrong type. Most builtins take the type of their first argument.
    fn builtin_type(&mut self, b: Builtin, xs: &[ir::Expr], span: Span) -> Type {
        let first = xs.first().map_or(Type::Error, |x| x.ty.clone());
        let rest = xs.get(1..).unwrap_or(&[]);
        let number = Type::number();
        match b {
            Builtin::Min | Builtin::Max => {
                self.require_order(b, &first, span);
                self.want_all(rest, &first);
                first
            }
            Builtin::Ceil | Builtin::Floor | Builtin::Abs => {
                self.require_number(&first, span);
                first
            }
            Builtin::Round => {
                self.require_number(&first, span);
                self.want_all(rest, &number);
                first
            }
            Builtin::Sqrt | Builtin::Pow => {
                self.want_all(xs, &number);
                number
            }
            Builtin::Mod => {
                self.want_all(rest, &first);
                first
            }
            Builtin::IsReferral => {
                self.want_all(xs, &Type::Penalty(None));
                Type::Bool
            }
            Builtin::Year => {
                if !matches!(first, Type::Date | Type::DateTime | Type::Error) {
                    self.mismatch(&Type::Date, &first, span);
                }
                number
            }
            Builtin::At => {
                self.at_args(xs);
                Type::DateTime
            }
            Builtin::DateOf => {
                self.want_all(xs, &Type::DateTime);
                Type::Date
            }
            // Typed by `list_builtin` before this match is reached.
            Builtin::Len | Builtin::Sum | Builtin::Contains | Builtin::Concat | Builtin::Range => {
                Type::Error
            }
        }
    }

    /// Reports every value that does not fit `want`.
    fn want_all(&mut self, xs: &[ir::Expr], want: &Type) {
        for x in xs {
            if !x.ty.fits(want) {
                self.mismatch(want, &x.ty, x.span);
            }
        }
    }

    /// `min` and `max` compare: their values must be ordered (`max` also
    /// takes penalties, the most severe).
    fn require_order(&mut self, b: Builtin, first: &Type, span: Span) {
        let ordered = matches!(
            first,
            Type::Num(_) | Type::Duration | Type::Date | Type::Time | Type::DateTime | Type::Error
        ) || (b == Builtin::Max && matches!(first, Type::Penalty(_)));
        if !ordered {
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` has no order", self.program.type_name(first)),
                    span,
                )
                .with_help(builtin_usage(b)),
            );
        }
    }

    /// Rounding builtins take a number (of any unit).
    fn require_number(&mut self, first: &Type, span: Span) {
        if !matches!(first, Type::Num(_) | Type::Error) {
            self.mismatch(&Type::number(), first, span);
        }
    }

    /// `at(date, time)`
    fn at_args(&mut self, xs: &[ir::Expr]) {
        if let [d, t] = xs {
            if !d.ty.fits(&Type::Date) {
                self.mismatch(&Type::Date, &d.ty, d.span);
            }
            if !t.ty.fits(&Type::Time) {
                self.mismatch(&Type::Time, &t.ty, t.span);
            }
        }
    }
}

/// Whether a scalar builtin takes this many arguments.
fn builtin_arity_ok(b: Builtin, n: usize) -> bool {
    match b {
        Builtin::Min | Builtin::Max => n >= 2,
        Builtin::Round => n == 1 || n == 2,
        Builtin::Pow | Builtin::Mod | Builtin::At => n == 2,
        _ => n == 1,
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
