//! `kifu find [--db FILE] [filters] [--duplicates] [--json]`: games from the index.
//!
//! Filters (all must hold):
//! - `--player NAME`: Black's or White's name contains NAME (case-insensitive for ASCII);
//! - `--event TEXT`: the event contains TEXT;
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
//! `--duplicates` groups a Go game with its copies recorded rotated or reflected (the main line
//! up to the board's eight symmetries); each group's `main_hash` is its first game's.
//!
//! `--pattern P [--anchor corner|side|anywhere] [--swap-colors]` (Go): the games where the
//! pattern P appears (an ASCII diagram of `X`, `O`, `.`, `*`, or SGF setup with a region), in
//! any of the board's eight orientations, with the move number where it first appears and the
//! move played there, then the continuation table; the other filters still apply. See
//! `pattern_arg` for the forms of P and the output.

use crate::json::Obj;
use kifu_index::Hit;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu find`.
#[derive(clap::Args)]
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
    /// pattern's colours).
    #[arg(long, requires = "pattern")]
    swap_colors: bool,
    // -- end of pattern search --
    /// At most N games.
    #[arg(long)]
    limit: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let conn = kifu_index::open_existing(&args.db).map_err(|e| e.to_string())?;
    let query = kifu_index::Query {
        player: args.player.clone(),
        event: args.event.clone(),
        from: args.from.clone(),
        to: args.to.clone(),
        result: args.result.clone(),
        opening: args.opening.clone(),
        duplicates: args.duplicates,
        limit: args.limit,
    };
    // -- pattern search --
    if let Some(p) = &args.pattern {
        let pattern = crate::pattern_arg::parse(p, args.anchor.as_deref(), args.swap_colors)?;
        let found = kifu_index::find_pattern(&conn, &pattern, &query).map_err(|e| e.to_string())?;
        crate::pattern_arg::print(&pattern, &found, args.json);
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    // -- end of pattern search --
    if let Some(q) = &args.position {
        let pos = crate::position_arg::parse(q, 19)?;
        let hits = kifu_index::find_position(&conn, &args.db, &pos, &query).map_err(|e| e.to_string())?;
        print_position_hits(&pos, &hits, args.json);
        return Ok(ExitCode::from(crate::exit::CLEAN));
    }
    let hits = kifu_index::find(&conn, &query).map_err(|e| e.to_string())?;
    let groups: Vec<&[Hit]> = if args.duplicates { kifu_index::duplicate_groups(&hits) } else { vec![&hits] };
    let mut s = String::new();
    if args.json {
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
        let mut o = Obj::new(&mut s);
        if args.duplicates {
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
            o.num("count", groups.len()).raw("groups", &g).end();
        } else {
            o.num("count", hits.len()).raw("games", &list(&hits)).end();
        }
        s.push('\n');
    } else {
        for (i, hs) in groups.iter().enumerate() {
            if args.duplicates {
                if i > 0 {
                    s.push('\n');
                }
                s.push_str(&format!("# {:016x}: {} games, {} moves\n", hs[0].hash as u64, hs.len(), hs[0].moves));
            }
            for h in hs.iter() {
                hit_line(&mut s, h);
            }
        }
    }
    crate::out::print(&s);
    Ok(ExitCode::from(crate::exit::CLEAN))
}

fn player(name: &Option<String>, rank: &Option<String>) -> String {
    match (name, rank) {
        (Some(n), Some(r)) => format!("{n} ({r})"),
        (Some(n), None) => n.clone(),
        (None, Some(r)) => format!("? ({r})"),
        (None, None) => "?".to_owned(),
    }
}

pub(crate) fn hit_line(s: &mut String, h: &Hit) {
    let o = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".to_owned());
    s.push_str(&format!(
        "{}@{}\t{}\t{} - {}\t{}\t{} moves\t{}\n",
        h.path,
        h.offset,
        o(&h.date),
        player(&h.black, &h.black_rank),
        player(&h.white, &h.white_rank),
        o(&h.result),
        h.moves,
        o(&h.event)
    ));
}

/// `kifu find --position`: the hits, with where each reached the position and what it played.
fn print_position_hits(pos: &kifu_index::Position, hits: &[kifu_index::PositionHit], json: bool) {
    let mut s = String::new();
    if json {
        let mut a = String::from("[");
        for (i, h) in hits.iter().enumerate() {
            if i > 0 {
                a.push(',');
            }
            hit_json(&mut a, &h.hit, Some(h));
        }
        a.push(']');
        Obj::new(&mut s)
            .raw("position", &crate::explore::position_json(pos))
            .num("count", hits.len())
            .raw("games", &a)
            .end();
        s.push('\n');
    } else {
        for h in hits {
            hit_line(&mut s, &h.hit);
            s.pop();
            s.push_str(&format!("\t#{}\tsym {}\t{}\n", h.number, h.symmetry, kifu_index::move_text(h.next)));
        }
    }
    crate::out::print(&s);
}

pub(crate) fn hit_json(s: &mut String, h: &Hit, at: Option<&kifu_index::PositionHit>) {
    let mut o = Obj::new(s);
    o.str("path", &h.path).num("offset", h.offset);
    for (k, v) in [
        ("date", &h.date),
        ("black_name", &h.black),
        ("black_rank", &h.black_rank),
        ("white_name", &h.white),
        ("white_rank", &h.white_rank),
        ("result", &h.result),
        ("winner", &h.winner),
        ("event", &h.event),
    ] {
        match v {
            Some(v) => o.str(k, v),
            None => o.null(k),
        };
    }
    o.num("moves", h.moves).str("main_hash", &format!("{:016x}", h.hash as u64)).str("opening", &h.opening);
    if let Some(p) = at {
        o.num("position_move", p.number).num("symmetry", p.symmetry).str("next", &kifu_index::move_text(p.next));
    }
    o.end();
}
