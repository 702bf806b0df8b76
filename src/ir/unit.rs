//! Units of measure as products of powers of named base units.
//!
//! The edition declares its units (`unit VP`, `unit SEK alias kr`); bfr knows none
//! by name. `SEK/player × player = SEK`; adding VP to IMP is a check error.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Base-unit names with non-zero exponents.
type Powers = BTreeMap<String, i32>;

/// A unit: canonical base-unit names with non-zero exponents. The empty unit is a
/// plain number.
///
/// The powers are shared (`None` for a plain number, never an empty map), so that
/// copying a unit, as every evaluation step that passes a quantity on does, is a
/// reference count and not a heap allocation.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Unit(Option<Arc<Powers>>);

/// No powers, for a plain number.
static NO_POWERS: Powers = BTreeMap::new();

impl fmt::Debug for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Unit").field(self.powers()).finish()
    }
}

/// The binary form (the compiled edition): the powers, an empty map for a plain
/// number.
impl borsh::BorshSerialize for Unit {
    fn serialize<W: std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        borsh::BorshSerialize::serialize(self.powers(), writer)
    }
}

impl borsh::BorshDeserialize for Unit {
    fn deserialize_reader<R: std::io::Read>(reader: &mut R) -> std::io::Result<Self> {
        let powers = Powers::deserialize_reader(reader)?;
        // A zero power is no power: the canonical form keeps none.
        let powers: Powers = powers.into_iter().filter(|(_, p)| *p != 0).collect();
        Ok(Unit((!powers.is_empty()).then(|| Arc::new(powers))))
    }
}

impl Unit {
    /// A plain number.
    pub fn none() -> Self {
        Unit::default()
    }

    /// One base unit.
    pub fn base(name: &str) -> Self {
        let mut m = BTreeMap::new();
        m.insert(name.to_string(), 1);
        Unit(Some(Arc::new(m)))
    }

    /// Whether this is a plain number.
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }

    fn powers(&self) -> &Powers {
        self.0.as_deref().unwrap_or(&NO_POWERS)
    }

    /// The base unit, if this is exactly one base unit to the first power.
    pub fn as_base(&self) -> Option<&str> {
        let powers = self.powers();
        match powers.iter().next() {
            Some((name, 1)) if powers.len() == 1 => Some(name),
            _ => None,
        }
    }

    fn combine(&self, other: &Unit, sign: i32) -> Unit {
        // A plain number on either side leaves the other unit as it is: no new map.
        if other.is_none() {
            return self.clone();
        }
        if self.is_none() && sign == 1 {
            return other.clone();
        }
        let mut m = self.powers().clone();
        for (k, v) in other.powers() {
            let e = m.entry(k.clone()).or_insert(0);
            *e += sign * v;
            if *e == 0 {
                m.remove(k);
            }
        }
        Unit((!m.is_empty()).then(|| Arc::new(m)))
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
            .powers()
            .iter()
            .filter(|(_, e)| **e > 0)
            .map(|(n, e)| pow(n, *e))
            .collect();
        let den: Vec<String> = self
            .powers()
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
