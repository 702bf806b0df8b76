//! All arithmetic on values, checked. `rust_decimal`'s operators panic on
//! overflow even in release builds, so nothing else in bfr uses them on user data.
//!
//! Rounding is half away from zero (`MidpointAwayFromZero`), the rule result lists
//! use; never the library's default banker's rounding.

use crate::ir::BinOp;
use crate::ir::{Penalty, Unit, Value};
use rust_decimal::prelude::*;
use std::cmp::Ordering;

/// Why an operation could not be done.
pub type ArithError = String;

fn overflow() -> ArithError {
    "the result is too large for a decimal number".into()
}

fn num_op(
    a: Decimal,
    b: Decimal,
    f: fn(Decimal, Decimal) -> Option<Decimal>,
) -> Result<Decimal, ArithError> {
    f(a, b).ok_or_else(overflow)
}

/// `a op b` for values whose types the checker accepted.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, ArithError> {
    use BinOp::*;
    use Value::*;
    match op {
        Eq => return Ok(Bool(equal(a, b))),
        Ne => return Ok(Bool(!equal(a, b))),
        Lt | Le | Gt | Ge => {
            let ord = compare(a, b)?;
            return Ok(Bool(match op {
                Lt => ord == Ordering::Less,
                Le => ord != Ordering::Greater,
                Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            }));
        }
        And | Or => {
            if let (Bool(x), Bool(y)) = (a, b) {
                return Ok(Bool(if op == And { *x && *y } else { *x || *y }));
            }
        }
        _ => {}
    }
    match (op, a, b) {
        (Add, Num(x, u), Num(y, _)) => Ok(Num(num_op(*x, *y, Decimal::checked_add)?, u.clone())),
        (Sub, Num(x, u), Num(y, _)) => Ok(Num(num_op(*x, *y, Decimal::checked_sub)?, u.clone())),
        (Mul, Num(x, u), Num(y, v)) => Ok(Num(num_op(*x, *y, Decimal::checked_mul)?, u.mul(v))),
        (Div, Num(x, u), Num(y, v)) => Ok(Num(divide(*x, *y)?, u.div(v))),
        (Add, Duration(x), Duration(y)) => Ok(Duration(num_op(*x, *y, Decimal::checked_add)?)),
        (Sub, Duration(x), Duration(y)) => Ok(Duration(num_op(*x, *y, Decimal::checked_sub)?)),
        (Mul, Duration(x), Num(y, _)) | (Mul, Num(y, _), Duration(x)) => {
            Ok(Duration(num_op(*x, *y, Decimal::checked_mul)?))
        }
        (Div, Duration(x), Duration(y)) => Ok(Num(divide(*x, *y)?, Unit::none())),
        (Div, Duration(x), Num(y, _)) => Ok(Duration(divide(*x, *y)?)),
        (Add | Sub, DateTime(..) | Date(_) | Time(_), Duration(_)) => shift(op, a, b),
        (Sub, DateTime(..), DateTime(..)) | (Sub, Date(_), Date(_)) | (Sub, Time(_), Time(_)) => {
            let (x, y) = (seconds_of(a)?, seconds_of(b)?);
            Ok(Duration(num_op(x, y, Decimal::checked_sub)?))
        }
        _ => Err(format!(
            "`{}` cannot be applied to these values",
            op.symbol()
        )),
    }
}

/// `x × y` or `x ÷ y` of two numbers (`op` is `*` or `/`), checked; the unit is
/// the caller's.
pub fn mul_div(op: BinOp, x: Decimal, y: Decimal) -> Result<Decimal, ArithError> {
    match op {
        BinOp::Mul => num_op(x, y, Decimal::checked_mul),
        BinOp::Div => divide(x, y),
        _ => Err(format!("`{}` is not `*` or `/`", op.symbol())),
    }
}

fn divide(x: Decimal, y: Decimal) -> Result<Decimal, ArithError> {
    if y.is_zero() {
        return Err("division by zero".into());
    }
    x.checked_div(y).ok_or_else(overflow)
}

/// Seconds since an arbitrary origin, for differences of times.
fn seconds_of(v: &Value) -> Result<Decimal, ArithError> {
    let day = Decimal::from(86_400);
    let minute = Decimal::from(60);
    match v {
        Value::Date(d) => Decimal::from(d.day_number())
            .checked_mul(day)
            .ok_or_else(overflow),
        Value::Time(m) => Ok(Decimal::from(*m) * minute),
        Value::DateTime(d, m) => Decimal::from(d.day_number())
            .checked_mul(day)
            .and_then(|s| s.checked_add(Decimal::from(*m) * minute))
            .ok_or_else(overflow),
        _ => Err("not a point in time".into()),
    }
}

/// The first and last days bfr counts: four-digit years, as the language
/// writes them.
pub const FIRST_YEAR: i16 = 1;
/// See [`FIRST_YEAR`].
pub const LAST_YEAR: i16 = 9999;

fn out_of_calendar() -> ArithError {
    format!(
        "the result is outside the calendar bfr counts ({FIRST_YEAR:04}-01-01 to {LAST_YEAR}-12-31)"
    )
}

/// A date or time moved by a duration, in whole minutes (dates: whole days).
/// A duration that is not a whole number of minutes is refused, not rounded:
/// times are counted in minutes, and a second dropped silently is a wrong
/// answer.
fn shift(op: BinOp, at: &Value, by: &Value) -> Result<Value, ArithError> {
    let Value::Duration(secs) = by else {
        return Err("not a duration".into());
    };
    let secs = if op == BinOp::Sub { -*secs } else { *secs };
    let minute = Decimal::from(60);
    let over = secs.checked_rem(minute).unwrap_or(Decimal::ZERO);
    if !over.is_zero() {
        return Err(format!(
            "times are counted in whole minutes; this duration has {} s over a whole minute",
            over.abs().normalize()
        ));
    }
    let minutes = (secs / minute).to_i64().ok_or_else(out_of_calendar)?;
    let total = seconds_of(at)? / minute;
    let total = total
        .to_i64()
        .and_then(|t| t.checked_add(minutes))
        .ok_or_else(out_of_calendar)?;
    if matches!(at, Value::Time(_)) && !(0..1440).contains(&total) {
        return Err("a time of day cannot pass midnight; use a date and time".into());
    }
    let days = total.div_euclid(1440);
    let mins = u16::try_from(total.rem_euclid(1440)).map_err(|_| out_of_calendar())?;
    let date = jiff::Span::new()
        .try_days(days)
        .ok()
        .and_then(|span| jiff::civil::date(1970, 1, 1).checked_add(span).ok())
        .filter(|d| (FIRST_YEAR..=LAST_YEAR).contains(&d.year()))
        .ok_or_else(out_of_calendar)?;
    let date = crate::ir::Date::from_civil(date);
    Ok(match at {
        Value::Time(_) => Value::Time(mins),
        _ => Value::DateTime(date, mins),
    })
}

/// Equality; numbers compare by value (`2.0 VP == 2 VP`).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x, u), Value::Num(y, v)) => x == y && u == v,
        (
            Value::Penalty(Penalty::Deduct { amount: x, unit: u }),
            Value::Penalty(Penalty::Deduct { amount: y, unit: v }),
        ) => x == y && u == v,
        (Value::Record(r, xs), Value::Record(s, ys)) => {
            r == s && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| equal(x, y))
        }
        _ => a == b,
    }
}

/// Order of two values of one ordered type.
pub fn compare(a: &Value, b: &Value) -> Result<Ordering, ArithError> {
    match (a.order_key(), b.order_key()) {
        (Some(x), Some(y)) => Ok(x.cmp(&y)),
        _ => match (a, b) {
            (Value::Penalty(p), Value::Penalty(q)) => p
                .severity_cmp(q)
                .ok_or_else(|| "these penalties deduct different units".into()),
            _ => Err("these values have no order".into()),
        },
    }
}

/// `-x`
pub fn negate(v: &Value) -> Result<Value, ArithError> {
    match v {
        Value::Num(x, u) => Ok(Value::Num(-*x, u.clone())),
        Value::Duration(x) => Ok(Value::Duration(-*x)),
        _ => Err("only numbers and durations can be negated".into()),
    }
}

/// Rounds half away from zero to `dp` decimals.
pub fn round(x: Decimal, dp: u32) -> Decimal {
    x.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
}

/// Square root; `None` for negative input.
pub fn sqrt(x: Decimal) -> Option<Decimal> {
    x.sqrt()
}

/// `x` to the power `y` (any real `y`); errors instead of panicking on overflow.
pub fn pow(x: Decimal, y: Decimal) -> Result<Decimal, ArithError> {
    if y.fract().is_zero()
        && let Some(n) = y.to_i64()
    {
        return x.checked_powi(n).ok_or_else(overflow);
    }
    if x.is_sign_negative() {
        return Err("a negative number cannot be raised to a fractional power".into());
    }
    x.checked_powd(y).ok_or_else(overflow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros_free::d;

    mod rust_decimal_macros_free {
        use rust_decimal::Decimal;
        use std::str::FromStr;
        pub fn d(s: &str) -> Decimal {
            Decimal::from_str(s).unwrap()
        }
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        let big = Value::Num(Decimal::MAX, Unit::none());
        assert!(binary(BinOp::Add, &big, &big).is_err());
        assert!(binary(BinOp::Mul, &big, &big).is_err());
        let zero = Value::Num(Decimal::ZERO, Unit::none());
        assert!(binary(BinOp::Div, &big, &zero).is_err());
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(round(d("2.5"), 0), d("3"));
        assert_eq!(round(d("-2.5"), 0), d("-3"));
        assert_eq!(round(d("0.125"), 2), d("0.13"));
    }

    #[test]
    fn units_multiply() {
        let fee = Value::Num(d("500"), Unit::base("SEK").div(&Unit::base("player")));
        let players = Value::Num(d("4"), Unit::base("player"));
        assert_eq!(
            binary(BinOp::Mul, &fee, &players).unwrap(),
            Value::Num(d("2000"), Unit::base("SEK"))
        );
    }
}
