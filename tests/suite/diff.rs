//! `bfr diff`: the 2015 edition against itself and against variants made from
//! its text, and the behavioural diff at the edges of a changed scale.

use crate::support::{EDITION_2015, TempDir, bfr, root};
use bfr::diff::{self, Detail, Side};
use bfr::edition::{edition_files, load};
use std::path::Path;

/// The 2015 edition's files written to a temporary directory, each with
/// `edit(file name, text)` applied.
fn variant(tag: &str, edit: impl Fn(&str, String) -> String) -> TempDir {
    let dir = TempDir::new(tag);
    for path in edition_files(&root().join(EDITION_2015)).unwrap() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(dir.0.join(&name), edit(&name, text)).unwrap();
    }
    dir
}

/// `text` with `from` (which occurs exactly once) replaced by `to`.
fn once(text: String, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "`{from}`");
    text.replace(from, to)
}

/// `text` as a new year's edition writes it: every date moved by `days` but
/// another document's (the line after a `cites`), which stays.
pub(crate) fn shift_dates(text: &str, days: i64) -> String {
    let mut out = String::new();
    let mut cited = false;
    for line in text.split_inclusive('\n') {
        out.push_str(&if cited {
            line.to_string()
        } else {
            shift_all_dates(line, days)
        });
        cited = line.contains(" cites \"");
    }
    out
}

/// Every `YYYY-MM-DD` in `text` moved by `days`.
fn shift_all_dates(text: &str, days: i64) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < text.len() {
        let date = text
            .get(i..i + 10)
            .filter(|s| {
                s.bytes().enumerate().all(|(k, b)| {
                    if k == 4 || k == 7 {
                        b == b'-'
                    } else {
                        b.is_ascii_digit()
                    }
                })
            })
            .filter(|_| i == 0 || !bytes[i - 1].is_ascii_digit())
            .and_then(|s| s.parse::<jiff::civil::Date>().ok());
        match date {
            Some(d) => {
                let moved = d.checked_add(jiff::Span::new().days(days)).unwrap();
                out.push_str(&moved.to_string());
                i += 10;
            }
            None => {
                let c = text[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// The checked programs of the 2015 edition and of the variant at `new`.
fn programs(new: &Path) -> (bfr::ir::Program, bfr::ir::Program) {
    let program = |p: &Path| load(p).unwrap().checked.unwrap().program;
    (program(&root().join(EDITION_2015)), program(new))
}

fn diff_of(old: &Path, new: &Path) -> diff::Diff {
    diff_within(old, new, diff::behaviour::MAX_DIFF_STEPS)
}

/// The diff of the editions at `old` and `new`, its answers worked out in at
/// most `steps` evaluation steps.
fn diff_within(old: &Path, new: &Path, steps: u64) -> diff::Diff {
    let a = load(old).unwrap();
    let b = load(new).unwrap();
    let (ca, cb) = (a.checked.unwrap(), b.checked.unwrap());
    let side = |p, s, r: &Path| Side {
        program: p,
        sources: s,
        root: r.display().to_string(),
    };
    diff::diff_within(
        &side(&ca.program, &a.sources, old),
        &side(&cb.program, &b.sources, new),
        steps,
    )
}

#[test]
fn every_edition_against_itself_has_no_differences() {
    let mut editions = 0;
    for entry in std::fs::read_dir(root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_dir() {
            continue;
        }
        editions += 1;
        let p = path.strip_prefix(root()).unwrap().display().to_string();
        let (code, out, err) = bfr(&["diff", &p, &p]);
        assert_eq!(code, 0, "{p}: {out}{err}");
        assert!(out.ends_with("no differences\n"), "{out}");
        let (code, out, _) = bfr(&["--format", "json", "diff", &p, &p]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["files"], serde_json::json!([]));
    }
    assert!(editions >= 1);
}

#[test]
fn a_rule_added_before_the_rules_a_competition_names_changes_no_competition() {
    // Every rule after the new const moves one place in the edition's list of
    // rules; a competition names its rules (VP and IMP scales, trophy points,
    // …) by that place, and the diff must compare them by name.
    let new = variant("diff-one-more-const", |name, text| {
        if name == "chairmans_cup.bfr" {
            format!("const aa_extra: SEK ref CC-FEE p.14 \"Startavgifter\" = 1 SEK\n{text}")
        } else {
            text
        }
    });
    let d = diff_of(&root().join(EDITION_2015), &new.0);
    let items: Vec<String> = d
        .files
        .iter()
        .flat_map(|f| {
            f.items
                .iter()
                .map(|i| format!("{}: {:?} {}", f.file, i.status, i.name))
        })
        .collect();
    assert_eq!(items, ["chairmans_cup.bfr: Added aa_extra"], "{items:#?}");
}

/// The 2015 edition with one change of each kind: a scale row, a fee, a routing
/// and a new stage, a removed rule, a renamed rule, a calendar shift (+364 days)
/// with one deadline moved otherwise, and a changed reading.
fn deliberate_changes() -> TempDir {
    variant("diff-deliberate", |name, text| {
        let text = match name {
            "chairmans_cup_conduct.bfr" => {
                let t = once(
                    text,
                    "10 min < late <= 15 min => deduct 2 VP",
                    "10 min < late <= 15 min => deduct 3 VP",
                );
                once(
                    t,
                    "= LateArrivalKnockoutReading.OnePlusEachStartedMinute",
                    "= LateArrivalKnockoutReading.EachStartedMinute",
                )
            }
            "chairmans_cup_knockout.bfr" => {
                let t = once(
                    text,
                    "    winners -> bc_po34\n    losers -> place 5..6\n",
                    "    winners -> bc_po34\n    losers -> bc_po56\n",
                );
                once(
                    t,
                    "    winners -> place 3\n    losers -> place 4\n  }\n",
                    "    winners -> place 3\n    losers -> place 4\n  }\n  \
                     stage bc_po56 \"BC Play-Off 5/6\" ref CC-STAGES p.16 \"Torsdag 30 juli\" {\n    \
                     order = 15\n    day = Thu 2015-07-30\n    part = DayPart.AfternoonEvening\n    \
                     teams = 2\n    boards = 32\n    draw = CcDrawMethod.Fixed\n    \
                     winners -> place 5\n    losers -> place 6\n  }\n",
                )
            }
            "sm_pairs.bfr" => once(
                text,
                "const sm_open_semifinal_boards: board ref SM-PAIR-EVENTS p.11 \"SM-tävlingar par\" = 60 boards\n",
                "",
            ),
            "chairmans_cup.bfr" => {
                let t = once(text, "= 500 SEK/player", "= 550 SEK/player");
                let t = once(
                    t,
                    "cc_registration_closes: datetime ref CC-REG p.14 \"Anmälan\" = Fri 2015-07-24 20:00",
                    "cc_registration_closes: datetime ref CC-REG p.14 \"Anmälan\" = Thu 2015-07-23 20:00",
                );
                t.replace("cc_gh_fee_team_cap", "cc_gh_team_fee_cap")
            }
            _ => text,
        };
        shift_dates(&text, 364)
    })
}

#[test]
fn a_reordered_tie_break_chain_is_shown_in_the_documents_words() {
    let dir = variant("diff-tie-break", |name, text| {
        if name != "chairmans_cup.bfr" {
            return text;
        }
        let swapped = once(
            text,
            "[cc_gh_tie_break_1, cc_gh_tie_break_2, cc_gh_tie_break_3, cc_gh_tie_break_4]",
            "[cc_gh_tie_break_1, cc_gh_tie_break_3, cc_gh_tie_break_2, cc_gh_tie_break_4]",
        );
        let swapped = once(
            swapped,
            "cc_gh_tie_break_chain[2] == CcTieBreak.SwissPoints",
            "cc_gh_tie_break_chain[2] == CcTieBreak.ImpQuotient",
        );
        once(
            swapped,
            "cc_gh_tie_break_chain[3] == CcTieBreak.ImpQuotient",
            "cc_gh_tie_break_chain[3] == CcTieBreak.SwissPoints",
        )
    });
    let (code, out, err) = bfr(&["diff", EDITION_2015, &dir.0.display().to_string()]);
    assert_eq!(code, 1, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains("qualification.tie_break"))
        .unwrap_or_else(|| panic!("{out}"));
    // Each criterion by its label, as the report shows it; no JSON.
    assert!(!line.contains('{') && !line.contains("meaning"), "{line}");
    assert_eq!(
        line.trim(),
        "qualification.tie_break: VP, Swiss Points (SP), kvoten av vunna och förlorade IMP, \
         lägre lagnummer (ej i texten) → VP, kvoten av vunna och förlorade IMP, \
         Swiss Points (SP), lägre lagnummer (ej i texten)"
    );
}

#[test]
fn a_variant_with_one_change_of_each_kind() {
    let dir = deliberate_changes();
    let new = dir.0.display().to_string();
    let (code, out, err) = bfr(&["diff", EDITION_2015, &new]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!(out.replace(&new, "VARIANT"));
    let (code, out, _) = bfr(&["diff", EDITION_2015, &new, "--stat"]);
    assert_eq!(code, 1, "differences found, whatever is shown of them");
    insta::assert_snapshot!("stat", out.replace(&new, "VARIANT"));
}

#[test]
fn the_variant_as_json() {
    let dir = deliberate_changes();
    let new = dir.0.display().to_string();
    let (code, out, _) = bfr(&["--format", "json", "diff", EDITION_2015, &new]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["calendar"]["days"], 364);
    assert_eq!(v["calendar"]["weekdays_kept"], true);
    let items: Vec<&serde_json::Value> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["items"].as_array().unwrap())
        .collect();
    let find = |name: &str| *items.iter().find(|i| i["name"] == name).unwrap();
    let renamed = find("cc_gh_team_fee_cap");
    assert_eq!(renamed["status"], "renamed");
    assert_eq!(renamed["old_name"], "cc_gh_fee_team_cap");
    assert_eq!(renamed["source"]["id"], "CC-FEE");
    let removed = find("sm_open_semifinal_boards");
    assert_eq!(removed["status"], "removed");
    assert_eq!(removed["source"]["pages"], "11");
    let fee = find("cc_gh_fee_senior");
    assert_eq!(
        fee["details"][0],
        serde_json::json!({"change": "changed", "what": "value", "old": "500 SEK/player", "new": "550 SEK/player"})
    );
    // The caller of the renamed rule is listed for the fee it calls, not for
    // the rename: its body is the same.
    let caller = find("cc_gh_entry_fee");
    assert_eq!(
        caller["details"][0],
        serde_json::json!({"change": "through", "rules": ["cc_gh_fee_senior"]})
    );
    // Its two inputs, evaluated together: one senior, no junior.
    assert_eq!(
        caller["details"][1],
        serde_json::json!({"change": "answers", "input": "seniors 1 player, juniors 0 players", "old": "500 SEK", "new": "550 SEK"})
    );
}

/// Both editions' answers of `late_arrival_qualification` at `seconds`.
fn late_answers(old: &bfr::ir::Program, new: &bfr::ir::Program, seconds: i64) -> (String, String) {
    let answer = |p: &bfr::ir::Program| {
        let (i, _) = p.rule("late_arrival_qualification").unwrap();
        let mut ev = bfr::eval::Evaluator::new(p);
        let v = ev
            .call(
                i,
                vec![bfr::ir::Value::Duration(seconds.into())],
                Default::default(),
            )
            .unwrap();
        v.show(p)
    };
    (answer(old), answer(new))
}

#[test]
fn a_moved_scale_boundary_is_found_exactly() {
    // 1 VP up to 12 minutes instead of 10; 2 VP from over 12 up to 15.
    let dir = variant("diff-boundary", |name, text| {
        if name != "chairmans_cup_conduct.bfr" {
            return text;
        }
        let t = once(
            text,
            "5 min < late <= 10 min  => deduct 1 VP",
            "5 min < late <= 12 min  => deduct 1 VP",
        );
        once(
            t,
            "10 min < late <= 15 min => deduct 2 VP",
            "12 min < late <= 15 min => deduct 2 VP",
        )
    });
    let old_path = root().join(EDITION_2015);
    let d = diff_of(&old_path, &dir.0);
    let item = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == "late_arrival_qualification")
        .unwrap();
    let answers: Vec<&Detail> = item
        .details
        .iter()
        .filter(|d| matches!(d, Detail::Answers { .. }))
        .collect();
    assert_eq!(
        answers,
        [&Detail::Answers {
            input: "over 10 min up to 12 min".into(),
            sample: None,
            old: "deduct 2 VP".into(),
            new: "deduct 1 VP".into(),
        }]
    );
    // Both sides of both ends, evaluated in each edition.
    let old = load(&old_path).unwrap().checked.unwrap().program;
    let new = load(&dir.0).unwrap().checked.unwrap().program;
    let same = |s| {
        let (a, b) = late_answers(&old, &new, s);
        a == b
    };
    assert!(same(600), "at 10 min both say 1 VP");
    assert!(!same(601), "just over 10 min they differ");
    assert!(!same(720), "at 12 min they differ");
    assert!(same(721), "just over 12 min both say 2 VP");
}

#[test]
fn a_calendar_shift_is_said_once_and_other_moves_are_listed() {
    let dir = variant("diff-calendar", |_, text| shift_dates(&text, 364));
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let shift = d.calendar.clone().unwrap();
    assert_eq!(shift.days, 364);
    assert!(shift.weekdays_kept);
    assert_eq!(shift.moved, shift.dates);
    assert!(
        shift
            .line()
            .starts_with(&format!("all {} dates +364 days", shift.dates))
    );
    // No rule, example or competition changed: only prose that writes dates.
    // Another document's dates (`cites`) stayed, and are not counted.
    for f in &d.files {
        for i in &f.items {
            assert!(
                matches!(i.kind, diff::Kind::Procedure)
                    || i.details.iter().all(|d| matches!(d, Detail::Words { .. })),
                "{} {:?}",
                i.name,
                i.details
            );
        }
    }
    // An assertion changed besides the shift: the old one as written, its date
    // moved as the calendar moves it, so that only the hour differs.
    let later = variant("diff-calendar-assertion", |name, text| {
        let text = if name == "chairmans_cup.bfr" {
            once(
                text,
                "cc_registration_in_time(Thu 2015-07-23 09:00)",
                "cc_registration_in_time(Thu 2015-07-23 10:00)",
            )
        } else {
            text
        };
        shift_dates(&text, 364)
    });
    let d = diff_of(&root().join(EDITION_2015), &later.0);
    let example = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| {
            i.kind == diff::Kind::Example
                && !i.details.is_empty()
                && i.source.as_ref().is_some_and(|s| &*s.id == "CC-REG")
        })
        .unwrap();
    assert_eq!(
        example.details,
        [Detail::Changed {
            what: "assertion 3".into(),
            old: "cc_registration_in_time(Thu 2016-07-21 09:00)".into(),
            new: "cc_registration_in_time(Thu 2016-07-21 10:00)".into(),
        }]
    );
    // Moved with the rest, the master point rules' date is a change, shown as
    // written, not as the calendar would move it.
    let moved = variant("diff-calendar-cited", |_, text| shift_all_dates(&text, 364));
    let d = diff_of(&root().join(EDITION_2015), &moved.0);
    assert_eq!(d.calendar.as_ref().map(|c| c.dates), Some(shift.dates));
    let item = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == "sm_master_point_rules_date_p5")
        .unwrap();
    assert_eq!(
        item.details[0],
        Detail::Changed {
            what: "value".into(),
            old: "Tue 2014-07-01".into(),
            new: "Tue 2015-06-30".into(),
        }
    );
}

#[test]
fn a_date_moved_against_the_shift_is_listed_alone() {
    let dir = variant("diff-calendar-other", |name, text| {
        let text = if name == "chairmans_cup.bfr" {
            once(
                text,
                "cc_registration_closes: datetime ref CC-REG p.14 \"Anmälan\" = Fri 2015-07-24 20:00",
                "cc_registration_closes: datetime ref CC-REG p.14 \"Anmälan\" = Thu 2015-07-23 20:00",
            )
        } else {
            text
        };
        shift_dates(&text, 364)
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let shift = d.calendar.clone().unwrap();
    assert_eq!(shift.moved + 1, shift.dates);
    let item = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == "cc_registration_closes")
        .unwrap();
    assert_eq!(
        item.details,
        [Detail::Changed {
            what: "value".into(),
            // The old date as the shift moves it: one day later than the new one.
            old: "Fri 2016-07-22 20:00".into(),
            new: "Thu 2016-07-21 20:00".into(),
        }]
    );
}

#[test]
fn a_table_row_is_listed_by_its_key() {
    let dir = variant("diff-table", |name, text| {
        if name != "chairmans_cup_knockout.bfr" {
            return text;
        }
        once(
            text,
            "  A => 32 boards,\n  B => 64 boards,\n",
            "  A => 32 boards,\n  B => 48 boards,\n",
        )
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let items: Vec<&diff::Item> = d.files.iter().flat_map(|f| &f.items).collect();
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0].name, "cc_withdrawal_third_place_boards");
    assert_eq!(items[0].kind, diff::Kind::Table);
    assert_eq!(
        items[0].details,
        [Detail::Changed {
            what: "row B".into(),
            old: "64 boards".into(),
            new: "48 boards".into(),
        }]
    );
    // The play-off's stage takes its withdrawal length from the table.
    assert_eq!(items[1].name, "cup");
    assert_eq!(
        items[1].details,
        [Detail::Changed {
            what: "stage bc_po34.withdrawal_boards".into(),
            old: "64".into(),
            new: "48".into(),
        }]
    );
}

/// The `(input, old, new)` answers listed for `name` in `d`.
fn answers_of(d: &diff::Diff, name: &str) -> Vec<(String, String, String)> {
    d.files
        .iter()
        .flat_map(|f| &f.items)
        .filter(|i| i.name == name)
        .flat_map(|i| &i.details)
        .filter_map(|d| match d {
            Detail::Answers {
                input, old, new, ..
            } => Some((input.clone(), old.clone(), new.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_rule_of_two_inputs_is_compared_over_both_at_the_cap() {
    // The Gröna Hissen fee's cap from 2000 to 2200 SEK: 500 SEK per senior and
    // 125 SEK per junior reach 2000 SEK at 4 + 0 and 3 + 4.
    let dir = variant("diff-two-inputs", |name, text| {
        if name != "chairmans_cup.bfr" {
            return text;
        }
        once(
            text,
            "cc_gh_fee_team_cap: SEK ref CC-FEE p.14 \"Startavgifter\" = 2000 SEK",
            "cc_gh_fee_team_cap: SEK ref CC-FEE p.14 \"Startavgifter\" = 2200 SEK",
        )
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let found = answers_of(&d, "cc_gh_entry_fee");
    let has = |input: &str| found.iter().find(|(i, _, _)| i == input).cloned();
    // At the cap in both editions: not listed; one junior over it: listed.
    assert_eq!(
        has("seniors 4 players, juniors 0 players"),
        None,
        "{found:?}"
    );
    assert_eq!(
        has("seniors 4 players, juniors 1 player"),
        Some((
            "seniors 4 players, juniors 1 player".into(),
            "2000 SEK".into(),
            "2125 SEK".into()
        ))
    );
    // Neighbours with the same answers are one range.
    assert_eq!(
        has("seniors 4 players, juniors from 2 players up to 8 players"),
        Some((
            "seniors 4 players, juniors from 2 players up to 8 players".into(),
            "2000 SEK".into(),
            "2200 SEK".into()
        ))
    );
    assert!(
        found
            .iter()
            .all(|(i, _, _)| !i.starts_with("seniors 3 players, juniors 4 ")),
        "3 + 4 is 2000 SEK in both: {found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(i, _, _)| i == "seniors 3 players, juniors 5 players")
    );
    // The answers are the editions' own: evaluated, not assumed.
    let (old, new) = programs(&dir.0);
    let fee = |p: &bfr::ir::Program, s: i64, j: i64| {
        let (i, _) = p.rule("cc_gh_entry_fee").unwrap();
        bfr::eval::Evaluator::new(p)
            .call(i, vec![count(p, s), count(p, j)], Default::default())
            .unwrap()
            .show(p)
    };
    assert_eq!(fee(&old, 4, 0), fee(&new, 4, 0));
    assert_ne!(fee(&old, 4, 1), fee(&new, 4, 1));
}

/// `n` players, in the program's own unit.
fn count(p: &bfr::ir::Program, n: i64) -> bfr::ir::Value {
    let (_, rule) = p.rule("lv_max_players").unwrap();
    let bfr::ir::Type::Num(u) = &rule.ret else {
        panic!("players are a quantity")
    };
    bfr::ir::Value::Num(n.into(), u.clone())
}

#[test]
fn a_changed_routing_parts_the_simulated_events() {
    let dir = deliberate_changes();
    let new = dir.0.display().to_string();
    let (code, out, err) = bfr(&[
        "--format",
        "json",
        "diff",
        EDITION_2015,
        &new,
        "--simulate",
        "3",
    ]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sims = v["simulated"].as_array().unwrap();
    // Only the cup changed: the Senior teams' competitions play the same.
    assert_eq!(sims.len(), 1, "{sims:?}");
    let cup = &sims[0];
    assert_eq!(cup["competition"], "cup");
    assert_eq!(cup["teams"], 64);
    assert_eq!(cup["events"], 3);
    // BC04-B's losers now play for 5th place: every event parts, first where
    // the new stage is played (draws and standings before it are the same).
    assert_eq!(cup["diverged"], 3);
    let first = &cup["first"];
    assert_eq!(first["seed"], 1);
    assert_eq!(first["at"], "stage bc_po56 draw, table 1", "{first}");
    assert_eq!(first["old"], "no such step");
    // The old edition's event, the same seed, agrees up to there: the first
    // difference is never earlier than the new stage.
    let (_, text, _) = bfr(&["diff", EDITION_2015, &new, "--simulate", "3"]);
    insta::assert_snapshot!(
        "simulated",
        text.lines()
            .skip_while(|l| !l.starts_with("simulated "))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn an_unchanged_competition_does_not_part() {
    let (code, out, err) = bfr(&["diff", EDITION_2015, EDITION_2015, "--simulate", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("no differences\n"), "{out}");
}

#[test]
fn the_entries_and_federation_blocks_are_compared_key_by_key() {
    let dir = variant("diff-blocks", |name, text| {
        if name != "entries.bfr" {
            return text;
        }
        let text = once(
            text,
            "  lv_team = [lv_series, lv_ko]\n",
            "  lv_team = lv_series\n",
        );
        let text = once(
            text,
            "  sm_open_first_allotment = sm_open_first_allotment\n",
            "",
        );
        let text = once(text, "  seeding = sm_seeding\n", "");
        once(text, "  seeding_unique = [pair.pair]\n", "")
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    assert!(d.files.is_empty(), "{:?}", d.files);
    assert_eq!(
        d.blocks,
        [
            Detail::Removed {
                what: "entries sm_open_first_allotment".into(),
                value: "sm_open_first_allotment".into(),
            },
            Detail::Changed {
                what: "entries lv_team".into(),
                old: "[lv_series, lv_ko]".into(),
                new: "lv_series".into(),
            },
            Detail::Removed {
                what: "federation seeding".into(),
                value: "sm_seeding".into(),
            },
            Detail::Removed {
                what: "federation seeding_unique".into(),
                value: "[pair.pair]".into(),
            },
        ]
    );
    // The CLI says so, and its exit status counts it as a difference.
    let (old, new) = (root().join(EDITION_2015), dir.0.clone());
    let (code, text, _) = bfr(&[
        "diff",
        "--no-cache",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("entries and federation blocks\n")
            && text.contains("entries lv_team: [lv_series, lv_ko] → lv_series")
            && text.contains("4 changes to the entries and federation blocks, 0 changed items"),
        "{text}"
    );
}

#[test]
fn a_change_to_the_edition_header_alone_is_counted_in_the_summary() {
    let dir = variant("diff-header", |name, text| {
        if name == "edition.bfr" {
            once(text, "updated Sat 2015-07-25", "updated Sun 2015-07-26")
        } else {
            text
        }
    });
    let (old, new) = (root().join(EDITION_2015), dir.0.clone());
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (code, text, _) = bfr(&["diff", "--no-cache", old, new]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("updated: Sat 2015-07-25 → Sun 2015-07-26")
            && text.ends_with("\n1 change to the edition header, 0 changed items in 0 files\n"),
        "{text}"
    );
    let (code, text, _) = bfr(&["diff", "--no-cache", "--stat", old, new]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.ends_with("and 1 change to the edition header\n"),
        "{text}"
    );
}

/// Written values at the very edge of what a decimal holds: nothing lies
/// beyond them, so no answer is sampled there, and the pieces between two
/// huge values are found without their sum (once an overflow, exit 3).
#[test]
fn written_values_at_the_decimal_edge_are_compared_without_overflow() {
    const MAX: &str = "79228162514264337593543950335";
    let write = |tag: &str, answers: [u8; 4]| {
        let dir = TempDir::new(tag);
        let [above, below, between, both] = answers;
        let text = format!(
            "fn f(x: number) -> number = if x > {MAX} then {above} else if x < -{MAX} then {below} \
             else if x > 50000000000000000000000000000 then 7 else 0\n\
             fn g(x: number, y: number) -> number = if x > {MAX} and y < -{MAX} then {above} \
             else if y > 60000000000000000000000000000 then {between} else 0\n\
             fn h(x: number, y: number) -> number = if x < -{MAX} then {both} else y\n"
        );
        std::fs::write(dir.0.join("r.bfr"), text).unwrap();
        dir
    };
    let (old, new) = (
        write("diff-edge-old", [1, 5, 4, 8]),
        write("diff-edge-new", [2, 6, 3, 9]),
    );
    let (old, new) = (old.0.display().to_string(), new.0.display().to_string());
    let (code, text, stderr) = bfr(&["diff", "--no-cache", &old, &new]);
    assert_eq!(code, 1, "{stderr}");
    let f = text
        .split("~ fn f")
        .nth(1)
        .unwrap()
        .split("~ fn g")
        .next()
        .unwrap();
    assert!(
        !f.contains("answer"),
        "no decimal lies beyond the edge: {f}"
    );
    let g = text
        .split("~ fn g")
        .nth(1)
        .unwrap()
        .split("~ fn h")
        .next()
        .unwrap();
    assert!(
        g.contains("y 69614081257132168796771975168: 4 → 3"),
        "the middle of 6·10²⁸ and the edge: {g}"
    );
    assert!(text.contains("3 changed items in 1 file"), "{text}");
}

/// A rule reaching many changed rules lists the first twelve by name and
/// counts the rest, in text and in JSON; a caller that reaches one more than
/// its callee counts it without the callee's count changing.
#[test]
fn an_unchanged_rule_through_many_changes_lists_twelve() {
    let write = |tag: &str, value: u8| {
        let dir = TempDir::new(tag);
        let consts: String = (1..=21)
            .map(|i| format!("const c{i:02}: number = {value}\n"))
            .collect();
        let sum: Vec<String> = (1..=20).map(|i| format!("c{i:02}")).collect();
        let text = format!(
            "{consts}fn g(x: number) -> number = if x > 0 then h(x) + c21 else 0\n\
             fn h(x: number) -> number = if x > 0 then {} else 0\n",
            sum.join(" + ")
        );
        std::fs::write(dir.0.join("r.bfr"), text).unwrap();
        dir
    };
    let (old, new) = (write("diff-many-old", 1), write("diff-many-new", 2));
    let (old, new) = (old.0.display().to_string(), new.0.display().to_string());
    let (code, text, stderr) = bfr(&["diff", "--no-cache", &old, &new]);
    assert_eq!(code, 1, "{stderr}");
    let listed: Vec<String> = (1..=12).map(|i| format!("c{i:02}")).collect();
    let line = format!("unchanged, but calls changed {}", listed.join(", "));
    let of = |name: &str| {
        let after = text.split(&format!("~ fn {name}")).nth(1).unwrap();
        after.split("~ ").next().unwrap().to_string()
    };
    assert!(of("h").contains(&format!("{line} and 8 more\n")), "{text}");
    assert!(of("g").contains(&format!("{line} and 9 more\n")), "{text}");
    let (code, json, _) = bfr(&["--format", "json", "diff", "--no-cache", &old, &new]);
    assert_eq!(code, 1);
    assert_eq!(json.matches(r#""unlisted": 8"#).count(), 1, "{json}");
    assert_eq!(json.matches(r#""unlisted": 9"#).count(), 1, "{json}");
}

/// Two editions whose one changed rule costs a few thousand evaluation steps
/// an answer, and an unchanged rule that calls it.
fn heavy_pair() -> (TempDir, TempDir) {
    let write = |tag: &str, values: [u8; 3]| {
        let dir = TempDir::new(tag);
        let [a, b, c] = values;
        let text = format!(
            "fn heavy(x: number) -> number = sum(range(1, 2000)) * 0 + \
             (if x < 10 then {a} else if x < 20 then {b} else {c})\n\
             fn caller(x: number) -> number = if x < 10 then heavy(x) else heavy(x) + 1\n"
        );
        std::fs::write(dir.0.join("r.bfr"), text).unwrap();
        dir
    };
    (
        write("diff-heavy-old", [1, 2, 3]),
        write("diff-heavy-new", [4, 5, 6]),
    )
}

/// The details of the item named `name`.
fn details_of(d: &diff::Diff, name: &str) -> Vec<Detail> {
    d.files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == name)
        .map(|i| i.details.clone())
        .unwrap_or_default()
}

/// A competition's days moved by a date written in its block, against the
/// const it named: the diff lists the new first day as the calendar writes it.
#[test]
fn a_competitions_days_are_compared() {
    let dir = variant("diff-competition-days", |name, text| {
        if name == "sm_lag_veteran.bfr" {
            once(
                text,
                "\"Slutspel vid fler än 16 lag\" {\n  first_day = lv_first_day",
                "\"Slutspel vid fler än 16 lag\" {\n  first_day = Wed 2015-07-29",
            )
        } else {
            text
        }
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    // A date written in place of the const: the programme cites the
    // competition for its days, not the const's section.
    assert_eq!(
        details_of(&d, "lv_ko"),
        [
            Detail::Changed {
                what: "days cited as".into(),
                old: "LV-FEE p.11 \"SM-tävlingar lag\"".into(),
                new: "LV-KO p.12 \"Slutspel vid fler än 16 lag\"".into(),
            },
            Detail::Changed {
                what: "first_day".into(),
                old: "Tue 2015-07-28".into(),
                new: "Wed 2015-07-29".into(),
            },
        ]
    );
    assert!(details_of(&d, "lv_series").is_empty());
}

#[test]
fn a_change_is_shown_as_the_editor_wrote_it() {
    let write = |tag: &str, text: &str| {
        let dir = TempDir::new(tag);
        std::fs::write(dir.0.join("r.bfr"), text).unwrap();
        dir
    };
    let old = write(
        "diff-written-old",
        "fn fee(seniors: number, juniors: number) -> number {\n  let total = seniors * 500 + juniors * 125; // a team\n  min(total, 2000)\n}\n\
         fn allowed(players: number) -> bool = players <= 6\n\
         fn gone(players: number) -> bool = players > 1\n\
         fn top(x: number) -> number = 2 * (x - 1)\n\
         fn neuberg(x: number) -> number = (x + 1) * 2\n\
         fn seat(position: number) -> number = position\n\
         example \"sizes\" {\n  allowed(players: 6)\n  not allowed(players: 7)\n}\n",
    );
    let new = write(
        "diff-written-new",
        "fn fee(seniors: number, juniors: number) -> number {\n  let total = seniors * 550 + juniors * 125;\n  min(total, 2000)\n}\n\
         fn allowed(players: number) -> bool = players <= 6\n\
         fn extra(players: number) -> bool = allowed(players: players) and players > 3\n\
         fn top(x: number) -> number = 2 * (x - 2)\n\
         fn neuberg(x: number) -> number = (x + 2) * 2\n\
         fn seat(position: integer) -> integer = position\n\
         example \"sizes\" {\n  allowed(players: 5)\n  allowed(players: 6)\n  not allowed(players: 7)\n}\n",
    );
    let (code, out, err) = bfr(&["diff", old.0.to_str().unwrap(), new.0.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let has = |line: &str| assert!(lines.contains(&line), "no `{line}` in\n{out}");
    // A body word by word, its `let` named and its comment left out.
    has("body: let total = seniors * [-500-]{+550+} + juniors * 125; min(total, 2000)");
    // A rule added or removed, with its type and body; arguments by name.
    has("+ fn extra");
    has("+ type: (players: number) -> bool");
    has("+ body: allowed(players: players) and players > 3");
    has("- body: players > 1");
    // With the brackets its first or last operand is written in.
    has("body: 2 * (x - [-1)-]{+2)+}");
    has("body: (x + [-1)-]{+2)+} * 2");
    // A number made an `integer` changes what the rule admits: its type.
    has("type: (position: number) -> number → (position: integer) -> integer");
    // One assertion put in first is one added, not three changed.
    has("+ assertion 1: allowed(players: 5)");
    assert!(!out.contains("assertion 2"), "{out}");
}

#[test]
fn a_diff_stops_evaluating_at_its_step_bound_and_says_what_it_left() {
    let (old, new) = heavy_pair();
    let answers = |details: &[Detail]| {
        details
            .iter()
            .filter(|d| matches!(d, Detail::Answers { .. }))
            .count()
    };
    // Within the bound every answer is compared: the rule's three ranges, and
    // the caller's, through it.
    let whole = diff_within(&old.0, &new.0, diff::behaviour::MAX_DIFF_STEPS);
    assert_eq!(whole.unfinished, None);
    let heavy = details_of(&whole, "heavy");
    assert_eq!(answers(&heavy), 3, "{heavy:?}");
    assert!(!heavy.contains(&Detail::Unfinished));
    let caller = details_of(&whole, "caller");
    assert!(
        matches!(caller.first(), Some(Detail::Through { .. })),
        "{caller:?}"
    );
    assert!(answers(&caller) >= 1, "{caller:?}");

    // Room for a few answers: those found stand, the rest is said to be left,
    // and the caller, never compared, is counted, not listed.
    let cut = diff_within(&old.0, &new.0, 20_000);
    let heavy = details_of(&cut, "heavy");
    assert!((1..3).contains(&answers(&heavy)), "{heavy:?}");
    assert_eq!(heavy.last(), Some(&Detail::Unfinished));
    assert!(details_of(&cut, "caller").is_empty());
    assert_eq!(
        cut.unfinished,
        Some(diff::Unfinished {
            steps: 20_000,
            changed: 1,
            callers: 1,
        })
    );
    let json = serde_json::to_value(&cut).unwrap();
    assert_eq!(
        json["unfinished"],
        serde_json::json!({"steps": 20_000, "changed": 1, "callers": 1})
    );
    assert!(
        json.to_string().contains(r#"{"change":"unfinished"}"#),
        "{json}"
    );
    // Where it stops is a count, not a clock: the same every time.
    assert_eq!(
        format!("{:?}", diff_within(&old.0, &new.0, 20_000)),
        format!("{cut:?}")
    );

    // No room at all: nothing is evaluated, and nothing is said to differ.
    let none = diff_within(&old.0, &new.0, 1);
    assert_eq!(details_of(&none, "heavy").last(), Some(&Detail::Unfinished));
    assert_eq!(answers(&details_of(&none, "heavy")), 0);
}

#[test]
fn a_renamed_competition_is_compared_with_what_it_was() {
    // The editor renames SM Lag Veteran's knockout competition and lengthens its
    // round of 16: one competition renamed with its change, not one removed
    // and another added.
    let renamed = |text: String| {
        text.replace("competition lv_ko ", "competition lv_open ")
            .replace("lv_ko.", "lv_open.")
            .replace("[lv_series, lv_ko]", "[lv_series, lv_open]")
    };
    let dir = variant("diff-renamed-competition", |name, text| match name {
        "sm_lag_veteran.bfr" => renamed(once(
            once(
                text,
                "stage r16 \"Åttondelsfinal\" ref LV-KO p.12 \"Slutspel vid fler än 16 lag\" {\n    order = 2\n    teams = 16\n    boards = 20",
                "stage r16 \"Åttondelsfinal\" ref LV-KO p.12 \"Slutspel vid fler än 16 lag\" {\n    order = 2\n    teams = 16\n    boards = 24",
            ),
            "lv_ko.r16.boards == 20",
            "lv_ko.r16.boards == 24",
        )),
        "sm_general.bfr" | "entries.bfr" => renamed(text),
        _ => text,
    });
    let new = dir.0.to_str().unwrap();
    let (code, out, err) = bfr(&["diff", EDITION_2015, new]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(
        lines.contains(&"> competition lv_open (renamed from lv_ko)  [LV-KO p.12]"),
        "{out}"
    );
    assert!(lines.contains(&"stage r16.boards: 20 → 24"), "{out}");
    assert!(
        !out.contains("+ competition") && !out.contains("- competition"),
        "{out}"
    );
    // Its events are simulated as one competition's, under the new name.
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let item = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == "lv_open")
        .expect("the renamed competition is listed");
    assert_eq!(item.old_name.as_deref(), Some("lv_ko"));
    let (old, new) = programs(&dir.0);
    let paired = diff::competition::renamed(&old, &new);
    assert_eq!(
        paired.into_iter().collect::<Vec<_>>(),
        [("lv_ko".to_string(), "lv_open".to_string())]
    );
    // The 2015 edition's lv_ko stops at its Gröna Hissen (7 boards, no VP
    // table) on both sides; with 8 boards on both, the simulated events play
    // on, and the old competition's are paired with the new one's: they part
    // at the round of 16 the change lengthened.
    let eight = |name: &str, text: String| {
        if name == "sm_lag_veteran.bfr" {
            once(
                text,
                "\"Vid fler än 16 lag\" = 7 boards",
                "\"Vid fler än 16 lag\" = 8 boards",
            )
        } else {
            text
        }
    };
    let old = variant("diff-renamed-competition-old", eight);
    let new = variant("diff-renamed-competition-new", |name, text| {
        let text = eight(name, text);
        match name {
            "sm_lag_veteran.bfr" => renamed(once(
                once(
                    text,
                    "teams = 16\n    boards = 20",
                    "teams = 16\n    boards = 24",
                ),
                "lv_ko.r16.boards == 20",
                "lv_ko.r16.boards == 24",
            )),
            "sm_general.bfr" | "entries.bfr" => renamed(text),
            _ => text,
        }
    });
    let (old, new) = (old.0.to_str().unwrap(), new.0.to_str().unwrap());
    let (code, out, err) = bfr(&["diff", old, new, "--simulate", "2"]);
    assert_eq!(code, 1, "{err}");
    let parted = out
        .lines()
        .skip_while(|l| !l.starts_with("simulated lv_open: "))
        .take(2)
        .collect::<Vec<_>>();
    assert_eq!(
        parted.first().copied(),
        Some("simulated lv_open: 2 of 2 events with 17 teams part (seeds 1–2)"),
        "{out}"
    );
    assert!(
        parted[1]
            .trim_start()
            .starts_with("first, seed 1: stage r16 "),
        "{out}"
    );
}

#[test]
fn a_rule_of_two_moments_is_tried_on_the_editions_own_days() {
    // No date or time is written in the rule: its inputs are tried from the first
    // day of the edition's period, not from the first day a computer counts.
    let write = |tag: &str, limit: &str| {
        let dir = TempDir::new(tag);
        let text = format!(
            "edition \"E\" {{\n  period Sat 2016-07-23 .. Sun 2016-07-31\n}}\n\
             fn in_time(ended: datetime, appealed: datetime) -> bool = appealed <= ended + {limit}\n"
        );
        std::fs::write(dir.0.join("r.bfr"), text).unwrap();
        dir
    };
    let (old, new) = (
        write("diff-moments-old", "30 min"),
        write("diff-moments-new", "20 min"),
    );
    let (code, out, err) = bfr(&["diff", old.0.to_str().unwrap(), new.0.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains(
            "answer ended Sat 2016-07-23 00:05, appealed Sat 2016-07-23 00:30: true → false"
        ),
        "{out}"
    );
    assert!(!out.contains("1970"), "{out}");
}

#[test]
fn an_example_is_listed_for_what_its_assertions_say_not_for_what_they_read() {
    // BC32-B is played over 24 boards: the example that states the figure is
    // changed with it; the one that reads it to check the system level is
    // written as before, and is not listed (the competition's change is).
    // A new example is shown with its assertions, a removed one too.
    let dir = variant("diff-examples-read", |name, text| match name {
        "chairmans_cup_knockout.bfr" => {
            let t = once(
                text,
                "    teams = 32\n    boards = 20\n    draw = CcDrawMethod.Brackets\n    winners -> bc16_a\n",
                "    teams = 32\n    boards = 24\n    draw = CcDrawMethod.Brackets\n    winners -> bc16_a\n",
            );
            let t = once(
                t,
                "  cup.bc32_b.boards == 20\n",
                "  cup.bc32_b.boards == 24\n",
            );
            t + "\nexample \"BC32-B is played over 24 boards\" ref CC-STAGES p.16 \"Måndag 27 juli\" {\n  cup.bc32_b.boards == 24\n}\n"
        }
        _ => text,
    });
    let (code, out, err) = bfr(&["diff", EDITION_2015, dir.0.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let has = |line: &str| assert!(lines.contains(&line), "no `{line}` in\n{out}");
    has("assertion 2: cup.bc32_b.boards == 20 → cup.bc32_b.boards == 24");
    has("stage bc32_b.boards: 20 → 24");
    has("+ assertion 1: cup.bc32_b.boards == 24");
    assert!(!out.contains("the stages' system level"), "{out}");
}

/// A rule whose doc comment changed and whose answers change through a const
/// it calls is one item: the doc first, then the const, then the answers; it
/// is listed after the const, its cause, though the const now stands after it
/// in the file.
#[test]
fn a_rule_with_a_new_doc_comment_and_new_answers_is_listed_once() {
    let dir = variant("diff-doc-and-through", |name, text| {
        if name == "chairmans_cup.bfr" {
            let senior = "const cc_gh_fee_senior: SEK/player ref CC-FEE p.14 \"Startavgifter\" = 500 SEK/player\n";
            let text =
                once(text, senior, "") + &senior.replace("= 500 SEK/player", "= 550 SEK/player");
            once(
                text,
                "/// The Gröna Hissen entry fee of a team: 500 SEK a senior",
                "/// The Gröna Hissen entry fee of a team: 550 SEK a senior",
            )
        } else {
            text
        }
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    let listed = d
        .files
        .iter()
        .flat_map(|f| &f.items)
        .filter(|i| i.name == "cc_gh_entry_fee")
        .count();
    assert_eq!(listed, 1);
    let details = details_of(&d, "cc_gh_entry_fee");
    assert!(matches!(&details[0], Detail::Words { what, .. } if what == "doc"));
    assert_eq!(
        details[1],
        Detail::Through {
            rules: vec!["cc_gh_fee_senior".into()],
            unlisted: 0
        }
    );
    assert!(
        matches!(&details[2], Detail::Answers { old, new, .. } if old == "500 SEK" && new == "550 SEK")
    );
    let new = dir.0.display().to_string();
    let (code, out, _) = bfr(&["diff", EDITION_2015, &new]);
    assert_eq!(code, 1);
    let at = out.find("~ fn cc_gh_entry_fee ").unwrap();
    assert!(out.find("~ const cc_gh_fee_senior ").unwrap() < at, "{out}");
    let item: Vec<&str> = out[at..].lines().take(4).collect();
    assert!(
        item[1]
            .trim_start()
            .starts_with("doc: The Gröna Hissen entry fee"),
        "{item:?}"
    );
    assert_eq!(item[2].trim(), "calls changed cc_gh_fee_senior");
    assert_eq!(
        item[3].trim(),
        "answer seniors 1 player, juniors 0 players: 500 SEK → 550 SEK"
    );
    // A rule listed only for what it calls still says its own text is as it was.
    let at = out.find("~ fn cc_gh_amount_due ").unwrap();
    let line = out[at..].lines().nth(1).unwrap();
    assert_eq!(line.trim(), "unchanged, but calls changed cc_gh_fee_senior");
}

/// A renamed rule whose answers change through a const it calls says the
/// const changed without "unchanged": its name is not.
#[test]
fn a_renamed_rule_says_what_it_calls_changed() {
    let dir = variant("diff-renamed-and-through", |name, text| {
        if name == "chairmans_cup.bfr" {
            let text = once(text, "= 500 SEK/player", "= 550 SEK/player");
            text.replace("cc_gh_entry_fee(", "cc_gh_team_entry_fee(")
        } else {
            text
        }
    });
    let (code, out, err) = bfr(&["diff", EDITION_2015, dir.0.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let at = out
        .find("> fn cc_gh_team_entry_fee (renamed from cc_gh_entry_fee)")
        .unwrap_or_else(|| panic!("{out}"));
    let item: Vec<&str> = out[at..].lines().take(3).map(str::trim).collect();
    assert_eq!(item[1], "calls changed cc_gh_fee_senior", "{out}");
    assert_eq!(
        item[2],
        "answer seniors 1 player, juniors 0 players: 500 SEK → 550 SEK"
    );
}

/// A qualification's days are compared under the keys the edition writes
/// them with, `first_day` and `last_day` (a stage's one day is `day`).
#[test]
fn a_qualifications_days_are_compared_as_written() {
    let dir = variant("diff-qualification-days", |name, text| {
        if name == "chairmans_cup_knockout.bfr" {
            let text = once(
                text,
                "first_day = cc_gh_first_day",
                "first_day = Fri 2015-07-24",
            );
            once(
                text,
                "last_day = cc_gh_last_day",
                "last_day = Mon 2015-07-27",
            )
        } else {
            text
        }
    });
    let d = diff_of(&root().join(EDITION_2015), &dir.0);
    assert_eq!(
        details_of(&d, "cup"),
        [
            Detail::Changed {
                what: "qualification.first_day".into(),
                old: "Sat 2015-07-25".into(),
                new: "Fri 2015-07-24".into(),
            },
            Detail::Changed {
                what: "qualification.last_day".into(),
                old: "Sun 2015-07-26".into(),
                new: "Mon 2015-07-27".into(),
            },
        ]
    );
}
