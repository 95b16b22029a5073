//! Where the games of Kakinoki's formats end (KIF and KI2 alike): a game's header line
//! (`KEY：value`, a diagram line, a hand, a `#` line) after the moves of the game before starts
//! the next game, by the same rule the readers' layout scan uses (`scan::is_boundary`), so a game
//! cut out of a stream reads as the same events as in the whole slice. Each format gives its own
//! line classifier.
//!
//! The file's charset is fixed from its first [`CONTEXT_LEN`] bytes by the readers' rule (a BOM,
//! a `#KIF … encoding=` line, else UTF-8 when those bytes are valid UTF-8, else CP932) and given
//! to every chunk.
//! Costs: a `memchr` for each line end and a look at the line's first characters; the bytes of
//! an unfinished game are not scanned again after a refill. Allocates nothing.

use super::charset::file_charset;
use super::lex::{Enc, Kind};
use super::scan::is_boundary;
use crate::input::Config;
use crate::split::{Feed, Scan, Span, Window};
use crate::text::Charset;

/// How many bytes of a stream the file's charset is taken from.
pub(crate) const CONTEXT_LEN: usize = 64 * 1024;

/// The boundary scanner of a Kakinoki format (see the [module docs](self)), judging lines with
/// the format's own classifier.
#[derive(Clone, Debug)]
pub(crate) struct LineScanner {
    config: Config,
    /// The format's line classifier.
    classify: fn(&[u8], Enc) -> Kind,
    charset: Option<Charset>,
    /// The current game's start.
    start: u64,
    /// The next line to look at.
    pos: u64,
    /// Moves were seen in the current game.
    body: bool,
    /// The current game is dropped (over the size limit).
    dropping: bool,
    done: bool,
}

impl LineScanner {
    /// A scanner for a file read with `config`, its lines judged by `classify`.
    pub(crate) fn new(config: Config, classify: fn(&[u8], Enc) -> Kind) -> LineScanner {
        LineScanner { config, classify, charset: None, start: 0, pos: 0, body: false, dropping: false, done: false }
    }
}

impl Scan for LineScanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if self.done {
            return Feed::End;
        }
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        if self.charset.is_none() {
            let want = (CONTEXT_LEN as u64).min(self.config.limits.max_game_len) as usize;
            if !eof && data.len() < want {
                return Feed::Need { keep: 0 };
            }
            self.charset = Some(file_charset(data, eof));
            self.start = if data.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
            self.pos = self.start;
        }
        let charset = self.charset.unwrap_or(Charset::Utf8);
        let enc = if charset == Charset::ShiftJis { Enc::Sjis } else { Enc::Utf8 };
        loop {
            let mut p = w.index(self.pos);
            let found = loop {
                if p >= data.len() {
                    break None;
                }
                let Some(k) = memchr::memchr2(b'\n', b'\r', &data[p..]) else {
                    if !eof {
                        break None;
                    }
                    let kind = (self.classify)(&data[p..], enc);
                    if is_boundary(kind, &mut self.body) {
                        break Some(p);
                    }
                    p = data.len();
                    break None;
                };
                let e = p + k;
                // A CR at the window's end may be followed by its LF.
                if data[e] == b'\r' && e + 1 == data.len() && !eof {
                    break None;
                }
                let kind = (self.classify)(&data[p..e], enc);
                if is_boundary(kind, &mut self.body) {
                    break Some(p);
                }
                p = if data[e] == b'\r' && data.get(e + 1) == Some(&b'\n') { e + 2 } else { e + 1 };
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
            let mut span = Span::new(game.0, game.1, w.position(game.0));
            span.charset = Some(charset);
            return Feed::Game(span);
        }
    }

    /// Drops the game: the scan goes on to its end, and the next game starts there.
    fn drop_game(&mut self, _start: u64) {
        self.dropping = true;
    }
}
