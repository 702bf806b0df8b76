//! A knockout stage: its entrants' positions, the draw (brackets or choice,
//! withdrawals at the draw), the matches and where winners and losers go next.

use super::plan;
use super::recorded::{self, DrawAt, Verdict};
use super::report::{Decided, Exit, Standing};
use super::report::{KoMatch, KoStage};
use super::{
    About, Awaited, Finals, Inflow, Pending, RoundDraw, RunError, Runner, Source, Stop, late,
    rule_err,
};
use crate::engine::knockout::DrawOutcome;
use crate::engine::knockout::TeamId;
use crate::engine::knockout::absent::{AbsenceRule, AbsentChoiceRules, run_choice_with_absentees};
use crate::engine::knockout::draw::{Pairing, brackets};
use crate::engine::knockout::late_withdrawal::LateWithdrawalReading;
use crate::engine::knockout::outcome::{resolve_played, resolve_walkover};
use crate::engine::knockout::ranking::{Bracket, RankingBook};
use crate::engine::knockout::seating::{HomeReading, home_and_away};
use crate::engine::knockout::withdrawal::choice_positions;
use crate::engine::knockout::{Decision, MatchOutcome};
use crate::ir::vocabulary::DrawMethod as DrawKind;
use crate::ir::vocabulary::{LateChooser, LowerWithdrawal, PositionsBy};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet};

/// A stage's draw: its pairings and byes, the choices made, and the teams that
/// withdrew at it.
struct StageDraw {
    outcome: DrawOutcome,
    choices: Vec<(u32, u32)>,
    /// Recorded choices the recorded draw contradicts.
    contradicted: Vec<(u32, u32)>,
    withdrawn: BTreeSet<TeamId>,
    /// Who is home: the stage's reading, or for a draw as recorded the team written
    /// first, as the record has it.
    home: HomeReading,
}

/// A stage's played matches, or what the run waits for.
type Played = Result<Vec<KoMatch>, Pending>;

impl Runner<'_> {
    /// Knockout stage `k` for its `entrants` (feeding stage's order, team): its
    /// positions, its draw, its matches, and where its teams go next.
    pub(super) fn stage(
        &mut self,
        k: usize,
        entrants: Vec<(u32, TeamId)>,
        book: &mut RankingBook,
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
        let (mut positions, first_group) = self.positions(stage, &entrants, book)?;
        // Teams that withdrew earlier are missing here; any other shortfall is an error.
        let withdrawn_earlier = finals.values().filter(|s| s.withdrew()).count();
        if let Some(n) = stage.teams
            && usize::try_from(n).ok() != Some(positions.len())
            && usize::try_from(n).ok() != Some(positions.len() + withdrawn_earlier)
        {
            let message = format!(
                "stage `{}` is declared for {n} teams but {} arrived",
                stage.name,
                positions.len()
            );
            let at = self.stage_span(&stage.name);
            return Err(RunError::new(Stop::StageSize, message).at(at));
        }
        let entry = (positions.as_mut_slice(), first_group, withdrawn_earlier);
        let draw = match self.draw(k, entry, book, inflow, finals, source)? {
            Ok(draw) => draw,
            Err(pending) => return Ok(Some(pending)),
        };
        // The late-withdrawal rules may have set this stage's match length.
        let boards = self
            .boards_override
            .get(&k)
            .copied()
            .unwrap_or(stage.boards);
        // A chooser left without an opponent goes through without a match and takes
        // over no ranking (AMB-7, AMB-9).
        for team in &draw.outcome.byes {
            self.send(stage.winners, &exit, *team, inflow, finals);
        }
        let drawn = (&draw.outcome, boards, draw.home);
        let matches = match self.play(k, drawn, book, inflow, finals, source)? {
            Ok(matches) => matches,
            Err(pending) => return Ok(Some(pending)),
        };
        self.report.stages.push(KoStage {
            name: stage.name.clone(),
            title: stage.title.clone(),
            order: stage.order,
            boards,
            draw: stage.draw,
            choices: draw.choices,
            contradicted_choices: draw.contradicted,
            positions: positions.iter().map(|t| t.0).collect(),
            withdrawn: draw.withdrawn.iter().map(|t| t.0).collect(),
            byes: draw.outcome.byes.iter().map(|t| t.0).collect(),
            matches,
            played: stage.played.clone(),
        });
        Ok(None)
    }

    /// The entrants in position order by the stage's `positions`: by origin (the
    /// feeding stage's order), each group by ranking; and the size of the first group.
    fn positions(
        &self,
        stage: &plan::Stage,
        entrants: &[(u32, TeamId)],
        book: &RankingBook,
    ) -> Result<(Vec<TeamId>, usize), RunError> {
        match stage.positions {
            PositionsBy::Origin => {
                let mut groups: BTreeMap<u32, Vec<TeamId>> = BTreeMap::new();
                for (from, team) in entrants {
                    groups.entry(*from).or_default().push(*team);
                }
                let first_group = groups.values().next().map_or(0, Vec::len);
                let mut positions = Vec::new();
                for teams in groups.values() {
                    positions.extend(book.sort(teams, self.plan.ranking.tie).map_err(rule_err)?);
                }
                Ok((positions, first_group))
            }
        }
    }

    /// The draw of stage `k` for its positions (with the size of the first group and
    /// the number of teams that withdrew earlier): withdrawals at the draw, then the
    /// late-withdrawal rules' rearrangement or the stage's own method.
    fn draw(
        &mut self,
        k: usize,
        (positions, first_group, withdrawn_earlier): (&mut [TeamId], usize, usize),
        book: &RankingBook,
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<Result<StageDraw, Pending>, RunError> {
        let Some(stage) = self.plan.stages.get(k) else {
            return Err(RunError::new(Stop::Refused, "unknown stage"));
        };
        // Withdrawals at the time of the draw: where the stage chooses by ranking, the
        // next team moves up (BC-DRAWS); elsewhere the document has no rule (AMB-10).
        let at_draw: BTreeSet<TeamId> = source
            .withdrawn_at_draw(&stage.name)
            .into_iter()
            .map(TeamId)
            .collect();
        let specific = stage.late_withdrawal == Some(LateWithdrawalReading::SpecificRule);
        // CC-WITHDRAW A and B cover the upper group (the CC losers) only; a withdrawal
        // among the lower group follows the stage's own clause (AMB-8).
        let at = self.stage_span(&stage.name);
        let late_rules = specific
            && late::upper_withdrawals(&at_draw, positions, first_group, &stage.title)
                .map_err(|e| e.at(at))?;
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
        // CC-WITHDRAW C: a team that won the rearranged stage withdraws at this draw;
        // the team it beat takes its place.
        let at_draw = match &self.late_feeder {
            Some(f) if f.next == k && !at_draw.is_empty() => {
                late::replace_withdrawn_winners(f, positions, &at_draw, finals, &stage.title)
                    .map_err(|e| e.at(at).about(About::WithdrawnAtDraw(stage.name.clone())))?;
                BTreeSet::new()
            }
            _ => at_draw,
        };
        if !at_draw.is_empty() && stage.draw != DrawKind::RankedChoice {
            let message = format!(
                "the document has no rule for a withdrawal at the draw of {}",
                stage.title
            );
            return Err(RunError::new(Stop::NoRule, message)
                .at(self.stage_span(&stage.name))
                .about(About::WithdrawnAtDraw(stage.name.clone())));
        }
        if !late_rules && let Some(recorded) = source.recorded_stage_draw(&stage.name) {
            let entry = (&*positions, &at_draw, withdrawn_earlier);
            let drawn = self.recorded_stage(stage, entry, recorded, book, finals, source)?;
            return Ok(drawn.map(|(outcome, choices)| {
                // The draw stands for the choices: one it does not follow was not
                // made as recorded.
                let pairs: Vec<(u32, u32)> = outcome
                    .pairings
                    .iter()
                    .map(|p| (p.upper.0, p.lower.0))
                    .collect();
                let (choices, contradicted) = recorded::choices_kept(choices, &pairs);
                if !contradicted.is_empty() {
                    source.choices_contradicted(&stage.name, &contradicted);
                }
                StageDraw {
                    outcome,
                    choices,
                    contradicted,
                    withdrawn: at_draw,
                    home: HomeReading::UpperPosition,
                }
            }));
        }
        let drawn = if late_rules {
            // CC-WITHDRAW A and B: the specific rules rearrange this stage and the next.
            let entry = (&*positions, first_group, &at_draw);
            self.late_draw(k, entry, inflow, finals, source)?
        } else {
            for team in &at_draw {
                let exit = Exit {
                    order: stage.order,
                    title: stage.title.clone(),
                };
                finals.insert(*team, Standing::Withdrew(exit));
            }
            let entry = (&*positions, &at_draw, withdrawn_earlier);
            self.draw_by_method(stage, entry, book, source)?
        };
        Ok(drawn.map(|(outcome, choices)| StageDraw {
            outcome,
            choices,
            contradicted: Vec::new(),
            withdrawn: at_draw,
            home: stage.home,
        }))
    }

    /// A stage's draw as recorded: checked (every team of the stage once), compared
    /// with the draw the rules make where the rules make one (brackets; a choice is
    /// the captains'), and used; refused, the run stops before the stage.
    fn recorded_stage(
        &self,
        stage: &plan::Stage,
        (positions, at_draw, withdrawn_earlier): (&[TeamId], &BTreeSet<TeamId>, usize),
        (recorded, bye): RoundDraw,
        book: &RankingBook,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<late::Drawn, RunError> {
        for team in at_draw {
            let exit = Exit {
                order: stage.order,
                title: stage.title.clone(),
            };
            finals.insert(*team, Standing::Withdrew(exit));
        }
        let playing: BTreeSet<u32> = positions
            .iter()
            .filter(|t| !at_draw.contains(t))
            .map(|t| t.0)
            .collect();
        let paired: BTreeSet<u32> = recorded.iter().flat_map(|(a, b)| [*a, *b]).collect();
        // In an odd field one team goes through without a match: the one the record
        // names, or (in a file from before stage draws recorded their bye) the best
        // position left out of the recorded pairs.
        let byes: Vec<u32> = if let Some(b) = bye {
            vec![b]
        } else if playing.len() % 2 == 1 {
            positions
                .iter()
                .map(|t| t.0)
                .filter(|t| playing.contains(t) && !paired.contains(t))
                .take(1)
                .collect()
        } else {
            Vec::new()
        };
        let problems = recorded::check(&recorded, &byes, &playing, &BTreeMap::new());
        let verdict = if !problems.is_empty() {
            Verdict::Refused(problems)
        } else if matches!(stage.draw, DrawKind::Brackets | DrawKind::Fixed) {
            let entry = (positions, at_draw, withdrawn_earlier);
            match self.draw_by_method(stage, entry, book, source)? {
                Ok((made, _)) => {
                    let pairs: Vec<(u32, u32)> = made
                        .pairings
                        .iter()
                        .map(|p| (p.upper.0, p.lower.0))
                        .collect();
                    let made_byes: Vec<u32> = made.byes.iter().map(|t| t.0).collect();
                    if recorded::same(&recorded, &byes, &pairs, &made_byes) {
                        Verdict::Same
                    } else {
                        Verdict::Differs(pairs, made_byes)
                    }
                }
                Err(_) => Verdict::Same,
            }
        } else if at_draw.is_empty() && withdrawn_earlier == 0 && byes.is_empty() {
            // A draw by choice: the upper half of the places chose from the lower
            // half, so each match has one of each, unless the places moved since.
            let half = positions.len() / 2;
            let choosers: BTreeSet<u32> = positions[..half].iter().map(|t| t.0).collect();
            let pairs = recorded::one_sided(&recorded, &choosers);
            if pairs.is_empty() {
                Verdict::Same
            } else {
                Verdict::OneSided {
                    pairs,
                    choosers: half,
                }
            }
        } else {
            Verdict::Same
        };
        source.draw_verdict(DrawAt::Stage(&stage.name), &verdict);
        if let Verdict::Refused(_) = verdict {
            let title = stage.title.clone();
            return Ok(Err(Awaited::RecordedDraw { title }.into()));
        }
        let pairings = recorded
            .iter()
            .enumerate()
            .map(|(i, (a, b))| Pairing {
                table: u32::try_from(i + 1).unwrap_or(u32::MAX),
                upper: TeamId(*a),
                lower: TeamId(*b),
            })
            .collect();
        let byes = byes.into_iter().map(TeamId).collect();
        // A stage drawn by choice shows the choices the record keeps.
        let choices = match stage.draw {
            DrawKind::Choice | DrawKind::RankedChoice => {
                source.choices_in_order(&stage.name).unwrap_or_default()
            }
            DrawKind::Brackets | DrawKind::Fixed => Vec::new(),
        };
        Ok(Ok((DrawOutcome { pairings, byes }, choices)))
    }

    /// A stage drawn by its own method: brackets, or a choice of opponents (with
    /// absent captains, or with the next team moving up for one that withdrew at
    /// the draw).
    fn draw_by_method(
        &self,
        stage: &plan::Stage,
        (positions, at_draw, withdrawn_earlier): (&[TeamId], &BTreeSet<TeamId>, usize),
        book: &RankingBook,
        source: &mut dyn Source,
    ) -> Result<late::Drawn, RunError> {
        let absent = source.absent_choosers(&stage.name);
        match stage.draw {
            DrawKind::Brackets | DrawKind::Fixed => {
                // A team short because of a withdrawal: the best position goes
                // through without a match, the rest meet as usual.
                let (byes, rest) = if positions.len() % 2 == 1 && withdrawn_earlier > 0 {
                    positions.split_at(1)
                } else {
                    positions.split_at(0)
                };
                let pairings = if rest.is_empty() {
                    Vec::new()
                } else {
                    brackets(rest).map_err(rule_err)?
                };
                let byes = byes.to_vec();
                Ok(Ok((DrawOutcome { pairings, byes }, Vec::new())))
            }
            DrawKind::Choice | DrawKind::RankedChoice if !absent.is_empty() => {
                if stage.absent_captains == AbsenceRule::Reject {
                    let message = format!(
                        "the edition has no rule for absent captains at {} (`absent_captains`)",
                        stage.title
                    );
                    let at = self.stage_span(&stage.name);
                    let about = About::Absent(stage.name.clone());
                    return Err(RunError::new(Stop::NoRule, message).at(at).about(about));
                }
                self.absent_choice(stage, positions, absent, book, source)
            }
            DrawKind::Choice | DrawKind::RankedChoice => {
                let half = positions.len().div_ceil(2);
                // A withdrawal among the choosers moves the next team up (BC-DRAWS); one
                // among the teams chosen from leaves the choosers as they are.
                let split = match self.plan.choice.lower_withdrawal {
                    LowerWithdrawal::ChoosersUnchangedLastGoesThrough => {
                        choice_positions(positions, half, at_draw)
                    }
                }
                .map_err(rule_err)?;
                let (choosers, candidates) = (split.choosers, split.candidates);
                self.choose(&stage.name, &stage.title, choosers, candidates, source)
            }
        }
    }

    /// Plays the drawn matches of stage `k` (the draw, the boards of a match and
    /// who is home): each is a walkover or asks the source for its result; winners
    /// and losers go where the stage sends them.
    fn play(
        &mut self,
        k: usize,
        (drawn, boards, home): (&DrawOutcome, Decimal, HomeReading),
        book: &mut RankingBook,
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<Played, RunError> {
        let Some(stage) = self.plan.stages.get(k) else {
            return Err(RunError::new(Stop::Refused, "unknown stage"));
        };
        let pairings = &drawn.pairings;
        let withdrawn = announce_draw(stage, (drawn, home), book, source)
            .map_err(|e| e.at(self.stage_span(&stage.name)))?;
        let deductions = source.knockout_deductions(&stage.name);
        let mut matches = Vec::new();
        for p in pairings {
            let sides = home_and_away(p, book, home).map_err(rule_err)?;
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
                        let (title, home, away) = (stage.title.clone(), sides.home.0, sides.away.0);
                        return Ok(Err(Awaited::MatchResult { title, home, away }.into()));
                    };
                    // Penalties come off the IMP totals before the winner is decided.
                    let (hi, ai) = (
                        deducted(&deductions, sides.home.0, hi),
                        deducted(&deductions, sides.away.0, ai),
                    );
                    let tie = self.plan.knockout_tie;
                    let o = resolve_played((sides.home, hi), (sides.away, ai), book, tie)
                        .map_err(rule_err)?;
                    (o, hi, ai)
                }
            };
            book.record(Bracket::Main, &outcome, &self.plan.ranking)
                .map_err(rule_err)?;
            self.route(k, &outcome, &withdrawn, inflow, finals);
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
                    Decision::TieBreak(_) => Decided::TieBreak,
                    Decision::Walkover => Decided::Walkover,
                },
                tie_break: match outcome.decision {
                    Decision::TieBreak(places) => Some(places),
                    _ => None,
                },
            });
        }
        Ok(Ok(matches))
    }

    /// Sends a match's winner and loser on from stage `k`, and notes whom the
    /// winner beat for the late-withdrawal rules.
    fn route(
        &mut self,
        k: usize,
        outcome: &MatchOutcome,
        withdrawn: &BTreeSet<TeamId>,
        inflow: &mut Inflow,
        finals: &mut Finals,
    ) {
        let Some(stage) = self.plan.stages.get(k) else {
            return;
        };
        let exit = Exit {
            order: stage.order,
            title: stage.title.clone(),
        };
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
        // where the stage's losers take a place and the edition reads a walkover as a
        // lost match (`walkover_loser`), it shares that place.
        let takes_place =
            self.plan.walkover_loser_takes_place && matches!(stage.losers, plan::Target::Place(..));
        if withdrawn.contains(&outcome.loser) && !takes_place {
            finals.insert(outcome.loser, Standing::Withdrew(exit));
        } else {
            self.send(stage.losers, &exit, outcome.loser, inflow, finals);
        }
    }

    /// A choice with absent captains (CC-ABSENT): they lose their turn, so the choices
    /// come all at once, in the order made. While a captain present still has to
    /// choose, the source is asked for that choice; without it, the run waits for it.
    fn absent_choice(
        &self,
        stage: &plan::Stage,
        positions: &[TeamId],
        absent: Vec<(u32, crate::engine::knockout::absent::Arrival)>,
        book: &RankingBook,
        source: &mut dyn Source,
    ) -> Result<late::Drawn, RunError> {
        let (upper, lower) =
            crate::engine::knockout::draw::split_halves(positions).map_err(rule_err)?;
        let Some(made) = source.choices_in_order(&stage.name) else {
            let title = stage.title.clone();
            return Ok(Err(Awaited::ChoicesInOrder { title }.into()));
        };
        let arrivals = absent.into_iter().map(|(t, a)| (TeamId(t), a)).collect();
        let mut made: Vec<(TeamId, TeamId)> = made
            .into_iter()
            .map(|(a, b)| (TeamId(a), TeamId(b)))
            .collect();
        let rules = AbsentChoiceRules {
            absence: stage.absent_captains,
            leftover: self.plan.absent_leftovers,
            numbering: self.plan.table_numbers,
        };
        // Each round either ends or adds a choice; there are at most as many choices
        // as choosers.
        let run_choice = match self.plan.choice.late_chooser {
            LateChooser::FirstTurnAfterArrival => run_choice_with_absentees,
        };
        for _ in 0..=upper.len() {
            match run_choice(&upper, &lower, &arrivals, &made, book, &rules) {
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
                    let Some(chosen) = source.choice(&stage.name, team.0, &candidates) else {
                        return Ok(Err(Awaited::Choice {
                            title: stage.title.clone(),
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
        Err(RunError::new(
            Stop::Refused,
            format!(
                "{}: the choice of opponents did not end after every captain chose",
                stage.title
            ),
        ))
    }
}

/// `imps` less the IMPs deducted from `team` (penalties).
fn deducted(deductions: &[(u32, Decimal)], team: u32, imps: Decimal) -> Decimal {
    deductions
        .iter()
        .filter(|(t, _)| *t == team)
        .fold(imps, |acc, (_, d)| acc.saturating_sub(*d))
}

/// Tells the source the stage's draw (home, away by table) and asks which teams
/// withdrew after it: their matches are walkovers where the stage allows them.
fn announce_draw(
    stage: &plan::Stage,
    (outcome, home): (&DrawOutcome, HomeReading),
    book: &RankingBook,
    source: &mut dyn Source,
) -> Result<BTreeSet<TeamId>, RunError> {
    let drawn = outcome
        .pairings
        .iter()
        .map(|p| home_and_away(p, book, home).map(|s| (s.home.0, s.away.0)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(rule_err)?;
    let bye = outcome.byes.first().map(|t| t.0);
    source.stage_drawn(&stage.name, &drawn, bye);
    let withdrawn: BTreeSet<TeamId> = source
        .withdrawn_after_draw(&stage.name)
        .into_iter()
        .map(TeamId)
        .collect();
    if !withdrawn.is_empty() && !stage.walkovers {
        return Err(RunError::new(
            Stop::NoRule,
            format!(
                "the document has no rule for a withdrawal after the draw of {}",
                stage.title
            ),
        )
        .about(About::WithdrawnAfterDraw(stage.name.clone())));
    }
    // Who goes on from a match both teams left, the document does not say: the
    // stage stops before any of its results is asked for, whatever its table.
    if let Some(&(a, b)) = drawn
        .iter()
        .find(|(a, b)| withdrawn.contains(&TeamId(*a)) && withdrawn.contains(&TeamId(*b)))
    {
        return Err(RunError::new(
            Stop::NoRule,
            format!(
                "team {a} and team {b} both withdrew after the draw of {}; the document has no rule for who goes on from their match",
                stage.title
            ),
        )
        .about(About::BothWithdrew {
            stage: stage.name.clone(),
            teams: (a, b),
        }));
    }
    Ok(withdrawn)
}
