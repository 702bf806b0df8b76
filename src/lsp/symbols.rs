//! Document symbols: a file's rules, consts, procedures, units, enums with their
//! variants, records with their fields, and competitions with their stages.

use super::index::{Def, DefKind};
use super::position::LineIndex;
use super::store::Analysis;
use lsp_types::{DocumentSymbol, SymbolKind};
use std::collections::BTreeMap;

/// The outline of file `file`.
pub fn symbols(a: &Analysis, file: usize) -> Vec<DocumentSymbol> {
    let ix = LineIndex::new(a.tree_text(file));
    let defs = &a.index.defs;
    // Each declaration's members, found in one pass over the declarations.
    let mut members: BTreeMap<usize, Vec<DocumentSymbol>> = BTreeMap::new();
    for c in defs.iter().filter(|c| c.at.file == file) {
        if let Some(container) = c.container {
            members
                .entry(container)
                .or_default()
                .push(symbol(&ix, c, Vec::new()));
        }
    }
    defs.iter()
        .enumerate()
        .filter(|(_, d)| d.at.file == file && d.container.is_none())
        .map(|(id, d)| symbol(&ix, d, members.remove(&id).unwrap_or_default()))
        .collect()
}

#[allow(
    deprecated,
    reason = "`deprecated` is a required field of the LSP type"
)]
fn symbol(ix: &LineIndex<'_>, d: &Def, children: Vec<DocumentSymbol>) -> DocumentSymbol {
    let kind = match d.kind {
        DefKind::Fn | DefKind::Table | DefKind::Scale => SymbolKind::FUNCTION,
        DefKind::Const => SymbolKind::CONSTANT,
        DefKind::Procedure => SymbolKind::STRING,
        DefKind::Enum => SymbolKind::ENUM,
        DefKind::Variant => SymbolKind::ENUM_MEMBER,
        DefKind::Record => SymbolKind::STRUCT,
        DefKind::Field => SymbolKind::FIELD,
        DefKind::Unit => SymbolKind::TYPE_PARAMETER,
        DefKind::Competition => SymbolKind::MODULE,
        DefKind::Stage => SymbolKind::EVENT,
    };
    let selection = ix.range(d.at.start, d.at.end);
    // A member's declaration is its name; the others cover the whole declaration.
    let range = match d.kind {
        DefKind::Variant | DefKind::Field => selection,
        _ => ix.range(d.whole.start.min(d.at.start), d.whole.end.max(d.at.end)),
    };
    DocumentSymbol {
        name: d.name.clone(),
        // An editor shows the detail as it is: escaped as the hover is.
        detail: Some(crate::source::printable_page(&d.signature).into_owned()),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    }
}
