//! `bfr allocate`: a discipline's places over the districts of a starts file, by
//! the edition's allocation rule, each district's figures with the rule that
//! decided them.

use super::commands::{Output, load_checked};
use super::output::{diagnostics_json, json_line, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::allocate::{self, Allocation, Error};
use crate::diag::Diagnostics;
use crate::edition;
use std::fmt::Write as _;
use std::path::Path;

/// `bfr allocate EDITION DISCIPLINE STARTS`
pub fn allocate(out: &Output, path: &Path, discipline: &str, starts: &Path) -> u8 {
    let mut loaded = match load_checked(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = loaded.checked.take() else {
        return EXIT_IO;
    };
    let text = match std::fs::read(starts) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => {
                stderr(&format!("error: {} is not UTF-8 text\n", starts.display()));
                return EXIT_IO;
            }
        },
        Err(e) => return out.io_error(&edition::io_error(starts, &e)),
    };
    let file = loaded
        .sources
        .add(starts.display().to_string(), text.as_str());
    match allocate::allocate(&checked.program, discipline, &text, file) {
        Ok(a) => {
            match out.format {
                Format::Text => stdout(&render(&a)),
                Format::Json => json_line(&serde_json::to_value(&a).unwrap_or_default()),
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
        Err(Error::Diagnostic(d)) => {
            let mut diags = Diagnostics::default();
            diags.push(d);
            out.diagnostics(&diags, &loaded.sources);
            if out.format == Format::Json {
                json_line(&serde_json::json!({
                    "errors": diagnostics_json(&diags, &loaded.sources)
                }));
            }
            EXIT_FOUND
        }
    }
}

/// The allocation as a table, one line per district.
fn render(a: &Allocation) -> String {
    let mut widths: Vec<usize> = a.columns.iter().map(|c| c.chars().count()).collect();
    for line in &a.lines {
        for (i, (_, v)) in line.fields.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(v.chars().count());
            }
        }
    }
    let row = |cells: Vec<&str>| {
        let mut s = String::from(" ");
        for (i, c) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            let pad = w.saturating_sub(c.chars().count());
            let _ = write!(s, " {c}{}", " ".repeat(pad));
        }
        format!("{}\n", s.trim_end())
    };
    let mut s = format!(
        "{} places of {} over {} districts\n\n",
        a.places,
        a.discipline,
        a.lines.len()
    );
    s.push_str(&row(a.columns.iter().map(String::as_str).collect()));
    for line in &a.lines {
        s.push_str(&row(line.fields.iter().map(|(_, v)| v.as_str()).collect()));
    }
    let _ = writeln!(s, "\ntotal: {}", a.total);
    if !a.complete {
        let _ = writeln!(
            s,
            "the districts' places do not add up to the {} places allocated",
            a.places
        );
    }
    let _ = writeln!(s, "rules: {}", a.rule_ids.join(", "));
    s
}
