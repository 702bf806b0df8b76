//! Running `example` blocks: each assertion must evaluate to `true`.

use super::{Budget, EvalError, Evaluator, show_count};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::BinOp;
use crate::ir::{Example, ExprKind, Program, Value};
use crate::source::Span;

/// How one example went.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Every assertion holds.
    Holds,
    /// An assertion is false.
    Fails {
        /// The assertion.
        span: Span,
        /// For a comparison, the two sides' values.
        sides: Option<(String, String)>,
    },
    /// An assertion could not be evaluated.
    Error(EvalError),
    /// Not evaluated to the end: the steps of the examples run together
    /// ([`MAX_EXAMPLE_STEPS`]) were spent.
    NotRun,
}

/// The evaluation steps the examples of one `bfr check` or `bfr test` may take
/// together: twenty assertions at the limit of one evaluation
/// ([`MAX_STEPS`](super::MAX_STEPS)), seconds rather than hours. Each assertion
/// is bounded on its own; this bounds their number too, so thousands of heavy
/// examples are reported as not run instead of run for hours. The 2015 edition's take about 84,000.
pub const MAX_EXAMPLE_STEPS: u64 = 1_000_000_000;

/// What is said of the examples the steps had no room for, `count` of them.
pub fn not_run_message(count: usize, budget: &Budget) -> String {
    format!(
        "{} not run: the examples together take more than the {} steps they may take",
        crate::diag::counted(count, "example"),
        show_count(budget.total())
    )
}

/// Evaluates every assertion of an example, stopping at the first that fails.
pub fn run(program: &Program, example: &Example) -> Outcome {
    run_within(program, example, &Budget::new(MAX_EXAMPLE_STEPS))
}

/// As [`run`], within `budget`, which the examples of one command share.
pub fn run_within(program: &Program, example: &Example, budget: &Budget) -> Outcome {
    let mut ev = Evaluator::new(program);
    for a in &example.assertions {
        let Some(result) = budget.run(&mut ev, |ev| ev.eval_closed(a)) else {
            return Outcome::NotRun;
        };
        match result {
            Ok(Value::Bool(true)) => {}
            Ok(_) => {
                let sides = match &a.kind {
                    ExprKind::Binary(op, l, r) if !matches!(op, BinOp::And | BinOp::Or) => {
                        let mut side = |e| budget.run(&mut ev, |ev| ev.eval_closed(e));
                        match (side(l), side(r)) {
                            (Some(Ok(x)), Some(Ok(y))) => Some((x.show(program), y.show(program))),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                return Outcome::Fails {
                    span: a.span,
                    sides,
                };
            }
            Err(e) => return Outcome::Error(*e),
        }
    }
    Outcome::Holds
}

/// Runs every example and reports the ones that do not hold as warnings: W0501
/// where the document contradicts itself (a `contradicts` example), W0503 where an
/// example of the edition does not hold, W0502 where one cannot be evaluated.
/// `bfr check` shows them; `bfr test` fails on the last two.
pub fn warnings(program: &Program) -> Diagnostics {
    warnings_within(program, MAX_EXAMPLE_STEPS)
}

/// [`warnings`] with `steps` for all the examples together.
pub(crate) fn warnings_within(program: &Program, steps: u64) -> Diagnostics {
    let mut found = Diagnostics::default();
    let budget = Budget::new(steps);
    let mut not_run = Vec::new();
    for ex in &program.examples {
        let source = ex
            .source
            .as_ref()
            .map_or(String::new(), |s| format!(" ({s})"));
        match run_within(program, ex, &budget) {
            Outcome::Holds => {}
            Outcome::NotRun => not_run.push(ex.span),
            Outcome::Fails { span, sides } => {
                // The document disagreeing with itself (a marked example) and an
                // example of the edition that does not hold are different findings.
                let (code, what) = if ex.contradicts {
                    ("W0501", "the document contradicts itself")
                } else {
                    ("W0503", "an example does not hold")
                };
                let mut d =
                    Diagnostic::warning(code, format!("{what}: \"{}\"{source}", ex.title), span);
                if let Some((l, r)) = sides {
                    d = d.with_label(format!("the left side is {l}, the right side is {r}"));
                }
                d = d.with_note(ex.span, "the example");
                found.push(d.with_help(if ex.contradicts {
                    "the edition encodes the rule; the document's other statement is kept, marked `contradicts`"
                } else {
                    "fix the rule or the example; `bfr test` fails until they agree"
                }));
            }
            Outcome::Error(e) => found.push(
                Diagnostic::warning(
                    "W0502",
                    format!("an example cannot be evaluated: {}", e.message),
                    e.span,
                )
                .with_note(ex.span, "the example"),
            ),
        }
    }
    // One warning for all the examples not run, at the first of them.
    if let Some(first) = not_run.first() {
        found.push(
            Diagnostic::warning("W0502", not_run_message(not_run.len(), &budget), *first)
                .with_label("the first example not run")
                .with_help("make the examples cheaper to evaluate: no edition's examples need this many steps"),
        );
    }
    found
}
