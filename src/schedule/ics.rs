//! The programme as an iCalendar file (RFC 5545), written by the `icalendar`
//! crate: one all-day event per stage (over its days), one per competition dated
//! only as a whole (over its days, its undated stages in the description), one
//! event per deadline at its moment, each with the rule's ID, page and section in
//! its description.
//!
//! The output is the same, byte for byte, for the same edition: DTSTAMP is the
//! edition's `updated` date (else the first day of its period), and each UID is
//! made of the stage's or the const's name and the edition's name. Times are
//! floating (local) times, as the document writes them: the edition names no time
//! zone. A text from the edition that holds a control character is written with
//! it drawn as its picture: RFC 5545 allows none in a value but a tab.

use super::{CompetitionDays, Deadline, Item, Programme};
use crate::ir::Date;
use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use icalendar::{Calendar, Component, Event, EventLike};
use std::collections::BTreeSet;

/// The programme as iCalendar text.
pub fn calendar(p: &Programme) -> String {
    let slug = slug(&p.edition);
    let stamp = p
        .updated
        .and_then(naive)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or_else(
            || Utc.timestamp_opt(0, 0).single().unwrap_or_default(),
            |dt| Utc.from_utc_datetime(&dt),
        );
    let mut cal = Calendar::new();
    // The crate writes the calendar's name as it is, line breaks and all: one line.
    cal.name(&text(&p.edition).replace('\n', " "));
    // A stage of several days is listed under each; the calendar has it once.
    let mut seen = BTreeSet::new();
    let stages = p.days.iter().flat_map(|d| &d.items).chain(&p.undated);
    for item in stages {
        if !seen.insert((item.competition.clone(), item.stage.clone())) {
            continue;
        }
        if let Some(event) = stage_event(item, &slug, stamp) {
            cal.push(event);
        }
    }
    for c in &p.competition_days {
        if let Some(event) = competition_event(c, &slug, stamp) {
            cal.push(event);
        }
    }
    for d in &p.deadlines {
        if let Some(event) = deadline_event(d, &slug, stamp) {
            cal.push(event);
        }
    }
    cal.done().to_string()
}

fn naive(d: Date) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(
        i32::from(d.year),
        u32::try_from(d.month).ok()?,
        u32::try_from(d.day).ok()?,
    )
}

/// `Bridgefestivalen 2015` → `bridgefestivalen-2015`.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "bfr".into() } else { out }
}

fn stage_event(item: &Item, slug: &str, stamp: chrono::DateTime<Utc>) -> Option<Event> {
    let first = naive(item.first_day?)?;
    let last = naive(item.last_day?)?;
    let mut lines = Vec::new();
    if let Some(s) = &item.source {
        lines.push(s.to_string());
    }
    lines.push(how(item));
    let summary = match &item.part {
        Some(part) => format!("{}: {} ({part})", item.competition_title, item.title),
        None => format!("{}: {}", item.competition_title, item.title),
    };
    let uid = format!("{}.{}@{slug}", item.competition, item.stage);
    Some(all_day(&uid, stamp, &summary, &lines, (first, last)))
}

/// A competition dated only as a whole: one event over its days, each stage it
/// does not date on a line of the description. The UID's `-days` cannot be a
/// stage's or a const's name, which are identifiers.
fn competition_event(
    c: &CompetitionDays,
    slug: &str,
    stamp: chrono::DateTime<Utc>,
) -> Option<Event> {
    let days = (naive(c.first_day)?, naive(c.last_day)?);
    let mut lines = Vec::new();
    if let Some(s) = &c.source {
        lines.push(s.to_string());
    }
    lines.push("Stages not dated one by one:".to_string());
    for item in &c.items {
        lines.push(format!("{}: {}", item.title, how(item)));
    }
    let uid = format!("{}-days@{slug}", c.competition);
    Some(all_day(&uid, stamp, &c.competition_title, &lines, days))
}

/// How a stage is played, in one line: boards, part of the day, screens, system.
fn how(item: &Item) -> String {
    let mut how = vec![item.boards.clone()];
    if let Some(part) = &item.part {
        how.push(part.clone());
    }
    if let Some(screens) = item.screens {
        how.push(if screens { "screens" } else { "no screens" }.to_string());
    }
    if let Some(system) = &item.system {
        how.push(format!("system level {system}"));
    }
    how.join(", ")
}

/// An all-day event from `first` to `last`, both included.
fn all_day(
    uid: &str,
    stamp: chrono::DateTime<Utc>,
    summary: &str,
    lines: &[String],
    (first, last): (NaiveDate, NaiveDate),
) -> Event {
    let mut event = Event::new();
    event
        .uid(uid)
        .timestamp(stamp)
        .summary(&text(summary))
        .description(&text(&lines.join("\n")))
        .starts(first);
    // An all-day event ends the day after its last (exclusive). After
    // 9999-12-31 there is no four-digit year to write: its length instead
    // (RFC 5545 §3.8.2.5).
    match last.succ_opt().filter(|end| end.year() <= 9999) {
        Some(end) => event.ends(end),
        None => event.add_property(
            "DURATION",
            format!("P{}D", (last - first).num_days().max(0) + 1),
        ),
    };
    event.done()
}

fn deadline_event(d: &Deadline, slug: &str, stamp: chrono::DateTime<Utc>) -> Option<Event> {
    let time = NaiveTime::from_hms_opt(u32::from(d.minute / 60), u32::from(d.minute % 60), 0)?;
    let at = NaiveDateTime::new(naive(d.date)?, time);
    let mut description = format!("Deadline ({})", d.kind);
    if let Some(s) = &d.source {
        description = format!("{s}\n{description}");
    }
    if let Some(years) = &d.outside_years {
        description.push_str(&format!("\nNot in the edition's year {years}"));
    }
    Some(
        Event::new()
            .uid(&format!("{}@{slug}", d.name))
            .timestamp(stamp)
            .summary(&text(&d.what))
            .description(&text(&description))
            .starts(at)
            .ends(at)
            .done(),
    )
}

/// A text as a value may hold it (RFC 5545 §3.3.11: no control character but a
/// tab). The crate writes a line break in a summary or a description as `\n`, so
/// a Windows line break becomes one; every other carriage return and control
/// character is drawn as its picture, as a diagnostic draws it, so the
/// calendar's lines stay the lines it means.
fn text(value: &str) -> String {
    let breaks = value.replace("\r\n", "\n").replace('\r', "\u{240d}");
    crate::source::pictured(&breaks).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{slug, text};

    #[test]
    fn texts_hold_no_control_character_but_a_tab() {
        assert_eq!(
            text("Club\u{1b}[2J's\u{7} Trophy\r\nday\rtwo\tthree\u{7f}"),
            "Club␛[2J's␇ Trophy\nday␍two\tthree␡"
        );
        // A carriage return before a Windows line break is not a line break.
        assert_eq!(text("a\r\r\nb\r"), "a␍\nb␍");
        assert_eq!(text("Spring Open 2031"), "Spring Open 2031");
    }

    #[test]
    fn slugs_are_lowercase_words() {
        assert_eq!(slug("Bridgefestivalen 2015"), "bridgefestivalen-2015");
        assert_eq!(slug("  Å Cup!! "), "cup");
        assert_eq!(slug("åäö"), "bfr");
    }
}
