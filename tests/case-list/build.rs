//! Writes `$OUT_DIR/cases.rs`: for each kind of case under `tests/cases`, a macro
//! that expands to one `#[test]` per case (see lib.rs).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// (kind, which entries are cases): a file with one of the extensions, or a
/// directory when there are none.
const KINDS: [(&str, &[&str]); 4] = [
    ("diagnostics", &["bfr"]),
    ("events", &["toml", "json"]),
    ("entries", &["toml", "json"]),
    ("runs", &[]),
];

fn main() {
    // Read when the script runs, not when it was compiled: a build directory
    // copied from another checkout must list this checkout's cases.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|e| panic!("{e}"));
    let cases = Path::new(&manifest).join("../cases");
    println!("cargo::rerun-if-changed={}", cases.display());
    let mut out = String::new();
    for (kind, extensions) in KINDS {
        let dir = cases.join(kind);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
            .filter(|e| {
                let path = e.path();
                if extensions.is_empty() {
                    path.is_dir()
                } else {
                    path.is_file()
                        && path
                            .extension()
                            .and_then(|x| x.to_str())
                            .is_some_and(|x| extensions.contains(&x))
                }
            })
            .map(|e| {
                e.file_name()
                    .into_string()
                    .unwrap_or_else(|name| panic!("{name:?} in {}: not UTF-8", dir.display()))
            })
            .collect();
        names.sort();
        let mut tests = String::new();
        let mut idents = BTreeSet::new();
        for name in &names {
            let ident = test_name(name, extensions);
            assert!(
                idents.insert(ident.clone()),
                "two cases in {} are both test `{ident}`; rename one",
                dir.display()
            );
            writeln!(tests, "#[test] fn {ident}() {{ $run({name:?}) }}").unwrap();
        }
        writeln!(
            out,
            "/// One `#[test]` per case of `tests/cases/{kind}`, calling `$run(file name)`;\n\
             /// and `CASES`, the file names.\n\
             #[macro_export]\n\
             macro_rules! {kind} {{\n    ($run:path) => {{\n\
             #[allow(dead_code, reason = \"the suite may only use the tests\")]\n\
             pub const CASES: &[&str] = &{names:?};\n{tests}    }};\n}}\n"
        )
        .unwrap();
    }
    let path = Path::new(&std::env::var("OUT_DIR").unwrap()).join("cases.rs");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// `E0001-expected-arrow.bfr` → `e0001_expected_arrow`. A stem seen twice (`x.toml`,
/// `x.json`) is reported by the caller.
fn test_name(file: &str, extensions: &[&str]) -> String {
    let stem = match file.rsplit_once('.') {
        Some((stem, x)) if extensions.contains(&x) => stem,
        _ => file,
    };
    let mut ident: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !ident.starts_with(|c: char| c.is_ascii_lowercase()) {
        ident.insert_str(0, "case_");
    }
    ident
}
