//! Running a competition from the rules: the qualification's rounds, each
//! knockout stage's draw and matches, and the final places.
//!
//! The edition declares the structure ([`plan`]); the engine supplies the
//! primitives (Swiss pairing, standings, rankings, draws); a [`Source`] supplies
//! what happens at the table — simulated from a seed ([`simulate`]) or read from
//! an event file. A run goes as far as its source has results and says what
//! comes next.

mod late;
pub mod plan;
pub mod report;
pub mod simulate;

use crate::engine::knockout::TeamId;
pub use crate::engine::knockout::absent::Arrival;
use crate::engine::knockout::absent::{AbsentChoiceRules, run_choice_with_absentees};
use crate::engine::knockout::draw::{Pairing, brackets};
use crate::engine::knockout::outcome::{Decision, resolve_played, resolve_walkover};
use crate::engine::knockout::ranking::{Bracket, RankingBook, RankingRules};
use crate::engine::knockout::seating::home_and_away;
use crate::engine::knockout::withdrawal::{DrawWithdrawalRule, choice_positions};
use crate::engine::standings::{MatchResult, Standings};
use crate::engine::swiss::{SwissInput, draw_first_round, pair_round};
use crate::eval::Evaluator;
use crate::ir::{Program, Type, Unit, Value};
use plan::{DrawKind, Plan, Target};
use report::{FinalLine, KoMatch, KoStage, QualMatch, QualRound, Report, StandingLine};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet};

/// What happens at the tables.
pub trait Source {
    /// The IMPs of a qualification match (home, away), if known.
    fn qualification_result(
        &mut self,
        round: u32,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)>;
    /// The team `chooser` picks among `candidates` (in position order), if known.
    fn choice(&mut self, stage: &str, chooser: u32, candidates: &[u32]) -> Option<u32>;
    /// The IMPs of a knockout match (home, away), if known.
    fn knockout_result(
        &mut self,
        stage: &str,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)>;
    /// The boards a qualification match counts, when not the scheduled number (a fouled
    /// board cancelled: CC-FOULED).
    fn qualification_boards(&mut self, _round: u32, _home: u32, _away: u32) -> Option<Decimal> {
        None
    }
    /// VP deducted from teams in a qualification round (penalties), as (team, VP).
    fn qualification_deductions(&mut self, _round: u32) -> Vec<(u32, Decimal)> {
        Vec::new()
    }
    /// IMPs deducted from teams in a knockout stage (penalties), as (team, IMP).
    fn knockout_deductions(&mut self, _stage: &str) -> Vec<(u32, Decimal)> {
        Vec::new()
    }
    /// Teams that withdraw after the draw of a stage: their matches are walkovers.
    fn withdrawn_after_draw(&mut self, _stage: &str) -> Vec<u32> {
        Vec::new()
    }
    /// Teams that withdraw at the time of a stage's draw.
    fn withdrawn_at_draw(&mut self, _stage: &str) -> Vec<u32> {
        Vec::new()
    }
    /// The segments the home and then the away team pick for their seating rights in
    /// a match played in segments (CC-SEATING), if known.
    fn segment_picks(&mut self, _stage: &str, _home: u32, _away: u32) -> Option<(u32, u32)> {
        None
    }
    /// Choosing teams not present when a stage's choice begins, with when they arrive.
    fn absent_choosers(&mut self, _stage: &str) -> Vec<(u32, Arrival)> {
        Vec::new()
    }
    /// All captains' choices of a stage in the order made (needed when choosers are
    /// absent, since the order of turns then changes), if known.
    fn choices_in_order(&mut self, _stage: &str) -> Option<Vec<(u32, u32)>> {
        None
    }
    /// A qualification round has been drawn, as (home, away) in table order, before
    /// any of its results is asked for.
    fn round_drawn(&mut self, _round: u32, _pairs: &[(u32, u32)], _bye: Option<u32>) {}
    /// A knockout stage has been drawn, as (home, away) in table order, before any of
    /// its results is asked for.
    fn stage_drawn(&mut self, _stage: &str, _pairs: &[(u32, u32)]) {}
}

/// Why a run stopped before the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The edition cannot be run as declared.
    Plan(String),
    /// The rules or the engine refused an input.
    Rule(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Plan(m) | RunError::Rule(m) => f.write_str(m),
        }
    }
}

fn rule_err(e: impl std::fmt::Display) -> RunError {
    RunError::Rule(e.to_string())
}

/// Options of a run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The seed of the first round's draw (and of simulated results).
    pub seed: u64,
    /// A rule to use as the VP scale instead of the one the edition names.
    pub scale: Option<String>,
    /// Teams that start late (in the qualification's late-start round).
    pub late_starters: BTreeSet<u32>,
    /// District teams, which compete for the district prize.
    pub district_teams: BTreeSet<u32>,
}

/// Where a run stopped, if it did not reach the end.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Pending {
    /// What the run needs next, in words.
    pub next: String,
}

/// A run's result: what happened, and what comes next if it stopped.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Outcome {
    /// Everything played so far.
    pub report: Report,
    /// What is needed next; `None` when the competition is complete.
    pub pending: Option<Pending>,
}

/// Runs competition `name` of `program` for teams `1..=teams`.
pub fn run(
    program: &Program,
    name: &str,
    teams: u32,
    options: &Options,
    source: &mut dyn Source,
) -> Result<Outcome, RunError> {
    let plan = plan::plan(program, name, teams).map_err(|e| RunError::Plan(e.0))?;
    let mut runner = Runner {
        program,
        plan: &plan,
        options,
        report: Report {
            competition: plan.title.clone(),
            seed: options.seed,
            teams,
            notes: Vec::new(),
            rounds: Vec::new(),
            standings: Vec::new(),
            stages: Vec::new(),
            places: Vec::new(),
            district_prize: None,
            trophy_points: Vec::new(),
        },
        boards_override: BTreeMap::new(),
        late_feeder: None,
    };
    let pending = runner.go(teams, source)?;
    Ok(Outcome {
        report: runner.report,
        pending,
    })
}

struct Runner<'a> {
    program: &'a Program,
    plan: &'a Plan,
    options: &'a Options,
    report: Report,
    /// Match lengths the late-withdrawal rules set for a later stage.
    boards_override: BTreeMap<usize, Decimal>,
    /// The stage the late-withdrawal rules last rearranged: what its winners beat.
    late_feeder: Option<late::Feeder>,
}

/// Teams waiting for a stage: (the feeding stage's order, team).
type Inflow = BTreeMap<usize, Vec<(u32, TeamId)>>;

impl Runner<'_> {
    fn go(&mut self, teams: u32, source: &mut dyn Source) -> Result<Option<Pending>, RunError> {
        if teams < 2 {
            return Err(RunError::Plan(
                "a competition needs at least two teams".into(),
            ));
        }
        if let Some(min) = self.plan.min_teams
            && teams < min
        {
            return Err(RunError::Plan(format!(
                "the edition has no rule for {teams} teams: `{}` needs at least {min}",
                self.plan.name
            )));
        }
        if let Some(max) = self.plan.max_teams
            && teams > max
        {
            return Err(RunError::Plan(format!(
                "the edition has no rule for {teams} teams: `{}` takes at most {max}",
                self.plan.name
            )));
        }
        let ids: Vec<TeamId> = (1..=teams).map(TeamId).collect();
        let mut inflow: Inflow = BTreeMap::new();
        let mut finals: BTreeMap<TeamId, String> = BTreeMap::new();
        let placements: Vec<(TeamId, u32)> = match &self.plan.qualification {
            Some(q) => {
                let Some(order) = self.qualification(q, &ids, source)? else {
                    let next = format!(
                        "the results of {} round {}",
                        q.title,
                        self.report.rounds.len() + 1
                    );
                    return Ok(Some(Pending { next }));
                };
                let mut placed = Vec::new();
                for (i, team) in order.iter().enumerate() {
                    let place = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    placed.push((*team, place));
                    let to = q
                        .places
                        .iter()
                        .find(|(a, b, _)| *a <= place && place <= *b)
                        .map_or(q.rest, |(a, b, t)| match *t {
                            // `places 1..16 -> place 1..16`: each keeps its own place.
                            Target::Place(c, d) if d - c == b - a => {
                                Target::Place(c + place - a, c + place - a)
                            }
                            other => other,
                        });
                    self.send(to, 0, *team, &mut inflow, &mut finals, &q.title);
                }
                placed
            }
            None => ids.iter().map(|t| (*t, t.0)).collect(),
        };
        // Without a qualification, every team enters the first stage.
        if self.plan.qualification.is_none() {
            for (team, _) in &placements {
                inflow.entry(0).or_default().push((0, *team));
            }
        }
        let mut book =
            RankingBook::from_qualification(placements.iter().copied()).map_err(rule_err)?;
        let rules = self.plan.ranking;
        for k in 0..self.plan.stages.len() {
            let entrants = inflow.remove(&k).unwrap_or_default();
            if entrants.is_empty() {
                continue;
            }
            if let Some(p) = self.stage(
                k,
                entrants,
                &mut book,
                &rules,
                &mut inflow,
                &mut finals,
                source,
            )? {
                return Ok(Some(p));
            }
        }
        self.report.places = final_lines(&finals);
        self.report.district_prize = self.district_prize(&finals, &placements);
        self.report.trophy_points = self.trophy_points(&finals)?;
        Ok(None)
    }

    fn send(
        &self,
        to: Target,
        from_order: u32,
        team: TeamId,
        inflow: &mut Inflow,
        finals: &mut BTreeMap<TeamId, String>,
        at: &str,
    ) {
        match to {
            Target::Stage(k) => inflow.entry(k).or_default().push((from_order, team)),
            Target::Out => {
                finals.insert(team, format!("out at {at}"));
            }
            Target::Place(a, b) if a == b => {
                finals.insert(team, a.to_string());
            }
            Target::Place(a, b) => {
                finals.insert(team, format!("{a}/{b}"));
            }
        }
    }

    /// Plays the qualification; returns the final order, or `None` when results run out.
    fn qualification(
        &mut self,
        q: &plan::Qualification,
        ids: &[TeamId],
        source: &mut dyn Source,
    ) -> Result<Option<Vec<TeamId>>, RunError> {
        let scale = match &self.options.scale {
            Some(name) => Some(self.program.rule(name).map(|(i, _)| i).ok_or_else(|| {
                RunError::Plan(format!(
                    "the edition has no rule `{name}` to use as the VP scale"
                ))
            })?),
            None => q.scale,
        };
        if let Some(name) = &self.options.scale {
            let named = q
                .scale
                .and_then(|i| self.program.rules.get(i as usize))
                .map_or("none".to_string(), |r| format!("`{}`", r.name));
            self.report.notes.push(format!(
                "VP by `{name}` instead of the edition's scale ({named}); the bye score and the late starters' carry-over are the edition's figures"
            ));
        }
        let scale = scale.ok_or_else(|| {
            RunError::Plan(format!(
                "`{}` names no VP scale (`vp_scale = RULE`); give one with --scale",
                q.name
            ))
        })?;
        let team_ids: Vec<u32> = ids.iter().map(|t| t.0).collect();
        let mut standings = Standings::new(team_ids.iter().copied()).map_err(rule_err)?;
        let mut played: Vec<(u32, u32)> = Vec::new();
        let mut had_bye: Vec<u32> = Vec::new();
        let late: Vec<u32> = team_ids
            .iter()
            .copied()
            .filter(|t| self.options.late_starters.contains(t))
            .collect();
        let (late_round, carry) = q.late_start.unwrap_or((1, Decimal::ZERO));
        for round in 1..=q.rounds {
            let not_playing: Vec<u32> = if round < late_round {
                late.clone()
            } else {
                Vec::new()
            };
            if round == late_round {
                for t in &late {
                    standings.adjust(t, carry).map_err(rule_err)?;
                }
            }
            let pairing = if q.format == plan::QualFormat::RoundRobin {
                // The schedule is fixed in advance; the seed draws the seats.
                let mut seats = team_ids.clone();
                crate::engine::rng::SplitMix64::new(self.options.seed).shuffle(&mut seats);
                let r = crate::engine::round_robin::schedule(&seats)
                    .into_iter()
                    .nth(usize::try_from(round - 1).unwrap_or(usize::MAX))
                    .ok_or_else(|| {
                        RunError::Rule(format!("round {round} is not in the schedule"))
                    })?;
                crate::engine::swiss::Round {
                    pairs: r.pairs,
                    bye: r.bye,
                }
            } else if round == 1 {
                let playing: Vec<u32> = team_ids
                    .iter()
                    .copied()
                    .filter(|t| !not_playing.contains(t))
                    .collect();
                draw_first_round(&playing, self.options.seed).map_err(rule_err)?
            } else {
                let ranked: Vec<u32> = standings
                    .rank(&q.tie_break)
                    .map_err(rule_err)?
                    .into_iter()
                    .map(|r| r.team)
                    .collect();
                pair_round(&SwissInput {
                    ranking: &ranked,
                    played: &played,
                    had_bye: &had_bye,
                    not_playing: &not_playing,
                    later_rounds: 0,
                })
                .map_err(rule_err)?
            };
            source.round_drawn(round, &pairing.pairs, pairing.bye);
            let mut matches = Vec::new();
            for (table, (home, away)) in pairing.pairs.iter().enumerate() {
                let Some((hi, ai)) = source.qualification_result(round, *home, *away, q.boards)
                else {
                    return Ok(None);
                };
                // A match with a cancelled board counts as one board shorter (CC-FOULED).
                let boards = source
                    .qualification_boards(round, *home, *away)
                    .unwrap_or(q.boards);
                let (hv, av) = self.vp(scale, hi, ai, boards)?;
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
                played.push((*home, *away));
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
            for (team, vp) in source.qualification_deductions(round) {
                standings.adjust(&team, -vp).map_err(rule_err)?;
            }
            if let Some(b) = pairing.bye {
                standings
                    .record_bye(&b, q.bye_score, Decimal::ZERO, Decimal::ZERO)
                    .map_err(rule_err)?;
                had_bye.push(b);
            }
            self.report.rounds.push(QualRound {
                round,
                matches,
                bye: pairing.bye,
            });
        }
        let ranked = standings.rank(&q.tie_break).map_err(rule_err)?;
        let mut order = Vec::new();
        for r in &ranked {
            let rec = standings.record(&r.team);
            let vp = rec
                .map(|x| x.total_vp())
                .transpose()
                .map_err(rule_err)?
                .unwrap_or_default();
            self.report.standings.push(StandingLine {
                place: r.place,
                team: r.team,
                vp,
                swiss_points: standings.swiss_points(&r.team).map_err(rule_err)?,
                imps_won: rec.map_or(Decimal::ZERO, |x| x.imps_won),
                imps_lost: rec.map_or(Decimal::ZERO, |x| x.imps_lost),
                // Only a tie-break is worth a word: the first criterion decides most rows.
                decided_by: r
                    .decided_by
                    .filter(|i| *i > 0)
                    .and_then(|i| q.tie_break.get(i))
                    .map(|t| format!("{t:?}")),
            });
            order.push(TeamId(r.team));
        }
        Ok(Some(order))
    }

    /// VP for a match from the edition's scale: the rule takes the margin (and the
    /// number of boards, if it has a second parameter) and returns a record with
    /// `winner` and `loser` VP.
    fn vp(
        &self,
        scale: u32,
        home: Decimal,
        away: Decimal,
        boards: Decimal,
    ) -> Result<(Decimal, Decimal), RunError> {
        let rule = self
            .program
            .rules
            .get(scale as usize)
            .ok_or_else(|| RunError::Plan("unknown scale".into()))?;
        let unit = |i: usize| match rule.params.get(i) {
            Some((_, Type::Num(u))) => u.clone(),
            _ => Unit::none(),
        };
        let margin = home
            .checked_sub(away)
            .ok_or_else(|| RunError::Rule("an IMP score is too large".into()))?
            .abs();
        let mut args = vec![Value::Num(margin, unit(0))];
        if rule.params.len() > 1 {
            args.push(Value::Num(boards, unit(1)));
        }
        let v = Evaluator::new(self.program)
            .call(scale, args, rule.span)
            .map_err(|e| {
                RunError::Rule(format!(
                    "the VP scale `{}` gives no VP: {}",
                    rule.name, e.message
                ))
            })?;
        let Value::Record(r, fields) = v else {
            return Err(RunError::Plan(format!(
                "the VP scale `{}` must return a record with `winner` and `loser`",
                rule.name
            )));
        };
        let info = self.program.records.get(r as usize);
        let field = |name: &str| {
            info.and_then(|i| i.fields.iter().position(|(n, _)| n == name))
                .and_then(|p| fields.get(p))
                .and_then(|v| match v {
                    Value::Num(n, _) => Some(*n),
                    _ => None,
                })
        };
        let (Some(w), Some(l)) = (field("winner"), field("loser")) else {
            return Err(RunError::Plan(format!(
                "the VP scale `{}` must return a record with `winner` and `loser`",
                rule.name
            )));
        };
        Ok(if home >= away { (w, l) } else { (l, w) })
    }

    #[allow(clippy::too_many_arguments)]
    fn stage(
        &mut self,
        k: usize,
        entrants: Vec<(u32, TeamId)>,
        book: &mut RankingBook,
        rules: &RankingRules,
        inflow: &mut Inflow,
        finals: &mut BTreeMap<TeamId, String>,
        source: &mut dyn Source,
    ) -> Result<Option<Pending>, RunError> {
        let Some(stage) = self.plan.stages.get(k) else {
            return Ok(None);
        };
        // Positions by origin (the feeding stage's order), each group by ranking.
        let mut groups: BTreeMap<u32, Vec<TeamId>> = BTreeMap::new();
        for (from, team) in &entrants {
            groups.entry(*from).or_default().push(*team);
        }
        let first_group = groups.values().next().map_or(0, Vec::len);
        let mut positions = Vec::new();
        for (_, teams) in groups {
            positions.extend(book.sort(&teams, self.plan.ranking.tie).map_err(rule_err)?);
        }
        // Teams that withdrew earlier are missing here; any other shortfall is an error.
        let withdrawn_earlier = finals
            .values()
            .filter(|s| s.starts_with("withdrew"))
            .count();
        if let Some(n) = stage.teams
            && usize::try_from(n).ok() != Some(positions.len())
            && usize::try_from(n).ok() != Some(positions.len() + withdrawn_earlier)
        {
            return Err(RunError::Rule(format!(
                "stage `{}` is declared for {n} teams but {} arrived",
                stage.name,
                positions.len()
            )));
        }
        // Withdrawals at the time of the draw: where the stage chooses by ranking, the
        // next team moves up (BC-DRAWS); elsewhere the document has no rule (AMB-10).
        let at_draw: BTreeSet<TeamId> = source
            .withdrawn_at_draw(&stage.name)
            .into_iter()
            .map(TeamId)
            .collect();
        let boards = self
            .boards_override
            .get(&k)
            .copied()
            .unwrap_or(stage.boards);
        let specific = stage.late_withdrawal
            == Some(crate::engine::knockout::late_withdrawal::LateWithdrawalReading::SpecificRule);
        let late_rules = specific && !at_draw.is_empty();
        // Case C needs to know whom this stage's winners beat, whether or not case A
        // or B rearranged it.
        if specific
            && !late_rules
            && let plan::Target::Stage(next) = stage.winners
        {
            self.late_feeder = Some(late::Feeder {
                stage: k,
                next,
                played: true,
                beaten: BTreeMap::new(),
                shared: late::place_label(stage.losers),
            });
        }
        let mut choices = Vec::new();
        // CC-WITHDRAW C: a team that won the rearranged stage withdraws at this draw;
        // the team it beat takes its place.
        let at_draw = match &self.late_feeder {
            Some(f) if f.next == k && !at_draw.is_empty() => {
                late::replace_withdrawn_winners(f, &mut positions, &at_draw, finals, &stage.title)?;
                BTreeSet::new()
            }
            _ => at_draw,
        };
        if !at_draw.is_empty() && stage.draw != DrawKind::RankedChoice {
            return Err(RunError::Rule(format!(
                "the document has no rule for a withdrawal at the draw of {}",
                stage.title
            )));
        }
        if !late_rules {
            for t in &at_draw {
                finals.insert(*t, format!("withdrew at {}", stage.title));
            }
        }
        let absent = source.absent_choosers(&stage.name);
        let outcome = if late_rules {
            // CC-WITHDRAW A and B: the specific rules rearrange this stage and the next.
            match self.late_draw(k, &positions, first_group, &at_draw, inflow, finals, source)? {
                Ok((outcome, made)) => {
                    choices = made;
                    outcome
                }
                Err(pending) => return Ok(Some(pending)),
            }
        } else {
            match stage.draw {
                DrawKind::Brackets | DrawKind::Fixed => {
                    // A team short because of a withdrawal: the best position goes
                    // through without a match, the rest meet as usual.
                    let (byes, rest) = if positions.len() % 2 == 1 && withdrawn_earlier > 0 {
                        positions.split_at(1)
                    } else {
                        positions.split_at(0)
                    };
                    crate::engine::knockout::DrawOutcome {
                        pairings: if rest.is_empty() {
                            Vec::new()
                        } else {
                            brackets(rest).map_err(rule_err)?
                        },
                        byes: byes.to_vec(),
                    }
                }
                DrawKind::Choice if !absent.is_empty() => {
                    // Absent captains lose their turn (CC-ABSENT); the choices come in the
                    // order they were made.
                    let (upper, lower) = crate::engine::knockout::draw::split_halves(&positions)
                        .map_err(rule_err)?;
                    let Some(made) = source.choices_in_order(&stage.name) else {
                        return Ok(Some(Pending {
                            next: format!(
                                "{}: the captains' choices, in the order made",
                                stage.title
                            ),
                        }));
                    };
                    let arrivals = absent.into_iter().map(|(t, a)| (TeamId(t), a)).collect();
                    let made: Vec<(TeamId, TeamId)> = made
                        .into_iter()
                        .map(|(a, b)| (TeamId(a), TeamId(b)))
                        .collect();
                    choices = made.iter().map(|(a, b)| (a.0, b.0)).collect();
                    match run_choice_with_absentees(
                        &upper,
                        &lower,
                        &arrivals,
                        &made,
                        book,
                        &AbsentChoiceRules {
                            numbering: self.plan.table_numbers,
                            ..AbsentChoiceRules::default()
                        },
                    ) {
                        Ok(outcome) => outcome,
                        // Not every choice is in yet: that is what comes next.
                        Err(crate::engine::knockout::KnockoutError::ChoiceIncomplete(team)) => {
                            return Ok(Some(Pending {
                                next: format!("{}: team {} to choose", stage.title, team.0),
                            }));
                        }
                        Err(e) => return Err(rule_err(e)),
                    }
                }
                DrawKind::Choice | DrawKind::RankedChoice => {
                    if stage.draw == DrawKind::RankedChoice && !absent.is_empty() {
                        return Err(RunError::Rule(format!(
                            "absent captains are not covered at {} (AMB-19)",
                            stage.title
                        )));
                    }
                    let half = positions.len().div_ceil(2);
                    let split =
                        choice_positions(&positions, half, &at_draw, DrawWithdrawalRule::MoveUp)
                            .map_err(rule_err)?;
                    match self.choose(
                        &stage.name,
                        &stage.title,
                        split.choosers,
                        split.candidates,
                        source,
                    )? {
                        Ok((outcome, made)) => {
                            choices = made;
                            outcome
                        }
                        Err(pending) => return Ok(Some(pending)),
                    }
                }
            }
        };
        let boards = self.boards_override.get(&k).copied().unwrap_or(boards);
        // A chooser left without an opponent goes through without a match and takes
        // over no ranking (AMB-7, AMB-9).
        for team in &outcome.byes {
            self.send(
                stage.winners,
                stage.order,
                *team,
                inflow,
                finals,
                &stage.title,
            );
        }
        let byes = outcome.byes;
        let pairings: Vec<Pairing> = outcome.pairings;
        let drawn = pairings
            .iter()
            .map(|p| home_and_away(p, book, stage.home).map(|s| (s.home.0, s.away.0)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(rule_err)?;
        source.stage_drawn(&stage.name, &drawn);
        let mut matches = Vec::new();
        let bracket = Bracket::Main;
        let withdrawn: BTreeSet<TeamId> = source
            .withdrawn_after_draw(&stage.name)
            .into_iter()
            .map(TeamId)
            .collect();
        if !withdrawn.is_empty() && !stage.walkovers {
            return Err(RunError::Rule(format!(
                "the document has no rule for a withdrawal after the draw of {}",
                stage.title
            )));
        }
        let deductions = source.knockout_deductions(&stage.name);
        let deducted = |team: u32, imps: Decimal| {
            deductions
                .iter()
                .filter(|(t, _)| *t == team)
                .fold(imps, |acc, (_, d)| acc.saturating_sub(*d))
        };
        for p in &pairings {
            let sides = home_and_away(p, book, stage.home).map_err(rule_err)?;
            let (hr, ar) = (
                book.ranking(sides.home).map_err(rule_err)?,
                book.ranking(sides.away).map_err(rule_err)?,
            );
            // A withdrawal after the draw is a walkover; otherwise the match is played.
            let walkover =
                resolve_walkover(sides.home, sides.away, &withdrawn).map_err(rule_err)?;
            let (outcome, hi, ai) = match walkover {
                Some(w) => (w, Decimal::ZERO, Decimal::ZERO),
                None => {
                    let Some((hi, ai)) =
                        source.knockout_result(&stage.name, sides.home.0, sides.away.0, boards)
                    else {
                        return Ok(Some(Pending {
                            next: format!(
                                "{}: the result of team {} v team {}",
                                stage.title, sides.home.0, sides.away.0
                            ),
                        }));
                    };
                    // Penalties come off the IMP totals before the winner is decided.
                    let (hi, ai) = (deducted(sides.home.0, hi), deducted(sides.away.0, ai));
                    let o = resolve_played(
                        (sides.home, hi),
                        (sides.away, ai),
                        book,
                        self.plan.knockout_tie,
                    )
                    .map_err(rule_err)?;
                    (o, hi, ai)
                }
            };
            book.record(bracket, &outcome, rules).map_err(rule_err)?;
            if let Some(f) = &mut self.late_feeder
                && f.stage == k
            {
                f.beaten.insert(outcome.winner, outcome.loser);
            }
            self.send(
                stage.winners,
                stage.order,
                outcome.winner,
                inflow,
                finals,
                &stage.title,
            );
            // A team that withdrew is out where it withdrew; it plays on nowhere.
            if withdrawn.contains(&outcome.loser) {
                finals.insert(outcome.loser, format!("withdrew at {}", stage.title));
            } else {
                self.send(
                    stage.losers,
                    stage.order,
                    outcome.loser,
                    inflow,
                    finals,
                    &stage.title,
                );
            }
            matches.push(KoMatch {
                table: p.table,
                home: sides.home.0,
                away: sides.away.0,
                home_ranking: hr,
                away_ranking: ar,
                home_imps: hi,
                away_imps: ai,
                winner: outcome.winner.0,
                seating: self.seating(stage, sides, boards, source)?,
                decided_by: match outcome.decision {
                    Decision::Imps => "imps".into(),
                    Decision::TieBreak => "tie-break".into(),
                    Decision::Walkover => "walkover".into(),
                },
            });
        }
        self.report.stages.push(KoStage {
            name: stage.name.clone(),
            title: stage.title.clone(),
            order: stage.order,
            boards,
            draw: format!("{:?}", stage.draw).to_lowercase(),
            choices,
            positions: positions.iter().map(|t| t.0).collect(),
            withdrawn: at_draw.iter().map(|t| t.0).collect(),
            byes: byes.iter().map(|t| t.0).collect(),
            matches,
        });
        Ok(None)
    }
}

impl Runner<'_> {
    /// The district team that got furthest: a final place beats any exit, a better
    /// place a worse one, a later exit an earlier one; equal reach goes to the better
    /// qualification place (CC-DISTRICT).
    fn district_prize(
        &self,
        finals: &BTreeMap<TeamId, String>,
        placements: &[(TeamId, u32)],
    ) -> Option<(u32, String)> {
        let prize = self.plan.district_prize.clone()?;
        let exit_order: BTreeMap<String, u32> = self
            .plan
            .stages
            .iter()
            .flat_map(|s| {
                [
                    (format!("out at {}", s.title), s.order),
                    (format!("withdrew at {}", s.title), s.order),
                ]
            })
            .collect();
        let reach = |team: TeamId| -> (u32, u32) {
            let standing = finals.get(&team).map_or("", String::as_str);
            match standing
                .split('/')
                .next()
                .and_then(|p| p.parse::<u32>().ok())
            {
                Some(place) => (0, place),
                None => (1, u32::MAX - exit_order.get(standing).copied().unwrap_or(0)),
            }
        };
        let gh = |team: TeamId| {
            placements
                .iter()
                .find(|(t, _)| *t == team)
                .map_or(u32::MAX, |(_, p)| *p)
        };
        self.options
            .district_teams
            .iter()
            .map(|t| TeamId(*t))
            .min_by_key(|t| (reach(*t), gh(*t), t.0))
            .map(|t| (t.0, prize))
    }

    /// Challenge-trophy points of each team with a final place of its own, from the
    /// edition's rule; a team whose place earns nothing is left out.
    fn trophy_points(
        &self,
        finals: &BTreeMap<TeamId, String>,
    ) -> Result<Vec<(u32, String)>, RunError> {
        let Some(rule) = self.plan.trophy_points else {
            return Ok(Vec::new());
        };
        let unit = match self
            .program
            .rules
            .get(rule as usize)
            .and_then(|r| r.params.first())
        {
            Some((_, Type::Num(u))) => u.clone(),
            _ => Unit::none(),
        };
        let mut out = Vec::new();
        for (team, standing) in finals {
            let Ok(place) = standing.parse::<u32>() else {
                continue;
            };
            let v = Evaluator::new(self.program)
                .call(
                    rule,
                    vec![Value::Num(Decimal::from(place), unit.clone())],
                    Default::default(),
                )
                .map_err(|e| {
                    RunError::Rule(format!("trophy points for place {place}: {}", e.message))
                })?;
            if matches!(&v, Value::Num(n, _) if n.is_zero()) {
                continue;
            }
            out.push((team.0, v.show(self.program)));
        }
        out.sort_by_key(|(t, _)| finals.get(&TeamId(*t)).and_then(|s| s.parse::<u32>().ok()));
        Ok(out)
    }

    /// Seating for a match: the away team sits first, or the segments' seating
    /// rights from the teams' picks (CC-SEATING; the rule, not the document's
    /// contradicting example, AMB-30).
    fn seating(
        &self,
        stage: &plan::Stage,
        sides: crate::engine::knockout::seating::Sides,
        boards: Decimal,
        source: &mut dyn Source,
    ) -> Result<Option<String>, RunError> {
        // A rule of the match length decides per match: a 64-board play-off that the
        // late-withdrawal rules made is seated by segments (AMB-12).
        let method = match stage.seating {
            None => None,
            Some(plan::SeatingSource::Fixed(m)) => Some(m),
            Some(plan::SeatingSource::Rule(rule)) => {
                let info = self.program.rules.get(rule as usize);
                let unit = match info.and_then(|r| r.params.first()) {
                    Some((_, Type::Num(u))) => u.clone(),
                    _ => Unit::none(),
                };
                let v = Evaluator::new(self.program)
                    .call(rule, vec![Value::Num(boards, unit)], Default::default())
                    .map_err(|e| {
                        RunError::Rule(format!(
                            "the document has no seating rule for a match of {} boards: {}",
                            boards.normalize(),
                            e.message
                        ))
                    })?;
                let name = match &v {
                    Value::Enum(e, i) => self
                        .program
                        .enums
                        .get(*e as usize)
                        .and_then(|x| x.variants.get(*i as usize))
                        .cloned()
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let Some((_, m)) = plan::SEATING_NAMES.iter().find(|(n, _)| *n == name) else {
                    return Err(RunError::Plan(format!(
                        "the seating rule gives `{name}`; the engine knows AwayFirst and SegmentChoice"
                    )));
                };
                Some(*m)
            }
        };
        Ok(match method {
            None => None,
            Some(plan::Seating::AwayFirst) => {
                Some(format!("team {} (away) sits first", sides.away.0))
            }
            Some(plan::Seating::SegmentChoice) => {
                match source.segment_picks(&stage.name, sides.home.0, sides.away.0) {
                    None => Some("segments: to be picked".into()),
                    Some((home_pick, away_pick)) => {
                        let rights = crate::engine::knockout::seating::assign_segments(
                            sides,
                            [[1, 2], [3, 4]],
                            home_pick,
                            away_pick,
                        )
                        .map_err(rule_err)?;
                        let parts: Vec<String> = rights
                            .iter()
                            .map(|(seg, team)| format!("{seg}: team {}", team.0))
                            .collect();
                        Some(format!("seating rights by segment {}", parts.join(", ")))
                    }
                }
            }
        })
    }
}

/// Places first (1, 2, 3, 4, 5/6 …), then exits by team.
fn final_lines(finals: &BTreeMap<TeamId, String>) -> Vec<FinalLine> {
    let mut lines: Vec<FinalLine> = finals
        .iter()
        .map(|(t, s)| FinalLine {
            standing: s.clone(),
            team: t.0,
        })
        .collect();
    let key = |l: &FinalLine| {
        let first: Option<u32> = l.standing.split('/').next().and_then(|x| x.parse().ok());
        (first.is_none(), first.unwrap_or(u32::MAX), l.team)
    };
    lines.sort_by_key(key);
    lines
}
