//! `bfr simulate` with arbitrary arguments against the 2015 edition: any
//! competition name (mostly the edition's own), a field size, a seed, a VP
//! scale, late starters and district teams. The field is kept below 300 teams
//! so that one input stays well under libFuzzer's time limit, and mostly below
//! 72 (the festival's fields) so that a campaign runs thousands of inputs a
//! minute, not hundreds; the full range (to 10,000) is a test of its own
//! (tests/suite/hostile.rs).
#![no_main]

use arbitrary::Arbitrary;
use bfr::cli::render;
use bfr::runner::{self, Options, simulate::Simulation};
use bfr_fuzz::{edition_2015, twice};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Args {
    competition: Choice,
    teams: u16,
    seed: u64,
    scale: Option<Choice>,
    late: Vec<u16>,
    district: Vec<u16>,
}

/// A name: one of the edition's (competitions or rules), or any text.
#[derive(Debug, Arbitrary)]
enum Choice {
    Known(u8),
    Any(String),
}

fn name(choice: &Choice, known: &[String]) -> String {
    match choice {
        Choice::Known(i) if !known.is_empty() => known[usize::from(*i) % known.len()].clone(),
        Choice::Known(_) => String::new(),
        Choice::Any(s) => s.clone(),
    }
}

/// Below 72 teams for all but one input in sixteen, which may go to 299.
fn field_size(drawn: u16) -> u16 {
    if drawn >= 0xF000 {
        drawn % 300
    } else {
        drawn % 72
    }
}

fn one(args: &Args) -> String {
    let loaded = edition_2015();
    let Some(checked) = &loaded.checked else {
        return String::new();
    };
    let program = &checked.program;
    let competitions: Vec<String> = program
        .competitions
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let rules: Vec<String> = program.rules.iter().map(|r| r.name.clone()).collect();
    let teams = u32::from(field_size(args.teams));
    let options = Options {
        seed: args.seed,
        scale: args.scale.as_ref().map(|s| name(s, &rules)),
        late_starters: args.late.iter().map(|t| u32::from(*t % 300)).collect(),
        district_teams: args.district.iter().map(|t| u32::from(*t % 300)).collect(),
    };
    let competition = name(&args.competition, &competitions);
    let mut source = Simulation::new(teams, args.seed);
    match runner::run(program, &competition, teams, &options, &mut source) {
        Ok(outcome) => {
            let mut out = render::report(&outcome.report, &|t| format!("Team {t}"));
            out.push_str(&serde_json::to_string(&outcome).unwrap_or_default());
            out
        }
        Err(e) => format!("{} {}", e.code(), e.message),
    }
}

fuzz_target!(|args: Args| twice(|| one(&args)));
