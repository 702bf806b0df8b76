//! Typing the list operations that take a function: `map`, `filter`, `sort_by`
//! and `fold`. The function (`x => …`, `(acc, x) => …`) is written in place; its
//! parameters are locals of the enclosing rule, so it sees the rule's other
//! locals, and it cannot be named or called elsewhere: evaluation goes through
//! each value of a finite list once and always ends.

use super::Checker;
use super::expr::{Scope, arguments, mk, poison};
use super::list::{element_of, is_ordered};
use crate::diag::Diagnostic;
use crate::ir::{self, ExprKind, ListLoop, Type};
use crate::source::Span;
use crate::syntax::ast;

impl Checker {
    /// `map(xs, x => …)`, `filter(xs, x => …)`, `sort_by(xs, x => …)`,
    /// `fold(xs, init, (acc, x) => …)`.
    pub(super) fn list_loop(
        &mut self,
        op: ListLoop,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let (list, init, function) = match (op, args) {
            (ListLoop::Fold, [(_, xs), (_, init), (_, f)]) => (xs, Some(init), f),
            (ListLoop::Map | ListLoop::Filter | ListLoop::SortBy, [(_, xs), (_, f)]) => {
                (xs, None, f)
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "E0203",
                        format!("`{}` was given {}", op.name(), arguments(args.len())),
                        span,
                    )
                    .with_help(loop_usage(op)),
                );
                return poison(span);
            }
        };
        let xs = self.expr(list, scope);
        let element = element_of(&xs.ty).unwrap_or_else(|| {
            let t = self.program.type_name(&xs.ty);
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` goes through a list, found `{t}`", op.name()),
                    list.span,
                )
                .with_label(format!("this is `{t}`, not a list"))
                .with_help(loop_usage(op)),
            );
            Type::Error
        });
        let init = init.map(|e| self.expr(e, scope));
        let ast::ExprKind::Lambda(params, body) = &function.kind else {
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` needs a function as its last argument", op.name()),
                    function.span,
                )
                .with_help(loop_usage(op)),
            );
            return poison(span);
        };
        let Some(bound) =
            self.bind_params(op, params, init.as_ref(), element, function.span, scope)
        else {
            return poison(span);
        };
        let body = self.loop_body(op, body, init.as_ref().map(|i| &i.ty), scope);
        bound.iter().for_each(|_| scope.pop());
        let ty = match (op, &init) {
            (ListLoop::Map, _) => Type::List(Box::new(body.ty.clone())),
            (ListLoop::Fold, Some(i)) => i.ty.join(&body.ty).unwrap_or_else(|| i.ty.clone()),
            _ => xs.ty.clone(),
        };
        mk(
            ExprKind::Loop {
                op,
                list: Box::new(xs),
                init: init.map(Box::new),
                slots: bound,
                body: Box::new(body),
            },
            ty,
            span,
        )
    }

    /// Gives the function's parameters local slots: `x` the list's values, and
    /// for `fold` first `acc` the starting value's type. `None` (reported) when
    /// the function has another number of parameters.
    fn bind_params(
        &mut self,
        op: ListLoop,
        params: &[ast::Name],
        init: Option<&ir::Expr>,
        element: Type,
        span: Span,
        scope: &mut Scope,
    ) -> Option<Vec<u32>> {
        match (init, params) {
            (Some(acc_init), [acc, x]) => {
                let acc = scope.push(&acc.text, acc_init.ty.clone());
                Some(vec![acc, scope.push(&x.text, element)])
            }
            (None, [x]) => Some(vec![scope.push(&x.text, element)]),
            _ => {
                let wanted = if init.is_some() {
                    "2 parameters, `(acc, x) => …`"
                } else {
                    "1 parameter, `x => …`"
                };
                self.diags.push(
                    Diagnostic::error(
                        "E0203",
                        format!("the function of `{}` takes {wanted}", op.name()),
                        span,
                    )
                    .with_help(loop_usage(op)),
                );
                None
            }
        }
    }

    /// The function's body: true or false for `filter`, an ordered key for
    /// `sort_by`, the accumulator's type for `fold`.
    fn loop_body(
        &mut self,
        op: ListLoop,
        body: &ast::Expr,
        acc: Option<&Type>,
        scope: &mut Scope,
    ) -> ir::Expr {
        match (op, acc) {
            (ListLoop::Filter, _) => self.expect(body, &Type::Bool, scope),
            (ListLoop::Fold, Some(acc)) => self.expect(body, acc, scope),
            (ListLoop::SortBy, _) => {
                let key = self.expr(body, scope);
                if !is_ordered(&key.ty) {
                    let t = self.program.type_name(&key.ty);
                    self.diags.push(
                        Diagnostic::error(
                            "E0201",
                            format!("`sort_by` orders by numbers, quantities, durations, dates or times, not by `{t}`"),
                            body.span,
                        )
                        .with_label(format!("this is `{t}`")),
                    );
                }
                key
            }
            _ => self.expr(body, scope),
        }
    }
}

fn loop_usage(op: ListLoop) -> &'static str {
    match op {
        ListLoop::Map => "use it as `map(xs, x => x * 2)`",
        ListLoop::Filter => "use it as `filter(xs, x => x > 0)`",
        ListLoop::SortBy => {
            "use it as `sort_by(xs, x => x.points)`: smallest first, ties keep their order"
        }
        ListLoop::Fold => "use it as `fold(xs, 0 VP, (acc, x) => acc + x)`",
    }
}
