//! Rules, procedures, types and examples compared: matched by name, renames
//! found by inventory ID and body, bodies compared part by part (a const's
//! value, a table's rows by key, a scale's rows by range).

use super::behaviour::Budget;
use super::show::Shower;
use super::{Detail, Item, Kind, Side, Status, effect, words};
use crate::ir::{Program, Rule, RuleBody, SourceInfo, Type};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A rule written out for comparison: its kind, signature and keyed parts.
/// Two rules of the same written form have the same body, whatever their names.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Written {
    kind: Kind,
    signature: String,
    parts: Vec<(String, String)>,
}

impl Written {
    fn of(rule: &Rule, shower: Shower) -> Written {
        let program = shower.program;
        let params: Vec<String> = rule.params.iter().map(|(n, _)| n.clone()).collect();
        let signature = program.signature(rule);
        let (kind, parts) = match &rule.body {
            RuleBody::Const { value } => (
                Kind::Const,
                vec![("value".to_string(), shower.expr(value, &params))],
            ),
            RuleBody::Fn { body } => (
                Kind::Fn,
                vec![("body".to_string(), shower.expr(body, &params))],
            ),
            RuleBody::Table { rows } => {
                let variants = table_keys(program, rule);
                let parts = rows
                    .iter()
                    .enumerate()
                    .map(|(i, row)| {
                        let key = variants.get(i).cloned().unwrap_or_else(|| format!("{i}"));
                        (format!("row {key}"), shower.expr(row, &params))
                    })
                    .collect();
                (Kind::Table, parts)
            }
            RuleBody::Scale { arms } => {
                let parts = arms
                    .iter()
                    .map(|arm| {
                        let range = shower.range(arm.lower.as_ref(), arm.upper.as_ref());
                        (format!("row {range}"), shower.expr(&arm.value, &params))
                    })
                    .collect();
                (Kind::Scale, parts)
            }
        };
        Written {
            kind,
            signature,
            parts,
        }
    }
}

/// The variant names a table is keyed by.
fn table_keys(program: &Program, rule: &Rule) -> Vec<String> {
    match rule.params.first().map(|(_, t)| t) {
        Some(Type::Enum(e)) => program
            .enums
            .get(*e as usize)
            .map(|info| info.variants.clone())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The parts that differ between two writings of a rule, keyed parts matched
/// by key (new order first, then parts only the old one has).
fn part_details(old: &Written, new: &Written) -> Vec<Detail> {
    let mut out = Vec::new();
    if old.kind != new.kind {
        out.push(Detail::Changed {
            what: "kind".into(),
            old: old.kind.word().into(),
            new: new.kind.word().into(),
        });
    }
    if old.signature != new.signature {
        out.push(Detail::Changed {
            what: "type".into(),
            old: old.signature.clone(),
            new: new.signature.clone(),
        });
    }
    let olds: BTreeMap<&str, &str> = old
        .parts
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let news: BTreeSet<&str> = new.parts.iter().map(|(k, _)| k.as_str()).collect();
    for (key, value) in &new.parts {
        match olds.get(key.as_str()) {
            Some(was) if *was == value.as_str() => {}
            Some(was) => out.push(Detail::Changed {
                what: key.clone(),
                old: (*was).to_string(),
                new: value.clone(),
            }),
            None => out.push(Detail::Added {
                what: key.clone(),
                value: value.clone(),
            }),
        }
    }
    for (key, value) in &old.parts {
        if !news.contains(key.as_str()) {
            out.push(Detail::Removed {
                what: key.clone(),
                value: value.clone(),
            });
        }
    }
    out
}

fn source_detail(old: &Option<SourceInfo>, new: &Option<SourceInfo>) -> Option<Detail> {
    (old != new).then(|| Detail::Changed {
        what: "source".into(),
        old: old.as_ref().map_or("none".into(), |s| s.to_string()),
        new: new.as_ref().map_or("none".into(), |s| s.to_string()),
    })
}

fn doc_detail(old: &str, new: &str) -> Option<Detail> {
    (old != new).then(|| Detail::Words {
        what: "doc".into(),
        words: words::diff(old, new),
    })
}

/// Rules renamed: old name to new name. A rule only the new edition has is a
/// rename of a rule only the old one has when both carry the same inventory ID
/// and the same signature and body.
pub fn renames(old: &Side, new: &Side, days: i64) -> BTreeMap<String, String> {
    let old_shower = Shower::shifted(old.program, days);
    let new_shower = Shower::new(new.program);
    let old_names: BTreeSet<&str> = old.program.rules.iter().map(|r| r.name.as_str()).collect();
    let new_names: BTreeSet<&str> = new.program.rules.iter().map(|r| r.name.as_str()).collect();
    // The rules gone from the old edition by source and written form, each
    // written once, in the old edition's order: a new rule takes the first.
    let mut gone: BTreeMap<(&str, Written), VecDeque<&Rule>> = BTreeMap::new();
    for was in old.program.rules.iter().map(|r| &**r) {
        if let Some(id) = was.source.as_ref().map(|s| &*s.id)
            && !new_names.contains(was.name.as_str())
        {
            let key = (id, Written::of(was, old_shower.keeping_dates_of(was)));
            gone.entry(key).or_default().push_back(was);
        }
    }
    let mut out = BTreeMap::new();
    for rule in &new.program.rules {
        if old_names.contains(rule.name.as_str()) {
            continue;
        }
        let Some(id) = rule.source.as_ref().map(|s| &*s.id) else {
            continue;
        };
        let key = (id, Written::of(rule, new_shower));
        if let Some(was) = gone.get_mut(&key).and_then(VecDeque::pop_front) {
            out.insert(was.name.clone(), rule.name.clone());
        }
    }
    out
}

/// Consts, functions, tables and scales.
pub fn rules(
    old: &Side,
    new: &Side,
    days: i64,
    renames: &BTreeMap<String, String>,
    budget: &Budget,
) -> Vec<(String, Item)> {
    let old_shower = Shower::old(old.program, days, renames);
    let new_shower = Shower::new(new.program);
    // Old rules by the name they have in the new edition.
    let old_by_name: BTreeMap<&str, (u32, &Rule)> = (0u32..)
        .zip(&old.program.rules)
        .map(|(i, r)| (renames.get(&r.name).unwrap_or(&r.name).as_str(), (i, &**r)))
        .collect();
    let mut out = Vec::new();
    for (index, rule) in (0u32..).zip(&new.program.rules) {
        let written = Written::of(rule, new_shower);
        let file = new.file(rule.span.file);
        let Some(&(was_index, was)) = old_by_name.get(rule.name.as_str()) else {
            let details = whole(&written, new.written_body(rule), |what, value| {
                Detail::Added { what, value }
            });
            out.push((file, item(rule, Status::Added, written.kind, details)));
            continue;
        };
        let status = if was.name == rule.name {
            Status::Changed
        } else {
            Status::Renamed
        };
        let moved = old_shower.keeping_dates_of(was);
        let old_written = Written::of(was, moved);
        let mut details = part_details(&old_written, &written);
        as_written(
            &mut details,
            old_body(old, moved, was),
            new.written_body(rule),
        );
        let behaviour_applies = !details.is_empty();
        details.extend(source_detail(&was.source, &rule.source));
        details.extend(doc_detail(&was.doc, &rule.doc));
        if was.reading != rule.reading {
            details.push(Detail::Changed {
                what: "reading".into(),
                old: was.reading.to_string(),
                new: rule.reading.to_string(),
            });
        }
        if behaviour_applies {
            details.extend(effect::answers(
                old.program,
                (was_index, was),
                new.program,
                (index, rule),
                days,
                budget,
            ));
        }
        if details.is_empty() && status == Status::Changed {
            continue;
        }
        let mut it = item(rule, status, written.kind, details);
        if status == Status::Renamed {
            it.old_name = Some(was.name.clone());
        }
        out.push((file, it));
    }
    let new_names: BTreeSet<&str> = new.program.rules.iter().map(|r| r.name.as_str()).collect();
    for rule in &old.program.rules {
        if renames.contains_key(&rule.name) || new_names.contains(rule.name.as_str()) {
            continue;
        }
        let moved = old_shower.keeping_dates_of(rule);
        let written = Written::of(rule, moved);
        let details = whole(&written, old_body(old, moved, rule), |what, value| {
            Detail::Removed { what, value }
        });
        out.push((
            old.file(rule.span.file),
            item(rule, Status::Removed, written.kind, details),
        ));
    }
    out
}

/// An old rule's body or value as written, its dates moved as `moved` (the old
/// edition's writer for that rule) moves them.
fn old_body(old: &Side, moved: Shower, rule: &Rule) -> Option<String> {
    old.written_body(rule).map(|t| moved.moved_text(&t))
}

/// A rule only one edition has, part by part: its type, then its body or value
/// as written (`text`, where there is one) or its rows.
fn whole(
    written: &Written,
    text: Option<String>,
    part: impl Fn(String, String) -> Detail,
) -> Vec<Detail> {
    // A const's type is its value's: `board`, not `() -> board`.
    let ty = written.signature.strip_prefix("() -> ");
    let mut out = vec![part(
        "type".into(),
        ty.unwrap_or(&written.signature).to_string(),
    )];
    for (what, value) in &written.parts {
        let value = match &text {
            Some(text) if what == "body" || what == "value" => text.clone(),
            _ => value.clone(),
        };
        out.push(part(what.clone(), value));
    }
    out
}

/// A function's changed body shown word by word as each edition writes it (the
/// old one's dates moved as the calendar moves them), not as it is compared
/// (`let`s numbered, arguments in order without their names). As compared
/// where the two are written alike, and for a const's value: one line, short,
/// whose form as compared shows what it evaluates to.
fn as_written(details: &mut [Detail], old_text: Option<String>, new_text: Option<String>) {
    let (Some(old_text), Some(new_text)) = (old_text, new_text) else {
        return;
    };
    if old_text == new_text {
        return;
    }
    for d in details {
        if matches!(d, Detail::Changed { what, .. } if what == "body") {
            *d = Detail::Words {
                what: "body".into(),
                words: words::diff(&old_text, &new_text),
            };
        }
    }
}

fn item(rule: &Rule, status: Status, kind: Kind, details: Vec<Detail>) -> Item {
    Item {
        kind,
        name: rule.name.clone(),
        old_name: None,
        status,
        source: rule.source.clone(),
        reading: rule.reading,
        details,
    }
}

/// Procedures: paragraphs compared word by word.
pub fn texts(old: &Side, new: &Side) -> Vec<(String, Item)> {
    let olds: BTreeMap<&str, &crate::ir::TextRule> = old
        .program
        .texts
        .iter()
        .map(|t| (t.name.as_str(), t))
        .collect();
    let mut out = Vec::new();
    for t in &new.program.texts {
        let file = new.file(t.span.file);
        let (status, details) = match olds.get(t.name.as_str()) {
            None => (Status::Added, Vec::new()),
            Some(was) => {
                let mut details = Vec::new();
                let n = was.paragraphs.len().max(t.paragraphs.len());
                for i in 0..n {
                    let what = format!("paragraph {}", i + 1);
                    match (was.paragraphs.get(i), t.paragraphs.get(i)) {
                        (Some(a), Some(b)) if a != b => details.push(Detail::Words {
                            what,
                            words: words::diff(a, b),
                        }),
                        (Some(a), None) => details.push(Detail::Removed {
                            what,
                            value: a.clone(),
                        }),
                        (None, Some(b)) => details.push(Detail::Added {
                            what,
                            value: b.clone(),
                        }),
                        _ => {}
                    }
                }
                details.extend(source_detail(&was.source, &t.source));
                if details.is_empty() {
                    continue;
                }
                (Status::Changed, details)
            }
        };
        out.push((file, text_item(&t.name, &t.source, status, details)));
    }
    let news: BTreeSet<&str> = new.program.texts.iter().map(|t| t.name.as_str()).collect();
    for t in &old.program.texts {
        if !news.contains(t.name.as_str()) {
            let it = text_item(&t.name, &t.source, Status::Removed, Vec::new());
            out.push((old.file(t.span.file), it));
        }
    }
    out
}

fn text_item(
    name: &str,
    source: &Option<SourceInfo>,
    status: Status,
    details: Vec<Detail>,
) -> Item {
    Item {
        kind: Kind::Procedure,
        name: name.to_string(),
        old_name: None,
        status,
        source: source.clone(),
        reading: false,
        details,
    }
}

/// A declaration of a type or unit, written as keyed parts.
struct TypeDecl<'a> {
    kind: Kind,
    name: &'a str,
    source: Option<SourceInfo>,
    file: String,
    parts: Vec<(String, String)>,
}

fn type_decls<'a>(side: &'a Side) -> Vec<TypeDecl<'a>> {
    let p = side.program;
    let mut out = Vec::new();
    for u in &p.units {
        let mut parts = vec![(
            "description".to_string(),
            u.description.clone().unwrap_or_default(),
        )];
        parts.push(("whole".into(), u.whole.to_string()));
        parts.push(("count".into(), u.count.to_string()));
        parts.push(("aliases".into(), u.aliases.join(", ")));
        out.push(TypeDecl {
            kind: Kind::Unit,
            name: &u.name,
            source: None,
            file: side.file(u.span.file),
            parts,
        });
    }
    for e in &p.enums {
        let parts = e
            .variants
            .iter()
            .zip(&e.labels)
            .map(|(v, l)| (format!("variant {v}"), l.clone().unwrap_or_default()))
            .collect();
        out.push(TypeDecl {
            kind: Kind::Enum,
            name: &e.name,
            source: e.source.clone(),
            file: side.file(e.span.file),
            parts,
        });
    }
    for r in &p.records {
        let parts = r
            .fields
            .iter()
            .map(|(f, t)| (format!("field {f}"), p.type_name(t)))
            .collect();
        out.push(TypeDecl {
            kind: Kind::Record,
            name: &r.name,
            source: r.source.clone(),
            file: side.file(r.span.file),
            parts,
        });
    }
    out
}

/// Units, enumerations and record types.
pub fn types(old: &Side, new: &Side) -> Vec<(String, Item)> {
    let olds = type_decls(old);
    let news = type_decls(new);
    // Each declaration by kind and name, the first of a name standing for it.
    fn by_name<'d>(list: &[TypeDecl<'d>]) -> BTreeMap<(Kind, &'d str), usize> {
        let mut map = BTreeMap::new();
        for (i, d) in list.iter().enumerate() {
            map.entry((d.kind, d.name)).or_insert(i);
        }
        map
    }
    let (old_at, new_at) = (by_name(&olds), by_name(&news));
    let find = |map: &BTreeMap<(Kind, &str), usize>, kind: Kind, name: &str| {
        map.get(&(kind, name)).copied()
    };
    let mut out = Vec::new();
    for d in &news {
        let (status, details) = match find(&old_at, d.kind, d.name) {
            None => (Status::Added, Vec::new()),
            Some(i) => {
                let was = &olds[i];
                let a = Written {
                    kind: was.kind,
                    signature: String::new(),
                    parts: was.parts.clone(),
                };
                let b = Written {
                    kind: d.kind,
                    signature: String::new(),
                    parts: d.parts.clone(),
                };
                let mut details = part_details(&a, &b);
                details.extend(source_detail(&was.source, &d.source));
                if details.is_empty() {
                    continue;
                }
                (Status::Changed, details)
            }
        };
        out.push((d.file.clone(), type_item(d, status, details)));
    }
    for d in &olds {
        if find(&new_at, d.kind, d.name).is_none() {
            out.push((d.file.clone(), type_item(d, Status::Removed, Vec::new())));
        }
    }
    out
}

fn type_item(d: &TypeDecl, status: Status, details: Vec<Detail>) -> Item {
    Item {
        kind: d.kind,
        name: d.name.to_string(),
        old_name: None,
        status,
        source: d.source.clone(),
        reading: false,
        details,
    }
}

/// Examples, by title: their assertions compared.
pub fn examples(
    old: &Side,
    new: &Side,
    days: i64,
    renames: &BTreeMap<String, String>,
) -> Vec<(String, Item)> {
    let old_shower = Shower::old(old.program, days, renames);
    let olds = written_examples(old, old_shower);
    let news = written_examples(new, Shower::new(new.program));
    // By title, the first of a title standing for it.
    let mut old_by_title: BTreeMap<&str, &WrittenExample<'_>> = BTreeMap::new();
    for example in &olds {
        old_by_title.entry(example.0.as_str()).or_insert(example);
    }
    let new_titles: BTreeSet<&str> = news.iter().map(|(t, ..)| t.as_str()).collect();
    let mut out = Vec::new();
    for (title, file, lines, ex) in &news {
        let found = old_by_title.get(title.as_str());
        let (status, details) = match found {
            None => {
                let shown = side_shown(new, Shower::new(new.program), ex, lines);
                let added = numbered(shown, |what, value| Detail::Added { what, value });
                (Status::Added, added)
            }
            Some((_, _, was, _)) if was == lines => continue,
            Some((_, _, was, was_ex)) => {
                let details = assertion_details(
                    (was, &side_shown(old, old_shower, was_ex, was)),
                    (lines, &side_shown(new, Shower::new(new.program), ex, lines)),
                );
                // Each assertion written as before, only what it reads changed
                // (a competition's figure): that change is listed where it is.
                if details.is_empty() {
                    continue;
                }
                (Status::Changed, details)
            }
        };
        out.push((file.clone(), example_item(ex, status, details)));
    }
    for (title, file, lines, ex) in &olds {
        if !new_titles.contains(title.as_str()) {
            let shown = side_shown(old, old_shower, ex, lines);
            let removed = numbered(shown, |what, value| Detail::Removed { what, value });
            out.push((file.clone(), example_item(ex, Status::Removed, removed)));
        }
    }
    out
}

/// An example added or removed whole: each assertion as `part` (added or
/// removed) of `assertion N`.
fn numbered(shown: Vec<String>, part: impl Fn(String, String) -> Detail) -> Vec<Detail> {
    shown
        .into_iter()
        .enumerate()
        .map(|(i, value)| part(format!("assertion {}", i + 1), value))
        .collect()
}

/// An example's assertions as written (the old side's dates moved as the
/// calendar moves them), each as compared where its text is not at hand.
fn side_shown(
    side: &Side,
    shower: Shower,
    ex: &crate::ir::Example,
    lines: &[String],
) -> Vec<String> {
    ex.assertions
        .iter()
        .zip(lines)
        .map(|(a, compared)| {
            side.written(a)
                .map_or_else(|| compared.clone(), |t| shower.moved_text(&t))
        })
        .collect()
}

/// (title, file, assertions as text, the example) of every example.
type WrittenExample<'a> = (String, String, Vec<String>, &'a crate::ir::Example);

fn written_examples<'a>(side: &Side<'a>, shower: Shower) -> Vec<WrittenExample<'a>> {
    side.program
        .examples
        .iter()
        .map(|ex| {
            let lines = ex.assertions.iter().map(|a| shower.expr(a, &[])).collect();
            (ex.title.clone(), side.file(ex.span.file), lines, ex)
        })
        .collect()
}

/// The assertions of an example changed, line by line (`similar`'s diff, so an
/// assertion put in before others is one added, not every later one changed):
/// numbered as in the new example, a removed one as in the old. Each side is
/// (its lines as compared, as shown).
fn assertion_details(old: (&[String], &[String]), new: (&[String], &[String])) -> Vec<Detail> {
    use similar::{DiffOp, capture_diff_slices};
    let ((old_compared, old), (new_compared, new)) = (old, new);
    let mut out = Vec::new();
    let number = |i: usize| format!("assertion {}", i + 1);
    for op in capture_diff_slices(similar::Algorithm::Myers, old_compared, new_compared) {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => out.extend((old_index..old_index + old_len).map(|i| Detail::Removed {
                what: number(i),
                value: old[i].clone(),
            })),
            DiffOp::Insert {
                new_index, new_len, ..
            } => out.extend((new_index..new_index + new_len).map(|i| Detail::Added {
                what: number(i),
                value: new[i].clone(),
            })),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                // Paired in order; what one side has more of is added or removed.
                for k in 0..old_len.max(new_len) {
                    let (o, n) = (old_index + k, new_index + k);
                    // Written the same: only what it reads changed.
                    if k < old_len && k < new_len && old[o] == new[n] {
                        continue;
                    }
                    out.push(match (k < old_len, k < new_len) {
                        (true, true) => Detail::Changed {
                            what: number(n),
                            old: old[o].clone(),
                            new: new[n].clone(),
                        },
                        (false, _) => Detail::Added {
                            what: number(n),
                            value: new[n].clone(),
                        },
                        (true, false) => Detail::Removed {
                            what: number(o),
                            value: old[o].clone(),
                        },
                    });
                }
            }
        }
    }
    out
}

fn example_item(ex: &crate::ir::Example, status: Status, details: Vec<Detail>) -> Item {
    Item {
        kind: Kind::Example,
        name: ex.title.clone(),
        old_name: None,
        status,
        source: ex.source.clone(),
        reading: false,
        details,
    }
}
