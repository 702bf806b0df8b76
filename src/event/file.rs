//! The event file as written: TOML (or the same structure in JSON), read with serde
//! into raw entries that keep their byte spans.

use serde::{Deserialize, Deserializer};
use std::cell::Cell;
use std::ops::Range;

thread_local! {
    /// While a JSON file is read: the span every value gets (the whole file).
    static WHOLE_FILE: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// A value and the bytes it was written in.
#[derive(Debug, Clone)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// Its byte range in the file.
    pub span: Range<usize>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match WHOLE_FILE.with(Cell::get) {
            // JSON has no spans: every value points at the whole file.
            Some((start, end)) => T::deserialize(d).map(|value| Sp {
                value,
                span: start..end,
            }),
            None => toml::Spanned::<T>::deserialize(d).map(|s| {
                let span = s.span();
                Sp {
                    value: s.into_inner(),
                    span,
                }
            }),
        }
    }
}

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub competition: Sp<String>,
    pub seed: Sp<u64>,
    #[serde(default)]
    pub vp_scale: Option<Sp<String>>,
    #[serde(default)]
    pub imp_scale: Option<Sp<String>>,
    #[serde(default)]
    pub team: Vec<Sp<RawTeam>>,
    #[serde(default)]
    pub round: Vec<Sp<RawRound>>,
    #[serde(default)]
    pub stage: Vec<Sp<RawStage>>,
    #[serde(default)]
    pub incident: Vec<Sp<RawIncident>>,
}

/// `[[team]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTeam {
    pub id: Sp<u32>,
    #[serde(default)]
    pub name: Option<Sp<String>>,
    #[serde(default)]
    pub late: Option<Sp<bool>>,
    #[serde(default)]
    pub district: Option<Sp<bool>>,
}

/// `[[round]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRound {
    pub number: Sp<u32>,
    #[serde(default)]
    pub draw: Option<Sp<Vec<Sp<String>>>>,
    #[serde(default)]
    pub bye: Option<Sp<u32>>,
    #[serde(default)]
    pub results: Vec<Sp<String>>,
}

/// `[[stage]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStage {
    pub name: Sp<String>,
    #[serde(default)]
    pub draw: Option<Sp<Vec<Sp<String>>>>,
    #[serde(default)]
    pub choices: Vec<Sp<String>>,
    #[serde(default)]
    pub withdrawn: Vec<Sp<u32>>,
    #[serde(default)]
    pub withdrawn_at_draw: Vec<Sp<u32>>,
    #[serde(default)]
    pub absent: Vec<Sp<String>>,
    #[serde(default)]
    pub seating: Vec<Sp<String>>,
    #[serde(default)]
    pub results: Vec<Sp<String>>,
}

/// `[[incident]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIncident {
    pub team: Sp<u32>,
    #[serde(default)]
    pub round: Option<Sp<u32>>,
    #[serde(default)]
    pub stage: Option<Sp<String>>,
    pub rule: Sp<String>,
    #[serde(default)]
    pub note: Option<Sp<String>>,
}

/// Why the file could not be read: a message and the bytes it is about.
#[derive(Debug, Clone)]
pub struct ReadError {
    /// In words.
    pub message: String,
    /// Where.
    pub span: Range<usize>,
}

/// Reads a TOML event file.
pub fn from_toml(text: &str) -> Result<RawEvent, ReadError> {
    WHOLE_FILE.with(|w| w.set(None));
    toml::from_str(text).map_err(|e| ReadError {
        message: plain_words(e.message().trim()),
        span: e.span().unwrap_or(0..0),
    })
}

/// Reads a JSON event file (the same structure; every span is the whole file).
pub fn from_json(text: &str) -> Result<RawEvent, ReadError> {
    WHOLE_FILE.with(|w| w.set(Some((0, text.len()))));
    let out = serde_json::from_str(text);
    WHOLE_FILE.with(|w| w.set(None));
    out.map_err(|e| {
        let at = offset(text, e.line(), e.column());
        ReadError {
            message: plain_words(&strip_position(&e.to_string())),
            span: at..(at + 1).min(text.len()).max(at),
        }
    })
}

/// The byte offset of a 1-based line and column (serde_json counts columns in bytes).
fn offset(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col = column.saturating_sub(1).min(l.len());
            let mut at = start + col;
            while at > 0 && !text.is_char_boundary(at) {
                at -= 1;
            }
            return at.min(text.len());
        }
        start += l.len();
    }
    text.len()
}

/// serde_json appends " at line L column C"; the diagnostic shows the place itself.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// serde names Rust types in its messages ("expected u64", "as i128"); an editor of
/// an event file should read what kind of value is wanted instead.
fn plain_words(message: &str) -> String {
    let mut out = message.to_string();
    for (rust, words) in [
        (" as i128", ""),
        (" as i64", ""),
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected i64", "expected a whole number"),
        ("expected a string", "expected a quoted text"),
        ("expected a sequence", "expected a list in brackets `[…]`"),
        ("expected a boolean", "expected `true` or `false`"),
        ("invalid type: integer", "this number"),
        ("invalid type: string", "this text"),
        ("invalid type: sequence", "this list"),
        ("invalid type: map", "this table"),
        ("invalid value: integer", "the number"),
    ] {
        out = out.replace(rust, words);
    }
    out
}

#[cfg(test)]
mod words_tests {
    use super::plain_words;

    #[test]
    fn serde_type_names_become_words() {
        assert_eq!(
            plain_words("invalid type: integer `-1`, expected u64"),
            "this number `-1`, expected a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(
            plain_words("invalid value: integer `99999999999999999999999` as i128, expected u64"),
            "the number `99999999999999999999999`, expected a whole number from 0 to 18446744073709551615"
        );
    }
}
