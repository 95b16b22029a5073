//! `kifu tree [--moves] FILE[@OFFSET]`: each game's tree in canonical SGF, a game starting on a
//! line of its own (the full form breaks long games into lines between nodes; with `--moves`
//! one line per game); a shogi game (of a format whose `GameKind` is shogi) in CSA instead, see
//! [`csa`].
//!
//! With `--moves`, only moves: nodes without a move are dropped and their children promoted, one
//! move per node, single-child branches inline, children in file order, SGF coordinates, a pass as
//! `B[]`, an empty game as `()`, shogi as `(;+7776FU;-3334FU)`. Without it, every mapped event in
//! canonical form (setup, markup, comments, names, game info); see `kifu::tree::Writer`.
//! `@OFFSET` reads only the game that starts at that byte offset.

use bumpalo::Bump;
use kifu::tree::{Builder, Writer};
use std::io::Write;
use std::process::ExitCode;

/// Flags of `kifu tree`.
#[derive(clap::Args)]
pub struct Args {
    /// The file, optionally with `@OFFSET` (the byte offset of one game, as `kifu index` stores);
    /// compressed files are decompressed and archive members named `games.zip!a.sgf`.
    file: String,
    /// Moves only.
    #[arg(long)]
    moves: bool,
    /// Turn warnings into errors.
    #[arg(long)]
    strict: bool,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let target = crate::target::parse(&args.file)?;
    let (path, offset) = (target.path, target.offset);
    let bytes = crate::target::load(&path)?;
    if let Some(o) = offset {
        crate::target::check_start(&path, &bytes, o)?;
    }
    let start = offset.unwrap_or(0) as usize;
    let Some(slice) = bytes.get(start..) else {
        return Err(format!("{}: offset {start} is past the end ({} bytes)", path.display(), bytes.len()));
    };
    let config = if args.strict { kifu::Config::strict() } else { kifu::Config::default() };
    let Some(mut reader) = kifu::AnyReader::detect(slice, config) else {
        return Err(format!("{}: not a game record kifu can read", path.display()));
    };
    let mut builder = Builder::new();
    let mut writer = Writer::new();
    let mut bump = Bump::new();
    let mut line = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut errors = 0;
    let shogi = reader.format().kind() == kifu::GameKind::Shogi && !args.moves;
    let mut csa_writer = None;
    loop {
        bump.reset();
        match builder.build(&bump, &mut reader) {
            Ok(None) => break,
            Ok(Some(tree)) => {
                line.clear();
                if shogi {
                    csa(&tree, &mut csa_writer, &mut line);
                } else if args.moves {
                    writer.moves(&tree, &mut line);
                    line.push(b'\n');
                } else if let Err(e) = writer.sgf(&tree, &mut line) {
                    errors += 1;
                    eprintln!("{}: game at byte {}: {}: {e}", path.display(), tree.offset(), e.as_str());
                    if offset.is_some() {
                        break;
                    }
                    continue;
                } else {
                    line.push(b'\n');
                }
                if out.write_all(&line).is_err() {
                    return Ok(ExitCode::SUCCESS);
                }
            }
            Err(e) => {
                errors += 1;
                let p = e.position();
                eprintln!("{}:{}:{}: {}: {}", path.display(), p.line, p.column, e.kind().as_str(), e.message());
            }
        }
        if offset.is_some() {
            break; // one game only
        }
    }
    let _ = out.flush();
    Ok(crate::exit::status(0, errors, 0, false))
}

/// A shogi game in CSA (`kifu::csa::write`): its main line (CSA has no variations), in the
/// version of the file's first game (V3.0 when it says 3, else V2.2), several lines per game and
/// `/` between games, as a CSA file holds them. The writer is made at the first game and kept, so
/// the output is one CSA file.
fn csa(tree: &kifu::tree::GameTree<'_>, writer: &mut Option<kifu::csa::write::Writer>, out: &mut Vec<u8>) {
    use kifu::csa::write::{Version, Writer};
    use kifu::tree::NodeId;
    use kifu::{Event, InfoKey};
    let writer = writer.get_or_insert_with(|| {
        let v3 = tree.events(NodeId::GAME).any(
            |e| matches!(e, Event::Info(i) if i.key() == InfoKey::FormatVersion && i.value().raw().starts_with(b"3")),
        );
        Writer::new(if v3 { Version::V30 } else { Version::V22 })
    });
    let mut feed = |ev: Event<'_>| {
        // Shogi events only: the writer refuses nothing here.
        let _ = writer.event(&ev, out);
    };
    feed(Event::GameStart { offset: tree.offset() });
    for (i, n) in tree.main_line().enumerate() {
        if i > 0 {
            feed(Event::Node);
        }
        for ev in tree.events(n) {
            feed(ev);
        }
    }
    feed(Event::GameEnd { length: tree.length().unwrap_or(0), ending: tree.ending() });
}
