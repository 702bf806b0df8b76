//! `bfr entries check <edition> <entries>` and `bfr invoice <edition> <entries>`.

use super::commands::{edition_errors, not_checked_line};
use super::output::{Output, counted};
use super::output::{diagnostics_json, diagnostics_text, json_line as json, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::check::Checked;
use crate::diag::Diagnostics;
use crate::edition;
use crate::entry::{Invoice, Line, LineKind, Money, Statement, Totals};
use crate::source::Sources;
use crate::source::printable_name;
use std::path::Path;

/// The edition checked and the entries file's bytes, or the exit code.
fn load(
    out: &Output,
    edition_path: &Path,
    entries_path: &Path,
) -> Result<(Checked, Sources, Vec<u8>), u8> {
    let io = |path: &Path, message: String| {
        match out.format {
            Format::Text => stderr(&format!("error: {message}\n")),
            Format::Json => json(&serde_json::json!({
                "error": "io", "path": path.display().to_string(), "message": message
            })),
        }
        EXIT_IO
    };
    super::commands::rules_path(edition_path)?;
    let mut loaded = edition::cache::load(edition_path, out.cache.as_deref())
        .map_err(|e| io(&e.path, e.to_string()))?;
    let Some(checked) = loaded.checked.take() else {
        let errors = edition_errors(&loaded.diagnostics);
        match out.format {
            Format::Text => {
                diagnostics_text(&errors, &loaded.sources, out.colour);
                stderr(&not_checked_line(edition_path, &loaded.diagnostics));
            }
            Format::Json => json(&serde_json::json!({
                "diagnostics": diagnostics_json(&errors, &loaded.sources),
            })),
        }
        return Err(EXIT_FOUND);
    };
    let bytes = edition::read_named(entries_path).map_err(|e| io(entries_path, e.to_string()))?;
    Ok((checked, loaded.sources, bytes))
}

fn show_diagnostics(out: &Output, diags: &Diagnostics, sources: &Sources) {
    if out.format == Format::Text {
        diagnostics_text(diags, sources, out.colour);
    }
}

/// `bfr entries check`
pub fn check(out: &Output, edition_path: &Path, entries_path: &Path) -> u8 {
    let (checked, mut sources, bytes) = match load(out, edition_path, entries_path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let name = entries_path.display().to_string();
    let read = crate::entry::check_bytes(&checked, &mut sources, &name, &bytes);
    show_diagnostics(out, &read.diagnostics, &sources);
    // A file not checked (its shape does not read, a list is past its bound) has
    // no count of entries: it is not said to have none.
    let counts = read
        .entries
        .as_ref()
        .map(|e| (e.players.len(), e.teams.len(), e.pairs.len()));
    let diags = &read.diagnostics;
    let problems = format!(
        "{}, {}",
        counted(diags.error_count(), "error"),
        counted(diags.warning_count(), "warning")
    );
    match out.format {
        Format::Text => stdout(&match counts {
            Some((players, teams, pairs)) => format!(
                "{name}: {}, {}, {}: {problems}\n",
                counted(players, "player"),
                counted(teams, "team"),
                counted(pairs, "pair"),
            ),
            None => format!("{name}: not checked: {problems}\n"),
        }),
        Format::Json => json(&serde_json::json!({
            "file": name,
            "players": counts.map(|c| c.0),
            "teams": counts.map(|c| c.1),
            "pairs": counts.map(|c| c.2),
            "errors": diags.error_count(),
            "warnings": diags.warning_count(),
            "diagnostics": diagnostics_json(diags, &sources),
        })),
    }
    if diags.has_errors() || read.entries.is_none() {
        EXIT_FOUND
    } else {
        EXIT_OK
    }
}

/// `bfr invoice`: text, JSON, or CSV (`csv`).
pub fn invoice(out: &Output, edition_path: &Path, entries_path: &Path, csv: bool) -> u8 {
    let (checked, mut sources, bytes) = match load(out, edition_path, entries_path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let name = entries_path.display().to_string();
    let (money, diags) = crate::entry::invoice_bytes(&checked, &mut sources, &name, &bytes);
    show_diagnostics(out, &diags, &sources);
    match (&money, out.format, csv) {
        (Some(m), _, true) => super::output::stdout_data(&render_csv(m)),
        (Some(m), Format::Text, false) => stdout(&render_text(m)),
        (m, Format::Json, false) => json(&serde_json::json!({
            "money": m,
            "diagnostics": diagnostics_json(&diags, &sources),
        })),
        (None, Format::Text, false) => {}
        (None, _, true) => {}
    }
    // An invoice is made even for entries that break a rule; the exit code says so.
    if money.is_none() || diags.has_errors() {
        EXIT_FOUND
    } else {
        EXIT_OK
    }
}

/// A total as shown: past the largest amount (E0831), no figure at all.
fn total(a: Option<rust_decimal::Decimal>, unit: &str) -> String {
    a.map_or_else(|| TOO_LARGE.to_string(), |a| amount(a, unit))
}

/// What a total past the largest amount shows instead of a figure.
const TOO_LARGE: &str = "too large (E0831)";

fn amount(a: rust_decimal::Decimal, unit: &str) -> String {
    let n = a.normalize().to_string();
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

fn line_text(l: &Line, unit: &str, out: &mut String) {
    let sign = match l.kind {
        LineKind::Charge => "",
        LineKind::Subsidy => "subsidy: ",
        LineKind::SetAside => "set aside: ",
    };
    let note = l
        .note
        .as_ref()
        .map(|n| format!("  ({})", printable_name(n)))
        .unwrap_or_default();
    out.push_str(&format!(
        "  {:<58} {:>12}{note}\n",
        format!("{sign}{}", printable_name(&l.item)),
        amount(l.amount, unit)
    ));
    out.push_str(&format!(
        "      = {} = {}  [{}]\n",
        printable_name(&l.figure.call),
        printable_name(&l.figure.shown),
        l.figure.ids()
    ));
}

fn render_text(m: &Money) -> String {
    let mut out = String::new();
    for inv in &m.invoices {
        invoice_text(inv, &mut out);
    }
    for st in &m.districts {
        statement_text(st, &mut out);
    }
    match &m.totals {
        Some(t) => totals_text(m, t, &mut out),
        None => out.push_str("no entries to invoice\n"),
    }
    out
}

/// The sums over the whole file, under the invoices and statements.
fn totals_text(m: &Money, t: &Totals, out: &mut String) {
    let n = m.invoices.len();
    let d = m.districts.len();
    out.push_str("Totals\n");
    let rows = [
        (format!("invoiced to {}", counted(n, "entry")), t.invoiced),
        (
            format!("subsidies paid to {}", counted(d, "district")),
            t.subsidies,
        ),
        ("charges owed by the districts".to_string(), t.charges),
        ("set aside for the EM fund".to_string(), t.set_aside),
    ];
    for (what, a) in rows {
        out.push_str(&format!("  {what:<58} {:>12}\n", total(a, &t.unit)));
    }
}

fn invoice_text(inv: &Invoice, out: &mut String) {
    // A name is the entries file's, written by anyone: a line break in it is
    // shown escaped, never as a line of the invoice.
    out.push_str(&format!(
        "Invoice {}: {}\n",
        printable_name(&inv.id),
        printable_name(&inv.name)
    ));
    for l in &inv.lines {
        line_text(l, &inv.unit, out);
    }
    out.push_str(&format!(
        "  {:<58} {:>12}\n\n",
        "total",
        total(inv.total, &inv.unit)
    ));
}

fn statement_text(st: &Statement, out: &mut String) {
    out.push_str(&format!("District {}\n", printable_name(&st.district)));
    for l in &st.lines {
        line_text(l, &st.unit, out);
    }
    for (what, a) in [
        ("subsidies paid to the district", st.subsidies),
        ("charges owed by the district", st.charges),
        ("set aside for the EM fund", st.set_aside),
    ] {
        out.push_str(&format!("  {what:<58} {:>12}\n", total(a, &st.unit)));
    }
    out.push('\n');
}

/// One row per line: who, what, how much, and why.
fn render_csv(m: &Money) -> String {
    let mut out = String::from("section,id,name,item,kind,amount,unit,rule_ids,call,note\n");
    let kind = |k: LineKind| match k {
        LineKind::Charge => "charge",
        LineKind::Subsidy => "subsidy",
        LineKind::SetAside => "set_aside",
    };
    let mut row = |fields: [&str; 10]| {
        let cells: Vec<String> = fields.iter().map(|f| csv_cell(f)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    };
    for inv in &m.invoices {
        for l in &inv.lines {
            row([
                "invoice",
                &inv.id,
                &inv.name,
                &l.item,
                kind(l.kind),
                &l.amount.normalize().to_string(),
                &inv.unit,
                &l.figure.rule_ids.join(" "),
                &l.figure.call,
                l.note.as_deref().unwrap_or(""),
            ]);
        }
        row([
            "invoice",
            &inv.id,
            &inv.name,
            "total",
            "total",
            &inv.total
                .map(|t| t.normalize().to_string())
                .unwrap_or_default(),
            &inv.unit,
            "",
            "",
            if inv.total.is_none() { TOO_LARGE } else { "" },
        ]);
    }
    for st in &m.districts {
        for l in &st.lines {
            row([
                "district",
                &st.district,
                &st.district,
                &l.item,
                kind(l.kind),
                &l.amount.normalize().to_string(),
                &st.unit,
                &l.figure.rule_ids.join(" "),
                &l.figure.call,
                l.note.as_deref().unwrap_or(""),
            ]);
        }
    }
    // A file with nothing to invoice has no totals, as in the text.
    if let Some(t) = &m.totals {
        for (item, a) in [
            ("invoiced", t.invoiced),
            ("subsidies", t.subsidies),
            ("charges", t.charges),
            ("set_aside", t.set_aside),
        ] {
            let amount = a.map(|a| a.normalize().to_string()).unwrap_or_default();
            let note = if a.is_none() { TOO_LARGE } else { "" };
            row([
                "totals", "", "", item, "total", &amount, &t.unit, "", "", note,
            ]);
        }
    }
    out
}

/// A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break.
pub(super) fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
