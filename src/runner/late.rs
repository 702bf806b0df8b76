//! Withdrawals late in a knockout (the document's CC-WITHDRAW): when teams from the
//! upper bracket will not play the stage they dropped into, the specific rules
//! rearrange that stage and the placement match after it (cases A and B), and a
//! winner of the rearranged stage who withdraws is replaced by the team it beat
//! (case C). The engine plans the cases (`engine::knockout::late_withdrawal`); this
//! module applies them to a run.

use super::plan::Target;
use super::report::{Exit, Standing};
use super::{Awaited, Finals, Inflow, RunError, Runner, Source, Stop, rule_err};
use crate::engine::knockout::choice::ChoiceDraw;
use crate::engine::knockout::late_withdrawal::{
    self as lw, LateMatchLengths, LateWithdrawalReading, PlacementPlan, UpperLoser,
};
use crate::engine::knockout::{DrawOutcome, Pairing, TeamId};
use crate::ir::vocabulary::ChooserWithoutOpponent;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::{BTreeMap, BTreeSet};

/// A stage the late-withdrawal rules rearranged.
#[derive(Debug, Clone)]
pub(super) struct Feeder {
    /// Its index.
    pub stage: usize,
    /// The stage its winners go to.
    pub next: usize,
    /// Whether any of its matches was played (not in case B).
    pub played: bool,
    /// Each winner and the team it beat.
    pub beaten: BTreeMap<TeamId, TeamId>,
    /// Beaten teams that had withdrawn after the draw (they lost by walkover).
    pub beaten_withdrew: BTreeSet<TeamId>,
    /// The place its losers share (`5/6`), if they take a place.
    pub shared: Option<Standing>,
}

/// A draw's result, or what the run waits for.
pub(super) type Drawn = Result<(DrawOutcome, Vec<(u32, u32)>), super::Pending>;

/// The standing of a team sent to `target`, if that is a place.
pub(super) fn place_of(target: Target) -> Option<Standing> {
    match target {
        Target::Place(first, last) => Some(Standing::Place { first, last }),
        Target::Stage(_) | Target::Out => None,
    }
}

/// The late-withdrawal rules give a withdrawn team the place of the stage's losers;
/// a stage whose losers take no place has none to give.
fn shared_place(shared: Option<&Standing>, title: &str) -> Result<Standing, RunError> {
    shared.cloned().ok_or_else(|| {
        RunError::new(Stop::Incomplete, format!(
            "the late-withdrawal rules at {title} give withdrawn teams the place of its losers, but its losers take no place"
        ))
    })
}

fn boards(n: u32) -> Decimal {
    Decimal::from(n)
}

/// Case C: each team in `withdrawn` that won the rearranged stage is replaced in
/// `positions` by the team it beat, and shares the place of that stage's losers.
pub(super) fn replace_withdrawn_winners(
    feeder: &Feeder,
    positions: &mut [TeamId],
    withdrawn: &BTreeSet<TeamId>,
    finals: &mut Finals,
    title: &str,
) -> Result<(), RunError> {
    for w in withdrawn {
        if !feeder.played {
            return Err(RunError::new(
                Stop::NoRule,
                format!(
                    "{w} withdraws at the draw of {title}, but its previous stage was not played (case B): the document has no rule (AMB-13)"
                ),
            ));
        }
        let Some(loser) = feeder.beaten.get(w) else {
            return Err(RunError::new(
                Stop::NoRule,
                format!(
                    "{w} withdraws at the draw of {title} without having beaten a team: the document has no rule (AMB-13)"
                ),
            ));
        };
        if feeder.beaten_withdrew.contains(loser) {
            return Err(RunError::new(
                Stop::NoRule,
                format!(
                    "{w} withdraws at the draw of {title}, but the team it beat, {loser}, had itself withdrawn: the document has no rule (AMB-13)"
                ),
            ));
        }
        let Some(slot) = positions.iter_mut().find(|t| *t == w) else {
            return Err(RunError::new(
                Stop::Refused,
                format!("{w} is not in {title}"),
            ));
        };
        *slot = *loser;
        finals.remove(loser);
        finals.insert(*w, shared_place(feeder.shared.as_ref(), title)?);
    }
    Ok(())
}

/// Whether any of the teams withdrawn at the draw is in the upper group (the first
/// `upper_count` of `positions`), where the late-withdrawal rules apply. Withdrawals in
/// both groups at once, or of a team not in the stage, have no rule.
pub(super) fn upper_withdrawals(
    withdrawn: &BTreeSet<TeamId>,
    positions: &[TeamId],
    upper_count: usize,
    title: &str,
) -> Result<bool, RunError> {
    let (upper, lower) = positions.split_at(upper_count.min(positions.len()));
    if let Some(w) = withdrawn.iter().find(|w| !positions.contains(w)) {
        return Err(RunError::new(
            Stop::Refused,
            format!("{w} withdraws at the draw of {title}, but it is not in {title}"),
        ));
    }
    let in_upper = withdrawn.iter().any(|w| upper.contains(w));
    let in_lower = withdrawn.iter().any(|w| lower.contains(w));
    if in_upper && in_lower {
        return Err(RunError::new(
            Stop::NoRule,
            format!(
                "teams of both groups withdraw at the draw of {title}: the late-withdrawal rules need both teams of the lower group to play, so the document has no rule"
            ),
        ));
    }
    Ok(in_upper)
}

impl Runner<'_> {
    /// Teams in turn choose among candidates, asking the source; the last chooser
    /// gets the team left over and choosers without a candidate go through.
    pub(super) fn choose(
        &self,
        stage: &str,
        title: &str,
        choosers: Vec<TeamId>,
        candidates: Vec<TeamId>,
        source: &mut dyn Source,
    ) -> Result<Drawn, RunError> {
        let mut draw =
            ChoiceDraw::new(choosers, candidates, self.plan.table_numbers).map_err(rule_err)?;
        let mut choices = Vec::new();
        while let Some(chooser) = draw.next_chooser() {
            let candidates: Vec<u32> = draw.remaining_candidates().iter().map(|t| t.0).collect();
            if candidates.len() <= 1 {
                break;
            }
            let Some(chosen) = source.choice(stage, chooser.0, &candidates) else {
                return Ok(Err(Awaited::Choice {
                    title: title.to_string(),
                    chooser: chooser.0,
                    candidates,
                }
                .into()));
            };
            draw.choose(chooser, TeamId(chosen)).map_err(rule_err)?;
            choices.push((chooser.0, chosen));
        }
        // Choosers left without a candidate go through without a match.
        let outcome = match self.plan.choice.chooser_without_opponent {
            ChooserWithoutOpponent::LastChooserGoesThrough => draw.finish(),
        };
        Ok(Ok((outcome.map_err(rule_err)?, choices)))
    }

    /// Cases A and B: the upper-bracket teams among `positions` (the first
    /// `upper_count`) that withdrew at the draw are handled by the specific rules.
    pub(super) fn late_draw(
        &mut self,
        k: usize,
        (positions, upper_count, withdrawn): (&[TeamId], usize, &BTreeSet<TeamId>),
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<Drawn, RunError> {
        let plan = self.plan;
        let Some(stage) = plan.stages.get(k) else {
            return Err(RunError::new(Stop::Refused, "unknown stage"));
        };
        let at = self.stage_span(&stage.name);
        let (upper, lower) = positions.split_at(upper_count.min(positions.len()));
        let (&[u1, u2], &[l1, l2]) = (upper, lower) else {
            return Err(RunError::new(Stop::NoRule, format!(
                "the late-withdrawal rules at {} need two teams from each bracket, not {} and {}",
                stage.title,
                upper.len(),
                lower.len()
            )).at(at));
        };
        let Target::Stage(next) = stage.winners else {
            return Err(RunError::new(
                Stop::Incomplete,
                format!(
                    "the late-withdrawal rules at {} need its winners to go on to a stage",
                    stage.title
                ),
            )
            .at(at));
        };
        let Some(after) = plan.stages.get(next) else {
            return Err(RunError::new(Stop::Refused, "unknown stage"));
        };
        let n = |d: Decimal| d.to_u32().unwrap_or(0);
        let lengths = LateMatchLengths {
            feeder: n(stage.boards),
            feeder_lower_only: n(stage.withdrawal_boards.unwrap_or(stage.boards)),
            placement: n(after.boards),
            placement_lower_only: n(after.withdrawal_boards.unwrap_or(after.boards)),
        };
        let upper_losers = [u1, u2].map(|team| UpperLoser {
            team,
            plays_on: !withdrawn.contains(&team),
        });
        let planned = lw::plan_late_withdrawals(
            upper_losers,
            [l1, l2],
            lengths,
            LateWithdrawalReading::SpecificRule,
        )
        .map_err(rule_err)?;
        let shared = place_of(stage.losers);
        for t in &planned.shared {
            finals.insert(
                *t,
                shared_place(shared.as_ref(), &stage.title).map_err(|e| e.at(at))?,
            );
        }
        let exit = Exit {
            order: stage.order,
            title: stage.title.clone(),
        };
        for t in &planned.withdrawn {
            finals.insert(*t, Standing::Withdrew(exit.clone()));
        }
        let played = !matches!(planned.feeder, lw::Feeder::NotPlayed);
        let drawn = self.feeder_draw(k, planned.feeder, source)?;
        self.placement(next, stage.order, planned.placement, inflow);
        self.late_feeder = Some(Feeder {
            stage: k,
            next,
            played,
            beaten: BTreeMap::new(),
            beaten_withdrew: BTreeSet::new(),
            shared,
        });
        Ok(drawn)
    }

    /// The rearranged stage `k`'s draw: a choice, one fixed match, or none.
    fn feeder_draw(
        &mut self,
        k: usize,
        feeder: lw::Feeder,
        source: &mut dyn Source,
    ) -> Result<Drawn, RunError> {
        let Some(stage) = self.plan.stages.get(k) else {
            return Err(RunError::new(Stop::Refused, "unknown stage"));
        };
        match feeder {
            lw::Feeder::Choice {
                positions,
                boards: b,
            } => {
                self.boards_override.insert(k, boards(b));
                self.choose(
                    &stage.name,
                    &stage.title,
                    positions.choosers,
                    positions.candidates,
                    source,
                )
            }
            lw::Feeder::Fixed {
                first,
                second,
                boards: b,
            } => {
                self.boards_override.insert(k, boards(b));
                let pairings = vec![Pairing {
                    table: 1,
                    upper: first,
                    lower: second,
                }];
                let byes = Vec::new();
                Ok(Ok((DrawOutcome { pairings, byes }, Vec::new())))
            }
            lw::Feeder::NotPlayed => Ok(Ok((DrawOutcome::default(), Vec::new()))),
        }
    }

    /// The placement match after the rearranged stage (stage `next`): its length,
    /// and the teams that enter it other than the rearranged stage's winner.
    fn placement(
        &mut self,
        next: usize,
        from_order: u32,
        plan: PlacementPlan,
        inflow: &mut Inflow,
    ) {
        match plan {
            PlacementPlan::FromFeeder { boards: b } => {
                self.boards_override.insert(next, boards(b));
            }
            PlacementPlan::AgainstFeederWinner { team, boards: b } => {
                self.boards_override.insert(next, boards(b));
                inflow.entry(next).or_default().push((from_order, team));
            }
            PlacementPlan::Fixed {
                first,
                second,
                boards: b,
            } => {
                self.boards_override.insert(next, boards(b));
                let entry = inflow.entry(next).or_default();
                entry.push((from_order, first));
                entry.push((from_order, second));
            }
        }
    }
}
