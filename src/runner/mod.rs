//! Running a competition from the rules: the qualification's rounds, each
//! knockout stage's draw and matches, and the final places.
//!
//! The edition declares the structure ([`plan`]); the engine supplies the
//! primitives (Swiss pairing, standings, rankings, draws); a [`Source`] supplies
//! what happens at the table — simulated from a seed ([`simulate`]) or read from
//! an event file. A run goes as far as its source has results and says what
//! comes next.

mod awards;
mod knockout;
mod late;
mod meaning;
pub mod plan;
mod qualification;
mod ranking;
pub mod recorded;
pub mod report;
pub mod simulate;

use crate::engine::knockout::TeamId;
pub use crate::engine::knockout::absent::Arrival;
use crate::engine::knockout::ranking::RankingBook;
use crate::eval::Prepared;
use crate::ir::{self, Program};
use crate::source::Span;
use plan::{Plan, Target};
pub use recorded::{DrawAt, DrawProblem, Verdict};
use report::{Exit, Report, Standing, StoppedStage};
use rust_decimal::Decimal;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A round's or stage's draw: (home, away) in table order, and the bye.
pub type RoundDraw = (Vec<(u32, u32)>, Option<u32>);

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
    /// a match played in segments (CC-SEATING), if known. `allowed` holds every pair of
    /// picks the edition's rule allows, in order.
    fn segment_picks(
        &mut self,
        _stage: &str,
        _home: u32,
        _away: u32,
        _allowed: &[(u32, u32)],
    ) -> Option<(u32, u32)> {
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
    fn stage_drawn(&mut self, _stage: &str, _pairs: &[(u32, u32)], _bye: Option<u32>) {}
    /// A qualification round's draw as recorded (home, away in table order, and the
    /// bye), if the source records one: it stands instead of the draw the rules make.
    fn recorded_round_draw(&mut self, _round: u32) -> Option<RoundDraw> {
        None
    }
    /// A knockout stage's draw as recorded (home, away in table order, and the
    /// bye), if the source records one: it stands instead of the draw the rules make.
    fn recorded_stage_draw(&mut self, _stage: &str) -> Option<RoundDraw> {
        None
    }
    /// The runner's verdict on a recorded draw: refused (the run stops before it),
    /// different from the rules' draw, or the same.
    fn draw_verdict(&mut self, _at: DrawAt<'_>, _verdict: &Verdict) {}
    /// A stage's recorded draw stands, but does not pair these recorded choices
    /// (chooser, chosen) as they were chosen: they are not shown as made.
    fn choices_contradicted(&mut self, _stage: &str, _choices: &[(u32, u32)]) {}
    /// A stage's recorded draw stands with other teams than the rules place there
    /// from the results as they stand now: `drawn` play there although the rules
    /// now send them elsewhere; `displaced` go elsewhere although the rules now send
    /// them there, each with where it goes, in words ("goes to CC32", "is out").
    fn field_kept(&mut self, _stage: &str, _drawn: &[u32], _displaced: &[(u32, String)]) {}
}

/// Why a run stopped before the end: a coded problem, with the place in the edition
/// at fault where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// What kind of problem; it gives the code.
    pub kind: Stop,
    /// What happened, in words.
    pub message: String,
    /// The edition's item at fault: the competition, a stage, a rule; for
    /// [`Stop::NoVp`], where the scale failed. `None` when nothing in the edition is.
    pub at: Option<Span>,
    /// What the source gave that the run stopped at, where it was something it
    /// gave (a withdrawal, an absent captain): a source points its problem there.
    pub about: Option<About>,
    /// What to do, where this problem says more than its kind's help.
    pub help: Option<String>,
    /// The rule of the edition that gave what the run could not use, where
    /// that is not [`at`](Self::at) itself: a count of the field.
    pub rule: Option<Span>,
}

/// The source's entry a run stopped at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum About {
    /// Teams that withdrew at the draw of a stage.
    WithdrawnAtDraw(String),
    /// Teams that withdrew after the draw of a stage.
    WithdrawnAfterDraw(String),
    /// Absent captains at a stage's choice.
    Absent(String),
    /// Both teams of a stage's match withdrew after its draw.
    BothWithdrew {
        /// The stage.
        stage: String,
        /// The match's teams.
        teams: (u32, u32),
    },
    /// The result of a qualification round's match, by its teams.
    QualificationResult {
        /// The round.
        round: u32,
        /// The home team.
        home: u32,
        /// The away team.
        away: u32,
    },
}

/// The kinds of problem that stop a run, each with a stable code (docs/diagnostics.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// E0711: the edition has no competition (or rule) of the name the run was given.
    UnknownName,
    /// E0714: a rule of the edition the run calls fails or gives what the run cannot
    /// use, or the engine refuses an input.
    Refused,
    /// E0715: the VP scale gives no VP for a match (no table for its board count, no
    /// row for its margin).
    NoVp,
    /// E0716: the edition has no rule for a field of this size.
    FieldSize,
    /// E0717: a stage receives a different number of teams than it is declared for.
    StageSize,
    /// E0718: the document has no rule for what happened: a withdrawal, an absent
    /// captain, the seating of a match of this length.
    NoRule,
    /// E0719: the edition does not say what the run needs: a VP scale, a match's
    /// segments or who has their seating rights, where the late-withdrawal rules
    /// send teams.
    Incomplete,
}

impl Stop {
    /// The diagnostic code.
    pub fn code(self) -> &'static str {
        match self {
            Stop::UnknownName => "E0711",
            Stop::Refused => "E0714",
            Stop::NoVp => "E0715",
            Stop::FieldSize => "E0716",
            Stop::StageSize => "E0717",
            Stop::NoRule => "E0718",
            Stop::Incomplete => "E0719",
        }
    }
}

impl Stop {
    /// What a label at the edition's item at fault says.
    pub fn label(self) -> &'static str {
        match self {
            Stop::UnknownName => "no such name",
            Stop::Refused => "the run stopped here",
            Stop::NoVp => "the edition's VP scale gives no VP here",
            Stop::FieldSize => "this competition has no rule for a field of this size",
            Stop::StageSize => "declared for a different number of teams",
            Stop::NoRule => "the document has no rule for this case here",
            Stop::Incomplete => "the edition does not say what the run needs here",
        }
    }

    /// How to fix it, where there is something to say beyond the message.
    pub fn help(self) -> Option<&'static str> {
        match self {
            Stop::UnknownName => Some(
                "use a name the edition declares: `competition NAME` for a competition, a rule's name for `--scale`",
            ),
            Stop::Refused | Stop::NoVp => None,
            Stop::FieldSize => Some(
                "run the competition for a field it has rules for (`min_teams`, `max_teams`), or give the edition the rules for this field",
            ),
            Stop::StageSize => Some(
                "the places and the winners and losers routed into this stage must add up to its `teams`",
            ),
            Stop::NoRule => Some(
                "the document does not cover this case: when the organisers decide it, write their decision in the event file, or give the edition a reading for it",
            ),
            Stop::Incomplete => Some("complete the edition as the message says"),
        }
    }
}

impl RunError {
    /// A problem of `kind`, not tied to a place in the edition.
    pub fn new(kind: Stop, message: impl Into<String>) -> RunError {
        RunError {
            kind,
            message: message.into(),
            at: None,
            about: None,
            help: None,
            rule: None,
        }
    }

    /// The same problem, with its own help.
    pub fn with_help(mut self, help: impl Into<String>) -> RunError {
        self.help = Some(help.into());
        self
    }

    /// What to do: the problem's own help, else its kind's.
    pub fn help_text(&self) -> Option<String> {
        self.help
            .clone()
            .or_else(|| self.kind.help().map(str::to_string))
    }

    /// The same problem, about the source's entry `about`.
    pub fn about(mut self, about: About) -> RunError {
        self.about = Some(about);
        self
    }

    /// The same problem, at `span` in the edition (if known).
    pub fn at(mut self, span: Option<Span>) -> RunError {
        self.at = span.or(self.at);
        self
    }

    /// The diagnostic code.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The engine refused an input.
fn rule_err(e: impl std::fmt::Display) -> RunError {
    RunError::new(Stop::Refused, e.to_string())
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

/// Where a run stopped, if it did not reach the end: what it waits for, as data and
/// in words. In JSON, `{"next": words, "kind": …, …fields}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pending {
    /// What the run needs next, in words (made from `awaited`, for messages and
    /// JSON readers).
    pub next: String,
    /// What the run needs next.
    #[serde(flatten)]
    pub awaited: Awaited,
}

impl From<Awaited> for Pending {
    fn from(awaited: Awaited) -> Pending {
        Pending {
            next: awaited.to_string(),
            awaited,
        }
    }
}

/// What a run that stopped waits for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Awaited {
    /// The results of a qualification round.
    RoundResults {
        /// The qualification's title.
        title: String,
        /// The round.
        round: u32,
    },
    /// The result of a knockout match.
    MatchResult {
        /// The stage's title.
        title: String,
        /// The home team.
        home: u32,
        /// The away team.
        away: u32,
    },
    /// A captain's choice of opponent.
    Choice {
        /// The stage's title.
        title: String,
        /// The team whose turn it is.
        chooser: u32,
        /// The teams it chooses among, in position order.
        candidates: Vec<u32>,
    },
    /// Every captain's choice in the order made (a choice with absent captains).
    ChoicesInOrder {
        /// The stage's title.
        title: String,
    },
    /// A stage's draw as recorded, corrected: the one recorded breaks the rules.
    RecordedDraw {
        /// The stage's title.
        title: String,
    },
    /// Nothing the source can give: the run stopped on a problem (its code and words).
    Stopped {
        /// The problem's code.
        code: String,
        /// The problem, in words.
        message: String,
    },
}

impl Awaited {
    /// What is awaited, in words, each team named by `name` (`team 4`, or the
    /// name an event file gives it).
    pub fn words(&self, name: &dyn Fn(u32) -> String) -> String {
        match self {
            Awaited::RoundResults { title, round } => {
                format!("the results of {title} round {round}")
            }
            Awaited::MatchResult { title, home, away } => {
                format!("{title}: the result of {} v {}", name(*home), name(*away))
            }
            Awaited::Choice {
                title,
                chooser,
                candidates,
            } => {
                let among: Vec<String> = candidates.iter().map(|c| name(*c)).collect();
                format!(
                    "{title}: {} to choose among {}",
                    name(*chooser),
                    crate::diag::and_list(&among)
                )
            }
            Awaited::ChoicesInOrder { title } => {
                format!("{title}: the captains' choices, in the order made")
            }
            Awaited::RecordedDraw { title } => {
                format!("{title}: its draw as recorded, corrected to keep the rules")
            }
            Awaited::Stopped { code, message } => {
                format!("nothing more: the run stopped ({code}: {message})")
            }
        }
    }
}

impl std::fmt::Display for Awaited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&|t| format!("team {t}")))
    }
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
    let plan = plan::plan(program, name, teams).map_err(|e| {
        let at = program
            .competitions
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.span);
        RunError {
            rule: e.rule,
            ..RunError::new(e.kind, e.message).at(at)
        }
    })?;
    let prepared = Prepared::new(program);
    let (report, pending) = run_plan_prepared(program, &prepared, &plan, teams, options, source);
    match pending {
        Ok(pending) => Ok(Outcome { report, pending }),
        Err(stops) => Err(stops.first),
    }
}

/// Runs a competition already resolved for a field of `teams` (`plan::plan`).
pub fn run_plan(
    program: &Program,
    plan: &Plan,
    teams: u32,
    options: &Options,
    source: &mut dyn Source,
) -> Result<Outcome, RunError> {
    let (report, pending) = run_plan_partial(program, plan, teams, options, source);
    match pending {
        Ok(pending) => Ok(Outcome { report, pending }),
        Err(stops) => Err(stops.first),
    }
}

/// Every problem that stopped a run: one per stage the rules could not go on with,
/// in the document's order. Stages stopped independently each have their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stops {
    /// The first problem (a problem before any stage, or the first stage's).
    pub first: RunError,
    /// The problems of later stages that stopped independently of the first.
    pub more: Vec<RunError>,
}

impl Stops {
    /// Every problem, the first first.
    pub fn all(&self) -> impl Iterator<Item = &RunError> {
        std::iter::once(&self.first).chain(self.more.iter())
    }
}

impl From<RunError> for Stops {
    fn from(first: RunError) -> Stops {
        Stops {
            first,
            more: Vec::new(),
        }
    }
}

/// Runs a competition already resolved for a field of `teams`, and keeps the report
/// as far as it got even when a problem stops the run: what the stages not stopped
/// played, and every problem that stopped one.
pub fn run_plan_partial(
    program: &Program,
    plan: &Plan,
    teams: u32,
    options: &Options,
    source: &mut dyn Source,
) -> (Report, Result<Option<Pending>, Stops>) {
    let prepared = Prepared::new(program);
    run_plan_prepared(program, &prepared, plan, teams, options, source)
}

/// As [`run_plan_partial`], with the program's evaluation form already made
/// (`prepared` must have been made from `program`): every rule the run calls (the
/// VP scale, seating, trophy points) is evaluated with it.
pub fn run_plan_prepared(
    program: &Program,
    prepared: &Prepared,
    plan: &Plan,
    teams: u32,
    options: &Options,
    source: &mut dyn Source,
) -> (Report, Result<Option<Pending>, Stops>) {
    let mut runner = Runner {
        program,
        prepared,
        plan,
        options,
        report: Report {
            competition: plan.title.clone(),
            seed: options.seed,
            units: report::Units::named(
                &plan::ScoreUnits::of(program, plan, options.scale.as_deref()),
                plan.qualification.as_ref().map_or(Vec::new(), |q| {
                    q.labels
                        .iter()
                        .map(|(t, label)| (qualification::criterion(*t), label.clone()))
                        .collect()
                }),
            ),
            teams,
            notes: Vec::new(),
            qualification_played: plan.qualification.as_ref().map(|q| q.played.clone()),
            qualification_rounds: plan.qualification.as_ref().map(|q| q.rounds),
            rounds: Vec::new(),
            standings: Vec::new(),
            stages: Vec::new(),
            places: Vec::new(),
            district_prize: None,
            trophy_points: Vec::new(),
            trophy_players: Vec::new(),
            trophy_waiting: Vec::new(),
            stopped: Vec::new(),
        },
        boards_override: BTreeMap::new(),
        late_feeder: None,
        vp_given: RefCell::default(),
    };
    let pending = runner.go(teams, source);
    (runner.report, pending)
}

struct Runner<'a> {
    program: &'a Program,
    /// The program's evaluation form, made once for the run.
    prepared: &'a Prepared,
    plan: &'a Plan,
    options: &'a Options,
    report: Report,
    /// Match lengths the late-withdrawal rules set for a later stage.
    boards_override: BTreeMap<usize, Decimal>,
    /// The stage the late-withdrawal rules last rearranged: what its winners beat.
    late_feeder: Option<late::Feeder>,
    /// The VP each (scale, margin, boards) gave, so that a scale is evaluated once
    /// per distinct match score, not once per match.
    vp_given: RefCell<qualification::VpGiven>,
}

/// Teams waiting for a stage: (the feeding stage's order, team).
type Inflow = BTreeMap<usize, Vec<(u32, TeamId)>>;

/// The final standing of each team that has one so far.
type Finals = BTreeMap<TeamId, Standing>;

/// How far the stages got: what the first waiting stage waits for, the stages held
/// up behind a waiting one, and the stages stopped by a problem.
#[derive(Default)]
struct Progress {
    /// What the first stage that waits (in the document's order) waits for.
    first_pending: Option<Pending>,
    /// Stages fed by a stage that waits.
    held: BTreeSet<usize>,
    /// Stopped stages: the stage the problem was at, for each stage it stops.
    stopped: BTreeMap<usize, usize>,
    /// The problem of each stage a problem was at.
    errors: BTreeMap<usize, RunError>,
}

impl Runner<'_> {
    /// Plays the competition for teams `1..=teams`: the qualification, then the
    /// stages, then the final places once every stage is complete.
    fn go(&mut self, teams: u32, source: &mut dyn Source) -> Result<Option<Pending>, Stops> {
        self.check_field(teams)?;
        let ids: Vec<TeamId> = (1..=teams).map(TeamId).collect();
        let mut inflow: Inflow = BTreeMap::new();
        let mut finals: Finals = BTreeMap::new();
        let placements = match &self.plan.qualification {
            Some(q) => match self.qualify(q, &ids, &mut inflow, &mut finals, source)? {
                Ok(placements) => placements,
                Err(pending) => return Ok(Some(pending)),
            },
            None => {
                // Without a qualification, every team enters the first stage.
                inflow
                    .entry(0)
                    .or_default()
                    .extend(ids.iter().map(|t| (0, *t)));
                ids.iter().map(|t| (*t, t.0)).collect()
            }
        };
        let mut book =
            RankingBook::from_qualification(placements.iter().copied()).map_err(rule_err)?;
        let progress = self.play_stages(&mut book, &mut inflow, &mut finals, source);
        if !progress.errors.is_empty() {
            self.report.stopped = self.stopped_lines(&progress.stopped, &progress.errors);
            let mut all = progress.errors.into_values();
            if let Some(first) = all.next() {
                return Err(Stops {
                    first,
                    more: all.collect(),
                });
            }
        }
        if progress.first_pending.is_some() {
            return Ok(progress.first_pending);
        }
        self.report.places = self.final_ranking(&finals, &book)?;
        self.report.district_prize = self.district_prize(&finals, &placements);
        self.report.trophy_points = self.trophy_points(&finals)?;
        Ok(None)
    }

    /// Whether the edition has rules for a field of `teams`.
    fn check_field(&self, teams: u32) -> Result<(), RunError> {
        let name = &self.plan.name;
        let message = if teams < 2 {
            "a competition needs at least two teams".to_string()
        } else if let Some(min) = self.plan.min_teams.filter(|min| teams < *min) {
            format!("the edition has no rule for {teams} teams: `{name}` needs at least {min}")
        } else if let Some(max) = self.plan.max_teams.filter(|max| teams > *max) {
            format!("the edition has no rule for {teams} teams: `{name}` takes at most {max}")
        } else {
            return Ok(());
        };
        let error = RunError::new(Stop::FieldSize, message).at(self.competition_span());
        // Said in the help: the message is the same whatever else the edition
        // has, so `bfr diff --simulate` does not see a renamed neighbour as a
        // difference of this competition's events.
        Err(match self.neighbour_for(teams) {
            Some(other) => error.with_help(format!(
                "for {teams} teams the edition has `{}` ({}): run that competition",
                other.name, other.title
            )),
            None => error,
        })
    }

    /// The competition that takes up where this one's field ends and has rules
    /// for `teams` (SM Lag Veteran: `lv_series` to 16 teams, `lv_ko` from 17):
    /// one event the edition splits by the size of its field.
    fn neighbour_for(&self, teams: u32) -> Option<&crate::ir::Competition> {
        let (min, max) = (self.plan.min_teams, self.plan.max_teams);
        self.program.competitions.iter().find(|c| {
            let fits =
                c.min_teams.is_none_or(|m| teams >= m) && c.max_teams.is_none_or(|m| teams <= m);
            let above = max
                .zip(c.min_teams)
                .is_some_and(|(mine, theirs)| mine.checked_add(1) == Some(theirs));
            let below = min
                .zip(c.max_teams)
                .is_some_and(|(mine, theirs)| theirs.checked_add(1) == Some(mine));
            c.name != self.plan.name && fits && (above || below)
        })
    }

    /// Plays the stages in the document's order as far as their results go. One that
    /// waits holds up only the stages its teams go on to, so stages played at the same
    /// time take results independently. A stage the rules cannot go on with stops
    /// itself and every stage fed by it, directly or through others; the stages it
    /// does not feed are still played.
    fn play_stages(
        &mut self,
        book: &mut RankingBook,
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Progress {
        let mut progress = Progress::default();
        for k in 0..self.plan.stages.len() {
            if let Some(&at) = progress.stopped.get(&k) {
                for j in self.onward(k) {
                    progress.stopped.entry(j).or_insert(at);
                }
                continue;
            }
            if progress.held.contains(&k) {
                progress.held.extend(self.onward(k));
                continue;
            }
            let entrants = inflow.remove(&k).unwrap_or_default();
            if entrants.is_empty() {
                continue;
            }
            match self.stage(k, entrants, book, inflow, finals, source) {
                Ok(Some(p)) => {
                    progress.first_pending.get_or_insert(p);
                    progress.held.extend(self.onward(k));
                }
                Ok(None) => {}
                Err(e) => {
                    progress.stopped.insert(k, k);
                    for j in self.onward(k) {
                        progress.stopped.entry(j).or_insert(k);
                    }
                    progress.errors.insert(k, e);
                }
            }
        }
        progress
    }

    /// The stopped stages in the document's order, each with the stage whose problem
    /// stopped it and that problem. Every problem is also one of the run's errors.
    fn stopped_lines(
        &self,
        stopped: &BTreeMap<usize, usize>,
        errors: &BTreeMap<usize, RunError>,
    ) -> Vec<StoppedStage> {
        stopped
            .iter()
            .filter_map(|(k, at)| {
                let stage = self.plan.stages.get(*k)?;
                let by = self.plan.stages.get(*at)?;
                let e = errors.get(at)?;
                Some(StoppedStage {
                    name: stage.name.clone(),
                    title: stage.title.clone(),
                    at: by.name.clone(),
                    at_title: by.title.clone(),
                    code: e.code().to_string(),
                    message: e.message.clone(),
                })
            })
            .collect()
    }

    /// The stages stage `k` sends its winners or losers to.
    fn onward(&self, k: usize) -> Vec<usize> {
        self.plan.stages.get(k).map_or_else(Vec::new, |s| {
            [s.winners, s.losers]
                .into_iter()
                .filter_map(|t| match t {
                    Target::Stage(j) => Some(j),
                    _ => None,
                })
                .collect()
        })
    }

    /// The competition as the edition declares it.
    fn competition(&self) -> Option<&ir::Competition> {
        let name = &self.plan.name;
        self.program.competitions.iter().find(|c| c.name == *name)
    }

    /// Where the edition declares the competition.
    fn competition_span(&self) -> Option<Span> {
        self.competition().map(|c| c.span)
    }

    /// Where the edition declares the qualification.
    fn qualification_span(&self) -> Option<Span> {
        self.competition()
            .and_then(|c| c.qualification.as_ref())
            .map(|q| q.span)
    }

    /// Where the edition declares stage `name`.
    fn stage_span(&self, name: &str) -> Option<Span> {
        self.competition()
            .and_then(|c| c.stages.iter().find(|s| s.name == name))
            .map(|s| s.span)
    }

    /// Where the edition declares rule `rule`.
    fn rule_span(&self, rule: u32) -> Option<Span> {
        self.program.rules.get(rule as usize).map(|r| r.span)
    }

    /// Plays the qualification and sends each team on by its place; the places,
    /// or what the run waits for.
    fn qualify(
        &mut self,
        q: &plan::Qualification,
        ids: &[TeamId],
        inflow: &mut Inflow,
        finals: &mut Finals,
        source: &mut dyn Source,
    ) -> Result<Result<Vec<(TeamId, u32)>, Pending>, RunError> {
        let Some(order) = self.qualification(q, ids, source)? else {
            let round = u32::try_from(self.report.rounds.len() + 1).unwrap_or(u32::MAX);
            let title = q.title.clone();
            return Ok(Err(Awaited::RoundResults { title, round }.into()));
        };
        let from = Exit {
            order: 0,
            title: q.title.clone(),
        };
        let mut placed = Vec::new();
        let mut routes = Vec::new();
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
            routes.push((team.0, to));
        }
        // A stage drawn before a correction moved the places keeps its field.
        let drawn = self.drawn_fields(&routes, source);
        for kept in recorded::keep_drawn_fields(&mut routes, &drawn) {
            let displaced: Vec<(u32, String)> = kept
                .displaced
                .iter()
                .filter_map(|t| routes.iter().find(|(team, _)| team == t))
                .map(|(team, to)| (*team, self.destination(*to)))
                .collect();
            if let Some(stage) = self.plan.stages.get(kept.stage) {
                source.field_kept(&stage.name, &kept.drawn, &displaced);
            }
        }
        for (team, to) in routes {
            self.send(to, &from, TeamId(team), inflow, finals);
        }
        Ok(Ok(placed))
    }

    /// The teams of each recorded draw of a stage `routes` lead to, with its bye
    /// and those withdrawn at its draw.
    fn drawn_fields(
        &self,
        routes: &[(u32, Target)],
        source: &mut dyn Source,
    ) -> BTreeMap<usize, BTreeSet<u32>> {
        let stages: BTreeSet<usize> = routes
            .iter()
            .filter_map(|(_, to)| match to {
                Target::Stage(k) => Some(*k),
                _ => None,
            })
            .collect();
        let mut drawn = BTreeMap::new();
        for k in stages {
            let Some(stage) = self.plan.stages.get(k) else {
                continue;
            };
            if let Some((pairs, bye)) = source.recorded_stage_draw(&stage.name) {
                let teams = pairs
                    .iter()
                    .flat_map(|(a, b)| [*a, *b])
                    .chain(bye)
                    .chain(source.withdrawn_at_draw(&stage.name))
                    .collect();
                drawn.insert(k, teams);
            }
        }
        drawn
    }

    /// Where a team sent to `to` goes, in words: "goes to CC32", "is out",
    /// "takes place 9".
    fn destination(&self, to: Target) -> String {
        match to {
            Target::Stage(k) => self.plan.stages.get(k).map_or_else(
                || "goes to a later stage".to_string(),
                |s| format!("goes to {}", s.title),
            ),
            Target::Out => "is out".to_string(),
            Target::Place(a, b) if a == b => format!("takes place {a}"),
            Target::Place(a, b) => format!("shares places {a}–{b}"),
        }
    }

    /// Sends `team`, leaving `from`, to a stage, a final place or out.
    fn send(
        &self,
        to: Target,
        from: &Exit,
        team: TeamId,
        inflow: &mut Inflow,
        finals: &mut Finals,
    ) {
        match to {
            Target::Stage(k) => inflow.entry(k).or_default().push((from.order, team)),
            Target::Out => {
                finals.insert(team, Standing::Out(from.clone()));
            }
            Target::Place(first, last) => {
                finals.insert(team, Standing::Place { first, last });
            }
        }
    }
}
