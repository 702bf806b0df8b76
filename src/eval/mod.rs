//! Stage 4: the interpreter. Evaluates IR expressions to values, optionally
//! recording a trace of every rule that took part (for `bfr explain`).
//!
//! Pure and deterministic: no clocks, no randomness, no I/O. Every arithmetic
//! step is checked ([`arith`]); a failure is an [`EvalError`] with the span of
//! the expression that failed, never a panic.

pub mod arith;
pub mod budget;
mod code;
pub mod examples;
mod fold;
mod handle;
mod list;
pub mod prepared;
pub mod trace;

#[cfg(test)]
mod limit_tests;

use crate::ir::{
    BinOp, Builtin, Counting, Expr, ExprKind, Penalty, Program, Rule, RuleBody, ScaleArm, Type,
    Unit, Value,
};
use crate::source::Span;
pub use budget::Budget;
pub use handle::{Answer, RuleHandle};
pub use prepared::Prepared;
use prepared::{Answers, Folded};
use rust_decimal::prelude::*;
use trace::{Trace, TraceNode};

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
    /// The rule (its index in the program) whose answer was refused as one its
    /// type cannot hold (a count below zero, a fraction of a whole unit), when
    /// that is the failure: its rules are wrong, not the input they were given.
    pub refused_answer_of: Option<u32>,
}

/// What an evaluation gives: a value, or why it failed. The failure is boxed so
/// a result is no bigger than a value: results are moved up the tree at every
/// step and handed back from every call, and a failure is rare.
pub type EvalResult = Result<Value, Box<EvalError>>;

/// The evaluator's own short name for a result.
type R = EvalResult;

/// Calls deeper than this are refused; acyclic editions never come near it.
const MAX_CALL_DEPTH: usize = 10_000;

/// The evaluation steps one top-level evaluation (a rule's answer, a const, an
/// example's assertion, an incident's rule, an expression of `bfr eval`) may
/// take before it stops with [`TOO_LARGE`]. A step is an expression evaluated
/// (a compiled step included) or a value of a list made or copied (in a record
/// too), so the count grows with the work and the memory an
/// evaluation takes. A counter, not a clock, so where an evaluation stops is
/// the same on every machine. A const an evaluator keeps counts its own steps,
/// apart from the evaluation that uses it: it fails past the limit on its own, once.
/// The heaviest evaluation of the 2015 edition,
/// seeding 169 pairs, takes about 10 million.
pub const MAX_STEPS: u64 = 50_000_000;

/// The consts an evaluator has worked out, by rule index: their values, or why
/// they failed.
pub(crate) type Kept = std::collections::HashMap<u32, EvalResult>;

/// The code of an evaluation stopped at [`MAX_STEPS`].
pub const TOO_LARGE: &str = "E0606";

/// The stack is looked at (and grown if it runs short) once every this many
/// nested evaluation steps, not at every step: a counter is cheaper than asking
/// for the stack pointer, and this many steps use far less than the reserve
/// the look asks for.
const STACK_CHECK_EVERY: u32 = 8;

/// The stack an evaluation keeps free below it before a look grows it, and the
/// size of a new stack segment.
const STACK_RESERVE: usize = 128 * 1024;
const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// How many spent argument vectors an evaluator keeps for reuse.
const POOL: usize = 64;

/// Which row of a table or scale applied, put into words only for a trace.
#[derive(Debug, Clone, Copy)]
enum Detail {
    /// The table's row of this variant.
    Table(u32),
    /// The scale's arm with this index.
    Scale(u32),
}

/// Evaluates expressions of one program.
///
/// A call's arguments and locals live in a vector taken from the evaluator's pool
/// and given back after the call, so an evaluator that is reused evaluates a scale
/// or table call without a heap allocation; nothing is put into words unless a
/// trace is asked for.
pub struct Evaluator<'p> {
    program: &'p Program,
    prepared: Option<&'p Prepared>,
    trace: Option<Trace<'p>>,
    depth: usize,
    /// How deeply evaluation steps are nested now (see [`STACK_CHECK_EVERY`]).
    nesting: u32,
    /// Whether rule bodies are taken in their folded form from `prepared`.
    fold: bool,
    /// The evaluation form whose kept answers a handle's call may return at
    /// once: `prepared` when this evaluator folds and does not trace, else
    /// `None` (set with `fold` and `trace`, so a call checks one field).
    kept_from: Option<&'p Prepared>,
    /// Spent frames, cleared, kept for the next call.
    pool: Vec<Vec<Value>>,
    /// Frames of compiled code, kept with their slots (see
    /// [`run_with`](Self::run_with)).
    scratch: Vec<Vec<Value>>,
    /// The value of each const already computed by this evaluator. A const is
    /// closed and pure, so its value never changes; a chain of consts
    /// (`c2 = c1 + 1`, …) is computed once, not once per use. Not used while tracing, so
    /// a trace shows every rule that took part.
    consts: Kept,
    /// The steps taken by the current top-level evaluation (see [`MAX_STEPS`]).
    steps: u64,
    /// The steps a top-level evaluation may take: [`MAX_STEPS`], or fewer
    /// where a caller bounds its own work (`bfr diff`) and in tests.
    step_limit: u64,
    /// The steps of kept consts that failed during the current top-level
    /// evaluation: not counted in `steps` (a const counts its own), but work
    /// done all the same (see [`last_cost`](Self::last_cost)).
    uncharged: u64,
}

impl<'p> Evaluator<'p> {
    /// An evaluator without tracing.
    pub fn new(program: &'p Program) -> Self {
        Evaluator {
            program,
            prepared: None,
            trace: None,
            depth: 0,
            nesting: 0,
            fold: false,
            kept_from: None,
            pool: Vec::new(),
            scratch: Vec::new(),
            consts: std::collections::HashMap::new(),
            steps: 0,
            step_limit: MAX_STEPS,
            uncharged: 0,
        }
    }

    /// The same evaluator with another step limit, for tests that reach it
    /// quickly.
    #[cfg(test)]
    pub(crate) fn with_step_limit(self, step_limit: u64) -> Self {
        Evaluator { step_limit, ..self }
    }

    /// Lets each top-level evaluation from now on take at most `step_limit`
    /// steps (at most [`MAX_STEPS`]): for a caller that shares a bound of its
    /// own among many evaluations.
    pub(crate) fn limit_steps(&mut self, step_limit: u64) {
        self.step_limit = step_limit.min(MAX_STEPS);
    }

    /// The consts this evaluator has worked out, taken out of it, for another
    /// evaluator of the same program to start from ([`with_kept`](Self::with_kept)).
    pub(crate) fn take_kept(&mut self) -> Kept {
        std::mem::take(&mut self.consts)
    }

    /// This evaluator, starting from the consts another evaluator of the same
    /// program worked out ([`take_kept`](Self::take_kept)).
    pub(crate) fn with_kept(self, consts: Kept) -> Self {
        Evaluator { consts, ..self }
    }

    /// The steps the last top-level evaluation took, those of kept consts that
    /// failed on their own included.
    pub(crate) fn last_cost(&self) -> u64 {
        self.steps.saturating_add(self.uncharged)
    }

    /// Starts the count of steps afresh when an evaluation begins at the top
    /// level (not a call made from inside an evaluation).
    #[inline(always)]
    fn begin(&mut self) {
        if self.depth == 0 && self.nesting == 0 {
            self.steps = 0;
            self.uncharged = 0;
        }
    }

    /// Counts `n` more steps of the current evaluation; past the limit the
    /// evaluation stops with [`TOO_LARGE`] at `span`.
    #[inline(always)]
    fn charge(&mut self, n: u64, span: Span) -> Result<(), Box<EvalError>> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.step_limit {
            return Err(self.too_large(span));
        }
        Ok(())
    }

    /// The failure of an evaluation past its step limit.
    #[cold]
    #[inline(never)]
    fn too_large(&self, span: Span) -> Box<EvalError> {
        Box::new(EvalError {
            message: format!(
                "the computation is too large: it takes more than {} steps (each part of an \
                 expression worked out, each value of a list made or copied)",
                show_count(self.step_limit)
            ),
            span,
            code: Some(TOO_LARGE),
            refused_answer_of: None,
        })
    }

    /// Counts the steps of a value just made or copied (see [`weight`]; a
    /// number or an enum is counted with the step that made it).
    #[inline(always)]
    fn charge_value(&mut self, v: &Value, span: Span) -> Result<(), Box<EvalError>> {
        match v {
            Value::List(_) | Value::Record(..) => self.charge(weight(v), span),
            _ => Ok(()),
        }
    }

    /// An evaluator without tracing that uses the program's evaluation form
    /// (`prepared` must have been made from `program`): each const computed once
    /// for every evaluator that shares the form, scale rows found by binary search,
    /// rule bodies with their constant parts folded to values.
    pub fn prepared(program: &'p Program, prepared: &'p Prepared) -> Self {
        Evaluator {
            prepared: Some(prepared),
            fold: true,
            kept_from: Some(prepared),
            ..Evaluator::new(program)
        }
    }

    /// An evaluator that records which rules took part.
    pub fn tracing(program: &'p Program) -> Self {
        Evaluator {
            trace: Some(Trace::default()),
            ..Evaluator::new(program)
        }
    }

    /// An evaluator that records which rules took part and uses the program's
    /// evaluation form (`prepared` must have been made from `program`) where
    /// the trace stays the one of the rules as written: a scale's row is found
    /// by binary search, and a const or a table's or scale's row that calls no
    /// rule as written is answered from the form and recorded as the one call
    /// it is; anything else is evaluated as written, so the trace shows every
    /// rule that took part. Reused (with
    /// [`clear_trace`](Self::clear_trace) between evaluations), it records a
    /// call without a heap allocation once its room has grown.
    pub fn tracing_prepared(program: &'p Program, prepared: &'p Prepared) -> Self {
        Evaluator {
            prepared: Some(prepared),
            ..Evaluator::tracing(program)
        }
    }

    /// The program this evaluator evaluates.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// A vector for a call's arguments: a spent one if there is one.
    fn fresh(&mut self) -> Vec<Value> {
        self.pool.pop().unwrap_or_default()
    }

    /// Gives a spent vector back for reuse.
    #[inline]
    fn recycle(&mut self, mut values: Vec<Value>) {
        if self.pool.len() < POOL && values.capacity() > 0 {
            empty(&mut values);
            self.pool.push(values);
        }
    }

    /// The recorded trace as nodes that own their words (the rules called at
    /// the top level); empty when not tracing.
    pub fn into_trace(self) -> Vec<TraceNode> {
        self.trace
            .map(|t| t.nodes(self.program))
            .unwrap_or_default()
    }

    /// The trace recorded so far, if tracing.
    #[inline]
    pub fn trace(&self) -> Option<&Trace<'p>> {
        self.trace.as_ref()
    }

    /// Limits the trace to its first `calls` calls (see [`Trace::limit`]).
    pub fn limit_trace(&mut self, calls: usize) {
        if let Some(t) = &mut self.trace {
            t.limit(calls);
        }
    }

    /// Forgets the trace recorded so far, for the next evaluation.
    #[inline]
    pub fn clear_trace(&mut self) {
        if let Some(t) = &mut self.trace {
            t.clear();
        }
    }

    /// Evaluates an expression with no free locals.
    pub fn eval_closed(&mut self, e: &Expr) -> EvalResult {
        self.begin();
        self.eval(e, &mut Vec::new())
    }

    fn fail(message: impl Into<String>, span: Span) -> Box<EvalError> {
        Box::new(EvalError {
            message: message.into(),
            span,
            code: None,
            refused_answer_of: None,
        })
    }

    fn eval(&mut self, e: &Expr, frame: &mut Vec<Value>) -> R {
        self.charge(1, e.span)?;
        let value = self.nested(|ev| ev.eval_inner(e, frame))?;
        self.charge_value(&value, e.span)?;
        Ok(value)
    }

    /// Runs `step` one level deeper, growing the stack first at every
    /// [`STACK_CHECK_EVERY`]th level.
    #[inline]
    fn nested<T>(&mut self, step: impl FnOnce(&mut Self) -> T) -> T {
        self.nesting = self.nesting.wrapping_add(1);
        let result = if self.nesting.is_multiple_of(STACK_CHECK_EVERY) {
            stacker::maybe_grow(STACK_RESERVE, STACK_SEGMENT, || step(self))
        } else {
            step(self)
        };
        self.nesting = self.nesting.wrapping_sub(1);
        result
    }

    /// Evaluates one expression: dispatches on its kind, one helper per form.
    fn eval_inner(&mut self, e: &Expr, frame: &mut Vec<Value>) -> R {
        let span = e.span;
        match &e.kind {
            ExprKind::Lit(v) => Ok(copy_value(v)),
            ExprKind::Local(slot) => frame
                .get(*slot as usize)
                .map(copy_value)
                .ok_or_else(|| Self::fail("internal error: a local has no value", span)),
            ExprKind::Call(i, args) => {
                let mut values = self.fresh();
                match self.eval_into(args, frame, &mut values) {
                    Ok(()) => self.call_owned(*i, values, span),
                    Err(e) => {
                        self.recycle(values);
                        Err(e)
                    }
                }
            }
            ExprKind::RuleRef(i) => Ok(self.rule_ref(*i)),
            ExprKind::Builtin(b, args) => self.eval_builtin(*b, args, &e.ty, span, frame),
            ExprKind::List(_) | ExprKind::Index(..) | ExprKind::Loop { .. } => {
                self.eval_list(e, frame)
            }
            ExprKind::Neg(x) => self.eval_neg(x, span, frame),
            ExprKind::Not(x) => self.eval_not(x, span, frame),
            ExprKind::Binary(op, a, b) => self.eval_binary(*op, a, b, &e.ty, span, frame),
            ExprKind::If(c, t, f) => self.eval_if(c, t, f, frame),
            ExprKind::Let(slot, value, body) => self.eval_let(*slot, value, body, frame),
            ExprKind::Match(s, arms) => self.eval_match(s, arms, span, frame),
            ExprKind::Record(r, fields) => Ok(Value::Record(
                *r,
                self.eval_all(fields, frame)?.into_boxed_slice(),
            )),
            ExprKind::Field(x, i) => self.eval_field(x, *i, span, frame),
            ExprKind::Deduct(x) => self.eval_deduct(x, span, frame),
        }
    }

    /// Evaluates expressions left to right, stopping at the first failure.
    fn eval_all(
        &mut self,
        es: &[Expr],
        frame: &mut Vec<Value>,
    ) -> Result<Vec<Value>, Box<EvalError>> {
        let mut values = Vec::with_capacity(es.len());
        self.eval_into(es, frame, &mut values)?;
        Ok(values)
    }

    /// Evaluates expressions left to right onto `values`, stopping at the first
    /// failure.
    fn eval_into(
        &mut self,
        es: &[Expr],
        frame: &mut Vec<Value>,
        values: &mut Vec<Value>,
    ) -> Result<(), Box<EvalError>> {
        for e in es {
            values.push(self.eval(e, frame)?);
        }
        Ok(())
    }

    /// A rule named as a value (`?` for an index no rule has).
    fn rule_ref(&self, i: u32) -> Value {
        Value::Rule(
            self.program
                .rules
                .get(i as usize)
                .map_or("?".into(), |r| r.name.clone()),
        )
    }

    /// A builtin call: `min`/`max` of one list and the list builtins go to
    /// [`list`]; the rest take scalars.
    fn eval_builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R {
        // `min(a, b)` / `max(a, b)` of two values, the common case: no vector.
        if let (Builtin::Min | Builtin::Max, [a, b_arg]) = (b, args) {
            let x = self.eval(a, frame)?;
            let y = self.eval(b_arg, frame)?;
            return Ok(if second_is_extreme(b, &x, &y, span)? {
                y
            } else {
                x
            });
        }
        let mut values = self.fresh();
        if let Err(e) = self.eval_into(args, frame, &mut values) {
            self.recycle(values);
            return Err(e);
        }
        let result = match values.as_slice() {
            [Value::List(xs)] if matches!(b, Builtin::Min | Builtin::Max) => {
                list::extreme(b, xs, span)
            }
            _ if b.is_list_builtin() => return list::builtin(b, values, ty, span),
            _ => builtin(b, &values).map_err(|m| Self::fail(m, span)),
        };
        self.recycle(values);
        result
    }

    fn eval_neg(&mut self, x: &Expr, span: Span, frame: &mut Vec<Value>) -> R {
        let v = self.eval(x, frame)?;
        arith::negate(&v).map_err(|m| Self::fail(m, span))
    }

    fn eval_not(&mut self, x: &Expr, span: Span, frame: &mut Vec<Value>) -> R {
        not_value(&self.eval(x, frame)?, span)
    }

    fn eval_binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        ty: &Type,
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R {
        let x = self.eval(a, frame)?;
        // `and` / `or` decide on the left side when they can.
        match (op, &x) {
            (BinOp::And, Value::Bool(false)) => return Ok(x),
            (BinOp::Or, Value::Bool(true)) => return Ok(x),
            _ => {}
        }
        let y = self.eval(b, frame)?;
        let unit = match ty {
            Type::Num(unit) => Some(unit),
            _ => None,
        };
        binary_value(op, &x, &y, unit, span)
    }

    fn eval_if(&mut self, c: &Expr, t: &Expr, f: &Expr, frame: &mut Vec<Value>) -> R {
        match self.eval(c, frame)? {
            Value::Bool(true) => self.eval(t, frame),
            Value::Bool(false) => self.eval(f, frame),
            _ => Err(Self::fail("the condition is not true or false", c.span)),
        }
    }

    fn eval_let(&mut self, slot: u32, value: &Expr, body: &Expr, frame: &mut Vec<Value>) -> R {
        let v = self.eval(value, frame)?;
        set_local(frame, slot, v);
        self.eval(body, frame)
    }

    /// The first arm whose variant is the scrutinee's (or `_`) gives the value.
    fn eval_match(
        &mut self,
        s: &Expr,
        arms: &[(Option<u32>, Expr)],
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R {
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

    fn eval_field(&mut self, x: &Expr, i: u32, span: Span, frame: &mut Vec<Value>) -> R {
        match self.eval(x, frame)? {
            Value::Record(_, values) if (i as usize) < values.len() => {
                Ok(values.into_vec().swap_remove(i as usize))
            }
            _ => Err(Self::fail("this value has no such field", span)),
        }
    }

    fn eval_deduct(&mut self, x: &Expr, span: Span, frame: &mut Vec<Value>) -> R {
        deduct_value(&self.eval(x, frame)?, span)
    }

    /// Calls rule `i` with argument values.
    pub fn call(&mut self, i: u32, args: Vec<Value>, span: Span) -> EvalResult {
        self.begin();
        self.call_owned(i, args, span)
    }

    /// Calls rule `i` with argument values (the evaluator's own form of a result).
    fn call_owned(&mut self, i: u32, args: Vec<Value>, span: Span) -> R {
        let mut frame = args;
        let result = self.call_in(i, &mut frame, span);
        self.recycle(frame);
        result
    }

    /// Calls rule `i` with argument values copied from `args`: with a reused
    /// evaluator, a call that allocates nothing of its own allocates nothing.
    #[inline]
    pub fn call_with(&mut self, i: u32, args: &[Value], span: Span) -> EvalResult {
        self.begin();
        match self.answered(i, args) {
            Some(value) => Ok(copy_value(value)),
            None => self.call_with_frame(i, args, span),
        }
    }

    /// Runs a fn's compiled code on argument values copied from `args`: what
    /// [`call_general`](Self::call_general) does for it, the rule already found.
    ///
    /// The frame is one of the evaluator's scratch frames, which keep their
    /// slots from call to call: the arguments overwrite the first ones, and
    /// compiled code writes every other slot before it reads it, so a frame is
    /// neither emptied nor filled anew at each call. What a slot held last is
    /// dropped when it is overwritten (or with the evaluator).
    #[inline(never)]
    fn run_with(
        &mut self,
        i: u32,
        rule: &Rule,
        code: &code::Code,
        args: &[Value],
        span: Span,
    ) -> R {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Self::fail("rules call each other too deeply", span));
        }
        if !args_fit(rule, args) {
            check_args(rule, args, self.program, span)?;
        }
        let mut frame = self.scratch.pop().unwrap_or_default();
        if frame.len() < args.len() {
            frame.resize_with(args.len(), unset);
        }
        for (slot, a) in frame.iter_mut().zip(args) {
            put(slot, copy_value(a));
        }
        self.depth += 1;
        let result = self.run(code, &mut frame, span);
        let result = checked_answer(i, rule, result, self.program, span);
        self.depth -= 1;
        if self.scratch.len() < POOL {
            self.scratch.push(frame);
        }
        result
    }

    /// The answer of a call given without evaluating: directly from the
    /// evaluation form, or, when tracing, recorded as one call (see
    /// [`traced`](Self::traced)).
    #[inline(always)]
    fn answered(&mut self, i: u32, args: &[Value]) -> Option<&'p Value> {
        if self.trace.is_none() {
            self.direct(i, args)
        } else {
            self.traced(i, args)
        }
    }

    /// When tracing: the direct answer of a call whose row (or const) calls no
    /// rule as written, recorded as the call it is (rule, inputs, row, output),
    /// so the trace is the one evaluating the body as written records.
    #[inline(never)]
    fn traced(&mut self, i: u32, args: &[Value]) -> Option<&'p Value> {
        if self.depth >= MAX_CALL_DEPTH {
            return None;
        }
        let prepared = self.prepared?;
        let rule = self.program.rules.get(i as usize)?;
        let folded = self.form(i, rule, prepared)?;
        let ready = ready(prepared, i, folded, args)?;
        if !folded.quiet.get(ready.row).copied().unwrap_or(false) {
            return None;
        }
        let shown = args.get(..rule.params.len()).unwrap_or(args);
        self.trace
            .as_mut()?
            .record(i, shown, ready.detail, ready.value);
        Some(ready.value)
    }

    /// [`call_with`](Self::call_with) of a call that is not answered directly.
    #[inline(never)]
    fn call_with_frame(&mut self, i: u32, args: &[Value], span: Span) -> EvalResult {
        if self.trace.is_none()
            && let Some(folded) = self.prepared.and_then(|p| p.made(i))
            && let (Some(code), Some(rule)) = (&folded.code, self.program.rules.get(i as usize))
            && self.fold
        {
            return self.run_with(i, rule, code, args, span);
        }
        let mut frame = self.fresh();
        for a in args {
            frame.push(copy_value(a));
        }
        let result = self.call_general(i, &mut frame, span);
        self.recycle(frame);
        result
    }

    /// Calls rule `i` in `frame`, which holds the arguments.
    fn call_in(&mut self, i: u32, frame: &mut Vec<Value>, span: Span) -> R {
        match self.answered(i, frame) {
            Some(value) => Ok(copy_value(value)),
            None => self.call_general(i, frame, span),
        }
    }

    /// Calls rule `i` in `frame` by evaluating its body.
    fn call_general(&mut self, i: u32, frame: &mut Vec<Value>, span: Span) -> R {
        let program = self.program;
        let Some(rule) = program.rules.get(i as usize) else {
            return Err(Self::fail("internal error: unknown rule", span));
        };
        let memo = self.trace.is_none() && matches!(rule.body, RuleBody::Const { .. });
        if memo {
            if let Some(known) = self.prepared.and_then(|p| p.const_value(i)) {
                return Ok(known.clone());
            }
            if let Some(known) = self.consts.get(&i) {
                return known.clone();
            }
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Self::fail("rules call each other too deeply", span));
        }
        if !args_fit(rule, frame) {
            check_args(rule, frame, program, span)?;
        }
        // A const that is kept counts its own steps: its failure past the
        // limit is then its own, kept like any other, not computed again by
        // each rule that uses it.
        let steps_before = memo.then(|| std::mem::take(&mut self.steps));
        self.depth += 1;
        if let Some(t) = &mut self.trace {
            t.enter(i, frame.get(..rule.params.len()).unwrap_or(frame));
        }
        let folded = self.folded(i, rule);
        let (result, detail) = match folded {
            Some(Folded {
                code: Some(code), ..
            }) => (self.run(code, frame, span), None),
            _ => {
                let slots = rule.locals.max(rule.params.len() as u32) as usize;
                if frame.len() < slots {
                    frame.resize_with(slots, unset);
                }
                let body = folded.map_or(&rule.body, |f| &f.body);
                self.eval_body(i, rule, body, frame, span)
            }
        };
        let result = checked_answer(i, rule, result, program, span);
        self.depth -= 1;
        if let Some(t) = &mut self.trace {
            t.leave(detail, result.as_ref().ok());
        }
        if let Some(before) = steps_before {
            match (&result, self.prepared) {
                (Ok(v), Some(p)) => p.remember(i, v),
                _ => {
                    self.consts.insert(i, result.clone());
                }
            }
            // The caller's count goes on with the const's steps: past the
            // limit, that is the caller's failure, and the const stays kept.
            // A const that failed fails its caller with its own error.
            let own = std::mem::replace(&mut self.steps, before);
            if result.is_ok() {
                self.charge(own, span)?;
            } else {
                self.uncharged = self.uncharged.saturating_add(own);
            }
        }
        result
    }

    /// The evaluation form of rule `i`'s body when this evaluator folds (made on
    /// the first call, shared by every evaluator of the form); `None` when the
    /// body is evaluated as written.
    fn folded(&self, i: u32, rule: &'p Rule) -> Option<&'p Folded> {
        match self.prepared {
            Some(p) if self.fold => self.form(i, rule, p),
            _ => None,
        }
    }

    /// Rule `i`'s evaluation form in `p`, made on first use.
    fn form(&self, i: u32, rule: &'p Rule, p: &'p Prepared) -> Option<&'p Folded> {
        p.folded(i, || {
            // The folding evaluator does not fold: folding is not re-entered.
            let mut ev = Evaluator::prepared(self.program, p);
            ev.fold = false;
            ev.kept_from = None;
            let body = fold::body(&mut ev, &rule.body);
            Folded::new(rule, body)
        })
    }

    /// The answer of a call that needs no frame and no evaluation step, when it
    /// is one: a const, a table row or a scale row whose folded value is a
    /// value, once the rule's folded form is made (its first call takes the
    /// general way, which makes it). `None` for every other call, which takes
    /// the general way (and reports any failure there, with its message).
    #[inline(always)]
    fn direct(&self, i: u32, args: &[Value]) -> Option<&'p Value> {
        if !self.fold || self.trace.is_some() || self.depth >= MAX_CALL_DEPTH {
            return None;
        }
        let prepared = self.prepared?;
        ready(prepared, i, prepared.made(i)?, args).map(|r| r.value)
    }

    /// Evaluates a rule's body in its frame; the detail says which row of a
    /// table or scale applied, for the trace.
    fn eval_body(
        &mut self,
        i: u32,
        rule: &Rule,
        body: &RuleBody,
        frame: &mut Vec<Value>,
        span: Span,
    ) -> (R, Option<Detail>) {
        match body {
            RuleBody::Const { value } => (self.eval(value, frame), None),
            RuleBody::Fn { body } => (self.eval(body, frame), None),
            RuleBody::Table { rows } => self.eval_table(rows, frame, span),
            RuleBody::Scale { arms } => self.eval_scale(i, rule, arms, frame, span),
        }
    }

    /// A table: the row of the key's variant.
    fn eval_table(
        &mut self,
        rows: &[Expr],
        frame: &mut Vec<Value>,
        span: Span,
    ) -> (R, Option<Detail>) {
        let Some(Value::Enum(_, v)) = frame.first() else {
            return (Err(Self::fail("a table needs an enum key", span)), None);
        };
        let v = *v;
        match rows.get(v as usize) {
            Some(row) => (self.eval(row, frame), Some(Detail::Table(v))),
            None => (Err(Self::fail("no row for this key", span)), None),
        }
    }

    /// A scale: the first row whose range holds the input.
    fn eval_scale(
        &mut self,
        i: u32,
        rule: &Rule,
        arms: &[ScaleArm],
        frame: &mut Vec<Value>,
        span: Span,
    ) -> (R, Option<Detail>) {
        let input = frame.first().cloned().unwrap_or(Value::Bool(false));
        let prepared = self
            .prepared
            .zip(input.order_key())
            .and_then(|(p, key)| p.scale_arm(i, key));
        let found = match prepared {
            Some(arm) => arm,
            None => arms
                .iter()
                .position(|a| in_range(&input, a))
                .and_then(|a| u32::try_from(a).ok()),
        };
        match found.and_then(|a| Some((a, arms.get(a as usize)?))) {
            Some((a, arm)) => (self.eval(&arm.value, frame), Some(Detail::Scale(a))),
            None => {
                let param = rule.params.first().map_or("input", |(n, _)| n.as_str());
                (
                    Err(Self::fail(
                        format!(
                            "no row of `{}` covers {param} = {}",
                            rule.name,
                            input.show(self.program)
                        ),
                        span,
                    )),
                    None,
                )
            }
        }
    }
}

/// A call's answer kept ready by the evaluation form.
struct Ready<'p> {
    value: &'p Value,
    /// The table row or scale arm that gave it (0 for a const).
    row: usize,
    detail: Option<Detail>,
}

/// The answer rule `i`'s evaluation form `folded` gives `args` at once: a
/// const, or a table or scale row whose folded value is a value. `None` for
/// every other call, which takes the general way (and reports any failure
/// there, with its message).
#[inline(always)]
fn ready<'p>(
    prepared: &'p Prepared,
    i: u32,
    folded: &'p Folded,
    args: &[Value],
) -> Option<Ready<'p>> {
    let (value, row, detail) = match (&folded.answers, args) {
        (Answers::None, _) => return None,
        (Answers::Const(value), _) => (value, 0, None),
        (Answers::Table(rows), [Value::Enum(_, v)]) => (
            rows.get(*v as usize)?.as_ref()?,
            *v as usize,
            Some(Detail::Table(*v)),
        ),
        (Answers::Table(_), _) => return None,
        (Answers::FullTable(rows), [Value::Enum(_, v)]) => {
            (rows.get(*v as usize)?, *v as usize, Some(Detail::Table(*v)))
        }
        (Answers::FullTable(_), _) => return None,
        (Answers::Scale { counting, arms }, [input]) => {
            if !admitted(*counting, input) {
                return None;
            }
            let arm = prepared.scale_arm(i, input.order_key()?)??;
            (
                arms.get(arm as usize)?.as_ref()?,
                arm as usize,
                Some(Detail::Scale(arm)),
            )
        }
        (Answers::Scale { .. }, _) => return None,
    };
    Some(Ready { value, row, detail })
}

/// The steps a value counts for when made or copied: one per value of a list
/// in it, at any depth. A record counts for the lists in its fields only: its
/// number of fields is its type's, fixed by the edition, so the work of
/// copying it grows with the values of lists, not with records. Counting goes
/// through the value as making or copying it did, so it adds at most that much
/// work again.
pub(crate) fn weight(v: &Value) -> u64 {
    let inner = |n: u64, x: &Value| {
        n.saturating_add(match x {
            Value::List(_) | Value::Record(..) => weight(x),
            _ => 0,
        })
    };
    match v {
        Value::List(xs) => xs.iter().fold(xs.len() as u64, inner),
        Value::Record(_, fields) => fields.iter().fold(0, inner),
        _ => 0,
    }
}

/// A count with thousands separated by commas: `20,000,000`.
pub(crate) fn show_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Whether dropping `v` frees nothing (a quantity, a truth value, …).
#[inline]
fn is_plain(v: &Value) -> bool {
    matches!(
        v,
        Value::Num(..)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Enum(..)
            | Value::Date(_)
            | Value::Time(_)
            | Value::DateTime(..)
            | Value::Penalty(Penalty::Deduct { .. } | Penalty::Warning | Penalty::Forfeit)
    )
}

/// Drops `v`, without a call into `Value`'s drop when there is nothing to
/// free: frames are emptied at every call, and most of what they hold is plain.
#[inline]
fn discard(v: Value) {
    if is_plain(&v) {
        std::mem::forget(v);
    }
}

/// Empties `values`, keeping its room (see [`discard`]).
#[inline]
fn empty(values: &mut Vec<Value>) {
    while let Some(v) = values.pop() {
        discard(v);
    }
}

/// Puts `v` into `slot` (see [`discard`]).
#[inline]
fn put(slot: &mut Value, v: Value) {
    discard(std::mem::replace(slot, v));
}

/// A copy of `v`, at once for the values a direct answer usually is (a
/// quantity, a penalty, an enum), else by `clone`.
#[inline(always)]
fn copy_value(v: &Value) -> Value {
    match v {
        Value::Num(n, u) => Value::Num(*n, u.clone()),
        Value::Duration(n) => Value::Duration(*n),
        Value::Enum(e, x) => Value::Enum(*e, *x),
        Value::Bool(b) => Value::Bool(*b),
        Value::Penalty(Penalty::Deduct { amount, unit }) => Value::Penalty(Penalty::Deduct {
            amount: *amount,
            unit: unit.clone(),
        }),
        Value::Penalty(Penalty::Warning) => Value::Penalty(Penalty::Warning),
        other => other.clone(),
    }
}

/// `x op y` for an operator that needs both sides (not `and`/`or` deciding on
/// the left); `unit` is the checked type's unit, which a product or quotient of
/// quantities takes.
#[inline]
fn binary_value(op: BinOp, x: &Value, y: &Value, unit: Option<&Unit>, span: Span) -> R {
    // The unit of a product or quotient of quantities is its checked type's:
    // taken from there, not worked out again from the operands' units.
    if let (BinOp::Mul | BinOp::Div, Value::Num(m, _), Value::Num(n, _), Some(unit)) =
        (op, x, y, unit)
    {
        return arith::mul_div(op, *m, *n)
            .map(|r| Value::Num(r, unit.clone()))
            .map_err(|m| Evaluator::fail(m, span));
    }
    // A sum or difference of two quantities, the common case, at once.
    if let (BinOp::Add | BinOp::Sub, Value::Num(m, unit), Value::Num(n, _)) = (op, x, y) {
        let r = if op == BinOp::Add {
            m.checked_add(*n)
        } else {
            m.checked_sub(*n)
        };
        if let Some(r) = r {
            return Ok(Value::Num(r, unit.clone()));
        }
    }
    arith::binary(op, x, y).map_err(|m| Evaluator::fail(m, span))
}

/// Whether `min(x, y)` (or `max`) is `y`: only when `y` is strictly smaller (or
/// larger), so of two equal values the first is kept.
fn second_is_extreme(b: Builtin, x: &Value, y: &Value, span: Span) -> Result<bool, Box<EvalError>> {
    // Two quantities are ordered by their numbers, as `arith::compare` orders them.
    let order = match (y, x) {
        (Value::Num(m, _), Value::Num(n, _)) => Ok(m.cmp(n)),
        _ => arith::compare(y, x),
    };
    match order {
        Ok(ord) => Ok(match b {
            Builtin::Min => ord == std::cmp::Ordering::Less,
            _ => ord == std::cmp::Ordering::Greater,
        }),
        Err(m) => Err(Evaluator::fail(m, span)),
    }
}

fn not_value(x: &Value, span: Span) -> R {
    match x {
        Value::Bool(b) => Ok(Value::Bool(!b)),
        _ => Err(Evaluator::fail("`not` needs true or false", span)),
    }
}

/// A deduction of a computed amount must still be more than zero.
fn deduct_value(x: &Value, span: Span) -> R {
    match x {
        Value::Num(amount, _) if *amount <= Decimal::ZERO => Err(Evaluator::fail(
            format!(
                "a deduction must be more than zero, not {}",
                amount.normalize()
            ),
            span,
        )),
        Value::Num(amount, unit) => Ok(Value::Penalty(Penalty::Deduct {
            amount: *amount,
            unit: unit.clone(),
        })),
        _ => Err(Evaluator::fail("a deduction needs a quantity", span)),
    }
}

/// A parameter that counts whole things refuses a fraction, and a count a
/// number below zero, naming the parameter and the rule. Called when
/// [`args_fit`] says one does not fit.
#[cold]
fn check_args(
    rule: &Rule,
    args: &[Value],
    program: &Program,
    span: Span,
) -> Result<(), Box<EvalError>> {
    let params = rule.params.iter().zip(&rule.counting);
    for (((name, ty), counting), value) in params.zip(args) {
        if !admitted(*counting, value) {
            return Err(Evaluator::fail(
                format!(
                    "`{name}` of `{}` is given {}: it {}",
                    rule.name,
                    value.show(program),
                    what_is_admitted(*counting, ty, program)
                ),
                span,
            ));
        }
    }
    Ok(())
}

/// The result of `rule`, the program's rule `i`: an answer its type does not admit (not whole where
/// whole numbers are counted, below zero for a count) is refused, naming the rule.
#[inline]
fn checked_answer(i: u32, rule: &Rule, result: R, program: &Program, span: Span) -> R {
    match result {
        Ok(v) if !admitted(rule.answer, &v) => Err(Box::new(EvalError {
            message: format!(
                "`{}` gives {}: its answer {}",
                rule.name,
                v.show(program),
                what_is_admitted(rule.answer, &rule.ret, program)
            ),
            span,
            code: None,
            refused_answer_of: Some(i),
        })),
        other => other,
    }
}

/// What `counting` asks of a number of type `ty`, in words that follow "it" or
/// "its answer".
#[cold]
fn what_is_admitted(counting: Counting, ty: &Type, program: &Program) -> String {
    match (counting, ty) {
        (Counting::Count, _) => format!(
            "is a count ({}), a whole number never below zero",
            program.type_name(ty)
        ),
        _ if crate::ir::is_integer(ty, counting) => "is an integer, a whole number".into(),
        _ => format!("counts whole things ({})", program.type_name(ty)),
    }
}

/// Whether `v` is a value `counting` admits: any value that is not a number.
#[inline]
pub(super) fn admitted(counting: Counting, v: &Value) -> bool {
    match v {
        Value::Num(n, _) => counting.admits(*n),
        _ => true,
    }
}

/// Whether every argument is one its parameter admits: the common case,
/// decided without words ([`check_args`] says which is not).
#[inline]
fn args_fit(rule: &Rule, args: &[Value]) -> bool {
    rule.counting.iter().zip(args).all(|(c, v)| admitted(*c, v))
}

/// What a slot holds before it is given a value.
#[inline]
fn unset() -> Value {
    Value::Bool(false)
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

fn in_range(x: &Value, arm: &ScaleArm) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::load_texts;

    /// `text` evaluated against `program`, the general way and with the
    /// program prepared (folded answers read without the general way): the
    /// value shown, or the message, the same both ways.
    fn eval(program: &str, text: &str) -> Result<String, String> {
        let loaded = load_texts(vec![("t.bfr".into(), program.as_bytes().to_vec())]);
        let checked = loaded.checked.as_ref().expect("the program checks");
        let program = &checked.program;
        let ast = crate::syntax::parse_expr(text, 1).expect("the expression parses");
        let expr = checked.check_expr(&ast).expect("the expression checks");
        let shown = |r: EvalResult| r.map(|v| v.show(program)).map_err(|e| e.message);
        let general = shown(Evaluator::new(program).eval_closed(&expr));
        let prepared = Prepared::new(program);
        let mut ev = Evaluator::prepared(program, &prepared);
        // Each rule's first call that gets through makes its evaluation form;
        // the calls after it read from it.
        for warm in ["price(1 widget)", "size(1 widget)", "left(1)", "owed(1)"] {
            let ast = crate::syntax::parse_expr(warm, 1).expect("parses");
            let warm = checked.check_expr(&ast).expect("checks");
            assert!(ev.eval_closed(&warm).is_ok());
        }
        let folded = shown(ev.eval_closed(&expr));
        assert_eq!(general, folded, "{text}");
        general
    }

    /// A fn and a scale (folded to its answers) over a unit declared as
    /// `kind`, fns and a scale whose answer is one, and an integer fn.
    fn counted(kind: &str) -> String {
        format!(
            "unit widget {kind} alias widgets\n\
             fn price(n: widget) -> number ref T-1 = n / 1 widget * 10\n\
             scale size(n: widget) -> number ref T-1 {{\n\
               n <= 10 widgets => 1\n\
               n > 10 widgets => 2\n\
             }}\n\
             fn left(n: number) -> widget ref T-1 = n * 1 widget\n\
             scale owed(n: number) -> widget ref T-1 {{\n\
               n <= 0 => 0 widgets - 1 widget\n\
               0 < n <= 1 => 1 widget\n\
               n > 1 => 3 widgets / 2\n\
             }}\n\
             fn turn(n: number) -> integer ref T-1 = n\n"
        )
    }

    #[test]
    fn a_count_below_zero_or_a_fraction_of_a_whole_unit_is_refused_by_name() {
        let count = "is a count (widget), a whole number never below zero";
        let program = counted("count");
        for (call, rule) in [("price(-1 widgets)", "price"), ("size(-1 widgets)", "size")] {
            assert_eq!(
                eval(&program, call),
                Err(format!("`n` of `{rule}` is given -1 widget: it {count}")),
                "{call}"
            );
        }
        assert_eq!(
            eval(&program, "left(-2)"),
            Err(format!("`left` gives -2 widgets: its answer {count}"))
        );
        // A scale's row folded to a count below zero, or to a fraction, is
        // answered the general way.
        assert_eq!(
            eval(&program, "owed(0)"),
            Err(format!("`owed` gives -1 widget: its answer {count}"))
        );
        assert_eq!(
            eval(&program, "owed(2)"),
            Err(format!("`owed` gives 1.5 widgets: its answer {count}"))
        );
        assert_eq!(eval(&program, "price(0 widgets)"), Ok("0".into()));
        assert_eq!(eval(&program, "size(0 widgets)"), Ok("1".into()));
        assert_eq!(eval(&program, "left(0)"), Ok("0 widgets".into()));
        assert_eq!(
            eval(&program, "left(0.5)"),
            Err(format!("`left` gives 0.5 widgets: its answer {count}"))
        );
        assert_eq!(
            eval(&program, "price(3 widgets / 2)"),
            Err(format!("`n` of `price` is given 1.5 widgets: it {count}"))
        );
        // A `whole` unit may be below zero (an IMP margin), not a fraction.
        let whole = "counts whole things (widget)";
        let program = counted("whole");
        assert_eq!(eval(&program, "price(-1 widgets)"), Ok("-10".into()));
        assert_eq!(eval(&program, "size(-1 widgets)"), Ok("1".into()));
        assert_eq!(eval(&program, "left(-2)"), Ok("-2 widgets".into()));
        assert_eq!(eval(&program, "owed(0)"), Ok("-1 widget".into()));
        assert_eq!(
            eval(&program, "owed(2)"),
            Err(format!("`owed` gives 1.5 widgets: its answer {whole}"))
        );
        assert_eq!(
            eval(&program, "left(0.5)"),
            Err(format!("`left` gives 0.5 widgets: its answer {whole}"))
        );
        assert_eq!(
            eval(&program, "price(3 widgets / 2)"),
            Err(format!("`n` of `price` is given 1.5 widgets: it {whole}"))
        );
        // An integer likewise.
        assert_eq!(eval(&program, "turn(-2)"), Ok("-2".into()));
        assert_eq!(
            eval(&program, "turn(0.5)"),
            Err("`turn` gives 0.5: its answer is an integer, a whole number".into())
        );
    }

    #[test]
    fn a_result_is_the_size_of_a_value() {
        // Results are handed back from every call and step: a failure is boxed
        // so that passing one costs no more than passing a value.
        assert_eq!(
            std::mem::size_of::<EvalResult>(),
            std::mem::size_of::<Value>()
        );
    }
}
