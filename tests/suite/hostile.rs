//! Inputs built to make bfr slow, loud or stuck: each gets a coded diagnostic
//! or the right answer, quickly, with bounded output. Sizes here suit a debug
//! build; the issue's full sizes go through the release binary named in
//! `BFR_RELEASE_BIN` (set by `.ci/run`).

use crate::support::{TempDir, root, trim_lines};
use bfr::diag::{self, Colour, MAX_SHOWN, MAX_SHOWN_PER_FILE};
use bfr::edition::{Loaded, load, load_texts};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn one_file(text: impl Into<Vec<u8>>) -> Loaded {
    load_texts(vec![("input.bfr".into(), text.into())])
}

/// What the CLI would print for these diagnostics, as text.
fn rendered(loaded: &Loaded) -> String {
    let mut r = diag::Renderer::new(&loaded.sources, Colour::Off);
    diag::shown(&loaded.diagnostics, &loaded.sources)
        .iter()
        .map(|d| r.render(d))
        .collect()
}

/// Runs a binary with a deadline: (exit code, stdout, stderr). A run past the
/// deadline is killed and fails the test: it is the hang being tested for.
fn run_within(bin: &Path, args: &[&str], dir: &Path, limit: Duration) -> (i32, String, String) {
    let mut command = Command::new(bin);
    command.args(args).current_dir(dir);
    run_command_within(command, limit)
}

/// [`run_within`] for a command made by the caller (its environment, say).
fn run_command_within(mut command: Command, limit: Duration) -> (i32, String, String) {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bfr starts");
    let start = Instant::now();
    // Output is read on threads so that a full pipe cannot stall the child.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut s).ok();
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut s).ok();
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("bfr {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = out_t.join().expect("stdout thread");
    let err = err_t.join().expect("stderr thread");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out).into_owned(),
        trim_lines(&String::from_utf8_lossy(&err)),
    )
}

fn debug_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bfr"))
}

fn release_bin() -> Option<PathBuf> {
    match std::env::var_os("BFR_RELEASE_BIN") {
        Some(bin) => Some(root().join(bin)),
        None => {
            eprintln!("BFR_RELEASE_BIN is not set: this input runs in .ci/run");
            None
        }
    }
}

const SECONDS: Duration = Duration::from_secs(20);

// ── bounds on diagnostics ─────────────────────────────────────────────────────

fn identical_rows(n: usize) -> String {
    let rows = "  imps >= 0 IMP => 1 VP\n".repeat(n);
    format!(
        "unit VP \"victory points\"\nunit IMP \"imps\" whole\n\
         scale s(imps: IMP) -> VP ref X-A {{\n{rows}}}\n"
    )
}

#[test]
fn identical_scale_rows_give_one_error_per_row_not_per_pair() {
    let loaded = one_file(identical_rows(1_000));
    let overlaps = loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "E0301")
        .count();
    // One per repeated row (999), not one per pair (499,500).
    assert_eq!(overlaps, 999);
    assert_eq!(loaded.diagnostics.error_count(), 999);
    let text = rendered(&loaded);
    assert_eq!(text.matches("[E0301]").count(), MAX_SHOWN_PER_FILE);
    assert!(
        text.contains("[W0002]") && text.contains("and 899 more diagnostics in `input.bfr`"),
        "{}",
        &text[text.len().saturating_sub(500)..]
    );
    assert!(text.len() < 100_000, "{} bytes", text.len());
}

#[test]
fn overlapping_rows_are_each_reported_once_against_an_earlier_row() {
    let text = "unit VP \"victory points\"\nunit IMP \"imps\" whole\n\
                scale s(imps: IMP) -> VP ref X-A {\n\
                \x20 imps < 0 IMP => 0 VP\n\
                \x20 0 IMP <= imps <= 10 IMP => 1 VP\n\
                \x20 5 IMP <= imps <= 20 IMP => 2 VP\n\
                \x20 10 IMP < imps => 3 VP\n\
                \x20 3 IMP <= imps <= 4 IMP => 4 VP\n}\n";
    let loaded = one_file(text);
    let lines: Vec<(usize, Vec<usize>)> = loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.code == "E0301")
        .map(|d| {
            let line = |s: bfr::source::Span| loaded.sources.line_col(s.file, s.start).0;
            (
                line(d.span),
                d.notes.iter().map(|(s, _)| line(*s)).collect(),
            )
        })
        .collect();
    // Rows on lines 6, 7 and 8 each overlap a row written before them.
    assert_eq!(lines, [(6, vec![5]), (7, vec![6]), (8, vec![5])]);
}

#[test]
fn diagnostics_are_capped_per_file_and_per_run() {
    // 15 files with 150 unknown names each: 2,250 errors.
    let files: Vec<(String, Vec<u8>)> = (0..15)
        .map(|f| {
            let text: String = (0..150)
                .map(|i| format!("const c{f}_{i}: number ref X-A = missing_{f}_{i}\n"))
                .collect();
            (format!("f{f:02}.bfr"), text.into_bytes())
        })
        .collect();
    let loaded = load_texts(files);
    assert_eq!(loaded.diagnostics.error_count(), 15 * 150);
    let shown = diag::shown(&loaded.diagnostics, &loaded.sources);
    let real = shown.iter().filter(|d| d.code == "E0101").count();
    assert_eq!(real, MAX_SHOWN);
    let notices: Vec<&str> = shown
        .iter()
        .filter(|d| d.code == "W0002")
        .map(|d| d.message.as_str())
        .collect();
    // Ten files shown in part (100 of 150 each), five not at all.
    assert_eq!(notices.len(), 11, "{notices:?}");
    assert_eq!(
        notices.first().copied(),
        Some("and 50 more diagnostics in `f00.bfr` not shown (50 errors, 0 warnings)")
    );
    assert_eq!(
        notices.last().copied(),
        Some("and 750 more diagnostics in 5 more files not shown (750 errors, 0 warnings)")
    );
    // JSON is capped the same way.
    let json: Vec<serde_json::Value> = shown
        .iter()
        .map(|d| diag::to_json(d, &loaded.sources))
        .collect();
    assert_eq!(json.len(), MAX_SHOWN + 11);
}

#[test]
fn w0002_diagnostics_not_shown() {
    let dir = TempDir::new("hostile-w0002");
    std::fs::write(dir.0.join("scale.bfr"), identical_rows(150)).expect("write");
    let (code, stdout, stderr) = run_within(
        &debug_bin(),
        &["check", "--color", "never", "scale.bfr"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("149 errors"), "{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    let tail = lines
        .get(lines.len().saturating_sub(2)..)
        .unwrap_or_default();
    insta::assert_snapshot!("W0002-diagnostics-not-shown", tail.join("\n"));
    let (_, json, _) = run_within(
        &debug_bin(),
        &["check", "--format", "json", "scale.bfr"],
        &dir.0,
        SECONDS,
    );
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let diags = v[0]["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(v[0]["errors"], 149);
    assert_eq!(diags.len(), MAX_SHOWN_PER_FILE + 1);
    assert_eq!(diags[MAX_SHOWN_PER_FILE]["code"], "W0002");
}

/// An event file with 300 problems: `bfr run` shows as many as `bfr check` does in
/// every format — 100, then one W0002 line — and the page counts every error.
#[test]
fn a_run_shows_at_most_a_hundred_diagnostics_per_file_in_every_format() {
    let dir = TempDir::new("hostile-run-diagnostics");
    let mut event = String::from("competition = \"mini\"\nseed = 42\nteam = [");
    event.push_str(
        &(1..=8)
            .map(|i| format!("{{ id = {i} }}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    // The first round's first match, then the same result 300 times more (E0707).
    let results = vec!["\"4-2 40:20\""; 301].join(", ");
    event.push_str(&format!(
        "]\n[[round]]\nnumber = 1\nresults = [{results}]\n"
    ));
    std::fs::write(dir.0.join("event.toml"), event).expect("write");
    let edition = root().join("tests/fixtures/events");
    let edition = edition.to_str().expect("a UTF-8 path");
    let run = |format: &str| {
        let (code, stdout, stderr) = run_within(
            &debug_bin(),
            &[
                "run",
                "--color",
                "never",
                "--format",
                format,
                edition,
                "event.toml",
            ],
            &dir.0,
            SECONDS,
        );
        assert_eq!(code, 1, "{stderr}");
        (stdout, stderr)
    };
    let (json, _) = run("json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let diags = v["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), MAX_SHOWN_PER_FILE + 1);
    assert_eq!(diags[MAX_SHOWN_PER_FILE]["code"], "W0002");
    assert!(
        diags[MAX_SHOWN_PER_FILE]["message"]
            .as_str()
            .is_some_and(|m| m.contains("and 200 more diagnostics in `event.toml` not shown")),
        "{}",
        diags[MAX_SHOWN_PER_FILE]
    );
    let (page, _) = run("html");
    assert_eq!(
        page.matches("[E0707]").count(),
        MAX_SHOWN_PER_FILE,
        "{page}"
    );
    assert!(page.contains("[W0002]"));
    assert!(page.contains("the event file has 300 errors"));
    let (_, text) = run("text");
    assert_eq!(text.matches("[E0707]").count(), MAX_SHOWN_PER_FILE);
}

// ── near-linear checking ──────────────────────────────────────────────────────

fn unknown_names(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("const name_{i}: number ref X-A = 1\n"));
    }
    for i in 0..n {
        text.push_str(&format!("const use_{i}: number ref X-A = zzz{i}\n"));
    }
    // A near miss still gets its suggestion.
    text.push_str("const near: number ref X-A = name_12x\n");
    text
}

#[test]
fn many_unknown_names_are_reported_with_suggestions_where_near() {
    let loaded = one_file(unknown_names(500));
    assert_eq!(loaded.diagnostics.error_count(), 501);
    let near = loaded
        .diagnostics
        .sorted()
        .into_iter()
        .find(|d| d.message.contains("name_12x"))
        .expect("the near miss is reported");
    assert_eq!(near.help.as_deref(), Some("did you mean `name_12`?"));
}

fn chained_consts(n: usize) -> String {
    let mut text = String::from("const c0: number ref X-A = 0\n");
    for i in 1..=n {
        text.push_str(&format!("const c{i}: number ref X-A = c{} + 1\n", i - 1));
    }
    text.push_str(&format!(
        "example \"the chain\" ref X-A {{\n  c{n} == {n}\n}}\n"
    ));
    text
}

#[test]
fn chained_consts_check_and_hold() {
    let loaded = one_file(chained_consts(3_000));
    assert!(
        loaded.diagnostics.is_empty(),
        "{:?}",
        loaded.diagnostics.sorted()
    );
    let checked = loaded.checked.as_ref().expect("checks");
    let ex = checked.program.examples.first().expect("one example");
    assert!(matches!(
        bfr::eval::examples::run(&checked.program, ex),
        bfr::eval::examples::Outcome::Holds
    ));
}

/// The issue's sizes, through the release binary: each within a few seconds
/// (before: 23 s and 313 MB of output; 5.4 s; over 55 s).
#[test]
fn the_issues_sizes_check_quickly_in_a_release_build() {
    let Some(bin) = release_bin() else { return };
    let dir = TempDir::new("hostile-release");
    std::fs::write(dir.0.join("rows.bfr"), identical_rows(1_000)).expect("write");
    std::fs::write(dir.0.join("names.bfr"), unknown_names(4_000)).expect("write");
    std::fs::write(dir.0.join("chain.bfr"), chained_consts(20_000)).expect("write");
    let limit = Duration::from_secs(10);
    let (code, _, stderr) = run_within(&bin, &["check", "rows.bfr"], &dir.0, limit);
    assert_eq!(code, 1);
    assert!(stderr.len() < 100_000, "{} bytes", stderr.len());
    let (code, stdout, stderr) = run_within(&bin, &["check", "names.bfr"], &dir.0, limit);
    assert_eq!(code, 1);
    assert!(stdout.contains("4001 errors"), "{stdout}");
    assert!(stderr.len() < 100_000, "{} bytes", stderr.len());
    let (code, stdout, _) = run_within(&bin, &["check", "chain.bfr"], &dir.0, limit);
    assert_eq!(code, 0, "{stdout}");
}

/// Calls nested inside `if … else` and `let … in`, left open: the error is
/// found at once. Each level once made the parser try the inner call twice,
/// so twenty levels took seconds and these sixty would never finish (found by
/// fuzzing `bfr eval`).
#[test]
fn calls_nested_in_if_and_let_bodies_fail_at_once() {
    let dir = TempDir::new("hostile-open-ended");
    let levels = "f(if true then 1 else f(let a = 1 in ".repeat(30);
    let file = format!("const x: number ref X-A = {levels}\n");
    std::fs::write(dir.0.join("open.bfr"), file).expect("write");
    let (code, _, stderr) = run_within(&debug_bin(), &["check", "open.bfr"], &dir.0, SECONDS);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("E0001"), "{stderr}");
    let edition = root().join("rules/2015");
    let edition = edition.to_str().expect("a UTF-8 path");
    let args = ["--no-cache", "eval", edition, levels.as_str()];
    let (code, _, stderr) = run_within(&debug_bin(), &args, &dir.0, SECONDS);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("E0001"), "{stderr}");
}

/// An `if` as an operand, its `else` an operation on a bracket left open, and
/// so on inside: each enclosing operation once tried the operator after the
/// `if` again, doubling the work per level (sixteen levels took a second,
/// thirty would never finish; found by fuzzing the reader). An `if` is now a
/// whole expression, and an `if` as an operand is an error at once.
#[test]
fn an_if_as_an_operand_fails_at_once() {
    let dir = TempDir::new("hostile-if-operand");
    let levels = "a - if true then 1 else 1 + (".repeat(30);
    let file = format!("const x: number ref X-A = {levels}\n");
    std::fs::write(dir.0.join("operand.bfr"), file).expect("write");
    let (code, _, stderr) = run_within(&debug_bin(), &["check", "operand.bfr"], &dir.0, SECONDS);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("E0001") && stderr.contains("in brackets"),
        "{stderr}"
    );
}

// ── echoed input is bounded ───────────────────────────────────────────────────

#[test]
fn a_huge_number_literal_is_not_echoed_whole() {
    let digits = "9".repeat(1_000_000);
    let loaded = one_file(format!("const x: number ref X-A = {digits}\n"));
    let codes: Vec<&str> = loaded.diagnostics.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0006"]);
    let text = rendered(&loaded);
    assert!(
        text.len() < 2_000,
        "{} bytes:\n{}",
        text.len(),
        &text[..2_000]
    );
    assert!(text.contains("bytes left out"), "{text}");
    assert!(
        text.contains("a line of 1000026 bytes, shown in part"),
        "{text}"
    );
    let json = serde_json::to_string(&diag::to_json(
        loaded.diagnostics.sorted()[0],
        &loaded.sources,
    ))
    .expect("JSON");
    assert!(json.len() < 2_000, "{} bytes", json.len());
}

#[test]
fn a_long_line_with_an_error_is_echoed_in_part() {
    let loaded = one_file(format!(
        "const x: number ref X-A = 1 {}\n",
        "+ ".repeat(40_000)
    ));
    assert!(loaded.diagnostics.has_errors());
    let text = rendered(&loaded);
    assert!(text.len() < 2_000, "{} bytes", text.len());
    insta::assert_snapshot!("long-line-echoed-in-part", trim_lines(&text));
}

/// A 100 MB one-line file: refused by its size before it is read, and the
/// refusal does not echo it.
#[test]
fn a_hundred_megabyte_one_line_file_is_refused_briefly() {
    let Some(bin) = release_bin() else { return };
    let dir = TempDir::new("hostile-100mb");
    std::fs::write(dir.0.join("big.bfr"), "x".repeat(100 * 1024 * 1024)).expect("write");
    let digits = format!(
        "const x: number ref X-A = {}\n",
        "7".repeat(60 * 1024 * 1024)
    );
    std::fs::write(dir.0.join("digits.bfr"), digits).expect("write");
    let limit = Duration::from_secs(30);
    let (code, _, stderr) = run_within(&bin, &["check", "big.bfr"], &dir.0, limit);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0004]"), "{stderr}");
    assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
    let (code, _, stderr) = run_within(&bin, &["check", "digits.bfr"], &dir.0, limit);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("[E0006]"),
        "{}",
        &stderr[..stderr.len().min(2_000)]
    );
    assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
}

#[test]
fn a_newline_in_a_file_name_is_shown_escaped() {
    let loaded = load_texts(vec![(
        "evil\nname.bfr".into(),
        b"const x: number ref X-A = y\n".to_vec(),
    )]);
    let text = rendered(&loaded);
    assert!(text.contains("evil\\nname.bfr"), "{text}");
    assert!(!text.contains("evil\nname"), "{text}");
}

// ── inputs checked for kind and size before they are read ─────────────────────

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_named_pipe_as_a_rules_file_is_refused_not_read() {
    let dir = TempDir::new("hostile-fifo");
    std::fs::write(dir.0.join("a.bfr"), "const x: number ref X-A = 1\n").expect("write");
    if !mkfifo(&dir.0.join("pipe.bfr")) {
        eprintln!("mkfifo is not available; skipped");
        return;
    }
    let (code, stdout, stderr) = run_within(
        &debug_bin(),
        &["check", "--color", "never", "."],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("2 files"), "{stdout}");
    insta::assert_snapshot!("E0008-not-a-file", stderr);
    // Named alone, too.
    let (code, _, stderr) = run_within(&debug_bin(), &["check", "pipe.bfr"], &dir.0, SECONDS);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0008]"), "{stderr}");
}

#[test]
fn a_named_pipe_as_an_event_file_is_refused_not_read() {
    let dir = TempDir::new("hostile-fifo-event");
    if !mkfifo(&dir.0.join("event.toml")) {
        eprintln!("mkfifo is not available; skipped");
        return;
    }
    let edition = root().join("rules/2015");
    let edition = edition.to_str().expect("UTF-8 path");
    let (code, _, stderr) = run_within(
        &debug_bin(),
        &["run", "--color", "never", edition, "event.toml"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("[E0008]") && stderr.contains("`event.toml` is a named pipe"),
        "{stderr}"
    );
    // The help names an event file, not a rules file.
    assert!(
        stderr.contains("regular `.toml` or `.json` file") && !stderr.contains(".bfr"),
        "{stderr}"
    );
    // A directory is refused the same way; a missing file cannot be opened (exit 3).
    std::fs::create_dir(dir.0.join("folder.toml")).expect("mkdir");
    let (code, _, stderr) = run_within(
        &debug_bin(),
        &["run", edition, "folder.toml"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("is a directory, not a file"), "{stderr}");
    let (code, _, stderr) = run_within(
        &debug_bin(),
        &["run", edition, "missing.toml"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 3, "{stderr}");
    let (code, json, _) = run_within(
        &debug_bin(),
        &["run", "--format", "json", edition, "event.toml"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["diagnostics"][0]["code"], "E0008");
}

#[test]
fn a_named_pipe_is_refused_wherever_a_file_is_named_beside_an_edition() {
    let dir = TempDir::new("hostile-fifo-beside");
    // `bfr fmt` takes rules files only (another file is a usage error, exit 2).
    if !mkfifo(&dir.0.join("pipe.toml")) || !mkfifo(&dir.0.join("pipe.bfr")) {
        eprintln!("mkfifo is not available; skipped");
        return;
    }
    let edition = root().join("rules/2015");
    let edition = edition.to_str().expect("UTF-8 path");
    // Each would block for ever on the pipe if it opened it.
    let commands: [&[&str]; 7] = [
        &["entries", "check", edition, "pipe.toml"],
        &["invoice", edition, "pipe.toml"],
        &["allocate", edition, "Open", "pipe.toml"],
        &["seed", edition, "pipe.toml"],
        &["vacancies", edition, "Open", "pipe.toml"],
        &["fmt", "pipe.bfr"],
        &["check", "--baseline", "pipe.toml", edition],
    ];
    for args in commands {
        let mut all = vec!["--no-cache"];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = run_within(&debug_bin(), &all, &dir.0, SECONDS);
        assert_eq!(code, 3, "bfr {args:?}: {stdout}{stderr}");
        let pipe = args.iter().find(|a| a.starts_with("pipe.")).unwrap();
        assert!(
            stderr.contains(&format!("`{pipe}`")) && stderr.contains("a named pipe, not a file"),
            "bfr {args:?}: {stderr}"
        );
    }
    // The document data an edition names: a diagnostic about the header.
    let ed = dir.0.join("ed");
    std::fs::create_dir(&ed).expect("mkdir");
    std::fs::write(
        ed.join("edition.bfr"),
        "edition \"E\" { document \"../pipe.toml\" }\n",
    )
    .expect("write");
    let (code, _, stderr) = run_within(&debug_bin(), &["check", "ed"], &dir.0, SECONDS);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E0010]") && stderr.contains("a named pipe, not a file"),
        "{stderr}"
    );
}

#[test]
fn a_base_file_turned_into_a_named_pipe_is_not_read_through_the_cache() {
    let dir = TempDir::new("hostile-fifo-base");
    let (base, amending, cache) = (dir.0.join("base"), dir.0.join("new"), dir.0.join("cache"));
    std::fs::create_dir(&base).expect("mkdir");
    std::fs::create_dir(&amending).expect("mkdir");
    std::fs::write(base.join("a.bfr"), "const x: number ref X-A = 1\n").expect("write");
    std::fs::write(
        amending.join("edition.bfr"),
        "edition \"New\" { amends \"../base\" }\nconst y: number ref X-B = x + 1\n",
    )
    .expect("write");
    let eval = || {
        let mut command = Command::new(debug_bin());
        command
            .args(["eval", "new", "y"])
            .current_dir(&dir.0)
            .env("BFR_CACHE_DIR", &cache);
        run_command_within(command, SECONDS)
    };
    let (code, stdout, stderr) = eval();
    assert_eq!((code, stdout.trim()), (0, "2"), "{stderr}");
    // The cache now holds the edition; the base's file becomes a pipe.
    std::fs::remove_file(base.join("a.bfr")).expect("remove");
    if !mkfifo(&base.join("a.bfr")) {
        eprintln!("mkfifo is not available; skipped");
        return;
    }
    let (code, _, stderr) = eval();
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("[E0008]"), "{stderr}");
}

#[test]
fn a_link_to_an_endless_device_is_refused_not_read() {
    let dir = TempDir::new("hostile-dev-zero");
    #[cfg(unix)]
    std::os::unix::fs::symlink("/dev/zero", dir.0.join("zero.bfr")).expect("symlink");
    #[cfg(not(unix))]
    return;
    let loaded = load(&dir.0).expect("the directory is readable");
    let codes: Vec<&str> = loaded.diagnostics.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0008"]);
    assert!(loaded.diagnostics.sorted()[0].message.contains("a device"));
}

#[test]
fn a_file_over_the_limit_is_refused_by_its_size_before_it_is_read() {
    let dir = TempDir::new("hostile-sparse");
    // A sparse file of 3 GB: reading it whole would take 3 GB of memory.
    let f = std::fs::File::create(dir.0.join("huge.bfr")).expect("create");
    f.set_len(3 * 1024 * 1024 * 1024).expect("set_len");
    drop(f);
    let start = Instant::now();
    let loaded = load(&dir.0).expect("readable");
    assert!(start.elapsed() < Duration::from_secs(5));
    let d = loaded.diagnostics.sorted()[0].clone();
    assert_eq!(d.code, "E0004");
    assert_eq!(
        d.message,
        "this file is 3221225472 bytes; bfr reads files of at most 67108864 bytes"
    );
}

// ── honest output ─────────────────────────────────────────────────────────────

#[test]
fn a_write_to_a_full_disk_exits_3_with_a_message() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("/dev/full is not available; skipped");
        return;
    };
    let out = Command::new(debug_bin())
        .args(["check", "rules/2015"])
        .current_dir(root())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("bfr runs");
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: could not write to standard output")
            && stderr.contains("the output is incomplete"),
        "{stderr}"
    );
}

/// The reader left (`bfr list | head`): the output is cut short, which exit 3
/// says, but the reader chose that, so no message is added to the terminal.
#[test]
fn a_closed_stdout_exits_3_without_a_message() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(debug_bin())
        .args(["check", "rules/2015"])
        .current_dir(root())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("bfr runs");
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("could not write"), "{stderr}");
}

#[test]
fn check_good_and_missing_reports_good_in_every_format_and_exits_3() {
    let (code, stdout, stderr) = run_within(
        &debug_bin(),
        &["check", "rules/2015", "no-such-edition"],
        &root(),
        SECONDS,
    );
    assert_eq!(code, 3);
    assert!(
        stdout.starts_with("rules/2015: ") && stdout.contains(" files, "),
        "{stdout}"
    );
    assert!(
        stderr.contains("error: cannot read `no-such-edition`: no such file or directory"),
        "{stderr}"
    );
    let (code, json, _) = run_within(
        &debug_bin(),
        &["check", "--format", "json", "rules/2015", "no-such-edition"],
        &root(),
        SECONDS,
    );
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    assert_eq!(v[0]["edition"], "rules/2015");
    assert_eq!(v[0]["errors"], 0);
    assert_eq!(v[1]["edition"], "no-such-edition");
    assert_eq!(v[1]["error"], "io");
}

#[test]
fn format_given_twice_the_last_one_counts_in_every_position() {
    for args in [
        &[
            "--format",
            "text",
            "--format",
            "json",
            "check",
            "rules/2015",
        ][..],
        &[
            "check",
            "--format",
            "text",
            "--format",
            "json",
            "rules/2015",
        ],
        &[
            "--format",
            "text",
            "check",
            "--format",
            "json",
            "rules/2015",
        ],
        &[
            "check",
            "rules/2015",
            "--format",
            "text",
            "--format",
            "json",
        ],
    ] {
        let (code, stdout, stderr) = run_within(&debug_bin(), args, &root(), SECONDS);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(stdout.starts_with('['), "{args:?}: {stdout}");
    }
}

// ── simulate across its whole accepted range ──────────────────────────────────

/// Sizes that once hit the Swiss pairing's cliff (9,500 teams did not finish in
/// two minutes, 7,777 took one), and the largest accepted: each in seconds.
#[test]
fn simulate_scales_smoothly_up_to_ten_thousand_teams() {
    let Some(bin) = release_bin() else { return };
    let edition = root().join("rules/2015");
    let edition = edition.to_str().expect("UTF-8 path");
    for teams in ["7777", "9500", "10000"] {
        let start = Instant::now();
        let (code, stdout, stderr) = run_within(
            &bin,
            &["simulate", edition, "cup", "--teams", teams],
            &root(),
            Duration::from_secs(30),
        );
        assert_eq!(code, 0, "{teams} teams: {stderr}");
        assert!(stdout.contains("seed 1"), "{teams} teams");
        eprintln!("{teams} teams: {:?}", start.elapsed());
    }
    // Past the accepted range: a usage error, at once.
    let (code, _, stderr) = run_within(
        &bin,
        &["simulate", edition, "cup", "--teams", "10001"],
        &root(),
        SECONDS,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("10001 is not in 2..=10000"), "{stderr}");
}

// ── the issue's remaining sizes and edges ─────────────────────────────────────

/// An edition of 10,000 empty files (once over two minutes): each file gets its
/// warning, at most 1,000 are shown and one W0002 line counts the rest. It is
/// the most files an edition has (the walk's other limit, 100,000 entries, is
/// `edition::walk`'s unit test).
#[test]
fn an_edition_of_ten_thousand_empty_files_checks_quickly_with_bounded_output() {
    let Some(bin) = release_bin() else { return };
    let dir = TempDir::new("hostile-empty-files");
    for i in 0..10_000 {
        std::fs::write(dir.0.join(format!("f{i:05}.bfr")), "").expect("write");
    }
    let (code, stdout, stderr) = run_within(&bin, &["check", "."], &dir.0, Duration::from_secs(20));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("10000 files"), "{stdout}");
    assert!(stdout.contains("10000 warnings"), "{stdout}");
    assert!(
        stderr.contains("and 9000 more diagnostics in 9000 more files not shown"),
        "{}",
        &stderr[stderr.len().saturating_sub(400)..]
    );
    assert!(stderr.len() < 400_000, "{} bytes", stderr.len());
    // At the limit of an edition's files exactly; one more, and the directory
    // (named by mistake, say) is refused before any file is read: exit 3.
    assert_eq!(bfr::edition::MAX_EDITION_FILES, 10_000);
    std::fs::write(dir.0.join("one-more.bfr"), "").expect("write");
    let (code, _, stderr) = run_within(&bin, &["check", "."], &dir.0, SECONDS);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(
            "cannot read `.`: more than 10000 `.bfr` files below it; an edition has at most 10000"
        ),
        "{stderr}"
    );
}

/// A run asked for 0 or 1 teams (the issue's `lv_series` with 0 teams once
/// underflowed before its check): every competition of the edition stops with
/// a coded error that says how many it needs, at once, in any build.
#[test]
fn every_competition_with_zero_or_one_team_stops_with_a_coded_error() {
    let loaded = load(&root().join("rules/2015")).expect("reads");
    let program = &loaded.checked.expect("checks").program;
    assert!(program.competitions.len() >= 3);
    for c in &program.competitions {
        for teams in [0, 1] {
            let start = Instant::now();
            let mut source = bfr::runner::simulate::Simulation::new(teams, 1);
            let options = bfr::runner::Options::default();
            let err = bfr::runner::run(program, &c.name, teams, &options, &mut source)
                .err()
                .unwrap_or_else(|| panic!("{} ran with {teams} teams", c.name));
            assert_eq!(err.code(), "E0716", "{}: {}", c.name, err.message);
            assert!(err.message.contains("at least"), "{}", err.message);
            assert!(start.elapsed() < Duration::from_secs(1));
        }
    }
}

// ── bounds on evaluation ──────────────────────────────────────────────────────

/// `bfr explain` of rule calls in a loop records the first 10,000 calls and
/// says how many more there were, in text and JSON, instead of printing (and
/// holding) every one: 20,000 calls here, so it is quick in a debug build.
#[test]
fn explain_of_calls_in_a_loop_shows_the_first_ten_thousand() {
    let expr =
        "len(map(range(1, 2000), x => map(range(1, 10), y => late_arrival_qualification(12 min))))";
    let (code, stdout, stderr) = run_within(
        &debug_bin(),
        &["explain", "rules/2015", expr],
        &root(),
        SECONDS,
    );
    assert_eq!(code, 0, "{stderr}");
    let calls = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("late_arrival_qualification("))
        .count();
    assert_eq!(calls, 10_000);
    assert!(
        stdout.ends_with(
            "\n  … 10000 more rule calls left out: an explanation shows the first 10000 calls\n"
        ),
        "{}",
        &stdout[stdout.len().saturating_sub(300)..]
    );
    assert!(stdout.len() < 4_000_000, "{} bytes", stdout.len());
    let (code, json, stderr) = run_within(
        &debug_bin(),
        &["--format", "json", "explain", "rules/2015", expr],
        &root(),
        SECONDS,
    );
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["trace_left_out"], 10_000);
    assert_eq!(v["trace"].as_array().map(Vec::len), Some(10_000));
}

/// A chain of rules each calling the next, 10,000 deep at most (E0601 past
/// it): shown nested, its lines were indented by up to 20,000 spaces (100 MB
/// of text, 2.4 GB of JSON whose nesting overflowed the stack). A call deeper
/// than 32 is shown at 32, saying its own depth; 200 here. The JSON nests
/// no deeper than a parser takes (serde_json's limit, 128, read here).
#[test]
fn explain_of_a_deep_chain_shows_it_at_most_32_deep() {
    let dir = TempDir::new("hostile-deep-chain");
    let mut text: String = (0..199)
        .map(|i| format!("fn f{i}(x: number) -> number = f{}(x) + 1\n", i + 1))
        .collect();
    text.push_str("fn f199(x: number) -> number = x\n");
    std::fs::write(dir.0.join("chain.bfr"), text).expect("write");
    let (code, stdout, stderr) =
        run_within(&debug_bin(), &["explain", ".", "f0(1)"], &dir.0, SECONDS);
    assert_eq!(code, 0, "{stderr}");
    let indent = |rule: &str| {
        let line = stdout
            .lines()
            .find(|l| {
                l.trim_start()
                    .trim_start_matches(|c: char| c != 'f')
                    .starts_with(&format!("{rule}("))
            })
            .unwrap_or_else(|| panic!("no line of {rule}"));
        (
            line.len() - line.trim_start().len(),
            line.trim_start().to_string(),
        )
    };
    let (at_32, line_32) = indent("f32");
    assert_eq!(line_32, "f32(x = 1) = 168");
    let (at_33, line_33) = indent("f33");
    assert_eq!(
        (at_33, line_33.as_str()),
        (at_32, "[depth 33] f33(x = 1) = 167")
    );
    let (at_199, line_199) = indent("f199");
    assert_eq!(
        (at_199, line_199.as_str()),
        (at_32, "[depth 199] f199(x = 1) = 1")
    );
    let (code, json, stderr) = run_within(
        &debug_bin(),
        &["--format", "json", "explain", ".", "f0(1)"],
        &dir.0,
        SECONDS,
    );
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    // Down the first child 32 times: f32, whose siblings after it are the rest.
    let mut node = &v["trace"][0];
    for _ in 0..32 {
        node = &node["children"][0];
    }
    assert_eq!(node["rule"], "f32");
    assert!(
        node.get("children").is_none() && node.get("depth").is_none(),
        "{node}"
    );
    let parent = {
        let mut p = &v["trace"][0];
        for _ in 0..31 {
            p = &p["children"][0];
        }
        p
    };
    let below = parent["children"].as_array().expect("f31's calls");
    assert_eq!(below.len(), 168, "f32 to f199");
    assert_eq!(
        (&below[167]["rule"], &below[167]["depth"]),
        (&"f199".into(), &199.into())
    );
}

/// The issue's inputs: a const of three nested loops over 10,000 numbers
/// (hours before), the same as an incident's rule in `bfr run`, and an
/// explanation of ten million rule calls (5.3 GB of memory in 30 s before).
#[test]
fn the_issues_evaluations_stop_quickly_in_a_release_build() {
    let Some(bin) = release_bin() else { return };
    let dir = TempDir::new("hostile-evaluation");
    let slow =
        "sum(map(range(1, 10000), x => sum(map(range(1, 10000), y => sum(range(1, 10000))))))";
    std::fs::write(
        dir.0.join("slow.bfr"),
        format!("const slow: number ref X-SLOW = {slow}\n"),
    )
    .expect("write");
    let (code, _, stderr) = run_within(&bin, &["check", "slow.bfr"], &dir.0, SECONDS);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0606]"), "{stderr}");
    let event = format!(
        "competition = \"mini\"\nseed = 42\n\
         team = [{{ id = 1 }}, {{ id = 2 }}, {{ id = 3 }}, {{ id = 4 }}, {{ id = 5 }}, {{ id = 6 }}]\n\n\
         [[incident]]\nteam = 1\nround = 1\n\
         rule = \"if {slow} > 0 then late_arrival(8 min) else late_arrival(9 min)\"\n"
    );
    std::fs::write(dir.0.join("event.toml"), event).expect("write");
    let edition = root().join("tests/fixtures/events");
    let edition = edition.to_str().expect("UTF-8 path");
    let (code, _, stderr) = run_within(&bin, &["run", edition, "event.toml"], &dir.0, SECONDS);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0606]"), "{stderr}");
    let many = "len(map(range(1, 10000), x => map(range(1, 1000), y => late_arrival_qualification(12 min))))";
    let (code, stdout, stderr) =
        run_within(&bin, &["explain", "rules/2015", many], &root(), SECONDS);
    assert!(code == 0 || stderr.contains("[E0606]"), "{stderr}");
    assert!(stdout.len() < 4_000_000, "{} bytes", stdout.len());
}

/// Dense text: one declaration of 4 MB of `+1`, a 4 MB list, a `remove` of 4 MB
/// of `example "a"` targets, and an incident's rule of 4 MB in an event file. Each is refused by the pre-scan before the
/// parser sees it (E0011; the list E0208), in a debug build. The parser, given such a
/// declaration whole, held a queue of tokens of over a kilobyte per `+1`
/// (770 MB for 2 MB of text) and took seconds per megabyte.
#[test]
fn dense_declarations_and_rules_are_refused_before_they_are_parsed() {
    let dir = TempDir::new("hostile-dense");
    let ones = "+1".repeat(2 * 1024 * 1024);
    let sum = format!("const x: number ref X-A = 1{ones}\n");
    std::fs::write(dir.0.join("sum.bfr"), sum).expect("write");
    let values = ",1".repeat(2 * 1024 * 1024);
    let list = format!("const x: [number] ref X-A = [1{values}]\n");
    std::fs::write(dir.0.join("list.bfr"), list).expect("write");
    let targets = ", example \"a\"".repeat(300_000);
    let remove = format!("remove example \"a\"{targets}\n");
    std::fs::write(dir.0.join("remove.bfr"), remove).expect("write");
    let event = std::fs::read_to_string(
        root().join("tests/cases/events/E0001-incident-rule-does-not-parse.toml"),
    )
    .expect("the case exists")
    .replace(
        "late_arrival_qualification(8 min\"",
        &format!("late_arrival_qualification(8 min){ones}\""),
    );
    assert!(event.len() > 4_000_000);
    std::fs::write(dir.0.join("event.toml"), event).expect("write");
    let edition = root().join("tests/fixtures/events");
    let edition = edition.to_str().expect("a UTF-8 path");
    let limit = Duration::from_secs(20);
    // The help fits what was too long: a file's declaration, or an incident's rule.
    let declarations = "split it into several declarations";
    let expression = "give its parts a name with a `const` or a `fn` in the edition";
    for (args, code_shown, help) in [
        (
            &["check", "--color", "never", "sum.bfr"][..],
            "[E0011]",
            declarations,
        ),
        (
            &["check", "--color", "never", "list.bfr"],
            "[E0208]",
            "a `fn`",
        ),
        (
            &["check", "--color", "never", "remove.bfr"],
            "[E0011]",
            declarations,
        ),
        (
            &["run", "--color", "never", edition, "event.toml"],
            "[E0011]",
            expression,
        ),
    ] {
        let start = Instant::now();
        let (code, _, stderr) = run_within(&debug_bin(), args, &dir.0, limit);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stderr.contains(code_shown), "{args:?}: {stderr}");
        assert!(stderr.contains(help), "{args:?}: {stderr}");
        assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
    }
}

#[test]
fn an_editions_titles_cannot_move_the_cursor_in_a_report() {
    use crate::support::{KNOCKOUT, bfr, copy_2015};
    // A competition title that clears the screen, a stage title that rings the
    // bell, and a line break, which stays one.
    let dir = copy_2015("report-titles");
    let path = dir.0.join(KNOCKOUT);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text
        .replacen(
            "competition cup \"Chairman's Cup\"",
            "competition cup \"Chairman\u{1b}[2J's\nCup\"",
            1,
        )
        .replacen("stage cc32 \"CC32\"", "stage cc32 \"CC\u{7}32\"", 1);
    assert_eq!(changed.matches(['\u{1b}', '\u{7}']).count(), 2);
    std::fs::write(&path, changed).unwrap();
    let dir = dir.0.display().to_string();
    let (code, out, err) = bfr(&["simulate", &dir, "cup", "--teams", "64"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains(['\u{1b}', '\u{7}']), "{out}");
    assert!(
        out.starts_with("Chairman\\u{1b}[2J's\nCup — 64 teams"),
        "{out}"
    );
    assert!(out.contains("CC\\u{7}32"), "{out}");
}

/// What every command prints on standard output escapes the control characters
/// an edition's texts may hold, and a diagnostic shows them in the line it
/// echoes as pictures; a diff bfr colours keeps its colours unless a text it
/// shows holds one.
#[test]
fn an_editions_texts_reach_the_terminal_escaped_from_every_command() {
    use crate::support::{EDITION_2015, KNOCKOUT, bfr, copy_2015};
    let edit = |dir: &Path, from: &str, to: &str| {
        let path = dir.join(KNOCKOUT);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    };
    let title = "competition cup \"Chairman's Cup\"";
    let hostile_title = "competition cup \"Chairman\u{1b}[2J's\u{7} Cup\"";
    let hostile = copy_2015("escaped-texts");
    edit(&hostile.0, title, hostile_title);
    let dir = hostile.0.display().to_string();
    for args in [
        vec!["schedule", &dir],
        vec!["simulate", &dir, "cup", "--teams", "64"],
        vec!["diff", EDITION_2015, &dir, "--color", "always"],
    ] {
        let (_, out, _) = bfr(&args);
        assert!(!out.contains(['\u{1b}', '\u{7}']), "{args:?}: {out}");
        let escaped = "Chairman\\u{1b}[2J's\\u{7} Cup";
        assert!(out.contains(escaped), "{args:?}: {out}");
    }
    // A calendar allows no control character in a value (RFC 5545): pictures,
    // and a line break in the edition's name (the calendar's) is a space.
    let edition = hostile.0.join("edition.bfr");
    let named = std::fs::read_to_string(&edition).unwrap().replacen(
        "edition \"Bridgefestivalen 2015\"",
        "edition \"Bridgefestivalen\r\r\n2015\nBEGIN:VEVENT\"",
        1,
    );
    std::fs::write(&edition, named).unwrap();
    let ics = hostile.0.join("programme.ics");
    let (code, _, err) = bfr(&["schedule", &dir, "--ics", &ics.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let calendar = std::fs::read_to_string(&ics).unwrap();
    let unfolded = calendar.replace("\r\n ", "");
    let lines: Vec<&str> = unfolded.split_terminator("\r\n").collect();
    assert!(
        !lines.iter().any(|l| l.contains(char::is_control)),
        "{calendar}"
    );
    assert!(
        lines.contains(&"NAME:Bridgefestivalen␍ 2015 BEGIN:VEVENT"),
        "{calendar}"
    );
    assert!(unfolded.contains("Chairman␛[2J's␇ Cup"), "{calendar}");
    // JSON is data: the title comes back whole, a delete character and all.
    let data = copy_2015("json-texts");
    edit(
        &data.0,
        title,
        "competition cup \"Chairman\u{1b}[2J's\u{7f} Cup\"",
    );
    let data = data.0.display().to_string();
    let (code, out, err) = bfr(&[
        "--format", "json", "simulate", &data, "cup", "--teams", "64",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("the output is JSON");
    assert_eq!(
        json["report"]["competition"], "Chairman\u{1b}[2J's\u{7f} Cup",
        "{out}"
    );
    // The same change without a control character: the diff keeps its colours.
    let plain = copy_2015("coloured-diff");
    edit(&plain.0, title, "competition cup \"Chairman's Kupa\"");
    let plain = plain.0.display().to_string();
    let (code, out, _) = bfr(&["diff", EDITION_2015, &plain, "--color", "always"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("\u{1b}[33m~ competition cup\u{1b}[0m"),
        "{out}"
    );
    // A character that shows the text after it backwards: warned of, never shown.
    let reordered = copy_2015("reordered-texts");
    edit(
        &reordered.0,
        title,
        "competition cup \"Chairman's \u{202e}puC\u{202c}\"",
    );
    let reordered = reordered.0.display().to_string();
    let (code, _, err) = bfr(&["check", &reordered, "--color", "never"]);
    assert_eq!(code, 0, "a warning: {err}");
    assert!(
        err.contains("[W0003] Warning") && !err.contains('\u{202e}'),
        "{err}"
    );
    let (_, out, _) = bfr(&["schedule", &reordered]);
    assert!(out.contains("Chairman's \\u{202e}puC\\u{202c}"), "{out}");
    // The same on the pages `bfr doc` writes.
    let site = Path::new(&reordered).join("site");
    let (code, _, err) = bfr(&["doc", &reordered, "-o", &site.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let mut pages = 0;
    for page in std::fs::read_dir(&site).unwrap() {
        let text = std::fs::read_to_string(page.unwrap().path()).unwrap();
        assert!(!text.contains(['\u{202e}', '\u{202c}']), "{text}");
        pages += usize::from(text.contains("s \\u{202e}puC\\u{202c}"));
    }
    assert!(pages > 0, "no page names the cup");
    // A file's name in an error that it cannot be read.
    let missing = format!("{dir}/missing\u{1b}[2J.bfr");
    let (code, _, err) = bfr(&["fmt", &missing]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("missing\\u{1b}[2J.bfr`: no such file"),
        "{err}"
    );
    // A line of a file echoed under a diagnostic.
    edit(
        &hostile.0,
        hostile_title,
        &format!("{hostile_title} \u{1b}[2J!"),
    );
    let (code, _, err) = bfr(&["check", &dir, "--color", "never"]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains(['\u{1b}', '\u{7}']), "{err}");
    assert!(err.contains("Chairman␛[2J's␇ Cup\" ␛[2J!"), "{err}");
}

// ── director's files: values, names, editions ────────────────────────────────

#[test]
fn a_directors_file_of_a_million_values_is_refused_before_it_is_read() {
    let dir = TempDir::new("hostile-values");
    let limit = bfr::spanned::bound::MAX_VALUES;
    // `order = [` is two signs; the commas make up the rest.
    let numbers = |signs: usize| format!("order = [{}0]\n", "0,".repeat(signs - 2));
    let over = dir.0.join("over.toml");
    std::fs::write(&over, numbers(limit + 1)).unwrap();
    let at = dir.0.join("at.toml");
    std::fs::write(&at, numbers(limit)).unwrap();
    let json = dir.0.join("over.json");
    std::fs::write(
        &json,
        format!("{{\"competition\": [{}0]}}", "0,".repeat(limit)),
    )
    .unwrap();
    let path = |p: &PathBuf| p.display().to_string();
    let run = |args: &[&str]| run_within(&debug_bin(), args, &root(), SECONDS);
    let refused = "holds more than 1,000,000 values; bfr reads files of at most that many";
    for (args, code) in [
        (
            vec!["vacancies", "rules/2015", "Open", &path(&over)],
            "E1110",
        ),
        (
            vec!["entries", "check", "rules/2015", &path(&over)],
            "E0800",
        ),
        (vec!["run", "rules/2015", &path(&json)], "E0700"),
    ] {
        let (exit, _, err) = run(&args);
        assert_eq!(exit, 1, "{args:?}: {err}");
        assert!(
            err.contains(code) && err.contains(refused),
            "{args:?}: {err}"
        );
    }
    // At the bound the file is read, and its values judged.
    let (exit, _, err) = run(&["vacancies", "rules/2015", "Open", &path(&at)]);
    assert_eq!(exit, 1, "{err}");
    assert!(err.contains("E1111") && !err.contains(refused), "{err}");
}

#[test]
fn a_line_break_in_a_name_cannot_forge_a_line_of_the_output() {
    let dir = TempDir::new("hostile-names");
    let entries = dir.0.join("entries.toml");
    std::fs::write(
        &entries,
        r#"
[[player]]
member = 1
name = "A\nInvoice FAKE: B"
membership_paid_at = "2014-09-01 10:00"
[[player]]
member = 2
name = "C"
membership_paid_at = "2014-09-01 10:00"
[[pair]]
id = "P\n  total 0 SEK"
event = "Dam"
players = [1, 2]
district = "Skåne"
stage = "DamFinal"
first_stage_at = "2015-03-14 10:00"
table_fee_paid_at = "2015-06-20 12:00"
"#,
    )
    .unwrap();
    let pairs = dir.0.join("pairs.toml");
    let seed16 = std::fs::read_to_string(root().join("tests/fixtures/federation/seed16.toml"))
        .unwrap()
        .replacen("pair = \"Par 01\"", "pair = \"Par 01\\n  1  Par FAKE\"", 1);
    std::fs::write(&pairs, seed16).unwrap();
    let (_, out, err) =
        crate::support::bfr(&["invoice", "rules/2015", &entries.display().to_string()]);
    assert!(!out.is_empty(), "{err}");
    assert!(
        !out.lines()
            .any(|l| l.starts_with("Invoice FAKE") || l.trim_start().starts_with("total 0 SEK")),
        "{out}"
    );
    assert!(out.contains("P\\n  total 0 SEK"), "{out}");
    let (code, out, err) =
        crate::support::bfr(&["seed", "rules/2015", &pairs.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.lines()
            .any(|l| l.trim_start().starts_with("1  Par FAKE")),
        "{out}"
    );
    assert!(out.contains("Par 01\\n  1  Par FAKE"), "{out}");
}

#[test]
fn an_empty_directory_is_no_edition_for_any_command() {
    let dir = TempDir::new("hostile-empty-edition");
    let empty = dir.0.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let e = empty.display().to_string();
    let site = dir.0.join("site").display().to_string();
    for args in [
        vec!["check", &e],
        vec!["schedule", &e],
        vec!["list", &e],
        vec!["test", &e],
        vec!["eval", &e, "1 + 1"],
        vec!["diff", "rules/2015", &e],
        vec!["doc", &e, "-o", &site],
        vec!["fmt", &e],
    ] {
        let (code, out, err) = crate::support::bfr(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains("E0005"), "{args:?}: {err}");
    }
    assert!(!Path::new(&site).exists());
}
