//! Writing the draws made into the event file (`bfr run --write-draw`): once a
//! round or stage is drawn, its draw is the record and stands. TOML files are
//! edited in place with `toml_edit`, so the director's comments and layout stay;
//! JSON files (which have no comments) are written out again, pretty-printed.

use toml_edit::{Array, ArrayOfTables, DocumentMut, Item, Table, value};

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

/// The file's text with `draws` written in: each into its `[[round]]` (by
/// `number`) or `[[stage]]` (by `name`), added at the end when there is none.
/// A byte-order mark at the start stays there.
pub fn write_draws(text: &str, json: bool, draws: &[MadeDraw]) -> Result<String, String> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    let written = if json {
        write_json(body, draws)
    } else {
        write_toml(body, draws)
    }?;
    Ok(format!("{bom}{written}"))
}

fn write_toml(text: &str, draws: &[MadeDraw]) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    for d in draws {
        let (key, field, id): (&str, &str, Item) = match (&d.round, &d.stage) {
            (Some(r), _) => ("round", "number", value(i64::from(*r))),
            (_, Some(s)) => ("stage", "name", value(s.as_str())),
            _ => continue,
        };
        if doc.get(key).is_none() {
            doc.insert(key, Item::ArrayOfTables(ArrayOfTables::new()));
        }
        let tables = doc
            .get_mut(key)
            .and_then(Item::as_array_of_tables_mut)
            .ok_or_else(|| format!("`{key}` is not a list of `[[{key}]]` tables"))?;
        // Compared as values: a value's text keeps the spaces around it.
        let same = |t: &Table| match (t.get(field), &d.round, &d.stage) {
            (Some(v), Some(r), _) => v.as_integer() == Some(i64::from(*r)),
            (Some(v), _, Some(s)) => v.as_str() == Some(s.as_str()),
            _ => false,
        };
        let found = tables.iter().position(same);
        let i = match found {
            Some(i) => i,
            None => {
                let mut t = Table::new();
                t.insert(field, id.clone());
                tables.push(t);
                tables.len() - 1
            }
        };
        let Some(table) = tables.get_mut(i) else {
            continue;
        };
        let mut array = Array::new();
        for p in pair_texts(d) {
            array.push(p);
        }
        table.insert("draw", value(array));
        if let Some(b) = d.bye {
            table.insert("bye", value(i64::from(b)));
        }
    }
    Ok(doc.to_string())
}

fn write_json(text: &str, draws: &[MadeDraw]) -> Result<String, String> {
    let mut doc: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let root = doc
        .as_object_mut()
        .ok_or("the event is not a JSON object")?;
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
            .ok_or_else(|| format!("`{key}` is not a list"))?;
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
        .map_err(|e| e.to_string())
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
}
