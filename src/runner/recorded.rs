//! Draws as recorded: a round's or a stage's draw, once made and written down, stands
//! (a later correction of an earlier result does not re-draw it). The runner checks a
//! recorded draw against what the rules require of any draw (every team once, no
//! repeat opponent) and compares it with the draw the rules would have made; the
//! source reports both (a broken rule refuses the draw, a difference is a warning).

use std::collections::{BTreeMap, BTreeSet};

/// Where a recorded draw belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAt<'a> {
    /// A qualification round.
    Round(u32),
    /// A knockout stage, by name.
    Stage(&'a str),
}

/// A rule a recorded draw breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawProblem {
    /// The team is not in this round or stage.
    NotHere(u32),
    /// The team is drawn more than once.
    Twice(u32),
    /// The team plays here but the draw leaves it out.
    Missing(u32),
    /// The two teams already met, in the given round.
    Rematch(u32, u32, u32),
    /// A team is drawn against itself.
    Itself(u32),
}

/// The runner's verdict on a recorded draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It breaks these rules: it is refused and the run stops before it.
    Refused(Vec<DrawProblem>),
    /// It is legal but not the draw the rules make, which is this (pairs, bye).
    Differs(Vec<(u32, u32)>, Vec<u32>),
    /// It is the draw the rules make.
    Same,
}

/// Checks a recorded draw of `pairs` (and the teams without a match, `byes`) for the
/// teams `playing`; `met` gives the round in which two teams (lower id first) met.
pub fn check(
    pairs: &[(u32, u32)],
    byes: &[u32],
    playing: &BTreeSet<u32>,
    met: &BTreeMap<(u32, u32), u32>,
) -> Vec<DrawProblem> {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let teams = pairs
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .chain(byes.iter().copied());
    for t in teams {
        if !playing.contains(&t) {
            if !problems.contains(&DrawProblem::NotHere(t)) {
                problems.push(DrawProblem::NotHere(t));
            }
        } else if !seen.insert(t) && !problems.contains(&DrawProblem::Twice(t)) {
            problems.push(DrawProblem::Twice(t));
        }
    }
    for (a, b) in pairs {
        if a == b {
            problems.push(DrawProblem::Itself(*a));
        } else if let Some(round) = met.get(&(*a.min(b), *a.max(b))) {
            problems.push(DrawProblem::Rematch(*a, *b, *round));
        }
    }
    for t in playing {
        if !seen.contains(t) {
            problems.push(DrawProblem::Missing(*t));
        }
    }
    problems
}

/// Whether two draws are the same matches and byes (table order and home and away
/// aside).
pub fn same(a: &[(u32, u32)], a_byes: &[u32], b: &[(u32, u32)], b_byes: &[u32]) -> bool {
    let set = |p: &[(u32, u32)]| -> BTreeSet<(u32, u32)> {
        p.iter().map(|(x, y)| (*x.min(y), *x.max(y))).collect()
    };
    let byes = |v: &[u32]| -> BTreeSet<u32> { v.iter().copied().collect() };
    set(a) == set(b) && byes(a_byes) == byes(b_byes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_with_every_team_once_and_no_rematch_passes() {
        let playing: BTreeSet<u32> = (1..=4).collect();
        let met = BTreeMap::from([((1, 2), 1)]);
        assert!(check(&[(1, 3), (2, 4)], &[], &playing, &met).is_empty());
        assert_eq!(
            check(&[(2, 1), (3, 4)], &[], &playing, &met),
            [DrawProblem::Rematch(2, 1, 1)]
        );
        assert_eq!(
            check(&[(1, 3), (3, 9)], &[], &playing, &met),
            [
                DrawProblem::Twice(3),
                DrawProblem::NotHere(9),
                DrawProblem::Missing(2),
                DrawProblem::Missing(4)
            ]
        );
        assert_eq!(
            check(&[(1, 3)], &[2], &playing, &met),
            [DrawProblem::Missing(4)]
        );
    }

    #[test]
    fn the_same_draw_in_another_order_is_the_same() {
        assert!(same(&[(1, 2), (3, 4)], &[], &[(4, 3), (2, 1)], &[]));
        assert!(!same(&[(1, 3), (2, 4)], &[], &[(1, 2), (3, 4)], &[]));
        assert!(!same(&[(1, 2)], &[3], &[(1, 2)], &[4]));
    }
}
