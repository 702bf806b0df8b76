//! The entries as bfr uses them: read, every name resolved against the edition,
//! every value with its span. Problems of the file itself (it cannot be read, a
//! name or member number that means nothing) are `E0800` and `E0801`.

use super::file::{self, RawDeceased, RawEntries, RawPair, RawPlayer, RawTeam, Sp};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Date, Program};
use crate::source::{FileId, Span};
use std::collections::BTreeMap;
use std::ops::Range;

/// A date and a time of day (minutes since midnight), as the entries give them.
pub type Stamp = (Date, u16);

/// The edition's enumerations entries name values of: districts, the SM pair
/// events with district quotas, and the festival stages with a table fee.
#[derive(Debug, Clone, Copy)]
pub struct Enums {
    /// The enum of the districts (role `district`; 2015: `District`).
    pub district: u32,
    /// The enum of the SM disciplines (role `sm_event`; 2015: `SmQuotaEvent`).
    pub event: u32,
    /// The enum of the SM festival stages (role `sm_stage`; 2015: `SmFestivalStage`).
    pub stage: u32,
    /// The veterans' discipline, a variant of `event` (role `sm_veteran`).
    pub veteran: u32,
}

/// An event a player takes part in outside the team being checked, as far as the
/// late-start questions ask about them (`other_events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherEvent {
    /// An SM discipline, a variant of the `sm_event` role's enum: the veterans' one
    /// (role `sm_veteran`) counts for `cc_may_start_in_round_3`.
    Discipline(u32),
    /// The knockout of a competition the `cc_team` role names (an index into the
    /// edition's competitions): it counts for `lv_may_start_late`.
    Knockout(u32),
}

/// `[[player]]`
#[derive(Debug, Clone)]
pub struct Player {
    /// Member number.
    pub member: u32,
    /// Name.
    pub name: String,
    /// Birth year, where it is given.
    pub birth_year: Option<(i32, Span)>,
    /// Club.
    pub club: Option<String>,
    /// District (variant of the `district` role's enum).
    pub district: Option<(u32, Span)>,
    /// When this season's membership fee was paid; `None`: not paid.
    pub membership_paid_at: Option<(Stamp, Span)>,
    /// A member of another national federation.
    pub other_federation: bool,
    /// Played an earlier Chairman's Cup.
    pub earlier_cc: bool,
    /// Other events entered.
    pub other_events: Vec<OtherEvent>,
    /// SM disciplines (variants of the `sm_event` role's enum) whose qualifier the player
    /// played earlier this season, outside this file.
    pub qualified_before: Vec<(u32, Span)>,
    /// The entry.
    pub span: Span,
}

/// Which questions a team is asked: the form of team entry its competition's role
/// in the edition's `entries` block gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamKind {
    /// A competition of the `cc_team` role: the `cc_…` questions (a qualification,
    /// then a knockout with a fee of its own; district teams; a round-3 start).
    Cc,
    /// A competition of the `lv_team` role: the `lv_…` questions (birth years, one
    /// team fee with or without the playoff, a late start).
    Lv,
}

/// Each team role and the form it gives, in the order of `ir::entries::TEAM_ROLES`.
const FORMS: [(&str, TeamKind); 2] = [("cc_team", TeamKind::Cc), ("lv_team", TeamKind::Lv)];

/// The most players, teams, pairs or districts an entries file may list, each:
/// the bound on a field ([`crate::ir::MAX_TEAMS`]). A longer list is refused
/// before anything is checked (E0829), so the checks' work and the
/// diagnostics they can give stay bounded.
pub const MAX_LISTED: usize = crate::ir::MAX_TEAMS as usize;

/// The most members one team or pair may name: far above any team the rules
/// allow, a bound on the work one entry can ask for (E0829).
pub const MAX_MEMBERS: usize = 100;

/// `[[team]]`
#[derive(Debug, Clone)]
pub struct Team {
    /// Its id in the file.
    pub id: String,
    /// Whether every member it names was read: one not listed, or whose
    /// `[[player]]` was refused, is left out (its error said there), and what
    /// counts the players is not checked.
    pub complete: bool,
    /// Its name.
    pub name: (String, Span),
    /// Which questions it is asked.
    pub kind: TeamKind,
    /// The competition it enters (an index into the edition's competitions).
    pub competition: u32,
    /// Member numbers, each where written.
    pub players: Vec<(u32, Span)>,
    /// The player list.
    pub players_span: Span,
    /// Claims to be a district team (CC-DISTRICT): where it says so.
    pub district_team: Option<Span>,
    /// Pre-registered for a late start: where it says so.
    pub late_start: Option<Span>,
    /// When it registered.
    pub registered_at: Option<(Stamp, Span)>,
    /// When the entry fee was paid (CC: Gröna Hissen; LV: the team fee).
    pub fee_paid_at: Option<(Stamp, Span)>,
    /// Plays on after the qualification (CC: from Monday; LV: the playoff).
    pub knockout: bool,
    /// When the fee from Monday on was paid (CC).
    pub knockout_fee_paid_at: Option<(Stamp, Span)>,
    /// The entry.
    pub span: Span,
}

/// How a pair got its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnteredBy {
    /// Through its district's qualifier.
    District,
    /// Through the festival's last-chance qualifier (Sista Chansen / Sista Dansen).
    LastChance,
    /// As last year's champions.
    Champion,
}

/// `replaces_deceased = { … }`: the pair's reserve stands in for a qualified
/// player who died (SM-DEATH).
#[derive(Debug, Clone)]
pub struct Deceased {
    /// The deceased player's member number.
    pub member: u32,
    /// The deceased was one of last year's champions.
    pub last_years_champion: bool,
    /// The district qualifier had been played.
    pub district_qualifier_played: bool,
    /// The entry.
    pub span: Span,
}

/// `[[pair]]`
#[derive(Debug, Clone)]
pub struct Pair {
    /// Its id in the file.
    pub id: String,
    /// The discipline (variant of the `sm_event` role's enum).
    pub event: (u32, Span),
    /// Member numbers.
    pub players: Vec<(u32, Span)>,
    /// The player list.
    pub players_span: Span,
    /// The district it qualified through (variant of the `district` role's enum).
    pub district: (u32, Span),
    /// How it got its place.
    pub entered_by: (EnteredBy, Span),
    /// The festival stage it plays (variant of the `sm_stage` role's enum).
    pub stage: Option<(u32, Span)>,
    /// When its first stage started (the membership deadline).
    pub first_stage_at: Option<(Stamp, Span)>,
    /// The sessions of a district qualifier of several sessions it played.
    pub qualifier_sessions: Vec<(u32, Span)>,
    /// Stages the two played together without a reserve.
    pub stages_together: (u32, Option<Span>),
    /// One of its regular players took part in every session.
    pub regular_in_every_session: (bool, Option<Span>),
    /// A reserve plays in the final: `Some(true)` for a reason that arose after
    /// the start, `Some(false)` for one before it.
    pub reserve_in_final: Option<(bool, Span)>,
    /// Stands in for a deceased player.
    pub replaces_deceased: Option<Deceased>,
    /// Among the Open's first allotment of places (travel subsidy).
    pub first_allotment: Option<Span>,
    /// The last-chance start fee paid in cash (`Some(true)`) or in advance.
    pub paid_cash: Option<(bool, Span)>,
    /// When the table fee was paid.
    pub table_fee_paid_at: Option<(Stamp, Span)>,
    /// The entry.
    pub span: Span,
}

/// `[[district]]`
#[derive(Debug, Clone)]
pub struct DistrictEntry {
    /// Variant of `District`.
    pub district: u32,
    /// SM disciplines whose replacement pair the district did not report.
    pub missed_replacements: Vec<(u32, Span)>,
    /// The entry.
    pub span: Span,
}

/// A whole entries file.
#[derive(Debug, Clone)]
pub struct Entries {
    /// The file.
    pub file: FileId,
    /// The enumerations its names resolve to.
    pub enums: Enums,
    /// Players by member number.
    pub players: BTreeMap<u32, Player>,
    /// The member numbers of `[[player]]` tables refused for a value that is
    /// wrong (a district that is not one): the error is said there, so a team
    /// or pair naming them is not told again that they are not listed.
    pub refused: std::collections::BTreeSet<u32>,
    /// Teams, in file order.
    pub teams: Vec<Team>,
    /// Pairs, in file order.
    pub pairs: Vec<Pair>,
    /// District entries, in file order.
    pub districts: Vec<DistrictEntry>,
}

/// Reads an entries file; `None` when it cannot be read at all or the edition
/// lacks the enumerations entries name.
pub fn read(
    text: &str,
    file: FileId,
    json: bool,
    program: &Program,
) -> (Option<Entries>, Diagnostics) {
    let mut r = Reader {
        file,
        program,
        diags: Diagnostics::default(),
    };
    for warning in crate::syntax::direction_warnings(text, file) {
        r.diags.push(warning);
    }
    let raw = match file::read(text, json) {
        Ok(raw) => raw,
        Err(problems) => {
            for e in problems {
                r.diags.push(
                    Diagnostic::error(
                        "E0800",
                        format!("the entries file cannot be read: {}", e.message),
                        r.span(&e.span),
                    )
                    .with_label("here")
                    .with_help(e.help),
                );
            }
            return (None, r.diags);
        }
    };
    if !r.within_bounds(&raw) {
        return (None, r.diags);
    }
    let Some(enums) = r.enums() else {
        return (None, r.diags);
    };
    let entries = r.entries(raw, enums);
    (Some(entries), r.diags)
}

struct Reader<'p> {
    file: FileId,
    program: &'p Program,
    diags: Diagnostics,
}

impl Reader<'_> {
    fn span(&self, r: &Range<usize>) -> Span {
        Span::new(self.file, r.start, r.end)
    }

    /// Whether every list of the file is within [`MAX_LISTED`]: each one past it
    /// is an E0829 at its first entry past the bound.
    fn within_bounds(&mut self, raw: &RawEntries) -> bool {
        let lists = [
            (
                "player",
                raw.player.get(MAX_LISTED).map(|p| &p.span),
                raw.player.len(),
            ),
            (
                "team",
                raw.team.get(MAX_LISTED).map(|t| &t.span),
                raw.team.len(),
            ),
            (
                "pair",
                raw.pair.get(MAX_LISTED).map(|p| &p.span),
                raw.pair.len(),
            ),
            (
                "district",
                raw.district.get(MAX_LISTED).map(|d| &d.span),
                raw.district.len(),
            ),
        ];
        let mut within = true;
        for (what, past, len) in lists {
            let Some(past) = past else {
                continue;
            };
            within = false;
            self.diags.push(
                Diagnostic::error(
                    "E0829",
                    format!("the file lists {len} `[[{what}]]`; an entries file holds at most {MAX_LISTED}"),
                    self.span(past),
                )
                .with_label(format!("`[[{what}]]` number {} of the list", MAX_LISTED + 1))
                .with_help(format!(
                    "split the entries into files of at most {MAX_LISTED} of each (the bound on a field)"
                )),
            );
        }
        within
    }

    /// Whether a team's or pair's list of members is within [`MAX_MEMBERS`]; an
    /// E0829 at the first member past it otherwise.
    fn few_enough(&mut self, list: &Sp<Vec<Sp<u32>>>, id: &str) -> bool {
        let Some(past) = list.value.get(MAX_MEMBERS) else {
            return true;
        };
        self.diags.push(
            Diagnostic::error(
                "E0829",
                format!(
                    "`{id}` names {} members; a team or pair names at most {MAX_MEMBERS}",
                    list.value.len()
                ),
                self.span(&past.span),
            )
            .with_label(format!("member number {} of the list", MAX_MEMBERS + 1))
            .with_help("list only the players of this team or pair"),
        );
        false
    }

    /// The enums playing the roles entries name values of, as the edition's
    /// `entries` block gives them.
    fn enums(&mut self) -> Option<Enums> {
        let roles = &self.program.entry_roles;
        let mut missing = Vec::new();
        let mut find = |key: &str| {
            let found = roles.enum_of(key);
            if found.is_none() {
                missing.push(key.to_string());
            }
            found
        };
        let district = find("district");
        let event = find("sm_event");
        let stage = find("sm_stage");
        let veteran = roles.variant_of("sm_veteran").map(|(_, v)| v);
        if veteran.is_none() {
            missing.push("sm_veteran".to_string());
        }
        for key in &missing {
            let what = crate::ir::entries::role(key).map_or("", |r| r.what);
            self.diags.push(
                Diagnostic::error(
                    "E0802",
                    format!("the edition does not say which enum holds {what}, which entries name values of"),
                    Span::new(self.file, 0, 0),
                )
                .with_label("checking this file needs it")
                .with_help(format!("the edition's `entries` block needs `{key} = …` (docs/entries.md)"))
                .nowhere(),
            );
        }
        Some(Enums {
            district: district?,
            event: event?,
            stage: stage?,
            veteran: veteran?,
        })
    }

    fn unknown(&mut self, what: &str, written: &str, at: &Range<usize>, help: String) {
        self.diags.push(
            Diagnostic::error("E0801", format!("`{written}` is not {what}"), self.span(at))
                .with_label(format!("not {what}"))
                .with_help(help),
        );
    }

    /// A variant of enum `e` by its name or the document's label, as
    /// [`crate::names::find_one`] finds it.
    fn variant(&mut self, e: u32, what: &str, s: &Sp<String>) -> Option<u32> {
        if let Some(v) = crate::federation::variant(self.program, e, &s.value) {
            return Some(v);
        }
        let info = self.program.enums.get(e as usize)?;
        let names: Vec<String> = info
            .variants
            .iter()
            .zip(&info.labels)
            .map(|(v, l)| l.clone().unwrap_or_else(|| v.clone()))
            .collect();
        let near = crate::names::nearest(
            s.value.trim(),
            info.variants.iter().chain(&names).map(String::as_str),
        );
        // A variant is suggested by its label, the name a director writes.
        let shown = |n: &str| {
            info.variants
                .iter()
                .position(|v| v == n)
                .map_or(n, |i| names[i].as_str())
                .to_string()
        };
        let help = match near.map(shown) {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!("write one of: {}", names.join(", ")),
        };
        self.unknown(what, &s.value, &s.span, help);
        None
    }

    /// A team's competition and the questions it is asked (`entry::names`).
    fn team_competition(&mut self, s: &Sp<String>) -> Option<(TeamKind, u32)> {
        let at = self.span(&s.span);
        match super::names::team_competition(self.program, &FORMS, &s.value, at) {
            Ok(found) => Some(found),
            Err(d) => {
                self.diags.push(d);
                None
            }
        }
    }

    /// One of a player's other events (`entry::names`).
    fn other_event(&mut self, s: &Sp<String>, enums: Enums) -> Option<OtherEvent> {
        let at = self.span(&s.span);
        match super::names::other_event(self.program, enums, &s.value, at) {
            Ok(found) => Some(found),
            Err(d) => {
                self.diags.push(d);
                None
            }
        }
    }

    fn stamp(&mut self, s: &Sp<String>) -> Option<(Stamp, Span)> {
        match parse_stamp(&s.value) {
            Some(st) => Some((st, self.span(&s.span))),
            None => {
                self.diags.push(
                    Diagnostic::error(
                        "E0800",
                        format!("`{}` is not a date and time", s.value),
                        self.span(&s.span),
                    )
                    .with_label("not a date and time")
                    .with_help("write `YYYY-MM-DD HH:MM` in the festival's local time, without a time zone, e.g. \"2015-07-25 12:00\""),
                );
                None
            }
        }
    }

    fn opt_stamp(&mut self, s: &Option<Sp<String>>) -> Option<(Stamp, Span)> {
        s.as_ref().and_then(|s| self.stamp(s))
    }

    fn entries(&mut self, raw: RawEntries, enums: Enums) -> Entries {
        let mut players = BTreeMap::new();
        let mut refused = std::collections::BTreeSet::new();
        for p in raw.player {
            let span = self.span(&p.span);
            let member = p.value.member.value;
            let Some(player) = self.player(p.value, span, enums) else {
                refused.insert(member);
                continue;
            };
            if let Some(first) = players.get(&player.member) {
                let first: &Player = first;
                self.diags.push(
                    Diagnostic::error(
                        "E0801",
                        format!("member {} is listed twice", player.member),
                        player.span,
                    )
                    .with_label("listed again here")
                    .with_note(first.span, "first listed here")
                    .with_help(
                        "list each player once; teams and pairs name players by member number",
                    ),
                );
                continue;
            }
            players.insert(player.member, player);
        }
        let mut out = Entries {
            file: self.file,
            enums,
            players,
            refused,
            teams: Vec::new(),
            pairs: Vec::new(),
            districts: Vec::new(),
        };
        let mut ids: BTreeMap<String, Span> = BTreeMap::new();
        for t in raw.team {
            let span = self.span(&t.span);
            if let Some(team) = self.team(t.value, span, &out) {
                self.unique_id(&mut ids, &team.id, span);
                out.teams.push(team);
            }
        }
        for p in raw.pair {
            let span = self.span(&p.span);
            if let Some(pair) = self.pair(p.value, span, &out) {
                self.unique_id(&mut ids, &pair.id, span);
                out.pairs.push(pair);
            }
        }
        for d in raw.district {
            let span = self.span(&d.span);
            let Some(district) = self.variant(enums.district, "a district", &d.value.name) else {
                continue;
            };
            // A district's charges are made once: listed again (under its
            // name or its label), it would be charged again.
            if let Some(first) = out.districts.iter().find(|e| e.district == district) {
                let written = d.value.name.value.trim();
                let shown = self
                    .program
                    .enums
                    .get(enums.district as usize)
                    .and_then(|e| {
                        let i = district as usize;
                        e.labels
                            .get(i)
                            .cloned()
                            .flatten()
                            .or_else(|| e.variants.get(i).cloned())
                    })
                    .unwrap_or_else(|| written.to_string());
                let message = if shown == written {
                    format!("the district `{shown}` is listed twice")
                } else {
                    format!("`{written}` is the district `{shown}`, listed already")
                };
                self.diags.push(
                    Diagnostic::error("E0801", message, self.span(&d.value.name.span))
                        .with_label("listed again here; this entry is left out")
                        .with_note(first.span, "first listed here")
                        .with_help("give each district one `[[district]]`, with all it missed"),
                );
                continue;
            }
            let mut missed: Vec<(u32, Span)> = Vec::new();
            for m in &d.value.missed_replacements {
                let Some(v) = self.variant(enums.event, "an SM pair discipline", m) else {
                    continue;
                };
                let at = self.span(&m.span);
                if let Some((_, first)) = missed.iter().find(|(seen, _)| *seen == v) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0801",
                            format!("`{}` is named twice in one district's missed replacements", m.value.trim()),
                            at,
                        )
                        .with_label("named again here; left out")
                        .with_note(*first, "first named here")
                        .with_help("a district reports one replacement pair per final: name each discipline once"),
                    );
                } else {
                    missed.push((v, at));
                }
            }
            out.districts.push(DistrictEntry {
                district,
                missed_replacements: missed,
                span,
            });
        }
        out
    }

    fn unique_id(&mut self, ids: &mut BTreeMap<String, Span>, id: &str, span: Span) {
        if let Some(first) = ids.get(id) {
            self.diags.push(
                Diagnostic::error("E0801", format!("the id `{id}` is used twice"), span)
                    .with_label("used again here")
                    .with_note(*first, "first used here")
                    .with_help("give every team and pair an id of its own"),
            );
        } else {
            ids.insert(id.to_string(), span);
        }
    }

    fn player(&mut self, p: RawPlayer, span: Span, enums: Enums) -> Option<Player> {
        let district = match &p.district {
            Some(d) => Some((
                self.variant(enums.district, "a district", d)?,
                self.span(&d.span),
            )),
            None => None,
        };
        let other_events = p
            .other_events
            .iter()
            .filter_map(|e| self.other_event(e, enums))
            .collect();
        let qualified_before = p
            .qualified_before
            .iter()
            .filter_map(|q| {
                let v = self.variant(enums.event, "an SM pair discipline", q)?;
                Some((v, self.span(&q.span)))
            })
            .collect();
        Some(Player {
            member: p.member.value,
            name: p.name.value,
            birth_year: p.birth_year.map(|b| (b.value, self.span(&b.span))),
            club: p.club.map(|c| c.value),
            district,
            membership_paid_at: self.opt_stamp(&p.membership_paid_at),
            other_federation: p.other_federation.is_some_and(|b| b.value),
            earlier_cc: p.earlier_cc.is_some_and(|b| b.value),
            other_events,
            qualified_before,
            span,
        })
    }

    /// The members an entry names that the file lists, and whether it lists
    /// them all (a member not listed is E0801; one whose `[[player]]` was
    /// refused is left out unsaid, its error is there).
    fn members(&mut self, list: &Sp<Vec<Sp<u32>>>, known: &Entries) -> (Vec<(u32, Span)>, bool) {
        let mut out = Vec::new();
        let mut complete = true;
        let mut named = std::collections::BTreeSet::new();
        for m in &list.value {
            let listed = known.players.contains_key(&m.value);
            if !listed {
                // Said at the member (E0801) or at its refused `[[player]]`: what
                // counts the entry's players waits until it is listed.
                complete = false;
            }
            if !listed && known.refused.contains(&m.value) {
                continue;
            } else if !listed {
                self.diags.push(
                    Diagnostic::error(
                        "E0801",
                        format!("member {} is not listed as a player", m.value),
                        self.span(&m.span),
                    )
                    .with_label("no `[[player]]` has this member number")
                    .with_help(
                        "add the player as `[[player]]` with `member`, `name` and `birth_year`",
                    ),
                );
            } else if !named.insert(m.value) {
                self.diags.push(
                    Diagnostic::error(
                        "E0801",
                        format!("member {} is named twice in one entry", m.value),
                        self.span(&m.span),
                    )
                    .with_label("named again here"),
                );
            } else {
                out.push((m.value, self.span(&m.span)));
            }
        }
        (out, complete)
    }

    fn team(&mut self, t: RawTeam, span: Span, known: &Entries) -> Option<Team> {
        if !self.few_enough(&t.players, &t.id.value) {
            return None;
        }
        let (kind, competition) = self.team_competition(&t.competition)?;
        let flag = |b: &Option<Sp<bool>>| b.as_ref().filter(|b| b.value).map(|b| b.span.clone());
        let (players, complete) = self.members(&t.players, known);
        Some(Team {
            id: t.id.value,
            complete,
            name: (t.name.value, self.span(&t.name.span)),
            kind,
            competition,
            players,
            players_span: self.span(&t.players.span),
            district_team: flag(&t.district_team).map(|r| self.span(&r)),
            late_start: flag(&t.late_start).map(|r| self.span(&r)),
            registered_at: self.opt_stamp(&t.registered_at),
            fee_paid_at: self.opt_stamp(&t.fee_paid_at),
            knockout: t.knockout.is_some_and(|b| b.value),
            knockout_fee_paid_at: self.opt_stamp(&t.knockout_fee_paid_at),
            span,
        })
    }

    fn pair(&mut self, p: RawPair, span: Span, known: &Entries) -> Option<Pair> {
        if !self.few_enough(&p.players, &p.id.value) {
            return None;
        }
        if p.players.value.len() != 2 {
            self.diags.push(
                Diagnostic::error(
                    "E0830",
                    format!(
                        "pair `{}` names {}; a pair is two players",
                        p.id.value,
                        crate::diag::counted(p.players.value.len(), "member")
                    ),
                    self.span(&p.players.span),
                )
                .with_label("the pair's players")
                .with_help(
                    "name the pair's two players by member number: `players = [1001, 1002]`",
                ),
            );
        }
        let enums = known.enums;
        let event = self.variant(enums.event, "an SM pair discipline", &p.event);
        let district = self.variant(enums.district, "a district", &p.district);
        let stage = match &p.stage {
            Some(s) => Some((
                self.variant(enums.stage, "an SM festival stage", s)?,
                self.span(&s.span),
            )),
            None => None,
        };
        let entered_by = match &p.entered_by {
            None => (EnteredBy::District, span),
            Some(e) => {
                let by = match e.value.trim().to_lowercase().as_str() {
                    "district" => EnteredBy::District,
                    "last_chance" => EnteredBy::LastChance,
                    "champion" => EnteredBy::Champion,
                    _ => {
                        self.unknown(
                            "a way into the SM",
                            &e.value,
                            &e.span,
                            "write `district`, `last_chance` or `champion`".into(),
                        );
                        return None;
                    }
                };
                (by, self.span(&e.span))
            }
        };
        let reserve_in_final = match &p.reserve_in_final {
            None => None,
            Some(r) => match r.value.trim() {
                "after_start" => Some((true, self.span(&r.span))),
                "before_start" => Some((false, self.span(&r.span))),
                _ => {
                    self.unknown(
                        "a reason for a reserve",
                        &r.value,
                        &r.span,
                        "write `after_start` (the reason arose after the final started) or `before_start`".into(),
                    );
                    return None;
                }
            },
        };
        let paid_cash = match &p.paid {
            None => None,
            Some(c) => match c.value.trim() {
                "cash" => Some((true, self.span(&c.span))),
                "advance" => Some((false, self.span(&c.span))),
                _ => {
                    self.unknown(
                        "a way of paying",
                        &c.value,
                        &c.span,
                        "write `cash` or `advance` (bought in advance at the info desk)".into(),
                    );
                    return None;
                }
            },
        };
        let (players, _) = self.members(&p.players, known);
        let replaces_deceased = p.replaces_deceased.map(|d| self.deceased(d));
        Some(Pair {
            id: p.id.value,
            event: (event?, self.span(&p.event.span)),
            players,
            players_span: self.span(&p.players.span),
            district: (district?, self.span(&p.district.span)),
            entered_by,
            stage,
            first_stage_at: self.opt_stamp(&p.first_stage_at),
            qualifier_sessions: p
                .qualifier_sessions
                .iter()
                .map(|s| (s.value, self.span(&s.span)))
                .collect(),
            stages_together: p
                .stages_together
                .map_or((1, None), |s| (s.value, Some(self.span(&s.span)))),
            regular_in_every_session: p
                .regular_in_every_session
                .map_or((true, None), |s| (s.value, Some(self.span(&s.span)))),
            reserve_in_final,
            replaces_deceased,
            first_allotment: p
                .first_allotment
                .filter(|b| b.value)
                .map(|b| self.span(&b.span)),
            paid_cash,
            table_fee_paid_at: self.opt_stamp(&p.table_fee_paid_at),
            span,
        })
    }

    fn deceased(&mut self, d: Sp<RawDeceased>) -> Deceased {
        Deceased {
            member: d.value.member.value,
            last_years_champion: d.value.last_years_champion.is_some_and(|b| b.value),
            district_qualifier_played: d.value.district_qualifier_played.is_some_and(|b| b.value),
            span: self.span(&d.span),
        }
    }
}

/// `2015-07-25 12:00` (or with a `T`) as a date and minutes since midnight.
pub fn parse_stamp(text: &str) -> Option<Stamp> {
    // Exactly `YYYY-MM-DD HH:MM` (seconds of `:00` allowed): the parser below
    // also reads an offset or a time zone, which it would drop, and years
    // before 1 or of six digits.
    let t = text.trim().as_bytes();
    let digits =
        |r: std::ops::Range<usize>| t.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shaped = matches!(t.len(), 16 | 19)
        && digits(0..4)
        && t.get(4) == Some(&b'-')
        && digits(5..7)
        && t.get(7) == Some(&b'-')
        && digits(8..10)
        && matches!(t.get(10), Some(b' ' | b'T'))
        && digits(11..13)
        && t.get(13) == Some(&b':')
        && digits(14..16)
        && (t.len() == 16 || (t.get(16) == Some(&b':') && digits(17..19)));
    if !shaped {
        return None;
    }
    let dt: jiff::civil::DateTime = text.trim().replace(' ', "T").parse().ok()?;
    if dt.second() != 0 || dt.subsec_nanosecond() != 0 || dt.year() < 1 {
        return None;
    }
    let minutes = u16::try_from(i32::from(dt.hour()) * 60 + i32::from(dt.minute())).ok()?;
    Some((Date::from_civil(dt.date()), minutes))
}

#[cfg(test)]
mod tests {
    use super::{FORMS, parse_stamp};

    #[test]
    fn every_team_role_gives_a_form() {
        assert_eq!(FORMS.map(|(k, _)| k), crate::ir::entries::TEAM_ROLES);
    }

    #[test]
    fn stamps_are_read_to_the_minute() {
        let (d, m) = parse_stamp("2015-07-25 12:01").unwrap();
        assert_eq!((d.year, d.month, d.day, m), (2015, 7, 25, 721));
        assert!(parse_stamp("2015-07-25").is_none());
        assert!(parse_stamp("2015-02-30 10:00").is_none());
        assert!(parse_stamp("Saturday noon").is_none());
        // An offset or a zone would be dropped, not honoured: refused.
        assert!(parse_stamp("2015-07-25 12:01+05:00").is_none());
        assert!(parse_stamp("2015-07-25T12:01[Europe/Stockholm]").is_none());
        assert!(parse_stamp("0000-01-01 00:00").is_none());
        assert!(parse_stamp("-000100-01-01 00:00").is_none());
        assert!(parse_stamp("2015-07-25 12:01:30").is_none());
        assert_eq!(
            parse_stamp(" 2015-07-25T12:01:00 "),
            parse_stamp("2015-07-25 12:01")
        );
        assert!(parse_stamp("9999-12-31 23:59").is_some());
    }
}
