//! Rules may not depend on themselves: functions have no recursion, consts no
//! circular definitions. Found on the IR, so dependencies through competition
//! properties count too.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Expr, ExprKind, Program, RuleBody};
use std::collections::BTreeSet;

/// Reports every cycle once; returns the rules that are on a cycle.
pub(crate) fn check(program: &Program, diags: &mut Diagnostics) -> BTreeSet<u32> {
    let deps: Vec<BTreeSet<u32>> = program.rules.iter().map(|r| rule_deps(&r.body)).collect();
    // Iterative DFS with colours: 0 new, 1 on the stack, 2 done.
    let mut colour = vec![0u8; deps.len()];
    let mut cyclic = BTreeSet::new();
    for root in 0..deps.len() {
        if colour.get(root) != Some(&0) {
            continue;
        }
        let mut stack: Vec<(usize, Vec<u32>)> = vec![(
            root,
            deps.get(root)
                .map(|d| d.iter().copied().collect())
                .unwrap_or_default(),
        )];
        if let Some(c) = colour.get_mut(root) {
            *c = 1;
        }
        while let Some((node, todo)) = stack.last_mut() {
            let node = *node;
            match todo.pop() {
                Some(next) => {
                    let n = next as usize;
                    match colour.get(n) {
                        Some(0) => {
                            if let Some(c) = colour.get_mut(n) {
                                *c = 1;
                            }
                            let d = deps
                                .get(n)
                                .map(|d| d.iter().copied().collect())
                                .unwrap_or_default();
                            stack.push((n, d));
                        }
                        Some(1) => {
                            let start = stack.iter().position(|(x, _)| *x == n).unwrap_or(0);
                            let chain: Vec<usize> =
                                stack.iter().skip(start).map(|(x, _)| *x).collect();
                            report(program, &chain, diags);
                            cyclic.extend(chain.iter().filter_map(|x| u32::try_from(*x).ok()));
                        }
                        _ => {}
                    }
                }
                None => {
                    if let Some(c) = colour.get_mut(node) {
                        *c = 2;
                    }
                    stack.pop();
                }
            }
        }
    }
    cyclic
}

fn report(program: &Program, chain: &[usize], diags: &mut Diagnostics) {
    let names: Vec<&str> = chain
        .iter()
        .filter_map(|i| program.rules.get(*i).map(|r| r.name.as_str()))
        .collect();
    let Some(first) = chain.first().and_then(|i| program.rules.get(*i)) else {
        return;
    };
    let path = names
        .iter()
        .chain(names.first())
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" → ");
    let mut d = Diagnostic::error(
        "E0106",
        format!("`{}` depends on itself", first.name),
        first.span,
    )
    .with_label(format!("the chain is {path}"))
    .with_help("rules cannot be recursive; compute the value without referring back");
    for i in chain.iter().skip(1) {
        if let Some(r) = program.rules.get(*i) {
            d = d.with_note(r.span, format!("`{}` is part of the cycle", r.name));
        }
    }
    diags.push(d);
}

/// The rules a rule body calls or names.
pub(crate) fn rule_deps(body: &RuleBody) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    match body {
        RuleBody::Const { value } => collect(value, &mut out),
        RuleBody::Fn { body } => collect(body, &mut out),
        RuleBody::Table { rows } => rows.iter().for_each(|r| collect(r, &mut out)),
        RuleBody::Scale { arms } => arms.iter().for_each(|a| collect(&a.value, &mut out)),
    }
    out
}

/// The rules `e` calls or names.
pub(crate) fn collect(e: &Expr, out: &mut BTreeSet<u32>) {
    match &e.kind {
        ExprKind::Call(i, args) => {
            out.insert(*i);
            args.iter().for_each(|a| collect(a, out));
        }
        ExprKind::RuleRef(i) => {
            out.insert(*i);
        }
        ExprKind::Lit(_) | ExprKind::Local(_) => {}
        ExprKind::Builtin(_, xs) | ExprKind::Record(_, xs) | ExprKind::List(xs) => {
            xs.iter().for_each(|x| collect(x, out))
        }
        ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Field(x, _) | ExprKind::Deduct(x) => {
            collect(x, out)
        }
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) | ExprKind::Index(a, b) => {
            collect(a, out);
            collect(b, out);
        }
        ExprKind::If(a, b, c) => {
            collect(a, out);
            collect(b, out);
            collect(c, out);
        }
        ExprKind::Match(s, arms) => {
            collect(s, out);
            arms.iter().for_each(|(_, x)| collect(x, out));
        }
        ExprKind::Loop {
            list, init, body, ..
        } => {
            collect(list, out);
            init.iter().for_each(|x| collect(x, out));
            collect(body, out);
        }
    }
}
