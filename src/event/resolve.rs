//! Checking a parsed event against the edition: its competition, VP scale, rounds
//! and stages, every incident's rule, and board scores turned into IMPs.

use super::model::{At, Effect, Event, ImpCap, Incident, Team, WholeMargin};
use crate::check::Checked;
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{Evaluator, Prepared};
use crate::ir::{Penalty, Program, Rule, Type, Value};
use crate::runner::Stop;
use crate::runner::plan::{self, Plan, ScoreUnits};
use crate::source::{FileId, Span};
use crate::syntax;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// An incident's rule as it stands in the event file, with the byte it starts
/// at, so the parser's spans point into the file; `None` for a rule written
/// with escapes (or in JSON), which is parsed on its own.
fn rule_in_file<'t>(text: &'t str, rule: &Incident) -> Option<(&'t str, usize)> {
    let (s, e) = (rule.rule_span.start as usize, rule.rule_span.end as usize);
    let inner = text.get(s + 1..e.saturating_sub(1))?;
    (e > s + 1 && inner == rule.rule).then_some((inner, s + 1))
}

/// A diagnostic about a rule parsed on its own, moved to the rule's place in the file.
fn relocate(mut d: Diagnostic, at: Span) -> Diagnostic {
    d.span = at;
    d.notes.clear();
    d
}

/// Checks the event against the edition: the competition, the VP scale, the rounds
/// and stages it names; evaluates every incident's rule. Returns the competition
/// resolved for the event's field when the event can be run.
///
/// `checked` is borrowed mutably only to check each incident's rule against it in
/// place (it is unchanged on return); `prepared` is its evaluation form.
pub fn resolve(
    event: &mut Event,
    checked: &mut Checked,
    prepared: &Prepared,
    text: &str,
) -> (Option<Plan>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let program = &checked.program;
    let teams = u32::try_from(event.teams.len()).unwrap_or(u32::MAX);
    // As in an entries file, a competition is named by its name or its title,
    // in any case; the run goes on under its name.
    if let Some(c) = crate::entry::names::competition(program, &event.competition.0)
        .and_then(|c| program.competitions.get(c as usize))
    {
        event.competition.0.clone_from(&c.name);
    }
    let plan = match plan::plan(program, &event.competition.0, teams) {
        Ok(p) => p,
        Err(e) => {
            diags.push(cannot_be_run(event, program, e));
            // The incidents cannot be placed, but one pasted twice still is.
            let all: Vec<usize> = (0..event.incidents.len()).collect();
            for d in super::model::incidents_written_twice(event, &all) {
                diags.push(d);
            }
            return (None, diags);
        }
    };
    let mut ok = true;
    if let Some(d) = vp_scale_refused(event, program) {
        diags.push(d);
        ok = false;
    }
    if !board_scores_to_imps(event, program, prepared, &mut diags) {
        ok = false;
    }
    match plan.imp_scale.map(|i| imp_cap(program, prepared, i)) {
        Some(Ok(cap)) => event.imp_cap = Some(cap),
        Some(Err(d)) => {
            diags.push(d.with_note(event.competition.1, "running this competition"));
            ok = false;
        }
        None => {}
    }
    note_the_plan(event, program, &plan);
    let places = Places::of(&plan);
    place_rounds_and_stages(event, &places, &mut diags);
    let placed = place_incidents(event, checked, prepared, text, &plan, &places, &mut diags);
    for d in super::model::incidents_written_twice(event, &placed) {
        diags.push(d);
    }
    for d in marks_without_effect(event, &plan) {
        diags.push(d);
    }
    (ok.then_some(plan), diags)
}

/// The error for a competition the edition cannot run for this event: unknown
/// (with the names it may mean) or refused for its field.
fn cannot_be_run(event: &Event, program: &Program, e: plan::PlanError) -> Diagnostic {
    let help = match e.kind {
        Stop::UnknownName
            if program
                .competitions
                .iter()
                .all(|c| c.name != event.competition.0) =>
        {
            Some(unknown_competition_help(program, &event.competition.0))
        }
        kind => kind.help().map(str::to_string),
    };
    let mut d = Diagnostic::error(e.kind.code(), e.message, event.competition.1)
        .with_label("this competition cannot be run");
    if let Some(help) = help {
        d = d.with_help(help);
    }
    if let Some(c) = program
        .competitions
        .iter()
        .find(|c| c.name == event.competition.0)
    {
        d = d.with_note(c.span, e.kind.label());
    }
    if let Some(rule) = e.rule {
        d = d.with_note(rule, plan::RULE_OF_THE_COUNT);
    }
    d
}

/// E0711 / E0714: the event's `vp_scale` names no rule, or a rule that cannot
/// score a match.
fn vp_scale_refused(event: &Event, program: &Program) -> Option<Diagnostic> {
    let (name, at) = event.vp_scale.as_ref()?;
    let (code, message, label) = match program.rule(name) {
        None => (
            "E0711",
            format!("the edition has no rule `{name}` to use as the VP scale"),
            "unknown rule",
        ),
        Some((_, r)) if !program.is_vp_scale(r) => (
            "E0714",
            format!(
                "the edition's rule `{name}` cannot score a match: a VP scale takes the IMP margin (and the boards) and gives both teams' VP, `winner` and `loser`"
            ),
            "not a VP scale",
        ),
        Some(_) => return None,
    };
    Some(
        Diagnostic::error(code, message, *at)
            .with_label(label)
            .with_help(program.vp_scale_help(name)),
    )
}

/// What the event's pages say of the competition: the qualification's title,
/// its VP scale's whole-IMP margin, the stages' titles.
fn note_the_plan(event: &mut Event, program: &Program, plan: &Plan) {
    if let Some(q) = &plan.qualification {
        event.qualification_title = q.title.clone();
        let named = event.vp_scale.as_ref().map(|(name, _)| name.as_str());
        let scale = plan.vp_scale(program, named).map(|(_, r)| r);
        event.whole_margin = scale.and_then(|r| {
            let (param, _) = r.params.first()?;
            r.counting.first()?.is_whole().then(|| WholeMargin {
                scale: r.name.clone(),
                param: param.clone(),
                at: r.span,
            })
        });
    }
    for s in &plan.stages {
        event.stage_titles.insert(s.name.clone(), s.title.clone());
    }
}

/// Drops the rounds and stages the competition does not have (each with its
/// error) and a stage given twice; the others go on under the stage's name.
fn place_rounds_and_stages(event: &mut Event, places: &Places, diags: &mut Diagnostics) {
    event
        .rounds
        .retain(|r| match places.round(r.number, r.span) {
            Some(d) => {
                diags.push(d);
                false
            }
            None => true,
        });
    let mut named: BTreeMap<String, Span> = BTreeMap::new();
    event.stages.retain_mut(|s| {
        let name = match places.stage(&s.name, s.span) {
            Ok(name) => name,
            Err(d) => {
                diags.push(d);
                return false;
            }
        };
        if let Some(first) = named.get(name) {
            diags.push(stage_listed_twice(name, &s.name, s.span, *first));
            return false;
        }
        named.insert(name.to_string(), s.span);
        s.name = name.to_string();
        true
    });
}

/// Places every incident at its round or stage and evaluates its rule into
/// the effect it has; returns the incidents placed.
fn place_incidents(
    event: &mut Event,
    checked: &mut Checked,
    prepared: &Prepared,
    text: &str,
    plan: &Plan,
    places: &Places,
    diags: &mut Diagnostics,
) -> Vec<usize> {
    let file = event.file;
    let units = ScoreUnits::of(
        &checked.program,
        plan,
        event.vp_scale.as_ref().map(|(name, _)| name.as_str()),
    );
    let mut placed = Vec::new();
    for (index, inc) in event.incidents.iter_mut().enumerate() {
        let unknown = match &mut inc.at {
            At::Round(r) if *r == 0 => Some(places.no_such_round(*r, inc.span)),
            At::Round(r) => places.round(*r, inc.span),
            At::Stage(s) => match places.stage(s, inc.span) {
                Ok(name) => {
                    *s = name.to_string();
                    None
                }
                Err(d) => Some(d),
            },
        };
        if let Some(d) = unknown {
            diags.push(d);
            continue;
        }
        placed.push(index);
        if let Some(value) = penalty_of(inc, checked, prepared, text, file, diags) {
            apply(inc, value, &checked.program, &units, diags);
        }
    }
    placed
}

/// W0724: teams marked late starters, or district teams, in a competition whose
/// rules have no late start, or no district prize: the run would ignore the
/// mark without a word. One warning for each kind of mark, at the first team.
fn marks_without_effect(event: &Event, plan: &Plan) -> Vec<Diagnostic> {
    let marks = [
        Mark {
            key: "late",
            what: ("a late starter", "late starters"),
            at: |t| t.late,
            ignored: !plan.has_late_start(),
            lacks: "no late start",
            so: (
                "it plays from the first round",
                "they play from the first round",
            ),
        },
        Mark {
            key: "district",
            what: ("a district team", "district teams"),
            at: |t| t.district,
            ignored: plan.district_prize.is_none(),
            lacks: "no district prize",
            so: ("the mark changes nothing", "the marks change nothing"),
        },
    ];
    marks
        .iter()
        .filter(|m| m.ignored)
        .filter_map(|m| m.warning(event, plan))
        .collect()
}

/// A mark an event file may give a team, and whether the competition run has
/// a use for it.
struct Mark {
    key: &'static str,
    /// What a marked team is, one and many.
    what: (&'static str, &'static str),
    at: fn(&Team) -> Option<Span>,
    ignored: bool,
    /// What the competition lacks, and what that means for the teams.
    lacks: &'static str,
    so: (&'static str, &'static str),
}

impl Mark {
    /// W0724 at the first team with this mark, naming the marked teams (five
    /// by number, then how many more); `None` when no team has it.
    fn warning(&self, event: &Event, plan: &Plan) -> Option<Diagnostic> {
        const SHOWN: usize = 5;
        let marked: Vec<(u32, Span)> = event
            .teams
            .iter()
            .filter_map(|t| Some((t.id, (self.at)(t)?)))
            .collect();
        let &(_, at) = marked.first()?;
        let mut ids: Vec<String> = marked
            .iter()
            .take(SHOWN)
            .map(|(id, _)| id.to_string())
            .collect();
        if marked.len() > SHOWN {
            ids.push(format!("{} more", marked.len() - SHOWN));
        }
        let one = marked.len() == 1;
        let pick = |(single, many): (&'static str, &'static str)| if one { single } else { many };
        let key = self.key;
        Some(
            Diagnostic::warning(
                "W0724",
                format!(
                    "{} {} {} marked {}, but {} has {}: {}",
                    pick(("team", "teams")),
                    crate::diag::and_list(&ids),
                    pick(("is", "are")),
                    pick(self.what),
                    plan.title,
                    self.lacks,
                    pick(self.so),
                ),
                at,
            )
            .with_label(format!("the `{key}` mark has no effect here"))
            .with_note(event.competition.1, "the competition the event runs")
            .with_help(format!(
                "remove the `{key}` mark, or check that `competition` names the competition played"
            )),
        )
    }
}

/// Turns results given board by board into IMPs with the rule the event names as
/// its `imp_scale` (X-IMP): each board's difference becomes IMPs for the side that
/// gained them. Returns whether every such result could be converted.
fn board_scores_to_imps(
    event: &mut Event,
    program: &Program,
    prepared: &Prepared,
    diags: &mut Diagnostics,
) -> bool {
    let mut ev = Evaluator::prepared(program, prepared);
    let rule = event
        .imp_scale
        .as_ref()
        .and_then(|(name, at)| Some((program.rule(name)?, *at)));
    let mut ok = true;
    let results = event
        .rounds
        .iter_mut()
        .flat_map(|r| r.results.iter_mut())
        .chain(event.stages.iter_mut().flat_map(|s| s.results.iter_mut()));
    for r in results {
        let Some(scores) = &r.board_scores else {
            continue;
        };
        let Some(((index, info), _)) = rule else {
            diags.push(
                Diagnostic::error("E0711", "this result is given board by board, but the event names no `imp_scale`", r.span)
                    .with_help("name the edition's rule that turns a score difference into IMPs, e.g. `imp_scale = \"imp_result\"`"),
            );
            ok = false;
            continue;
        };
        let unit = match info.params.first() {
            Some((_, Type::Num(u))) => u.clone(),
            _ => crate::ir::Unit::none(),
        };
        let (mut a, mut b) = (Decimal::ZERO, Decimal::ZERO);
        for d in scores {
            match ev.call(index, vec![Value::Num(*d, unit.clone())], r.span) {
                Ok(Value::Num(imps, _)) if imps >= Decimal::ZERO => a = a.saturating_add(imps),
                Ok(Value::Num(imps, _)) => b = b.saturating_add(-imps),
                Ok(_) | Err(_) => {
                    diags.push(
                        Diagnostic::error(
                            "E0712",
                            format!(
                                "`{}` gives no IMPs for a difference of {}",
                                info.name,
                                d.normalize()
                            ),
                            r.span,
                        )
                        .with_help("check the board scores and the event's `imp_scale`"),
                    );
                    ok = false;
                    break;
                }
            }
        }
        r.a_imps = a;
        r.b_imps = b;
    }
    ok
}

/// The most IMPs one board gives: the edition's IMP table called at its top row's
/// lower bound (checked to exist when the edition was checked).
fn imp_cap(program: &Program, prepared: &Prepared, index: u32) -> Result<ImpCap, Diagnostic> {
    let rule = program.rules.get(index as usize);
    let row = rule.and_then(|r| crate::ir::top_row(r));
    let name = rule.map_or_else(String::new, |r| r.name.clone());
    let at = row.map_or_else(|| rule.map(|r| r.span).unwrap_or_default(), |r| r.span);
    let value = row
        .and_then(|r| r.lower.as_ref())
        .map(|l| Evaluator::prepared(program, prepared).call(index, vec![l.value.clone()], at));
    match value {
        Some(Ok(Value::Num(per_board, _))) if per_board > Decimal::ZERO => Ok(ImpCap {
            per_board,
            scale: name,
            row: at,
        }),
        other => {
            let why = match other {
                Some(Err(e)) => e.message,
                _ => "it gives no positive number of IMPs there".into(),
            };
            Err(Diagnostic::error(
                "E0714",
                format!("the rules cannot run this event: the IMP table `{name}` cannot be read at its top row: {why}"),
                at,
            )
            .with_label("the IMP table's top row"))
        }
    }
}

/// The rounds and stages a competition has, to check the event's entries against.
struct Places<'p> {
    plan: &'p Plan,
    rounds: u32,
}

impl<'p> Places<'p> {
    fn of(plan: &'p Plan) -> Places<'p> {
        Places {
            plan,
            rounds: plan.qualification.as_ref().map_or(0, |q| q.rounds),
        }
    }

    /// A problem with round `number`, written at `at`, if there is no such round.
    fn round(&self, number: u32, at: Span) -> Option<Diagnostic> {
        (number > self.rounds).then(|| self.no_such_round(number, at))
    }

    fn no_such_round(&self, number: u32, at: Span) -> Diagnostic {
        let msg = if self.plan.qualification.is_none() {
            format!(
                "`{}` has no qualification, so no round {number}",
                self.plan.name
            )
        } else {
            format!(
                "the qualification has {}; there is no round {number}",
                crate::diag::counted(self.rounds, "round")
            )
        };
        Diagnostic::error("E0704", msg, at).with_label("no such round")
    }

    /// The stage written `written` at `at`, by its name or its title as
    /// [`crate::names::find_one`] finds it; else a problem naming the stage meant
    /// (misspelt) and the stages there are.
    fn stage(&self, written: &str, at: Span) -> Result<&'p str, Diagnostic> {
        let stages = &self.plan.stages;
        let spellings = |i: usize| [stages[i].name.as_str(), stages[i].title.as_str()];
        if let Some(i) = crate::names::find_one(stages.len(), written, spellings) {
            return Ok(&stages[i].name);
        }
        let d = Diagnostic::error(
            "E0711",
            format!("`{}` has no stage `{written}`", self.plan.name),
            at,
        )
        .with_label("unknown stage");
        if stages.is_empty() {
            return Err(d.with_help(format!(
                "`{}` has no knockout stages: remove this entry",
                self.plan.name
            )));
        }
        let listed: Vec<String> = stages
            .iter()
            .map(|s| format!("`{}` ({})", s.name, s.title))
            .collect();
        let listed = listed.join(", ");
        let spelled = stages
            .iter()
            .flat_map(|s| [s.name.as_str(), s.title.as_str()]);
        let meant = crate::names::nearest(written, spelled)
            .and_then(|near| stages.iter().find(|s| s.name == near || s.title == near));
        Err(d.with_help(match meant {
            Some(s) => format!(
                "did you mean `{}` ({})? The stages: {listed}",
                s.name, s.title
            ),
            None => format!("write one of the stages: {listed}"),
        }))
    }
}

/// E0704: a stage given a second `[[stage]]`, by its name or its title.
fn stage_listed_twice(name: &str, written: &str, at: Span, first: Span) -> Diagnostic {
    let what = if written == name {
        format!("stage `{name}` is listed twice")
    } else {
        format!("stage `{name}` is listed twice (here as `{written}`)")
    };
    Diagnostic::error("E0704", what, at)
        .with_label("listed again here; this entry is not used")
        .with_note(first, "first listed here")
        .with_help("put all of a stage's choices and results in one `[[stage]]`")
}

/// What to write for a competition the edition does not have: the nearest of
/// its competitions, and all of them.
fn unknown_competition_help(program: &Program, written: &str) -> String {
    let all: Vec<u32> = (0..program.competitions.len())
        .filter_map(|c| u32::try_from(c).ok())
        .collect();
    let listed = crate::entry::names::listed(program, &all);
    let near = crate::entry::names::nearest(program, &all, written)
        .and_then(|title| program.competitions.iter().find(|c| c.title == title));
    match near {
        Some(c) => format!(
            "did you mean `{}` ({})? The edition's competitions: {listed}",
            c.name, c.title
        ),
        None => format!("name one of the edition's competitions (by name or title): {listed}"),
    }
}

/// An incident's rule, parsed, checked and evaluated; `None` (with the problem in
/// `diags`) when it does not give a penalty.
fn penalty_of(
    inc: &Incident,
    checked: &mut Checked,
    prepared: &Prepared,
    text: &str,
    event_file: FileId,
    diags: &mut Diagnostics,
) -> Option<Value> {
    let in_file = rule_in_file(text, inc);
    let in_place = in_file.is_some();
    let parsed = match in_file {
        Some((rule, at)) => syntax::parse_expr_at(rule, event_file, at),
        None => syntax::parse_expr(&inc.rule, u32::MAX),
    };
    let ast = match parsed {
        Ok(a) => a,
        Err(d) => {
            let d = match help_for_words(&checked.program, &inc.rule) {
                Some(help) if d.help.is_none() => d.with_help(help),
                _ => d,
            };
            diags.push(if in_place {
                d
            } else {
                relocate(d, inc.rule_span)
            });
            return None;
        }
    };
    let expr = match checked.check_expr_in_place(&ast) {
        Ok(e) => e,
        Err(ds) => {
            for d in ds.sorted() {
                diags.push(if in_place {
                    d.clone()
                } else {
                    relocate(d.clone(), inc.rule_span)
                });
            }
            return None;
        }
    };
    let program = &checked.program;
    if !matches!(expr.ty, Type::Penalty(_)) {
        diags.push(
            Diagnostic::error(
                "E0712",
                format!(
                    "an incident's rule must give a penalty; `{}` gives {}",
                    inc.rule,
                    program.type_name(&expr.ty)
                ),
                inc.rule_span,
            )
            .with_label("not a penalty")
            .with_help("call a rule of the edition that gives a penalty, e.g. `late_arrival_qualification(12 min)`"),
        );
        return None;
    }
    let value = match Evaluator::prepared(program, prepared).eval_closed(&expr) {
        Ok(v) => v,
        Err(e) => {
            // A computation too large keeps its own code; every other failure
            // is the incident's.
            let code = match e.code {
                Some(crate::eval::TOO_LARGE) => crate::eval::TOO_LARGE,
                _ => "E0712",
            };
            diags.push(
                Diagnostic::error(
                    code,
                    format!("`{}` cannot be evaluated: {}", inc.rule, e.message),
                    inc.rule_span,
                )
                .with_label("evaluating this failed"),
            );
            return None;
        }
    };
    Some(value)
}

/// For an incident's rule written as words, which does not read as an
/// expression and of which the parser has nothing more to say: a rule's name
/// followed by its inputs without brackets (`late_arrival 12 min`), or the rule
/// described in words (`late arrival`, or `sen ankomst` as the document's
/// heading says), for which the help names the edition's rules that give a
/// penalty and whose name, section or doc hold every word.
fn help_for_words(program: &Program, written: &str) -> Option<String> {
    const SHOWN: usize = 4;
    let words: Vec<&str> = written.split_whitespace().collect();
    let [first, _, ..] = words[..] else {
        return None;
    };
    if let Some((_, rule)) = program.rule(first) {
        return Some(format!(
            "to call `{first}`, put its inputs in brackets: {}",
            call_shape(program, rule)
        ));
    }
    let is_word = |w: &&str| {
        w.chars().all(|c| c.is_alphabetic() || c == '_') && !syntax::RESERVED.contains(w)
    };
    if !words.iter().all(is_word) {
        return None;
    }
    let words: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let holds_every_word = |r: &&Rule| {
        let section = r.source.as_ref().and_then(|s| s.section.as_deref());
        let text = format!("{} {} {}", r.name, section.unwrap_or(""), r.doc).to_lowercase();
        words.iter().all(|w| text.contains(w.as_str()))
    };
    let named: Vec<&Rule> = program
        .rules
        .iter()
        .map(|r| &**r)
        .filter(|r| matches!(r.ret, Type::Penalty(_)))
        .filter(holds_every_word)
        .collect();
    if named.is_empty() {
        return Some(
            "no rule of the edition that gives a penalty is named or described by these \
             words; `bfr list` shows the edition's rules and what each gives"
                .into(),
        );
    }
    let calls: Vec<String> = named
        .iter()
        .take(SHOWN)
        .map(|r| call_shape(program, r))
        .collect();
    let more = match named.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!(
        "a rule's name is one word; the edition's rules giving a penalty that these words \
         describe: {}{more}; call one (with its inputs)",
        calls.join(", ")
    ))
}

/// How `rule` is called: `late_arrival(late: duration)`, a const by its name.
fn call_shape(program: &Program, rule: &Rule) -> String {
    if matches!(rule.body, crate::ir::RuleBody::Const { .. }) {
        return format!("`{}`", rule.name);
    }
    format!("`{}({})`", rule.name, program.params_shown(rule))
}

/// What an incident's penalty does in the run: a deduction in the phase's unit, a
/// warning, or a stop (a referral, a forfeit), said when the run reaches it.
fn apply(
    inc: &mut Incident,
    value: Value,
    program: &Program,
    units: &ScoreUnits,
    diags: &mut Diagnostics,
) {
    inc.penalty = Some(value.show(program));
    let Value::Penalty(p) = value else {
        return;
    };
    let (unit, phase, other) = match &inc.at {
        At::Round(_) => (&units.round, "a qualification round", "knockout `stage`"),
        At::Stage(_) => (&units.stage, "a knockout stage", "qualification `round`"),
    };
    inc.effect = match p {
        Penalty::Warning => Some(Effect::Warning),
        Penalty::Deduct { amount, unit: u } if Some(&u) == unit.as_ref() => {
            Some(Effect::Deduct(amount))
        }
        Penalty::Deduct { .. } => {
            let shown = inc.penalty.clone().unwrap_or_default();
            let d = match unit {
                Some(unit) => Diagnostic::error(
                    "E0712",
                    format!("`{}` gives `{shown}`, but a penalty in {phase} deducts {unit}", inc.rule),
                    inc.rule_span,
                )
                .with_label(format!("this penalty is not in {unit}"))
                .with_help(format!(
                    "use the edition's rule for {phase} (a penalty in {unit}), or name the {other} the incident happened in"
                )),
                None => Diagnostic::error(
                    "E0712",
                    format!(
                        "`{}` gives `{shown}`, but the edition gives no unit for the score of {phase}",
                        inc.rule
                    ),
                    inc.rule_span,
                )
                .with_label("nothing to deduct this from")
                .with_help("give the competition a VP scale (`vp_scale`) or an IMP scale (`imp_scale`) in the edition"),
            };
            diags.push(d);
            None
        }
        Penalty::Refer { to } => Some(Effect::Halt(format!(
            "referred to \"{to}\": the run cannot decide this"
        ))),
        Penalty::Forfeit => Some(Effect::Halt(
            "the match is forfeited: the run cannot decide this".into(),
        )),
    };
}

/// E0713: the run stopped at `inc`, a referral or a forfeit (`why`), which it
/// cannot decide. Said where the run reaches it: an incident of a round never
/// reached, or of a team that does not play there, stops nothing.
pub(super) fn stopped_by(inc: &Incident, why: &str) -> Diagnostic {
    let where_ = match &inc.at {
        At::Round(r) => format!("round {r}"),
        At::Stage(s) => format!("stage `{s}`"),
    };
    Diagnostic::error(
        "E0713",
        format!("team {}'s incident in {where_} is {why}", inc.team),
        inc.rule_span,
    )
    .with_label(format!("gives `{}`", inc.penalty.clone().unwrap_or_default()))
    .with_help("when the case is decided, write the decision in the file: the results as scored, and the penalty given as `rule`, e.g. `rule = \"deduct 4 VP\"`")
}
