//! Where USI games end: a game is one line whose first token is a USI keyword (the reader's
//! `is_game_line`); a chunk runs from the end of the game before
//! to the end of the next game line, so the blank and junk lines before a game go with it and a
//! game cut out of a stream reads as the same events as in the whole slice.
//!
//! Costs: a `memchr` for each line end and a look at the line's first token; the bytes of an
//! unfinished line are not scanned again after a refill. Allocates nothing.

use super::reader::is_game_line;
use crate::input::Config;
use crate::split::{Feed, Scan, Slices, Span, Window};

/// The games of a USI file as chunks (see the [module docs](self)).
///
/// ```
/// let file = b"position startpos moves 7g7f\nposition startpos moves 2g2f 8c8d\n";
/// let chunks: Vec<_> = kifu::usi::chunks(file).collect();
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].bytes, b"position startpos moves 2g2f 8c8d\n");
/// ```
pub fn chunks(input: &[u8]) -> Chunks<'_> {
    Slices::new(input, Scanner::new(Config::default()))
}

/// Iterator returned by [`chunks`].
pub type Chunks<'a> = Slices<'a, Scanner>;

/// The USI boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    /// The current game's start.
    start: u64,
    /// The next line to look at.
    pos: u64,
    /// A UTF-8 BOM has been looked for.
    begun: bool,
    /// The current game is dropped (over the size limit).
    dropping: bool,
    done: bool,
}

impl Scanner {
    /// A scanner for a file read with `config`.
    pub fn new(_config: Config) -> Scanner {
        Scanner { start: 0, pos: 0, begun: false, dropping: false, done: false }
    }
}

/// A line without its `\r`.
fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
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
            self.start = if data.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
            self.pos = self.start;
        }
        loop {
            let mut p = w.index(self.pos);
            let found = loop {
                if p >= data.len() {
                    break None;
                }
                let Some(k) = memchr::memchr(b'\n', &data[p..]) else {
                    if eof && is_game_line(trim_cr(&data[p..])) {
                        p = data.len();
                        break Some(p);
                    }
                    if eof {
                        p = data.len();
                    }
                    break None;
                };
                let e = p + k;
                let game = is_game_line(trim_cr(&data[p..e]));
                p = e + 1;
                if game {
                    break Some(p);
                }
            };
            let end = match found {
                Some(s) => s,
                None if eof => data.len(),
                None => {
                    self.pos = base + p as u64;
                    let keep = if self.dropping { self.pos } else { self.start };
                    return Feed::Need { keep };
                }
            };
            let game = (self.start, base + end as u64);
            self.start = game.1;
            self.pos = game.1;
            if found.is_none() {
                self.done = true;
            }
            if std::mem::replace(&mut self.dropping, false) {
                if self.done {
                    return Feed::End;
                }
                continue;
            }
            let bytes = &data[w.index(game.0)..end];
            if found.is_none() && bytes.iter().all(u8::is_ascii_whitespace) {
                return Feed::End;
            }
            return Feed::Game(Span::new(game.0, game.1, w.position(game.0)));
        }
    }

    /// Drops the game: the scan goes on to its end, and the next game starts there.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}
