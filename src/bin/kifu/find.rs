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

use crate::json::Obj;
use rusqlite::types::Value;
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
    #[arg(long, value_parser = ["B", "W", "draw"])]
    result: Option<String>,
    /// The main line starts with MOVES (`B[pd];W[dp]` or `pd dp`).
    #[arg(long)]
    opening: Option<String>,
    /// Groups of games with the same main line.
    #[arg(long)]
    duplicates: bool,
    /// At most N games.
    #[arg(long)]
    limit: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Escapes `s` for a LIKE pattern with `\` as the escape character.
fn like_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('%');
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// Escapes one character for a GLOB pattern.
fn glob_char(out: &mut String, c: char) {
    match c {
        '*' | '?' | '[' => {
            out.push('[');
            out.push(c);
            out.push(']');
        }
        c => out.push(c),
    }
}

/// The GLOB pattern matching openings that start with `moves` (see the module docs).
pub fn opening_glob(moves: &str) -> String {
    let t = moves.trim().trim_start_matches('(').trim_start_matches(';').trim_end_matches(')');
    let mut out = String::new();
    if t.contains('[') || t.starts_with(['+', '-']) {
        for c in t.chars() {
            glob_char(&mut out, c);
        }
    } else {
        let parts = t.split([' ', ',', ';']).filter(|p| !p.is_empty());
        for (i, p) in parts.enumerate() {
            if i > 0 {
                out.push(';');
            }
            out.push('?'); // either colour: `B`/`W` or `+`/`-`
            let is_go = p.len() == 2 && p.chars().all(|c| c.is_ascii_alphabetic());
            if is_go {
                glob_char(&mut out, '[');
            }
            for c in p.chars() {
                glob_char(&mut out, c);
            }
            if is_go {
                out.push(']');
            }
        }
    }
    out.push('*');
    out
}

/// Checks a date argument: it must normalise to itself.
fn check_date(flag: &str, d: &str) -> Result<(), String> {
    let ok = d.len() >= 4 && d.bytes().all(|b| b.is_ascii_digit() || b == b'-') && {
        let n = crate::index::normalize_date(d);
        n.as_deref() == Some(d)
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{flag} {d}: expected YYYY, YYYY-MM or YYYY-MM-DD"))
    }
}

struct Hit {
    path: String,
    offset: i64,
    date: Option<String>,
    black: Option<String>,
    black_rank: Option<String>,
    white: Option<String>,
    white_rank: Option<String>,
    result: Option<String>,
    winner: Option<String>,
    moves: i64,
    event: Option<String>,
    hash: i64,
    opening: String,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let conn = crate::index::open_existing(&args.db)?;
    // Each clause with its values, one per `?` in order.
    let mut clauses: Vec<&str> = Vec::new();
    let mut bound: Vec<Value> = Vec::new();
    let mut add = |clause: &'static str, values: &[&str]| {
        clauses.push(clause);
        bound.extend(values.iter().map(|v| Value::Text((*v).to_owned())));
    };
    if let Some(p) = &args.player {
        let pat = like_escape(p);
        add("(g.black_name LIKE ? ESCAPE '\\' OR g.white_name LIKE ? ESCAPE '\\')", &[&pat, &pat]);
    }
    if let Some(e) = &args.event {
        add("g.event LIKE ? ESCAPE '\\'", &[&like_escape(e)]);
    }
    if let Some(d) = &args.from {
        check_date("--from", d)?;
        add("substr(g.date, 1, length(?)) >= ?", &[d, d]);
    }
    if let Some(d) = &args.to {
        check_date("--to", d)?;
        add("substr(g.date, 1, length(?)) <= ?", &[d, d]);
    }
    if let Some(r) = &args.result {
        add("g.winner = ?", &[r]);
    }
    if let Some(o) = &args.opening {
        add("g.opening GLOB ?", &[&opening_glob(o)]);
    }
    if args.duplicates {
        add(
            "g.moves > 0 AND g.main_hash IN (SELECT main_hash FROM games WHERE moves > 0 GROUP BY main_hash HAVING count(*) > 1)",
            &[],
        );
    }
    let where_ = if clauses.is_empty() { String::new() } else { format!("WHERE {}", clauses.join(" AND ")) };
    let order = if args.duplicates { "g.main_hash, f.path, g.offset" } else { "f.path, g.offset" };
    let limit = args.limit.map_or(String::new(), |n| format!(" LIMIT {n}"));
    let sql = format!(
        "SELECT f.path, g.offset, g.date, g.black_name, g.black_rank, g.white_name, g.white_rank,
                g.result_raw, g.winner, g.moves, g.event, g.main_hash, g.opening
         FROM games g JOIN files f ON f.id = g.file_id {where_} ORDER BY {order}{limit}"
    );
    let mut st = conn.prepare(&sql).map_err(|e| e.to_string())?;
    let rows = st
        .query_map(rusqlite::params_from_iter(bound), |r| {
            Ok(Hit {
                path: r.get(0)?,
                offset: r.get(1)?,
                date: r.get(2)?,
                black: r.get(3)?,
                black_rank: r.get(4)?,
                white: r.get(5)?,
                white_rank: r.get(6)?,
                result: r.get(7)?,
                winner: r.get(8)?,
                moves: r.get(9)?,
                event: r.get(10)?,
                hash: r.get(11)?,
                opening: r.get(12)?,
            })
        })
        .map_err(|e| e.to_string())?;
    let mut hits = Vec::new();
    for r in rows {
        hits.push(r.map_err(|e| e.to_string())?);
    }
    let mut groups: Vec<&[Hit]> = Vec::new();
    if args.duplicates {
        let mut i = 0;
        while i < hits.len() {
            let j = i + hits[i..].iter().take_while(|h| h.hash == hits[i].hash).count();
            if j - i >= 2 {
                groups.push(&hits[i..j]);
            }
            i = j;
        }
    } else {
        groups.push(&hits);
    }
    let mut s = String::new();
    if args.json {
        let list = |hs: &[Hit]| {
            let mut a = String::from("[");
            for (i, h) in hs.iter().enumerate() {
                if i > 0 {
                    a.push(',');
                }
                hit_json(&mut a, h);
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
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(s.as_bytes());
    Ok(ExitCode::SUCCESS)
}

fn player(name: &Option<String>, rank: &Option<String>) -> String {
    match (name, rank) {
        (Some(n), Some(r)) => format!("{n} ({r})"),
        (Some(n), None) => n.clone(),
        (None, Some(r)) => format!("? ({r})"),
        (None, None) => "?".to_owned(),
    }
}

fn hit_line(s: &mut String, h: &Hit) {
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

fn hit_json(s: &mut String, h: &Hit) {
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
    o.num("moves", h.moves).str("main_hash", &format!("{:016x}", h.hash as u64)).str("opening", &h.opening).end();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_patterns() {
        assert_eq!(opening_glob("B[pd];W[dp]"), "B[[]pd];W[[]dp]*");
        assert_eq!(opening_glob("(;B[pd];W[dp]"), "B[[]pd];W[[]dp]*");
        assert_eq!(opening_glob("pd dp"), "?[[]pd];?[[]dp]*");
        assert_eq!(opening_glob("pd,dp"), "?[[]pd];?[[]dp]*");
        assert_eq!(opening_glob("+7776FU;-3334FU"), "+7776FU;-3334FU*");
        assert_eq!(opening_glob("7776FU 3334FU"), "?7776FU;?3334FU*");
        assert_eq!(like_escape("a_b%"), "%a\\_b\\%%");
    }
}
