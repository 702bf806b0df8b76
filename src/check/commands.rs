//! `federation { command = rule … }`: which rule of the edition each federation
//! command calls (`ir::commands`). A key that is no command (or one given twice)
//! is E1114, a value that is no rule of the edition E1115, a rule that does not
//! take what the command passes or give what it reads back E1116, here at `bfr
//! check` rather than when the command runs.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::ir::commands::{self, COMMANDS};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind};
use std::collections::BTreeMap;

/// The rule each command calls, from every `federation` block of the edition.
pub(super) fn check(
    program: &Program,
    items: &[&ast::Item],
    diags: &mut Diagnostics,
) -> BTreeMap<String, u32> {
    let mut at: BTreeMap<String, Span> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for item in items {
        let ast::Decl::Federation(block) = &item.decl else {
            continue;
        };
        for p in &block.properties {
            let key = p.key.text.as_str();
            let Some(c) = commands::command(key) else {
                unknown_command(p, diags);
                continue;
            };
            if let Some(first) = at.get(key) {
                diags.push(
                    Diagnostic::error("E1114", format!("`{key}` is given twice"), p.key.span)
                        .with_label("a second rule")
                        .with_note(*first, "the first")
                        .with_help("keep one rule for each command"),
                );
                continue;
            }
            at.insert(key.to_string(), p.key.span);
            if let Some(rule) = rule_of(program, c, p, diags) {
                out.insert(key.to_string(), rule);
            }
        }
    }
    out
}

fn unknown_command(p: &ast::Property, diags: &mut Diagnostics) {
    let key = p.key.text.as_str();
    let keys: Vec<String> = COMMANDS
        .iter()
        .map(|c| format!("`{}` ({})", c.key, c.command))
        .collect();
    // `seed` for `seeding`: the command's own word is the likeliest slip.
    let by_command = COMMANDS
        .iter()
        .find(|c| c.command.rsplit(' ').next() == Some(key))
        .map(|c| c.key);
    let help =
        match by_command.or_else(|| super::names::nearest(key, COMMANDS.iter().map(|c| c.key))) {
            Some(n) => format!("did you mean `{n}`? The commands: {}", keys.join(", ")),
            None => format!("the commands: {}", keys.join(", ")),
        };
    diags.push(
        Diagnostic::error(
            "E1114",
            format!("`{key}` is not a command whose rule the edition names"),
            p.key.span,
        )
        .with_label("unknown command")
        .with_help(help),
    );
}

/// The rule `p` names, if it is one.
fn rule_of(
    program: &Program,
    c: &commands::Command,
    p: &ast::Property,
    diags: &mut Diagnostics,
) -> Option<u32> {
    let name = match &p.value.kind {
        ExprKind::Path(parts) if parts.len() == 1 => parts.first().map(|n| n.text.as_str()),
        _ => None,
    };
    if let Some((index, rule)) = name.and_then(|n| program.rule(n)) {
        if let Some(why) = commands::misfit(c.key, rule) {
            diags.push(
                Diagnostic::error(
                    "E1116",
                    format!(
                        "`{}` ({}) calls `{}`, which must {why}",
                        c.key, c.command, rule.name
                    ),
                    p.value.span,
                )
                .with_label("this rule does not fit the command")
                .with_note(rule.span, "declared here")
                .with_help("see docs/federation.md for what each command passes and reads back"),
            );
            return None;
        }
        return Some(index);
    }
    let shown = name.unwrap_or("this");
    let help = name
        .and_then(|n| super::names::nearest(n, program.rules.iter().map(|r| r.name.as_str())))
        .map_or_else(
            || format!("name the rule that {}", c.what),
            |near| format!("did you mean `{near}`?"),
        );
    diags.push(
        Diagnostic::error(
            "E1115",
            format!(
                "`{}` ({}) calls `{shown}`, which is not a rule of the edition",
                c.key, c.command
            ),
            p.value.span,
        )
        .with_label("not a const, fn, table or scale")
        .with_help(help),
    );
    None
}
