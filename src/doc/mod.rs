//! `bfr doc`: a checked edition as a static HTML site — an index, one page per
//! chapter (file) with every rule, table, scale, procedure and example under its
//! inventory ID, page and section, the document's own page texts, and each
//! competition's stages as an SVG flow.
//!
//! The site is made in memory as plain (file name, bytes) pairs, so that writing
//! it (`cli::doc`) can put it in place all at once. Everything comes from the
//! typed IR and the texts the check read; the files are parsed again only to find
//! where each declaration begins and ends (a warning belongs to the declaration
//! it points into) and the editors' notices, which the IR does not keep. Pages
//! are built with maud, so every name and text is escaped by construction; the
//! control characters HTML forbids and those that reorder text are escaped as
//! the terminal's output escapes them ([`crate::source::printable_page`]).

mod chapter;
mod flow;
mod index;
mod model;
mod rule;
mod words;

use crate::diag::Diagnostics;
use crate::ir::Program;
use crate::source::{Sources, printable_page};
pub use model::{Anchor, Chapter, Entry, Model, Placed};
use std::path::Path;

/// The style sheet every page links: layout for screen and paper.
pub const STYLE: &str = include_str!("style.css");

/// The name of the file that marks a directory as a site `bfr doc` wrote, so a
/// later run may replace it (and never a directory it did not write).
pub const MARKER: &str = ".bfr-doc";

/// One file of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// Its name inside the site's directory.
    pub name: String,
    /// Its contents.
    pub text: String,
}

/// The whole site, in the order its files are written.
pub fn site(
    program: &Program,
    sources: &Sources,
    diags: &Diagnostics,
    root: &Path,
) -> Vec<SiteFile> {
    let model = Model::build(program, sources, diags, root);
    let html = |name: String, page: String| SiteFile {
        name,
        text: printable_page(&page).into_owned(),
    };
    let mut files = vec![html("index.html".into(), index::page(&model))];
    for c in &model.chapters {
        files.push(html(c.page.clone(), chapter::page(&model, c)));
    }
    if let Some(pages) = index::document_pages(&model) {
        files.push(html(model::PAGES.into(), pages));
    }
    files.push(SiteFile {
        name: "style.css".into(),
        text: STYLE.into(),
    });
    let mut marker = String::from(MARKER_HEADING);
    for f in &files {
        marker.push_str(&f.name);
        marker.push('\n');
    }
    files.push(SiteFile {
        name: MARKER.into(),
        text: marker,
    });
    files
}

/// The first line of the marker; the files the site holds follow, one a line.
const MARKER_HEADING: &str = "This directory is a site written by `bfr doc`. The next run replaces it, \
unless it holds a file other than these:\n";

/// The files a site's marker text lists as the site's own (the marker too).
/// A marker written before it listed them lists none: the site's own are then
/// its pages and style sheet, as they were named then.
pub fn marked_files(marker: &str) -> Option<Vec<&str>> {
    let listed = marker.strip_prefix(MARKER_HEADING)?;
    Some(listed.lines().chain([MARKER]).collect())
}
