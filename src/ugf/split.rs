//! Where UGF games end: a game runs from its `[Header]` line to the next `[Header]` line or the
//! end of the stream (the reader's rule); a chunk runs from the end of the game before, so the
//! junk lines before a game go with it. Lines after the last game make a chunk of their own when
//! they are not blank (their warnings then come as in a slice).
//!
//! Costs: a `memchr` for each line end and a look at the trimmed line; the lines of a game are
//! not scanned again after a refill. Allocates nothing.

use super::reader::is_start;
use crate::input::Config;
use crate::split::{Feed, Scan, Slices, Span, Window};
use crate::text::Charset;

/// The games of a UGF file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"[Header]\nSize=19\n[Data]\nQD,B1,1,0\n[Header]\nSize=9\n";
/// let chunks: Vec<_> = kifu::ugf::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"[Header]\nSize=9\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The UGF boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    /// The current chunk's start.
    start: u64,
    /// The next line to look at.
    pos: u64,
    /// A game's `[Header]` line has been seen in the current chunk.
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
            let t = line.trim_ascii();
            let end = if !self.in_game {
                self.in_game = is_start(t);
                self.pos = base + next as u64;
                continue;
            } else if is_start(t) {
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
