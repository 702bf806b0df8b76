//! The runner's [`Source`] over an event file: results, choices, deductions and
//! withdrawals come from the file; what is missing stops the run; what is wrong is
//! recorded as a diagnostic with the entry's span.

use super::model::{At, Effect, Event, MatchResult};
use super::render::{Next, NextMatch};
use crate::diag::{Diagnostic, Diagnostics};
use crate::runner::{Outcome, Source};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet};

/// What became of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Not looked at yet.
    Unseen,
    /// Checked against the draw: it is for a drawn match (and not yet used).
    Valid,
    /// The run used it.
    Used,
    /// A problem was reported about it.
    Reported,
}

/// Why the run stopped, as the source saw it.
#[derive(Debug, Clone)]
enum Waiting {
    Round(u32),
    Stage(String),
    Choice {
        stage: String,
        chooser: u32,
        candidates: Vec<u32>,
    },
    Halt(String),
}

/// A round's draw: (home, away) in table order, and the bye.
type Drawn = (Vec<(u32, u32)>, Option<u32>);

/// A [`Source`] that answers from an [`Event`].
pub struct EventSource<'e> {
    event: &'e Event,
    rounds: Vec<Vec<Status>>,
    stages: Vec<Vec<Status>>,
    withdrawn: Vec<Vec<Status>>,
    choices_made: Vec<usize>,
    choices_blocked: Vec<bool>,
    incidents: Vec<bool>,
    rounds_drawn: BTreeMap<u32, Drawn>,
    stages_drawn: BTreeMap<String, Vec<(u32, u32)>>,
    met: BTreeMap<(u32, u32), u32>,
    waiting: Option<Waiting>,
    diags: Diagnostics,
}

fn pair(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

fn list(teams: &[u32]) -> String {
    let v: Vec<String> = teams.iter().map(u32::to_string).collect();
    v.join(", ")
}

impl<'e> EventSource<'e> {
    /// A source over `event`.
    pub fn new(event: &'e Event) -> Self {
        EventSource {
            event,
            rounds: event
                .rounds
                .iter()
                .map(|r| vec![Status::Unseen; r.results.len()])
                .collect(),
            stages: event
                .stages
                .iter()
                .map(|s| vec![Status::Unseen; s.results.len()])
                .collect(),
            withdrawn: event
                .stages
                .iter()
                .map(|s| vec![Status::Unseen; s.withdrawn.len()])
                .collect(),
            choices_made: vec![0; event.stages.len()],
            choices_blocked: vec![false; event.stages.len()],
            incidents: vec![false; event.incidents.len()],
            rounds_drawn: BTreeMap::new(),
            stages_drawn: BTreeMap::new(),
            met: BTreeMap::new(),
            waiting: None,
            diags: Diagnostics::default(),
        }
    }

    fn round_index(&self, round: u32) -> Option<usize> {
        self.event.rounds.iter().position(|r| r.number == round)
    }

    fn stage_index(&self, stage: &str) -> Option<usize> {
        self.event.stages.iter().position(|s| s.name == stage)
    }

    /// A halting incident at `at`, if any (marked as used).
    fn halt(&mut self, at: &At) -> Option<String> {
        for (i, inc) in self.event.incidents.iter().enumerate() {
            if &inc.at == at
                && let Some(Effect::Halt(m)) = &inc.effect
            {
                if let Some(u) = self.incidents.get_mut(i) {
                    *u = true;
                }
                return Some(format!("team {}'s incident: {m}", inc.team));
            }
        }
        None
    }

    /// Deductions at `at` (marking every applicable incident there as used).
    fn deductions(&mut self, at: &At) -> Vec<(u32, Decimal)> {
        let mut out = Vec::new();
        for (i, inc) in self.event.incidents.iter().enumerate() {
            if &inc.at != at {
                continue;
            }
            match &inc.effect {
                Some(Effect::Deduct(d)) => out.push((inc.team, *d)),
                Some(Effect::Warning) => {}
                _ => continue,
            }
            if let Some(u) = self.incidents.get_mut(i) {
                *u = true;
            }
        }
        out
    }

    /// Checks the results listed for a draw against it; returns each entry's status.
    fn check_results(
        &mut self,
        results: &[MatchResult],
        pairs: &[(u32, u32)],
        bye: Option<u32>,
        place: &str,
        repeats: bool,
    ) -> Vec<Status> {
        let drawn: BTreeSet<(u32, u32)> = pairs.iter().map(|(a, b)| pair(*a, *b)).collect();
        let mut status = Vec::new();
        let mut seen: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for (j, r) in results.iter().enumerate() {
            let key = pair(r.a, r.b);
            if drawn.contains(&key) {
                if let Some(first) = seen.get(&key).and_then(|k| results.get(*k)) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0707",
                            format!(
                                "the result of team {} v team {} {place} is given twice",
                                r.a, r.b
                            ),
                            r.span,
                        )
                        .with_label("given again here; not used")
                        .with_note(first.span, "the result used")
                        .with_help("keep one result per match"),
                    );
                    status.push(Status::Reported);
                } else {
                    seen.insert(key, j);
                    status.push(Status::Valid);
                }
                continue;
            }
            if repeats && let Some(round) = self.met.get(&key) {
                self.diags.push(
                    Diagnostic::error(
                        "E0706",
                        format!(
                            "team {} and team {} already met in round {round}: teams meet at most once in the qualification",
                            r.a, r.b
                        ),
                        r.span,
                    )
                    .with_label(format!("a repeat opponent {place}"))
                    .with_help(format!(
                        "the draw {place}: {}",
                        describe_draw(pairs, bye)
                    )),
                );
                status.push(Status::Reported);
                continue;
            }
            let whom = |t: u32| match pairs.iter().find(|(h, a)| *h == t || *a == t) {
                Some((h, a)) => format!("team {t} plays team {}", if *h == t { a } else { h }),
                None if bye == Some(t) => format!("team {t} has the bye"),
                None => format!("team {t} does not play"),
            };
            self.diags.push(
                Diagnostic::error(
                    "E0705",
                    format!(
                        "this result is for a match that was not drawn: {} and {} {place}",
                        whom(r.a),
                        whom(r.b)
                    ),
                    r.span,
                )
                .with_label("not a match of the draw")
                .with_help(format!("the draw {place}: {}", describe_draw(pairs, bye))),
            );
            status.push(Status::Reported);
        }
        status
    }

    /// After a run: every entry that was never used, and what comes next.
    pub fn finish(mut self, outcome: &Outcome) -> (Option<Next>, Diagnostics) {
        let why = match &outcome.pending {
            Some(p) => format!("the run stopped before it, at {}", p.next),
            None => "the competition is complete without it".to_string(),
        };
        // After a stop that is already reported (a referral, a wrong choice), what
        // follows was not reached because of it: not a problem of its own.
        let reported_stop = matches!(self.waiting, Some(Waiting::Halt(_)))
            || self.choices_blocked.iter().any(|b| *b);
        if !reported_stop {
            let completed: Vec<String> = outcome
                .report
                .stages
                .iter()
                .map(|s| s.name.clone())
                .collect();
            self.unused(&why, &completed);
        }
        let next = outcome.pending.as_ref().map(|p| self.next(&p.next));
        (next, self.diags)
    }

    /// After a run that failed: every problem found so far.
    pub fn finish_without_outcome(self) -> (Option<Next>, Diagnostics) {
        (None, self.diags)
    }

    /// Reports every entry of the file the run never used, saying `why`.
    fn unused(&mut self, why: &str, completed: &[String]) {
        self.unused_rounds(why);
        self.unused_stage_entries(why, completed);
        self.unused_incidents(why);
    }

    /// Rounds with results that were never drawn.
    fn unused_rounds(&mut self, why: &str) {
        let event = self.event;
        for (i, r) in event.rounds.iter().enumerate() {
            if self.rounds_drawn.contains_key(&r.number) || r.results.is_empty() {
                continue;
            }
            self.diags.push(
                Diagnostic::error(
                    "E0710",
                    format!("round {} was never drawn: {why}", r.number),
                    r.span,
                )
                .with_label(format!(
                    "{} results not used",
                    self.rounds.get(i).map_or(0, Vec::len)
                ))
                .with_help("a round's draw depends on the results before it: give the earlier results first"),
            );
        }
    }

    /// Stages never drawn, results of walkovers, choices after the draw was complete.
    fn unused_stage_entries(&mut self, why: &str, completed: &[String]) {
        let event = self.event;
        for (i, s) in event.stages.iter().enumerate() {
            let drawn = self.stages_drawn.contains_key(&s.name);
            let made = self.choices_made.get(i).copied().unwrap_or(0);
            let blocked = self.choices_blocked.get(i).copied().unwrap_or(false);
            let title = event.stage_title(&s.name);
            if !drawn {
                let waiting_here = matches!(&self.waiting, Some(Waiting::Choice { stage, .. }) if *stage == s.name);
                let empty = s.choices.is_empty()
                    && s.withdrawn.is_empty()
                    && s.withdrawn_at_draw.is_empty()
                    && s.absent.is_empty()
                    && s.seating.is_empty()
                    && s.results.is_empty();
                if !waiting_here && !blocked && made == 0 && !empty {
                    self.diags.push(
                        Diagnostic::error(
                            "E0710",
                            format!("{title} (`{}`) was never drawn: {why}", s.name),
                            s.span,
                        )
                        .with_label("this stage's entries are not used")
                        .with_help(
                            "a stage is drawn when the stages and rounds before it are complete",
                        ),
                    );
                }
                continue;
            }
            // In a stage that was played to the end, a result never asked for was for
            // a match decided without play (a walkover).
            if completed.contains(&s.name) {
                let statuses = self.stages.get(i).cloned().unwrap_or_default();
                for (r, status) in s.results.iter().zip(statuses) {
                    if status == Status::Valid {
                        self.diags.push(
                            Diagnostic::error(
                                "E0710",
                                format!("this result was not needed: the match in {title} was decided without play"),
                                r.span,
                            )
                            .with_label("not used")
                            .with_help("a team withdrew after the draw, so the match was a walkover; remove the result"),
                        );
                    }
                }
            }
            for c in s.choices.iter().skip(made) {
                self.diags.push(
                    Diagnostic::error(
                        "E0710",
                        format!(
                            "this choice was not needed: the draw of {title} was complete without it"
                        ),
                        c.span,
                    )
                    .with_label("not used")
                    .with_help("the last chooser gets the team left over; remove this choice"),
                );
            }
        }
    }

    /// Incidents in a round or stage that was never drawn.
    fn unused_incidents(&mut self, why: &str) {
        let event = self.event;
        for (i, inc) in event.incidents.iter().enumerate() {
            if self.incidents.get(i).copied().unwrap_or(true) || inc.effect.is_none() {
                continue;
            }
            let (reached, place) = match &inc.at {
                At::Round(r) => (self.rounds_drawn.contains_key(r), format!("round {r}")),
                At::Stage(s) => (self.stages_drawn.contains_key(s), event.stage_title(s)),
            };
            if !reached {
                self.diags.push(
                    Diagnostic::error(
                        "E0710",
                        format!("this incident is in {place}, which was never drawn: {why}"),
                        inc.span,
                    )
                    .with_label("not applied"),
                );
            }
        }
    }

    fn next(&self, pending: &str) -> Next {
        let event = self.event;
        let given = |results: &[MatchResult], h: u32, a: u32| {
            results.iter().find(|r| r.is(h, a)).map(|r| r.imps_for(h))
        };
        let table = |pairs: &[(u32, u32)], results: &[MatchResult]| {
            pairs
                .iter()
                .enumerate()
                .map(|(i, (h, a))| NextMatch {
                    table: i + 1,
                    home: *h,
                    away: *a,
                    result: given(results, *h, *a),
                })
                .collect::<Vec<_>>()
        };
        match &self.waiting {
            Some(Waiting::Halt(m)) => Next::Halt { message: m.clone() },
            Some(Waiting::Round(r)) => {
                let (pairs, bye) = self.rounds_drawn.get(r).cloned().unwrap_or_default();
                let results = self
                    .round_index(*r)
                    .and_then(|i| event.rounds.get(i))
                    .map_or(&[][..], |e| &e.results[..]);
                Next::Results {
                    title: format!("{} round {r}", event.qualification_title),
                    round: Some(*r),
                    stage: None,
                    matches: table(&pairs, results),
                    bye,
                }
            }
            Some(Waiting::Stage(s)) => {
                let pairs = self.stages_drawn.get(s).cloned().unwrap_or_default();
                let results = self
                    .stage_index(s)
                    .and_then(|i| event.stages.get(i))
                    .map_or(&[][..], |e| &e.results[..]);
                Next::Results {
                    title: event.stage_title(s),
                    round: None,
                    stage: Some(s.clone()),
                    matches: table(&pairs, results),
                    bye: None,
                }
            }
            Some(Waiting::Choice {
                stage,
                chooser,
                candidates,
            }) => Next::Choice {
                title: event.stage_title(stage),
                stage: stage.clone(),
                chooser: *chooser,
                candidates: candidates.clone(),
            },
            None => Next::Other {
                message: pending.to_string(),
            },
        }
    }
}

fn describe_draw(pairs: &[(u32, u32)], bye: Option<u32>) -> String {
    let mut parts: Vec<String> = pairs.iter().map(|(h, a)| format!("{h}-{a}")).collect();
    if let Some(b) = bye {
        parts.push(format!("bye {b}"));
    }
    parts.join(", ")
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
        _boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        if let Some(m) = self.halt(&At::Round(round)) {
            self.waiting = Some(Waiting::Halt(format!("round {round}: {m}")));
            return None;
        }
        let found = self.round_index(round).and_then(|i| {
            take_result(
                &self.event.rounds.get(i)?.results,
                self.rounds.get_mut(i)?,
                home,
                away,
            )
        });
        if found.is_none() {
            self.waiting = Some(Waiting::Round(round));
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
            self.waiting = Some(wait);
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
            self.waiting = Some(wait);
            return None;
        };
        let title = self.event.stage_title(stage);
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
                .with_help("list the choices in the order they were made: the upper half chooses in ranking order"),
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
                .with_help("a team chooses among the lower half's teams not yet chosen"),
            )
        } else {
            None
        };
        if let Some(d) = problem {
            self.diags.push(d);
            if let Some(b) = self.choices_blocked.get_mut(i) {
                *b = true;
            }
            self.waiting = Some(wait);
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
        _boards: Decimal,
    ) -> Option<(Decimal, Decimal)> {
        if let Some(m) = self.halt(&At::Stage(stage.to_string())) {
            let title = self.event.stage_title(stage);
            self.waiting = Some(Waiting::Halt(format!("{title}: {m}")));
            return None;
        }
        let found = self.stage_index(stage).and_then(|i| {
            take_result(
                &self.event.stages.get(i)?.results,
                self.stages.get_mut(i)?,
                home,
                away,
            )
        });
        if found.is_none() {
            self.waiting = Some(Waiting::Stage(stage.to_string()));
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
        let Some(i) = self.stage_index(stage) else {
            return Vec::new();
        };
        let (Some(entry), Some(status)) = (self.event.stages.get(i), self.withdrawn.get(i)) else {
            return Vec::new();
        };
        entry
            .withdrawn
            .iter()
            .zip(status)
            .filter(|(_, s)| **s == Status::Used)
            .map(|((t, _), _)| *t)
            .collect()
    }

    fn round_drawn(&mut self, round: u32, pairs: &[(u32, u32)], bye: Option<u32>) {
        self.rounds_drawn.insert(round, (pairs.to_vec(), bye));
        for inc in &self.event.incidents {
            if inc.at == At::Round(round)
                && bye != Some(inc.team)
                && !pairs.iter().any(|(h, a)| *h == inc.team || *a == inc.team)
            {
                self.diags.push(
                    Diagnostic::error(
                        "E0712",
                        format!("team {} does not play in round {round}: this incident applies to nothing", inc.team),
                        inc.span,
                    )
                    .with_label("no match of this team in the round")
                    .with_help("name the round in which the team played"),
                );
            }
        }
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

    fn stage_drawn(&mut self, stage: &str, pairs: &[(u32, u32)]) {
        self.stages_drawn.insert(stage.to_string(), pairs.to_vec());
        // A penalty for a team that does not play here would silently apply to nothing.
        let title = self.event.stage_title(stage);
        for inc in &self.event.incidents {
            if inc.at == At::Stage(stage.to_string())
                && !pairs.iter().any(|(h, a)| *h == inc.team || *a == inc.team)
            {
                self.diags.push(
                    Diagnostic::error(
                        "E0712",
                        format!("team {} does not play a match in {title}: this incident applies to nothing", inc.team),
                        inc.span,
                    )
                    .with_label("no match of this team in the stage")
                    .with_help("name the stage or round in which the team played"),
                );
            }
        }
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

/// The IMPs (home's, away's) of the first valid, unused result for this pair, which
/// is then marked used.
fn take_result(
    results: &[MatchResult],
    status: &mut [Status],
    home: u32,
    away: u32,
) -> Option<(Decimal, Decimal)> {
    let j = results
        .iter()
        .enumerate()
        .position(|(j, r)| r.is(home, away) && status.get(j) == Some(&Status::Valid))?;
    if let Some(s) = status.get_mut(j) {
        *s = Status::Used;
    }
    results.get(j).map(|r| r.imps_for(home))
}
