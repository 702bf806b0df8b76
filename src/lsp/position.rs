//! Byte offsets (what spans hold) to LSP positions and back. LSP counts columns
//! in UTF-16 code units, so `å`, `ä` and `ö` count one each and a character
//! outside the Basic Multilingual Plane two; a line ends at `\n`, `\r\n` or a
//! lone `\r` (the three line breaks LSP counts), and the break belongs to no
//! line.

use lsp_types::{Position, Range};

/// The line starts of one text, for converting offsets in both directions.
#[derive(Debug, Clone)]
pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset of the start of each line (the first is 0).
    starts: Vec<usize>,
    /// How many more UTF-8 bytes than UTF-16 units the text has before each
    /// block of [`BLOCK`] bytes: a column is then found in constant time,
    /// however long the line (a file of one 1 MB line has a token every few
    /// bytes, each converted), for one number per block. A block can start
    /// inside a four-byte character, after its first byte only: the count
    /// there is one less than before the character, below zero if only ASCII
    /// came before.
    extra_at_block: Vec<i64>,
}

/// The bytes between two of [`LineIndex`]'s counts.
const BLOCK: usize = 64;

/// What byte `b` adds to the count of UTF-8 bytes over UTF-16 units: each
/// continuation byte one, less one for the first byte of a four-byte
/// character (four bytes, two units). Summed over whole characters it is
/// their count; summed over any bytes it can be split anywhere.
fn extra_of(b: u8) -> i64 {
    match b {
        0x80..=0xbf => 1,
        0xf0..=0xf7 => -1,
        _ => 0,
    }
}

impl<'t> LineIndex<'t> {
    /// Indexes `text`.
    pub fn new(text: &'t str) -> Self {
        let mut extra = 0i64;
        let mut extra_at_block = Vec::with_capacity(text.len() / BLOCK + 1);
        for block in text.as_bytes().chunks(BLOCK) {
            extra_at_block.push(extra);
            extra += block.iter().map(|b| extra_of(*b)).sum::<i64>();
        }
        // The count before the end too, so every offset up to it has a block.
        if text.len().is_multiple_of(BLOCK) {
            extra_at_block.push(extra);
        }
        LineIndex {
            text,
            starts: line_starts(text),
            extra_at_block,
        }
    }

    /// How many more UTF-8 bytes than UTF-16 units the text has before byte
    /// `offset` (a character boundary).
    fn extra_before(&self, offset: usize) -> usize {
        let block = offset / BLOCK;
        let at_block = self.extra_at_block.get(block).copied().unwrap_or(0);
        let inside: i64 = self
            .text
            .as_bytes()
            .get(block * BLOCK..offset)
            .unwrap_or_default()
            .iter()
            .map(|b| extra_of(*b))
            .sum();
        usize::try_from(at_block + inside).unwrap_or(0)
    }

    /// The byte range of line `line`, without its line break. The byte before
    /// the next line's start is the break's last; a `\r` before a `\n` is the
    /// break's too (a `\r` before a lone `\r` would have been a break itself).
    fn line(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)?;
        let mut end = self
            .starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        if end > start && self.text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some((start, end.max(start)))
    }

    /// The position of a byte offset (clamped to the text; an offset inside a
    /// character or a line break counts as the character's start or the line's
    /// end).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self
            .starts
            .partition_point(|s| *s <= offset)
            .saturating_sub(1);
        let (start, end) = self.line(line).unwrap_or((0, 0));
        let mut upto = offset.clamp(start, end);
        while !self.text.is_char_boundary(upto) {
            upto -= 1;
        }
        let column = (upto - start) - (self.extra_before(upto) - self.extra_before(start));
        Position::new(to_u32(line), to_u32(column))
    }

    /// The range of a byte range.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of a position: a column past the line's end is its end,
    /// a line past the last is the end of the text, a column inside a surrogate
    /// pair is the character's start.
    pub fn offset(&self, pos: Position) -> usize {
        let Some((start, end)) = self.line(pos.line as usize) else {
            return self.text.len();
        };
        let mut units = 0usize;
        let want = pos.character as usize;
        for (i, c) in self.text.get(start..end).unwrap_or("").char_indices() {
            let next = units + c.len_utf16();
            if next > want {
                return start + i;
            }
            units = next;
        }
        end
    }

    /// The range covering the whole text.
    pub fn whole(&self) -> Range {
        Range::new(Position::new(0, 0), self.position(self.text.len()))
    }
}

/// The byte offset of each line's start: 0, and after each `\n`, `\r\n` and
/// lone `\r`.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, b) in bytes.iter().enumerate() {
        let breaks = match b {
            b'\n' => true,
            b'\r' => bytes.get(i + 1) != Some(&b'\n'),
            _ => false,
        };
        if breaks {
            starts.push(i + 1);
        }
    }
    starts
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn swedish_letters_count_one_unit_each_though_they_take_two_bytes() {
        let text = "enum Region { Fjåre, Bärnt, Östvik }\nx";
        let ix = LineIndex::new(text);
        let at = text.find("Bärnt").unwrap();
        // "enum Region { Fjåre, " is 21 characters and 22 bytes.
        assert_eq!(at, 22);
        assert_eq!(ix.position(at), pos(0, 21));
        assert_eq!(ix.offset(pos(0, 21)), at);
        let end = at + "Bärnt".len();
        assert_eq!(ix.position(end), pos(0, 26));
        assert_eq!(ix.offset(pos(0, 26)), end);
        let ore = text.find("Östvik").unwrap();
        assert_eq!(ix.position(ore), pos(0, 28));
        assert_eq!(ix.position(text.len()), pos(1, 1));
    }

    #[test]
    fn characters_outside_the_basic_plane_count_two_units() {
        let text = "a😀b";
        let ix = LineIndex::new(text);
        assert_eq!(ix.position(5), pos(0, 3));
        assert_eq!(ix.offset(pos(0, 3)), 5);
        // Inside the surrogate pair: the character's start.
        assert_eq!(ix.offset(pos(0, 2)), 1);
    }

    #[test]
    fn a_carriage_return_belongs_to_the_line_break() {
        let text = "ab\r\nåc\r\n";
        let ix = LineIndex::new(text);
        assert_eq!(ix.position(2), pos(0, 2));
        // The `\r` itself is the line's end, not a column of it.
        assert_eq!(ix.position(3), pos(0, 2));
        assert_eq!(ix.position(4), pos(1, 0));
        assert_eq!(ix.position(7), pos(1, 2));
        assert_eq!(ix.offset(pos(0, 2)), 2);
        assert_eq!(ix.offset(pos(0, 99)), 2);
        assert_eq!(ix.offset(pos(1, 1)), 6);
        assert_eq!(ix.offset(pos(1, 2)), 7);
        assert_eq!(ix.position(text.len()), pos(2, 0));
        assert_eq!(ix.whole(), Range::new(pos(0, 0), pos(2, 0)));
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        let text = "ab\rcd\r\rå";
        let ix = LineIndex::new(text);
        assert_eq!(ix.position(2), pos(0, 2));
        assert_eq!(ix.position(3), pos(1, 0));
        assert_eq!(ix.position(6), pos(2, 0));
        assert_eq!(ix.position(7), pos(3, 0));
        assert_eq!(ix.offset(pos(1, 1)), 4);
        assert_eq!(ix.offset(pos(1, 9)), 5);
        assert_eq!(ix.offset(pos(3, 1)), text.len());
        assert_eq!(ix.whole(), Range::new(pos(0, 0), pos(3, 1)));
    }

    #[test]
    fn positions_past_the_text_are_clamped() {
        let ix = LineIndex::new("abc");
        assert_eq!(ix.offset(pos(7, 0)), 3);
        assert_eq!(ix.offset(pos(0, 1000)), 3);
        assert_eq!(ix.position(1000), pos(0, 3));
        let empty = LineIndex::new("");
        assert_eq!(empty.position(0), pos(0, 0));
        assert_eq!(empty.offset(pos(0, 5)), 0);
    }

    /// The lines' byte ranges without their breaks, split character by
    /// character.
    fn split_lines(text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let (mut lines, mut start, mut i) = (Vec::new(), 0, 0);
        while i < bytes.len() {
            let width = match (bytes[i], bytes.get(i + 1)) {
                (b'\r', Some(b'\n')) => 2,
                (b'\r' | b'\n', _) => 1,
                _ => 0,
            };
            if width == 0 {
                i += 1;
            } else {
                lines.push((start, i));
                i += width;
                start = i;
            }
        }
        lines.push((start, bytes.len()));
        lines
    }

    /// The column as counted character by character from the line's start.
    fn counted(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let lines = split_lines(text);
        let line = lines.iter().rposition(|(s, _)| *s <= offset).unwrap_or(0);
        let (start, end) = lines[line];
        let column: usize = text[start..end]
            .char_indices()
            // A character the offset falls inside counts from its start.
            .take_while(|(i, c)| start + i + c.len_utf8() <= offset.min(end))
            .map(|(_, c)| c.len_utf16())
            .sum();
        pos(to_u32(line), to_u32(column))
    }

    #[test]
    fn every_byte_offset_has_the_column_counted_from_the_line_start() {
        let short = "ä\r\nö😀x\n\nå b\r\n𝄞ab\r\r\n€\r";
        // Lines across many blocks of the index, ending on a block's edge and not.
        let long = format!(
            "{}\n{}\r\n{}",
            "å😀x€".repeat(40),
            "ab".repeat(64),
            "ö".repeat(96)
        );
        let on_edge = "ö".repeat(64);
        // A block that starts after the first of a character's four bytes,
        // with only ASCII before: fewer bytes than units there.
        let split_emoji = format!("{}🏆 cup\n{}", "x".repeat(63), "y".repeat(80));
        let texts = [
            short,
            &long,
            &long[..long.len() - 64],
            &on_edge,
            &split_emoji,
            "",
        ];
        for text in texts {
            let ix = LineIndex::new(text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(
                    ix.position(offset),
                    counted(text, offset),
                    "offset {offset}"
                );
            }
        }
    }

    #[test]
    fn every_offset_of_a_mixed_text_comes_back() {
        let text = "ä\r\nö😀\n\nå\rb\r\r\nc";
        let ix = LineIndex::new(text);
        for (i, _) in text.char_indices() {
            let p = ix.position(i);
            // A line break's offsets are the line's end, which is a column.
            if !matches!(text.as_bytes()[i], b'\r' | b'\n') {
                assert_eq!(ix.offset(p), i, "offset {i} at {p:?}");
            }
        }
    }
}
