//! Position search: the games that pass through a position ([`find_position`]) and what was
//! played next there ([`explore`]), answered from the positions file (`posfile`) and the
//! `games` table. This is what `kifu find --position` and `kifu explore` print.
//!
//! A [`Position`] is made from a game (the position after its move N), a list of moves, SGF
//! setup or an SFEN, by the same replay the index uses, so it hashes as the index's positions
//! do. Go positions are the stones and the board size, the same for all eight symmetries (see
//! `symmetry`): a game that reached the position rotated or reflected is found, and its next
//! move is turned into the query's orientation. In a position that is itself symmetric (the
//! empty board), moves that the position's symmetries map onto each other are one move, shown
//! as the first of them in SGF order (`dd` rather than `pd`, `dp`, `pp`). A shogi position is
//! its SFEN: board, side to move, hands (a move number given is ignored).
//!
//! A game that passes through the position more than once counts once, at its first time there
//! (the move number [`find_position`] gives and the move [`explore`] counts).
//!
//! A position can be looked up with its twin ([`Position::also_twin`]: `--swap-colors` for Go,
//! the same stones with Black and White exchanged; `--mirror` for shogi, files 1–9 exchanged).
//! This is done at query time, the index unchanged: the twin's hash is one more group of the
//! positions file (Go: the eight hashes of the swapped board, made when the position is; shogi:
//! the Zobrist hash of the mirrored board). The two groups' postings merge by game, each game
//! at its earlier first time (the position's own when both come at the same move), and a
//! twin's move is turned back (Go: into the query's orientation, then the other colour;
//! shogi: mirrored back), as is a Go twin's winner in [`explore`]. [`explore`] adds up the two
//! continuation tables (the written ones where there are) when no game passes through both,
//! and reads the games otherwise. A position that is its own twin is looked up once.

use crate::posfile::{Entry, Group, PosFile};
use crate::position::{shogi_zobrist, Moves, Visit};
use crate::query::{count_in, find_in_each, hit_from_row, Hit, Query, HIT_COLUMNS};
use crate::symmetry::{apply, dims, invert};
use crate::{Error, ErrorKind, Kind};
use kifu::position::shogi::ShogiPosition;
use kifu::{Color, Move, Piece, Point, ShogiMove, Square};
use rusqlite::Connection;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

/// A position to look for: a Go board's stones and size (the same for its eight symmetries) or
/// a shogi position's board, side to move and hands, as the index hashes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Go or shogi.
    pub kind: Kind,
    /// Its hash, as the index stores it.
    pub hash: u64,
    /// Go: the symmetry that takes it to the canonical orientation.
    pub symmetry: u8,
    /// Go: the symmetries that leave it as it is (bit `u` for symmetry `u`; bit 0 always).
    pub stabiliser: u8,
    /// Go: the board size.
    pub size: (u8, u8),
    /// Shogi: its SFEN (board, side to move, hands).
    pub sfen: Option<String>,
    /// Moves before it in the game or list it was made from.
    pub number: u32,
    /// Its twin: Go, the same stones with Black and White exchanged; shogi, the position
    /// mirrored left to right (files 1 and 9 exchanged, hands and side to move kept). Looked
    /// up too when [`Position::with_twin`] is set.
    pub twin: Twin,
    /// Whether [`find_position`] and [`explore`] also look up the [twin](Position::twin)
    /// (`--swap-colors`, `--mirror`): off as made, on with [`Position::also_twin`].
    pub with_twin: bool,
}

/// The colour-swapped (Go) or mirrored (shogi) position of a [`Position`], as the index hashes
/// it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Twin {
    /// Its hash.
    pub hash: u64,
    /// Go: the symmetry that takes it to its canonical orientation.
    pub symmetry: u8,
}

impl Position {
    fn from_visit(v: &Visit<'_>, shogi: bool) -> Position {
        if shogi {
            let twin = v.shogi.map_or(Twin::default(), |p| Twin { hash: shogi_zobrist(&mirrored(p)), symmetry: 0 });
            return Position {
                kind: Kind::Shogi,
                hash: v.hash,
                symmetry: 0,
                stabiliser: 1,
                size: (9, 9),
                sfen: v.shogi.map(|p| p.sfen()),
                number: v.number,
                twin,
                with_twin: false,
            };
        }
        let g = v.go.expect("a Go visit has its hashes");
        let hs = g.hashes();
        let stabiliser = (0..8).filter(|&u| hs[u] == hs[0]).fold(0u8, |m, u| m | 1 << u);
        let (hash, symmetry) = g.swapped().key();
        Position {
            kind: Kind::Go,
            hash: v.hash,
            symmetry: v.sym,
            stabiliser,
            size: g.size(),
            sfen: None,
            number: v.number,
            twin: Twin { hash, symmetry },
            with_twin: false,
        }
    }

    /// This position, looked up with its [twin](Position::twin) too: the games through either,
    /// each counted once at its first time at one of them (at the position itself when both
    /// come at once), the twin's moves turned back (Go: colours exchanged again, and the
    /// winner with them; shogi: mirrored back). A position that is its own twin (Go: the
    /// swapped stones are one of its orientations, as the empty board; shogi: a position
    /// symmetric left to right) is looked up once, as it is.
    pub fn also_twin(mut self) -> Position {
        self.with_twin = true;
        self
    }

    /// The twin as a position of its own (its moves as the twin's games played them), when it
    /// is looked up and is another position.
    fn twin_view(&self) -> Option<Position> {
        (self.with_twin && self.twin.hash != self.hash).then(|| Position {
            hash: self.twin.hash,
            symmetry: self.twin.symmetry,
            sfen: None,
            twin: Twin { hash: self.hash, symmetry: self.symmetry },
            with_twin: false,
            ..self.clone()
        })
    }

    /// The position after `number` moves of a main line (`None`: at its end).
    fn from_moves(moves: &Moves, shogi: bool, number: Option<u32>) -> Result<Position, Error> {
        let mut found = None;
        let mut last = 0;
        moves.visit(shogi, |v| {
            last = v.number;
            if number.is_none_or(|n| n == v.number) {
                found = Some(Position::from_visit(v, shogi));
            }
            number.is_none_or(|n| v.number < n)
        });
        found.ok_or_else(|| {
            Error::new(ErrorKind::NoGame, format!("move {}: the game has {last} moves", number.unwrap_or(0)))
        })
    }

    /// The position after move `number` of the game at `offset` of `bytes` (a whole file as
    /// the readers see it), and any setup before the next move; 0 is the start.
    ///
    /// ```
    /// let p = kifu_index::Position::from_game(b"(;B[pd];W[dp];B[pp])", 0, 2).unwrap();
    /// let q = kifu_index::Position::from_go_moves("dd pp", 19).unwrap(); // its mirror image
    /// assert_eq!(p.hash, q.hash);
    /// ```
    pub fn from_game(bytes: &[u8], offset: u64, number: u32) -> Result<Position, Error> {
        let (row, _, moves) = crate::game::read_with_moves(bytes, offset)?;
        Position::from_moves(&moves, row.kind == Some(Kind::Shogi), Some(number))
    }

    /// The final position of the first game of a record in any format kifu reads.
    pub fn from_record(text: &[u8]) -> Result<Position, Error> {
        let (row, _, moves) = crate::game::read_with_moves(text, 0)?;
        Position::from_moves(&moves, row.kind == Some(Kind::Shogi), None)
    }

    /// The position after Go moves in SGF coordinates (`pd dp pp`; `pass`, `-` or `tt` on a
    /// board up to 19 is a pass), Black first, on a `size` × `size` board.
    pub fn from_go_moves(moves: &str, size: u8) -> Result<Position, Error> {
        let mut sgf = format!("(;GM[1]SZ[{size}]");
        for (i, m) in moves.split([' ', ',', ';', '\t', '\n']).filter(|m| !m.is_empty()).enumerate() {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let m = m.trim_start_matches(['B', 'W']).trim_start_matches('[').trim_end_matches(']');
            let point = if m == "pass" || m == "-" { "" } else { m };
            if !(point.is_empty() || (point.len() == 2 && point.bytes().all(|b| b.is_ascii_alphabetic()))) {
                return Err(Error::usage(format!("{m}: expected a point in SGF coordinates (pd) or `pass`")));
            }
            sgf.push_str(&format!(";{c}[{point}]"));
        }
        sgf.push(')');
        Position::from_query(sgf.as_bytes())
    }

    /// The position SGF setup gives (`AB[pd][dp]AW[dd]`, optionally with `SZ[13]`), on a 19 ×
    /// 19 board unless it says.
    pub fn from_sgf_setup(setup: &str) -> Result<Position, Error> {
        let t = setup.trim();
        let sgf = if t.starts_with('(') { t.to_owned() } else { format!("(;GM[1]{})", t.trim_start_matches(';')) };
        Position::from_query(sgf.as_bytes())
    }

    /// The shogi position of an SFEN (its move number ignored), optionally followed by
    /// `moves` and USI moves.
    pub fn from_sfen(sfen: &str) -> Result<Position, Error> {
        let t = sfen.trim().trim_start_matches("position").trim().trim_start_matches("sfen").trim();
        Position::from_query(format!("position sfen {t}\n").as_bytes())
    }

    /// The shogi position after USI moves from the standard start (`7g7f 3c3d`).
    pub fn from_usi_moves(moves: &str) -> Result<Position, Error> {
        let t = moves.trim().trim_start_matches("moves").trim();
        Position::from_query(format!("position startpos moves {t}\n").as_bytes())
    }

    /// [`Position::from_record`] for a record made from a query's text: refused (a usage
    /// error) when reading it took a repair, or a move of it is illegal, since its position would
    /// then be another than the one asked for (`zz` on 19 × 19 read as a pass, the second `pd`
    /// of `pd pd` dropped).
    fn from_query(text: &[u8]) -> Result<Position, Error> {
        query_problem(text).map_or(Ok(()), |why| Err(Error::usage(why)))?;
        Position::from_record(text)
    }

    /// A move of the index (`next`, canonical orientation) as played in this position's own
    /// orientation, with the position's symmetries taken out; `None` at the end of a game.
    pub fn move_here(&self, next: u32) -> Option<Move> {
        match self.kind {
            Kind::Shogi => shogi_move(next),
            _ => self.go_move(next),
        }
    }

    fn go_move(&self, next: u32) -> Option<Move> {
        let code = next >> 3;
        let (w, h) = self.size;
        let (cw, ch) = dims(self.symmetry, w, h);
        let color = |c: u32| if c == 0 { Color::Black } else { Color::White };
        match code {
            0 => None,
            1 | 2 => Some(Move::Go { color: color(code - 1), point: None }),
            _ => {
                let (idx, c) = ((code - 3) >> 1, (code - 3) & 1);
                if idx >= cw as u32 * ch as u32 {
                    return Some(Move::Go { color: color(c), point: Some(Point::new(52, 52)) });
                }
                let p = ((idx % cw as u32) as u8, (idx / cw as u32) as u8);
                let p = invert(self.symmetry, (w, h), p);
                // The first of the points the position's symmetries take it to.
                let best = (0..8u8)
                    .filter(|u| self.stabiliser & 1 << u != 0)
                    .map(|u| apply(u, (w, h), p))
                    .min_by_key(|&(x, y)| (y as u32) * w as u32 + x as u32)
                    .unwrap_or(p);
                Some(Move::Go { color: color(c), point: Some(Point::new(best.0, best.1)) })
            }
        }
    }

    /// The symmetry that takes a game's board (canonical symmetry `sym`) onto this position's
    /// orientation.
    fn relative(&self, sym: u8) -> u8 {
        if self.kind == Kind::Shogi {
            return 0;
        }
        let (w, h) = self.size;
        let canon = dims(self.symmetry, w, h);
        let game = dims(sym, canon.0, canon.1);
        let probes = [(0u8, 0u8), (1.min(game.0 - 1), 0), (0, 1.min(game.1 - 1))];
        (0..8u8)
            .find(|&r| {
                dims(r, game.0, game.1) == (w, h)
                    && probes.iter().all(|&p| invert(self.symmetry, (w, h), apply(sym, game, p)) == apply(r, game, p))
            })
            .unwrap_or(0)
    }
}

/// What makes the record of a query (see [`Position::from_query`]) another position than the
/// one asked for: the first warning or error of its reading, else its first illegal move.
fn query_problem(text: &[u8]) -> Option<String> {
    use kifu::EventSource;
    let config = kifu::Config::default();
    let Some(mut reader) = kifu::AnyReader::detect(text, config) else {
        return Some("not a position kifu can read".to_owned());
    };
    let shogi = reader.format().kind() == kifu::GameKind::Shogi;
    let mut pos = ShogiPosition::new();
    let mut moves = 0;
    while let Some(ev) = reader.next_event() {
        let ev = match ev {
            Ok(kifu::Event::Warning(w)) => return Some(format!("{}: {}", w.kind.as_str(), w.kind.message())),
            Err(e) => return Some(e.to_string()),
            Ok(ev) => ev,
        };
        if shogi {
            moves += matches!(ev, kifu::Event::Move(_)) as u32;
            if let Err(why) = pos.apply(&ev) {
                return Some(format!("move {moves} is illegal ({})", why.as_str()));
            }
        }
    }
    if shogi {
        return None;
    }
    let mut reader = kifu::AnyReader::detect(text, config)?;
    let replay = kifu::position::go::replay(&mut reader, &kifu::position::go::ReplayOptions::default()).ok()??;
    replay.illegal.first().map(|m| format!("move {} is illegal ({})", m.number, m.kind.as_str()))
}

/// A shogi position mirrored left to right: file `f` becomes `10 - f`; hands and side to move
/// kept.
fn mirrored(p: &ShogiPosition) -> ShogiPosition {
    let mut m = *p;
    for file in 1..=9 {
        for rank in 1..=9 {
            m.put(Square::new(10 - file, rank), p.get(Square::new(file, rank)));
        }
    }
    m
}

/// A move of the twin turned back into the position's own terms: Go, the other colour; shogi,
/// mirrored left to right.
fn turn_back(m: Option<Move>) -> Option<Move> {
    let mirror = |s: Square| Square::new(10 - s.file.clamp(1, 9), s.rank);
    match m {
        Some(Move::Go { color, point }) => Some(Move::Go { color: color.opponent(), point }),
        Some(Move::Shogi(s)) => Some(Move::Shogi(ShogiMove { from: s.from.map(mirror), to: mirror(s.to), ..s })),
        other => other,
    }
}

/// The shogi move of an index code (see `position::shogi_next`).
fn shogi_move(next: u32) -> Option<Move> {
    if next == 0 {
        return None;
    }
    let mut v = next - 1;
    let color = if v & 1 == 0 { Color::Black } else { Color::White };
    v >>= 1;
    let piece = Piece::ALL[(v % 14) as usize];
    v /= 14;
    let sq = |i: u32| Square::new((i / 9 + 1) as u8, (i % 9 + 1) as u8);
    let to = sq(v % 81);
    let from = (v / 81).checked_sub(1).map(sq);
    Some(Move::Shogi(ShogiMove { color, from, to, piece }))
}

/// A move in canonical notation (`B[pd]`, `W[]`, `+7776FU`), or `end` for none.
pub fn move_text(m: Option<Move>) -> String {
    match m {
        None => "end".to_owned(),
        Some(m) => {
            let mut out = Vec::new();
            kifu::tree::write_move(m, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
    }
}

/// The postings of `hash` as the positions file holds them, `None` if it has none.
fn group(db: &Path, hash: u64) -> Result<Option<Group>, Error> {
    let path = crate::posfile::path_for(db);
    let mut file = PosFile::open(&path).ok_or_else(|| {
        Error::new(ErrorKind::NoIndex, format!("{}: no positions file (re-run `kifu index`)", path.display()))
    })?;
    file.group(hash).map_err(|e| Error::other(format!("{}: {e}", path.display())))
}

/// A group's postings, one per game (its first time there), sorted by game.
fn first_postings(group: &Group) -> Vec<Entry> {
    let mut entries: Vec<Entry> = group.iter().collect();
    entries.dedup_by_key(|e| e.game);
    entries
}

/// The games with a posting in `group`, each once (its postings are sorted by game).
fn distinct_games(group: &Group) -> u64 {
    let mut last = None;
    group.iter().filter(|e| last.replace(e.game) != Some(e.game)).count() as u64
}

/// A game's first posting at the position or its twin; `twin` says which.
#[derive(Clone, Copy, Debug)]
struct First {
    e: Entry,
    twin: bool,
}

/// The postings a search reads: the position's, and its twin's when it looks the twin up (see
/// [`Position::also_twin`]).
struct Groups {
    direct: Option<Group>,
    twin: Option<Group>,
}

impl Groups {
    fn open(db: &Path, pos: &Position) -> Result<Groups, Error> {
        let twin = match pos.twin_view() {
            Some(t) => group(db, t.hash)?,
            None => None,
        };
        Ok(Groups { direct: group(db, pos.hash)?, twin })
    }

    /// Postings in all (for the choice of a way to read the games).
    fn len(&self) -> u64 {
        self.direct.as_ref().map_or(0, Group::len) + self.twin.as_ref().map_or(0, Group::len)
    }

    /// The first posting of `game`: the earlier of its first at the position and at the twin
    /// (the position's at the same move).
    fn first_of_game(&self, game: u64) -> Option<First> {
        let d = self.direct.as_ref().and_then(|g| g.first_of_game(game));
        let t = self.twin.as_ref().and_then(|g| g.first_of_game(game));
        match (d, t) {
            (Some(d), Some(t)) if t.mv < d.mv => Some(First { e: t, twin: true }),
            (Some(d), _) => Some(First { e: d, twin: false }),
            (None, t) => t.map(|e| First { e, twin: true }),
        }
    }

    /// The games with a posting here (at the position or its twin), each once: the length of
    /// [`Groups::firsts`], counted as the postings are decoded (nothing kept but the twin's
    /// games, when there is a twin).
    fn game_count(&self) -> u64 {
        match (&self.direct, &self.twin) {
            (None, None) => 0,
            (Some(g), None) | (None, Some(g)) => distinct_games(g),
            (Some(d), Some(t)) => {
                // Games at both count once: the twin's (sorted by game) looked up as the
                // position's are decoded.
                let twin: Vec<u64> = first_postings(t).iter().map(|e| e.game).collect();
                let (mut last, mut games, mut both) = (None, 0, 0);
                for e in d.iter() {
                    if last.replace(e.game) != Some(e.game) {
                        games += 1;
                        both += u64::from(twin.binary_search(&e.game).is_ok());
                    }
                }
                games + twin.len() as u64 - both
            }
        }
    }

    /// Each game's first posting ([`Groups::first_of_game`]), sorted by game.
    fn firsts(&self) -> Vec<First> {
        let d = self.direct.as_ref().map_or_else(Vec::new, first_postings);
        let t = self.twin.as_ref().map_or_else(Vec::new, first_postings);
        let mut out = Vec::with_capacity(d.len() + t.len());
        let (mut i, mut j) = (0, 0);
        while i < d.len() || j < t.len() {
            match (d.get(i), t.get(j)) {
                (Some(a), Some(b)) if a.game == b.game => {
                    out.push(if b.mv < a.mv { First { e: *b, twin: true } } else { First { e: *a, twin: false } });
                    i += 1;
                    j += 1;
                }
                (Some(a), b) if b.is_none_or(|b| a.game < b.game) => {
                    out.push(First { e: *a, twin: false });
                    i += 1;
                }
                (_, Some(b)) => {
                    out.push(First { e: *b, twin: true });
                    j += 1;
                }
                (_, None) => break,
            }
        }
        out
    }

    /// Whether a game passes through both the position and its twin.
    fn overlap(&self) -> bool {
        let (Some(d), Some(t)) = (&self.direct, &self.twin) else { return false };
        let (small, big) = if d.len() <= t.len() { (d, t) } else { (t, d) };
        let mut last = None;
        small.iter().any(|e| {
            let new = last != Some(e.game);
            last = Some(e.game);
            new && big.first_of_game(e.game).is_some()
        })
    }
}

/// A game that passes through a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionHit {
    /// The game, as [`find`](crate::find) gives it.
    pub hit: Hit,
    /// Moves played before it first reached the position.
    pub number: u32,
    /// The symmetry that takes the game's board onto the query's (0 for shogi; see `symmetry`
    /// for the numbering).
    pub symmetry: u8,
    /// The move it played there, in the query's orientation (`None`: it ended there).
    pub next: Option<Move>,
    /// It reached the position's [twin](Position::twin) (colour-swapped or mirrored) first; the
    /// symmetry and move above are then turned back into the query's terms.
    pub twin: bool,
}

/// The games of the index at `db` (opened as `conn`) that pass through `pos` and match `query`,
/// ordered as [`find`](crate::find) orders them.
pub fn find_position(conn: &Connection, db: &Path, pos: &Position, query: &Query) -> Result<Vec<PositionHit>, Error> {
    collect(|each| find_position_with(conn, db, pos, query, MANY, each))
}

/// [`find_position`], each hit handed to `each` as it is made, in the same order, rather than
/// collected: listing the empty board of a million games holds one hit at a time (and the
/// position's postings), where [`find_position`] holds them all. `each` returns
/// [`ControlFlow::Break`] to stop early. Gives the number of hits handed on, which is
/// [`count_position`]'s number when the index did not change in between.
///
/// ```no_run
/// use std::ops::ControlFlow;
///
/// let db = std::path::Path::new("games.sqlite");
/// let conn = kifu_index::open_existing(db)?;
/// let pos = kifu_index::Position::from_go_moves("pd dp", 19)?;
/// kifu_index::find_position_each(&conn, db, &pos, &kifu_index::Query::default(), |h| {
///     println!("{}@{} #{} {}", h.hit.path, h.hit.offset, h.number, kifu_index::move_text(h.next));
///     ControlFlow::Continue(())
/// })?;
/// # Ok::<(), kifu_index::Error>(())
/// ```
pub fn find_position_each(
    conn: &Connection,
    db: &Path,
    pos: &Position,
    query: &Query,
    mut each: impl FnMut(PositionHit) -> ControlFlow<()>,
) -> Result<u64, Error> {
    find_position_with(conn, db, pos, query, MANY, &mut each)
}

/// The hits a search that hands them on one by one gives, collected.
fn collect(
    search: impl FnOnce(&mut dyn FnMut(PositionHit) -> ControlFlow<()>) -> Result<u64, Error>,
) -> Result<Vec<PositionHit>, Error> {
    let mut hits = Vec::new();
    search(&mut |h| {
        hits.push(h);
        ControlFlow::Continue(())
    })?;
    Ok(hits)
}

/// The number of games [`find_position`] returns for `pos` and `query` (after its offset and
/// limit), without reading the games' rows when `query` has no filter: the games in the
/// position's postings (and its twin's, each game once), counted from the postings alone. The
/// empty board of a million-game index: the postings' decoding, not a million rows read.
/// With filters, SQLite counts the games among the postings' that match them.
pub fn count_position(conn: &Connection, db: &Path, pos: &Position, query: &Query) -> Result<u64, Error> {
    let plain = unfiltered(query);
    let page = |games: u64| query.limit.map_or(games, |n| games.min(n));
    if plain && pos.twin_view().is_none() {
        // A frequent position's table: its postings (megabytes for the empty board) not read.
        if let Some(games) = table_games(db, pos.hash)? {
            return Ok(page(games));
        }
    }
    let groups = Groups::open(db, pos)?;
    if groups.len() == 0 {
        return Ok(0);
    }
    if plain {
        return Ok(page(games_through(db, pos, &groups)?));
    }
    let ids: Vec<u64> = groups.firsts().iter().map(|f| f.e.game).collect();
    count_in(conn, query, Some(&ids))
}

/// The games that pass through `pos` (or its twin, each game once), read from `groups`, its
/// postings: with a twin that shares no game with it, each of the two that has a continuation
/// table (1,000 games or more) sums the table's games, as [`explore`] does, and the other's
/// postings are counted as they are decoded; otherwise every posting is decoded.
fn games_through(db: &Path, pos: &Position, groups: &Groups) -> Result<u64, Error> {
    match pos.twin_view() {
        None => {}
        Some(twin) if !groups.overlap() => {
            let mut games = 0;
            for (hash, group) in [(pos.hash, &groups.direct), (twin.hash, &groups.twin)] {
                let Some(group) = group else { continue };
                games += match table_games(db, hash)? {
                    Some(n) => n,
                    None => distinct_games(group),
                };
            }
            return Ok(games);
        }
        Some(_) => {}
    }
    Ok(groups.game_count())
}

/// Whether `query` asks for no filter, order or offset, only perhaps a limit: the games of a
/// position are then those of its postings, in the index's order.
fn unfiltered(query: &Query) -> bool {
    *query == Query { limit: query.limit, ..Query::default() }
}

/// The games of the continuation table of the position `hash` (the sum of its moves' games),
/// if it has one (1,000 games or more).
fn table_games(db: &Path, hash: u64) -> Result<Option<u64>, Error> {
    Ok(summary(db, hash)?.map(|rows| rows.iter().map(|r| r.games).sum()))
}

/// [`find_position`] reading the games' rows through `find`'s one statement however many
/// there are (for tests that compare the two ways).
#[doc(hidden)]
pub fn find_position_in_one_statement(
    conn: &Connection,
    db: &Path,
    pos: &Position,
    query: &Query,
) -> Result<Vec<PositionHit>, Error> {
    collect(|each| find_position_with(conn, db, pos, query, usize::MAX, each))
}

fn find_position_with(
    conn: &Connection,
    db: &Path,
    pos: &Position,
    query: &Query,
    many: usize,
    each: &mut dyn FnMut(PositionHit) -> ControlFlow<()>,
) -> Result<u64, Error> {
    let groups = Groups::open(db, pos)?;
    if groups.len() == 0 {
        return Ok(0);
    }
    let twin = pos.twin_view();
    let many = unfiltered(query) && groups.len() >= many as u64;
    // A hit's posting is found by binary search: in the group itself for the first hits of
    // many (a page of the empty board's million games decodes a few hundred postings, not a
    // million), in the group's postings decoded once from the 4,097th hit on (a map of a
    // million games cost more than the page it served), or from the start when SQLite is
    // given the games' ids (decoded for those).
    let mut entries: Vec<First> = if many { Vec::new() } else { groups.firsts() };
    let ids: Vec<u64> = entries.iter().map(|f| f.e.game).collect();
    let mut n = 0u64;
    let mut hand_on = |id: i64, hit: Hit| {
        if n == 4096 && entries.is_empty() {
            entries = groups.firsts();
        }
        let found = match entries.is_empty() {
            true => groups.first_of_game(id as u64),
            false => entries.binary_search_by_key(&(id as u64), |f| f.e.game).ok().map(|i| entries[i]),
        };
        let Some(First { e, twin: is_twin }) = found else { return ControlFlow::Continue(()) };
        let view = twin.as_ref().filter(|_| is_twin).unwrap_or(pos);
        let symmetry = if pos.kind == Kind::Shogi { 0 } else { view.relative((e.next & 7) as u8) };
        let next = view.move_here(e.next);
        let next = if is_twin { turn_back(next) } else { next };
        n += 1;
        each(PositionHit { hit, number: e.mv, symmetry, next, twin: is_twin })
    };
    if many {
        hits_of_many(conn, &groups, query.limit, &mut hand_on)?;
    } else {
        find_in_each(conn, query, Some(&ids), &mut hand_on)?;
    }
    Ok(n)
}

/// From this many games on, [`find_position`] without filters reads the games' rows itself
/// ([`hits_of_many`]) rather than through `find`'s one statement.
const MANY: usize = 256;

/// The rows of the games `ids` as [`find`](crate::find) gives them (ordered by file and offset,
/// at most `limit`), for many games. `find`'s statement (`id IN (…)` with `ORDER BY path,
/// offset`) looks each game up and has SQLite sort whole rows: 120 ms for the 15,000 games of
/// the corpus's 99th percentile. Here the games' `(id, file, offset)` come from one scan of
/// the id range when the ids are dense in it (a lookup each otherwise), are sorted here by
/// path and offset, and only the first `limit` have their whole row read, in id order.
/// Each hit, with its game id, is handed to `each` (until it breaks): as its row is read in
/// file order when the games are read that way, else once all are sorted (fewer than a
/// sixteenth of the index's games: see `most` below).
fn hits_of_many(
    conn: &Connection,
    group: &Groups,
    limit: Option<u64>,
    each: &mut dyn FnMut(i64, Hit) -> ControlFlow<()>,
) -> Result<(), Error> {
    // A page of a position most games share (the empty board): the first games in file order
    // are nearly all in it, so the files are read in path order until the page is full, each
    // game looked for in the group (a binary search: no posting decoded but those it reads).
    let max_id: i64 = conn.query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))?;
    let most = group.len().saturating_mul(16) >= max_id as u64;
    // A page is read in file order, game by game, when the games scanned to fill it (about
    // `n` times the games per game through the position) stay few: ids from the `games_file`
    // index alone, a whole row only for the games kept.
    if let Some(n) = limit {
        if n.saturating_mul(max_id as u64) <= group.len().saturating_mul(PAGE_SCAN) {
            return first_in_file_order(conn, &|g| g >= 0 && group.first_of_game(g as u64).is_some(), n, each);
        }
    }
    let ids: Vec<u64> = group.firsts().iter().map(|f| f.e.game).collect();
    let ids = ids.as_slice();
    let (lo, hi) = (ids.iter().min().copied().unwrap_or(0), ids.iter().max().copied().unwrap_or(0));
    let mut want = vec![0u64; (hi - lo) as usize / 64 + 1];
    for &g in ids {
        want[((g - lo) / 64) as usize] |= 1 << ((g - lo) % 64);
    }
    let wanted = |g: i64| {
        let g = g as u64;
        (lo..=hi).contains(&g) && want[((g - lo) / 64) as usize] & 1 << ((g - lo) % 64) != 0
    };
    if most {
        // All the games of such a position, the same way: each file's games once, in order
        // (not every game's keys read, sorted, then every game's row read again by id: 2.4 s
        // for the empty board's million games).
        return first_in_file_order(conn, &wanted, u64::MAX, each);
    }
    let dense = (hi - lo) < 4 * ids.len() as u64;
    let list = || ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let keys_sql = if dense {
        format!("SELECT id, file_id, offset FROM games WHERE id BETWEEN {lo} AND {hi}")
    } else {
        format!("SELECT id, file_id, offset FROM games WHERE id IN ({})", list())
    };
    let mut keys: Vec<(i64, i64, i64)> = Vec::with_capacity(ids.len());
    {
        let mut st = conn.prepare(&keys_sql)?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            if wanted(id) {
                keys.push((id, r.get(1)?, r.get(2)?));
            }
        }
    }
    // The files' paths, and each file's rank in path order: the games are sorted by (rank,
    // offset), integers.
    let mut files: Vec<(i64, String)> = Vec::new();
    {
        let mut ids: Vec<i64> = keys.iter().map(|k| k.1).collect();
        ids.sort_unstable();
        ids.dedup();
        for chunk in ids.chunks(20_000) {
            let list = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            let mut st = conn.prepare(&format!("SELECT id, path FROM files WHERE id IN ({list})"))?;
            let mut rows = st.query([])?;
            while let Some(r) = rows.next()? {
                files.push((r.get(0)?, r.get(1)?));
            }
        }
    }
    files.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    let file_rank: HashMap<i64, usize> = files.iter().enumerate().map(|(i, f)| (f.0, i)).collect();
    let mut keys: Vec<(usize, i64, i64)> =
        keys.into_iter().map(|(id, f, o)| (file_rank.get(&f).copied().unwrap_or(usize::MAX), o, id)).collect();
    keys.sort_unstable();
    keys.truncate(limit.map_or(usize::MAX, |n| n.min(usize::MAX as u64) as usize));
    let path = |f: i64| file_rank.get(&f).map_or("", |&r| files[r].1.as_str());
    // The whole rows of the games kept, read in id order, put back in path order.
    let rank: HashMap<i64, usize> = keys.iter().enumerate().map(|(i, k)| (k.2, i)).collect();
    let mut out: Vec<Option<(i64, Hit)>> = vec![None; keys.len()];
    let sorted_ids = {
        let mut v: Vec<i64> = keys.iter().map(|k| k.2).collect();
        v.sort_unstable();
        v
    };
    let cols = format!("g.id, g.file_id, {HIT_COLUMNS}");
    let rows_sql = match (sorted_ids.first(), sorted_ids.last()) {
        (Some(a), Some(b)) if (b - a) < 4 * sorted_ids.len() as i64 => {
            format!("SELECT {cols} FROM games g WHERE g.id BETWEEN {a} AND {b}")
        }
        _ => format!(
            "SELECT {cols} FROM games g WHERE g.id IN ({})",
            sorted_ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        ),
    };
    if !sorted_ids.is_empty() {
        let mut st = conn.prepare(&rows_sql)?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let Some(&i) = rank.get(&id) else { continue };
            let hit = hit_from_row(r, 2, path(r.get(1)?).to_string())?;
            out[i] = Some((id, hit));
        }
    }
    for (id, hit) in out.into_iter().flatten() {
        if each(id, hit).is_break() {
            break;
        }
    }
    Ok(())
}

/// The games a page read in file order may scan, expected (see [`hits_of_many`]).
const PAGE_SCAN: u64 = 100_000;

/// The first `n` games in file and offset order for which `wanted` holds: each file's games
/// read (by the `games_file` index) in path order until `n` are found. For a page, only the ids
/// are scanned (the index alone) and each game kept has its row read by id; for all of them
/// (`n` is `u64::MAX`), the rows are scanned. A file's games are in
/// offset order by id (the writer inserts them in the order they come in the file, and a changed
/// file is deleted and inserted whole), so a file's reading stops once the page is full.
fn first_in_file_order(
    conn: &Connection,
    wanted: &dyn Fn(i64) -> bool,
    n: u64,
    each: &mut dyn FnMut(i64, Hit) -> ControlFlow<()>,
) -> Result<(), Error> {
    let mut files: Vec<(String, i64)> = Vec::new();
    {
        let mut st = conn.prepare("SELECT path, id FROM files")?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            files.push((r.get(0)?, r.get(1)?));
        }
    }
    files.sort_unstable();
    let page = n != u64::MAX;
    let mut st = match page {
        true => conn.prepare("SELECT id FROM games WHERE file_id = ?1 ORDER BY id")?,
        false => {
            conn.prepare(&format!("SELECT g.id, {HIT_COLUMNS} FROM games g WHERE g.file_id = ?1 ORDER BY g.id"))?
        }
    };
    let mut row = conn.prepare(&format!("SELECT {HIT_COLUMNS} FROM games g WHERE g.id = ?1"))?;
    let mut found = 0u64;
    for (path, file) in files {
        let mut rows = st.query([file])?;
        while let Some(r) = rows.next()? {
            if found >= n {
                return Ok(());
            }
            let id: i64 = r.get(0)?;
            if !wanted(id) {
                continue;
            }
            let hit = match page {
                true => row.query_row([id], |r| hit_from_row(r, 0, path.clone()))?,
                false => hit_from_row(r, 1, path.clone())?,
            };
            found += 1;
            if each(id, hit).is_break() {
                return Ok(());
            }
        }
        if found >= n {
            break;
        }
    }
    Ok(())
}

/// One next move of an [`Explore`] table.
#[derive(Clone, Debug, PartialEq)]
pub struct Continuation {
    /// The move, in the query's orientation (`None`: games that ended there).
    pub next: Option<Move>,
    /// Games that played it.
    pub games: u64,
    /// Of them, won by Black (sente).
    pub black_wins: u64,
    /// Won by White (gote).
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// The earliest and latest normalised dates.
    pub first_date: Option<String>,
    /// See [`Continuation::first_date`].
    pub last_date: Option<String>,
    /// The average year of the games with a date.
    pub average_year: Option<f64>,
    /// The players who chose it most often (the mover's name), with their counts, at most three.
    pub players: Vec<(String, u64)>,
    /// Of [`Continuation::games`], those that reached the position's twin (colour-swapped or
    /// mirrored, see [`Position::also_twin`]): their move is turned back into the query's terms,
    /// and for Go their winner too (a win of the twin's Black is the query's White's).
    pub twin_games: u64,
}

/// What [`explore`] gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Explore {
    /// Games through the position.
    pub games: u64,
    /// Their next moves, most played first, each played in at least `min_games` games.
    pub moves: Vec<Continuation>,
    /// Of [`Explore::games`], those that reached the position's twin first.
    pub twin_games: u64,
}

/// Per-game facts explore needs.
struct GameFacts {
    winner: Option<String>,
    date: Option<String>,
    black: Option<String>,
    white: Option<String>,
}

fn game_facts(conn: &Connection, ids: &[u64]) -> Result<HashMap<u64, GameFacts>, Error> {
    let mut out = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(20_000) {
        let list = chunk.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let sql = format!("SELECT id, winner, date, black_name, white_name FROM games WHERE id IN ({list})");
        let mut st = conn.prepare(&sql)?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            out.insert(id as u64, GameFacts { winner: r.get(1)?, date: r.get(2)?, black: r.get(3)?, white: r.get(4)? });
        }
    }
    Ok(out)
}

/// The continuation table of `pos` in the index at `db` (opened as `conn`): each move played
/// next, with its games, results, dates and players; moves played in fewer than `min_games`
/// games are left out. With [`Position::also_twin`], the games through its twin too.
pub fn explore(conn: &Connection, db: &Path, pos: &Position, min_games: u64) -> Result<Explore, Error> {
    let Some(twin) = pos.twin_view() else {
        if let Some(rows) = summary(db, pos.hash)? {
            let mut t = Table::default();
            t.add_rows(pos, false, rows);
            return Ok(t.finish(min_games));
        }
        return explore_games(conn, db, pos, min_games);
    };
    // The position and its twin each from its table or its games, added up: when no game
    // passes through both (a game counts once); otherwise from the games, merged.
    let groups = Groups::open(db, pos)?;
    if groups.overlap() {
        return explore_games(conn, db, pos, min_games);
    }
    let mut t = Table::default();
    for (view, is_twin, group) in [(pos, false, &groups.direct), (&twin, true, &groups.twin)] {
        let Some(group) = group else { continue };
        match summary(db, view.hash)? {
            Some(rows) => t.add_rows(view, is_twin, rows),
            None => {
                let firsts: Vec<First> =
                    first_postings(group).into_iter().map(|e| First { e, twin: is_twin }).collect();
                t.add_games(conn, pos, Some(&twin), &firsts)?;
            }
        }
    }
    Ok(t.finish(min_games))
}

/// The continuation table of a frequent position written with the positions file (see
/// `aggregate`), if it has one.
fn summary(db: &Path, hash: u64) -> Result<Option<Vec<crate::aggregate::Row>>, Error> {
    let path = crate::posfile::path_for(db);
    let file = PosFile::open(&path).ok_or_else(|| {
        Error::new(ErrorKind::NoIndex, format!("{}: no positions file (re-run `kifu index`)", path.display()))
    })?;
    Ok(crate::aggregate::lookup(db, file.header.id, hash))
}

/// One move's sums as a [`Table`] adds them up.
#[derive(Default)]
struct Tally {
    games: u64,
    black_wins: u64,
    white_wins: u64,
    draws: u64,
    dated: u64,
    years: f64,
    first: Option<String>,
    last: Option<String>,
    players: HashMap<String, u64>,
    twin_games: u64,
}

/// A continuation table being added up, by move in the query's orientation: from tables' rows
/// ([`Table::add_rows`]) and from games ([`Table::add_games`]), either the position's or its
/// twin's.
#[derive(Default)]
struct Table {
    games: u64,
    twin_games: u64,
    moves: HashMap<Option<Move>, Tally>,
}

impl Table {
    /// Rows of the table of `view` (the position, or its twin when `twin`): each row's move
    /// turned into the query's orientation (and back from the twin), rows that become one move
    /// merged.
    fn add_rows(&mut self, view: &Position, twin: bool, rows: Vec<crate::aggregate::Row>) {
        let swap = twin && view.kind != Kind::Shogi;
        for r in rows {
            let m = view.move_here(r.next);
            let a = self.moves.entry(if twin { turn_back(m) } else { m }).or_default();
            self.games += r.games;
            a.games += r.games;
            if twin {
                self.twin_games += r.games;
                a.twin_games += r.games;
            }
            let (b, w) = if swap { (r.white_wins, r.black_wins) } else { (r.black_wins, r.white_wins) };
            a.black_wins += b;
            a.white_wins += w;
            a.draws += r.draws;
            a.dated += r.dated;
            a.years += r.years;
            if r.first.is_some() && (a.first.is_none() || r.first < a.first) {
                a.first = r.first;
            }
            if r.last.is_some() && (a.last.is_none() || r.last > a.last) {
                a.last = r.last;
            }
            for (name, n) in r.players {
                *a.players.entry(name).or_default() += n;
            }
        }
    }

    /// The games of `firsts` (each at its first time at `pos`, or at its twin `twin`).
    fn add_games(
        &mut self,
        conn: &Connection,
        pos: &Position,
        twin: Option<&Position>,
        firsts: &[First],
    ) -> Result<(), Error> {
        let ids: Vec<u64> = firsts.iter().map(|f| f.e.game).collect();
        let facts = game_facts(conn, &ids)?;
        for f in firsts {
            let Some(g) = facts.get(&f.e.game) else { continue };
            let (next, swap) = match (f.twin, twin) {
                (true, Some(t)) => (turn_back(t.move_here(f.e.next)), pos.kind != Kind::Shogi),
                _ => (pos.move_here(f.e.next), false),
            };
            self.games += 1;
            let a = self.moves.entry(next).or_default();
            a.games += 1;
            if f.twin {
                self.twin_games += 1;
                a.twin_games += 1;
            }
            match (g.winner.as_deref(), swap) {
                (Some("B"), false) | (Some("W"), true) => a.black_wins += 1,
                (Some("W"), false) | (Some("B"), true) => a.white_wins += 1,
                (Some("draw"), _) => a.draws += 1,
                _ => {}
            }
            if let Some(d) = &g.date {
                if a.first.as_ref().is_none_or(|x| d < x) {
                    a.first = Some(d.clone());
                }
                if a.last.as_ref().is_none_or(|x| d > x) {
                    a.last = Some(d.clone());
                }
                if let Some(y) = d.get(..4).and_then(|y| y.parse::<f64>().ok()) {
                    a.years += y;
                    a.dated += 1;
                }
            }
            // The player who made the move (for a swapped game, of the other colour than shown).
            let mover = next.map(|m| if swap { m.color().opponent() } else { m.color() });
            let name = match mover {
                Some(Color::Black) => g.black.as_ref(),
                Some(Color::White) => g.white.as_ref(),
                None => None,
            };
            if let Some(n) = name.filter(|n| !n.is_empty()) {
                *a.players.entry(n.clone()).or_default() += 1;
            }
        }
        Ok(())
    }

    /// The table: moves played in at least `min_games` games, most played first.
    fn finish(self, min_games: u64) -> Explore {
        let mut moves: Vec<Continuation> = self
            .moves
            .into_iter()
            .filter(|(_, a)| a.games >= min_games)
            .map(|(next, a)| {
                let mut players: Vec<(String, u64)> = a.players.into_iter().collect();
                players.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
                players.truncate(3);
                Continuation {
                    next,
                    games: a.games,
                    black_wins: a.black_wins,
                    white_wins: a.white_wins,
                    draws: a.draws,
                    first_date: a.first,
                    last_date: a.last,
                    average_year: (a.dated > 0).then(|| a.years / a.dated as f64),
                    players,
                    twin_games: a.twin_games,
                }
            })
            .collect();
        moves.sort_by(|x, y| y.games.cmp(&x.games).then_with(|| move_text(x.next).cmp(&move_text(y.next))));
        Explore { games: self.games, moves, twin_games: self.twin_games }
    }
}

/// [`explore`] by reading the games through the position (and its twin, each game at its first
/// time at either), not the tables (no table, or tests comparing the two).
#[doc(hidden)]
pub fn explore_games(conn: &Connection, db: &Path, pos: &Position, min_games: u64) -> Result<Explore, Error> {
    let firsts = Groups::open(db, pos)?.firsts();
    let mut t = Table::default();
    t.add_games(conn, pos, pos.twin_view().as_ref(), &firsts)?;
    Ok(t.finish(min_games))
}

/// Writes a new positions file: the old file's postings of games still in the database, and
/// the postings this run read (its `runs` and `rest`, the postings still in memory, sorted),
/// merged as they stream (see `runs`). Returns what was written.
///
/// As the postings go by, the continuation tables of positions that `summary_games` games or
/// more share are written (`aggregate`, `top`: `DB.positions.top`) from the games' `facts`
/// (which also say which games are live); a failure there only leaves explore to read the
/// games.
#[allow(clippy::too_many_arguments)]
pub(crate) fn rewrite(
    path: &Path,
    top: &Path,
    old: Option<PosFile>,
    old_hwm: u64,
    runs: &crate::runs::Runs,
    rest: Vec<Entry>,
    facts: crate::aggregate::Facts,
    nonce: u64,
    summary_games: u64,
    beside: impl FnOnce() -> Result<(), Error>,
) -> Result<crate::posfile::Written, Error> {
    let io_error = |e: std::io::Error| Error::other(format!("{}: {e}", path.display()));
    let hwm = facts.max_id().max(old_hwm);
    let is_live = |e: &Entry| facts.is_live(e.game);
    let (mg, mm, mn) = runs.max();
    let mut bounds = crate::posfile::Bounds {
        count: runs.count() + rest.len() as u64,
        game: rest.iter().map(|e| e.game).max().unwrap_or(0).max(mg),
        mv: rest.iter().map(|e| e.mv).max().unwrap_or(0).max(mm),
        next: rest.iter().map(|e| e.next).max().unwrap_or(0).max(mn),
    };
    let mut merge = runs.merge(rest).map_err(io_error)?;
    if let Some(old) = old {
        bounds = bounds.widen(&old.header);
        let kept = old.stream().filter(move |r| r.as_ref().map_or(true, |e| e.game <= old_hwm));
        merge.add(crate::runs::Source::Other(Box::new(kept))).map_err(io_error)?;
    }
    let _ = std::fs::remove_file(top);
    let mut tables = crate::aggregate::Builder::new(top, &facts, summary_games.min(usize::MAX as u64) as usize).ok();
    // The merge runs on a thread of its own, handing blocks of postings to another, which
    // encodes them: the two halves of the work (about as long as each other) overlap. This
    // thread does `beside` meanwhile (the database's indexes: the connection stays on it).
    let written = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<std::io::Result<Vec<Entry>>>(4);
        let (back, spare) = std::sync::mpsc::channel::<Vec<Entry>>();
        std::thread::Builder::new()
            .name("kifu-merge".to_owned())
            .spawn_scoped(scope, move || merge_blocks(merge, is_live, &tx, &spare))
            .map_err(io_error)?;
        // Only a hash with `summary_games` postings or more can have that many games: the
        // others' postings are not handed to the tables at all (most hashes have one).
        let tables = &mut tables;
        let encode = std::thread::Builder::new()
            .name("kifu-encode".to_owned())
            .spawn_scoped(scope, move || {
                crate::posfile::write_blocks(
                    path,
                    |b| next_block(&rx, &back, b),
                    bounds,
                    hwm,
                    nonce,
                    |group| {
                        if group.len() as u64 >= summary_games {
                            if let Some(t) = tables.as_mut() {
                                t.push_group(group);
                            }
                        }
                    },
                )
            })
            .map_err(io_error)?;
        let done = beside();
        let written = encode.join().map_err(|_| Error::other("the encoding thread panicked".to_owned()))?;
        done?;
        written.map_err(io_error)
    })?;
    if let Some(t) = tables {
        let _ = t.finish(top, written.id);
    }
    Ok(written)
}

/// Postings in a block handed from the merge's thread to the writing one (more when a hash
/// has more: a hash's postings are never split between blocks).
const BLOCK: usize = 4096;

/// Sends the postings of `merge` for which `keep` holds in blocks (each list taken from
/// `spare` when the writing thread has given one back), then an empty block to say the merge
/// is done, or a read error; stops when the receiver is gone.
fn merge_blocks(
    mut merge: crate::runs::Merge,
    keep: impl Fn(&Entry) -> bool,
    tx: &std::sync::mpsc::SyncSender<std::io::Result<Vec<Entry>>>,
    spare: &std::sync::mpsc::Receiver<Vec<Entry>>,
) {
    loop {
        let mut block = spare.try_recv().unwrap_or_else(|_| Vec::with_capacity(BLOCK));
        block.clear();
        let r = merge.fill(&mut block, BLOCK, &keep);
        let end = !matches!(&r, Ok(()) if !block.is_empty());
        if tx.send(r.map(|()| block)).is_err() || end {
            return;
        }
    }
}

/// Puts the next block [`merge_blocks`] sent in `block` (the one there goes back to it) and
/// says whether there was one; the merge's thread gone without saying it was done is an error.
fn next_block(
    rx: &std::sync::mpsc::Receiver<std::io::Result<Vec<Entry>>>,
    back: &std::sync::mpsc::Sender<Vec<Entry>>,
    block: &mut Vec<Entry>,
) -> std::io::Result<bool> {
    let b = rx.recv().map_err(|_| std::io::Error::other("the merge thread stopped"))??;
    if b.is_empty() {
        return Ok(false);
    }
    let _ = back.send(std::mem::replace(block, b));
    Ok(true)
}

/// A posting as [`dump_postings`] gives it: hash, file, offset, move, next.
#[doc(hidden)]
pub type DumpedPosting = (u64, String, u64, u32, u32);

/// Every posting of the index at `db` as `(hash, file, offset, move, next)`, the game named by
/// its file and offset (`("", id)` for a game the database no longer has): for tests that
/// compare two indexes, whose game ids differ.
#[doc(hidden)]
pub fn dump_postings(conn: &Connection, db: &Path) -> Result<Vec<DumpedPosting>, Error> {
    let path = crate::posfile::path_for(db);
    let Some(mut file) = PosFile::open(&path) else { return Ok(Vec::new()) };
    let entries = file.all(|_| true).map_err(|e| Error::other(format!("{}: {e}", path.display())))?;
    let mut names: HashMap<u64, (String, u64)> = HashMap::new();
    let mut st = conn.prepare("SELECT g.id, f.path, g.offset FROM games g JOIN files f ON f.id = g.file_id")?;
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        names.insert(r.get::<_, i64>(0)? as u64, (r.get(1)?, r.get::<_, i64>(2)? as u64));
    }
    let mut out: Vec<_> = entries
        .into_iter()
        .map(|e| {
            let (f, o) = names.get(&e.game).cloned().unwrap_or((String::new(), e.game));
            (e.hash, f, o, e.mv, e.next)
        })
        .collect();
    out.sort();
    Ok(out)
}
