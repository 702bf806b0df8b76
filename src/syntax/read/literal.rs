//! Tokens of the grammar's atomic rules: strings, numbers, units, dates, times,
//! durations and quantities, lowered as `syntax::lower` lowers them.

use super::{Bytes, Reader};
use crate::syntax::ast::*;
use rust_decimal::Decimal;
use std::str::FromStr;

impl Reader<'_> {
    /// `string = ${ "\"" ~ string_inner ~ "\"" }`: its text with escapes resolved,
    /// and where it starts.
    pub(super) fn string(&mut self) -> Option<(String, usize)> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        if bytes.get(start) != Some(&b'"') {
            return None;
        }
        let mut at = start + 1;
        let mut value = String::new();
        let mut plain_from = at;
        loop {
            match bytes.get(at) {
                Some(b'"') => break,
                Some(b'\\') => {
                    // `"\\" ~ ANY`: the escaped character, whatever it is.
                    let escaped = self.text.get(at + 1..)?.chars().next()?;
                    value.push_str(self.text.get(plain_from..at)?);
                    value.push(if escaped == 'n' { '\n' } else { escaped });
                    at += 1 + escaped.len_utf8();
                    plain_from = at;
                }
                Some(_) => at += 1,
                None => return None,
            }
        }
        value.push_str(self.text.get(plain_from..at)?);
        self.pos = at + 1;
        Some((value, start))
    }

    /// `number = @{ ASCII_DIGIT+ ~ ("." ~ ASCII_DIGIT+)? }`: its byte range.
    pub(super) fn number(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        let digits = |from: usize| {
            self.text.as_bytes().get(from..).map_or(0, |rest| {
                rest.iter().take_while(|b| b.is_ascii_digit()).count()
            })
        };
        let whole = digits(start);
        if whole == 0 {
            return None;
        }
        let mut end = start + whole;
        if self.text.as_bytes().get(end) == Some(&b'.') {
            let fraction = digits(end + 1);
            if fraction > 0 {
                end += 1 + fraction;
            }
        }
        self.pos = end;
        Some((start, end))
    }

    /// The value of a number token; a number too large for a decimal is left to
    /// pest and the lowering, which say so.
    pub(super) fn decimal(&mut self, (start, end): (usize, usize)) -> Option<Decimal> {
        match self.text.get(start..end).map(Decimal::from_str) {
            Some(Ok(d)) => Some(d),
            _ => self.give_up(),
        }
    }

    /// `unit_name = @{ "%"? ~ !keyword ~ ident_start ~ ident_char* }`
    fn unit_name(&mut self) -> bool {
        let before = self.pos;
        self.eat("%");
        if self.ident().is_some() {
            true
        } else {
            self.pos = before;
            false
        }
    }

    /// `unit_expr = @{ unit_name ~ ("/" ~ unit_name)* }`, split into its names
    /// as the lowering splits it.
    pub(super) fn unit_expr(&mut self) -> Option<UnitExpr> {
        let start = self.pos;
        if !self.unit_name() {
            return None;
        }
        loop {
            let before = self.pos;
            if !(self.eat("/") && self.unit_name()) {
                self.pos = before;
                break;
            }
        }
        let text = self.text.get(start..self.pos)?;
        let mut num = Vec::with_capacity(1);
        let mut den = Vec::with_capacity(text.matches('/').count());
        let mut offset = start;
        for (i, part) in text.split('/').enumerate() {
            let name = self.name((offset, offset + part.len()));
            offset += part.len() + 1;
            if i == 0 {
                num.push(name);
            } else {
                den.push(name);
            }
        }
        Some(UnitExpr {
            num: num.into(),
            den: den.into(),
            span: self.span(start, self.pos),
        })
    }

    /// `(" " | "\t")*` inside a quantity or a duration.
    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// `" "+`
    fn spaces(&mut self) -> bool {
        let start = self.pos;
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        self.pos > start
    }

    /// `quantity = ${ number ~ (" " | "\t")* ~ unit_expr }`
    pub(super) fn quantity(&mut self) -> Option<Expr> {
        let start = self.pos;
        let n = self.number()?;
        self.blanks();
        let Some(unit) = self.unit_expr() else {
            self.pos = start;
            return None;
        };
        let value = self.decimal(n)?;
        Some(Expr {
            kind: ExprKind::Quantity(value, Box::new(unit)),
            span: self.span(start, self.pos),
        })
    }

    /// `dur_part = ${ number ~ (" " | "\t")* ~ dur_unit }`: the number and the
    /// unit's range.
    fn dur_part(&mut self) -> Option<((usize, usize), (usize, usize))> {
        let start = self.pos;
        let n = self.number()?;
        self.blanks();
        let unit_start = self.pos;
        // `dur_unit = @{ ("h" | "min" | "s") ~ !ident_char ~ !"/" }`
        let unit = ["h", "min", "s"].into_iter().find(|u| self.at_str(u));
        let fits = unit.is_some_and(|u| {
            let end = unit_start + u.len();
            !super::ident_char_at(self.text, end) && self.text.as_bytes().get(end) != Some(&b'/')
        });
        match unit {
            Some(u) if fits => {
                self.pos = unit_start + u.len();
                Some((n, (unit_start, self.pos)))
            }
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// `duration = ${ dur_part ~ (" "+ ~ dur_part)* }`, in seconds.
    pub(super) fn duration(&mut self) -> Option<Expr> {
        let start = self.pos;
        let mut parts = vec![self.dur_part()?];
        loop {
            let before = self.pos;
            let next = if self.spaces() { self.dur_part() } else { None };
            match next {
                Some(part) => parts.push(part),
                None => {
                    self.pos = before;
                    break;
                }
            }
        }
        let mut seconds = Decimal::ZERO;
        let mut last_rank = 0u8;
        for (n, (us, ue)) in parts {
            let (factor, rank) = match self.text.get(us..ue) {
                Some("h") => (Decimal::from(3600), 1),
                Some("min") => (Decimal::from(60), 2),
                _ => (Decimal::ONE, 3),
            };
            // Out of order or too large: the lowering's diagnostics.
            if rank <= last_rank {
                return self.give_up();
            }
            last_rank = rank;
            let value = self.decimal(n)?;
            match value
                .checked_mul(factor)
                .and_then(|v| seconds.checked_add(v))
            {
                Some(s) => seconds = s,
                None => return self.give_up(),
            }
        }
        Some(Expr {
            kind: ExprKind::Duration(seconds),
            span: self.span(start, self.pos),
        })
    }

    /// `weekday = @{ ("Mon" | … | "Sun") ~ !ident_char }`
    fn weekday(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            .into_iter()
            .find(|d| self.at_str(d))?;
        let end = start + day.len();
        if super::ident_char_at(self.text, end) {
            return None;
        }
        self.pos = end;
        Some((start, end))
    }

    /// `n` ASCII digits at byte `at`.
    fn digits_at(&self, at: usize, n: usize) -> bool {
        self.text
            .as_bytes()
            .get(at..at + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    }

    /// `date = @{ ASCII_DIGIT{4} ~ "-" ~ ASCII_DIGIT{2} ~ "-" ~ ASCII_DIGIT{2} ~ !ASCII_DIGIT }`
    fn date(&mut self) -> Option<(usize, usize)> {
        let at = self.pos;
        let b = self.text.as_bytes();
        let shape = self.digits_at(at, 4)
            && b.get(at + 4) == Some(&b'-')
            && self.digits_at(at + 5, 2)
            && b.get(at + 7) == Some(&b'-')
            && self.digits_at(at + 8, 2)
            && !b.get(at + 10).is_some_and(u8::is_ascii_digit);
        shape.then(|| {
            self.pos = at + 10;
            (at, at + 10)
        })
    }

    /// `clock = @{ ASCII_DIGIT{2} ~ ":" ~ ASCII_DIGIT{2} ~ !ASCII_DIGIT }`
    fn clock(&mut self) -> Option<(usize, usize)> {
        let at = self.pos;
        let b = self.text.as_bytes();
        let shape = self.digits_at(at, 2)
            && b.get(at + 2) == Some(&b':')
            && self.digits_at(at + 3, 2)
            && !b.get(at + 5).is_some_and(u8::is_ascii_digit);
        shape.then(|| {
            self.pos = at + 5;
            (at, at + 5)
        })
    }

    /// `(weekday ~ " "+)? ~ date`, the start of `date_lit` and `datetime`.
    fn dated(&mut self) -> Option<(Option<Bytes>, Bytes)> {
        let start = self.pos;
        let weekday = match self.weekday() {
            Some(w) if self.spaces() => Some(w),
            _ => {
                self.pos = start;
                None
            }
        };
        match self.date() {
            Some(d) => Some((weekday, d)),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `datetime = ${ (weekday ~ " "+)? ~ date ~ " "+ ~ clock }`
    fn datetime(&mut self) -> Option<Expr> {
        let start = self.pos;
        let (weekday, date) = self.dated()?;
        let clock = if self.spaces() { self.clock() } else { None };
        let Some(clock) = clock else {
            self.pos = start;
            return None;
        };
        let end = self.pos;
        let minutes = self.minutes(clock)?;
        let date = self.date_value(weekday, date, (start, end))?;
        Some(Expr {
            kind: ExprKind::DateTime(Box::new(date), minutes),
            span: self.span(start, end),
        })
    }

    /// `date_lit = ${ (weekday ~ " "+)? ~ date }`
    pub(super) fn date_lit(&mut self) -> Option<Expr> {
        let start = self.pos;
        let (weekday, date) = self.dated()?;
        let date = self.date_value(weekday, date, (start, self.pos))?;
        Some(Expr {
            kind: ExprKind::Date(Box::new(date)),
            span: self.span(start, self.pos),
        })
    }

    /// `time_lit = ${ clock }`
    fn time_lit(&mut self) -> Option<Expr> {
        let start = self.pos;
        let clock = self.clock()?;
        let minutes = self.minutes(clock)?;
        Some(Expr {
            kind: ExprKind::Time(minutes),
            span: self.span(start, self.pos),
        })
    }

    /// Minutes after midnight; a time that is not one is the lowering's diagnostic.
    fn minutes(&mut self, (start, end): (usize, usize)) -> Option<u16> {
        let s = self.text.get(start..end)?;
        let (h, m) = s.split_once(':')?;
        match (h.parse::<u16>(), m.parse::<u16>()) {
            (Ok(h), Ok(m)) if h <= 23 && m <= 59 => Some(h * 60 + m),
            _ => self.give_up(),
        }
    }

    /// A date in the calendar; one that is not is the lowering's diagnostic.
    fn date_value(
        &mut self,
        weekday: Option<(usize, usize)>,
        (start, end): (usize, usize),
        (lit_start, lit_end): (usize, usize),
    ) -> Option<DateLit> {
        let text = self.text.get(start..end)?;
        let field = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<i16>().ok());
        let (Some(year), Some(month), Some(day)) = (field(0..4), field(5..7), field(8..10)) else {
            return self.give_up();
        };
        let valid = year >= crate::eval::arith::FIRST_YEAR
            && jiff::civil::Date::new(year, month as i8, day as i8).is_ok();
        if !valid {
            return self.give_up();
        }
        let weekday = match weekday {
            Some((a, b)) => Some((self.text.get(a..b)?.to_string(), self.span(a, b))),
            None => None,
        };
        Some(DateLit {
            weekday,
            year,
            month: month as i8,
            day: day as i8,
            span: self.span(lit_start, lit_end),
        })
    }

    /// `bound_literal = _{ datetime | date_lit | time_lit | duration | quantity | number }`
    pub(super) fn bound_literal(&mut self) -> Option<Expr> {
        if let Some(e) = self.datetime() {
            return Some(e);
        }
        if self.unsure {
            return None;
        }
        if let Some(e) = self.date_lit() {
            return Some(e);
        }
        if self.unsure {
            return None;
        }
        if let Some(e) = self.time_lit() {
            return Some(e);
        }
        if self.unsure {
            return None;
        }
        self.number_literal()
    }

    /// `duration | quantity | number`, in that order.
    fn number_literal(&mut self) -> Option<Expr> {
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        if let Some(e) = self.duration() {
            return Some(e);
        }
        if let Some(e) = self.quantity() {
            return Some(e);
        }
        if self.unsure {
            return None;
        }
        let start = self.pos;
        let n = self.number()?;
        let value = self.decimal(n)?;
        Some(Expr {
            kind: ExprKind::Number(value),
            span: self.span(start, self.pos),
        })
    }

    /// `literal = _{ &literal_start ~ (datetime | … | number | string) | boolean }`
    pub(super) fn literal(&mut self) -> Option<Expr> {
        let start = self.pos;
        match self.peek() {
            Some(b'"') => {
                let (value, _) = self.string()?;
                Some(Expr {
                    kind: ExprKind::Text(value),
                    span: self.span(start, self.pos),
                })
            }
            Some(b'0'..=b'9' | b'F'..=b'W') => self.bound_literal(),
            _ => {
                let value = if self.eat("true") {
                    true
                } else if self.eat("false") {
                    false
                } else {
                    return None;
                };
                Some(Expr {
                    kind: ExprKind::Bool(value),
                    span: self.span(start, self.pos),
                })
            }
        }
    }
}
