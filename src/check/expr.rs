//! Typing expressions: AST expressions → IR expressions with types and units.

use super::Checker;
use super::names::{TypeName, ValueName, did_you_mean};
use crate::diag::Diagnostic;
use crate::ir::{self, Counting, ExprKind, Penalty, Type, Unit, Value};
use crate::names::{nearest, same};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use rust_decimal::Decimal;

/// Local names in scope: parameters and `let`s, innermost last.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    locals: Vec<(String, Type, u32)>,
    next: u32,
    /// The most slots alive at once, so a call frame can be sized.
    pub(crate) max: u32,
}

impl Scope {
    pub(crate) fn push(&mut self, name: &str, ty: Type) -> u32 {
        let slot = self.next;
        self.locals.push((name.to_string(), ty, slot));
        self.next += 1;
        self.max = self.max.max(self.next);
        slot
    }

    pub(crate) fn pop(&mut self) {
        self.locals.pop();
        self.next = self.next.saturating_sub(1);
    }

    pub(super) fn get(&self, name: &str) -> Option<(Type, u32)> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, t, s)| (t.clone(), *s))
    }
}

pub(super) fn mk(kind: ExprKind, ty: Type, span: Span) -> ir::Expr {
    ir::Expr { kind, ty, span }
}

pub(super) fn poison(span: Span) -> ir::Expr {
    mk(ExprKind::Lit(Value::Bool(false)), Type::Error, span)
}

/// How many nested expressions may be typed between two looks at the stack.
const STACK_CHECK_EVERY: usize = 16;

impl Checker {
    /// Checks `e` and reports when its type is not `want`.
    pub(crate) fn expect(&mut self, e: &ast::Expr, want: &Type, scope: &mut Scope) -> ir::Expr {
        self.expect_counted(e, (want, Counting::Any), scope)
    }

    /// Checks `e` where a declared type admitting `counting` is wanted (a
    /// parameter, a rule's answer): a mismatch names the type as the editor
    /// declared it (`integer`).
    pub(crate) fn expect_counted(
        &mut self,
        e: &ast::Expr,
        (want, counting): (&Type, Counting),
        scope: &mut Scope,
    ) -> ir::Expr {
        let out = self.expr_hinted(e, Some(want), scope);
        if !out.ty.fits(want) {
            self.mismatch_counted((want, counting), &out.ty, e.span);
        }
        out
    }

    pub(crate) fn mismatch(&mut self, want: &Type, found: &Type, span: Span) {
        self.mismatch_counted((want, Counting::Any), found, span);
    }

    fn mismatch_counted(&mut self, (want, counting): (&Type, Counting), found: &Type, span: Span) {
        let w = self.program.counted_type_name(want, counting);
        let f = self.program.type_name(found);
        let code = match (want, found) {
            (Type::Num(_), Type::Num(_)) | (Type::Penalty(_), Type::Penalty(_)) => "E0202",
            _ => "E0201",
        };
        let mut d = Diagnostic::error(code, format!("expected `{w}`, found `{f}`"), span)
            .with_label(format!("this is `{f}`"));
        match (want, found) {
            (Type::Num(u), Type::Num(v)) if v.is_none() && !u.is_none() => {
                d = d.with_help(format!("write the unit after the number: `… {u}`"));
            }
            (Type::Duration, Type::Num(v)) if v.is_none() => {
                d = d.with_help("write a duration with its unit: `12 min`, `30 s`, `1 h`");
            }
            (Type::Num(_), Type::Num(_)) => {
                d = d.with_help("quantities of different units cannot be mixed");
            }
            _ => {}
        }
        self.diags.push(d);
    }

    /// Types one expression.
    pub(crate) fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> ir::Expr {
        self.expr_hinted(e, None, scope)
    }

    /// Types one expression where the context expects `hint`, if it knows: an
    /// empty list (`[]`) takes its type from the context.
    pub(crate) fn expr_hinted(
        &mut self,
        e: &ast::Expr,
        hint: Option<&Type>,
        scope: &mut Scope,
    ) -> ir::Expr {
        // Trees are at most `MAX_EXPR_DEPTH` deep, but a debug build's frames are
        // large: grow the stack rather than trust a thread's default. Looking at
        // the stack costs about as much as typing a small node, so it is done
        // every few levels, with a red zone that covers the levels in between.
        self.expr_depth += 1;
        let out = if self.expr_depth.is_multiple_of(STACK_CHECK_EVERY) {
            stacker::maybe_grow(1024 * 1024, 2 * 1024 * 1024, || {
                self.expr_inner(e, hint, scope)
            })
        } else {
            self.expr_inner(e, hint, scope)
        };
        self.expr_depth -= 1;
        out
    }

    /// Types one expression: dispatches on its kind, one helper per form.
    fn expr_inner(&mut self, e: &ast::Expr, hint: Option<&Type>, scope: &mut Scope) -> ir::Expr {
        let span = e.span;
        use ast::ExprKind as K;
        match &e.kind {
            K::Number(n) => lit(Value::Num(*n, Unit::none()), Type::number(), span),
            K::Quantity(n, u) => self.quantity_literal(*n, u, span),
            K::Duration(s) => lit(Value::Duration(*s), Type::Duration, span),
            K::Text(t) => lit(Value::Text(t.clone()), Type::Text, span),
            K::Bool(b) => lit(Value::Bool(*b), Type::Bool, span),
            K::Date(d) => lit(Value::Date(date(d)), Type::Date, span),
            K::Time(m) => lit(Value::Time(*m), Type::Time, span),
            K::DateTime(d, m) => lit(Value::DateTime(date(d), *m), Type::DateTime, span),
            // Reported where the file was read.
            K::Invalid(_) => poison(span),
            K::Path(segments) => self.path(segments, span, scope, false),
            K::Call { callee, args } => self.call(callee, args, span, scope),
            K::Member(base, field) => self.member(base, field, span, scope),
            K::Neg(x) => self.neg(x, span, scope),
            K::Not(x) => self.not(x, span, scope),
            K::Binary(op, a, b) => self.binary(*op, a, b, span, scope),
            K::If(c, t, f) => self.if_expr(c, t, f, hint, span, scope),
            K::Let(name, value, body) => self.let_expr(name, value, body, hint, span, scope),
            K::Match(scrutinee, arms) => self.match_expr(scrutinee, arms, span, scope),
            K::Record(name, fields) => self.record(name, fields, span, scope),
            K::List(items, annotation) => {
                self.list_literal(items, annotation.as_deref(), hint, span, scope)
            }
            K::Index(list, position) => self.index(list, position, span, scope),
            K::Lambda(..) => self.misplaced_lambda(span),
            K::Penalty(p) => self.penalty(p, span, scope),
        }
    }

    /// `5 VP`: the unit must be declared, and a unit that counts whole things
    /// takes only whole numbers.
    fn quantity_literal(&mut self, n: Decimal, u: &ast::UnitExpr, span: Span) -> ir::Expr {
        let Some(unit) = self.resolve_unit(u) else {
            return poison(span);
        };
        if self.unit_is_whole(&unit) && !n.fract().is_zero() {
            self.diags.push(
                Diagnostic::error(
                    "E0205",
                    format!(
                        "`{unit}` counts whole things; `{}` is not whole",
                        n.normalize()
                    ),
                    span,
                )
                .with_help("write a whole number"),
            );
        }
        lit(Value::Num(n, unit.clone()), Type::Num(unit), span)
    }

    /// `base.field`
    fn member(
        &mut self,
        base: &ast::Expr,
        field: &ast::Name,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let b = self.expr(base, scope);
        self.field(b, field, span)
    }

    /// `-x`: only numbers and durations have a negative.
    fn neg(&mut self, x: &ast::Expr, span: Span, scope: &mut Scope) -> ir::Expr {
        let x = self.expr(x, scope);
        if !matches!(x.ty, Type::Num(_) | Type::Duration | Type::Error) {
            self.diags.push(Diagnostic::error(
                "E0201",
                format!("`{}` cannot be negated", self.program.type_name(&x.ty)),
                span,
            ));
        }
        let ty = x.ty.clone();
        mk(ExprKind::Neg(Box::new(x)), ty, span)
    }

    /// `not x`
    fn not(&mut self, x: &ast::Expr, span: Span, scope: &mut Scope) -> ir::Expr {
        let x = self.expect(x, &Type::Bool, scope);
        mk(ExprKind::Not(Box::new(x)), Type::Bool, span)
    }

    /// `a op b`: the operands are typed as a pair, then the operator decides.
    fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let (a, b) = self.pair_hinted(a, b, None, scope);
        let ty = self.binary_type(op, &a, &b, span);
        mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, span)
    }

    /// `if c then t else f`: both branches must join into one type.
    fn if_expr(
        &mut self,
        c: &ast::Expr,
        t: &ast::Expr,
        f: &ast::Expr,
        hint: Option<&Type>,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let c = self.expect(c, &Type::Bool, scope);
        let (t, f) = self.pair_hinted(t, f, hint, scope);
        let ty = match t.ty.join(&f.ty) {
            Some(ty) => ty,
            None => {
                self.mismatch(&t.ty, &f.ty, f.span);
                t.ty.clone()
            }
        };
        mk(
            ExprKind::If(Box::new(c), Box::new(t), Box::new(f)),
            ty,
            span,
        )
    }

    /// `let name = value in body`: the name holds a slot while the body is typed.
    fn let_expr(
        &mut self,
        name: &ast::Name,
        value: &ast::Expr,
        body: &ast::Expr,
        hint: Option<&Type>,
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let v = self.expr(value, scope);
        let slot = scope.push(&name.text, v.ty.clone());
        let b = self.expr_hinted(body, hint, scope);
        scope.pop();
        let ty = b.ty.clone();
        mk(ExprKind::Let(slot, Box::new(v), Box::new(b)), ty, span)
    }

    /// A penalty: warning, forfeit and referral are literals; a deduction is typed.
    fn penalty(&mut self, p: &ast::PenaltyExpr, span: Span, scope: &mut Scope) -> ir::Expr {
        match p {
            ast::PenaltyExpr::Warning => lit_penalty(Penalty::Warning, span),
            ast::PenaltyExpr::Forfeit => lit_penalty(Penalty::Forfeit, span),
            ast::PenaltyExpr::Refer(to) => lit_penalty(Penalty::Refer { to: to.clone() }, span),
            ast::PenaltyExpr::Deduct(amount) => self.deduct(amount, span, scope),
        }
    }

    /// `deduct amount`: a quantity with a unit, and not a literal of zero or less.
    fn deduct(&mut self, amount: &ast::Expr, span: Span, scope: &mut Scope) -> ir::Expr {
        let a = self.expr(amount, scope);
        match &a.ty {
            Type::Num(u) if !u.is_none() => {}
            Type::Error => {}
            other => {
                let found = self.program.type_name(other);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("a deduction needs a quantity with a unit, found `{found}`"),
                        amount.span,
                    )
                    .with_help("write the unit: `deduct 2 VP`"),
                );
            }
        }
        // A deduction of nothing, or of less than nothing, is a bonus in disguise.
        if let Some(n) = literal_number(&a)
            && n <= Decimal::ZERO
        {
            self.diags.push(
                Diagnostic::error(
                    "E0206",
                    format!("a deduction must be more than zero, not {}", n.normalize()),
                    amount.span,
                )
                .with_help("write the amount taken away, e.g. `deduct 2 VP`; use `warning` for no deduction"),
            );
        }
        let unit = match &a.ty {
            Type::Num(u) => Some(u.clone()),
            _ => None,
        };
        mk(ExprKind::Deduct(Box::new(a)), Type::Penalty(unit), span)
    }

    fn unit_is_whole(&self, unit: &Unit) -> bool {
        unit.as_base().is_some_and(|b| {
            matches!(
                self.names.types.get(b),
                Some(TypeName::Unit { whole: true, .. })
            )
        })
    }

    /// `x`, `Enum.Variant`, `const_name.field`, `competition.stage.property`.
    pub(crate) fn path(
        &mut self,
        segments: &[ast::Name],
        span: Span,
        scope: &mut Scope,
        allow_rule_ref: bool,
    ) -> ir::Expr {
        let Some((first, rest)) = segments.split_first() else {
            return poison(span);
        };
        if let Some((ty, slot)) = scope.get(&first.text) {
            let base = mk(ExprKind::Local(slot), ty, first.span);
            return self.fields(base, rest);
        }
        if let Some(TypeName::Enum(e)) = self.names.types.get(&first.text).cloned() {
            let Some(info) = self.program.enums.get(e as usize).cloned() else {
                return poison(span);
            };
            let Some(variant) = rest.first() else {
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`{}` is an enum, not a value", first.text),
                        span,
                    )
                    .with_help(format!(
                        "name one of its variants: `{}.{}`",
                        first.text,
                        info.variants.first().map_or("…", String::as_str)
                    )),
                );
                return poison(span);
            };
            let Some(pos) = info.variants.iter().position(|v| *v == variant.text) else {
                self.unknown_variant(&info, &variant.text, variant.span);
                return poison(span);
            };
            let v = mk(
                ExprKind::Lit(Value::Enum(e, super::idx(pos))),
                Type::Enum(e),
                first.span.to(variant.span),
            );
            return self.fields(v, rest.get(1..).unwrap_or(&[]));
        }
        match self.names.values.get(&first.text).copied() {
            Some(ValueName::Rule(i)) => {
                let Some(rule) = self.program.rules.get(i as usize) else {
                    return poison(span);
                };
                if !rule.params.is_empty() {
                    if allow_rule_ref && rest.is_empty() {
                        return mk(ExprKind::RuleRef(i), Type::Rule, span);
                    }
                    let params: Vec<String> = rule.params.iter().map(|(n, _)| n.clone()).collect();
                    self.diags.push(
                        Diagnostic::error(
                            "E0203",
                            format!("`{}` needs {}", first.text, arguments(params.len())),
                            first.span,
                        )
                        .with_help(format!(
                            "call it: `{}({})`",
                            first.text,
                            params.join(", ")
                        )),
                    );
                    return poison(span);
                }
                let ty = rule.ret.clone();
                let call = mk(ExprKind::Call(i, Vec::new()), ty, first.span);
                self.fields(call, rest)
            }
            Some(ValueName::Competition(c)) => self.competition_path(c, first, rest, span),
            None => {
                self.unknown_name(first, scope);
                poison(span)
            }
        }
    }

    pub(super) fn unknown_name(&mut self, name: &ast::Name, scope: &Scope) {
        let mut d = Diagnostic::error("E0101", format!("unknown name `{}`", name.text), name.span)
            .with_label("not defined in this edition");
        // A unit or a record type where a value goes: "did you mean" would name
        // it again. (An enum's name alone is E0201, found before.)
        let kind = match self.names.types.get(&name.text) {
            Some(TypeName::Unit { .. }) => Some(format!(
                "`{0}` is a unit, not a value: write it after a number or a unit, with no spaces around `/` (`550 SEK/{0}`)",
                name.text
            )),
            Some(TypeName::Record(_)) => Some(format!(
                "`{0}` is a record type, not a value: make one with `{0} {{ field: value, … }}`",
                name.text
            )),
            Some(TypeName::Enum(_)) | None => None,
        };
        if let Some(help) = kind {
            self.diags.push(d.with_help(help));
            return;
        }
        if self.suggestions_left > 0 {
            self.suggestions_left -= 1;
            let locals = scope.locals.iter().map(|(n, _, _)| n.as_str());
            let globals = self.names.values.keys().map(String::as_str);
            let types = self.names.types.keys().map(String::as_str);
            let near = nearest(&name.text, locals.chain(globals).chain(types)).map(str::to_string);
            // A bare variant: enum values are written with their enum's name. One
            // that differs only by case or diacritics (`Skane`, `Skåne`) goes
            // before a name that is merely near.
            let variant = self.variant_named(&name.text);
            let exact = |q: &str| same(&name.text, q.rsplit('.').next().unwrap_or(q));
            let help = match (near, variant) {
                (Some(n), Some(v)) if exact(&v) && !exact(&n) => Some(v),
                (Some(n), _) => Some(n),
                (None, v) => v,
            };
            if let Some(h) = help {
                d = d.with_help(format!("did you mean `{h}`?"));
            }
        }
        self.diags.push(d);
    }

    /// `Enum.Variant` for the variant of any enum nearest to `name`.
    fn variant_named(&self, name: &str) -> Option<String> {
        let all: Vec<String> = self
            .program
            .enums
            .iter()
            .flat_map(|e| e.variants.iter().map(move |v| format!("{}.{v}", e.name)))
            .collect();
        let bare = all.iter().map(|q| q.rsplit('.').next().unwrap_or(q));
        let near = nearest(name, bare)?;
        all.iter()
            .find(|q| q.rsplit('.').next() == Some(near))
            .cloned()
    }

    fn fields(&mut self, mut base: ir::Expr, rest: &[ast::Name]) -> ir::Expr {
        for f in rest {
            let span = base.span.to(f.span);
            base = self.field(base, f, span);
        }
        base
    }

    fn field(&mut self, base: ir::Expr, field: &ast::Name, span: Span) -> ir::Expr {
        match &base.ty {
            Type::Record(r) => {
                let Some(info) = self.program.records.get(*r as usize).cloned() else {
                    return poison(span);
                };
                match info.fields.iter().position(|(n, _)| *n == field.text) {
                    Some(pos) => {
                        let ty = info.fields.get(pos).map_or(Type::Error, |(_, t)| t.clone());
                        mk(ExprKind::Field(Box::new(base), super::idx(pos)), ty, span)
                    }
                    None => {
                        let mut d = Diagnostic::error(
                            "E0105",
                            format!("`{}` has no field `{}`", info.name, field.text),
                            field.span,
                        );
                        if let Some(h) =
                            did_you_mean(&field.text, info.fields.iter().map(|(n, _)| n.as_str()))
                        {
                            d = d.with_help(h);
                        }
                        self.diags.push(d);
                        poison(span)
                    }
                }
            }
            Type::Error => poison(span),
            other => {
                let t = self.program.type_name(other);
                self.diags.push(Diagnostic::error(
                    "E0105",
                    format!("a `{t}` has no fields; `.{}` cannot be read", field.text),
                    field.span,
                ));
                poison(span)
            }
        }
    }

    fn binary_type(&mut self, op: BinOp, a: &ir::Expr, b: &ir::Expr, span: Span) -> Type {
        use BinOp::*;
        use Type::*;
        if a.ty == Error || b.ty == Error {
            return match op {
                Eq | Ne | Lt | Le | Gt | Ge | And | Or => Bool,
                _ => Error,
            };
        }
        let result = match (op, &a.ty, &b.ty) {
            (And | Or, Bool, Bool) => Some(Bool),
            (Eq | Ne, x, y) if x.fits(y) => Some(Bool),
            (Lt | Le | Gt | Ge, x, y)
                if x == y && matches!(x, Num(_) | Duration | Date | Time | DateTime) =>
            {
                Some(Bool)
            }
            (Add | Sub, Num(u), Num(v)) if u == v => Some(Num(u.clone())),
            (Mul, Num(u), Num(v)) => Some(Num(u.mul(v))),
            (Div, Num(u), Num(v)) => Some(Num(u.div(v))),
            (Add | Sub, Duration, Duration) => Some(Duration),
            (Mul, Duration, Num(u)) | (Mul, Num(u), Duration) if u.is_none() => Some(Duration),
            (Div, Duration, Duration) => Some(Type::number()),
            (Div, Duration, Num(u)) if u.is_none() => Some(Duration),
            (Add | Sub, DateTime, Duration) => Some(DateTime),
            // A date is its midnight: moving it by hours gives a date-time.
            (Add | Sub, Date, Duration) => Some(DateTime),
            (Add | Sub, Time, Duration) => Some(Time),
            (Sub, DateTime, DateTime) | (Sub, Date, Date) | (Sub, Time, Time) => Some(Duration),
            _ => None,
        };
        match result {
            Some(t) => t,
            None => {
                let (x, y) = (self.program.type_name(&a.ty), self.program.type_name(&b.ty));
                let both_num = matches!((&a.ty, &b.ty), (Num(_), Num(_)));
                let code = if both_num { "E0202" } else { "E0201" };
                let mut d = Diagnostic::error(
                    code,
                    format!("`{x}` {} `{y}` is not allowed", op.symbol()),
                    span,
                )
                .with_label(format!("`{x}` on the left, `{y}` on the right"));
                if both_num {
                    d = d.with_help("both sides must have the same unit");
                } else if matches!((&a.ty, &b.ty), (Duration, Num(_)) | (Num(_), Duration)) {
                    d = d.with_help("write durations with their unit: `5 min`");
                }
                self.diags.push(d);
                match op {
                    Eq | Ne | Lt | Le | Gt | Ge | And | Or => Bool,
                    _ => Error,
                }
            }
        }
    }
}

/// A literal: its value is its own IR.
fn lit(value: Value, ty: Type, span: Span) -> ir::Expr {
    mk(ExprKind::Lit(value), ty, span)
}

/// The number a literal (or a negated literal) stands for; `None` for anything
/// computed.
pub(crate) fn literal_number(e: &ir::Expr) -> Option<Decimal> {
    match &e.kind {
        ExprKind::Lit(Value::Num(n, _)) => Some(*n),
        ExprKind::Neg(x) => match &x.kind {
            ExprKind::Lit(Value::Num(n, _)) => Some(-*n),
            _ => None,
        },
        _ => None,
    }
}

fn lit_penalty(p: Penalty, span: Span) -> ir::Expr {
    mk(ExprKind::Lit(Value::Penalty(p)), Type::Penalty(None), span)
}

fn date(d: &ast::DateLit) -> ir::Date {
    ir::Date {
        year: d.year,
        month: d.month,
        day: d.day,
    }
}

/// `1 argument`, `2 arguments`.
pub(super) fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".into()
    } else {
        format!("{n} arguments")
    }
}

/// `` `A`, `B` and `C` ``
pub(crate) fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
