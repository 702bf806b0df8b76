//! The event file is the record: a 20-team event (`tests/fixtures/twenty`) played
//! round by round with each draw written in (`bfr run --write-draw`). Corrections
//! and late penalties change the standings, never a recorded draw; a recorded draw
//! that breaks a rule is refused (E0720), one the rules would not make now is a
//! warning (W0720); stages played at the same time take results independently; a
//! withdrawal the document has no rule for stops the run after everything before it.
//! Snapshots show what the director sees (`bfr run`).

use crate::support::{TempDir, bfr, root};
use bfr::check::Checked;
use bfr::edition::load;
use bfr::event::Ran;
use bfr::source::Sources;
use std::sync::OnceLock;

const EDITION: &str = "tests/fixtures/twenty";
const AFTER_3: &str = "tests/fixtures/twenty/after-round-3.toml";

fn edition() -> &'static (Checked, Sources) {
    static E: OnceLock<(Checked, Sources)> = OnceLock::new();
    E.get_or_init(|| {
        let loaded = load(&root().join(EDITION)).unwrap();
        (
            loaded.checked.expect("the twenty edition checks"),
            loaded.sources,
        )
    })
}

fn run(text: &str) -> Ran {
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    bfr::event::run(&mut checked.clone(), &mut sources, "event.toml", text)
}

fn base() -> String {
    std::fs::read_to_string(root().join(AFTER_3)).unwrap()
}

fn codes(ran: &Ran) -> Vec<&'static str> {
    ran.diagnostics.sorted().iter().map(|d| d.code).collect()
}

fn order(ran: &Ran) -> Vec<u32> {
    let o = ran.outcome.as_ref().unwrap();
    o.report.standings.iter().map(|l| l.team).collect()
}

fn pairs(ran: &Ran, round: u32) -> Vec<(u32, u32)> {
    let o = ran.outcome.as_ref().unwrap();
    let r = o.report.rounds.iter().find(|r| r.round == round).unwrap();
    r.matches.iter().map(|m| (m.home, m.away)).collect()
}

/// Drops every `draw = [...]` line: the event as it was before draws were recorded.
fn without_draws(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("draw = "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn standings_are_shown_after_every_round() {
    let ran = run(&base());
    assert!(ran.diagnostics.is_empty());
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds.len(), 3);
    assert_eq!(o.report.qualification_rounds, Some(4));
    for r in &o.report.rounds {
        assert_eq!(r.standings.len(), 20, "round {}", r.round);
    }
    assert_eq!(o.report.standings.len(), 20);
    // The standings after round 1: Örebro's 45:9 (20 VP) and Gävle's 39:5 lead.
    let first: Vec<u32> = o.report.rounds[0]
        .standings
        .iter()
        .map(|l| l.team)
        .take(2)
        .collect();
    assert_eq!(first, [2, 9]);
    // A tie decided by the chain says which criterion decided it.
    assert!(o.report.standings.iter().any(|l| l.decided_by.is_some()));
}

#[test]
fn a_correction_to_round_1_after_round_3_keeps_rounds_2_and_3_as_drawn() {
    let before = run(&base());
    let corrected_text = base().replacen("\"19-8 44:40\"", "\"19-8 14:40\"", 1);
    let after = run(&corrected_text);
    assert!(
        !codes(&after).iter().any(|c| c.starts_with('E')),
        "{:?}",
        codes(&after)
    );
    assert_ne!(order(&before), order(&after), "the standings change");
    for round in [2, 3] {
        assert_eq!(pairs(&before, round), pairs(&after, round), "round {round}");
    }
    // One warning for every later draw the correction moves, naming them all.
    let w: Vec<String> = after
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "W0720")
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        w,
        [
            "the draws of round 2, round 3 and round 4 as recorded are not the draws the rules make now; they stand"
        ]
    );
    // Härnösand (8) won 40:14 now: 20 VP in round 1 instead of 8.
    let o = after.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds[0].matches[0].away_vp.to_string(), "20");
    // Without the recorded draws, the same correction re-draws rounds 2 and 3 and
    // their results no longer fit: what the record prevents.
    let unrecorded = run(&without_draws(&corrected_text));
    assert!(
        codes(&unrecorded).contains(&"E0705"),
        "{:?}",
        codes(&unrecorded)
    );
}

#[test]
fn a_late_penalty_for_round_2_added_after_round_3_applies_there_only() {
    let text = format!(
        "{}\n[[incident]]\nteam = 6\nround = 2\nrule = \"late_arrival(12 min)\"\n",
        base()
    );
    let ran = run(&text);
    assert!(
        !codes(&ran).iter().any(|c| c.starts_with('E')),
        "{:?}",
        codes(&ran)
    );
    let o = ran.outcome.as_ref().unwrap();
    let vp = |r: &bfr::runner::report::QualRound| {
        r.standings
            .iter()
            .find(|l| l.team == 6)
            .unwrap()
            .vp
            .to_string()
    };
    let plain = run(&base());
    let p = plain.outcome.as_ref().unwrap();
    // 3 VP off from round 2 on; round 1 untouched.
    assert_eq!(vp(&o.report.rounds[0]), vp(&p.report.rounds[0]));
    assert_eq!(vp(&p.report.rounds[1]), "32.5");
    assert_eq!(vp(&o.report.rounds[1]), "29.5");
    assert_eq!(pairs(&ran, 3), pairs(&plain, 3));
}

#[test]
fn a_recorded_draw_with_a_rematch_is_refused_and_the_run_stops_before_it() {
    // Round 3 recorded with 9-2, who met in round 2.
    let text = base().replacen(
        "draw = [\"9-6\", \"4-7\", \"12-3\", \"10-14\", \"2-5\"",
        "draw = [\"9-2\", \"4-7\", \"12-3\", \"10-14\", \"6-5\"",
        1,
    );
    let ran = run(&text);
    assert!(codes(&ran).contains(&"E0720"), "{:?}", codes(&ran));
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds.len(), 2, "rounds 1 and 2 are reported");
}

#[test]
fn a_legal_draw_the_rules_would_not_make_is_a_warning_and_stands() {
    // Round 3 with two matches' opponents swapped: legal, not the rules' draw
    // (round 4's recorded draw, made from the real round 3, is left out).
    let full = base();
    let text = full[..full.find("[[round]]\nnumber = 4").unwrap()]
        .replacen("draw = [\"9-6\", \"4-7\"", "draw = [\"9-7\", \"4-6\"", 1)
        .replacen(
            "\"9-6 19:27\", \"4-7 28:23\"",
            "\"9-7 19:27\", \"4-6 28:23\"",
            1,
        );
    assert_ne!(text, full);
    let ran = run(&text);
    assert_eq!(codes(&ran), ["W0720"]);
    assert_eq!(pairs(&ran, 3)[..2], [(9, 7), (4, 6)]);
}

#[test]
fn bfr_run_write_draw_records_the_next_draw_and_keeps_comments() {
    let dir = TempDir::new("write-draw");
    let path = dir.0.join("event.toml");
    let text = without_draws(&base());
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("recorded the draw of round 1, round 2, round 3, round 4"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        base(),
        "the draws written are the ones recorded by hand"
    );
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 0);
    assert!(stderr.contains("already recorded"), "{stderr}");
}

#[test]
fn write_draw_through_a_link_records_in_the_file_it_names_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("write-draw-link");
    let real = dir.0.join("real.toml");
    std::fs::write(&real, without_draws(&base())).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.0.join("link.toml");
    std::os::unix::fs::symlink("real.toml", &link).unwrap();
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, link.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&real).unwrap(), base());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let mut names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["link.toml", "real.toml"]);
}

#[test]
fn write_draw_refuses_a_read_only_event_file_and_leaves_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("write-draw-read-only");
    let path = dir.0.join("event.toml");
    let text = without_draws(&base());
    std::fs::write(&path, &text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let p = path.to_str().unwrap();
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: cannot write `{p}`: it is read-only; make it writable"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("no draw was recorded"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn bfr_run_write_draw_writes_into_inline_tables_and_keeps_crlf_line_endings() {
    let dir = TempDir::new("write-draw-inline");
    let path = dir.0.join("event.toml");
    let ids: Vec<String> = (1..=20).map(|i| format!("{{ id = {i} }}")).collect();
    let text = format!(
        "competition = \"twenty\"\r\nseed = 2015\r\nteam = [{}]\r\nround = [\r\n  {{ number = 1, results = [] }},\r\n]\r\n",
        ids.join(", ")
    );
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("recorded the draw of round 1"), "{stderr}");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.contains("  { number = 1, results = [], draw = [\""),
        "{written}"
    );
    assert_eq!(
        written.matches('\n').count(),
        written.matches("\r\n").count(),
        "every line still ends with CRLF: {written:?}"
    );
    assert_eq!(written.lines().count(), text.lines().count(), "{written}");
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("already recorded"), "{stderr}");
}

const AFTER_4: &str = "tests/fixtures/twenty/after-round-4.toml";

/// The event after round 4 with the B quarterfinal's results in and the A
/// quarterfinal's still to come.
fn b_before_a() -> String {
    std::fs::read_to_string(root().join(AFTER_4)).unwrap().replacen(
        "name = \"b_qf\"\n",
        "name = \"b_qf\"\nresults = [\"12-19 40:30\", \"7-14 20:35\", \"3-17 33:32\", \"10-2 25:26\"]\n",
        1,
    )
}

/// `bfr run` on `text` written to a file: exit code, stdout and stderr, for a snapshot.
fn run_cli(tag: &str, text: &str) -> String {
    let dir = TempDir::new(tag);
    let path = dir.0.join("event.toml");
    std::fs::write(&path, text).unwrap();
    let (code, stdout, stderr) = bfr(&["run", "--color", "never", EDITION, path.to_str().unwrap()]);
    let stderr = stderr.replace(path.to_str().unwrap(), "event.toml");
    format!("exit code: {code}\n-- stderr --\n{stderr}\n-- stdout --\n{stdout}")
}

#[test]
fn b_quarterfinal_results_are_used_before_the_last_a_quarterfinal_result() {
    let ran = run(&b_before_a());
    assert!(ran.diagnostics.is_empty(), "{:?}", codes(&ran));
    let o = ran.outcome.as_ref().unwrap();
    let b = o.report.stages.iter().find(|s| s.name == "b_qf").unwrap();
    let winners: Vec<u32> = b.matches.iter().map(|m| m.winner).collect();
    assert_eq!(winners, [12, 14, 3, 2]);
    assert!(o.report.stages.iter().all(|s| s.name != "a_qf"));
    insta::assert_snapshot!(
        "b-quarterfinal-before-a",
        run_cli("b-before-a", &b_before_a())
    );
}

#[test]
fn a_correction_to_round_1_after_round_3_as_the_director_sees_it() {
    let corrected = base().replacen("\"19-8 44:40\"", "\"19-8 14:40\"", 1);
    insta::assert_snapshot!("corrected-round-1", run_cli("corrected", &corrected));
}

#[test]
fn a_late_penalty_as_the_director_sees_it() {
    let text = format!(
        "{}\n[[incident]]\nteam = 6\nround = 2\nrule = \"late_arrival(12 min)\"\nnote = \"12 minutes late for round 2, written after round 3\"\n",
        base()
    );
    insta::assert_snapshot!("late-penalty", run_cli("late-penalty", &text));
}

#[test]
fn a_withdrawal_with_no_rule_still_prints_everything_before_it() {
    let text = b_before_a().replacen(
        "name = \"a_qf\"\n",
        "name = \"a_qf\"\nwithdrawn = [20]\n",
        1,
    );
    let ran = run(&text);
    assert_eq!(codes(&ran), ["E0718"]);
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds.len(), 4, "every round is reported");
    assert_eq!(o.report.standings.len(), 20);
    let out = run_cli("withdrawal", &text);
    assert!(out.starts_with("exit code: 1"), "{out}");
    assert!(
        out.contains("withdrawn = [20]"),
        "the error points at the withdrawal: {out}"
    );
    insta::assert_snapshot!("withdrawal-with-no-rule", out);
}

/// The stopped stages of a run's report, as its JSON gives them: (stage, the stage
/// whose problem stopped it, code).
fn stopped_json(ran: &Ran) -> Vec<(String, String, String)> {
    let o = ran.outcome.as_ref().unwrap();
    let json = serde_json::to_value(&o.report).unwrap();
    json["stopped"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    let f = |k: &str| s[k].as_str().unwrap().to_string();
                    (f("name"), f("at"), f("code"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_withdrawal_with_no_rule_in_a_stops_the_a_side_only_and_the_b_quarterfinal_is_reported() {
    let text = b_before_a().replacen(
        "name = \"a_qf\"\n",
        "name = \"a_qf\"\nwithdrawn = [20]\n",
        1,
    );
    let ran = run(&text);
    assert_eq!(codes(&ran), ["E0718"]);
    let o = ran.outcome.as_ref().unwrap();
    let json = serde_json::to_value(&o.report).unwrap();
    let stages = json["stages"].as_array().unwrap();
    let names: Vec<&str> = stages.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["b_qf"], "the B side does not depend on the A side");
    let winners: Vec<u64> = stages[0]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["winner"].as_u64().unwrap())
        .collect();
    assert_eq!(winners, [12, 14, 3, 2]);
    let e = |n: &str, at: &str| (n.to_string(), at.to_string(), "E0718".to_string());
    assert_eq!(
        stopped_json(&ran),
        [e("a_qf", "a_qf"), e("a_sf", "a_qf"), e("a_final", "a_qf")]
    );
    assert!(
        json["places"].as_array().unwrap().is_empty(),
        "not complete"
    );
    let pending = o.pending.as_ref().unwrap().awaited.to_string();
    assert!(pending.contains("E0718"), "{pending}");
    let out = run_cli("withdrawal-a-only", &text);
    assert!(out.starts_with("exit code: 1"), "{out}");
    assert!(out.contains("winner Gävle"), "{out}");
    assert!(out.contains("A Semifinal: not played, fed by A Quarterfinal, stopped by E0718"));
    assert!(!out.contains("The competition is complete"), "{out}");
}

#[test]
fn a_stop_in_the_a_quarterfinal_plays_nothing_downstream_though_its_results_are_in() {
    // Every A quarterfinal result and an A semifinal entry are written, yet the
    // withdrawal the document has no rule for stops the A quarterfinal: neither the
    // semifinal nor the final is played, and no place is given.
    let text = b_before_a().replacen(
        "name = \"a_qf\"\n",
        "name = \"a_qf\"\nwithdrawn = [20]\nresults = [\"4-15 50:20\", \"5-11 40:30\", \"9-1 30:31\", \"6-20 45:10\"]\n",
        1,
    ) + "\n[[stage]]\nname = \"a_sf\"\nresults = [\"4-1 30:20\", \"5-6 20:30\"]\n";
    let ran = run(&text);
    assert_eq!(codes(&ran), ["E0718"]);
    let o = ran.outcome.as_ref().unwrap();
    let names: Vec<&str> = o.report.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["b_qf"]);
    assert!(o.report.places.is_empty());
    let stopped: Vec<String> = stopped_json(&ran).into_iter().map(|s| s.0).collect();
    assert_eq!(stopped, ["a_qf", "a_sf", "a_final"]);
    insta::assert_snapshot!(
        "withdrawal-stops-downstream",
        run_cli("withdrawal-downstream", &text)
    );
}

#[test]
fn a_result_written_under_the_wrong_round_names_the_round_it_belongs_to() {
    // Round 3's 9-6 written into round 2 by mistake.
    let text = base()
        .replacen(
            "results = [\"2-9 15:38\",",
            "results = [\"9-6 19:27\", \"2-9 15:38\",",
            1,
        )
        .replacen("results = [\"9-6 19:27\", \"4-7", "results = [\"4-7", 1);
    let ran = run(&text);
    let d = ran
        .diagnostics
        .sorted()
        .into_iter()
        .find(|d| d.code == "E0705")
        .expect("E0705");
    let help = d.help.clone().unwrap_or_default();
    assert!(
        help.starts_with("9-6 is a match of the draw recorded in round 3: move the result"),
        "{help}"
    );
}

#[test]
fn two_independent_stops_each_get_their_own_diagnostic_and_the_rest_is_played() {
    // B Quarterfinal: a withdrawal at its draw; A Semifinal: a withdrawal after its
    // draw. Neither feeds the other; the A Quarterfinal, which feeds only the A side,
    // is played in full before the A Semifinal stops.
    let text = std::fs::read_to_string(root().join(AFTER_4))
        .unwrap()
        .replacen(
            "name = \"a_qf\"\n",
            "name = \"a_qf\"\nresults = [\"4-15 50:20\", \"5-11 40:30\", \"9-1 30:31\", \"6-20 45:10\"]\n",
            1,
        )
        .replacen(
            "name = \"b_qf\"\n",
            "name = \"b_qf\"\nwithdrawn_at_draw = [13]\n",
            1,
        )
        + "\n[[stage]]\nname = \"a_sf\"\nwithdrawn = [5]\n";
    let ran = run(&text);
    assert_eq!(codes(&ran), ["E0718", "E0718"]);
    // Each diagnostic points at its own entry of the event file.
    let lines: Vec<&str> = ran
        .diagnostics
        .sorted()
        .iter()
        .map(|d| &text[d.span.start as usize..d.span.end as usize])
        .collect();
    assert_eq!(lines, ["13", "5"]);
    let o = ran.outcome.as_ref().unwrap();
    let played: Vec<&str> = o.report.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(played, ["a_qf"], "the stage neither stop feeds is played");
    let winners: Vec<u32> = o.report.stages[0]
        .matches
        .iter()
        .map(|m| m.winner)
        .collect();
    assert_eq!(winners, [4, 5, 1, 6]);
    let e = |n: &str, at: &str| (n.to_string(), at.to_string(), "E0718".to_string());
    assert_eq!(
        stopped_json(&ran),
        [e("b_qf", "b_qf"), e("a_sf", "a_sf"), e("a_final", "a_sf")]
    );
    assert!(o.report.places.is_empty(), "not complete");
    insta::assert_snapshot!("two-independent-stops", run_cli("two-stops", &text));
    // The same in JSON: both diagnostics, each at its entry, and both stops.
    let dir = TempDir::new("two-stops-json");
    let path = dir.0.join("event.toml");
    std::fs::write(&path, &text).unwrap();
    let (code, stdout, _) = bfr(&["run", "--format", "json", EDITION, path.to_str().unwrap()]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let diags: Vec<(String, u64, String)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["start"]["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(diags.len(), 2, "{diags:?}");
    let line_of =
        |needle: &str| 1 + text[..text.find(needle).unwrap()].matches('\n').count() as u64;
    assert_eq!(diags[0].1, line_of("withdrawn_at_draw = [13]"));
    assert!(
        diags[0].2.contains("at the draw of B Quarterfinal"),
        "{diags:?}"
    );
    assert_eq!(diags[1].1, line_of("withdrawn = [5]"));
    assert!(
        diags[1].2.contains("after the draw of A Semifinal"),
        "{diags:?}"
    );
    let stopped: Vec<&str> = json["report"]["stopped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(stopped, ["b_qf", "a_sf", "a_final"]);
    let stages: Vec<&str> = json["report"]["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["a_qf"]);
}

#[test]
fn a_result_not_understood_is_one_error_and_the_later_rounds_wait_without_errors_of_their_own() {
    // A decimal comma in round 2 (round 3 drawn and played after it): round 2 waits
    // for that result, and round 3's results are not used — because of the one error,
    // not a second one saying round 3 "was never drawn" (it is recorded).
    let text = base().replacen("\"2-9 15:38\"", "\"2-9 15,5:38\"", 1);
    assert_ne!(text, base());
    let ran = run(&text);
    assert_eq!(codes(&ran), ["E0701"]);
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds.len(), 1, "round 2 waits for its result");
    let next = o.pending.as_ref().unwrap().next.clone();
    assert!(next.contains("round 2"), "{next}");
    // A result for a match of another round's draw is E0705, and round 3 waits
    // without an error of its own too.
    let text = base().replacen("\"2-9 15:38\"", "\"9-6 15:38\"", 1);
    let ran = run(&text);
    assert!(!codes(&ran).contains(&"E0710"), "{:?}", codes(&ran));
}
