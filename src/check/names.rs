//! Name tables: what each name in an edition refers to, and "did you mean" help.

use crate::ir::Unit;
use std::collections::BTreeMap;

/// What a name in type position means.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub enum TypeName {
    /// A unit: the base unit it names (interned once, as it is declared, since
    /// every quantity written in the edition looks it up), whether it counts
    /// whole things and whether it is a count (whole and never negative).
    Unit {
        unit: Unit,
        whole: bool,
        count: bool,
    },
    /// An enum by index.
    Enum(u32),
    /// A record type by index.
    Record(u32),
}

/// What a name in value position means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub enum ValueName {
    /// A const, fn, table or scale by index.
    Rule(u32),
    /// A competition by index.
    Competition(u32),
}

/// The resolved names of an edition. Ordered maps keep suggestions deterministic.
#[derive(Debug, Clone, Default, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Names {
    /// Type-position names (units, their aliases, enums, records).
    pub types: BTreeMap<String, TypeName>,
    /// Value-position names (rules, competitions).
    pub values: BTreeMap<String, ValueName>,
}

/// The built-in type names.
pub const BUILTIN_TYPES: [&str; 10] = [
    "number", "integer", "bool", "text", "date", "time", "datetime", "duration", "penalty", "route",
];

/// At most this many unknown names of one edition get a "did you mean" (no more
/// diagnostics than this are shown).
pub const MAX_SUGGESTED: usize = crate::diag::MAX_SHOWN;

/// `did you mean `x`?` help text, when a near name exists.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    // A name written short (`late_arrival` for `late_arrival_qualification` and
    // `late_arrival_knockout`) means the names it begins, not the nearest spelling,
    // which may be another competition's rule (`lv_late_arrival`).
    let prefix = format!("{name}_");
    let mut longer: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| c.starts_with(&prefix))
        .collect();
    longer.sort_unstable();
    longer.dedup();
    if let Some((last, rest)) = longer.split_last()
        && longer.len() <= 4
    {
        let quoted: Vec<String> = rest.iter().map(|n| format!("`{n}`")).collect();
        return Some(if quoted.is_empty() {
            format!("did you mean `{last}`?")
        } else {
            format!("did you mean {} or `{last}`?", quoted.join(", "))
        });
    }
    crate::names::nearest(name, candidates).map(|n| format!("did you mean `{n}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_written_short_suggests_the_names_it_begins() {
        let rules = [
            "lv_late_arrival",
            "late_arrival_qualification",
            "late_arrival_knockout",
        ];
        assert_eq!(
            did_you_mean("late_arrival", rules).as_deref(),
            Some("did you mean `late_arrival_knockout` or `late_arrival_qualification`?")
        );
        // Without such names, the nearest spelling.
        assert_eq!(
            did_you_mean("lv_late_arival", rules).as_deref(),
            Some("did you mean `lv_late_arrival`?")
        );
    }
}
