//! Writing the draws made into the event file (`bfr run --write-draw`): once a
//! round or stage is drawn, its draw is the record and stands. TOML files are
//! edited in place with `toml_edit`, so the director's comments and layout stay;
//! JSON files (which have no comments) are written out again, pretty-printed.

use std::ops::Range;
use toml_edit::{Array, ArrayOfTables, Decor, InlineTable, Item, Table, Value, value};

/// A draw the run made that the file does not record yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeDraw {
    /// The round, for a qualification round.
    pub round: Option<u32>,
    /// The stage's name, for a knockout stage.
    pub stage: Option<String>,
    /// (home, away) in table order.
    pub pairs: Vec<(u32, u32)>,
    /// The team with the bye.
    pub bye: Option<u32>,
}

fn pair_texts(d: &MadeDraw) -> Vec<String> {
    d.pairs.iter().map(|(h, a)| format!("{h}-{a}")).collect()
}

/// Why the draws cannot be written into the file: what stands in the way, and
/// the bytes of the file it is about (the key at fault, or the start of the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unwritable {
    /// What stands in the way, in words.
    pub message: String,
    /// Where, in the file's text as given (a byte-order mark counted).
    pub at: Range<usize>,
}

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Unwritable {
    fn new(message: impl Into<String>, at: Range<usize>) -> Unwritable {
        Unwritable {
            message: message.into(),
            at,
        }
    }
}

/// The file's text with `draws` written in: each into its round (by `number`) or
/// stage (by `name`), whether the file writes them as `[[round]]` tables or as an
/// array of inline tables (`round = [{ number = 1, … }]`), added at the end when
/// there is none. A byte-order mark at the start stays there, and a file written
/// with CRLF line endings keeps them on every line.
pub fn write_draws(text: &str, json: bool, draws: &[MadeDraw]) -> Result<String, Unwritable> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    let written = if json {
        write_json(body, draws)
    } else {
        write_toml(body, draws)
    }
    .map_err(|e| Unwritable::new(e.message, e.at.start + bom.len()..e.at.end + bom.len()))?;
    let written = if uses_crlf(body) {
        with_crlf(&written)
    } else {
        written
    };
    Ok(format!("{bom}{written}"))
}

/// Whether most of the text's lines end with CRLF (a file saved on Windows).
fn uses_crlf(text: &str) -> bool {
    let crlf = text.matches("\r\n").count();
    crlf > 0 && crlf * 2 >= text.matches('\n').count()
}

/// The text with every line ending CRLF: the editor writes a new line with LF alone.
fn with_crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// The key a draw goes under (`round` or `stage`), the field that names its entry,
/// and the entry's value of that field; `None` for a draw of neither.
fn entry_key(d: &MadeDraw) -> Option<(&'static str, &'static str, Value)> {
    match (&d.round, &d.stage) {
        (Some(r), _) => Some(("round", "number", Value::from(i64::from(*r)))),
        (_, Some(s)) => Some(("stage", "name", Value::from(s.as_str()))),
        _ => None,
    }
}

/// Whether an entry's naming field holds `id` (compared as values: a value's text
/// keeps the spaces around it).
fn names(field: Option<&Value>, id: &Value) -> bool {
    match (field, id) {
        (Some(v), Value::Integer(n)) => v.as_integer() == Some(*n.value()),
        (Some(v), Value::String(s)) => v.as_str() == Some(s.value().as_str()),
        _ => false,
    }
}

/// The draw's matches as a TOML array of texts.
fn draw_array(d: &MadeDraw) -> Array {
    let mut array = Array::new();
    for p in pair_texts(d) {
        array.push(p);
    }
    array
}

fn write_toml(text: &str, draws: &[MadeDraw]) -> Result<String, Unwritable> {
    let parsed = toml_edit::Document::parse(text).map_err(|e| {
        Unwritable::new(
            format!("the file is not TOML: {}", e.message().trim()),
            e.span().unwrap_or(0..0),
        )
    })?;
    // Where each key is written, for a problem with it (the editable copy has no spans).
    let key_at = |key: &str| {
        parsed
            .get_key_value(key)
            .and_then(|(k, _)| k.span())
            .unwrap_or(0..0)
    };
    let places = [("round", key_at("round")), ("stage", key_at("stage"))];
    let mut doc = parsed.into_mut();
    for d in draws {
        let Some((key, field, id)) = entry_key(d) else {
            continue;
        };
        let at = places
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0..0, |(_, at)| at.clone());
        match doc.get_mut(key) {
            None => {
                let mut tables = ArrayOfTables::new();
                tables.push(Table::new());
                doc.insert(key, Item::ArrayOfTables(tables));
                let table = doc
                    .get_mut(key)
                    .and_then(Item::as_array_of_tables_mut)
                    .and_then(|t| t.get_mut(0));
                if let Some(table) = table {
                    table.insert(field, Item::Value(id));
                    write_into_table(table, d);
                }
            }
            Some(Item::ArrayOfTables(tables)) => {
                let found = tables
                    .iter()
                    .position(|t| names(t.get(field).and_then(Item::as_value), &id));
                let i = match found {
                    Some(i) => i,
                    None => {
                        let mut t = Table::new();
                        t.insert(field, Item::Value(id));
                        tables.push(t);
                        tables.len() - 1
                    }
                };
                if let Some(table) = tables.get_mut(i) {
                    write_into_table(table, d);
                }
            }
            Some(Item::Value(Value::Array(array))) => {
                write_into_inline(array, field, id, d, key, &at)?;
            }
            Some(_) => {
                return Err(Unwritable::new(
                    format!(
                        "`{key}` is neither a list of `[[{key}]]` tables nor a list of inline tables `{key} = [{{ … }}]`"
                    ),
                    at,
                ));
            }
        }
    }
    Ok(doc.to_string())
}

/// Writes draw `d` into a `[[round]]` or `[[stage]]` table.
fn write_into_table(table: &mut Table, d: &MadeDraw) {
    table.insert("draw", value(draw_array(d)));
    if let Some(b) = d.bye {
        table.insert("bye", value(i64::from(b)));
    }
}

/// Writes draw `d` into the inline table of `array` whose `field` is `id`, or into
/// a new one at its end laid out as the last one is (on a line of its own when
/// the entries stand one to a line).
fn write_into_inline(
    array: &mut Array,
    field: &str,
    id: Value,
    d: &MadeDraw,
    key: &str,
    at: &Range<usize>,
) -> Result<(), Unwritable> {
    if array.iter().any(|v| !v.is_inline_table()) {
        return Err(Unwritable::new(
            format!("an entry of `{key}` is not a table `{{ … }}`"),
            at.clone(),
        ));
    }
    let found = array.iter().position(|v| {
        v.as_inline_table()
            .is_some_and(|t| names(t.get(field), &id))
    });
    let i = match found {
        Some(i) => i,
        None => {
            let mut t = InlineTable::new();
            t.insert(field, id);
            let mut entry = Value::InlineTable(t);
            match array.len().checked_sub(1).and_then(|i| array.get_mut(i)) {
                Some(last) => {
                    // The new entry takes the last one's place in the layout: its
                    // indentation, and what followed it (the line break before `]`).
                    let decor = last.decor().clone();
                    last.decor_mut().set_suffix("");
                    let text = |r: Option<&toml_edit::RawString>, or: &str| {
                        r.and_then(|r| r.as_str()).unwrap_or(or).to_string()
                    };
                    *entry.decor_mut() =
                        Decor::new(text(decor.prefix(), " "), text(decor.suffix(), ""));
                    array.push_formatted(entry);
                }
                None => array.push(entry),
            }
            array.len() - 1
        }
    };
    let table = array
        .get_mut(i)
        .and_then(Value::as_inline_table_mut)
        .ok_or_else(|| {
            Unwritable::new(
                format!("an entry of `{key}` is not a table `{{ … }}`"),
                at.clone(),
            )
        })?;
    append_inline(table, "draw", Value::Array(draw_array(d)));
    if let Some(b) = d.bye {
        append_inline(table, "bye", Value::from(i64::from(b)));
    }
    Ok(())
}

/// Sets `key` in an inline table; a new key goes last, and the space before the
/// closing `}` moves after it (`{ number = 1, draw = […] }`).
fn append_inline(table: &mut InlineTable, key: &str, new: Value) {
    if let Some(old) = table.get_mut(key) {
        let decor = old.decor().clone();
        *old = new;
        *old.decor_mut() = decor;
        return;
    }
    let last = table.iter_mut().last().map(|(_, v)| v);
    // A value made here has no suffix of its own and is laid out by default.
    let closing = last.and_then(|v| {
        let suffix = v.decor().suffix()?.as_str()?.to_string();
        v.decor_mut().set_suffix("");
        Some(suffix)
    });
    table.insert(key, new);
    if let (Some(suffix), Some(v)) = (closing, table.get_mut(key)) {
        v.decor_mut().set_suffix(suffix);
    }
}

fn write_json(text: &str, draws: &[MadeDraw]) -> Result<String, Unwritable> {
    let whole = 0..text.len().min(1);
    let mut doc: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Unwritable::new(format!("the file is not JSON: {e}"), whole.clone()))?;
    let root = doc
        .as_object_mut()
        .ok_or_else(|| Unwritable::new("the event is not a JSON object `{ … }`", whole.clone()))?;
    for d in draws {
        let (key, field, id) = match (&d.round, &d.stage) {
            (Some(r), _) => ("round", "number", serde_json::json!(r)),
            (_, Some(s)) => ("stage", "name", serde_json::json!(s)),
            _ => continue,
        };
        let list = root
            .entry(key)
            .or_insert_with(|| serde_json::json!([]))
            .as_array_mut()
            .ok_or_else(|| {
                Unwritable::new(format!("`{key}` is not a list `[ … ]`"), whole.clone())
            })?;
        let i = match list.iter().position(|t| t.get(field) == Some(&id)) {
            Some(i) => i,
            None => {
                list.push(serde_json::json!({ field: id }));
                list.len() - 1
            }
        };
        if let Some(t) = list.get_mut(i).and_then(serde_json::Value::as_object_mut) {
            t.insert("draw".into(), serde_json::json!(pair_texts(d)));
            if let Some(b) = d.bye {
                t.insert("bye".into(), serde_json::json!(b));
            }
        }
    }
    serde_json::to_string_pretty(&doc)
        .map(|s| s + "\n")
        .map_err(|e| Unwritable::new(format!("the file cannot be laid out as JSON: {e}"), whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_written_into_its_round_and_comments_stay() {
        let text = "competition = \"mini\" # the cup\nseed = 1\n\n[[round]] # first\nnumber = 1\nresults = [\"1-2 3:4\"] # late\n";
        let draws = [
            MadeDraw {
                round: Some(1),
                stage: None,
                pairs: vec![(1, 2), (3, 4)],
                bye: None,
            },
            MadeDraw {
                round: Some(2),
                stage: None,
                pairs: vec![(1, 3)],
                bye: Some(2),
            },
        ];
        let out = write_draws(text, false, &draws).unwrap();
        assert!(out.contains("# the cup"), "{out}");
        assert!(out.contains("# late"), "{out}");
        assert!(out.contains("[[round]] # first\nnumber = 1\nresults = [\"1-2 3:4\"] # late\ndraw = [\"1-2\", \"3-4\"]\n"), "{out}");
        assert!(
            out.contains("[[round]]\nnumber = 2\ndraw = [\"1-3\"]\nbye = 2\n"),
            "{out}"
        );
    }

    #[test]
    fn a_stage_draw_in_json_keeps_every_entry() {
        let text =
            r#"{"competition": "mini", "seed": 1, "stage": [{"name": "sf", "choices": ["1>6"]}]}"#;
        let draws = [MadeDraw {
            round: None,
            stage: Some("sf".into()),
            pairs: vec![(1, 6), (8, 4)],
            bye: None,
        }];
        let out = write_draws(text, true, &draws).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["stage"][0]["choices"][0], "1>6");
        assert_eq!(v["stage"][0]["draw"][1], "8-4");
        assert_eq!(v["seed"], 1);
    }

    fn round_draw(round: u32, pairs: Vec<(u32, u32)>, bye: Option<u32>) -> MadeDraw {
        MadeDraw {
            round: Some(round),
            stage: None,
            pairs,
            bye,
        }
    }

    #[test]
    fn draws_go_into_an_array_of_inline_tables_laid_out_as_it_is() {
        let text = "competition = \"mini\"\nseed = 1\nround = [\n  { number = 1, results = [\"1-2 3:4\"] },\n  { number = 2 }\n]\n";
        let draws = [
            round_draw(1, vec![(1, 2)], None),
            round_draw(3, vec![(2, 1)], Some(3)),
        ];
        let out = write_draws(text, false, &draws).unwrap();
        assert_eq!(
            out,
            "competition = \"mini\"\nseed = 1\nround = [\n  { number = 1, results = [\"1-2 3:4\"], draw = [\"1-2\"] },\n  { number = 2 },\n  { number = 3, draw = [\"2-1\"], bye = 3 }\n]\n"
        );
        let _: toml::Table = toml::from_str(&out).unwrap();
    }

    #[test]
    fn a_stage_draw_goes_into_an_inline_stage_list_even_an_empty_one() {
        let text = "competition = \"mini\"\nstage = [{ name = \"sf\", choices = [\"1>6\"] }]\nround = []\n";
        let draws = [
            MadeDraw {
                round: None,
                stage: Some("sf".into()),
                pairs: vec![(1, 6), (8, 4)],
                bye: None,
            },
            round_draw(1, vec![(1, 2)], None),
        ];
        let out = write_draws(text, false, &draws).unwrap();
        let doc: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(doc["stage"][0]["draw"][1].as_str(), Some("8-4"), "{out}");
        assert_eq!(doc["stage"][0]["choices"][0].as_str(), Some("1>6"), "{out}");
        assert_eq!(doc["round"][0]["number"].as_integer(), Some(1), "{out}");
        assert!(
            out.starts_with(
                "competition = \"mini\"\nstage = [{ name = \"sf\", choices = [\"1>6\"]"
            ),
            "{out}"
        );
    }

    #[test]
    fn crlf_line_endings_stay_on_every_line_and_a_bom_stays_first() {
        let text = "\u{feff}competition = \"mini\"\r\nseed = 1 # the draw\r\n\r\n[[round]]\r\nnumber = 1\r\n";
        let out = write_draws(
            text,
            false,
            &[
                round_draw(1, vec![(1, 2)], None),
                round_draw(2, vec![(2, 1)], None),
            ],
        )
        .unwrap();
        assert!(out.starts_with("\u{feff}competition"), "{out:?}");
        assert_eq!(
            out.matches('\n').count(),
            out.matches("\r\n").count(),
            "{out:?}"
        );
        assert!(!out.contains("\r\r"), "{out:?}");
        assert!(
            out.contains("number = 1\r\ndraw = [\"1-2\"]\r\n"),
            "{out:?}"
        );
        let json = "{\"competition\": \"mini\",\r\n \"seed\": 1}\r\n";
        let out = write_draws(json, true, &[round_draw(1, vec![(1, 2)], None)]).unwrap();
        assert_eq!(
            out.matches('\n').count(),
            out.matches("\r\n").count(),
            "{out:?}"
        );
        // A file with LF line endings keeps them.
        let out = write_draws("seed = 1\n", false, &[round_draw(1, vec![(1, 2)], None)]).unwrap();
        assert!(!out.contains('\r'), "{out:?}");
    }

    #[test]
    fn a_list_that_cannot_take_a_draw_is_refused_at_its_key() {
        let text = "seed = 1\nround = 5\n";
        let e = write_draws(text, false, &[round_draw(1, vec![(1, 2)], None)]).unwrap_err();
        assert_eq!(&text[e.at.clone()], "round", "{e:?}");
        assert!(e.message.contains("`[[round]]`"), "{e}");
        let text = "\u{feff}seed = 1\nround = [5]\n";
        let e = write_draws(text, false, &[round_draw(1, vec![(1, 2)], None)]).unwrap_err();
        assert_eq!(&text[e.at.clone()], "round", "{e:?}");
    }
}
