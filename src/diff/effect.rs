//! What a change does to the rules' answers: for a changed rule, the inputs where
//! the old and the new version answer differently (one parameter:
//! [`super::behaviour`]; several: [`super::product`]); for an unchanged rule, the
//! same, when a rule it calls changed.

use super::Detail;
use super::behaviour::{self, Budget, Line, Version, called};
use super::product;
use super::show::Shower;
use crate::ir::{Program, Rule, Type};
use std::collections::BTreeSet;

/// The inputs where the old and the new rule (each with its index in its
/// program) answer differently, worked out within `budget`; those found, then
/// [`Detail::Unfinished`], when the budget ran out before all were compared
/// (a rule whose answers are not compared at all, such as a const, is never
/// unfinished).
pub fn answers(
    old_program: &Program,
    old: (u32, &Rule),
    new_program: &Program,
    new: (u32, &Rule),
    days: i64,
    budget: &Budget,
) -> Vec<Detail> {
    let old_side = Version::new(old_program, old, Shower::shifted(old_program, days), budget);
    let new_side = Version::new(new_program, new, Shower::new(new_program), budget);
    let refused = budget.refused();
    let mut found = compared(&old_side, &new_side, days);
    if budget.refused() != refused {
        found.push(Detail::Unfinished);
    }
    found
}

/// [`answers`], as far as the budget goes.
fn compared(old_side: &Version, new_side: &Version, days: i64) -> Vec<Detail> {
    let (old, new) = (old_side.rule, new_side.rule);
    let ([(_, old_ty)], [(_, new_ty)]) = (old.params.as_slice(), new.params.as_slice()) else {
        return product::answers(old_side, new_side, days);
    };
    match (old_ty, new_ty) {
        (Type::Enum(a), Type::Enum(b)) => behaviour::by_key(old_side, *a, new_side, *b),
        _ => match Line::of(new_ty, new.counting.first().is_some_and(|c| c.is_whole())) {
            Some(line) if Line::of(old_ty, false).map(|l| l.ty) == Some(line.ty.clone()) => {
                behaviour::by_range(old_side, new_side, &line, days)
            }
            _ => Vec::new(),
        },
    }
}

/// Unchanged rules whose answers change because a rule they call (directly or
/// not) changed: (rule index in the new program, its details: first a
/// [`Detail::Through`] naming the changed rules it calls, then the answers).
/// Worked out within `budget`; with them, how many such rules' answers were
/// not compared (or not all) once it ran out, those without a difference
/// found before not listed.
pub fn through(
    old_program: &Program,
    new_program: &Program,
    changed: &BTreeSet<String>,
    old_name: &dyn Fn(&str) -> String,
    days: i64,
    budget: &Budget,
) -> (Vec<(usize, Vec<Detail>)>, usize) {
    let calls: Vec<Vec<u32>> = new_program.rules.iter().map(|r| called(r)).collect();
    let names = NameOrder::of(new_program);
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
    let mut not_compared = 0usize;
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
        let answers = answers(old_program, old, new_program, (index, rule), days, budget);
        if answers.contains(&Detail::Unfinished) {
            not_compared += 1;
        }
        if answers.iter().any(|d| *d != Detail::Unfinished) {
            let mut details = vec![Detail::Through {
                rules: names.first(new_program, &via, product::MAX_LISTED),
                unlisted: via.len().saturating_sub(product::MAX_LISTED),
            }];
            details.extend(answers);
            out.push((i, details));
        }
    }
    (out, not_compared)
}

/// A program's rules in the order of their names, to name the first few of a
/// set of rules without naming them all (a rule can reach thousands).
struct NameOrder {
    /// Rule indices, by name.
    by_name: Vec<u32>,
    /// Each rule's place in `by_name`.
    place: Vec<u32>,
}

impl NameOrder {
    fn of(program: &Program) -> Self {
        let count = u32::try_from(program.rules.len()).unwrap_or(u32::MAX);
        let mut by_name: Vec<u32> = (0..count).collect();
        by_name.sort_by(|a, b| {
            let name = |i: &u32| program.rules.get(*i as usize).map(|r| r.name.as_str());
            name(a).cmp(&name(b))
        });
        let mut place = vec![0u32; by_name.len()];
        for (at, &i) in (0u32..).zip(&by_name) {
            if let Some(slot) = place.get_mut(i as usize) {
                *slot = at;
            }
        }
        NameOrder { by_name, place }
    }

    /// The names of the first `n` rules of `rules` by name, in that order.
    fn first(&self, program: &Program, rules: &BTreeSet<u32>, n: usize) -> Vec<String> {
        let mut places: Vec<u32> = rules
            .iter()
            .filter_map(|r| self.place.get(*r as usize).copied())
            .collect();
        if places.len() > n {
            places.select_nth_unstable(n);
            places.truncate(n);
        }
        places.sort_unstable();
        places
            .iter()
            .filter_map(|p| self.by_name.get(*p as usize))
            .filter_map(|i| program.rules.get(*i as usize))
            .map(|r| r.name.clone())
            .collect()
    }
}

/// The changed rules (indices) a rule reaches. Shared, not copied, between a
/// rule and those that reach nothing else: a long chain of callers of one rule
/// that reaches many costs one set, not one each.
type Reached = std::rc::Rc<BTreeSet<u32>>;

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
