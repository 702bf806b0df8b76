//! A reading is the edition's answer to an open question of the document. One that
//! no rule and no competition property uses changes nothing, so a later edition that
//! flips it would change nothing either: `check` says so.

use super::cycles::{collect, rule_deps};
use super::declared::Declared;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use std::collections::BTreeSet;

/// Warns of every reading that nothing uses (examples do not count: they test a
/// reading, they do not apply it).
pub(crate) fn report_unused_readings(
    program: &Program,
    declared: &[Declared],
    diags: &mut Diagnostics,
) {
    let mut used: BTreeSet<u32> = BTreeSet::new();
    for (i, rule) in program.rules.iter().enumerate() {
        let deps = rule_deps(&rule.body);
        used.extend(
            deps.into_iter()
                .filter(|d| usize::try_from(*d).ok() != Some(i)),
        );
    }
    for comp in declared {
        let stages = comp.stages.iter().flat_map(|s| s.properties.iter());
        for p in comp.properties.iter().chain(stages) {
            collect(&p.value, &mut used);
        }
    }
    for (i, rule) in program.rules.iter().enumerate() {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        if rule.reading && !used.contains(&index) {
            diags.push(
                Diagnostic::warning(
                    "W0411",
                    format!("the reading `{}` is used by no rule and no competition", rule.name),
                    rule.span,
                )
                .with_label("changing it would change nothing")
                .with_help(
                    "name it in the rule or the competition property it answers for, or keep it as a `const` if it only records a choice",
                ),
            );
        }
    }
}
