//! Calendar shifts: a new year moves every date by one offset (+364 days keeps
//! the weekdays). The dates of declarations found in both editions are paired
//! in order; when more than half of them moved by one offset, that offset is
//! the edition's shift, said once, and the old edition's dates are moved by it
//! before anything else is compared.

use super::show::{Shower, days_between};
use super::{Detail, Side};
use crate::ir::{Date, Expr, ExprKind, Program, RuleBody, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// Most of the dates moved by one offset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shift {
    /// The offset in days.
    pub days: i64,
    /// How many dates moved by it.
    pub moved: usize,
    /// How many dates the two editions share (paired in declarations found in both).
    pub dates: usize,
    /// Whether the offset keeps the weekdays (a multiple of 7).
    pub weekdays_kept: bool,
}

impl Shift {
    /// `all 64 dates +364 days, weekdays kept`.
    pub fn line(&self) -> String {
        let count = if self.moved == self.dates {
            format!("all {} dates", self.dates)
        } else {
            format!("{} of {} dates", self.moved, self.dates)
        };
        let sign = if self.days > 0 { "+" } else { "" };
        let unit = if self.days.abs() == 1 { "day" } else { "days" };
        let weekdays = if self.weekdays_kept {
            "weekdays kept"
        } else {
            "weekdays changed"
        };
        format!("{count} {sign}{} {unit}, {weekdays}", self.days)
    }
}

/// The shift between two editions, if most of their paired dates moved by one
/// offset other than zero.
pub fn find(old: &Side, new: &Side) -> Option<Shift> {
    let pairs = pairs(old.program, new.program);
    let mut offsets: BTreeMap<i64, usize> = BTreeMap::new();
    for (a, b) in &pairs {
        *offsets.entry(days_between(*a, *b)).or_default() += 1;
    }
    // The most common offset; ties go to the smallest, so the answer is stable.
    let (days, moved) = offsets
        .iter()
        .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0)))
        .map(|(d, n)| (*d, *n))?;
    (days != 0 && moved * 2 > pairs.len()).then_some(Shift {
        days,
        moved,
        dates: pairs.len(),
        weekdays_kept: days % 7 == 0,
    })
}

/// The edition headers' differences, with the old dates moved by the shift.
pub fn header(old: &Side, new: &Side, days: i64) -> Vec<Detail> {
    let shower = Shower::shifted(old.program, days);
    let show = |p: &Program, s: Shower| -> Vec<(&'static str, String)> {
        let Some(e) = &p.edition else {
            return Vec::new();
        };
        let date = |d: Date| s.date(d).to_string();
        vec![
            ("name", e.name.clone()),
            ("source", e.source.clone().unwrap_or_default()),
            ("updated", e.updated.map(date).unwrap_or_default()),
            (
                "period",
                e.period
                    .map(|(a, b)| format!("{} .. {}", date(a), date(b)))
                    .unwrap_or_default(),
            ),
        ]
    };
    let a = show(old.program, shower);
    let b = show(new.program, Shower::new(new.program));
    let olds: BTreeMap<&str, &String> = a.iter().map(|(k, v)| (*k, v)).collect();
    b.iter()
        .filter_map(|(k, v)| {
            let was = olds.get(k).map_or(String::new(), |w| (*w).clone());
            (was != *v).then(|| Detail::Changed {
                what: (*k).to_string(),
                old: was,
                new: v.clone(),
            })
        })
        .collect()
}

/// Dates of declarations found in both editions, paired in order where both
/// have as many.
fn pairs(old: &Program, new: &Program) -> Vec<(Date, Date)> {
    let a = dated(old);
    let b = dated(new);
    let mut out = Vec::new();
    for (key, dates) in &b {
        if let Some(was) = a.get(key)
            && was.len() == dates.len()
        {
            out.extend(was.iter().copied().zip(dates.iter().copied()));
        }
    }
    out
}

/// Every declaration's dates, keyed by what it is and its name.
fn dated(p: &Program) -> BTreeMap<String, Vec<Date>> {
    let mut out = BTreeMap::new();
    // Another document's dates (`cites`) stay where that document puts them.
    for rule in p.rules.iter().filter(|r| r.cites.is_none()) {
        let mut dates = Vec::new();
        match &rule.body {
            RuleBody::Const { value } => in_expr(value, &mut dates),
            RuleBody::Fn { body } => in_expr(body, &mut dates),
            RuleBody::Table { rows } => rows.iter().for_each(|r| in_expr(r, &mut dates)),
            RuleBody::Scale { arms } => {
                for arm in arms {
                    for b in arm.lower.iter().chain(&arm.upper) {
                        in_value(&b.value, &mut dates);
                    }
                    in_expr(&arm.value, &mut dates);
                }
            }
        }
        out.insert(format!("rule {}", rule.name), dates);
    }
    for ex in &p.examples {
        let mut dates = Vec::new();
        ex.assertions.iter().for_each(|a| in_expr(a, &mut dates));
        out.insert(format!("example {}", ex.title), dates);
    }
    for c in &p.competitions {
        let whole = &c.schedule;
        let days: Vec<Date> = whole.day.iter().chain(&whole.last_day).copied().collect();
        out.insert(format!("competition {}", c.name), days);
        let schedules = c
            .qualification
            .iter()
            .map(|q| (&q.name, &q.schedule))
            .chain(c.stages.iter().map(|s| (&s.name, &s.schedule)));
        for (stage, s) in schedules {
            let dates: Vec<Date> = s.day.iter().chain(&s.last_day).copied().collect();
            out.insert(format!("stage {}.{stage}", c.name), dates);
        }
    }
    if let Some(e) = &p.edition {
        let mut dates: Vec<Date> = e.updated.into_iter().collect();
        if let Some((a, b)) = e.period {
            dates.extend([a, b]);
        }
        out.insert("edition".into(), dates);
    }
    out
}

fn in_value(v: &Value, out: &mut Vec<Date>) {
    match v {
        Value::Date(d) | Value::DateTime(d, _) => out.push(*d),
        Value::List(items) => items.iter().for_each(|x| in_value(x, out)),
        Value::Record(_, items) => items.iter().for_each(|x| in_value(x, out)),
        _ => {}
    }
}

fn in_expr(e: &Expr, out: &mut Vec<Date>) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        if let ExprKind::Lit(v) = &e.kind {
            in_value(v, out);
        }
        for child in children(e) {
            in_expr(child, out);
        }
    });
}

/// The sub-expressions of an expression, in writing order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::Local(_) | ExprKind::RuleRef(_) => Vec::new(),
        ExprKind::Call(_, args)
        | ExprKind::Builtin(_, args)
        | ExprKind::Record(_, args)
        | ExprKind::List(args) => args.iter().collect(),
        ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Deduct(x) | ExprKind::Field(x, _) => {
            vec![x]
        }
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) | ExprKind::Index(a, b) => vec![a, b],
        ExprKind::If(c, a, b) => vec![c, a, b],
        ExprKind::Match(x, arms) => std::iter::once(&**x)
            .chain(arms.iter().map(|(_, a)| a))
            .collect(),
        ExprKind::Loop {
            list, init, body, ..
        } => std::iter::once(&**list)
            .chain(init.as_deref())
            .chain(std::iter::once(&**body))
            .collect(),
    }
}
