//! Match resolution in a knockout: the IMP difference decides, however small; a completed
//! match tied in IMPs goes to a tie-break between the two teams' placements; a team that
//! withdraws after the draw loses by walkover.

use super::ranking::RankingBook;
use super::{Decision, KnockoutError, MatchOutcome, Placement, Result, TeamId, TiePlaces};
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
    } else {
        let ((winner, kw), (loser, kl)) = if (ka, ta) < (kb, tb) {
            ((ta, ka), (tb, kb))
        } else {
            ((tb, kb), (ta, ka))
        };
        (winner, loser, Decision::TieBreak(tie_places(tie, kw, kl)))
    };
    Ok(MatchOutcome {
        winner,
        loser,
        decision,
    })
}

/// The placement that broke a tie, from the keys compared (the tie-break's
/// placement, then the qualification's): the first that differs. Two teams
/// equal on both, which a sound ranking book never holds (the team number
/// decided), are reported on the last compared, with equal places.
fn tie_places(tie: KnockoutTieBreak, winner: (u32, u32), loser: (u32, u32)) -> TiePlaces {
    let first = match tie {
        KnockoutTieBreak::QualificationPlacement => Placement::Qualification,
        KnockoutTieBreak::CurrentRanking => Placement::Ranking,
    };
    if winner.0 == loser.0 && first == Placement::Ranking {
        TiePlaces {
            by: Placement::Qualification,
            winner: winner.1,
            loser: loser.1,
        }
    } else {
        TiePlaces {
            by: first,
            winner: winner.0,
            loser: loser.0,
        }
    }
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
        let by_qualification = TiePlaces {
            by: Placement::Qualification,
            winner: 20,
            loser: 40,
        };
        assert_eq!(
            (o.winner, o.decision),
            (t(20), Decision::TieBreak(by_qualification))
        );
        // The other reading uses the inherited ranking.
        let o = resolve_played(
            (t(40), Decimal::new(88, 0)),
            (t(20), Decimal::new(88, 0)),
            &b,
            KnockoutTieBreak::CurrentRanking,
        )
        .unwrap();
        let by_ranking = TiePlaces {
            by: Placement::Ranking,
            winner: 4,
            loser: 20,
        };
        assert_eq!(
            (o.winner, o.decision),
            (t(40), Decision::TieBreak(by_ranking))
        );
    }

    #[test]
    fn equal_rankings_in_a_tie_go_to_the_qualification_and_say_so() {
        let (winner, loser) = ((7, 3), (7, 9));
        let places = tie_places(KnockoutTieBreak::CurrentRanking, winner, loser);
        assert_eq!(
            places,
            TiePlaces {
                by: Placement::Qualification,
                winner: 3,
                loser: 9,
            }
        );
        let places = tie_places(KnockoutTieBreak::QualificationPlacement, (3, 3), (9, 9));
        assert_eq!((places.by, places.winner), (Placement::Qualification, 3));
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
