//! The `entries` and `federation` blocks: which rule answers each question of an
//! entries check or an invoice, which enum or competitions play each role, and
//! which rule each federation command calls. A variant edition that only points
//! a question at another rule changes what the desk is told, so the diff says so,
//! by key.

use super::{Detail, Side};
use crate::ir::Program;
use std::collections::{BTreeMap, BTreeSet};

/// What the blocks of the two editions say differently, key by key: `entries
/// cc_team_size_allowed`, `federation seeding`, each with the names on either side.
pub fn blocks(old: &Side, new: &Side) -> Vec<Detail> {
    let (a, b) = (old.program, new.program);
    let mut out = Vec::new();
    compare(
        "entries",
        &named_rules(a, &a.entry_rules),
        &named_rules(b, &b.entry_rules),
        &mut out,
    );
    compare("entries", &roles(a), &roles(b), &mut out);
    compare(
        "federation",
        &named_rules(a, &a.command_rules),
        &named_rules(b, &b.command_rules),
        &mut out,
    );
    compare("federation", &uniques(a), &uniques(b), &mut out);
    out
}

/// What each command's file names once, by the block's key
/// (`vacancies_unique`): `[declined.pair, pot]`.
fn uniques(program: &Program) -> BTreeMap<String, String> {
    program
        .command_unique
        .iter()
        .map(|(key, list)| {
            // In name order: the order says only which repeat is reported first.
            let mut names: Vec<String> = list.iter().map(ToString::to_string).collect();
            names.sort();
            (
                format!("{key}{}", crate::ir::commands::UNIQUE_SUFFIX),
                format!("[{}]", names.join(", ")),
            )
        })
        .collect()
}

/// Each key's rule, by name.
fn named_rules(program: &Program, keys: &BTreeMap<String, u32>) -> BTreeMap<String, String> {
    keys.iter()
        .map(|(key, i)| {
            let name = program
                .rules
                .get(*i as usize)
                .map_or_else(|| "?".to_string(), |r| r.name.clone());
            (key.clone(), name)
        })
        .collect()
}

/// Each role's enum (`District`), variant (`SmQuotaEvent.Veteran`) or
/// competitions (`cup`, `[lv_series, lv_ko]`), by name.
fn roles(program: &Program) -> BTreeMap<String, String> {
    let roles = &program.entry_roles;
    let mut out = BTreeMap::new();
    for (key, (e, variant)) in &roles.enums {
        let info = program.enums.get(*e as usize);
        let name = info.map_or("?", |i| i.name.as_str());
        let shown = match variant.and_then(|v| info?.variants.get(v as usize)) {
            Some(v) => format!("{name}.{v}"),
            None => name.to_string(),
        };
        out.insert(key.clone(), shown);
    }
    for (key, list) in &roles.competitions {
        let names: Vec<&str> = list
            .iter()
            .map(|c| {
                program
                    .competitions
                    .get(*c as usize)
                    .map_or("?", |c| c.name.as_str())
            })
            .collect();
        let shown = match names.as_slice() {
            [one] => (*one).to_string(),
            _ => format!("[{}]", names.join(", ")),
        };
        out.insert(key.clone(), shown);
    }
    out
}

/// One line per key whose value differs, is new or is gone, in key order.
fn compare(
    block: &str,
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
    out: &mut Vec<Detail>,
) {
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let what = format!("{block} {key}");
        match (old.get(key), new.get(key)) {
            (Some(a), Some(b)) if a != b => out.push(Detail::Changed {
                what,
                old: a.clone(),
                new: b.clone(),
            }),
            (None, Some(b)) => out.push(Detail::Added {
                what,
                value: b.clone(),
            }),
            (Some(a), None) => out.push(Detail::Removed {
                what,
                value: a.clone(),
            }),
            _ => {}
        }
    }
}
