//! A problem reading an event file, put into a director's words (see
//! [`crate::spanned::words`]), with a help for the slips that read as something
//! else (JSON saved as `.toml`, a top-level key written after a `[[team]]`
//! header) and a "did you mean" for a key misspelt.

use crate::spanned::words::{Kinds, near_key, plain_words, quoted_number_help, unknown_key};

/// The event file's tables, in words.
const KINDS: Kinds = &[
    ("struct RawTeam", "a team, `{ id = … }`"),
    ("struct RawRound", "a round, `{ number = … }`"),
    ("struct RawStage", "a stage, `{ name = … }`"),
    (
        "struct RawIncident",
        "an incident, `{ team = …, rule = … }`",
    ),
];

/// The keys of the file's top level.
const TOP_KEYS: [&str; 8] = [
    "competition",
    "seed",
    "vp_scale",
    "imp_scale",
    "team",
    "round",
    "stage",
    "incident",
];

/// The message and help for a problem reading the file: `message` as the reader
/// gave it, `written` the file's text where it points, `text` the whole file.
pub fn reading_problem(message: &str, written: &str, text: &str, json: bool) -> (String, String) {
    let words = plain_words(message, written, KINDS);
    let help = misplaced_key_help(message, json)
        .or_else(|| quoted_number_help(message, written))
        .or_else(|| {
            near_key(message).map(|key| {
                format!("did you mean `{key}`? See docs/events.md for the format and a full example")
            })
        })
        .or_else(|| {
            unknown_key(message)
                .is_some_and(|k| ["player", "pair", "district"].contains(&k))
                .then(|| "this looks like an entries file (`[[player]]`, `[[pair]]`): check it with `bfr entries check EDITION FILE`; an event file is run with `bfr run` (docs/events.md)".to_string())
        })
        .or_else(|| incident_input_help(message, json))
        .or_else(|| (!json && looks_like_json(text)).then(|| {
            "this looks like JSON: rename the file to end in `.json` (any other file is read as TOML)".to_string()
        }))
        .unwrap_or_else(|| "see docs/events.md for the format and a full example".to_string());
    (words, help)
}

/// The help for a key an incident does not have (`minutes = 12`): what happened
/// is the input of the incident's rule, given in its call.
fn incident_input_help(message: &str, json: bool) -> Option<String> {
    let rest = message.trim().strip_prefix("unknown field `")?;
    let (key, known) = rest.split_once('`')?;
    if !known.contains("`rule`") || TOP_KEYS.contains(&key) {
        return None;
    }
    let example = if json {
        "\"rule\": \"late_arrival(12 min)\""
    } else {
        "rule = \"late_arrival(12 min)\""
    };
    Some(format!(
        "an incident has no `{key}`: what happened is the input of its rule, written in the call, `{example}` (docs/events.md)"
    ))
}

/// Whether a file read as TOML starts as a JSON object does (after any comment
/// lines, which TOML would have read).
fn looks_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('{'))
}

/// The help for a top-level key (`seed`) found among a table's keys: in TOML,
/// every key after a `[[team]]` header belongs to that team.
fn misplaced_key_help(message: &str, json: bool) -> Option<String> {
    let rest = message.trim().strip_prefix("unknown field `")?;
    let (key, known) = rest.split_once('`')?;
    if !TOP_KEYS.contains(&key) {
        return None;
    }
    let table = [
        ("`id`", "team"),
        ("`number`", "round"),
        ("`choices`", "stage"),
        ("`rule`", "incident"),
    ]
    .iter()
    .find(|(field, _)| known.contains(field))
    .map(|(_, table)| *table)?;
    Some(if json {
        format!(
            "`{key}` belongs at the top of the file, not inside a `{table}` entry: move it out of the `{{ … }}` it stands in"
        )
    } else {
        format!(
            "TOML puts every key written after a `[[{table}]]` header into that {table}, so this `{key}` landed in the {table} above it: move `{key} = …` above the first `[[…]]` table"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_key_gets_a_did_you_mean() {
        let top = "unknown field `teams`, expected one of `competition`, `seed`, `team`, `round`";
        let (words, help) = reading_problem(top, "teams", "[[teams]]", false);
        assert!(words.starts_with("unknown key `teams`"), "{words}");
        assert!(help.starts_with("did you mean `team`?"), "{help}");
        let (words, _) = reading_problem(
            "invalid type: integer `5`, expected struct RawRound",
            "5",
            "",
            false,
        );
        assert_eq!(
            words,
            "expected a round, `{ number = … }`, found the number `5`"
        );
    }

    #[test]
    fn an_entries_file_given_as_an_event_file_is_named_as_one() {
        let top = "unknown field `pair`, expected one of `competition`, `seed`, `team`, `round`";
        let (_, help) = reading_problem(top, "pair", "[[pair]]", false);
        assert!(help.contains("bfr entries check EDITION FILE"), "{help}");
    }

    #[test]
    fn the_two_slips_that_read_as_something_else_get_their_own_help() {
        let (_, help) = reading_problem(
            "invalid key-value pair, expected key",
            "{",
            "{\"seed\": 1}",
            false,
        );
        assert!(help.contains("rename the file to end in `.json`"), "{help}");
        let (_, help) = reading_problem(
            "invalid key-value pair",
            "{",
            "\u{feff} {\"seed\": 1}",
            false,
        );
        assert!(help.contains(".json"), "{help}");
        let (_, help) = reading_problem(
            "invalid key-value pair",
            "{",
            "# a note\n\n{\"seed\": 1}",
            false,
        );
        assert!(help.contains(".json"), "{help}");
        let (_, help) = reading_problem("invalid key-value pair", "x", "# {\nx y\n", false);
        assert!(help.contains("docs/events.md"), "{help}");
        let (_, help) = reading_problem("expected value", "x", "x", true);
        assert!(help.contains("docs/events.md"), "{help}");
        let unknown = "unknown field `seed`, expected one of `id`, `name`, `late`";
        let (words, help) = reading_problem(unknown, "seed", "", false);
        assert!(words.starts_with("unknown key `seed`"), "{words}");
        assert!(
            help.contains("after a `[[team]]` header") && help.contains("above the first"),
            "{help}"
        );
        let (_, help) = reading_problem(unknown, "\"seed\"", "", true);
        assert!(help.contains("not inside a `team` entry"), "{help}");
        let (_, help) = reading_problem(
            "unknown field `numbr`, expected one of `number`",
            "numbr",
            "",
            false,
        );
        assert!(help.contains("docs/events.md"), "{help}");
    }

    #[test]
    fn a_key_an_incident_lacks_is_shown_as_the_rules_input() {
        let known = "expected one of `team`, `round`, `stage`, `rule`, `note`";
        let (_, help) = reading_problem(
            &format!("unknown field `minutes`, {known}"),
            "minutes",
            "",
            false,
        );
        assert!(
            help.starts_with("an incident has no `minutes`")
                && help.contains("`rule = \"late_arrival(12 min)\"`"),
            "{help}"
        );
        let (_, help) = reading_problem(
            &format!("unknown field `minutes`, {known}"),
            "\"minutes\"",
            "",
            true,
        );
        assert!(
            help.contains("`\"rule\": \"late_arrival(12 min)\"`"),
            "{help}"
        );
        // A slip of a key it has is a "did you mean"; another table's key, none.
        let (_, help) = reading_problem(&format!("unknown field `rul`, {known}"), "rul", "", false);
        assert!(help.starts_with("did you mean `rule`?"), "{help}");
        let (_, help) = reading_problem(
            "unknown field `minutes`, expected one of `number`, `draw`, `bye`, `results`",
            "minutes",
            "",
            false,
        );
        assert!(!help.contains("incident"), "{help}");
    }
}
