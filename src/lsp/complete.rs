//! Completion: after `Enum.` the enum's variants (and after `competition.` its
//! stages, after `Record.` its fields); elsewhere the edition's rules, consts,
//! types, units and competitions, and the keywords.

use super::index::{Def, DefKind};
use super::navigate::{name_start, qualifier_before};
use super::position::LineIndex;
use super::store::Analysis;
use crate::source::printable_page;
use crate::syntax::format::tokens::keywords;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, Position};

/// The completions at `pos` of file `file`.
pub fn complete(a: &Analysis, file: usize, pos: Position) -> Vec<CompletionItem> {
    let Some(f) = a.files.get(file) else {
        return Vec::new();
    };
    let offset = LineIndex::new(&f.text).offset(pos);
    let Some(before) = f.text.get(..offset) else {
        return Vec::new();
    };
    let start = name_start(before);
    if before.get(..start).is_some_and(|b| b.ends_with('.')) {
        // After a dot only members fit; a qualifier that names nothing gets none.
        return qualifier_before(&f.text, start)
            .and_then(|q| a.index.container_named(q))
            .map(|c| a.index.members_of(c).into_iter().map(item).collect())
            .unwrap_or_default();
    }
    let mut items: Vec<CompletionItem> = a
        .index
        .defs
        .iter()
        .filter(|d| d.container.is_none())
        .map(item)
        .collect();
    items.extend(keywords().map(|k| CompletionItem {
        label: k.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }));
    items
}

fn item(d: &Def) -> CompletionItem {
    let kind = match d.kind {
        DefKind::Fn | DefKind::Table | DefKind::Scale => CompletionItemKind::FUNCTION,
        DefKind::Const => CompletionItemKind::CONSTANT,
        DefKind::Procedure => CompletionItemKind::TEXT,
        DefKind::Enum => CompletionItemKind::ENUM,
        DefKind::Variant => CompletionItemKind::ENUM_MEMBER,
        DefKind::Record => CompletionItemKind::STRUCT,
        DefKind::Field => CompletionItemKind::FIELD,
        DefKind::Unit => CompletionItemKind::UNIT,
        DefKind::Competition => CompletionItemKind::MODULE,
        DefKind::Stage => CompletionItemKind::EVENT,
    };
    CompletionItem {
        label: d.name.clone(),
        kind: Some(kind),
        // An editor shows these as they are: escaped as the hover is.
        detail: Some(printable_page(&d.signature).into_owned()),
        documentation: (!d.doc.is_empty())
            .then(|| Documentation::String(printable_page(&d.doc.join("\n")).into_owned())),
        ..CompletionItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::hover::tests::{reordering_def, shows_in_order};
    use super::*;

    #[test]
    fn a_completion_shows_a_reordering_character_escaped() {
        let shown = item(&reordering_def());
        let detail = shown.detail.unwrap_or_default();
        assert!(shows_in_order(&detail), "{detail}");
        assert!(detail.contains("\\u{202a}number"), "{detail}");
        let Some(Documentation::String(doc)) = shown.documentation else {
            panic!("the `///` line is the documentation");
        };
        assert!(shows_in_order(&doc), "{doc}");
        assert!(doc.contains("\\u{202e}arrival"), "{doc}");
    }
}
