//! The edition's rules an entries check and an invoice call, and the calls
//! themselves: each goes through the evaluator with tracing, so every figure
//! carries the rules (and their inventory IDs) that made it.
//!
//! Entries name no figure: a team size, a fee or a deadline is whatever the
//! edition's rule returns. The edition says which of its rules answers which
//! question (`entries { question = rule … }`, typed at check time against
//! `ir::entries`), the way a competition names its VP scale. A question the edition
//! leaves unanswered is an `E0802` naming it, never a wrong figure.

use crate::eval::Evaluator;
use crate::eval::trace::TraceNode;
use crate::ir::entries;
use crate::ir::{Date, Program, Type, Value};
use crate::source::Span;
use rust_decimal::Decimal;
use serde::Serialize;

/// An argument of a rule call, typed by what the entries know; its unit or enum
/// comes from the rule's own parameter.
#[derive(Debug, Clone)]
pub enum Arg {
    /// A count or a quantity, in the unit the parameter declares.
    Count(i64),
    /// A truth value.
    Bool(bool),
    /// A date and minutes since midnight.
    Stamp(Date, u16),
    /// An enum variant, by its index in the parameter's enum.
    Variant(u32),
}

/// The result of one rule call: the value, how it reads, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// The call as an editor would write it, e.g. `cc_gh_entry_fee(seniors = 4 players, …)`.
    pub call: String,
    /// The value as the edition writes it, e.g. `2000 SEK`.
    pub shown: String,
    /// The inventory IDs of every rule that took part, first seen first.
    pub rule_ids: Vec<String>,
    /// The full trace.
    pub trace: Vec<TraceNode>,
    /// The value.
    #[serde(skip)]
    pub value: Value,
}

impl Figure {
    /// The value as a truth value (`None` if it is not one).
    pub fn truth(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The value's number, whatever its unit (`None` if it is not a number).
    pub fn amount(&self) -> Option<Decimal> {
        match self.value {
            Value::Num(n, _) => Some(n),
            _ => None,
        }
    }

    /// The rule IDs joined for a message: `CC-FEE, SM-CLASS`.
    pub fn ids(&self) -> String {
        self.rule_ids.join(", ")
    }
}

/// Asks the edition question `key` (one of `ir::entries::QUESTIONS`) with named
/// arguments, tracing: the rule its `entries` block names for the question is
/// called with the arguments in the question's order. The error says, in words,
/// what the edition lacks.
pub fn call(program: &Program, key: &str, args: &[(&str, Arg)]) -> Result<Figure, String> {
    let question = entries::question(key)
        .ok_or_else(|| format!("checking entries asks `{key}`, which is no question of bfr's"))?;
    let index = *program.entry_rules.get(key).ok_or_else(|| {
        format!(
            "the edition does not say which rule answers `{key}`, which checking entries needs: add `{key} = RULE` to its `entries` block"
        )
    })?;
    let rule = program
        .rules
        .get(index as usize)
        .ok_or_else(|| format!("the edition's answer to `{key}` is not a rule"))?;
    let name = rule.name.as_str();
    let mut values = Vec::with_capacity(args.len());
    for (i, ((param, _), (_, ty))) in question.params.iter().zip(&rule.params).enumerate() {
        let arg = args
            .iter()
            .find(|(n, _)| n == param)
            .map(|(_, a)| a)
            .ok_or_else(|| format!("checking entries gives `{key}` no `{param}`"))?;
        values.push(value_of(arg, ty).ok_or_else(|| {
            format!(
                "the edition's `{name}` takes {} where `{key}` passes `{param}`",
                program.param_type_name(rule, i)
            )
        })?);
    }
    // Bounded as `bfr explain`'s: the call and the rule IDs come from the
    // first calls recorded.
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(crate::eval::trace::EXPLAIN_CALLS);
    let nowhere = Span {
        file: u32::MAX,
        start: 0,
        end: 0,
    };
    let value = ev
        .call(index, values, nowhere)
        .map_err(|e| format!("`{name}` cannot be evaluated: {}", e.message))?;
    let rule_ids = ev.trace().map(|t| t.rule_ids(program)).unwrap_or_default();
    let trace = ev.into_trace();
    let call = trace.first().map_or_else(
        || name.to_string(),
        |node| {
            let args: Vec<String> = node
                .inputs
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            if args.is_empty() {
                name.to_string()
            } else {
                format!("{name}({})", args.join(", "))
            }
        },
    );
    Ok(Figure {
        call,
        shown: value.show(program),
        rule_ids,
        trace,
        value,
    })
}

/// The source ID of the rule answering question `key` (for a message about it), or
/// the key.
pub fn rule_id(program: &Program, key: &str) -> String {
    program
        .entry_rules
        .get(key)
        .and_then(|i| program.rules.get(*i as usize))
        .and_then(|r| r.source.as_ref().map(|s| s.id.to_string()))
        .unwrap_or_else(|| key.to_string())
}

fn value_of(arg: &Arg, ty: &Type) -> Option<Value> {
    match (arg, ty) {
        (Arg::Count(n), Type::Num(unit)) => Some(Value::Num(Decimal::from(*n), unit.clone())),
        (Arg::Bool(b), Type::Bool) => Some(Value::Bool(*b)),
        (Arg::Stamp(d, m), Type::DateTime) => Some(Value::DateTime(*d, *m)),
        (Arg::Stamp(d, _), Type::Date) => Some(Value::Date(*d)),
        (Arg::Variant(v), Type::Enum(e)) => Some(Value::Enum(*e, *v)),
        _ => None,
    }
}
