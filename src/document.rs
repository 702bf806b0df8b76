//! The regulation document an edition cites, as data: how many pages it has, every
//! rule ID with its pages, the table of contents (headings and the pages each
//! section covers) and the text of the pages the edition has.
//!
//! An edition names its document data in its header (`document "document.toml"`,
//! a path relative to the file holding the header), so each year's edition brings
//! its own. The 2015 file is generated from the inventory and the document's text
//! by `tools/document_data.py`. `bfr check` checks every `ref` against it
//! (`check::refs`, reached through the loader, `edition::document`).

use crate::source::{Sources, Span};
use crate::syntax::ast;
use serde::Deserialize;
use std::path::Path;

/// Where an ID comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A rule of the inventory, at the pages it gives.
    Inventory,
    /// An open question of the list of ambiguities (`AMB-n`).
    Ambiguities,
    /// A fact from outside the document (`X-IMP`): no pages, no headings.
    Outside,
    /// An ID the edition gives to text the inventory has none for.
    Edition,
}

/// One rule ID.
#[derive(Debug, Clone, Deserialize)]
pub struct IdEntry {
    /// The ID, e.g. `CC-FEE`.
    pub id: String,
    /// The pages it stands on (empty for facts from outside the document).
    #[serde(default)]
    pub pages: Vec<u32>,
    /// Where it comes from.
    pub origin: Origin,
}

/// A heading of the table of contents and the pages its section covers.
#[derive(Debug, Clone, Deserialize)]
pub struct Section {
    /// The heading as the table of contents writes it.
    pub title: String,
    /// The page the section starts on.
    pub first: u32,
    /// The page the next section starts on (the section may end there).
    pub last: u32,
    /// The heading as [`normalise`] gives it, made once by [`Document::parse`].
    #[serde(skip)]
    normalised: String,
}

/// The text of one page.
#[derive(Debug, Clone, Deserialize)]
pub struct Page {
    /// The document's own page number.
    pub number: u32,
    /// The page's text.
    pub text: String,
    /// The text as [`normalise`] gives it, between two spaces; made once by
    /// [`Document::parse`], as every quoted reference searches it.
    #[serde(skip)]
    normalised: String,
}

/// The document data, as the file writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct Document {
    /// How many pages the document has.
    pub pages: u32,
    /// Every rule ID.
    #[serde(default, rename = "id")]
    pub ids: Vec<IdEntry>,
    /// The table of contents.
    #[serde(default, rename = "section")]
    pub sections: Vec<Section>,
    /// The pages whose text the data holds.
    #[serde(default, rename = "page")]
    pub texts: Vec<Page>,
}

impl Document {
    /// Reads document data (TOML); the error says what is wrong, in words.
    pub fn parse(text: &str) -> Result<Document, String> {
        use crate::spanned::bound;
        if bound::past(text, bound::Notation::Toml, bound::MAX_VALUES).is_some() {
            return Err(format!(
                "it holds more than {} values; bfr reads files of at most that many",
                bound::MAX_VALUES_SHOWN
            ));
        }
        let mut doc: Document =
            toml::from_str(text).map_err(|e| crate::spanned::plain_depth(e.message().trim()))?;
        if doc.pages == 0 {
            return Err("`pages` must be at least 1".into());
        }
        for page in &mut doc.texts {
            page.normalised = format!(" {} ", normalise(&page.text));
        }
        for section in &mut doc.sections {
            section.normalised = normalise(&section.title);
        }
        Ok(doc)
    }

    /// The entry for an ID.
    pub fn id(&self, id: &str) -> Option<&IdEntry> {
        self.ids.iter().find(|e| e.id == id)
    }

    /// The text of a page, where the data holds it.
    pub fn text(&self, page: u32) -> Option<&str> {
        self.texts
            .iter()
            .find(|p| p.number == page)
            .map(|p| p.text.as_str())
    }

    /// Whether `quote` is a heading whose section covers one of `pages`, or stands
    /// in the text of one of them. Case, punctuation and spacing do not count (the
    /// text writes "CHAIRMAN S CUP" where an edition writes "Chairman's Cup").
    pub fn quote_on(&self, quote: &str, pages: &[u32]) -> bool {
        let want = normalise(quote);
        if want.is_empty() {
            return true;
        }
        let heading = self
            .sections
            .iter()
            .any(|s| s.normalised == want && pages.iter().any(|p| (s.first..=s.last).contains(p)));
        let word_run = format!(" {want} ");
        heading
            || pages.iter().any(|p| {
                self.texts
                    .iter()
                    .find(|page| page.number == *p)
                    .is_some_and(|page| page.normalised.contains(&word_run))
            })
    }

    /// Whether the data holds the text of any of `pages` (else only headings can
    /// be checked there).
    pub fn has_text(&self, pages: &[u32]) -> bool {
        pages.iter().any(|p| self.text(*p).is_some())
    }
}

/// Lower case, every run of characters other than letters and digits one space.
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
    }
    out.trim_end().to_string()
}

/// The edition's `document "…"` field and the file that declares it.
pub(crate) fn declared(files: &[ast::File]) -> Option<(&str, Span)> {
    files
        .iter()
        .flat_map(|f| &f.items)
        .find_map(|i| match &i.decl {
            ast::Decl::Edition(e) => e.document.as_ref().map(|(p, s)| (p.as_str(), *s)),
            _ => None,
        })
}

/// Where the document data `name`, named in the header at `span`, is: relative
/// to the file holding the header.
pub(crate) fn path_of(name: &str, span: Span, sources: &Sources) -> std::path::PathBuf {
    let header = Path::new(sources.name(span.file));
    header.parent().unwrap_or(Path::new("")).join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_ignores_case_punctuation_and_spacing() {
        assert_eq!(normalise("Editor's  Table"), "editor s table");
        assert_eq!(normalise("EDITOR S TABLE"), "editor s table");
        assert_eq!(
            normalise("Val av lag Vårcupen (VC)"),
            "val av lag vårcupen vc"
        );
        assert_eq!(normalise("--"), "");
    }

    #[test]
    fn a_quote_is_found_as_a_heading_of_a_covering_section_or_in_the_text() {
        let doc = Document::parse(
            r#"
pages = 30
[[section]]
title = "Startavgifter"
first = 14
last = 15
[[page]]
number = 17
text = "Generellt Begreppet ranking innebär placering"
"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(doc.quote_on("Startavgifter", &[15]));
        assert!(!doc.quote_on("Startavgifter", &[16]));
        assert!(!doc.quote_on("Startavgiftr", &[14]));
        assert!(doc.quote_on("generellt", &[17]));
        // Whole words only: "rank" is not in the text though "ranking" is.
        assert!(!doc.quote_on("rank", &[17]));
        assert!(!doc.quote_on("Generellt", &[18]));
    }

    #[test]
    fn bad_data_is_refused_in_words() {
        assert!(Document::parse("pages = 0").is_err());
        assert!(Document::parse("pages = \"many\"").is_err());
    }
}
