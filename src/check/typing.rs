//! Competitions from written properties to typed IR: every value computed once,
//! every name resolved against the vocabulary, every rule the runner will call
//! checked against the signature it is called with.
//!
//! Runs after the consts are known to be computable, so a property that names a
//! const is computed here and never again.

use super::compute::Computer;
use super::declared::{Declared, DeclaredStage, Property, RouteFrom, RouteTarget};
use super::names::did_you_mean;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::competition::{
    Chosen, Competition, Count, KnockoutReadings, Qualification, Quantity, RankingCriterion,
    RuleOf, Schedule, Seating, SegmentRights, Stage, Target,
};
use crate::ir::vocabulary::{
    AbsentCaptains, Bye, ChooserWithoutOpponent, DrawMethod, EqualRankings, FirstRound, HomeTeam,
    ImpQuotientEdges, Inheritance, InheritanceScope, KnockoutCriterion, KnockoutTie, LateChooser,
    LateWithdrawal, LeftoverPlacement, LowerPlaces, LowerWithdrawal, Meaning, Pairing, PositionsBy,
    QualificationFormat, SeatingMethod, Side, SwissPointsBasis, TableNumbering, TieBreakCriterion,
    WalkoverInheritance, WalkoverLoser,
};
use crate::ir::{Date, ExprKind, MAX_TEAMS, Program, SourceInfo, Type, Value};
use crate::source::Span;
use rust_decimal::prelude::ToPrimitive;

/// Types every declared competition; problems go to `diags`.
pub(crate) fn type_competitions(
    program: &Program,
    declared: &[Declared],
    diags: &mut Diagnostics,
    computer: &Computer,
) -> Vec<Competition> {
    declared
        .iter()
        .map(|d| {
            let mut t = Typer {
                program,
                diags,
                computer,
            };
            t.competition(d)
        })
        .collect()
}

struct Typer<'a> {
    program: &'a Program,
    diags: &'a mut Diagnostics,
    /// What the check computes, within its steps.
    computer: &'a Computer,
}

/// A block's properties and where the block is, for "missing" errors.
struct Block<'a> {
    props: &'a [Property],
    name: &'a str,
    span: Span,
}

/// The most days one stage lasts (`day` .. `last_day`): a year. The programme
/// lists a stage on each of its days.
pub const MAX_STAGE_DAYS: i64 = 366;

impl Block<'_> {
    fn get(&self, key: &str) -> Option<&Property> {
        Property::find(self.props, key)
    }
}

impl Typer<'_> {
    fn competition(&mut self, d: &Declared) -> Competition {
        let block = Block {
            props: &d.properties,
            name: &d.name,
            span: d.span,
        };
        // Knockout stages in the document's numbering; routes index them so.
        let mut ko: Vec<(u32, usize)> = Vec::new();
        for (i, s) in d.stages.iter().enumerate() {
            if !s.qualification {
                let fallback = u32::try_from(i).unwrap_or(u32::MAX).saturating_add(1);
                let order = self.whole(&stage_block(s), "order").unwrap_or(fallback);
                ko.push((order, i));
            }
        }
        ko.sort_unstable();
        let position: Vec<Option<usize>> = (0..d.stages.len())
            .map(|i| ko.iter().position(|(_, j)| *j == i))
            .collect();
        let target = |to: &RouteTarget| match to {
            RouteTarget::Out => Target::Out,
            RouteTarget::Place(a, b) => Target::Place(*a, *b),
            RouteTarget::Stage(i) => position
                .get(*i as usize)
                .copied()
                .flatten()
                .map_or(Target::Out, Target::Stage),
        };
        let stages = ko
            .iter()
            .filter_map(|(order, i)| d.stages.get(*i).map(|s| (*order, s)))
            .map(|(order, s)| self.stage(s, order, &target))
            .collect();
        let qualification = d
            .stages
            .iter()
            .find(|s| s.qualification)
            .map(|q| self.qualification(q, &target));
        let competition = Competition {
            name: d.name.clone(),
            title: d.title.clone().unwrap_or_else(|| d.name.clone()),
            source: d.source.clone(),
            min_teams: self.field(&block, "min_teams"),
            max_teams: self.field(&block, "max_teams"),
            readings: self.readings(&block),
            district_prize: self.quantity(&block, "district_prize"),
            trophy_points: self.rule(&block, "trophy_points", 1),
            trophy_player_points: self.rule(&block, "trophy_player_points", 2),
            trophy_matches: self.whole(&block, "trophy_matches"),
            lineup_seats: self.whole(&block, "lineup_seats"),
            imp_scale: self.imp_scale(&block),
            segment_rights: self.segment_rights(&block),
            schedule: self.schedule(&block, "competition"),
            days_source: self
                .source_of(&block, "first_day")
                .or_else(|| d.source.clone()),
            qualification,
            stages,
            span: d.span,
        };
        for w in super::dates::stages_outside_their_competition(d, &competition) {
            self.diags.push(w);
        }
        competition
    }

    /// The readings every knockout stage of the competition applies.
    fn readings(&mut self, block: &Block) -> KnockoutReadings {
        KnockoutReadings {
            equal_rankings: self.chosen(
                block,
                "equal_rankings",
                EqualRankings::QualificationPlacement,
            ),
            inheritance: self.chosen(block, "inheritance", Inheritance::Cumulative),
            walkover_inheritance: self.chosen(
                block,
                "walkover_inheritance",
                WalkoverInheritance::WalkoverInherits,
            ),
            knockout_tie: self.chosen(block, "knockout_tie", KnockoutTie::QualificationPlacement),
            table_numbers: self.chosen(block, "table_numbers", TableNumbering::ChooserPosition),
            inheritance_scope: self.chosen(
                block,
                "inheritance_scope",
                InheritanceScope::EveryKnockoutMatch,
            ),
            absent_leftovers: self.chosen(
                block,
                "absent_leftovers",
                LeftoverPlacement::CurrentRanking,
            ),
            late_chooser: self.chosen(block, "late_chooser", LateChooser::FirstTurnAfterArrival),
            chooser_without_opponent: self.chosen(
                block,
                "chooser_without_opponent",
                ChooserWithoutOpponent::LastChooserGoesThrough,
            ),
            lower_withdrawal: self.chosen(
                block,
                "lower_withdrawal",
                LowerWithdrawal::ChoosersUnchangedLastGoesThrough,
            ),
            walkover_loser: self.chosen(block, "walkover_loser", WalkoverLoser::SharesLosersPlace),
            lower_places: self.chosen(block, "lower_places", LowerPlaces::NoPlace),
        }
    }

    fn qualification(
        &mut self,
        q: &DeclaredStage,
        target: &dyn Fn(&RouteTarget) -> Target,
    ) -> Qualification {
        let block = stage_block(q);
        let format = self
            .meaning::<QualificationFormat>(&block, "format")
            .map_or(QualificationFormat::Swiss, |c| c.meaning);
        let rounds = self.count(&block, "rounds");
        if format == QualificationFormat::Swiss && rounds.is_none() && block.get("rounds").is_none()
        {
            self.missing(
                &block,
                "rounds",
                "a Swiss qualification says how many rounds it plays",
            );
        }
        if format == QualificationFormat::Swiss && block.get("bye_score").is_none() {
            self.diags.push(
                Diagnostic::warning(
                    "W0413",
                    format!(
                        "`{}` pairs its rounds by the standings but gives no `bye_score`: a team with the bye scores 0 VP",
                        block.name
                    ),
                    q.span,
                )
                .with_label("with an odd number of teams, or after a withdrawal, one team has the bye each round")
                .with_help("say what a bye scores, e.g. `bye_score = 15 VP` (a drawn match on the 25-0 scale)"),
            );
        }
        let late_start = match (
            self.whole(&block, "late_start_round"),
            self.quantity(&block, "carry_over"),
        ) {
            (Some(r), Some(c)) => Some((r, c)),
            _ => None,
        };
        let mut places = Vec::new();
        let mut rest = Target::Out;
        for r in &q.routes {
            match r.from {
                RouteFrom::Places(a, b) => places.push((a, b, target(&r.to))),
                RouteFrom::Rest => rest = target(&r.to),
                RouteFrom::Winners | RouteFrom::Losers => {}
            }
        }
        Qualification {
            name: q.name.clone(),
            title: q.title.clone().unwrap_or_else(|| q.name.clone()),
            source: q.source.clone(),
            format,
            first_round: self.meaning::<FirstRound>(&block, "first_round"),
            rounds,
            boards: self.required_count(&block, "boards"),
            vp_scale: self.vp_scale(&block),
            bye_score: self.quantity(&block, "bye_score"),
            late_start,
            tie_break: self.criteria(&block),
            home: self.meaning::<HomeTeam>(&block, "home"),
            pairing: self.chosen(&block, "pairing", Pairing::StandingsWithFeasibilityCheck),
            bye: self.chosen(&block, "bye", Bye::LowestRankedWithoutBye),
            swiss_points: self.chosen(
                &block,
                "swiss_points",
                SwissPointsBasis::OpponentsCurrentTotals,
            ),
            imp_quotient: self.chosen(&block, "imp_quotient", ImpQuotientEdges::InfinityThenTeamId),
            schedule: self.schedule(&block, "qualification"),
            places,
            rest,
            span: q.span,
        }
    }

    fn stage(
        &mut self,
        s: &DeclaredStage,
        order: u32,
        target: &dyn Fn(&RouteTarget) -> Target,
    ) -> Stage {
        let block = stage_block(s);
        let route = |from: RouteFrom| {
            s.routes
                .iter()
                .find(|r| r.from == from)
                .map_or(Target::Out, |r| target(&r.to))
        };
        // `draw` is required: its absence is reported with the other properties.
        let draw = self.chosen(&block, "draw", DrawMethod::Brackets);
        let stage = Stage {
            name: s.name.clone(),
            title: s.title.clone().unwrap_or_else(|| s.name.clone()),
            source: s.source.clone(),
            order,
            teams: self.field(&block, "teams"),
            boards: self.required_count(&block, "boards"),
            draw,
            decided_by: self.chosen(&block, "tie_break", KnockoutCriterion::ImpDifference),
            home: self.chosen(&block, "home", HomeTeam::BetterRanking),
            seating: self.seating(&block),
            segments: self.whole(&block, "segments"),
            halftime_change: self.flag(&block, "halftime_change"),
            carry_over: self.quantity(&block, "carry_over"),
            walkovers: self.flag(&block, "walkovers"),
            absent_captains: self.chosen(&block, "absent_captains", AbsentCaptains::PassTurn),
            positions: self.chosen(&block, "positions", PositionsBy::Origin),
            late_withdrawal: self.meaning::<LateWithdrawal>(&block, "late_withdrawal"),
            withdrawal_boards: self.whole(&block, "withdrawal_boards"),
            withdrawal_segments: self.whole(&block, "withdrawal_segments"),
            schedule: self.schedule(&block, "stage"),
            winners: route(RouteFrom::Winners),
            losers: route(RouteFrom::Losers),
            span: s.span,
        };
        let at = |key: &str| block.get(key).map(|p| p.value.span);
        for w in super::seating::unseated_lengths(
            self.program,
            self.computer,
            &stage,
            at("boards"),
            at("withdrawal_boards"),
        ) {
            self.diags.push(w);
        }
        stage
    }

    /// When a block is played: its day or first and last day, and for a stage
    /// its part of the day, screens and system level. `whose` names the block in
    /// a problem with its days (`stage`, `competition`).
    fn schedule(&mut self, block: &Block, whose: &str) -> Schedule {
        let day = match self
            .value(block, "day")
            .or_else(|| self.value(block, "first_day"))
        {
            Some(Value::Date(d)) => Some(d),
            _ => None,
        };
        let last_day = match self.value(block, "last_day") {
            Some(Value::Date(d)) => Some(d),
            _ => None,
        };
        Schedule {
            day,
            last_day: last_day.filter(|last| self.days(block, whose, day, *last)),
            part: self.value(block, "part"),
            screens: match self.value(block, "screens") {
                Some(Value::Bool(b)) => Some(b),
                _ => None,
            },
            system: self.value(block, "system"),
        }
    }

    /// Whether a block's `last_day` may end the days that begin on `first`: not
    /// before them (the block would be on no day of the programme), and at most
    /// [`MAX_STAGE_DAYS`] after (the programme lists each day of a stage).
    fn days(&mut self, block: &Block, whose: &str, first: Option<Date>, last: Date) -> bool {
        let Some(first) = first else {
            // A last day alone dates nothing: said, not dropped without a word.
            if let Some(p) = block.get("last_day") {
                self.diags.push(
                    Diagnostic::error(
                        "E0410",
                        format!("the {whose} has a `last_day` ({last}) but no first day"),
                        p.value.span,
                    )
                    .with_label("the days end here, but begin nowhere")
                    .with_help(format!(
                        "give the {whose}'s first day too (`first_day = …`), or remove `last_day`"
                    )),
                );
            }
            return false;
        };
        let days = last.day_number() - first.day_number() + 1;
        let (problem, label) = if days < 1 {
            (
                format!("`last_day` {last} is before the {whose}'s first day {first}"),
                "the days end here, before they begin".to_string(),
            )
        } else if days > MAX_STAGE_DAYS {
            (
                format!(
                    "the {whose}'s days {first} .. {last} are {days} days; a {whose} lasts at most {MAX_STAGE_DAYS}"
                ),
                format!("day {days} of the {whose}"),
            )
        } else {
            return true;
        };
        if let Some(p) = block.get("last_day") {
            let mut d = Diagnostic::error("E0410", problem, p.value.span)
                .with_label(label)
                .with_help(format!(
                    "give the {whose}'s last day on or after its first, within the festival"
                ));
            if let Some(f) = block.get("first_day").or_else(|| block.get("day")) {
                d = d.with_note(f.value.span, format!("the first day, {first}"));
            }
            self.diags.push(d);
        }
        false
    }

    /// The source of the rule a property names as its whole value
    /// (`first_day = lv_first_day`); `None` for any other value.
    fn source_of(&self, block: &Block, key: &str) -> Option<SourceInfo> {
        match &block.get(key)?.value.kind {
            ExprKind::Call(rule, args) if args.is_empty() => {
                self.program.rules.get(*rule as usize)?.source.clone()
            }
            _ => None,
        }
    }

    /// A property's value, computed; a value that cannot be computed is an error.
    fn value(&mut self, block: &Block, key: &str) -> Option<Value> {
        let p = block.get(key)?;
        // No room left in the check's steps: said once, by the check.
        match self.computer.value(self.program, &p.value)? {
            Ok(v) => Some(v),
            Err(e) => {
                self.diags.push(
                    Diagnostic::error(
                        "E0410",
                        format!("`{key}` cannot be computed: {}", e.message),
                        p.value.span,
                    )
                    .with_help("change the value so it can be computed"),
                );
                None
            }
        }
    }

    fn flag(&mut self, block: &Block, key: &str) -> bool {
        matches!(self.value(block, key), Some(Value::Bool(true)))
    }

    fn whole(&mut self, block: &Block, key: &str) -> Option<u32> {
        let v = self.value(block, key)?;
        let p = block.get(key)?;
        match v {
            Value::Num(n, _) if n.fract().is_zero() && n >= rust_decimal::Decimal::ZERO => {
                n.to_u32().or_else(|| {
                    self.bad_figure(p, "is too large");
                    None
                })
            }
            _ => {
                self.bad_figure(p, "must be a whole number, 0 or more");
                None
            }
        }
    }

    /// A number of teams: a whole number of at most [`MAX_TEAMS`], the field
    /// every command that runs a competition accepts.
    fn field(&mut self, block: &Block, key: &str) -> Option<u32> {
        let teams = self.whole(block, key)?;
        if teams <= MAX_TEAMS {
            return Some(teams);
        }
        let p = block.get(key)?;
        self.diags.push(
            Diagnostic::error(
                "E0410",
                format!("`{}` is {teams} teams; a field has at most {MAX_TEAMS}", p.key),
                p.value.span,
            )
            .with_help(format!(
                "give `{}` as at most {MAX_TEAMS} teams, the most `bfr simulate` and an event file take",
                p.key
            )),
        );
        None
    }

    fn bad_figure(&mut self, p: &Property, what: &str) {
        self.diags.push(
            Diagnostic::error("E0410", format!("`{}` {what}", p.key), p.value.span)
                .with_help(format!("give `{}` as a whole number", p.key)),
        );
    }

    fn quantity(&mut self, block: &Block, key: &str) -> Option<Quantity> {
        match self.value(block, key)? {
            v @ Value::Num(n, _) => Some(Quantity {
                amount: n,
                shown: v.show(self.program),
            }),
            _ => None,
        }
    }

    fn count(&mut self, block: &Block, key: &str) -> Option<Count> {
        let p = block.get(key)?;
        if let ExprKind::RuleRef(i) = p.value.kind {
            return self.check_arity(p, i, 1).then_some(Count::OfField(i));
        }
        self.whole(block, key).map(Count::Fixed)
    }

    /// A count the vocabulary requires: its absence is reported with the other
    /// properties, so a missing one only stands in here.
    fn required_count(&mut self, block: &Block, key: &str) -> Count {
        self.count(block, key).unwrap_or(Count::Fixed(0))
    }

    /// A rule named by a property, called later with `arity` arguments (0: any).
    fn rule(&mut self, block: &Block, key: &str, arity: usize) -> Option<u32> {
        let p = block.get(key)?;
        let ExprKind::RuleRef(i) = p.value.kind else {
            return None;
        };
        (arity == 0 || self.check_arity(p, i, arity)).then_some(i)
    }

    /// `imp_scale`: a `scale` of one parameter, so that its top row can be read.
    fn imp_scale(&mut self, block: &Block) -> Option<u32> {
        let i = self.rule(block, "imp_scale", 1)?;
        let p = block.get("imp_scale")?;
        let r = self.program.rules.get(i as usize)?;
        if crate::ir::top_row(r).is_some() {
            return Some(i);
        }
        self.diags.push(
            Diagnostic::error(
                "E0410",
                format!(
                    "`imp_scale` names `{}`, which is not a scale with a top row open above (`difference >= 4000 score_points => 24 IMP`): a run reads the most IMPs a board can give from that row",
                    r.name
                ),
                p.value.span,
            )
            .with_note(r.span, "the rule is declared here")
            .with_help("name the IMP table itself, a `scale` from a board's score difference to IMPs"),
        );
        None
    }

    /// `vp_scale`: a rule of the margin (and the match's boards, if it takes a
    /// second parameter) whose answer is a record with `winner` and `loser` VP.
    fn vp_scale(&mut self, block: &Block) -> Option<u32> {
        let p = block.get("vp_scale")?;
        let ExprKind::RuleRef(i) = p.value.kind else {
            return None;
        };
        let r = self.program.rules.get(i as usize)?;
        if self.program.is_vp_scale(r) {
            return Some(i);
        }
        self.diags.push(
            Diagnostic::error(
                "E0410",
                format!(
                    "`vp_scale` names `{}` {}, which cannot score a match: a run calls it with the IMP margin (and the boards), numbers, and reads both teams' VP, `winner` and `loser`, from the record it returns",
                    r.name,
                    self.program.signature(r)
                ),
                p.value.span,
            )
            .with_note(r.span, "the rule is declared here")
            .with_help(self.program.vp_scale_help(&r.name)),
        );
        None
    }

    fn check_arity(&mut self, p: &Property, rule: u32, arity: usize) -> bool {
        let Some(r) = self.program.rules.get(rule as usize) else {
            return false;
        };
        if r.params.len() == arity {
            return true;
        }
        self.diags.push(
            Diagnostic::error(
                "E0410",
                format!(
                    "`{}` names `{}`, which takes {} parameter(s); `{}` calls it with {arity}",
                    p.key,
                    r.name,
                    r.params.len(),
                    p.key
                ),
                p.value.span,
            )
            .with_note(r.span, "the rule is declared here"),
        );
        false
    }

    fn missing(&mut self, block: &Block, key: &str, why: &str) {
        self.diags.push(
            Diagnostic::error(
                "E0409",
                format!("`{}` does not say `{key}`", block.name),
                block.span,
            )
            .with_label(why.to_string())
            .with_help(format!("add `{key} = …` to `{}`", block.name)),
        );
    }
}

/// Meanings: enum values resolved against the vocabulary.
impl Typer<'_> {
    /// The meaning an enum value's variant names, or an error at `span`.
    fn resolve<T: Meaning>(&mut self, v: &Value, key: &str, span: Span) -> Option<T> {
        let Value::Enum(e, i) = v else {
            return None;
        };
        let info = self.program.enums.get(*e as usize)?;
        let name = info.variants.get(*i as usize)?;
        if let Some(m) = T::named(name) {
            return Some(m);
        }
        self.diags
            .push(unknown_meaning::<T>(key, &info.name, name, span));
        None
    }

    fn meaning<T: Meaning>(&mut self, block: &Block, key: &str) -> Option<Chosen<T>> {
        let p = block.get(key)?;
        let v = self.value(block, key)?;
        let meaning = self.resolve::<T>(&v, key, p.value.span)?;
        let shown = v.show(self.program);
        let written = match &p.value.kind {
            ExprKind::Call(i, args) if args.is_empty() => self
                .program
                .rules
                .get(*i as usize)
                .map_or(shown.clone(), |r| format!("{} = {shown}", r.name)),
            _ => shown,
        };
        Some(Chosen {
            meaning,
            written: Some(written),
        })
    }

    fn chosen<T: Meaning>(&mut self, block: &Block, key: &str, default: T) -> Chosen<T> {
        self.meaning(block, key).unwrap_or(Chosen {
            meaning: default,
            written: None,
        })
    }

    /// A rule whose result is an enum, with the meaning of each of its variants.
    fn rule_of<T: Meaning>(&mut self, p: &Property, rule: u32, arity: usize) -> Option<RuleOf<T>> {
        if !self.check_arity(p, rule, arity) {
            return None;
        }
        let r = self.program.rules.get(rule as usize)?;
        let Type::Enum(e) = r.ret else {
            self.diags.push(
                Diagnostic::error(
                    "E0410",
                    format!(
                        "`{}` names `{}`, which does not give a `{}`",
                        p.key,
                        r.name,
                        T::WHAT
                    ),
                    p.value.span,
                )
                .with_note(r.span, "the rule is declared here"),
            );
            return None;
        };
        let info = self.program.enums.get(e as usize)?;
        let mut meanings = Vec::new();
        let mut ok = true;
        for variant in &info.variants {
            let m = T::named(variant);
            if m.is_none() {
                ok = false;
                self.diags.push(
                    unknown_meaning::<T>(&p.key, &info.name, variant, p.value.span)
                        .with_note(r.span, format!("`{}` can give it", r.name)),
                );
            }
            meanings.push(m);
        }
        ok.then(|| RuleOf {
            rule,
            name: r.name.clone(),
            meanings,
        })
    }

    fn seating(&mut self, block: &Block) -> Option<Seating> {
        let p = block.get("seating")?;
        if let ExprKind::RuleRef(i) = p.value.kind {
            return self
                .rule_of::<SeatingMethod>(p, i, 1)
                .map(Seating::ByBoards);
        }
        self.meaning::<SeatingMethod>(block, "seating")
            .map(|c| Seating::Method(c.meaning))
    }

    fn segment_rights(&mut self, block: &Block) -> Option<SegmentRights> {
        let p = block.get("segment_rights")?;
        let ExprKind::RuleRef(i) = p.value.kind else {
            return None;
        };
        let rights = self.rule_of::<Side>(p, i, 3)?;
        let picks_valid = self.rule(block, "segment_picks_valid", 2);
        Some(SegmentRights {
            rights,
            picks_valid,
        })
    }

    /// The tie-break chain: a list of criteria in order, or one criterion that
    /// comes after the victory points.
    fn criteria(&mut self, block: &Block) -> Vec<RankingCriterion> {
        let victory_points = RankingCriterion {
            meaning: TieBreakCriterion::VictoryPoints,
            label: None,
        };
        let Some(p) = block.get("tie_break") else {
            return vec![victory_points];
        };
        let (mut chain, values) = match self.value(block, "tie_break") {
            Some(Value::List(values)) => (Vec::new(), values),
            Some(v) => (vec![victory_points], vec![v]),
            None => return Vec::new(),
        };
        if values.is_empty() {
            self.diags.push(
                Diagnostic::error("E0410", "`tie_break` names no criterion", p.value.span)
                    .with_help("list the criteria in order: `[Criteria.VictoryPoints, …]`"),
            );
        }
        for v in &values {
            if let Some(meaning) = self.resolve::<TieBreakCriterion>(v, "tie_break", p.value.span)
                && !chain.iter().any(|c| c.meaning == meaning)
            {
                let label = match v {
                    Value::Enum(e, i) => self
                        .program
                        .enums
                        .get(*e as usize)
                        .and_then(|info| info.labels.get(*i as usize).cloned().flatten()),
                    _ => None,
                };
                chain.push(RankingCriterion { meaning, label });
            }
        }
        chain
    }
}

fn stage_block(s: &DeclaredStage) -> Block<'_> {
    Block {
        props: &s.properties,
        name: &s.name,
        span: s.span,
    }
}

/// A variant that names no meaning of the vocabulary.
fn unknown_meaning<T: Meaning>(
    key: &str,
    enum_name: &str,
    variant: &str,
    span: Span,
) -> Diagnostic {
    let d = Diagnostic::error(
        "E0408",
        format!(
            "`{key}`: `{enum_name}.{variant}` names no `{}` bfr knows",
            T::WHAT
        ),
        span,
    )
    .with_label(format!("bfr knows {}", T::names().join(", ")));
    match did_you_mean(variant, T::names()) {
        Some(h) => d.with_help(h),
        None => d.with_help(format!(
            "name the variant after one of the meanings (see docs/language.md, `{}`)",
            T::WHAT
        )),
    }
}

#[cfg(test)]
#[path = "typing_tests.rs"]
mod tests;
