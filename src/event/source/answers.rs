//! The runner's questions answered from the event file: the [`Source`] impl of
//! [`EventSource`], which marks each entry it uses.

use super::{EventSource, Status, Waiting, describe_draw, list, pair};
use crate::diag::Diagnostics;
use crate::diag::{Diagnostic, counted};
use crate::event::model::{At, ImpCap, MatchResult, WholeMargin};
use crate::runner::{DrawAt, Source, Verdict};
use crate::source::Span;
use rust_decimal::Decimal;

impl EventSource<'_> {
    /// The incidents the run could not apply (a rule that cannot be
    /// evaluated, a round that is not there) in the qualification or in a
    /// stage written before stage `i`: a deduction missing from the standings
    /// the choices of stage `i` follow, the likelier cause of a choice that
    /// no longer fits.
    fn unapplied_before(&self, i: usize) -> impl Iterator<Item = Span> + '_ {
        self.event.incidents.iter().filter_map(move |inc| {
            let before = match &inc.at {
                At::Round(_) => true,
                At::Stage(s) => self.stage_index(s).is_some_and(|k| k < i),
            };
            (before && inc.effect.is_none()).then_some(inc.span)
        })
    }
}

impl Source for EventSource<'_> {
    fn qualification_boards(&mut self, round: u32, home: u32, away: u32) -> Option<Decimal> {
        let i = self.round_index(round)?;
        let entry = self.event.rounds.get(i)?;
        entry.results.iter().find(|r| r.is(home, away))?.boards
    }

    fn qualification_result(
        &mut self,
        round: u32,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        if let Some(m) = self.halt(&At::Round(round)) {
            let message = format!("round {round}: {m}");
            self.wait(Waiting::Halt(message.clone(), incident_stop(message)));
            return None;
        }
        let found = self.round_index(round).and_then(|i| {
            let event = self.event;
            take_result(
                &event.rounds.get(i)?.results,
                self.rounds.get_mut(i)?,
                (home, away, boards),
                &mut Check {
                    cap: event.imp_cap.as_ref(),
                    whole_margin: event.whole_margin.as_ref(),
                    place: format!("in round {round}"),
                    diags: &mut self.diags,
                },
            )
        });
        if found.is_none() {
            self.wait(Waiting::Round(round));
        }
        found
    }

    fn choice(&mut self, stage: &str, chooser: u32, candidates: &[u32]) -> Option<u32> {
        let wait = Waiting::Choice {
            stage: stage.to_string(),
            chooser,
            candidates: candidates.to_vec(),
        };
        let Some(i) = self.stage_index(stage) else {
            self.wait(wait);
            return None;
        };
        let made = self.choices_made.get(i).copied().unwrap_or(0);
        let next = self
            .event
            .stages
            .get(i)
            .and_then(|s| s.choices.get(made))
            .cloned();
        let blocked = self.choices_blocked.get(i).copied().unwrap_or(false);
        let Some(c) = next.filter(|_| !blocked) else {
            self.wait(wait);
            return None;
        };
        let title = self.event.stage_title(stage);
        // Choices made before a correction of a result that placed the teams (in
        // the qualification, or in a knockout stage before this one) moved the
        // positions cannot stand: the halves they were made from are gone.
        let again = "; if a result that placed the teams (in the qualification or an earlier knockout stage) was corrected after the choices began, delete the choices from this one on and make them again (`bfr run` asks for each)";
        let problem = if c.chooser != chooser {
            Some(
                Diagnostic::error(
                    "E0708",
                    format!(
                        "team {} chooses out of turn: in {title} it is team {chooser}'s turn to choose (among {})",
                        c.chooser,
                        list(candidates)
                    ),
                    c.span,
                )
                .with_label(format!("team {chooser} chooses next"))
                .with_help(format!("list the choices in the order they were made: the upper half chooses in ranking order{again}")),
            )
        } else if !candidates.contains(&c.chosen) {
            Some(
                Diagnostic::error(
                    "E0709",
                    format!(
                        "team {chooser} cannot choose team {}: in {title} it chooses among {}",
                        c.chosen,
                        list(candidates)
                    ),
                    c.span,
                )
                .with_label(format!("team {} is not among the candidates", c.chosen))
                .with_help(format!(
                    "a team chooses among the lower half's teams not yet chosen{again}"
                )),
            )
        } else {
            None
        };
        if let Some(d) = problem {
            let d = self.unapplied_before(i).fold(d, |d, at| {
                d.with_note(
                    at,
                    "this incident could not be applied (its own error says why): its deduction is missing from the standings the choices follow",
                )
            });
            self.diags.push(d);
            if let Some(b) = self.choices_blocked.get_mut(i) {
                *b = true;
            }
            self.wait(wait);
            return None;
        }
        if let Some(m) = self.choices_made.get_mut(i) {
            *m += 1;
        }
        Some(c.chosen)
    }

    fn knockout_result(
        &mut self,
        stage: &str,
        home: u32,
        away: u32,
        boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        if let Some(m) = self.halt(&At::Stage(stage.to_string())) {
            let title = self.event.stage_title(stage);
            let message = format!("{title}: {m}");
            self.wait(Waiting::Halt(message.clone(), incident_stop(message)));
            return None;
        }
        let found = self.stage_index(stage).and_then(|i| {
            let event = self.event;
            take_result(
                &event.stages.get(i)?.results,
                self.stages.get_mut(i)?,
                (home, away, boards),
                &mut Check {
                    cap: event.imp_cap.as_ref(),
                    // A knockout match is decided by its IMPs, not a VP scale.
                    whole_margin: None,
                    place: format!("in {}", event.stage_title(stage)),
                    diags: &mut self.diags,
                },
            )
        });
        if found.is_none() {
            self.wait(Waiting::Stage(stage.to_string()));
        }
        found
    }

    fn qualification_deductions(&mut self, round: u32) -> Vec<(u32, Decimal)> {
        self.deductions(&At::Round(round))
    }

    fn knockout_deductions(&mut self, stage: &str) -> Vec<(u32, Decimal)> {
        self.deductions(&At::Stage(stage.to_string()))
    }

    fn segment_picks(
        &mut self,
        stage: &str,
        home: u32,
        away: u32,
        _allowed: &[(u32, u32)],
    ) -> Option<(u32, u32)> {
        let i = self.stage_index(stage)?;
        self.event
            .stages
            .get(i)?
            .seating
            .iter()
            .find(|(a, b, _, _)| (*a, *b) == (home, away) || (*a, *b) == (away, home))
            .map(|(_, _, h, w)| (*h, *w))
    }

    fn withdrawn_at_draw(&mut self, stage: &str) -> Vec<u32> {
        self.stage_index(stage)
            .and_then(|i| self.event.stages.get(i))
            .map(|e| e.withdrawn_at_draw.iter().map(|(t, _)| *t).collect())
            .unwrap_or_default()
    }

    fn absent_choosers(&mut self, stage: &str) -> Vec<(u32, crate::runner::Arrival)> {
        use crate::runner::Arrival;
        self.stage_index(stage)
            .and_then(|i| self.event.stages.get(i))
            .map(|e| {
                e.absent
                    .iter()
                    .map(|(t, turn, _)| (*t, turn.map_or(Arrival::Never, Arrival::BeforeTurn)))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn choices_in_order(&mut self, stage: &str) -> Option<Vec<(u32, u32)>> {
        // With absent captains the turns change, so the runner takes all the choices
        // at once; they count as used.
        let i = self.stage_index(stage)?;
        let choices: Vec<(u32, u32)> = self
            .event
            .stages
            .get(i)?
            .choices
            .iter()
            .map(|c| (c.chooser, c.chosen))
            .collect();
        if let Some(m) = self.choices_made.get_mut(i) {
            *m = choices.len();
        }
        Some(choices)
    }

    fn withdrawn_after_draw(&mut self, stage: &str) -> Vec<u32> {
        self.stage_index(stage)
            .map(|i| self.withdrawn_applied(i))
            .unwrap_or_default()
    }

    fn round_drawn(&mut self, round: u32, pairs: &[(u32, u32)], bye: Option<u32>) {
        self.rounds_drawn.insert(round, (pairs.to_vec(), bye));
        let plays = |t: u32| bye == Some(t) || pairs.iter().any(|(h, a)| *h == t || *a == t);
        self.incidents_of_absent_teams(&At::Round(round), plays);
        if let Some(i) = self.round_index(round)
            && let Some(entry) = self.event.rounds.get(i)
        {
            let status = self.check_results(
                &entry.results,
                pairs,
                bye,
                &format!("in round {round}"),
                true,
            );
            if let Some(s) = self.rounds.get_mut(i) {
                *s = status;
            }
        }
        for (a, b) in pairs {
            self.met.entry(pair(*a, *b)).or_insert(round);
        }
    }

    fn recorded_round_draw(&mut self, round: u32) -> Option<crate::runner::RoundDraw> {
        self.recorded(DrawAt::Round(round))
            .map(|d| (d.matches(), d.bye.map(|(b, _)| b)))
    }

    fn recorded_stage_draw(&mut self, stage: &str) -> Option<crate::runner::RoundDraw> {
        self.recorded(DrawAt::Stage(stage))
            .map(|d| (d.matches(), d.bye.map(|(b, _)| b)))
    }

    fn draw_verdict(&mut self, at: DrawAt<'_>, verdict: &Verdict) {
        self.verdict(at, verdict);
    }

    fn choices_contradicted(&mut self, stage: &str, choices: &[(u32, u32)]) {
        self.choices_against_the_draw(stage, choices);
    }

    fn field_kept(&mut self, stage: &str, drawn: &[u32], displaced: &[(u32, String)]) {
        self.kept_field(stage, drawn, displaced);
    }

    fn stage_drawn(&mut self, stage: &str, pairs: &[(u32, u32)], bye: Option<u32>) {
        self.stages_drawn
            .insert(stage.to_string(), (pairs.to_vec(), bye));
        self.stage_order.push(stage.to_string());
        // A penalty for a team that does not play here would silently apply to nothing.
        let plays = |t: u32| pairs.iter().any(|(h, a)| *h == t || *a == t);
        self.incidents_of_absent_teams(&At::Stage(stage.to_string()), plays);
        let Some(i) = self.stage_index(stage) else {
            return;
        };
        let Some(entry) = self.event.stages.get(i) else {
            return;
        };
        let title = self.event.stage_title(stage);
        let status = self.check_results(&entry.results, pairs, None, &format!("in {title}"), false);
        if let Some(s) = self.stages.get_mut(i) {
            *s = status;
        }
        let mut wd = Vec::new();
        for (t, at) in &entry.withdrawn {
            if pairs.iter().any(|(h, a)| h == t || a == t) {
                wd.push(Status::Used);
            } else {
                self.diags.push(
                    Diagnostic::error(
                        "E0710",
                        format!("team {t} is not in {title}: its withdrawal is not used"),
                        *at,
                    )
                    .with_label("not drawn in this stage")
                    .with_help(format!(
                        "the draw in {title}: {}",
                        describe_draw(pairs, None)
                    )),
                );
                wd.push(Status::Reported);
            }
        }
        if let Some(s) = self.withdrawn.get_mut(i) {
            *s = wd;
        }
    }
}

/// What a result is checked against when the run takes it: the most IMPs a board
/// gives, where the match is played, and where problems go.
struct Check<'a> {
    cap: Option<&'a ImpCap>,
    /// The VP scale that scores the match, if its margin counts whole IMPs.
    whole_margin: Option<&'a WholeMargin>,
    place: String,
    diags: &'a mut Diagnostics,
}

impl Check<'_> {
    /// A problem with result `r` for a match of `boards` boards: more boards
    /// counted than the match has, board scores for another number of boards
    /// (E0722), a margin the VP scale cannot score (E0730), or more IMPs than
    /// the boards give (E0721).
    fn problem(&self, r: &MatchResult, scheduled: Decimal) -> Option<Diagnostic> {
        let place = &self.place;
        if let Some(counted_boards) = r.boards
            && counted_boards > scheduled
        {
            let (n, of) = (counted_boards.normalize(), scheduled.normalize());
            return Some(
                Diagnostic::error(
                    "E0722",
                    format!("this result counts {}, but the match {place} is of {}", counted(n, "board"), counted(of, "board")),
                    r.span,
                )
                .with_label(format!("/{n}: more than the {of} the match has"))
                .with_help(format!("`/N` is for a match that counted fewer boards than its {of}; without it, the match counts all {of}")),
            );
        }
        if let Some(d) = self.fraction_of_imp(r) {
            return Some(d);
        }
        // A result that counts fewer boards (`/7`) is bound by those.
        let boards = r.boards.unwrap_or(scheduled);
        let n = boards.normalize();
        if let Some(scores) = &r.board_scores
            && Decimal::from(scores.len()) != boards
        {
            return Some(
                Diagnostic::error(
                    "E0722",
                    format!(
                        "this result gives {}, but the match {place} is of {}",
                        counted(scores.len(), "board score"),
                        counted(n, "board")
                    ),
                    r.span,
                )
                .with_label(format!("{}, not {n}", counted(scores.len(), "board")))
                .with_help("give one score difference for every board of the match, in board order (0 for a board with no difference)"),
            );
        }
        let cap = self.cap?;
        let most = cap.per_board.checked_mul(boards)?;
        let total = r.a_imps.checked_add(r.b_imps)?;
        (total > most).then(|| {
            let per = cap.per_board.normalize();
            Diagnostic::error(
                "E0721",
                format!(
                    "{}:{} is more than {} allow: no board gives more than {per} IMPs, so the match {place} gives at most {} IMPs in all, not {}",
                    r.a_imps.normalize(),
                    r.b_imps.normalize(),
                    counted(n, "board"),
                    most.normalize(),
                    total.normalize()
                ),
                r.span,
            )
            .with_label(format!(
                "{} IMPs in a match of {}",
                total.normalize(),
                counted(n, "board")
            ))
            .with_note(cap.row, format!("the top row of `{}`: {per} IMPs a board", cap.scale))
            .with_help("check the IMPs as scored (a typing error such as `4500` for `45`?); a match that counts fewer boards ends with `/N`")
        })
    }

    /// E0730: a margin with a fraction of an IMP, where the VP scale counts
    /// whole IMPs: the match could not be scored.
    fn fraction_of_imp(&self, r: &MatchResult) -> Option<Diagnostic> {
        let whole = self.whole_margin?;
        let margin = r.a_imps.checked_sub(r.b_imps)?.abs();
        if margin.fract().is_zero() {
            return None;
        }
        Some(
            Diagnostic::error(
                "E0730",
                format!(
                    "{}:{} is a margin of {} IMP, but the VP scale `{}` counts its `{}` in whole IMPs",
                    r.a_imps.normalize(),
                    r.b_imps.normalize(),
                    margin.normalize(),
                    whole.scale,
                    whole.param
                ),
                r.span,
            )
            .with_label("a fraction of an IMP")
            .with_note(whole.at, "the VP scale")
            .with_help("this edition's VP scale takes a whole margin: check the IMPs as scored, and round an adjusted score as the regulations say"),
        )
    }
}

/// The IMPs (home's, away's) of the first valid, unused result for this pair, which
/// is then marked used, or, when it breaks what the boards allow, reported and not
/// used.
fn take_result(
    results: &[MatchResult],
    status: &mut [Status],
    (home, away, boards): (u32, u32, Decimal),
    check: &mut Check<'_>,
) -> Option<(Decimal, Decimal)> {
    let j = results
        .iter()
        .enumerate()
        .position(|(j, r)| r.is(home, away) && status.get(j) == Some(&Status::Valid))?;
    let r = results.get(j)?;
    if let Some(d) = check.problem(r, boards) {
        check.diags.push(d);
        if let Some(s) = status.get_mut(j) {
            *s = Status::Reported;
        }
        return None;
    }
    if let Some(s) = status.get_mut(j) {
        *s = Status::Used;
    }
    Some(r.imps_for(home))
}

/// What a run stopped by an incident (a referral, a forfeit: E0713) waits for.
fn incident_stop(message: String) -> crate::runner::Awaited {
    crate::runner::Awaited::Stopped {
        code: "E0713".into(),
        message,
    }
}
