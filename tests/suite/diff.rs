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

/// Every `YYYY-MM-DD` in `text` moved by `days`.
fn shift_dates(text: &str, days: i64) -> String {
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

fn diff_of(old: &Path, new: &Path) -> diff::Diff {
    let a = load(old).unwrap();
    let b = load(new).unwrap();
    let (ca, cb) = (a.checked.unwrap(), b.checked.unwrap());
    let side = |p, s, r: &Path| Side {
        program: p,
        sources: s,
        root: r.display().to_string(),
    };
    diff::diff(
        &side(&ca.program, &a.sources, old),
        &side(&cb.program, &b.sources, new),
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
        let (code, out, err) = bfr(&["diff", &p, &p, "--exit-code"]);
        assert_eq!(code, 0, "{p}: {out}{err}");
        assert!(out.ends_with("no differences\n"), "{out}");
        let (code, out, _) = bfr(&["--format", "json", "diff", &p, &p, "--exit-code"]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["files"], serde_json::json!([]));
    }
    assert!(editions >= 1);
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
            "chairmans_cup.bfr" => {
                let t = once(text, "= 500 SEK/player", "= 550 SEK/player");
                t.replace("cc_gh_fee_team_cap", "cc_gh_team_fee_cap")
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
            "changes.bfr" => once(text, "= Mon 2015-07-27 20:00", "= Tue 2015-07-28 09:00"),
            _ => text,
        };
        shift_dates(&text, 364)
    })
}

#[test]
fn a_variant_with_one_change_of_each_kind() {
    let dir = deliberate_changes();
    let new = dir.0.display().to_string();
    let (code, out, err) = bfr(&["diff", EDITION_2015, &new, "--exit-code"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!(out.replace(&new, "VARIANT"));
    let (code, out, _) = bfr(&["diff", EDITION_2015, &new, "--stat"]);
    assert_eq!(
        code, 0,
        "without --exit-code, differences are not a failure"
    );
    insta::assert_snapshot!("stat", out.replace(&new, "VARIANT"));
}

#[test]
fn the_variant_as_json() {
    let dir = deliberate_changes();
    let new = dir.0.display().to_string();
    let (code, out, _) = bfr(&["--format", "json", "diff", EDITION_2015, &new]);
    assert_eq!(code, 0);
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
    // The caller of the renamed rule is not listed: its body is the same.
    assert!(items.iter().all(|i| i["name"] != "cc_gh_entry_fee"));
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
