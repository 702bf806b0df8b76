//! The runner's [`Source`] over an event file: results, choices, deductions and
//! withdrawals come from the file; what is missing stops the run; what is wrong is
//! recorded as a diagnostic with the entry's span.
//!
//! [`Source`]: crate::runner::Source

use super::model::{At, Effect, Event, MatchResult};
use super::render::{Next, NextMatch};
use crate::diag::{Diagnostic, Diagnostics};
use crate::runner::{Awaited, Outcome, Pending};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet};

mod answers;
mod draws;
mod unused;

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
    /// A stop the source found (a referral, a recorded draw that breaks a rule): its
    /// words, and what the run waits for, as data.
    Halt(String, Awaited),
}

/// A round's draw: (home, away) in table order, and the bye.
type Drawn = (Vec<(u32, u32)>, Option<u32>);

/// A [`Source`](crate::runner::Source) that answers from an [`Event`].
pub struct EventSource<'e> {
    event: &'e Event,
    rounds: Vec<Vec<Status>>,
    stages: Vec<Vec<Status>>,
    withdrawn: Vec<Vec<Status>>,
    choices_made: Vec<usize>,
    choices_blocked: Vec<bool>,
    /// Each incident: applied (`Used`), found to apply to nothing (`Reported`),
    /// or not reached.
    incidents: Vec<Status>,
    rounds_drawn: BTreeMap<u32, Drawn>,
    stages_drawn: BTreeMap<String, Drawn>,
    /// The stages in the order they were drawn.
    stage_order: Vec<String>,
    met: BTreeMap<(u32, u32), u32>,
    /// What the run waits for: the first is what comes next; stages played at the
    /// same time may wait too.
    waiting: Vec<Waiting>,
    /// Recorded draws the rules would not make now, reported together at the end
    /// (one correction usually moves every later draw).
    differing: Vec<draws::Differing>,
    /// The stages whose recorded draw stands with other teams than the rules put
    /// there now.
    kept_fields: BTreeSet<String>,
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
            incidents: vec![Status::Unseen; event.incidents.len()],
            rounds_drawn: BTreeMap::new(),
            stages_drawn: BTreeMap::new(),
            stage_order: Vec::new(),
            met: BTreeMap::new(),
            waiting: Vec::new(),
            differing: Vec::new(),
            kept_fields: BTreeSet::new(),
            diags: Diagnostics::default(),
        }
    }

    /// Notes what the run waits for (once each).
    fn wait(&mut self, w: Waiting) {
        let key = |w: &Waiting| format!("{w:?}");
        if !self.waiting.iter().any(|x| key(x) == key(&w)) {
            self.waiting.push(w);
        }
    }

    fn round_index(&self, round: u32) -> Option<usize> {
        self.event.rounds.iter().position(|r| r.number == round)
    }

    fn stage_index(&self, stage: &str) -> Option<usize> {
        self.event.stages.iter().position(|s| s.name == stage)
    }

    /// The teams of stage `i` whose withdrawal after the draw the run applied:
    /// their matches are walkovers.
    fn withdrawn_applied(&self, i: usize) -> Vec<u32> {
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

    /// What stops the run at `at`: the first halting incident there, if any.
    /// Each one there is marked used and said (E0713) once, however often the
    /// run asks; one of a team that does not play there was reported and stops
    /// nothing.
    fn halt(&mut self, at: &At) -> Option<String> {
        let mut first = None;
        for (i, inc) in self.event.incidents.iter().enumerate() {
            let Some(Effect::Halt(m)) = &inc.effect else {
                continue;
            };
            if &inc.at != at {
                continue;
            }
            match self.incidents.get_mut(i) {
                Some(Status::Reported) | None => continue,
                Some(Status::Used) => {}
                Some(status) => {
                    *status = Status::Used;
                    self.diags.push(super::resolve::stopped_by(inc, m));
                }
            }
            first.get_or_insert_with(|| format!("team {}'s incident: {m}", inc.team));
        }
        first
    }

    /// Deductions at `at` (marking every applicable incident there as used). An
    /// incident of a team that does not play there was reported and deducts
    /// nothing.
    fn deductions(&mut self, at: &At) -> Vec<(u32, Decimal)> {
        let mut out = Vec::new();
        for (i, inc) in self.event.incidents.iter().enumerate() {
            let Some(status) = self.incidents.get_mut(i) else {
                continue;
            };
            if &inc.at != at || *status == Status::Reported {
                continue;
            }
            match &inc.effect {
                Some(Effect::Deduct(d)) => out.push((inc.team, *d)),
                Some(Effect::Warning) => {}
                _ => continue,
            }
            *status = Status::Used;
        }
        out
    }

    /// Which incidents the run applied (a deduction made, a stop made, a
    /// warning that applies nothing reached), in the file's order. A knockout
    /// deduction comes off the team's IMPs when its match is scored: until its
    /// result is in (and in a walkover, never) it is not applied.
    pub fn incidents_applied(&self) -> Vec<bool> {
        self.event
            .incidents
            .iter()
            .zip(&self.incidents)
            .map(|(inc, status)| {
                *status == Status::Used
                    && match (&inc.at, &inc.effect) {
                        (At::Stage(stage), Some(Effect::Deduct(_))) => {
                            self.stage_result_used(stage, inc.team)
                        }
                        _ => true,
                    }
            })
            .collect()
    }

    /// Whether the run took a result of `team`'s match in `stage`.
    fn stage_result_used(&self, stage: &str, team: u32) -> bool {
        let Some(i) = self.stage_index(stage) else {
            return false;
        };
        let (Some(entry), Some(statuses)) = (self.event.stages.get(i), self.stages.get(i)) else {
            return false;
        };
        entry
            .results
            .iter()
            .zip(statuses)
            .any(|(r, s)| *s == Status::Used && (r.a == team || r.b == team))
    }

    /// Reports each incident at `at` of a team that does not play there (`plays`
    /// says who does): it applies to nothing, and deducts nothing.
    fn incidents_of_absent_teams(&mut self, at: &At, plays: impl Fn(u32) -> bool) {
        let event = self.event;
        for (i, inc) in event.incidents.iter().enumerate() {
            if inc.at != *at || plays(inc.team) {
                continue;
            }
            if let Some(status) = self.incidents.get_mut(i) {
                *status = Status::Reported;
            }
            let (message, label, help) = match at {
                At::Round(round) => (
                    format!(
                        "team {} does not play in round {round}: this incident applies to nothing",
                        inc.team
                    ),
                    "no match of this team in the round",
                    "name the round in which the team played",
                ),
                At::Stage(stage) => (
                    format!(
                        "team {} does not play a match in {}: this incident applies to nothing",
                        inc.team,
                        event.stage_title(stage)
                    ),
                    "no match of this team in the stage",
                    "name the stage or round in which the team played",
                ),
            };
            self.diags.push(
                Diagnostic::error("E0712", message, inc.span)
                    .with_label(label)
                    .with_help(help),
            );
        }
    }

    /// The round or stage whose recorded draw has the match of `a` and `b`, if any:
    /// a result written under the wrong round is found there.
    fn recorded_elsewhere(&self, a: u32, b: u32) -> Option<String> {
        let has = |d: &Option<super::model::RecordedDraw>| {
            d.as_ref()
                .is_some_and(|d| d.matches().iter().any(|&(h, w)| pair(h, w) == pair(a, b)))
        };
        let round = self.event.rounds.iter().find(|r| has(&r.draw));
        if let Some(r) = round {
            return Some(format!("round {}", r.number));
        }
        let stage = self.event.stages.iter().find(|s| has(&s.draw))?;
        Some(format!("stage `{}`", stage.name))
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
                    self.diags.push(given_twice(first, r, place));
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
                .with_help(match self.recorded_elsewhere(r.a, r.b) {
                    Some(other) => format!(
                        "{}-{} is a match of the draw recorded in {other}: move the result to that entry's `results` (the draw {place}: {})",
                        r.a,
                        r.b,
                        describe_draw(pairs, bye)
                    ),
                    None => format!("the draw {place}: {}", describe_draw(pairs, bye)),
                }),
            );
            status.push(Status::Reported);
        }
        status
    }

    /// What the run waits for when the source stopped it (a referral, a recorded
    /// draw that breaks a rule), in the source's words: the runner only saw a
    /// missing answer.
    pub fn halted(&self) -> Option<Pending> {
        self.waiting.iter().find_map(|w| match w {
            Waiting::Halt(message, awaited) => Some(Pending {
                next: message.clone(),
                awaited: awaited.clone(),
            }),
            _ => None,
        })
    }

    /// After a run: every entry that was never used, and what comes next.
    pub fn finish(mut self, outcome: &Outcome) -> (Option<Next>, Vec<Next>, Diagnostics) {
        self.report_differing();
        let why = match &outcome.pending {
            Some(p) => format!("the run stopped before it, at {}", p.next),
            None => "the competition is complete without it".to_string(),
        };
        // After a stop that is already reported (a referral, a wrong choice), what
        // follows was not reached because of it: not a problem of its own.
        let reported_stop = self.waiting.iter().any(|w| matches!(w, Waiting::Halt(..)))
            || self.choices_blocked.iter().any(|b| *b)
            || self.waits_on_a_refused_result();
        if !reported_stop {
            let completed: Vec<String> = outcome
                .report
                .stages
                .iter()
                .map(|s| s.name.clone())
                .collect();
            self.unused(&why, &completed);
        }
        let next = outcome.pending.as_ref().map(|p| self.next(0, &p.next));
        let also = (1..self.waiting.len()).map(|i| self.next(i, "")).collect();
        (next, also, self.diags)
    }

    /// Whether a round or stage the run waits for has a result written for it that
    /// was refused (not understood, or a problem reported): what follows was not
    /// reached because of that error, not a problem of its own.
    fn waits_on_a_refused_result(&self) -> bool {
        let event = self.event;
        let reported = |s: Option<&Vec<Status>>| s.is_some_and(|s| s.contains(&Status::Reported));
        self.waiting.iter().any(|w| match w {
            Waiting::Round(r) => self.round_index(*r).is_some_and(|i| {
                event.rounds.get(i).is_some_and(|e| e.refused > 0) || reported(self.rounds.get(i))
            }),
            Waiting::Stage(st) => self.stage_index(st).is_some_and(|i| {
                event.stages.get(i).is_some_and(|e| e.refused > 0) || reported(self.stages.get(i))
            }),
            _ => false,
        })
    }

    /// After a run that a problem stopped: every problem found so far, and what the
    /// stages it did not stop still wait for (their draws, with any result in).
    pub fn finish_stopped(mut self) -> (Vec<Next>, Diagnostics) {
        self.report_differing();
        let waiting = (0..self.waiting.len())
            .map(|i| self.next(i, ""))
            .filter(|n| !matches!(n, Next::Halt { .. }))
            .collect();
        (waiting, self.diags)
    }

    fn next(&self, i: usize, pending: &str) -> Next {
        let event = self.event;
        // A result reported as a problem is not given: the match still needs one.
        let given = |results: &[MatchResult], status: &[Status], h: u32, a: u32| {
            results
                .iter()
                .zip(status.iter().chain(std::iter::repeat(&Status::Unseen)))
                .find(|(r, s)| r.is(h, a) && **s != Status::Reported)
                .map(|(r, _)| r.imps_for(h))
        };
        let table =
            |pairs: &[(u32, u32)], results: &[MatchResult], status: &[Status], gone: &[u32]| {
                pairs
                    .iter()
                    .enumerate()
                    .map(|(i, (h, a))| {
                        let withdrawn: Vec<u32> =
                            [*h, *a].into_iter().filter(|t| gone.contains(t)).collect();
                        NextMatch {
                            table: i + 1,
                            home: *h,
                            away: *a,
                            result: if withdrawn.is_empty() {
                                given(results, status, *h, *a)
                            } else {
                                None
                            },
                            withdrawn,
                        }
                    })
                    .collect::<Vec<_>>()
            };
        match self.waiting.get(i) {
            Some(Waiting::Halt(m, _)) => Next::Halt { message: m.clone() },
            Some(Waiting::Round(r)) => {
                let (pairs, bye) = self.rounds_drawn.get(r).cloned().unwrap_or_default();
                let i = self.round_index(*r);
                let results = i
                    .and_then(|i| event.rounds.get(i))
                    .map_or(&[][..], |e| &e.results[..]);
                let status = i
                    .and_then(|i| self.rounds.get(i))
                    .map_or(&[][..], |s| &s[..]);
                Next::Results {
                    title: format!("{} round {r}", event.qualification_title),
                    round: Some(*r),
                    stage: None,
                    matches: table(&pairs, results, status, &[]),
                    bye,
                }
            }
            Some(Waiting::Stage(s)) => {
                let (pairs, bye) = self.stages_drawn.get(s).cloned().unwrap_or_default();
                let i = self.stage_index(s);
                let results = i
                    .and_then(|i| event.stages.get(i))
                    .map_or(&[][..], |e| &e.results[..]);
                let status = i
                    .and_then(|i| self.stages.get(i))
                    .map_or(&[][..], |s| &s[..]);
                let gone = i.map(|i| self.withdrawn_applied(i)).unwrap_or_default();
                Next::Results {
                    title: event.stage_title(s),
                    round: None,
                    stage: Some(s.clone()),
                    matches: table(&pairs, results, status, &gone),
                    bye,
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

/// E0707: `again` repeats the result of `first`'s match; both scores are shown, in
/// the order `again` names the teams, and whether they differ.
fn given_twice(first: &MatchResult, again: &MatchResult, place: &str) -> Diagnostic {
    let score = |r: &MatchResult| {
        let (x, y) = r.imps_for(again.a);
        format!("{}:{}", x.normalize(), y.normalize())
    };
    let (was, now) = (score(first), score(again));
    let teams = format!("team {} v team {}", again.a, again.b);
    if was == now {
        Diagnostic::error(
            "E0707",
            format!("the result of {teams} {place} is given twice, {now} both times"),
            again.span,
        )
        .with_label("given again here; not used")
        .with_note(first.span, "the result used")
        .with_help("remove the second: one result per match")
    } else {
        Diagnostic::error(
            "E0707",
            format!(
                "the result of {teams} {place} is given twice with different scores: {was} first, {now} here"
            ),
            again.span,
        )
        .with_label(format!("{now} here: not used"))
        .with_note(first.span, format!("{was}: the result used"))
        .with_help("the scores differ: keep the one the scorer confirms and remove the other")
    }
}

fn describe_draw(pairs: &[(u32, u32)], bye: Option<u32>) -> String {
    let mut parts: Vec<String> = pairs.iter().map(|(h, a)| format!("{h}-{a}")).collect();
    if let Some(b) = bye {
        parts.push(format!("bye {b}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::{super::model, EventSource};
    use crate::event::model::Effect;
    use crate::runner::Source as _;
    use rust_decimal::Decimal;

    #[test]
    fn an_incident_of_a_team_not_in_the_round_deducts_nothing_and_is_not_applied() {
        let text = "competition = \"mini\"\nseed = 1\nteam = [{ id = 1 }, { id = 2 }, { id = 3 }]\n\
                    [[incident]]\nteam = 3\nround = 1\nrule = \"deduct 2 VP\"\n\
                    [[incident]]\nteam = 1\nround = 1\nrule = \"deduct 2 VP\"\n";
        let mut sources = crate::source::Sources::new();
        let file = sources.add("event.toml", text);
        let (event, diags) = model::parse(text, file, false);
        assert!(diags.is_empty(), "{diags:?}");
        let mut event = event.unwrap();
        for incident in &mut event.incidents {
            incident.effect = Some(Effect::Deduct(Decimal::TWO));
        }
        let mut source = EventSource::new(&event);
        // Team 3 sits out round 1 (no bye: it is not in the draw at all).
        source.round_drawn(1, &[(1, 2)], None);
        assert_eq!(source.qualification_deductions(1), [(1, Decimal::TWO)]);
        assert_eq!(source.incidents_applied(), [false, true]);
        let codes: Vec<_> = source.diags.sorted().iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0712"]);
        // The bye's team plays the round: its incident applies.
        let mut source = EventSource::new(&event);
        source.round_drawn(1, &[(1, 2)], Some(3));
        assert_eq!(source.qualification_deductions(1).len(), 2);
        assert_eq!(source.incidents_applied(), [true, true]);
    }
}
