//! A figure the 2015 edition states once moves everything that uses it: the
//! qualification's routes read the places of the CC and the BC, the sessions of
//! Gröna Hissen end with its last round, SM Lag Veteran's series and knockout
//! share the limit of 16 teams. A variant that changes the figure either checks,
//! with the routes moved, or `bfr check` says what no longer fits.

use crate::runner_variants::{CUP, forty_eight_to_the_knockout, sessions_of_twelve_rounds};
use crate::support::{Change, edition_2015_with, root};
use bfr::edition::Loaded;
use bfr::ir::Competition;
use bfr::ir::competition::{Count, Target};

const VETERAN: &str = "sm_lag_veteran.bfr";

/// The error diagnostics of a loaded edition: code and message.
fn errors(loaded: &Loaded) -> Vec<(String, String)> {
    loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect()
}

/// The typed competition `name` of an edition that checks.
fn competition<'a>(loaded: &'a Loaded, name: &str) -> &'a Competition {
    assert_eq!(errors(loaded), Vec::new(), "the edition checks");
    let checked = loaded.checked.as_ref().unwrap();
    checked
        .program
        .competitions
        .iter()
        .find(|c| c.name == name)
        .unwrap()
}

/// The places routed by the qualification, with the name of the stage or the
/// final places each range goes to.
fn routed(c: &Competition) -> Vec<(u32, u32, String)> {
    let q = c.qualification.as_ref().unwrap();
    q.places
        .iter()
        .map(|(a, b, to)| {
            let to = match to {
                Target::Stage(i) => c.stages[*i].name.clone(),
                Target::Place(x, y) => format!("place {x}..{y}"),
                Target::Out => "out".into(),
            };
            (*a, *b, to)
        })
        .collect()
}

const CC_PLACES: &str =
    "cc_knockout_places: place ref CC-PHASES p.14 \"Chairman's Cup\" = 32 places";

#[test]
fn the_2015_routes_read_the_places_of_the_cc_and_the_bc() {
    let loaded = edition_2015_with(&[]);
    let cup = competition(&loaded, "cup");
    assert_eq!(
        routed(cup),
        [(1, 32, "cc32".into()), (33, 64, "bc32_a".into())]
    );
    assert_eq!(cup.min_teams, Some(64));
}

#[test]
fn fewer_cc_places_move_the_routes_and_cc32_no_longer_fits() {
    // Only the const: places 1..24 go to CC32, 25..56 to BC32-A. CC32 is declared
    // for 32 teams, so the team count check says so, and says nothing else.
    let to = CC_PLACES.replace("= 32 places", "= 24 places");
    let loaded = edition_2015_with(&[Change::Text(CUP, CC_PLACES, &to)]);
    assert_eq!(
        errors(&loaded),
        [(
            "E0403".to_string(),
            "stage `cc32` is declared for 32 teams, but its routes bring 24".to_string()
        )]
    );
}

#[test]
fn fewer_bc_places_move_the_routes_with_them() {
    // The 48-team variant changes the BC's places and the stages they feed, not
    // the routes: GH 33–48 go to BC32-A.
    let loaded = edition_2015_with(&forty_eight_to_the_knockout());
    let cup = competition(&loaded, "cup");
    assert_eq!(
        routed(cup),
        [(1, 32, "cc32".into()), (33, 48, "bc32_a".into())]
    );
    assert_eq!(cup.min_teams, Some(48));
}

#[test]
fn the_sessions_of_gröna_hissen_end_with_its_last_round() {
    let text = std::fs::read_to_string(root().join("rules/2015").join(CUP)).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("const cc_gh_rounds"))
        .unwrap()
        .to_string();
    assert!(line.ends_with("= 13"));
    let twelve = line.replace("= 13", "= 12");
    let fourteen = line.replace("= 13", "= 14");
    // Twelve rounds, the sessions of p. 21 unchanged: round 13's session can never
    // be used.
    let loaded = edition_2015_with(&[Change::Text(CUP, &line, &twelve)]);
    let codes: Vec<String> = errors(&loaded).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["E0303"]);
    // Fourteen: no session for round 14.
    let loaded = edition_2015_with(&[Change::Text(CUP, &line, &fourteen)]);
    let found = errors(&loaded);
    assert!(
        found
            .iter()
            .any(|(c, m)| c == "E0302" && m.contains("r = 14 rounds")),
        "{found:?}"
    );
    // Twelve rounds with their sessions: the edition checks.
    let mut changes = vec![Change::Text(CUP, &line, &twelve)];
    changes.extend(sessions_of_twelve_rounds());
    let loaded = edition_2015_with(&changes);
    let gh = competition(&loaded, "cup").qualification.as_ref().unwrap();
    assert_eq!(gh.rounds, Some(Count::Fixed(12)));
}

#[test]
fn sm_lag_veteran_states_its_limit_of_sixteen_teams_once() {
    let from = "const lv_series_max_teams: team ref LV-FORMAT p.12 \"Spelformer\" = 16 teams";
    let to = from.replace("= 16 teams", "= 14 teams");
    let loaded = edition_2015_with(&[Change::Text(VETERAN, from, &to)]);
    let series = competition(&loaded, "lv_series");
    assert_eq!(series.max_teams, Some(14));
    assert_eq!(routed(series), [(1, 14, "place 1..14".into())]);
    let ko = competition(&loaded, "lv_ko");
    assert_eq!(ko.min_teams, Some(15));
    // The knockout's sixteen places are a figure of their own.
    assert_eq!(routed(ko), [(1, 16, "r16".into())]);
}
