//! `bfr schedule`: the programme day by day and every deadline, as text, JSON or
//! an iCalendar file.

use super::commands::load_cached;
use super::output::Output;
use super::output::{json_line, stdout};
use super::replace::replace_file;
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Date;
use crate::schedule::{self, CompetitionDays, Item, Programme};
use crate::source::printable_name;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `bfr schedule EDITION [--ics FILE]`
pub fn schedule(out: &Output, path: &Path, ics: Option<&PathBuf>) -> u8 {
    let loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = &loaded.checked else {
        return EXIT_IO;
    };
    let programme = match schedule::programme(&checked.program) {
        Ok(p) => p,
        Err(e) => {
            let mut diags = Diagnostics::default();
            diags.push(
                Diagnostic::error("E1101", e.message, e.at)
                    .with_label("the programme reads this")
                    .with_help("give the record the fields docs/schedule.md lists"),
            );
            out.diagnostics(&diags, &loaded.sources);
            if out.format == Format::Json {
                json_line(&serde_json::json!({
                    "errors": super::output::diagnostics_json(&diags, &loaded.sources)
                }));
            }
            return EXIT_FOUND;
        }
    };
    if let Some(file) = ics {
        // Whole or not at all: a calendar cut short must not stand in for the full one.
        let text = schedule::ics::calendar(&programme);
        if let Err(e) = replace_file(file, text.as_bytes()) {
            return out.io_error(&e);
        }
    }
    match out.format {
        Format::Text => stdout(&render(&programme)),
        Format::Json => json_line(&serde_json::to_value(&programme).unwrap_or_default()),
    }
    EXIT_OK
}

/// The programme for people.
fn render(p: &Programme) -> String {
    // An edition without a header has no name to put first.
    let mut s = if p.edition.is_empty() {
        "The programme\n".to_string()
    } else {
        format!("{}: the programme\n", p.edition)
    };
    days(p, &mut s);
    if !p.undated.is_empty() {
        s.push_str("\nNot dated by the edition\n");
        for item in &p.undated {
            let _ = writeln!(s, "  {:<22} {}", "", line(item));
        }
    }
    if !p.deadlines.is_empty() {
        s.push_str("\nDeadlines\n");
        for d in &p.deadlines {
            let source = d
                .source
                .as_ref()
                .map_or_else(String::new, |x| x.to_string());
            let outside = d.outside_years.as_ref().map_or_else(String::new, |years| {
                format!("  (not in the edition's year {years})")
            });
            let _ = writeln!(
                s,
                "  {}  {:<10} {}  [{source}]{outside}",
                d.at_shown,
                d.kind,
                printable_name(&d.what)
            );
        }
    }
    if !p.time_limits.is_empty() {
        s.push_str("\nTime limits\n");
        for t in &p.time_limits {
            let source = t
                .source
                .as_ref()
                .map_or_else(String::new, |x| x.to_string());
            let _ = writeln!(
                s,
                "  {}: within {} after {}  [{source}]",
                printable_name(&t.what),
                t.within,
                t.after
            );
        }
    }
    s
}

/// The programme day by day. A competition dated as a whole comes before its
/// first day, and each of its days that has dated stages says it is played then
/// too; one played on a single day is listed within that day, which has a
/// heading of its own even when no stage is dated on it.
fn days(p: &Programme, s: &mut String) {
    let mut whole: Vec<&CompetitionDays> = p.competition_days.iter().collect();
    whole.sort_by_key(|c| c.first_day);
    let items_on: BTreeMap<Date, &[Item]> = p.days.iter().map(|d| (d.date, &d.items[..])).collect();
    let one_day = whole.iter().filter(|c| c.first_day == c.last_day);
    let dates: BTreeSet<Date> = items_on
        .keys()
        .copied()
        .chain(one_day.map(|c| c.first_day))
        .collect();
    let mut listed = 0;
    for date in dates {
        while let Some(within) = whole.get(listed).filter(|c| c.first_day <= date) {
            // A competition of this one day is listed within it: a block of
            // its own would repeat the date.
            if !is_one_day_on(within, date) {
                competition_days(within, s);
            }
            listed += 1;
        }
        let _ = writeln!(s, "\n{date}");
        for item in items_on.get(&date).copied().unwrap_or_default() {
            let part = match (&item.part, item.first_day, item.last_day) {
                (Some(part), _, _) => part.clone(),
                (None, Some(first), Some(last)) => day_of(first, last, date),
                _ => String::new(),
            };
            let _ = writeln!(s, "  {part:<22} {}", line(item));
        }
        for within in &whole[..listed] {
            if is_one_day_on(within, date) {
                let _ = writeln!(
                    s,
                    "  {:<22} {}: stages not dated one by one{}",
                    "",
                    printable_name(&within.competition_title),
                    days_cited(within)
                );
                competition_items(within, s);
            } else if items_on.contains_key(&date)
                && (within.first_day..=within.last_day).contains(&date)
            {
                // Said on the days with dated stages, as its block above says
                // the rest: a day listed only for a one-day competition does
                // not single out one day of this one.
                let _ = writeln!(
                    s,
                    "  {:<22} {}: stages not dated one by one, listed above{}",
                    day_of(within.first_day, within.last_day, date),
                    printable_name(&within.competition_title),
                    days_cited(within)
                );
            }
        }
    }
    for within in &whole[listed..] {
        competition_days(within, s);
    }
}

/// A competition dated as a whole: its days, then the stages it does not date
/// one by one.
fn competition_days(within: &CompetitionDays, s: &mut String) {
    let _ = writeln!(
        s,
        "\n{}: {}, stages not dated one by one{}",
        within.first_day.through(within.last_day),
        printable_name(&within.competition_title),
        days_cited(within)
    );
    competition_items(within, s);
}

fn competition_items(within: &CompetitionDays, s: &mut String) {
    for item in &within.items {
        let _ = writeln!(s, "  {:<22} {}", "", line(item));
    }
}

/// A competition dated as a whole whose one day is `date`.
fn is_one_day_on(within: &CompetitionDays, date: Date) -> bool {
    within.first_day == date && within.last_day == date
}

/// Which of several days `date` is ("day 2 of 3"); nothing for one day.
fn day_of(first: Date, last: Date, date: Date) -> String {
    if first == last {
        return String::new();
    }
    let number = |d: Date| d.day_number() - first.day_number() + 1;
    format!("day {} of {}", number(date), number(last))
}

/// Where a competition's days come from, as a line ends with it.
fn days_cited(within: &CompetitionDays) -> String {
    within
        .source
        .as_ref()
        .map_or_else(String::new, |x| format!("  [{x}]"))
}

fn line(item: &Item) -> String {
    let mut how = vec![item.boards.clone()];
    if let Some(screens) = item.screens {
        how.push(if screens { "screens" } else { "no screens" }.to_string());
    }
    if let Some(system) = &item.system {
        how.push(format!("system level {system}"));
    }
    let source = item
        .source
        .as_ref()
        .map_or_else(String::new, |x| format!("  [{x}]"));
    format!(
        "{}: {} — {}{source}",
        printable_name(&item.competition_title),
        printable_name(&item.title),
        how.join(", ")
    )
}
