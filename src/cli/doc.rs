//! `bfr doc`: writes the edition as a static HTML site (`crate::doc`).
//!
//! The site is written whole into a fresh directory beside the target and then
//! renamed into place, so a run that fails half-way never leaves a site that
//! looks complete: the target is either the old site or the new one. A directory
//! that is there already is replaced only when it is empty or a site `bfr doc`
//! wrote (it holds the marker file), so a mistyped `-o` never deletes a user's files;
//! naming any other directory, or a file, is a usage error (exit 2), found before
//! the edition is read. A symbolic link is followed: the directory it names is
//! replaced, and the link stays.

use super::commands::load_checked;
use super::output::Output;
use super::output::{json_line, stderr, stdout};
use super::replace::resolve_links;
use super::{EXIT_IO, EXIT_OK, EXIT_USAGE, Format};
use crate::doc::{MARKER, SiteFile, site};
use crate::edition::io_error;
use std::path::{Path, PathBuf};

/// `bfr doc <edition> -o DIR`
pub fn doc(out: &Output, edition: &Path, dir: &Path) -> u8 {
    let say = |kind: &str, message: &str| match out.format {
        Format::Text => stderr(&format!("error: {message}; no site was written\n")),
        Format::Json => json_line(&serde_json::json!({"error": kind, "message": message})),
    };
    let place = match site_place(dir) {
        Ok(p) => p,
        Err(Unfit::Usage(message)) => {
            say("usage", &message);
            return EXIT_USAGE;
        }
        Err(Unfit::Io(message)) => {
            say("io", &message);
            return EXIT_IO;
        }
    };
    let loaded = match load_checked(out, edition) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = &loaded.checked else {
        return EXIT_IO;
    };
    let files = site(
        &checked.program,
        &loaded.sources,
        &loaded.diagnostics,
        edition,
    );
    if let Err(message) = write_site(&place, &files) {
        say("io", &message);
        return EXIT_IO;
    }
    let pages = files.iter().filter(|f| f.name.ends_with(".html")).count();
    match out.format {
        Format::Text => stdout(&format!(
            "wrote {} to {} (open {})\n",
            super::output::counted(pages, "page"),
            dir.display(),
            dir.join("index.html").display()
        )),
        Format::Json => json_line(&serde_json::json!({
            "site": dir.display().to_string(),
            "pages": pages,
            "files": files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        })),
    }
    EXIT_OK
}

/// `dir` with a suffix on its last component: a sibling of it.
fn beside(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir
        .file_name()
        .map_or_else(|| "site".into(), std::ffi::OsStr::to_os_string);
    name.push(suffix);
    dir.with_file_name(name)
}

/// Says that `path` could not be `verb`ed, and why.
fn fail(verb: &str, path: &Path, e: &std::io::Error) -> String {
    format!(
        "cannot {verb} `{}`: {}",
        path.display(),
        io_error(path, e).reason
    )
}

/// Where the site goes: the directory `-o` names, its links followed.
struct Place {
    /// The directory to put the site in.
    dir: PathBuf,
    /// Whether a directory is there already (empty, or an earlier site).
    replaces: bool,
}

/// Why `-o` cannot take the site.
enum Unfit {
    /// The user named the wrong thing: a file, or a directory of their own.
    Usage(String),
    /// The directory could not be looked into.
    Io(String),
}

/// Decides where the site named `named` goes, or why it cannot go there.
fn site_place(named: &Path) -> Result<Place, Unfit> {
    // `site/.` is `site`: a directory cannot be renamed by a path ending in `.`.
    let plain: PathBuf = named.components().collect();
    let dir = resolve_links(&plain).map_err(|e| Unfit::Io(fail("read", named, &e)))?;
    if dir.file_name().is_none() || named.file_name().is_none() {
        return Err(Unfit::Usage(format!(
            "`{}` cannot be the site's directory; name a new or an earlier site's directory",
            named.display()
        )));
    }
    let replaces = match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {
            let empty = std::fs::read_dir(&dir)
                .map_err(|e| Unfit::Io(fail("read", named, &e)))?
                .next()
                .is_none();
            if !empty && !dir.join(MARKER).is_file() {
                return Err(Unfit::Usage(format!(
                    "`{}` is a directory `bfr doc` did not write; name a new directory (its files are left alone)",
                    named.display()
                )));
            }
            let foreign = if empty {
                None
            } else {
                not_of_a_site(&dir).map_err(|e| Unfit::Io(fail("read", named, &e)))?
            };
            if let Some(own) = foreign {
                return Err(Unfit::Usage(format!(
                    "`{}` holds `{own}`, which `bfr doc` did not write; move it out of the site, or name another directory (nothing is deleted)",
                    named.display()
                )));
            }
            true
        }
        Ok(_) => {
            return Err(Unfit::Usage(format!(
                "`{}` is not a directory; name a new directory",
                named.display()
            )));
        }
        Err(_) => false,
    };
    Ok(Place { dir, replaces })
}

/// Files a desktop leaves in a directory it has shown (macOS's Finder,
/// Windows' Explorer): made by the system, not the user, they go with the site.
const DESKTOP_FILES: [&str; 3] = [".DS_Store", "Thumbs.db", "desktop.ini"];

/// The first entry of the earlier site `dir` that `bfr doc` did not write, in
/// name order: a file its marker does not list (an edition kept inside the
/// site, a note, a page of the user's own), or a directory. Such an entry
/// would go with the old site. A marker from before the list was kept lets
/// the site's pages and style sheet go, as its run wrote them.
fn not_of_a_site(dir: &Path) -> std::io::Result<Option<String>> {
    let Some(marker) = read_marker(dir)? else {
        return Ok(Some(MARKER.to_string()));
    };
    first_not_written(dir, crate::doc::marked_files(&marker).as_deref())
}

/// The text of the marker in `dir`, or `None` if it is past a file's limit (a
/// marker is a short list: such a file is not one bfr wrote).
fn read_marker(dir: &Path) -> std::io::Result<Option<String>> {
    match crate::source::read_bounded(&dir.join(MARKER), crate::syntax::MAX_FILE_BYTES as u64) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(crate::source::Refusal::Io(e)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// The first entry of `dir`, in name order, that is not a file a run wrote:
/// one of `listed`, or without a list, the marker, a page or the style sheet.
fn first_not_written(dir: &Path, listed: Option<&[&str]>) -> std::io::Result<Option<String>> {
    let mut foreign = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let written = match listed {
            Some(files) => files.contains(&name.as_str()),
            None => name == MARKER || name == "style.css" || name.ends_with(".html"),
        };
        let ours =
            entry.file_type()?.is_file() && (written || DESKTOP_FILES.contains(&name.as_str()));
        if !ours {
            foreign.push(name);
        }
    }
    Ok(foreign.into_iter().min())
}

/// Writes the site into a new directory beside the place's, then puts it in
/// its place; then removes what killed runs left beside it. The error names
/// the file or directory and says what went wrong.
fn write_site(place: &Place, files: &[SiteFile]) -> Result<(), String> {
    put_site(place, files)?;
    // Only once the new site stands: a leftover may be the only earlier site.
    sweep_stale(&place.dir);
    Ok(())
}

/// Writes the site beside the place's directory and moves it in.
fn put_site(place: &Place, files: &[SiteFile]) -> Result<(), String> {
    let (dir, replaces) = (place.dir.as_path(), place.replaces);
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| fail("create", parent, &e))?;
    }
    let pid = std::process::id();
    let fresh = beside(dir, &format!("{NEW_SUFFIX}{pid}"));
    let written = write_all(&fresh, files);
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    let old = beside(dir, &format!("{OLD_SUFFIX}{pid}"));
    if replaces && exchange(&fresh, dir) {
        // The earlier site now has the new one's name; named as what it is
        // before it goes, should removing it be cut short.
        let earlier = if std::fs::rename(&fresh, &old).is_ok() {
            &old
        } else {
            &fresh
        };
        let _ = std::fs::remove_dir_all(earlier);
        return Ok(());
    }
    if replaces && let Err(e) = std::fs::rename(dir, &old) {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(fail("replace", dir, &e));
    }
    if let Err(e) = std::fs::rename(&fresh, dir) {
        // Put the earlier site back, so the directory is as it was.
        if replaces {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(fail("create", dir, &e));
    }
    if replaces {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

/// What a run's new site is called beside the place's until it is moved in
/// (`site.bfr-doc-new-PID`), and the earlier site once it is moved out.
const NEW_SUFFIX: &str = ".bfr-doc-new-";
const OLD_SUFFIX: &str = ".bfr-doc-old-";

/// How long a leftover is left alone after its last change: a run writes its
/// site in seconds, and a run of another machine or container, whose process
/// this one cannot see, is still writing only while its directory changes.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Removes what an earlier run that was killed left beside `dir`: a new site
/// it was writing, or the earlier site it was removing. Only a directory
/// untouched for [`STALE_AFTER`], of a run whose process is gone, holding
/// nothing but the files its marker lists (or nothing at all), goes; anything
/// else stays, and nothing here is an error.
fn sweep_stale(dir: &Path) {
    let Some(name) = dir.file_name() else {
        return;
    };
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = leftover_pid(name, &entry.file_name()) else {
            continue;
        };
        // Not followed: a link named like a leftover is not one.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let stale = meta
            .modified()
            .ok()
            .and_then(|at| at.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        let path = entry.path();
        if meta.is_dir() && stale && !running(pid) && only_bfr_wrote(&path) {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

/// The process id in `entry`'s name if it is a leftover of site `name`
/// (`name.bfr-doc-new-PID`, `-old-`), compared byte for byte, the id written
/// as a run writes it (digits, no leading zero).
fn leftover_pid(name: &std::ffi::OsStr, entry: &std::ffi::OsStr) -> Option<u32> {
    let rest = entry
        .as_encoded_bytes()
        .strip_prefix(name.as_encoded_bytes())?;
    let digits = [NEW_SUFFIX, OLD_SUFFIX]
        .iter()
        .find_map(|suffix| rest.strip_prefix(suffix.as_bytes()))?;
    if digits.first().is_none_or(|d| *d == b'0') || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// Whether `dir` is empty, or holds only the files of a site whose marker lists
/// them (a run writes the marker first). A marker that lists nothing (cut
/// short, or of a bfr from before the list) lets nothing go.
fn only_bfr_wrote(dir: &Path) -> bool {
    let empty = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none());
    if empty {
        return true;
    }
    let Ok(Some(marker)) = read_marker(dir) else {
        return false;
    };
    crate::doc::marked_files(&marker)
        .is_some_and(|listed| matches!(first_not_written(dir, Some(&listed)), Ok(None)))
}

/// Whether process `pid` may still be running: this process, or one the system
/// knows. Where it cannot tell, a process is taken to be running.
#[cfg(unix)]
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    // Signal 0 tests the process without signalling it; only "no such process"
    // says it is gone (another user's process answers "not permitted").
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(e) if e == rustix::io::Errno::SRCH
    )
}

#[cfg(not(unix))]
fn running(_: u32) -> bool {
    true
}

/// Swaps directories `a` and `b` in one step, where the system can (Linux, on
/// most file systems): the site's directory then always holds a whole site,
/// the earlier or the new, even if bfr is killed. `false` when it cannot; the
/// caller then moves the earlier site away before it moves the new one in.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(a: &Path, b: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(_: &Path, _: &Path) -> bool {
    false
}

/// Writes every file of the site into the new directory `fresh`.
fn write_all(fresh: &Path, files: &[SiteFile]) -> Result<(), String> {
    std::fs::create_dir(fresh).map_err(|e| fail("create", fresh, &e))?;
    // The marker first: a run killed while writing leaves a directory whose
    // every file the marker lists, which the next run removes.
    let (marker, pages): (Vec<&SiteFile>, Vec<&SiteFile>) =
        files.iter().partition(|f| f.name == MARKER);
    for f in marker.into_iter().chain(pages) {
        let path = fresh.join(&f.name);
        std::fs::write(&path, &f.text).map_err(|e| fail("write", &path, &e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leftover_is_known_by_its_sites_name_and_a_run_id_as_written() {
        let pid = |name: &str, entry: &str| {
            leftover_pid(std::ffi::OsStr::new(name), std::ffi::OsStr::new(entry))
        };
        assert_eq!(pid("site", "site.bfr-doc-new-4021"), Some(4021));
        assert_eq!(pid("site", "site.bfr-doc-old-7"), Some(7));
        // Another site's, or not as a run writes the id.
        for other in [
            "sitex.bfr-doc-new-4021",
            "ite.bfr-doc-new-4021",
            "site.bfr-doc-new-",
            "site.bfr-doc-new-0",
            "site.bfr-doc-new-04021",
            "site.bfr-doc-new-+4021",
            "site.bfr-doc-new-4021x",
            "site.bfr-doc-new-99999999999",
            "site.bfr-doc-gone-4021",
        ] {
            assert_eq!(pid("site", other), None, "{other}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn two_directories_are_swapped_in_one_step_or_left_alone() {
        let base = std::env::temp_dir().join(format!("bfr-exchange-unit-{}", std::process::id()));
        let (new, site) = (base.join("new"), base.join("site"));
        std::fs::create_dir_all(&new).unwrap();
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(new.join("index.html"), "new").unwrap();
        std::fs::write(site.join("index.html"), "earlier").unwrap();
        let read = |dir: &Path| std::fs::read_to_string(dir.join("index.html")).unwrap();
        // A file system that cannot swap leaves both as they were.
        if exchange(&new, &site) {
            assert_eq!((read(&site), read(&new)), ("new".into(), "earlier".into()));
        } else {
            assert_eq!((read(&site), read(&new)), ("earlier".into(), "new".into()));
        }
        assert!(
            !exchange(&new, &base.join("missing")),
            "nothing to swap with"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
