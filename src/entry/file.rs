//! The entries file as written: TOML, or the same structure in JSON, read with serde
//! into raw entries that keep the byte span of every value, in both formats.

use crate::spanned::ReadError;
pub use crate::spanned::Sp;
use crate::spanned::words::{Kinds, looks_like_date, near_key, plain_words, unknown_key};
use serde::Deserialize;
use std::ops::Range;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntries {
    #[serde(default)]
    pub player: Vec<Sp<RawPlayer>>,
    #[serde(default)]
    pub team: Vec<Sp<RawTeam>>,
    #[serde(default)]
    pub pair: Vec<Sp<RawPair>>,
    #[serde(default)]
    pub district: Vec<Sp<RawDistrict>>,
}

/// `[[player]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlayer {
    pub member: Sp<u32>,
    pub name: Sp<String>,
    #[serde(default)]
    pub birth_year: Option<Sp<i32>>,
    #[serde(default)]
    pub club: Option<Sp<String>>,
    #[serde(default)]
    pub district: Option<Sp<String>>,
    #[serde(default)]
    pub membership_paid_at: Option<Sp<String>>,
    #[serde(default)]
    pub other_federation: Option<Sp<bool>>,
    #[serde(default)]
    pub earlier_cc: Option<Sp<bool>>,
    #[serde(default)]
    pub other_events: Vec<Sp<String>>,
    #[serde(default)]
    pub qualified_before: Vec<Sp<String>>,
}

/// `[[team]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTeam {
    pub id: Sp<String>,
    pub name: Sp<String>,
    pub competition: Sp<String>,
    pub players: Sp<Vec<Sp<u32>>>,
    #[serde(default)]
    pub district_team: Option<Sp<bool>>,
    #[serde(default)]
    pub late_start: Option<Sp<bool>>,
    #[serde(default)]
    pub registered_at: Option<Sp<String>>,
    #[serde(default)]
    pub fee_paid_at: Option<Sp<String>>,
    #[serde(default)]
    pub knockout: Option<Sp<bool>>,
    #[serde(default)]
    pub knockout_fee_paid_at: Option<Sp<String>>,
}

/// `[[pair]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPair {
    pub id: Sp<String>,
    pub event: Sp<String>,
    pub players: Sp<Vec<Sp<u32>>>,
    pub district: Sp<String>,
    #[serde(default)]
    pub entered_by: Option<Sp<String>>,
    #[serde(default)]
    pub stage: Option<Sp<String>>,
    #[serde(default)]
    pub first_stage_at: Option<Sp<String>>,
    #[serde(default)]
    pub qualifier_sessions: Vec<Sp<u32>>,
    #[serde(default)]
    pub stages_together: Option<Sp<u32>>,
    #[serde(default)]
    pub regular_in_every_session: Option<Sp<bool>>,
    #[serde(default)]
    pub reserve_in_final: Option<Sp<String>>,
    #[serde(default)]
    pub replaces_deceased: Option<Sp<RawDeceased>>,
    #[serde(default)]
    pub first_allotment: Option<Sp<bool>>,
    #[serde(default)]
    pub paid: Option<Sp<String>>,
    #[serde(default)]
    pub table_fee_paid_at: Option<Sp<String>>,
}

/// `replaces_deceased = { … }` of a pair.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeceased {
    pub member: Sp<u32>,
    #[serde(default)]
    pub last_years_champion: Option<Sp<bool>>,
    #[serde(default)]
    pub district_qualifier_played: Option<Sp<bool>>,
}

/// `[[district]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDistrict {
    pub name: Sp<String>,
    #[serde(default)]
    pub missed_replacements: Vec<Sp<String>>,
}

/// Why an entries file could not be read, in an editor's words.
#[derive(Debug)]
pub struct Unreadable {
    /// What is wrong.
    pub message: String,
    /// How to put it right.
    pub help: String,
    /// Where.
    pub span: Range<usize>,
}

/// The entries file's tables, in words.
const KINDS: Kinds = &[
    ("i32", "a whole number (a year)"),
    ("struct RawPlayer", "a player, `{ member = …, name = … }`"),
    ("struct RawTeam", "a team, `{ id = …, competition = … }`"),
    ("struct RawPair", "a pair, `{ id = …, event = … }`"),
    ("struct RawDistrict", "a district, `{ name = … }`"),
    ("struct RawDeceased", "a deceased player, `{ member = … }`"),
];

/// Reads a TOML entries file; spans point at each value's own text.
pub fn from_toml(text: &str) -> Result<RawEntries, Unreadable> {
    crate::spanned::from_toml(text).map_err(|e| unreadable(&e, text))
}

/// Reads a JSON entries file; spans point at each value's own text.
pub fn from_json(text: &str) -> Result<RawEntries, Unreadable> {
    crate::spanned::from_json(text).map_err(|e| unreadable(&e, text))
}

/// serde's problem in an editor's words, with the help for it.
fn unreadable(e: &ReadError, text: &str) -> Unreadable {
    let written = text.get(e.span.clone()).unwrap_or_default();
    // TOML reads an unquoted `2015-07-25 12:00` (or `12:00`) as a date-time of its
    // own, which serde then calls a table.
    let unquoted_date = looks_like_date(written) || e.message.contains("datetime");
    let message = if looks_like_date(written) && written.contains('-') {
        format!("`{}` is a date written without quotes", written.trim())
    } else {
        plain_words(&e.message, written, KINDS)
    };
    let mut help = String::new();
    let event_key = unknown_key(&e.message)
        .is_some_and(|k| ["competition", "seed", "round", "stage", "incident"].contains(&k));
    if event_key {
        help.push_str("this looks like an event file (`competition`, `[[round]]`): run it with `bfr run EDITION FILE`; ");
    } else if unquoted_date {
        help.push_str("write dates and times in quotes, e.g. \"2015-07-25 12:00\"; ");
    } else if let Some(key) = near_key(&e.message) {
        help = format!("did you mean `{key}`? ");
    }
    help.push_str("docs/entries.md shows every field with an example");
    Unreadable {
        message,
        help,
        span: e.span.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_values_keep_their_own_spans() {
        let text = "{\"player\": [{\"member\": 7, \"name\": \"Åsa Öberg\", \"birth_year\": 1950}]}";
        let raw = from_json(text).unwrap();
        let p = &raw.player[0].value;
        assert_eq!(&text[p.member.span.clone()], "7");
        assert_eq!(&text[p.name.span.clone()], "\"Åsa Öberg\"");
        assert_eq!(&text[p.birth_year.as_ref().unwrap().span.clone()], "1950");
    }

    #[test]
    fn an_event_file_given_as_an_entries_file_is_named_as_one() {
        let e = from_toml("competition = \"cup\"\nseed = 1\n")
            .err()
            .unwrap();
        assert!(e.help.contains("bfr run EDITION FILE"), "{}", e.help);
    }

    #[test]
    fn a_json_problem_points_at_the_value_at_fault() {
        let text = "{\"player\": [{\"member\": 7, \"name\": \"A\", \"birth_year\": \"x\"}]}";
        let e = from_json(text).err().unwrap();
        assert!(e.span.start >= text.find("\"x\"").unwrap(), "{e:?}");
        assert!(
            e.message.contains("expected a whole number"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_bom_does_not_break_json() {
        let text = "\u{feff}{\"player\": [{\"member\": 7, \"name\": \"A\"}]}";
        let raw = from_json(text).unwrap();
        assert_eq!(&text[raw.player[0].value.member.span.clone()], "7");
    }
}
