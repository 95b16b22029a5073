//! `kifu stats [--json] [--threads N] PATH...`: counts over whole trees of files.
//!
//! Definitions: `files` = game-record files read; `skipped` = files that are not game records
//! (a README, an index) — not errors; `games` = GameStart events; `nodes` = Node events; `moves`
//! = Move events (passes included; setup and `%` end marks are not moves); `variations` = leaves
//! − 1 per game; `warnings` and `errors` as reported by the readers (an unreadable file is one
//! error); `bytes` = size of the files read; `seconds` = wall time.

use crate::json::Obj;
use clap::Args as ClapArgs;
use kifu::{Event, EventSource};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu stats`.
#[derive(ClapArgs)]
pub struct Args {
    /// Files or directories (walked recursively); `-` is standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Turn warnings into errors.
    #[arg(long)]
    strict: bool,
}

/// Counts of one or many games.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub files: u64,
    pub skipped: u64,
    pub games: u64,
    pub nodes: u64,
    pub moves: u64,
    pub variations: u64,
    pub warnings: u64,
    pub errors: u64,
    pub bytes: u64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.files += o.files;
        self.skipped += o.skipped;
        self.games += o.games;
        self.nodes += o.nodes;
        self.moves += o.moves;
        self.variations += o.variations;
        self.warnings += o.warnings;
        self.errors += o.errors;
        self.bytes += o.bytes;
    }
}

/// Counts leaves from the event structure: a line ends (a leaf) when a variation or the game
/// closes right after a node.
#[derive(Default)]
pub struct Tally {
    pub totals: Totals,
    leaves: u64,
    last_was_node: bool,
}

impl Tally {
    /// Feeds one event.
    #[inline]
    pub fn feed(&mut self, ev: &Event<'_>) {
        match ev {
            Event::GameStart { .. } => {
                self.totals.games += 1;
                self.leaves = 0;
                self.last_was_node = false;
            }
            Event::Node => {
                self.totals.nodes += 1;
                self.last_was_node = true;
            }
            Event::Move(_) => self.totals.moves += 1,
            Event::Warning(_) => self.totals.warnings += 1,
            Event::VariationStart(_) => self.last_was_node = false,
            Event::VariationEnd => {
                self.leaves += self.last_was_node as u64;
                self.last_was_node = false;
            }
            Event::GameEnd { .. } => {
                self.leaves += self.last_was_node as u64;
                self.last_was_node = false;
                self.totals.variations += self.leaves.saturating_sub(1);
            }
            _ => {}
        }
    }
}

/// Reads every game of one file's bytes.
pub fn count(bytes: &[u8], config: kifu::Config) -> Option<Totals> {
    let mut reader = kifu::AnyReader::detect(bytes, config)?;
    let mut t = Tally::default();
    while let Some(item) = reader.next_event() {
        match item {
            Ok(ev) => t.feed(&ev),
            Err(_) => t.totals.errors += 1,
        }
    }
    t.totals.files = 1;
    t.totals.bytes = bytes.len() as u64;
    Some(t.totals)
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = std::time::Instant::now();
    let config = if args.strict { kifu::Config::strict() } else { kifu::Config::default() };
    let paths = crate::files::walk(&args.paths);
    let work = |p: &Result<PathBuf, (PathBuf, std::io::Error)>| -> Totals {
        match p {
            Err((path, e)) => {
                eprintln!("kifu: {}: {e}", path.display());
                Totals { errors: 1, ..Totals::default() }
            }
            Ok(path) => match crate::files::read(path) {
                Err(e) => {
                    eprintln!("kifu: {}: {e}", path.display());
                    Totals { errors: 1, ..Totals::default() }
                }
                Ok(bytes) => count(&bytes, config).unwrap_or(Totals { skipped: 1, ..Totals::default() }),
            },
        }
    };
    let threads = args.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    let parts: Vec<Totals> = pool.install(|| paths.par_iter().map(work).collect());
    let mut total = Totals::default();
    for p in &parts {
        total.add(p);
    }
    let secs = start.elapsed().as_secs_f64();
    let mut s = String::new();
    if args.json {
        Obj::new(&mut s)
            .num("files", total.files)
            .num("skipped", total.skipped)
            .num("games", total.games)
            .num("nodes", total.nodes)
            .num("moves", total.moves)
            .num("variations", total.variations)
            .num("warnings", total.warnings)
            .num("errors", total.errors)
            .num("bytes", total.bytes)
            .num("seconds", format!("{secs:.3}"))
            .end();
    } else {
        let mb = total.bytes as f64 / 1e6;
        s = format!(
            "files {}  skipped {}  games {}  nodes {}  moves {}  variations {}  warnings {}  errors {}\n{:.1} MB in {:.3} s ({:.1} MB/s)",
            total.files,
            total.skipped,
            total.games,
            total.nodes,
            total.moves,
            total.variations,
            total.warnings,
            total.errors,
            mb,
            secs,
            mb / secs.max(1e-9)
        );
    }
    println!("{s}");
    Ok(ExitCode::SUCCESS)
}
