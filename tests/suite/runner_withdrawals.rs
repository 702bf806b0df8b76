//! Withdrawals and absent captains in the Chairman's Cup / Bonus Cup, run from
//! `rules/2015`: a withdrawal among the choosers of BC08-A moves the 5th team up and
//! the last chooser goes through (BC-DRAWS, AMB-7); a withdrawal after the draw is a
//! walkover; an absent CC captain who never arrives gets the team left over
//! (CC-ABSENT); a withdrawal at a CC draw has no rule (AMB-10).

use crate::support::{Change, edition_2015_with, program_2015 as program, stage};
use bfr::cli::render::standing as words;
use bfr::ir::Program;
use bfr::runner::report::{Decided, MatchSeating, Report};
use bfr::runner::simulate::Simulation;
use bfr::runner::{Arrival, Options, RunError, Source, Stop, run};
use rust_decimal::Decimal;
use std::collections::BTreeSet;

fn options() -> Options {
    Options {
        seed: 5,
        scale: Some("wbf20_result".into()),
        ..Options::default()
    }
}

/// A simulation with scripted withdrawals and absences at one stage.
struct Scripted {
    sim: Simulation,
    stage: &'static str,
    at_draw: Vec<u32>,
    after_draw: Vec<u32>,
    absent: Vec<(u32, Arrival)>,
    choices: Option<Vec<(u32, u32)>>,
    /// Withdrawals at the draw of a second stage (CC-WITHDRAW case C).
    later_at_draw: Option<(&'static str, Vec<u32>)>,
}

impl Scripted {
    fn new(stage: &'static str) -> Self {
        Scripted {
            sim: Simulation::new(64, 5),
            stage,
            at_draw: Vec::new(),
            after_draw: Vec::new(),
            absent: Vec::new(),
            choices: None,
            later_at_draw: None,
        }
    }
}

impl Source for Scripted {
    fn qualification_result(
        &mut self,
        r: u32,
        h: u32,
        a: u32,
        b: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        self.sim.qualification_result(r, h, a, b)
    }
    fn choice(&mut self, s: &str, c: u32, cands: &[u32]) -> Option<u32> {
        self.sim.choice(s, c, cands)
    }
    fn knockout_result(
        &mut self,
        s: &str,
        h: u32,
        a: u32,
        b: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        self.sim.knockout_result(s, h, a, b)
    }
    fn segment_picks(
        &mut self,
        s: &str,
        h: u32,
        a: u32,
        allowed: &[(u32, u32)],
    ) -> Option<(u32, u32)> {
        self.sim.segment_picks(s, h, a, allowed)
    }
    fn withdrawn_at_draw(&mut self, s: &str) -> Vec<u32> {
        match &self.later_at_draw {
            Some((stage, teams)) if *stage == s => teams.clone(),
            _ if s == self.stage => self.at_draw.clone(),
            _ => Vec::new(),
        }
    }
    fn withdrawn_after_draw(&mut self, s: &str) -> Vec<u32> {
        if s == self.stage {
            self.after_draw.clone()
        } else {
            Vec::new()
        }
    }
    fn absent_choosers(&mut self, s: &str) -> Vec<(u32, Arrival)> {
        if s == self.stage {
            self.absent.clone()
        } else {
            Vec::new()
        }
    }
    fn choices_in_order(&mut self, s: &str) -> Option<Vec<(u32, u32)>> {
        if s == self.stage {
            self.choices.clone()
        } else {
            None
        }
    }
}

fn standing(r: &Report, team: u32) -> String {
    words(&r.places.iter().find(|l| l.team == team).unwrap().standing)
}

#[test]
fn a_withdrawal_among_the_choosers_moves_the_fifth_up_and_the_last_chooser_goes_through() {
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("bc08_a"))
        .unwrap()
        .report;
    let positions = stage(&plain, "bc08_a").positions.clone();
    assert_eq!(positions.len(), 8);
    let mut source = Scripted::new("bc08_a");
    source.at_draw = vec![positions[0]];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let s = stage(&r, "bc08_a");
    assert_eq!(s.positions, positions, "the same field reached the draw");
    assert_eq!(s.withdrawn, vec![positions[0]]);
    // Teams 2–5 now choose; with three candidates left the last chooser (the team
    // that moved up) has no opponent and goes through (AMB-7).
    let choosers: Vec<u32> = s.choices.iter().map(|(c, _)| *c).collect();
    assert_eq!(choosers, positions[1..3].to_vec());
    assert_eq!(s.matches.len(), 3);
    assert_eq!(s.byes, vec![positions[4]]);
    assert_eq!(standing(&r, positions[0]), "withdrew at BC08-A");
    assert!(stage(&r, "bc08_b").positions.contains(&positions[4]));
}

#[test]
fn a_withdrawal_after_the_draw_is_a_walkover() {
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("bc16_b"))
        .unwrap()
        .report;
    let m = &stage(&plain, "bc16_b").matches[0];
    let mut source = Scripted::new("bc16_b");
    source.after_draw = vec![m.home];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let w = &stage(&r, "bc16_b").matches[0];
    assert_eq!((w.home, w.away), (m.home, m.away));
    assert_eq!(w.winner, m.away);
    assert_eq!(w.decided_by, Decided::Walkover);
}

#[test]
fn an_absent_captain_who_never_arrives_gets_the_team_left_over() {
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("cc16"))
        .unwrap()
        .report;
    let positions = stage(&plain, "cc16").positions.clone();
    let (upper, lower) = positions.split_at(8);
    // The captain of position 1 is absent throughout; 2–8 choose the best team left.
    let mut choices = Vec::new();
    let mut left: Vec<u32> = lower.to_vec();
    for chooser in &upper[1..] {
        choices.push((*chooser, left.remove(0)));
    }
    let leftover = left[0];
    let mut source = Scripted::new("cc16");
    source.absent = vec![(upper[0], Arrival::Never)];
    source.choices = Some(choices);
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let s = stage(&r, "cc16");
    let m = s
        .matches
        .iter()
        .find(|m| m.home == upper[0] || m.away == upper[0])
        .unwrap();
    let opponent = if m.home == upper[0] { m.away } else { m.home };
    assert_eq!(opponent, leftover);
    // Table assignments stay as they were: the absent team keeps table 1.
    assert_eq!(m.table, 1);
}

#[test]
fn a_withdrawal_at_a_cc_draw_has_no_rule() {
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("cc16"))
        .unwrap()
        .report;
    let mut source = Scripted::new("cc16");
    source.at_draw = vec![stage(&plain, "cc16").positions[0]];
    match run(&p, "cup", 64, &options(), &mut source) {
        Err(RunError {
            kind: Stop::NoRule,
            message: m,
            ..
        }) => {
            assert!(m.contains("no rule for a withdrawal at the draw"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

/// The two CC semifinal losers (positions 1–2 of BC04-B) and the two BC04-A winners
/// (positions 3–4) of a plain run.
fn bc04_b_field(p: &Program) -> Vec<u32> {
    let plain = run(p, "cup", 64, &options(), &mut Scripted::new("bc04_b"))
        .unwrap()
        .report;
    stage(&plain, "bc04_b").positions.clone()
}

#[test]
fn case_a_one_cc_team_withdraws_the_bc_teams_play_32_boards_and_the_winner_meets_the_cc_team() {
    let p = program();
    let field = bc04_b_field(&p);
    let (cc1, cc2, bc3, bc4) = (field[0], field[1], field[2], field[3]);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![cc1];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let s = stage(&r, "bc04_b");
    assert_eq!(s.boards, Decimal::from(32));
    assert_eq!(s.matches.len(), 1);
    let m = &s.matches[0];
    assert_eq!(
        [m.home.min(m.away), m.home.max(m.away)],
        [bc3.min(bc4), bc3.max(bc4)]
    );
    let bc_loser = if m.winner == m.home { m.away } else { m.home };
    // The loser shares 5/6 with the CC team that would not play.
    assert_eq!(standing(&r, cc1), "5/6");
    assert_eq!(standing(&r, bc_loser), "5/6");
    // The remaining CC team meets the winner for 3rd/4th.
    let po = stage(&r, "bc_po34");
    let teams: Vec<u32> = po.positions.clone();
    assert!(teams.contains(&cc2) && teams.contains(&m.winner));
    assert_eq!(po.boards, Decimal::from(32));
}

#[test]
fn case_b_neither_cc_team_plays_on_the_bc_teams_meet_over_64_boards() {
    let p = program();
    let field = bc04_b_field(&p);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![field[0], field[1]];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    assert!(
        stage(&r, "bc04_b").matches.is_empty(),
        "BC04-B is not played (AMB-12)"
    );
    let po = stage(&r, "bc_po34");
    assert_eq!(po.boards, Decimal::from(64));
    // A 64-board match is seated by segments (CC-SEATING, AMB-12).
    let seating = po.matches[0].seating.clone();
    assert!(
        matches!(seating, Some(MatchSeating::SegmentRights { .. })),
        "{seating:?}"
    );
    let mut teams = po.positions.clone();
    teams.sort_unstable();
    let mut bc = vec![field[2], field[3]];
    bc.sort_unstable();
    assert_eq!(teams, bc);
    assert_eq!(standing(&r, field[0]), "5/6");
    assert_eq!(standing(&r, field[1]), "5/6");
    let standings: Vec<String> = r.places.iter().map(|l| words(&l.standing)).collect();
    for place in ["1", "2", "3", "4"] {
        assert_eq!(standings.iter().filter(|s| **s == place).count(), 1);
    }
}

/// Case B's play-off at 48 boards, a length the seating rule leaves open
/// (AMB-29): the check warns at `withdrawal_boards` (W0415), and a run that
/// reaches the match stops there (E0718); at 64 (the edition) neither.
#[test]
fn case_b_at_a_length_the_seating_rule_leaves_open_is_warned_of_and_stops_the_run() {
    let unseated = |loaded: &bfr::edition::Loaded| -> Vec<String> {
        loaded
            .diagnostics
            .sorted()
            .iter()
            .filter(|d| d.code == "W0415")
            .map(|d| d.message.clone())
            .collect()
    };
    assert!(unseated(&edition_2015_with(&[])).is_empty());
    let loaded = edition_2015_with(&[Change::Text(
        "chairmans_cup_knockout.bfr",
        "  B => 64 boards,\n  C => 32 boards,",
        "  B => 48 boards,\n  C => 32 boards,",
    )]);
    assert_eq!(
        unseated(&loaded),
        [
            "stage `bc_po34` has no seating rule for a match of 48 boards, the length the late-withdrawal rules put in place of its own: `cc_seating` gives `CcSeating.NoRule`; a run that comes to that match (after a late withdrawal) stops there (E0718)"
        ]
    );
    let p = &loaded.checked.as_ref().expect("a warning only").program;
    let field = bc04_b_field(p);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![field[0], field[1]];
    let Err(stopped) = run(p, "cup", 64, &options(), &mut source) else {
        panic!("a match of 48 boards has no seating rule");
    };
    assert_eq!(stopped.kind, Stop::NoRule);
    assert!(stopped.message.contains("48 boards"), "{}", stopped.message);
}

#[test]
fn case_c_a_bc04_b_winner_withdraws_and_the_team_it_beat_takes_its_place() {
    let p = program();
    let field = bc04_b_field(&p);
    // Case A first, so BC04-B has one match whose winner then withdraws.
    let mut a = Scripted::new("bc04_b");
    a.at_draw = vec![field[0]];
    let first = run(&p, "cup", 64, &options(), &mut a).unwrap().report;
    let m = stage(&first, "bc04_b").matches[0].clone();
    let beaten = if m.winner == m.home { m.away } else { m.home };
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![field[0]];
    source.later_at_draw = Some(("bc_po34", vec![m.winner]));
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    assert_eq!(standing(&r, m.winner), "5/6");
    let po = stage(&r, "bc_po34");
    assert!(
        po.positions.contains(&beaten),
        "the team it beat plays for 3rd/4th"
    );
    assert!(!po.positions.contains(&m.winner));
    let third_fourth: Vec<String> = [beaten, field[1]]
        .iter()
        .map(|t| standing(&r, *t))
        .collect();
    let mut sorted = third_fourth.clone();
    sorted.sort();
    assert_eq!(sorted, vec!["3", "4"]);
}

#[test]
fn case_c_after_case_b_has_no_rule() {
    let p = program();
    let field = bc04_b_field(&p);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![field[0], field[1]];
    source.later_at_draw = Some(("bc_po34", vec![field[2]]));
    match run(&p, "cup", 64, &options(), &mut source) {
        Err(RunError {
            kind: Stop::NoRule,
            message: m,
            ..
        }) => assert!(m.contains("no rule"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn case_c_without_case_a_a_bc04_b_winner_withdraws_and_the_team_it_beat_plays_on() {
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("bc04_b"))
        .unwrap()
        .report;
    let m = stage(&plain, "bc04_b").matches[0].clone();
    let beaten = if m.winner == m.home { m.away } else { m.home };
    let mut source = Scripted::new("bc04_b");
    source.later_at_draw = Some(("bc_po34", vec![m.winner]));
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    assert_eq!(standing(&r, m.winner), "5/6");
    let po = stage(&r, "bc_po34");
    assert!(po.positions.contains(&beaten) && !po.positions.contains(&m.winner));
}

/// The 2015 edition with one exact text change in the readings file.
fn program_with_reading(from: &str, to: &str) -> Program {
    edition_2015_with(&[Change::Text("chairmans_cup_readings.bfr", from, to)])
        .checked
        .unwrap()
        .program
}

#[test]
fn with_tables_in_the_order_of_choices_an_absent_captain_plays_at_the_last_table() {
    // AMB-16: tables by the chooser's position (the edition's reading) or in the
    // order the choices were made. With the first captain absent throughout, the
    // second reading puts it at the last table.
    let p = program_with_reading(
        "= Amb16TableNumbers.ChooserPosition",
        "= Amb16TableNumbers.OrderOfChoices",
    );
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("cc16"))
        .unwrap()
        .report;
    let positions = stage(&plain, "cc16").positions.clone();
    let (upper, lower) = positions.split_at(8);
    let mut left: Vec<u32> = lower.to_vec();
    let choices: Vec<(u32, u32)> = upper[1..].iter().map(|c| (*c, left.remove(0))).collect();
    let mut source = Scripted::new("cc16");
    source.absent = vec![(upper[0], Arrival::Never)];
    source.choices = Some(choices);
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let m = stage(&r, "cc16")
        .matches
        .iter()
        .find(|m| m.home == upper[0] || m.away == upper[0])
        .unwrap()
        .clone();
    assert_eq!(m.table, 8, "the absent team's match was settled last");
}

#[test]
fn a_bc04_a_winner_withdrawing_at_the_bc04_b_draw_leaves_the_choosers_and_the_last_goes_through() {
    // AMB-8 at BC04-B: the withdrawal is among the lower teams (the BC04-A winners),
    // which CC-WITHDRAW does not cover. The CC teams still choose; the first takes
    // the BC team left, the second goes through without a match.
    let p = program();
    let field = bc04_b_field(&p);
    let (cc1, cc2, bc3, bc4) = (field[0], field[1], field[2], field[3]);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![bc3];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let s = stage(&r, "bc04_b");
    assert_eq!(s.positions, field);
    assert_eq!(s.withdrawn, vec![bc3]);
    assert_eq!(s.matches.len(), 1);
    let m = &s.matches[0];
    assert_eq!(
        [m.home.min(m.away), m.home.max(m.away)],
        [cc1.min(bc4), cc1.max(bc4)]
    );
    assert_eq!(s.byes, vec![cc2]);
    assert_eq!(s.boards, Decimal::from(32));
    assert_eq!(standing(&r, bc3), "withdrew at BC04-B");
    let mut po = stage(&r, "bc_po34").positions.clone();
    po.sort_unstable();
    let mut expected = vec![cc2, m.winner];
    expected.sort_unstable();
    assert_eq!(po, expected);
}

#[test]
fn a_cc_team_and_a_bc_team_withdrawing_at_the_bc04_b_draw_has_no_rule() {
    // Case A has "de båda BC-lagen" play each other; with one of them gone too the
    // text has no rule.
    let p = program();
    let field = bc04_b_field(&p);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![field[0], field[3]];
    assert_no_rule(run(&p, "cup", 64, &options(), &mut source));
}

#[test]
fn case_c_for_the_winner_of_a_walkover_has_no_rule() {
    // The team beaten in BC04-B had itself withdrawn after the draw: it cannot take
    // over the place in the play-off, and the text names no one else (AMB-13).
    let p = program();
    let plain = run(&p, "cup", 64, &options(), &mut Scripted::new("bc04_b"))
        .unwrap()
        .report;
    let m = stage(&plain, "bc04_b").matches[0].clone();
    let mut source = Scripted::new("bc04_b");
    source.after_draw = vec![m.home];
    source.later_at_draw = Some(("bc_po34", vec![m.away]));
    assert_no_rule(run(&p, "cup", 64, &options(), &mut source));
}

#[test]
fn the_loser_of_a_bc04_b_walkover_shares_5_6() {
    // "Senare avhopp räknas som walk over", and BC04-B's losers "benämns femte-/
    // sjättepristagare": the team that withdrew after the draw lost a walkover, so it
    // shares 5/6 (bc_walkover_loser_reading).
    let p = program();
    let (m, r) = home_withdraws_after_the_draw(&p, "bc04_b");
    let w = &stage(&r, "bc04_b").matches[0];
    assert_eq!((w.winner, w.decided_by), (m.away, Decided::Walkover));
    assert_eq!(standing(&r, m.home), "5/6");
    let shared = r
        .places
        .iter()
        .filter(|l| words(&l.standing) == "5/6")
        .count();
    assert_eq!(shared, 2);
    // Before the play-off a walkover loser is still out where it withdrew.
    let (m16, r) = home_withdraws_after_the_draw(&p, "bc16_b");
    assert_eq!(standing(&r, m16.home), "withdrew at BC16-B");
}

#[test]
fn read_otherwise_the_loser_of_a_bc04_b_walkover_withdrew_without_a_place() {
    // The other reading of bc_walkover_loser_reading: a walkover is no lost match,
    // so the team that withdrew leaves without a place.
    let p = program_with_reading(
        "= BcWalkoverLoser.SharesLosersPlace",
        "= BcWalkoverLoser.NoPlace",
    );
    let (m, r) = home_withdraws_after_the_draw(&p, "bc04_b");
    assert_eq!(standing(&r, m.home), "withdrew at BC04-B");
    let shared = r
        .places
        .iter()
        .filter(|l| words(&l.standing) == "5/6")
        .count();
    assert_eq!(shared, 1, "only the other BC04-B loser shares 5/6");
}

#[test]
fn absent_captains_in_a_bonus_cup_choice_have_no_rule_unless_cc_absent_is_read_for_the_bc_too() {
    // AMB-19: CC-ABSENT is written for the CC; the edition reads it for the CC only,
    // so an absent captain at the BC08-A choice has no rule. Read for the BC too, the
    // turn passes on and the run asks for the choices in the order made.
    let plain = run(
        &program(),
        "cup",
        64,
        &options(),
        &mut Scripted::new("bc08_a"),
    )
    .unwrap()
    .report;
    let chooser = stage(&plain, "bc08_a").positions[0];
    let absent = |p: &Program| {
        let mut source = Scripted::new("bc08_a");
        source.absent = vec![(chooser, Arrival::Never)];
        run(p, "cup", 64, &options(), &mut source)
    };
    let err = absent(&program()).unwrap_err();
    assert_eq!(err.kind, Stop::NoRule, "{err}");
    let both = program_with_reading("= Amb19AbsentScope.CcOnly", "= Amb19AbsentScope.CcAndBc");
    let outcome = absent(&both).unwrap();
    let next = outcome.pending.map(|p| p.next).unwrap_or_default();
    assert!(next.contains("BC08-A"), "{next}");
}

#[test]
fn read_by_bc04_bs_own_clause_a_cc_teams_withdrawal_moves_the_bc_team_ranked_3_up() {
    // AMB-11: the edition lets CC-WITHDRAW's specific rules win over BC04-B's own
    // clause. Read the other way, the team ranked 3 moves up to choose beside the
    // remaining CC team.
    let p = program_with_reading(
        "= Amb11CcLoserWithdraws.SpecificRule",
        "= Amb11CcLoserWithdraws.StageMoveUp",
    );
    let field = bc04_b_field(&program());
    let (cc1, cc2, bc3) = (field[0], field[1], field[2]);
    let mut source = Scripted::new("bc04_b");
    source.at_draw = vec![cc1];
    let r = run(&p, "cup", 64, &options(), &mut source).unwrap().report;
    let s = stage(&r, "bc04_b");
    assert_eq!(s.withdrawn, vec![cc1]);
    // The remaining CC team chooses the last BC team; the BC team moved up to choose
    // has no one left and goes through (AMB-7). Under case A the two BC teams meet.
    let bc4 = field[3];
    let pairs: Vec<[u32; 2]> = s
        .matches
        .iter()
        .map(|m| [m.home.min(m.away), m.home.max(m.away)])
        .collect();
    assert_eq!(pairs, [[cc2.min(bc4), cc2.max(bc4)]]);
    assert_eq!(s.byes, vec![bc3]);
    assert_eq!(standing(&r, cc1), "withdrew at BC04-B");
}

/// A run that stopped because the document has no rule for what happened.
fn assert_no_rule(result: Result<bfr::runner::Outcome, RunError>) {
    match result {
        Err(RunError {
            kind: Stop::NoRule,
            message: m,
            ..
        }) => assert!(m.contains("no rule"), "{m}"),
        Ok(o) => panic!("the run went on: {:?}", o.pending),
        Err(e) => panic!("{e:?}"),
    }
}

/// The first match of `stage` as drawn, and the run in which its home team
/// withdraws after the draw.
fn home_withdraws_after_the_draw(
    p: &Program,
    stage_name: &'static str,
) -> (bfr::runner::report::KoMatch, Report) {
    let plain = run(p, "cup", 64, &options(), &mut Scripted::new(stage_name))
        .unwrap()
        .report;
    let m = stage(&plain, stage_name).matches[0].clone();
    let mut source = Scripted::new(stage_name);
    source.after_draw = vec![m.home];
    let r = run(p, "cup", 64, &options(), &mut source).unwrap().report;
    (m, r)
}

/// The ranking `team` carries into its first match after `after` (the stage it left).
fn ranking_later(r: &Report, after: &str, team: u32) -> u32 {
    let k = r.stages.iter().position(|s| s.name == after).unwrap();
    r.stages[k + 1..]
        .iter()
        .flat_map(|s| &s.matches)
        .find_map(|m| match team {
            t if t == m.home => Some(m.home_ranking),
            t if t == m.away => Some(m.away_ranking),
            _ => None,
        })
        .expect("the team plays on")
}

#[test]
fn a_walkover_winner_inherits_the_better_ranking_unless_read_otherwise() {
    // AMB-9: a walkover counts as a win, so the winner takes over the withdrawn
    // team's better ranking (the edition); a variant gives no inheritance for it.
    let (m, r) = home_withdraws_after_the_draw(&program(), "bc16_b");
    assert!(
        m.home_ranking < m.away_ranking,
        "the withdrawn home team was better ranked"
    );
    assert_eq!(ranking_later(&r, "bc16_b", m.away), m.home_ranking);
    let variant = program_with_reading(
        "= Amb09WalkoverInheritance.WalkoverInherits",
        "= Amb09WalkoverInheritance.WalkoverDoesNotInherit",
    );
    let (v, r) = home_withdraws_after_the_draw(&variant, "bc16_b");
    assert_eq!(
        (v.home, v.away),
        (m.home, m.away),
        "the same match was drawn"
    );
    assert_eq!(ranking_later(&r, "bc16_b", v.away), v.away_ranking);
}

#[test]
fn leftovers_of_absent_captains_go_by_the_current_ranking_unless_read_as_the_qualification_placement()
 {
    // AMB-18: the absent choosers who never arrive get the teams left over, the best
    // placed the worst placed; "placed" is the current ranking (the edition) or the
    // Gröna Hissen placement. Two CC16 choosers whose inherited rankings order them
    // otherwise than their Gröna Hissen places are absent throughout.
    let leftovers = |p: &Program| -> Vec<(u32, u32)> {
        let plain = run(p, "cup", 64, &options(), &mut Scripted::new("cc16"))
            .unwrap()
            .report;
        let gh: std::collections::BTreeMap<u32, usize> =
            plain.standings.iter().map(|l| (l.team, l.place)).collect();
        let positions = stage(&plain, "cc16").positions.clone();
        let (upper, lower) = positions.split_at(8);
        let (i, j) = (0..8)
            .flat_map(|i| (i + 1..8).map(move |j| (i, j)))
            .find(|&(i, j)| gh[&upper[i]] > gh[&upper[j]])
            .expect("two choosers ranked otherwise than placed");
        let mut left = lower.to_vec();
        let present = upper.iter().enumerate().filter(|(k, _)| *k != i && *k != j);
        let choices: Vec<(u32, u32)> = present.map(|(_, c)| (*c, left.remove(0))).collect();
        let mut source = Scripted::new("cc16");
        source.absent = vec![(upper[i], Arrival::Never), (upper[j], Arrival::Never)];
        source.choices = Some(choices);
        let r = run(p, "cup", 64, &options(), &mut source).unwrap().report;
        [upper[i], upper[j]]
            .iter()
            .map(|absent| {
                let m = stage(&r, "cc16")
                    .matches
                    .iter()
                    .find(|m| m.home == *absent || m.away == *absent)
                    .unwrap();
                (*absent, if m.home == *absent { m.away } else { m.home })
            })
            .collect()
    };
    let by_ranking = leftovers(&program());
    let by_placement = leftovers(&program_with_reading(
        "= Amb18AbsentOrder.CurrentRanking",
        "= Amb18AbsentOrder.QualificationPlacement",
    ));
    // The better-ranked absentee (listed first) gets the worse leftover by ranking;
    // by placement it is the other way round.
    assert_ne!(by_ranking, by_placement);
    let opponents = |v: &[(u32, u32)]| -> BTreeSet<u32> { v.iter().map(|(_, o)| *o).collect() };
    assert_eq!(
        opponents(&by_ranking),
        opponents(&by_placement),
        "the same two teams are left over"
    );
}
