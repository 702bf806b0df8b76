//! Running `example` blocks: each assertion must evaluate to `true`.

use super::{EvalError, Evaluator};
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
}

/// Evaluates every assertion of an example, stopping at the first that fails.
pub fn run(program: &Program, example: &Example) -> Outcome {
    let mut ev = Evaluator::new(program);
    for a in &example.assertions {
        match ev.eval_closed(a) {
            Ok(Value::Bool(true)) => {}
            Ok(_) => {
                let sides = match &a.kind {
                    ExprKind::Binary(op, l, r) if !matches!(op, BinOp::And | BinOp::Or) => {
                        match (ev.eval_closed(l), ev.eval_closed(r)) {
                            (Ok(x), Ok(y)) => Some((x.show(program), y.show(program))),
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
    let mut found = Diagnostics::default();
    for ex in &program.examples {
        let source = ex
            .source
            .as_ref()
            .map_or(String::new(), |s| format!(" ({s})"));
        match run(program, ex) {
            Outcome::Holds => {}
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
    found
}
