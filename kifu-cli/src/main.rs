//! `kifu`: read Go and shogi game records from the command line.
//!
//! Subcommands: `stats` (count games, nodes, moves… over files and directories), `check`
//! (report every warning and error) and `events` (print every event of a file as JSON lines). Run `kifu help SUBCOMMAND` for the flags.

mod check;
mod convert;
mod csv;
mod events;
mod exit;
mod explore;
mod export;
mod files;
mod find;
mod find_export;
mod fix;
mod hits;
mod index;
mod json;
mod losses;
mod out;
mod outpath;
mod pattern_arg;
mod position_arg;
mod replay;
mod show;
mod stats;
mod target;
mod to;
mod tree;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc rather than the system allocator: `kifu index` builds its rows on the reading
/// threads and frees them on the writer's, where glibc's per-thread arenas contended for their
/// locks (thousands of futex waits a run). Medians of 11 alternating runs on the corpus, CPU
/// time of `kifu index`: 919 -> 867 ms on one reading thread, 831 -> 759 ms on two; `kifu
/// stats` unchanged (560 against 561 ms; 597 against 608 ms on two). Without transparent huge
/// pages (the `no_thp` feature): with them, fresh 2 MiB pages were zeroed whole, 7-8% of the
/// index's CPU time. mimalloc's version 2 (the `v2` feature) rather than the crate's default
/// version 3, whose start-up (reserving and mapping its arenas) made every run of `kifu` 0.9 ms
/// of CPU dearer (`perf stat -r 50 kifu --version`: 3.35 -> 2.46 ms): `kifu stats` on
/// sgf/collections 5-7% faster at one and two threads (wall, medians of 21 paired runs), `kifu
/// index` on the corpus the same (CPU ratio 1.01, 15 paired runs).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Read Go and shogi game records (SGF, JGF, Go game JSON, Jago XML, GIB, NGF, UGF, CSA, KIF, KI2, USI, JKF) as event streams.
#[derive(Parser)]
#[command(
    name = "kifu",
    version,
    about,
    after_help = "Exit status: 0 clean; 1 problems found in records (errors; with --strict, warnings too); \
                  2 a usage or I/O problem with an argument (a missing path, a file that is not a game record, \
                  a missing index, a bad @OFFSET). Nothing is created on a usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count files, games, nodes, moves, variations, warnings and errors under PATHs.
    Stats(stats::Args),
    /// Print each game's tree in canonical SGF, each game from a new line (long ones over several); shogi games in CSA (`--moves`: moves only, one line per game).
    Tree(tree::Args),
    /// Report every warning and error as `path:line:column: kind: message`; exit 1 on errors.
    Check(check::Args),
    /// Write every game of PATHs in another format (`--to sgf|csa|csa3|kif|kifu|ki2|ki2u|usi|jkf|jgf|jgf1|xml|json`).
    Convert(convert::Args),
    /// Print every event of FILE as one JSON object per line.
    Events {
        /// The file to read (`-` for standard input).
        file: PathBuf,
        /// Turn warnings into errors.
        #[arg(long)]
        strict: bool,
    },
    /// Build or update a SQLite index of every game under PATHs (and DB.positions beside it: every main-line position, for `find --position` and `explore`).
    Index(index::Args),
    /// Search the index (players, ranks, event, dates, result, size, komi, moves, opening, duplicates, positions); sort, page, count, CSV, export the games found; `--errors`.
    Find(Box<find::Args>),
    /// Print one game's information and main line: `kifu show FILE@OFFSET`.
    Show(show::Args),
    /// The moves played next in a position, from the index: games, results, dates, players.
    Explore(explore::Args),
    /// Write every game under PATHs as a table: Parquet (`--parquet DIR`) or Arrow IPC (`--arrow-ipc FILE`).
    Export(export::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Stats(args) => stats::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Events { file, strict } => events::run(&file, strict),
        Command::Index(args) => index::run(&args),
        Command::Find(args) => find::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Explore(args) => explore::run(&args),
        Command::Export(args) => export::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kifu: {e}");
            ExitCode::from(2)
        }
    }
}
