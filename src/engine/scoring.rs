//! Scoring primitives: IMPs, victory points, matchpoints, Neuberg, and the IMP quotient.
//!
//! Every scale is data handed in by the caller (the rules files); this module only knows how to
//! read a table. All arithmetic is exact decimal arithmetic with overflow reported as an error.

use rust_decimal::Decimal;
use std::collections::BTreeMap;
use std::fmt;

/// Why a scoring primitive refused its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoringError {
    /// A scale table is malformed (empty, unsorted, overlapping...); the text says how.
    InvalidTable(String),
    /// The table has no row for this value (a gap or a value below its first row).
    NotCovered(Decimal),
    /// No VP scale is defined for this number of boards.
    NoScaleForBoards(u32),
    /// An argument is outside its domain; the text says which and why.
    InvalidInput(String),
    /// Decimal arithmetic overflowed.
    Overflow,
}

impl fmt::Display for ScoringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidTable(why) => write!(f, "invalid scale table: {why}"),
            Self::NotCovered(v) => write!(f, "the scale has no row for {v}"),
            Self::NoScaleForBoards(b) => write!(f, "no VP scale for a {b}-board match"),
            Self::InvalidInput(why) => write!(f, "invalid input: {why}"),
            Self::Overflow => write!(f, "decimal overflow"),
        }
    }
}

impl std::error::Error for ScoringError {}

/// An IMP scale in threshold form, as Law 78B prints it: for each IMP value, the lowest point
/// difference that earns it. Differences are read by absolute value and the sign is given back,
/// so the table only describes the non-negative half.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImpScale {
    /// `(lowest difference, imps)`, strictly increasing in both columns.
    rows: Vec<(Decimal, Decimal)>,
}

impl ImpScale {
    /// Build a scale from `(lowest difference, imps)` rows.
    ///
    /// Rows must be non-empty with non-negative differences, strictly increasing in both
    /// columns: a scale that repeats or goes back is a data error we want to catch here rather
    /// than read silently.
    pub fn new(rows: Vec<(Decimal, Decimal)>) -> Result<Self, ScoringError> {
        if rows.is_empty() {
            return Err(ScoringError::InvalidTable(
                "the IMP scale has no rows".into(),
            ));
        }
        for (i, (diff, _)) in rows.iter().enumerate() {
            if diff.is_sign_negative() && !diff.is_zero() {
                return Err(ScoringError::InvalidTable(format!(
                    "row {}: the difference {diff} is negative",
                    i + 1
                )));
            }
        }
        for (i, pair) in rows.windows(2).enumerate() {
            if let [(d0, i0), (d1, i1)] = pair
                && (d1 <= d0 || i1 <= i0)
            {
                return Err(ScoringError::InvalidTable(format!(
                    "row {} does not increase on row {}",
                    i + 2,
                    i + 1
                )));
            }
        }
        Ok(Self { rows })
    }

    /// IMPs for a signed point difference: the row with the largest threshold not above
    /// `|diff|`, with the sign of `diff`. A difference below the first threshold is not covered.
    pub fn imps(&self, diff: Decimal) -> Result<Decimal, ScoringError> {
        let magnitude = diff.abs();
        // Rows are sorted, so the covering row is just before the first threshold above.
        let idx = self.rows.partition_point(|(low, _)| *low <= magnitude);
        let (_, imps) = idx
            .checked_sub(1)
            .and_then(|i| self.rows.get(i))
            .ok_or(ScoringError::NotCovered(diff))?;
        Ok(if diff.is_sign_negative() {
            -*imps
        } else {
            *imps
        })
    }
}

/// Victory points of the two sides of one match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VpPair {
    /// VP of the side whose IMP margin was given.
    pub team: Decimal,
    /// VP of its opponent.
    pub opponent: Decimal,
}

/// Anything that turns an IMP margin into VP for both sides: a band table, or a formula the
/// caller evaluates (e.g. a continuous WBF scale written in the rules language).
pub trait VpScale {
    /// VP for a match won by `imp_margin` IMPs (negative when lost), seen from one side.
    fn vp(&self, imp_margin: Decimal) -> Result<VpPair, ScoringError>;
}

/// One band of a VP table: margins `low..=high` (absolute IMPs, `high = None` for "and more")
/// give the winner `winner` VP and the loser `loser` VP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VpBand {
    /// Lowest margin in the band, inclusive.
    pub low: Decimal,
    /// Highest margin in the band, inclusive; `None` means unbounded.
    pub high: Option<Decimal>,
    /// VP of the team that won by a margin in this band.
    pub winner: Decimal,
    /// VP of the team that lost by a margin in this band.
    pub loser: Decimal,
}

/// A banded VP scale for one board count, as the published 25–0 tables print it (inclusive
/// ranges). Gaps are allowed in the data because published tables list integer margins only;
/// a fractional margin falling in a gap is reported, not rounded by guesswork.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VpBandTable {
    bands: Vec<VpBand>,
}

impl VpBandTable {
    /// Build a table from bands sorted by margin, non-overlapping, each `low <= high`, with an
    /// open top only on the last band. A band containing margin 0 must give both sides the same
    /// VP, since a zero margin does not tell the winner from the loser.
    pub fn new(bands: Vec<VpBand>) -> Result<Self, ScoringError> {
        if bands.is_empty() {
            return Err(ScoringError::InvalidTable(
                "the VP table has no bands".into(),
            ));
        }
        let last = bands.len() - 1;
        for (i, b) in bands.iter().enumerate() {
            let n = i + 1;
            if b.low.is_sign_negative() && !b.low.is_zero() {
                return Err(ScoringError::InvalidTable(format!(
                    "band {n} starts below 0"
                )));
            }
            match b.high {
                Some(h) if h < b.low => {
                    return Err(ScoringError::InvalidTable(format!(
                        "band {n} ends before it starts"
                    )));
                }
                None if i != last => {
                    return Err(ScoringError::InvalidTable(format!(
                        "band {n} is open-ended but is not the last band"
                    )));
                }
                _ => {}
            }
            if b.low.is_zero() && b.winner != b.loser {
                return Err(ScoringError::InvalidTable(format!(
                    "band {n} covers a zero margin but gives {}-{}",
                    b.winner, b.loser
                )));
            }
        }
        for (i, pair) in bands.windows(2).enumerate() {
            if let [a, b] = pair
                && a.high.is_none_or(|h| b.low <= h)
            {
                return Err(ScoringError::InvalidTable(format!(
                    "band {} overlaps or precedes band {}",
                    i + 2,
                    i + 1
                )));
            }
        }
        Ok(Self { bands })
    }

    /// The bands, in margin order.
    pub fn bands(&self) -> &[VpBand] {
        &self.bands
    }
}

impl VpScale for VpBandTable {
    fn vp(&self, imp_margin: Decimal) -> Result<VpPair, ScoringError> {
        let m = imp_margin.abs();
        let idx = self.bands.partition_point(|b| b.low <= m);
        let band = idx
            .checked_sub(1)
            .and_then(|i| self.bands.get(i))
            .filter(|b| b.high.is_none_or(|h| m <= h))
            .ok_or(ScoringError::NotCovered(imp_margin))?;
        Ok(if imp_margin.is_sign_negative() && !imp_margin.is_zero() {
            VpPair {
                team: band.loser,
                opponent: band.winner,
            }
        } else {
            VpPair {
                team: band.winner,
                opponent: band.loser,
            }
        })
    }
}

/// A VP scale given as a caller-provided function, e.g. a formula from the rules interpreter.
pub struct VpFn<F>(pub F);

impl<F> VpScale for VpFn<F>
where
    F: Fn(Decimal) -> Result<VpPair, ScoringError>,
{
    fn vp(&self, imp_margin: Decimal) -> Result<VpPair, ScoringError> {
        (self.0)(imp_margin)
    }
}

/// VP scales keyed by the number of boards in the match (a 25–0 scale differs per length, and
/// a cancelled board turns a 16-board match into a 15-board one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VpScalesByBoards<S> {
    scales: BTreeMap<u32, S>,
}

impl<S: VpScale> VpScalesByBoards<S> {
    /// Collect scales; a board count given twice is an error rather than a silent override.
    pub fn new(scales: impl IntoIterator<Item = (u32, S)>) -> Result<Self, ScoringError> {
        let mut map = BTreeMap::new();
        for (boards, scale) in scales {
            if map.insert(boards, scale).is_some() {
                return Err(ScoringError::InvalidTable(format!(
                    "two VP scales for {boards} boards"
                )));
            }
        }
        Ok(Self { scales: map })
    }

    /// The scale for `boards` boards.
    pub fn for_boards(&self, boards: u32) -> Result<&S, ScoringError> {
        self.scales
            .get(&boards)
            .ok_or(ScoringError::NoScaleForBoards(boards))
    }

    /// VP for a match of `boards` boards won by `imp_margin` IMPs.
    pub fn vp(&self, boards: u32, imp_margin: Decimal) -> Result<VpPair, ScoringError> {
        self.for_boards(boards)?.vp(imp_margin)
    }
}

/// Matchpoints for one board: `scores` are the results of every table, all from the same
/// direction. Each result earns 2 per other result it beats and 1 per other result it ties,
/// so the top is `2 * (n - 1)`. The other direction scores `top - mp`. Output order follows
/// the input.
pub fn matchpoints(scores: &[Decimal]) -> Vec<Decimal> {
    scores
        .iter()
        .map(|s| {
            let points: u64 = scores
                .iter()
                .map(|o| match s.cmp(o) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum();
            // Comparing a score with itself counted one tie; take it back.
            Decimal::from(points.saturating_sub(1))
        })
        .collect()
}

/// Neuberg's formula: scale a matchpoint score from a board played `played` times to a board
/// meant to be played `expected` times.
///
/// Units: `mp` is in the 2-per-comparison units of [`matchpoints`] (top `2 * (played - 1)`);
/// the result is in the same units with top `2 * (expected - 1)`:
///
/// `mp' = (mp + 1) * expected / played - 1`
///
/// (In 1-per-comparison units the same formula reads `(m + ½) * E / e - ½`; `(m + 1)` with
/// 1-point units would be wrong.) The idea: each of the `played` results stands for
/// `expected / played` results; the `+1/-1` counts a score's own virtual ties. An average
/// stays an average, a top becomes slightly less than the new top. The result is not rounded:
/// how many decimals to keep is a rule of the competition.
pub fn neuberg(mp: Decimal, played: u32, expected: u32) -> Result<Decimal, ScoringError> {
    if played == 0 || expected == 0 {
        return Err(ScoringError::InvalidInput(
            "Neuberg needs a board played and expected at least once".into(),
        ));
    }
    let top = Decimal::from(2u64 * (u64::from(played) - 1));
    if mp.is_sign_negative() && !mp.is_zero() || mp > top {
        return Err(ScoringError::InvalidInput(format!(
            "{mp} matchpoints is outside 0..={top} for a board played {played} times"
        )));
    }
    // Multiply before dividing so whole results stay exact.
    mp.checked_add(Decimal::ONE)
        .and_then(|x| x.checked_mul(Decimal::from(expected)))
        .and_then(|x| x.checked_div(Decimal::from(played)))
        .and_then(|x| x.checked_sub(Decimal::ONE))
        .ok_or(ScoringError::Overflow)
}

/// The quotient of IMPs won to IMPs lost, as a tie-break reads it: `x / 0` is `Infinite` for
/// `x > 0` and `0 / 0` is 1 (nothing won, nothing lost: even). Ordered, so a larger quotient
/// compares greater and `Infinite` beats every finite value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImpQuotient {
    /// `won / lost` with `lost > 0`, or 1 for `0 / 0`, to 28 significant digits.
    Finite(Decimal),
    /// `won > 0` and `lost == 0`.
    Infinite,
}

impl ImpQuotient {
    /// The quotient of `won` to `lost`; both must be non-negative.
    pub fn new(won: Decimal, lost: Decimal) -> Result<Self, ScoringError> {
        let negative = |d: Decimal| d.is_sign_negative() && !d.is_zero();
        if negative(won) || negative(lost) {
            return Err(ScoringError::InvalidInput(format!(
                "IMPs won ({won}) and lost ({lost}) must not be negative"
            )));
        }
        if lost.is_zero() {
            return Ok(if won.is_zero() {
                Self::Finite(Decimal::ONE)
            } else {
                Self::Infinite
            });
        }
        won.checked_div(lost)
            .map(Self::Finite)
            .ok_or(ScoringError::Overflow)
    }
}

impl fmt::Display for ImpQuotient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Finite(q) => write!(f, "{q}"),
            Self::Infinite => write!(f, "∞"),
        }
    }
}

#[cfg(test)]
#[path = "scoring_tests.rs"]
mod tests;
