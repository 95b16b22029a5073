//! Continuation tables of the most frequent positions, worked out when the positions file is
//! written and kept beside it (`DB.positions.top`), so that [`explore`](crate::explore) on an
//! early-opening position that thousands of games share reads one small record instead of every
//! game's row (the 99th percentile of explore on the corpus went from about 100 ms to 1–8 ms,
//! depending on the machine's load: the figures are in the issue note).
//!
//! A position gets a table when at least [`Options::positions_summary_games`] games pass
//! through it. Its rows are keyed by the posting's stored next move (canonical orientation and
//! symmetry), each with its games, wins, draws, earliest and latest dates, the sum and count of
//! the years, and every player who chose it with a count: [`explore`](crate::explore) turns the
//! rows into the query's orientation and merges those that become one move (a symmetric
//! position), which gives exactly what reading the games would (a test checks it). The games'
//! facts (winner, date, players) are read from the database once per write, into about 16
//! bytes a game.
//!
//! # Layout
//! A header of 32 bytes (`KIFUTOP1`, the identity of the positions file it was made from, the
//! offset and length of the index), the records, then the index: for each position in order of
//! hash, its hash (u64), record offset (u64) and length (u32). A record: rows (u32), then each
//! row: next move, games, Black wins, White wins, draws, dated games (u32 each), the sum of the
//! years (f64), the first and last date (u16 length, `0xffff` for none, then UTF-8), players
//! (u32), each a name (u16 length, UTF-8) and count (u32). Little-endian throughout. A file whose
//! identity is not the positions file's is ignored.
//!
//! [`Options::positions_summary_games`]: crate::Options::positions_summary_games

use crate::posfile::Entry;
use rusqlite::Connection;
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"KIFUTOP1";
const HEADER: u64 = 32;
const NONE: u32 = u32::MAX;

/// The tables file of the database at `db`.
pub fn path_for(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".positions.top");
    PathBuf::from(s)
}

/// What a table needs of each game, by game id; strings interned.
#[derive(Default)]
pub struct Facts {
    /// 0 none, 1 Black, 2 White, 3 draw.
    winner: Vec<u8>,
    shogi: Vec<bool>,
    date: Vec<u32>,
    black: Vec<u32>,
    white: Vec<u32>,
    dates: Vec<String>,
    /// Each date's place among the dates in order, and its year (compared and added up as
    /// numbers: the strings compared and parsed for each posting cost a fifth of the tables).
    date_rank: Vec<u32>,
    date_year: Vec<Option<f64>>,
    names: Vec<String>,
    /// The games there are, one bit each, and the highest id.
    live: Vec<u64>,
    max_id: u64,
}

fn intern(map: &mut HashMap<String, u32>, list: &mut Vec<String>, s: Option<&str>) -> u32 {
    let Some(s) = s else { return NONE };
    if let Some(&i) = map.get(s) {
        return i;
    }
    let i = list.len() as u32;
    list.push(s.to_owned());
    map.insert(s.to_owned(), i);
    i
}

impl Facts {
    /// The facts of every game of the database, and which games it has.
    pub fn load(conn: &Connection) -> rusqlite::Result<Facts> {
        let mut f = Facts::default();
        let (mut dates, mut names) = (HashMap::new(), HashMap::new());
        let mut st = conn.prepare("SELECT id, winner, date, black_name, white_name, kind FROM games")?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let id = r.get::<_, i64>(0)? as usize;
            if f.live.len() <= id / 64 {
                f.live.resize(id / 64 + 1, 0);
            }
            f.live[id / 64] |= 1 << (id % 64);
            f.max_id = f.max_id.max(id as u64);
            if f.winner.len() <= id {
                let n = id + 1;
                f.winner.resize(n, 0);
                f.shogi.resize(n, false);
                f.date.resize(n, NONE);
                f.black.resize(n, NONE);
                f.white.resize(n, NONE);
            }
            f.winner[id] = match r.get_ref(1)?.as_str_or_null()? {
                Some("B") => 1,
                Some("W") => 2,
                Some("draw") => 3,
                _ => 0,
            };
            // Borrowed from the row, copied only the first time each is met (a `String` a
            // column a game cost half of the 120 M instructions here).
            f.date[id] = intern(&mut dates, &mut f.dates, r.get_ref(2)?.as_str_or_null()?);
            let black = r.get_ref(3)?.as_str_or_null()?.filter(|n| !n.is_empty());
            f.black[id] = intern(&mut names, &mut f.names, black);
            let white = r.get_ref(4)?.as_str_or_null()?.filter(|n| !n.is_empty());
            f.white[id] = intern(&mut names, &mut f.names, white);
            f.shogi[id] = r.get_ref(5)?.as_str_or_null()? == Some("shogi");
        }
        let mut order: Vec<u32> = (0..f.dates.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| f.dates[a as usize].cmp(&f.dates[b as usize]));
        f.date_rank = vec![0; f.dates.len()];
        for (rank, &d) in order.iter().enumerate() {
            f.date_rank[d as usize] = rank as u32;
        }
        f.date_year = f.dates.iter().map(|t| t.get(..4).and_then(|y| y.parse::<f64>().ok())).collect();
        Ok(f)
    }

    /// Whether the database has the game `id` (the games' ids are read with their facts: the
    /// positions file keeps only theirs, and a query of its own cost a tenth of its writing).
    pub fn is_live(&self, id: u64) -> bool {
        self.live.get((id / 64) as usize).is_some_and(|w| w & 1 << (id % 64) != 0)
    }

    /// The highest game id of the database (0 for none).
    pub fn max_id(&self) -> u64 {
        self.max_id
    }
}

/// Whether Black moves in the index code `next` (`None`: no move; see `position`).
fn black_moves(shogi: bool, next: u32) -> Option<bool> {
    if shogi {
        return next.checked_sub(1).map(|n| n & 1 == 0);
    }
    match next >> 3 {
        0 => None,
        c @ (1 | 2) => Some(c == 1),
        c => Some((c - 3) & 1 == 0),
    }
}

/// A multiplicative hash (as rustc's `FxHasher`) for the tables' maps, whose keys are move
/// codes and interned name numbers (numbers the index gives out, not the records' bytes):
/// SipHash, the default, cost about a third of the tables' instructions.
#[derive(Clone, Copy, Default)]
struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = self.0.wrapping_add(n).wrapping_mul(0xf135_7aea_2e62_a9c5);
    }

    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// A map hashed with [`Fx`].
type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;

/// One row being summed.
#[derive(Default)]
struct Acc {
    games: u32,
    wins: [u32; 4],
    dated: u32,
    years: f64,
    first: Option<u32>,
    last: Option<u32>,
    players: FxMap<u32, u32>,
}

/// Writes the tables as the positions file's postings go by ([`Builder::push_group`]).
pub struct Builder<'a> {
    facts: &'a Facts,
    min: usize,
    hash: u64,
    /// The rows of the position being summed (kept, empty, between positions).
    rows: FxMap<u32, Acc>,
    out: std::io::BufWriter<std::fs::File>,
    offset: u64,
    index: Vec<(u64, u64, u32)>,
    tmp: PathBuf,
    failed: Option<std::io::Error>,
    buf: Vec<u8>,
}

fn put_str(buf: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => buf.extend_from_slice(&0xffffu16.to_le_bytes()),
        Some(s) => {
            let s = &s.as_bytes()[..s.len().min(0xfffe)];
            buf.extend_from_slice(&(s.len() as u16).to_le_bytes());
            buf.extend_from_slice(s);
        }
    }
}

impl<'a> Builder<'a> {
    /// A builder of tables for positions that `min` games or more share, into `path.tmp`.
    pub fn new(path: &Path, facts: &'a Facts, min: usize) -> std::io::Result<Builder<'a>> {
        let mut s = path.as_os_str().to_owned();
        s.push(".tmp");
        let tmp = PathBuf::from(s);
        let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        out.write_all(&[0u8; HEADER as usize])?;
        Ok(Builder {
            facts,
            min: min.max(1),
            hash: 0,
            rows: FxMap::default(),
            out,
            offset: HEADER,
            index: Vec::new(),
            tmp,
            failed: None,
            buf: Vec::new(),
        })
    }

    fn add(&mut self, game: u64, next: u32) {
        let f = self.facts;
        let g = game as usize;
        if g >= f.winner.len() {
            return;
        }
        let a = self.rows.entry(next).or_default();
        a.games += 1;
        a.wins[f.winner[g] as usize] += 1;
        let d = f.date[g];
        if d != NONE {
            let rank = f.date_rank[d as usize];
            if a.first.is_none_or(|x| rank < f.date_rank[x as usize]) {
                a.first = Some(d);
            }
            if a.last.is_none_or(|x| rank > f.date_rank[x as usize]) {
                a.last = Some(d);
            }
            if let Some(y) = f.date_year[d as usize] {
                a.years += y;
                a.dated += 1;
            }
        }
        let name = match black_moves(f.shogi[g], next) {
            Some(true) => f.black[g],
            Some(false) => f.white[g],
            None => NONE,
        };
        if name != NONE {
            *a.players.entry(name).or_default() += 1;
        }
    }

    /// Takes the postings of one hash (a group of the positions file, in its order, after the
    /// groups before): its table is written if enough games pass through it. A game counts
    /// once, at its first time there (its first posting: the group is sorted by game).
    pub fn push_group(&mut self, group: &[Entry]) {
        let Some(first) = group.first() else { return };
        let games = 1 + group.windows(2).filter(|p| p[0].game != p[1].game).count();
        if games < self.min {
            return;
        }
        self.hash = first.hash;
        let mut last = None;
        for e in group {
            if last != Some(e.game) {
                last = Some(e.game);
                self.add(e.game, e.next);
            }
        }
        self.end();
    }

    /// Writes the table of the position summed.
    fn end(&mut self) {
        let f = self.facts;
        let b = &mut self.buf;
        b.clear();
        b.extend_from_slice(&(self.rows.len() as u32).to_le_bytes());
        let mut rows: Vec<(u32, Acc)> = self.rows.drain().collect();
        rows.sort_by_key(|r| r.0);
        for (next, a) in rows {
            for v in [next, a.games, a.wins[1], a.wins[2], a.wins[3], a.dated] {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.extend_from_slice(&a.years.to_le_bytes());
            put_str(b, a.first.map(|d| f.dates[d as usize].as_str()));
            put_str(b, a.last.map(|d| f.dates[d as usize].as_str()));
            b.extend_from_slice(&(a.players.len() as u32).to_le_bytes());
            let mut players: Vec<(u32, u32)> = a.players.into_iter().collect();
            players.sort_unstable();
            for (name, count) in players {
                put_str(b, Some(&f.names[name as usize]));
                b.extend_from_slice(&count.to_le_bytes());
            }
        }
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(b) {
                self.failed = Some(e);
            }
        }
        self.index.push((self.hash, self.offset, b.len() as u32));
        self.offset += b.len() as u64;
    }

    /// Writes the index and header and puts the file in place, naming the positions file
    /// `id`. Returns the positions given a table.
    pub fn finish(mut self, path: &Path, id: u64) -> std::io::Result<usize> {
        if let Some(e) = self.failed.take() {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(e);
        }
        let result = (|| {
            for &(h, o, l) in &self.index {
                self.out.write_all(&h.to_le_bytes())?;
                self.out.write_all(&o.to_le_bytes())?;
                self.out.write_all(&l.to_le_bytes())?;
            }
            self.out.flush()?;
            let file = self.out.get_mut();
            let mut head = [0u8; HEADER as usize];
            head[..8].copy_from_slice(MAGIC);
            head[8..16].copy_from_slice(&id.to_le_bytes());
            head[16..24].copy_from_slice(&self.offset.to_le_bytes());
            head[24..32].copy_from_slice(&(self.index.len() as u64).to_le_bytes());
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&head)?;
            std::fs::rename(&self.tmp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        result.map(|_| self.index.len())
    }
}

/// One row of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The next move as the index stores it.
    pub next: u32,
    /// Games, Black wins, White wins, draws, dated games.
    pub games: u64,
    /// See [`Row::games`].
    pub black_wins: u64,
    /// See [`Row::games`].
    pub white_wins: u64,
    /// See [`Row::games`].
    pub draws: u64,
    /// Games with a year.
    pub dated: u64,
    /// The sum of their years.
    pub years: f64,
    /// The earliest and latest dates.
    pub first: Option<String>,
    /// See [`Row::first`].
    pub last: Option<String>,
    /// Each player who chose it, with a count.
    pub players: Vec<(String, u64)>,
}

fn read_at(file: &mut std::fs::File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

/// The table of `hash` in the tables file of the database at `db`, if it has one and was made
/// from the positions file with identity `id`.
pub fn lookup(db: &Path, id: u64, hash: u64) -> Option<Vec<Row>> {
    let mut file = std::fs::File::open(path_for(db)).ok()?;
    let mut head = [0u8; HEADER as usize];
    read_at(&mut file, 0, &mut head).ok()?;
    let u64_at = |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
    if &head[..8] != MAGIC || id == 0 || u64_at(&head, 8) != id {
        return None;
    }
    let (at, n) = (u64_at(&head, 16), u64_at(&head, 24));
    let (mut lo, mut hi) = (0u64, n);
    let mut item = [0u8; 20];
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        read_at(&mut file, at + 20 * mid, &mut item).ok()?;
        let h = u64_at(&item, 0);
        if h == hash {
            let (off, len) = (u64_at(&item, 8), u32::from_le_bytes(item[16..20].try_into().expect("4")));
            let mut rec = vec![0u8; len as usize];
            read_at(&mut file, off, &mut rec).ok()?;
            return parse(&rec);
        }
        if h < hash {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

fn parse(rec: &[u8]) -> Option<Vec<Row>> {
    struct R<'a> {
        b: &'a [u8],
        i: usize,
    }
    impl R<'_> {
        fn take(&mut self, n: usize) -> Option<&[u8]> {
            let s = self.b.get(self.i..self.i + n)?;
            self.i += n;
            Some(s)
        }
        fn u32(&mut self) -> Option<u32> {
            Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
        }
        fn str(&mut self) -> Option<Option<String>> {
            let n = u16::from_le_bytes(self.take(2)?.try_into().ok()?);
            if n == 0xffff {
                return Some(None);
            }
            Some(Some(String::from_utf8_lossy(self.take(n as usize)?).into_owned()))
        }
    }
    let mut r = R { b: rec, i: 0 };
    let n = r.u32()?;
    let mut rows = Vec::with_capacity(n.min(4096) as usize);
    for _ in 0..n {
        let next = r.u32()?;
        let (games, b, w, d, dated) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let years = f64::from_le_bytes(r.take(8)?.try_into().ok()?);
        let (first, last) = (r.str()?, r.str()?);
        let np = r.u32()?;
        let mut players = Vec::with_capacity(np.min(4096) as usize);
        for _ in 0..np {
            let name = r.str()??;
            players.push((name, r.u32()? as u64));
        }
        rows.push(Row {
            next,
            games: games as u64,
            black_wins: b as u64,
            white_wins: w as u64,
            draws: d as u64,
            dated: dated as u64,
            years,
            first,
            last,
            players,
        });
    }
    (r.i == rec.len()).then_some(rows)
}
