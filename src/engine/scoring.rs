//! Scoring primitives the runner uses: the IMP quotient of a tie-break.
//!
//! IMP and VP scales are the edition's own rules (`scale` and `fn` in the rules files),
//! evaluated by `eval`; nothing here knows a scale. All arithmetic is exact decimal
//! arithmetic with overflow reported as an error.

use rust_decimal::Decimal;
use std::fmt;

/// Why a scoring primitive refused its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoringError {
    /// An argument is outside its domain; the text says which and why.
    InvalidInput(String),
    /// Decimal arithmetic overflowed.
    Overflow,
}

impl fmt::Display for ScoringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidInput(why) => write!(f, "invalid input: {why}"),
            Self::Overflow => write!(f, "decimal overflow"),
        }
    }
}

impl std::error::Error for ScoringError {}

/// The quotient of IMPs won to IMPs lost, as a tie-break reads it: `x / 0` is `Infinite` for
/// `x > 0` and `0 / 0` is 1 (nothing won, nothing lost: even). Ordered, so a larger quotient
/// compares greater and `Infinite` beats every finite value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImpQuotient {
    /// `won / lost` with `lost > 0`, or 1 for `0 / 0`, to 28 significant digits.
    Finite(Decimal),
    /// `won > 0` and `lost == 0`.
    Infinite,
}

impl ImpQuotient {
    /// The quotient of `won` to `lost`; both must be non-negative.
    pub fn new(won: Decimal, lost: Decimal) -> Result<Self, ScoringError> {
        let negative = |d: Decimal| d.is_sign_negative() && !d.is_zero();
        if negative(won) || negative(lost) {
            return Err(ScoringError::InvalidInput(format!(
                "IMPs won ({won}) and lost ({lost}) must not be negative"
            )));
        }
        if lost.is_zero() {
            return Ok(if won.is_zero() {
                Self::Finite(Decimal::ONE)
            } else {
                Self::Infinite
            });
        }
        won.checked_div(lost)
            .map(Self::Finite)
            .ok_or(ScoringError::Overflow)
    }
}

impl fmt::Display for ImpQuotient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Finite(q) => write!(f, "{q}"),
            Self::Infinite => write!(f, "∞"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn imp_quotient_reading() {
        let q = |w: i64, l: i64| ImpQuotient::new(Decimal::from(w), Decimal::from(l)).unwrap();
        assert_eq!(q(0, 0), ImpQuotient::Finite(dec!(1)));
        assert_eq!(q(5, 0), ImpQuotient::Infinite);
        assert_eq!(q(30, 20), ImpQuotient::Finite(dec!(1.5)));
        assert!(q(5, 0) > q(1000, 1));
        assert!(q(30, 20) > q(0, 0));
        assert!(q(0, 0) > q(10, 20));
        assert!(q(0, 5) < q(1, 5));
        assert!(ImpQuotient::new(dec!(-1), dec!(0)).is_err());
        assert_eq!(q(5, 0).to_string(), "∞");
    }
}
