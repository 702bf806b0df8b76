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
            ids.insert(s.id.to_string());
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
        .filter_map(|e| e.source.as_ref().map(|s| &*s.id))
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

/// The edition's 2015 files with `from` replaced by `to` (exactly once).
fn edition_with(from: &str, to: &str) -> Loaded {
    let files = bfr::edition::edition_files(&root().join("rules/2015")).unwrap();
    let mut replaced = 0;
    let texts = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            replaced += text.matches(from).count();
            (f.display().to_string(), text.replace(from, to).into_bytes())
        })
        .collect();
    assert_eq!(replaced, 1, "`{from}` occurs once in the edition");
    bfr::edition::load_texts(texts)
}

/// `rule(args…)` evaluated in a checked edition.
fn call(loaded: &Loaded, rule: &str, args: &[(i64, &str)]) -> bfr::ir::Value {
    let program = &loaded.checked.as_ref().expect("the edition checks").program;
    let (index, _) = program.rule(rule).unwrap();
    let args = args
        .iter()
        .map(|(n, unit)| bfr::ir::Value::Num((*n).into(), bfr::ir::Unit::base(unit)))
        .collect();
    bfr::eval::Evaluator::new(program)
        .call(index, args, bfr::source::Span::default())
        .unwrap()
}

#[test]
fn the_8_board_reading_changes_51_imps_over_8_boards_and_nothing_else() {
    let taken = edition();
    let other = edition_with("= Vp25EightBoards51.SourceB", "= Vp25EightBoards51.SourceA");
    assert!(!other.diagnostics.has_errors(), "the other reading checks");
    let mut differs = Vec::new();
    for boards in [8, 10, 12, 14, 16, 20, 24, 28, 32, 36, 40, 48] {
        for margin in 0..=150 {
            let args = [(margin, "IMP"), (boards, "board")];
            if call(&taken, "vp25", &args) != call(&other, "vp25", &args) {
                differs.push((boards, margin));
            }
        }
    }
    assert_eq!(differs, [(8, 51)]);
    let vp = |l: &Loaded, name: &str| call(l, name, &[]);
    let at_51 = [(51, "IMP"), (8, "board")];
    assert_eq!(call(&taken, "vp25", &at_51), vp(&taken, "vp25_25_0"));
    assert_eq!(call(&other, "vp25", &at_51), vp(&other, "vp25_25_1"));
}

/// Whether the `.bfr` expression `expr` is true in a checked edition.
fn holds(loaded: &Loaded, expr: &str) -> bool {
    let checked = loaded.checked.as_ref().expect("the edition checks");
    let mut sources = loaded.sources.clone();
    let file = sources.add("<expression>", expr);
    let ast = bfr::syntax::parse_expr(expr, file).unwrap();
    let e = checked.check_expr(&ast).unwrap();
    let v = bfr::eval::Evaluator::new(&checked.program)
        .eval_closed(&e)
        .unwrap();
    v == bfr::ir::Value::Bool(true)
}

#[test]
fn the_knockout_late_arrival_reading_moves_every_penalty_by_one_imp() {
    let taken = edition();
    let other = edition_with(
        "= LateArrivalKnockoutReading.OnePlusEachStartedMinute",
        "= LateArrivalKnockoutReading.EachStartedMinute",
    );
    for (late, literal) in [
        ("5 min 1 s", 2),
        ("6 min", 2),
        ("6 min 1 s", 3),
        ("25 min", 21),
    ] {
        let at = |imp: i32| format!("late_arrival_knockout({late}) == deduct {imp} IMP");
        assert!(holds(&taken, &at(literal)), "{late}");
        assert!(holds(&other, &at(literal - 1)), "{late}");
    }
    for same in [
        "late_arrival_knockout(5 min) == warning",
        "late_arrival_knockout(25 min 1 s) == refer \"Ansvarig Organisation\"",
    ] {
        assert!(holds(&taken, same) && holds(&other, same), "{same}");
    }
}

#[test]
fn the_travel_footnote_reading_moves_the_extras_between_rows() {
    let taken = edition();
    let other = edition_with(
        "\"Resebidragstabell 2015\" = SmTravelFootnoteMarkers.RowAfter",
        "\"Resebidragstabell 2015\" = SmTravelFootnoteMarkers.RowBefore",
    );
    let extra =
        |d: &str, sek: i32| format!("sm_travel_footnote_extra(District.{d}) == {sek} SEK/pair");
    for (district, after, before) in [
        ("Sydostra", 0, 1000),
        ("Gotland", 1000, 0),
        ("JamtlandHarjedalen", 0, 500),
        ("Angermanland", 500, 500),
        ("Vasterbotten", 500, 500),
        ("Norrbotten", 500, 0),
        ("Stockholm", 0, 0),
    ] {
        assert!(holds(&taken, &extra(district, after)), "{district}");
        assert!(holds(&other, &extra(district, before)), "{district}");
    }
}

#[test]
fn every_reading_of_the_2015_edition_is_used_by_a_rule_or_a_competition() {
    let loaded = edition();
    let unused: Vec<String> = loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "W0411")
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(unused, Vec::<String>::new());
    let program = &loaded.checked.as_ref().unwrap().program;
    let readings: Vec<&str> = program
        .rules
        .iter()
        .filter(|r| r.reading)
        .map(|r| r.name.as_str())
        .collect();
    // The open questions the engine's behaviour depends on, and the later ones
    // (the VP table at 51 IMPs, the late-arrival and footnote readings, the walkover
    // loser): each is a `reading`, and each is named where it applies.
    assert_eq!(readings.len(), 28, "{readings:?}");
    let cup = program
        .competitions
        .iter()
        .find(|c| c.name == "cup")
        .unwrap();
    assert_eq!(
        cup.readings.absent_leftovers.written.as_deref(),
        Some("amb18_reading = Amb18AbsentOrder.CurrentRanking")
    );
    let bc08_a = cup.stages.iter().find(|s| s.name == "bc08_a").unwrap();
    assert_eq!(
        bc08_a.absent_captains.written.as_deref(),
        Some("CcAbsentCaptains.Reject"),
        "AMB-19: CC-ABSENT is read for the CC only"
    );
}

#[test]
fn a_reading_bfr_cannot_run_is_an_error_at_the_property_that_chooses_it() {
    let loaded = crate::support::edition_2015_with(&[crate::support::Change::Text(
        "chairmans_cup_readings.bfr",
        "= Amb21GhPairing.StandingsWithFeasibilityCheck",
        "= Amb21GhPairing.GreedyWithSwaps",
    )]);
    let errors: Vec<(&str, String, String)> = loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.severity == bfr::diag::Severity::Error)
        .map(|d| {
            let file = loaded.sources.name(d.span.file);
            let file = file.rsplit('/').next().unwrap_or(file).to_string();
            (d.code, d.message.clone(), file)
        })
        .collect();
    // Both Gröna Hissen read it: the Chairman's Cup's and SM Lag Veteran's.
    let error = |file: &str| {
        (
            "E0408",
            "`pairing`: `Amb21GhPairing.GreedyWithSwaps` names no `Pairing` bfr knows".to_string(),
            file.to_string(),
        )
    };
    assert_eq!(
        errors,
        [
            error("chairmans_cup_knockout.bfr"),
            error("sm_lag_veteran.bfr")
        ]
    );
}

/// The evaluation form gives the answers the plain interpreter gives: every const
/// of the edition and every side of every example's assertions, evaluated with one
/// shared `Prepared` (consts remembered across evaluators) and without it.
#[test]
fn the_evaluation_form_gives_the_plain_interpreters_answers() {
    use bfr::eval::{Evaluator, Prepared};
    use bfr::ir::RuleBody;
    let loaded = edition();
    let program = &loaded.checked.as_ref().unwrap().program;
    let prepared = Prepared::new(program);
    let show = |r: bfr::eval::EvalResult| match r {
        Ok(v) => v.show(program),
        Err(e) => format!("error: {}", e.message),
    };
    let mut consts = 0;
    for (i, rule) in program.rules.iter().enumerate() {
        if !matches!(rule.body, RuleBody::Const { .. }) {
            continue;
        }
        let i = i as u32;
        let plain = show(Evaluator::new(program).call(i, Vec::new(), rule.span));
        // Twice: computed, then remembered.
        for _ in 0..2 {
            let fast = show(Evaluator::prepared(program, &prepared).call(i, Vec::new(), rule.span));
            assert_eq!(fast, plain, "const `{}`", rule.name);
        }
        consts += 1;
    }
    assert!(consts > 50, "{consts} consts");
    let mut assertions = 0;
    for ex in &program.examples {
        for a in &ex.assertions {
            let plain = show(Evaluator::new(program).eval_closed(a));
            let fast = show(Evaluator::prepared(program, &prepared).eval_closed(a));
            assert_eq!(fast, plain, "example \"{}\"", ex.title);
            if !ex.contradicts {
                assert_eq!(plain, "true", "example \"{}\"", ex.title);
            }
            assertions += 1;
        }
    }
    assert!(assertions > 100, "{assertions} assertions");
}
