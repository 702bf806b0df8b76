//! Tests for `typing`.

use crate::edition::load_texts;
use crate::ir::vocabulary::{DrawMethod, HomeTeam};

const CUP: &str = r#"
enum Draw ref T-1 { Choice, Brackets, Fixed }
enum Home ref T-1 { BetterRanking, UpperPosition }
competition cup "Cup" ref T-1 {
  stages {
    boards = 32
    draw = Draw.Brackets
    home = Home.UpperPosition
  }
  stage semi "Semi" ref T-1 {
    order = 1
    teams = 4
    draw = Draw.Choice
    winners -> final
    losers -> out
  }
  stage final "Final" ref T-1 {
    order = 2
    teams = 2
    boards = 64
    draw = Draw.Fixed
    home = Home.BetterRanking
    winners -> place 1
    losers -> place 2
  }
}
"#;

#[test]
fn a_stage_takes_the_defaults_it_does_not_set_and_keeps_its_own() {
    let loaded = load_texts(vec![("t.bfr".into(), CUP.as_bytes().to_vec())]);
    assert!(
        !loaded.diagnostics.has_errors(),
        "{:?}",
        loaded.diagnostics.sorted()
    );
    let program = loaded.checked.map(|c| c.program).unwrap_or_default();
    let cup = program
        .competitions
        .first()
        .map(|c| c.stages.clone())
        .unwrap_or_default();
    let got: Vec<(String, String, DrawMethod, HomeTeam)> = cup
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                format!("{:?}", s.boards),
                s.draw.meaning,
                s.home.meaning,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "semi".into(),
                "Fixed(32)".into(),
                DrawMethod::Choice,
                HomeTeam::UpperPosition
            ),
            (
                "final".into(),
                "Fixed(64)".into(),
                DrawMethod::Fixed,
                HomeTeam::BetterRanking
            ),
        ]
    );
}

#[test]
fn a_default_bfr_does_not_know_is_reported_once() {
    let text = CUP.replace(
        "    home = Home.UpperPosition\n",
        "    hoem = Home.UpperPosition\n",
    );
    let loaded = load_texts(vec![("t.bfr".into(), text.into_bytes())]);
    let codes: Vec<&str> = loaded.diagnostics.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0105"]);
}
