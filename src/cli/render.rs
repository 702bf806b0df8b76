//! Text for people: a run's report as terminal tables, and what `bfr run` prints
//! after it (incidents, what comes next). The library hands out typed data; the
//! words and the layout are made here.

use crate::diag::{agreeing, counted};
use crate::engine::knockout::Placement;
use crate::event::{Next, Ran};
use crate::ir::vocabulary::Meaning;
use crate::runner::report::{
    Criterion, Decided, KoMatch, MatchSeating, Report, Standing, StandingLine, Units,
};
use crate::source::printable_name;
use std::fmt::Write;

/// Terminal tables: the standings after the qualification, each stage's draw
/// and results, the final places. `name` shows a team on one line (see
/// [`printable_name`]); the edition's titles, labels and notes keep their line
/// breaks here and are escaped where the text is printed
/// (`output::stdout`).
pub fn report(report: &Report, name: &dyn Fn(u32) -> String) -> String {
    let name = &|t: u32| printable_name(&name(t));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {}, seed {}",
        report.competition,
        counted(report.teams, "team"),
        report.seed
    );
    for note in &report.notes {
        let _ = writeln!(out, "Note: {note}");
    }
    // The report shows standings once the qualification is over; before that,
    // the rounds played so far.
    let width = name_width(report, name);
    rounds_played(&mut out, report, name, width);
    standings(&mut out, report, name, width);
    stages(&mut out, report, name, width);
    stopped(&mut out, report);
    final_places(&mut out, report, name);
    if !report.trophy_points.is_empty() {
        let _ = writeln!(out, "\nChallenge-trophy points (each qualifying player)");
        for (team, points) in &report.trophy_points {
            let _ = writeln!(out, "  {}: {points}", name(*team));
        }
    }
    trophy_players(&mut out, report, name, width);
    if let Some((team, prize)) = &report.district_prize {
        let _ = writeln!(out, "\nDistrict prize: {} ({prize})", name(*team));
    }
    out
}

/// The least and the most a column of team names is padded to: a longer
/// name than the most runs past its column on its own line only.
const NAME_COLUMN: (usize, usize) = (24, 48);

/// The width of the report's team-name columns: its longest name, within
/// [`NAME_COLUMN`].
fn name_width(report: &Report, name: &dyn Fn(u32) -> String) -> usize {
    let rounds = report.rounds.iter().flat_map(|r| &r.matches);
    let stages = report.stages.iter().flat_map(|s| &s.matches);
    let teams = report
        .standings
        .iter()
        .map(|l| l.team)
        .chain(rounds.flat_map(|m| [m.home, m.away]))
        .chain(stages.flat_map(|m| [m.home, m.away]));
    column_width(teams.map(name))
}

/// The width of a column of `cells`: the longest, within [`NAME_COLUMN`].
fn column_width(cells: impl Iterator<Item = String>) -> usize {
    cells
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(NAME_COLUMN.0, NAME_COLUMN.1)
}

/// The stages a problem stopped: the report is not complete.
fn stopped(out: &mut String, report: &Report) {
    if report.stopped.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nStopped (not complete; the stages not listed here are played as far as their results go)"
    );
    for s in &report.stopped {
        let _ = writeln!(out, "  {}", s.words());
    }
}

/// Each player's trophy points from the line-ups, and the teams still waiting for one.
fn trophy_players(out: &mut String, report: &Report, name: &dyn Fn(u32) -> String, w: usize) {
    if !report.trophy_players.is_empty() {
        let _ = writeln!(out, "\nChallenge-trophy points by player");
        for p in &report.trophy_players {
            let _ = writeln!(
                out,
                "  {:<24} {:<w$} place {:>2}  {:>3} {} in {}  {}",
                printable_name(&p.player),
                name(p.team),
                p.place,
                p.boards,
                agreeing(p.boards, "board"),
                counted(p.matches, "match"),
                p.points
            );
        }
    }
    for (team, stages) in &report.trophy_waiting {
        let _ = writeln!(
            out,
            "  {}: players' trophy points wait for the line-ups of {}",
            name(*team),
            stages.join(", ")
        );
    }
}

/// Whether the qualification has rounds still to play.
pub(super) fn qualification_open(report: &Report) -> bool {
    report
        .qualification_rounds
        .is_some_and(|n| usize::try_from(n).is_ok_and(|n| report.rounds.len() < n))
}

/// The rounds played so far, while the qualification is not over.
fn rounds_played(out: &mut String, report: &Report, name: &dyn Fn(u32) -> String, w: usize) {
    if qualification_open(report) {
        for r in &report.rounds {
            let _ = writeln!(out, "\nRound {}", r.round);
            for m in &r.matches {
                let _ = writeln!(
                    out,
                    "   table {:>2}: {:<w$} {:>4} - {:<4} {:<w$} {} {} - {}",
                    m.table,
                    name(m.home),
                    m.home_imps.normalize(),
                    m.away_imps.normalize(),
                    name(m.away),
                    report.units.round,
                    m.home_vp.normalize(),
                    m.away_vp.normalize()
                );
            }
            if let Some(b) = r.bye {
                let _ = writeln!(out, "   bye: {}", name(b));
            }
        }
    }
}

/// The standings after the qualification, or after the last round played.
fn standings(out: &mut String, report: &Report, name: &dyn Fn(u32) -> String, w: usize) {
    if !report.standings.is_empty() {
        if qualification_open(report) {
            let _ = writeln!(
                out,
                "\nStandings after round {} of {}",
                report.rounds.len(),
                report.qualification_rounds.unwrap_or(0)
            );
        } else {
            let _ = writeln!(
                out,
                "\nQualification: {}",
                counted(report.rounds.len(), "round")
            );
        }
        if let Some(line) = report.qualification_played.as_ref().and_then(how_played) {
            let _ = writeln!(out, "{line}");
        }
        // The edition's label for Swiss points heads its column, as wide as it.
        let sp = report.units.swiss_points.chars().count().max(8);
        let _ = writeln!(
            out,
            "{:>5}  {:<w$} {:>8} {:>sp$} {:>6} {:>6}  {}",
            "place",
            "team",
            report.units.round,
            report.units.swiss_points,
            format!("{}+", report.units.stage),
            format!("{}-", report.units.stage),
            standing_note_heading(&report.standings, false)
        );
        for l in &report.standings {
            let _ = writeln!(
                out,
                "{:>5}  {:<w$} {:>8} {:>sp$} {:>6} {:>6}  {}",
                l.place,
                name(l.team),
                l.vp.normalize(),
                l.swiss_points.normalize(),
                l.imps_won.normalize(),
                l.imps_lost.normalize(),
                standing_note(&report.units, l)
            );
        }
    }
}

/// The heading of the standings' last column: what it holds, in text or
/// capitalised for a page.
pub(super) fn standing_note_heading(standings: &[StandingLine], page: bool) -> &'static str {
    let late = standings.iter().any(|l| l.starts_in_round.is_some());
    match (late, page) {
        (true, false) => "decided by; late start",
        (true, true) => "Decided by; late start",
        (false, false) => "decided by",
        (false, true) => "Decided by",
    }
}

/// The last column of a standings line: the tie-break that placed the team,
/// and for a late starter not yet playing the round it starts in.
pub(super) fn standing_note(units: &Units, l: &StandingLine) -> String {
    let decided = l.decided_by.map(|c| criterion(units, c).to_string());
    let starts = l.starts_in_round.map(|r| format!("starts in round {r}"));
    decided
        .into_iter()
        .chain(starts)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Each knockout stage's draw and matches.
fn stages(out: &mut String, report: &Report, name: &dyn Fn(u32) -> String, w: usize) {
    for s in &report.stages {
        let _ = writeln!(
            out,
            "\n{}. {} ({}, {}, {})",
            s.order,
            s.title,
            s.name,
            counted(s.boards.normalize(), "board"),
            s.draw.name().to_lowercase()
        );
        if let Some(line) = how_played(&s.played) {
            let _ = writeln!(out, "   {line}");
        }
        for team in &s.withdrawn {
            let _ = writeln!(out, "   {} withdrew at the draw", name(*team));
        }
        for (chooser, chosen) in &s.choices {
            let _ = writeln!(out, "   {} chooses {}", name(*chooser), name(*chosen));
        }
        for (chooser, chosen) in &s.contradicted_choices {
            let _ = writeln!(out, "   {}", contradicted_choice(name, *chooser, *chosen));
        }
        for team in &s.byes {
            let _ = writeln!(out, "   {} goes through without a match", name(*team));
        }
        if s.matches.is_empty() && s.byes.is_empty() {
            let _ = writeln!(out, "   not played");
        }
        for m in &s.matches {
            let _ = writeln!(
                out,
                "   table {:>2}: {:<w$} (rank {:>2}) {:>4} - {:<4} (rank {:>2}) {:<w$} winner {} ({})",
                m.table,
                name(m.home),
                m.home_ranking,
                m.home_imps.normalize(),
                m.away_imps.normalize(),
                m.away_ranking,
                name(m.away),
                name(m.winner),
                decided(m)
            );
            if let Some(seating) = &m.seating {
                let _ = writeln!(out, "             {}", seating_line(seating));
            }
        }
    }
}

/// A recorded choice the recorded draw does not follow, in words: the draw stands.
pub(super) fn contradicted_choice(
    name: &dyn Fn(u32) -> String,
    chooser: u32,
    chosen: u32,
) -> String {
    format!(
        "the recorded choice \"{} chooses {}\" disagrees with the recorded draw, which stands (W0721)",
        name(chooser),
        name(chosen)
    )
}

/// The final ranking, places right-aligned; a team ranked below the places the rules
/// give says where it left.
fn final_places(out: &mut String, report: &Report, name: &dyn Fn(u32) -> String) {
    if report.places.is_empty() {
        return;
    }
    // A full ranking when the teams that left without a place of the rules have one.
    let full = report
        .places
        .iter()
        .any(|l| l.rank.is_some() && !matches!(l.standing, Standing::Place { .. }));
    let title = if full {
        "Final ranking"
    } else {
        "Final places"
    };
    let _ = writeln!(out, "\n{title}");
    let lines: Vec<(String, String, String)> = report
        .places
        .iter()
        .map(|l| {
            let (place, left) = ranking_cells(l);
            (place, name(l.team), left)
        })
        .collect();
    let width = lines
        .iter()
        .map(|(s, _, _)| s.chars().count())
        .max()
        .unwrap_or(0);
    let names = lines
        .iter()
        .filter(|(_, _, left)| !left.is_empty())
        .map(|(_, n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    for (place, team, left) in &lines {
        let pad = " ".repeat(width.saturating_sub(place.chars().count()));
        if left.is_empty() {
            let _ = writeln!(out, "{pad}{place}  {team}");
        } else {
            let fill = " ".repeat(names.saturating_sub(team.chars().count()));
            let _ = writeln!(out, "{pad}{place}  {team}{fill}  {left}");
        }
    }
}

/// The text `bfr run` prints on stdout: the report so far, the incidents, and
/// "Next: …" or "The competition is complete."
pub fn event_run(ran: &Ran) -> String {
    let Some(outcome) = &ran.outcome else {
        return String::new();
    };
    // A name from the file may hold control characters: escaped, so that it cannot
    // move the cursor or forge a line of the tables.
    let name = |t: u32| printable_name(&ran.name(t));
    let mut out = report(&outcome.report, &name);
    if !ran.incidents.is_empty() {
        let _ = writeln!(out, "\nIncidents");
        let w = column_width(ran.incidents.iter().map(|i| name(i.team)));
        for i in &ran.incidents {
            let place = match (&i.round, &i.stage) {
                (Some(r), _) => format!("round {r}"),
                (_, Some(s)) => s.clone(),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "   {:<10} {:<w$} {} = {} ({}){}",
                printable_name(&place),
                name(i.team),
                printable_name(&crate::diag::bounded(&i.rule)),
                printable_name(i.penalty.as_deref().unwrap_or("?")),
                i.applied,
                i.note
                    .as_ref()
                    .map_or(String::new(), |n| format!(": {}", printable_name(n)))
            );
        }
    }
    match &ran.next {
        None => {
            let _ = writeln!(out, "\nThe competition is complete.");
        }
        Some(next) => next_lines(&mut out, next, &name),
    }
    for next in &ran.also {
        next_lines(&mut out, next, &name);
    }
    out
}

/// "Next: …": what the run waits for, with the draw when it is known.
fn next_lines(out: &mut String, next: &Next, name: &dyn Fn(u32) -> String) {
    match next {
        Next::Results {
            title,
            matches,
            bye,
            ..
        } => {
            let _ = writeln!(out, "\nNext: the results of {title}");
            let cell = |t: u32| format!("{} ({t})", name(t));
            let w = column_width(matches.iter().flat_map(|m| [cell(m.home), cell(m.away)]));
            for m in matches {
                let given = match (m.result, m.withdrawn.as_slice()) {
                    (_, [gone]) => format!("walkover: {} withdrew", name(*gone)),
                    (_, [_, _, ..]) => "not played: both teams withdrew".into(),
                    (Some((h, a)), []) => format!("{}:{}", h.normalize(), a.normalize()),
                    (None, []) => "result needed".into(),
                };
                let _ = writeln!(
                    out,
                    "   table {:>2}: {:<w$} - {:<w$} {given}",
                    m.table,
                    cell(m.home),
                    cell(m.away),
                );
            }
            if let Some(b) = bye {
                let _ = writeln!(out, "   bye: {} ({b})", name(*b));
            }
        }
        Next::Choice {
            title,
            chooser,
            candidates,
            ..
        } => {
            let among: Vec<String> = candidates
                .iter()
                .map(|c| format!("{} ({c})", name(*c)))
                .collect();
            let _ = writeln!(
                out,
                "\nNext: {title}: {} ({chooser}) chooses among {}",
                name(*chooser),
                among.join(", ")
            );
        }
        Next::Halt { message } | Next::Other { message } => {
            let _ = writeln!(out, "\nNext: {}", printable_name(message));
        }
    }
}

/// A line of the final ranking as its place (`5`, `5/6`, or where the team left when
/// it has no rank) and, for a ranked team without a place of the rules, where it left.
pub(super) fn ranking_cells(l: &crate::runner::report::FinalLine) -> (String, String) {
    let left = match (&l.rank, &l.standing) {
        (_, Standing::Place { .. }) | (None, _) => String::new(),
        (Some(_), s) => standing(s),
    };
    let place = match l.rank {
        Some(r) if r.first == r.last => r.first.to_string(),
        Some(r) => format!("{}/{}", r.first, r.last),
        None => standing(&l.standing),
    };
    (place, left)
}

/// A final standing in words: `1`, `5/6`, `out at BC32-B`, `withdrew at BC04-B`.
pub fn standing(standing: &Standing) -> String {
    standing.words()
}

/// How a knockout match was decided, in the table's words; a tie in IMPs
/// names the placements that broke it.
pub(super) fn decided(m: &KoMatch) -> String {
    let how = match m.decided_by {
        Decided::Imps => "imps",
        Decided::TieBreak => "tie-break",
        Decided::Walkover => "walkover",
    };
    match m.tie_break {
        Some(t) => {
            let placement = match t.by {
                Placement::Qualification => "qualification place",
                Placement::Ranking => "ranking",
            };
            format!("{how}: {placement} {} before {}", t.winner, t.loser)
        }
        None => how.to_string(),
    }
}

/// A tie-break criterion in the edition's words where it labels it, else by
/// the vocabulary's name (which the edition's variant bears).
pub(super) fn criterion(units: &Units, criterion: Criterion) -> &str {
    if let Some(label) = units.criterion(criterion) {
        return label;
    }
    match criterion {
        Criterion::TotalVp => "TotalVp",
        Criterion::SwissPoints => "SwissPoints",
        Criterion::ImpQuotient => "ImpQuotient",
        Criterion::LowerTeamId => "LowerTeamId",
    }
}

/// A match's seating in words.
pub fn seating_line(seating: &MatchSeating) -> String {
    match seating {
        MatchSeating::AwaySitsFirst { team } => format!("team {team} (away) sits first"),
        MatchSeating::SegmentsToBePicked => "segments: to be picked".into(),
        MatchSeating::SegmentRights { rights } => {
            let parts: Vec<String> = rights
                .iter()
                .map(|(segment, team)| format!("{segment}: team {team}"))
                .collect();
            format!("seating rights by segment {}", parts.join(", "))
        }
    }
}

/// A stage's day, part of the day and manner of play on one line, if the edition
/// says any of it.
pub(super) fn how_played(p: &crate::runner::report::HowPlayed) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let days = match (&p.day, &p.last_day) {
        (Some(first), Some(last)) => Some(format!("{first} – {last}")),
        (day, _) => day.clone(),
    };
    let when: Vec<String> = [days, p.part.clone()].into_iter().flatten().collect();
    if !when.is_empty() {
        parts.push(when.join(" "));
    }
    match p.screens {
        Some(true) => parts.push("screens".into()),
        Some(false) => parts.push("no screens".into()),
        None => {}
    }
    if let Some(system) = &p.system {
        parts.push(format!("system {system}"));
    }
    if let Some(n) = p.segments {
        parts.push(counted(n, "segment"));
    }
    if p.halftime_change {
        parts.push("change at half-time".into());
    }
    if let Some(c) = &p.carry_over {
        parts.push(format!("carry-over {c}"));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}
