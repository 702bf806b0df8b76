//! A team's competition in an entries file is a competition the edition declares
//! and its `entries` block gives a team role (`cc_team`, `lv_team`): named by its
//! name or title, any case. A variant edition that retitles a competition or points
//! the roles elsewhere changes, by data only, which files are accepted and which
//! questions a team is asked.

use crate::entries::{entries_check, variant};
use crate::support::{TempDir, bfr};

const EDITION: &str = "rules/2015";

/// Players `100..` born in `year`, members, each with `other_events` (a TOML
/// array's inside, or empty), and one team of them entered in `competition`.
fn team_of(competition: &str, year: u32, events: &[&str], extra: &str) -> String {
    let mut text = String::new();
    let mut members = Vec::new();
    for (i, events) in events.iter().enumerate() {
        let member = 100 + i;
        text.push_str(&format!(
            "[[player]]\nmember = {member}\nname = \"P{i}\"\nbirth_year = {year}\nmembership_paid_at = \"2015-06-01 10:00\"\nother_events = [{events}]\n\n"
        ));
        members.push(member.to_string());
    }
    text.push_str(&format!(
        "[[team]]\nid = \"T\"\nname = \"Laget\"\ncompetition = \"{competition}\"\nplayers = [{}]\n{extra}",
        members.join(", ")
    ));
    text
}

/// Four players with no other events.
const FOUR: [&str; 4] = [""; 4];

/// `bfr entries check` against the 2015 edition itself.
fn check_2015(text: &str) -> (i32, String) {
    let dir = TempDir::new("entries-teams-2015");
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, text).unwrap();
    let (code, _, stderr) = bfr(&[
        "entries",
        "check",
        "--color",
        "never",
        EDITION,
        &file.display().to_string(),
    ]);
    (code, stderr)
}

/// The invoice's JSON of `text` against the edition in `dir` (or 2015).
fn invoice(dir: Option<&TempDir>, text: &str) -> serde_json::Value {
    let scratch = TempDir::new("entries-teams-invoice");
    let file = scratch.0.join("entries.toml");
    std::fs::write(&file, text).unwrap();
    let edition = dir.map_or(EDITION.to_string(), |d| d.0.display().to_string());
    let (_, stdout, stderr) = bfr(&[
        "invoice",
        "--format",
        "json",
        &edition,
        &file.display().to_string(),
    ]);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

fn first_item(v: &serde_json::Value) -> String {
    v["money"]["invoices"][0]["lines"][0]["item"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_2015_team_competitions_are_named_by_name_or_title_in_any_case() {
    for written in [
        "Chairman's Cup",
        "cup",
        "CHAIRMAN'S CUP",
        "  Chairman's cup ",
    ] {
        let (code, stderr) = check_2015(&team_of(written, 1960, &FOUR, ""));
        assert_eq!(code, 0, "{written}: {stderr}");
    }
    for written in [
        "SM Lag Veteran",
        "lv_series",
        "Öppna SM Lag Veteran",
        "lv_ko",
        "öppna sm lag veteran",
    ] {
        let (code, stderr) = check_2015(&team_of(written, 1950, &FOUR, ""));
        assert_eq!(code, 0, "{written}: {stderr}");
        // The veterans' questions: a player born 1956 is too young, by the
        // competition's own title.
        let (code, stderr) = check_2015(&team_of(written, 1956, &FOUR, ""));
        assert_eq!(code, 1, "{written}: {stderr}");
        assert!(stderr.contains("[E0812]"), "{written}: {stderr}");
    }
    let v = invoice(None, &team_of("lv_ko", 1950, &FOUR, ""));
    assert_eq!(first_item(&v), "Öppna SM Lag Veteran: qualification");
    // The old labels are refused, with the edition's team competitions listed and
    // the nearest offered.
    let (code, stderr) = check_2015(&team_of("cc", 1960, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`cc` is not a team competition of the edition")
            && stderr.contains("did you mean `Chairman's Cup`?")
            && stderr.contains("`cup` (Chairman's Cup), `lv_series` (SM Lag Veteran), `lv_ko` (Öppna SM Lag Veteran)"),
        "{stderr}"
    );
    // A qualification's title is no competition.
    let (code, stderr) = check_2015(&team_of("Gröna Hissen", 1960, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("[E0801]"), "{stderr}");
}

#[test]
fn a_competition_retitled_in_the_edition_is_named_by_its_new_title() {
    let dir = variant(
        "entries-teams-retitled",
        "chairmans_cup_knockout.bfr",
        "competition cup \"Chairman's Cup\"",
        "competition cup \"Ordförandecupen\"",
    );
    let (code, stderr) = entries_check(&dir, &team_of("Ordförandecupen", 1960, &FOUR, ""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = entries_check(&dir, &team_of("cup", 1960, &FOUR, ""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = entries_check(&dir, &team_of("Chairman's Cup", 1960, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`Chairman's Cup` is not a team competition of the edition")
            && stderr.contains("`cup` (Ordförandecupen)"),
        "{stderr}"
    );
    // The veterans' late start counts players in the knockout of the competition
    // by its new title: "Chairman's Cup" is no event of this edition.
    let late = "late_start = true\n";
    let events = ["\"Ordförandecupen\"", "", "", ""];
    let (code, stderr) = entries_check(&dir, &team_of("SM Lag Veteran", 1950, &events, late));
    assert_eq!(code, 0, "{stderr}");
    let events = ["\"Chairman's Cup\"", "", "", ""];
    let (code, stderr) = entries_check(&dir, &team_of("SM Lag Veteran", 1950, &events, late));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`Chairman's Cup` is not an event entries know")
            && stderr.contains("(`Ordförandecupen`)")
            && stderr.contains("not in the knockout of Ordförandecupen"),
        "{stderr}"
    );
}

#[test]
fn the_team_roles_decide_which_questions_a_team_is_asked() {
    let young = team_of("SM Lag Veteran", 1980, &FOUR, "");
    let (code, stderr) = check_2015(&young);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("born 1980, is too young for SM Lag Veteran"),
        "{stderr}"
    );
    // The series moved to the `cc_team` role: its teams are asked the `cc_…`
    // questions (no birth year limit; the qualification's fee by seniors and
    // juniors, under the series' own title), the knockout's still the veterans'.
    let dir = variant(
        "entries-teams-roles",
        "entries.bfr",
        "  cc_team = cup\n  lv_team = [lv_series, lv_ko]\n",
        "  cc_team = [cup, lv_series]\n  lv_team = lv_ko\n",
    );
    let (code, stderr) = entries_check(&dir, &young);
    assert_eq!(code, 0, "{stderr}");
    let v = invoice(Some(&dir), &young);
    assert_eq!(first_item(&v), "Serie entry fee (4 seniors, 0 juniors)");
    let (code, stderr) = entries_check(&dir, &team_of("Öppna SM Lag Veteran", 1980, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("too young for Öppna SM Lag Veteran"),
        "{stderr}"
    );
    // In 2015 the series is the veterans' and its invoice one team fee.
    let v = invoice(None, &young);
    assert_eq!(first_item(&v), "SM Lag Veteran: qualification");
}

#[test]
fn a_team_role_left_out_is_w0823_at_check_and_e0802_at_the_desk() {
    let dir = variant(
        "entries-teams-no-lv",
        "entries.bfr",
        "  lv_team = [lv_series, lv_ko]\n",
        "",
    );
    let (code, _, stderr) = bfr(&["check", "--color", "never", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("[W0823]") && stderr.contains("`lv_team`"),
        "{stderr}"
    );
    let (code, stderr) = entries_check(&dir, &team_of("Chairman's Cup", 1960, &FOUR, ""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = entries_check(&dir, &team_of("SM Lag Veteran", 1950, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E0802]")
            && stderr.contains(
                "the edition does not say which questions a team entered in SM Lag Veteran is asked"
            )
            && stderr.contains("`lv_team = …`"),
        "{stderr}"
    );
}

#[test]
fn other_events_count_at_both_edges_of_the_late_start() {
    let late = "late_start = true\n";
    // SM Lag Veteran: three or fewer players outside the CC's knockout may start
    // late. One of four in the knockout (by title or name): three outside.
    for listed in ["\"Chairman's Cup\"", "\"cup\""] {
        let events = [listed, "", "", ""];
        let (code, stderr) = check_2015(&team_of("SM Lag Veteran", 1950, &events, late));
        assert_eq!(code, 0, "{listed}: {stderr}");
    }
    let (code, stderr) = check_2015(&team_of("SM Lag Veteran", 1950, &FOUR, late));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("4 of its players are not in the knockout of Chairman's Cup"),
        "{stderr}"
    );
    // The Chairman's Cup: the same count of SM Par Veteran players, the discipline
    // by its label or its name.
    for listed in ["\"SM Par Veteran\"", "\"veteran\""] {
        let events = [listed, "", "", ""];
        let (code, stderr) = check_2015(&team_of("Chairman's Cup", 1950, &events, late));
        assert_eq!(code, 0, "{listed}: {stderr}");
    }
    let (code, stderr) = check_2015(&team_of("Chairman's Cup", 1950, &FOUR, late));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("4 of its players are not in SM Par Veteran"),
        "{stderr}"
    );
    // Another discipline is an event entries know, and counts for neither.
    let events = ["\"Dam\"", "", "", ""];
    let (code, stderr) = check_2015(&team_of("Chairman's Cup", 1950, &events, late));
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("[E0801]"), "{stderr}");
}

#[test]
fn an_amending_edition_gives_a_team_role_other_competitions() {
    let dir = TempDir::new("entries-teams-amends");
    let base = crate::support::root().join(EDITION);
    std::fs::write(
        dir.0.join("edition.bfr"),
        format!(
            "edition \"One veterans' competition\" {{\n  amends \"{}\"\n}}\n\nentries {{\n  lv_team = lv_ko\n}}\n\nfederation {{\n  seeding = sm_seeding\n}}\n",
            base.display()
        ),
    )
    .unwrap();
    let (code, _, stderr) = bfr(&["check", "--color", "never", &dir.0.display().to_string()]);
    assert_eq!(
        code, 0,
        "the base's `lv_team` is replaced, not answered twice: {stderr}"
    );
    let (code, stderr) = entries_check(&dir, &team_of("Öppna SM Lag Veteran", 1950, &FOUR, ""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = entries_check(&dir, &team_of("SM Lag Veteran", 1950, &FOUR, ""));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`SM Lag Veteran` is not a competition teams are entered in")
            && stderr.contains("`cup` (Chairman's Cup), `lv_ko` (Öppna SM Lag Veteran)"),
        "{stderr}"
    );
    // The base itself still takes the series.
    let (code, stderr) = check_2015(&team_of("SM Lag Veteran", 1950, &FOUR, ""));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn the_knockout_fee_is_named_by_the_day_the_edition_starts_the_knockout() {
    let team = "[[player]]\nmember = 1\nname = \"A\"\nmembership_paid_at = \"2014-09-01 10:00\"\n\n[[team]]\nid = \"T\"\nname = \"Laget\"\ncompetition = \"cup\"\nplayers = [1]\nknockout = true\nknockout_fee_paid_at = \"2015-07-27 09:45\"\n";
    let items = |v: &serde_json::Value| -> Vec<String> {
        v["money"]["invoices"][0]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["item"].as_str().unwrap().to_string())
            .collect()
    };
    let lines = items(&invoice(None, team));
    assert!(
        lines.contains(&"entry fee from Monday (knockout)".to_string()),
        "{lines:?}"
    );
    // Every knockout day a day later: the knockout starts on Tuesday.
    let file = "chairmans_cup_knockout.bfr";
    let dir = variant(
        "entries-teams-days",
        file,
        "day = Thu 2015-07-30",
        "day = Fri 2015-07-31",
    );
    let path = dir.0.join(file);
    let mut text = std::fs::read_to_string(&path).unwrap();
    for (from, to) in [
        ("day = Wed 2015-07-29", "day = Thu 2015-07-30"),
        ("day = Tue 2015-07-28", "day = Wed 2015-07-29"),
        ("day = Mon 2015-07-27", "day = Tue 2015-07-28"),
    ] {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    std::fs::write(&path, text).unwrap();
    let lines = items(&invoice(Some(&dir), team));
    assert!(
        lines.contains(&"entry fee from Tuesday (knockout)".to_string())
            && lines.contains(&"surcharge by payment time, from Tuesday".to_string()),
        "{lines:?}"
    );
}
