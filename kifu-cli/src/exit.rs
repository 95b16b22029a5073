//! The one exit-code rule of every subcommand, and what every subcommand checks of its path
//! arguments before it starts:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | clean: every record read without an error (with `--strict`, without a warning either) |
//! | 1 | problems found in records: errors (with `--strict`, warnings too) |
//! | 2 | a usage or I/O problem with an argument: a path that does not exist, a file given by name that is not a game record, a missing or unreadable index, a bad `@OFFSET`, a bad flag |
//!
//! 2 wins over 1. A usage problem found before the work starts creates nothing (no index).

use std::path::PathBuf;
use std::process::ExitCode;

/// Records read cleanly.
pub const CLEAN: u8 = 0;
/// Problems found in records.
pub const PROBLEMS: u8 = 1;
/// A usage or I/O problem with an argument.
pub const USAGE: u8 = 2;

/// The exit code of a run that met `usage` problems with its arguments and read records with
/// `errors` errors and `warnings` warnings.
pub fn status(usage: u64, errors: u64, warnings: u64, strict: bool) -> ExitCode {
    ExitCode::from(if usage > 0 {
        USAGE
    } else if errors > 0 || (strict && warnings > 0) {
        PROBLEMS
    } else {
        CLEAN
    })
}

/// Prints `kifu: PATH: …` for each path argument that cannot be read (`-`, standard input, is
/// always fine) and returns how many there were.
pub fn missing_paths(paths: &[PathBuf]) -> u64 {
    let mut missing = 0;
    for p in paths {
        if p.as_os_str() == "-" {
            continue;
        }
        if let Err(e) = std::fs::metadata(p) {
            eprintln!("kifu: {}: {e}", p.display());
            missing += 1;
        }
    }
    missing
}

/// Whether `input` (a name the streams layer gives) is one of the path arguments as written:
/// a file named on the command line that turns out not to be a game record is a usage problem,
/// where one found in a directory is only skipped.
pub fn named(paths: &[PathBuf], input: &str) -> bool {
    paths.iter().any(|p| p.to_string_lossy() == input)
}
