//! The `bfr` binary: exit codes, output formats, colour, traces, determinism,
//! and the examples of `docs/language.md`.

use crate::support::{bfr_output as bfr, root};
use std::process::Output;

const MINI: &str = "tests/fixtures/mini";
const FAILING: &str = "tests/cases/diagnostics/W0503-example-does-not-hold.bfr";
const WARNING_ONLY: &str = "tests/cases/diagnostics/W0201-no-source-reference.bfr";
const BROKEN: &str = "tests/cases/diagnostics/E0301-scale-rows-overlap.bfr";

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", stdout(out)))
}

// ── exit codes ──────────────────────────────────────────────────────────────

#[test]
fn exit_0_for_a_clean_edition() {
    let out = bfr(&["check", MINI]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("0 errors, 0 warnings"));
}

#[test]
fn exit_0_with_warnings_only() {
    let out = bfr(&["check", "--color", "never", WARNING_ONLY]);
    assert_eq!(code(&out), 0);
    assert!(stderr(&out).contains("[W0201]"));
    assert!(stdout(&out).contains("0 errors, 1 warning"));
}

#[test]
fn arguments_in_another_order_are_a_usage_error_that_gives_the_order() {
    let event = "tests/fixtures/events/full.toml";
    let edition = "tests/fixtures/events";
    for (args, usage) in [
        (vec!["run", event, edition], "`bfr run EDITION EVENT`"),
        (
            vec![
                "invoice",
                "tests/cases/entries/E0800-date-not-quoted.toml",
                "rules/2015",
            ],
            "`bfr invoice EDITION ENTRIES`",
        ),
        (
            vec![
                "allocate",
                "rules/2015",
                "tests/fixtures/allocate/hand.toml",
                "Dam",
            ],
            "`bfr allocate EDITION DISCIPLINE STARTS`",
        ),
    ] {
        let out = bfr(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.starts_with(&format!(
                "error: the arguments are in another order: {usage}"
            )),
            "{said}"
        );
    }
    // The right order runs; a file where a directory goes that is no data file
    // is read as an edition of one file, as before.
    assert_eq!(code(&bfr(&["run", edition, event])), 0);
    let out = bfr(&["run", BROKEN, event]);
    assert_ne!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn exit_1_for_errors() {
    let out = bfr(&["check", "--color", "never", BROKEN]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("[E0301]"));
}

#[test]
fn exit_1_when_an_example_fails_in_bfr_test() {
    let out = bfr(&["test", "--color", "never", FAILING]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("0 passed, 1 failed"));
    assert!(stderr(&out).contains("[E0501]"));
}

#[test]
fn exit_0_when_every_example_passes() {
    let out = bfr(&["test", MINI]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("1 passed, 0 failed"));
}

#[test]
fn exit_2_for_usage_errors() {
    for args in [
        &["frobnicate"][..],
        &["check"][..],
        &["eval", MINI][..],
        &[][..],
        &["check", "--format", "xml", MINI][..],
    ] {
        let out = bfr(args);
        assert_eq!(code(&out), 2, "bfr {args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty());
    }
}

#[test]
fn exit_3_for_a_missing_path_and_the_message_names_it() {
    for cmd in ["check", "test"] {
        let out = bfr(&[cmd, "tests/no/such/edition"]);
        assert_eq!(code(&out), 3);
        assert!(
            stderr(&out).contains("tests/no/such/edition"),
            "{}",
            stderr(&out)
        );
    }
    let out = bfr(&["eval", "tests/no/such/edition", "1"]);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("tests/no/such/edition"));
}

#[test]
fn exit_2_for_a_file_that_is_not_rules_where_the_edition_goes() {
    // A text file, and an event file inside an edition's directory (which `check`
    // would otherwise check "in its edition", reporting on a file it never read).
    let event = "tests/fixtures/events/full.toml";
    let before = std::fs::read(root().join(event)).unwrap();
    let cases: [&[&str]; 8] = [
        &["test", "README.md"],
        &["fmt", "--check", event],
        &["fmt", MINI, event],
        &["check", MINI, event],
        &["eval", event, "1"],
        &["list", event],
        &["run", event, event],
        &["entries", "check", event, event],
    ];
    for args in cases {
        let out = bfr(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("is not a rules file"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{args:?}: nothing is checked");
    }
    assert_eq!(
        std::fs::read(root().join(event)).unwrap(),
        before,
        "fmt left it alone"
    );
    let out = bfr(&["check", event]);
    assert!(
        stderr(&out).contains("a data file")
            && stderr(&out).contains("`bfr entries check EDITION ENTRIES`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_command_refused_by_the_editions_errors_shows_them_and_counts_its_warnings() {
    let dir = crate::support::TempDir::new("errors-only");
    let file = dir.0.join("rules.bfr");
    let text = std::fs::read_to_string(root().join(WARNING_ONLY)).unwrap();
    std::fs::write(&file, format!("{text}const broken: number = nosuch\n")).unwrap();
    let path = file.to_str().unwrap();
    for args in [&["eval", path, "1"][..], &["test", path][..]] {
        let out = bfr(args);
        assert_eq!(code(&out), 1);
        let err = stderr(&out);
        assert!(err.contains("[E0101]"), "{err}");
        assert!(
            !err.contains("Warning"),
            "the warnings are `bfr check`'s: {err}"
        );
        assert!(err.contains("which shows its "), "{err}");
    }
    let event = "tests/fixtures/events/full.toml";
    let entries = "tests/fixtures/entries/festival.toml";
    // `run` and `entries` say it in their own JSON shapes, errors only.
    let runs: [(&[&str], &str); 2] = [
        (&["run", path, event], "diagnostics"),
        (&["entries", "check", path, entries], "diagnostics"),
    ];
    for (args, key) in runs {
        let out = bfr(args);
        assert_eq!(code(&out), 1, "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("[E0101]") && !err.contains("Warning"), "{err}");
        assert!(err.contains("which shows its "), "{err}");
        assert!(stdout(&out).is_empty(), "{args:?}: nothing ran");
        let json_args: Vec<&str> = ["--format", "json"].iter().chain(args).copied().collect();
        let out = bfr(&json_args);
        assert_eq!(code(&out), 1, "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let codes: Vec<&str> = v[key]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["code"].as_str())
            .collect();
        assert_eq!(codes, ["E0101"], "{args:?}: errors only");
    }
    let out = bfr(&["check", path]);
    assert!(stderr(&out).contains("[W0201]"));
}

#[test]
fn simulate_finds_a_competition_by_name_or_title_as_an_event_file_does() {
    let by_name = bfr(&["simulate", "tests/fixtures/events", "mini", "--teams", "8"]);
    assert_eq!(code(&by_name), 0, "{}", stderr(&by_name));
    let by_title = bfr(&[
        "simulate",
        "tests/fixtures/events",
        "MINI cup",
        "--teams",
        "8",
    ]);
    assert_eq!(code(&by_title), 0, "{}", stderr(&by_title));
    assert_eq!(stdout(&by_name), stdout(&by_title));
}

// ── formats and colour ──────────────────────────────────────────────────────

#[test]
fn check_json_parses() {
    let out = bfr(&["check", "--format", "json", MINI, BROKEN]);
    assert_eq!(code(&out), 1);
    let v = json(&out);
    let reports = v.as_array().expect("an array of editions");
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["errors"], 0);
    assert_eq!(reports[1]["diagnostics"][0]["code"], "E0301");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn test_json_parses() {
    let v = json(&bfr(&["test", "--format", "json", MINI]));
    assert_eq!(v["passed"], 1);
    assert_eq!(v["failed"], 0);
    let v = json(&bfr(&["test", "--format", "json", FAILING]));
    assert_eq!(v["failures"][0]["code"], "E0501");
}

#[test]
fn eval_and_explain_json_parse() {
    let v = json(&bfr(&[
        "eval",
        "--format",
        "json",
        MINI,
        "late_arrival(7 min)",
    ]));
    assert_eq!(v["value"], "deduct 1 VP");
    assert_eq!(v["type"], "penalty");
    let v = json(&bfr(&[
        "explain",
        "--format",
        "json",
        MINI,
        "late_team_fee(12 min)",
    ]));
    assert_eq!(v["value"], "500 SEK");
    assert_eq!(v["trace"][0]["rule"], "late_team_fee");
    assert_eq!(v["trace"][0]["source"]["id"], "CC-FEE");
    let v = json(&bfr(&["eval", "--format", "json", MINI, "entry_fee / 0"]));
    assert_eq!(v["errors"][0]["code"], "E0601");
}

#[test]
fn color_never_has_no_escape_bytes() {
    for args in [
        &["check", "--color", "never", BROKEN][..],
        &["test", "--color", "never", FAILING][..],
        &["eval", "--color", "never", MINI, "nope"][..],
    ] {
        let out = bfr(args);
        assert!(!out.stderr.contains(&0x1b), "bfr {args:?}");
        assert!(!out.stdout.contains(&0x1b), "bfr {args:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = bfr(&["check", "--color", "always", BROKEN]);
    assert!(out.stderr.contains(&0x1b), "`always` colours");
}

// ── eval and explain ────────────────────────────────────────────────────────

#[test]
fn eval_gives_the_value() {
    let out = bfr(&["eval", MINI, "late_arrival(7 min)"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "deduct 1 VP\n");
    let out = bfr(&["eval", MINI, "late_arrival(3 min)"]);
    assert_eq!(stdout(&out), "warning\n");
    let out = bfr(&["eval", MINI, "entry_fee * 2"]);
    assert_eq!(stdout(&out), "1000 SEK\n");
}

#[test]
fn explain_shows_rule_ids_pages_and_sections() {
    let out = bfr(&["explain", MINI, "late_team_fee(12 min)"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "500 SEK");
    assert!(
        lines.contains(&"  late_team_fee(late = 12 min) = 500 SEK"),
        "{text}"
    );
    assert!(
        lines.contains(&"      source: CC-FEE p.14 \"Startavgifter\""),
        "{text}"
    );
    assert!(
        lines.contains(&"    late_arrival(late = 12 min) = deduct 2 VP"),
        "{text}"
    );
    assert!(
        lines.contains(&"        source: CC-LATE p.20 \"Sen ankomst\""),
        "{text}"
    );
    assert!(lines.contains(&"        by row `late > 10 min`"), "{text}");
}

#[test]
fn explain_a_literal_says_no_rule_took_part() {
    let out = bfr(&["explain", MINI, "1 + 1"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("no rule took part"));
}

#[test]
fn explain_a_stage_value_names_the_stage_and_its_source() {
    let out = bfr(&["explain", "rules/2015", "cup.bc32_b.boards"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "20",
            "  cup.bc32_b: stage \"BC32-B\" of Chairman's Cup, ref CC-STAGES p.16 \"Måndag 27 juli\" (rules/2015/chairmans_cup_knockout.bfr:148)",
        ],
        "{text}"
    );
    assert!(!text.contains("no rule took part"));
}

#[test]
fn eval_reports_unknown_names_and_syntax() {
    let out = bfr(&["eval", "--color", "never", MINI, "entry_fe"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("[E0101]"));
    assert!(stderr(&out).contains("did you mean `entry_fee`?"));
    let out = bfr(&["eval", "--color", "never", MINI, "1 +"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("[E0001]"));
}

// ── determinism ─────────────────────────────────────────────────────────────

#[test]
fn check_twice_gives_identical_output() {
    for args in [
        &["check", "--color", "never", MINI, BROKEN, FAILING][..],
        &["check", "--format", "json", MINI, BROKEN, FAILING][..],
        &["check", "--color", "never", "tests/cases/diagnostics"][..],
    ] {
        let (a, b) = (bfr(args), bfr(args));
        assert_eq!(a.stdout, b.stdout, "bfr {args:?}");
        assert_eq!(a.stderr, b.stderr, "bfr {args:?}");
        assert_eq!(code(&a), code(&b));
    }
}

// ── the language reference ──────────────────────────────────────────────────

/// Every ```bfr block of docs/language.md, concatenated, checks without errors
/// and its examples pass: the reference's examples are valid code.
#[test]
fn language_reference_examples_are_valid() {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).expect("the doc");
    let mut code_text = String::new();
    let mut inside = false;
    let mut blocks = 0;
    for line in doc.lines() {
        if inside {
            if line.trim_start().starts_with("```") {
                inside = false;
                code_text.push('\n');
            } else {
                code_text.push_str(line);
                code_text.push('\n');
            }
        } else if line.trim_start() == "```bfr" {
            inside = true;
            blocks += 1;
        }
    }
    assert!(blocks >= 10, "found {blocks} bfr blocks");
    let loaded =
        bfr::edition::load_texts(vec![("docs/language.md".into(), code_text.into_bytes())]);
    let errors: Vec<String> = loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| bfr::diag::render(d, &loaded.sources, bfr::diag::Colour::Off))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let checked = loaded.checked.as_ref().expect("checked");
    assert!(!checked.program.examples.is_empty());
    for ex in &checked.program.examples {
        let outcome = bfr::eval::examples::run(&checked.program, ex);
        let passes = match outcome {
            bfr::eval::examples::Outcome::Holds => !ex.contradicts,
            bfr::eval::examples::Outcome::Fails { .. } => ex.contradicts,
            bfr::eval::examples::Outcome::Error(_) | bfr::eval::examples::Outcome::NotRun => false,
        };
        assert!(passes, "example \"{}\": {outcome:?}", ex.title);
    }
}

#[test]
fn simulate_runs_the_cup_on_the_editions_scale_and_stops_coded_where_no_table_exists() {
    let out = bfr(&[
        "simulate",
        "rules/2015",
        "cup",
        "--teams",
        "87",
        "--seed",
        "7",
    ]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    // SM Lag Veteran's Gröna Hissen plays 7-board matches: no published 25-0 table.
    let out = bfr(&[
        "--color",
        "never",
        "simulate",
        "rules/2015",
        "lv_ko",
        "--teams",
        "20",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 1, "{stderr}");
    assert!(stderr.contains("[E0715]"), "{stderr}");
    assert!(stderr.contains("over 7 boards"), "{stderr}");
    assert!(stderr.contains("--scale RULE"), "{stderr}");
}

/// `--late` and `--district` for a competition with no late start or no district
/// prize are refused as usage, not ignored; where it has them they run.
#[test]
fn simulate_refuses_marks_the_competition_has_no_use_for() {
    let run = |args: &[&str]| {
        let out = bfr(&[&["simulate", "rules/2015"], args].concat());
        (
            code(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (status, stderr) = run(&["lv_series", "--teams", "8", "--late", "3"]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            2,
            "error: --late: SM Lag Veteran has no late start; every team plays from the first round\n"
        )
    );
    let (status, stderr) = run(&["lv_series", "--teams", "8", "--district", "3"]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            2,
            "error: --district: SM Lag Veteran has no district prize\n"
        )
    );
    let (status, stderr) = run(&[
        "cup",
        "--teams",
        "64",
        "--seed",
        "1",
        "--late",
        "3",
        "--district",
        "4",
    ]);
    assert_eq!(status, 0, "{stderr}");
}

#[test]
fn simulate_stops_with_coded_diagnostics_at_the_editions_item_at_fault() {
    let run = |args: &[&str]| {
        let out = bfr(&[&["--color", "never", "simulate", "rules/2015"], args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (code(&out), stderr)
    };
    // A field the competition has no rule for: E0716 at the competition.
    let (status, stderr) = run(&["cup", "--teams", "40"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("[E0716]"), "{stderr}");
    assert!(stderr.contains("needs at least 64"), "{stderr}");
    assert!(stderr.contains("competition cup"), "{stderr}");
    assert!(!stderr.contains("the edition has `"), "{stderr}");
    // A count of the field its rule has no answer for: at the competition, with
    // a note at the rule.
    let (status, stderr) = run(&["lv_series", "--teams", "9"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("[E0716]"), "{stderr}");
    assert!(stderr.contains("competition lv_series \""), "{stderr}");
    assert!(
        stderr.contains("fn lv_series_boards(teams: team)")
            && stderr.contains("the rule that gives this count"),
        "{stderr}"
    );
    // One event split by its field: the competition that takes the field is named.
    let (status, stderr) = run(&["lv_series", "--teams", "20"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.contains("`lv_series` takes at most 16")
            && stderr.contains("Help: for 20 teams the edition has `lv_ko` (Öppna SM Lag Veteran): run that competition"),
        "{stderr}"
    );
    let (_, stderr) = run(&["lv_ko", "--teams", "12"]);
    assert!(
        stderr.contains("Help: for 12 teams the edition has `lv_series` (SM Lag Veteran)"),
        "{stderr}"
    );
    // Names the edition does not have: E0711, about no place in it.
    let (status, stderr) = run(&["cupx", "--teams", "40"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.starts_with("error[E0711]"), "{stderr}");
    let (status, stderr) = run(&["cup", "--teams", "64", "--scale", "nope"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.starts_with("error[E0711]"), "{stderr}");
    // A rule that cannot score a match: refused before a match is played,
    // with the scale meant.
    let (status, stderr) = run(&["cup", "--teams", "64", "--scale", "wbf20_winner_vp"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("E0714"), "{stderr}");
    assert!(
        stderr.contains("`wbf20_winner_vp` cannot score a match")
            && stderr.contains("did you mean `wbf20_result`"),
        "{stderr}"
    );
    // JSON: the message and the diagnostic with its code.
    let out = bfr(&[
        "--format",
        "json",
        "simulate",
        "rules/2015",
        "cup",
        "--teams",
        "40",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["code"], "E0716", "{v}");
}
