//! Loading an edition: a directory of `.bfr` files (or one file) from disk,
//! parsed and checked. The front of the pipeline, shared by the CLI, the tests
//! and the benchmarks.

use crate::check::{self, Checked};
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{Refusal, Sources, Span, read_bounded};
use crate::syntax::MAX_FILE_BYTES;
use crate::syntax::{self, ast};
use std::path::{Path, PathBuf};

mod amend;
pub mod cache;
pub mod document;
pub use amend::MAX_DEPTH as MAX_AMENDS_DEPTH;

/// A file that could not be read or written. Always names the file as the user
/// gave it.
#[derive(Debug, Clone)]
pub struct IoError {
    /// The path.
    pub path: PathBuf,
    /// Whether it was being read or written.
    pub access: Access,
    /// What went wrong, in words.
    pub reason: String,
}

/// What was being done to a file when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reading it.
    Read,
    /// Writing it.
    Write,
}

impl IoError {
    /// `path` could not be read, for `reason`.
    pub fn reading(path: &Path, reason: impl Into<String>) -> Self {
        Self::new(path, Access::Read, reason)
    }

    /// `path` could not be written, for `reason`.
    pub fn writing(path: &Path, reason: impl Into<String>) -> Self {
        Self::new(path, Access::Write, reason)
    }

    fn new(path: &Path, access: Access, reason: impl Into<String>) -> Self {
        IoError {
            path: path.to_path_buf(),
            access,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verb = match self.access {
            Access::Read => "read",
            Access::Write => "write",
        };
        write!(
            f,
            "cannot {verb} `{}`: {}",
            crate::source::printable_name(&self.path.display().to_string()),
            self.reason
        )
    }
}

/// A loaded and checked edition.
#[derive(Debug)]
pub struct Loaded {
    /// Every text read.
    pub sources: Sources,
    /// The number of `.bfr` files.
    pub files: usize,
    /// The checked edition, if it had no errors.
    pub checked: Option<Checked>,
    /// Everything found.
    pub diagnostics: Diagnostics,
}

/// The most `.bfr` files one edition has.
pub const MAX_EDITION_FILES: usize = 10_000;

/// The most entries (files and directories) looked at below an edition's
/// directory to find its files: a directory named by mistake (a home
/// directory, a file opened in the editor from one) is refused in bounded
/// time, not walked to its end.
pub const MAX_WALKED: usize = 100_000;

/// The `.bfr` files of an edition: the file itself, or every `.bfr` file below a
/// directory, sorted by path so every run reads them in the same order. Links
/// are not followed into directories, so the walk ends; past
/// [`MAX_WALKED`] entries or [`MAX_EDITION_FILES`] files it stops, an error.
pub fn edition_files(path: &Path) -> Result<Vec<PathBuf>, IoError> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    if !meta.is_dir() {
        // A file, or something that is not one (a named pipe): reading it is
        // where a pipe or a device is refused, with a diagnostic.
        return Ok(vec![path.to_path_buf()]);
    }
    walk(path, MAX_WALKED, MAX_EDITION_FILES)
}

/// The `.bfr` files below directory `path`, sorted, looking at no more than
/// `max_walked` entries and finding no more than `max_files`.
fn walk(path: &Path, max_walked: usize, max_files: usize) -> Result<Vec<PathBuf>, IoError> {
    let mut out = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    let mut walked = 0usize;
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| io_error(&dir, &e))?;
        for entry in entries {
            walked += 1;
            if walked > max_walked {
                return Err(IoError::reading(
                    path,
                    format!(
                        "more than {max_walked} files and directories below it; \
                         name the directory that holds the edition's `.bfr` files"
                    ),
                ));
            }
            let entry = entry.map_err(|e| io_error(&dir, &e))?;
            let p = entry.path();
            let ft = entry.file_type().map_err(|e| io_error(&p, &e))?;
            if ft.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "bfr") {
                out.push(p);
            }
        }
        if out.len() > max_files {
            return Err(IoError::reading(
                path,
                format!(
                    "more than {max_files} `.bfr` files below it; an edition has at most \
                     {max_files}: name the directory of one edition"
                ),
            ));
        }
    }
    out.sort();
    Ok(out)
}

pub(crate) fn io_error(path: &Path, e: &std::io::Error) -> IoError {
    let reason = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    IoError::reading(path, reason)
}

/// Reads, parses and checks the edition at `path`.
pub fn load(path: &Path) -> Result<Loaded, IoError> {
    let files = edition_files(path)?;
    let texts = read_files(&files)?;
    Ok(load_read(path, texts, &mut Vec::new(), Examples::Run))
}

/// Whether loading runs the edition's examples for the warnings of those that
/// do not hold. Commands that show no warnings (all but `bfr check`, `bfr doc`
/// and the language server) skip them: an example yields nothing but a warning,
/// and running the 2015 edition's took a fifth of a cold `bfr eval --no-cache`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Examples {
    Run,
    Skip,
}

/// Parses and checks an edition's files as read from `path`; the base editions'
/// directories read are added to `bases`.
fn load_read(
    path: &Path,
    texts: Vec<(String, Input)>,
    bases: &mut Vec<PathBuf>,
    examples: Examples,
) -> Loaded {
    let editions = editions_below(path, &texts);
    if editions.len() > 1 {
        // Read as one, their files would declare every name twice.
        let mut loaded = load_keeping_trees(Vec::new(), bases, None, examples);
        loaded.checked = None;
        loaded.diagnostics.push(several_editions(path, &editions));
        return loaded;
    }
    let empty = texts.is_empty();
    let mut loaded = load_keeping_trees(texts, bases, None, examples);
    if empty {
        // Nothing to check is not an edition: no command may take it for one
        // that has no rules.
        loaded.checked = None;
        loaded.diagnostics.push(no_files(path));
    }
    loaded
}

/// The directories below `path` (not `path` itself) that hold an edition's
/// header (`edition.bfr`), sorted: more than one is a folder of editions.
fn editions_below(path: &Path, texts: &[(String, Input)]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = texts
        .iter()
        .map(|(name, _)| Path::new(name))
        .filter(|p| p.file_name().is_some_and(|n| n == "edition.bfr"))
        .filter_map(Path::parent)
        .filter(|dir| *dir != path)
        .map(Path::to_path_buf)
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// E0005: the directory `path` holds several editions, not one.
fn several_editions(path: &Path, editions: &[PathBuf]) -> Diagnostic {
    let shown: Vec<String> = editions
        .iter()
        .map(|d| format!("`{}`", d.display()))
        .collect();
    Diagnostic::error(
        "E0005",
        format!(
            "`{}` holds {} editions, not one: {}",
            path.display(),
            editions.len(),
            shown.join(", ")
        ),
        Default::default(),
    )
    .nowhere()
    .with_help("name the edition's own directory (`bfr check` takes several)")
}

/// E0005: the directory `path` holds no `.bfr` files.
pub fn no_files(path: &Path) -> Diagnostic {
    Diagnostic::error(
        "E0005",
        format!("`{}` holds no `.bfr` files", path.display()),
        Default::default(),
    )
    .nowhere()
    .with_help("an edition is a directory of `.bfr` files; check the path")
}

/// Reads an edition's files, each within the size bound; a file that cannot be
/// opened at all is an [`IoError`].
fn read_files(files: &[PathBuf]) -> Result<Vec<(String, Input)>, IoError> {
    let mut texts = Vec::with_capacity(files.len());
    for f in files {
        let read = match read_bounded(f, MAX_FILE_BYTES as u64) {
            Ok(bytes) => Input::Text(bytes),
            Err(Refusal::Io(e)) => return Err(io_error(f, &e)),
            Err(Refusal::NotAFile(kind)) => Input::NotAFile(kind),
            Err(Refusal::TooLarge(size)) => Input::TooLarge(size),
        };
        texts.push((f.display().to_string(), read));
    }
    Ok(texts)
}

/// Reads a file that is not part of an edition (an event file) with the same
/// checks as an edition's: a regular file (E0008) of at most
/// [`MAX_FILE_BYTES`] (E0004), read with that bound. A refusal is a diagnostic
/// about the file (exit 1, as `bfr check` gives for a rules file that is a
/// pipe), which is added to `sources` with no text; a file that cannot be
/// opened at all (missing, no permission) is an [`IoError`] (exit 3).
pub fn read_input(
    path: &Path,
    sources: &mut Sources,
) -> Result<Result<Vec<u8>, Diagnostic>, IoError> {
    let input = match read_bounded(path, MAX_FILE_BYTES as u64) {
        Ok(bytes) => return Ok(Ok(bytes)),
        Err(Refusal::Io(e)) => return Err(io_error(path, &e)),
        Err(Refusal::NotAFile(kind)) => Input::NotAFile(kind),
        Err(Refusal::TooLarge(size)) => Input::TooLarge(size),
    };
    let name = path.display().to_string();
    let id = sources.add(name.clone(), String::new());
    let printable = sources.name(id).to_string();
    // The helps of an edition's file would name a `.bfr` file or an edition.
    let help = match input {
        Input::TooLarge(_) => {
            "an event file this large is not one a director writes: check that this is the event file"
        }
        _ => {
            "name the event file itself, a regular `.toml` or `.json` file (a pipe, a device or a directory is never read)"
        }
    };
    match refused(&printable, &input, Span::new(id, 0, 0)) {
        Some(d) => Ok(Err(d.with_help(help))),
        None => Ok(Ok(Vec::new())),
    }
}

/// Reads a file the user named beside an edition (an entries, starts or baseline
/// file, a file to format, the document data) with an edition file's checks: a
/// regular file (a pipe or a device is never opened, so nothing blocks) of at
/// most [`MAX_FILE_BYTES`], read with that bound. Every refusal is an
/// [`IoError`] naming the file, in words.
pub fn read_named(path: &Path) -> Result<Vec<u8>, IoError> {
    read_bounded(path, MAX_FILE_BYTES as u64).map_err(|refusal| {
        let reason = match refusal {
            Refusal::Io(e) => return io_error(path, &e),
            Refusal::NotAFile(kind) => {
                format!("it is {kind}, not a file; bfr reads only regular files")
            }
            Refusal::TooLarge(size) => {
                format!("it is {size} bytes; bfr reads files of at most {MAX_FILE_BYTES} bytes")
            }
        };
        IoError::reading(path, reason)
    })
}

/// One file of an edition as found on disk: its bytes, or why they were not read.
enum Input {
    Text(Vec<u8>),
    NotAFile(&'static str),
    TooLarge(u64),
}

/// Parses and checks in-memory files (name, bytes) as one edition.
pub fn load_texts(texts: Vec<(String, Vec<u8>)>) -> Loaded {
    load_inputs(
        texts
            .into_iter()
            .map(|(name, bytes)| (name, Input::Text(bytes)))
            .collect(),
        &mut Vec::new(),
    )
}

/// As [`load_texts`], also giving the tree of each file as parsed, in the order
/// of `texts` (`None` for a file that gave none), so that the language server
/// indexes the trees the check read instead of parsing every file again.
pub fn load_texts_with_trees(texts: Vec<(String, Vec<u8>)>) -> (Loaded, Vec<Option<ast::File>>) {
    let mut trees = Vec::with_capacity(texts.len());
    let loaded = load_keeping_trees(
        texts
            .into_iter()
            .map(|(name, bytes)| (name, Input::Text(bytes)))
            .collect(),
        &mut Vec::new(),
        Some(&mut trees),
        Examples::Run,
    );
    (loaded, trees)
}

/// The diagnostic for a file that was not read: not a regular file (E0008), or
/// too large (E0004). Its source is empty, so the header names the file.
fn refused(name: &str, input: &Input, span: Span) -> Option<Diagnostic> {
    match input {
        Input::Text(_) => None,
        Input::NotAFile(kind) => Some(
            Diagnostic::error(
                "E0008",
                format!("`{name}` is {kind}, not a file; bfr did not read it"),
                span,
            )
            .with_help("name a regular `.bfr` file (a pipe or a device is never read)"),
        ),
        Input::TooLarge(size) => Some(
            Diagnostic::error(
                "E0004",
                format!(
                    "this file is {size} bytes; bfr reads files of at most {MAX_FILE_BYTES} bytes"
                ),
                span,
            )
            .with_help("split the edition into several files"),
        ),
    }
}

/// Parses and checks files as one edition (with its base editions, when it
/// amends one).
fn load_inputs(texts: Vec<(String, Input)>, bases: &mut Vec<PathBuf>) -> Loaded {
    load_keeping_trees(texts, bases, None, Examples::Run)
}

/// [`load_inputs`], keeping the edition's own trees in `trees` when asked.
fn load_keeping_trees(
    texts: Vec<(String, Input)>,
    bases: &mut Vec<PathBuf>,
    trees: Option<&mut Vec<Option<ast::File>>>,
    examples: Examples,
) -> Loaded {
    let mut sources = Sources::new();
    let mut diagnostics = Diagnostics::default();
    let own = texts.len();
    let parsed = parse_inputs(texts, &mut sources, &mut diagnostics, trees);
    let removed = amend::removals(&parsed);
    let (parsed, read) = amend::resolve(parsed, &mut sources, &mut diagnostics, bases);
    let count = own + read;
    let mut loaded = check_parsed(parsed, sources, diagnostics, count, examples);
    amend::point_at_removals(&mut loaded.diagnostics, &loaded.sources, &removed);
    loaded
}

/// Parses files into `sources`; what cannot be read or parsed is a diagnostic.
/// With `trees`, each file's tree is also kept there, in the order of `texts`
/// (`None` for a file that gave none).
fn parse_inputs(
    texts: Vec<(String, Input)>,
    sources: &mut Sources,
    diagnostics: &mut Diagnostics,
    mut trees: Option<&mut Vec<Option<ast::File>>>,
) -> Vec<ast::File> {
    let mut parsed: Vec<ast::File> = Vec::new();
    for (name, input) in texts {
        let tree = parse_input(name, input, sources, diagnostics);
        if let Some(trees) = trees.as_deref_mut() {
            trees.push(tree.clone());
        }
        parsed.extend(tree);
    }
    parsed
}

/// One file added to `sources` and parsed; `None` (with the problem in
/// `diagnostics`) when it was not read, is not UTF-8, is empty or does not parse.
fn parse_input(
    name: String,
    input: Input,
    sources: &mut Sources,
    diagnostics: &mut Diagnostics,
) -> Option<ast::File> {
    let bytes = match input {
        Input::Text(bytes) => bytes,
        other => {
            let id = sources.add(name, String::new());
            let printable = sources.name(id).to_string();
            if let Some(d) = refused(&printable, &other, Span::new(id, 0, 0)) {
                diagnostics.push(d);
            }
            return None;
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let d = crate::diag::not_utf8("E0003", &name, e.as_bytes(), sources, "rules file");
            diagnostics.push(d);
            return None;
        }
    };
    let id = sources.add(name.clone(), text);
    let text = sources.get(id).map_or("", |f| f.text.as_str());
    if text.trim().is_empty() {
        diagnostics.push(
            Diagnostic::warning("W0001", format!("`{name}` is empty"), Span::new(id, 0, 0))
                .with_help("remove the file, or write its rules"),
        );
        return None;
    }
    for warning in syntax::direction_warnings(text, id) {
        diagnostics.push(warning);
    }
    if let Some(warning) = syntax::lone_return_warning(text, id) {
        diagnostics.push(warning);
    }
    let (file, errors) = syntax::parse_file_recovering(text, id);
    for e in errors {
        if file.is_some() {
            diagnostics.push_contained(e);
        } else {
            diagnostics.push(e);
        }
    }
    file
}

/// Checks parsed files as one edition.
fn check_parsed(
    parsed: Vec<ast::File>,
    sources: Sources,
    mut diagnostics: Diagnostics,
    count: usize,
    examples: Examples,
) -> Loaded {
    // Source references against the document's data, when the edition names it:
    // read from the tree before the checker takes it (and frees it as it lowers),
    // reported after the checker's findings as before.
    let references = document::check_references(&parsed, &sources);
    // A file that could not be read (a syntax error, an I/O error) leaves
    // names undeclared: checking the rest would report each use of them.
    // Bad literals, read as invalid expressions, stop only what uses them.
    let checked = if diagnostics.has_blocking_errors() {
        None
    } else {
        let (checked, diags) = check::check(parsed, diagnostics);
        diagnostics = diags;
        if let Some(c) = checked.as_ref().filter(|_| examples == Examples::Run) {
            // Examples that do not hold are findings about the edition, like any other.
            diagnostics.extend(crate::eval::examples::warnings(&c.program));
        }
        checked
    };
    diagnostics.extend(references);
    Loaded {
        sources,
        files: count,
        checked,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::walk;
    use std::path::PathBuf;

    /// A fresh directory under the system's temp dir, removed on drop.
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn the_walk_stops_past_its_limits_and_not_at_them() {
        let dir = Scratch(std::env::temp_dir().join(format!(
            "bfr-walk-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        )));
        let sub = dir.0.join("later");
        std::fs::create_dir_all(&sub).unwrap();
        // Five entries (the directory `later` among them), three `.bfr` files.
        for file in [
            dir.0.join("a.bfr"),
            dir.0.join("b.bfr"),
            sub.join("c.bfr"),
            sub.join("notes.txt"),
        ] {
            std::fs::write(file, "").unwrap();
        }
        assert_eq!(walk(&dir.0, 5, 3).map(|f| f.len()).ok(), Some(3));
        let past = |walked, files| walk(&dir.0, walked, files).unwrap_err().reason;
        assert!(past(4, 3).starts_with("more than 4 files and directories below it"));
        assert!(past(5, 2).starts_with("more than 2 `.bfr` files below it"));
    }
}
