//! `bfr list`: what an edition holds — its files, its rules (with kind, type and
//! source), its procedures, and its competitions with their stages — so that an
//! editor finds a rule by its inventory ID without reading every file.

use super::commands::load_cached;
use super::output::{Output, counted};
use super::output::{json_line, stdout};
use super::{EXIT_IO, EXIT_OK, Format};
use crate::ir::competition::{Count, Stage, Target};
use crate::ir::{Competition, Program, RuleBody, SourceInfo};
use crate::source::Sources;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One file of the edition.
#[derive(Debug, Serialize)]
struct FileEntry {
    file: String,
    /// The file's first comment line: what chapter of the document it holds.
    about: String,
    rules: usize,
}

/// One rule: a const, reading, fn, table or scale, or a procedure.
#[derive(Debug, Serialize)]
struct RuleEntry {
    name: String,
    kind: &'static str,
    #[serde(rename = "type")]
    ty: String,
    #[serde(flatten)]
    source: Source,
    #[serde(skip_serializing_if = "String::is_empty")]
    file: String,
}

/// A source reference, flattened into its entry.
#[derive(Debug, Default, Serialize)]
struct Source {
    id: Option<String>,
    pages: Option<String>,
    section: Option<String>,
}

impl Source {
    fn of(s: Option<&SourceInfo>) -> Source {
        s.map_or_else(Source::default, |s| Source {
            id: Some(s.id.to_string()),
            pages: s.pages.as_deref().map(String::from),
            section: s.section.as_deref().map(String::from),
        })
    }

    fn text(&self) -> String {
        let mut out = self.id.clone().unwrap_or_else(|| "-".into());
        if let Some(p) = &self.pages {
            out.push_str(&format!(" p.{p}"));
        }
        out
    }
}

/// One stage (the qualification too).
#[derive(Debug, Serialize)]
struct StageEntry {
    name: String,
    title: String,
    kind: &'static str,
    order: Option<u32>,
    boards: String,
    day: Option<String>,
    part: Option<String>,
    winners: Option<String>,
    losers: Option<String>,
    #[serde(flatten)]
    source: Source,
}

#[derive(Debug, Serialize)]
struct CompetitionEntry {
    name: String,
    title: String,
    #[serde(flatten)]
    source: Source,
    stages: Vec<StageEntry>,
}

#[derive(Debug, Serialize)]
struct Listing {
    edition: Option<String>,
    files: Vec<FileEntry>,
    rules: Vec<RuleEntry>,
    competitions: Vec<CompetitionEntry>,
}

/// `bfr list`
pub fn list(out: &Output, path: &Path) -> u8 {
    let loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = &loaded.checked else {
        return EXIT_IO;
    };
    let listing = listing(&checked.program, &loaded.sources, path);
    match out.format {
        Format::Json => json_line(&serde_json::to_value(&listing).unwrap_or_default()),
        Format::Text => stdout(&text(&listing)),
    }
    EXIT_OK
}

fn listing(program: &Program, sources: &Sources, root: &Path) -> Listing {
    let short = |name: &str| {
        Path::new(name)
            .strip_prefix(root)
            .map_or(name.to_string(), |p| p.display().to_string())
    };
    let mut rules = Vec::new();
    let mut per_file: BTreeMap<String, usize> = BTreeMap::new();
    for r in &program.rules {
        let (kind, ty) = match &r.body {
            RuleBody::Const { .. } => (
                if r.reading { "reading" } else { "const" },
                program.answer_type_name(r),
            ),
            body => {
                let kind = match body {
                    RuleBody::Table { .. } => "table",
                    RuleBody::Scale { .. } => "scale",
                    _ => "fn",
                };
                (kind, program.signature(r))
            }
        };
        let file = short(sources.name(r.span.file));
        *per_file.entry(file.clone()).or_default() += 1;
        rules.push(RuleEntry {
            name: r.name.clone(),
            kind,
            ty,
            source: Source::of(r.source.as_ref()),
            file,
        });
    }
    for t in &program.texts {
        rules.push(RuleEntry {
            name: t.name.clone(),
            kind: "procedure",
            ty: "text".into(),
            source: Source::of(t.source.as_ref()),
            file: String::new(),
        });
    }
    let files = sources
        .iter()
        .filter(|(_, f)| f.name.ends_with(".bfr"))
        .map(|(_, f)| {
            let file = short(&f.name);
            FileEntry {
                rules: per_file.get(&file).copied().unwrap_or(0),
                about: about(&f.text),
                file,
            }
        })
        .collect();
    Listing {
        edition: program.edition.as_ref().map(|e| e.name.clone()),
        files,
        rules,
        competitions: program
            .competitions
            .iter()
            .map(|c| competition(program, c))
            .collect(),
    }
}

/// The first comment line of a file, without its slashes.
fn about(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("//"))
        .map(|l| l.trim_start_matches('/').trim().to_string())
        .unwrap_or_default()
}

fn competition(program: &Program, c: &Competition) -> CompetitionEntry {
    let mut stages = Vec::new();
    if let Some(q) = &c.qualification {
        stages.push(StageEntry {
            name: q.name.clone(),
            title: q.title.clone(),
            kind: "qualification",
            order: None,
            boards: count(program, &q.boards),
            day: q.schedule.day.map(|d| d.to_string()),
            part: None,
            winners: None,
            losers: None,
            source: Source::of(q.source.as_ref()),
        });
    }
    stages.extend(c.stages.iter().map(|s| stage(program, c, s)));
    CompetitionEntry {
        name: c.name.clone(),
        title: c.title.clone(),
        source: Source::of(c.source.as_ref()),
        stages,
    }
}

fn stage(program: &Program, c: &Competition, s: &Stage) -> StageEntry {
    let target = |t: &Target| match t {
        Target::Stage(i) => c
            .stages
            .get(*i)
            .map_or_else(|| "?".into(), |s| s.name.clone()),
        Target::Out => "out".into(),
        Target::Place(a, b) if a == b => format!("place {a}"),
        Target::Place(a, b) => format!("places {a}..{b}"),
    };
    StageEntry {
        name: s.name.clone(),
        title: s.title.clone(),
        kind: "stage",
        order: Some(s.order),
        boards: count(program, &s.boards),
        day: s.schedule.day.map(|d| d.to_string()),
        part: s.schedule.part.as_ref().map(|v| v.show(program)),
        winners: Some(target(&s.winners)),
        losers: Some(target(&s.losers)),
        source: Source::of(s.source.as_ref()),
    }
}

/// `32`, or the rule that gives the count for the field size.
fn count(program: &Program, c: &Count) -> String {
    match c {
        Count::Fixed(n) => n.to_string(),
        Count::OfField(i) => program
            .rules
            .get(*i as usize)
            .map_or_else(|| "?".into(), |r| format!("{}(teams)", r.name)),
    }
}

/// Columns padded to their widest cell, two spaces apart.
fn table(rows: &[Vec<String>]) -> String {
    super::table::render(rows, "  ", "  ")
}

/// name, kind, source, section, type: the type last, as it can be long.
fn rule_rows<'a>(rules: impl Iterator<Item = &'a RuleEntry>) -> Vec<Vec<String>> {
    rules
        .map(|r| {
            let section = r
                .source
                .section
                .as_ref()
                .map_or(String::new(), |s| format!("\"{s}\""));
            let ty = if r.kind == "procedure" {
                String::new()
            } else {
                r.ty.clone()
            };
            vec![r.name.clone(), r.kind.into(), r.source.text(), section, ty]
        })
        .collect()
}

fn text(l: &Listing) -> String {
    let procedures = l.rules.iter().filter(|r| r.kind == "procedure").count();
    let mut out = format!(
        "{}: {}, {}, {}, {}\n\nfiles\n",
        l.edition.as_deref().unwrap_or("edition"),
        counted(l.files.len(), "file"),
        counted(l.rules.len() - procedures, "rule"),
        counted(procedures, "procedure"),
        counted(l.competitions.len(), "competition")
    );
    let files: Vec<Vec<String>> = l
        .files
        .iter()
        .map(|f| vec![f.file.clone(), counted(f.rules, "rule"), f.about.clone()])
        .collect();
    out.push_str(&table(&files));
    // Rules under their file, in the file's order; procedures after them.
    for f in &l.files {
        let rows = rule_rows(
            l.rules
                .iter()
                .filter(|r| r.file == f.file && r.kind != "procedure"),
        );
        if !rows.is_empty() {
            out.push_str(&format!("\nrules in {}\n", f.file));
            out.push_str(&table(&rows));
        }
    }
    let rows = rule_rows(l.rules.iter().filter(|r| r.kind == "procedure"));
    if !rows.is_empty() {
        out.push_str("\nprocedures\n");
        out.push_str(&table(&rows));
    }
    for c in &l.competitions {
        out.push_str(&format!(
            "\ncompetition {} \"{}\"  {}\n",
            c.name,
            c.title,
            c.source.text()
        ));
        let stages: Vec<Vec<String>> = c
            .stages
            .iter()
            .map(|s| {
                let routes = match (&s.winners, &s.losers) {
                    (Some(w), Some(l)) => format!("winners -> {w}, losers -> {l}"),
                    _ => String::new(),
                };
                vec![
                    s.order.map_or("-".into(), |o| o.to_string()),
                    s.kind.into(),
                    s.name.clone(),
                    format!("\"{}\"", s.title),
                    counted(&s.boards, "board"),
                    [s.day.clone(), s.part.clone()]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(" "),
                    routes,
                    s.source.text(),
                ]
            })
            .collect();
        out.push_str(&table(&stages));
    }
    out
}
