//! Event files run through a test edition (`tests/fixtures/events`): a whole Mini
//! Cup from hand-written results, the same in JSON, incidents decided by the rules,
//! partial events, determinism, and one case file per `E07xx` problem
//! (`tests/cases/events/<CODE>-<slug>.toml`, first line `# expect: CODE`; the
//! rendered diagnostics are snapshotted as `tests/suite/snapshots/suite__events__<stem>.snap`).

use crate::support::{bfr, root, trim_lines};
use bfr::check::Checked;
use bfr::cli::render::{event_run, standing as words};
use bfr::diag::{Colour, render};
use bfr::edition::load;
use bfr::event::{Next, Ran};
use bfr::runner::report::{Decided, MatchSeating, Standing};
use bfr::source::Sources;
use std::path::Path;
use std::sync::OnceLock;

const EDITION: &str = "tests/fixtures/events";
const CASES: &str = "tests/cases/events";

fn edition() -> &'static (Checked, Sources) {
    static E: OnceLock<(Checked, Sources)> = OnceLock::new();
    E.get_or_init(|| {
        let loaded = load(&root().join(EDITION)).unwrap();
        assert!(!loaded.diagnostics.has_errors());
        (
            loaded.checked.expect("the test edition checks"),
            loaded.sources,
        )
    })
}

/// Runs an event text named `name` (relative, so snapshots are stable).
fn run_text(name: &str, text: &str) -> (Ran, Sources) {
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let ran = bfr::event::run(&mut checked.clone(), &mut sources, name, text);
    (ran, sources)
}

/// `text` run as an event file of the bundled 2015 edition.
fn run_2015_text(text: &str) -> Ran {
    let loaded = crate::support::edition_2015();
    let checked = loaded.checked.as_ref().expect("the 2015 edition checks");
    let mut sources = loaded.sources.clone();
    bfr::event::run(&mut checked.clone(), &mut sources, "event.toml", text)
}

fn run_file(relative: &str) -> (Ran, Sources) {
    let text = std::fs::read_to_string(root().join(relative)).unwrap();
    run_text(relative, &text)
}

fn rendered(ran: &Ran, sources: &Sources) -> String {
    let text: String = ran
        .diagnostics
        .sorted()
        .iter()
        .map(|d| render(d, sources, Colour::Off))
        .collect();
    trim_lines(&text.replace(&format!("{}/", root().display()), ""))
}

/// The whole Mini Cup event (tests/fixtures/events/full.toml), for a test to change.
fn full() -> String {
    std::fs::read_to_string(root().join("tests/fixtures/events/full.toml")).unwrap()
}

fn codes(ran: &Ran) -> Vec<&'static str> {
    ran.diagnostics.sorted().iter().map(|d| d.code).collect()
}

/// The first diagnostic of `code` the run gave; the test fails if there is none.
fn diagnostic_of<'a>(ran: &'a Ran, code: &str) -> &'a bfr::diag::Diagnostic {
    let all = ran.diagnostics.sorted();
    let found = all.iter().find(|d| d.code == code).copied();
    found.unwrap_or_else(|| {
        let codes: Vec<_> = all.iter().map(|d| d.code).collect();
        panic!("no {code} among {codes:?}")
    })
}

fn standings(ran: &Ran) -> Vec<u32> {
    let o = ran.outcome.as_ref().unwrap();
    o.report.standings.iter().map(|l| l.team).collect()
}

// ── a whole event ────────────────────────────────────────────────────────────

#[test]
fn a_whole_event_is_played_to_the_end() {
    let (ran, sources) = run_file("tests/fixtures/events/full.toml");
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    let o = ran.outcome.as_ref().unwrap();
    assert!(o.pending.is_none());
    assert!(ran.next.is_none());
    let r = &o.report;
    assert_eq!(r.seed, 42);
    assert_eq!(r.rounds.len(), 3);
    // Round 1 as drawn from seed 42; later rounds by the standings.
    let pairs = |i: usize| -> Vec<(u32, u32)> {
        r.rounds[i]
            .matches
            .iter()
            .map(|m| (m.home, m.away))
            .collect()
    };
    assert_eq!(pairs(0), [(4, 2), (7, 3), (5, 1), (8, 6)]);
    assert_eq!(pairs(1), [(1, 4), (7, 6), (8, 3), (2, 5)]);
    assert_eq!(pairs(2), [(1, 8), (6, 4), (7, 5), (2, 3)]);
    // The test scale: half a VP per IMP over 10–10. 5-1 10:30 is 0–20.
    let m = &r.rounds[0].matches[2];
    assert_eq!(
        (m.home_vp.to_string(), m.away_vp.to_string()),
        ("0".into(), "20".into())
    );
    assert_eq!(standings(&ran), [1, 8, 4, 7, 6, 2, 3, 5]);
    let vp: Vec<String> = r
        .standings
        .iter()
        .map(|l| l.vp.normalize().to_string())
        .collect();
    assert_eq!(vp, ["49", "38", "36", "35.5", "34", "20", "17.5", "10"]);
    // The semifinal: the winner chooses among 3 and 4; the final and third place.
    let sf = &r.stages[0];
    assert_eq!(sf.name, "sf");
    assert_eq!(sf.choices, [(1, 7)]);
    let ko: Vec<(u32, u32, u32)> = r
        .stages
        .iter()
        .flat_map(|s| s.matches.iter().map(|m| (m.home, m.away, m.winner)))
        .collect();
    assert_eq!(ko, [(1, 7, 1), (8, 4, 4), (1, 4, 4), (8, 7, 7)]);
    // "7-8 52:47" is written away team first: the IMPs follow the names.
    let third = &r.stages[2].matches[0];
    assert_eq!(
        (third.home_imps.to_string(), third.away_imps.to_string()),
        ("47".into(), "52".into())
    );
    let places: Vec<(String, u32)> = r
        .places
        .iter()
        .map(|l| (words(&l.standing), l.team))
        .collect();
    assert_eq!(
        &places[..4],
        [
            ("1".into(), 4),
            ("2".into(), 1),
            ("3".into(), 7),
            ("4".into(), 8)
        ]
    );
    assert!(places[4..].iter().all(|(s, _)| s == "out at Qualification"));
    let text = event_run(&ran);
    assert!(text.contains("Medelpad 1 chooses Östersund"), "{text}");
    assert!(text.ends_with("The competition is complete.\n"), "{text}");
    insta::assert_snapshot!("full-event", text);
}

#[test]
fn the_same_event_in_json_gives_the_same_run() {
    let (toml, _) = run_file("tests/fixtures/events/full.toml");
    let (json, sources) = run_file("tests/fixtures/events/full.json");
    assert!(json.diagnostics.is_empty(), "{}", rendered(&json, &sources));
    assert_eq!(event_run(&toml), event_run(&json));
    let report = |r: &Ran| serde_json::to_value(&r.outcome.as_ref().unwrap().report).unwrap();
    assert_eq!(report(&toml), report(&json));
}

#[test]
fn a_byte_order_mark_is_accepted_in_toml_and_json() {
    let (plain, _) = run_file("tests/fixtures/events/full.toml");
    for file in [
        "tests/fixtures/events/full.toml",
        "tests/fixtures/events/full.json",
    ] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let (ran, sources) = run_text(file, &format!("\u{feff}{text}"));
        assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
        assert_eq!(event_run(&ran), event_run(&plain), "{file}");
    }
}

#[test]
fn a_json_problem_points_at_the_entry_not_the_whole_file() {
    let file = "tests/fixtures/events/full.json";
    let text = std::fs::read_to_string(root().join(file))
        .unwrap()
        .replacen("\"1-4 70:81\"", "\"1-4 70;81\"", 1);
    let (ran, _) = run_text(file, &text);
    let d = ran.diagnostics.sorted();
    assert_eq!(d.len(), 1, "{d:?}");
    let at = text.find("\"1-4 70;81\"").unwrap();
    assert_eq!(
        (d[0].span.start as usize, d[0].span.end as usize),
        (at, at + "\"1-4 70;81\"".len())
    );
}

#[test]
fn the_same_file_twice_gives_byte_identical_output() {
    for file in [
        "tests/fixtures/events/full.toml",
        "tests/fixtures/events/qualification.toml",
        "tests/cases/events/E0705-result-not-drawn.toml",
    ] {
        let (a, sa) = run_file(file);
        let (b, sb) = run_file(file);
        assert_eq!(event_run(&a), event_run(&b), "{file}");
        assert_eq!(rendered(&a, &sa), rendered(&b, &sb), "{file}");
        assert_eq!(
            serde_json::to_string(&a.to_json(&sa)).unwrap(),
            serde_json::to_string(&b.to_json(&sb)).unwrap(),
            "{file}"
        );
    }
}

// ── partial events ───────────────────────────────────────────────────────────

#[test]
fn a_partial_event_says_what_comes_next() {
    // The qualification only: next is the semifinal's first choice.
    let (ran, sources) = run_file("tests/fixtures/events/qualification.toml");
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    match &ran.next {
        Some(Next::Choice {
            stage,
            chooser,
            candidates,
            ..
        }) => {
            assert_eq!(
                (stage.as_str(), *chooser, candidates.clone()),
                ("sf", 1, vec![4, 7])
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        event_run(&ran)
            .contains("Next: Semifinal: Medelpad 1 (1) chooses among Jämtland (4), Östersund (7)")
    );
    // Round 2 half given: the draw of round 2, with what is in and what is needed.
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/events/qualification.toml")).unwrap();
    let cut = text.find("[[round]]\nnumber = 3").unwrap();
    let partial = text[..cut].replace("\"7-6 12:26\", \"8-3 35:9\", ", "");
    let (ran, sources) = run_text("partial.toml", &partial);
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    let o = ran.outcome.as_ref().unwrap();
    assert_eq!(o.report.rounds.len(), 1);
    assert_eq!(
        o.pending.as_ref().unwrap().next,
        "the results of Qualification round 2"
    );
    match &ran.next {
        Some(Next::Results { round, matches, .. }) => {
            assert_eq!(*round, Some(2));
            let given: Vec<bool> = matches.iter().map(|m| m.result.is_some()).collect();
            assert_eq!(given, [true, false, false, true]);
        }
        other => panic!("{other:?}"),
    }
    let text = event_run(&ran);
    assert!(
        text.contains("Next: the results of Qualification round 2"),
        "{text}"
    );
    insta::assert_snapshot!("partial-event", text);
}

#[test]
fn an_event_with_no_results_shows_the_first_draw() {
    let text = "competition = \"mini\"\nseed = 42\nteam = [{ id = 1 }, { id = 2 }, { id = 3 }, { id = 4 }, { id = 5 }, { id = 6 }, { id = 7 }, { id = 8 }]\n";
    let (ran, _) = run_text("empty.toml", text);
    assert!(ran.diagnostics.is_empty());
    match &ran.next {
        Some(Next::Results { matches, round, .. }) => {
            assert_eq!(*round, Some(1));
            let pairs: Vec<(u32, u32)> = matches.iter().map(|m| (m.home, m.away)).collect();
            assert_eq!(pairs, [(4, 2), (7, 3), (5, 1), (8, 6)]);
        }
        other => panic!("{other:?}"),
    }
    // Another seed, another first round.
    let (other, _) = run_text("empty.toml", &text.replace("seed = 42", "seed = 7"));
    assert_ne!(format!("{:?}", other.next), format!("{:?}", ran.next));
}

// ── incidents ────────────────────────────────────────────────────────────────

fn with_incident(file: &str, incident: &str) -> (Ran, Sources) {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    run_text(
        "incident.toml",
        &format!("{text}\n[[incident]]\n{incident}\n"),
    )
}

#[test]
fn an_incident_evaluated_by_the_rules_changes_the_standings() {
    let (before, _) = run_file("tests/fixtures/events/qualification.toml");
    assert_eq!(standings(&before), [1, 8, 4, 7, 6, 2, 3, 5]);
    // 12 minutes late: 3 VP by the edition's scale; Östersund drops below Sundsvall.
    let (after, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 7\nround = 3\nrule = \"late_arrival(12 min)\"",
    );
    assert!(
        after.diagnostics.is_empty(),
        "{}",
        rendered(&after, &sources)
    );
    assert_eq!(standings(&after), [1, 8, 4, 6, 7, 2, 3, 5]);
    let line = &after.outcome.as_ref().unwrap().report.standings[4];
    assert_eq!(line.vp.normalize().to_string(), "32.5");
    assert_eq!(after.incidents[0].penalty.as_deref(), Some("deduct 3 VP"));
    // The semifinal now has Sundsvall among the candidates.
    match &after.next {
        Some(Next::Choice { candidates, .. }) => assert_eq!(candidates, &[4, 6]),
        other => panic!("{other:?}"),
    }
    let text = event_run(&after);
    assert!(
        text.contains("late_arrival(12 min) = deduct 3 VP (deducted)"),
        "{text}"
    );
}

/// An incident's rule is echoed in the report shortened, as a diagnostic
/// echoes input: a rule of thousands of bytes does not fill the page.
#[test]
fn a_long_incident_rule_is_shown_shortened() {
    let rule = format!("late_arrival({} 12 min)", "0 min + ".repeat(1_000));
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        &format!("team = 7\nround = 3\nrule = \"{rule}\""),
    );
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    let text = event_run(&ran);
    let line = text
        .lines()
        .find(|l| l.contains("late_arrival("))
        .unwrap_or_default();
    assert!(
        line.len() < 600
            && line.contains("bytes left out]")
            && line.ends_with("= deduct 3 VP (deducted)"),
        "{line}"
    );
}

#[test]
fn a_penalty_deducts_in_the_units_the_edition_scores_in() {
    // A variant edition whose VP are called `SegP` (`VP` kept as an alias, so every
    // figure still reads): the round's penalty is `deduct 3 SegP`, and it comes off
    // the standings as before, since the VP scale answers in SegP.
    let text = std::fs::read_to_string(root().join(EDITION).join("edition.bfr")).unwrap();
    let text = text
        .replace(
            "unit VP \"victory points\"",
            "unit SegP \"victory points\" alias VP",
        )
        .replace(
            "unit IMP \"international match points\"",
            "unit Imp \"international match points\" alias IMP",
        );
    let mut variant = bfr::edition::load_texts(vec![("edition.bfr".into(), text.into_bytes())]);
    let checked = variant.checked.as_mut().expect("the variant checks");
    let base =
        std::fs::read_to_string(root().join("tests/fixtures/events/qualification.toml")).unwrap();
    let text =
        format!("{base}\n[[incident]]\nteam = 7\nround = 3\nrule = \"late_arrival(12 min)\"\n");
    let ran = bfr::event::run(checked, &mut variant.sources, "incident.toml", &text);
    assert!(
        ran.diagnostics.is_empty(),
        "{}",
        rendered(&ran, &variant.sources)
    );
    assert_eq!(standings(&ran), [1, 8, 4, 6, 7, 2, 3, 5]);
    assert_eq!(ran.incidents[0].penalty.as_deref(), Some("deduct 3 SegP"));
    // The report names the scores in the edition's units too.
    let report = event_run(&ran);
    let header = report
        .lines()
        .find(|l| l.trim_start().starts_with("place"))
        .unwrap_or_default();
    assert!(
        header.contains(" SegP ") && header.contains(" Imp+ ") && !header.contains("VP"),
        "{report}"
    );
    // A knockout stage's score is the scale's margin, in Imp.
    let full = full();
    let text = format!(
        "{full}\n[[incident]]\nteam = 1\nstage = \"sf\"\nrule = \"late_arrival_knockout(8 min)\"\n"
    );
    let ran = bfr::event::run(checked, &mut variant.sources, "incident.toml", &text);
    assert_eq!(ran.incidents[0].penalty.as_deref(), Some("deduct 4 Imp"));
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0].matches[0];
    assert_eq!(sf.home_imps.to_string(), "37");
}

#[test]
fn a_warning_is_listed_and_applies_nothing() {
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 7\nround = 3\nrule = \"late_arrival(3 min)\"",
    );
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(standings(&ran), [1, 8, 4, 7, 6, 2, 3, 5]);
    assert!(event_run(&ran).contains("late_arrival(3 min) = warning (warning: nothing applies)"));
}

#[test]
fn a_knockout_penalty_comes_off_the_imps() {
    // 8 minutes late in the semifinal: 1 IMP + 3 started minutes = 4 IMP; 41-38 becomes 37-38.
    let (ran, sources) = with_incident(
        "tests/fixtures/events/full.toml",
        "team = 1\nstage = \"sf\"\nrule = \"late_arrival_knockout(8 min)\"",
    );
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0].matches[0];
    assert_eq!((sf.home_imps.to_string(), sf.winner), ("37".into(), 7));
    // The final and third place as written no longer match the draw.
    assert!(
        codes(&ran).contains(&"E0705"),
        "{}",
        rendered(&ran, &sources)
    );
}

#[test]
fn an_incident_written_again_under_the_stages_title_is_the_same_incident() {
    // W0722 compares incidents once the stage is known: `sf` and `semifinal` are
    // one stage, so the second is the first pasted again (and both apply).
    let (ran, sources) = with_incident(
        "tests/fixtures/events/full.toml",
        "team = 1\nstage = \"sf\"\nrule = \"late_arrival_knockout(8 min)\"\n\n[[incident]]\nteam = 1\nstage = \"semifinal\"\nrule = \"late_arrival_knockout(8 min)\"",
    );
    let d = diagnostic_of(&ran, "W0722");
    assert!(
        d.message
            .starts_with("team 1's incident in Semifinal is written twice"),
        "{}",
        rendered(&ran, &sources)
    );
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0].matches[0];
    assert_eq!(sf.home_imps.to_string(), "33");
    // Another team's incident there is not the same one.
    let (ran, _) = with_incident(
        "tests/fixtures/events/full.toml",
        "team = 1\nstage = \"sf\"\nrule = \"late_arrival_knockout(8 min)\"\n\n[[incident]]\nteam = 7\nstage = \"Semifinal\"\nrule = \"late_arrival_knockout(8 min)\"",
    );
    assert!(!codes(&ran).contains(&"W0722"));
    // An event whose competition is unknown still says an incident is pasted twice.
    let text = std::fs::read_to_string(root().join("tests/fixtures/events/full.toml")).unwrap();
    let pasted = "\n[[incident]]\nteam = 1\nround = 1\nrule = \"late_arrival(8 min)\"\n";
    let unknown = format!(
        "{}{pasted}{pasted}",
        text.replace("competition = \"mini\"", "competition = \"minj\"")
    );
    let (ran, _) = run_text("unknown.toml", &unknown);
    assert!(
        codes(&ran).contains(&"E0711") && codes(&ran).contains(&"W0722"),
        "{:?}",
        codes(&ran)
    );
}

#[test]
fn an_incident_rule_written_as_words_names_the_rules_that_hold_them() {
    let help_for = |rule: &str| {
        let (ran, sources) = with_incident(
            "tests/fixtures/events/full.toml",
            &format!("team = 1\nround = 1\nrule = \"{rule}\""),
        );
        let d = diagnostic_of(&ran, "E0001");
        assert_eq!(
            d.message,
            "expected `{` or the end of the expression",
            "{}",
            rendered(&ran, &sources)
        );
        d.help.clone().unwrap_or_default()
    };
    // A director writes the rule's name as the document says it, or its
    // heading (the section the rules cite).
    let late = "a rule's name is one word; the edition's rules giving a penalty that these \
                words describe: `late_arrival(late: duration)`, \
                `late_arrival_knockout(late: duration)`";
    assert_eq!(
        help_for("late arrival"),
        format!("{late}; call one (with its inputs)")
    );
    // The fixture's `cheating` cites the same section.
    assert_eq!(
        help_for("Sen ankomst"),
        format!("{late}, `cheating`; call one (with its inputs)")
    );
    // A rule's inputs without brackets.
    assert_eq!(
        help_for("late_arrival 12 min"),
        "to call `late_arrival`, put its inputs in brackets: `late_arrival(late: duration)`"
    );
    // Words no rule holds: no name made up.
    assert_eq!(
        help_for("slow play"),
        "no rule of the edition that gives a penalty is named or described by these words; \
         `bfr list` shows the edition's rules and what each gives"
    );
    // The parser's own help stands.
    assert_eq!(
        help_for("deduct4 VP"),
        "`deduct4` reads as one name; a keyword stands apart from what follows: write `deduct 4`"
    );
}

#[test]
fn a_referral_stops_the_run() {
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 3\nround = 2\nrule = \"late_arrival(30 min)\"",
    );
    assert_eq!(codes(&ran), ["E0713"], "{}", rendered(&ran, &sources));
    assert_eq!(ran.outcome.as_ref().unwrap().report.rounds.len(), 1);
    let text = event_run(&ran);
    assert!(
        text.contains("Next: round 2: team 3's incident: referred to \"Ansvarig Organisation\": the run cannot decide this"),
        "{text}"
    );
    // A forfeit too.
    let (ran, _) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 3\nround = 2\nrule = \"cheating\"",
    );
    assert_eq!(codes(&ran), ["E0713"]);
    // Two referrals in one round: each is said, once, and both stop it.
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 3\nround = 2\nrule = \"late_arrival(30 min)\"\n\n[[incident]]\nteam = 5\nround = 2\nrule = \"late_arrival(40 min)\"",
    );
    assert_eq!(
        codes(&ran),
        ["E0713", "E0713"],
        "{}",
        rendered(&ran, &sources)
    );
    let applied: Vec<&str> = ran.incidents.iter().map(|i| i.applied.as_str()).collect();
    assert_eq!(applied, ["stops the run", "stops the run"]);
    // Once decided, the decision goes in the file and the run goes on.
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 3\nround = 2\nrule = \"deduct 4 VP\"",
    );
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(ran.outcome.as_ref().unwrap().report.rounds.len(), 3);
}

#[test]
fn an_incident_rule_that_does_not_check_points_into_the_event_file() {
    let (ran, sources) = with_incident(
        "tests/fixtures/events/qualification.toml",
        "team = 3\nround = 2\nrule = \"late_arival(30 min)\"",
    );
    let text = rendered(&ran, &sources);
    assert_eq!(codes(&ran), ["E0101"], "{text}");
    assert!(text.contains("incident.toml"), "{text}");
    assert!(text.contains("rule = \"late_arival(30 min)\""), "{text}");
}

// ── one case per code ────────────────────────────────────────────────────────

fn run_case(path: &Path) -> Result<(), String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap()
        .to_string();
    let ext = path.extension().and_then(|s| s.to_str()).unwrap();
    let bytes = std::fs::read(path).map_err(|e| format!("{stem}: {e}"))?;
    // A case that is not UTF-8 (E0723) is run from its bytes; its header is ASCII.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let first = text.lines().next().unwrap_or("");
    let expected = first
        .strip_prefix("# expect:")
        .or_else(|| first.strip_prefix("// expect:"))
        .map(str::trim)
        .ok_or(format!("{stem}: no `# expect: CODE` first line"))?;
    if !stem.starts_with(expected) {
        return Err(format!("{stem}: the file name must start with {expected}"));
    }
    // A JSON case carries its header in a "//" line the reader must not see; it
    // reads as an empty line, so that every place shown is the file's own.
    let body = if ext == "json" {
        text.split_once('\n')
            .map_or_else(String::new, |(_, rest)| format!("\n{rest}"))
    } else {
        text.clone()
    };
    let name = format!("{CASES}/{stem}.{ext}");
    let (ran, sources) = if std::str::from_utf8(&bytes).is_ok() {
        run_text(&name, &body)
    } else {
        let (checked, sources) = edition();
        let mut sources = sources.clone();
        let ran = bfr::event::run_bytes(&mut checked.clone(), &mut sources, &name, &bytes);
        (ran, sources)
    };
    let out = rendered(&ran, &sources);
    if !codes(&ran).contains(&expected) {
        return Err(format!(
            "{stem}: expected {expected}, found {:?}\n{out}",
            codes(&ran)
        ));
    }
    insta::assert_snapshot!(stem.as_str(), out);
    Ok(())
}

/// An event case: the test `cases::events::<stem>` (generated in `cases`, which
/// also checks that every E07xx code has one).
pub fn event_case(file: &str) {
    if let Err(message) = run_case(&root().join(CASES).join(file)) {
        panic!("{message}");
    }
}

// ── the command ──────────────────────────────────────────────────────────────

#[test]
fn bfr_run_prints_the_report_and_exits_by_the_problems() {
    let (code, stdout, stderr) = bfr(&["run", EDITION, "tests/fixtures/events/full.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("The competition is complete."));
    assert_eq!(
        stdout,
        event_run(&run_file("tests/fixtures/events/full.toml").0)
    );
    let (code, stdout, stderr) = bfr(&[
        "run",
        "--color",
        "never",
        EDITION,
        "tests/cases/events/E0705-result-not-drawn.toml",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0705]"), "{stderr}");
    assert!(
        stdout.contains("Next: the results of Qualification round 2"),
        "{stdout}"
    );
    let (code, _, stderr) = bfr(&["run", EDITION, "tests/cases/events/E0700-not-toml.toml"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0700]"), "{stderr}");
    let (code, _, stderr) = bfr(&["run", EDITION, "tests/fixtures/events/missing.toml"]);
    assert_eq!(code, 3, "{stderr}");
}

#[test]
fn bfr_run_json_has_report_pending_and_diagnostics() {
    let (code, stdout, _) = bfr(&[
        "run",
        "--format",
        "json",
        EDITION,
        "tests/cases/events/E0705-result-not-drawn.toml",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["pending"]["next"], "the results of Qualification round 2");
    assert_eq!(v["report"]["rounds"].as_array().unwrap().len(), 1);
    assert_eq!(v["diagnostics"][0]["code"], "E0705");
    assert_eq!(v["next"]["kind"], "results");
    let (code, stdout, _) = bfr(&[
        "run",
        "--format",
        "json",
        EDITION,
        "tests/fixtures/events/full.toml",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["pending"].is_null());
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    assert_eq!(v["report"]["places"][0]["team"], 4);
}

/// A count of one reads as one: "Qualification: 1 round", "1 board".
#[test]
fn a_count_of_one_is_singular_in_the_report() {
    let (mut ran, _) = run_file("tests/fixtures/events/full.toml");
    let report = &mut ran.outcome.as_mut().unwrap().report;
    report.rounds.truncate(1);
    report.qualification_rounds = Some(1);
    report.stages[0].boards = rust_decimal::Decimal::ONE;
    let text = event_run(&ran);
    assert!(text.contains("\nQualification: 1 round\n"), "{text}");
    assert!(text.contains("(sf, 1 board, "), "{text}");
}

/// `pending.next` names the teams as the report does, never as a list of
/// numbers in brackets.
#[test]
fn pending_names_the_candidates_in_words() {
    let full = full();
    let before_the_knockout = &full[..full.find("[[stage]]").unwrap()];
    let (ran, sources) = run_text("choice.toml", before_the_knockout);
    let json = ran.to_json(&sources);
    assert_eq!(json["pending"]["kind"], "choice");
    assert_eq!(
        json["pending"]["next"],
        "Semifinal: Medelpad 1 (1) to choose among Jämtland (4) and Östersund (7)"
    );
}

/// A recorded stage draw stands for the choices: a choice it contradicts is
/// reported (W0721) and the report shows the draw, never the choice as made.
#[test]
fn a_choice_the_recorded_draw_contradicts_is_not_shown_as_made() {
    let (ran, sources) =
        run_file("tests/cases/events/W0721-recorded-draw-contradicts-the-choices.toml");
    assert_eq!(codes(&ran), ["W0721"]);
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0];
    assert!(sf.choices.is_empty());
    assert_eq!(sf.contradicted_choices, [(1, 7)]);
    assert_eq!((sf.matches[0].home, sf.matches[0].away), (1, 4));
    let text = event_run(&ran);
    assert!(!text.contains("Team 1 chooses Team 7\n"), "{text}");
    assert!(
        text.contains("the recorded choice \"Team 1 chooses Team 7\" disagrees with the recorded draw, which stands"),
        "{text}"
    );
    let json = ran.to_json(&sources);
    assert_eq!(
        json["report"]["stages"][0]["contradicted_choices"],
        serde_json::json!([[1, 7]])
    );
}

/// `bfr run --format json`'s `pending` of `event` run through `edition`.
fn pending_json(edition: &str, event: &str) -> serde_json::Value {
    let (code, stdout, _) = bfr(&["run", "--format", "json", edition, event]);
    assert_eq!(code, 1, "{event}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    v["pending"].clone()
}

/// Every way a run stops says why as data in `pending`, as docs/events.md
/// promises: `stopped` with the problem's code and words, or `recorded_draw`.
#[test]
fn a_stopped_run_says_why_in_pending() {
    let referred = pending_json(EDITION, "tests/cases/events/E0713-referred.toml");
    assert_eq!(referred["kind"], "stopped", "{referred}");
    assert_eq!(referred["code"], "E0713");
    assert!(
        referred["message"]
            .as_str()
            .unwrap()
            .contains("referred to")
    );
    assert!(referred["next"].as_str().unwrap().starts_with("round 2: "));

    let forfeit = std::fs::read_to_string(root().join("tests/cases/events/E0713-referred.toml"))
        .unwrap()
        .replace("late_arrival(30 min)", "cheating");
    let dir = crate::support::TempDir::new("forfeit");
    let file = dir.0.join("forfeit.toml");
    std::fs::write(&file, forfeit).unwrap();
    let forfeit = pending_json(EDITION, file.to_str().unwrap());
    assert_eq!(forfeit["kind"], "stopped", "{forfeit}");
    assert_eq!(forfeit["code"], "E0713");
    assert!(forfeit["message"].as_str().unwrap().contains("forfeited"));

    let no_rule = pending_json(
        EDITION,
        "tests/cases/events/E0718-no-rule-for-what-happened.toml",
    );
    assert_eq!(no_rule["kind"], "stopped", "{no_rule}");
    assert_eq!(no_rule["code"], "E0718");

    let incomplete = "tests/cases/runs/E0719-edition-incomplete";
    let incomplete = pending_json(
        &format!("{incomplete}/edition"),
        &format!("{incomplete}/event.toml"),
    );
    assert_eq!(incomplete["kind"], "stopped", "{incomplete}");
    assert_eq!(incomplete["code"], "E0719");

    let round = pending_json(
        EDITION,
        "tests/cases/events/E0720-recorded-draw-breaks-a-rule.toml",
    );
    assert_eq!(round["kind"], "recorded_draw", "{round}");
    assert_eq!(round["title"], "Qualification round 2");

    let stage = pending_json(
        "tests/fixtures/twenty",
        "tests/cases/runs/twenty-knockout-correction-after-the-next-draw/event.toml",
    );
    assert_eq!(stage["kind"], "recorded_draw", "{stage}");
    assert!(
        stage["title"].as_str().unwrap().contains("Semifinal"),
        "{stage}"
    );
}

#[test]
fn the_example_in_docs_events_md_runs_clean() {
    let example =
        std::fs::read_to_string(root().join("tests/fixtures/events/docs-example.toml")).unwrap();
    let docs = std::fs::read_to_string(root().join("docs/events.md")).unwrap();
    assert!(
        docs.contains(&example),
        "docs/events.md shows tests/fixtures/events/docs-example.toml"
    );
    let (ran, sources) = run_file("tests/fixtures/events/docs-example.toml");
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    assert!(ran.next.is_none());
    assert_eq!(standings(&ran), [1, 8, 4, 6, 7, 2, 3, 5]);
}

/// An incident whose rule cannot be evaluated deducts nothing, so the
/// qualification's standings move and a choice made from them no longer fits:
/// the choice's error points at the incident, the likelier cause.
#[test]
fn a_choice_that_no_longer_fits_after_an_unapplied_incident_points_at_it() {
    let example =
        std::fs::read_to_string(root().join("tests/fixtures/events/docs-example.toml")).unwrap();
    let text = example.replace(
        "rule = \"late_arrival(12 min)\"",
        "rule = \"late_arrival(-12 min)\"",
    );
    let (ran, sources) = run_text("unapplied.toml", &text);
    let all = rendered(&ran, &sources);
    let errors: Vec<_> = ran.diagnostics.sorted();
    let codes: Vec<&str> = errors.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0712", "E0709"], "{all}");
    let notes: Vec<&str> = errors[1].notes.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        notes,
        [
            "this incident could not be applied (its own error says why): its deduction is missing from the standings the choices follow"
        ],
        "{all}"
    );
    // As written, the choice fits and nothing is noted.
    let (ran, sources) = run_text("applied.toml", &example);
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    // An incident of a later stage moves nothing the semifinal's choices
    // follow: a choice that does not fit is then only itself.
    let later = example.replace("choices = [\"1>6\"]", "choices = [\"1>2\"]")
        + "\n[[incident]]\nteam = 4\nstage = \"final\"\nrule = \"late_arrival_knockout(-3 min)\"\n";
    let (ran, sources) = run_text("later.toml", &later);
    let all = rendered(&ran, &sources);
    let choice = ran
        .diagnostics
        .sorted()
        .into_iter()
        .find(|d| d.code == "E0709")
        .unwrap_or_else(|| panic!("{all}"));
    assert!(choice.notes.is_empty(), "{all}");
}

#[test]
fn a_withdrawal_after_the_draw_is_a_walkover() {
    let text = full();
    let text = text
        .replace(
            "results = [\"1-7 41:38\", \"8-4 30:44\"]",
            "withdrawn = [8]\nresults = [\"1-7 41:38\"]",
        )
        // Team 8 withdrew: it plays no third-place match, and team 7 goes through.
        .replace("results = [\"7-8 52:47\"]", "results = []");
    let (ran, sources) = run_text("withdrawn.toml", &text);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0];
    let m = sf
        .matches
        .iter()
        .find(|m| m.home == 8 || m.away == 8)
        .unwrap();
    assert_eq!((m.winner, m.decided_by), (4, Decided::Walkover));
    let places = &ran.outcome.as_ref().unwrap().report.places;
    let standing = |t: u32| {
        places
            .iter()
            .find(|l| l.team == t)
            .unwrap()
            .standing
            .clone()
    };
    assert_eq!(words(&standing(8)), "withdrew at Semifinal");
    assert_eq!(
        standing(7),
        Standing::place(3),
        "without an opponent, team 7 takes third place"
    );
    // A team that is not in the stage cannot withdraw from it.
    let text = text.replace("withdrawn = [8]", "withdrawn = [8, 5]");
    let (ran, _) = run_text("withdrawn.toml", &text);
    assert_eq!(codes(&ran), ["E0710"]);
}

#[test]
fn teams_named_alike_but_spelt_apart_are_both_quoted() {
    let text = full().replace("name = \"Luleå\"", "name = \"HÄRNOSAND\"");
    let (ran, _) = run_text("alike.toml", &text);
    let d = diagnostic_of(&ran, "W0723");
    assert_eq!(
        d.message,
        "teams 5 and 8 are named alike: `HÄRNOSAND` and `Härnösand`"
    );
}

#[test]
fn a_walkover_waits_for_no_result_and_refuses_one() {
    let text = full();
    // Team 8 withdrew after the semifinal draw and no semifinal is played yet.
    let text = text.replace(
        "results = [\"1-7 41:38\", \"8-4 30:44\"]",
        "withdrawn = [8]\nresults = []",
    );
    let (ran, _) = run_text("walkover.toml", &text);
    let Some(Next::Results { matches, .. }) = &ran.next else {
        panic!("the semifinal waits for results: {:?}", ran.next);
    };
    let walkover: Vec<_> = matches.iter().map(|m| m.withdrawn.clone()).collect();
    assert_eq!(
        walkover,
        [vec![], vec![8]],
        "only team 8's match is a walkover"
    );
    let shown = event_run(&ran);
    assert!(shown.contains("walkover: Härnösand withdrew"), "{shown}");
    assert_eq!(shown.matches("result needed").count(), 1, "{shown}");
    // Both teams of a match withdrew: who goes on, the document does not say. The
    // run stops at the draw, whatever the match's table, before any result is
    // asked for, at the later of the two withdrawals listed.
    for (listed, at) in [("[8, 4]", "4]"), ("[1, 7]", "7]"), ("[7, 8, 4]", "4]")] {
        let both = text.replace("withdrawn = [8]", &format!("withdrawn = {listed}"));
        let (ran, sources) = run_text("walkover.toml", &both);
        let d = diagnostic_of(&ran, "E0718");
        assert!(
            d.message.contains("no rule for who goes on"),
            "{}",
            rendered(&ran, &sources)
        );
        let line = both.find(&format!("withdrawn = {listed}")).unwrap();
        let at = line + both[line..].find(at).unwrap();
        assert_eq!(d.span.start as usize, at, "{listed}");
        assert!(
            matches!(ran.next, Some(Next::Halt { .. }) | Some(Next::Other { .. })),
            "{:?}",
            ran.next
        );
    }
    // A result given for it is refused at once, not only when the stage ends.
    let with_result = text.replace(
        "withdrawn = [8]\nresults = []",
        "withdrawn = [8]\nresults = [\"8-4 30:44\"]",
    );
    let (ran, sources) = run_text("walkover.toml", &with_result);
    let e0710: Vec<_> = ran
        .diagnostics
        .sorted()
        .into_iter()
        .filter(|d| d.code == "E0710")
        .filter(|d| d.message.contains("decided without play"))
        .collect();
    assert_eq!(e0710.len(), 1, "{}", rendered(&ran, &sources));
    assert!(
        e0710[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("team 8 withdrew")
    );
}

#[test]
fn a_competition_is_named_as_in_entries_and_a_stage_mistaken_is_pointed_at() {
    let text = full();
    let (whole, _) = run_text("full.toml", &text);
    // The title, in another case, is the competition, as an entries file reads it.
    let titled = text.replace("competition = \"mini\"", "competition = \"MINI cup\"");
    let (ran, sources) = run_text("titled.toml", &titled);
    assert!(codes(&ran).is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(standings(&ran), standings(&whole));
    // A misspelt name gets the competition meant.
    let misspelt = text.replace("competition = \"mini\"", "competition = \"minni\"");
    let (ran, _) = run_text("misspelt.toml", &misspelt);
    let d = &ran.diagnostics.sorted()[0];
    assert_eq!(d.code, "E0711");
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .starts_with("did you mean `mini` (Mini Cup)?"),
        "{:?}",
        d.help
    );
    // A stage written by its title (as the report shows it), in any case, is that
    // stage; a misspelt one gets the stage meant.
    let by_title = text.replace("name = \"sf\"", "name = \"SEMIFINAL\"");
    let (ran, sources) = run_text("by-title.toml", &by_title);
    assert!(codes(&ran).is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(standings(&ran), standings(&whole));
    // Its draw is written back under the entry as the file writes it, not as a
    // second entry that the next run would refuse as the stage listed twice.
    let drawn = bfr::event::write_draws(&by_title, false, &ran.unrecorded).unwrap();
    assert_eq!(drawn.matches("[[stage]]").count(), 3, "{drawn}");
    assert!(
        drawn.contains("name = \"SEMIFINAL\"\nchoices = [\"1>7\"]\nresults = [\"1-7 41:38\", \"8-4 30:44\"]\ndraw = [\"1-7\", \"8-4\"]"),
        "{drawn}"
    );
    let (again, sources) = run_text("by-title.toml", &drawn);
    assert!(codes(&again).is_empty(), "{}", rendered(&again, &sources));
    let misspelt = text.replace("name = \"sf\"", "name = \"semifnal\"");
    let (ran, _) = run_text("misspelt-stage.toml", &misspelt);
    let d = diagnostic_of(&ran, "E0711");
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .starts_with("did you mean `sf` (Semifinal)?"),
        "{:?}",
        d.help
    );
}

#[test]
fn a_stage_entry_for_a_competition_without_stages_says_to_remove_it() {
    let text = "competition = \"lv_series\"\nseed = 1\nteam = [{ id = 1 }, { id = 2 }, { id = 3 }, { id = 4 }]\n\n[[stage]]\nname = \"final\"\nresults = []\n";
    let ran = run_2015_text(text);
    let d = diagnostic_of(&ran, "E0711");
    assert_eq!(
        d.help.as_deref(),
        Some("`lv_series` has no knockout stages: remove this entry")
    );
}

#[test]
fn a_result_may_say_how_many_boards_the_match_counts() {
    // CC-FOULED: `/7` after a result: a board was cancelled and the match counts 7.
    let text = full();
    let shorter = text.replace("\"4-2 40:20\"", "\"4-2 40:20 /7\"");
    let (ran, sources) = run_text("fouled.toml", &shorter);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let garbled = text.replace("\"4-2 40:20\"", "\"4-2 40:20 /seven\"");
    let (ran, _) = run_text("fouled.toml", &garbled);
    // The garbled result is not understood; the run then stops at that round, so
    // the later entries are unused.
    assert_eq!(codes(&ran).first(), Some(&"E0701"));
}

#[test]
fn a_result_the_vp_scale_cannot_score_is_where_the_run_stops() {
    // vp25 has no table for 7 boards: the run stops at that result, and the
    // diagnostic points at it, in a round's line of 36 results as part of it.
    let text = std::fs::read_to_string(
        root().join("tests/fixtures/events/tie-turned-by-a-correction.toml"),
    )
    .unwrap()
    .replacen("\"35-53 30:10\"", "\"35-53 30:10 /7\"", 1);
    let loaded = crate::support::edition_2015();
    let checked = loaded.checked.as_ref().expect("the 2015 edition checks");
    let mut sources = loaded.sources.clone();
    let ran = bfr::event::run(&mut checked.clone(), &mut sources, "event.toml", &text);
    let d = diagnostic_of(&ran, "E0715");
    let at = text.find("\"35-53 30:10 /7\"").unwrap();
    assert_eq!(
        (d.span.start as usize, d.span.end as usize),
        (at, at + "\"35-53 30:10 /7\"".len())
    );
    assert!(d.label.contains("stopped at this result"), "{}", d.label);
    let shown = render(d, &sources, Colour::Off);
    assert!(
        shown.contains("   | results = [\"35-53 30:10 /7\", \"64-71 30:10\""),
        "{shown}"
    );
    assert!(
        shown.contains("\n   |            ^^^^^^^^^^^^^^^^ the run stopped"),
        "{shown}"
    );
}

/// The codes of `event` run through the test edition with `from` replaced by `to`.
fn codes_in_variant(from: &str, to: &str, event: &str) -> Vec<&'static str> {
    let text = std::fs::read_to_string(root().join(EDITION).join("edition.bfr")).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from}");
    let loaded = bfr::edition::load_texts(vec![(
        "edition.bfr".into(),
        text.replace(from, to).into_bytes(),
    )]);
    assert!(!loaded.diagnostics.has_errors());
    let mut sources = loaded.sources;
    let ran = bfr::event::run(&mut loaded.checked.unwrap(), &mut sources, "e.toml", event);
    ran.diagnostics.sorted().iter().map(|d| d.code).collect()
}

#[test]
fn a_round_scored_in_whole_imps_refuses_a_margin_with_a_fraction_at_the_result() {
    let text = full();
    let with = |result: &str| text.replace("\"4-2 40:20\"", &format!("\"{result}\""));
    let whole = |result: &str| {
        codes_in_variant(
            "unit IMP \"international match points\"",
            "unit IMP \"international match points\" whole",
            &with(result),
        )
    };
    assert_eq!(whole("4-2 40.5:20"), ["E0730"]);
    assert_eq!(whole("4-2 40:20.25"), ["E0730"]);
    // A whole margin stands, fractions and all.
    assert!(whole("4-2 40.5:20.5").is_empty());
    // The edition's IMP does not count whole IMPs: a fraction is a margin like another.
    assert!(codes(&run_text("e.toml", &with("4-2 40.5:20")).0).is_empty());
    // The knockout is decided by its IMPs, not by the VP scale.
    let fin = text.replace("\"1-4 70:81\"", "\"1-4 70.5:81\"");
    assert!(
        codes_in_variant(
            "unit IMP \"international match points\"",
            "unit IMP \"international match points\" whole",
            &fin,
        )
        .is_empty()
    );
    // The refused result is not used: the round waits for it.
    let (ran, sources) = run_text("e.toml", &with("4-2 40:20 /9"));
    assert_eq!(codes(&ran), ["E0722"], "{}", rendered(&ran, &sources));
    assert!(
        matches!(ran.next, Some(Next::Results { round: Some(1), .. })),
        "{:?}",
        ran.next
    );
    // All 8 boards counted, written out: the match has them.
    assert!(codes(&run_text("e.toml", &with("4-2 40:20 /8")).0).is_empty());
}

#[test]
fn a_result_has_at_most_the_imps_its_boards_give_by_the_editions_imp_table() {
    let text = full();
    let with = |result: &str| text.replace("\"4-2 40:20\"", &format!("\"{result}\""));
    let refused = |result: &str| codes(&run_text("e.toml", &with(result)).0).contains(&"E0721");
    // 8 boards, and no board gives more than 24 IMPs (the table's top row): 192 in all.
    assert!(!refused("4-2 192:0"));
    assert!(!refused("4-2 100:92"));
    assert!(refused("4-2 100:93"));
    assert!(refused("4-2 4500:12"));
    // A match that counts 7 boards: 168.
    assert!(!refused("4-2 100:68 /7"));
    assert!(refused("4-2 100:69 /7"));
    // The 32-board final: 768.
    let fin = |r: &str| text.replace("\"1-4 70:81\"", &format!("\"{r}\""));
    assert!(!codes(&run_text("e.toml", &fin("1-4 700:68")).0).contains(&"E0721"));
    assert!(codes(&run_text("e.toml", &fin("1-4 700:69")).0).contains(&"E0721"));
    // An edition whose IMP table tops out at 30 IMPs allows 240 on 8 boards.
    let top = "difference >= 4000 score_points                     => 24 IMP";
    let thirty = "difference >= 4000 score_points                     => 30 IMP";
    assert!(codes_in_variant(top, thirty, &with("4-2 200:40")).is_empty());
    assert!(codes_in_variant(top, thirty, &with("4-2 200:41")).contains(&"E0721"));
    assert!(codes_in_variant(top, top, &with("4-2 200:40")).contains(&"E0721"));
    // Without an `imp_scale` the edition gives no bound, and bfr invents none.
    let none = "  imp_scale = test_imp_table\n";
    assert!(codes_in_variant(none, "", &with("4-2 4500:12")).is_empty());
}

#[test]
fn board_scores_must_cover_every_board_of_the_match() {
    let text = full();
    let second_round = text
        .match_indices("[[round]]")
        .nth(1)
        .map_or(text.len(), |(i, _)| i);
    let with = |scores: &str| {
        text[..second_round]
            .replacen("seed = 42", "seed = 42\nimp_scale = \"test_imps\"", 1)
            .replace("\"4-2 40:20\"", &format!("\"4-2 boards {scores}\""))
    };
    let wrong = |scores: &str| codes(&run_text("e.toml", &with(scores)).0).contains(&"E0722");
    assert!(wrong("+420 -50 0"));
    assert!(wrong("0 0 0 0 0 0 0"));
    assert!(!wrong("0 0 0 0 0 0 0 0"));
    assert!(wrong("0 0 0 0 0 0 0 0 0"));
}

#[test]
fn results_given_board_by_board_become_imps_by_the_editions_scale() {
    let text = full();
    // Board by board from team 4's side: +420 and +60 are 2 IMPs each, -30 is 1 IMP
    // to team 2, +10 and the four flat boards nothing: 4 IMPs to 1.
    // Only round 1: other IMPs change the standings, and so the later draws.
    let second_round = text
        .match_indices("[[round]]")
        .nth(1)
        .map_or(text.len(), |(i, _)| i);
    let by_boards = text[..second_round]
        .replacen("seed = 42", "seed = 42\nimp_scale = \"test_imps\"", 1)
        .replace("\"4-2 40:20\"", "\"4-2 boards +420 +60 -30 +10 0 0 0 0\"");
    let (ran, sources) = run_text("boards.toml", &by_boards);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let round = &ran.outcome.as_ref().unwrap().report.rounds[0];
    let m = round
        .matches
        .iter()
        .find(|m| m.home == 4 || m.away == 4)
        .unwrap();
    let (four, two) = if m.home == 4 {
        (m.home_imps, m.away_imps)
    } else {
        (m.away_imps, m.home_imps)
    };
    assert_eq!(
        (four, two),
        (
            rust_decimal::Decimal::from(4),
            rust_decimal::Decimal::from(1)
        )
    );
    // Without an `imp_scale` the board scores cannot be turned into IMPs.
    let no_scale = text[..second_round].replace("\"4-2 40:20\"", "\"4-2 boards +420 +60 -30 +10\"");
    let (ran, _) = run_text("boards.toml", &no_scale);
    assert!(codes(&ran).contains(&"E0711"), "{:?}", codes(&ran));
}

#[test]
fn an_absent_captain_loses_the_turn_and_gets_the_team_left_over() {
    // CC-ABSENT: team 1 would choose first; it is absent, so team 8 chooses, and team
    // 1, never arriving, gets the team left over, at its own table.
    let text = full();
    let absent = text.replace(
        "choices = [\"1>7\"]",
        "absent = [\"1\"]\nchoices = [\"8>4\"]",
    );
    let (ran, sources) = run_text("absent.toml", &absent);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let sf = &ran.outcome.as_ref().unwrap().report.stages[0];
    assert_eq!(sf.choices, vec![(8, 4)]);
    // The team written bare, as `withdrawn` lists teams, is the same absence.
    let bare = text.replace("choices = [\"1>7\"]", "absent = [1]\nchoices = [\"8>4\"]");
    let (bare, _) = run_text("absent.toml", &bare);
    let json = |s: &bfr::runner::report::KoStage| serde_json::to_value(s).unwrap();
    assert_eq!(
        json(&bare.outcome.as_ref().unwrap().report.stages[0]),
        json(sf)
    );
    let m = sf
        .matches
        .iter()
        .find(|m| m.home == 1 || m.away == 1)
        .unwrap();
    assert_eq!((m.table, m.home.max(m.away)), (1, 7));
    // A captain who arrives before the second turn chooses then.
    let late = text.replace(
        "choices = [\"1>7\"]",
        "absent = [\"1@2\"]\nchoices = [\"8>4\"]",
    );
    let (ran, sources) = run_text("absent.toml", &late);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    // An absence written wrongly is a diagnostic.
    let garbled = text.replace(
        "choices = [\"1>7\"]",
        "absent = [\"one\"]\nchoices = [\"1>7\"]",
    );
    let (ran, _) = run_text("absent.toml", &garbled);
    assert!(codes(&ran).contains(&"E0701"), "{:?}", codes(&ran));
    let negative = text.replace("choices = [\"1>7\"]", "absent = [-1]\nchoices = [\"1>7\"]");
    let (ran, _) = run_text("absent.toml", &negative);
    assert!(
        diagnostic_of(&ran, "E0701")
            .message
            .starts_with("`-1` is not an absence")
    );
    let table = text.replace(
        "choices = [\"1>7\"]",
        "absent = [{ team = 1 }]\nchoices = [\"1>7\"]",
    );
    let (ran, _) = run_text("absent.toml", &table);
    assert!(
        diagnostic_of(&ran, "E0700")
            .message
            .contains("expected a team's number or a quoted text, found a table"),
        "{:?}",
        ran.diagnostics.sorted()
    );
}

#[test]
fn a_withdrawal_at_a_draw_the_document_does_not_cover_stops_the_run() {
    // AMB-10: this stage chooses by `Choice`; the document has no move-up rule for it.
    let text = full();
    let text = text.replace(
        "choices = [\"1>7\"]",
        "withdrawn_at_draw = [8]\nchoices = [\"1>7\"]",
    );
    let (ran, _) = run_text("withdrawn.toml", &text);
    assert!(codes(&ran).contains(&"E0718"), "{:?}", codes(&ran));
}

#[test]
fn seating_picks_give_each_team_one_segment_of_each_pair() {
    // CC-SEATING: the home team picks segment 3, so the away team has 4; the away team
    // picks 1, so the home team has 2.
    let text = full();
    let text = text.replace(
        "name = \"final\"\nresults",
        "name = \"final\"\nseating = [\"1-4 3,1\"]\nresults",
    );
    let (ran, sources) = run_text("seating.toml", &text);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let report = &ran.outcome.as_ref().unwrap().report;
    let m = &report
        .stages
        .iter()
        .find(|s| s.name == "final")
        .unwrap()
        .matches[0];
    assert_eq!(
        m.seating,
        Some(MatchSeating::SegmentRights {
            rights: vec![(1, m.away), (2, m.home), (3, m.home), (4, m.away)]
        })
    );
}

#[test]
fn an_incident_for_a_team_that_does_not_play_there_is_reported() {
    // Team 5 went out in the qualification: a knockout penalty for it applies to nothing.
    let text = full();
    let text = format!(
        "{text}\n[[incident]]\nteam = 5\nstage = \"sf\"\nrule = \"late_arrival_knockout(7 min)\"\n"
    );
    let (ran, _) = run_text("incident.toml", &text);
    assert!(codes(&ran).contains(&"E0712"), "{:?}", codes(&ran));
    assert_eq!(ran.incidents.last().unwrap().applied, "not applied");
    // Nor does an incident that would stop the run (a referral) stop it, and
    // no stop is said (E0713) where none was made.
    let text = text.replace("(7 min)", "(30 min)");
    let (ran, sources) = run_text("referred.toml", &text);
    assert_eq!(codes(&ran), ["E0712"], "{}", rendered(&ran, &sources));
    assert!(
        !matches!(ran.next, Some(Next::Halt { .. })),
        "{:?}",
        ran.next
    );
    assert_eq!(ran.incidents.last().unwrap().applied, "not applied");
}

#[test]
fn a_knockout_deduction_is_applied_when_the_teams_match_is_scored() {
    let text = full();
    let text = format!(
        "{text}\n[[incident]]\nteam = 8\nstage = \"sf\"\nrule = \"late_arrival_knockout(7 min)\"\n"
    );
    let (ran, sources) = run_text("scored.toml", &text);
    assert!(codes(&ran).is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(ran.incidents.last().unwrap().applied, "deducted");
    // Its result not in yet: the run waits for it, and nothing is deducted yet.
    let cut = text.find("[[stage]]\nname = \"final\"").unwrap();
    let waiting = format!(
        "{}{}",
        text[..cut].replace("\"1-7 41:38\", \"8-4 30:44\"", "\"1-7 41:38\""),
        &text[text.find("[[incident]]\nteam = 8").unwrap()..]
    );
    let (ran, sources) = run_text("waiting.toml", &waiting);
    assert!(codes(&ran).is_empty(), "{}", rendered(&ran, &sources));
    assert_eq!(ran.incidents.last().unwrap().applied, "not applied");
}

#[test]
fn a_draw_recorded_under_a_round_never_reached_is_reported_not_dropped() {
    // Round 2's draw written under `number = 3` (a slip), with no results yet:
    // the run waits for round 2 and draws it afresh; the draw under round 3 is
    // an entry it never used, said, never silently passed over.
    let text = full();
    let cut = text.find("[[round]]\nnumber = 2").unwrap();
    let text = format!(
        "{}[[round]]\nnumber = 3\ndraw = [\"1-4\", \"7-6\", \"8-3\", \"2-5\"]\n",
        &text[..cut]
    );
    let (ran, sources) = run_text("slip.toml", &text);
    assert_eq!(codes(&ran), ["E0710"], "{}", rendered(&ran, &sources));
    let shown = rendered(&ran, &sources);
    assert!(shown.contains("round 3 was never drawn"), "{shown}");
    assert!(shown.contains("its recorded draw is not used"), "{shown}");
    assert!(
        matches!(ran.next, Some(Next::Results { round: Some(2), .. })),
        "{:?}",
        ran.next
    );
    // Written under its own number, the draw is the round's and nothing is said.
    let (ran, _) = run_text("right.toml", &text.replace("number = 3", "number = 2"));
    assert!(codes(&ran).is_empty(), "{:?}", codes(&ran));
}

#[test]
fn a_result_for_a_match_decided_by_walkover_is_reported() {
    let text = full();
    let text = text
        .replace(
            "results = [\"1-7 41:38\", \"8-4 30:44\"]",
            "withdrawn = [7]\nresults = [\"1-7 41:38\", \"8-4 30:44\"]",
        )
        .replace("results = [\"7-8 52:47\"]", "results = []");
    let (ran, _) = run_text("walkover.toml", &text);
    assert_eq!(codes(&ran), ["E0710"]);
}

#[test]
fn absent_captains_before_any_choice_stop_at_whose_turn_it_is() {
    // CC-ABSENT: team 1 is absent, so team 8 chooses first. With no choice given yet
    // the run stops there, cleanly, and says so.
    let text = full();
    let cut = text.find("[[stage]]").unwrap();
    let text = format!(
        "{}[[stage]]\nname = \"sf\"\nabsent = [\"1\"]\n",
        &text[..cut]
    );
    let (ran, sources) = run_text("absent.toml", &text);
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    match ran.next {
        Some(Next::Choice {
            chooser,
            candidates,
            ..
        }) => assert_eq!((chooser, candidates), (8, vec![4, 7])),
        other => panic!("{other:?}"),
    }
    // One choice in: the absent captain, never arriving, gets the team left over.
    let text = text.replace(
        "absent = [\"1\"]\n",
        "absent = [\"1\"]\nchoices = [\"8>4\"]\n",
    );
    let (ran, sources) = run_text("absent.toml", &text);
    assert!(ran.diagnostics.is_empty(), "{}", rendered(&ran, &sources));
    assert!(
        matches!(ran.next, Some(Next::Results { ref stage, .. }) if stage.as_deref() == Some("sf")),
        "{:?}",
        ran.next
    );
}

// ── a stage's bye is part of its recorded draw ──────────────────────────────

#[test]
fn recorded_draws_change_nothing_shown_and_a_stage_records_its_bye() {
    // Team 8 withdraws after the semifinal draw: the match for third place has
    // team 7 alone, which goes through without a match.
    let case = "tests/cases/runs/knockout-withdrawal/event.toml";
    let dir = crate::support::TempDir::new("stage-bye");
    let path = dir.0.join("event.toml");
    std::fs::copy(root().join(case), &path).unwrap();
    let p = path.to_str().unwrap();
    let (_, before, _) = bfr(&["run", EDITION, p]);
    let (code, _, stderr) = bfr(&["run", "--write-draw", EDITION, p]);
    assert_eq!(code, 0, "{stderr}");
    // Recording the draws changes nothing the run shows (the choices included).
    let (_, after, _) = bfr(&["run", EDITION, p]);
    assert_eq!(after, before);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.contains("name = \"third\"\nresults = []\ndraw = []\nbye = 7\n"),
        "{written}"
    );
    let (ran, sources) = run_text("event.toml", &written);
    assert!(
        !ran.diagnostics.has_errors(),
        "{}",
        rendered(&ran, &sources)
    );
    let o = ran.outcome.as_ref().unwrap();
    let third = o.report.stages.iter().find(|s| s.name == "third").unwrap();
    assert_eq!(third.byes, [7]);
    // A bye the record gives to a team that does not play there is refused.
    let wrong = written.replace("bye = 7\n", "bye = 1\n");
    let (ran, _) = run_text("event.toml", &wrong);
    assert_eq!(codes(&ran), ["E0720", "E0720"]);
}

#[test]
fn a_correction_that_turns_a_knockout_tie_breaks_the_draw_made_from_it() {
    let text = std::fs::read_to_string(
        root().join("tests/fixtures/events/tie-turned-by-a-correction.toml"),
    )
    .unwrap();
    let ran = run_2015_text(&text);
    let sorted = ran.diagnostics.sorted();
    let errors: Vec<&str> = sorted
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    // The tie goes to the Gröna Hissen place as the results stand now; the
    // draw made from the old winner is not changed behind the director's back.
    assert_eq!(
        errors,
        [
            "team 68 plays in BC32-B, but the draw as recorded leaves it out",
            "team 37 does not play in BC32-B, but the draw as recorded has it",
        ]
    );
    assert!(ran.unrecorded.is_empty());
    // As the help says, the director deletes BC32-B's draw and draws it again:
    // team 68 is drawn, team 37 is not.
    let drawn_line = text
        .lines()
        .find(|l| l.starts_with("draw = [\"20-61\""))
        .unwrap();
    let again = run_2015_text(&text.replace(&format!("{drawn_line}\n"), ""));
    assert!(!again.diagnostics.has_errors(), "{:?}", codes(&again));
    let bc32_b = again
        .unrecorded
        .iter()
        .find(|d| d.stage.as_deref() == Some("bc32_b"))
        .unwrap();
    let teams: Vec<u32> = bc32_b.pairs.iter().flat_map(|&(h, a)| [h, a]).collect();
    assert!(teams.contains(&68) && !teams.contains(&37), "{teams:?}");
}

#[test]
fn a_late_arrival_recorded_after_a_knockout_tie_breaks_the_draw_made_from_it() {
    let text = std::fs::read_to_string(
        root().join("tests/fixtures/events/tie-turned-by-a-late-arrival.toml"),
    )
    .unwrap();
    let errors = |ran: &bfr::event::Ran| -> Vec<String> {
        let sorted = ran.diagnostics.sorted();
        sorted
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect()
    };
    // Without the incident the recorded draws fit the results.
    let incident =
        "[[incident]]\nteam = 38\nround = 13\nrule = \"late_arrival_qualification(21 min)\"\n";
    assert!(text.contains(incident));
    let before = run_2015_text(&text.replace(incident, ""));
    assert!(errors(&before).is_empty(), "{:?}", errors(&before));
    // With it, team 38 drops below team 47 and loses the tie it won.
    let ran = run_2015_text(&text);
    assert_eq!(
        errors(&ran),
        [
            "team 38 plays in BC32-B, but the draw as recorded leaves it out",
            "team 47 does not play in BC32-B, but the draw as recorded has it",
        ]
    );
    // As the help says: delete BC32-B's draw and draw it again.
    let drawn_line = text
        .lines()
        .find(|l| l.starts_with("draw = [\"31-18\""))
        .unwrap();
    let again = run_2015_text(&text.replace(&format!("{drawn_line}\n"), ""));
    assert!(errors(&again).is_empty(), "{:?}", errors(&again));
    let bc32_b = again
        .unrecorded
        .iter()
        .find(|d| d.stage.as_deref() == Some("bc32_b"))
        .unwrap();
    let teams: Vec<u32> = bc32_b.pairs.iter().flat_map(|&(h, a)| [h, a]).collect();
    assert!(teams.contains(&38) && !teams.contains(&47), "{teams:?}");
}

/// W0724 counts the marked teams past five, and a competition with a late start
/// takes its late starters without a word (SM Lag Veteran's knockout, LV-LATESTART)
/// while a district mark there, with no district prize, is still reported.
#[test]
fn marks_without_effect_are_counted_and_marks_with_one_are_not_reported() {
    let teams = |n: u32, marks: &dyn Fn(u32) -> &'static str| {
        (1..=n)
            .map(|id| format!("{{ id = {id}{} }}", marks(id)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let series = format!(
        "competition = \"lv_series\"\nseed = 1\nteam = [{}]\n",
        teams(8, &|id| if id < 8 { ", late = true" } else { "" })
    );
    let ran = run_2015_text(&series);
    let d = diagnostic_of(&ran, "W0724");
    assert_eq!(
        d.message,
        "teams 1, 2, 3, 4, 5 and 2 more are marked late starters, but SM Lag Veteran has no late start: they play from the first round"
    );
    let knockout = format!(
        "competition = \"lv_ko\"\nseed = 1\nteam = [{}]\n",
        teams(20, &|id| match id {
            3 => ", late = true",
            4 => ", district = true",
            _ => "",
        })
    );
    let ran = run_2015_text(&knockout);
    let warned: Vec<&str> = ran
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "W0724")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        warned,
        [
            "team 4 is marked a district team, but Öppna SM Lag Veteran has no district prize: the mark changes nothing"
        ]
    );
}
