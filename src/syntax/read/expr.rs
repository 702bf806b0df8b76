//! Expressions, rule by rule as the grammar writes them and built as the
//! lowering builds them: precedence by two levels per rule, spans of operands
//! joined, prefix operators spanning their whole rule.

use super::{MAX_NESTING, MAX_RECURSION, Reader};
use crate::syntax::ast::*;

/// Operators of one rule's chain, in order, each with the operand after it.
type Chain = Vec<(BinOp, Expr)>;

impl Reader<'_> {
    /// An expression that the lowering starts at depth zero (a body, a row, an
    /// assertion): its nesting is counted afresh.
    pub(super) fn root_expr(&mut self) -> Option<Expr> {
        self.nesting = 0;
        self.expr()
    }

    /// Counts nesting the lowering would add; past the bound, pest reads the item.
    fn nest(&mut self, levels: usize) -> Option<()> {
        self.nesting += levels;
        if self.nesting > MAX_NESTING {
            return self.give_up();
        }
        Some(())
    }

    /// `expr = { open_ended | not_term ~ ((or_op | and_op) ~ not_term)* }`,
    /// `open_ended = _{ if_expr | let_expr }`
    pub(super) fn expr(&mut self) -> Option<Expr> {
        self.recursion += 1;
        let out = if self.recursion > MAX_RECURSION {
            self.give_up()
        } else {
            match self.open_ended() {
                Some(e) => Some(e),
                None if self.unsure => None,
                None => self.or_chain(),
            }
        };
        self.recursion -= 1;
        out
    }

    /// `open_ended = _{ if_expr | let_expr }`
    fn open_ended(&mut self) -> Option<Expr> {
        self.first_of(&[Self::if_expr, Self::let_expr])
    }

    /// An ordered choice: the first of `tries` that reads, each from the same
    /// place; where none does the position is left where it was (and `unsure`
    /// says whether the text was left to pest).
    fn first_of(&mut self, tries: &[fn(&mut Self) -> Option<Expr>]) -> Option<Expr> {
        let start = self.pos;
        for t in tries {
            if let Some(e) = t(self) {
                return Some(e);
            }
            if self.unsure {
                return None;
            }
            self.pos = start;
        }
        None
    }

    fn or_chain(&mut self) -> Option<Expr> {
        let first = self.not_term()?;
        self.skip();
        let chain = self.chain(Self::not_term, |r| {
            if r.eat("or") {
                Some(BinOp::Or)
            } else if r.eat("and") {
                Some(BinOp::And)
            } else {
                None
            }
        });
        self.fold(first, chain, |op| op == BinOp::And)
    }

    /// `(op ~ operand)*` after a first operand and the layout after it.
    fn chain(
        &mut self,
        operand: fn(&mut Self) -> Option<Expr>,
        op: fn(&mut Self) -> Option<BinOp>,
    ) -> Chain {
        let mut chain = Vec::new();
        loop {
            let before = self.pos;
            if !chain.is_empty() {
                self.skip();
            }
            let Some(o) = op(self) else {
                self.pos = before;
                break;
            };
            self.skip();
            match operand(self) {
                Some(e) => chain.push((o, e)),
                None => {
                    self.pos = before;
                    break;
                }
            }
        }
        chain
    }

    /// A flat chain of two precedences, as `Lower::two_precedences` folds it:
    /// runs of tight operators first, each to the left, then the loose ones.
    fn fold(&mut self, first: Expr, chain: Chain, tight: fn(BinOp) -> bool) -> Option<Expr> {
        self.nest(chain.len())?;
        let mut loose: Option<(Expr, BinOp)> = None;
        let mut run = first;
        for (op, rhs) in chain {
            if tight(op) {
                run = binary(op, run, rhs);
            } else {
                let lhs = match loose.take() {
                    Some((acc, before)) => binary(before, acc, run),
                    None => run,
                };
                loose = Some((lhs, op));
                run = rhs;
            }
        }
        Some(match loose {
            Some((acc, op)) => binary(op, acc, run),
            None => run,
        })
    }

    /// `not_term = { not_op* ~ arith ~ (cmp_op ~ arith)? }`
    fn not_term(&mut self) -> Option<Expr> {
        let start = self.pos;
        let nots = self.prefixes(|r| r.eat("not"));
        self.skip();
        let Some(lhs) = self.arith() else {
            self.pos = start;
            return None;
        };
        self.skip();
        let before = self.pos;
        let mut e = lhs;
        if let Some(op) = self.cmp_op() {
            self.skip();
            match self.arith() {
                Some(rhs) => {
                    self.nest(1)?;
                    e = binary(op, e, rhs);
                }
                None => self.pos = before,
            }
        }
        self.nest(nots)?;
        Some(self.under_prefixes(start, e, nots, ExprKind::Not))
    }

    /// `p*` for a prefix operator: how many, layout allowed between them.
    fn prefixes(&mut self, mut p: impl FnMut(&mut Self) -> bool) -> usize {
        let mut count = 0;
        loop {
            let before = self.pos;
            if count > 0 {
                self.skip();
            }
            if !p(self) {
                self.pos = before;
                return count;
            }
            count += 1;
        }
    }

    /// `cmp_op = { "<=" | ">=" | "==" | "!=" | "<" | ">" }`
    pub(super) fn cmp_op(&mut self) -> Option<BinOp> {
        let ops = [
            ("<=", BinOp::Le),
            (">=", BinOp::Ge),
            ("==", BinOp::Eq),
            ("!=", BinOp::Ne),
            ("<", BinOp::Lt),
            (">", BinOp::Gt),
        ];
        let (token, op) = ops.into_iter().find(|(t, _)| self.at_str(t))?;
        self.pos += token.len();
        Some(op)
    }

    /// `arith = { unary ~ ((add_op | mul_op) ~ unary)* }`
    pub(super) fn arith(&mut self) -> Option<Expr> {
        let first = self.unary()?;
        self.skip();
        let chain = self.chain(Self::unary, |r| {
            let op = match r.peek()? {
                b'+' => BinOp::Add,
                b'-' => BinOp::Sub,
                b'*' => BinOp::Mul,
                b'/' => BinOp::Div,
                _ => return None,
            };
            r.pos += 1;
            Some(op)
        });
        self.fold(first, chain, |op| op == BinOp::Mul || op == BinOp::Div)
    }

    /// `unary = { neg* ~ postfix }`
    fn unary(&mut self) -> Option<Expr> {
        let start = self.pos;
        let negs = self.prefixes(|r| r.eat("-"));
        self.skip();
        let Some(e) = self.postfix() else {
            self.pos = start;
            return None;
        };
        self.nest(negs)?;
        Some(self.under_prefixes(start, e, negs, ExprKind::Neg))
    }

    /// `e` under `count` prefix operators read from `start` to here.
    fn under_prefixes(
        &self,
        start: usize,
        e: Expr,
        count: usize,
        wrap: fn(Box<Expr>) -> ExprKind,
    ) -> Expr {
        let text = self.text.get(start..self.pos).unwrap_or_default();
        crate::syntax::under_prefixes(e, count, wrap, self.span(start, self.pos), text)
    }

    /// `postfix = { primary ~ (call_args | member | index)* }`
    fn postfix(&mut self) -> Option<Expr> {
        let mut acc = self.primary()?;
        self.skip();
        let mut first = true;
        loop {
            let before = self.pos;
            if !first {
                self.skip();
            }
            first = false;
            let start = self.pos;
            let kind = match self.peek() {
                Some(b'(') => self.call_args().map(|args| (Some(args), None, None)),
                Some(b'.') => self.member().map(|name| (None, Some(name), None)),
                Some(b'[') => self.index().map(|at| (None, None, Some(at))),
                _ => None,
            };
            let Some(suffix) = kind else {
                self.pos = before;
                break;
            };
            if self.unsure {
                return None;
            }
            self.nest(1)?;
            let span = acc.span.to(self.span(start, self.pos));
            let kind = match suffix {
                (Some(args), _, _) => ExprKind::Call {
                    callee: Box::new(acc),
                    args,
                },
                (_, Some(name), _) => ExprKind::Member(Box::new(acc), Box::new(name)),
                (_, _, Some(at)) => ExprKind::Index(Box::new(acc), Box::new(at)),
                _ => return self.give_up(),
            };
            acc = Expr { kind, span };
        }
        Some(acc)
    }

    /// `call_args = { "(" ~ (arg ~ ("," ~ arg)* ~ ","?)? ~ ")" }`
    fn call_args(&mut self) -> Option<Vec<(Option<Name>, Expr)>> {
        let start = self.pos;
        let mut args = Vec::new();
        let read = self.comma_list("(", ")", |r| match r.arg() {
            Some(a) => {
                args.push(a);
                true
            }
            None => false,
        });
        if !read {
            self.pos = start;
            return None;
        }
        args.shrink_to_fit();
        Some(args)
    }

    /// `arg = { lambda | (ident ~ ":" ~ !":")? ~ expr }`
    fn arg(&mut self) -> Option<(Option<Name>, Expr)> {
        let start = self.pos;
        if let Some(l) = self.lambda() {
            return Some((None, l));
        }
        if self.unsure {
            return None;
        }
        self.pos = start;
        let name = match self.ident() {
            Some(n) => {
                self.skip();
                let named = self.eat(":") && {
                    self.skip();
                    !self.at_str(":")
                };
                if named {
                    Some(self.name(n))
                } else {
                    self.pos = start;
                    None
                }
            }
            None => None,
        };
        self.skip();
        match self.expr() {
            Some(e) => Some((name, e)),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `lambda = { lambda_params ~ "=>" ~ expr }`, with
    /// `lambda_params = { ident | "(" ~ ident ~ ("," ~ ident)* ~ ","? ~ ")" }`
    fn lambda(&mut self) -> Option<Expr> {
        let start = self.pos;
        let mut names = Vec::new();
        let params = match self.ident() {
            Some(n) => {
                names.push(self.name(n));
                true
            }
            None => self.lambda_params(&mut names),
        };
        if !params {
            self.pos = start;
            return None;
        }
        self.skip();
        if !self.eat("=>") {
            self.pos = start;
            return None;
        }
        self.skip();
        let Some(body) = self.expr() else {
            self.pos = start;
            return None;
        };
        self.nest(1)?;
        Some(Expr {
            kind: ExprKind::Lambda(names, Box::new(body)),
            span: self.span(start, self.pos),
        })
    }

    /// `"(" ~ ident ~ ("," ~ ident)* ~ ","? ~ ")"`
    fn lambda_params(&mut self, names: &mut Vec<Name>) -> bool {
        if !self.eat("(") {
            return false;
        }
        self.skip();
        let Some(first) = self.ident() else {
            return false;
        };
        names.push(self.name(first));
        self.skip();
        self.repeat_after(",", |r| match r.ident() {
            Some(n) => {
                names.push(r.name(n));
                true
            }
            None => false,
        });
        self.skip();
        self.eat(",");
        self.skip();
        self.eat(")")
    }

    /// `member = { "." ~ ident }`
    fn member(&mut self) -> Option<Name> {
        let start = self.pos;
        self.eat(".");
        self.skip();
        match self.ident() {
            Some(n) => Some(self.name(n)),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `index = { "[" ~ expr ~ "]" }`
    fn index(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.eat("[");
        self.skip();
        let e = self.expr();
        self.skip();
        match e {
            Some(e) if self.eat("]") => Some(e),
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// `primary = _{ match_expr | penalty | record_lit | list_lit | literal |
    /// paren | path }`
    fn primary(&mut self) -> Option<Expr> {
        self.first_of(&[
            Self::match_expr,
            Self::penalty,
            Self::record_lit,
            Self::list_lit,
            Self::literal,
            Self::paren,
            Self::path,
        ])
    }

    /// `if_expr = { &keyword ~ "if" ~ expr ~ !glued_then ~ "then" ~ expr ~ !glued_else ~ "else" ~ expr }`
    fn if_expr(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !self.eat("if") {
            return None;
        }
        let c = self.after_layout(Self::expr)?;
        let t = self.keyword_then("then", Self::expr)?;
        let e = self.keyword_then("else", Self::expr)?;
        self.nest(1)?;
        Some(Expr {
            kind: ExprKind::If(Box::new(c), Box::new(t), Box::new(e)),
            span: self.span(start, self.pos),
        })
    }

    /// Layout, then `f`.
    fn after_layout<T>(&mut self, f: fn(&mut Self) -> Option<T>) -> Option<T> {
        self.skip();
        f(self)
    }

    /// Layout, a token, layout, then `f`.
    fn keyword_then<T>(&mut self, token: &str, f: fn(&mut Self) -> Option<T>) -> Option<T> {
        self.skip();
        if !self.eat(token) {
            return None;
        }
        self.skip();
        f(self)
    }

    /// `let_expr = { &keyword ~ "let" ~ ident ~ "=" ~ expr ~ !glued_in ~ "in" ~ expr }`
    fn let_expr(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !self.eat("let") {
            return None;
        }
        let name = self.after_layout(Self::ident)?;
        let value = self.keyword_then("=", Self::expr)?;
        let body = self.keyword_then("in", Self::expr)?;
        self.nest(1)?;
        Some(Expr {
            kind: ExprKind::Let(Box::new(self.name(name)), Box::new(value), Box::new(body)),
            span: self.span(start, self.pos),
        })
    }

    /// `match_expr = { &keyword ~ "match" ~ expr ~ "{" ~ (match_arm ~ ("," ~ match_arm)* ~ ","?)? ~ "}" }`
    fn match_expr(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !self.eat("match") {
            return None;
        }
        let scrutinee = self.after_layout(Self::expr)?;
        self.skip();
        let mut arms = Vec::new();
        if !self.comma_list("{", "}", |r| match r.match_arm() {
            Some(arm) => {
                arms.push(arm);
                true
            }
            None => false,
        }) {
            return None;
        }
        self.nest(1 + arms.len())?;
        arms.shrink_to_fit();
        Some(Expr {
            kind: ExprKind::Match(Box::new(scrutinee), arms),
            span: self.span(start, self.pos),
        })
    }

    /// `match_arm = { pattern ~ "=>" ~ expr }`, `pattern = { wildcard | path }`
    fn match_arm(&mut self) -> Option<(Option<Vec<Name>>, Expr)> {
        let start = self.pos;
        let pattern = if self.wildcard() {
            None
        } else {
            Some(self.path_names()?.0)
        };
        let value = self.keyword_then("=>", Self::expr);
        if value.is_none() {
            self.pos = start;
        }
        Some((pattern, value?))
    }

    /// `wildcard = @{ "_" ~ !ident_char }`
    pub(super) fn wildcard(&mut self) -> bool {
        self.eat("_")
    }

    /// `penalty = { warning_p | deduct_p | refer_p | forfeit_p }`
    fn penalty(&mut self) -> Option<Expr> {
        let start = self.pos;
        let kind = if self.eat("warning") {
            PenaltyExpr::Warning
        } else if let Some(amount) = self.deduct() {
            PenaltyExpr::Deduct(Box::new(amount))
        } else if self.eat("refer") {
            self.skip();
            match self.string() {
                Some((text, _)) => PenaltyExpr::Refer(text),
                None => {
                    self.pos = start;
                    if !self.eat("forfeit") {
                        return None;
                    }
                    PenaltyExpr::Forfeit
                }
            }
        } else if self.eat("forfeit") {
            PenaltyExpr::Forfeit
        } else {
            return None;
        };
        Some(Expr {
            kind: ExprKind::Penalty(kind),
            span: self.span(start, self.pos),
        })
    }

    /// `deduct_p = { deduct_kw ~ (quantity | paren | path) }`
    fn deduct(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !self.eat("deduct") {
            return None;
        }
        self.skip();
        let amount_at = self.pos;
        if let Some(q) = self.quantity() {
            return Some(q);
        }
        if self.unsure {
            return None;
        }
        if let Some(inner) = self.paren() {
            self.nest(1)?;
            return Some(inner);
        }
        if self.unsure {
            return None;
        }
        self.pos = amount_at;
        match self.path() {
            Some(p) => Some(p),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `record_lit = { ident ~ "{" ~ (field_init ~ ("," ~ field_init)* ~ ","?)? ~ "}" }`
    fn record_lit(&mut self) -> Option<Expr> {
        let start = self.pos;
        let name = self.ident()?;
        self.skip();
        if self.peek() != Some(b'{') {
            return None;
        }
        let mut fields = Vec::new();
        let read = self.comma_list("{", "}", |r| match r.field_init() {
            Some(f) => {
                fields.push(f);
                true
            }
            None => false,
        });
        if !read {
            return None;
        }
        self.nest(fields.len())?;
        fields.shrink_to_fit();
        Some(Expr {
            kind: ExprKind::Record(Box::new(self.name(name)), fields),
            span: self.span(start, self.pos),
        })
    }

    /// `field_init = { ident ~ ":" ~ expr }`
    fn field_init(&mut self) -> Option<(Name, Expr)> {
        let start = self.pos;
        let read = self
            .ident()
            .and_then(|n| Some((n, self.keyword_then(":", Self::expr)?)));
        match read {
            Some((n, e)) => Some((self.name(n), e)),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `list_lit = { "[" ~ (expr ~ ("," ~ expr)* ~ ","?)? ~ "]" ~ list_annotation? }`,
    /// its span as `Lower::list_lit` gives it: up to the `]`, unless annotated.
    fn list_lit(&mut self) -> Option<Expr> {
        let start = self.pos;
        let mut items = Vec::new();
        // Where the last value's pair ends (pest's, layout after it included).
        let mut last_end = start + 1;
        // The lowering counts one level into each value, not one per value: the
        // list is as deep as its deepest value, so a list of 10,000 numbers is
        // read here, not left to pest.
        let outside = self.nesting;
        let mut deepest = 0;
        let read = self.comma_list("[", "]", |r| {
            r.nesting = outside;
            let value = r.expr();
            deepest = deepest.max(r.nesting.saturating_sub(outside));
            match value {
                Some(e) => {
                    items.push(e);
                    last_end = r.pos;
                    true
                }
                None => false,
            }
        });
        self.nesting = outside + deepest;
        if !read {
            return None;
        }
        self.skip();
        let before = self.pos;
        let annotation = if self.eat("as") {
            self.skip();
            match self.list_type() {
                Some(t) => Some(t),
                None => {
                    self.pos = before;
                    None
                }
            }
        } else {
            None
        };
        if self.unsure {
            return None;
        }
        let text = self.text.get(start..self.pos)?;
        let end = match annotation {
            Some(_) => start + text.trim_end().len(),
            None => {
                let after = last_end - start;
                start + after + crate::syntax::list_close(text.get(after..)?)? + 1
            }
        };
        self.nest(1)?;
        items.shrink_to_fit();
        Some(Expr {
            kind: ExprKind::List(items, annotation.map(Box::new)),
            span: self.span(start, end),
        })
    }

    /// `paren = { "(" ~ expr ~ ")" }`: the expression inside.
    fn paren(&mut self) -> Option<Expr> {
        if !self.eat("(") {
            return None;
        }
        let e = self.after_layout(Self::expr)?;
        self.skip();
        self.eat(")").then_some(e)
    }

    /// `path`, as an expression.
    pub(super) fn path(&mut self) -> Option<Expr> {
        let (names, start) = self.path_names()?;
        Some(Expr {
            kind: ExprKind::Path(names),
            span: self.span(start, self.pos),
        })
    }
}

/// `lhs op rhs`, spanning both operands.
fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}
