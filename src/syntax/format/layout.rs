//! Lines, indentation, spacing and alignment of the token stream.

use super::tokens::{Kind, Token};
use crate::syntax::DECLARATION_STARTS;

/// A token with what stood before it on its line in the input.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub tok: Token<'a>,
    /// Whitespace stood between it and the token before it on the same line.
    pub spaced: bool,
}

/// One line of code or comments, as written.
#[derive(Debug, Clone, Default)]
pub struct Line<'a> {
    pub toks: Vec<Placed<'a>>,
    /// A blank line stood before it.
    pub blank_before: bool,
}

/// Groups the tokens into lines, dropping whitespace but remembering where it was.
pub fn lines<'a>(toks: &[Token<'a>]) -> Vec<Line<'a>> {
    let mut out: Vec<Line<'a>> = Vec::new();
    let mut current = Line::default();
    let (mut newlines, mut spaced) = (0usize, false);
    for tok in toks {
        match tok.kind {
            Kind::Space => spaced = true,
            Kind::Newline => newlines += 1,
            _ => {
                if newlines > 0 && !current.toks.is_empty() {
                    out.push(std::mem::take(&mut current));
                    current.blank_before = newlines > 1;
                }
                current.toks.push(Placed {
                    tok: *tok,
                    spaced: spaced || newlines > 0,
                });
                newlines = 0;
                spaced = false;
            }
        }
    }
    if !current.toks.is_empty() {
        out.push(current);
    }
    out
}

/// The file laid out: indentation, spacing, `=>` alignment; one newline at the end.
pub fn render(lines: &[Line<'_>]) -> String {
    let levels = indentation(lines);
    let bodies: Vec<Vec<String>> = lines.iter().map(|l| spaced_pieces(&l.toks)).collect();
    let pads = arrow_padding(lines, &levels, &bodies);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if line.blank_before && i > 0 {
            out.push('\n');
        }
        out.push_str(&"  ".repeat(levels[i]));
        for (j, piece) in bodies[i].iter().enumerate() {
            if pads[i].is_some_and(|(at, _)| at == j) {
                let width = pads[i].map_or(0, |(_, w)| w);
                out.push_str(&" ".repeat(width));
            }
            out.push_str(piece);
        }
        out.push('\n');
    }
    out
}

/// The indentation level of every line.
fn indentation(lines: &[Line<'_>]) -> Vec<usize> {
    // Each open bracket remembers the level of the line it was opened on.
    let mut stack: Vec<usize> = Vec::new();
    let mut levels = Vec::with_capacity(lines.len());
    // Top-level comment lines take the level of the code below them; filled later.
    let mut top_comments = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let first = line.toks[0].tok;
        let closers = line
            .toks
            .iter()
            .take_while(|p| p.tok.kind == Kind::Close)
            .count();
        let level = if closers > 0 {
            stack
                .get(stack.len().saturating_sub(closers))
                .copied()
                .unwrap_or(0)
        } else if let Some(&opened) = stack.last() {
            opened + 1 + usize::from(continues(first))
        } else if first.kind == Kind::Comment {
            top_comments.push(i);
            0
        } else {
            usize::from(!starts_top_level(first))
        };
        levels.push(level);
        // A body after `=` at the start of a top-level line (`= match x {`) is
        // laid out as if the `= ` were indentation: what it opens is one level in.
        let base = if stack.is_empty() && first.kind == Kind::Op && first.text == "=" {
            1
        } else {
            level
        };
        for p in &line.toks {
            match p.tok.kind {
                Kind::Open => stack.push(base),
                Kind::Close => {
                    stack.pop();
                }
                _ => {}
            }
        }
    }
    for &i in top_comments.iter().rev() {
        let next = i + 1;
        if next < lines.len() && !lines[next].blank_before {
            levels[i] = levels[next];
        }
    }
    levels
}

/// A top-level line that is not the continuation of the declaration above.
fn starts_top_level(first: Token<'_>) -> bool {
    match first.kind {
        Kind::Word => DECLARATION_STARTS.contains(&first.text),
        Kind::Open => first.text == "{",
        Kind::Close => true,
        Kind::Op => first.text == "=",
        _ => false,
    }
}

/// A line inside brackets that continues the expression of the line above.
fn continues(first: Token<'_>) -> bool {
    match first.kind {
        Kind::Word => matches!(first.text, "and" | "or" | "then" | "ref"),
        Kind::Op => first.text != "=",
        Kind::Slash => true,
        _ => false,
    }
}

/// The line's tokens as text pieces, each with the space that goes before it.
fn spaced_pieces(toks: &[Placed<'_>]) -> Vec<String> {
    let mut out = Vec::with_capacity(toks.len());
    for (i, p) in toks.iter().enumerate() {
        let text = if p.tok.kind == Kind::Comment {
            p.tok.text.trim_end()
        } else {
            p.tok.text
        };
        let space = i > 0 && space_before(toks, i);
        out.push(if space {
            format!(" {text}")
        } else {
            text.to_string()
        });
    }
    out
}

/// Whether a space goes between `toks[i - 1]` and `toks[i]`.
fn space_before(toks: &[Placed<'_>], i: usize) -> bool {
    let (prev, next) = (toks[i - 1].tok, toks[i].tok);
    if next.kind == Kind::Comment {
        return true;
    }
    // The written choice stays where the grammar reads spacing as meaning.
    for k in [i - 1, i] {
        if matches!(toks[k].tok.kind, Kind::Dot | Kind::Slash | Kind::DotDot)
            || (toks[k].tok.kind == Kind::Minus
                && between_atoms(toks, k)
                && !after_reserved_word(toks, k))
        {
            return !tight(toks, k);
        }
        if toks[k].tok.kind == Kind::Comma && between_numbers(toks, k) && tight(toks, k) {
            return false;
        }
    }
    if prev.kind == Kind::Percent {
        return toks[i].spaced;
    }
    // Two atoms written together stay together (`2015-07-011` is not a date and a
    // space would make it one), except a number and its unit.
    if prev.is_atom() && next.is_atom() && !toks[i].spaced {
        return prev.kind == Kind::Number && next.kind == Kind::Word;
    }
    if prev.kind == Kind::Minus && is_unary(toks, i - 1) {
        return false;
    }
    match (prev.kind, next.kind) {
        (Kind::Open, Kind::Close) => false,
        (Kind::Open, _) => prev.text == "{",
        (_, Kind::Close) => next.text == "}",
        (_, Kind::Comma | Kind::Semi | Kind::Colon) => false,
        (_, Kind::Open) if next.text != "{" => !is_callee(toks, i - 1),
        _ => true,
    }
}

/// A `.`, `/` or `..` written with nothing on either side.
fn tight(toks: &[Placed<'_>], k: usize) -> bool {
    k > 0 && !toks[k].spaced && toks.get(k + 1).is_some_and(|n| !n.spaced)
}

/// A `-` with an atom on each side: written tight it may be inside a rule ID the
/// scan could not see whole (`refCC-FEE` is `ref CC-FEE` to the grammar).
fn between_atoms(toks: &[Placed<'_>], k: usize) -> bool {
    k > 0 && toks[k - 1].tok.is_atom() && toks.get(k + 1).is_some_and(|n| n.tok.is_atom())
}

/// A `-` right after a reserved word (`then -1`, `else -1`): a negation, never
/// inside a rule ID, whose words are capitals.
fn after_reserved_word(toks: &[Placed<'_>], k: usize) -> bool {
    k > 0 && toks[k - 1].tok.kind == Kind::Word && toks[k - 1].tok.is_reserved()
}

/// A `,` between two numbers: written tight it may be inside a page list the scan
/// could not see whole (`refCC-FEEp.1,2`).
fn between_numbers(toks: &[Placed<'_>], k: usize) -> bool {
    k > 0
        && toks[k - 1].tok.kind == Kind::Number
        && toks.get(k + 1).is_some_and(|n| n.tok.kind == Kind::Number)
}

/// Whether a `(` or `[` right after `toks[k]` makes a call or an index.
fn is_callee(toks: &[Placed<'_>], k: usize) -> bool {
    let tok = toks[k].tok;
    match tok.kind {
        Kind::Word => !is_keyword_here(toks, k),
        Kind::Close => tok.text != "}",
        _ => false,
    }
}

/// Whether the word `toks[k]` stands as a keyword. A reserved word always
/// does; a word that is a keyword only where it stands is a name elsewhere
/// (`out(3)` calls a fn named `out`). Before a bracket or a `-` such a word is
/// a keyword only as a route's target after `->` (`place (n + 1)`, or `place`
/// first on a line that continues a route), or as `places` starting a route
/// (`places (n + 1)..m -> …`, its `->` later on the line).
fn is_keyword_here(toks: &[Placed<'_>], k: usize) -> bool {
    let tok = toks[k].tok;
    if crate::syntax::KEYWORDS_BEFORE_TEXT.contains(&tok.text) {
        return toks.get(k + 1).is_some_and(|t| t.tok.kind == Kind::Str);
    }
    if !tok.is_contextual() {
        return tok.is_reserved();
    }
    let prev = k.checked_sub(1).map(|j| toks[j].tok.text);
    match tok.text {
        "place" => matches!(prev, None | Some("->")),
        "places" => toks
            .get(k + 1..)
            .is_some_and(|rest| rest.iter().any(|t| t.tok.text == "->")),
        _ => prev == Some("->"),
    }
}

/// A `-` that negates: at the start of a line, or after an operator, a bracket, a
/// separator or a keyword.
fn is_unary(toks: &[Placed<'_>], k: usize) -> bool {
    let Some(j) = k.checked_sub(1) else {
        return true;
    };
    match toks[j].tok.kind {
        Kind::Open
        | Kind::Comma
        | Kind::Semi
        | Kind::Colon
        | Kind::Op
        | Kind::Minus
        | Kind::Slash
        | Kind::DotDot => true,
        Kind::Word => is_keyword_here(toks, j),
        _ => false,
    }
}

/// For each line, where to pad before its `=>` and by how much, so that the arrows
/// of consecutive arms line up.
fn arrow_padding(
    lines: &[Line<'_>],
    levels: &[usize],
    bodies: &[Vec<String>],
) -> Vec<Option<(usize, usize)>> {
    let arrows: Vec<Option<(usize, usize)>> = lines
        .iter()
        .zip(bodies)
        .map(|(l, b)| arrow_of(l).map(|at| (at, width(&b[..at]))))
        .collect();
    let mut pads = vec![None; lines.len()];
    let mut start = 0;
    while start < lines.len() {
        let mut end = start + 1;
        while arrows[start].is_some()
            && end < lines.len()
            && arrows[end].is_some()
            && !lines[end].blank_before
            && levels[end] == levels[start]
        {
            end += 1;
        }
        if end - start > 1 {
            let widest = arrows[start..end]
                .iter()
                .flatten()
                .map(|a| a.1)
                .max()
                .unwrap_or(0);
            for i in start..end {
                pads[i] = arrows[i].map(|(at, w)| (at, widest - w));
            }
        }
        start = end;
    }
    pads
}

/// The index of the line's `=>` outside any bracket the line opens, on a line that
/// does not start by closing one and holds no text over several lines.
fn arrow_of(line: &Line<'_>) -> Option<usize> {
    let first = line.toks.first()?.tok;
    if first.kind == Kind::Close
        || first.kind == Kind::Comment
        || line.toks.iter().any(|p| p.tok.text.contains('\n'))
    {
        return None;
    }
    let mut depth = 0usize;
    for (i, p) in line.toks.iter().enumerate() {
        match p.tok.kind {
            Kind::Open => depth += 1,
            Kind::Close => depth = depth.saturating_sub(1),
            Kind::Op if p.tok.text == "=>" && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// The columns the pieces take on screen: a letter with a combining mark (a
/// decomposed `å`) is one column, as it is in an editor.
fn width(pieces: &[String]) -> usize {
    pieces
        .iter()
        .map(|p| unicode_width::UnicodeWidthStr::width(p.as_str()))
        .sum()
}
