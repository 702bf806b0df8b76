//! The qualification: its Swiss or round-robin rounds, played from the source's
//! results into standings, and the VP each match earns from the edition's scale.

use super::plan;
use super::recorded::{self, DrawAt, Verdict};
use super::report::{Criterion, QualMatch, QualRound, StandingLine};
use super::{About, RunError, Runner, Source, Stop, rule_err};
use crate::engine::knockout::TeamId;
use crate::engine::standings::{CriterionValue, MatchResult, RankedTeam, Standings, TieBreak};
use crate::engine::swiss::{Round, SwissInput, draw_first_round, pair_round};
use crate::eval::Evaluator;
use crate::ir::vocabulary::{Bye, FirstRound, HomeTeam, Pairing, QualificationFormat};
use crate::ir::{Type, Unit, Value};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The winner's and loser's VP a scale gave for a margin over a number of boards:
/// (scale, margin, boards) → (winner, loser), the numbers as exact digits.
pub(super) type VpGiven = HashMap<(u32, [u8; 16], [u8; 16]), (Decimal, Decimal)>;

/// The pairings so far, which the Swiss draw must not repeat.
#[derive(Default)]
struct History {
    /// Every (home, away) played.
    played: Vec<(u32, u32)>,
    /// The round in which two teams (lower id first) met.
    met: BTreeMap<(u32, u32), u32>,
    /// Every team that has had a bye.
    had_bye: Vec<u32>,
}

impl Runner<'_> {
    /// Plays the qualification; returns the final order, or `None` when results run out.
    pub(super) fn qualification(
        &mut self,
        q: &plan::Qualification,
        ids: &[TeamId],
        source: &mut dyn Source,
    ) -> Result<Option<Vec<TeamId>>, RunError> {
        let scale = self.vp_scale(q)?;
        let team_ids: Vec<u32> = ids.iter().map(|t| t.0).collect();
        let mut standings = Standings::new(team_ids.iter().copied()).map_err(rule_err)?;
        let mut history = History::default();
        let late: Vec<u32> = team_ids
            .iter()
            .copied()
            .filter(|t| self.options.late_starters.contains(t))
            .collect();
        let (late_round, carry) = q.late_start.unwrap_or((1, Decimal::ZERO));
        // The standings ranked, kept from the end of a round for the next one's draw
        // until an adjustment changes them.
        let mut ranked: Option<Vec<RankedTeam<u32>>> = None;
        for round in 1..=q.rounds {
            let not_playing: &[u32] = if round < late_round { &late } else { &[] };
            if round == late_round && !late.is_empty() {
                for t in &late {
                    standings.adjust(t, carry).map_err(rule_err)?;
                }
                ranked = None;
            }
            let order: Vec<u32> = match ranked.take() {
                Some(r) => r,
                None => standings.rank(&q.tie_break).map_err(rule_err)?,
            }
            .into_iter()
            .map(|r| r.team)
            .collect();
            let made = self
                .pair(q, round, &team_ids, not_playing, &order, &history)
                .map(|mut pairing| {
                    match q.home {
                        // During the qualification its placement is the current ranking.
                        Some(HomeTeam::BetterRanking | HomeTeam::BetterQualificationPlacement) => {
                            home_is_better_ranked(&mut pairing, &order);
                        }
                        Some(HomeTeam::UpperPosition) | None => {}
                    }
                    pairing
                });
            let Some(pairing) =
                self.recorded_or(round, made, &team_ids, not_playing, &history, source)?
            else {
                return Ok(None);
            };
            source.round_drawn(round, &pairing.pairs, pairing.bye);
            let Some(matches) =
                self.play_round(q, scale, round, &pairing, &mut standings, source)?
            else {
                return Ok(None);
            };
            history
                .played
                .extend(matches.iter().map(|m| (m.home, m.away)));
            for m in &matches {
                history
                    .met
                    .entry((m.home.min(m.away), m.home.max(m.away)))
                    .or_insert(round);
            }
            for (team, vp) in source.qualification_deductions(round) {
                standings.adjust(&team, -vp).map_err(rule_err)?;
            }
            if let Some(b) = pairing.bye {
                standings
                    .record_bye(&b, q.bye_score, Decimal::ZERO, Decimal::ZERO)
                    .map_err(rule_err)?;
                history.had_bye.push(b);
            }
            // The standings at every moment: after each round, as after the last.
            let now = standings.rank(&q.tie_break).map_err(rule_err)?;
            let lines = self.standing_lines(q, &standings, &now, round)?;
            ranked = Some(now);
            self.report.standings.clone_from(&lines);
            self.report.rounds.push(QualRound {
                round,
                matches,
                bye: pairing.bye,
                standings: lines,
            });
        }
        self.final_standings(q, &standings, ranked).map(Some)
    }

    /// The rule that scores the qualification: the one the options name instead of
    /// the edition's (with a note in the report), or the edition's.
    fn vp_scale(&mut self, q: &plan::Qualification) -> Result<u32, RunError> {
        let named = self.options.scale.as_deref();
        let scale = self.plan.vp_scale(self.program, named).map(|(i, _)| i);
        if let Some(name) = named {
            if scale.is_none() {
                return Err(RunError::new(
                    Stop::UnknownName,
                    format!("the edition has no rule `{name}` to use as the VP scale"),
                ));
            }
            let rule = scale.and_then(|i| self.program.rules.get(i as usize));
            if let Some(r) = rule.filter(|r| !self.program.is_vp_scale(r)) {
                return Err(RunError::new(
                    Stop::Refused,
                    format!(
                        "the edition's rule `{name}` cannot score a match: a VP scale takes the IMP margin (and the boards) and gives both teams' VP, `winner` and `loser`"
                    ),
                )
                .at(Some(r.span))
                .with_help(self.program.vp_scale_help(name)));
            }
            let named = q
                .scale
                .and_then(|i| self.program.rules.get(i as usize))
                .map_or("none".to_string(), |r| format!("`{}`", r.name));
            self.report.notes.push(format!(
                "VP by `{name}` instead of the edition's scale ({named}); the bye score and the late starters' carry-over are the edition's figures"
            ));
        }
        scale.ok_or_else(|| {
            RunError::new(Stop::Incomplete, format!(
                "`{}` names no VP scale: give one in the edition (`vp_scale = RULE`), in the event file (`vp_scale = \"RULE\"`) or to `bfr simulate` (`--scale RULE`)",
                q.name
            ))
            .at(self.qualification_span())
        })
    }

    /// The pairing of a round: a round robin's fixed schedule (the seed draws the
    /// seats), a drawn first round, or a Swiss round by the standings so far
    /// (`ranked`, the teams in their order).
    fn pair(
        &self,
        q: &plan::Qualification,
        round: u32,
        team_ids: &[u32],
        not_playing: &[u32],
        ranked: &[u32],
        history: &History,
    ) -> Result<Round<u32>, RunError> {
        if q.format == QualificationFormat::RoundRobin {
            let mut seats = team_ids.to_vec();
            crate::engine::rng::SplitMix64::new(self.options.seed).shuffle(&mut seats);
            let r = crate::engine::round_robin::schedule(&seats)
                .into_iter()
                .nth(usize::try_from(round - 1).unwrap_or(usize::MAX))
                .ok_or_else(|| {
                    RunError::new(
                        Stop::Refused,
                        format!("round {round} is not in the schedule"),
                    )
                })?;
            return Ok(Round {
                pairs: r.pairs,
                bye: r.bye,
            });
        }
        if round == 1 {
            let playing: Vec<u32> = team_ids
                .iter()
                .copied()
                .filter(|t| !not_playing.contains(t))
                .collect();
            return match q.first_round {
                FirstRound::Drawn => draw_first_round(&playing, self.options.seed),
            }
            .map_err(rule_err);
        }
        let input = SwissInput {
            ranking: ranked,
            played: &history.played,
            had_bye: &history.had_bye,
            not_playing,
            later_rounds: 0,
        };
        // The engine's one Swiss method: standings order with a feasibility check,
        // the bye to the lowest-ranked team without one.
        match (q.pairing, q.bye) {
            (Pairing::StandingsWithFeasibilityCheck, Bye::LowestRankedWithoutBye) => {
                pair_round(&input).map_err(rule_err)
            }
        }
    }

    /// The matches of a drawn round, scored from the source's results; `None` when
    /// a result is missing.
    fn play_round(
        &self,
        q: &plan::Qualification,
        scale: u32,
        round: u32,
        pairing: &Round<u32>,
        standings: &mut Standings<u32>,
        source: &mut dyn Source,
    ) -> Result<Option<Vec<QualMatch>>, RunError> {
        let mut matches = Vec::new();
        for (table, (home, away)) in pairing.pairs.iter().enumerate() {
            let Some((hi, ai)) = source.qualification_result(round, *home, *away, q.boards) else {
                return Ok(None);
            };
            // A match with a cancelled board counts as one board shorter (CC-FOULED).
            let boards = source
                .qualification_boards(round, *home, *away)
                .unwrap_or(q.boards);
            // A scale with no VP for this match stops at the result; a scale that
            // fails for every match (E0714) is the event's or edition's choice.
            let (hv, av) = self.vp(scale, hi, ai, boards).map_err(|e| match e.kind {
                Stop::NoVp => e.about(About::QualificationResult {
                    round,
                    home: *home,
                    away: *away,
                }),
                _ => e,
            })?;
            standings
                .record_match(&MatchResult {
                    home: *home,
                    away: *away,
                    home_vp: hv,
                    away_vp: av,
                    home_imps: hi,
                    away_imps: ai,
                })
                .map_err(rule_err)?;
            matches.push(QualMatch {
                table: table + 1,
                home: *home,
                away: *away,
                home_imps: hi,
                away_imps: ai,
                home_vp: hv,
                away_vp: av,
            });
        }
        Ok(Some(matches))
    }

    /// The final standings into the report (`ranked`, if the standings are ranked
    /// as they stand); the teams in their final order.
    fn final_standings(
        &mut self,
        q: &plan::Qualification,
        standings: &Standings<u32>,
        ranked: Option<Vec<RankedTeam<u32>>>,
    ) -> Result<Vec<TeamId>, RunError> {
        let ranked = match ranked {
            Some(r) => r,
            None => standings.rank(&q.tie_break).map_err(rule_err)?,
        };
        self.report.standings = self.standing_lines(q, standings, &ranked, q.rounds)?;
        Ok(ranked.iter().map(|r| TeamId(r.team)).collect())
    }

    /// The draw of a round: the one recorded, if the source has one and it keeps
    /// the rules (checked, and compared with the draw the rules `made`), or the
    /// one the rules made. `None` when the recorded draw is refused.
    fn recorded_or(
        &self,
        round: u32,
        made: Result<Round<u32>, RunError>,
        team_ids: &[u32],
        not_playing: &[u32],
        history: &History,
        source: &mut dyn Source,
    ) -> Result<Option<Round<u32>>, RunError> {
        let Some((pairs, bye)) = source.recorded_round_draw(round) else {
            return made.map(Some);
        };
        let playing: BTreeSet<u32> = team_ids
            .iter()
            .copied()
            .filter(|t| !not_playing.contains(t))
            .collect();
        let byes: Vec<u32> = bye.into_iter().collect();
        let problems = recorded::check(&pairs, &byes, &playing, &history.met);
        let verdict = if !problems.is_empty() {
            Verdict::Refused(problems)
        } else {
            match &made {
                Ok(m) => {
                    let made_byes: Vec<u32> = m.bye.into_iter().collect();
                    if recorded::same(&pairs, &byes, &m.pairs, &made_byes) {
                        Verdict::Same
                    } else {
                        Verdict::Differs(m.pairs.clone(), made_byes)
                    }
                }
                // The rules cannot draw this round (now): the record stands alone.
                Err(_) => Verdict::Same,
            }
        };
        source.draw_verdict(DrawAt::Round(round), &verdict);
        if matches!(verdict, Verdict::Refused(_)) {
            return Ok(None);
        }
        Ok(Some(Round { pairs, bye }))
    }

    /// The standings, `ranked`, as report lines after round `played`.
    fn standing_lines(
        &self,
        q: &plan::Qualification,
        standings: &Standings<u32>,
        ranked: &[RankedTeam<u32>],
        played: u32,
    ) -> Result<Vec<StandingLine>, RunError> {
        // The round the late starters join in, while they have not.
        let late_round = q.late_start.map(|(r, _)| r).filter(|r| played < *r);
        let mut lines = Vec::new();
        for r in ranked {
            let rec = standings.record(&r.team);
            let vp = rec
                .map(|x| x.total_vp())
                .transpose()
                .map_err(rule_err)?
                .unwrap_or_default();
            lines.push(StandingLine {
                place: r.place,
                team: r.team,
                vp,
                swiss_points: match r.values.iter().find_map(swiss_points_of) {
                    Some(points) => points,
                    None => standings.swiss_points(&r.team).map_err(rule_err)?,
                },
                imps_won: rec.map_or(Decimal::ZERO, |x| x.imps_won),
                imps_lost: rec.map_or(Decimal::ZERO, |x| x.imps_lost),
                // Only a tie-break is worth a word: the first criterion decides most rows.
                decided_by: r
                    .decided_by
                    .filter(|i| *i > 0)
                    .and_then(|i| q.tie_break.get(i))
                    .map(|t| criterion(*t)),
                starts_in_round: late_round
                    .filter(|_| self.options.late_starters.contains(&r.team)),
            });
        }
        Ok(lines)
    }

    /// VP for a match from the edition's scale, home's first: the winner's and
    /// loser's VP for the margin, as the scale gave them before or gives them now.
    fn vp(
        &self,
        scale: u32,
        home: Decimal,
        away: Decimal,
        boards: Decimal,
    ) -> Result<(Decimal, Decimal), RunError> {
        let margin = home
            .checked_sub(away)
            .ok_or_else(|| RunError::new(Stop::Refused, "an IMP score is too large"))?
            .abs();
        // Keyed by the exact digits: 3 and 3.0 are equal numbers, and a scale may
        // still write their VP with different decimals.
        let key = (scale, margin.serialize(), boards.serialize());
        let given = self.vp_given.borrow().get(&key).copied();
        let (w, l) = match given {
            Some(vp) => vp,
            None => {
                let vp = self.scale_vp(scale, margin, boards)?;
                self.vp_given.borrow_mut().insert(key, vp);
                vp
            }
        };
        Ok(if home >= away { (w, l) } else { (l, w) })
    }

    /// The edition's scale evaluated: the rule takes the margin (and the number
    /// of boards, if it has a second parameter) and returns a record with `winner`
    /// and `loser` VP.
    fn scale_vp(
        &self,
        scale: u32,
        margin: Decimal,
        boards: Decimal,
    ) -> Result<(Decimal, Decimal), RunError> {
        let rule = self
            .program
            .rules
            .get(scale as usize)
            .ok_or_else(|| RunError::new(Stop::Refused, "unknown scale"))?;
        let unit = |i: usize| match rule.params.get(i) {
            Some((_, Type::Num(u))) => u.clone(),
            _ => Unit::none(),
        };
        let mut args = vec![Value::Num(margin, unit(0))];
        if rule.params.len() > 1 {
            args.push(Value::Num(boards, unit(1)));
        }
        let v = Evaluator::prepared(self.program, self.prepared)
            .call(scale, args, rule.span)
            .map_err(|e| {
                RunError::new(
                    Stop::NoVp,
                    format!(
                        "the VP scale `{}` gives no VP for a margin of {margin} IMP over {boards} boards: {}",
                        rule.name, e.message
                    ),
                )
                .at(Some(e.span))
            })?;
        // The scale's result is a record; its `winner` and `loser` are the VP.
        let field = |name: &str| match &v {
            Value::Record(r, fields) => self
                .program
                .records
                .get(*r as usize)
                .and_then(|i| i.fields.iter().position(|(n, _)| n == name))
                .and_then(|p| fields.get(p))
                .and_then(|v| match v {
                    Value::Num(n, _) => Some(*n),
                    _ => None,
                }),
            _ => None,
        };
        let (Some(w), Some(l)) = (field("winner"), field("loser")) else {
            return Err(RunError::new(
                Stop::Refused,
                format!(
                    "the VP scale `{}` must return a record with `winner` and `loser`",
                    rule.name
                ),
            )
            .at(Some(rule.span)));
        };
        Ok((w, l))
    }
}

/// Makes the better-ranked team of each pair the home team (AMB-23's reading for
/// Gröna Hissen), by the standings at the draw (`ranked`, the teams in their
/// order); before round 1 that is the edition's tie-break chain on equal scores.
fn home_is_better_ranked(pairing: &mut Round<u32>, ranked: &[u32]) {
    let place: BTreeMap<u32, usize> = ranked.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    for (home, away) in &mut pairing.pairs {
        if place.get(away) < place.get(home) {
            std::mem::swap(home, away);
        }
    }
}

/// Swiss Points, if this is their value: a ranking by a chain that holds them has
/// summed them already.
fn swiss_points_of(value: &CriterionValue<u32>) -> Option<Decimal> {
    match value {
        CriterionValue::SwissPoints(points) => Some(*points),
        _ => None,
    }
}

/// The report's name of an engine criterion.
pub(super) fn criterion(tie_break: TieBreak) -> Criterion {
    match tie_break {
        TieBreak::TotalVp => Criterion::TotalVp,
        TieBreak::SwissPoints => Criterion::SwissPoints,
        TieBreak::ImpQuotient => Criterion::ImpQuotient,
        TieBreak::LowerTeamId => Criterion::LowerTeamId,
    }
}
