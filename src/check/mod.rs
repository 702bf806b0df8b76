//! Stage 2: AST → typed IR, or diagnostics.
//!
//! The checker resolves names across all files of an edition, types every
//! expression with its unit, and analyses what only a whole edition shows: cycles
//! between rules, overlapping and missing rows of scales and tables, routing of
//! competitions, dates against the calendar and the edition's period. It reports
//! every problem it finds and never panics; an expression that fails gets the
//! `Error` type so one mistake yields one diagnostic.

#[cfg(test)]
mod budget_tests;
mod call;
mod collect;
mod commands;
mod competition;
mod compound;
mod compute;
mod consumed;
mod cycles;
mod dates;
mod decl;
mod declared;
mod entries;
mod expr;
mod list;
mod list_loop;
#[cfg(test)]
mod list_tests;
pub mod names;
pub mod refs;
mod routes;
mod routing;
mod scale;
mod seating;
mod typing;
mod vocabulary;

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::TOO_LARGE;
use crate::ir::{self, Counting, Program, RuleBody, SourceInfo, Type, Unit};
use crate::source::Span;
use crate::syntax::ast;
use compute::Computer;
pub use compute::MAX_CHECK_STEPS;
use names::{BUILTIN_TYPES, Names, TypeName, did_you_mean};
use std::collections::BTreeMap;

/// A checked edition: the IR plus the names needed to check expressions against
/// it later (`bfr eval`).
#[derive(Debug, Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Checked {
    /// The IR.
    pub program: Program,
    names: Names,
    /// Competitions as written, for `competition.stage.property` in expressions.
    declared: Vec<declared::Declared>,
}

/// What a declaration became (with the rule's or competition's index in the
/// program), and where its item stands among the edition's items, so the
/// lowering finds its tree and frees it. Positions are `u32`, as rule indexes
/// are (the size limits keep an edition far below four billion items): a
/// pending declaration is 12 bytes, and the list of them is held at the peak.
enum Pending {
    Rule(u32, u32),
    Example(u32),
    Competition(u32, u32),
}

/// The checker's state while it works through an edition.
pub(crate) struct Checker {
    pub(crate) program: Program,
    pub(crate) names: Names,
    pub(crate) diags: Diagnostics,
    /// Where each unit, enum, record, text and competition was declared, for
    /// duplicate notes (a rule's place is in the IR).
    declared_at: BTreeMap<String, Span>,
    /// The competition whose properties are being checked, if any.
    pub(crate) lowering_competition: Option<u32>,
    /// Competitions as written, until they are typed.
    pub(crate) declared: Vec<declared::Declared>,
    /// Routes whose place numbers name consts, computed once the rules are checked.
    pub(crate) pending_places: Vec<routes::PendingPlaces>,
    /// How many more unknown names get a "did you mean" (each compares the
    /// name with every name of the edition; past [`names::MAX_SUGGESTED`] the
    /// diagnostics are not shown anyway).
    pub(crate) suggestions_left: usize,
    /// How many expressions enclose the one being typed: the stack is looked at
    /// every few levels only (`expr::STACK_CHECK_EVERY`).
    pub(crate) expr_depth: usize,
    /// What the check computes, within [`MAX_CHECK_STEPS`].
    pub(crate) computer: Computer,
    /// Each count property's units (none: a bare number) where it is written,
    /// in order, by scope (the competition's knockout stages and their
    /// defaults, or its qualification), so that a property is written one way
    /// in each; said and cleared once the competition is lowered.
    pub(crate) count_units: BTreeMap<CountKey, Vec<competition::CountWritten>>,
}

/// Checks the parsed files of one edition.
///
/// The files' trees are taken and freed as they are lowered: a rule's signature is
/// freed once it is declared, and a declaration's tree as soon as its IR is made,
/// except the bounds of a scale's rows, which the analysis of its rows reads once
/// every rule is lowered. The passes that read the tree otherwise (dates, missing
/// source references) run before the lowering, and
/// their findings are added where they always were, so the diagnostics come in
/// the same order.
///
/// `read` holds what reading the files found: an error there (a bad literal,
/// read as [`ast::ExprKind::Invalid`]) stops the check where an error of its
/// own would, before anything is computed, and the diagnostics returned hold
/// `read`'s too.
pub fn check(files: Vec<ast::File>, read: Diagnostics) -> (Option<Checked>, Diagnostics) {
    check_within(files, MAX_CHECK_STEPS, read)
}

/// [`check`] with `steps` for all its computations together (tests reach the
/// bound with small editions).
pub(crate) fn check_within(
    files: Vec<ast::File>,
    steps: u64,
    read: Diagnostics,
) -> (Option<Checked>, Diagnostics) {
    let mut c = Checker {
        program: Program::default(),
        names: Names::default(),
        diags: read,
        declared_at: BTreeMap::new(),
        lowering_competition: None,
        declared: Vec::new(),
        pending_places: Vec::new(),
        suggestions_left: names::MAX_SUGGESTED,
        expr_depth: 0,
        computer: Computer::new(steps),
        count_units: BTreeMap::new(),
    };
    // The first file's list of items becomes the checker's in place (an item and
    // an optional item are laid out alike), so the two are never held at once.
    let mut items: Vec<Option<ast::Item>> = Vec::new();
    for file in files {
        if items.is_empty() {
            items = file.items.into_iter().map(Some).collect();
        } else {
            items.extend(file.items.into_iter().map(Some));
        }
    }
    let mut unsourced = Diagnostics::default();
    {
        let all: Vec<&ast::Item> = items.iter().flatten().collect();
        c.collect_types(&all);
        check_sources(&all, &mut unsourced);
    }
    let pending = c.collect_values(&mut items);
    let dated = {
        let all: Vec<&ast::Item> = items.iter().flatten().collect();
        let period = c.program.edition.as_ref().and_then(|e| e.period);
        let mut dated = Diagnostics::default();
        dates::check_all(&c.program, &mut dated, period, &all);
        dated
    };
    let scales = lower_all(&mut c, &pending, &mut items);
    c.diags.extend(dated);
    let cyclic = cycles::check(&c.program, &mut c.diags);
    c.diags.extend(unsourced);
    if c.diags.has_errors() {
        return (None, c.diags);
    }
    scale::analyse_all(&mut c, &scales, &cyclic);
    drop(scales);
    // A route whose places could not be computed would only mislead the graph.
    if c.resolve_places() {
        routing::check_routing(&c.program, &c.declared, &mut c.diags, &c.computer);
    }
    check_consts(&c.program, &mut c.diags, &c.computer);
    c.computer.report(&mut c.diags);
    let left: Vec<&ast::Item> = items.iter().flatten().collect();
    let (rules, roles) = entries::check(&c.program, &c.declared, &left, &mut c.diags);
    c.program.entry_rules = rules;
    c.program.entry_roles = roles;
    let federation = commands::check(&c.program, &left, &mut c.diags);
    c.program.command_rules = federation.rules;
    c.program.command_unique = federation.unique;
    drop(left);
    drop(items);
    if c.diags.has_errors() {
        return (None, c.diags);
    }
    c.program.competitions =
        typing::type_competitions(&c.program, &c.declared, &mut c.diags, &c.computer);
    c.computer.report(&mut c.diags);
    consumed::report_unused_readings(&c.program, &c.declared, &mut c.diags);
    if c.diags.has_errors() {
        return (None, c.diags);
    }
    let Checker {
        program,
        names,
        diags,
        declared,
        ..
    } = c;
    (
        Some(Checked {
            program,
            names,
            declared,
        }),
        diags,
    )
}

/// Lowers every competition, then every rule and example in the order written,
/// dropping each one's tree once it is lowered; of a scale's, only the bounds of
/// its rows are kept, for the analysis of its rows once every rule is lowered.
fn lower_all(
    c: &mut Checker,
    pending: &[Pending],
    items: &mut [Option<ast::Item>],
) -> Vec<scale::ScaleRows> {
    let mut scales = Vec::new();
    for p in pending {
        if let Pending::Competition(index, at) = *p
            && let Some(slot) = items.get_mut(at as usize)
        {
            if let Some(ast::Decl::Competition(decl)) = slot.as_ref().map(|item| &item.decl) {
                c.lower_competition(index, decl);
            }
            *slot = None;
        }
    }
    for p in pending {
        let (Pending::Rule(_, at) | Pending::Example(at)) = *p else {
            continue;
        };
        let Some(slot) = items.get_mut(at as usize) else {
            continue;
        };
        match (p, slot.take()) {
            (Pending::Rule(index, _), Some(item)) => {
                c.lower_rule(*index, &item);
                if let ast::Decl::Scale(decl) = item.decl {
                    scales.push(scale::ScaleRows::new(*index, *decl));
                }
            }
            (Pending::Example(_), Some(item)) => {
                if let ast::Decl::Example(decl) = &item.decl {
                    c.lower_example(decl);
                }
            }
            _ => {}
        }
    }
    scales
}

/// Every const is computed once: one that cannot be (a division by zero, an
/// overflow, a scale with no row for its input) is an error at the const, not a
/// surprise for whoever evaluates it later. A failure with a code of its own (a
/// position outside a list, …) keeps it.
///
/// One evaluator computes them all and keeps each value, so a chain of 20,000
/// consts is 20,000 steps, not 200 million. Evaluated in the order written, as
/// `bfr eval` would: a chain nested deeper than the interpreter allows is
/// reported here, not first found by whoever evaluates it later. The consts
/// worked out earlier in the check (by a property, a bound) are not computed
/// again; once the check's steps are spent, the rest are not computed at all.
fn check_consts(program: &Program, diags: &mut Diagnostics, computer: &Computer) {
    for (index, rule) in program.rules.iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        if !matches!(rule.body, RuleBody::Const { .. }) {
            continue;
        }
        // No room left: said once, where the steps ran out.
        let Some(result) = computer.constant(program, index, rule.span) else {
            return;
        };
        if let Err(e) = result {
            // Another const's own answer refused is reported at that const.
            let own = e.refused_answer_of == Some(index);
            if !own && reported_at_its_const(program, &e) {
                continue;
            }
            diags.push(const_failure(rule, *e, own));
        }
    }
}

/// Whether failure `e` is a const's own answer refused, which [`check_consts`]
/// reports at the const: a bound or a place that uses it says nothing more.
pub(crate) fn reported_at_its_const(program: &Program, e: &crate::eval::EvalError) -> bool {
    e.refused_answer_of
        .and_then(|i| program.rules.get(i as usize))
        .is_some_and(|r| matches!(r.body, RuleBody::Const { .. }))
}

/// Why const `rule` cannot be used. Its `own` answer refused (a count below
/// zero, a fraction of a whole unit) names it already, and is shown where it
/// is declared, not where the check first used it.
fn const_failure(rule: &ir::Rule, e: crate::eval::EvalError, own: bool) -> Diagnostic {
    let code = e.code.unwrap_or("E0602");
    if own {
        return Diagnostic::error(code, e.message, rule.span)
            .with_label("its type cannot hold this value")
            .with_help("change the value, or the const's type if the value is right");
    }
    Diagnostic::error(
        code,
        format!("`{}` cannot be computed: {}", rule.name, e.message),
        e.span,
    )
    .with_note(rule.span, "in this const")
    .with_help(if e.code == Some(TOO_LARGE) {
        "compute it with fewer or shorter lists: no rule of a competition needs this many steps"
    } else {
        "change the value so it can be computed"
    })
}

impl Checked {
    /// Checks an expression (typed on the command line) against this edition.
    /// Works on a copy of the edition; [`Checked::check_expr_in_place`] does not copy.
    pub fn check_expr(&self, e: &ast::Expr) -> Result<ir::Expr, Diagnostics> {
        let mut copy = self.clone();
        copy.check_expr_in_place(e)
    }

    /// Checks an expression against this edition without copying it: the
    /// checker borrows the edition's program and names and gives them back.
    pub fn check_expr_in_place(&mut self, e: &ast::Expr) -> Result<ir::Expr, Diagnostics> {
        let mut c = Checker {
            program: std::mem::take(&mut self.program),
            names: std::mem::take(&mut self.names),
            diags: Diagnostics::default(),
            declared_at: BTreeMap::new(),
            lowering_competition: None,
            declared: std::mem::take(&mut self.declared),
            pending_places: Vec::new(),
            suggestions_left: names::MAX_SUGGESTED,
            expr_depth: 0,
            computer: Computer::new(MAX_CHECK_STEPS),
            count_units: BTreeMap::new(),
        };
        let mut scope = expr::Scope::default();
        let out = c.expr(e, &mut scope);
        self.program = c.program;
        self.names = c.names;
        self.declared = c.declared;
        if c.diags.has_errors() {
            Err(c.diags)
        } else {
            Ok(out)
        }
    }
}

pub(crate) fn source_info(r: &Option<Box<ast::SourceRef>>) -> Option<SourceInfo> {
    r.as_ref().map(|r| SourceInfo {
        id: r.id.as_str().into(),
        pages: r.pages.as_deref().map(Into::into),
        section: r.section.as_deref().map(Into::into),
    })
}

/// The one name a type is written as (`player`, not `SEK/player` or a list).
fn single_name(t: &ast::TypeExpr) -> Option<&str> {
    let ast::TypeExpr::Named(t) = t else {
        return None;
    };
    if !t.den.is_empty() || t.num.len() != 1 {
        return None;
    }
    t.num.first().map(|n| n.text.as_str())
}

fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Checker {
    /// What numbers a parameter or answer of type `t` admits: whole ones for
    /// `integer` and a `whole` unit, whole ones from zero for a `count` unit. A
    /// list admits any: its values are checked where they are written.
    pub(crate) fn counting(&self, t: &ast::TypeExpr) -> Counting {
        let name = single_name(t);
        match name.and_then(|n| self.names.types.get(n)) {
            Some(TypeName::Unit { count: true, .. }) => Counting::Count,
            Some(TypeName::Unit { whole: true, .. }) => Counting::Whole,
            _ if name == Some("integer") => Counting::Whole,
            _ => Counting::Any,
        }
    }

    /// A type as written → a type.
    pub(crate) fn resolve_type(&mut self, t: &ast::TypeExpr) -> Type {
        let t = match t {
            ast::TypeExpr::Named(t) => t,
            ast::TypeExpr::List(element, _) => {
                return Type::List(Box::new(self.resolve_type(element)));
            }
        };
        if t.den.is_empty() && t.num.len() == 1 {
            let name = t.num.first().map_or("", |n| n.text.as_str());
            let builtin = match name {
                "number" | "integer" => Some(Type::number()),
                "bool" => Some(Type::Bool),
                "text" => Some(Type::Text),
                "date" => Some(Type::Date),
                "time" => Some(Type::Time),
                "datetime" => Some(Type::DateTime),
                "duration" => Some(Type::Duration),
                "penalty" => Some(Type::Penalty(None)),
                "route" => Some(Type::Route),
                _ => None,
            };
            if let Some(b) = builtin {
                return b;
            }
            match self.names.types.get(name) {
                Some(TypeName::Enum(i)) => return Type::Enum(*i),
                Some(TypeName::Record(i)) => return Type::Record(*i),
                _ => {}
            }
        }
        match self.resolve_unit(t) {
            Some(u) => Type::Num(u),
            None => Type::Error,
        }
    }

    /// A unit as written → a unit; unknown names are reported.
    pub(crate) fn resolve_unit(&mut self, u: &ast::UnitExpr) -> Option<Unit> {
        let mut unit = Unit::none();
        let mut ok = true;
        for (names, divide) in [(&u.num, false), (&u.den, true)] {
            for n in names {
                match self.names.types.get(&n.text) {
                    Some(TypeName::Unit { unit: base, .. }) => {
                        unit = if divide {
                            unit.div(base)
                        } else {
                            unit.mul(base)
                        };
                    }
                    Some(_) if u.num.len() + u.den.len() > 1 => {
                        ok = false;
                        self.diags.push(
                            Diagnostic::error(
                                "E0103",
                                format!("`{}` is a type, not a unit", n.text),
                                n.span,
                            )
                            .with_help("only declared units can be combined with `/`"),
                        );
                    }
                    _ => {
                        ok = false;
                        let known: Vec<&str> = self
                            .names
                            .types
                            .keys()
                            .map(String::as_str)
                            .chain(BUILTIN_TYPES)
                            .collect();
                        let mut d = Diagnostic::error(
                            "E0103",
                            format!("unknown type or unit `{}`", n.text),
                            n.span,
                        )
                        .with_label("not declared in this edition");
                        d = match (duration_unit(&n.text), did_you_mean(&n.text, known)) {
                            (Some(unit), _) => d.with_help(format!(
                                "a duration is written in `h`, `min` and `s`: did you mean `{unit}`? (e.g. `12 min`, `1 h 30 min`)"
                            )),
                            (None, Some(h)) => d.with_help(h),
                            (None, None) => d.with_help(format!(
                                "declare it: `unit {} \"what it measures\"`",
                                n.text
                            )),
                        };
                        self.diags.push(d);
                    }
                }
            }
        }
        ok.then_some(unit)
    }
}

/// The duration unit (`h`, `min`, `s`) a word for time means: `minutes`, `sec`,
/// `timmar` (Swedish), written where a duration goes.
fn duration_unit(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    let unit = match w.as_str() {
        "hour" | "hours" | "hr" | "hrs" | "timme" | "timmar" | "tim" => "h",
        "minute" | "minutes" | "mins" | "minut" | "minuter" => "min",
        "second" | "seconds" | "sec" | "secs" | "sekund" | "sekunder" => "s",
        _ => return None,
    };
    Some(unit)
}

/// A rule without a source reference is reported: every rule carries its source.
fn check_sources(items: &[&ast::Item], diags: &mut Diagnostics) {
    for item in items {
        let (name, source) = match &item.decl {
            ast::Decl::Const(k) => (&k.name, &k.source),
            ast::Decl::Fn(f) => (&f.name, &f.source),
            ast::Decl::Table(t) => (&t.name, &t.source),
            ast::Decl::Scale(s) => (&s.name, &s.source),
            ast::Decl::Text(t) => (&t.name, &t.source),
            ast::Decl::Competition(c) => (&c.name, &c.source),
            _ => continue,
        };
        if source.is_none() {
            diags.push(
                Diagnostic::warning(
                    "W0201",
                    format!("`{}` has no source reference", name.text),
                    name.span,
                )
                .with_label("which rule of the document is this?")
                .with_help("add `ref ID p.PAGE \"Section\"` after the signature"),
            );
        }
    }
}

/// A count property of a competition being lowered, by where it is written.
pub(crate) type CountKey = (vocabulary::Scope, String);

/// Of the values written (units, currencies), each with how many places it
/// stands for, the one written most often: the index of its first place in
/// `written`, how often it is written, and whether another value is written as
/// often (the first given is then taken). A slip is the value written apart
/// from the others, not every value after a first that was itself the slip.
/// `T` is compared with `==`: never a value holding a span (spans are all equal).
pub(crate) fn most_common<T: PartialEq>(written: &[(T, usize)]) -> Option<MostCommon> {
    // Few distinct values are written (an edition's units): a list serves.
    let mut ways: Vec<(usize, usize)> = Vec::new();
    for (i, (value, weight)) in written.iter().enumerate() {
        match ways
            .iter_mut()
            .find(|(first, _)| written.get(*first).map(|(v, _)| v) == Some(value))
        {
            Some((_, n)) => *n += weight,
            None => ways.push((i, *weight)),
        }
    }
    let count = ways.iter().map(|(_, n)| *n).max()?;
    let mut most = ways.iter().filter(|(_, n)| *n == count);
    let (first, _) = most.next()?;
    Some(MostCommon {
        first: *first,
        count,
        tied: most.next().is_some(),
    })
}

/// What [`most_common`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MostCommon {
    /// The index of the value's first place.
    pub first: usize,
    /// How often it is written, places weighed.
    pub count: usize,
    /// Whether another value is written as often.
    pub tied: bool,
}

#[cfg(test)]
mod most_common_tests {
    use super::most_common;

    #[test]
    fn the_value_most_written_stands_and_of_two_as_common_the_first() {
        let ones = |values: &[&'static str]| values.iter().map(|v| (*v, 1)).collect::<Vec<_>>();
        let found =
            |values: &[(&str, usize)]| most_common(values).map(|m| (m.first, m.count, m.tied));
        assert_eq!(found(&[]), None);
        assert_eq!(found(&ones(&["board", "", ""])), Some((1, 2, false)));
        assert_eq!(found(&ones(&["", "board"])), Some((0, 1, true)));
        assert_eq!(found(&ones(&["a", "b", "b", "a"])), Some((0, 2, true)));
        assert_eq!(found(&ones(&["a", "b", "c", "c"])), Some((2, 2, false)));
        // A place that stands for three (defaults three stages take) outweighs two.
        assert_eq!(
            found(&[("", 3), ("board", 1), ("board", 1)]),
            Some((0, 3, false))
        );
    }
}
