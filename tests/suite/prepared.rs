//! The evaluation form (`eval::Prepared`: rule bodies folded, a const, table row or
//! scale row answered directly, scale rows searched as whole numbers) gives what
//! the IR as written gives: the same value, or the same failure.

use crate::support::program_2015;
use bfr::eval::{Evaluator, Prepared};
use bfr::ir::{BinOp, ExprKind, RuleBody, Value};
use bfr::source::Span;
use rust_decimal::Decimal;

#[test]
fn every_example_gives_the_same_values_through_the_evaluation_form() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut plain = Evaluator::new(&program);
    let mut folded = Evaluator::prepared(&program, &prepared);
    let mut compared = 0;
    for example in &program.examples {
        for a in &example.assertions {
            // Both sides of a comparison, and the assertion itself.
            let mut parts = vec![a];
            if let ExprKind::Binary(BinOp::Eq, l, r) = &a.kind {
                parts.extend([&**l, &**r]);
            }
            for e in parts {
                let want = plain.eval_closed(e).map_err(|e| e.message);
                let got = folded.eval_closed(e).map_err(|e| e.message);
                assert_eq!(got, want, "{}: {e:?}", example.title);
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "only {compared} values compared");
}

/// Values just below, at and just above `v`, and between whole numbers.
fn around(v: &Value) -> Vec<Value> {
    let steps = ["-1", "-0.5", "0", "0.5", "1"].map(|s| s.parse::<Decimal>().expect("a step"));
    match v {
        Value::Duration(n) => steps.iter().map(|s| Value::Duration(n + s)).collect(),
        Value::Num(n, u) => steps.iter().map(|s| Value::Num(n + s, u.clone())).collect(),
        other => vec![other.clone()],
    }
}

#[test]
fn every_scale_gives_the_same_rows_at_and_beside_each_bound() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut plain = Evaluator::new(&program);
    let mut folded = Evaluator::prepared(&program, &prepared);
    let mut compared = 0;
    for (i, rule) in program.rules.iter().enumerate() {
        let RuleBody::Scale { arms } = &rule.body else {
            continue;
        };
        let i = i as u32;
        for bound in arms.iter().flat_map(|a| [&a.lower, &a.upper]).flatten() {
            for x in around(&bound.value) {
                let args = [x];
                let want = plain.call_with(i, &args, Span::default());
                let got = folded.call_with(i, &args, Span::default());
                let (want, got) = (want.map_err(|e| e.message), got.map_err(|e| e.message));
                assert_eq!(got, want, "{}({:?})", rule.name, args[0]);
                compared += 1;
            }
        }
    }
    assert!(compared > 200, "only {compared} inputs compared");
}

#[test]
fn every_table_row_is_the_same_through_the_evaluation_form() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut plain = Evaluator::new(&program);
    let mut folded = Evaluator::prepared(&program, &prepared);
    let mut compared = 0;
    for (i, rule) in program.rules.iter().enumerate() {
        let (RuleBody::Table { rows }, Some((_, bfr::ir::Type::Enum(e)))) =
            (&rule.body, rule.params.first())
        else {
            continue;
        };
        for v in 0..rows.len() as u32 {
            let args = [Value::Enum(*e, v)];
            let want = plain.call_with(i as u32, &args, Span::default());
            let got = folded.call_with(i as u32, &args, Span::default());
            let (want, got) = (want.map_err(|e| e.message), got.map_err(|e| e.message));
            assert_eq!(got, want, "{} row {v}", rule.name);
            compared += 1;
        }
    }
    assert!(compared > 50, "only {compared} rows compared");
}
