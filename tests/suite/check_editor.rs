//! `bfr check` for an editor making the next edition: warnings that fail the check
//! (`-D`), a baseline of accepted warnings keyed without line numbers, a file
//! checked in its edition, and a summary that is right after errors.

use crate::support::{EDITION_2015, TempDir, bfr, copy_2015};
use std::path::Path;

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let p = dir.join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    assert_eq!(text.matches(from).count(), 1, "`{from}` in {file}");
    std::fs::write(&p, text.replace(from, to)).unwrap();
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// How many warnings a plain `bfr check` of the edition at `dir` gives.
fn warnings_of(dir: &Path) -> usize {
    let (_, stdout, _) = bfr(&["check", &s(dir)]);
    let count = stdout
        .split(", ")
        .find_map(|part| part.trim().strip_suffix(" warnings"))
        .and_then(|n| n.rsplit(' ').next())
        .and_then(|n| n.parse().ok());
    count.unwrap_or_else(|| panic!("no warning count in {stdout}"))
}

#[test]
fn deny_warnings_fails_on_a_weekday_mismatch_and_passes_once_it_is_fixed() {
    let dir = copy_2015("deny");
    let baseline = dir.0.join("accepted.txt");
    let (code, _, _) = bfr(&["check", "--write-baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 0);
    // The 2015 edition's own warnings, accepted: -D passes.
    let (code, stdout, _) = bfr(&["check", "-D", "--baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 0, "{stdout}");
    let known = warnings_of(&dir.0);
    assert!(known > 0);
    assert!(
        stdout.contains(&format!(
            "0 errors, 0 warnings ({known} accepted by the baseline)"
        )),
        "{stdout}"
    );
    // A weekday written wrong (as a naive date bump leaves them): a new warning,
    // and -D fails.
    let (right, wrong) = ("= Fri 2015-07-24 20:00", "= Thu 2015-07-24 20:00");
    edit(&dir.0, "chairmans_cup.bfr", right, wrong);
    let (bl, ed) = (s(&baseline), s(&dir.0));
    let args = |deny: bool| {
        let mut a = vec!["check", "--color", "never", "--baseline", &bl, &ed];
        if deny {
            a.push("-D");
        }
        a
    };
    let (code, stdout, stderr) = bfr(&args(true));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stderr.contains("[W0101] Warning: 2015-07-24 is a Friday, not a Thursday"),
        "{stderr}"
    );
    assert!(
        stdout.contains(&format!(
            "0 errors, 1 warning ({known} accepted by the baseline) (warnings denied)"
        )),
        "{stdout}"
    );
    // Without -D the same check passes: warnings alone do not fail it.
    assert_eq!(bfr(&args(false)).0, 0);
    // The weekday fixed: -D passes again.
    edit(&dir.0, "chairmans_cup.bfr", wrong, right);
    let (code, stdout, _) = bfr(&args(true));
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn a_baseline_survives_edits_elsewhere_and_reports_fixed_defects() {
    let dir = copy_2015("baseline");
    let baseline = dir.0.join("accepted.txt");
    bfr(&["check", "--write-baseline", &s(&baseline), &s(&dir.0)]);
    let written = std::fs::read_to_string(&baseline).unwrap();
    assert_eq!(
        written.lines().filter(|l| !l.starts_with('#')).count(),
        warnings_of(&dir.0)
    );
    assert!(
        written.contains(
            "W0102\tsm_pairs.bfr\tthe date 2014-08-02 is not in the edition's year 2015\n"
        ),
        "{written}"
    );
    // Lines moved: every accepted warning is still accepted.
    let p = dir.0.join("sm_general.bfr");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, format!("// a note\n\n\n{text}")).unwrap();
    let (code, stdout, _) = bfr(&["check", "-D", "--baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 0, "{stdout}");
    // An accepted warning that no longer occurs is named, so the baseline shrinks.
    std::fs::write(
        &baseline,
        format!("{written}W0101\tscoring.bfr\ta warning long fixed\n"),
    )
    .unwrap();
    let (_, stdout, _) = bfr(&["check", "--baseline", &s(&baseline), &s(&dir.0)]);
    assert!(
        stdout.contains("(1 baseline entry no longer found)"),
        "{stdout}"
    );
    // A baseline is of one edition: with two, each would overwrite it in turn
    // (or find the other's entries stale). A usage error, and nothing written.
    let before = std::fs::read_to_string(&baseline).unwrap();
    for flag in ["--write-baseline", "--baseline"] {
        let (code, _, stderr) = bfr(&["check", flag, &s(&baseline), &s(&dir.0), "rules/2015"]);
        assert_eq!(code, 2, "{flag}: {stderr}");
        assert!(stderr.contains("a baseline is of one edition"), "{stderr}");
    }
    assert_eq!(std::fs::read_to_string(&baseline).unwrap(), before);
    assert!(
        stdout.contains(
            "no longer found (remove from the baseline): W0101 scoring.bfr: a warning long fixed"
        ),
        "{stdout}"
    );
    // An error stops the check before the examples' warnings are looked for:
    // the baseline is not written over with the few found, and none of its
    // entries is called stale.
    let broken = dir.0.join("broken.bfr");
    std::fs::write(&broken, "const broken: number ref X-1 = \n").unwrap();
    let (code, stdout, stderr) = bfr(&["check", "--write-baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("is left as it was: the check found 1 error"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&baseline).unwrap(), before);
    let (code, stdout, _) = bfr(&["check", "--baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 1, "{stdout}");
    assert!(!stdout.contains("no longer found"), "{stdout}");
    assert!(
        stdout.contains(
            "(whether every baseline entry is still found is known once the errors are fixed)"
        ),
        "{stdout}"
    );
    let stale_in_json = || {
        let (_, json, _) = bfr(&[
            "check",
            "--format",
            "json",
            "--baseline",
            &s(&baseline),
            &s(&dir.0),
        ]);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        report[0]["stale_baseline"].clone()
    };
    assert_eq!(stale_in_json(), serde_json::Value::Null);
    std::fs::remove_file(&broken).unwrap();
    assert_eq!(
        stale_in_json().as_array().map(Vec::len),
        Some(1),
        "{}",
        stale_in_json()
    );
}

#[test]
fn a_bad_baseline_line_is_an_io_error_naming_the_file() {
    let dir = TempDir::new("bad-baseline");
    let baseline = dir.0.join("b.txt");
    std::fs::write(&baseline, "W0101 no tabs here\n").unwrap();
    let (code, _, stderr) = bfr(&["check", "--baseline", &s(&baseline), EDITION_2015]);
    assert_eq!(code, 3);
    assert!(stderr.contains("not a baseline line"), "{stderr}");
}

#[test]
fn one_file_of_an_edition_is_checked_in_its_edition() {
    let (code, stdout, stderr) = bfr(&["check", "--color", "never", "rules/2015/scoring.bfr"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "rules/2015/scoring.bfr: checked in its edition rules/2015: 0 errors, 3 warnings\n"
    );
    // Only the file's own warnings.
    assert!(!stderr.contains("sm_general.bfr"), "{stderr}");
    assert!(stderr.contains("scoring.bfr"), "{stderr}");
}

#[test]
fn the_summary_after_errors_does_not_count_zero_rules() {
    let (code, stdout, _) = bfr(&[
        "check",
        "tests/cases/diagnostics/E0301-scale-rows-overlap.bfr",
    ]);
    assert_eq!(code, 1);
    assert!(!stdout.contains("0 rules"), "{stdout}");
    assert!(stdout.contains("not checked through"), "{stdout}");
    assert!(stdout.ends_with("1 error, 0 warnings\n"), "{stdout}");
}

#[test]
fn allow_leaves_out_the_warnings_of_a_code_and_never_an_error() {
    let (_, json, _) = bfr(&["--format", "json", "check", EDITION_2015]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let codes: std::collections::BTreeSet<String> = report[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    assert!(codes.contains("W0501") && codes.len() > 1, "{codes:?}");
    let total = warnings_of(std::path::Path::new(EDITION_2015));
    // One code allowed: its warnings are neither shown nor counted.
    let (code, stdout, stderr) = bfr(&[
        "check",
        "--color",
        "never",
        "--allow",
        "W0501",
        EDITION_2015,
    ]);
    assert_eq!(code, 0);
    let shown = stderr.matches("[W0501]").count();
    assert_eq!(shown, 0, "{stderr}");
    let (_, _, all) = bfr(&["check", "--color", "never", EDITION_2015]);
    let w0501 = all.matches("[W0501]").count();
    assert!(w0501 > 0);
    assert!(
        stdout.contains(&format!(
            "0 errors, {} warnings ({w0501} allowed)",
            total - w0501
        )),
        "{stdout}"
    );
    // Every code the edition warns with allowed: -D passes.
    let every = codes.into_iter().collect::<Vec<_>>().join(",");
    let (code, stdout, _) = bfr(&["check", "-D", "--allow", &every, EDITION_2015]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("0 errors, 0 warnings"), "{stdout}");
    // An error code, something that is no code, or a warning bfr does not have
    // (a typo would otherwise allow nothing, silently): a usage error, nothing checked.
    for bad in ["E0101", "w0501", "W501", "W9999"] {
        let (code, stdout, stderr) = bfr(&["check", "--allow", bad, EDITION_2015]);
        assert_eq!(code, 2, "{bad}: {stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(&format!("`--allow {bad}`")), "{stderr}");
    }
}

/// Rewrites every `.bfr` file of `dir` with `f`.
fn rewrite(dir: &Path, f: impl Fn(&str) -> String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension() == Some("bfr".as_ref()) {
            let text = std::fs::read_to_string(&p).unwrap();
            std::fs::write(&p, f(&text)).unwrap();
        }
    }
}

#[test]
fn a_date_bumped_2016_edition_fails_with_its_weekdays_and_passes_once_they_are_fixed() {
    use chrono::Datelike;
    let dir = copy_2015("bump-2016");
    // The naive bump: every date one year on, the weekdays written as they were.
    let date = regex::Regex::new(r"\b(20\d\d)-(\d\d)-(\d\d)\b").unwrap();
    rewrite(&dir.0, |text| {
        date.replace_all(text, |c: &regex::Captures| {
            let year: i32 = c[1].parse().unwrap();
            format!("{}-{}-{}", year + 1, &c[2], &c[3])
        })
        .into_owned()
    });
    // The document's own defects, known from 2015, are allowed by their codes.
    let known = "W0501,W0601,W0301,W0102";
    let ed = s(&dir.0);
    let check = || bfr(&["check", "--color", "never", "-D", "--allow", known, &ed]);
    let (code, stdout, stderr) = check();
    assert_eq!(code, 1, "{stdout}");
    let weekday_warnings = stderr.matches("[W0101]").count();
    assert!(weekday_warnings > 50, "{stderr}");
    assert_eq!(stderr.matches("] Warning").count(), weekday_warnings);
    assert!(
        stderr.contains("2016-07-24 is a Sunday, not a Friday"),
        "{stderr}"
    );
    assert!(stdout.contains("0 errors") && stdout.contains("(warnings denied)"));
    // The editor writes each date's true weekday: the check passes.
    let dated =
        regex::Regex::new(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{4})-(\d\d)-(\d\d)\b").unwrap();
    rewrite(&dir.0, |text| {
        dated
            .replace_all(text, |c: &regex::Captures| {
                let day = chrono::NaiveDate::from_ymd_opt(
                    c[2].parse().unwrap(),
                    c[3].parse().unwrap(),
                    c[4].parse().unwrap(),
                )
                .unwrap();
                format!("{:?} {}-{}-{}", day.weekday(), &c[2], &c[3], &c[4])
            })
            .into_owned()
    });
    let (code, stdout, stderr) = check();
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("0 errors, 0 warnings"), "{stdout}");
}

#[test]
fn a_baseline_carries_over_to_next_years_edition_whose_dates_moved() {
    // Next year's edition: every date a year on, weekdays kept (364 days). Its
    // known defects are the same defects, written with the new year.
    let dir = copy_2015("baseline-next-year");
    let baseline = dir.0.join("accepted.txt");
    bfr(&["check", "--write-baseline", &s(&baseline), &s(&dir.0)]);
    let known = warnings_of(&dir.0);
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "bfr") {
            let text = std::fs::read_to_string(&p).unwrap();
            std::fs::write(&p, crate::diff::shift_dates(&text, 364)).unwrap();
        }
    }
    let written = std::fs::read_to_string(&baseline).unwrap();
    let (code, stdout, stderr) = bfr(&["check", "-D", "--baseline", &s(&baseline), &s(&dir.0)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!(
            "0 errors, 0 warnings ({known} accepted by the baseline)"
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains("no longer") && !stderr.contains("no longer"),
        "{stdout}{stderr}"
    );
    // The baseline says 2015, next year's check says 2016: accepted all the same.
    let (_, _, plain) = bfr(&["check", "--color", "never", &s(&dir.0)]);
    assert!(
        written.contains("year 2015") && !written.contains("year 2016"),
        "{written}"
    );
    assert!(plain.contains("not in the edition's year 2016"), "{plain}");
}

#[test]
fn a_bad_date_or_time_stops_only_what_uses_it_and_a_syntax_error_stops_the_check() {
    let dir = copy_2015("bad-literal");
    // A time past 23:59 in one file, a mistake of another kind in another.
    edit(
        &dir.0,
        "chairmans_cup.bfr",
        "= Fri 2015-07-24 20:00",
        "= Fri 2015-07-24 24:00",
    );
    edit(
        &dir.0,
        "sm_lag_veteran.bfr",
        "p.11 \"SM-tävlingar lag\" = 1955",
        "p.11 \"SM-tävlingar lag\" = \"1955\"",
    );
    let (code, stdout, stderr) = bfr(&["check", "--color", "never", &s(&dir.0)]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("[E0007]") && stderr.contains("`24:00`"),
        "{stderr}"
    );
    assert!(stderr.contains("[E0201]"), "{stderr}");
    // The rule that compares with the bad time says nothing more: two errors.
    assert_eq!(stderr.matches("] Error:").count(), 2, "{stderr}");
    assert!(stdout.contains("2 errors"), "{stdout}");

    // A syntax error leaves a file unread, and its names undeclared: the check
    // stops there, with what reading found.
    edit(
        &dir.0,
        "scoring.bfr",
        "unit score_point \"",
        "unit unit score_point \"",
    );
    let (code, _, stderr) = bfr(&["check", "--color", "never", &s(&dir.0)]);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0007]"), "{stderr}");
    assert!(!stderr.contains("[E0201]"), "{stderr}");
}
