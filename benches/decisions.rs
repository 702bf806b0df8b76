//! Three decisions of the 2015 edition evaluated by bfr and by hand-written Rust in
//! the same run, so the README can state the ratio: the qualification late-arrival
//! scale (CC-LATE), the Gröna Hissen entry fee (CC-FEE) and the travel-subsidy table
//! (SM-TRAVEL). Each engine loads its rules once, then evaluates one input at a time;
//! one iteration evaluates every input of the decision's batch (all rows of the scale
//! and the table, the fee at both sides of its cap). bfr is called through a rule
//! handle made once (`bfr`), and by rule index with `call_with` (`bfr call_with`),
//! with one argument array filled in place for each input.
//!
//! `explain` is measured through a handle on a tracing evaluator, as evaluating
//! with a trace, and as the same with the trace written as text; the text is also
//! written by hand (the hand-written functions plus `write!`), word for word what
//! bfr writes (checked before measuring).
//!
//! Run: `cargo bench --bench decisions`. Figures are in the README.

// A benchmark is test code: a failed setup should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bfr::edition::load;
use bfr::eval::{Answer, Evaluator, Prepared};
use bfr::ir::{Penalty, Program, Unit, Value};
use bfr::source::Span;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use std::fmt::Write;
use std::hint::black_box;
use std::path::Path;

/// The hand-written penalty: what `late_arrival_qualification` gives.
#[derive(Debug, PartialEq)]
enum HandPenalty {
    Warning,
    /// A deduction in VP.
    Deduct(Decimal),
    Refer(&'static str),
}

/// CC-LATE p.20 by hand: `late` in seconds; `None` outside the domain (not late).
fn late_hand(late: Decimal) -> Option<HandPenalty> {
    late_row(late).map(|(p, _)| p)
}

/// CC-LATE p.20 by hand with the row that applies, as `bfr explain` words it.
fn late_row(late: Decimal) -> Option<(HandPenalty, &'static str)> {
    Some(if late <= dec!(0) {
        return None;
    } else if late <= dec!(300) {
        (HandPenalty::Warning, "0 s < late <= 5 min")
    } else if late <= dec!(600) {
        (HandPenalty::Deduct(dec!(1)), "5 min < late <= 10 min")
    } else if late <= dec!(900) {
        (HandPenalty::Deduct(dec!(2)), "10 min < late <= 15 min")
    } else if late <= dec!(1200) {
        (HandPenalty::Deduct(dec!(3)), "15 min < late <= 20 min")
    } else if late <= dec!(1500) {
        (HandPenalty::Deduct(dec!(4)), "20 min < late <= 25 min")
    } else {
        (HandPenalty::Refer("Ansvarig Organisation"), "late > 25 min")
    })
}

/// What `bfr explain` says of the scale besides the figures.
const LATE_ABOUT: &str = "      source: CC-LATE p.20 \"Sen ankomst\"\n      about: Late arrival for a round of the qualification: the team has not taken its seats ready to play at the announced start of the round.\n";

/// The scale's decision by hand, explained as `bfr explain` explains it:
/// the call, the source, what it is about, the row.
fn late_explain(late: Decimal, out: &mut String) -> Option<HandPenalty> {
    let (penalty, row) = late_row(late)?;
    out.push_str("  late_arrival_qualification(late = ");
    write_duration(out, late);
    out.push_str(") = ");
    match &penalty {
        HandPenalty::Warning => out.push_str("warning"),
        HandPenalty::Deduct(d) => write!(out, "deduct {d} VP").ok()?,
        HandPenalty::Refer(to) => write!(out, "refer {to:?}").ok()?,
    }
    out.push('\n');
    out.push_str(LATE_ABOUT);
    writeln!(out, "      by row `{row}`").ok()?;
    Some(penalty)
}

/// `12 min`, `5 min 1 s`, `1 h` for whole seconds.
fn write_duration(out: &mut String, seconds: Decimal) {
    let s = seconds.trunc().mantissa();
    let (h, m, sec) = (s / 3600, s % 3600 / 60, s % 60);
    let mut first = true;
    for (n, unit) in [(h, "h"), (m, "min"), (sec, "s")] {
        if n != 0 || (unit == "s" && first) {
            let space = if first { "" } else { " " };
            let _ = write!(out, "{space}{n} {unit}");
            first = false;
        }
    }
}

/// CC-FEE p.14 by hand: 500 SEK a senior, 125 SEK a junior, at most 2000 SEK a
/// team; players are whole, arithmetic checked as bfr's is.
fn fee_hand(seniors: Decimal, juniors: Decimal) -> Option<Decimal> {
    if !seniors.fract().is_zero() || !juniors.fract().is_zero() {
        return None;
    }
    let fee = seniors
        .checked_mul(dec!(500))?
        .checked_add(juniors.checked_mul(dec!(125))?)?;
    Some(fee.min(dec!(2000)))
}

/// What `bfr explain` says of the fee besides the figures: its source and
/// doc, and the three consts it reads.
const FEE_ABOUT: &str = "      source: CC-FEE p.14 \"Startavgifter\"\n      about: The Gröna Hissen entry fee of a team: 500 SEK a senior, 125 SEK a junior (junior as SM-CLASS defines it), at most 2 000 SEK a team.\n    cc_gh_fee_senior = 500 SEK/player\n        source: CC-FEE p.14 \"Startavgifter\"\n    cc_gh_fee_junior = 125 SEK/player\n        source: CC-FEE p.14 \"Startavgifter\"\n    cc_gh_fee_team_cap = 2000 SEK\n        source: CC-FEE p.14 \"Startavgifter\"\n";

/// The fee by hand, explained as `bfr explain` explains it.
fn fee_explain(seniors: Decimal, juniors: Decimal, out: &mut String) -> Option<Decimal> {
    let fee = fee_hand(seniors, juniors)?;
    let players = |n: Decimal| if n == dec!(1) { "player" } else { "players" };
    writeln!(
        out,
        "  cc_gh_entry_fee(seniors = {seniors} {}, juniors = {juniors} {}) = {fee} SEK",
        players(seniors),
        players(juniors)
    )
    .ok()?;
    out.push_str(FEE_ABOUT);
    Some(fee)
}

/// SM-TRAVEL p.9 by hand: SEK per pair by district, in the table's order.
fn travel_hand(district: u32) -> Option<Decimal> {
    Some(match district {
        0 => dec!(540),
        1 => dec!(500),
        2 => dec!(300),
        3 => dec!(560),
        4 => dec!(1100),
        5 => dec!(600),
        6 => dec!(1400),
        7 => dec!(1000),
        8 => dec!(780),
        9 => dec!(670),
        10 => dec!(420),
        11 => dec!(300),
        12 => dec!(0),
        13 => dec!(280),
        14 => dec!(500),
        15 => dec!(640),
        16 => dec!(1200),
        17 => dec!(1500),
        18 => dec!(1700),
        19 => dec!(2000),
        20 => dec!(2700),
        _ => return None,
    })
}

/// SM-TRAVEL's districts as the edition names them, in the table's order.
const DISTRICTS: [&str; 21] = [
    "Stockholm",
    "Uppland",
    "OstraMellansvenska",
    "Jonkoping",
    "Sydostra",
    "Gotland",
    "Skane",
    "Halland",
    "Goteborg",
    "BohusDal",
    "Vastergotland",
    "VarmlandDal",
    "Orebro",
    "Malardalen",
    "Dalarna",
    "Gavleborg",
    "Medelpad",
    "JamtlandHarjedalen",
    "Angermanland",
    "Vasterbotten",
    "Norrbotten",
];

/// What `bfr explain` says of the table besides the figures.
const TRAVEL_ABOUT: &str = "      source: SM-TRAVEL p.9 \"Resebidragstabell 2015\"\n      about: \"Resebidragstabell 2015\", SEK per subsidised pair, paid to the district.\n";

/// The subsidy by hand, explained as `bfr explain` explains it.
fn travel_explain(district: u32, out: &mut String) -> Option<Decimal> {
    let amount = travel_hand(district)?;
    let name = DISTRICTS.get(district as usize)?;
    writeln!(
        out,
        "  sm_travel_subsidy(district = District.{name}) = {amount} SEK/pair"
    )
    .ok()?;
    out.push_str(TRAVEL_ABOUT);
    writeln!(out, "      by row `{name}`").ok()?;
    Some(amount)
}

/// The three decisions' rule indices and the batches of inputs.
struct Setup {
    program: Program,
    late: u32,
    fee: u32,
    travel: u32,
    district: u32,
    late_inputs: Vec<Decimal>,
    fee_inputs: Vec<(Decimal, Decimal)>,
}

fn setup() -> Setup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/2015");
    let program = load(&root)
        .ok()
        .and_then(|l| l.checked)
        .expect("rules/2015 checks")
        .program;
    let index = |name: &str| program.rule(name).expect(name).0;
    let (late, fee, travel) = (
        index("late_arrival_qualification"),
        index("cc_gh_entry_fee"),
        index("sm_travel_subsidy"),
    );
    let district = program
        .enums
        .iter()
        .position(|e| e.name == "District")
        .expect("District") as u32;
    // Every row of the scale, at and just past its edges.
    let late_inputs = [1, 300, 301, 600, 601, 720, 900, 1200, 1500, 1501, 3600]
        .into_iter()
        .map(Decimal::from)
        .collect();
    let fee_inputs = [(4, 2), (3, 1), (4, 0), (3, 3), (0, 6), (6, 0), (2, 2)]
        .into_iter()
        .map(|(s, j)| (Decimal::from(s), Decimal::from(j)))
        .collect();
    Setup {
        program,
        late,
        fee,
        travel,
        district,
        late_inputs,
        fee_inputs,
    }
}

/// bfr's answers agree with the hand-written ones on every input (so both sides
/// compute the same thing).
fn agree(s: &Setup) {
    let mut ev = Evaluator::new(&s.program);
    let span = Span::default();
    for &late in &s.late_inputs {
        let got = ev.call(s.late, vec![Value::Duration(late)], span).unwrap();
        let want = late_hand(late).unwrap();
        let same = match (&got, &want) {
            (Value::Penalty(Penalty::Warning), HandPenalty::Warning) => true,
            (Value::Penalty(Penalty::Deduct { amount, .. }), HandPenalty::Deduct(d)) => amount == d,
            (Value::Penalty(Penalty::Refer { to }), HandPenalty::Refer(r)) => to == r,
            _ => false,
        };
        assert!(same, "late {late}: {got:?} vs {want:?}");
    }
    let player = Unit::base("player");
    for &(sn, jn) in &s.fee_inputs {
        let args = vec![
            Value::Num(sn, player.clone()),
            Value::Num(jn, player.clone()),
        ];
        let Value::Num(got, _) = ev.call(s.fee, args, span).unwrap() else {
            panic!("fee")
        };
        assert_eq!(Some(got), fee_hand(sn, jn));
    }
    for d in 0..21 {
        let args = vec![Value::Enum(s.district, d)];
        let Value::Num(got, _) = ev.call(s.travel, args, span).unwrap() else {
            panic!("travel")
        };
        assert_eq!(Some(got), travel_hand(d));
    }
    agree_by_handle(s);
    agree_explained(s);
}

/// Through a handle, with the argument array the bench fills in place, the
/// same answers as `call_with` with arguments made afresh.
fn agree_by_handle(s: &Setup) {
    let prepared = Prepared::new(&s.program);
    let mut ev = Evaluator::prepared(&s.program, &prepared);
    let (mut late, mut fee, mut travel) = batches(s);
    let player = Unit::base("player");
    same_by_handle(&mut ev, &mut late, |&x| vec![Value::Duration(x)]);
    same_by_handle(&mut ev, &mut fee, |&(x, y)| {
        vec![Value::Num(x, player.clone()), Value::Num(y, player.clone())]
    });
    same_by_handle(&mut ev, &mut travel, |&d| vec![Value::Enum(s.district, d)]);
}

fn same_by_handle<I: Input, const N: usize>(
    ev: &mut Evaluator,
    batch: &mut Batch<I, N>,
    fresh: impl Fn(&I) -> Vec<Value>,
) {
    let span = Span::default();
    let handle = ev.handle(batch.name).unwrap();
    for input in batch.inputs.clone() {
        input.fill(&mut batch.args);
        let want = ev.call_with(batch.rule, &fresh(&input), span).unwrap();
        let got = ev.answer(&handle, &batch.args, span).unwrap();
        assert_eq!(*got, want, "{}", batch.name);
    }
}

/// The hand-written explanations are word for word what `bfr explain` writes,
/// by rule index and through a handle, as the bench's `explain` rows call it.
fn agree_explained(s: &Setup) {
    let span = Span::default();
    let player = Unit::base("player");
    let prepared = Prepared::new(&s.program);
    let mut ev = Evaluator::tracing_prepared(&s.program, &prepared);
    let mut explained = |rule: u32, args: &[Value], hand: &dyn Fn(&mut String)| {
        let mut by_hand = String::new();
        hand(&mut by_hand);
        ev.clear_trace();
        ev.call_with(rule, args, span).unwrap();
        let mut text = String::new();
        ev.trace().unwrap().render(&s.program, 1, &mut text);
        assert_eq!(by_hand, text);
        let handle = ev.handle(&s.program.rules[rule as usize].name).unwrap();
        ev.clear_trace();
        ev.answer(&handle, args, span).unwrap();
        text.clear();
        ev.trace().unwrap().render(&s.program, 1, &mut text);
        assert_eq!(by_hand, text);
    };
    for &x in &s.late_inputs {
        explained(s.late, &[Value::Duration(x)], &|out| {
            late_explain(x, out).unwrap();
        });
    }
    for &(sn, jn) in &s.fee_inputs {
        let args = [
            Value::Num(sn, player.clone()),
            Value::Num(jn, player.clone()),
        ];
        explained(s.fee, &args, &|out| {
            fee_explain(sn, jn, out).unwrap();
        });
    }
    for d in 0..21 {
        explained(s.travel, &[Value::Enum(s.district, d)], &|out| {
            travel_explain(d, out).unwrap();
        });
    }
}

/// An input of one decision, written into bfr's argument array in place.
trait Input: Copy {
    fn fill(self, args: &mut [Value]);
}

/// The late-arrival scale's input: how late, in seconds.
impl Input for Decimal {
    fn fill(self, args: &mut [Value]) {
        let [Value::Duration(late)] = args else {
            panic!("the scale takes one duration");
        };
        *late = black_box(self);
    }
}

/// The fee's inputs: seniors and juniors.
impl Input for (Decimal, Decimal) {
    fn fill(self, args: &mut [Value]) {
        let [Value::Num(seniors, _), Value::Num(juniors, _)] = args else {
            panic!("the fee takes two counts");
        };
        *seniors = black_box(self.0);
        *juniors = black_box(self.1);
    }
}

/// The travel table's input: the district's variant.
impl Input for u32 {
    fn fill(self, args: &mut [Value]) {
        let [Value::Enum(_, variant)] = args else {
            panic!("the table takes one district");
        };
        *variant = black_box(self);
    }
}

/// One decision's inputs as bfr takes them: one argument array, made once and
/// filled in place for each input, as a program deciding many cases would.
struct Batch<I, const N: usize> {
    name: &'static str,
    rule: u32,
    inputs: Vec<I>,
    args: [Value; N],
}

type Batches = (
    Batch<Decimal, 1>,
    Batch<(Decimal, Decimal), 2>,
    Batch<u32, 1>,
);

fn batches(s: &Setup) -> Batches {
    let player = Unit::base("player");
    let late = Batch {
        name: "late_arrival_qualification",
        rule: s.late,
        inputs: s.late_inputs.clone(),
        args: [Value::Duration(Decimal::ZERO)],
    };
    let fee = Batch {
        name: "cc_gh_entry_fee",
        rule: s.fee,
        inputs: s.fee_inputs.clone(),
        args: [
            Value::Num(Decimal::ZERO, player.clone()),
            Value::Num(Decimal::ZERO, player),
        ],
    };
    let travel = Batch {
        name: "sm_travel_subsidy",
        rule: s.travel,
        inputs: (0..21).collect(),
        args: [Value::Enum(s.district, 0)],
    };
    (late, fee, travel)
}

/// bfr's rows of one decision's group: through a handle, the answer used where
/// it is kept (by reference); and by rule index with `call_with`, which gives
/// a value of its own.
fn bench_bfr_rows<I: Input, const N: usize>(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    ev: &mut Evaluator,
    batch: &mut Batch<I, N>,
) {
    let span = Span::default();
    let handle = ev.handle(batch.name).unwrap();
    g.bench_function("bfr", |b| {
        b.iter(|| {
            for &input in &batch.inputs {
                input.fill(&mut batch.args);
                let answer: Result<Answer, _> = ev.answer(&handle, &batch.args, span);
                black_box(answer.as_deref().ok());
            }
        })
    });
    g.bench_function("bfr call_with", |b| {
        b.iter(|| {
            for &input in &batch.inputs {
                input.fill(&mut batch.args);
                black_box(ev.call_with(batch.rule, &batch.args, span)).ok();
            }
        })
    });
}

fn bench(c: &mut Criterion) {
    let s = setup();
    agree(&s);
    // The evaluation form is made once, with the loaded rules; the evaluator is
    // reused from call to call, and each rule resolved once, by name, as a
    // program that decides many cases would.
    let prepared = Prepared::new(&s.program);
    let mut ev = Evaluator::prepared(&s.program, &prepared);
    let (mut late, mut fee, mut travel) = batches(&s);

    let mut g = c.benchmark_group(late.name);
    g.throughput(Throughput::Elements(late.inputs.len() as u64));
    g.bench_function("hand-written", |b| {
        b.iter(|| {
            for &x in &s.late_inputs {
                black_box(late_hand(black_box(x)));
            }
        })
    });
    bench_bfr_rows(&mut g, &mut ev, &mut late);
    g.finish();

    let mut g = c.benchmark_group(fee.name);
    g.throughput(Throughput::Elements(fee.inputs.len() as u64));
    g.bench_function("hand-written", |b| {
        b.iter(|| {
            for &(x, y) in &s.fee_inputs {
                black_box(fee_hand(black_box(x), black_box(y)));
            }
        })
    });
    bench_bfr_rows(&mut g, &mut ev, &mut fee);
    g.finish();

    let mut g = c.benchmark_group(travel.name);
    g.throughput(Throughput::Elements(21));
    g.bench_function("hand-written", |b| {
        b.iter(|| {
            for d in 0..21 {
                black_box(travel_hand(black_box(d)));
            }
        })
    });
    bench_bfr_rows(&mut g, &mut ev, &mut travel);
    g.finish();

    explain(c, &s);
}

/// One decision's `explain` row for bfr, on a tracing evaluator through a
/// handle: evaluating with a trace, and, `as_text`, the trace written as text.
fn bench_explain_row<I: Input, const N: usize>(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    ev: &mut Evaluator,
    batch: &mut Batch<I, N>,
    as_text: bool,
) {
    let span = Span::default();
    let handle = ev.handle(batch.name).unwrap();
    let program = ev.program();
    let id = if as_text {
        format!("{}/bfr", batch.name)
    } else {
        batch.name.to_string()
    };
    // Two loops, not one with a branch: the trace's row makes no text, not
    // even an empty one.
    g.bench_function(id, |b| {
        if as_text {
            b.iter(|| {
                for &input in &batch.inputs {
                    ev.clear_trace();
                    input.fill(&mut batch.args);
                    let answer = ev.answer(&handle, &batch.args, span);
                    let mut text = String::new();
                    if let Some(trace) = ev.trace() {
                        trace.render(program, 1, &mut text);
                    }
                    black_box((answer.as_deref().ok(), text));
                }
            })
        } else {
            b.iter(|| {
                for &input in &batch.inputs {
                    ev.clear_trace();
                    input.fill(&mut batch.args);
                    let answer = ev.answer(&handle, &batch.args, span);
                    black_box(answer.as_deref().ok());
                    black_box(ev.trace().map(|t| t.len()));
                }
            })
        }
    });
}

/// `explain` of the same decisions, measured in two parts on one tracing
/// evaluator of the evaluation form, reused from input to input: evaluating with
/// a trace (the record an explanation is made of), and the same with the trace
/// written as text, as `bfr explain` prints it.
fn explain(c: &mut Criterion, s: &Setup) {
    let prepared = Prepared::new(&s.program);
    let mut ev = Evaluator::tracing_prepared(&s.program, &prepared);
    let (mut late, mut fee, mut travel) = batches(s);
    let mut g = c.benchmark_group("explain_trace");
    bench_explain_row(&mut g, &mut ev, &mut late, false);
    bench_explain_row(&mut g, &mut ev, &mut fee, false);
    bench_explain_row(&mut g, &mut ev, &mut travel, false);
    g.finish();
    let mut text = c.benchmark_group("explain_text");
    bench_explain_row(&mut text, &mut ev, &mut late, true);
    bench_explain_row(&mut text, &mut ev, &mut fee, true);
    bench_explain_row(&mut text, &mut ev, &mut travel, true);
    // The hand-written functions writing the same text (`agree` checks it is
    // the same), so that the text is compared with text.
    text.bench_function("late_arrival_qualification/hand-written", |b| {
        b.iter(|| {
            for &x in &s.late_inputs {
                let mut out = String::new();
                let v = late_explain(black_box(x), &mut out);
                black_box((v, out));
            }
        })
    });
    text.bench_function("cc_gh_entry_fee/hand-written", |b| {
        b.iter(|| {
            for &(x, y) in &s.fee_inputs {
                let mut out = String::new();
                let v = fee_explain(black_box(x), black_box(y), &mut out);
                black_box((v, out));
            }
        })
    });
    text.bench_function("sm_travel_subsidy/hand-written", |b| {
        b.iter(|| {
            for d in 0..21 {
                let mut out = String::new();
                let v = travel_explain(black_box(d), &mut out);
                black_box((v, out));
            }
        })
    });
    text.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
