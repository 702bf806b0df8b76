//! The competition vocabulary: the meanings a competition's properties can name.
//!
//! The edition says *which* meaning applies (`draw = CcDrawMethod.Choice`,
//! `home = amb06_reading`); bfr knows *what* each meaning does. An edition's enum
//! variant names a meaning by the meaning's name; `check` resolves the name once,
//! with "did you mean" for a name outside the vocabulary, so the runner works on
//! these enums and never on a string. Figures never live here, only meanings.

use serde::Serialize;

/// Declares a vocabulary: an enum of meanings, each with the name an edition uses.
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl Meaning for $name {
            const WHAT: &'static str = stringify!($name);
            const ALL: &'static [(&'static str, Self)] =
                &[$((stringify!($variant), $name::$variant),)+];
        }
    };
}

/// A vocabulary enum: its meanings by the names an edition writes.
pub trait Meaning: Copy + 'static {
    /// The vocabulary's name, as docs/language.md lists it.
    const WHAT: &'static str;
    /// Every meaning with its name.
    const ALL: &'static [(&'static str, Self)];

    /// The meaning an edition's variant name selects.
    fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
    }

    /// The names, for "it knows …" and "did you mean".
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|(n, _)| *n).collect()
    }

    /// The meaning's name.
    fn name(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::ALL
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| *n)
    }
}

vocabulary! {
    /// How a knockout stage's matches are drawn.
    DrawMethod {
        /// The upper half chooses opponents in turn among the lower half; absent
        /// captains lose their turn.
        Choice,
        /// The best-ranked half chooses among the rest; a withdrawal among the
        /// choosers at the time of the draw moves the next team up.
        RankedChoice,
        /// Position p meets position n + 1 − p.
        Brackets,
        /// Two teams: they meet.
        Fixed,
    }
}

vocabulary! {
    /// How a qualification pairs its rounds.
    QualificationFormat {
        /// By standings, no repeat opponents.
        Swiss,
        /// All play all.
        RoundRobin,
    }
}

vocabulary! {
    /// How a Swiss qualification's first round is paired.
    FirstRound {
        /// Drawn at random (from the run's seed).
        Drawn,
    }
}

vocabulary! {
    /// A criterion of a qualification's ranking, in the order of a tie-break chain.
    TieBreakCriterion {
        /// Total victory points.
        VictoryPoints,
        /// Swiss points: the opponents' totals.
        SwissPoints,
        /// IMPs won divided by IMPs lost.
        ImpQuotient,
        /// The lower team number.
        LowerTeamId,
    }
}

vocabulary! {
    /// What decides a knockout match.
    KnockoutCriterion {
        /// The IMP difference over the whole match (a tie goes to `knockout_tie`).
        ImpDifference,
    }
}

vocabulary! {
    /// Who is the home team of a knockout match.
    HomeTeam {
        /// The better-ranked team.
        BetterRanking,
        /// The team in the upper position of the draw (the chooser in a choice).
        UpperPosition,
        /// The team placed better in the qualification, whatever it inherited since.
        BetterQualificationPlacement,
    }
}

vocabulary! {
    /// How the teams of a match take their seats.
    SeatingMethod {
        /// The away team sits first.
        AwaySitsFirst,
        /// Seating rights by segment, picked by the teams in turn.
        SegmentChoice,
        /// The document gives no rule: a run that reaches it stops and says so.
        NoRule,
    }
}

vocabulary! {
    /// A side of a match.
    Side {
        /// The home team.
        Home,
        /// The away team.
        Away,
    }
}

vocabulary! {
    /// How a withdrawal of an upper-bracket team at a stage's draw is handled.
    LateWithdrawal {
        /// The competition's specific late-withdrawal rules (cases A, B, C).
        SpecificRule,
        /// The stage's own move-up clause.
        StageMoveUp,
    }
}

vocabulary! {
    /// Which wins pass a ranking on in the knockout.
    Inheritance {
        /// Every win passes the beaten team's ranking on, cumulatively.
        Cumulative,
        /// Only the opponent of the previous stage counts.
        LastOpponentOnly,
    }
}

vocabulary! {
    /// Whether a walkover win passes the ranking on.
    WalkoverInheritance {
        /// A walkover counts as a win.
        WalkoverInherits,
        /// A walkover passes nothing on.
        WalkoverDoesNotInherit,
    }
}

vocabulary! {
    /// The order of teams with equal rankings in a sorted group.
    EqualRankings {
        /// The better qualification placement first.
        QualificationPlacement,
        /// In the order the teams came to the group (those from the upper bracket
        /// first).
        GivenOrder,
        /// The most recent winner first.
        MostRecentWinnerFirst,
    }
}

vocabulary! {
    /// Who wins a knockout match tied in IMPs.
    KnockoutTie {
        /// The better qualification placement.
        QualificationPlacement,
        /// The better current ranking.
        CurrentRanking,
    }
}

vocabulary! {
    /// How the tables of a choice are numbered.
    TableNumbering {
        /// By the chooser's position.
        ChooserPosition,
        /// In the order the choices were made.
        OrderOfChoices,
    }
}

vocabulary! {
    /// Which knockout wins pass a ranking on.
    InheritanceScope {
        /// Every knockout match, the main bracket's too.
        EveryKnockoutMatch,
        /// Only matches of the consolation bracket.
        ConsolationOnly,
    }
}

vocabulary! {
    /// What "best placed" means when the teams left over by absent captains are
    /// handed out.
    LeftoverPlacement {
        /// The current (possibly inherited) ranking.
        CurrentRanking,
        /// The qualification placement.
        QualificationPlacement,
        /// The order of the draw.
        GivenOrder,
    }
}

vocabulary! {
    /// Whether an absent captain's turn passes on at a stage.
    AbsentCaptains {
        /// The turn passes to the next team; a late captain chooses at the first turn
        /// after arriving.
        PassTurn,
        /// The stage has no rule for absent captains: an absence is an input error.
        Reject,
    }
}

vocabulary! {
    /// When a captain who arrives late during a choice chooses.
    LateChooser {
        /// At the first turn after arriving.
        FirstTurnAfterArrival,
    }
}

vocabulary! {
    /// A chooser left without a candidate after a withdrawal at the choice.
    ChooserWithoutOpponent {
        /// The last chooser goes through without a match.
        LastChooserGoesThrough,
    }
}

vocabulary! {
    /// A withdrawal among the teams chosen from, at the time of the choice.
    LowerWithdrawal {
        /// The choosers stay as they are; the last goes through without a match.
        ChoosersUnchangedLastGoesThrough,
    }
}

vocabulary! {
    /// What the loser of a walkover gets.
    WalkoverLoser {
        /// The place the stage's losers take, where they take one.
        SharesLosersPlace,
        /// No place: the team withdrew at this stage.
        NoPlace,
    }
}

vocabulary! {
    /// What the teams that leave at a stage without a place of the rules get in the
    /// final ranking. Teams that leave at a later stage always rank above those that
    /// leave earlier; teams out in the qualification rank by their qualification place.
    LowerPlaces {
        /// No place: the team is listed as out (or withdrawn) where it left.
        NoPlace,
        /// Places in the order of the teams' current ranking (qualification placement
        /// or inherited ranking), equal rankings as `equal_rankings` orders them.
        CurrentRanking,
        /// Places in the order of the teams' qualification placement.
        QualificationPlacement,
        /// The teams that leave at the same stage share the range of places (`9/12`).
        SharedByStage,
    }
}

vocabulary! {
    /// How a knockout stage orders its positions.
    PositionsBy {
        /// By origin (teams from the earlier-numbered feeding stage first), then ranking.
        Origin,
    }
}

vocabulary! {
    /// How a Swiss qualification pairs the rounds after the first.
    Pairing {
        /// By current standings, the highest unpaired team against the first team below
        /// it that it has not met and for which the rest can still be paired.
        StandingsWithFeasibilityCheck,
    }
}

vocabulary! {
    /// Who gets the bye in an odd field.
    Bye {
        /// The lowest-ranked team that has not had one.
        LowestRankedWithoutBye,
    }
}

vocabulary! {
    /// The VP behind a team's Swiss points.
    SwissPointsBasis {
        /// The opponents' current totals.
        OpponentsCurrentTotals,
    }
}

vocabulary! {
    /// The IMP quotient at its edges.
    ImpQuotientEdges {
        /// Nothing lost is +∞, nothing won or lost is 1, then the lower team number.
        InfinityThenTeamId,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meaning_is_found_by_its_name_and_gives_it_back() {
        assert_eq!(
            DrawMethod::named("RankedChoice"),
            Some(DrawMethod::RankedChoice)
        );
        assert_eq!(DrawMethod::named("Choise"), None);
        assert_eq!(DrawMethod::RankedChoice.name(), "RankedChoice");
        assert_eq!(
            DrawMethod::names(),
            ["Choice", "RankedChoice", "Brackets", "Fixed"]
        );
    }
}
