//! Final placements of a knockout: places 1..k come from the last matches (winner and loser
//! places of a final and of a placement match) and from shared places (the losers of a stage,
//! and teams that withdrew late, sharing for example 5/6). No place is given below those the
//! regulations name: every other team is "out" at the stage where it lost or withdrew.
//!
//! The caller says which match or group gives which places; nothing here knows how many places
//! an edition awards.

use super::outcome::MatchOutcome;
use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A source of places.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceSource {
    /// A match whose winner and loser get a place each (a final: 1 and 2).
    Match {
        /// The match result.
        outcome: MatchOutcome,
        /// The winner's place.
        winner_place: u32,
        /// The loser's place.
        loser_place: u32,
    },
    /// Teams that share the places `first..=last` (for example the losers of a stage).
    Shared {
        /// The first place of the range.
        first: u32,
        /// The last place of the range.
        last: u32,
        /// The teams sharing it: at least one, at most as many as the range has places.
        teams: Vec<TeamId>,
    },
}

/// Where a team went out, for teams without a place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit {
    /// The team.
    pub team: TeamId,
    /// The stage where it lost or withdrew (or the qualification, for teams that never
    /// reached the knockout), as the edition names it.
    pub stage: String,
    /// True if it withdrew rather than lost.
    pub withdrew: bool,
}

/// A team's final standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// Places `first..=last`; shared when `first < last`.
    Placed {
        /// The first place of the range.
        first: u32,
        /// The last place of the range.
        last: u32,
    },
    /// Out at a stage, without a place.
    Out {
        /// The stage's name.
        stage: String,
        /// True if the team withdrew.
        withdrew: bool,
    },
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Placed { first, last } if first == last => write!(f, "{first}"),
            Self::Placed { first, last } => write!(f, "{first}/{last}"),
            Self::Out {
                stage,
                withdrew: false,
            } => write!(f, "out at {stage}"),
            Self::Out {
                stage,
                withdrew: true,
            } => write!(f, "withdrew at {stage}"),
        }
    }
}

/// The standing of every team in `field`. A team with a place ignores its exit, so the caller
/// may list for every team the stage where it lost. Places 1..=k must each be given once.
pub fn placements(
    field: &[TeamId],
    sources: &[PlaceSource],
    exits: &[Exit],
) -> Result<BTreeMap<TeamId, Standing>> {
    super::ensure_distinct(field)?;
    let mut standings = BTreeMap::new();
    let mut places_given = BTreeSet::new();
    let mut give = |team: TeamId, first: u32, last: u32| -> Result<()> {
        if !field.contains(&team) {
            return Err(KnockoutError::UnknownTeam(team));
        }
        if standings
            .insert(team, Standing::Placed { first, last })
            .is_some()
        {
            return Err(KnockoutError::PlacedTwice(format!("a place for {team}")));
        }
        Ok(())
    };
    for source in sources {
        let range: Vec<u32> = match source {
            PlaceSource::Match {
                outcome,
                winner_place,
                loser_place,
            } => {
                give(outcome.winner, *winner_place, *winner_place)?;
                give(outcome.loser, *loser_place, *loser_place)?;
                vec![*winner_place, *loser_place]
            }
            PlaceSource::Shared { first, last, teams } => {
                let span = last.checked_sub(*first).map(|d| d.saturating_add(1));
                if teams.is_empty()
                    || span.is_none_or(|n| usize::try_from(n).is_ok_and(|n| n < teams.len()))
                {
                    return Err(KnockoutError::NoRule(format!(
                        "{} teams sharing places {first} to {last}",
                        teams.len()
                    )));
                }
                for team in teams {
                    give(*team, *first, *last)?;
                }
                (*first..=*last).collect()
            }
        };
        for place in range {
            if place == 0 || !places_given.insert(place) {
                return Err(KnockoutError::PlacedTwice(format!("place {place}")));
            }
        }
    }
    if let Some(max) = places_given.last().copied()
        && let Some(gap) = (1..=max).find(|p| !places_given.contains(p))
    {
        return Err(KnockoutError::PlaceUnfilled(gap));
    }
    for exit in exits {
        if !field.contains(&exit.team) {
            return Err(KnockoutError::UnknownTeam(exit.team));
        }
        if let Some(Standing::Out { .. }) = standings.get(&exit.team) {
            return Err(KnockoutError::PlacedTwice(format!(
                "an exit for {}",
                exit.team
            )));
        }
        standings.entry(exit.team).or_insert_with(|| Standing::Out {
            stage: exit.stage.clone(),
            withdrew: exit.withdrew,
        });
    }
    if let Some(team) = field.iter().find(|t| !standings.contains_key(t)) {
        return Err(KnockoutError::NoStanding(*team));
    }
    Ok(standings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::outcome::Decision;

    fn t(n: u32) -> TeamId {
        TeamId(n)
    }

    fn won(winner: u32, loser: u32) -> MatchOutcome {
        MatchOutcome {
            winner: t(winner),
            loser: t(loser),
            decision: Decision::Imps,
        }
    }

    fn out(team: u32, stage: &str) -> Exit {
        Exit {
            team: t(team),
            stage: stage.into(),
            withdrew: false,
        }
    }

    #[test]
    fn places_from_matches_and_a_shared_place_and_everyone_else_out() {
        let field: Vec<TeamId> = (1..=9).map(TeamId).collect();
        let sources = [
            PlaceSource::Match {
                outcome: won(1, 2),
                winner_place: 1,
                loser_place: 2,
            },
            PlaceSource::Match {
                outcome: won(4, 3),
                winner_place: 3,
                loser_place: 4,
            },
            PlaceSource::Shared {
                first: 5,
                last: 6,
                teams: vec![t(6), t(5)],
            },
        ];
        // The final's loser is also listed as out at the final: its place wins.
        let exits = [
            out(2, "final"),
            out(7, "quarterfinal"),
            out(8, "quarterfinal"),
            Exit {
                team: t(9),
                stage: "semifinal".into(),
                withdrew: true,
            },
        ];
        let s = placements(&field, &sources, &exits).unwrap();
        let shown: Vec<String> = s.values().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "1",
                "2",
                "4",
                "3",
                "5/6",
                "5/6",
                "out at quarterfinal",
                "out at quarterfinal",
                "withdrew at semifinal"
            ]
        );
    }

    #[test]
    fn every_team_needs_a_standing_and_places_must_be_whole() {
        let field = [t(1), t(2), t(3)];
        let final_only = [PlaceSource::Match {
            outcome: won(1, 2),
            winner_place: 1,
            loser_place: 2,
        }];
        assert_eq!(
            placements(&field, &final_only, &[]),
            Err(KnockoutError::NoStanding(t(3)))
        );
        let gap = [PlaceSource::Match {
            outcome: won(1, 2),
            winner_place: 1,
            loser_place: 3,
        }];
        assert_eq!(
            placements(&field, &gap, &[out(3, "semifinal")]),
            Err(KnockoutError::PlaceUnfilled(2))
        );
        let twice = [
            final_only[0].clone(),
            PlaceSource::Shared {
                first: 2,
                last: 3,
                teams: vec![t(3)],
            },
        ];
        assert!(matches!(
            placements(&field, &twice, &[]),
            Err(KnockoutError::PlacedTwice(_))
        ));
    }
}
