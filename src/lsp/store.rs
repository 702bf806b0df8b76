//! The documents the editor has open, and the analysis of each edition they
//! belong to.
//!
//! An edition is the directory a file is in: its `.bfr` files as on disk, with
//! the unsaved text of every open document in place of the file's. Each change
//! re-analyses the whole edition the way `bfr check` does (the same loading and
//! checking code, so the diagnostics are the same), and indexes the trees that
//! check parsed. A notification that changes nothing the analysis was made from
//! (a document opened or saved as it is on disk) is not analysed again.

use super::index::{Index, Tree};
use super::uri;
use crate::diag::Diagnostics;
use crate::document::Document;
use crate::source::read_bounded;
use crate::syntax::{MAX_FILE_BYTES, ast};
use lsp_types::Uri;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One file of an analysed edition.
pub struct FileEntry {
    /// Where it is.
    pub path: PathBuf,
    /// Its URI.
    pub uri: Uri,
    /// Its text (the open document's, or the file's), when it is UTF-8.
    pub text: String,
    /// The syntax tree the index was built from, and the text it was parsed
    /// from: the current text when it parses, else the last that did.
    pub tree: Option<(String, ast::File)>,
}

/// An edition as the editor sees it now.
pub struct Analysis {
    /// Its files, sorted by path.
    pub files: Vec<FileEntry>,
    /// What `bfr check` finds, at most a hundred a file, with one more at the
    /// file's start saying how many were left out, so that an edition with
    /// thousands of problems does not cost megabytes a keystroke.
    pub diagnostics: Diagnostics,
    /// Its names and their uses.
    pub index: Index,
    /// The document data its header names, if it can be read.
    pub document: Option<Document>,
    /// What it was made from, to tell whether a change changed anything;
    /// `None` when that cannot be told (it read a base edition's files).
    made_from: Option<Inputs>,
}

impl Analysis {
    /// The position of a file in [`Analysis::files`].
    pub fn file(&self, path: &Path) -> Option<usize> {
        self.files.iter().position(|f| f.path == path)
    }

    /// The text a file's index entries point into.
    pub fn tree_text(&self, file: usize) -> &str {
        self.files
            .get(file)
            .and_then(|f| f.tree.as_ref())
            .map_or("", |(t, _)| t.as_str())
    }
}

/// Open documents and analysed editions.
#[derive(Default)]
pub struct Store {
    open: BTreeMap<PathBuf, String>,
    /// Documents open in the editor whose text is not known here (changes
    /// that could not be followed): they keep their edition as open ones do,
    /// and their files on disk stand for them.
    lost: BTreeSet<PathBuf>,
    /// The last tree of each file that parsed, with its text.
    last_good: BTreeMap<PathBuf, (String, ast::File)>,
    editions: BTreeMap<PathBuf, Analysis>,
    /// How many analyses were made.
    analyses: usize,
}

/// The edition directory of a `.bfr` file named by a URI; `None` for anything
/// else (another scheme, another kind of file).
pub fn edition_of(uri: &Uri) -> Option<(PathBuf, PathBuf)> {
    let path = uri::to_path(uri)?;
    if path.extension().is_none_or(|x| x != "bfr") {
        return None;
    }
    let dir = path.parent()?.to_path_buf();
    Some((path, dir))
}

impl Store {
    /// Records an opened or changed document's text.
    pub fn set(&mut self, path: PathBuf, text: String) {
        self.lost.remove(&path);
        self.open.insert(path, text);
    }

    /// Forgets an open document's text, which no longer stands for it: its
    /// file on disk counts until its whole text comes again.
    pub fn lose(&mut self, path: &Path) {
        if self.open.remove(path).is_some() {
            self.lost.insert(path.to_path_buf());
        }
    }

    /// The text of an open document.
    pub fn text(&self, path: &Path) -> Option<&str> {
        self.open.get(path).map(String::as_str)
    }

    /// Forgets a closed document: its file on disk counts again.
    pub fn close(&mut self, path: &Path) {
        self.open.remove(path);
        self.lost.remove(path);
    }

    /// Forgets the analysis of every edition none of whose files is open (an
    /// edition's files are those below its directory, as `bfr check` reads
    /// them), and the last trees that parsed of files no kept edition has: an
    /// editor that visits many editions in turn would otherwise keep every
    /// analysis it ever made. An edition is analysed afresh if a file of it is
    /// opened again.
    pub fn forget_closed(&mut self) {
        let (open, lost) = (&self.open, &self.lost);
        self.editions
            .retain(|dir, _| open.keys().chain(lost).any(|p| p.starts_with(dir)));
        let editions = &self.editions;
        self.last_good
            .retain(|p, _| editions.keys().any(|dir| p.starts_with(dir)));
    }

    /// The analysis of an edition, made now if there is none yet.
    pub fn analysis(&mut self, dir: &Path) -> &Analysis {
        if !self.editions.contains_key(dir) {
            self.refresh(dir);
        }
        // Just made; an empty analysis stands in should that ever fail.
        self.editions
            .entry(dir.to_path_buf())
            .or_insert_with(|| Analysis {
                files: Vec::new(),
                diagnostics: Diagnostics::default(),
                index: Index::default(),
                document: None,
                made_from: None,
            })
    }

    /// Analyses an edition again (after a change) and returns the analysis; an
    /// edition whose every input is as it was is not analysed again.
    pub fn refresh(&mut self, dir: &Path) -> &Analysis {
        let files = self.read(dir);
        let unchanged = self
            .editions
            .get(dir)
            .and_then(|a| a.made_from.as_ref())
            .is_some_and(|was| was.unchanged(&files));
        if !unchanged {
            self.analyses += 1;
            let analysis = self.analyse(files);
            self.editions.insert(dir.to_path_buf(), analysis);
        }
        self.analysis(dir)
    }

    /// Whether the store holds an analysis of edition `dir`.
    #[cfg(test)]
    pub fn holds(&self, dir: &Path) -> bool {
        self.editions.contains_key(dir)
    }

    /// How many times an edition was analysed (parsed and checked) since the
    /// store was made.
    #[cfg(test)]
    pub fn analyses(&self) -> usize {
        self.analyses
    }

    /// The edition's files: those on disk and the open documents in it.
    fn paths(&self, dir: &Path) -> Vec<PathBuf> {
        let mut paths = crate::edition::edition_files(dir).unwrap_or_default();
        paths.extend(
            self.open
                .keys()
                .filter(|p| p.starts_with(dir) && p.extension().is_some_and(|x| x == "bfr"))
                .cloned(),
        );
        paths.sort();
        paths.dedup();
        paths
    }

    /// The edition's files with their bytes: an open document's unsaved text,
    /// else the file's. A file that cannot be read is left out; it is not the
    /// one the editor is working on.
    fn read(&self, dir: &Path) -> Vec<(PathBuf, Uri, Vec<u8>)> {
        let mut files = Vec::new();
        for path in self.paths(dir) {
            let bytes = match self.open.get(&path) {
                Some(t) => t.clone().into_bytes(),
                None => match read_bounded(&path, MAX_FILE_BYTES as u64) {
                    Ok(b) => b,
                    Err(_) => continue,
                },
            };
            if let Some(uri) = uri::from_path(&path) {
                files.push((path, uri, bytes));
            }
        }
        files
    }

    fn analyse(&mut self, read: Vec<(PathBuf, Uri, Vec<u8>)>) -> Analysis {
        let texts: Vec<(String, Vec<u8>)> = read
            .iter()
            .map(|(path, _, bytes)| (path.display().to_string(), bytes.clone()))
            .collect();
        let (loaded, trees) = crate::edition::load_texts_with_trees(texts);
        let mut files = Vec::new();
        for ((path, uri, bytes), tree) in read.iter().zip(trees) {
            let text = String::from_utf8(bytes.clone()).unwrap_or_default();
            if let Some(tree) = tree {
                self.last_good.insert(path.clone(), (text.clone(), tree));
            }
            files.push(FileEntry {
                path: path.clone(),
                uri: uri.clone(),
                text,
                tree: self.last_good.get(path).cloned(),
            });
        }
        let trees: Vec<Tree<'_>> = files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                f.tree
                    .as_ref()
                    .map(|(text, ast)| Tree { file: i, text, ast })
            })
            .collect();
        let index = Index::build(&trees);
        let document_file = document_path(&files).map(|p| {
            let bytes = read_bounded(&p, MAX_FILE_BYTES as u64).ok();
            (p, bytes)
        });
        let document = document_file.as_ref().and_then(|(_, bytes)| {
            Document::parse(std::str::from_utf8(bytes.as_ref()?).ok()?).ok()
        });
        // An edition that amends another also read the base's files: it is
        // analysed again on every change, as their changes are not followed.
        let amends = loaded.sources.iter().count() > read.len();
        let mut diagnostics = Diagnostics::default();
        for d in crate::diag::shown_per_file(&loaded.diagnostics) {
            diagnostics.push(d.into_owned());
        }
        Analysis {
            files,
            diagnostics,
            index,
            document,
            made_from: (!amends).then_some(Inputs {
                files: read,
                document: document_file,
            }),
        }
    }
}

/// What an analysis was made from: the edition's files (path, URI, bytes) and
/// the document data its header names (its path, and its bytes if readable).
pub struct Inputs {
    files: Vec<(PathBuf, Uri, Vec<u8>)>,
    document: Option<(PathBuf, Option<Vec<u8>>)>,
}

impl Inputs {
    /// Whether the edition's files are `now` and the document data is still
    /// as it was read (the same files name the same document).
    fn unchanged(&self, now: &[(PathBuf, Uri, Vec<u8>)]) -> bool {
        self.files.len() == now.len()
            && self
                .files
                .iter()
                .zip(now)
                .all(|((p, _, b), (q, _, c))| p == q && b == c)
            && self.document.as_ref().is_none_or(|(path, bytes)| {
                read_bounded(path, MAX_FILE_BYTES as u64).ok() == *bytes
            })
    }
}

/// The document data file the edition's header names (relative to the
/// header's file).
fn document_path(files: &[FileEntry]) -> Option<PathBuf> {
    files.iter().find_map(|f| {
        let (_, tree) = f.tree.as_ref()?;
        tree.items.iter().find_map(|item| match &item.decl {
            ast::Decl::Edition(e) => {
                let (name, _) = e.document.as_ref()?;
                Some(f.path.parent()?.join(name))
            }
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of its own for one test.
    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bfr-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    const HEADER: &str = "edition \"Sample\" {\n  source \"a sample\"\n  document \"doc.toml\"\n}\nunit SEK \"kronor\"\n";
    const FEE: &str = "/// The fee.\nconst fee: SEK ref X-1 = 500 SEK\n";

    #[test]
    fn an_edition_is_analysed_again_only_when_a_file_or_its_document_changed() {
        let d = dir("unchanged");
        std::fs::write(d.join("edition.bfr"), HEADER).unwrap();
        std::fs::write(d.join("fee.bfr"), FEE).unwrap();
        std::fs::write(d.join("doc.toml"), "").unwrap();
        let mut store = Store::default();
        store.refresh(&d);
        assert_eq!(store.analyses(), 1);
        // Opening a file with the text it has on disk, saving it unchanged.
        store.set(d.join("fee.bfr"), FEE.to_string());
        store.refresh(&d);
        store.refresh(&d);
        assert_eq!(store.analyses(), 1);
        // Typing in it.
        store.set(d.join("fee.bfr"), FEE.replace("500", "600"));
        let analysis = store.refresh(&d);
        assert!(analysis.files[1].text.contains("600 SEK"));
        assert_eq!(store.analyses(), 2);
        // A new file on disk, then the document data changed on disk.
        std::fs::write(
            d.join("more.bfr"),
            "/// More.\nconst more: SEK ref X-2 = 1 SEK\n",
        )
        .unwrap();
        store.refresh(&d);
        assert_eq!(store.analyses(), 3);
        std::fs::write(d.join("doc.toml"), "# changed\n").unwrap();
        store.refresh(&d);
        assert_eq!(store.analyses(), 4);
        store.refresh(&d);
        assert_eq!(store.analyses(), 4);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_edition_is_forgotten_once_none_of_its_files_is_open() {
        let (one, two) = (dir("forget-one"), dir("forget-two"));
        for d in [&one, &two] {
            std::fs::write(d.join("edition.bfr"), HEADER).unwrap();
            std::fs::write(d.join("fee.bfr"), FEE).unwrap();
        }
        let mut store = Store::default();
        store.set(one.join("fee.bfr"), FEE.to_string());
        store.set(one.join("edition.bfr"), HEADER.to_string());
        store.set(two.join("fee.bfr"), FEE.replace("500", "600"));
        store.refresh(&one);
        store.refresh(&two);
        // One file of the first edition closed: the other keeps it.
        store.close(&one.join("fee.bfr"));
        store.forget_closed();
        assert!(store.editions.contains_key(&one));
        // A file below the edition's directory is one of its files too.
        let nested = one.join("below");
        std::fs::create_dir_all(&nested).unwrap();
        store.set(nested.join("fee.bfr"), FEE.to_string());
        store.close(&one.join("edition.bfr"));
        store.refresh(&nested);
        store.forget_closed();
        assert!(store.editions.contains_key(&one));
        assert!(store.editions.contains_key(&nested));
        store.close(&nested.join("fee.bfr"));
        store.forget_closed();
        assert!(!store.editions.contains_key(&one));
        assert!(!store.editions.contains_key(&nested));
        assert!(store.last_good.keys().all(|p| !p.starts_with(&one)));
        assert!(store.last_good.contains_key(&two.join("fee.bfr")));
        assert!(store.editions.contains_key(&two));
        // Opened again: analysed afresh.
        let before = store.analyses();
        store.analysis(&one);
        assert_eq!(store.analyses(), before + 1);
        for d in [one, two] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }

    #[test]
    fn an_edition_with_many_problems_keeps_what_check_shows() {
        let d = dir("many");
        std::fs::write(d.join("edition.bfr"), HEADER).unwrap();
        let unknown: String = (0..150)
            .map(|i| format!("/// A fee.\nconst fee{i}: SEK ref X-1 = missing{i}\n"))
            .collect();
        std::fs::write(d.join("fees.bfr"), &unknown).unwrap();
        let mut store = Store::default();
        let a = store.refresh(&d);
        let fees = u32::try_from(a.file(&d.join("fees.bfr")).unwrap()).unwrap();
        let shown: Vec<_> = a
            .diagnostics
            .sorted()
            .into_iter()
            .filter(|d| d.span.file == fees)
            .collect();
        let (left_out, unknowns): (Vec<&&crate::diag::Diagnostic>, Vec<_>) =
            shown.iter().partition(|d| d.code == "W0002");
        assert_eq!(unknowns.len(), crate::diag::MAX_SHOWN_PER_FILE);
        assert_eq!(left_out.len(), 1, "one line says how many more");
        let note = left_out[0];
        assert!(note.message.contains("and 50 more"), "{}", note.message);
        assert_eq!(
            (note.span.start, note.span.end),
            (0, 0),
            "at the file's start"
        );
        let help = note.help.as_deref().unwrap_or_default();
        assert!(
            help.contains("per file") && !help.contains("in all"),
            "{help}"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_amending_edition_is_analysed_on_every_change() {
        let d = dir("amending");
        let base = d.join("base");
        let own = d.join("own");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(
            base.join("fee.bfr"),
            format!("edition \"Base\" {{\n  source \"a\"\n}}\nunit SEK \"kronor\"\n{FEE}"),
        )
        .unwrap();
        std::fs::write(
            own.join("edition.bfr"),
            "edition \"Own\" {\n  amends \"../base\"\n}\n",
        )
        .unwrap();
        let mut store = Store::default();
        store.refresh(&own);
        store.refresh(&own);
        assert_eq!(store.analyses(), 2);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
