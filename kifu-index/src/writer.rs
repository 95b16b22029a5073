//! The writer thread: the only owner of the database connection. Workers send it one
//! [`FileRecord`] per file over a bounded channel; it writes them in batches, one transaction per
//! batch, so a file's `files` row and all its `games` rows are committed together or not at all.
//!
//! A batch closes after [`Writer::batch_files`] files or half a second, whichever comes first, so
//! a killed run loses at most that much work and the next run redoes it (a file is in `files`
//! only once its games are).

use super::extract::{FileScan, GameRow};
use super::texts::Field;
use rusqlite::{params, Connection, Transaction};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// One file's outcome, as sent to the writer.
pub struct FileRecord {
    pub path: String,
    pub size: u64,
    /// -1 (unknown) makes the next run read the file again.
    pub mtime_ns: i64,
    /// `None`: the file could not be read (the message) — one error.
    pub read_error: Option<String>,
    /// `None` with no read error: no format recognises the file.
    pub scan: Option<FileScan>,
    /// The file has a row to replace.
    pub replace: bool,
    /// The file looked binary (a NUL byte in its head): not a game record, skipped as a README
    /// is (as `kifu stats` and `kifu check` skip it).
    pub binary: bool,
    /// The members of an archive, each read like a file (empty for anything else: a compressed
    /// file's one stream is the file's own `scan`).
    pub members: Vec<Member>,
}

/// One member of an archive, named `archive.zip!member.sgf`.
pub struct Member {
    pub name: String,
    /// Decompressed size in bytes.
    pub size: u64,
    /// `None`: the member could not be read (the message) — one error.
    pub read_error: Option<String>,
    /// `None` with no read error: no format recognises the member.
    pub scan: Option<FileScan>,
    /// The member looked binary: skipped.
    pub binary: bool,
}

impl Member {
    fn games(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.games.len() as u64)
    }

    fn errors(&self) -> u64 {
        self.read_error.is_some() as u64 + self.scan.as_ref().map_or(0, |s| s.errors)
    }

    fn warnings(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.warnings)
    }
}

impl FileRecord {
    /// Positions of its games' main lines (in the members too): the postings it adds.
    fn postings(&self) -> usize {
        let of = |s: &Option<FileScan>| s.as_ref().map_or(0, |s| s.games.iter().map(|g| g.positions.len()).sum());
        of(&self.scan) + self.members.iter().map(|m| of(&m.scan)).sum::<usize>()
    }

    /// Games found (in the members too).
    pub fn games(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.games.len() as u64) + self.members.iter().map(Member::games).sum::<u64>()
    }

    /// Errors: read errors and the reader's errors (in the members too).
    pub fn errors(&self) -> u64 {
        self.read_error.is_some() as u64
            + self.scan.as_ref().map_or(0, |s| s.errors)
            + self.members.iter().map(Member::errors).sum::<u64>()
    }

    /// Warnings from the reader (in the members too).
    pub fn warnings(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.warnings) + self.members.iter().map(Member::warnings).sum::<u64>()
    }

    /// Not a game record, and not an error: no format recognises it (a README, an image) and it
    /// is no archive.
    pub fn skipped(&self) -> bool {
        self.scan.is_none() && self.read_error.is_none() && self.members.is_empty()
    }
}

/// The writer's settings and what it did.
pub struct Writer<'a> {
    /// Files per transaction at most.
    pub batch_files: usize,
    /// Files written.
    pub files: u64,
    /// Time spent waiting for records (the rest of the thread's time is writing).
    pub waiting: Duration,
    /// Called after each file is written (progress).
    pub on_file: Box<dyn FnMut(&FileRecord) + Send + 'a>,
    /// The positions of the games written, with their ids (for the positions file).
    pub postings: Vec<crate::posfile::Entry>,
    /// Where each batch's postings are appended before it is committed (see `posfile::Log`).
    pub log: Option<crate::posfile::Log>,
    /// The games of the batch being written: id and main-line hash (for the log).
    pub batch_games: Vec<(u64, u64)>,
    /// Where `postings` go once they fill the memory budget, after a batch is logged (`runs`).
    pub runs: Option<crate::runs::Runs>,
}

impl Writer<'_> {
    /// Deletes the rows of `paths` (files gone from disk) in one transaction.
    pub fn delete(conn: &mut Connection, paths: &[String]) -> rusqlite::Result<()> {
        let tx = conn.transaction()?;
        {
            let mut st = tx.prepare_cached("DELETE FROM files WHERE path = ?1")?;
            for p in paths {
                st.execute([p])?;
            }
        }
        tx.commit()
    }

    /// Writes every record received until the channel closes. Records come in small groups (one
    /// message per group of files read by one worker) to keep thread wake-ups few; a transaction
    /// holds whole groups.
    pub fn run(&mut self, conn: &mut Connection, rx: Receiver<Vec<FileRecord>>) -> rusqlite::Result<()> {
        let max_age = Duration::from_millis(500);
        'outer: loop {
            let tx = conn.transaction()?;
            let mut st = Statements::new(&tx)?;
            let mut logged = self.postings.len();
            let started = Instant::now();
            let mut n = 0;
            while n < self.batch_files && started.elapsed() < max_age {
                let t = Instant::now();
                let got = rx.recv_timeout(max_age);
                self.waiting += t.elapsed();
                let recs = match got {
                    Ok(r) => r,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => break,
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        drop(st);
                        self.log_from(logged, 0);
                        tx.commit()?;
                        break 'outer;
                    }
                };
                for rec in &recs {
                    // A batch can hold more postings than the memory for them (a thousand
                    // files of long games): the postings so far are logged and spilled before
                    // a file that would not fit, rather than the list growing (a copy of it
                    // each time it doubles) and all of it sorted after the last file.
                    let upcoming = if self.runs.is_some() { rec.postings() } else { 0 };
                    if self.runs.as_ref().is_some_and(|r| r.would_spill(self.postings.len(), upcoming)) {
                        self.log_from(logged, upcoming);
                        logged = self.postings.len();
                    }
                    write_file(&tx, &mut st, rec, &mut self.postings, &mut self.batch_games)?;
                    (self.on_file)(rec);
                    self.files += 1;
                    n += 1;
                }
            }
            drop(st);
            self.log_from(logged, 0);
            tx.commit()?;
        }
        Ok(())
    }

    /// Appends the postings from `start` on (the batch's so far, before its commit) to the log,
    /// then spills the postings held if they and `upcoming` more would not fit their memory.
    /// The log may hold postings of games not yet committed either way: the next run keeps
    /// only those of committed games (`posfile::read_log`).
    fn log_from(&mut self, start: usize, upcoming: usize) {
        if let Some(log) = self.log.as_mut() {
            log.append(&self.postings[start..], &self.batch_games);
        }
        self.batch_games.clear();
        if let Some(runs) = self.runs.as_mut() {
            runs.spill_if_full(&mut self.postings, upcoming);
        }
    }
}

/// The writer's statements, prepared once per transaction (not looked up per file).
struct Statements<'t> {
    delete: rusqlite::CachedStatement<'t>,
    file: rusqlite::CachedStatement<'t>,
    game: rusqlite::CachedStatement<'t>,
}

impl<'t> Statements<'t> {
    fn new(tx: &'t Transaction<'_>) -> rusqlite::Result<Statements<'t>> {
        Ok(Statements {
            delete: tx.prepare_cached("DELETE FROM files WHERE path = ?1")?,
            file: tx.prepare_cached(
                "INSERT INTO files(path, size, mtime_ns, format, charset, games, warnings, errors, error, parent_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?,
            game: tx.prepare_cached(
                "INSERT INTO games(file_id, game_index, offset, length, format, kind, board_size,
                   black_name, black_rank, black_team, white_name, white_rank, white_team,
                   date_raw, date, event, round, place, game_name,
                   result_raw, winner, margin, reason, komi_raw, komi, handicap, rules, time_control,
                   moves, moves_total, nodes, variations, comments, warnings, errors,
                   opening, main_hash, captures_black, captures_white, final_hash, pattern, sym_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
                   ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38,
                   ?39, ?40, ?41, ?42)",
            )?,
        })
    }
}

fn write_file(
    tx: &Transaction<'_>,
    st: &mut Statements<'_>,
    rec: &FileRecord,
    postings: &mut Vec<crate::posfile::Entry>,
    games: &mut Vec<(u64, u64)>,
) -> rusqlite::Result<()> {
    if rec.replace {
        // Its members' rows and all their games go with it (ON DELETE CASCADE).
        st.delete.execute([&rec.path])?;
    }
    let error = match &rec.read_error {
        Some(e) => Some(e.clone()),
        None => rec.scan.as_ref().and_then(|s| s.first_error.clone()),
    };
    // Its own counts only: an archive's members count theirs in their rows, so that sums over
    // `files` count each game once.
    let scan = rec.scan.as_ref();
    let counts = (
        scan.map_or(0, |s| s.games.len() as u64),
        scan.map_or(0, |s| s.warnings),
        rec.read_error.is_some() as u64 + scan.map_or(0, |s| s.errors),
    );
    let file_id = insert_file(tx, st, &rec.path, rec.size, rec.mtime_ns, None, rec.scan.as_ref(), counts, error)?;
    if let Some(scan) = &rec.scan {
        insert_games(tx, st, file_id, scan, postings, games)?;
    }
    for m in &rec.members {
        let counts = (m.games(), m.warnings(), m.errors());
        let error = member_error(m);
        let id = insert_file(tx, st, &m.name, m.size, rec.mtime_ns, Some(file_id), m.scan.as_ref(), counts, error)?;
        if let Some(scan) = &m.scan {
            insert_games(tx, st, id, scan, postings, games)?;
        }
    }
    Ok(())
}

/// A member's first error, as its row stores it.
fn member_error(m: &Member) -> Option<String> {
    match &m.read_error {
        Some(e) => Some(e.clone()),
        None => m.scan.as_ref().and_then(|s| s.first_error.clone()),
    }
}

/// Inserts one `files` row (a file, or a member under `parent`) and returns its id.
#[allow(clippy::too_many_arguments)]
fn insert_file(
    tx: &Transaction<'_>,
    st: &mut Statements<'_>,
    path: &str,
    size: u64,
    mtime_ns: i64,
    parent: Option<i64>,
    scan: Option<&FileScan>,
    (games, warnings, errors): (u64, u64, u64),
    error: Option<String>,
) -> rusqlite::Result<i64> {
    let format = scan.and_then(|s| s.format).map(|f| f.as_str());
    let charset = scan.and_then(|s| s.charset);
    st.file.execute(params![
        path,
        size as i64,
        mtime_ns,
        format,
        charset,
        games as i64,
        warnings as i64,
        errors as i64,
        error,
        parent
    ])?;
    Ok(tx.last_insert_rowid())
}

/// Inserts the `games` rows of one scanned file or member, and adds their positions to
/// `postings` under their new ids.
fn insert_games(
    tx: &Transaction<'_>,
    st: &mut Statements<'_>,
    file_id: i64,
    scan: &FileScan,
    postings: &mut Vec<crate::posfile::Entry>,
    games: &mut Vec<(u64, u64)>,
) -> rusqlite::Result<()> {
    let format = scan.format.map_or("", |f| f.as_str());
    for (i, g) in scan.games.iter().enumerate() {
        insert_game(&mut st.game, file_id, i, format, g)?;
        if !g.positions.is_empty() {
            let game = tx.last_insert_rowid() as u64;
            games.push((game, g.main_hash));
            postings.extend(g.positions.iter().map(|p| crate::posfile::Entry {
                hash: p.hash,
                game,
                mv: p.mv,
                next: p.next,
            }));
        }
    }
    Ok(())
}

fn insert_game(
    st: &mut rusqlite::CachedStatement<'_>,
    file_id: i64,
    i: usize,
    format: &str,
    g: &GameRow,
) -> rusqlite::Result<()> {
    let o = &g.norm.outcome;
    let fin = g.final_pos;
    let (captures_black, captures_white) = fin.captures.unzip();
    st.execute(params![
        file_id,
        i as i64,
        g.offset as i64,
        g.length.map(|l| l as i64),
        format,
        g.kind.map_or("go", |k| k.as_str()),
        g.text(Field::BoardSize),
        g.text(Field::BlackName),
        g.text(Field::BlackRank),
        g.text(Field::BlackTeam),
        g.text(Field::WhiteName),
        g.text(Field::WhiteRank),
        g.text(Field::WhiteTeam),
        g.text(Field::Date),
        g.norm.date,
        g.text(Field::Event),
        g.text(Field::Round),
        g.text(Field::Place),
        g.text(Field::GameName),
        g.text(Field::Result),
        o.winner,
        o.margin,
        o.reason,
        g.text(Field::Komi),
        g.norm.komi,
        g.norm.handicap,
        g.text(Field::Rules),
        g.norm.time_control,
        g.moves as i64,
        g.moves_total as i64,
        g.nodes as i64,
        g.variations as i64,
        g.comments as i64,
        g.warnings as i64,
        g.errors as i64,
        g.text(Field::Opening).unwrap_or(""),
        g.main_hash as i64,
        captures_black,
        captures_white,
        fin.hash.map(|h| h as i64),
        g.pattern.as_deref(),
        g.sym_hash as i64,
    ])?;
    Ok(())
}
