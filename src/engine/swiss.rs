//! Swiss pairing that never dead-ends, and the seeded draw of a first round.
//!
//! Teams arrive in ranking order. The highest-ranked unpaired team meets the best-ranked team
//! below it that it has not met *and* for which everyone left can still be paired without a
//! rematch; that test is a perfect-matching question on the graph of pairs not yet met, which
//! the private `matching` module answers exactly (Edmonds' blossom algorithm) and cheaply
//! (one local repair per fixed pair). When greedy pairing would succeed this gives the greedy answer; when greedy
//! would dead-end it still finds a pairing; when none exists it says so.
//!
//! An odd field adds a bye vertex that may only meet teams without an earlier bye. The bye is
//! settled first: it goes to the lowest-ranked eligible team whose removal still leaves a
//! pairing. The higher-ranked team of each pair is home.
//!
//! The guarantee is per round: every round that can be paired is paired. It also covers the
//! whole event while the number of rounds is at most half the field (rounded up): every
//! vertex then keeps at least half the vertices as possible opponents, so a pairing exists by
//! Dirac's theorem. Beyond that (a round robin played as a Swiss) a round can be pairable yet
//! leave later rounds unpairable; about one 14-team, 13-round simulation in five hits this.
//! Setting [`SwissInput::later_rounds`] asks for the stronger test "and that many rounds can
//! still follow", answered by exhaustive search on fields of at most 64 vertices. It is a
//! different rule (a team may be denied the opponent the plain reading gives it), so it is
//! the caller's — the rules' — choice; `0` is the plain reading of the design.

mod lookahead;
mod matching;

use crate::engine::rng::SplitMix64;
use lookahead::{Answer, SmallGraph};
use matching::DenseMatcher;
use std::collections::BTreeMap;
use std::fmt;

/// Why a round could not be paired or drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError<T> {
    /// A team appears twice in the ranking (or the draw list).
    DuplicateTeam(T),
    /// A played pair names the same team twice.
    SelfPairing(T),
    /// No pairing without rematches (and without a second bye) exists. `stuck` is a team that
    /// no maximum matching can pair, when the obstacle is a team rather than the bye.
    NoPairing {
        /// A team that cannot be placed, if one could be named.
        stuck: Option<T>,
    },
    /// This round can be paired, but not so that `later_rounds` more rounds can follow.
    NoCompletion {
        /// The number of later rounds asked for.
        later_rounds: usize,
    },
    /// The lookahead was asked for a field too large or too sparse to search exhaustively.
    LookaheadTooExpensive,
}

impl<T: fmt::Debug> fmt::Display for PairingError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateTeam(t) => write!(f, "team {t:?} is listed twice"),
            Self::SelfPairing(t) => write!(f, "team {t:?} is recorded as having met itself"),
            Self::NoPairing { stuck: Some(t) } => write!(
                f,
                "no pairing without rematches exists; team {t:?} cannot be given an opponent"
            ),
            Self::NoPairing { stuck: None } => write!(
                f,
                "no pairing exists: the bye cannot go to a team that has not had one"
            ),
            Self::NoCompletion { later_rounds } => write!(
                f,
                "this round can be paired, but not so that {later_rounds} more rounds can follow"
            ),
            Self::LookaheadTooExpensive => {
                write!(
                    f,
                    "the field is too large for an exhaustive lookahead over later rounds"
                )
            }
        }
    }
}

impl<T: fmt::Debug> std::error::Error for PairingError<T> {}

/// One round's pairings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round<T> {
    /// `(home, away)` pairs, in table order (by the home team's rank, or draw order in round 1).
    pub pairs: Vec<(T, T)>,
    /// The team with the bye, in an odd field.
    pub bye: Option<T>,
}

/// What the pairing of a round needs to know.
#[derive(Debug, Clone, Copy)]
pub struct SwissInput<'a, T> {
    /// Teams in current ranking order, best first. Only these can be paired.
    pub ranking: &'a [T],
    /// Pairs that have already met, in any order. Pairs naming unranked teams (withdrawn,
    /// for instance) are ignored.
    pub played: &'a [(T, T)],
    /// Teams that have already had a bye.
    pub had_bye: &'a [T],
    /// Ranked teams that do not play this round (a late start, a suspension); they are
    /// neither paired nor given the bye.
    pub not_playing: &'a [T],
    /// How many rounds after this one must remain pairable (same field, no rematches, no
    /// second bye). `0` is the plain per-round reading. A positive value matters only when
    /// the field is close to a round robin; it is checked by exhaustive search for fields of
    /// up to 64 teams and is an error beyond that unless Dirac's bound already guarantees it.
    pub later_rounds: usize,
}

/// Pair one round (see the module documentation for the method).
pub fn pair_round<T: Clone + Ord>(input: &SwissInput<'_, T>) -> Result<Round<T>, PairingError<T>> {
    check_ranking(input.ranking)?;
    // Vertices are the playing teams in rank order; the bye vertex, if any, comes last.
    let teams = playing_teams(input);
    let n = teams.len();
    let bye = (n % 2 == 1).then_some(n);
    let mut m = possible_pairs(input, &teams, bye)?;
    let team_at = |v: usize| teams.get(v).map(|t| (*t).clone());

    m.make_perfect()
        .map_err(|v| PairingError::NoPairing { stuck: team_at(v) })?;

    if input.later_rounds > 0 {
        let vertices = n + usize::from(bye.is_some());
        // Dirac: with minimum degree >= half the vertices in every later round, any choice
        // now keeps later rounds pairable, and the plain method below is already exact.
        if m.min_degree().saturating_sub(input.later_rounds) * 2 < vertices {
            let rows = m.small_rows().ok_or(PairingError::LookaheadTooExpensive)?;
            return pair_with_lookahead(SmallGraph::new(rows), n, bye, input.later_rounds, team_at);
        }
    }
    pair_in_rank_order(&mut m, n, bye, team_at)
}

/// A team may stand in the ranking once.
fn check_ranking<T: Clone + Ord>(ranking: &[T]) -> Result<(), PairingError<T>> {
    let mut rank_of: BTreeMap<&T, usize> = BTreeMap::new();
    for (i, t) in ranking.iter().enumerate() {
        if rank_of.insert(t, i).is_some() {
            return Err(PairingError::DuplicateTeam(t.clone()));
        }
    }
    Ok(())
}

/// The ranking without the teams that do not play this round.
fn playing_teams<'a, T: Ord>(input: &SwissInput<'a, T>) -> Vec<&'a T> {
    let resting: std::collections::BTreeSet<&T> = input.not_playing.iter().collect();
    input
        .ranking
        .iter()
        .filter(|t| !resting.contains(t))
        .collect()
}

/// The graph of pairs still allowed: every two playing teams that have not
/// met, and the bye vertex with every team that has not had a bye.
fn possible_pairs<T: Clone + Ord>(
    input: &SwissInput<'_, T>,
    teams: &[&T],
    bye: Option<usize>,
) -> Result<DenseMatcher, PairingError<T>> {
    let vertex_of: BTreeMap<&T, usize> = teams.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    let mut m = DenseMatcher::new(teams.len() + usize::from(bye.is_some()));
    for (a, b) in input.played {
        if a == b {
            return Err(PairingError::SelfPairing(a.clone()));
        }
        if let (Some(&u), Some(&v)) = (vertex_of.get(a), vertex_of.get(b)) {
            m.block(u, v);
        }
    }
    if let Some(bv) = bye {
        let had: std::collections::BTreeSet<&T> = input.had_bye.iter().collect();
        if teams.iter().all(|t| had.contains(t)) {
            // Name the real obstacle rather than whichever team the search tripped on.
            return Err(PairingError::NoPairing { stuck: None });
        }
        for t in input.had_bye {
            if let Some(&u) = vertex_of.get(t) {
                m.block(u, bv);
            }
        }
    }
    Ok(m)
}

/// The plain per-round method on a graph known to have a perfect matching:
/// the bye from the bottom, then each highest unpaired team takes the
/// best-ranked opponent that still leaves a perfect matching.
fn pair_in_rank_order<T>(
    m: &mut DenseMatcher,
    n: usize,
    bye: Option<usize>,
    team_at: impl Fn(usize) -> Option<T>,
) -> Result<Round<T>, PairingError<T>> {
    let mut round = Round {
        pairs: Vec::with_capacity(n / 2),
        bye: None,
    };
    // A perfect matching exists, so each search below succeeds at the latest on the current
    // mate; the errors only guard the invariant.
    let stuck = |v: usize| PairingError::NoPairing { stuck: team_at(v) };
    if let Some(bv) = bye {
        // Lowest-ranked eligible team first.
        let t = (0..n)
            .rev()
            .find(|&t| m.try_fix(bv, t))
            .ok_or(PairingError::NoPairing { stuck: None })?;
        round.bye = team_at(t);
    }
    for u in 0..n {
        if !m.is_alive(u) {
            continue; // already placed: the bye, or someone's opponent
        }
        let v = (u + 1..n)
            .find(|&v| m.try_fix(u, v))
            .ok_or_else(|| stuck(u))?;
        let (home, away) = (
            team_at(u).ok_or_else(|| stuck(u))?,
            team_at(v).ok_or_else(|| stuck(v))?,
        );
        round.pairs.push((home, away));
    }
    Ok(round)
}

/// The per-round method with the stronger test "and `later` rounds can still follow", by
/// exhaustive search on a small field. Same candidate order: bye from the bottom, then each
/// highest unpaired team takes the best-ranked opponent that passes the test.
fn pair_with_lookahead<T>(
    mut g: SmallGraph,
    n: usize,
    bye: Option<usize>,
    later: usize,
    team_at: impl Fn(usize) -> Option<T>,
) -> Result<Round<T>, PairingError<T>> {
    let vertices = n + usize::from(bye.is_some());
    let mut free: u64 = if vertices >= 64 {
        u64::MAX
    } else {
        (1u64 << vertices) - 1
    };
    let check = |g: &mut SmallGraph, free: u64| match g.extendable(free, later) {
        Answer::Yes => Ok(true),
        Answer::No => Ok(false),
        Answer::TooExpensive => Err(PairingError::LookaheadTooExpensive),
    };
    if !check(&mut g, free)? {
        return Err(PairingError::NoCompletion {
            later_rounds: later,
        });
    }
    let has = |free: u64, v: usize| free & (1u64 << v) != 0;
    let fix = |g: &mut SmallGraph, free: &mut u64, u: usize, v: usize| {
        if g.adj.get(u).is_none_or(|r| r & (1u64 << v) == 0) {
            return Ok(false);
        }
        g.toggle(u, v);
        let rest = *free & !(1u64 << u) & !(1u64 << v);
        if check(g, rest)? {
            *free = rest;
            Ok(true)
        } else {
            g.toggle(u, v);
            Ok(false)
        }
    };
    let mut round = Round {
        pairs: Vec::with_capacity(n / 2),
        bye: None,
    };
    let stuck = |v: usize| PairingError::NoPairing { stuck: team_at(v) };
    if let Some(bv) = bye {
        let mut chosen = None;
        for t in (0..n).rev() {
            if fix(&mut g, &mut free, bv, t)? {
                chosen = Some(t);
                break;
            }
        }
        round.bye = Some(
            chosen
                .and_then(&team_at)
                .ok_or(PairingError::NoPairing { stuck: None })?,
        );
    }
    for u in 0..n {
        if !has(free, u) {
            continue;
        }
        let mut partner = None;
        for v in u + 1..n {
            if has(free, v) && fix(&mut g, &mut free, u, v)? {
                partner = Some(v);
                break;
            }
        }
        let v = partner.ok_or_else(|| stuck(u))?;
        round.pairs.push((
            team_at(u).ok_or_else(|| stuck(u))?,
            team_at(v).ok_or_else(|| stuck(v))?,
        ));
    }
    Ok(round)
}

/// Draw a first round from `seed`: the teams, sorted by their own order so the draw does not
/// depend on how a file lists them, are shuffled with [`SplitMix64::shuffle`]; consecutive
/// teams of the shuffled list meet, the first of each couple at home, and in an odd field the
/// last team drawn has the bye.
pub fn draw_first_round<T: Clone + Ord>(
    teams: &[T],
    seed: u64,
) -> Result<Round<T>, PairingError<T>> {
    let mut order: Vec<T> = teams.to_vec();
    order.sort();
    for pair in order.windows(2) {
        if let [a, b] = pair
            && a == b
        {
            return Err(PairingError::DuplicateTeam(a.clone()));
        }
    }
    SplitMix64::new(seed).shuffle(&mut order);
    let mut round = Round {
        pairs: Vec::with_capacity(order.len() / 2),
        bye: None,
    };
    let mut chunks = order.chunks_exact(2);
    for chunk in &mut chunks {
        if let [home, away] = chunk {
            round.pairs.push((home.clone(), away.clone()));
        }
    }
    round.bye = chunks.remainder().first().cloned();
    Ok(round)
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
