//! Where GIB games end, as the private `frame` module says: a chunk runs from the end of the game before
//! (so the blank and junk lines before a game go with it) to just past the game's `\GE` line, or
//! to the next `\HS` line, or to the end of the stream. Lines after the last game make a chunk of
//! their own when they are not blank (their warnings then come as in a slice).
//!
//! Costs: a `memchr` for each line end and a look at the trimmed line; the lines of a game are
//! not scanned again after a refill. Allocates nothing.

use super::frame::{is_start, trim};
use crate::input::Config;
use crate::split::{Feed, Scan, Slices, Span, Window};
use crate::text::Charset;

/// The games of a GIB file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"\\HS\n\\HE\n\\GS\nSTO 0 2 1 3 3\n\\GE\n\\HS\n\\HE\n\\GS\n\\GE\n";
/// let chunks: Vec<_> = kifu::gib::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"\\HS\n\\HE\n\\GS\n\\GE\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The GIB boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    /// The current chunk's start.
    start: u64,
    /// The next line to look at.
    pos: u64,
    /// A game's start line has been seen in the current chunk.
    in_game: bool,
    /// The stream starts with a UTF-8 BOM: every game is UTF-8.
    bom: bool,
    begun: bool,
    dropping: bool,
    done: bool,
}

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(_config: Config) -> Scanner {
        Scanner { start: 0, pos: 0, in_game: false, bom: false, begun: false, dropping: false, done: false }
    }

    fn span(&self, w: &mut Window<'_>, start: u64, end: u64) -> Span {
        let mut s = Span::new(start, end, w.position(start));
        s.charset = self.bom.then_some(Charset::Utf8);
        s
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if self.done {
            return Feed::End;
        }
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        if !self.begun {
            if !eof && data.len() < 3 {
                return Feed::Need { keep: 0 };
            }
            self.begun = true;
            self.bom = data.starts_with(&[0xEF, 0xBB, 0xBF]);
            self.start = if self.bom { 3 } else { 0 };
            self.pos = self.start;
        }
        loop {
            let p = w.index(self.pos);
            let (line, next) = match memchr::memchr(b'\n', &data[p..]) {
                Some(k) => (&data[p..p + k], p + k + 1),
                None if !eof => {
                    let keep = if self.dropping { self.pos } else { self.start };
                    return Feed::Need { keep };
                }
                None if p < data.len() => (&data[p..], data.len()),
                None => {
                    // The end of the stream: a game cut short, or lines after the last game.
                    self.done = true;
                    let (start, end) = (self.start, base + data.len() as u64);
                    let junk = !self.in_game && data[w.index(start)..].iter().all(u8::is_ascii_whitespace);
                    if std::mem::replace(&mut self.dropping, false) || junk || start >= end {
                        return Feed::End;
                    }
                    return Feed::Game(self.span(w, start, end));
                }
            };
            let t = trim(line);
            let end = if !self.in_game {
                self.in_game = is_start(t);
                self.pos = base + next as u64;
                continue;
            } else if t == b"\\GE" {
                base + next as u64
            } else if t == b"\\HS" {
                base + p as u64
            } else {
                self.pos = base + next as u64;
                continue;
            };
            let start = self.start;
            self.start = end;
            self.pos = end;
            self.in_game = false;
            if std::mem::replace(&mut self.dropping, false) {
                continue;
            }
            return Feed::Game(self.span(w, start, end));
        }
    }

    /// Drops the game: the scan goes on to its end, and the next chunk starts there.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}
