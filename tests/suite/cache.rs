//! The compiled-edition cache (`edition::cache`): a cached edition is the edition
//! checked afresh, and any change to a file it was made from, a base edition's
//! included, or to the cache file itself, is loaded afresh.

use crate::support::{EDITION_2015, TempDir, root};
use bfr::edition::{Loaded, cache, load};
use std::path::Path;

/// A cached load is told apart by its diagnostics: an edition loaded afresh
/// brings its warnings (each edition here has one), a cached one none.
fn cached(loaded: &Loaded) -> bool {
    loaded.diagnostics.is_empty()
}

/// The checked edition and every text read, as one string to compare.
fn shape(loaded: &Loaded) -> String {
    let texts: Vec<(String, String)> = loaded
        .sources
        .iter()
        .map(|(_, f)| (f.name.clone(), f.text.clone()))
        .collect();
    format!("{:?}\n{texts:?}\n{}", loaded.checked, loaded.files)
}

#[test]
fn the_2015_edition_from_the_cache_is_the_edition_checked_afresh() {
    let dir = TempDir::new("cache-2015");
    let path = root().join(EDITION_2015);
    let fresh = load(&path).unwrap();
    let first = cache::load(&path, Some(&dir.0)).unwrap();
    assert!(!cached(&first), "the first load checks the edition");
    let second = cache::load(&path, Some(&dir.0)).unwrap();
    assert!(cached(&second), "the second load is the cache's");
    assert!(fresh.checked.is_some());
    assert_eq!(shape(&second), shape(&fresh));
}

#[test]
fn eval_explain_and_run_answer_the_same_with_and_without_the_cache() {
    let dir = TempDir::new("cache-cli");
    let cache_dir = dir.0.join("cache");
    let cache_dir = cache_dir.to_str().unwrap();
    let run = |args: &[&str], cache: bool| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bfr"))
            .args(if cache { &[][..] } else { &["--no-cache"][..] })
            .args(args)
            .current_dir(root())
            .env("BFR_CACHE_DIR", cache_dir)
            .output()
            .unwrap();
        (out.status.code(), out.stdout, out.stderr)
    };
    let event = "tests/fixtures/events/docs-example.toml";
    let commands: [&[&str]; 4] = [
        &["eval", EDITION_2015, "late_arrival_qualification(12 min)"],
        &[
            "explain",
            EDITION_2015,
            "cc_gh_entry_fee(4 player, 1 player)",
        ],
        &["run", EDITION_2015, event],
        &["run", "tests/fixtures/events", event],
    ];
    for args in commands {
        let without = run(args, false);
        let cold = run(args, true);
        let warm = run(args, true);
        assert_eq!(cold, without, "{args:?}");
        assert_eq!(warm, without, "{args:?}");
    }
    let entries = std::fs::read_dir(cache_dir).unwrap().count();
    assert_eq!(entries, 2, "one entry per edition");
}

/// A base edition and an edition that amends it, in a fresh directory.
fn amending(dir: &Path) {
    std::fs::create_dir_all(dir.join("base")).unwrap();
    std::fs::create_dir_all(dir.join("edition")).unwrap();
    std::fs::write(
        dir.join("base/edition.bfr"),
        "edition \"Base\" {\n  source \"a test edition\"\n}\n\nunit SEK \"Swedish kronor\"\n\n/// The entry fee.\nconst fee: SEK ref X-FEE = 500 SEK\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("edition/edition.bfr"),
        "edition \"Amended\" {\n  amends \"../base\"\n}\n\n/// Twice the fee.\nconst double: SEK ref X-DOUBLE = fee * 2\n",
    )
    .unwrap();
    // An empty file: its warning (W0001) tells a load afresh from a cached one.
    std::fs::write(dir.join("edition/notes.bfr"), "\n").unwrap();
}

/// `double` as the edition at `path` gives it, through the cache, and whether
/// the cache gave the edition.
fn double(path: &Path, cache_dir: &Path) -> (String, bool) {
    let loaded = cache::load(path, Some(cache_dir)).unwrap();
    let checked = loaded.checked.as_ref().expect("the edition checks");
    let (i, _) = checked.program.rule("double").unwrap();
    let v = bfr::eval::Evaluator::new(&checked.program)
        .call(i, Vec::new(), Default::default())
        .unwrap();
    (v.show(&checked.program), cached(&loaded))
}

#[test]
fn a_change_to_any_file_of_the_edition_or_its_base_loads_it_afresh() {
    let dir = TempDir::new("cache-amends");
    let cache_dir = dir.0.join("cache");
    amending(&dir.0);
    let edition = dir.0.join("edition");
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), false));
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), true));
    // The base's fee changes: the amending edition's files are the same.
    let base = dir.0.join("base/edition.bfr");
    let text = std::fs::read_to_string(&base).unwrap();
    std::fs::write(&base, text.replace("500 SEK", "600 SEK")).unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1200 SEK".into(), false));
    assert_eq!(double(&edition, &cache_dir), ("1200 SEK".into(), true));
    // A new file in the base.
    std::fs::write(
        dir.0.join("base/more.bfr"),
        "/// A second fee.\nconst late_fee: SEK ref X-LATE = 100 SEK\n",
    )
    .unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1200 SEK".into(), false));
    assert_eq!(double(&edition, &cache_dir), ("1200 SEK".into(), true));
    // The edition's own file.
    let own = edition.join("edition.bfr");
    let text = std::fs::read_to_string(&own).unwrap();
    std::fs::write(&own, text.replace("fee * 2", "fee * 3")).unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1800 SEK".into(), false));
    assert_eq!(double(&edition, &cache_dir), ("1800 SEK".into(), true));
}

#[test]
fn a_damaged_or_unwritable_cache_is_ignored() {
    let dir = TempDir::new("cache-damaged");
    let cache_dir = dir.0.join("cache");
    amending(&dir.0);
    let edition = dir.0.join("edition");
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), false));
    let entry = std::fs::read_dir(&cache_dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&entry).unwrap();
    for at in [0, 20, bytes.len() / 2, bytes.len() - 1] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x5a;
        std::fs::write(&entry, &damaged).unwrap();
        assert_eq!(
            double(&edition, &cache_dir),
            ("1000 SEK".into(), false),
            "byte {at}"
        );
    }
    bytes.truncate(bytes.len() / 3);
    std::fs::write(&entry, &bytes).unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), false));
    // Rewritten whole by the load after it.
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), true));
    // A cache directory that is a file can be neither read nor written.
    let not_a_dir = dir.0.join("file");
    std::fs::write(&not_a_dir, "x").unwrap();
    assert_eq!(double(&edition, &not_a_dir), ("1000 SEK".into(), false));
    assert_eq!(double(&edition, &not_a_dir), ("1000 SEK".into(), false));
}

#[test]
fn no_cache_writes_nothing() {
    let dir = TempDir::new("cache-none");
    let (code, _, err) = {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bfr"))
            .args(["--no-cache", "eval", "tests/fixtures/events", "1 + 1"])
            .current_dir(root())
            .env("BFR_CACHE_DIR", &dir.0)
            .output()
            .unwrap();
        (out.status.code(), out.stdout, out.stderr)
    };
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0);
}

/// The names of the entries in a cache directory, sorted.
fn entry_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_command_that_shows_no_warnings_keeps_the_edition_in_the_cache() {
    for args in [
        &["test"][..],
        &["list"],
        &["debug", "ir"],
        &["schedule"],
        &["simulate"],
    ] {
        let dir = TempDir::new("cache-commands");
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_bfr"));
        cmd.args(args).arg("tests/fixtures/events");
        if args == ["simulate"] {
            cmd.args(["mini", "--teams", "8", "--seed", "1"]);
        }
        let out = cmd
            .current_dir(root())
            .env("BFR_CACHE_DIR", &dir.0)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(entry_names(&dir.0).len(), 1, "{args:?}");
    }
}

#[test]
fn the_least_recently_used_entries_beyond_32_are_pruned_and_other_files_left() {
    let dir = TempDir::new("cache-prune");
    let cache_dir = dir.0.join("cache");
    std::fs::create_dir_all(&cache_dir).unwrap();
    amending(&dir.0);
    let edition = dir.0.join("edition");
    let day_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    let mut made = Vec::new();
    for i in 0..40u64 {
        let name = format!("{i:064x}.bin");
        let file = std::fs::File::create(cache_dir.join(&name)).unwrap();
        file.set_modified(day_ago + std::time::Duration::from_secs(60 * i))
            .unwrap();
        made.push(name);
    }
    std::fs::write(cache_dir.join("notes.txt"), "not an entry").unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), false));
    let kept = entry_names(&cache_dir);
    assert_eq!(kept.len(), 32);
    // The 31 newest made-up entries and the one just written.
    for name in &made[..9] {
        assert!(!kept.contains(name), "{name} should be gone");
    }
    for name in &made[9..] {
        assert!(kept.contains(name), "{name} should be kept");
    }
    assert!(cache_dir.join("notes.txt").exists());
    // The real entry, made to look old, is marked used by a load that uses it.
    let real = kept.iter().find(|n| !made.contains(n)).unwrap();
    std::fs::File::options()
        .append(true)
        .open(cache_dir.join(real))
        .unwrap()
        .set_modified(day_ago)
        .unwrap();
    assert_eq!(double(&edition, &cache_dir), ("1000 SEK".into(), true));
    let used = std::fs::metadata(cache_dir.join(real))
        .unwrap()
        .modified()
        .unwrap();
    assert!(used > day_ago + std::time::Duration::from_secs(3_600));
}
