//! Event files: what happened at a competition, written by the tournament
//! director, run against an edition's rules (`bfr run <edition> <event>`).
//!
//! An event file (TOML, or the same structure in JSON; see `docs/events.md`) lists
//! the teams, the results of each qualification round, each knockout stage's
//! choices, withdrawals and results, and incidents whose penalty the edition's own
//! rules decide. [`run`] reads it, checks it against the edition and drives the
//! [`crate::runner`] through an [`EventSource`]; problems are
//! [`Diagnostic`]s with codes `E07xx` and spans into the file.

mod file;
mod model;
mod parse;
mod record;
mod render;
mod resolve;
mod source;
mod trophy;
mod words;

pub use model::{
    At, Choice, Effect, Event, Incident, Lineup, MatchResult, RoundEntry, StageEntry, Team,
};
pub use record::{MadeDraw, Unwritable, write_draws};
pub use render::{IncidentLine, Next, NextMatch};
pub use source::EventSource;

use crate::check::Checked;
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::Prepared;
use crate::runner::{self, Options, Outcome};
use crate::source::{FileId, Sources, Span};
use std::collections::BTreeMap;

/// A run of an event file: how far it got, what comes next, and every problem.
#[derive(Debug, Clone)]
pub struct Ran {
    /// The file's id in the [`Sources`] it was added to.
    pub file: FileId,
    /// The runner's outcome; `None` when the file could not be run at all.
    pub outcome: Option<Outcome>,
    /// What comes next, with the draw of the round or stage if it is known; `None`
    /// when the competition is complete (or the file could not be run).
    pub next: Option<Next>,
    /// What else the run waits for: stages played at the same time as the one in
    /// `next`.
    pub also: Vec<Next>,
    /// Every incident and what the rules made of it.
    pub incidents: Vec<IncidentLine>,
    /// Team names by id.
    pub names: BTreeMap<u32, String>,
    /// Draws the run made that the file does not record yet (`--write-draw`
    /// writes them in).
    pub unrecorded: Vec<MadeDraw>,
    /// Every problem found, in the file and during the run.
    pub diagnostics: Diagnostics,
}

impl Ran {
    /// A run of file `file` that has not started.
    fn empty(file: FileId) -> Ran {
        Ran {
            file,
            outcome: None,
            next: None,
            also: Vec::new(),
            incidents: Vec::new(),
            names: BTreeMap::new(),
            unrecorded: Vec::new(),
            diagnostics: Diagnostics::default(),
        }
    }

    /// A team's name, as the event file gives it.
    pub fn name(&self, team: u32) -> String {
        self.names
            .get(&team)
            .cloned()
            .unwrap_or_else(|| format!("Team {team}"))
    }
}

/// Whether a file name says JSON (`.json`); anything else is read as TOML.
pub fn is_json(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Reads event file `name` from its bytes: text that is not UTF-8 is refused with
/// the byte at fault (E0723), never decoded by guesswork; otherwise as [`run`].
pub fn run_bytes(checked: &mut Checked, sources: &mut Sources, name: &str, bytes: &[u8]) -> Ran {
    match std::str::from_utf8(bytes) {
        Ok(text) => run(checked, sources, name, text),
        Err(_) => {
            let d = crate::diag::not_utf8("E0723", name, bytes, sources, "event file");
            let mut ran = Ran::empty(d.span.file);
            ran.diagnostics.push(d);
            ran
        }
    }
}

/// Reads event file `name` with contents `text` (added to `sources`), checks it
/// against the edition and runs it as far as it goes.
///
/// The edition is borrowed mutably only so that each incident's rule is checked
/// against it in place, without a copy of the edition per incident; it is the
/// same edition when the run returns.
pub fn run(checked: &mut Checked, sources: &mut Sources, name: &str, text: &str) -> Ran {
    let file = sources.add(name, text);
    let mut ran = Ran::empty(file);
    let (event, diags) = model::parse(text, file, is_json(name));
    ran.diagnostics.extend(diags);
    let Some(mut event) = event else {
        return ran;
    };
    ran.names = event.teams.iter().map(|t| (t.id, t.name.clone())).collect();
    // The evaluation form is made once and serves every rule the run calls:
    // incidents, board scores, the VP scale, seating, trophy points.
    let prepared = Prepared::new(&checked.program);
    let (plan, diags) = resolve::resolve(&mut event, checked, &prepared, text);
    ran.diagnostics.extend(diags);
    // Until the run says which it applied, none is.
    ran.incidents = render::incident_lines(&event, &[]);
    let Some(plan) = plan else {
        return ran;
    };
    let options = run_options(&event);
    let teams = u32::try_from(event.teams.len()).unwrap_or(u32::MAX);
    let mut source = EventSource::new(&event);
    let (mut report, pending) = runner::run_plan_prepared(
        &checked.program,
        &prepared,
        &plan,
        teams,
        &options,
        &mut source,
    );
    ran.diagnostics.extend(trophy::apply(
        &checked.program,
        &prepared,
        &plan,
        &event,
        &mut report,
    ));
    ran.unrecorded = source.unrecorded();
    ran.incidents = render::incident_lines(&event, &source.incidents_applied());
    match pending {
        Ok(pending) => {
            let halted = source.halted();
            let mut outcome = Outcome { report, pending };
            let (next, also, diags) = source.finish(&outcome);
            // The runner only saw an answer missing; the source knows why.
            if halted.is_some() {
                outcome.pending = halted;
            } else if let Some(p) = &mut outcome.pending {
                // The teams by the names the file gives them, as the report does.
                p.next = p.awaited.words(&|t| format!("{} ({t})", ran.name(t)));
            }
            ran.diagnostics.extend(diags);
            ran.next = next;
            ran.also = also;
            ran.outcome = Some(outcome);
        }
        Err(stops) => {
            // The report as far as it got stands; each problem stops what follows it.
            // Stages none feeds went on: what they wait for is still shown.
            let (waiting, diags) = source.finish_stopped();
            ran.diagnostics.extend(diags);
            ran.also = waiting;
            // Every stage stopped on its own problem is a diagnostic of its own,
            // pointing at its own entry.
            for e in stops.all() {
                ran.diagnostics.push(stopped(e.clone(), &event));
            }
            let e = &stops.first;
            let message = match stops.more.len() {
                0 => format!("the rules cannot run this event: {e}"),
                n => format!(
                    "the rules cannot run this event: {e} (and {n} more {}: see Stopped)",
                    crate::diag::agreeing(n, "problem")
                ),
            };
            let awaited = runner::Awaited::Stopped {
                code: e.code().to_string(),
                message: e.message.clone(),
            };
            ran.next = Some(Next::Halt {
                message: message.clone(),
            });
            ran.outcome = Some(Outcome {
                report,
                pending: Some(runner::Pending {
                    next: message,
                    awaited,
                }),
            });
        }
    }
    ran
}

/// The event file's text with the draws the run made and the file does not
/// record yet written in (`bfr run --write-draw`); `None` when there is nothing
/// to write, the run has errors, or the draws cannot be written, which is then
/// an error of the run (E0729) at the place in the file that stands in the way.
/// `text` is the file's text as run.
pub fn with_draws_written(ran: &mut Ran, text: &str, json: bool) -> Option<String> {
    if ran.unrecorded.is_empty() || ran.outcome.is_none() || ran.diagnostics.has_errors() {
        return None;
    }
    match write_draws(text, json, &ran.unrecorded) {
        Ok(written) => Some(written),
        Err(e) => {
            ran.diagnostics.push(
                Diagnostic::error(
                    "E0729",
                    format!("the draws cannot be written into the event file: {e}"),
                    span(ran.file, &e.at),
                )
                .with_label("the draws made do not fit here")
                .with_help("write each round as a `[[round]]` table and each stage as a `[[stage]]` table (docs/events.md), or copy the draws shown under \"Next:\" into the file as `draw = [\"home-away\", …]`"),
            );
            None
        }
    }
}

/// The runner's options an event file sets: its seed, VP scale, late starters
/// and district teams.
fn run_options(event: &Event) -> Options {
    Options {
        seed: event.seed,
        scale: event.vp_scale.as_ref().map(|(s, _)| s.clone()),
        late_starters: event
            .teams
            .iter()
            .filter(|t| t.late.is_some())
            .map(|t| t.id)
            .collect(),
        district_teams: event
            .teams
            .iter()
            .filter(|t| t.district.is_some())
            .map(|t| t.id)
            .collect(),
    }
}

/// The entry of the file a run stopped at, and what to say there.
fn entry_at_fault(about: Option<&runner::About>, event: &Event) -> Option<(Span, &'static str)> {
    let stage = |name: &str| event.stages.iter().find(|s| s.name == name);
    const STAGE: &str = "the run stopped here: this stage and the stages it feeds are not played";
    match about? {
        runner::About::WithdrawnAtDraw(s) => Some((stage(s)?.withdrawn_at_draw.first()?.1, STAGE)),
        runner::About::WithdrawnAfterDraw(s) => Some((stage(s)?.withdrawn.first()?.1, STAGE)),
        runner::About::Absent(s) => Some((stage(s)?.absent.first()?.2, STAGE)),
        // The later of the two withdrawals listed: the one that left the match empty.
        runner::About::BothWithdrew {
            stage: s,
            teams: (a, b),
        } => {
            let mut listed = stage(s)?
                .withdrawn
                .iter()
                .filter(|w| w.0 == *a || w.0 == *b);
            Some((listed.next_back()?.1, STAGE))
        }
        runner::About::QualificationResult { round, home, away } => {
            let entry = event.rounds.iter().find(|r| r.number == *round)?;
            let result = entry.results.iter().find(|r| r.is(*home, *away))?;
            Some((
                result.span,
                "the run stopped at this result: this round and the rest are not played",
            ))
        }
    }
}

/// The error for a run the rules stopped: at the entry of the file it stopped at,
/// or at the event's competition. A missing VP gets its own message and help.
fn stopped(e: runner::RunError, event: &Event) -> Diagnostic {
    let no_vp = e.kind == runner::Stop::NoVp;
    let message = if no_vp {
        e.message.clone()
    } else {
        format!("the rules cannot run this event: {e}")
    };
    let mut d = match entry_at_fault(e.about.as_ref(), event) {
        Some((at, label)) => Diagnostic::error(e.code(), message, at)
            .with_label(label)
            .with_note(event.competition.1, "in this competition"),
        None => Diagnostic::error(e.code(), message, event.competition.1)
            .with_label("running this competition stopped"),
    };
    if let Some(edition) = e.at {
        d = d.with_note(edition, e.kind.label());
    }
    let help = if no_vp {
        Some(
            "name a VP scale of the edition that covers this match with `vp_scale = \"RULE\"` in the event file, or complete the edition's scale".to_string(),
        )
    } else {
        e.help_text()
    };
    if let Some(help) = help {
        d = d.with_help(help);
    }
    if let Some((_, at)) = &event.vp_scale {
        d = d.with_note(*at, "the VP scale this event names");
    }
    d
}

/// A span in `file` from a byte range.
pub(crate) fn span(file: FileId, r: &std::ops::Range<usize>) -> Span {
    Span::new(file, r.start, r.end)
}
