//! The case directories of bfr's test suite, `tests/cases/{diagnostics,events,entries,runs}`,
//! as macros that expand to one `#[test]` per case.
//!
//! The build script lists the directories and writes one `macro_rules!` per kind;
//! `diagnostics!(f)` expands to a `#[test]` per case that calls `f("<file name>")`,
//! and to `const CASES: &[&str]`, the file names. Cargo reruns the build script
//! when anything under `tests/cases` changes, so a case added as a file is a test
//! without editing Rust. The list lives in its own small package so that adding a
//! case rebuilds the suite, not bfr itself.

include!(concat!(env!("OUT_DIR"), "/cases.rs"));
