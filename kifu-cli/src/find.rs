//! `kifu find [--db FILE] [filters] [--duplicates] [--sort FIELD [--desc]] [--limit N]
//! [--offset N] [--count] [--json | --format table|json|csv] [--export FORMAT [-o FILE]]`: games
//! from the index; `kifu find --errors`: the files that had errors.
//!
//! Filters (all must hold; their values are bound parameters of the SQL, see `kifu_index::Query`):
//! - `--player NAME`: Black's or White's name contains NAME (case-insensitive for ASCII);
//!   `--black NAME`, `--white NAME`: that side's name;
//! - `--rank R`: either player's rank is R (`9d`, `1p`, `15k`) or in a range (`5d..9d`, `5d..`,
//!   `..1k`); ranks as written (`9段`, `九段`, `9 dan`, `11k+`) are read on one scale, kyu below dan
//!   below professional (`kifu_index::rank_value`);
//! - `--event TEXT`, `--place TEXT`: the event, the place contains TEXT;
//! - `--size N` (or `19x13`; shogi boards are 9), `--kind go|shogi`, `--handicap N` (none
//!   written counts as 0);
//! - `--komi X` or `--komi MIN..MAX`: the index's komi, dialects normalised (Fox's `KM[375]` is
//!   7.5); `--moves N` or `--moves MIN..MAX` (`100..`, `..50`): main-line moves;
//! - `--from DATE`, `--to DATE`: the normalised date, compared to the precision of DATE
//!   (`--from 2005 --to 2005` is the whole year; a game dated only `2005` is within
//!   `--to 2005-06` but not `--from 2005-06`); games without a date never match;
//! - `--result B|W|draw`: the parsed winner;
//! - `--opening MOVES`: the main line starts with MOVES, in canonical notation (`B[pd];W[dp]`,
//!   `(;B[pd];W[dp]` or `;+7776FU;-3334FU`) or as bare points/moves separated by spaces or
//!   commas, either colour (`pd dp`, `7776FU 3334FU`). Case-sensitive (SGF `aa` ≠ `AA`).
//!
//! `--duplicates` prints groups of two or more matching games with the same main-line hash
//! (games without moves are left out: they would all match). Output: one line per game
//! (`path@offset`, date, players, result, moves, event), ready for `kifu show`; `--json` prints
//! one object, `{"count":N,"games":[…]}` or `{"count":N,"groups":[{"main_hash":…,"games":[…]}]}`.
//!
//! `--position Q`: only games whose main line passes through the position Q (Go: in any of the
//! board's eight orientations), in any form `position_arg` reads (`FILE[@OFFSET]#MOVE`, a move
//! list, SGF setup, an SFEN); the other filters still apply. Each line then ends with `#N`
//! (moves played before the game first reached Q), the symmetry that takes the game's board to
//! Q's (0 = as is) and the move it played there, in Q's orientation (`end` if it ended there);
//! in JSON each game also has `position_move`, `symmetry` and `next`, and the object a
//! `position`.
//!
//! `--position Q --swap-colors` (Go) / `--mirror` (shogi): also the games through Q's twin, the
//! same stones with Black and White exchanged / the position mirrored left to right (see
//! [`kifu_index::Position::also_twin`]), each game once; a game that reached the twin first
//! has its symmetry and move turned back into Q's terms, and its line ends with `swapped` /
//! `mirrored` (`-` for the others); JSON and CSV carry it as a field `swapped` / `mirrored`
//! (`true`, `false`).
//!
//! Order and page: `--sort FIELD` (`date`, `moves`, `black`, `white`, `event`, `place`, `komi`,
//! `handicap`, `result`, `size`, `kind`, `format`, `black_rank`, `white_rank`, `path`; games
//! without the field last, ties by path and offset; within each group with `--duplicates`),
//! `--desc` for descending; `--offset N` skips N games, `--limit N` keeps N (games, also with
//! `--duplicates` and `--position`).
//!
//! Output: `--count` prints only the number (of games; of groups with `--duplicates`), as
//! `N`, `{"count":N}` or a CSV `count` column. With `--position` and no other filter it reads
//! no game's row: the games are counted from the position's postings, or from the
//! continuation table of a position 1,000 games or more share (milliseconds for the empty
//! board of a million games, which `--position` without `--count` lists in seconds). A listing
//! (every one but `--duplicates`', in every format) is written a megabyte at a time as its games
//! are read from the index, never held whole (`kifu_index::find_each`,
//! `kifu_index::find_position_each`), and stops when the output is closed (`| head`). JSON
//! gives its `count` before the games: it is counted in the same read of the database, and
//! should the listing then give another number of games (a `kifu index` run rewrote the
//! positions file between the two, or that file is out of step with the database), the command
//! says so and exits with 2. `--format csv` (RFC 4180, CRLF, a header row):
//! the JSON fields of a game as columns (`path,offset,date,black_name,…`), absent values empty.
//! JSON games (and CSV rows) also carry `kind`, `board_size`, `komi`, `handicap` and `place`.
//! `--export FORMAT [-o FILE]` writes the games as one collection instead (see `find_export`).
//!
//! `--errors`: the files the index recorded with errors, ordered by path: `path`, `errors`,
//! the first error (`line:column: message`) a line; JSON `{"count":N,"files":[{"path",
//! "format","games","warnings","errors","error"}]}`; CSV the same columns. Game filters don't
//! apply; `--limit`, `--offset`, `--count` and `--format` do.
//!
//! `--duplicates` groups a Go game with its copies recorded rotated or reflected (the main line
//! up to the board's eight symmetries); each group's `main_hash` is its first game's.
//!
//! `--pattern P [--anchor corner|side|anywhere] [--swap-colors]` (Go): the games where the
//! pattern P appears (an ASCII diagram of `X`, `O`, `.`, `*`, or SGF setup with a region), in
//! any of the board's eight orientations, with the move number where it first appears and the
//! move played there, then the continuation table; the other filters still apply. See
//! `pattern_arg` for the forms of P and the output.

use crate::hits::{hit_csv, hit_json, hit_line, CSV_COLUMNS};
use crate::json::Obj;
use kifu_index::Hit;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu find`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("searched").args(["pattern", "position"])))]
pub struct Args {
    /// The index database.
    #[arg(long, default_value = "kifu.sqlite")]
    db: PathBuf,
    /// Black's or White's name contains NAME.
    #[arg(long)]
    player: Option<String>,
    /// The event contains TEXT.
    #[arg(long)]
    event: Option<String>,
    /// Played on or after DATE (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    from: Option<String>,
    /// Played on or before DATE (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    to: Option<String>,
    /// Who won: B, W or draw.
    #[arg(long, value_parser = ["B", "W", "draw"], ignore_case = true)]
    result: Option<String>,
    /// The main line starts with MOVES (`B[pd];W[dp]` or `pd dp`).
    #[arg(long)]
    opening: Option<String>,
    /// Groups of games with the same main line.
    #[arg(long)]
    duplicates: bool,
    /// Games that pass through a position: FILE[@OFFSET]#MOVE (after move MOVE of that game),
    /// a move list (`pd dp pp` on 19x19, `7g7f 3c3d`), SGF setup (`AB[pd][dp]AW[dd]`), a record
    /// (`(;SZ[13];B[cc])`) or an SFEN; Go positions match in all 8 orientations.
    #[arg(long, conflicts_with = "duplicates")]
    position: Option<String>,
    // -- pattern search (pattern_arg.rs) --
    /// Go games where a pattern appears, in any of the 8 orientations: an ASCII diagram (rows
    /// separated by `/` or new lines; X Black, O White, `.` empty, `*` anything; `@FILE` reads
    /// one) or SGF setup with a region (`AB[cc]AW[dc]@aa:ff`). Prints where it first appears,
    /// the move played there and the continuation table (games, wins of the pattern's Black
    /// and White).
    #[arg(long, conflicts_with_all = ["duplicates", "position"])]
    pattern: Option<String>,
    /// Where the pattern sits: corner (the diagram's top left on a corner; the default), side
    /// (its top row on an edge) or anywhere. SGF setup stays where its region is unless given.
    #[arg(long, requires = "pattern", value_parser = ["corner", "side", "anywhere"])]
    anchor: Option<String>,
    /// Also match the pattern with Black and White swapped (the continuation then speaks of the
    /// pattern's colours). With --position (Go): also the games through the position with Black
    /// and White exchanged, each game once (its first time at either); their symmetry and next
    /// move are turned back into the query's colours, and each game says which it reached (a
    /// `swapped` column; `"swapped": true|false` in JSON).
    #[arg(long, requires = "searched")]
    swap_colors: bool,
    // -- end of pattern search --
    /// With --position (shogi): also the games through the position mirrored left to right
    /// (files 1-9 exchanged; hands and side to move kept), each game once; their next move is
    /// mirrored back, and each game says which it reached (a `mirrored` column; `"mirrored":
    /// true|false` in JSON).
    #[arg(long, requires = "position")]
    mirror: bool,
    /// At most N games.
    #[arg(long)]
    limit: Option<u64>,
    /// Print one JSON object (the same as `--format json`).
    #[arg(long)]
    json: bool,
    /// Black's name contains NAME.
    #[arg(long, value_name = "NAME")]
    black: Option<String>,
    /// White's name contains NAME.
    #[arg(long, value_name = "NAME")]
    white: Option<String>,
    /// Either player's rank: `9d`, `1p`, `15k`, or a range `5d..9d`, `5d..`, `..1k` (ranks as
    /// written, `9段`, `九段`, `9 dan`, `11k+`, are read; kyu < dan < professional).
    #[arg(long, value_name = "RANK")]
    rank: Option<String>,
    /// Board size: `19`, or `19x13`.
    #[arg(long, value_name = "N")]
    size: Option<String>,
    /// `go` or `shogi`.
    #[arg(long, value_parser = ["go", "shogi"], ignore_case = true)]
    kind: Option<String>,
    /// Handicap stones (a game without a handicap counts as 0).
    #[arg(long, value_name = "N")]
    handicap: Option<i64>,
    /// Komi in points, dialects normalised (Fox `KM[375]` is 7.5): `6.5`, or `MIN..MAX`
    /// (`7..`, `..0`).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    komi: Option<String>,
    /// Main-line moves: `N`, or `MIN..MAX` with either end open (`100..`, `..50`).
    #[arg(long, value_name = "MIN..MAX")]
    moves: Option<String>,
    /// The place contains TEXT.
    #[arg(long, value_name = "TEXT")]
    place: Option<String>,
    /// Order by FIELD (games without it last; ties by path and offset).
    #[arg(long, value_name = "FIELD", value_parser = sort_fields())]
    sort: Option<String>,
    /// Descending order (of `--sort`, or of path and offset).
    #[arg(long)]
    desc: bool,
    /// Skip the first N games (a page with `--limit`).
    #[arg(long, value_name = "N")]
    offset: Option<u64>,
    /// Print only the number of games (of groups with `--duplicates`).
    #[arg(long, conflicts_with = "export")]
    count: bool,
    /// Output: `table` (a line a game), `json`, or `csv` (RFC 4180, a header row).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the games found as one collection in FORMAT (any `kifu convert --to` target), to
    /// `-o FILE` or standard output; each is read again from its file. What FORMAT has no place
    /// for is said on standard error and counted as left out (`left_out` with `--json`), as
    /// `kifu convert` does.
    #[arg(long, value_enum, value_name = "FORMAT")]
    export: Option<crate::to::Target>,
    /// Where `--export` writes.
    #[arg(short, long, value_name = "FILE", requires = "export")]
    output: Option<PathBuf>,
    /// Let `--export` overwrite FILE.
    #[arg(long, requires = "export")]
    force: bool,
    /// List the files that had errors, and why, instead of games.
    #[arg(long, conflicts_with_all = [
        "player", "black", "white", "rank", "event", "place", "from", "to", "result", "opening", "duplicates",
        "position", "size", "kind", "handicap", "komi", "moves", "sort", "export",
    ])]
    errors: bool,
}

/// `--format`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A line a game.
    Table,
    /// One JSON object.
    Json,
    /// CSV with a header row.
    Csv,
}

/// The names `--sort` takes.
fn sort_fields() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(kifu_index::SORT_FIELDS.map(|(name, _)| name))
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let conn = kifu_index::open_existing(&args.db).map_err(|e| e.to_string())?;
    let format = match (args.json, args.format) {
        (true, Some(f)) if f != Format::Json => return Err("find: --json is --format json".into()),
        (true, _) => Format::Json,
        (false, f) => f.unwrap_or(Format::Table),
    };
    if args.errors {
        let files = kifu_index::error_files(&conn).map_err(|e| e.to_string())?;
        return print_errors(&files, args, format);
    }
    let query = kifu_index::Query {
        player: args.player.clone(),
        event: args.event.clone(),
        from: args.from.clone(),
        to: args.to.clone(),
        result: args.result.clone(),
        opening: args.opening.clone(),
        duplicates: args.duplicates,
        limit: args.limit,
        black: args.black.clone(),
        white: args.white.clone(),
        rank: args.rank.clone(),
        size: args.size.clone(),
        kind: args.kind.as_ref().map(|k| k.to_ascii_lowercase()),
        handicap: args.handicap,
        komi: args.komi.clone(),
        moves: args.moves.clone(),
        place: args.place.clone(),
        sort: args.sort.clone(),
        descending: args.desc,
        offset: args.offset,
    };
    // -- pattern search --
    if let Some(p) = &args.pattern {
        let pattern = crate::pattern_arg::parse(p, args.anchor.as_deref(), args.swap_colors)?;
        crate::pattern_arg::run(&conn, &pattern, &query, args.json).map_err(|e| e.to_string())?;
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    // -- end of pattern search --
    if let Some(q) = &args.position {
        let pos = crate::position_arg::parse(q, 19)?;
        let pos = crate::position_arg::with_twin(pos, args.swap_colors, args.mirror)?;
        if args.count {
            let n = kifu_index::count_position(&conn, &args.db, &pos, &query).map_err(|e| e.to_string())?;
            print_count(n, format);
            return Ok(ExitCode::from(crate::exit::CLEAN));
        }
        // One read of the database: a count printed before the games is theirs.
        let _read = conn.unchecked_transaction().map_err(|e| e.to_string())?;
        if let Some(to) = args.export {
            let mut games = Vec::new();
            kifu_index::find_position_each(&conn, &args.db, &pos, &query, |h| {
                games.push((h.hit.path, h.hit.offset, h.hit.kind));
                ControlFlow::Continue(())
            })
            .map_err(|e| e.to_string())?;
            return export(&games, to, args, format);
        }
        return print_position_hits(&conn, &args.db, &pos, &query, format);
    }
    if args.count && !args.duplicates {
        let n = kifu_index::count(&conn, &query).map_err(|e| e.to_string())?;
        print_count(n, format);
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    if args.duplicates {
        let hits = kifu_index::find(&conn, &query).map_err(|e| e.to_string())?;
        let groups = kifu_index::duplicate_groups(&hits);
        if let Some(to) = args.export {
            let games: Vec<_> =
                groups.iter().flat_map(|g| g.iter()).map(|h| (h.path.clone(), h.offset, h.kind.clone())).collect();
            return export(&games, to, args, format);
        }
        if args.count {
            print_count(groups.len(), format);
        } else {
            print_groups(&groups, format);
        }
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    let _read = conn.unchecked_transaction().map_err(|e| e.to_string())?;
    if let Some(to) = args.export {
        let mut games = Vec::new();
        kifu_index::find_each(&conn, &query, |h| {
            games.push((h.path, h.offset, h.kind));
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
        return export(&games, to, args, format);
    }
    print_hits(&conn, &query, format)
}

/// The games of `query`, written as they are read (a megabyte at a time) in `format`.
fn print_hits(conn: &rusqlite::Connection, query: &kifu_index::Query, format: Format) -> Result<ExitCode, String> {
    let mut s = String::new();
    let announced = match format {
        Format::Csv => {
            crate::csv::record(&mut s, CSV_COLUMNS.map(Some));
            None
        }
        Format::Json => {
            let n = kifu_index::count(conn, query).map_err(|e| e.to_string())?;
            Obj::new(&mut s).num("count", n).raw("games", "[");
            Some(n)
        }
        Format::Table => None,
    };
    let mut open = true;
    let listed = kifu_index::find_each(conn, query, |h| {
        match format {
            Format::Csv => hit_csv(&mut s, &h, None),
            Format::Json => {
                if !s.ends_with('[') {
                    s.push(',');
                }
                hit_json(&mut s, &h, None);
            }
            Format::Table => hit_line(&mut s, &h),
        }
        crate::out::go_on(&mut s, &mut open)
    })
    .map_err(|e| e.to_string())?;
    finish(&mut s, open, format, announced, listed)
}

/// The end of a listing written as it was made: JSON's closing brackets, the last of the
/// output, and a check that a count printed before the games is theirs (the index written
/// while it was read, between the two, would break that).
fn finish(s: &mut String, open: bool, format: Format, announced: Option<u64>, listed: u64) -> Result<ExitCode, String> {
    if !open {
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    if format == Format::Json {
        s.push_str("]}\n");
    }
    crate::out::print(s);
    match announced {
        Some(n) if n != listed => Err(format!(
            "{n} games counted but {listed} listed: the index changed while it was read (run the query again), \
                 or its positions file is out of step with its games (run `kifu index` again)"
        )),
        _ => Ok(ExitCode::from(crate::exit::CLEAN)),
    }
}

/// `--duplicates`: the groups of games with the same main line, each with its hash.
fn print_groups(groups: &[&[Hit]], format: Format) {
    let mut s = String::new();
    if format == Format::Csv {
        crate::csv::record(&mut s, CSV_COLUMNS.map(Some));
        for h in groups.iter().flat_map(|g| g.iter()) {
            hit_csv(&mut s, h, None);
            if !crate::out::spill(&mut s) {
                return;
            }
        }
    } else if format == Format::Json {
        let list = |hs: &[Hit]| {
            let mut a = String::from("[");
            for (i, h) in hs.iter().enumerate() {
                if i > 0 {
                    a.push(',');
                }
                hit_json(&mut a, h, None);
            }
            a.push(']');
            a
        };
        let mut g = String::from("[");
        for (i, hs) in groups.iter().enumerate() {
            if i > 0 {
                g.push(',');
            }
            Obj::new(&mut g)
                .str("main_hash", &format!("{:016x}", hs[0].hash as u64))
                .num("moves", hs[0].moves)
                .raw("games", &list(hs))
                .end();
        }
        g.push(']');
        Obj::new(&mut s).num("count", groups.len()).raw("groups", &g).end();
        s.push('\n');
    } else {
        for (i, hs) in groups.iter().enumerate() {
            if i > 0 {
                s.push('\n');
            }
            s.push_str(&format!("# {:016x}: {} games, {} moves\n", hs[0].hash as u64, hs.len(), hs[0].moves));
            for h in hs.iter() {
                hit_line(&mut s, h);
                if !crate::out::spill(&mut s) {
                    return;
                }
            }
        }
    }
    crate::out::print(&s);
}

/// `--export`: the games written through `find_export`.
fn export(
    games: &[(String, i64, String)],
    to: crate::to::Target,
    args: &Args,
    format: Format,
) -> Result<ExitCode, String> {
    let games: Vec<(&str, i64, &str)> = games.iter().map(|(p, o, k)| (p.as_str(), *o, k.as_str())).collect();
    let e = crate::find_export::Export {
        to,
        output: args.output.as_deref(),
        force: args.force,
        json: format == Format::Json,
    };
    crate::find_export::run(&games, &e)
}

/// `--count`: the number alone.
fn print_count(n: impl std::fmt::Display, format: Format) {
    let s = match format {
        Format::Table => format!("{n}\n"),
        Format::Json => format!("{{\"count\":{n}}}\n"),
        Format::Csv => format!("count\r\n{n}\r\n"),
    };
    crate::out::print(&s);
}

/// `--errors`: the files with errors.
fn print_errors(all: &[kifu_index::FileError], args: &Args, format: Format) -> Result<ExitCode, String> {
    let skip = args.offset.unwrap_or(0).min(all.len() as u64) as usize;
    let take = args.limit.map_or(usize::MAX, |l| l.min(usize::MAX as u64) as usize);
    let files: Vec<&kifu_index::FileError> = all.iter().skip(skip).take(take).collect();
    if args.count {
        print_count(files.len() as u64, format);
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    let mut s = String::new();
    match format {
        Format::Table => {
            for f in &files {
                s.push_str(&format!("{}\t{} errors\t{}\n", f.path, f.errors, f.error.as_deref().unwrap_or("-")));
            }
        }
        Format::Json => {
            let mut a = String::from("[");
            for (i, f) in files.iter().enumerate() {
                if i > 0 {
                    a.push(',');
                }
                let mut o = Obj::new(&mut a);
                o.str("path", &f.path);
                match &f.format {
                    Some(v) => o.str("format", v),
                    None => o.null("format"),
                };
                o.num("games", f.games).num("warnings", f.warnings).num("errors", f.errors);
                match &f.error {
                    Some(v) => o.str("error", v),
                    None => o.null("error"),
                };
                o.end();
            }
            a.push(']');
            Obj::new(&mut s).num("count", files.len()).raw("files", &a).end();
            s.push('\n');
        }
        Format::Csv => {
            crate::csv::record(&mut s, ["path", "format", "games", "warnings", "errors", "error"].map(Some));
            for f in &files {
                let (g, w, e) = (f.games.to_string(), f.warnings.to_string(), f.errors.to_string());
                crate::csv::record(
                    &mut s,
                    [Some(f.path.as_str()), f.format.as_deref(), Some(&g), Some(&w), Some(&e), f.error.as_deref()],
                );
            }
        }
    }
    crate::out::print(&s);
    Ok(ExitCode::from(crate::exit::CLEAN))
}

/// `kifu find --position`: the hits, with where each reached the position and what it played,
/// written as they are made (a megabyte at a time).
fn print_position_hits(
    conn: &rusqlite::Connection,
    db: &std::path::Path,
    pos: &kifu_index::Position,
    query: &kifu_index::Query,
    format: Format,
) -> Result<ExitCode, String> {
    let mut s = String::new();
    let twin = pos.with_twin.then(|| crate::position_arg::twin_word(pos));
    let announced = match format {
        Format::Csv => {
            let cols = CSV_COLUMNS.iter().chain(&["position_move", "symmetry", "next"]).map(|c| Some(*c));
            crate::csv::record(&mut s, cols.chain(twin.map(Some)));
            None
        }
        Format::Json => {
            let n = kifu_index::count_position(conn, db, pos, query).map_err(|e| e.to_string())?;
            Obj::new(&mut s).raw("position", &crate::explore::position_json(pos)).num("count", n).raw("games", "[");
            Some(n)
        }
        Format::Table => None,
    };
    let mut open = true;
    let listed = kifu_index::find_position_each(conn, db, pos, query, |h| {
        match format {
            Format::Csv => {
                hit_csv(&mut s, &h.hit, Some(&h));
                if twin.is_some() {
                    // The record's line end, then the twin column.
                    s.truncate(s.len() - 2);
                    s.push_str(if h.twin { ",true\r\n" } else { ",false\r\n" });
                }
            }
            Format::Json => {
                if !s.ends_with('[') {
                    s.push(',');
                }
                hit_json(&mut s, &h.hit, Some(&h));
                if let Some(w) = twin {
                    s.pop();
                    s.push_str(&format!(",\"{w}\":{}}}", h.twin));
                }
            }
            Format::Table => {
                hit_line(&mut s, &h.hit);
                s.pop();
                s.push_str(&format!("\t#{}\tsym {}\t{}", h.number, h.symmetry, kifu_index::move_text(h.next)));
                if let Some(w) = twin {
                    s.push('\t');
                    s.push_str(if h.twin { w } else { "-" });
                }
                s.push('\n');
            }
        }
        crate::out::go_on(&mut s, &mut open)
    })
    .map_err(|e| e.to_string())?;
    finish(&mut s, open, format, announced, listed)
}
