//! Searching an index: a [`Query`] of filters that must all hold (players, event, dates, result,
//! opening, duplicates) turned into one SQL statement, and its [`Hit`]s. This is what `kifu find`
//! answers; the command only prints.

use crate::Error;
use rusqlite::types::Value;
use rusqlite::Connection;

/// Filters on the games of an index; `Query::default()` matches every game.
///
/// ```no_run
/// let conn = kifu_index::open_existing("games.sqlite".as_ref())?;
/// let query = kifu_index::Query { player: Some("Shusaku".into()), ..Default::default() };
/// for hit in kifu_index::find(&conn, &query)? {
///     println!("{}@{} {:?}", hit.path, hit.offset, hit.date);
/// }
/// # Ok::<(), kifu_index::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// Black's or White's name contains this (case-insensitive for ASCII).
    pub player: Option<String>,
    /// The event contains this.
    pub event: Option<String>,
    /// Played on or after this date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), compared to its
    /// precision: `--from 2005 --to 2005` is the whole year; games without a date never match.
    pub from: Option<String>,
    /// Played on or before this date (as [`Query::from`]).
    pub to: Option<String>,
    /// The parsed winner: `B`, `W` or `draw`.
    pub result: Option<String>,
    /// The main line starts with these moves, in canonical notation (`B[pd];W[dp]`,
    /// `(;B[pd];W[dp]` or `;+7776FU;-3334FU`) or as bare points/moves separated by spaces or
    /// commas, either colour (`pd dp`, `7776FU 3334FU`); canonical moves may be separated by
    /// spaces or commas too (`+6968KI -5354FU`). Case-sensitive (SGF `aa` ≠ `AA`).
    pub opening: Option<String>,
    /// Only games whose main line another matching game shares, up to the board's symmetries
    /// (games without moves are left out: they would all match); hits come ordered by
    /// [`Hit::symmetric_hash`], see [`duplicate_groups`].
    pub duplicates: bool,
    /// At most this many games.
    pub limit: Option<u64>,
}

/// One game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The file (or `archive!member`) it is in.
    pub path: String,
    /// The byte offset of its start (what `kifu show PATH@OFFSET` takes).
    pub offset: i64,
    /// Its date, normalised.
    pub date: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// Black's rank.
    pub black_rank: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// White's rank.
    pub white_rank: Option<String>,
    /// The result as written.
    pub result: Option<String>,
    /// The parsed winner: `B`, `W` or `draw`.
    pub winner: Option<String>,
    /// Moves on the main line.
    pub moves: i64,
    /// The event.
    pub event: Option<String>,
    /// The main line's hash (the same game in any format has the same one).
    pub hash: i64,
    /// The main line's first moves in canonical notation.
    pub opening: String,
    /// The main line's hash up to the board's eight symmetries (Go; shogi: [`Hit::hash`]): a
    /// game and its rotated or reflected copies share it. [`duplicate_groups`] groups by it.
    pub symmetric_hash: i64,
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

/// The GLOB pattern matching openings that start with `moves` (see [`Query::opening`]).
pub fn opening_glob(moves: &str) -> String {
    let t = moves.trim().trim_start_matches('(').trim_start_matches(';').trim_end_matches(')');
    let mut out = String::new();
    if t.contains('[') || t.starts_with(['+', '-']) {
        // Canonical moves, separated by `;` as the index writes them or by spaces or commas as
        // people type them (`+6968KI -5354FU`).
        let parts = t.split([' ', ',', ';', '\t', '\n']).filter(|p| !p.is_empty());
        for (i, p) in parts.enumerate() {
            if i > 0 {
                out.push(';');
            }
            for c in p.chars() {
                glob_char(&mut out, c);
            }
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

/// Checks a date filter: it must normalise to itself.
fn check_date(flag: &str, d: &str) -> Result<(), Error> {
    let ok = d.len() >= 4
        && d.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        && crate::normalize::date(d).as_deref() == Some(d);
    if ok {
        Ok(())
    } else {
        Err(Error::usage(format!("{flag} {d}: expected YYYY, YYYY-MM or YYYY-MM-DD")))
    }
}

/// The games of the index that match `query`, ordered by path and offset (by
/// [`Hit::symmetric_hash`], then path and offset, for [`Query::duplicates`]). A malformed date filter is an error of kind
/// [`ErrorKind::Usage`](crate::ErrorKind::Usage).
pub fn find(conn: &Connection, query: &Query) -> Result<Vec<Hit>, Error> {
    Ok(find_in(conn, query, None)?.into_iter().map(|(_, h)| h).collect())
}

/// [`find`] among the games with the given ids only (all games with `None`), with each hit's
/// game id.
pub(crate) fn find_in(conn: &Connection, query: &Query, ids: Option<&[u64]>) -> Result<Vec<(i64, Hit)>, Error> {
    // Each clause with its values, one per `?` in order.
    let mut clauses: Vec<&str> = Vec::new();
    let mut bound: Vec<Value> = Vec::new();
    let mut add = |clause: &'static str, values: &[&str]| {
        clauses.push(clause);
        bound.extend(values.iter().map(|v| Value::Text((*v).to_owned())));
    };
    if let Some(p) = &query.player {
        let pat = like_escape(p);
        add("(g.black_name LIKE ? ESCAPE '\\' OR g.white_name LIKE ? ESCAPE '\\')", &[&pat, &pat]);
    }
    if let Some(e) = &query.event {
        add("g.event LIKE ? ESCAPE '\\'", &[&like_escape(e)]);
    }
    if let Some(d) = &query.from {
        check_date("--from", d)?;
        add("substr(g.date, 1, length(?)) >= ?", &[d, d]);
    }
    if let Some(d) = &query.to {
        check_date("--to", d)?;
        add("substr(g.date, 1, length(?)) <= ?", &[d, d]);
    }
    if let Some(r) = &query.result {
        add("g.winner = ?", &[r]);
    }
    if let Some(o) = &query.opening {
        add("g.opening GLOB ?", &[&opening_glob(o)]);
    }
    if query.duplicates {
        add(
            // Up to symmetry (pattern search's `sym_hash`).
            "g.moves > 0 AND g.sym_hash IN (SELECT sym_hash FROM games WHERE moves > 0 GROUP BY sym_hash HAVING count(*) > 1)",
            &[],
        );
    }
    let id_list;
    if let Some(ids) = ids {
        // Literal integers: no limit on bound parameters, and SQLite builds a b-tree of them.
        id_list = format!("g.id IN ({})", ids.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        clauses.push(&id_list);
    }
    let where_ = if clauses.is_empty() { String::new() } else { format!("WHERE {}", clauses.join(" AND ")) };
    let order = if query.duplicates { "g.sym_hash, f.path, g.offset" } else { "f.path, g.offset" };
    let limit = query.limit.map_or(String::new(), |n| format!(" LIMIT {n}"));
    let sql = format!(
        "SELECT g.id, f.path, g.offset, g.date, g.black_name, g.black_rank, g.white_name, g.white_rank,
                g.result_raw, g.winner, g.moves, g.event, g.main_hash, g.opening, g.sym_hash
         FROM games g JOIN files f ON f.id = g.file_id {where_} ORDER BY {order}{limit}"
    );
    let mut st = conn.prepare(&sql)?;
    let rows = st.query_map(rusqlite::params_from_iter(bound), |r| {
        Ok((
            r.get::<_, i64>(0)?,
            Hit {
                path: r.get(1)?,
                offset: r.get(2)?,
                date: r.get(3)?,
                black: r.get(4)?,
                black_rank: r.get(5)?,
                white: r.get(6)?,
                white_rank: r.get(7)?,
                result: r.get(8)?,
                winner: r.get(9)?,
                moves: r.get(10)?,
                event: r.get(11)?,
                hash: r.get(12)?,
                opening: r.get(13)?,
                symmetric_hash: r.get::<_, Option<i64>>(14)?.unwrap_or(0),
            },
        ))
    })?;
    let mut hits = Vec::new();
    for r in rows {
        hits.push(r?);
    }
    Ok(hits)
}

/// The runs of two or more hits with the same main line up to the board's symmetries in `hits`
/// (as [`find`] returns them for [`Query::duplicates`]: ordered by [`Hit::symmetric_hash`]): a
/// Go game recorded rotated or reflected is in its original's group.
pub fn duplicate_groups(hits: &[Hit]) -> Vec<&[Hit]> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < hits.len() {
        let j = i + hits[i..].iter().take_while(|h| h.symmetric_hash == hits[i].symmetric_hash).count();
        if j - i >= 2 {
            groups.push(&hits[i..j]);
        }
        i = j;
    }
    groups
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
        assert_eq!(opening_glob("+6968KI -5354FU"), "+6968KI;-5354FU*");
        assert_eq!(opening_glob("+6968KI, -5354FU"), "+6968KI;-5354FU*");
        assert_eq!(opening_glob("B[pd] W[dp]"), "B[[]pd];W[[]dp]*");
        assert_eq!(like_escape("a_b%"), "%a\\_b\\%%");
    }
}
