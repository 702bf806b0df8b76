//! `bfr allocate`: a discipline's places over the districts of a starts file, by
//! the edition's allocation rule, each district's figures with the rule that
//! decided them.

use super::commands::load_cached;
use super::output::Output;
use super::output::{diagnostics_json, input_warnings, json_line, refused, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::allocate::{self, Allocation, Error};
use std::fmt::Write as _;
use std::path::Path;

/// `bfr allocate EDITION DISCIPLINE STARTS`
pub fn allocate(out: &Output, path: &Path, discipline: &str, starts: &Path, csv: bool) -> u8 {
    let mut loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = loaded.checked.take() else {
        return EXIT_IO;
    };
    let text = match super::federation::read_text(
        out,
        starts,
        &mut loaded.sources,
        ("E1102", "starts file"),
    ) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let file = loaded
        .sources
        .add(starts.display().to_string(), text.as_str());
    let warnings = input_warnings(&text, file);
    match allocate::allocate(&checked.program, discipline, &text, file) {
        Ok(a) => {
            out.diagnostics(&warnings, &loaded.sources);
            if csv {
                super::output::stdout_data(&render_csv(&a));
            } else {
                match out.format {
                    Format::Text => stdout(&render(&a)),
                    Format::Json => {
                        let mut value = serde_json::to_value(&a).unwrap_or_default();
                        if let Some(fields) = value.as_object_mut() {
                            fields.insert(
                                "diagnostics".into(),
                                diagnostics_json(&warnings, &loaded.sources),
                            );
                        }
                        json_line(&value);
                    }
                }
            }
            if a.complete { EXIT_OK } else { EXIT_FOUND }
        }
        Err(Error::Discipline(known)) => {
            stderr(&format!(
                "error: `{discipline}` is not a discipline of the allocation; the edition has: {}\n",
                known.join(", ")
            ));
            2
        }
        Err(Error::Diagnostic(d)) => refused(out, warnings, d, &loaded.sources),
    }
}

/// The allocation's lines as rows of words.
fn rows(a: &Allocation) -> Vec<Vec<String>> {
    a.lines
        .iter()
        .map(|l| l.fields.iter().map(|(_, v)| v.clone()).collect())
        .collect()
}

/// The allocation as CSV: the columns, then one row per line.
fn render_csv(a: &Allocation) -> String {
    super::federation::csv_table(&crate::federation::Table {
        name: String::new(),
        columns: a.columns.clone(),
        rows: rows(a),
    })
}

/// The districts of the lines (the Open has a line per district and allotment).
fn districts(a: &Allocation) -> usize {
    let mut seen: Vec<&str> = a
        .lines
        .iter()
        .filter_map(|l| l.fields.first().map(|(_, v)| v.as_str()))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// The allocation as a table, one line per district (and allotment).
fn render(a: &Allocation) -> String {
    let mut s = format!(
        "{} of {} over {}\n\n",
        super::output::counted(&a.places, "place"),
        a.discipline,
        super::output::counted(districts(a), "district")
    );
    s.push_str(&super::federation::render_table(&a.columns, &rows(a)));
    let _ = writeln!(s, "\ntotal: {}", a.total);
    if !a.complete {
        let _ = writeln!(
            s,
            "the districts' places do not add up to the {} places asked for",
            a.places
        );
    }
    let _ = writeln!(s, "rules: {}", a.rule_ids.join(", "));
    s
}
