//! `bfr allocate`: the edition's allocation rule (SM-ALLOC) applied to a starts
//! file.
//!
//! The allocation itself is the edition's `.bfr` rule (2015: `sm_allocation(discipline,
//! places, field)`), the one its `federation` block names `allocation`; this module only reads the starts file into the rule's own
//! record type, field by field as the edition declares them (a district is written
//! by its enum name or label, a count in the field's unit), calls the rule with
//! tracing, and hands back the records it returns. No figure and no field name of
//! the allocation is written here.

use crate::diag::Diagnostic;
use crate::eval::trace::TraceNode;
use crate::federation::{self, Call, Codes, enum_value, variants};
use crate::ir::{Program, Type, Unit, Value};
use crate::source::FileId;
use rust_decimal::Decimal;
use serde::Serialize;

/// The codes of `bfr allocate`.
const CODES: Codes = Codes {
    syntax: "E1102",
    value: "E1103",
    rule: "E1104",
    eval: "E1103",
};

/// The key of the edition's `federation` block that names the allocation rule.
pub const KEY: &str = "allocation";

/// One district's line of the result: the record's fields by name, as the
/// edition writes the values.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// `(field, value as written)`, in the record's order.
    pub fields: Vec<(String, String)>,
}

/// An allocation: the rule's answer and why.
#[derive(Debug, Clone, Serialize)]
pub struct Allocation {
    /// The discipline, as the edition names it.
    pub discipline: String,
    /// The places the file asks to allocate.
    pub places: String,
    /// The places the lines add up to.
    pub total: String,
    /// Whether they add up to the places allocated (guaranteed places beyond the
    /// places to allocate make more).
    pub complete: bool,
    /// The field names of the result record, in order.
    pub columns: Vec<String>,
    /// One line per district, in the file's order.
    pub lines: Vec<Line>,
    /// The inventory IDs of every rule that took part.
    pub rule_ids: Vec<String>,
    /// The rules that took part: the first calls, as `bfr explain` shows them.
    pub trace: Vec<TraceNode>,
    /// How many calls past those were counted, not recorded (left out of
    /// JSON when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub trace_left_out: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why an allocation could not be made.
#[derive(Debug)]
pub enum Error {
    /// The discipline is not a value of the rule's first parameter: the
    /// alternatives.
    Discipline(Vec<String>),
    /// A diagnostic (pointing into the starts file where it can).
    Diagnostic(Diagnostic),
}

/// Allocates `discipline`'s places over the districts of the starts file `text`
/// (file `file` of the run's sources).
pub fn allocate(
    program: &Program,
    discipline: &str,
    text: &str,
    file: FileId,
) -> Result<Allocation, Error> {
    let (_, rule) = program
        .command_rule(KEY)
        .ok_or_else(|| Error::Diagnostic(federation::no_rule(KEY, "docs/schedule.md", "E1104")))?;
    if let Some(why) = crate::ir::commands::misfit(KEY, rule) {
        return Err(Error::Diagnostic(
            Diagnostic::error(
                "E1104",
                format!("the edition's `{}` must {why}", rule.name),
                rule.span,
            )
            .with_label("allocating places calls this rule"),
        ));
    }
    let Some((_, Type::Enum(discipline_enum))) = rule.params.first() else {
        return Err(Error::Diagnostic(
            Diagnostic::error("E1104", "internal error: no discipline", rule.span).nowhere(),
        ));
    };
    let discipline_enum = *discipline_enum;
    let discipline_value = enum_value(program, discipline_enum, discipline)
        .ok_or_else(|| Error::Discipline(variants(program, discipline_enum)))?;
    let call = Call {
        key: KEY,
        given: vec![discipline_value.clone()],
        what: "a starts file",
        doc: "docs/schedule.md",
        codes: CODES,
    };
    let called = federation::call(program, &call, text, file).map_err(Error::Diagnostic)?;
    let places_name = rule.params.get(1).map_or("", |(n, _)| n.as_str());
    let asked = called
        .read
        .iter()
        .find(|(n, _)| n == places_name)
        .and_then(|(_, v)| match v {
            Value::Num(n, _) => Some(*n),
            _ => None,
        })
        .unwrap_or_default();
    let Value::List(rows) = called.value else {
        return Err(Error::Diagnostic(
            Diagnostic::error("E1104", format!("`{}` gave no list", rule.name), rule.span)
                .nowhere(),
        ));
    };
    let (columns, lines) = lines(program, &rows);
    // The result's field named like the rule's `places` parameter is what each
    // district gets; the lines must add up to the places allocated.
    let position = columns.iter().position(|c| c == places_name);
    let total = rows
        .iter()
        .filter_map(|r| match (r, position) {
            (Value::Record(_, fs), Some(p)) => match fs.get(p) {
                Some(Value::Num(n, _)) => Some(*n),
                _ => None,
            },
            _ => None,
        })
        .try_fold(Decimal::ZERO, |a, b| a.checked_add(b))
        .ok_or_else(|| {
            Error::Diagnostic(
                Diagnostic::error(
                    CODES.eval,
                    format!(
                        "the places of `{}`'s lines add up to more than a number holds",
                        rule.name
                    ),
                    rule.span,
                )
                .with_help("each line's places must be a count of places the rule allocates")
                .nowhere(),
            )
        })?;
    Ok(Allocation {
        discipline: crate::schedule::words(program, &discipline_value),
        places: asked.to_string(),
        total: program.show_num(total, places_unit_of(rule)),
        complete: total == asked,
        columns,
        lines,
        rule_ids: called.rule_ids,
        trace: called.trace,
        trace_left_out: called.trace_left_out,
    })
}

/// The unit of the rule's `places` parameter.
fn places_unit_of(rule: &crate::ir::Rule) -> &Unit {
    match rule.params.get(1) {
        Some((_, Type::Num(u))) => u,
        _ => &EMPTY,
    }
}

static EMPTY: std::sync::LazyLock<Unit> = std::sync::LazyLock::new(Unit::none);

/// The result records as lines of words.
fn lines(program: &Program, rows: &[Value]) -> (Vec<String>, Vec<Line>) {
    let mut columns = Vec::new();
    let mut out = Vec::new();
    for row in rows {
        let Value::Record(r, values) = row else {
            continue;
        };
        let info = program.records.get(*r as usize);
        if columns.is_empty() {
            columns = info.map_or_else(Vec::new, |i| {
                i.fields.iter().map(|(n, _)| n.clone()).collect()
            });
        }
        let fields = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = columns.get(i).cloned().unwrap_or_default();
                (name, crate::schedule::words(program, v))
            })
            .collect();
        out.push(Line { fields });
    }
    (columns, out)
}
