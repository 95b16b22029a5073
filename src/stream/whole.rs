//! Inputs read whole: an input up to a size limit is read into one buffer and parsed by its
//! format's slice reader directly — offsets right from the start, no boundary scan, no shifting
//! of each event — while a larger one is handed back as a stream for a [splitter](super::splitter),
//! so that memory stays bounded by the limit (or by the largest game) whatever the input's size.
//!
//! Reading, not memory-mapping: `profiling/read_or_map.rs` compares the two (every event of every
//! file pulled, on 1 and 2 threads; 2026-11-28, a shared 2-core machine whose speed varied, so
//! ranges over three runs). On sgf/collections (20 files, 0.8 MB on average) mapping saved the
//! copy: 8% at one thread in the quietest run, more in noisier ones, and 3% or less of wall
//! time at two. On sgf/real-ai (7,260 files, 1.4 KB on average) it lost: 1.1–1.7× the time at one thread
//! and 6–9× at two, each map and unmap a system call and each unmap, with two threads, a flush of
//! the other core's address translations. Mapping also needs `unsafe`, and a mapped file that
//! another process truncates kills the reader with `SIGBUS`, where a read returns what is there.
//! So inputs are read into a buffer kept between inputs: one copy, which the page cache makes
//! cheap beside parsing.
//!
//! ```
//! use kifu::stream::whole::{load, Loaded};
//!
//! let mut buf = Vec::new();
//! let small = Box::new(&b"(;B[aa])"[..]);
//! assert!(matches!(load(small, 1024, &mut buf).unwrap(), Loaded::Whole(b"(;B[aa])")));
//! let big = Box::new(&b"(;B[aa])(;B[bb])"[..]);
//! let Loaded::Stream(mut rest) = load(big, 10, &mut buf).unwrap() else { panic!() };
//! let mut all = Vec::new();
//! rest.read_to_end(&mut all).unwrap();
//! assert_eq!(all, b"(;B[aa])(;B[bb])"); // nothing lost
//! # use std::io::Read;
//! ```

use std::io::{self, Read};

/// The size up to which the CLI reads an input whole: 16 MiB (a larger one is streamed, so that
/// a huge file is read in bounded memory; a game record file is rarely larger).
pub const WHOLE_LIMIT: usize = 16 << 20;

/// What [`load`] made of an input.
pub enum Loaded<'b, 'r> {
    /// The whole input, in the caller's buffer.
    Whole(&'b [u8]),
    /// Longer than the limit: the bytes read so far followed by the rest, as one stream.
    Stream(Box<dyn Read + 'r>),
}

impl std::fmt::Debug for Loaded<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loaded::Whole(b) => f.debug_tuple("Whole").field(&b.len()).finish(),
            Loaded::Stream(_) => f.write_str("Stream"),
        }
    }
}

/// Reads `reader` into `buf` if it holds at most `limit` bytes; otherwise gives back a stream of
/// all its bytes (those read, then the rest), and `buf` gives up its memory to it.
///
/// `buf`'s old bytes are overwritten, and its length is kept (not cleared) for the next input:
/// bytes once zeroed are not zeroed again. (`read_to_end` through a boxed reader zeroes every
/// fresh buffer before reading into it, because a wrapper cannot forward `read_buf` on stable
/// Rust: 8% of `kifu stats`'s instructions on sgf/collections went to that `memset`.)
pub fn load<'b, 'r>(mut reader: Box<dyn Read + 'r>, limit: usize, buf: &'b mut Vec<u8>) -> io::Result<Loaded<'b, 'r>> {
    // One byte over the limit says the input is longer than it.
    let filled = fill(&mut reader, limit.saturating_add(1), buf)?;
    if filled <= limit {
        return Ok(Loaded::Whole(&buf[..filled]));
    }
    buf.truncate(filled);
    let mut head = std::mem::take(buf);
    head.shrink_to_fit();
    Ok(Loaded::Stream(Box::new(Head { head, at: 0, rest: reader })))
}

/// Reads all of `reader` into `buf` and gives the bytes read, with [`load`]'s reuse of `buf`: its
/// length is kept for the next input, so that memory once zeroed is not zeroed again.
///
/// ```
/// let mut buf = Vec::new();
/// let bytes = kifu::stream::whole::read_all(&mut &b"(;B[aa])"[..], &mut buf).unwrap();
/// assert_eq!(bytes, b"(;B[aa])");
/// ```
pub fn read_all<'b>(reader: &mut dyn Read, buf: &'b mut Vec<u8>) -> io::Result<&'b [u8]> {
    let filled = fill(reader, usize::MAX, buf)?;
    Ok(&buf[..filled])
}

/// Reads `reader` into `buf` until its end or `cap` bytes, growing `buf` (and zeroing only what
/// it grows by) as needed; gives the number of bytes read.
fn fill(reader: &mut dyn Read, cap: usize, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut filled = 0;
    loop {
        let end = buf.len().min(cap);
        if filled == end {
            if end == cap {
                return Ok(filled);
            }
            // 64 KiB first, then doubling, never past `cap`.
            let grown = (buf.len().saturating_mul(2)).max(64 << 10).min(cap);
            buf.resize(grown, 0);
            continue;
        }
        match reader.read(&mut buf[filled..end]) {
            Ok(0) => return Ok(filled),
            Ok(n) => filled += n.min(end - filled),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The bytes read so far, then the rest of the input; the first part's memory is given back as
/// soon as it has been read (a `Cursor` chained to the rest would hold it to the end).
struct Head<R> {
    head: Vec<u8>,
    at: usize,
    rest: R,
}

impl<R: Read> Read for Head<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len() {
            let n = out.len().min(self.head.len() - self.at);
            out[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            if self.at == self.head.len() {
                self.head = Vec::new();
                self.at = 0;
            }
            return Ok(n);
        }
        self.rest.read(out)
    }
}
