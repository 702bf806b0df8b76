//! The examples of the README and `docs/` are what `bfr` prints. Each `$ bfr …` line of a
//! `text` block is run from the repository's root and its output compared with
//! the lines below it: a line `…` stands for any number of lines, a `…` in a
//! line for any text there; an example with nothing below it must succeed. A
//! command that names an edition of the reader's own (`my-edition/`) is left
//! out, and one that names any other file the repository does not hold is
//! wrong; one that writes a file writes it under `target/` instead.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The editions and event files of the reader's own that examples name: an example naming one
/// is left out. Any other path an example names must be in the repository.
const READERS_OWN: [&str; 4] = ["my-edition/", "next-edition/", "my-2016/", "event.toml"];

/// Options whose value is a file or directory the command writes.
const WRITES: [&str; 3] = ["--ics", "-o", "--write-baseline"];

/// One example: the command's words and the lines shown below it.
struct Example {
    line: usize,
    words: Vec<String>,
    shown: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A command line's words: spaces split, single quotes group.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Every `$ bfr …` example of the README's `text` blocks.
fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_text = false;
    // Lines of a block before its first command show no command's output.
    let mut current: Option<usize> = None;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_text = line == "```text";
            current = None;
            continue;
        }
        if !in_text {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ bfr ") {
            // A comment after the command is for the reader; so is where
            // its output is sent (`> page.html`): the test reads it.
            let command = command.split_once("  #").map_or(command, |(c, _)| c);
            let command = command.split_once(" > ").map_or(command, |(c, _)| c);
            current = Some(out.len());
            out.push(Example {
                line: i + 1,
                words: words(command),
                shown: Vec::new(),
            });
        } else if let Some(example) = current.and_then(|k| out.get_mut(k)) {
            example.shown.push(line.to_string());
        }
    }
    out
}

/// Whether a printed line is the line shown: a `…` in the shown line stands
/// for any text, the rest must be there in order.
fn same(want: &str, got: &str) -> bool {
    let (want, got) = (want.trim_end(), got.trim_end());
    let mut pieces = want.split('…');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = got.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether `actual` holds the `shown` lines, in order: each run of lines
/// between `…` lines stands together, and the first run starts the output
/// unless `…` comes first.
fn matches(shown: &[String], actual: &[&str]) -> Result<(), String> {
    let mut from = 0;
    let mut anchored = true;
    for run in shown.split(|l| l.trim() == "…") {
        if run.is_empty() {
            anchored = false;
            continue;
        }
        let fits = |at: usize| {
            run.iter()
                .enumerate()
                .all(|(k, want)| actual.get(at + k).is_some_and(|got| same(want, got)))
        };
        let found = if anchored {
            fits(from).then_some(from)
        } else {
            (from..actual.len()).find(|at| fits(*at))
        };
        let Some(at) = found else {
            return Err(format!(
                "these lines are not in the output (after line {from}):\n{}",
                run.join("\n")
            ));
        };
        from = at + run.len();
        anchored = false;
    }
    Ok(())
}

/// What an example printed (stdout, then stderr) and whether it exited 0.
struct Printed {
    text: String,
    ok: bool,
}

/// Runs an example: `Ok(None)` when it names an edition of the reader's own,
/// an error when it names a file the repository does not hold.
fn run(example: &Example, scratch: &Path) -> Result<Option<(Vec<String>, Printed)>, String> {
    let mut args = Vec::new();
    let mut shown = example.shown.clone();
    let mut writes_next = false;
    for word in &example.words {
        if writes_next {
            let there = scratch.join(word).to_string_lossy().into_owned();
            for line in &mut shown {
                *line = line.replace(word.as_str(), &there);
            }
            args.push(there);
            writes_next = false;
            continue;
        }
        writes_next = WRITES.contains(&word.as_str());
        if READERS_OWN.contains(&word.as_str()) {
            return Ok(None);
        }
        let names_a_file = word.contains('/') && !word.starts_with('-') && !word.contains(' ');
        if names_a_file && !root().join(word).exists() {
            return Err(format!("`{word}` is not in the repository"));
        }
        args.push(word.clone());
    }
    if args.first().is_some_and(|a| a == "fmt") && !args.iter().any(|a| a == "--check") {
        return Ok(None);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(&args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("bfr runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let ok = out.status.success();
    Ok(Some((shown, Printed { text, ok })))
}

/// The README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root().join("README.md"));
    pages
}

#[test]
fn every_example_in_the_readme_and_the_docs_is_what_bfr_prints() {
    let scratch = root().join("target/readme-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let mut ran = 0;
    let mut wrong = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(root())
            .unwrap_or(&page)
            .display()
            .to_string();
        for example in examples(&text) {
            let command = format!("{name}:{} `bfr {}`", example.line, example.words.join(" "));
            let (shown, printed) = match run(&example, &scratch) {
                Ok(Some(ran)) => ran,
                Ok(None) => continue,
                Err(why) => {
                    wrong.push(format!("{command}: {why}"));
                    continue;
                }
            };
            ran += 1;
            let actual: Vec<&str> = printed.text.lines().collect();
            // An example that shows nothing below it says it succeeds.
            if shown.is_empty() && !printed.ok {
                wrong.push(format!("{command}: it failed\n{}", printed.text));
                continue;
            }
            if let Err(why) = matches(&shown, &actual) {
                let head: Vec<&str> = actual.iter().take(40).copied().collect();
                wrong.push(format!(
                    "{command}: {why}\n--- bfr printed (first 40 lines):\n{}",
                    head.join("\n")
                ));
            }
        }
    }
    assert!(ran >= 20, "only {ran} examples ran");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn an_example_matches_only_the_lines_it_shows_in_their_order() {
    let shown: Vec<String> = ["a", "…", "c", "d …"].map(String::from).to_vec();
    assert!(matches(&shown, &["a", "b", "c", "d e"]).is_ok());
    assert!(matches(&shown, &["a", "c", "x"]).is_err());
    assert!(matches(&shown, &["b", "a", "c", "d"]).is_err());
    assert!(same("f(…) = 1 …", "f(a = 1) = 1 SEK"));
    assert!(same("x … y … z", "x 1 y 2 z"));
    assert!(!same("x … y … z", "x 1 z 2 y"));
    assert!(!same("f(…) = 1", "f(a) = 12"));
    let later: Vec<String> = ["…", "c"].map(String::from).to_vec();
    assert!(matches(&later, &["a", "c"]).is_ok());
    assert_eq!(
        words("eval r 'f(a: 1, b: 2)'"),
        ["eval", "r", "f(a: 1, b: 2)"]
    );
    let example = |command: &str| Example {
        line: 1,
        words: words(command),
        shown: Vec::new(),
    };
    let scratch = root().join("target/readme-examples-unit");
    assert!(run(&example("check my-edition/"), &scratch).is_ok_and(|r| r.is_none()));
    assert!(run(&example("check rules/2014"), &scratch).is_err());
}
