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

/// The codes of the errors in `text`, the CUP edition with a `board` unit.
fn errors_with_boards(text: &str) -> Vec<&'static str> {
    let text = format!("unit board \"boards\"\n{text}");
    let loaded = load_texts(vec![("t.bfr".into(), text.into_bytes())]);
    let sorted = loaded.diagnostics.sorted();
    sorted
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

#[test]
fn a_count_is_written_one_way_in_a_competitions_stages() {
    assert!(errors_with_boards(CUP).is_empty());
    // The final's boards in `board` beside the defaults' bare 32: E0201.
    let final_in_boards = CUP.replace("    boards = 64\n", "    boards = 64 board\n");
    assert_eq!(errors_with_boards(&final_in_boards), ["E0201"]);
    // All of them in `board`: one way, no error.
    let all_in_boards = final_in_boards.replace("    boards = 32\n", "    boards = 32 board\n");
    assert!(errors_with_boards(&all_in_boards).is_empty());
    // Another competition may count its own way.
    let other = CUP
        .replace("competition cup \"Cup\"", "competition other \"Other\"")
        .replace("    boards = 64\n", "    boards = 64 board\n")
        .replace("    boards = 32\n", "    boards = 32 board\n");
    let other = other.split_once("competition").map(|(_, c)| c).unwrap();
    assert!(errors_with_boards(&format!("{CUP}\ncompetition{other}")).is_empty());
}

#[test]
fn a_qualification_counts_its_own_way_beside_its_stages() {
    let fixture = include_str!("../../tests/fixtures/events/edition.bfr");
    let errors = |text: &str| {
        let loaded = load_texts(vec![("t.bfr".into(), text.as_bytes().to_vec())]);
        let sorted = loaded.diagnostics.sorted();
        let codes: Vec<&str> = sorted
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        codes
    };
    assert!(errors(fixture).is_empty());
    // The qualification's boards in `board`, the stages' bare: each is one way.
    let written = "    rounds = 3\n    boards = 8\n";
    assert!(fixture.contains(written));
    let in_boards = fixture.replace(written, "    rounds = 3\n    boards = 8 board\n");
    assert!(errors(&in_boards).is_empty());
    // One stage in `board` beside its bare siblings is not. It is the first
    // stage, but the two after it agree: the one apart is told, once.
    let stage = "    teams = 4\n    boards = 16\n";
    assert!(fixture.contains(stage));
    let one_stage = fixture.replace(stage, "    teams = 4\n    boards = 16 board\n");
    assert_eq!(errors(&one_stage), ["E0201"]);
}

#[test]
fn the_property_table_names_the_meanings_typing_reads() {
    use crate::check::vocabulary::{Scope, Want, property};
    use crate::ir::vocabulary as v;
    use crate::ir::vocabulary::Meaning;
    let read: [(&str, Scope, &str); 27] = [
        ("equal_rankings", Scope::Competition, v::EqualRankings::WHAT),
        ("inheritance", Scope::Competition, v::Inheritance::WHAT),
        (
            "walkover_inheritance",
            Scope::Competition,
            v::WalkoverInheritance::WHAT,
        ),
        ("knockout_tie", Scope::Competition, v::KnockoutTie::WHAT),
        ("table_numbers", Scope::Competition, v::TableNumbering::WHAT),
        (
            "inheritance_scope",
            Scope::Competition,
            v::InheritanceScope::WHAT,
        ),
        (
            "absent_leftovers",
            Scope::Competition,
            v::LeftoverPlacement::WHAT,
        ),
        ("late_chooser", Scope::Competition, v::LateChooser::WHAT),
        (
            "chooser_without_opponent",
            Scope::Competition,
            v::ChooserWithoutOpponent::WHAT,
        ),
        (
            "lower_withdrawal",
            Scope::Competition,
            v::LowerWithdrawal::WHAT,
        ),
        ("walkover_loser", Scope::Competition, v::WalkoverLoser::WHAT),
        ("lower_places", Scope::Competition, v::LowerPlaces::WHAT),
        ("format", Scope::Qualification, v::QualificationFormat::WHAT),
        ("first_round", Scope::Qualification, v::FirstRound::WHAT),
        ("home", Scope::Qualification, v::HomeTeam::WHAT),
        ("pairing", Scope::Qualification, v::Pairing::WHAT),
        ("bye", Scope::Qualification, v::Bye::WHAT),
        (
            "swiss_points",
            Scope::Qualification,
            v::SwissPointsBasis::WHAT,
        ),
        (
            "imp_quotient",
            Scope::Qualification,
            v::ImpQuotientEdges::WHAT,
        ),
        ("draw", Scope::Stage, v::DrawMethod::WHAT),
        ("tie_break", Scope::Stage, v::KnockoutCriterion::WHAT),
        ("home", Scope::Stage, v::HomeTeam::WHAT),
        ("absent_captains", Scope::Stage, v::AbsentCaptains::WHAT),
        ("positions", Scope::Stage, v::PositionsBy::WHAT),
        ("late_withdrawal", Scope::Stage, v::LateWithdrawal::WHAT),
        ("seating", Scope::Stage, v::SeatingMethod::WHAT),
        ("tie_break", Scope::Qualification, "criteria"),
    ];
    for (key, scope, what) in read {
        let want = property(key, scope).map(|p| p.want);
        let expected = match want {
            Some(Want::Meaning(name) | Want::MeaningOrRule(name)) => name,
            Some(Want::Criteria) => "criteria",
            other => panic!("`{key}`: {other:?}"),
        };
        assert_eq!(expected, what, "`{key}` in {scope:?}");
    }
}

#[test]
fn a_list_ends_at_its_bracket_not_at_the_comment_after_it() {
    let text = r#"
enum Crit ref T-1 { VictoryPoints, Points }
competition league "League" ref T-1 {
  qualification q "Q" ref T-1 {
    rounds = 3
    boards = 8
    tie_break = [Crit.VictoryPoints, Crit.Points] // not a criterion ]
    rest -> out
  }
}
"#;
    let loaded = load_texts(vec![("t.bfr".into(), text.as_bytes().to_vec())]);
    let d = loaded.diagnostics.sorted();
    let e = d.iter().find(|d| d.code == "E0408").unwrap();
    let written = "[Crit.VictoryPoints, Crit.Points]";
    let start = text.find(written).unwrap();
    assert_eq!(
        (e.span.start as usize, e.span.end as usize),
        (start, start + written.len())
    );
}

/// W0414 at each edge of a competition's days: its first and last day are its
/// own, the day before and the day after are not; a qualification of several
/// days may not run past the last.
#[test]
fn a_stage_is_played_within_its_competitions_days() {
    let fixture = include_str!("../../tests/fixtures/events/edition.bfr");
    let header = "competition mini \"Mini Cup\" ref CC-PHASES p.14 \"Chairman's Cup\" {\n";
    let qualification = "    rounds = 3\n";
    let stage = "    teams = 4\n";
    assert!(fixture.contains(header) && fixture.contains(qualification));
    assert_eq!(fixture.matches(stage).count(), 1, "one stage of four teams");
    let dated = |days: &str, stage_day: &str| {
        let text = fixture
            .replace(
                header,
                &format!("{header}  first_day = 2015-07-28\n  last_day = 2015-07-30\n"),
            )
            .replace(qualification, &format!("{qualification}{days}"))
            .replace(stage, &format!("{stage}{stage_day}"));
        let loaded = load_texts(vec![("t.bfr".into(), text.into_bytes())]);
        let sorted = loaded.diagnostics.sorted();
        assert!(!loaded.diagnostics.has_errors(), "{sorted:?}");
        let warned: Vec<String> = sorted
            .iter()
            .filter(|d| d.code == "W0414")
            .map(|d| d.message.clone())
            .collect();
        warned
    };
    let first = "    first_day = 2015-07-28\n";
    let last = "    day = 2015-07-30\n";
    assert!(dated(first, last).is_empty());
    let within = ", outside the days of its competition `mini`, Tue 2015-07-28 .. Thu 2015-07-30";
    assert_eq!(
        // The qualification undated: nothing is played before the semifinal.
        dated("", "    day = 2015-07-27\n"),
        [format!("`sf` is played on Mon 2015-07-27{within}")]
    );
    assert_eq!(
        dated(first, "    day = 2015-07-31\n"),
        [format!("`sf` is played on Fri 2015-07-31{within}")]
    );
    // Over two days ending on the last: within; ending the day after: not.
    assert!(
        dated(
            "    first_day = 2015-07-29\n    last_day = 2015-07-30\n",
            last
        )
        .is_empty()
    );
    assert_eq!(
        dated(
            "    first_day = 2015-07-30\n    last_day = 2015-07-31\n",
            last
        ),
        [format!("`q` is played on Fri 2015-07-31{within}")]
    );
}

/// A key of two other kinds of block names both; a day under another block's
/// key is told the key its own block dates itself with.
#[test]
fn a_key_of_other_blocks_names_every_block_it_belongs_to() {
    // The first E0105 of CUP with `from` replaced by `to`: its message and help.
    let e0105 = |from: &str, to: &str| {
        let loaded = load_texts(vec![("t.bfr".into(), CUP.replace(from, to).into_bytes())]);
        let sorted = loaded.diagnostics.sorted();
        let d = sorted.iter().find(|d| d.code == "E0105").expect("E0105");
        (d.message.clone(), d.help.clone().unwrap_or_default())
    };
    assert_eq!(
        e0105("    order = 2\n", "    order = 2\n    last_day = 2015-07-30\n"),
        (
            "`last_day` is a property of a competition or a qualification, not of a knockout stage".to_string(),
            "a knockout stage is played on one `day` (`day = Mon 2015-07-27`); `first_day` and `last_day` date a competition or a qualification".to_string()
        )
    );
    // `day` in a competition: the help names the keys that date it.
    let header = "competition cup \"Cup\" ref T-1 {\n";
    assert_eq!(
        e0105(header, &format!("{header}  day = 2015-07-28\n")),
        (
            "`day` is a property of a knockout stage, not of a competition".to_string(),
            "a competition's days are `first_day` and `last_day`; `day` dates a knockout stage"
                .to_string()
        )
    );
}

/// Stages `names`, each taking the defaults' `boards = 32` or writing its own
/// (`Some`), in one competition.
fn stages_with_boards(stages: &[(&str, Option<&str>)]) -> String {
    let mut text = String::from(
        "unit board whole alias boards\nenum Draw ref T-1 { Fixed }\ncompetition cup \"Cup\" ref T-1 {\n  stages {\n    boards = 32\n    draw = Draw.Fixed\n  }\n",
    );
    for (i, (name, boards)) in stages.iter().enumerate() {
        let next = stages
            .get(i + 1)
            .map_or("place 1".to_string(), |(n, _)| (*n).to_string());
        let own = boards.map_or(String::new(), |b| format!("    boards = {b}\n"));
        text.push_str(&format!(
            "  stage {name} \"{name}\" ref T-1 {{\n{own}    winners -> {next}\n    losers -> out\n  }}\n"
        ));
    }
    text.push_str("}\n");
    text
}

/// The E0201 messages of `text`.
fn count_errors(text: &str) -> Vec<String> {
    let loaded = load_texts(vec![("t.bfr".into(), text.as_bytes().to_vec())]);
    loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "E0201")
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn defaults_count_for_each_stage_that_takes_them_and_a_tie_goes_to_the_first() {
    // Two stages take the defaults' bare 32, two write `board`: as common,
    // and the defaults come first.
    let tied = stages_with_boards(&[
        ("r16", None),
        ("qf", None),
        ("sf", Some("64 board")),
        ("f", Some("64 board")),
    ]);
    let rest = ": a property is written the same way in every knockout stage of a competition";
    let where_first =
        format!("`boards` is in `board` here, but a bare number where first given{rest}");
    assert_eq!(count_errors(&tied), [where_first.clone(), where_first]);
    // Three take the defaults: the two in `board` are the stages apart.
    let most = stages_with_boards(&[
        ("r32", None),
        ("r16", None),
        ("qf", None),
        ("sf", Some("64 board")),
        ("f", Some("64 board")),
    ]);
    let apart =
        format!("`boards` is in `board` here, but a bare number in 3 of the 5 stages{rest}");
    assert_eq!(count_errors(&most), [apart.clone(), apart]);
    // One takes them, three write `board`: the defaults are apart.
    let few = stages_with_boards(&[
        ("r16", None),
        ("qf", Some("32 board")),
        ("sf", Some("64 board")),
        ("f", Some("64 board")),
    ]);
    assert_eq!(
        count_errors(&few),
        [format!(
            "`boards` is a bare number here, but in `board` in 3 of the 4 stages{rest}"
        )]
    );
}
