//! The `bfr` binary: parses the command line and maps the result to an exit code.

use clap::Parser;
use std::process::ExitCode;

/// Checking an edition makes and frees many small blocks (names, expressions, rows);
/// mimalloc serves them in a fraction of the system allocator's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match bfr::cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // bfr's library does not panic by design; if it ever does, say so and exit 3
    // instead of the runtime's 101.
    match std::panic::catch_unwind(|| bfr::cli::run(&cli)) {
        Ok(code) => ExitCode::from(code),
        Err(_) => {
            eprintln!("error: internal failure in bfr; please report the input that caused it");
            ExitCode::from(bfr::cli::EXIT_IO)
        }
    }
}
