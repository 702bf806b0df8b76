//! `bfr diff`: what changed between two checked editions, and what the change
//! does to the answers.
//!
//! The comparison is of the checked IR, not of text: rules are matched by name
//! (or, for a rename, by inventory ID and body), their bodies written back as
//! text with every index replaced by the name it stands for ([`show`]), so
//! layout, comments and declaration order take no part. A new year's calendar
//! (every date moved by one offset) is found first ([`calendar`]) and said once;
//! the old edition's dates are then moved by it before rules are compared, so a
//! rule whose only change is the calendar is not listed. Changed scales and
//! functions of one parameter are evaluated in both editions ([`behaviour`]).
//! The result is plain data; `cli` turns it into text or JSON.

pub mod behaviour;
pub mod blocks;
pub mod calendar;
pub mod competition;
pub mod divergence;
pub mod effect;
pub mod product;
pub mod rules;
pub mod show;
pub mod words;

#[cfg(test)]
#[path = "budget_tests.rs"]
mod budget_tests;

use crate::ir::{Program, SourceInfo};
use crate::source::Sources;
use serde::Serialize;
use std::collections::BTreeMap;

/// One side of a comparison: a checked edition and where its files are.
pub struct Side<'a> {
    /// The checked program.
    pub program: &'a Program,
    /// Its texts (for the file each rule is declared in).
    pub sources: &'a Sources,
    /// The path it was loaded from, as given; file names are shown relative to it.
    pub root: String,
}

impl Side<'_> {
    /// The text an expression was written as, on one line: comments left out,
    /// each run of blanks one space. `None` where its span holds no text.
    fn written(&self, e: &crate::ir::Expr) -> Option<String> {
        let file = self.sources.get(e.span.file)?;
        let (start, end) = show::bracketed(&file.text, e.span.start as usize, e.span.end as usize);
        let text = show::one_line(file.text.get(start..end)?);
        if text.is_empty() {
            return None;
        }
        // A block's `let` is spanned from the name it binds (its diagnostics
        // point there), so its keyword is put back.
        Some(match e.kind {
            crate::ir::ExprKind::Let(..) => format!("let {text}"),
            _ => text,
        })
    }

    /// A const's value or a function's body as written ([`Side::written`]);
    /// `None` for a table or a scale (compared row by row).
    fn written_body(&self, rule: &crate::ir::Rule) -> Option<String> {
        match &rule.body {
            crate::ir::RuleBody::Const { value } => self.written(value),
            crate::ir::RuleBody::Fn { body } => self.written(body),
            _ => None,
        }
    }

    /// The file of a declaration, relative to the edition's root.
    fn file(&self, file: crate::source::FileId) -> String {
        let name = self.sources.name(file);
        // By path components: `rules/2015` is no prefix of `rules/2015-06-01/…`
        // (a base edition's file, when the edition amends another).
        std::path::Path::new(name)
            .strip_prefix(&self.root)
            .ok()
            .and_then(|p| p.to_str())
            .filter(|s| !s.is_empty())
            .or_else(|| {
                std::path::Path::new(name)
                    .file_name()
                    .and_then(|f| f.to_str())
            })
            .unwrap_or(name)
            .to_string()
    }
}

/// Everything that differs between two editions.
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    /// The old edition's name (its header), or its path.
    pub old: String,
    /// The new edition's.
    pub new: String,
    /// The calendar shift, when most dates moved by one offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calendar: Option<calendar::Shift>,
    /// Changes to the edition header.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub header: Vec<Detail>,
    /// Changes to the `entries` and `federation` blocks: the rule answering each
    /// question or called by each command, what plays each role.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Detail>,
    /// Changed items, by the file (chapter) of the new edition that declares them
    /// (the old edition's for removed items), in file order.
    pub files: Vec<FileChanges>,
    /// Competitions whose simulated events part (`--simulate N`; empty
    /// otherwise, and then left out of JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub simulated: Vec<divergence::Divergence>,
    /// Set when the diff's evaluations ran out of steps before every changed
    /// answer was compared (left out of JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<Unfinished>,
}

/// Answers left uncompared: the diff's evaluations passed their bound
/// ([`behaviour::MAX_DIFF_STEPS`]), and what depended on more was not worked out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unfinished {
    /// The bound, in evaluation steps.
    pub steps: u64,
    /// Changed rules whose answers were not all compared (each listed with
    /// [`Detail::Unfinished`]).
    pub changed: usize,
    /// Unchanged rules calling a changed rule whose answers were not all
    /// compared (listed only where a difference was found before).
    pub callers: usize,
}

impl Diff {
    /// Whether the editions differ at all.
    pub fn is_empty(&self) -> bool {
        self.calendar.is_none()
            && self.header.is_empty()
            && self.blocks.is_empty()
            && self.files.is_empty()
            && self.simulated.is_empty()
    }

    /// Counts per file: (file, added, removed, changed, renamed).
    pub fn stat(&self) -> Vec<Stat> {
        self.files
            .iter()
            .map(|f| {
                let count = |s: Status| f.items.iter().filter(|i| i.status == s).count();
                Stat {
                    file: f.file.clone(),
                    added: count(Status::Added),
                    removed: count(Status::Removed),
                    changed: count(Status::Changed),
                    renamed: count(Status::Renamed),
                }
            })
            .collect()
    }
}

/// How many items of a file changed, and how.
#[derive(Debug, Clone, Serialize)]
pub struct Stat {
    /// The file.
    pub file: String,
    /// Items added.
    pub added: usize,
    /// Items removed.
    pub removed: usize,
    /// Items changed.
    pub changed: usize,
    /// Items renamed (with or without other changes).
    pub renamed: usize,
}

/// The changed items of one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileChanges {
    /// The file, relative to the edition's root (`scoring.bfr`).
    pub file: String,
    /// Its changed items: the rules changed in themselves, in declaration
    /// order, then the unchanged rules whose answers change through them, then
    /// procedures' texts, types, examples and competitions.
    pub items: Vec<Item>,
}

/// What kind of declaration an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A const.
    Const,
    /// A function.
    Fn,
    /// A table keyed by an enum.
    Table,
    /// A scale.
    Scale,
    /// A procedure (text).
    Procedure,
    /// An enumeration.
    Enum,
    /// A record type.
    Record,
    /// A unit.
    Unit,
    /// An example.
    Example,
    /// A competition.
    Competition,
}

impl Kind {
    /// The keyword the language writes it with.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Const => "const",
            Kind::Fn => "fn",
            Kind::Table => "table",
            Kind::Scale => "scale",
            Kind::Procedure => "procedure",
            Kind::Enum => "enum",
            Kind::Record => "record",
            Kind::Unit => "unit",
            Kind::Example => "example",
            Kind::Competition => "competition",
        }
    }
}

/// Whether an item is new, gone, changed or renamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Only in the new edition.
    Added,
    /// Only in the old edition.
    Removed,
    /// In both, different.
    Changed,
    /// In both under different names, with the same inventory ID.
    Renamed,
}

/// One changed declaration.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// Its name (in the new edition, or the old one's if removed).
    pub name: String,
    /// Its old name, when renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    /// Added, removed, changed or renamed.
    pub status: Status,
    /// Its source reference (inventory ID, page, section).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceInfo>,
    /// Whether it is a reading (the edition's answer to an open question).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reading: bool,
    /// What changed in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Detail>,
}

/// One change inside an item.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "lowercase")]
pub enum Detail {
    /// A part with an old and a new value (`value`, `row Senior`, `boards`).
    Changed {
        /// Which part.
        what: String,
        /// As it was.
        old: String,
        /// As it is.
        new: String,
    },
    /// A part only the new edition has (a table or scale row, a stage, a route).
    Added {
        /// Which part.
        what: String,
        /// Its value.
        value: String,
    },
    /// A part only the old edition has.
    Removed {
        /// Which part.
        what: String,
        /// Its value.
        value: String,
    },
    /// Text changed word by word (a procedure's paragraph, a doc comment).
    Words {
        /// Which part.
        what: String,
        /// The words, each kept, removed or added.
        words: Vec<words::Word>,
    },
    /// The answers of an unchanged rule change because rules it calls changed.
    Through {
        /// The changed rules it calls, directly or not: the first
        /// [`product::MAX_LISTED`] by name.
        rules: Vec<String>,
        /// How many more it calls (not listed).
        #[serde(skip_serializing_if = "is_zero")]
        unlisted: usize,
    },
    /// Inputs for which the two editions answer differently.
    Answers {
        /// The inputs: a range (`over 10 min up to 15 min`) or a key.
        input: String,
        /// Where the answer varies inside the range (a row computed from the
        /// input), the input the answers shown were taken at.
        #[serde(skip_serializing_if = "Option::is_none")]
        sample: Option<String>,
        /// The old edition's answer (`no answer` where it has none).
        old: String,
        /// The new edition's.
        new: String,
    },
    /// More differing inputs than are listed (rules of several parameters).
    More {
        /// How many more.
        answers: usize,
    },
    /// The answers were not all compared: the diff's evaluations ran out of
    /// steps (see [`Unfinished`]); those listed before it stand.
    Unfinished,
}

/// Compares two checked editions, their answers within
/// [`behaviour::MAX_DIFF_STEPS`] evaluation steps.
pub fn diff(old: &Side, new: &Side) -> Diff {
    diff_within(old, new, behaviour::MAX_DIFF_STEPS)
}

/// [`diff`] with its answers worked out in at most `steps` evaluation steps.
pub fn diff_within(old: &Side, new: &Side, steps: u64) -> Diff {
    compare(old, new, &behaviour::Budget::new(steps))
}

/// [`diff`] with its answers worked out within `budget`.
fn compare(old: &Side, new: &Side, budget: &behaviour::Budget) -> Diff {
    let shift = calendar::find(old, new);
    let days = shift.as_ref().map_or(0, |s| s.days);
    let renames = rules::renames(old, new, days);
    let mut items: Vec<(String, Item)> = Vec::new();
    let changed_rules = rules::rules(old, new, days, &renames, budget);
    // Causes before effects: a changed rule is listed before the unchanged
    // rules whose answers change through it.
    let (changed_through, callers) = through(old, new, days, &renames, &changed_rules, budget);
    let changed = changed_rules
        .iter()
        .filter(|(_, i)| i.details.contains(&Detail::Unfinished))
        .count();
    let unfinished = (changed + callers > 0).then_some(Unfinished {
        steps: budget.total(),
        changed,
        callers,
    });
    items.extend(changed_rules);
    merge_through(&mut items, changed_through);
    items.extend(rules::texts(old, new));
    items.extend(rules::types(old, new));
    items.extend(rules::examples(old, new, days, &renames));
    items.extend(competition::competitions(old, new, days, &renames));
    let order = file_order(old, new);
    let mut by_file: BTreeMap<(usize, String), Vec<Item>> = BTreeMap::new();
    for (file, item) in items {
        let rank = order.get(&file).copied().unwrap_or(usize::MAX);
        by_file.entry((rank, file)).or_default().push(item);
    }
    Diff {
        old: edition_name(old),
        new: edition_name(new),
        header: calendar::header(old, new, days),
        blocks: blocks::blocks(old, new),
        calendar: shift,
        files: by_file
            .into_iter()
            .map(|((_, file), items)| FileChanges { file, items })
            .collect(),
        simulated: Vec::new(),
        unfinished,
    }
}

/// Unchanged rules whose answers change through the rules they call; how many
/// such rules' answers were not all compared, the budget spent.
fn through(
    old: &Side,
    new: &Side,
    days: i64,
    renames: &BTreeMap<String, String>,
    changed: &[(String, Item)],
    budget: &behaviour::Budget,
) -> (Vec<(String, Item)>, usize) {
    let body_changed: std::collections::BTreeSet<String> = changed
        .iter()
        .filter(|(_, i)| i.status != Status::Removed)
        .filter(|(_, i)| {
            i.status == Status::Added
                || i.details.iter().any(|d| match d {
                    Detail::Changed { what, .. } => what != "source" && what != "reading",
                    // A doc comment is words too, but changes no answer.
                    Detail::Words { what, .. } => what == "body",
                    Detail::Added { .. } | Detail::Removed { .. } => true,
                    _ => false,
                })
        })
        .map(|(_, i)| i.name.clone())
        .collect();
    let back: BTreeMap<&String, &String> = renames.iter().map(|(o, n)| (n, o)).collect();
    let old_name = |n: &str| {
        back.get(&n.to_string())
            .map_or_else(|| n.to_string(), |o| (*o).clone())
    };
    let (found, not_compared) = effect::through(
        old.program,
        new.program,
        &body_changed,
        &old_name,
        days,
        budget,
    );
    let items = found
        .into_iter()
        .filter_map(|(i, details)| {
            let rule = new.program.rules.get(i)?;
            let kind = match rule.body {
                crate::ir::RuleBody::Const { .. } => Kind::Const,
                crate::ir::RuleBody::Fn { .. } => Kind::Fn,
                crate::ir::RuleBody::Table { .. } => Kind::Table,
                crate::ir::RuleBody::Scale { .. } => Kind::Scale,
            };
            Some((
                new.file(rule.span.file),
                Item {
                    kind,
                    name: rule.name.clone(),
                    old_name: None,
                    status: Status::Changed,
                    source: rule.source.clone(),
                    reading: rule.reading,
                    details,
                },
            ))
        })
        .collect();
    (items, not_compared)
}

/// Adds the rules whose answers change through others to `items`: a rule
/// already listed for a change that moves no answer (its doc comment, its
/// source, a rename) takes them as more details of that one item, so that no
/// rule is listed twice, and moves among the effects, after its causes.
fn merge_through(items: &mut Vec<(String, Item)>, through: Vec<(String, Item)>) {
    for (file, item) in through {
        let listed = items
            .iter()
            .position(|(f, i)| *f == file && i.name == item.name && i.status != Status::Removed);
        match listed {
            Some(at) => {
                let (file, mut own) = items.remove(at);
                own.details.extend(item.details);
                items.push((file, own));
            }
            None => items.push((file, item)),
        }
    }
}

/// Files in the new edition's order, then files only the old one has.
fn file_order(old: &Side, new: &Side) -> BTreeMap<String, usize> {
    let mut order = BTreeMap::new();
    for side in [new, old] {
        for (id, _) in side.sources.iter() {
            let n = order.len();
            order.entry(side.file(id)).or_insert(n);
        }
    }
    order
}

fn edition_name(side: &Side) -> String {
    side.program
        .edition
        .as_ref()
        .map_or_else(|| side.root.clone(), |e| e.name.clone())
}

/// Whether a count is zero: such a count is left out of the JSON.
fn is_zero(n: &usize) -> bool {
    *n == 0
}
