//! The vocabulary's meanings as the engine's parameters: one exhaustive `match` per
//! meaning, so a meaning added to the vocabulary cannot be forgotten here.

use crate::engine::knockout::absent::{AbsenceRule, LeftoverPlacement};
use crate::engine::knockout::choice::TableNumbering;
use crate::engine::knockout::late_withdrawal::LateWithdrawalReading;
use crate::engine::knockout::outcome::KnockoutTieBreak;
use crate::engine::knockout::ranking::{
    InheritanceReading, InheritanceScope, TieOrder, WalkoverInheritance,
};
use crate::engine::knockout::seating::HomeReading;
use crate::engine::standings::TieBreak;
use crate::ir::vocabulary as v;

impl From<v::LateWithdrawal> for LateWithdrawalReading {
    fn from(m: v::LateWithdrawal) -> Self {
        match m {
            v::LateWithdrawal::SpecificRule => Self::SpecificRule,
            v::LateWithdrawal::StageMoveUp => Self::StageMoveUp,
        }
    }
}

impl From<v::HomeTeam> for HomeReading {
    fn from(m: v::HomeTeam) -> Self {
        match m {
            v::HomeTeam::BetterRanking => Self::BetterRanking,
            v::HomeTeam::UpperPosition => Self::UpperPosition,
            v::HomeTeam::BetterQualificationPlacement => Self::BetterQualificationPlacement,
        }
    }
}

impl From<v::AbsentCaptains> for AbsenceRule {
    fn from(m: v::AbsentCaptains) -> Self {
        match m {
            v::AbsentCaptains::PassTurn => Self::PassTurn,
            v::AbsentCaptains::Reject => Self::Reject,
        }
    }
}

impl From<v::LeftoverPlacement> for LeftoverPlacement {
    fn from(m: v::LeftoverPlacement) -> Self {
        match m {
            v::LeftoverPlacement::CurrentRanking => Self::CurrentRanking,
            v::LeftoverPlacement::QualificationPlacement => Self::QualificationPlacement,
            v::LeftoverPlacement::GivenOrder => Self::GivenOrder,
        }
    }
}

impl From<v::Inheritance> for InheritanceReading {
    fn from(m: v::Inheritance) -> Self {
        match m {
            v::Inheritance::Cumulative => Self::Cumulative,
            v::Inheritance::LastOpponentOnly => Self::QualificationOrLastOpponent,
        }
    }
}

impl From<v::WalkoverInheritance> for WalkoverInheritance {
    fn from(m: v::WalkoverInheritance) -> Self {
        match m {
            v::WalkoverInheritance::WalkoverInherits => Self::Inherits,
            v::WalkoverInheritance::WalkoverDoesNotInherit => Self::DoesNotInherit,
        }
    }
}

impl From<v::EqualRankings> for TieOrder {
    fn from(m: v::EqualRankings) -> Self {
        match m {
            v::EqualRankings::QualificationPlacement => Self::QualificationPlacement,
            v::EqualRankings::GivenOrder => Self::GivenOrder,
            v::EqualRankings::MostRecentWinnerFirst => Self::MostRecentWinFirst,
        }
    }
}

impl From<v::InheritanceScope> for InheritanceScope {
    fn from(m: v::InheritanceScope) -> Self {
        match m {
            v::InheritanceScope::EveryKnockoutMatch => Self::EveryKnockoutMatch,
            v::InheritanceScope::ConsolationOnly => Self::ConsolationOnly,
        }
    }
}

impl From<v::KnockoutTie> for KnockoutTieBreak {
    fn from(m: v::KnockoutTie) -> Self {
        match m {
            v::KnockoutTie::QualificationPlacement => Self::QualificationPlacement,
            v::KnockoutTie::CurrentRanking => Self::CurrentRanking,
        }
    }
}

impl From<v::TableNumbering> for TableNumbering {
    fn from(m: v::TableNumbering) -> Self {
        match m {
            v::TableNumbering::ChooserPosition => Self::ChooserPosition,
            v::TableNumbering::OrderOfChoices => Self::OrderOfChoice,
        }
    }
}

/// A criterion of the tie-break chain as the engine ranks by it, read with the
/// qualification's readings of Swiss points (`swiss_points`) and of the IMP
/// quotient's edges (`imp_quotient`).
pub(super) fn tie_break(
    m: v::TieBreakCriterion,
    swiss_points: v::SwissPointsBasis,
    imp_quotient: v::ImpQuotientEdges,
) -> TieBreak {
    match m {
        v::TieBreakCriterion::VictoryPoints => TieBreak::TotalVp,
        v::TieBreakCriterion::SwissPoints => match swiss_points {
            v::SwissPointsBasis::OpponentsCurrentTotals => TieBreak::SwissPoints,
        },
        v::TieBreakCriterion::ImpQuotient => match imp_quotient {
            v::ImpQuotientEdges::InfinityThenTeamId => TieBreak::ImpQuotient,
        },
        v::TieBreakCriterion::LowerTeamId => TieBreak::LowerTeamId,
    }
}
