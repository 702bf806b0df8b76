//! IR values in plain words for the site's pages: places, days, parts of the day,
//! enum values in the document's words, counts. Shared by the chapter pages and
//! the stage flows.

use crate::ir::competition::{Count, Schedule};
use crate::ir::{Program, Value};

/// `places 1–32`, `place 3`.
pub fn places(a: u32, b: u32) -> String {
    if a == b {
        format!("place {a}")
    } else {
        format!("places {a}–{b}")
    }
}

/// The day (and the last day, when it runs over several).
pub fn day(s: &Schedule) -> String {
    match (s.day, s.last_day) {
        (Some(a), Some(b)) => a.through(b),
        (Some(a), None) => a.to_string(),
        _ => String::new(),
    }
}

/// The part of the day, in the document's words where the enum gives them.
pub fn part(p: &Program, s: &Schedule) -> String {
    s.part.as_ref().map_or_else(String::new, |v| words(p, v))
}

/// An enum value in the document's words (its label), else as the edition writes it.
pub fn words(p: &Program, v: &Value) -> String {
    if let Value::Enum(e, i) = v
        && let Some(info) = p.enums.get(*e as usize)
    {
        if let Some(Some(label)) = info.labels.get(*i as usize) {
            return label.clone();
        }
        if let Some(name) = info.variants.get(*i as usize) {
            return name.clone();
        }
    }
    v.show(p)
}

/// `32`, or the rule that gives the count for the field size.
pub fn count(p: &Program, c: &Count) -> String {
    match c {
        Count::Fixed(n) => n.to_string(),
        Count::OfField(i) => p
            .rules
            .get(*i as usize)
            .map_or_else(|| "?".into(), |r| format!("{}(teams)", r.name)),
    }
}
