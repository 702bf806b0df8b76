//! The event as bfr uses it: entries parsed and checked, each with its span.

use super::file::{self, RawEvent, RawIncident, RawRound, RawStage, Sp};
use super::parse::{
    parse_absent, parse_choice, parse_lineup, parse_pair, parse_result, parse_seating,
};
use super::span;
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use rust_decimal::Decimal;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A team.
#[derive(Debug, Clone)]
pub struct Team {
    /// Its number, 1..=n.
    pub id: u32,
    /// Its name (`Team N` when the file gives none).
    pub name: String,
    /// Where the file marks it a late starter (`late = true`): it starts in the
    /// qualification's late-start round.
    pub late: Option<Span>,
    /// Where the file marks it a district team (`district = true`), competing for
    /// the district prize.
    pub district: Option<Span>,
    /// Its players, as the file names them, each with where it is written.
    pub players: Vec<(String, Span)>,
    /// Where it is declared.
    pub span: Span,
}

/// Who played for a team in one knockout match, and how many boards each
/// (CC-TROPHY counts a player's boards in the team's last matches).
#[derive(Debug, Clone)]
pub struct Lineup {
    /// The team.
    pub team: u32,
    /// Each player's name, boards played, and where the name is written.
    pub players: Vec<(String, u32, Span)>,
    /// Where the line-up is written.
    pub span: Span,
}

/// A match result as written: `"a-b aIMPs:bIMPs"`.
#[derive(Debug, Clone)]
pub struct MatchResult {
    /// The first team named.
    pub a: u32,
    /// The second team named.
    pub b: u32,
    /// The first team's IMPs.
    pub a_imps: Decimal,
    /// The second team's IMPs.
    pub b_imps: Decimal,
    /// The boards the match counts, when fewer than scheduled (`/15`: a fouled board
    /// cancelled, CC-FOULED).
    pub boards: Option<Decimal>,
    /// The score differences board by board, from the first team's side, when the
    /// result is given as board scores; the IMPs then come from the edition's scale.
    pub board_scores: Option<Vec<Decimal>>,
    /// Where it is written.
    pub span: Span,
}

impl MatchResult {
    /// Whether it is the match of `x` and `y`, in either order.
    pub fn is(&self, x: u32, y: u32) -> bool {
        (self.a, self.b) == (x, y) || (self.a, self.b) == (y, x)
    }

    /// The IMPs as (x's, y's).
    pub fn imps_for(&self, x: u32) -> (Decimal, Decimal) {
        if self.a == x {
            (self.a_imps, self.b_imps)
        } else {
            (self.b_imps, self.a_imps)
        }
    }
}

/// A draw as recorded in the file: it stands once made.
#[derive(Debug, Clone)]
pub struct RecordedDraw {
    /// The matches, (home, away) in table order, each with where it is written.
    pub pairs: Vec<(u32, u32, Span)>,
    /// The team with the bye, and where it is written.
    pub bye: Option<(u32, Span)>,
    /// Where the draw is written.
    pub span: Span,
}

impl RecordedDraw {
    /// The matches, (home, away) in table order.
    pub fn matches(&self) -> Vec<(u32, u32)> {
        self.pairs.iter().map(|(a, b, _)| (*a, *b)).collect()
    }

    /// Where team `t` is written in the draw (the draw itself if nowhere).
    pub fn span_of(&self, t: u32) -> Span {
        self.pairs
            .iter()
            .find(|(a, b, _)| *a == t || *b == t)
            .map(|(_, _, s)| *s)
            .or(self.bye.filter(|(b, _)| *b == t).map(|(_, s)| s))
            .unwrap_or(self.span)
    }
}

/// `[[round]]`: a qualification round's results.
#[derive(Debug, Clone)]
pub struct RoundEntry {
    /// The round's number.
    pub number: u32,
    /// Where the entry is.
    pub span: Span,
    /// The round's draw, when recorded.
    pub draw: Option<RecordedDraw>,
    /// The results.
    pub results: Vec<MatchResult>,
    /// Results written but refused as not understood (each an error of its own).
    pub refused: usize,
}

/// A captain's choice: `"chooser>chosen"`.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The team that chooses.
    pub chooser: u32,
    /// The team it chooses.
    pub chosen: u32,
    /// Where it is written.
    pub span: Span,
}

/// `[[stage]]`: a knockout stage's choices, withdrawals and results.
#[derive(Debug, Clone)]
pub struct StageEntry {
    /// The stage's name in the edition (once resolved; as written before).
    pub name: String,
    /// The stage as the file writes it (its name or its title, in any case): a
    /// draw is written back under it.
    pub written: String,
    /// Where the entry is.
    pub span: Span,
    /// The stage's draw, when recorded.
    pub draw: Option<RecordedDraw>,
    /// Choices in the order made.
    pub choices: Vec<Choice>,
    /// Teams that withdrew after the draw.
    pub withdrawn: Vec<(u32, Span)>,
    /// Teams that withdrew at the time of the draw (BC-DRAWS).
    pub withdrawn_at_draw: Vec<(u32, Span)>,
    /// Choosing teams not present when the choice began: when each arrived
    /// (`None`: not at all), CC-ABSENT.
    pub absent: Vec<(u32, Option<u32>, Span)>,
    /// Seating-rights picks of matches played in segments: the teams, then the home
    /// and the away team's picks (CC-SEATING).
    pub seating: Vec<(u32, u32, u32, u32)>,
    /// Line-ups of the stage's matches, one per team that gives one.
    pub lineups: Vec<Lineup>,
    /// The results.
    pub results: Vec<MatchResult>,
    /// Results written but refused as not understood (each an error of its own).
    pub refused: usize,
}

/// Where an incident happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum At {
    /// A qualification round.
    Round(u32),
    /// A knockout stage, by name.
    Stage(String),
}

/// What an incident does to the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Deduct this many VP (in a round) or IMP (in a stage).
    Deduct(Decimal),
    /// Nothing applies; the incident is listed.
    Warning,
    /// The run cannot go past this round or stage: the message says why.
    Halt(String),
}

/// `[[incident]]`: a penalty the edition's rules decide.
#[derive(Debug, Clone)]
pub struct Incident {
    /// The team penalised.
    pub team: u32,
    /// Where.
    pub at: At,
    /// The rule expression, e.g. `late_arrival_qualification(12 min)`.
    pub rule: String,
    /// The incident's entry.
    pub span: Span,
    /// The rule's text in the file.
    pub rule_span: Span,
    /// A note for the record.
    pub note: Option<String>,
    /// The penalty as the rules give it, in words.
    pub penalty: Option<String>,
    /// What it does; `None` when the rule could not be evaluated.
    pub effect: Option<Effect>,
}

/// The most IMPs one board gives, as the edition's IMP table says.
#[derive(Debug, Clone)]
pub struct ImpCap {
    /// IMPs per board.
    pub per_board: Decimal,
    /// The IMP table's name.
    pub scale: String,
    /// Its top row, in the edition.
    pub row: Span,
}

/// A qualification's VP scale whose margin counts whole IMPs: a result whose
/// margin has a fraction cannot be scored.
#[derive(Debug, Clone)]
pub struct WholeMargin {
    /// The VP scale's name.
    pub scale: String,
    /// Its margin parameter's name.
    pub param: String,
    /// The VP scale, in the edition.
    pub at: Span,
}

/// A whole event file.
#[derive(Debug, Clone)]
pub struct Event {
    /// The file's id.
    pub file: FileId,
    /// The competition's name in the edition, and where it is written.
    pub competition: (String, Span),
    /// The seed of the first round's draw.
    pub seed: u64,
    /// A rule to use as the VP scale.
    pub vp_scale: Option<(String, Span)>,
    /// The rule that turns a board's score difference into IMPs, for results given
    /// board by board.
    pub imp_scale: Option<(String, Span)>,
    /// The teams, by id.
    pub teams: Vec<Team>,
    /// Qualification rounds in the order listed.
    pub rounds: Vec<RoundEntry>,
    /// Knockout stages in the order listed.
    pub stages: Vec<StageEntry>,
    /// Incidents in the order listed.
    pub incidents: Vec<Incident>,
    /// The most IMPs one board gives, from the top row of the edition's IMP table
    /// (set when the event is resolved against the edition, if the competition names one).
    pub imp_cap: Option<ImpCap>,
    /// The qualification's VP scale, if its margin counts whole IMPs (set when
    /// the event is resolved against the edition).
    pub whole_margin: Option<WholeMargin>,
    /// The qualification's title (set when the event is resolved against the edition).
    pub qualification_title: String,
    /// Stage titles by name (set when the event is resolved against the edition).
    pub stage_titles: BTreeMap<String, String>,
}

impl Event {
    /// A stage's title, or its name.
    pub fn stage_title(&self, name: &str) -> String {
        self.stage_titles
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }
}

/// What an incident says: the team, the round or stage, the rule (spaces
/// aside) and the note. Two incidents with one key say the same.
type IncidentKey = (u32, Option<u32>, Option<String>, String, Option<String>);

fn incident_key(i: &Incident) -> IncidentKey {
    let (round, stage) = match &i.at {
        At::Round(r) => (Some(*r), None),
        At::Stage(s) => (None, Some(s.clone())),
    };
    let rule = i.rule.split_whitespace().collect::<Vec<_>>().join(" ");
    (i.team, round, stage, rule, i.note.clone())
}

/// W0722 for each incident among `placed` (indices into `incidents`) that says
/// what an earlier one says. Called once rounds and stages are known, so a
/// stage written by its name and again by its title is the same stage.
pub(super) fn incidents_written_twice(event: &Event, placed: &[usize]) -> Vec<Diagnostic> {
    // Each incident's first writing, by what it says (one pass: a file may
    // hold many incidents).
    let mut written: HashMap<IncidentKey, &Incident> = HashMap::new();
    let mut twice = Vec::new();
    for incident in placed.iter().filter_map(|&i| event.incidents.get(i)) {
        match written.entry(incident_key(incident)) {
            Entry::Occupied(first) => twice.push(incident_twice(event, first.get(), incident)),
            Entry::Vacant(slot) => {
                slot.insert(incident);
            }
        }
    }
    twice
}

/// W0722: an incident written again, likely pasted twice. Both stand: two
/// penalties for one team in one round are possible, and a director's entry is
/// never dropped on a guess.
fn incident_twice(event: &Event, first: &Incident, again: &Incident) -> Diagnostic {
    // As the run's other messages name a stage: by its title.
    let place = match &again.at {
        At::Round(r) => format!("round {r}"),
        At::Stage(s) => event.stage_title(s),
    };
    Diagnostic::warning(
        "W0722",
        format!(
            "team {}'s incident in {place} is written twice, `{}` each time: both apply",
            again.team,
            again.rule.split_whitespace().collect::<Vec<_>>().join(" ")
        ),
        again.span,
    )
    .with_label("the same incident again")
    .with_note(first.span, "first written here")
    .with_help("remove one if it was entered twice; if the team had two incidents there, give each its own `note`")
}

fn err(code: &'static str, file: FileId, at: &std::ops::Range<usize>, msg: String) -> Diagnostic {
    Diagnostic::error(code, msg, span(file, at))
}

struct Parser<'t> {
    file: FileId,
    diags: Diagnostics,
    ids: BTreeSet<u32>,
    /// The file's text, for spans inside a quoted value.
    text: &'t str,
    /// Each team's players, by team id.
    players: BTreeMap<u32, Vec<String>>,
}

impl Parser<'_> {
    /// The span of bytes `inner` of the quoted value at `at`, when the value is
    /// written without escapes; the whole value otherwise.
    fn inner(
        &self,
        at: &std::ops::Range<usize>,
        value: &str,
        inner: &std::ops::Range<usize>,
    ) -> Span {
        let written = self.text.get(at.clone()).unwrap_or_default();
        if written.len() == value.len() + 2 && written.get(1..written.len() - 1) == Some(value) {
            Span::new(
                self.file,
                at.start + 1 + inner.start,
                at.start + 1 + inner.end,
            )
        } else {
            span(self.file, at)
        }
    }

    /// A stage's line-ups: each team known, each player one of the team's.
    fn lineups(&mut self, raw: &[Sp<String>]) -> Vec<Lineup> {
        let mut out: Vec<Lineup> = Vec::new();
        for l in raw {
            let (team, players) = match parse_lineup(&l.value) {
                Ok(p) => p,
                Err(m) => {
                    self.diags.push(
                        err("E0701", self.file, &l.span, m)
                            .with_label("this line-up is not understood"),
                    );
                    continue;
                }
            };
            if !self.known(team, &l.span, "this line-up") {
                continue;
            }
            let whole = span(self.file, &l.span);
            if let Some(first) = out.iter().find(|x| x.team == team) {
                self.diags.push(
                    Diagnostic::error(
                        "E0727",
                        format!("team {team} has two line-ups in this stage"),
                        whole,
                    )
                    .with_label("a second line-up for the same team")
                    .with_note(first.span, "the first")
                    .with_help("give each team one line-up per stage, listing every player who played and the boards each played"),
                );
                continue;
            }
            let roster = self.players.get(&team).cloned().unwrap_or_default();
            let mut kept: Vec<(String, u32, Span)> = Vec::new();
            for (name, boards, range) in players {
                let at = self.inner(&l.span, &l.value, &range);
                let Some(player) = self.lineup_player(team, &roster, &name, at) else {
                    continue;
                };
                // Named twice, the boards would count twice for the trophy.
                if let Some((_, _, first)) = kept.iter().find(|(p, _, _)| *p == player) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0727",
                            format!("`{player}` is named twice in team {team}'s line-up"),
                            at,
                        )
                        .with_label("named again")
                        .with_note(*first, "named here first")
                        .with_help("name each player once, with all the boards the player played in the match"),
                    );
                    continue;
                }
                kept.push((player, boards, at));
            }
            out.push(Lineup {
                team,
                players: kept,
                span: whole,
            });
        }
        out
    }

    /// The roster's player a line-up names (`name` at `at`): as the team's
    /// `players` spell it, or so folded (`asa oberg` for `Åsa Öberg`), kept under
    /// the roster's spelling. `None`, with E0724, for a name that is no player's
    /// or that two players share folded.
    fn lineup_player(
        &mut self,
        team: u32,
        roster: &[String],
        name: &str,
        at: Span,
    ) -> Option<String> {
        // The roster is kept in NFC; a name typed with separate marks is the same.
        let name = crate::syntax::nfc(name);
        let found =
            crate::names::find_one(roster.len(), &name, |i| roster.get(i).map(String::as_str));
        if let Some(player) = found.and_then(|i| roster.get(i)) {
            return Some(player.clone());
        }
        let mut d = Diagnostic::error(
            "E0724",
            format!("`{name}` is not a player of team {team}"),
            at,
        );
        let alike: Vec<&str> = roster
            .iter()
            .filter(|p| crate::names::same(p, &name))
            .map(String::as_str)
            .collect();
        d = if roster.is_empty() {
            d.with_label(format!("team {team} lists no players"))
                .with_help(format!(
                    "list the team's players in its `[[team]]`: `players = [\"{name}\", …]`"
                ))
        } else if alike.len() > 1 {
            d.with_label("more than one of the team's players is written so, but for case or marks")
                .with_help(format!(
                    "write the name as the team's `players` do: {}",
                    crate::diag::and_list(
                        &alike.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>()
                    )
                ))
        } else {
            let near = crate::names::nearest(&name, roster.iter().map(String::as_str));
            let d = d.with_label("not in the team's `players`");
            match near {
                Some(p) => d.with_help(format!(
                    "did you mean `{p}`? (the team's players: {})",
                    roster.join(", ")
                )),
                None => d.with_help(format!(
                    "the team's players are {}; add a new player to the team's `players` first",
                    roster.join(", ")
                )),
            }
        };
        self.diags.push(d);
        None
    }

    fn known(&mut self, team: u32, at: &std::ops::Range<usize>, what: &str) -> bool {
        if self.ids.contains(&team) {
            return true;
        }
        let last = self.ids.last().copied().unwrap_or(0);
        self.diags.push(
            err(
                "E0702",
                self.file,
                at,
                format!("{what} names team {team}, which is not in the event"),
            )
            .with_label("no `[[team]]` has this id")
            .with_help(format!("the teams are numbered 1 to {last}")),
        );
        false
    }

    /// The results understood, and how many were refused.
    fn results(&mut self, raw: &[Sp<String>]) -> (Vec<MatchResult>, usize) {
        let mut out = Vec::new();
        let mut refused = 0;
        for r in raw {
            match parse_result(&r.value) {
                Err(m) => {
                    refused += 1;
                    self.diags.push(
                        err("E0701", self.file, &r.span, m)
                            .with_label("this result is not understood"),
                    );
                }
                Ok((a, b, ai, bi, boards, board_scores)) => {
                    let ka = self.known(a, &r.span, "this result");
                    let kb = self.known(b, &r.span, "this result");
                    if ka && kb {
                        out.push(MatchResult {
                            a,
                            b,
                            a_imps: ai,
                            b_imps: bi,
                            boards,
                            board_scores,
                            span: span(self.file, &r.span),
                        });
                    } else {
                        refused += 1;
                    }
                }
            }
        }
        (out, refused)
    }
}

/// Reads and checks an event file on its own (without the edition). Returns the
/// event, unless the file cannot be used at all (syntax, the team list).
pub fn parse(text: &str, file: FileId, json: bool) -> (Option<Event>, Diagnostics) {
    let mut diags = Diagnostics::default();
    for warning in crate::syntax::direction_warnings(text, file) {
        diags.push(warning);
    }
    let raw = match file::read(text, json) {
        Ok(r) => r,
        Err(problems) => {
            for e in problems {
                let written = text.get(e.span.clone()).unwrap_or_default();
                let (words, help) = super::words::reading_problem(&e.message, written, text, json);
                diags.push(
                    err(
                        "E0700",
                        file,
                        &e.span,
                        format!("the event file cannot be read: {words}"),
                    )
                    .with_label("here")
                    .with_help(help),
                );
            }
            return (None, diags);
        }
    };
    // A TOML integer stops at 2^63 - 1; a larger seed could be read but never
    // written back (`--write-draw`), so it is refused here for both formats.
    if raw.seed.value > i64::MAX as u64 {
        diags.push(
            err(
                "E0700",
                file,
                &raw.seed.span,
                format!(
                    "the seed {} is larger than an event file can hold (at most {})",
                    raw.seed.value,
                    i64::MAX
                ),
            )
            .with_label("this seed")
            .with_help("any whole number from 0 to 9223372036854775807 will do; the seed only picks the first draw"),
        );
        return (None, diags);
    }
    let (teams, usable) = team_list(&raw, file, &mut diags);
    let mut p = Parser {
        file,
        diags,
        ids: teams.iter().map(|t| t.id).collect(),
        text,
        players: teams
            .iter()
            .map(|t| (t.id, t.players.iter().map(|(n, _)| n.clone()).collect()))
            .collect(),
    };
    let rounds = p.rounds(&raw.round);
    let stages = p.stages(&raw.stage);
    let incidents = p.incidents(&raw.incident);
    let diags = p.diags;
    if !usable {
        return (None, diags);
    }
    let event = Event {
        file,
        competition: (
            raw.competition.value.clone(),
            span(file, &raw.competition.span),
        ),
        seed: raw.seed.value,
        vp_scale: raw
            .vp_scale
            .as_ref()
            .map(|s| (s.value.clone(), span(file, &s.span))),
        imp_scale: raw
            .imp_scale
            .as_ref()
            .map(|s| (s.value.clone(), span(file, &s.span))),
        teams,
        rounds,
        stages,
        incidents,
        imp_cap: None,
        whole_margin: None,
        qualification_title: "the qualification".into(),
        stage_titles: BTreeMap::new(),
    };
    (Some(event), diags)
}

/// The most teams an event file may list: the edition's bound on a field
/// ([`crate::ir::MAX_TEAMS`]). Drawing a round takes time that grows with the
/// square of the field, so a larger list is refused before anything is drawn
/// (E0728).
pub const MAX_TEAMS: usize = crate::ir::MAX_TEAMS as usize;

/// The teams, numbered 1..=n, each once; and whether the list can be used.
fn team_list(raw: &RawEvent, file: FileId, diags: &mut Diagnostics) -> (Vec<Team>, bool) {
    if let Some(past) = raw.team.get(MAX_TEAMS) {
        diags.push(
            err(
                "E0728",
                file,
                &past.value.id.span,
                format!(
                    "the event lists {} teams; an event file holds at most {MAX_TEAMS}",
                    raw.team.len()
                ),
            )
            .with_label(format!("team number {} of the list", MAX_TEAMS + 1))
            .with_help(format!(
                "list only the teams entered, at most {MAX_TEAMS} (the same bound as `bfr simulate --teams`)"
            )),
        );
        return (Vec::new(), false);
    }
    // The teams: numbered 1..=n, each once.
    let mut teams: Vec<Team> = Vec::new();
    let mut first_at: BTreeMap<u32, Span> = BTreeMap::new();
    let mut fatal = false;
    // A second team with an id: (its id, where, where the first is).
    let mut twice: Vec<(u32, Span, Span)> = Vec::new();
    // Where a mark is written `true`; `false` is as good as absent.
    let marked = |m: Option<&Sp<bool>>| m.filter(|m| m.value).map(|m| span(file, &m.span));
    for t in &raw.team {
        let id = t.value.id.value;
        if let Some(first) = first_at.get(&id) {
            twice.push((id, span(file, &t.value.id.span), *first));
            fatal = true;
            continue;
        }
        first_at.insert(id, span(file, &t.value.id.span));
        // Names are compared and padded as letters: `å` typed as `a` and a ring
        // (as some systems store it) is the one letter `å`.
        let written = t
            .value
            .name
            .as_ref()
            .map(|n| crate::syntax::nfc(n.value.trim()))
            .filter(|n| !n.is_empty());
        teams.push(Team {
            id,
            name: written.unwrap_or_else(|| format!("Team {id}")),
            late: marked(t.value.late.as_ref()),
            district: marked(t.value.district.as_ref()),
            players: t
                .value
                .players
                .iter()
                .map(|p| (crate::syntax::nfc(&p.value), span(file, &p.span)))
                .collect(),
            span: span(file, &t.value.id.span),
        });
    }
    teams.sort_by_key(|t| t.id);
    names_apart(raw, file, diags);
    // The ids run 1 to the number of teams listed, a team listed twice included:
    // the id it should have is one no team has.
    let listed = u32::try_from(raw.team.len()).unwrap_or(u32::MAX);
    let missing: Vec<String> = (1..=listed)
        .filter(|i| !first_at.contains_key(i))
        .take(5)
        .map(|i| i.to_string())
        .collect();
    for (id, at, first) in twice {
        let help = match missing.as_slice() {
            [] => "give every team its own id, 1 to the number of teams".to_string(),
            [one] => format!("no team has id {one}: give it to one of them"),
            some => format!(
                "no team has ids {}: give them to the others",
                some.join(", ")
            ),
        };
        diags.push(
            Diagnostic::error("E0703", format!("team {id} is listed twice"), at)
                .with_label("a second team with this id")
                .with_note(first, "the first")
                .with_help(help),
        );
    }
    let n = listed;
    if n < 2 {
        diags.push(
            err(
                "E0703",
                file,
                &raw.competition.span,
                format!(
                    "the event lists {n} {}; a competition needs at least two",
                    if n == 1 { "team" } else { "teams" }
                ),
            )
            .with_label("for this competition")
            .with_help("add a `[[team]]` table for every team entered"),
        );
        fatal = true;
    }
    for t in &teams {
        if t.id == 0 || t.id > n {
            diags.push(
                Diagnostic::error(
                    "E0703",
                    format!("team {} is outside 1 to {n}: the teams are numbered 1 to the number of teams", t.id),
                    t.span,
                )
                .with_label("this id")
                .with_help(format!("number the {n} teams 1 to {n}")),
            );
            fatal = true;
        }
    }
    (teams, !fatal)
}

/// W0723: a team's `name` left empty, or two teams with one name (the same
/// folded, [`crate::names`]): the report, the draw and the noticeboard tell teams apart by name.
fn names_apart(raw: &RawEvent, file: FileId, diags: &mut Diagnostics) {
    let mut seen: HashMap<String, (u32, Span, &str)> = HashMap::new();
    for t in &raw.team {
        let Some(name) = &t.value.name else {
            continue;
        };
        let id = t.value.id.value;
        let at = span(file, &name.span);
        let folded = crate::names::folded(name.value.trim()).into_owned();
        if folded.is_empty() {
            diags.push(
                Diagnostic::warning("W0723", format!("team {id}'s name is empty"), at)
                    .with_label("no name")
                    .with_help(format!(
                        "write the team's name, or leave `name` out: it is then shown as `Team {id}`"
                    )),
            );
            continue;
        }
        let written = name.value.trim();
        match seen.get(&folded) {
            Some((first, first_at, first_written)) => diags.push(
                Diagnostic::warning(
                    "W0723",
                    if crate::syntax::nfc(first_written) == crate::syntax::nfc(written) {
                        format!("teams {first} and {id} are both named `{written}`")
                    } else {
                        format!("teams {first} and {id} are named alike: `{first_written}` and `{written}`")
                    },
                    at,
                )
                .with_label("the same name again")
                .with_note(*first_at, format!("team {first}'s name"))
                .with_help(format!("give each team a name of its own (e.g. `{} 2`): the report, the draw and the noticeboard tell teams apart by name", name.value.trim())),
            ),
            None => {
                seen.insert(folded, (id, at, written));
            }
        }
    }
}

impl Parser<'_> {
    /// A recorded draw: its matches as written (the run checks them against the
    /// rules); `None` when a match is not understood.
    fn draw(&mut self, d: &Sp<Vec<Sp<String>>>, bye: Option<&Sp<u32>>) -> Option<RecordedDraw> {
        let mut pairs = Vec::new();
        let mut ok = true;
        for m in &d.value {
            match parse_pair(&m.value) {
                Ok((a, b)) => pairs.push((a, b, span(self.file, &m.span))),
                Err(message) => {
                    self.diags.push(
                        err("E0701", self.file, &m.span, message)
                            .with_label("this match of the draw is not understood"),
                    );
                    ok = false;
                }
            }
        }
        ok.then(|| RecordedDraw {
            pairs,
            bye: bye.map(|b| (b.value, span(self.file, &b.span))),
            span: span(self.file, &d.span),
        })
    }

    /// Rounds: in order, each once.
    fn rounds(&mut self, raw: &[Sp<RawRound>]) -> Vec<RoundEntry> {
        let file = self.file;
        let mut rounds: Vec<RoundEntry> = Vec::new();
        for r in raw {
            let number = r.value.number.value;
            let at = &r.value.number.span;
            if number == 0 {
                self.diags.push(
                    err("E0704", file, at, "rounds are numbered from 1".into())
                        .with_label("round 0"),
                );
                continue;
            }
            if let Some(first) = rounds.iter().find(|x| x.number == number) {
                self.diags.push(
                    err("E0704", file, at, format!("round {number} is listed twice"))
                        .with_label("listed again here; these results are not used")
                        .with_note(first.span, "first listed here")
                        .with_help("put all of a round's results in one `[[round]]`"),
                );
                continue;
            }
            if let Some(last) = rounds.last()
                && last.number > number
            {
                self.diags.push(
                    err(
                        "E0704",
                        file,
                        at,
                        format!("round {number} is listed after round {}", last.number),
                    )
                    .with_label("out of order")
                    .with_note(last.span, "listed before it")
                    .with_help("list the rounds in the order they were played"),
                );
            }
            let (results, refused) = self.results(&r.value.results);
            let draw = r
                .value
                .draw
                .as_ref()
                .and_then(|d| self.draw(d, r.value.bye.as_ref()));
            rounds.push(RoundEntry {
                number,
                span: span(file, at),
                draw,
                results,
                refused,
            });
        }
        rounds
    }

    /// Stages, as written (`resolve` finds each in the competition, and a stage
    /// given twice).
    fn stages(&mut self, raw: &[Sp<RawStage>]) -> Vec<StageEntry> {
        let file = self.file;
        raw.iter()
            .map(|s| {
                let at = span(file, &s.value.name.span);
                self.stage(&s.value, s.value.name.value.clone(), at)
            })
            .collect()
    }

    /// One stage's choices, withdrawals, absences, seating picks and results.
    fn stage(&mut self, s: &RawStage, name: String, at: Span) -> StageEntry {
        let file = self.file;
        let mut choices = Vec::new();
        for c in &s.choices {
            match parse_choice(&c.value) {
                Err(m) => self.diags.push(
                    err("E0701", file, &c.span, m).with_label("this choice is not understood"),
                ),
                Ok((a, b)) => {
                    let ka = self.known(a, &c.span, "this choice");
                    let kb = self.known(b, &c.span, "this choice");
                    if ka && kb {
                        choices.push(Choice {
                            chooser: a,
                            chosen: b,
                            span: span(file, &c.span),
                        });
                    }
                }
            }
        }
        let mut withdrawn = Vec::new();
        for w in &s.withdrawn {
            if self.known(w.value, &w.span, "this withdrawal") {
                withdrawn.push((w.value, span(file, &w.span)));
            }
        }
        let mut withdrawn_at_draw = Vec::new();
        for w in &s.withdrawn_at_draw {
            if self.known(w.value, &w.span, "this withdrawal") {
                withdrawn_at_draw.push((w.value, span(file, &w.span)));
            }
        }
        let mut absent = Vec::new();
        for a in &s.absent {
            match parse_absent(&a.value.0) {
                Err(m) => self.diags.push(
                    err("E0701", file, &a.span, m).with_label("this absence is not understood"),
                ),
                Ok((team, turn)) => {
                    if self.known(team, &a.span, "this absence") {
                        absent.push((team, turn, span(file, &a.span)));
                    }
                }
            }
        }
        let mut seating = Vec::new();
        for x in &s.seating {
            match parse_seating(&x.value) {
                Err(m) => self.diags.push(
                    err("E0701", file, &x.span, m).with_label("these picks are not understood"),
                ),
                Ok(picks) => seating.push(picks),
            }
        }
        let (results, refused) = self.results(&s.results);
        let lineups = self.lineups(&s.lineups);
        let draw = s.draw.as_ref().and_then(|d| self.draw(d, s.bye.as_ref()));
        StageEntry {
            written: name.clone(),
            name,
            span: at,
            draw,
            choices,
            withdrawn,
            withdrawn_at_draw,
            absent,
            seating,
            lineups,
            results,
            refused,
        }
    }

    /// Incidents: a team, a round or a stage, and a rule.
    fn incidents(&mut self, raw: &[Sp<RawIncident>]) -> Vec<Incident> {
        let file = self.file;
        let mut incidents: Vec<Incident> = Vec::new();
        for i in raw {
            let v = &i.value;
            let known = self.known(v.team.value, &v.team.span, "this incident");
            let at = match (&v.round, &v.stage) {
                (Some(r), None) => At::Round(r.value),
                (None, Some(s)) => At::Stage(s.value.clone()),
                _ => {
                    self.diags.push(
                        err(
                            "E0712",
                            file,
                            &i.span,
                            "an incident names either a `round` or a `stage`".into(),
                        )
                        .with_label("this incident")
                        .with_help("write `round = N` for the qualification, `stage = \"name\"` for a knockout stage"),
                    );
                    continue;
                }
            };
            if !known {
                continue;
            }
            let incident = Incident {
                team: v.team.value,
                at,
                rule: v.rule.value.clone(),
                span: span(file, &i.span),
                rule_span: span(file, &v.rule.span),
                note: v.note.as_ref().map(|n| n.value.clone()),
                penalty: None,
                effect: None,
            };
            incidents.push(incident);
        }
        incidents
    }
}
