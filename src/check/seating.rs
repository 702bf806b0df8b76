//! W0415: a knockout stage whose seating rule gives no way to seat a match of
//! the stage's length. The document may leave a length open (CC-SEATING
//! speaks of 32 boards or fewer and of 64, AMB-29): the run stops at such a
//! match (E0718), so the check says so where the length is written.

use super::compute::Computer;
use crate::diag::Diagnostic;
use crate::ir::competition::{Count, Seating, Stage};
use crate::ir::vocabulary::SeatingMethod;
use crate::ir::{Program, Type, Unit, Value};
use crate::source::Span;
use rust_decimal::Decimal;

/// The match lengths of `stage` its seating rule gives no seating method for:
/// its `boards` (at `boards_at`, when fixed) and the length the late-withdrawal
/// rules put in its place (`withdrawal_boards`, at `withdrawal_at`).
pub(crate) fn unseated_lengths(
    program: &Program,
    computer: &Computer,
    stage: &Stage,
    boards_at: Option<Span>,
    withdrawal_at: Option<Span>,
) -> Vec<Diagnostic> {
    let Some(Seating::ByBoards(rule)) = &stage.seating else {
        return Vec::new();
    };
    let fixed = match stage.boards {
        Count::Fixed(n) => Some(n),
        // A length of the field's size is known only when a run starts.
        Count::OfField(_) => None,
    };
    // A withdrawal length equal to the stage's own is the one match length.
    let withdrawal = stage.withdrawal_boards.filter(|w| Some(*w) != fixed);
    let lengths = [
        (fixed, boards_at, "", "a run stops at that match"),
        (
            withdrawal,
            withdrawal_at,
            ", the length the late-withdrawal rules put in place of its own",
            "a run that comes to that match (after a late withdrawal) stops there",
        ),
    ];
    let seating_rule = program.rules.get(rule.rule as usize);
    let unit = match seating_rule.and_then(|r| r.params.first()) {
        Some((_, Type::Num(unit))) => unit.clone(),
        _ => Unit::none(),
    };
    let mut out = Vec::new();
    for (boards, at, whose, stops) in lengths {
        let (Some(boards), Some(at)) = (boards, at) else {
            continue;
        };
        let arg = Value::Num(Decimal::from(boards), unit.clone());
        // A computation refused for the check's steps is reported by the computer.
        let Some(answer) = computer.call(program, rule.rule, vec![arg], at) else {
            continue;
        };
        let why = match answer {
            Ok(v @ Value::Enum(_, i)) => {
                let meaning = rule.meanings.get(i as usize).copied().flatten();
                if meaning != Some(SeatingMethod::NoRule) {
                    continue;
                }
                format!("`{}` gives `{}`", rule.name, v.show(program))
            }
            Ok(other) => format!("`{}` gives {}", rule.name, other.show(program)),
            Err(e) => format!("`{}` has no answer: {}", rule.name, e.message),
        };
        out.push(
            Diagnostic::warning(
                "W0415",
                format!(
                    "stage `{}` has no seating rule for a match of {boards} boards{whose}: {why}; {stops} (E0718)",
                    stage.name
                ),
                at,
            )
            .with_label(format!("{boards} boards"))
            // The length may be the `stages` defaults': the stage is named too.
            .with_note(stage.span, format!("stage `{}`", stage.name))
            .with_note(
                seating_rule.map_or(stage.span, |r| r.span),
                "the seating rule",
            )
            .with_help(format!(
                "give the stage a length that `{}` seats, or give the seating rule a row for {boards} boards (the organisers' decision, as a reading)",
                rule.name
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::edition::load_texts;

    const EDITION: &str = r#"
unit board whole alias boards
enum Draw { Fixed }
enum Seating ref T-1 { AwaySitsFirst, SegmentChoice, NoRule }
scale seating_by_length(boards: board) -> Seating ref T-1 {
  domain 1 board <= boards <= 64 boards
  1 board <= boards <= 32 boards => Seating.AwaySitsFirst
  32 boards < boards < 64 boards => Seating.NoRule
  boards == 64 boards            => Seating.SegmentChoice
}
competition cup "Cup" ref T-1 {
  stages {
    draw = Draw.Fixed
    seating = seating_by_length
    boards = 32
  }
  stage semi "Semi" ref T-1 {
    teams = 4
    winners -> final
    losers -> place 3..4
  }
  stage final "Final" ref T-1 {
    teams = 2
    winners -> place 1
    losers -> place 2
  }
}
"#;

    /// The W0415 messages of `text`, with the notes of each.
    fn unseated(text: &str) -> Vec<(String, Vec<String>)> {
        let loaded = load_texts(vec![("t.bfr".into(), text.as_bytes().to_vec())]);
        assert!(
            !loaded.diagnostics.has_errors(),
            "{:?}",
            loaded.diagnostics.sorted()
        );
        loaded
            .diagnostics
            .sorted()
            .iter()
            .filter(|d| d.code == "W0415")
            .map(|d| {
                let notes = d.notes.iter().map(|(_, n)| n.clone()).collect();
                (d.message.clone(), notes)
            })
            .collect()
    }

    #[test]
    fn each_stage_taking_an_unseated_default_length_is_named() {
        assert!(unseated(EDITION).is_empty());
        let from_defaults = EDITION.replace("    boards = 32\n", "    boards = 48\n");
        let found = unseated(&from_defaults);
        let stages: Vec<&str> = found
            .iter()
            .filter_map(|(_, notes)| notes.iter().find(|n| n.starts_with("stage ")))
            .map(String::as_str)
            .collect();
        assert_eq!(stages, ["stage `semi`", "stage `final`"]);
    }

    #[test]
    fn a_withdrawal_length_is_tried_once_and_a_length_without_an_answer_is_said() {
        // The final's withdrawal length is its own: one warning, not two.
        let same = EDITION.replace(
            "    teams = 2\n",
            "    teams = 2\n    boards = 48\n    withdrawal_boards = 48\n",
        );
        let found = unseated(&same);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .0
                .starts_with("stage `final` has no seating rule for a match of 48 boards: ")
        );
        // Past the rule's domain the rule has no answer; the withdrawal length
        // is said as such.
        let past = EDITION.replace(
            "    teams = 2\n",
            "    teams = 2\n    withdrawal_boards = 80\n",
        );
        let found = unseated(&past);
        assert_eq!(found.len(), 1, "{found:?}");
        let message = &found[0].0;
        assert!(
            message.starts_with("stage `final` has no seating rule for a match of 80 boards, the length the late-withdrawal rules put in place of its own: `seating_by_length` has no answer: "),
            "{message}"
        );
        assert!(
            message.ends_with(
                "a run that comes to that match (after a late withdrawal) stops there (E0718)"
            ),
            "{message}"
        );
    }
}
