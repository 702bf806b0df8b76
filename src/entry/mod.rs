//! Entries files: the teams and pairs of a festival with their players, checked
//! against the edition's rules (`bfr entries check`) and invoiced by them
//! (`bfr invoice`).
//!
//! An entries file (TOML, or the same structure in JSON; see `docs/entries.md`)
//! lists players (member number, birth year, club, district, membership, earlier
//! CC, other events), Chairman's Cup and SM Lag Veteran teams, and SM pairs. Every
//! figure and criterion — team sizes, classes, deadlines, fees — is a rule of the
//! edition, called through the evaluator ([`rules::call`]) so that each problem and
//! each invoice line names the rule IDs behind it. Problems are [`Diagnostic`]s
//! with codes `E08xx` and spans into the file.

mod file;
pub mod model;
pub mod money;
pub(crate) mod names;
pub mod rules;
mod validate;

pub use model::Entries;
pub use money::{Invoice, Line, LineKind, Money, Statement, Totals};

use crate::check::Checked;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::source::{Sources, Span};
use rules::{Arg, Figure};

/// An entries file read and checked.
#[derive(Debug, Clone)]
pub struct CheckedEntries {
    /// The entries, if the file could be read.
    pub entries: Option<Entries>,
    /// Every problem found.
    pub diagnostics: Diagnostics,
}

/// Reads entries file `name` with contents `text` (added to `sources`) and checks
/// every entry against the edition.
pub fn check(checked: &Checked, sources: &mut Sources, name: &str, text: &str) -> CheckedEntries {
    let file = sources.add(name, text);
    let program = &checked.program;
    let (entries, mut diagnostics) = model::read(text, file, crate::event::is_json(name), program);
    if let Some(entries) = &entries {
        let mut ctx = Ctx::new(program, entries);
        ctx.birth_years();
        validate::all(&mut ctx);
        diagnostics.extend(ctx.diags);
    }
    CheckedEntries {
        entries,
        diagnostics,
    }
}

/// [`check`] of the entries file's bytes: text that is not UTF-8 is refused
/// with the byte at fault (E0800), as an event file's (E0723).
pub fn check_bytes(
    checked: &Checked,
    sources: &mut Sources,
    name: &str,
    bytes: &[u8],
) -> CheckedEntries {
    match std::str::from_utf8(bytes) {
        Ok(text) => check(checked, sources, name, text),
        Err(_) => refused_as_text(sources, name, bytes),
    }
}

/// [`invoice`] of the entries file's bytes (see [`check_bytes`]).
pub fn invoice_bytes(
    checked: &Checked,
    sources: &mut Sources,
    name: &str,
    bytes: &[u8],
) -> (Option<Money>, Diagnostics) {
    match std::str::from_utf8(bytes) {
        Ok(text) => invoice(checked, sources, name, text),
        Err(_) => (None, refused_as_text(sources, name, bytes).diagnostics),
    }
}

fn refused_as_text(sources: &mut Sources, name: &str, bytes: &[u8]) -> CheckedEntries {
    let mut diagnostics = Diagnostics::default();
    diagnostics.push(crate::diag::not_utf8(
        "E0800",
        name,
        bytes,
        sources,
        "entries file",
    ));
    CheckedEntries {
        entries: None,
        diagnostics,
    }
}

/// Reads and checks entries file `name`, then makes the invoices. The money is
/// made even when some entries break a rule (an invoice is wanted all the same);
/// the diagnostics say which.
pub fn invoice(
    checked: &Checked,
    sources: &mut Sources,
    name: &str,
    text: &str,
) -> (Option<Money>, Diagnostics) {
    let mut read = check(checked, sources, name, text);
    let Some(entries) = &read.entries else {
        return (None, read.diagnostics);
    };
    let mut ctx = Ctx::new(&checked.program, entries);
    // What the check already said is missing is not said again.
    ctx.missing = read
        .diagnostics
        .sorted()
        .into_iter()
        .filter(|d| d.code == "E0802")
        .map(|d| d.message.clone())
        .collect();
    let money = money::make(&mut ctx);
    // What invoicing found that the check did not already report: a rule
    // missing (E0802), a total past the largest amount (E0831).
    for d in ctx.diags.sorted() {
        read.diagnostics.push(d.clone());
    }
    (Some(money), read.diagnostics)
}

/// Whether a player born in `year` can play in the season of `season`.
fn born_by(year: i32, season: i64) -> bool {
    written_in_full(year) && i64::from(year) <= season
}

/// Whether a year has its four digits: `62` is the year 62 to a program, and
/// to a director a slip for 1962.
fn written_in_full(year: i32) -> bool {
    (1000..=9999).contains(&year)
}

/// The year before or in `season` that ends in the digits of `short` (`62` →
/// 1962 in 2015, `5` → 2005): what a short birth year most likely means.
fn in_full(short: i32, season: i64) -> i64 {
    let short = i64::from(short.rem_euclid(100));
    season - (season - short).rem_euclid(100)
}

/// What the checks and the invoices share: the edition, the entries, the season's
/// calendar year, and the problems found so far.
pub(crate) struct Ctx<'a> {
    pub program: &'a Program,
    pub entries: &'a Entries,
    pub diags: Diagnostics,
    season: Option<i64>,
    /// The messages of the E0802s given so far: a missing rule or period is
    /// said once, however many entries need it.
    missing: std::collections::BTreeSet<String>,
}

impl<'a> Ctx<'a> {
    fn new(program: &'a Program, entries: &'a Entries) -> Self {
        let season = program
            .edition
            .as_ref()
            .and_then(|e| e.period)
            .map(|(first, _)| i64::from(first.year));
        Ctx {
            program,
            entries,
            diags: Diagnostics::default(),
            season,
            missing: std::collections::BTreeSet::new(),
        }
    }

    /// Calls a rule; a failure (the edition lacks it) is an `E0802` at `at`.
    pub fn call(&mut self, name: &str, args: &[(&str, Arg)], at: Span) -> Option<Figure> {
        match rules::call(self.program, name, args) {
            Ok(f) => Some(f),
            Err(message) => {
                if self.missing.insert(message.clone()) {
                    self.diags.push(
                        Diagnostic::error("E0802", message, at)
                            .with_label("checking this entry needs the rule")
                            .with_help("add the rule to the edition (see docs/entries.md for the rules entries call)"),
                    );
                }
                None
            }
        }
    }

    /// A truth-valued rule's answer.
    pub fn holds(&mut self, name: &str, args: &[(&str, Arg)], at: Span) -> Option<(bool, Figure)> {
        let f = self.call(name, args, at)?;
        Some((f.truth()?, f))
    }

    /// The calendar year classes are counted in: the year the edition's period starts.
    pub fn season(&mut self, at: Span) -> Option<i64> {
        const NO_PERIOD: &str =
            "the edition has no `period`, so the season's year for classes is unknown";
        if self.season.is_none() && self.missing.insert(NO_PERIOD.to_string()) {
            self.diags.push(
                Diagnostic::error("E0802", NO_PERIOD, at)
                    .with_label("classes from birth years need it")
                    .with_help(
                        "give the edition a header `period Fri 2015-07-24 .. Sun 2015-08-02`",
                    ),
            );
        }
        self.season
    }

    /// An error for each player whose birth year is not a year of four digits
    /// (`62` for 1962) or is after the season's year: no player of the season
    /// was born then, and the player has no class.
    pub fn birth_years(&mut self) {
        // Without the season (no `period`, said where a class is asked for),
        // a year is still checked for its four digits.
        let season = self.season;
        for (member, p) in &self.entries.players {
            let Some((year, at)) = p.birth_year else {
                continue;
            };
            if self.born_in_time(year) {
                continue;
            }
            let who = self.who(*member);
            const BORN: &str =
                "write the year the player was born, like 1950; until then the player has no class";
            let (message, help) = match season {
                _ if (1..100).contains(&year) => (
                    format!("the birth year of {who}, {year}, is not written in full"),
                    match season {
                        Some(season) => format!(
                            "write all four digits (`{}`?); until then the player has no class",
                            in_full(year, season)
                        ),
                        None => "write all four digits; until then the player has no class".into(),
                    },
                ),
                Some(season) if written_in_full(year) => (
                    format!(
                        "the birth year of {who}, {year}, is after the season's year, {season}"
                    ),
                    BORN.to_string(),
                ),
                _ => (
                    format!("the birth year of {who}, {year}, is not a year"),
                    BORN.to_string(),
                ),
            };
            self.diags.push(
                Diagnostic::error("E0801", message, at)
                    .with_label("no player of this season was born then")
                    .with_help(help),
            );
        }
    }

    /// Whether a player born in `year` can play this season (as far as the
    /// season is known): one who cannot has no class, and
    /// [`birth_years`](Self::birth_years) says so.
    pub fn born_in_time(&self, year: i32) -> bool {
        self.season
            .map_or(written_in_full(year), |season| born_by(year, season))
    }

    /// Whether a player is a junior (SM-CLASS); `None` without a birth year.
    pub fn junior(&mut self, member: u32) -> Option<(bool, Figure)> {
        let p = self.entries.players.get(&member)?;
        let (year, at) = p.birth_year?;
        let season = self.season(at)?;
        // A year no player of the season can be born in gives no class (and
        // no junior's discount); `birth_years` has said so.
        if !self.born_in_time(year) {
            return None;
        }
        self.holds(
            "is_junior",
            &[
                ("birth_year", Arg::Count(i64::from(year))),
                ("season_year", Arg::Count(season)),
            ],
            at,
        )
    }

    /// Whether a team claiming district status meets the criteria (CC-DISTRICT).
    pub fn district_team(&mut self, team: &model::Team) -> Option<(bool, Figure)> {
        let at = team.district_team?;
        let players: Vec<&model::Player> = team
            .players
            .iter()
            .filter_map(|(m, _)| self.entries.players.get(m))
            .collect();
        let earlier = players.iter().filter(|p| p.earlier_cc).count();
        let first = players.first().and_then(|p| p.district.map(|d| d.0));
        let same = first.is_some() && players.iter().all(|p| p.district.map(|d| d.0) == first);
        let bears = first.is_some_and(|d| self.name_bears_district(&team.name.0, d));
        self.holds(
            "cc_is_district_team",
            &[
                (
                    "players_in_earlier_cc",
                    Arg::Count(i64::try_from(earlier).unwrap_or(i64::MAX)),
                ),
                ("all_players_same_district", Arg::Bool(same)),
                ("bears_district_name", Arg::Bool(bears)),
            ],
            at,
        )
    }

    /// Whether a team's name starts with the district's name ("Medelpad 1"), as
    /// [`crate::names`] compares names (`Skane 1`, `SKÅNE 1`).
    fn name_bears_district(&self, name: &str, district: u32) -> bool {
        let Some(info) = self.program.enums.get(self.entries.enums.district as usize) else {
            return false;
        };
        let mut names = vec![info.variants.get(district as usize).cloned()];
        names.push(info.labels.get(district as usize).cloned().flatten());
        let name = crate::names::folded(name.trim());
        names
            .into_iter()
            .flatten()
            .any(|d| name.starts_with(crate::names::folded(&d).as_ref()))
    }

    /// A variant's label (the document's spelling), or its name.
    pub fn label(&self, e: u32, v: u32) -> String {
        self.program
            .enums
            .get(e as usize)
            .and_then(|info| {
                info.labels
                    .get(v as usize)
                    .cloned()
                    .flatten()
                    .or_else(|| info.variants.get(v as usize).cloned())
            })
            .unwrap_or_else(|| "?".into())
    }

    /// A player's name and member number, for messages.
    pub fn who(&self, member: u32) -> String {
        self.entries.players.get(&member).map_or_else(
            || format!("member {member}"),
            |p| format!("{} ({member})", p.name),
        )
    }
}

/// A count as an argument.
pub(crate) fn count(n: usize) -> Arg {
    Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_birth_year_is_read_as_the_latest_year_it_can_end() {
        assert_eq!(in_full(62, 2015), 1962);
        assert_eq!(in_full(15, 2015), 2015);
        assert_eq!(in_full(16, 2015), 1916);
        assert_eq!(in_full(5, 2015), 2005);
        assert!(!born_by(999, 2015) && born_by(1000, 2015));
        assert!(born_by(2015, 2015) && !born_by(2016, 2015));
    }
}
