//! The documents the editor has open, and the analysis of each edition they
//! belong to.
//!
//! An edition is the directory a file is in: its `.bfr` files as on disk, with
//! the unsaved text of every open document in place of the file's. Each change
//! re-analyses the whole edition the way `bfr check` does (the same loading and
//! checking code, so the diagnostics are the same), and indexes its names.

use super::index::{Index, Tree};
use super::uri;
use crate::diag::Diagnostics;
use crate::document::Document;
use crate::source::read_bounded;
use crate::syntax::{self, MAX_FILE_BYTES, ast};
use lsp_types::Uri;
use std::collections::BTreeMap;
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
    /// What `bfr check` finds.
    pub diagnostics: Diagnostics,
    /// Its names and their uses.
    pub index: Index,
    /// The document data its header names, if it can be read.
    pub document: Option<Document>,
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
    /// The last tree of each file that parsed, with its text.
    last_good: BTreeMap<PathBuf, (String, ast::File)>,
    editions: BTreeMap<PathBuf, Analysis>,
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
        self.open.insert(path, text);
    }

    /// Forgets a closed document: its file on disk counts again.
    pub fn close(&mut self, path: &Path) {
        self.open.remove(path);
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
            })
    }

    /// Analyses an edition again (after a change) and returns the analysis.
    pub fn refresh(&mut self, dir: &Path) -> &Analysis {
        let analysis = self.analyse(dir);
        self.editions.insert(dir.to_path_buf(), analysis);
        self.analysis(dir)
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

    fn analyse(&mut self, dir: &Path) -> Analysis {
        let mut inputs = Vec::new();
        let mut files = Vec::new();
        for path in self.paths(dir) {
            let bytes = match self.open.get(&path) {
                Some(t) => t.clone().into_bytes(),
                // A file that cannot be read is left out; it is not the one the
                // editor is working on.
                None => match read_bounded(&path, MAX_FILE_BYTES as u64) {
                    Ok(b) => b,
                    Err(_) => continue,
                },
            };
            let Some(uri) = uri::from_path(&path) else {
                continue;
            };
            let text = String::from_utf8(bytes.clone()).unwrap_or_default();
            inputs.push((path.display().to_string(), bytes));
            files.push(FileEntry {
                path,
                uri,
                text,
                tree: None,
            });
        }
        let loaded = crate::edition::load_texts(inputs);
        for (i, f) in files.iter_mut().enumerate() {
            let id = u32::try_from(i).unwrap_or(u32::MAX);
            if let Ok(tree) = syntax::parse_file(&f.text, id) {
                self.last_good
                    .insert(f.path.clone(), (f.text.clone(), tree));
            }
            f.tree = self.last_good.get(&f.path).cloned();
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
        let document = document_data(&files);
        Analysis {
            files,
            diagnostics: loaded.diagnostics,
            index,
            document,
        }
    }
}

/// The document data the edition's header names (relative to the header's file).
fn document_data(files: &[FileEntry]) -> Option<Document> {
    files.iter().find_map(|f| {
        let (_, tree) = f.tree.as_ref()?;
        tree.items.iter().find_map(|item| match &item.decl {
            ast::Decl::Edition(e) => {
                let (name, _) = e.document.as_ref()?;
                let path = f.path.parent()?.join(name);
                let bytes = read_bounded(&path, MAX_FILE_BYTES as u64).ok()?;
                Document::parse(&String::from_utf8(bytes).ok()?).ok()
            }
            _ => None,
        })
    })
}
