//! Home and away in knockout matches: which team is home, and which sits first.
//!
//! In a short match the away team takes its seats first ([`Sides::sits_first`]). Seating
//! rights by segment in a long match are the edition's own rule (`segment_rights`), which
//! the runner calls. Which match length uses which method is the edition's data too. Who is
//! home is a reading ([`HomeReading`]): the regulations name the home team only in some
//! matches.

use super::draw::Pairing;
use super::ranking::{RankingBook, TieOrder};
use super::{Result, TeamId};
use serde::{Deserialize, Serialize};

/// Which team of a drawn match is home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum HomeReading {
    /// The better current ranking; equal rankings go to the better qualification placement.
    #[default]
    BetterRanking,
    /// The team in the upper position of the pairing (in a choice: the chooser).
    UpperPosition,
    /// The better qualification placement, whatever the rankings inherited since.
    BetterQualificationPlacement,
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
        HomeReading::BetterQualificationPlacement => {
            if book.qualification(b)? < book.qualification(a)? {
                b
            } else {
                a
            }
        }
    };
    let away = if home == a { b } else { a };
    Ok(Sides { home, away })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::Decision;
    use crate::engine::knockout::ranking::RankingRules;

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
