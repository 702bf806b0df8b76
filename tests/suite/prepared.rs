//! The evaluation form (`eval::Prepared`: rule bodies folded, a fn's folded body
//! compiled to steps, a const, table row or scale row answered directly, scale
//! rows searched as whole numbers, a call through a rule handle, a traced row
//! recorded without evaluating it) gives what the IR as written gives: the same
//! value, or the same failure (message, code and span), and the same trace.

use crate::support::program_2015;
use bfr::eval::{Answer, EvalResult, Evaluator, Prepared};
use bfr::ir::{BinOp, ExprKind, RuleBody, Value};
use bfr::source::Span;
use rust_decimal::Decimal;

/// Everything of a failure that a caller can see: message, code, and the
/// span's file, start and end (`Span`'s own equality ignores it).
type Failure = (String, Option<&'static str>, (u32, u32, u32));

/// A result with its failure as [`Failure`].
fn seen(r: EvalResult) -> Result<Value, Failure> {
    r.map_err(|e| (e.message, e.code, (e.span.file, e.span.start, e.span.end)))
}

/// Rule `name` called through a handle made by `ev`, as [`seen`] shows it.
fn answered(ev: &mut Evaluator, name: &str, args: &[Value]) -> Result<Value, Failure> {
    let handle = ev.handle(name).expect("the rule has a handle");
    seen(
        ev.answer(&handle, args, Span::default())
            .map(Answer::into_value),
    )
}

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
                let want = seen(plain.eval_closed(e));
                let got = seen(folded.eval_closed(e));
                assert_eq!(got, want, "{}: {e:?}", example.title);
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "only {compared} values compared");
    // The examples call the edition's fns through their compiled bodies.
    assert!(
        prepared.compiled() > 30,
        "only {} fns compiled",
        prepared.compiled()
    );
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
                let (want, got) = (seen(want), seen(got));
                assert_eq!(got, want, "{}({:?})", rule.name, args[0]);
                let by_handle = answered(&mut folded, &rule.name, &args);
                assert_eq!(by_handle, want, "{}({:?}) by handle", rule.name, args[0]);
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
            let (want, got) = (seen(want), seen(got));
            assert_eq!(got, want, "{} row {v}", rule.name);
            let by_handle = answered(&mut folded, &rule.name, &args);
            assert_eq!(by_handle, want, "{} row {v} by handle", rule.name);
            compared += 1;
        }
    }
    assert!(compared > 50, "only {compared} rows compared");
}

#[test]
fn a_handle_answers_every_const_and_table_row_as_the_walk_and_fails_as_it() {
    // A handle keeps a table's rows and a const's value and answers from them
    // inline: the same values as the IR walk, and every call it
    // cannot answer so (a variant past the rows, a key that is no enum value,
    // the wrong number of arguments) fails as the general way does.
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut plain = Evaluator::new(&program);
    let mut folded = Evaluator::prepared(&program, &prepared);
    // Of the same program and form, but tracing: it must record every call.
    let mut tracing = Evaluator::tracing_prepared(&program, &prepared);
    let span = Span::default();
    let (mut consts, mut rows, mut failures, mut ready) = (0, 0, 0, 0);
    for (i, rule) in program.rules.iter().enumerate() {
        let i = i as u32;
        let handle = folded.handle(&rule.name).expect("a handle");
        match (&rule.body, rule.params.first()) {
            (RuleBody::Const { .. }, _) => {
                let want = seen(plain.call_with(i, &[], span));
                let got = folded.answer(&handle, &[], span);
                ready += usize::from(matches!(got, Ok(Answer::Ready(_))));
                assert_eq!(seen(got.map(Answer::into_value)), want, "{}", rule.name);
                let extra = seen(
                    folded
                        .answer(&handle, &[Value::Bool(true)], span)
                        .map(Answer::into_value),
                );
                let message = format!("`{}` takes 0 arguments, not 1", rule.name);
                assert_eq!(extra.map_err(|f| f.0), Err(message), "{}", rule.name);
                consts += 1;
            }
            (RuleBody::Table { rows: written }, Some((_, bfr::ir::Type::Enum(e)))) => {
                let past = written.len() as u32;
                for v in 0..=past {
                    let args = [Value::Enum(*e, v)];
                    let want = seen(plain.call_with(i, &args, span));
                    let got = folded.answer(&handle, &args, span);
                    ready += usize::from(matches!(got, Ok(Answer::Ready(_))));
                    assert_eq!(seen(got.map(Answer::into_value)), want, "{} {v}", rule.name);
                    tracing.clear_trace();
                    let traced = tracing.answer(&handle, &args, span).map(Answer::into_value);
                    assert_eq!(seen(traced), want, "{} {v} traced", rule.name);
                    let calls = tracing.trace().map_or(0, |t| t.len());
                    assert!(
                        calls >= 1,
                        "{} {v}: the call is not in the trace",
                        rule.name
                    );
                    rows += 1;
                }
                let past_rows = seen(plain.call_with(i, &[Value::Enum(*e, past)], span));
                assert!(past_rows.is_err(), "{}", rule.name);
                let not_enum = [Value::Bool(true)];
                let want = seen(plain.call_with(i, &not_enum, span));
                let got = folded.answer(&handle, &not_enum, span);
                assert_eq!(seen(got.map(Answer::into_value)), want, "{}", rule.name);
                for args in [&[][..], &[Value::Enum(*e, 0), Value::Enum(*e, 0)][..]] {
                    let got = folded.answer(&handle, args, span);
                    let message = format!("`{}` takes 1 argument, not {}", rule.name, args.len());
                    assert_eq!(
                        seen(got.map(Answer::into_value)).map_err(|f| f.0),
                        Err(message),
                        "{}",
                        rule.name
                    );
                }
                failures += 4;
            }
            _ => {}
        }
    }
    assert!(consts > 50, "only {consts} consts compared");
    assert!(rows > 50, "only {rows} table rows compared");
    assert!(failures > 10, "only {failures} failing calls compared");
    // Most consts and rows fold to a value, answered where it is kept.
    assert!(ready > 100, "only {ready} answers by reference");
}

/// Values of a fn's parameter type to call it with: around every figure the
/// edition's examples use, and values that make arithmetic fail.
fn probes(program: &bfr::ir::Program, ty: &bfr::ir::Type, figures: &[Decimal]) -> Vec<Value> {
    use bfr::ir::Type;
    match ty {
        Type::Enum(e) => {
            let count = program
                .enums
                .get(*e as usize)
                .map_or(0, |info| info.variants.len());
            (0..count as u32).map(|v| Value::Enum(*e, v)).collect()
        }
        Type::Num(unit) => figures
            .iter()
            .map(|n| Value::Num(*n, unit.clone()))
            .collect(),
        Type::Duration => figures.iter().map(|n| Value::Duration(*n)).collect(),
        Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
        _ => Vec::new(),
    }
}

#[test]
fn every_fn_of_quantities_gives_the_same_values_and_failures_compiled() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut plain = Evaluator::new(&program);
    let mut compiled = Evaluator::prepared(&program, &prepared);
    let figures: Vec<Decimal> = [
        "0",
        "1",
        "2",
        "-1",
        "0.5",
        "3",
        "7",
        "12",
        "25",
        "64",
        "300",
        "1000",
        "2000",
        "79228162514264337593543950335",
    ]
    .iter()
    .map(|s| s.parse().expect("a figure"))
    .collect();
    let (mut compared, mut failures) = (0, 0);
    for (i, rule) in program.rules.iter().enumerate() {
        if !matches!(rule.body, RuleBody::Fn { .. }) || rule.params.is_empty() {
            continue;
        }
        // Every combination of probes for up to two parameters, the first probe
        // for the rest.
        let each: Vec<Vec<Value>> = rule
            .params
            .iter()
            .map(|(_, t)| probes(&program, t, &figures))
            .collect();
        if each.iter().any(Vec::is_empty) {
            continue;
        }
        let mut calls = vec![Vec::new()];
        for (k, values) in each.iter().enumerate() {
            let values = if k < 2 { &values[..] } else { &values[..1] };
            calls = calls
                .into_iter()
                .flat_map(|args: Vec<Value>| {
                    values.iter().map(move |v| {
                        let mut a = args.clone();
                        a.push(v.clone());
                        a
                    })
                })
                .collect();
        }
        for args in calls {
            let want = seen(plain.call_with(i as u32, &args, Span::default()));
            let got = seen(compiled.call_with(i as u32, &args, Span::default()));
            failures += usize::from(want.is_err());
            assert_eq!(got, want, "{}({args:?})", rule.name);
            let by_handle = answered(&mut compiled, &rule.name, &args);
            assert_eq!(by_handle, want, "{}({args:?}) by handle", rule.name);
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} calls compared");
    assert!(failures > 50, "only {failures} failures compared");
}

#[test]
fn a_trace_in_words_is_the_same_from_the_record_and_from_its_nodes() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    // One tracing evaluator reused for every example, as the bench reuses it.
    let mut reused = Evaluator::tracing_prepared(&program, &prepared);
    let mut calls = 0;
    for example in &program.examples {
        for a in &example.assertions {
            reused.clear_trace();
            let value = seen(reused.eval_closed(a));
            let mut from_record = String::new();
            let trace = reused.trace().expect("tracing");
            trace.render(&program, 1, &mut from_record);
            calls += trace.len();
            let mut fresh = Evaluator::tracing(&program);
            assert_eq!(seen(fresh.eval_closed(a)), value, "{}", example.title);
            let mut from_nodes = String::new();
            for node in fresh.into_trace() {
                node.render(1, &mut from_nodes);
            }
            assert_eq!(from_record, from_nodes, "{}", example.title);
        }
    }
    assert!(calls > 300, "only {calls} calls traced");
}

/// Rule `i` called with `args` by a tracing evaluator: the value and the trace
/// in words.
fn traced(
    ev: &mut Evaluator,
    program: &bfr::ir::Program,
    i: u32,
    args: &[Value],
) -> (Result<Value, Failure>, String) {
    ev.clear_trace();
    let value = seen(ev.call_with(i, args, Span::default()));
    let mut text = String::new();
    if let Some(trace) = ev.trace() {
        trace.render(program, 1, &mut text);
    }
    (value, text)
}

#[test]
fn every_row_and_const_traced_from_the_evaluation_form_reads_as_the_walked_trace() {
    // A row or const kept ready and calling no rule as written is recorded
    // without evaluating it: the trace must be the one of the body as written.
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let mut reused = Evaluator::tracing_prepared(&program, &prepared);
    let mut walked = Evaluator::tracing(&program);
    let mut compared = 0;
    for (i, rule) in program.rules.iter().enumerate() {
        let inputs: Vec<Vec<Value>> = match (&rule.body, rule.params.first()) {
            (RuleBody::Const { .. }, _) => vec![Vec::new()],
            (RuleBody::Table { rows }, Some((_, bfr::ir::Type::Enum(e)))) => (0..rows.len() as u32)
                .map(|v| vec![Value::Enum(*e, v)])
                .collect(),
            (RuleBody::Scale { arms }, _) => arms
                .iter()
                .flat_map(|a| [&a.lower, &a.upper])
                .flatten()
                .flat_map(|b| around(&b.value))
                .map(|x| vec![x])
                .collect(),
            _ => continue,
        };
        // A handle of the tracing evaluator answers a kept row or const
        // without looking the rule up: it must record the same call.
        let handle = reused.handle(&rule.name).expect("a handle");
        for args in inputs {
            let want = traced(&mut walked, &program, i as u32, &args);
            let got = traced(&mut reused, &program, i as u32, &args);
            assert_eq!(got, want, "{}({args:?})", rule.name);
            let by_handle = traced_by_handle(&mut reused, &program, &handle, &args);
            assert_eq!(by_handle, want, "{}({args:?}) by handle", rule.name);
            compared += 1;
        }
    }
    assert!(compared > 400, "only {compared} calls compared");
}

/// [`traced`] through a handle.
fn traced_by_handle<'p>(
    ev: &mut Evaluator<'p>,
    program: &bfr::ir::Program,
    handle: &bfr::eval::RuleHandle<'p>,
    args: &[Value],
) -> (Result<Value, Failure>, String) {
    ev.clear_trace();
    let value = seen(
        ev.answer(handle, args, Span::default())
            .map(Answer::into_value),
    );
    let mut text = String::new();
    if let Some(trace) = ev.trace() {
        trace.render(program, 1, &mut text);
    }
    (value, text)
}
