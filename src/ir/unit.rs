//! Units of measure as products of powers of named base units.
//!
//! The edition declares its units (`unit VP`, `unit SEK alias kr`); bfr knows none
//! by name. `SEK/player × player = SEK`; adding VP to IMP is a check error.

use borsh::BorshDeserialize;
use rustc_hash::FxBuildHasher;
use serde::{Serialize, Serializer};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, PoisonError};

/// Base-unit names with non-zero exponents.
type Powers = BTreeMap<String, i32>;

/// A unit: canonical base-unit names with non-zero exponents. The empty unit is a
/// plain number.
///
/// Units are interned: each distinct unit's powers are stored once, for the
/// life of the process, and a unit is a reference to them (`None` for a plain
/// number, never an empty map). Copying a unit, as every evaluation step that
/// passes a quantity on does, copies a pointer (no reference count, no heap
/// allocation), and two units are equal when they point at the same powers.
/// An edition declares a handful of units, so what is kept is small.
#[derive(Clone, Default)]
pub struct Unit(Option<&'static Powers>);

/// No powers, for a plain number.
static NO_POWERS: Powers = BTreeMap::new();

/// Every unit made so far, by its powers. Hashed, not ordered: a lookup hashes
/// the powers once instead of comparing them, name by name, with a dozen
/// others. The hasher has a fixed key, so nothing depends on a random seed.
static UNITS: Mutex<HashSet<&'static Powers, FxBuildHasher>> =
    Mutex::new(HashSet::with_hasher(FxBuildHasher));

/// Every product (sign 1) and quotient (sign −1) of two units made so far, by
/// the addresses of their stored powers (0 for a plain number): stored powers
/// are never freed, so an address names one unit for the life of the process.
static COMBINED: Mutex<HashMap<(usize, usize, i32), Unit, FxBuildHasher>> =
    Mutex::new(HashMap::with_hasher(FxBuildHasher));

/// The address of a unit's stored powers, 0 for a plain number.
fn stored_address(unit: &Unit) -> usize {
    unit.0.map_or(0, |p| std::ptr::from_ref(p) as usize)
}

/// The unit of `powers` (which has no zero power): the one stored, storing it
/// if it is new.
fn intern(powers: Powers) -> Unit {
    if powers.is_empty() {
        return Unit(None);
    }
    // The set is only ever added to; a panic elsewhere while it was held leaves
    // it whole.
    let mut units = UNITS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = units.get(&powers) {
        return Unit(Some(*known));
    }
    let stored: &'static Powers = Box::leak(Box::new(powers));
    units.insert(stored);
    Unit(Some(stored))
}

/// Equal units are the same stored powers.
impl PartialEq for Unit {
    fn eq(&self, other: &Unit) -> bool {
        match (self.0, other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Unit {}

/// Ordered by the powers (a plain number first), not by where they are stored,
/// so the order is the same in every run.
impl Ord for Unit {
    fn cmp(&self, other: &Unit) -> std::cmp::Ordering {
        if self == other {
            return std::cmp::Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Unit {
    fn partial_cmp(&self, other: &Unit) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Hashed by the powers, so a hash is the same in every run.
impl Hash for Unit {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

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

impl BorshDeserialize for Unit {
    fn deserialize_reader<R: std::io::Read>(reader: &mut R) -> std::io::Result<Self> {
        // Read as borsh writes a map: its length, then each name and power.
        let len = u32::deserialize_reader(reader)?;
        if len == 0 {
            return Ok(Unit(None));
        }
        let mut read = READ.lock().unwrap_or_else(PoisonError::into_inner);
        let UnitsRead { bytes, known } = &mut *read;
        bytes.clear();
        for _ in 0..len {
            let name_len = u32::deserialize_reader(reader)?;
            if name_len > MAX_UNIT_NAME_BYTES {
                return Err(std::io::ErrorKind::InvalidData.into());
            }
            bytes.extend_from_slice(&name_len.to_le_bytes());
            let at = bytes.len();
            bytes.resize(at + name_len as usize, 0);
            reader.read_exact(&mut bytes[at..])?;
            bytes.extend_from_slice(&i32::deserialize_reader(reader)?.to_le_bytes());
        }
        if let Some(unit) = known.get(bytes.as_slice()) {
            return Ok(unit.clone());
        }
        let unit = intern(powers_of(bytes)?);
        known.insert(bytes.as_slice().into(), unit.clone());
        Ok(unit)
    }
}

/// The units read so far from a compiled edition, by their bytes there (after
/// the count), and room to read the next one. Decoding an edition reads a unit
/// thousands of times, and nearly every one is one of the dozen it declares:
/// found by its bytes, it is neither built as a map nor hashed name by name.
/// Kept for the life of the process, like the units themselves.
struct UnitsRead {
    bytes: Vec<u8>,
    known: HashMap<Box<[u8]>, Unit, FxBuildHasher>,
}

/// The longest unit name read from a compiled edition; a longer one means the
/// bytes are not an entry's (a name is a word of the edition's text).
const MAX_UNIT_NAME_BYTES: u32 = 4096;

static READ: Mutex<UnitsRead> = Mutex::new(UnitsRead {
    bytes: Vec::new(),
    known: HashMap::with_hasher(FxBuildHasher),
});

/// The powers in a unit's bytes as [`Unit`]'s `deserialize_reader` gathers them
/// (each name's length, its UTF-8 bytes, its power).
fn powers_of(mut bytes: &[u8]) -> std::io::Result<Powers> {
    let mut powers = Powers::new();
    while !bytes.is_empty() {
        let name = String::deserialize_reader(&mut bytes)?;
        let power = i32::deserialize_reader(&mut bytes)?;
        // A zero power is no power: the canonical form keeps none.
        if power != 0 {
            powers.insert(name, power);
        }
    }
    Ok(powers)
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
        intern(m)
    }

    /// Whether this is a plain number.
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }

    fn powers(&self) -> &Powers {
        self.0.unwrap_or(&NO_POWERS)
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
        // Products and quotients are remembered by the two stored units: a check
        // combines the same few units at every quantity written as `SEK/player`.
        let key = (stored_address(self), stored_address(other), sign);
        let mut combined = COMBINED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = combined.get(&key) {
            return known.clone();
        }
        let mut m = self.powers().clone();
        for (k, v) in other.powers() {
            let e = m.entry(k.clone()).or_insert(0);
            *e += sign * v;
            if *e == 0 {
                m.remove(k);
            }
        }
        let unit = intern(m);
        combined.insert(key, unit.clone());
        unit
    }

    /// The part above the line: `SEK` of `SEK/pair` (a fee per pair, for one
    /// pair, is an amount in SEK); a unit without a line is itself.
    pub fn numerator(&self) -> Unit {
        if self.powers().values().all(|p| *p > 0) {
            return self.clone();
        }
        let above = self.powers().iter().filter(|(_, p)| **p > 0);
        intern(above.map(|(n, p)| (n.clone(), *p)).collect())
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
        // Written part by part: showing a quantity makes no vector of names.
        let powers = self.powers();
        let write_side = |f: &mut fmt::Formatter<'_>, sign: i32, sep: &str| -> fmt::Result {
            let side = powers.iter().filter(|(_, e)| e.signum() == sign);
            for (i, (name, e)) in side.enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                f.write_str(name)?;
                if e.abs() != 1 {
                    write!(f, "^{}", e.abs())?;
                }
            }
            Ok(())
        };
        let has_den = powers.values().any(|e| *e < 0);
        if has_den && !powers.values().any(|e| *e > 0) {
            f.write_str("1")?;
        } else {
            write_side(f, 1, "*")?;
        }
        if has_den {
            f.write_str("/")?;
            write_side(f, -1, "/")?;
        }
        Ok(())
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
        let board = Unit::base("board");
        let odd = sek
            .mul(&sek)
            .mul(&board)
            .div(&player)
            .div(&player)
            .div(&board.mul(&board).mul(&board));
        assert_eq!(odd.to_string(), "SEK^2/board^2/player^2");
        assert_eq!(sek.mul(&board).div(&player).to_string(), "SEK*board/player");
        assert_eq!(Unit::none().to_string(), "");
    }

    #[test]
    fn units_made_apart_are_one_unit() {
        // Equality is by the stored powers: a unit made twice, or made two ways,
        // is stored once.
        let a = Unit::base("SEK").div(&Unit::base("pair"));
        let b = Unit::base("SEK").mul(&Unit::base("pair").div(&Unit::base("pair")));
        let b = b.div(&Unit::base("pair"));
        assert_eq!(a, b);
        assert_ne!(a, Unit::base("SEK"));
        assert_ne!(Unit::none(), Unit::base("SEK"));
        // The order is the powers' order, as before units were stored once.
        assert!(Unit::none() < Unit::base("A"));
        assert!(Unit::base("A") < Unit::base("B"));
        let bytes = borsh::to_vec(&a).expect("serialises");
        let back: Unit = borsh::from_slice(&bytes).expect("deserialises");
        assert_eq!(back, a);
    }

    #[test]
    fn a_unit_read_again_is_the_unit_read_before() {
        let per_seat = Unit::base("coin").div(&Unit::base("seat"));
        let bytes = borsh::to_vec(&per_seat).expect("serialises");
        let first: Unit = borsh::from_slice(&bytes).expect("deserialises");
        let again: Unit = borsh::from_slice(&bytes).expect("deserialises");
        assert_eq!(first, per_seat);
        assert_eq!(again, per_seat);
        // The same powers written another way (a zero power, another order)
        // are still the one unit.
        let mut other = Vec::new();
        for (name, power) in [("seat", -1i32), ("table", 0), ("coin", 1)] {
            borsh::to_writer(&mut other, &(name.to_string(), power)).expect("writes");
        }
        let mut written = borsh::to_vec(&3u32).expect("writes");
        written.extend(other);
        let read: Unit = borsh::from_slice(&written).expect("deserialises");
        assert_eq!(read, per_seat);
        // A name longer than any word of an edition is not a unit's.
        let mut long = borsh::to_vec(&1u32).expect("writes");
        borsh::to_writer(&mut long, &("x".repeat(5000), 1i32)).expect("writes");
        assert!(borsh::from_slice::<Unit>(&long).is_err());
        // Cut short.
        assert!(borsh::from_slice::<Unit>(&bytes[..bytes.len() - 2]).is_err());
    }
}
