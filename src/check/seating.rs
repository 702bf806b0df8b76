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
    let lengths = [
        (fixed, boards_at, ""),
        (
            stage.withdrawal_boards,
            withdrawal_at,
            ", the length the late-withdrawal rules put in place of its own",
        ),
    ];
    let mut out = Vec::new();
    for (boards, at, whose) in lengths {
        let (Some(boards), Some(at)) = (boards, at) else {
            continue;
        };
        let arg = match program
            .rules
            .get(rule.rule as usize)
            .and_then(|r| r.params.first())
        {
            Some((_, Type::Num(unit))) => Value::Num(Decimal::from(boards), unit.clone()),
            _ => Value::Num(Decimal::from(boards), Unit::none()),
        };
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
                    "stage `{}` has no seating rule for a match of {boards} boards{whose}: {why}; a run stops at that match (E0718)",
                    stage.name
                ),
                at,
            )
            .with_label(format!("{boards} boards"))
            .with_note(
                program
                    .rules
                    .get(rule.rule as usize)
                    .map_or(stage.span, |r| r.span),
                "the seating rule",
            )
            .with_help(format!(
                "give the stage a length `{}` seats, or give the seating rule a row for {boards} boards (the organisers' decision, as a reading)",
                rule.name
            )),
        );
    }
    out
}
