//! A tiny seeded PRNG for draws that must be reproducible by anyone.
//!
//! A published draw has to be re-creatable from its seed, years later and in other tools, so we
//! use SplitMix64 (Steele, Lea & Flood 2014; Vigna's reference C code): eight lines of integer
//! arithmetic with no platform or library-version dependence. It is not cryptographic; the
//! seed, not the generator, is the secret a director controls. Everything built on it (bounded
//! integers, shuffles) is defined here too, because library samplers may change their
//! algorithm between releases and silently change a draw.

/// SplitMix64 generator. Same seed, same sequence, on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is SplitMix64's first output for `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits (reference algorithm, wrapping arithmetic).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound`, or 0 when `bound` is 0.
    ///
    /// Rejection sampling: outputs below `2^64 mod bound` are discarded so every residue is
    /// equally likely (a plain `% bound` would favour small values).
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return x % bound;
            }
        }
    }

    /// Shuffle in place with Fisher–Yates, walking from the last index down:
    /// for `i` in `len-1 ..= 1`, swap `items[i]` with `items[below(i + 1)]`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            // `i + 1` fits in u64 and the result is `<= i`, so both casts are lossless.
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reference_outputs() {
        // Published SplitMix64 outputs for seeds 0 and 1234567.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(g.next_u64(), 0x06c4_5d18_8009_454f);
        let mut g = SplitMix64::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut g = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = g.below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(g.below(0), 0);
        assert_eq!(g.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation_and_reproducible() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        SplitMix64::new(99).shuffle(&mut a);
        SplitMix64::new(99).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(a, (0..50).collect::<Vec<_>>());
    }
}
