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

/// The most words and spaces two texts may have together for a word-by-word
/// comparison (about 4,000 words, eight pages). Its cost grows with the texts'
/// length times their differences; longer texts are compared by their common
/// start and end alone. A bound on the texts, not on the time taken, so that
/// the same texts always give the same diff, however busy the machine.
const MAX_COMPARED_TOKENS: usize = 8_000;

/// The word diff of two texts, with neighbouring words of one side joined into
/// one run.
pub fn diff(old: &str, new: &str) -> Vec<Word> {
    let (old, new) = (tokens(old), tokens(new));
    let mut out: Vec<Word> = Vec::new();
    if old.len() + new.len() <= MAX_COMPARED_TOKENS {
        let diff = TextDiff::configure().diff_slices(&old, &new);
        for change in diff.iter_all_changes() {
            let tag = match change.tag() {
                ChangeTag::Equal => Tag::Same,
                ChangeTag::Delete => Tag::Old,
                ChangeTag::Insert => Tag::New,
            };
            push(&mut out, tag, change.value());
        }
        return out;
    }
    let start = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let end = old[start..]
        .iter()
        .rev()
        .zip(new[start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let runs = [
        (Tag::Same, &old[..start]),
        (Tag::Old, &old[start..old.len() - end]),
        (Tag::New, &new[start..new.len() - end]),
        (Tag::Same, &old[old.len() - end..]),
    ];
    for (tag, words) in runs {
        for word in words {
            push(&mut out, tag, word);
        }
    }
    out
}

/// Adds `text` to the last run if it is of the same side, else as a new run.
fn push(out: &mut Vec<Word>, tag: Tag, text: &str) {
    match out.last_mut() {
        Some(last) if last.tag == tag => last.text.push_str(text),
        _ => out.push(Word {
            tag,
            text: text.to_string(),
        }),
    }
}

/// A text cut into its words and the runs of space between them.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut space = None;
    for (i, c) in text.char_indices() {
        if space.is_some_and(|s| s != c.is_whitespace()) {
            out.push(&text[start..i]);
            start = i;
        }
        space = Some(c.is_whitespace());
    }
    if start < text.len() {
        out.push(&text[start..]);
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
    fn words_and_spaces_are_tokens_of_their_own() {
        assert_eq!(tokens("  två ord\n"), ["  ", "två", " ", "ord", "\n"]);
        assert!(tokens("").is_empty());
    }

    #[test]
    fn texts_past_the_bound_are_compared_by_their_common_start_and_end() {
        let words = |n: usize, changed: &[usize]| -> String {
            (0..n)
                .map(|i| {
                    if changed.contains(&i) {
                        format!("X{i}")
                    } else {
                        format!("w{i}")
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Under the bound, two words changed far apart are two changes.
        let w = diff(&words(100, &[]), &words(100, &[10, 90]));
        assert_eq!(w.iter().filter(|w| w.tag == Tag::New).count(), 2);
        // Past it, everything from the first change to the last is replaced.
        let n = MAX_COMPARED_TOKENS / 2;
        let w = diff(&words(n, &[]), &words(n, &[10, n - 10]));
        let tags: Vec<Tag> = w.iter().map(|w| w.tag).collect();
        assert_eq!(tags, [Tag::Same, Tag::Old, Tag::New, Tag::Same]);
        assert!(w[0].text.ends_with("w9 "), "{:?}", &w[0].text);
        assert!(w[1].text.starts_with("w10 ") && w[1].text.ends_with(&format!("w{}", n - 10)));
        assert!(w[3].text.starts_with(' '));
        // One word changed in a long text is still one word.
        let w = diff(&words(n, &[]), &words(n, &[7]));
        assert_eq!(
            inline(&w[..3]),
            format!("{}[-w7-]{{+X7+}}", words(7, &[]) + " ")
        );
    }

    #[test]
    fn the_same_text_has_no_changed_words() {
        let w = diff("a b c", "a b c");
        assert!(w.iter().all(|w| w.tag == Tag::Same));
    }
}
