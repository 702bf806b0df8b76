//! A structured generator of events for the 2015 Chairman's Cup, so that
//! fuzzing reaches the engine and not only the parser. It plays an event as a
//! director would: run the file, read what comes next, write the results or
//! the choice it asks for, record each draw made (`--write-draw`), and now and
//! then correct an earlier result, add a late arrival, an absent captain or a
//! withdrawal. The steps come from the fuzzer's bytes.
//!
//! Checked at each step: a file made only of what the run asked for (results,
//! choices, corrections, late arrivals) has no error, but for a choice that a
//! later change of the qualification's standings (a result corrected, a late
//! arrival's deduction) no longer fits, and a recorded draw whose teams such a
//! change turned after a knockout match it follows was decided (a tie goes to
//! the qualification placement); a draw once recorded is
//! the draw the run plays (a correction changes nothing already drawn). At the
//! end, the last file, run once more, prints what its step's run printed, byte
//! for byte: it replays every step before it, and running each step's file
//! twice doubled an input's cost.
#![no_main]

use arbitrary::Arbitrary;
use bfr::cli::render;
use bfr::event::{self, Next, Ran};
use bfr::source::Sources;
use bfr_fuzz::{rendered, with_edition};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;

#[derive(Debug, Arbitrary)]
struct Plan {
    /// Teams above the cup's 64.
    extra_teams: u8,
    seed: u64,
    steps: Vec<Step>,
}

#[derive(Debug, Arbitrary)]
enum Step {
    /// Every result the run waits for, IMPs from these pairs in turn.
    Results(Vec<(u8, u8)>),
    /// The captain whose turn it is picks a candidate.
    Choose(u8),
    /// A result already given is corrected.
    Correct { pick: u16, imps: (u8, u8) },
    /// A team arrives late for the last round given.
    Late { team: u8, minutes: u8 },
    /// A captain is absent at the stage waiting for a choice.
    Absent { team: u8, from_turn: Option<u8> },
    /// A team withdraws at the stage waiting for results.
    Withdraw { team: u8, at_draw: bool },
}

/// A round's or stage's draw: the matches (home, away) and the bye.
type RoundDraw = (Vec<(u32, u32)>, Option<u32>);

#[derive(Default)]
struct Round {
    number: u32,
    draw: Option<RoundDraw>,
    results: Vec<String>,
}

#[derive(Default)]
struct Stage {
    name: String,
    draw: Option<RoundDraw>,
    choices: Vec<String>,
    absent: Vec<String>,
    withdrawn: Vec<u32>,
    withdrawn_at_draw: Vec<u32>,
    results: Vec<String>,
}

struct Event {
    teams: u32,
    seed: u64,
    rounds: Vec<Round>,
    stages: Vec<Stage>,
    incidents: Vec<(u32, u32, u32)>,
    /// Something was written that the rules may refuse (a withdrawal, an
    /// absent captain): errors are then allowed.
    irregular: bool,
    /// A result was corrected (or a late arrival recorded) after a stage's
    /// choices began and before its draw was recorded: a choice made may no
    /// longer fit the positions (E0708, E0709), and the director makes them again.
    choices_may_break: bool,
    /// A result was corrected (or a late arrival recorded) after a knockout
    /// match was played and another stage's draw recorded: a tie decided by the qualification placement
    /// may now go the other way, and a draw made from its winner or loser no
    /// longer fits (E0720); the director draws that stage again.
    draws_may_break: bool,
}

fn list<T: std::fmt::Display>(items: &[T], quote: bool) -> String {
    let q = if quote { "\"" } else { "" };
    let parts: Vec<String> = items.iter().map(|i| format!("{q}{i}{q}")).collect();
    format!("[{}]", parts.join(", "))
}

fn pairs(draw: &[(u32, u32)]) -> Vec<String> {
    draw.iter().map(|(h, a)| format!("{h}-{a}")).collect()
}

impl Event {
    fn toml(&self) -> String {
        let mut t = format!("competition = \"cup\"\nseed = {}\n", self.seed);
        let ids: Vec<String> = (1..=self.teams)
            .map(|i| format!("{{ id = {i} }}"))
            .collect();
        let _ = writeln!(t, "team = [{}]", ids.join(", "));
        for r in &self.rounds {
            let _ = writeln!(t, "\n[[round]]\nnumber = {}", r.number);
            if let Some((draw, bye)) = &r.draw {
                let _ = writeln!(t, "draw = {}", list(&pairs(draw), true));
                if let Some(b) = bye {
                    let _ = writeln!(t, "bye = {b}");
                }
            }
            let _ = writeln!(t, "results = {}", list(&r.results, true));
        }
        for s in &self.stages {
            let _ = writeln!(t, "\n[[stage]]\nname = \"{}\"", s.name);
            if let Some((draw, bye)) = &s.draw {
                let _ = writeln!(t, "draw = {}", list(&pairs(draw), true));
                if let Some(b) = bye {
                    let _ = writeln!(t, "bye = {b}");
                }
            }
            let _ = writeln!(t, "choices = {}", list(&s.choices, true));
            let _ = writeln!(t, "absent = {}", list(&s.absent, true));
            let _ = writeln!(t, "withdrawn = {}", list(&s.withdrawn, false));
            let _ = writeln!(
                t,
                "withdrawn_at_draw = {}",
                list(&s.withdrawn_at_draw, false)
            );
            let _ = writeln!(t, "results = {}", list(&s.results, true));
        }
        for (team, round, minutes) in &self.incidents {
            let _ = writeln!(
                t,
                "\n[[incident]]\nteam = {team}\nround = {round}\nrule = \"late_arrival_qualification({minutes} min)\""
            );
        }
        t
    }

    fn round(&mut self, number: u32) -> &mut Round {
        if let Some(i) = self.rounds.iter().position(|r| r.number == number) {
            return &mut self.rounds[i];
        }
        self.rounds.push(Round {
            number,
            ..Round::default()
        });
        self.rounds.sort_by_key(|r| r.number);
        let i = self
            .rounds
            .iter()
            .position(|r| r.number == number)
            .unwrap_or(0);
        &mut self.rounds[i]
    }

    fn stage(&mut self, name: &str) -> &mut Stage {
        if let Some(i) = self.stages.iter().position(|s| s.name == name) {
            return &mut self.stages[i];
        }
        self.stages.push(Stage {
            name: name.to_string(),
            ..Stage::default()
        });
        let last = self.stages.len() - 1;
        &mut self.stages[last]
    }

    /// The qualification's standings may have changed (a result corrected, a
    /// late arrival's deduction) after the knockout began: a choice made or a
    /// draw recorded from the old standings may no longer fit.
    fn qualification_changed(&mut self) {
        if self
            .stages
            .iter()
            .any(|s| s.draw.is_none() && !s.choices.is_empty())
        {
            self.choices_may_break = true;
        }
        let played = |s: &Stage| !s.results.is_empty();
        if self.stages.iter().enumerate().any(|(i, s)| {
            played(s)
                && self
                    .stages
                    .iter()
                    .enumerate()
                    .any(|(j, later)| j != i && later.draw.is_some())
        }) {
            self.draws_may_break = true;
        }
    }

    /// Writes the draws the run made into the file, as `--write-draw` does.
    fn record(&mut self, ran: &Ran) {
        for d in &ran.unrecorded {
            match (&d.round, &d.stage) {
                (Some(r), _) => self.round(*r).draw = Some((d.pairs.clone(), d.bye)),
                (_, Some(s)) => self.stage(s).draw = Some((d.pairs.clone(), d.bye)),
                _ => {}
            }
        }
    }

    fn results_list(
        &mut self,
        round: Option<u32>,
        stage: &Option<String>,
    ) -> Option<&mut Vec<String>> {
        match (round, stage) {
            (Some(r), _) => Some(&mut self.round(r).results),
            (_, Some(s)) => Some(&mut self.stage(s).results),
            _ => None,
        }
    }
}

/// Runs the file; returns the run and the sources its diagnostics point into.
fn run(text: &str) -> (Ran, Sources) {
    with_edition(|checked, sources| {
        let ran = event::run(checked, sources, "cup.toml", text);
        (ran, std::mem::take(sources))
    })
}

/// What `bfr run` prints for a run. Only the last file of a plan (and a failing
/// one) is rendered: each step's file is a shorter plan's last, so rendering
/// every step cost a fifth of an input and reached nothing new.
fn output((ran, sources): &(Ran, Sources)) -> String {
    let mut out = render::event_run(ran);
    out.push_str(&rendered(&ran.diagnostics, sources));
    out
}

fn imps(pair: (u8, u8)) -> (u32, u32) {
    // At most 60 a side: within what the fewest boards of the cup allow.
    (u32::from(pair.0 % 61), u32::from(pair.1 % 61))
}

fn waiting(ran: &Ran) -> Vec<Next> {
    ran.next.iter().chain(ran.also.iter()).cloned().collect()
}

fn apply(ev: &mut Event, ran: &Ran, step: &Step) {
    let next = waiting(ran);
    match step {
        Step::Results(given) => {
            for n in &next {
                if let Next::Results {
                    round,
                    stage,
                    matches,
                    ..
                } = n
                {
                    let Some(results) = ev.results_list(*round, stage) else {
                        continue;
                    };
                    let open = matches
                        .iter()
                        .filter(|m| m.result.is_none() && m.withdrawn.is_empty());
                    for (k, m) in open.enumerate() {
                        let (h, a) = imps(
                            given
                                .get(k % given.len().max(1))
                                .copied()
                                .unwrap_or((30, 10)),
                        );
                        results.push(format!("{}-{} {h}:{a}", m.home, m.away));
                    }
                }
            }
        }
        Step::Choose(i) => {
            for n in &next {
                if let Next::Choice {
                    stage,
                    chooser,
                    candidates,
                    ..
                } = n
                    && !candidates.is_empty()
                {
                    let chosen = candidates[usize::from(*i) % candidates.len()];
                    ev.stage(stage).choices.push(format!("{chooser}>{chosen}"));
                    return;
                }
            }
        }
        Step::Correct { pick, imps: pair } => {
            let all: Vec<(usize, usize)> = ev
                .rounds
                .iter()
                .enumerate()
                .flat_map(|(r, round)| (0..round.results.len()).map(move |i| (r, i)))
                .collect();
            if all.is_empty() {
                return;
            }
            let (r, i) = all[usize::from(*pick) % all.len()];
            let old = &ev.rounds[r].results[i];
            let teams = old.split(' ').next().unwrap_or("").to_string();
            let (h, a) = imps(*pair);
            ev.rounds[r].results[i] = format!("{teams} {h}:{a}");
            ev.qualification_changed();
        }
        Step::Late { team, minutes } => {
            if let Some(r) = ev.rounds.last().map(|r| r.number) {
                let team = 1 + u32::from(*team) % ev.teams;
                // Late means at least a minute: the scale has no row for 0 min.
                ev.incidents.push((team, r, 1 + u32::from(*minutes % 90)));
                // Its deduction moves the team in the qualification, as a
                // correction does.
                ev.qualification_changed();
            }
        }
        Step::Absent { team, from_turn } => {
            for n in &next {
                if let Next::Choice {
                    stage,
                    candidates,
                    chooser,
                    ..
                } = n
                {
                    let mut pool = candidates.clone();
                    pool.push(*chooser);
                    let t = pool[usize::from(*team) % pool.len()];
                    let entry = match from_turn {
                        Some(k) => format!("{t}@{}", 1 + k % 16),
                        None => t.to_string(),
                    };
                    ev.stage(stage).absent.push(entry);
                    ev.irregular = true;
                    return;
                }
            }
        }
        Step::Withdraw { team, at_draw } => {
            for n in &next {
                if let Next::Results {
                    stage: Some(stage),
                    matches,
                    ..
                } = n
                    && !matches.is_empty()
                {
                    let m = &matches[usize::from(*team / 2) % matches.len()];
                    let t = if team % 2 == 0 { m.home } else { m.away };
                    let s = ev.stage(stage);
                    if *at_draw {
                        s.withdrawn_at_draw.push(t);
                    } else {
                        s.withdrawn.push(t);
                    }
                    ev.irregular = true;
                    return;
                }
            }
        }
    }
}

fuzz_target!(|plan: Plan| {
    let mut ev = Event {
        teams: 64 + u32::from(plan.extra_teams % 17),
        // An event file holds seeds up to 2^63 - 1 (E0700 beyond).
        seed: plan.seed & (u64::MAX >> 1),
        rounds: Vec::new(),
        stages: Vec::new(),
        incidents: Vec::new(),
        irregular: false,
        choices_may_break: false,
        draws_may_break: false,
    };
    let mut last = run(&ev.toml());
    for step in plan.steps.iter().take(40) {
        let before: Vec<_> = ev
            .rounds
            .iter()
            .map(|r| (r.number, r.draw.clone()))
            .collect();
        ev.record(&last.0);
        apply(&mut ev, &last.0, step);
        last = run(&ev.toml());
        let ran = &last.0;
        // A late arrival may be a forfeit or a referral, which stops the run
        // (E0713); a correction or a late arrival may break a choice made
        // before it (E0708, E0709) or a draw made from a knockout tie it turns
        // (E0720); any other error in a file of regular steps is a finding.
        let allowed = |code: &str| {
            code == "E0713"
                || (ev.choices_may_break && matches!(code, "E0708" | "E0709"))
                || (ev.draws_may_break && code == "E0720")
        };
        let errors = ran
            .diagnostics
            .sorted()
            .iter()
            .filter(|d| d.is_error() && !allowed(d.code))
            .count();
        if !ev.irregular {
            assert!(
                errors == 0,
                "a regular event file has errors:\n{}\n{}",
                ev.toml(),
                output(&last)
            );
        }
        // A recorded draw stands: the run does not draw that round again.
        for (number, draw) in before {
            if draw.is_some() {
                assert!(
                    !ran.unrecorded.iter().any(|d| d.round == Some(number)),
                    "round {number} was recorded, and drawn again"
                );
            }
        }
        if ran.next.is_none() {
            break;
        }
    }
    // The last step's run came after another file's run, this one after the
    // same file's: a run that left the shared edition changed would differ.
    assert!(
        output(&run(&ev.toml())) == output(&last),
        "two runs of one event file gave different output"
    );
});
