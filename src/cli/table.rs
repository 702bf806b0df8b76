//! Text tables: each column padded to its widest cell, within a bound.

use crate::source::printable_name;

/// The widest a column is padded to. A longer cell is printed whole and the
/// cells after it in its row move right, so one long name (a pair named with a
/// million letters) costs its own length once, not once on every row.
pub const MAX_PADDED: usize = 64;

/// Rows of cells as lines: `indent` before the first cell, `gap` between
/// cells, each cell but the last padded to its column's width, no blanks at a
/// line's end. A cell's control characters (a line break) are escaped, so a
/// cell is always one line of its row.
pub fn render(rows: &[Vec<String>], indent: &str, gap: &str) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|c| printable_name(c)).collect())
        .collect();
    let mut widths: Vec<usize> = Vec::new();
    for row in &rows {
        for (i, cell) in row.iter().enumerate() {
            let w = cell.chars().count().min(MAX_PADDED);
            match widths.get_mut(i) {
                Some(x) => *x = (*x).max(w),
                None => widths.push(w),
            }
        }
    }
    let mut out = String::new();
    for row in &rows {
        let mut line = String::from(indent);
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < row.len() {
                let width = widths.get(i).copied().unwrap_or(0);
                let pad = width.saturating_sub(cell.chars().count());
                line.push_str(&" ".repeat(pad));
                line.push_str(gap);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| (*c).to_string()).collect()
    }

    #[test]
    fn columns_line_up_on_their_widest_cell() {
        let rows = [row(&["pair", "points"]), row(&["Ek – Holm", "12"])];
        assert_eq!(
            render(&rows, "  ", " "),
            "  pair      points\n  Ek – Holm 12\n"
        );
    }

    #[test]
    fn a_cell_past_the_bound_is_whole_and_pads_no_other_row() {
        let long = "x".repeat(100_000);
        let mut rows = vec![row(&["pair", "points"]), row(&[&long, "1"])];
        rows.extend((0..1_000).map(|_| row(&["Ek", "2"])));
        let text = render(&rows, "", " ");
        // Each short row is padded to the bound at most, never to the long cell.
        assert!(
            text.len() < long.len() + 1_001 * (MAX_PADDED + 4),
            "{}",
            text.len()
        );
        assert!(text.contains(&format!("{long} 1\n")));
        assert!(text.ends_with(&format!("Ek{} 2\n", " ".repeat(MAX_PADDED - 2))));
    }

    #[test]
    fn a_line_break_in_a_cell_cannot_make_a_row_of_its_own() {
        let rows = [row(&["P\ntotal", "0 SEK"])];
        let text = render(&rows, "", " ");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("P\\ntotal"), "{text}");
    }
}
