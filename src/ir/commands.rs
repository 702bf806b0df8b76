//! The rules the federation's commands call: `bfr allocate`, `bfr seed` and `bfr
//! vacancies` each apply one rule of the edition to a file. The edition says which
//! in a `federation { command = rule … }` block, so the rules may have any name;
//! the checker finds each (E1114 a key that is no command, E1115 a value that is no
//! rule). What each rule must take and give is checked when the command runs
//! (E1104, E1112): its first parameter comes from the command line, the others
//! from the file, by name.

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
