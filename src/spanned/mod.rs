//! Files a director writes (event files, entries files), read with serde into raw
//! entries that keep the byte span of every value: TOML through `toml::Spanned`,
//! JSON by taking each value's own text (a slice of the file) and measuring where it
//! lies. A byte-order mark at the start is accepted in both formats. A file's lists
//! are read entry by entry ([`listed`]), so every entry that cannot be read is said.

pub mod bound;
pub mod listed;
pub mod words;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::cell::Cell;
use std::ops::Range;

thread_local! {
    /// While a JSON file is read: where its text starts in memory, and its length.
    /// Spans are found by where a value's text lies inside the file's text.
    static JSON_TEXT: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
    /// The first (innermost) problem found in a JSON file: the bytes it is about.
    static JSON_ERROR: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// The UTF-8 byte-order mark some editors write at the start of a file.
const BOM: &str = "\u{feff}";

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
        let Some((base, len)) = JSON_TEXT.with(Cell::get) else {
            return toml::Spanned::<T>::deserialize(d).map(|s| {
                let span = s.span();
                Sp {
                    value: s.into_inner(),
                    span,
                }
            });
        };
        // JSON: take the value's own text (a slice of the file), then read it.
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text: &'de str = raw.get();
        let start = (text.as_ptr() as usize)
            .checked_sub(base)
            .filter(|s| s + text.len() <= len)
            .unwrap_or(0);
        let span = start..start + text.len();
        match serde_json::from_str::<T>(text) {
            Ok(value) => Ok(Sp { value, span }),
            Err(e) => {
                if JSON_ERROR.with(Cell::get).is_none() {
                    let at = problem_at(text, &e);
                    JSON_ERROR.with(|c| c.set(Some((start + at.start, start + at.end))));
                }
                Err(D::Error::custom(strip_position(&e.to_string())))
            }
        }
    }
}

/// Why a file could not be read: serde's message and the bytes it is about.
#[derive(Debug, Clone)]
pub struct ReadError {
    /// serde's words (the caller puts them into an editor's words).
    pub message: String,
    /// Where.
    pub span: Range<usize>,
}

/// The text with a byte-order mark at its start blanked, so every span stays an
/// offset into the text as written (for readers that parse TOML themselves).
pub fn without_bom(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix(BOM) {
        Some(rest) => format!("{}{rest}", " ".repeat(BOM.len())).into(),
        None => text.into(),
    }
}

/// The error for a file holding more than [`bound::MAX_VALUES`] values, at the
/// sign that passes the bound.
pub fn too_many_values(span: Range<usize>) -> ReadError {
    ReadError {
        message: format!(
            "the file holds more than {} values; bfr reads files of at most that many",
            bound::MAX_VALUES_SHOWN
        ),
        span,
    }
}

/// A reader's words for values nested past its depth (TOML's and JSON's, as
/// each says it), in a director's words; other messages as they are.
pub fn plain_depth(message: &str) -> String {
    const TOO_DEEP: [&str; 2] = [
        "cannot recurse further; max recursion depth met",
        "recursion limit exceeded",
    ];
    if TOO_DEEP.iter().any(|m| message.starts_with(m)) {
        "the values are nested too deeply (brackets or tables inside one another)".into()
    } else {
        message.to_string()
    }
}

/// Reads a JSON file; spans point at each value's own text in `text`.
fn from_json<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, ReadError> {
    json_part(text, json_body(text)?)
}

/// A JSON file's text without its byte-order mark, once it is known to be within
/// [`bound::MAX_VALUES`] and not a list.
fn json_body(text: &str) -> Result<&str, ReadError> {
    // A byte-order mark is not part of the JSON text.
    let skip = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let body = text.get(skip..).unwrap_or_default();
    if let Some(span) = bound::past(body, bound::Notation::Json, bound::MAX_VALUES) {
        return Err(too_many_values(skip + span.start..skip + span.end));
    }
    // serde reads a record from a list too, field by field in order: a file
    // that is a list is refused before it is read so.
    let first = body.len() - body.trim_start().len();
    if body[first..].starts_with('[') {
        return Err(ReadError {
            message: "the file must be one JSON object, `{ … }`, not a list `[ … ]`".into(),
            span: skip + first..skip + first + 1,
        });
    }
    Ok(body)
}

/// Reads `part`, a slice of the JSON file `file` (the file's object, or one
/// value inside it); spans point at each value's own text in `file`.
fn json_part<'a, T: Deserialize<'a>>(file: &'a str, part: &'a str) -> Result<T, ReadError> {
    let skip = offset_in(file, part);
    let reading = JsonText::over(file);
    let out = serde_json::from_str::<T>(part);
    drop(reading);
    let inner = JSON_ERROR.with(|c| c.take());
    out.map_err(|e| {
        let span = match inner {
            Some((start, end)) => start..end,
            None => {
                let at = problem_at(part, &e);
                skip + at.start..skip + at.end
            }
        };
        ReadError {
            message: plain_depth(&strip_position(&e.to_string())),
            span,
        }
    })
}

/// While it lives, JSON is being read from a file: [`Sp`] measures spans in it.
/// Dropped, even by a panic, it says so no more, so that no later read on the
/// thread takes TOML for JSON.
struct JsonText;

impl JsonText {
    fn over(file: &str) -> JsonText {
        JSON_TEXT.with(|w| w.set(Some((file.as_ptr() as usize, file.len()))));
        JSON_ERROR.with(|c| c.set(None));
        JsonText
    }
}

impl Drop for JsonText {
    fn drop(&mut self) {
        JSON_TEXT.with(|w| w.set(None));
    }
}

/// Where `part`, a slice of `file`, starts in it.
fn offset_in(file: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .checked_sub(file.as_ptr() as usize)
        .filter(|s| s + part.len() <= file.len())
        .unwrap_or(0)
}

/// The bytes of the JSON token whose last byte is at `at`: a quoted key or text
/// from its opening quote, a number or a word (`true`, `null`) from its first
/// character; the one byte at `at` otherwise. serde_json gives the place of a
/// problem with a value as the last byte it read, but the place to show is
/// where the key or value starts, as for TOML.
fn token(text: &str, at: usize) -> Range<usize> {
    let bytes = text.as_bytes();
    let Some(&last) = bytes.get(at) else {
        return at..at;
    };
    let start = if last == b'"' {
        // The opening quote: the nearest quote before that no backslash escapes.
        let mut i = at;
        loop {
            let Some(q) = bytes
                .get(..i)
                .and_then(|b| b.iter().rposition(|&c| c == b'"'))
            else {
                break at;
            };
            let slashes = bytes
                .get(..q)
                .map_or(0, |b| b.iter().rev().take_while(|&&c| c == b'\\').count());
            if slashes % 2 == 0 {
                break q;
            }
            i = q;
        }
    } else if last.is_ascii_alphanumeric() || matches!(last, b'.' | b'+' | b'-') {
        let word = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'-');
        at - bytes
            .get(..at)
            .map_or(0, |b| b.iter().rev().take_while(|c| word(c)).count())
    } else {
        at
    };
    start..at + 1
}

/// Where in `text` the problem serde_json found lies. A problem with the data is
/// found at the last byte of a key or value, or at the `}` of an object lacking a
/// key; a syntax error at the byte that breaks the syntax.
fn problem_at(text: &str, e: &serde_json::Error) -> Range<usize> {
    let at = offset(text, e.line(), e.column());
    if e.classify() != serde_json::error::Category::Data {
        at..(at + 1).min(text.len()).max(at)
    } else if e.to_string().starts_with("missing field ") {
        lacking(text, at)
    } else {
        token(text, at)
    }
}

/// The object a key is missing from, whose closing `}` is at `close`: whole when
/// it stands on one short line (`{ "name": "B" }`), else its opening `{`, as TOML
/// marks the table; the byte at `close` when it is not an object's end.
fn lacking(text: &str, close: usize) -> Range<usize> {
    let bytes = text.as_bytes();
    if bytes.get(close) != Some(&b'}') {
        return token(text, close);
    }
    // The opening brackets not yet closed, read from the start so that a bracket
    // in a quoted text is not taken for one.
    let mut open = Vec::new();
    let mut i = 0;
    while i < close {
        match bytes.get(i) {
            Some(b'"') => {
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                continue;
            }
            Some(b'{' | b'[') => open.push(i),
            Some(b'}' | b']') => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    match open.pop() {
        Some(start) if bytes.get(start) == Some(&b'{') => {
            // A whole file on one line is marked at its start, not underlined.
            let short = close.saturating_sub(start) < 120;
            let one_line = !bytes.get(start..close).is_some_and(|b| b.contains(&b'\n'));
            if short && one_line {
                start..close + 1
            } else {
                start..start + 1
            }
        }
        _ => close..close + 1,
    }
}

/// The byte offset of a 1-based line and column (serde_json counts columns in bytes).
fn offset(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let mut at = start + column.saturating_sub(1).min(l.len());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_readers_own_depth_messages_read_as_too_deep() {
        let deep = "the values are nested too deeply (brackets or tables inside one another)";
        assert_eq!(
            plain_depth("cannot recurse further; max recursion depth met"),
            deep
        );
        assert_eq!(plain_depth("recursion limit exceeded"), deep);
        // A key or a text of the user's that holds the word is not.
        for other in [
            "unknown field `recursion`",
            "invalid type: string \"recurse\"",
        ] {
            assert_eq!(plain_depth(other), other);
        }
    }

    #[test]
    fn a_json_file_is_refused_one_sign_past_the_bound_and_read_at_it() {
        // `{`, `"k":`, `[` and the commas: four signs short of the values.
        let file = |signs: usize| format!("{{\"k\": [{}0]}}", "0,".repeat(signs - 3));
        let over = from_json::<serde_json::Value>(&file(bound::MAX_VALUES + 1)).unwrap_err();
        assert!(
            over.message.contains("more than 1,000,000 values"),
            "{}",
            over.message
        );
        assert!(from_json::<serde_json::Value>(&file(bound::MAX_VALUES)).is_ok());
    }

    #[derive(Debug, Deserialize)]
    struct Doc {
        a: Sp<u32>,
        b: Vec<Sp<String>>,
    }

    #[test]
    fn json_values_keep_their_own_spans() {
        let text = "{\"a\": 7, \"b\": [\"Åsa\", \"x\"]}";
        let doc: Doc = from_json(text).unwrap();
        assert_eq!(&text[doc.a.span.clone()], "7");
        assert_eq!(&text[doc.b[1].span.clone()], "\"x\"");
    }

    #[test]
    fn a_bom_is_accepted_and_spans_count_it() {
        let json = "\u{feff}{\"a\": 7, \"b\": []}";
        let doc: Doc = from_json(json).unwrap();
        assert_eq!(&json[doc.a.span.clone()], "7");
        let toml = "\u{feff}a = 7\nb = [\"x\"]\n";
        let doc: Doc = listed::read_listed(toml, false, |l| l.rest()).unwrap();
        assert_eq!(&toml[doc.a.span.clone()], "7");
        assert_eq!(&toml[doc.b[0].span.clone()], "\"x\"");
    }

    #[test]
    fn a_json_problem_points_at_the_start_of_the_key_or_value() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Entry {
            #[allow(dead_code)]
            number: Sp<u32>,
        }
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Outer {
            #[allow(dead_code)]
            seed: Sp<u64>,
            #[allow(dead_code)]
            #[serde(default)]
            round: Vec<Sp<Entry>>,
        }
        let at = |text: &str| {
            let e = from_json::<Outer>(text).err().unwrap();
            text[e.span].to_string()
        };
        assert_eq!(
            at("{\"seed\": 1, \"round\": [{\"numbr\": 1}]}"),
            "\"numbr\""
        );
        assert_eq!(at("{\"seed\": 1.5}"), "1.5");
        assert_eq!(at("{\"seed\": -4}"), "-4");
        assert_eq!(at("{\"seed\": 1, \"seed\": 2}"), "\"seed\"");
        assert_eq!(
            at("{\"seed\": 1, \"round\": [{\"number\": \"a\\\"b\"}]}"),
            "\"a\\\"b\""
        );
        assert_eq!(at("{\"seed\": 1, \"x\\\"y\": 2}"), "\"x\\\"y\"");
        // A missing key: the object it is missing from, as TOML marks the table,
        // or its opening brace when it has several lines.
        assert_eq!(at("{\"seed\": 1, \"round\": [{\"number\": 1}, {}]}"), "{}");
        assert_eq!(at("{\n  \"round\": []\n}"), "{");
        let minified = format!("{{\"round\": [{}]}}", ["{\"number\": 1}"; 10].join(","));
        assert_eq!(at(&minified), "{");
        // A bracket in a quoted text is not the object's.
        let text = "{\"b\": [\"}{\", \"x\\\"]\"], \"c\": \"{\"}";
        let e = from_json::<Doc>(text).err().unwrap();
        assert_eq!(e.message, "missing field `a`");
        assert_eq!(&text[e.span], text);
    }

    #[test]
    fn a_json_problem_points_at_the_value_at_fault() {
        let text = "{\"a\": 7, \"b\": [\"x\", 3]}";
        let e = from_json::<Doc>(text).err().unwrap();
        assert_eq!(e.span.start, text.find('3').unwrap(), "{e:?}");
    }
}
