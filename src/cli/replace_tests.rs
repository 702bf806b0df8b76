use super::*;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};

/// A fresh scratch directory for one test, removed when the test ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

fn scratch(tag: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("bfr-replace-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// The names in `dir`, sorted: what a failed write must not add to.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success());
}

#[test]
fn a_new_file_is_written_and_no_temporary_file_is_left() {
    let d = scratch("new");
    let f = d.join("plan.ics");
    replace_file(&f, b"one").unwrap();
    assert_eq!(std::fs::read(&f).unwrap(), b"one");
    assert_eq!(names(&d), ["plan.ics"]);
}

#[test]
fn a_symlink_is_followed_and_stays_a_link() {
    let d = scratch("link");
    let real = d.join("real.toml");
    std::fs::write(&real, "old").unwrap();
    let link = d.join("link.toml");
    std::os::unix::fs::symlink("real.toml", &link).unwrap();
    replace_file(&link, b"new").unwrap();
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&d), ["link.toml", "real.toml"]);
}

#[test]
fn a_link_to_a_link_in_another_directory_reaches_the_file() {
    let d = scratch("chain");
    std::fs::create_dir(d.join("kept")).unwrap();
    let real = d.join("kept/event.toml");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("kept/event.toml", d.join("a")).unwrap();
    std::os::unix::fs::symlink(d.join("a"), d.join("b")).unwrap();
    replace_file(&d.join("b"), b"new").unwrap();
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    assert_eq!(names(&d.join("kept")), ["event.toml"]);
}

#[test]
fn a_dangling_link_gets_its_target_created() {
    let d = scratch("dangling");
    std::os::unix::fs::symlink("later.ics", d.join("now.ics")).unwrap();
    replace_file(&d.join("now.ics"), b"x").unwrap();
    assert_eq!(std::fs::read(d.join("later.ics")).unwrap(), b"x");
}

#[test]
fn a_circle_of_links_is_an_error_not_a_hang() {
    let d = scratch("circle");
    std::os::unix::fs::symlink("b", d.join("a")).unwrap();
    std::os::unix::fs::symlink("a", d.join("b")).unwrap();
    let e = replace_file(&d.join("a"), b"x").unwrap_err();
    assert!(e.to_string().contains("a circle of links"), "{e}");
}

#[test]
fn the_permission_bits_are_kept() {
    let d = scratch("mode");
    for bits in [0o600, 0o640, 0o755] {
        let f = d.join(format!("f{bits:o}"));
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(bits)).unwrap();
        replace_file(&f, b"new").unwrap();
        assert_eq!(mode(&f), bits);
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
    }
}

#[test]
fn a_read_only_file_is_refused_and_left_as_it_was() {
    let d = scratch("readonly");
    let f = d.join("kept.txt");
    std::fs::write(&f, "old").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = replace_file(&f, b"new").unwrap_err();
    assert_eq!(
        e.reason,
        "it is read-only; make it writable (`chmod u+w`) for bfr to replace it"
    );
    assert_eq!(std::fs::read(&f).unwrap(), b"old");
    assert_eq!(mode(&f), 0o444);
    assert_eq!(names(&d), ["kept.txt"]);
}

#[test]
fn a_directory_is_refused_in_words() {
    let d = scratch("dir");
    let e = replace_file(&d, b"x").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cannot write `{}`: it is a directory; name a file",
            d.display()
        )
    );
}

#[test]
fn a_missing_directory_is_named_in_words() {
    let d = scratch("missing");
    let e = replace_file(&d.join("no/such.ics"), b"x").unwrap_err();
    assert_eq!(e.reason, "its directory does not exist");
}

#[test]
fn a_failed_write_leaves_the_old_contents_and_no_temporary_file() {
    let d = scratch("failed");
    let f = d.join("draws.toml");
    std::fs::write(&f, "old").unwrap();
    let meta = std::fs::metadata(&f).unwrap();
    let e = replace_regular(&f, &f, Some(&meta), |file| {
        file.write_all(b"half")?;
        Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cannot write `{}`: no space left on the device",
            f.display()
        )
    );
    assert_eq!(std::fs::read(&f).unwrap(), b"old");
    assert_eq!(names(&d), ["draws.toml"]);
}

#[test]
fn a_named_pipe_is_written_to_not_replaced() {
    let d = scratch("fifo");
    let pipe = d.join("pipe");
    make_fifo(&pipe);
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::read(pipe).unwrap())
    };
    replace_file(&pipe, b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    assert!(
        std::fs::symlink_metadata(&pipe)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert_eq!(names(&d), ["pipe"]);
}

#[test]
fn a_full_device_fails_and_stays_a_device() {
    let d = scratch("device");
    let full = d.join("full");
    // A copy of /dev/full's device node; only a privileged user may make one.
    let made = std::process::Command::new("mknod")
        .args(["-m", "666"])
        .arg(&full)
        .args(["c", "1", "7"])
        .status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let e = replace_file(&full, b"x").unwrap_err();
    assert_eq!(e.reason, "no space left on the device");
    assert!(
        std::fs::symlink_metadata(&full)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert_eq!(names(&d), ["full"]);
}

#[test]
fn a_link_to_a_pipe_that_has_no_path_is_written_through() {
    use std::io::Read as _;
    use std::os::fd::AsRawFd;
    // As `/dev/stdout` is when standard output is a pipe: the link's text
    // (`pipe:[…]`) names no file, and only the system can follow it.
    let d = scratch("stdout");
    let (mut reader, writer) = std::io::pipe().unwrap();
    let link = d.join("stdout");
    let fd = format!("/proc/self/fd/{}", writer.as_raw_fd());
    std::os::unix::fs::symlink(fd, &link).unwrap();
    replace_file(&link, b"to the reader").unwrap();
    drop(writer);
    let mut read = String::new();
    reader.read_to_string(&mut read).unwrap();
    assert_eq!(read, "to the reader");
    assert_eq!(names(&d), ["stdout"]);
}

#[test]
fn only_the_systems_names_of_the_standard_streams_are_taken_as_them() {
    for (name, stream) in [
        ("/dev/stdout", Some(Stream::Output)),
        ("/dev/fd/1", Some(Stream::Output)),
        ("/proc/self/fd/1", Some(Stream::Output)),
        ("/dev/stderr", Some(Stream::Error)),
        ("/dev/fd/2", Some(Stream::Error)),
        ("/proc/self/fd/2", Some(Stream::Error)),
        ("/dev/fd/3", None),
        ("/dev/fd/10", None),
        ("/dev/stdin", None),
        ("dev/stdout", None),
        ("/dev/stdout2", None),
        ("out.ics", None),
    ] {
        assert_eq!(standard_stream(Path::new(name)), stream, "{name}");
    }
}
