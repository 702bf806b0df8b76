//! Knockout primitives: the generic building blocks a competition's rules wire together to
//! run a knockout phase — inherited ranking, fixed brackets, choice of opponents (with absent
//! choosers and withdrawals at the time of the choice), match resolution, seating rights,
//! withdrawals late in a knockout with a consolation bracket, and final placements.
//!
//! Nothing here knows an edition: stage names, team counts, board counts and which reading of
//! an unclear rule applies all come in as parameters. Where a regulation text can be read more
//! than one way, the reading is an enum the edition names as data, so that a later edition can
//! pick another reading without touching Rust code.
//!
//! Every primitive is deterministic (ordered collections only) and reports a broken input as a
//! [`KnockoutError`] rather than panicking.

pub mod absent;
pub mod choice;
pub mod draw;
pub mod error;
pub mod late_withdrawal;
pub mod outcome;
pub mod ranking;
pub mod seating;
pub mod withdrawal;

#[cfg(test)]
mod test_support;

pub use draw::{DrawOutcome, Pairing};
pub use error::KnockoutError;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A team, identified by the number the event gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TeamId(pub u32);

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "team {}", self.0)
    }
}

/// How a match was decided. The caller needs it for inheritance (a walkover may or may not
/// pass the ranking on) and for `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// The winner scored more IMPs.
    Imps,
    /// The IMPs were equal and the tie-break decided, on these placements.
    TieBreak(TiePlaces),
    /// The loser withdrew after the draw.
    Walkover,
}

/// What decided a tie in IMPs: the placement compared, the winner's and the loser's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiePlaces {
    /// The placement that differed.
    pub by: Placement,
    /// The winner's place in it.
    pub winner: u32,
    /// The loser's place in it.
    pub loser: u32,
}

/// A placement a knockout tie can be decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// The place in the qualification.
    Qualification,
    /// The current ranking, possibly inherited from a team beaten.
    Ranking,
}

/// The result of one knockout match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// The team that goes through.
    pub winner: TeamId,
    /// The team that is out of this bracket.
    pub loser: TeamId,
    /// How the winner was decided.
    pub decision: Decision,
}

/// Result type of the knockout primitives.
pub type Result<T> = std::result::Result<T, KnockoutError>;

/// Fails with [`KnockoutError::DuplicateTeam`] if a team occurs more than once in `teams`.
///
/// Draw inputs are lists because their order means something (best first); a repeated team is
/// always an input error, so every draw checks this first.
pub(crate) fn ensure_distinct<'a>(teams: impl IntoIterator<Item = &'a TeamId>) -> Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    for team in teams {
        if !seen.insert(*team) {
            return Err(KnockoutError::DuplicateTeam(*team));
        }
    }
    Ok(())
}
