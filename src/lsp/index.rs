//! Every name an edition declares and every place one is used, across its files:
//! what go to definition, find references, hover, completion and the semantic
//! tokens read.
//!
//! Built from the syntax trees, not the checked IR, so that it still serves while
//! a file is half typed: a file that does not parse contributes the tree of its
//! last version that did (the store keeps it, with the text its spans point
//! into). Names are resolved as the checker resolves them: parameters, `let` and
//! lambda names first, then the edition's rules and consts, types and units,
//! competitions; `Enum.Variant` and `competition.stage` by their first part; a
//! bare variant in a `match` arm or a table row by the enum its context names.

use crate::syntax::ast::{self, Decl, Expr, ExprKind, TypeExpr};
use std::collections::BTreeMap;

/// What kind of thing a name declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefKind {
    /// `fn`
    Fn,
    /// `table`
    Table,
    /// `scale`
    Scale,
    /// `const`
    Const,
    /// `procedure`
    Procedure,
    /// `enum`
    Enum,
    /// A variant of an enum.
    Variant,
    /// `record`
    Record,
    /// A field of a record.
    Field,
    /// `unit`
    Unit,
    /// `competition`
    Competition,
    /// A stage or qualification of a competition.
    Stage,
}

/// A byte range in one of the analysis's files (by position in its file list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The file's position in the analysis.
    pub file: usize,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A declared name.
#[derive(Debug, Clone)]
pub struct Def {
    /// The name.
    pub name: String,
    /// What it declares.
    pub kind: DefKind,
    /// Where the name is written in its declaration.
    pub at: Place,
    /// The whole declaration.
    pub whole: Place,
    /// The enum, record or competition it belongs to.
    pub container: Option<usize>,
    /// Its `///` lines.
    pub doc: Vec<String>,
    /// Its source reference.
    pub source: Option<ast::SourceRef>,
    /// Its declaration as written, up to its body (`fn f(x: T) -> R`).
    pub signature: String,
}

/// One place a name is written, resolved.
#[derive(Debug, Clone, Copy)]
pub struct Occurrence {
    /// Where.
    pub at: Place,
    /// The definition (an index into [`Index::defs`]).
    pub def: usize,
    /// Whether this is the declaration itself.
    pub is_def: bool,
}

/// The names of an edition and their uses.
#[derive(Debug, Default)]
pub struct Index {
    /// Every declaration, in file and source order.
    pub defs: Vec<Def>,
    /// Every resolved use and declaration.
    pub occurrences: Vec<Occurrence>,
    values: BTreeMap<String, usize>,
    types: BTreeMap<String, usize>,
    competitions: BTreeMap<String, usize>,
    members: BTreeMap<(usize, String), usize>,
    variants_named: BTreeMap<String, Vec<usize>>,
}

/// One file's tree and the text its spans point into.
pub struct Tree<'a> {
    /// The file's position in the analysis.
    pub file: usize,
    /// The text the tree was parsed from.
    pub text: &'a str,
    /// The tree.
    pub ast: &'a ast::File,
}

impl Index {
    /// Indexes the trees of an edition's files.
    pub fn build(trees: &[Tree<'_>]) -> Index {
        let mut ix = Index::default();
        for t in trees {
            for item in &t.ast.items {
                ix.declare_item(t, item);
            }
        }
        for t in trees {
            for item in &t.ast.items {
                let mut w = Walker {
                    ix: &mut ix,
                    file: t.file,
                    scope: Vec::new(),
                    competition: None,
                };
                w.item(item);
            }
        }
        ix.occurrences
            .sort_by_key(|o| (o.at.file, o.at.start, o.at.end));
        ix
    }

    /// The occurrence at a byte offset of a file (its start to its end, both
    /// included, so a cursor just after a name still finds it).
    pub fn at(&self, file: usize, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| o.at.file == file && o.at.start <= offset && offset <= o.at.end)
            .min_by_key(|o| o.at.end - o.at.start)
    }

    /// The occurrence written exactly at `start..end` of a file.
    pub fn exactly(&self, file: usize, start: usize, end: usize) -> Option<&Occurrence> {
        let from = self
            .occurrences
            .partition_point(|o| (o.at.file, o.at.start) < (file, start));
        self.occurrences[from..]
            .iter()
            .take_while(|o| o.at.file == file && o.at.start == start)
            .find(|o| o.at.end == end)
    }

    /// Every occurrence of a definition.
    pub fn uses(&self, def: usize) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.def == def)
    }

    /// The enum, record or competition of this name.
    pub fn container_named(&self, name: &str) -> Option<usize> {
        self.types
            .get(name)
            .or_else(|| self.competitions.get(name))
            .copied()
    }

    /// The members (variants, fields, stages) of a definition, in source order.
    pub fn members_of(&self, container: usize) -> Vec<&Def> {
        self.defs
            .iter()
            .filter(|d| d.container == Some(container))
            .collect()
    }

    /// A rule, const, type, unit or competition by name (what a bare name can be).
    pub fn global(&self, name: &str) -> Option<usize> {
        self.values
            .get(name)
            .or_else(|| self.types.get(name))
            .or_else(|| self.competitions.get(name))
            .copied()
    }

    fn add(&mut self, def: Def) -> usize {
        let id = self.defs.len();
        let key = def.name.clone();
        let map = match (def.kind, def.container) {
            (DefKind::Variant | DefKind::Field | DefKind::Stage, Some(c)) => {
                if def.kind == DefKind::Variant {
                    self.variants_named.entry(key.clone()).or_default().push(id);
                }
                self.members.entry((c, key)).or_insert(id);
                None
            }
            (DefKind::Enum | DefKind::Record | DefKind::Unit, _) => Some(&mut self.types),
            (DefKind::Competition, _) => Some(&mut self.competitions),
            _ => Some(&mut self.values),
        };
        if let Some(map) = map {
            map.entry(def.name.clone()).or_insert(id);
        }
        self.occurrences.push(Occurrence {
            at: def.at,
            def: id,
            is_def: true,
        });
        self.defs.push(def);
        id
    }

    fn declare_item(&mut self, t: &Tree<'_>, item: &ast::Item) {
        let whole = place(t.file, item.span);
        let new =
            |name: &ast::Name, kind, signature: String, source: Option<&ast::SourceRef>| Def {
                name: name.text.clone(),
                kind,
                at: place(t.file, name.span),
                whole,
                container: None,
                doc: item.doc.clone(),
                source: source.cloned(),
                signature,
            };
        let sig = |word: &str, name: &ast::Name, ret: &TypeExpr| {
            format!(
                "{word} {}",
                squash(slice(t.text, name.span.start, ret.span().end))
            )
        };
        match &item.decl {
            Decl::Fn(f) => {
                self.add(new(
                    &f.name,
                    DefKind::Fn,
                    sig("fn", &f.name, &f.ret),
                    f.source.as_deref(),
                ));
            }
            Decl::Table(f) => {
                let s = sig("table", &f.name, &f.ret);
                self.add(new(&f.name, DefKind::Table, s, f.source.as_deref()));
            }
            Decl::Scale(f) => {
                let s = sig("scale", &f.name, &f.ret);
                self.add(new(&f.name, DefKind::Scale, s, f.source.as_deref()));
            }
            Decl::Const(c) => {
                let word = if c.reading { "reading" } else { "const" };
                self.add(new(
                    &c.name,
                    DefKind::Const,
                    sig(word, &c.name, &c.ty),
                    c.source.as_deref(),
                ));
            }
            Decl::Text(p) => {
                let s = format!("procedure {}", p.name.text);
                self.add(new(&p.name, DefKind::Procedure, s, p.source.as_deref()));
            }
            Decl::Unit(u) => {
                let mut s = format!("unit {}", u.name.text);
                if let Some(d) = &u.description {
                    s.push_str(&format!(" \"{d}\""));
                }
                let id = self.add(new(&u.name, DefKind::Unit, s, None));
                for a in &u.aliases {
                    self.types.entry(a.text.clone()).or_insert(id);
                    self.occurrences.push(Occurrence {
                        at: place(t.file, a.span),
                        def: id,
                        is_def: false,
                    });
                }
            }
            Decl::Enum(e) => self.declare_enum(t, item, e),
            Decl::Record(r) => {
                let fields: Vec<String> = r
                    .fields
                    .iter()
                    .map(|(n, ty)| format!("{}: {}", n.text, type_text(t.text, ty)))
                    .collect();
                let s = format!("record {} {{ {} }}", r.name.text, fields.join(", "));
                let id = self.add(new(&r.name, DefKind::Record, s, r.source.as_deref()));
                for (n, ty) in &r.fields {
                    let s = format!("{}.{}: {}", r.name.text, n.text, type_text(t.text, ty));
                    let mut d = new(n, DefKind::Field, s, r.source.as_deref());
                    d.container = Some(id);
                    d.doc = Vec::new();
                    self.add(d);
                }
            }
            Decl::Competition(c) => {
                let mut s = format!("competition {}", c.name.text);
                if let Some(title) = &c.title {
                    s.push_str(&format!(" \"{title}\""));
                }
                let id = self.add(new(&c.name, DefKind::Competition, s, c.source.as_deref()));
                for st in &c.stages {
                    let word = match st.kind {
                        ast::StageKind::Qualification => "qualification",
                        ast::StageKind::Stage => "stage",
                    };
                    let mut s = format!("{word} {}.{}", c.name.text, st.name.text);
                    if let Some(title) = &st.title {
                        s.push_str(&format!(" \"{title}\""));
                    }
                    let mut d = new(&st.name, DefKind::Stage, s, st.source.as_deref());
                    d.container = Some(id);
                    d.whole = place(t.file, st.span);
                    d.doc = Vec::new();
                    self.add(d);
                }
            }
            Decl::Edition(_)
            | Decl::Example(_)
            | Decl::Notice(_)
            | Decl::Entries(_)
            | Decl::Federation(_)
            | Decl::Remove(_) => {}
        }
    }

    fn declare_enum(&mut self, t: &Tree<'_>, item: &ast::Item, e: &ast::EnumDecl) {
        let names: Vec<&str> = e.variants.iter().map(|(n, _)| n.text.as_str()).collect();
        let shown = if names.len() > 12 {
            format!("{}, … ({} in all)", names[..12].join(", "), names.len())
        } else {
            names.join(", ")
        };
        let whole = place(t.file, item.span);
        let id = self.add(Def {
            name: e.name.text.clone(),
            kind: DefKind::Enum,
            at: place(t.file, e.name.span),
            whole,
            container: None,
            doc: item.doc.clone(),
            source: e.source.as_deref().cloned(),
            signature: format!("enum {} {{ {shown} }}", e.name.text),
        });
        for (n, label) in &e.variants {
            let mut s = format!("{}.{}", e.name.text, n.text);
            if let Some(l) = label {
                s.push_str(&format!(" \"{l}\""));
            }
            self.add(Def {
                name: n.text.clone(),
                kind: DefKind::Variant,
                at: place(t.file, n.span),
                whole,
                container: Some(id),
                doc: Vec::new(),
                source: e.source.as_deref().cloned(),
                signature: s,
            });
        }
    }
}

/// A span as a place in file `file` (the span's own file id is that of the
/// parse that made it, which may be an earlier analysis's).
fn place(file: usize, span: crate::source::Span) -> Place {
    Place {
        file,
        start: span.start as usize,
        end: span.end as usize,
    }
}

fn slice(text: &str, start: u32, end: u32) -> &str {
    text.get(start as usize..end as usize).unwrap_or("")
}

/// Runs of white space as one space (a signature written over several lines).
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn type_text(text: &str, ty: &TypeExpr) -> String {
    let s = ty.span();
    squash(slice(text, s.start, s.end))
}

/// The first name of a written type (`District` of `District`, `SEK` of
/// `SEK/player`).
fn type_name(ty: &TypeExpr) -> Option<&str> {
    match ty {
        TypeExpr::Named(u) if u.den.is_empty() && u.num.len() == 1 => {
            u.num.first().map(|n| n.text.as_str())
        }
        _ => None,
    }
}

/// Resolves the uses in one declaration.
struct Walker<'i> {
    ix: &'i mut Index,
    file: usize,
    /// Names bound here (parameters, `let`, lambdas), with their written type.
    scope: Vec<(String, Option<String>)>,
    /// The competition whose properties are being read.
    competition: Option<usize>,
}

impl Walker<'_> {
    fn hit(&mut self, name: &ast::Name, def: usize) {
        self.ix.occurrences.push(Occurrence {
            at: place(self.file, name.span),
            def,
            is_def: false,
        });
    }

    fn item(&mut self, item: &ast::Item) {
        match &item.decl {
            Decl::Edition(e) => {
                for x in e
                    .updated
                    .iter()
                    .chain(e.period.iter().flat_map(|(a, b)| [a, b]))
                {
                    self.expr(x);
                }
            }
            Decl::Unit(_) | Decl::Enum(_) | Decl::Text(_) | Decl::Notice(_) => {}
            Decl::Record(r) => r.fields.iter().for_each(|(_, ty)| self.ty(ty)),
            Decl::Table(t) => {
                self.params(&t.params, &t.ret);
                let keyed = t
                    .params
                    .first()
                    .and_then(|p| type_name(&p.ty))
                    .map(String::from);
                for (key, value) in &t.rows {
                    if let Some(k) = key {
                        self.variant(k, keyed.as_deref());
                    }
                    self.expr(value);
                }
            }
            Decl::Scale(s) => {
                self.params(&s.params, &s.ret);
                for r in s.domain.iter().chain(s.arms.iter().map(|(r, _)| r)) {
                    self.range(r);
                }
                for (_, value) in &s.arms {
                    self.expr(value);
                }
            }
            Decl::Fn(f) => {
                self.params(&f.params, &f.ret);
                self.expr(&f.body);
            }
            Decl::Const(c) => {
                self.ty(&c.ty);
                self.expr(&c.value);
            }
            Decl::Example(e) => e.assertions.iter().for_each(|a| self.expr(a)),
            Decl::Competition(c) => self.competition(c),
            Decl::Entries(e) => e.properties.iter().for_each(|p| self.expr(&p.value)),
            // `vacancies_unique = [declined.pair]` names the command's file's
            // keys, not the edition's declarations.
            Decl::Federation(e) => e
                .properties
                .iter()
                .filter(|p| !p.key.text.ends_with(crate::ir::commands::UNIQUE_SUFFIX))
                .for_each(|p| self.expr(&p.value)),
            // The names a `remove` line gives are the base edition's, not this one's.
            Decl::Remove(_) => {}
        }
    }

    fn competition(&mut self, c: &ast::CompetitionDecl) {
        self.competition = self.ix.competitions.get(&c.name.text).copied();
        for p in c.properties.iter().chain(&c.stage_defaults) {
            self.expr(&p.value);
        }
        for st in &c.stages {
            for p in &st.properties {
                self.expr(&p.value);
            }
            for r in &st.routes {
                if let ast::RouteFrom::Places(a, b) = &r.from {
                    self.expr(a);
                    self.expr(b);
                }
                match &r.to {
                    ast::RouteTarget::Stage(n) => {
                        if let Some(d) = self.stage(n) {
                            self.hit(n, d);
                        }
                    }
                    ast::RouteTarget::Place(a, b) => {
                        self.expr(a);
                        self.expr(b);
                    }
                    ast::RouteTarget::Out => {}
                }
            }
        }
        self.competition = None;
    }

    fn stage(&self, n: &ast::Name) -> Option<usize> {
        let c = self.competition?;
        self.ix.members.get(&(c, n.text.clone())).copied()
    }

    fn params(&mut self, params: &[ast::Param], ret: &TypeExpr) {
        self.scope.clear();
        for p in params {
            self.ty(&p.ty);
            self.scope
                .push((p.name.text.clone(), type_name(&p.ty).map(String::from)));
        }
        self.ty(ret);
    }

    fn range(&mut self, r: &ast::Range) {
        for b in r.lower.iter().chain(r.upper.iter()) {
            self.expr(&b.value);
        }
        if let Some(e) = &r.except {
            self.expr(e);
        }
    }

    fn ty(&mut self, ty: &TypeExpr) {
        match ty {
            TypeExpr::Named(u) => self.unit(u),
            TypeExpr::List(inner, _) => self.ty(inner),
        }
    }

    fn unit(&mut self, u: &ast::UnitExpr) {
        for n in u.num.iter().chain(&u.den) {
            if let Some(d) = self.ix.types.get(&n.text).copied() {
                self.hit(n, d);
            }
        }
    }

    /// A bare variant (a table row, a `match` arm): of the enum the context
    /// names, else of the one enum that has a variant of this name.
    fn variant(&mut self, n: &ast::Name, enum_name: Option<&str>) {
        let of_context = enum_name
            .and_then(|e| self.ix.types.get(e).copied())
            .and_then(|e| self.ix.members.get(&(e, n.text.clone())).copied());
        let found = of_context.or_else(|| match self.ix.variants_named.get(&n.text) {
            Some(v) if v.len() == 1 => v.first().copied(),
            _ => None,
        });
        if let Some(d) = found {
            self.hit(n, d);
        }
    }

    fn local(&self, name: &str) -> Option<&(String, Option<String>)> {
        self.scope.iter().rev().find(|(n, _)| n == name)
    }

    fn path(&mut self, names: &[ast::Name]) {
        let Some(first) = names.first() else {
            return;
        };
        if self.local(&first.text).is_some() {
            return;
        }
        if let Some(d) = self.ix.values.get(&first.text).copied() {
            self.hit(first, d);
            return;
        }
        let container = self
            .ix
            .types
            .get(&first.text)
            .or_else(|| self.ix.competitions.get(&first.text))
            .copied();
        if let Some(c) = container {
            self.hit(first, c);
            if let Some(second) = names.get(1)
                && let Some(m) = self.ix.members.get(&(c, second.text.clone())).copied()
            {
                self.hit(second, m);
            }
            return;
        }
        if names.len() == 1
            && let Some(d) = self.stage(first)
        {
            self.hit(first, d);
        }
    }

    fn expr(&mut self, e: &Expr) {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(e));
    }

    fn expr_inner(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Number(_)
            | ExprKind::Duration(_)
            | ExprKind::Text(_)
            | ExprKind::Bool(_)
            | ExprKind::Date(_)
            | ExprKind::Time(_)
            | ExprKind::DateTime(..)
            | ExprKind::Invalid(_) => {}
            ExprKind::Quantity(_, u) => self.unit(u),
            ExprKind::Path(names) => self.path(names),
            ExprKind::Call { callee, args } => {
                self.expr(callee);
                args.iter().for_each(|(_, a)| self.expr(a));
            }
            ExprKind::Member(inner, _) | ExprKind::Neg(inner) | ExprKind::Not(inner) => {
                self.expr(inner)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::If(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Let(name, value, body) => {
                self.expr(value);
                self.scope.push((name.text.clone(), None));
                self.expr(body);
                self.scope.pop();
            }
            ExprKind::Match(scrutinee, arms) => self.match_expr(scrutinee, arms),
            ExprKind::Record(name, fields) => {
                let record = self.ix.types.get(&name.text).copied();
                if let Some(r) = record {
                    self.hit(name, r);
                }
                for (field, value) in fields {
                    if let Some(f) =
                        record.and_then(|r| self.ix.members.get(&(r, field.text.clone())).copied())
                    {
                        self.hit(field, f);
                    }
                    self.expr(value);
                }
            }
            ExprKind::Penalty(p) => {
                if let ast::PenaltyExpr::Deduct(x) = p {
                    self.expr(x);
                }
            }
            ExprKind::List(items, ty) => {
                items.iter().for_each(|x| self.expr(x));
                if let Some(t) = ty {
                    self.ty(t);
                }
            }
            ExprKind::Lambda(names, body) => {
                let n = names.len();
                self.scope
                    .extend(names.iter().map(|x| (x.text.clone(), None)));
                self.expr(body);
                self.scope.truncate(self.scope.len().saturating_sub(n));
            }
        }
    }

    fn match_expr(&mut self, scrutinee: &Expr, arms: &[(Option<Vec<ast::Name>>, Expr)]) {
        self.expr(scrutinee);
        // The enum the scrutinee is of, where a parameter's written type says it.
        let enum_name = match &scrutinee.kind {
            ExprKind::Path(names) if names.len() == 1 => names
                .first()
                .and_then(|n| self.local(&n.text))
                .and_then(|(_, ty)| ty.clone()),
            _ => None,
        };
        for (pattern, value) in arms {
            match pattern.as_deref() {
                Some([one]) => self.variant(one, enum_name.as_deref()),
                Some(path) => self.path(path),
                None => {}
            }
            self.expr(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: &str = "unit Coin \"coins\" alias cn
enum Region { Northland \"Nordland\", Islay }
record Team { district: Region, fee: Coin }
";
    const RULES: &str = "table subsidy(d: Region) -> Coin { Northland => 10 Coin, Islay => 20 cn }
const base: Coin = 5 Coin
fn f(d: Region, base: Coin) -> Coin = match d { Northland => base, Region.Islay => let x = subsidy(d) in x + f(d, base) }
const team: Team = Team { district: Region.Northland, fee: base }
competition cup \"Cup\" {
  stage one \"One\" {
    winners -> two
  }
  stage two \"Two\" {
    winners -> out
  }
}
";

    fn index() -> Index {
        let a = crate::syntax::parse_file(TYPES, 0).unwrap();
        let b = crate::syntax::parse_file(RULES, 1).unwrap();
        Index::build(&[
            Tree {
                file: 0,
                text: TYPES,
                ast: &a,
            },
            Tree {
                file: 1,
                text: RULES,
                ast: &b,
            },
        ])
    }

    /// The definition the `nth` (0-based) occurrence of `word` in `text` resolves to.
    fn resolved<'i>(
        ix: &'i Index,
        file: usize,
        text: &str,
        word: &str,
        nth: usize,
    ) -> Option<&'i Def> {
        let (at, _) = text.match_indices(word).nth(nth)?;
        let o = ix.exactly(file, at, at + word.len())?;
        ix.defs.get(o.def)
    }

    #[test]
    fn names_resolve_across_files_and_variants_by_their_context() {
        let ix = index();
        // `Region` in the table's parameter is the enum of the other file.
        let d = resolved(&ix, 1, RULES, "Region", 0).unwrap();
        assert_eq!((d.kind, d.at.file), (DefKind::Enum, 0));
        // The bare row keys and `match` arms are the enum's variants.
        let skane = resolved(&ix, 1, RULES, "Northland", 0).unwrap();
        assert_eq!(
            (skane.kind, skane.name.as_str(), skane.at.file),
            (DefKind::Variant, "Northland", 0)
        );
        assert_eq!(
            resolved(&ix, 1, RULES, "Northland", 1).unwrap().kind,
            DefKind::Variant
        );
        assert_eq!(
            resolved(&ix, 1, RULES, "Islay", 1).unwrap().kind,
            DefKind::Variant
        );
        // A unit's alias is the unit.
        assert_eq!(resolved(&ix, 1, RULES, "cn", 0).unwrap().name, "Coin");
        // Record literal: the record and its fields.
        let team = resolved(&ix, 1, RULES, "Team", 1).unwrap();
        assert_eq!(team.kind, DefKind::Record);
        let field = resolved(&ix, 1, RULES, "fee", 0).unwrap();
        assert_eq!(
            (field.kind, field.container),
            (DefKind::Field, Some(ix.global("Team").unwrap()))
        );
        // A route names a stage of its competition.
        let two = resolved(&ix, 1, RULES, "two", 1).unwrap();
        assert_eq!(two.kind, DefKind::Stage);
        assert_eq!(ix.defs[two.container.unwrap()].name, "cup");
    }

    #[test]
    fn parameters_and_let_names_shadow_the_edition_s_names() {
        let ix = index();
        // In `f`, `base` is the parameter: no use of the const there.
        let const_base = ix.global("base").unwrap();
        let fn_line = RULES.lines().nth(2).unwrap();
        let fn_start = RULES.find(fn_line).unwrap();
        let fn_end = fn_start + fn_line.len();
        assert!(
            ix.uses(const_base)
                .all(|o| !(o.at.file == 1 && fn_start <= o.at.start && o.at.end <= fn_end)),
            "the parameter shadows the const"
        );
        // Outside `f` the const is used (in `team`).
        assert_eq!(ix.uses(const_base).filter(|o| !o.is_def).count(), 1);
        // `subsidy` and the recursive `f` are uses of the rules.
        assert_eq!(
            resolved(&ix, 1, RULES, "subsidy", 1).unwrap().kind,
            DefKind::Table
        );
        assert_eq!(
            ix.uses(ix.global("f").unwrap())
                .filter(|o| !o.is_def)
                .count(),
            1
        );
    }

    #[test]
    fn signatures_are_the_declarations_as_written() {
        let ix = index();
        let sig = |n: &str| ix.defs[ix.global(n).unwrap()].signature.clone();
        assert_eq!(sig("f"), "fn f(d: Region, base: Coin) -> Coin");
        assert_eq!(sig("base"), "const base: Coin");
        assert_eq!(sig("Region"), "enum Region { Northland, Islay }");
        assert_eq!(sig("Team"), "record Team { district: Region, fee: Coin }");
        assert_eq!(sig("Coin"), "unit Coin \"coins\"");
        assert_eq!(sig("cup"), "competition cup \"Cup\"");
    }
}
