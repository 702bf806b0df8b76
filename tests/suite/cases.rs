//! The case directories, one generated test per case (see "one test per case"
//! below), and the diagnostics corpus: `tests/cases/diagnostics/<CODE>-<slug>.bfr`.
//!
//! Each case file starts with `// expect: CODE`. The harness checks the file with
//! the library pipeline, asserts that CODE is among the codes produced, and
//! snapshots every rendered diagnostic (colour off, trailing spaces trimmed) as
//! `tests/suite/snapshots/suite__cases__<file stem>.snap`. A snapshot is an assertion: the
//! messages in it are what an editor reads.
//!
//! Codes that need a directory, a huge file or another subcommand (`E0004`,
//! `E0005`, `W0001`, `E05xx`, `E0601`) have their own tests at the end.

use crate::support::{TempDir, bfr, root, trim_lines};
use bfr::diag::{Colour, render};
use bfr::edition::{load, load_texts};
use std::path::Path;
use std::process::Command;

const CORPUS: &str = "tests/cases/diagnostics";

/// Renders every diagnostic of a loaded edition, in the CLI's order.
fn rendered(loaded: &bfr::edition::Loaded) -> (Vec<&'static str>, String) {
    let sorted = loaded.diagnostics.sorted();
    let codes = sorted.iter().map(|d| d.code).collect();
    let text: String = sorted
        .iter()
        .map(|d| render(d, &loaded.sources, Colour::Off))
        .collect();
    (codes, trim_lines(&text))
}

/// The code named by the `// expect: CODE` header.
fn expected_code(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    let code = first.strip_prefix("// expect:")?.trim();
    Some(code.to_string())
}

fn run_case(path: &Path) -> Result<(), String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("a case file needs a UTF-8 name")?
        .to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{stem}: {e}"))?;
    let header = String::from_utf8_lossy(&bytes);
    let expected =
        expected_code(&header).ok_or(format!("{stem}: no `// expect: CODE` first line"))?;
    if !stem.starts_with(&expected) {
        return Err(format!("{stem}: the file name must start with {expected}"));
    }
    // Relative names keep the snapshots the same on every machine.
    let relative = format!("{CORPUS}/{stem}.bfr");
    let loaded = load_texts(vec![(relative, bytes)]);
    let (codes, text) = rendered(&loaded);
    if !codes.contains(&expected.as_str()) {
        return Err(format!(
            "{stem}: expected {expected}, found {codes:?}\n{text}"
        ));
    }
    insta::assert_snapshot!(stem.as_str(), text);
    Ok(())
}

/// A diagnostics case: the test `cases::diagnostics::<stem>`.
fn diagnostic(file: &str) {
    if let Err(message) = run_case(&root().join(CORPUS).join(file)) {
        panic!("{message}");
    }
}

/// Every code `bfr check` can produce has a case file (or a test below).
#[test]
fn every_check_code_has_a_case() {
    // E0900 and E0901 are bfr's own bugs: no input is known to cause them. E0008
    // needs a named pipe and W0002 over a hundred diagnostics: tests/suite/hostile.rs.
    let covered_elsewhere = [
        "E0004", "E0005", "E0008", "W0001", "W0002", "E0900", "E0901",
    ];
    let src = root().join("src");
    let mut codes = std::collections::BTreeSet::new();
    let mut dirs = vec![src];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("src is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("source is UTF-8");
                for piece in text.split('"').skip(1).step_by(2) {
                    let b = piece.as_bytes();
                    if b.len() == 5
                        && (b[0] == b'E' || b[0] == b'W')
                        && b[1..].iter().all(u8::is_ascii_digit)
                    {
                        codes.insert(piece.to_string());
                    }
                }
            }
        }
    }
    let cases: Vec<String> = std::fs::read_dir(root().join(CORPUS))
        .expect("the corpus directory exists")
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    let docs = std::fs::read_to_string(root().join("docs/diagnostics.md"))
        .expect("docs/diagnostics.md exists");
    for code in &codes {
        assert!(
            docs.contains(&format!("## {code}")),
            "{code} is not documented in docs/diagnostics.md"
        );
        // E05xx and E06xx come from `bfr test` and `bfr eval`: tested below; E07xx
        // from `bfr run` (and `bfr simulate`): tests/events.rs has a case for each.
        // E08xx and W08xx come from entries files: tests/cases/entries has a case for each.
        // E11xx from `bfr schedule` and `bfr allocate`: tests/cases/federation (see
        // tests/suite/allocate.rs).
        let run_time = code.starts_with("E11")
            || code.starts_with("E05")
            || code.starts_with("E06")
            || code.starts_with("E07")
            || code.starts_with("W07")
            || code.starts_with("E08")
            || code.starts_with("W08");
        if run_time || covered_elsewhere.contains(&code.as_str()) {
            continue;
        }
        // E12xx and W12xx need more than one edition: tests/cases/amends (see
        // tests/suite/amends.rs), but for the one-file E1206.
        if (code.starts_with("E12") || code.starts_with("W12"))
            && crate::amends::cases()
                .iter()
                .any(|c| c.starts_with(code.as_str()))
        {
            continue;
        }
        assert!(
            cases.iter().any(|c| c.starts_with(code.as_str())),
            "{code} has no case file in {CORPUS}"
        );
    }
}

// ── codes that need more than one file's text ─────────────────────────────────

#[test]
fn e0004_file_too_large() {
    let mut text = String::from("// expect: E0004\n");
    let line = "const x: number ref X-BIG = 1\n";
    while text.len() <= bfr::syntax::MAX_FILE_BYTES {
        text.push_str(line);
    }
    let loaded = load_texts(vec![("big.bfr".into(), text.into_bytes())]);
    let (codes, _) = rendered(&loaded);
    assert_eq!(codes, ["E0004"]);
    let d = loaded.diagnostics.sorted()[0].message.clone();
    insta::assert_snapshot!("E0004-file-too-large", d);
}

#[test]
fn e0005_directory_without_bfr_files() {
    let dir = TempDir::new("cases-e0005");
    std::fs::write(dir.0.join("notes.txt"), "not an edition").expect("write");
    let loaded = load(&dir.0).expect("the directory is readable");
    let codes: Vec<&str> = loaded.diagnostics.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0005"]);
    // The message names the directory, which differs per run: snapshot the rest.
    let text = render(loaded.diagnostics.sorted()[0], &loaded.sources, Colour::Off)
        .replace(&dir.0.display().to_string(), "DIR");
    insta::assert_snapshot!("E0005-no-bfr-files", trim_lines(&text));
}

#[test]
fn e0005_directory_of_several_editions() {
    let dir = TempDir::new("cases-e0005-several");
    for year in ["2015", "2016"] {
        let edition = dir.0.join(year);
        std::fs::create_dir(&edition).expect("mkdir");
        std::fs::write(edition.join("edition.bfr"), format!("edition \"{year}\"\n"))
            .expect("write");
        std::fs::write(edition.join("fees.bfr"), "unit SEK \"Swedish kronor\"\n").expect("write");
    }
    let loaded = load(&dir.0).expect("the directory is readable");
    // One error naming both, not one per name the two declare alike.
    let codes: Vec<&str> = loaded.diagnostics.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0005"]);
    assert!(loaded.checked.is_none());
    let text = render(loaded.diagnostics.sorted()[0], &loaded.sources, Colour::Off)
        .replace(&dir.0.display().to_string(), "DIR");
    assert!(
        text.contains("`DIR` holds 2 editions, not one: `DIR/2015`, `DIR/2016`"),
        "{text}"
    );
    // Each alone is one edition.
    let one = load(&dir.0.join("2015")).expect("readable");
    assert!(!one.diagnostics.sorted().iter().any(|d| d.code == "E0005"));
}

#[test]
fn w0001_empty_file() {
    let loaded = load_texts(vec![
        ("empty.bfr".into(), Vec::new()),
        ("blank.bfr".into(), b"\n  \n".to_vec()),
    ]);
    let (codes, text) = rendered(&loaded);
    assert_eq!(codes, ["W0001", "W0001"]);
    insta::assert_snapshot!("W0001-empty-file", text);
}

// ── codes from `bfr test` and `bfr eval` ──────────────────────────────────────

fn test_case(name: &str, text: &str) -> (i32, String, String) {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join("rules.bfr"), text).expect("write");
    // Run from inside the directory so file names in the output are stable.
    let out = Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(["test", "--color", "never", "rules.bfr"])
        .current_dir(&dir.0)
        .output()
        .expect("bfr runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        trim_lines(&String::from_utf8_lossy(&out.stderr)),
    )
}

#[test]
fn e0501_example_does_not_hold() {
    let (code, stdout, stderr) = test_case(
        "e0501",
        "unit SEK \"Swedish kronor\"\n\
         const entry_fee: SEK ref CC-FEE p.14 \"Startavgifter\" = 500 SEK\n\
         example \"the entry fee\" ref CC-FEE {\n  entry_fee == 600 SEK\n}\n",
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("0 passed, 1 failed"), "{stdout}");
    assert!(stderr.contains("[E0501]"), "{stderr}");
    insta::assert_snapshot!("E0501-example-does-not-hold", stderr);
}

#[test]
fn e0502_contradicting_example_holds() {
    let (code, _, stderr) = test_case(
        "e0502",
        "unit SEK \"Swedish kronor\"\n\
         const entry_fee: SEK ref CC-FEE p.14 \"Startavgifter\" = 500 SEK\n\
         example \"the document's fee\" ref CC-FEE contradicts {\n  entry_fee == 500 SEK\n}\n",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0502]"), "{stderr}");
    insta::assert_snapshot!("E0502-contradicting-example-holds", stderr);
}

#[test]
fn e0503_example_cannot_be_evaluated() {
    let (code, _, stderr) = test_case(
        "e0503",
        "const teams: number ref CC-GH p.15 \"Gröna Hissen\" = 0\n\
         example \"boards per team\" ref CC-GH {\n  64 / teams == 2\n}\n",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0503]"), "{stderr}");
    insta::assert_snapshot!("E0503-example-cannot-be-evaluated", stderr);
}

#[test]
fn e0601_expression_cannot_be_evaluated() {
    let (code, stdout, stderr) = bfr(&[
        "eval",
        "--color",
        "never",
        "tests/fixtures/mini",
        "entry_fee / 0",
    ]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("[E0601]"), "{stderr}");
    insta::assert_snapshot!("E0601-expression-cannot-be-evaluated", stderr);
}

// ── one test per case ─────────────────────────────────────────────────────────
//
// Each file of `tests/cases/diagnostics` and `tests/cases/events`, and each
// directory of `tests/cases/runs`, is a test of its own, `cases::<kind>::<name>`,
// generated by the `bfr-case-list` package (`tests/case-list`): a case added as a
// file is a test without editing Rust.

mod diagnostics {
    bfr_case_list::diagnostics!(super::diagnostic);
}

mod events {
    bfr_case_list::events!(crate::events::event_case);
}

mod runs {
    bfr_case_list::runs!(super::bfr_run);
}

mod entries {
    bfr_case_list::entries!(crate::entries::entry_case);
}

const RUNS: &str = "tests/cases/runs";

/// A run case, `tests/cases/runs/<name>/`: an event file, `event.toml` (or
/// `event.json`), and the edition it runs through: an `edition/` directory of its
/// own, or an `edition` file naming one by its path from the crate root (lines
/// starting with `#` are comments). What `bfr run` gives for them — exit code,
/// stderr and stdout — is snapshotted as `suite__cases__runs__<name>.snap`.
fn bfr_run(name: &str) {
    let dir = format!("{RUNS}/{name}");
    let edition_file = root().join(&dir).join("edition");
    let edition = if edition_file.is_dir() {
        format!("{dir}/edition")
    } else {
        let text = std::fs::read_to_string(&edition_file)
            .unwrap_or_else(|e| panic!("{dir} needs an `edition` directory or file: {e}"));
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or_else(|| panic!("{dir}/edition names no edition"))
            .to_string()
    };
    let event = ["event.toml", "event.json"]
        .iter()
        .map(|f| format!("{dir}/{f}"))
        .find(|p| root().join(p).is_file())
        .unwrap_or_else(|| panic!("{dir} has no event.toml or event.json"));
    let (code, stdout, stderr) = bfr(&["run", "--color", "never", &edition, &event]);
    let name = format!("runs/{name}");
    insta::assert_snapshot!(
        name.as_str(),
        format!(
            "exit code: {code}\n-- stderr --\n{stderr}\n-- stdout --\n{}",
            trim_lines(&stdout)
        )
    );
}

/// The generated tests are the cases on disk: a case the build did not see (or
/// a file the listing does not take) would otherwise go unnoticed.
#[test]
fn every_case_is_a_test() {
    let kinds: [(&str, &[&str], &[&str]); 4] = [
        ("diagnostics", &["bfr"], diagnostics::CASES),
        ("events", &["toml", "json"], events::CASES),
        ("entries", &["toml", "json"], entries::CASES),
        ("runs", &[], runs::CASES),
    ];
    for (kind, extensions, generated) in kinds {
        let dir = root().join("tests/cases").join(kind);
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("the case directory exists")
            .map(|e| e.expect("the case directory is readable").path())
            .filter(|p| {
                if extensions.is_empty() {
                    p.is_dir()
                } else {
                    p.extension()
                        .and_then(|x| x.to_str())
                        .is_some_and(|x| extensions.contains(&x))
                }
            })
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        assert_eq!(
            on_disk, generated,
            "tests/cases/{kind}: the cases on disk and the generated tests differ"
        );
    }
    assert!(
        diagnostics::CASES.len() >= 30,
        "the corpus has {} files",
        diagnostics::CASES.len()
    );
    // Every E07xx and W07xx code of the source has an event case or a run case
    // (E0729, a file `--write-draw` cannot write into, is reached by no file `bfr
    // run` accepts: `event::record`'s tests; E0730 needs an edition whose IMP is
    // whole, which the test edition's is not: tests/suite/events.rs).
    for code in (700..=728)
        .map(|c| format!("E0{c}"))
        .chain(["W0720", "W0721", "W0722", "W0723", "W0724"].map(String::from))
    {
        assert!(
            events::CASES.iter().any(|c| c.starts_with(&code))
                || runs::CASES.iter().any(|c| c.starts_with(&code)),
            "{code} has no case in tests/cases/events or tests/cases/runs"
        );
    }
    assert!(!runs::CASES.is_empty());
    // Every E08xx and W08xx code of the source has an entries case (E0802, a rule
    // the edition lacks, has its own test in tests/suite/entries.rs).
    for code in (800..=822)
        .map(|c| format!("E0{c}"))
        .chain(["W0801", "W0802"].map(String::from))
    {
        let in_source = std::fs::read_dir(root().join("src/entry"))
            .expect("src/entry exists")
            .flatten()
            .any(|f| {
                std::fs::read_to_string(f.path()).is_ok_and(|t| t.contains(&format!("\"{code}\"")))
            });
        if !in_source || code == "E0802" {
            continue;
        }
        assert!(
            entries::CASES.iter().any(|c| c.starts_with(&code)),
            "{code} has no case in tests/cases/entries"
        );
    }
}
