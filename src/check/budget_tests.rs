//! The bound on all the computations of one check together
//! ([`super::MAX_CHECK_STEPS`]), reached with small bounds.
//!
//! Each heavy computation below makes a list of a thousand numbers: at least
//! 1,000 steps, and (as steps are counted now) about 1,006; the tests allow
//! anything up to 2,000.

use super::{MAX_CHECK_STEPS, check_within};
use crate::diag::{Diagnostic, Diagnostics};

/// `text` checked with `steps` for its computations: the diagnostics.
fn checked(text: &str, steps: u64) -> Diagnostics {
    let file = crate::syntax::parse_file(text, 0).expect("the text parses");
    check_within(vec![file], steps, Diagnostics::default()).1
}

fn errors(diags: &Diagnostics) -> Vec<Diagnostic> {
    diags
        .sorted()
        .into_iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect()
}

/// The number after `prefix` where the diagnostic's span starts in `text`.
fn numbered(text: &str, d: &Diagnostic, prefix: &str) -> u32 {
    let at = &text[d.span.start as usize..];
    at.strip_prefix(prefix)
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("`{prefix}…` where {} points: {at:.40}", d.message))
}

const SPENT: &str = "the edition's computations together take more than the 10,000 steps a \
                     check may take (its consts, properties, scale bounds and place numbers)";

#[test]
fn consts_past_the_checks_steps_are_one_error_at_the_const_they_ran_out_at() {
    let mut text = String::new();
    for k in 1..=20 {
        text.push_str(&format!(
            "const h{k}: number ref T-1 = sum(range({k}, {k} + 999))\n"
        ));
    }
    text.push_str("const light: number ref T-1 = 1\n");
    assert!(errors(&checked(&text, MAX_CHECK_STEPS)).is_empty());
    // Room for five to ten of the twenty: the const the steps ran out at is
    // the one error, and none after it is computed.
    let found = errors(&checked(&text, 10_000));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, "E0606");
    assert_eq!(found[0].message, format!("{SPENT}: it was not computed"));
    let stopped = numbered(&text, &found[0], "h");
    assert!((6..=11).contains(&stopped), "{stopped}");
}

/// A cup of ten stages, each with `teams` computed as `teams`, both teams of
/// each going on to the next.
fn cup(consts: &str, teams: &str) -> String {
    let mut text = format!(
        "{consts}enum Draw ref T-1 {{ Fixed }}\n\
         competition cup \"Cup\" ref T-1 {{\n  stages {{\n    boards = 8\n    draw = Draw.Fixed\n  }}\n"
    );
    for k in 1..=10 {
        let (winners, losers) = if k == 10 {
            ("place 1".to_string(), "place 2".to_string())
        } else {
            (format!("s{}", k + 1), format!("s{}", k + 1))
        };
        text.push_str(&format!(
            "  stage s{k} \"S{k}\" ref T-1 {{\n    order = {k}\n    teams = {teams}\n    winners -> {winners}\n    losers -> {losers}\n  }}\n"
        ));
    }
    text.push_str("}\n");
    text
}

#[test]
fn a_const_named_by_many_properties_is_worked_out_once_for_all_of_them() {
    let text = cup(
        "const field: number ref T-1 = sum(range(1, 1000)) - 500498\n",
        "field",
    );
    assert!(errors(&checked(&text, MAX_CHECK_STEPS)).is_empty());
    // Room for the const once, not once for each of the ten stages' `teams`
    // (read by the routing graph and by the typing of the competition).
    assert!(errors(&checked(&text, 2_500)).is_empty());
}

#[test]
fn properties_past_the_checks_steps_are_one_error_where_nothing_reports_its_own() {
    // No const: each stage's `teams` is computed by the routing graph, which
    // skips what it cannot compute; the check says the steps ran out, once,
    // at the first stage they had no room for.
    let text = cup("", "sum(range(1, 1000)) - 500498");
    assert!(errors(&checked(&text, MAX_CHECK_STEPS)).is_empty());
    let found = errors(&checked(&text, 10_000));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, "E0606");
    assert!(
        found[0].message.starts_with(&format!("{SPENT}: it and ")),
        "{}",
        found[0].message
    );
    assert!(found[0].message.ends_with(" after it were not computed"));
    // The span is the `teams` expression of the stage the steps ran out at.
    let before = &text[..found[0].span.start as usize];
    assert!(before.ends_with("teams = "), "{before:.40}");
    let stage = before
        .rsplit("stage s")
        .next()
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("{before}"));
    assert!((6..=11).contains(&stage), "{stage}");
}
