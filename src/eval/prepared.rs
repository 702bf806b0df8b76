//! The evaluation form of a checked program: what the interpreter would otherwise
//! work out again on every call, worked out once.
//!
//! Built from the IR after checking ([`Prepared::new`]) and handed to
//! [`Evaluator::prepared`](super::Evaluator::prepared); the IR itself is not
//! changed. It holds each scale's rows as ordered keys, sorted so the row that
//! holds an input is found by binary search (as machine integers where every end
//! is a whole number of one scale), the value of each const once an evaluator has
//! computed it (a const is closed and pure, so its value never changes), and each
//! rule's body with its constant parts folded to values (`eval::fold`)
//! once the rule is first called. Computing consts and folded bodies on first use
//! keeps making a `Prepared` cheap for a run that uses few of them.

use super::code::{self, Code};
use crate::ir::{Bound, Counting, ExprKind, Program, Rule, RuleBody, ScaleArm, Value};
use rust_decimal::Decimal;
use std::sync::OnceLock;

/// One end of a row as an ordered key, and whether the end belongs to the row.
type End<K> = Option<(K, bool)>;

/// A scale row's range as keys, and the row's position among the scale's arms.
#[derive(Debug, Clone)]
struct Row<K> {
    lower: End<K>,
    upper: End<K>,
    arm: u32,
}

impl<K: Ord + Copy> Row<K> {
    /// Whether the row's lower end admits `k` (`k` is at or above it).
    fn starts_by(&self, k: K) -> bool {
        match self.lower {
            None => true,
            Some((v, inclusive)) => match v.cmp(&k) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Equal => inclusive,
                std::cmp::Ordering::Greater => false,
            },
        }
    }

    fn holds(&self, k: K) -> bool {
        self.starts_by(k)
            && match self.upper {
                None => true,
                Some((v, inclusive)) => match k.cmp(&v) {
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Equal => inclusive,
                    std::cmp::Ordering::Greater => false,
                },
            }
    }
}

/// The arm of the row that holds `k`, in rows sorted by lower end. The checker
/// refuses overlapping and empty rows, so the last row starting at or below the
/// input is the only one that can hold it.
fn find<K: Ord + Copy>(rows: &[Row<K>], k: K) -> Option<u32> {
    let count = rows.partition_point(|r| r.starts_by(k));
    count
        .checked_sub(1)
        .and_then(|i| rows.get(i))
        .filter(|r| r.holds(k))
        // Rows that overlap are a check error; should a program have them
        // anyway, the first row that holds the input decides, as written.
        .or_else(|| rows.iter().filter(|r| r.holds(k)).min_by_key(|r| r.arm))
        .map(|r| r.arm)
}

/// A scale's rows, ordered, as decimals and, where every end allows it, as whole
/// numbers of one common scale (`5 min` is 300 at scale 0): an input of that
/// scale is then placed by comparing machine integers, not decimals.
#[derive(Debug, Clone)]
struct Scale {
    rows: Vec<Row<Decimal>>,
    /// The common scale (decimal places) and the rows in its units.
    fixed: Option<(u32, Vec<Row<i128>>)>,
}

impl Scale {
    fn new(arms: &[ScaleArm]) -> Option<Scale> {
        let rows = rows(arms)?;
        let places = rows
            .iter()
            .flat_map(|r| [r.lower, r.upper])
            .flatten()
            .map(|(v, _)| v.normalize().scale())
            .max()
            .unwrap_or(0);
        let fixed = rows
            .iter()
            .map(|r| {
                let end = |e: End<Decimal>| match e {
                    None => Some(None),
                    Some((v, inclusive)) => Some(Some((in_places(v, places)?, inclusive))),
                };
                Some(Row {
                    lower: end(r.lower)?,
                    upper: end(r.upper)?,
                    arm: r.arm,
                })
            })
            .collect::<Option<Vec<_>>>()
            .map(|fixed| (places, fixed));
        Some(Scale { rows, fixed })
    }

    fn arm(&self, key: Decimal) -> Option<u32> {
        if let Some((places, fixed)) = &self.fixed
            && let Some(k) = in_places(key, *places)
        {
            return find(fixed, k);
        }
        find(&self.rows, key)
    }
}

/// `v` as a whole number of units of `places` decimal places (`1.5` at 1 place
/// is 15), if it has no more places than that and the number fits.
fn in_places(v: Decimal, places: u32) -> Option<i128> {
    let (mantissa, scale) = match v.scale() {
        s if s <= places => (v.mantissa(), s),
        // Trailing zeros only (`300.0`) still fit; a finer value does not.
        _ => {
            let n = v.normalize();
            (n.mantissa(), n.scale())
        }
    };
    let up = places.checked_sub(scale)?;
    mantissa.checked_mul(10i128.checked_pow(up)?)
}

/// What the interpreter needs of a program, computed once.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// By rule index: the scale's rows sorted by lower end (`None` for a rule that
    /// is not a scale, or whose bounds have no order).
    scales: Vec<Option<Scale>>,
    /// By rule index: the value of a const that computed (empty for other rules,
    /// for a const not used yet, and for a const that fails: it fails again,
    /// with its message, when used).
    consts: Vec<OnceLock<Value>>,
    /// By rule index: the body with its constant parts folded to values
    /// ([`fold`](super::fold)), made on the rule's first call.
    bodies: Vec<OnceLock<Folded>>,
}

/// A rule's body in its evaluation form.
#[derive(Debug, Clone)]
pub(super) struct Folded {
    /// The body with every part that reads no local folded to its value.
    pub(super) body: RuleBody,
    /// What a call gives without an evaluation step, where the folded body
    /// says it at once.
    pub(super) answers: Answers,
    /// A fn's folded body compiled to steps ([`code`](super::code)).
    pub(super) code: Option<Code>,
    /// By table row or scale arm (one entry for a const): whether the body as
    /// written calls no rule there, so that a trace of the direct answer shows
    /// every call the written body would make (the call itself).
    pub(super) quiet: Box<[bool]>,
}

/// The values a call of a rule gives at once: a const's value, each table row's
/// or scale row's value where it folded to one (`None` for a row that did not).
#[derive(Debug, Clone)]
pub(super) enum Answers {
    /// A fn, or a const that did not fold to a value.
    None,
    Const(Value),
    /// A table every row of which folded, by variant: what a handle keeps
    /// (a row is answered without looking at it first).
    FullTable(Box<[Value]>),
    /// A table some rows of which did not fold, by variant (`None`: computed).
    Table(Box<[Option<Value>]>),
    /// By arm, with what numbers the input admits (one it does not is
    /// refused by the general way, with its message).
    Scale {
        counting: Counting,
        arms: Box<[Option<Value>]>,
    },
}

/// The value `e` is when it is one.
fn literal(e: &crate::ir::Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Lit(v) => Some(v.clone()),
        _ => None,
    }
}

impl Folded {
    /// The evaluation form of `rule` from its folded body.
    pub(super) fn new(rule: &Rule, body: RuleBody) -> Folded {
        // An answer its type does not admit is answered the general way,
        // which refuses it.
        let literal = |e: &crate::ir::Expr| literal(e).filter(|v| super::admitted(rule.answer, v));
        let answers = match &body {
            RuleBody::Const { value } => literal(value).map_or(Answers::None, Answers::Const),
            RuleBody::Fn { .. } => Answers::None,
            RuleBody::Table { rows } => {
                let rows: Box<[Option<Value>]> = rows.iter().map(literal).collect();
                if rows.iter().all(Option::is_some) {
                    Answers::FullTable(rows.into_iter().flatten().collect())
                } else {
                    Answers::Table(rows)
                }
            }
            RuleBody::Scale { arms } => Answers::Scale {
                counting: rule.counting.first().copied().unwrap_or_default(),
                arms: arms.iter().map(|a| literal(&a.value)).collect(),
            },
        };
        let code = match &body {
            RuleBody::Fn { body } => {
                let slots = rule
                    .locals
                    .max(u32::try_from(rule.params.len()).unwrap_or(u32::MAX));
                code::compile(body, slots)
            }
            _ => None,
        };
        let quiet = match &rule.body {
            RuleBody::Const { value } | RuleBody::Fn { body: value } => {
                Box::from([calls_nothing(value, 0)])
            }
            RuleBody::Table { rows } => rows.iter().map(|r| calls_nothing(r, 0)).collect(),
            RuleBody::Scale { arms } => arms.iter().map(|a| calls_nothing(&a.value, 0)).collect(),
        };
        Folded {
            body,
            answers,
            code,
            quiet,
        }
    }
}

/// Whether evaluating `e` calls no rule (`false` past a depth that real rows
/// never reach, rather than recursing further).
fn calls_nothing(e: &crate::ir::Expr, depth: u32) -> bool {
    const MAX_DEPTH: u32 = 64;
    depth <= MAX_DEPTH
        && !matches!(e.kind, ExprKind::Call(..))
        && code::children(e)
            .into_iter()
            .all(|x| calls_nothing(x, depth + 1))
}

fn end(b: &Option<Bound>) -> Option<End<Decimal>> {
    match b {
        None => Some(None),
        Some(b) => Some(Some((b.value.order_key()?, b.inclusive))),
    }
}

/// A scale's rows in the order of their lower ends (an open lower end first; at
/// one value an inclusive end before an exclusive one).
fn rows(arms: &[ScaleArm]) -> Option<Vec<Row<Decimal>>> {
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
                RuleBody::Scale { arms } => Scale::new(arms),
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

    /// The folded form of rule `rule`, made by `fold` on first use; `None` for
    /// an index no rule has.
    pub(super) fn folded(&self, rule: u32, fold: impl FnOnce() -> Folded) -> Option<&Folded> {
        Some(self.bodies.get(rule as usize)?.get_or_init(fold))
    }

    /// The folded form of rule `rule` if it has been made.
    #[inline(always)]
    pub(super) fn made(&self, rule: u32) -> Option<&Folded> {
        self.bodies.get(rule as usize)?.get()
    }

    /// How many rules have a compiled body so far.
    pub fn compiled(&self) -> usize {
        self.bodies
            .iter()
            .filter(|b| b.get().is_some_and(|f| f.code.is_some()))
            .count()
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
    #[inline]
    pub(super) fn scale_arm(&self, rule: u32, key: Decimal) -> Option<Option<u32>> {
        let scale = self.scales.get(rule as usize)?.as_ref()?;
        Some(scale.arm(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, ExprKind, Type};
    use crate::source::Span;

    fn d(s: &str) -> Decimal {
        s.parse().expect("a decimal")
    }

    fn arm(lower: Option<(&str, bool)>, upper: Option<(&str, bool)>) -> ScaleArm {
        let bound = |(v, inclusive): (&str, bool)| Bound {
            value: Value::Duration(d(v)),
            inclusive,
        };
        ScaleArm {
            lower: lower.map(bound),
            upper: upper.map(bound),
            value: Expr {
                kind: ExprKind::Lit(Value::Bool(true)),
                ty: Type::Bool,
                span: Span::default(),
            },
            text: String::new(),
            span: Span::default(),
        }
    }

    #[test]
    fn rows_are_found_in_whole_units_and_finer_inputs_in_decimals() {
        // 0 < x <= 300, 300 < x <= 600.5, x > 600.5: ends at one decimal place.
        let scale = Scale::new(&[
            arm(Some(("300", false)), Some(("600.5", true))),
            arm(Some(("0", false)), Some(("300", true))),
            arm(Some(("600.5", false)), None),
        ])
        .expect("ordered ends");
        assert!(matches!(&scale.fixed, Some((1, rows)) if rows.len() == 3));
        let at = |x: &str| scale.arm(d(x));
        assert_eq!(at("0"), None);
        assert_eq!(at("0.01"), Some(1));
        assert_eq!(at("300"), Some(1));
        assert_eq!(at("300.00"), Some(1));
        assert_eq!(at("300.01"), Some(0));
        assert_eq!(at("300.1"), Some(0));
        assert_eq!(at("600.5"), Some(0));
        assert_eq!(at("600.50001"), Some(2));
        assert_eq!(at("-1"), None);
        assert_eq!(at("79228162514264337593543950335"), Some(2));
    }
}
