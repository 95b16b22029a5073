//! `kifu convert --to FORMAT [-o FILE|DIR] [--force] [--json] [--normalize] [--threads N] INPUTS...`: every game of every
//! input (files, directories, archives, compressed files, `-`) written in another format through
//! the format's writer:
//!
//! | `--to` | writer | a file holds |
//! |---|---|---|
//! | `sgf` | `kifu::sgf::write::NodeWriter` straight from the events, or `kifu::tree::Writer::sgf_with_repairs` where the events need a tree (FF[4], each repair reported) | every Go game of the input (a collection) |
//! | `csa`, `csa3` | `kifu::csa::write` (V2.2, V3.0), streaming the reader's events | every shogi game of the input, `/` between them |
//! | `kif`, `kifu` | `kifu::kif::write` (CP932, UTF-8), from a tree | every shogi game of the input, one after another |
//! | `usi` | `kifu::usi::write`, streaming (main line only) | every shogi game of the input, a line each |
//! | `ki2`, `ki2u` | `kifu::ki2::write` (CP932, UTF-8), streaming | every shogi game of the input, one after another |
//! | `jkf` | `kifu::jkf::write`, from a tree | one shogi game |
//! | `jgf`, `jgf1` | `kifu::jgf::write` (v2 as Seki, v1 as ngGo) | one Go game |
//! | `xml` | `kifu::jago::write` (Jago XML) | one Go game |
//! | `json` | `kifu::gocaml::write` (the Go game JSON snapshot) | one Go game |
//!
//! Where a file holds one game and an input has several, they go to `NAME.1.jgf`, `NAME.2.jgf`…
//! Output: without `-o`, standard output (every output one after the other); with one input file,
//! `-o FILE`; else `-o DIR`, each input at its path relative to the directory named (archive
//! members as folders), the target's extension added unless it has it (`a.sgf` → `a.sgf.jgf`,
//! `a.jgf` → `a.jgf`). A file that exists is never
//! overwritten without `--force`. A game the target cannot hold (shogi as SGF, Go as CSA) is
//! reported and left out. A progress bar runs on a terminal; the summary counts inputs, games
//! written, repairs, refused games, what was left out, warnings and errors of the inputs.
//!
//! What a target has no place for is counted as left out (`left_out` in `--json`) and said on
//! standard error:
//! - `kifu: a.kif: left out 57 events of variations (csa holds the main line only)` (`csa`,
//!   `csa3`, `usi`, `json`);
//! - `kifu: a.sgf: game at byte 0: left out 2 moves after a node's first (a JGF node holds one
//!   move)` (`jgf`, `jgf1`); for `xml`, `… (a Jago XML node holds one move; kept as an <SGF
//!   type="B|W"> property, not played)`: Jago XML readers, kifu's and GoGui's, read such an
//!   element back as an SGF property, not a move;
//! - `kifu: a.kifu: left out 3 characters CP932 cannot hold (written as &#N;)` (`kif`, `ki2`:
//!   Hangul, emoji, `☗`… in names and comments, written as numeric character references);
//! - `kifu: a.kif: left out 35 events USI has no place for (info, comments, times, endings other
//!   than USI's…)` (`usi`; likewise `kif`/`kifu`, `ki2`/`ki2u`, `csa`/`csa3`, `jkf` and `json`
//!   naming their own format and what it lacks): the events the writer's table of losses lists as not written
//!   (its `unwritten()` count; JKF's `write_counting`), a line per input (per game for `jkf`).
//!
//! The counting and the lines are `crate::losses`'s, shared with `kifu find --export`.
//!
//! `--normalize` reads every game through `kifu::dialect::Normalize` first: server dialects
//! (Fox, OGS, IGS) written in the standard form — Fox's `KM[325]` as `KM[6.5]`, the handicap
//! stones Fox leaves out as `AB`, `BR[9段]` as `BR[9d]`, OGS's nested main line flat — each rule
//! applied counted as a warning (its kind on standard error: `kifu: a.sgf: normalised
//! fox_komi_in_stones`).
//!
//! `--threads N` (0, the default: one per core): inputs are converted on worker threads and
//! written in input order, so the files, messages and summary are those of `--threads 1` (which
//! converts on the calling thread).
//!
//! Exit status (the rule of every subcommand): 2 for a usage or I/O problem (an output that
//! exists, a path that does not), else 1 when an input had errors or a game was refused, else 0.

use crate::json::Obj;
use crate::losses;
use crate::to::Target;
use bumpalo::Bump;
use kifu::tree::{Builder, GameTree};
use kifu::{Event, EventSource};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu convert`.
#[derive(clap::Args)]
#[command(after_help = "What a target has no place for is counted as left out (summary; `left_out` with --json) \
                  and said on standard error, e.g. `kifu: a.kif: left out 57 events of variations (csa holds \
                  the main line only)` (csa, csa3, usi, json), `kifu: a.sgf: game at byte 0: left out 2 moves after \
                  a node's first (a JGF node holds one move)` (jgf, jgf1; for xml: `(a Jago XML node holds \
                  one move; kept as an <SGF type=\"B|W\"> property, not played)`), `kifu: a.kifu: left out 3 \
                  characters CP932 cannot hold (written as &#N;)` (kif, ki2), `kifu: a.kif: left out 35 events USI \
                  has no place for (info, comments, times, endings other than USI's…)` (usi; kif, kifu, ki2, \
                  ki2u, csa, csa3, json alike, naming their own format; jkf a line per game). The exit status does not change.")]
pub struct Args {
    /// Files or directories (walked recursively); `-` is standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The format to write.
    #[arg(long, value_enum)]
    to: Target,
    /// Where to write: a file for one input file, else a directory (default: standard output).
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    /// Overwrite files that exist.
    #[arg(long)]
    force: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Normalise server dialects first (Fox komi in stones `KM[325]` → `KM[6.5]`, Fox's missing
    /// handicap stones, CJK ranks `9段` → `9d`, Fox dates, OGS's nested main line flattened,
    /// IGS's rank marks and split values); each rule applied is reported as a warning.
    #[arg(long)]
    normalize: bool,
    /// Worker threads: 0 (the default) one per core; 1 converts on the calling thread. Outputs, messages
    /// and the summary are the same for every count: inputs are written in order.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// What happened, for the summary, and what to say about it.
#[derive(Default, Clone)]
struct Totals {
    inputs: u64,
    skipped: u64,
    games: u64,
    files_written: u64,
    repairs: u64,
    refused: u64,
    /// Moves, events and characters the target has no place for, left out (a CSA or USI file's
    /// variations, a JGF or Jago XML node's moves after its first, the characters CP932 lacks in a KIF or
    /// KI2 file, written as `&#N;`, the events a KIF, KI2, USI or CSA writer has no place for),
    /// each input's said on standard error.
    left_out: u64,
    warnings: u64,
    errors: u64,
    usage: u64,
    /// The lines for standard error (repairs, errors, refused games), printed in input order
    /// when the input's outputs are written.
    log: String,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.skipped += o.skipped;
        self.games += o.games;
        self.repairs += o.repairs;
        self.refused += o.refused;
        self.left_out += o.left_out;
        self.warnings += o.warnings;
        self.errors += o.errors;
        self.log.push_str(&o.log);
    }

    /// Prints and clears the log.
    fn flush_log(&mut self) {
        if !self.log.is_empty() {
            crate::out::eprint(&self.log);
            self.log.clear();
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    if crate::exit::missing_paths(&args.paths) > 0 {
        return Ok(ExitCode::from(crate::exit::USAGE));
    }
    if let Some(out) = &args.output {
        crate::outpath::check(&args.paths, out)?;
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new_spinner();
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {pos} inputs {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut emit = Emit {
        args,
        single: crate::outpath::single(&args.paths),
        bar,
        t: Totals::default(),
        closed: false,
        written: std::collections::HashSet::new(),
    };
    let threads = args.threads.unwrap_or(0);
    if threads == 1 {
        // On this thread, one converter whose buffers serve every input.
        let mut conv = Converter::new(args.to);
        conv.normalize = args.normalize;
        // Each input read whole, into one buffer kept between inputs.
        let mut bytes = Vec::new();
        kifu::stream::for_each_input(&args.paths, |name, input| {
            if emit.closed {
                return;
            }
            let mut input = match input {
                Ok(i) if i.format.is_some() => i,
                Ok(_) => return emit.not_a_record(name),
                Err(e) => return emit.failed(name, &e),
            };
            let bytes = match kifu::stream::whole::read_all(&mut input.reader, &mut bytes) {
                Ok(b) => b,
                Err(e) => {
                    crate::out::eprint(&format!("kifu: {name}: {e}\n"));
                    emit.t.usage += 1;
                    return;
                }
            };
            emit.t.inputs += 1;
            let outputs = conv.convert(name, bytes, &mut emit.t);
            emit.t.flush_log();
            emit.outputs(name, &outputs);
        });
    } else {
        // Inputs converted on worker threads, each read whole (there is no size limit, as on one
        // thread), and their outputs written here in input order.
        let options =
            kifu::stream::Options { threads, whole: usize::MAX, config: kifu::Config::default(), ..Default::default() };
        let (to, normalize) = (args.to, args.normalize);
        let pool = Pool::default();
        let work = |game: kifu::stream::Game<'_>| {
            CONVERTER.with(|c| {
                let mut c = c.borrow_mut();
                let conv = c.get_or_insert_with(|| Converter::new(to));
                conv.normalize = normalize;
                conv.to = to;
                let mut t = Totals::default();
                conv.convert(game.input, game.chunk.bytes, &mut t);
                (t, conv.take_outputs(&pool))
            })
        };
        kifu::stream::read_games(&args.paths, &options, work, |name, result| match result {
            Err(e) if e.kind() == kifu::ErrorKind::NotAGameRecord => emit.not_a_record(name),
            Err(e) => emit.failed(name, &e),
            Ok((mut t, outputs)) => {
                emit.t.inputs += 1;
                t.flush_log();
                emit.t.add(&t);
                if !emit.closed {
                    let slices: Vec<&[u8]> = outputs.iter().map(Vec::as_slice).collect();
                    emit.outputs(name, &slices);
                }
                pool.give(outputs);
            }
        });
    }
    let Emit { bar, t, closed, .. } = emit;
    bar.finish_and_clear();
    if closed {
        return Ok(ExitCode::SUCCESS);
    }
    let mut s = String::new();
    if args.json {
        Obj::new(&mut s)
            .str("to", args.to.extension())
            .num("inputs", t.inputs)
            .num("skipped", t.skipped)
            .num("games", t.games)
            .num("files_written", t.files_written)
            .num("repairs", t.repairs)
            .num("refused", t.refused)
            .num("left_out", t.left_out)
            .num("warnings", t.warnings)
            .num("errors", t.errors)
            .end();
    } else {
        s = format!(
            "{} inputs ({} skipped): {} games written to {} files, {} repairs, {} refused, {} left out; {} warnings, {} errors",
            t.inputs,
            t.skipped,
            t.games,
            t.files_written,
            t.repairs,
            t.refused,
            t.left_out,
            t.warnings,
            t.errors
        );
    }
    // The summary goes to standard error when the records go to standard output.
    if args.output.is_none() {
        crate::out::eprint(&(s + "\n"));
    } else {
        crate::out::println(&s);
    }
    Ok(crate::exit::status(t.usage, t.errors + t.refused, t.warnings, false))
}

/// Output buffers going from the worker threads to the writing thread and back, so that their
/// memory is reused: a fresh buffer for every input would cost a page fault for every 4 KiB it
/// grows to (measured: 5,500–6,500 page faults against 2,200 on one thread, sgf/collections).
#[derive(Default)]
struct Pool(std::sync::Mutex<Vec<Vec<u8>>>);

impl Pool {
    /// At most this many buffers wait in the pool (the stream layer keeps `2 × threads + 2`
    /// inputs in flight); more are freed.
    const KEEP: usize = 16;

    /// The pool's largest buffer, empty, or a new one.
    fn take(&self) -> Vec<u8> {
        let Ok(mut pool) = self.0.lock() else { return Vec::new() };
        let largest = (0..pool.len()).max_by_key(|&i| pool[i].capacity());
        largest.map(|i| pool.swap_remove(i)).unwrap_or_default()
    }

    /// Gives written buffers back.
    fn give(&self, buffers: Vec<Vec<u8>>) {
        let Ok(mut pool) = self.0.lock() else { return };
        for mut b in buffers {
            if pool.len() < Pool::KEEP && b.capacity() > 0 {
                b.clear();
                pool.push(b);
            }
        }
    }
}

thread_local! {
    /// A worker thread's converter (its buffers serve every input the thread converts).
    static CONVERTER: std::cell::RefCell<Option<Converter>> = const { std::cell::RefCell::new(None) };
}

/// Where converted inputs go, in input order: files or standard output, and the summary's counts.
struct Emit<'a> {
    args: &'a Args,
    /// One input file: `-o` names the output file.
    single: bool,
    bar: indicatif::ProgressBar,
    t: Totals,
    /// Standard output closed (`| head`): nothing more is written.
    closed: bool,
    written: std::collections::HashSet<PathBuf>,
}

impl Emit<'_> {
    /// An input that is not a game record: skipped, and a usage problem when named.
    fn not_a_record(&mut self, name: &str) {
        self.t.skipped += 1;
        if crate::exit::named(&self.args.paths, name) {
            crate::out::eprint(&format!("kifu: {name}: not a game record kifu can read\n"));
            self.t.usage += 1;
        }
    }

    /// An input that could not be opened or read.
    fn failed(&mut self, name: &str, e: &kifu::Error) {
        if e.kind() == kifu::ErrorKind::NotAGameRecord {
            self.t.skipped += 1;
            return;
        }
        crate::out::eprint(&format!("kifu: {name}: {}\n", e.message()));
        self.t.usage += 1;
    }

    /// Writes the outputs of input `name` (see the module docs for where).
    fn outputs(&mut self, name: &str, outputs: &[&[u8]]) {
        let args = self.args;
        self.bar.inc(1);
        let many = outputs.len() > 1;
        for (i, out) in outputs.iter().enumerate() {
            let Some(dir_or_file) = &args.output else {
                self.closed = self.closed || !crate::out::print_bytes(out);
                continue;
            };
            let target = if self.single {
                dir_or_file.clone()
            } else {
                dir_or_file.join(crate::outpath::under(&args.paths, name, args.to.extension()))
            };
            let target = if many { crate::outpath::numbered(&target, i + 1) } else { target };
            if (target.exists() && !args.force) || self.written.contains(&target) {
                crate::out::eprint(&format!("kifu: {}: exists (use --force to overwrite)\n", target.display()));
                self.t.usage += 1;
                continue;
            }
            if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    crate::out::eprint(&format!("kifu: {}: {e}\n", dir.display()));
                    self.t.usage += 1;
                    continue;
                }
            }
            match std::fs::write(&target, out) {
                Ok(()) => {
                    self.t.files_written += 1;
                    self.written.insert(target);
                }
                Err(e) => {
                    crate::out::eprint(&format!("kifu: {}: {e}\n", target.display()));
                    self.t.usage += 1;
                }
            }
        }
        self.bar.set_message(format!("{} games", self.t.games));
    }
}

/// The writers, kept between inputs (their buffers and stacks are reused).
struct Converter {
    to: Target,
    /// `--normalize`: read through `kifu::dialect::Normalize`.
    normalize: bool,
    builder: Builder,
    sgf: kifu::tree::Writer,
    jgf: kifu::jgf::write::Writer,
    jago: kifu::jago::write::Writer,
    gocaml: kifu::gocaml::write::Writer,
    repairs: Vec<kifu::sgf::write::Repair>,
    kif_cp932: kifu::kif::write::Writer,
    kif_utf8: kifu::kif::write::Writer,
    /// What the JKF writer left out of the last game (`kifu::jkf::write::write_counting`).
    jkf_left_out: u64,
    /// The outputs of the last input (kept: their memory is reused), and the streamed SGF's.
    outputs: Vec<Vec<u8>>,
    stream_out: Vec<u8>,
    /// The last input's output is `stream_out` (not `outputs`).
    streamed_sgf: bool,
}

impl Converter {
    fn new(to: Target) -> Converter {
        Converter {
            to,
            normalize: false,
            builder: Builder::new(),
            sgf: kifu::tree::Writer::new(),
            jgf: kifu::jgf::write::Writer::new(),
            jago: kifu::jago::write::Writer::new(),
            gocaml: kifu::gocaml::write::Writer::new(),
            repairs: Vec::new(),
            jkf_left_out: 0,
            kif_cp932: kifu::kif::write::Writer::new(kifu::kif::write::Options {
                encoding: kifu::kif::write::Encoding::Cp932,
                ..Default::default()
            }),
            kif_utf8: kifu::kif::write::Writer::new(kifu::kif::write::Options {
                encoding: kifu::kif::write::Encoding::Utf8,
                ..Default::default()
            }),
            outputs: Vec::new(),
            stream_out: Vec::new(),
            streamed_sgf: false,
        }
    }

    /// The last input's outputs, owned (for another thread to write): the streamed SGF's
    /// buffer is replaced by one from `pool`, so no output is copied.
    fn take_outputs(&mut self, pool: &Pool) -> Vec<Vec<u8>> {
        if self.streamed_sgf {
            if self.stream_out.is_empty() {
                return Vec::new();
            }
            return vec![std::mem::replace(&mut self.stream_out, pool.take())];
        }
        std::mem::take(&mut self.outputs)
    }

    /// The outputs of one input: one for a collection format, one per game otherwise.
    fn convert(&mut self, name: &str, bytes: &[u8], t: &mut Totals) -> Vec<&[u8]> {
        self.outputs.clear();
        self.streamed_sgf = false;
        let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else {
            t.skipped += 1;
            return Vec::new();
        };
        if matches!(self.to, Target::Csa | Target::Csa3 | Target::Usi | Target::Ki2 | Target::Ki2u) {
            self.outputs = self.streamed(name, &mut reader, t);
            return self.outputs.iter().map(Vec::as_slice).collect();
        }
        if self.to == Target::Sgf {
            // Streamed when the events allow it (no tree to build); else through the tree.
            let mut counts = Totals::default();
            self.stream_out.clear();
            let out = &mut self.stream_out;
            let normalize = self.normalize;
            if let Some(()) = reader.visit(SgfStream { name, out, t: &mut counts, normalize }) {
                t.add(&counts);
                self.streamed_sgf = true;
                return if self.stream_out.is_empty() { Vec::new() } else { vec![&self.stream_out] };
            }
            let Some(again) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return Vec::new() };
            reader = again;
        }
        let mut outputs = std::mem::take(&mut self.outputs);
        let running_before = self.running_counts();
        let mut bump = Bump::new();
        let mut out = Vec::new();
        let store = Bump::new();
        let mut normalized;
        let source: &mut dyn EventSource = if self.normalize {
            normalized = kifu::dialect::Normalize::with_store(reader.by_ref().map(shorten), &store);
            &mut normalized
        } else {
            &mut reader
        };
        loop {
            bump.reset();
            match self.builder.build(&bump, source) {
                Ok(None) => break,
                Ok(Some(tree)) => {
                    t.warnings += tree.warnings().len() as u64;
                    for w in tree.warnings() {
                        if kifu::dialect::RULES.contains(&w.kind) {
                            t.log.push_str(&format!("kifu: {name}: normalised {}\n", w.kind.as_str()));
                        }
                    }
                    match self.write(&tree, &mut out) {
                        Ok(()) => {
                            t.games += 1;
                            let lost = match self.to {
                                Target::Jgf | Target::Jgf1 => losses::node_moves(self.jgf.moves_left_out()),
                                Target::Xml => losses::node_moves(self.jago.moves_left_out()),
                                Target::Jkf => losses::unwritten(self.jkf_left_out),
                                _ => losses::Counts::default(),
                            };
                            let at = format!("{name}: game at byte {}", tree.offset());
                            lost.report(&at, self.to, &mut t.left_out, &mut t.log);
                            if !self.to.collection() {
                                outputs.push(std::mem::take(&mut out));
                            }
                        }
                        Err(why) => {
                            t.refused += 1;
                            t.log.push_str(&format!(
                                "kifu: {name}: game at byte {}: not written: {why}\n",
                                tree.offset()
                            ));
                        }
                    }
                }
                Err(e) => record_error(name, &e, t),
            }
        }
        self.running_counts().since(running_before).report(name, self.to, &mut t.left_out, &mut t.log);
        for r in self.repairs.drain(..) {
            t.repairs += 1;
            t.log.push_str(&format!("kifu: {name}: repair {}: {}\n", r.kind.as_str(), r.message()));
        }
        if self.to.collection() && !out.is_empty() {
            outputs.push(out);
        }
        self.outputs = outputs;
        self.outputs.iter().map(Vec::as_slice).collect()
    }

    /// The running loss counts of the target's writer when it keeps them across games (the KIF
    /// writers, the Go game JSON snapshot's; none for another target).
    fn running_counts(&self) -> losses::Counts {
        match self.to {
            Target::Kif => losses::kif(&self.kif_cp932),
            Target::Kifu => losses::kif(&self.kif_utf8),
            Target::Json => losses::gocaml(&self.gocaml),
            _ => losses::Counts::default(),
        }
    }

    fn write(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), String> {
        match self.to {
            Target::Sgf => {
                self.sgf.sgf_with_repairs(tree, out, &mut self.repairs).map_err(|e| e.to_string())?;
                out.push(b'\n');
                Ok(())
            }
            Target::Jgf => self.jgf.write(tree, kifu::jgf::write::Version::V2, out).map_err(|e| e.to_string()),
            Target::Jgf1 => self.jgf.write(tree, kifu::jgf::write::Version::V1, out).map_err(|e| e.to_string()),
            Target::Xml => self.jago.write(tree, out).map_err(|e| e.to_string()),
            Target::Json => self.gocaml.write(tree, out).map_err(|e| e.to_string()),
            Target::Jkf => {
                self.jkf_left_out = kifu::jkf::write::write_counting(tree, out).map_err(|e| e.to_string())?;
                Ok(())
            }
            Target::Kif => self.kif_cp932.write(tree, out).map_err(|e| e.to_string()),
            Target::Kifu => self.kif_utf8.write(tree, out).map_err(|e| e.to_string()),
            Target::Csa | Target::Csa3 | Target::Usi | Target::Ki2 | Target::Ki2u => {
                unreachable!("CSA, USI and KI2 stream events")
            }
        }
    }

    /// CSA streams: every event of the reader to the writer, a refused (Go) game reported.
    fn streamed(&mut self, name: &str, reader: &mut kifu::AnyReader<'_>, t: &mut Totals) -> Vec<Vec<u8>> {
        use kifu::csa::write::{Version, Writer};
        let mut out = Vec::new();
        let games = match self.to {
            Target::Ki2 | Target::Ki2u => {
                let charset =
                    if self.to == Target::Ki2 { kifu::text::Charset::ShiftJis } else { kifu::text::Charset::Utf8 };
                let mut w = kifu::ki2::write::Writer::new(charset);
                let go = reader.format().kind() == kifu::GameKind::Go;
                stream_events(name, reader, t, &mut out, |ev, out| {
                    if go {
                        return Err("KI2 holds shogi games only".to_string());
                    }
                    w.event(ev, out);
                    Ok(())
                });
                losses::ki2(&w).report(name, self.to, &mut t.left_out, &mut t.log);
                w.games()
            }
            Target::Usi => {
                let mut w = kifu::usi::write::Writer::new();
                stream_events(name, reader, t, &mut out, |ev, out| {
                    w.event(ev, out).map_err(|e| e.message().to_string())
                });
                losses::usi(&w).report(name, self.to, &mut t.left_out, &mut t.log);
                w.games()
            }
            _ => {
                let mut w = Writer::new(if self.to == Target::Csa3 { Version::V30 } else { Version::V22 });
                stream_events(name, reader, t, &mut out, |ev, out| {
                    w.event(ev, out).map_err(|e| e.message().to_string())
                });
                losses::csa(&w).report(name, self.to, &mut t.left_out, &mut t.log);
                w.games()
            }
        };
        t.games += games;
        if out.is_empty() {
            Vec::new()
        } else {
            vec![out]
        }
    }
}

/// Every event of `reader` to `write` (a streaming writer: CSA, USI); a refused game reported
/// once.
fn stream_events(
    name: &str,
    reader: &mut kifu::AnyReader<'_>,
    t: &mut Totals,
    out: &mut Vec<u8>,
    mut write: impl FnMut(&Event<'_>, &mut Vec<u8>) -> Result<(), String>,
) {
    let mut refused_here = false;
    let mut at = 0;
    while let Some(item) = reader.next_event() {
        match item {
            Ok(ev) => {
                if let Event::Warning(_) = ev {
                    t.warnings += 1;
                }
                if let Event::GameStart { offset } = ev {
                    refused_here = false;
                    at = offset;
                }
                if let Err(e) = write(&ev, out) {
                    if !refused_here {
                        refused_here = true;
                        t.refused += 1;
                        // Named as the tree writers' refusals are (the game, by its offset).
                        t.log.push_str(&format!("kifu: {name}: game at byte {at}: not written: {e}\n"));
                    }
                }
            }
            Err(e) => record_error(name, &e, t),
        }
    }
}

/// SGF straight from the events through `NodeWriter`, building no tree: what the tree writer
/// writes, except that every variation keeps its parentheses. `None` (the caller goes through
/// the tree) when the events need a tree: a sibling branch (Jago's form), a game type other
/// than Go (the root names it before the events that say it), or a board size after a point
/// (points are checked against it).
/// Monomorphised over the format's reader ([`kifu::Visit`]): no dispatch per event.
struct SgfStream<'n> {
    name: &'n str,
    /// `--normalize`: the events go through `kifu::dialect::Normalize` first.
    normalize: bool,
    /// Where the SGF goes (empty; kept between inputs, so its memory is reused).
    out: &'n mut Vec<u8>,
    t: &'n mut Totals,
}

impl<'a> kifu::Visit<'a> for SgfStream<'_> {
    type Output = Option<()>;

    fn visit<R>(self, reader: &mut R) -> Option<()>
    where
        R: kifu::EventSource + Iterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        if self.normalize {
            let store = Bump::new();
            self.run(kifu::dialect::Normalize::with_store(reader.by_ref().map(shorten), &store))
        } else {
            self.run(reader.by_ref())
        }
    }
}

/// An item of a reader with its lifetime shortened to a store's (events are covariant).
fn shorten<'s, 'l: 's>(item: Result<Event<'l>, kifu::Error>) -> Result<Event<'s>, kifu::Error> {
    item
}

impl SgfStream<'_> {
    fn run<'e>(self, items: impl Iterator<Item = Result<Event<'e>, kifu::Error>>) -> Option<()> {
        let SgfStream { name, out, t, .. } = self;
        use kifu::sgf::write::NodeWriter;
        use kifu::{Branch, InfoKey};
        let mut w = NodeWriter::new();
        let mut repairs = Vec::new();
        // Where the game's output starts; whether its root node is open and no node came yet;
        // a branch opened and its first node not yet written; the game was refused.
        let (mut start, mut root, mut branch, mut refused) = (0, false, false, false);
        // A node not written yet (whether it opens a variation): the event after it says
        // whether it opens with a move, the common node written in one piece.
        let mut node: Option<bool> = None;
        let mut at = 0;
        // A point was written in this game (a board size after it needs the tree's look-ahead).
        let mut pointed = false;
        // How many variations are open, and the depths of those whose `(` was not written: a
        // variation with no node before its own variations (`((;W[ah])(;W[ai]))`), whose `)`
        // is left out too.
        let mut depth = 0usize;
        let mut unwritten: Vec<usize> = Vec::new();
        // (A property right after a variation's `)` belongs to no node the stream can write,
        // `(;W[ah];)B[ai]`: the tree writes that game. Only a variation's end leaves `)` last.)
        for item in items {
            let ev = match item {
                Ok(ev) => ev,
                Err(e) => {
                    // The tree path writes nothing of a game with an error either.
                    out.truncate(start);
                    record_error(name, &e, t);
                    refused = true;
                    node = None;
                    continue;
                }
            };
            match ev {
                Event::Move(kifu::Move::Go { color, point }) if !refused => {
                    pointed = true;
                    match node.take() {
                        Some(paren) => w.move_node(paren, color, point, out, &mut repairs),
                        None if out.last() == Some(&b')') => return None,
                        None => w.go_move(color, point, out, &mut repairs),
                    }
                    continue;
                }
                Event::Node if !refused && !root => {
                    if let Some(paren) = node.replace(branch) {
                        w.start_node(paren, out);
                    }
                    branch = false;
                    continue;
                }
                _ => {}
            }
            if let Some(paren) = node.take() {
                w.start_node(paren, out);
            }
            match ev {
                Event::GameStart { offset } => {
                    start = out.len();
                    at = offset;
                    refused = false;
                    w.begin_game(out);
                    out.extend_from_slice(b"(;");
                    w.root(None, out, &mut repairs);
                    root = true;
                    pointed = false;
                    branch = false;
                    depth = 0;
                    unwritten.clear();
                }
                _ if refused => {}
                Event::Node => root = false,
                Event::VariationStart(Branch::Child) => {
                    if branch {
                        unwritten.push(depth.saturating_sub(1));
                    }
                    depth += 1;
                    root = false;
                    branch = true;
                }
                Event::VariationStart(_) => return None,
                Event::VariationEnd => {
                    depth = depth.saturating_sub(1);
                    if branch {
                        // A variation with no node at all: nothing was written for it.
                        branch = false;
                    } else if unwritten.last() == Some(&depth) {
                        unwritten.pop();
                    } else {
                        out.push(b')');
                    }
                }
                Event::GameEnd { .. } => {
                    out.extend_from_slice(b")\n");
                    t.games += 1;
                    for r in repairs.drain(..) {
                        t.repairs += 1;
                        t.log.push_str(&format!("kifu: {name}: repair {}: {}\n", r.kind.as_str(), r.message()));
                    }
                }
                Event::Warning(w) => {
                    t.warnings += 1;
                    if kifu::dialect::RULES.contains(&w.kind) {
                        t.log.push_str(&format!("kifu: {name}: normalised {}\n", w.kind.as_str()));
                    }
                }
                Event::Info(i) if i.key() == InfoKey::GameType => {
                    let value = i.value();
                    let d;
                    let v = match value.as_plain_ascii() {
                        Some(s) => s,
                        None => {
                            d = value.decode();
                            &d.text
                        }
                    };
                    if !matches!(v.trim(), "1" | "go" | "Go" | "baduk" | "weiqi" | "igo") {
                        return None;
                    }
                }
                ev => {
                    if out.last() == Some(&b')') && kifu::sgf::write::writes(&ev) {
                        return None;
                    }
                    match &ev {
                        // (`NodeWriter::event` takes the board's size from it.)
                        Event::Info(i) if i.key() == InfoKey::BoardSize && pointed => return None,
                        Event::Move(_) | Event::Setup(_) | Event::Markup(_) => pointed = true,
                        _ => {}
                    }
                    if let Err(e) = w.event(&ev, out, &mut repairs) {
                        out.truncate(start);
                        repairs.clear();
                        refused = true;
                        t.refused += 1;
                        t.log.push_str(&format!("kifu: {name}: game at byte {at}: not written: {e}\n"));
                    }
                }
            }
        }
        Some(())
    }
}

/// An error in an input's record: counted and reported on standard error with its position.
fn record_error(name: &str, e: &kifu::Error, t: &mut Totals) {
    t.errors += 1;
    let p = e.position();
    t.log.push_str(&format!("kifu: {name}:{}:{}: {}: {}\n", p.line, p.column, e.kind().as_str(), e.message()));
}
