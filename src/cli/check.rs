//! `bfr check`: every problem of an edition, with the summary an editor needs —
//! warnings that fail the check on request, a baseline of accepted warnings, and a
//! file checked inside the edition it belongs to.

use super::baseline::Baseline;
use super::output::{Output, counted};
use super::output::{diagnostics_json, json_line, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::diag::Diagnostics;
use crate::edition::{self, Loaded};
use std::path::{Path, PathBuf};

/// How strict a check is.
#[derive(Debug, Default)]
pub struct CheckOptions {
    /// Warnings (those the baseline does not accept) make the check fail.
    pub deny_warnings: bool,
    /// Accepted warnings.
    pub baseline: Option<PathBuf>,
    /// Write the check's warnings here as the new baseline.
    pub write_baseline: Option<PathBuf>,
    /// Warning codes not shown or counted (`--allow W0101`).
    pub allow: Vec<String>,
}

/// Whether each `--allow` code is a warning's code (`W` and four digits): an error
/// cannot be allowed, and a typo would silently allow nothing.
pub fn allow_codes_valid(codes: &[String]) -> Result<(), String> {
    for c in codes {
        let digits = c.len() == 5 && c[1..].bytes().all(|b| b.is_ascii_digit());
        if c.starts_with('E') && digits {
            return Err(format!(
                "`--allow {c}`: {c} is an error, and errors cannot be allowed; only warnings (W…) can"
            ));
        }
        if !(c.starts_with('W') && digits) {
            return Err(format!(
                "`--allow {c}`: not a warning code; write it as in the output, e.g. `--allow W0101`"
            ));
        }
        if !documented_warnings().any(|w| w == c) {
            let known: Vec<&str> = documented_warnings().collect();
            return Err(format!(
                "`--allow {c}`: bfr has no warning {c}; its warnings are {} (docs/diagnostics.md)",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

/// The warning codes bfr gives, as docs/diagnostics.md documents them (a test
/// holds every code the source gives to a heading there), in code order.
fn documented_warnings() -> impl Iterator<Item = &'static str> {
    const DOCS: &str = include_str!("../../docs/diagnostics.md");
    let mut codes: Vec<&str> = DOCS
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter(|c| {
            c.len() == 5 && c.starts_with('W') && c[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .collect();
    codes.sort_unstable();
    codes.into_iter()
}

/// What was checked for one path argument.
struct Target {
    /// The edition loaded (the file's edition when the path is one of its files).
    edition: PathBuf,
    /// The one file to report on, when the path is a file inside an edition.
    only: Option<PathBuf>,
}

/// A file inside a directory that declares an edition (`edition.bfr`) is checked in
/// its edition: alone, every name the other files declare would be unknown.
fn target(path: &Path) -> Target {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if path.is_file() && parent.join("edition.bfr").is_file() {
        Target {
            edition: parent.to_path_buf(),
            only: Some(path.to_path_buf()),
        }
    } else {
        Target {
            edition: path.to_path_buf(),
            only: None,
        }
    }
}

/// Keeps the diagnostics about one file (and those about no file).
fn only_file(loaded: &Loaded, diags: &Diagnostics, file: &Path) -> Diagnostics {
    let want = std::fs::canonicalize(file).ok();
    let mut kept = Diagnostics::default();
    for d in diags.sorted() {
        let about = loaded
            .sources
            .get(d.span.file)
            .map(|f| std::fs::canonicalize(&f.name).ok());
        if about.is_none() || about.flatten() == want {
            kept.push(d.clone());
        }
    }
    kept
}

/// `bfr check`
pub fn check(out: &Output, paths: &[PathBuf], opts: &CheckOptions) -> u8 {
    let baseline = match &opts.baseline {
        Some(p) => match Baseline::read(p) {
            Ok(b) => Some(b),
            Err(e) => return out.io_error(&e),
        },
        None => None,
    };
    if let Some(code) = paths
        .iter()
        .find_map(|p| super::commands::rules_path(p).err())
    {
        return code;
    }
    let mut status = EXIT_OK;
    let mut reports = Vec::new();
    for path in paths {
        let t = target(path);
        // An edition that cannot be read is reported in every format; the others
        // are still checked, and the exit status is the I/O failure's.
        let loaded = match edition::load(&t.edition) {
            Ok(l) => l,
            Err(e) => {
                match out.format {
                    Format::Text => super::output::stderr(&format!("error: {e}\n")),
                    Format::Json => reports.push(serde_json::json!({
                        "edition": path.display().to_string(),
                        "error": "io",
                        "path": e.path.display().to_string(),
                        "message": e.to_string(),
                    })),
                }
                status = EXIT_IO;
                continue;
            }
        };
        let all = match &t.only {
            Some(file) => only_file(&loaded, &loaded.diagnostics, file),
            None => loaded.diagnostics.clone(),
        };
        // Errors stop the check before some warnings are looked for (the
        // examples, a stopped file's rules): what it found is not all there is.
        let errors_in_edition = loaded.diagnostics.error_count();
        if let Some(w) = &opts.write_baseline
            && errors_in_edition > 0
        {
            super::output::stderr(&format!(
                "error: {} is left as it was: the check found {}, and an edition's warnings are all known only once it has none; fix the errors, then write the baseline\n",
                w.display(),
                counted(errors_in_edition, "error"),
            ));
        } else if let Some(w) = &opts.write_baseline {
            match Baseline::write(w, &all, &loaded.sources, &t.edition) {
                Ok(n) => super::output::stderr(&format!(
                    "wrote {} to {}\n",
                    counted(n, "accepted warning"),
                    w.display()
                )),
                Err(e) => return out.io_error(&e),
            }
        }
        // An entry not found by a check that stopped early may still be found.
        let (mut diags, accepted, stale) = match &baseline {
            Some(b) => {
                let s = b.sift(&all, &loaded.sources, &t.edition);
                let stale = (errors_in_edition == 0).then_some(s.stale);
                (s.kept, s.accepted, stale)
            }
            None => (all, 0, Some(Vec::new())),
        };
        let allowed = diags.drop_warnings(|d| opts.allow.iter().any(|c| c == d.code));
        let (errors, warnings) = (diags.error_count(), diags.warning_count());
        if (errors > 0 || (opts.deny_warnings && warnings > 0)) && status == EXIT_OK {
            status = EXIT_FOUND;
        }
        let summary = Summary {
            path,
            target: &t,
            loaded: &loaded,
            errors,
            warnings,
            accepted,
            allowed,
            stale: stale.as_deref(),
            deny: opts.deny_warnings,
        };
        match out.format {
            Format::Text => {
                // The summary first: with ~200 lines of warnings below, the verdict
                // is what an editor looks for.
                stdout(&summary.line());
                out.diagnostics(&diags, &loaded.sources);
                for s in stale.iter().flatten() {
                    stdout(&format!(
                        "  no longer found (remove from the baseline): {s}\n"
                    ));
                }
            }
            Format::Json => reports.push(summary.json(&diags)),
        }
    }
    if out.format == Format::Json {
        json_line(&serde_json::Value::Array(reports));
    }
    status
}

struct Summary<'a> {
    path: &'a Path,
    target: &'a Target,
    loaded: &'a Loaded,
    errors: usize,
    warnings: usize,
    accepted: usize,
    /// Warnings left out by `--allow`.
    allowed: usize,
    /// Baseline entries the check did not find; `None` when errors stopped it.
    stale: Option<&'a [String]>,
    deny: bool,
}

impl Summary<'_> {
    /// (rules, texts, competitions, examples), or `None` when errors stopped the check.
    fn counts(&self) -> Option<(usize, usize, usize, usize)> {
        self.loaded.checked.as_ref().map(|c| {
            let p = &c.program;
            (
                p.rules.len(),
                p.texts.len(),
                p.competitions.len(),
                p.examples.len(),
            )
        })
    }

    fn line(&self) -> String {
        let what = match (&self.target.only, self.counts()) {
            (Some(_), _) => format!("checked in its edition {}", self.target.edition.display()),
            (None, Some((r, t, c, e))) => format!(
                "{}, {}, {}, {}, {}",
                counted(self.loaded.files, "file"),
                counted(r, "rule"),
                counted(t, "text"),
                counted(c, "competition"),
                counted(e, "example"),
            ),
            (None, None) if self.loaded.files == 0 => "nothing checked".into(),
            (None, None) => format!(
                "{}, not checked through (rules are counted once the errors are fixed)",
                counted(self.loaded.files, "file")
            ),
        };
        let mut tail = String::new();
        if self.accepted > 0 {
            tail.push_str(&format!(" ({} accepted by the baseline)", self.accepted));
        }
        if self.allowed > 0 {
            tail.push_str(&format!(" ({} allowed)", self.allowed));
        }
        match self.stale {
            Some(stale) if !stale.is_empty() => tail.push_str(&format!(
                " ({} no longer found)",
                counted(stale.len(), "baseline entry")
            )),
            None => tail.push_str(
                " (whether every baseline entry is still found is known once the errors are fixed)",
            ),
            Some(_) => {}
        }
        if self.deny && self.warnings > 0 {
            tail.push_str(" (warnings denied)");
        }
        format!(
            "{}: {what}: {}, {}{tail}\n",
            self.path.display(),
            counted(self.errors, "error"),
            counted(self.warnings, "warning"),
        )
    }

    fn json(&self, diags: &Diagnostics) -> serde_json::Value {
        let counts = self.counts();
        serde_json::json!({
            "edition": self.path.display().to_string(),
            "checked_in": self.target.only.as_ref().map(|_| self.target.edition.display().to_string()),
            "files": self.loaded.files,
            "rules": counts.map(|c| c.0),
            "texts": counts.map(|c| c.1),
            "competitions": counts.map(|c| c.2),
            "examples": counts.map(|c| c.3),
            "errors": self.errors,
            "warnings": self.warnings,
            "accepted": self.accepted,
            "allowed": self.allowed,
            "stale_baseline": self.stale,
            "diagnostics": diagnostics_json(diags, &self.loaded.sources),
        })
    }
}
