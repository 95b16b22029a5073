//! Sorted runs of postings on disk, so that a run of `kifu index` holds at most a fixed budget
//! of postings in memory however many games it reads ([`Options::positions_memory`]).
//!
//! The writer thread collects each batch's postings (`writer`); once the postings held reach
//! the budget (at the end of a batch, or between two files of a batch when the next file's would
//! not fit beside them), they are logged (see `posfile::Log`), sorted where they lie and
//! written as one run (`DB.positions.run.N`, beside the database) and the memory is reused. At
//! the end of the run the runs, the postings still in memory (sorted then, on two threads:
//! [`sort_in_parts`], while the last spill ends: `build`) and the old positions file's
//! postings are merged (a k-way merge in a
//! loser tree, [`Merge`], each run read through a small buffer, on a thread of its own:
//! `positions::rewrite`) straight into the new positions file, handed over in blocks of a few
//! thousand postings (`posfile::write_blocks`, on another thread).
//!
//! # Crash safety
//! A run is scratch: every posting in it is also in the log, which is what a killed run is
//! recovered from. Runs left by a killed run are removed when the next run starts
//! ([`remove_stale`]) and never indexed (`kifu index .`: [`is_run`]); a run's files are removed
//! when its [`Runs`] is dropped.
//!
//! # Format of a run
//! The postings in order, each as fixed-width little-endian fields: the hash (8 bytes), then
//! the game, the move number and the next move in the bytes the run's largest value of each
//! needs (about 15 bytes a posting rather than 24). Fixed widths are copied, not looped over a
//! byte at a time: LEB128 varints (as the runs were first written) cost 0.55 G instructions
//! to write and 1.0 G to read on the corpus, a fifth of a one-thread run.
//!
//! # Off the writer thread
//! A spill (sorting and writing the postings) runs on a thread of its own while the writer
//! goes on filling a second list; the next spill first waits for it. So the budget holds two
//! lists of half of it each (see [`Runs::spill_if_full`]).
//!
//! [`Options::positions_memory`]: crate::Options::positions_memory

use crate::posfile::Entry;
use std::io::Write;
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

/// The bytes each field of a run's postings takes (game, move, next; the hash takes 8).
#[derive(Clone, Copy, Debug, Default)]
pub struct Widths([usize; 3]);

impl Widths {
    fn of(max: (u64, u32, u32)) -> Widths {
        let bytes = |v: u64| (64 - v.leading_zeros() as usize).div_ceil(8);
        Widths([bytes(max.0), bytes(max.1 as u64), bytes(max.2 as u64)])
    }

    fn record(self) -> usize {
        8 + self.0[0] + self.0[1] + self.0[2]
    }

    /// Writes the record of `e` at the start of `out` (32 bytes, of which the record's are
    /// kept: the next record goes over the rest). Every copy is of a fixed size (a store, not a
    /// call to `memcpy`): each field is written whole over the unused bytes of the one before,
    /// at places the compiler knows are in the 32 bytes (each width at most 8).
    #[inline(always)]
    fn put(self, out: &mut [u8; 32], e: &Entry) {
        let [g, m, _] = self.0;
        let (g, m) = (g.min(8), m.min(8));
        out[..8].copy_from_slice(&e.hash.to_le_bytes());
        out[8..16].copy_from_slice(&e.game.to_le_bytes());
        out[8 + g..16 + g].copy_from_slice(&(e.mv as u64).to_le_bytes());
        out[8 + g + m..16 + g + m].copy_from_slice(&(e.next as u64).to_le_bytes());
    }

    /// The posting at the start of `b` (one record or more).
    fn get(self, b: &[u8]) -> Entry {
        let [g, m, n] = self.0;
        let field = |at: usize, n: usize| {
            let mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
            match b.get(at..at + 8) {
                Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")) & mask,
                None => {
                    let mut v = [0u8; 8];
                    v[..n].copy_from_slice(&b[at..at + n]);
                    u64::from_le_bytes(v)
                }
            }
        };
        Entry { hash: field(0, 8), game: field(8, g), mv: field(8 + g, m) as u32, next: field(8 + g + m, n) as u32 }
    }
}

/// Sorts postings by hash, game, move and next move: by the hash alone (a comparison of one
/// `u64` rather than of four fields: about half the instructions), then each run of one hash by
/// the rest (most runs are one posting). `parallel`: on rayon's threads.
pub fn sort_postings(buf: &mut [Entry], parallel: bool) {
    if parallel {
        use rayon::slice::ParallelSliceMut;
        buf.par_sort_unstable_by_key(|e| e.hash);
    } else {
        buf.sort_unstable_by_key(|e| e.hash);
    }
    for run in buf.chunk_by_mut(|a, b| a.hash == b.hash) {
        if run.len() > 1 {
            run.sort_unstable();
        }
    }
}

/// Sorts postings as [`sort_postings`] does, in place and in parts: first by the hash's top
/// byte (a counting pass, then each posting swapped into its part: 256 places to write to,
/// which the caches hold), then each part (a few thousand postings on the corpus, which the
/// caches hold too) sorted where it lies; `parallel`: the parts in two halves of about as many
/// postings, one on each of two threads. Measured on the corpus's collections: the million
/// postings left in memory at the end took 690 M instructions in rayon's parallel sort of the
/// whole list, 240 M so; a spill of 1.4 million, 570 M in one sort of the whole list.
pub fn sort_in_parts(buf: &mut [Entry], parallel: bool) {
    let n = buf.len();
    if n < 1 << 12 {
        sort_postings(buf, false);
        return;
    }
    let top = |e: &Entry| (e.hash >> 56) as usize;
    let mut starts = [0usize; 257];
    for e in buf.iter() {
        starts[top(e) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    // Each part's next place to fill; a posting taken from a place not yet filled goes to its
    // own part's next place, and the one there on, until one belongs where the first was taken.
    let mut next = starts;
    for b in 0..256 {
        while next[b] < starts[b + 1] {
            let mut e = buf[next[b]];
            let mut t = top(&e);
            while t != b {
                let dst = next[t];
                next[t] += 1;
                std::mem::swap(&mut buf[dst], &mut e);
                t = top(&e);
            }
            buf[next[b]] = e;
            next[b] += 1;
        }
    }
    let parts = |list: &mut [Entry], bounds: &[usize]| {
        let base = bounds[0];
        let mut scratch = Vec::new();
        for w in bounds.windows(2) {
            sort_part(&mut list[w[0] - base..w[1] - base], &mut scratch);
        }
    };
    if parallel {
        let mid = starts.iter().position(|&s| s >= n / 2).unwrap_or(256);
        let (low, high) = buf.split_at_mut(starts[mid]);
        rayon::join(|| parts(low, &starts[..=mid]), || parts(high, &starts[mid..]));
    } else {
        parts(buf, &starts);
    }
}

/// A part of more postings than this is sorted by comparisons ([`sort_postings`]), so that the
/// radix sort's scratch list stays small (1.5 MB).
const PART_MAX: usize = 1 << 16;

/// Sorts one part of [`sort_in_parts`] (its postings share the hash's top byte) as
/// [`sort_postings`] does: two stable passes of a radix sort on the hash's next two bytes
/// (through `scratch`), then each run of postings whose hashes share their top three bytes (on
/// the corpus nearly all runs are one posting: a part holds a few thousand) sorted by
/// comparisons. The postings of one hash come out of the part's counting pass in no particular
/// order (the swaps of [`sort_in_parts`] move them about), so a hash of many postings (an
/// opening) is a run sorted by comparisons, as before. Measured on the corpus (callgrind, one
/// thread): the spill thread took 1.54 G instructions with comparison sorts of the whole parts,
/// 0.63 G so.
fn sort_part(part: &mut [Entry], scratch: &mut Vec<Entry>) {
    let n = part.len();
    if n <= 32 || n > PART_MAX {
        sort_postings(part, false);
        return;
    }
    let mut counts = [[0usize; 256]; 2];
    for e in part.iter() {
        counts[0][(e.hash >> 40) as u8 as usize] += 1;
        counts[1][(e.hash >> 48) as u8 as usize] += 1;
    }
    for c in counts.iter_mut() {
        let mut at = 0;
        for k in c.iter_mut() {
            let here = *k;
            *k = at;
            at += here;
        }
    }
    if scratch.len() < n {
        scratch.resize(n, part[0]);
    }
    let scratch = &mut scratch[..n];
    let [c0, c1] = &mut counts;
    for e in part.iter() {
        let d = (e.hash >> 40) as u8 as usize;
        scratch[c0[d]] = *e;
        c0[d] += 1;
    }
    for e in scratch.iter() {
        let d = (e.hash >> 48) as u8 as usize;
        part[c1[d]] = *e;
        c1[d] += 1;
    }
    for run in part.chunk_by_mut(|a, b| a.hash >> 40 == b.hash >> 40) {
        match run {
            [_] => {}
            [a, b] => {
                if *b < *a {
                    std::mem::swap(a, b);
                }
            }
            _ => sort_postings(run, false),
        }
    }
}

/// Sorts `buf` and writes it to `path` as a run; returns its largest game, move and next move.
fn write_run(path: &Path, buf: &mut [Entry]) -> std::io::Result<(u64, u32, u32)> {
    sort_in_parts(buf, false);
    let max = buf.iter().fold((0, 0, 0), |m, e| (m.0.max(e.game), m.1.max(e.mv), m.2.max(e.next)));
    let widths = Widths::of(max);
    let mut file = std::fs::File::create(path)?;
    // The records go into a list of fixed length at `pos`, each put over 32 bytes of room
    // (appended to a growing list, then cut to its length, they cost 37 instructions a posting
    // on the corpus, twice as many).
    let (n, mut pos) = (widths.record(), 0);
    let mut out = vec![0u8; (1 << 20) + 32];
    for e in buf.iter() {
        let slot: &mut [u8; 32] = (&mut out[pos..pos + 32]).try_into().expect("32 bytes");
        widths.put(slot, e);
        pos += n;
        if pos >= 1 << 20 {
            file.write_all(&out[..pos])?;
            pos = 0;
        }
    }
    file.write_all(&out[..pos])?;
    Ok(max)
}

/// A spill under way on its thread: the list (given back, sorted, to be reused or, if the
/// spill failed, kept) and whether the run was written.
type Spill = std::thread::JoinHandle<(Vec<Entry>, std::io::Result<(u64, u32, u32)>)>;

/// The runs of one indexing pass.
pub struct Runs {
    prefix: PathBuf,
    /// Postings held in memory before they are spilled.
    budget: usize,
    /// Each run's file and its fields' widths.
    files: Vec<(PathBuf, Widths)>,
    /// Postings in the runs.
    count: u64,
    /// The largest game, move and next move in the runs.
    max: (u64, u32, u32),
    /// A spill failed: the postings stay in memory from then on (correct, no longer bounded).
    failed: bool,
    /// The spill under way.
    pending: Option<Spill>,
    /// The list of the last spill, emptied, for the next one to take.
    spare: Vec<Entry>,
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
            pending: None,
            spare: Vec::new(),
        }
    }

    /// Postings written to runs so far (once [`Runs::settle`] has waited for the last spill).
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

    /// Memory for half the budget of postings, reserved once, so that the list does not grow
    /// by doubling (which would hold twice that).
    pub fn reserve(&self, buf: &mut Vec<Entry>) {
        buf.reserve_exact((self.budget / 2).saturating_sub(buf.len()));
    }

    /// Whether a list of `held` postings is spilled before `upcoming` more are added: it holds
    /// half the budget, or some and they would not fit beside them.
    pub fn would_spill(&self, held: usize, upcoming: usize) -> bool {
        let half = self.budget / 2;
        !self.failed && held > 0 && (held >= half || held + upcoming > half)
    }

    /// Hands `buf` to a new spill once it holds half the budget (or some, and `upcoming` more
    /// would not fit beside them: [`Runs::would_spill`]), and gives the writer the list of the
    /// last spill, empty, in its place. The spill before is waited for first, so that at most
    /// two lists of half the budget are held: the one being written and the one filling (which
    /// is spilled only once its postings are logged, see `posfile::Log`, between files: one
    /// file of more postings than that, a collection of several thousand games, makes the list
    /// grow past the budget).
    pub fn spill_if_full(&mut self, buf: &mut Vec<Entry>, upcoming: usize) {
        if !self.would_spill(buf.len(), upcoming) {
            return;
        }
        self.settle(buf);
        if self.failed {
            return;
        }
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        next.reserve_exact((self.budget / 2).saturating_sub(next.len()));
        // Through a slot, so that a thread that cannot start leaves the postings here.
        let full = std::sync::Arc::new(std::sync::Mutex::new(std::mem::replace(buf, next)));
        let mut s = self.prefix.as_os_str().to_owned();
        s.push(self.files.len().to_string());
        let path = PathBuf::from(s);
        let spawned = std::thread::Builder::new().name("kifu-spill".to_owned()).spawn({
            let (path, full) = (path.clone(), full.clone());
            move || {
                let mut list = std::mem::take(&mut *full.lock().unwrap_or_else(|e| e.into_inner()));
                let r = write_run(&path, &mut list);
                (list, r)
            }
        });
        match spawned {
            Ok(h) => {
                self.files.push((path, Widths::default()));
                self.pending = Some(h);
            }
            Err(_) => {
                self.failed = true;
                buf.append(&mut full.lock().unwrap_or_else(|e| e.into_inner()));
            }
        }
    }

    /// Waits for the spill under way: its run counts from now on, or (it failed) its postings
    /// go back into `buf` and no more spills are made.
    pub fn settle(&mut self, buf: &mut Vec<Entry>) {
        let Some(h) = self.pending.take() else { return };
        let (mut list, r) = match h.join() {
            Ok(x) => x,
            Err(_) => (Vec::new(), Err(std::io::Error::other("the spill thread panicked"))),
        };
        match r {
            Ok(max) => {
                self.count += list.len() as u64;
                self.max = (self.max.0.max(max.0), self.max.1.max(max.1), self.max.2.max(max.2));
                if let Some(f) = self.files.last_mut() {
                    f.1 = Widths::of(max);
                }
                list.clear();
                self.spare = list;
            }
            Err(_) => {
                // A panicked spill loses its postings: the next run rebuilds from the log.
                self.failed = true;
                if let Some((path, _)) = self.files.pop() {
                    let _ = std::fs::remove_file(path);
                }
                buf.append(&mut list);
            }
        }
    }

    /// Every posting of the runs and of `rest`, in order (a k-way merge); `rest` must be sorted
    /// ([`sort_in_parts`]: `build` sorts it while the last spill ends). [`Runs::settle`] must
    /// have been called.
    pub fn merge(&self, rest: Vec<Entry>) -> std::io::Result<Merge> {
        debug_assert!(rest.windows(2).all(|w| w[0] <= w[1]), "the postings in memory are not sorted");
        let mut sources = Vec::with_capacity(self.files.len() + 1);
        for (f, widths) in &self.files {
            sources.push(Source::Run(RunReader::new(std::fs::File::open(f)?, *widths)));
        }
        sources.push(Source::Memory(rest));
        Merge::new(sources)
    }
}

/// The bytes a [`RunReader`] reads at a time.
const CHUNK: usize = 64 << 10;

/// A run read back, a chunk at a time, decoded a block of postings at a time.
pub struct RunReader {
    file: std::fs::File,
    /// [`CHUNK`] bytes (zeroed once), of which `at..end` are still to decode.
    buf: Vec<u8>,
    at: usize,
    end: usize,
    widths: Widths,
    block: Vec<Entry>,
}

impl RunReader {
    fn new(file: std::fs::File, widths: Widths) -> RunReader {
        RunReader { file, buf: Vec::new(), at: 0, end: 0, widths, block: Vec::new() }
    }

    /// Decodes the next block (empty at the end of the run).
    #[cold]
    fn fill(&mut self) -> std::io::Result<()> {
        use std::io::Read;
        let n = self.widths.record();
        self.block.clear();
        if self.end - self.at < n {
            // Keep the part of a record left, read up to the chunk's end after it (not zeroed
            // again: 50 M instructions on the corpus).
            self.buf.copy_within(self.at..self.end, 0);
            self.end -= self.at;
            self.at = 0;
            if self.buf.len() < CHUNK {
                self.buf.resize(CHUNK, 0);
            }
            let mut got = self.end;
            while got < self.buf.len() {
                match self.file.read(&mut self.buf[got..]) {
                    Ok(0) => break,
                    Ok(k) => got += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            self.end = got;
            if got == 0 {
                return Ok(());
            }
            if got < n {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
        }
        // A record with 16 bytes from its start (all but the last few of a chunk) is read as
        // two words, the hash and the rest, its fields cut out of the second by shifts and
        // masks; the others as `Widths::get` reads them. Four word loads each checked (as first
        // written) cost 65 instructions a posting on the corpus.
        let whole = (self.end - self.at) / n;
        let (w, body) = (self.widths, &self.buf[self.at..self.end]);
        let [g, m, x] = w.0;
        let mask = |n: usize| if n == 0 { 0 } else { u64::MAX >> (64 - 8 * n) };
        let (mg, mm, mx) = (mask(g), mask(m), mask(x));
        // The shifts to the move and the next move: 64 only for a field of no bytes, whose mask
        // is 0 (a wrapping shift by 0 is then harmless).
        let (sm, sx) = ((8 * g) as u32, (8 * (g + m)) as u32);
        let one_word = g + m + x <= 8;
        // The records with 16 bytes from their start, then the rest; each written in place in
        // a list of the right length (pushed one at a time, or made by an iterator whose
        // closure read what it uses through references, 37 instructions a posting).
        let fast = if one_word && body.len() >= 16 { ((body.len() - 16) / n + 1).min(whole) } else { 0 };
        self.block.resize(whole, Entry { hash: 0, game: 0, mv: 0, next: 0 });
        let (head, tail) = self.block.split_at_mut(fast);
        for (k, e) in head.iter_mut().enumerate() {
            let r = k * n;
            let b: &[u8; 16] = body[r..r + 16].try_into().expect("16 bytes");
            let rest = u64::from_le_bytes(b[8..].try_into().expect("8 bytes"));
            *e = Entry {
                hash: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                game: rest & mg,
                mv: (rest.wrapping_shr(sm) & mm) as u32,
                next: (rest.wrapping_shr(sx) & mx) as u32,
            };
        }
        for (k, e) in tail.iter_mut().enumerate() {
            *e = w.get(&body[(fast + k) * n..]);
        }
        self.at += whole * n;
        Ok(())
    }
}

impl Drop for Runs {
    fn drop(&mut self) {
        if let Some(h) = self.pending.take() {
            let _ = h.join();
        }
        for (f, _) in &self.files {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// One sorted source of a merge.
pub enum Source {
    /// A run on disk.
    Run(RunReader),
    /// Postings in memory, sorted: handed to the merge whole, as one block.
    Memory(Vec<Entry>),
    /// Any other sorted stream (the old positions file).
    Other(Box<dyn Iterator<Item = std::io::Result<Entry>> + Send>),
}

/// Postings an [`Source::Other`] hands a merge at a time.
const FEED: usize = 4096;

impl Source {
    /// Replaces `out` with the source's next postings (empty at its end). A read error after
    /// some postings goes to `error`, for the next call.
    fn fill(&mut self, out: &mut Vec<Entry>, error: &mut Option<std::io::Error>) -> std::io::Result<()> {
        out.clear();
        match self {
            Source::Run(r) => {
                r.fill()?;
                std::mem::swap(out, &mut r.block);
            }
            Source::Memory(list) => std::mem::swap(out, list),
            Source::Other(it) => {
                while out.len() < FEED {
                    match it.next() {
                        Some(Ok(e)) => out.push(e),
                        Some(Err(e)) if out.is_empty() => return Err(e),
                        Some(Err(e)) => {
                            *error = Some(e);
                            break;
                        }
                        None => break,
                    }
                }
            }
        }
        Ok(())
    }
}

/// A source of a merge with its postings at hand: the merge takes them from `block`, a plain
/// list, and goes back to the source (decoding, a match on its kind) only once a block is used
/// up. Taking each posting from its source (a `Result<Option<Entry>>` through the match) cost
/// 120 instructions a posting on the corpus.
struct Feed {
    source: Source,
    block: Vec<Entry>,
    /// The head's place in `block`.
    at: usize,
    /// A read error to give once `block` is used up.
    error: Option<std::io::Error>,
}

impl Feed {
    /// The feed of `source`, with its first block; `None` for an empty source.
    fn new(source: Source) -> std::io::Result<Option<(Feed, Entry)>> {
        let mut f = Feed { source, block: Vec::new(), at: 0, error: None };
        Ok(f.refill()?.map(|e| (f, e)))
    }

    /// Takes the next block; its first posting.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> std::io::Result<Option<Entry>> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.source.fill(&mut self.block, &mut self.error)?;
        self.at = 0;
        Ok(self.block.first().copied())
    }
}

/// Whether `a` comes before `b`: the hash decides nearly always, so it is compared first, on
/// its own (a comparison of the four fields costs about twice as many instructions).
#[inline(always)]
fn before(a: &Entry, b: &Entry) -> bool {
    a.hash < b.hash || (a.hash == b.hash && a < b)
}

/// A k-way merge of sorted sources, taken a block at a time ([`Merge::fill`]). The sources'
/// next postings are kept in a loser tree (a tournament whose inner nodes each hold the source
/// that lost there): taking the smallest and putting its source's next in its place is one
/// comparison a level, two for the four sources of a run of `kifu index` on the corpus (three
/// runs and the postings in memory). On the corpus (callgrind, 4.8 million postings) the
/// merge's thread took 991 M instructions (206 a posting, the runs' decoding included) when
/// it scanned the sources' heads for each posting and handed them out one at a time as an
/// iterator's `Result`; 557 M (116) so, of which about 60 a posting in this loop (two levels
/// of the tree: 28) and 25 in decoding the runs.
pub struct Merge {
    feeds: Vec<Feed>,
    /// The next posting of each source still going (`feeds[i]`'s in `heads[i]`).
    heads: Vec<Entry>,
    /// The loser tree: `tree[0]` the source whose head is smallest, `tree[p]` (`1 ≤ p < k`)
    /// the loser at node `p`, whose children are nodes `2p` and `2p + 1`; node `k + i` is
    /// source `i`.
    tree: Vec<usize>,
    error: Option<std::io::Error>,
}

impl Merge {
    /// A merge of `sources`, each sorted.
    pub fn new(sources: Vec<Source>) -> std::io::Result<Merge> {
        let mut m = Merge { feeds: Vec::new(), heads: Vec::new(), tree: Vec::new(), error: None };
        for s in sources {
            m.add(s)?;
        }
        Ok(m)
    }

    /// Adds one more sorted source (before the first posting is taken).
    pub fn add(&mut self, source: Source) -> std::io::Result<()> {
        if let Some((feed, e)) = Feed::new(source)? {
            self.heads.push(e);
            self.feeds.push(feed);
            self.build();
        }
        Ok(())
    }

    /// Plays the tournament again from the leaves (at the start, and when a source ends).
    fn build(&mut self) {
        let k = self.heads.len();
        self.tree.clear();
        self.tree.resize(k.max(1), 0);
        if k == 0 {
            return;
        }
        // The winner at each node, the leaves' their own source.
        let mut wins = vec![0usize; 2 * k];
        for (i, w) in wins[k..].iter_mut().enumerate() {
            *w = i;
        }
        for p in (1..k).rev() {
            let (a, b) = (wins[2 * p], wins[2 * p + 1]);
            let (win, lose) = if before(&self.heads[b], &self.heads[a]) { (b, a) } else { (a, b) };
            wins[p] = win;
            self.tree[p] = lose;
        }
        self.tree[0] = if k == 1 { 0 } else { wins[1] };
    }

    /// Appends the next postings in order for which `keep` holds to `out`, until it holds
    /// `max` or more and the next posting has another hash than its last (the postings of a
    /// hash are never cut between two calls: a hash of more postings than `max` makes `out`
    /// that long) or the sources end. Leaves `out` as it was only at the end; a read error
    /// ends the merge.
    pub fn fill(&mut self, out: &mut Vec<Entry>, max: usize, keep: impl Fn(&Entry) -> bool) -> std::io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        loop {
            // Slices, not the lists (whose lengths and places the compiler would read again
            // after each store): a few thousand postings at a time, until a block is used up.
            let (heads, tree, feeds) = (&mut self.heads[..], &mut self.tree[..], &mut self.feeds[..]);
            let k = heads.len();
            if k == 0 {
                return Ok(());
            }
            let w = loop {
                let w = tree[0];
                let e = heads[w];
                if out.len() >= max && out.last().is_none_or(|l| l.hash != e.hash) {
                    return Ok(());
                }
                if keep(&e) {
                    out.push(e);
                }
                let f = &mut feeds[w];
                f.at += 1;
                match f.block.get(f.at) {
                    Some(&n) => heads[w] = n,
                    None => break w,
                }
                replay(heads, tree, w);
            };
            match self.feeds[w].refill() {
                Ok(Some(n)) => {
                    self.heads[w] = n;
                    replay(&self.heads, &mut self.tree, w);
                }
                Ok(None) => {
                    self.heads.swap_remove(w);
                    self.feeds.swap_remove(w);
                    self.build();
                }
                Err(err) => {
                    self.heads.clear();
                    self.feeds.clear();
                    self.tree.clear();
                    if out.is_empty() {
                        return Err(err);
                    }
                    self.error = Some(err);
                    return Ok(());
                }
            }
        }
    }
}

/// Puts the new head of source `w` in its place in the loser tree `tree` of `heads`: it plays
/// its way up from its leaf, against the loser at each node.
#[inline(always)]
fn replay(heads: &[Entry], tree: &mut [usize], w: usize) {
    let (mut win, mut p) = (w, (w + heads.len()) / 2);
    while p > 0 {
        let l = tree[p];
        if before(&heads[l], &heads[win]) {
            tree[p] = win;
            win = l;
        }
        p /= 2;
    }
    tree[0] = win;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted in parts is sorted: many hashes, some shared, some parts empty, in both modes.
    #[test]
    fn sort_in_parts_sorts() {
        for n in [0u64, 10, 5_000, 70_000] {
            let all: Vec<Entry> = (0..n)
                .map(|i| Entry {
                    hash: if i % 9 == 0 {
                        3 << 56 | 7
                    } else {
                        xxhash_rust::xxh3::xxh3_64(&i.to_le_bytes()) & !(1 << 60)
                    },
                    game: (n - i) % 1000,
                    mv: (i % 300) as u32,
                    next: (i * 7 % 5000) as u32,
                })
                .collect();
            assert_sorts(&all);
        }
    }

    /// `sort_in_parts` sorts `all` as `sort_unstable` does, in both modes.
    fn assert_sorts(all: &[Entry]) {
        let mut want = all.to_vec();
        want.sort_unstable();
        for parallel in [false, true] {
            let mut got = all.to_vec();
            sort_in_parts(&mut got, parallel);
            assert_eq!(got, want);
        }
    }

    /// A part past the radix sort's bound, and parts of a few hashes out of order, are
    /// sorted too.
    #[test]
    fn sort_in_parts_big_parts() {
        let all: Vec<Entry> = (0..200_000u64)
            .map(|i| Entry {
                hash: 5 << 56 | (xxhash_rust::xxh3::xxh3_64(&i.to_le_bytes()) % 3) << 20,
                game: xxhash_rust::xxh3::xxh3_64(&(i + 7).to_le_bytes()) % 50,
                mv: (i % 7) as u32,
                next: (i % 11) as u32,
            })
            .chain((0..20_000u64).map(|i| Entry { hash: 9 << 56 | (i % 4), game: 20_000 - i, mv: 1, next: 2 }))
            .collect();
        assert_sorts(&all);
    }

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
            runs.spill_if_full(&mut buf, 0);
        }
        runs.settle(&mut buf);
        assert!(runs.runs() >= 5);
        assert!(buf.len() < 512 + 700);
        let mut want = all.clone();
        want.sort_unstable();
        sort_in_parts(&mut buf, true);
        let mut merge = runs.merge(buf).unwrap();
        let (mut got, mut block) = (Vec::new(), Vec::new());
        loop {
            block.clear();
            merge.fill(&mut block, 100, |_| true).unwrap();
            if block.is_empty() {
                break;
            }
            // Each block holds every posting of its hashes.
            assert!(got.last().is_none_or(|l: &Entry| l.hash != block[0].hash));
            got.extend_from_slice(&block);
        }
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
