//! What a change does to the rules' answers: for a changed rule, the inputs where
//! the old and the new version answer differently (one parameter:
//! [`super::behaviour`]; several: [`super::product`]); for an unchanged rule, the
//! same, when a rule it calls changed.

use super::Detail;
use super::behaviour::{self, Line, Version, called};
use super::product;
use super::show::Shower;
use crate::ir::{Program, Rule, Type};

/// The inputs where the old and the new rule (each with its index in its
/// program) answer differently.
pub fn answers(
    old_program: &Program,
    (old_index, old): (u32, &Rule),
    new_program: &Program,
    (new_index, new): (u32, &Rule),
    days: i64,
) -> Vec<Detail> {
    let old_side = Version {
        program: old_program,
        index: old_index,
        rule: old,
        shower: Shower::shifted(old_program, days),
    };
    let new_side = Version {
        program: new_program,
        index: new_index,
        rule: new,
        shower: Shower::new(new_program),
    };
    let ([(_, old_ty)], [(_, new_ty)]) = (old.params.as_slice(), new.params.as_slice()) else {
        return product::answers(&old_side, &new_side, days);
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
/// rules it calls by name, the answers).
pub fn through(
    old_program: &Program,
    new_program: &Program,
    changed: &std::collections::BTreeSet<String>,
    old_name: &dyn Fn(&str) -> String,
    days: i64,
) -> Vec<(usize, Vec<String>, Vec<Detail>)> {
    let calls: Vec<Vec<u32>> = new_program.rules.iter().map(|r| called(r)).collect();
    let is_changed: Vec<bool> = new_program
        .rules
        .iter()
        .map(|r| changed.contains(&r.name))
        .collect();
    let old_by_name: std::collections::HashMap<&str, (u32, &Rule)> = (0u32..)
        .zip(&old_program.rules)
        .map(|(i, r)| (r.name.as_str(), (i, &**r)))
        .collect();
    // For every rule, the changed rules it reaches (rules are acyclic: checked).
    let mut reach: Vec<Option<Reached>> = vec![None; new_program.rules.len()];
    let mut out = Vec::new();
    for (i, rule) in new_program.rules.iter().enumerate() {
        if is_changed.get(i).copied().unwrap_or(false) || rule.params.is_empty() {
            continue;
        }
        let via = reached(i, &calls, &is_changed, &mut reach);
        if via.is_empty() {
            continue;
        }
        let Some(&old) = old_by_name.get(old_name(&rule.name).as_str()) else {
            continue;
        };
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        let details = answers(old_program, old, new_program, (index, rule), days);
        if !details.is_empty() {
            let mut names: Vec<String> = via
                .iter()
                .filter_map(|c| new_program.rules.get(*c as usize))
                .map(|r| r.name.clone())
                .collect();
            names.sort();
            out.push((i, names, details));
        }
    }
    out
}

/// The changed rules (indices) a rule reaches. Shared, not copied, between a
/// rule and those that reach nothing else: a long chain of callers of one rule
/// that reaches many costs one set, not one each.
type Reached = std::rc::Rc<std::collections::BTreeSet<u32>>;

fn reached(
    i: usize,
    calls: &[Vec<u32>],
    is_changed: &[bool],
    memo: &mut Vec<Option<Reached>>,
) -> Reached {
    if let Some(Some(done)) = memo.get(i) {
        return done.clone();
    }
    let mut set: Reached = Reached::default();
    // Depth is bounded by the edition's call depth; stacker guards it anyway.
    for &c in calls.get(i).map_or(&[][..], |v| v.as_slice()) {
        let Some(&callee_changed) = is_changed.get(c as usize) else {
            continue;
        };
        let below = stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
            reached(c as usize, calls, is_changed, memo)
        });
        if set.is_empty() && !callee_changed {
            set = below;
            continue;
        }
        if !below.is_subset(&set) {
            std::rc::Rc::make_mut(&mut set).extend(below.iter().copied());
        }
        if callee_changed && !set.contains(&c) {
            std::rc::Rc::make_mut(&mut set).insert(c);
        }
    }
    if let Some(slot) = memo.get_mut(i) {
        *slot = Some(set.clone());
    }
    set
}
