//! How `kifu find` prints one game it found, shared by its table, JSON and CSV outputs and by
//! `--pattern` (`pattern_arg`): a line, a JSON object, a CSV record with its columns.

use crate::json::Obj;
use kifu_index::Hit;

/// The columns of a game in CSV (its JSON fields).
pub(crate) const CSV_COLUMNS: [&str; 18] = [
    "path",
    "offset",
    "date",
    "black_name",
    "black_rank",
    "white_name",
    "white_rank",
    "result",
    "winner",
    "event",
    "moves",
    "main_hash",
    "opening",
    "kind",
    "board_size",
    "komi",
    "handicap",
    "place",
];

/// A player as a line names them: `Lee (9p)`, `? (9p)`, `?`.
fn player(name: &Option<String>, rank: &Option<String>) -> String {
    match (name, rank) {
        (Some(n), Some(r)) => format!("{n} ({r})"),
        (Some(n), None) => n.clone(),
        (None, Some(r)) => format!("? ({r})"),
        (None, None) => "?".to_owned(),
    }
}

/// A game as one tab-separated line of `kifu find`'s table.
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

/// A game as one JSON object of `kifu find --json` (with `at`, where it reached the position
/// and what it played next).
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
    o.str("kind", &h.kind);
    match &h.board_size {
        Some(v) => o.str("board_size", v),
        None => o.null("board_size"),
    };
    match &h.komi {
        Some(v) => o.num("komi", v),
        None => o.null("komi"),
    };
    match h.handicap {
        Some(v) => o.num("handicap", v),
        None => o.null("handicap"),
    };
    match &h.place {
        Some(v) => o.str("place", v),
        None => o.null("place"),
    };
    if let Some(p) = at {
        o.num("position_move", p.number).num("symmetry", p.symmetry).str("next", &kifu_index::move_text(p.next));
    }
    o.end();
}

/// One CSV record of a game: [`CSV_COLUMNS`], then the position's columns with `at`.
pub(crate) fn hit_csv(s: &mut String, h: &Hit, at: Option<&kifu_index::PositionHit>) {
    let (offset, moves, hash) = (h.offset.to_string(), h.moves.to_string(), format!("{:016x}", h.hash as u64));
    let handicap = h.handicap.map(|k| k.to_string());
    let mut fields: Vec<Option<&str>> = vec![
        Some(&h.path),
        Some(&offset),
        h.date.as_deref(),
        h.black.as_deref(),
        h.black_rank.as_deref(),
        h.white.as_deref(),
        h.white_rank.as_deref(),
        h.result.as_deref(),
        h.winner.as_deref(),
        h.event.as_deref(),
        Some(&moves),
        Some(&hash),
        Some(&h.opening),
        Some(&h.kind),
        h.board_size.as_deref(),
        h.komi.as_deref(),
        handicap.as_deref(),
        h.place.as_deref(),
    ];
    let pos = at.map(|p| (p.number.to_string(), p.symmetry.to_string(), kifu_index::move_text(p.next)));
    if let Some((n, sym, next)) = &pos {
        fields.extend([Some(n.as_str()), Some(sym.as_str()), Some(next.as_str())]);
    }
    crate::csv::record(s, fields);
}
