//! Competitions compared property by property: the typed competition is turned
//! into a flat map from a property's path (`stage cc16.boards`,
//! `qualification.route places 1–8`) to its value as text, with every rule and
//! stage index replaced by its name, and the two maps compared.

use super::show::Shower;
use super::{Detail, Item, Kind, Side, Status};
use crate::ir::competition::{Schedule, Target};
use crate::ir::{Competition, Program};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// Competitions, matched by name, then a competition gone by a new one of the
/// same inventory ID (see [`renamed`]).
pub fn competitions(
    old: &Side,
    new: &Side,
    days: i64,
    renames: &BTreeMap<String, String>,
) -> Vec<(String, Item)> {
    let renamed_to = renamed(old.program, new.program);
    let olds: BTreeMap<&str, &Competition> = old
        .program
        .competitions
        .iter()
        .map(|c| (c.name.as_str(), c))
        .collect();
    let was_named: BTreeMap<&str, &str> = renamed_to
        .iter()
        .map(|(o, n)| (n.as_str(), o.as_str()))
        .collect();
    let mut out = Vec::new();
    for c in &new.program.competitions {
        let file = new.file(c.span.file);
        let before = olds
            .get(c.name.as_str())
            .or_else(|| was_named.get(c.name.as_str()).and_then(|o| olds.get(o)));
        let (status, details) = match before {
            None => (Status::Added, Vec::new()),
            Some(was) => {
                let a = flat(was, Shower::old(old.program, days, renames));
                let b = flat(c, Shower::new(new.program));
                let details = compare(&a, &b);
                if was.name != c.name {
                    (Status::Renamed, details)
                } else if details.is_empty() {
                    continue;
                } else {
                    (Status::Changed, details)
                }
            }
        };
        let mut it = item(c, status, details);
        if status == Status::Renamed {
            it.old_name = before.map(|was| was.name.clone());
        }
        out.push((file, it));
    }
    for c in &old.program.competitions {
        let kept = new.program.competitions.iter().any(|n| n.name == c.name);
        if !kept && !renamed_to.contains_key(&c.name) {
            out.push((old.file(c.span.file), item(c, Status::Removed, Vec::new())));
        }
    }
    out
}

/// The competitions renamed, old name to new: a competition only the old
/// edition has and one only the new has, with the one inventory ID no other
/// competition of either side shares (`cup` → `ordf`, both CC-PHASES). Its
/// changes are compared and its events simulated as one competition's.
pub fn renamed(old: &Program, new: &Program) -> BTreeMap<String, String> {
    let only = |side: &Program, other: &Program| -> BTreeMap<String, Vec<String>> {
        let mut by_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for c in &side.competitions {
            if other.competitions.iter().any(|o| o.name == c.name) {
                continue;
            }
            if let Some(src) = &c.source {
                by_id
                    .entry(src.id.to_string())
                    .or_default()
                    .push(c.name.clone());
            }
        }
        by_id
    };
    let (gone, came) = (only(old, new), only(new, old));
    gone.into_iter()
        .filter_map(
            |(id, olds)| match (olds.as_slice(), came.get(&id).map(Vec::as_slice)) {
                ([was], Some([now])) => Some((was.clone(), now.clone())),
                _ => None,
            },
        )
        .collect()
}

fn item(c: &Competition, status: Status, details: Vec<Detail>) -> Item {
    Item {
        kind: Kind::Competition,
        name: c.name.clone(),
        old_name: None,
        status,
        source: c.source.clone(),
        reading: false,
        details,
    }
}

/// Two flat maps compared: stages added or removed as a whole, then every
/// property changed, added or removed.
fn compare(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> Vec<Detail> {
    let stage_of = |k: &str| {
        k.strip_prefix("stage ")
            .and_then(|s| s.split('.').next())
            .map(str::to_string)
    };
    let stages = |m: &BTreeMap<String, String>| -> Vec<String> {
        let mut s: Vec<String> = m.keys().filter_map(|k| stage_of(k)).collect();
        s.dedup();
        s
    };
    let (old_stages, new_stages) = (stages(old), stages(new));
    let mut out = Vec::new();
    let title = |m: &BTreeMap<String, String>, s: &str| {
        m.get(&format!("stage {s}.title"))
            .cloned()
            .unwrap_or_default()
    };
    for s in new_stages.iter().filter(|s| !old_stages.contains(s)) {
        out.push(Detail::Added {
            what: format!("stage {s}"),
            value: title(new, s),
        });
    }
    for s in old_stages.iter().filter(|s| !new_stages.contains(s)) {
        out.push(Detail::Removed {
            what: format!("stage {s}"),
            value: title(old, s),
        });
    }
    let whole = |k: &str, side: &[String], other: &[String]| {
        stage_of(k).is_some_and(|s| side.contains(&s) && !other.contains(&s))
    };
    for (k, v) in new {
        match old.get(k) {
            Some(was) if was == v => {}
            Some(was) => out.push(Detail::Changed {
                what: k.clone(),
                old: was.clone(),
                new: v.clone(),
            }),
            None if whole(k, &new_stages, &old_stages) => {}
            None => out.push(Detail::Added {
                what: k.clone(),
                value: v.clone(),
            }),
        }
    }
    for (k, v) in old {
        if !new.contains_key(k) && !whole(k, &old_stages, &new_stages) {
            out.push(Detail::Removed {
                what: k.clone(),
                value: v.clone(),
            });
        }
    }
    out
}

/// A competition as a flat map of property paths to values as text.
fn flat(c: &Competition, shower: Shower) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(Json::Object(mut top)) = serde_json::to_value(c) else {
        return out;
    };
    let names = Names { shower, c };
    top.remove("name");
    top.remove("schedule");
    // Where the days come from, compared as the programme cites it below.
    top.remove("days_source");
    let stages = top.remove("stages");
    let qualification = top.remove("qualification");
    flatten("", &Json::Object(top), &names, &mut out);
    // The competition's days, as the edition writes them; a date the calendar
    // shift moves is compared as moved.
    let whole = &c.schedule;
    for (key, day) in [("first_day", whole.day), ("last_day", whole.last_day)] {
        if let Some(d) = day {
            out.insert(key.to_string(), shower.date(d).to_string());
        }
    }
    if let (Some(_), Some(source)) = (whole.day, &c.days_source) {
        out.insert("days cited as".to_string(), source.to_string());
    }
    if let (Some(Json::Object(mut q)), Some(typed)) = (qualification, &c.qualification) {
        q.remove("name");
        q.remove("places");
        q.remove("rest");
        q.remove("schedule");
        flatten("qualification", &Json::Object(q), &names, &mut out);
        schedule(
            ("qualification", "first_day"),
            &typed.schedule,
            shower,
            &mut out,
        );
        for (a, b, target) in &typed.places {
            let places = if a == b {
                format!("place {a}")
            } else {
                format!("places {a}–{b}")
            };
            out.insert(
                format!("qualification.route {places}"),
                names.target(*target),
            );
        }
        out.insert("qualification.route rest".into(), names.target(typed.rest));
    }
    if let Some(Json::Array(stages)) = stages {
        for (json, typed) in stages.into_iter().zip(&c.stages) {
            let Json::Object(mut s) = json else { continue };
            let prefix = format!("stage {}", typed.name);
            for key in ["name", "schedule", "winners", "losers"] {
                s.remove(key);
            }
            flatten(&prefix, &Json::Object(s), &names, &mut out);
            schedule((&prefix, "day"), &typed.schedule, shower, &mut out);
            out.insert(format!("{prefix}.winners"), names.target(typed.winners));
            out.insert(format!("{prefix}.losers"), names.target(typed.losers));
        }
    }
    out
}

/// A qualification's or stage's days and how it is played, each under the key
/// the edition writes it with (a qualification's first day is `first_day`, a
/// stage's one day `day`).
fn schedule(
    (prefix, day_key): (&str, &str),
    s: &Schedule,
    shower: Shower,
    out: &mut BTreeMap<String, String>,
) {
    let mut put = |key: &str, v: Option<String>| {
        if let Some(v) = v {
            out.insert(format!("{prefix}.{key}"), v);
        }
    };
    put(day_key, s.day.map(|d| shower.date(d).to_string()));
    put("last_day", s.last_day.map(|d| shower.date(d).to_string()));
    put("part", s.part.as_ref().map(|v| shower.value(v)));
    put("screens", s.screens.map(|b| b.to_string()));
    put("system", s.system.as_ref().map(|v| shower.value(v)));
}

/// Index-to-name lookups for one competition.
struct Names<'a> {
    shower: Shower<'a>,
    c: &'a Competition,
}

impl Names<'_> {
    fn rule(&self, i: u64) -> String {
        u32::try_from(i).map_or_else(
            |_| format!("rule {i}"),
            |i| self.shower.rule_name(i).to_string(),
        )
    }

    fn target(&self, t: Target) -> String {
        match t {
            Target::Stage(i) => self
                .c
                .stages
                .get(i)
                .map_or_else(|| format!("stage {i}"), |s| format!("stage {}", s.name)),
            Target::Out => "out".into(),
            Target::Place(a, b) if a == b => format!("place {a}"),
            Target::Place(a, b) => format!("places {a}–{b}"),
        }
    }
}

/// Keys whose number is the index of a rule.
const RULE_KEYS: [&str; 6] = [
    "vp_scale",
    "imp_scale",
    "trophy_points",
    "trophy_player_points",
    "picks_valid",
    "of_field",
];

fn flatten(prefix: &str, v: &Json, names: &Names, out: &mut BTreeMap<String, String>) {
    let path = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Json::Object(m) => {
            if let Some(text) = leaf(m, names) {
                out.insert(prefix.to_string(), text);
                return;
            }
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("rule", Json::Number(_)) => {}
                    (key, Json::Number(n)) if RULE_KEYS.contains(&key) => {
                        out.insert(path(k), names.rule(n.as_u64().unwrap_or(u64::MAX)));
                    }
                    _ => flatten(&path(k), x, names, out),
                }
            }
        }
        Json::Null => {}
        Json::Array(items) => {
            let shown: Vec<String> = items
                .iter()
                .map(|x| match x {
                    Json::Object(m) => leaf(m, names).unwrap_or_else(|| scalar(x)),
                    other => scalar(other),
                })
                .collect();
            out.insert(prefix.to_string(), shown.join(", "));
        }
        other => {
            out.insert(prefix.to_string(), scalar(other));
        }
    }
}

/// Objects that are one value: a chosen meaning, a quantity, a count.
fn leaf(m: &Map<String, Json>, names: &Names) -> Option<String> {
    if let (Some(meaning), Some(written)) = (m.get("meaning"), m.get("written")) {
        return Some(match written {
            Json::String(w) => format!("{} ({w})", scalar(meaning)),
            _ => format!("{} (default)", scalar(meaning)),
        });
    }
    // A tie-break criterion: the document's words for it, or without them its
    // meaning.
    if let (Some(label), Some(meaning), 2) = (m.get("label"), m.get("meaning"), m.len()) {
        return Some(match label {
            Json::String(label) => label.clone(),
            _ => scalar(meaning),
        });
    }
    if let (Some(Json::String(shown)), true) = (m.get("shown"), m.contains_key("amount")) {
        return Some(shown.clone());
    }
    if m.len() == 1 {
        if let Some(Json::Number(n)) = m.get("fixed") {
            return Some(n.to_string());
        }
        if let Some(Json::Number(n)) = m.get("of_field") {
            let rule = names.rule(n.as_u64().unwrap_or(u64::MAX));
            return Some(format!("{rule}(teams)"));
        }
    }
    None
}

fn scalar(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => "none".into(),
        other => other.to_string(),
    }
}
