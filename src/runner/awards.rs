//! What a run hands out besides the matches: the district prize, challenge-trophy
//! points and each match's seating (the final ranking is `ranking`).

use super::plan;
use super::report::{MatchSeating, Standing};
use super::{Finals, RunError, Runner, Source, Stop};
use crate::engine::knockout::TeamId;
use crate::engine::knockout::seating::Sides;
use crate::eval::Evaluator;
use crate::ir::competition::{RuleOf, Seating, SegmentRights};
use crate::ir::vocabulary::{SeatingMethod, Side};
use crate::ir::{Type, Unit, Value};
use rust_decimal::Decimal;

impl Runner<'_> {
    /// The district team that got furthest: a final place beats any exit, a better
    /// place a worse one, a later exit an earlier one; equal reach goes to the better
    /// qualification place (CC-DISTRICT).
    pub(super) fn district_prize(
        &self,
        finals: &Finals,
        placements: &[(TeamId, u32)],
    ) -> Option<(u32, String)> {
        let prize = self.plan.district_prize.clone()?;
        // A team without a standing has reached least far.
        let reach = |team: TeamId| finals.get(&team).map_or((1, u32::MAX), Standing::reach);
        let gh = |team: TeamId| {
            placements
                .iter()
                .find(|(t, _)| *t == team)
                .map_or(u32::MAX, |(_, p)| *p)
        };
        self.options
            .district_teams
            .iter()
            .map(|t| TeamId(*t))
            .min_by_key(|t| (reach(*t), gh(*t), t.0))
            .map(|t| (t.0, prize))
    }

    /// Challenge-trophy points of each team with a final place of its own, from the
    /// edition's rule; a team whose place earns nothing is left out.
    pub(super) fn trophy_points(&self, finals: &Finals) -> Result<Vec<(u32, String)>, RunError> {
        let Some(rule) = self.plan.trophy_points else {
            return Ok(Vec::new());
        };
        let unit = match self
            .program
            .rules
            .get(rule as usize)
            .and_then(|r| r.params.first())
        {
            Some((_, Type::Num(u))) => u.clone(),
            _ => Unit::none(),
        };
        let mut out = Vec::new();
        for (team, standing) in finals {
            let Some(place) = standing.single_place() else {
                continue;
            };
            let v = Evaluator::prepared(self.program, self.prepared)
                .call(
                    rule,
                    vec![Value::Num(Decimal::from(place), unit.clone())],
                    Default::default(),
                )
                .map_err(|e| {
                    let message = format!("trophy points for place {place}: {}", e.message);
                    RunError::new(Stop::Refused, message).at(self.rule_span(rule))
                })?;
            if matches!(&v, Value::Num(n, _) if n.is_zero()) {
                continue;
            }
            out.push((team.0, v.show(self.program)));
        }
        out.sort_by_key(|(t, _)| finals.get(&TeamId(*t)).and_then(Standing::single_place));
        Ok(out)
    }

    /// Seating for a match: the away team sits first, or the segments' seating
    /// rights from the teams' picks by the edition's own rule (CC-SEATING; the rule,
    /// not the document's contradicting example, AMB-30).
    pub(super) fn seating(
        &self,
        stage: &plan::Stage,
        sides: Sides,
        boards: Decimal,
        source: &mut dyn Source,
    ) -> Result<Option<MatchSeating>, RunError> {
        // A rule of the match length decides per match: a 64-board play-off that the
        // late-withdrawal rules made is seated by segments (AMB-12).
        let method = match &stage.seating {
            None => return Ok(None),
            Some(Seating::Method(m)) => *m,
            Some(Seating::ByBoards(rule)) => {
                let v = self.call(rule.rule, &[boards]).map_err(|e| {
                    let message = format!(
                        "the document has no seating rule for a match of {} boards: {e}",
                        boards.normalize()
                    );
                    RunError::new(Stop::NoRule, message).at(self.rule_span(rule.rule))
                })?;
                meaning_of(rule, &v).ok_or_else(|| {
                    let message = format!("`{}` gave no seating method", rule.name);
                    RunError::new(Stop::Refused, message).at(self.rule_span(rule.rule))
                })?
            }
        };
        match method {
            SeatingMethod::AwaySitsFirst => Ok(Some(MatchSeating::AwaySitsFirst {
                team: sides.sits_first().0,
            })),
            SeatingMethod::NoRule => {
                let message = format!(
                    "the document has no seating rule for a match of {} boards",
                    boards.normalize()
                );
                Err(RunError::new(Stop::NoRule, message).at(self.stage_span(&stage.name)))
            }
            SeatingMethod::SegmentChoice => {
                let (segments, rights) = self.segments(stage, boards)?;
                let allowed = self.allowed_picks(segments, rights)?;
                let (home, away) = (sides.home.0, sides.away.0);
                match source.segment_picks(&stage.name, home, away, &allowed) {
                    None => Ok(Some(MatchSeating::SegmentsToBePicked)),
                    Some(picks) if !allowed.contains(&picks) => {
                        let message = format!(
                            "segment picks {} (home) and {} (away) are not allowed",
                            picks.0, picks.1
                        );
                        let at = rights.picks_valid.and_then(|r| self.rule_span(r));
                        Err(RunError::new(Stop::Refused, message).at(at))
                    }
                    Some(picks) => self
                        .segment_rights(segments, rights, sides, picks)
                        .map(Some),
                }
            }
        }
    }

    /// A match's segments and the edition's rule for their rights; a match the
    /// late-withdrawal rules made has its own length and segments.
    fn segments(
        &self,
        stage: &plan::Stage,
        boards: Decimal,
    ) -> Result<(u32, &'_ SegmentRights), RunError> {
        let segments = match stage.withdrawal_boards {
            Some(b) if b == boards && b != stage.boards => stage.withdrawal_segments,
            _ => stage.segments,
        };
        match (segments, &self.plan.segment_rights) {
            (Some(n), Some(rights)) => Ok((n, rights)),
            _ => {
                let message = format!(
                    "`{}` seats by segments, but the edition does not say how many segments \
                     (`segments`, `withdrawal_segments`) or who has the rights (`segment_rights`)",
                    stage.name
                );
                Err(RunError::new(Stop::Incomplete, message).at(self.stage_span(&stage.name)))
            }
        }
    }

    /// Every pair of picks the edition allows (`segment_picks_valid`; without it, any
    /// two different segments).
    fn allowed_picks(
        &self,
        segments: u32,
        rights: &SegmentRights,
    ) -> Result<Vec<(u32, u32)>, RunError> {
        let mut allowed = Vec::new();
        for home in 1..=segments {
            for away in (1..=segments).filter(|a| *a != home) {
                let ok = match rights.picks_valid {
                    None => true,
                    Some(rule) => {
                        let picks = [Decimal::from(home), Decimal::from(away)];
                        self.call(rule, &picks).map_err(|e| self.refused(rule, e))?
                            == Value::Bool(true)
                    }
                };
                if ok {
                    allowed.push((home, away));
                }
            }
        }
        Ok(allowed)
    }

    /// Who has the seating rights in each segment, by the edition's rule.
    fn segment_rights(
        &self,
        segments: u32,
        rights: &SegmentRights,
        sides: Sides,
        (home_pick, away_pick): (u32, u32),
    ) -> Result<MatchSeating, RunError> {
        let picks = [Decimal::from(home_pick), Decimal::from(away_pick)];
        let mut rights_by_segment = Vec::new();
        for segment in 1..=segments {
            let args = [Decimal::from(segment), picks[0], picks[1]];
            let v = self
                .call(rights.rights.rule, &args)
                .map_err(|e| self.refused(rights.rights.rule, e))?;
            let team = match meaning_of(&rights.rights, &v) {
                Some(Side::Home) => sides.home,
                Some(Side::Away) => sides.away,
                None => {
                    let message = format!("`{}` gave no side", rights.rights.name);
                    let at = self.rule_span(rights.rights.rule);
                    return Err(RunError::new(Stop::Refused, message).at(at));
                }
            };
            rights_by_segment.push((segment, team.0));
        }
        Ok(MatchSeating::SegmentRights {
            rights: rights_by_segment,
        })
    }

    /// Rule `rule` of the edition failed when the run called it.
    fn refused(&self, rule: u32, message: String) -> RunError {
        RunError::new(Stop::Refused, message).at(self.rule_span(rule))
    }

    /// Calls a rule of the edition with numbers in its parameters' units.
    fn call(&self, rule: u32, args: &[Decimal]) -> Result<Value, String> {
        let params = self
            .program
            .rules
            .get(rule as usize)
            .map(|r| r.params.as_slice())
            .unwrap_or_default();
        let values = args
            .iter()
            .zip(params)
            .map(|(n, (_, ty))| match ty {
                Type::Num(u) => Value::Num(*n, u.clone()),
                _ => Value::Num(*n, Unit::none()),
            })
            .collect();
        Evaluator::prepared(self.program, self.prepared)
            .call(rule, values, Default::default())
            .map_err(|e| e.message)
    }
}

/// The meaning of the enum value a rule gave.
fn meaning_of<T: Copy>(rule: &RuleOf<T>, v: &Value) -> Option<T> {
    match v {
        Value::Enum(_, i) => rule.meanings.get(*i as usize).copied().flatten(),
        _ => None,
    }
}
