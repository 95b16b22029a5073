//! `kifu stats [--json] [--threads N] PATH...`: counts over whole trees of files.
//!
//! Definitions: `files` = game-record files read; `skipped` = files that are not game records
//! (a README, an index) — not errors; `games` = GameStart events; `nodes` = Node events; `moves`
//! = Move events (passes included; setup and `%` end marks are not moves); `variations` = leaves
//! − 1 per game; `warnings` and `errors` as reported by the readers (an unreadable file is one
//! error); `bytes` = bytes of the records read (after decompression): an input up to 16 MiB is
//! read whole and counted whole (standard input too); a larger one is cut into games and counts
//! their games' bytes, without the white space and junk between games; `seconds` = wall time;
//! with `--replay`,
//! `illegal_moves` = moves the boards of `kifu::position` reject (every line of play, variations included), and
//! the moves a reader cannot play and skips (USI's `illegal_move` and KI2's `no_piece_can_move`
//! warnings, also counted in `warnings`).

use crate::json::Obj;
use clap::Args as ClapArgs;
use kifu::{Event, EventSource};
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
    /// Worker threads: 0 (the default) one per core; 1 reads on the calling thread.
    #[arg(long)]
    threads: Option<usize>,
    /// Turn warnings into errors.
    #[arg(long)]
    strict: bool,
    /// Also replay every game on a board (every line of play, each variation from where it
    /// branches) and count
    /// `illegal_moves` (with the moves a reader cannot play and skips with a warning: USI's
    /// `illegal_move`, KI2's `no_piece_can_move`).
    #[arg(long)]
    replay: bool,
    /// Name each skipped file on standard error (files that are not game records, and the
    /// FIFOs, sockets and devices a directory walk leaves unopened).
    #[arg(short, long)]
    verbose: bool,
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
    pub illegal_moves: u64,
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
        self.illegal_moves += o.illegal_moves;
    }
}

/// Counts games, nodes, moves and warnings, and variations from the event structure (the
/// leaves [`kifu::tree::LeafCounter`] counts, less one a game).
#[derive(Default)]
pub struct Tally {
    pub totals: Totals,
    leaves: kifu::tree::LeafCounter,
}

impl Tally {
    /// Feeds one event.
    #[inline(always)]
    pub fn feed(&mut self, ev: &Event<'_>) {
        match ev {
            Event::GameStart { .. } => {
                self.totals.games += 1;
                self.leaves.reset();
            }
            Event::Node => {
                self.totals.nodes += 1;
                self.leaves.node();
            }
            Event::Move(_) => self.totals.moves += 1,
            Event::Warning(_) => self.totals.warnings += 1,
            Event::VariationStart(b) => self.leaves.variation_start(*b),
            Event::VariationEnd => self.leaves.variation_end(),
            Event::GameEnd { .. } => self.totals.variations += self.leaves.close().saturating_sub(1),
            _ => {}
        }
    }
}

/// Reads every input, each read whole and parsed from its slice by its format's reader (no
/// boundary scan, no shifted offsets: the library's own pace), on worker threads when there are
/// several ([`kifu::stream::read_games`] with [`kifu::stream::Options::whole`]).
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = std::time::Instant::now();
    let config = if args.strict { kifu::Config::strict() } else { kifu::Config::default() };
    let options = kifu::stream::Options {
        config,
        threads: args.threads.unwrap_or(0),
        whole: kifu::stream::whole::WHOLE_LIMIT,
        ..Default::default()
    };
    let replay = args.replay;
    let mut usage = crate::exit::missing_paths(&args.paths);
    let mut total = Totals::default();
    let mut last_input = String::new();
    let mut sink = |input: &str, result: Result<Totals, kifu::Error>| match result {
        Ok(t) => {
            if input != last_input {
                total.files += 1;
                last_input.clear();
                last_input.push_str(input);
            }
            total.add(&t);
        }
        Err(e) if e.kind() == kifu::ErrorKind::NotAGameRecord => {
            total.skipped += 1;
            if args.verbose {
                crate::out::eprint(&format!("kifu: skipped {input}: {}\n", e.message()));
            }
            if crate::exit::named(&args.paths, input) {
                eprintln!("kifu: {input}: not a game record kifu can read");
                usage += 1;
            }
        }
        Err(e) if crate::exit::named(&args.paths, input) && e.kind() == kifu::ErrorKind::Io => {
            // Already said by `missing_paths` when the path does not exist.
            if std::path::Path::new(input).exists() {
                eprintln!("kifu: {input}: {e}");
            }
            usage += 1;
        }
        Err(e) => {
            eprintln!("kifu: {input}: {e}");
            total.errors += 1;
        }
    };
    // Every input through the streams layer: files, directories, `-`, compressed files and
    // archive members, each read whole up to 16 MiB (larger ones cut into games); the work
    // goes to worker threads and comes back in input order.
    kifu::stream::read_games(&args.paths, &options, |game| tally(game, replay), &mut sink);
    let secs = start.elapsed().as_secs_f64();
    let mut s = String::new();
    if args.json {
        let mut o = Obj::new(&mut s);
        o.num("files", total.files)
            .num("skipped", total.skipped)
            .num("games", total.games)
            .num("nodes", total.nodes)
            .num("moves", total.moves)
            .num("variations", total.variations)
            .num("warnings", total.warnings)
            .num("errors", total.errors)
            .num("bytes", total.bytes)
            .num("seconds", format!("{secs:.3}"));
        if args.replay {
            o.num("illegal_moves", total.illegal_moves);
        }
        o.end();
    } else {
        let mb = total.bytes as f64 / 1e6;
        let illegal = if args.replay { format!("  illegal_moves {}", total.illegal_moves) } else { String::new() };
        s = format!(
            "files {}  skipped {}  games {}  nodes {}  moves {}  variations {}  warnings {}  errors {}{illegal}\n{:.1} MB in {:.3} s ({:.1} MB/s)",
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
    crate::out::println(&s);
    Ok(crate::exit::status(usage, total.errors, total.warnings, args.strict))
}

/// The counts of one game, or of every game of an input read whole (and its illegal moves with
/// `replay`).
fn tally(game: kifu::stream::Game<'_>, replay: bool) -> Totals {
    let mut t = game.visit(TallyLoop);
    t.bytes = game.chunk.bytes.len() as u64;
    if replay {
        let mut again = game.events();
        t.illegal_moves = crate::replay::illegal_moves_in(&mut again, game.format).len() as u64;
    }
    t
}

/// The counts of the games of a reader, the loop compiled for its format's reader.
struct TallyLoop;

impl<'a> kifu::Visit<'a> for TallyLoop {
    type Output = Totals;

    fn visit<R>(self, reader: &mut R) -> Totals
    where
        R: EventSource + Iterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        let mut tally = Tally::default();
        for item in reader {
            match item {
                Ok(ev) => tally.feed(&ev),
                Err(_) => tally.totals.errors += 1,
            }
        }
        tally.totals
    }
}
