//! What a run produces: every round, draw, result and the final places, as typed
//! data. `--format json` is its serde form; the terminal tables are drawn from it by
//! the command line (`cli::render`).

// How a tie in IMPs was broken, as a knockout match reports it.
pub use crate::engine::knockout::{Placement, TiePlaces};
use crate::ir::vocabulary::{DrawMethod, Meaning};
use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

/// One qualification match.
#[derive(Debug, Clone, Serialize)]
pub struct QualMatch {
    /// Table number.
    pub table: usize,
    /// Home team id.
    pub home: u32,
    /// Away team id.
    pub away: u32,
    /// IMPs of the home team.
    #[serde(with = "rust_decimal::serde::float")]
    pub home_imps: Decimal,
    /// IMPs of the away team.
    #[serde(with = "rust_decimal::serde::float")]
    pub away_imps: Decimal,
    /// VP of the home team.
    #[serde(with = "rust_decimal::serde::float")]
    pub home_vp: Decimal,
    /// VP of the away team.
    #[serde(with = "rust_decimal::serde::float")]
    pub away_vp: Decimal,
}

/// One qualification round.
#[derive(Debug, Clone, Serialize)]
pub struct QualRound {
    /// Round number.
    pub round: u32,
    /// The matches.
    pub matches: Vec<QualMatch>,
    /// The team with the bye.
    pub bye: Option<u32>,
    /// The standings after this round (deductions and the bye included).
    pub standings: Vec<StandingLine>,
}

/// One line of the qualification standings.
#[derive(Debug, Clone, Serialize)]
pub struct StandingLine {
    /// Place.
    pub place: usize,
    /// Team id.
    pub team: u32,
    /// Total VP, adjustments and carry-over included.
    #[serde(with = "rust_decimal::serde::float")]
    pub vp: Decimal,
    /// Swiss points.
    #[serde(with = "rust_decimal::serde::float")]
    pub swiss_points: Decimal,
    /// IMPs won.
    #[serde(with = "rust_decimal::serde::float")]
    pub imps_won: Decimal,
    /// IMPs lost.
    #[serde(with = "rust_decimal::serde::float")]
    pub imps_lost: Decimal,
    /// The tie-break criterion that put the team below the one above it, when the
    /// first criterion did not.
    pub decided_by: Option<Criterion>,
    /// For a late starter that has not played yet, the round it starts in (its
    /// carry-over comes then): its place until then is not a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_in_round: Option<u32>,
}

/// One knockout match.
#[derive(Debug, Clone, Serialize)]
pub struct KoMatch {
    /// Table number.
    pub table: u32,
    /// Home team (the better ranking).
    pub home: u32,
    /// Away team.
    pub away: u32,
    /// The home team's ranking before the match.
    pub home_ranking: u32,
    /// The away team's ranking before the match.
    pub away_ranking: u32,
    /// IMPs of the home team.
    #[serde(with = "rust_decimal::serde::float")]
    pub home_imps: Decimal,
    /// IMPs of the away team.
    #[serde(with = "rust_decimal::serde::float")]
    pub away_imps: Decimal,
    /// The winner.
    pub winner: u32,
    /// How the match was decided.
    pub decided_by: Decided,
    /// For a tie in IMPs, the placements that decided it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<TiePlaces>,
    /// Who takes their seats first, or who has seating rights in each segment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seating: Option<MatchSeating>,
}

/// One knockout stage.
#[derive(Debug, Clone, Serialize)]
pub struct KoStage {
    /// Its name in the edition.
    pub name: String,
    /// Its title.
    pub title: String,
    /// Its number in the document.
    pub order: u32,
    /// Boards per match.
    #[serde(with = "rust_decimal::serde::float")]
    pub boards: Decimal,
    /// How it was drawn (in JSON, the meaning's name in lower case: `brackets`,
    /// `choice`, `rankedchoice`, `fixed`).
    #[serde(serialize_with = "lower_case_name")]
    pub draw: DrawMethod,
    /// The teams in position order (by origin, then ranking), before withdrawals.
    pub positions: Vec<u32>,
    /// Teams that withdrew at the draw.
    pub withdrawn: Vec<u32>,
    /// Teams that went through without a match.
    pub byes: Vec<u32>,
    /// Choices in the order made: (chooser, chosen).
    pub choices: Vec<(u32, u32)>,
    /// Choices the event file records that the stage's recorded draw contradicts
    /// (the draw does not pair the chooser with the team chosen): the draw stands,
    /// so they are not among `choices`.
    pub contradicted_choices: Vec<(u32, u32)>,
    /// The matches.
    pub matches: Vec<KoMatch>,
    /// When and how it is played, as the edition states it.
    pub played: HowPlayed,
}

/// When and how a stage is played, as the edition states it: what a director posts
/// beside the draw. Enum values are the edition's own words for them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HowPlayed {
    /// The day (a qualification: its first day).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// A qualification's last day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_day: Option<String>,
    /// The part of the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Whether screens are used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screens: Option<bool>,
    /// The system level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Segments of a match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<u32>,
    /// Whether the teams change at half-time.
    pub halftime_change: bool,
    /// IMPs carried into a match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carry_over: Option<String>,
}

/// A team's final standing.
#[derive(Debug, Clone, Serialize)]
pub struct FinalLine {
    /// A place the rules give (`1`, `5/6`), or where the team went out or withdrew.
    pub standing: Standing,
    /// Team id.
    pub team: u32,
    /// Its place in the full final ranking; `None` where the edition gives teams that
    /// leave without a place of the rules none (`lower_places`).
    pub rank: Option<Rank>,
}

/// A place in the full final ranking: `first` to `last`, shared when they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rank {
    /// The best place of the range.
    pub first: u32,
    /// The worst.
    pub last: u32,
}

/// The names of the units a report's scores are in, as the edition declares
/// them (`VP` and `IMP` in 2015); where the edition gives none, a plain word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Units {
    /// A qualification round's score (a team's total).
    pub round: String,
    /// A knockout match's score (and a round match's, before the VP scale).
    pub stage: String,
    /// Swiss points, as the edition labels the criterion that ranks by them.
    pub swiss_points: String,
    /// The edition's label for each criterion of the chain that has one.
    pub criteria: Vec<(Criterion, String)>,
}

impl Units {
    /// The names of `units`, with the edition's labels for the criteria of the
    /// qualification's tie-break chain (`criteria`); Swiss points are headed by
    /// theirs.
    pub fn named(units: &super::plan::ScoreUnits, criteria: Vec<(Criterion, String)>) -> Units {
        let name = |u: &Option<crate::ir::Unit>, plain: &str| {
            u.as_ref()
                .map_or_else(|| plain.to_string(), ToString::to_string)
        };
        let swiss_points = criteria
            .iter()
            .find(|(c, _)| *c == Criterion::SwissPoints)
            .map_or("Swiss points", |(_, label)| label.as_str())
            .to_string();
        Units {
            round: name(&units.round, "points"),
            stage: name(&units.stage, "score"),
            swiss_points,
            criteria,
        }
    }

    /// The edition's label for `criterion`, where its chain gives one.
    pub fn criterion(&self, criterion: Criterion) -> Option<&str> {
        self.criteria
            .iter()
            .find(|(c, _)| *c == criterion)
            .map(|(_, label)| label.as_str())
    }
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The competition.
    pub competition: String,
    /// The seed of every random choice (the first round's draw, simulated results).
    pub seed: u64,
    /// The units the scores are in, as the edition names them.
    pub units: Units,
    /// Teams entered.
    pub teams: u32,
    /// What a reader of the report should know about how it was run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// When and how the qualification is played, as the edition states it.
    pub qualification_played: Option<HowPlayed>,
    /// The number of rounds the qualification has.
    pub qualification_rounds: Option<u32>,
    /// Qualification rounds played.
    pub rounds: Vec<QualRound>,
    /// The qualification standings after the last round played (final once every
    /// round is played).
    pub standings: Vec<StandingLine>,
    /// Knockout stages in order.
    pub stages: Vec<KoStage>,
    /// Final places and exits.
    pub places: Vec<FinalLine>,
    /// The district team that got furthest, and its prize (CC-DISTRICT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub district_prize: Option<(u32, String)>,
    /// Challenge-trophy points by team, for the teams whose place earns any (CC-TROPHY):
    /// each player of the team with enough boards in its last matches earns them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trophy_points: Vec<(u32, String)>,
    /// Each player's challenge-trophy points, from the event file's line-ups
    /// (`trophy_player_points`): the boards the player played in the team's last
    /// matches decide whether the place's points are earned.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trophy_players: Vec<PlayerTrophy>,
    /// Placed teams whose players' trophy points wait for line-ups: the team and
    /// the titles of the stages whose line-up the file does not give yet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trophy_waiting: Vec<(u32, Vec<String>)>,
    /// Stages a problem stopped, in the document's order: the stage the problem was at
    /// and every stage it feeds, directly or through others. The stages it does not
    /// feed are played and reported; a report with any stopped stage is not complete.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stopped: Vec<StoppedStage>,
}

/// A stage a problem stopped: not played, nor anything it feeds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoppedStage {
    /// The stage's name in the edition.
    pub name: String,
    /// Its title.
    pub title: String,
    /// The name of the stage the problem was at (this stage's own, or one feeding it).
    pub at: String,
    /// That stage's title.
    pub at_title: String,
    /// The problem's diagnostic code.
    pub code: String,
    /// The problem, in words.
    pub message: String,
}

impl StoppedStage {
    /// In words: `A Quarterfinal: stopped by E0718 (…)` or `A Semifinal: not played,
    /// fed by A Quarterfinal, stopped by E0718`.
    pub fn words(&self) -> String {
        if self.at == self.name {
            format!(
                "{}: stopped by {} ({})",
                self.title, self.code, self.message
            )
        } else {
            format!(
                "{}: not played, fed by {}, stopped by {}",
                self.title, self.at_title, self.code
            )
        }
    }
}

/// One player's challenge-trophy points (CC-TROPHY).
#[derive(Debug, Clone, Serialize)]
pub struct PlayerTrophy {
    /// The player's team.
    pub team: u32,
    /// The team's final place.
    pub place: u32,
    /// The player, as the event file names them.
    pub player: String,
    /// Boards the player played in the team's last matches.
    pub boards: u32,
    /// How many matches counted.
    pub matches: u32,
    /// The points, as the edition writes them (`10 points`).
    pub points: String,
    /// The points as a number.
    #[serde(with = "rust_decimal::serde::float")]
    pub amount: Decimal,
}

/// A criterion of the qualification's tie-break chain, as the standings name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Criterion {
    /// The VP total, adjustments included.
    TotalVp,
    /// The sum of the opponents' VP totals.
    SwissPoints,
    /// IMPs won divided by IMPs lost.
    ImpQuotient,
    /// The lower team number.
    LowerTeamId,
}

/// How a knockout match was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decided {
    /// The winner scored more IMPs.
    Imps,
    /// The IMPs were equal and the tie-break decided.
    TieBreak,
    /// The loser withdrew after the draw.
    Walkover,
}

/// The seating of a knockout match (CC-SEATING).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MatchSeating {
    /// The away team takes its seats first.
    AwaySitsFirst {
        /// The away team.
        team: u32,
    },
    /// The match is seated by segments, and the teams have not picked theirs yet.
    SegmentsToBePicked,
    /// Who has the seating rights in each segment.
    SegmentRights {
        /// (segment, team), by segment.
        rights: Vec<(u32, u32)>,
    },
}

/// Where a team left the competition: the qualification or a knockout stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exit {
    /// The stage's number in the document; 0 for the qualification.
    pub order: u32,
    /// Its title.
    pub title: String,
}

/// A team's final standing: a place of its own or shared, or how it left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Places `first` to `last`: one place when they are equal, shared otherwise (`5/6`).
    Place {
        /// The best place of the range.
        first: u32,
        /// The worst.
        last: u32,
    },
    /// Lost (or placed out) at a stage that gives no place.
    Out(Exit),
    /// Withdrew.
    Withdrew(Exit),
}

impl Standing {
    /// Place `n`, alone.
    pub fn place(n: u32) -> Standing {
        Standing::Place { first: n, last: n }
    }

    /// The place, when the team has one of its own (not shared, not an exit).
    pub fn single_place(&self) -> Option<u32> {
        match self {
            Standing::Place { first, last } if first == last => Some(*first),
            _ => None,
        }
    }

    /// In words: `1`, `5/6`, `out at BC32-B`, `withdrew at BC04-B`.
    pub fn words(&self) -> String {
        match self {
            Standing::Place { first, last } if first == last => first.to_string(),
            Standing::Place { first, last } => format!("{first}/{last}"),
            Standing::Out(exit) => format!("out at {}", exit.title),
            Standing::Withdrew(exit) => format!("withdrew at {}", exit.title),
        }
    }

    /// Whether the team withdrew.
    pub fn withdrew(&self) -> bool {
        matches!(self, Standing::Withdrew(_))
    }

    /// How far the team got, smaller being further: a place beats any exit, a
    /// better place a worse one, a later exit an earlier one; going out and
    /// withdrawing at the same stage reach equally far.
    pub fn reach(&self) -> (u32, u32) {
        match self {
            Standing::Place { first, .. } => (0, *first),
            Standing::Out(exit) | Standing::Withdrew(exit) => (1, u32::MAX - exit.order),
        }
    }
}

fn lower_case_name<S: Serializer>(draw: &DrawMethod, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&draw.name().to_lowercase())
}
