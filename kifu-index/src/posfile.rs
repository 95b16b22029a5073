//! The positions file: every position of every game's main line, as postings `(hash, game,
//! move, next)` sorted by hash, in a file beside the database (`DB.positions`) that the index
//! owns and rewrites at the end of each run that changed something.
//!
//! # Why a side file and not a table
//! A posting is a 64-bit hash, a game id, a move number and the next move (with the symmetry).
//! As a SQLite `WITHOUT ROWID` table keyed `(hash, game, move)` a row costs its record header,
//! an 8-byte integer for the hash, 2–3 bytes each for the rest, a cell pointer and the pages'
//! free space: about 25 bytes a posting, twice the 12-byte budget. Sorted by hash, the postings
//! compress well in a file of our own: the hash's top bits are the bucket (not stored), the rest
//! is stored as the gap from the previous hash of the bucket (Rice-coded), a hash shared by many
//! games is written once with a count, and the other fields take the bits their largest value
//! needs. On the corpus this is about 10 bytes a posting, directory included (the figure is in
//! the issue note). A query reads the header, two directory entries and one bucket (about 64
//! postings): three `pread`s.
//!
//! # Layout
//! - header, 64 bytes, little-endian: `KIFUPOS1`; format version (u32); the widths in bits of
//!   the bucket number, game id, move number and next move, and the Rice parameter (5 bytes);
//!   the database's nonce (u64, see `schema`), the highest game id covered (u64), the number of
//!   postings (u64), the directory's offset (u64), the file's identity (u64, random: files
//!   derived from this one, `DB.positions.top`, name it);
//! - the buckets, each starting on a byte: a bit stream (least significant bit first) of hash
//!   groups, each `1`, the gap to the previous hash's low bits (Rice), the number of postings
//!   (Elias gamma), then each posting as game, move, next in their widths; `0` ends the bucket;
//! - the directory: the byte offset of each bucket and of the end (u64 each).
//!
//! # Keeping it exact
//! The file holds the postings of every live game whose id is at most its *high-water mark*
//! (the highest id when it was written; game ids are never reused: `AUTOINCREMENT`). A run
//! writes a new file (`DB.positions.tmp`, renamed over the old one) from the old one's postings
//! of games still in the database and the postings of the games it read, so deleted and changed
//! files leave nothing behind. Games above the mark (a run killed before the file was written)
//! and are not in the log (below) have their files read again by the next run (`schema` marks
//! them). A file written for another database (its nonce differs) counts as empty.
//!
//! While a run goes, the postings of each batch are also appended to a log ([`log_path`]) just
//! before the batch is committed, so that a run killed before the positions file is written
//! loses nothing: the next run takes the postings of the log's committed games as its own,
//! writes the file and removes the log.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"KIFUPOS1";
const FORMAT: u32 = 1;
const HEADER: usize = 64;

/// One posting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// The position's hash.
    pub hash: u64,
    /// The game's id (`games.id`).
    pub game: u64,
    /// Moves before the position.
    pub mv: u32,
    /// The next move, encoded (see `position`).
    pub next: u32,
}

/// The positions file of the database at `db`.
pub fn path_for(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".positions");
    PathBuf::from(s)
}

/// The header's fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    bucket_bits: u8,
    game_bits: u8,
    move_bits: u8,
    next_bits: u8,
    rice: u8,
    /// The database's nonce.
    pub nonce: u64,
    /// The highest game id covered.
    pub hwm: u64,
    /// Postings in the file.
    pub count: u64,
    dir: u64,
    /// The file's identity (random; 0 in files written before it had one).
    pub id: u64,
}

impl Header {
    fn parse(b: &[u8; HEADER]) -> Option<Header> {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        if &b[..8] != MAGIC || u32::from_le_bytes(b[8..12].try_into().expect("4 bytes")) != FORMAT {
            return None;
        }
        let h = Header {
            bucket_bits: b[12],
            game_bits: b[13],
            move_bits: b[14],
            next_bits: b[15],
            rice: b[16],
            nonce: u64_at(24),
            hwm: u64_at(32),
            count: u64_at(40),
            dir: u64_at(48),
            id: u64_at(56),
        };
        let ok = h.bucket_bits <= 32
            && h.game_bits <= 64
            && h.move_bits <= 32
            && h.next_bits <= 32
            && h.rice < 64
            && (h.bucket_bits as u32 + h.rice as u32) <= 64;
        ok.then_some(h)
    }

    fn bytes(&self) -> [u8; HEADER] {
        let mut b = [0u8; HEADER];
        b[..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&FORMAT.to_le_bytes());
        b[12..17].copy_from_slice(&[self.bucket_bits, self.game_bits, self.move_bits, self.next_bits, self.rice]);
        for (i, v) in [(24, self.nonce), (32, self.hwm), (40, self.count), (48, self.dir), (56, self.id)] {
            b[i..i + 8].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    fn low_bits(&self) -> u32 {
        64 - self.bucket_bits as u32
    }

    fn bucket_of(&self, hash: u64) -> u64 {
        if self.bucket_bits == 0 {
            0
        } else {
            hash >> (64 - self.bucket_bits as u32)
        }
    }
}

fn bits_for(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Writes bits, least significant first. Fewer than 8 bits wait in `acc` between calls; each
/// call stores the whole accumulator (8 bytes, over the room past the bytes done) and moves on
/// by the bytes it completed: no branch on how many bits are waiting. A hash group of narrow
/// fields takes two calls (see [`write_blocks`]): its head (the gap and the count) and each
/// posting. The bit-at-a-time loops this first had, then a call per field and a copy of each
/// group's postings through a second writer, took half of a one-thread run's final phase on
/// the corpus; four bytes stored once 32 bits were waiting (three calls for a group's head)
/// left the bit writing a third of the encoding thread's instructions.
struct BitWriter {
    /// The bytes done (`..bits.pos`), then room.
    out: Vec<u8>,
    bits: Bits,
}

/// Where a [`BitWriter`] is: the bytes done and the bits waiting. Copied out of the writer for
/// a hash group's puts ([`Bits::put`], into a slice with room enough), so that the compiler
/// keeps it in registers: as fields of the writer, stored and loaded again around each byte
/// stored (which might have been to them), the puts cost twice as many instructions.
#[derive(Clone, Copy, Default)]
struct Bits {
    pos: usize,
    acc: u64,
    n: u32,
}

impl Bits {
    /// Writes the `bits` low bits of `v` (at most 56; the bits above must be zero) into `out`,
    /// which has 8 bytes of room from `pos` on.
    #[inline(always)]
    fn put(&mut self, out: &mut [u8], v: u64, bits: u32) {
        debug_assert!(bits <= 56 && v >> bits == 0);
        self.acc |= v << self.n;
        self.n += bits;
        out[self.pos..self.pos + 8].copy_from_slice(&self.acc.to_le_bytes());
        let bytes = self.n >> 3;
        self.pos += bytes as usize;
        self.acc >>= 8 * bytes;
        self.n &= 7;
    }

    /// Writes the `bits` low bits of `v` (any number up to 64) in two puts at most.
    #[inline(always)] // a call would take `self`'s address: see `Bits`
    fn put_long(&mut self, out: &mut [u8], v: u64, bits: u32) {
        let v = if bits >= 64 { v } else { v & ((1u64 << bits) - 1) };
        if bits <= 32 {
            self.put(out, v, bits);
        } else {
            self.put(out, v & 0xFFFF_FFFF, 32);
            self.put(out, v >> 32, bits - 32);
        }
    }

    /// `q` ones, then a zero: q / 32 + 1 puts.
    #[inline(always)] // a call would take `self`'s address: see `Bits`
    fn unary(&mut self, out: &mut [u8], mut q: u64) {
        while q >= 32 {
            self.put(out, u32::MAX as u64, 32);
            q -= 32;
        }
        self.put(out, (1u64 << q) - 1, q as u32 + 1);
    }

    /// Elias gamma of `v` ≥ 1: (n - 1) zeros, a one, then the n - 1 low bits; five puts at
    /// most.
    #[inline(always)] // a call would take `self`'s address: see `Bits`
    fn gamma(&mut self, out: &mut [u8], v: u64) {
        let n = 64 - v.leading_zeros();
        self.put_long(out, 0, n - 1);
        self.put(out, 1, 1);
        self.put_long(out, v, n - 1);
    }

    /// Ends bucket `*b` of `buckets` (a `0`, padded to a byte: two puts) and starts the next,
    /// if there is one: its directory entry, `written` (the bytes of the file before `out`'s)
    /// and the bytes done, goes into `dir`.
    #[inline(always)] // a call would take `self`'s address: see `Bits`
    fn end_bucket(
        &mut self,
        out: &mut [u8],
        dir: &mut impl Write,
        (b, buckets): (&mut u64, u64),
        written: u64,
    ) -> std::io::Result<()> {
        self.put(out, 0, 1);
        if self.n > 0 {
            self.put(out, 0, 8 - self.n);
        }
        *b += 1;
        if *b < buckets {
            dir.write_all(&(written + self.pos as u64).to_le_bytes())?;
        }
        Ok(())
    }
}

impl BitWriter {
    fn new() -> BitWriter {
        BitWriter { out: vec![0; 1 << 16], bits: Bits::default() }
    }

    /// The bytes done.
    fn done(&self) -> &[u8] {
        &self.out[..self.bits.pos]
    }

    /// Forgets the bytes done (written out); the bits waiting stay.
    fn clear(&mut self) {
        self.bits.pos = 0;
    }

    /// Makes room for `bytes` more past the bytes done.
    fn room(&mut self, bytes: usize) {
        if self.out.len() < self.bits.pos + bytes {
            grow(&mut self.out, self.bits.pos + bytes);
        }
    }
}

/// Gives a [`BitWriter`]'s list `need` bytes or more (twice as many as it had, at least).
#[cold]
#[inline(never)]
fn grow(out: &mut Vec<u8>, need: usize) {
    out.resize(need.max(2 * out.len()), 0);
}

/// Reads bits, least significant first; past the end reads zeros (see `overrun`).
struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitReader<'a> {
    fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0, acc: 0, n: 0 }
    }

    /// Whether more bits were read than the bytes hold.
    fn overrun(&self) -> bool {
        self.pos * 8 - self.n as usize > self.bytes.len() * 8
    }

    fn refill(&mut self) {
        while self.n <= 56 {
            let b = self.bytes.get(self.pos).copied().unwrap_or(0);
            self.pos += 1;
            self.acc |= (b as u64) << self.n;
            self.n += 8;
        }
    }

    fn get(&mut self, bits: u32) -> u64 {
        let mut v = 0;
        let mut done = 0;
        let mut left = bits;
        while left > 0 {
            let take = left.min(32);
            if self.n < take {
                self.refill();
            }
            let part = self.acc & ((1u64 << take) - 1);
            self.acc >>= take;
            self.n -= take;
            v |= part << done;
            done += take;
            left -= take;
        }
        v
    }

    /// The number of bits read so far.
    fn bit_pos(&self) -> u64 {
        self.pos as u64 * 8 - self.n as u64
    }

    /// Goes to bit `bit` of the bytes (reads from there on).
    fn seek(&mut self, bit: u64) {
        self.pos = (bit / 8).min(usize::MAX as u64) as usize;
        (self.acc, self.n) = (0, 0);
        self.get((bit % 8) as u32);
    }

    fn unary(&mut self) -> Option<u64> {
        let mut q = 0;
        while self.get(1) == 1 {
            q += 1;
            if self.overrun() {
                return None;
            }
        }
        Some(q)
    }

    fn gamma(&mut self) -> Option<u64> {
        let mut zeros = 0;
        while self.get(1) == 0 {
            zeros += 1;
            if zeros > 63 || self.overrun() {
                return None;
            }
        }
        Some(1u64 << zeros | self.get(zeros))
    }
}

/// The bucket bits for `count` postings: about 64 postings a bucket.
fn bucket_bits(count: u64) -> u8 {
    if count < 128 {
        0
    } else {
        (63 - (count / 64).leading_zeros()).min(32) as u8
    }
}

/// Sorts postings as [`write`] takes them: a counting sort by the hash's top byte (one pass to
/// count, one to move: 256 places to write to, which the caches hold), then each of the 256
/// parts (a few hundred KB on the corpus) sorted where it lies. Measured on the corpus (4.8
/// million postings): a parallel comparison sort of the whole list took 14% of the run's
/// samples, a counting sort by bucket (75,000 places to write to) 17%.
#[cfg(test)]
pub fn sort(entries: Vec<Entry>) -> Vec<Entry> {
    let mut starts = [0usize; 257];
    for e in &entries {
        starts[(e.hash >> 56) as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut at = starts;
    let mut out = vec![Entry { hash: 0, game: 0, mv: 0, next: 0 }; entries.len()];
    for e in entries {
        let k = (e.hash >> 56) as usize;
        out[at[k]] = e;
        at[k] += 1;
    }
    for w in starts.windows(2) {
        out[w[0]..w[1]].sort_unstable();
    }
    out
}

/// What a positions file to be written must hold room for: an upper bound on its postings
/// (this sets its buckets) and the largest game, move and next move in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// Postings, at most.
    pub count: u64,
    /// The largest game id.
    pub game: u64,
    /// The largest move number.
    pub mv: u32,
    /// The largest next move.
    pub next: u32,
}

impl Bounds {
    /// The bounds of the postings of `header` (an existing file), widened to hold `self` too.
    pub fn widen(self, h: &Header) -> Bounds {
        let max = |bits: u8| if bits == 0 { 0 } else { u64::MAX >> (64 - bits as u32) };
        Bounds {
            count: self.count + h.count,
            game: self.game.max(max(h.game_bits)),
            mv: self.mv.max(max(h.move_bits).min(u32::MAX as u64) as u32),
            next: self.next.max(max(h.next_bits).min(u32::MAX as u64) as u32),
        }
    }
}

/// Encodes sorted postings into a new file at `path` (through `path.tmp`, renamed at the end).
/// `hwm` is the highest game id covered; `nonce` the database's. Returns the file's size.
#[cfg(test)]
pub fn write(path: &Path, entries: &[Entry], hwm: u64, nonce: u64) -> std::io::Result<u64> {
    let bounds = Bounds {
        count: entries.len() as u64,
        game: entries.iter().map(|e| e.game).max().unwrap_or(0),
        mv: entries.iter().map(|e| e.mv).max().unwrap_or(0),
        next: entries.iter().map(|e| e.next).max().unwrap_or(0),
    };
    let mut whole = Some(entries.to_vec());
    let next = |b: &mut Vec<Entry>| Ok(whole.take().map(|w| *b = w).is_some());
    Ok(write_blocks(path, next, bounds, hwm, nonce, |_| {})?.bytes)
}

/// The widths and masks a positions file's hash groups are written with (see [`Header`]).
#[derive(Clone, Copy)]
struct Layout {
    /// The widths of a posting's game, move and next move, and of the three.
    gb: u32,
    mb: u32,
    nb: u32,
    width: u32,
    /// The shift of the next move in a posting's word (`gb + mb`).
    next_shift: u32,
    /// The bits of `width` (a posting's fields in one word, when they fit in 56 bits, cut to
    /// their widths: a field beyond its bound is an error, and must not spill into the next
    /// field or the following bits before it is found).
    width_mask: u64,
    rice: u32,
    rice_mask: u64,
    /// A hash's bucket is `(hash >> 1) >> bucket_shift` and its bits below the bucket's
    /// `hash & low_mask` (`Header::bucket_of` and `low`, without a branch on no bucket bits:
    /// the shift by 64 - bits made in two).
    bucket_shift: u32,
    low_mask: u64,
    buckets: u64,
}

impl Layout {
    fn of(h: &Header) -> Layout {
        let (gb, mb, nb) = (h.game_bits as u32, h.move_bits as u32, h.next_bits as u32);
        let width = gb + mb + nb;
        let rice = h.rice as u32;
        Layout {
            gb,
            mb,
            nb,
            width,
            next_shift: gb + mb,
            width_mask: if width == 0 { 0 } else { u64::MAX >> (64 - width.min(64)) },
            rice,
            rice_mask: if rice == 0 { 0 } else { u64::MAX >> (64 - rice) },
            bucket_shift: 63 - h.bucket_bits as u32,
            low_mask: u64::MAX >> h.bucket_bits,
            buckets: 1 << h.bucket_bits,
        }
    }
}

/// Writes the hash groups of `list` (checked: in order, within the bounds, after the groups
/// before) into `w`; `place` is the bucket being written and the low bits of its last hash.
/// Buckets that end go into `dir` (their directory entries: `written`, the bytes of the file
/// before `w`'s, and `w`'s). `seen` is called with each group.
///
/// Where the writer is ([`Bits`]), the bucket and the list are locals, kept in registers: room
/// for the whole block is made first, and a group whose head or postings do not fit in a put
/// each (rare) makes room for its own. Not inlined into [`write_blocks`], where the registers
/// go to other things.
#[inline(never)]
fn encode_block(
    list: &[Entry],
    l: Layout,
    place: &mut (u64, u64),
    w: &mut BitWriter,
    (dir, written): (&mut impl Write, u64),
    seen: &mut impl FnMut(&[Entry]),
) -> std::io::Result<()> {
    let Some(end) = list.last() else { return Ok(()) };
    let (mut b, mut prev) = *place;
    let mut bits = w.bits;
    // Two puts a posting at most (a group's head and its posting), two a bucket ended.
    let ends = (((end.hash >> 1) >> l.bucket_shift).saturating_sub(b)).min(l.buckets) as usize;
    let need = 8 * (2 * list.len() + 2 * ends) + 16;
    if w.out.len() < bits.pos + need {
        grow(&mut w.out, bits.pos + need);
    }
    let mut out = w.out.as_mut_slice();
    let mut at = 0;
    while at < list.len() {
        // The hash's postings: `list[at..end]`.
        let hash = list[at].hash;
        let mut end = at + 1;
        if list.get(end).is_some_and(|y| y.hash == hash) {
            while end < list.len() && list[end].hash == hash {
                end += 1;
            }
        }
        let group = &list[at..end];
        at = end;
        let gbucket = (hash >> 1) >> l.bucket_shift;
        while b < gbucket {
            bits.end_bucket(out, dir, (&mut b, l.buckets), written)?;
            prev = 0;
        }
        let low = hash & l.low_mask;
        let gap = low - prev;
        prev = low;
        // The head: `1`, the gap's quotient in unary and its remainder (Rice), the count
        // (Elias gamma: n - 1 zeros, then the count's n bits from the top one up); in one put
        // when it fits.
        let (q, len) = (gap >> l.rice, group.len() as u64);
        let n = 64 - len.leading_zeros();
        let head_bits = (q.min(64) as u32) + 1 + l.rice + 2 * n;
        if head_bits <= 56 && l.width <= 56 {
            let top = 1u64 << (n - 1);
            let count = top | (len ^ top) << n;
            let unary = ((1u64 << q) - 1) << 1 | 1;
            bits.put(out, unary | (gap & l.rice_mask) << (q + 2) | count << (q as u32 + 2 + l.rice), head_bits);
            let posting = |x: &Entry| (x.game | (x.mv as u64) << l.gb | (x.next as u64) << l.next_shift) & l.width_mask;
            match group {
                // Most hashes have one posting: no loop.
                [x] => bits.put(out, posting(x), l.width),
                _ => {
                    for x in group {
                        bits.put(out, posting(x), l.width);
                    }
                }
            }
        } else {
            // Each field of at most 64 bits in two puts: the head's in 12 at most (the gap is
            // below 2^(64 - bucket bits) and the Rice parameter 64 - bucket bits - 6, so its
            // quotient is below 64: three puts), a posting's in 6.
            let need = 8 * (12 + 6 * group.len()) + 8 * (2 * list.len() + 2 * ends) + 16;
            if w.out.len() < bits.pos + need {
                grow(&mut w.out, bits.pos + need);
            }
            out = w.out.as_mut_slice();
            bits.put(out, 1, 1);
            bits.unary(out, q);
            bits.put_long(out, gap & l.rice_mask, l.rice);
            bits.gamma(out, len);
            for x in group {
                bits.put_long(out, x.game, l.gb);
                bits.put_long(out, x.mv as u64, l.mb);
                bits.put_long(out, x.next as u64, l.nb);
            }
        }
        seen(group);
    }
    w.bits = bits;
    *place = (b, prev);
    Ok(())
}

/// What [`write_blocks`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The file's size in bytes.
    pub bytes: u64,
    /// Its postings.
    pub count: u64,
    /// Its identity (a random number in its header), which files derived from it record.
    pub id: u64,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A number no other file written by this process or another is likely to have.
fn random_id() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut b = Vec::with_capacity(32);
    b.extend_from_slice(&t.to_le_bytes());
    b.extend_from_slice(&std::process::id().to_le_bytes());
    b.extend_from_slice(&seq.to_le_bytes());
    xxhash_rust::xxh3::xxh3_64(&b) | 1
}

/// Encodes sorted postings, handed over in blocks, into a new file at `path` (through
/// `path.tmp`, renamed at the end; the directory goes through `path.tmp.dir`, so that memory
/// does not grow with the file). `next_block` puts the next block in the list it is given
/// (whose postings are written: it may swap in a list of its own) and says whether there was
/// one; each hash's postings must come in one block, which is where the hash groups are found
/// (a scan of the block, no posting copied). `bounds` must hold for them. `seen` is called with
/// the postings of each hash (a group, in order) as they are written. A read error from
/// `next_block` is returned, and no file is written; so is postings out of order or a hash's
/// postings split between two blocks.
///
/// Measured on the corpus (callgrind, 4.8 million postings, 3.7 million hashes): the encoding
/// thread took 1,186 M instructions (246 a posting, with the tables) when it took the postings
/// one at a time as an iterator's `io::Result`, gathered each hash's into a list and wrote
/// through a writer kept in memory; 750 M (156) so, of which about 110 a hash and 30 a posting
/// in [`encode_block`] and 25 a posting in the checks.
pub fn write_blocks(
    path: &Path,
    mut next_block: impl FnMut(&mut Vec<Entry>) -> std::io::Result<bool>,
    bounds: Bounds,
    hwm: u64,
    nonce: u64,
    mut seen: impl FnMut(&[Entry]),
) -> std::io::Result<Written> {
    let bucket_bits = bucket_bits(bounds.count);
    // Hashes per bucket: about 64 postings; the gaps average 2^(64-b)/64.
    let rice = (64 - bucket_bits as u32).saturating_sub(6).min(63) as u8;
    let mut h = Header {
        bucket_bits,
        game_bits: bits_for(bounds.game),
        move_bits: bits_for(bounds.mv as u64),
        next_bits: bits_for(bounds.next as u64),
        rice,
        nonce,
        hwm,
        count: 0,
        dir: 0,
        id: random_id(),
    };
    let tmp = with_suffix(path, ".tmp");
    let tmp_dir = with_suffix(path, ".tmp.dir");
    let result = (|| {
        let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        let mut dir = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(&tmp_dir)?);
        file.write_all(&[0u8; HEADER])?;
        let buckets = 1u64 << bucket_bits;
        let mut offset = HEADER as u64;
        let mut w = BitWriter::new();
        let too_big = || std::io::Error::new(std::io::ErrorKind::InvalidInput, "a posting beyond the file's bounds");
        let out_of_order = || std::io::Error::new(std::io::ErrorKind::InvalidInput, "postings out of order");
        let layout = Layout::of(&h);
        // The bucket being written (its directory entry written) and the low bits of its last
        // hash; the hash of the last block's last group (the next block's must be above it).
        // `offset`: the bytes written to the file, before `w`'s.
        let mut place = (0u64, 0u64);
        dir.write_all(&offset.to_le_bytes())?;
        let mut last: Option<u64> = None;
        let mut block: Vec<Entry> = Vec::new();
        while next_block(&mut block)? {
            // The block checked first, in a loop of its own (in the encoding loop the checks
            // cost 15 instructions a posting): in order, the first hash after the last
            // block's (a hash's postings are not split), each posting within the bounds.
            let Some(head) = block.first() else { continue };
            let mut bad = last.is_some_and(|l| head.hash <= l);
            for p in block.windows(2) {
                bad |= p[1].hash < p[0].hash || (p[1].hash == p[0].hash && p[1] < p[0]);
            }
            if bad {
                return Err(out_of_order());
            }
            let over = block
                .iter()
                .fold(false, |o, x| o | (x.game > bounds.game) | (x.mv > bounds.mv) | (x.next > bounds.next));
            if over {
                return Err(too_big());
            }
            last = block.last().map(|e| e.hash);
            encode_block(&block, layout, &mut place, &mut w, (&mut dir, offset), &mut seen)?;
            h.count += block.len() as u64;
            // The bytes go out a megabyte or so at a time (more after a hash shared by very
            // many games).
            if w.done().len() >= 1 << 20 {
                offset += w.done().len() as u64;
                file.write_all(w.done())?;
                w.clear();
            }
        }
        while place.0 < buckets {
            w.room(16);
            w.bits.end_bucket(&mut w.out, &mut dir, (&mut place.0, buckets), offset)?;
        }
        offset += w.done().len() as u64;
        file.write_all(w.done())?;
        if h.count > bounds.count {
            return Err(too_big());
        }
        dir.write_all(&offset.to_le_bytes())?;
        h.dir = offset;
        let dir = dir.into_inner().map_err(|e| e.into_error())?;
        drop(dir);
        std::io::copy(&mut std::fs::File::open(&tmp_dir)?, &mut file)?;
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&h.bytes())?;
        // Not synced to disk: the database is not either at each commit (`synchronous=NORMAL`),
        // and a positions file lost or cut short is read as missing, which the next run repairs.
        drop(file);
        std::fs::rename(&tmp, path)?;
        Ok(Written { bytes: offset + 8 * (buckets + 1), count: h.count, id: h.id })
    })();
    let _ = std::fs::remove_file(&tmp_dir);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Decodes one bucket, calling `f` for each posting; stops early when `f` returns `false`.
fn decode(h: &Header, b: u64, bytes: &[u8], mut f: impl FnMut(Entry) -> bool) -> std::io::Result<()> {
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "bad positions bucket");
    let mut r = BitReader::new(bytes);
    let top = if h.bucket_bits == 0 { 0 } else { b << h.low_bits() };
    let mut low = 0u64;
    while r.get(1) == 1 {
        let q = r.unary().ok_or_else(bad)?;
        let gap = q.checked_shl(h.rice as u32).unwrap_or(u64::MAX) | r.get(h.rice as u32);
        low = low.wrapping_add(gap);
        let hash = top | low;
        let n = r.gamma().ok_or_else(bad)?;
        for _ in 0..n {
            let game = r.get(h.game_bits as u32);
            let mv = r.get(h.move_bits as u32) as u32;
            let next = r.get(h.next_bits as u32) as u32;
            if r.overrun() {
                return Err(bad());
            }
            if !f(Entry { hash, game, mv, next }) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// An open positions file.
pub struct PosFile {
    file: std::fs::File,
    /// Its header.
    pub header: Header,
}

fn read_at(file: &mut std::fs::File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

impl PosFile {
    /// Opens the file at `path`; `None` if it is missing or not a positions file.
    pub fn open(path: &Path) -> Option<PosFile> {
        let mut file = std::fs::File::open(path).ok()?;
        let mut b = [0u8; HEADER];
        read_at(&mut file, 0, &mut b).ok()?;
        let header = Header::parse(&b)?;
        Some(PosFile { file, header })
    }

    /// The bytes of bucket `b`.
    fn bucket(&mut self, b: u64) -> std::io::Result<Vec<u8>> {
        let mut d = [0u8; 16];
        read_at(&mut self.file, self.header.dir + 8 * b, &mut d)?;
        let start = u64::from_le_bytes(d[..8].try_into().expect("8"));
        let end = u64::from_le_bytes(d[8..].try_into().expect("8"));
        if end < start || end - start > 1 << 32 {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "bad positions directory"));
        }
        let mut buf = vec![0u8; (end - start) as usize];
        read_at(&mut self.file, start, &mut buf)?;
        Ok(buf)
    }

    /// Decodes one bucket, calling `f` for each posting; stops early when `f` returns `false`.
    fn decode(&self, b: u64, bytes: &[u8], f: impl FnMut(Entry) -> bool) -> std::io::Result<()> {
        decode(&self.header, b, bytes, f)
    }

    /// The postings of `hash`, sorted by game and move.
    #[cfg(test)]
    pub fn lookup(&mut self, hash: u64) -> std::io::Result<Vec<Entry>> {
        Ok(self.group(hash)?.map_or_else(Vec::new, |g| g.iter().collect()))
    }

    /// The postings of `hash` as they lie in the file ([`Group`]), `None` if it has none: its
    /// bucket is read, and the groups before it are skipped without decoding their postings.
    pub fn group(&mut self, hash: u64) -> std::io::Result<Option<Group>> {
        if self.header.count == 0 {
            return Ok(None);
        }
        let h = self.header;
        let b = h.bucket_of(hash);
        let bytes = self.bucket(b)?;
        let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "bad positions bucket");
        let width = h.game_bits as u64 + h.move_bits as u64 + h.next_bits as u64;
        let top = if h.bucket_bits == 0 { 0 } else { b << h.low_bits() };
        let mut r = BitReader::new(&bytes);
        let mut low = 0u64;
        while r.get(1) == 1 {
            let q = r.unary().ok_or_else(bad)?;
            let gap = q.checked_shl(h.rice as u32).unwrap_or(u64::MAX) | r.get(h.rice as u32);
            low = low.wrapping_add(gap);
            let here = top | low;
            let n = r.gamma().ok_or_else(bad)?;
            let start = r.bit_pos();
            let end = n.checked_mul(width).and_then(|w| w.checked_add(start)).ok_or_else(bad)?;
            if end > bytes.len() as u64 * 8 {
                return Err(bad());
            }
            if here == hash {
                return Ok(Some(Group { header: h, bytes, start, count: n, hash }));
            }
            if here > hash {
                break;
            }
            r.seek(end);
        }
        Ok(None)
    }

    /// Every posting, in order, read a few thousand buckets at a time.
    pub fn stream(self) -> Stream {
        let buckets = if self.header.count == 0 { 0 } else { 1u64 << self.header.bucket_bits };
        Stream { file: self.file, header: self.header, next_bucket: 0, buckets, buf: Vec::new(), pos: 0, failed: false }
    }

    /// Every posting, in order, for which `keep` holds.
    pub fn all(&mut self, mut keep: impl FnMut(&Entry) -> bool) -> std::io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        if self.header.count == 0 {
            return Ok(out);
        }
        let mut data = vec![0u8; (self.header.dir - HEADER as u64) as usize];
        read_at(&mut self.file, HEADER as u64, &mut data)?;
        let buckets = 1u64 << self.header.bucket_bits;
        let mut dir = vec![0u8; 8 * (buckets as usize + 1)];
        read_at(&mut self.file, self.header.dir, &mut dir)?;
        let off = |b: u64| u64::from_le_bytes(dir[8 * b as usize..8 * b as usize + 8].try_into().expect("8"));
        for b in 0..buckets {
            let (s, e) = (off(b) - HEADER as u64, off(b + 1) - HEADER as u64);
            let bytes = data.get(s as usize..e as usize).ok_or(std::io::ErrorKind::InvalidData)?;
            self.decode(b, bytes, |e| {
                if keep(&e) {
                    out.push(e);
                }
                true
            })?;
        }
        Ok(out)
    }
}

/// The postings of one hash as the file stores them (fixed-width records, sorted by game, move
/// and next move), read one at a time: a position that a million games share is looked up in
/// without decoding a million postings ([`Group::first_of_game`] is a binary search).
pub struct Group {
    header: Header,
    bytes: Vec<u8>,
    /// The bit where the first posting starts.
    start: u64,
    count: u64,
    hash: u64,
}

impl Group {
    /// Its postings (at least one).
    pub fn len(&self) -> u64 {
        self.count
    }

    /// The posting at `k` (below [`Group::len`]).
    pub fn get(&self, k: u64) -> Entry {
        let h = &self.header;
        let width = h.game_bits as u64 + h.move_bits as u64 + h.next_bits as u64;
        let mut r = BitReader::new(&self.bytes);
        r.seek(self.start + k * width);
        let game = r.get(h.game_bits as u32);
        let mv = r.get(h.move_bits as u32) as u32;
        let next = r.get(h.next_bits as u32) as u32;
        Entry { hash: self.hash, game, mv, next }
    }

    /// The postings in order.
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        let h = &self.header;
        let mut r = BitReader::new(&self.bytes);
        r.seek(self.start);
        (0..self.count).map(move |_| {
            let game = r.get(h.game_bits as u32);
            let mv = r.get(h.move_bits as u32) as u32;
            let next = r.get(h.next_bits as u32) as u32;
            Entry { hash: self.hash, game, mv, next }
        })
    }

    /// The first posting of `game` (its first time at the position), if it has one.
    pub fn first_of_game(&self, game: u64) -> Option<Entry> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid).game < game {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo < self.count).then(|| self.get(lo)).filter(|e| e.game == game)
    }
}

/// The postings of a positions file in order ([`PosFile::stream`]); a read error is the last
/// item.
pub struct Stream {
    file: std::fs::File,
    header: Header,
    next_bucket: u64,
    buckets: u64,
    buf: Vec<Entry>,
    pos: usize,
    failed: bool,
}

impl Stream {
    /// Decodes the next buckets into `buf`.
    fn load(&mut self) -> std::io::Result<()> {
        let (b0, b1) = (self.next_bucket, (self.next_bucket + 4096).min(self.buckets));
        let mut dir = vec![0u8; 8 * (b1 - b0 + 1) as usize];
        read_at(&mut self.file, self.header.dir + 8 * b0, &mut dir)?;
        let off = |b: u64| {
            let i = 8 * (b - b0) as usize;
            u64::from_le_bytes(dir[i..i + 8].try_into().expect("8"))
        };
        let (start, end) = (off(b0), off(b1));
        if end < start || end - start > 1 << 34 {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "bad positions directory"));
        }
        let mut data = vec![0u8; (end - start) as usize];
        read_at(&mut self.file, start, &mut data)?;
        self.buf.clear();
        self.pos = 0;
        for b in b0..b1 {
            let (s, e) = (off(b) - start, off(b + 1) - start);
            let bytes = data.get(s as usize..e as usize).ok_or(std::io::ErrorKind::InvalidData)?;
            decode(&self.header, b, bytes, |e| {
                self.buf.push(e);
                true
            })?;
        }
        self.next_bucket = b1;
        Ok(())
    }
}

impl Iterator for Stream {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<std::io::Result<Entry>> {
        while self.pos == self.buf.len() {
            if self.failed || self.next_bucket >= self.buckets {
                return None;
            }
            if let Err(e) = self.load() {
                self.failed = true;
                return Some(Err(e));
            }
        }
        self.pos += 1;
        Some(Ok(self.buf[self.pos - 1]))
    }
}

/// The log beside the positions file (`DB.positions.log`): the postings of each batch of games
/// the writer writes, appended just before the batch is committed, so that a run killed before
/// it writes the positions file loses nothing. The next run keeps the games of the log that the
/// database has (same id, same main-line hash: a batch logged but not committed is dropped, and
/// its ids, given again, do not match), starts a new log with them, and removes the log once
/// the positions file is written. Each batch is its number of games (u64), each game as its id
/// and main-line hash (u64), first move number and number of postings (u32), then each
/// posting's hash (u64) and next move (u32), all little-endian, then the xxh3-64 of the batch
/// after its count: a batch cut short by a kill fails its check and is dropped with all after
/// it (their games, above the last one logged, have their files read again).
pub fn log_path(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".positions.log");
    PathBuf::from(s)
}

const LOG_MAGIC: &[u8; 8] = b"KIFUPLG2";

/// A log open for appending.
pub struct Log {
    file: Option<std::fs::File>,
    buf: Vec<u8>,
}

impl Log {
    /// Starts a new log at `path` (replacing any). A log that cannot be written is no log: its
    /// games are read again by the next run.
    pub fn create(path: &Path, nonce: u64) -> Log {
        let file = std::fs::File::create(path).ok().and_then(|mut f| {
            f.write_all(LOG_MAGIC).ok()?;
            f.write_all(&nonce.to_le_bytes()).ok()?;
            Some(f)
        });
        Log { file, buf: Vec::new() }
    }

    /// Appends one batch (in one write): `entries`, a game's postings in move order, and the
    /// main-line hash of each game. After a failed write nothing more is logged.
    pub fn append(&mut self, entries: &[Entry], games: &[(u64, u64)]) {
        let Some(f) = self.file.as_mut() else { return };
        if entries.is_empty() {
            return;
        }
        // The games come in the entries' order (the writer pushes both game by game): a cursor
        // finds each run's game (a map of the batch's games cost a tenth of the append).
        let mut k = 0;
        self.buf.clear();
        // 12 bytes an entry, 24 a run's head, 16 the count and the sum: one allocation at most.
        self.buf.reserve(16 + 12 * entries.len() + 24 * games.len().max(1));
        self.buf.extend_from_slice(&[0; 8]);
        let mut n = 0u64;
        for run in entries.chunk_by(|a, b| a.game == b.game && b.mv == a.mv + 1) {
            n += 1;
            let game = run[0].game;
            if games.get(k).is_none_or(|g| g.0 != game) {
                k = if games.get(k + 1).is_some_and(|g| g.0 == game) {
                    k + 1
                } else {
                    games.iter().position(|g| g.0 == game).unwrap_or(games.len())
                };
            }
            let hash = games.get(k).map_or(0, |g| g.1);
            self.buf.extend_from_slice(&game.to_le_bytes());
            self.buf.extend_from_slice(&hash.to_le_bytes());
            self.buf.extend_from_slice(&run[0].mv.to_le_bytes());
            self.buf.extend_from_slice(&(run.len() as u32).to_le_bytes());
            for e in run {
                let mut b = [0u8; 12];
                b[..8].copy_from_slice(&e.hash.to_le_bytes());
                b[8..].copy_from_slice(&e.next.to_le_bytes());
                self.buf.extend_from_slice(&b);
            }
        }
        self.buf[..8].copy_from_slice(&n.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&self.buf[8..]);
        self.buf.extend_from_slice(&sum.to_le_bytes());
        if f.write_all(&self.buf).is_err() {
            self.file = None;
        }
    }
}

/// A game's postings in the log: its id, main-line hash and postings.
pub type Logged = (u64, u64, Vec<Entry>);

/// The games of the log at `path` written for the database with `nonce`, whole batches only,
/// with ids above `hwm`; a game logged twice (by two runs) as last logged. A game's postings
/// (all its runs of consecutive move numbers) are in one batch.
pub fn read_log(path: &Path, nonce: u64, hwm: u64) -> Vec<Logged> {
    let mut games: std::collections::BTreeMap<u64, (u64, Vec<Entry>)> = Default::default();
    let Ok(bytes) = std::fs::read(path) else { return Vec::new() };
    if bytes.len() < 16 || &bytes[..8] != LOG_MAGIC || bytes[8..16] != nonce.to_le_bytes() {
        return Vec::new();
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let mut i = 16;
    'batches: while i + 8 <= bytes.len() {
        let count = u64_at(i);
        let mut j = i + 8;
        let mut batch = Vec::new();
        for _ in 0..count {
            if j + 24 > bytes.len() {
                break 'batches;
            }
            let (game, main, first, n) = (u64_at(j), u64_at(j + 8), u32_at(j + 16), u32_at(j + 20) as usize);
            j += 24;
            let Some(end) = n.checked_mul(12).and_then(|b| b.checked_add(j)).filter(|&e| e <= bytes.len()) else {
                break 'batches;
            };
            let postings = (0..n)
                .map(|k| {
                    let at = j + 12 * k;
                    Entry { hash: u64_at(at), game, mv: first + k as u32, next: u32_at(at + 8) }
                })
                .collect();
            batch.push((game, main, postings));
            j = end;
        }
        if j + 8 > bytes.len() || xxhash_rust::xxh3::xxh3_64(&bytes[i + 8..j]) != u64_at(j) {
            break;
        }
        // A game's postings in runs of consecutive move numbers, one after another (several
        // runs: a game with variations); a game of a later batch replaces the earlier one's.
        let mut last = None;
        for (game, main, postings) in batch {
            if game > hwm {
                match games.get_mut(&game) {
                    Some(g) if last == Some(game) => g.1.extend(postings),
                    _ => {
                        games.insert(game, (main, postings));
                    }
                }
                last = Some(game);
            }
        }
        i = j + 8;
    }
    games.into_iter().map(|(g, (m, p))| (g, m, p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let dir = std::env::temp_dir().join(format!("kifu-posfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.positions");
        for n in [0usize, 1, 5, 300, 20_000] {
            let mut entries: Vec<Entry> = (0..n as u64)
                .map(|i| {
                    let hash = if i % 7 == 0 { 42 } else { xxhash_rust::xxh3::xxh3_64(&i.to_le_bytes()) };
                    Entry { hash, game: i / 3 + 1, mv: (i % 300) as u32, next: (i * 31 % 5000) as u32 }
                })
                .collect();
            entries.push(Entry { hash: u64::MAX, game: 1 << 40, mv: 0, next: 0 });
            let sorted = sort(entries.clone());
            entries.sort_unstable();
            assert_eq!(sorted, entries);
            write(&path, &entries, 99, 7).unwrap();
            let mut f = PosFile::open(&path).unwrap();
            assert_eq!((f.header.hwm, f.header.nonce, f.header.count), (99, 7, entries.len() as u64));
            assert_eq!(f.all(|_| true).unwrap(), entries);
            let streamed: Vec<Entry> = PosFile::open(&path).unwrap().stream().map(Result::unwrap).collect();
            assert_eq!(streamed, entries);
            for e in entries.iter().step_by(97) {
                let want: Vec<Entry> = entries.iter().filter(|x| x.hash == e.hash).copied().collect();
                assert_eq!(f.lookup(e.hash).unwrap(), want);
            }
            assert!(f.lookup(12345).unwrap().is_empty() || entries.iter().any(|e| e.hash == 12345));
            // A group read one posting at a time: each game's first posting, and none for a
            // game not there.
            if let Some(g) = f.group(42).unwrap() {
                let want: Vec<Entry> = entries.iter().filter(|x| x.hash == 42).copied().collect();
                assert_eq!(g.len(), want.len() as u64);
                for game in 0..n as u64 / 3 + 3 {
                    assert_eq!(g.first_of_game(game), want.iter().find(|e| e.game == game).copied());
                }
            }
            assert!(f.group(12345).unwrap().is_none() || entries.iter().any(|e| e.hash == 12345));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The postings handed over in blocks (cut between hashes, many sizes) make the same file
    /// as in one; a hash cut between two blocks, or postings out of order, make none. Narrow
    /// fields and many buckets: each head and posting in one put.
    #[test]
    fn blocks_write_the_same_file() {
        let dir = std::env::temp_dir().join(format!("kifu-posblocks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.positions");
        let mut entries: Vec<Entry> = (0..50_000u64)
            .map(|i| {
                let hash = if i % 11 == 0 { 1 << 40 } else { xxhash_rust::xxh3::xxh3_64(&(i % 30_000).to_le_bytes()) };
                Entry { hash, game: i % 4000 + 1, mv: (i % 300) as u32, next: (i * 31 % 5000) as u32 }
            })
            .collect();
        entries.sort_unstable();
        let bounds = Bounds { count: entries.len() as u64, game: 4000, mv: 299, next: 4999 };
        let write_in = |entries: &[Entry], cuts: &[usize]| {
            let mut parts: std::collections::VecDeque<Vec<Entry>> = Default::default();
            let mut at = 0;
            for &c in cuts.iter().chain([&entries.len()]) {
                parts.push_back(entries[at..c].to_vec());
                at = c;
            }
            let next = |b: &mut Vec<Entry>| Ok(parts.pop_front().map(|p| *b = p).is_some());
            let mut groups = 0;
            let r = write_blocks(&path, next, bounds, 9, 3, |_| groups += 1);
            r.map(|w| (std::fs::read(&path).unwrap()[64..].to_vec(), w.count, groups))
        };
        let whole = write_in(&entries, &[]).unwrap();
        assert_eq!(whole.1, entries.len() as u64);
        // Cuts between hashes only: the same bytes after the header.
        let mut cuts = Vec::new();
        let mut at = 1;
        while at < entries.len() {
            if entries[at].hash != entries[at - 1].hash {
                cuts.push(at);
                at += 1 + cuts.len() % 4000;
            } else {
                at += 1;
            }
        }
        assert_eq!(write_in(&entries, &cuts).unwrap(), whole);
        // A hash's postings in two blocks.
        let split = (1..entries.len()).find(|&i| entries[i].hash == entries[i - 1].hash).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(write_in(&entries, &[split]).is_err());
        assert!(!path.exists());
        // Out of order.
        entries.swap(10, 20_000);
        assert!(write_in(&entries, &[]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn log_keeps_whole_batches() {
        let dir = std::env::temp_dir().join(format!("kifu-poslog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.positions.log");
        let e = |g, mv| Entry { hash: g * 7 + mv as u64, game: g, mv, next: 2 };
        let mut log = Log::create(&path, 5);
        log.append(&[e(1, 0), e(1, 1), e(2, 0)], &[(1, 10), (2, 20)]);
        // Game 2 logged again (a later run): the last one counts.
        log.append(&[e(3, 0), e(2, 0), e(2, 1)], &[(3, 30), (2, 21)]);
        drop(log);
        let all = read_log(&path, 5, 0);
        assert_eq!(all, [(1, 10, vec![e(1, 0), e(1, 1)]), (2, 21, vec![e(2, 0), e(2, 1)]), (3, 30, vec![e(3, 0)])]);
        assert_eq!(read_log(&path, 5, 2), [(3, 30, vec![e(3, 0)])]);
        assert!(read_log(&path, 6, 0).is_empty());
        // A batch cut short is dropped.
        let len = std::fs::metadata(&path).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len - 3).unwrap();
        assert_eq!(read_log(&path, 5, 0), [(1, 10, vec![e(1, 0), e(1, 1)]), (2, 20, vec![e(2, 0)])]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
