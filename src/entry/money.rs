//! Money: an invoice per entry (CC-FEE, LV-FEE, SM-STARTFEE, SM-TABLEFEE) and a
//! statement per district (SM-TRAVEL, SM-EMFUND, SM-DFB-REPLACE). Every line is one
//! call of an edition rule, kept with its trace, so each figure can be explained
//! down to the rule IDs.

use super::model::{EnteredBy, Pair, Team, TeamKind};
use super::rules::{Arg, Figure};
use super::{Ctx, count};
use crate::diag::Diagnostic;
use crate::source::Span;
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a line does to the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// Owed by the entry or the district.
    Charge,
    /// Paid to the district.
    Subsidy,
    /// Set aside by the federation; neither owed nor paid.
    SetAside,
}

/// One figure of an invoice or statement.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// What it is for, in words.
    pub item: String,
    /// What it does to the total.
    pub kind: LineKind,
    /// The amount, in the edition's currency unit.
    pub amount: Decimal,
    /// The rule call that made it, with its rule IDs and trace.
    pub figure: Figure,
    /// A remark (a payment time, an unpaid fee).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What one team or pair owes.
#[derive(Debug, Clone, Serialize)]
pub struct Invoice {
    /// The entry's id.
    pub id: String,
    /// The team's name, or the pair's players.
    pub name: String,
    /// The lines.
    pub lines: Vec<Line>,
    /// The sum of the charges; `None` when they add up past the largest
    /// amount a number holds (E0831, reported with the invoice).
    pub total: Option<Decimal>,
    /// The unit the amounts are in (`SEK`).
    pub unit: String,
}

/// What one district is paid and owes.
#[derive(Debug, Clone, Serialize)]
pub struct Statement {
    /// The district, as the document spells it.
    pub district: String,
    /// The lines.
    pub lines: Vec<Line>,
    /// Subsidies paid to the district (`None` past the largest amount, E0831).
    pub subsidies: Option<Decimal>,
    /// Charges the district owes (`None` past the largest amount, E0831).
    pub charges: Option<Decimal>,
    /// Set aside for the EM fund from its pairs (`None` past the largest
    /// amount, E0831).
    pub set_aside: Option<Decimal>,
    /// The unit the amounts are in.
    pub unit: String,
}

/// Every invoice and statement of an entries file.
#[derive(Debug, Clone, Serialize)]
pub struct Money {
    /// Per team and pair, in file order.
    pub invoices: Vec<Invoice>,
    /// Per district, in the edition's order of districts.
    pub districts: Vec<Statement>,
    /// The sums over them all; `None` when the file has nothing to invoice.
    pub totals: Option<Totals>,
}

/// What the whole file comes to: the sums of the invoices and statements
/// (each `None` past the largest amount, E0831, or when a sum it adds is).
#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    /// Owed by the teams and pairs.
    pub invoiced: Option<Decimal>,
    /// Paid to the districts.
    pub subsidies: Option<Decimal>,
    /// Owed by the districts.
    pub charges: Option<Decimal>,
    /// Set aside for the EM fund.
    pub set_aside: Option<Decimal>,
    /// The unit the amounts are in.
    pub unit: String,
}

/// Makes every invoice and statement.
pub(crate) fn make(ctx: &mut Ctx) -> Money {
    let entries = ctx.entries;
    let mut invoices = Vec::new();
    for team in &entries.teams {
        invoices.push(team_invoice(ctx, team));
    }
    for pair in &entries.pairs {
        invoices.push(pair_invoice(ctx, pair));
    }
    let districts = statements(ctx);
    let totals = (!(invoices.is_empty() && districts.is_empty()))
        .then(|| totals(ctx, &invoices, &districts));
    Money {
        invoices,
        districts,
        totals,
    }
}

/// The sums over every invoice and statement. A sum that passes the largest
/// amount is E0831 at the first entry of the file; one that adds a total
/// already past it is left out without a second report.
fn totals(ctx: &mut Ctx, invoices: &[Invoice], districts: &[Statement]) -> Totals {
    let entries = ctx.entries;
    let at = entries.teams.first().map(|t| t.span);
    let at = at.or_else(|| entries.pairs.first().map(|p| p.span));
    let mut sum = |amounts: Vec<Option<Decimal>>, what: &str| -> Option<Decimal> {
        let amounts: Vec<Decimal> = amounts.into_iter().collect::<Option<_>>()?;
        let sum = amounts
            .iter()
            .try_fold(Decimal::ZERO, |acc, a| acc.checked_add(*a));
        if let (None, Some(at)) = (sum, at) {
            ctx.diags.push(too_large(
                what,
                "the whole file",
                at,
                "the file's first entry",
            ));
        }
        sum
    };
    let invoiced = sum(invoices.iter().map(|i| i.total).collect(), "invoices");
    let subsidies = sum(districts.iter().map(|d| d.subsidies).collect(), "subsidies");
    let charges = sum(districts.iter().map(|d| d.charges).collect(), "charges");
    let set_aside = sum(
        districts.iter().map(|d| d.set_aside).collect(),
        "amounts set aside",
    );
    let unit = invoices
        .iter()
        .map(|i| &i.unit)
        .chain(districts.iter().map(|d| &d.unit))
        .find(|u| !u.is_empty())
        .cloned()
        .unwrap_or_default();
    Totals {
        invoiced,
        subsidies,
        charges,
        set_aside,
        unit,
    }
}

fn line(item: impl Into<String>, kind: LineKind, figure: Figure) -> Line {
    Line {
        item: item.into(),
        kind,
        amount: figure.amount().unwrap_or_default(),
        figure,
        note: None,
    }
}

fn unit_of(lines: &[Line]) -> String {
    lines
        .iter()
        .find_map(|l| match &l.figure.value {
            // `SEK/pair` for one pair is an amount in SEK.
            crate::ir::Value::Num(_, u) => Some(u.numerator().to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The sum of the lines of one kind, or E0831 at `at` when it is past the
/// largest amount a number holds: a total is never shown short of its lines.
fn total(ctx: &mut Ctx, lines: &[Line], kind: LineKind, whose: &str, at: Span) -> Option<Decimal> {
    let sum = lines
        .iter()
        .filter(|l| l.kind == kind)
        .try_fold(Decimal::ZERO, |acc, l| acc.checked_add(l.amount));
    if sum.is_none() {
        let what = match kind {
            LineKind::Charge => "charges",
            LineKind::Subsidy => "subsidies",
            LineKind::SetAside => "amounts set aside",
        };
        ctx.diags
            .push(too_large(what, whose, at, "its lines come from this entry"));
    }
    sum
}

/// E0831: adding up `what` of `whose` passed the largest amount; `label` says
/// what `at` is.
fn too_large(what: &str, whose: &str, at: Span, label: &str) -> Diagnostic {
    Diagnostic::error(
        "E0831",
        format!(
            "adding up the {what} of {whose} passes the largest amount a number holds \
             ({}, either side of zero)",
            Decimal::MAX
        ),
        at,
    )
    .with_label(label)
    .with_help("the edition's rules give amounts this large: check the figures of the lines shown, and the rules they name")
}

fn paid_note(paid: Option<&(super::model::Stamp, crate::source::Span)>) -> Option<String> {
    Some(match paid {
        Some(((d, m), _)) => format!("paid {d} {:02}:{:02}", m / 60, m % 60),
        None => "not paid yet".into(),
    })
}

fn team_invoice(ctx: &mut Ctx, team: &Team) -> Invoice {
    let mut lines = Vec::new();
    match team.kind {
        TeamKind::Cc => cc_lines(ctx, team, &mut lines),
        TeamKind::Lv => {
            if let Some(f) = ctx.call(
                "lv_team_fee",
                &[("plays_playoff", Arg::Bool(team.knockout))],
                team.span,
            ) {
                let title = super::names::title(ctx.program, team.competition);
                let item = if team.knockout {
                    format!("{title}: qualification and playoff")
                } else {
                    format!("{title}: qualification")
                };
                let mut l = line(item, LineKind::Charge, f);
                l.note = paid_note(team.fee_paid_at.as_ref());
                lines.push(l);
            }
        }
    }
    let whose = format!("team `{}`", team.id);
    Invoice {
        id: team.id.clone(),
        name: team.name.0.clone(),
        total: total(ctx, &lines, LineKind::Charge, &whose, team.span),
        unit: unit_of(&lines),
        lines,
    }
}

/// A `cc_team` competition: the qualification's fee by seniors and juniors (free
/// for a district team), its surcharge by payment time, and the knockout's fee.
/// The qualification is called by the title the edition gives it.
fn cc_lines(ctx: &mut Ctx, team: &Team, lines: &mut Vec<Line>) {
    let qualification = ctx
        .program
        .competitions
        .get(team.competition as usize)
        .and_then(|c| c.qualification.as_ref())
        .map_or_else(|| "qualification".to_string(), |q| q.title.clone());
    let mut juniors = 0usize;
    for (m, _) in &team.players {
        if ctx.junior(*m).is_some_and(|(j, _)| j) {
            juniors += 1;
        }
    }
    let seniors = team.players.len() - juniors;
    let district = ctx.district_team(team).is_some_and(|(d, _)| d);
    let Some(fee) = ctx.call(
        "cc_gh_entry_fee_for",
        &[
            ("seniors", count(seniors)),
            ("juniors", count(juniors)),
            ("district_team", Arg::Bool(district)),
        ],
        team.span,
    ) else {
        return;
    };
    let free = fee.amount() == Some(Decimal::ZERO);
    let mut l = line(
        format!(
            "{qualification} entry fee ({seniors} senior{}, {juniors} junior{}{}{})",
            plural(seniors),
            plural(juniors),
            if district { ", district team" } else { "" },
            // The fee counts the players read; one named but not read (its
            // error is said) is not in it.
            if team.complete {
                ""
            } else {
                "; a player named is not read, see the errors"
            }
        ),
        LineKind::Charge,
        fee,
    );
    l.note = if free {
        None
    } else {
        paid_note(team.fee_paid_at.as_ref())
    };
    lines.push(l);
    if !free
        && let Some(((d, m), _)) = team.fee_paid_at
        && let Some(f) = ctx.call(
            "cc_gh_fee_late_surcharge",
            &[("paid_at", Arg::Stamp(d, m))],
            team.span,
        )
    {
        lines.push(line(
            format!("{qualification} surcharge by payment time"),
            LineKind::Charge,
            f,
        ));
    }
    if team.knockout {
        if let Some(f) = ctx.call("cc_ko_fee", &[], team.span) {
            let mut l = line(
                format!("entry fee from {} (knockout)", knockout_start(ctx, team)),
                LineKind::Charge,
                f,
            );
            l.note = paid_note(team.knockout_fee_paid_at.as_ref());
            lines.push(l);
        }
        if let Some(((d, m), _)) = team.knockout_fee_paid_at
            && let Some(f) = ctx.call(
                "cc_ko_fee_late_surcharge",
                &[("paid_at", Arg::Stamp(d, m))],
                team.span,
            )
        {
            lines.push(line(
                format!(
                    "surcharge by payment time, from {}",
                    knockout_start(ctx, team)
                ),
                LineKind::Charge,
                f,
            ));
        }
    }
}

/// When the knockout of a team's competition starts: the weekday of its first
/// stage's day, as the edition schedules it (`the first stage` where no stage has
/// a day).
fn knockout_start(ctx: &Ctx, team: &Team) -> String {
    use jiff::civil::Weekday::*;
    let first = ctx
        .program
        .competitions
        .get(team.competition as usize)
        .and_then(|c| c.stages.iter().filter_map(|s| s.schedule.day).min());
    match first.and_then(|d| d.civil()).map(|d| d.weekday()) {
        Some(Monday) => "Monday",
        Some(Tuesday) => "Tuesday",
        Some(Wednesday) => "Wednesday",
        Some(Thursday) => "Thursday",
        Some(Friday) => "Friday",
        Some(Saturday) => "Saturday",
        Some(Sunday) => "Sunday",
        None => "the first stage",
    }
    .to_string()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn pair_invoice(ctx: &mut Ctx, pair: &Pair) -> Invoice {
    let mut lines = Vec::new();
    let event = Arg::Variant(pair.event.0);
    if pair.entered_by.0 == EnteredBy::LastChance {
        let cash = pair.paid_cash.is_none_or(|(c, _)| c);
        if let Some(f) = ctx.call(
            "sm_last_chance_fee_per_pair",
            &[("cash", Arg::Bool(cash))],
            pair.span,
        ) {
            let how = if cash { "cash" } else { "bought in advance" };
            lines.push(line(
                format!("last-chance qualifier start fee ({how})"),
                LineKind::Charge,
                f,
            ));
        }
    }
    if !pair.qualifier_sessions.is_empty()
        && let Some(f) = ctx.call("sm_start_fee_per_pair", &[("event", event)], pair.span)
    {
        lines.push(line("district qualifier start fee", LineKind::Charge, f));
    }
    if let Some((stage, _)) = pair.stage
        && let Some(f) = ctx.call(
            "sm_table_fee_per_pair",
            &[("event_stage", Arg::Variant(stage))],
            pair.span,
        )
    {
        let item = format!("table fee, {}", ctx.label(ctx.entries.enums.stage, stage));
        let mut l = line(item, LineKind::Charge, f);
        l.note = paid_note(pair.table_fee_paid_at.as_ref());
        lines.push(l);
    }
    let names: Vec<String> = pair
        .players
        .iter()
        .filter_map(|(m, _)| ctx.entries.players.get(m).map(|p| p.name.clone()))
        .collect();
    Invoice {
        id: pair.id.clone(),
        name: format!(
            "{} – {}",
            names.join(" & "),
            ctx.label(ctx.entries.enums.event, pair.event.0)
        ),
        total: total(
            ctx,
            &lines,
            LineKind::Charge,
            &format!("pair `{}`", pair.id),
            pair.span,
        ),
        unit: unit_of(&lines),
        lines,
    }
}

/// Per district: the travel subsidy for each of its pairs at a festival stage,
/// the EM fund set aside from them, and the table fee of each final it did not
/// report a replacement pair for.
fn statements(ctx: &mut Ctx) -> Vec<Statement> {
    let entries = ctx.entries;
    // Each district's lines, with the entry its first line came from (where a
    // total past the largest amount is reported).
    let mut by: BTreeMap<u32, (Span, Vec<Line>)> = BTreeMap::new();
    let mut add = |district: u32, at: Span, l: Line| {
        by.entry(district)
            .or_insert_with(|| (at, Vec::new()))
            .1
            .push(l);
    };
    for pair in &entries.pairs {
        let Some((stage, _)) = pair.stage else {
            continue;
        };
        let (district, _) = pair.district;
        if let Some(f) = ctx.call(
            "sm_travel_subsidy_for",
            &[
                ("event_stage", Arg::Variant(stage)),
                ("district", Arg::Variant(district)),
                (
                    "in_first_open_allotment",
                    Arg::Bool(pair.first_allotment.is_some()),
                ),
            ],
            pair.span,
        ) {
            let item = format!(
                "travel subsidy, pair {} in the {}",
                pair.id,
                ctx.label(entries.enums.stage, stage)
            );
            add(district, pair.span, line(item, LineKind::Subsidy, f));
        }
    }
    // EM fund: the district's pairs at the festival, in a discipline with one.
    let mut festival_pairs: BTreeMap<u32, usize> = BTreeMap::new();
    for pair in entries.pairs.iter().filter(|p| p.stage.is_some()) {
        *festival_pairs.entry(pair.district.0).or_default() += 1;
    }
    for (district, n) in festival_pairs {
        let at = entries
            .pairs
            .iter()
            .find(|p| p.district.0 == district)
            .map(|p| p.span);
        if let Some(at) = at
            && let Some(f) = ctx.call("sm_emfund_contribution", &[("pairs", count(n))], at)
        {
            let item = format!("EM fund, {n} pair{}", plural(n));
            add(district, at, line(item, LineKind::SetAside, f));
        }
    }
    for d in &entries.districts {
        for (event, at) in &d.missed_replacements {
            if let Some(f) = ctx.call(
                "sm_missed_replacement_charge",
                &[
                    ("event", Arg::Variant(*event)),
                    ("replacement_reported", Arg::Bool(false)),
                ],
                *at,
            ) {
                let item = format!(
                    "no replacement pair reported, {}",
                    ctx.label(entries.enums.event, *event)
                );
                add(d.district, *at, line(item, LineKind::Charge, f));
            }
        }
    }
    by.into_iter()
        .map(|(district, (at, lines))| {
            let name = ctx.label(entries.enums.district, district);
            let whose = format!("district {name}");
            Statement {
                subsidies: total(ctx, &lines, LineKind::Subsidy, &whose, at),
                charges: total(ctx, &lines, LineKind::Charge, &whose, at),
                set_aside: total(ctx, &lines, LineKind::SetAside, &whose, at),
                district: name,
                unit: unit_of(&lines),
                lines,
            }
        })
        .collect()
}
