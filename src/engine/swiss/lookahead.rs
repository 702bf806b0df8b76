//! Optional lookahead for small fields near a full round robin.
//!
//! The per-round check guarantees only the current round. When few opponents are left (late
//! rounds of a round robin played as a Swiss), a round can be pairable while leaving the rest
//! unpairable (an odd cycle of unmet pairs). This module answers the stronger question "can
//! this round be completed so that `later` further rounds can still be paired?" by exhaustive
//! search over perfect matchings, which is exponential in general; it is used only for fields
//! of at most 64 vertices and only when Dirac's bound does not already guarantee the answer.

/// Search nodes allowed before giving up, so a pathological case cannot hang a run.
const NODE_BUDGET: u64 = 20_000_000;

/// Outcome of one lookahead question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    Yes,
    No,
    /// The search hit [`NODE_BUDGET`].
    TooExpensive,
}

/// Allowed pairs of a field of at most 64 vertices as bit rows.
#[derive(Debug, Clone)]
pub(super) struct SmallGraph {
    pub(super) adj: Vec<u64>,
    all: u64,
    nodes: u64,
}

impl SmallGraph {
    /// `adj[v]` has bit `u` set when `u` and `v` may meet. At most 64 vertices.
    pub(super) fn new(adj: Vec<u64>) -> Self {
        let n = adj.len().min(64);
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Self { adj, all, nodes: 0 }
    }

    /// Can the unpaired vertices `free` be paired now, and then `later` full rounds more?
    pub(super) fn extendable(&mut self, free: u64, later: usize) -> Answer {
        self.nodes = 0;
        match self.search(free, later) {
            Some(true) => Answer::Yes,
            Some(false) => Answer::No,
            None => Answer::TooExpensive,
        }
    }

    /// `Some(found)`, or `None` when the budget ran out.
    fn search(&mut self, free: u64, later: usize) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            return None;
        }
        if free == 0 {
            return if later == 0 {
                Some(true)
            } else {
                self.search(self.all, later - 1)
            };
        }
        // Prune: every free vertex needs a free partner now and enough partners for later.
        let mut f = free;
        let mut best = (u32::MAX, 0usize);
        while f != 0 {
            let v = f.trailing_zeros() as usize;
            f &= f - 1;
            let row = self.adj.get(v).copied().unwrap_or(0);
            let now = (row & free).count_ones();
            if now == 0 || (row.count_ones() as usize) <= later {
                return Some(false);
            }
            if now < best.0 {
                best = (now, v);
            }
        }
        // Branch on the most constrained vertex.
        let u = best.1;
        let mut cands = self.adj.get(u).copied().unwrap_or(0) & free;
        while cands != 0 {
            let v = cands.trailing_zeros() as usize;
            cands &= cands - 1;
            self.toggle(u, v);
            let r = self.search(free & !(1u64 << u) & !(1u64 << v), later);
            self.toggle(u, v);
            match r {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }

    /// Remove (or restore) the edge `u–v`: a pair used in one round is gone for later rounds.
    pub(super) fn toggle(&mut self, u: usize, v: usize) {
        if let Some(r) = self.adj.get_mut(u) {
            *r ^= 1u64 << v;
        }
        if let Some(r) = self.adj.get_mut(v) {
            *r ^= 1u64 << u;
        }
    }
}
