//! The evaluation path of a scale, a table and a fn call allocates nothing once the
//! evaluator is reused: a counting allocator, counting only on the thread that asks
//! (the other tests run beside this one), sees no allocation while the calls run.

use crate::support::program_2015;
use bfr::eval::{Evaluator, Prepared};
use bfr::ir::{Unit, Value};
use bfr::source::Span;
use rust_decimal::Decimal;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting allocations on threads that ask for it.
struct Counting;

thread_local! {
    /// Whether this thread counts, and how many allocations it has counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call is passed to the system allocator unchanged; counting only
// touches plain thread-locals, which do not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(Cell::get)
}

/// Calls `rule` with each argument list twice: once to warm the evaluator (its
/// pool of frames), then counting; returns the count and checks each answer is
/// the same both times.
fn count_calls(ev: &mut Evaluator, rule: u32, inputs: &[Vec<Value>]) -> u64 {
    let span = Span::default();
    let warm: Vec<Value> = inputs
        .iter()
        .map(|args| ev.call_with(rule, args, span).expect("evaluates"))
        .collect();
    let mut answers = Vec::with_capacity(inputs.len());
    let n = allocations(|| {
        for args in inputs {
            answers.push(ev.call_with(rule, args, span));
        }
    });
    let answers: Vec<Value> = answers.into_iter().map(|a| a.expect("evaluates")).collect();
    assert_eq!(answers, warm);
    n
}

fn minutes(m: i64) -> Vec<Value> {
    vec![Value::Duration(Decimal::from(m * 60))]
}

#[test]
fn a_scale_a_table_and_a_fee_evaluate_without_allocating() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let index = |name: &str| program.rule(name).expect(name).0;
    let district = program
        .enums
        .iter()
        .position(|e| e.name == "District")
        .expect("District") as u32;
    for mut ev in [
        Evaluator::new(&program),
        Evaluator::prepared(&program, &prepared),
    ] {
        // Every row that gives a warning or a deduction, at both edges (the
        // referral's text is a string of its own, copied out with the answer).
        let late: Vec<Vec<Value>> = [1, 5, 6, 10, 11, 15, 16, 20, 21, 25]
            .into_iter()
            .map(minutes)
            .collect();
        let scale = index("late_arrival_qualification");
        assert_eq!(count_calls(&mut ev, scale, &late), 0, "scale");

        let table: Vec<Vec<Value>> = (0..21).map(|v| vec![Value::Enum(district, v)]).collect();
        let travel = index("sm_travel_subsidy");
        assert_eq!(count_calls(&mut ev, travel, &table), 0, "table");

        let player = Unit::base("player");
        let fees: Vec<Vec<Value>> = [(4, 2), (3, 1), (0, 6)]
            .into_iter()
            .map(|(s, j)| {
                vec![
                    Value::Num(Decimal::from(s), player.clone()),
                    Value::Num(Decimal::from(j), player.clone()),
                ]
            })
            .collect();
        let fee = index("cc_gh_entry_fee");
        assert_eq!(count_calls(&mut ev, fee, &fees), 0, "fee");

        // The same through handles, a row kept ready read where it is kept.
        for (name, inputs) in [
            ("late_arrival_qualification", &late),
            ("sm_travel_subsidy", &table),
            ("cc_gh_entry_fee", &fees),
        ] {
            let handle = ev.handle(name).expect(name);
            let span = Span::default();
            let warm: Vec<Value> = inputs
                .iter()
                .map(|args| {
                    ev.answer(&handle, args, span)
                        .expect("evaluates")
                        .into_value()
                })
                .collect();
            let mut same = true;
            let n = allocations(|| {
                for (args, want) in inputs.iter().zip(&warm) {
                    same &= ev.answer(&handle, args, span).is_ok_and(|a| *a == *want);
                }
            });
            assert!(same, "{name} by handle");
            assert_eq!(n, 0, "{name} by handle");
        }
    }
}

#[test]
fn a_reused_tracing_evaluator_records_without_allocating() {
    let program = program_2015();
    let prepared = Prepared::new(&program);
    let index = |name: &str| program.rule(name).expect(name).0;
    let player = Unit::base("player");
    let calls: Vec<(u32, Vec<Value>)> = [(4, 2), (3, 1), (0, 6)]
        .into_iter()
        .map(|(s, j)| {
            let args = vec![
                Value::Num(Decimal::from(s), player.clone()),
                Value::Num(Decimal::from(j), player.clone()),
            ];
            (index("cc_gh_entry_fee"), args)
        })
        .chain(
            [1, 6, 11, 21]
                .into_iter()
                .map(|m| (index("late_arrival_qualification"), minutes(m))),
        )
        .collect();
    let mut ev = Evaluator::tracing_prepared(&program, &prepared);
    let span = Span::default();
    let traced = |ev: &mut Evaluator| {
        let mut recorded = 0;
        for (rule, args) in &calls {
            ev.clear_trace();
            ev.call_with(*rule, args, span).expect("evaluates");
            recorded += ev.trace().map_or(0, |t| t.len());
        }
        recorded
    };
    let warm = traced(&mut ev);
    let mut again = 0;
    let n = allocations(|| again = traced(&mut ev));
    assert_eq!(again, warm);
    // The fee calls its three consts: each call is recorded with them.
    assert_eq!(warm, 3 * 4 + 4);
    assert_eq!(n, 0, "tracing");
}

#[test]
fn the_counter_counts() {
    // The allocator sees allocations: a test of the tool the test above relies on.
    let n = allocations(|| {
        std::hint::black_box(vec![1u8; 16]);
    });
    assert_eq!(n, 1);
}
