//! Absent choosers in a choice of opponents: a chooser that is not there when its turn comes
//! loses the turn to the next team; if it arrives while the choice is still going on, it
//! chooses among the teams then left; if it never arrives, it gets a team left over. Several
//! choosers that never arrive get the leftovers best-placed against worst-placed. Table numbers
//! stay with the chooser's position.
//!
//! The unclear points are readings in [`AbsentChoiceRules`]:
//! - whether the rule applies at all at a given stage ([`AbsenceRule`]);
//! - which "placement" orders the leftover teams ([`LeftoverPlacement`]);
//! - how tables are numbered ([`TableNumbering`]).
//!
//! Turn order follows one rule: at each turn the first team in order that is present and has
//! not chosen, chooses. So a late team chooses at the first turn after it arrives. Once every
//! team present has chosen, the procedure is over: a team arriving after that counts as never
//! arriving.

use super::choice::{ChoiceDraw, TableNumbering};
use super::draw::{DrawOutcome, Pairing, table_number};
use super::ranking::{RankingBook, TieOrder};
use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// When a chooser is at the captains' meeting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Arrival {
    /// There from the start.
    #[default]
    Present,
    /// Arrives before turn `k` (turns count from 1) and is present from that turn on.
    BeforeTurn(u32),
    /// Does not come while the choice goes on.
    Never,
}

impl Arrival {
    fn present_at(self, turn: u32) -> bool {
        match self {
            Self::Present => true,
            Self::BeforeTurn(k) => k <= turn,
            Self::Never => false,
        }
    }
}

/// Whether an absent chooser's turn passes to the next team at this stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum AbsenceRule {
    /// The turn passes on; late and never-arriving teams are handled as described above.
    #[default]
    PassTurn,
    /// No rule covers absent choosers here: any absence is an input error.
    Reject,
}

/// What "best placed" and "worst placed" mean when leftovers are handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LeftoverPlacement {
    /// The current (possibly inherited) ranking, qualification placement on ties.
    #[default]
    CurrentRanking,
    /// The qualification placement.
    QualificationPlacement,
    /// The order of the choosers and of the candidates as given to the draw.
    GivenOrder,
}

/// The readings an edition picks for absent choosers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AbsentChoiceRules {
    /// Whether the absent-chooser rule applies.
    pub absence: AbsenceRule,
    /// How leftovers are ordered.
    pub leftover: LeftoverPlacement,
    /// How tables are numbered.
    pub numbering: TableNumbering,
}

/// Runs a choice of opponents in which some choosers may be absent.
///
/// `choosers` in turn order, `candidates` best first (the same number of each), `arrivals`
/// for the choosers that were not there from the start, and the captains' choices in the order
/// they were made. The last chooser's choice may be left out: it gets the team left over.
pub fn run_choice_with_absentees(
    choosers: &[TeamId],
    candidates: &[TeamId],
    arrivals: &BTreeMap<TeamId, Arrival>,
    choices: &[(TeamId, TeamId)],
    book: &RankingBook,
    rules: &AbsentChoiceRules,
) -> Result<DrawOutcome> {
    if let Some(team) = arrivals.keys().find(|t| !choosers.contains(t)) {
        return Err(KnockoutError::UnknownTeam(*team));
    }
    let arrival = |team: TeamId| arrivals.get(&team).copied().unwrap_or_default();
    if rules.absence == AbsenceRule::Reject
        && let Some(absent) = choosers.iter().find(|c| arrival(**c) != Arrival::Present)
    {
        return Err(KnockoutError::AbsentChooser(*absent));
    }
    if choosers.len() != candidates.len() {
        return Err(KnockoutError::NoRule(format!(
            "absent choosers when {} teams choose among {}",
            choosers.len(),
            candidates.len()
        )));
    }
    let mut draw = ChoiceDraw::new(choosers.to_vec(), candidates.to_vec(), rules.numbering)?;
    let mut pending = choices.iter().copied().peekable();
    let mut turn: u32 = 1;
    loop {
        let waiting: Vec<TeamId> = draw.waiting_choosers().collect();
        let remaining = draw.remaining_candidates();
        if let ([last], [leftover]) = (waiting.as_slice(), remaining.as_slice()) {
            // The last chooser gets the team left over, whether it is there or not.
            draw.take(*last, *leftover)?;
            if pending.peek() == Some(&(*last, *leftover)) {
                pending.next();
            }
            break;
        }
        // The procedure goes on while a team that has not chosen was there at the last turn.
        let running = turn == 1 || waiting.iter().any(|c| arrival(*c).present_at(turn - 1));
        let Some(chooser) = waiting
            .iter()
            .copied()
            .find(|c| running && arrival(*c).present_at(turn))
        else {
            break;
        };
        let Some((team, chosen)) = pending.next() else {
            return Err(KnockoutError::ChoiceIncomplete(chooser));
        };
        if team != chooser {
            if !choosers.contains(&team) {
                return Err(KnockoutError::UnknownTeam(team));
            }
            return Err(KnockoutError::OutOfTurn {
                team,
                expected: Some(chooser),
            });
        }
        draw.take(chooser, chosen)?;
        turn = turn.saturating_add(1);
    }
    if let Some((team, _)) = pending.next() {
        return Err(KnockoutError::ChoiceAfterEnd(team));
    }
    let mut outcome = draw.finish_partial();
    assign_leftovers(&draw, &mut outcome, choosers, book, rules)?;
    Ok(outcome)
}

/// Hands the teams left over to the choosers that never chose: the best placed gets the worst
/// placed, the second best the second worst, and so on.
fn assign_leftovers(
    draw: &ChoiceDraw,
    outcome: &mut DrawOutcome,
    choosers: &[TeamId],
    book: &RankingBook,
    rules: &AbsentChoiceRules,
) -> Result<()> {
    let waiting: Vec<TeamId> = draw.waiting_choosers().collect();
    let remaining = draw.remaining_candidates();
    let order = |teams: Vec<TeamId>| -> Result<Vec<TeamId>> {
        match rules.leftover {
            LeftoverPlacement::CurrentRanking => {
                book.sort(&teams, TieOrder::QualificationPlacement)
            }
            LeftoverPlacement::QualificationPlacement => {
                let mut keyed = Vec::with_capacity(teams.len());
                for team in teams {
                    keyed.push((book.qualification(team)?, team));
                }
                keyed.sort();
                Ok(keyed.into_iter().map(|(_, t)| t).collect())
            }
            // waiting_choosers and remaining_candidates keep the given order.
            LeftoverPlacement::GivenOrder => Ok(teams),
        }
    };
    let best_choosers = order(waiting)?;
    let worst_candidates = order(remaining)?.into_iter().rev();
    let decided = outcome.pairings.len();
    for (i, (chooser, team)) in best_choosers.into_iter().zip(worst_candidates).enumerate() {
        let position = choosers
            .iter()
            .position(|c| *c == chooser)
            .unwrap_or(choosers.len());
        let table = match rules.numbering {
            TableNumbering::ChooserPosition => table_number(position),
            TableNumbering::OrderOfChoice => table_number(decided + i),
        };
        outcome.pairings.push(Pairing {
            table,
            upper: chooser,
            lower: team,
        });
    }
    outcome.pairings.sort();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::knockout::test_support::{ids, p, t};

    fn book() -> RankingBook {
        RankingBook::from_qualification((1..=8).map(|n| (t(n), n))).unwrap()
    }

    fn run(
        arrivals: &[(u32, Arrival)],
        choices: &[(u32, u32)],
        rules: &AbsentChoiceRules,
    ) -> Result<DrawOutcome> {
        let arrivals = arrivals.iter().map(|(n, a)| (t(*n), *a)).collect();
        let choices: Vec<_> = choices.iter().map(|(a, b)| (t(*a), t(*b))).collect();
        run_choice_with_absentees(
            &ids(&[1, 2, 3, 4]),
            &ids(&[5, 6, 7, 8]),
            &arrivals,
            &choices,
            &book(),
            rules,
        )
    }

    #[test]
    fn everyone_present_is_an_ordinary_choice() {
        let out = run(
            &[],
            &[(1, 8), (2, 5), (3, 7)],
            &AbsentChoiceRules::default(),
        )
        .unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 1, 8), p(2, 2, 5), p(3, 3, 7), p(4, 4, 6)]
        );
    }

    #[test]
    fn a_late_chooser_chooses_at_the_first_turn_after_it_arrives() {
        // Team 1 is absent, arrives before turn 3: 2 and 3 choose first, then 1, and 4 gets
        // the leftover. Team 1 keeps table 1.
        let out = run(
            &[(1, Arrival::BeforeTurn(3))],
            &[(2, 8), (3, 5), (1, 7)],
            &AbsentChoiceRules::default(),
        )
        .unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 1, 7), p(2, 2, 8), p(3, 3, 5), p(4, 4, 6)]
        );
        // Choosing before it is there is out of turn.
        let early = run(
            &[(1, Arrival::BeforeTurn(3))],
            &[(1, 8)],
            &AbsentChoiceRules::default(),
        );
        assert_eq!(
            early,
            Err(KnockoutError::OutOfTurn {
                team: t(1),
                expected: Some(t(2))
            })
        );
    }

    #[test]
    fn two_choosers_that_never_arrive_get_best_against_worst_leftovers() {
        // 1 and 3 never come: 2 takes 5, 4 takes 7; of 6 and 8, team 1 (best placed) gets 8
        // (worst placed) and team 3 gets 6. Tables stay with the choosers' positions.
        let out = run(
            &[(1, Arrival::Never), (3, Arrival::Never)],
            &[(2, 5), (4, 7)],
            &AbsentChoiceRules::default(),
        )
        .unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 1, 8), p(2, 2, 5), p(3, 3, 6), p(4, 4, 7)]
        );
    }

    #[test]
    fn arriving_after_the_last_present_team_chose_counts_as_never() {
        // 2 and 4 choose at turns 1 and 2; team 1 comes before turn 3, when the choice is over.
        let out = run(
            &[(1, Arrival::BeforeTurn(3)), (3, Arrival::Never)],
            &[(2, 5), (4, 7)],
            &AbsentChoiceRules::default(),
        )
        .unwrap();
        assert_eq!(
            out.pairings,
            vec![p(1, 1, 8), p(2, 2, 5), p(3, 3, 6), p(4, 4, 7)]
        );
        // Its choice, if entered, comes after the end.
        let late = run(
            &[(1, Arrival::BeforeTurn(3)), (3, Arrival::Never)],
            &[(2, 5), (4, 7), (1, 6)],
            &AbsentChoiceRules::default(),
        );
        assert_eq!(late, Err(KnockoutError::ChoiceAfterEnd(t(1))));
    }

    #[test]
    fn leftover_placement_is_a_reading() {
        // Chooser 3 has qualification placement 3 but inherited nothing; chooser 1 is a team
        // with qualification placement 20 sitting at position 1 with ranking 1.
        let mut book = RankingBook::from_qualification(
            [
                (20, 20),
                (2, 2),
                (3, 3),
                (4, 4),
                (5, 5),
                (6, 6),
                (7, 7),
                (8, 8),
                (1, 1),
            ]
            .map(|(a, b)| (t(a), b)),
        )
        .unwrap();
        let rules = crate::engine::knockout::ranking::RankingRules::default();
        book.record_win(t(20), t(1), crate::engine::knockout::Decision::Imps, &rules)
            .unwrap();
        let arrivals = BTreeMap::from([(t(20), Arrival::Never), (t(3), Arrival::Never)]);
        let go = |leftover| {
            run_choice_with_absentees(
                &ids(&[20, 2, 3, 4]),
                &ids(&[5, 6, 7, 8]),
                &arrivals,
                &[(t(2), t(5)), (t(4), t(7))],
                &book,
                &AbsentChoiceRules {
                    leftover,
                    ..AbsentChoiceRules::default()
                },
            )
            .unwrap()
            .pairings
        };
        assert_eq!(
            go(LeftoverPlacement::CurrentRanking),
            vec![p(1, 20, 8), p(2, 2, 5), p(3, 3, 6), p(4, 4, 7)]
        );
        assert_eq!(
            go(LeftoverPlacement::QualificationPlacement),
            vec![p(1, 20, 6), p(2, 2, 5), p(3, 3, 8), p(4, 4, 7)]
        );
    }

    #[test]
    fn where_no_rule_covers_absence_it_is_an_error() {
        let rules = AbsentChoiceRules {
            absence: AbsenceRule::Reject,
            ..AbsentChoiceRules::default()
        };
        assert_eq!(
            run(&[(3, Arrival::Never)], &[], &rules),
            Err(KnockoutError::AbsentChooser(t(3)))
        );
        assert_eq!(
            run(&[(9, Arrival::Never)], &[], &AbsentChoiceRules::default()),
            Err(KnockoutError::UnknownTeam(t(9)))
        );
    }
}
