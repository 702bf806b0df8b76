//! `bfr seed` and `bfr vacancies`: the edition's seeding and vacancy rules on a
//! file, shown as figures and tables (text, JSON, CSV), with the rule IDs.

use super::commands::load_cached;
use super::entries::csv_cell;
use super::output::Output;
use super::output::{diagnostics_json, input_warnings, json_line, refused, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::diag::{Diagnostic, Diagnostics};
use crate::edition;
use crate::federation::{self, CODES, Call, Shown, Table};
use crate::ir::Type;
use crate::source::Sources;
use std::fmt::Write as _;
use std::path::Path;

/// The key of the edition's `federation` block naming the seeding rule.
pub const SEED_KEY: &str = "seeding";
/// The key naming the vacancy rule.
pub const VACANCY_KEY: &str = "vacancies";

/// What a command reads and how it shows it.
pub struct Command<'a> {
    /// The key of the edition's `federation` block that names the rule.
    pub key: &'a str,
    /// The discipline, if the command takes one (the rule's first parameter).
    pub discipline: Option<&'a str>,
    /// What the file is, in words.
    pub what: &'a str,
    /// The title over the output, in bfr's words; the rule's section of the
    /// document follows it (`seeding: Seedning av startfältet i SM Par Semifinal`).
    pub title: &'a str,
}

/// Runs `command` on `file` of edition `path`; `csv` for `--format csv`.
pub fn run(out: &Output, path: &Path, command: &Command, file_path: &Path, csv: bool) -> u8 {
    let mut loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = loaded.checked.take() else {
        return EXIT_IO;
    };
    let what = command.what.trim_start_matches("a ");
    let text = match read_text(out, file_path, &mut loaded.sources, ("E1110", what)) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let program = &checked.program;
    // The rule's name, for messages and the JSON (`federation::call` reports a
    // rule the edition does not name).
    let rule_name = program
        .command_rule(command.key)
        .map_or(command.key, |(_, r)| r.name.as_str());
    let mut given = Vec::new();
    if let Some(d) = command.discipline {
        let first = program
            .command_rule(command.key)
            .and_then(|(_, r)| r.params.first().map(|(_, t)| t.clone()));
        match first {
            Some(Type::Enum(e)) => match federation::enum_value(program, e, d) {
                Some(v) => given.push(v),
                None => {
                    stderr(&format!(
                        "error: `{d}` is not a discipline of `{}`; the edition has: {}\n",
                        rule_name,
                        federation::variants(program, e).join(", ")
                    ));
                    return 2;
                }
            },
            // The rule is missing: `federation::call` says so.
            None => {}
            Some(_) => {
                let span = program
                    .command_rule(command.key)
                    .map(|(_, r)| r.span)
                    .unwrap_or_default();
                let mut diags = Diagnostics::default();
                diags.push(
                    Diagnostic::error(
                        CODES.rule,
                        format!(
                            "the edition's `{rule_name}` must {}",
                            program
                                .command_rule(command.key)
                                .and_then(|(_, r)| crate::ir::commands::misfit(command.key, r))
                                .unwrap_or("take what the command passes")
                        ),
                        span,
                    )
                    .with_label("this command calls this rule"),
                );
                out.diagnostics(&diags, &loaded.sources);
                return EXIT_FOUND;
            }
        }
    }
    let file = loaded
        .sources
        .add(file_path.display().to_string(), text.as_str());
    let call = Call {
        key: command.key,
        given,
        what: command.what,
        doc: "docs/federation.md",
        codes: CODES,
    };
    let warnings = input_warnings(&text, file);
    match federation::call(program, &call, &text, file) {
        Ok(called) => {
            let shown = federation::show(program, &called.value);
            out.diagnostics(&warnings, &loaded.sources);
            if csv {
                super::output::stdout_data(&render_csv(&shown));
            } else if out.format == Format::Json {
                let mut v = serde_json::json!({
                    "rule": rule_name,
                    "figures": shown.figures,
                    "tables": shown.tables,
                    "rule_ids": called.rule_ids,
                    "trace": called.trace,
                    "diagnostics": diagnostics_json(&warnings, &loaded.sources),
                });
                if called.trace_left_out > 0 {
                    v["trace_left_out"] = called.trace_left_out.into();
                }
                json_line(&v);
            } else {
                let section = program
                    .command_rule(command.key)
                    .and_then(|(_, r)| r.source.as_ref())
                    .and_then(|s| s.section.as_deref());
                let title = match section {
                    Some(s) => format!("{}: {s}", command.title),
                    None => command.title.to_string(),
                };
                stdout(&render(&title, &shown, &called.rule_ids));
            }
            EXIT_OK
        }
        Err(d) => refused(out, warnings, d, &loaded.sources),
    }
}

/// The text of the command's file (`what`: "pairs file"); an I/O failure is
/// exit 3, text that is not UTF-8 the error `code` of the command's unreadable
/// file (the byte at fault shown), exit 1.
pub fn read_text(
    out: &Output,
    path: &Path,
    sources: &mut Sources,
    (code, what): (&'static str, &str),
) -> Result<String, u8> {
    let bytes = edition::read_named(path).map_err(|e| out.io_error(&e))?;
    String::from_utf8(bytes).map_err(|e| {
        let name = path.display().to_string();
        let d = crate::diag::not_utf8(code, &name, e.as_bytes(), sources, what);
        refused(out, Diagnostics::default(), d, sources)
    })
}

/// Figures as `name: value` lines, then each table with its columns aligned.
fn render(title: &str, shown: &Shown, rule_ids: &[String]) -> String {
    let mut s = format!("{title}\n");
    if !shown.figures.is_empty() {
        s.push('\n');
    }
    for (name, value) in &shown.figures {
        let _ = writeln!(s, "{name}: {value}");
    }
    for t in &shown.tables {
        s.push('\n');
        if !t.name.is_empty() {
            let _ = writeln!(s, "{}:", t.name);
        }
        if t.rows.is_empty() {
            s.push_str("  (none)\n");
        } else {
            s.push_str(&render_table(&t.columns, &t.rows));
        }
    }
    let _ = writeln!(s, "\nrules: {}", rule_ids.join(", "));
    s
}

/// The header and rows as text columns ([`super::table::render`]), each long
/// decimal shortened ([`shortened`]).
pub fn render_table(columns: &[String], rows: &[Vec<String>]) -> String {
    let mut all = Vec::with_capacity(rows.len() + 1);
    all.push(columns.to_vec());
    all.extend(shortened(rows));
    super::table::render(&all, "  ", " ")
}

/// Decimals shown to people have at least this many places.
const SHOWN_PLACES: u32 = 4;

/// The rows with each decimal of more than [`SHOWN_PLACES`] places (a ratio
/// such as 73 × 11 / 77 has 27) rounded and marked `…`, to as many places as
/// tell the column's values apart: two values that differ still look different,
/// so a place decided by the size of the decimals can be read off the table. CSV
/// and JSON keep every place.
fn shortened(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    let decimal = |cell: &str| rust_decimal::Decimal::from_str_exact(cell).ok();
    let mut rows = rows.to_vec();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    for column in 0..width {
        let exact: Vec<(usize, rust_decimal::Decimal)> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, decimal(r.get(column)?)?)))
            .collect();
        // Short values count too: `0.4286` beside `0.42857…` must not look the same.
        let places = places_apart(exact.iter().map(|(_, d)| *d));
        for (i, d) in exact.into_iter().filter(|(_, d)| d.scale() > SHOWN_PLACES) {
            let shown = d.round_dp_with_strategy(
                places,
                rust_decimal::RoundingStrategy::MidpointAwayFromZero,
            );
            if let Some(cell) = rows.get_mut(i).and_then(|r| r.get_mut(column))
                && shown != d
            {
                *cell = format!("{shown}…");
            }
        }
    }
    rows
}

/// The fewest places, from [`SHOWN_PLACES`], at which values that differ are
/// rounded to values that differ.
fn places_apart(values: impl Iterator<Item = rust_decimal::Decimal>) -> u32 {
    let mut distinct: Vec<rust_decimal::Decimal> = values.collect();
    distinct.sort_unstable();
    distinct.dedup();
    let most = distinct.iter().map(|d| d.scale()).max().unwrap_or(0);
    (SHOWN_PLACES..most)
        .find(|&p| {
            let rounded = |d: &rust_decimal::Decimal| {
                d.round_dp_with_strategy(p, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
            };
            distinct
                .windows(2)
                .all(|w| rounded(&w[0]) != rounded(&w[1]))
        })
        .unwrap_or(most)
}

/// CSV (RFC 4180): each table with its header; figures after a blank line as
/// `name,value` rows.
fn render_csv(shown: &Shown) -> String {
    let mut s = String::new();
    for (i, t) in shown.tables.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&csv_table(t));
    }
    if !shown.figures.is_empty() {
        s.push('\n');
        for (name, value) in &shown.figures {
            let _ = writeln!(s, "{},{}", csv_cell(name), csv_cell(value));
        }
    }
    s
}

/// One table as CSV rows.
pub fn csv_table(t: &Table) -> String {
    let mut s = String::new();
    let row = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        format!("{}\n", cells.join(","))
    };
    s.push_str(&row(&t.columns));
    for r in &t.rows {
        s.push_str(&row(r));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(cells: &[&str]) -> Vec<String> {
        let rows: Vec<Vec<String>> = cells.iter().map(|c| vec![c.to_string()]).collect();
        shortened(&rows).into_iter().flatten().collect()
    }

    #[test]
    fn a_long_decimal_is_shown_to_the_places_that_tell_the_column_apart() {
        // 73 × 11 / 77 and 3 × 11 / 77: four places, marked; short cells stay.
        assert_eq!(
            column(&[
                "10.428571428571428571428571429",
                "0.4285714285714285714285714286",
                "2.5",
                "9 starts"
            ]),
            ["10.4286…", "0.4286…", "2.5", "9 starts"]
        );
        // Equal values look equal; values that differ in the sixth place get six.
        assert_eq!(
            column(&["0.4285714", "0.4285714", "0.4285719"]),
            ["0.428571…", "0.428571…", "0.428572…"]
        );
        // A value exact at four places after rounding is not marked.
        assert_eq!(column(&["1.50000"]), ["1.50000"]);
        // A short value beside a long one that rounds to it: one more place.
        assert_eq!(column(&["0.4286", "0.4285714"]), ["0.4286", "0.42857…"]);
        assert_eq!(column(&["0.12345"]), ["0.1235…"]);
    }
}
