//! `entries { question = rule … }`: which rule of the edition answers each question
//! of an entries check or an invoice, each typed against the question's fixed
//! signature (`ir::entries`). A question unknown (E0823), an answer that is no rule
//! of the edition (E0824) or a rule of the wrong signature (E0825) is an error here,
//! at `bfr check`, not a failed call at the director's desk; a block that leaves a
//! question out is a warning (W0823). The block also says which enum plays each
//! role the questions pass variants of (`district = District`); a role given
//! something else, or not given where a question needs it, is E0826. And it says
//! which competitions a team of each form enters (`cc_team = cup`): a role naming
//! something that is no competition is E0827, a competition named by two team
//! roles (or twice) E0828. The amounts it answers are in one currency (E0832).

use super::declared::Declared;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::entries::{self, Answer, Param, QUESTIONS, Question, ROLES, Role, RoleKind, Roles};
use crate::ir::{Program, Type, Unit};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind};
use std::collections::{BTreeMap, BTreeSet};

/// The rule answering each question, and the enum playing each role, from every
/// `entries` block of the edition.
pub(super) fn check(
    program: &Program,
    declared: &[Declared],
    items: &[&ast::Item],
    diags: &mut Diagnostics,
) -> (BTreeMap<String, u32>, Roles) {
    let given = given(items, diags);
    let played = play_roles(program, declared, given.roles, diags);
    let mut missing_reported = BTreeSet::new();
    let mut out = BTreeMap::new();
    let mut currency = Currency::default();
    for (q, p) in given.questions {
        let missing: Vec<&str> = q
            .params
            .iter()
            .filter_map(|(_, k)| match k {
                Param::Enum(r) if played.enum_of(r).is_none() => Some(*r),
                _ => None,
            })
            .collect();
        if !missing.is_empty() {
            for r in missing {
                if missing_reported.insert(r) && !given.at.contains_key(r) {
                    role_not_given(q, r, p, diags);
                }
            }
            continue;
        }
        if let Some(rule) = answer(program, &played, q, p, diags) {
            if q.answer == Answer::Amount {
                currency.note(program, (q, rule), p.value.span);
            }
            out.insert(q.key.to_string(), rule);
        }
    }
    currency.check(diags);
    if let Some(first) = given.blocks.first() {
        unanswered(*first, &given.at, &missing_reported, diags);
    }
    (out, played)
}

/// What the `entries` blocks give: each key's first answer, sorted into the
/// questions and the roles.
struct Given<'a> {
    /// Where each key is answered.
    at: BTreeMap<String, Span>,
    /// Where each block is.
    blocks: Vec<Span>,
    /// The questions answered, each with its answer.
    questions: Vec<(&'static Question, &'a ast::Property)>,
    /// The roles given, each with what plays it.
    roles: Vec<(&'static Role, &'a ast::Property)>,
}

/// Every key of every `entries` block: an unknown one is E0823 (through
/// [`unknown_question`]), one answered twice E0823 at the second.
fn given<'a>(items: &[&'a ast::Item], diags: &mut Diagnostics) -> Given<'a> {
    let mut given = Given {
        at: BTreeMap::new(),
        blocks: Vec::new(),
        questions: Vec::new(),
        roles: Vec::new(),
    };
    for item in items {
        let ast::Decl::Entries(e) = &item.decl else {
            continue;
        };
        given.blocks.push(e.span);
        for p in &e.properties {
            let key = p.key.text.as_str();
            let kind = match (entries::question(key), entries::role(key)) {
                (Some(q), _) => Ok(q),
                (None, Some(r)) => Err(r),
                (None, None) => {
                    unknown_question(p, diags);
                    continue;
                }
            };
            if let Some(first) = given.at.get(key) {
                diags.push(
                    Diagnostic::error("E0823", format!("`{key}` is answered twice"), p.key.span)
                        .with_label("a second answer")
                        .with_note(*first, "the first")
                        .with_help("keep one answer for each question"),
                );
                continue;
            }
            given.at.insert(key.to_string(), p.key.span);
            match kind {
                Ok(q) => given.questions.push((q, p)),
                Err(r) => given.roles.push((r, p)),
            }
        }
    }
    given
}

/// The enum or competitions each role is given. The roles are read enums
/// before their variants, since a variant is one of its role's enum.
fn play_roles(
    program: &Program,
    declared: &[Declared],
    mut roles: Vec<(&'static Role, &ast::Property)>,
    diags: &mut Diagnostics,
) -> Roles {
    roles.sort_by_key(|(r, _)| matches!(r.kind, RoleKind::Variant { .. }));
    let mut played = Roles::default();
    let mut named: Vec<(u32, &str, Span)> = Vec::new();
    for (r, p) in roles {
        if r.kind == RoleKind::Competitions {
            if let Some(found) = competitions(program, declared, r, p, diags) {
                let mut kept = Vec::new();
                for (c, at) in found {
                    if once(declared, &named, r.key, c, at, diags) {
                        named.push((c, r.key, at));
                        kept.push(c);
                    }
                }
                played.competitions.insert(r.key.to_string(), kept);
            }
        } else if let Some(found) = role(program, &played, r, p, diags) {
            played.enums.insert(r.key.to_string(), found);
        }
    }
    played
}

/// W0823 at the first block: the questions and roles no block answers (a role
/// already reported as needed, E0826, is not listed again).
fn unanswered(
    first: Span,
    at: &BTreeMap<String, Span>,
    reported: &BTreeSet<&str>,
    diags: &mut Diagnostics,
) {
    let missing: Vec<&str> = QUESTIONS
        .iter()
        .map(|q| q.key)
        .chain(ROLES.iter().map(|r| r.key))
        .filter(|k| !at.contains_key(*k) && !reported.contains(k))
        .collect();
    if missing.is_empty() {
        return;
    }
    diags.push(
        Diagnostic::warning(
            "W0823",
            format!(
                "the edition's `entries` block leaves {} of {} questions unanswered: {}",
                missing.len(),
                QUESTIONS.len() + ROLES.len(),
                shortened(&missing)
            ),
            first,
        )
        .with_label("these questions are left out")
        .with_help("`bfr entries check` and `bfr invoice` stop with E0802 where they need one; add `question = rule` for each question and `role = …` for each role: an enum, a variant or competitions (docs/entries.md lists them)"),
    );
}

/// The currency of every amount answered (the unit above the line: `SEK` of
/// `SEK/pair`), with the question and where it was given.
#[derive(Default)]
struct Currency {
    answered: Vec<(Unit, &'static str, Span)>,
}

impl Currency {
    /// Notes the currency of the amount `q` is answered with (by rule `rule`).
    fn note(&mut self, program: &Program, (q, rule): (&'static Question, u32), at: Span) {
        if let Some(Type::Num(unit)) = program.rules.get(rule as usize).map(|r| &r.ret) {
            self.answered.push((unit.numerator(), q.key, at));
        }
    }

    /// E0832 at each amount in another currency than most amounts (the first
    /// answered, where two are as common): an invoice adds its lines, and the
    /// file's totals add the invoices.
    fn check(self, diags: &mut Diagnostics) {
        let units: Vec<(&Unit, usize)> = self.answered.iter().map(|(u, _, _)| (u, 1)).collect();
        let Some(found) = super::most_common(&units) else {
            return;
        };
        let Some((most, most_key, most_at)) = self.answered.get(found.first) else {
            return;
        };
        let shown = |u: &Unit| {
            if u.is_none() {
                "no currency (a bare number)".to_string()
            } else {
                format!("`{u}`")
            }
        };
        for (unit, key, at) in self.answered.iter().filter(|(u, _, _)| u != most) {
            diags.push(
                Diagnostic::error(
                    "E0832",
                    format!(
                        "`{key}` is answered in {}, but `{most_key}` in {}: an invoice adds amounts of one currency",
                        shown(unit),
                        shown(most)
                    ),
                    *at,
                )
                .with_label(format!("an amount in {}", shown(unit)))
                .with_note(*most_at, format!("an amount in {}", shown(most)))
                .with_help(if found.count > 1 && !found.tied {
                    format!(
                        "give every fee, subsidy and charge the same currency; {} of the {} amounts are in {}, `{most_key}` first",
                        found.count,
                        self.answered.len(),
                        shown(most)
                    )
                } else {
                    format!(
                        "give every fee, subsidy and charge the same currency; the first answered, `{most_key}`, is in {}",
                        shown(most)
                    )
                }),
            );
        }
    }
}

/// E0826: a question passes a variant of a role's enum, and no enum is given the role.
fn role_not_given(q: &Question, r: &str, p: &ast::Property, diags: &mut Diagnostics) {
    let what = entries::role(r).map_or("", |r| r.what);
    diags.push(
        Diagnostic::error(
            "E0826",
            format!(
                "`{}` passes one of {what}, but the `entries` block does not say which enum holds them",
                q.key
            ),
            p.value.span,
        )
        .with_label(format!("needs the role `{r}`"))
        .with_help(format!(
            "add `{r} = ENUM` to the `entries` block, ENUM the edition's enum of {what}"
        )),
    );
}

/// The enum (and variant) `p` gives role `r`, if it is one of the right kind.
fn role(
    program: &Program,
    played: &Roles,
    r: &Role,
    p: &ast::Property,
    diags: &mut Diagnostics,
) -> Option<(u32, Option<u32>)> {
    let parts: Vec<&str> = match &p.value.kind {
        ExprKind::Path(parts) => parts.iter().map(|n| n.text.as_str()).collect(),
        _ => Vec::new(),
    };
    let find = |name: &str| {
        program
            .enums
            .iter()
            .position(|e| e.name == name)
            .and_then(|i| u32::try_from(i).ok())
    };
    let enums = || program.enums.iter().map(|e| e.name.as_str());
    let problem = match (r.kind, parts.as_slice()) {
        // Competition roles are read by `competitions`.
        (RoleKind::Competitions, _) => return None,
        (RoleKind::Enum, [name]) => match find(name) {
            Some(e) => return Some((e, None)),
            None => {
                let is = if program.rule(name).is_some() {
                    "a rule, not an enum"
                } else {
                    "not one"
                };
                let listed: Vec<String> = enums().take(6).map(|n| format!("`{n}`")).collect();
                (
                    format!(
                        "`{}` must name an enum of the edition, and `{name}` is {is}",
                        r.key
                    ),
                    crate::names::nearest(name, enums())
                        .map(|n| format!("did you mean `{n}`?"))
                        .or_else(|| {
                            (!listed.is_empty()).then(|| {
                                format!(
                                    "name the edition's enum of {}; its enums: {}",
                                    r.what,
                                    listed.join(", ")
                                )
                            })
                        }),
                )
            }
        },
        (RoleKind::Variant { of }, [name, variant]) => {
            let e = find(name);
            let info = e.and_then(|e| program.enums.get(e as usize));
            let v = info.and_then(|i| i.variants.iter().position(|x| x == variant));
            match (e, v.and_then(|v| u32::try_from(v).ok())) {
                (Some(e), Some(v)) if played.enum_of(of).is_none_or(|o| o == e) => {
                    return Some((e, Some(v)));
                }
                (Some(_), Some(_)) => {
                    let of_name = played
                        .enum_of(of)
                        .and_then(|o| program.enums.get(o as usize))
                        .map_or("", |i| i.name.as_str());
                    (
                        format!(
                            "`{}` must be a variant of `{of_name}`, the enum playing `{of}`, and `{name}` is another enum",
                            r.key
                        ),
                        Some(format!("write `{of_name}.VARIANT`")),
                    )
                }
                (Some(_), None) => (
                    format!("`{name}` has no variant `{variant}`"),
                    info.and_then(|i| {
                        crate::names::nearest(variant, i.variants.iter().map(String::as_str))
                    })
                    .map(|n| format!("did you mean `{name}.{n}`?")),
                ),
                (None, _) => (
                    format!(
                        "`{}` must name a variant of an enum of the edition, and `{name}` is no enum",
                        r.key
                    ),
                    crate::names::nearest(name, enums())
                        .map(|n| format!("did you mean `{n}.{variant}`?")),
                ),
            }
        }
        (RoleKind::Enum, _) => (
            format!(
                "`{}` must name an enum of the edition (the enum of {})",
                r.key, r.what
            ),
            Some(format!("write `{} = ENUM`", r.key)),
        ),
        (RoleKind::Variant { .. }, _) => (
            format!(
                "`{}` must name one variant of an enum, as `Enum.Variant` ({})",
                r.key, r.what
            ),
            Some(format!("write `{} = ENUM.VARIANT`", r.key)),
        ),
    };
    let (message, help) = problem;
    let what = match r.kind {
        RoleKind::Enum => "not an enum of the edition",
        RoleKind::Variant { .. } | RoleKind::Competitions => "not a variant of the role's enum",
    };
    diags.push(
        Diagnostic::error("E0826", message, p.value.span)
            .with_label(what)
            .with_help(help.unwrap_or_else(|| format!("name the edition's enum of {}", r.what))),
    );
    None
}

/// The competitions `p` gives role `r`, each with where it is written: one
/// competition's name, or a list of them.
fn competitions(
    program: &Program,
    declared: &[Declared],
    r: &Role,
    p: &ast::Property,
    diags: &mut Diagnostics,
) -> Option<Vec<(u32, Span)>> {
    let written: Vec<&ast::Expr> = match &p.value.kind {
        ExprKind::List(items, _) => items.iter().collect(),
        _ => vec![&p.value],
    };
    if written.is_empty() {
        diags.push(
            Diagnostic::error(
                "E0827",
                format!("`{}` names no competition", r.key),
                p.value.span,
            )
            .with_label("an empty list")
            .with_help(format!(
                "name {}: `{} = NAME` or `{} = [NAME, NAME]`",
                r.what, r.key, r.key
            )),
        );
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    for e in written {
        let name = match &e.kind {
            ExprKind::Path(parts) if parts.len() == 1 => parts.first().map(|n| n.text.as_str()),
            _ => None,
        };
        let found = name.and_then(|n| declared.iter().position(|d| d.name == n));
        match found.and_then(|i| u32::try_from(i).ok()) {
            Some(c) => out.push((c, e.span)),
            None => {
                not_a_competition(program, declared, r, e, diags);
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// E0827: a competition role names something that is no competition.
fn not_a_competition(
    program: &Program,
    declared: &[Declared],
    r: &Role,
    e: &ast::Expr,
    diags: &mut Diagnostics,
) {
    let at = e.span;
    let parts: Vec<&str> = match &e.kind {
        ExprKind::Path(parts) => parts.iter().map(|n| n.text.as_str()).collect(),
        _ => Vec::new(),
    };
    // `cup.gh`: a stage of a competition, which is what the role wants.
    if let [first, _, ..] = parts.as_slice()
        && declared.iter().any(|d| d.name == *first)
    {
        diags.push(
            Diagnostic::error(
                "E0827",
                format!(
                    "`{}` must name whole competitions, and `{}` is a stage of `{first}`",
                    r.key,
                    parts.join(".")
                ),
                at,
            )
            .with_label("a stage, not a competition")
            .with_help(format!("write `{first}`")),
        );
        return;
    }
    let name = match parts.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    let names = || declared.iter().map(|d| d.name.as_str());
    let listed: Vec<String> = declared
        .iter()
        .map(|d| match &d.title {
            Some(t) => format!("`{}` ({t})", d.name),
            None => format!("`{}`", d.name),
        })
        .collect();
    let Some(name) = name else {
        diags.push(
            Diagnostic::error(
                "E0827",
                format!(
                    "`{}` must name competitions of the edition, by the names they are declared with",
                    r.key
                ),
                at,
            )
            .with_label("not a competition's name")
            .with_help(format!("write `{} = NAME` or `{} = [NAME, NAME]`", r.key, r.key)),
        );
        return;
    };
    let is = if program.enums.iter().any(|e| e.name == name) {
        "an enum, not a competition"
    } else if program.rule(name).is_some() {
        "a rule, not a competition"
    } else {
        "no competition of the edition"
    };
    let help = match crate::names::nearest(name, names()) {
        Some(n) => format!("did you mean `{n}`?"),
        None if listed.is_empty() => "the edition declares no competition; declare the competition with `competition NAME \"Title\" { … }`".to_string(),
        None => format!("the edition's competitions: {}", listed.join(", ")),
    };
    diags.push(
        Diagnostic::error(
            "E0827",
            format!(
                "`{}` must name competitions of the edition, and `{name}` is {is}",
                r.key
            ),
            at,
        )
        .with_label("not a competition of the edition")
        .with_help(help),
    );
}

/// Whether competition `c` is named for the first time; E0828 when a team role
/// named it before, since a team entering it would be asked two forms' questions.
fn once(
    declared: &[Declared],
    named: &[(u32, &str, Span)],
    key: &str,
    c: u32,
    at: Span,
    diags: &mut Diagnostics,
) -> bool {
    let Some((_, first_key, first_at)) = named.iter().find(|(x, _, _)| *x == c) else {
        return true;
    };
    let name = declared.get(c as usize).map_or("", |d| d.name.as_str());
    let (message, help) = if *first_key == key {
        (
            format!("`{key}` names the competition `{name}` twice"),
            "name each competition once".to_string(),
        )
    } else {
        (
            format!("the competition `{name}` is named by both `{first_key}` and `{key}`"),
            format!(
                "a team entered in `{name}` is asked one form's questions; keep `{name}` in `{first_key}` or in `{key}`"
            ),
        )
    };
    diags.push(
        Diagnostic::error("E0828", message, at)
            .with_label("named again here")
            .with_note(*first_at, "named first here")
            .with_help(help),
    );
    false
}

/// The first three of `keys`, and how many more.
fn shortened(keys: &[&str]) -> String {
    let shown: Vec<String> = keys.iter().take(3).map(|k| format!("`{k}`")).collect();
    match keys.len().saturating_sub(3) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

fn unknown_question(p: &ast::Property, diags: &mut Diagnostics) {
    let key = p.key.text.as_str();
    let mut d = Diagnostic::error(
        "E0823",
        format!("`{key}` is not a question an entries check or an invoice asks"),
        p.key.span,
    )
    .with_label("unknown question");
    let keys = QUESTIONS
        .iter()
        .map(|q| q.key)
        .chain(ROLES.iter().map(|r| r.key));
    d = match crate::names::nearest(key, keys) {
        Some(n) => d.with_help(format!("did you mean `{n}`?")),
        None => d.with_help("docs/entries.md lists the questions"),
    };
    diags.push(d);
}

/// The rule `p` names, if it has the question's signature.
fn answer(
    program: &Program,
    roles: &Roles,
    q: &Question,
    p: &ast::Property,
    diags: &mut Diagnostics,
) -> Option<u32> {
    let name = match &p.value.kind {
        ExprKind::Path(parts) if parts.len() == 1 => parts.first().map(|n| n.text.as_str()),
        _ => None,
    };
    let Some((index, rule)) = name.and_then(|n| program.rule(n)) else {
        let shown = name.unwrap_or("this");
        let mut d = Diagnostic::error(
            "E0824",
            format!(
                "`{}` is answered by `{shown}`, which is not a rule of the edition",
                q.key
            ),
            p.value.span,
        )
        .with_label("not a const, fn, table or scale");
        if let Some(n) = name
            && let Some(near) =
                crate::names::nearest(n, program.rules.iter().map(|r| r.name.as_str()))
        {
            d = d.with_help(format!("did you mean `{near}`?"));
        } else {
            d = d.with_help("name the rule that answers the question");
        }
        diags.push(d);
        return None;
    };
    let params_fit = rule.params.len() == q.params.len()
        && q.params
            .iter()
            .zip(&rule.params)
            .all(|((_, want), (_, ty))| entries::fits(roles, *want, ty));
    if params_fit && entries::answers(q.answer, &rule.ret) {
        return Some(index);
    }
    let want: Vec<String> = q
        .params
        .iter()
        .map(|(n, k)| format!("{n}: {}", entries::words(program, roles, *k)))
        .collect();
    diags.push(
        Diagnostic::error(
            "E0825",
            format!(
                "`{}` answers `{}`, but takes {}; the question passes ({}) and wants {}",
                rule.name,
                q.key,
                program.signature(rule),
                want.join(", "),
                entries::answer_words(q.answer)
            ),
            p.value.span,
        )
        .with_label("a rule of another signature")
        .with_note(rule.span, "the rule is declared here")
        .with_help("give the rule the question's parameters, in this order (names may differ), or name another rule"),
    );
    None
}
