//! Inherited ranking: a team's ranking is its qualification placement, or the better ranking
//! it took over from a team it beat that was ranked better at the time of that win.
//!
//! The ranking is state that travels with a team through the stages of a knockout, so it lives
//! in an explicit [`RankingBook`] that the caller updates after every result. The unclear points
//! of such a rule are [`RankingRules`] the edition chooses:
//! - whether inheritance is cumulative (compare with the ranking held at the time of each win)
//!   or looks only at the qualification placement and the last opponent
//!   ([`InheritanceReading`]);
//! - whether a walkover win counts as beating the opponent ([`WalkoverInheritance`]);
//! - how a group of teams with equal rankings is ordered ([`TieOrder`]);
//! - whether main-bracket wins pass the ranking on too, or only consolation-bracket wins
//!   ([`InheritanceScope`]).
//!
//! A team that goes through without a match has beaten nobody: the caller records nothing.

use super::{Decision, KnockoutError, MatchOutcome, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a winner's new ranking is computed from the team it beat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum InheritanceReading {
    /// Compare with the ranking the winner holds at the time of the win, so a ranking
    /// inherited earlier is kept unless the loser's is better still.
    #[default]
    Cumulative,
    /// The winner's ranking becomes the better of its qualification placement and the loser's
    /// ranking: only the last opponent counts, earlier inheritance is forgotten.
    QualificationOrLastOpponent,
}

/// Whether a win by walkover passes the loser's ranking on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WalkoverInheritance {
    /// A walkover win counts as having beaten the team.
    #[default]
    Inherits,
    /// Only a match actually played passes the ranking on.
    DoesNotInherit,
}

/// How teams with equal rankings are ordered inside a sorted group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TieOrder {
    /// The better qualification placement first.
    #[default]
    QualificationPlacement,
    /// The order in which the caller lists the teams (for instance, teams that came from the
    /// upper bracket first).
    GivenOrder,
    /// The team whose latest recorded win is the most recent first; teams without a win last.
    MostRecentWinFirst,
}

/// The two kinds of bracket a knockout phase may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bracket {
    /// The main (upper) bracket.
    Main,
    /// The consolation (lower) bracket that main-bracket losers drop into.
    Consolation,
}

/// Which matches pass the ranking on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum InheritanceScope {
    /// Every knockout match, main bracket included, so a main-bracket loser carries what it
    /// inherited into the consolation bracket.
    #[default]
    EveryKnockoutMatch,
    /// Only matches of the consolation bracket.
    ConsolationOnly,
}

/// The readings an edition picks for inherited ranking. The default is cumulative inheritance
/// after every knockout match, walkovers inherit, and ties are ordered by qualification
/// placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RankingRules {
    /// How a win changes the winner's ranking.
    pub inheritance: InheritanceReading,
    /// Whether walkover wins inherit.
    pub walkover: WalkoverInheritance,
    /// How equal rankings are ordered.
    pub tie: TieOrder,
    /// Which matches pass the ranking on.
    pub scope: InheritanceScope,
}

impl RankingRules {
    /// Whether a win in `bracket` passes the ranking on.
    pub fn inherits_in(&self, bracket: Bracket) -> bool {
        self.scope == InheritanceScope::EveryKnockoutMatch || bracket == Bracket::Consolation
    }
}

/// One team's ranking state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRanking {
    /// Placement in the qualification; never changes.
    pub qualification: u32,
    /// Current ranking; lower is better.
    pub ranking: u32,
    /// Sequence number of the team's latest recorded win, for [`TieOrder::MostRecentWinFirst`].
    pub last_win: Option<u64>,
}

/// The ranking of every team in a knockout phase.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankingBook {
    teams: BTreeMap<TeamId, TeamRanking>,
    wins_recorded: u64,
}

impl RankingBook {
    /// A book where every team's ranking is its qualification placement.
    pub fn from_qualification(placements: impl IntoIterator<Item = (TeamId, u32)>) -> Result<Self> {
        let mut book = Self::default();
        for (team, place) in placements {
            let entry = TeamRanking {
                qualification: place,
                ranking: place,
                last_win: None,
            };
            if book.teams.insert(team, entry).is_some() {
                return Err(KnockoutError::DuplicateTeam(team));
            }
        }
        Ok(book)
    }

    /// The ranking state of `team`.
    pub fn get(&self, team: TeamId) -> Result<&TeamRanking> {
        self.teams
            .get(&team)
            .ok_or(KnockoutError::UnknownTeam(team))
    }

    /// The current ranking of `team`.
    pub fn ranking(&self, team: TeamId) -> Result<u32> {
        Ok(self.get(team)?.ranking)
    }

    /// The qualification placement of `team`.
    pub fn qualification(&self, team: TeamId) -> Result<u32> {
        Ok(self.get(team)?.qualification)
    }

    /// Records that `winner` beat `loser` and applies inheritance. The loser keeps its own
    /// ranking. Returns the winner's ranking after the win.
    pub fn record_win(
        &mut self,
        winner: TeamId,
        loser: TeamId,
        decision: Decision,
        rules: &RankingRules,
    ) -> Result<u32> {
        let loser_ranking = self.ranking(loser)?;
        self.wins_recorded += 1;
        let seq = self.wins_recorded;
        let entry = self
            .teams
            .get_mut(&winner)
            .ok_or(KnockoutError::UnknownTeam(winner))?;
        entry.last_win = Some(seq);
        let inherits =
            decision != Decision::Walkover || rules.walkover == WalkoverInheritance::Inherits;
        if inherits {
            // "better ranking than one's own at the time of the win": compare with what the
            // winner holds now, or (other reading) only with its qualification placement.
            let base = match rules.inheritance {
                InheritanceReading::Cumulative => entry.ranking,
                InheritanceReading::QualificationOrLastOpponent => entry.qualification,
            };
            entry.ranking = base.min(loser_ranking);
        }
        Ok(entry.ranking)
    }

    /// Records a resolved match of `bracket`: inheritance applies where the rules' scope
    /// covers the bracket; elsewhere only the time of the win is recorded.
    pub fn record(
        &mut self,
        bracket: Bracket,
        outcome: &MatchOutcome,
        rules: &RankingRules,
    ) -> Result<u32> {
        if rules.inherits_in(bracket) {
            return self.record_win(outcome.winner, outcome.loser, outcome.decision, rules);
        }
        self.ranking(outcome.loser)?;
        self.wins_recorded += 1;
        let seq = self.wins_recorded;
        let entry = self
            .teams
            .get_mut(&outcome.winner)
            .ok_or(KnockoutError::UnknownTeam(outcome.winner))?;
        entry.last_win = Some(seq);
        Ok(entry.ranking)
    }

    /// Sorts a group best first: by current ranking, then by the tie order, then (so the order
    /// is always total) by qualification placement and team number.
    pub fn sort(&self, teams: &[TeamId], tie: TieOrder) -> Result<Vec<TeamId>> {
        super::ensure_distinct(teams)?;
        let mut keyed = Vec::with_capacity(teams.len());
        for (index, team) in teams.iter().enumerate() {
            let r = self.get(*team)?;
            let tie_key = match tie {
                TieOrder::QualificationPlacement => u64::from(r.qualification),
                TieOrder::GivenOrder => index as u64,
                // Most recent first: larger sequence numbers sort earlier, no win sorts last.
                TieOrder::MostRecentWinFirst => r.last_win.map_or(u64::MAX, |s| u64::MAX - 1 - s),
            };
            keyed.push(((r.ranking, tie_key, r.qualification, *team), *team));
        }
        keyed.sort();
        Ok(keyed.into_iter().map(|(_, team)| team).collect())
    }

    /// The better-ranked of two teams under `tie`.
    pub fn better_of(&self, a: TeamId, b: TeamId, tie: TieOrder) -> Result<TeamId> {
        let sorted = self.sort(&[a, b], tie)?;
        sorted.first().copied().ok_or(KnockoutError::UnknownTeam(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(n: u32) -> TeamId {
        TeamId(n)
    }

    fn book(teams: &[u32]) -> RankingBook {
        RankingBook::from_qualification(teams.iter().map(|&n| (t(n), n))).unwrap()
    }

    #[test]
    fn winner_takes_over_a_better_ranking_and_the_loser_keeps_its_own() {
        // Item 1: GH 20 beats GH 5, both now rank 5.
        let mut b = book(&[5, 20]);
        let r = b
            .record_win(t(20), t(5), Decision::Imps, &RankingRules::default())
            .unwrap();
        assert_eq!(r, 5);
        assert_eq!(b.ranking(t(20)).unwrap(), 5);
        assert_eq!(b.ranking(t(5)).unwrap(), 5);
    }

    #[test]
    fn beating_a_worse_team_changes_nothing() {
        let mut b = book(&[5, 20]);
        b.record_win(t(5), t(20), Decision::Imps, &RankingRules::default())
            .unwrap();
        assert_eq!(b.ranking(t(5)).unwrap(), 5);
        assert_eq!(b.ranking(t(20)).unwrap(), 20);
    }

    #[test]
    fn equal_rankings_are_ordered_by_qualification_placement() {
        // Item 1: two teams "ranked 5" in one group; GH 5 comes before GH 20.
        let mut b = book(&[3, 5, 7, 20]);
        b.record_win(t(20), t(5), Decision::Imps, &RankingRules::default())
            .unwrap();
        let sorted = b
            .sort(&[t(20), t(7), t(5), t(3)], TieOrder::default())
            .unwrap();
        assert_eq!(sorted, vec![t(3), t(5), t(20), t(7)]);
    }

    #[test]
    fn other_tie_orders_are_selectable() {
        let mut b = book(&[5, 9, 20]);
        b.record_win(t(20), t(5), Decision::Imps, &RankingRules::default())
            .unwrap();
        // Given order keeps the caller's order among the two teams ranked 5.
        let given = b.sort(&[t(9), t(20), t(5)], TieOrder::GivenOrder).unwrap();
        assert_eq!(given, vec![t(20), t(5), t(9)]);
        // GH 5 wins later, so it has the most recent win.
        b.record_win(t(5), t(9), Decision::Imps, &RankingRules::default())
            .unwrap();
        let recent = b
            .sort(&[t(20), t(5)], TieOrder::MostRecentWinFirst)
            .unwrap();
        assert_eq!(recent, vec![t(5), t(20)]);
    }

    #[test]
    fn cumulative_and_last_opponent_readings_differ() {
        // Item 2: GH 20 beats GH 5 (rank 5), later beats a team ranked 12.
        let mut cumulative = book(&[5, 12, 20]);
        let rules = RankingRules::default();
        cumulative
            .record_win(t(20), t(5), Decision::Imps, &rules)
            .unwrap();
        cumulative
            .record_win(t(20), t(12), Decision::Imps, &rules)
            .unwrap();
        assert_eq!(cumulative.ranking(t(20)).unwrap(), 5);

        let mut last = book(&[5, 12, 20]);
        let rules = RankingRules {
            inheritance: InheritanceReading::QualificationOrLastOpponent,
            ..RankingRules::default()
        };
        last.record_win(t(20), t(5), Decision::Imps, &rules)
            .unwrap();
        last.record_win(t(20), t(12), Decision::Imps, &rules)
            .unwrap();
        assert_eq!(last.ranking(t(20)).unwrap(), 12);
    }

    #[test]
    fn walkover_inheritance_is_a_reading() {
        // Item 9: by default a walkover win inherits.
        let mut b = book(&[2, 30]);
        b.record_win(t(30), t(2), Decision::Walkover, &RankingRules::default())
            .unwrap();
        assert_eq!(b.ranking(t(30)).unwrap(), 2);

        let mut b = book(&[2, 30]);
        let rules = RankingRules {
            walkover: WalkoverInheritance::DoesNotInherit,
            ..RankingRules::default()
        };
        b.record_win(t(30), t(2), Decision::Walkover, &rules)
            .unwrap();
        assert_eq!(b.ranking(t(30)).unwrap(), 30);
    }

    #[test]
    fn in_the_main_bracket_the_inherited_ranking_is_the_table_number() {
        // Item 3: with inheritance after every match, the winner at table p of a choice where
        // positions 1..4 choose among 5..8 ranks p, whoever won.
        use crate::engine::knockout::choice::TableNumbering;
        use crate::engine::knockout::test_support::run_choice;
        let mut b = book(&[1, 2, 3, 4, 5, 6, 7, 8]);
        let draw = run_choice(
            (1..=4).map(t).collect(),
            (5..=8).map(t).collect(),
            &[(t(1), t(8)), (t(2), t(5)), (t(3), t(7))],
            TableNumbering::ChooserPosition,
        )
        .unwrap();
        let rules = RankingRules::default();
        // Upsets at tables 2 and 4.
        let winners = [t(1), t(5), t(3), t(6)];
        for (pairing, winner) in draw.pairings.iter().zip(winners) {
            let loser = if pairing.upper == winner {
                pairing.lower
            } else {
                pairing.upper
            };
            let outcome = MatchOutcome {
                winner,
                loser,
                decision: Decision::Imps,
            };
            b.record(Bracket::Main, &outcome, &rules).unwrap();
            assert_eq!(b.ranking(winner).unwrap(), pairing.table);
        }
        // Under the other scope a main-bracket win inherits nothing.
        let mut b = book(&[2, 5]);
        let rules = RankingRules {
            scope: InheritanceScope::ConsolationOnly,
            ..RankingRules::default()
        };
        let outcome = MatchOutcome {
            winner: t(5),
            loser: t(2),
            decision: Decision::Imps,
        };
        assert_eq!(b.record(Bracket::Main, &outcome, &rules).unwrap(), 5);
        assert_eq!(b.record(Bracket::Consolation, &outcome, &rules).unwrap(), 2);
    }

    #[test]
    fn unknown_and_duplicate_teams_are_errors() {
        let b = book(&[1, 2]);
        assert_eq!(b.ranking(t(9)), Err(KnockoutError::UnknownTeam(t(9))));
        assert_eq!(
            b.sort(&[t(1), t(1)], TieOrder::default()),
            Err(KnockoutError::DuplicateTeam(t(1)))
        );
        assert!(RankingBook::from_qualification([(t(1), 1), (t(1), 2)]).is_err());
    }
}
