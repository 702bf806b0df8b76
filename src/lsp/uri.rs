//! `file:` URIs (what editors name documents by) to paths and back. Only local
//! files are served: any other scheme names no file, and a request about it is
//! answered empty.

use lsp_types::Uri;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The path a `file:` URI names, percent-decoded; `None` for other schemes or a
/// remote host.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s
        .strip_prefix("file://")
        .or_else(|| s.strip_prefix("FILE://"))?;
    let path = match rest.strip_prefix("localhost") {
        Some(p) => p,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = decode(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

/// Percent-decodes; `None` if an escape is not two hex digits.
fn decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The `file:` URI of an absolute path, with every byte outside the unreserved
/// set and `/` percent-encoded: a name that is not UTF-8 (Latin-1 from an old
/// disk) keeps its bytes, so the URI names the file the editor opened.
pub fn from_path(path: &Path) -> Option<Uri> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes()
    };
    #[cfg(not(unix))]
    let lossy = path.to_string_lossy();
    #[cfg(not(unix))]
    let bytes = lossy.as_bytes();
    let mut s = String::from("file://");
    for byte in bytes {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                s.push(char::from(*byte))
            }
            _ => s.push_str(&format!("%{byte:02X}")),
        }
    }
    Uri::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_swedish_letters_and_spaces_goes_there_and_back() {
        let path = Path::new("/tmp/regler 2016/Skåne.bfr");
        let uri = from_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/regler%202016/Sk%C3%A5ne.bfr");
        assert_eq!(to_path(&uri).unwrap(), path);
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/Sk\xe5ne.bfr"));
        let uri = from_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/Sk%E5ne.bfr");
        assert_eq!(to_path(&uri).unwrap(), path);
    }

    #[test]
    fn other_schemes_and_bad_escapes_name_no_file() {
        let other = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(to_path(&other), None);
        let bad = Uri::from_str("file:///a%2").unwrap_or_else(|_| other.clone());
        assert_eq!(to_path(&bad), None);
        let local = Uri::from_str("file://localhost/a/b.bfr").unwrap();
        assert_eq!(to_path(&local).unwrap(), Path::new("/a/b.bfr"));
    }
}
