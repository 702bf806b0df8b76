//! Dates against the calendar and the edition: a weekday written next to a date
//! must be that date's weekday, and a date should fall in the edition's year(s).
//! Both are warnings: they report defects of the document, which the edition
//! encodes as written.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Date, Program};
use crate::syntax::ast::{self, DateLit, Decl, Expr, ExprKind};

pub(crate) fn check_all(
    _program: &Program,
    diags: &mut Diagnostics,
    period: Option<(Date, Date)>,
    items: &[&ast::Item],
) {
    let mut dates = Vec::new();
    for item in items {
        match &item.decl {
            // Another document's date is not the edition's: its weekday is checked,
            // its year is that document's business.
            Decl::Const(k) if k.cites.is_some() => {
                let mut v = Vec::new();
                walk(&k.value, &mut v);
                v.iter().for_each(|d| weekday(d, diags));
            }
            Decl::Const(k) => walk(&k.value, &mut dates),
            Decl::Fn(f) => walk(&f.body, &mut dates),
            Decl::Table(t) => t.rows.iter().for_each(|(_, e)| walk(e, &mut dates)),
            Decl::Scale(s) => {
                for (r, e) in &s.arms {
                    walk(e, &mut dates);
                    for b in [&r.lower, &r.upper].into_iter().flatten() {
                        walk(&b.value, &mut dates);
                    }
                }
            }
            Decl::Example(e) => e.assertions.iter().for_each(|a| walk(a, &mut dates)),
            Decl::Competition(c) => {
                c.properties.iter().for_each(|p| walk(&p.value, &mut dates));
                for s in &c.stages {
                    s.properties.iter().for_each(|p| walk(&p.value, &mut dates));
                }
            }
            Decl::Edition(e) => {
                // The header's own dates are checked for weekdays only.
                for x in e
                    .updated
                    .iter()
                    .chain(e.period.iter().flat_map(|(a, b)| [a, b]))
                {
                    let mut v = Vec::new();
                    walk(x, &mut v);
                    v.iter().for_each(|d| weekday(d, diags));
                }
            }
            _ => {}
        }
    }
    for d in &dates {
        weekday(d, diags);
        if let Some((first, last)) = period
            && let Some(years) = date_of(d).outside_years((first, last))
        {
            diags.push(
                Diagnostic::warning(
                    "W0102",
                    format!("the date {} is not in the edition's year {years}", show(d)),
                    d.span,
                )
                .with_label(format!("year {}", d.year))
                .with_help(format!(
                    "check the year; the edition's period is {first} .. {last}"
                )),
            );
        }
    }
}

fn show(d: &DateLit) -> String {
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// The date a literal writes.
fn date_of(d: &DateLit) -> Date {
    Date {
        year: d.year,
        month: d.month,
        day: d.day,
    }
}

fn weekday(d: &DateLit, diags: &mut Diagnostics) {
    let Some((written, span)) = &d.weekday else {
        return;
    };
    let real = date_of(d).weekday();
    if written != real {
        let (real, written) = (day_name(real), day_name(written));
        diags.push(
            Diagnostic::warning(
                "W0101",
                format!("{} is a {real}, not a {written}", show(d)),
                *span,
            )
            .with_label(format!("the calendar says {real}"))
            .with_help("check the date and the weekday in the document"),
        );
    }
}

/// `Fri` → `Friday`.
fn day_name(short: &str) -> &str {
    match short {
        "Mon" => "Monday",
        "Tue" => "Tuesday",
        "Wed" => "Wednesday",
        "Thu" => "Thursday",
        "Fri" => "Friday",
        "Sat" => "Saturday",
        "Sun" => "Sunday",
        other => other,
    }
}

fn walk<'a>(e: &'a Expr, out: &mut Vec<&'a DateLit>) {
    e.visit(&mut |x| {
        if let ExprKind::Date(d) | ExprKind::DateTime(d, _) = &x.kind {
            out.push(d);
        }
    });
}

/// W0414: a qualification or stage whose own days fall outside the days its
/// competition gives as a whole (`first_day` .. `last_day`): one of the two
/// dates is likely a slip, and the programme would show the stage apart from
/// its competition's days.
pub(crate) fn stages_outside_their_competition(
    declared: &crate::check::declared::Declared,
    competition: &crate::ir::Competition,
) -> Vec<Diagnostic> {
    let Some((first, last)) = competition.days() else {
        return Vec::new();
    };
    let dated = competition
        .qualification
        .iter()
        .map(|q| (q.name.as_str(), "qualification", &q.schedule))
        .chain(
            competition
                .stages
                .iter()
                .map(|s| (s.name.as_str(), "stage", &s.schedule)),
        );
    let mut out = Vec::new();
    for (name, whose, schedule) in dated {
        let Some(day) = schedule.day else { continue };
        let stage_last = schedule.last_day.unwrap_or(day);
        // The date at fault, the keys it may be written under, and the
        // competition's day it passes.
        let (outside, keys, bound) = if day < first {
            (day, &["day", "first_day"][..], "first_day")
        } else if day > last {
            (day, &["day", "first_day"][..], "last_day")
        } else if stage_last > last {
            (stage_last, &["last_day"][..], "last_day")
        } else {
            continue;
        };
        let written = declared
            .stages
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.properties.iter().find(|p| keys.contains(&p.key.as_str())));
        let Some(written) = written else { continue };
        let days = if first == last {
            format!("{first}")
        } else {
            format!("{first} .. {last}")
        };
        let mut d = Diagnostic::warning(
            "W0414",
            format!(
                "`{name}` is played on {outside}, outside the days of its competition `{}`, {days}",
                competition.name
            ),
            written.value.span,
        )
        .with_label("not one of the competition's days")
        .with_help(format!(
            "check both dates against the document: move the {whose}'s day into the competition's days, or widen the competition's `first_day` .. `last_day`"
        ));
        // The competition's bound the stage passes; a one-day competition has
        // only its first.
        let bound_at = crate::check::declared::Property::find(&declared.properties, bound)
            .or_else(|| crate::check::declared::Property::find(&declared.properties, "first_day"));
        if let Some(at) = bound_at {
            let note = match at.key.as_str() {
                "last_day" => "the competition's days end here",
                _ if bound == "last_day" => "the competition is played on this one day",
                _ => "the competition's days begin here",
            };
            d = d.with_note(at.value.span, note);
        }
        out.push(d);
    }
    out
}
