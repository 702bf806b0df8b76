//! Parse tree → AST. The only module besides `mod.rs` that sees pest's `Pair`s.

use super::ast::*;
use super::{Rule, SyntaxError};
use crate::source::{FileId, Span};
use pest::iterators::Pair;
use rust_decimal::Decimal;
use std::cell::Cell;
use std::str::FromStr;

type P<'a> = Pair<'a, Rule>;
type R<T> = Result<T, SyntaxError>;

/// Lowers the pairs of one parse into AST nodes that carry `file` in their spans.
///
/// It also bounds how deep the expression trees it builds are. Brackets are
/// bounded by the pre-scan, but `if`, `let`, `not`, a leading `-` and chains
/// of operators nest without brackets; every later stage walks (and finally
/// drops) the tree recursively, so a tree deeper than [`MAX_EXPR_DEPTH`] is
/// refused here with a diagnostic instead of overflowing a stack later.
pub(super) struct Lower {
    pub(super) file: FileId,
    /// How many expression nodes enclose the one being lowered.
    pub(super) depth: Cell<usize>,
}

/// The deepest expression tree bfr builds. Real rules stay below 30.
pub const MAX_EXPR_DEPTH: usize = 1024;

impl Lower {
    /// A lowerer for one file.
    pub(super) fn new(file: FileId) -> Self {
        Lower {
            file,
            depth: Cell::new(0),
        }
    }

    /// Runs `f` with `levels` more enclosing expression nodes; refuses to go
    /// deeper than [`MAX_EXPR_DEPTH`].
    fn nested<T>(&self, levels: usize, span: Span, f: impl FnOnce() -> R<T>) -> R<T> {
        let outer = self.depth.get();
        let inner = outer.saturating_add(levels);
        if inner > MAX_EXPR_DEPTH {
            return Err(SyntaxError {
                code: "E0002",
                message: format!(
                    "this expression is more than {MAX_EXPR_DEPTH} levels deep (each operator, `if`, `let`, `not` or `-` adds one)"
                ),
                span,
                help: Some("split it: give inner parts a name with a `const` or a `fn`".into()),
            });
        }
        self.depth.set(inner);
        let out = f();
        self.depth.set(outer);
        out
    }

    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn name(&self, p: &P) -> Name {
        Name {
            text: p.as_str().to_string(),
            span: self.span(p),
        }
    }

    fn err(&self, p: &P, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            code: "E0006",
            message: message.into(),
            span: self.span(p),
            help: None,
        }
    }

    pub(super) fn file(&self, p: P) -> R<File> {
        let mut items = Vec::new();
        for item in p.into_inner() {
            if item.as_rule() == Rule::item {
                items.push(self.item(item)?);
            }
        }
        Ok(File { items })
    }

    fn item(&self, p: P) -> R<Item> {
        let span = self.span(&p);
        let mut doc = Vec::new();
        let mut decl = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::doc => doc.push(
                    c.into_inner()
                        .next()
                        .map_or(String::new(), |t| t.as_str().trim().to_string()),
                ),
                _ => decl = Some(self.decl(c)?),
            }
        }
        let decl = decl.ok_or_else(|| SyntaxError::internal(span))?;
        Ok(Item { doc, decl, span })
    }

    fn decl(&self, p: P) -> R<Decl> {
        Ok(match p.as_rule() {
            Rule::edition_decl => Decl::Edition(self.edition(p)?),
            Rule::unit_decl => Decl::Unit(self.unit_decl(p)),
            Rule::enum_decl => Decl::Enum(self.enum_decl(p)),
            Rule::record_decl => Decl::Record(self.record_decl(p)),
            Rule::table_decl => Decl::Table(self.table_decl(p)?),
            Rule::scale_decl => Decl::Scale(self.scale_decl(p)?),
            Rule::fn_decl => Decl::Fn(self.fn_decl(p)?),
            Rule::const_decl => Decl::Const(self.const_decl(p)?),
            Rule::example_decl => Decl::Example(self.example_decl(p)?),
            Rule::text_decl => Decl::Text(self.text_decl(p)),
            Rule::competition_decl => Decl::Competition(self.competition(p)?),
            Rule::notice_decl => {
                let span = self.span(&p);
                let mut n = NoticeDecl {
                    text: String::new(),
                    source: None,
                    span,
                };
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::string => {
                            n.text = string_value(&c);
                            n.span = self.span(&c);
                        }
                        Rule::source_ref => n.source = Some(self.source_ref(c)),
                        _ => {}
                    }
                }
                Decl::Notice(n)
            }
            _ => return Err(SyntaxError::internal(self.span(&p))),
        })
    }

    fn edition(&self, p: P) -> R<Edition> {
        let mut inner = p.into_inner();
        let name_pair = inner
            .next()
            .ok_or_else(|| SyntaxError::internal(Span::default()))?;
        let mut e = Edition {
            name: string_value(&name_pair),
            name_span: self.span(&name_pair),
            source: None,
            updated: None,
            period: None,
        };
        for field in inner {
            let Some(f) = field.into_inner().next() else {
                continue;
            };
            let rule = f.as_rule();
            let mut parts = f.into_inner();
            match rule {
                Rule::source_field => e.source = parts.next().map(|s| string_value(&s)),
                Rule::updated_field => {
                    if let Some(d) = parts.next() {
                        e.updated = Some(self.literal(d)?);
                    }
                }
                Rule::period_field => {
                    if let (Some(a), Some(b)) = (parts.next(), parts.next()) {
                        e.period = Some((self.literal(a)?, self.literal(b)?));
                    }
                }
                _ => {}
            }
        }
        Ok(e)
    }

    fn unit_decl(&self, p: P) -> UnitDecl {
        let mut inner = p.into_inner();
        let mut u = UnitDecl {
            name: inner.next().map(|n| self.name(&n)).unwrap_or(Name {
                text: String::new(),
                span: Span::default(),
            }),
            description: None,
            whole: false,
            aliases: Vec::new(),
        };
        for c in inner {
            match c.as_rule() {
                Rule::string => u.description = Some(string_value(&c)),
                Rule::whole_flag => u.whole = true,
                Rule::unit_alias => u.aliases = c.into_inner().map(|a| self.name(&a)).collect(),
                _ => {}
            }
        }
        u
    }

    fn source_ref(&self, p: P) -> SourceRef {
        let span = self.span(&p);
        let mut r = SourceRef {
            id: String::new(),
            pages: None,
            section: None,
            span,
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::rule_id => r.id = c.as_str().to_string(),
                Rule::pages => r.pages = Some(c.as_str().trim_start_matches("p.").to_string()),
                Rule::string => r.section = Some(string_value(&c)),
                _ => {}
            }
        }
        r
    }

    fn enum_decl(&self, p: P) -> EnumDecl {
        let mut e = EnumDecl {
            name: Name {
                text: String::new(),
                span: self.span(&p),
            },
            source: None,
            variants: Vec::new(),
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::ident => e.name = self.name(&c),
                Rule::source_ref => e.source = Some(self.source_ref(c)),
                Rule::variant => {
                    let mut v = c.into_inner();
                    if let Some(n) = v.next() {
                        let label = v.next().map(|s| string_value(&s));
                        e.variants.push((self.name(&n), label));
                    }
                }
                _ => {}
            }
        }
        e
    }

    fn record_decl(&self, p: P) -> RecordDecl {
        let mut r = RecordDecl {
            name: Name {
                text: String::new(),
                span: self.span(&p),
            },
            source: None,
            fields: Vec::new(),
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::ident => r.name = self.name(&c),
                Rule::source_ref => r.source = Some(self.source_ref(c)),
                Rule::field => {
                    let mut f = c.into_inner();
                    if let (Some(n), Some(t)) = (f.next(), f.next()) {
                        r.fields.push((self.name(&n), self.type_expr(t)));
                    }
                }
                _ => {}
            }
        }
        r
    }

    fn type_expr(&self, p: P) -> TypeExpr {
        match p.into_inner().next() {
            Some(u) => self.unit_expr(u),
            None => UnitExpr {
                num: vec![],
                den: vec![],
                span: Span::default(),
            },
        }
    }

    /// `SEK/player` is one atomic token; its parts are split here.
    fn unit_expr(&self, p: P) -> UnitExpr {
        let span = self.span(&p);
        let mut num = Vec::new();
        let mut den = Vec::new();
        let mut offset = span.start;
        for (i, part) in p.as_str().split('/').enumerate() {
            let len = u32::try_from(part.len()).unwrap_or(0);
            let name = Name {
                text: part.to_string(),
                span: Span {
                    file: self.file,
                    start: offset,
                    end: offset + len,
                },
            };
            offset += len + 1;
            if i == 0 {
                num.push(name);
            } else {
                den.push(name);
            }
        }
        UnitExpr { num, den, span }
    }

    fn params(&self, p: P) -> Vec<Param> {
        p.into_inner()
            .filter_map(|param| {
                let mut it = param.into_inner();
                let name = self.name(&it.next()?);
                let ty = self.type_expr(it.next()?);
                Some(Param { name, ty })
            })
            .collect()
    }

    /// The parts every callable declaration starts with.
    fn signature(&self, pairs: &mut Vec<P>) -> (Name, Vec<Param>, TypeExpr, Option<SourceRef>) {
        let mut name = Name {
            text: String::new(),
            span: Span::default(),
        };
        let mut params = Vec::new();
        let mut ret = UnitExpr {
            num: vec![],
            den: vec![],
            span: Span::default(),
        };
        let mut source = None;
        let mut rest = Vec::new();
        for c in pairs.drain(..) {
            match c.as_rule() {
                Rule::ident if name.text.is_empty() => name = self.name(&c),
                Rule::params => params = self.params(c),
                Rule::returns => {
                    if let Some(t) = c.into_inner().next() {
                        ret = self.type_expr(t);
                    }
                }
                Rule::source_ref => source = Some(self.source_ref(c)),
                _ => rest.push(c),
            }
        }
        *pairs = rest;
        (name, params, ret, source)
    }

    fn table_decl(&self, p: P) -> R<TableDecl> {
        let mut pairs: Vec<P> = p.into_inner().collect();
        let (name, params, ret, source) = self.signature(&mut pairs);
        let mut rows = Vec::new();
        for row in pairs {
            let mut it = row.into_inner();
            let (Some(key), Some(value)) = (it.next(), it.next()) else {
                continue;
            };
            let key = key.into_inner().next();
            let key = match key {
                Some(k) if k.as_rule() == Rule::ident => Some(self.name(&k)),
                _ => None,
            };
            rows.push((key, self.expr(value)?));
        }
        Ok(TableDecl {
            name,
            params,
            ret,
            source,
            rows,
        })
    }

    fn scale_decl(&self, p: P) -> R<ScaleDecl> {
        let mut pairs: Vec<P> = p.into_inner().collect();
        let (name, params, ret, source) = self.signature(&mut pairs);
        let param = match params.as_slice() {
            [p] => Some(p.name.text.clone()),
            _ => None,
        };
        let param = param.as_deref();
        let mut domain = None;
        let mut arms = Vec::new();
        for c in pairs {
            match c.as_rule() {
                Rule::domain => {
                    if let Some(r) = c.into_inner().next() {
                        domain = Some(self.range(r, param)?);
                    }
                }
                Rule::scale_arm => {
                    let mut it = c.into_inner();
                    if let (Some(r), Some(v)) = (it.next(), it.next()) {
                        arms.push((self.range(r, param)?, self.expr(v)?));
                    }
                }
                _ => {}
            }
        }
        Ok(ScaleDecl {
            name,
            params,
            ret,
            source,
            domain,
            arms,
        })
    }

    /// A scale row's range. `param` is the scale's input, which settles the one
    /// ambiguous form: `x < limit` parses as "bound `x` below input `limit`",
    /// but when `x` is the input and `limit` a const it means "`x` under `limit`".
    fn range(&self, p: P, param: Option<&str>) -> R<Range> {
        let span = self.span(&p);
        let form = p
            .into_inner()
            .next()
            .ok_or_else(|| SyntaxError::internal(span))?;
        let rule = form.as_rule();
        let parts: Vec<P> = form.into_inner().collect();
        let mut range = Range {
            var: Name {
                text: String::new(),
                span,
            },
            lower: None,
            upper: None,
            except: None,
            span,
        };
        let incl = |op: &P| op.as_str() == "<=";
        match (rule, parts.as_slice()) {
            (Rule::range_between, [lo, op1, var, op2, hi]) => {
                range.var = self.name(var);
                range.lower = Some(Bound {
                    value: self.bound(lo.clone())?,
                    inclusive: incl(op1),
                });
                range.upper = Some(Bound {
                    value: self.bound(hi.clone())?,
                    inclusive: incl(op2),
                });
            }
            (Rule::range_lower, [lo, op, var])
                if param.is_some_and(|x| x != var.as_str() && x == lo.as_str().trim()) =>
            {
                let start = lo.as_span().start();
                range.var = Name {
                    text: lo.as_str().trim().to_string(),
                    span: Span::new(self.file, start, start + lo.as_str().trim().len()),
                };
                range.upper = Some(Bound {
                    value: Expr {
                        kind: ExprKind::Path(vec![self.name(var)]),
                        span: self.span(var),
                    },
                    inclusive: incl(op),
                });
            }
            (Rule::range_lower, [lo, op, var]) => {
                range.var = self.name(var);
                range.lower = Some(Bound {
                    value: self.bound(lo.clone())?,
                    inclusive: incl(op),
                });
            }
            (Rule::range_cmp, [var, op, b]) => {
                range.var = self.name(var);
                let value = self.bound(b.clone())?;
                let bound = |inclusive| {
                    Some(Bound {
                        value: value.clone(),
                        inclusive,
                    })
                };
                match op.as_str() {
                    "<" => range.upper = bound(false),
                    "<=" => range.upper = bound(true),
                    ">" => range.lower = bound(false),
                    ">=" => range.lower = bound(true),
                    "==" => {
                        range.lower = bound(true);
                        range.upper = bound(true);
                    }
                    _ => range.except = Some(value.clone()),
                }
            }
            _ => return Err(SyntaxError::internal(span)),
        }
        Ok(range)
    }

    fn bound(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let mut negate = false;
        let mut value = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::neg => negate = true,
                Rule::path => value = Some(self.path(c)),
                _ => value = Some(self.literal(c)?),
            }
        }
        let value = value.ok_or_else(|| SyntaxError::internal(span))?;
        Ok(if negate {
            Expr {
                kind: ExprKind::Neg(Box::new(value)),
                span,
            }
        } else {
            value
        })
    }

    fn fn_decl(&self, p: P) -> R<FnDecl> {
        let mut pairs: Vec<P> = p.into_inner().collect();
        let (name, params, ret, source) = self.signature(&mut pairs);
        let body_pair = pairs
            .into_iter()
            .next()
            .ok_or_else(|| SyntaxError::internal(name.span))?;
        let body = self.fn_body(body_pair)?;
        Ok(FnDecl {
            name,
            params,
            ret,
            source,
            body,
        })
    }

    /// `= expr`, or `{ let a = …; let b = …; expr }` which lowers to nested lets.
    fn fn_body(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| SyntaxError::internal(span))?;
        if inner.as_rule() == Rule::expr {
            return self.expr(inner);
        }
        // Each `let` line encloses the lines after it.
        let count = inner
            .clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::let_stmt)
            .count();
        self.nested(count, span, || self.block(inner, span))
    }

    fn block(&self, inner: P, span: Span) -> R<Expr> {
        let mut lets = Vec::new();
        let mut result = None;
        for c in inner.into_inner() {
            match c.as_rule() {
                Rule::let_stmt => {
                    let mut it = c.into_inner();
                    if let (Some(n), Some(v)) = (it.next(), it.next()) {
                        lets.push((self.name(&n), self.expr(v)?));
                    }
                }
                _ => result = Some(self.expr(c)?),
            }
        }
        let mut body = result.ok_or_else(|| SyntaxError::internal(span))?;
        for (name, value) in lets.into_iter().rev() {
            let span = name.span.to(body.span);
            body = Expr {
                kind: ExprKind::Let(name, Box::new(value), Box::new(body)),
                span,
            };
        }
        Ok(body)
    }

    fn const_decl(&self, p: P) -> R<ConstDecl> {
        let mut name = None;
        let mut ty = None;
        let mut source = None;
        let mut value = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::ident => name = Some(self.name(&c)),
                Rule::type_expr => ty = Some(self.type_expr(c)),
                Rule::source_ref => source = Some(self.source_ref(c)),
                _ => value = Some(self.expr(c)?),
            }
        }
        match (name, ty, value) {
            (Some(name), Some(ty), Some(value)) => Ok(ConstDecl {
                name,
                ty,
                source,
                value,
            }),
            _ => Err(SyntaxError::internal(Span::default())),
        }
    }

    fn example_decl(&self, p: P) -> R<ExampleDecl> {
        let span = self.span(&p);
        let mut e = ExampleDecl {
            title: String::new(),
            title_span: span,
            source: None,
            contradicts: false,
            assertions: Vec::new(),
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::string => {
                    e.title = string_value(&c);
                    e.title_span = self.span(&c);
                }
                Rule::source_ref => e.source = Some(self.source_ref(c)),
                Rule::contradicts => e.contradicts = true,
                Rule::assertion => {
                    if let Some(x) = c.into_inner().next() {
                        e.assertions.push(self.expr(x)?);
                    }
                }
                _ => {}
            }
        }
        Ok(e)
    }

    fn text_decl(&self, p: P) -> TextDecl {
        let mut t = TextDecl {
            name: Name {
                text: String::new(),
                span: self.span(&p),
            },
            source: None,
            paragraphs: Vec::new(),
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::ident => t.name = self.name(&c),
                Rule::source_ref => t.source = Some(self.source_ref(c)),
                Rule::string => t.paragraphs.push(string_value(&c)),
                _ => {}
            }
        }
        t
    }

    fn competition(&self, p: P) -> R<CompetitionDecl> {
        let mut c = CompetitionDecl {
            name: Name {
                text: String::new(),
                span: self.span(&p),
            },
            title: None,
            source: None,
            properties: Vec::new(),
            stages: Vec::new(),
        };
        for m in p.into_inner() {
            match m.as_rule() {
                Rule::ident => c.name = self.name(&m),
                Rule::string => c.title = Some(string_value(&m)),
                Rule::source_ref => c.source = Some(self.source_ref(m)),
                Rule::property => c.properties.push(self.property(m)?),
                Rule::stage_decl => c.stages.push(self.stage(m)?),
                _ => {}
            }
        }
        Ok(c)
    }

    fn property(&self, p: P) -> R<Property> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        match (it.next(), it.next()) {
            (Some(k), Some(v)) => Ok(Property {
                key: self.name(&k),
                value: self.expr(v)?,
            }),
            _ => Err(SyntaxError::internal(span)),
        }
    }

    fn stage(&self, p: P) -> R<StageDecl> {
        let span = self.span(&p);
        let mut s = StageDecl {
            kind: StageKind::Stage,
            name: Name {
                text: String::new(),
                span,
            },
            title: None,
            source: None,
            properties: Vec::new(),
            routes: Vec::new(),
            span,
        };
        for m in p.into_inner() {
            match m.as_rule() {
                Rule::stage_kind if m.as_str() == "qualification" => {
                    s.kind = StageKind::Qualification;
                }
                Rule::ident => s.name = self.name(&m),
                Rule::string => s.title = Some(string_value(&m)),
                Rule::source_ref => s.source = Some(self.source_ref(m)),
                Rule::property => s.properties.push(self.property(m)?),
                Rule::route => s.routes.push(self.route(m)?),
                _ => {}
            }
        }
        Ok(s)
    }

    fn route(&self, p: P) -> R<Route> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let (Some(from), Some(to)) = (it.next(), it.next()) else {
            return Err(SyntaxError::internal(span));
        };
        let from = match from.into_inner().next() {
            Some(f) if f.as_rule() == Rule::places_from => {
                let (a, b) = self.two_ints(f)?;
                RouteFrom::Places(a, b.unwrap_or(a))
            }
            Some(f) => RouteFrom::Group(self.name(&f)),
            None => return Err(SyntaxError::internal(span)),
        };
        let to = match to.into_inner().next() {
            Some(t) if t.as_rule() == Rule::out_target => RouteTarget::Out,
            Some(t) if t.as_rule() == Rule::place_target => {
                let (a, b) = self.two_ints(t)?;
                RouteTarget::Place(a, b.unwrap_or(a))
            }
            Some(t) => RouteTarget::Stage(self.name(&t)),
            None => return Err(SyntaxError::internal(span)),
        };
        Ok(Route { from, to, span })
    }

    fn two_ints(&self, p: P) -> R<(u32, Option<u32>)> {
        let mut nums = Vec::new();
        for n in p.into_inner() {
            let v = n.as_str().parse::<u32>().map_err(|_| {
                self.err(&n, format!("`{}` is too large a place number", n.as_str()))
            })?;
            nums.push(v);
        }
        match nums.as_slice() {
            [a] => Ok((*a, None)),
            [a, b] => Ok((*a, Some(*b))),
            _ => Err(SyntaxError::internal(Span::default())),
        }
    }

    // ── expressions ───────────────────────────────────────────────────────────

    pub(super) fn expr(&self, p: P) -> R<Expr> {
        // Trees are bounded by `nested`, but a debug build's frames are large:
        // grow the stack rather than trust a thread's default.
        stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.expr_inner(p))
    }

    fn expr_inner(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::expr | Rule::paren | Rule::assertion => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| SyntaxError::internal(span))?;
                self.expr(inner)
            }
            Rule::or_expr | Rule::and_expr | Rule::add_expr | Rule::mul_expr | Rule::cmp_expr => {
                self.binary_chain(p)
            }
            Rule::not_expr => {
                let nots = p
                    .clone()
                    .into_inner()
                    .filter(|c| c.as_rule() == Rule::not_op)
                    .count();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() != Rule::not_op {
                        operand = Some(self.nested(nots, span, || self.expr(c))?);
                    }
                }
                let mut e = operand.ok_or_else(|| SyntaxError::internal(span))?;
                for _ in 0..nots {
                    e = Expr {
                        kind: ExprKind::Not(Box::new(e)),
                        span,
                    };
                }
                Ok(e)
            }
            Rule::unary => {
                let negs = p
                    .clone()
                    .into_inner()
                    .filter(|c| c.as_rule() == Rule::neg)
                    .count();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() != Rule::neg {
                        operand = Some(self.nested(negs, span, || self.expr(c))?);
                    }
                }
                let mut e = operand.ok_or_else(|| SyntaxError::internal(span))?;
                for _ in 0..negs {
                    e = Expr {
                        kind: ExprKind::Neg(Box::new(e)),
                        span,
                    };
                }
                Ok(e)
            }
            Rule::postfix => self.postfix(p),
            Rule::if_expr => {
                let mut it = p.into_inner();
                match (it.next(), it.next(), it.next()) {
                    (Some(c), Some(t), Some(e)) => self.nested(1, span, || {
                        Ok(Expr {
                            kind: ExprKind::If(
                                Box::new(self.expr(c)?),
                                Box::new(self.expr(t)?),
                                Box::new(self.expr(e)?),
                            ),
                            span,
                        })
                    }),
                    _ => Err(SyntaxError::internal(span)),
                }
            }
            Rule::let_expr => {
                let mut it = p.into_inner();
                match (it.next(), it.next(), it.next()) {
                    (Some(n), Some(v), Some(b)) => self.nested(1, span, || {
                        Ok(Expr {
                            kind: ExprKind::Let(
                                self.name(&n),
                                Box::new(self.expr(v)?),
                                Box::new(self.expr(b)?),
                            ),
                            span,
                        })
                    }),
                    _ => Err(SyntaxError::internal(span)),
                }
            }
            Rule::match_expr => {
                let mut it = p.into_inner();
                let scrutinee = it.next().ok_or_else(|| SyntaxError::internal(span))?;
                let scrutinee = self.nested(1, span, || self.expr(scrutinee))?;
                let mut arms = Vec::new();
                for arm in it {
                    let mut a = arm.into_inner();
                    let (Some(pat), Some(value)) = (a.next(), a.next()) else {
                        continue;
                    };
                    let pat = match pat.into_inner().next() {
                        Some(x) if x.as_rule() == Rule::path => {
                            Some(x.into_inner().map(|n| self.name(&n)).collect())
                        }
                        _ => None,
                    };
                    arms.push((pat, self.nested(1, span, || self.expr(value))?));
                }
                Ok(Expr {
                    kind: ExprKind::Match(Box::new(scrutinee), arms),
                    span,
                })
            }
            Rule::record_lit => {
                let mut it = p.into_inner();
                let name = it.next().ok_or_else(|| SyntaxError::internal(span))?;
                let mut fields = Vec::new();
                for f in it {
                    let mut fi = f.into_inner();
                    if let (Some(n), Some(v)) = (fi.next(), fi.next()) {
                        fields.push((self.name(&n), self.nested(1, span, || self.expr(v))?));
                    }
                }
                Ok(Expr {
                    kind: ExprKind::Record(self.name(&name), fields),
                    span,
                })
            }
            Rule::penalty => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| SyntaxError::internal(span))?;
                let kind = match inner.as_rule() {
                    Rule::warning_p => PenaltyExpr::Warning,
                    Rule::forfeit_p => PenaltyExpr::Forfeit,
                    Rule::refer_p => PenaltyExpr::Refer(
                        inner
                            .into_inner()
                            .find(|p| p.as_rule() == Rule::string)
                            .map_or(String::new(), |s| string_value(&s)),
                    ),
                    _ => {
                        let amount = inner
                            .into_inner()
                            .find(|p| p.as_rule() != Rule::deduct_kw)
                            .ok_or_else(|| SyntaxError::internal(span))?;
                        let amount = if amount.as_rule() == Rule::path {
                            self.path(amount)
                        } else if amount.as_rule() == Rule::paren {
                            self.nested(1, span, || self.expr(amount))?
                        } else {
                            self.literal(amount)?
                        };
                        PenaltyExpr::Deduct(Box::new(amount))
                    }
                };
                Ok(Expr {
                    kind: ExprKind::Penalty(kind),
                    span,
                })
            }
            Rule::path => Ok(self.path(p)),
            _ => self.literal(p),
        }
    }

    fn binary_chain(&self, p: P) -> R<Expr> {
        // `a + b + c` lowers to `(a + b) + c`: `a` sits one level deeper per operator.
        let span = self.span(&p);
        let operators = p.clone().into_inner().count() / 2;
        self.nested(operators, span, || self.binary_operands(p))
    }

    fn binary_operands(&self, p: P) -> R<Expr> {
        let mut it = p.into_inner();
        let first = it
            .next()
            .ok_or_else(|| SyntaxError::internal(Span::default()))?;
        let mut acc = self.expr(first)?;
        while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
            let op = match op.as_str() {
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                "and" => BinOp::And,
                _ => BinOp::Or,
            };
            let rhs = self.expr(rhs)?;
            let span = acc.span.to(rhs.span);
            acc = Expr {
                kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
                span,
            };
        }
        Ok(acc)
    }

    fn postfix(&self, p: P) -> R<Expr> {
        // `f(x).a.b`: the callee sits one level deeper per call or field.
        let span = self.span(&p);
        let suffixes = p.clone().into_inner().count().saturating_sub(1);
        self.nested(suffixes, span, || self.postfix_chain(p))
    }

    fn postfix_chain(&self, p: P) -> R<Expr> {
        let mut it = p.into_inner();
        let first = it
            .next()
            .ok_or_else(|| SyntaxError::internal(Span::default()))?;
        let mut acc = self.expr(first)?;
        for op in it {
            let span = acc.span.to(self.span(&op));
            acc = match op.as_rule() {
                Rule::call_args => {
                    let mut args = Vec::new();
                    for arg in op.into_inner() {
                        let mut parts: Vec<P> = arg.into_inner().collect();
                        let value = parts.pop().ok_or_else(|| SyntaxError::internal(span))?;
                        let name = parts.pop().map(|n| self.name(&n));
                        args.push((name, self.expr(value)?));
                    }
                    Expr {
                        kind: ExprKind::Call {
                            callee: Box::new(acc),
                            args,
                        },
                        span,
                    }
                }
                _ => {
                    let name = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| SyntaxError::internal(span))?;
                    Expr {
                        kind: ExprKind::Member(Box::new(acc), self.name(&name)),
                        span,
                    }
                }
            };
        }
        Ok(acc)
    }

    fn path(&self, p: P) -> Expr {
        let span = self.span(&p);
        Expr {
            kind: ExprKind::Path(p.into_inner().map(|n| self.name(&n)).collect()),
            span,
        }
    }

    fn literal(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::number => ExprKind::Number(self.decimal(&p)?),
            Rule::quantity => {
                let mut it = p.into_inner();
                let (Some(n), Some(u)) = (it.next(), it.next()) else {
                    return Err(SyntaxError::internal(span));
                };
                ExprKind::Quantity(self.decimal(&n)?, self.unit_expr(u))
            }
            Rule::duration => {
                let mut seconds = Decimal::ZERO;
                for part in p.into_inner() {
                    let mut it = part.into_inner();
                    let (Some(n), Some(u)) = (it.next(), it.next()) else {
                        continue;
                    };
                    let factor = match u.as_str() {
                        "h" => Decimal::from(3600),
                        "min" => Decimal::from(60),
                        _ => Decimal::ONE,
                    };
                    seconds = self
                        .decimal(&n)?
                        .checked_mul(factor)
                        .and_then(|v| seconds.checked_add(v))
                        .ok_or_else(|| self.err(&n, "this duration is too large"))?;
                }
                ExprKind::Duration(seconds)
            }
            Rule::string => ExprKind::Text(string_value(&p)),
            Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
            Rule::date_lit => ExprKind::Date(self.date(p)?),
            Rule::time_lit => ExprKind::Time(self.clock(&p)?),
            Rule::datetime => {
                let clock = p
                    .clone()
                    .into_inner()
                    .find(|c| c.as_rule() == Rule::clock)
                    .ok_or_else(|| SyntaxError::internal(span))?;
                let minutes = self.clock(&clock)?;
                ExprKind::DateTime(self.date(p)?, minutes)
            }
            _ => return Err(SyntaxError::internal(span)),
        };
        Ok(Expr { kind, span })
    }

    fn decimal(&self, p: &P) -> R<Decimal> {
        Decimal::from_str(p.as_str()).map_err(|_| {
            let mut e = self.err(p, format!("the number `{}` is too large", p.as_str()));
            e.help = Some("numbers may have at most 28 significant digits".into());
            e
        })
    }

    fn clock(&self, p: &P) -> R<u16> {
        let s = p.as_str();
        let (h, m) = s.split_once(':').unwrap_or((s, "0"));
        let (h, m) = (
            h.parse::<u16>().unwrap_or(99),
            m.parse::<u16>().unwrap_or(99),
        );
        if h > 23 || m > 59 {
            let mut e = self.err(p, format!("`{s}` is not a time of day"));
            e.code = "E0007";
            e.help = Some("write times as HH:MM, from 00:00 to 23:59".into());
            return Err(e);
        }
        Ok(h * 60 + m)
    }

    fn date(&self, p: P) -> R<DateLit> {
        let span = self.span(&p);
        let mut weekday = None;
        let mut date = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::weekday => weekday = Some((c.as_str().to_string(), self.span(&c))),
                Rule::date => date = Some(c),
                _ => {}
            }
        }
        let d = date.ok_or_else(|| SyntaxError::internal(span))?;
        let text = d.as_str();
        let field = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<i16>().ok());
        let (Some(year), Some(month), Some(day)) = (field(0..4), field(5..7), field(8..10)) else {
            return Err(SyntaxError::internal(span));
        };
        let valid = jiff::civil::Date::new(year, month as i8, day as i8).is_ok();
        if !valid {
            let mut e = self.err(&d, format!("`{text}` is not a date in the calendar"));
            e.code = "E0007";
            e.help = Some("write dates as YYYY-MM-DD".into());
            return Err(e);
        }
        Ok(DateLit {
            weekday,
            year,
            month: month as i8,
            day: day as i8,
            span,
        })
    }
}

/// The text of a string literal with its escapes (`\"`, `\\`, `\n`) resolved.
fn string_value(p: &P) -> String {
    let raw = p.clone().into_inner().next().map_or("", |i| i.as_str());
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}
