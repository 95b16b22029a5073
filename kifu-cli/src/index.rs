//! `kifu index PATH... [--db FILE] [--threads N] [--json]`: builds or updates the index through
//! `kifu_index::build`, with a progress bar on a terminal and a summary line (or JSON object) at
//! the end. See the kifu-index crate for how a run reads and what the tables hold.
//!
//! `--no-positions` leaves out the positions file (`DB.positions`, what `kifu find --position`
//! and `kifu explore` read): a faster run; the file is left as it was, and the games read get
//! their positions at the next run without the flag.
//!
//! `--variations` records the positions of every node of every variation too (a game that
//! passes through a position in a variation is found there). The index remembers it: later runs
//! record variations with the flag or without (a line on standard error says so), the first run
//! with it on an index without reads every file again, and deleting `DB.positions` stops it (the
//! next run without the flag reads every file again, main lines only).

use crate::json::Obj;
use clap::Args as ClapArgs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Flags of `kifu index`.
#[derive(ClapArgs)]
pub struct Args {
    /// Files or directories (walked recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The index database (created if missing).
    #[arg(long, default_value = "kifu.sqlite")]
    db: PathBuf,
    /// Worker threads reading files: 0 (the default) one per core; a further thread writes the
    /// database.
    #[arg(long)]
    threads: Option<usize>,
    /// Print a JSON summary instead of a line of text.
    #[arg(long)]
    json: bool,
    /// Read in strict mode (warnings become errors).
    #[arg(long)]
    strict: bool,
    /// Files per transaction at most (a batch is also closed after half a second).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Don't record positions (`DB.positions`, for `find --position` and `explore`): a faster
    /// run; the file is left as it was and the games read now get theirs at the next run without
    /// this flag.
    #[arg(long)]
    no_positions: bool,
    /// Record the positions of every node of every variation too, not only of the main lines,
    /// for `find --position` and `explore` (a game counts once a position, at its smallest move
    /// number there). Remembered by the index: later runs record variations with or without
    /// this flag. The first run with it reads every file again; to stop, delete DB.positions
    /// (the next run without the flag reads every file again, main lines only).
    #[arg(long, conflicts_with = "no_positions")]
    variations: bool,
}

/// The progress bar (hidden when standard error is not a terminal) and the paths' errors.
struct Bar {
    bar: indicatif::ProgressBar,
    files: usize,
    done: (u64, u64),
}

impl kifu_index::Progress for Bar {
    fn path_error(&mut self, path: &Path, error: &std::io::Error) {
        eprintln!("kifu: {}: {error}", path.display());
    }

    fn start(&mut self, files: usize, bytes: u64) {
        self.files = files;
        if std::io::stderr().is_terminal() {
            self.bar = indicatif::ProgressBar::new(bytes);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}",
            ) {
                self.bar.set_style(style);
            }
        }
    }

    fn file_done(&mut self, size: u64, games: u64) {
        self.done.0 += 1;
        self.done.1 += games;
        if !self.bar.is_hidden() {
            self.bar.inc(size);
            self.bar.set_message(format!("files {}/{} games {}", self.done.0, self.files, self.done.1));
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    // A path that does not exist is a usage error: nothing is read and no index is created.
    if crate::exit::missing_paths(&args.paths) > 0 {
        return Ok(ExitCode::from(crate::exit::USAGE));
    }
    let mut options = kifu_index::Options::new(&args.db);
    options.threads = args.threads;
    options.strict = args.strict;
    options.batch = args.batch;
    options.positions = !args.no_positions;
    options.variations = args.variations;
    options.sizes_up_front = std::io::stderr().is_terminal();
    let mut bar = Bar { bar: indicatif::ProgressBar::hidden(), files: 0, done: (0, 0) };
    let summary = kifu_index::build(&args.paths, &options, &mut bar).map_err(|e| e.to_string())?;
    bar.bar.finish_and_clear();
    if summary.variations_changed {
        let what = if summary.variations { "to record the positions of variations" } else { "main lines only" };
        eprintln!("kifu: {}: every file read again, {what}", args.db.display());
    } else if summary.variations && !args.variations {
        eprintln!(
            "kifu: {}: positions of variations recorded (the index was built with --variations; delete {}.positions to stop)",
            args.db.display(),
            args.db.display()
        );
    }
    let mut s = String::new();
    if args.json {
        Obj::new(&mut s)
            .str("db", &args.db.to_string_lossy())
            .num("files_seen", summary.files_seen)
            .num("files_read", summary.files_read)
            .num("files_unchanged", summary.files_unchanged)
            .num("files_deleted", summary.files_deleted)
            .num("files_skipped", summary.files_skipped)
            .num("games_read", summary.games_read)
            .num("files", summary.files)
            .num("games", summary.games)
            .num("warnings", summary.warnings)
            .num("errors", summary.errors)
            .num("bytes_read", summary.bytes_read)
            .num("seconds", format!("{:.3}", summary.seconds))
            .bool("variations", summary.variations)
            .end();
    } else {
        let mb = summary.bytes_read as f64 / 1e6;
        s = format!(
            "{}: {} games in {} files\nread {} files ({} unchanged, {} deleted, {} not game records): {} games, {} warnings, {} errors, {:.1} MB in {:.3} s ({:.1} MB/s)",
            args.db.display(),
            summary.games,
            summary.files,
            summary.files_read,
            summary.files_unchanged,
            summary.files_deleted,
            summary.files_skipped,
            summary.games_read,
            summary.warnings,
            summary.errors,
            mb,
            summary.seconds,
            mb / summary.seconds.max(1e-9)
        );
    }
    crate::out::println(&s);
    let usage = named_not_records(&args.db, &args.paths);
    Ok(crate::exit::status(usage, summary.errors, summary.warnings, args.strict))
}

/// Says `kifu: PATH: not a game record kifu can read` for each file named on the command line
/// that the index holds as no game record (read in this run or an earlier one: a file, not an
/// archive holding records), and gives how many: a usage problem (exit 2), as `kifu stats`
/// makes it, where a README found in a directory is only counted.
fn named_not_records(db: &std::path::Path, paths: &[PathBuf]) -> u64 {
    let Ok(conn) = kifu_index::open_existing(db) else { return 0 };
    let Ok(mut st) = conn.prepare(
        "SELECT 1 FROM files f WHERE f.path = ?1 AND f.format IS NULL AND f.error IS NULL
           AND NOT EXISTS (SELECT 1 FROM files m WHERE m.parent_id = f.id)",
    ) else {
        return 0;
    };
    let mut n = 0;
    for p in paths {
        if p.as_os_str() == "-" || !std::fs::metadata(p).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let Ok(abs) = std::fs::canonicalize(p) else { continue };
        if st.exists([abs.to_string_lossy()]).unwrap_or(false) {
            eprintln!("kifu: {}: not a game record kifu can read", p.display());
            n += 1;
        }
    }
    n
}
