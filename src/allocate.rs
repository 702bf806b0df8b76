//! `bfr allocate`: the edition's allocation rule (SM-ALLOC) applied to a starts
//! file.
//!
//! The allocation itself is the edition's `.bfr` rule `sm_allocation(discipline,
//! places, field)`; this module only reads the starts file into the rule's own
//! record type, field by field as the edition declares them (a district is written
//! by its enum name or label, a count in the field's unit), calls the rule with
//! tracing, and hands back the records it returns. No figure and no field name of
//! the allocation is written here.

use crate::diag::Diagnostic;
use crate::eval::Evaluator;
use crate::eval::trace::TraceNode;
use crate::ir::{Program, Type, Unit, Value};
use crate::source::{FileId, Span};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::str::FromStr;
use toml::Spanned;

/// The edition's rule that allocates places.
pub const RULE: &str = "sm_allocation";

/// A starts file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartsFile {
    /// The places to allocate.
    places: Spanned<u32>,
    /// One table per district, keyed by the edition's record fields.
    district: Vec<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
}

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
    /// The places allocated.
    pub places: u32,
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
    /// The rules that took part.
    pub trace: Vec<TraceNode>,
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
    let span = |r: std::ops::Range<usize>| Span {
        file,
        start: u32::try_from(r.start).unwrap_or(u32::MAX),
        end: u32::try_from(r.end).unwrap_or(u32::MAX),
    };
    let (index, rule) = program.rule(RULE).ok_or_else(|| {
        Error::Diagnostic(
            Diagnostic::error(
                "E1104",
                format!("the edition has no rule `{RULE}`, which allocating places needs"),
                Span::default(),
            )
            .nowhere()
            .with_help("see docs/schedule.md for the rule's parameters"),
        )
    })?;
    let shape = match rule.params.as_slice() {
        [
            (_, Type::Enum(e)),
            (_, Type::Num(unit)),
            (_, Type::List(item)),
        ] => match (&**item, &rule.ret) {
            (Type::Record(r), Type::List(out)) if matches!(**out, Type::Record(_)) => {
                Some((*e, unit.clone(), *r))
            }
            _ => None,
        },
        _ => None,
    };
    let Some((discipline_enum, places_unit, record)) = shape else {
        return Err(Error::Diagnostic(
            Diagnostic::error(
                "E1104",
                format!(
                    "the edition's `{RULE}` must take (a discipline, the places, a list of records) and give a list of records"
                ),
                rule.span,
            )
            .with_label("allocating places calls this rule"),
        ));
    };
    let discipline_value = enum_value(program, discipline_enum, discipline)
        .ok_or_else(|| Error::Discipline(variants(program, discipline_enum)))?;
    let starts: StartsFile = toml::from_str(text).map_err(|e| {
        Error::Diagnostic(
            Diagnostic::error(
                "E1102",
                format!("this is not a starts file: {}", e.message().trim()),
                span(e.span().unwrap_or(0..0)),
            )
            .with_label("here")
            .with_help(
                "write `places = N` and one `[[district]]` table per district (docs/schedule.md)",
            ),
        )
    })?;
    let mut field = Vec::new();
    for d in &starts.district {
        field.push(district(program, record, d, text, &span).map_err(Error::Diagnostic)?);
    }
    let places = Value::Num(Decimal::from(*starts.places.get_ref()), places_unit);
    let mut ev = Evaluator::tracing(program);
    let result = ev
        .call(
            index,
            vec![discipline_value.clone(), places, Value::List(field)],
            span(starts.places.span()),
        )
        .map_err(|e| {
            Error::Diagnostic(
                Diagnostic::error(
                    "E1103",
                    format!("the allocation cannot be computed: {}", e.message),
                    span(starts.places.span()),
                )
                .with_label("allocating these places"),
            )
        })?;
    let trace = ev.into_trace();
    let mut rule_ids = Vec::new();
    collect_ids(&trace, &mut rule_ids);
    let Value::List(rows) = result else {
        return Err(Error::Diagnostic(
            Diagnostic::error("E1104", format!("`{RULE}` gave no list"), rule.span).nowhere(),
        ));
    };
    let (columns, lines) = lines(program, &rows);
    // The result's field named like the rule's `places` parameter is what each
    // district gets; the lines must add up to the places allocated.
    let places_name = rule.params.get(1).map_or("", |(n, _)| n.as_str());
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
        .fold(Decimal::ZERO, |a, b| a + b);
    Ok(Allocation {
        discipline: crate::schedule::words(program, &discipline_value),
        places: *starts.places.get_ref(),
        total: program.show_num(total, places_unit_of(rule)),
        complete: total == Decimal::from(*starts.places.get_ref()),
        columns,
        lines,
        rule_ids,
        trace,
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

fn collect_ids(nodes: &[TraceNode], ids: &mut Vec<String>) {
    for n in nodes {
        if let Some(s) = &n.source
            && !ids.contains(&s.id)
        {
            ids.push(s.id.clone());
        }
        collect_ids(&n.children, ids);
    }
}

/// A variant of enum `e` by its name or its label.
fn enum_value(program: &Program, e: u32, written: &str) -> Option<Value> {
    let info = program.enums.get(e as usize)?;
    let by_name = info.variants.iter().position(|v| v == written);
    let by_label = || {
        info.labels
            .iter()
            .position(|l| l.as_deref() == Some(written))
    };
    let v = by_name.or_else(by_label)?;
    Some(Value::Enum(e, u32::try_from(v).ok()?))
}

fn variants(program: &Program, e: u32) -> Vec<String> {
    program
        .enums
        .get(e as usize)
        .map_or_else(Vec::new, |i| i.variants.clone())
}

/// One `[[district]]` table as a value of the edition's record.
fn district(
    program: &Program,
    record: u32,
    table: &Spanned<BTreeMap<String, Spanned<toml::Value>>>,
    text: &str,
    span: &dyn Fn(std::ops::Range<usize>) -> Span,
) -> Result<Value, Diagnostic> {
    let Some(info) = program.records.get(record as usize) else {
        return Err(
            Diagnostic::error("E1104", "the edition's record is missing", Span::default())
                .nowhere(),
        );
    };
    let wanted: Vec<&str> = info.fields.iter().map(|(n, _)| n.as_str()).collect();
    if let Some((key, value)) = table
        .get_ref()
        .iter()
        .find(|(k, _)| !wanted.contains(&k.as_str()))
    {
        return Err(Diagnostic::error(
            "E1103",
            format!("a district has no `{key}`"),
            span(value.span()),
        )
        .with_label("not a field of the edition's district record")
        .with_help(format!("the fields are: {}", wanted.join(", "))));
    }
    let mut values = Vec::new();
    for (name, ty) in &info.fields {
        let Some(value) = table.get_ref().get(name) else {
            return Err(Diagnostic::error(
                "E1103",
                format!("this district gives no `{name}`"),
                span(table.span()),
            )
            .with_label(format!("`{name} = …` is missing here"))
            .with_help(format!("the fields are: {}", wanted.join(", "))));
        };
        let written = text.get(value.span()).unwrap_or_default();
        let converted = convert(program, ty, value.get_ref(), written).map_err(|why| {
            Diagnostic::error(
                "E1103",
                format!("`{name}` cannot be {written}: {why}"),
                span(value.span()),
            )
            .with_label(why)
        })?;
        values.push(converted);
    }
    Ok(Value::Record(record, values))
}

/// A TOML value as a value of type `ty`; the reason in words if it is not one.
fn convert(program: &Program, ty: &Type, v: &toml::Value, written: &str) -> Result<Value, String> {
    match (ty, v) {
        (Type::Enum(e), toml::Value::String(s)) => enum_value(program, *e, s)
            .ok_or_else(|| format!("it must be one of {}", variants(program, *e).join(", "))),
        (Type::Num(unit), toml::Value::Integer(_) | toml::Value::Float(_)) => {
            let n = Decimal::from_str(written).map_err(|_| "it must be a number".to_string())?;
            let whole = unit
                .as_base()
                .is_some_and(|b| program.units.iter().any(|u| u.name == b && u.whole));
            if whole && (n.is_sign_negative() || !n.fract().is_zero()) {
                return Err(format!("it counts {unit}: a whole number from 0"));
            }
            Ok(Value::Num(n, unit.clone()))
        }
        (Type::Bool, toml::Value::Boolean(b)) => Ok(Value::Bool(*b)),
        (Type::Text, toml::Value::String(s)) => Ok(Value::Text(s.clone())),
        (Type::Enum(_), _) => Err("it must be a name in quotes".into()),
        (Type::Num(_), _) => Err("it must be a number".into()),
        (Type::Bool, _) => Err("it must be true or false".into()),
        _ => Err(format!(
            "a starts file cannot give {}",
            program.type_name(ty)
        )),
    }
}
