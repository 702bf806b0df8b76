//! Parse tree → AST. The only module (with its children: [`decl`], [`competition`],
//! [`expr`]) besides `syntax/mod.rs` that sees pest's `Pair`s.

mod competition;
mod decl;
mod expr;

use super::ast::*;
use super::{Rule, SyntaxError};
use crate::source::{FileId, Span};
use pest::iterators::Pair;
use std::cell::{Cell, RefCell};

type P<'a> = Pair<'a, Rule>;
type R<T> = Result<T, SyntaxError>;

/// Lowers the pairs of one parse into AST nodes that carry `file` in their spans.
///
/// It also bounds how deep the expression trees it builds are. Brackets are
/// bounded by the pre-scan, but `if`, `let`, `not`, a leading `-` and chains
/// of operators nest without brackets; every later stage walks (and finally
/// drops) the tree recursively, so a tree deeper than [`MAX_EXPR_DEPTH`] is
/// refused here with a diagnostic instead of overflowing a stack later.
pub(super) struct Lower {
    pub(super) file: FileId,
    /// How many expression nodes enclose the one being lowered.
    pub(super) depth: Cell<usize>,
    /// How many calls of [`Lower::expr`] are under way: the stack is looked at
    /// once every [`STACK_CHECK_EVERY`] of them rather than at every node.
    calls: Cell<usize>,
    /// Where in the file the text that pest parsed begins: a file is parsed one
    /// item at a time, each from its own start (see `syntax::parse_file`).
    pub(super) base: Cell<usize>,
    /// The errors of literals read as [`ExprKind::Invalid`] (see
    /// [`Lower::literal`]), taken by the reader after each item.
    pub(super) bad_literals: RefCell<Vec<SyntaxError>>,
}

/// How many nested [`Lower::expr`] calls may pass between two looks at the stack.
/// One call is a handful of frames; with a red zone of 1 MiB, a run of 16 of
/// them fits even in a debug build's large frames.
const STACK_CHECK_EVERY: usize = 16;

/// The deepest expression tree bfr builds. Real rules stay below 30.
pub const MAX_EXPR_DEPTH: usize = 1024;

impl Lower {
    /// A lowerer for one file.
    pub(super) fn new(file: FileId) -> Self {
        Lower {
            file,
            depth: Cell::new(0),
            calls: Cell::new(0),
            base: Cell::new(0),
            bad_literals: RefCell::new(Vec::new()),
        }
    }

    /// Runs `f` with `levels` more enclosing expression nodes; refuses to go
    /// deeper than [`MAX_EXPR_DEPTH`].
    fn nested<T>(&self, levels: usize, span: Span, f: impl FnOnce() -> R<T>) -> R<T> {
        let outer = self.depth.get();
        let inner = outer.saturating_add(levels);
        if inner > MAX_EXPR_DEPTH {
            return Err(SyntaxError {
                code: "E0002",
                message: format!(
                    "this expression is more than {MAX_EXPR_DEPTH} levels deep (each operator, `if`, `let`, `not` or `-` adds one)"
                ),
                span,
                help: Some("split it: give inner parts a name with a `const` or a `fn`".into()),
            });
        }
        self.depth.set(inner);
        let out = f();
        self.depth.set(outer);
        out
    }

    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        self.at(s.start(), s.end())
    }

    /// The span of bytes `start..end` of the parsed text.
    fn at(&self, start: usize, end: usize) -> Span {
        let base = self.base.get();
        Span::new(self.file, base + start, base + end)
    }

    fn name(&self, p: &P) -> Name {
        Name {
            text: nfc(p.as_str()),
            span: self.span(p),
        }
    }

    fn err(&self, p: &P, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            code: "E0006",
            message: message.into(),
            span: self.span(p),
            help: None,
        }
    }

    /// One declaration with its doc comments.
    pub(super) fn item(&self, p: P) -> R<Item> {
        let span = self.span(&p);
        let mut doc = Vec::new();
        let mut decl = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::doc => doc.push(
                    c.into_inner()
                        .next()
                        .map_or(String::new(), |t| t.as_str().trim().to_string()),
                ),
                _ => decl = Some(self.decl(c)?),
            }
        }
        let decl = decl.ok_or_else(|| SyntaxError::internal(span))?;
        Ok(Item { doc, decl, span })
    }

    fn decl(&self, p: P) -> R<Decl> {
        Ok(match p.as_rule() {
            Rule::edition_decl => Decl::Edition(Box::new(self.edition(p)?)),
            Rule::unit_decl => Decl::Unit(Box::new(self.unit_decl(p))),
            Rule::enum_decl => Decl::Enum(Box::new(self.enum_decl(p))),
            Rule::record_decl => Decl::Record(Box::new(self.record_decl(p))),
            Rule::table_decl => Decl::Table(Box::new(self.table_decl(p)?)),
            Rule::scale_decl => Decl::Scale(Box::new(self.scale_decl(p)?)),
            Rule::fn_decl => Decl::Fn(Box::new(self.fn_decl(p)?)),
            Rule::const_decl => Decl::Const(Box::new(self.const_decl(p)?)),
            Rule::example_decl => Decl::Example(Box::new(self.example_decl(p)?)),
            Rule::text_decl => Decl::Text(Box::new(self.text_decl(p))),
            Rule::competition_decl => Decl::Competition(Box::new(self.competition(p)?)),
            Rule::entries_decl => Decl::Entries(Box::new(self.entries(p)?)),
            Rule::federation_decl => Decl::Federation(Box::new(self.entries(p)?)),
            Rule::remove_decl => Decl::Remove(Box::new(self.remove_decl(p))),
            Rule::notice_decl => {
                let span = self.span(&p);
                let mut n = NoticeDecl {
                    text: String::new(),
                    source: None,
                    span,
                };
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::string => {
                            n.text = string_value(&c);
                            n.span = self.span(&c);
                        }
                        Rule::source_ref => n.source = Some(self.source_ref(c)),
                        _ => {}
                    }
                }
                Decl::Notice(Box::new(n))
            }
            _ => return Err(SyntaxError::internal(self.span(&p))),
        })
    }

    pub(super) fn expr(&self, p: P) -> R<Expr> {
        // Trees are bounded by `nested`, but a debug build's frames are large:
        // grow the stack rather than trust a thread's default. Looking at the
        // stack costs more than lowering a small node, so it is done every few
        // levels only, with a red zone that covers the levels in between.
        let calls = self.calls.get() + 1;
        self.calls.set(calls);
        let out = if calls.is_multiple_of(STACK_CHECK_EVERY) {
            stacker::maybe_grow(1024 * 1024, 2 * 1024 * 1024, || self.expr_inner(p))
        } else {
            self.expr_inner(p)
        };
        self.calls.set(calls - 1);
        out
    }
}

/// The text of a string literal with its escapes (`\"`, `\\`, `\n`) resolved.
fn string_value(p: &P) -> String {
    let raw = p.clone().into_inner().next().map_or("", |i| i.as_str());
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A name in Unicode normal form C, so that `å` typed as one character and `å`
/// typed as `a` and a combining ring are the same name. ASCII is its own form.
pub(crate) fn nfc(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    if text.is_ascii() {
        text.to_string()
    } else {
        text.nfc().collect()
    }
}
