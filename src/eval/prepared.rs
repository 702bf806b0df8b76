//! The evaluation form of a checked program: what the interpreter would otherwise
//! work out again on every call, worked out once.
//!
//! Built from the IR after checking ([`Prepared::new`]) and handed to
//! [`Evaluator::prepared`](super::Evaluator::prepared); the IR itself is not
//! changed. It holds each scale's rows as ordered keys, sorted so the row that
//! holds an input is found by binary search, and the value of each const once an
//! evaluator has computed it (a const is closed and pure, so its value never
//! changes; computing them on first use keeps making a `Prepared` cheap for a
//! run that uses few of them).

use crate::ir::{Bound, Program, RuleBody, ScaleArm, Value};
use rust_decimal::Decimal;
use std::sync::OnceLock;

/// One end of a row as an ordered key, and whether the end belongs to the row.
type End = Option<(Decimal, bool)>;

/// A scale row's range as keys, and the row's position among the scale's arms.
#[derive(Debug, Clone)]
struct Row {
    lower: End,
    upper: End,
    arm: u32,
}

impl Row {
    /// Whether the row's lower end admits `k` (`k` is at or above it).
    fn starts_by(&self, k: Decimal) -> bool {
        match self.lower {
            None => true,
            Some((v, inclusive)) => v < k || (inclusive && v == k),
        }
    }

    fn holds(&self, k: Decimal) -> bool {
        self.starts_by(k)
            && match self.upper {
                None => true,
                Some((v, inclusive)) => k < v || (inclusive && v == k),
            }
    }
}

/// What the interpreter needs of a program, computed once.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// By rule index: the scale's rows sorted by lower end (`None` for a rule that
    /// is not a scale, or whose bounds have no order).
    scales: Vec<Option<Vec<Row>>>,
    /// By rule index: the value of a const that computed (empty for other rules,
    /// for a const not used yet, and for a const that fails: it fails again,
    /// with its message, when used).
    consts: Vec<OnceLock<Value>>,
    /// By rule index: the body with its constant parts folded to values
    /// ([`fold`](super::fold)), made on the rule's first call.
    bodies: Vec<OnceLock<RuleBody>>,
}

fn end(b: &Option<Bound>) -> Option<End> {
    match b {
        None => Some(None),
        Some(b) => Some(Some((b.value.order_key()?, b.inclusive))),
    }
}

/// A scale's rows in the order of their lower ends (an open lower end first; at
/// one value an inclusive end before an exclusive one).
fn rows(arms: &[ScaleArm]) -> Option<Vec<Row>> {
    let mut rows = Vec::with_capacity(arms.len());
    for (i, arm) in arms.iter().enumerate() {
        rows.push(Row {
            lower: end(&arm.lower)?,
            upper: end(&arm.upper)?,
            arm: u32::try_from(i).ok()?,
        });
    }
    rows.sort_by(|a, b| match (a.lower, b.lower) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some((x, xi)), Some((y, yi))) => x.cmp(&y).then(yi.cmp(&xi)),
    });
    Some(rows)
}

impl Prepared {
    /// The evaluation form of a checked program: every scale's rows ordered; each
    /// const is computed by the first evaluator that needs it.
    pub fn new(program: &Program) -> Prepared {
        let scales = program
            .rules
            .iter()
            .map(|r| match &r.body {
                RuleBody::Scale { arms } => rows(arms),
                _ => None,
            })
            .collect();
        let consts = program.rules.iter().map(|_| OnceLock::new()).collect();
        let bodies = program.rules.iter().map(|_| OnceLock::new()).collect();
        Prepared {
            scales,
            consts,
            bodies,
        }
    }

    /// The computed value of const `rule`, if it has been computed.
    pub(super) fn const_value(&self, rule: u32) -> Option<&Value> {
        self.consts.get(rule as usize)?.get()
    }

    /// The folded body of rule `rule`, made by `fold` on first use; `None` for an
    /// index no rule has.
    pub(super) fn folded(&self, rule: u32, fold: impl FnOnce() -> RuleBody) -> Option<&RuleBody> {
        Some(self.bodies.get(rule as usize)?.get_or_init(fold))
    }

    /// Keeps the value const `rule` computed, for every evaluator after.
    pub(super) fn remember(&self, rule: u32, value: &Value) {
        if let Some(cell) = self.consts.get(rule as usize) {
            // Already set means set to the same value (a const never changes).
            let _ = cell.set(value.clone());
        }
    }

    /// For scale `rule` and an input's order key: `None` when the scale has no
    /// prepared rows, else the arm that holds the input, if one does. The checker
    /// refuses overlapping and empty rows, so the last row starting at or below
    /// the input is the only one that can hold it.
    pub(super) fn scale_arm(&self, rule: u32, key: Decimal) -> Option<Option<u32>> {
        let rows = self.scales.get(rule as usize)?.as_ref()?;
        let count = rows.partition_point(|r| r.starts_by(key));
        let found = count
            .checked_sub(1)
            .and_then(|i| rows.get(i))
            .filter(|r| r.holds(key))
            // Rows that overlap are a check error; should a program have them
            // anyway, the first row that holds the input decides, as written.
            .or_else(|| rows.iter().filter(|r| r.holds(key)).min_by_key(|r| r.arm));
        Some(found.map(|r| r.arm))
    }
}
