//! A problem reading a data file (an event file, an entries file) in a
//! director's words: what was expected, what was found and the key's name, never
//! serde's or the TOML library's (`u64`, `invalid type: floating point`,
//! `duplicate key`). Each file names its own kinds of value ([`Kinds`]).

/// A file's own kinds of value as serde names them (`struct RawTeam`, `i32`),
/// each with its words (``a team, `{ id = … }` ``).
pub type Kinds<'a> = &'a [(&'a str, &'a str)];

/// The reader's message in plain words; `written` is the file's text where it
/// points.
pub fn plain_words(message: &str, written: &str, kinds: Kinds) -> String {
    let message = message.trim();
    let typed = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.rsplit_once(", expected "));
    if let Some((found, expected)) = typed {
        return format!(
            "expected {}, found {}",
            expected_words(expected, kinds),
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
    syntax_words(message, written).unwrap_or_else(|| message.to_string())
}

/// A slip of the file's syntax, in words: the TOML reader's (`invalid date`
/// for a result left unquoted, `unclosed array`) and the JSON reader's (`EOF
/// while parsing a list`, `trailing comma`). `None` for a message not known.
fn syntax_words(message: &str, written: &str) -> Option<String> {
    let w = written.trim();
    // The reader's words up to its "expected …", which they then explain.
    let head = message.split(", expected").next().unwrap_or(message);
    let b = w.as_bytes();
    let a_date = b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    let words = match head {
        "invalid date" | "invalid time" | "string values must be quoted"
            if !w.is_empty() && !a_date =>
        {
            unquoted(w)
        }
        "invalid float" | "invalid integer" | "invalid number"
            if w.contains(|c: char| c.is_alphabetic() || c.is_whitespace()) =>
        {
            unquoted(w)
        }
        "invalid float" | "invalid integer" | "invalid number" => {
            "this is not a number as the file writes one (`12`, `-3`, `1.5`)".into()
        }
        "unclosed array" => "a list opened with `[` is not closed: a `]` is missing".into(),
        "unclosed inline table" => "a table opened with `{` is not closed: a `}` is missing".into(),
        "invalid basic string" | "invalid literal string" => {
            "a text is not closed: its closing quote is missing".into()
        }
        "unexpected key or value" => {
            "something follows the value on its line: one key and value per line (a `#` starts a comment)".into()
        }
        "EOF while parsing a list" => "the file ends inside a list: a `]` is missing".into(),
        "EOF while parsing an object" => "the file ends inside a table: a `}` is missing".into(),
        "EOF while parsing a string" => "the file ends inside a text: its closing `\"` is missing".into(),
        "EOF while parsing a value" => "the file ends where a value should follow".into(),
        "expected `,` or `}`" => "a `,` is missing before the next key (or a `}` to close the table)".into(),
        "expected `,` or `]`" => "a `,` is missing before the next item (or a `]` to close the list)".into(),
        "trailing comma" => "a `,` after the last item: JSON allows none there; remove it".into(),
        "expected value" => "a value should be here: a text in quotes (`\"cup\"`), a number, `true` or `false`, a list `[…]` or a table `{…}`".into(),
        "trailing characters" => "more text after the file's closing `}`: remove it".into(),
        "key must be a string" => "a key is written in quotes: `\"seed\": 1`".into(),
        _ => return None,
    };
    Some(words)
}

/// A text written without its quotes, read as a number or a date; a number
/// with spaces in it (`1 001`), the number without them.
fn unquoted(written: &str) -> String {
    if written.contains(' ') && written.chars().all(|c| c.is_ascii_digit() || c == ' ') {
        let number: String = written.chars().filter(char::is_ascii_digit).collect();
        return format!(
            "`{written}` is not a number: a number is written without spaces, `{number}`"
        );
    }
    format!(
        "`{written}` is neither a number nor a quoted text: a text is written in quotes, `\"{written}\"`"
    )
}

/// For a number written in quotes where a number is wanted (`id = "2"`,
/// `"birth_year": "1950"`), the help to write it bare.
pub fn quoted_number_help(message: &str, written: &str) -> Option<String> {
    let (_, expected) = message
        .trim()
        .strip_prefix("invalid type: string ")?
        .rsplit_once(", expected ")?;
    let inner = written
        .trim()
        .strip_prefix(['"', '\''])?
        .strip_suffix(['"', '\''])?;
    // Only a number that reads where it stands, written bare in both TOML and
    // JSON: no `+`, no point without digits on both sides.
    let reads = match expected {
        "u16" => inner.parse::<u16>().is_ok(),
        "u32" => inner.parse::<u32>().is_ok(),
        "u64" => inner.parse::<u64>().is_ok(),
        "i32" => inner.parse::<i32>().is_ok(),
        "i64" => inner.parse::<i64>().is_ok(),
        "f64" => {
            let digits = inner.strip_prefix('-').unwrap_or(inner);
            let (whole, part) = digits.split_once('.').unwrap_or((digits, "0"));
            [whole, part]
                .iter()
                .all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        }
        _ => false,
    };
    (reads && !inner.starts_with('+'))
        .then(|| format!("write the number without quotes: `{inner}`"))
}

/// The key a reader did not know (`unknown field `pair``), if that is the
/// problem: a key of another kind of file says which file this is.
pub fn unknown_key(message: &str) -> Option<&str> {
    let rest = message.trim().strip_prefix("unknown field `")?;
    rest.split_once('`').map(|(key, _)| key)
}

/// For an unknown key a slip away from one the place has (`teams`, `numbr`,
/// `choice`), that key: the help's "did you mean". serde lists the keys in
/// backticks, so a key written with a backtick of its own gets no guess.
pub fn near_key(message: &str) -> Option<&str> {
    let rest = message.trim().strip_prefix("unknown field `")?;
    let (key, known) = rest.split_once('`')?;
    crate::names::nearest(key, known.split('`').skip(1).step_by(2))
}

/// A key as written, without its quotes.
fn key_name(written: &str) -> &str {
    written.trim().trim_matches('"').trim_matches('\'')
}

/// What the reader wanted, in words.
fn expected_words(expected: &str, kinds: Kinds) -> String {
    if let Some((_, words)) = kinds.iter().find(|(kind, _)| *kind == expected) {
        return (*words).to_string();
    }
    let words = match expected {
        // The largest whole number a TOML file can hold.
        "u64" => "a whole number from 0 to 9223372036854775807",
        "u32" => "a whole number from 0 to 4294967295",
        "i32" | "i64" => "a whole number",
        "a string" => "a quoted text",
        "a sequence" => "a list in brackets `[…]`",
        "a boolean" => "`true` or `false`",
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
        "map" if looks_like_date(written) && !written.contains('-') => {
            format!("the time `{}`", written.trim())
        }
        "map" if looks_like_date(written) => format!("the date `{}`", written.trim()),
        "map" => "a table".to_string(),
        "unit" | "null" => "`null`".to_string(),
        _ => found.clone(),
    }
}

/// Whether a value as written is a TOML date or time (`2024-01-05`, `10:30`),
/// which the reader reports as a table.
pub fn looks_like_date(written: &str) -> bool {
    let w = written.trim();
    w.starts_with(|c: char| c.is_ascii_digit()) && (w.contains('-') || w.contains(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUND: Kinds = &[("struct RawRound", "a round, `{ number = … }`")];

    #[test]
    fn a_wrong_kind_of_value_says_what_was_expected_and_found() {
        let words = |m: &str, w: &str| plain_words(m, w, ROUND);
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
            words("invalid type: map, expected a string", "10:30"),
            "expected a quoted text, found the time `10:30`"
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
            words("invalid type: integer `5`, expected struct RawOther", "5"),
            "expected a table, found the number `5`"
        );
        assert_eq!(
            words("invalid type: string \"x\", expected a sequence", "\"x\""),
            "expected a list in brackets `[…]`, found the text \"x\""
        );
    }

    #[test]
    fn a_slip_of_syntax_is_said_in_words() {
        let words = |m: &str, w: &str| plain_words(m, w, &[]);
        assert_eq!(
            words("invalid date, expected `-` (MM-DD)", "1-2 60:27"),
            "`1-2 60:27` is neither a number nor a quoted text: a text is written in quotes, `\"1-2 60:27\"`"
        );
        assert_eq!(
            words(
                "string values must be quoted, expected literal string",
                "Härnösand"
            ),
            "`Härnösand` is neither a number nor a quoted text: a text is written in quotes, `\"Härnösand\"`"
        );
        assert_eq!(
            words("invalid date", "1 001"),
            "`1 001` is not a number: a number is written without spaces, `1001`"
        );
        // A date the reader could not read keeps the reader's words.
        assert_eq!(
            words(
                "invalid date, expected month between 01 and 12",
                "2015-13-40"
            ),
            "invalid date, expected month between 01 and 12"
        );
        assert_eq!(
            words("EOF while parsing a list", "["),
            "the file ends inside a list: a `]` is missing"
        );
        assert_eq!(
            words("trailing comma", "}"),
            "a `,` after the last item: JSON allows none there; remove it"
        );
        assert_eq!(
            words("invalid float, expected nothing", ".3"),
            "this is not a number as the file writes one (`12`, `-3`, `1.5`)"
        );
        // Bytes, not letters, are compared: no slice falls inside a letter.
        assert!(words("invalid date", "aÅÅ").starts_with("`aÅÅ` is neither"));
        assert_eq!(words("something new", "x"), "something new");
    }

    #[test]
    fn a_key_given_twice_or_unknown_is_named() {
        let words = |m: &str, w: &str| plain_words(m, w, &[]);
        assert_eq!(words("duplicate key", "seed"), "`seed` is given twice");
        assert_eq!(words("duplicate key", "\"seed\""), "`seed` is given twice");
        assert_eq!(
            words("duplicate field `seed`", "\"seed\""),
            "`seed` is given twice"
        );
        assert_eq!(words("missing field `seed`", "}"), "`seed` is missing");
        assert_eq!(
            words(
                "unknown field `numbr`, expected one of `number`, `draw`",
                "numbr"
            ),
            "unknown key `numbr`; the keys here are `number`, `draw`"
        );
    }

    #[test]
    fn an_unknown_key_near_a_known_one_is_suggested() {
        let top = "unknown field `teams`, expected one of `competition`, `seed`, `team`, `round`";
        assert_eq!(near_key(top), Some("team"));
        assert_eq!(
            near_key("unknown field `Numbr`, expected one of `number`, `draw`"),
            Some("number")
        );
        assert_eq!(
            near_key("unknown field `numbr`, expected `number`"),
            Some("number")
        );
        // Three edits away, or a key as short as its distance: no guess.
        assert_eq!(near_key("unknown field `nmbr2x`, expected `number`"), None);
        assert_eq!(
            near_key("unknown field `x`, expected one of `id`, `name`"),
            None
        );
        assert_eq!(near_key("missing field `seed`"), None);
    }

    #[test]
    fn a_number_in_quotes_gets_the_help_to_write_it_bare() {
        let said = |m: &str, w: &str| quoted_number_help(m, w);
        assert_eq!(
            said("invalid type: string \"2\", expected u32", "\"2\"").as_deref(),
            Some("write the number without quotes: `2`")
        );
        assert!(said("invalid type: string \"1950\", expected i32", "'1950'").is_some());
        assert!(said("invalid type: string \"-0.5\", expected f64", "\"-0.5\"").is_some());
        // Nor one that would not read bare where it stands.
        for (written, expected) in [
            ("+1950", "i32"),
            ("-3", "u32"),
            ("1.5", "u32"),
            (".5", "f64"),
            ("5.", "f64"),
            ("70000", "u16"),
        ] {
            let message = format!("invalid type: string \"{written}\", expected {expected}");
            assert_eq!(said(&message, &format!("\"{written}\"")), None, "{written}");
        }
        // A text that is no number, or a place that wants no number, gets none.
        assert_eq!(
            said("invalid type: string \"two\", expected u32", "\"two\""),
            None
        );
        assert_eq!(
            said("invalid type: string \"1e5\", expected u32", "\"1e5\""),
            None
        );
        assert_eq!(
            said("invalid type: string \"2\", expected a boolean", "\"2\""),
            None
        );
        assert_eq!(said("invalid type: integer `2`, expected u32", "2"), None);
    }
}
