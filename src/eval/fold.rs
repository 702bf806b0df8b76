//! Constant folding for the evaluation form ([`Prepared`](super::Prepared)): a rule
//! body with every part that reads no local computed once and kept as its value.
//!
//! Rules are pure, so a part of a body that reads no parameter and no `let` gives
//! the same value on every call: `deduct 1 VP`, `540 SEK/pair`, a call of a const,
//! `min(x, cap)`'s `cap`. Folding evaluates each such part once, bottom up, and
//! puts its value in its place. A part whose evaluation fails is kept as written,
//! so it fails (with its own message and span) only when a call reaches it, as
//! before: `if x > 0 then 1 else 1/0` still divides by zero only for `x <= 0`.
//! The checked IR itself is not changed; a trace, which shows every rule that
//! took part, evaluates the IR as written.

use super::{Evaluator, TOO_LARGE};
use crate::ir::{Expr, ExprKind, RuleBody, ScaleArm};

/// `body` with every part that reads no local replaced by its value, evaluated
/// by `ev` (an evaluator that does not fold: folding is not re-entered).
///
/// Once a part takes more steps than an evaluation may (E0606), the rest of the
/// body is kept as written: each part is its own evaluation with a fresh count,
/// so trying its whole, and each other part, again would cost the limit again
/// at every level. What is not folded still fails or succeeds when reached.
pub(super) fn body(ev: &mut Evaluator, body: &RuleBody) -> RuleBody {
    let mut f = Folding {
        ev,
        too_large: false,
    };
    match body {
        RuleBody::Const { value } => RuleBody::Const {
            value: Box::new(expr(&mut f, value).0),
        },
        RuleBody::Fn { body } => RuleBody::Fn {
            body: Box::new(expr(&mut f, body).0),
        },
        RuleBody::Table { rows } => RuleBody::Table {
            rows: rows.iter().map(|r| expr(&mut f, r).0).collect(),
        },
        RuleBody::Scale { arms } => RuleBody::Scale {
            arms: arms
                .iter()
                .map(|a| ScaleArm {
                    lower: a.lower.clone(),
                    upper: a.upper.clone(),
                    value: expr(&mut f, &a.value).0,
                    text: a.text.clone(),
                    span: a.span,
                })
                .collect(),
        },
    }
}

/// The folding of one rule body.
struct Folding<'a, 'p> {
    ev: &'a mut Evaluator<'p>,
    /// Whether a part was stopped at the step limit: nothing more is folded.
    too_large: bool,
}

/// The folded expression, and whether it reads no local (so its value is the
/// same on every call).
fn expr(f: &mut Folding, e: &Expr) -> (Expr, bool) {
    if f.too_large {
        return (e.clone(), false);
    }
    // The IR can nest as deeply as its source; a deep chain grows the stack.
    stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || expr_inner(f, e))
}

fn expr_inner(f: &mut Folding, e: &Expr) -> (Expr, bool) {
    let mut closed = true;
    let mut sub = |x: &Expr| {
        let (folded, c) = expr(f, x);
        closed &= c;
        folded
    };
    let boxed = |x: Expr| Box::new(x);
    let kind = match &e.kind {
        ExprKind::Lit(_) => return (e.clone(), true),
        ExprKind::Local(_) => return (e.clone(), false),
        ExprKind::RuleRef(_) => return (e.clone(), true),
        ExprKind::Call(i, args) => ExprKind::Call(*i, args.iter().map(&mut sub).collect()),
        ExprKind::Builtin(b, args) => ExprKind::Builtin(*b, args.iter().map(&mut sub).collect()),
        ExprKind::Neg(x) => ExprKind::Neg(boxed(sub(x))),
        ExprKind::Not(x) => ExprKind::Not(boxed(sub(x))),
        ExprKind::Binary(op, a, b) => {
            let a = sub(a);
            ExprKind::Binary(*op, boxed(a), boxed(sub(b)))
        }
        ExprKind::If(c, t, f) => {
            let (c, t) = (sub(c), sub(t));
            ExprKind::If(boxed(c), boxed(t), boxed(sub(f)))
        }
        ExprKind::Let(slot, value, body) => {
            let value = sub(value);
            ExprKind::Let(*slot, boxed(value), boxed(sub(body)))
        }
        ExprKind::Match(s, arms) => {
            let s = sub(s);
            let arms = arms.iter().map(|(p, x)| (*p, sub(x))).collect();
            ExprKind::Match(boxed(s), arms)
        }
        ExprKind::Record(r, fields) => ExprKind::Record(*r, fields.iter().map(&mut sub).collect()),
        ExprKind::Field(x, i) => ExprKind::Field(boxed(sub(x)), *i),
        ExprKind::Deduct(x) => ExprKind::Deduct(boxed(sub(x))),
        ExprKind::List(xs) => ExprKind::List(xs.iter().map(&mut sub).collect()),
        ExprKind::Index(a, b) => {
            let a = sub(a);
            ExprKind::Index(boxed(a), boxed(sub(b)))
        }
        ExprKind::Loop {
            op,
            list,
            init,
            slots,
            body,
        } => {
            let list = sub(list);
            let init = init.as_ref().map(|x| boxed(sub(x)));
            ExprKind::Loop {
                op: *op,
                list: boxed(list),
                init,
                slots: slots.clone(),
                body: boxed(sub(body)),
            }
        }
    };
    let folded = Expr {
        kind,
        ty: e.ty.clone(),
        span: e.span,
    };
    if !closed || f.too_large {
        return (folded, false);
    }
    match f.ev.eval_closed(&folded) {
        Ok(v) => {
            let lit = Expr {
                kind: ExprKind::Lit(v),
                ty: e.ty.clone(),
                span: e.span,
            };
            (lit, true)
        }
        Err(failed) => {
            f.too_large = failed.code == Some(TOO_LARGE);
            (folded, !f.too_large)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Program, Rule, Type, Unit, Value};
    use crate::source::Span;
    use rust_decimal::Decimal;

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            ty: Type::number(),
            span: Span::default(),
        }
    }

    fn num(n: i64) -> Expr {
        e(ExprKind::Lit(Value::Num(Decimal::from(n), Unit::none())))
    }

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    fn program() -> Program {
        let rule = Rule {
            name: "f".into(),
            params: vec![("x".into(), Type::number())],
            counting: Box::new([crate::ir::Counting::Any]),
            answer: crate::ir::Counting::Any,
            ret: Type::number(),
            source: None,
            doc: Box::default(),
            body: RuleBody::Fn {
                body: Box::new(num(0)),
            },
            locals: 1,
            reading: false,
            cites: None,
            span: Span::default(),
        };
        Program {
            rules: vec![Box::new(rule)],
            ..Program::default()
        }
    }

    #[test]
    fn parts_without_locals_become_values_and_the_rest_stays() {
        let program = program();
        let mut ev = Evaluator::new(&program);
        // x + 2 * 3 → x + 6
        let body = RuleBody::Fn {
            body: Box::new(bin(
                BinOp::Add,
                e(ExprKind::Local(0)),
                bin(BinOp::Mul, num(2), num(3)),
            )),
        };
        let RuleBody::Fn { body } = super::body(&mut ev, &body) else {
            panic!("a fn stays a fn")
        };
        let ExprKind::Binary(BinOp::Add, x, six) = body.kind else {
            panic!("the sum stays: {body:?}")
        };
        assert!(matches!(x.kind, ExprKind::Local(0)));
        assert!(
            matches!(six.kind, ExprKind::Lit(Value::Num(n, _)) if n == Decimal::from(6)),
            "{six:?}"
        );
    }

    #[test]
    fn a_part_that_fails_is_kept_to_fail_when_reached() {
        let program = program();
        let mut ev = Evaluator::new(&program);
        // if x > 0 then 1 else 1 / 0: the division stays as written.
        let cond = bin(BinOp::Gt, e(ExprKind::Local(0)), num(0));
        let body = RuleBody::Fn {
            body: Box::new(e(ExprKind::If(
                Box::new(cond),
                Box::new(num(1)),
                Box::new(bin(BinOp::Div, num(1), num(0))),
            ))),
        };
        let RuleBody::Fn { body } = super::body(&mut ev, &body) else {
            panic!("a fn stays a fn")
        };
        let ExprKind::If(_, _, f) = body.kind else {
            panic!("the condition reads x: {body:?}")
        };
        assert!(matches!(f.kind, ExprKind::Binary(BinOp::Div, ..)), "{f:?}");
        // A failing part on a branch not taken does not stop its whole from folding.
        let body = RuleBody::Const {
            value: Box::new(e(ExprKind::If(
                Box::new(Expr {
                    kind: ExprKind::Lit(Value::Bool(true)),
                    ty: Type::Bool,
                    span: Span::default(),
                }),
                Box::new(num(1)),
                Box::new(bin(BinOp::Div, num(1), num(0))),
            ))),
        };
        let RuleBody::Const { value } = super::body(&mut ev, &body) else {
            panic!("a const stays a const")
        };
        assert!(
            matches!(value.kind, ExprKind::Lit(Value::Num(n, _)) if n == Decimal::ONE),
            "{value:?}"
        );
    }
}
