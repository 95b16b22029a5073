//! Building and updating an index: [`build`] reads every game record under some paths into
//! the database, one row per game, reading only files that are new or changed since the last run.
//!
//! # How a run goes
//! 1. The paths are made absolute and walked; each file's size and modification time are compared
//!    with the `files` table ([`incremental`]): only new or changed files are
//!    read, and rows of files gone from disk under the paths are deleted.
//! 2. Worker threads (a rayon pool of [`Options::threads`]) take the files one by one, each into
//!    one `FileRecord` with a row per game and its final position (`extract`, `position`); no
//!    tree is built.
//! 3. One writer thread owns the database and commits batches of files, one transaction each
//!    (`writer`); WAL journaling means a run killed at any moment leaves the last committed
//!    batch, and the next run picks up what is missing.
//!
//! Bad input never stops a run: an unreadable file or a broken game is counted as an
//! error in its `files` row. A file no format recognises (a README) gets a row with a NULL
//! format and no error, so that it is not read again.
//!
//! With `KIFU_TIMING` set in the environment, the run prints the time at the end of each phase
//! (walk, open the database, plan, read+write, index build) to standard error. With positions
//! to write, the index build starts once the positions file's merge has started and runs beside
//! it: `write` is then the time the index build started, `indexes` the time both ended.
//!
//! Compressed files (.gz, .bz2, .xz, recognised by their first bytes) and archives (.zip, .tar,
//! .tar.gz…) are opened through the streams layer (`kifu::stream::for_each_input_in`): a
//! compressed file is one row whose offsets count decompressed bytes; an archive is a row for
//! itself and a row per member, `archive.zip!member.sgf`, under it. [`read_game`](crate::read_game)
//! takes those names (with an offset) and decompresses again to get there. A broken archive or
//! member is an error in its row; the run goes on.

use crate::incremental;
use crate::schema;
use crate::writer::{FileRecord, Member, Writer};
use crate::{extract, Error};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};

/// How to build an index.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The index database (created if missing).
    pub db: PathBuf,
    /// Worker threads reading files (`None` or 0: one per core, see
    /// [`kifu::stream::parallel::thread_count`]); a further thread writes the database.
    pub threads: Option<usize>,
    /// Read in strict mode (warnings become errors).
    pub strict: bool,
    /// Files per transaction at most (a batch is also closed after half a second); at least 1.
    pub batch: u64,
    /// Whether [`Progress::start`] needs the total size before reading starts (a progress bar):
    /// on a fresh index it costs a `stat` per file up front rather than as files are read.
    pub sizes_up_front: bool,
    /// Keep every position of every main line in the positions file beside the database
    /// (`DB.positions`, see [`find_position`](crate::find_position)); default `true`. A run
    /// without leaves the file as it was: the games it reads get their positions at the next
    /// run with.
    pub positions: bool,
    /// The memory for positions while reading, in bytes (default 64 MB): once the postings
    /// collected fill it, they are sorted into a run on disk beside the database, and the runs
    /// are merged into the positions file at the end (see `runs`). A batch of files may go past
    /// it before it is written out.
    pub positions_memory: usize,
    /// Positions that at least this many games share get their continuation table written
    /// beside the positions file (`DB.positions.top`), so that [`explore`](crate::explore)
    /// answers them without reading the games (default 1,000).
    pub positions_summary_games: u64,
    /// With [`Options::positions`]: keep the positions of every node of every variation too,
    /// not only of the main lines (default `false`). The index remembers it: once a run has
    /// recorded variations, every later run does, with this set or not (see
    /// [`Summary::variations`]), so that the positions file never mixes games read with and
    /// without. The first run with it on an index without reads every file again. To stop, delete
    /// the positions file (`DB.positions`): the next run without it reads every file again, main
    /// lines only.
    pub variations: bool,
}

impl Options {
    /// Options for the database at `db`: all cores, lenient reading, batches of 1024 files.
    pub fn new(db: impl Into<PathBuf>) -> Options {
        Options {
            db: db.into(),
            threads: None,
            strict: false,
            batch: 1024,
            sizes_up_front: false,
            positions: true,
            positions_memory: 64 << 20,
            positions_summary_games: 1000,
            variations: false,
        }
    }
}

/// What a run tells its caller as it goes (a progress bar, messages). Every method has a default
/// that does nothing; the methods are called from the writer thread, hence `Send`.
pub trait Progress: Send {
    /// A path given to [`build`] (or found under one) could not be read; the run goes on and
    /// counts it as an error.
    fn path_error(&mut self, path: &Path, error: &std::io::Error) {
        let _ = (path, error);
    }
    /// Reading starts: `files` files to read, of `bytes` bytes in all (0 when the sizes are not
    /// known up front, see [`Options::sizes_up_front`]).
    fn start(&mut self, files: usize, bytes: u64) {
        let _ = (files, bytes);
    }
    /// One file (with its members) was written: its size in bytes and its number of games.
    fn file_done(&mut self, size: u64, games: u64) {
        let _ = (size, games);
    }
}

/// A [`Progress`] that reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// What one run did.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Summary {
    /// Files found under the paths (archives count once).
    pub files_seen: u64,
    /// Files read (new or changed).
    pub files_read: u64,
    /// Files skipped as unchanged since the last run.
    pub files_unchanged: u64,
    /// Rows of files gone from disk, deleted.
    pub files_deleted: u64,
    /// Files read that are not game records.
    pub files_skipped: u64,
    /// Games read in this run.
    pub games_read: u64,
    /// Files in the database after the run.
    pub files: u64,
    /// Games in the database after the run.
    pub games: u64,
    /// Warnings in the games read.
    pub warnings: u64,
    /// Errors: in the games read, and paths that could not be read.
    pub errors: u64,
    /// Bytes of the files read.
    pub bytes_read: u64,
    /// Wall time of the run, in seconds.
    pub seconds: f64,
    /// Sorted runs of postings written to disk and merged into the positions file (see
    /// [`Options::positions_memory`]).
    pub positions_runs: u64,
    /// Whether the index records the positions of variations (see [`Options::variations`]):
    /// asked for in this run or remembered from an earlier one.
    pub variations: bool,
    /// Whether this run read every file again to record the positions of variations (the first
    /// run with [`Options::variations`] on an index without), or to stop recording them.
    pub variations_changed: bool,
}

/// Reads the file at `c.path` into the start of `buf` and returns its length (and, see below,
/// its size and time). `buf` is reused from file to file by each worker and never shrunk: its
/// bytes stay initialised, so a file is read into it with no allocation and no zeroing once it
/// has grown (zeroing it before every file cost 1% of the run's instructions), in one `read` for
/// a file of the planned size (which `read_to_end` would follow with a second, to see the end),
/// and no `lseek` (which `read_to_end` on a `File` spends to guess the size). A file that changed
/// after the plan's `stat` is read again by the next run, whose `stat` differs. A size of 0 (a
/// pipe, a special file) reads to the end. When the plan did not ask for the size and time (a
/// fresh index), they come from the open file (one `fstat`, no second path lookup) and are
/// returned.
fn load_into(c: &incremental::Candidate, buf: &mut Vec<u8>) -> std::io::Result<(usize, Option<(u64, i64)>)> {
    use std::io::Read;
    let mut file = std::fs::File::open(&c.path)?;
    let (size, measured) = match c.stat {
        Some((size, _)) => (size, None),
        None => {
            let m = file.metadata()?;
            (m.len(), Some((m.len(), incremental::mtime_ns(&m))))
        }
    };
    if buf.len() <= size as usize {
        buf.resize(size as usize + 1, 0);
    }
    let mut n = 0;
    loop {
        if n == buf.len() {
            buf.resize(n * 2, 0);
        }
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if n as u64 == size {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((n, measured))
}

/// How the readers read: the readers' configuration, and whether they keep positions.
#[derive(Clone, Copy)]
struct Config {
    kifu: kifu::Config,
    positions: bool,
    /// With `positions`: the variations' too.
    variations: bool,
}

/// Reads the bytes of one file or member into (scan, binary).
fn scan_bytes(bytes: &[u8], config: Config) -> (Option<extract::FileScan>, bool) {
    let scan = extract::scan_with(bytes, config.kifu, config.positions, config.variations);
    let binary = scan.is_none() && memchr::memchr(0, &bytes[..bytes.len().min(kifu::detect::SNIFF_LEN)]).is_some();
    (scan, binary)
}

/// Opens a compressed file or an archive (already in memory) through the streams layer: a
/// compressed file's one stream fills `rec` itself, an archive's members become `rec.members`
/// (named `archive!member`; a name met twice gets `#2`, `#3`… so that rows stay unique).
fn read_packed(rec: &mut FileRecord, bytes: &[u8], config: Config) {
    use std::io::Read;
    let mut members: Vec<Member> = Vec::new();
    let mut names = std::collections::HashSet::new();
    kifu::stream::for_each_input_in(&rec.path, bytes, |name, input| {
        let mut m = Member { name: name.to_owned(), size: 0, read_error: None, scan: None, binary: false };
        let mut k = 1;
        while !names.insert(m.name.clone()) {
            k += 1;
            m.name = format!("{name}#{k}");
        }
        match input {
            Err(e) => m.read_error = Some(e.message().to_owned()),
            Ok(mut input) => {
                let mut data = Vec::new();
                match input.reader.read_to_end(&mut data) {
                    Err(e) => m.read_error = Some(e.to_string()),
                    Ok(_) => {
                        m.size = data.len() as u64;
                        (m.scan, m.binary) = scan_bytes(&data, config);
                    }
                }
            }
        }
        members.push(m);
    });
    match members.as_slice() {
        [m] if m.name == rec.path => {
            let m = members.pop().expect("one member");
            (rec.read_error, rec.scan, rec.binary) = (m.read_error, m.scan, m.binary);
        }
        _ => {
            // The archive's own error (a broken archive) comes under its own name.
            if let Some(i) = members.iter().position(|m| m.name == rec.path) {
                rec.read_error = members.remove(i).read_error;
            }
            rec.members = members;
        }
    }
}

/// The absolute paths of the database and of SQLite's files beside it.
fn own_files(db: &Path) -> Vec<PathBuf> {
    let name = db.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = db.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Ok(dir) = std::fs::canonicalize(dir) else { return Vec::new() };
    [
        "",
        "-wal",
        "-shm",
        "-journal",
        ".positions",
        ".positions.tmp",
        ".positions.tmp.dir",
        ".positions.log",
        ".positions.top",
        ".positions.top.tmp",
    ]
    .iter()
    .map(|suffix| dir.join(format!("{name}{suffix}")))
    .collect()
}

/// Whether `path` is one of `own` ([`own_files`]): compared as paths (component by component)
/// only when its bytes end with the name of one of them, since comparing every file found with
/// the ten of `own` as paths cost 100 M instructions on the corpus, before reading starts.
fn is_own(own: &[PathBuf], names: &[std::ffi::OsString], path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    names.iter().any(|n| bytes.ends_with(n.as_encoded_bytes())) && own.iter().any(|o| o.as_path() == path)
}

/// Reads one file into a record; never fails (problems are recorded).
fn read_one(c: &incremental::Candidate, config: Config) -> FileRecord {
    let mut rec = FileRecord {
        path: c.key.clone(),
        size: c.stat.map_or(0, |s| s.0),
        mtime_ns: c.stat.map_or(-1, |s| s.1),
        read_error: None,
        scan: None,
        binary: false,
        replace: c.known,
        members: Vec::new(),
    };
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with_borrow_mut(|buf| {
        read_loaded(&mut rec, c, buf, config);
        if buf.capacity() > 64 << 20 {
            *buf = Vec::new(); // a huge file's buffer is not kept for the next small ones
        }
    });
    rec
}

/// Loads the candidate's file into `buf` and reads it into `rec`.
fn read_loaded(rec: &mut FileRecord, c: &incremental::Candidate, buf: &mut Vec<u8>, config: Config) {
    let loaded = load_into(c, buf);
    if c.stat.is_none() {
        // The file's own size and time, or (it cannot be opened) the link's, like the plan's.
        let m = match &loaded {
            Ok((_, Some(m))) => Some(*m),
            _ => std::fs::symlink_metadata(&c.path).ok().map(|m| (m.len(), incremental::mtime_ns(&m))),
        };
        (rec.size, rec.mtime_ns) = m.unwrap_or((0, -1));
    }
    let bytes = match loaded {
        Err(e) => {
            rec.read_error = Some(e.to_string());
            return;
        }
        Ok((n, _)) => &buf[..n],
    };
    if kifu::stream::is_packed(&bytes[..bytes.len().min(kifu::detect::SNIFF_LEN)], &rec.path) {
        read_packed(rec, bytes, config);
    } else {
        match kifu::text::transcode_utf16(bytes) {
            Some(utf8) => (rec.scan, rec.binary) = scan_bytes(&utf8, config),
            None => (rec.scan, rec.binary) = scan_bytes(bytes, config),
        }
    }
}

/// A reader sends its files to the writer as soon as they hold this many games (or number
/// [`GROUP_FILES`], or the reader is done: see [`Outbox`]), so that the writer is not left
/// waiting while a reader goes through a run of big collections. Measured when the writer also
/// replayed games (medians of 7 alternating runs on the corpus, one reading thread): index at 60%
/// of `kifu stats` with whole groups of files, 72%, 74%, 73%, 69% with 8, 32, 128, 512 games.
const GROUP_GAMES: u64 = 32;

/// What the readers counted, summed over files.
#[derive(Clone, Copy, Default)]
struct Part {
    games: u64,
    warnings: u64,
    errors: u64,
    skipped: u64,
    bytes: u64,
}

impl Part {
    fn add(self, o: Part) -> Part {
        Part {
            games: self.games + o.games,
            warnings: self.warnings + o.warnings,
            errors: self.errors + o.errors,
            skipped: self.skipped + o.skipped,
            bytes: self.bytes + o.bytes,
        }
    }
}

/// Readers start no new file while this many games they read are not yet written: the
/// channel's bound counts groups of files, and a group can be one file of 10,000 games (the
/// generated collections of `examples/gen_games.rs`: 128 of those held the whole 1,000,000
/// games, 1.5 GB, while the writer caught up).
const IN_FLIGHT: u64 = 16_384;

/// At most this many files wait in a reader's outbox, however few games they hold (files that
/// are not game records hold none): the writer commits them and the progress bar moves.
const GROUP_FILES: usize = 32;

/// One reader's files on their way to the writer: sent as a group once they hold
/// [`GROUP_GAMES`] games or number [`GROUP_FILES`], and when the reader is done (the outbox is
/// dropped).
struct Outbox {
    tx: SyncSender<Vec<FileRecord>>,
    recs: Vec<FileRecord>,
    games: u64,
    /// A send failed: the writer has stopped (on a database error, which `run` reports), and
    /// reading more files is pointless.
    closed: bool,
}

impl Outbox {
    fn new(tx: SyncSender<Vec<FileRecord>>) -> Outbox {
        Outbox { tx, recs: Vec::new(), games: 0, closed: false }
    }

    fn push(&mut self, rec: FileRecord) {
        self.games += rec.games();
        self.recs.push(rec);
        if self.games >= GROUP_GAMES || self.recs.len() >= GROUP_FILES {
            self.send();
        }
    }

    fn send(&mut self) {
        if !self.recs.is_empty() && self.tx.send(std::mem::take(&mut self.recs)).is_err() {
            self.closed = true;
        }
        self.games = 0;
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        self.send();
    }
}

/// Builds or updates the index at `options.db` from every file under `paths` (files,
/// directories walked recursively, compressed files and archives), reporting to `progress`.
/// Only a database error or a thread that cannot start fails the run; unreadable paths and bad
/// records are counted in the [`Summary`].
///
/// ```no_run
/// let options = kifu_index::Options::new("games.sqlite");
/// let summary = kifu_index::build(&["samples"], &options, &mut kifu_index::Silent)?;
/// println!("{} games", summary.games);
/// # Ok::<(), kifu_index::Error>(())
/// ```
pub fn build<P: AsRef<Path>>(paths: &[P], options: &Options, progress: &mut dyn Progress) -> Result<Summary, Error> {
    let start = std::time::Instant::now();
    let timing = std::env::var_os("KIFU_TIMING").is_some();
    let config = if options.strict { kifu::Config::strict() } else { kifu::Config::default() };
    let mut config = Config { kifu: config, positions: options.positions, variations: false };
    let mut summary = Summary::default();
    let mut roots = Vec::new();
    for p in paths {
        match std::fs::canonicalize(p) {
            Ok(r) => roots.push(r),
            Err(e) => {
                progress.path_error(p.as_ref(), &e);
                summary.errors += 1;
            }
        }
    }
    // The database and its WAL files are never indexed (they may lie under a path: `kifu index .`).
    let db_files = own_files(&options.db);
    let own_names: Vec<_> = db_files.iter().filter_map(|f| f.file_name().map(|n| n.to_owned())).collect();
    // Runs a killed run left (its postings are in the log).
    crate::runs::remove_stale(&options.db);
    let mut files = Vec::new();
    // A file reached twice (named and in a folder named too, or a folder named twice) is read
    // once: its row is unique.
    let mut seen = std::collections::HashSet::new();
    for item in crate::walk::walk(&roots) {
        match item {
            Ok(p)
                if is_own(&db_files, &own_names, &p)
                    || db_files.first().is_some_and(|db| crate::runs::is_run(db, &p)) => {}
            Ok(p) if !seen.insert(p.clone()) => {}
            Ok(p) => files.push(p),
            Err((p, e)) => {
                progress.path_error(&p, &e);
                summary.errors += 1;
            }
        }
    }
    summary.files_seen = files.len() as u64;
    let t_walk = start.elapsed();
    let mut conn = schema::open(&options.db).map_err(|e| Error::database(&options.db, e))?;
    let t_open = start.elapsed();
    // The positions file as it stands: its postings count for games up to its mark; games
    // above it (a killed run) have their files read again.
    let nonce = schema::nonce(&conn).map_err(|e| Error::database(&options.db, e))?;
    let pos_path = crate::posfile::path_for(&options.db);
    let mut old_pos = crate::posfile::PosFile::open(&pos_path).filter(|f| f.header.nonce == nonce);
    // Variations: the index's setting (remembered while its positions file stands), or this
    // run's flag. A change reads every file again, with the positions file and its log dropped.
    if options.positions {
        let had = schema::variations(&conn).map_err(|e| Error::database(&options.db, e))?;
        let now = options.variations || (had && old_pos.is_some());
        if now != had {
            let marked = schema::set_variations(&conn, now).map_err(|e| Error::database(&options.db, e))?;
            old_pos = None;
            let _ = std::fs::remove_file(crate::posfile::log_path(&options.db));
            summary.variations_changed = marked > 0;
        }
        config.variations = now;
        summary.variations = now;
    }
    let old_hwm = old_pos.as_ref().map_or(0, |f| f.header.hwm);
    let log_path = crate::posfile::log_path(&options.db);
    let mut logged = Vec::new();
    let mut log = None;
    let mut covered = old_hwm;
    if options.positions {
        // The log's games that the database has (committed before the last run ended); a new
        // log starts with them.
        let mut games = Vec::new();
        let mut st =
            conn.prepare("SELECT main_hash FROM games WHERE id = ?1").map_err(|e| Error::database(&options.db, e))?;
        for (game, main, postings) in crate::posfile::read_log(&log_path, nonce, old_hwm) {
            let have: Option<i64> = st.query_row([game as i64], |r| r.get(0)).ok();
            if have == Some(main as i64) {
                covered = covered.max(game);
                games.push((game, main));
                logged.extend(postings);
            }
        }
        drop(st);
        let mut l = crate::posfile::Log::create(&log_path, nonce);
        l.append(&logged, &games);
        log = Some(l);
    }
    let mut positions_stale = old_pos.is_none() || !logged.is_empty();
    if options.positions {
        // Games are written (and logged) in the order of their ids: the log covers the ids up
        // to its last game; the files of games above it are read again.
        let marked = schema::mark_unpositioned(&conn, covered).map_err(|e| Error::database(&options.db, e))?;
        positions_stale |= marked > 0;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(kifu::stream::parallel::thread_count(options.threads.unwrap_or(0)))
        .thread_name(|i| format!("kifu-reader-{i}"))
        .build()
        .map_err(|e| Error::other(e.to_string()))?;
    // Each file's size and time are asked for on the reader threads (a `stat` per file); a fresh
    // index without a progress bar (which needs the total up front) gets them as files are read.
    let db_error = |e: rusqlite::Error| Error::database(&options.db, e);
    let plan = incremental::plan(&conn, &roots, files, &pool, options.sizes_up_front).map_err(db_error)?;
    summary.files_unchanged = plan.unchanged;
    summary.files_deleted = plan.deleted.len() as u64;
    Writer::delete(&mut conn, &plan.deleted).map_err(db_error)?;
    // Into an empty database, the secondary indexes are built once at the end.
    let bulk = conn.query_row("SELECT NOT EXISTS (SELECT 1 FROM files)", [], |r| r.get::<_, bool>(0));
    if bulk.map_err(db_error)? {
        schema::drop_indexes(&conn).map_err(db_error)?;
    }

    let t_plan = start.elapsed();
    let total_bytes: u64 = plan.read.iter().filter_map(|c| c.stat).map(|s| s.0).sum();
    if !plan.read.is_empty() {
        progress.start(plan.read.len(), total_bytes);
    }
    // Room for 128 groups of files: the readers go on while the writer waits on the disk (a WAL
    // checkpoint's fsync); rows are small, so this bounds memory to a few MB.
    let (tx, rx) = sync_channel::<Vec<FileRecord>>(128);
    let in_flight = std::sync::atomic::AtomicU64::new(0);
    let writer_done = std::sync::atomic::AtomicBool::new(false);
    let (in_flight, writer_done) = (&in_flight, &writer_done);
    let checkpoints = schema::Checkpointer::start(&options.db);
    let (parts, t_readers, conn) = std::thread::scope(|scope| -> Result<_, Error> {
        let mut w = Writer {
            batch_files: options.batch.max(1) as usize,
            files: 0,
            waiting: std::time::Duration::ZERO,
            on_file: Box::new(|rec: &FileRecord| {
                in_flight.fetch_sub(rec.games(), Ordering::Relaxed);
                progress.file_done(rec.size, rec.games())
            }),
            postings: logged,
            log,
            batch_games: Vec::new(),
            runs: options.positions.then(|| crate::runs::Runs::new(&options.db, options.positions_memory)),
        };
        if let Some(runs) = &w.runs {
            runs.reserve(&mut w.postings);
        }
        let writer = std::thread::Builder::new()
            .name("kifu-writer".to_owned())
            .spawn_scoped(scope, move || -> Result<_, rusqlite::Error> {
                let t = std::time::Instant::now();
                let ran = w.run(&mut conn, rx);
                writer_done.store(true, Ordering::Relaxed);
                ran?;
                // The last spill may still be under way: settled once the reading has ended.
                if timing {
                    eprintln!("writer: {:?} of which waiting {:?}", t.elapsed(), w.waiting);
                }
                Ok((conn, w.postings, w.runs))
            })
            .map_err(|e| Error::other(e.to_string()))?;
        // Each reader takes the next file of the list until none is left (not rayon's splitting
        // of the list, which leaves a thread a sequential run of a quarter of it: the other
        // reader then sat idle, 360 ms of a 0.6 s run in one `perf sched` trace), and sends its
        // files to the writer through its outbox.
        let next = AtomicUsize::new(0);
        let parts = pool.broadcast(|_| {
            let mut outbox = Outbox::new(tx.clone());
            let mut part = Part::default();
            while let Some(c) = plan.read.get(next.fetch_add(1, Ordering::Relaxed)) {
                // Games read and not yet written are bounded (see `IN_FLIGHT`).
                while in_flight.load(Ordering::Relaxed) >= IN_FLIGHT && !writer_done.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                let rec = read_one(c, config);
                in_flight.fetch_add(rec.games(), Ordering::Relaxed);
                part = part.add(Part {
                    games: rec.games(),
                    warnings: rec.warnings(),
                    errors: rec.errors(),
                    skipped: rec.skipped() as u64,
                    bytes: if rec.read_error.is_none() { rec.size } else { 0 },
                });
                outbox.push(rec);
                if outbox.closed {
                    next.store(plan.read.len(), Ordering::Relaxed); // the other readers stop too
                }
            }
            part
        });
        drop(tx); // the writer's channel closes when the readers' outboxes are gone too
        let parts = parts.into_iter().fold(Part::default(), Part::add);
        let t_readers = start.elapsed();
        let conn = writer.join().map_err(|_| Error::other("the writer thread panicked".to_owned()))?;
        Ok((parts, t_readers, conn.map_err(db_error)?))
    })?;
    let (conn, postings, runs) = conn;
    // The rows' pages are copied into the database while the indexes are built (a checkpoint
    // runs beside a writer), so that closing has only the indexes' pages left to copy. With
    // positions to write, the indexes are built meanwhile (on this thread, beside the merge's
    // and the encoding's): at two threads the end of a run has three jobs for two cores.
    let mut t_write = None;
    let mut indexes = || -> Result<(), Error> {
        checkpoints.now();
        t_write = Some(start.elapsed());
        schema::create_indexes(&conn).map_err(db_error)?;
        // The indexes' pages copied into the database and the WAL emptied now (beside the
        // positions file's encoding, which ends later), rather than when the database is closed,
        // the last step (11 ms of a 700 ms run on the corpus). Without waiting: with another
        // connection reading (or the checkpointer busy) it is left to the close, as before.
        let _ = conn.busy_timeout(std::time::Duration::ZERO);
        let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        conn.busy_timeout(schema::BUSY_TIMEOUT).map_err(db_error)?;
        Ok(())
    };
    let mut indexed = false;
    if let (true, Some(mut runs)) = (options.positions, runs) {
        let mut postings = postings;
        if positions_stale || !plan.read.is_empty() || !plan.deleted.is_empty() {
            // The games' facts (for the tables, and which games are live) are loaded and the
            // postings still in memory sorted while the last spill ends on its own thread, not
            // after it (at two threads the spill's end, the load and the sort took 22, 11 and
            // 15 ms of a 700 ms corpus run one after the other, one core waiting).
            let (facts, sorted) = std::thread::scope(|s| {
                let sort = s.spawn(|| crate::runs::sort_in_parts(&mut postings, true));
                let facts = crate::aggregate::Facts::load(&conn);
                (facts, sort.join().is_ok())
            });
            let facts = facts.map_err(db_error)?;
            let held = postings.len();
            runs.settle(&mut postings);
            if !sorted || postings.len() != held {
                // A spill that failed gave its postings back (or the sort panicked).
                crate::runs::sort_in_parts(&mut postings, true);
            }
            let top = crate::aggregate::path_for(&options.db);
            let (min, hwm) = (options.positions_summary_games, old_hwm);
            let beside = || {
                indexed = true;
                indexes()
            };
            let written =
                crate::positions::rewrite(&pos_path, &top, old_pos, hwm, &runs, postings, facts, nonce, min, beside)?;
            let _ = std::fs::remove_file(&log_path);
            if timing {
                eprintln!("positions: {written:?}, {} runs, {:?}", runs.runs(), start.elapsed());
            }
            summary.positions_runs = runs.runs() as u64;
        } else {
            runs.settle(&mut postings);
        }
    }
    if !indexed {
        indexes()?;
    }
    let t_write = t_write.unwrap_or_default();
    checkpoints.stop();
    if timing {
        eprintln!(
            "walk {t_walk:?} open {t_open:?} plan {t_plan:?} readers {t_readers:?} write {t_write:?} indexes {:?}",
            start.elapsed()
        );
    }
    summary.files_read = plan.read.len() as u64;
    summary.games_read += parts.games;
    summary.warnings += parts.warnings;
    summary.errors += parts.errors;
    summary.files_skipped += parts.skipped;
    summary.bytes_read += parts.bytes;
    let (files_in_db, games_in_db): (i64, i64) = conn
        .query_row("SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM games)", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(db_error)?;
    (summary.files, summary.games) = (files_in_db as u64, games_in_db as u64);
    drop(conn);
    if timing {
        eprintln!("closed (the last checkpoint) {:?}", start.elapsed());
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}
