//! The index database: its tables, and opening it with the settings that keep it consistent when
//! a run is killed (WAL journal, foreign keys, every batch one transaction).
//!
//! # Tables
//! `files`: one row per file seen (game records, files no format recognises, unreadable files),
//! so that a re-run can skip it.
//!
//! | column | meaning |
//! |---|---|
//! | `path` | absolute path (unique); a member of an archive is `ARCHIVE!MEMBER` (nested: `a.tar.gz!b.zip!c.sgf`) |
//! | `parent_id` | for a member, its archive's row (members go when it goes); NULL for a file on disk |
//! | `size`, `mtime_ns` | size in bytes and modification time (ns since the epoch) when read; `mtime_ns` = -1 when unknown (the file is then read again by every run); a member: its decompressed size and its archive's time |
//! | `format` | `sgf`, `jgf2`, … or NULL when not a game record (an archive: NULL; its members have theirs) |
//! | `charset` | charset of its text (declared or detected), NULL if it has none |
//! | `games`, `warnings`, `errors` | counts; an unreadable or binary file is one error; an archive's row counts only its own (a broken archive: one error), its members' rows theirs |
//! | `error` | the first error, `line:column: message` |
//!
//! `games`: one row per game (per `GameStart`, so the count equals `kifu stats`'s).
//!
//! | column | meaning |
//! |---|---|
//! | `file_id`, `game_index` | the file (rows go when it goes) and the game's number in it, from 0 |
//! | `offset`, `length` | byte offset and length in the (decompressed, UTF-16-transcoded) stream; `length` NULL when the game ended in an error |
//! | `format`, `kind`, `board_size` | format, `go`/`shogi`, `19` or `19:13` (default 19 for Go, 9 for shogi) |
//! | `black_name`, `black_rank`, `black_team`, `white_…` | as written (decoded) |
//! | `date_raw`, `date` | as written; normalised `YYYY[-MM[-DD]]` (see normalize.rs) |
//! | `event`, `round`, `place`, `game_name` | as written |
//! | `result_raw`, `winner`, `margin`, `reason` | as written; `B`/`W`/`draw`/`void`; points; `points`/`resign`/`time`/`forfeit` |
//! | `komi_raw`, `komi` | as written; points, with Fox's komi in stones read by KataGo's table (`KM[375]` is 7.5) |
//! | `handicap`, `rules`, `time_control` | stones; as written; `TM + OT` |
//! | `moves`, `moves_total`, `nodes`, `variations`, `comments` | main-line moves; all moves; nodes; leaves − 1; comments |
//! | `warnings`, `errors` | in this game |
//! | `opening` | first 20 main-line moves, canonical, `B[pd];W[dp];…` |
//! | `main_hash` | xxh3-64 of the canonical main-line string (as a signed 64-bit integer) |
//! | `captures_black`, `captures_white`, `final_hash` | the main line replayed: stones captured by each side (Go; NULL for shogi) and the final position's hash (Go: the board's Zobrist hash; shogi: xxh3-64 of the SFEN) |
//!
//! | `pattern` | Go games (with positions): the main line as board changes, captures precomputed, two bytes an operation (see `pattern.rs`); NULL otherwise |
//! | `sym_hash` | the main-line hash up to the board's eight symmetries (Go with positions: the smallest of the eight orientations' hashes; otherwise `main_hash`): `find --duplicates` groups by it |
//!
//! `id` is `AUTOINCREMENT`: an id is never given to a second game, so that the positions file
//! (`posfile`), which names games by id, can tell a deleted game from a new one. Ids follow the
//! order in which the writer receives files: with more than one reading thread that order is
//! the order reading ends, so two builds of the same files can number their games differently.
//! Name a game by its file's `path` and its `offset` (or `game_index`) to compare indexes.
//!
//! `meta`: `nonce`, a random number made with the database, which the positions file repeats
//! (a positions file left from another database is not used); `variations`, 1 when the
//! positions file holds the positions of variations too (`kifu index --variations`: remembered
//! by every later run while the positions file stands; absent or 0: main lines only).

use rusqlite::Connection;
use std::path::Path;

/// Bumped when a column changes; an index with another version is rebuilt from scratch.
pub const VERSION: i64 = 4;

/// How long the index's writing connection waits for a lock another connection holds.
pub(crate) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  format TEXT,
  charset TEXT,
  games INTEGER NOT NULL,
  warnings INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  error TEXT,
  parent_id INTEGER REFERENCES files(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS games(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  game_index INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER,
  format TEXT NOT NULL,
  kind TEXT NOT NULL,
  board_size TEXT,
  black_name TEXT, black_rank TEXT, black_team TEXT,
  white_name TEXT, white_rank TEXT, white_team TEXT,
  date_raw TEXT, date TEXT,
  event TEXT, round TEXT, place TEXT, game_name TEXT,
  result_raw TEXT, winner TEXT, margin REAL, reason TEXT,
  komi_raw TEXT, komi REAL,
  handicap INTEGER, rules TEXT, time_control TEXT,
  moves INTEGER NOT NULL, moves_total INTEGER NOT NULL, nodes INTEGER NOT NULL,
  variations INTEGER NOT NULL, comments INTEGER NOT NULL,
  warnings INTEGER NOT NULL, errors INTEGER NOT NULL,
  opening TEXT NOT NULL,
  main_hash INTEGER NOT NULL,
  captures_black INTEGER, captures_white INTEGER, final_hash INTEGER,
  pattern BLOB, sym_hash INTEGER
);
CREATE TABLE IF NOT EXISTS meta(
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
";

/// The secondary indexes (also created by [`open`], so an index whose run was killed during a
/// bulk load gets them back on the next run).
const INDEXES: &str = "
CREATE INDEX IF NOT EXISTS games_file ON games(file_id);
CREATE INDEX IF NOT EXISTS games_main_hash ON games(main_hash);
CREATE INDEX IF NOT EXISTS games_sym_hash ON games(sym_hash);
CREATE INDEX IF NOT EXISTS files_parent ON files(parent_id);
";

/// Drops the secondary indexes before a bulk load into an empty database (building them once at
/// the end is cheaper than maintaining them row by row).
pub fn drop_indexes(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "DROP INDEX IF EXISTS games_file; DROP INDEX IF EXISTS games_main_hash; DROP INDEX IF EXISTS files_parent;
         DROP INDEX IF EXISTS games_sym_hash;",
    )
}

/// Creates the secondary indexes if missing.
pub fn create_indexes(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(INDEXES)
}

/// Opens (creating if needed) the index at `path`: WAL journal (readers never see a half-written
/// batch, and a killed writer leaves the last committed state), `synchronous=NORMAL` (a batch is
/// durable at the next checkpoint; never corrupt), foreign keys on (deleting a file deletes its
/// games).
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // 16 KiB pages for a new database (an existing one keeps its own): a quarter of the writes
    // and reads of pages for the WAL and its checkpoints (`strace -f -c`: 8,832 pwrite64 and
    // 2,929 pread64 with 4 KiB pages, 2,481 and 822 with 16 KiB, on the corpus). Medians of 21
    // alternating runs at two threads: 712 -> 688 ms CPU, 427 -> 405 ms wall. Before the WAL
    // switch, which fixes the page size.
    conn.pragma_update(None, "page_size", 16384)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // A 64 MiB page cache.
    conn.pragma_update(None, "cache_size", -65536)?;
    // Checkpoint the WAL every 64 MiB rather than every 1,000 pages: fewer fsyncs stalling the
    // writer (a checkpoint moves committed pages; how often it runs changes nothing a reader
    // sees). The limit counts pages: 64 MiB of the database's own page size.
    let page_size: i64 = conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
    conn.pragma_update(None, "wal_autocheckpoint", (64 << 20) / page_size.max(512))?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version != VERSION {
        conn.execute_batch("DROP TABLE IF EXISTS games; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS meta;")?;
    }
    conn.execute_batch(SCHEMA)?;
    conn.execute_batch(INDEXES)?;
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('nonce', ?1)", [new_nonce(path)])?;
    if version != VERSION {
        conn.pragma_update(None, "user_version", VERSION)?;
    }
    Ok(conn)
}

/// A random-enough number for a new database: its path, the time and the process id hashed.
fn new_nonce(path: &Path) -> i64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let seed = format!("{}:{t}:{}", path.display(), std::process::id());
    xxhash_rust::xxh3::xxh3_64(seed.as_bytes()) as i64
}

/// The database's nonce (0 if it has none).
pub fn nonce(conn: &Connection) -> rusqlite::Result<u64> {
    use rusqlite::OptionalExtension;
    let v: Option<i64> = conn.query_row("SELECT value FROM meta WHERE key = 'nonce'", [], |r| r.get(0)).optional()?;
    Ok(v.unwrap_or(0) as u64)
}

/// Whether the index records the positions of variations (`meta` key `variations`, 1; absent
/// or 0: main lines only; see [`Options::variations`](crate::Options::variations)).
pub fn variations(conn: &Connection) -> rusqlite::Result<bool> {
    use rusqlite::OptionalExtension;
    let v: Option<i64> =
        conn.query_row("SELECT value FROM meta WHERE key = 'variations'", [], |r| r.get(0)).optional()?;
    Ok(v == Some(1))
}

/// Records whether the index records the positions of variations, and marks every file on disk
/// for reading again (`mtime_ns = -1`): their games' positions are to be recorded the new way.
/// One transaction; returns how many files were marked.
pub fn set_variations(conn: &Connection, on: bool) -> rusqlite::Result<usize> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let done = conn
        .execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('variations', ?1)", [on as i64])
        .and_then(|_| conn.execute("UPDATE files SET mtime_ns = -1 WHERE parent_id IS NULL", []));
    match done {
        Ok(n) => conn.execute_batch("COMMIT").map(|_| n),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Marks for reading again (`mtime_ns = -1`) the files on disk whose games, or whose members'
/// games, have ids above `hwm`: their positions are not in the positions file (a run was killed
/// before writing it, or the file was lost).
pub fn mark_unpositioned(conn: &Connection, hwm: u64) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE files SET mtime_ns = -1 WHERE id IN (
           WITH RECURSIVE up(id, parent) AS (
             SELECT id, parent_id FROM files WHERE id IN (SELECT file_id FROM games WHERE id > ?1)
             UNION SELECT f.id, f.parent_id FROM files f JOIN up ON f.id = up.parent)
           SELECT id FROM up WHERE parent IS NULL)",
        [hwm as i64],
    )
}

/// Copies the WAL into the database while the writer goes on (passive checkpoints from a
/// connection of its own, every 100 ms), so that closing the database at the end has only the
/// last part left to copy rather than the whole run's (the WAL's autocheckpoint, at 64 MiB,
/// would otherwise leave a whole corpus-sized database to a serial copy at the end). A
/// checkpoint that fails or finds the writer busy is simply tried again at the next tick.
pub struct Checkpointer {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path` (does nothing if it cannot be opened).
    pub fn start(path: &Path) -> Checkpointer {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let path = path.to_owned();
        let thread = std::thread::Builder::new()
            .name("kifu-checkpoint".to_owned())
            .spawn(move || {
                let Ok(conn) = Connection::open(&path) else { return };
                let tick = std::time::Duration::from_millis(100);
                while !flag.load(Ordering::Relaxed) {
                    std::thread::park_timeout(tick);
                    if flag.load(Ordering::Relaxed) {
                        break;
                    }
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .ok();
        Checkpointer { stop, thread }
    }

    /// Checkpoints now rather than at the next tick.
    pub fn now(&self) {
        if let Some(t) = &self.thread {
            t.thread().unpark();
        }
    }

    /// Stops and waits for the thread.
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Checkpointer {
    /// Stops the thread also when a run ends early on an error.
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Opens an existing index read-only (for queries), failing with an error of kind
/// [`ErrorKind::NoIndex`](crate::ErrorKind::NoIndex) if there is none at `path` or it was built
/// by another version of the schema.
pub fn open_existing(path: &Path) -> Result<Connection, crate::Error> {
    use crate::{Error, ErrorKind};
    if !path.exists() {
        let m = format!("{}: no index here (run `kifu index PATH --db {}` first)", path.display(), path.display());
        return Err(Error::new(ErrorKind::NoIndex, m));
    }
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| Error::database(path, e))?;
    let version: i64 =
        conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| Error::database(path, e))?;
    if version != VERSION {
        let m = format!("{}: index version {version}, expected {VERSION}: re-run `kifu index`", path.display());
        return Err(Error::new(ErrorKind::NoIndex, m));
    }
    Ok(conn)
}
