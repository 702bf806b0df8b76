//! A problem reading an event file, put into a director's words: what was
//! expected, what was found and the key's name, never serde's or the TOML
//! library's (`u64`, `invalid type: floating point`, `duplicate key`); with a
//! help for the two slips that read as something else (JSON saved as `.toml`, a
//! top-level key written after a `[[team]]` header).

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
    let words = plain_words(message, written);
    let help = misplaced_key_help(message, json)
        .or_else(|| (!json && looks_like_json(text)).then(|| {
            "this looks like JSON: rename the file to end in `.json` (any other file is read as TOML)".to_string()
        }))
        .unwrap_or_else(|| "see docs/events.md for the format and a full example".to_string());
    (words, help)
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

/// The reader's message in plain words.
fn plain_words(message: &str, written: &str) -> String {
    let message = message.trim();
    let typed = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.rsplit_once(", expected "));
    if let Some((found, expected)) = typed {
        return format!(
            "expected {}, found {}",
            expected_words(expected),
            found_words(found, written)
        );
    }
    if message == "duplicate key" {
        return format!("`{}` is given twice", key_name(written));
    }
    if let Some(key) = message.strip_prefix("duplicate field ") {
        return format!("{key} is given twice");
    }
    if let Some(key) = message.strip_prefix("missing field ") {
        return format!("{key} is missing");
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        return match rest.split_once(", expected one of ") {
            Some((key, known)) => format!("unknown key {key}; the keys here are {known}"),
            None => match rest.split_once(", expected ") {
                Some((key, known)) => format!("unknown key {key}; the key here is {known}"),
                None => format!("unknown key {rest}"),
            },
        };
    }
    message.to_string()
}

/// A key as written, without its quotes.
fn key_name(written: &str) -> &str {
    written.trim().trim_matches('"').trim_matches('\'')
}

/// What the reader wanted, in words.
fn expected_words(expected: &str) -> String {
    let words = match expected {
        // The seed is the file's one u64; above this a TOML file cannot hold it.
        "u64" => "a whole number from 0 to 9223372036854775807",
        "u32" => "a whole number from 0 to 4294967295",
        "i64" => "a whole number",
        "a string" => "a quoted text",
        "a sequence" => "a list in brackets `[…]`",
        "a boolean" => "`true` or `false`",
        "struct RawTeam" => "a team, `{ id = … }`",
        "struct RawRound" => "a round, `{ number = … }`",
        "struct RawStage" => "a stage, `{ name = … }`",
        "struct RawIncident" => "an incident, `{ team = …, rule = … }`",
        other if other.starts_with("struct ") => "a table",
        other => other,
    };
    words.to_string()
}

/// What the reader found, in words; `written` is its text in the file.
fn found_words(found: &str, written: &str) -> String {
    let found = found.replace(" as i128", "").replace(" as i64", "");
    let (kind, shown) = match found.split_once(' ') {
        Some((kind, shown)) if kind != "floating" => (kind, shown),
        _ => match found.strip_prefix("floating point ") {
            Some(shown) => ("floating", shown),
            None => (found.as_str(), ""),
        },
    };
    match kind {
        "integer" => format!("the number {shown}"),
        "floating" => format!("the decimal number {shown}"),
        "boolean" => shown.to_string(),
        "string" => format!("the text {shown}"),
        "sequence" => "a list".to_string(),
        "map" if looks_like_date(written) => format!("the date `{}`", written.trim()),
        "map" => "a table".to_string(),
        "unit" | "null" => "`null`".to_string(),
        _ => found.clone(),
    }
}

/// Whether a value as written is a TOML date or time (`2024-01-05`, `10:30`),
/// which the reader reports as a table.
fn looks_like_date(written: &str) -> bool {
    let w = written.trim();
    w.starts_with(|c: char| c.is_ascii_digit()) && (w.contains('-') || w.contains(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_kind_of_value_says_what_was_expected_and_found() {
        let words = |m: &str, w: &str| plain_words(m, w);
        assert_eq!(
            words("invalid type: floating point `1.0`, expected u64", "1.0"),
            "expected a whole number from 0 to 9223372036854775807, found the decimal number `1.0`"
        );
        assert_eq!(
            words("invalid value: integer `-1`, expected u64", "-1"),
            "expected a whole number from 0 to 9223372036854775807, found the number `-1`"
        );
        assert_eq!(
            words(
                "invalid value: integer `99999999999999999999999` as i128, expected u32",
                "9"
            ),
            "expected a whole number from 0 to 4294967295, found the number `99999999999999999999999`"
        );
        assert_eq!(
            words("invalid type: boolean `true`, expected u32", "true"),
            "expected a whole number from 0 to 4294967295, found `true`"
        );
        assert_eq!(
            words("invalid type: map, expected u64", "2024-01-05"),
            "expected a whole number from 0 to 9223372036854775807, found the date `2024-01-05`"
        );
        assert_eq!(
            words("invalid type: map, expected a string", "{ a = 1 }"),
            "expected a quoted text, found a table"
        );
        assert_eq!(
            words("invalid type: integer `5`, expected struct RawRound", "5"),
            "expected a round, `{ number = … }`, found the number `5`"
        );
        assert_eq!(
            words("invalid type: string \"x\", expected a sequence", "\"x\""),
            "expected a list in brackets `[…]`, found the text \"x\""
        );
    }

    #[test]
    fn a_key_given_twice_or_unknown_is_named() {
        assert_eq!(
            plain_words("duplicate key", "seed"),
            "`seed` is given twice"
        );
        assert_eq!(
            plain_words("duplicate key", "\"seed\""),
            "`seed` is given twice"
        );
        assert_eq!(
            plain_words("duplicate field `seed`", "\"seed\""),
            "`seed` is given twice"
        );
        assert_eq!(
            plain_words("missing field `seed`", "}"),
            "`seed` is missing"
        );
        assert_eq!(
            plain_words(
                "unknown field `numbr`, expected one of `number`, `draw`",
                "numbr"
            ),
            "unknown key `numbr`; the keys here are `number`, `draw`"
        );
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
}
