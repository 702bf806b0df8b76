//! `bfr check`'s diagnostics as LSP diagnostics, one list per file of the
//! edition: the code, the message, the span as a range in UTF-16 columns, the
//! primary label and the notes as related information, the help after the
//! message.

use super::position::LineIndex;
use super::store::Analysis;
use crate::diag::Severity;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};
use std::collections::BTreeMap;

/// The diagnostics of every file of the edition, by file URI (files with none
/// are left out).
pub fn by_file(a: &Analysis) -> BTreeMap<String, (Uri, Vec<Diagnostic>)> {
    let indexes: Vec<LineIndex<'_>> = a.files.iter().map(|f| LineIndex::new(&f.text)).collect();
    let location = |file: u32, start: u32, end: u32| {
        let i = file as usize;
        let (f, ix) = (a.files.get(i)?, indexes.get(i)?);
        Some(Location::new(
            f.uri.clone(),
            ix.range(start as usize, end as usize),
        ))
    };
    let mut out: BTreeMap<String, (Uri, Vec<Diagnostic>)> = BTreeMap::new();
    for d in a.diagnostics.sorted() {
        // A diagnostic about no file (an edition without files) has nowhere to go.
        let Some(at) = location(d.span.file, d.span.start, d.span.end) else {
            continue;
        };
        let mut related = Vec::new();
        if !d.label.is_empty() {
            related.push(DiagnosticRelatedInformation {
                location: at.clone(),
                message: d.label.clone(),
            });
        }
        for (span, text) in &d.notes {
            if let Some(location) = location(span.file, span.start, span.end) {
                related.push(DiagnosticRelatedInformation {
                    location,
                    message: text.clone(),
                });
            }
        }
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let diagnostic = Diagnostic {
            range: at.range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("bfr".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        };
        out.entry(at.uri.as_str().to_string())
            .or_insert_with(|| (at.uri.clone(), Vec::new()))
            .1
            .push(diagnostic);
    }
    out
}
