//! The writer thread: the only owner of the database connection. Workers send it one
//! [`FileRecord`] per file over a bounded channel; it writes them in batches, one transaction per
//! batch, so a file's `files` row and all its `games` rows are committed together or not at all.
//!
//! A batch closes after [`Writer::batch_files`] files or half a second, whichever comes first, so
//! a killed run loses at most that much work and the next run redoes it (a file is in `files`
//! only once its games are).

use super::extract::{FileScan, GameRow};
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
    /// The file looked binary (a NUL byte in its head): counted as one error.
    pub binary: bool,
}

impl FileRecord {
    /// Games found.
    pub fn games(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.games.len() as u64)
    }

    /// Errors: read errors, binary files, and the reader's errors.
    pub fn errors(&self) -> u64 {
        (self.read_error.is_some() || self.binary) as u64 + self.scan.as_ref().map_or(0, |s| s.errors)
    }

    /// Warnings from the reader.
    pub fn warnings(&self) -> u64 {
        self.scan.as_ref().map_or(0, |s| s.warnings)
    }
}

/// The writer's settings and what it did.
pub struct Writer {
    /// Files per transaction at most.
    pub batch_files: usize,
    /// Files written.
    pub files: u64,
    /// Time spent waiting for records (the rest of the thread's time is writing).
    pub waiting: Duration,
    /// Called after each file is written (progress).
    pub on_file: Box<dyn FnMut(&FileRecord) + Send>,
}

impl Writer {
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
                        tx.commit()?;
                        break 'outer;
                    }
                };
                for rec in &recs {
                    write_file(&tx, rec)?;
                    (self.on_file)(rec);
                    self.files += 1;
                    n += 1;
                }
            }
            tx.commit()?;
        }
        Ok(())
    }
}

fn write_file(tx: &Transaction<'_>, rec: &FileRecord) -> rusqlite::Result<()> {
    if rec.replace {
        tx.prepare_cached("DELETE FROM files WHERE path = ?1")?.execute([&rec.path])?;
    }
    let format = rec.scan.as_ref().and_then(|s| s.format).map(|f| f.as_str());
    let charset = rec.scan.as_ref().and_then(|s| s.charset);
    let error = match (&rec.read_error, rec.binary) {
        (Some(e), _) => Some(e.clone()),
        (None, true) => Some("binary file, not a game record".to_owned()),
        _ => rec.scan.as_ref().and_then(|s| s.first_error.clone()),
    };
    tx.prepare_cached(
        "INSERT INTO files(path, size, mtime_ns, format, charset, games, warnings, errors, error)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        rec.path,
        rec.size as i64,
        rec.mtime_ns,
        format,
        charset,
        rec.games() as i64,
        rec.warnings() as i64,
        rec.errors() as i64,
        error
    ])?;
    let file_id = tx.last_insert_rowid();
    let Some(scan) = &rec.scan else { return Ok(()) };
    let mut st = tx.prepare_cached(
        "INSERT INTO games(file_id, game_index, offset, length, format, kind, board_size,
           black_name, black_rank, black_team, white_name, white_rank, white_team,
           date_raw, date, event, round, place, game_name,
           result_raw, winner, margin, reason, komi_raw, komi, handicap, rules, time_control,
           moves, moves_total, nodes, variations, comments, warnings, errors,
           opening, main_hash, captures_black, captures_white, final_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
           ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40)",
    )?;
    for (i, g) in scan.games.iter().enumerate() {
        insert_game(&mut st, file_id, i, format.unwrap_or(""), g)?;
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
    st.execute(params![
        file_id,
        i as i64,
        g.offset as i64,
        g.length.map(|l| l as i64),
        format,
        g.kind.map_or("go", |k| k.as_str()),
        g.board_size,
        g.black_name,
        g.black_rank,
        g.black_team,
        g.white_name,
        g.white_rank,
        g.white_team,
        g.date_raw,
        g.norm.date,
        g.event,
        g.round,
        g.place,
        g.game_name,
        g.result_raw,
        o.winner,
        o.margin,
        o.reason,
        g.komi_raw,
        g.norm.komi,
        g.norm.handicap,
        g.rules,
        g.norm.time_control,
        g.moves as i64,
        g.moves_total as i64,
        g.nodes as i64,
        g.variations as i64,
        g.comments as i64,
        g.warnings as i64,
        g.errors as i64,
        g.opening,
        g.main_hash as i64,
        g.captures_black,
        g.captures_white,
        g.final_hash.map(|h| h as i64),
    ])?;
    Ok(())
}
