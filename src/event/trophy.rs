//! Line-ups and challenge-trophy points (CC-TROPHY): who played how many boards in
//! each knockout match, checked against the match, and each player's points from
//! the edition's own rule (`trophy_player_points`) over the team's last matches
//! (`trophy_matches`).

use super::model::{Event, Lineup};
use crate::diag::{Diagnostic, Diagnostics, counted};
use crate::eval::{Evaluator, Prepared};
use crate::ir::{Program, Type, Unit, Value};
use crate::runner::plan::Plan;
use crate::runner::report::{Decided, KoStage, PlayerTrophy, Report};
use crate::source::Span;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;

/// Line-ups that passed their checks, by (stage name, team): each player's boards.
type Played<'e> = BTreeMap<(&'e str, u32), &'e Lineup>;

/// Checks every line-up of a stage the run played against its match (E0725–E0727)
/// and, once teams have final places, adds each player's trophy points to `report`.
pub fn apply(
    program: &Program,
    prepared: &Prepared,
    plan: &Plan,
    event: &Event,
    report: &mut Report,
) -> Diagnostics {
    let mut diags = Diagnostics::default();
    let played = checked_lineups(plan, event, report, &mut diags);
    if let (Some(rule), Some(last)) = (plan.trophy_player_points, plan.trophy_matches) {
        let mut ev = Evaluator::prepared(program, prepared);
        points(&mut ev, rule, last, event, &played, report, &mut diags);
    }
    diags
}

/// The line-ups of the stages played, each checked against its match.
fn checked_lineups<'e>(
    plan: &Plan,
    event: &'e Event,
    report: &Report,
    diags: &mut Diagnostics,
) -> Played<'e> {
    let mut out = Played::new();
    for entry in &event.stages {
        let Some(stage) = report.stages.iter().find(|s| s.name == entry.name) else {
            continue;
        };
        let boards = stage.boards.to_u32().unwrap_or(u32::MAX);
        for lineup in &entry.lineups {
            if check(plan, stage, boards, lineup, diags) {
                out.insert((entry.name.as_str(), lineup.team), lineup);
            }
        }
    }
    out
}

/// Whether `lineup` fits its match: the team played one in the stage, no player
/// played more boards than the match has, and the boards in all fit the seats.
fn check(
    plan: &Plan,
    stage: &KoStage,
    boards: u32,
    lineup: &Lineup,
    diags: &mut Diagnostics,
) -> bool {
    let team = lineup.team;
    if played_in(stage, team).is_none() {
        diags.push(
            Diagnostic::error(
                "E0727",
                format!("team {team} played no match in {}, so it has no line-up there", stage.title),
                lineup.span,
            )
            .with_label("a line-up for a match that was not played")
            .with_help(format!(
                "give line-ups only for the teams of {}'s matches (a walkover is not played); check the team number",
                stage.title
            )),
        );
        return false;
    }
    let mut ok = true;
    for (name, n, at) in &lineup.players {
        if *n > boards {
            diags.push(
                Diagnostic::error(
                    "E0726",
                    format!(
                        "`{name}` is listed with {}, but a match in {} has {}",
                        counted(n, "board"),
                        stage.title,
                        counted(boards, "board")
                    ),
                    *at,
                )
                .with_label(counted(n, "board"))
                .with_help(format!(
                    "write the boards the player actually played, at most {boards}"
                )),
            );
            ok = false;
        }
    }
    if let Some(seats) = plan.lineup_seats {
        let total: u64 = lineup.players.iter().map(|(_, n, _)| u64::from(*n)).sum();
        let room = u64::from(seats) * u64::from(boards);
        if total > room {
            diags.push(
                Diagnostic::error(
                    "E0725",
                    format!(
                        "team {team}'s line-up in {} gives {total} boards in all, but the team has {seats} seats at each of the match's {boards} boards: at most {room}",
                        stage.title
                    ),
                    lineup.span,
                )
                .with_label("more players than seats")
                .with_help("a player who sat out part of the match played fewer boards: write each player's own boards"),
            );
            ok = false;
        }
    }
    ok
}

/// The match team `team` played in `stage` (not a walkover), if any.
fn played_in(stage: &KoStage, team: u32) -> Option<()> {
    stage
        .matches
        .iter()
        .any(|m| (m.home == team || m.away == team) && m.decided_by != Decided::Walkover)
        .then_some(())
}

/// Each player's points for every team with a final place whose place earns any
/// (or every placed team, where the edition gives no points by place alone).
fn points(
    ev: &mut Evaluator,
    rule: u32,
    last: u32,
    event: &Event,
    played: &Played,
    report: &mut Report,
    diags: &mut Diagnostics,
) {
    let program = ev.program();
    let earning: Vec<u32> = report.trophy_points.iter().map(|(t, _)| *t).collect();
    let placed: Vec<(u32, u32)> = report
        .places
        .iter()
        .filter_map(|l| l.standing.single_place().map(|p| (l.team, p)))
        .filter(|(t, _)| earning.is_empty() || earning.contains(t))
        .collect();
    for (team, place) in placed {
        let Some(roster) = event.teams.iter().find(|t| t.id == team) else {
            continue;
        };
        if roster.players.is_empty() {
            continue;
        }
        // The team's last matches played, latest last.
        let mut matches: Vec<&KoStage> = report
            .stages
            .iter()
            .filter(|s| played_in(s, team).is_some())
            .collect();
        let keep = usize::try_from(last).unwrap_or(usize::MAX);
        let from = matches.len().saturating_sub(keep);
        matches.drain(..from);
        let missing: Vec<String> = matches
            .iter()
            .filter(|s| !played.contains_key(&(s.name.as_str(), team)))
            .map(|s| s.title.clone())
            .collect();
        if !missing.is_empty() {
            report.trophy_waiting.push((team, missing));
            continue;
        }
        let count = u32::try_from(matches.len()).unwrap_or(u32::MAX);
        for (player, _) in &roster.players {
            let boards: u32 = matches
                .iter()
                .filter_map(|s| played.get(&(s.name.as_str(), team)))
                .flat_map(|l| l.players.iter())
                .filter(|(n, _, _)| n == player)
                .map(|(_, b, _)| *b)
                .sum();
            match call(ev, rule, place, boards) {
                Ok(v) => {
                    let amount = match &v {
                        Value::Num(n, _) => *n,
                        _ => Decimal::ZERO,
                    };
                    report.trophy_players.push(PlayerTrophy {
                        team,
                        place,
                        player: player.clone(),
                        boards,
                        matches: count,
                        points: v.show(program),
                        amount,
                    });
                }
                Err(message) => {
                    let at = program
                        .rules
                        .get(rule as usize)
                        .map_or(event.competition.1, |r| r.span);
                    diags.push(
                        Diagnostic::error(
                            "E0719",
                            format!("the edition's trophy rule cannot give {player}'s points: {message}"),
                            event.competition.1,
                        )
                        .with_label("in this competition")
                        .with_note(at, "the rule `trophy_player_points` names")
                        .with_help("the rule takes the final place and the boards played, and gives points"),
                    );
                    return;
                }
            }
        }
    }
}

/// Calls the edition's rule with the place and the boards, each in its parameter's unit.
fn call(ev: &mut Evaluator, rule: u32, place: u32, boards: u32) -> Result<Value, String> {
    let params = ev
        .program()
        .rules
        .get(rule as usize)
        .map(|r| r.params.as_slice())
        .unwrap_or_default();
    let unit = |i: usize| match params.get(i) {
        Some((_, Type::Num(u))) => u.clone(),
        _ => Unit::none(),
    };
    let args = vec![
        Value::Num(Decimal::from(place), unit(0)),
        Value::Num(Decimal::from(boards), unit(1)),
    ];
    let nowhere = Span::new(u32::MAX, 0, 0);
    ev.call(rule, args, nowhere).map_err(|e| e.message)
}
