//! The entries file as written: TOML, or the same structure in JSON, read with serde
//! into raw entries that keep the byte span of every value, in both formats.

use crate::spanned::ReadError;
pub use crate::spanned::Sp;
use crate::spanned::listed::read_listed;
use crate::spanned::words::{
    Kinds, looks_like_date, near_key, plain_words, quoted_number_help, unknown_key,
};
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

/// Reads an entries file (JSON when `json`, else TOML); spans point at each
/// value's own text. Each player, team, pair and district is read on its own,
/// so every one that cannot be read is said, in the order of the file.
pub fn read(text: &str, json: bool) -> Result<RawEntries, Vec<Unreadable>> {
    read_listed(text, json, |lists| {
        let player = lists.each("player");
        let team = lists.each("team");
        let pair = lists.each("pair");
        let district = lists.each("district");
        // The file has no keys of its own: the rest is read for a key it does not know.
        let _: RawEntries = lists.rest()?;
        Some(RawEntries {
            player,
            team,
            pair,
            district,
        })
    })
    .map_err(|problems| problems.iter().map(|e| unreadable(e, text)).collect())
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
    } else if let Some(bare) = quoted_number_help(&e.message, written) {
        help = format!("{bare}; ");
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

    fn first_problem(text: &str, json: bool) -> Unreadable {
        read(text, json).err().unwrap().swap_remove(0)
    }

    #[test]
    fn json_values_keep_their_own_spans() {
        let text = "{\"player\": [{\"member\": 7, \"name\": \"Åsa Öberg\", \"birth_year\": 1950}]}";
        let raw = read(text, true).unwrap();
        let p = &raw.player[0].value;
        assert_eq!(&text[p.member.span.clone()], "7");
        assert_eq!(&text[p.name.span.clone()], "\"Åsa Öberg\"");
        assert_eq!(&text[p.birth_year.as_ref().unwrap().span.clone()], "1950");
    }

    #[test]
    fn an_event_file_given_as_an_entries_file_is_named_as_one() {
        let e = first_problem("competition = \"cup\"\nseed = 1\n", false);
        assert!(e.help.contains("bfr run EDITION FILE"), "{}", e.help);
    }

    #[test]
    fn a_json_problem_points_at_the_value_at_fault() {
        let text = "{\"player\": [{\"member\": 7, \"name\": \"A\", \"birth_year\": \"x\"}]}";
        let e = first_problem(text, true);
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
        let raw = read(text, true).unwrap();
        assert_eq!(&text[raw.player[0].value.member.span.clone()], "7");
    }

    /// Three mistakes in three kinds of entry, and one at the top, written in
    /// both notations: each is said once, at its place, in the order of the
    /// file, with the same words in both.
    #[test]
    fn every_entry_that_cannot_be_read_is_said_in_the_order_of_the_file() {
        let toml = "\
[[player]]
member = 1
name = \"A\"
birth_year = \"x\"

[[player]]
member = 2
name = \"B\"

[[team]]
id = \"T1\"
name = \"Lag\"
competition = \"sm_teams\"
players = [1, 2]
captain = 1

[[pair]]
id = \"P1\"
event = \"sm_pairs\"
players = [1, 2]

[[teams]]
id = \"T2\"
";
        let json = r#"{"player": [{"member": 1, "name": "A", "birth_year": "x"},
 {"member": 2, "name": "B"}],
 "team": [{"id": "T1", "name": "Lag", "competition": "sm_teams", "players": [1, 2], "captain": 1}],
 "pair": [{"id": "P1", "event": "sm_pairs", "players": [1, 2]}],
 "teams": [{"id": "T2"}]}"#;
        for (text, json) in [(toml, false), (json, true)] {
            let problems = read(text, json).err().unwrap();
            let said: Vec<(&str, &str)> = problems
                .iter()
                .map(|p| (&text[p.span.clone()], p.message.split(';').next().unwrap()))
                .collect();
            let key = |k: &'static str| {
                if json {
                    ["\"", k, "\""].concat()
                } else {
                    k.into()
                }
            };
            assert_eq!(said.len(), 4, "{said:?}");
            assert_eq!(
                said[0],
                (
                    "\"x\"",
                    "expected a whole number (a year), found the text \"x\""
                )
            );
            assert_eq!(said[1], (key("captain").as_str(), "unknown key `captain`"));
            assert!(said[2].1.starts_with("`district` is missing"), "{said:?}");
            assert_eq!(said[3], (key("teams").as_str(), "unknown key `teams`"));
        }
    }
}
