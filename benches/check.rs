//! `check` (parse, check, run the examples) on the bundled 2015 edition and on
//! generated editions of 1 MB and 10 MB, with throughput in bytes; the peak heap
//! of one check of each generated edition is printed before it is timed.
//!
//! Run: `cargo bench --bench check`. Figures are in the README.

use bfr::edition::{edition_files, load_texts};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::fmt::Write;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The allocator of the `bfr` binary (mimalloc), keeping the bytes in use and their
/// peak, so the timings are the binary's.
struct Peak;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed to mimalloc unchanged; the counters are
// plain atomics.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        grew(new_size);
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// The peak heap in use above what was in use before, during one check of `files`.
fn peak_of_one_check(files: &[(String, Vec<u8>)]) -> usize {
    let input = files.to_vec();
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let loaded = load_texts(input);
    let peak = PEAK.load(Ordering::Relaxed);
    drop(loaded);
    peak.saturating_sub(before)
}

/// The 2015 edition's files, read once.
fn edition_2015() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/2015");
    edition_files(&root)
        .unwrap_or_default()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_default();
            (p.display().to_string(), bytes)
        })
        .collect()
}

/// A valid edition of about `bytes` bytes: units, then blocks of consts, a scale,
/// a function over them, and an example, repeated with fresh names.
fn generated(bytes: usize) -> Vec<(String, Vec<u8>)> {
    let mut text = String::from(
        "edition \"generated\" {\n  period 2015-07-24 .. 2015-08-02\n}\nunit VP \"victory points\"\nunit SEK \"kronor\"\nunit player whole alias players\n",
    );
    let mut i = 0usize;
    while text.len() < bytes {
        let _ = write!(
            text,
            "/// Block {i}.\nconst fee_{i}: SEK/player ref GEN-{i} p.1 \"Generated\" = {} SEK/player\n\
             scale late_{i}(late: duration) -> penalty ref GEN-{i} p.1 \"Generated\" {{\n  domain late > 0 min\n  \
             0 min < late <= 5 min => warning\n  5 min < late <= 10 min => deduct 1 VP\n  10 min < late <= 15 min => deduct 2 VP\n  \
             late > 15 min => refer \"the organiser\"\n}}\n\
             fn total_{i}(n: player) -> SEK ref GEN-{i} p.1 \"Generated\" = min(n * fee_{i}, 2000 SEK)\n\
             example \"block {i}\" ref GEN-{i} {{\n  late_{i}(12 min) == deduct 2 VP\n  total_{i}(2 players) == {} SEK\n}}\n",
            100 + i % 400,
            (100 + i % 400) * 2,
        );
        i += 1;
    }
    vec![("generated.bfr".to_string(), text.into_bytes())]
}

fn bench(c: &mut Criterion) {
    let edition = edition_2015();
    c.bench_function("check rules/2015", |b| {
        b.iter(|| {
            let loaded = load_texts(black_box(edition.clone()));
            assert!(!loaded.diagnostics.has_errors());
        })
    });
    let mut group = c.benchmark_group("check generated");
    group.sample_size(10);
    for mb in [1usize, 10] {
        let big = generated(mb * 1024 * 1024);
        let bytes: usize = big.iter().map(|(_, b)| b.len()).sum();
        let peak = peak_of_one_check(&big);
        println!(
            "check generated/{mb} MB edition: input {bytes} bytes, peak heap {peak} bytes ({:.1}x the input)",
            peak as f64 / bytes as f64
        );
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("{mb} MB edition"), |b| {
            b.iter(|| {
                let loaded = load_texts(black_box(big.clone()));
                assert!(!loaded.diagnostics.has_errors());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
