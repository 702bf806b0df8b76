//! The evaluation path of a scale, a table and a fn call allocates nothing once the
//! evaluator is reused: a counting allocator, counting only on the thread that asks
//! (the other tests run beside this one), sees no allocation while the calls run.
//! The same allocator keeps the bytes the asking thread holds and their peak, so the
//! heap a check of a large edition needs is bounded too.

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
    /// The bytes allocated less the bytes freed while counting, and their peak.
    static HELD: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn note() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

/// Counts `grown` bytes more (fewer, when negative) held by this thread.
fn hold(grown: i64) {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = HELD.try_with(|held| {
                held.set(held.get() + grown);
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
            });
        }
    });
}

fn bytes(size: usize) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

// SAFETY: every call is passed to the system allocator unchanged; counting only
// touches plain thread-locals, which do not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        hold(bytes(layout.size()));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        hold(-bytes(layout.size()));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        hold(bytes(layout.size()));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        hold(bytes(new_size) - bytes(layout.size()));
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

/// The most bytes this thread held at once while `f` ran, above what it held before.
fn peak_heap(f: impl FnOnce()) -> i64 {
    HELD.with(|held| held.set(0));
    PEAK.with(|peak| peak.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    PEAK.with(Cell::get)
}

/// An edition of about `size` bytes that checks clean: blocks of a const, a
/// scale, a fn over them and an example, as the `check` bench generates.
fn generated_edition(size: usize) -> String {
    let mut text = String::from(
        "edition \"generated\" {\n  period 2015-07-24 .. 2015-08-02\n}\nunit pt \"points\"\nunit coin \"coins\"\nunit member whole alias members\n",
    );
    let mut i = 0;
    while text.len() < size {
        let fee = 100 + i % 400;
        text.push_str(&format!(
            "/// Block {i}.\nconst fee_{i}: coin/member ref GEN-{i} p.1 \"Generated\" = {fee} coin/member\n\
             scale late_{i}(late: duration) -> penalty ref GEN-{i} p.1 \"Generated\" {{\n  domain late > 0 min\n  \
             0 min < late <= 5 min => warning\n  5 min < late <= 10 min => deduct 1 pt\n  10 min < late <= 15 min => deduct 2 pt\n  \
             late > 15 min => refer \"the organiser\"\n}}\n\
             fn total_{i}(n: member) -> coin ref GEN-{i} p.1 \"Generated\" = min(n * fee_{i}, 2000 coin)\n\
             example \"block {i}\" ref GEN-{i} {{\n  late_{i}(12 min) == deduct 2 pt\n  total_{i}(2 members) == {} coin\n}}\n",
            fee * 2,
        ));
        i += 1;
    }
    text
}

/// The checker frees each declaration's tree once it is lowered, so a check does not
/// hold a large edition's whole tree beside its whole IR: it held 18 times the text
/// when it did, about 13.5 times since. A rule's signature is freed as it is
/// declared and only a scale's bounds are kept past its lowering: about 10.2 times.
#[test]
fn checking_a_large_edition_holds_less_than_eleven_times_its_text() {
    let text = generated_edition(300_000);
    let size = bytes(text.len());
    let peak = peak_heap(|| {
        let loaded = bfr::edition::load_texts(vec![("generated.bfr".into(), text.into_bytes())]);
        assert!(!loaded.diagnostics.has_errors());
        assert_eq!(loaded.diagnostics.warning_count(), 0);
    });
    assert!(
        peak < 11 * size,
        "a check of {size} bytes held {peak} bytes at its peak ({:.1} times)",
        peak as f64 / size as f64
    );
}
