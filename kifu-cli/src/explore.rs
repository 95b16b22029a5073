//! `kifu explore Q [--db FILE] [--min-games N] [--json]`: the continuation table of a position
//! from the index — each move played next there (in the query's own orientation), its number of
//! games, Black's (sente's) and White's (gote's) wins and draws, the dates, and the players who
//! chose it most. Q takes the forms of `position_arg` (`FILE[@OFFSET]#MOVE`, a move list, SGF
//! setup, an SFEN), or one of `--moves`, `--sgf`, `--sfen`.
//!
//! Output: a table, most played move first (`end`: games that ended there); `--json`: one
//! object, `{"position":{…},"games":N,"moves":[{"move":"B[pd]","games":…,"black_wins":…,
//! "white_wins":…,"draws":…,"first_date":…,"last_date":…,"average_year":…,"players":[{"name":…,
//! "games":…}]}]}`.
//!
//! `--swap-colors` (Go) / `--mirror` (shogi): the games through the position's colour-swapped
//! or left-right mirrored twin count too (see [`kifu_index::Position::also_twin`]); the table
//! then has a last column, and JSON each move a field and the object a `…_games` count, named
//! `swapped` or `mirrored`: how many of the games came through the twin.

use crate::json::Obj;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `kifu explore`.
#[derive(clap::Args)]
pub struct Args {
    /// The position: FILE[@OFFSET]#MOVE (after move MOVE of that game), a move list (`pd dp pp`,
    /// `7g7f 3c3d`), SGF setup (`AB[pd][dp]AW[dd]`) or an SFEN.
    #[arg(required_unless_present_any = ["moves", "sgf", "sfen"])]
    position: Option<String>,
    /// The position after these moves: Go in SGF coordinates, Black first (`pd dp pp`), or shogi
    /// in USI from the standard start (`7g7f 3c3d`).
    #[arg(long, conflicts_with_all = ["position", "sgf", "sfen"])]
    moves: Option<String>,
    /// The position of this SGF setup (`AB[pd][dp]AW[dd]`; `SZ[13]` for another size).
    #[arg(long, conflicts_with_all = ["position", "sfen"])]
    sgf: Option<String>,
    /// The shogi position of this SFEN.
    #[arg(long, conflicts_with = "position")]
    sfen: Option<String>,
    /// The Go board size of a move list.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(1..=52))]
    size: u8,
    /// The index database (its positions file is DB.positions).
    #[arg(long, default_value = "kifu.sqlite")]
    db: PathBuf,
    /// Leave out moves played in fewer than N games.
    #[arg(long, default_value_t = 1)]
    min_games: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Go: also count the games through the position with Black and White exchanged, each
    /// game once (at its first time at either); their moves and wins are turned back into the
    /// query's colours. Adds a `swapped` column (`"swapped"` in JSON): of a move's games, those.
    #[arg(long)]
    swap_colors: bool,
    /// Shogi: also count the games through the position mirrored left to right (files 1-9
    /// exchanged; hands and side to move kept), each game once; their moves are mirrored back.
    /// Adds a `mirrored` column (`"mirrored"` in JSON).
    #[arg(long)]
    mirror: bool,
}

/// The position the flags give.
fn position(args: &Args) -> Result<kifu_index::Position, String> {
    fn err(q: &str) -> impl Fn(kifu_index::Error) -> String + '_ {
        move |e| format!("{q}: {e}")
    }
    let pos = if let Some(m) = &args.moves {
        kifu_index::Position::from_move_list(m, args.size).map_err(err(m))?
    } else if let Some(s) = &args.sgf {
        kifu_index::Position::from_sgf_setup(s).map_err(err(s))?
    } else if let Some(s) = &args.sfen {
        kifu_index::Position::from_sfen(s).map_err(err(s))?
    } else {
        crate::position_arg::parse(args.position.as_deref().unwrap_or(""), args.size)?
    };
    crate::position_arg::with_twin(pos, args.swap_colors, args.mirror)
}

/// The position as JSON (`kind`, `hash`, `size` or `sfen`, `move`).
pub fn position_json(p: &kifu_index::Position) -> String {
    let mut s = String::new();
    let mut o = Obj::new(&mut s);
    o.str("kind", p.kind.as_str()).str("hash", &format!("{:016x}", p.hash));
    match &p.sfen {
        Some(sfen) => o.str("sfen", sfen),
        None => o.str("size", &format!("{}:{}", p.size.0, p.size.1)),
    };
    o.num("move", p.number).end();
    s
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let pos = position(args)?;
    let conn = kifu_index::open_existing(&args.db).map_err(|e| e.to_string())?;
    let table = kifu_index::explore(&conn, &args.db, &pos, args.min_games).map_err(|e| e.to_string())?;
    let mut s = String::new();
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".to_owned());
    let twin = pos.with_twin.then(|| crate::position_arg::twin_word(&pos));
    if args.json {
        let mut moves = String::from("[");
        for (i, c) in table.moves.iter().enumerate() {
            if i > 0 {
                moves.push(',');
            }
            let mut players = String::from("[");
            for (j, (name, n)) in c.players.iter().enumerate() {
                if j > 0 {
                    players.push(',');
                }
                Obj::new(&mut players).str("name", name).num("games", n).end();
            }
            players.push(']');
            let mut o = Obj::new(&mut moves);
            o.str("move", &kifu_index::move_text(c.next))
                .num("games", c.games)
                .num("black_wins", c.black_wins)
                .num("white_wins", c.white_wins)
                .num("draws", c.draws);
            for (k, v) in [("first_date", &c.first_date), ("last_date", &c.last_date)] {
                match v {
                    Some(v) => o.str(k, v),
                    None => o.null(k),
                };
            }
            match c.average_year {
                Some(y) => o.num("average_year", format!("{y:.1}")),
                None => o.null("average_year"),
            };
            o.raw("players", &players);
            if let Some(w) = twin {
                o.num(w, c.twin_games);
            }
            o.end();
        }
        moves.push(']');
        let mut o = Obj::new(&mut s);
        o.raw("position", &position_json(&pos)).num("games", table.games);
        if let Some(w) = twin {
            o.num(&format!("{w}_games"), table.twin_games);
        }
        o.raw("moves", &moves).end();
        s.push('\n');
    } else {
        match twin {
            Some(w) => s.push_str(&format!("{} games ({} {w})\n", table.games, table.twin_games)),
            None => s.push_str(&format!("{} games\n", table.games)),
        }
        s.push_str("move\tgames\t%\tB wins\tW wins\tdraws\tdates\tavg year\tplayers");
        if let Some(w) = twin {
            s.push_str(&format!("\t{w}"));
        }
        s.push('\n');
        for c in &table.moves {
            let pct = if table.games > 0 { 100.0 * c.games as f64 / table.games as f64 } else { 0.0 };
            let players: Vec<String> = c.players.iter().map(|(n, k)| format!("{n} ({k})")).collect();
            s.push_str(&format!(
                "{}\t{}\t{pct:.1}\t{}\t{}\t{}\t{}..{}\t{}\t{}\n",
                kifu_index::move_text(c.next),
                c.games,
                c.black_wins,
                c.white_wins,
                c.draws,
                opt(&c.first_date),
                opt(&c.last_date),
                c.average_year.map_or("-".to_owned(), |y| format!("{y:.0}")),
                players.join(", ")
            ));
            if twin.is_some() {
                s.pop();
                s.push_str(&format!("\t{}\n", c.twin_games));
            }
        }
    }
    crate::out::print(&s);
    Ok(ExitCode::from(crate::exit::CLEAN))
}
