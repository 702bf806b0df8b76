//! Pages for the noticeboard (`--format html`): the page is loaded in headless
//! Chromium and the text it shows is compared with the run's own data (its
//! JSON): the standings in order, the next draw's tables, every knockout match,
//! the final ranking. Snapshots of the HTML itself keep changes reviewed.
//!
//! Without Chromium these tests skip with a message, unless `CI` is set: then a
//! missing Chromium fails them (`.ci/run` installs it).

use crate::support::{TempDir, bfr, bfr_output, chromium, root, shown_text};
use serde_json::Value;

// ── expectations from the run's JSON ────────────────────────────────────────────

/// A JSON quantity as the page writes it: `46.5`, `46`.
fn num(v: &Value) -> String {
    let f = v.as_f64().expect("a number");
    if f.fract() == 0.0 {
        format!("{f:.0}")
    } else {
        f.to_string()
    }
}

/// The standings' header as the page shows it: the Swiss points column is
/// headed by the edition's label for them, which the report names.
fn standings_header(report: &Value) -> String {
    let sp = report["units"]["swiss_points"].as_str().expect("a label");
    format!("Place Team VP {sp} IMP+ IMP- Decided by")
}

/// The index of line `line` in `shown`, which must be there.
fn line_at(shown: &[String], line: &str) -> usize {
    shown.iter().position(|l| l == line).unwrap_or_else(|| {
        panic!(
            "the page does not show the line {line:?}:\n{}",
            shown.join("\n")
        )
    })
}

/// `expected` appear in `shown` as consecutive lines right after line `after`.
fn rows_follow(shown: &[String], after: &str, expected: &[String]) {
    let at = line_at(shown, after) + 1;
    let got = shown.get(at..at + expected.len()).unwrap_or(&[]);
    assert_eq!(got, expected, "the lines after {after:?}");
}

/// The standings rows of a report, in order: place, team, VP, SP, IMP+, IMP-,
/// and the criterion that decided a tie.
fn standings_rows(report: &Value, name: &dyn Fn(u64) -> String) -> Vec<String> {
    let rows: Vec<String> = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let mut row = format!(
                "{} {} {} {} {} {}",
                l["place"],
                name(l["team"].as_u64().unwrap()),
                num(&l["vp"]),
                num(&l["swiss_points"]),
                num(&l["imps_won"]),
                num(&l["imps_lost"])
            );
            if let Some(c) = l["decided_by"].as_str() {
                // In the edition's words where its chain labels the criterion.
                let labels = report["units"]["criteria"].as_array().unwrap();
                let label = labels.iter().find(|e| e[0] == c).map(|e| &e[1]);
                row = format!("{row} {}", label.and_then(Value::as_str).unwrap_or(c));
            }
            row
        })
        .collect();
    assert!(!rows.is_empty(), "the report has standings");
    rows
}

/// A final standing in words, from its JSON.
fn standing(s: &Value) -> String {
    if let Some(p) = s.get("place") {
        if p["first"] == p["last"] {
            p["first"].to_string()
        } else {
            format!("{}/{}", p["first"], p["last"])
        }
    } else if let Some(e) = s.get("out") {
        format!("out at {}", e["title"].as_str().unwrap())
    } else {
        format!("withdrew at {}", s["withdrew"]["title"].as_str().unwrap())
    }
}

/// The final ranking's rows, in order.
fn ranking_rows(report: &Value, name: &dyn Fn(u64) -> String) -> Vec<String> {
    report["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let team = name(l["team"].as_u64().unwrap());
            let rank = &l["rank"];
            if rank.is_null() {
                return format!("{} {team}", standing(&l["standing"]));
            }
            let place = if rank["first"] == rank["last"] {
                rank["first"].to_string()
            } else {
                format!("{}/{}", rank["first"], rank["last"])
            };
            if l["standing"].get("place").is_some() {
                format!("{place} {team}")
            } else {
                format!("{place} {team} {}", standing(&l["standing"]))
            }
        })
        .collect()
}

/// Every knockout stage shows its heading and each match: table, teams with
/// their rankings, the IMPs, the winner and how it was decided.
fn stages_shown(shown: &[String], report: &Value, name: &dyn Fn(u64) -> String) {
    let stages = report["stages"].as_array().unwrap();
    assert!(!stages.is_empty(), "the report has knockout stages");
    for s in stages {
        let heading = format!(
            "{}. {} ({})",
            s["order"],
            s["title"].as_str().unwrap(),
            s["name"].as_str().unwrap()
        );
        let from = line_at(shown, &heading);
        for m in s["matches"].as_array().unwrap() {
            // A tie in IMPs says which placement broke it.
            let tie = &m["tie_break"];
            let decided = match tie["by"].as_str() {
                Some(by) => format!(
                    "{}: {} {} before {}",
                    m["decided_by"].as_str().unwrap(),
                    if by == "ranking" {
                        "ranking"
                    } else {
                        "qualification place"
                    },
                    tie["winner"],
                    tie["loser"]
                ),
                None => m["decided_by"].as_str().unwrap().to_string(),
            };
            let row = format!(
                "{} {} ({}) {} – {} {} ({}) {} {}",
                m["table"],
                name(m["home"].as_u64().unwrap()),
                m["home_ranking"],
                num(&m["home_imps"]),
                num(&m["away_imps"]),
                name(m["away"].as_u64().unwrap()),
                m["away_ranking"],
                name(m["winner"].as_u64().unwrap()),
                decided
            );
            // The row may go on with the seating.
            assert!(
                shown[from..]
                    .iter()
                    .any(|l| l == &row || l.starts_with(&format!("{row} "))),
                "stage {heading}: no row {row:?}"
            );
        }
    }
}

/// What any page must be: self-contained (nothing fetched), no script, UTF-8
/// declared before anything else.
fn self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    let head = &html[..html.find("<title>").unwrap()];
    assert!(head.contains("<meta charset=\"utf-8\">"), "{head}");
    for external in [
        "http:", "https:", "src=", "<link", "<script", "url(", "@import",
    ] {
        assert!(!html.contains(external), "the page refers to `{external}`");
    }
}

/// The run's JSON and its page: (json, html, exit code of the page's run).
fn run_both(args: &[&str]) -> (Value, String, i32) {
    let json = bfr_output(&[&["--format", "json"], args].concat());
    let json: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let (code, html, _) = bfr(&[&["--format", "html"], args].concat());
    self_contained(&html);
    (json, html, code)
}

/// Team names from the JSON of an event run.
fn names(json: &Value) -> impl Fn(u64) -> String + use<> {
    let names: std::collections::BTreeMap<u64, String> = json["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["id"].as_u64().unwrap(),
                t["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    move |t| names[&t].clone()
}

/// The HTML with a line break before each block element, so that its snapshot
/// can be read and reviewed. The page's text never holds a `<` (it is escaped),
/// so every `<` starts a tag.
fn for_review(html: &str) -> String {
    let mut out = html.to_string();
    for tag in [
        "<head", "<meta", "<title", "<style", "<body", "<header", "<section", "<h1", "<h2", "<h3",
        "<p", "<table", "<thead", "<tbody", "<tr", "<ul", "<li", "</body", "</html",
    ] {
        out = out.replace(tag, &format!("\n{tag}"));
    }
    out
}

// ── the tests ───────────────────────────────────────────────────────────────────

const TWENTY: &str = "tests/fixtures/twenty";

#[test]
fn a_page_after_round_3_shows_the_standings_and_the_next_draw_as_run() {
    let (json, html, code) = run_both(&["run", TWENTY, "tests/fixtures/twenty/after-round-3.toml"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("twenty_after_round_3", for_review(&html));
    let Some(chromium) = chromium() else { return };
    let shown = shown_text(&chromium, &html);
    let name = names(&json);
    let report = &json["report"];
    // Not final, and says so before anything else.
    assert_eq!(
        shown[2],
        "IN PROGRESS Not final: waiting for the results of Qualification round 4."
    );
    rows_follow(
        &shown,
        &standings_header(report),
        &standings_rows(report, &name),
    );
    assert!(shown.contains(&"Standings after round 3 of 4 (not final)".to_string()));
    // The next round's draw, table by table.
    let next = &json["next"];
    let draw: Vec<String> = next["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let (h, a) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
            format!(
                "{} {} ({h}) {} ({a}) result needed",
                m["table"],
                name(h),
                name(a)
            )
        })
        .collect();
    assert_eq!(draw.len(), 10);
    let heading = format!("Next: {}", next["title"].as_str().unwrap());
    let at = line_at(&shown, &heading);
    assert_eq!(shown[at + 1], "The draw as recorded in the event file.");
    rows_follow(&shown, &shown[at + 2].clone(), &draw);
    assert_eq!(shown[at + 2], "Table Home Away Result");
    line_at(
        &shown,
        "Not decided yet: the final ranking is made when the competition is over.",
    );
    // Every round played, as played.
    for round in report["rounds"].as_array().unwrap() {
        line_at(&shown, &format!("Round {}", round["round"]));
    }
    // å, ä and ö as written: the page's charset was read.
    assert!(shown.iter().any(|l| l.contains("Jämtland")));
    assert!(
        !shown
            .iter()
            .any(|l| l.contains('\u{FFFD}') || l.contains('Ã'))
    );
}

#[test]
fn a_complete_event_page_shows_the_knockout_and_the_final_ranking() {
    let (json, html, code) = run_both(&[
        "run",
        "tests/fixtures/events",
        "tests/fixtures/events/full.toml",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("full_event", for_review(&html));
    let Some(chromium) = chromium() else { return };
    let shown = shown_text(&chromium, &html);
    let name = names(&json);
    let report = &json["report"];
    assert_eq!(shown[2], "FINAL The competition is complete.");
    rows_follow(
        &shown,
        &standings_header(report),
        &standings_rows(report, &name),
    );
    stages_shown(&shown, report, &name);
    let ranking = ranking_rows(report, &name);
    assert_eq!(ranking.len(), 8);
    rows_follow(&shown, "Place Team", &ranking);
}

#[test]
fn a_simulated_cup_page_shows_every_stage_and_the_final_ranking() {
    let args = [
        "simulate",
        "rules/2015",
        "cup",
        "--teams",
        "64",
        "--seed",
        "7",
    ];
    let (json, html, code) = run_both(&args);
    assert_eq!(code, 0);
    let Some(chromium) = chromium() else { return };
    let shown = shown_text(&chromium, &html);
    let name = |t: u64| format!("Team {t}");
    let report = &json["report"];
    assert_eq!(shown[0], "Chairman's Cup");
    assert_eq!(shown[2], "FINAL The competition is complete.");
    let rounds = report["rounds"].as_array().unwrap().len();
    line_at(
        &shown,
        &format!("Qualification: final standings after {rounds} rounds"),
    );
    rows_follow(
        &shown,
        &standings_header(report),
        &standings_rows(report, &name),
    );
    stages_shown(&shown, report, &name);
    let ranking = ranking_rows(report, &name);
    assert_eq!(ranking.len(), 64);
    rows_follow(&shown, "Place Team Left at", &ranking);
}

#[test]
fn a_stopped_run_page_says_it_stopped_and_shows_what_came_before() {
    let event = "tests/cases/runs/twenty-withdrawal-no-rule/event.toml";
    let (json, html, code) = run_both(&["run", TWENTY, event]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("twenty_stopped", for_review(&html));
    assert!(
        !html.contains("complete"),
        "a stopped page never says complete"
    );
    let Some(chromium) = chromium() else { return };
    let shown = shown_text(&chromium, &html);
    assert!(
        shown[2].starts_with("STOPPED Not final: the rules cannot run this event [E0718]"),
        "{}",
        shown[2]
    );
    // Everything before the stop stands.
    rows_follow(
        &shown,
        &standings_header(&json["report"]),
        &standings_rows(&json["report"], &names(&json)),
    );
    line_at(
        &shown,
        "Not decided yet: the final ranking is made when the competition is over.",
    );
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("error [E0718]: the rules cannot run this event"))
    );
}

#[test]
fn names_and_notes_are_escaped_and_shown_as_written() {
    let dir = TempDir::new("noticeboard-escape");
    let text = std::fs::read_to_string(root().join("tests/fixtures/twenty/after-round-3.toml"))
        .unwrap()
        .replace("\"Medelpad\"", "\"<b>Medelpad</b> & Co\"")
        .replace(
            "\"Gävle\"",
            "\"Gävle \\\"GBK\\\" </table><script>x</script>\"",
        );
    let event = dir.0.join("event.toml");
    std::fs::write(&event, text).unwrap();
    let event = event.display().to_string();
    let (code, html, _) = bfr(&["--format", "html", "run", TWENTY, &event]);
    assert_eq!(code, 0);
    self_contained(&html);
    assert!(
        html.contains("&lt;b&gt;Medelpad&lt;/b&gt; &amp; Co"),
        "{html}"
    );
    let Some(chromium) = chromium() else { return };
    let shown = shown_text(&chromium, &html);
    assert!(shown.iter().any(|l| l.contains("<b>Medelpad</b> & Co")));
    assert!(
        shown
            .iter()
            .any(|l| l.contains("Gävle \"GBK\" </table><script>x</script>"))
    );
}

#[test]
fn html_is_for_run_and_simulate_only() {
    let (code, out, err) = bfr(&["--format", "html", "check", "rules/2015"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("`--format html` is for `bfr run` and `bfr simulate`"),
        "{err}"
    );
}

/// `--format csv` on a command that prints pages names every format it takes.
#[test]
fn csv_refused_for_run_and_simulate_names_html_too() {
    let (code, out, err) = bfr(&[
        "--format",
        "csv",
        "simulate",
        "rules/2015",
        "cup",
        "--teams",
        "8",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("use text, json or html here"), "{err}");
    let (code, _, err) = bfr(&["--format", "csv", "check", "rules/2015"]);
    assert_eq!(code, 2);
    assert!(err.contains("use text or json here"), "{err}");
}

#[test]
fn a_draw_not_yet_recorded_is_marked_as_one_that_could_still_change() {
    let dir = TempDir::new("noticeboard-unrecorded");
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/twenty/after-round-3.toml")).unwrap();
    let cut = text
        .rfind("[[round]]\nnumber = 4")
        .expect("round 4's draw is recorded");
    let event = dir.0.join("event.toml");
    std::fs::write(&event, &text[..cut]).unwrap();
    let event = event.display().to_string();
    let (json, html, code) = run_both(&["run", TWENTY, &event]);
    assert_eq!(code, 0);
    // The run draws round 4 as it was recorded; the page says it is not recorded.
    let draw = |m: &Value| format!("{}-{}", m["home"], m["away"]);
    let pairs: Vec<String> = json["next"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(draw)
        .collect();
    assert_eq!(
        pairs.join(" "),
        "6-4 9-5 3-7 11-10 12-17 1-14 20-8 15-18 2-13 19-16"
    );
    let note = "Drawn by this run and not yet recorded in the event file (`bfr run --write-draw`): \
                a correction of an earlier result could still change it.";
    assert!(html.contains(note), "{html}");
    assert!(!html.contains("The draw as recorded in the event file."));
}

#[test]
fn a_file_that_cannot_be_run_gives_a_page_that_says_so_and_no_report() {
    let (code, html, err) = bfr(&[
        "--format",
        "html",
        "run",
        TWENTY,
        "tests/cases/events/E0700-not-toml.toml",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("[E0700]"), "{err}");
    self_contained(&html);
    assert!(html.contains("<title>No report: the event file cannot be run</title>"));
    assert!(html.contains("<span class=\"tag\">Stopped</span>"));
    assert!(html.contains("<strong>error [E0700]</strong>"), "{html}");
    assert!(!html.contains("Standings") && !html.contains("complete"));
}
