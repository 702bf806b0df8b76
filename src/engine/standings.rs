//! Standings: per-team accumulation of match results and a tie-break chain chosen by the rules.
//!
//! The chain is data: an ordered list of [`TieBreak`] criteria. Ranking returns, for every
//! team, the value of each criterion and which criterion separated it from the team above, so
//! an `explain` can say why the order is what it is.

use crate::engine::scoring::{ImpQuotient, ScoringError};
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Why a standings operation refused its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingsError<T> {
    /// A team was entered twice.
    DuplicateTeam(T),
    /// A result names a team that is not in the standings.
    UnknownTeam(T),
    /// A match names the same team on both sides.
    SelfMatch(T),
    /// A scoring primitive failed (e.g. negative IMPs in a quotient).
    Scoring(ScoringError),
    /// Decimal arithmetic overflowed.
    Overflow,
}

impl<T: fmt::Debug> fmt::Display for StandingsError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateTeam(t) => write!(f, "team {t:?} is entered twice"),
            Self::UnknownTeam(t) => write!(f, "team {t:?} is not in the standings"),
            Self::SelfMatch(t) => write!(f, "team {t:?} cannot play itself"),
            Self::Scoring(e) => write!(f, "{e}"),
            Self::Overflow => write!(f, "decimal overflow"),
        }
    }
}

impl<T: fmt::Debug> std::error::Error for StandingsError<T> {}

impl<T> From<ScoringError> for StandingsError<T> {
    fn from(e: ScoringError) -> Self {
        Self::Scoring(e)
    }
}

/// Everything the standings keep about one team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRecord<T> {
    /// VP scored in matches and byes.
    pub match_vp: Decimal,
    /// Signed sum of VP adjustments: penalties (negative), carry-over (positive).
    pub adjustments: Decimal,
    /// IMPs scored by this team.
    pub imps_won: Decimal,
    /// IMPs scored against this team.
    pub imps_lost: Decimal,
    /// Distinct opponents met (a bye is not an opponent).
    pub opponents: BTreeSet<T>,
    /// Matches played (a repeat meeting counts again here, not in `opponents`).
    pub matches: u32,
    /// Byes received.
    pub byes: u32,
}

impl<T> TeamRecord<T> {
    fn new() -> Self {
        Self {
            match_vp: Decimal::ZERO,
            adjustments: Decimal::ZERO,
            imps_won: Decimal::ZERO,
            imps_lost: Decimal::ZERO,
            opponents: BTreeSet::new(),
            matches: 0,
            byes: 0,
        }
    }

    /// The full VP total: match VP plus adjustments.
    pub fn total_vp(&self) -> Result<Decimal, StandingsError<T>> {
        self.match_vp
            .checked_add(self.adjustments)
            .ok_or(StandingsError::Overflow)
    }

    /// IMPs won to IMPs lost, read as the tie-break reads it (see [`ImpQuotient`]).
    pub fn imp_quotient(&self) -> Result<ImpQuotient, StandingsError<T>> {
        Ok(ImpQuotient::new(self.imps_won, self.imps_lost)?)
    }
}

/// One played match as the standings need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchResult<T> {
    /// Home team.
    pub home: T,
    /// Away team.
    pub away: T,
    /// VP awarded to the home team.
    pub home_vp: Decimal,
    /// VP awarded to the away team.
    pub away_vp: Decimal,
    /// IMPs scored by the home team (won by home, lost by away).
    pub home_imps: Decimal,
    /// IMPs scored by the away team.
    pub away_imps: Decimal,
}

/// A criterion of a tie-break chain. Every criterion but the last prefers the higher value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TieBreak {
    /// Full VP total, adjustments included.
    TotalVp,
    /// Sum of the current full VP totals of each distinct opponent met.
    SwissPoints,
    /// IMPs won / IMPs lost (x/0 = ∞ for x > 0, 0/0 = 1).
    ImpQuotient,
    /// The lower team id first: the last resort that makes the order total.
    LowerTeamId,
}

/// The value a team has for one criterion, kept so the order can be explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CriterionValue<T> {
    /// See [`TieBreak::TotalVp`].
    TotalVp(Decimal),
    /// See [`TieBreak::SwissPoints`].
    SwissPoints(Decimal),
    /// See [`TieBreak::ImpQuotient`].
    ImpQuotient(ImpQuotient),
    /// See [`TieBreak::LowerTeamId`].
    TeamId(T),
}

impl<T: Ord> CriterionValue<T> {
    /// `Less` when `self` ranks before `other` (higher values first, lower ids first).
    fn rank_cmp(&self, other: &Self) -> Ordering {
        use CriterionValue as C;
        match (self, other) {
            (C::TotalVp(a), C::TotalVp(b)) | (C::SwissPoints(a), C::SwissPoints(b)) => b.cmp(a),
            (C::ImpQuotient(a), C::ImpQuotient(b)) => b.cmp(a),
            (C::TeamId(a), C::TeamId(b)) => a.cmp(b),
            // Values of one chain position are always the same kind; keep a total order anyway.
            _ => Ordering::Equal,
        }
    }
}

/// One line of ranked standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedTeam<T> {
    /// 1-based place; teams equal on every criterion of the chain share a place.
    pub place: usize,
    /// The team.
    pub team: T,
    /// The team's value for each criterion, in chain order.
    pub values: Vec<CriterionValue<T>>,
    /// Index in the chain of the first criterion that put this team below the team listed
    /// above it; `None` for the first team and for a team sharing its place.
    pub decided_by: Option<usize>,
}

/// Accumulated results for a fixed set of teams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings<T> {
    teams: BTreeMap<T, TeamRecord<T>>,
}

impl<T: Clone + Ord> Standings<T> {
    /// Empty records for `teams`; a team given twice is an error.
    pub fn new(teams: impl IntoIterator<Item = T>) -> Result<Self, StandingsError<T>> {
        let mut map = BTreeMap::new();
        for t in teams {
            if map.contains_key(&t) {
                return Err(StandingsError::DuplicateTeam(t));
            }
            map.insert(t, TeamRecord::new());
        }
        Ok(Self { teams: map })
    }

    /// The record of `team`.
    pub fn record(&self, team: &T) -> Option<&TeamRecord<T>> {
        self.teams.get(team)
    }

    fn get(&self, team: &T) -> Result<&TeamRecord<T>, StandingsError<T>> {
        self.teams
            .get(team)
            .ok_or_else(|| StandingsError::UnknownTeam(team.clone()))
    }

    /// Add a played match to both teams. Nothing changes if any part fails.
    pub fn record_match(&mut self, m: &MatchResult<T>) -> Result<(), StandingsError<T>> {
        if m.home == m.away {
            return Err(StandingsError::SelfMatch(m.home.clone()));
        }
        // Compute both sides' new totals first so an error leaves the standings
        // untouched; then write them in place (a record's opponents are not copied).
        let sums = |me: &T, vp: Decimal, won: Decimal, lost: Decimal| {
            let r = self.get(me)?;
            let add = |a: Decimal, b: Decimal| a.checked_add(b).ok_or(StandingsError::Overflow);
            Ok::<_, StandingsError<T>>((
                add(r.match_vp, vp)?,
                add(r.imps_won, won)?,
                add(r.imps_lost, lost)?,
            ))
        };
        let home = sums(&m.home, m.home_vp, m.home_imps, m.away_imps)?;
        let away = sums(&m.away, m.away_vp, m.away_imps, m.home_imps)?;
        for (me, opp, (vp, won, lost)) in [(&m.home, &m.away, home), (&m.away, &m.home, away)] {
            if let Some(r) = self.teams.get_mut(me) {
                (r.match_vp, r.imps_won, r.imps_lost) = (vp, won, lost);
                r.opponents.insert(opp.clone());
                r.matches = r.matches.saturating_add(1);
            }
        }
        Ok(())
    }

    /// Add a bye: its score is whatever the rules say (`vp`, and IMPs if they award any). A
    /// bye adds no opponent, so no Swiss Points.
    pub fn record_bye(
        &mut self,
        team: &T,
        vp: Decimal,
        imps_won: Decimal,
        imps_lost: Decimal,
    ) -> Result<(), StandingsError<T>> {
        let mut r = self.get(team)?.clone();
        r.match_vp = r.match_vp.checked_add(vp).ok_or(StandingsError::Overflow)?;
        r.imps_won = r
            .imps_won
            .checked_add(imps_won)
            .ok_or(StandingsError::Overflow)?;
        r.imps_lost = r
            .imps_lost
            .checked_add(imps_lost)
            .ok_or(StandingsError::Overflow)?;
        r.byes = r.byes.saturating_add(1);
        self.teams.insert(team.clone(), r);
        Ok(())
    }

    /// Add a signed VP adjustment (a penalty is negative, a carry-over positive).
    pub fn adjust(&mut self, team: &T, delta: Decimal) -> Result<(), StandingsError<T>> {
        let current = self.get(team)?.adjustments;
        let sum = current.checked_add(delta).ok_or(StandingsError::Overflow)?;
        if let Some(r) = self.teams.get_mut(team) {
            r.adjustments = sum;
        }
        Ok(())
    }

    /// Swiss Points: the sum of the current full VP totals (adjustments included) of each
    /// distinct opponent `team` has met.
    pub fn swiss_points(&self, team: &T) -> Result<Decimal, StandingsError<T>> {
        self.swiss_points_by(team, |opp| self.get(opp)?.total_vp())
    }

    /// Swiss Points with each opponent's total taken from `total_of`.
    fn swiss_points_by(
        &self,
        team: &T,
        total_of: impl Fn(&T) -> Result<Decimal, StandingsError<T>>,
    ) -> Result<Decimal, StandingsError<T>> {
        let mut sum = Decimal::ZERO;
        for opp in &self.get(team)?.opponents {
            sum = sum
                .checked_add(total_of(opp)?)
                .ok_or(StandingsError::Overflow)?;
        }
        Ok(sum)
    }

    /// The value of one criterion for `team`, every total taken from `total_of`.
    fn criterion(
        &self,
        team: &T,
        criterion: TieBreak,
        total_of: impl Fn(&T) -> Result<Decimal, StandingsError<T>>,
    ) -> Result<CriterionValue<T>, StandingsError<T>> {
        Ok(match criterion {
            TieBreak::TotalVp => CriterionValue::TotalVp(total_of(team)?),
            TieBreak::SwissPoints => {
                CriterionValue::SwissPoints(self.swiss_points_by(team, total_of)?)
            }
            TieBreak::ImpQuotient => CriterionValue::ImpQuotient(self.get(team)?.imp_quotient()?),
            TieBreak::LowerTeamId => CriterionValue::TeamId(team.clone()),
        })
    }

    /// Rank every team by `chain`, criterion by criterion. Teams equal on the whole chain
    /// share a place and are listed by team id, so the output is deterministic either way.
    pub fn rank(&self, chain: &[TieBreak]) -> Result<Vec<RankedTeam<T>>, StandingsError<T>> {
        // Each total once, in team order, rather than once per meeting: Swiss Points
        // were most of a ranking's time. A total that overflows is an error only
        // where the chain asks for it, as before.
        let totals: Vec<(&T, Option<Decimal>)> = self
            .teams
            .iter()
            .map(|(t, r)| (t, r.total_vp().ok()))
            .collect();
        let total_of = |team: &T| match totals.binary_search_by(|(t, _)| (*t).cmp(team)) {
            Ok(i) => totals[i].1.ok_or(StandingsError::Overflow),
            Err(_) => Err(StandingsError::UnknownTeam(team.clone())),
        };
        let mut rows: Vec<(T, Vec<CriterionValue<T>>)> = Vec::with_capacity(self.teams.len());
        for team in self.teams.keys() {
            let values = chain
                .iter()
                .map(|c| self.criterion(team, *c, total_of))
                .collect::<Result<Vec<_>, _>>()?;
            rows.push((team.clone(), values));
        }
        let chain_cmp = |a: &[CriterionValue<T>], b: &[CriterionValue<T>]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| x.rank_cmp(y))
                .find(|o| o.is_ne())
        };
        // Stable sort over id-ordered rows: full ties stay in id order.
        rows.sort_by(|(_, a), (_, b)| chain_cmp(a, b).unwrap_or(Ordering::Equal));

        let mut out: Vec<RankedTeam<T>> = Vec::with_capacity(rows.len());
        for (i, (team, values)) in rows.into_iter().enumerate() {
            let (place, decided_by) = match out.last() {
                None => (1, None),
                Some(prev) => {
                    let first_diff = prev
                        .values
                        .iter()
                        .zip(&values)
                        .position(|(x, y)| x.rank_cmp(y).is_ne());
                    match first_diff {
                        Some(k) => (i + 1, Some(k)),
                        None => (prev.place, None),
                    }
                }
            };
            out.push(RankedTeam {
                place,
                team,
                values,
                decided_by,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "standings_tests.rs"]
mod tests;
