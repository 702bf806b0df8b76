//! The abstract syntax of `.bfr`: what an editor wrote, with a span on every node.

use crate::source::Span;
use rust_decimal::Decimal;
use serde::Serialize;

/// A name as written, with where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// Where a rule comes from in the document: inventory ID, page(s), section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceRef {
    /// The inventory ID, e.g. `CC-LATE`.
    pub id: String,
    /// Pages as written after `p.`, e.g. `20` or `5,11`.
    pub pages: Option<String>,
    /// The section heading, e.g. `Sen ankomst`.
    pub section: Option<String>,
    /// Where the reference is written.
    pub span: Span,
    /// Where the ID, the pages and the section are written.
    pub id_span: Span,
    pub pages_span: Option<Span>,
    pub section_span: Option<Span>,
}

/// A unit as written: `SEK`, `SEK/player`. Its names are boxed slices, not
/// vectors: a unit is written once and never grows, and every quantity and
/// written type holds one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitExpr {
    /// Unit names multiplied together.
    pub num: Box<[Name]>,
    /// Unit names divided by.
    pub den: Box<[Name]>,
    /// Where.
    pub span: Span,
}

/// A type as written; which kind of type a name is is decided by the checker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum TypeExpr {
    /// `VP`, `SEK/player`, `District`, `number`: a name or a unit combination.
    Named(UnitExpr),
    /// `[VP]`: a list of values of the inner type.
    List(Box<TypeExpr>, Span),
}

impl TypeExpr {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Named(u) => u.span,
            TypeExpr::List(_, span) => *span,
        }
    }

    /// A type that names nothing, for declarations whose type is missing.
    pub fn missing() -> Self {
        TypeExpr::Named(UnitExpr {
            num: Box::default(),
            den: Box::default(),
            span: Span::default(),
        })
    }
}

/// One top-level declaration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// `///` lines before it.
    pub doc: Vec<String>,
    /// The declaration.
    pub decl: Decl,
    /// The whole declaration.
    pub span: Span,
}

/// A declaration.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(missing_docs)]
pub enum Decl {
    // Every declaration is boxed, so that an item (and a file's list of them) is
    // laid out at the size of a pointer, not of the largest declaration.
    Edition(Box<Edition>),
    Unit(Box<UnitDecl>),
    Enum(Box<EnumDecl>),
    Record(Box<RecordDecl>),
    Table(Box<TableDecl>),
    Scale(Box<ScaleDecl>),
    Fn(Box<FnDecl>),
    Const(Box<ConstDecl>),
    Example(Box<ExampleDecl>),
    Text(Box<TextDecl>),
    Competition(Box<CompetitionDecl>),
    Notice(Box<NoticeDecl>),
    Entries(Box<EntriesDecl>),
    /// `federation { command = rule … }`: the rule each federation command calls
    /// (a block of the same shape as `entries`).
    Federation(Box<EntriesDecl>),
    Remove(Box<RemoveDecl>),
}

/// `entries { question = rule … }`: which rule of the edition answers each question
/// an entries check or an invoice asks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntriesDecl {
    /// The answers, one per question.
    pub properties: Vec<Property>,
    /// Where it comes from.
    pub source: Option<Box<SourceRef>>,
    /// The whole declaration.
    pub span: Span,
}

/// `edition "name" { source … updated … period … }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Edition {
    pub name: String,
    pub name_span: Span,
    pub source: Option<String>,
    /// `amends "../2015"`: the base edition's directory, relative to this file's.
    pub amends: Option<(String, Span)>,
    /// `document "document.toml"`: the document's data, relative to this file.
    pub document: Option<(String, Span)>,
    pub updated: Option<Expr>,
    pub period: Option<(Expr, Expr)>,
}

/// `remove a, example "title"`: declarations of the base edition an amending
/// edition leaves out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemoveDecl {
    pub targets: Vec<RemoveTarget>,
}

/// One declaration named by `remove`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemoveTarget {
    /// The name, or an example's title.
    pub name: String,
    /// Whether it names an example (by its title).
    pub example: bool,
    /// Where it is written.
    pub span: Span,
}

/// `unit SEK "Swedish kronor" alias kr`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitDecl {
    pub name: Name,
    pub description: Option<String>,
    pub whole: bool,
    /// `count`: whole and never negative.
    pub count: bool,
    pub aliases: Vec<Name>,
}

/// `enum District ref … { Stockholm, Skane "Skåne" }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnumDecl {
    pub name: Name,
    pub source: Option<Box<SourceRef>>,
    pub variants: Vec<(Name, Option<String>)>,
}

/// `record Team { seniors: player, juniors: player }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordDecl {
    pub name: Name,
    pub source: Option<Box<SourceRef>>,
    pub fields: Vec<(Name, TypeExpr)>,
}

/// A parameter `name: type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Param {
    pub name: Name,
    pub ty: TypeExpr,
}

/// `table travel_subsidy(d: District) -> SEK/pair ref … { Stockholm => 540 SEK/pair }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableDecl {
    pub name: Name,
    pub params: Vec<Param>,
    pub ret: TypeExpr,
    pub source: Option<Box<SourceRef>>,
    /// `None` key is the `_` row.
    pub rows: Vec<(Option<Name>, Expr)>,
}

/// One side of a range: `late <= 5 min`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bound {
    pub value: Expr,
    pub inclusive: bool,
}

/// A range over a scale's parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Range {
    pub var: Name,
    pub lower: Option<Bound>,
    pub upper: Option<Bound>,
    /// `x != a`: everything but one point.
    pub except: Option<Box<Expr>>,
    pub span: Span,
}

/// `scale f(x: T) -> R ref … { domain …  lo < x <= hi => value … }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaleDecl {
    pub name: Name,
    pub params: Vec<Param>,
    pub ret: TypeExpr,
    pub source: Option<Box<SourceRef>>,
    pub domain: Option<Range>,
    pub arms: Vec<(Range, Expr)>,
}

/// `fn f(…) -> T ref … = expr`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FnDecl {
    pub name: Name,
    pub params: Vec<Param>,
    pub ret: TypeExpr,
    pub source: Option<Box<SourceRef>>,
    pub body: Expr,
}

/// `const name: T ref … = expr`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConstDecl {
    pub name: Name,
    pub ty: TypeExpr,
    pub source: Option<Box<SourceRef>>,
    pub value: Expr,
    /// Declared with `reading`: the answer to an open question of the document.
    pub reading: bool,
    /// `cites "…"`: a fact of the other document named, not of this edition.
    pub cites: Option<String>,
}

/// `example "title" ref … [contradicts] { assertions }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExampleDecl {
    pub title: String,
    pub title_span: Span,
    pub source: Option<Box<SourceRef>>,
    /// The document's own example is known to contradict its rule.
    pub contradicts: bool,
    pub assertions: Vec<Expr>,
}

/// `notice "…" ref …`: something the edition says about itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoticeDecl {
    pub text: String,
    pub source: Option<Box<SourceRef>>,
    pub span: Span,
}

/// `procedure name ref … { "…" }`: a procedure with nothing to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextDecl {
    pub name: Name,
    pub source: Option<Box<SourceRef>>,
    pub paragraphs: Vec<String>,
}

/// `competition name "title" ref … { property… stage… }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompetitionDecl {
    pub name: Name,
    pub title: Option<String>,
    pub source: Option<Box<SourceRef>>,
    pub properties: Vec<Property>,
    /// `stages { … }`: properties every knockout stage has unless it says otherwise.
    pub stage_defaults: Vec<Property>,
    pub stages: Vec<StageDecl>,
}

/// `key = expr`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Property {
    pub key: Name,
    pub value: Expr,
}

/// Whether a stage is a qualification (ranked field) or a knockout stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum StageKind {
    /// `qualification`
    Qualification,
    /// `stage`
    Stage,
}

/// `stage name "title" ref … { properties, routes }`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageDecl {
    pub kind: StageKind,
    pub name: Name,
    pub title: Option<String>,
    pub source: Option<Box<SourceRef>>,
    pub properties: Vec<Property>,
    pub routes: Vec<Route>,
    pub span: Span,
}

/// Who is routed: `winners`, `losers`, or `places a..b` of a qualification.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum RouteFrom {
    /// `winners`, `losers`, `rest`: a named group.
    Group(Name),
    /// `places 1..32`, `places n + 1 place .. 2 * n`: the bounds as written,
    /// computed at check time.
    Places(Expr, Expr),
}

/// Where they go.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum RouteTarget {
    /// Another stage.
    Stage(Name),
    /// Out of the competition.
    Out,
    /// A final place, or a shared range of places (`place 5..6`); the bounds as
    /// written, computed at check time (`place 3` has the same bound twice).
    Place(Expr, Expr),
}

/// `winners -> cc16`
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Route {
    pub from: RouteFrom,
    pub to: RouteTarget,
    pub span: Span,
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

pub use crate::ir::BinOp;

/// A date as written, with the weekday the document put next to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DateLit {
    pub weekday: Option<(String, Span)>,
    pub year: i16,
    pub month: i8,
    pub day: i8,
    pub span: Span,
}

/// A penalty as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum PenaltyExpr {
    /// `warning`
    Warning,
    /// `deduct 2 VP`
    Deduct(Box<Expr>),
    /// `refer "body"`
    Refer(String),
    /// `forfeit`
    Forfeit,
}

/// Expression forms. The rarer and larger parts (a quantity's unit, a date, a
/// `let`'s, a member's or a record literal's name, a list's written type) are
/// boxed, so that every expression, boxed or in a list, is laid out at 56 bytes
/// rather than 104.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(missing_docs)]
pub enum ExprKind {
    Number(Decimal),
    Quantity(Decimal, Box<UnitExpr>),
    /// Seconds.
    Duration(Decimal),
    Text(String),
    Bool(bool),
    Date(Box<DateLit>),
    /// Minutes since midnight.
    Time(u16),
    DateTime(Box<DateLit>, u16),
    /// `a.b.c`
    Path(Vec<Name>),
    Call {
        callee: Box<Expr>,
        args: Vec<(Option<Name>, Expr)>,
    },
    Member(Box<Expr>, Box<Name>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(Box<Name>, Box<Expr>, Box<Expr>),
    /// `None` pattern is `_`.
    Match(Box<Expr>, Vec<(Option<Vec<Name>>, Expr)>),
    Record(Box<Name>, Vec<(Name, Expr)>),
    Penalty(PenaltyExpr),
    /// `[a, b, c]`, with the list type written after `as`, if any.
    List(Vec<Expr>, Option<Box<TypeExpr>>),
    /// `xs[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `x => body`, `(acc, x) => body`: only as an argument of a list operation.
    Lambda(Vec<Name>, Box<Expr>),
    /// A literal that is not one (a date not in the calendar, a number too
    /// large), reported where it was read, with its text as written (so that
    /// two declarations differing in it differ). Only a file read with its
    /// literal errors kept
    /// ([`parse_file_recovering`](crate::syntax::parse_file_recovering)) holds
    /// one; the check takes it as an expression with an error already
    /// reported, so the rest of the edition is still checked.
    Invalid(Box<str>),
}

impl Expr {
    /// Calls `f` on this expression and on every expression inside it, outer
    /// first. The tree is no deeper than the lowering allows (it refuses one
    /// deeper), so the recursion is bounded.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Call { callee, args } => {
                callee.visit(f);
                args.iter().for_each(|(_, a)| a.visit(f));
            }
            ExprKind::Member(x, _)
            | ExprKind::Neg(x)
            | ExprKind::Not(x)
            | ExprKind::Lambda(_, x)
            | ExprKind::Penalty(PenaltyExpr::Deduct(x)) => x.visit(f),
            ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) | ExprKind::Index(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::If(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            ExprKind::Match(s, arms) => {
                s.visit(f);
                arms.iter().for_each(|(_, x)| x.visit(f));
            }
            ExprKind::Record(_, fields) => fields.iter().for_each(|(_, x)| x.visit(f)),
            ExprKind::List(xs, _) => xs.iter().for_each(|x| x.visit(f)),
            _ => {}
        }
    }
}

/// A parsed file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct File {
    pub items: Vec<Item>,
}

#[cfg(test)]
mod tests {
    use super::{Expr, Item};

    /// The tree of a large edition is held whole until the checker lowers it: an item is a
    /// pointer to its declaration, and an expression keeps its rare large parts
    /// boxed, so that every expression slot (boxed, in a list, in a row) is small.
    #[test]
    fn items_and_expressions_are_laid_out_small() {
        assert!(std::mem::size_of::<Item>() <= 56);
        assert!(std::mem::size_of::<Expr>() <= 56);
    }
}
