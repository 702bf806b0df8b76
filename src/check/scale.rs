//! Scales: lowering their rows, then checking that the rows neither overlap nor
//! leave holes.
//!
//! Each row is an interval over the parameter. Bounds are constants (literals or
//! consts), evaluated once the whole edition is lowered. Parameters that count
//! whole things (`integer`, a `whole` unit) are analysed on the integers, so
//! `n <= 8` and `n == 10` leave exactly `9` uncovered.
//!
//! With `domain`, every value of the domain must be covered (a hole is an error).
//! Without it, holes between the lowest and highest row are warnings: the
//! document has "an input range no rule covers".

mod coverage;

pub(crate) use coverage::{ScaleRows, analyse_all};

use super::Checker;
use super::expr::Scope;
use crate::diag::Diagnostic;
use crate::ir::{self, Counting, RuleBody, ScaleArm, Type, Value};
use crate::syntax::ast;

impl Checker {
    pub(crate) fn lower_scale(
        &mut self,
        s: &ast::ScaleDecl,
        params: &[(String, Type)],
        (ret, answer): (&Type, Counting),
        scope: &mut Scope,
    ) -> RuleBody {
        let [(param, param_ty)] = params else {
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("scale `{}` must have exactly one parameter", s.name.text),
                    s.name.span,
                )
                .with_help(
                    "a scale maps ranges of one input to values; use a `fn` for more inputs",
                ),
            );
            return RuleBody::Scale { arms: Vec::new() };
        };
        if !matches!(
            param_ty,
            Type::Num(_) | Type::Duration | Type::Date | Type::Time | Type::DateTime | Type::Error
        ) {
            let t = self.program.type_name(param_ty);
            self.diags.push(
                Diagnostic::error(
                    "E0201",
                    format!("a scale's input must be ordered; `{t}` is not"),
                    s.name.span,
                )
                .with_help("use a `table` for enum inputs"),
            );
        }
        let mut all = Vec::new();
        if let Some(d) = &s.domain {
            self.range_bounds(d, param, param_ty, scope);
        }
        for (range, value) in &s.arms {
            let (lower, upper) = self.range_bounds(range, param, param_ty, scope);
            let v = self.expect_answer(&s.name.text, (ret, answer), value, scope);
            all.push(ScaleArm {
                lower,
                upper,
                value: v,
                text: range_text(range),
                span: range.span,
            });
        }
        RuleBody::Scale { arms: all }
    }

    /// Checks a range's variable and bound types. The bounds get their values
    /// later ([`analyse_all`]); until then they hold a placeholder.
    fn range_bounds(
        &mut self,
        r: &ast::Range,
        param: &str,
        param_ty: &Type,
        scope: &mut Scope,
    ) -> (Option<ir::Bound>, Option<ir::Bound>) {
        if r.var.text != param {
            self.diags.push(
                Diagnostic::error(
                    "E0101",
                    format!(
                        "this row ranges over `{}`, but the scale's input is `{param}`",
                        r.var.text
                    ),
                    r.var.span,
                )
                .with_help(format!("write the range over `{param}`")),
            );
        }
        if let Some(x) = &r.except {
            self.diags.push(
                Diagnostic::error(
                    "E0306",
                    "a scale row must be one range; `!=` splits it in two",
                    x.span,
                )
                .with_help("write two rows, one on each side"),
            );
        }
        let mut bound = |c: &mut Checker, b: &Option<ast::Bound>| {
            b.as_ref().map(|b| {
                c.expect(&b.value, param_ty, scope);
                ir::Bound {
                    value: Value::Bool(false),
                    inclusive: b.inclusive,
                }
            })
        };
        let lower = bound(self, &r.lower);
        let upper = bound(self, &r.upper);
        (lower, upper)
    }
}

fn range_text(r: &ast::Range) -> String {
    // Rebuilt from parts so traces read the same however the row was spaced; written
    // into one string, since a check makes one for every row of every scale.
    let mut text = String::with_capacity(32);
    let var = r.var.text.as_str();
    let op = |inclusive: bool| if inclusive { " <= " } else { " < " };
    match (&r.lower, &r.upper) {
        (Some(l), Some(u)) if l.inclusive && u.inclusive && l.value == u.value => {
            text.push_str(var);
            text.push_str(" == ");
            push_bound(&mut text, &l.value);
        }
        (Some(l), Some(u)) => {
            push_bound(&mut text, &l.value);
            text.push_str(op(l.inclusive));
            text.push_str(var);
            text.push_str(op(u.inclusive));
            push_bound(&mut text, &u.value);
        }
        (Some(l), None) => {
            text.push_str(var);
            text.push_str(if l.inclusive { " >= " } else { " > " });
            push_bound(&mut text, &l.value);
        }
        (None, Some(u)) => {
            text.push_str(var);
            text.push_str(op(u.inclusive));
            push_bound(&mut text, &u.value);
        }
        (None, None) => text.push_str(var),
    }
    text
}

/// Appends a row's bound as written: `5 min`, `2 VP`, `-1`, `max_late`.
fn push_bound(text: &mut String, e: &ast::Expr) {
    use std::fmt::Write;
    // Writing to a `String` cannot fail.
    match &e.kind {
        ast::ExprKind::Number(n) => {
            let _ = write!(text, "{}", n.normalize());
        }
        ast::ExprKind::Quantity(n, u) => {
            let _ = write!(text, "{} ", n.normalize());
            for (i, name) in u.num.iter().enumerate() {
                if i > 0 {
                    text.push('*');
                }
                text.push_str(&name.text);
            }
            for name in &u.den {
                text.push('/');
                text.push_str(&name.text);
            }
        }
        ast::ExprKind::Duration(secs) => text.push_str(&ir::value::show_duration(*secs)),
        ast::ExprKind::Path(p) => {
            for (i, name) in p.iter().enumerate() {
                if i > 0 {
                    text.push('.');
                }
                text.push_str(&name.text);
            }
        }
        ast::ExprKind::Neg(x) => match &x.kind {
            ast::ExprKind::Number(n) => {
                let _ = write!(text, "-{}", n.normalize());
            }
            _ => text.push_str("-…"),
        },
        _ => text.push('…'),
    }
}
