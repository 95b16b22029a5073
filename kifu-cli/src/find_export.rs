//! `kifu find … --export FORMAT [-o FILE] [--force]`: the games found written as one collection
//! through the library's writers (the targets of `kifu convert --to`). Each game is read again
//! from its file at its offset (the file's bytes sliced there, the format detected on the whole
//! file, as `kifu show` does; a file is read once for all its games), then:
//!
//! - `sgf`, `kif`, `kifu`: built into a tree and written (`kifu::tree::Writer::sgf_with_repairs`,
//!   `kifu::kif::write`), one game after another: one collection;
//! - `csa`, `csa3`, `usi`, `ki2`, `ki2u`: the game's events streamed into one writer (CSA's `/`
//!   between games, a USI line per game);
//! - `jgf`, `jgf1`, `xml`, `json`, `jkf` hold one game: with `-o FILE` and several games they go
//!   to `FILE` numbered (`out.1.jgf`, `out.2.jgf`, as `kifu convert` names them); on standard
//!   output one after the other.
//!
//! A game the target cannot hold (a shogi game as SGF, Go as CSA) is left out and reported on
//! standard error. What a target has no place for in a game it writes is said on standard error
//! and counted in `left_out`, as `kifu convert` says it (`crate::losses`), the game named by
//! `PATH@OFFSET`: `kifu: a.kif@0: left out 6 events USI has no place for (…)`, a JGF or Jago XML
//! node's moves after its first, the characters CP932 lacks (`kif`, `ki2`), a CSA or USI game's
//! variations. The exit status does not change for them. Without `-o` the collection goes to standard output and the summary to
//! standard error. An output file that exists is not overwritten without `--force` (exit 2).
//! Exit 1 when a game was left out or read with errors.

use crate::json::Obj;
use crate::losses;
use crate::to::Target;
use bumpalo::Bump;
use kifu::{Event, EventSource};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where and how to write.
pub struct Export<'a> {
    /// The format.
    pub to: Target,
    /// The output file (standard output without).
    pub output: Option<&'a Path>,
    /// Overwrite an output that exists.
    pub force: bool,
    /// Print the summary as JSON.
    pub json: bool,
}

/// What happened.
#[derive(Default)]
struct Totals {
    games: u64,
    refused: u64,
    errors: u64,
    repairs: u64,
    /// What the target had no place for (see `crate::losses`).
    left_out: u64,
}

/// Writes the games `(path, offset, kind)` as `e` says.
pub fn run(games: &[(&str, i64, &str)], e: &Export<'_>) -> Result<ExitCode, String> {
    let mut t = Totals::default();
    // One output (a collection), or one per game for a single-game format.
    let mut outputs: Vec<Vec<u8>> = vec![Vec::new()];
    let mut w = Writers::new(e.to);
    let mut cached: Option<(&str, Vec<u8>)> = None;
    for &(path, offset, kind) in games {
        let at = format!("{path}@{offset}");
        if (kind == "go") != e.to.go() {
            t.refused += 1;
            crate::out::eprint(&format!("kifu: {at}: not written: {} cannot hold a {kind} game\n", e.to.name()));
            continue;
        }
        if cached.as_ref().is_none_or(|(p, _)| *p != path) {
            cached = Some((path, crate::target::load(Path::new(path))?));
        }
        let bytes = &cached.as_ref().map_or(&[][..], |(_, b)| b.as_slice());
        let Some(format) = kifu::detect(bytes) else {
            t.errors += 1;
            crate::out::eprint(&format!("kifu: {path}: not a game record kifu can read (changed since indexed?)\n"));
            continue;
        };
        let Some(slice) = usize::try_from(offset).ok().and_then(|o| bytes.get(o..)) else {
            t.errors += 1;
            crate::out::eprint(&format!("kifu: {at}: offset beyond the end of the file (changed since indexed?)\n"));
            continue;
        };
        let mut reader = kifu::AnyReader::new(format, slice, kifu::Config::default());
        if !e.to.collection() && !outputs.last().is_some_and(Vec::is_empty) {
            outputs.push(Vec::new());
        }
        let out = outputs.last_mut().expect("one output at least");
        let before = w.counts();
        match w.game(&at, &mut reader, out, &mut t) {
            Ok(()) => {
                t.games += 1;
                let mut said = String::new();
                w.counts().since(before).report(&at, e.to, &mut t.left_out, &mut said);
                w.last_game_counts().report(&at, e.to, &mut t.left_out, &mut said);
                crate::out::eprint(&said);
            }
            Err(why) => {
                t.refused += 1;
                crate::out::eprint(&format!("kifu: {at}: not written: {why}\n"));
            }
        }
    }
    if outputs.last().is_some_and(Vec::is_empty) && outputs.len() > 1 {
        outputs.pop();
    }
    let mut files = Vec::new();
    match e.output {
        None => {
            for o in &outputs {
                if !crate::out::print_bytes(o) {
                    return Ok(ExitCode::SUCCESS);
                }
            }
        }
        Some(file) => {
            let many = outputs.len() > 1;
            let targets: Vec<PathBuf> = (0..outputs.len())
                .map(|i| if many { crate::outpath::numbered(file, i + 1) } else { file.to_path_buf() })
                .collect();
            if let Some(p) = targets.iter().find(|p| p.exists() && !e.force) {
                return Err(format!("{}: exists (use --force to overwrite)", p.display()));
            }
            for (p, o) in targets.iter().zip(&outputs) {
                std::fs::write(p, o).map_err(|err| format!("{}: {err}", p.display()))?;
                files.push(p.to_string_lossy().into_owned());
            }
        }
    }
    let mut s = String::new();
    if e.json {
        let mut list = String::from("[");
        for (i, f) in files.iter().enumerate() {
            if i > 0 {
                list.push(',');
            }
            crate::json::string(&mut list, f);
        }
        list.push(']');
        Obj::new(&mut s)
            .str("export", e.to.name())
            .num("games", t.games)
            .num("refused", t.refused)
            .num("repairs", t.repairs)
            .num("left_out", t.left_out)
            .num("errors", t.errors)
            .raw("files", &list)
            .end();
    } else {
        let to = if files.is_empty() { "standard output".to_owned() } else { files.join(", ") };
        s = format!(
            "{} games written as {} to {to}, {} refused, {} repairs, {} left out, {} errors",
            t.games,
            e.to.name(),
            t.refused,
            t.repairs,
            t.left_out,
            t.errors
        );
    }
    if e.output.is_none() {
        crate::out::eprint(&(s + "\n"));
    } else {
        crate::out::println(&s);
    }
    Ok(crate::exit::status(0, t.errors + t.refused, 0, false))
}

/// The writers, one of which is used.
struct Writers {
    to: Target,
    builder: kifu::tree::Builder,
    bump: Bump,
    sgf: kifu::tree::Writer,
    repairs: Vec<kifu::sgf::write::Repair>,
    jgf: kifu::jgf::write::Writer,
    jago: kifu::jago::write::Writer,
    gocaml: kifu::gocaml::write::Writer,
    kif: kifu::kif::write::Writer,
    csa: kifu::csa::write::Writer,
    usi: kifu::usi::write::Writer,
    ki2: kifu::ki2::write::Writer,
    /// What the JKF writer left out of the last game (`kifu::jkf::write::write_counting`).
    jkf_left_out: u64,
}

impl Writers {
    fn new(to: Target) -> Writers {
        use kifu::kif::write::{Encoding, Options};
        let encoding = if to == Target::Kif { Encoding::Cp932 } else { Encoding::Utf8 };
        let csa = if to == Target::Csa3 { kifu::csa::write::Version::V30 } else { kifu::csa::write::Version::V22 };
        let ki2 = if to == Target::Ki2 { kifu::text::Charset::ShiftJis } else { kifu::text::Charset::Utf8 };
        Writers {
            to,
            builder: kifu::tree::Builder::new(),
            bump: Bump::new(),
            sgf: kifu::tree::Writer::new(),
            repairs: Vec::new(),
            jgf: kifu::jgf::write::Writer::new(),
            jago: kifu::jago::write::Writer::new(),
            gocaml: kifu::gocaml::write::Writer::new(),
            kif: kifu::kif::write::Writer::new(Options { encoding, ..Default::default() }),
            csa: kifu::csa::write::Writer::new(csa),
            usi: kifu::usi::write::Writer::new(),
            ki2: kifu::ki2::write::Writer::new(ki2),
            jkf_left_out: 0,
        }
    }

    /// The running loss counts of the target's writer (those that count across games).
    fn counts(&self) -> losses::Counts {
        match self.to {
            Target::Kif | Target::Kifu => losses::kif(&self.kif),
            Target::Ki2 | Target::Ki2u => losses::ki2(&self.ki2),
            Target::Usi => losses::usi(&self.usi),
            Target::Csa | Target::Csa3 => losses::csa(&self.csa),
            Target::Json => losses::gocaml(&self.gocaml),
            _ => losses::Counts::default(),
        }
    }

    /// The losses the target's writer counts for the last game only (a JGF or Jago XML node's
    /// moves after its first, what JKF has no place for).
    fn last_game_counts(&self) -> losses::Counts {
        match self.to {
            Target::Jgf | Target::Jgf1 => losses::node_moves(self.jgf.moves_left_out()),
            Target::Xml => losses::node_moves(self.jago.moves_left_out()),
            Target::Jkf => losses::unwritten(self.jkf_left_out),
            _ => losses::Counts::default(),
        }
    }

    /// Writes the first game of `reader` to `out`; on a refusal `out` is left as it was.
    fn game(
        &mut self,
        at: &str,
        reader: &mut kifu::AnyReader<'_>,
        out: &mut Vec<u8>,
        t: &mut Totals,
    ) -> Result<(), String> {
        let start = out.len();
        let r = if matches!(self.to, Target::Csa | Target::Csa3 | Target::Usi | Target::Ki2 | Target::Ki2u) {
            self.streamed(at, reader, out, t)
        } else {
            self.tree(at, reader, out, t)
        };
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    fn tree(
        &mut self,
        at: &str,
        reader: &mut kifu::AnyReader<'_>,
        out: &mut Vec<u8>,
        t: &mut Totals,
    ) -> Result<(), String> {
        self.bump.reset();
        let tree = match self.builder.build(&self.bump, reader) {
            Ok(Some(tree)) => tree,
            Ok(None) => return Err("no game at this offset (changed since indexed?)".to_owned()),
            Err(e) => {
                t.errors += 1;
                return Err(format!("{}: {}", e.kind().as_str(), e.message()));
            }
        };
        let e = |e: &dyn std::fmt::Display| e.to_string();
        match self.to {
            Target::Sgf => {
                self.sgf.sgf_with_repairs(&tree, out, &mut self.repairs).map_err(|x| e(&x))?;
                out.push(b'\n');
                for r in self.repairs.drain(..) {
                    t.repairs += 1;
                    crate::out::eprint(&format!("kifu: {at}: repair {}: {}\n", r.kind.as_str(), r.message()));
                }
                Ok(())
            }
            Target::Jgf => self.jgf.write(&tree, kifu::jgf::write::Version::V2, out).map_err(|x| e(&x)),
            Target::Jgf1 => self.jgf.write(&tree, kifu::jgf::write::Version::V1, out).map_err(|x| e(&x)),
            Target::Xml => self.jago.write(&tree, out).map_err(|x| e(&x)),
            Target::Json => self.gocaml.write(&tree, out).map_err(|x| e(&x)),
            Target::Jkf => {
                self.jkf_left_out = kifu::jkf::write::write_counting(&tree, out).map_err(|x| e(&x))?;
                Ok(())
            }
            _ => self.kif.write(&tree, out).map_err(|x| e(&x)),
        }
    }

    /// The events of the first game (to its `GameEnd`, or its error) into the streaming writer.
    fn streamed(
        &mut self,
        at: &str,
        reader: &mut kifu::AnyReader<'_>,
        out: &mut Vec<u8>,
        t: &mut Totals,
    ) -> Result<(), String> {
        let mut started = false;
        while let Some(item) = reader.next_event() {
            let ev = match item {
                Ok(ev) => ev,
                Err(e) => {
                    t.errors += 1;
                    let p = e.position();
                    crate::out::eprint(&format!(
                        "kifu: {at}: {}:{}: {}: {}\n",
                        p.line,
                        p.column,
                        e.kind().as_str(),
                        e.message()
                    ));
                    break;
                }
            };
            if let Event::GameStart { .. } = ev {
                if started {
                    break;
                }
                started = true;
            }
            let end = matches!(ev, Event::GameEnd { .. });
            match self.to {
                Target::Ki2 | Target::Ki2u => self.ki2.event(&ev, out),
                Target::Usi => self.usi.event(&ev, out).map_err(|e| e.message().to_string())?,
                _ => self.csa.event(&ev, out).map_err(|e| e.message().to_string())?,
            }
            if end {
                break;
            }
        }
        if started {
            Ok(())
        } else {
            Err("no game at this offset (changed since indexed?)".to_owned())
        }
    }
}
