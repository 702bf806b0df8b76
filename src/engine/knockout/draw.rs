//! Fixed brackets ("best against worst") and the shared shape of every draw's result.
//!
//! A bracket draw takes a field already sorted best first (see
//! [`RankingBook::sort`](super::ranking::RankingBook::sort)) and pairs position 1 with
//! position N, 2 with N−1, and so on. When the regulations build the positions from where the
//! teams came from (one group above the other, each sorted on its own), that pairs the best
//! of the upper group against the worst of the lower group.

use super::{KnockoutError, Result, TeamId};
use serde::{Deserialize, Serialize};

/// One match of a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pairing {
    /// Table number, 1-based: the position of the upper team (or of the chooser).
    pub table: u32,
    /// The team from the upper position (in a choice: the chooser).
    pub upper: TeamId,
    /// The team from the lower position (in a choice: the team chosen).
    pub lower: TeamId,
}

/// The result of a draw: the matches in table order, and the teams that go through to the
/// next stage without a match (for instance a chooser left without a team to choose).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawOutcome {
    /// The matches, ordered by table.
    pub pairings: Vec<Pairing>,
    /// Teams that go through without a match, in order of position.
    pub byes: Vec<TeamId>,
}

/// Converts a 0-based position to a 1-based table number.
pub(crate) fn table_number(index: usize) -> u32 {
    u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1))
}

/// Pairs a sorted field best against worst: 1 v N, 2 v N−1, ….
pub fn brackets(sorted: &[TeamId]) -> Result<Vec<Pairing>> {
    super::ensure_distinct(sorted)?;
    if !sorted.len().is_multiple_of(2) {
        return Err(KnockoutError::OddField(sorted.len()));
    }
    let (upper, lower) = sorted.split_at(sorted.len() / 2);
    pair_across(upper, lower)
}

fn pair_across(upper: &[TeamId], lower: &[TeamId]) -> Result<Vec<Pairing>> {
    Ok(upper
        .iter()
        .zip(lower.iter().rev())
        .enumerate()
        .map(|(i, (u, l))| Pairing {
            table: table_number(i),
            upper: *u,
            lower: *l,
        })
        .collect())
}

/// Splits a sorted field into its upper and lower halves (for "the upper half chooses among
/// the lower half").
pub fn split_halves(sorted: &[TeamId]) -> Result<(Vec<TeamId>, Vec<TeamId>)> {
    super::ensure_distinct(sorted)?;
    if !sorted.len().is_multiple_of(2) {
        return Err(KnockoutError::OddField(sorted.len()));
    }
    let (upper, lower) = sorted.split_at(sorted.len() / 2);
    Ok((upper.to_vec(), lower.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(range: std::ops::RangeInclusive<u32>) -> Vec<TeamId> {
        range.map(TeamId).collect()
    }

    fn p(table: u32, upper: u32, lower: u32) -> Pairing {
        Pairing {
            table,
            upper: TeamId(upper),
            lower: TeamId(lower),
        }
    }

    #[test]
    fn brackets_pair_best_against_worst() {
        // A field of 32 teams numbered by placement 33..=64: 33 v 64, 34 v 63, ….
        let pairs = brackets(&ids(33..=64)).unwrap();
        assert_eq!(pairs.len(), 16);
        assert_eq!(pairs.first(), Some(&p(1, 33, 64)));
        assert_eq!(pairs.get(1), Some(&p(2, 34, 63)));
        assert_eq!(pairs.last(), Some(&p(16, 48, 49)));
    }

    #[test]
    fn brackets_over_positions_by_origin_pair_the_groups_best_against_worst() {
        // Upper group ranked 1..4 by origin, lower group sorted on its own after it: the
        // best of the upper group meets the worst of the lower group.
        let positions = [9, 12, 14, 15, 2, 21, 30, 40].map(TeamId);
        let pairs = brackets(&positions).unwrap();
        assert_eq!(
            pairs,
            vec![p(1, 9, 40), p(2, 12, 30), p(3, 14, 21), p(4, 15, 2)]
        );
    }

    #[test]
    fn bad_fields_are_errors() {
        assert_eq!(brackets(&ids(1..=7)), Err(KnockoutError::OddField(7)));
        assert_eq!(
            brackets(&[TeamId(1), TeamId(1)]),
            Err(KnockoutError::DuplicateTeam(TeamId(1)))
        );
    }

    #[test]
    fn halves() {
        let (u, l) = split_halves(&ids(1..=8)).unwrap();
        assert_eq!((u, l), (ids(1..=4), ids(5..=8)));
    }
}
