//! Items and the declarations this reader reads, as `syntax::lower::decl`
//! lowers them.

use super::Reader;
use crate::syntax::ast::*;

/// A rule's signature as written: its name, parameters, result type and source.
type Signature = (Name, Vec<Param>, TypeExpr, Option<Box<SourceRef>>);

impl Reader<'_> {
    /// `item = { doc* ~ decl }`
    pub(super) fn item(&mut self) -> Option<Item> {
        let start = self.pos;
        let mut doc = Vec::new();
        loop {
            let before = self.pos;
            if !doc.is_empty() {
                self.skip();
            }
            // `doc = ${ "///" ~ doc_text }`, `doc_text = @{ (!"\n" ~ ANY)* }`
            if !self.eat("///") {
                self.pos = before;
                break;
            }
            let rest = self.text.get(self.pos..)?;
            let line = rest.find('\n').unwrap_or(rest.len());
            doc.push(rest.get(..line)?.trim().to_string());
            self.pos += line;
        }
        self.skip();
        let decl = self.decl()?;
        doc.shrink_to_fit();
        Some(Item {
            doc,
            decl,
            span: self.span(start, self.pos),
        })
    }

    /// `decl`: the alternatives in the grammar's order, each by its first token
    /// (no two declarations begin with the same one, so a declaration that
    /// fails after its first token is an error whichever is tried next).
    fn decl(&mut self) -> Option<Decl> {
        let decl = if self.eat("edition") {
            Decl::Edition(Box::new(self.edition()?))
        } else if self.eat("unit") {
            Decl::Unit(Box::new(self.unit_decl()?))
        } else if self.eat("enum") {
            Decl::Enum(Box::new(self.enum_decl()?))
        } else if self.eat("record") {
            Decl::Record(Box::new(self.record_decl()?))
        } else if self.eat("table") {
            Decl::Table(Box::new(self.table_decl()?))
        } else if self.eat("scale") {
            Decl::Scale(Box::new(self.scale_decl()?))
        } else if self.eat("fn") {
            Decl::Fn(Box::new(self.fn_decl()?))
        } else if self.at_token("reading") || self.at_token("const") {
            Decl::Const(Box::new(self.const_decl()?))
        } else if self.eat("example") {
            Decl::Example(Box::new(self.example_decl()?))
        } else if self.eat("procedure") {
            Decl::Text(Box::new(self.text_decl()?))
        } else if self.at_token("competition") {
            Decl::Competition(Box::new(self.competition()?))
        } else if self.eat("notice") {
            Decl::Notice(Box::new(self.notice_decl()?))
        } else if self.at_token("entries") {
            Decl::Entries(Box::new(self.entries("entries")?))
        } else if self.at_token("federation") {
            Decl::Federation(Box::new(self.entries("federation")?))
        } else if self.eat("remove") {
            Decl::Remove(Box::new(self.remove_decl()?))
        } else {
            return self.give_up();
        };
        Some(decl)
    }

    /// `source_ref = { !glued_ref ~ "ref" ~ rule_id ~ pages? ~ string? }`, tried after layout
    /// where the grammar has `source_ref?`: `None` leaves the position as it was.
    pub(super) fn source_ref(&mut self) -> Option<Box<SourceRef>> {
        let start = self.pos;
        let read = self.source_ref_here();
        if read.is_none() {
            self.pos = start;
        }
        read.map(Box::new)
    }

    fn source_ref_here(&mut self) -> Option<SourceRef> {
        let start = self.pos;
        if !self.eat("ref") {
            return None;
        }
        self.skip();
        let (id_start, id_end) = self.rule_id()?;
        self.skip();
        let pages_start = self.pos;
        let pages = self.pages().map(|end| {
            let text = self.text.get(pages_start..end).unwrap_or("");
            (
                text.trim_start_matches("p.").to_string(),
                self.span(pages_start, end),
            )
        });
        self.skip();
        let section = self
            .string()
            .map(|(text, at)| (text, self.span(at, self.pos)));
        Some(SourceRef {
            id: self.text.get(id_start..id_end)?.to_string(),
            id_span: self.span(id_start, id_end),
            pages_span: pages.as_ref().map(|p| p.1),
            pages: pages.map(|p| p.0),
            section_span: section.as_ref().map(|s| s.1),
            section: section.map(|s| s.0),
            span: self.span(start, self.pos),
        })
    }

    /// `rule_id = @{ ASCII_ALPHA_UPPER ~ (ASCII_ALPHA_UPPER | ASCII_DIGIT)* ~
    /// ("-" ~ (ASCII_ALPHA_UPPER | ASCII_DIGIT)+)* }`
    fn rule_id(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        let b = self.text.as_bytes();
        let part = |c: &u8| c.is_ascii_uppercase() || c.is_ascii_digit();
        if !b.get(start).is_some_and(u8::is_ascii_uppercase) {
            return None;
        }
        let run = |from: usize| {
            b.get(from..)
                .map_or(0, |r| r.iter().take_while(|c| part(c)).count())
        };
        let mut end = start + 1 + run(start + 1);
        while b.get(end) == Some(&b'-') && run(end + 1) > 0 {
            end += 1 + run(end + 1);
        }
        self.pos = end;
        Some((start, end))
    }

    /// `pages = @{ "p." ~ page_range ~ ("," ~ page_range)* }`, with
    /// `page_range = @{ ASCII_DIGIT+ ~ ("-" ~ ASCII_DIGIT+)? }`: where it ends.
    fn pages(&mut self) -> Option<usize> {
        let b = self.text.as_bytes();
        let digits = |from: usize| {
            b.get(from..)
                .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
        };
        let range = |from: usize| {
            let n = digits(from);
            if n == 0 {
                return None;
            }
            let end = from + n;
            Some(match (b.get(end), digits(end + 1)) {
                (Some(b'-'), m) if m > 0 => end + 1 + m,
                _ => end,
            })
        };
        if !self.at_str("p.") {
            return None;
        }
        let mut end = range(self.pos + 2)?;
        while b.get(end) == Some(&b',') {
            match range(end + 1) {
                Some(e) => end = e,
                None => break,
            }
        }
        self.pos = end;
        Some(end)
    }

    /// `type_expr = { list_type | unit_expr }`
    pub(super) fn type_expr(&mut self) -> Option<TypeExpr> {
        if self.peek() == Some(b'[') {
            return self.list_type();
        }
        self.unit_expr().map(TypeExpr::Named)
    }

    /// `list_type = { "[" ~ type_expr ~ "]" }`
    pub(super) fn list_type(&mut self) -> Option<TypeExpr> {
        let start = self.pos;
        if !self.eat("[") {
            return None;
        }
        self.skip();
        let inner = self.type_expr();
        self.skip();
        match inner {
            Some(t) if self.eat("]") => {
                Some(TypeExpr::List(Box::new(t), self.span(start, self.pos)))
            }
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// `unit_decl = { !glued_unit ~ "unit" ~ unit_name ~ (string | whole_flag | count_flag)* ~ unit_alias? }`
    fn unit_decl(&mut self) -> Option<UnitDecl> {
        self.skip();
        let name_start = self.pos;
        let unit = self.unit_expr_name()?;
        let name = self.name((name_start, unit));
        let mut u = UnitDecl {
            name,
            description: None,
            whole: false,
            count: false,
            aliases: Vec::new(),
        };
        self.skip();
        // Neither a string nor `whole` nor `count` leaves the reader unsure.
        self.parts(|r| {
            if let Some((text, _)) = r.string() {
                u.description = Some(text);
            } else if r.eat("whole") {
                u.whole = true;
            } else if r.eat("count") {
                u.count = true;
            } else {
                return false;
            }
            true
        });
        self.skip();
        // `unit_alias = { !glued_alias ~ "alias" ~ unit_name ~ ("," ~ unit_name)* }`
        let before = self.pos;
        if self.eat("alias") {
            self.skip();
            let mut aliases = Vec::new();
            let first = self.pos;
            match self.unit_expr_name() {
                Some(end) => {
                    aliases.push(self.name((first, end)));
                    self.skip();
                    self.repeat_after(",", |r| {
                        let at = r.pos;
                        match r.unit_expr_name() {
                            Some(end) => {
                                aliases.push(r.name((at, end)));
                                true
                            }
                            None => false,
                        }
                    });
                    u.aliases = aliases;
                }
                None => self.pos = before,
            }
        }
        Some(u)
    }

    /// One `unit_name`: where it ends.
    fn unit_expr_name(&mut self) -> Option<usize> {
        let start = self.pos;
        self.eat("%");
        if self.ident().is_none() {
            self.pos = start;
            return None;
        }
        Some(self.pos)
    }

    /// `enum_decl = { !glued_enum ~ "enum" ~ ident ~ source_ref? ~ "{" ~ (variant ~ ("," ~ variant)* ~ ","?)? ~ "}" }`
    fn enum_decl(&mut self) -> Option<EnumDecl> {
        let name = self.after_layout_ident()?;
        self.skip();
        let source = self.source_ref();
        self.skip();
        let mut variants = Vec::new();
        let read = self.comma_list("{", "}", |r| {
            // `variant = { ident ~ string? }`
            let Some(n) = r.ident() else {
                return false;
            };
            r.skip();
            let label = r.string().map(|(text, _)| text);
            variants.push((r.name(n), label));
            true
        });
        read.then(|| EnumDecl {
            name: self.name(name),
            source,
            variants,
        })
    }

    pub(super) fn after_layout_ident(&mut self) -> Option<(usize, usize)> {
        self.skip();
        self.ident()
    }

    /// `record_decl = { !glued_record ~ "record" ~ ident ~ source_ref? ~ "{" ~ (field ~ ("," ~ field)* ~ ","?)? ~ "}" }`
    fn record_decl(&mut self) -> Option<RecordDecl> {
        let name = self.after_layout_ident()?;
        self.skip();
        let source = self.source_ref();
        self.skip();
        let mut fields = Vec::new();
        let read = self.comma_list("{", "}", |r| match r.typed_name() {
            Some((n, t)) => {
                fields.push((n, t));
                true
            }
            None => false,
        });
        read.then(|| RecordDecl {
            name: self.name(name),
            source,
            fields,
        })
    }

    /// `field` and `param`: `ident ~ ":" ~ type_expr`.
    fn typed_name(&mut self) -> Option<(Name, TypeExpr)> {
        let start = self.pos;
        let read = self.ident().and_then(|n| {
            self.skip();
            if !self.eat(":") {
                return None;
            }
            self.skip();
            Some((n, self.type_expr()?))
        });
        match read {
            Some((n, t)) => Some((self.name(n), t)),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `ident ~ params ~ returns ~ source_ref?` and the layout before and after
    /// each, as `table`, `scale` and `fn` begin.
    fn signature(&mut self) -> Option<Signature> {
        let name = self.after_layout_ident()?;
        self.skip();
        let mut params = Vec::new();
        let read = self.comma_list("(", ")", |r| match r.typed_name() {
            Some((name, ty)) => {
                params.push(Param { name, ty });
                true
            }
            None => false,
        });
        if !read {
            return None;
        }
        // `returns = { "->" ~ type_expr }`
        self.skip();
        if !self.eat("->") {
            return None;
        }
        self.skip();
        let ret = self.type_expr()?;
        self.skip();
        let source = self.source_ref();
        self.skip();
        // Most rules have one or two parameters, not the four a first push reserves.
        params.shrink_to_fit();
        Some((self.name(name), params, ret, source))
    }

    /// `table_decl = { !glued_table ~ "table" ~ ident ~ params ~ returns ~ source_ref? ~ "{" ~
    /// (table_row ~ ("," ~ table_row)* ~ ","?)? ~ "}" }`
    fn table_decl(&mut self) -> Option<TableDecl> {
        let (name, params, ret, source) = self.signature()?;
        let mut rows = Vec::new();
        let read = self.comma_list("{", "}", |r| match r.table_row() {
            Some(row) => {
                rows.push(row);
                true
            }
            None => false,
        });
        if !read || self.unsure {
            return None;
        }
        rows.shrink_to_fit();
        Some(TableDecl {
            name,
            params,
            ret,
            source,
            rows,
        })
    }

    /// `table_row = { table_key ~ "=>" ~ expr }`, `table_key = { wildcard | ident }`
    fn table_row(&mut self) -> Option<(Option<Name>, Expr)> {
        let start = self.pos;
        let key = if self.wildcard() {
            Some(None)
        } else {
            self.ident().map(|n| Some(self.name(n)))
        };
        let read = key.and_then(|key| {
            self.skip();
            if !self.eat("=>") {
                return None;
            }
            self.skip();
            Some((key, self.root_expr()?))
        });
        if read.is_none() {
            self.pos = start;
        }
        read
    }

    /// `scale_decl = { !glued_scale ~ "scale" ~ ident ~ params ~ returns ~ source_ref? ~ "{" ~
    /// domain? ~ (scale_arm ~ ","?)* ~ "}" }`
    fn scale_decl(&mut self) -> Option<ScaleDecl> {
        let (name, params, ret, source) = self.signature()?;
        let param = match params.as_slice() {
            [p] => Some(p.name.text.clone()),
            _ => None,
        };
        let param = param.as_deref();
        if !self.eat("{") {
            return None;
        }
        self.skip();
        // `domain = { !glued_domain ~ "domain" ~ range }`
        let domain = self.token_then("domain", |r| r.range(param));
        self.skip();
        let mut arms = Vec::new();
        let read = self.parts(|r| {
            let Some(arm) = r.scale_arm(param) else {
                return false;
            };
            arms.push(arm);
            // `","?`, after the layout that follows the arm
            r.skip();
            r.eat(",");
            true
        });
        if !read {
            return None;
        }
        self.skip();
        if !self.eat("}") {
            return None;
        }
        arms.shrink_to_fit();
        Some(ScaleDecl {
            name,
            params,
            ret,
            source,
            domain,
            arms,
        })
    }

    /// `scale_arm = { range ~ "=>" ~ expr }`
    fn scale_arm(&mut self, param: Option<&str>) -> Option<(Range, Expr)> {
        let range = self.range(param)?;
        self.skip();
        if !self.eat("=>") {
            return None;
        }
        self.skip();
        Some((range, self.root_expr()?))
    }

    /// `fn_decl = { !glued_fn ~ "fn" ~ ident ~ params ~ returns ~ source_ref? ~ fn_body }`
    fn fn_decl(&mut self) -> Option<FnDecl> {
        let (name, params, ret, source) = self.signature()?;
        let body = self.fn_body()?;
        Some(FnDecl {
            name,
            params,
            ret,
            source,
            body,
        })
    }

    /// `fn_body = { ("=" ~ expr) | block }`, `block = { "{" ~ let_stmt* ~ expr ~ "}" }`:
    /// a block's `let`s become nested `let`s, each enclosing the lines after it.
    fn fn_body(&mut self) -> Option<Expr> {
        if let Some(e) = self.token_then("=", Self::root_expr) {
            return Some(e);
        }
        if self.unsure {
            return None;
        }
        if !self.eat("{") {
            return None;
        }
        self.skip();
        self.nesting = 0;
        let mut lets = Vec::new();
        if !self.parts(|r| r.let_stmt().map(|l| lets.push(l)).is_some()) {
            return None;
        }
        self.skip();
        let mut body = self.expr()?;
        self.skip();
        if !self.eat("}") {
            return None;
        }
        self.nest_lets(lets.len())?;
        for (name, value) in lets.into_iter().rev() {
            let span = name.span.to(body.span);
            body = Expr {
                kind: ExprKind::Let(Box::new(name), Box::new(value), Box::new(body)),
                span,
            };
        }
        Some(body)
    }

    fn nest_lets(&mut self, lets: usize) -> Option<()> {
        self.nesting += lets;
        if self.nesting > super::MAX_NESTING {
            return self.give_up();
        }
        Some(())
    }

    /// `let_stmt = { &keyword ~ "let" ~ ident ~ "=" ~ expr ~ ";" }`
    fn let_stmt(&mut self) -> Option<(Name, Expr)> {
        if !self.eat("let") {
            return None;
        }
        let name = self.after_layout_ident()?;
        self.skip();
        if !self.eat("=") {
            return None;
        }
        self.skip();
        let value = self.expr()?;
        self.skip();
        self.eat(";").then(|| (self.name(name), value))
    }

    /// `const_decl = { (reading_kw | !glued_const ~ "const") ~ ident ~ ":" ~ type_expr ~
    /// source_ref? ~ cites? ~ "=" ~ expr }`
    fn const_decl(&mut self) -> Option<ConstDecl> {
        let reading = self.eat("reading");
        if !reading && !self.eat("const") {
            return None;
        }
        let name = self.after_layout_ident()?;
        self.skip();
        if !self.eat(":") {
            return None;
        }
        self.skip();
        let ty = self.type_expr()?;
        self.skip();
        let source = self.source_ref();
        self.skip();
        // `cites = { !glued_cites ~ "cites" ~ string }`
        let cites = self.token_then("cites", |r| r.string().map(|(text, _)| text));
        self.skip();
        if !self.eat("=") {
            return None;
        }
        self.skip();
        let value = self.root_expr()?;
        Some(ConstDecl {
            name: self.name(name),
            ty,
            source,
            value,
            reading,
            cites,
        })
    }

    /// `example_decl = { !glued_example ~ "example" ~ string ~ source_ref? ~ contradicts? ~ "{" ~
    /// (assertion ~ ";"?)* ~ "}" }`
    fn example_decl(&mut self) -> Option<ExampleDecl> {
        self.skip();
        let (title, title_at) = self.string()?;
        let title_span = self.span(title_at, self.pos);
        self.skip();
        let source = self.source_ref();
        self.skip();
        let contradicts = self.eat("contradicts");
        self.skip();
        if !self.eat("{") {
            return None;
        }
        self.skip();
        let mut assertions = Vec::new();
        let read = self.parts(|r| {
            let Some(assertion) = r.root_expr() else {
                return false;
            };
            assertions.push(assertion);
            // `";"?`, after the layout that follows the assertion
            r.skip();
            r.eat(";");
            true
        });
        if !read {
            return None;
        }
        self.skip();
        if !self.eat("}") {
            return None;
        }
        assertions.shrink_to_fit();
        Some(ExampleDecl {
            title,
            title_span,
            source,
            contradicts,
            assertions,
        })
    }

    /// `text_decl = { !glued_procedure ~ "procedure" ~ ident ~ source_ref? ~ "{" ~ string+ ~ "}" }`
    fn text_decl(&mut self) -> Option<TextDecl> {
        let name = self.after_layout_ident()?;
        self.skip();
        let source = self.source_ref();
        self.skip();
        if !self.eat("{") {
            return None;
        }
        self.skip();
        let mut paragraphs = vec![self.string()?.0];
        loop {
            let before = self.pos;
            self.skip();
            match self.string() {
                Some((text, _)) => paragraphs.push(text),
                None => {
                    self.pos = before;
                    break;
                }
            }
        }
        self.skip();
        self.eat("}").then(|| TextDecl {
            name: self.name(name),
            source,
            paragraphs,
        })
    }

    /// `notice_decl = { !glued_notice ~ "notice" ~ string ~ source_ref? }`
    fn notice_decl(&mut self) -> Option<NoticeDecl> {
        self.skip();
        let (text, at) = self.string()?;
        let span = self.span(at, self.pos);
        self.skip();
        let source = self.source_ref();
        Some(NoticeDecl { text, source, span })
    }

    /// `range = { range_between | range_lower | range_cmp }`, lowered as
    /// `Lower::range` lowers it: `param` is the scale's input, which settles
    /// `x < limit` (a bound below the input, or the input under a const).
    fn range(&mut self, param: Option<&str>) -> Option<Range> {
        let start = self.pos;
        if let Some(r) = self.range_lower_or_between(param) {
            return Some(r);
        }
        if self.unsure {
            return None;
        }
        self.pos = start;
        // `range_cmp = { ident ~ cmp_op ~ bound }`
        let var = self.ident()?;
        self.skip();
        let Some(op) = self.cmp_op() else {
            self.pos = start;
            return None;
        };
        self.skip();
        let Some((value, _)) = self.bound() else {
            self.pos = start;
            return None;
        };
        let mut range = self.empty_range(var, start);
        let bound = |inclusive| {
            Some(Bound {
                value: value.clone(),
                inclusive,
            })
        };
        match op {
            BinOp::Lt => range.upper = bound(false),
            BinOp::Le => range.upper = bound(true),
            BinOp::Gt => range.lower = bound(false),
            BinOp::Ge => range.lower = bound(true),
            BinOp::Eq => {
                range.lower = bound(true);
                range.upper = bound(true);
            }
            _ => range.except = Some(Box::new(value.clone())),
        }
        Some(range)
    }

    fn empty_range(&self, var: (usize, usize), start: usize) -> Range {
        Range {
            var: self.name(var),
            lower: None,
            upper: None,
            except: None,
            span: self.span(start, self.pos),
        }
    }

    /// `lt_op = { "<=" | "<" }`: whether it includes its bound.
    fn lt_op(&mut self) -> Option<bool> {
        if self.eat("<=") {
            Some(true)
        } else if self.eat("<") {
            Some(false)
        } else {
            None
        }
    }

    /// `range_between = { bound ~ lt_op ~ ident ~ lt_op ~ bound }`, else
    /// `range_lower = { bound ~ lt_op ~ ident }`: the same start, read once.
    fn range_lower_or_between(&mut self, param: Option<&str>) -> Option<Range> {
        let start = self.pos;
        let (lo, lo_end) = self.bound()?;
        self.skip();
        let lo_incl = self.lt_op()?;
        self.skip();
        let var = self.ident()?;
        let lower_end = self.pos;
        self.skip();
        let upper = self.lt_op().and_then(|incl| {
            self.skip();
            Some((incl, self.bound()?.0))
        });
        if let Some((hi_incl, hi)) = upper {
            let mut range = self.empty_range(var, start);
            range.lower = Some(Bound {
                value: lo,
                inclusive: lo_incl,
            });
            range.upper = Some(Bound {
                value: hi,
                inclusive: hi_incl,
            });
            return Some(range);
        }
        if self.unsure {
            return None;
        }
        self.pos = lower_end;
        let lo_text = self.text.get(start..lo_end)?.trim();
        let var_text = self.text.get(var.0..var.1)?;
        let mut range = self.empty_range(var, start);
        if param.is_some_and(|x| x != var_text && x == lo_text) {
            // `x < limit` where `x` is the input: the input under `limit`.
            range.var = self.name((start, start + lo_text.len()));
            range.upper = Some(Bound {
                value: Expr {
                    kind: ExprKind::Path(vec![self.name(var)]),
                    span: self.span(var.0, var.1),
                },
                inclusive: lo_incl,
            });
        } else {
            range.lower = Some(Bound {
                value: lo,
                inclusive: lo_incl,
            });
        }
        Some(range)
    }

    /// `bound = { neg ~ bound_value | &bound_start ~ bound_literal | path }`:
    /// the value and where the bound ends.
    fn bound(&mut self) -> Option<(Expr, usize)> {
        let start = self.pos;
        if self.eat("-") {
            self.skip();
            // `bound_value = _{ bound_literal's six | path }`
            let value = match self.bound_literal() {
                Some(v) => Some(v),
                None if self.unsure => return None,
                None => self.path(),
            };
            if let Some(value) = value {
                let e = Expr {
                    kind: ExprKind::Neg(Box::new(value)),
                    span: self.span(start, self.pos),
                };
                return Some((e, self.pos));
            }
            self.pos = start;
        }
        if matches!(self.peek(), Some(b'0'..=b'9' | b'F'..=b'W')) {
            if let Some(v) = self.bound_literal() {
                return Some((v, self.pos));
            }
            if self.unsure {
                return None;
            }
            self.pos = start;
        }
        let p = self.path()?;
        Some((p, self.pos))
    }
}
