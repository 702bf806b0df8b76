//! `federation { command = rule … }`: which rule of the edition each federation
//! command calls (`ir::commands`). A key that is no command (or one given twice)
//! is E1114, a value that is no rule of the edition E1115, a rule that does not
//! take what the command passes or give what it reads back E1116, here at `bfr
//! check` rather than when the command runs. `command_unique = [list, list.field]`
//! names what the command's file may name once; a name that is no list the file
//! gives, or no field of its records, is E1117.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::commands::{self, COMMANDS, UNIQUE_SUFFIX, Unique};
use crate::ir::{Program, Rule, Type};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind};
use std::collections::BTreeMap;

/// What the `federation` blocks give: the rule each command calls, and what each
/// command's file names once.
pub(super) struct Federation {
    pub rules: BTreeMap<String, u32>,
    pub unique: BTreeMap<String, Vec<Unique>>,
}

/// The rule each command calls and what its file names once, from every
/// `federation` block of the edition.
pub(super) fn check(
    program: &Program,
    items: &[&ast::Item],
    diags: &mut Diagnostics,
) -> Federation {
    let properties: Vec<&ast::Property> = items
        .iter()
        .filter_map(|item| match &item.decl {
            ast::Decl::Federation(block) => Some(block.properties.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    let mut at: BTreeMap<String, Span> = BTreeMap::new();
    let mut once = |p: &ast::Property, what: &str, diags: &mut Diagnostics| {
        let key = p.key.text.as_str();
        if let Some(first) = at.get(key) {
            diags.push(
                Diagnostic::error("E1114", format!("`{key}` is given twice"), p.key.span)
                    .with_label(format!("a second {what}"))
                    .with_note(*first, "the first")
                    .with_help(format!("keep one {what} for each command")),
            );
            return false;
        }
        at.insert(key.to_string(), p.key.span);
        true
    };
    let mut out = Federation {
        rules: BTreeMap::new(),
        unique: BTreeMap::new(),
    };
    // Where each command's rule is named: an edition that amends another may
    // name a rule the base's `_unique` line does not fit.
    let mut named_at: BTreeMap<&str, Span> = BTreeMap::new();
    // The rules first: a `_unique` line may come before its command's line.
    let mut lists = Vec::new();
    for p in properties {
        let key = p.key.text.as_str();
        if let Some(c) = key.strip_suffix(UNIQUE_SUFFIX).and_then(commands::command) {
            if once(p, "list", diags) {
                lists.push((c, p));
            }
            continue;
        }
        let Some(c) = commands::command(key) else {
            unknown_command(p, diags);
            continue;
        };
        if once(p, "rule", diags)
            && let Some(rule) = rule_of(program, c, p, diags)
        {
            out.rules.insert(key.to_string(), rule);
            named_at.insert(c.key, p.value.span);
        }
    }
    for (c, p) in lists {
        if !at.contains_key(c.key) {
            diags.push(unique_error(
                p.key.span,
                format!(
                    "`{}` lists what `{}` reads, but the block names no rule for it",
                    p.key.text, c.command
                ),
                "no rule to read for",
                format!("add `{} = RULE`, or leave this line out", c.key),
            ));
            continue;
        }
        let rule = out.rules.get(c.key).zip(named_at.get(c.key));
        if let Some(unique) = unique_of(program, c, rule, p, diags) {
            out.unique.insert(c.key.to_string(), unique);
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
    // `seeds_unique`: the slip is in the command's part.
    let (stem, suffix) = key
        .strip_suffix(UNIQUE_SUFFIX)
        .map_or((key, ""), |stem| (stem, UNIQUE_SUFFIX));
    // `seed` for `seeding`: the command's own word is the likeliest slip.
    let by_command = COMMANDS
        .iter()
        .find(|c| c.command.rsplit(' ').next() == Some(stem))
        .map(|c| c.key);
    let help =
        match by_command.or_else(|| crate::names::nearest(stem, COMMANDS.iter().map(|c| c.key))) {
            Some(n) => format!(
                "did you mean `{n}{suffix}`? The commands: {}",
                keys.join(", ")
            ),
            None => format!("the commands: {}", keys.join(", ")),
        };
    diags.push(
        Diagnostic::error(
            "E1114",
            format!("`{key}` is not a command whose rule the edition names"),
            p.key.span,
        )
        .with_label("unknown command")
        .with_help(format!(
            "{help}; `COMMAND{UNIQUE_SUFFIX}` lists what a command's file names once"
        )),
    );
}

/// What `p` (`vacancies_unique = [declined.pair, pot]`) says command `c`'s file
/// names once, if every name is a list the file gives (or a field of its records)
/// of values that can be compared.
fn unique_of(
    program: &Program,
    c: &commands::Command,
    rule: Option<(&u32, &Span)>,
    p: &ast::Property,
    diags: &mut Diagnostics,
) -> Option<Vec<Unique>> {
    let ExprKind::List(names, _) = &p.value.kind else {
        diags.push(unique_error(
            p.value.span,
            format!(
                "`{}` must list what the file of `{}` names once",
                p.key.text, c.command
            ),
            "not a list",
            format!("write `{} = [LIST, LIST.FIELD, …]`", p.key.text),
        ));
        return None;
    };
    // Without its rule (E1115, E1116) there is nothing to name.
    let (index, named_at) = rule?;
    let rule = program.rules.get(*index as usize)?;
    let mut out: Vec<(Unique, Span)> = Vec::new();
    let mut fine = true;
    for name in names {
        match unique_name(program, c, rule, name) {
            Ok(u) => {
                if let Some((_, first)) = out.iter().find(|(listed, _)| *listed == u) {
                    diags.push(
                        unique_error(
                            name.span,
                            format!("`{u}` is listed twice"),
                            "listed again",
                            "list each once".to_string(),
                        )
                        .with_note(*first, "listed first here"),
                    );
                    fine = false;
                } else {
                    out.push((u, name.span));
                }
            }
            Err(d) => {
                let mut d = d.with_note(
                    *named_at,
                    format!("`{}` is the rule whose file this reads", rule.name),
                );
                // The rule named in another file than the line: most likely an
                // amendment naming another rule, which inherits the base's line.
                if named_at.file != p.key.span.file {
                    d.help = Some(format!(
                        "{}; an edition that names another rule for `{}` restates this line",
                        d.help.unwrap_or_default(),
                        c.key
                    ));
                }
                diags.push(d);
                fine = false;
            }
        }
    }
    fine.then(|| out.into_iter().map(|(u, _)| u).collect())
}

/// The list (or field) `name` stands for among `rule`'s parameters from the file.
fn unique_name(
    program: &Program,
    c: &commands::Command,
    rule: &Rule,
    name: &ast::Expr,
) -> Result<Unique, Diagnostic> {
    let from_file: Vec<&(String, Type)> = rule.params.iter().skip(c.given).collect();
    let lists: Vec<String> = from_file
        .iter()
        .filter(|(_, t)| matches!(t, Type::List(_)))
        .map(|(n, _)| format!("`{n}`"))
        .collect();
    let gives = if lists.is_empty() {
        format!("`{}` reads no list from the file", rule.name)
    } else {
        format!("the file's lists: {}", lists.join(", "))
    };
    let parts: Vec<&str> = match &name.kind {
        ExprKind::Path(parts) => parts.iter().map(|p| p.text.as_str()).collect(),
        _ => Vec::new(),
    };
    let (list, field) = match parts.as_slice() {
        [list] => (*list, None),
        [list, field] => (*list, Some(*field)),
        _ => {
            return Err(unique_error(
                name.span,
                format!("the file of `{}` has no list written like this", c.command),
                "not a list's name, or a list's name and a field",
                gives,
            ));
        }
    };
    if rule.params.iter().take(c.given).any(|(n, _)| n == list) {
        return Err(unique_error(
            name.span,
            format!(
                "`{list}` comes from the command line of `{}`, not from its file",
                c.command
            ),
            "not in the file",
            gives,
        ));
    }
    let Some((_, Type::List(item))) = from_file.iter().copied().find(|(n, _)| n == list) else {
        let near = crate::names::nearest(
            list,
            from_file
                .iter()
                .filter(|(_, t)| matches!(t, Type::List(_)))
                .map(|(n, _)| n.as_str()),
        );
        return Err(unique_error(
            name.span,
            format!(
                "`{list}` is not a list that the file of `{}` gives to `{}`",
                c.command, rule.name
            ),
            "no such list",
            match near {
                // A near name is a list: `gives` names the lists.
                Some(n) => format!("did you mean `{n}`? The file's lists: {}", lists.join(", ")),
                None => gives,
            },
        ));
    };
    let compared = match (field, &**item) {
        (None, t) => t.clone(),
        (Some(field), Type::Record(r)) => {
            let info = program.records.get(*r as usize);
            let fields = info.map(|i| i.fields.as_slice()).unwrap_or_default();
            let Some((_, t)) = fields.iter().find(|(n, _)| n == field) else {
                let names: Vec<String> = fields.iter().map(|(n, _)| format!("`{n}`")).collect();
                return Err(unique_error(
                    name.span,
                    format!(
                        "the records of `{list}` ({}) have no field `{field}`",
                        info.map_or("?", |i| i.name.as_str())
                    ),
                    "no such field",
                    format!("the fields: {}", names.join(", ")),
                ));
            };
            t.clone()
        }
        (Some(_), _) => {
            return Err(unique_error(
                name.span,
                format!("`{list}` is a list of single values, not of records with fields"),
                "no fields",
                format!("write `{list}` alone"),
            ));
        }
    };
    if matches!(compared, Type::List(_) | Type::Record(_)) {
        return Err(unique_error(
            name.span,
            format!(
                "`{}` holds lists or records, which are not compared",
                parts.join(".")
            ),
            "name a field of single values",
            "name the field that identifies each entry (`declined.pair`)".to_string(),
        ));
    }
    Ok(Unique {
        list: list.to_string(),
        field: field.map(str::to_string),
    })
}

fn unique_error(span: Span, message: String, label: &str, help: String) -> Diagnostic {
    Diagnostic::error("E1117", message, span)
        .with_label(label)
        .with_help(help)
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
        .and_then(|n| crate::names::nearest(n, program.rules.iter().map(|r| r.name.as_str())))
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
