//! Values: what rules compute.

use super::{Program, Unit};
use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt;

/// A calendar date (proleptic Gregorian), ordered by time.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
)]
pub struct Date {
    /// Year.
    pub year: i16,
    /// Month 1–12.
    pub month: i8,
    /// Day 1–31.
    pub day: i8,
}

impl Date {
    /// The days from this one to `last` as the programme and the edition's
    /// pages show them: `Tue 2015-07-28 – Thu 2015-07-30`, or the one day.
    pub fn through(self, last: Date) -> String {
        if self == last {
            self.to_string()
        } else {
            format!("{self} – {last}")
        }
    }

    /// The years of the period `first ..= last` in words, when `self` is
    /// outside them (`2015`, `2015–2016`): a date an edition writes, or
    /// computes, in another year than its own.
    pub fn outside_years(&self, (first, last): (Date, Date)) -> Option<String> {
        if (first.year..=last.year).contains(&self.year) {
            return None;
        }
        Some(if first.year == last.year {
            first.year.to_string()
        } else {
            format!("{}–{}", first.year, last.year)
        })
    }

    /// The date as a `jiff` civil date, if it exists in the calendar.
    pub fn civil(self) -> Option<jiff::civil::Date> {
        jiff::civil::Date::new(self.year, self.month, self.day).ok()
    }

    /// From a `jiff` civil date.
    pub fn from_civil(d: jiff::civil::Date) -> Date {
        Date {
            year: d.year(),
            month: d.month(),
            day: d.day(),
        }
    }

    /// The weekday as the language writes it (`Mon` … `Sun`).
    pub fn weekday(self) -> &'static str {
        use jiff::civil::Weekday::*;
        match self.civil().map(|d| d.weekday()) {
            Some(Monday) => "Mon",
            Some(Tuesday) => "Tue",
            Some(Wednesday) => "Wed",
            Some(Thursday) => "Thu",
            Some(Friday) => "Fri",
            Some(Saturday) => "Sat",
            Some(Sunday) => "Sun",
            None => "?",
        }
    }

    /// Days since 1970-01-01 (negative before).
    pub fn day_number(self) -> i64 {
        let epoch = jiff::civil::date(1970, 1, 1);
        self.civil()
            .and_then(|d| epoch.until(d).ok())
            .map_or(0, |span| i64::from(span.get_days()))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Years outside 1..=9999 are refused where dates are made; should one
        // appear, its sign stays in front of four digits (`-0001`, not `-001`).
        let sign = if self.year < 0 { "-" } else { "" };
        write!(
            f,
            "{} {sign}{:04}-{:02}-{:02}",
            self.weekday(),
            self.year.unsigned_abs(),
            self.month,
            self.day
        )
    }
}

/// A penalty.
#[derive(
    Debug, Clone, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(tag = "penalty", rename_all = "lowercase")]
pub enum Penalty {
    /// A warning, no deduction.
    Warning,
    /// A deduction of an amount with a unit (VP, IMP, per cent of a top).
    Deduct {
        /// How much.
        amount: Decimal,
        /// Of what.
        unit: Unit,
    },
    /// The case goes to a named body.
    Refer {
        /// The body.
        to: String,
    },
    /// The match is lost.
    Forfeit,
}

impl Penalty {
    /// Severity order: warning < deduction (by amount, same unit) < referral, forfeit.
    /// `None` when two deductions have different units.
    pub fn severity_cmp(&self, other: &Penalty) -> Option<std::cmp::Ordering> {
        let rank = |p: &Penalty| match p {
            Penalty::Warning => 0,
            Penalty::Deduct { .. } => 1,
            Penalty::Refer { .. } => 2,
            Penalty::Forfeit => 3,
        };
        match (self, other) {
            (Penalty::Deduct { amount: a, unit: u }, Penalty::Deduct { amount: b, unit: v }) => {
                (u == v).then(|| a.cmp(b))
            }
            _ => Some(rank(self).cmp(&rank(other))),
        }
    }
}

/// The most values a list may hold: literals longer than this are refused by
/// the checker, lists grown past it by the interpreter. Real rules hold tens.
pub const MAX_LIST_LEN: usize = 10_000;

/// A value.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
#[serde(untagged)]
pub enum Value {
    /// A number with a unit.
    Num(Decimal, Unit),
    /// A truth value.
    Bool(bool),
    /// Text.
    Text(String),
    /// A date.
    Date(Date),
    /// Minutes since midnight.
    Time(u16),
    /// A date and minutes since midnight.
    DateTime(Date, u16),
    /// A length of time in seconds.
    Duration(Decimal),
    /// An enum value: enum index, variant index.
    Enum(u32, u32),
    /// A record: record index and field values. A boxed slice, not a vector,
    /// so that a value is 32 bytes (a unit test says so): a record's fields
    /// never change in number once it is made.
    Record(u32, Box<[Value]>),
    /// A penalty.
    Penalty(Penalty),
    /// A route target, resolved to words.
    Route(String),
    /// A rule, by name.
    Rule(String),
    /// A list of values of one type.
    List(Vec<Value>),
}

impl Value {
    /// A key that orders values of one type along a line, for scale ranges.
    pub fn order_key(&self) -> Option<Decimal> {
        match self {
            Value::Num(n, _) | Value::Duration(n) => Some(*n),
            Value::Date(d) => Some(Decimal::from(d.day_number())),
            Value::Time(m) => Some(Decimal::from(*m)),
            Value::DateTime(d, m) => Decimal::from(d.day_number())
                .checked_mul(Decimal::from(1440))
                .and_then(|x| x.checked_add(Decimal::from(*m))),
            _ => None,
        }
    }

    /// The value as an editor would write it.
    pub fn show(&self, program: &Program) -> String {
        match self {
            Value::Num(n, u) => program.show_num(*n, u),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) => format!("{t:?}"),
            Value::Date(d) => d.to_string(),
            Value::Time(m) => format!("{:02}:{:02}", m / 60, m % 60),
            Value::DateTime(d, m) => format!("{d} {:02}:{:02}", m / 60, m % 60),
            Value::Duration(s) => show_duration(*s),
            Value::Enum(e, v) => program
                .enums
                .get(*e as usize)
                .and_then(|info| {
                    info.variants
                        .get(*v as usize)
                        .map(|name| format!("{}.{}", info.name, name))
                })
                .unwrap_or_else(|| "?".into()),
            Value::Record(r, fields) => {
                let info = program.records.get(*r as usize);
                let name = info.map_or("?", |i| i.name.as_str());
                let parts: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let field = info
                            .and_then(|inf| inf.fields.get(i))
                            .map_or("?", |(n, _)| n.as_str());
                        format!("{field}: {}", v.show(program))
                    })
                    .collect();
                format!("{name} {{ {} }}", parts.join(", "))
            }
            Value::Penalty(p) => match p {
                Penalty::Warning => "warning".into(),
                Penalty::Deduct { amount, unit } => {
                    format!("deduct {}", program.show_num(*amount, unit))
                }
                Penalty::Refer { to } => format!("refer {to:?}"),
                Penalty::Forfeit => "forfeit".into(),
            },
            Value::Route(r) => r.clone(),
            Value::Rule(r) => r.clone(),
            Value::List(values) => {
                let shown: Vec<String> = values.iter().map(|v| v.show(program)).collect();
                format!("[{}]", shown.join(", "))
            }
        }
    }
}

/// `2 VP`, `1.5 VP`, `540 SEK/pair`, `3`.
pub fn show_num(n: Decimal, unit: &Unit) -> String {
    let n = n.normalize();
    if unit.is_none() {
        n.to_string()
    } else {
        format!("{n} {unit}")
    }
}

/// `12 min`, `5 min 1 s`, `1 h 30 min`.
pub fn show_duration(seconds: Decimal) -> String {
    // Whole seconds (every duration the grammar can write in h, min and s) are split
    // in machine integers: a decimal division is some hundred instructions, and a
    // check shows every duration bound of every scale row.
    if seconds.scale() == 0
        && let Ok(whole) = i64::try_from(seconds.mantissa())
    {
        return show_whole_seconds(whole);
    }
    show_duration_split_in_decimals(seconds)
}

/// [`show_duration`] of any number of seconds, a fraction or beyond any machine
/// integer included.
fn show_duration_split_in_decimals(seconds: Decimal) -> String {
    let negative = seconds.is_sign_negative() && !seconds.is_zero();
    let s = seconds.abs();
    // Split in decimal arithmetic: durations can exceed any machine integer.
    let hour = Decimal::from(3600);
    let minute = Decimal::from(60);
    let h = (s / hour).trunc();
    let rest = s - h * hour;
    let m = (rest / minute).trunc();
    let sec = rest - m * minute;
    let mut text = String::with_capacity(16);
    if negative {
        text.push('-');
    }
    let start = text.len();
    if !h.is_zero() {
        duration_part(&mut text, start, h, "h");
    }
    if !m.is_zero() {
        duration_part(&mut text, start, m, "min");
    }
    if !sec.is_zero() || text.len() == start {
        duration_part(&mut text, start, sec, "s");
    }
    text
}

/// [`show_duration`] of a whole number of seconds.
fn show_whole_seconds(seconds: i64) -> String {
    use std::fmt::Write;
    let s = seconds.unsigned_abs();
    let (h, m, sec) = (s / 3600, s % 3600 / 60, s % 60);
    let mut text = String::with_capacity(16);
    if seconds < 0 {
        text.push('-');
    }
    let start = text.len();
    for (n, unit) in [(h, "h"), (m, "min"), (sec, "s")] {
        let last = unit == "s" && text.len() == start;
        if n != 0 || last {
            if text.len() > start {
                text.push(' ');
            }
            // Writing to a `String` cannot fail.
            let _ = write!(text, "{n} {unit}");
        }
    }
    text
}

/// Appends `12 min` to a duration's text, after a space unless it is the first
/// part (the text holds only a sign before `start`).
fn duration_part(text: &mut String, start: usize, n: Decimal, unit: &str) {
    use std::fmt::Write;
    if text.len() > start {
        text.push(' ');
    }
    // Writing to a `String` cannot fail.
    let _ = write!(text, "{} {unit}", n.normalize());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_the_document() {
        assert_eq!(show_duration(Decimal::from(720)), "12 min");
        assert_eq!(show_duration(Decimal::from(301)), "5 min 1 s");
        assert_eq!(show_duration(Decimal::from(0)), "0 s");
        assert_eq!(show_duration(Decimal::from(5400)), "1 h 30 min");
        assert_eq!(show_duration(Decimal::from(3601)), "1 h 1 s");
        assert_eq!(show_duration(Decimal::from(-301)), "-5 min 1 s");
        assert_eq!(show_duration(Decimal::new(15, 1)), "1.5 s");
        assert_eq!(show_duration(Decimal::new(-3600, 0)), "-1 h");
        assert_eq!(show_duration(Decimal::new(7200, 1)), "12 min");
        assert_eq!(show_duration(Decimal::new(-0, 0)), "0 s");
        let beyond_i64 = Decimal::from(i64::MAX) + Decimal::ONE;
        assert_eq!(
            show_duration(beyond_i64),
            show_duration_split_in_decimals(beyond_i64)
        );
        for secs in [
            -86_401i64,
            -1,
            0,
            1,
            59,
            60,
            61,
            3599,
            3600,
            3661,
            90_000,
            i64::MAX,
            i64::MIN,
        ] {
            let d = Decimal::from(secs);
            assert_eq!(
                show_duration(d),
                show_duration_split_in_decimals(d),
                "{secs}"
            );
        }
        let huge = Decimal::from_str_exact("359999999999999999999640000").unwrap();
        assert_eq!(show_duration(huge), "99999999999999999999900 h");
    }

    #[test]
    fn a_value_is_four_words() {
        // Values are copied into and out of frames, answers and traces at every
        // call: a quantity (number and unit) with the tag, no more.
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }

    #[test]
    fn weekdays_follow_the_calendar() {
        let d = Date {
            year: 2015,
            month: 7,
            day: 24,
        };
        assert_eq!(d.weekday(), "Fri");
        let d2014 = Date {
            year: 2014,
            month: 8,
            day: 2,
        };
        assert_eq!(d2014.weekday(), "Sat");
    }
}
