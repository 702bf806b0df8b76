//! Calls through a rule resolved once by name: [`Evaluator::handle`] finds the
//! rule (and what its evaluation form keeps ready), [`Evaluator::answer`] calls
//! it without looking it up again, answering a kept table row or const by
//! reference, and recording the call when the evaluator traces.

use super::prepared::{Answers, Folded};
use super::{EvalError, Evaluator, MAX_CALL_DEPTH, Prepared, copy_value, ready};
use crate::ir::{Program, Rule, Value};
use crate::source::Span;

impl<'p> Evaluator<'p> {
    /// The rule named `name`, resolved once for calls through
    /// [`answer`](Self::answer); its evaluation form is made now when this
    /// evaluator has one and folds or traces. `None` when the program has no
    /// such rule.
    pub fn handle(&self, name: &str) -> Option<RuleHandle<'p>> {
        let (index, rule) = self.program.rule(name)?;
        // A tracing evaluator answers from the form too, recording the call.
        let folded = match self.prepared {
            Some(p) if self.fold || self.trace.is_some() => self.form(index, rule, p),
            _ => None,
        };
        let kept = match folded.map(|f| &f.answers) {
            Some(Answers::Const(value)) if rule.params.is_empty() => Kept::Const(value),
            Some(Answers::FullTable(rows)) if rule.params.len() == 1 => Kept::Table(rows),
            _ => Kept::Nothing,
        };
        Some(RuleHandle {
            index,
            rule,
            program: self.program,
            prepared: self.prepared,
            folded,
            kept,
            quiet: folded.is_some_and(|f| f.quiet.iter().all(|&q| q)),
        })
    }

    /// Calls the rule of `handle` with argument values, as
    /// [`call_with`](Self::call_with) would, without finding the rule again: a
    /// table or scale row or a const kept ready by the evaluation form is
    /// answered by reference, anything else is computed. A handle made by an
    /// evaluator of another program or evaluation form, or called with a
    /// number of arguments its rule does not take, is a failure (a form is
    /// taken as of the program it was given with: see [`prepared`](Self::prepared)).
    ///
    /// On an evaluator that folds, a table row or const the handle holds is
    /// answered inline: the call is the match of the argument against the
    /// rows. The rest (a scale, a fn, a row that did not fold, every failure,
    /// and every call of a tracing evaluator, which records it) is computed
    /// out of line, with the failures it always had.
    #[inline]
    pub fn answer(
        &mut self,
        handle: &RuleHandle<'p>,
        args: &[Value],
        span: Span,
    ) -> Result<Answer<'p>, Box<EvalError>> {
        self.begin();
        if self.answers_kept(handle) {
            // The pattern of `args` is the arity check: a table takes one
            // argument, a const none (the handle keeps nothing otherwise).
            match (handle.kept, args) {
                (Kept::Table(rows), [Value::Enum(_, v)]) => {
                    if let Some(value) = rows.get(*v as usize) {
                        return Ok(Answer::Ready(value));
                    }
                }
                (Kept::Const(value), []) => return Ok(Answer::Ready(value)),
                _ => {}
            }
        }
        self.answer_otherwise(handle, args, span)
    }

    /// [`answer`](Self::answer) of a call not answered from what the handle
    /// keeps: one call out of line, so that the inline part stays the match.
    #[inline(never)]
    fn answer_otherwise(
        &mut self,
        handle: &RuleHandle<'p>,
        args: &[Value],
        span: Span,
    ) -> Result<Answer<'p>, Box<EvalError>> {
        if self.trace.is_some() {
            return self.answer_traced(handle, args, span);
        }
        self.answer_general(handle, args, span)
    }

    /// Whether this evaluator may answer from what `handle` keeps: it folds,
    /// does not trace (a trace records every call), and is of the evaluation
    /// form the handle was made with, hence of its program (a form is made
    /// from one program, and an evaluator is given the form of its own).
    /// One comparison: when neither has a form, the handle keeps nothing.
    #[inline(always)]
    fn answers_kept(&self, handle: &RuleHandle<'p>) -> bool {
        let address = |p: Option<&Prepared>| p.map_or(std::ptr::null(), std::ptr::from_ref);
        address(handle.prepared) == address(self.kept_from)
    }

    /// [`answer`](Self::answer) of a call not answered from what the handle
    /// keeps: the handle's checks, then the evaluation form's ready rows, the
    /// compiled code, or the general way.
    #[inline(never)]
    fn answer_general(
        &mut self,
        handle: &RuleHandle<'p>,
        args: &[Value],
        span: Span,
    ) -> Result<Answer<'p>, Box<EvalError>> {
        if !std::ptr::eq(handle.program, self.program) {
            return Err(Self::fail(
                "internal error: the rule handle is of another program",
                span,
            ));
        }
        if args.len() != handle.rule.params.len() {
            let takes = handle.rule.params.len();
            let word = if takes == 1 { "argument" } else { "arguments" };
            return Err(Self::fail(
                format!(
                    "`{}` takes {takes} {word}, not {}",
                    handle.rule.name,
                    args.len()
                ),
                span,
            ));
        }
        if let (Some(folded), Some(prepared)) = (handle.folded, self.prepared)
            && self.fold
            && self.trace.is_none()
            && self.depth < MAX_CALL_DEPTH
            && handle.prepared.is_some_and(|p| std::ptr::eq(p, prepared))
        {
            if let Some(ready) = ready(prepared, handle.index, folded, args) {
                return Ok(Answer::Ready(ready.value));
            }
            if let Some(code) = &folded.code {
                return self
                    .run_with(handle.index, handle.rule, code, args, span)
                    .map(Answer::Computed);
            }
        }
        match self.answered(handle.index, args) {
            Some(value) => Ok(Answer::Ready(value)),
            None => self
                .call_with_frame(handle.index, args, span)
                .map(Answer::Computed),
        }
    }

    /// [`answer`](Self::answer) on a tracing evaluator: a call answered from
    /// what `handle` keeps is recorded as the whole call it is, where every
    /// kept answer calls no rule as written (so the trace is the one
    /// evaluating the body records) and the handle is of this evaluator's
    /// form; any other call takes the general way.
    #[inline(always)]
    fn answer_traced(
        &mut self,
        handle: &RuleHandle<'p>,
        args: &[Value],
        span: Span,
    ) -> Result<Answer<'p>, Box<EvalError>> {
        let same_form = matches!(
            (handle.prepared, self.prepared),
            (Some(h), Some(p)) if std::ptr::eq(h, p)
        );
        if handle.quiet
            && same_form
            && self.depth < MAX_CALL_DEPTH
            && let Some(trace) = &mut self.trace
        {
            match (handle.kept, args) {
                (Kept::Table(rows), [Value::Enum(e, v)]) => {
                    if let Some(value) = rows.get(*v as usize) {
                        trace.record_row(handle.index, *e, *v, value);
                        return Ok(Answer::Ready(value));
                    }
                }
                (Kept::Const(value), []) => {
                    trace.record(handle.index, args, None, value);
                    return Ok(Answer::Ready(value));
                }
                _ => {}
            }
        }
        self.answer_general(handle, args, span)
    }
}

/// A rule resolved once, by name ([`Evaluator::handle`]), for calls through
/// [`Evaluator::answer`] that neither look the rule up again nor copy an answer
/// the evaluation form keeps ready.
#[derive(Debug, Clone, Copy)]
pub struct RuleHandle<'p> {
    index: u32,
    rule: &'p Rule,
    /// The program and evaluation form of the evaluator that made it: only
    /// an evaluator of the same ones takes the short way through it.
    program: &'p Program,
    prepared: Option<&'p Prepared>,
    folded: Option<&'p Folded>,
    /// What a call answers from at once (see [`Evaluator::answer`]).
    kept: Kept<'p>,
    /// Whether no row (or const) of the rule calls a rule as written, so a
    /// tracing evaluator may answer from `kept` and record the call alone.
    quiet: bool,
}

/// The values of a rule's evaluation form a handle answers from directly,
/// found once when the handle is made.
#[derive(Debug, Clone, Copy)]
enum Kept<'p> {
    /// Nothing: a fn, a scale (its row is searched for), or a handle of an
    /// evaluator without the evaluation form, or that neither folds nor traces.
    Nothing,
    /// A const's value.
    Const(&'p Value),
    /// A table's rows by variant, every one of which folded (a table with a
    /// row that did not keeps nothing: its calls take the general way).
    Table(&'p [Value]),
}

impl RuleHandle<'_> {
    /// The rule's index in its program.
    pub fn index(&self) -> u32 {
        self.index
    }
}

/// What a call through a [`RuleHandle`] gives: a value the evaluation form
/// keeps ready, by reference, or one computed for this call.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<'p> {
    /// A const's value or a table or scale row's, as kept.
    Ready(&'p Value),
    /// Computed by this call.
    Computed(Value),
}

impl Answer<'_> {
    /// The answer as a value of its own.
    pub fn into_value(self) -> Value {
        match self {
            Answer::Ready(v) => copy_value(v),
            Answer::Computed(v) => v,
        }
    }
}

impl std::ops::Deref for Answer<'_> {
    type Target = Value;

    fn deref(&self) -> &Value {
        match self {
            Answer::Ready(v) => v,
            Answer::Computed(v) => v,
        }
    }
}
