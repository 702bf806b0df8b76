//! Seating rights in knockout matches: which team is home, and who has seating rights when.
//!
//! - In a short match the away team takes its seats first ([`Sides::sits_first`]).
//! - In a long match split into four segments grouped in two pairs, the home team picks one
//!   segment, the away team automatically gets the other segment of that pair, the away team
//!   then picks one of the two remaining segments, and the home team gets the last
//!   ([`assign_segments`]).
//!
//! Which match length uses which method is the edition's data. Who is home is a reading
//! ([`HomeReading`]): the regulations name the home team only in some matches.

use super::draw::Pairing;
use super::ranking::{RankingBook, TieOrder};
use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which team of a drawn match is home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum HomeReading {
    /// The better current ranking; equal rankings go to the better qualification placement.
    #[default]
    BetterRanking,
    /// The team in the upper position of the pairing (in a choice: the chooser).
    UpperPosition,
}

/// The home and away team of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides {
    /// The home team.
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
}

impl Sides {
    /// The team that takes its seats first in a match without segment seating rights: the
    /// away team, so the home team can seat itself knowing the opponents' line-up.
    pub fn sits_first(&self) -> TeamId {
        self.away
    }
}

/// Decides home and away for a pairing.
pub fn home_and_away(pairing: &Pairing, book: &RankingBook, reading: HomeReading) -> Result<Sides> {
    let (a, b) = (pairing.upper, pairing.lower);
    let home = match reading {
        HomeReading::BetterRanking => book.better_of(a, b, TieOrder::QualificationPlacement)?,
        HomeReading::UpperPosition => a,
    };
    let away = if home == a { b } else { a };
    Ok(Sides { home, away })
}

/// Seating rights per segment of a long match: home picks `home_pick`, the away team gets the
/// other segment of that pair, away picks `away_pick` among the other pair, home gets the last.
/// `pairs` are the two pairs of segments (for example `[[1, 2], [3, 4]]`).
pub fn assign_segments(
    sides: Sides,
    pairs: [[u32; 2]; 2],
    home_pick: u32,
    away_pick: u32,
) -> Result<BTreeMap<u32, TeamId>> {
    let [first, second] = pairs;
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = [first[0], first[1], second[0], second[1]]
        .into_iter()
        .find(|s| !seen.insert(*s))
    {
        return Err(KnockoutError::BadSegment(twice));
    }
    let (home_pair, other_pair) = if first.contains(&home_pick) {
        (first, second)
    } else if second.contains(&home_pick) {
        (second, first)
    } else {
        return Err(KnockoutError::BadSegment(home_pick));
    };
    if !other_pair.contains(&away_pick) {
        return Err(KnockoutError::BadSegment(away_pick));
    }
    let partner = |pair: [u32; 2], s: u32| if pair[0] == s { pair[1] } else { pair[0] };
    Ok(BTreeMap::from([
        (home_pick, sides.home),
        (partner(home_pair, home_pick), sides.away),
        (away_pick, sides.away),
        (partner(other_pair, away_pick), sides.home),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::outcome::Decision;
    use crate::engine::knockout::ranking::RankingRules;

    const A: TeamId = TeamId(1);
    const B: TeamId = TeamId(2);
    const PAIRS: [[u32; 2]; 2] = [[1, 2], [3, 4]];

    fn sides() -> Sides {
        Sides { home: A, away: B }
    }

    #[test]
    fn the_worked_example_follows_the_rule_not_the_text() {
        // A (home) picks 3, B gets 4, B picks 1, so A gets 2 (item 30: the text says 1).
        let seats = assign_segments(sides(), PAIRS, 3, 1).unwrap();
        assert_eq!(seats, BTreeMap::from([(1, B), (2, A), (3, A), (4, B)]));
    }

    #[test]
    fn picks_must_be_free_segments() {
        assert_eq!(
            assign_segments(sides(), PAIRS, 5, 1),
            Err(KnockoutError::BadSegment(5))
        );
        // Away may not pick the partner of home's pick: it already has it.
        assert_eq!(
            assign_segments(sides(), PAIRS, 3, 4),
            Err(KnockoutError::BadSegment(4))
        );
        assert_eq!(
            assign_segments(sides(), [[1, 2], [2, 3]], 1, 3),
            Err(KnockoutError::BadSegment(2))
        );
    }

    #[test]
    fn home_is_the_better_ranking_with_ties_on_qualification() {
        let mut book =
            RankingBook::from_qualification([(TeamId(5), 5), (TeamId(20), 20), (TeamId(3), 3)])
                .unwrap();
        book.record_win(
            TeamId(20),
            TeamId(5),
            Decision::Imps,
            &RankingRules::default(),
        )
        .unwrap();
        // GH 20 (rank 5) chose GH 5 (rank 5): equal rankings, GH 5 is home and sits second.
        let pairing = Pairing {
            table: 1,
            upper: TeamId(20),
            lower: TeamId(5),
        };
        let s = home_and_away(&pairing, &book, HomeReading::BetterRanking).unwrap();
        assert_eq!(
            s,
            Sides {
                home: TeamId(5),
                away: TeamId(20)
            }
        );
        assert_eq!(s.sits_first(), TeamId(20));
        // Under the other reading the chooser is home.
        let s = home_and_away(&pairing, &book, HomeReading::UpperPosition).unwrap();
        assert_eq!(s.home, TeamId(20));
    }
}
