//! A competition as the runner needs it: the typed IR (`ir::Competition`, built
//! once by `check`) resolved for one field size, with the vocabulary's meanings
//! turned into the engine's parameters. No property is looked up by name here.

use super::Stop;
use super::report::HowPlayed;
use crate::engine::knockout::absent::{AbsenceRule, LeftoverPlacement};
use crate::engine::knockout::choice::TableNumbering;
use crate::engine::knockout::late_withdrawal::LateWithdrawalReading;
use crate::engine::knockout::outcome::KnockoutTieBreak;
use crate::engine::knockout::ranking::RankingRules;
use crate::engine::knockout::seating::HomeReading;
use crate::engine::standings::TieBreak;
use crate::eval::Evaluator;
use crate::ir::competition::Count;
pub use crate::ir::competition::Target;
use crate::ir::vocabulary::{
    self, Bye, ChooserWithoutOpponent, DrawMethod, FirstRound, HomeTeam, LateChooser,
    LowerWithdrawal, Pairing, PositionsBy, QualificationFormat,
};
use crate::ir::{self, Program, Type, Unit, Value};
use crate::source::Span;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// The units the edition keeps a competition's scores in, which its reports show
/// and a penalty deducts from: a qualification round's is the VP scale's answer
/// (its `winner`), a knockout match's is the margin the VP scale takes (its first
/// parameter), else the IMP scale's answer. `None` where the edition gives none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreUnits {
    /// A qualification round's score.
    pub round: Option<Unit>,
    /// A knockout match's score.
    pub stage: Option<Unit>,
}

impl ScoreUnits {
    /// The units of `plan`, its VP scale replaced by the rule named `scale` when
    /// one is named (an event file's or `bfr simulate`'s).
    pub fn of(program: &Program, plan: &Plan, scale: Option<&str>) -> ScoreUnits {
        let scale = plan.vp_scale(program, scale).map(|(_, r)| r);
        let num = |t: &Type| match t {
            Type::Num(u) => Some(u.clone()),
            _ => None,
        };
        let round = scale.and_then(|r| match &r.ret {
            Type::Record(i) => program
                .records
                .get(*i as usize)?
                .fields
                .iter()
                .find(|(name, _)| name == "winner")
                .and_then(|(_, t)| num(t)),
            _ => None,
        });
        let margin = scale
            .and_then(|r| r.params.first())
            .and_then(|(_, t)| num(t));
        let imps = plan
            .imp_scale
            .and_then(|i| program.rules.get(i as usize))
            .and_then(|r| num(&r.ret));
        ScoreUnits {
            round,
            stage: margin.or(imps),
        }
    }
}

/// The ranked qualification.
#[derive(Debug, Clone)]
pub struct Qualification {
    /// Its name in the edition.
    pub name: String,
    /// Its title as the document writes it.
    pub title: String,
    /// How rounds are paired.
    pub format: QualificationFormat,
    /// Rounds to play (a round robin plays as many as its schedule has).
    pub rounds: u32,
    /// Boards per match.
    pub boards: Decimal,
    /// The rule that turns an IMP margin into VP, if the edition names one.
    pub scale: Option<u32>,
    /// How a Swiss's first round is paired (`first_round`; left out, the
    /// vocabulary's first meaning).
    pub first_round: FirstRound,
    /// How the rounds after the first are paired (`pairing`).
    pub pairing: Pairing,
    /// Who gets the bye in an odd field (`bye`).
    pub bye: Bye,
    /// Who is home in a match (`home`); `None` keeps the pairing's own order (the
    /// draw's, or a round robin's schedule).
    pub home: Option<HomeTeam>,
    /// VP for a bye.
    pub bye_score: Decimal,
    /// The round late starters begin in, and the VP they carry over.
    pub late_start: Option<(u32, Decimal)>,
    /// The order of the final standings.
    pub tie_break: Vec<TieBreak>,
    /// The edition's label for each criterion of its chain that has one
    /// (`SwissPoints "Swiss Points (SP)"`), which a report shows.
    pub labels: Vec<(TieBreak, String)>,
    /// When and how it is played.
    pub played: HowPlayed,
    /// Places routed on: `a..=b` go to the target.
    pub places: Vec<(u32, u32, Target)>,
    /// Where everyone else goes.
    pub rest: Target,
}

/// A knockout stage.
#[derive(Debug, Clone)]
pub struct Stage {
    /// Its name in the edition.
    pub name: String,
    /// Its title as the document writes it.
    pub title: String,
    /// Its number in the document's list.
    pub order: u32,
    /// Teams it is declared for.
    pub teams: Option<u32>,
    /// Boards per match.
    pub boards: Decimal,
    /// How it is drawn.
    pub draw: DrawMethod,
    /// Where winners go.
    pub winners: Target,
    /// Where losers go.
    pub losers: Target,
    /// How withdrawals of upper-bracket teams at this stage's draw are handled
    /// (`late_withdrawal`: `SpecificRule` or `StageMoveUp`).
    pub late_withdrawal: Option<LateWithdrawalReading>,
    /// The length of the match the late-withdrawal rules put in place of this stage's.
    pub withdrawal_boards: Option<Decimal>,
    /// Whether a withdrawal after the draw is a walkover here (`walkovers = true`);
    /// elsewhere the document has no rule for it.
    pub walkovers: bool,
    /// Who is the home team (`home`).
    pub home: HomeReading,
    /// How seats are taken (`seating`): a method, or a rule of the match length.
    pub seating: Option<ir::competition::Seating>,
    /// Segments of a match as the stage declares it.
    pub segments: Option<u32>,
    /// Segments of the match the late-withdrawal rules put in its place.
    pub withdrawal_segments: Option<u32>,
    /// Whether an absent captain's turn passes on here (`absent_captains`).
    pub absent_captains: AbsenceRule,
    /// How its positions are ordered (`positions`).
    pub positions: PositionsBy,
    /// When and how it is played.
    pub played: HowPlayed,
}

/// A competition ready to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Its name in the edition.
    pub name: String,
    /// Its title.
    pub title: String,
    /// The smallest field the document gives a rule for.
    pub min_teams: Option<u32>,
    /// The largest.
    pub max_teams: Option<u32>,
    /// The qualification, if any.
    pub qualification: Option<Qualification>,
    /// Knockout stages in the document's order.
    pub stages: Vec<Stage>,
    /// How rankings pass on in the knockout (`inheritance`, `walkover_inheritance`,
    /// `equal_rankings`).
    pub ranking: RankingRules,
    /// Who wins a knockout match tied in IMPs (`knockout_tie`).
    pub knockout_tie: KnockoutTieBreak,
    /// How the tables of a choice are numbered (`table_numbers`).
    pub table_numbers: TableNumbering,
    /// The prize for the district team that gets furthest (`district_prize`), as written.
    pub district_prize: Option<String>,
    /// Who has the seating rights in a segment, by the edition's rule.
    pub segment_rights: Option<ir::competition::SegmentRights>,
    /// How teams left over by absent captains are handed out (`absent_leftovers`).
    pub absent_leftovers: LeftoverPlacement,
    /// Whether the loser of a walkover takes the place the stage's losers take
    /// (`walkover_loser`).
    pub walkover_loser_takes_place: bool,
    /// The rule that gives challenge-trophy points for a final place (`trophy_points`).
    pub trophy_points: Option<u32>,
    /// A player's trophy points from the place and the boards played
    /// (`trophy_player_points`).
    pub trophy_player_points: Option<u32>,
    /// How many of a team's last matches count for trophy points (`trophy_matches`).
    pub trophy_matches: Option<u32>,
    /// The seats a team fills at each board (`lineup_seats`).
    pub lineup_seats: Option<u32>,
    /// The edition's IMP scale (`imp_scale`), whose top row bounds a board's IMPs.
    pub imp_scale: Option<u32>,
    /// How the teams that leave without a place of the rules are ranked (`lower_places`).
    pub lower_places: vocabulary::LowerPlaces,
    /// How a choice of opponents goes when captains are late or teams withdraw.
    pub choice: ChoiceReadings,
}

impl Plan {
    /// Whether late starters have a round to begin in (the qualification's
    /// `late_start_round`); without one they play from the first round.
    pub fn has_late_start(&self) -> bool {
        self.qualification
            .as_ref()
            .is_some_and(|q| q.late_start.is_some())
    }

    /// The rule that scores the qualification, by index: the rule `named`
    /// instead of the edition's (an event file's `vp_scale`, `bfr simulate
    /// --scale`), else the edition's. `None` where the named rule is not in the
    /// edition, or neither names one.
    pub fn vp_scale<'p>(
        &self,
        program: &'p Program,
        named: Option<&str>,
    ) -> Option<(u32, &'p ir::Rule)> {
        match named {
            Some(name) => program.rule(name),
            None => {
                let index = self.qualification.as_ref()?.scale?;
                program.rules.get(index as usize).map(|r| (index, &**r))
            }
        }
    }
}

/// The competition's readings of a choice of opponents (`late_chooser`,
/// `chooser_without_opponent`, `lower_withdrawal`).
#[derive(Debug, Clone, Copy)]
pub struct ChoiceReadings {
    /// When a captain who arrives late chooses.
    pub late_chooser: LateChooser,
    /// What a chooser left without a candidate does.
    pub chooser_without_opponent: ChooserWithoutOpponent,
    /// What a withdrawal among the teams chosen from does.
    pub lower_withdrawal: LowerWithdrawal,
}

/// Why a competition cannot be run as declared: the kind of stop (its code) and
/// what is wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    /// The kind of problem; its code is the diagnostic's.
    pub kind: Stop,
    /// What is wrong.
    pub message: String,
    /// The rule of the edition at fault, where one is: a count of the field
    /// its rule cannot give.
    pub rule: Option<Span>,
}

/// The note at [`PlanError::rule`], wherever the error is shown.
pub const RULE_OF_THE_COUNT: &str = "the rule that gives this count";

impl PlanError {
    fn new(kind: Stop, message: impl Into<String>) -> Self {
        PlanError {
            kind,
            message: message.into(),
            rule: None,
        }
    }
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The competition `name` of `program`, resolved for a field of `teams`.
pub fn plan(program: &Program, name: &str, teams: u32) -> Result<Plan, PlanError> {
    let comp = program
        .competitions
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = program
                .competitions
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            PlanError::new(
                Stop::UnknownName,
                format!(
                    "the edition has no competition `{name}`; it has {}",
                    names.join(", ")
                ),
            )
        })?;
    let field = Field { program, teams };
    let stages = comp
        .stages
        .iter()
        .map(|s| stage(&field, s))
        .collect::<Result<Vec<_>, _>>()?;
    let qualification = match &comp.qualification {
        None => None,
        Some(q) => Some(qualification(&field, q)?),
    };
    let r = &comp.readings;
    Ok(Plan {
        name: comp.name.clone(),
        title: comp.title.clone(),
        min_teams: comp.min_teams,
        max_teams: comp.max_teams,
        qualification,
        stages,
        ranking: RankingRules {
            inheritance: r.inheritance.meaning.into(),
            walkover: r.walkover_inheritance.meaning.into(),
            tie: r.equal_rankings.meaning.into(),
            scope: r.inheritance_scope.meaning.into(),
        },
        knockout_tie: r.knockout_tie.meaning.into(),
        table_numbers: r.table_numbers.meaning.into(),
        district_prize: comp.district_prize.as_ref().map(|q| q.shown.clone()),
        trophy_points: comp.trophy_points,
        trophy_player_points: comp.trophy_player_points,
        trophy_matches: comp.trophy_matches,
        lineup_seats: comp.lineup_seats,
        imp_scale: comp.imp_scale,
        lower_places: r.lower_places.meaning,
        segment_rights: comp.segment_rights.clone(),
        absent_leftovers: r.absent_leftovers.meaning.into(),
        walkover_loser_takes_place: r.walkover_loser.meaning
            == vocabulary::WalkoverLoser::SharesLosersPlace,
        choice: ChoiceReadings {
            late_chooser: r.late_chooser.meaning,
            chooser_without_opponent: r.chooser_without_opponent.meaning,
            lower_withdrawal: r.lower_withdrawal.meaning,
        },
    })
}

/// A knockout stage for this field.
fn stage(field: &Field, s: &ir::competition::Stage) -> Result<Stage, PlanError> {
    Ok(Stage {
        name: s.name.clone(),
        title: s.title.clone(),
        order: s.order,
        teams: s.teams,
        boards: Decimal::from(field.count(s.boards, &s.name, "boards")?),
        draw: s.draw.meaning,
        winners: s.winners,
        losers: s.losers,
        late_withdrawal: s.late_withdrawal.as_ref().map(|c| c.meaning.into()),
        withdrawal_boards: s.withdrawal_boards.map(Decimal::from),
        walkovers: s.walkovers,
        home: s.home.meaning.into(),
        seating: s.seating.clone(),
        segments: s.segments,
        withdrawal_segments: s.withdrawal_segments,
        absent_captains: s.absent_captains.meaning.into(),
        positions: s.positions.meaning,
        played: how_played(field.program, &s.schedule, s),
    })
}

/// The edition and the size of the field a run is for.
struct Field<'a> {
    program: &'a Program,
    teams: u32,
}

impl Field<'_> {
    /// A count for this field: given outright, or the edition's rule applied to the
    /// number of teams.
    fn count(&self, c: Count, block: &str, key: &str) -> Result<u32, PlanError> {
        let rule = match c {
            Count::Fixed(n) => return Ok(n),
            Count::OfField(rule) => rule,
        };
        let declared = self.program.rules.get(rule as usize);
        let unit = match declared.and_then(|r| r.params.first()) {
            Some((_, ir::Type::Num(u))) => u.clone(),
            _ => ir::Unit::none(),
        };
        let arg = Value::Num(Decimal::from(self.teams), unit);
        let err = |kind: Stop, why: String| {
            let teams = self.teams;
            PlanError {
                rule: declared.map(|r| r.span),
                ..PlanError::new(kind, format!("`{block}`: `{key}` for {teams} teams {why}"))
            }
        };
        match Evaluator::new(self.program).call(rule, vec![arg], Default::default()) {
            Ok(Value::Num(n, _)) => n
                .to_u32()
                .filter(|_| n.fract().is_zero())
                .ok_or_else(|| err(Stop::Refused, format!("is {n}, not a whole number"))),
            Ok(_) => Err(err(Stop::Refused, "is not a number".into())),
            // The edition's rules are wrong, whatever the field: an answer its
            // type cannot hold.
            Err(e) if e.refused_answer_of.is_some() => Err(err(
                Stop::Refused,
                format!("cannot be computed: {}", e.message),
            )),
            // The rule has no answer for this field: no row of a scale, a failed
            // requirement.
            Err(e) => Err(err(
                Stop::FieldSize,
                format!("cannot be computed: {}", e.message),
            )),
        }
    }
}

fn qualification(
    field: &Field,
    q: &ir::competition::Qualification,
) -> Result<Qualification, PlanError> {
    // An all-play-all has as many rounds as its schedule; a Swiss says how many.
    let rounds = match (q.format, q.rounds) {
        (QualificationFormat::RoundRobin, _) => {
            if field.teams < 2 {
                let message = format!("`{}` needs at least two teams", q.name);
                return Err(PlanError::new(Stop::FieldSize, message));
            }
            field.teams - 1 + field.teams % 2
        }
        (QualificationFormat::Swiss, Some(r)) => field.count(r, &q.name, "rounds")?,
        (QualificationFormat::Swiss, None) => {
            let message = format!("`{}` does not say how many rounds it plays", q.name);
            return Err(PlanError::new(Stop::Incomplete, message));
        }
    };
    let (swiss_points, imp_quotient) = (q.swiss_points.meaning, q.imp_quotient.meaning);
    let mut tie_break: Vec<TieBreak> = q
        .tie_break
        .iter()
        .map(|c| super::meaning::tie_break(c.meaning, swiss_points, imp_quotient))
        .collect();
    // The standings must be a total order: the team number settles what the
    // edition's chain leaves equal.
    if !tie_break.contains(&TieBreak::LowerTeamId) {
        tie_break.push(TieBreak::LowerTeamId);
    }
    let labels = q
        .tie_break
        .iter()
        .filter_map(|c| {
            let label = c.label.clone()?;
            Some((
                super::meaning::tie_break(c.meaning, swiss_points, imp_quotient),
                label,
            ))
        })
        .collect();
    Ok(Qualification {
        name: q.name.clone(),
        title: q.title.clone(),
        format: q.format,
        rounds,
        boards: Decimal::from(field.count(q.boards, &q.name, "boards")?),
        scale: q.vp_scale,
        first_round: q
            .first_round
            .as_ref()
            .map_or(FirstRound::Drawn, |f| f.meaning),
        pairing: q.pairing.meaning,
        bye: q.bye.meaning,
        home: q.home.as_ref().map(|h| h.meaning),
        bye_score: q.bye_score.as_ref().map_or(Decimal::ZERO, |b| b.amount),
        late_start: q.late_start.as_ref().map(|(r, c)| (*r, c.amount)),
        tie_break,
        labels,
        places: q.places.clone(),
        rest: q.rest,
        played: schedule_words(field.program, &q.schedule),
    })
}

/// A stage's schedule and manner of play, in the edition's words.
fn how_played(
    program: &Program,
    schedule: &ir::competition::Schedule,
    s: &ir::competition::Stage,
) -> HowPlayed {
    HowPlayed {
        segments: s.segments,
        halftime_change: s.halftime_change,
        carry_over: s.carry_over.as_ref().map(|q| q.shown.clone()),
        ..schedule_words(program, schedule)
    }
}

/// A schedule in the edition's words.
fn schedule_words(program: &Program, s: &ir::competition::Schedule) -> HowPlayed {
    // An enum value is shown by its label (`förmiddag`), else by its name.
    let words = |v: &Value| match v {
        Value::Enum(e, i) => program
            .enums
            .get(*e as usize)
            .and_then(|info| {
                let label = info.labels.get(*i as usize).cloned().flatten();
                label.or_else(|| info.variants.get(*i as usize).cloned())
            })
            .unwrap_or_else(|| v.show(program)),
        _ => v.show(program),
    };
    HowPlayed {
        day: s.day.map(|d| Value::Date(d).show(program)),
        last_day: s.last_day.map(|d| Value::Date(d).show(program)),
        part: s.part.as_ref().map(words),
        screens: s.screens,
        system: s.system.as_ref().map(words),
        ..HowPlayed::default()
    }
}
