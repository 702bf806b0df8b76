//! A count of evaluation steps shared by many evaluations: the bound on the
//! whole work of a command that evaluates without end in sight (`bfr diff`
//! over every changed rule, `bfr check` over every const and property, the
//! examples of `bfr check` and `bfr test`). Each evaluation keeps its own
//! limit ([`MAX_STEPS`]); the budget bounds their sum. A count, not a clock,
//! so the work stops at the same evaluation on every machine.

use super::{EvalError, Evaluator, MAX_STEPS, TOO_LARGE};
use std::cell::Cell;

/// The steps left to a command's evaluations. Once they run out, no
/// evaluation is started any more, and one stopped by what was left (not by
/// its own limit) has no result: the caller says what it did not work out.
/// An evaluation may pass what was left as it may pass its own limit (a const
/// it works out counts its own steps, see [`MAX_STEPS`]); all of its steps are
/// taken from the budget.
pub struct Budget {
    total: u64,
    left: Cell<u64>,
    /// Evaluations asked for and not made, the budget spent.
    refused: Cell<u64>,
    /// The steps one evaluation may take: [`MAX_STEPS`] but in tests.
    per_evaluation: u64,
}

impl Budget {
    /// A budget of `steps`.
    pub fn new(steps: u64) -> Self {
        Budget {
            total: steps,
            left: Cell::new(steps),
            refused: Cell::new(0),
            per_evaluation: MAX_STEPS,
        }
    }

    /// The same budget with evaluations limited to `steps` each, for tests
    /// that reach one evaluation's limit quickly.
    #[cfg(test)]
    pub(crate) fn with_evaluation_limit(self, steps: u64) -> Self {
        Budget {
            per_evaluation: steps,
            ..self
        }
    }

    /// The steps it started with.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The steps taken from it so far.
    pub fn spent(&self) -> u64 {
        self.total - self.left.get()
    }

    /// How many evaluations were refused so far: work was cut short when this
    /// grew while it was done.
    pub fn refused(&self) -> u64 {
        self.refused.get()
    }

    /// Runs one top-level evaluation `evaluate` on `evaluator`, limited to what
    /// is left (and to the limit of one evaluation). `None` when nothing was
    /// left, or when the evaluation was stopped by what was left rather than by
    /// its own limit: then it has no result, and nothing more is evaluated. A
    /// const the evaluator kept from an earlier evaluation, failed at the limit
    /// of one evaluation, fails this one at no cost: that is a result (its error).
    pub fn run<'p, T>(
        &self,
        evaluator: &mut Evaluator<'p>,
        evaluate: impl FnOnce(&mut Evaluator<'p>) -> Result<T, Box<EvalError>>,
    ) -> Option<Result<T, Box<EvalError>>> {
        let left = self.left.get();
        if left == 0 {
            self.refuse();
            return None;
        }
        let limit = left.min(self.per_evaluation);
        evaluator.limit_steps(limit);
        let result = evaluate(evaluator);
        let cost = evaluator.last_cost();
        self.left.set(left.saturating_sub(cost));
        match result {
            Err(e) if e.code == Some(TOO_LARGE) && limit < self.per_evaluation && cost >= limit => {
                self.left.set(0);
                self.refuse();
                None
            }
            done => Some(done),
        }
    }

    fn refuse(&self) {
        self.refused.set(self.refused.get().saturating_add(1));
    }
}
