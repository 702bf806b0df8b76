//! Go to definition and find references: the name under the cursor resolved
//! through the edition's index.

use super::index::Place;
use super::position::LineIndex;
use super::store::Analysis;
use lsp_types::{Location, Position};

/// The definition the name at `pos` of file `file` stands for. Where the file's
/// text is the one its tree was parsed from, the index says; otherwise (a
/// half-typed file) the word under the cursor is looked up by name.
pub fn target(a: &Analysis, file: usize, pos: Position) -> Option<usize> {
    let f = a.files.get(file)?;
    let offset = LineIndex::new(&f.text).offset(pos);
    let current = f.tree.as_ref().is_some_and(|(t, _)| *t == f.text);
    if current && let Some(o) = a.index.at(file, offset) {
        return Some(o.def);
    }
    let (qualifier, word) = word_at(&f.text, offset)?;
    // The index holds names in NFC, as the parser gives them.
    let word = crate::syntax::nfc(word);
    let word = word.as_str();
    match qualifier {
        Some(q) => {
            let c = a.index.container_named(&crate::syntax::nfc(q))?;
            a.index
                .defs
                .iter()
                .position(|d| d.container == Some(c) && d.name == word)
        }
        None => a.index.global(word),
    }
}

/// Whether a character can be part of a name (a combining mark too: a
/// decomposed `å` is `a` and a ring).
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || unicode_normalization::char::is_combining_mark(c)
}

/// Where the name that `before` ends with begins (`before.len()` when it ends
/// with no name).
pub fn name_start(before: &str) -> usize {
    before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name_char(*c))
        .last()
        .map_or(before.len(), |(i, _)| i)
}

/// The name around `offset`, and the name before it and a `.`, if any.
pub fn word_at(text: &str, offset: usize) -> Option<(Option<&str>, &str)> {
    let offset = (0..=offset.min(text.len()))
        .rev()
        .find(|i| text.is_char_boundary(*i))?;
    let before = text.get(..offset)?;
    let after = text.get(offset..)?;
    let start = name_start(before);
    let end = offset
        + after
            .char_indices()
            .find(|(_, c)| !is_name_char(*c))
            .map_or(after.len(), |(i, _)| i);
    let word = text.get(start..end).filter(|w| !w.is_empty())?;
    Some((qualifier_before(text, start), word))
}

/// The name written just before a `.` that ends at `dot_end` (`District` of
/// `District.Sk`).
pub fn qualifier_before(text: &str, dot_end: usize) -> Option<&str> {
    let head = text.get(..dot_end)?.strip_suffix('.')?;
    let start = head
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name_char(*c))
        .last()
        .map(|(i, _)| i)?;
    head.get(start..).filter(|q| !q.is_empty())
}

/// A place of the index as a location in its file.
pub fn location(a: &Analysis, at: Place) -> Option<Location> {
    let f = a.files.get(at.file)?;
    let ix = LineIndex::new(a.tree_text(at.file));
    Some(Location::new(f.uri.clone(), ix.range(at.start, at.end)))
}

/// Where the name at `pos` is declared.
pub fn definition(a: &Analysis, file: usize, pos: Position) -> Option<Location> {
    let def = a.index.defs.get(target(a, file, pos)?)?;
    location(a, def.at)
}

/// Every use of the name at `pos`, with its declaration if asked for. Each
/// file's lines are indexed once, however many uses it has.
pub fn references(a: &Analysis, file: usize, pos: Position, declaration: bool) -> Vec<Location> {
    let Some(def) = target(a, file, pos) else {
        return Vec::new();
    };
    let mut lines: std::collections::BTreeMap<usize, LineIndex<'_>> = Default::default();
    a.index
        .uses(def)
        .filter(|o| declaration || !o.is_def)
        .filter_map(|o| {
            let f = a.files.get(o.at.file)?;
            let ix = lines
                .entry(o.at.file)
                .or_insert_with(|| LineIndex::new(a.tree_text(o.at.file)));
            Some(Location::new(f.uri.clone(), ix.range(o.at.start, o.at.end)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_under_the_cursor_with_its_qualifier() {
        let text = "x = Region.Northland + y";
        let at = text.find("No").unwrap() + 2;
        assert_eq!(word_at(text, at), Some((Some("Region"), "Northland")));
        assert_eq!(word_at(text, 0), Some((None, "x")));
        assert_eq!(word_at(text, 1), Some((None, "x")));
        assert_eq!(word_at(text, 2), None);
        assert_eq!(word_at("Fjäll", 2), Some((None, "Fjäll")));
    }
}
