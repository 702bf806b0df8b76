//! Word diffs of text (procedures, doc comments), by `similar`.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};

/// A run of words kept, removed or added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Word {
    /// Kept (`same`), removed (`old`) or added (`new`).
    pub tag: Tag,
    /// The words, with the spaces between them.
    pub text: String,
}

/// Which side a run of words belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tag {
    /// In both.
    Same,
    /// Only in the old text.
    Old,
    /// Only in the new text.
    New,
}

/// The word diff of two texts, with neighbouring words of one side joined into
/// one run.
pub fn diff(old: &str, new: &str) -> Vec<Word> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_words(old, new);
    let mut out: Vec<Word> = Vec::new();
    for change in diff.iter_all_changes() {
        let tag = match change.tag() {
            ChangeTag::Equal => Tag::Same,
            ChangeTag::Delete => Tag::Old,
            ChangeTag::Insert => Tag::New,
        };
        let text = change.value();
        match out.last_mut() {
            Some(last) if last.tag == tag => last.text.push_str(text),
            _ => out.push(Word {
                tag,
                text: text.to_string(),
            }),
        }
    }
    out
}

/// The diff as one line: `kept [-removed-]{+added+} kept`.
pub fn inline(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| match w.tag {
            Tag::Same => w.text.clone(),
            Tag::Old => format!("[-{}-]", w.text),
            Tag::New => format!("{{+{}+}}", w.text),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_hour_is_one_word_out_and_one_in() {
        let w = diff(
            "Monday 27 July 17:00 at the desk",
            "Monday 27 July 20:00 at the desk",
        );
        assert_eq!(inline(&w), "Monday 27 July [-17:00-]{+20:00+} at the desk");
    }

    #[test]
    fn the_same_text_has_no_changed_words() {
        let w = diff("a b c", "a b c");
        assert!(w.iter().all(|w| w.tag == Tag::Same));
    }
}
