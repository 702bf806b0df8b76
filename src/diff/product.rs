//! What a changed rule of several parameters does differently: both editions'
//! versions are evaluated over the product of each parameter's boundary values.
//!
//! A parameter on a line (numbers, durations, dates, times) takes the written
//! values of its type in both editions' bodies and in the rules they call, each
//! of them and one input inside every gap between them and beyond either end
//! (as for one parameter, [`super::behaviour`]); a count with no written value
//! takes 0 to 8. An enum parameter takes every variant, a truth value both.
//! The product is bounded ([`MAX_COMBINATIONS`]): a rule with more
//! combinations is not evaluated. The combinations whose answers differ are
//! reported, neighbours along the last parameter with the same answers joined
//! into one range where the range is exact: the rule's answer is fixed between
//! its written values, or every whole number of the range was evaluated.

use super::Detail;
use super::behaviour::{Line, Piece, Version, candidates_deep, piecewise_all};
use crate::ir::{Type, Value};
use rust_decimal::Decimal;

/// The most input combinations a rule is evaluated at.
pub const MAX_COMBINATIONS: usize = 4096;

/// The most differing combinations listed for one rule; the rest are counted.
pub const MAX_LISTED: usize = 12;

/// One value a parameter takes.
#[derive(Clone)]
struct Point {
    /// The input in the new edition.
    new: Value,
    /// The same input in the old edition (dates moved back by the shift).
    old: Value,
    /// Where on the line, for a line parameter.
    piece: Option<Piece>,
    /// The input's order key (line parameters).
    key: Decimal,
    /// The value as an editor writes it.
    label: String,
}

/// One parameter and the values it takes.
struct Axis {
    name: String,
    line: Option<Line>,
    points: Vec<Point>,
}

/// The input combinations where the old and the new rule answer differently.
pub(super) fn answers(old: &Version, new: &Version, days: i64) -> Vec<Detail> {
    let (op, np) = (&old.rule.params, &new.rule.params);
    if op.len() != np.len() || np.len() < 2 {
        return Vec::new();
    }
    let mut axes = Vec::new();
    // The combinations so far, checked after each parameter: a rule of many
    // parameters is given up once past the bound, before the rest are sampled.
    let mut count = 1usize;
    for (i, ((_, ot), (name, nt))) in op.iter().zip(np).enumerate() {
        let whole = new.rule.counting.get(i).is_some_and(|c| c.is_whole());
        match axis(old, new, name, ot, nt, whole, days) {
            Some(a) if !a.points.is_empty() => {
                match count.checked_mul(a.points.len()) {
                    Some(n) if n <= MAX_COMBINATIONS => count = n,
                    _ => return Vec::new(),
                }
                axes.push(a);
            }
            _ => return Vec::new(),
        }
    }
    let exact = piecewise_all(old.rule) && piecewise_all(new.rule);
    let differing = evaluate(old, new, &axes);
    let runs = join(&axes, differing, exact);
    let mut out: Vec<Detail> = runs
        .iter()
        .take(MAX_LISTED)
        .map(|r| Detail::Answers {
            input: r.describe(&axes, new),
            sample: None,
            old: r.old.clone(),
            new: r.new.clone(),
        })
        .collect();
    if runs.len() > MAX_LISTED {
        out.push(Detail::More {
            answers: runs.len() - MAX_LISTED,
        });
    }
    out
}

/// The values parameter `i` takes, or `None` when its type is not one bfr
/// samples (records, lists, text) or differs between the editions.
#[allow(clippy::too_many_arguments)]
fn axis(
    old: &Version,
    new: &Version,
    name: &str,
    old_ty: &Type,
    new_ty: &Type,
    whole: bool,
    days: i64,
) -> Option<Axis> {
    let point = |new: Value, old: Value, label: String| Point {
        new,
        old,
        piece: None,
        key: Decimal::ZERO,
        label,
    };
    match (old_ty, new_ty) {
        (Type::Bool, Type::Bool) => Some(Axis {
            name: name.to_string(),
            line: None,
            points: [false, true]
                .map(|b| point(Value::Bool(b), Value::Bool(b), b.to_string()))
                .to_vec(),
        }),
        (Type::Enum(a), Type::Enum(b)) => {
            let (oe, ne) = (
                old.program.enums.get(*a as usize)?,
                new.program.enums.get(*b as usize)?,
            );
            let points = ne
                .variants
                .iter()
                .enumerate()
                .filter_map(|(nv, v)| {
                    let ov = oe.variants.iter().position(|w| w == v)?;
                    Some(point(
                        Value::Enum(*b, nv as u32),
                        Value::Enum(*a, ov as u32),
                        format!("{}.{v}", ne.name),
                    ))
                })
                .collect();
            Some(Axis {
                name: name.to_string(),
                line: None,
                points,
            })
        }
        _ => {
            let line = Line::of(new_ty, whole)?;
            if Line::of(old_ty, whole).map(|l| l.ty) != Some(line.ty.clone()) {
                return None;
            }
            let shift = line.key_shift(days);
            let mut keys = Vec::new();
            candidates_deep(old.program, old.rule, &line, shift, &mut keys);
            candidates_deep(new.program, new.rule, &line, Decimal::ZERO, &mut keys);
            keys.sort();
            keys.dedup();
            let pieces: Vec<Piece> = if keys.is_empty() {
                line.unwritten(new.program)?
                    .into_iter()
                    .map(Piece::At)
                    .collect()
            } else {
                Piece::around(&keys)
            };
            let points = pieces
                .into_iter()
                .filter_map(|piece| {
                    let key = piece.inside(line.whole)?;
                    let (n, o) = (line.value(key)?, line.value(key.checked_sub(shift)?)?);
                    Some(Point {
                        label: new.shower.value(&n),
                        new: n,
                        old: o,
                        piece: Some(piece),
                        key,
                    })
                })
                .collect();
            Some(Axis {
                name: name.to_string(),
                line: Some(line),
                points,
            })
        }
    }
}

/// A differing combination: the index of each parameter's point, both answers.
type Found = (Vec<usize>, String, String);

/// Every combination, the last parameter innermost; those whose answers differ.
fn evaluate(old: &Version, new: &Version, axes: &[Axis]) -> Vec<Found> {
    let mut out = Vec::new();
    let mut at = vec![0usize; axes.len()];
    loop {
        let pick = |f: fn(&Point) -> &Value| -> Vec<Value> {
            axes.iter()
                .zip(&at)
                .map(|(a, &k)| f(&a.points[k]).clone())
                .collect()
        };
        let (Some(was), Some(now)) = (
            old.answer_all(pick(|p| &p.old)),
            new.answer_all(pick(|p| &p.new)),
        ) else {
            return out;
        };
        if was != now {
            out.push((at.clone(), was, now));
        }
        // The next combination, like an odometer.
        let mut d = axes.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            at[d] += 1;
            if at[d] < axes[d].points.len() {
                break;
            }
            at[d] = 0;
        }
    }
}

/// Differing combinations with the same other inputs and answers, along a
/// stretch of the last parameter.
struct Run {
    fixed: Vec<usize>,
    from: usize,
    to: usize,
    old: String,
    new: String,
    /// Whether a gap of the line stands for all of it.
    exact: bool,
}

fn join(axes: &[Axis], found: Vec<Found>, exact: bool) -> Vec<Run> {
    let last = axes.len() - 1;
    let mut runs: Vec<Run> = Vec::new();
    for (at, was, now) in found {
        let k = at[last];
        let fixed = at[..last].to_vec();
        if let Some(r) = runs.last_mut()
            && r.fixed == fixed
            && r.to + 1 == k
            && r.old == was
            && r.new == now
            && joins(&axes[last], r.to, k, exact)
        {
            r.to = k;
            continue;
        }
        runs.push(Run {
            fixed,
            from: k,
            to: k,
            old: was,
            new: now,
            exact,
        });
    }
    runs
}

/// Whether two neighbouring points of a line may stand for the range between
/// them: the rule is fixed between written values, or both are whole numbers
/// next to each other.
fn joins(axis: &Axis, a: usize, b: usize, exact: bool) -> bool {
    let Some(line) = &axis.line else {
        return false;
    };
    if exact {
        return true;
    }
    let (p, q) = (&axis.points[a], &axis.points[b]);
    let at = |p: &Point| matches!(p.piece, Some(Piece::At(_)));
    line.whole && at(p) && at(q) && p.key.checked_add(Decimal::ONE) == Some(q.key)
}

impl Run {
    fn describe(&self, axes: &[Axis], new: &Version) -> String {
        let mut parts: Vec<String> = axes
            .iter()
            .zip(&self.fixed)
            .map(|(a, &k)| format!("{} {}", a.name, a.points[k].label))
            .collect();
        let last = &axes[axes.len() - 1];
        let (from, to) = (&last.points[self.from], &last.points[self.to]);
        let range = match (&last.line, from.piece, to.piece) {
            (Some(line), Some(f), Some(t)) if self.from != self.to || self.exact => {
                super::behaviour::describe(f, t, line, &new.shower)
            }
            _ => from.label.clone(),
        };
        parts.push(format!("{} {range}", last.name));
        parts.join(", ")
    }
}
