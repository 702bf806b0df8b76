//! A variant of the 2015 edition changed by data only gives changed answers: no
//! figure of the edition lives in Rust.

use crate::support::{Change, EDITION_2015, bfr, copy_2015, edition_2015_with, root};
use bfr::edition::Loaded;
use bfr::eval::Evaluator;
use bfr::syntax::parse_expr;

/// The 2015 edition's files, with each `(file, from, to)` replacement applied
/// exactly once.
fn edition_with(changes: &[(&str, &str, &str)]) -> Loaded {
    let changes: Vec<Change> = changes
        .iter()
        .map(|(file, from, to)| Change::Text(file, from, to))
        .collect();
    edition_2015_with(&changes)
}

fn eval(loaded: &mut Loaded, expression: &str) -> String {
    let checked = loaded.checked.as_ref().expect("the edition checks");
    let file = loaded.sources.add("<expression>", expression);
    let ast = parse_expr(expression, file).unwrap();
    let expr = checked.check_expr(&ast).unwrap();
    Evaluator::new(&checked.program)
        .eval_closed(&expr)
        .unwrap()
        .show(&checked.program)
}

const FEE: &str = "cc_gh_entry_fee(seniors: 3 players, juniors: 1 player)";
const LATE: &str = "late_arrival_qualification(12 min)";
const ROUNDS: &str = "cup.gh.rounds";
const TRAVEL: &str = "sm_travel_subsidy(District.Skane)";

#[test]
fn changing_data_changes_the_answers() {
    let mut original = edition_with(&[]);
    let mut variant = edition_with(&[
        (
            "chairmans_cup.bfr",
            "cc_gh_fee_senior: SEK/player ref CC-FEE p.14 \"Startavgifter\" = 500 SEK/player",
            "cc_gh_fee_senior: SEK/player ref CC-FEE p.14 \"Startavgifter\" = 600 SEK/player",
        ),
        (
            "chairmans_cup_conduct.bfr",
            "10 min < late <= 15 min => deduct 2 VP",
            "10 min < late <= 15 min => deduct 3 VP",
        ),
        (
            "sm_pairs.bfr",
            "Skane              => 1400 SEK/pair",
            "Skane              => 1500 SEK/pair",
        ),
    ]);
    assert!(!variant.diagnostics.has_errors());
    for (expr, before, after) in [
        (FEE, "1625 SEK", "1925 SEK"),
        (LATE, "deduct 2 VP", "deduct 3 VP"),
        (TRAVEL, "1400 SEK/pair", "1500 SEK/pair"),
    ] {
        assert_eq!(eval(&mut original, expr), before, "{expr} in 2015");
        assert_eq!(eval(&mut variant, expr), after, "{expr} in the variant");
    }
}

#[test]
fn a_variant_competition_structure_is_data_too() {
    let mut original = edition_with(&[]);
    assert_eq!(eval(&mut original, ROUNDS), "13");
    let rounds = std::fs::read_to_string(root().join("rules/2015/chairmans_cup.bfr")).unwrap();
    let line = rounds
        .lines()
        .find(|l| l.starts_with("const cc_gh_rounds"))
        .expect("the rounds are a const")
        .to_string();
    let twelve = line.replace("= 13", "= 12");
    let mut changes = vec![Change::Text("chairmans_cup.bfr", &line, &twelve)];
    changes.extend(crate::runner_variants::sessions_of_twelve_rounds());
    let mut variant = edition_2015_with(&changes);
    assert!(!variant.diagnostics.has_errors());
    assert_eq!(eval(&mut variant, ROUNDS), "12");
}

#[test]
fn filling_a_hole_in_the_document_removes_its_warning() {
    let warns = |l: &Loaded| {
        l.diagnostics
            .sorted()
            .iter()
            .filter(|d| d.code == "W0301" && d.message.contains("lv_format"))
            .count()
    };
    let original = edition_with(&[]);
    assert_eq!(warns(&original), 1);
    let variant = edition_with(&[(
        "sm_lag_veteran.bfr",
        "teams == 10 teams =>",
        "9 teams <= teams <= 10 teams =>",
    )]);
    assert!(!variant.diagnostics.has_errors());
    assert_eq!(warns(&variant), 0);
}

/// Players are a `count` in 2015: a fee for -1 players is refused by name, at
/// the command line as anywhere (E0601); an edition that declares them only
/// `whole` computes it. The unit's declaration is data like any figure.
#[test]
fn a_count_below_zero_is_refused_where_the_edition_declares_a_count() {
    const NEGATIVE: &str = "cc_gh_entry_fee(seniors: -1 players, juniors: 0 players)";
    let (code, out, err) = bfr(&["eval", EDITION_2015, NEGATIVE]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("[E0601]"), "{err}");
    assert!(
        err.contains("`seniors` of `cc_gh_entry_fee` is given -1 player: it is a count (player), a whole number never below zero"),
        "{err}"
    );
    let (code, out, _) = bfr(&[
        "eval",
        EDITION_2015,
        "cc_gh_entry_fee(seniors: 0 players, juniors: 0 players)",
    ]);
    assert_eq!((code, out.trim()), (0, "0 SEK"));
    let dir = copy_2015("variant-player-whole");
    let file = dir.0.join("edition.bfr");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "unit player count alias players",
            "unit player whole alias players",
        ),
    )
    .unwrap();
    let (code, out, err) = bfr(&["eval", dir.0.to_str().unwrap(), NEGATIVE]);
    assert_eq!((code, out.trim()), (0, "-500 SEK"), "{err}");
}

/// A match length the edition computes to half a board is the edition's error,
/// not a field it has no rule for: the run stops with E0714 naming the rule and
/// the value, not E0716 ("run it for a field it has rules for").
#[test]
fn a_run_stops_on_a_count_the_edition_computes_to_a_fraction_as_the_editions_error() {
    let dir = copy_2015("variant-half-board");
    let file = dir.0.join("sm_lag_veteran.bfr");
    let text = std::fs::read_to_string(&file).unwrap();
    let half = text.replace(
        "= lv_format(teams).min_boards\n",
        "= lv_format(teams).min_boards + 1 board / 2\n",
    );
    assert_ne!(half, text);
    std::fs::write(&file, half).unwrap();
    let edition = dir.0.to_str().unwrap();
    let args = [
        "simulate",
        edition,
        "lv_series",
        "--teams",
        "10",
        "--seed",
        "1",
    ];
    let (code, _, err) = bfr(&args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("[E0714]"), "{err}");
    assert!(
        err.contains("`lv_series_boards` gives 10.5 boards: its answer is a count (board)"),
        "{err}"
    );
    assert!(!err.contains("[E0716]"), "{err}");
    // Shown at the competition, with a note at the rule that gives the count.
    assert!(
        err.contains("competition lv_series \"SM Lag Veteran\""),
        "{err}"
    );
    assert!(err.contains("the rule that gives this count"), "{err}");
    assert!(err.contains("fn lv_series_boards(teams: team)"), "{err}");
    // A director's run of the same field: the event's competition, and a note at the rule.
    let teams: Vec<String> = (1..=10).map(|i| format!("{{ id = {i} }}")).collect();
    let event = dir.0.join("event.toml");
    let text = format!(
        "competition = \"lv_series\"\nseed = 1\nteam = [{}]\n",
        teams.join(", ")
    );
    std::fs::write(&event, text).unwrap();
    let (code, _, err) = bfr(&["run", edition, event.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("[E0714]"), "{err}");
    assert!(err.contains("the rule that gives this count"), "{err}");
    assert!(err.contains("fn lv_series_boards(teams: team)"), "{err}");
}
