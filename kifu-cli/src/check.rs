//! `kifu check [--json] [--strict] [--replay] PATH...`: every warning and error of every game
//! record under PATHs (files, directories, `-`, compressed files, archive members), as `path:line:column: kind: message` lines (`kind` is the stable name of the warning
//! or error kind), then a summary. Exit status 1 when there are errors.
//!
//! Besides the readers' warnings, each file is checked against its format's own rules
//! ([`kifu::lint()`]: SGF's FF[4] property, node and value rules, CSA's order of statements), and
//! every message ends with an excerpt of the input where the finding stands (`PB[Lee]`). `-v`
//! names each skipped file (not a game record; a FIFO, socket or device in a directory) on
//! standard error.
//!
//! With `--fix -o OUT`, each Go record is also written repaired as SGF FF[4] (see `fix.rs`), each
//! repair listed (`path: game at byte N: repair KIND: message`; in JSON `fixed`, `repairs` and
//! `refused`). The exit status stays that of the records as read.
//!
//! With `--replay`, every game is also replayed on a board and each illegal move is reported as a
//! warning of kind `illegal_move`. A USI move that reads but cannot be played is reported by the
//! reader itself, as its own `illegal_move` warning, with or without `--replay` (once: USI names
//! no piece, so the reader gives no move to replay); so is a KI2 move no piece can make, as the
//! reader's `no_piece_can_move` warning. A CSA move by the side not to move is reported once too,
//! as `kifu::csa::check`'s `wrong_side` warning, with or without `--replay` (the replay's own
//! `illegal_move: wrong_side` for the same move is left out; it still counts in `kifu stats
//! --replay`'s `illegal_moves`), and so is a KI2 move whose mark names the side not to move, as
//! the reader's own `wrong_side` warning (the replay then plays it as its mark's side, as the
//! reader does).
//!
//! Inputs are checked on worker threads (`--threads N`; 0, the default, one per core), their
//! findings handed back and written in input order (the output does not depend on N), a
//! megabyte at a time (see `Report`). An input of up to 16 MiB is checked whole; a larger one
//! game by game, as the streams layer cuts it (memory: a few games, not the input), its findings
//! located at the same lines, columns and offsets of the input; a warning about bytes between
//! its games then quotes nothing, and an excerpt stops at its game's end; under `--strict`,
//! junk after a game that ended in an error is an error too (as `kifu stats --strict` counts
//! it), where a whole reading skips it while it recovers. With `--fix`, every input is read
//! whole. An input's findings are in file order (`--replay`'s among the others).
//!
//! With `--json`, one object: `files`, `skipped`, `games`, `warnings`, `errors`, `problems`, a
//! list of `{path, line, column, offset, severity ("warning" or "error"), kind, message}`, and
//! `by_kind`, a list of `{kind, severity, count}`, most frequent first (the text output gives the
//! same table just before its last line, the summary). `--select KIND,…` reports only those kinds, `--ignore KIND,…` all but
//! those; the kinds left out count neither as warnings nor as errors (nor for the exit status).

use crate::json::Obj;
use kifu::{Event, EventSource};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu check`.
#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (walked recursively); `-` is standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    json: bool,
    /// Turn warnings into errors.
    #[arg(long)]
    strict: bool,
    /// Also replay every game on a board and report each illegal move (as a warning of kind
    /// `illegal_move`, e.g. `illegal_move: occupied (move 242)`). USI's and KI2's readers report
    /// theirs themselves (`illegal_move`, `no_piece_can_move`), and CSA's rules a move by the side
    /// not to move (`wrong_side`), with or without `--replay`.
    #[arg(long)]
    replay: bool,
    /// Report only these kinds (comma-separated stable names, e.g. `junk_before_game,illegal_move`).
    #[arg(long, value_delimiter = ',', value_name = "KIND")]
    select: Vec<String>,
    /// Do not report these kinds (comma-separated stable names); they count neither as warnings
    /// nor as errors.
    #[arg(long, value_delimiter = ',', value_name = "KIND")]
    ignore: Vec<String>,
    /// Name each skipped file on standard error (files that are not game records, and the
    /// FIFOs, sockets and devices a directory walk leaves unopened).
    #[arg(short, long)]
    verbose: bool,
    /// Write each Go record, repaired, as SGF FF[4] to `-o OUT` (a file for one input file, else
    /// a directory), and list each repair (`comment_joined`, `move_split`, `off_board`…).
    #[arg(long, requires = "output")]
    fix: bool,
    /// Where `--fix` writes.
    #[arg(short, long, value_name = "OUT", requires = "fix")]
    output: Option<PathBuf>,
    /// Let `--fix` overwrite existing files.
    #[arg(long, requires = "fix")]
    force: bool,
    /// Worker threads: 0 (the default) one per core; 1 checks on the calling thread. The output
    /// is the same whatever the count (findings in input order).
    #[arg(long)]
    threads: Option<usize>,
}

/// One warning or error.
pub struct Problem {
    pub path: String,
    pub position: kifu::Position,
    pub error: bool,
    pub kind: &'static str,
    pub message: String,
}

/// What checking one unit of input found: a whole input, or one game of an input too large to
/// be read whole (see `run`).
#[derive(Default)]
struct Checked {
    /// The unit starts its input (a whole input, or the first game of a larger one read from
    /// its first byte): an input named twice is two files, as it is read twice.
    top: bool,
    games: u64,
    problems: Vec<Problem>,
    /// `--fix`: the repaired records (written on the calling thread, in input order), the
    /// repairs made and the games not written (offset, why).
    fixed: Vec<u8>,
    repairs: Vec<crate::fix::Fixed>,
    refused: Vec<(u64, String)>,
}

/// Every problem of one unit of input (`game.chunk`: a whole input from offset 0, or one game
/// cut from a larger one, whose offsets, lines and columns are moved to the whole input), and
/// the number of games. With `replay`, the illegal moves too.
fn check_game(game: &kifu::stream::Game<'_>, replay: bool) -> (u64, Vec<Problem>) {
    let (path, chunk, config) = (game.input, &game.chunk, game.config);
    // The unit's bytes, and where they start in the input: findings are located in the input,
    // their excerpts quoted from the unit.
    let (bytes, base) = (chunk.bytes, chunk.offset);
    let within = |offset: u64| offset.checked_sub(base).filter(|&o| o < bytes.len() as u64);
    let mut reader = game.events();
    let mut problems = Vec::new();
    let mut warnings: Vec<(kifu::Warning, bool)> = Vec::new();
    let mut games = 0;
    // The input's charset, as its texts say (its excerpts are decoded in it).
    let mut charset = kifu::text::Charset::Utf8;
    loop {
        let warning = match reader.next_event() {
            None => break,
            Some(Ok(Event::GameStart { .. })) => {
                games += 1;
                None
            }
            Some(Ok(Event::Info(i))) => {
                charset = i.value().charset();
                None
            }
            Some(Ok(Event::Warning(w))) => Some(w),
            Some(Ok(_)) => None,
            Some(Err(e)) => {
                let (kind, message) = match e.kind() {
                    // A warning made an error by --strict keeps its own kind's name and, as the
                    // warning would, ends with the input where it stands.
                    kifu::ErrorKind::Strict(w) => match within(e.offset()) {
                        Some(at) => (w.as_str(), with_quote(bytes, e.message(), at, charset)),
                        None => (w.as_str(), e.message().to_string()),
                    },
                    k => (k.as_str(), e.message().to_string()),
                };
                problems.push(Problem { path: path.to_string(), position: e.position(), error: true, kind, message });
                None
            }
        };
        if let Some(w) = warning {
            warnings.push((w, false));
        }
    }
    // The checks of the format's specification that reading does not make.
    let mut found = Vec::new();
    kifu::lint(game.format, bytes, &mut found);
    let strict = config.mode == kifu::Mode::Strict;
    warnings.extend(found.into_iter().map(|w| (kifu::Warning { offset: w.offset + base, ..w }, strict)));
    // Located in the order of their offsets: the reader's line index then goes over the input
    // once (out of order, it started again from the top for each: quadratic on a big file).
    warnings.sort_by_key(|(w, _)| w.offset);
    for (w, error) in warnings {
        let message = match within(w.offset) {
            Some(at) => describe(bytes, &kifu::Warning { offset: at, ..w }, charset),
            // Junk before the game, which the splitter cut off: the kind's message alone.
            None => w.kind.message().to_string(),
        };
        problems.push(Problem {
            path: path.to_string(),
            position: reader.locate(w.offset),
            error,
            kind: w.kind.as_str(),
            message,
        });
    }
    problems.sort_by_key(|p| p.position.offset);
    if replay {
        // The moves the format's own rules found played by the side not to move (CSA's
        // `wrong_side`), which the replay must not report again.
        let wrong_side: Vec<u64> = problems
            .iter()
            .filter(|p| p.kind == kifu::WarningKind::WrongSide.as_str())
            .map(|p| p.position.offset)
            .collect();
        // One finding per move: a move the reader refused is reported already, by its own
        // warning (USI's `illegal_move`, KI2's `no_piece_can_move`), and a CSA move by the side
        // not to move by `kifu::csa::check`'s `wrong_side`.
        let reported = |m: &crate::replay::Illegal| {
            m.by_reader
                || (m.kind == kifu::position::shogi::Illegal::WrongSide.as_str() && wrong_side.contains(&m.offset))
        };
        // Located with a line index of their own (one pass over the unit when they come in file
        // order, as they do but for a shogi variation the reader gives before one above it).
        let mut lines = kifu::LineIndex::new();
        let mut again = game.events();
        for m in crate::replay::illegal_moves_in(&mut again, game.format).into_iter().filter(|m| !reported(m)) {
            let p = lines.locate(bytes, m.offset.saturating_sub(base));
            problems.push(Problem {
                path: path.to_string(),
                position: p.shifted(base, chunk.line, chunk.column),
                error: false,
                kind: "illegal_move",
                message: format!("{} (move {})", m.kind, m.number),
            });
        }
        // In file order with the rest (after a finding of the reading at the same place): the
        // same order whether the input is checked whole or game by game.
        problems.sort_by_key(|p| p.position.offset);
    }
    (games, problems)
}

/// Refuses a `--select` or `--ignore` kind that no problem has (a typo would hide every
/// problem, or none, and leave a clean exit code).
fn check_kinds(args: &Args) -> Result<(), String> {
    // Every name a problem can have: an error made of a warning by `--strict` keeps the
    // warning's name, so `strict` is none.
    let mut all: Vec<&str> = kifu::ErrorKind::NAMES.into_iter().filter(|&n| n != "strict").collect();
    all.extend(kifu::WarningKind::ALL.iter().map(|w| w.as_str()));
    for (flag, kinds) in [("--select", &args.select), ("--ignore", &args.ignore)] {
        if let Some(k) = kinds.iter().find(|k| !all.contains(&k.as_str())) {
            all.sort_unstable();
            all.dedup();
            return Err(format!("check {flag}: unknown kind `{k}`; the kinds are {}", all.join(", ")));
        }
    }
    Ok(())
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    check_kinds(args)?;
    let config = if args.strict { kifu::Config::strict() } else { kifu::Config::default() };
    // --fix: checked before anything is read, so a usage error creates nothing.
    let plan = match &args.output {
        Some(out) if args.fix => Some(crate::fix::Plan::new(&args.paths, out, args.force)?),
        _ => None,
    };
    let (mut repairs, mut fixed) = (Vec::new(), 0u64);
    let mut refused: Vec<(String, u64, String)> = Vec::new();
    let (mut files, mut skipped, mut games) = (0u64, 0u64, 0u64);
    let mut report = Report::new(args);
    // Problems with the arguments themselves (exit status 2): a path that cannot be read, a
    // file named on the command line that is not a game record. They are listed with the rest.
    let mut usage = 0u64;
    // Every input through the streams layer: files, directories, `-`, compressed files and
    // archive members (named `archive.zip!member.sgf`), on worker threads, the findings handed
    // back in input order. An input of up to 16 MiB is checked whole; a larger one game by game
    // (memory: a game, not the input), its findings located in the whole input. With `--fix`,
    // every input is read whole (it is rewritten whole).
    let options = kifu::stream::Options {
        config,
        threads: args.threads.unwrap_or(0),
        whole: if plan.is_some() { usize::MAX } else { kifu::stream::whole::WHOLE_LIMIT },
        ..Default::default()
    };
    let replay = args.replay;
    let work = |game: kifu::stream::Game<'_>| -> Checked {
        let (games, problems) = check_game(&game, replay);
        let top = game.chunk.offset == 0 && game.chunk.junk.is_none();
        let mut checked = Checked { top, games, problems, ..Checked::default() };
        if plan.is_some() {
            let (bytes, name) = (game.chunk.bytes, game.input);
            checked.fixed = crate::fix::Plan::repair(
                name,
                bytes,
                kifu::Config::default(),
                &mut checked.repairs,
                &mut checked.refused,
            );
        }
        checked
    };
    let mut last_input = String::new();
    kifu::stream::read_games(&args.paths, &options, work, |name, result| match result {
        Ok(checked) => {
            if name != last_input || checked.top {
                files += 1;
                last_input.clear();
                last_input.push_str(name);
            }
            games += checked.games;
            report.extend(checked.problems);
            repairs.extend(checked.repairs);
            refused.extend(checked.refused.into_iter().map(|(at, why)| (name.to_string(), at, why)));
            if let Some(plan) = &plan {
                // Written here, one input after another: an output that two inputs would both
                // write is the second one's "exists", whatever the threads.
                match plan.write(name, &checked.fixed) {
                    Ok(written) => fixed += written.is_some() as u64,
                    Err(e) => {
                        crate::out::eprint(&format!("kifu: {e}\n"));
                        usage += 1;
                    }
                }
            }
        }
        // Not a game record (a README; a FIFO, socket or device in a directory): skipped. One
        // named on the command line is a usage problem, listed with the rest.
        Err(e) if e.kind() == kifu::ErrorKind::NotAGameRecord => {
            skipped += 1;
            if args.verbose {
                crate::out::eprint(&format!("kifu: skipped {name}: {}\n", e.message()));
            }
            if crate::exit::named(&args.paths, name) {
                usage += 1;
                report.push(Problem {
                    path: name.to_string(),
                    position: kifu::Position::default(),
                    error: true,
                    kind: kifu::ErrorKind::NotAGameRecord.as_str(),
                    message: "not a game record kifu can read".to_owned(),
                });
            }
        }
        // An input that cannot be opened or read (of one read game by game, the games read
        // before the error are checked).
        Err(e) => {
            usage += (crate::exit::named(&args.paths, name) && e.kind() == kifu::ErrorKind::Io) as u64;
            report.push(Problem {
                path: name.to_string(),
                position: e.position(),
                error: true,
                kind: e.kind().as_str(),
                message: e.message().to_string(),
            });
        }
    });
    let Report { json: mut list, mut spilled, spilled_path, mut out, errors, warnings, mut by_kind, open, .. } = report;
    by_kind.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    if args.json {
        list.push(']');
        let mut fixes = String::from("[");
        for (i, f) in repairs.iter().enumerate() {
            if i > 0 {
                fixes.push(',');
            }
            Obj::new(&mut fixes)
                .str("path", &f.path)
                .num("game_offset", f.game)
                .num("node", f.repair.node.unwrap_or(0))
                .str("kind", f.repair.kind.as_str())
                .str("property", &f.repair.property)
                .str("value", &f.repair.value)
                .str("message", &f.repair.message())
                .end();
        }
        fixes.push(']');
        let mut refusals = String::from("[");
        for (i, (path, at, why)) in refused.iter().enumerate() {
            if i > 0 {
                refusals.push(',');
            }
            Obj::new(&mut refusals).str("path", path).num("game_offset", *at).str("message", why).end();
        }
        refusals.push(']');
        let mut obj = Obj::new(&mut out);
        let obj = if plan.is_some() {
            obj.num("fixed", fixed).raw("repairs", &fixes).raw("refused", &refusals)
        } else {
            &mut obj
        };
        obj.num("files", files)
            .num("skipped", skipped)
            .num("games", games)
            .num("warnings", warnings)
            .num("errors", errors)
            // The list (the bulk of the output) is written between the object's two halves,
            // not copied into it.
            .raw("problems", PROBLEMS_HERE)
            .raw("by_kind", &{
                let mut k = String::from("[");
                for (i, (kind, error, n)) in by_kind.iter().enumerate() {
                    if i > 0 {
                        k.push(',');
                    }
                    Obj::new(&mut k)
                        .str("kind", kind)
                        .str("severity", if *error { "error" } else { "warning" })
                        .num("count", n)
                        .end();
                }
                k.push(']');
                k
            })
            .end();
        out.push('\n');
    } else {
        // The problems' lines are written already (`Report::push`).
        for f in &repairs {
            out.push_str(&format!(
                "{}: game at byte {}: repair {}: {}\n",
                f.path,
                f.game,
                f.repair.kind.as_str(),
                f.repair.message()
            ));
        }
        for (path, at, why) in &refused {
            out.push_str(&format!("{path}: game at byte {at}: not written: {why}\n"));
        }
        if plan.is_some() {
            out.push_str(&format!("{fixed} files written with {} repairs\n", repairs.len()));
        }
        // The table by kind, then the summary, last as it always was (scripts read it).
        for (kind, error, n) in &by_kind {
            out.push_str(&format!("{n:>8} {kind} ({})\n", if *error { "error" } else { "warning" }));
        }
        out.push_str(&format!(
            "{files} files ({skipped} skipped), {games} games: {warnings} warnings, {errors} errors\n"
        ));
    }
    if open {
        match out.split_once(PROBLEMS_HERE) {
            Some((before, after)) if args.json => {
                let _ = crate::out::print(before)
                    && spilled.as_mut().is_none_or(copy_out)
                    && crate::out::print(&list)
                    && crate::out::print(after);
            }
            _ => {
                crate::out::print(&out);
            }
        }
    }
    if let Some(path) = spilled_path {
        let _ = std::fs::remove_file(path);
    }
    Ok(crate::exit::status(usage, errors, warnings, args.strict))
}

/// Where the JSON object's `problems` list goes (no JSON text holds a NUL: `Obj` escapes it).
const PROBLEMS_HERE: &str = "\u{0}problems\u{0}";

/// The problems as they are found: those `--select` and `--ignore` keep (the arguments' own
/// problems always stay) are counted by kind and, as text, written a megabyte at a time as the
/// inputs are read, so that checking a database of millions of messy games holds none of its
/// lines; JSON, whose counts come before its `problems`, keeps them, written, for the one
/// object: a megabyte in memory, the rest in a temporary file (removed once made, on Unix: it
/// leaves nothing behind even when the command is killed).
struct Report<'a> {
    args: &'a Args,
    /// JSON: the problems kept, as the `problems` list (without its closing bracket).
    json: String,
    /// JSON: the beginning of the list, once it outgrew a megabyte (`None` when it did not, or
    /// when no temporary file could be made: the list then stays in memory).
    spilled: Option<std::fs::File>,
    /// The temporary file's path, when it could not be removed at once.
    spilled_path: Option<std::path::PathBuf>,
    /// The temporary file could not take more (the rest stays in memory).
    spill_full: bool,
    /// JSON: the problems listed so far.
    listed: u64,
    /// Text: the lines not written yet (then what follows them).
    out: String,
    /// Standard output is still open (`| head` closes it: the rest is then counted, not written).
    open: bool,
    errors: u64,
    warnings: u64,
    /// How many of each kind and severity, in the order first met.
    by_kind: Vec<(&'static str, bool, u64)>,
}

impl<'a> Report<'a> {
    fn new(args: &'a Args) -> Report<'a> {
        Report {
            args,
            json: String::from("["),
            spilled: None,
            spilled_path: None,
            spill_full: false,
            listed: 0,
            out: String::new(),
            open: true,
            errors: 0,
            warnings: 0,
            by_kind: Vec::new(),
        }
    }

    fn push(&mut self, p: Problem) {
        let args = self.args;
        let keep = p.kind == "io"
            || p.kind == kifu::ErrorKind::NotAGameRecord.as_str()
            || ((args.select.is_empty() || args.select.iter().any(|k| k == p.kind))
                && !args.ignore.iter().any(|k| k == p.kind));
        if !keep {
            return;
        }
        match self.by_kind.iter_mut().find(|(k, e, _)| *k == p.kind && *e == p.error) {
            Some(entry) => entry.2 += 1,
            None => self.by_kind.push((p.kind, p.error, 1)),
        }
        if p.error {
            self.errors += 1;
        } else {
            self.warnings += 1;
        }
        if args.json {
            if self.listed > 0 {
                self.json.push(',');
            }
            self.listed += 1;
            Obj::new(&mut self.json)
                .str("path", &p.path)
                .num("line", p.position.line)
                .num("column", p.position.column)
                .num("offset", p.position.offset)
                .str("severity", if p.error { "error" } else { "warning" })
                .str("kind", p.kind)
                .str("message", &p.message)
                .end();
            if self.json.len() >= 1 << 20 {
                self.spill();
            }
            return;
        }
        if self.open {
            let _ =
                writeln!(self.out, "{}:{}:{}: {}: {}", p.path, p.position.line, p.position.column, p.kind, p.message);
            self.open = crate::out::spill(&mut self.out);
        }
    }

    /// Moves the JSON list's text from memory to the temporary file (made on the first call).
    fn spill(&mut self) {
        if self.spilled.is_none() {
            (self.spilled, self.spilled_path) = temp_file().map_or((None, None), |(f, p)| (Some(f), p));
        }
        if self.spill_full {
            return;
        }
        if let Some(f) = &mut self.spilled {
            let before = f.metadata().map(|m| m.len());
            if std::io::Write::write_all(f, self.json.as_bytes()).is_ok() {
                self.json.clear();
            } else {
                // A full disk: the file is cut back to what was written whole, and the rest of
                // the list stays in memory.
                self.spill_full = true;
                let cut = before.and_then(|len| {
                    f.set_len(len).and_then(|()| std::io::Seek::seek(f, std::io::SeekFrom::Start(len)))
                });
                if cut.is_err() {
                    self.spilled = None;
                }
            }
        }
    }

    fn extend(&mut self, problems: Vec<Problem>) {
        for p in problems {
            self.push(p);
        }
    }
}

/// A warning's message followed by the input where it stands (`PB[Lee]`), so that it names the
/// property and its value.
fn describe(bytes: &[u8], w: &kifu::Warning, charset: kifu::text::Charset) -> String {
    with_quote(bytes, &kifu::lint::message(bytes, w), w.offset, charset)
}

/// `message`, followed by the input at `offset` when there is any to show.
fn with_quote(bytes: &[u8], message: &str, offset: u64, charset: kifu::text::Charset) -> String {
    let quote = kifu::lint::quote_in(bytes, offset, charset);
    if quote.trim().is_empty() {
        message.to_string()
    } else {
        format!("{message}: {quote}")
    }
}

/// A new temporary file for the JSON list, unnamed at once where the system allows (Unix: it
/// then leaves nothing behind, whatever ends the command), else with its path. `None` when none
/// can be made.
fn temp_file() -> Option<(std::fs::File, Option<std::path::PathBuf>)> {
    let dir = std::env::temp_dir();
    for i in 0..64 {
        let path = dir.join(format!("kifu-check-{}-{i}.json", std::process::id()));
        // `create_new`: never a file (or a link) that is there already.
        match std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path) {
            // Elsewhere (Windows: an open file cannot be removed), its path, to remove it once
            // it has been written out.
            Ok(f) => return Some((f, std::fs::remove_file(&path).is_err().then_some(path))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Writes the temporary file's text to standard output; `false` when it is closed (or the file
/// cannot be read back).
fn copy_out(f: &mut std::fs::File) -> bool {
    use std::io::{Seek, Write};
    if f.rewind().is_err() {
        return false;
    }
    let mut out = std::io::stdout().lock();
    std::io::copy(f, &mut out).is_ok() && out.flush().is_ok()
}
