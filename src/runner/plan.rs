//! A competition as the runner needs it, read from the checked IR.
//!
//! The edition declares stages with properties and routes; this module turns them
//! into a [`Plan`] of generic steps. Names of draw methods and tie-break criteria
//! are the engine's vocabulary (an enum variant `Choice`, `Brackets`, `Fixed`;
//! `VictoryPoints`, `SwissPoints`, `ImpQuotient`, `LowerTeamId`): the edition
//! chooses among them, the figures are all data.

use crate::engine::knockout::choice::TableNumbering;
use crate::engine::knockout::late_withdrawal::LateWithdrawalReading;
use crate::engine::knockout::outcome::KnockoutTieBreak;
use crate::engine::knockout::ranking::{
    InheritanceReading, RankingRules, TieOrder, WalkoverInheritance,
};
use crate::engine::knockout::seating::HomeReading;
use crate::engine::standings::TieBreak;
use crate::eval::Evaluator;
use crate::ir::{Expr, Program, RouteFrom, RouteTarget, Value};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// Where a group of teams goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The knockout stage with this index in [`Plan::stages`].
    Stage(usize),
    /// Out of the competition.
    Out,
    /// Final place `a`, shared up to `b`.
    Place(u32, u32),
}

/// How a knockout stage's matches are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawKind {
    /// The upper half chooses opponents in turn among the lower half; absent
    /// captains lose their turn (`Choice`).
    Choice,
    /// The best-ranked half chooses among the rest; a withdrawal among the choosers at
    /// the time of the draw moves the next team up (`RankedChoice`).
    RankedChoice,
    /// Position p meets position n + 1 − p.
    Brackets,
    /// Two teams: they meet.
    Fixed,
}

/// How a qualification pairs its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualFormat {
    /// By standings, no repeat opponents, the first round drawn (a `format` variant
    /// named anything but `RoundRobin`, or no `format`).
    Swiss,
    /// All play all (a `format` variant named `RoundRobin`).
    RoundRobin,
}

/// The ranked qualification.
#[derive(Debug, Clone)]
pub struct Qualification {
    /// Its name in the edition.
    pub name: String,
    /// Its title as the document writes it.
    pub title: String,
    /// How rounds are paired.
    pub format: QualFormat,
    /// Rounds to play (a round robin plays as many as its schedule has).
    pub rounds: u32,
    /// Boards per match.
    pub boards: Decimal,
    /// The rule that turns an IMP margin into VP, if the edition names one.
    pub scale: Option<u32>,
    /// VP for a bye.
    pub bye_score: Decimal,
    /// The round late starters begin in, and the VP they carry over.
    pub late_start: Option<(u32, Decimal)>,
    /// The order of the final standings.
    pub tie_break: Vec<TieBreak>,
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
    pub draw: DrawKind,
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
    pub seating: Option<SeatingSource>,
}

/// Where a stage's seating comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatingSource {
    /// One method for every match of the stage.
    Fixed(Seating),
    /// A rule of the number of boards a match is played over, giving the method by
    /// name (`AwayFirst`, `SegmentChoice`); a match length it has no row for has no rule.
    Rule(u32),
}

/// How the teams of a knockout match take their seats (CC-SEATING).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seating {
    /// The away team sits first (`AwayFirst`).
    AwayFirst,
    /// Segments in pairs (1+2, 3+4): the home team picks seating rights in one, the away
    /// team gets the other of that pair and picks one of the rest (`SegmentChoice`).
    SegmentChoice,
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
    /// The rule that gives challenge-trophy points for a final place (`trophy_points`).
    pub trophy_points: Option<u32>,
}

/// Why a competition cannot be run as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError(pub String);

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn prop<'a>(props: &'a [(String, Expr)], key: &str) -> Option<&'a Expr> {
    props.iter().find(|(k, _)| k == key).map(|(_, e)| e)
}

/// A property's value. A property that names a rule of one parameter is that rule
/// applied to the number of teams: `boards = boards_for_field` lets the match
/// length follow the field size, as the edition's own scale says.
fn value(
    program: &Program,
    props: &[(String, Expr)],
    key: &str,
    teams: u32,
) -> Result<Option<Value>, PlanError> {
    let Some(e) = prop(props, key) else {
        return Ok(None);
    };
    let mut ev = Evaluator::new(program);
    let v = ev
        .eval_closed(e)
        .map_err(|err| PlanError(format!("`{key}` cannot be computed: {}", err.message)))?;
    let Value::Rule(name) = &v else {
        return Ok(Some(v));
    };
    let Some((index, rule)) = program.rule(name) else {
        return Ok(Some(v));
    };
    match rule.params.as_slice() {
        // `vp_scale` and `tie_break` name rules for what they are, not for the field size.
        [(_, crate::ir::Type::Num(unit))]
            if !matches!(key, "tie_break" | "vp_scale" | "trophy_points" | "seating") =>
        {
            ev.call(
                index,
                vec![Value::Num(Decimal::from(teams), unit.clone())],
                e.span,
            )
            .map(Some)
            .map_err(|err| PlanError(format!("`{key}` for {teams} teams: {}", err.message)))
        }
        _ => Ok(Some(v)),
    }
}

fn number(
    program: &Program,
    props: &[(String, Expr)],
    key: &str,
    teams: u32,
) -> Result<Option<Decimal>, PlanError> {
    Ok(match value(program, props, key, teams)? {
        Some(Value::Num(n, _)) => Some(n),
        _ => None,
    })
}

fn whole(
    program: &Program,
    props: &[(String, Expr)],
    key: &str,
    teams: u32,
) -> Result<Option<u32>, PlanError> {
    Ok(number(program, props, key, teams)?.and_then(|n| n.to_u32()))
}

/// The seating methods by name.
pub const SEATING_NAMES: &[(&str, Seating)] = &[
    ("AwayFirst", Seating::AwayFirst),
    ("SegmentChoice", Seating::SegmentChoice),
];

/// A reading named by an enum variant, mapped to the engine's parameter; a name the
/// engine does not know is an error that lists the ones it does.
fn reading<T: Copy>(
    program: &Program,
    props: &[(String, Expr)],
    key: &str,
    teams: u32,
    known: &[(&str, T)],
) -> Result<Option<T>, PlanError> {
    let Some(v) = value(program, props, key, teams)? else {
        return Ok(None);
    };
    let name = variant_name(program, &v).unwrap_or_default();
    match known.iter().find(|(n, _)| *n == name) {
        Some((_, t)) => Ok(Some(*t)),
        None => Err(PlanError(format!(
            "`{key}`: the engine does not know the reading `{name}`; it knows {}",
            known.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn variant_name(program: &Program, v: &Value) -> Option<String> {
    match v {
        Value::Enum(e, i) => program
            .enums
            .get(*e as usize)?
            .variants
            .get(*i as usize)
            .cloned(),
        _ => None,
    }
}

fn tie_break_named(name: &str) -> Option<TieBreak> {
    Some(match name {
        "VictoryPoints" | "TotalVp" => TieBreak::TotalVp,
        "SwissPoints" => TieBreak::SwissPoints,
        "ImpQuotient" => TieBreak::ImpQuotient,
        "LowerTeamId" | "TeamId" => TieBreak::LowerTeamId,
        _ => return None,
    })
}

/// The tie-break chain: a rule over positions 1, 2, 3, … (a scale that has a row for
/// each), or a single criterion after total VP.
fn tie_break_chain(
    program: &Program,
    props: &[(String, Expr)],
) -> Result<Vec<TieBreak>, PlanError> {
    let Some(e) = prop(props, "tie_break") else {
        return Ok(vec![TieBreak::TotalVp, TieBreak::LowerTeamId]);
    };
    let mut ev = Evaluator::new(program);
    let first = ev
        .eval_closed(e)
        .map_err(|err| PlanError(format!("`tie_break` cannot be computed: {}", err.message)))?;
    let names: Vec<String> = match first {
        Value::Rule(rule) => {
            let (index, r) = program
                .rule(&rule)
                .ok_or_else(|| PlanError(format!("no rule `{rule}`")))?;
            let unit = match r.params.first() {
                Some((_, crate::ir::Type::Num(u))) => u.clone(),
                _ => crate::ir::Unit::none(),
            };
            let mut names = Vec::new();
            for position in 1..=16u32 {
                match ev.call(
                    index,
                    vec![Value::Num(Decimal::from(position), unit.clone())],
                    e.span,
                ) {
                    Ok(v) => names.push(variant_name(program, &v).unwrap_or_default()),
                    Err(_) => break,
                }
            }
            names
        }
        other => vec![
            "VictoryPoints".into(),
            variant_name(program, &other).unwrap_or_default(),
        ],
    };
    let mut chain: Vec<TieBreak> = Vec::new();
    for n in &names {
        match tie_break_named(n) {
            Some(t) if !chain.contains(&t) => chain.push(t),
            Some(_) => {}
            None => {
                return Err(PlanError(format!(
                    "the engine does not know the tie-break `{n}`; it knows VictoryPoints, SwissPoints, ImpQuotient and LowerTeamId"
                )));
            }
        }
    }
    if !chain.contains(&TieBreak::LowerTeamId) {
        chain.push(TieBreak::LowerTeamId);
    }
    Ok(chain)
}

/// A route's target; a route to the qualification itself (which the checker
/// would report as a cycle) counts as out.
fn target(to: &RouteTarget, stage_index: &[Option<usize>]) -> Target {
    match to {
        RouteTarget::Out => Target::Out,
        RouteTarget::Place(a, b) => Target::Place(*a, *b),
        RouteTarget::Stage(i) => stage_index
            .get(*i as usize)
            .copied()
            .flatten()
            .map_or(Target::Out, Target::Stage),
    }
}

/// Reads the competition `name` of `program` into a plan.
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
            PlanError(format!(
                "the edition has no competition `{name}`; it has {}",
                names.join(", ")
            ))
        })?;
    // Knockout stages sorted by the document's numbering; the qualification apart.
    let mut ko: Vec<(u32, usize)> = Vec::new();
    for (i, s) in comp.stages.iter().enumerate() {
        if !s.qualification {
            let order = whole(program, &s.properties, "order", teams)?
                .unwrap_or(u32::try_from(i).unwrap_or(0) + 1);
            ko.push((order, i));
        }
    }
    ko.sort();
    let mut stage_index: Vec<Option<usize>> = vec![None; comp.stages.len()];
    for (k, (_, i)) in ko.iter().enumerate() {
        if let Some(slot) = stage_index.get_mut(*i) {
            *slot = Some(k);
        }
    }
    let mut stages = Vec::new();
    for (order, i) in &ko {
        let Some(s) = comp.stages.get(*i) else {
            continue;
        };
        let draw = match value(program, &s.properties, "draw", teams)? {
            Some(v) => match variant_name(program, &v).as_deref() {
                Some("Choice") => DrawKind::Choice,
                Some("RankedChoice") => DrawKind::RankedChoice,
                Some("Brackets") => DrawKind::Brackets,
                Some("Fixed") => DrawKind::Fixed,
                other => {
                    return Err(PlanError(format!(
                        "stage `{}`: the engine does not know the draw method `{}`; it knows Choice, RankedChoice, Brackets and Fixed",
                        s.name,
                        other.unwrap_or("?")
                    )));
                }
            },
            None => DrawKind::Brackets,
        };
        let route = |from: RouteFrom| {
            s.routes
                .iter()
                .find(|r| r.from == from)
                .map_or(Target::Out, |r| target(&r.to, &stage_index))
        };
        stages.push(Stage {
            name: s.name.clone(),
            title: s.title.clone().unwrap_or_else(|| s.name.clone()),
            order: *order,
            teams: whole(program, &s.properties, "teams", teams)?,
            boards: number(program, &s.properties, "boards", teams)?.ok_or_else(|| {
                PlanError(format!(
                    "stage `{}` does not say how many boards it plays",
                    s.name
                ))
            })?,
            draw,
            winners: route(RouteFrom::Winners),
            losers: route(RouteFrom::Losers),
            late_withdrawal: match value(program, &s.properties, "late_withdrawal", teams)? {
                None => None,
                Some(v) => match variant_name(program, &v).as_deref() {
                    Some("SpecificRule") => Some(LateWithdrawalReading::SpecificRule),
                    Some("StageMoveUp") => Some(LateWithdrawalReading::StageMoveUp),
                    other => {
                        return Err(PlanError(format!(
                            "stage `{}`: the engine does not know the late-withdrawal reading `{}`; it knows SpecificRule and StageMoveUp",
                            s.name,
                            other.unwrap_or("?")
                        )));
                    }
                },
            },
            withdrawal_boards: number(program, &s.properties, "withdrawal_boards", teams)?,
            walkovers: matches!(
                value(program, &s.properties, "walkovers", teams)?,
                Some(Value::Bool(true))
            ),
            home: reading(program, &s.properties, "home", teams, &[
                ("BetterRanking", HomeReading::BetterRanking),
                ("UpperPosition", HomeReading::UpperPosition),
                ("Chooser", HomeReading::UpperPosition),
                // "ranking" in the CC has the BC's definition (AMB-31): the better one is home.
                ("BcDefinition", HomeReading::BetterRanking),
            ])?
            .unwrap_or(HomeReading::BetterRanking),
            seating: match value(program, &s.properties, "seating", teams)? {
                Some(Value::Rule(r)) => program.rule(&r).map(|(i, _)| SeatingSource::Rule(i)),
                _ => reading(program, &s.properties, "seating", teams, SEATING_NAMES)?
                    .map(SeatingSource::Fixed),
            },
        });
    }
    let qualification = match comp.stages.iter().find(|s| s.qualification) {
        None => None,
        Some(q) => {
            let scale = match value(program, &q.properties, "vp_scale", teams)? {
                Some(Value::Rule(r)) => program.rule(&r).map(|(i, _)| i),
                _ => None,
            };
            let late_start = match (
                whole(program, &q.properties, "late_start_round", teams)?,
                number(program, &q.properties, "carry_over", teams)?,
            ) {
                (Some(r), Some(c)) => Some((r, c)),
                _ => None,
            };
            let mut places = Vec::new();
            let mut rest = Target::Out;
            for r in &q.routes {
                match r.from {
                    RouteFrom::Places(a, b) => places.push((a, b, target(&r.to, &stage_index))),
                    RouteFrom::Rest => rest = target(&r.to, &stage_index),
                    _ => {}
                }
            }
            let format = match value(program, &q.properties, "format", teams)? {
                Some(v) if variant_name(program, &v).as_deref() == Some("RoundRobin") => {
                    QualFormat::RoundRobin
                }
                _ => QualFormat::Swiss,
            };
            // An all-play-all has as many rounds as its schedule; a Swiss says how many.
            let rounds = match (format, whole(program, &q.properties, "rounds", teams)?) {
                (QualFormat::RoundRobin, _) => teams - 1 + teams % 2,
                (QualFormat::Swiss, Some(r)) => r,
                (QualFormat::Swiss, None) => {
                    return Err(PlanError(format!(
                        "`{}` does not say how many rounds it plays",
                        q.name
                    )));
                }
            };
            Some(Qualification {
                name: q.name.clone(),
                title: q.title.clone().unwrap_or_else(|| q.name.clone()),
                format,
                rounds,
                boards: number(program, &q.properties, "boards", teams)?.ok_or_else(|| {
                    PlanError(format!(
                        "`{}` does not say how many boards a match has",
                        q.name
                    ))
                })?,
                scale,
                bye_score: number(program, &q.properties, "bye_score", teams)?
                    .unwrap_or(Decimal::ZERO),
                late_start,
                tie_break: tie_break_chain(program, &q.properties)?,
                places,
                rest,
            })
        }
    };
    let props = &comp.properties;
    let ranking = RankingRules {
        inheritance: reading(
            program,
            props,
            "inheritance",
            teams,
            &[
                ("Cumulative", InheritanceReading::Cumulative),
                (
                    "LastOpponentOnly",
                    InheritanceReading::QualificationOrLastOpponent,
                ),
            ],
        )?
        .unwrap_or_default(),
        walkover: reading(
            program,
            props,
            "walkover_inheritance",
            teams,
            &[
                ("WalkoverInherits", WalkoverInheritance::Inherits),
                (
                    "WalkoverDoesNotInherit",
                    WalkoverInheritance::DoesNotInherit,
                ),
            ],
        )?
        .unwrap_or_default(),
        tie: reading(
            program,
            props,
            "equal_rankings",
            teams,
            &[
                ("GhPlacement", TieOrder::QualificationPlacement),
                ("FromCcFirst", TieOrder::GivenOrder),
                ("MostRecentWinnerFirst", TieOrder::MostRecentWinFirst),
            ],
        )?
        .unwrap_or_default(),
        ..RankingRules::default()
    };
    let table_numbers = reading(
        program,
        props,
        "table_numbers",
        teams,
        &[
            ("ChooserPosition", TableNumbering::ChooserPosition),
            ("OrderOfChoices", TableNumbering::OrderOfChoice),
        ],
    )?
    .unwrap_or(TableNumbering::ChooserPosition);
    let knockout_tie = reading(
        program,
        props,
        "knockout_tie",
        teams,
        &[
            (
                "GhPlacementLiteral",
                KnockoutTieBreak::QualificationPlacement,
            ),
            ("CurrentRanking", KnockoutTieBreak::CurrentRanking),
        ],
    )?
    .unwrap_or(KnockoutTieBreak::QualificationPlacement);
    Ok(Plan {
        name: comp.name.clone(),
        title: comp.title.clone().unwrap_or_else(|| comp.name.clone()),
        min_teams: whole(program, &comp.properties, "min_teams", teams)?,
        max_teams: whole(program, &comp.properties, "max_teams", teams)?,
        qualification,
        stages,
        ranking,
        knockout_tie,
        table_numbers,
        district_prize: value(program, props, "district_prize", teams)?.map(|v| v.show(program)),
        trophy_points: match value(program, props, "trophy_points", teams)? {
            Some(Value::Rule(r)) => program.rule(&r).map(|(i, _)| i),
            _ => None,
        },
    })
}
