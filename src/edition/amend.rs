//! Editions that amend editions: `amends "../2015"` in the header makes an
//! edition the base edition (a directory, relative to the header file's
//! directory) with the amending edition's declarations in place of the base's
//! of the same name, the base's declarations named by `remove` left out, and
//! the amending edition's header (its own name, source and dates; a field it
//! leaves out is the base's). The result is checked as one edition; every
//! declaration keeps the span of the file that wrote it, so diagnostics point
//! into the file that says the thing.

use super::{Input, io_error, parse_inputs, read_files};
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{Sources, Span};
use crate::syntax::ast::{self, Decl, TypeExpr};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// How many editions a chain of `amends` may hold below the edition loaded.
pub const MAX_DEPTH: usize = 8;

/// The amending edition's files resolved against its base (and the base's
/// base, …): one list of files to check as an edition, and the number of the
/// bases' files read. An edition that amends none is returned as it is.
///
/// Every base edition's directory read is added to `bases` (as the files' names
/// are written), so a cache of the edition can tell when a base changes.
pub(super) fn resolve(
    files: Vec<ast::File>,
    sources: &mut Sources,
    diags: &mut Diagnostics,
    bases: &mut Vec<PathBuf>,
) -> (Vec<ast::File>, usize) {
    let mut chain = Vec::new();
    if let Some((_, span)) = amends_of(&files) {
        let dir = header_dir(sources, span);
        if let Ok(c) = std::fs::canonicalize(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &dir
        }) {
            chain.push(c);
        }
    }
    resolve_at(files, sources, diags, &mut chain, bases)
}

fn resolve_at(
    files: Vec<ast::File>,
    sources: &mut Sources,
    diags: &mut Diagnostics,
    chain: &mut Vec<PathBuf>,
    bases: &mut Vec<PathBuf>,
) -> (Vec<ast::File>, usize) {
    let Some((base_name, span)) = amends_of(&files) else {
        return (files, 0);
    };
    let base = normalise(&header_dir(sources, span).join(&base_name));
    let Some(base_files) = read_base(&base, &base_name, span, diags, chain) else {
        // The base is missing: what the edition says of it cannot be applied.
        return (without_removes(files), 0);
    };
    let read = base_files.len();
    bases.push(base);
    let parsed = parse_inputs(base_files, sources, diags, None);
    let (resolved, deeper) = resolve_at(parsed, sources, diags, chain, bases);
    (merge(resolved, files, diags), read + deeper)
}

/// The base edition's files, read; `None` (with a diagnostic at `span`) when
/// there is none, the chain comes back to an edition already in it, or it is
/// too long.
fn read_base(
    base: &Path,
    written: &str,
    span: Span,
    diags: &mut Diagnostics,
    chain: &mut Vec<PathBuf>,
) -> Option<Vec<(String, Input)>> {
    let missing = |reason: String| {
        Diagnostic::error(
            "E1204",
            format!("the base edition `{written}` cannot be read: {reason}"),
            span,
        )
        .with_label("named here")
        .with_help("the path is relative to this file's directory and names an edition's directory")
    };
    let canonical = match std::fs::canonicalize(base) {
        Ok(c) => c,
        Err(e) => {
            diags.push(missing(io_error(base, &e).reason));
            return None;
        }
    };
    if let Some(at) = chain.iter().position(|c| *c == canonical) {
        let names: Vec<String> = chain[at..]
            .iter()
            .chain(std::iter::once(&canonical))
            .map(|c| short(c))
            .collect();
        diags.push(
            Diagnostic::error(
                "E1203",
                format!(
                    "editions amend each other in a circle: {}",
                    names.join(" amends ")
                ),
                span,
            )
            .with_label("this brings the chain back to an edition already in it")
            .with_help("one edition of the circle must be whole, not an amendment"),
        );
        return None;
    }
    if chain.len() > MAX_DEPTH {
        diags.push(
            Diagnostic::error(
                "E1205",
                format!(
                    "more than {MAX_DEPTH} editions amend one another below this one; bfr reads at most {MAX_DEPTH}"
                ),
                span,
            )
            .with_label("one edition too many")
            .with_help("write one of the editions of the chain out whole"),
        );
        return None;
    }
    chain.push(canonical);
    let paths = match super::edition_files(base) {
        Ok(p) => p,
        Err(e) => {
            diags.push(missing(e.reason));
            return None;
        }
    };
    if paths.is_empty() {
        diags.push(missing("it holds no `.bfr` files".into()));
        return None;
    }
    match read_files(&paths) {
        Ok(files) => Some(files),
        Err(e) => {
            diags.push(missing(format!("`{}`: {}", e.path.display(), e.reason)));
            None
        }
    }
}

/// The last two parts of a path, for a message (`rules/2015`).
fn short(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .rev()
        .take(2)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

/// The directory of the file holding the header at `span`.
fn header_dir(sources: &Sources, span: Span) -> PathBuf {
    Path::new(sources.name(span.file))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// `a/b/../c` as `a/c`, so the base's files are named as an editor would name
/// them (`rules/2015/scoring.bfr`).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = out.components().next_back();
                if matches!(last, Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The `amends` field of the files' header, if any.
fn amends_of(files: &[ast::File]) -> Option<(String, Span)> {
    files
        .iter()
        .flat_map(|f| &f.items)
        .find_map(|i| match &i.decl {
            Decl::Edition(e) => e.amends.clone(),
            _ => None,
        })
}

/// The names an edition's own `remove` lines leave out of its base, each with
/// where it is removed.
pub(super) fn removals(files: &[ast::File]) -> Vec<(String, Span)> {
    files
        .iter()
        .flat_map(|f| &f.items)
        .filter_map(|i| match &i.decl {
            Decl::Remove(r) => Some(&r.targets),
            _ => None,
        })
        .flatten()
        .filter(|t| !t.example)
        .map(|t| (t.name.clone(), t.span))
        .collect()
}

/// An unknown name (E0101) or type (E0103) that a `remove` left out of the
/// edition: the error stands in a file of the base that still uses the name,
/// which the editor did not touch, so a note points at the `remove` that
/// caused it, and the help says how to resolve it (not to declare the name).
pub(super) fn point_at_removals(
    diags: &mut Diagnostics,
    sources: &Sources,
    removed: &[(String, Span)],
) {
    if removed.is_empty() {
        return;
    }
    for d in diags
        .iter_mut()
        .filter(|d| d.code == "E0101" || d.code == "E0103")
    {
        let name = sources.slice(d.span);
        if let Some((_, at)) = removed.iter().find(|(n, _)| n == name) {
            d.notes
                .push((*at, "removed here by this edition".to_string()));
            d.help = Some(format!(
                "keep `{name}` (take it off the `remove` line), or give again the declarations that use it without it"
            ));
        }
    }
}

fn without_removes(mut files: Vec<ast::File>) -> Vec<ast::File> {
    for f in &mut files {
        f.items.retain(|i| !matches!(i.decl, Decl::Remove(_)));
    }
    files
}

/// How a declaration is matched with the base's: by name, or an example by its
/// title. Headers, notices and `remove` lines are not matched.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Name(String),
    Example(String),
}

fn key(decl: &Decl) -> Option<Key> {
    let name = |n: &ast::Name| Some(Key::Name(n.text.clone()));
    match decl {
        Decl::Unit(d) => name(&d.name),
        Decl::Enum(d) => name(&d.name),
        Decl::Record(d) => name(&d.name),
        Decl::Table(d) => name(&d.name),
        Decl::Scale(d) => name(&d.name),
        Decl::Fn(d) => name(&d.name),
        Decl::Const(d) => name(&d.name),
        Decl::Text(d) => name(&d.name),
        Decl::Competition(d) => name(&d.name),
        Decl::Example(d) => Some(Key::Example(d.title.clone())),
        // An `entries` or `federation` block is merged with the base's key by key
        // (`merge`): the amendment's answer to a question, its role or its
        // command's rule replaces the base's.
        Decl::Edition(_)
        | Decl::Notice(_)
        | Decl::Remove(_)
        | Decl::Entries(_)
        | Decl::Federation(_) => None,
    }
}

/// The word an editor writes a declaration with.
fn kind_word(decl: &Decl) -> &'static str {
    match decl {
        Decl::Unit(_) => "unit",
        Decl::Enum(_) => "enum",
        Decl::Record(_) => "record",
        Decl::Table(_) => "table",
        Decl::Scale(_) => "scale",
        Decl::Fn(_) => "fn",
        Decl::Const(c) if c.reading => "reading",
        Decl::Const(_) => "const",
        Decl::Text(_) => "procedure",
        Decl::Competition(_) => "competition",
        Decl::Example(_) => "example",
        Decl::Edition(_) => "edition",
        Decl::Notice(_) => "notice",
        Decl::Remove(_) => "remove",
        Decl::Entries(_) => "entries",
        Decl::Federation(_) => "federation",
    }
}

/// Where a declaration's name is written.
fn name_span(item: &ast::Item) -> Span {
    match &item.decl {
        Decl::Unit(d) => d.name.span,
        Decl::Enum(d) => d.name.span,
        Decl::Record(d) => d.name.span,
        Decl::Table(d) => d.name.span,
        Decl::Scale(d) => d.name.span,
        Decl::Fn(d) => d.name.span,
        Decl::Const(d) => d.name.span,
        Decl::Text(d) => d.name.span,
        Decl::Competition(d) => d.name.span,
        Decl::Example(d) => d.title_span,
        _ => item.span,
    }
}

/// A rule's type as written: its parameters' types and its result's.
fn signature(decl: &Decl) -> Option<String> {
    let params = |ps: &[ast::Param]| {
        ps.iter()
            .map(|p| show_type(&p.ty))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match decl {
        Decl::Const(c) => Some(show_type(&c.ty)),
        Decl::Fn(f) => Some(format!("({}) -> {}", params(&f.params), show_type(&f.ret))),
        Decl::Table(t) => Some(format!("({}) -> {}", params(&t.params), show_type(&t.ret))),
        Decl::Scale(s) => Some(format!("({}) -> {}", params(&s.params), show_type(&s.ret))),
        _ => None,
    }
}

fn show_type(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Named(u) => {
            let join = |ns: &[ast::Name]| {
                ns.iter()
                    .map(|n| n.text.as_str())
                    .collect::<Vec<_>>()
                    .join("*")
            };
            let mut s = join(&u.num);
            if !u.den.is_empty() {
                s.push('/');
                s.push_str(&join(&u.den));
            }
            s
        }
        TypeExpr::List(inner, _) => format!("[{}]", show_type(inner)),
    }
}

/// What `remove` names, in words.
fn target_words(t: &ast::RemoveTarget) -> String {
    if t.example {
        format!("example \"{}\"", t.name)
    } else {
        format!("`{}`", t.name)
    }
}

/// The base's files with the amendment applied: replaced and removed
/// declarations and the base's header left out, the amendment's files after.
fn merge(
    mut base: Vec<ast::File>,
    amendment: Vec<ast::File>,
    diags: &mut Diagnostics,
) -> Vec<ast::File> {
    let mut in_base: BTreeMap<Key, &ast::Item> = BTreeMap::new();
    let mut base_header: Option<ast::Edition> = None;
    for item in base.iter().flat_map(|f| &f.items) {
        if let Decl::Edition(e) = &item.decl {
            base_header.get_or_insert_with(|| (**e).clone());
        }
        if let Some(k) = key(&item.decl) {
            in_base.entry(k).or_insert(item);
        }
    }
    let mut dropped: Vec<Key> = Vec::new();
    for item in amendment.iter().flat_map(|f| &f.items) {
        match &item.decl {
            Decl::Remove(r) => {
                for t in &r.targets {
                    let k = if t.example {
                        Key::Example(t.name.clone())
                    } else {
                        Key::Name(t.name.clone())
                    };
                    if in_base.contains_key(&k) {
                        dropped.push(k);
                    } else {
                        diags.push(unknown_removal(t));
                    }
                }
            }
            decl => {
                let Some(k) = key(decl) else { continue };
                if let Some(old) = in_base.get(&k) {
                    compare(old, item, diags);
                    dropped.push(k);
                }
            }
        }
    }
    for f in &mut base {
        f.items.retain(|i| {
            !matches!(i.decl, Decl::Edition(_))
                && key(&i.decl).is_none_or(|k| !dropped.contains(&k))
        });
    }
    // The amendment's `entries` answers and roles, and its `federation` lines, in
    // place of the base's of the same key, so it can answer a question with another
    // rule, give a role other competitions or have a command call another rule (a
    // base's line given again would be given twice).
    let restated: Vec<(bool, &str)> = amendment
        .iter()
        .flat_map(|f| &f.items)
        .filter_map(|i| match &i.decl {
            Decl::Entries(e) => Some((true, e)),
            Decl::Federation(e) => Some((false, e)),
            _ => None,
        })
        .flat_map(|(entries, e)| {
            e.properties
                .iter()
                .map(move |p| (entries, p.key.text.as_str()))
        })
        .collect();
    for item in base.iter_mut().flat_map(|f| &mut f.items) {
        let (entries, e) = match &mut item.decl {
            Decl::Entries(e) => (true, e),
            Decl::Federation(e) => (false, e),
            _ => continue,
        };
        e.properties
            .retain(|p| !restated.contains(&(entries, p.key.text.as_str())));
    }
    let mut amendment = without_removes(amendment);
    for item in amendment.iter_mut().flat_map(|f| &mut f.items) {
        if let (Decl::Edition(e), Some(b)) = (&mut item.decl, &base_header) {
            inherit(e, b);
        }
    }
    base.extend(amendment);
    base
}

/// The amending header's fields, the base's where it has none.
fn inherit(e: &mut ast::Edition, base: &ast::Edition) {
    if e.source.is_none() {
        e.source.clone_from(&base.source);
    }
    if e.document.is_none() {
        e.document.clone_from(&base.document);
    }
    if e.updated.is_none() {
        e.updated.clone_from(&base.updated);
    }
    if e.period.is_none() {
        e.period.clone_from(&base.period);
    }
}

fn unknown_removal(t: &ast::RemoveTarget) -> Diagnostic {
    Diagnostic::error(
        "E1201",
        format!(
            "the base edition has no {} to remove",
            target_words(t)
        ),
        t.span,
    )
    .with_label("not in the base edition")
    .with_help("check the spelling against the base edition (`bfr list` shows its rules), or delete this line")
}

/// A declaration given again: the same kind and type as the base's (E1202),
/// and not the same declaration (W1201).
fn compare(old: &ast::Item, new: &ast::Item, diags: &mut Diagnostics) {
    let (ok, nk) = (kind_word(&old.decl), kind_word(&new.decl));
    let name = match key(&new.decl) {
        Some(Key::Name(n)) => format!("`{n}`"),
        Some(Key::Example(t)) => format!("example \"{t}\""),
        None => String::new(),
    };
    let same_kind = ok == nk || matches!((ok, nk), ("const", "reading") | ("reading", "const"));
    if !same_kind {
        diags.push(
            Diagnostic::error(
                "E1202",
                format!("{name} is a {ok} in the base edition; an amendment cannot make it a {nk}"),
                name_span(new),
            )
            .with_label(format!("a {nk} here"))
            .with_note(name_span(old), format!("the base edition's {ok}"))
            .with_help(format!(
                "give it another name, and `remove {}` if the {ok} is to go",
                name.trim_matches('`')
            )),
        );
        return;
    }
    if let (Some(a), Some(b)) = (signature(&old.decl), signature(&new.decl))
        && a != b
    {
        diags.push(
            Diagnostic::error(
                "E1202",
                format!("{name} has type {a} in the base edition; this amendment gives it type {b}"),
                name_span(new),
            )
            .with_label(format!("type {b} here"))
            .with_note(name_span(old), format!("type {a} in the base edition"))
            .with_help("an amendment changes values, not types: keep the base's type, or give the rule another name"),
        );
        return;
    }
    if old.decl == new.decl && old.doc == new.doc {
        diags.push(
            Diagnostic::warning(
                "W1201",
                format!("{name} is the same as in the base edition"),
                name_span(new),
            )
            .with_label("no change")
            .with_note(name_span(old), "the base edition's")
            .with_help("leave it out: an amending edition states only what changes"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_lexically() {
        assert_eq!(
            normalise(Path::new("rules/2015-first/../2015")),
            PathBuf::from("rules/2015")
        );
        assert_eq!(normalise(Path::new("../a/./b")), PathBuf::from("../a/b"));
        assert_eq!(normalise(Path::new("a/../../b")), PathBuf::from("../b"));
    }
}
