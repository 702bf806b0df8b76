//! The limits of one evaluation: the steps it may take and the calls a limited
//! trace records.

use super::{Evaluator, Prepared, TOO_LARGE, show_count};
use crate::edition::{Loaded, load_texts};
use crate::ir::Expr;

const PROGRAM: &str = "unit VP \"victory points\"\n\
    fn bump(x: number) -> number ref T-1 = x + 1\n\
    fn twice(xs: [number]) -> number ref T-1 = len(xs) + len(xs)\n\
    fn many(i: number) -> [number] ref T-1 = range(i, i + 9999)\n\
    const total: number ref T-1 = sum(range(1, 3000))\n\
    const first: number ref T-1 = total + 1\n\
    const second: number ref T-1 = first + 1\n";

fn loaded() -> Loaded {
    load_texts(vec![("t.bfr".into(), PROGRAM.as_bytes().to_vec())])
}

/// `text` checked against the program.
fn expr(loaded: &Loaded, text: &str) -> Expr {
    let checked = loaded.checked.as_ref().expect("the program checks");
    let ast = crate::syntax::parse_expr(text, 1).expect("the expression parses");
    checked.check_expr(&ast).expect("the expression checks")
}

/// `text` evaluated with at most `limit` steps: the value shown, or the code.
fn eval(loaded: &Loaded, text: &str, limit: u64) -> Result<String, &'static str> {
    let program = &loaded.checked.as_ref().expect("the program checks").program;
    Evaluator::new(program)
        .with_step_limit(limit)
        .eval_closed(&expr(loaded, text))
        .map(|v| v.show(program))
        .map_err(|e| e.code.unwrap_or("E0601"))
}

#[test]
fn a_loop_past_the_step_limit_stops_with_its_code_and_the_limit() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let nested = expr(&l, "sum(map(range(1, 1000), x => sum(range(1, 1000))))");
    let failed = Evaluator::new(program)
        .with_step_limit(10_000)
        .eval_closed(&nested)
        .expect_err("too large");
    assert_eq!(failed.code, Some(TOO_LARGE));
    assert!(
        failed.message.contains("more than 10,000 steps"),
        "{}",
        failed.message
    );
    // It points into the expression.
    assert!(failed.span.start >= nested.span.start && failed.span.end <= nested.span.end);
    // The same work in fewer turns fits.
    assert_eq!(
        eval(
            &l,
            "sum(map(range(1, 3), x => sum(range(1, 1000))))",
            10_000
        ),
        Ok("1501500".into())
    );
}

#[test]
fn the_limit_is_per_top_level_evaluation() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let some_work = expr(&l, "sum(map(range(1, 500), x => bump(x)))");
    let mut ev = Evaluator::new(program).with_step_limit(5_000);
    for _ in 0..10 {
        assert!(ev.eval_closed(&some_work).is_ok());
    }
    let bump = program.rule("bump").map(|(i, _)| i).expect("bump");
    for _ in 0..10_000 {
        assert!(
            ev.call(
                bump,
                vec![crate::ir::Value::Num(1.into(), crate::ir::Unit::none())],
                Default::default()
            )
            .is_ok()
        );
    }
}

#[test]
fn copying_a_list_counts_its_values() {
    let l = loaded();
    // Each turn copies the 1,000 numbers of `xs`: 20,000 in all.
    let copies = "let xs = range(1, 1000) in sum(map(range(1, 20), i => len(xs)))";
    assert_eq!(eval(&l, copies, 10_000), Err(TOO_LARGE));
    assert_eq!(eval(&l, copies, 30_000), Ok("20000".into()));
    // A position in a list held by a local copies one value, not the list.
    let positions = "let xs = range(1, 1000) in sum(map(range(1, 1000), i => xs[i]))";
    assert_eq!(eval(&l, positions, 20_000), Ok("500500".into()));
    assert_eq!(eval(&l, "let xs = [1, 2] in xs[3]", 100), Err("E0603"));
    assert_eq!(
        eval(&l, "let xs = [1, 2] in sum(map([0], i => xs[i]))", 100),
        Err("E0603")
    );
    assert_eq!(
        eval(&l, "let xs = [1, 2] in sum(map([2], i => xs[i]))", 100),
        Ok("2".into())
    );
}

#[test]
fn compiled_code_counts_its_steps_and_the_lists_it_passes() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let prepared = Prepared::new(program);
    // `twice` is compiled; each call is given a copy of the 1,000 numbers.
    let calls = expr(
        &l,
        "let xs = range(1, 1000) in sum(map(range(1, 100), i => twice(xs)))",
    );
    let mut ev = Evaluator::prepared(program, &prepared).with_step_limit(50_000);
    let failed = ev.eval_closed(&calls).expect_err("too large");
    assert_eq!(failed.code, Some(TOO_LARGE));
    let mut ev = Evaluator::prepared(program, &prepared).with_step_limit(500_000);
    assert!(ev.eval_closed(&calls).is_ok());
}

#[test]
fn a_const_stopped_by_the_steps_before_it_is_kept_with_its_value() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    // `total` fits the limit on its own; with the steps before it, the caller
    // does not: the caller fails, and `total` is kept with its value.
    let mut ev = Evaluator::new(program).with_step_limit(8_000);
    let before = expr(&l, "len(range(1, 5000)) + total");
    let failed = ev.eval_closed(&before).expect_err("too large");
    assert_eq!(failed.code, Some(TOO_LARGE));
    let total = program.rule("total").map(|(i, _)| i).expect("total");
    assert!(matches!(ev.consts.get(&total), Some(Ok(_))));
    let alone = expr(&l, "total");
    assert_eq!(
        ev.eval_closed(&alone).map(|v| v.show(program)).ok(),
        Some("4501500".into())
    );
}

#[test]
fn a_const_past_the_step_limit_on_its_own_is_kept_as_failed() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let index = |name: &str| program.rule(name).map(|(i, _)| i).expect("declared");
    let mut ev = Evaluator::new(program).with_step_limit(1_000);
    let failed = ev
        .call(index("second"), Vec::new(), Default::default())
        .expect_err("too large");
    assert_eq!(failed.code, Some(TOO_LARGE));
    // It points at the part of `total` it was working out, not at the use.
    let at = PROGRAM.get(failed.span.start as usize..failed.span.end as usize);
    assert!(
        at.is_some_and(|part| !part.is_empty() && "sum(range(1, 3000))".contains(part)),
        "{at:?}"
    );
    // `total` failed on its own steps, so each const of the chain keeps the
    // failure: none computes `total` again.
    for name in ["total", "first", "second"] {
        let kept = ev
            .consts
            .get(&index(name))
            .map(|r| r.as_ref().err().and_then(|e| e.code));
        assert_eq!(kept, Some(Some(TOO_LARGE)), "{name}");
    }
}

#[test]
fn an_evaluations_cost_counts_the_consts_that_failed_in_it() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let second = program.rule("second").map(|(i, _)| i).expect("declared");
    let mut ev = Evaluator::new(program);
    // A bound of the caller's own is never above one evaluation's limit.
    ev.limit_steps(u64::MAX);
    assert_eq!(ev.step_limit, super::MAX_STEPS);
    ev.limit_steps(1_000);
    let failed = ev
        .call(second, Vec::new(), Default::default())
        .expect_err("too large");
    assert_eq!(failed.code, Some(TOO_LARGE));
    // `total` failed on its own count, not the caller's, and its steps are
    // part of the work the call did all the same.
    assert!(ev.last_cost() > 1_000, "{}", ev.last_cost());
    // The next evaluation is counted afresh.
    assert!(ev.eval_closed(&expr(&l, "1 + 1")).is_ok());
    assert!(ev.last_cost() < 10, "{}", ev.last_cost());
}

#[test]
fn folding_stops_at_the_first_part_past_the_step_limit() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let mut ev = Evaluator::new(program).with_step_limit(1_000);
    // The condition's list is too large to fold; the whole is not tried again,
    // and the branch after it is kept as written.
    let value = expr(&l, "if sum(range(1, 3000)) > 0 then 2 * 3 else 1");
    let body = crate::ir::RuleBody::Const {
        value: Box::new(value),
    };
    let crate::ir::RuleBody::Const { value } = super::fold::body(&mut ev, &body) else {
        panic!("a const stays a const")
    };
    let crate::ir::ExprKind::If(_, then, _) = value.kind else {
        panic!("not folded: {value:?}")
    };
    assert!(
        matches!(then.kind, crate::ir::ExprKind::Binary(..)),
        "{then:?}"
    );
}

#[test]
fn a_limited_trace_records_the_first_calls_and_counts_the_rest() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    let calls = expr(&l, "sum(map(range(1, 20), i => bump(i)))");
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(5);
    assert!(ev.eval_closed(&calls).is_ok());
    let trace = ev.trace().expect("tracing");
    assert_eq!((trace.len(), trace.left_out()), (5, 15));
    let mut text = String::new();
    trace.render(program, 1, &mut text);
    assert_eq!(text.lines().filter(|l| l.contains("bump(")).count(), 5);
    assert!(
        text.ends_with("  … 15 more rule calls left out: an explanation shows the first 5 calls\n"),
        "{text}"
    );
    // Cleared, it records again from the start; within the limit, nothing is
    // left out and no line says so.
    ev.clear_trace();
    assert!(ev.eval_closed(&expr(&l, "bump(1) + bump(2)")).is_ok());
    let trace = ev.trace().expect("tracing");
    assert_eq!((trace.len(), trace.left_out()), (2, 0));
    let mut text = String::new();
    trace.render(program, 1, &mut text);
    assert!(!text.contains("left out"), "{text}");
    // Unlimited, every call is recorded.
    let mut ev = Evaluator::tracing(program);
    assert!(ev.eval_closed(&calls).is_ok());
    assert_eq!(ev.trace().map(|t| (t.len(), t.left_out())), Some((20, 0)));
}

#[test]
fn a_limited_trace_names_every_rule_that_took_part() {
    let l = load_texts(vec![(
        "t.bfr".into(),
        "fn early(x: number) -> number ref T-EARLY = x + 1\n\
         fn late(x: number) -> number ref T-LATE = x + 2\n"
            .as_bytes()
            .to_vec(),
    )]);
    let program = &l.checked.as_ref().expect("checks").program;
    // `late` is called only after the five calls recorded.
    let calls = expr(&l, "sum(map(range(1, 10), i => early(i))) + late(1)");
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(5);
    assert!(ev.eval_closed(&calls).is_ok());
    let trace = ev.trace().expect("tracing");
    assert_eq!(trace.left_out(), 6);
    assert_eq!(trace.rule_ids(program), vec!["T-EARLY", "T-LATE"]);
    ev.clear_trace();
    assert!(ev.eval_closed(&expr(&l, "early(1)")).is_ok());
    assert_eq!(
        ev.trace().map(|t| t.rule_ids(program)),
        Some(vec!["T-EARLY".to_string()])
    );
}

#[test]
fn a_limited_trace_also_stops_at_the_values_it_keeps() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    // 200 calls, each given a list of 10,000 numbers: two million values.
    let calls = expr(
        &l,
        "let xs = range(1, 10000) in sum(map(range(1, 200), i => twice(xs)))",
    );
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(1_000);
    assert!(ev.eval_closed(&calls).is_ok());
    let trace = ev.trace().expect("tracing");
    assert_eq!(trace.len(), 100);
    assert_eq!(trace.left_out(), 100);
}

#[test]
fn a_limited_trace_counts_the_outputs_it_keeps_and_shows_them_short() {
    let l = loaded();
    let program = &l.checked.as_ref().expect("checks").program;
    // 200 calls, each returning a list of 10,000 numbers: two million values.
    let calls = expr(&l, "len(map(range(1, 200), i => many(i)))");
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(1_000);
    assert!(ev.eval_closed(&calls).is_ok());
    let trace = ev.trace().expect("tracing");
    assert_eq!((trace.len(), trace.left_out()), (100, 100));
    assert!(trace.values_kept_apart() < 1_000_000);
    let mut text = String::new();
    trace.render(program, 1, &mut text);
    // Each list is shown in its first characters, with its length.
    assert!(text.len() < 100_000, "{} bytes", text.len());
    assert!(text.contains("[1, 2, 3, "), "{text}");
    assert_eq!(text.matches("(10,000 values)").count(), 99, "{text}");
    // The last call's output would have passed the values kept.
    assert_eq!(text.matches("keeps at most a million values").count(), 1);
    // Unlimited, a trace shows values whole.
    let mut ev = Evaluator::tracing(program);
    assert!(ev.eval_closed(&expr(&l, "len(many(1))")).is_ok());
    let mut text = String::new();
    ev.trace().expect("tracing").render(program, 1, &mut text);
    assert!(text.contains("9999, 10000]"), "{text}");
}

#[test]
fn counts_are_shown_with_thousands_separated() {
    assert_eq!(show_count(0), "0");
    assert_eq!(show_count(999), "999");
    assert_eq!(show_count(1_000), "1,000");
    assert_eq!(show_count(50_000_000), "50,000,000");
}

#[test]
fn examples_past_their_steps_together_are_one_warning_not_one_each() {
    let mut text = String::from(PROGRAM);
    for k in 1..=20 {
        text.push_str(&format!(
            "example \"sum {k}\" ref T-1 {{\n  sum(range(1, 1000)) == 500500\n}}\n"
        ));
    }
    let l = load_texts(vec![("t.bfr".into(), text.into_bytes())]);
    let program = &l.checked.as_ref().expect("checks").program;
    let all = super::examples::warnings_within(program, super::examples::MAX_EXAMPLE_STEPS);
    assert!(all.sorted().is_empty(), "every example holds");
    // Each makes a list of a thousand numbers: 1,000 to 2,000 steps (about
    // 1,006 as counted now). Five to ten run; the rest are one warning at the
    // first not run.
    let cut = super::examples::warnings_within(program, 10_000);
    let found = cut.sorted();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, "W0502");
    let not_run: usize = found[0]
        .message
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", found[0].message));
    assert!((10..=15).contains(&not_run), "{}", found[0].message);
    assert!(
        found[0].message.ends_with(
            "examples not run: the examples together take more than the 10,000 steps they may take"
        ),
        "{}",
        found[0].message
    );
    let first_not_run = &program.examples[20 - not_run];
    assert_eq!(found[0].span.start, first_not_run.span.start);
}
