//! When a name a person wrote is a name the edition declares.
//!
//! One rule wherever bfr reads a name from a person (entries, event and
//! federation files, the command line) and wherever it suggests one: names are
//! compared *folded*, without case and diacritics and whatever the Unicode form
//! (`Skane`, `SKÅNE` and `Skåne` with a separate ring are all `skane`). A name
//! written as declared is that name; else the one declared name that is the same
//! folded; where folding makes two names alike, neither is taken and the person
//! is asked for the declared spelling. An edition's enum variant is found last
//! by its letters and digits alone (`find_variant`: the district
//! `Jämtland-Härjedalen` in full is `JamtlandHarjedalen`), a person's or team's
//! name never.

use std::borrow::Cow;

/// The one of `count` things whose spellings (a name, a title, a label) include
/// `written`: spelt as declared first, then folded, taking a thing only where
/// no other thing is spelt so too. Surrounding blanks do not count.
pub fn find_one<'a, S>(count: usize, written: &str, spellings: impl Fn(usize) -> S) -> Option<usize>
where
    S: IntoIterator<Item = &'a str>,
{
    let written = written.trim();
    let only = |matches: &dyn Fn(&str) -> bool| {
        let mut found = (0..count).filter(|&i| spellings(i).into_iter().any(matches));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    };
    let wanted = folded(written);
    only(&|s| s == written).or_else(|| only(&|s| folded(s) == wanted))
}

/// [`find_one`], then by letters and digits alone, for the variants of an
/// edition's enum: a variant's name is written without its spaces and dashes,
/// so `Jämtland-Härjedalen` and `Östra Mellansvenska`, the names in full, are
/// the variants `JamtlandHarjedalen` and `OstraMellansvenska`. Not for people's
/// and teams' names, where `Anna Lena` and `Annalena` are two people.
pub fn find_variant<'a, S>(
    count: usize,
    written: &str,
    spellings: impl Fn(usize) -> S,
) -> Option<usize>
where
    S: IntoIterator<Item = &'a str>,
{
    if let Some(found) = find_one(count, written, &spellings) {
        return Some(found);
    }
    let bare = |s: &str| -> String { folded(s).chars().filter(|c| c.is_alphanumeric()).collect() };
    let wanted = bare(written);
    if wanted.is_empty() {
        return None;
    }
    let mut found = (0..count).filter(|&i| spellings(i).into_iter().any(|s| bare(s) == wanted));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Whether two names are the same folded (`Skane`, `Skåne`).
pub fn same(a: &str, b: &str) -> bool {
    folded(a) == folded(b)
}

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
    let lower = folded(name);
    let len = lower.chars().count();
    let bag = letter_bag(&lower);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        let c_lower = folded(c);
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

/// A name without case and diacritics: lower case, decomposed (NFD), with the
/// combining marks left out (`Skåne` → `skane`, `Örebro` → `orebro`), and the
/// marks a word processor puts for `'`, `-` and a space written as those
/// (`Chairman’s` → `chairman's`). ASCII names are only lowered, and borrowed
/// when already lower case.
pub fn folded(name: &str) -> Cow<'_, str> {
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
            .map(typed_plainly)
            .flat_map(char::to_lowercase)
            .collect(),
    )
}

/// A typographic apostrophe, dash or space as typed on a keyboard.
fn typed_plainly(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{02BC}' | '\u{2032}' => '\'',
        '\u{2010}' | '\u{2011}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
        '\u{00A0}' | '\u{202F}' | '\u{2007}' => ' ',
        c => c,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_found_as_written_then_folded_and_only_where_one_thing_has_it() {
        let things = [
            ["Åsby", "Åsby BK"],
            ["Asby", "Asby BK"],
            ["Ödeby", "Ödeby BK"],
        ];
        let find = |w: &str| find_one(things.len(), w, |i| things[i]);
        assert_eq!(find("Asby"), Some(1), "as declared comes first");
        assert_eq!(find(" Åsby "), Some(0));
        assert_eq!(find("asby"), None, "two things are `asby` folded");
        assert_eq!(find("odeby bk"), Some(2), "a title, folded");
        assert_eq!(find("O\u{308}deby"), Some(2), "a separate mark");
        assert_eq!(find("Ödeb"), None);
        // An enum's variant, last by letters alone: the name in full.
        let districts = [
            ["JamtlandHarjedalen", "Jämtl.-Härjedalen"],
            ["Medelpad", "Medelpad"],
        ];
        let district = |w: &str| find_variant(districts.len(), w, |i| districts[i]);
        assert_eq!(district("Jämtland-Härjedalen"), Some(0));
        assert_eq!(district("jamtland harjedalen"), Some(0));
        assert_eq!(district("Medelpad"), Some(1));
        assert_eq!(district("Jämtland"), None);
        assert_eq!(district(" - "), None, "no letters, no name");
        let variant = |w: &str| find_variant(things.len(), w, |i| things[i]);
        assert_eq!(variant("Ödeby-BK"), Some(2));
        assert_eq!(variant("A s b y"), None, "two are `asby` by letters too");
        // People's and teams' names are not read by letters alone.
        assert_eq!(find("Ödeby-BK"), None);
        assert!(same("ÅSBY", "asby"));
        // A word processor's apostrophe, dash and space are the keyboard's.
        assert!(same("Ordförandes’ Cup", "ordförandes' cup"));
        assert!(same("Norr–Söder\u{a0}BK", "norr-söder bk"));
        assert!(!same("Norr–Söder", "norr söder"));
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
        assert_eq!(folded("Ålvik"), "alvik");
    }
}
