//! Choice of opponents: choosers, in a fixed order, each pick an opponent among a set of
//! candidates; the last chooser gets the team left over.
//!
//! The order of the choosers and of the candidates is the caller's: "the upper half chooses
//! among the lower half" of one sorted field, or positions built by origin — one group
//! choosing among another, each sorted on its own ([`ChoiceDraw::new`]). Every choice is checked (turn, candidate, not yet taken) so a
//! director's record of the captains' meeting can be validated as it is entered.
//!
//! When a chooser faces a single candidate it takes it without choosing. When there are more
//! choosers than candidates (after a withdrawal at the time of the choice), the choosers left
//! without a candidate go through without a match.

use super::draw::{DrawOutcome, Pairing, table_number};
use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which table a chosen match is played at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TableNumbering {
    /// The match of the chooser in position p is at table p, whenever it chose.
    #[default]
    ChooserPosition,
    /// Tables are numbered in the order the matches were decided.
    OrderOfChoice,
}

/// A choice of opponents in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceDraw {
    choosers: Vec<TeamId>,
    candidates: Vec<TeamId>,
    numbering: TableNumbering,
    /// chooser → (team chosen, how many matches were decided before it)
    chosen: BTreeMap<TeamId, (TeamId, usize)>,
    /// candidate → the chooser that took it
    taken_by: BTreeMap<TeamId, TeamId>,
}

impl ChoiceDraw {
    /// A choice where `choosers` (in turn order) pick among `candidates` (best first).
    pub fn new(
        choosers: Vec<TeamId>,
        candidates: Vec<TeamId>,
        numbering: TableNumbering,
    ) -> Result<Self> {
        super::ensure_distinct(choosers.iter().chain(&candidates))?;
        let mut draw = Self {
            choosers,
            candidates,
            numbering,
            chosen: BTreeMap::new(),
            taken_by: BTreeMap::new(),
        };
        draw.take_forced()?;
        Ok(draw)
    }

    /// The first chooser in order that has not chosen, while candidates are left.
    pub fn next_chooser(&self) -> Option<TeamId> {
        if self.remaining_candidates().is_empty() {
            return None;
        }
        self.waiting_choosers().next()
    }

    /// Choosers that have not chosen yet, in turn order.
    pub fn waiting_choosers(&self) -> impl Iterator<Item = TeamId> + '_ {
        self.choosers
            .iter()
            .copied()
            .filter(|c| !self.chosen.contains_key(c))
    }

    /// The candidates nobody has taken yet, best first.
    pub fn remaining_candidates(&self) -> Vec<TeamId> {
        self.candidates
            .iter()
            .copied()
            .filter(|c| !self.taken_by.contains_key(c))
            .collect()
    }

    /// Records that `chooser` chose `chosen`, in turn. Re-entering a choice the procedure
    /// already made on the chooser's behalf (a single candidate left) is accepted.
    pub fn choose(&mut self, chooser: TeamId, chosen: TeamId) -> Result<()> {
        if self.chosen.get(&chooser).map(|(team, _)| *team) == Some(chosen) {
            return Ok(());
        }
        let expected = self.next_chooser();
        if expected != Some(chooser) {
            if !self.choosers.contains(&chooser) {
                return Err(KnockoutError::UnknownTeam(chooser));
            }
            if expected.is_none() {
                return Err(KnockoutError::ChoiceAfterEnd(chooser));
            }
            return Err(KnockoutError::OutOfTurn {
                team: chooser,
                expected,
            });
        }
        self.take(chooser, chosen)?;
        self.take_forced()
    }

    /// Assigns `chosen` to `chooser` without checking whose turn it is; checks everything else.
    /// The absent-chooser procedure decides turns itself and uses this.
    pub(crate) fn take(&mut self, chooser: TeamId, chosen: TeamId) -> Result<()> {
        if !self.choosers.contains(&chooser) {
            return Err(KnockoutError::UnknownTeam(chooser));
        }
        if self.chosen.contains_key(&chooser) {
            return Err(KnockoutError::OutOfTurn {
                team: chooser,
                expected: self.next_chooser(),
            });
        }
        if !self.candidates.contains(&chosen) {
            return Err(KnockoutError::NotACandidate(chosen));
        }
        if let Some(by) = self.taken_by.get(&chosen) {
            return Err(KnockoutError::AlreadyChosen {
                team: chosen,
                by: *by,
            });
        }
        self.chosen.insert(chooser, (chosen, self.taken_by.len()));
        self.taken_by.insert(chosen, chooser);
        Ok(())
    }

    /// A chooser facing a single candidate has nothing to choose: it gets that team.
    fn take_forced(&mut self) -> Result<()> {
        if let [only] = self.remaining_candidates().as_slice()
            && let Some(chooser) = self.next_chooser()
        {
            self.take(chooser, *only)?;
        }
        Ok(())
    }

    /// The draw's matches and byes. Fails if a chooser still has a choice to make.
    pub fn finish(&self) -> Result<DrawOutcome> {
        if let Some(waiting) = self.next_chooser() {
            return Err(KnockoutError::ChoiceIncomplete(waiting));
        }
        let mut outcome = self.finish_partial();
        outcome.byes = self.waiting_choosers().collect();
        Ok(outcome)
    }

    /// The matches decided so far, in table order; no byes.
    pub(crate) fn finish_partial(&self) -> DrawOutcome {
        let mut pairings: Vec<Pairing> = self
            .choosers
            .iter()
            .enumerate()
            .filter_map(|(position, chooser)| {
                self.chosen.get(chooser).map(|(team, order)| Pairing {
                    table: match self.numbering {
                        TableNumbering::ChooserPosition => table_number(position),
                        TableNumbering::OrderOfChoice => table_number(*order),
                    },
                    upper: *chooser,
                    lower: *team,
                })
            })
            .collect();
        pairings.sort();
        DrawOutcome {
            pairings,
            byes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::knockout::test_support::{ids, p, run_choice, t};

    #[test]
    fn upper_half_chooses_and_the_last_gets_the_leftover() {
        let sorted = ids(&[1, 2, 3, 4, 5, 6, 7, 8]);
        let choices = [(t(1), t(6)), (t(2), t(8)), (t(3), t(5))];
        let (upper, lower) = crate::engine::knockout::draw::split_halves(&sorted).unwrap();
        let mut draw = ChoiceDraw::new(upper, lower, TableNumbering::default()).unwrap();
        for (c, x) in choices {
            draw.choose(c, x).unwrap();
        }
        assert_eq!(draw.next_chooser(), None);
        let out = draw.finish().unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 1, 6), p(2, 2, 8), p(3, 3, 5), p(4, 4, 7)]
        );
        assert!(out.byes.is_empty());
    }

    #[test]
    fn every_choice_is_checked() {
        let mut draw =
            ChoiceDraw::new(ids(&[1, 2, 3]), ids(&[4, 5, 6]), TableNumbering::default()).unwrap();
        assert_eq!(
            draw.choose(t(2), t(4)),
            Err(KnockoutError::OutOfTurn {
                team: t(2),
                expected: Some(t(1))
            })
        );
        assert_eq!(
            draw.choose(t(1), t(2)),
            Err(KnockoutError::NotACandidate(t(2)))
        );
        draw.choose(t(1), t(5)).unwrap();
        assert_eq!(
            draw.choose(t(2), t(5)),
            Err(KnockoutError::AlreadyChosen {
                team: t(5),
                by: t(1)
            })
        );
        assert_eq!(draw.finish(), Err(KnockoutError::ChoiceIncomplete(t(2))));
        assert_eq!(
            draw.choose(t(2), t(5)).map_err(|e| e.to_string()),
            Err("team 5 is not among the teams left to choose: team 1 already chose it".into())
        );
    }

    #[test]
    fn the_forced_last_choice_may_be_entered_or_left_out() {
        let entered = run_choice(
            ids(&[1, 2]),
            ids(&[3, 4]),
            &[(t(1), t(4)), (t(2), t(3))],
            TableNumbering::default(),
        )
        .unwrap();
        let left_out = run_choice(
            ids(&[1, 2]),
            ids(&[3, 4]),
            &[(t(1), t(4))],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(entered, left_out);
        assert_eq!(entered.pairings, vec![p(1, 1, 4), p(2, 2, 3)]);
        let wrong = run_choice(
            ids(&[1, 2]),
            ids(&[3, 4]),
            &[(t(1), t(4)), (t(2), t(4))],
            TableNumbering::default(),
        );
        assert_eq!(wrong, Err(KnockoutError::ChoiceAfterEnd(t(2))));
    }

    #[test]
    fn positions_by_origin() {
        // Item 5: choosers are the upper-origin group even if a lower-origin team ranks better.
        let out = run_choice(
            ids(&[9, 12, 14, 15]),
            ids(&[2, 21, 30, 40]),
            &[(t(9), t(40)), (t(12), t(2)), (t(14), t(30))],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 9, 40), p(2, 12, 2), p(3, 14, 30), p(4, 15, 21)]
        );
    }

    #[test]
    fn choosers_without_a_candidate_go_through() {
        let out = run_choice(
            ids(&[1, 2, 3]),
            ids(&[7, 8]),
            &[(t(1), t(8))],
            TableNumbering::default(),
        )
        .unwrap();
        assert_eq!(out.pairings, vec![p(1, 1, 8), p(2, 2, 7)]);
        assert_eq!(out.byes, vec![t(3)]);
    }
}
