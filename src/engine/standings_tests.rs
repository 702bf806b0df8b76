//! Tests for `standings`, with numbers worked out by hand in the comments.

use super::*;
use rust_decimal_macros::dec;

fn m(home: u32, away: u32, vp: (i64, i64), imps: (i64, i64)) -> MatchResult<u32> {
    MatchResult {
        home,
        away,
        home_vp: Decimal::from(vp.0),
        away_vp: Decimal::from(vp.1),
        home_imps: Decimal::from(imps.0),
        away_imps: Decimal::from(imps.1),
    }
}

/// Two rounds for six teams, plus a carry-over of 3 VP for team 5.
///
/// | team | VP          | SP (opponents' totals) | IMPs won/lost   | quotient |
/// |------|-------------|------------------------|-----------------|----------|
/// | 1    | 18+12 = 30  | 2:30 + 3:30 = 60       | 30+15 / 20+30   | 0.9      |
/// | 2    | 12+18 = 30  | 1:30 + 5:30 = 60       | 20+40 / 30+10   | 1.5      |
/// | 3    | 12+18 = 30  | 4:33 + 1:30 = 63       | 10+30 / 25+15   | 1        |
/// | 4    | 18+15 = 33  | 3:30 + 6:30 = 60       | 25+0  / 10+0    | 2.5      |
/// | 5    | 15+12+3 = 30| 6:30 + 2:30 = 60       | 20+10 / 20+40   | 0.5      |
/// | 6    | 15+15 = 30  | 5:30 + 4:33 = 63       | 20+0  / 20+0    | 1        |
fn six_teams() -> Standings<u32> {
    let mut s = Standings::new(1..=6).unwrap();
    for r in [
        m(1, 2, (18, 12), (30, 20)),
        m(3, 4, (12, 18), (10, 25)),
        m(5, 6, (15, 15), (20, 20)),
        m(1, 3, (12, 18), (15, 30)),
        m(2, 5, (18, 12), (40, 10)),
        m(4, 6, (15, 15), (0, 0)),
    ] {
        s.record_match(&r).unwrap();
    }
    s.adjust(&5, dec!(3)).unwrap();
    s
}

const CHAIN: [TieBreak; 4] = [
    TieBreak::TotalVp,
    TieBreak::SwissPoints,
    TieBreak::ImpQuotient,
    TieBreak::LowerTeamId,
];

#[test]
fn ties_broken_by_sp_then_quotient_then_id() {
    let s = six_teams();
    assert_eq!(s.swiss_points(&3).unwrap(), dec!(63));
    assert_eq!(s.swiss_points(&1).unwrap(), dec!(60));
    let ranked = s.rank(&CHAIN).unwrap();
    let order: Vec<u32> = ranked.iter().map(|r| r.team).collect();
    // 4 leads on VP; 3 and 6 have SP 63 and quotient 1, so id; 2, 1, 5 by quotient.
    assert_eq!(order, vec![4, 3, 6, 2, 1, 5]);
    let places: Vec<usize> = ranked.iter().map(|r| r.place).collect();
    assert_eq!(places, vec![1, 2, 3, 4, 5, 6]);
    let decided: Vec<Option<usize>> = ranked.iter().map(|r| r.decided_by).collect();
    assert_eq!(
        decided,
        vec![None, Some(0), Some(3), Some(1), Some(2), Some(2)]
    );
    assert_eq!(
        ranked[4].values,
        vec![
            CriterionValue::TotalVp(dec!(30)),
            CriterionValue::SwissPoints(dec!(60)),
            CriterionValue::ImpQuotient(ImpQuotient::Finite(dec!(0.9))),
            CriterionValue::TeamId(1),
        ]
    );
}

#[test]
fn without_a_last_resort_full_ties_share_a_place() {
    let ranked = six_teams().rank(&CHAIN[..3]).unwrap();
    let places: Vec<(u32, usize)> = ranked.iter().map(|r| (r.team, r.place)).collect();
    assert_eq!(places, vec![(4, 1), (3, 2), (6, 2), (2, 4), (1, 5), (5, 6)]);
    assert_eq!(ranked[2].decided_by, None);
}

#[test]
fn chain_order_is_data() {
    // Quotient before Swiss Points: among the 30-VP teams, 2 (1.5) now leads 3 and 6 (1).
    let chain = [
        TieBreak::TotalVp,
        TieBreak::ImpQuotient,
        TieBreak::SwissPoints,
    ];
    let order: Vec<u32> = six_teams()
        .rank(&chain)
        .unwrap()
        .iter()
        .map(|r| r.team)
        .collect();
    assert_eq!(order, vec![4, 2, 3, 6, 1, 5]);
}

#[test]
fn penalties_change_swiss_points_of_opponents() {
    let mut s = six_teams();
    // Team 4 loses 3 VP: its own total is 30, and 3 and 6, who met it, drop to SP 60.
    s.adjust(&4, dec!(-3)).unwrap();
    assert_eq!(s.record(&4).unwrap().total_vp().unwrap(), dec!(30));
    assert_eq!(s.swiss_points(&3).unwrap(), dec!(60));
    assert_eq!(s.swiss_points(&6).unwrap(), dec!(60));
}

#[test]
fn byes_score_vp_but_no_swiss_points_and_zero_over_zero_is_one() {
    let mut s = Standings::new([7u32, 8, 9]).unwrap();
    s.record_bye(&9, dec!(15), dec!(0), dec!(0)).unwrap();
    s.record_match(&m(7, 8, (20, 10), (12, 0))).unwrap();
    let r9 = s.record(&9).unwrap();
    assert_eq!(
        (r9.total_vp().unwrap(), r9.byes, r9.opponents.len()),
        (dec!(15), 1, 0)
    );
    assert_eq!(s.swiss_points(&9).unwrap(), dec!(0));
    assert_eq!(
        s.record(&9).unwrap().imp_quotient().unwrap(),
        ImpQuotient::Finite(dec!(1))
    );
    assert_eq!(
        s.record(&7).unwrap().imp_quotient().unwrap(),
        ImpQuotient::Infinite
    );
    let order: Vec<u32> = s.rank(&CHAIN).unwrap().iter().map(|r| r.team).collect();
    assert_eq!(order, vec![7, 9, 8]);
}

#[test]
fn a_second_meeting_counts_the_opponent_once() {
    let mut s = Standings::new([1u32, 2]).unwrap();
    s.record_match(&m(1, 2, (15, 15), (5, 5))).unwrap();
    s.record_match(&m(2, 1, (15, 15), (5, 5))).unwrap();
    assert_eq!(s.record(&1).unwrap().matches, 2);
    assert_eq!(s.swiss_points(&1).unwrap(), dec!(30));
}

#[test]
fn bad_input_is_rejected_without_partial_updates() {
    assert_eq!(
        Standings::new([1u32, 2, 1]),
        Err(StandingsError::DuplicateTeam(1))
    );
    let mut s = Standings::new([1u32, 2]).unwrap();
    let before = s.clone();
    assert_eq!(
        s.record_match(&m(1, 3, (15, 15), (0, 0))),
        Err(StandingsError::UnknownTeam(3))
    );
    assert_eq!(
        s.record_match(&m(2, 2, (15, 15), (0, 0))),
        Err(StandingsError::SelfMatch(2))
    );
    assert_eq!(s.adjust(&4, dec!(1)), Err(StandingsError::UnknownTeam(4)));
    assert_eq!(s, before);
    s.record_match(&m(1, 2, (15, 15), (-3, 0))).unwrap();
    assert!(matches!(s.rank(&CHAIN), Err(StandingsError::Scoring(_))));
}

#[test]
fn a_match_that_overflows_the_second_side_changes_neither() {
    let mut s = Standings::new([1u32, 2]).unwrap();
    let mut first = m(1, 2, (0, 0), (0, 0));
    first.away_vp = Decimal::MAX;
    s.record_match(&first).unwrap();
    let before = s.clone();
    // Team 1, the first side written, has room for its 10 VP; team 2's 1 VP more
    // would pass the largest decimal.
    let second = m(1, 2, (10, 1), (0, 0));
    assert_eq!(s.record_match(&second), Err(StandingsError::Overflow));
    assert_eq!(s, before);
}
