//! Lowering declarations' bodies: a rule's expression or table, an example's
//! call and expected value, and the diagnostic for an unknown enum variant.

use super::expr::{Scope, list, literal_number, poison};
use super::names::did_you_mean;
use super::{Checker, source_info};
use crate::diag::Diagnostic;
use crate::ir::{self, Counting, RuleBody, Type};
use crate::source::Span;
use crate::syntax::ast;

impl Checker {
    pub(crate) fn lower_rule(&mut self, index: u32, item: &ast::Item) {
        let Some(rule) = self.program.rules.get(index as usize) else {
            return;
        };
        let params = rule.params.clone();
        let ret = rule.ret.clone();
        let answer = rule.answer;
        let mut scope = Scope::default();
        for (name, ty) in &params {
            scope.push(name, ty.clone());
        }
        let body = match &item.decl {
            ast::Decl::Const(k) => {
                let value = self.expect_answer(&k.name.text, (&ret, answer), &k.value, &mut scope);
                RuleBody::Const {
                    value: Box::new(value),
                }
            }
            ast::Decl::Fn(f) => {
                let body = self.expect_answer(&f.name.text, (&ret, answer), &f.body, &mut scope);
                RuleBody::Fn {
                    body: Box::new(body),
                }
            }
            ast::Decl::Table(t) => self.lower_table(t, &params, (&ret, answer), &mut scope),
            ast::Decl::Scale(s) => self.lower_scale(s, &params, (&ret, answer), &mut scope),
            _ => return,
        };
        if let Some(r) = self.program.rules.get_mut(index as usize) {
            r.body = body;
            r.locals = scope.max;
        }
    }

    /// Checks a rule's answer as written (a const's value, a fn's body, a row of
    /// a table or a scale) against the answer's type, named as declared, and
    /// its literals against what the type admits.
    pub(crate) fn expect_answer(
        &mut self,
        rule: &str,
        (ret, answer): (&Type, Counting),
        written: &ast::Expr,
        scope: &mut Scope,
    ) -> ir::Expr {
        let value = self.expect_counted(written, (ret, answer), scope);
        self.literal_answer(rule, (ret, answer), written, &value);
        value
    }

    /// A literal answer its rule's type does not admit, found by the check
    /// rather than first when the rule is evaluated: a fraction where whole
    /// numbers are counted (E0205), a whole number below zero for a count
    /// (E0210). `written` is the answer as written, `value` as lowered; the
    /// answer may be a branch of an `if`, an arm of a `match` or the body of a
    /// `let`, each looked at in turn (without recursion: a chain of `else if`
    /// is as deep as the expression bound lets it be).
    fn literal_answer(
        &mut self,
        rule: &str,
        (ret, answer): (&Type, Counting),
        written: &ast::Expr,
        value: &ir::Expr,
    ) {
        if answer == Counting::Any {
            return;
        }
        let mut todo = vec![(written, value)];
        while let Some((written, value)) = todo.pop() {
            match (&written.kind, &value.kind) {
                (ast::ExprKind::If(_, w_then, w_else), ir::ExprKind::If(_, v_then, v_else)) => {
                    todo.push((w_else, v_else));
                    todo.push((w_then, v_then));
                }
                (ast::ExprKind::Let(_, _, w_body), ir::ExprKind::Let(_, _, v_body)) => {
                    todo.push((w_body, v_body));
                }
                (ast::ExprKind::Match(_, w_arms), ir::ExprKind::Match(_, v_arms))
                    if w_arms.len() == v_arms.len() =>
                {
                    let arms = w_arms.iter().zip(v_arms.iter()).rev();
                    todo.extend(arms.map(|((_, w), (_, v))| (w, v)));
                }
                // A literal of another type than the answer's is a type
                // error, said as one where the answers are joined.
                _ if value.ty == *ret => self.literal_answer_at(rule, answer, written, value),
                _ => {}
            }
        }
    }

    /// [`literal_answer`](Self::literal_answer) for one answer that is not
    /// an `if`, a `match` or a `let`.
    fn literal_answer_at(
        &mut self,
        rule: &str,
        answer: Counting,
        written: &ast::Expr,
        value: &ir::Expr,
    ) {
        let (Some(n), Type::Num(unit)) = (literal_number(value), &value.ty) else {
            return;
        };
        if answer.admits(n) {
            return;
        }
        if !ir::is_whole(n) {
            // A quantity (`1.5 IMP`) is reported where it is read: once is enough.
            if !is_quantity(written) {
                let help = if unit.is_none() {
                    format!(
                        "write a whole number, or let `{rule}` answer `number` if fractions exist"
                    )
                } else {
                    format!(
                        "write a whole number, or declare `{}` without `whole` or `count` if \
                         fractions of it exist",
                        self.program.type_name(&value.ty)
                    )
                };
                self.diags.push(
                    Diagnostic::error(
                        "E0205",
                        format!(
                            "`{rule}` answers whole numbers; `{}` is not one",
                            n.normalize()
                        ),
                        written.span,
                    )
                    .with_help(help),
                );
            }
            return;
        }
        let shown = self.program.show_num(n, unit);
        self.diags.push(
            Diagnostic::error(
                "E0210",
                format!("`{rule}` is a count; {shown} is below zero"),
                written.span,
            )
            .with_label("a count is zero or more")
            .with_help(format!(
                "write 0 or more, or let `{rule}` answer a unit declared `whole`, not `count`, \
                 if it may be below zero"
            )),
        );
    }

    pub(crate) fn lower_example(&mut self, e: &ast::ExampleDecl) {
        let mut scope = Scope::default();
        let assertions = e
            .assertions
            .iter()
            .map(|a| self.expect(a, &Type::Bool, &mut scope))
            .collect();
        if e.assertions.is_empty() {
            self.diags.push(
                Diagnostic::warning(
                    "W0504",
                    format!("example \"{}\" asserts nothing", e.title),
                    e.title_span,
                )
                .with_label("it has no lines to check")
                .with_help("write what the rule must give, e.g. `late(12 min) == deduct 2 VP`"),
            );
        }
        self.program.examples.push(ir::Example {
            title: e.title.clone(),
            source: source_info(&e.source),
            contradicts: e.contradicts,
            assertions,
            span: e.title_span,
        });
    }

    /// A table keyed by one enum: every variant gets a row, from its own row
    /// or from the `_` row.
    fn lower_table(
        &mut self,
        t: &ast::TableDecl,
        params: &[(String, Type)],
        (ret, answer): (&Type, Counting),
        scope: &mut Scope,
    ) -> RuleBody {
        let empty = RuleBody::Table { rows: Vec::new() };
        let Some(enum_index) = self.table_key(t, params) else {
            return empty;
        };
        let Some(info) = self.program.enums.get(enum_index as usize).cloned() else {
            return empty;
        };
        let mut rows: Vec<Option<ir::Expr>> = vec![None; info.variants.len()];
        let mut wildcard: Option<(ir::Expr, Span)> = None;
        let mut first_at: Vec<Option<Span>> = vec![None; info.variants.len()];
        for (key, value) in &t.rows {
            let v = self.expect_answer(&t.name.text, (ret, answer), value, scope);
            match key {
                None => {
                    if wildcard.is_some() {
                        self.diags.push(Diagnostic::error(
                            "E0102",
                            "the table has two `_` rows",
                            value.span,
                        ));
                    }
                    wildcard = Some((v, value.span));
                }
                Some(k) => self.keyed_row(&info, k, v, &mut rows, &mut first_at),
            }
        }
        self.table_coverage(t, &info, &rows, wildcard.as_ref().map(|(_, s)| *s));
        let rows = rows
            .into_iter()
            .map(|r| {
                r.or_else(|| wildcard.as_ref().map(|(w, _)| w.clone()))
                    .unwrap_or_else(|| poison(t.name.span))
            })
            .collect();
        RuleBody::Table { rows }
    }

    /// The enum a table is keyed by; `None` when its one parameter already
    /// failed, or (reported) when it does not have exactly one enum parameter.
    fn table_key(&mut self, t: &ast::TableDecl, params: &[(String, Type)]) -> Option<u32> {
        match params {
            [(_, Type::Enum(e))] => Some(*e),
            [(_, Type::Error)] => None,
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!(
                            "table `{}` must have one parameter of an enum type",
                            t.name.text
                        ),
                        t.name.span,
                    )
                    .with_help(
                        "a table is keyed by an enum; use a `scale` for ranges or a `fn` otherwise",
                    ),
                );
                None
            }
        }
    }

    /// Files row `v` under variant `k`; the first row of a key stands, a
    /// second one is reported, and so is a key that is no variant.
    fn keyed_row(
        &mut self,
        info: &ir::EnumInfo,
        k: &ast::Name,
        v: ir::Expr,
        rows: &mut [Option<ir::Expr>],
        first_at: &mut [Option<Span>],
    ) {
        let Some(pos) = info.variants.iter().position(|x| *x == k.text) else {
            self.unknown_variant(info, &k.text, k.span);
            return;
        };
        if let Some(first) = first_at.get(pos).copied().flatten() {
            self.diags.push(
                Diagnostic::error("E0102", format!("`{}` has two rows", k.text), k.span)
                    .with_note(first, "first row here")
                    .with_help("keep one row per key"),
            );
        } else if let (Some(slot), Some(at)) = (rows.get_mut(pos), first_at.get_mut(pos)) {
            *slot = Some(v);
            *at = Some(k.span);
        }
    }

    /// Without a `_` row every variant needs its own; with one, some variant
    /// must be left for it.
    fn table_coverage(
        &mut self,
        t: &ast::TableDecl,
        info: &ir::EnumInfo,
        rows: &[Option<ir::Expr>],
        wildcard: Option<Span>,
    ) {
        let missing: Vec<&str> = info
            .variants
            .iter()
            .zip(rows)
            .filter(|(_, r)| r.is_none())
            .map(|(v, _)| v.as_str())
            .collect();
        match (wildcard, missing.is_empty()) {
            (None, false) => self.diags.push(
                Diagnostic::error(
                    "E0304",
                    format!("table `{}` has no row for {}", t.name.text, list(&missing)),
                    t.name.span,
                )
                .with_label(format!("every `{}` needs a row", info.name))
                .with_help("add the missing rows, or a `_ => value` row for the rest"),
            ),
            (Some(span), true) => self.diags.push(
                Diagnostic::error("E0303", "this `_` row can never be used", span)
                    .with_label("every key already has its own row")
                    .with_help("remove it"),
            ),
            _ => {}
        }
    }

    pub(super) fn unknown_variant(&mut self, info: &ir::EnumInfo, name: &str, span: Span) {
        let mut d = Diagnostic::error(
            "E0104",
            format!("`{}` has no variant `{name}`", info.name),
            span,
        );
        d = match did_you_mean(name, info.variants.iter().map(String::as_str)) {
            Some(h) => d.with_help(h),
            None if info.variants.is_empty() => d.with_help("the enum has no variants yet"),
            None => d.with_help(format!("the variants are {}", list_strs(&info.variants))),
        };
        self.diags.push(d);
    }
}

fn list_strs(items: &[String]) -> String {
    list(&items.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Whether `e` is a quantity literal (`1.5 IMP`), negated or not.
fn is_quantity(e: &ast::Expr) -> bool {
    match &e.kind {
        ast::ExprKind::Quantity(..) => true,
        ast::ExprKind::Neg(x) => matches!(x.kind, ast::ExprKind::Quantity(..)),
        _ => false,
    }
}
