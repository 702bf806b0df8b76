//! The one error type of the knockout primitives. Messages are plain lowercase sentences a
//! tournament director can read; they name teams, turns and segments, never Rust types.

use super::TeamId;
use std::fmt;

/// Why a knockout primitive could not produce a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnockoutError {
    /// A team occurs twice in an input that must list each team once.
    DuplicateTeam(TeamId),
    /// A team has no ranking entry, or is not part of the match or draw it was named in.
    UnknownTeam(TeamId),
    /// Brackets pair teams two by two, so the field must be even.
    OddField(usize),
    /// A captain chose when another team had the turn.
    OutOfTurn {
        /// The team that tried to choose.
        team: TeamId,
        /// The team whose turn it was, if any team still had a turn.
        expected: Option<TeamId>,
    },
    /// The chosen team is not in the set the choosers choose from.
    NotACandidate(TeamId),
    /// The chosen team was already taken by an earlier chooser.
    AlreadyChosen {
        /// The team that was chosen a second time.
        team: TeamId,
        /// The chooser that took it first.
        by: TeamId,
    },
    /// The choice was asked for its result while choosers still had to choose.
    ChoiceIncomplete(TeamId),
    /// More choices were given than the procedure had turns for.
    ChoiceAfterEnd(TeamId),
    /// A chooser was absent where the edition's reading says absence is not allowed.
    AbsentChooser(TeamId),
    /// The regulations (in the reading the edition chose) do not cover this situation.
    NoRule(String),
    /// Both teams of a match withdrew, so the match has no winner.
    BothWithdrew(TeamId, TeamId),
}

impl fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateTeam(t) => write!(f, "{t} is listed more than once"),
            Self::UnknownTeam(t) => write!(f, "{t} is not part of this draw or match"),
            Self::OddField(n) => write!(f, "brackets need an even number of teams, got {n}"),
            Self::OutOfTurn {
                team,
                expected: Some(e),
            } => write!(f, "{team} chose out of turn: it is {e}'s turn"),
            Self::OutOfTurn {
                team,
                expected: None,
            } => write!(f, "{team} chose out of turn: no team has a turn left"),
            Self::NotACandidate(t) => write!(f, "{t} is not among the teams to choose from"),
            Self::AlreadyChosen { team, by } => write!(
                f,
                "{team} is not among the teams left to choose: {by} already chose it"
            ),
            Self::ChoiceIncomplete(t) => {
                write!(f, "the choice is not finished: {t} has not chosen yet")
            }
            Self::ChoiceAfterEnd(t) => write!(
                f,
                "{t} chose after every match of the draw was already decided"
            ),
            Self::AbsentChooser(t) => write!(
                f,
                "{t} is absent from the choice, and no rule lets the turn pass at this stage"
            ),
            Self::NoRule(what) => write!(f, "no rule covers {what}"),
            Self::BothWithdrew(a, b) => {
                write!(f, "{a} and {b} both withdrew, so the match has no winner")
            }
        }
    }
}

impl std::error::Error for KnockoutError {}
