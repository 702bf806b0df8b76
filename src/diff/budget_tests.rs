//! The diff's bound on evaluation steps: where it cuts a comparison short, and
//! where an answer that fails on its own is an answer (`no answer`), not the
//! bound reached.

use super::behaviour::Budget;
use super::{Detail, Diff, Side, compare};
use crate::edition::{Loaded, load_texts};

fn edition(text: &str) -> Loaded {
    let loaded = load_texts(vec![("r.bfr".into(), text.as_bytes().to_vec())]);
    assert!(loaded.checked.is_some(), "{text}");
    loaded
}

/// The diff of two one-file editions within `budget`.
fn diff(old: &str, new: &str, budget: &Budget) -> Diff {
    let (a, b) = (edition(old), edition(new));
    let (Some(ca), Some(cb)) = (&a.checked, &b.checked) else {
        unreachable!("both editions check");
    };
    let side = |program, sources| Side {
        program,
        sources,
        root: String::new(),
    };
    compare(
        &side(&ca.program, &a.sources),
        &side(&cb.program, &b.sources),
        budget,
    )
}

fn details(d: &Diff, name: &str) -> Vec<Detail> {
    d.files
        .iter()
        .flat_map(|f| &f.items)
        .find(|i| i.name == name)
        .map(|i| i.details.clone())
        .unwrap_or_default()
}

fn answers(details: &[Detail]) -> Vec<(String, String, String)> {
    details
        .iter()
        .filter_map(|d| match d {
            Detail::Answers {
                input, old, new, ..
            } => Some((input.clone(), old.clone(), new.clone())),
            _ => None,
        })
        .collect()
}

/// A table keyed by an enum whose every row costs a few thousand steps.
fn keyed(values: [u8; 4]) -> String {
    let [a, b, c, d] = values;
    let heavy = "sum(range(1, 2000)) * 0";
    format!(
        "enum Key {{ A \"a\", B \"b\", C \"c\", D \"d\" }}\n\
         table keyed(k: Key) -> number {{\n\
         A => {heavy} + {a},\n B => {heavy} + {b},\n C => {heavy} + {c},\n D => {heavy} + {d},\n}}\n"
    )
}

#[test]
fn a_rule_by_key_is_cut_short_after_the_keys_compared() {
    let (old, new) = (keyed([1, 2, 3, 4]), keyed([5, 6, 7, 8]));
    let whole = diff(&old, &new, &Budget::new(10_000_000));
    assert_eq!(answers(&details(&whole, "keyed")).len(), 4);
    assert_eq!(whole.unfinished, None);
    let cut = diff(&old, &new, &Budget::new(12_000));
    let found = details(&cut, "keyed");
    let listed = answers(&found);
    assert!((1..4).contains(&listed.len()), "{found:?}");
    // What was found before the cut is what the whole diff found.
    assert_eq!(listed, answers(&details(&whole, "keyed"))[..listed.len()]);
    assert_eq!(found.last(), Some(&Detail::Unfinished));
    assert_eq!(cut.unfinished.map(|u| (u.changed, u.callers)), Some((1, 0)));
}

/// A rule of two parameters whose every answer costs a few thousand steps.
fn two(values: [u8; 2]) -> String {
    let [a, b] = values;
    format!(
        "fn two(x: number, y: number) -> number = sum(range(1, 2000)) * 0 + \
         (if x < 10 and y < 10 then {a} else {b})\n"
    )
}

#[test]
fn a_rule_of_several_parameters_is_cut_short_after_the_combinations_compared() {
    let (old, new) = (two([1, 2]), two([3, 4]));
    let whole = diff(&old, &new, &Budget::new(100_000_000));
    let all = details(&whole, "two");
    assert!(!all.contains(&Detail::Unfinished), "{all:?}");
    assert_eq!(whole.unfinished, None);
    let cut = diff(&old, &new, &Budget::new(20_000));
    let found = details(&cut, "two");
    assert_eq!(found.last(), Some(&Detail::Unfinished), "{found:?}");
    let listed = answers(&found);
    assert!(
        !listed.is_empty() && listed.len() < answers(&all).len(),
        "{found:?}"
    );
    assert_eq!(cut.unfinished.map(|u| u.changed), Some(1));
}

#[test]
fn an_answer_past_the_limit_of_one_evaluation_is_no_answer_not_the_bound() {
    // Each answer of the new rule passes the limit of one evaluation (1,000
    // steps here), with the diff's steps far from spent.
    let old = "fn f(x: number) -> number = if x < 10 then 1 else 2\n";
    let new = "fn f(x: number) -> number = sum(range(1, 2000)) * 0 + (if x < 10 then 1 else 2)\n";
    let d = diff(
        old,
        new,
        &Budget::new(1_000_000).with_evaluation_limit(1_000),
    );
    let found = details(&d, "f");
    assert!(!found.contains(&Detail::Unfinished), "{found:?}");
    assert!(
        answers(&found).iter().all(|(_, _, new)| new == "no answer"),
        "{found:?}"
    );
    assert_eq!(d.unfinished, None);
}

#[test]
fn a_const_that_failed_on_its_own_fails_later_answers_as_no_answer() {
    // `big` fails on its own (just over 1,000 steps) at the answer for 10 and
    // is kept so; the answer above 10 is asked with less than 1,000 steps
    // left, and gets the kept failure at no cost: an answer, not the bound
    // reached.
    let old = "fn f(x: number) -> number = if x < 10 then 1 else 2\n";
    let new = "const big: number = sum(map(range(1, 100), x => sum(range(1, 20))))\n\
               fn f(x: number) -> number = if x < 10 then 1 else big\n";
    let d = diff(old, new, &Budget::new(2_000).with_evaluation_limit(1_000));
    let found = details(&d, "f");
    assert!(!found.contains(&Detail::Unfinished), "{found:?}");
    assert_eq!(
        answers(&found),
        vec![(
            "from 10".to_string(),
            "2".to_string(),
            "no answer".to_string()
        )],
        "{found:?}"
    );
    assert_eq!(d.unfinished, None);
}

#[test]
fn a_rule_without_answers_to_compare_is_never_unfinished() {
    // The budget is spent by the first rule; the changed const after it has
    // no answers to compare and is listed as it would be anyway.
    let old = format!("{}const c: number = 1\n", two([1, 2]));
    let new = format!("{}const c: number = 2\n", two([3, 4]));
    let d = diff(&old, &new, &Budget::new(5_000));
    assert_eq!(details(&d, "two").last(), Some(&Detail::Unfinished));
    let c = details(&d, "c");
    assert!(!c.is_empty() && !c.contains(&Detail::Unfinished), "{c:?}");
    assert_eq!(d.unfinished.map(|u| u.changed), Some(1));
}

#[test]
fn a_diff_cut_short_is_the_same_every_time() {
    let (old, new) = (keyed([1, 2, 3, 4]), keyed([5, 6, 7, 8]));
    let once = diff(&old, &new, &Budget::new(12_000));
    let again = diff(&old, &new, &Budget::new(12_000));
    assert_eq!(format!("{once:?}"), format!("{again:?}"));
    assert!(once.unfinished.is_some());
}
