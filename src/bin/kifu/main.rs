//! `kifu`: read Go and shogi game records from the command line.
//!
//! Subcommands: `stats` (count games, nodes, moves… over files and directories), `check`
//! (report every warning and error) and `events` (print every event of a file as JSON lines). Run `kifu help SUBCOMMAND` for the flags.

mod check;
mod events;
mod files;
mod json;
mod stats;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Read Go and shogi game records (SGF, JGF, Go game JSON, Jago XML, CSA) as event streams.
#[derive(Parser)]
#[command(name = "kifu", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count files, games, nodes, moves, variations, warnings and errors under PATHs.
    Stats(stats::Args),
    /// Report every warning and error as `path:line:column: kind: message`; exit 1 on errors.
    Check(check::Args),
    /// Print every event of FILE as one JSON object per line.
    Events {
        /// The file to read (`-` for standard input).
        file: PathBuf,
        /// Turn warnings into errors.
        #[arg(long)]
        strict: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Stats(args) => stats::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Events { file, strict } => events::run(&file, strict),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kifu: {e}");
            ExitCode::from(2)
        }
    }
}
