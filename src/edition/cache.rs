//! The compiled edition: a checked edition kept on disk in a binary form, so that
//! commands that only use the rules (`bfr eval`, `explain`, `run`) skip parsing
//! and checking an edition that has not changed.
//!
//! An entry is found by the BLAKE3 digest of bfr's build (its version, and the
//! size and time of its executable, so a rebuilt bfr never reads what another
//! build wrote) and the edition's own files (names and bytes), and holds the
//! digest of every file the check read, base editions' files included, with the
//! listing of each base edition's directory. It is used only if every one of
//! those files still has its digest and every base directory still lists the
//! same files; otherwise the edition is loaded as usual and the entry written
//! again. The entry's bytes carry their own digest, so a damaged file is never
//! decoded; only a file its user alone may write is read at all, and it is
//! decoded with the stack watched, so an entry made by hand is neither another
//! user's nor a stack overflow. A cache that cannot be read or written is left
//! alone: loading then goes on as without a cache, never with an error.
//!
//! Only an edition without errors is kept, and its warnings are not: commands
//! that show an edition's warnings (`bfr check`, `bfr doc`) do not use the cache,
//! and an edition loaded afresh here does not run its examples, whose only
//! findings are warnings.

use super::{Examples, Input, IoError, Loaded, edition_files, load_read, read_files};
use crate::check::Checked;
use crate::diag::Diagnostics;
use crate::source::Sources;
use borsh::{BorshDeserialize, BorshSerialize};
use std::path::{Path, PathBuf};

/// The first bytes of an entry file: what it is and the layout's version.
const MAGIC: &[u8; 8] = b"BFRC\x00\x00\x00\x04";

/// A file's digest.
type Hash = [u8; 32];

/// What is kept of a checked edition.
#[derive(BorshSerialize, BorshDeserialize)]
struct Entry {
    /// Its own name, so that an entry renamed or linked to another's name is
    /// never taken for that one.
    name: String,
    /// The build of bfr that wrote it.
    version: String,
    /// Every file the check read, in the order read (its id in the sources):
    /// the name and the digest of the bytes.
    files: Vec<(String, Hash)>,
    /// How many of `files` are the edition's own (the rest are its bases').
    own: u64,
    /// Each base edition read: its directory and the files it listed.
    bases: Vec<(String, Vec<String>)>,
    /// The number of `.bfr` files, as [`Loaded::files`] counts them.
    count: u64,
    /// The checked edition.
    checked: Checked,
}

/// An [`Entry`] as written: the same fields in the same order, borrowing the
/// checked edition instead of copying it.
#[derive(BorshSerialize)]
struct EntryToWrite<'a> {
    name: String,
    version: String,
    files: Vec<(String, Hash)>,
    own: u64,
    bases: Vec<(String, Vec<String>)>,
    count: u64,
    checked: &'a Checked,
}

/// The cache directory from the environment: `$BFR_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/bfr`, else `~/.cache/bfr`; `None` when none is set.
pub fn default_dir() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = set("BFR_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = set("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("bfr"));
    }
    set("HOME").map(|h| PathBuf::from(h).join(".cache").join("bfr"))
}

fn digest(bytes: &[u8]) -> Hash {
    *blake3::hash(bytes).as_bytes()
}

/// This build of bfr: its version and its executable's size and time of change;
/// `None` when the executable cannot be found (then nothing is cached).
fn build() -> Option<String> {
    let meta = std::env::current_exe().and_then(std::fs::metadata).ok()?;
    let changed = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{} {} {}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        changed.as_nanos()
    ))
}

/// The entry's name: bfr's build and the edition's own files, names and bytes.
fn key(texts: &[(String, Input)]) -> Option<String> {
    let mut h = blake3::Hasher::new();
    let version = build()?;
    h.update(&(version.len() as u64).to_le_bytes());
    h.update(version.as_bytes());
    for (name, input) in texts {
        let Input::Text(bytes) = input else {
            return None;
        };
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    let hex = h.finalize().to_hex();
    Some(format!("{hex}.bin"))
}

/// Reads, parses and checks the edition at `path` as [`super::load`] does, or
/// takes it from the cache in `dir` when it is there and nothing it read has
/// changed; a checked edition loaded afresh is written to the cache. The
/// result's `diagnostics` are empty when the edition came from the cache (an
/// edition is kept only without errors; its warnings are not kept).
pub fn load(path: &Path, dir: Option<&Path>) -> Result<Loaded, IoError> {
    let files = edition_files(path)?;
    let texts = read_files(&files)?;
    // Without a cache directory (`--no-cache`) the files are not hashed at all.
    let Some((dir, name)) = dir.and_then(|d| Some((d, key(&texts)?))) else {
        return Ok(load_read(path, texts, &mut Vec::new(), Examples::Skip));
    };
    let entry_path = dir.join(&name);
    let texts = match read_entry(&entry_path, &name) {
        Some(entry) => match use_entry(entry, texts) {
            Ok(loaded) => {
                mark_used(&entry_path);
                return Ok(loaded);
            }
            Err(texts) => texts,
        },
        None => texts,
    };
    let own: Vec<(String, Hash)> = texts
        .iter()
        .filter_map(|(n, i)| match i {
            Input::Text(b) => Some((n.clone(), digest(b))),
            _ => None,
        })
        .collect();
    let mut bases = Vec::new();
    let loaded = load_read(path, texts, &mut bases, Examples::Skip);
    write_entry(dir, &name, &loaded, own, &bases);
    Ok(loaded)
}

/// The largest cache entry read: far above any edition bfr can load, and a
/// bound should something else take an entry's place.
const MAX_ENTRY_BYTES: u64 = 1 << 30;

/// The entry named `name` in the file, if it is one whole, written by this bfr
/// under that name, and in a file only the user running bfr could have written
/// (a regular file, not a link: whatever else has taken its name is never
/// opened).
fn read_entry(path: &Path, name: &str) -> Option<Entry> {
    let bytes = read_own_file(path)?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (sum, payload) = rest.split_at_checked(32)?;
    if digest(payload).as_slice() != sum {
        return None;
    }
    let entry = decode(payload)?;
    (entry.name == name && Some(&entry.version) == build().as_ref()).then_some(entry)
}

/// The bytes of the file at `path`, if it is a regular file of at most
/// [`MAX_ENTRY_BYTES`] that only the user running bfr may have written: owned
/// by that user and writable by no one else. An entry's digest finds damage,
/// not intent (whoever writes an entry can write its digest), and a checked
/// edition is trusted as bfr's own work: in a cache directory shared with
/// others, their entries are passed over. The file checked is the file read:
/// it is opened only after its kind is known (a named pipe would block), and
/// the file opened must be the one looked at.
fn read_own_file(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let looked = std::fs::symlink_metadata(path).ok()?;
    if !looked.is_file() || !only_this_user_writes(&looked) || looked.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let opened = file.metadata().ok()?;
    if !same_file(&looked, &opened) {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(opened.len()).unwrap_or(0));
    file.take(MAX_ENTRY_BYTES.saturating_add(1))
        .read_to_end(&mut bytes)
        .ok()?;
    (u64::try_from(bytes.len()).ok()? <= MAX_ENTRY_BYTES).then_some(bytes)
}

#[cfg(unix)]
fn only_this_user_writes(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    meta.uid() == rustix::process::geteuid().as_raw() && meta.mode() & 0o022 == 0
}

/// Elsewhere the file's owner is not looked at: the cache is trusted as the
/// directory it is in.
#[cfg(not(unix))]
fn only_this_user_writes(_: &std::fs::Metadata) -> bool {
    true
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    (a.dev(), a.ino()) == (b.dev(), b.ino()) && b.is_file()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    b.is_file()
}

/// Stack kept free while an entry is decoded: decoding nests as deep as the
/// edition's expressions, and an entry nested deeper than the stack allows
/// (one made by hand) is passed over instead of overflowing it.
const DECODING_STACK_RESERVE: usize = 256 * 1024;

/// The stack an entry is encoded and decoded on: room for the deepest
/// expression the checker lets through (`MAX_EXPR_DEPTH`) many times over, in
/// any build. A stack of its own, so its size is known whatever the thread.
const CODING_STACK: usize = 16 * 1024 * 1024;

/// The entry encoded in `payload`, all of it; `None` when it is not one, or
/// nests deeper than [`CODING_STACK`] has room for.
fn decode(payload: &[u8]) -> Option<Entry> {
    stacker::grow(CODING_STACK, || decode_here(payload))
}

/// [`decode`] on the stack it is called on.
fn decode_here(payload: &[u8]) -> Option<Entry> {
    // The lowest address the stack may reach while decoding (it grows down;
    // where it grows up, or its size is unknown, nothing is refused).
    let floor = stacker::remaining_stack().map_or(0, |left| {
        stack_address().saturating_sub(left.saturating_sub(DECODING_STACK_RESERVE))
    });
    let mut reader = StackGuarded {
        bytes: payload,
        floor,
    };
    let entry = Entry::deserialize_reader(&mut reader).ok()?;
    reader.bytes.is_empty().then_some(entry)
}

/// Where the stack is now: the address of a local of the function this is
/// inlined into.
#[inline(always)]
fn stack_address() -> usize {
    let probe = 0u8;
    std::ptr::from_ref(std::hint::black_box(&probe)) as usize
}

/// A reader of a byte slice that fails once the stack has passed its floor.
/// Every level of a nested value reads at least its tag or its length, so no
/// value nests deeper between two reads than one level's frames, far within
/// the reserve. The look is an address compared, inlined into every read: a
/// call to ask the stack's size at every read doubled an entry's decoding.
struct StackGuarded<'a> {
    bytes: &'a [u8],
    floor: usize,
}

impl StackGuarded<'_> {
    #[inline(always)]
    fn look(&self) -> std::io::Result<()> {
        // An error of a kind only, without a message: it is never shown, and
        // an error made with a message kept the decoding of every number from
        // being inlined.
        if stack_address() < self.floor {
            return Err(std::io::ErrorKind::Other.into());
        }
        Ok(())
    }
}

/// Both reads are the slice's own after the look: `read_exact`, which the
/// decoder calls for nearly every value, would otherwise loop over `read`.
impl std::io::Read for StackGuarded<'_> {
    #[inline(always)]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.look()?;
        self.bytes.read(buf)
    }

    #[inline(always)]
    fn read_exact(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        self.look()?;
        self.bytes.read_exact(buf)
    }
}

/// The edition the entry holds, if every file it was made from is unchanged;
/// else the edition's own texts, given back to be loaded afresh. The texts
/// become the edition's sources: they are moved, not copied.
fn use_entry(
    entry: Entry,
    own_texts: Vec<(String, Input)>,
) -> Result<Loaded, Vec<(String, Input)>> {
    let (Some(base_texts), Ok(files)) = (
        unchanged_bases(&entry, &own_texts),
        usize::try_from(entry.count),
    ) else {
        return Err(own_texts);
    };
    let mut sources = Sources::new();
    let own = own_texts
        .into_iter()
        .filter_map(|(name, input)| match input {
            Input::Text(bytes) => Some((name, bytes)),
            Input::NotAFile(_) | Input::TooLarge(_) => None,
        });
    for (name, bytes) in own.chain(base_texts) {
        // Every text is the one the entry was made from, which checked: the
        // edition's own are in the entry's name, the bases' have their digests.
        // Only a collision of digests could make one not UTF-8.
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        sources.add(name, text);
    }
    Ok(Loaded {
        sources,
        files,
        checked: Some(entry.checked),
        diagnostics: Diagnostics::default(),
    })
}

/// The texts of the entry's base editions, read again, if the entry was made
/// from `own_texts` (by name; their bytes are in the entry's name) and every
/// base edition's directory still lists the same files with the same bytes.
fn unchanged_bases(entry: &Entry, own_texts: &[(String, Input)]) -> Option<Vec<(String, Vec<u8>)>> {
    let own = usize::try_from(entry.own).ok()?;
    if own != own_texts.len() || entry.files.len() < own {
        return None;
    }
    let own_named = own_texts
        .iter()
        .zip(&entry.files)
        .all(|((name, input), (kept, _))| matches!(input, Input::Text(_)) && name == kept);
    if !own_named {
        return None;
    }
    let listed: Vec<&String> = entry.bases.iter().flat_map(|(_, f)| f).collect();
    for (dir, names) in &entry.bases {
        let now = edition_files(Path::new(dir)).ok()?;
        let now: Vec<String> = now.iter().map(|p| p.display().to_string()).collect();
        if now != *names {
            return None;
        }
    }
    let kept = &entry.files[own..];
    if kept.len() != listed.len() || kept.iter().zip(&listed).any(|((a, _), b)| a != *b) {
        return None;
    }
    let mut texts = Vec::with_capacity(kept.len());
    for (name, hash) in kept {
        let bytes = super::read_named(Path::new(name)).ok()?;
        if digest(&bytes) != *hash {
            return None;
        }
        texts.push((name.clone(), bytes));
    }
    Some(texts)
}

/// Writes the entry of a checked edition (nothing for one with errors, or one
/// whose files cannot all be named again); a failure is left unreported.
fn write_entry(
    dir: &Path,
    name: &str,
    loaded: &Loaded,
    own: Vec<(String, Hash)>,
    bases: &[PathBuf],
) {
    let Some(checked) = &loaded.checked else {
        return;
    };
    if loaded.diagnostics.has_errors() {
        return;
    }
    let mut files = own;
    let count = files.len();
    for (_, f) in loaded.sources.iter().skip(count) {
        files.push((f.name.clone(), digest(f.text.as_bytes())));
    }
    let mut listed = Vec::new();
    for b in bases {
        let Ok(paths) = edition_files(b) else {
            return;
        };
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        listed.push((b.display().to_string(), names));
    }
    let Some(version) = build() else {
        return;
    };
    let entry = EntryToWrite {
        name: name.to_string(),
        version,
        files,
        own: count as u64,
        bases: listed,
        count: loaded.files as u64,
        checked,
    };
    let Ok(payload) = stacker::grow(CODING_STACK, || borsh::to_vec(&entry)) else {
        return;
    };
    if write_beside(dir, name, &framed(&payload)).is_err() {
        return;
    }
    // A file system that shows every file as anyone's to write (a Windows
    // drive under WSL, some network mounts) keeps nothing bfr would read
    // again: the entry goes, and nothing else is disturbed.
    let entry_path = dir.join(name);
    if std::fs::symlink_metadata(&entry_path).is_ok_and(|m| only_this_user_writes(&m)) {
        prune(dir, name, KEEP_ENTRIES, KEEP_BYTES);
    } else {
        let _ = std::fs::remove_file(&entry_path);
    }
}

/// An entry file's bytes: what it is, the payload's digest, the payload.
fn framed(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&digest(payload));
    bytes.extend_from_slice(payload);
    bytes
}

/// Writes entry `name` of `dir`: beside it, then renamed into place, so a
/// reader never sees half an entry. The name beside holds the process and the
/// time, so no one plants a file or a link there ahead of it.
fn write_beside(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = dir.join(format!(".{name}.{}-{nanos}.tmp", std::process::id()));
    std::fs::create_dir_all(dir)?;
    write_through(&tmp, &dir.join(name), bytes)
}

/// Writes `bytes` to `tmp`, made new (never a file or a link already there,
/// which a cache directory shared with others could hold), then renames it to
/// `path`. Only a file made here is removed on failure: one already there may
/// be another writer's, in flight.
fn write_through(tmp: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::File::options();
    options.write(true).create_new(true);
    // Writable by its owner only, whatever the umask: an entry others may
    // write is never read (`read_own_file`).
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
    let mut file = options.open(tmp)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| std::fs::rename(tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    written
}

/// At most this many entries are kept in a cache directory…
const KEEP_ENTRIES: usize = 32;
/// …and at most this many bytes of them (the 2015 edition's entry is 0.4 MB).
const KEEP_BYTES: u64 = 64 * 1024 * 1024;

/// Marks an entry as just used, so that [`prune`] keeps it longest; a failure
/// only makes it look older.
fn mark_used(path: &Path) {
    if let Ok(file) = std::fs::File::options().append(true).open(path) {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
}

/// Whether a file name is an entry's: a 256-bit digest in hex, then `.bin`.
fn is_entry_name(name: &str) -> bool {
    name.strip_suffix(".bin").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// Removes the least recently used entries of `dir` beyond `keep_entries`
/// entries or `keep_bytes` bytes, never the entry `just_written`; files that are
/// not entries are left alone. Each edition changed and loaded adds an entry,
/// so without this the directory would only grow.
fn prune(dir: &Path, just_written: &str, keep_entries: usize, keep_bytes: u64) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, String, u64)> = listing
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            if !is_entry_name(&name) || !meta.is_file() {
                return None;
            }
            Some((meta.modified().ok()?, name, meta.len()))
        })
        .collect();
    // Newest first; the name settles equal times, so every run removes the same.
    entries.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    entries.sort_by_key(|e| e.1 != just_written);
    let mut bytes = 0u64;
    for (kept, (_, name, size)) in entries.iter().enumerate() {
        bytes = bytes.saturating_add(*size);
        if name != just_written && (kept >= keep_entries || bytes > keep_bytes) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new directory of its own for one test.
    fn unit_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bfr-{tag}-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn entry_names_are_a_digest_in_hex_then_bin() {
        assert!(is_entry_name(&format!("{}.bin", "0a".repeat(32))));
        assert!(!is_entry_name(&format!("{}.bin", "0A".repeat(32))));
        assert!(!is_entry_name(&format!("{}.bin", "0a".repeat(31))));
        assert!(!is_entry_name(&format!(".{}.bin.7.tmp", "0a".repeat(32))));
        assert!(!is_entry_name("notes.txt"));
    }

    #[cfg(unix)]
    #[test]
    fn an_entry_is_never_written_through_a_link_left_in_its_place() {
        let dir = unit_dir("beside");
        let other = dir.join("someone-elses.txt");
        std::fs::write(&other, "theirs").unwrap();
        let name = format!("{}.bin", "0b".repeat(32));
        let tmp = dir.join(format!(".{name}.planted.tmp"));
        std::os::unix::fs::symlink(&other, &tmp).unwrap();
        assert!(write_through(&tmp, &dir.join(&name), b"entry").is_err());
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "theirs");
        assert!(!dir.join(&name).exists());
        assert!(
            std::fs::symlink_metadata(&tmp).is_ok(),
            "not ours to remove"
        );
        // An entry is written beside under a name of its own, then in place.
        write_beside(&dir, &name, b"entry").unwrap();
        assert_eq!(std::fs::read(dir.join(&name)).unwrap(), b"entry");
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert_eq!(left, [format!(".{name}.planted.tmp")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The bytes of entry `name` holding `checked`, as [`write_entry`] encodes it.
    fn encoded_as(name: &str, checked: &Checked) -> Vec<u8> {
        let entry = EntryToWrite {
            name: name.into(),
            version: build().unwrap(),
            files: Vec::new(),
            own: 0,
            bases: Vec::new(),
            count: 1,
            checked,
        };
        borsh::to_vec(&entry).unwrap()
    }

    fn encoded(checked: &Checked) -> Vec<u8> {
        encoded_as("an entry", checked)
    }

    fn small_edition() -> Checked {
        let text = b"const answer: number = 1\n".to_vec();
        crate::edition::load_texts(vec![("t.bfr".into(), text)])
            .checked
            .unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn an_entry_under_another_entrys_name_is_passed_over() {
        let dir = unit_dir("named");
        let (mine, other) = (
            format!("{}.bin", "0d".repeat(32)),
            format!("{}.bin", "0e".repeat(32)),
        );
        let bytes = framed(&encoded_as(&mine, &small_edition()));
        write_beside(&dir, &mine, &bytes).unwrap();
        assert!(read_entry(&dir.join(&mine), &mine).is_some());
        std::fs::rename(dir.join(&mine), dir.join(&other)).unwrap();
        assert!(read_entry(&dir.join(&other), &other).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_entry_nested_deeper_than_the_stack_allows_is_passed_over() {
        use crate::ir::{Expr, ExprKind, RuleBody};
        let mut checked = small_edition();
        let whole = encoded(&checked);
        assert!(decode(&whole).is_some());
        let mut longer = whole.clone();
        longer.push(0);
        assert!(decode(&longer).is_none(), "bytes past the entry");
        // Made, encoded and dropped on a stack large enough for it: the nesting
        // is the test's input, decoding it on an ordinary stack is the test.
        let deep = stacker::grow(256 << 20, || {
            let RuleBody::Const { value } = &mut checked.program.rules[0].body else {
                unreachable!("a const")
            };
            for _ in 0..200_000 {
                let (ty, span) = (value.ty.clone(), value.span);
                let inner = std::mem::replace(
                    value,
                    Box::new(Expr {
                        kind: ExprKind::Lit(crate::ir::Value::Bool(false)),
                        ty: ty.clone(),
                        span,
                    }),
                );
                **value = Expr {
                    kind: ExprKind::Neg(inner),
                    ty,
                    span,
                };
            }
            let bytes = encoded(&checked);
            drop(checked);
            bytes
        });
        assert!(decode(&deep).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn only_a_file_this_user_alone_may_write_is_read() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = unit_dir("own");
        let file = dir.join("entry.bin");
        std::fs::write(&file, b"entry").unwrap();
        let set = |mode: u32| {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        };
        set(0o644);
        assert_eq!(read_own_file(&file).as_deref(), Some(b"entry".as_slice()));
        set(0o664);
        assert_eq!(read_own_file(&file), None, "group may write");
        set(0o646);
        assert_eq!(read_own_file(&file), None, "anyone may write");
        set(0o600);
        let link = dir.join("link.bin");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_own_file(&link), None, "a link, even to an entry");
        // Only root can give a file away (and not always in a container).
        if rustix::process::geteuid().is_root()
            && std::os::unix::fs::chown(&file, Some(65_534), None).is_ok()
        {
            assert_eq!(read_own_file(&file), None, "another user's");
        }
        assert_eq!(read_own_file(&dir), None, "a directory");
        // What bfr writes is its own, whatever the umask. The umask is the
        // process's: other tests writing files in these few instructions make
        // them writable by their group, which none of them looks at.
        let name = format!("{}.bin", "0c".repeat(32));
        let mask = rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o002));
        let written = write_beside(&dir, &name, b"written");
        rustix::process::umask(mask);
        written.unwrap();
        assert_eq!(
            read_own_file(&dir.join(&name)).as_deref(),
            Some(b"written".as_slice())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pruning_keeps_the_newest_entries_within_the_byte_budget() {
        let dir = unit_dir("prune");
        let start = std::time::SystemTime::now() - std::time::Duration::from_secs(3_600);
        let names: Vec<String> = (0..5u64).map(|i| format!("{i:064x}.bin")).collect();
        for (i, name) in names.iter().enumerate() {
            std::fs::write(dir.join(name), [0u8; 10]).unwrap();
            let file = std::fs::File::options()
                .append(true)
                .open(dir.join(name))
                .unwrap();
            file.set_modified(start + std::time::Duration::from_secs(i as u64 * 60))
                .unwrap();
        }
        // The oldest was just written: it stays whatever its age; then the two
        // newest fit within 30 bytes (10 each); the rest go.
        prune(&dir, &names[0], 10, 30);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec![names[0].clone(), names[3].clone(), names[4].clone()]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
