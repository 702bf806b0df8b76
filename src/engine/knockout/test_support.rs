//! Shorthands the knockout modules' tests share: team ids, lists of them, pairings.

use super::{Pairing, TeamId};

/// Team `n`.
pub(crate) fn t(n: u32) -> TeamId {
    TeamId(n)
}

/// Teams with these numbers, in order.
pub(crate) fn ids(v: &[u32]) -> Vec<TeamId> {
    v.iter().copied().map(TeamId).collect()
}

/// A pairing at `table` of teams `upper` and `lower`.
pub(crate) fn p(table: u32, upper: u32, lower: u32) -> Pairing {
    Pairing {
        table,
        upper: t(upper),
        lower: t(lower),
    }
}

/// Runs a whole choice from the captains' choices in the order they were made.
pub(crate) fn run_choice(
    choosers: Vec<TeamId>,
    candidates: Vec<TeamId>,
    choices: &[(TeamId, TeamId)],
    numbering: super::choice::TableNumbering,
) -> super::Result<super::DrawOutcome> {
    let mut draw = super::choice::ChoiceDraw::new(choosers, candidates, numbering)?;
    for (chooser, chosen) in choices {
        draw.choose(*chooser, *chosen)?;
    }
    draw.finish()
}
