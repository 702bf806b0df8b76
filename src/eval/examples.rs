//! Running `example` blocks: each assertion must evaluate to `true`.

use super::{EvalError, Evaluator};
use crate::ir::{Example, ExprKind, Program, Value};
use crate::source::Span;
use crate::syntax::ast::BinOp;

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
            Err(e) => return Outcome::Error(e),
        }
    }
    Outcome::Holds
}
