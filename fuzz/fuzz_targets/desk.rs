//! The files a tournament director hands bfr beside the 2015 edition: an
//! entries file (`bfr entries check`, `bfr invoice`, TOML or JSON), a starts file
//! (`bfr allocate`), a pairs file (`bfr seed`) and a vacancies file (`bfr
//! vacancies`). The first byte picks the command, the second the discipline
//! where one is asked for; the rest is the file. Renders what each command
//! prints: the diagnostics as text and JSON, and the result as JSON.
#![no_main]

use bfr::allocate;
use bfr::diag::Diagnostics;
use bfr::federation::{self, CODES, Call};
use bfr::ir::{Program, Type, Value};
use bfr_fuzz::{rendered, twice, with_edition};
use libfuzzer_sys::fuzz_target;

/// The `pick`-th variant (by name) of the enum a federation command's rule
/// takes first: a discipline of the edition's, as a director writes it.
fn discipline_name(program: &Program, key: &str, pick: u8) -> Option<(u32, String)> {
    let (_, rule) = program.command_rule(key)?;
    let Some((_, Type::Enum(e))) = rule.params.first() else {
        return None;
    };
    let names = federation::variants(program, *e);
    let name = names.get(usize::from(pick) % names.len().max(1))?;
    Some((*e, name.clone()))
}

/// The same variant as a value, as the command passes it to the rule.
fn discipline(program: &Program, key: &str, pick: u8) -> Option<Value> {
    let (e, name) = discipline_name(program, key, pick)?;
    federation::enum_value(program, e, &name)
}

fn one(data: &[u8]) -> String {
    let [command, pick, bytes @ ..] = data else {
        return String::new();
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return String::new();
    };
    with_edition(|checked, sources| {
        let program = &checked.program;
        match command % 6 {
            0 | 1 => {
                let name = if command % 6 == 0 {
                    "entries.toml"
                } else {
                    "entries.json"
                };
                let read = bfr::entry::check(checked, sources, name, text);
                let counts = read
                    .entries
                    .as_ref()
                    .map(|e| (e.players.len(), e.teams.len(), e.pairs.len()));
                format!("{counts:?}\n{}", rendered(&read.diagnostics, sources))
            }
            2 => {
                let (money, diags) = bfr::entry::invoice(checked, sources, "entries.toml", text);
                let json = serde_json::to_string(&money).unwrap_or_default();
                format!("{json}\n{}", rendered(&diags, sources))
            }
            3 => {
                let file = sources.add("starts.toml", text);
                let name = discipline_name(program, "allocation", *pick)
                    .map(|(_, name)| name)
                    .unwrap_or_default();
                match allocate::allocate(program, &name, text, file) {
                    Ok(a) => serde_json::to_string(&a).unwrap_or_default(),
                    Err(allocate::Error::Discipline(known)) => known.join(", "),
                    Err(allocate::Error::Diagnostic(d)) => {
                        let mut diags = Diagnostics::default();
                        diags.push(d);
                        rendered(&diags, sources)
                    }
                }
            }
            n => {
                let (key, what) = if n == 4 {
                    ("seeding", "a pairs file")
                } else {
                    ("vacancies", "a vacancies file")
                };
                let given: Vec<Value> = if n == 4 {
                    Vec::new()
                } else {
                    discipline(program, key, *pick).into_iter().collect()
                };
                let file = sources.add("file.toml", text);
                let call = Call {
                    key,
                    given,
                    what,
                    doc: "docs/federation.md",
                    codes: CODES,
                };
                match federation::call(program, &call, text, file) {
                    Ok(called) => {
                        let shown = federation::show(program, &called.value);
                        serde_json::to_string(&serde_json::json!({
                            "figures": shown.figures,
                            "tables": shown.tables,
                            "rule_ids": called.rule_ids,
                            "trace": called.trace,
                        }))
                        .unwrap_or_default()
                    }
                    Err(d) => {
                        let mut diags = Diagnostics::default();
                        diags.push(d);
                        rendered(&diags, sources)
                    }
                }
            }
        }
    })
}

fuzz_target!(|data: &[u8]| twice(|| one(data)));
