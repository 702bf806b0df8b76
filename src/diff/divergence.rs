//! What a change does to a competition as played: both editions run the same
//! simulated event (same seed, same teams, same strengths; [`runner::simulate`])
//! for seeds `1..=N`, and the first step where the two events part — a
//! qualification round's draw or standings, a knockout stage's draw or winners,
//! the final places — is reported, with how many of the N events part at all.
//!
//! [`runner::simulate`]: crate::runner::simulate

use crate::ir::Program;
use crate::runner::report::Report;
use crate::runner::{self, Options, simulate::Simulation};
use serde::Serialize;

/// The most simulated events per competition.
pub const MAX_EVENTS: u64 = 1000;

/// The field a competition is simulated with when none is given: its smallest,
/// else 16 teams.
const DEFAULT_TEAMS: u32 = 16;

/// How the two editions' simulated events of one competition compare.
#[derive(Debug, Clone, Serialize)]
pub struct Divergence {
    /// The competition.
    pub competition: String,
    /// Teams entered in each event.
    pub teams: u32,
    /// Events simulated (seeds 1 to this).
    pub events: u64,
    /// How many of them part.
    pub diverged: u64,
    /// The first step where they part, in the first event that does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<Step>,
}

/// Where two simulated events part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The seed of the event.
    pub seed: u64,
    /// What: `Gröna Hissen round 3 draw, table 2`, `stage bc04_b winner, table 1`,
    /// `final place of team 7`.
    pub at: String,
    /// The old edition's event there (`no such step` where it has none).
    pub old: String,
    /// The new edition's.
    pub new: String,
}

/// Simulates every competition both editions have, `events` times each, and
/// returns those whose events part. `teams` overrides each competition's field.
pub fn simulate(old: &Program, new: &Program, events: u64, teams: Option<u32>) -> Vec<Divergence> {
    let events = events.min(MAX_EVENTS);
    let mut out = Vec::new();
    let renamed = super::competition::renamed(old, new);
    for comp in &new.competitions {
        let was = renamed
            .iter()
            .find(|(_, now)| **now == comp.name)
            .map_or(comp.name.as_str(), |(was, _)| was.as_str());
        let Some(before) = old.competitions.iter().find(|c| c.name == was) else {
            continue;
        };
        let field = teams
            .or(comp.min_teams)
            .or(before.min_teams)
            .unwrap_or(DEFAULT_TEAMS);
        let mut d = Divergence {
            competition: comp.name.clone(),
            teams: field,
            events,
            diverged: 0,
            first: None,
        };
        for seed in 1..=events {
            let a = steps(old, &before.name, field, seed);
            let b = steps(new, &comp.name, field, seed);
            if let Some(step) = first_difference(&a, &b, seed) {
                d.diverged += 1;
                d.first.get_or_insert(step);
            }
        }
        if d.diverged > 0 {
            out.push(d);
        }
    }
    out
}

/// One step of a simulated event: what it is, and what happened.
type Event = Vec<(String, String)>;

/// The label of an event's last step when its run stops before the end.
const STOPS: &str = "the run stops";

fn first_difference(a: &Event, b: &Event, seed: u64) -> Option<Step> {
    let absent = || "no such step".to_string();
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let step = |at: &str, old: String, new: String| {
        Some(Step {
            seed,
            at: at.to_string(),
            old,
            new,
        })
    };
    match (a.get(i), b.get(i)) {
        (Some((xa, xv)), Some((ya, yv))) if xa == ya => step(xa, xv.clone(), yv.clone()),
        // One run stopped where the other went on: the step it did not reach,
        // and why.
        (Some((xa, xv)), Some((ya, yv))) if xa == STOPS => {
            step(ya, format!("{STOPS}: {xv}"), yv.clone())
        }
        (Some((xa, xv)), Some((ya, yv))) if ya == STOPS => {
            step(xa, xv.clone(), format!("{STOPS}: {yv}"))
        }
        // A step only one edition's event has (a new stage): said as such.
        (_, Some((ya, yv))) if !a.iter().any(|(l, _)| l == ya) => step(ya, absent(), yv.clone()),
        (Some((xa, xv)), _) if !b.iter().any(|(l, _)| l == xa) => step(xa, xv.clone(), absent()),
        (Some((xa, xv)), Some((ya, yv))) => step(xa, xv.clone(), format!("{ya}: {yv}")),
        (Some((xa, xv)), None) => step(xa, xv.clone(), absent()),
        (None, Some((ya, yv))) => step(ya, absent(), yv.clone()),
        (None, None) => None,
    }
}

/// The steps of one simulated event of `competition`, in the order played; a
/// run that stops is a last step saying why.
fn steps(program: &Program, competition: &str, teams: u32, seed: u64) -> Event {
    let options = Options {
        seed,
        ..Options::default()
    };
    let mut source = Simulation::new(teams, seed);
    let mut out = Event::new();
    match runner::run(program, competition, teams, &options, &mut source) {
        Ok(outcome) => {
            report_steps(&outcome.report, &mut out);
            if let Some(p) = outcome.pending {
                out.push((STOPS.into(), p.next));
            }
        }
        Err(e) => out.push((STOPS.into(), format!("{}: {}", e.code(), e.message))),
    }
    out
}

fn report_steps(r: &Report, out: &mut Event) {
    let team = |t: u32| format!("team {t}");
    for round in &r.rounds {
        for m in &round.matches {
            out.push((
                format!(
                    "qualification round {} draw, table {}",
                    round.round, m.table
                ),
                format!("{} v {}", team(m.home), team(m.away)),
            ));
        }
        for s in &round.standings {
            out.push((
                format!(
                    "qualification standings after round {}, place {}",
                    round.round, s.place
                ),
                team(s.team),
            ));
        }
    }
    for stage in &r.stages {
        for m in &stage.matches {
            out.push((
                format!("stage {} draw, table {}", stage.name, m.table),
                format!("{} v {}", team(m.home), team(m.away)),
            ));
        }
        for m in &stage.matches {
            out.push((
                format!("stage {} winner, table {}", stage.name, m.table),
                team(m.winner),
            ));
        }
    }
    for line in &r.places {
        out.push((
            format!("final standing of {}", team(line.team)),
            line.standing.words(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(steps: &[(&str, &str)]) -> Event {
        steps
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn a_step_one_event_lacks_says_why_its_run_stopped_there() {
        let draw = ("stage sf draw, table 1", "team 1 v team 4");
        let stopped = event(&[draw, (STOPS, "E0714: no rule says who goes on")]);
        let played = event(&[draw, ("stage sf winner, table 1", "team 1")]);
        let step = first_difference(&stopped, &played, 7).unwrap();
        assert_eq!(step.at, "stage sf winner, table 1");
        assert_eq!(step.old, "the run stops: E0714: no rule says who goes on");
        assert_eq!(step.new, "team 1");
        let step = first_difference(&played, &stopped, 7).unwrap();
        assert_eq!(step.new, "the run stops: E0714: no rule says who goes on");
        // An event that simply has no such step (a stage the other lacks) says so.
        let shorter = event(&[draw]);
        let step = first_difference(&shorter, &played, 7).unwrap();
        assert_eq!((step.old.as_str(), step.seed), ("no such step", 7));
        assert_eq!(first_difference(&played, &played, 7), None);
    }
}
