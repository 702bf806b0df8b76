//! The bundled 2015 edition: it checks, its examples pass, every inventory row is
//! encoded with its source, and its warnings — the document's own defects — are
//! pinned in a snapshot.

use crate::support::{edition_2015 as edition, root};
use bfr::diag::{Colour, render};
use bfr::edition::Loaded;
use bfr::eval::examples::{Outcome, run};
use std::collections::BTreeSet;

/// The inventory's rows: ID and kind.
fn inventory() -> Vec<(String, String)> {
    std::fs::read_to_string(root().join("tests/fixtures/inventory.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(id, kind)| (id.to_string(), kind.to_string()))
        .collect()
}

/// Rendered diagnostics with the machine's path prefix removed and trailing
/// spaces trimmed, so the snapshot is the same on every machine.
fn rendered(loaded: &Loaded, warnings: &bfr::diag::Diagnostics) -> String {
    let prefix = format!("{}/", root().display());
    warnings
        .sorted()
        .into_iter()
        .map(|d| render(d, &loaded.sources, Colour::Off))
        .collect::<String>()
        .replace(&prefix, "")
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_2015_edition_checks_without_errors_and_its_warnings_are_the_documents_defects() {
    let loaded = edition();
    let errors: Vec<String> = loaded
        .diagnostics
        .sorted()
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| render(d, &loaded.sources, Colour::Off))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    insta::assert_snapshot!(
        "edition_2015_check_warnings",
        rendered(&loaded, &loaded.diagnostics)
    );
}

#[test]
fn every_example_of_the_2015_edition_passes() {
    let loaded = edition();
    let program = &loaded.checked.as_ref().expect("the edition checks").program;
    assert!(
        program.examples.len() > 50,
        "the edition has {} examples",
        program.examples.len()
    );
    let mut failures = Vec::new();
    for ex in &program.examples {
        let outcome = run(program, ex);
        let ok = matches!(
            (&outcome, ex.contradicts),
            (Outcome::Holds, false) | (Outcome::Fails { .. }, true)
        );
        if !ok {
            failures.push(format!("{}: {:?}", ex.title, outcome));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_inventory_row_is_encoded_with_its_source() {
    let loaded = edition();
    let p = &loaded.checked.as_ref().expect("the edition checks").program;
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let mut add = |s: &Option<bfr::ir::SourceInfo>| {
        if let Some(s) = s {
            ids.insert(s.id.clone());
        }
    };
    p.rules.iter().for_each(|r| add(&r.source));
    p.texts.iter().for_each(|t| add(&t.source));
    p.examples.iter().for_each(|e| add(&e.source));
    p.enums.iter().for_each(|e| add(&e.source));
    p.records.iter().for_each(|r| add(&r.source));
    for c in &p.competitions {
        add(&c.source);
        c.stages.iter().for_each(|s| add(&s.source));
    }
    let inventory = inventory();
    let missing: Vec<&str> = inventory
        .iter()
        .map(|(id, _)| id.as_str())
        .filter(|id| !ids.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "inventory rows with no rule: {missing:?}"
    );
    // C and D rows evaluate: each has examples with the document's figures.
    let examined: BTreeSet<&str> = p
        .examples
        .iter()
        .filter_map(|e| e.source.as_ref().map(|s| s.id.as_str()))
        .collect();
    let untested: Vec<&str> = inventory
        .iter()
        .filter(|(_, kind)| kind.contains('C') || kind.contains('D'))
        // The pairing method is the engine's Swiss pairing, which the edition states
        // as a reading; it is tested in `engine::swiss` and `tests/suite/chairmans_cup.rs`.
        .filter(|(id, _)| id != "X-GH-PAIRING")
        .map(|(id, _)| id.as_str())
        .filter(|id| !examined.contains(id))
        .collect();
    assert!(
        untested.is_empty(),
        "C and D rows with no example: {untested:?}"
    );
    // Rules from the document name page and section; facts from outside it (X-) may not.
    let unplaced: Vec<&str> = p
        .rules
        .iter()
        .filter(|r| {
            r.source.as_ref().is_some_and(|s| {
                !s.id.starts_with("X-") && (s.pages.is_none() || s.section.is_none())
            })
        })
        .map(|r| r.name.as_str())
        .collect();
    assert!(
        unplaced.is_empty(),
        "rules without page or section: {unplaced:?}"
    );
}

#[test]
fn bfr_test_passes_on_the_2015_edition() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(["test", "rules/2015", "--color", "never"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}
