//! Evaluating lists: positions, the list built-ins, and the operations that
//! take a function (`map`, `filter`, `sort_by`, `fold`).
//!
//! Each operation goes through a finite list once, so evaluation ends. No list
//! the interpreter builds holds more than [`MAX_LIST_LEN`] values. The failures
//! that concern lists carry their own codes (E0603–E0605).

use super::{EvalError, Evaluator, R, arith, set_local};
use crate::ir::{Builtin, Expr, ExprKind, ListLoop, MAX_LIST_LEN, Type, Unit, Value};
use crate::source::Span;
use rust_decimal::prelude::*;

/// A position no value of the list is at.
const OUTSIDE: &str = "E0603";
/// `min` or `max` of an empty list.
const EMPTY: &str = "E0604";
/// A list longer than [`MAX_LIST_LEN`].
const TOO_LONG: &str = "E0605";

fn coded(code: &'static str, message: impl Into<String>, span: Span) -> Box<EvalError> {
    Box::new(EvalError {
        message: message.into(),
        span,
        code: Some(code),
        refused_answer_of: None,
    })
}

fn plain(message: impl Into<String>, span: Span) -> Box<EvalError> {
    Box::new(EvalError {
        message: message.into(),
        span,
        code: None,
        refused_answer_of: None,
    })
}

fn too_long(length: impl std::fmt::Display, span: Span) -> Box<EvalError> {
    coded(
        TOO_LONG,
        format!("the list would hold {length} values; a list holds at most {MAX_LIST_LEN}"),
        span,
    )
}

/// `xs[i]`: the value at position `i`, counted from 1.
pub(super) fn at(xs: Value, i: &Value, span: Span) -> R {
    let Value::List(xs) = xs else {
        return Err(plain("a position needs a list and a number", span));
    };
    at_ref(&xs, i, span)
}

/// `xs[i]` of a list that stays where it is: the value is copied out.
fn at_ref(xs: &[Value], i: &Value, span: Span) -> R {
    let Value::Num(n, _) = i else {
        return Err(plain("a position needs a list and a number", span));
    };
    let len = xs.len();
    let position = n
        .fract()
        .is_zero()
        .then(|| n.to_usize())
        .flatten()
        .filter(|p| *p >= 1);
    let shown = n.normalize();
    match position {
        Some(p) if p <= len => xs
            .get(p - 1)
            .map(super::copy_value)
            .ok_or_else(|| plain("internal error: a position was lost", span)),
        Some(_) if len == 0 => Err(coded(
            OUTSIDE,
            format!("the list is empty, so it has no value at position {shown}"),
            span,
        )),
        Some(_) => Err(coded(
            OUTSIDE,
            format!("position {shown} is past the end of a list of {len}"),
            span,
        )),
        None => Err(coded(
            OUTSIDE,
            format!("no list has a value at position {shown}: positions count 1, 2, 3, …"),
            span,
        )),
    }
}

/// `min(xs)`, `max(xs)`: an empty list has neither.
pub(super) fn extreme(b: Builtin, xs: &[Value], span: Span) -> R {
    if xs.is_empty() {
        let which = if b == Builtin::Min {
            "smallest"
        } else {
            "largest"
        };
        return Err(coded(
            EMPTY,
            format!("the list is empty, so it has no {which} value"),
            span,
        ));
    }
    super::builtin(b, xs).map_err(|m| plain(m, span))
}

/// `len`, `sum`, `contains`, `concat` and `range`; `ty` is the call's type
/// (`sum` of an empty list is the zero of it).
pub(super) fn builtin(b: Builtin, values: Vec<Value>, ty: &Type, span: Span) -> R {
    let mut values = values.into_iter();
    match (b, values.next(), values.next()) {
        (Builtin::Len, Some(Value::List(xs)), None) => {
            Ok(Value::Num(Decimal::from(xs.len()), Unit::none()))
        }
        (Builtin::Sum, Some(Value::List(xs)), None) => {
            let mut total = match ty {
                Type::Duration => Value::Duration(Decimal::ZERO),
                Type::Num(u) => Value::Num(Decimal::ZERO, u.clone()),
                _ => return Err(plain("`sum` needs numbers or durations", span)),
            };
            for x in &xs {
                total =
                    arith::binary(crate::ir::BinOp::Add, &total, x).map_err(|m| plain(m, span))?;
            }
            Ok(total)
        }
        (Builtin::Contains, Some(Value::List(xs)), Some(v)) => {
            Ok(Value::Bool(xs.iter().any(|x| arith::equal(x, &v))))
        }
        (Builtin::Concat, Some(Value::List(mut xs)), Some(Value::List(ys))) => {
            let length = xs.len().saturating_add(ys.len());
            if length > MAX_LIST_LEN {
                return Err(too_long(length, span));
            }
            xs.extend(ys);
            Ok(Value::List(xs))
        }
        (Builtin::Range, Some(Value::Num(from, _)), Some(Value::Num(to, _))) => {
            range(from, to, span)
        }
        _ => Err(plain(
            format!("`{}` was given values it cannot use", b.name()),
            span,
        )),
    }
}

/// `range(from, to)`: the whole numbers `from, from + 1, …, to`; empty when `to`
/// is below `from`.
fn range(from: Decimal, to: Decimal, span: Span) -> R {
    if !from.fract().is_zero() || !to.fract().is_zero() {
        return Err(plain(
            format!(
                "`range` counts in whole numbers, not from {} to {}",
                from.normalize(),
                to.normalize()
            ),
            span,
        ));
    }
    if to < from {
        return Ok(Value::List(Vec::new()));
    }
    let length = to
        .checked_sub(from)
        .and_then(|d| d.checked_add(Decimal::ONE))
        .ok_or_else(|| too_long("more than a decimal can count", span))?;
    if length > Decimal::from(MAX_LIST_LEN) {
        return Err(too_long(length.normalize(), span));
    }
    let mut out = Vec::new();
    let mut n = from;
    while n <= to {
        out.push(Value::Num(n, Unit::none()));
        n = n
            .checked_add(Decimal::ONE)
            .ok_or_else(|| too_long(length, span))?;
    }
    Ok(Value::List(out))
}

impl Evaluator<'_> {
    /// A list literal, a position `xs[i]`, or a list operation with its function.
    pub(super) fn eval_list(&mut self, e: &Expr, frame: &mut Vec<Value>) -> R {
        match &e.kind {
            ExprKind::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item, frame)?);
                }
                Ok(Value::List(values))
            }
            ExprKind::Index(list, position) => {
                if let (ExprKind::Local(slot), ExprKind::Local(_) | ExprKind::Lit(_)) =
                    (&list.kind, &position.kind)
                {
                    return self.at_local(*slot, position, e.span, frame);
                }
                let xs = self.eval(list, frame)?;
                let i = self.eval(position, frame)?;
                at(xs, &i, e.span)
            }
            ExprKind::Loop {
                op,
                list,
                init,
                slots,
                body,
            } => {
                let Value::List(xs) = self.eval(list, frame)? else {
                    return Err(plain("this value is not a list", list.span));
                };
                let init = match init {
                    Some(i) => Some(self.eval(i, frame)?),
                    None => None,
                };
                self.eval_loop(*op, xs, init, slots, body, frame)
            }
            _ => Err(plain("internal error: not a list expression", e.span)),
        }
    }

    /// `xs[i]` of a list held by a local, `i` a local or a literal: the value
    /// is copied out of the list where it is, not the whole list first (a
    /// position in a loop over the list would copy it at every turn). Neither
    /// side can fail or give a local a value, so the order is the walk's.
    fn at_local(&mut self, slot: u32, position: &Expr, span: Span, frame: &mut Vec<Value>) -> R {
        let i = self.eval(position, frame)?;
        match frame.get(slot as usize) {
            Some(Value::List(xs)) => at_ref(xs, &i, span),
            Some(other) => at(other.clone(), &i, span),
            None => Err(plain("internal error: a local has no value", span)),
        }
    }

    /// Goes through `xs` once, evaluating `body` with the function's parameters
    /// (`slots`) set to each value (and, for `fold`, to the value so far).
    fn eval_loop(
        &mut self,
        op: ListLoop,
        xs: Vec<Value>,
        init: Option<Value>,
        slots: &[u32],
        body: &Expr,
        frame: &mut Vec<Value>,
    ) -> R {
        let span = body.span;
        match (op, slots, init) {
            (ListLoop::Fold, [acc_slot, x_slot], Some(mut acc)) => {
                for x in xs {
                    set_local(frame, *acc_slot, acc);
                    set_local(frame, *x_slot, x);
                    acc = self.eval(body, frame)?;
                }
                Ok(acc)
            }
            (ListLoop::Map, [x_slot], None) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    set_local(frame, *x_slot, x);
                    out.push(self.eval(body, frame)?);
                }
                Ok(Value::List(out))
            }
            (ListLoop::Filter, [x_slot], None) => {
                let mut kept = Vec::new();
                for x in xs {
                    set_local(frame, *x_slot, x.clone());
                    match self.eval(body, frame)? {
                        Value::Bool(true) => kept.push(x),
                        Value::Bool(false) => {}
                        _ => return Err(plain("the function must give true or false", span)),
                    }
                }
                Ok(Value::List(kept))
            }
            (ListLoop::SortBy, [x_slot], None) => {
                let mut keyed = Vec::with_capacity(xs.len());
                for x in xs {
                    set_local(frame, *x_slot, x.clone());
                    let key = self.eval(body, frame)?.order_key().ok_or_else(|| {
                        plain("the function must give a value that can be ordered", span)
                    })?;
                    keyed.push((key, x));
                }
                // `sort_by` is stable: values with equal keys keep their order.
                keyed.sort_by_key(|(key, _)| *key);
                Ok(Value::List(keyed.into_iter().map(|(_, x)| x).collect()))
            }
            _ => Err(plain(
                format!("internal error: `{}` was built wrongly", op.name()),
                span,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: i64) -> Value {
        Value::Num(Decimal::from(x), Unit::none())
    }

    fn list(xs: &[i64]) -> Value {
        Value::List(xs.iter().map(|x| n(*x)).collect())
    }

    fn code(r: R) -> Option<&'static str> {
        r.err().and_then(|e| e.code)
    }

    #[test]
    fn positions_count_from_one_and_never_panic() {
        let span = Span::default();
        assert_eq!(at(list(&[7]), &n(1), span).ok(), Some(n(7)));
        assert_eq!(at(list(&[7, 8]), &n(2), span).ok(), Some(n(8)));
        assert_eq!(code(at(list(&[7, 8]), &n(3), span)), Some(OUTSIDE));
        assert_eq!(code(at(list(&[7]), &n(0), span)), Some(OUTSIDE));
        assert_eq!(code(at(list(&[7]), &n(-1), span)), Some(OUTSIDE));
        assert_eq!(code(at(list(&[]), &n(1), span)), Some(OUTSIDE));
        let half = Value::Num(Decimal::new(15, 1), Unit::none());
        assert_eq!(code(at(list(&[7, 8]), &half, span)), Some(OUTSIDE));
        let huge = Value::Num(Decimal::MAX, Unit::none());
        assert_eq!(code(at(list(&[7]), &huge, span)), Some(OUTSIDE));
    }

    #[test]
    fn min_and_max_of_an_empty_list_are_errors() {
        let span = Span::default();
        assert_eq!(code(extreme(Builtin::Min, &[], span)), Some(EMPTY));
        assert_eq!(code(extreme(Builtin::Max, &[], span)), Some(EMPTY));
        assert_eq!(extreme(Builtin::Max, &[n(4)], span).ok(), Some(n(4)));
        assert_eq!(
            extreme(Builtin::Min, &[n(4), n(2), n(3)], span).ok(),
            Some(n(2))
        );
    }

    #[test]
    fn sum_of_an_empty_list_is_zero_in_its_unit() {
        let span = Span::default();
        let vp = Unit::base("VP");
        let ty = Type::Num(vp.clone());
        let empty = builtin(Builtin::Sum, vec![list(&[])], &ty, span).ok();
        assert_eq!(empty, Some(Value::Num(Decimal::ZERO, vp)));
        let sum = builtin(Builtin::Sum, vec![list(&[1, 2, 3])], &Type::number(), span).ok();
        assert_eq!(sum, Some(n(6)));
        let big = Value::List(vec![Value::Num(Decimal::MAX, Unit::none()); 2]);
        assert!(builtin(Builtin::Sum, vec![big], &Type::number(), span).is_err());
    }

    #[test]
    fn ranges_are_bounded() {
        let span = Span::default();
        let limit = i64::try_from(MAX_LIST_LEN).unwrap_or(i64::MAX);
        let one = builtin(Builtin::Range, vec![n(1), n(1)], &Type::Error, span).ok();
        assert_eq!(one, Some(list(&[1])));
        let empty = builtin(Builtin::Range, vec![n(2), n(1)], &Type::Error, span).ok();
        assert_eq!(empty, Some(list(&[])));
        let full = builtin(Builtin::Range, vec![n(1), n(limit)], &Type::Error, span);
        assert!(matches!(full, Ok(Value::List(xs)) if xs.len() == MAX_LIST_LEN));
        let over = builtin(Builtin::Range, vec![n(0), n(limit)], &Type::Error, span);
        assert_eq!(code(over), Some(TOO_LONG));
        let wide = vec![
            Value::Num(Decimal::MIN, Unit::none()),
            Value::Num(Decimal::MAX, Unit::none()),
        ];
        assert_eq!(
            code(builtin(Builtin::Range, wide, &Type::Error, span)),
            Some(TOO_LONG)
        );
    }

    #[test]
    fn concat_is_bounded() {
        let span = Span::default();
        let half = Value::List(vec![n(1); MAX_LIST_LEN / 2]);
        let full = builtin(
            Builtin::Concat,
            vec![half.clone(), half],
            &Type::Error,
            span,
        );
        assert!(matches!(full, Ok(Value::List(xs)) if xs.len() == MAX_LIST_LEN));
        let full = Value::List(vec![n(1); MAX_LIST_LEN]);
        let over = builtin(Builtin::Concat, vec![full, list(&[2])], &Type::Error, span);
        assert_eq!(code(over), Some(TOO_LONG));
    }
}
