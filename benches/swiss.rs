//! Pairing one mid-event Swiss round (round 5: a drawn round 1, then three Swiss rounds with
//! random results) for fields of different sizes.

// A benchmark is test code: a failed setup should stop it loudly.
#![allow(clippy::unwrap_used)]

use bfr::engine::rng::SplitMix64;
use bfr::engine::swiss::{SwissInput, draw_first_round, pair_round};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Ranking, history and byes after four rounds for teams `1..=n`.
fn history(n: u32, seed: u64) -> (Vec<u32>, Vec<(u32, u32)>, Vec<u32>) {
    let mut rng = SplitMix64::new(seed);
    let teams: Vec<u32> = (1..=n).collect();
    let mut score = vec![0u64; n as usize + 1];
    let mut played = Vec::new();
    let mut byes = Vec::new();
    let mut ranking = teams.clone();
    for r in 0..4 {
        let round = if r == 0 {
            draw_first_round(&teams, seed).unwrap()
        } else {
            let inp = SwissInput {
                ranking: &ranking,
                played: &played,
                had_bye: &byes,
                not_playing: &[],
                later_rounds: 0,
            };
            pair_round(&inp).unwrap()
        };
        for &(h, a) in &round.pairs {
            let x = rng.below(26);
            score[h as usize] += x;
            score[a as usize] += 25 - x;
            played.push((h, a));
        }
        if let Some(b) = round.bye {
            score[b as usize] += 15;
            byes.push(b);
        }
        ranking.sort_by_key(|t| (std::cmp::Reverse(score[*t as usize]), *t));
    }
    (ranking, played, byes)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss_round5");
    group.sample_size(10);
    for n in [50u32, 200, 1000, 5000, 10_000] {
        let (ranking, played, byes) = history(n, 42);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                let inp = SwissInput {
                    ranking: &ranking,
                    played: &played,
                    had_bye: &byes,
                    not_playing: &[],
                    later_rounds: 0,
                };
                black_box(pair_round(black_box(&inp)).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
