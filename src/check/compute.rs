//! What the check computes of an edition (its consts, competitions'
//! properties, scale bounds, place numbers), within one count of steps for
//! all of it ([`MAX_CHECK_STEPS`]), each const worked out once for all of it.

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{Budget, EvalResult, Evaluator, Kept, TOO_LARGE, show_count};
use crate::ir::{Expr, Program};
use crate::source::Span;
use std::cell::{Cell, RefCell};

/// The evaluation steps `bfr check` may take over all it computes of an
/// edition together: twenty computations at the limit of one
/// ([`crate::eval::MAX_STEPS`]), seconds rather than hours. Each computation
/// is bounded on its own; this bounds their number too, so an edition of
/// thousands of heavy consts is refused instead of checked for hours. The 2015
/// edition takes about 1,500.
pub const MAX_CHECK_STEPS: u64 = 1_000_000_000;

/// The check's computations: the steps they share, the consts worked out so
/// far, and the first computation the steps had no room for.
pub(crate) struct Computer {
    budget: Budget,
    /// Consts worked out by earlier computations: a const named by a hundred
    /// properties is worked out (and its steps counted) once.
    kept: RefCell<Kept>,
    /// Where the first computation refused was asked for, and how many were.
    refused: Cell<Option<Span>>,
    /// Whether the refusal was reported (it is, once).
    reported: Cell<bool>,
}

impl Computer {
    /// A computer of `steps` in all.
    pub(crate) fn new(steps: u64) -> Self {
        Computer {
            budget: Budget::new(steps),
            kept: RefCell::new(Kept::default()),
            refused: Cell::new(None),
            reported: Cell::new(false),
        }
    }

    /// A closed expression of the edition, computed; `None` when the steps had
    /// no room for it (said once, by [`report`](Self::report), not by the caller).
    pub(crate) fn value(&self, program: &Program, e: &Expr) -> Option<EvalResult> {
        self.run(program, e.span, |ev| ev.eval_closed(e))
    }

    /// Const `index` of the edition, computed; `None` as for [`value`](Self::value).
    pub(crate) fn constant(&self, program: &Program, index: u32, span: Span) -> Option<EvalResult> {
        self.run(program, span, |ev| ev.call(index, Vec::new(), span))
    }

    /// Rule `index` of the edition called with `args`; `None` as for
    /// [`value`](Self::value).
    pub(crate) fn call(
        &self,
        program: &Program,
        index: u32,
        args: Vec<crate::ir::Value>,
        span: Span,
    ) -> Option<EvalResult> {
        self.run(program, span, |ev| ev.call(index, args, span))
    }

    fn run(
        &self,
        program: &Program,
        at: Span,
        compute: impl FnOnce(&mut Evaluator) -> EvalResult,
    ) -> Option<EvalResult> {
        let mut ev = Evaluator::new(program).with_kept(self.kept.take());
        let result = self.budget.run(&mut ev, compute);
        self.kept.replace(ev.take_kept());
        if result.is_none() && self.refused.get().is_none() {
            self.refused.set(Some(at));
        }
        result
    }

    /// Whether a computation was refused: what it was for was not checked.
    pub(crate) fn refused_any(&self) -> bool {
        self.refused.get().is_some()
    }

    /// Reports the steps spent, once, at the first computation refused: the
    /// edition is never taken as checked when part of it was not computed.
    pub(crate) fn report(&self, diags: &mut Diagnostics) {
        let Some(at) = self.refused.get() else {
            return;
        };
        if self.reported.replace(true) {
            return;
        }
        let more = self.budget.refused().saturating_sub(1);
        let rest = if more == 0 {
            "it was not computed".to_string()
        } else {
            format!(
                "it and {} after it were not computed",
                crate::diag::counted(more as usize, "computation")
            )
        };
        diags.push(
            Diagnostic::error(
                TOO_LARGE,
                format!(
                    "the edition's computations together take more than the {} steps a check may \
                     take (its consts, properties, scale bounds and place numbers): {rest}",
                    show_count(self.budget.total())
                ),
                at,
            )
            .with_label("the first computation the steps had no room for")
            .with_help("make the consts and properties cheaper to compute: no edition needs this many steps"),
        );
    }
}
