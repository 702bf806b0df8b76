//! `bfr diff`: two editions loaded and checked, their differences shown as text
//! (coloured on a terminal), JSON, or counts per file.

use super::commands::load_cached;
use super::output::Output;
use super::output::{counted, json_line, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::diag::Colour;
use crate::diff::{self, Detail, Diff, Item, Side, Status, words};
use std::path::Path;

/// What to show.
pub struct DiffOptions {
    /// Counts per file instead of the changes.
    pub stat: bool,
    /// Simulated events per competition, if any.
    pub simulate: Option<u64>,
    /// Their field, when given.
    pub teams: Option<u32>,
}

/// `bfr diff OLD NEW`: exits 1 when the editions differ, as `diff` does (and
/// every bfr command that finds something), 0 when they do not.
pub fn diff(out: &Output, old: &Path, new: &Path, opts: &DiffOptions) -> u8 {
    let a = match load_cached(out, old) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let b = match load_cached(out, new) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (Some(ca), Some(cb)) = (&a.checked, &b.checked) else {
        return EXIT_IO;
    };
    let side = |p, sources, path: &Path| Side {
        program: p,
        sources,
        root: path.display().to_string(),
    };
    let mut d = diff::diff(
        &side(&ca.program, &a.sources, old),
        &side(&cb.program, &b.sources, new),
    );
    if let Some(n) = opts.simulate {
        d.simulated = diff::divergence::simulate(&ca.program, &cb.program, n, opts.teams);
    }
    match (out.format, opts.stat) {
        (Format::Json, true) => json_line(&stat_json(&d)),
        (Format::Json, false) => match serde_json::to_value(&d) {
            Ok(v) => json_line(&v),
            Err(_) => return EXIT_IO,
        },
        (Format::Text, true) => stdout(&stat_text(&d, old, new)),
        (Format::Text, false) if out.colour == Colour::On => super::output::stdout_painted(
            &text(&d, old, new, Colour::On),
            &text(&d, old, new, Colour::Off),
        ),
        (Format::Text, false) => stdout(&text(&d, old, new, Colour::Off)),
    }
    if !d.is_empty() { EXIT_FOUND } else { EXIT_OK }
}

/// The counts per file as JSON (`--stat`), with `unfinished` when the diff's
/// evaluations ran out of steps.
fn stat_json(d: &Diff) -> serde_json::Value {
    let mut counts = serde_json::json!({
        "old": d.old, "new": d.new, "calendar": d.calendar, "stat": d.stat(), "blocks": d.blocks.len()
    });
    if let (Some(u), Some(fields)) = (&d.unfinished, counts.as_object_mut()) {
        fields.insert("unfinished".into(), serde_json::json!(u));
    }
    counts
}

fn paint(text: &str, code: &str, colour: Colour) -> String {
    if colour == Colour::On {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn heading(d: &Diff, old: &Path, new: &Path) -> String {
    format!(
        "--- {} ({})\n+++ {} ({})\n",
        old.display(),
        d.old,
        new.display(),
        d.new
    )
}

/// The changes as text, by file.
pub fn text(d: &Diff, old: &Path, new: &Path, colour: Colour) -> String {
    let mut out = heading(d, old, new);
    if d.is_empty() {
        out.push_str("no differences\n");
        return out;
    }
    if let Some(shift) = &d.calendar {
        out.push_str(&format!(
            "calendar: {}; below, the old edition's dates are shown so moved, and only dates that moved otherwise are listed\n",
            shift.line()
        ));
    }
    if !d.header.is_empty() {
        out.push_str("\nedition header\n");
        for detail in &d.header {
            out.push_str(&format!("      {}\n", detail_line(detail, colour)));
        }
    }
    if !d.blocks.is_empty() {
        out.push_str("\nentries and federation blocks\n");
        for detail in &d.blocks {
            out.push_str(&format!("      {}\n", detail_line(detail, colour)));
        }
    }
    for file in &d.files {
        out.push_str(&format!("\n{}\n", paint(&file.file, "1", colour)));
        for item in &file.items {
            out.push_str(&format!("  {}\n", item_line(item, colour)));
            // A renamed rule or one listed for its doc comment is not
            // "unchanged" before the rules it calls.
            let alone = item.status != Status::Renamed;
            for (k, detail) in item.details.iter().enumerate() {
                let line = detail_line_after(detail, colour, alone && k == 0);
                out.push_str(&format!("      {line}\n"));
            }
        }
    }
    for s in &d.simulated {
        out.push_str(&format!("\n{}\n", simulated(s)));
    }
    let stat = d.stat();
    let items: usize = stat
        .iter()
        .map(|s| s.added + s.removed + s.changed + s.renamed)
        .sum();
    let outside: String = outside_files(d)
        .iter()
        .map(|part| format!("{part}, "))
        .collect();
    out.push_str(&format!(
        "\n{outside}{} in {}\n",
        counted(items, "changed item"),
        counted(stat.len(), "file")
    ));
    if let Some(u) = &d.unfinished {
        out.push_str(&unfinished_line(u));
    }
    out
}

/// The changes counted apart from the files' items: the edition header's and
/// the entries and federation blocks'.
fn outside_files(d: &Diff) -> Vec<String> {
    let mut parts = Vec::new();
    if !d.header.is_empty() {
        parts.push(format!(
            "{} to the edition header",
            counted(d.header.len(), "change")
        ));
    }
    if !d.blocks.is_empty() {
        parts.push(format!(
            "{} to the entries and federation blocks",
            counted(d.blocks.len(), "change")
        ));
    }
    parts
}

/// A competition's simulated events, where they part.
fn simulated(s: &diff::divergence::Divergence) -> String {
    let mut out = format!(
        "simulated {}: {} of {} with {} part (seeds 1–{})",
        s.competition,
        s.diverged,
        counted(s.events, "event"),
        counted(s.teams, "team"),
        s.events
    );
    if let Some(f) = &s.first {
        out.push_str(&format!(
            "\n      first, seed {}: {}: {} → {}",
            f.seed, f.at, f.old, f.new
        ));
    }
    out
}

fn item_line(item: &Item, colour: Colour) -> String {
    let (mark, code) = match item.status {
        Status::Added => ("+", "32"),
        Status::Removed => ("-", "31"),
        Status::Changed => ("~", "33"),
        Status::Renamed => (">", "36"),
    };
    let kind = if item.reading {
        "reading"
    } else {
        item.kind.word()
    };
    let mut line = format!("{mark} {kind} {}", item.name);
    if let Some(was) = &item.old_name {
        line.push_str(&format!(" (renamed from {was})"));
    }
    let line = paint(&line, code, colour);
    match &item.source {
        Some(s) => {
            let page = s
                .pages
                .as_ref()
                .map_or(String::new(), |p| format!(" p.{p}"));
            format!("{line}  [{}{page}]", s.id)
        }
        None => line,
    }
}

fn detail_line(detail: &Detail, colour: Colour) -> String {
    detail_line_after(detail, colour, true)
}

/// One detail's line; `first` when no detail of its item comes before it (a
/// rule listed only for the rules it calls is otherwise unchanged).
fn detail_line_after(detail: &Detail, colour: Colour, first: bool) -> String {
    match detail {
        Detail::Changed { what, old, new } => format!("{what}: {old} → {new}"),
        Detail::Added { what, value } => paint(&format!("+ {what}: {value}"), "32", colour),
        Detail::Removed { what, value } => paint(&format!("- {what}: {value}"), "31", colour),
        Detail::Words { what, words } => {
            // A doc comment's lines are one paragraph.
            let text = words::inline(words).replace('\n', " ");
            format!("{what}: {text}")
        }
        Detail::Through { rules, unlisted } => {
            let more = match unlisted {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            let lead = if first {
                "unchanged, but calls"
            } else {
                "calls"
            };
            format!("{lead} changed {}{more}", rules.join(", "))
        }
        Detail::Answers {
            input,
            sample: None,
            old,
            new,
        } => format!("answer {input}: {old} → {new}"),
        Detail::Answers {
            input,
            sample: Some(at),
            old,
            new,
        } => format!("answers differ {input}, e.g. at {at}: {old} → {new}"),
        Detail::More { answers: 1 } => "and 1 more input combination".to_string(),
        Detail::More { answers } => format!("and {answers} more input combinations"),
        Detail::Unfinished => {
            "answers not all compared: the diff ran out of evaluation steps (see the end)".into()
        }
    }
}

/// What was not compared when the diff's evaluations ran out of steps.
fn unfinished_line(u: &diff::Unfinished) -> String {
    let mut parts = Vec::new();
    if u.changed > 0 {
        parts.push(format!("{} (marked)", counted(u.changed, "changed rule")));
    }
    if u.callers > 0 {
        parts.push(format!(
            "{} calling changed rules",
            counted(u.callers, "unchanged rule")
        ));
    }
    format!(
        "not every answer compared: this diff stops evaluating after {} steps, before all the answers of {}\n",
        crate::eval::show_count(u.steps),
        parts.join(" and ")
    )
}

/// Counts of changed items per file, and a total.
pub fn stat_text(d: &Diff, old: &Path, new: &Path) -> String {
    let mut out = heading(d, old, new);
    if let Some(shift) = &d.calendar {
        out.push_str(&format!("calendar: {}\n", shift.line()));
    }
    let stat = d.stat();
    let width = stat
        .iter()
        .map(|s| s.file.chars().count())
        .max()
        .unwrap_or(0)
        .max("total".len());
    out.push_str(&format!(
        "{:<width$}  added  removed  changed  renamed\n",
        "file"
    ));
    let mut total = [0usize; 4];
    for s in &stat {
        let row = [s.added, s.removed, s.changed, s.renamed];
        for (t, n) in total.iter_mut().zip(row) {
            *t += n;
        }
        out.push_str(&stat_row(&s.file, row, width));
    }
    out.push_str(&stat_row("total", total, width));
    let outside = outside_files(d);
    if !outside.is_empty() {
        out.push_str(&format!("and {}\n", outside.join(" and ")));
    }
    if let Some(u) = &d.unfinished {
        out.push_str(&unfinished_line(u));
    }
    out
}

fn stat_row(name: &str, n: [usize; 4], width: usize) -> String {
    format!(
        "{name:<width$}  {:>5}  {:>7}  {:>7}  {:>7}\n",
        n[0], n[1], n[2], n[3]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::load_texts;

    /// A rule whose every answer takes a few thousand steps, changed.
    fn edition(values: [u8; 2]) -> crate::edition::Loaded {
        let [a, b] = values;
        let text = format!(
            "fn slow(x: number) -> number = sum(range(1, 2000)) * 0 + (if x < 10 then {a} else {b})\n\
             fn over(x: number) -> number = if x < 5 then slow(x) else 0\n"
        );
        load_texts(vec![("r.bfr".into(), text.into_bytes())])
    }

    #[test]
    fn a_diff_cut_short_marks_the_rule_and_says_so_at_the_end() {
        let (a, b) = (edition([1, 2]), edition([3, 4]));
        let (Some(ca), Some(cb)) = (&a.checked, &b.checked) else {
            panic!("both editions check");
        };
        let side = |program, sources| Side {
            program,
            sources,
            root: String::new(),
        };
        let d = diff::diff_within(
            &side(&ca.program, &a.sources),
            &side(&cb.program, &b.sources),
            5_000,
        );
        let (old, new) = (Path::new("old"), Path::new("new"));
        let shown = text(&d, old, new, Colour::Off);
        assert!(
            shown.contains(
                "      answers not all compared: the diff ran out of evaluation steps (see the end)\n"
            ),
            "{shown}"
        );
        assert!(
            shown.ends_with(
                "not every answer compared: this diff stops evaluating after 5,000 steps, \
                 before all the answers of 1 changed rule (marked) and 1 unchanged rule \
                 calling changed rules\n"
            ),
            "{shown}"
        );
        let counts = stat_text(&d, old, new);
        assert!(
            counts.ends_with("and 1 unchanged rule calling changed rules\n"),
            "{counts}"
        );
        assert_eq!(
            stat_json(&d)["unfinished"],
            serde_json::json!({"steps": 5_000, "changed": 1, "callers": 1})
        );
        let whole = diff::diff(
            &side(&ca.program, &a.sources),
            &side(&cb.program, &b.sources),
        );
        assert!(stat_json(&whole).get("unfinished").is_none());
        assert!(!text(&whole, old, new, Colour::Off).contains("not all compared"));
    }
}
