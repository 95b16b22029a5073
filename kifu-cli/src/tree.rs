//! `kifu tree [--moves] FILE[@OFFSET]`: each game's tree in canonical SGF, one game a line
//! (the full form breaks long games into lines between nodes).
//!
//! With `--moves`, only moves: nodes without a move are dropped and their children promoted, one
//! move per node, single-child branches inline, children in file order, SGF coordinates, a pass as
//! `B[]`, an empty game as `()`, shogi as `(;+7776FU;-3334FU)`. Without it, every mapped event in
//! canonical form (setup, markup, comments, names, game info); see `kifu::tree::Writer`. A shogi
//! game has no full SGF form: it is reported as an error (`--moves` writes it).
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
    loop {
        bump.reset();
        match builder.build(&bump, &mut reader) {
            Ok(None) => break,
            Ok(Some(tree)) => {
                line.clear();
                if args.moves {
                    writer.moves(&tree, &mut line);
                } else if let Err(e) = writer.sgf(&tree, &mut line) {
                    errors += 1;
                    eprintln!("{}: game at byte {}: {}: {e}", path.display(), tree.offset(), e.as_str());
                    if offset.is_some() {
                        break;
                    }
                    continue;
                }
                line.push(b'\n');
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
