//! Withdrawals late in a knockout with a consolation bracket: the two losers of the upper
//! bracket's semifinals drop into a lower-bracket semifinal (the "feeder" stage) against the two
//! lower-bracket teams, whose winners meet in a placement match (for third place). Losers of
//! the feeder share a place (for example 5/6).
//!
//! The regulations cover three cases, expressed here without stage names:
//! - **one upper loser plays on, the other not**: the two lower teams play each other, the
//!   winner meets the upper team that stays in the placement match, and the loser shares the
//!   feeder losers' place with the team that withdrew;
//! - **neither plays on**: the feeder is not played, the two lower teams meet directly in a
//!   (possibly longer) placement match, and the two upper teams share the feeder losers' place;
//! - **a feeder winner withdraws**: it shares the feeder losers' place and the team it beat
//!   takes its place in the placement match (the runner applies this one at the placement
//!   match's draw, since only then is it known).
//!
//! Where the feeder stage's own move-up clause also covers a single withdrawal, the edition
//! picks which rule wins ([`LateWithdrawalReading`]). Under the move-up reading the team that
//! withdrew is recorded as withdrawn and shares nothing. Two withdrawals are beyond a single
//! move-up clause, so they always follow the specific rule.
//!
//! The team that takes over a place (third case) takes the place only; the caller records no
//! win for it, so its ranking is unchanged.

use super::withdrawal::{ChoicePositions, choice_positions};
use super::{Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// An upper-bracket semifinal loser and whether it wants to play on in the feeder stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpperLoser {
    /// The team.
    pub team: TeamId,
    /// False if it withdraws before the feeder stage's draw.
    pub plays_on: bool,
}

/// Which rule decides when exactly one upper loser withdraws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LateWithdrawalReading {
    /// The specific late-withdrawal rule: the lower teams play each other first.
    #[default]
    SpecificRule,
    /// The feeder stage's own move-up clause: the best lower team moves up to choose.
    StageMoveUp,
}

/// Match lengths (in boards) the late-withdrawal cases use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LateMatchLengths {
    /// The feeder stage's own matches.
    pub feeder: u32,
    /// The match between the two lower teams when one upper loser withdraws.
    pub feeder_lower_only: u32,
    /// The placement match's own length.
    pub placement: u32,
    /// The placement match between the two lower teams when both upper losers withdraw.
    pub placement_lower_only: u32,
}

/// Which case applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LateCase {
    /// Both upper losers play on: the feeder stage runs as usual.
    NoWithdrawal,
    /// One upper loser withdraws.
    OneWithdraws,
    /// Both upper losers withdraw.
    BothWithdraw,
}

/// How the feeder stage is drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Feeder {
    /// By the stage's choice of opponents among these positions (run a
    /// [`ChoiceDraw`](super::choice::ChoiceDraw) with the captains' choices).
    Choice {
        /// Choosers and candidates.
        positions: ChoicePositions,
        /// Length of each match.
        boards: u32,
    },
    /// One fixed match.
    Fixed {
        /// One team.
        first: TeamId,
        /// The other team.
        second: TeamId,
        /// Length of the match.
        boards: u32,
    },
    /// The feeder stage is not played.
    NotPlayed,
}

/// Who meets whom in the placement match, once the feeder is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlacementPlan {
    /// The feeder's winners (and teams with a bye) meet.
    FromFeeder {
        /// Length of the match.
        boards: u32,
    },
    /// This team meets the winner of the feeder's single match.
    AgainstFeederWinner {
        /// The team already in the placement match.
        team: TeamId,
        /// Length of the match.
        boards: u32,
    },
    /// A fixed match.
    Fixed {
        /// One team.
        first: TeamId,
        /// The other team.
        second: TeamId,
        /// Length of the match.
        boards: u32,
    },
}

/// The plan for the last stages after the upper losers said whether they play on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatePlan {
    /// Which case applies.
    pub case: LateCase,
    /// How the feeder stage is drawn.
    pub feeder: Feeder,
    /// How the placement match is made up.
    pub placement: PlacementPlan,
    /// Teams that already share the feeder losers' place.
    pub shared: Vec<TeamId>,
    /// Teams recorded as withdrawn, sharing no place.
    pub withdrawn: Vec<TeamId>,
}

/// Plans the feeder stage and placement match from the upper losers' decisions. `upper` and
/// `lower` are in position order.
pub fn plan_late_withdrawals(
    upper: [UpperLoser; 2],
    lower: [TeamId; 2],
    lengths: LateMatchLengths,
    reading: LateWithdrawalReading,
) -> Result<LatePlan> {
    let [u1, u2] = upper;
    let [l1, l2] = lower;
    super::ensure_distinct(&[u1.team, u2.team, l1, l2])?;
    let field = [u1.team, u2.team, l1, l2];
    let out: BTreeSet<TeamId> = upper
        .iter()
        .filter(|u| !u.plays_on)
        .map(|u| u.team)
        .collect();
    let choice = |withdrawn: &BTreeSet<TeamId>| -> Result<Feeder> {
        Ok(Feeder::Choice {
            positions: choice_positions(&field, 2, withdrawn)?,
            boards: lengths.feeder,
        })
    };
    let from_feeder = PlacementPlan::FromFeeder {
        boards: lengths.placement,
    };
    Ok(match (u1.plays_on, u2.plays_on, reading) {
        (true, true, _) => LatePlan {
            case: LateCase::NoWithdrawal,
            feeder: choice(&out)?,
            placement: from_feeder,
            shared: Vec::new(),
            withdrawn: Vec::new(),
        },
        (false, false, _) => LatePlan {
            case: LateCase::BothWithdraw,
            feeder: Feeder::NotPlayed,
            placement: PlacementPlan::Fixed {
                first: l1,
                second: l2,
                boards: lengths.placement_lower_only,
            },
            shared: vec![u1.team, u2.team],
            withdrawn: Vec::new(),
        },
        (_, _, LateWithdrawalReading::StageMoveUp) => LatePlan {
            case: LateCase::OneWithdraws,
            feeder: choice(&out)?,
            placement: from_feeder,
            shared: Vec::new(),
            withdrawn: out.into_iter().collect(),
        },
        (stays, _, LateWithdrawalReading::SpecificRule) => {
            let (staying, leaving) = if stays {
                (u1.team, u2.team)
            } else {
                (u2.team, u1.team)
            };
            LatePlan {
                case: LateCase::OneWithdraws,
                feeder: Feeder::Fixed {
                    first: l1,
                    second: l2,
                    boards: lengths.feeder_lower_only,
                },
                placement: PlacementPlan::AgainstFeederWinner {
                    team: staying,
                    boards: lengths.placement,
                },
                shared: vec![leaving],
                withdrawn: Vec::new(),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::KnockoutError;
    use crate::engine::knockout::choice::TableNumbering;
    use crate::engine::knockout::test_support::run_choice;

    fn t(n: u32) -> TeamId {
        TeamId(n)
    }

    const LENGTHS: LateMatchLengths = LateMatchLengths {
        feeder: 32,
        feeder_lower_only: 32,
        placement: 32,
        placement_lower_only: 64,
    };

    fn upper(a: bool, b: bool) -> [UpperLoser; 2] {
        [
            UpperLoser {
                team: t(1),
                plays_on: a,
            },
            UpperLoser {
                team: t(2),
                plays_on: b,
            },
        ]
    }

    fn plan(a: bool, b: bool, reading: LateWithdrawalReading) -> LatePlan {
        plan_late_withdrawals(upper(a, b), [t(3), t(4)], LENGTHS, reading).unwrap()
    }

    #[test]
    fn without_withdrawals_the_feeder_is_the_usual_choice() {
        let p = plan(true, true, LateWithdrawalReading::default());
        assert_eq!(p.case, LateCase::NoWithdrawal);
        let Feeder::Choice { positions, boards } = &p.feeder else {
            panic!("expected a choice, got {:?}", p.feeder)
        };
        assert_eq!(
            (positions.choosers.clone(), *boards),
            (vec![t(1), t(2)], 32)
        );
        assert_eq!(p.placement, PlacementPlan::FromFeeder { boards: 32 });
        assert!(p.shared.is_empty() && p.withdrawn.is_empty());
    }

    #[test]
    fn case_a_the_lower_teams_play_first() {
        // Upper loser 2 withdraws: 3 v 4 over 32, the winner meets 1; 2 shares the place.
        let p = plan(true, false, LateWithdrawalReading::SpecificRule);
        assert_eq!(p.case, LateCase::OneWithdraws);
        assert_eq!(
            p.feeder,
            Feeder::Fixed {
                first: t(3),
                second: t(4),
                boards: 32
            }
        );
        assert_eq!(
            p.placement,
            PlacementPlan::AgainstFeederWinner {
                team: t(1),
                boards: 32
            }
        );
        assert_eq!(p.shared, vec![t(2)]);
        assert!(p.withdrawn.is_empty());
    }

    #[test]
    fn case_a_under_the_stage_move_up_reading() {
        // Item 11, other reading: 2 and 3 choose, 2 gets 4, 3 goes straight to the placement
        // match; 1 is recorded as withdrawn.
        let p = plan(false, true, LateWithdrawalReading::StageMoveUp);
        let Feeder::Choice { positions, .. } = &p.feeder else {
            panic!("expected a choice, got {:?}", p.feeder)
        };
        assert_eq!(positions.choosers, vec![t(2), t(3)]);
        let draw = run_choice(
            positions.choosers.clone(),
            positions.candidates.clone(),
            &[],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(draw.byes, vec![t(3)]);
        assert_eq!(p.placement, PlacementPlan::FromFeeder { boards: 32 });
        assert!(p.shared.is_empty());
        assert_eq!(p.withdrawn, vec![t(1)]);
    }

    #[test]
    fn case_b_the_lower_teams_meet_for_the_place_over_the_longer_match() {
        let p = plan(false, false, LateWithdrawalReading::default());
        assert_eq!(
            (p.case, &p.feeder),
            (LateCase::BothWithdraw, &Feeder::NotPlayed)
        );
        assert_eq!(
            p.placement,
            PlacementPlan::Fixed {
                first: t(3),
                second: t(4),
                boards: 64
            }
        );
        assert_eq!(p.shared, vec![t(1), t(2)]);
    }

    #[test]
    fn a_team_twice_is_an_error() {
        assert_eq!(
            plan_late_withdrawals(
                upper(true, false),
                [t(3), t(1)],
                LENGTHS,
                LateWithdrawalReading::default()
            ),
            Err(KnockoutError::DuplicateTeam(t(1)))
        );
    }
}
