//! Stage 4: the interpreter. Evaluates IR expressions to values, optionally
//! recording a trace of every rule that took part (for `bfr explain`).
//!
//! Pure and deterministic: no clocks, no randomness, no I/O. Every arithmetic
//! step is checked ([`arith`]); a failure is an [`EvalError`] with the span of
//! the expression that failed, never a panic.

pub mod arith;
pub mod examples;
mod list;
pub mod trace;

use crate::ir::{Builtin, Expr, ExprKind, Penalty, Program, RuleBody, Unit, Value};
use crate::source::Span;
use rust_decimal::prelude::*;
use trace::TraceNode;

/// Why an evaluation failed.
#[derive(Debug, Clone)]
pub struct EvalError {
    /// In words.
    pub message: String,
    /// The expression that failed.
    pub span: Span,
    /// The diagnostic code of a failure that has its own (a position outside a
    /// list, …); `None` for the rest, which the caller reports under its code.
    pub code: Option<&'static str>,
}

type R = Result<Value, EvalError>;

/// Calls deeper than this are refused; acyclic editions never come near it.
const MAX_CALL_DEPTH: usize = 10_000;

/// Evaluates expressions of one program.
pub struct Evaluator<'p> {
    program: &'p Program,
    trace: Option<Vec<TraceNode>>,
    depth: usize,
}

impl<'p> Evaluator<'p> {
    /// An evaluator without tracing.
    pub fn new(program: &'p Program) -> Self {
        Evaluator {
            program,
            trace: None,
            depth: 0,
        }
    }

    /// An evaluator that records which rules took part.
    pub fn tracing(program: &'p Program) -> Self {
        Evaluator {
            program,
            trace: Some(vec![TraceNode::root()]),
            depth: 0,
        }
    }

    /// The recorded trace (the rules called at the top level).
    pub fn into_trace(self) -> Vec<TraceNode> {
        self.trace
            .and_then(|mut t| t.pop())
            .map(|root| root.children)
            .unwrap_or_default()
    }

    /// Evaluates an expression with no free locals.
    pub fn eval_closed(&mut self, e: &Expr) -> R {
        self.eval(e, &mut Vec::new())
    }

    fn fail(message: impl Into<String>, span: Span) -> EvalError {
        EvalError {
            message: message.into(),
            span,
            code: None,
        }
    }

    fn eval(&mut self, e: &Expr, frame: &mut Vec<Value>) -> R {
        stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.eval_inner(e, frame))
    }

    fn eval_inner(&mut self, e: &Expr, frame: &mut Vec<Value>) -> R {
        let span = e.span;
        match &e.kind {
            ExprKind::Lit(v) => Ok(v.clone()),
            ExprKind::Local(slot) => frame
                .get(*slot as usize)
                .cloned()
                .ok_or_else(|| Self::fail("internal error: a local has no value", span)),
            ExprKind::Call(i, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, frame)?);
                }
                self.call(*i, values, span)
            }
            ExprKind::RuleRef(i) => Ok(Value::Rule(
                self.program
                    .rules
                    .get(*i as usize)
                    .map_or("?".into(), |r| r.name.clone()),
            )),
            ExprKind::Builtin(b, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, frame)?);
                }
                match values.as_slice() {
                    [Value::List(xs)] if matches!(b, Builtin::Min | Builtin::Max) => {
                        list::extreme(*b, xs, span)
                    }
                    _ if b.is_list_builtin() => list::builtin(*b, values, &e.ty, span),
                    _ => builtin(*b, &values).map_err(|m| Self::fail(m, span)),
                }
            }
            ExprKind::List(_) | ExprKind::Index(..) | ExprKind::Loop { .. } => {
                self.eval_list(e, frame)
            }
            ExprKind::Neg(x) => {
                let v = self.eval(x, frame)?;
                arith::negate(&v).map_err(|m| Self::fail(m, span))
            }
            ExprKind::Not(x) => match self.eval(x, frame)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                _ => Err(Self::fail("`not` needs true or false", span)),
            },
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, frame)?;
                // `and` / `or` decide on the left side when they can.
                match (op, &x) {
                    (crate::ir::BinOp::And, Value::Bool(false)) => return Ok(x),
                    (crate::ir::BinOp::Or, Value::Bool(true)) => return Ok(x),
                    _ => {}
                }
                let y = self.eval(b, frame)?;
                arith::binary(*op, &x, &y).map_err(|m| Self::fail(m, span))
            }
            ExprKind::If(c, t, f) => match self.eval(c, frame)? {
                Value::Bool(true) => self.eval(t, frame),
                Value::Bool(false) => self.eval(f, frame),
                _ => Err(Self::fail("the condition is not true or false", c.span)),
            },
            ExprKind::Let(slot, value, body) => {
                let v = self.eval(value, frame)?;
                set_local(frame, *slot, v);
                self.eval(body, frame)
            }
            ExprKind::Match(s, arms) => {
                let v = self.eval(s, frame)?;
                let Value::Enum(_, variant) = v else {
                    return Err(Self::fail("`match` needs an enum value", s.span));
                };
                for (pattern, value) in arms {
                    if pattern.is_none_or(|p| p == variant) {
                        return self.eval(value, frame);
                    }
                }
                Err(Self::fail("no arm of this `match` applies", span))
            }
            ExprKind::Record(r, fields) => {
                let mut values = Vec::with_capacity(fields.len());
                for f in fields {
                    values.push(self.eval(f, frame)?);
                }
                Ok(Value::Record(*r, values))
            }
            ExprKind::Field(x, i) => match self.eval(x, frame)? {
                Value::Record(_, mut values) if (*i as usize) < values.len() => {
                    Ok(values.swap_remove(*i as usize))
                }
                _ => Err(Self::fail("this value has no such field", span)),
            },
            ExprKind::Deduct(x) => match self.eval(x, frame)? {
                Value::Num(amount, _) if amount <= Decimal::ZERO => Err(Self::fail(
                    format!(
                        "a deduction must be more than zero, not {}",
                        amount.normalize()
                    ),
                    span,
                )),
                Value::Num(amount, unit) => Ok(Value::Penalty(Penalty::Deduct { amount, unit })),
                _ => Err(Self::fail("a deduction needs a quantity", span)),
            },
        }
    }

    /// Calls rule `i` with argument values.
    pub fn call(&mut self, i: u32, args: Vec<Value>, span: Span) -> R {
        let program = self.program;
        let Some(rule) = program.rules.get(i as usize) else {
            return Err(Self::fail("internal error: unknown rule", span));
        };
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Self::fail("rules call each other too deeply", span));
        }
        for ((name, _), (value, whole)) in rule.params.iter().zip(args.iter().zip(&rule.whole)) {
            if let (true, Value::Num(n, _)) = (whole, value)
                && !n.fract().is_zero()
            {
                return Err(Self::fail(
                    format!(
                        "`{name}` of `{}` counts whole things; {} is not whole",
                        rule.name,
                        value.show(program)
                    ),
                    span,
                ));
            }
        }
        self.depth += 1;
        if let Some(t) = &mut self.trace {
            let inputs = rule
                .params
                .iter()
                .zip(&args)
                .map(|((n, _), v)| (n.clone(), v.show(program)))
                .collect();
            t.push(TraceNode::enter(rule, inputs));
        }
        let mut frame = args;
        frame.resize(
            rule.locals.max(rule.params.len() as u32) as usize,
            Value::Bool(false),
        );
        let (result, detail) = match &rule.body {
            RuleBody::Const { value } => (self.eval(value, &mut frame), None),
            RuleBody::Fn { body } => (self.eval(body, &mut frame), None),
            RuleBody::Table { rows } => match frame.first() {
                Some(Value::Enum(e, v)) => {
                    let key = program
                        .enums
                        .get(*e as usize)
                        .and_then(|info| info.variants.get(*v as usize))
                        .cloned()
                        .unwrap_or_default();
                    match rows.get(*v as usize) {
                        Some(row) => (self.eval(row, &mut frame), Some(format!("row `{key}`"))),
                        None => (Err(Self::fail("no row for this key", span)), None),
                    }
                }
                _ => (Err(Self::fail("a table needs an enum key", span)), None),
            },
            RuleBody::Scale { arms } => {
                let input = frame.first().cloned().unwrap_or(Value::Bool(false));
                match arms.iter().find(|a| in_range(&input, a)) {
                    Some(arm) => (
                        self.eval(&arm.value, &mut frame),
                        Some(format!("row `{}`", arm.text)),
                    ),
                    None => {
                        let param = rule.params.first().map_or("input", |(n, _)| n.as_str());
                        (
                            Err(Self::fail(
                                format!(
                                    "no row of `{}` covers {param} = {}",
                                    rule.name,
                                    input.show(program)
                                ),
                                span,
                            )),
                            None,
                        )
                    }
                }
            }
        };
        self.depth -= 1;
        if let Some(t) = &mut self.trace
            && let Some(mut node) = t.pop()
        {
            node.detail = detail;
            node.output = result.as_ref().ok().map(|v| v.show(program));
            if let Some(parent) = t.last_mut() {
                parent.children.push(node);
            }
        }
        result
    }
}

/// Gives local `slot` a value, growing the frame if it is the first use.
fn set_local(frame: &mut Vec<Value>, slot: u32, v: Value) {
    let slot = slot as usize;
    if frame.len() <= slot {
        frame.resize(slot + 1, Value::Bool(false));
    }
    if let Some(s) = frame.get_mut(slot) {
        *s = v;
    }
}

fn in_range(x: &Value, arm: &crate::ir::ScaleArm) -> bool {
    let Some(k) = x.order_key() else {
        return false;
    };
    let lower_ok = arm.lower.as_ref().is_none_or(|b| {
        b.value
            .order_key()
            .is_some_and(|v| if b.inclusive { k >= v } else { k > v })
    });
    let upper_ok = arm.upper.as_ref().is_none_or(|b| {
        b.value
            .order_key()
            .is_some_and(|v| if b.inclusive { k <= v } else { k < v })
    });
    lower_ok && upper_ok
}

fn builtin(b: Builtin, xs: &[Value]) -> Result<Value, String> {
    let num = |i: usize| match xs.get(i) {
        Some(Value::Num(n, u)) => Ok((*n, u.clone())),
        _ => Err("expected a number".to_string()),
    };
    match b {
        Builtin::Min | Builtin::Max => {
            let mut best = xs.first().cloned().ok_or("no arguments")?;
            for x in xs.iter().skip(1) {
                let ord = arith::compare(x, &best)?;
                let better = if b == Builtin::Min {
                    ord == std::cmp::Ordering::Less
                } else {
                    ord == std::cmp::Ordering::Greater
                };
                if better {
                    best = x.clone();
                }
            }
            Ok(best)
        }
        Builtin::Ceil => num(0).map(|(n, u)| Value::Num(n.ceil(), u)),
        Builtin::Floor => num(0).map(|(n, u)| Value::Num(n.floor(), u)),
        Builtin::Abs => num(0).map(|(n, u)| Value::Num(n.abs(), u)),
        Builtin::Round => {
            let (n, u) = num(0)?;
            let dp = match xs.get(1) {
                Some(Value::Num(d, _)) => d
                    .to_u32()
                    .filter(|d| *d <= 28)
                    .ok_or("decimals must be 0 to 28")?,
                _ => 0,
            };
            Ok(Value::Num(arith::round(n, dp), u))
        }
        Builtin::Sqrt => {
            let (n, _) = num(0)?;
            arith::sqrt(n)
                .map(|r| Value::Num(r, Unit::none()))
                .ok_or_else(|| "square root of a negative number".to_string())
        }
        Builtin::Pow => {
            let ((x, _), (y, _)) = (num(0)?, num(1)?);
            arith::pow(x, y).map(|r| Value::Num(r, Unit::none()))
        }
        Builtin::Mod => {
            let ((x, u), (y, _)) = (num(0)?, num(1)?);
            if y.is_zero() {
                return Err("division by zero".into());
            }
            x.checked_rem(y)
                .map(|r| Value::Num(r, u))
                .ok_or_else(|| "the result is too large".into())
        }
        Builtin::IsReferral => match xs.first() {
            Some(Value::Penalty(p)) => Ok(Value::Bool(matches!(p, Penalty::Refer { .. }))),
            _ => Err("expected a penalty".into()),
        },
        Builtin::Year => match xs.first() {
            Some(Value::Date(d)) | Some(Value::DateTime(d, _)) => {
                Ok(Value::Num(Decimal::from(d.year), Unit::none()))
            }
            _ => Err("expected a date".into()),
        },
        Builtin::At => match xs {
            [Value::Date(d), Value::Time(m)] => Ok(Value::DateTime(*d, *m)),
            _ => Err("expected a date and a time".into()),
        },
        Builtin::DateOf => match xs.first() {
            Some(Value::DateTime(d, _)) => Ok(Value::Date(*d)),
            _ => Err("expected a date and time".into()),
        },
        // Evaluated by `list::builtin` before this is reached.
        Builtin::Len | Builtin::Sum | Builtin::Contains | Builtin::Concat | Builtin::Range => {
            Err("expected a list".into())
        }
    }
}
