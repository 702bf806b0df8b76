//! Perfect matching on a dense "may still meet" graph, kept up to date as pairs are fixed.
//!
//! A Swiss field late in an event is a near-complete graph: every team may meet everyone except
//! the few it has met. So we store the *blocked* pairs as a bit matrix and treat every other
//! pair of live vertices as an edge. We keep one perfect matching and repair it locally when
//! the caller fixes a pair, instead of re-running a full matching per candidate:
//!
//! fixing `(u, v)` while `u–a` and `v–b` are matched leaves `a` and `b` as the only exposed
//! live vertices; a perfect matching of the rest exists iff an augmenting path joins them
//! (Berge), and one Edmonds search from `a` finds it if it exists. In a dense graph that
//! search usually ends after scanning one or two rows, so a whole round costs about `O(n²/64)`
//! word operations plus one short search per pair.

/// Sentinel for "no vertex" in the index arrays (kept internal; the API uses `Option`).
const NONE: usize = usize::MAX;

/// Bitset rows over `n` vertices.
#[derive(Debug, Clone)]
struct BitRows {
    words: usize,
    bits: Vec<u64>,
}

impl BitRows {
    fn new(rows: usize, n: usize) -> Self {
        let words = n.div_ceil(64);
        Self {
            words,
            bits: vec![0; rows * words],
        }
    }

    fn set(&mut self, row: usize, col: usize) {
        if let Some(w) = self.bits.get_mut(row * self.words + col / 64) {
            *w |= 1u64 << (col % 64);
        }
    }

    fn get(&self, row: usize, col: usize) -> bool {
        self.bits
            .get(row * self.words + col / 64)
            .is_some_and(|w| w & (1u64 << (col % 64)) != 0)
    }

    fn row(&self, row: usize) -> &[u64] {
        self.bits
            .get(row * self.words..(row + 1) * self.words)
            .unwrap_or(&[])
    }
}

/// The dense complement graph plus a matching on it and the scratch space of the search.
#[derive(Debug, Clone)]
pub(super) struct DenseMatcher {
    n: usize,
    /// `blocked[u][v]`: u and v may not meet (already met, or bye not allowed).
    blocked: BitRows,
    /// Live vertices as a one-row bitset: a fixed pair leaves the graph.
    alive: BitRows,
    mate: Vec<usize>,
    // Search scratch, reset per search.
    parent: Vec<usize>,
    base: Vec<usize>,
    in_tree: Vec<bool>,
    in_blossom: Vec<bool>,
    lca_mark: Vec<usize>,
    lca_stamp: usize,
    queue: Vec<usize>,
    scratch: Vec<usize>,
    /// Live exposed vertices other than the search's root, as a one-row bitset.
    exposed: BitRows,
    /// Edges between two outer vertices whose blossom is not yet contracted.
    deferred: Vec<(usize, usize)>,
}

impl DenseMatcher {
    /// A graph on `n` vertices where every pair may meet until [`Self::block`] says otherwise.
    pub(super) fn new(n: usize) -> Self {
        let mut alive = BitRows::new(1, n);
        for v in 0..n {
            alive.set(0, v);
        }
        Self {
            n,
            blocked: BitRows::new(n, n),
            alive,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            in_tree: vec![false; n],
            in_blossom: vec![false; n],
            lca_mark: vec![0; n],
            lca_stamp: 0,
            queue: Vec::with_capacity(n),
            scratch: Vec::with_capacity(n),
            exposed: BitRows::new(1, n),
            deferred: Vec::new(),
        }
    }

    /// Forbid `u` and `v` from being matched.
    pub(super) fn block(&mut self, u: usize, v: usize) {
        self.blocked.set(u, v);
        self.blocked.set(v, u);
    }

    /// `v` is still in the graph (not yet placed in a fixed pair).
    pub(super) fn is_alive(&self, v: usize) -> bool {
        self.alive.get(0, v)
    }

    fn set_alive(&mut self, v: usize, live: bool) {
        if let Some(w) = self.alive.bits.get_mut(v / 64) {
            if live {
                *w |= 1u64 << (v % 64);
            } else {
                *w &= !(1u64 << (v % 64));
            }
        }
    }

    /// Allowed-pair rows as 64-bit masks, for fields of at most 64 vertices.
    pub(super) fn small_rows(&self) -> Option<Vec<u64>> {
        if self.n > 64 {
            return None;
        }
        Some((0..self.n).map(|v| self.row_mask(v, 0)).collect())
    }

    /// Word `w` of the live, allowed neighbours of `v`.
    fn row_mask(&self, v: usize, w: usize) -> u64 {
        let blk = self.blocked.row(v).get(w).copied().unwrap_or(u64::MAX);
        let live = self.alive.row(0).get(w).copied().unwrap_or(0);
        let me = if v / 64 == w { 1u64 << (v % 64) } else { 0 };
        live & !blk & !me
    }

    /// The smallest number of live neighbours of a live vertex (0 for an empty graph).
    pub(super) fn min_degree(&self) -> usize {
        (0..self.n)
            .filter(|&v| self.is_alive(v))
            .map(|v| {
                (0..self.blocked.words)
                    .map(|w| self.row_mask(v, w).count_ones() as usize)
                    .sum()
            })
            .min()
            .unwrap_or(0)
    }

    /// `u` and `v` are both live, distinct, and allowed to meet.
    pub(super) fn is_edge(&self, u: usize, v: usize) -> bool {
        u != v && self.is_alive(u) && self.is_alive(v) && !self.blocked.get(u, v)
    }

    /// The vertex `v` is matched to, if any.
    #[cfg(test)]
    pub(super) fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().filter(|m| *m != NONE)
    }

    /// Complete the current matching to a perfect one on the live vertices, or return a vertex
    /// that no maximum matching covers (the field cannot be paired). Greedy first, in index
    /// order, because a dense graph leaves few vertices for the expensive search.
    pub(super) fn make_perfect(&mut self) -> Result<(), usize> {
        for u in 0..self.n {
            if !self.is_alive(u) || self.mate[u] != NONE {
                continue;
            }
            if let Some(v) = (u + 1..self.n).find(|&v| self.mate[v] == NONE && self.is_edge(u, v)) {
                self.mate[u] = v;
                self.mate[v] = u;
            }
        }
        for r in 0..self.n {
            if self.is_alive(r) && self.mate[r] == NONE {
                // No augmenting path from r now means some maximum matching misses r, so no
                // perfect matching exists at all.
                let end = self.find_augmenting_path(r).ok_or(r)?;
                self.augment(end);
            }
        }
        Ok(())
    }

    /// Fix the pair `(u, v)` if the remaining live vertices can still be perfectly matched;
    /// both then leave the graph and `true` is returned. Otherwise nothing changes and the
    /// answer is `false`. Requires the current matching to be perfect.
    pub(super) fn try_fix(&mut self, u: usize, v: usize) -> bool {
        if !self.is_edge(u, v) {
            return false;
        }
        let (a, b) = (self.mate[u], self.mate[v]);
        self.set_alive(u, false);
        self.set_alive(v, false);
        if a == v {
            return true;
        }
        if a == NONE || b == NONE {
            // Not a perfect matching: a caller bug, answered conservatively.
            self.set_alive(u, true);
            self.set_alive(v, true);
            return false;
        }
        self.mate[a] = NONE;
        self.mate[b] = NONE;
        self.mate[u] = v;
        self.mate[v] = u;
        // a and b are the only exposed live vertices, so a path found from a ends at b.
        if let Some(end) = self.find_augmenting_path(a) {
            self.augment(end);
            return true;
        }
        self.set_alive(u, true);
        self.set_alive(v, true);
        self.mate[u] = a;
        self.mate[a] = u;
        self.mate[v] = b;
        self.mate[b] = v;
        false
    }

    /// Flip the alternating path that ends at the exposed vertex `end`.
    fn augment(&mut self, mut v: usize) {
        while v != NONE {
            let pv = self.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }

    /// Append the live neighbours of `v` (allowed, live, not `v`) to `out`, in index order,
    /// scanning 64 candidates per word.
    fn collect_neighbours(&self, v: usize, out: &mut Vec<usize>) {
        let row = self.blocked.row(v);
        for (wi, (&blk, &live)) in row.iter().zip(self.alive.row(0)).enumerate() {
            let mut bits = live & !blk;
            while bits != 0 {
                let to = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if to != v {
                    out.push(to);
                }
            }
        }
    }

    /// The first exposed live neighbour of `v`, if any.
    fn exposed_neighbour(&self, v: usize) -> Option<usize> {
        (0..self.exposed.words).find_map(|w| {
            let bits = self.row_mask(v, w) & self.exposed.row(0).get(w).copied().unwrap_or(0);
            (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
        })
    }

    /// Edmonds' search for an augmenting path from the exposed vertex `root`, contracting
    /// blossoms through the `base` array (the classic O(V³)-overall formulation). Returns the
    /// exposed vertex where the path ends; the path itself is left in `parent`/`mate`.
    fn find_augmenting_path(&mut self, root: usize) -> Option<usize> {
        self.parent.fill(NONE);
        self.in_tree.fill(false);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.in_tree[root] = true;
        self.queue.push(root);
        self.exposed.bits.fill(0);
        for v in 0..self.n {
            if v != root && self.mate[v] == NONE && self.is_alive(v) {
                self.exposed.set(0, v);
            }
        }
        self.deferred.clear();
        let (mut head, mut next_deferred) = (0, 0);
        loop {
            let Some(&v) = self.queue.get(head) else {
                // The tree cannot grow: close a blossom that was put off, which
                // may make inner vertices outer and let it grow again.
                let &(v, to) = self.deferred.get(next_deferred)?;
                next_deferred += 1;
                if self.base[v] != self.base[to] {
                    self.contract(v, to);
                }
                continue;
            };
            head += 1;
            // An exposed neighbour ends the search at once. Looked for first, by
            // words of 64, because the scan in index order may meet it late.
            if let Some(to) = self.exposed_neighbour(v) {
                self.parent[to] = v;
                return Some(to);
            }
            // Collect first (into reused scratch): the scan borrows self, the updates need it
            // mutably. This matches the textbook loop over a static adjacency list.
            let mut neighbours = std::mem::take(&mut self.scratch);
            neighbours.clear();
            self.collect_neighbours(v, &mut neighbours);
            for &to in &neighbours {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                let to_is_outer =
                    to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE);
                if to_is_outer {
                    // Put off: each contraction costs O(n), and in a dense field the
                    // root alone closes a blossom with nearly every pair it reaches
                    // (a round of 9,500 teams took minutes). Edmonds' method may take
                    // the edges of outer vertices in any order; most searches end
                    // before any of these is needed.
                    self.deferred.push((v, to));
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    // Exposed neighbours were taken above, so `to` is matched.
                    let m = self.mate[to];
                    if m == NONE {
                        self.scratch = neighbours;
                        return Some(to);
                    }
                    self.in_tree[m] = true;
                    self.queue.push(m);
                }
            }
            self.scratch = neighbours;
        }
    }

    /// Contract the blossom closed by the edge `v–to` onto its base.
    fn contract(&mut self, v: usize, to: usize) {
        let cur_base = self.lca(v, to);
        self.in_blossom.fill(false);
        self.mark_path(v, cur_base, to);
        self.mark_path(to, cur_base, v);
        for i in 0..self.n {
            if self.in_blossom[self.base[i]] {
                self.base[i] = cur_base;
                if !self.in_tree[i] {
                    self.in_tree[i] = true;
                    self.queue.push(i);
                }
            }
        }
    }

    /// Lowest common ancestor of two outer vertices in the alternating tree (by bases).
    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        self.lca_stamp += 1;
        let stamp = self.lca_stamp;
        loop {
            a = self.base[a];
            self.lca_mark[a] = stamp;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if self.lca_mark[b] == stamp {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Mark the blossom path from `v` up to `base`, re-pointing parents so the blossom can be
    /// traversed in both directions when augmenting.
    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            let m = self.mate[v];
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[m]] = true;
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: can the live vertices be perfectly matched?
    fn brute(m: &DenseMatcher) -> bool {
        fn go(m: &DenseMatcher, used: &mut Vec<bool>) -> bool {
            let Some(u) = (0..m.n).find(|&u| m.is_alive(u) && !used[u]) else {
                return true;
            };
            used[u] = true;
            for v in 0..m.n {
                if !used[v] && m.is_edge(u, v) {
                    used[v] = true;
                    if go(m, used) {
                        return true;
                    }
                    used[v] = false;
                }
            }
            used[u] = false;
            false
        }
        go(m, &mut vec![false; m.n])
    }

    fn assert_perfect(m: &DenseMatcher) {
        for v in 0..m.n {
            if m.is_alive(v) {
                let w = m.mate(v).unwrap();
                assert!(m.is_edge(v, w), "{v}-{w} not an edge");
                assert_eq!(m.mate(w), Some(v));
            }
        }
    }

    #[test]
    fn two_triangles_have_no_perfect_matching() {
        // Six vertices whose allowed edges form two triangles.
        let mut m = DenseMatcher::new(6);
        for u in 0..6 {
            for v in u + 1..6 {
                if (u < 3) != (v < 3) {
                    m.block(u, v);
                }
            }
        }
        assert!(m.make_perfect().is_err());
    }

    #[test]
    fn blossom_case_is_found() {
        // A 5-cycle 0-1-2-3-4 with a pendant 5 on 4: needs a blossom to find 0-1,2-3,4-5.
        let mut m = DenseMatcher::new(6);
        let allowed = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5)];
        for u in 0..6 {
            for v in u + 1..6 {
                if !allowed.contains(&(u, v)) {
                    m.block(u, v);
                }
            }
        }
        m.make_perfect().unwrap();
        assert_perfect(&m);
        assert_eq!(m.mate(5), Some(4));
    }

    #[test]
    fn try_fix_agrees_with_brute_force_on_random_graphs() {
        let mut rng = crate::engine::rng::SplitMix64::new(11);
        for trial in 0..600 {
            let n = 2 * (1 + rng.below(6) as usize);
            let mut m = DenseMatcher::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if rng.below(100) < 55 {
                        m.block(u, v);
                    }
                }
            }
            let feasible = brute(&m);
            assert_eq!(m.make_perfect().is_ok(), feasible, "trial {trial}");
            if !feasible {
                continue;
            }
            assert_perfect(&m);
            // Fix pairs in index order, checking each answer against brute force.
            for u in 0..n {
                if !m.is_alive(u) {
                    continue;
                }
                for v in u + 1..n {
                    if !m.is_edge(u, v) {
                        continue;
                    }
                    let mut probe = m.clone();
                    probe.set_alive(u, false);
                    probe.set_alive(v, false);
                    let expect = brute(&probe);
                    assert_eq!(m.try_fix(u, v), expect, "trial {trial} fix {u}-{v}");
                    assert_perfect(&m);
                    if expect {
                        break;
                    }
                }
                assert!(!m.is_alive(u), "trial {trial}: {u} left unpaired");
            }
        }
    }
}
