//! What the site shows, gathered once: the chapters (files) with their
//! declarations in the file's order, where each item's anchor is, which rules use
//! which, and the warnings each declaration has.

use crate::diag::Diagnostic;
use crate::diff::calendar::children;
use crate::document::Document;
use crate::ir::competition::{Count, Seating};
use crate::ir::{Competition, Expr, ExprKind, Program, RuleBody, SourceInfo};
use crate::source::{FileId, Sources, Span};
use crate::syntax::{self, ast};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The page of the document's texts, which source references link to.
pub const PAGES: &str = "document.html";

/// A declaration the site shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A unit, by index.
    Unit(u32),
    /// A const, reading, fn, table or scale, by index.
    Rule(u32),
    /// A procedure, by index.
    Text(u32),
    /// An enumeration, by index.
    Enum(u32),
    /// A record type, by index.
    Record(u32),
    /// An example, by index.
    Example(u32),
    /// A competition, by index.
    Competition(u32),
    /// An editors' notice: its text and source (the IR does not keep notices).
    Notice(String, Option<SourceInfo>),
}

/// Something that uses a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum User {
    /// A rule, by index.
    Rule(u32),
    /// An example, by index.
    Example(u32),
    /// A competition, by index.
    Competition(u32),
}

/// A declaration in its chapter.
#[derive(Debug)]
pub struct Placed<'a> {
    /// What it is.
    pub entry: Entry,
    /// The whole declaration.
    pub span: Span,
    /// The check's warnings that point into it.
    pub warnings: Vec<&'a Diagnostic>,
}

/// One file of the edition: a chapter of the document.
#[derive(Debug)]
pub struct Chapter<'a> {
    /// The file.
    pub file: FileId,
    /// Its path inside the edition.
    pub name: String,
    /// The file name of its page.
    pub page: String,
    /// The comment the file opens with: what part of the document it holds.
    pub about: String,
    /// Its declarations, in the file's order.
    pub entries: Vec<Placed<'a>>,
    /// Warnings in the file outside every declaration shown.
    pub loose: Vec<&'a Diagnostic>,
}

/// Where an item is: a page and an `id` on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// The page's file name.
    pub page: String,
    /// The element's `id`.
    pub id: String,
}

impl Anchor {
    /// The link to it from another page of the site.
    pub fn href(&self) -> String {
        format!("{}#{}", self.page, self.id)
    }
}

/// Everything the pages are made from.
pub struct Model<'a> {
    /// The checked edition.
    pub program: &'a Program,
    /// The texts read.
    pub sources: &'a Sources,
    /// The document data, when the edition names one.
    pub document: Option<Document>,
    /// The chapters, in path order.
    pub chapters: Vec<Chapter<'a>>,
    /// Warnings about no file of the edition.
    pub unplaced: Vec<&'a Diagnostic>,
    /// Where each declaration is.
    anchors: BTreeMap<AnchorKey, Anchor>,
    /// The rules each rule uses.
    pub uses: Vec<BTreeSet<u32>>,
    /// The rules each example uses.
    pub example_uses: Vec<BTreeSet<u32>>,
    /// Who uses each rule.
    pub used_by: Vec<BTreeSet<User>>,
}

/// The key of an anchor: an entry other than a notice, or a stage.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum AnchorKey {
    Unit(u32),
    Rule(u32),
    Text(u32),
    Enum(u32),
    Record(u32),
    Example(u32),
    Competition(u32),
}

impl<'a> Model<'a> {
    /// Gathers the site's contents; `root` is the edition's directory, from which
    /// chapter names are taken.
    pub fn build(
        program: &'a Program,
        sources: &'a Sources,
        diags: &'a crate::diag::Diagnostics,
        root: &Path,
    ) -> Model<'a> {
        let mut files = Vec::new();
        let mut chapters = Vec::new();
        let mut pages = BTreeSet::new();
        let declared = Declared::of(program);
        for (id, f) in sources.iter() {
            if !f.name.ends_with(".bfr") {
                continue;
            }
            // The edition checked, so every file parses; one that did not would
            // only lose its place on the site.
            let Ok(ast) = syntax::parse_file(&f.text, id) else {
                continue;
            };
            let name = short_name(&f.name, root);
            let page = page_name(&name, &mut pages);
            let entries = ast
                .items
                .iter()
                .filter_map(|item| {
                    declared.entry(id, item).map(|entry| Placed {
                        entry,
                        span: item.span,
                        warnings: Vec::new(),
                    })
                })
                .collect();
            chapters.push(Chapter {
                file: id,
                name,
                page,
                about: about(&f.text),
                entries,
                loose: Vec::new(),
            });
            files.push(ast);
        }
        let unplaced = place_warnings(&mut chapters, diags);
        let anchors = anchors(program, &chapters);
        let (uses, example_uses, used_by) = uses(program);
        Model {
            program,
            sources,
            document: crate::edition::document::of_edition(&files, sources),
            chapters,
            unplaced,
            anchors,
            uses,
            example_uses,
            used_by,
        }
    }

    fn anchor(&self, key: AnchorKey) -> Option<&Anchor> {
        self.anchors.get(&key)
    }

    /// Where rule `i` is.
    pub fn rule_anchor(&self, i: u32) -> Option<&Anchor> {
        self.anchor(AnchorKey::Rule(i))
    }

    /// Where what `entry` is (a notice has no anchor of its own here).
    pub fn entry_anchor(&self, entry: &Entry) -> Option<&Anchor> {
        match entry {
            Entry::Unit(i) => self.anchor(AnchorKey::Unit(*i)),
            Entry::Rule(i) => self.anchor(AnchorKey::Rule(*i)),
            Entry::Text(i) => self.anchor(AnchorKey::Text(*i)),
            Entry::Enum(i) => self.anchor(AnchorKey::Enum(*i)),
            Entry::Record(i) => self.anchor(AnchorKey::Record(*i)),
            Entry::Example(i) => self.anchor(AnchorKey::Example(*i)),
            Entry::Competition(i) => self.anchor(AnchorKey::Competition(*i)),
            Entry::Notice(..) => None,
        }
    }

    /// Where a user of a rule is.
    pub fn user_anchor(&self, user: User) -> Option<&Anchor> {
        match user {
            User::Rule(i) => self.anchor(AnchorKey::Rule(i)),
            User::Example(i) => self.anchor(AnchorKey::Example(i)),
            User::Competition(i) => self.anchor(AnchorKey::Competition(i)),
        }
    }

    /// Whether the document data holds the text of page `n`.
    pub fn has_page_text(&self, n: u32) -> bool {
        self.document.as_ref().is_some_and(|d| d.text(n).is_some())
    }
}

/// The `id` of an entry on its page.
pub fn anchor_id(program: &Program, entry: &Entry) -> Option<String> {
    let name = |kind: &str, n: Option<&str>| n.map(|n| format!("{kind}-{n}"));
    match entry {
        Entry::Unit(i) => name(
            "unit",
            program.units.get(*i as usize).map(|u| u.name.as_str()),
        ),
        Entry::Rule(i) => name(
            "rule",
            program.rules.get(*i as usize).map(|r| r.name.as_str()),
        ),
        Entry::Text(i) => name(
            "procedure",
            program.texts.get(*i as usize).map(|t| t.name.as_str()),
        ),
        Entry::Enum(i) => name(
            "enum",
            program.enums.get(*i as usize).map(|e| e.name.as_str()),
        ),
        Entry::Record(i) => name(
            "record",
            program.records.get(*i as usize).map(|r| r.name.as_str()),
        ),
        Entry::Example(i) => Some(format!("example-{}", i + 1)),
        Entry::Competition(i) => name(
            "competition",
            program
                .competitions
                .get(*i as usize)
                .map(|c| c.name.as_str()),
        ),
        Entry::Notice(..) => None,
    }
}

/// The `id` of a stage (the qualification too) of competition `c`.
pub fn stage_id(c: &Competition, stage: &str) -> String {
    format!("stage-{}-{stage}", c.name)
}

/// A file's name inside the edition (`chairmans_cup.bfr`); a file of another
/// edition (the base an edition amends) with its directory's name
/// (`2015/chairmans_cup.bfr`), so that it is told apart from the edition's own.
fn short_name(name: &str, root: &Path) -> String {
    let path = Path::new(name);
    match path.strip_prefix(root) {
        Ok(p) if !p.as_os_str().is_empty() => p.display().to_string(),
        // The edition is this one file.
        Ok(_) => path
            .file_name()
            .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned()),
        Err(_) => {
            let file = path.file_name().map(|f| f.to_string_lossy());
            let dir = path
                .parent()
                .and_then(Path::file_name)
                .map(|d| d.to_string_lossy());
            match (dir, file) {
                (Some(dir), Some(file)) => format!("{dir}/{file}"),
                (None, Some(file)) => file.into_owned(),
                _ => name.to_string(),
            }
        }
    }
}

/// The most bytes of a file's path a page's name keeps: file systems take
/// names of 255 bytes, and the name gains `-N.html`.
const MAX_PAGE_STEM: usize = 200;

/// A chapter's page: its path with `/` as `.`, never the index's or the page
/// texts' name, never one already taken; a long path cut to [`MAX_PAGE_STEM`]
/// bytes (a deep directory would otherwise make a name no file system takes).
fn page_name(name: &str, taken: &mut BTreeSet<String>) -> String {
    // A character a page escapes (a control, one that reorders text) would make
    // the link differ from the file's name: it is written as `_` in both.
    let mut stem: String = name
        .strip_suffix(".bfr")
        .unwrap_or(name)
        .replace(['/', '\\'], ".")
        .chars()
        .map(|c| {
            let escaped = c.is_control() || crate::source::direction_control(c).is_some();
            if escaped { '_' } else { c }
        })
        .collect();
    let mut cut = stem.len().min(MAX_PAGE_STEM);
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    stem.truncate(cut);
    // Names are compared without case: on a file system that ignores case
    // (macOS's, Windows'), `SCORING.html` and `scoring.html` are one file.
    let mut page = format!("{stem}.html");
    let lower = page.to_lowercase();
    if lower == "index.html" || lower == PAGES {
        stem = format!("chapter-{stem}");
        page = format!("{stem}.html");
    }
    let mut n = 2;
    while taken.contains(&page.to_lowercase()) {
        page = format!("{stem}-{n}.html");
        n += 1;
    }
    taken.insert(page.to_lowercase());
    page
}

/// The comment a file opens with, as one paragraph.
fn about(text: &str) -> String {
    let lines: Vec<&str> = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with("//") && !l.starts_with("///"))
        .map(|l| l.trim_start_matches('/').trim())
        .collect();
    lines.join(" ").trim().to_string()
}

/// The IR's declarations by name, and its examples by place: each found once,
/// for every item of every file (a name looked for among all declarations per
/// item was quadratic in the edition's size).
struct Declared<'p> {
    program: &'p Program,
    texts: BTreeMap<&'p str, u32>,
    enums: BTreeMap<&'p str, u32>,
    records: BTreeMap<&'p str, u32>,
    competitions: BTreeMap<&'p str, u32>,
    units: BTreeMap<&'p str, u32>,
    /// (file, offset where it starts) → the example.
    examples: BTreeMap<(FileId, u32), u32>,
}

impl<'p> Declared<'p> {
    fn of(program: &'p Program) -> Self {
        // The first of a name stands for it, as a search from the start found it.
        fn by_name<'n>(names: impl Iterator<Item = &'n str>) -> BTreeMap<&'n str, u32> {
            let mut map = BTreeMap::new();
            for (i, name) in names.enumerate() {
                if let Ok(i) = u32::try_from(i) {
                    map.entry(name).or_insert(i);
                }
            }
            map
        }
        let mut examples = BTreeMap::new();
        for (i, e) in program.examples.iter().enumerate() {
            if let Ok(i) = u32::try_from(i) {
                examples.entry((e.span.file, e.span.start)).or_insert(i);
            }
        }
        Declared {
            program,
            texts: by_name(program.texts.iter().map(|t| t.name.as_str())),
            enums: by_name(program.enums.iter().map(|e| e.name.as_str())),
            records: by_name(program.records.iter().map(|r| r.name.as_str())),
            competitions: by_name(program.competitions.iter().map(|c| c.name.as_str())),
            units: by_name(program.units.iter().map(|u| u.name.as_str())),
            examples,
        }
    }

    /// The IR entry an AST item of `file` became.
    fn entry(&self, file: FileId, item: &ast::Item) -> Option<Entry> {
        let rule = |n: &ast::Name| self.program.rule(&n.text).map(|(i, _)| Entry::Rule(i));
        let named = |map: &BTreeMap<&str, u32>, n: &ast::Name| map.get(n.text.as_str()).copied();
        match &item.decl {
            ast::Decl::Fn(d) => rule(&d.name),
            ast::Decl::Const(d) => rule(&d.name),
            ast::Decl::Table(d) => rule(&d.name),
            ast::Decl::Scale(d) => rule(&d.name),
            ast::Decl::Text(d) => named(&self.texts, &d.name).map(Entry::Text),
            ast::Decl::Enum(d) => named(&self.enums, &d.name).map(Entry::Enum),
            ast::Decl::Record(d) => named(&self.records, &d.name).map(Entry::Record),
            ast::Decl::Competition(d) => named(&self.competitions, &d.name).map(Entry::Competition),
            ast::Decl::Example(_) => self
                .examples
                // `range` refuses an end before its start: none is ever given.
                .range((file, item.span.start)..(file, item.span.end.max(item.span.start)))
                .next()
                .map(|(_, i)| Entry::Example(*i)),
            ast::Decl::Notice(n) => Some(Entry::Notice(
                n.text.clone(),
                n.source.as_ref().map(|s| SourceInfo {
                    id: s.id.as_str().into(),
                    pages: s.pages.as_deref().map(Into::into),
                    section: s.section.as_deref().map(Into::into),
                }),
            )),
            ast::Decl::Unit(d) => named(&self.units, &d.name).map(Entry::Unit),
            ast::Decl::Edition(_)
            | ast::Decl::Entries(_)
            | ast::Decl::Federation(_)
            | ast::Decl::Remove(_) => None,
        }
    }
}

/// Puts each warning on the declaration it points into, or on its chapter, and
/// returns those about no chapter.
fn place_warnings<'a>(
    chapters: &mut [Chapter<'a>],
    diags: &'a crate::diag::Diagnostics,
) -> Vec<&'a Diagnostic> {
    let mut unplaced = Vec::new();
    let chapter_of: BTreeMap<FileId, usize> = chapters
        .iter()
        .enumerate()
        .map(|(i, c)| (c.file, i))
        .collect();
    for d in diags.sorted() {
        if d.is_error() {
            continue;
        }
        let Some(chapter) = chapter_of
            .get(&d.span.file)
            .and_then(|i| chapters.get_mut(*i))
        else {
            unplaced.push(d);
            continue;
        };
        // The declarations follow one another: the last that starts at or
        // before the place is the only one that may hold it.
        let at = d.span.start;
        let before = chapter.entries.partition_point(|e| e.span.start <= at);
        match before
            .checked_sub(1)
            .and_then(|i| chapter.entries.get_mut(i))
            .filter(|e| at < e.span.end.max(e.span.start + 1))
        {
            Some(e) => e.warnings.push(d),
            None => chapter.loose.push(d),
        }
    }
    unplaced
}

fn anchors(program: &Program, chapters: &[Chapter]) -> BTreeMap<AnchorKey, Anchor> {
    let mut out = BTreeMap::new();
    for c in chapters {
        for p in &c.entries {
            let key = match &p.entry {
                Entry::Unit(i) => AnchorKey::Unit(*i),
                Entry::Rule(i) => AnchorKey::Rule(*i),
                Entry::Text(i) => AnchorKey::Text(*i),
                Entry::Enum(i) => AnchorKey::Enum(*i),
                Entry::Record(i) => AnchorKey::Record(*i),
                Entry::Example(i) => AnchorKey::Example(*i),
                Entry::Competition(i) => AnchorKey::Competition(*i),
                Entry::Notice(..) => continue,
            };
            if let Some(id) = anchor_id(program, &p.entry) {
                out.insert(
                    key,
                    Anchor {
                        page: c.page.clone(),
                        id,
                    },
                );
            }
        }
    }
    out
}

/// The rules an expression calls or names.
fn called(e: &Expr, out: &mut BTreeSet<u32>) {
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        if let ExprKind::Call(i, _) | ExprKind::RuleRef(i) = &e.kind {
            out.insert(*i);
        }
        for child in children(e) {
            called(child, out);
        }
    });
}

/// The rules a competition calls: counts of the field, scales, trophy points,
/// seating and seating rights.
fn competition_uses(c: &Competition) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let mut count = |n: &Count| {
        if let Count::OfField(i) = n {
            out.insert(*i);
        }
    };
    if let Some(q) = &c.qualification {
        count(&q.boards);
        if let Some(r) = &q.rounds {
            count(r);
        }
    }
    for s in &c.stages {
        count(&s.boards);
    }
    for s in &c.stages {
        if let Some(Seating::ByBoards(r)) = &s.seating {
            out.insert(r.rule);
        }
    }
    if let Some(q) = &c.qualification {
        out.extend(q.vp_scale);
    }
    out.extend(c.trophy_points);
    out.extend(c.imp_scale);
    if let Some(s) = &c.segment_rights {
        out.insert(s.rights.rule);
        out.extend(s.picks_valid);
    }
    out
}

type Uses = (Vec<BTreeSet<u32>>, Vec<BTreeSet<u32>>, Vec<BTreeSet<User>>);

/// Which rules each rule and example uses, and who uses each rule.
fn uses(program: &Program) -> Uses {
    let mut rule_uses = Vec::with_capacity(program.rules.len());
    for r in &program.rules {
        let mut set = BTreeSet::new();
        match &r.body {
            RuleBody::Const { value } => called(value, &mut set),
            RuleBody::Fn { body } => called(body, &mut set),
            RuleBody::Table { rows } => rows.iter().for_each(|x| called(x, &mut set)),
            RuleBody::Scale { arms } => arms.iter().for_each(|a| called(&a.value, &mut set)),
        }
        rule_uses.push(set);
    }
    let example_uses: Vec<BTreeSet<u32>> = program
        .examples
        .iter()
        .map(|ex| {
            let mut set = BTreeSet::new();
            ex.assertions.iter().for_each(|a| called(a, &mut set));
            set
        })
        .collect();
    let mut used_by = vec![BTreeSet::new(); program.rules.len()];
    let index = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let mut add = |rule: u32, user: User| {
        if let Some(set) = used_by.get_mut(rule as usize) {
            set.insert(user);
        }
    };
    for (i, set) in rule_uses.iter().enumerate() {
        set.iter().for_each(|r| add(*r, User::Rule(index(i))));
    }
    for (i, set) in example_uses.iter().enumerate() {
        set.iter().for_each(|r| add(*r, User::Example(index(i))));
    }
    for (i, c) in program.competitions.iter().enumerate() {
        competition_uses(c)
            .iter()
            .for_each(|r| add(*r, User::Competition(index(i))));
    }
    (rule_uses, example_uses, used_by)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_pages_never_take_the_index_or_each_others_names() {
        let mut taken = BTreeSet::new();
        assert_eq!(page_name("scoring.bfr", &mut taken), "scoring.html");
        assert_eq!(page_name("index.bfr", &mut taken), "chapter-index.html");
        assert_eq!(page_name("a/b.bfr", &mut taken), "a.b.html");
        assert_eq!(page_name("a.b.bfr", &mut taken), "a.b-2.html");
    }

    #[test]
    fn page_names_differing_only_in_case_are_two_files_everywhere() {
        let mut taken = BTreeSet::new();
        assert_eq!(page_name("scoring.bfr", &mut taken), "scoring.html");
        assert_eq!(page_name("SCORING.bfr", &mut taken), "SCORING-2.html");
        assert_eq!(page_name("Index.bfr", &mut taken), "chapter-Index.html");
        assert_eq!(page_name("index.bfr", &mut taken), "chapter-index-2.html");
    }

    #[test]
    fn a_long_path_makes_a_page_name_a_file_system_takes() {
        let mut taken = BTreeSet::new();
        let deep = format!("{}/{}.bfr", "a".repeat(150), "b".repeat(100));
        let first = page_name(&deep, &mut taken);
        assert_eq!(first.len(), MAX_PAGE_STEM + ".html".len());
        assert!(
            first.starts_with("aa") && first.contains("a.bbb") && first.ends_with("bbb.html"),
            "{first}"
        );
        // Another path cut to the same name gets a name of its own.
        let other = format!("{}/{}c.bfr", "a".repeat(150), "b".repeat(100));
        let second = page_name(&other, &mut taken);
        assert_eq!(second, first.replace(".html", "-2.html"));
        assert!(second.len() < 255);
        // A cut inside a letter of two bytes keeps the letter whole.
        let letters = page_name(&format!("{}.bfr", "ö".repeat(150)), &mut taken);
        assert_eq!(letters, format!("{}.html", "ö".repeat(MAX_PAGE_STEM / 2)));
    }

    #[test]
    fn a_page_is_named_as_its_link_is_written() {
        // The page's text escapes these characters, so its name holds none.
        let mut taken = BTreeSet::new();
        let name = page_name("fees\u{202e}cc\u{1b}.bfr", &mut taken);
        assert_eq!(name, "fees_cc_.html");
        assert_eq!(crate::source::printable_page(&name), name);
    }

    #[test]
    fn a_files_opening_comment_is_its_about_text_and_doc_comments_are_not() {
        assert_eq!(about("// One.\n// Two.\n\n// Three."), "One. Two.");
        assert_eq!(about("/// A rule's doc.\nconst x: number = 1"), "");
    }
}
