//! An edition of its own: the input is one or more rules files, split at each
//! 0xFF byte (a byte no UTF-8 text holds, so splitting loses only the invalid
//! text that byte would make; other invalid bytes still reach the reader). Parse
//! and check the edition, render its diagnostics as text and JSON, run its
//! examples and serialise its IR.
//!
//! A small edition keeps one input in milliseconds. Checking a mutated file
//! inside the whole 2015 edition cost a third of a second an input, too slow for
//! a campaign of ten million; the seeds hold the 2015 files (alone and with the
//! files they lean on), the test fixtures' editions and the bad-input corpus.
#![no_main]

use bfr::edition::load_texts;
use bfr::eval::examples;
use bfr_fuzz::{rendered, twice};
use libfuzzer_sys::fuzz_target;

/// Files past this many are dropped: an edition of a few files says all a
/// larger one would, at a fraction of the cost.
const MAX_FILES: usize = 16;

fn one(data: &[u8]) -> String {
    let files: Vec<(String, Vec<u8>)> = data
        .split(|&b| b == 0xFF)
        .take(MAX_FILES)
        .enumerate()
        .map(|(i, bytes)| (format!("file{i}.bfr"), bytes.to_vec()))
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
