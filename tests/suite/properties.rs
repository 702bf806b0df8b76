//! Properties of the engine over generated inputs (proptest): every team gets
//! exactly one final place; a knockout stage's winners and losers go where its
//! routes say; the VP of every match are a result of the edition's scale, and
//! the WBF 20-point scale's VP sum to 20 for every margin; a correction of an
//! earlier result changes nothing already drawn. Swiss pairing against brute
//! force is beside the engine (`engine::swiss_tests`). Few cases and small
//! fields keep these fast in a debug build.

use crate::support::{edition_2015, root};
use bfr::check::Checked;
use bfr::edition::{Loaded, load};
use bfr::eval::Evaluator;
use bfr::event::{self, Next, Ran};
use bfr::ir::competition::Target;
use bfr::ir::{Program, Value};
use bfr::runner::report::{Report, Standing};
use bfr::runner::{self, Options, simulate::Simulation};
use bfr::source::Sources;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

fn loaded() -> &'static Loaded {
    static L: OnceLock<Loaded> = OnceLock::new();
    L.get_or_init(edition_2015)
}

fn program() -> &'static Program {
    &loaded()
        .checked
        .as_ref()
        .expect("the 2015 edition checks")
        .program
}

/// The value of `expression` against the 2015 edition.
fn eval(expression: &str) -> Value {
    let loaded = loaded();
    let checked = loaded.checked.as_ref().expect("the 2015 edition checks");
    // The expression's own source: its spans are never shown here.
    let file = Sources::default().add("<expression>", expression);
    let ast = bfr::syntax::parse_expr(expression, file).expect("parses");
    let expr = checked.check_expr(&ast).expect("checks");
    Evaluator::new(&checked.program)
        .eval_closed(&expr)
        .unwrap_or_else(|e| panic!("{expression}: {}", e.message))
}

/// A simulated run; `scale` as `bfr simulate --scale` (the 2015 edition has no
/// 25-point table for SM Lag Veteran's 7-board rounds).
fn simulated(competition: &str, teams: u32, seed: u64, scale: Option<&str>) -> Report {
    let options = Options {
        seed,
        scale: scale.map(str::to_string),
        ..Options::default()
    };
    let mut source = Simulation::new(teams, seed);
    runner::run(program(), competition, teams, &options, &mut source)
        .unwrap_or_else(|e| panic!("{competition}, {teams} teams, seed {seed}: {}", e.message))
        .report
}

/// Every team entered has exactly one line of the final ranking, and the ranks
/// given run from 1 without a gap (a shared place counts for each team), to the
/// last team when the edition ranks every team.
fn one_place_each(r: &Report) {
    let teams: Vec<u32> = r.places.iter().map(|l| l.team).collect();
    let distinct: BTreeSet<u32> = teams.iter().copied().collect();
    assert_eq!(teams.len(), distinct.len(), "a team has two final lines");
    assert_eq!(distinct, (1..=r.teams).collect::<BTreeSet<u32>>());
    let mut next = 1;
    let mut ranks: Vec<_> = r.places.iter().filter_map(|l| l.rank).collect();
    ranks.sort_by_key(|k| (k.first, k.last));
    let mut i = 0;
    while i < ranks.len() {
        let k = ranks[i];
        assert_eq!(k.first, next, "places skip from {next} to {}", k.first);
        let shared = (k.last - k.first + 1) as usize;
        assert!(
            ranks[i..].iter().take(shared).all(|x| *x == k),
            "{k:?} not shared by {shared}"
        );
        next = k.last + 1;
        i += shared;
    }
    if r.places.iter().all(|l| l.rank.is_some()) {
        assert_eq!(next - 1, r.teams, "the places do not cover the field");
    }
    assert!(next > 1, "nobody has a place");
}

/// Each played stage's winners go to the stage (or place) its `winners` route
/// names, its losers to its `losers` route: into that stage's matches, or to
/// that final place, or out (at this stage).
fn routes_followed(competition: &str, r: &Report) {
    let comp = program()
        .competitions
        .iter()
        .find(|c| c.name == competition)
        .expect("the edition has the competition");
    let played: BTreeMap<&str, BTreeSet<u32>> = r
        .stages
        .iter()
        .map(|s| {
            let teams = s.matches.iter().flat_map(|m| [m.home, m.away]);
            (
                s.name.as_str(),
                teams.chain(s.byes.iter().copied()).collect(),
            )
        })
        .collect();
    let line = |t: u32| r.places.iter().find(|l| l.team == t).expect("a final line");
    for s in &r.stages {
        let stage = comp
            .stages
            .iter()
            .find(|x| x.name == s.name)
            .expect("a stage");
        for m in &s.matches {
            let loser = if m.winner == m.home { m.away } else { m.home };
            for (team, target) in [(m.winner, &stage.winners), (loser, &stage.losers)] {
                match target {
                    Target::Stage(i) => {
                        let to = &comp.stages[*i].name;
                        if let Some(teams) = played.get(to.as_str()) {
                            assert!(
                                teams.contains(&team),
                                "team {team} of {} not in {to}",
                                s.name
                            );
                        }
                    }
                    Target::Place(a, b) => {
                        let rank = line(team).rank.expect("a place");
                        assert_eq!(
                            (rank.first, rank.last),
                            (*a, *b),
                            "team {team} after {}",
                            s.name
                        );
                    }
                    Target::Out => match &line(team).standing {
                        Standing::Out(e) => assert_eq!(e.order, stage.order, "team {team}"),
                        other => panic!("team {team} lost in {} but is {other:?}", s.name),
                    },
                }
            }
        }
    }
}

/// Every qualification match's VP are a result the edition's 25-point scale
/// gives (its own `vp25_is_outcome`), the higher to the team with more IMPs.
fn vp_are_outcomes(r: &Report) {
    let mut results = BTreeSet::new();
    for m in r.rounds.iter().flat_map(|round| &round.matches) {
        let (w, l) = if m.home_imps >= m.away_imps {
            (m.home_vp, m.away_vp)
        } else {
            (m.away_vp, m.home_vp)
        };
        results.insert((w, l));
    }
    for (w, l) in results {
        let outcome = format!("vp25_is_outcome(VpResult {{ winner: {w} VP, loser: {l} VP }})");
        assert_eq!(eval(&outcome), Value::Bool(true), "{outcome}");
    }
}

/// Every bye of the qualification adds the edition's `bye_score` to the team's
/// VP, and nothing else (the simulation gives no deductions); the score is the
/// drawn match's 15 VP of AMB-22 for both Gröna Hissen of 2015, SM Lag
/// Veteran's by LV-OTHER ("särskiljning m m är de samma som … Chairman's Cup").
fn byes_score_the_editions_figure(competition: &str, r: &Report) {
    let score = eval(&format!("{competition}.gh.bye_score"));
    assert_eq!(score, eval("amb22_bye_score"), "{competition}");
    let Value::Num(score, _) = score else {
        panic!("{competition}: the bye score is a quantity");
    };
    let vp = |lines: &[bfr::runner::report::StandingLine], team: u32| {
        lines
            .iter()
            .find(|l| l.team == team)
            .map_or(rust_decimal::Decimal::ZERO, |l| l.vp)
    };
    for (i, round) in r.rounds.iter().enumerate() {
        let Some(bye) = round.bye else { continue };
        let before = i
            .checked_sub(1)
            .map_or(&[][..], |p| &r.rounds[p].standings[..]);
        assert_eq!(
            vp(&round.standings, bye) - vp(before, bye),
            score,
            "{competition}, round {}: team {bye}'s bye",
            round.round
        );
    }
}

#[test]
fn a_bye_in_the_veterans_gröna_hissen_scores_as_in_the_chairmans_cup() {
    let r = simulated("lv_ko", 21, 3, Some("wbf20_result"));
    assert_eq!(r.rounds.iter().filter(|x| x.bye.is_some()).count(), 11);
    byes_score_the_editions_figure("lv_ko", &r);
}

/// A debug build plays one cup (64 teams at least, 13 rounds); a release build more.
const CUPS: u32 = if cfg!(debug_assertions) { 1 } else { 12 };

proptest! {
    #![proptest_config(ProptestConfig { cases: CUPS, ..ProptestConfig::default() })]

    #[test]
    fn a_simulated_cup_gives_one_place_each_follows_its_routes_and_scores_by_its_scale(
        extra in 0u32..=26, seed in any::<u64>()
    ) {
        // A debug build plays the smallest field; a release build up to 90 teams.
        let teams = 64 + if cfg!(debug_assertions) { 0 } else { extra };
        let r = simulated("cup", teams, seed, None);
        one_place_each(&r);
        routes_followed("cup", &r);
        vp_are_outcomes(&r);
        byes_score_the_editions_figure("cup", &r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// SM Lag Veteran's knockout (17 teams and more): a smaller field, more cases.
    #[test]
    fn a_simulated_veteran_knockout_gives_one_place_each_and_follows_its_routes(
        teams in 17u32..=28, seed in any::<u64>()
    ) {
        let r = simulated("lv_ko", teams, seed, Some("wbf20_result"));
        one_place_each(&r);
        routes_followed("lv_ko", &r);
        byes_score_the_editions_figure("lv_ko", &r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The WBF 2013 scale: the two teams' VP sum to 20 for every margin and
    /// match length, and the winner never gets less than the loser.
    #[test]
    fn wbf20_vp_sum_to_twenty(margin in 0u32..=400, boards in 1u32..=64) {
        let e = format!("wbf20_result({margin} IMP, {boards} boards)");
        let holds = eval(&format!("{e}.winner + {e}.loser == 20 VP and {e}.winner >= {e}.loser"));
        prop_assert_eq!(holds, Value::Bool(true), "{}", e);
    }
}

/// The 25-point scale, for every board count it has a table for and every
/// margin up to the most IMPs the boards can give (every 13th in a debug
/// build): a result of the scale (`vp25_is_outcome`), never less for the
/// winner of a larger margin.
#[test]
fn vp25_gives_an_outcome_of_the_scale_for_every_margin() {
    let step = if cfg!(debug_assertions) { 13 } else { 1 };
    for boards in [8u32, 10, 12, 14, 16, 20, 24, 28, 32, 36, 40, 48] {
        let table = |m: u32| format!("vp25_{boards}_boards({m} IMP)");
        for margin in (0..=24 * boards).step_by(step) {
            let prev = table(margin.saturating_sub(step as u32));
            let r = table(margin);
            let holds = eval(&format!(
                "vp25_is_outcome({r}) and {r}.winner >= {prev}.winner"
            ));
            assert_eq!(holds, Value::Bool(true), "{r}");
        }
    }
}

// --- a correction changes nothing already drawn -------------------------------

fn twenty() -> &'static (Checked, Sources) {
    static E: OnceLock<(Checked, Sources)> = OnceLock::new();
    E.get_or_init(|| {
        let loaded = load(&root().join("tests/fixtures/twenty")).expect("reads");
        (
            loaded.checked.expect("the twenty edition checks"),
            loaded.sources,
        )
    })
}

fn run_twenty(text: &str) -> Ran {
    let (checked, sources) = twenty();
    let mut sources = sources.clone();
    event::run(&mut checked.clone(), &mut sources, "event.toml", text)
}

/// Every round's and stage's matches as the run played or drew them, keyed by the
/// round's number or the stage's name.
fn draws(ran: &Ran) -> BTreeMap<String, Vec<(u32, u32)>> {
    let mut out: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    if let Some(o) = &ran.outcome {
        for r in &o.report.rounds {
            out.insert(
                r.round.to_string(),
                r.matches.iter().map(|m| (m.home, m.away)).collect(),
            );
        }
    }
    for n in ran.next.iter().chain(&ran.also) {
        if let Next::Results {
            round,
            stage,
            matches,
            ..
        } = n
        {
            let key = round.map_or_else(|| stage.clone().unwrap_or_default(), |r| r.to_string());
            out.insert(key, matches.iter().map(|m| (m.home, m.away)).collect());
        }
    }
    out
}

/// Plays `rounds` rounds of the 20-team event as a director would: record the
/// draw (`--write-draw`), then enter the round's results from `imps`.
fn played(seed: u64, rounds: u32, imps: &[(u8, u8)]) -> String {
    let ids: Vec<String> = (1..=20).map(|i| format!("{{ id = {i} }}")).collect();
    let mut text = format!(
        "competition = \"twenty\"\nseed = {seed}\nteam = [{}]\n",
        ids.join(", ")
    );
    let mut k = 0;
    for round in 1..=rounds {
        let ran = run_twenty(&text);
        text = event::write_draws(&text, false, &ran.unrecorded)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let pairs = draws(&ran)
            .remove(&round.to_string())
            .expect("the round is drawn");
        let results: Vec<String> = pairs
            .iter()
            .map(|(h, a)| {
                let (x, y) = imps[k % imps.len()];
                k += 1;
                format!("\"{h}-{a} {}:{}\"", x % 81, y % 81)
            })
            .collect();
        let doc = text.replace(
            &format!("number = {round}\n"),
            &format!("number = {round}\nresults = [{}]\n", results.join(", ")),
        );
        assert_ne!(doc, text, "round {round} is in the file");
        text = doc;
    }
    let ran = run_twenty(&text);
    event::write_draws(&text, false, &ran.unrecorded).expect("writes the draw")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn a_correction_to_an_earlier_result_changes_nothing_already_drawn(
        // An event file's seed is a TOML integer (at most 2^63 - 1).
        seed in 0..=i64::MAX as u64,
        // After the fourth and last round both quarterfinals are drawn too.
        rounds in 2u32..=4,
        imps in proptest::collection::vec((any::<u8>(), any::<u8>()), 1..40),
        pick in any::<prop::sample::Index>(),
        new in (0u8..=80, 0u8..=80),
    ) {
        let text = played(seed, rounds, &imps);
        let before = run_twenty(&text);
        prop_assert!(!before.diagnostics.has_errors());
        prop_assert!(before.unrecorded.is_empty());
        let drawn = draws(&before);
        let quoted: Vec<&str> = text
            .split('"')
            .filter(|s| s.contains(':') && s.contains(' '))
            .collect();
        prop_assume!(!quoted.is_empty());
        // Correct one result played before the last draw made: a round before the
        // last one played, or any round once the quarterfinals are drawn.
        let before_last_draw = if rounds == 4 { 40 } else { 10 * (rounds as usize - 1) };
        let old = quoted[pick.index(quoted.len().min(before_last_draw))];
        let teams = old.split(' ').next().unwrap_or_default();
        let corrected = text.replacen(old, &format!("{teams} {}:{}", new.0, new.1), 1);
        let after = run_twenty(&corrected);
        prop_assert!(!after.diagnostics.has_errors(), "{:?}", after.diagnostics);
        prop_assert!(after.unrecorded.is_empty(), "a recorded round was drawn again");
        prop_assert_eq!(draws(&after), drawn);
    }
}
