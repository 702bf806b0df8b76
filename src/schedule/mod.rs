//! The festival's programme and deadlines, from the edition's data only.
//!
//! The programme is the competitions' typed IR: every qualification and knockout
//! stage with its `schedule` (day, part of the day, screens, system level) and its
//! boards. The deadlines are the edition's consts of the record type `Deadline`
//! (`{ kind, what, at: datetime }`) and the time limits its consts of type
//! `TimeLimit` (`{ what, within: duration, after }`): the edition says which of its
//! figures are deadlines by listing them so (`rules/2015/schedule.bfr`), and each
//! keeps the source of the const that lists it. [`ics`] writes it all as
//! iCalendar.

pub mod ics;

use crate::eval::Evaluator;
use crate::ir::competition::{Count, Schedule};
use crate::ir::{Date, Program, RuleBody, SourceInfo, Type, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// The record type whose consts are the deadlines.
pub const DEADLINE_RECORD: &str = "Deadline";
/// The record type whose consts are the time limits.
pub const TIME_LIMIT_RECORD: &str = "TimeLimit";

/// One qualification or knockout stage in the programme.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// The competition's name (`cup`).
    pub competition: String,
    /// The competition's title (`Chairman's Cup`).
    pub competition_title: String,
    /// The stage's name (`cc32`), unique within its competition.
    pub stage: String,
    /// The stage's title (`CC32`).
    pub title: String,
    /// `qualification` or `knockout`.
    pub kind: &'static str,
    /// Its first day (`None`: the edition gives none).
    pub first_day: Option<Date>,
    /// Its last day (the first day for a one-day stage).
    pub last_day: Option<Date>,
    /// The part of the day, in the edition's words.
    pub part: Option<String>,
    /// Boards per match (`32 boards`), or the rule of the field size that gives
    /// them.
    pub boards: String,
    /// Whether it is played with screens.
    pub screens: Option<bool>,
    /// The system level, in the edition's words.
    pub system: Option<String>,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// Sort key within a day: the part of the day's position in its enum (the
    /// edition orders the parts by when they start), then the competition's
    /// place in the edition and the stage's order in it (the qualification 0).
    #[serde(skip)]
    key: (u32, usize, u32),
}

/// A playing day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Day {
    /// The date.
    pub date: Date,
    /// What is played, by part of the day.
    pub items: Vec<Item>,
}

/// A deadline the edition lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Deadline {
    /// The const that lists it; a stable name (the calendar's UID).
    pub name: String,
    /// Its kind, in the edition's words (`anmälan`).
    pub kind: String,
    /// What must be done.
    pub what: String,
    /// When, as the edition writes a date-time.
    pub at_shown: String,
    /// The date.
    pub date: Date,
    /// Minutes after midnight.
    pub minute: u16,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// The edition's years, when the deadline falls outside them (as the
    /// document may write it; `bfr check` warns of such a date where it is
    /// written, W0102, unless it is another document's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_years: Option<String>,
}

/// A time limit that runs from a moment of play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeLimit {
    /// The const that lists it.
    pub name: String,
    /// What it is for.
    pub what: String,
    /// How long, as the edition writes a duration.
    pub within: String,
    /// From which moment.
    pub after: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
}

/// A competition the edition dates as a whole (`first_day` .. `last_day`), with
/// the stages it dates no other way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompetitionDays {
    /// The competition's name.
    pub competition: String,
    /// Its title.
    pub competition_title: String,
    /// Its first day.
    pub first_day: Date,
    /// Its last day (the first for a one-day competition).
    pub last_day: Date,
    /// Where its days come from.
    pub source: Option<SourceInfo>,
    /// Its stages without a day of their own, in the edition's order.
    pub items: Vec<Item>,
}

/// The whole programme.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Programme {
    /// The edition's name.
    pub edition: String,
    /// When the edition was last updated, else the first day of its period (the
    /// calendar's DTSTAMP).
    pub updated: Option<Date>,
    /// Playing days in order.
    pub days: Vec<Day>,
    /// Stages dated only by their competition's days, by competition.
    pub competition_days: Vec<CompetitionDays>,
    /// Stages the edition gives no day for, neither their own nor their
    /// competition's.
    pub undated: Vec<Item>,
    /// Deadlines in time order.
    pub deadlines: Vec<Deadline>,
    /// Time limits in the edition's order.
    pub time_limits: Vec<TimeLimit>,
}

/// Why a programme could not be made: the edition's `Deadline` or `TimeLimit`
/// record lacks a field the programme reads, or a listed const cannot be computed.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleError {
    /// In words.
    pub message: String,
    /// The const or record at fault.
    pub at: crate::source::Span,
}

/// Builds the programme of a checked edition.
pub fn programme(program: &Program) -> Result<Programme, ScheduleError> {
    let mut days: BTreeMap<Date, Vec<Item>> = BTreeMap::new();
    let mut undated = Vec::new();
    let mut competition_days: Vec<CompetitionDays> = Vec::new();
    for item in items(program) {
        match (item.first_day, item.last_day) {
            (Some(first), Some(last)) => {
                for date in dates(first, last) {
                    days.entry(date).or_default().push(item.clone());
                }
            }
            _ => match competition_days
                .iter_mut()
                .find(|c| c.competition == item.competition)
            {
                Some(within) => within.items.push(item),
                None => match days_of(program, &item.competition) {
                    Some(mut within) => {
                        within.items.push(item);
                        competition_days.push(within);
                    }
                    None => undated.push(item),
                },
            },
        }
    }
    let days = days
        .into_iter()
        .map(|(date, mut items)| {
            items.sort_by_key(|i| i.key);
            Day { date, items }
        })
        .collect();
    let mut deadlines = deadlines(program)?;
    deadlines.sort_by(|a, b| (a.date, a.minute, &a.name).cmp(&(b.date, b.minute, &b.name)));
    Ok(Programme {
        edition: program
            .edition
            .as_ref()
            .map_or_else(String::new, |e| e.name.clone()),
        updated: program
            .edition
            .as_ref()
            .and_then(|e| e.updated.or(e.period.map(|(first, _)| first))),
        days,
        competition_days,
        undated,
        deadlines,
        time_limits: time_limits(program)?,
    })
}

/// The days of competition `name`, when the edition dates it as a whole; no
/// stages yet.
fn days_of(program: &Program, name: &str) -> Option<CompetitionDays> {
    let c = program.competitions.iter().find(|c| c.name == name)?;
    let (first_day, last_day) = c.days()?;
    Some(CompetitionDays {
        competition: c.name.clone(),
        competition_title: c.title.clone(),
        first_day,
        last_day,
        source: c.days_source.clone(),
        items: Vec::new(),
    })
}

/// Every day from `first` to `last`, both included.
fn dates(first: Date, last: Date) -> Vec<Date> {
    let (Some(mut d), Some(end)) = (first.civil(), last.civil()) else {
        return vec![first];
    };
    let mut out = Vec::new();
    while d <= end {
        out.push(Date::from_civil(d));
        match d.tomorrow() {
            Ok(next) => d = next,
            Err(_) => break,
        }
    }
    out
}

/// The stages of every competition, qualification first.
fn items(program: &Program) -> Vec<Item> {
    let mut out = Vec::new();
    for (ci, c) in program.competitions.iter().enumerate() {
        if let Some(q) = &c.qualification {
            out.push(item(
                program,
                c,
                (&q.name, &q.title, "qualification"),
                &q.schedule,
                q.boards,
                q.source.clone(),
                (ci, 0),
            ));
        }
        for s in &c.stages {
            out.push(item(
                program,
                c,
                (&s.name, &s.title, "knockout"),
                &s.schedule,
                s.boards,
                s.source.clone(),
                (ci, s.order),
            ));
        }
    }
    out
}

fn item(
    program: &Program,
    c: &crate::ir::Competition,
    (stage, title, kind): (&str, &str, &'static str),
    s: &Schedule,
    boards: Count,
    source: Option<SourceInfo>,
    // The competition's place in the edition, the stage's order in it.
    order: (usize, u32),
) -> Item {
    let part_rank = match s.part {
        Some(Value::Enum(_, v)) => v,
        _ => u32::MAX,
    };
    Item {
        competition: c.name.clone(),
        competition_title: c.title.clone(),
        stage: stage.to_string(),
        title: title.to_string(),
        kind,
        first_day: s.day,
        last_day: s.last_day.or(s.day),
        part: s.part.as_ref().map(|v| words(program, v)),
        boards: match boards {
            Count::Fixed(n) => format!("{n} boards"),
            Count::OfField(rule) => program.rules.get(rule as usize).map_or_else(
                || "boards by the field size".to_string(),
                |r| format!("boards by the field size ({})", r.name),
            ),
        },
        screens: s.screens,
        system: s.system.as_ref().map(|v| words(program, v)),
        source,
        key: (part_rank, order.0, order.1),
    }
}

/// An enum value by its label (`förmiddag`), else by its name; others as written.
pub fn words(program: &Program, v: &Value) -> String {
    match v {
        Value::Enum(e, i) => program
            .enums
            .get(*e as usize)
            .and_then(|info| {
                let label = info.labels.get(*i as usize).cloned().flatten();
                label.or_else(|| info.variants.get(*i as usize).cloned())
            })
            .unwrap_or_else(|| v.show(program)),
        Value::Text(t) => t.clone(),
        _ => v.show(program),
    }
}

/// A field the programme reads: its name, the types it may have, and those types
/// in words.
type Field = (&'static str, fn(&Type) -> bool, &'static str);

/// The consts of record type `record`, evaluated, with the record's fields by name.
fn listed<'p>(
    program: &'p Program,
    record: &str,
    wanted: &[Field],
) -> Result<Vec<(&'p crate::ir::Rule, Vec<Value>)>, ScheduleError> {
    let Some((ri, info)) = program
        .records
        .iter()
        .enumerate()
        .find(|(_, r)| r.name == record)
    else {
        return Ok(Vec::new());
    };
    let mut positions = Vec::new();
    for (field, fits, shown) in wanted {
        let found = info
            .fields
            .iter()
            .position(|(n, ty)| n == field && fits(ty));
        let Some(p) = found else {
            let span = program
                .rules
                .iter()
                .find(|r| r.ret == Type::Record(ri as u32))
                .map(|r| r.span)
                .unwrap_or_default();
            return Err(ScheduleError {
                message: format!(
                    "the edition's record `{record}` needs a field `{field}: {shown}` for the programme"
                ),
                at: span,
            });
        };
        positions.push(p);
    }
    let mut out = Vec::new();
    for rule in &program.rules {
        let RuleBody::Const { value } = &rule.body else {
            continue;
        };
        if rule.ret != Type::Record(ri as u32) {
            continue;
        }
        let computed = Evaluator::new(program).eval_closed(value);
        let Ok(Value::Record(_, fields)) = computed else {
            return Err(ScheduleError {
                message: format!("`{}` cannot be computed for the programme", rule.name),
                at: rule.span,
            });
        };
        let picked = positions
            .iter()
            .filter_map(|p| fields.get(*p).cloned())
            .collect();
        out.push((&**rule, picked));
    }
    Ok(out)
}

fn deadlines(program: &Program) -> Result<Vec<Deadline>, ScheduleError> {
    let wanted: [Field; 3] = [
        ("kind", |t| matches!(t, Type::Enum(_)), "an enum"),
        ("what", |t| *t == Type::Text, "text"),
        ("at", |t| *t == Type::DateTime, "datetime"),
    ];
    let mut out = Vec::new();
    for (rule, fields) in listed(program, DEADLINE_RECORD, &wanted)? {
        if let [kind, what, at @ Value::DateTime(date, minute)] = fields.as_slice() {
            out.push(Deadline {
                name: rule.name.clone(),
                kind: words(program, kind),
                what: words(program, what),
                at_shown: at.show(program),
                date: *date,
                minute: *minute,
                source: rule.source.clone(),
                outside_years: program
                    .edition
                    .as_ref()
                    .and_then(|e| e.period)
                    .and_then(|period| date.outside_years(period)),
            });
        }
    }
    Ok(out)
}

fn time_limits(program: &Program) -> Result<Vec<TimeLimit>, ScheduleError> {
    let wanted: [Field; 3] = [
        ("what", |t| *t == Type::Text, "text"),
        ("within", |t| *t == Type::Duration, "duration"),
        ("after", |t| *t == Type::Text, "text"),
    ];
    let mut out = Vec::new();
    for (rule, fields) in listed(program, TIME_LIMIT_RECORD, &wanted)? {
        if let [what, within, after] = fields.as_slice() {
            out.push(TimeLimit {
                name: rule.name.clone(),
                what: words(program, what),
                within: within.show(program),
                after: words(program, after),
                source: rule.source.clone(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::programme;

    /// Two competitions' stages on one day and part, the first's stage
    /// numbered 1500 (once past the 1000 a competition's numbers had, so
    /// the second's came first).
    #[test]
    fn a_day_lists_the_competitions_in_their_order_whatever_the_stage_numbers() {
        let stage = |competition: &str, order: u32| {
            format!(
                "competition {competition} \"{competition}\" ref X-A p.1 \"A\" {{\n\
                 stage final \"Final\" ref X-A p.1 \"A\" {{\n\
                 teams = 2\nboards = 16\ndraw = Draw.Fixed\norder = {order}\n\
                 day = 2030-06-01\npart = Part.Morning\n\
                 winners -> place 1\nlosers -> place 2\n}}\n}}\n"
            )
        };
        let text = format!(
            "enum Draw {{ Fixed }}\nenum Part {{ Morning }}\n{}{}",
            stage("alpha", 1500),
            stage("beta", 1)
        );
        let loaded = crate::edition::load_texts(vec![("e.bfr".into(), text.into_bytes())]);
        let program = &loaded.checked.as_ref().expect("the edition checks").program;
        let day = &programme(program).unwrap().days[0];
        let order: Vec<&str> = day.items.iter().map(|i| i.competition.as_str()).collect();
        assert_eq!(order, ["alpha", "beta"]);
    }
}
