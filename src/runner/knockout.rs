//! A knockout stage: its entrants' positions, the draw (brackets or choice,
//! withdrawals at the draw), the matches and where winners and losers go next.

use super::plan;
use super::report::{Decided, Exit, Standing};
use super::report::{KoMatch, KoStage};
use super::{Awaited, Finals, Inflow, Pending, RunError, Runner, Source, late, rule_err};
use crate::engine::knockout::TeamId;
use crate::engine::knockout::absent::{AbsentChoiceRules, run_choice_with_absentees};
use crate::engine::knockout::draw::{Pairing, brackets};
use crate::engine::knockout::outcome::{Decision, resolve_played, resolve_walkover};
use crate::engine::knockout::ranking::{Bracket, RankingBook, RankingRules};
use crate::engine::knockout::seating::home_and_away;
use crate::engine::knockout::withdrawal::{DrawWithdrawalRule, choice_positions};
use crate::ir::vocabulary::DrawMethod as DrawKind;
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet};

impl Runner<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn stage(
        &mut self,
        k: usize,
        entrants: Vec<(u32, TeamId)>,
        book: &mut RankingBook,
        rules: &RankingRules,
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<Option<Pending>, RunError> {
        let Some(stage) = self.plan.stages.get(k) else {
            return Ok(None);
        };
        let exit = Exit {
            order: stage.order,
            title: stage.title.clone(),
        };
        // Positions by origin (the feeding stage's order), each group by ranking.
        let mut groups: BTreeMap<u32, Vec<TeamId>> = BTreeMap::new();
        for (from, team) in &entrants {
            groups.entry(*from).or_default().push(*team);
        }
        let first_group = groups.values().next().map_or(0, Vec::len);
        let mut positions = Vec::new();
        for (_, teams) in groups {
            positions.extend(book.sort(&teams, self.plan.ranking.tie).map_err(rule_err)?);
        }
        // Teams that withdrew earlier are missing here; any other shortfall is an error.
        let withdrawn_earlier = finals.values().filter(|s| s.withdrew()).count();
        if let Some(n) = stage.teams
            && usize::try_from(n).ok() != Some(positions.len())
            && usize::try_from(n).ok() != Some(positions.len() + withdrawn_earlier)
        {
            return Err(RunError::Rule(format!(
                "stage `{}` is declared for {n} teams but {} arrived",
                stage.name,
                positions.len()
            )));
        }
        // Withdrawals at the time of the draw: where the stage chooses by ranking, the
        // next team moves up (BC-DRAWS); elsewhere the document has no rule (AMB-10).
        let at_draw: BTreeSet<TeamId> = source
            .withdrawn_at_draw(&stage.name)
            .into_iter()
            .map(TeamId)
            .collect();
        let boards = self
            .boards_override
            .get(&k)
            .copied()
            .unwrap_or(stage.boards);
        let specific = stage.late_withdrawal
            == Some(crate::engine::knockout::late_withdrawal::LateWithdrawalReading::SpecificRule);
        // CC-WITHDRAW A and B cover the upper group (the CC losers) only; a withdrawal
        // among the lower group follows the stage's own clause (AMB-8).
        let late_rules =
            specific && late::upper_withdrawals(&at_draw, &positions, first_group, &stage.title)?;
        // Case C needs to know whom this stage's winners beat, whether or not case A
        // or B rearranged it.
        if specific
            && !late_rules
            && let plan::Target::Stage(next) = stage.winners
        {
            self.late_feeder = Some(late::Feeder {
                stage: k,
                next,
                played: true,
                beaten: BTreeMap::new(),
                beaten_withdrew: BTreeSet::new(),
                shared: late::place_of(stage.losers),
            });
        }
        let mut choices = Vec::new();
        // CC-WITHDRAW C: a team that won the rearranged stage withdraws at this draw;
        // the team it beat takes its place.
        let at_draw = match &self.late_feeder {
            Some(f) if f.next == k && !at_draw.is_empty() => {
                late::replace_withdrawn_winners(f, &mut positions, &at_draw, finals, &stage.title)?;
                BTreeSet::new()
            }
            _ => at_draw,
        };
        if !at_draw.is_empty() && stage.draw != DrawKind::RankedChoice {
            return Err(RunError::Rule(format!(
                "the document has no rule for a withdrawal at the draw of {}",
                stage.title
            )));
        }
        if !late_rules {
            for t in &at_draw {
                finals.insert(*t, Standing::Withdrew(exit.clone()));
            }
        }
        let absent = source.absent_choosers(&stage.name);
        let outcome = if late_rules {
            // CC-WITHDRAW A and B: the specific rules rearrange this stage and the next.
            match self.late_draw(k, &positions, first_group, &at_draw, inflow, finals, source)? {
                Ok((outcome, made)) => {
                    choices = made;
                    outcome
                }
                Err(pending) => return Ok(Some(pending)),
            }
        } else {
            match stage.draw {
                DrawKind::Brackets | DrawKind::Fixed => {
                    // A team short because of a withdrawal: the best position goes
                    // through without a match, the rest meet as usual.
                    let (byes, rest) = if positions.len() % 2 == 1 && withdrawn_earlier > 0 {
                        positions.split_at(1)
                    } else {
                        positions.split_at(0)
                    };
                    crate::engine::knockout::DrawOutcome {
                        pairings: if rest.is_empty() {
                            Vec::new()
                        } else {
                            brackets(rest).map_err(rule_err)?
                        },
                        byes: byes.to_vec(),
                    }
                }
                DrawKind::Choice if !absent.is_empty() => {
                    match self.absent_choice(
                        &stage.name,
                        &stage.title,
                        &positions,
                        absent,
                        book,
                        source,
                    )? {
                        Ok((outcome, made)) => {
                            choices = made;
                            outcome
                        }
                        Err(pending) => return Ok(Some(pending)),
                    }
                }
                DrawKind::Choice | DrawKind::RankedChoice => {
                    if stage.draw == DrawKind::RankedChoice && !absent.is_empty() {
                        return Err(RunError::Rule(format!(
                            "absent captains are not covered at {} (AMB-19)",
                            stage.title
                        )));
                    }
                    let half = positions.len().div_ceil(2);
                    let split =
                        choice_positions(&positions, half, &at_draw, DrawWithdrawalRule::MoveUp)
                            .map_err(rule_err)?;
                    match self.choose(
                        &stage.name,
                        &stage.title,
                        split.choosers,
                        split.candidates,
                        source,
                    )? {
                        Ok((outcome, made)) => {
                            choices = made;
                            outcome
                        }
                        Err(pending) => return Ok(Some(pending)),
                    }
                }
            }
        };
        let boards = self.boards_override.get(&k).copied().unwrap_or(boards);
        // A chooser left without an opponent goes through without a match and takes
        // over no ranking (AMB-7, AMB-9).
        for team in &outcome.byes {
            self.send(stage.winners, &exit, *team, inflow, finals);
        }
        let byes = outcome.byes;
        let pairings: Vec<Pairing> = outcome.pairings;
        let drawn = pairings
            .iter()
            .map(|p| home_and_away(p, book, stage.home).map(|s| (s.home.0, s.away.0)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(rule_err)?;
        source.stage_drawn(&stage.name, &drawn);
        let mut matches = Vec::new();
        let bracket = Bracket::Main;
        let withdrawn: BTreeSet<TeamId> = source
            .withdrawn_after_draw(&stage.name)
            .into_iter()
            .map(TeamId)
            .collect();
        if !withdrawn.is_empty() && !stage.walkovers {
            return Err(RunError::Rule(format!(
                "the document has no rule for a withdrawal after the draw of {}",
                stage.title
            )));
        }
        let deductions = source.knockout_deductions(&stage.name);
        let deducted = |team: u32, imps: Decimal| {
            deductions
                .iter()
                .filter(|(t, _)| *t == team)
                .fold(imps, |acc, (_, d)| acc.saturating_sub(*d))
        };
        for p in &pairings {
            let sides = home_and_away(p, book, stage.home).map_err(rule_err)?;
            let (hr, ar) = (
                book.ranking(sides.home).map_err(rule_err)?,
                book.ranking(sides.away).map_err(rule_err)?,
            );
            // A withdrawal after the draw is a walkover; otherwise the match is played.
            let walkover =
                resolve_walkover(sides.home, sides.away, &withdrawn).map_err(rule_err)?;
            let (outcome, hi, ai) = match walkover {
                Some(w) => (w, Decimal::ZERO, Decimal::ZERO),
                None => {
                    let Some((hi, ai)) =
                        source.knockout_result(&stage.name, sides.home.0, sides.away.0, boards)
                    else {
                        return Ok(Some(
                            Awaited::MatchResult {
                                title: stage.title.clone(),
                                home: sides.home.0,
                                away: sides.away.0,
                            }
                            .into(),
                        ));
                    };
                    // Penalties come off the IMP totals before the winner is decided.
                    let (hi, ai) = (deducted(sides.home.0, hi), deducted(sides.away.0, ai));
                    let o = resolve_played(
                        (sides.home, hi),
                        (sides.away, ai),
                        book,
                        self.plan.knockout_tie,
                    )
                    .map_err(rule_err)?;
                    (o, hi, ai)
                }
            };
            book.record(bracket, &outcome, rules).map_err(rule_err)?;
            if let Some(f) = &mut self.late_feeder
                && f.stage == k
            {
                f.beaten.insert(outcome.winner, outcome.loser);
                if withdrawn.contains(&outcome.loser) {
                    f.beaten_withdrew.insert(outcome.loser);
                }
            }
            self.send(stage.winners, &exit, outcome.winner, inflow, finals);
            // A team that withdrew plays on nowhere: it is out where it withdrew, or,
            // where the stage's losers take a place, it lost the walkover and shares
            // that place (bc_walkover_loser_reading).
            if withdrawn.contains(&outcome.loser)
                && !matches!(stage.losers, plan::Target::Place(..))
            {
                finals.insert(outcome.loser, Standing::Withdrew(exit.clone()));
            } else {
                self.send(stage.losers, &exit, outcome.loser, inflow, finals);
            }
            matches.push(KoMatch {
                table: p.table,
                home: sides.home.0,
                away: sides.away.0,
                home_ranking: hr,
                away_ranking: ar,
                home_imps: hi,
                away_imps: ai,
                winner: outcome.winner.0,
                seating: self.seating(stage, sides, boards, source)?,
                decided_by: match outcome.decision {
                    Decision::Imps => Decided::Imps,
                    Decision::TieBreak => Decided::TieBreak,
                    Decision::Walkover => Decided::Walkover,
                },
            });
        }
        self.report.stages.push(KoStage {
            name: stage.name.clone(),
            title: stage.title.clone(),
            order: stage.order,
            boards,
            draw: stage.draw,
            choices,
            positions: positions.iter().map(|t| t.0).collect(),
            withdrawn: at_draw.iter().map(|t| t.0).collect(),
            byes: byes.iter().map(|t| t.0).collect(),
            matches,
        });
        Ok(None)
    }

    /// A choice with absent captains (CC-ABSENT): they lose their turn, so the choices
    /// come all at once, in the order made. While a captain present still has to
    /// choose, the source is asked for that choice; without it, the run waits for it.
    fn absent_choice(
        &self,
        stage: &str,
        title: &str,
        positions: &[TeamId],
        absent: Vec<(u32, crate::engine::knockout::absent::Arrival)>,
        book: &RankingBook,
        source: &mut dyn Source,
    ) -> Result<late::Drawn, RunError> {
        let (upper, lower) =
            crate::engine::knockout::draw::split_halves(positions).map_err(rule_err)?;
        let Some(made) = source.choices_in_order(stage) else {
            let title = title.to_string();
            return Ok(Err(Awaited::ChoicesInOrder { title }.into()));
        };
        let arrivals = absent.into_iter().map(|(t, a)| (TeamId(t), a)).collect();
        let mut made: Vec<(TeamId, TeamId)> = made
            .into_iter()
            .map(|(a, b)| (TeamId(a), TeamId(b)))
            .collect();
        let rules = AbsentChoiceRules {
            numbering: self.plan.table_numbers,
            ..AbsentChoiceRules::default()
        };
        // Each round either ends or adds a choice; there are at most as many choices
        // as choosers.
        for _ in 0..=upper.len() {
            match run_choice_with_absentees(&upper, &lower, &arrivals, &made, book, &rules) {
                Ok(outcome) => {
                    let made = made.iter().map(|(a, b)| (a.0, b.0)).collect();
                    return Ok(Ok((outcome, made)));
                }
                // Not every choice is in yet: ask for the next one.
                Err(crate::engine::knockout::KnockoutError::ChoiceIncomplete(team)) => {
                    let candidates: Vec<u32> = lower
                        .iter()
                        .filter(|t| !made.iter().any(|(_, c)| c == *t))
                        .map(|t| t.0)
                        .collect();
                    let Some(chosen) = source.choice(stage, team.0, &candidates) else {
                        return Ok(Err(Awaited::Choice {
                            title: title.to_string(),
                            chooser: team.0,
                            candidates,
                        }
                        .into()));
                    };
                    made.push((team, TeamId(chosen)));
                }
                Err(e) => return Err(rule_err(e)),
            }
        }
        Err(RunError::Rule(format!(
            "{title}: the choice of opponents did not end after every captain chose"
        )))
    }
}
