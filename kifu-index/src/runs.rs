//! Sorted runs of postings on disk, so that a run of `kifu index` holds at most a fixed budget
//! of postings in memory however many games it reads ([`Options::positions_memory`]).
//!
//! The writer thread collects each batch's postings (`writer`); once a batch is logged (see
//! `posfile::Log`) and the postings held reach the budget, they are sorted where they lie and
//! written as one run (`DB.positions.run.N`, beside the database) and the memory is reused. At
//! the end of the run the runs, the postings still in memory and the old positions file's
//! postings are merged (a k-way merge, each source read through a small buffer) straight into
//! the new positions file (`posfile::write_iter`).
//!
//! # Crash safety
//! A run is scratch: every posting in it is also in the log, which is what a killed run is
//! recovered from. Runs left by a killed run are removed when the next run starts
//! ([`remove_stale`]) and never indexed (`kifu index .`: [`is_run`]); a run's files are removed
//! when its [`Runs`] is dropped.
//!
//! # Format of a run
//! The postings in order, each as four LEB128 varints: the gap from the previous hash, the game,
//! the move number and the next move (about 11 bytes a posting rather than 24).
//!
//! [`Options::positions_memory`]: crate::Options::positions_memory

use crate::posfile::Entry;
use std::collections::BinaryHeap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The prefix of the run files of the database at `db` (`DB.positions.run.`).
fn prefix(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".positions.run.");
    PathBuf::from(s)
}

/// Whether `path` is a run file of the database whose files are `db_files` (its absolute
/// path first, see `build::own_files`).
pub fn is_run(db: &Path, path: &Path) -> bool {
    let p = prefix(db);
    path.as_os_str().as_encoded_bytes().starts_with(p.as_os_str().as_encoded_bytes())
}

/// Removes the run files a killed run left beside the database at `db`.
pub fn remove_stale(db: &Path) {
    let p = prefix(db);
    let (Some(dir), Some(name)) = (p.parent(), p.file_name()) else { return };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(list) = std::fs::read_dir(dir) else { return };
    for e in list.flatten() {
        if e.file_name().as_encoded_bytes().starts_with(name.as_encoded_bytes()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The bytes an [`Entry`] takes in memory.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The runs of one indexing pass.
pub struct Runs {
    prefix: PathBuf,
    /// Postings held in memory before they are spilled.
    budget: usize,
    files: Vec<PathBuf>,
    /// Postings in the runs.
    count: u64,
    /// The largest game, move and next move in the runs.
    max: (u64, u32, u32),
    /// A spill failed: the postings stay in memory from then on (correct, no longer bounded).
    failed: bool,
}

fn put_varint(out: &mut impl Write, mut v: u64) -> std::io::Result<()> {
    let mut b = [0u8; 10];
    let mut n = 0;
    while v >= 0x80 {
        b[n] = v as u8 | 0x80;
        v >>= 7;
        n += 1;
    }
    b[n] = v as u8;
    out.write_all(&b[..=n])
}

fn get_varint(r: &mut impl BufRead) -> std::io::Result<Option<u64>> {
    let buf = r.fill_buf()?;
    if buf.len() >= 10 {
        // The fast path: the whole varint is in the buffer.
        let (mut v, mut shift) = (0u64, 0);
        for (i, &b) in buf.iter().enumerate().take(10) {
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                r.consume(i + 1);
                return Ok(Some(v));
            }
            shift += 7;
        }
        return Err(std::io::ErrorKind::InvalidData.into());
    }
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let mut b = [0u8];
        if r.read(&mut b)? == 0 {
            return if shift == 0 { Ok(None) } else { Err(std::io::ErrorKind::UnexpectedEof.into()) };
        }
        if shift > 63 {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
        v |= ((b[0] & 0x7f) as u64) << shift;
        if b[0] & 0x80 == 0 {
            return Ok(Some(v));
        }
        shift += 7;
    }
}

impl Runs {
    /// Runs beside the database at `db`, spilling once `memory` bytes of postings are held (at
    /// least 1,024 postings).
    pub fn new(db: &Path, memory: usize) -> Runs {
        Runs {
            prefix: prefix(db),
            budget: (memory / ENTRY_BYTES).max(1024),
            files: Vec::new(),
            count: 0,
            max: (0, 0, 0),
            failed: false,
        }
    }

    /// Postings written to runs so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The largest game, move and next move written to runs.
    pub fn max(&self) -> (u64, u32, u32) {
        self.max
    }

    /// Runs written so far.
    pub fn runs(&self) -> usize {
        self.files.len()
    }

    /// Memory for `budget` postings, reserved once, so that the list does not grow by
    /// doubling (which would hold twice the budget).
    pub fn reserve(&self, buf: &mut Vec<Entry>) {
        buf.reserve_exact(self.budget.saturating_sub(buf.len()));
    }

    /// Writes `buf` as a new run once it holds half the budget, and empties it (its memory
    /// kept). The other half is room for the batch being written, which is spilled only once it
    /// is logged (see `posfile::Log`): a batch of more postings than that (a collection of
    /// several thousand games in one file) makes the list grow past the budget.
    pub fn spill_if_full(&mut self, buf: &mut Vec<Entry>) {
        if buf.len() >= self.budget / 2 && !self.failed {
            if self.spill(buf).is_err() {
                self.failed = true;
            } else {
                buf.clear();
            }
        }
    }

    fn spill(&mut self, buf: &mut [Entry]) -> std::io::Result<()> {
        // In parallel: the readers wait on the writer thread while it sorts (they are blocked
        // once the channel is full), so the cores are free.
        use rayon::slice::ParallelSliceMut;
        buf.par_sort_unstable();
        let mut s = self.prefix.as_os_str().to_owned();
        s.push(self.files.len().to_string());
        let path = PathBuf::from(s);
        self.files.push(path.clone());
        let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&path)?);
        let mut prev = 0u64;
        for e in buf.iter() {
            put_varint(&mut w, e.hash - prev)?;
            put_varint(&mut w, e.game)?;
            put_varint(&mut w, e.mv as u64)?;
            put_varint(&mut w, e.next as u64)?;
            prev = e.hash;
            self.max = (self.max.0.max(e.game), self.max.1.max(e.mv), self.max.2.max(e.next));
        }
        w.into_inner().map_err(|e| e.into_error())?;
        self.count += buf.len() as u64;
        Ok(())
    }

    /// Every posting of the runs and of `rest`, in order (a k-way merge); `rest` is sorted
    /// here.
    pub fn merge(&self, mut rest: Vec<Entry>) -> std::io::Result<Merge> {
        use rayon::slice::ParallelSliceMut;
        rest.par_sort_unstable();
        let mut sources = Vec::with_capacity(self.files.len() + 1);
        for f in &self.files {
            let r = BufReader::with_capacity(256 << 10, std::fs::File::open(f)?);
            sources.push(Source::Run(r, 0));
        }
        sources.push(Source::Memory(rest.into_iter()));
        Merge::new(sources)
    }
}

impl Drop for Runs {
    fn drop(&mut self) {
        for f in &self.files {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// One sorted source of a merge.
pub enum Source {
    /// A run on disk, with the last hash read.
    Run(BufReader<std::fs::File>, u64),
    /// Postings in memory, sorted.
    Memory(std::vec::IntoIter<Entry>),
    /// Any other sorted stream (the old positions file).
    Other(Box<dyn Iterator<Item = std::io::Result<Entry>>>),
}

impl Source {
    fn next(&mut self) -> std::io::Result<Option<Entry>> {
        match self {
            Source::Memory(it) => Ok(it.next()),
            Source::Other(it) => it.next().transpose(),
            Source::Run(r, prev) => {
                let Some(gap) = get_varint(r)? else { return Ok(None) };
                let mut field = || get_varint(r)?.ok_or(std::io::Error::from(std::io::ErrorKind::UnexpectedEof));
                let game = field()?;
                let mv = field()? as u32;
                let next = field()? as u32;
                *prev = prev.wrapping_add(gap);
                Ok(Some(Entry { hash: *prev, game, mv, next }))
            }
        }
    }
}

/// A k-way merge of sorted sources: an iterator of postings in order; a read error is its
/// last item.
pub struct Merge {
    sources: Vec<Source>,
    heap: BinaryHeap<std::cmp::Reverse<(Entry, usize)>>,
    error: Option<std::io::Error>,
}

impl Merge {
    /// A merge of `sources`, each sorted.
    pub fn new(sources: Vec<Source>) -> std::io::Result<Merge> {
        let mut m = Merge { sources, heap: BinaryHeap::new(), error: None };
        for i in 0..m.sources.len() {
            if let Some(e) = m.sources[i].next()? {
                m.heap.push(std::cmp::Reverse((e, i)));
            }
        }
        Ok(m)
    }

    /// Adds one more sorted source.
    pub fn add(&mut self, mut source: Source) -> std::io::Result<()> {
        if let Some(e) = source.next()? {
            self.heap.push(std::cmp::Reverse((e, self.sources.len())));
        }
        self.sources.push(source);
        Ok(())
    }
}

impl Iterator for Merge {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<std::io::Result<Entry>> {
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        let std::cmp::Reverse((e, i)) = self.heap.pop()?;
        match self.sources[i].next() {
            Ok(Some(n)) => self.heap.push(std::cmp::Reverse((n, i))),
            Ok(None) => {}
            Err(err) => {
                self.error = Some(err);
                self.heap.clear();
            }
        }
        Some(Ok(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_in_order() {
        let dir = std::env::temp_dir().join(format!("kifu-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("x.sqlite");
        let all: Vec<Entry> = (0..10_000u64)
            .map(|i| Entry {
                hash: if i % 5 == 0 { 7 } else { xxhash_rust::xxh3::xxh3_64(&i.to_le_bytes()) },
                game: i / 7 + 1,
                mv: (i % 200) as u32,
                next: (i * 13 % 4000) as u32,
            })
            .collect();
        let mut runs = Runs::new(&db, 1024 * ENTRY_BYTES);
        let mut buf = Vec::new();
        for chunk in all.chunks(700) {
            buf.extend_from_slice(chunk);
            runs.spill_if_full(&mut buf);
        }
        assert!(runs.runs() >= 5);
        assert!(buf.len() < 512 + 700);
        let mut want = all.clone();
        want.sort_unstable();
        let got: Vec<Entry> = runs.merge(buf).unwrap().map(Result::unwrap).collect();
        assert_eq!(got, want);
        assert!(is_run(&db, &dir.join("x.sqlite.positions.run.3")));
        assert!(!is_run(&db, &dir.join("x.sqlite.positions")));
        drop(runs);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::write(dir.join("x.sqlite.positions.run.0"), b"x").unwrap();
        remove_stale(&db);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
