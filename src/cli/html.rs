//! Pages for the noticeboard (`--format html`): a run's report as one
//! self-contained HTML page a director can print or post — the standings with
//! the reason behind each tie, the next draw with its tables, every knockout
//! stage, the final ranking. No script, no external resource, CSS inline.
//!
//! Built with maud, so every team name and message is escaped by construction.
//! The words are `cli::render`'s: the page lays them out, it does not reword them.
//! A page never looks complete when the run is not: its status says what is
//! pending or why the run stopped, and every heading says how far it goes.

use super::render;
use crate::diag::{self, Diagnostic, Severity};
use crate::event::{IncidentLine, MadeDraw, Next, Ran};
use crate::ir::vocabulary::Meaning;
use crate::runner::report::{KoStage, Report};
use crate::runner::{Awaited, Outcome};
use crate::source::Sources;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::borrow::Cow;

/// Layout for screen and paper: black on white, borders rather than colour, table
/// headers repeated on each printed page.
const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;margin:1.5rem auto;max-width:62rem;padding:0 1rem;color:#000;background:#fff;line-height:1.35}
h1{font-size:1.6rem;margin:0 0 .25rem}
h2{font-size:1.25rem;margin:1.6rem 0 .4rem;border-bottom:2px solid #000;break-after:avoid}
h3{font-size:1.05rem;margin:1.1rem 0 .3rem;break-after:avoid}
p.meta{margin:.1rem 0 .4rem;color:#333}
.status{border:3px solid #000;padding:.5rem .8rem;margin:.8rem 0;font-weight:600}
.status.pending{border-style:dashed}
.status.stopped{border-width:5px;border-style:double}
.status span.tag{display:inline-block;border:1px solid #000;padding:0 .35rem;margin-right:.5rem;text-transform:uppercase;letter-spacing:.05em}
table{border-collapse:collapse;margin:.3rem 0 .8rem}
th,td{border:1px solid #777;padding:.15rem .5rem;text-align:left;vertical-align:top}
th{background:#eee}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.note{font-size:.9em;color:#333}
span.id{color:#555;font-size:.9em}
ul{margin:.2rem 0 .6rem}
thead{display:table-header-group}
tr{break-inside:avoid}
@media print{body{margin:0;max-width:none;font-size:10pt}th{background:none}a{color:#000}}
@page{margin:1.5cm}
";

/// What the page says about how far the run got.
enum Status {
    /// Every result is in.
    Complete,
    /// The run waits for something (in the runner's words).
    Pending(String),
    /// The rules stopped the run, or the file has errors.
    Stopped(String),
}

/// The parts of a page besides the report.
struct Page<'a> {
    report: &'a Report,
    name: &'a dyn Fn(u32) -> String,
    status: Status,
    next: Vec<&'a Next>,
    unrecorded: &'a [MadeDraw],
    incidents: &'a [IncidentLine],
    problems: Vec<Cow<'a, Diagnostic>>,
}

/// The page of a simulated run (`bfr simulate --format html`).
pub fn simulated(outcome: &Outcome) -> String {
    let name = |t: u32| format!("Team {t}");
    let page = Page {
        report: &outcome.report,
        name: &name,
        status: status_of(outcome, 0, &[]),
        next: Vec::new(),
        unrecorded: &[],
        incidents: &[],
        problems: Vec::new(),
    };
    document(&page).into_string()
}

/// The page of an event file's run (`bfr run --format html`): the report so far,
/// what comes next, the incidents, and the problems found in the file (as many
/// as the text shows, then a W0002 line for the rest: [`diag::shown`]).
pub fn event_run(ran: &Ran, sources: &Sources) -> String {
    let name = |t: u32| ran.name(t);
    let problems = diag::shown(&ran.diagnostics, sources);
    // The status counts every error, shown or not.
    let errors = ran.diagnostics.error_count();
    let Some(outcome) = &ran.outcome else {
        return no_report(&problems).into_string();
    };
    let next: Vec<&Next> = ran.next.iter().chain(&ran.also).collect();
    let page = Page {
        report: &outcome.report,
        name: &name,
        status: status_of(outcome, errors, &waiting_for(&next, &name)),
        next,
        unrecorded: &ran.unrecorded,
        incidents: &ran.incidents,
        problems,
    };
    document(&page).into_string()
}

/// What the run waits for, by the titles of the rounds and stages drawn, as
/// "Next:" says it; the stages played at the same time included.
fn waiting_for(next: &[&Next], name: &dyn Fn(u32) -> String) -> Vec<String> {
    next.iter()
        .filter_map(|n| match n {
            Next::Results { title, .. } => Some(format!("the results of {title}")),
            Next::Choice { title, chooser, .. } => Some(format!(
                "{}'s choice of opponent in {title}",
                name(*chooser)
            )),
            Next::Halt { .. } | Next::Other { .. } => None,
        })
        .collect()
}

/// How far a run got: stopped (by the rules or by errors in the file), waiting
/// (for `waiting`, or else in the runner's words), or complete.
fn status_of(outcome: &Outcome, errors: usize, waiting: &[String]) -> Status {
    match &outcome.pending {
        Some(p) => match &p.awaited {
            Awaited::Stopped { code, message } if !outcome.report.stopped.is_empty() => {
                Status::Stopped(format!(
                    "the rules cannot run this event [{code}]: {message}. The stages listed under Stopped are not played; the others are shown as far as their results go."
                ))
            }
            Awaited::Stopped { code, message } => Status::Stopped(format!(
                "the rules cannot run this event [{code}]: {message}. This page goes only as far as the run did; nothing after it is decided."
            )),
            _ if errors > 0 => Status::Stopped(file_errors(errors)),
            _ if waiting.is_empty() => Status::Pending(p.next.clone()),
            _ => Status::Pending(waiting.join(" and ")),
        },
        None if errors > 0 => Status::Stopped(file_errors(errors)),
        None => Status::Complete,
    }
}

/// The status of a run whose file has errors.
fn file_errors(errors: usize) -> String {
    format!(
        "the event file has {}; what they touch is left out, so this page is not final (see Problems below).",
        super::output::counted(errors, "error")
    )
}

/// The whole page.
fn document(page: &Page) -> Markup {
    let r = page.report;
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&r.competition))
            body {
                header {
                    h1 { (r.competition) }
                    p.meta { (diag::counted(r.teams, "team")) " · seed " (r.seed) }
                    (status(&page.status))
                    @for note in &r.notes { p.meta { "Note: " (note) } }
                }
                (next(page))
                (standings(page))
                (stages(page))
                (final_ranking(page))
                (extras(page))
                (incidents(page))
                // The round-by-round detail is long: after what a reader looks for.
                (rounds(page))
                (problems(&page.problems))
            }
        }
    }
}

/// `<head>`: the charset first, so that å, ä and ö are read as written.
fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            style { (PreEscaped(STYLE)) }
        }
    }
}

/// The status box at the top of the page.
fn status(status: &Status) -> Markup {
    match status {
        Status::Complete => html! {
            p.status.complete { span.tag { "Final" } " The competition is complete." }
        },
        Status::Pending(what) => html! {
            p.status.pending { span.tag { "In progress" } " Not final: waiting for " (what) "." }
        },
        Status::Stopped(why) => html! {
            p.status.stopped { span.tag { "Stopped" } " Not final: " (why) }
        },
    }
}

/// A page for a file that could not be run at all: no report, only why.
fn no_report(problems: &[Cow<Diagnostic>]) -> Markup {
    let title = "No report: the event file cannot be run";
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body {
                h1 { (title) }
                (status(&Status::Stopped("nothing can be shown until the problems below are fixed.".into())))
                (self::problems(problems))
            }
        }
    }
}

/// A team's name, with its number where a director matches it to the entries.
fn team_with_id(page: &Page, team: u32) -> Markup {
    html! { ((page.name)(team)) " " span.id { "(" (team) ")" } }
}

/// "Next": the draw of what is waited for, with table numbers and any result in.
fn next(page: &Page) -> Markup {
    html! {
        @for n in &page.next {
            section.next {
                @match n {
                    Next::Results { title, matches, bye, round, stage } => {
                        h2 { "Next: " (title) }
                        p.meta { (recorded_note(page, *round, stage.as_deref())) }
                        table.draw {
                            thead { tr { th.num { "Table" } th { "Home" } th { "Away" } th { "Result" } } }
                            tbody {
                                @for m in matches {
                                    tr {
                                        td.num { (m.table) }
                                        td { (team_with_id(page, m.home)) }
                                        td { (team_with_id(page, m.away)) }
                                        td { @match (m.result, m.withdrawn.as_slice()) {
                                            (_, [gone]) => { "walkover: " (team_with_id(page, *gone)) " withdrew" }
                                            (_, [_, _, ..]) => "not played: both teams withdrew",
                                            (Some((h, a)), []) => { (h.normalize()) ":" (a.normalize()) }
                                            (None, []) => "result needed",
                                        } }
                                    }
                                }
                            }
                        }
                        @if let Some(b) = bye { p { "Bye: " (team_with_id(page, *b)) } }
                    }
                    Next::Choice { title, chooser, candidates, .. } => {
                        h2 { "Next: " (title) }
                        p { (team_with_id(page, *chooser)) " chooses its opponent among:" }
                        ul { @for c in candidates { li { (team_with_id(page, *c)) } } }
                    }
                    Next::Halt { message } => {
                        h2 { "Stopped" }
                        p { (message) }
                    }
                    Next::Other { message } => {
                        h2 { "Next" }
                        p { (message) }
                    }
                }
            }
        }
    }
}

/// Whether the draw shown is recorded in the event file, where it stands, or
/// only made by this run, where a correction of an earlier result could change it.
fn recorded_note(page: &Page, round: Option<u32>, stage: Option<&str>) -> &'static str {
    let unrecorded = page
        .unrecorded
        .iter()
        .any(|d| d.round == round && d.stage.as_deref() == stage && (round, stage) != (None, None));
    if unrecorded {
        "Drawn by this run and not yet recorded in the event file (`bfr run --write-draw`): a correction of an earlier result could still change it."
    } else {
        "The draw as recorded in the event file."
    }
}

/// The qualification standings after the last round played, with the criterion
/// that decided each tie.
fn standings(page: &Page) -> Markup {
    let r = page.report;
    if r.standings.is_empty() {
        return html! {};
    }
    let heading = if render::qualification_open(r) {
        format!(
            "Standings after round {} of {} (not final)",
            r.rounds.len(),
            r.qualification_rounds.unwrap_or(0)
        )
    } else {
        format!(
            "Qualification: final standings after {}",
            diag::counted(r.rounds.len(), "round")
        )
    };
    html! {
        section.standings {
            h2 { (heading) }
            @if let Some(line) = r.qualification_played.as_ref().and_then(render::how_played) {
                p.meta { (line) }
            }
            table {
                thead { tr {
                    th.num { "Place" } th { "Team" } th.num { (r.units.round) } th.num { (r.units.swiss_points) }
                    th.num { (r.units.stage) "+" } th.num { (r.units.stage) "-" } th { (render::standing_note_heading(&r.standings, true)) }
                } }
                tbody {
                    @for l in &r.standings {
                        tr {
                            td.num { (l.place) }
                            td { ((page.name)(l.team)) }
                            td.num { (l.vp.normalize()) }
                            td.num { (l.swiss_points.normalize()) }
                            td.num { (l.imps_won.normalize()) }
                            td.num { (l.imps_lost.normalize()) }
                            td { (render::standing_note(&r.units, l)) }
                        }
                    }
                }
            }
        }
    }
}

/// Every qualification round played: its draw as played and the results.
fn rounds(page: &Page) -> Markup {
    let r = page.report;
    if r.rounds.is_empty() {
        return html! {};
    }
    html! {
        section.rounds {
            h2 { "Qualification results" }
            @for round in &r.rounds {
                h3 { "Round " (round.round) }
                table {
                    thead { tr {
                        th.num { "Table" } th { "Home" } th.num { (r.units.stage) } th { "Away" } th.num { (r.units.round) }
                    } }
                    tbody {
                        @for m in &round.matches {
                            tr {
                                td.num { (m.table) }
                                td { ((page.name)(m.home)) }
                                td.num { (m.home_imps.normalize()) " – " (m.away_imps.normalize()) }
                                td { ((page.name)(m.away)) }
                                td.num { (m.home_vp.normalize()) " – " (m.away_vp.normalize()) }
                            }
                        }
                    }
                }
                @if let Some(b) = round.bye { p { "Bye: " ((page.name)(b)) } }
            }
        }
    }
}

/// The knockout: each stage's draw, matches, results and winners.
fn stages(page: &Page) -> Markup {
    let stopped = &page.report.stopped;
    if page.report.stages.is_empty() && stopped.is_empty() {
        return html! {};
    }
    html! {
        section.knockout {
            h2 { "Knockout" }
            @for s in &page.report.stages { (stage(page, s)) }
            @if !stopped.is_empty() {
                section.stopped {
                    h3 { "Stopped" }
                    p.status.stopped { span.tag { "Stopped" } " Not played: a problem stopped these stages." }
                    ul { @for s in stopped { li { (s.words()) } } }
                }
            }
        }
    }
}

/// One knockout stage.
fn stage(page: &Page, s: &KoStage) -> Markup {
    let name = page.name;
    let complete = matches!(page.status, Status::Complete);
    let seated = s.matches.iter().any(|m| m.seating.is_some());
    html! {
        h3 { (s.order) ". " (s.title) " " span.id { "(" (s.name) ")" } }
        p.meta {
            (diag::counted(s.boards.normalize(), "board")) "; draw: " (s.draw.name().to_lowercase())
            @if let Some(line) = render::how_played(&s.played) { "; " (line) }
        }
        @if !(s.withdrawn.is_empty() && s.choices.is_empty() && s.byes.is_empty() && s.contradicted_choices.is_empty()) {
            ul {
                @for t in &s.withdrawn { li { (name(*t)) " withdrew at the draw" } }
                @for (chooser, chosen) in &s.choices { li { (name(*chooser)) " chooses " (name(*chosen)) } }
                @for (chooser, chosen) in &s.contradicted_choices { li { (render::contradicted_choice(name, *chooser, *chosen)) } }
                @for t in &s.byes { li { (name(*t)) " goes through without a match" } }
            }
        }
        @if s.matches.is_empty() && s.byes.is_empty() {
            p { @if complete { "Not played." } @else { "No result yet." } }
        }
        @if !s.matches.is_empty() {
            table {
                thead { tr {
                    th.num { "Table" } th { "Home (rank)" } th.num { (page.report.units.stage) } th { "Away (rank)" }
                    th { "Winner" } th { "Decided by" }
                    @if seated { th { "Seating" } }
                } }
                tbody {
                    @for m in &s.matches {
                        tr {
                            td.num { (m.table) }
                            td { (name(m.home)) " " span.id { "(" (m.home_ranking) ")" } }
                            td.num { (m.home_imps.normalize()) " – " (m.away_imps.normalize()) }
                            td { (name(m.away)) " " span.id { "(" (m.away_ranking) ")" } }
                            td { strong { (name(m.winner)) } }
                            td { (render::decided(m)) }
                            @if seated {
                                td.note { @if let Some(seating) = &m.seating { (render::seating_line(seating)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The final ranking, once the run has made it.
fn final_ranking(page: &Page) -> Markup {
    let places = &page.report.places;
    html! {
        section.ranking {
            @if places.is_empty() {
                h2 { "Final ranking" }
                p { "Not decided yet: the final ranking is made when the competition is over." }
            } @else {
                h2 { "Final ranking" }
                @let full = places.iter().any(|l| !render::ranking_cells(l).1.is_empty());
                table {
                    thead { tr { th.num { "Place" } th { "Team" } @if full { th { "Left at" } } } }
                    tbody {
                        @for l in places {
                            @let (place, left) = render::ranking_cells(l);
                            tr {
                                td.num { (place) } td { ((page.name)(l.team)) }
                                @if full { td { (left) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Challenge-trophy points and the district prize, when the report has them.
fn extras(page: &Page) -> Markup {
    let r = page.report;
    html! {
        @if !r.trophy_points.is_empty() {
            section.trophy {
                h2 { "Challenge-trophy points (each qualifying player)" }
                table {
                    thead { tr { th { "Team" } th { "Points" } } }
                    tbody { @for (team, points) in &r.trophy_points {
                        tr { td { ((page.name)(*team)) } td { (points) } }
                    } }
                }
            }
        }
        @if !r.trophy_players.is_empty() || !r.trophy_waiting.is_empty() {
            section."trophy-players" {
                h2 { "Challenge-trophy points by player" }
                @if !r.trophy_players.is_empty() {
                    table {
                        thead { tr { th { "Player" } th { "Team" } th.num { "Place" } th.num { "Boards" } th.num { "Matches" } th { "Points" } } }
                        tbody { @for p in &r.trophy_players {
                            tr {
                                td { (p.player) } td { ((page.name)(p.team)) } td.num { (p.place) }
                                td.num { (p.boards) } td.num { (p.matches) } td { (p.points) }
                            }
                        } }
                    }
                }
                @for (team, stages) in &r.trophy_waiting {
                    p { ((page.name)(*team)) ": players' trophy points wait for the line-ups of " (stages.join(", ")) }
                }
            }
        }
        @if let Some((team, prize)) = &r.district_prize {
            section.district {
                h2 { "District prize" }
                p { ((page.name)(*team)) " (" (prize) ")" }
            }
        }
    }
}

/// The incidents of the event file and what the rules made of them.
fn incidents(page: &Page) -> Markup {
    if page.incidents.is_empty() {
        return html! {};
    }
    html! {
        section.incidents {
            h2 { "Incidents" }
            table {
                thead { tr { th { "When" } th { "Team" } th { "Rule" } th { "Penalty" } th { "Applied" } th { "Note" } } }
                tbody {
                    @for i in page.incidents {
                        tr {
                            td { @match (&i.round, &i.stage) {
                                (Some(r), _) => { "round " (r) }
                                (_, Some(s)) => { (s) }
                                _ => {}
                            } }
                            td { ((page.name)(i.team)) }
                            td { (crate::diag::bounded(&i.rule)) }
                            td { (i.penalty.as_deref().unwrap_or("?")) }
                            td { (i.applied) }
                            td { (i.note.as_deref().unwrap_or("")) }
                        }
                    }
                }
            }
        }
    }
}

/// The problems found in the event file, in plain words (the places in the file
/// are in `bfr run`'s own output).
fn problems(problems: &[Cow<Diagnostic>]) -> Markup {
    if problems.is_empty() {
        return html! {};
    }
    html! {
        section.problems {
            h2 { "Problems" }
            p.meta { "Run the same command without `--format html` to see where each one is in the file." }
            ul {
                @for d in problems {
                    li {
                        strong { (severity(d.severity)) " [" (d.code) "]" } ": " (d.message)
                        @if let Some(help) = &d.help { br; "Fix: " (help) }
                    }
                }
            }
        }
    }
}

/// A severity in words.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}
