//! A director's file read list entry by list entry (`[[team]]`, `"team": […]`),
//! so that a mistake in one team is reported and the others are still read: a
//! director learns of every structural mistake of a file in one read, not one
//! per run.
//!
//! The file is parsed once (TOML by `toml`'s own document tree, JSON as its
//! top-level pairs, each value's text a slice of the file); each list the
//! caller names is taken out and its entries read one by one, through the same
//! deserializers a whole-file read uses, so words and spans are the same; what
//! is left (the file's own keys, and any key it does not know) is read last.

use super::{
    ReadError, Sp, bound, json_body, json_part, offset_in, plain_depth, too_many_values,
    without_bom,
};
use serde::de::{DeserializeOwned, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::collections::{BTreeSet, BinaryHeap};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

/// The most problems said of one file, the first in the order of the file: past
/// them, one more says how many are not listed (a file of a thousand broken
/// teams is one mistake made a thousand times, and a list that long helps
/// nobody).
pub const MAX_PROBLEMS: usize = 50;

/// A file being read: its lists taken out one by one ([`Lists::each`]), then the
/// rest ([`Lists::rest`]).
pub struct Lists<'t> {
    form: Form<'t>,
    problems: Problems,
    /// The rest's problem, kept apart: a key missing at the top may have been
    /// written inside a list entry by mistake (said there).
    rest_problem: Option<ReadError>,
}

/// The problems found: the [`MAX_PROBLEMS`] first in the order of the file kept
/// whole, the others counted, so a file of a million broken entries costs no
/// more memory than one of fifty.
#[derive(Default)]
struct Problems {
    /// The problems kept, the last in the file on top (let go first).
    kept: BinaryHeap<ByPlace>,
    /// How many were let go, and the place of the first of them.
    unlisted: usize,
    first_unlisted: Option<Range<usize>>,
    /// The keys entries hold but do not know (`unknown field `seed``), a few.
    unknown_keys: BTreeSet<String>,
    /// Problems pushed so far: ties of place keep their order.
    pushed: usize,
}

/// A problem ordered by its place in the file: its start, its end, the order it
/// was found in (ties keep it), and its words.
type ByPlace = (usize, usize, usize, String);

/// At most this many unknown keys are remembered for the top's missing keys.
const KEYS_REMEMBERED: usize = 64;

impl Problems {
    fn push(&mut self, problem: ReadError) {
        if let Some(key) = super::words::unknown_key(&problem.message)
            && self.unknown_keys.len() < KEYS_REMEMBERED
        {
            self.unknown_keys.insert(key.to_owned());
        }
        let ReadError { message, span } = problem;
        self.kept.push((span.start, span.end, self.pushed, message));
        self.pushed += 1;
        if self.kept.len() > MAX_PROBLEMS
            && let Some((start, end, _, _)) = self.kept.pop()
        {
            self.unlisted += 1;
            if self
                .first_unlisted
                .as_ref()
                .is_none_or(|first| start < first.start)
            {
                self.first_unlisted = Some(start..end);
            }
        }
    }

    /// The problems kept, in the order of the file, and one more counting those
    /// not kept, at the first of them.
    fn into_sorted(self) -> Vec<ReadError> {
        let mut out: Vec<ReadError> = self
            .kept
            .into_sorted_vec()
            .into_iter()
            .map(|(start, end, _, message)| ReadError {
                message,
                span: start..end,
            })
            .collect();
        if let Some(span) = self.first_unlisted {
            let n = self.unlisted;
            let (mistakes, are) = if n == 1 {
                ("mistake", "is")
            } else {
                ("mistakes", "are")
            };
            out.push(ReadError {
                message: format!(
                    "{n} more {mistakes} from here to the end of the file {are} not listed; put those above right and read the file again"
                ),
                span,
            });
        }
        out
    }
}

enum Form<'t> {
    Toml(Option<Spanned<DeTable<'t>>>),
    Json {
        /// The file as written.
        file: &'t str,
        /// Its top-level keys and the text of each value, in file order.
        top: Vec<(String, &'t RawValue)>,
        /// The file with each list taken blanked to `[]` and spaces, so the
        /// rest reads with every offset as written.
        blanked: String,
    },
}

/// Reads `text` (JSON when `json`, else TOML) with `build`, which takes each
/// list and then the rest. The file when every part read, else every problem
/// found, in the order of the file.
pub fn read_listed<T>(
    text: &str,
    json: bool,
    build: impl FnOnce(&mut Lists<'_>) -> Option<T>,
) -> Result<T, Vec<ReadError>> {
    let toml_body = if json { None } else { Some(without_bom(text)) };
    let form = match &toml_body {
        Some(body) => Form::toml(body),
        None => Form::json(text),
    };
    let mut lists = Lists {
        form: form.map_err(|e| vec![e])?,
        problems: Problems::default(),
        rest_problem: None,
    };
    let file = build(&mut lists);
    let problems = lists.finish();
    match file {
        Some(file) if problems.is_empty() => Ok(file),
        _ => Err(problems),
    }
}

impl<'t> Form<'t> {
    fn toml(body: &'t str) -> Result<Self, ReadError> {
        if let Some(span) = bound::past(body, bound::Notation::Toml, bound::MAX_VALUES) {
            return Err(too_many_values(span));
        }
        DeTable::parse(body)
            .map(|table| Form::Toml(Some(table)))
            .map_err(|e| toml_problem(&e))
    }

    fn json(file: &'t str) -> Result<Self, ReadError> {
        let body = json_body(file)?;
        // The top level reads each value as its text, and serde_json skims such a
        // text with fewer words for a slip (a trailing comma in a list is "expected
        // value"): a file that does not read is read again as a whole for them.
        let TopPairs(top) = json_part(file, body).map_err(|e| {
            json_part::<serde_json::Value>(file, body)
                .err()
                .unwrap_or(e)
        })?;
        Ok(Form::Json {
            file,
            top,
            blanked: file.to_owned(),
        })
    }
}

impl Lists<'_> {
    /// The entries of the list under `key`, each read on its own: those that
    /// read, in order; each one that does not is a problem. Empty when the key
    /// is absent or its value is not a list (the rest says so).
    pub fn each<E: DeserializeOwned>(&mut self, key: &str) -> Vec<Sp<E>> {
        let mut out = Vec::new();
        match &mut self.form {
            Form::Toml(table) => {
                let Some(value) = table.as_mut().and_then(|t| t.get_mut().get_mut(key)) else {
                    return out;
                };
                let items = match std::mem::replace(value.get_mut(), DeValue::Array(DeArray::new()))
                {
                    DeValue::Array(items) => items,
                    other => {
                        *value.get_mut() = other;
                        return out;
                    }
                };
                for item in items {
                    match Sp::<E>::deserialize(item.into_deserializer()) {
                        Ok(entry) => out.push(entry),
                        Err(e) => self.problems.push(toml_problem(&e)),
                    }
                }
            }
            Form::Json { file, top, blanked } => {
                let Some(raw) = top.iter().find(|(k, _)| k == key).map(|(_, raw)| *raw) else {
                    return out;
                };
                let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
                    return out;
                };
                let start = offset_in(file, raw.get());
                let len = raw.get().len();
                blanked.replace_range(start..start + len, &format!("[]{}", " ".repeat(len - 2)));
                for item in items {
                    match json_part::<Sp<E>>(file, item.get()) {
                        Ok(entry) => out.push(entry),
                        Err(problem) => self.problems.push(problem),
                    }
                }
            }
        }
        out
    }

    /// The file's own keys, with each list taken read as empty: the caller puts
    /// the lists in. `None` when they do not read (the problem is kept).
    pub fn rest<R: DeserializeOwned>(&mut self) -> Option<R> {
        let read = match &mut self.form {
            Form::Toml(table) => {
                let table = table.take()?;
                R::deserialize(toml::de::Deserializer::from(table)).map_err(|e| toml_problem(&e))
            }
            Form::Json { blanked, .. } => super::from_json::<R>(blanked),
        };
        read.map_err(|e| self.rest_problem = Some(e)).ok()
    }

    /// The problems, in the order of the file (see [`Problems`]). A key the top
    /// lacks is not said again when an entry holds a key of that name it does not
    /// know: the key was written inside the entry, and the entry's problem says
    /// where.
    fn finish(mut self) -> Vec<ReadError> {
        if let Some(rest) = self.rest_problem.take() {
            let lacked = rest
                .message
                .strip_prefix("missing field `")
                .and_then(|k| k.strip_suffix('`'));
            if !lacked.is_some_and(|k| self.problems.unknown_keys.contains(k)) {
                self.problems.push(rest);
            }
        }
        self.problems.into_sorted()
    }
}

/// A TOML problem: the reader's words and where.
fn toml_problem(e: &toml::de::Error) -> ReadError {
    ReadError {
        message: plain_depth(e.message().trim()),
        span: e.span().unwrap_or(0..0),
    }
}

/// A JSON object's pairs as written: each key, and its value's text.
struct TopPairs<'t>(Vec<(String, &'t RawValue)>);

impl<'de> Deserialize<'de> for TopPairs<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = TopPairs<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("one JSON object, `{ … }`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopPairs<'de>, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, &'de RawValue>()? {
                    pairs.push(pair);
                }
                Ok(TopPairs(pairs))
            }
        }
        d.deserialize_map(Pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        name: Sp<String>,
        #[serde(default)]
        item: Vec<Sp<Item>>,
        #[serde(default)]
        other: Vec<Sp<Item>>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Item {
        n: Sp<u32>,
    }

    fn read(text: &str, json: bool) -> Result<File, Vec<(String, String)>> {
        read_listed(text, json, |lists| {
            let item = lists.each("item");
            let other = lists.each("other");
            let rest: File = lists.rest()?;
            Some(File {
                item,
                other,
                ..rest
            })
        })
        .map_err(|problems| {
            problems
                .into_iter()
                .map(|p| (text[p.span].to_string(), p.message))
                .collect()
        })
    }

    #[test]
    fn a_file_that_reads_keeps_every_entry_and_its_spans() {
        let toml = "name = \"a\"\n[[item]]\nn = 1\n[[item]]\nn = 2\n";
        let json = "{\"name\": \"a\", \"item\": [{\"n\": 1}, {\"n\": 2}]}";
        for (text, json) in [(toml, false), (json, true)] {
            let file = read(text, json).unwrap();
            assert_eq!(file.name.value, "a");
            assert!(file.other.is_empty());
            let n: Vec<_> = file
                .item
                .iter()
                .map(|i| &text[i.value.n.span.clone()])
                .collect();
            assert_eq!(n, ["1", "2"]);
        }
    }

    #[test]
    fn a_list_that_is_not_one_or_is_given_twice_is_said_by_the_rest() {
        let (at, message) = read("name = \"a\"\nitem = 5\n", false)
            .unwrap_err()
            .remove(0);
        assert_eq!(at, "5");
        assert!(
            message.starts_with("invalid type: integer `5`"),
            "{message}"
        );
        let said = read(
            "{\"item\": [], \"name\": \"a\", \"item\": [{\"n\": 1}]}",
            true,
        )
        .unwrap_err();
        assert_eq!(
            said,
            [("\"item\"".to_string(), "duplicate field `item`".to_string())]
        );
    }

    #[test]
    fn a_key_missing_at_the_top_is_not_said_again_when_an_entry_holds_it() {
        // TOML reads `name` below the header as the item's.
        let said = read("[[item]]\nn = 1\nname = \"a\"\n", false).unwrap_err();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].1.starts_with("unknown field `name`"), "{said:?}");
        // Missing with nothing to explain it, it is said.
        let said = read("[[item]]\nn = 1\n", false).unwrap_err();
        assert_eq!(said[0].1, "missing field `name`");
    }

    #[test]
    fn a_file_that_is_not_toml_or_json_stops_at_its_first_slip() {
        let said = read("name = \"a\"\n[[item]]\nn = = 1\nm = = 2\n", false).unwrap_err();
        assert_eq!(said.len(), 1, "{said:?}");
        let said = read("{\"name\": \"a\", \"item\": [{\"n\": 1},]}", true).unwrap_err();
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].1, "trailing comma");
    }

    #[test]
    fn the_first_problems_in_the_order_of_the_file_are_listed_and_the_rest_counted() {
        let items = |n: usize, key: &str| vec![format!("{{\"{key}\": 1}}"); n].join(", ");
        // Fifty mistakes and a good entry after them: fifty, and no count.
        let text = format!(
            "{{\"name\": \"a\", \"item\": [{}, {{\"n\": 1}}]}}",
            items(MAX_PROBLEMS, "m")
        );
        assert_eq!(read(&text, true).unwrap_err().len(), MAX_PROBLEMS);
        // The list written first is listed first, whichever the reader takes first.
        let text = format!(
            "{{\"name\": \"a\", \"other\": [{}], \"item\": [{}]}}",
            items(30, "o"),
            items(60, "i")
        );
        let said = read(&text, true).unwrap_err();
        assert_eq!(said.len(), MAX_PROBLEMS + 1);
        assert!(said[..30].iter().all(|(at, _)| at == "\"o\""), "{said:?}");
        assert!(
            said[30..MAX_PROBLEMS].iter().all(|(at, _)| at == "\"i\""),
            "{said:?}"
        );
        let (at, count) = &said[MAX_PROBLEMS];
        assert_eq!(at, "\"i\"");
        assert!(
            count.starts_with("40 more mistakes from here to the end of the file are not listed"),
            "{count}"
        );
        // The 51st of them, in the file: the 21st bad item.
        let place = text.match_indices("\"i\"").nth(20).unwrap().0;
        let all = read_listed(&text, true, |l| {
            l.each::<Item>("item");
            l.each::<Item>("other");
            l.rest::<File>()
        })
        .unwrap_err();
        assert_eq!(all[MAX_PROBLEMS].span.start, place);
        // A key at the top counts as one of them.
        let text = format!(
            "x = 1\nname = \"a\"\n{}",
            "[[item]]\nm = 1\n".repeat(MAX_PROBLEMS)
        );
        let said = read(&text, false).unwrap_err();
        assert_eq!(said.len(), MAX_PROBLEMS + 1);
        assert_eq!(said[0].0, "x");
        assert!(
            said[MAX_PROBLEMS]
                .1
                .starts_with("1 more mistake from here to the end of the file is not listed"),
            "{said:?}"
        );
    }
}
