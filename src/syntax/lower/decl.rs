//! Lowering declarations: the edition header, units, enums, records, tables,
//! scales and their ranges, functions, constants, examples and texts.

use super::{Lower, P, R, nfc, string_value};
use crate::source::Span;
use crate::syntax::ast::*;
use crate::syntax::{Rule, SyntaxError};

impl Lower {
    pub(super) fn edition(&self, p: P) -> R<Edition> {
        let mut inner = p.into_inner();
        let name_pair = inner
            .next()
            .ok_or_else(|| SyntaxError::internal(Span::default()))?;
        let mut e = Edition {
            name: string_value(&name_pair),
            name_span: self.span(&name_pair),
            source: None,
            amends: None,
            document: None,
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
                Rule::amends_field => {
                    e.amends = parts.next().map(|s| (string_value(&s), self.span(&s)));
                }
                Rule::document_field => {
                    e.document = parts.next().map(|s| (string_value(&s), self.span(&s)));
                }
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

    pub(super) fn remove_decl(&self, p: P) -> RemoveDecl {
        let targets = p
            .into_inner()
            .filter_map(|t| t.into_inner().next())
            .map(|t| {
                let span = self.span(&t);
                match t.as_rule() {
                    Rule::remove_example => RemoveTarget {
                        name: t
                            .into_inner()
                            .next()
                            .map_or(String::new(), |s| string_value(&s)),
                        example: true,
                        span,
                    },
                    _ => RemoveTarget {
                        name: nfc(t.as_str()),
                        example: false,
                        span,
                    },
                }
            })
            .collect();
        RemoveDecl { targets }
    }

    pub(super) fn unit_decl(&self, p: P) -> UnitDecl {
        let mut inner = p.into_inner();
        let mut u = UnitDecl {
            name: inner.next().map(|n| self.name(&n)).unwrap_or(Name {
                text: String::new(),
                span: Span::default(),
            }),
            description: None,
            whole: false,
            count: false,
            aliases: Vec::new(),
        };
        for c in inner {
            match c.as_rule() {
                Rule::string => u.description = Some(string_value(&c)),
                Rule::whole_flag => u.whole = true,
                Rule::count_flag => u.count = true,
                Rule::unit_alias => u.aliases = c.into_inner().map(|a| self.name(&a)).collect(),
                _ => {}
            }
        }
        u
    }

    pub(super) fn source_ref(&self, p: P) -> Box<SourceRef> {
        let span = self.span(&p);
        let mut r = SourceRef {
            id: String::new(),
            pages: None,
            section: None,
            span,
            id_span: span,
            pages_span: None,
            section_span: None,
        };
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::rule_id => {
                    r.id = c.as_str().to_string();
                    r.id_span = self.span(&c);
                }
                Rule::pages => {
                    r.pages = Some(c.as_str().trim_start_matches("p.").to_string());
                    r.pages_span = Some(self.span(&c));
                }
                Rule::string => {
                    r.section = Some(string_value(&c));
                    r.section_span = Some(self.span(&c));
                }
                _ => {}
            }
        }
        Box::new(r)
    }

    pub(super) fn enum_decl(&self, p: P) -> EnumDecl {
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

    pub(super) fn record_decl(&self, p: P) -> RecordDecl {
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

    /// `VP`, `SEK/player`, `[VP]`, `[[VP]]`. Lists nest no deeper than the
    /// pre-scan allows brackets to.
    pub(super) fn type_expr(&self, p: P) -> TypeExpr {
        let Some(inner) = p.into_inner().next() else {
            return TypeExpr::missing();
        };
        if inner.as_rule() == Rule::list_type {
            self.list_type(inner)
        } else {
            TypeExpr::Named(self.unit_expr(inner))
        }
    }

    /// `[T]`
    pub(super) fn list_type(&self, p: P) -> TypeExpr {
        let span = self.span(&p);
        match p.into_inner().next() {
            Some(element) => TypeExpr::List(Box::new(self.type_expr(element)), span),
            None => TypeExpr::missing(),
        }
    }

    /// `SEK/player` is one atomic token; its parts are split here.
    pub(super) fn unit_expr(&self, p: P) -> UnitExpr {
        let span = self.span(&p);
        // Exactly as long as written: a tree holds thousands of units.
        let mut num = Vec::with_capacity(1);
        let mut den = Vec::with_capacity(p.as_str().matches('/').count());
        let mut offset = span.start;
        for (i, part) in p.as_str().split('/').enumerate() {
            let len = u32::try_from(part.len()).unwrap_or(0);
            let name = Name {
                text: nfc(part),
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
        UnitExpr {
            num: num.into(),
            den: den.into(),
            span,
        }
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
    fn signature(
        &self,
        pairs: &mut Vec<P>,
    ) -> (Name, Vec<Param>, TypeExpr, Option<Box<SourceRef>>) {
        let mut name = Name {
            text: String::new(),
            span: Span::default(),
        };
        let mut params = Vec::new();
        let mut ret = TypeExpr::missing();
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

    pub(super) fn table_decl(&self, p: P) -> R<TableDecl> {
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
        rows.shrink_to_fit();
        Ok(TableDecl {
            name,
            params,
            ret,
            source,
            rows,
        })
    }

    pub(super) fn scale_decl(&self, p: P) -> R<ScaleDecl> {
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
        arms.shrink_to_fit();
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
                    text: nfc(lo.as_str().trim()),
                    span: self.at(start, start + lo.as_str().trim().len()),
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
                    _ => range.except = Some(Box::new(value.clone())),
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

    pub(super) fn fn_decl(&self, p: P) -> R<FnDecl> {
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
                kind: ExprKind::Let(Box::new(name), Box::new(value), Box::new(body)),
                span,
            };
        }
        Ok(body)
    }

    pub(super) fn const_decl(&self, p: P) -> R<ConstDecl> {
        let mut name = None;
        let mut ty = None;
        let mut source = None;
        let mut value = None;
        let mut reading = false;
        let mut cites = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::reading_kw => reading = true,
                Rule::cites => cites = c.into_inner().next().map(|s| string_value(&s)),
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
                reading,
                cites,
            }),
            _ => Err(SyntaxError::internal(Span::default())),
        }
    }

    pub(super) fn example_decl(&self, p: P) -> R<ExampleDecl> {
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
        e.assertions.shrink_to_fit();
        Ok(e)
    }

    pub(super) fn text_decl(&self, p: P) -> TextDecl {
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
}
