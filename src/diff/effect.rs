//! What a change does to the rules' answers: for a changed rule, the inputs where
//! the old and the new version answer differently (one parameter:
//! [`super::behaviour`]; several: [`super::product`]); for an unchanged rule, the
//! same, when a rule it calls changed.

use super::Detail;
use super::behaviour::{self, Line, Version, called};
use super::product;
use super::show::Shower;
use crate::ir::{Program, Rule, Type};

/// The inputs where the old and the new rule answer differently.
pub fn answers(
    old_program: &Program,
    old: &Rule,
    new_program: &Program,
    new: &Rule,
    days: i64,
) -> Vec<Detail> {
    let ([(_, old_ty)], [(_, new_ty)]) = (old.params.as_slice(), new.params.as_slice()) else {
        return product::answers(
            &Version {
                program: old_program,
                rule: old,
                shower: Shower::shifted(old_program, days),
            },
            &Version {
                program: new_program,
                rule: new,
                shower: Shower::new(new_program),
            },
            days,
        );
    };
    let old_side = Version {
        program: old_program,
        rule: old,
        shower: Shower::shifted(old_program, days),
    };
    let new_side = Version {
        program: new_program,
        rule: new,
        shower: Shower::new(new_program),
    };
    match (old_ty, new_ty) {
        (Type::Enum(a), Type::Enum(b)) => behaviour::by_key(&old_side, *a, &new_side, *b),
        _ => match Line::of(new_ty, new.whole.first().copied().unwrap_or(false)) {
            Some(line) if Line::of(old_ty, false).map(|l| l.ty) == Some(line.ty.clone()) => {
                behaviour::by_range(&old_side, &new_side, &line, days)
            }
            _ => Vec::new(),
        },
    }
}

/// Unchanged rules of one parameter whose answers change because a rule they
/// call (directly or not) changed: (rule index in the new program, the changed
/// rules it calls, the answers).
pub fn through(
    old_program: &Program,
    new_program: &Program,
    changed: &std::collections::BTreeSet<String>,
    old_name: &dyn Fn(&str) -> String,
    days: i64,
) -> Vec<(usize, Vec<String>, Vec<Detail>)> {
    let calls: Vec<Vec<u32>> = new_program.rules.iter().map(|r| called(r)).collect();
    // For every rule, the changed rules it reaches (rules are acyclic: checked).
    let mut reach: Vec<Option<std::collections::BTreeSet<String>>> =
        vec![None; new_program.rules.len()];
    let mut out = Vec::new();
    for (i, rule) in new_program.rules.iter().enumerate() {
        if changed.contains(&rule.name) || rule.params.is_empty() {
            continue;
        }
        let via = reached(i, &calls, new_program, changed, &mut reach);
        if via.is_empty() {
            continue;
        }
        let Some((_, old)) = old_program.rule(&old_name(&rule.name)) else {
            continue;
        };
        let details = answers(old_program, old, new_program, rule, days);
        if !details.is_empty() {
            out.push((i, via.into_iter().collect(), details));
        }
    }
    out
}

fn reached(
    i: usize,
    calls: &[Vec<u32>],
    program: &Program,
    changed: &std::collections::BTreeSet<String>,
    memo: &mut Vec<Option<std::collections::BTreeSet<String>>>,
) -> std::collections::BTreeSet<String> {
    if let Some(Some(done)) = memo.get(i) {
        return done.clone();
    }
    let mut set = std::collections::BTreeSet::new();
    // Depth is bounded by the edition's call depth; stacker guards it anyway.
    for &c in calls.get(i).map_or(&[][..], |v| v.as_slice()) {
        let c = c as usize;
        if let Some(r) = program.rules.get(c) {
            if changed.contains(&r.name) {
                set.insert(r.name.clone());
            }
            let below = stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                reached(c, calls, program, changed, memo)
            });
            set.extend(below);
        }
    }
    if let Some(slot) = memo.get_mut(i) {
        *slot = Some(set.clone());
    }
    set
}
