//! Name tables: what each name in an edition refers to, and nearest-name help.

use crate::ir::Unit;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// What a name in type position means.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub enum TypeName {
    /// A unit: the base unit it names (interned once, as it is declared, since
    /// every quantity written in the edition looks it up) and whether it counts
    /// whole things.
    Unit { unit: Unit, whole: bool },
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

/// The candidate closest to `name`, if it is close enough to be a likely typo.
///
/// Names are compared folded: case and diacritics left out (`Skane` is `Skåne`,
/// `avgift_for_sent` is `avgift_för_sent`), so a name that differs from a known
/// one only so is at distance 0 and comes first.
///
/// Near-linear in the number of candidates: a candidate is measured (Damerau–
/// Levenshtein, quadratic in the names' lengths) only when two cheap lower
/// bounds of that distance allow it to be close enough: the difference of the
/// lengths, and the letters one name has that the other lacks (every edit adds
/// or removes at most one of each).
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = fold(name);
    let len = lower.chars().count();
    let bag = letter_bag(&lower);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        let c_lower = fold(c);
        let c_len = c_lower.chars().count();
        let limit = (len.max(c_len) / 3).max(1);
        if len.abs_diff(c_len) > limit || bag_distance(&bag, &letter_bag(&c_lower)) > limit {
            continue;
        }
        let d = strsim::damerau_levenshtein(&lower, &c_lower);
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Whether two names differ only by case and diacritics (`Skane`, `Skåne`).
pub fn same_folded(a: &str, b: &str) -> bool {
    fold(a) == fold(b)
}

/// A name without case and diacritics: lower case, decomposed (NFD), with the
/// combining marks left out (`Skåne` → `skane`, `Örebro` → `orebro`). ASCII
/// names are only lowered, and borrowed when already lower case.
fn fold(name: &str) -> Cow<'_, str> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    if name.is_ascii() {
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            return Cow::Owned(name.to_ascii_lowercase());
        }
        return Cow::Borrowed(name);
    }
    Cow::Owned(
        name.nfd()
            .filter(|c| !is_combining_mark(*c))
            .flat_map(char::to_lowercase)
            .collect(),
    )
}

/// How many times each character occurs (ASCII letters and digits counted
/// apart, everything else together).
fn letter_bag(s: &str) -> [u16; 64] {
    let mut bag = [0u16; 64];
    for ch in s.chars() {
        let slot = match ch {
            'a'..='z' => ch as usize - 'a' as usize,
            '0'..='9' => 26 + ch as usize - '0' as usize,
            '_' => 36,
            _ => 63,
        };
        if let Some(n) = bag.get_mut(slot) {
            *n = n.saturating_add(1);
        }
    }
    bag
}

/// A lower bound of the edit distance of two names from their letter counts.
/// The slot of all other characters is left out: its characters may differ
/// without the counts showing it.
fn bag_distance(a: &[u16; 64], b: &[u16; 64]) -> usize {
    let (mut more, mut fewer) = (0i32, 0i32);
    for (x, y) in a.iter().zip(b).take(37) {
        let d = i32::from(*x) - i32::from(*y);
        if d > 0 {
            more += d;
        } else {
            fewer -= d;
        }
    }
    usize::try_from(more.max(fewer)).unwrap_or(0)
}

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
    nearest(name, candidates).map(|n| format!("did you mean `{n}`?"))
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

    #[test]
    fn suggests_close_names_only() {
        let names = ["travel_subsidy", "table_fee", "start_fee"];
        assert_eq!(nearest("travel_subsidie", names), Some("travel_subsidy"));
        assert_eq!(nearest("tabel_fee", names), Some("table_fee"));
        assert_eq!(nearest("zzz", names), None);
    }

    #[test]
    fn a_name_differing_only_by_diacritics_or_case_comes_first() {
        // `Skane` is one edit from `Skaane` too, but only diacritics from `Skåne`.
        let districts = ["Skaane", "Skåne", "Skara"];
        assert_eq!(nearest("Skane", districts), Some("Skåne"));
        assert_eq!(nearest("SKÅNE", districts), Some("Skåne"));
        let fees = ["cc_ko_avgift_for_set", "cc_ko_avgift_för_sent"];
        assert_eq!(
            nearest("cc_ko_avgift_for_sent", fees),
            Some("cc_ko_avgift_för_sent")
        );
        // And the other way round: the ASCII spelling is found from the Swedish one.
        assert_eq!(nearest("Åby", ["Aby", "Abu"]), Some("Aby"));
        assert_eq!(fold("Ålvik"), "alvik");
    }
}
