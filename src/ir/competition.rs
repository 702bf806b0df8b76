//! Competitions as typed data: what `check` makes of a `competition` block and
//! what the runner consumes.
//!
//! Every property of the vocabulary (`check::vocabulary`) has a typed field here;
//! `check` computes each value once, so nothing is looked up by name or string at
//! run time. A figure that depends on the field size (`boards = boards_for_field`)
//! stays a rule of the field size ([`Count::OfField`]) until a run knows the field.

use super::value::Date;
use super::vocabulary::{
    AbsentCaptains, Bye, ChooserWithoutOpponent, DrawMethod, EqualRankings, FirstRound, HomeTeam,
    ImpQuotientEdges, Inheritance, InheritanceScope, KnockoutCriterion, KnockoutTie, LateChooser,
    LateWithdrawal, LeftoverPlacement, LowerPlaces, LowerWithdrawal, Pairing, PositionsBy,
    QualificationFormat, SeatingMethod, Side, SwissPointsBasis, TableNumbering, TieBreakCriterion,
    WalkoverInheritance, WalkoverLoser,
};
use super::{SourceInfo, Value};
use crate::source::Span;
use rust_decimal::Decimal;
use serde::Serialize;

/// A whole number an edition gives outright, or a rule of the number of teams.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// Given outright.
    Fixed(u32),
    /// The rule with this index, applied to the number of teams when a run starts.
    OfField(u32),
}

/// A quantity with the unit the edition wrote it in, for showing it back.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Quantity {
    /// The amount.
    pub amount: Decimal,
    /// The value as the edition writes it (`30 VP`).
    pub shown: String,
}

/// A meaning the edition chose, with the edition's words for it.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Chosen<T> {
    /// What it means to the engine.
    pub meaning: T,
    /// How the edition says it (`amb06_reading = Amb06HomeTeam.BetterRanking`), or
    /// `None` where the edition says nothing and the vocabulary's default applies.
    pub written: Option<String>,
}

/// A criterion of a qualification's ranking, with the edition's label for it
/// (`SwissPoints "Swiss Points (SP)"`), which a report shows.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct RankingCriterion {
    /// What it means to the engine.
    pub meaning: TieBreakCriterion,
    /// The label of the edition's variant, where it gives one.
    pub label: Option<String>,
}

/// A rule of the edition that the runner calls, with the meaning of each variant
/// of the enum it returns (`None`: the variant names no meaning of the vocabulary).
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct RuleOf<T> {
    /// The rule's index.
    pub rule: u32,
    /// The rule's name.
    pub name: String,
    /// By variant index of the rule's result type.
    pub meanings: Vec<Option<T>>,
}

/// How a stage's seats are taken.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    /// One method for every match of the stage.
    Method(SeatingMethod),
    /// A rule of the match length in boards.
    ByBoards(RuleOf<SeatingMethod>),
}

/// Seating rights by segment: how many segments, and the edition's rule that says
/// which side has the rights in a segment after the picks.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct SegmentRights {
    /// `rule(segment, home_pick, away_pick) -> Side`.
    pub rights: RuleOf<Side>,
    /// `rule(home_pick, away_pick) -> bool`, when the edition gives one.
    pub picks_valid: Option<u32>,
}

/// The readings every knockout stage of a competition applies.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct KnockoutReadings {
    /// The order of equal rankings in a sorted group (`equal_rankings`).
    pub equal_rankings: Chosen<EqualRankings>,
    /// Which wins pass a ranking on (`inheritance`).
    pub inheritance: Chosen<Inheritance>,
    /// Whether a walkover passes it on (`walkover_inheritance`).
    pub walkover_inheritance: Chosen<WalkoverInheritance>,
    /// Who wins a match tied in IMPs (`knockout_tie`).
    pub knockout_tie: Chosen<KnockoutTie>,
    /// How the tables of a choice are numbered (`table_numbers`).
    pub table_numbers: Chosen<TableNumbering>,
    /// Which wins pass a ranking on (`inheritance_scope`).
    pub inheritance_scope: Chosen<InheritanceScope>,
    /// How teams left over by absent captains are handed out (`absent_leftovers`).
    pub absent_leftovers: Chosen<LeftoverPlacement>,
    /// When a late captain chooses (`late_chooser`).
    pub late_chooser: Chosen<LateChooser>,
    /// A chooser left without a candidate (`chooser_without_opponent`).
    pub chooser_without_opponent: Chosen<ChooserWithoutOpponent>,
    /// A withdrawal among the teams chosen from (`lower_withdrawal`).
    pub lower_withdrawal: Chosen<LowerWithdrawal>,
    /// What the loser of a walkover gets (`walkover_loser`).
    pub walkover_loser: Chosen<WalkoverLoser>,
    /// How the teams that leave without a place of the rules are ranked (`lower_places`).
    pub lower_places: Chosen<LowerPlaces>,
}

/// Where a group of teams goes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The knockout stage with this index in [`Competition::stages`].
    Stage(usize),
    /// Out of the competition.
    Out,
    /// Final place `a`, shared up to `b`.
    Place(u32, u32),
}

/// When a stage is played, as the programme shows it.
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
pub struct Schedule {
    /// Its day (a qualification: its first day).
    pub day: Option<Date>,
    /// Its last day, when it runs over several.
    pub last_day: Option<Date>,
    /// The part of the day, as the edition's enum names it.
    pub part: Option<Value>,
    /// Whether it is played with screens.
    pub screens: Option<bool>,
    /// Its system level, as the edition's enum names it.
    pub system: Option<Value>,
}

/// A ranked qualification.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Qualification {
    /// Its name.
    pub name: String,
    /// Its title as the document writes it (its name when none is given).
    pub title: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// How rounds are paired (`format`).
    pub format: QualificationFormat,
    /// How the first round is paired (`first_round`).
    pub first_round: Option<Chosen<FirstRound>>,
    /// Rounds of a Swiss (`rounds`); a round robin has as many as its schedule.
    pub rounds: Option<Count>,
    /// Boards per match (`boards`).
    pub boards: Count,
    /// The rule that turns an IMP margin (and the boards) into VP (`vp_scale`).
    pub vp_scale: Option<u32>,
    /// VP for a bye (`bye_score`).
    pub bye_score: Option<Quantity>,
    /// The round late starters begin in and the VP they carry over
    /// (`late_start_round`, `carry_over`).
    pub late_start: Option<(u32, Quantity)>,
    /// The ranking's criteria in order (`tie_break`).
    pub tie_break: Vec<RankingCriterion>,
    /// Who is home in a match (`home`).
    pub home: Option<Chosen<HomeTeam>>,
    /// How the rounds after the first are paired (`pairing`).
    pub pairing: Chosen<Pairing>,
    /// Who gets the bye (`bye`).
    pub bye: Chosen<Bye>,
    /// The VP behind Swiss points (`swiss_points`).
    pub swiss_points: Chosen<SwissPointsBasis>,
    /// The IMP quotient at its edges (`imp_quotient`).
    pub imp_quotient: Chosen<ImpQuotientEdges>,
    /// When it is played.
    pub schedule: Schedule,
    /// Places routed on: `a..=b` go to the target.
    pub places: Vec<(u32, u32, Target)>,
    /// Where everyone else goes.
    pub rest: Target,
    /// Where it is declared.
    #[serde(skip)]
    pub span: Span,
}

/// A knockout stage.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Stage {
    /// Its name.
    pub name: String,
    /// Its title as the document writes it (its name when none is given).
    pub title: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// Its number in the document's list (`order`; else its place in the file).
    pub order: u32,
    /// Teams it is declared for (`teams`).
    pub teams: Option<u32>,
    /// Boards per match (`boards`).
    pub boards: Count,
    /// How it is drawn (`draw`).
    pub draw: Chosen<DrawMethod>,
    /// What decides a match (`tie_break`).
    pub decided_by: Chosen<KnockoutCriterion>,
    /// Who is home (`home`).
    pub home: Chosen<HomeTeam>,
    /// How seats are taken (`seating`).
    pub seating: Option<Seating>,
    /// Segments of a match (`segments`).
    pub segments: Option<u32>,
    /// Whether the teams change seats at half-time (`halftime_change`).
    pub halftime_change: bool,
    /// IMPs carried into the match (`carry_over`).
    pub carry_over: Option<Quantity>,
    /// Whether a withdrawal after the draw is a walkover (`walkovers`).
    pub walkovers: bool,
    /// Whether an absent captain's turn passes on (`absent_captains`).
    pub absent_captains: Chosen<AbsentCaptains>,
    /// How positions are ordered (`positions`).
    pub positions: Chosen<PositionsBy>,
    /// How a withdrawal at the draw is handled (`late_withdrawal`).
    pub late_withdrawal: Option<Chosen<LateWithdrawal>>,
    /// The match length the late-withdrawal rules put in place of this stage's
    /// (`withdrawal_boards`).
    pub withdrawal_boards: Option<u32>,
    /// The segments of that match (`withdrawal_segments`).
    pub withdrawal_segments: Option<u32>,
    /// When it is played.
    pub schedule: Schedule,
    /// Where winners go.
    pub winners: Target,
    /// Where losers go.
    pub losers: Target,
    /// Where it is declared.
    #[serde(skip)]
    pub span: Span,
}

/// The most teams a field may have: an edition's `min_teams`, `max_teams` and a
/// stage's `teams` (E0410 past it), `bfr simulate --teams` and an event file's
/// list. Drawing a round takes time that grows with the square of the field.
pub const MAX_TEAMS: u32 = 10_000;

/// A competition: a qualification, knockout stages, and what they share.
#[derive(Debug, Clone, PartialEq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Competition {
    /// Its name.
    pub name: String,
    /// Its title as the document writes it (its name when none is given).
    pub title: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// The smallest field the document gives a rule for (`min_teams`).
    pub min_teams: Option<u32>,
    /// The largest (`max_teams`).
    pub max_teams: Option<u32>,
    /// The readings every knockout stage applies.
    pub readings: KnockoutReadings,
    /// The district prize (`district_prize`), as written.
    pub district_prize: Option<Quantity>,
    /// The rule that gives challenge-trophy points for a final place (`trophy_points`).
    pub trophy_points: Option<u32>,
    /// A player's challenge-trophy points from the team's final place and the boards
    /// the player played in the team's last matches (`trophy_player_points`).
    pub trophy_player_points: Option<u32>,
    /// How many of a team's last matches count for a player's trophy points
    /// (`trophy_matches`).
    pub trophy_matches: Option<u32>,
    /// The seats a team fills at each board (`lineup_seats`): a line-up with more
    /// boards in all than seats × the match's boards is refused.
    pub lineup_seats: Option<u32>,
    /// The IMP scale of a board's score difference (`imp_scale`): a `scale`, whose top
    /// row gives the most IMPs one board can give.
    pub imp_scale: Option<u32>,
    /// Who has the seating rights in a segment (`segment_rights`, `segment_picks_valid`).
    pub segment_rights: Option<SegmentRights>,
    /// Its days as a whole (`first_day`, `last_day`): when the edition dates the
    /// competition and not each of its stages. Only `day` and `last_day` are set.
    pub schedule: Schedule,
    /// Where its days come from: the source of the rule `first_day` names (the
    /// document may date the competition in another section than the one that
    /// sets it out), else its own.
    pub days_source: Option<SourceInfo>,
    /// The qualification, if any.
    pub qualification: Option<Qualification>,
    /// Knockout stages in the document's order (by `order`).
    pub stages: Vec<Stage>,
    /// Where it is declared.
    #[serde(skip)]
    pub span: Span,
}

impl Competition {
    /// Its first and last day, when the edition dates it as a whole; a
    /// competition with a first day and no last is played on that one day.
    pub fn days(&self) -> Option<(Date, Date)> {
        let first = self.schedule.day?;
        Some((first, self.schedule.last_day.unwrap_or(first)))
    }
}
