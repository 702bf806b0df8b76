//! Editions that amend editions: the bundled history of the 2015 document (first
//! published, amended 2015-06-01, as published 2015-07-25), and the diagnostics
//! of `amends` and `remove`, one case directory each under `tests/cases/amends`:
//! `<CODE>-<slug>/edition/` is the edition checked, the other directories its
//! bases. `bfr check`'s stderr for it is snapshotted as `suite__amends__<dir>.snap`.

use crate::support::{EDITION_2015, bfr, root, trim_lines};
use bfr::edition::load;

const CASES: &str = "tests/cases/amends";
const FIRST: &str = "rules/2015-first";
const JUNE: &str = "rules/2015-06-01";

/// Every case directory, by name.
pub fn cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(CASES))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn each_amends_case_gives_its_code() {
    let names = cases();
    assert!(names.len() >= 6, "{names:?}");
    for name in names {
        let code = name.split('-').next().unwrap();
        let path = format!("{CASES}/{name}/edition");
        let (exit, _, stderr) = bfr(&["check", "--color", "never", &path]);
        assert!(stderr.contains(&format!("[{code}]")), "{name}: {stderr}");
        assert_eq!(exit, i32::from(code.starts_with('E')), "{name}: {stderr}");
        insta::assert_snapshot!(name.as_str(), trim_lines(&stderr));
    }
}

/// The value of `expr` in `edition`, as `bfr eval` prints it.
fn eval(edition: &str, expr: &str) -> String {
    let (code, out, err) = bfr(&["eval", edition, expr]);
    assert_eq!(code, 0, "{edition}: {err}");
    out.trim().to_string()
}

#[test]
fn the_first_published_edition_closes_registration_at_17() {
    for (edition, deadline, at_18) in [
        (FIRST, "Mon 2015-07-27 17:00", "false"),
        (JUNE, "Mon 2015-07-27 20:00", "true"),
        (EDITION_2015, "Mon 2015-07-27 20:00", "true"),
    ] {
        assert_eq!(eval(edition, "lv_registration_deadline"), deadline);
        // Both sides of the first edition's deadline.
        assert_eq!(
            eval(edition, "lv_registration_in_time(Mon 2015-07-27 17:00)"),
            "true"
        );
        assert_eq!(
            eval(edition, "lv_registration_in_time(Mon 2015-07-27 18:00)"),
            at_18
        );
    }
}

#[test]
fn the_amending_editions_check_and_test_clean() {
    for edition in [FIRST, JUNE] {
        let (code, out, err) = bfr(&["check", "--color", "never", edition]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("Error"), "{err}");
        let _ = out;
        let (code, out, _) = bfr(&["test", edition]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(" 0 failed"), "{out}");
    }
    // The first edition is the 2015 edition with its files and its bases'.
    let loaded = load(&root().join(FIRST)).unwrap();
    let base_files = std::fs::read_dir(root().join("rules/2015"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("bfr".as_ref()))
        .count();
    assert_eq!(loaded.files, base_files + 1 + 1);
    let program = loaded.checked.unwrap().program;
    let edition = program.edition.as_ref().unwrap();
    assert_eq!(edition.name, "Bridgefestivalen 2015, first published");
    assert!(program.rule("lv_registration_amendment").is_none());
    let texts: Vec<&str> = program.texts.iter().map(|t| t.name.as_str()).collect();
    assert!(!texts.contains(&"side_events_cleanup"), "{texts:?}");
    assert!(texts.contains(&"side_events_2013"), "{texts:?}");
}

#[test]
fn the_amending_editions_run_and_simulate() {
    for edition in [FIRST, JUNE] {
        let (code, out, err) = bfr(&["simulate", "--teams", "70", "--seed", "7", edition, "cup"]);
        assert_eq!(code, 0, "{edition}: {err}");
        let (_, base, _) = bfr(&[
            "simulate",
            "--teams",
            "70",
            "--seed",
            "7",
            EDITION_2015,
            "cup",
        ]);
        // No change touches the competition: the same event, place for place.
        assert_eq!(
            out.lines().skip(1).collect::<Vec<_>>(),
            base.lines().skip(1).collect::<Vec<_>>()
        );
    }
}

#[test]
fn the_first_change_is_the_deadline_and_its_change_log_line() {
    let (code, out, err) = bfr(&["diff", FIRST, JUNE]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("first_to_june", out);
    let (code, out, err) = bfr(&["diff", JUNE, EDITION_2015]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("june_to_published", out);
}

#[test]
fn an_event_file_runs_through_an_amending_edition() {
    let dir = crate::support::TempDir::new("amends-run");
    let teams: Vec<String> = (1..=64).map(|i| format!("{{ id = {i} }}")).collect();
    let event = dir.0.join("event.toml");
    std::fs::write(
        &event,
        format!(
            "competition = \"cup\"\nseed = 3\nteam = [{}]\n",
            teams.join(", ")
        ),
    )
    .unwrap();
    let event = event.display().to_string();
    let (code, first, err) = bfr(&["run", FIRST, &event]);
    assert_eq!(code, 0, "{err}");
    assert!(
        first.contains("Next: the results of Gröna Hissen round 1"),
        "{first}"
    );
    // The amendments touch no competition: the same draw as the published edition.
    let (_, published, _) = bfr(&["run", EDITION_2015, &event]);
    assert_eq!(first, published);
}

#[test]
fn an_amendment_changing_a_bad_literal_is_a_change_and_each_is_reported() {
    let dir = crate::support::TempDir::new("amends-bad-literal");
    let write = |sub: &str, text: &str| {
        let at = dir.0.join(sub);
        std::fs::create_dir_all(&at).unwrap();
        std::fs::write(at.join("edition.bfr"), text).unwrap();
    };
    write(
        "base",
        "edition \"Base\" {\n  source \"a test edition\"\n}\n\nconst closes: date ref X-REG = 2015-02-30\n",
    );
    write(
        "edition",
        "edition \"Amended\" {\n  amends \"../base\"\n}\n\nconst closes: date ref X-REG = 2015-02-31\n",
    );
    let path = dir.0.join("edition");
    let (exit, _, stderr) = bfr(&["check", "--color", "never", path.to_str().unwrap()]);
    assert_eq!(exit, 1, "{stderr}");
    assert!(stderr.contains("`2015-02-30` is not a date"), "{stderr}");
    assert!(stderr.contains("`2015-02-31` is not a date"), "{stderr}");
    // Two bad dates written differently are not the base restated.
    assert!(!stderr.contains("[W1201]"), "{stderr}");
}
