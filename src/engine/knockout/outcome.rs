//! Match resolution in a knockout: the IMP difference decides, however small; a completed
//! match tied in IMPs goes to a tie-break between the two teams' placements; a team that
//! withdraws after the draw loses by walkover.

use super::ranking::RankingBook;
use super::{Decision, KnockoutError, MatchOutcome, Result, TeamId};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Which placement breaks a tie in IMPs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum KnockoutTieBreak {
    /// The better qualification placement wins, whatever ranking was inherited since.
    #[default]
    QualificationPlacement,
    /// The better current (possibly inherited) ranking wins; equal rankings go to the better
    /// qualification placement.
    CurrentRanking,
}

/// Resolves a completed match from each team's IMP total (carry-over included, so fractions
/// are allowed).
pub fn resolve_played(
    a: (TeamId, Decimal),
    b: (TeamId, Decimal),
    book: &RankingBook,
    tie: KnockoutTieBreak,
) -> Result<MatchOutcome> {
    let ((ta, imps_a), (tb, imps_b)) = (a, b);
    if ta == tb {
        return Err(KnockoutError::DuplicateTeam(ta));
    }
    // Both teams must be known even when the IMPs decide, so a typo never passes silently.
    let key = |team: TeamId| -> Result<(u32, u32)> {
        let r = book.get(team)?;
        Ok(match tie {
            KnockoutTieBreak::QualificationPlacement => (r.qualification, r.qualification),
            KnockoutTieBreak::CurrentRanking => (r.ranking, r.qualification),
        })
    };
    let (ka, kb) = (key(ta)?, key(tb)?);
    let (winner, loser, decision) = if imps_a > imps_b {
        (ta, tb, Decision::Imps)
    } else if imps_b > imps_a {
        (tb, ta, Decision::Imps)
    } else if (ka, ta) < (kb, tb) {
        (ta, tb, Decision::TieBreak)
    } else {
        (tb, ta, Decision::TieBreak)
    };
    Ok(MatchOutcome {
        winner,
        loser,
        decision,
    })
}

/// Resolves a drawn match in which teams withdrew after the draw: `None` if neither team
/// withdrew (the match is played), the walkover if one did, an error if both did.
pub fn resolve_walkover(
    a: TeamId,
    b: TeamId,
    withdrawn: &BTreeSet<TeamId>,
) -> Result<Option<MatchOutcome>> {
    match (withdrawn.contains(&a), withdrawn.contains(&b)) {
        (false, false) => Ok(None),
        (true, true) => Err(KnockoutError::BothWithdrew(a, b)),
        (true, false) => Ok(Some(MatchOutcome {
            winner: b,
            loser: a,
            decision: Decision::Walkover,
        })),
        (false, true) => Ok(Some(MatchOutcome {
            winner: a,
            loser: b,
            decision: Decision::Walkover,
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::knockout::ranking::RankingRules;

    fn t(n: u32) -> TeamId {
        TeamId(n)
    }

    fn book() -> RankingBook {
        RankingBook::from_qualification([(t(4), 4), (t(20), 20), (t(40), 40)]).unwrap()
    }

    #[test]
    fn the_smallest_imp_margin_decides() {
        let o = resolve_played(
            (t(4), Decimal::new(1005, 1)),
            (t(20), Decimal::new(101, 0)),
            &book(),
            KnockoutTieBreak::default(),
        )
        .unwrap();
        assert_eq!(
            (o.winner, o.loser, o.decision),
            (t(20), t(4), Decision::Imps)
        );
    }

    #[test]
    fn a_tie_in_imps_goes_to_the_better_qualification_placement() {
        // Item 32, literal: GH 40 inherits rank 4 by beating GH 4, then ties with GH 20.
        let mut b = book();
        b.record_win(t(40), t(4), Decision::Imps, &RankingRules::default())
            .unwrap();
        // GH 40 now ranks 4, better than GH 20; the literal tie-break still favours GH 20.
        let o = resolve_played(
            (t(40), Decimal::new(88, 0)),
            (t(20), Decimal::new(88, 0)),
            &b,
            KnockoutTieBreak::QualificationPlacement,
        )
        .unwrap();
        assert_eq!((o.winner, o.decision), (t(20), Decision::TieBreak));
        // The other reading uses the inherited ranking.
        let o = resolve_played(
            (t(40), Decimal::new(88, 0)),
            (t(20), Decimal::new(88, 0)),
            &b,
            KnockoutTieBreak::CurrentRanking,
        )
        .unwrap();
        assert_eq!(o.winner, t(40));
    }

    #[test]
    fn unknown_teams_are_errors() {
        let r = resolve_played(
            (t(4), Decimal::ONE),
            (t(5), Decimal::ZERO),
            &book(),
            KnockoutTieBreak::default(),
        );
        assert_eq!(r, Err(KnockoutError::UnknownTeam(t(5))));
    }

    #[test]
    fn a_withdrawal_after_the_draw_is_a_walkover() {
        let withdrawn = BTreeSet::from([t(20)]);
        let o = resolve_walkover(t(4), t(20), &withdrawn).unwrap().unwrap();
        assert_eq!(
            (o.winner, o.loser, o.decision),
            (t(4), t(20), Decision::Walkover)
        );
        assert_eq!(resolve_walkover(t(4), t(40), &withdrawn).unwrap(), None);
        let both = BTreeSet::from([t(4), t(20)]);
        assert_eq!(
            resolve_walkover(t(4), t(20), &both),
            Err(KnockoutError::BothWithdrew(t(4), t(20)))
        );
    }
}
