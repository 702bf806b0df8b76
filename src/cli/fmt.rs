//! `bfr fmt`: lays out `.bfr` files canonically, or with `--check` lists the files
//! that are not.

use super::output::Output;
use super::output::{diagnostics_json, json_line, stderr, stdout};
use super::replace::replace_file;
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, EXIT_USAGE, Format};
use crate::diag::Diagnostics;
use crate::edition;
use crate::source::Sources;
use crate::syntax::format::format_checked;
use std::path::{Path, PathBuf};

/// What became of one file.
enum Outcome {
    Unchanged,
    Changed,
    /// It does not parse, or (a bug) its layout would change its meaning.
    Refused,
}

/// `bfr fmt [--check] PATH…`: every `.bfr` file of each path (a file or a
/// directory). A file is rewritten only when its new layout parses to the same
/// syntax tree; a file with errors is left as it is.
pub fn fmt(out: &Output, paths: &[PathBuf], check: bool) -> u8 {
    // An event or entries file named here would be read as rules, and rewritten
    // as rules if it happened to parse.
    if let Some(path) = paths.iter().find(|p| super::not_rules(p).is_some()) {
        let name = crate::source::printable_name(&path.display().to_string());
        stderr(&format!(
            "error: `{name}` is not a rules file: `bfr fmt` lays out `.bfr` files (name one, or a directory of them)\n"
        ));
        return EXIT_USAGE;
    }
    let mut files = Vec::new();
    let mut diags = Diagnostics::default();
    let mut status = EXIT_OK;
    for path in paths {
        match edition::edition_files(path) {
            Ok(f) if f.is_empty() => {
                diags.push(edition::no_files(path));
                status = EXIT_FOUND;
            }
            Ok(f) => files.extend(f),
            Err(e) => return out.io_error(&e),
        }
    }
    let mut sources = Sources::new();
    let mut changed = Vec::new();
    for file in &files {
        match fmt_file(file, check, &mut sources, &mut diags) {
            Ok(Outcome::Unchanged) => {}
            Ok(Outcome::Changed) => {
                changed.push(file.display().to_string());
                if check {
                    status = status.max(EXIT_FOUND);
                }
            }
            Ok(Outcome::Refused) => status = status.max(EXIT_FOUND),
            Err(e) => return out.io_error(&e),
        }
    }
    if diags.sorted().iter().any(|d| d.code == "E0901") {
        status = EXIT_IO;
    }
    out.diagnostics(&diags, &sources);
    match out.format {
        Format::Text => {
            let verb = if check {
                "would reformat"
            } else {
                "reformatted"
            };
            for name in &changed {
                stdout(&format!("{verb} {name}\n"));
            }
        }
        Format::Json => json_line(&serde_json::json!({
            "check": check,
            "files": files.len(),
            "changed": changed,
            "diagnostics": diagnostics_json(&diags, &sources),
        })),
    }
    status
}

fn fmt_file(
    path: &Path,
    check: bool,
    sources: &mut Sources,
    diags: &mut Diagnostics,
) -> Result<Outcome, edition::IoError> {
    let bytes = edition::read_named(path)?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let name = path.display().to_string();
            diags.push(crate::diag::not_utf8(
                "E0003",
                &name,
                e.as_bytes(),
                sources,
                "rules file",
            ));
            return Ok(Outcome::Refused);
        }
    };
    let id = sources.add(path.display().to_string(), text.clone());
    let formatted = match format_checked(&text, id) {
        Ok(f) => f,
        Err(d) => {
            diags.push(d);
            return Ok(Outcome::Refused);
        }
    };
    if formatted == text {
        return Ok(Outcome::Unchanged);
    }
    if !check {
        // Whole or not at all, through a link to the file it names, keeping its mode.
        replace_file(path, formatted.as_bytes())?;
    }
    Ok(Outcome::Changed)
}
