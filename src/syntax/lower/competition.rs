//! Lowering a competition declaration: its properties, stages and routes.

use super::{Lower, P, R, string_value};
use crate::syntax::ast::*;
use crate::syntax::{Rule, SyntaxError};

impl Lower {
    pub(super) fn competition(&self, p: P) -> R<CompetitionDecl> {
        let mut c = CompetitionDecl {
            name: Name {
                text: String::new(),
                span: self.span(&p),
            },
            title: None,
            source: None,
            properties: Vec::new(),
            stage_defaults: Vec::new(),
            stages: Vec::new(),
        };
        for m in p.into_inner() {
            match m.as_rule() {
                Rule::ident => c.name = self.name(&m),
                Rule::string => c.title = Some(string_value(&m)),
                Rule::source_ref => c.source = Some(self.source_ref(m)),
                Rule::property => c.properties.push(self.property(m)?),
                Rule::stage_defaults => {
                    for d in m.into_inner() {
                        c.stage_defaults.push(self.property(d)?);
                    }
                }
                Rule::stage_decl => c.stages.push(self.stage(m)?),
                _ => {}
            }
        }
        Ok(c)
    }

    /// `entries { question = rule … }`.
    pub(super) fn entries(&self, p: P) -> R<EntriesDecl> {
        let span = self.span(&p);
        let mut e = EntriesDecl {
            properties: Vec::new(),
            source: None,
            span,
        };
        for m in p.into_inner() {
            match m.as_rule() {
                Rule::source_ref => e.source = Some(self.source_ref(m)),
                Rule::property => e.properties.push(self.property(m)?),
                _ => return Err(SyntaxError::internal(self.span(&m))),
            }
        }
        Ok(e)
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
                let (a, b) = self.bounds(f)?;
                RouteFrom::Places(a, b)
            }
            Some(f) => RouteFrom::Group(self.name(&f)),
            None => return Err(SyntaxError::internal(span)),
        };
        let to = match to.into_inner().next() {
            Some(t) if t.as_rule() == Rule::out_target => RouteTarget::Out,
            Some(t) if t.as_rule() == Rule::place_target => {
                let (a, b) = self.bounds(t)?;
                RouteTarget::Place(a, b)
            }
            Some(t) => RouteTarget::Stage(self.name(&t)),
            None => return Err(SyntaxError::internal(span)),
        };
        Ok(Route { from, to, span })
    }

    /// The bounds of `places A..B` or `place A[..B]`: one bound stands for both.
    fn bounds(&self, p: P) -> R<(Expr, Expr)> {
        let span = self.span(&p);
        let mut bounds = Vec::new();
        for b in p.into_inner() {
            let mut b = b;
            // `target_bound` holds a `route_bound` or a bare number.
            while matches!(b.as_rule(), Rule::target_bound | Rule::route_bound) {
                b = b
                    .into_inner()
                    .next()
                    .ok_or_else(|| SyntaxError::internal(span))?;
            }
            if b.as_rule() != Rule::places_kw && b.as_rule() != Rule::place_kw {
                bounds.push(self.expr(b)?);
            }
        }
        let mut it = bounds.into_iter();
        match (it.next(), it.next(), it.next()) {
            (Some(a), None, None) => Ok((a.clone(), a)),
            (Some(a), Some(b), None) => Ok((a, b)),
            _ => Err(SyntaxError::internal(span)),
        }
    }
}
