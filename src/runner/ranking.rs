//! The full final ranking: the places the rules give (1, 2, 3, 4, 5/6 …), then every
//! other team by how far it got and, among the teams that left at the same stage, by
//! the edition's reading (`lower_places`).

use super::report::{FinalLine, Rank, Standing};
use super::{Finals, RunError, Runner, rule_err};
use crate::engine::knockout::TeamId;
use crate::engine::knockout::ranking::RankingBook;
use crate::ir::vocabulary::LowerPlaces;
use std::collections::BTreeMap;

impl Runner<'_> {
    /// Every team's final line, best first: the places the rules give, then the
    /// teams that left without one. Those rank below every place, a later exit above
    /// an earlier one (going out and withdrawing at a stage reach equally far); the
    /// qualification's teams by their qualification place; within a knockout stage
    /// by the edition's `lower_places` reading.
    pub(super) fn final_ranking(
        &self,
        finals: &Finals,
        book: &RankingBook,
    ) -> Result<Vec<FinalLine>, RunError> {
        let mut lines: Vec<FinalLine> = Vec::new();
        // Exits grouped by stage, the latest stage first.
        let mut exits: BTreeMap<std::cmp::Reverse<u32>, Vec<TeamId>> = BTreeMap::new();
        let mut next = 1;
        for (team, standing) in finals {
            match standing {
                Standing::Place { first, last } => {
                    next = next.max(last.saturating_add(1));
                    lines.push(line(standing, *team, Some((*first, *last))));
                }
                Standing::Out(exit) | Standing::Withdrew(exit) => exits
                    .entry(std::cmp::Reverse(exit.order))
                    .or_default()
                    .push(*team),
            }
        }
        let qualification = |t: &TeamId| book.qualification(*t).unwrap_or(u32::MAX);
        for (std::cmp::Reverse(order), mut teams) in exits {
            teams.sort_by_key(|t| (qualification(t), t.0));
            let n = u32::try_from(teams.len()).unwrap_or(u32::MAX);
            let last = next.saturating_add(n).saturating_sub(1);
            let ranked: Vec<(TeamId, Option<(u32, u32)>)> = match self.plan.lower_places {
                LowerPlaces::NoPlace => teams.iter().map(|t| (*t, None)).collect(),
                // The qualification's standings rank its teams (its places are theirs).
                _ if order == 0 => own_places(&teams, next),
                LowerPlaces::CurrentRanking => own_places(
                    &book.sort(&teams, self.plan.ranking.tie).map_err(rule_err)?,
                    next,
                ),
                LowerPlaces::QualificationPlacement => own_places(&teams, next),
                LowerPlaces::SharedByStage => {
                    teams.iter().map(|t| (*t, Some((next, last)))).collect()
                }
            };
            for (team, rank) in ranked {
                if let Some(standing) = finals.get(&team) {
                    lines.push(line(standing, team, rank));
                }
            }
            next = last.saturating_add(1);
        }
        // The ranked first, by place; teams without a place keep the order above.
        lines.sort_by_key(|l| l.rank.map_or(u32::MAX, |r| r.first));
        Ok(lines)
    }
}

/// `teams` in order, each its own place from `first` on.
fn own_places(teams: &[TeamId], first: u32) -> Vec<(TeamId, Option<(u32, u32)>)> {
    (0u32..)
        .zip(teams)
        .map(|(i, t)| {
            let p = first.saturating_add(i);
            (*t, Some((p, p)))
        })
        .collect()
}

fn line(standing: &Standing, team: TeamId, rank: Option<(u32, u32)>) -> FinalLine {
    FinalLine {
        standing: standing.clone(),
        team: team.0,
        rank: rank.map(|(first, last)| Rank { first, last }),
    }
}
