//! Searching an index: a [`Query`] of filters that must all hold (players, ranks, event, place,
//! dates, result, board size, kind, handicap, komi, number of moves, opening, duplicates) turned
//! into one SQL statement whose values are all bound parameters, with an order ([`Query::sort`])
//! and a page ([`Query::limit`], [`Query::offset`]); its [`Hit`]s, their [`count`], and the files
//! that had errors ([`error_files`]). This is what `kifu find` answers; the command only prints.
//!
//! # Ranks
//! The index keeps ranks as written. [`Query::rank`] reads each distinct rank of the index with
//! [`rank_value`] (`9d`, `9 dan`, `9-dan`, `9D`, `9段`, `九段`, `初段`, `P9段`, `9p`, `9 pro`,
//! `15k`, `15 kyu`, `15級`, IGS's `11k+`) on one scale, kyu below dan below professional, and
//! binds the list of those that match (one JSON array parameter): the filter costs one pass over
//! the distinct ranks, however many games.

use crate::Error;
use rusqlite::types::Value;
use rusqlite::Connection;
use std::ops::ControlFlow;

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
    /// Black's name contains this (as [`Query::player`]).
    pub black: Option<String>,
    /// White's name contains this (as [`Query::player`]).
    pub white: Option<String>,
    /// Either player's rank is this rank (`9d`, `1p`, `15k`) or in this range (`5d..9d`,
    /// `10k..1k`, `5d..` for 5 dan and above, `..1k`): see [`rank_value`] for the forms read and
    /// the order (kyu below dan below professional; the ends may come in either order).
    pub rank: Option<String>,
    /// The board size: `19`, or `19x13` / `19:13` for a rectangular board.
    pub size: Option<String>,
    /// `go` or `shogi`.
    pub kind: Option<String>,
    /// Handicap stones (a game without a handicap written counts as 0).
    pub handicap: Option<i64>,
    /// Komi in points, as the index normalised it (Fox's `KM[375]` is 7.5): `6.5`, or a range
    /// `5.5..7.5` (either end may be left open: `7..`, `..0`). Games without komi never match.
    pub komi: Option<String>,
    /// Main-line moves: `N`, or a range `MIN..MAX` with either end open (`100..`, `..50`).
    pub moves: Option<String>,
    /// The place contains this.
    pub place: Option<String>,
    /// The order: one of [`SORT_FIELDS`] (games without the field come last); ties, and the
    /// default, by path and offset. With [`Query::duplicates`], the order within each group.
    pub sort: Option<String>,
    /// [`Query::sort`] descending.
    pub descending: bool,
    /// Skip this many games first (with [`Query::limit`], a page).
    pub offset: Option<u64>,
}

/// The fields [`Query::sort`] takes, each with the column it orders by.
pub const SORT_FIELDS: [(&str, &str); 15] = [
    ("path", "f.path"),
    ("date", "g.date"),
    ("moves", "g.moves"),
    ("black", "g.black_name COLLATE NOCASE"),
    ("white", "g.white_name COLLATE NOCASE"),
    ("event", "g.event COLLATE NOCASE"),
    ("place", "g.place COLLATE NOCASE"),
    ("komi", "g.komi"),
    ("handicap", "g.handicap"),
    ("result", "g.winner"),
    ("size", "g.board_size"),
    ("kind", "g.kind"),
    ("format", "g.format"),
    ("black_rank", "g.black_rank"),
    ("white_rank", "g.white_rank"),
];

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
    /// `go` or `shogi`.
    pub kind: String,
    /// The board size, `19` or `19:13`.
    pub board_size: Option<String>,
    /// Komi in points (normalised) as a decimal number, `7.5`, `6`, `-0.5` (a string so that a
    /// hit stays `Eq`).
    pub komi: Option<String>,
    /// Handicap stones, as written.
    pub handicap: Option<i64>,
    /// The place.
    pub place: Option<String>,
    /// The main line's hash up to the board's eight symmetries (Go; shogi: [`Hit::hash`]): a
    /// game and its rotated or reflected copies share it. [`duplicate_groups`] groups by it.
    pub symmetric_hash: i64,
}

/// A file of the index that had errors (see [`error_files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The file (or `archive!member`).
    pub path: String,
    /// Its format, if it is a game record.
    pub format: Option<String>,
    /// Games read from it.
    pub games: i64,
    /// Warnings.
    pub warnings: i64,
    /// Errors (an unreadable or binary file is one).
    pub errors: i64,
    /// The first error, `line:column: message`.
    pub error: Option<String>,
}

/// The files of the index that had errors, and why, ordered by path.
pub fn error_files(conn: &Connection) -> Result<Vec<FileError>, Error> {
    let mut st =
        conn.prepare("SELECT path, format, games, warnings, errors, error FROM files WHERE errors > 0 ORDER BY path")?;
    let rows = st.query_map([], |r| {
        Ok(FileError {
            path: r.get(0)?,
            format: r.get(1)?,
            games: r.get(2)?,
            warnings: r.get(3)?,
            errors: r.get(4)?,
            error: r.get(5)?,
        })
    })?;
    let mut out = Vec::new();
    for r in rows {
        out.push(r?);
    }
    Ok(out)
}

/// A rank as a number on one scale, kyu below dan below professional dan: `Nk` is `100 - N`
/// (30k = 70 … 1k = 99), `Nd` is `100 + N`, `Np` is `200 + N`. Read: `9d`, `9D`, `9 dan`,
/// `9-dan`, `9dan`, `9段`/`9단`, kanji numerals (`九段`, `初段` = 1 dan), `9p`, `9 pro`, `P9段`,
/// `P9`, `P9p` (Fox's professionals), `9dp`, `15k`, `15 kyu`, `15級`/`15级`/`15급`, with IGS's marks
/// (`11k+`, `3d*`, `5k?`) dropped. `None` for anything else (titles, `NR`, `?`).
pub fn rank_value(raw: &str) -> Option<i32> {
    let t = raw.trim().trim_end_matches(['+', '*', '?']).trim_end();
    if let Some(r) = kifu::dialect::cjk_rank(t) {
        return rank_value(r);
    }
    let (pro, t) = match t.strip_prefix(['P', 'p']).filter(|r| r.starts_with(|c: char| c.is_ascii_digit())) {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (n, unit) = if digits > 0 {
        (t[..digits].parse::<i32>().ok()?, t[digits..].trim_start_matches([' ', '-']).trim())
    } else {
        // Kanji numerals: 初段, 一段 … 九段, 十級 ….
        let mut chars = t.chars();
        let c = chars.next()?;
        let n = "初一二三四五六七八九十".chars().position(|k| k == c)?.max(1) as i32;
        (n, chars.as_str())
    };
    let unit = unit.to_ascii_lowercase();
    let v = match unit.as_str() {
        "k" | "kyu" | "級" | "级" | "급" if !pro && (1..=30).contains(&n) => 100 - n,
        "d" | "dan" | "段" | "단" if (1..=9).contains(&n) => {
            if pro {
                200 + n
            } else {
                100 + n
            }
        }
        "" if pro && (1..=9).contains(&n) => 200 + n,
        "p" | "pro" | "dp" | "dan pro" | "d pro" if (1..=9).contains(&n) => 200 + n,
        _ => return None,
    };
    Some(v)
}

/// A `--rank` filter as an inclusive range of [`rank_value`]s.
fn rank_range(q: &str) -> Result<(i32, i32), Error> {
    let bad = || Error::usage(format!("--rank {q}: expected a rank (9d, 1p, 15k) or a range (5d..9d, 5d.., ..1k)"));
    let one = |s: &str| rank_value(s).ok_or_else(bad);
    let (lo, hi) = match q.split_once("..") {
        None => {
            let v = one(q)?;
            (v, v)
        }
        Some((a, b)) if a.trim().is_empty() && b.trim().is_empty() => return Err(bad()),
        Some((a, b)) => {
            (if a.trim().is_empty() { i32::MIN } else { one(a)? }, if b.trim().is_empty() { i32::MAX } else { one(b)? })
        }
    };
    Ok((lo.min(hi), lo.max(hi)))
}

/// A number or a range `MIN..MAX` (either end open) of a flag, as bounds.
fn number_range<T: std::str::FromStr + Copy + PartialOrd>(
    flag: &str,
    q: &str,
) -> Result<(Option<T>, Option<T>), Error> {
    let bad =
        || Error::usage(format!("{flag} {q}: expected a number or a range MIN..MAX (either end may be left out)"));
    let one = |s: &str| s.trim().parse::<T>().map_err(|_| bad());
    match q.split_once("..") {
        None => {
            let v = one(q)?;
            Ok((Some(v), Some(v)))
        }
        Some((a, b)) => {
            let lo = if a.trim().is_empty() { None } else { Some(one(a)?) };
            let hi = if b.trim().is_empty() { None } else { Some(one(b)?) };
            if lo.is_none() && hi.is_none() {
                return Err(bad());
            }
            // A reversed range matches nothing: said, not answered with no games.
            if let (Some(l), Some(h)) = (lo, hi) {
                if l > h {
                    return Err(Error::usage(format!("{flag} {q}: MIN is above MAX")));
                }
            }
            Ok((lo, hi))
        }
    }
}

/// A `--size` filter as the index writes board sizes: `19`, `19x13` → `19:13`.
fn size_text(q: &str) -> Result<String, Error> {
    let bad = || Error::usage(format!("--size {q}: expected N or COLSxROWS (19, 19x13)"));
    let parts: Vec<&str> = q.trim().split(['x', 'X', ':', '×']).collect();
    let n: Vec<u32> = parts.iter().map(|p| p.trim().parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    match n.as_slice() {
        [a] => Ok(a.to_string()),
        [a, b] if a == b => Ok(a.to_string()),
        [a, b] => Ok(format!("{a}:{b}")),
        _ => Err(bad()),
    }
}

/// `s` as a JSON string (for a JSON array bound as one parameter).
fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The distinct ranks of the index whose [`rank_value`] is in `range`, as a JSON array.
fn ranks_in(conn: &Connection, range: (i32, i32)) -> Result<String, Error> {
    let mut st = conn.prepare(
        "SELECT black_rank FROM games WHERE black_rank IS NOT NULL
         UNION SELECT white_rank FROM games WHERE white_rank IS NOT NULL",
    )?;
    let mut rows = st.query([])?;
    let mut out = String::from("[");
    while let Some(r) = rows.next()? {
        let raw: String = r.get(0)?;
        if rank_value(&raw).is_some_and(|v| v >= range.0 && v <= range.1) {
            if out.len() > 1 {
                out.push(',');
            }
            json_string(&mut out, &raw);
        }
    }
    out.push(']');
    Ok(out)
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
    let mut hits = Vec::new();
    find_each(conn, query, |h| {
        hits.push(h);
        ControlFlow::Continue(())
    })?;
    Ok(hits)
}

/// [`find`], each hit handed to `each` as its row is read, in the same order, rather than
/// collected: a listing of a million games holds one hit at a time (and what SQLite's sort
/// needs), where [`find`] holds them all. `each` returns [`ControlFlow::Break`] to stop early.
/// Gives the number of hits handed on.
///
/// ```no_run
/// use std::ops::ControlFlow;
///
/// let conn = kifu_index::open_existing("games.sqlite".as_ref())?;
/// let query = kifu_index::Query { player: Some("Shusaku".into()), ..Default::default() };
/// let n = kifu_index::find_each(&conn, &query, |hit| {
///     println!("{}@{}", hit.path, hit.offset);
///     ControlFlow::Continue(())
/// })?;
/// println!("{n} games");
/// # Ok::<(), kifu_index::Error>(())
/// ```
pub fn find_each(conn: &Connection, query: &Query, mut each: impl FnMut(Hit) -> ControlFlow<()>) -> Result<u64, Error> {
    let mut n = 0;
    find_in_each(conn, query, None, &mut |_, h| {
        n += 1;
        each(h)
    })?;
    Ok(n)
}

/// The number of games [`find`] returns for `query` (after its offset and limit).
pub fn count(conn: &Connection, query: &Query) -> Result<u64, Error> {
    count_in(conn, query, None)
}

/// [`count`] among the games with the given ids only (all games with `None`): no row is read
/// but the filters'.
pub(crate) fn count_in(conn: &Connection, query: &Query, ids: Option<&[u64]>) -> Result<u64, Error> {
    let (where_, mut bound) = filters(conn, query, ids)?;
    bound.push(Value::Integer(query.limit.map_or(-1, |n| n.min(i64::MAX as u64) as i64)));
    bound.push(Value::Integer(query.offset.unwrap_or(0).min(i64::MAX as u64) as i64));
    let sql = format!(
        "SELECT count(*) FROM (SELECT g.id FROM games g JOIN files f ON f.id = g.file_id {where_} LIMIT ? OFFSET ?)"
    );
    let n: i64 = conn.query_row(&sql, rusqlite::params_from_iter(bound), |r| r.get(0))?;
    Ok(n as u64)
}

/// The `WHERE` clause of `query` (among the games with the given ids only, all with `None`) and
/// its values, one per `?` in order.
fn filters(conn: &Connection, query: &Query, ids: Option<&[u64]>) -> Result<(String, Vec<Value>), Error> {
    let mut clauses: Vec<String> = Vec::new();
    let mut bound: Vec<Value> = Vec::new();
    let mut add = |clause: &str, values: Vec<Value>| {
        clauses.push(clause.to_owned());
        bound.extend(values);
    };
    let text = |s: &str| Value::Text(s.to_owned());
    if let Some(p) = &query.player {
        let pat = like_escape(p);
        add("(g.black_name LIKE ? ESCAPE '\\' OR g.white_name LIKE ? ESCAPE '\\')", vec![text(&pat), text(&pat)]);
    }
    if let Some(p) = &query.black {
        add("g.black_name LIKE ? ESCAPE '\\'", vec![text(&like_escape(p))]);
    }
    if let Some(p) = &query.white {
        add("g.white_name LIKE ? ESCAPE '\\'", vec![text(&like_escape(p))]);
    }
    if let Some(r) = &query.rank {
        let ranks = ranks_in(conn, rank_range(r)?)?;
        add(
            "(g.black_rank IN (SELECT value FROM json_each(?)) OR g.white_rank IN (SELECT value FROM json_each(?)))",
            vec![text(&ranks), text(&ranks)],
        );
    }
    if let Some(e) = &query.event {
        add("g.event LIKE ? ESCAPE '\\'", vec![text(&like_escape(e))]);
    }
    if let Some(p) = &query.place {
        add("g.place LIKE ? ESCAPE '\\'", vec![text(&like_escape(p))]);
    }
    if let Some(d) = &query.from {
        check_date("--from", d)?;
        add("substr(g.date, 1, length(?)) >= ?", vec![text(d), text(d)]);
    }
    if let Some(d) = &query.to {
        check_date("--to", d)?;
        add("substr(g.date, 1, length(?)) <= ?", vec![text(d), text(d)]);
    }
    if let Some(r) = &query.result {
        add("g.winner = ?", vec![text(r)]);
    }
    if let Some(k) = &query.kind {
        let k = k.to_ascii_lowercase();
        if k != "go" && k != "shogi" {
            return Err(Error::usage(format!("--kind {k}: expected go or shogi")));
        }
        add("g.kind = ?", vec![text(&k)]);
    }
    if let Some(n) = &query.size {
        add("g.board_size = ?", vec![text(&size_text(n)?)]);
    }
    if let Some(h) = query.handicap {
        add("coalesce(g.handicap, 0) = ?", vec![Value::Integer(h)]);
    }
    if let Some(k) = &query.komi {
        let (lo, hi) = number_range::<f64>("--komi", k)?;
        if lo.is_some_and(f64::is_nan) || hi.is_some_and(f64::is_nan) {
            return Err(Error::usage(format!("--komi {k}: not a number")));
        }
        add(
            "g.komi >= ? AND g.komi <= ?",
            vec![Value::Real(lo.unwrap_or(f64::MIN)), Value::Real(hi.unwrap_or(f64::MAX))],
        );
    }
    if let Some(m) = &query.moves {
        let (lo, hi) = number_range::<i64>("--moves", m)?;
        add(
            "g.moves BETWEEN ? AND ?",
            vec![Value::Integer(lo.unwrap_or(i64::MIN)), Value::Integer(hi.unwrap_or(i64::MAX))],
        );
    }
    if let Some(o) = &query.opening {
        add("g.opening GLOB ?", vec![text(&opening_glob(o))]);
    }
    if query.duplicates {
        add(
            // Up to symmetry (pattern search's `sym_hash`). The games that share a hash share
            // their main line, so its number of moves: `moves > 0` is asked of each game found,
            // and the groups are counted on the `games_sym_hash` index alone (7.2 s -> 0.3 s on
            // a million games, where asking it of every game read each game's row).
            "g.moves > 0 AND g.sym_hash IN (SELECT sym_hash FROM games GROUP BY sym_hash HAVING count(*) > 1)",
            vec![],
        );
    }
    if let Some(ids) = ids {
        let list = id_list(ids);
        if ids.len() <= MANY_IDS {
            // Literal integers: no limit on bound parameters, and SQLite builds a b-tree of them.
            clauses.push(format!("g.id IN ({list})"));
        } else {
            // Many: one JSON array bound as text, which SQLite reads into the same b-tree, where
            // a literal list is parsed into an expression node a number (a pattern's 769,182
            // matches over a million games peaked at 340 MB that way, 60 MB this one).
            add("g.id IN (SELECT value FROM json_each(?))", vec![Value::Text(format!("[{list}]"))]);
        }
    }
    let where_ = if clauses.is_empty() { String::new() } else { format!("WHERE {}", clauses.join(" AND ")) };
    Ok((where_, bound))
}

/// `ids` as `1,2,3`, written into one string (no string a number).
fn id_list(ids: &[u64]) -> String {
    use std::fmt::Write as _;
    let mut list = String::with_capacity(ids.len() * 8);
    for (i, id) in ids.iter().enumerate() {
        let _ = write!(list, "{}{id}", if i > 0 { "," } else { "" });
    }
    list
}

/// Above this many ids, [`filters`] binds them as one JSON array rather than writing them into
/// the SQL as literals.
const MANY_IDS: usize = 4096;

/// The `ORDER BY` of `query` (its columns from [`SORT_FIELDS`] only: nothing of the query's text
/// is written into the SQL).
fn order_by(query: &Query) -> Result<String, Error> {
    let mut order = String::new();
    if query.duplicates {
        order.push_str("g.sym_hash, ");
    }
    if let Some(field) = &query.sort {
        let Some((_, col)) = SORT_FIELDS.iter().find(|(name, _)| name.eq_ignore_ascii_case(field)) else {
            let names: Vec<&str> = SORT_FIELDS.iter().map(|(n, _)| *n).collect();
            return Err(Error::usage(format!("--sort {field}: expected one of {}", names.join(", "))));
        };
        let dir = if query.descending { " DESC" } else { "" };
        let bare = col.trim_end_matches(" COLLATE NOCASE");
        order.push_str(&format!("({bare} IS NULL), {col}{dir}, "));
    }
    let dir = if query.descending && query.sort.is_none() { " DESC" } else { "" };
    order.push_str(&format!("f.path{dir}, g.offset{dir}"));
    Ok(order)
}

/// [`find`] among the games with the given ids only (all games with `None`): each hit and its
/// game id handed to `each` as its row is read (until `each` breaks).
pub(crate) fn find_in_each(
    conn: &Connection,
    query: &Query,
    ids: Option<&[u64]>,
    each: &mut dyn FnMut(i64, Hit) -> ControlFlow<()>,
) -> Result<(), Error> {
    let (where_, mut bound) = filters(conn, query, ids)?;
    let order = order_by(query)?;
    bound.push(Value::Integer(query.limit.map_or(-1, |n| n.min(i64::MAX as u64) as i64)));
    bound.push(Value::Integer(query.offset.unwrap_or(0).min(i64::MAX as u64) as i64));
    let columns = format!("g.id, f.path, {HIT_COLUMNS}");
    let from = "FROM games g JOIN files f ON f.id = g.file_id";
    let sql = if query.limit.is_some() || query.offset.is_some() {
        // A page: the order is found on the ids and sort keys alone, then the page's rows are
        // read (a deep page sorted whole rows: 50 -> 22 ms of CPU on the corpus, offset 10,000).
        format!(
            "SELECT {columns} {from} WHERE g.id IN
               (SELECT g.id {from} {where_} ORDER BY {order} LIMIT ? OFFSET ?)
             ORDER BY {order}"
        )
    } else {
        format!("SELECT {columns} {from} {where_} ORDER BY {order} LIMIT ? OFFSET ?")
    };
    let mut st = conn.prepare(&sql)?;
    let mut rows = st.query(rusqlite::params_from_iter(bound))?;
    while let Some(r) = rows.next()? {
        if each(r.get(0)?, hit_from_row(r, 2, r.get(1)?)?).is_break() {
            break;
        }
    }
    Ok(())
}

/// The columns of `games g` a [`Hit`] is read from by [`hit_from_row`], in order.
pub(crate) const HIT_COLUMNS: &str = "g.offset, g.date, g.black_name, g.black_rank, g.white_name, g.white_rank,
    g.result_raw, g.winner, g.moves, g.event, g.main_hash, g.opening,
    g.kind, g.board_size, g.komi, g.handicap, g.place, g.sym_hash";

/// A [`Hit`] for the game at `path` from a row that holds [`HIT_COLUMNS`] from column `at` on.
pub(crate) fn hit_from_row(r: &rusqlite::Row<'_>, at: usize, path: String) -> rusqlite::Result<Hit> {
    Ok(Hit {
        path,
        offset: r.get(at)?,
        date: r.get(at + 1)?,
        black: r.get(at + 2)?,
        black_rank: r.get(at + 3)?,
        white: r.get(at + 4)?,
        white_rank: r.get(at + 5)?,
        result: r.get(at + 6)?,
        winner: r.get(at + 7)?,
        moves: r.get(at + 8)?,
        event: r.get(at + 9)?,
        hash: r.get(at + 10)?,
        opening: r.get(at + 11)?,
        kind: r.get(at + 12)?,
        board_size: r.get(at + 13)?,
        komi: r.get::<_, Option<f64>>(at + 14)?.filter(|k| k.is_finite()).map(|k| k.to_string()),
        handicap: r.get(at + 15)?,
        place: r.get(at + 16)?,
        symmetric_hash: r.get::<_, Option<i64>>(at + 17)?.unwrap_or(0),
    })
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

    #[test]
    fn ranks() {
        for (raw, v) in [
            ("9d", 109),
            ("9D", 109),
            ("9 Dan", 109),
            ("9-dan", 109),
            ("9段", 109),
            ("九段", 109),
            ("初段", 101),
            ("1段", 101),
            ("3단", 103),
            ("P9段", 209),
            ("P9", 209),
            ("P9p", 209),
            ("9p", 209),
            ("9P", 209),
            ("9DP", 209),
            ("9 pro", 209),
            ("1k", 99),
            ("30k", 70),
            ("13k*", 87),
            ("11k+", 89),
            ("2 kyu", 98),
            ("15级", 85),
            ("15級", 85),
            ("1급", 99),
            ("十級", 90),
        ] {
            assert_eq!(rank_value(raw), Some(v), "{raw}");
        }
        for raw in ["NR", "P", "", "?", "1698*", "10d", "31k", "Meijin", "9d, Tengen & Oza", "P15k"] {
            assert_eq!(rank_value(raw), None, "{raw}");
        }
        assert_eq!(rank_range("5d..9d").unwrap(), (105, 109));
        assert_eq!(rank_range("9d..5d").unwrap(), (105, 109));
        assert_eq!(rank_range("1k..10k").unwrap(), (90, 99));
        assert_eq!(rank_range("5d..").unwrap(), (105, i32::MAX));
        assert_eq!(rank_range("..1k").unwrap(), (i32::MIN, 99));
        assert!(rank_range("..").is_err());
        assert!(rank_range("strong").is_err());
    }

    #[test]
    fn ranges_and_sizes() {
        assert_eq!(number_range::<i64>("--moves", "100..").unwrap(), (Some(100), None));
        assert_eq!(number_range::<i64>("--moves", "..50").unwrap(), (None, Some(50)));
        assert_eq!(number_range::<i64>("--moves", "10..20").unwrap(), (Some(10), Some(20)));
        assert_eq!(number_range::<i64>("--moves", "7").unwrap(), (Some(7), Some(7)));
        assert!(number_range::<i64>("--moves", "..").is_err());
        assert!(number_range::<i64>("--moves", "a..b").is_err());
        assert!(number_range::<f64>("--komi", "7..5").unwrap_err().to_string().contains("MIN is above MAX"));
        assert_eq!(number_range::<f64>("--komi", "-0.5..7").unwrap(), (Some(-0.5), Some(7.0)));
        assert_eq!(size_text("19").unwrap(), "19");
        assert_eq!(size_text("19x19").unwrap(), "19");
        assert_eq!(size_text("19x13").unwrap(), "19:13");
        assert_eq!(size_text("19:13").unwrap(), "19:13");
        assert!(size_text("big").is_err());
        let mut j = String::new();
        json_string(&mut j, "a\"b\\c\n");
        assert_eq!(j, "\"a\\\"b\\\\c\\u000a\"");
    }
}
