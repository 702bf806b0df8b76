//! Name tables: what each name in an edition refers to, and nearest-name help.

use std::collections::BTreeMap;

/// What a name in type position means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeName {
    /// A unit: its canonical name and whether it counts whole things.
    Unit { canonical: String, whole: bool },
    /// An enum by index.
    Enum(u32),
    /// A record type by index.
    Record(u32),
}

/// What a name in value position means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueName {
    /// A const, fn, table or scale by index.
    Rule(u32),
    /// A competition by index.
    Competition(u32),
}

/// The resolved names of an edition. Ordered maps keep suggestions deterministic.
#[derive(Debug, Clone, Default)]
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

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (name.chars().count().max(c.chars().count()) / 3).max(1))
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// `did you mean `x`?` help text, when a near name exists.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    nearest(name, candidates).map(|n| format!("did you mean `{n}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["travel_subsidy", "table_fee", "start_fee"];
        assert_eq!(nearest("travel_subsidie", names), Some("travel_subsidy"));
        assert_eq!(nearest("tabel_fee", names), Some("table_fee"));
        assert_eq!(nearest("zzz", names), None);
    }
}
