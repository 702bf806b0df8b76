//! The validation rows: every entry checked against the edition's rules. Each
//! problem is an `E08xx` with the rule IDs of the rules that decided it, a span
//! into the entries file and a fix.

use super::model::{EnteredBy, OtherEvent, Pair, Team, TeamKind};
use super::rules::{Arg, Figure};
use super::{Ctx, count};
use crate::diag::Diagnostic;
use crate::eval::trace::TraceNode;
use crate::ir::Value;
use crate::source::Span;
use std::collections::{BTreeMap, BTreeSet};

/// Runs every check.
pub(crate) fn all(ctx: &mut Ctx) {
    let entries = ctx.entries;
    let playing = Playing::of(ctx);
    for team in &entries.teams {
        // A team with a member whose `[[player]]` was refused is not counted:
        // its size, its district and its late start would be judged on
        // players it does not have.
        if team.complete {
            team_size(ctx, team);
        }
        match team.kind {
            TeamKind::Cc => {
                cc_members(ctx, team);
                if team.complete {
                    cc_district(ctx, team);
                    cc_late_start(ctx, team, &playing);
                }
                registered(ctx, team, "cc_registration_in_time");
            }
            TeamKind::Lv => {
                if team.complete {
                    lv_team_valid(ctx, team);
                    lv_late_start(ctx, team, &playing);
                }
                lv_birth_years(ctx, team);
                registered(ctx, team, "lv_registration_in_time");
            }
        }
    }
    players_on_two_teams(ctx);
    let mut starts = Starts::default();
    let last_chance_entries = Starts::last_chance(entries.pairs.iter());
    for pair in &entries.pairs {
        let mark = ctx.diags.mark();
        sm_members(ctx, pair);
        sm_class(ctx, pair);
        one_start(ctx, pair, &starts);
        starts.add(pair, EnteredBy::District);
        last_chance(ctx, pair, &last_chance_entries);
        qualifier_sessions(ctx, pair);
        double_qualification(ctx, pair);
        reserves(ctx, pair);
        // The reserve standing in for a deceased player must meet the other
        // criteria: no problem found so far with this pair's players.
        // A rule or period the edition lacks (E0802) is no problem of the
        // players, and is said only once: it does not count.
        let clean = ctx
            .diags
            .added_since(mark)
            .iter()
            .all(|d| !d.is_error() || d.code == "E0802");
        deceased(ctx, pair, clean);
        table_fee(ctx, pair);
    }
    first_allotment(ctx);
}

/// W0802 for each player listed again on another team of the same
/// competition. No rule of the document says it, so it is a warning, and both
/// teams are checked as entered: a player plays for one team, but which one
/// was meant is the director's to say.
fn players_on_two_teams(ctx: &mut Ctx) {
    let mut first: BTreeMap<(u32, u32), (&str, Span)> = BTreeMap::new();
    for team in &ctx.entries.teams {
        for &(member, at) in &team.players {
            match first.get(&(team.competition, member)) {
                None => {
                    first.insert((team.competition, member), (&team.id, at));
                }
                // Two teams given one id (E0801): not two teams here.
                Some((id, _)) if *id == team.id => {}
                Some(&(id, was)) => {
                    let who = ctx.who(member);
                    let competition = ctx
                        .program
                        .competitions
                        .get(team.competition as usize)
                        .map_or("", |c| c.title.as_str());
                    ctx.diags.push(
                        Diagnostic::warning(
                            "W0802",
                            format!(
                                "{who} is on two {competition} teams, `{id}` and `{}`",
                                team.id
                            ),
                            at,
                        )
                        .with_label(format!("on team `{}`", team.id))
                        .with_note(was, format!("on team `{id}`"))
                        .with_help("a player plays for one team: take the player off the other, or correct the member number"),
                    );
                }
            }
        }
    }
}

/// A diagnostic about a rule's answer: the words, then the rule IDs; the label
/// shows the call and its value.
fn broke(code: &'static str, words: String, at: Span, f: &Figure, help: &str) -> Diagnostic {
    Diagnostic::error(code, format!("{words} [{}]", f.ids()), at)
        .with_label(format!("{} = {}", f.call, f.shown))
        .with_help(help.to_string())
}

fn team_size(ctx: &mut Ctx, team: &Team) {
    let n = count(team.players.len());
    let f = match team.kind {
        TeamKind::Cc => ctx.holds("cc_team_size_allowed", &[("players", n)], team.players_span),
        TeamKind::Lv => ctx.holds(
            "lv_team_valid",
            &[("players", n), ("all_members", Arg::Bool(true))],
            team.players_span,
        ),
    };
    if let Some((false, f)) = f {
        let d = broke(
            "E0810",
            format!(
                "team `{}` has {} players, a size the rules do not allow",
                team.id,
                team.players.len()
            ),
            team.players_span,
            &f,
            if team.players.is_empty() {
                "name the team's players by member number, each listed as a `[[player]]`: `players = [1001, 1002, 1003, 1004]`"
            } else {
                "list only the players who play; a team may not have more than the rule allows"
            },
        );
        ctx.diags.push(d);
    }
}

fn cc_members(ctx: &mut Ctx, team: &Team) {
    for (m, at) in &team.players {
        let Some(p) = ctx.entries.players.get(m) else {
            continue;
        };
        let args = [
            ("paid_membership", Arg::Bool(p.membership_paid_at.is_some())),
            (
                "member_of_other_national_federation",
                Arg::Bool(p.other_federation),
            ),
        ];
        if let Some((false, f)) = ctx.holds("cc_player_eligible", &args, *at) {
            let d = broke(
                "E0811",
                format!(
                    "{} may not play in team `{}`: no membership fee paid, and not a member of another national federation",
                    ctx.who(*m),
                    team.id
                ),
                *at,
                &f,
                "give the player's `membership_paid_at`, or `other_federation = true`",
            )
            .with_note(p.span, "the player");
            ctx.diags.push(d);
        }
    }
}

/// The team as the edition's `lv_team_valid` judges it: its size, then whether
/// every player has paid the season's membership fee (E0811, naming those who
/// have not said so).
fn lv_team_valid(ctx: &mut Ctx, team: &Team) {
    let unpaid: Vec<u32> = team
        .players
        .iter()
        .map(|(m, _)| *m)
        .filter(|m| {
            ctx.entries
                .players
                .get(m)
                .is_some_and(|p| p.membership_paid_at.is_none())
        })
        .collect();
    let args = [
        ("players", count(team.players.len())),
        ("all_members", Arg::Bool(unpaid.is_empty())),
    ];
    let size_ok = ctx
        .holds(
            "lv_team_valid",
            &[
                ("players", count(team.players.len())),
                ("all_members", Arg::Bool(true)),
            ],
            team.players_span,
        )
        .is_some_and(|(ok, _)| ok);
    if size_ok && let Some((false, f)) = ctx.holds("lv_team_valid", &args, team.players_span) {
        let who: Vec<String> = unpaid.iter().map(|m| ctx.who(*m)).collect();
        let d = broke(
            "E0811",
            format!(
                "not every player of team `{}` is a member with the season's fee paid: {} {} no `membership_paid_at`",
                team.id,
                crate::diag::and_list(&who),
                if who.len() == 1 { "has" } else { "have" }
            ),
            team.players_span,
            &f,
            "give each player's `membership_paid_at`",
        );
        ctx.diags.push(d);
    }
}

/// Each player of a veterans' team: a birth year, and born early enough.
fn lv_birth_years(ctx: &mut Ctx, team: &Team) {
    let competition = super::names::title(ctx.program, team.competition).to_string();
    for (m, at) in &team.players {
        let Some(p) = ctx.entries.players.get(m) else {
            continue;
        };
        let Some((year, year_at)) = p.birth_year else {
            needs_birth_year(ctx, *m, *at, &competition);
            continue;
        };
        if !ctx.born_in_time(year) {
            continue;
        }
        if let Some((false, f)) = ctx.holds(
            "lv_player_eligible",
            &[("birth_year", Arg::Count(i64::from(year)))],
            *at,
        ) {
            let d = broke(
                "E0812",
                format!(
                    "{}, born {year}, is too young for {competition} (team `{}`)",
                    ctx.who(*m),
                    team.id
                ),
                *at,
                &f,
                "only veterans may play; take the player off the team",
            )
            .with_note(year_at, "the birth year");
            ctx.diags.push(d);
        }
    }
}

fn needs_birth_year(ctx: &mut Ctx, member: u32, at: Span, what: &str) {
    let d = Diagnostic::error(
        "E0812",
        format!(
            "{} has no birth year, which {what} needs for the class",
            ctx.who(member)
        ),
        at,
    )
    .with_label("no `birth_year`")
    .with_help("give the player's `birth_year`");
    ctx.diags.push(d);
}

fn cc_district(ctx: &mut Ctx, team: &Team) {
    let Some(at) = team.district_team else {
        return;
    };
    if let Some((false, f)) = ctx.district_team(team) {
        // The example name: the district of the team's first player, else the
        // edition's first district.
        let district = team
            .players
            .first()
            .and_then(|(m, _)| ctx.entries.players.get(m))
            .and_then(|p| p.district)
            .map_or(0, |(d, _)| d);
        let help = format!(
            "a district team has few enough players from an earlier {}, all players of one district, and the district's name (e.g. \"{} 1\"); otherwise remove `district_team`",
            super::names::title(ctx.program, team.competition),
            ctx.label(ctx.entries.enums.district, district)
        );
        let d = broke(
            "E0813",
            format!(
                "team `{}` is entered as a district team but does not meet the criteria",
                team.id
            ),
            at,
            &f,
            &help,
        )
        .with_note(team.name.1, "the team's name");
        ctx.diags.push(d);
    }
}

/// Where else a team's players may play, as the late-start questions count them.
#[derive(Clone, Copy)]
enum Elsewhere {
    /// The veterans' SM discipline (role `sm_veteran`): in `other_events`, or in a
    /// pair of that discipline in this file.
    Veterans,
    /// The knockout of a `cc_team` competition: in `other_events`, or in a team of
    /// this file that plays on (`knockout = true`).
    Knockout,
}

/// Who plays where else in this file, as the late-start questions count it:
/// found once, not once a team's player.
struct Playing {
    /// Members of a pair of the veterans' discipline.
    veteran_pairs: BTreeSet<u32>,
    /// Members of a `cc_team` team that plays on (`knockout = true`).
    knockout_teams: BTreeSet<u32>,
}

impl Playing {
    fn of(ctx: &Ctx) -> Self {
        let entries = ctx.entries;
        let veteran = entries.enums.veteran;
        let members = |players: &[(u32, Span)]| players.iter().map(|(m, _)| *m).collect::<Vec<_>>();
        Playing {
            veteran_pairs: entries
                .pairs
                .iter()
                .filter(|p| p.event.0 == veteran)
                .flat_map(|p| members(&p.players))
                .collect(),
            knockout_teams: entries
                .teams
                .iter()
                .filter(|t| t.kind == TeamKind::Cc && t.knockout)
                .flat_map(|t| members(&t.players))
                .collect(),
        }
    }
}

/// Players of a team who are not in `elsewhere`.
fn players_not_in(ctx: &Ctx, team: &Team, elsewhere: Elsewhere, playing: &Playing) -> usize {
    let entries = ctx.entries;
    let veteran = entries.enums.veteran;
    team.players
        .iter()
        .filter(|(m, _)| {
            let listed = entries.players.get(m).is_some_and(|p| {
                p.other_events.iter().any(|e| match (elsewhere, e) {
                    (Elsewhere::Veterans, OtherEvent::Discipline(v)) => *v == veteran,
                    (Elsewhere::Knockout, OtherEvent::Knockout(_)) => true,
                    _ => false,
                })
            });
            let in_file = match elsewhere {
                Elsewhere::Veterans => playing.veteran_pairs.contains(m),
                Elsewhere::Knockout => playing.knockout_teams.contains(m),
            };
            !(listed || in_file)
        })
        .count()
}

/// The veterans' SM discipline as the edition labels it.
fn veterans(ctx: &Ctx) -> String {
    ctx.label(ctx.entries.enums.event, ctx.entries.enums.veteran)
}

fn cc_late_start(ctx: &mut Ctx, team: &Team, playing: &Playing) {
    let Some(at) = team.late_start else {
        return;
    };
    let n = players_not_in(ctx, team, Elsewhere::Veterans, playing);
    let args = [
        ("players_not_in_sm_par_veteran", count(n)),
        ("pre_registered", Arg::Bool(true)),
    ];
    if let Some((false, f)) = ctx.holds("cc_may_start_in_round_3", &args, at) {
        let d = broke(
            "E0814",
            format!(
                "team `{}` may not start late: {n} of its players are not in {}",
                team.id,
                veterans(ctx)
            ),
            at,
            &f,
            "remove `late_start`: the team starts in round 1",
        );
        ctx.diags.push(d);
    }
}

fn lv_late_start(ctx: &mut Ctx, team: &Team, playing: &Playing) {
    let Some(at) = team.late_start else {
        return;
    };
    let n = players_not_in(ctx, team, Elsewhere::Knockout, playing);
    let args = [
        ("players_not_in_cc_bc_playoff", count(n)),
        ("pre_registered", Arg::Bool(true)),
    ];
    if let Some((false, f)) = ctx.holds("lv_may_start_late", &args, at) {
        let knockouts: Vec<&str> = ctx
            .program
            .entry_roles
            .competitions_of("cc_team")
            .iter()
            .map(|&c| super::names::title(ctx.program, c))
            .collect();
        let d = broke(
            "E0814",
            format!(
                "team `{}` may not start late: {n} of its players are not in the knockout of {}",
                team.id,
                knockouts.join(" or ")
            ),
            at,
            &f,
            "remove `late_start`: the team starts in round 1",
        );
        ctx.diags.push(d);
    }
}

fn registered(ctx: &mut Ctx, team: &Team, rule: &str) {
    let Some(((d, m), at)) = team.registered_at else {
        return;
    };
    if let Some((false, f)) = ctx.holds(rule, &[("registered_at", Arg::Stamp(d, m))], at) {
        let d = broke(
            "E0821",
            format!(
                "team `{}` registered after the deadline{}",
                team.id,
                deadline_words(ctx, &f)
            ),
            at,
            &f,
            "a late registration is the organiser's decision; check the date and time",
        );
        ctx.diags.push(d);
    }
}

/// The deadline a rule compared with, from its trace: ` (Mon 2015-07-27 20:00)`
/// for the first rule it called that gives a date and time or a date (a const,
/// or a table's row), so that a director sees what "too late" means; empty
/// when the rule read none.
fn deadline_words(ctx: &Ctx, f: &Figure) -> String {
    fn first_datetime<'t>(ctx: &Ctx, nodes: &'t [TraceNode]) -> Option<&'t str> {
        nodes.iter().find_map(|n| {
            let gives_datetime = ctx.program.rule(&n.rule).is_some_and(|(_, r)| {
                matches!(r.ret, crate::ir::Type::DateTime | crate::ir::Type::Date)
            });
            match (&n.output, gives_datetime) {
                (Some(out), true) => Some(out.as_str()),
                _ => first_datetime(ctx, &n.children),
            }
        })
    }
    first_datetime(ctx, &f.trace).map_or_else(String::new, |at| format!(" ({at})"))
}

fn sm_members(ctx: &mut Ctx, pair: &Pair) {
    let Some(((sd, sm), _)) = pair.first_stage_at else {
        return;
    };
    let mut in_time = Vec::new();
    for (m, at) in &pair.players {
        let Some(p) = ctx.entries.players.get(m) else {
            continue;
        };
        let ok = match p.membership_paid_at {
            None => {
                ctx.diags.push(
                    Diagnostic::error(
                        "E0811",
                        format!("{} has not paid the season's membership fee [{}]", ctx.who(*m), super::rules::rule_id(ctx.program, "sm_member_fee_in_time")),
                        *at,
                    )
                    .with_label("no `membership_paid_at`")
                    .with_note(p.span, "the player")
                    .with_help("give the player's `membership_paid_at`; without it the pair is disqualified"),
                );
                false
            }
            Some(((pd, pm), paid_at)) => {
                let args = [
                    ("paid_at", Arg::Stamp(pd, pm)),
                    ("starts", Arg::Stamp(sd, sm)),
                ];
                match ctx.holds("sm_member_fee_in_time", &args, paid_at) {
                    Some((false, f)) => {
                        let d = broke(
                            "E0811",
                            format!(
                                "{} paid the membership fee after pair `{}` started: the pair is disqualified",
                                ctx.who(*m),
                                pair.id
                            ),
                            paid_at,
                            &f,
                            "the fee must be paid no later than the start; check the date",
                        );
                        ctx.diags.push(d);
                        false
                    }
                    _ => true,
                }
            }
        };
        in_time.push(ok);
    }
    // The rule that turns the players' fees into the pair's fate is called too, so
    // the edition decides what one late fee means.
    if let [a, b] = in_time[..] {
        let _ = ctx.call(
            "sm_pair_disqualified_for_membership",
            &[
                ("first_paid_in_time", Arg::Bool(a)),
                ("second_paid_in_time", Arg::Bool(b)),
            ],
            pair.span,
        );
    }
}

fn sm_class(ctx: &mut Ctx, pair: &Pair) {
    if pair.event.0 != ctx.entries.enums.veteran {
        return;
    }
    for (m, at) in &pair.players {
        let Some(p) = ctx.entries.players.get(m) else {
            continue;
        };
        let Some((year, year_at)) = p.birth_year else {
            needs_birth_year(ctx, *m, *at, &veterans(ctx));
            continue;
        };
        if !ctx.born_in_time(year) {
            continue;
        }
        let Some(season) = ctx.season(year_at) else {
            return;
        };
        let args = [
            ("birth_year", Arg::Count(i64::from(year))),
            ("season_year", Arg::Count(season)),
        ];
        if let Some((false, f)) = ctx.holds("is_veteran", &args, *at) {
            let d = broke(
                "E0812",
                format!(
                    "{}, born {year}, is not a veteran in {season} (pair `{}`)",
                    ctx.who(*m),
                    pair.id
                ),
                *at,
                &f,
                &format!(
                    "{} is for veterans only; enter the pair in another discipline",
                    veterans(ctx)
                ),
            )
            .with_note(year_at, "the birth year");
            ctx.diags.push(d);
        }
    }
}

/// The first pair (its index) of each discipline and member among the pairs
/// entered one way: each pair is compared with these, not with every pair
/// before it, so a file of many pairs sharing a player is checked in linear
/// time and gives one diagnostic a pair and player, not one a pair of pairs.
#[derive(Default)]
struct Starts {
    first: BTreeMap<(u32, u32), usize>,
    pairs: usize,
}

impl Starts {
    /// Counts `pair`, and keeps its players' first start when it was entered
    /// `by` that way.
    fn add(&mut self, pair: &Pair, by: EnteredBy) {
        if pair.entered_by.0 == by {
            for (m, _) in &pair.players {
                self.first.entry((pair.event.0, *m)).or_insert(self.pairs);
            }
        }
        self.pairs += 1;
    }

    /// The last-chance entries of `pairs`.
    fn last_chance<'a>(pairs: impl Iterator<Item = &'a Pair>) -> Self {
        let mut starts = Starts::default();
        for p in pairs {
            starts.add(p, EnteredBy::LastChance);
        }
        starts
    }

    /// The earlier starts of `pair`'s players in its discipline: each pair
    /// once, with the first of `pair`'s players it shares, in `pair`'s order.
    fn of(&self, pair: &Pair) -> Vec<(usize, u32, Span)> {
        let mut out: Vec<(usize, u32, Span)> = Vec::new();
        for (m, at) in &pair.players {
            if let Some(&first) = self.first.get(&(pair.event.0, *m))
                && !out.iter().any(|(i, _, _)| *i == first)
            {
                out.push((first, *m, *at));
            }
        }
        out
    }
}

fn one_start(ctx: &mut Ctx, pair: &Pair, earlier: &Starts) {
    if pair.entered_by.0 == EnteredBy::LastChance {
        let args = [("event", Arg::Variant(pair.event.0))];
        if let Some((false, f)) = ctx.holds("sm_has_last_chance", &args, pair.entered_by.1) {
            let d = broke(
                "E0815",
                format!(
                    "{} has no last-chance qualifier (pair `{}`)",
                    ctx.label(ctx.entries.enums.event, pair.event.0),
                    pair.id
                ),
                pair.entered_by.1,
                &f,
                "enter the pair through its district (`entered_by = \"district\"`)",
            );
            ctx.diags.push(d);
        }
        return;
    }
    if pair.entered_by.0 != EnteredBy::District {
        return;
    }
    for (first, m, at) in earlier.of(pair) {
        let Some(other) = ctx.entries.pairs.get(first) else {
            continue;
        };
        if let Some((false, f)) = ctx.holds(
            "sm_may_start_in_qualifier",
            &[("earlier_starts", Arg::Count(1))],
            at,
        ) {
            let d = broke(
                "E0815",
                format!(
                    "{} starts a second time in the {} qualifier (pairs `{}` and `{}`)",
                    ctx.who(m),
                    ctx.label(ctx.entries.enums.event, pair.event.0),
                    other.id,
                    pair.id
                ),
                at,
                &f,
                "a player starts once in each discipline's qualifier; keep one of the two pairs",
            )
            .with_note(other.span, "the first start");
            ctx.diags.push(d);
        }
    }
}

fn last_chance(ctx: &mut Ctx, pair: &Pair, last_chance_entries: &Starts) {
    if pair.entered_by.0 != EnteredBy::District {
        return;
    }
    for (first, m, _) in last_chance_entries.of(pair) {
        let Some(other) = ctx.entries.pairs.get(first) else {
            continue;
        };
        let args = [("entered_last_chance", Arg::Bool(true))];
        if let Some((false, f)) = ctx.holds("sm_keeps_district_place", &args, pair.span) {
            let d = broke(
                "E0816",
                format!(
                    "pair `{}` loses its district place: {} also entered the last-chance qualifier (pair `{}`)",
                    pair.id,
                    ctx.who(m),
                    other.id
                ),
                pair.entered_by.1,
                &f,
                "keep either the district place or the last-chance entry, not both",
            )
            .with_note(other.entered_by.1, "the last-chance entry");
            ctx.diags.push(d);
        }
    }
}

fn qualifier_sessions(ctx: &mut Ctx, pair: &Pair) {
    let Some((first, at)) = pair
        .qualifier_sessions
        .iter()
        .min_by_key(|(s, _)| *s)
        .copied()
    else {
        return;
    };
    let args = [("session", Arg::Count(i64::from(first)))];
    if let Some((false, f)) = ctx.holds("sm_may_join_qualifier", &args, at) {
        let d = broke(
            "E0817",
            format!(
                "pair `{}` joined its district qualifier in session {first}; no new pair may enter a later session",
                pair.id
            ),
            at,
            &f,
            "a pair plays the qualifier from its first session; a bye is scored, not filled",
        );
        ctx.diags.push(d);
    }
}

fn double_qualification(ctx: &mut Ctx, pair: &Pair) {
    let caught: Vec<(u32, Span)> = pair
        .players
        .iter()
        .filter_map(|(m, _)| {
            let p = ctx.entries.players.get(m)?;
            let (_, at) = p
                .qualified_before
                .iter()
                .find(|(e, _)| *e == pair.event.0)?;
            Some((*m, *at))
        })
        .collect();
    let Some(&(m, at)) = caught.first() else {
        return;
    };
    let Some(f) = ctx.call(
        "sm_double_qualification",
        &[("players_qualified_before", count(caught.len()))],
        at,
    ) else {
        return;
    };
    let Value::Record(r, fields) = &f.value else {
        return;
    };
    let names = ctx
        .program
        .records
        .get(*r as usize)
        .map(|r| r.fields.clone())
        .unwrap_or_default();
    let field = |want: &str| {
        names
            .iter()
            .zip(fields)
            .find(|((n, _), _)| n == want)
            .map(|(_, v)| v == &Value::Bool(true))
    };
    if field("disqualified") != Some(true) {
        return;
    }
    let consequences: Vec<String> = names
        .iter()
        .zip(fields)
        .map(|((n, _), v)| format!("{}: {}", n.replace('_', " "), v.show(ctx.program)))
        .collect();
    let d = Diagnostic::error(
        "E0818",
        format!(
            "pair `{}` is disqualified: {} already played a qualifier of {} this season [{}]",
            pair.id,
            ctx.who(m),
            ctx.label(ctx.entries.enums.event, pair.event.0),
            f.ids()
        ),
        pair.span,
    )
    .with_label(format!("{} = {}", f.call, consequences.join(", ")))
    .with_note(at, "the earlier qualifier")
    .with_help("the pair plays out of competition; replace the player who qualified before");
    ctx.diags.push(d);
}

fn reserves(ctx: &mut Ctx, pair: &Pair) {
    let (stages, stages_at) = pair.stages_together;
    let (regular, regular_at) = pair.regular_in_every_session;
    let at = stages_at.or(regular_at).unwrap_or(pair.span);
    let args = [
        (
            "stages_together_without_reserve",
            Arg::Count(i64::from(stages)),
        ),
        ("a_regular_player_in_every_session", Arg::Bool(regular)),
    ];
    if let Some((false, f)) = ctx.holds("sm_pair_qualified", &args, at) {
        let d = broke(
            "E0819",
            format!(
                "pair `{}` is not qualified as a pair: reserves played too much",
                pair.id
            ),
            at,
            &f,
            "the two must have played one stage together without a reserve, and one of them every session",
        );
        ctx.diags.push(d);
    }
    let Some((after_start, at)) = pair.reserve_in_final else {
        return;
    };
    let args = [("reason_arose_after_start", Arg::Bool(after_start))];
    match ctx.holds("sm_reserve_allowed_in_final", &args, at) {
        Some((false, f)) => {
            let d = broke(
                "E0819",
                format!(
                    "pair `{}` may not use a reserve in the final for a reason that arose before it started",
                    pair.id
                ),
                at,
                &f,
                "a reserve may step in only for a reason arising after the start",
            );
            ctx.diags.push(d);
        }
        Some((true, _)) => {
            let args = [("reserve_used", Arg::Bool(true))];
            if let Some((false, f)) = ctx.holds("sm_in_competition_with_reserve", &args, at) {
                ctx.diags.push(
                    Diagnostic::warning(
                        "W0801",
                        format!(
                            "pair `{}` plays out of competition with its reserve [{}]",
                            pair.id,
                            f.ids()
                        ),
                        at,
                    )
                    .with_label(format!("{} = {}", f.call, f.shown)),
                );
            }
        }
        None => {}
    }
}

fn table_fee(ctx: &mut Ctx, pair: &Pair) {
    let (Some((stage, _)), Some(((d, m), at))) = (pair.stage, pair.table_fee_paid_at) else {
        return;
    };
    let args = [
        ("event_stage", Arg::Variant(stage)),
        ("paid_at", Arg::Stamp(d, m)),
    ];
    if let Some((false, f)) = ctx.holds("sm_table_fee_in_time", &args, at) {
        let d = broke(
            "E0821",
            format!(
                "pair `{}` paid the table fee after the deadline{} and loses its place",
                pair.id,
                deadline_words(ctx, &f)
            ),
            at,
            &f,
            "check the payment date; a fee paid after the deadline loses the place",
        );
        ctx.diags.push(d);
    }
}

fn deceased(ctx: &mut Ctx, pair: &Pair, reserve_meets_criteria: bool) {
    let Some(dead) = &pair.replaces_deceased else {
        return;
    };
    let args = [
        ("last_years_champion", Arg::Bool(dead.last_years_champion)),
        (
            "district_qualifier_played",
            Arg::Bool(dead.district_qualifier_played),
        ),
        ("reserve_meets_criteria", Arg::Bool(reserve_meets_criteria)),
    ];
    if let Some((false, f)) = ctx.holds("sm_deceased_replaceable", &args, dead.span) {
        let d = broke(
            "E0820",
            format!(
                "member {} may not be replaced in pair `{}`",
                dead.member, pair.id
            ),
            dead.span,
            &f,
            "a last year's champion is replaced only once the district qualifier was played; else the remaining player must qualify",
        );
        ctx.diags.push(d);
    }
}

fn first_allotment(ctx: &mut Ctx) {
    let marked: Vec<Span> = ctx
        .entries
        .pairs
        .iter()
        .filter_map(|p| p.first_allotment)
        .collect();
    let Some(&last) = marked.last() else {
        return;
    };
    let Some(f) = ctx.call("sm_open_first_allotment", &[], last) else {
        return;
    };
    let Some(places) = f.amount() else {
        return;
    };
    if rust_decimal::Decimal::from(marked.len()) > places {
        let d = Diagnostic::error(
            "E0822",
            format!(
                "{} pairs are marked `first_allotment`, but the first allotment has {} [{}]",
                marked.len(),
                f.shown,
                f.ids()
            ),
            last,
        )
        .with_label("one too many")
        .with_help("only the first allotment's pairs get the travel subsidy; unmark the pairs of the second");
        ctx.diags.push(d);
    }
}
