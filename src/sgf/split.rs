//! The SGF boundary scanner and splitter: cuts whole games out of any
//! [`io::Read`](std::io::Read), so that the slice [`Reader`](super::Reader) can parse each one
//! while memory stays bounded by the largest game.
//!
//! A game's byte range is found with the rules of the slice reader, which live once in `scan`
//! (`game_start_at`, `new_game_at`, `root_info`, `tree_end`) and are called here on the
//! window with `eof` false:
//! - between games, white space is skipped; a game starts at `(` followed (after white space) by
//!   `;` or by an identifier and `[`, or, as the first thing in the stream, at a `;` followed by
//!   an identifier and `[` (a game that lost its `(`, which the end of the stream, a `)` with no
//!   tree open or a `(;GM[` closes); any other bytes are junk, reported once per run as
//!   `JunkBeforeGame`, `JunkBetweenGames` or `JunkAfterGames` (in [`GameChunk::junk`]);
//! - the game's charset is fixed as the reader fixes it (a UTF-8 BOM at the start of the stream,
//!   else `CA[]` in the root node, else the detection rule over the game's bytes), so that values
//!   are stepped over exactly as the reader steps over them (`\` escapes, two-byte characters in
//!   Shift_JIS, GBK and Big5);
//! - the game ends at the `)` that closes it, or just before a `(;GM[` / `(;FF[` inside it (the
//!   reader closes such a game with a `Truncated` warning), or at the end of the stream.
//!
//! Reading the chunks with [`crate::stream::Shifted`] gives the same events, offsets, lines and
//! columns as reading the whole stream as one slice, up to the first error (after an error the
//! slice reader resynchronises inside the broken game, the splitter after it). A game without a
//! known `CA[]` has its charset detected by the splitter (for a game cut short by `(;GM[`, over
//! bytes past its end, as the slice reader does); the result is fixed in
//! [`ChunkContext::charset`](crate::input::ChunkContext::charset) (with [`GameChunk::start_warning`] for an unknown label), so the
//! chunk's reader does not detect it again. One difference remains: when the root scan (in UTF-8,
//! before the charset is known) runs past the game's end and finds a `CA` label after it (a
//! value ends in a two-byte character whose trail byte is `\`), the slice reader warns about that
//! label at its offset beyond the game; the splitter gives no warning.
//!
//! Costs: each byte is copied once into the window and scanned once (plus a re-scan of the value
//! or tag the window ended in after a refill); a game
//! without `CA[]` that is not forced to UTF-8 is also checked by `from_utf8` (and by `chardetng`
//! when it is not UTF-8). No allocation per game.

use super::scan::{self, Look, TreeEnd};
use crate::error::{Error, ErrorKind, Position, WarningKind};
use crate::format::Format;
use crate::input::{Config, GameChunk};
use crate::split::{Feed, Scan, Span, Streaming, Window};
use crate::text::{detect_charset, Charset};
use std::io::Read;

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

fn ws_from(data: &[u8], mut p: usize) -> usize {
    while p < data.len() && is_ws(data[p]) {
        p += 1;
    }
    p
}

/// What is known so far about the game being cut.
#[derive(Clone, Copy, Debug)]
struct Game {
    start: u64,
    position: Position,
    junk: Option<(WarningKind, Position)>,
    charset: Option<Charset>,
    /// When the charset was detected: the offset of the root's unknown `CA` label if it had one.
    detected: Option<Option<u64>>,
    /// Tree scan: resume offset and depth.
    pos: u64,
    depth: u32,
    /// The game lost its `(` and starts at its first `;` (see `scan::bare_game_at`).
    bare: bool,
}

/// The SGF boundary scanner (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Scanner {
    config: Config,
    started: bool,
    /// A charset fixed for every game (a UTF-8 BOM at the start of the stream).
    forced: Option<Charset>,
    games: u64,
    /// Between games: where the scan resumes.
    pos: u64,
    junk: Option<Position>,
    /// The last game ended in an error: no junk warning for what is skipped after it.
    recovering: bool,
    game: Option<Game>,
}

impl Scanner {
    /// A scanner for a stream read with `config` (`config.limits.max_game_len` bounds the
    /// charset detection's look-ahead).
    pub fn new(config: Config) -> Scanner {
        Scanner { config, started: false, forced: None, games: 0, pos: 0, junk: None, recovering: false, game: None }
    }

    /// Finds the next game start from `self.pos`, noting junk: `Ok(Some(offset))`, `Ok(None)` at
    /// the end of the stream, `Err(keep)` when more bytes are needed.
    fn find_game(&mut self, w: &mut Window<'_>) -> Result<Option<u64>, u64> {
        // Before any game and any junk, only white space (and a BOM) has been passed: a `;` here
        // is the first thing in the stream, where a game may have lost its `(`.
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        let mut i = w.index(self.pos);
        loop {
            if self.junk.is_some() {
                i = memchr::memchr(b'(', &data[i..]).map_or(data.len(), |k| i + k);
            } else {
                i = ws_from(data, i);
            }
            if i >= data.len() {
                self.pos = base + i as u64;
                return if eof { Ok(None) } else { Err(self.pos) };
            }
            // A game starts at `(` (the reader's rule), or at a bare `;` first in the input.
            let start = match data[i] {
                b'(' => scan::game_start_at(data, i, eof),
                b';' if self.games == 0 && self.junk.is_none() => scan::bare_game_at(data, i, eof),
                _ => Look::Known(false),
            };
            match start {
                Look::Known(true) => {
                    self.pos = base + i as u64;
                    return Ok(Some(self.pos));
                }
                Look::More => {
                    self.pos = base + i as u64;
                    return Err(self.pos);
                }
                Look::Known(false) => {}
            }
            if self.junk.is_none() {
                self.junk = Some(w.position(base + i as u64));
            }
            i += 1;
        }
    }

    /// Goes on cutting `game`; `Some(end)` once its end is known.
    fn scan_game(&self, game: &mut Game, w: &Window<'_>) -> Option<u64> {
        let (data, base, eof) = (w.bytes(), w.base(), w.eof());
        let g = w.index(game.start);
        if game.charset.is_none() {
            if let Some(f) = self.forced {
                game.charset = Some(f);
            } else {
                let from = if game.bare { g } else { g + 1 };
                let Look::Known(root) = scan::root_info(data, from, eof) else {
                    return None;
                };
                let label = root.charset;
                match label.and_then(Charset::from_label) {
                    Some(c) => game.charset = Some(c),
                    None => {
                        let e1 = scan::game_end(data, g + 1, 1, Charset::Utf8);
                        let capped = (data.len() - g) as u64 > self.config.limits.max_game_len;
                        if e1.is_none() && !eof && !capped {
                            return None;
                        }
                        let stop = e1.unwrap_or(data.len());
                        game.charset = Some(detect_charset(&data[g..stop]));
                        let label_at = label.map(|l| base + (l.as_ptr() as usize - data.as_ptr() as usize) as u64);
                        game.detected = Some(label_at);
                    }
                }
            }
        }
        let cs = game.charset.unwrap_or(Charset::Utf8);
        match scan::tree_end(data, w.index(game.pos), game.depth, cs, eof) {
            TreeEnd::Closed(e) | TreeEnd::NewGame(e) => Some(base + e as u64),
            TreeEnd::Eof { .. } | TreeEnd::OpenValue(_) => Some(w.end()),
            TreeEnd::More { at, depth } => {
                game.pos = base + at as u64;
                game.depth = depth;
                None
            }
        }
    }
}

impl Scan for Scanner {
    fn feed(&mut self, w: &mut Window<'_>) -> Feed {
        if !self.started {
            let head = w.bytes();
            if head.len() < 3 && !w.eof() {
                return Feed::Need { keep: 0 };
            }
            self.started = true;
            if head.len() >= 2 && (head[..2] == [0xFF, 0xFE] || head[..2] == [0xFE, 0xFF]) {
                self.pos = u64::MAX;
                let pos = w.position(0);
                return Feed::Error(Error::new(
                    ErrorKind::Encoding,
                    pos,
                    "UTF-16 input: transcode it first (kifu::input::prepare)",
                ));
            }
            if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
                self.pos = 3;
                self.forced = Some(Charset::Utf8);
            }
        }
        if self.pos == u64::MAX {
            return Feed::End;
        }
        let mut game = match self.game {
            Some(game) => game,
            None => {
                let found = match self.find_game(w) {
                    Ok(found) => found,
                    Err(keep) => return Feed::Need { keep },
                };
                let recovering = std::mem::replace(&mut self.recovering, false);
                let junk = self.junk.take().filter(|_| !recovering);
                let Some(g) = found else {
                    self.pos = u64::MAX;
                    let Some(p) = junk else { return Feed::End };
                    let kind = if self.games == 0 { WarningKind::JunkBeforeGame } else { WarningKind::JunkAfterGames };
                    let end = w.end();
                    let mut span = Span::new(end, end, w.position(end));
                    span.junk = Some((kind, p));
                    return Feed::Game(span);
                };
                let kind = if self.games == 0 { WarningKind::JunkBeforeGame } else { WarningKind::JunkBetweenGames };
                self.games += 1;
                Game {
                    start: g,
                    position: w.position(g),
                    junk: junk.map(|p| (kind, p)),
                    charset: None,
                    detected: None,
                    pos: g + 1,
                    depth: 1,
                    bare: w.bytes()[w.index(g)] == b';',
                }
            }
        };
        let Some(end) = self.scan_game(&mut game, w) else {
            self.game = Some(game);
            return Feed::Need { keep: game.start };
        };
        self.game = None;
        self.pos = end;
        let cs = game.charset.unwrap_or(Charset::Utf8);
        // A charset detected here is fixed for the chunk's reader, which would otherwise detect
        // again (chardetng is the most expensive step per byte of the whole read) and, for a game
        // cut short by `(;GM[`, over a different range. The unknown-label warning that fixing it
        // silences in the reader is carried instead.
        let mut span = Span::new(game.start, end, game.position);
        span.charset = self.forced;
        span.junk = game.junk;
        if let (None, Some(label_at)) = (self.forced, game.detected) {
            span.charset = Some(cs);
            // A label the UTF-8 root scan found past the game's end (after a value whose escape
            // only the detected charset undoes) is not this game's: no warning for it here.
            span.start_warning =
                label_at.filter(|&at| at < end).map(|at| (WarningKind::UnknownCharset, w.position(at)));
        }
        Feed::Game(span)
    }

    /// Drops the game: the scan resumes just after its `(`, as after junk, with no junk warning
    /// for what it skips.
    fn drop_game(&mut self, start: u64) {
        self.game = None;
        self.pos = start + 1;
        self.recovering = true;
    }
}

/// Cuts SGF games out of an [`io::Read`](std::io::Read): a [`Streaming`] splitter driven by
/// [`Scanner`]; see the [module docs](self).
///
/// ```
/// use kifu::stream::Shifted;
/// use kifu::{Config, Event, EventSource};
///
/// let data = &b"(;GM[1];B[aa]) junk (;GM[1];W[bb])"[..];
/// let mut split = kifu::sgf::Splitter::new(data, Config::default());
/// let mut starts = Vec::new();
/// while let Some(chunk) = split.next_game() {
///     let chunk = chunk.unwrap();
///     let mut events = Shifted::new(kifu::sgf::Reader::new(chunk.bytes), &chunk, Config::default());
///     while let Some(ev) = events.next_event() {
///         if let Event::GameStart { offset } = ev.unwrap() {
///             starts.push(offset);
///         }
///     }
/// }
/// assert_eq!(starts, [0, 20]);
/// ```
#[derive(Debug)]
pub struct Splitter<R> {
    inner: Streaming<R, Scanner>,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `read` (no need to wrap it in a `BufReader`: the splitter has its own
    /// window). `config.limits.max_game_len` bounds the window.
    pub fn new(read: R, config: Config) -> Splitter<R> {
        Splitter { inner: Streaming::new(Format::Sgf, read, Scanner::new(config), config) }
    }

    /// The number of games cut so far.
    pub fn games(&self) -> u64 {
        self.inner.games()
    }

    /// The size of the window in bytes: the splitter's memory besides the reader's own.
    pub fn window_len(&self) -> usize {
        self.inner.window_len()
    }

    /// The next game, an error (I/O, a game over the size limit), or `None` at the end.
    pub fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        self.inner.next_game()
    }
}

impl<R: Read> crate::split::Splitter for Splitter<R> {
    fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        self.inner.next_game()
    }

    fn format(&self) -> Format {
        Format::Sgf
    }
}
