//! `check` on the bundled 2015 edition and on a generated 10 MB edition.
//!
//! Run: `cargo bench --bench check`. Figures are in the README.

use bfr::edition::{edition_files, load_texts};
use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write;
use std::hint::black_box;
use std::path::Path;

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
    let big = generated(10 * 1024 * 1024);
    let mut group = c.benchmark_group("check generated");
    group.sample_size(10);
    group.bench_function("10 MB edition", |b| {
        b.iter(|| {
            let loaded = load_texts(black_box(big.clone()));
            assert!(!loaded.diagnostics.has_errors());
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
