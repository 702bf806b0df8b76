//! Helpers shared by the suite's modules: the crate root, running the `bfr`
//! binary, temporary directories, and the bundled 2015 edition (as is, or with
//! exact text changes) and its simulated runs.

use bfr::edition::{Loaded, edition_files, load, load_texts};
use bfr::ir::Program;
use bfr::runner::report::{KoStage, Report};
use bfr::runner::simulate::Simulation;
use bfr::runner::{Options, RunError, run};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The crate root: every relative path in the suite is relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Trailing spaces differ between ariadne versions and editors strip them.
pub fn trim_lines(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the binary from the crate root, with `NO_COLOR` unset so that the
/// colour flags alone decide.
pub fn bfr_output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .expect("bfr runs")
}

/// Runs the binary from the crate root: (exit code, stdout, stderr with
/// trailing spaces trimmed).
pub fn bfr(args: &[&str]) -> (i32, String, String) {
    let out = bfr_output(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        trim_lines(&String::from_utf8_lossy(&out.stderr)),
    )
}

/// A unique, empty directory under the system's temp dir; removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        // The tests of the suite share one process: the counter keeps two
        // directories made in the same nanosecond apart.
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let p = std::env::temp_dir().join(format!("bfr-{tag}-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ── the bundled 2015 edition ──────────────────────────────────────────────────

pub const EDITION_2015: &str = "rules/2015";

/// `rules/2015`, loaded from disk.
pub fn edition_2015() -> Loaded {
    load(&root().join(EDITION_2015)).expect("rules/2015 is readable")
}

/// The checked program of `rules/2015`.
pub fn program_2015() -> Program {
    edition_2015()
        .checked
        .expect("the 2015 edition checks")
        .program
}

/// One change to the 2015 edition's text.
pub enum Change<'a> {
    /// In `file`, replace `from` (which occurs exactly once) by `to`.
    Text(&'a str, &'a str, &'a str),
    /// Inside the declaration of stage `stage` of the knockout file, replace `from`
    /// (which occurs exactly once there) by `to`.
    InStage(&'a str, &'a str, &'a str),
    /// Remove the declaration of stage `stage` from the knockout file.
    DropStage(&'a str),
    /// Inside the declaration of `fn NAME` of the knockout file, replace `from`
    /// (which occurs exactly once there) by `to`.
    InFn(&'a str, &'a str, &'a str),
}

/// The 2015 edition's knockout file, where [`Change::InStage`] and
/// [`Change::DropStage`] apply.
pub const KNOCKOUT: &str = "chairmans_cup_knockout.bfr";

/// The byte range of `stage NAME "…" … }` in the knockout file.
fn stage_span(text: &str, stage: &str) -> (usize, usize) {
    let head = format!("  stage {stage} \"");
    assert_eq!(text.matches(&head).count(), 1, "stage `{stage}`");
    let start = text.find(&head).unwrap();
    let end = start + text[start..].find("\n  }\n").unwrap() + "\n  }\n".len();
    (start, end)
}

/// The 2015 edition's files with `changes` applied, loaded from memory (each
/// file named by its path from the crate's root, so the edition's document data
/// is found beside them).
pub fn edition_2015_with(changes: &[Change]) -> Loaded {
    let root = root().join(EDITION_2015);
    let mut texts = Vec::new();
    for path in edition_files(&root).unwrap() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut text = std::fs::read_to_string(&path).unwrap();
        for change in changes {
            match change {
                Change::Text(file, from, to) if *file == name => {
                    assert_eq!(text.matches(from).count(), 1, "`{from}` in {file}");
                    text = text.replace(from, to);
                }
                Change::InStage(stage, from, to) if name == KNOCKOUT => {
                    let (a, b) = stage_span(&text, stage);
                    let block = &text[a..b];
                    assert_eq!(block.matches(from).count(), 1, "`{from}` in {stage}");
                    let block = block.replace(from, to);
                    text = format!("{}{block}{}", &text[..a], &text[b..]);
                }
                Change::InFn(function, from, to) if name == KNOCKOUT => {
                    let head = format!("fn {function}(");
                    assert_eq!(text.matches(&head).count(), 1, "fn `{function}`");
                    let a = text.find(&head).unwrap();
                    let b = a + text[a..].find("\n}\n").unwrap();
                    let block = &text[a..b];
                    assert_eq!(block.matches(from).count(), 1, "`{from}` in {function}");
                    let block = block.replace(from, to);
                    text = format!("{}{block}{}", &text[..a], &text[b..]);
                }
                Change::DropStage(stage) if name == KNOCKOUT => {
                    let (a, b) = stage_span(&text, stage);
                    text = format!("{}{}", &text[..a], &text[b..]);
                }
                _ => {}
            }
        }
        texts.push((format!("{EDITION_2015}/{name}"), text.into_bytes()));
    }
    load_texts(texts)
}

// ── simulated runs of the cup ─────────────────────────────────────────────────

/// A simulated run of the `cup` to the end, on the edition's own VP scale.
pub fn try_simulate(program: &Program, teams: u32, seed: u64) -> Result<Report, RunError> {
    let options = Options {
        seed,
        ..Options::default()
    };
    let outcome = run(
        program,
        "cup",
        teams,
        &options,
        &mut Simulation::new(teams, seed),
    )?;
    assert!(outcome.pending.is_none(), "a simulation runs to the end");
    Ok(outcome.report)
}

pub fn simulate(program: &Program, teams: u32, seed: u64) -> Report {
    try_simulate(program, teams, seed).unwrap()
}

/// The knockout stage `name` of a report.
pub fn stage<'a>(r: &'a Report, name: &str) -> &'a KoStage {
    r.stages
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("stage `{name}` was played"))
}

/// The teams that play in a stage.
pub fn teams_of(s: &KoStage) -> BTreeSet<u32> {
    s.matches.iter().flat_map(|m| [m.home, m.away]).collect()
}
