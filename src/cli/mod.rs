//! The `bfr` command: subcommands, output formats and exit codes.
//!
//! Results go to stdout, diagnostics to stderr. Exit codes: 0 ok (warnings
//! allowed), 1 errors or failures found, 2 usage (clap), 3 I/O or internal
//! failure.

mod allocate;
mod baseline;
mod check;
mod commands;
mod diff;
mod doc;
mod entries;
mod federation;
mod fmt;
mod html;
mod list;
mod output;
pub mod render;
mod replace;
mod run;
mod schedule;
mod table;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

/// Exit status: everything is fine.
pub const EXIT_OK: u8 = 0;
/// Exit status: errors, failed examples or differences found.
pub const EXIT_FOUND: u8 = 1;
/// Exit status: the command line asks for something bfr cannot do.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: a file could not be read or written, or bfr itself failed.
pub const EXIT_IO: u8 = 3;

/// bfr: a bridge federation's competition regulations, checked and run.
#[derive(Debug, Parser)]
#[command(
    name = "bfr",
    version,
    about,
    max_term_width = 100,
    args_override_self = true
)]
pub struct Cli {
    /// Output format.
    #[arg(long, global = true, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// When to colour diagnostics.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Load the edition afresh: neither read nor write the compiled edition kept in
    /// the cache directory (`$BFR_CACHE_DIR`, else `$XDG_CACHE_HOME/bfr`, else
    /// `~/.cache/bfr`), which every command but `check` and `doc` uses.
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats, as the command line names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// For people.
    Text,
    /// For programs.
    Json,
    /// A table for spreadsheets (`bfr invoice`, `bfr allocate`, `bfr seed`, `bfr vacancies`).
    Csv,
    /// A self-contained page to print or post (`bfr run` and `bfr simulate`).
    Html,
}

/// The output formats every command has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// Colour choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check editions and report every problem found.
    Check {
        /// Edition directories, or .bfr files (a file beside an `edition.bfr` is
        /// checked in its edition).
        #[arg(required = true)]
        editions: Vec<PathBuf>,
        /// Fail (exit 1) on warnings too, except those the baseline accepts.
        #[arg(long, short = 'D')]
        deny_warnings: bool,
        /// Accept the warnings listed in this file (see --write-baseline), so that
        /// only new ones show.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// Do not show or count warnings of this code (repeatable, or comma
        /// separated: `--allow W0101,W0102`); errors cannot be allowed.
        #[arg(long, value_name = "CODE", value_delimiter = ',')]
        allow: Vec<String>,
        /// Write this check's warnings to FILE as the accepted baseline.
        #[arg(long, value_name = "FILE")]
        write_baseline: Option<PathBuf>,
    },
    /// List an edition's files, rules (kind, type, source) and competitions with
    /// their stages.
    List {
        /// Edition directory.
        edition: PathBuf,
    },
    /// Run the edition's examples.
    Test {
        /// Edition directory.
        edition: PathBuf,
    },
    /// Evaluate an expression against an edition.
    Eval {
        /// Edition directory.
        edition: PathBuf,
        /// The expression, e.g. 'late_arrival_qualification(12 min)'.
        expression: String,
    },
    /// Evaluate an expression and show every rule that took part, with its source.
    Explain {
        /// Edition directory.
        edition: PathBuf,
        /// The expression.
        expression: String,
    },
    /// Play a whole random event from a seed, through to the final places
    /// (`--format text|json|html`).
    Simulate {
        /// Edition directory.
        edition: PathBuf,
        /// The competition, e.g. `cup`.
        competition: String,
        /// Number of teams entered (2 to 10,000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=crate::ir::MAX_TEAMS as i64))]
        teams: u32,
        /// Seed of the draw and of the simulated results; printed with the output.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A rule of the edition to use as the VP scale instead of the one it names.
        #[arg(long)]
        scale: Option<String>,
        /// Teams that start late (the qualification's `late_start_round`).
        #[arg(long, value_delimiter = ',')]
        late: Vec<u32>,
        /// District teams, which compete for the district prize.
        #[arg(long, value_delimiter = ',')]
        district: Vec<u32>,
    },
    /// Run an event file (results, choices, incidents) through the edition's rules:
    /// the report so far, and what comes next (`--format text|json|html`; html: a page
    /// for the noticeboard).
    Run {
        /// Edition directory.
        edition: PathBuf,
        /// The event file (`.toml`, or `.json`); see docs/events.md.
        event: PathBuf,
        /// Write every draw made and not yet recorded into the event file (as
        /// `draw = [...]` of its round or stage), so that it stands: a later
        /// correction of an earlier result does not change it. Only when the run
        /// has no errors; the file is replaced atomically, comments kept.
        #[arg(long)]
        write_draw: bool,
    },
    /// Entries files: teams and pairs with their players (see docs/entries.md).
    Entries {
        /// What to do with them.
        #[command(subcommand)]
        what: EntriesCommand,
    },
    /// What each team and pair owes and each district is paid, every figure with
    /// the rules behind it (`--format text|json|csv`).
    Invoice {
        /// Edition directory.
        edition: PathBuf,
        /// The entries file (`.toml`, or `.json`); see docs/entries.md.
        entries: PathBuf,
    },
    /// Lay out `.bfr` files in the one canonical layout (comments and blank lines
    /// kept); a file is rewritten only if it still says the same.
    Fmt {
        /// Only list the files whose layout would change; exit 1 if there are any.
        #[arg(long)]
        check: bool,
        /// Files, or directories of `.bfr` files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// What changed between two editions: every rule, row, stage, route, date
    /// and paragraph, with its inventory ID and page, and the inputs whose answers
    /// changed (see docs/diff.md).
    Diff {
        /// The old edition (directory or file).
        old: PathBuf,
        /// The new edition.
        new: PathBuf,
        /// Only count the changed items per file.
        #[arg(long)]
        stat: bool,
        /// Also play N simulated events of every competition in both editions
        /// (seeds 1 to N, at most 1,000) and report where they first part.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
        simulate: Option<u64>,
        /// The field of the simulated events (default: each competition's
        /// smallest, else 16 teams).
        #[arg(long, requires = "simulate", value_parser = clap::value_parser!(u32).range(2..=crate::ir::MAX_TEAMS as i64))]
        teams: Option<u32>,
    },
    /// The programme day by day (every stage with its part of the day, boards,
    /// screens and system level) and every deadline and time limit the edition
    /// lists; see docs/schedule.md.
    Schedule {
        /// Edition directory.
        edition: PathBuf,
        /// Also write the programme and the deadlines as an iCalendar file.
        #[arg(long, value_name = "FILE")]
        ics: Option<PathBuf>,
    },
    /// Allocate a discipline's final (Open: semifinal) places over the districts
    /// of a starts file by the edition's rule (SM-ALLOC): each district's starts,
    /// ratio, whole places, decimals and places, with the rule that decided them.
    Allocate {
        /// Edition directory.
        edition: PathBuf,
        /// The discipline, as the edition names it (e.g. `Dam`, `Open`).
        discipline: String,
        /// The starts file (`.toml`); see docs/schedule.md.
        starts: PathBuf,
    },
    /// A language server for `.bfr` editions, over stdin and stdout (for
    /// editors; see editors/README.md): diagnostics as you type, hover, go to
    /// definition, references, completion, symbols, formatting, highlighting.
    Lsp,
    /// Write the edition as a static HTML site: an index, a page per chapter with
    /// every rule, table, scale, procedure and example under its inventory ID, page
    /// and section, each competition's stages as a flow, and the check's warnings
    /// where they belong (see docs/doc.md).
    Doc {
        /// Edition directory.
        edition: PathBuf,
        /// The site's directory: a new one, or one an earlier `bfr doc` wrote
        /// (replaced whole).
        #[arg(short = 'o', long = "out", value_name = "DIR")]
        out: PathBuf,
    },
    /// Seed the Open semifinal by the edition's rule (SM-SEED): each pair's ranks in
    /// master points, handicap and ranking points, the rank sum (ties stated), the
    /// final order, the serpentine group and the strength category.
    Seed {
        /// Edition directory.
        edition: PathBuf,
        /// The pairs file (`.toml`); see docs/federation.md.
        pairs: PathBuf,
    },
    /// Fill declined places by the edition's rules (SM-VACANCY, SM-LASTCHANCE): the
    /// same district, the next district in the allocation order, the last-chance
    /// pot, or fewer pairs.
    Vacancies {
        /// Edition directory.
        edition: PathBuf,
        /// The discipline, as the edition names it (e.g. `Open`, `Mixed`).
        discipline: String,
        /// The vacancies file (`.toml`); see docs/federation.md.
        file: PathBuf,
    },
    /// Internals for bfr's developers.
    Debug {
        /// What to show.
        #[command(subcommand)]
        what: DebugCommand,
    },
}

/// What `bfr entries` does.
#[derive(Debug, Subcommand)]
pub enum EntriesCommand {
    /// Check every entry against the edition's rules: team sizes, membership,
    /// classes, district teams, late starts, one start per discipline, reserves.
    Check {
        /// Edition directory.
        edition: PathBuf,
        /// The entries file (`.toml`, or `.json`).
        entries: PathBuf,
    },
}

/// Developer views.
#[derive(Debug, Subcommand)]
pub enum DebugCommand {
    /// Print the checked edition's typed IR as JSON.
    Ir {
        /// Edition directory.
        edition: PathBuf,
    },
}

/// Runs a parsed command line and returns the exit status.
pub fn run(cli: &Cli) -> u8 {
    let colour = match cli.color {
        ColorChoice::Always => crate::diag::Colour::On,
        ColorChoice::Never => crate::diag::Colour::Off,
        ColorChoice::Auto => {
            use std::io::IsTerminal;
            if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
                crate::diag::Colour::On
            } else {
                crate::diag::Colour::Off
            }
        }
    };
    if cli.format == FormatArg::Csv
        && !matches!(
            cli.command,
            Command::Invoice { .. }
                | Command::Allocate { .. }
                | Command::Seed { .. }
                | Command::Vacancies { .. }
        )
    {
        // Name every format the command does take.
        let here = if matches!(cli.command, Command::Run { .. } | Command::Simulate { .. }) {
            "text, json or html"
        } else {
            "text or json"
        };
        eprintln!(
            "error: `--format csv` is for `bfr invoice`, `bfr allocate`, `bfr seed` and `bfr vacancies`; use {here} here"
        );
        return 2;
    }
    let html = cli.format == FormatArg::Html;
    if html && !matches!(cli.command, Command::Run { .. } | Command::Simulate { .. }) {
        eprintln!(
            "error: `--format html` is for `bfr run` and `bfr simulate`; use text or json here"
        );
        return 2;
    }
    let out = output::Output {
        // CSV and HTML are the pages of a few commands; everything else reads text
        // or JSON, and their diagnostics go to stderr as text.
        format: if cli.format == FormatArg::Json {
            Format::Json
        } else {
            Format::Text
        },
        colour,
        cache: if cli.no_cache {
            None
        } else {
            crate::edition::cache::default_dir()
        },
    };
    let status = dispatch(cli, &out);
    match output::finish() {
        Some(output::WriteFailure::ReaderGone) => EXIT_IO,
        Some(output::WriteFailure::Failed(message)) => {
            // stderr may be the stream that failed; there is nowhere else to say it.
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("error: {message}; the output is incomplete\n").as_bytes(),
            );
            EXIT_IO
        }
        None => status,
    }
}

/// Why `path`, given where an edition goes, is not one: a file that is not a
/// `.bfr` file (an edition is a directory of them, or one of them), said as a
/// usage error instead of reading its text as rules. `None` for a directory, a
/// `.bfr` file, or a path that is not there (reading it says so).
pub(crate) fn not_rules(path: &Path) -> Option<String> {
    let bfr = path.extension().is_some_and(|x| x == "bfr");
    if bfr || path.is_dir() || std::fs::symlink_metadata(path).is_err() {
        return None;
    }
    let name = crate::source::printable_name(&path.display().to_string());
    let mut message = format!(
        "`{name}` is not a rules file: name an edition's directory, or one of its `.bfr` files"
    );
    if data_file(path) {
        message.push_str(
            "; a data file (an event, entries or federation file) is given after the edition, as in `bfr run EDITION EVENT` or `bfr entries check EDITION ENTRIES`",
        );
    }
    Some(message)
}

/// Whether `path` names a data file (an event, entries or federation file) by
/// its extension.
fn data_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("toml") || x.eq_ignore_ascii_case("json"))
}

/// The usage line of a command given its arguments in the wrong order (a data
/// file where the edition goes and a directory where the file goes; for
/// `allocate` and `vacancies`, the file where the discipline goes and a file
/// that is not there after it), and what was given: a usage error, not an
/// attempt to read an event file as rules.
fn swapped(command: &Command) -> Option<(&'static str, String)> {
    let (usage, edition, discipline, file) = match command {
        Command::Run { edition, event, .. } => ("bfr run EDITION EVENT", edition, None, event),
        Command::Entries {
            what: EntriesCommand::Check { edition, entries },
        } => ("bfr entries check EDITION ENTRIES", edition, None, entries),
        Command::Invoice { edition, entries } => {
            ("bfr invoice EDITION ENTRIES", edition, None, entries)
        }
        Command::Seed { edition, pairs } => ("bfr seed EDITION PAIRS", edition, None, pairs),
        Command::Allocate {
            edition,
            discipline,
            starts,
        } => (
            "bfr allocate EDITION DISCIPLINE STARTS",
            edition,
            Some(discipline),
            starts,
        ),
        Command::Vacancies {
            edition,
            discipline,
            file,
        } => (
            "bfr vacancies EDITION DISCIPLINE FILE",
            edition,
            Some(discipline),
            file,
        ),
        _ => return None,
    };
    if data_file(edition) && !edition.is_dir() && file.is_dir() {
        return Some((
            usage,
            format!(
                "`{}` looks like the data file and `{}` is a directory",
                edition.display(),
                file.display()
            ),
        ));
    }
    let discipline = discipline.map(Path::new)?;
    (data_file(discipline) && discipline.is_file() && !file.exists()).then(|| {
        (
            usage,
            format!(
                "`{}` looks like the file and `{}` is not one",
                discipline.display(),
                file.display()
            ),
        )
    })
}

/// Runs one subcommand and returns its exit status.
fn dispatch(cli: &Cli, out: &output::Output) -> u8 {
    let html = cli.format == FormatArg::Html;
    if let Some((usage, given)) = swapped(&cli.command) {
        eprintln!("error: the arguments are in another order: `{usage}` ({given})");
        return 2;
    }
    match &cli.command {
        Command::Check {
            editions,
            deny_warnings,
            baseline,
            write_baseline,
            allow,
        } => {
            if let Err(message) = check::allow_codes_valid(allow) {
                eprintln!("error: {message}");
                return 2;
            }
            // A baseline names files inside one edition: several editions would
            // overwrite one file in turn, or find each other's entries stale.
            if editions.len() > 1 && (baseline.is_some() || write_baseline.is_some()) {
                eprintln!(
                    "error: a baseline is of one edition; check the editions one at a time with --baseline or --write-baseline"
                );
                return 2;
            }
            let opts = check::CheckOptions {
                deny_warnings: *deny_warnings,
                baseline: baseline.clone(),
                write_baseline: write_baseline.clone(),
                allow: allow.clone(),
            };
            check::check(out, editions, &opts)
        }
        Command::Test { edition } => commands::test(out, edition),
        Command::List { edition } => list::list(out, edition),
        Command::Eval {
            edition,
            expression,
        } => commands::eval(out, edition, expression, false),
        Command::Explain {
            edition,
            expression,
        } => commands::eval(out, edition, expression, true),
        Command::Simulate {
            edition,
            competition,
            teams,
            seed,
            scale,
            late,
            district,
        } => {
            if let Some(bad) = late
                .iter()
                .chain(district)
                .find(|t| **t == 0 || **t > *teams)
            {
                output::stderr(&format!(
                    "error: team {bad} is not in a field of teams 1 to {teams}\n"
                ));
                return 2;
            }
            let options = crate::runner::Options {
                seed: *seed,
                scale: scale.clone(),
                late_starters: late.iter().copied().collect(),
                district_teams: district.iter().copied().collect(),
            };
            commands::simulate(out, edition, competition, *teams, &options, html)
        }
        Command::Run {
            edition,
            event,
            write_draw,
        } => run::run(out, edition, event, *write_draw, html),
        Command::Entries {
            what: EntriesCommand::Check { edition, entries },
        } => entries::check(out, edition, entries),
        Command::Invoice { edition, entries } => {
            entries::invoice(out, edition, entries, cli.format == FormatArg::Csv)
        }
        Command::Fmt { check, paths } => fmt::fmt(out, paths, *check),
        Command::Diff {
            old,
            new,
            stat,
            simulate,
            teams,
        } => {
            let opts = diff::DiffOptions {
                stat: *stat,
                simulate: *simulate,
                teams: *teams,
            };
            diff::diff(out, old, new, &opts)
        }
        Command::Allocate {
            edition,
            discipline,
            starts,
        } => allocate::allocate(
            out,
            edition,
            discipline,
            starts,
            cli.format == FormatArg::Csv,
        ),
        Command::Seed { edition, pairs } => federation::run(
            out,
            edition,
            &federation::Command {
                key: federation::SEED_KEY,
                discipline: None,
                what: "a pairs file",
                title: "seeding",
            },
            pairs,
            cli.format == FormatArg::Csv,
        ),
        Command::Vacancies {
            edition,
            discipline,
            file,
        } => federation::run(
            out,
            edition,
            &federation::Command {
                key: federation::VACANCY_KEY,
                discipline: Some(discipline),
                what: "a vacancies file",
                title: "declined places and who gets them",
            },
            file,
            cli.format == FormatArg::Csv,
        ),
        Command::Schedule { edition, ics } => schedule::schedule(out, edition, ics.as_ref()),
        Command::Lsp => match crate::lsp::run() {
            crate::lsp::Ended::AfterShutdown => EXIT_OK,
            // LSP asks for status 1 when the client exits without `shutdown`.
            crate::lsp::Ended::WithoutShutdown => EXIT_FOUND,
            crate::lsp::Ended::ConnectionBroke => EXIT_IO,
        },
        Command::Doc { edition, out: dir } => doc::doc(out, edition, dir),
        Command::Debug {
            what: DebugCommand::Ir { edition },
        } => commands::debug_ir(out, edition),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_list_options_add_up_while_single_ones_take_the_last() {
        let cli = Cli::try_parse_from([
            "bfr", "--format", "json", "simulate", "e", "cup", "--teams", "9", "--late", "1,2",
            "--late", "3", "--format", "text",
        ])
        .expect("parses");
        assert_eq!(cli.format, FormatArg::Text);
        match cli.command {
            Command::Simulate { late, .. } => assert_eq!(late, [1, 2, 3]),
            other => panic!("{other:?}"),
        }
    }
}
