//! Typing expressions: AST expressions → IR expressions with types and units.

use super::names::{TypeName, ValueName, did_you_mean};
use super::{Checker, source_info};
use crate::diag::Diagnostic;
use crate::ir::{self, Builtin, ExprKind, Penalty, RuleBody, Type, Unit, Value};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};

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

    fn pop(&mut self) {
        self.locals.pop();
        self.next = self.next.saturating_sub(1);
    }

    fn get(&self, name: &str) -> Option<(Type, u32)> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, t, s)| (t.clone(), *s))
    }
}

fn mk(kind: ExprKind, ty: Type, span: Span) -> ir::Expr {
    ir::Expr { kind, ty, span }
}

fn poison(span: Span) -> ir::Expr {
    mk(ExprKind::Lit(Value::Bool(false)), Type::Error, span)
}

impl Checker {
    pub(crate) fn lower_rule(&mut self, index: u32, item: &ast::Item) {
        let Some(rule) = self.program.rules.get(index as usize) else {
            return;
        };
        let params = rule.params.clone();
        let ret = rule.ret.clone();
        let mut scope = Scope::default();
        for (name, ty) in &params {
            scope.push(name, ty.clone());
        }
        let body = match &item.decl {
            ast::Decl::Const(k) => {
                let value = self.expect(&k.value, &ret, &mut scope);
                // A quantity literal (`1.5 IMP`) is reported where it is read.
                let quantity = matches!(k.value.kind, ast::ExprKind::Quantity(..));
                if let (true, ExprKind::Lit(Value::Num(n, _))) = (self.is_whole(&k.ty), &value.kind)
                    && !quantity
                    && !n.fract().is_zero()
                {
                    self.diags.push(
                        Diagnostic::error(
                            "E0205",
                            format!(
                                "`{}` counts whole things; `{}` is not whole",
                                k.name.text,
                                n.normalize()
                            ),
                            k.value.span,
                        )
                        .with_help("write a whole number, or declare the const as `number`"),
                    );
                }
                RuleBody::Const { value }
            }
            ast::Decl::Fn(f) => {
                let body = self.expect(&f.body, &ret, &mut scope);
                RuleBody::Fn { body }
            }
            ast::Decl::Table(t) => self.lower_table(t, &params, &ret, &mut scope),
            ast::Decl::Scale(s) => self.lower_scale(s, &params, &ret, &mut scope),
            _ => return,
        };
        if let Some(r) = self.program.rules.get_mut(index as usize) {
            r.body = body;
            r.locals = scope.max;
        }
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

    fn lower_table(
        &mut self,
        t: &ast::TableDecl,
        params: &[(String, Type)],
        ret: &Type,
        scope: &mut Scope,
    ) -> RuleBody {
        let empty = RuleBody::Table { rows: Vec::new() };
        let enum_index = match params {
            [(_, Type::Enum(e))] => *e,
            [(_, Type::Error)] => return empty,
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
                return empty;
            }
        };
        let Some(info) = self.program.enums.get(enum_index as usize).cloned() else {
            return empty;
        };
        let mut rows: Vec<Option<ir::Expr>> = vec![None; info.variants.len()];
        let mut wildcard: Option<(ir::Expr, Span)> = None;
        let mut first_at: Vec<Option<Span>> = vec![None; info.variants.len()];
        for (key, value) in &t.rows {
            let v = self.expect(value, ret, scope);
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
                Some(k) => match info.variants.iter().position(|x| *x == k.text) {
                    Some(pos) => {
                        if let Some(first) = first_at.get(pos).copied().flatten() {
                            self.diags.push(
                                Diagnostic::error(
                                    "E0102",
                                    format!("`{}` has two rows", k.text),
                                    k.span,
                                )
                                .with_note(first, "first row here")
                                .with_help("keep one row per key"),
                            );
                        } else if let (Some(slot), Some(at)) =
                            (rows.get_mut(pos), first_at.get_mut(pos))
                        {
                            *slot = Some(v);
                            *at = Some(k.span);
                        }
                    }
                    None => self.unknown_variant(&info, &k.text, k.span),
                },
            }
        }
        let missing: Vec<&str> = info
            .variants
            .iter()
            .zip(&rows)
            .filter(|(_, r)| r.is_none())
            .map(|(v, _)| v.as_str())
            .collect();
        match (&wildcard, missing.is_empty()) {
            (None, false) => self.diags.push(
                Diagnostic::error(
                    "E0304",
                    format!("table `{}` has no row for {}", t.name.text, list(&missing)),
                    t.name.span,
                )
                .with_label(format!("every `{}` needs a row", info.name))
                .with_help("add the missing rows, or a `_ => value` row for the rest"),
            ),
            (Some((_, span)), true) => self.diags.push(
                Diagnostic::error("E0303", "this `_` row can never be used", *span)
                    .with_label("every key already has its own row")
                    .with_help("remove it"),
            ),
            _ => {}
        }
        let rows = rows
            .into_iter()
            .map(|r| {
                r.or_else(|| wildcard.as_ref().map(|(w, _)| w.clone()))
                    .unwrap_or_else(|| poison(t.name.span))
            })
            .collect();
        RuleBody::Table { rows }
    }

    fn unknown_variant(&mut self, info: &ir::EnumInfo, name: &str, span: Span) {
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

    /// Checks `e` and reports when its type is not `want`.
    pub(crate) fn expect(&mut self, e: &ast::Expr, want: &Type, scope: &mut Scope) -> ir::Expr {
        let out = self.expr(e, scope);
        if !out.ty.fits(want) {
            self.mismatch(want, &out.ty, e.span);
        }
        out
    }

    pub(crate) fn mismatch(&mut self, want: &Type, found: &Type, span: Span) {
        let (w, f) = (self.program.type_name(want), self.program.type_name(found));
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
        stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.expr_inner(e, scope))
    }

    fn expr_inner(&mut self, e: &ast::Expr, scope: &mut Scope) -> ir::Expr {
        let span = e.span;
        use ast::ExprKind as K;
        match &e.kind {
            K::Number(n) => mk(
                ExprKind::Lit(Value::Num(*n, Unit::none())),
                Type::number(),
                span,
            ),
            K::Quantity(n, u) => {
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
                mk(
                    ExprKind::Lit(Value::Num(*n, unit.clone())),
                    Type::Num(unit),
                    span,
                )
            }
            K::Duration(s) => mk(ExprKind::Lit(Value::Duration(*s)), Type::Duration, span),
            K::Text(t) => mk(ExprKind::Lit(Value::Text(t.clone())), Type::Text, span),
            K::Bool(b) => mk(ExprKind::Lit(Value::Bool(*b)), Type::Bool, span),
            K::Date(d) => mk(ExprKind::Lit(Value::Date(date(d))), Type::Date, span),
            K::Time(m) => mk(ExprKind::Lit(Value::Time(*m)), Type::Time, span),
            K::DateTime(d, m) => mk(
                ExprKind::Lit(Value::DateTime(date(d), *m)),
                Type::DateTime,
                span,
            ),
            K::Path(segments) => self.path(segments, span, scope, false),
            K::Call { callee, args } => self.call(callee, args, span, scope),
            K::Member(base, field) => {
                let b = self.expr(base, scope);
                self.field(b, field, span)
            }
            K::Neg(x) => {
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
            K::Not(x) => {
                let x = self.expect(x, &Type::Bool, scope);
                mk(ExprKind::Not(Box::new(x)), Type::Bool, span)
            }
            K::Binary(op, a, b) => {
                let (a, b) = (self.expr(a, scope), self.expr(b, scope));
                let ty = self.binary_type(*op, &a, &b, span);
                mk(ExprKind::Binary(*op, Box::new(a), Box::new(b)), ty, span)
            }
            K::If(c, t, f) => {
                let c = self.expect(c, &Type::Bool, scope);
                let t = self.expr(t, scope);
                let f = self.expr(f, scope);
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
            K::Let(name, value, body) => {
                let v = self.expr(value, scope);
                let slot = scope.push(&name.text, v.ty.clone());
                let b = self.expr(body, scope);
                scope.pop();
                let ty = b.ty.clone();
                mk(ExprKind::Let(slot, Box::new(v), Box::new(b)), ty, span)
            }
            K::Match(scrutinee, arms) => self.match_expr(scrutinee, arms, span, scope),
            K::Record(name, fields) => self.record(name, fields, span, scope),
            K::Penalty(p) => match p {
                ast::PenaltyExpr::Warning => lit_penalty(Penalty::Warning, span),
                ast::PenaltyExpr::Forfeit => lit_penalty(Penalty::Forfeit, span),
                ast::PenaltyExpr::Refer(to) => lit_penalty(Penalty::Refer { to: to.clone() }, span),
                ast::PenaltyExpr::Deduct(amount) => {
                    let a = self.expr(amount, scope);
                    match &a.ty {
                        Type::Num(u) if !u.is_none() => {}
                        Type::Error => {}
                        other => {
                            let found = self.program.type_name(other);
                            self.diags.push(
                                Diagnostic::error(
                                    "E0201",
                                    format!(
                                        "a deduction needs a quantity with a unit, found `{found}`"
                                    ),
                                    amount.span,
                                )
                                .with_help("write the unit: `deduct 2 VP`"),
                            );
                        }
                    }
                    // A deduction of nothing, or of less than nothing, is a bonus in disguise.
                    let literal = match &a.kind {
                        ExprKind::Lit(Value::Num(n, _)) => Some(*n),
                        ExprKind::Neg(x) => match &x.kind {
                            ExprKind::Lit(Value::Num(n, _)) => Some(-*n),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(n) = literal
                        && n <= rust_decimal::Decimal::ZERO
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
            },
        }
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

    fn unknown_name(&mut self, name: &ast::Name, scope: &Scope) {
        let locals: Vec<&str> = scope.locals.iter().map(|(n, _, _)| n.as_str()).collect();
        let globals: Vec<&str> = self
            .names
            .values
            .keys()
            .map(String::as_str)
            .chain(self.names.types.keys().map(String::as_str))
            .collect();
        let mut d = Diagnostic::error("E0101", format!("unknown name `{}`", name.text), name.span)
            .with_label("not defined in this edition");
        if let Some(h) = did_you_mean(&name.text, locals.into_iter().chain(globals)) {
            d = d.with_help(h);
        }
        self.diags.push(d);
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

    fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let ast::ExprKind::Path(segments) = &callee.kind else {
            self.diags.push(Diagnostic::error(
                "E0204",
                "only rules and built-ins can be called",
                callee.span,
            ));
            return poison(span);
        };
        let [name] = segments.as_slice() else {
            self.diags.push(
                Diagnostic::error("E0204", "this cannot be called", callee.span)
                    .with_help("call a rule by its name: `rule_name(arguments)`"),
            );
            return poison(span);
        };
        if scope.get(&name.text).is_none()
            && let Some(b) = Builtin::named(&name.text)
        {
            return self.builtin(b, name, args, span, scope);
        }
        let Some(ValueName::Rule(i)) = self.names.values.get(&name.text).copied() else {
            if scope.get(&name.text).is_some() || self.names.values.contains_key(&name.text) {
                self.diags.push(Diagnostic::error(
                    "E0204",
                    format!("`{}` is not a rule and cannot be called", name.text),
                    name.span,
                ));
            } else {
                let rules: Vec<&str> = self
                    .names
                    .values
                    .keys()
                    .map(String::as_str)
                    .chain(Builtin::ALL.iter().map(|(n, _)| *n))
                    .collect();
                let mut d =
                    Diagnostic::error("E0101", format!("unknown rule `{}`", name.text), name.span)
                        .with_label("not defined in this edition");
                if let Some(h) = did_you_mean(&name.text, rules) {
                    d = d.with_help(h);
                }
                self.diags.push(d);
            }
            for (_, a) in args {
                self.expr(a, scope);
            }
            return poison(span);
        };
        let Some(rule) = self.program.rules.get(i as usize).cloned() else {
            return poison(span);
        };
        let signature = format!(
            "{}({})",
            rule.name,
            rule.params
                .iter()
                .map(|(n, t)| format!("{n}: {}", self.program.type_name(t)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if args.len() != rule.params.len() {
            self.diags.push(
                Diagnostic::error(
                    "E0203",
                    format!(
                        "`{}` takes {} but was given {}",
                        rule.name,
                        arguments(rule.params.len()),
                        args.len()
                    ),
                    span,
                )
                .with_label(format!("{} given here", arguments(args.len())))
                .with_help(format!("call it as `{signature}`")),
            );
            for (_, a) in args {
                self.expr(a, scope);
            }
            return poison(span);
        }
        // Named arguments may come in any order; positional ones fill in order.
        let mut slots: Vec<Option<ir::Expr>> = vec![None; rule.params.len()];
        for (pos, (label, a)) in args.iter().enumerate() {
            let target = match label {
                Some(l) => match rule.params.iter().position(|(n, _)| *n == l.text) {
                    Some(p) => p,
                    None => {
                        let mut d = Diagnostic::error(
                            "E0203",
                            format!("`{}` has no parameter `{}`", rule.name, l.text),
                            l.span,
                        );
                        d = match did_you_mean(&l.text, rule.params.iter().map(|(n, _)| n.as_str()))
                        {
                            Some(h) => d.with_help(h),
                            None => d.with_help(format!("call it as `{signature}`")),
                        };
                        self.diags.push(d);
                        self.expr(a, scope);
                        continue;
                    }
                },
                None => pos,
            };
            let want = rule
                .params
                .get(target)
                .map_or(Type::Error, |(_, t)| t.clone());
            let v = self.expect(a, &want, scope);
            match slots.get_mut(target) {
                Some(slot @ None) => *slot = Some(v),
                _ => self.diags.push(Diagnostic::error(
                    "E0203",
                    "this parameter is given twice",
                    a.span,
                )),
            }
        }
        let args: Vec<ir::Expr> = slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| poison(span)))
            .collect();
        mk(ExprKind::Call(i, args), rule.ret.clone(), span)
    }

    fn builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[(Option<ast::Name>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let xs: Vec<ir::Expr> = args.iter().map(|(_, a)| self.expr(a, scope)).collect();
        let arity_ok = match b {
            Builtin::Min | Builtin::Max => xs.len() >= 2,
            Builtin::Round => xs.len() == 1 || xs.len() == 2,
            Builtin::Pow | Builtin::Mod | Builtin::At => xs.len() == 2,
            _ => xs.len() == 1,
        };
        if !arity_ok {
            self.diags.push(
                Diagnostic::error(
                    "E0203",
                    format!("`{}` was given {}", name.text, arguments(xs.len())),
                    span,
                )
                .with_help(builtin_usage(b)),
            );
            return poison(span);
        }
        let first = xs.first().map_or(Type::Error, |x| x.ty.clone());
        let number = Type::number();
        let want_all = |c: &mut Checker, xs: &[ir::Expr], want: &Type| {
            for x in xs {
                if !x.ty.fits(want) {
                    c.mismatch(want, &x.ty, x.span);
                }
            }
        };
        let ty = match b {
            Builtin::Min | Builtin::Max => {
                let ordered = matches!(
                    first,
                    Type::Num(_)
                        | Type::Duration
                        | Type::Date
                        | Type::Time
                        | Type::DateTime
                        | Type::Error
                ) || (b == Builtin::Max && matches!(first, Type::Penalty(_)));
                if !ordered {
                    self.diags.push(
                        Diagnostic::error(
                            "E0201",
                            format!("`{}` has no order", self.program.type_name(&first)),
                            span,
                        )
                        .with_help(builtin_usage(b)),
                    );
                }
                want_all(self, xs.get(1..).unwrap_or(&[]), &first);
                first
            }
            Builtin::Ceil | Builtin::Floor | Builtin::Abs => {
                if !matches!(first, Type::Num(_) | Type::Error) {
                    self.mismatch(&number, &first, span);
                }
                first
            }
            Builtin::Round => {
                if !matches!(first, Type::Num(_) | Type::Error) {
                    self.mismatch(&number, &first, span);
                }
                want_all(self, xs.get(1..).unwrap_or(&[]), &number);
                first
            }
            Builtin::Sqrt | Builtin::Pow => {
                want_all(self, &xs, &number);
                number
            }
            Builtin::Mod => {
                want_all(self, xs.get(1..).unwrap_or(&[]), &first);
                first
            }
            Builtin::IsReferral => {
                want_all(self, &xs, &Type::Penalty(None));
                Type::Bool
            }
            Builtin::Year => {
                if !matches!(first, Type::Date | Type::DateTime | Type::Error) {
                    self.mismatch(&Type::Date, &first, span);
                }
                number
            }
            Builtin::At => {
                if let [d, t] = xs.as_slice() {
                    if !d.ty.fits(&Type::Date) {
                        self.mismatch(&Type::Date, &d.ty, d.span);
                    }
                    if !t.ty.fits(&Type::Time) {
                        self.mismatch(&Type::Time, &t.ty, t.span);
                    }
                }
                Type::DateTime
            }
            Builtin::DateOf => {
                want_all(self, &xs, &Type::DateTime);
                Type::Date
            }
        };
        mk(ExprKind::Builtin(b, xs), ty, span)
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

    fn match_expr(
        &mut self,
        scrutinee: &ast::Expr,
        arms: &[(Option<Vec<ast::Name>>, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let s = self.expr(scrutinee, scope);
        let info = match &s.ty {
            Type::Enum(e) => self.program.enums.get(*e as usize).cloned(),
            Type::Error => None,
            other => {
                let t = self.program.type_name(other);
                self.diags.push(
                    Diagnostic::error(
                        "E0201",
                        format!("`match` needs an enum value, found `{t}`"),
                        scrutinee.span,
                    )
                    .with_help("use `if … then … else …` for other values"),
                );
                None
            }
        };
        let mut out_arms = Vec::new();
        let mut covered = vec![false; info.as_ref().map_or(0, |i| i.variants.len())];
        let mut seen_wildcard = false;
        let mut ty: Option<Type> = None;
        for (pattern, value) in arms {
            let v = self.expr(value, scope);
            ty = match &ty {
                None => Some(v.ty.clone()),
                Some(t) => match t.join(&v.ty) {
                    Some(joined) => Some(joined),
                    None => {
                        self.mismatch(t, &v.ty, value.span);
                        Some(t.clone())
                    }
                },
            };
            let pat_span = pattern
                .as_ref()
                .and_then(|p| Some(p.first()?.span.to(p.last()?.span)))
                .unwrap_or(value.span);
            if seen_wildcard {
                self.diags.push(
                    Diagnostic::error("E0303", "this arm can never be reached", pat_span)
                        .with_label("an earlier `_` arm takes every value")
                        .with_help("move it before the `_` arm, or remove it"),
                );
            }
            let variant = match (pattern, &info) {
                (None, _) => {
                    if !covered.is_empty() && covered.iter().all(|c| *c) {
                        self.diags.push(
                            Diagnostic::error(
                                "E0303",
                                "this `_` arm can never be reached",
                                value.span,
                            )
                            .with_label("every variant already has an arm"),
                        );
                    }
                    seen_wildcard = true;
                    None
                }
                (Some(p), Some(info)) => {
                    let last = p.last();
                    let qualifier_ok = match p.as_slice() {
                        [_] => true,
                        [q, _] => q.text == info.name,
                        _ => false,
                    };
                    match last {
                        Some(l) if qualifier_ok => {
                            match info.variants.iter().position(|v| *v == l.text) {
                                Some(pos) => {
                                    if covered.get(pos).copied().unwrap_or(false) {
                                        self.diags.push(
                                            Diagnostic::error(
                                                "E0303",
                                                format!("`{}` already has an arm", l.text),
                                                pat_span,
                                            )
                                            .with_label("this arm can never be reached"),
                                        );
                                    }
                                    if let Some(c) = covered.get_mut(pos) {
                                        *c = true;
                                    }
                                    Some(super::idx(pos))
                                }
                                None => {
                                    self.unknown_variant(info, &l.text, l.span);
                                    None
                                }
                            }
                        }
                        _ => {
                            self.diags.push(Diagnostic::error(
                                "E0104",
                                format!("this pattern is not a variant of `{}`", info.name),
                                pat_span,
                            ));
                            None
                        }
                    }
                }
                (Some(_), None) => None,
            };
            out_arms.push((variant, v));
        }
        if let Some(info) = &info {
            let missing: Vec<&str> = info
                .variants
                .iter()
                .zip(&covered)
                .filter(|(_, c)| !**c)
                .map(|(v, _)| v.as_str())
                .collect();
            if !seen_wildcard && !missing.is_empty() {
                self.diags.push(
                    Diagnostic::error(
                        "E0304",
                        format!("`match` has no arm for {}", list(&missing)),
                        span,
                    )
                    .with_help("add the missing arms, or a `_ => value` arm"),
                );
            }
        }
        mk(
            ExprKind::Match(Box::new(s), out_arms),
            ty.unwrap_or(Type::Error),
            span,
        )
    }

    fn record(
        &mut self,
        name: &ast::Name,
        fields: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> ir::Expr {
        let Some(TypeName::Record(r)) = self.names.types.get(&name.text).cloned() else {
            self.unknown_name(name, scope);
            return poison(span);
        };
        let Some(info) = self.program.records.get(r as usize).cloned() else {
            return poison(span);
        };
        let mut values: Vec<Option<ir::Expr>> = vec![None; info.fields.len()];
        for (f, v) in fields {
            match info.fields.iter().position(|(n, _)| *n == f.text) {
                Some(pos) => {
                    let want = info.fields.get(pos).map_or(Type::Error, |(_, t)| t.clone());
                    let x = self.expect(v, &want, scope);
                    if let Some(slot) = values.get_mut(pos) {
                        if slot.is_some() {
                            self.diags.push(Diagnostic::error(
                                "E0102",
                                format!("`{}` is given twice", f.text),
                                f.span,
                            ));
                        }
                        *slot = Some(x);
                    }
                }
                None => {
                    let mut d = Diagnostic::error(
                        "E0105",
                        format!("`{}` has no field `{}`", info.name, f.text),
                        f.span,
                    );
                    if let Some(h) =
                        did_you_mean(&f.text, info.fields.iter().map(|(n, _)| n.as_str()))
                    {
                        d = d.with_help(h);
                    }
                    self.diags.push(d);
                }
            }
        }
        let missing: Vec<&str> = info
            .fields
            .iter()
            .zip(&values)
            .filter(|(_, v)| v.is_none())
            .map(|((n, _), _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    "E0304",
                    format!("`{}` needs {}", info.name, list(&missing)),
                    span,
                )
                .with_help("give every field a value"),
            );
            return poison(span);
        }
        let values = values
            .into_iter()
            .map(|v| v.unwrap_or_else(|| poison(span)))
            .collect();
        mk(ExprKind::Record(r, values), Type::Record(r), span)
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

fn builtin_usage(b: Builtin) -> &'static str {
    match b {
        Builtin::Min => "use it as `min(a, b, …)` with values of one type",
        Builtin::Max => {
            "use it as `max(a, b, …)` with values of one type (penalties: the most severe)"
        }
        Builtin::Round => "use it as `round(x)` or `round(x, decimals)`",
        Builtin::Pow => "use it as `pow(base, exponent)`",
        Builtin::Mod => "use it as `mod(a, b)`",
        _ => "it takes one argument",
    }
}

/// `1 argument`, `2 arguments`.
fn arguments(n: usize) -> String {
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

fn list_strs(items: &[String]) -> String {
    list(&items.iter().map(String::as_str).collect::<Vec<_>>())
}
