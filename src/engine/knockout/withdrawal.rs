//! Withdrawals in the knockout stages before the final ones, at the time of a choice of
//! opponents.
//!
//! At the time of the choice, a stage's move-up clause keeps the number of choosers: the first
//! k teams still in, in position order, choose; so a withdrawal among the choosers moves the
//! next team up (two withdrawals, two teams). A chooser left without a team to choose goes
//! through without a match ([`ChoiceDraw`](super::choice::ChoiceDraw) handles that). A stage
//! whose text has no such clause reports any withdrawal as "no rule".
//!
//! After the draw a withdrawal is a walkover
//! ([`resolve_walkover`](super::outcome::resolve_walkover)) where the stage allows it.

use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Who chooses and who is chosen once the teams that withdrew are taken out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoicePositions {
    /// Choosers, in turn order.
    pub choosers: Vec<TeamId>,
    /// Teams to choose from, best first.
    pub candidates: Vec<TeamId>,
    /// The teams that withdrew, in position order.
    pub withdrawn: Vec<TeamId>,
}

/// Splits a field sorted in position order into choosers and candidates after withdrawals at
/// the time of the choice, by a move-up clause: the first `choosers` teams still in choose;
/// the rest are chosen from. (A stage without such a clause never gets here: the runner
/// stops at a withdrawal there with "no rule".)
pub fn choice_positions(
    sorted: &[TeamId],
    choosers: usize,
    withdrawn: &BTreeSet<TeamId>,
) -> Result<ChoicePositions> {
    super::ensure_distinct(sorted)?;
    if let Some(team) = withdrawn.iter().find(|t| !sorted.contains(t)) {
        return Err(KnockoutError::UnknownTeam(*team));
    }
    let (out, still_in): (Vec<TeamId>, Vec<TeamId>) =
        sorted.iter().partition(|t| withdrawn.contains(t));
    let split = choosers.min(still_in.len());
    let (upper, lower) = still_in.split_at(split);
    Ok(ChoicePositions {
        choosers: upper.to_vec(),
        candidates: lower.to_vec(),
        withdrawn: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::choice::TableNumbering;
    use crate::engine::knockout::test_support::run_choice;

    use crate::engine::knockout::test_support::{ids, p, t};

    fn field() -> Vec<TeamId> {
        ids(&[1, 2, 3, 4, 5, 6, 7, 8])
    }

    #[test]
    fn a_withdrawal_among_the_choosers_moves_the_next_team_up() {
        // Item 7: 2 withdraws, 7 teams left; 5 moves up to choose, and as the last chooser it
        // is left without a team and goes through without a match.
        let w = BTreeSet::from([t(2)]);
        let pos = choice_positions(&field(), 4, &w).unwrap();
        assert_eq!(pos.choosers, ids(&[1, 3, 4, 5]));
        assert_eq!(pos.candidates, ids(&[6, 7, 8]));
        assert_eq!(pos.withdrawn, ids(&[2]));
        let out = run_choice(
            pos.choosers,
            pos.candidates,
            &[(t(1), t(8)), (t(3), t(6))],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(out.pairings, vec![p(1, 1, 8), p(2, 3, 6), p(3, 4, 7)]);
        assert_eq!(out.byes, ids(&[5]));
    }

    #[test]
    fn two_withdrawals_move_two_teams_up() {
        let w = BTreeSet::from([t(1), t(3)]);
        let pos = choice_positions(&field(), 4, &w).unwrap();
        assert_eq!(pos.choosers, ids(&[2, 4, 5, 6]));
        assert_eq!(pos.candidates, ids(&[7, 8]));
    }

    #[test]
    fn a_withdrawal_among_the_chosen_keeps_the_choosers() {
        // Item 8: 7 withdraws; 1–4 still choose, and the last chooser goes through.
        let w = BTreeSet::from([t(7)]);
        let pos = choice_positions(&field(), 4, &w).unwrap();
        assert_eq!(pos.choosers, ids(&[1, 2, 3, 4]));
        let out = run_choice(
            pos.choosers,
            pos.candidates,
            &[(t(1), t(5)), (t(2), t(8))],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(out.pairings, vec![p(1, 1, 5), p(2, 2, 8), p(3, 3, 6)]);
        assert_eq!(out.byes, ids(&[4]));
    }

    #[test]
    fn a_withdrawn_team_must_be_in_the_field() {
        let stranger = BTreeSet::from([t(9)]);
        assert_eq!(
            choice_positions(&field(), 4, &stranger),
            Err(KnockoutError::UnknownTeam(t(9)))
        );
    }
}
