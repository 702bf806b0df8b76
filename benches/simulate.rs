//! A whole simulated Chairman's Cup from `rules/2015`: Gröna Hissen, all 14
//! knockout stages, the final places, for 100, 1,000 and 10,000 teams.
//! Run: `cargo bench --bench simulate`.

use bfr::edition::load;
use bfr::runner::simulate::Simulation;
use bfr::runner::{Options, run};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/2015");
    let Some(checked) = load(&root).ok().and_then(|l| l.checked) else {
        return;
    };
    let program = checked.program;
    // The 8-board 25-0 table is not verified, so the edition's WBF 20-point rule scores.
    let options = Options {
        seed: 1,
        scale: Some("wbf20_result".into()),
        ..Options::default()
    };
    let mut group = c.benchmark_group("simulate the Chairman's Cup");
    group.sample_size(10);
    for teams in [100u32, 1000, 10_000] {
        group.bench_function(format!("{teams} teams"), |b| {
            b.iter(|| {
                let mut source = Simulation::new(teams, 1);
                let outcome = run(&program, "cup", black_box(teams), &options, &mut source);
                assert!(outcome.is_ok());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
