//! Where NGF games end: a game runs from its first non-blank line through its header lines and
//! its `PM` move lines; the first line after a move line that is neither blank nor a move line
//! starts the next game (the reader's rule). A chunk runs from the end of the game before, so
//! blank lines between games go with the game before.
//!
//! Costs: a `memchr` for each line end and a look at the trimmed line; the lines of a game are
//! not scanned again after a refill. Allocates nothing.

use super::reader::is_move_line;
use crate::input::Config;
use crate::split::{Feed, Scan, Slices, Span, Window};
use crate::text::Charset;

/// The games of an NGF file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"Game\n19\nA 1D\nB 2D\nsite\n0\n0\n6\n20200101\n5\nBlack wins by resign!\n1\nPMABBDDDD\nNext\n19\n";
/// let chunks: Vec<_> = kifu::ngf::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"Next\n19\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The NGF boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    start: u64,
    pos: u64,
    /// A move line of the current game has been seen.
    moves: bool,
    bom: bool,
    begun: bool,
    dropping: bool,
    done: bool,
}

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(_config: Config) -> Scanner {
        Scanner { start: 0, pos: 0, moves: false, bom: false, begun: false, dropping: false, done: false }
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
                    self.done = true;
                    let (start, end) = (self.start, base + data.len() as u64);
                    let blank = data[w.index(start)..].iter().all(u8::is_ascii_whitespace);
                    if std::mem::replace(&mut self.dropping, false) || blank || start >= end {
                        return Feed::End;
                    }
                    return Feed::Game(self.span(w, start, end));
                }
            };
            let t = line.trim_ascii();
            if is_move_line(t) {
                self.moves = true;
            } else if self.moves && !t.is_empty() {
                let (start, end) = (self.start, base + p as u64);
                self.start = end;
                self.pos = end;
                self.moves = false;
                if std::mem::replace(&mut self.dropping, false) {
                    continue;
                }
                return Feed::Game(self.span(w, start, end));
            }
            self.pos = base + next as u64;
        }
    }

    /// Drops the game: the scan goes on to its end, and the next chunk starts there.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}
