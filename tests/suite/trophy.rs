//! Line-ups and challenge-trophy points (CC-TROPHY): the players of a team, who
//! played how many boards in each knockout match, and each player's points from the
//! edition's rule over the team's last matches — in the Mini Cup's test edition, in
//! a variant of it changed by data only, and in a whole 2015 Chairman's Cup written
//! as an event file, at both sides of the regulation's 64 boards.

use crate::support::{TempDir, bfr, program_2015, root, simulate};
use bfr::edition::load;
use bfr::event::Ran;
use bfr::runner::report::{PlayerTrophy, Report};
use std::fmt::Write;

const EDITION: &str = "tests/fixtures/events";
const LINEUPS: &str = "tests/fixtures/events/lineups.toml";

fn run_in(edition: &std::path::Path, name: &str, text: &str) -> Ran {
    let loaded = load(edition).unwrap();
    let mut checked = loaded.checked.expect("the edition checks");
    let mut sources = loaded.sources;
    bfr::event::run(&mut checked, &mut sources, name, text)
}

fn players(ran: &Ran) -> Vec<(String, u32, String)> {
    let o = ran.outcome.as_ref().unwrap();
    o.report
        .trophy_players
        .iter()
        .map(|p: &PlayerTrophy| (p.player.clone(), p.boards, p.points.clone()))
        .collect()
}

fn lineups_text() -> String {
    std::fs::read_to_string(root().join(LINEUPS)).unwrap()
}

#[test]
fn names_typed_as_base_letters_and_marks_are_the_same_names() {
    // The roster as one system stores it (`O` and a combining diaeresis), the
    // line-ups as another (`Ö`): the same players, shown in one form.
    let decomposed = lineups_text().replacen(
        "players = [\"Åsa Öberg\"",
        "players = [\"A\u{30a}sa O\u{308}berg\"",
        1,
    );
    assert_ne!(decomposed, lineups_text());
    let ran = run_in(&root().join(EDITION), LINEUPS, &decomposed);
    assert!(ran.diagnostics.is_empty(), "{:?}", ran.diagnostics);
    assert_eq!(
        players(&ran),
        players(&run_in(&root().join(EDITION), LINEUPS, &lineups_text()))
    );
    // A line-up typed without the letters' marks, in another case, names the
    // roster's players, shown as the roster spells them.
    let plain = lineups_text().replace("4: Åsa Öberg", "4: ASA oberg");
    assert_ne!(plain, lineups_text());
    let ran = run_in(&root().join(EDITION), LINEUPS, &plain);
    assert!(ran.diagnostics.is_empty(), "{:?}", ran.diagnostics);
    assert_eq!(
        players(&ran),
        players(&run_in(&root().join(EDITION), LINEUPS, &lineups_text()))
    );
    // Where two players of the team fold alike, only the exact spelling is taken
    // (typed with separate marks, too), and the error names both.
    let alike = lineups_text().replacen("\"Erik Lund\"", "\"Asa Oberg\"", 1);
    let ran = run_in(
        &root().join(EDITION),
        LINEUPS,
        &alike.replace("4: Åsa Öberg", "4: asa oberg"),
    );
    let sorted = ran.diagnostics.sorted();
    let d = sorted
        .iter()
        .find(|d| d.code == "E0724" && d.message.starts_with("`asa oberg` is not a player"))
        .unwrap();
    assert_eq!(
        d.help.as_deref(),
        Some("write the name as the team's `players` do: `Åsa Öberg` and `Asa Oberg`")
    );
    let ran = run_in(
        &root().join(EDITION),
        LINEUPS,
        &alike.replace("4: Åsa Öberg", "4: A\u{30a}sa O\u{308}berg"),
    );
    assert!(
        !ran.diagnostics
            .sorted()
            .iter()
            .any(|d| d.message.contains("sa Öberg")),
        "{:?}",
        ran.diagnostics
    );
    // A player named twice in one line-up (here once folded) is an error: the
    // boards would count twice.
    let twice = lineups_text().replacen("Erik Lund 8,", "åsa öberg 8,", 1);
    let ran = run_in(&root().join(EDITION), LINEUPS, &twice);
    assert!(
        ran.diagnostics
            .sorted()
            .iter()
            .any(|d| d.code == "E0727"
                && d.message == "`Åsa Öberg` is named twice in team 4's line-up"),
        "{:?}",
        ran.diagnostics
    );
    // A team's name, too: one letter each, as the report pads it.
    let team = lineups_text().replacen("name = \"Jämtland\"", "name = \"Ja\u{308}mtland\"", 1);
    let ran = run_in(&root().join(EDITION), LINEUPS, &team);
    assert_eq!(ran.names.get(&4).map(String::as_str), Some("Jämtland"));
}

#[test]
fn each_player_earns_the_places_points_with_40_boards_in_the_last_two_matches() {
    let ran = run_in(&root().join(EDITION), LINEUPS, &lineups_text());
    assert!(ran.diagnostics.is_empty(), "{:?}", ran.diagnostics);
    let got = players(&ran);
    let of = |name: &str| got.iter().find(|p| p.0 == name).unwrap().clone();
    // Jämtland won: 40 boards earn 6 points, 39 nothing.
    assert_eq!(of("Erik Lund"), ("Erik Lund".into(), 40, "6 points".into()));
    assert_eq!(
        of("Karin Ström"),
        ("Karin Ström".into(), 39, "0 points".into())
    );
    assert_eq!(of("Åsa Öberg").1, 48);
    // Medelpad 1, second: 3 points each.
    assert_eq!(of("Dan Ek"), ("Dan Ek".into(), 48, "3 points".into()));
    assert_eq!(
        got.len(),
        9,
        "Härnösand's place earns nothing; Östersund waits"
    );
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(
        o.report.trophy_waiting,
        [(7, vec!["Semifinal".to_string(), "Third place".to_string()])]
    );
    let (code, stdout, stderr) = bfr(&["run", EDITION, LINEUPS]);
    assert_eq!(code, 0, "{stderr}");
    let section = &stdout[stdout.find("Challenge-trophy points by player").unwrap()..];
    insta::assert_snapshot!("mini-line-ups", section);
    let (_, json, _) = bfr(&["run", "--format", "json", EDITION, LINEUPS]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = &v["report"]["trophy_players"][0];
    assert_eq!(first["player"], "Åsa Öberg");
    assert_eq!(first["boards"], 48);
    assert_eq!(first["amount"], 6.0);
    let (_, html, _) = bfr(&["run", "--format", "html", EDITION, LINEUPS]);
    assert!(html.contains("Challenge-trophy points by player"));
    assert!(html.contains("Karin Ström"));
}

#[test]
fn a_variant_edition_counting_the_last_match_only_changes_the_points() {
    let dir = TempDir::new("trophy-variant");
    let text = std::fs::read_to_string(root().join(EDITION).join("edition.bfr")).unwrap();
    assert!(text.contains("trophy_matches = 2"));
    std::fs::write(
        dir.0.join("edition.bfr"),
        text.replace("trophy_matches = 2", "trophy_matches = 1"),
    )
    .unwrap();
    let ran = run_in(&dir.0, LINEUPS, &lineups_text());
    assert!(ran.diagnostics.is_empty(), "{:?}", ran.diagnostics);
    let got = players(&ran);
    // The final alone: 32 boards at most, under 40 — nobody earns.
    assert!(got.iter().all(|p| p.2 == "0 points"), "{got:?}");
    let erik = got.iter().find(|p| p.0 == "Erik Lund").unwrap();
    assert_eq!(erik.1, 32);
    // Östersund's last match is the match for third place; the semifinal no longer counts.
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(
        o.report.trophy_waiting,
        [(7, vec!["Third place".to_string()])]
    );
}

/// A whole 2015 Chairman's Cup as an event file: every result and choice of a
/// simulated run, written as a director would.
fn cup_event(report: &Report, extra: &dyn Fn(&str) -> String) -> String {
    let mut out = format!("competition = \"cup\"\nseed = {}\n", report.seed);
    for t in 1..=report.teams {
        let _ = writeln!(out, "\n[[team]]\nid = {t}");
        out.push_str(&extra(&format!("team {t}")));
    }
    for r in &report.rounds {
        let results: Vec<String> = r
            .matches
            .iter()
            .map(|m| format!("\"{}-{} {}:{}\"", m.home, m.away, m.home_imps, m.away_imps))
            .collect();
        let _ = writeln!(
            out,
            "\n[[round]]\nnumber = {}\nresults = [{}]",
            r.round,
            results.join(", ")
        );
    }
    for s in &report.stages {
        let choices: Vec<String> = s
            .choices
            .iter()
            .map(|(a, b)| format!("\"{a}>{b}\""))
            .collect();
        let results: Vec<String> = s
            .matches
            .iter()
            .map(|m| format!("\"{}-{} {}:{}\"", m.home, m.away, m.home_imps, m.away_imps))
            .collect();
        let _ = writeln!(
            out,
            "\n[[stage]]\nname = \"{}\"\nchoices = [{}]\nresults = [{}]",
            s.name,
            choices.join(", "),
            results.join(", ")
        );
        out.push_str(&extra(&format!("stage {}", s.name)));
    }
    out
}

#[test]
fn a_2015_cup_gives_10_points_to_a_winners_player_with_64_boards_and_none_with_63() {
    let program = program_2015();
    let sim = simulate(&program, 64, 5);
    let winner = sim
        .places
        .iter()
        .find(|l| l.standing.single_place() == Some(1))
        .unwrap()
        .team;
    let last_three = ["cc_qf", "cc_sf", "cc_final"];
    let extra = |at: &str| -> String {
        if at == format!("team {winner}") {
            return "players = [\"Anna Berg\", \"Bo Ek\", \"Cilla Dahl\", \"Dan Ek\", \"Eva Fors\", \"Gun Holm\"]\n".into();
        }
        match at.strip_prefix("stage ") {
            // Anna: 64 in the final alone; Bo 63 over three matches; Eva 1 + 63.
            Some("cc_qf") => format!(
                "lineups = [\"{winner}: Anna Berg 0, Bo Ek 21, Cilla Dahl 64, Dan Ek 64, Eva Fors 1, Gun Holm 64\"]\n"
            ),
            Some("cc_sf") => format!(
                "lineups = [\"{winner}: Bo Ek 21, Cilla Dahl 64, Dan Ek 64, Eva Fors 63, Gun Holm 44\"]\n"
            ),
            Some("cc_final") => format!(
                "lineups = [\"{winner}: Anna Berg 64, Bo Ek 21, Cilla Dahl 64, Dan Ek 64, Gun Holm 43\"]\n"
            ),
            _ => String::new(),
        }
    };
    let text = cup_event(&sim, &extra);
    assert!(
        last_three
            .iter()
            .all(|s| text.contains(&format!("name = \"{s}\"")))
    );
    let ran = run_in(&root().join("rules/2015"), "cup.toml", &text);
    let errors: Vec<_> = ran
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code.starts_with('E'))
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let got = players(&ran);
    let of = |name: &str| got.iter().find(|p| p.0 == name).unwrap().clone();
    assert_eq!(
        of("Anna Berg"),
        ("Anna Berg".into(), 64, "10 points".into())
    );
    assert_eq!(of("Bo Ek"), ("Bo Ek".into(), 63, "0 points".into()));
    assert_eq!(of("Eva Fors"), ("Eva Fors".into(), 64, "10 points".into()));
    assert_eq!(of("Gun Holm").2, "10 points");
    let o = ran.outcome.as_ref().unwrap();
    assert!(o.report.trophy_players.iter().all(|p| p.matches == 3));
}
