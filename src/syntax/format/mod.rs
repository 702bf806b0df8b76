//! `bfr fmt`: one canonical layout for `.bfr` files.
//!
//! The formatter works on the lossless token stream of [`tokens`], not on the
//! AST, so comments and strings are kept byte for byte. It keeps the author's line
//! breaks (collapsing runs of blank lines to one) and decides everything else:
//!
//! - indentation: two spaces per bracket opened on an earlier line, counted once
//!   per line; a top-level line that does not start a declaration (`ref …`, a body
//!   after `=`, `else …`) and a line inside brackets that starts with an operator
//!   (`and`, `+`, `==`, …) are indented one more step; a comment line takes the
//!   indentation of the code it stands before;
//! - spacing: one space between tokens, none inside brackets, before `,` `;` `:`,
//!   after a unary minus, or between a name and the bracket of its call or index;
//! - `=>` aligned down a run of consecutive scale, table or match arms.
//!
//! Where the grammar reads spacing as meaning, the written choice stays: `SEK/player`
//! (a unit) against `a / b` (a division), `a.b` against `a . b`, `1..3` against
//! `1 .. 3`, `a-b` against `a - b`, `1,2` against `1, 2` (the grammar reads `refCC-FEE` as a reference),
//! and two atoms written together stay together. [`format()`] only lays out
//! tokens; [`format_checked`] re-parses the result and refuses a layout whose syntax
//! tree differs from the input's.

mod layout;
pub mod tokens;

use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// Lays `text` out canonically. `Err` holds the byte offset of a character that
/// starts no token (text the parser refuses as well).
pub fn format(text: &str) -> Result<String, usize> {
    let toks = tokens::tokens(text)?;
    Ok(layout::render(&layout::lines(&toks)))
}

/// Formats one file and proves the result means the same: both texts are parsed
/// and their syntax trees, spans aside, must be equal. A file that does not parse
/// gives its parse diagnostic; a layout that would change the meaning is an
/// internal error (E0901) and the file must be left as it is.
pub fn format_checked(text: &str, file: FileId) -> Result<String, Diagnostic> {
    let before = super::parse_file(text, file)?;
    let formatted = format(text).map_err(|at| {
        Diagnostic::error(
            "E0001",
            "this character cannot start anything in a rules file",
            Span::new(file, at, at + 1),
        )
    })?;
    match super::parse_file(&formatted, file) {
        Ok(after) if after == before => Ok(formatted),
        _ => Err(Diagnostic::error(
            "E0901",
            "internal error: formatting this file would change what it says, so it is left as it is",
            Span::new(file, 0, 0),
        )
        .with_help("please report this file to the bfr developers")),
    }
}

#[cfg(test)]
mod tests;
