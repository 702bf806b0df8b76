//! The rules the federation's commands call: `bfr allocate`, `bfr seed` and `bfr
//! vacancies` each apply one rule of the edition to a file. The edition says which
//! in a `federation { command = rule … }` block, so the rules may have any name;
//! the checker finds each (E1114 a key that is no command, E1115 a value that is no
//! rule, E1116 a rule of the wrong shape). A rule's first parameter comes from
//! the command line (a discipline, for `allocation` and `vacancies`), the others
//! from the file, by name; what the file supplies is checked when the command
//! runs (E1104, E1111, E1112).

use super::{Rule, Type};

/// One command whose rule the edition names.
#[derive(Debug, Clone, Copy)]
pub struct Command {
    /// The key written in the `federation` block.
    pub key: &'static str,
    /// The command that calls it.
    pub command: &'static str,
    /// What the rule does, in words.
    pub what: &'static str,
}

/// Every command, in the order docs/federation.md lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        key: "allocation",
        command: "bfr allocate",
        what: "allocates a discipline's places to the districts",
    },
    Command {
        key: "seeding",
        command: "bfr seed",
        what: "seeds a field of pairs",
    },
    Command {
        key: "vacancies",
        command: "bfr vacancies",
        what: "gives declined places to others",
    },
];

/// The command with this key.
pub fn command(key: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.key == key)
}

/// What is wrong with `rule` as the rule of command `key`, in words that follow
/// "must": `None` when it fits. The parameters the file supplies may be of any
/// type the file can hold; what is fixed is what the command line passes and what
/// the command reads back.
pub fn misfit(key: &str, rule: &Rule) -> Option<&'static str> {
    let fits = match key {
        // A discipline, the places, then what the starts file gives; the
        // districts' lines back.
        "allocation" => matches!(
            (rule.params.as_slice(), &rule.ret),
            ([(_, Type::Enum(_)), (_, Type::Num(_)), ..], Type::List(out))
                if matches!(**out, Type::Record(_))
        ),
        "vacancies" => matches!(rule.params.first(), Some((_, Type::Enum(_)))),
        _ => true,
    };
    if fits {
        return None;
    }
    Some(match key {
        "allocation" => "take (a discipline, the places, …) and give a list of records",
        _ => "take the discipline (an enum) first",
    })
}
