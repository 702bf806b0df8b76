//! Units of measure as products of powers of named base units.
//!
//! The edition declares its units (`unit VP`, `unit SEK alias kr`); bfr knows none
//! by name. `SEK/player × player = SEK`; adding VP to IMP is a check error.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// A unit: canonical base-unit names with non-zero exponents. The empty unit is a
/// plain number.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Unit(BTreeMap<String, i32>);

impl Unit {
    /// A plain number.
    pub fn none() -> Self {
        Unit::default()
    }

    /// One base unit.
    pub fn base(name: &str) -> Self {
        let mut m = BTreeMap::new();
        m.insert(name.to_string(), 1);
        Unit(m)
    }

    /// Whether this is a plain number.
    pub fn is_none(&self) -> bool {
        self.0.is_empty()
    }

    /// The base unit, if this is exactly one base unit to the first power.
    pub fn as_base(&self) -> Option<&str> {
        match self.0.iter().next() {
            Some((name, 1)) if self.0.len() == 1 => Some(name),
            _ => None,
        }
    }

    fn combine(&self, other: &Unit, sign: i32) -> Unit {
        let mut m = self.0.clone();
        for (k, v) in &other.0 {
            let e = m.entry(k.clone()).or_insert(0);
            *e += sign * v;
            if *e == 0 {
                m.remove(k);
            }
        }
        Unit(m)
    }

    /// `self × other`.
    pub fn mul(&self, other: &Unit) -> Unit {
        self.combine(other, 1)
    }

    /// `self ÷ other`.
    pub fn div(&self, other: &Unit) -> Unit {
        self.combine(other, -1)
    }
}

impl fmt::Display for Unit {
    /// `SEK/player`, `VP`, `SEK*team/player`; a plain number shows as nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pow = |name: &str, e: i32| {
            if e == 1 {
                name.to_string()
            } else {
                format!("{name}^{e}")
            }
        };
        let num: Vec<String> = self
            .0
            .iter()
            .filter(|(_, e)| **e > 0)
            .map(|(n, e)| pow(n, *e))
            .collect();
        let den: Vec<String> = self
            .0
            .iter()
            .filter(|(_, e)| **e < 0)
            .map(|(n, e)| pow(n, -e))
            .collect();
        let num = if num.is_empty() && !den.is_empty() {
            "1".to_string()
        } else {
            num.join("*")
        };
        if den.is_empty() {
            write!(f, "{num}")
        } else {
            write!(f, "{num}/{}", den.join("/"))
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplies_and_divides() {
        let sek = Unit::base("SEK");
        let player = Unit::base("player");
        let per_player = sek.div(&player);
        assert_eq!(per_player.to_string(), "SEK/player");
        assert_eq!(per_player.mul(&player), sek);
        assert!(sek.div(&sek).is_none());
        assert_eq!(Unit::none().div(&player).to_string(), "1/player");
    }
}
