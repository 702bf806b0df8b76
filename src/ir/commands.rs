//! The rules the federation's commands call: `bfr allocate`, `bfr seed` and `bfr
//! vacancies` each apply one rule of the edition to a file. The edition says which
//! in a `federation { command = rule … }` block, so the rules may have any name;
//! the checker finds each (E1114 a key that is no command, E1115 a value that is no
//! rule, E1116 a rule of the wrong shape). A rule's first parameter comes from
//! the command line (a discipline, for `allocation` and `vacancies`), the others
//! from the file, by name; what the file supplies is checked when the command
//! runs (E1104, E1111, E1112).
//!
//! The block also says what a command's file may name only once
//! (`vacancies_unique = [declined.pair, pot]`): a list the file gives, or a field
//! of its records. The checker finds each name among the rule's parameters
//! (E1117); the command refuses a file that repeats one (E1103, E1111).

use super::{Rule, Type};
use serde::Serialize;

/// One command whose rule the edition names.
#[derive(Debug, Clone, Copy)]
pub struct Command {
    /// The key written in the `federation` block.
    pub key: &'static str,
    /// The command that calls it.
    pub command: &'static str,
    /// What the rule does, in words.
    pub what: &'static str,
    /// How many of the rule's first parameters the command line gives; the file
    /// gives the rest.
    pub given: usize,
}

/// The suffix of a block key that lists what a command's file names once:
/// `vacancies_unique`.
pub const UNIQUE_SUFFIX: &str = "_unique";

/// Something a command's file may name only once: a list the file gives (`pot`),
/// or one field of the records of such a list (`declined.pair`).
#[derive(
    Debug, Clone, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
pub struct Unique {
    /// The rule's parameter, which is the file's key.
    pub list: String,
    /// The field of the list's records, if the records are compared by one field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl std::fmt::Display for Unique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}.{field}", self.list),
            None => f.write_str(&self.list),
        }
    }
}

/// Every command, in the order docs/federation.md lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        key: "allocation",
        command: "bfr allocate",
        what: "allocates a discipline's places to the districts",
        given: 1,
    },
    Command {
        key: "seeding",
        command: "bfr seed",
        what: "seeds a field of pairs",
        given: 0,
    },
    Command {
        key: "vacancies",
        command: "bfr vacancies",
        what: "gives declined places to others",
        given: 1,
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
