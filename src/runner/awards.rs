//! What a run hands out besides the matches: the district prize, challenge-trophy
//! points, each match's seating, and the final places.

use super::plan;
use super::report::FinalLine;
use super::{RunError, Runner, Source, rule_err};
use crate::engine::knockout::TeamId;
use crate::eval::Evaluator;
use crate::ir::{Type, Unit, Value};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

impl Runner<'_> {
    /// The district team that got furthest: a final place beats any exit, a better
    /// place a worse one, a later exit an earlier one; equal reach goes to the better
    /// qualification place (CC-DISTRICT).
    pub(super) fn district_prize(
        &self,
        finals: &BTreeMap<TeamId, String>,
        placements: &[(TeamId, u32)],
    ) -> Option<(u32, String)> {
        let prize = self.plan.district_prize.clone()?;
        let exit_order: BTreeMap<String, u32> = self
            .plan
            .stages
            .iter()
            .flat_map(|s| {
                [
                    (format!("out at {}", s.title), s.order),
                    (format!("withdrew at {}", s.title), s.order),
                ]
            })
            .collect();
        let reach = |team: TeamId| -> (u32, u32) {
            let standing = finals.get(&team).map_or("", String::as_str);
            match standing
                .split('/')
                .next()
                .and_then(|p| p.parse::<u32>().ok())
            {
                Some(place) => (0, place),
                None => (1, u32::MAX - exit_order.get(standing).copied().unwrap_or(0)),
            }
        };
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
    pub(super) fn trophy_points(
        &self,
        finals: &BTreeMap<TeamId, String>,
    ) -> Result<Vec<(u32, String)>, RunError> {
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
            let Ok(place) = standing.parse::<u32>() else {
                continue;
            };
            let v = Evaluator::new(self.program)
                .call(
                    rule,
                    vec![Value::Num(Decimal::from(place), unit.clone())],
                    Default::default(),
                )
                .map_err(|e| {
                    RunError::Rule(format!("trophy points for place {place}: {}", e.message))
                })?;
            if matches!(&v, Value::Num(n, _) if n.is_zero()) {
                continue;
            }
            out.push((team.0, v.show(self.program)));
        }
        out.sort_by_key(|(t, _)| finals.get(&TeamId(*t)).and_then(|s| s.parse::<u32>().ok()));
        Ok(out)
    }

    /// Seating for a match: the away team sits first, or the segments' seating
    /// rights from the teams' picks (CC-SEATING; the rule, not the document's
    /// contradicting example, AMB-30).
    pub(super) fn seating(
        &self,
        stage: &plan::Stage,
        sides: crate::engine::knockout::seating::Sides,
        boards: Decimal,
        source: &mut dyn Source,
    ) -> Result<Option<String>, RunError> {
        // A rule of the match length decides per match: a 64-board play-off that the
        // late-withdrawal rules made is seated by segments (AMB-12).
        let method = match stage.seating {
            None => None,
            Some(plan::SeatingSource::Fixed(m)) => Some(m),
            Some(plan::SeatingSource::Rule(rule)) => {
                let info = self.program.rules.get(rule as usize);
                let unit = match info.and_then(|r| r.params.first()) {
                    Some((_, Type::Num(u))) => u.clone(),
                    _ => Unit::none(),
                };
                let v = Evaluator::new(self.program)
                    .call(rule, vec![Value::Num(boards, unit)], Default::default())
                    .map_err(|e| {
                        RunError::Rule(format!(
                            "the document has no seating rule for a match of {} boards: {}",
                            boards.normalize(),
                            e.message
                        ))
                    })?;
                let name = match &v {
                    Value::Enum(e, i) => self
                        .program
                        .enums
                        .get(*e as usize)
                        .and_then(|x| x.variants.get(*i as usize))
                        .cloned()
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let Some((_, m)) = plan::SEATING_NAMES.iter().find(|(n, _)| *n == name) else {
                    return Err(RunError::Plan(format!(
                        "the seating rule gives `{name}`; the engine knows AwayFirst and SegmentChoice"
                    )));
                };
                Some(*m)
            }
        };
        Ok(match method {
            None => None,
            Some(plan::Seating::AwayFirst) => {
                Some(format!("team {} (away) sits first", sides.sits_first().0))
            }
            Some(plan::Seating::SegmentChoice) => {
                match source.segment_picks(&stage.name, sides.home.0, sides.away.0) {
                    None => Some("segments: to be picked".into()),
                    Some((home_pick, away_pick)) => {
                        let rights = crate::engine::knockout::seating::assign_segments(
                            sides,
                            [[1, 2], [3, 4]],
                            home_pick,
                            away_pick,
                        )
                        .map_err(rule_err)?;
                        let parts: Vec<String> = rights
                            .iter()
                            .map(|(seg, team)| format!("{seg}: team {}", team.0))
                            .collect();
                        Some(format!("seating rights by segment {}", parts.join(", ")))
                    }
                }
            }
        })
    }
}

/// Places first (1, 2, 3, 4, 5/6 …), then exits by team.
pub(super) fn final_lines(finals: &BTreeMap<TeamId, String>) -> Vec<FinalLine> {
    let mut lines: Vec<FinalLine> = finals
        .iter()
        .map(|(t, s)| FinalLine {
            standing: s.clone(),
            team: t.0,
        })
        .collect();
    let key = |l: &FinalLine| {
        let first: Option<u32> = l.standing.split('/').next().and_then(|x| x.parse().ok());
        (first.is_none(), first.unwrap_or(u32::MAX), l.team)
    };
    lines.sort_by_key(key);
    lines
}
