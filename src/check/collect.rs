//! Collecting declarations: every name an edition declares, types first
//! (units, enums, records), then values (rules, texts, competitions, examples,
//! the edition header), before any body is checked.

use super::names::{BUILTIN_TYPES, TypeName, ValueName};
use super::{Checker, Pending, declared, idx, source_info};
use crate::diag::Diagnostic;
use crate::ir::{self, Counting, RuleBody, Type};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeMap;

impl Checker {
    /// Registers a name once; a second declaration is an error that points at both.
    pub(super) fn declare(&mut self, name: &ast::Name, what: &str) -> bool {
        // Types and values live apart: a unit may be called `round`, a rule may not.
        let is_type = matches!(what, "unit" | "unit alias" | "enum" | "record");
        let reserved = if is_type {
            BUILTIN_TYPES.contains(&name.text.as_str())
        } else {
            ir::Builtin::named(&name.text).is_some() || ir::ListLoop::named(&name.text).is_some()
        };
        if reserved {
            self.diags.push(
                Diagnostic::error(
                    "E0102",
                    format!("`{}` is a built-in name", name.text),
                    name.span,
                )
                .with_label(format!("this {what} would hide the built-in"))
                .with_help("choose another name"),
            );
            return false;
        }
        if let Some(first) = self.first_declared_at(&name.text) {
            self.diags.push(
                Diagnostic::error(
                    "E0102",
                    format!("`{}` is defined twice", name.text),
                    name.span,
                )
                .with_label(format!("this {what} has the same name"))
                .with_note(first, "first defined here")
                .with_help("rename one of them; names are shared by all files of an edition"),
            );
            return false;
        }
        // A rule's place is its IR's span, found through the names; the rules are
        // most of an edition's names, and one map fewer is held at the peak.
        if what != "rule" {
            self.declared_at.insert(name.text.clone(), name.span);
        }
        true
    }

    /// Where the declaration named `name` is, if one is.
    fn first_declared_at(&self, name: &str) -> Option<Span> {
        self.declared_at
            .get(name)
            .copied()
            .or_else(|| match self.names.values.get(name) {
                Some(ValueName::Rule(i)) => self.program.rules.get(*i as usize).map(|r| r.span),
                _ => None,
            })
    }

    /// Units, enums and records: everything types can name.
    pub(super) fn collect_types(&mut self, items: &[&ast::Item]) {
        for item in items {
            match &item.decl {
                ast::Decl::Unit(u) => self.declare_unit(u),
                ast::Decl::Enum(e) => self.declare_enum(e),
                ast::Decl::Record(r) => self.declare_record(r),
                _ => {}
            }
        }
        // Field types may name records declared later, so resolve them second.
        for item in items {
            if let ast::Decl::Record(r) = &item.decl {
                self.resolve_record_fields(r);
            }
        }
    }

    /// A unit and its aliases, all naming the same canonical unit.
    fn declare_unit(&mut self, u: &ast::UnitDecl) {
        if !self.declare(&u.name, "unit") {
            return;
        }
        let canonical = u.name.text.clone();
        let unit = ir::Unit::base(&canonical);
        // A count is whole too.
        let whole = u.whole || u.count;
        self.names.types.insert(
            canonical.clone(),
            TypeName::Unit {
                unit: unit.clone(),
                whole,
                count: u.count,
            },
        );
        for a in &u.aliases {
            if self.declare(a, "unit alias") {
                self.names.types.insert(
                    a.text.clone(),
                    TypeName::Unit {
                        unit: unit.clone(),
                        whole,
                        count: u.count,
                    },
                );
            }
        }
        self.program.units.push(ir::UnitInfo {
            name: canonical,
            description: u.description.clone(),
            whole,
            count: u.count,
            aliases: u.aliases.iter().map(|a| a.text.clone()).collect(),
            span: u.name.span,
        });
    }

    /// An enum; a variant listed twice is reported.
    fn declare_enum(&mut self, e: &ast::EnumDecl) {
        if !self.declare(&e.name, "enum") {
            return;
        }
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        for (v, _) in &e.variants {
            if let Some(first) = seen.insert(&v.text, v.span) {
                self.diags.push(
                    Diagnostic::error(
                        "E0102",
                        format!("`{}` is listed twice in `{}`", v.text, e.name.text),
                        v.span,
                    )
                    .with_note(first, "first listed here")
                    .with_help("remove one of them"),
                );
            }
        }
        let i = idx(self.program.enums.len());
        self.names
            .types
            .insert(e.name.text.clone(), TypeName::Enum(i));
        self.program.enums.push(ir::EnumInfo {
            name: e.name.text.clone(),
            variants: e.variants.iter().map(|(v, _)| v.text.clone()).collect(),
            labels: e.variants.iter().map(|(_, l)| l.clone()).collect(),
            source: source_info(&e.source),
            span: e.name.span,
        });
    }

    /// A record's name; its fields are resolved once every type is known.
    fn declare_record(&mut self, r: &ast::RecordDecl) {
        if !self.declare(&r.name, "record") {
            return;
        }
        let i = idx(self.program.records.len());
        self.names
            .types
            .insert(r.name.text.clone(), TypeName::Record(i));
        self.program.records.push(ir::RecordInfo {
            name: r.name.text.clone(),
            fields: Vec::new(),
            source: source_info(&r.source),
            span: r.name.span,
        });
    }

    fn resolve_record_fields(&mut self, r: &ast::RecordDecl) {
        let Some(TypeName::Record(i)) = self.names.types.get(&r.name.text).cloned() else {
            return;
        };
        let fields = r
            .fields
            .iter()
            .map(|(n, t)| (n.text.clone(), self.resolve_type(t)))
            .collect();
        if let Some(info) = self.program.records.get_mut(i as usize) {
            info.fields = fields;
        }
    }

    /// Rules, competitions, examples, texts and the edition header.
    ///
    /// A rule's signature (its parameters, result type, source reference and doc
    /// lines) is read here once and not again, so it is freed from the tree as the
    /// rule is declared: the whole tree and the rules' signatures are then never
    /// held at once. A table keeps its parameters, which its lowering points at.
    pub(super) fn collect_values(&mut self, items: &mut [Option<ast::Item>]) -> Vec<Pending> {
        let mut pending = Vec::new();
        let mut edition_at: Option<Span> = None;
        // Each rule is a block of its own and the list holds pointers, so the list
        // is reserved whole (8 bytes a rule) and never copies a rule as it grows.
        let rules = items
            .iter()
            .flatten()
            .filter(|item| {
                matches!(
                    item.decl,
                    ast::Decl::Const(_)
                        | ast::Decl::Fn(_)
                        | ast::Decl::Table(_)
                        | ast::Decl::Scale(_)
                )
            })
            .count();
        self.program.rules.reserve_exact(rules);
        for (at, item) in items.iter_mut().enumerate() {
            let Some(item) = item else { continue };
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            match &item.decl {
                ast::Decl::Const(_)
                | ast::Decl::Fn(_)
                | ast::Decl::Table(_)
                | ast::Decl::Scale(_) => {
                    if let Some(i) = self.declare_rule(item) {
                        pending.push(Pending::Rule(i, at));
                        free_signature(item);
                    }
                }
                ast::Decl::Example(_) => pending.push(Pending::Example(at)),
                ast::Decl::Text(t) => self.declare_text(t),
                ast::Decl::Competition(comp) => {
                    if let Some(i) = self.declare_competition(comp) {
                        pending.push(Pending::Competition(i, at));
                    }
                }
                ast::Decl::Edition(e) => self.declare_edition(e, &mut edition_at),
                ast::Decl::Notice(n) => self.notice(n),
                ast::Decl::Entries(_) | ast::Decl::Federation(_) => {}
                // An amending edition's `remove` lines are applied when it is
                // loaded (`edition::amend`); one that reaches the checker is in
                // an edition that amends none.
                ast::Decl::Remove(r) => self.diags.push(
                    Diagnostic::error(
                        "E1206",
                        "`remove` leaves out declarations of a base edition, but this edition amends none",
                        r.targets.first().map_or(item.span, |t| t.span),
                    )
                    .with_label("nothing to remove this from")
                    .with_help("name the base edition in the header (`amends \"../2015\"`), or delete the declaration instead"),
                ),
                ast::Decl::Unit(_) | ast::Decl::Enum(_) | ast::Decl::Record(_) => {}
            }
        }
        pending
    }

    /// A const, fn, table or scale: its signature is resolved now, its body
    /// (a placeholder until then) once every name is known. Returns the rule's
    /// index, or `None` if the name is taken (reported) or `item` is no rule.
    fn declare_rule(&mut self, item: &ast::Item) -> Option<u32> {
        let doc = item.doc.join("\n");
        let reading = matches!(&item.decl, ast::Decl::Const(k) if k.reading);
        let cites = match &item.decl {
            ast::Decl::Const(k) => k.cites.as_deref().map(Box::from),
            _ => None,
        };
        let (name, params, ret, source): (_, &[ast::Param], Option<&ast::TypeExpr>, _) =
            match &item.decl {
                ast::Decl::Const(k) => (&k.name, &[], Some(&k.ty), &k.source),
                ast::Decl::Fn(f) => (&f.name, &f.params[..], Some(&f.ret), &f.source),
                ast::Decl::Table(t) => (&t.name, &t.params[..], Some(&t.ret), &t.source),
                ast::Decl::Scale(s) => (&s.name, &s.params[..], Some(&s.ret), &s.source),
                _ => return None,
            };
        if !self.declare(name, "rule") {
            return None;
        }
        let i = idx(self.program.rules.len());
        let counting: Box<[Counting]> = params.iter().map(|p| self.counting(&p.ty)).collect();
        let params: Vec<(String, Type)> = params
            .iter()
            .map(|p| (p.name.text.clone(), self.resolve_type(&p.ty)))
            .collect();
        let answer = ret.map_or(Counting::Any, |t| self.counting(t));
        let ret = ret.map_or(Type::Error, |t| self.resolve_type(t));
        self.names
            .values
            .insert(name.text.clone(), ValueName::Rule(i));
        self.program.rules.push(Box::new(ir::Rule {
            name: name.text.clone(),
            params,
            counting,
            answer,
            ret,
            source: source_info(source),
            doc: doc.into(),
            // A placeholder that allocates nothing: every declared rule's body is
            // lowered before anything reads it.
            body: RuleBody::Table { rows: Vec::new() },
            locals: 0,
            reading,
            cites,
            span: name.span,
        }));
        Some(i)
    }

    fn declare_text(&mut self, t: &ast::TextDecl) {
        if self.declare(&t.name, "text") {
            self.program.texts.push(ir::TextRule {
                name: t.name.text.clone(),
                source: source_info(&t.source),
                paragraphs: t.paragraphs.clone(),
                span: t.name.span,
            });
        }
    }

    /// A competition as written; its properties are read once every name is
    /// known. Returns its index, or `None` if the name is taken (reported).
    fn declare_competition(&mut self, comp: &ast::CompetitionDecl) -> Option<u32> {
        if !self.declare(&comp.name, "competition") {
            return None;
        }
        let i = idx(self.declared.len());
        self.names
            .values
            .insert(comp.name.text.clone(), ValueName::Competition(i));
        self.declared.push(declared::Declared {
            name: comp.name.text.clone(),
            title: comp.title.clone(),
            source: source_info(&comp.source),
            span: comp.name.span,
            properties: Vec::new(),
            stages: Vec::new(),
        });
        Some(i)
    }

    /// The edition header, which may be written once (`edition_at`: where it
    /// was first written, if it was).
    fn declare_edition(&mut self, e: &ast::Edition, edition_at: &mut Option<Span>) {
        if let Some(first) = *edition_at {
            self.diags.push(
                Diagnostic::error("E0102", "the edition header is written twice", e.name_span)
                    .with_note(first, "first written here")
                    .with_help("keep one `edition` block per edition"),
            );
            return;
        }
        *edition_at = Some(e.name_span);
        self.program.edition = Some(self.edition(e));
    }

    /// A notice the edition's editors wrote is passed on as a warning.
    fn notice(&mut self, n: &ast::NoticeDecl) {
        let source = n
            .source
            .as_ref()
            .map_or(String::new(), |r| format!(" ({})", r.id));
        self.diags.push(
            Diagnostic::warning(
                "W0601",
                format!("the edition notes{source}: {}", n.text),
                n.span,
            )
            .with_label("noted by the edition's editors"),
        );
    }

    fn edition(&mut self, e: &ast::Edition) -> ir::EditionInfo {
        let date = |x: &ast::Expr| match &x.kind {
            ast::ExprKind::Date(d) => Some(ir::Date {
                year: d.year,
                month: d.month,
                day: d.day,
            }),
            _ => None,
        };
        let updated = e.updated.as_ref().and_then(date);
        let period = e
            .period
            .as_ref()
            .and_then(|(a, b)| Some((date(a)?, date(b)?)));
        if let (Some((a, b)), Some((x, _))) = (period, &e.period)
            && a > b
        {
            self.diags.push(
                Diagnostic::error("E0306", "the period ends before it starts", x.span)
                    .with_help("write the first day first: `period FIRST .. LAST`"),
            );
        }
        ir::EditionInfo {
            name: e.name.clone(),
            source: e.source.clone(),
            updated,
            period,
        }
    }
}

/// Frees what the lowering of a declared rule no longer reads: its doc lines and
/// source reference (copied into the IR), and its parameters and result type
/// (resolved into the IR, with what numbers they admit). A table keeps its parameters, which its lowering
/// points at.
fn free_signature(item: &mut ast::Item) {
    item.doc = Vec::new();
    match &mut item.decl {
        ast::Decl::Const(k) => {
            k.source = None;
            k.ty = ast::TypeExpr::missing();
        }
        ast::Decl::Fn(f) => {
            f.source = None;
            f.params = Vec::new();
            f.ret = ast::TypeExpr::missing();
        }
        ast::Decl::Scale(s) => {
            s.source = None;
            s.params = Vec::new();
            s.ret = ast::TypeExpr::missing();
        }
        _ => {}
    }
}
