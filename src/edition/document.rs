//! Reading the document data an edition names and checking its source references
//! against it: the loader's part, since it reads a file. The data's model is
//! `crate::document`; the check of each `ref` is `check::refs`.

use crate::diag::{Diagnostic, Diagnostics};
use crate::document::{Document, declared, path_of};
use crate::source::Sources;
use crate::syntax::ast;

/// Reads the document data the edition names (relative to the file with the
/// edition's header) and checks every source reference against it. An edition
/// that names none is not checked: its references are its own business.
pub fn check_references(files: &[ast::File], sources: &Sources) -> Diagnostics {
    let mut diags = Diagnostics::default();
    let Some((name, span)) = declared(files) else {
        return diags;
    };
    let path = path_of(name, span, sources);
    let read = super::read_named(&path).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| super::IoError::reading(&path, "not UTF-8 text"))
    });
    let text = match read {
        Ok(t) => t,
        Err(io) => {
            diags.push(
                Diagnostic::error(
                    "E0010",
                    format!("cannot read the document data `{name}`: {}", io.reason),
                    span,
                )
                .with_label("named here")
                .with_help("the path is relative to this file; generate the file or fix the path"),
            );
            return diags;
        }
    };
    match Document::parse(&text) {
        Ok(doc) => crate::check::refs::check_refs(&doc, files, &mut diags),
        Err(reason) => diags.push(
            Diagnostic::error(
                "E0010",
                format!("the document data `{name}` cannot be read: {reason}"),
                span,
            )
            .with_label("named here")
            .with_help(
                "the file lists `pages`, then `[[id]]`, `[[section]]` and `[[page]]` tables",
            ),
        ),
    }
    diags
}

/// The document data the edition names, when it names one and it can be read
/// (`bfr doc` shows its page texts; [`check_references`] has reported any problem).
pub fn of_edition(files: &[ast::File], sources: &Sources) -> Option<Document> {
    let (name, span) = declared(files)?;
    let bytes = super::read_named(&path_of(name, span, sources)).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    Document::parse(&text).ok()
}
