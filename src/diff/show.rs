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

    /// Text as an edition writes it (a body, an assertion), each date in it
    /// moved by the shift, a weekday written before one made the new date's:
    /// the old edition's text as the calendar would move it, to be put beside
    /// the new one's. Quoted texts are left as they are.
    pub fn moved_text(&self, text: &str) -> String {
        if self.shift_days == 0 {
            return text.to_string();
        }
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut quoted = false;
        let mut i = 0;
        while let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
            let date = (!quoted)
                .then(|| date_at(text, i))
                .flatten()
                .filter(|_| i == 0 || !bytes[i - 1].is_ascii_digit());
            if let Some(d) = date {
                let moved = self.date(d);
                let weekday = out
                    .len()
                    .checked_sub(4)
                    .and_then(|w| out.get(w..))
                    .filter(|w| {
                        w.ends_with(' ') && w.get(..3).is_some_and(|d| WEEKDAYS.contains(&d))
                    });
                match weekday {
                    Some(_) => {
                        out.truncate(out.len() - 4);
                        out.push_str(&moved.to_string());
                    }
                    None => {
                        out.push_str(&moved.civil().map_or_else(String::new, |c| c.to_string()))
                    }
                }
                i += 10;
                continue;
            }
            if c == '"' {
                quoted = !quoted;
            } else if c == '\\' && quoted {
                // An escaped character, the quote too, stays inside the text.
                out.push(c);
                i += 1;
                if let Some(next) = text.get(i..).and_then(|r| r.chars().next()) {
                    out.push(next);
                    i += next.len_utf8();
                }
                continue;
            }
            out.push(c);
            i += c.len_utf8();
        }
        out
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

/// The span `start..end` of `text` widened to the brackets its expression
/// needs: an operand's span leaves out the brackets around it, so an
/// expression that starts or ends with one (`(a + 1) * b`, `a * (b - 1)`) is
/// spanned without them. Brackets in quoted texts and comments do not count.
pub(super) fn bracketed(text: &str, start: usize, end: usize) -> (usize, usize) {
    let Some(inner) = text.get(start..end) else {
        return (start, end);
    };
    let (mut depth, mut lowest) = (0i64, 0i64);
    let mut quoted = false;
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' if quoted => {
                chars.next();
            }
            '/' if !quoted && chars.as_str().starts_with('/') => {
                chars = chars
                    .as_str()
                    .split_once('\n')
                    .map_or("", |(_, rest)| rest)
                    .chars();
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted => {
                depth -= 1;
                lowest = lowest.min(depth);
            }
            _ => {}
        }
    }
    let (mut start, mut end) = (start, end);
    // Closed before opened: the opening brackets stand before the span.
    for _ in 0..-lowest {
        match text.get(..start).map(without_layout_at_end) {
            Some(before) if before.ends_with('(') => start = before.len() - 1,
            _ => break,
        }
    }
    // Opened and not closed: the closing brackets stand after it.
    for _ in 0..depth - lowest {
        let Some(after) = text.get(end..).map(without_layout_at_start) else {
            break;
        };
        if after.starts_with(')') {
            end = text.len() - after.len() + 1;
        } else {
            break;
        }
    }
    (start, end)
}

/// `text` without the blanks and `//` comments it ends with.
fn without_layout_at_end(mut text: &str) -> &str {
    loop {
        text = text.trim_end();
        let line = text.rfind('\n').map_or(0, |n| n + 1);
        match comment_in(&text[line..]) {
            Some(at) => text = &text[..line + at],
            None => return text,
        }
    }
}

/// `text` without the blanks and `//` comments it starts with.
fn without_layout_at_start(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        match text.strip_prefix("//") {
            Some(comment) => text = comment.split_once('\n').map_or("", |(_, rest)| rest),
            None => return text,
        }
    }
}

/// Where a `//` comment starts in one line, outside quoted texts.
fn comment_in(line: &str) -> Option<usize> {
    let mut quoted = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' if quoted => {
                chars.next();
            }
            '/' if !quoted && chars.peek().is_some_and(|(_, n)| *n == '/') => return Some(at),
            _ => {}
        }
    }
    None
}

/// The weekdays as a date is written with one.
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// The date `YYYY-MM-DD` written at byte `at` of `text`, not followed by a digit.
fn date_at(text: &str, at: usize) -> Option<Date> {
    let written = text.get(at..at + 10)?;
    let shape = written.bytes().enumerate().all(|(k, b)| match k {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    let followed = text.as_bytes().get(at + 10).is_some_and(u8::is_ascii_digit);
    if !shape || followed {
        return None;
    }
    written
        .parse::<jiff::civil::Date>()
        .ok()
        .map(Date::from_civil)
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

    #[test]
    fn an_expression_is_widened_to_the_brackets_it_needs() {
        let widened = |text: &str, inner: &str| {
            let start = text.find(inner).unwrap();
            let (a, b) = super::bracketed(text, start, start + inner.len());
            text[a..b].to_string()
        };
        let text = "fn f(x: number) -> number = 2 * ( x - 1 )\n";
        assert_eq!(widened(text, "2 * ( x - 1"), "2 * ( x - 1 )");
        let text = "fn f(x: number) -> number = (x + 1) * 2\n";
        assert_eq!(widened(text, "x + 1) * 2"), "(x + 1) * 2");
        let text = "fn f(x: number) -> number = ((x + 1) * (x - 1))\n";
        assert_eq!(widened(text, "x + 1) * (x - 1"), "(x + 1) * (x - 1)");
        // A comment between the bracket and the expression is passed over.
        let text = "fn f(x: number) -> number = ( // why\n x + 1) * 2\n";
        assert_eq!(widened(text, "x + 1) * 2"), "( // why\n x + 1) * 2");
        let text = "fn f(x: number) -> number = 2 * (x + 1 // c\n )\n";
        assert_eq!(widened(text, "2 * (x + 1"), "2 * (x + 1 // c\n )");
        assert_eq!(super::comment_in("a \"//\" b // c"), Some(9));
        // Balanced already, or brackets in a text: as spanned.
        assert_eq!(
            widened("= f(x) + g(\")\")", "f(x) + g(\")\")"),
            "f(x) + g(\")\")"
        );
    }

    #[test]
    fn an_old_text_has_its_dates_moved_as_the_calendar_moves_them() {
        let program = crate::ir::Program::default();
        let shower = super::Shower::shifted(&program, 364);
        assert_eq!(
            shower.moved_text("d >= Sat 2015-07-25 and d < 2015-08-01 and n == \"2015-07-25\""),
            "d >= Sat 2016-07-23 and d < 2016-07-30 and n == \"2015-07-25\""
        );
        // Another shift changes the weekday written before a date.
        let shower = super::Shower::shifted(&program, 1);
        assert_eq!(
            shower.moved_text("Fri 2015-07-24 20:00"),
            "Sat 2015-07-25 20:00"
        );
        assert_eq!(shower.moved_text("12015-07-240"), "12015-07-240");
        assert_eq!(
            super::Shower::new(&program).moved_text("2015-07-24"),
            "2015-07-24"
        );
    }
}
