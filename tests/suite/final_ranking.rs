//! The full final ranking of the 2015 Chairman's Cup: every team of 87 gets a place;
//! below the places the rules give (1–4, 5/6), a team out at a later stage ranks
//! above one out earlier, teams out in Gröna Hissen by their GH place, and teams out
//! at the same knockout stage by the edition's reading of AMB-34 (by ranking). A
//! variant edition that changes only that reading changes the ranking.

use crate::support::{Change, edition_2015_with, simulate};
use bfr::runner::report::{FinalLine, Rank, Report, Standing};
use std::collections::BTreeMap;

const READINGS: &str = "chairmans_cup_readings.bfr";
const CHOSEN: &str = "= Amb34LowerPlaces.CurrentRanking";
const SEED: u64 = 7;

/// The 2015 cup for 87 teams with `amb34_reading` set to `meaning`.
fn run(meaning: &str) -> Report {
    let to = format!("= Amb34LowerPlaces.{meaning}");
    let changes = [Change::Text(READINGS, CHOSEN, &to)];
    let loaded = edition_2015_with(if meaning == "CurrentRanking" {
        &[]
    } else {
        &changes
    });
    assert!(!loaded.diagnostics.has_errors());
    simulate(&loaded.checked.unwrap().program, 87, SEED)
}

/// The stage a team left at (its `order`; 0 for Gröna Hissen), for an exit.
fn left_at(line: &FinalLine) -> Option<u32> {
    match &line.standing {
        Standing::Out(e) | Standing::Withdrew(e) => Some(e.order),
        Standing::Place { .. } => None,
    }
}

/// Each team's ranking in the match it lost at the stage it left at.
fn ranking_at_exit(r: &Report) -> BTreeMap<u32, u32> {
    let mut out = BTreeMap::new();
    for s in &r.stages {
        for m in &s.matches {
            let (loser, ranking) = if m.winner == m.home {
                (m.away, m.away_ranking)
            } else {
                (m.home, m.home_ranking)
            };
            out.insert(loser, ranking);
        }
    }
    out
}

fn gh_place(r: &Report) -> BTreeMap<u32, usize> {
    r.standings.iter().map(|l| (l.team, l.place)).collect()
}

fn shown(rank: Option<Rank>) -> String {
    match rank {
        Some(Rank { first, last }) if first == last => first.to_string(),
        Some(Rank { first, last }) => format!("{first}/{last}"),
        None => "-".into(),
    }
}

#[test]
fn every_team_of_87_has_a_place_and_a_stage_ranks_its_teams_by_ranking() {
    let r = run("CurrentRanking");
    assert_eq!(r.places.len(), 87);
    let ranks: Vec<String> = r.places.iter().map(|l| shown(l.rank)).collect();
    let mut expected: Vec<String> = ["1", "2", "3", "4", "5/6", "5/6"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    expected.extend((7..=87).map(|p| p.to_string()));
    assert_eq!(ranks, expected);
    // Below 5/6: a later stage first, then by ranking at the exit (ties: GH place).
    let ranking = ranking_at_exit(&r);
    let gh = gh_place(&r);
    let below: Vec<&FinalLine> = r.places.iter().skip(6).collect();
    for pair in below.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (sa, sb) = (left_at(a).unwrap(), left_at(b).unwrap());
        assert!(
            sa >= sb,
            "team {} (stage {sa}) before team {} (stage {sb})",
            a.team,
            b.team
        );
        if sa == sb && sa > 0 {
            assert!(
                (ranking[&a.team], gh[&a.team]) < (ranking[&b.team], gh[&b.team]),
                "team {} before team {} at stage {sa}",
                a.team,
                b.team
            );
        }
        if sa == 0 {
            assert!(gh[&a.team] < gh[&b.team]);
        }
    }
    // Both edges: 7 and 8 lost in BC04-A (stage 11), 64 in BC32-A (stage 2), 65 and
    // 87 are Gröna Hissen's places 65 and 87.
    let at = |p: usize| &r.places[p - 1];
    assert_eq!(left_at(at(7)), Some(11));
    assert_eq!(left_at(at(8)), Some(11));
    assert_eq!(left_at(at(9)), Some(10));
    assert_eq!(left_at(at(64)), Some(2));
    assert_eq!(gh[&at(65).team], 65);
    assert_eq!(gh[&at(87).team], 87);
    // JSON carries the place of the full ranking beside how the team left.
    let json = serde_json::to_value(at(7)).unwrap();
    assert_eq!(json["rank"], serde_json::json!({"first": 7, "last": 7}));
    assert_eq!(json["standing"]["out"]["title"], "BC04-A");
}

#[test]
fn a_variant_reading_by_gh_place_reorders_the_teams_out_at_a_stage() {
    let by_ranking = run("CurrentRanking");
    let by_gh = run("QualificationPlacement");
    let gh = gh_place(&by_gh);
    // The same run: only the order within a stage changes.
    assert_eq!(gh, gh_place(&by_ranking));
    for pair in by_gh.places.iter().skip(6).collect::<Vec<_>>().windows(2) {
        if left_at(pair[0]) == left_at(pair[1]) {
            assert!(gh[&pair[0].team] < gh[&pair[1].team]);
        }
    }
    let order = |r: &Report| r.places.iter().map(|l| l.team).collect::<Vec<_>>();
    assert_ne!(
        order(&by_ranking),
        order(&by_gh),
        "an inherited ranking moves some team within its stage"
    );
}

#[test]
fn a_variant_reading_sharing_places_by_stage_gives_ranges() {
    let r = run("SharedByStage");
    let mut by_stage: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for l in r.places.iter().skip(6) {
        by_stage
            .entry(left_at(l).unwrap())
            .or_default()
            .push(shown(l.rank));
    }
    let one = |stage: u32| {
        by_stage[&stage]
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
    };
    for (stage, range, n) in [
        (11, "7/8", 2),
        (10, "9/12", 4),
        (8, "13/16", 4),
        (7, "17/24", 8),
        (5, "25/32", 8),
        (4, "33/48", 16),
        (2, "49/64", 16),
    ] {
        assert_eq!(by_stage[&stage].len(), n, "stage {stage}");
        assert_eq!(
            one(stage).into_iter().collect::<Vec<_>>(),
            [range],
            "stage {stage}"
        );
    }
    // Gröna Hissen's teams keep their own places: the qualification ranks them.
    let gh: Vec<String> = by_stage[&0].clone();
    assert_eq!(gh, (65..=87).map(|p| p.to_string()).collect::<Vec<_>>());
}

#[test]
fn a_variant_reading_with_no_lower_places_ranks_nobody_below_the_rules_places() {
    let r = run("NoPlace");
    assert!(r.places.iter().take(6).all(|l| l.rank.is_some()));
    assert!(r.places.iter().skip(6).all(|l| l.rank.is_none()));
    let text = bfr::cli::render::report(&r, &|t| format!("Team {t}"));
    assert!(text.contains("\nFinal places\n"), "{text}");
    assert!(text.contains("out at BC04-A  Team"), "{text}");
}
