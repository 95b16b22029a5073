//! `kifu show PATH[@OFFSET] [--json]`: one game read from its byte offset, without parsing the
//! rest of the file: the file's bytes are sliced at OFFSET (a `games.offset` from the index) and
//! one game is read from the slice with the format detected on the whole file's head
//! (`kifu_index::read_game`). Prints its information and its main line in canonical notation.
//! Its counts are the index's: `moves` is the main line's moves (`num_moves`), `nodes` every
//! node of the game, `variations` its lines of play less one; `kifu stats`'s `moves` counts the
//! moves of every line, variations included.
//!
//! Offsets are in the stream the readers see: UTF-16 files transcoded, compressed files and
//! archive members (`games.zip!a.sgf@OFFSET`, as the index names them) decompressed — the whole
//! member is decompressed, but only the game at OFFSET is parsed. Offsets inside the slice (SGF
//! `GameStart`) are relative to it: OFFSET is added back.
//!
//! Server dialects (`kifu::dialect`): the game is also read through `kifu::dialect::Normalize`,
//! which names its `dialect` (`fox`, `ogs`, `igs`, `standard`), the ranks as `9d`/`9p`/`15k`
//! (`black_rank_normalised`, from Fox's `9段`, IGS's `11k+`) and the `dialect_rules` it applied
//! (warning kinds, comma-separated: `fox_komi_in_stones,cjk_rank`). `komi_normalised` and
//! `date_normalised` read Fox's `KM[325]` as 6.5 and `DT[2016.10.25 12:30]` as 2016-10-25.

use crate::json::Obj;
use kifu_index::Field;
use std::process::ExitCode;

/// Flags of `kifu show`.
#[derive(clap::Args)]
pub struct Args {
    /// `FILE` (its first game) or `FILE@OFFSET` (the game starting at byte OFFSET); FILE may be an
    /// archive member, `games.zip!a.sgf`.
    target: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let target = crate::target::parse(&args.target)?;
    let path = target.path;
    let bytes = crate::target::load(&path)?;
    if let Some(offset) = target.offset {
        crate::target::check_start(&path, &bytes, offset)?;
    }
    let offset = target.offset.unwrap_or(0);
    let (g, format) = kifu_index::read_game(&bytes, offset).map_err(|e| format!("{}@{offset}: {e}", path.display()))?;
    let d = dialect(&bytes, offset, format);
    let o = g.outcome();
    let text = |f| g.text(f).map(str::to_owned);
    let fields: [(&str, Option<String>); 26] = [
        ("kind", g.kind.map(|k| k.as_str().to_owned())),
        ("board_size", text(Field::BoardSize)),
        ("black_name", text(Field::BlackName)),
        ("black_rank", text(Field::BlackRank)),
        ("black_team", text(Field::BlackTeam)),
        ("white_name", text(Field::WhiteName)),
        ("white_rank", text(Field::WhiteRank)),
        ("white_team", text(Field::WhiteTeam)),
        ("date", text(Field::Date)),
        ("date_normalised", g.date()),
        ("event", text(Field::Event)),
        ("round", text(Field::Round)),
        ("place", text(Field::Place)),
        ("game_name", text(Field::GameName)),
        ("result", text(Field::Result)),
        ("winner", o.winner.map(str::to_owned)),
        ("margin", o.margin.map(|m| m.to_string())),
        ("reason", o.reason.map(str::to_owned)),
        ("komi", text(Field::Komi)),
        ("komi_normalised", g.komi().map(|k| k.to_string())),
        ("handicap", g.handicap().map(|h| h.to_string())),
        ("rules", text(Field::Rules)),
        ("dialect", Some(d.dialect.as_str().to_owned())),
        ("black_rank_normalised", d.black_rank),
        ("white_rank_normalised", d.white_rank),
        ("dialect_rules", (!d.rules.is_empty()).then(|| d.rules.join(","))),
    ];
    let tc = g.time_control();
    let main_line = g.main_line.as_deref().unwrap_or("()");
    let mut s = String::new();
    if args.json {
        let mut obj = Obj::new(&mut s);
        obj.str("path", &path.to_string_lossy()).num("offset", g.offset).str("format", format.as_str());
        match g.length {
            Some(l) => obj.num("length", l),
            None => obj.null("length"),
        };
        for (k, v) in &fields {
            if let Some(v) = v {
                obj.str(k, v);
            }
        }
        if let Some(t) = &tc {
            obj.str("time_control", t);
        }
        obj.num("moves", g.moves)
            .num("nodes", g.nodes)
            .num("variations", g.variations)
            .num("comments", g.comments)
            .num("errors", g.errors)
            .str("main_hash", &format!("{:016x}", g.main_hash))
            .str("main_line", main_line)
            .end();
    } else {
        use std::fmt::Write;
        // The length is unknown when the game did not end (`--json`: null).
        let length = g.length.map_or_else(|| "length unknown".to_owned(), |n| format!("{n} bytes"));
        let _ = writeln!(s, "{}@{}  {} ({length})", path.display(), g.offset, format.as_str());
        for (k, v) in fields.iter().chain(std::iter::once(&("time_control", tc.clone()))) {
            if let Some(v) = v {
                let _ = writeln!(s, "{k}: {v}");
            }
        }
        let _ = writeln!(s, "moves: {}  nodes: {}  variations: {}", g.moves, g.nodes, g.variations);
        s.push_str(main_line);
    }
    crate::out::println(&s);
    Ok(crate::exit::status(0, g.errors, 0, false))
}

/// What `kifu::dialect::Normalize` makes of the game at `offset`.
struct Dialect {
    dialect: kifu::dialect::Dialect,
    black_rank: Option<String>,
    white_rank: Option<String>,
    /// The warning kinds of the dialect rules applied, each once, in order.
    rules: Vec<&'static str>,
}

/// The game at `offset` read again through the dialect normaliser (its first game only).
fn dialect(bytes: &[u8], offset: u64, format: kifu::Format) -> Dialect {
    use kifu::{Event, InfoKey};
    let mut d = Dialect { dialect: Default::default(), black_rank: None, white_rank: None, rules: Vec::new() };
    let Some(slice) = usize::try_from(offset).ok().and_then(|o| bytes.get(o..)) else { return d };
    let store = bumpalo::Bump::new();
    let reader = kifu::AnyReader::new(format, slice, kifu::Config::default());
    let mut n = kifu::dialect::Normalize::with_store(reader, &store);
    let mut started = false;
    while let Some(Ok(ev)) = n.next() {
        match ev {
            Event::GameStart { .. } if started => break,
            Event::GameStart { .. } => started = true,
            Event::Info(i) if matches!(i.key(), InfoKey::BlackRank | InfoKey::WhiteRank) => {
                let v = i.value().decode().text.trim().to_owned();
                let slot = if i.key() == InfoKey::BlackRank { &mut d.black_rank } else { &mut d.white_rank };
                if slot.is_none() && !v.is_empty() {
                    *slot = Some(v);
                }
            }
            Event::Warning(w) => {
                let k = w.kind.as_str();
                if kifu::dialect::RULES.contains(&w.kind) && !d.rules.contains(&k) {
                    d.rules.push(k);
                }
            }
            Event::GameEnd { .. } => {
                d.dialect = n.dialect();
                break;
            }
            _ => {}
        }
    }
    d.dialect = n.dialect();
    d
}
