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
//! The lines are written as the inputs are read, a megabyte at a time (see `Report`): memory
//! holds one input's findings, not the run's.
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
}

/// One warning or error.
pub struct Problem {
    pub path: String,
    pub position: kifu::Position,
    pub error: bool,
    pub kind: &'static str,
    pub message: String,
}

/// Every problem of one file's bytes; `None` when the bytes are not a game record. Also returns
/// the number of games.
pub fn check_bytes(path: &str, bytes: &[u8], config: kifu::Config) -> Option<(u64, Vec<Problem>)> {
    let mut reader = kifu::AnyReader::detect(bytes, config)?;
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
                    kifu::ErrorKind::Strict(w) => (w.as_str(), with_quote(bytes, e.message(), e.offset(), charset)),
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
    kifu::lint(reader.format(), bytes, &mut found);
    let strict = config.mode == kifu::Mode::Strict;
    warnings.extend(found.into_iter().map(|w| (w, strict)));
    // Located in the order of their offsets: the reader's line index then goes over the input
    // once (out of order, it started again from the top for each: quadratic on a big file).
    warnings.sort_by_key(|(w, _)| w.offset);
    for (w, error) in warnings {
        problems.push(Problem {
            path: path.to_string(),
            position: reader.locate(w.offset),
            error,
            kind: w.kind.as_str(),
            message: describe(bytes, &w, charset),
        });
    }
    problems.sort_by_key(|p| p.position.offset);
    Some((games, problems))
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
    // archive members (named `archive.zip!member.sgf`). Each input is read whole: problems are
    // located by line and column in it.
    kifu::stream::for_each_input(&args.paths, |name, input| {
        let input = match input {
            Ok(i) => i,
            // A FIFO, socket or device inside a directory: skipped, unopened.
            Err(e) if e.kind() == kifu::ErrorKind::NotAGameRecord => {
                skipped += 1;
                if args.verbose {
                    crate::out::eprint(&format!("kifu: skipped {name}: {}\n", e.message()));
                }
                return;
            }
            Err(e) => {
                usage += (crate::exit::named(&args.paths, name) && e.kind() == kifu::ErrorKind::Io) as u64;
                report.push(Problem {
                    path: name.to_string(),
                    position: e.position(),
                    error: true,
                    kind: e.kind().as_str(),
                    message: e.message().to_string(),
                });
                return;
            }
        };
        if input.format.is_none() {
            skipped += 1;
            if args.verbose {
                crate::out::eprint(&format!("kifu: skipped {name}: not a game record\n"));
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
            return;
        }
        let mut bytes = Vec::new();
        let mut reader = input.reader;
        if let Err(e) = std::io::Read::read_to_end(&mut reader, &mut bytes) {
            report.push(io_problem(name, &e));
            return;
        }
        match check_bytes(name, &bytes, config) {
            None => skipped += 1,
            Some((g, p)) => {
                files += 1;
                games += g;
                // The moves the format's own rules found played by the side not to move (CSA's
                // `wrong_side`), which the replay must not report again.
                let wrong_side: Vec<u64> = p
                    .iter()
                    .filter(|p| p.kind == kifu::WarningKind::WrongSide.as_str())
                    .map(|p| p.position.offset)
                    .collect();
                report.extend(p);
                if let Some(plan) = &plan {
                    let mut r = Vec::new();
                    match plan.fix(name, &bytes, kifu::Config::default(), &mut repairs, &mut r) {
                        Ok(written) => fixed += written.is_some() as u64,
                        Err(e) => {
                            crate::out::eprint(&format!("kifu: {e}\n"));
                            usage += 1;
                        }
                    }
                    refused.extend(r.into_iter().map(|(at, why)| (name.to_string(), at, why)));
                }
                if args.replay {
                    let mut lines = kifu::LineIndex::new();
                    // One finding per move: a move the reader refused is reported already, by
                    // its own warning (USI's `illegal_move`, KI2's `no_piece_can_move`), and a
                    // CSA move by the side not to move by `kifu::csa::check`'s `wrong_side`.
                    let reported = |m: &crate::replay::Illegal| {
                        m.by_reader
                            || (m.kind == kifu::position::shogi::Illegal::WrongSide.as_str()
                                && wrong_side.contains(&m.offset))
                    };
                    for m in crate::replay::illegal_moves(&bytes, config).into_iter().filter(|m| !reported(m)) {
                        report.push(Problem {
                            path: name.to_string(),
                            position: lines.locate(&bytes, m.offset),
                            error: false,
                            kind: "illegal_move",
                            message: format!("{} (move {})", m.kind, m.number),
                        });
                    }
                }
            }
        }
    });
    let Report { json: mut list, mut out, errors, warnings, mut by_kind, open, .. } = report;
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
                let _ = crate::out::print(before) && crate::out::print(&list) && crate::out::print(after);
            }
            _ => {
                crate::out::print(&out);
            }
        }
    }
    Ok(crate::exit::status(usage, errors, warnings, args.strict))
}

/// Where the JSON object's `problems` list goes (no JSON text holds a NUL: `Obj` escapes it).
const PROBLEMS_HERE: &str = "\u{0}problems\u{0}";

/// The problems as they are found: those `--select` and `--ignore` keep (the arguments' own
/// problems always stay) are counted by kind and, as text, written a megabyte at a time as the
/// inputs are read, so that checking a database of millions of messy games holds none of its
/// lines; JSON, whose counts come before its `problems`, keeps them, written, for the one
/// object.
struct Report<'a> {
    args: &'a Args,
    /// JSON: the problems kept, as the `problems` list (without its closing bracket).
    json: String,
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
            if self.json.len() > 1 {
                self.json.push(',');
            }
            Obj::new(&mut self.json)
                .str("path", &p.path)
                .num("line", p.position.line)
                .num("column", p.position.column)
                .num("offset", p.position.offset)
                .str("severity", if p.error { "error" } else { "warning" })
                .str("kind", p.kind)
                .str("message", &p.message)
                .end();
            return;
        }
        if self.open {
            let _ =
                writeln!(self.out, "{}:{}:{}: {}: {}", p.path, p.position.line, p.position.column, p.kind, p.message);
            self.open = crate::out::spill(&mut self.out);
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

fn io_problem(path: &str, e: &std::io::Error) -> Problem {
    Problem {
        path: path.to_string(),
        position: kifu::Position::default(),
        error: true,
        kind: "io",
        message: e.to_string(),
    }
}
