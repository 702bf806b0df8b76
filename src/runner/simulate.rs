//! A whole event from a seed: team strengths, match results and captains' choices
//! are drawn from one reproducible random stream.

use super::Source;
use crate::engine::rng::SplitMix64;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// Simulated results: each team has a hidden strength; a match's IMPs follow the
/// difference in strength plus noise that grows with the number of boards.
pub struct Simulation {
    rng: SplitMix64,
    strength: BTreeMap<u32, i64>,
}

impl Simulation {
    /// A random index below `len`, or `None` for an empty choice.
    fn index_below(&mut self, len: usize) -> Option<usize> {
        let len = u64::try_from(len).ok().filter(|n| *n > 0)?;
        usize::try_from(self.rng.below(len)).ok()
    }

    /// A simulation of teams `1..=teams` from `seed`.
    pub fn new(teams: u32, seed: u64) -> Self {
        // A stream apart from the first round's draw, which uses `seed` itself.
        let mut rng = SplitMix64::new(seed ^ 0x005e_ed0f_b1d5);
        let strength = (1..=teams)
            .map(|t| (t, rng.below(41) as i64 - 20))
            .collect();
        Simulation { rng, strength }
    }

    fn imps(&mut self, home: u32, away: u32, boards: Decimal) -> (Decimal, Decimal) {
        let b = i64::try_from(boards.trunc().mantissa())
            .unwrap_or(8)
            .clamp(1, 128);
        let diff = self.strength.get(&home).copied().unwrap_or(0)
            - self.strength.get(&away).copied().unwrap_or(0);
        let spread = 3 * b;
        let noise = self.rng.below(u64::try_from(2 * spread + 1).unwrap_or(1)) as i64 - spread;
        let margin = diff * b / 8 + noise;
        let base = 2 * b + self.rng.below(u64::try_from(b + 1).unwrap_or(1)) as i64;
        let (h, a) = if margin >= 0 {
            (base + margin, base)
        } else {
            (base, base - margin)
        };
        (Decimal::from(h), Decimal::from(a))
    }
}

impl Source for Simulation {
    fn qualification_result(
        &mut self,
        _round: u32,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        Some(self.imps(home, away, boards))
    }

    fn choice(&mut self, _stage: &str, _chooser: u32, candidates: &[u32]) -> Option<u32> {
        let n = u64::try_from(candidates.len()).unwrap_or(1);
        let i = usize::try_from(self.rng.below(n.max(1))).unwrap_or(0);
        candidates.get(i).copied()
    }

    fn knockout_result(
        &mut self,
        _stage: &str,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        Some(self.imps(home, away, boards))
    }

    fn segment_picks(
        &mut self,
        _stage: &str,
        _home: u32,
        _away: u32,
        allowed: &[(u32, u32)],
    ) -> Option<(u32, u32)> {
        // Home picks any segment it may; away then one of the picks left to it.
        let mut homes: Vec<u32> = allowed.iter().map(|(h, _)| *h).collect();
        homes.dedup();
        let home = *homes.get(self.index_below(homes.len())?)?;
        let aways: Vec<u32> = allowed
            .iter()
            .filter(|(h, _)| *h == home)
            .map(|(_, a)| *a)
            .collect();
        let away = *aways.get(self.index_below(aways.len())?)?;
        Some((home, away))
    }
}
