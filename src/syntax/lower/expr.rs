//! Lowering expressions: operators, postfix chains, paths and literals
//! (numbers with units, clock times, dates), bounded in depth by `nested`.

use super::{Lower, P, R, string_value};
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::{Rule, SyntaxError};
use rust_decimal::Decimal;
use std::str::FromStr;

impl Lower {
    /// Lowers one expression node: dispatches on its rule, one helper per form.
    pub(super) fn expr_inner(&self, p: P) -> R<Expr> {
        match p.as_rule() {
            Rule::paren | Rule::assertion => self.wrapped(p),
            Rule::expr => self.two_precedences(p, |op| op == "and"),
            Rule::arith => self.two_precedences(p, |op| op == "*" || op == "/"),
            Rule::not_term => self.not_term(p),
            Rule::unary => self.prefixed(p, Rule::neg, ExprKind::Neg),
            Rule::postfix => self.postfix(p),
            Rule::if_expr => self.if_expr(p),
            Rule::let_expr => self.let_expr(p),
            Rule::match_expr => self.match_expr(p),
            Rule::record_lit => self.record_lit(p),
            Rule::penalty => self.penalty(p),
            Rule::list_lit => self.list_lit(p),
            Rule::path => Ok(self.path(p)),
            _ => self.literal(p),
        }
    }

    /// A node that only wraps one expression (`expr`, parentheses, an assertion).
    fn wrapped(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| SyntaxError::internal(span))?;
        self.expr(inner)
    }

    /// `not not x`, `- - x`: the operand sits one level deeper per prefix
    /// operator (`op` is the operator's rule), and each operator wraps it once.
    fn prefixed(&self, p: P, op: Rule, wrap: fn(Box<Expr>) -> ExprKind) -> R<Expr> {
        let outer = self.span(&p);
        let text = p.as_str();
        let count = p.clone().into_inner().filter(|c| c.as_rule() == op).count();
        let mut operand = None;
        for c in p.into_inner() {
            if c.as_rule() != op {
                operand = Some(self.nested(count, outer, || self.expr(c))?);
            }
        }
        let e = operand.ok_or_else(|| SyntaxError::internal(outer))?;
        Ok(crate::syntax::under_prefixes(e, count, wrap, outer, text))
    }

    /// `if c then t else e`
    fn if_expr(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        match (it.next(), it.next(), it.next()) {
            (Some(c), Some(t), Some(e)) => self.nested(1, span, || {
                Ok(Expr {
                    kind: ExprKind::If(
                        Box::new(self.expr(c)?),
                        Box::new(self.expr(t)?),
                        Box::new(self.expr(e)?),
                    ),
                    span,
                })
            }),
            _ => Err(SyntaxError::internal(span)),
        }
    }

    /// `let n = v in body`
    fn let_expr(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        match (it.next(), it.next(), it.next()) {
            (Some(n), Some(v), Some(b)) => self.nested(1, span, || {
                Ok(Expr {
                    kind: ExprKind::Let(
                        Box::new(self.name(&n)),
                        Box::new(self.expr(v)?),
                        Box::new(self.expr(b)?),
                    ),
                    span,
                })
            }),
            _ => Err(SyntaxError::internal(span)),
        }
    }

    /// `match x { A.b => …, _ => … }`; a `_` arm has no pattern path.
    fn match_expr(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let scrutinee = it.next().ok_or_else(|| SyntaxError::internal(span))?;
        let scrutinee = self.nested(1, span, || self.expr(scrutinee))?;
        let mut arms = Vec::new();
        for arm in it {
            let mut a = arm.into_inner();
            let (Some(pat), Some(value)) = (a.next(), a.next()) else {
                continue;
            };
            let pat = match pat.into_inner().next() {
                Some(x) if x.as_rule() == Rule::path => {
                    Some(x.into_inner().map(|n| self.name(&n)).collect())
                }
                _ => None,
            };
            arms.push((pat, self.nested(1, span, || self.expr(value))?));
        }
        arms.shrink_to_fit();
        Ok(Expr {
            kind: ExprKind::Match(Box::new(scrutinee), arms),
            span,
        })
    }

    /// `Name { field: value, … }`
    fn record_lit(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = it.next().ok_or_else(|| SyntaxError::internal(span))?;
        let mut fields = Vec::new();
        for f in it {
            let mut fi = f.into_inner();
            if let (Some(n), Some(v)) = (fi.next(), fi.next()) {
                fields.push((self.name(&n), self.nested(1, span, || self.expr(v))?));
            }
        }
        fields.shrink_to_fit();
        Ok(Expr {
            kind: ExprKind::Record(Box::new(self.name(&name)), fields),
            span,
        })
    }

    /// A penalty: a warning, a forfeit, a referral, or a deduction.
    fn penalty(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| SyntaxError::internal(span))?;
        let kind = match inner.as_rule() {
            Rule::warning_p => PenaltyExpr::Warning,
            Rule::forfeit_p => PenaltyExpr::Forfeit,
            Rule::refer_p => PenaltyExpr::Refer(
                inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::string)
                    .map_or(String::new(), |s| string_value(&s)),
            ),
            _ => PenaltyExpr::Deduct(Box::new(self.deduct_amount(inner, span)?)),
        };
        Ok(Expr {
            kind: ExprKind::Penalty(kind),
            span,
        })
    }

    /// What a deduction takes: a path, a parenthesised expression or a literal
    /// (`span` is the whole penalty's, for nesting and internal errors).
    fn deduct_amount(&self, deduct: P, span: Span) -> R<Expr> {
        let amount = deduct
            .into_inner()
            .find(|p| p.as_rule() != Rule::deduct_kw)
            .ok_or_else(|| SyntaxError::internal(span))?;
        if amount.as_rule() == Rule::path {
            Ok(self.path(amount))
        } else if amount.as_rule() == Rule::paren {
            self.nested(1, span, || self.expr(amount))
        } else {
            self.literal(amount)
        }
    }

    /// A chain of operators of two precedences as the grammar writes it, flat:
    /// `a or b and c` (`and` binds tighter) or `a + b * c` (`*` and `/` bind
    /// tighter); `tight` says which operators bind tighter. Both kinds associate
    /// to the left. The depth and spans are those of one grammar level per
    /// precedence: the loose chain spans the whole rule and puts its first
    /// operand one level deeper per loose operator; each run of tight operators
    /// ([`Lower::operator_run`]) does the same within its operands.
    fn two_precedences(&self, p: P, tight: fn(&str) -> bool) -> R<Expr> {
        let span = self.span(&p);
        // Operands at even positions, operators at odd ones; a loose operator
        // starts a new run.
        let mut runs: Vec<(Option<P>, Vec<P>)> = vec![(None, Vec::new())];
        for (i, c) in p.into_inner().enumerate() {
            if i % 2 == 1 && !tight(c.as_str()) {
                runs.push((Some(c), Vec::new()));
            } else if let Some((_, run)) = runs.last_mut() {
                run.push(c);
            }
        }
        let loose = runs.len() - 1;
        self.nested(loose, span, || {
            let mut acc: Option<Expr> = None;
            for (op, run) in runs {
                let rhs = self.operator_run(run, span)?;
                acc = Some(match (acc, op) {
                    (Some(lhs), Some(op)) => binary(&op, lhs, rhs),
                    _ => rhs,
                });
            }
            acc.ok_or_else(|| SyntaxError::internal(span))
        })
    }

    /// `not not a == b`: the comparison sits one level deeper per `not`, and
    /// each `not` wraps it once with the whole term's span.
    fn not_term(&self, p: P) -> R<Expr> {
        let outer = self.span(&p);
        let text = p.as_str();
        let mut parts: Vec<P> = p.into_inner().collect();
        let nots = parts
            .iter()
            .take_while(|c| c.as_rule() == Rule::not_op)
            .count();
        let comparison = parts.split_off(nots);
        let e = self.nested(nots, outer, || self.operator_run(comparison, outer))?;
        Ok(crate::syntax::under_prefixes(
            e,
            nots,
            ExprKind::Not,
            outer,
            text,
        ))
    }

    /// Operands and the operators between them, all of one precedence, folded
    /// to the left: `a * b / c` is `(a * b) / c`, so `a` sits one level deeper
    /// per operator. The run spans its operands' pairs (`outer` is for an
    /// internal error only).
    fn operator_run(&self, run: Vec<P>, outer: Span) -> R<Expr> {
        let (Some(first), Some(last)) = (run.first(), run.last()) else {
            return Err(SyntaxError::internal(outer));
        };
        let span = self.at(first.as_span().start(), last.as_span().end());
        self.nested(run.len() / 2, span, || {
            let mut it = run.into_iter();
            let first = it.next().ok_or_else(|| SyntaxError::internal(span))?;
            let mut acc = self.expr(first)?;
            while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
                let rhs = self.expr(rhs)?;
                acc = binary(&op, acc, rhs);
            }
            Ok(acc)
        })
    }

    fn postfix(&self, p: P) -> R<Expr> {
        // `f(x).a.b`: the callee sits one level deeper per call or field.
        let span = self.span(&p);
        let suffixes = p.clone().into_inner().count().saturating_sub(1);
        self.nested(suffixes, span, || self.postfix_chain(p))
    }

    fn postfix_chain(&self, p: P) -> R<Expr> {
        let mut it = p.into_inner();
        let first = it
            .next()
            .ok_or_else(|| SyntaxError::internal(Span::default()))?;
        let mut acc = self.expr(first)?;
        for op in it {
            let span = acc.span.to(self.span(&op));
            acc = match op.as_rule() {
                Rule::call_args => {
                    let mut args = Vec::new();
                    for arg in op.into_inner() {
                        let mut parts: Vec<P> = arg.into_inner().collect();
                        let value = parts.pop().ok_or_else(|| SyntaxError::internal(span))?;
                        let name = parts.pop().map(|n| self.name(&n));
                        let value = if value.as_rule() == Rule::lambda {
                            self.lambda(value)?
                        } else {
                            self.expr(value)?
                        };
                        args.push((name, value));
                    }
                    // Most calls have one or two arguments, not the four a first push reserves.
                    args.shrink_to_fit();
                    Expr {
                        kind: ExprKind::Call {
                            callee: Box::new(acc),
                            args,
                        },
                        span,
                    }
                }
                Rule::index => {
                    let position = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| SyntaxError::internal(span))?;
                    Expr {
                        kind: ExprKind::Index(Box::new(acc), Box::new(self.expr(position)?)),
                        span,
                    }
                }
                _ => {
                    let name = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| SyntaxError::internal(span))?;
                    Expr {
                        kind: ExprKind::Member(Box::new(acc), Box::new(self.name(&name))),
                        span,
                    }
                }
            };
        }
        Ok(acc)
    }

    /// `[a, b, c]` and `[] as [T]`; each value sits one level deeper.
    fn list_lit(&self, p: P) -> R<Expr> {
        // pest keeps the spaces and comments it skipped looking for `as`; they are not
        // the list's, which ends at its `]` unless an annotation follows.
        let mut span = self.span(&p);
        let text = p.as_str();
        let annotated = p
            .clone()
            .into_inner()
            .any(|c| c.as_rule() == Rule::list_annotation);
        // The `]` is the first one after the last value (or the `[`).
        let after_values = p
            .clone()
            .into_inner()
            .last()
            .map_or(1, |c| c.as_span().end().saturating_sub(p.as_span().start()));
        let written = match text.get(after_values..).and_then(crate::syntax::list_close) {
            Some(close) if !annotated => after_values + close + 1,
            _ => text.trim_end().len(),
        };
        span.end = span
            .start
            .saturating_add(u32::try_from(written).unwrap_or(0));
        let mut items = Vec::new();
        let mut annotation = None;
        for c in p.into_inner() {
            if c.as_rule() == Rule::list_annotation {
                let ty = c
                    .into_inner()
                    .find(|t| t.as_rule() == Rule::list_type)
                    .ok_or_else(|| SyntaxError::internal(span))?;
                annotation = Some(self.list_type(ty));
            } else {
                items.push(self.nested(1, span, || self.expr(c))?);
            }
        }
        items.shrink_to_fit();
        Ok(Expr {
            kind: ExprKind::List(items, annotation.map(Box::new)),
            span,
        })
    }

    /// `x => body`, `(acc, x) => body`
    fn lambda(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let (Some(params), Some(body)) = (it.next(), it.next()) else {
            return Err(SyntaxError::internal(span));
        };
        let names = params.into_inner().map(|n| self.name(&n)).collect();
        let body = self.nested(1, span, || self.expr(body))?;
        Ok(Expr {
            kind: ExprKind::Lambda(names, Box::new(body)),
            span,
        })
    }

    pub(super) fn path(&self, p: P) -> Expr {
        let span = self.span(&p);
        Expr {
            kind: ExprKind::Path(p.into_inner().map(|n| self.name(&n)).collect()),
            span,
        }
    }

    /// A literal. One that is not one (a date not in the calendar, a number
    /// too large: E0006, E0007) is read as [`ExprKind::Invalid`] and its error
    /// set aside in [`Lower::bad_literals`], so one bad literal costs its own
    /// diagnostic, not the item's, and the rest of the edition is checked.
    pub(super) fn literal(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let written = p.as_str();
        match self.literal_value(p) {
            Err(e) if e.code != SyntaxError::INTERNAL => {
                self.bad_literals.borrow_mut().push(e);
                Ok(Expr {
                    kind: ExprKind::Invalid(written.into()),
                    span,
                })
            }
            read => read,
        }
    }

    /// [`literal`](Self::literal), failing on a bad one.
    fn literal_value(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::number => ExprKind::Number(self.decimal(&p)?),
            Rule::quantity => {
                let mut it = p.into_inner();
                let (Some(n), Some(u)) = (it.next(), it.next()) else {
                    return Err(SyntaxError::internal(span));
                };
                ExprKind::Quantity(self.decimal(&n)?, Box::new(self.unit_expr(u)))
            }
            Rule::duration => {
                let mut seconds = Decimal::ZERO;
                // Hours, minutes, seconds: each at most once, in that order.
                let mut last_rank = 0u8;
                for part in p.into_inner() {
                    let mut it = part.into_inner();
                    let (Some(n), Some(u)) = (it.next(), it.next()) else {
                        continue;
                    };
                    let (factor, rank) = match u.as_str() {
                        "h" => (Decimal::from(3600), 1),
                        "min" => (Decimal::from(60), 2),
                        _ => (Decimal::ONE, 3),
                    };
                    if rank <= last_rank {
                        let mut e = self.err(
                            &u,
                            format!(
                                "`{}` comes again or out of order in this duration",
                                u.as_str()
                            ),
                        );
                        e.help = Some(
                            "write hours, minutes and seconds each once, in that order: `1 h 30 min`"
                                .into(),
                        );
                        return Err(e);
                    }
                    last_rank = rank;
                    seconds = self
                        .decimal(&n)?
                        .checked_mul(factor)
                        .and_then(|v| seconds.checked_add(v))
                        .ok_or_else(|| self.err(&n, "this duration is too large"))?;
                }
                ExprKind::Duration(seconds)
            }
            Rule::string => ExprKind::Text(string_value(&p)),
            Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
            Rule::date_lit => ExprKind::Date(Box::new(self.date(p)?)),
            Rule::time_lit => ExprKind::Time(self.clock(&p)?),
            Rule::datetime => {
                let clock = p
                    .clone()
                    .into_inner()
                    .find(|c| c.as_rule() == Rule::clock)
                    .ok_or_else(|| SyntaxError::internal(span))?;
                let minutes = self.clock(&clock)?;
                ExprKind::DateTime(Box::new(self.date(p)?), minutes)
            }
            _ => return Err(SyntaxError::internal(span)),
        };
        Ok(Expr { kind, span })
    }

    fn decimal(&self, p: &P) -> R<Decimal> {
        Decimal::from_str(p.as_str()).map_err(|_| {
            let mut e = self.err(p, format!("the number `{}` is too large", p.as_str()));
            e.help = Some("numbers may have at most 28 significant digits".into());
            e
        })
    }

    fn clock(&self, p: &P) -> R<u16> {
        let s = p.as_str();
        let (h, m) = s.split_once(':').unwrap_or((s, "0"));
        let (h, m) = (
            h.parse::<u16>().unwrap_or(99),
            m.parse::<u16>().unwrap_or(99),
        );
        if h > 23 || m > 59 {
            let mut e = self.err(p, format!("`{s}` is not a time of day"));
            e.code = "E0007";
            e.help = Some("write times as HH:MM, from 00:00 to 23:59".into());
            return Err(e);
        }
        Ok(h * 60 + m)
    }

    fn date(&self, p: P) -> R<DateLit> {
        let span = self.span(&p);
        let mut weekday = None;
        let mut date = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::weekday => weekday = Some((c.as_str().to_string(), self.span(&c))),
                Rule::date => date = Some(c),
                _ => {}
            }
        }
        let d = date.ok_or_else(|| SyntaxError::internal(span))?;
        let text = d.as_str();
        let field = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<i16>().ok());
        let (Some(year), Some(month), Some(day)) = (field(0..4), field(5..7), field(8..10)) else {
            return Err(SyntaxError::internal(span));
        };
        let valid = year >= crate::eval::arith::FIRST_YEAR
            && jiff::civil::Date::new(year, month as i8, day as i8).is_ok();
        if !valid {
            let message = if year < crate::eval::arith::FIRST_YEAR {
                format!("`{text}` is before the first year bfr counts (0001)")
            } else {
                format!("`{text}` is not a date in the calendar")
            };
            let mut e = self.err(&d, message);
            e.code = "E0007";
            e.help = Some(calendar_help(year, month, day));
            return Err(e);
        }
        Ok(DateLit {
            weekday,
            year,
            month: month as i8,
            day: day as i8,
            span,
        })
    }
}

/// `lhs op rhs`, spanning both operands.
fn binary(op: &P, lhs: Expr, rhs: Expr) -> Expr {
    let op = match op.as_str() {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "and" => BinOp::And,
        _ => BinOp::Or,
    };
    let span = lhs.span.to(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}

/// What is wrong with a date written in the right form: the month, or the day
/// past its month's last (`February 2016 has 29 days`).
fn calendar_help(year: i16, month: i16, day: i16) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    if year < 1 {
        return "the year is the first number, from 0001 to 9999 (YYYY-MM-DD)".into();
    }
    let Some(name) = usize::try_from(month - 1).ok().and_then(|m| MONTHS.get(m)) else {
        return "the month is the middle number, from 01 to 12 (YYYY-MM-DD)".into();
    };
    let days = (year >= 1)
        .then(|| jiff::civil::Date::new(year, month as i8, 1).ok())
        .flatten()
        .map(|first| first.days_in_month());
    match days {
        Some(days) if day == 0 || i16::from(days) < day => {
            format!("{name} {year} has {days} days (YYYY-MM-DD, the day last)")
        }
        _ => "write dates as YYYY-MM-DD".into(),
    }
}
