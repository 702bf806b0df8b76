//! The federation's computations (allocation, seeding, vacancies) as calls of the
//! edition's own rules on a TOML file.
//!
//! A command names a rule of the edition and the values it gives itself (the
//! discipline); every other parameter of the rule is read from the file's top-level
//! key of the same name, converted to the parameter's declared type: a number in its
//! unit, an enum by its name or label, text, true/false, a TOML date-time, a list
//! (an array, or an array of tables for a list of records), a record (a table, by
//! the record's declared fields). A list the file leaves out is empty. Nothing of
//! the computation is here: the rule is `.bfr`, evaluated with tracing; this module
//! reads and shows values.

use crate::diag::Diagnostic;
use crate::eval::Evaluator;
use crate::eval::trace::{EXPLAIN_CALLS, TraceNode};
use crate::ir::commands::Unique;
use crate::ir::{Date, Program, Type, Value};
use crate::source::{FileId, Span};
use crate::spanned::bound;
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The diagnostic codes of one command.
#[derive(Debug, Clone, Copy)]
pub struct Codes {
    /// The file is not TOML, or not the shape the command reads.
    pub syntax: &'static str,
    /// A value the rule's types do not allow (missing, unknown, of the wrong kind).
    pub value: &'static str,
    /// The edition lacks the rule, or the rule's shape does not fit the command.
    pub rule: &'static str,
    /// The rule stopped with an error while computing.
    pub eval: &'static str,
}

/// The codes of `bfr seed` and `bfr vacancies`.
pub const CODES: Codes = Codes {
    syntax: "E1110",
    value: "E1111",
    rule: "E1112",
    eval: "E1113",
};

/// A rule's answer and why.
#[derive(Debug, Clone)]
pub struct Called {
    /// The value the rule gave.
    pub value: Value,
    /// The inventory IDs of every rule that took part, in the order first used.
    pub rule_ids: Vec<String>,
    /// The rules that took part: the first [`EXPLAIN_CALLS`] calls, as `bfr
    /// explain` shows them.
    pub trace: Vec<TraceNode>,
    /// How many calls past those were counted, not recorded.
    pub trace_left_out: u64,
    /// The arguments read from the file, by parameter name.
    pub read: Vec<(String, Value)>,
}

/// A command's call: the rule, the values the command gives (its first
/// parameters), the file and what the file is called in words.
pub struct Call<'a> {
    /// The command's key in the edition's `federation` block (`ir::commands`),
    /// which names the rule.
    pub key: &'a str,
    /// The first arguments, given by the command line.
    pub given: Vec<Value>,
    /// What the file is, in words ("a pairs file").
    pub what: &'a str,
    /// Where the file's layout is described.
    pub doc: &'a str,
    /// The codes.
    pub codes: Codes,
}

/// Calls the rule the edition gives `call.key` with the command's values and the
/// file `text` (file `file`).
pub fn call(
    program: &Program,
    call: &Call,
    text: &str,
    file: FileId,
) -> Result<Called, Diagnostic> {
    let span = |r: Range<usize>| Span {
        file,
        start: u32::try_from(r.start).unwrap_or(u32::MAX),
        end: u32::try_from(r.end).unwrap_or(u32::MAX),
    };
    let codes = call.codes;
    let (index, rule) = program
        .command_rule(call.key)
        .ok_or_else(|| no_rule(call.key, call.doc, codes.rule))?;
    let body = crate::spanned::without_bom(text);
    if let Some(at) = bound::past(&body, bound::Notation::Toml, bound::MAX_VALUES) {
        let e = crate::spanned::too_many_values(at);
        return Err(Diagnostic::error(codes.syntax, e.message, span(e.span))
            .with_label("this value is one too many")
            .with_help("a festival's file holds far fewer; check that this is the file meant"));
    }
    let table = DeTable::parse(&body).map_err(|e| {
        Diagnostic::error(
            codes.syntax,
            format!(
                "this is not {}: {}",
                call.what,
                crate::spanned::plain_depth(e.message().trim())
            ),
            span(e.span().unwrap_or(0..0)),
        )
        .with_label("here")
        .with_help(format!("write the file as {} shows", call.doc))
    })?;
    // The checker read the edition's `_unique` names with the same count.
    debug_assert_eq!(
        crate::ir::commands::command(call.key).map(|c| c.given),
        Some(call.given.len()),
        "the command line gives {} values to `{}`",
        call.given.len(),
        call.key
    );
    let from_file: Vec<&(String, Type)> = rule.params.iter().skip(call.given.len()).collect();
    let names: Vec<&str> = from_file.iter().map(|(n, _)| n.as_str()).collect();
    if let Some((key, value)) = table
        .get_ref()
        .iter()
        .find(|(k, _)| !names.contains(&k.get_ref().as_ref()))
    {
        return Err(Diagnostic::error(
            codes.value,
            format!("`{}` is not a key of {}", key.get_ref(), call.what),
            span(key.span().start..value.span().end),
        )
        .with_label("not read by this command")
        .with_help(format!("the file gives: {}", names.join(", "))));
    }
    let reader = Reader {
        program,
        text: &body,
        span: &span,
        code: codes.value,
    };
    let mut args = call.given.clone();
    let mut read = Vec::new();
    for (name, ty) in from_file {
        let value = match table.get_ref().get(name.as_str()) {
            Some(v) => reader.value(ty, v, name)?,
            None if matches!(ty, Type::List(_)) => Value::List(Vec::new()),
            None => {
                return Err(Diagnostic::error(
                    codes.value,
                    format!("{} gives no `{name}`", call.what),
                    span(0..0),
                )
                .with_label(format!("`{name} = …` is missing"))
                .with_help(format!("the file gives: {}", names.join(", "))));
            }
        };
        read.push((name.clone(), value.clone()));
        args.push(value);
    }
    for unique in program.command_unique(call.key) {
        repeated(&reader, unique, table.get_ref(), &read, call.what)?;
    }
    // Bounded as `bfr explain`'s: a rule called with the whole field, for
    // every pair of it, records millions of calls with long inputs.
    let mut ev = Evaluator::tracing(program);
    ev.limit_trace(EXPLAIN_CALLS);
    let value = ev.call(index, args, span(0..0)).map_err(|e| {
        // The rule's expression that stopped is the place to look; the file
        // is named by its first entry, since no one entry is at fault.
        let file_start = first_entry(&body);
        Diagnostic::error(
            codes.eval,
            format!(
                "the edition's `{}` cannot compute this: {}",
                rule.name, e.message
            ),
            e.span,
        )
        .with_label(format!("stopped here: {}", e.message))
        .with_note(span(file_start), "the file it was computing for")
    })?;
    let trace_left_out = ev.trace().map_or(0, |t| t.left_out());
    let rule_ids = ev.trace().map(|t| t.rule_ids(program)).unwrap_or_default();
    let trace = ev.into_trace();
    Ok(Called {
        value,
        rule_ids,
        trace,
        trace_left_out,
        read,
    })
}

/// The first entry of the file that names again what an earlier entry named,
/// where the edition says the file names it once (`vacancies_unique`).
fn repeated(
    reader: &Reader,
    unique: &Unique,
    table: &DeTable,
    read: &[(String, Value)],
    what: &str,
) -> Result<(), Diagnostic> {
    let Some((_, Value::List(items))) = read.iter().find(|(n, _)| *n == unique.list) else {
        return Ok(());
    };
    let written = match table.get(unique.list.as_str()).map(Spanned::get_ref) {
        Some(DeValue::Array(written)) => written,
        _ => return Ok(()),
    };
    let mut first: HashMap<Key, usize> = HashMap::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let Some(key) = compared(reader.program, item, unique.field.as_deref()) else {
            continue;
        };
        let Some(&i) = first.get(&key) else {
            first.insert(key, j);
            continue;
        };
        let at = |k: usize| -> Range<usize> {
            let entry = written.get(k);
            let field = unique
                .field
                .as_deref()
                .and_then(|f| match entry?.get_ref() {
                    DeValue::Table(t) => t.get(f),
                    _ => None,
                });
            field.or(entry).map_or(0..0, Spanned::span)
        };
        let place = |k: usize| match &unique.field {
            Some(f) => format!("{}[{}].{f}", unique.list, k + 1),
            None => format!("{}[{}]", unique.list, k + 1),
        };
        let written = |k: usize| -> String {
            let text = reader.text.get(at(k)).unwrap_or_default();
            text.chars().take(40).collect()
        };
        let (again, first_written) = (written(j), written(i));
        // `Skåne` after `Skane`: one district by its label and its name.
        let same = if again == first_written {
            String::new()
        } else {
            format!(" (the same as {first_written})")
        };
        let entries = match &unique.field {
            Some(f) => format!("two entries of `{}` the same `{f}`", unique.list),
            None => format!("the same value twice in `{}`", unique.list),
        };
        return Err(Diagnostic::error(
            reader.code,
            format!(
                "`{}` names {again}{same}, which `{}` names already",
                place(j),
                place(i)
            ),
            (reader.span)(at(j)),
        )
        .with_label("a second time")
        .with_note((reader.span)(at(i)), "the first time")
        .with_help(format!(
            "the edition says {what} never gives {entries}: remove the repeat or, if they are two, write them so they differ (an initial, a club)"
        )));
    }
    Ok(())
}

/// What a value of a list the file names once is compared by: equal values,
/// equal keys.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A number or a length of time, normalised: `1.0` is `1`.
    Number(Decimal),
    Text(String),
    Bool(bool),
    Date(Date),
    /// Minutes since midnight.
    Time(u16),
    DateTime(Date, u16),
    /// An enum's value, however the file wrote it (by its name or its label).
    Enum(u32, u32),
}

/// What `item` (or its `field`) is compared by; `None` for a field the record
/// lacks, or a value a federation file cannot give (the check refuses a list
/// or a record compared).
fn compared(program: &Program, item: &Value, field: Option<&str>) -> Option<Key> {
    let value = match (field, item) {
        (None, v) => v,
        (Some(f), Value::Record(r, values)) => {
            let info = program.records.get(*r as usize)?;
            let i = info.fields.iter().position(|(n, _)| n == f)?;
            values.get(i)?
        }
        (Some(_), _) => return None,
    };
    Some(match value {
        Value::Num(n, _) | Value::Duration(n) => Key::Number(n.normalize()),
        Value::Text(t) => Key::Text(t.clone()),
        Value::Bool(b) => Key::Bool(*b),
        Value::Date(d) => Key::Date(*d),
        Value::Time(t) => Key::Time(*t),
        Value::DateTime(d, t) => Key::DateTime(*d, *t),
        Value::Enum(e, v) => Key::Enum(*e, *v),
        _ => return None,
    })
}

/// The byte range of the file's first line that is neither blank nor a comment.
fn first_entry(body: &str) -> Range<usize> {
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            let start = at + (line.len() - line.trim_start().len());
            return start..start + trimmed.len();
        }
        at += line.len();
    }
    0..body.len().min(1)
}

/// Converts TOML values to the edition's types.
struct Reader<'a> {
    program: &'a Program,
    text: &'a str,
    span: &'a dyn Fn(Range<usize>) -> Span,
    code: &'static str,
}

impl Reader<'_> {
    /// The first line of `at` (a table's header, or its first field).
    fn first_line(&self, at: &Range<usize>) -> Range<usize> {
        let text = self.text.get(at.clone()).unwrap_or_default();
        let end = text.find('\n').map_or(at.end, |n| at.start + n);
        at.start
            ..end
                .max(at.start.saturating_add(1))
                .min(self.text.len().max(at.start))
    }

    fn wrong(&self, name: &str, at: Range<usize>, why: String) -> Diagnostic {
        let written = self.text.get(at.clone()).unwrap_or_default();
        let shown: String = written.chars().take(40).collect();
        Diagnostic::error(
            self.code,
            format!("`{name}` cannot be {shown}: {why}"),
            (self.span)(at),
        )
        .with_label(why)
    }

    /// `v` as a value of type `ty`; `name` says where it stands.
    fn value(&self, ty: &Type, v: &Spanned<DeValue>, name: &str) -> Result<Value, Diagnostic> {
        let at = v.span();
        match (ty, v.get_ref()) {
            (Type::List(item), DeValue::Array(items)) => {
                let mut out = Vec::new();
                for (i, x) in items.iter().enumerate() {
                    out.push(self.value(item, x, &format!("{name}[{}]", i + 1))?);
                }
                Ok(Value::List(out))
            }
            (Type::Record(r), DeValue::Table(t)) => self.record(*r, t, at, name),
            // TOML writes years 0000 to 9999; the calendar starts at year 1.
            (Type::DateTime | Type::Date, DeValue::Datetime(d))
                if d.date.is_some_and(|date| date.year == 0) =>
            {
                Err(self.wrong(name, at, "there is no year 0: write a year from 0001".into()))
            }
            (Type::DateTime, DeValue::Datetime(d)) => match (d.date, d.time, d.offset) {
                // Times count whole minutes: a second is refused, never dropped.
                (Some(_), Some(time), None)
                    if time.second.unwrap_or(0) != 0 || time.nanosecond.unwrap_or(0) != 0 =>
                {
                    Err(self.wrong(
                        name,
                        at,
                        "times count whole minutes: write it without seconds, like 2015-07-30T09:00"
                            .into(),
                    ))
                }
                (Some(date), Some(time), None) => Ok(Value::DateTime(
                    Date {
                        year: i16::try_from(date.year).unwrap_or(i16::MAX),
                        month: i8::try_from(date.month).unwrap_or(0),
                        day: i8::try_from(date.day).unwrap_or(0),
                    },
                    u16::from(time.hour) * 60 + u16::from(time.minute),
                )),
                _ => Err(self.wrong(
                    name,
                    at,
                    "it must be a local date and time, like 2015-07-30T09:00".into(),
                )),
            },
            (Type::Date, DeValue::Datetime(d)) => match (d.date, d.time) {
                (Some(date), None) => Ok(Value::Date(Date {
                    year: i16::try_from(date.year).unwrap_or(i16::MAX),
                    month: i8::try_from(date.month).unwrap_or(0),
                    day: i8::try_from(date.day).unwrap_or(0),
                })),
                _ => Err(self.wrong(name, at, "it must be a date, like 2015-07-30".into())),
            },
            (_, value) => {
                let written = self.text.get(at.clone()).unwrap_or_default();
                scalar(self.program, ty, value, written).map_err(|why| self.wrong(name, at, why))
            }
        }
    }

    /// A table as a value of record `r`, field by field as the edition declares it.
    fn record(
        &self,
        r: u32,
        table: &DeTable,
        at: Range<usize>,
        name: &str,
    ) -> Result<Value, Diagnostic> {
        let Some(info) = self.program.records.get(r as usize) else {
            return Err(Diagnostic::error(
                self.code,
                "the edition's record is missing",
                Span::default(),
            )
            .nowhere());
        };
        let wanted: Vec<&str> = info.fields.iter().map(|(n, _)| n.as_str()).collect();
        if let Some((key, _)) = table
            .iter()
            .find(|(k, _)| !wanted.contains(&k.get_ref().as_ref()))
        {
            return Err(Diagnostic::error(
                self.code,
                format!("`{name}` has no field `{}`", key.get_ref()),
                (self.span)(key.span()),
            )
            .with_label(format!("not a field of the edition's {}", info.name))
            .with_help(format!("the fields are: {}", wanted.join(", "))));
        }
        let mut values = Vec::new();
        for (field, ty) in &info.fields {
            let Some(v) = table.get(field.as_str()) else {
                return Err(Diagnostic::error(
                    self.code,
                    format!("this `{name}` gives no `{field}`"),
                    (self.span)(self.first_line(&at)),
                )
                .with_label(format!("`{field} = …` is missing here"))
                .with_help(format!("the fields are: {}", wanted.join(", "))));
            };
            values.push(self.value(ty, v, &format!("{name}.{field}"))?);
        }
        Ok(Value::Record(r, values.into_boxed_slice()))
    }
}

/// A variant of enum `e` by its name or its label, as [`crate::names::find_one`]
/// finds it (`dam`, `oppen`).
pub fn enum_value(program: &Program, e: u32, written: &str) -> Option<Value> {
    let v = variant(program, e, written)?;
    Some(Value::Enum(e, v))
}

/// The variant of enum `e` whose name or label is `written`, as
/// [`crate::names::find_one`] finds it.
pub fn variant(program: &Program, e: u32, written: &str) -> Option<u32> {
    let info = program.enums.get(e as usize)?;
    let spellings = |i: usize| {
        let label = info.labels.get(i).and_then(Option::as_deref);
        std::iter::once(info.variants[i].as_str()).chain(label)
    };
    let v = crate::names::find_variant(info.variants.len(), written, spellings)?;
    u32::try_from(v).ok()
}

/// The variants of enum `e`.
pub fn variants(program: &Program, e: u32) -> Vec<String> {
    program
        .enums
        .get(e as usize)
        .map_or_else(Vec::new, |i| i.variants.clone())
}

/// Why a number is refused: it is read exactly as written or not at all.
const EXACT_NUMBER: &str = "it must be a number written in decimals, without an exponent, \
     that a decimal holds exactly (at most 28 places after the point)";

/// A scalar TOML value as a value of type `ty`; the reason in words if it is not one.
fn scalar(program: &Program, ty: &Type, v: &DeValue, written: &str) -> Result<Value, String> {
    match (ty, v) {
        (Type::Enum(e), DeValue::String(s)) => enum_value(program, *e, s)
            .ok_or_else(|| format!("it must be one of {}", variants(program, *e).join(", "))),
        (Type::Num(unit), DeValue::Integer(_) | DeValue::Float(_)) => {
            // Exactly as written: a number a decimal would round (more than
            // 28 places after the point, or past its range), or an exponent,
            // is refused.
            let n = Decimal::from_str_exact(written.trim().replace('_', "").as_str())
                .map_err(|_| EXACT_NUMBER.to_string())?;
            let info = unit
                .as_base()
                .and_then(|b| program.units.iter().find(|u| u.name == b));
            match info {
                Some(u) if u.count && (n < Decimal::ZERO || !n.fract().is_zero()) => {
                    return Err(format!("it counts {unit}: a whole number from 0"));
                }
                Some(u) if u.whole && !n.fract().is_zero() => {
                    return Err(format!("it is in whole {unit}: a whole number"));
                }
                _ => {}
            }
            Ok(Value::Num(n, unit.clone()))
        }
        (Type::Bool, DeValue::Boolean(b)) => Ok(Value::Bool(*b)),
        (Type::Text, DeValue::String(s)) => Ok(Value::Text(s.to_string())),
        (Type::Enum(_), _) => Err("it must be a name in quotes".into()),
        (Type::Num(_), _) => Err("it must be a number".into()),
        (Type::Bool, _) => Err("it must be true or false".into()),
        (Type::Text, _) => Err("it must be text in quotes".into()),
        (Type::List(_), _) => Err("it must be a list in [ ]".into()),
        (Type::Record(_), _) => Err("it must be a table".into()),
        _ => Err(format!("a file cannot give {}", program.type_name(ty))),
    }
}

/// A value shown as tables: a list of records is one table; a record's list
/// fields are tables and its other fields are figures.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// `(name, value)` of every field that is not a table.
    pub figures: Vec<(String, String)>,
    /// The tables.
    pub tables: Vec<Table>,
}

/// A table of records.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// The field it came from (empty for the whole answer).
    pub name: String,
    /// The record's field names.
    pub columns: Vec<String>,
    /// One row per record, values as the edition writes them.
    pub rows: Vec<Vec<String>>,
}

/// The value `v` as figures and tables.
pub fn show(program: &Program, v: &Value) -> Shown {
    let mut shown = Shown {
        figures: Vec::new(),
        tables: Vec::new(),
    };
    match v {
        Value::List(rows) => shown.tables.push(table(program, "", rows)),
        Value::Record(r, values) => {
            let names = program.records.get(*r as usize).map_or_else(Vec::new, |i| {
                i.fields.iter().map(|(n, _)| n.clone()).collect()
            });
            for (name, value) in names.iter().zip(values) {
                match value {
                    Value::List(rows) if rows.iter().all(|x| matches!(x, Value::Record(..))) => {
                        shown.tables.push(table(program, name, rows));
                    }
                    _ => shown.figures.push((name.clone(), words(program, value))),
                }
            }
        }
        other => shown.figures.push((String::new(), words(program, other))),
    }
    shown
}

/// Records as a table.
pub fn table(program: &Program, name: &str, rows: &[Value]) -> Table {
    let mut columns = Vec::new();
    let mut out = Vec::new();
    for row in rows {
        let Value::Record(r, values) = row else {
            continue;
        };
        if columns.is_empty() {
            columns = program.records.get(*r as usize).map_or_else(Vec::new, |i| {
                i.fields.iter().map(|(n, _)| n.clone()).collect()
            });
        }
        out.push(values.iter().map(|v| words(program, v)).collect());
    }
    Table {
        name: name.to_string(),
        columns,
        rows: out,
    }
}

/// A value in the edition's words: an enum by its label, text as it is, a list's
/// values in those words, separated by commas.
pub fn words(program: &Program, v: &Value) -> String {
    match v {
        Value::List(xs) => xs
            .iter()
            .map(|x| words(program, x))
            .collect::<Vec<_>>()
            .join(", "),
        _ => crate::schedule::words(program, v),
    }
}

/// The command `key`'s rule is not named by the edition: `code` (E1104, E1112).
pub fn no_rule(key: &str, doc: &str, code: &'static str) -> Diagnostic {
    let command = crate::ir::commands::command(key).map_or(key, |c| c.command);
    Diagnostic::error(
        code,
        format!("the edition does not say which of its rules `{command}` calls"),
        Span::default(),
    )
    .nowhere()
    .with_help(format!(
        "add `{key} = RULE` to the edition's `federation` block; see {doc} for the rule's parameters"
    ))
}

#[cfg(test)]
mod tests {
    use super::{compared, scalar};
    use crate::ir::{Program, RecordInfo, Type, Unit, UnitInfo, Value};
    use rust_decimal::Decimal;
    use toml::de::DeTable;

    /// A count (players) takes whole numbers from 0; a `whole` unit (an IMP
    /// margin) whole numbers of either sign; each refuses a fraction.
    #[test]
    fn a_count_is_read_from_0_and_a_whole_unit_of_either_sign() {
        let mut p = Program::default();
        for (name, count) in [("player", true), ("IMP", false)] {
            p.units.push(UnitInfo {
                name: name.into(),
                description: None,
                whole: true,
                count,
                aliases: Vec::new(),
                span: Default::default(),
            });
        }
        let read = |unit: &str, written: &str| {
            let text = format!("x = {written}");
            let table = DeTable::parse(&text).expect("a TOML value");
            let v = table.get_ref().get("x").expect("x").get_ref();
            scalar(&p, &Type::Num(Unit::base(unit)), v, written).map(|v| v.show(&p))
        };
        assert_eq!(read("player", "0"), Ok("0 player".into()));
        assert_eq!(
            read("player", "-1"),
            Err("it counts player: a whole number from 0".into())
        );
        assert_eq!(read("IMP", "-5"), Ok("-5 IMP".into()));
        assert_eq!(
            read("IMP", "1.5"),
            Err("it is in whole IMP: a whole number".into())
        );
        assert_eq!(
            read("player", "1.5"),
            Err("it counts player: a whole number from 0".into())
        );
    }

    fn program() -> Program {
        let mut p = Program::default();
        p.records.push(RecordInfo {
            name: "Entry".into(),
            fields: vec![
                ("name".into(), Type::Text),
                ("score".into(), Type::Num(Unit::none())),
            ],
            source: None,
            span: Default::default(),
        });
        p
    }

    fn entry(name: &str, score: Decimal) -> Value {
        Value::Record(
            0,
            vec![Value::Text(name.into()), Value::Num(score, Unit::none())].into(),
        )
    }

    #[test]
    fn values_equal_as_the_rules_compare_them_have_one_key() {
        let p = program();
        let key = |v: &Value, f: Option<&str>| compared(&p, v, f);
        // 1.0 and 1 are one number; a name's case makes another name.
        assert_eq!(
            key(&entry("Ek", Decimal::new(10, 1)), Some("score")),
            key(&entry("Holm", Decimal::ONE), Some("score"))
        );
        assert_ne!(
            key(&entry("Ek", Decimal::ONE), Some("name")),
            key(&entry("EK", Decimal::ONE), Some("name"))
        );
        assert_eq!(key(&Value::Enum(3, 1), None), key(&Value::Enum(3, 1), None));
        assert_ne!(key(&Value::Enum(3, 1), None), key(&Value::Enum(3, 2), None));
        // A field the record lacks, or a field of a single value, compares nothing.
        assert_eq!(key(&entry("Ek", Decimal::ONE), Some("team")), None);
        assert_eq!(key(&Value::Text("Ek".into()), Some("name")), None);
    }
}
