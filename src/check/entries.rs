//! `entries { question = rule … }`: which rule of the edition answers each question
//! of an entries check or an invoice, each typed against the question's fixed
//! signature (`ir::entries`). A question unknown (E0823), an answer that is no rule
//! of the edition (E0824) or a rule of the wrong signature (E0825) is an error here,
//! at `bfr check`, not a failed call at the director's desk; a block that leaves a
//! question out is a warning (W0823).

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::ir::entries::{self, QUESTIONS, Question};
use crate::syntax::ast::{self, ExprKind};
use std::collections::BTreeMap;

/// The rule answering each question, from every `entries` block of the edition.
pub(super) fn check(
    program: &Program,
    items: &[&ast::Item],
    diags: &mut Diagnostics,
) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let mut at: BTreeMap<String, crate::source::Span> = BTreeMap::new();
    let mut blocks = Vec::new();
    for item in items {
        let ast::Decl::Entries(e) = &item.decl else {
            continue;
        };
        blocks.push(e.span);
        for p in &e.properties {
            let key = p.key.text.as_str();
            let Some(q) = entries::question(key) else {
                unknown_question(p, diags);
                continue;
            };
            if let Some(first) = at.get(key) {
                diags.push(
                    Diagnostic::error("E0823", format!("`{key}` is answered twice"), p.key.span)
                        .with_label("a second answer")
                        .with_note(*first, "the first")
                        .with_help("keep one answer for each question"),
                );
                continue;
            }
            at.insert(key.to_string(), p.key.span);
            if let Some(rule) = answer(program, q, p, diags) {
                out.insert(key.to_string(), rule);
            }
        }
    }
    if let Some(first) = blocks.first() {
        let missing: Vec<&str> = QUESTIONS
            .iter()
            .map(|q| q.key)
            .filter(|k| !at.contains_key(*k))
            .collect();
        if !missing.is_empty() {
            diags.push(
                Diagnostic::warning(
                    "W0823",
                    format!(
                        "the edition's `entries` block leaves {} of {} questions unanswered: {}",
                        missing.len(),
                        QUESTIONS.len(),
                        shortened(&missing)
                    ),
                    *first,
                )
                .with_label("these questions are left out")
                .with_help("`bfr entries check` and `bfr invoice` stop with E0802 where they need one; add `question = rule` for each (docs/entries.md lists them)"),
            );
        }
    }
    out
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
    d = match super::names::nearest(key, QUESTIONS.iter().map(|q| q.key)) {
        Some(n) => d.with_help(format!("did you mean `{n}`?")),
        None => d.with_help("docs/entries.md lists the questions"),
    };
    diags.push(d);
}

/// The rule `p` names, if it has the question's signature.
fn answer(
    program: &Program,
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
                super::names::nearest(n, program.rules.iter().map(|r| r.name.as_str()))
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
            .all(|((_, want), (_, ty))| entries::fits(program, *want, ty));
    if params_fit && entries::answers(q.answer, &rule.ret) {
        return Some(index);
    }
    let want: Vec<String> = q
        .params
        .iter()
        .map(|(n, k)| format!("{n}: {}", entries::words(*k)))
        .collect();
    let has: Vec<String> = rule
        .params
        .iter()
        .map(|(n, t)| format!("{n}: {}", program.type_name(t)))
        .collect();
    diags.push(
        Diagnostic::error(
            "E0825",
            format!(
                "`{}` answers `{}`, but takes ({}) -> {}; the question passes ({}) and wants {}",
                rule.name,
                q.key,
                has.join(", "),
                program.type_name(&rule.ret),
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
