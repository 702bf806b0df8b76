//! The block declarations: the edition's header, removals, `entries` and
//! `federation` blocks and competitions with their stages and routes, as
//! `syntax::lower` (`decl`, `competition`) lowers them.

use super::Reader;
use crate::syntax::ast::*;

impl Reader<'_> {
    /// `edition_decl = { !glued_edition ~ "edition" ~ string ~ "{" ~ edition_field* ~ "}" }`, after
    /// its `edition`.
    pub(super) fn edition(&mut self) -> Option<Edition> {
        self.skip();
        let (name, name_at) = self.string()?;
        let mut e = Edition {
            name,
            name_span: self.span(name_at, self.pos),
            source: None,
            amends: None,
            document: None,
            updated: None,
            period: None,
        };
        self.skip();
        if !self.eat("{") {
            return None;
        }
        self.skip();
        if !self.parts(|r| r.edition_field(&mut e)) {
            return None;
        }
        self.skip();
        self.eat("}").then_some(e)
    }

    /// `edition_field = { amends_field | source_field | document_field |
    /// updated_field | period_field }`, each a word and its value.
    fn edition_field(&mut self, e: &mut Edition) -> bool {
        let start = self.pos;
        for (word, slot) in [("amends", 0), ("source", 1), ("document", 2)] {
            self.pos = start;
            if !self.eat(word) {
                continue;
            }
            self.skip();
            let Some((text, at)) = self.string() else {
                continue;
            };
            let span = self.span(at, self.pos);
            match slot {
                0 => e.amends = Some((text, span)),
                1 => e.source = Some(text),
                _ => e.document = Some((text, span)),
            }
            return true;
        }
        self.pos = start;
        if let Some(d) = self.token_then("updated", Self::date_lit) {
            e.updated = Some(d);
            return true;
        }
        self.pos = start;
        if self.eat("period") {
            self.skip();
            let from = self.date_lit();
            self.skip();
            let dots = self.eat("..");
            self.skip();
            if let (Some(from), true, Some(to)) = (from, dots, self.date_lit()) {
                e.period = Some((from, to));
                return true;
            }
        }
        self.pos = start;
        false
    }

    /// `remove_decl = { !glued_remove ~ "remove" ~ remove_target ~ ("," ~ remove_target)* }`,
    /// after its `remove`.
    pub(super) fn remove_decl(&mut self) -> Option<RemoveDecl> {
        self.skip();
        let mut targets = vec![self.remove_target()?];
        self.skip();
        self.repeat_after(",", |r| match r.remove_target() {
            Some(t) => {
                targets.push(t);
                true
            }
            None => false,
        });
        Some(RemoveDecl { targets })
    }

    /// `remove_target = { remove_example | ident }`, with
    /// `remove_example = { !glued_example ~ "example" ~ string }`
    fn remove_target(&mut self) -> Option<RemoveTarget> {
        let start = self.pos;
        if let Some((name, _)) = self.token_then("example", Self::string) {
            return Some(RemoveTarget {
                name,
                example: true,
                span: self.span(start, self.pos),
            });
        }
        let n = self.ident()?;
        Some(RemoveTarget {
            name: self.name(n).text,
            example: false,
            span: self.span(n.0, n.1),
        })
    }

    /// `entries_decl = { !glued_entries ~ "entries" ~ source_ref? ~ "{" ~ property* ~ "}" }`, and
    /// `federation_decl`, the same after its own word.
    pub(super) fn entries(&mut self, word: &str) -> Option<EntriesDecl> {
        let start = self.pos;
        self.eat(word);
        self.skip();
        let source = self.source_ref();
        self.skip();
        let properties = self.properties()?;
        Some(EntriesDecl {
            properties,
            source,
            span: self.span(start, self.pos),
        })
    }

    /// `"{" ~ property* ~ "}"`
    fn properties(&mut self) -> Option<Vec<Property>> {
        if !self.eat("{") {
            return None;
        }
        self.skip();
        let mut properties = Vec::new();
        let read = self.parts(|r| r.property().map(|p| properties.push(p)).is_some());
        if !read {
            return None;
        }
        self.skip();
        self.eat("}").then_some(properties)
    }

    /// `property = { ident ~ "=" ~ expr }`
    fn property(&mut self) -> Option<Property> {
        let start = self.pos;
        let read = self.ident().and_then(|key| {
            self.skip();
            if !self.eat("=") {
                return None;
            }
            self.skip();
            Some((key, self.root_expr()?))
        });
        match read {
            Some((key, value)) => Some(Property {
                key: self.name(key),
                value,
            }),
            None => {
                self.pos = start;
                None
            }
        }
    }

    /// `competition_decl = { !glued_competition ~ "competition" ~ ident ~ string? ~ source_ref? ~ "{" ~
    /// comp_member* ~ "}" }`, with
    /// `comp_member = _{ stage_defaults | stage_decl | property }`
    pub(super) fn competition(&mut self) -> Option<CompetitionDecl> {
        self.eat("competition");
        let name = self.after_layout_ident()?;
        self.skip();
        let title = self.string().map(|(t, _)| t);
        self.skip();
        let source = self.source_ref();
        self.skip();
        let mut c = CompetitionDecl {
            name: self.name(name),
            title,
            source,
            properties: Vec::new(),
            stage_defaults: Vec::new(),
            stages: Vec::new(),
        };
        if !self.eat("{") {
            return None;
        }
        self.skip();
        if !self.parts(|r| r.comp_member(&mut c)) {
            return None;
        }
        self.skip();
        self.eat("}").then_some(c)
    }

    fn comp_member(&mut self, c: &mut CompetitionDecl) -> bool {
        let start = self.pos;
        // `stage_defaults = { !glued_stages ~ "stages" ~ "{" ~ property* ~ "}" }`
        if let Some(mut defaults) = self.token_then("stages", Self::properties) {
            c.stage_defaults.append(&mut defaults);
            return true;
        }
        if let Some(stage) = self.stage() {
            c.stages.push(stage);
            return true;
        }
        self.pos = start;
        match self.property() {
            Some(p) => {
                c.properties.push(p);
                true
            }
            None => false,
        }
    }

    /// `stage_decl = { stage_kind ~ ident ~ string? ~ source_ref? ~ "{" ~
    /// (route | property)* ~ "}" }`, `stage_kind = { !glued_stage ~ "stage" | !glued_qualification ~ "qualification" }`
    fn stage(&mut self) -> Option<StageDecl> {
        let start = self.pos;
        let kind = if self.eat("stage") {
            StageKind::Stage
        } else if self.eat("qualification") {
            StageKind::Qualification
        } else {
            return None;
        };
        let name = self.after_layout_ident()?;
        self.skip();
        let title = self.string().map(|(t, _)| t);
        self.skip();
        let source = self.source_ref();
        self.skip();
        if !self.eat("{") {
            return None;
        }
        self.skip();
        let (mut properties, mut routes) = (Vec::new(), Vec::new());
        let read = self.parts(|r| {
            if let Some(route) = r.route() {
                routes.push(route);
            } else if let Some(p) = r.property() {
                properties.push(p);
            } else {
                return false;
            }
            true
        });
        if !read {
            return None;
        }
        self.skip();
        self.eat("}").then(|| StageDecl {
            kind,
            name: self.name(name),
            title,
            source,
            properties,
            routes,
            span: self.span(start, self.pos),
        })
    }

    /// `route = { route_from ~ "->" ~ route_target }`, with
    /// `route_from = { places_from | ident }` and
    /// `route_target = { out_target | place_target | ident }`
    fn route(&mut self) -> Option<Route> {
        let start = self.pos;
        let read = self.route_here(start);
        if read.is_none() {
            self.pos = start;
        }
        read
    }

    fn route_here(&mut self, start: usize) -> Option<Route> {
        // `places_from = { places_kw ~ route_bound ~ ".." ~ route_bound }`
        let places = if self.eat("places") {
            self.skip();
            let a = self.root_arith();
            self.skip();
            let dots = self.eat("..");
            self.skip();
            match (a, dots, self.root_arith()) {
                (Some(a), true, Some(b)) => Some(RouteFrom::Places(a, b)),
                _ => None,
            }
        } else {
            None
        };
        if self.unsure {
            return None;
        }
        let from = match places {
            Some(p) => p,
            None => {
                self.pos = start;
                RouteFrom::Group(self.ident().map(|n| self.name(n))?)
            }
        };
        self.skip();
        if !self.eat("->") {
            return None;
        }
        self.skip();
        let to = self.route_target()?;
        Some(Route {
            from,
            to,
            span: self.span(start, self.pos),
        })
    }

    fn route_target(&mut self) -> Option<RouteTarget> {
        let start = self.pos;
        if self.eat("out") {
            return Some(RouteTarget::Out);
        }
        // `place_target = { place_kw ~ target_bound ~ (".." ~ target_bound)? }`
        if self.eat("place") {
            self.skip();
            if let Some(a) = self.target_bound() {
                self.skip();
                let before = self.pos;
                let b = if self.eat("..") {
                    self.skip();
                    self.target_bound()
                } else {
                    None
                };
                if self.unsure {
                    return None;
                }
                return Some(match b {
                    Some(b) => RouteTarget::Place(a, b),
                    None => {
                        self.pos = before;
                        RouteTarget::Place(a.clone(), a)
                    }
                });
            }
            if self.unsure {
                return None;
            }
            self.pos = start;
        }
        let n = self.ident()?;
        Some(RouteTarget::Stage(self.name(n)))
    }

    /// `route_bound = { arith }`, an expression of its own.
    fn root_arith(&mut self) -> Option<Expr> {
        self.nesting = 0;
        self.arith()
    }

    /// `target_bound = { route_bound ~ !("->" | "=") | number }`: a bound that the
    /// next route or property follows is the number alone.
    fn target_bound(&mut self) -> Option<Expr> {
        let start = self.pos;
        if let Some(e) = self.root_arith() {
            self.skip();
            if !self.at_str("->") && !self.at_str("=") {
                return Some(e);
            }
        }
        if self.unsure {
            return None;
        }
        self.pos = start;
        let n = self.number()?;
        let value = self.decimal(n)?;
        Some(Expr {
            kind: ExprKind::Number(value),
            span: self.span(n.0, n.1),
        })
    }
}
