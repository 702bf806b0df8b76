//! A baseline of accepted warnings: the edition's known defects, accepted once so
//! that a new warning stands out.
//!
//! One warning a line: `CODE<TAB>FILE<TAB>MESSAGE`, where FILE is the file's path
//! inside the edition. No line numbers: an edit elsewhere in a file does not turn
//! an accepted warning into a new one. A warning not matched so matches a line
//! whose message differs only in its dates and years: next year's edition has
//! the same defects written with its own year. Lines starting with `#` are
//! comments.

use super::replace::replace_file;
use crate::diag::{Diagnostic, Diagnostics};
use crate::edition::IoError;
use crate::source::Sources;
use std::collections::BTreeMap;
use std::path::Path;

/// What identifies a warning across edits: code, file in the edition, message.
type Key = (String, String, String);

/// The accepted warnings, each with how many times it may occur.
#[derive(Debug, Default)]
pub struct Baseline {
    entries: BTreeMap<Key, usize>,
}

/// A check's diagnostics sorted against a baseline.
pub struct Sifted {
    /// The errors, and the warnings the baseline does not accept.
    pub kept: Diagnostics,
    /// Warnings the baseline accepts.
    pub accepted: usize,
    /// Baseline entries that no warning matched (fixed defects).
    pub stale: Vec<String>,
}

const HEADER: &str = "# bfr check baseline: accepted warnings, one a line: CODE<TAB>FILE<TAB>MESSAGE\n\
# Written by `bfr check --write-baseline`; read by `bfr check --baseline`.\n";

/// The key of a diagnostic: its file named relative to the edition's directory.
fn key(d: &Diagnostic, sources: &Sources, edition: &Path) -> Key {
    let name = if sources.get(d.span.file).is_some() {
        sources.name(d.span.file)
    } else {
        ""
    };
    let file = Path::new(name)
        .strip_prefix(edition)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(|| Path::new(name).file_name().map(Path::new))
        .map_or(String::new(), |p| p.display().to_string());
    (
        d.code.to_string(),
        file,
        d.message.replace(['\n', '\t'], " "),
    )
}

impl Baseline {
    /// Reads a baseline file.
    pub fn read(path: &Path) -> Result<Baseline, IoError> {
        let bytes = crate::edition::read_named(path)?;
        let text = String::from_utf8(bytes).map_err(|_| {
            IoError::reading(
                path,
                "not UTF-8 text; a baseline is written by `bfr check --write-baseline`",
            )
        })?;
        let mut entries = BTreeMap::new();
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, '\t');
            match (parts.next(), parts.next(), parts.next()) {
                (Some(c), Some(f), Some(m)) => {
                    *entries
                        .entry((c.to_string(), f.to_string(), m.to_string()))
                        .or_insert(0) += 1;
                }
                _ => {
                    return Err(IoError::reading(
                        path,
                        format!(
                            "not a baseline line (CODE<TAB>FILE<TAB>MESSAGE expected): `{line}`"
                        ),
                    ));
                }
            }
        }
        Ok(Baseline { entries })
    }

    /// Writes every warning of a check as the new baseline (errors are never
    /// accepted), whole or not at all.
    pub fn write(
        path: &Path,
        diags: &Diagnostics,
        sources: &Sources,
        edition: &Path,
    ) -> Result<usize, IoError> {
        let mut lines: Vec<String> = diags
            .sorted()
            .into_iter()
            .filter(|d| !d.is_error())
            .map(|d| {
                let (c, f, m) = key(d, sources, edition);
                format!("{c}\t{f}\t{m}\n")
            })
            .collect();
        lines.sort();
        let text = format!("{HEADER}{}", lines.concat());
        replace_file(path, text.as_bytes())?;
        Ok(lines.len())
    }

    /// Splits a check's diagnostics into those that stand and those accepted.
    pub fn sift(&self, diags: &Diagnostics, sources: &Sources, edition: &Path) -> Sifted {
        let mut left = self.entries.clone();
        let mut kept = Diagnostics::default();
        let mut accepted = 0;
        let mut unmatched = Vec::new();
        for d in diags.sorted() {
            let slot = (!d.is_error())
                .then(|| left.get_mut(&key(d, sources, edition)))
                .flatten()
                .filter(|n| **n > 0);
            match slot {
                Some(n) => {
                    *n -= 1;
                    accepted += 1;
                }
                None if d.is_error() => kept.push(d.clone()),
                None => unmatched.push(d),
            }
        }
        // Then with its dates and years left out: next year's edition writes
        // them anew, and its known defects are the same defects ("not in the
        // edition's year 2016" is the accepted "… year 2015").
        for d in unmatched {
            let (code, file, message) = key(d, sources, edition);
            let words = dates_left_out(&message);
            let slot = left
                .iter_mut()
                .find(|((c, f, m), n)| {
                    **n > 0 && *c == code && *f == file && dates_left_out(m) == words
                })
                .map(|(_, n)| n);
            match slot {
                Some(n) => {
                    *n -= 1;
                    accepted += 1;
                }
                None => kept.push(d.clone()),
            }
        }
        let stale = left
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|((c, f, m), _)| format!("{c} {f}: {m}"))
            .collect();
        Sifted {
            kept,
            accepted,
            stale,
        }
    }
}

/// A message with its dates and years written `#` (`2015-07-25`, `2015`), but
/// inside backticks, where a name stands (`rate_2015` is another rule than
/// `rate_2016`): what a new year's edition writes anew.
fn dates_left_out(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let digits = |from: usize, n: usize| {
        chars
            .get(from..from + n)
            .is_some_and(|s| s.iter().all(char::is_ascii_digit))
    };
    let part_of_word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut out = String::with_capacity(message.len());
    let (mut i, mut quoted) = (0, false);
    while let Some(&c) = chars.get(i) {
        let standalone = !quoted && !part_of_word(i.checked_sub(1).and_then(|p| chars.get(p)));
        let date = digits(i, 4)
            && chars.get(i + 4) == Some(&'-')
            && digits(i + 5, 2)
            && chars.get(i + 7) == Some(&'-')
            && digits(i + 8, 2);
        let len = if date { 10 } else { 4 };
        if standalone && (date || digits(i, 4)) && !part_of_word(chars.get(i + len)) {
            out.push('#');
            i += len;
            continue;
        }
        quoted ^= c == '`';
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dates_left_out;

    #[test]
    fn a_message_is_compared_with_its_dates_and_years_left_out() {
        assert_eq!(
            dates_left_out("the date 2014-08-02 is not in the edition's year 2015"),
            "the date # is not in the edition's year #"
        );
        assert_eq!(dates_left_out("2015-07-24 is a Friday"), "# is a Friday");
        // A name keeps its digits, and other numbers stay.
        assert_eq!(
            dates_left_out("`rate_2015` has no source"),
            "`rate_2015` has no source"
        );
        assert_eq!(dates_left_out("`2015` and 2015x"), "`2015` and 2015x");
        assert_eq!(
            dates_left_out("rows 3 and 4 overlap"),
            "rows 3 and 4 overlap"
        );
        assert_eq!(dates_left_out("teams = 12345"), "teams = 12345");
    }
}
