//! Helpers shared by the suite's modules: the crate root, running the `bfr`
//! binary, temporary directories, and the bundled 2015 edition (as is, or with
//! exact text changes) and its simulated runs, and headless Chromium.

use bfr::edition::{Loaded, edition_files, load, load_texts};
use bfr::ir::Program;
use bfr::runner::report::{KoStage, Report};
use bfr::runner::simulate::Simulation;
use bfr::runner::{Options, RunError, run};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
        // Every run of the suite goes through a compiled-edition cache kept in
        // the build's own scratch directory (so nothing is left behind in the
        // system's): the first command on an edition writes it, the next ones
        // read it. Entries are keyed by the build, so a rebuilt bfr starts afresh.
        .env(
            "BFR_CACHE_DIR",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bfr-cache"),
        )
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

/// A copy of `rules/2015` on disk to edit, its document data and all.
pub fn copy_2015(tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    for entry in std::fs::read_dir(root().join(EDITION_2015)).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.0.join(p.file_name().unwrap())).unwrap();
    }
    dir
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

// ── headless Chromium ─────────────────────────────────────────────────────────

/// The Chromium binary on PATH; `None` (with a message) when there is none and
/// `CI` is unset. In CI a missing Chromium is a failure, never a skip.
pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|n| dir.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but Chromium is not installed (Debian: apt-get install chromium)"
        );
        eprintln!(
            "skipped: Chromium is not installed and CI is unset (Debian: apt-get install chromium)"
        );
    }
    found
}

/// Runs headless Chromium on the page at `page` with `args` (`--dump-dom`,
/// `--screenshot=…`), a profile of its own under `scratch`, and returns its
/// stdout. Chromium may hang on a broken machine; a test must not: it is killed
/// after 90 s.
pub fn run_chromium(chromium: &Path, scratch: &Path, page: &Path, args: &[String]) -> Vec<u8> {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .current_dir(scratch)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "chromium failed: {:?}", out.status);
    out.stdout
}

/// The script a test appends to a copy of a page: it replaces the body by a
/// `<pre>` holding the text shown (`document.body.innerText`), which
/// [`shown_text_at`] reads back from `--dump-dom`.
pub const SHOWN_TEXT_PROBE: &str = "<script>{const t=document.body.innerText;const p=document.createElement('pre');\
                 p.id='shown-text';p.textContent=t;document.body.replaceChildren(p);}</script>";

/// The text Chromium shows for the page at `page`, which ends with
/// [`SHOWN_TEXT_PROBE`]: CSS applied, entities decoded, the charset read from the
/// page; one line per table row or block, whitespace runs made single spaces,
/// empty lines dropped.
pub fn shown_text_at(chromium: &Path, scratch: &Path, page: &Path) -> Vec<String> {
    let out = run_chromium(chromium, scratch, page, &["--dump-dom".to_string()]);
    let dom = String::from_utf8(out).expect("the DOM is UTF-8");
    let start = dom.find("<pre id=\"shown-text\">").expect("the probe ran") + 21;
    let end = start + dom[start..].find("</pre>").unwrap();
    let text = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The text Chromium shows for the page `html` (a self-contained page).
pub fn shown_text(chromium: &Path, html: &str) -> Vec<String> {
    let dir = TempDir::new("chromium");
    let page = dir.0.join("page.html");
    std::fs::write(&page, format!("{html}{SHOWN_TEXT_PROBE}")).unwrap();
    shown_text_at(chromium, &dir.0, &page)
}
