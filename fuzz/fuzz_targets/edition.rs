//! A mutated rules file inside the 2015 edition: the first byte picks which of
//! the edition's files the rest replaces. Parse and check the edition, render
//! its diagnostics as text and JSON, run its examples and serialise its IR.
#![no_main]

use bfr::edition::load_texts;
use bfr::eval::examples;
use bfr_fuzz::{edition_texts, rendered, twice};
use libfuzzer_sys::fuzz_target;

fn one(data: &[u8]) -> String {
    let texts = edition_texts();
    let Some((&pick, text)) = data.split_first() else {
        return String::new();
    };
    let at = usize::from(pick) % texts.len().max(1);
    let files: Vec<(String, Vec<u8>)> = texts
        .iter()
        .enumerate()
        .map(|(i, (name, bytes))| {
            let bytes = if i == at {
                text.to_vec()
            } else {
                bytes.clone()
            };
            (name.clone(), bytes)
        })
        .collect();
    let loaded = load_texts(files);
    let mut out = rendered(&loaded.diagnostics, &loaded.sources);
    if let Some(checked) = &loaded.checked {
        for ex in &checked.program.examples {
            out.push_str(&format!("{:?}\n", examples::run(&checked.program, ex)));
        }
        let ir = serde_json::to_string(&checked.program);
        assert!(
            ir.is_ok(),
            "the IR of a checked edition cannot be serialised"
        );
        out.push_str(&ir.unwrap_or_default());
    }
    out
}

fuzz_target!(|data: &[u8]| twice(|| one(data)));
