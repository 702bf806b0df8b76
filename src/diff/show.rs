//! Rules as text for comparing two editions: every index (rule, enum, record,
//! local slot) is written as the name it stands for, spans take no part, and the
//! old edition's dates can be shifted by a calendar offset so that a rule whose
//! only change is the new year's calendar compares equal.

use crate::ir::{Bound, Date, Expr, ExprKind, Program, Value};
use std::collections::BTreeMap;

/// Writes values and expressions of one program.
#[derive(Clone, Copy)]
pub struct Shower<'p> {
    /// The program the indices belong to.
    pub program: &'p Program,
    /// Days added to every date written (0: dates as they are).
    pub shift_days: i64,
    /// Rules written under another name (the old edition's renamed rules, by
    /// their new names), so that a caller of a renamed rule compares equal.
    pub renames: Option<&'p BTreeMap<String, String>>,
}

impl<'p> Shower<'p> {
    /// Writes dates as they are.
    pub fn new(program: &'p Program) -> Self {
        Shower {
            program,
            shift_days: 0,
            renames: None,
        }
    }

    /// The old edition's writer: dates moved by `days`, renamed rules under
    /// their new names.
    pub fn old(program: &'p Program, days: i64, renames: &'p BTreeMap<String, String>) -> Self {
        Shower {
            program,
            shift_days: days,
            renames: Some(renames),
        }
    }

    /// Writes dates moved by `days`.
    pub fn shifted(program: &'p Program, days: i64) -> Self {
        Shower {
            program,
            shift_days: days,
            renames: None,
        }
    }

    /// This writer for `rule`: dates as they are where the rule holds another
    /// document's fact (`cites`), which a new year's calendar does not move.
    pub fn keeping_dates_of(self, rule: &crate::ir::Rule) -> Self {
        match rule.cites {
            Some(_) => Shower {
                shift_days: 0,
                ..self
            },
            None => self,
        }
    }

    /// A date, moved by the shift.
    pub fn date(&self, d: Date) -> Date {
        shift_date(d, self.shift_days)
    }

    /// A value as an editor writes it.
    pub fn value(&self, v: &Value) -> String {
        match v {
            Value::Date(d) => self.date(*d).to_string(),
            Value::DateTime(d, m) => Value::DateTime(self.date(*d), *m).show(self.program),
            Value::List(items) => {
                let shown: Vec<String> = items.iter().map(|x| self.value(x)).collect();
                format!("[{}]", shown.join(", "))
            }
            Value::Record(r, fields) => {
                let info = self.program.records.get(*r as usize);
                let parts: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let name = info
                            .and_then(|inf| inf.fields.get(i))
                            .map_or("?", |(n, _)| n.as_str());
                        format!("{name}: {}", self.value(f))
                    })
                    .collect();
                let name = info.map_or("?", |i| i.name.as_str());
                format!("{name} {{ {} }}", parts.join(", "))
            }
            other => other.show(self.program),
        }
    }

    /// A scale row's range, from its bounds: `over 10 min up to 15 min`.
    pub fn range(&self, lower: Option<&Bound>, upper: Option<&Bound>) -> String {
        let lo = lower.map(|b| {
            let word = if b.inclusive { "from" } else { "over" };
            format!("{word} {}", self.value(&b.value))
        });
        let hi = upper.map(|b| {
            let word = if b.inclusive { "up to" } else { "under" };
            format!("{word} {}", self.value(&b.value))
        });
        match (lo, hi) {
            (Some(l), Some(h)) => format!("{l} {h}"),
            (Some(l), None) => l,
            (None, Some(h)) => h,
            (None, None) => "any".into(),
        }
    }

    /// An expression in the language's own notation; `params` names the first
    /// local slots, and later slots (`let`, list functions) are written `_N`.
    pub fn expr(&self, e: &Expr, params: &[String]) -> String {
        let mut out = String::new();
        self.write(e, params, &mut out);
        out
    }

    /// The name a rule is written with (its new name, if renamed).
    pub fn rule_name(&self, i: u32) -> &str {
        let name = self
            .program
            .rules
            .get(i as usize)
            .map_or("?", |r| r.name.as_str());
        self.renames
            .and_then(|r| r.get(name))
            .map_or(name, String::as_str)
    }

    fn list(&self, items: &[Expr], params: &[String], out: &mut String) {
        for (n, x) in items.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            self.write(x, params, out);
        }
    }

    fn local(slot: u32, params: &[String]) -> String {
        params
            .get(slot as usize)
            .cloned()
            .unwrap_or_else(|| format!("_{slot}"))
    }

    fn write(&self, e: &Expr, params: &[String], out: &mut String) {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || self.write_kind(e, params, out));
    }

    fn write_kind(&self, e: &Expr, params: &[String], out: &mut String) {
        match &e.kind {
            ExprKind::Lit(v) => out.push_str(&self.value(v)),
            ExprKind::Local(slot) => out.push_str(&Self::local(*slot, params)),
            ExprKind::Call(i, args) => {
                out.push_str(self.rule_name(*i));
                if !args.is_empty() || self.is_callable(*i) {
                    out.push('(');
                    self.list(args, params, out);
                    out.push(')');
                }
            }
            ExprKind::RuleRef(i) => out.push_str(self.rule_name(*i)),
            ExprKind::Builtin(b, args) => {
                out.push_str(b.name());
                out.push('(');
                self.list(args, params, out);
                out.push(')');
            }
            ExprKind::Neg(x) => self.wrap("-", x, "", params, out),
            ExprKind::Not(x) => self.wrap("not (", x, ")", params, out),
            ExprKind::Deduct(x) => self.wrap("deduct ", x, "", params, out),
            ExprKind::Binary(op, a, b) => {
                out.push('(');
                self.write(a, params, out);
                out.push_str(&format!(" {} ", op.symbol()));
                self.write(b, params, out);
                out.push(')');
            }
            ExprKind::If(c, a, b) => {
                self.wrap("if ", c, " then ", params, out);
                self.wrap("", a, " else ", params, out);
                self.write(b, params, out);
            }
            ExprKind::Let(slot, v, body) => {
                out.push_str(&format!("let {} = ", Self::local(*slot, params)));
                self.wrap("", v, " in ", params, out);
                self.write(body, params, out);
            }
            ExprKind::Match(x, arms) => self.write_match(x, arms, params, out),
            ExprKind::Record(r, fields) => {
                let info = self.program.records.get(*r as usize);
                out.push_str(info.map_or("?", |i| i.name.as_str()));
                out.push_str(" { ");
                for (n, f) in fields.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    let name = info
                        .and_then(|i| i.fields.get(n))
                        .map_or("?", |(f, _)| f.as_str());
                    out.push_str(name);
                    out.push_str(": ");
                    self.write(f, params, out);
                }
                out.push_str(" }");
            }
            ExprKind::Field(x, i) => {
                self.write(x, params, out);
                out.push_str(&format!(".{}", self.field_name(&x.ty, *i)));
            }
            ExprKind::List(items) => {
                out.push('[');
                self.list(items, params, out);
                out.push(']');
            }
            ExprKind::Index(xs, i) => {
                self.write(xs, params, out);
                self.wrap("[", i, "]", params, out);
            }
            ExprKind::Loop {
                op,
                list,
                init,
                slots,
                body,
            } => {
                out.push_str(op.name());
                out.push('(');
                self.write(list, params, out);
                if let Some(init) = init {
                    self.wrap(", ", init, "", params, out);
                }
                let names: Vec<String> = slots.iter().map(|s| Self::local(*s, params)).collect();
                out.push_str(&format!(", ({}) => ", names.join(", ")));
                self.write(body, params, out);
                out.push(')');
            }
        }
    }

    fn wrap(&self, before: &str, x: &Expr, after: &str, params: &[String], out: &mut String) {
        out.push_str(before);
        self.write(x, params, out);
        out.push_str(after);
    }

    fn write_match(
        &self,
        x: &Expr,
        arms: &[(Option<u32>, Expr)],
        params: &[String],
        out: &mut String,
    ) {
        let variants = match &x.ty {
            crate::ir::Type::Enum(i) => self.program.enums.get(*i as usize),
            _ => None,
        };
        self.wrap("match ", x, " { ", params, out);
        for (n, (v, arm)) in arms.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            let name = match v {
                None => "_",
                Some(v) => variants
                    .and_then(|e| e.variants.get(*v as usize))
                    .map_or("?", |s| s.as_str()),
            };
            out.push_str(name);
            self.wrap(" => ", arm, "", params, out);
        }
        out.push_str(" }");
    }

    fn is_callable(&self, i: u32) -> bool {
        self.program
            .rules
            .get(i as usize)
            .is_some_and(|r| !r.params.is_empty())
    }

    fn field_name(&self, ty: &crate::ir::Type, i: u32) -> String {
        match ty {
            crate::ir::Type::Record(r) => self
                .program
                .records
                .get(*r as usize)
                .and_then(|info| info.fields.get(i as usize))
                .map_or_else(|| format!("{i}"), |(n, _)| n.clone()),
            _ => format!("{i}"),
        }
    }
}

/// `text` (a part of a rules file) on one line: `//` comments left out, each run
/// of blanks (line ends too) one space, none at either end; quoted texts as they
/// are.
pub(super) fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut blank = false;
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
            blank = true;
            continue;
        }
        if c.is_whitespace() || c == '\u{FEFF}' {
            blank = true;
            continue;
        }
        if blank && !out.is_empty() {
            out.push(' ');
        }
        blank = false;
        out.push(c);
        if c == '"' {
            while let Some(q) = chars.next() {
                out.push(q);
                match q {
                    '\\' => out.extend(chars.next()),
                    '"' => break,
                    _ => {}
                }
            }
        }
    }
    out
}

/// `d` moved by `days` (the same date if the calendar has no such day).
pub fn shift_date(d: Date, days: i64) -> Date {
    if days == 0 {
        return d;
    }
    d.civil()
        .and_then(|c| c.checked_add(jiff::Span::new().days(days)).ok())
        .map_or(d, Date::from_civil)
}

/// The number of days from `a` to `b`.
pub fn days_between(a: Date, b: Date) -> i64 {
    b.day_number() - a.day_number()
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn a_part_of_a_rules_file_is_shown_on_one_line_without_comments() {
        let text = "{\n  // the cap\n  let fee = a  *  b; // per team\n  min(fee, \"x  // y\")\n}";
        assert_eq!(one_line(text), "{ let fee = a * b; min(fee, \"x  // y\") }");
        assert_eq!(one_line("  \"a \\\" b\"  "), "\"a \\\" b\"");
        assert_eq!(one_line(" // only a comment"), "");
    }
}
