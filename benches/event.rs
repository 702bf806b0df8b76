//! An event file run through the 2015 edition, as `bfr run` does after loading it:
//! the Chairman's Cup for 64 teams with no results yet (the first round's draw is
//! made) and 0 or 100 incidents, each a penalty rule parsed, checked and evaluated
//! by the edition (`late_arrival_qualification(12 min)`).
//!
//! Also the edition loaded afresh against taken from the compiled-edition cache.
//!
//! Run: `cargo bench --bench event`. Figures are in the README.

// A benchmark is test code: a failed setup should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bfr::edition::load;
use bfr::source::Sources;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// An event file of `teams` teams and `incidents` late arrivals in round 1.
fn event(teams: u32, incidents: u32) -> String {
    let mut text = String::from("competition = \"cup\"\nseed = 1\n");
    for t in 1..=teams {
        text.push_str(&format!("[[team]]\nid = {t}\nname = \"Team {t}\"\n"));
    }
    for i in 0..incidents {
        let team = 1 + i % teams;
        text.push_str(&format!(
            "[[incident]]\nteam = {team}\nround = 1\nrule = \"late_arrival_qualification(12 min)\"\n"
        ));
    }
    text
}

/// The 2015 edition from disk to ready to evaluate: read, parsed and checked, or
/// taken from the compiled-edition cache.
fn loading(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/2015");
    let dir = std::env::temp_dir().join(format!("bfr-bench-cache-{}", std::process::id()));
    let mut group = c.benchmark_group("load the 2015 edition");
    group.sample_size(20);
    group.bench_function("afresh", |b| {
        b.iter(|| black_box(bfr::edition::cache::load(&root, None).unwrap()))
    });
    let first = bfr::edition::cache::load(&root, Some(&dir)).unwrap();
    assert!(!first.diagnostics.is_empty());
    group.bench_function("from the cache", |b| {
        b.iter(|| {
            let loaded = bfr::edition::cache::load(&root, Some(&dir)).unwrap();
            assert!(loaded.diagnostics.is_empty(), "taken from the cache");
            black_box(loaded)
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/2015");
    let loaded = load(&root).unwrap();
    let mut checked = loaded.checked.unwrap();
    c.bench_function("prepare the 2015 edition (Prepared::new)", |b| {
        b.iter(|| black_box(bfr::eval::Prepared::new(black_box(&checked.program))))
    });
    let mut group = c.benchmark_group("event run, 64 teams");
    for incidents in [0u32, 100] {
        let text = event(64, incidents);
        // Every incident is evaluated and deducted; the run draws round 1.
        let mut sources = Sources::new();
        let ran = bfr::event::run(&mut checked, &mut sources, "event.toml", &text);
        assert!(!ran.diagnostics.has_errors(), "{:?}", ran.diagnostics);
        assert_eq!(ran.incidents.len(), incidents as usize);
        group.bench_function(format!("{incidents} incidents"), |b| {
            b.iter(|| {
                let mut sources = Sources::new();
                black_box(bfr::event::run(
                    &mut checked,
                    &mut sources,
                    "event.toml",
                    black_box(&text),
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, loading, bench);
criterion_main!(benches);
