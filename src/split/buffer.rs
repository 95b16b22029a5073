//! The refill buffer the streaming splitter reads through: a window of the stream addressed by stream offsets,
//! that keeps what the splitter still needs, drops the rest, and counts lines as it goes.
//!
//! Costs: one copy of every byte from the reader into the window, one `copy_within` of the bytes
//! kept across a refill (the unfinished game), and one `memchr2` pass for line counting. The
//! window starts at 8 KiB, goes to 64 KiB when the stream is longer, and then grows only when one
//! game does not fit in it, by a quarter of its size (at least [`MIN_CAPACITY`]), so its size
//! stays below the largest game (with its look-ahead) + 128 KiB while games are under 256 KiB,
//! and below 1.25 × the largest game + 64 KiB beyond: growing by a constant step instead would
//! make reading one huge game quadratic.

use crate::error::{Error, Position};
use std::io::{self, Read};

/// The window's size once a stream is longer than [`FIRST_CAPACITY`], and its smallest growth.
pub const MIN_CAPACITY: usize = 64 * 1024;

/// The window's first size: enough for a typical one-game file, so that opening many small
/// files costs little.
pub const FIRST_CAPACITY: usize = 8 * 1024;

/// Counts lines over the stream, byte run after byte run, with the rule of
/// [`LineIndex`](crate::LineIndex): a line ends at LF, at CRLF, or at a CR not followed by LF.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    /// Stream offset counted up to.
    offset: u64,
    line: u64,
    line_start: u64,
    /// The byte before `offset` is a CR whose line end is not counted yet (its next byte is
    /// unknown).
    cr: bool,
}

impl Lines {
    pub(crate) fn new() -> Lines {
        Lines { offset: 0, line: 1, line_start: 0, cr: false }
    }

    /// Counts `bytes`, the stream's bytes from `self.offset` on.
    pub(crate) fn advance(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.cr {
            self.cr = false;
            if bytes[0] != b'\n' {
                self.line += 1;
                self.line_start = self.offset;
            }
        }
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            let abs = self.offset + i as u64;
            if bytes[i] == b'\r' {
                match bytes.get(i + 1) {
                    Some(b'\n') => continue,
                    Some(_) => {}
                    None => {
                        self.cr = true;
                        continue;
                    }
                }
            }
            self.line += 1;
            self.line_start = abs + 1;
        }
        self.offset += bytes.len() as u64;
    }

    /// The position of `self.offset`, whose byte is `next` (`None` at the end of the stream).
    pub(crate) fn position(&self, next: Option<u8>) -> Position {
        if self.cr && next != Some(b'\n') {
            return Position { offset: self.offset, line: self.line + 1, column: 1 };
        }
        Position { offset: self.offset, line: self.line, column: self.offset - self.line_start + 1 }
    }
}

/// The position of stream offset `at` in `data` (the stream's bytes from `base`), counting the
/// lines of the bytes between the last offset counted and `at`.
pub(crate) fn locate(lines: &mut Lines, data: &[u8], base: u64, at: u64) -> Position {
    debug_assert!(at >= lines.offset && at >= base && at <= base + data.len() as u64);
    let from = (lines.offset.max(base) - base) as usize;
    let to = ((at.max(base) - base) as usize).min(data.len()).max(from);
    lines.advance(&data[from..to]);
    lines.position(data.get(to).copied())
}

/// A window over a stream: `data[start..end]` holds the stream's bytes from offset `base + start`.
pub(crate) struct Buffer<R> {
    read: R,
    data: Vec<u8>,
    /// Stream offset of `data[0]`.
    base: u64,
    end: usize,
    eof: bool,
    lines: Lines,
}

impl<R> Buffer<R> {
    /// The window's size in bytes (for memory measurements).
    pub(crate) fn capacity(&self) -> usize {
        self.data.len()
    }
}

impl<R: Read> Buffer<R> {
    pub(crate) fn new(read: R) -> Buffer<R> {
        Buffer { read, data: Vec::new(), base: 0, end: 0, eof: false, lines: Lines::new() }
    }

    /// Whether the reader has reported its end.
    #[inline]
    pub(crate) fn eof(&self) -> bool {
        self.eof
    }

    /// The stream offset just past the last byte read.
    #[inline]
    pub(crate) fn end_offset(&self) -> u64 {
        self.base + self.end as u64
    }

    /// Stream offset of the first byte of [`Buffer::data`].
    #[inline]
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// The bytes in the window (from stream offset [`Buffer::base`]).
    #[inline]
    pub(crate) fn data(&self) -> &[u8] {
        &self.data[..self.end]
    }

    /// The line and column of stream offset `at`, which must be in the window and not before any
    /// offset asked for earlier (positions are asked for in stream order).
    pub(crate) fn position(&mut self, at: u64) -> Position {
        locate(&mut self.lines, &self.data[..self.end], self.base, at)
    }

    /// The window as a scanner sees it: its bytes, their stream offset, whether the stream ends
    /// after them, and the line counter.
    pub(crate) fn window(&mut self) -> super::Window<'_> {
        super::Window { bytes: &self.data[..self.end], base: self.base, eof: self.eof, lines: &mut self.lines }
    }

    /// Reads more: drops the bytes before stream offset `keep` (which must be in the window),
    /// grows the window if what is kept fills it, then reads until it is full or the stream
    /// ends. Returns `Ok(false)` when nothing more could be read (the stream has ended).
    pub(crate) fn fill(&mut self, keep: u64) -> Result<bool, Error> {
        if self.eof {
            return Ok(false);
        }
        let keep = keep.clamp(self.base, self.end_offset());
        // Count the lines of what is dropped.
        if keep > self.lines.offset {
            let from = (self.lines.offset.max(self.base) - self.base) as usize;
            let to = (keep - self.base) as usize;
            self.lines.advance(&self.data[from..to]);
        }
        let drop = (keep - self.base) as usize;
        if drop > 0 {
            self.data.copy_within(drop..self.end, 0);
            self.end -= drop;
            self.base = keep;
        }
        // Start small (most single-game files are a few KiB), go to MIN_CAPACITY once the
        // stream turns out longer, and grow beyond only when one game fills the window.
        // `reserve_exact` first: a plain `resize` may double the capacity.
        let len = self.data.len();
        let want = if len == 0 {
            FIRST_CAPACITY
        } else if len < MIN_CAPACITY {
            MIN_CAPACITY
        } else if self.end == len {
            len + (len / 4).max(MIN_CAPACITY)
        } else {
            len
        };
        if want > len {
            self.data.reserve_exact(want - len);
            self.data.resize(want, 0);
        }
        let before = self.end;
        while self.end < self.data.len() {
            match self.read.read(&mut self.data[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.end += n.min(self.data.len() - self.end),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.eof = true;
                    let at = self.end_offset();
                    return Err(Error::io(e, Position { offset: at, line: 0, column: 0 }));
                }
            }
        }
        Ok(self.end > before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::LineIndex;

    #[test]
    fn lines_match_line_index_across_splits() {
        let input = b"ab\r\ncd\ref\n\rg\r\r\nh\r";
        for split in 0..=input.len() {
            for at in split..=input.len() {
                let mut l = Lines::new();
                l.advance(&input[..split]);
                l.advance(&input[split..at]);
                let expect = LineIndex::new().locate(input, at as u64);
                assert_eq!(l.position(input.get(at).copied()), expect, "split {split} at {at}");
            }
        }
    }
}
