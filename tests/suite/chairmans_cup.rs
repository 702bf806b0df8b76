//! The Chairman's Cup played from `rules/2015` end to end, with the regulation's
//! invariants checked on every run: 1–32 to the CC, 33–64 to the Bonus Cup, the
//! rest out; BC32-A brackets 33 v 64; the CC choice in GH order; inherited
//! rankings; every team in exactly one final place or out; places 1–6 filled.

use crate::support::{program_2015 as program, simulate, stage, teams_of};
use bfr::cli::render::standing as words;
use bfr::runner::report::{MatchSeating, Report, Standing};
use bfr::runner::simulate::Simulation;
use bfr::runner::{Options, run};
use std::collections::{BTreeMap, BTreeSet};

fn check_invariants(r: &Report, teams: u32) {
    let gh: Vec<u32> = r.standings.iter().map(|l| l.team).collect();
    assert_eq!(gh.len(), teams as usize);
    assert_eq!(r.rounds.len(), 13, "13 rounds of Gröna Hissen");
    // Every round: each team plays once or has the bye; no pair meets twice.
    let mut met = BTreeSet::new();
    for round in &r.rounds {
        let mut seen = BTreeSet::new();
        for m in &round.matches {
            assert!(seen.insert(m.home) && seen.insert(m.away));
            let pair = (m.home.min(m.away), m.home.max(m.away));
            assert!(met.insert(pair), "{pair:?} met twice");
        }
        if let Some(b) = round.bye {
            assert!(seen.insert(b));
        }
        assert_eq!(seen.len(), teams as usize);
        assert_eq!(round.bye.is_some(), teams % 2 == 1);
    }
    // 1–32 to CC32, 33–64 to BC32-A, the rest out.
    let cc: BTreeSet<u32> = gh[..32].iter().copied().collect();
    let bc: BTreeSet<u32> = gh[32..64].iter().copied().collect();
    assert_eq!(teams_of(stage(r, "cc32")), cc);
    assert_eq!(teams_of(stage(r, "bc32_a")), bc);
    for t in &gh[64..] {
        let line = r.places.iter().find(|l| l.team == *t).unwrap();
        assert_eq!(words(&line.standing), "out at Gröna Hissen");
    }
    // BC32-A: brackets 33 v 64, 34 v 63, …
    let place: BTreeMap<u32, usize> = gh.iter().enumerate().map(|(i, t)| (*t, i + 1)).collect();
    for m in &stage(r, "bc32_a").matches {
        assert_eq!(place[&m.home] + place[&m.away], 97, "33 v 64 brackets");
        assert_eq!(m.table as usize, place[&m.home] - 32);
    }
    // CC32: GH 1–16 choose in GH order among 17–32; the chooser at table p is GH p.
    let cc32 = stage(r, "cc32");
    let choosers: Vec<u32> = cc32.choices.iter().map(|(c, _)| *c).collect();
    assert_eq!(
        choosers,
        gh[..15].to_vec(),
        "the 16th chooser gets the team left over"
    );
    for m in &cc32.matches {
        assert_eq!(place[&m.home], m.table as usize);
        assert!(place[&m.away] > 16);
    }
    // Inherited ranking: in the CC the ranking equals the table number (AMB-3).
    for name in ["cc16", "cc_qf", "cc_sf"] {
        for m in &stage(r, name).matches {
            assert_eq!(m.home_ranking, m.table, "{name}");
        }
    }
    // Seating (CC-SEATING): in matches of 32 boards or fewer the away team sits first;
    // in 64-board matches each pair of segments (1+2, 3+4) is split between the teams.
    for s in &r.stages {
        for m in &s.matches {
            let seating = m.seating.clone().unwrap();
            if s.boards <= rust_decimal::Decimal::from(32) {
                assert_eq!(seating, MatchSeating::AwaySitsFirst { team: m.away });
            } else {
                let MatchSeating::SegmentRights { rights } = &seating else {
                    panic!("{seating:?}");
                };
                let owners: Vec<u32> = rights.iter().map(|(_, team)| *team).collect();
                assert_eq!(owners.len(), 4, "{seating:?}");
                assert_ne!(owners[0], owners[1], "{seating:?}");
                assert_ne!(owners[2], owners[3], "{seating:?}");
                assert!(owners.iter().all(|t| *t == m.home || *t == m.away));
            }
        }
    }
    // Every team ends in exactly one final place or is out; places 1–6 are filled.
    assert_eq!(r.places.len(), teams as usize);
    let all: BTreeSet<u32> = r.places.iter().map(|l| l.team).collect();
    assert_eq!(all.len(), teams as usize);
    let standings: Vec<String> = r.places.iter().map(|l| words(&l.standing)).collect();
    for p in ["1", "2", "3", "4"] {
        assert_eq!(
            standings.iter().filter(|s| **s == p).count(),
            1,
            "place {p}"
        );
    }
    assert_eq!(standings.iter().filter(|s| **s == "5/6").count(), 2);
    // CC-TROPHY: 10, 5, 3 and 2 points for places 1–4, from the edition's rule.
    let at = |p: &str| {
        r.places
            .iter()
            .find(|l| words(&l.standing) == p)
            .unwrap()
            .team
    };
    let trophy: Vec<(u32, &str)> = r
        .trophy_points
        .iter()
        .map(|(t, p)| (*t, p.as_str()))
        .collect();
    assert_eq!(
        trophy,
        [
            (at("1"), "10 points"),
            (at("2"), "5 points"),
            (at("3"), "3 points"),
            (at("4"), "2 points")
        ]
    );
    // The BC flow: CC losers drop into the Bonus Cup at the stage the rules name.
    let cc32_losers: BTreeSet<u32> = cc32
        .matches
        .iter()
        .map(|m| if m.winner == m.home { m.away } else { m.home })
        .collect();
    assert!(cc32_losers.is_subset(&teams_of(stage(r, "bc32_b"))));
    let qf = stage(r, "cc_qf");
    let qf_losers: BTreeSet<u32> = qf
        .matches
        .iter()
        .map(|m| if m.winner == m.home { m.away } else { m.home })
        .collect();
    assert!(qf_losers.is_subset(&teams_of(stage(r, "bc08_b"))));
}

#[test]
fn sixty_four_teams() {
    let p = program();
    check_invariants(&simulate(&p, 64, 1), 64);
}

#[test]
fn eighty_seven_teams_with_a_bye_every_round() {
    let p = program();
    let r = simulate(&p, 87, 2);
    check_invariants(&r, 87);
    // A bye scores the edition's bye score (15 VP, AMB-22) and goes to a team once.
    let byes: Vec<u32> = r.rounds.iter().filter_map(|x| x.bye).collect();
    assert_eq!(byes.iter().collect::<BTreeSet<_>>().len(), 13);
}

#[test]
fn one_hundred_and_thirty_teams() {
    let p = program();
    check_invariants(&simulate(&p, 130, 3), 130);
}

#[test]
fn same_seed_same_event_other_seed_other_event() {
    let p = program();
    let a = serde_json::to_string(&simulate(&p, 70, 11)).unwrap();
    let b = serde_json::to_string(&simulate(&p, 70, 11)).unwrap();
    let c = serde_json::to_string(&simulate(&p, 70, 12)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn fewer_than_sixty_four_teams_has_no_rule() {
    let p = program();
    let options = Options {
        scale: Some("wbf20_result".into()),
        ..Options::default()
    };
    let err = run(&p, "cup", 63, &options, &mut Simulation::new(63, 1)).unwrap_err();
    assert!(err.to_string().contains("no rule for 63 teams"), "{err}");
}

#[test]
fn the_editions_own_25_0_scale_plays_grona_hissen_to_the_end() {
    // No `--scale`: Gröna Hissen is scored on the edition's 8-board 25-0 table.
    let p = program();
    let outcome = run(
        &p,
        "cup",
        64,
        &Options::default(),
        &mut Simulation::new(64, 1),
    )
    .unwrap();
    assert!(outcome.pending.is_none());
    assert!(
        outcome
            .report
            .notes
            .iter()
            .all(|n| !n.contains("instead of"))
    );
    for m in outcome.report.rounds.iter().flat_map(|r| &r.matches) {
        let (w, l) = (m.home_vp.max(m.away_vp), m.home_vp.min(m.away_vp));
        let on_the_scale = (w + l == rust_decimal::Decimal::from(30) && w <= 25.into())
            || (w == 25.into() && l <= 5.into());
        assert!(on_the_scale, "{w}-{l} is not a 25-0 result");
    }
}

#[test]
fn late_starters_begin_in_round_three_with_thirty_vp_carried_over() {
    let p = program();
    let options = Options {
        seed: 4,
        scale: Some("wbf20_result".into()),
        late_starters: [5, 6].into_iter().collect(),
        ..Options::default()
    };
    let r = run(&p, "cup", 66, &options, &mut Simulation::new(66, 4))
        .unwrap()
        .report;
    let plays = |round: &bfr::runner::report::QualRound, t: u32| {
        round.matches.iter().any(|m| m.home == t || m.away == t) || round.bye == Some(t)
    };
    for t in [5, 6] {
        assert!(
            !plays(&r.rounds[0], t) && !plays(&r.rounds[1], t),
            "team {t} starts late"
        );
        assert!(plays(&r.rounds[2], t), "team {t} starts in round 3");
        let earned: rust_decimal::Decimal = r
            .rounds
            .iter()
            .flat_map(|x| &x.matches)
            .map(|m| {
                if m.home == t {
                    m.home_vp
                } else if m.away == t {
                    m.away_vp
                } else {
                    rust_decimal::Decimal::ZERO
                }
            })
            .sum();
        let bye_vp = if r.rounds.iter().any(|x| x.bye == Some(t)) {
            rust_decimal::Decimal::from(15)
        } else {
            rust_decimal::Decimal::ZERO
        };
        let line = r.standings.iter().find(|l| l.team == t).unwrap();
        assert_eq!(
            line.vp,
            earned + bye_vp + rust_decimal::Decimal::from(30),
            "CC-LATESTART: 30 VP carried over"
        );
        // Until it plays, the standings say when it starts; from round 3 on, not.
        let starts = |round: usize| {
            r.rounds[round]
                .standings
                .iter()
                .find(|l| l.team == t)
                .unwrap()
                .starts_in_round
        };
        assert_eq!((starts(0), starts(1), starts(2)), (Some(3), Some(3), None));
        assert_eq!(line.starts_in_round, None);
        let other = r.rounds[0].standings.iter().find(|l| l.team == 7).unwrap();
        assert_eq!(other.starts_in_round, None);
    }
    // The standings after round 2, as `bfr run` prints them.
    let mut after_two = r.clone();
    after_two.rounds.truncate(2);
    after_two.standings = r.rounds[1].standings.clone();
    let text = bfr::cli::render::report(&after_two, &|t| format!("Team {t}"));
    // A standings line: its place, then the team.
    let line = |t: u32| {
        let team = t.to_string();
        text.lines()
            .find(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.first().is_some_and(|p| p.parse::<u32>().is_ok())
                    && words.get(1..3) == Some(&["Team", team.as_str()][..])
            })
            .unwrap_or_default()
            .to_string()
    };
    assert!(line(5).trim_end().ends_with("starts in round 3"), "{text}");
    assert!(!line(7).contains("starts in"), "{text}");
    // The same in JSON.
    let json = serde_json::to_value(&after_two).unwrap();
    let of = |t: u32| {
        json["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["team"] == t)
            .unwrap()
            .clone()
    };
    assert_eq!(of(5)["starts_in_round"], 3);
    assert!(of(7).get("starts_in_round").is_none());
}

#[test]
fn the_district_prize_goes_to_the_district_team_that_gets_furthest() {
    let p = program();
    let options = |district: &[u32]| Options {
        seed: 7,
        scale: Some("wbf20_result".into()),
        district_teams: district.iter().copied().collect(),
        ..Options::default()
    };
    let plain = run(&p, "cup", 70, &options(&[]), &mut Simulation::new(70, 7))
        .unwrap()
        .report;
    assert!(
        plain.district_prize.is_none(),
        "no district teams, no prize"
    );
    let standing = |t: u32| {
        plain
            .places
            .iter()
            .find(|l| l.team == t)
            .unwrap()
            .standing
            .clone()
    };
    let gh = |t: u32| plain.standings.iter().position(|l| l.team == t).unwrap();
    // A placed team beats any team that went out.
    let placed = plain
        .places
        .iter()
        .find(|l| l.standing == Standing::place(3))
        .unwrap()
        .team;
    let out_early = plain
        .places
        .iter()
        .find(|l| words(&l.standing) == "out at Gröna Hissen")
        .unwrap()
        .team;
    let r = run(
        &p,
        "cup",
        70,
        &options(&[out_early, placed]),
        &mut Simulation::new(70, 7),
    )
    .unwrap()
    .report;
    assert_eq!(r.district_prize, Some((placed, "10000 SEK".into())));
    // Two teams out at the same stage: the better Gröna Hissen place wins.
    let same: Vec<u32> = plain
        .places
        .iter()
        .filter(|l| words(&l.standing) == "out at BC32-B")
        .map(|l| l.team)
        .take(2)
        .collect();
    assert_eq!(standing(same[0]), standing(same[1]));
    let better = *same.iter().min_by_key(|t| gh(**t)).unwrap();
    let r = run(&p, "cup", 70, &options(&same), &mut Simulation::new(70, 7))
        .unwrap()
        .report;
    assert_eq!(r.district_prize.map(|(t, _)| t), Some(better));
}

/// A simulation in which the first match of round 1 had a fouled board cancelled.
struct Fouled {
    sim: Simulation,
    first: Option<(u32, u32)>,
}

impl bfr::runner::Source for Fouled {
    fn qualification_result(
        &mut self,
        r: u32,
        h: u32,
        a: u32,
        b: rust_decimal::Decimal,
    ) -> Option<(rust_decimal::Decimal, rust_decimal::Decimal)> {
        if r == 1 && self.first.is_none() {
            self.first = Some((h, a));
        }
        self.sim.qualification_result(r, h, a, b)
    }
    fn choice(&mut self, s: &str, c: u32, cands: &[u32]) -> Option<u32> {
        self.sim.choice(s, c, cands)
    }
    fn knockout_result(
        &mut self,
        s: &str,
        h: u32,
        a: u32,
        b: rust_decimal::Decimal,
    ) -> Option<(rust_decimal::Decimal, rust_decimal::Decimal)> {
        self.sim.knockout_result(s, h, a, b)
    }
    fn qualification_boards(&mut self, r: u32, h: u32, a: u32) -> Option<rust_decimal::Decimal> {
        (r == 1 && self.first == Some((h, a))).then(|| rust_decimal::Decimal::from(7))
    }
}

#[test]
fn a_match_with_a_cancelled_board_is_scored_as_one_board_shorter() {
    let p = program();
    let options = Options {
        seed: 8,
        scale: Some("wbf20_result".into()),
        ..Options::default()
    };
    let plain = run(&p, "cup", 64, &options, &mut Simulation::new(64, 8))
        .unwrap()
        .report;
    let mut fouled = Fouled {
        sim: Simulation::new(64, 8),
        first: None,
    };
    let r = run(&p, "cup", 64, &options, &mut fouled).unwrap().report;
    let (a, b) = (&plain.rounds[0].matches[0], &r.rounds[0].matches[0]);
    assert_eq!(
        (a.home, a.away, a.home_imps, a.away_imps),
        (b.home, b.away, b.home_imps, b.away_imps)
    );
    // The edition's own scale over 7 boards, evaluated directly, gives the VP.
    let margin = (b.home_imps - b.away_imps).abs();
    let (index, _) = p.rule("wbf20_winner_vp").unwrap();
    let unit = |u: &str| bfr::ir::Unit::base(u);
    let winner = bfr::eval::Evaluator::new(&p)
        .call(
            index,
            vec![
                bfr::ir::Value::Num(margin, unit("IMP")),
                bfr::ir::Value::Num(rust_decimal::Decimal::from(7), unit("board")),
            ],
            bfr::source::Span::default(),
        )
        .unwrap();
    let bfr::ir::Value::Num(winner, _) = winner else {
        panic!("{winner:?}")
    };
    assert_eq!(b.home_vp.max(b.away_vp), winner, "scored over 7 boards");
    if !margin.is_zero() {
        assert_ne!(
            a.home_vp, b.home_vp,
            "8 and 7 boards give different VP for the same margin"
        );
    }
}

#[test]
fn a_cancelled_board_on_the_editions_25_0_scale_stops_for_want_of_a_7_board_table() {
    // The fouled match counts as 7 boards (CC-FOULED); no 25-0 table for 7 boards is
    // published, so the run stops there instead of borrowing the 8-board column.
    let p = program();
    let mut fouled = Fouled {
        sim: Simulation::new(64, 8),
        first: None,
    };
    let options = Options {
        seed: 8,
        ..Options::default()
    };
    let err = run(&p, "cup", 64, &options, &mut fouled).unwrap_err();
    assert_eq!(err.kind, bfr::runner::Stop::NoVp, "{err:?}");
    let message = &err.message;
    assert!(message.contains("over 7 boards"), "{message}");
    assert!(message.contains("vp25_no_table"), "{message}");
}

#[test]
fn each_stage_says_when_and_how_it_is_played_in_the_editions_words() {
    let r = simulate(&program(), 64, 3);
    let played = |name: &str| stage(&r, name).played.clone();
    let qf = played("cc_qf");
    assert_eq!(qf.day.as_deref(), Some("Tue 2015-07-28"));
    assert_eq!(qf.part.as_deref(), Some("heldag"));
    assert_eq!(
        qf.screens,
        Some(true),
        "CC-SCREENS: from the quarterfinal on"
    );
    assert_eq!(qf.system.as_deref(), Some("A-nivå"));
    assert_eq!(qf.segments, Some(4));
    let bc = played("bc32_b");
    assert_eq!(
        (
            bc.day.as_deref(),
            bc.part.as_deref(),
            bc.screens,
            bc.system.as_deref()
        ),
        (
            Some("Mon 2015-07-27"),
            Some("eftermiddag"),
            Some(false),
            Some("B-nivå")
        )
    );
    let gh = r.qualification_played.clone().unwrap();
    assert_eq!(
        (
            gh.day.as_deref(),
            gh.last_day.as_deref(),
            gh.system.as_deref()
        ),
        (
            Some("Sat 2015-07-25"),
            Some("Sun 2015-07-26"),
            Some("B-nivå")
        )
    );
    let text = bfr::cli::render::report(&r, &|t| format!("Team {t}"));
    assert!(
        text.contains("Qualification: 13 rounds\nSat 2015-07-25 – Sun 2015-07-26; system B-nivå\n")
    );
    assert!(
        text.contains("6. CC Kvartsfinal (cc_qf, 64 boards, choice)\n   Tue 2015-07-28 heldag; screens; system A-nivå; 4 segments\n"),
        "{text}"
    );
}

/// SM Lag Veteran's late starter (team 21, LV-LATESTART: round 6) after two
/// rounds, on the noticeboard page and in JSON.
#[test]
fn a_late_starter_says_when_it_starts_on_the_page_and_in_json() {
    let case = "tests/cases/runs/veterans-correction-after-the-round-of-16-draw/event.toml";
    let text = std::fs::read_to_string(crate::support::root().join(case)).unwrap();
    // Up to the third round's entry: two rounds played.
    let third = text.match_indices("[[round]]").nth(2).unwrap().0;
    let dir = crate::support::TempDir::new("late-starter-page");
    let file = dir.0.join("event.toml");
    std::fs::write(&file, &text[..third]).unwrap();
    let file = file.display().to_string();
    let (_, page, stderr) = crate::support::bfr(&["--format", "html", "run", "rules/2015", &file]);
    assert!(
        page.contains("<td>starts in round 6</td>"),
        "{stderr}{page}"
    );
    // The column's heading says it holds the late start too.
    assert!(page.contains("<th>Decided by; late start</th>"), "{page}");
    let (_, out, _) = crate::support::bfr(&["run", "rules/2015", &file]);
    let heading = out
        .lines()
        .find(|l| l.trim_start().starts_with("place"))
        .unwrap();
    assert!(heading.ends_with("  decided by; late start"), "{heading}");
    let (_, json, _) = crate::support::bfr(&["--format", "json", "run", "rules/2015", &file]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let standings = json["report"]["standings"].as_array().unwrap();
    let late: Vec<&serde_json::Value> = standings
        .iter()
        .filter(|l| l.get("starts_in_round").is_some())
        .collect();
    assert_eq!(late.len(), 1, "{standings:?}");
    assert_eq!(
        (&late[0]["team"], &late[0]["starts_in_round"]),
        (&21.into(), &6.into())
    );
}
