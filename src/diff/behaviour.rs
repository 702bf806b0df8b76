//! What a changed rule of one parameter does differently: both editions'
//! versions are evaluated over the same inputs.
//!
//! For a parameter on a line (numbers, durations, dates, times), the candidate
//! boundaries are the scale rows' bounds of both editions and the literals of
//! that type in both bodies. Between two neighbouring candidates a scale of fixed
//! row values answers the same everywhere, so evaluating each candidate and one
//! input inside each gap between candidates (and one beyond either end) finds
//! every range where the answers differ, exactly at its ends; neighbouring
//! pieces with the same pair of answers are joined into one range. For an enum
//! parameter every key is evaluated.

use super::Detail;
use super::calendar::children;
use super::show::Shower;
pub use crate::eval::Budget;
use crate::eval::Evaluator;
use crate::ir::{Date, Expr, ExprKind, Program, Rule, RuleBody, Type, Unit, Value};
use rust_decimal::Decimal;
use std::cell::RefCell;

/// The evaluation steps one `bfr diff` may take over all the answers it
/// compares: twenty evaluations at the step limit of one
/// ([`MAX_STEPS`](crate::eval::MAX_STEPS)),
/// about a minute. A count, not a clock, so a diff stops at the same answer on
/// every machine.
pub const MAX_DIFF_STEPS: u64 = 1_000_000_000;

/// One edition's version of the rule.
pub(super) struct Version<'p> {
    pub(super) program: &'p Program,
    /// The rule's index in the program.
    pub(super) index: u32,
    pub(super) rule: &'p Rule,
    pub(super) shower: Shower<'p>,
    /// One evaluator for all of the rule's answers, so that a const it uses
    /// is worked out once, not once an answer (each call still counts its
    /// own steps).
    pub(super) evaluator: RefCell<Evaluator<'p>>,
    /// The diff's steps, which every answer draws on.
    budget: &'p Budget,
}

impl<'p> Version<'p> {
    /// Rule `index` of `program`, whose values are shown by `shower`, its
    /// answers worked out within `budget`.
    pub(super) fn new(
        program: &'p Program,
        (index, rule): (u32, &'p Rule),
        shower: Shower<'p>,
        budget: &'p Budget,
    ) -> Self {
        Version {
            program,
            index,
            rule,
            shower,
            evaluator: RefCell::new(Evaluator::new(program)),
            budget,
        }
    }
}

impl Version<'_> {
    /// The answer for one input, as text (`no answer` when there is none);
    /// `None` once the diff's steps are spent.
    fn answer(&self, input: Value) -> Option<String> {
        self.answer_all(vec![input])
    }

    /// The answer for one input per parameter; `None` once the diff's steps
    /// are spent, the answer not worked out (or stopped by what was left).
    pub(super) fn answer_all(&self, inputs: Vec<Value>) -> Option<String> {
        let mut evaluator = self.evaluator.borrow_mut();
        let answer = self.budget.run(&mut evaluator, |ev| {
            ev.call(self.index, inputs, self.rule.span)
        })?;
        Some(match answer {
            Ok(v) => self.shower.value(&v),
            Err(_) => "no answer".into(),
        })
    }
}

pub(super) fn by_key(old: &Version, old_enum: u32, new: &Version, new_enum: u32) -> Vec<Detail> {
    let (Some(a), Some(b)) = (
        old.program.enums.get(old_enum as usize),
        new.program.enums.get(new_enum as usize),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (nv, name) in b.variants.iter().enumerate() {
        let Some(ov) = a.variants.iter().position(|v| v == name) else {
            continue;
        };
        if literal_rows(old.rule, ov) && literal_rows(new.rule, nv) {
            // The row's change already says the answer.
            continue;
        }
        let (Some(was), Some(now)) = (
            old.answer(Value::Enum(old_enum, ov as u32)),
            new.answer(Value::Enum(new_enum, nv as u32)),
        ) else {
            break;
        };
        if was != now {
            out.push(Detail::Answers {
                input: name.clone(),
                sample: None,
                old: was,
                new: now,
            });
        }
    }
    out
}

/// Whether a table's row for this variant is a written value.
fn literal_rows(rule: &Rule, variant: usize) -> bool {
    match &rule.body {
        RuleBody::Table { rows } => rows
            .get(variant)
            .is_some_and(|r| matches!(r.kind, ExprKind::Lit(_))),
        _ => false,
    }
}

/// A parameter type on a line: how its inputs are made from order keys.
#[derive(Clone)]
pub(super) struct Line {
    pub(super) ty: LineType,
    /// Inputs are whole numbers of the key (counts, days, minutes).
    pub(super) whole: bool,
}

#[derive(Clone, PartialEq)]
pub(super) enum LineType {
    Num(Unit),
    Duration,
    Date,
    Time,
    DateTime,
}

impl Line {
    pub(super) fn of(ty: &Type, whole: bool) -> Option<Line> {
        let (ty, whole) = match ty {
            Type::Num(u) => (LineType::Num(u.clone()), whole),
            Type::Duration => (LineType::Duration, whole),
            Type::Date => (LineType::Date, true),
            Type::Time => (LineType::Time, true),
            Type::DateTime => (LineType::DateTime, true),
            _ => return None,
        };
        Some(Line { ty, whole })
    }

    /// The input with this order key.
    pub(super) fn value(&self, key: Decimal) -> Option<Value> {
        use rust_decimal::prelude::ToPrimitive;
        match &self.ty {
            LineType::Num(u) => Some(Value::Num(key, u.clone())),
            LineType::Duration => Some(Value::Duration(key)),
            LineType::Time => {
                let m = key.to_u16()?;
                (m < 1440 && key.fract().is_zero()).then_some(Value::Time(m))
            }
            LineType::Date => Some(Value::Date(date_of_day(key.to_i64()?)?)),
            LineType::DateTime => {
                let k = key.to_i64()?;
                let day = date_of_day(k.div_euclid(1440))?;
                Some(Value::DateTime(
                    day,
                    u16::try_from(k.rem_euclid(1440)).ok()?,
                ))
            }
        }
    }

    /// The inputs to try on a whole line no rule writes a value of (a rule
    /// comparing two of its parameters, `appealed_at <= session_end + 30 min`):
    /// nine, from the first day of the edition's `period` for dates and times
    /// (the days after it; the minutes after its midnight at the spacings a
    /// regulation's time limits use), from 0 for numbers. `None` on a line that
    /// is not whole.
    pub(super) fn unwritten(&self, program: &Program) -> Option<Vec<Decimal>> {
        if !self.whole {
            return None;
        }
        let first_day = program
            .edition
            .as_ref()
            .and_then(|e| e.period)
            .and_then(|(first, _)| Value::Date(first).order_key())
            .unwrap_or(Decimal::ZERO);
        Some(match self.ty {
            LineType::Date => (0..=8).map(|d| first_day + Decimal::from(d)).collect(),
            LineType::DateTime => {
                let midnight = first_day * Decimal::from(1440);
                LIMIT_SPACINGS
                    .into_iter()
                    .map(|m| midnight + Decimal::from(m))
                    .collect()
            }
            LineType::Time => LIMIT_SPACINGS
                .into_iter()
                .filter(|m| *m < 1440)
                .map(Decimal::from)
                .collect(),
            _ => (0..=8).map(Decimal::from).collect(),
        })
    }

    /// How much an order key moves when a date moves by `days`.
    pub(super) fn key_shift(&self, days: i64) -> Decimal {
        match self.ty {
            LineType::Date => Decimal::from(days),
            LineType::DateTime => Decimal::from(days) * Decimal::from(1440),
            _ => Decimal::ZERO,
        }
    }

    fn fits(&self, v: &Value) -> bool {
        matches!(
            (&self.ty, v),
            (LineType::Num(u), Value::Num(_, w)) if u == w
        ) || matches!(
            (&self.ty, v),
            (LineType::Duration, Value::Duration(_))
                | (LineType::Date, Value::Date(_))
                | (LineType::Time, Value::Time(_))
                | (LineType::DateTime, Value::DateTime(..))
        )
    }
}

/// Minutes after a midnight at which unwritten times are tried: the spacings of
/// a regulation's time limits, up to the next day.
const LIMIT_SPACINGS: [i64; 9] = [0, 5, 10, 15, 30, 60, 120, 240, 1440];

fn date_of_day(n: i64) -> Option<Date> {
    let epoch = jiff::civil::date(1970, 1, 1);
    epoch
        .checked_add(jiff::Span::new().days(n))
        .ok()
        .map(Date::from_civil)
}

/// The order keys where a rule's answer may change: its scale bounds and the
/// literals of the parameter's type in its body.
fn candidates(rule: &Rule, line: &Line, shift: Decimal, out: &mut Vec<Decimal>) {
    let mut values = Vec::new();
    match &rule.body {
        RuleBody::Scale { arms } => {
            for arm in arms {
                for b in arm.lower.iter().chain(&arm.upper) {
                    values.push(b.value.clone());
                }
                literals(&arm.value, &mut values);
            }
        }
        RuleBody::Fn { body } => literals(body, &mut values),
        RuleBody::Const { .. } | RuleBody::Table { .. } => {}
    }
    out.extend(
        values
            .iter()
            .filter(|v| line.fits(v))
            .filter_map(|v| v.order_key()?.checked_add(shift)),
    );
}

fn literals(e: &Expr, out: &mut Vec<Value>) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        if let ExprKind::Lit(v) = &e.kind {
            out.push(v.clone());
        }
        for c in children(e) {
            literals(c, out);
        }
    });
}

/// A piece of the line: a candidate itself, or the open gap beside it.
#[derive(Clone, Copy)]
pub(super) enum Piece {
    Below(Decimal),
    At(Decimal),
    Between(Decimal, Decimal),
    Above(Decimal),
}

impl Piece {
    /// An input inside the piece, if it holds one a decimal can write (a
    /// written value at the edge of the range has nothing beyond it).
    pub(super) fn inside(self, whole: bool) -> Option<Decimal> {
        let one = Decimal::ONE;
        match self {
            Piece::At(c) => Some(c),
            Piece::Below(c) => if whole { c.ceil() } else { c }.checked_sub(one),
            Piece::Above(c) => if whole { c.floor() } else { c }.checked_add(one),
            Piece::Between(a, b) if whole => {
                let next = a.floor().checked_add(one)?;
                (next < b).then_some(next)
            }
            // The sum of two large values may not fit: their halves' sum does.
            Piece::Between(a, b) => {
                let middle = match a.checked_add(b) {
                    Some(sum) => sum / Decimal::TWO,
                    None => (a / Decimal::TWO).checked_add(b / Decimal::TWO)?,
                };
                (a < middle && middle < b).then_some(middle)
            }
        }
    }
}

impl Piece {
    /// The pieces of the line around sorted, distinct candidates: below the
    /// first, each candidate and the gap after it, above the last.
    pub(super) fn around(keys: &[Decimal]) -> Vec<Piece> {
        let (Some(first), Some(last)) = (keys.first().copied(), keys.last().copied()) else {
            return Vec::new();
        };
        let mut pieces = vec![Piece::Below(first)];
        for w in keys.windows(2) {
            pieces.push(Piece::At(w[0]));
            pieces.push(Piece::Between(w[0], w[1]));
        }
        pieces.push(Piece::At(last));
        pieces.push(Piece::Above(last));
        pieces
    }
}

/// The written values of a line's type that a parameter of a rule of several
/// parameters may be compared with: the literals of the rule's body and of the
/// rules it calls (to a bounded depth), moved by `shift`.
pub(super) fn candidates_deep(
    program: &Program,
    rule: &Rule,
    line: &Line,
    shift: Decimal,
    out: &mut Vec<Decimal>,
) {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![(rule, 0usize)];
    while let Some((r, depth)) = todo.pop() {
        if !seen.insert(r.name.clone()) {
            continue;
        }
        candidates(r, line, shift, out);
        if let RuleBody::Const { value } = &r.body {
            let mut values = Vec::new();
            literals(value, &mut values);
            out.extend(
                values
                    .iter()
                    .filter(|v| line.fits(v))
                    .filter_map(|v| v.order_key()?.checked_add(shift)),
            );
        }
        if depth < 4 {
            for c in called(r) {
                if let Some(next) = program.rules.get(c as usize) {
                    todo.push((next, depth + 1));
                }
            }
        }
    }
}

pub(super) fn by_range(old: &Version, new: &Version, line: &Line, days: i64) -> Vec<Detail> {
    let shift = line.key_shift(days);
    let mut keys = Vec::new();
    // The old rule's candidates are moved into the new calendar.
    candidates(old.rule, line, shift, &mut keys);
    candidates(new.rule, line, Decimal::ZERO, &mut keys);
    keys.sort();
    keys.dedup();
    let pieces = Piece::around(&keys);
    if pieces.is_empty() {
        return Vec::new();
    }
    // A gap between candidates gives one answer only if neither rule computes
    // with the input beyond comparing it with a written value.
    let exact = piecewise(old.rule) && piecewise(new.rule);
    // (first piece, last piece, old answer, new answer, sampled at) of each
    // differing run.
    let mut runs: Vec<(Piece, Piece, String, String, Option<Decimal>)> = Vec::new();
    let mut open = false;
    for piece in pieces {
        let Some(key) = piece.inside(line.whole) else {
            continue;
        };
        let old_key = key.checked_sub(shift);
        let (Some(input), Some(old_input)) = (line.value(key), old_key.and_then(|k| line.value(k)))
        else {
            open = false;
            continue;
        };
        let (Some(was), Some(now)) = (old.answer(old_input), new.answer(input)) else {
            break;
        };
        if was == now {
            open = false;
            continue;
        }
        let sampled = (!exact
            && matches!(
                piece,
                Piece::Between(..) | Piece::Below(_) | Piece::Above(_)
            ))
        .then_some(key);
        match runs.last_mut() {
            Some(run)
                if open && sampled.is_none() && run.4.is_none() && run.2 == was && run.3 == now =>
            {
                run.1 = piece;
            }
            _ => runs.push((piece, piece, was, now, sampled)),
        }
        // A sampled piece stands alone.
        open = sampled.is_none();
    }
    let show = |k: Decimal| {
        line.value(k)
            .map_or_else(|| k.to_string(), |v| new.shower.value(&v))
    };
    runs.into_iter()
        .map(|(from, to, was, now, sampled)| Detail::Answers {
            input: describe(from, to, line, &new.shower),
            sample: sampled.map(show),
            old: was,
            new: now,
        })
        .collect()
}

/// Whether a rule's answer is fixed between its candidates: the parameter
/// (local 0) appears only in comparisons with a written value, and a scale's
/// rows do not use it at all.
fn piecewise(rule: &Rule) -> bool {
    match &rule.body {
        RuleBody::Scale { arms } => arms.iter().all(|a| !uses_input(&a.value, false)),
        RuleBody::Fn { body } => !uses_input(body, true),
        RuleBody::Const { .. } | RuleBody::Table { .. } => true,
    }
}

/// Whether a rule of several parameters answers the same between the written
/// values: no parameter is used but in a comparison with a written value.
pub(super) fn piecewise_all(rule: &Rule) -> bool {
    let n = rule.params.len();
    match &rule.body {
        RuleBody::Fn { body } => (0..n).all(|i| !uses_local(body, i as u32)),
        RuleBody::Scale { .. } | RuleBody::Const { .. } | RuleBody::Table { .. } => piecewise(rule),
    }
}

/// Whether `e` uses local `i` other than in a comparison with a literal.
fn uses_local(e: &Expr, i: u32) -> bool {
    use crate::ir::BinOp::{Eq, Ge, Gt, Le, Lt, Ne};
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
        ExprKind::Local(k) => *k == i,
        ExprKind::Binary(Eq | Ne | Lt | Le | Gt | Ge, a, b)
            if matches!(
                (&a.kind, &b.kind),
                (ExprKind::Local(k), ExprKind::Lit(_)) | (ExprKind::Lit(_), ExprKind::Local(k)) if *k == i
            ) =>
        {
            false
        }
        _ => children(e).into_iter().any(|c| uses_local(c, i)),
    })
}

/// Whether `e` uses local 0 other than (if `compared` is allowed) in a
/// comparison with a literal.
fn uses_input(e: &Expr, compared: bool) -> bool {
    use crate::ir::BinOp::{Eq, Ge, Gt, Le, Lt, Ne};
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || match &e.kind {
        ExprKind::Local(0) => true,
        ExprKind::Binary(Eq | Ne | Lt | Le | Gt | Ge, a, b)
            if compared
                && matches!(
                    (&a.kind, &b.kind),
                    (ExprKind::Local(0), ExprKind::Lit(_)) | (ExprKind::Lit(_), ExprKind::Local(0))
                ) =>
        {
            false
        }
        _ => children(e).into_iter().any(|c| uses_input(c, compared)),
    })
}

/// A run of pieces in words: `over 10 min up to 15 min`, `at 3 boards`.
pub(super) fn describe(from: Piece, to: Piece, line: &Line, shower: &Shower) -> String {
    let show = |k: Decimal| {
        line.value(k)
            .map_or_else(|| k.to_string(), |v| shower.value(&v))
    };
    if let (Piece::At(a), Piece::At(b)) = (from, to)
        && a == b
    {
        return format!("at {}", show(a));
    }
    let lower = match from {
        Piece::Below(_) => None,
        Piece::At(c) => Some(format!("from {}", show(c))),
        Piece::Between(a, _) | Piece::Above(a) => Some(format!("over {}", show(a))),
    };
    let upper = match to {
        Piece::Above(_) => None,
        Piece::At(c) => Some(format!("up to {}", show(c))),
        Piece::Between(_, b) | Piece::Below(b) => Some(format!("under {}", show(b))),
    };
    match (lower, upper) {
        (Some(l), Some(u)) => format!("{l} {u}"),
        (Some(l), None) => l,
        (None, Some(u)) => u,
        (None, None) => "every input".into(),
    }
}

/// The rules a rule's body calls or names.
pub(super) fn called(rule: &Rule) -> Vec<u32> {
    let mut exprs: Vec<&Expr> = Vec::new();
    match &rule.body {
        RuleBody::Const { value } => exprs.push(value),
        RuleBody::Fn { body } => exprs.push(body),
        RuleBody::Table { rows } => exprs.extend(rows),
        RuleBody::Scale { arms } => exprs.extend(arms.iter().map(|a| &a.value)),
    }
    let mut out = Vec::new();
    while let Some(e) = exprs.pop() {
        if let ExprKind::Call(i, _) | ExprKind::RuleRef(i) = &e.kind {
            out.push(*i);
        }
        exprs.extend(children(e));
    }
    out.sort_unstable();
    out.dedup();
    out
}
