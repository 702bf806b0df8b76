//! Writing a file the user named (`--ics`, `--write-baseline`, `--write-draw`,
//! `bfr fmt`): its contents replaced whole, or not at all.
//!
//! A regular file is replaced through a temporary file beside it, flushed to
//! disk and renamed over it, so a full disk or an interrupted run leaves the old
//! contents, never half of the new. What the user named stays what it was:
//!
//! - a symbolic link is followed, and its target gets the new contents (the
//!   temporary file lives beside the target, so the rename stays on one file
//!   system); the link stays a link;
//! - an existing file keeps its permission bits (and, where the system allows,
//!   its owner); a new one gets the usual ones (`0666` less the umask);
//! - a file with no write bit at all is read-only: it is refused, even for a
//!   user whom the system would let write it, since someone made it so;
//! - a named pipe or a device is written to directly, never replaced, as a
//!   shell's `>` does (a pipe waits for a reader);
//! - bfr's own standard output or error, named as `/dev/stdout`, `/dev/fd/1` or
//!   `/proc/self/fd/1` (or 2), is written to as that stream, whatever it is: a
//!   file it leads to is not replaced, which would lose what bfr prints there
//!   after it, and a file opened with `>>` is added to;
//! - a directory is refused.
//!
//! No crate does this: `tempfile` gives the temporary file and the rename, but
//! none of the above, which is what callers need; the rest is a few calls of `std`.

use crate::edition::IoError;
use std::fs::{File, Metadata, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many links in a row are followed before giving up (Linux's own bound).
const MAX_LINKS: usize = 40;

/// How many names a temporary file tries; each is new to this process, so only
/// files left by others under the same process number can be in the way.
const MAX_TRIES: usize = 100;

/// `path` could not be written: `e`, in words.
fn write_failed(path: &Path, e: &std::io::Error) -> IoError {
    IoError::writing(path, reason(e))
}

/// An I/O error in words a director reads, without the system's error number.
fn reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "its directory does not exist".into(),
        K::PermissionDenied => "permission denied".into(),
        K::StorageFull => "no space left on the device".into(),
        K::ReadOnlyFilesystem => "the file system is read-only".into(),
        K::IsADirectory => "it is a directory; name a file".into(),
        K::NotADirectory => "a part of the path before it is a file, not a directory".into(),
        K::QuotaExceeded => "the disk quota is used up".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

/// Replaces the contents of the file at `path` with `bytes`, whole or not at
/// all (see the module's documentation for links, permissions, pipes and devices).
pub fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    if let Some(stream) = standard_stream(path) {
        return write_stream(path, stream, bytes);
    }
    // The system follows the links: some (`/dev/fd/3` to a pipe) lead to no path.
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(IoError::writing(path, "it is a directory; name a file")),
        Ok(meta) if !meta.is_file() => write_through(path, bytes),
        Ok(meta) if meta.permissions().readonly() => Err(IoError::writing(
            path,
            "it is read-only; make it writable (`chmod u+w`) for bfr to replace it",
        )),
        Ok(meta) => {
            // The permission a shell's `>` would need: the rename alone would let
            // a user replace a file they may not write.
            OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| write_failed(path, &e))?;
            let target = std::fs::canonicalize(path).map_err(|e| write_failed(path, &e))?;
            replace_regular(path, &target, Some(&meta), |f| f.write_all(bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A new file, perhaps named by a link that leads nowhere yet.
            let target = resolve_links(path).map_err(|e| write_failed(path, &e))?;
            replace_regular(path, &target, None, |f| f.write_all(bytes))
        }
        // Following the links ourselves says why the system could not (a circle).
        Err(e) => Err(write_failed(path, &resolve_links(path).err().unwrap_or(e))),
    }
}

/// The path a chain of symbolic links at `path` ends in; `path` itself when it
/// is not a link. The end need not exist (a link to a file yet to be written).
/// An error only for a link that cannot be read, or too many links in a row.
pub fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&at)?;
                // A relative target is relative to the link's own directory.
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            // Not a link, or nothing there (yet): what is done with the path
            // next says what is wrong with it, if anything.
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other(format!(
        "a circle of links, or more than {MAX_LINKS} in a row"
    )))
}

/// bfr's standard output or error, as a path names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Output,
    Error,
}

/// The standard stream `path` names, if it names one of bfr's own: the names
/// the system gives them, not a link of the user's that leads there.
fn standard_stream(path: &Path) -> Option<Stream> {
    let name = path.to_str()?;
    let number = name
        .strip_prefix("/dev/fd/")
        .or_else(|| name.strip_prefix("/proc/self/fd/"));
    match (name, number) {
        ("/dev/stdout", _) | (_, Some("1")) => Some(Stream::Output),
        ("/dev/stderr", _) | (_, Some("2")) => Some(Stream::Error),
        _ => None,
    }
}

/// Writes `bytes` to bfr's own `stream` (which `path` named) and flushes it.
fn write_stream(path: &Path, stream: Stream, bytes: &[u8]) -> Result<(), IoError> {
    let written = match stream {
        Stream::Output => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes).and_then(|()| out.flush())
        }
        Stream::Error => std::io::stderr().lock().write_all(bytes),
    };
    written.map_err(|e| write_failed(path, &e))
}

/// A pipe, a device or a socket: opened and written like a shell's `>`.
fn write_through(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| write_failed(path, &e))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|e| write_failed(path, &e))
}

/// A temporary file that is removed unless it was renamed into place.
struct Temporary {
    path: PathBuf,
    kept: bool,
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Fills a new file beside `target` (with `old`'s permissions), then renames it
/// over `target`; if anything fails, `target` is untouched and the new file gone.
fn replace_regular(
    named: &Path,
    target: &Path,
    old: Option<&Metadata>,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), IoError> {
    let (mut temporary, mut file) = create_beside(target).map_err(|e| write_failed(named, &e))?;
    if let Some(old) = old {
        file.set_permissions(old.permissions())
            .map_err(|e| write_failed(named, &e))?;
        keep_owner(&file, old);
    }
    fill(&mut file)
        .and_then(|()| file.sync_all())
        .map_err(|e| write_failed(named, &e))?;
    drop(file);
    std::fs::rename(&temporary.path, target).map_err(|e| write_failed(named, &e))?;
    temporary.kept = true;
    Ok(())
}

/// A new, empty file in `target`'s directory, under a name no other file has.
fn create_beside(target: &Path) -> std::io::Result<(Temporary, File)> {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let pid = std::process::id();
    for _ in 0..MAX_TRIES {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{name}.bfr-{pid}-{n}.tmp"));
        // `create_new` never opens a file (or follows a link) that is there already.
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((Temporary { path, kept: false }, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(
        "no free name for a temporary file beside it",
    ))
}

/// Gives the new file the old one's owner and group; only a privileged user
/// can give a file to someone else, so for others this changes nothing.
#[cfg(unix)]
fn keep_owner(file: &File, old: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(new) = file.metadata() else {
        return;
    };
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &Metadata) {}

#[cfg(test)]
#[path = "replace_tests.rs"]
mod tests;
