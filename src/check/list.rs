//! Typing lists: literals (an empty one takes its type from the context, or
//! from `as [T]`), positions `xs[i]`, and the built-ins that make or take lists.
//! The operations that take a function are in `list_loop.rs`.

use super::Checker;
use super::expr::{Scope, arguments, mk, poison};
use crate::diag::Diagnostic;
use crate::ir::{self, Builtin, ExprKind, MAX_LIST_LEN, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
use rust_decimal::Decimal;

/// Whether `e` is `[]` with no type written: its type must come from elsewhere.
fn is_untyped_empty(e: &ast::Expr) -> bool {
    matches!(&e.kind, ast::ExprKind::List(items, None) if items.is_empty())
}

/// The type of a list's values; `None` for a type that is not a list.
pub(super) fn element_of(t: &Type) -> Option<Type> {
    match t {
        Type::List(element) => Some((**element).clone()),
        Type::Error => Some(Type::Error),
        _ => None,
    }
}

/// Types whose values have an order: what `min`, `max` and `sort_by` work on.
pub(super) fn is_ordered(t: &Type) -> bool {
    matches!(
        t,
        Type::Num(_) | Type::Duration | Type::Date | Type::Time | Type::DateTime | Type::Error
    )
}

impl Checker {
    /// Types two expressions that should have one type (the sides of `==`, the
    /// branches of `if`): an empty list on one side takes the other side's type.
    pub(super) fn pair_hinted(
        &mut self,
        a: &ast::Expr,
        b: &ast::Expr,
        hint: Option<&Type>,
        scope: &mut Scope,
    ) -> (ir::Expr, ir::Expr) {
        if is_untyped_empty(a) && !is_untyped_empty(b) {
            let y = self.expr_hinted(b, hint, scope);
            let x = self.expr_hinted(a, hint.or(Some(&y.ty)), scope);
            (x, y)
        } else {
            let x = self.expr_hinted(a, hint, scope);
            let y = self.expr_hinted(b, hint.or(Some(&x.ty)), scope);
            (x, y)
        }
    }

    /// `[a, b, c]`: every value of one type; `[]` needs a type from `hint` or
    /// from `as [T]`.
    pub(super) fn list_literal(
        &mut self,
        items: &[ast::Expr],
        annotation: Option<&ast::TypeExpr>,
        hint: Option<&Type>,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        if items.len() > MAX_LIST_LEN {
            // The opening bracket: the whole list would fill the screen.
            let opening = Span {
                end: span.start.saturating_add(1),
                ..span
            };
            self.diags.push(
                Diagnostic::error(
                    "E0208",
                    format!(
                        "this list has {} values; a list holds at most {MAX_LIST_LEN}",
                        items.len()
                    ),
                    opening,
                )
                .with_label("this list is too long")
                .with_help("split the values over several rules, or compute them with a `fn`"),
            );
            return poison(span);
        }
        let declared = annotation.map(|t| self.resolve_type(t));
        let wanted = declared.as_ref().or(hint).and_then(element_of);
        // The values' type so far, and where the value that set it is.
        let mut element: Option<(Type, Span)> = wanted.clone().map(|t| (t, span));
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            let so_far = element.clone();
            let v = self.expr_hinted(item, so_far.as_ref().map(|(t, _)| t), scope);
            match (so_far, &wanted) {
                (None, _) => element = Some((v.ty.clone(), v.span)),
                (Some(_), Some(w)) => {
                    if !v.ty.fits(w) {
                        self.mismatch(w, &v.ty, v.span);
                    }
                }
                (Some((t, first)), None) => match t.join(&v.ty) {
                    Some(joined) => element = Some((joined, first)),
                    None => self.mixed_list(&t, &v.ty, first, v.span),
                },
            }
            values.push(v);
        }
        let ty = match element {
            Some((t, _)) => t,
            None => {
                if hint.is_none() {
                    self.untyped_empty_list(span);
                }
                Type::Error
            }
        };
        mk(ExprKind::List(values), Type::List(Box::new(ty)), span)
    }

    fn mixed_list(&mut self, first: &Type, found: &Type, first_at: Span, span: Span) {
        let (f, t) = (self.program.type_name(first), self.program.type_name(found));
        let code = match (first, found) {
            (Type::Num(_), Type::Num(_)) | (Type::Penalty(_), Type::Penalty(_)) => "E0202",
            _ => "E0201",
        };
        self.diags.push(
            Diagnostic::error(
                code,
                format!("a list holds values of one type: this is `{t}`, the first is `{f}`"),
                span,
            )
            .with_label(format!("this is `{t}`"))
            .with_note(first_at, format!("the first value is `{f}`"))
            .with_help("give every value of the list the same type (and unit)"),
        );
    }

    fn untyped_empty_list(&mut self, span: Span) {
        self.diags.push(
            Diagnostic::error("E0207", "this empty list has no type", span)
                .with_label("nothing here says what the list would hold")
                .with_help("write its type after it: `[] as [VP]`"),
        );
    }

    /// A function `x => …` anywhere but as the last argument of a list operation.
    pub(super) fn misplaced_lambda(&mut self, span: Span) -> ir::Expr {
        self.diags.push(
            Diagnostic::error(
                "E0201",
                "a function `x => …` can only be given to `map`, `filter`, `sort_by` or `fold`",
                span,
            )
            .with_help("write it as their last argument: `map(xs, x => x * 2)`"),
        );
        poison(span)
    }

    /// `xs[i]`: the value at position `i`, counted from 1.
    pub(super) fn index(
        &mut self,
        list: &ast::Expr,
        position: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let xs = self.expr(list, scope);
        let i = self.expect(position, &Type::number(), scope);
        let ty = match element_of(&xs.ty) {
            Some(t) => t,
            None => {
                let t = self.program.type_name(&xs.ty);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`{t}` is not a list; only a list has positions"),
                        list.span,
                    )
                    .with_label(format!("this is `{t}`")),
                );
                Type::Error
            }
        };
        self.literal_position(&xs, &i);
        mk(ExprKind::Index(Box::new(xs), Box::new(i)), ty, span)
    }

    /// A position written as a number that no list has (`xs[0]`, `xs[1.5]`), or
    /// past the end of a list written out in place, is known before evaluation.
    fn literal_position(&mut self, xs: &ir::Expr, i: &ir::Expr) {
        let ExprKind::Lit(Value::Num(n, _)) = &i.kind else {
            return;
        };
        let length = match &xs.kind {
            ExprKind::List(values) => Some(values.len()),
            _ => None,
        };
        let (message, help) = if *n < Decimal::ONE || !n.fract().is_zero() {
            (
                format!("no list has a value at position {}", n.normalize()),
                "positions count from 1: `xs[1]` is the first value",
            )
        } else if let Some(len) = length
            && *n > Decimal::from(len)
        {
            (
                format!(
                    "position {} is past the end of this list of {len}",
                    n.normalize()
                ),
                "positions count from 1 to the list's length",
            )
        } else {
            return;
        };
        self.diags.push(
            Diagnostic::error("E0209", message, i.span)
                .with_label("no value here")
                .with_help(help),
        );
    }

    /// `len`, `sum`, `contains`, `concat`, `range`, and `min`/`max` of one list.
    pub(super) fn list_builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let arity = match b {
            Builtin::Contains | Builtin::Concat | Builtin::Range => 2,
            _ => 1,
        };
        let (first, second) = match args {
            [(_, a)] if arity == 1 => (a, None),
            [(_, a), (_, b)] if arity == 2 => (a, Some(b)),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "E0203",
                        format!("`{}` was given {}", name.text, arguments(args.len())),
                        span,
                    )
                    .with_help(list_usage(b)),
                );
                for (_, a) in args {
                    self.expr(a, scope);
                }
                return poison(span);
            }
        };
        let (xs, ty) = match (b, second) {
            (Builtin::Range, Some(last)) => {
                let from = self.expect(first, &Type::number(), scope);
                let to = self.expect(last, &Type::number(), scope);
                (vec![from, to], Type::List(Box::new(Type::number())))
            }
            (Builtin::Concat, Some(last)) => {
                let (a, z) = self.pair_hinted(first, last, None, scope);
                let ty = self.concat_type(&a, &z, b);
                (vec![a, z], ty)
            }
            (Builtin::Contains, Some(value)) => {
                let (list, element) = self.list_arg(b, first, scope);
                let v = self.expect(value, &element, scope);
                (vec![list, v], Type::Bool)
            }
            _ => {
                let (list, element) = self.list_arg(b, first, scope);
                let ty = self.list_result(b, &element, list.span);
                (vec![list], ty)
            }
        };
        mk(ExprKind::Builtin(b, xs), ty, span)
    }

    /// A list argument and the type of its values.
    fn list_arg(&mut self, b: Builtin, e: &ast::Expr, scope: &mut Scope) -> (ir::Expr, Type) {
        let list = self.expr(e, scope);
        match element_of(&list.ty) {
            Some(t) => (list, t),
            None => {
                let t = self.program.type_name(&list.ty);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`{}` needs a list, found `{t}`", b.name()),
                        e.span,
                    )
                    .with_label(format!("this is `{t}`, not a list"))
                    .with_help(list_usage(b)),
                );
                (list, Type::Error)
            }
        }
    }

    /// The result of `len`, `sum`, `min` or `max` of a list of `element`s.
    fn list_result(&mut self, b: Builtin, element: &Type, span: Span) -> Type {
        let fits = match b {
            Builtin::Len => return Type::number(),
            Builtin::Sum => matches!(element, Type::Num(_) | Type::Duration | Type::Error),
            Builtin::Max => is_ordered(element) || matches!(element, Type::Penalty(_)),
            _ => is_ordered(element),
        };
        if !fits {
            let t = self.program.type_name(element);
            let what = if b == Builtin::Sum {
                "added up"
            } else {
                "ordered"
            };
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("`{}` of a list of `{t}`: `{t}` cannot be {what}", b.name()),
                    span,
                )
                .with_help(list_usage(b)),
            );
            return Type::Error;
        }
        element.clone()
    }

    fn concat_type(&mut self, a: &ir::Expr, z: &ir::Expr, b: Builtin) -> Type {
        for side in [a, z] {
            if element_of(&side.ty).is_none() {
                let t = self.program.type_name(&side.ty);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`concat` needs lists, found `{t}`"),
                        side.span,
                    )
                    .with_help(list_usage(b)),
                );
                return Type::Error;
            }
        }
        match a.ty.join(&z.ty) {
            Some(t) => t,
            None => {
                self.mismatch(&a.ty, &z.ty, z.span);
                a.ty.clone()
            }
        }
    }
}

fn list_usage(b: Builtin) -> &'static str {
    match b {
        Builtin::Len => "use it as `len(xs)`: the number of values of a list",
        Builtin::Sum => "use it as `sum(xs)` with a list of numbers, quantities or durations",
        Builtin::Min => "use it as `min(xs)` with a list, or `min(a, b, …)` with values",
        Builtin::Max => "use it as `max(xs)` with a list, or `max(a, b, …)` with values",
        Builtin::Contains => "use it as `contains(xs, value)`",
        Builtin::Concat => "use it as `concat(xs, ys)` with two lists of one type",
        Builtin::Range => "use it as `range(first, last)` with whole numbers",
        _ => "it takes a list",
    }
}
