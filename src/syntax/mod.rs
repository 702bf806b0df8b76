//! Stage 1: text → AST.
//!
//! `grammar/bfr.pest` defines the syntax; [`parse_file`] reads one file into
//! [`ast`] nodes with spans, item by item: with the direct reader (`read`, the
//! grammar transcribed by hand) where it can, else by running the grammar and
//! lowering its parse tree. Parse errors always come from the grammar and are
//! turned into diagnostics in words an editor knows ("a number", "`=>`"), never
//! pest rule names.

pub mod ast;
mod direction;
pub use direction::{direction_warnings, lone_return_warning};
pub mod format;
mod lower;
mod read;
pub(crate) use lower::nfc;
pub mod scan;

use crate::diag::Diagnostic;
use crate::source::{FileId, Span};
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/bfr.pest"]
struct BfrParser;

/// The largest file bfr reads; a generated edition of 10 MB is well within it.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// The stack pest runs on. pest does not look at the stack (it is built without
/// `std`), so this must hold the deepest text the pre-scan lets through: 64
/// brackets and 2,048 `if`s inside one another take 12–16 MiB in a debug build
/// and less than a third of that in a release build. It is reserved, not used:
/// the pages are only touched as deep as a text goes.
const PEST_STACK: usize = 64 * 1024 * 1024;

/// Stack pest may need per byte of text, with room to spare: every level of
/// nesting is at least one byte (`(`, or `if` for two), and the deepest text the
/// pre-scan allows takes under 8 KiB a level in a debug build (twice that here).
const PEST_STACK_PER_BYTE: usize = 16 * 1024;

/// Runs `f` (a pest parse of `text`) where the stack is deep enough for any text
/// the pre-scan lets through: in place when the stack left holds what the text
/// could need (a short expression, such as an incident's rule, on any thread),
/// else on a stack of [`PEST_STACK`] of its own.
fn with_pest_stack<T>(text: &str, f: impl FnOnce() -> T) -> T {
    let could_need = text
        .len()
        .saturating_mul(PEST_STACK_PER_BYTE)
        .saturating_add(64 * 1024)
        .min(PEST_STACK);
    stacker::maybe_grow(could_need, PEST_STACK, f)
}

/// A syntax problem found while lowering (bad number, bad date).
#[derive(Debug, Clone)]
pub(crate) struct SyntaxError {
    code: &'static str,
    message: String,
    span: Span,
    help: Option<String>,
}

impl SyntaxError {
    /// The code of [`SyntaxError::internal`].
    const INTERNAL: &'static str = "E0900";

    /// A shape the grammar allows but lowering does not expect: a bug in bfr.
    fn internal(span: Span) -> Self {
        SyntaxError {
            code: Self::INTERNAL,
            message: "internal error: the parser produced a shape bfr does not know".into(),
            span,
            help: Some("please report this file to the bfr developers".into()),
        }
    }

    fn into_diagnostic(self) -> Diagnostic {
        let d = Diagnostic::error(self.code, self.message, self.span);
        match self.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }
}

/// Parses one `.bfr` file.
///
/// The file is read one item at a time (`file_step`: an item or the end, from
/// where the last item ended). Each item is read by the direct reader
/// (`syntax::read`) where it can, else parsed by pest and lowered before the next is
/// read, so only one item's parse tree is held at a time. Reading `item*` step
/// by step accepts exactly what `file` accepts. Where an item fails to lower,
/// the rest of the file is still read step by step, so a syntax error anywhere
/// in the file is reported ahead of a problem found while lowering; a step that
/// fails is worded by a parse of `file` from the item before it, as a parse of
/// the whole file would word it, without pest holding the whole file's tokens.
pub fn parse_file(text: &str, file: FileId) -> Result<ast::File, Diagnostic> {
    parse_file_with(text, file, true)
}

/// [`parse_file`] for a check that goes on past a bad literal: a date not in
/// the calendar, a time of day past 23:59, a number too large, a duration's
/// parts out of order (E0006, E0007). Each is reported, in the order of the
/// file, and read as [`ast::ExprKind::Invalid`], an expression whose error is
/// said already, so the file's other items, and the edition's other files, are
/// still checked. A syntax error, or an item that cannot be read at all (an
/// expression nested too deep), gives no file: only the file's diagnostics.
pub fn parse_file_recovering(text: &str, file: FileId) -> (Option<ast::File>, Vec<Diagnostic>) {
    match read_file(text, file, true) {
        Ok(read) => {
            let errors = read.errors.into_iter().map(SyntaxError::into_diagnostic);
            (read.whole.then_some(read.file), errors.collect())
        }
        Err(syntax) => (None, vec![syntax]),
    }
}

/// [`parse_file`] by pest and the lowering alone, without the direct reader:
/// the reference the reader must agree with, tree and spans or diagnostic
/// (`syntax::read`'s tests and the `read` fuzz target compare the two).
pub fn parse_file_by_pest(text: &str, file: FileId) -> Result<ast::File, Diagnostic> {
    parse_file_with(text, file, false)
}

/// `e` wrapped in `count` prefix operators (`not`, `-`) written from the start
/// of `outer`, whose text is `text`: each spans to the end of its operand and
/// the brackets the operand closes, not the layout read after it, so that a
/// failing `not` line or a negative count is marked alone. The direct reader
/// and the pest lowering both wrap their prefixes here, and so agree.
pub(crate) fn under_prefixes(
    mut e: ast::Expr,
    count: usize,
    wrap: fn(Box<ast::Expr>) -> ast::ExprKind,
    outer: Span,
    text: &str,
) -> ast::Expr {
    let operand_end = e.span.end.saturating_sub(outer.start) as usize;
    let end = after_closing_brackets(text, operand_end);
    let span = Span {
        end: outer.start + u32::try_from(end).unwrap_or(0),
        ..outer
    };
    for _ in 0..count {
        e = ast::Expr {
            kind: wrap(Box::new(e)),
            span,
        };
    }
    e
}

/// Where a term that ends with an operand ends, brackets included: `from` is the
/// end of the operand's own span (a bracketed operand spans what is inside the
/// brackets) and `text[from..]` holds the layout and closing brackets after it;
/// the term ends after the last of those brackets, not after the layout.
fn after_closing_brackets(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut at, mut end) = (from, from);
    while let Some(&b) = bytes.get(at) {
        match b {
            b')' => {
                at += 1;
                end = at;
            }
            b' ' | b'\t' | b'\r' | b'\n' => at += 1,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at += bytes[at..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .unwrap_or(bytes.len() - at);
            }
            _ => break,
        }
    }
    end
}

/// [`parse_file`], with the direct reader (`direct`) or with pest alone: the
/// file, if it was read without an error, else the first error in the file.
fn parse_file_with(text: &str, file: FileId, direct: bool) -> Result<ast::File, Diagnostic> {
    let read = read_file(text, file, direct)?;
    match read.errors.into_iter().next() {
        Some(first) => Err(first.into_diagnostic()),
        None => Ok(read.file),
    }
}

/// A file read past its lowering errors.
struct ReadFile {
    /// The items read, bad literals as [`ast::ExprKind::Invalid`].
    file: ast::File,
    /// The errors found while lowering, in the order of the file.
    errors: Vec<SyntaxError>,
    /// Whether every item is in `file`: none failed to lower as a whole.
    whole: bool,
}

/// Reads a file item by item (see [`parse_file`]): a syntax error is the
/// error; past a lowering error the rest of the file is still read.
fn read_file(text: &str, file: FileId, direct: bool) -> Result<ReadFile, Diagnostic> {
    precheck(text, file, Whole::File)?;
    // pest recurses once per grammar level and does not look at the stack; run it
    // on a stack of its own, so the depth the pre-scan allows is safe on any thread.
    with_pest_stack(text, || {
        let lower = lower::Lower::new(file);
        let mut items = Vec::new();
        // Reported once the rest of the file is known to parse, as a syntax
        // error anywhere comes first.
        let mut errors = Vec::new();
        let mut whole = true;
        let mut at = 0;
        // Where the item before the one at `at` began: a syntax error is worded
        // from there (see [`syntax_error_after`]).
        let mut previous = 0;
        loop {
            if direct {
                match read::item(text, file, at) {
                    read::Step::Item(item, end) => {
                        items.push(*item);
                        (previous, at) = (at, end);
                        continue;
                    }
                    read::Step::End => break,
                    read::Step::Unread => {}
                }
            }
            let rest = text
                .get(at..)
                .ok_or_else(|| SyntaxError::internal(Span::new(file, at, at)).into_diagnostic())?;
            let step = BfrParser::parse(Rule::file_step, rest)
                .map_err(|_| syntax_error_after(file, text, previous))?
                .next()
                .and_then(|step| step.into_inner().find(|p| p.as_rule() == Rule::item));
            let Some(item) = step else {
                break;
            };
            let end = item.as_span().end();
            if end == 0 {
                // Unreachable: every declaration starts with a word.
                return Err(SyntaxError::internal(Span::new(file, at, at)).into_diagnostic());
            }
            lower.base.set(at);
            let lowered = lower.item(item);
            errors.append(&mut lower.bad_literals.borrow_mut());
            match lowered {
                Ok(item) => items.push(item),
                Err(e) => {
                    errors.push(e);
                    whole = false;
                }
            }
            (previous, at) = (at, at + end);
        }
        items.shrink_to_fit();
        Ok(ReadFile {
            file: ast::File { items },
            errors,
            whole,
        })
    })
}

/// The syntax error of a file whose items parse up to the one after the item
/// that begins at `previous`: worded as a parse of the whole file would word it,
/// from a parse of `file` that begins at `previous` (the item before may have
/// been tried past its end, where the error is), so the parser never holds more
/// than those two items, each bounded by the pre-scan.
fn syntax_error_after(file: FileId, text: &str, previous: usize) -> Diagnostic {
    let rest = text.get(previous..).unwrap_or(text);
    let base = if rest.len() == text.len() {
        0
    } else {
        previous
    };
    let found = moved_by(pest_error(Rule::file, file, rest), base);
    unclosed_brace_error(file, text, &found).unwrap_or(found)
}

/// The syntax error `found` said as a `{` left open, where the text shows one
/// (see [`scan::unclosed_brace`]) around the place the parser stopped: the
/// parser, trying the block's contents as far as they go, may stop at a row
/// that is well formed, far from the missing `}`. Where it stopped is kept as
/// a note.
fn unclosed_brace_error(file: FileId, text: &str, found: &Diagnostic) -> Option<Diagnostic> {
    let (brace, until) = scan::unclosed_brace(text)?;
    let stopped = found.span.start as usize;
    if stopped < brace || stopped > until {
        return None;
    }
    let line = |at: usize| {
        text.as_bytes()[..at.min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let d = Diagnostic::error(
        "E0001",
        format!("the `{{` opened at line {} is not closed", line(brace)),
        Span::new(file, brace, brace + 1),
    )
    .with_label("opened here, never closed");
    let d = if until < text.len() {
        let word: String = text[until..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (len, note) = if text[until..].starts_with('}') {
            (
                1,
                "this `}` is indented as the end of the block around it".to_string(),
            )
        } else if word.is_empty() {
            (1, "this line is not indented inside it".to_string())
        } else {
            (word.len(), format!("`{word}` is not indented inside it"))
        };
        d.with_note(Span::new(file, until, until + len), note)
            .with_help(format!("close it with `}}` before line {}", line(until)))
    } else {
        d.with_help("close it with `}`: the file ends with it open")
    };
    // Where reading stopped, unless it is the line just pointed at.
    Some(if stopped == until {
        d
    } else {
        d.with_note(
            found.span,
            format!("reading stopped here: {}", found.message),
        )
    })
}

/// `d` with its spans moved `base` bytes on: a diagnostic about a part of a
/// text, placed in the whole.
fn moved_by(mut d: Diagnostic, base: usize) -> Diagnostic {
    let by = u32::try_from(base).unwrap_or(u32::MAX);
    let shift = |s: &mut Span| {
        s.start = s.start.saturating_add(by);
        s.end = s.end.saturating_add(by);
    };
    shift(&mut d.span);
    d.notes.iter_mut().for_each(|(s, _)| shift(s));
    d
}

/// Parses an expression (as typed for `bfr eval`).
pub fn parse_expr(text: &str, file: FileId) -> Result<ast::Expr, Diagnostic> {
    parse_expr_at(text, file, 0)
}

/// Parses an expression that stands at byte `base` of `file` (an incident's rule
/// inside an event file): every span, a syntax error's included, points into the
/// file, without a copy of the file's text.
pub fn parse_expr_at(text: &str, file: FileId, base: usize) -> Result<ast::Expr, Diagnostic> {
    parse_expr_with(text, file, base, true)
}

/// [`parse_expr`] by pest and the lowering alone, without the direct reader
/// (see [`parse_file_by_pest`]).
pub fn parse_expr_by_pest(text: &str, file: FileId) -> Result<ast::Expr, Diagnostic> {
    parse_expr_with(text, file, 0, false)
}

/// [`parse_expr_at`], with the direct reader (`direct`) or with pest alone.
fn parse_expr_with(
    text: &str,
    file: FileId,
    base: usize,
    direct: bool,
) -> Result<ast::Expr, Diagnostic> {
    let moved = |d: Diagnostic| moved_by(d, base);
    precheck(text, file, Whole::Expression).map_err(moved)?;
    with_pest_stack(text, || {
        if let Some(e) = direct.then(|| read::expr_input(text, file, base)).flatten() {
            return Ok(e);
        }
        let mut pairs = BfrParser::parse(Rule::expr_input, text)
            .map_err(|_| moved(pest_error(Rule::expr_input, file, text)))?;
        let lower = lower::Lower::new(file);
        lower.base.set(base);
        let expr = pairs
            .next()
            .and_then(|p| p.into_inner().next())
            .ok_or_else(|| SyntaxError::internal(Span::default()).into_diagnostic())?;
        let lowered = lower.expr(expr);
        // A bad literal read on is the first error: lowering stops at any other.
        match lower.bad_literals.take().into_iter().next() {
            Some(first) => Err(first.into_diagnostic()),
            None => lowered.map_err(SyntaxError::into_diagnostic),
        }
    })
}

/// Held while pest records detail: the switch is one for the whole process, and
/// another thread's detailed parse ending would turn it off under this one (its
/// message would then lose the tokens it names, as tests run side by side saw).
static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Parses a text that failed again, recording every token pest tried at the
/// failing position, so the message can name literal tokens such as `=>`.
/// Only failed parses pay for the detail.
fn detailed(rule: Rule, text: &str) -> pest::error::Error<Rule> {
    // A panic elsewhere while it was held leaves nothing half done.
    let _one_at_a_time = DETAIL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    pest::set_error_detail(true);
    let result = BfrParser::parse(rule, text);
    pest::set_error_detail(false);
    match result {
        Err(e) => e,
        // Unreachable: the same text failed a moment ago.
        Ok(_) => pest::error::Error::new_from_pos(
            pest::error::ErrorVariant::CustomError {
                message: String::new(),
            },
            pest::Position::from_start(text),
        ),
    }
}

/// The literal tokens worth naming in "expected …": the ones that end or
/// separate parts. Expression starts and operators are summed up by the words
/// of [`describe`] ("an expression", "an operator").
const STRUCTURAL: [&str; 14] = [
    "=>", "->", "=", ":", ",", ";", "{", "}", ")", "]", "..", "then", "else", "in",
];

/// Words for ways an expression could go on; noise when a structural token such
/// as `=>` is also expected, since any expression could go on.
const CONTINUATIONS: [&str; 6] = [
    "an operator",
    "a position in brackets such as `[1]`",
    "a comparison such as `<=`",
    "arguments",
    "`.` and a name",
    "a range such as `5 min < late <= 10 min`",
];

/// Literal tokens the parser tried, in backticks; layout and comments left out.
fn literal_tokens(e: &pest::error::Error<Rule>) -> Vec<String> {
    let Some(attempts) = e.parse_attempts() else {
        return Vec::new();
    };
    // pest does not export its token type; it displays as the token itself,
    // `a..z` for a range of characters, or `BUILTIN_RULE`.
    attempts
        .expected_tokens()
        .into_iter()
        .map(|t| t.to_string())
        .filter(|t| {
            let chars: Vec<char> = t.chars().collect();
            let range = chars.len() == 4 && chars.get(1..3) == Some(&['.', '.'][..]);
            let layout = t.trim().is_empty() || t.starts_with("//") || t.contains('\u{feff}');
            let quote = t.starts_with('"') || t.starts_with('\\');
            !range && !layout && !quote && STRUCTURAL.contains(&t.as_str())
        })
        .map(|t| format!("`{t}`"))
        .collect()
}

/// What a text given to the parser is: a whole rules file, or one expression
/// (`bfr eval`, an incident's rule), whose help cannot speak of declarations.
#[derive(Clone, Copy)]
enum Whole {
    File,
    Expression,
}

/// The bounds that hold before pest runs: size, depth, and the length of a
/// declaration or a list.
fn precheck(text: &str, file: FileId, whole: Whole) -> Result<(), Diagnostic> {
    if text.len() > MAX_FILE_BYTES {
        let (what, help) = match whole {
            Whole::File => ("file", "split the edition into several files"),
            Whole::Expression => (
                "expression",
                "shorten it: give its parts a name with a `const` or a `fn` in the edition, \
                 and use them",
            ),
        };
        return Err(Diagnostic::error(
            "E0004",
            format!(
                "this {what} is {} bytes; bfr reads {what}s of at most {} bytes",
                text.len(),
                MAX_FILE_BYTES
            ),
            Span::new(file, 0, 0),
        )
        .with_help(help));
    }
    match scan::too_deep(text) {
        None => Ok(()),
        Some(scan::TooDeep::Brackets(at)) => Err(Diagnostic::error(
            "E0002",
            format!("brackets nested more than {} deep", scan::MAX_DEPTH),
            Span::new(file, at, at + 1),
        )
        .with_label("this bracket is one too deep")
        .with_help("name the inner part with `let` or a `fn`")),
        Some(scan::TooDeep::Open(at, len)) => Err(Diagnostic::error(
            "E0002",
            format!(
                "more than {} `if`, `let` and `match` inside one another",
                scan::MAX_OPEN
            ),
            Span::new(file, at, at + len),
        )
        .with_label("this one is one too many")
        .with_help("split it: give inner parts a name with a `const` or a `fn`")),
        Some(scan::TooDeep::Long(at, len)) => Err(Diagnostic::error(
            "E0011",
            format!(
                "more than {} words, numbers and signs in one declaration or expression",
                scan::MAX_PIECES
            ),
            Span::new(file, at, at + len),
        )
        .with_label("what begins here is too long")
        .with_help(match whole {
            Whole::File => {
                "split it into several declarations, giving parts a name with a `const` or a `fn`; \
                 a list holds at most 10,000 values"
            }
            Whole::Expression => {
                "shorten it: give its parts a name with a `const` or a `fn` in the edition, \
                 and use them"
            }
        })),
        Some(scan::TooDeep::LongList(at)) => Err(Diagnostic::error(
            "E0208",
            format!(
                "this list has more than {} commas; a list holds at most {} values",
                scan::MAX_LIST_LEN,
                scan::MAX_LIST_LEN
            ),
            Span::new(file, at, at + 1),
        )
        .with_label("this list is too long")
        .with_help("split the values over several rules, or compute them with a `fn`")),
    }
}

/// The words for what the parser expected.
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        EOI => "the end of the file",
        item | decl => "a declaration (`const`, `fn`, `scale`, `table`, `enum`, …)",
        ident => "a name",
        unit_name | unit_expr => "a unit",
        type_expr => "a type",
        source_ref => "`ref`",
        rule_id => "a rule ID such as `CC-LATE`",
        pages => "a page such as `p.20`",
        string | string_inner => "a quoted text",
        expr | not_term | arith | unary | postfix | expr_input => "an expression",
        number => "a number",
        quantity => "a quantity such as `2 VP`",
        duration | dur_part => "a duration such as `5 min`",
        date | date_lit => "a date such as `2015-07-24`",
        datetime => "a date and time",
        clock | time_lit => "a time such as `20:00`",
        weekday => "a weekday",
        range | range_between | range_lower | range_cmp => {
            "a range such as `5 min < late <= 10 min`"
        }
        bound => "a bound (a number or a quantity)",
        scale_arm => "a scale row `range => value`",
        table_row | table_key => "a table row `Key => value`",
        variant => "an enum variant",
        field => "a field `name: type`",
        param | params => "a parameter list `(name: type)`",
        returns => "`->` and a result type",
        fn_body | block => "`=` and the function's body",
        property => "a property `name = value`",
        route | route_from => "a route such as `winners -> next_stage`",
        route_target => "a stage, `out` or `place N`",
        places_from => "places such as `places 1..32`",
        places_kw => "`places`",
        place_kw => "`place`",
        out_target => "`out`",
        route_bound | target_bound => {
            "a place number (a whole number, a const, or arithmetic on them)"
        }
        call_args | arg => "arguments",
        list_type => "a list type such as `[VP]`",
        list_lit => "a list such as `[1 VP, 2 VP]`",
        index => "a position in brackets such as `[1]`",
        lambda | lambda_params => "a function such as `x => x * 2`",
        member => "`.` and a name",
        match_arm => "a match arm `Pattern => value`",
        pattern => "a pattern",
        penalty => "a penalty",
        lt_op => "`<` or `<=`",
        cmp_op => "a comparison such as `<=`",
        add_op | mul_op => "an operator",
        edition_field => "`amends`, `source`, `document`, `updated` or `period`",
        remove_target | remove_example => "a name, or `example` and its title",
        stage_decl => "a `stage`",
        stage_defaults => "`stages { … }`",
        assertion => "an assertion",
        boolean => "`true` or `false`",
        _ => return None,
    })
}

fn pest_error(rule: Rule, file: FileId, text: &str) -> Diagnostic {
    let e = detailed(rule, text);
    use pest::error::InputLocation;
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    // Point at the word the parser could not take, not at an empty position.
    let word_end = text
        .get(start..)
        .and_then(|rest| {
            rest.char_indices()
                .find(|(_, c)| c.is_whitespace())
                .map(|(i, _)| start + i)
        })
        .unwrap_or(text.len());
    let end = end.max(word_end).max(start);
    let found = text.get(start..end).unwrap_or("");
    let word: String = found
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    // A keyword glued to the word found (`thenx`), or to the word before it,
    // taken whole as something else (`1 elsefee`: `elsefee` the unit of `1`).
    // The word before counts only where standing apart lets the text be
    // read past the error itself, not merely past the word.
    let glued = glued_keyword(rule, text, start, &word, start + word.len())
        .map(|k| (word.clone(), k))
        .or_else(|| {
            let (at, before) = word_before(text, start)?;
            Some((
                before.to_string(),
                glued_keyword(rule, text, at, before, start)?,
            ))
        });
    let mut literals = literal_tokens(&e);
    // A keyword glued to a name is a token the text could take here, though
    // the parser, seeing one longer name, never tried it.
    if let Some((_, k)) = glued.as_ref().filter(|(_, k)| STRUCTURAL.contains(k)) {
        literals.push(format!("`{k}`"));
    }
    let expected = expected_words(&e, &literals, rule);
    let message = if expected.is_empty() {
        "this text is not valid here".to_string()
    } else if expected.len() == 1 {
        format!("expected {}", expected.join(""))
    } else {
        let (last, rest) = expected.split_last().unwrap_or((&"", &[]));
        format!("expected {} or {}", rest.join(", "), last)
    };
    // A reserved word where a name was expected: the likely cause, marked alone,
    // without the `:` or `(` glued to it.
    let reserved_name = expected.contains(&"a name") && RESERVED.contains(&word.as_str());
    let (end, found) = if reserved_name {
        (start + word.len(), word.as_str())
    } else {
        (end, found)
    };
    let label = if found.is_empty() {
        "the text ends here".to_string()
    } else {
        format!("found `{}`", found.chars().take(40).collect::<String>())
    };
    let d = Diagnostic::error("E0001", message, Span::new(file, start, end)).with_label(label);
    if reserved_name {
        return d.with_help(format!(
            "`{word}` is a reserved word of the language and cannot be a name; choose another, e.g. `{word}_`"
        ));
    }
    if expected.contains(&"an expression") && (word == "if" || word == "let") {
        return d.with_help(format!(
            "an `{word}` is a whole expression, not an operand (its last part would take everything after it): put it in brackets, `({word} …)`"
        ));
    }
    // Where a `,` fits (a list, a call's arguments), `[10 200]` more likely
    // lacks one.
    let in_list = expected.contains(&"`,`");
    if let Some(help) = number_written_locally(text, start, in_list) {
        return d.with_help(help);
    }
    if let Some(help) = moment_written_locally(text, start, found) {
        return d.with_help(help);
    }
    match glued.and_then(|(w, k)| Some((k, w.get(k.len()..)?.to_string(), w))) {
        Some((k, rest, w)) => d.with_help(format!(
            "`{w}` reads as one name; a keyword stands apart from what follows: write `{k} {rest}`"
        )),
        None => d,
    }
}

/// What the parser expected, in words: the literal tokens worth naming, then
/// the descriptions of the rules it tried, sorted, without repeats or noise.
/// The end of the text is the end of what `whole` reads: a file, or an
/// expression (on the command line, an incident's rule).
fn expected_words<'a>(
    e: &pest::error::Error<Rule>,
    literals: &'a [String],
    whole: Rule,
) -> Vec<&'a str> {
    let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant else {
        return Vec::new();
    };
    let mut words: Vec<&str> = literals.iter().map(String::as_str).collect();
    let described = |r: &Rule| match r {
        Rule::EOI if whole == Rule::expr_input => Some("the end of the expression"),
        _ => describe(*r),
    };
    for w in positives.iter().filter_map(described) {
        // "`->` and a result type" says no more than "`->`".
        let repeats = literals.iter().any(|l| w.starts_with(l.as_str()));
        let noise = CONTINUATIONS.contains(&w) && !literals.is_empty();
        if !repeats && !noise {
            words.push(w);
        }
    }
    words.sort_unstable();
    words.dedup();
    words
}

/// The words a top-level declaration starts with (`decl` in the grammar), for
/// the formatter's layout. `notice`, `entries` and `federation` are names too
/// elsewhere; the others never are, and only those mark a declaration
/// wherever they stand (the pre-scan's `scan::starts_declaration`).
pub const DECLARATION_STARTS: [&str; 16] = [
    "edition",
    "unit",
    "enum",
    "record",
    "table",
    "scale",
    "fn",
    "const",
    "reading",
    "example",
    "procedure",
    "competition",
    "notice",
    "entries",
    "federation",
    "remove",
];

/// Reserved words the grammar also reads as names: each is a keyword only
/// before text (a penalty's `refer "…"`, a declaration's `notice "…"`) and a
/// name anywhere else (`refer(x)` calls a fn named `refer`).
pub const KEYWORDS_BEFORE_TEXT: [&str; 2] = ["refer", "notice"];

/// Words that are keywords only where they stand (`stages { … }`, a route's
/// `places`), names everywhere else.
pub const CONTEXTUAL: [&str; 12] = [
    "amends",
    "document",
    "entries",
    "federation",
    "period",
    "source",
    "stages",
    "updated",
    "places",
    "place",
    "out",
    "count",
];

/// The word that ends before `start`, past layout, and where it starts.
fn word_before(text: &str, start: usize) -> Option<(usize, &str)> {
    let before = text.get(..start)?.trim_end();
    let from = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map(|(i, _)| i)?;
    let word = before.get(from..)?;
    word.starts_with(|c: char| c.is_alphabetic())
        .then_some((from, word))
}

/// A date or time written as Swedish text writes it, where the parser stopped
/// at `start` on `found`: a weekday in Swedish before a date (`Lör 2016-07-23`),
/// a time with a point (`20.00`, as the document writes times). The way the
/// language writes it.
fn moment_written_locally(text: &str, start: usize, found: &str) -> Option<String> {
    // Swedish weekdays, folded: a word before a date that begins one (at least
    // two letters: `tis`, `tors`, `lördag`) is that day.
    const WEEKDAYS: [(&str, &str); 7] = [
        ("mandag", "Mon"),
        ("tisdag", "Tue"),
        ("onsdag", "Wed"),
        ("torsdag", "Thu"),
        ("fredag", "Fri"),
        ("lordag", "Sat"),
        ("sondag", "Sun"),
    ];
    let is_date = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 10
            && b[..10].iter().enumerate().all(|(i, c)| match i {
                4 | 7 => *c == b'-',
                _ => c.is_ascii_digit(),
            })
    };
    // The word before the date, with the point of an abbreviation (`sön.`).
    let head = text.get(..start)?.trim_end().trim_end_matches('.');
    let before = &head[head
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(head.len(), |(i, _)| i)..];
    let before = crate::names::folded(before);
    if is_date(found)
        && before.chars().count() >= 2
        && let Some((_, english)) = WEEKDAYS.iter().find(|(sv, _)| sv.starts_with(&*before))
    {
        let date = found.get(..10).unwrap_or(found);
        return Some(format!(
            "weekdays are written in English, three letters: `{english} {date}`"
        ));
    }
    let time: &str = found.trim_end_matches(|c: char| !c.is_ascii_digit());
    let (h, m) = time.split_once('.')?;
    let clock = (1..=2).contains(&h.len())
        && m.len() == 2
        && h.bytes().chain(m.bytes()).all(|c| c.is_ascii_digit())
        && h.parse::<u8>().is_ok_and(|h| h <= 23)
        && m.parse::<u8>().is_ok_and(|m| m <= 59);
    let after_date = text
        .get(..start)
        .map(str::trim_end)
        .and_then(|head| head.get(head.len().checked_sub(10)?..))
        .is_some_and(is_date);
    (clock && after_date).then(|| format!("a time is written with a colon: `{h}:{m}`"))
}

/// A number written as Swedish text writes it — a decimal comma (`99,50`), a
/// space between thousands (`2 000`) — where the parser stopped at `start`:
/// the number as the language writes it. `in_list`: where a `,` between two
/// values fits as well, which is said first.
fn number_written_locally(text: &str, start: usize, in_list: bool) -> Option<String> {
    let digits_before = |end: usize| {
        let head = text.get(..end)?;
        let from = head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        (from < end).then(|| &head[from..])
    };
    let digits_after = |from: usize| {
        let tail = text.get(from..)?;
        let len = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (len > 0).then(|| &tail[..len])
    };
    let rest = text.get(start..)?;
    if rest.starts_with(',') {
        let whole = digits_before(start)?;
        let fraction = digits_after(start + 1)?;
        return Some(format!(
            "a decimal is written with a point, not a comma: `{whole}.{fraction}`"
        ));
    }
    // `2 000`: digits, one space, then three digits and no more.
    let thousands = digits_after(start).filter(|d| d.len() == 3)?;
    let space = start
        .checked_sub(1)
        .filter(|&i| text.as_bytes().get(i) == Some(&b' '))?;
    let whole = digits_before(space)?;
    // Digits that end a decimal (`1.5 200`) or a name (`x1 200`) are no number's.
    let before = text.get(..space - whole.len()).unwrap_or_default();
    if before.ends_with(|c: char| c == '.' || c == '_' || c.is_alphanumeric()) {
        return None;
    }
    let mut groups = vec![whole, thousands];
    let mut at = start + thousands.len();
    while text.as_bytes().get(at) == Some(&b' ') {
        match digits_after(at + 1).filter(|d| d.len() == 3) {
            Some(group) => {
                groups.push(group);
                at += 1 + group.len();
            }
            None => break,
        }
    }
    let number = groups.concat();
    if in_list {
        return Some(format!(
            "values are separated by `,` (`{}`); one number is written without spaces between its thousands: `{number}`",
            groups.join(", ")
        ));
    }
    Some(format!(
        "a number is written without spaces between its thousands: `{number}` (two values are separated by `,`)"
    ))
}

/// A keyword glued to the next word (`thenx`) reads as one name. When `word`
/// (at `start`) begins with a keyword, and the text reads past `past` once the
/// two stand apart, that keyword: one more parse, made only for an error.
fn glued_keyword(
    rule: Rule,
    text: &str,
    start: usize,
    word: &str,
    past: usize,
) -> Option<&'static str> {
    let keywords = RESERVED.iter().chain(CONTEXTUAL.iter());
    keywords
        .filter(|k| word.len() > k.len() && word.starts_with(*k))
        .find(|k| {
            let split = start + k.len();
            let (Some(before), Some(after)) = (text.get(..split), text.get(split..)) else {
                return false;
            };
            match BfrParser::parse(rule, &format!("{before} {after}")) {
                Ok(_) => true,
                Err(e) => match e.location {
                    pest::error::InputLocation::Pos(p)
                    | pest::error::InputLocation::Span((p, _)) => p > past + 1,
                },
            }
        })
        .copied()
}

/// Where the `]` that closes a list stands in `rest`, the text after its last
/// value (or after its `[`): past layout and one trailing comma, so that a `]`
/// in a comment is not taken for it.
pub(crate) fn list_close(rest: &str) -> Option<usize> {
    let mut at = 0;
    let mut comma = false;
    loop {
        let r = rest.get(at..)?;
        let c = r.chars().next()?;
        match c {
            ']' => return Some(at),
            ',' if !comma => {
                comma = true;
                at += 1;
            }
            ' ' | '\n' | '\t' | '\r' | '\u{FEFF}' => at += c.len_utf8(),
            '/' if r.starts_with("//") => at += r.find('\n').unwrap_or(r.len()),
            _ => return None,
        }
    }
}

/// The language's reserved words (the grammar's `keyword` rule, written there as
/// a trie; `refer` and `notice` are reserved but, as ever, also read as names).
pub const RESERVED: [&str; 38] = [
    "reading",
    "edition",
    "unit",
    "enum",
    "record",
    "table",
    "scale",
    "fn",
    "const",
    "example",
    "procedure",
    "competition",
    "stage",
    "qualification",
    "ref",
    "domain",
    "if",
    "then",
    "else",
    "match",
    "let",
    "in",
    "and",
    "or",
    "not",
    "true",
    "false",
    "warning",
    "deduct",
    "refer",
    "forfeit",
    "contradicts",
    "alias",
    "whole",
    "notice",
    "as",
    "cites",
    "remove",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_literal_is_read_as_invalid_and_reported_in_the_order_of_the_file() {
        let text = "const a: date ref X-A = 2015-02-30\n\
                    const b: number ref X-B = 1 + 99999999999999999999999999999\n\
                    const c: time ref X-C = 24:10\n\
                    const d: number ref X-D = 2\n";
        let (file, errors) = parse_file_recovering(text, 3);
        let file = file.expect("bad literals leave the file readable");
        assert_eq!(file.items.len(), 4);
        let codes: Vec<&str> = errors.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0007", "E0006", "E0007"]);
        let starts: Vec<u32> = errors.iter().map(|d| d.span.start).collect();
        assert!(starts.is_sorted(), "{starts:?}");
        let ast::Decl::Const(a) = &file.items[0].decl else {
            panic!("a const");
        };
        assert_eq!(a.value.kind, ast::ExprKind::Invalid("2015-02-30".into()));
        // Read strictly, the first error is the file's; an expression with a bad
        // literal is refused, not read as invalid.
        assert_eq!(parse_file(text, 3).unwrap_err().message, errors[0].message);
        let d = parse_expr("1 + 2015-02-30", 0).unwrap_err();
        assert_eq!(d.code, "E0007");
    }

    #[test]
    fn a_syntax_error_or_an_item_too_deep_gives_no_file() {
        let (file, errors) = parse_file_recovering("const a: date = 2015-02-30\nconst", 0);
        assert!(file.is_none());
        assert_eq!(errors.len(), 1);
        assert_ne!(errors[0].code, "E0007", "the syntax error comes alone");
        let deep = format!(
            "const a: time ref X-A = 24:10\nconst b: number ref X-B = {}1\n",
            "not ".repeat(lower::MAX_EXPR_DEPTH + 1)
        );
        let (file, errors) = parse_file_recovering(&deep, 0);
        assert!(file.is_none());
        let codes: Vec<&str> = errors.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0007", "E0002"]);
    }

    #[test]
    fn an_expression_over_the_size_limit_is_told_to_name_its_parts() {
        let text = "1".repeat(MAX_FILE_BYTES + 1);
        let d = parse_expr(&text, 0).unwrap_err();
        assert_eq!(d.code, "E0004");
        assert!(d.message.starts_with("this expression is"), "{}", d.message);
        assert!(d.help.as_deref().is_some_and(|h| h.contains("`fn`")));
        let d = parse_file(&text, 0).unwrap_err();
        assert!(d.message.starts_with("this file is"), "{}", d.message);
        assert_eq!(
            d.help.as_deref(),
            Some("split the edition into several files")
        );
    }

    #[test]
    fn a_number_written_the_swedish_way_gets_the_way_the_language_writes_it() {
        let help = |value: &str| {
            let text = format!("unit SEK \"kronor\"\nconst fee: SEK ref X-1 = {value} SEK\n");
            parse_file(&text, 0).unwrap_err().help.unwrap_or_default()
        };
        assert_eq!(
            help("99,50"),
            "a decimal is written with a point, not a comma: `99.50`"
        );
        assert_eq!(
            help("2 000"),
            "a number is written without spaces between its thousands: `2000` (two values are separated by `,`)"
        );
        assert_eq!(
            help("1 250 000"),
            "a number is written without spaces between its thousands: `1250000` (two values are separated by `,`)"
        );
        // Where a `,` fits, the missing `,` comes first.
        let help = |text: &str| parse_file(text, 0).unwrap_err().help.unwrap_or_default();
        assert_eq!(
            help("const xs: [number] = [10 200]\n"),
            "values are separated by `,` (`10, 200`); one number is written without spaces between its thousands: `10200`"
        );
        assert_eq!(
            help("const xs: [number] = [1 250 000]\n"),
            "values are separated by `,` (`1, 250, 000`); one number is written without spaces between its thousands: `1250000`"
        );
        assert!(!help("const xs: [number] = [1.5 200]\n").contains("5200"));
        assert!(!help("const x: number = f(x1 200)\n").contains("1200"));
        assert_eq!(
            help("const x: number = f(10 200)\n"),
            "values are separated by `,` (`10, 200`); one number is written without spaces between its thousands: `10200`"
        );
    }

    #[test]
    fn a_date_or_time_written_the_swedish_way_gets_the_way_the_language_writes_it() {
        let help = |value: &str| {
            let text = format!("const deadline: datetime ref X-1 = {value}\n");
            parse_file(&text, 0).unwrap_err().help.unwrap_or_default()
        };
        assert_eq!(
            help("Lör 2016-07-23 12:00"),
            "weekdays are written in English, three letters: `Sat 2016-07-23`"
        );
        assert_eq!(
            help("sön. 2016-07-24 12:00"),
            "weekdays are written in English, three letters: `Sun 2016-07-24`"
        );
        assert_eq!(
            help("Fri 2016-07-22 20.00"),
            "a time is written with a colon: `20:00`"
        );
        assert_eq!(
            help("2016-07-22 9.45"),
            "a time is written with a colon: `9:45`"
        );
        // A decimal that is no time of day stays a decimal's problem.
        assert!(!help("2016-07-22 20.5").contains("colon"));
        assert!(!help("2016-07-22 25.00").contains("colon"));
        // Weekdays in full or cut short as a Swedish text writes them.
        for (sv, en) in [
            ("Tors", "Thu"),
            ("lördag", "Sat"),
            ("MÅNDAG", "Mon"),
            ("fr", "Fri"),
        ] {
            assert_eq!(
                help(&format!("{sv} 2016-07-23 12:00")),
                format!("weekdays are written in English, three letters: `{en} 2016-07-23`")
            );
        }
        assert!(!help("t 2016-07-23 12:00").contains("weekdays"));
    }

    #[test]
    fn a_list_ends_at_its_own_bracket_not_one_in_a_comment() {
        let text = "const x: [number] = [1, 2, // a ] here\n]\n";
        let file = parse_file(text, 0).expect("parses");
        let Some(ast::Decl::Const(c)) = file.items.first().map(|i| &i.decl) else {
            panic!("a const");
        };
        let list = &text[c.value.span.start as usize..c.value.span.end as usize];
        assert_eq!(list, "[1, 2, // a ] here\n]");
        assert_eq!(Some(&file), parse_file_by_pest(text, 0).ok().as_ref());
        assert_eq!(list_close(" , // ]\n ]"), Some(9));
        assert_eq!(list_close(", , ]"), None);
    }

    #[test]
    fn reserved_words_match_the_grammar() {
        // The grammar's `keyword` rule is a trie; every reserved word is one
        // whole keyword, and no longer or shorter word is.
        let whole =
            |w: &str| BfrParser::parse(Rule::keyword, w).is_ok_and(|p| p.as_str().len() == w.len());
        for w in RESERVED {
            // `refer` and `notice` have always been names as well (see the grammar).
            assert_eq!(whole(w), !["refer", "notice"].contains(&w), "{w}");
            assert!(!whole(&format!("{w}x")) && !whole(&format!("{w}_")), "{w}");
            assert!(!whole(&w[..w.len() - 1]) || RESERVED.contains(&&w[..w.len() - 1]));
        }
        for name in [
            "fee",
            "reference",
            "notify",
            "ifs",
            "a",
            "ex",
            "stages",
            "refers",
        ] {
            assert!(!whole(name), "{name}");
        }
        // Every word the trie accepts is in the list: walk all words the trie
        // could spell, letter by letter, pruning where no keyword begins.
        let mut found = Vec::new();
        let mut prefixes = vec![String::new()];
        while let Some(prefix) = prefixes.pop() {
            for c in 'a'..='z' {
                let w = format!("{prefix}{c}");
                if whole(&w) {
                    found.push(w.clone());
                }
                if RESERVED.iter().any(|r| r.starts_with(&w)) {
                    prefixes.push(w);
                }
            }
        }
        found.sort_unstable();
        let mut ours: Vec<String> = RESERVED
            .iter()
            .filter(|w| !["refer", "notice"].contains(w))
            .map(|w| w.to_string())
            .collect();
        ours.sort_unstable();
        assert_eq!(found, ours);
    }

    #[test]
    fn a_structural_keyword_glued_to_a_name_is_named_as_expected() {
        for (text, keyword) in [
            ("if a then b elsex c", "`else`"),
            ("if a thenx 1 else 2", "`then`"),
            ("let a = b inx + 1", "`in`"),
            // The glued word taken whole as a unit: the error comes after.
            ("if a then 1 elsefee", "`else`"),
            ("if a then 1 elsefee\n", "`else`"),
        ] {
            let d = parse_expr(text, 0).expect_err(text);
            assert!(d.message.starts_with("expected "), "{text}: {}", d.message);
            assert!(d.message.contains(keyword), "{text}: {}", d.message);
            assert!(
                d.help
                    .as_deref()
                    .is_some_and(|h| h.contains("reads as one name")),
                "{text}"
            );
        }
    }

    #[test]
    fn a_name_before_an_error_that_begins_like_a_keyword_is_not_taken_for_one() {
        // `not es 2` fails where `notes 2` does: `notes` is a name.
        for text in ["notes 2", "if a then 1 elsex 2", "inside 3"] {
            let d = parse_expr(text, 0).expect_err(text);
            assert!(d.help.is_none(), "{text}: {:?}", d.help);
        }
    }

    #[test]
    fn every_word_of_the_grammar_outside_the_trie_is_reserved_contextual_or_of_a_value() {
        // The glued-keyword help knows the words by these two lists: a word
        // the grammar gains must join one of them, and a word it loses leave.
        // Weekdays and the units of a duration are words of values.
        let values = [
            "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "h", "min", "s",
        ];
        let grammar = include_str!("../../grammar/bfr.pest");
        let mut words = std::collections::BTreeSet::new();
        let mut in_trie = false;
        for line in grammar.lines() {
            let code = line.split("//").next().unwrap_or("");
            in_trie = code.starts_with("keyword") || (in_trie && !code.starts_with('}'));
            if in_trie {
                continue;
            }
            let quoted = code.split('"').skip(1).step_by(2);
            words.extend(
                quoted.filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic())),
            );
        }
        let unlisted: Vec<_> = words
            .iter()
            .filter(|w| !RESERVED.contains(w) && !CONTEXTUAL.contains(w) && !values.contains(w))
            .collect();
        assert!(unlisted.is_empty(), "words in neither list: {unlisted:?}");
        for w in CONTEXTUAL {
            assert!(words.contains(w), "`{w}` is no longer in the grammar");
            assert!(!RESERVED.contains(&w), "`{w}` is in both lists");
        }
    }

    #[test]
    fn the_reserved_words_that_may_name_a_rule_are_keywords_only_before_text() {
        for word in RESERVED {
            let named = parse_file(&format!("fn {word}(x: integer) -> integer = x"), 0).is_ok();
            assert_eq!(named, KEYWORDS_BEFORE_TEXT.contains(&word), "`{word}`");
        }
        for (text, word) in [
            ("const c: integer = refer(1)", "refer"),
            ("const c: penalty = refer \"x\"", "refer"),
            ("notice \"x\"", "notice"),
        ] {
            assert!(parse_file(text, 0).is_ok(), "{text}");
            assert!(KEYWORDS_BEFORE_TEXT.contains(&word));
        }
    }

    #[test]
    fn the_declaration_words_are_those_the_grammar_starts_a_declaration_with() {
        let grammar = include_str!("../../grammar/bfr.pest");
        let rule = |name: &str| {
            grammar
                .lines()
                .find(|l| {
                    let mut words = l.split_whitespace();
                    words.next() == Some(name) && words.next() == Some("=")
                })
                .unwrap_or_default()
        };
        let first_word = |line: &str| {
            line.split('"')
                .skip(1)
                .step_by(2)
                .find(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic()))
                .map(str::to_string)
        };
        let alternatives = grammar
            .split("decl = _{")
            .nth(1)
            .and_then(|rest| rest.split('}').next())
            .unwrap_or_default();
        let mut starts: std::collections::BTreeSet<String> = alternatives
            .split('|')
            .filter_map(|alt| first_word(rule(alt.trim())))
            .collect();
        // A const may start with `reading` instead.
        starts.extend(first_word(rule("reading_kw")));
        let listed = DECLARATION_STARTS.iter().map(|w| w.to_string()).collect();
        assert_eq!(starts, listed);
    }

    #[test]
    fn route_places_are_expressions_and_stage_names_may_start_like_keywords() {
        let text = "competition c { qualification q { places 1..n -> place_x \
                    places n + 1 place .. 2 * n -> place 5..m + 4
                    rest -> outer } \
                    stage place_x { winners -> place 1  losers -> place n + 1 place } }";
        let file = parse_file(text, 0).unwrap();
        let Some(ast::Decl::Competition(c)) = file.items.first().map(|i| &i.decl) else {
            panic!("a competition");
        };
        let routes = &c.stages[0].routes;
        assert_eq!(routes.len(), 3);
        assert!(matches!(&routes[0].to, ast::RouteTarget::Stage(n) if n.text == "place_x"));
        assert!(matches!(&routes[1].from, ast::RouteFrom::Places(a, b)
            if matches!(a.kind, ast::ExprKind::Binary(..)) && matches!(b.kind, ast::ExprKind::Binary(..))));
        assert!(matches!(&routes[1].to, ast::RouteTarget::Place(..)));
        assert!(matches!(&routes[2].to, ast::RouteTarget::Stage(n) if n.text == "outer"));
        let routes = &c.stages[1].routes;
        assert!(matches!(&routes[0].to, ast::RouteTarget::Place(a, _)
            if matches!(a.kind, ast::ExprKind::Number(..))));
        assert!(matches!(&routes[1].to, ast::RouteTarget::Place(a, _)
            if matches!(a.kind, ast::ExprKind::Binary(..))));
    }

    #[test]
    fn a_reserved_word_as_a_name_is_explained() {
        let text = "fn f(stage: integer) -> integer ref T-1 p.1 \"x\" = 1";
        let d = parse_file(text, 0).unwrap_err();
        assert_eq!(d.code, "E0001");
        assert!(d.help.unwrap().contains("`stage` is a reserved word"));
        // The word alone, not the `:` after it.
        assert_eq!(&text[d.span.start as usize..d.span.end as usize], "stage");
        assert_eq!(d.label, "found `stage`");
    }
}
