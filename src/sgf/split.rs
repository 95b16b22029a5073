//! The SGF splitter: cuts whole games out of any [`io::Read`](std::io::Read), so that the slice
//! [`Reader`](super::Reader) can parse each one while memory stays bounded by the largest game.
//!
//! A game's byte range is found with the rules of the slice reader:
//! - between games, white space is skipped; a game starts at `(` followed (after white space) by
//!   `;` or by an identifier and `[`; any other bytes are junk, reported once per run as
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
//! [`ChunkContext::charset`] (with [`GameChunk::start_warning`] for an unknown label), so the
//! chunk's reader does not detect it again. One difference remains: when the root scan (in UTF-8,
//! before the charset is known) runs past the game's end and finds a `CA` label after it (a
//! value ends in a two-byte character whose trail byte is `\`), the slice reader warns about that
//! label at its offset beyond the game; the splitter gives no warning.
//!
//! Costs: each byte is copied once into the window and scanned once by `memchr` (plus a re-scan of
//! an unfinished game after a refill, amortised by the window's geometric growth); a game
//! without `CA[]` that is not forced to UTF-8 is also checked by `from_utf8` (and by `chardetng`
//! when it is not UTF-8). No allocation per game.

use super::scan;
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::format::Format;
use crate::input::{ChunkContext, Config, GameChunk};
use crate::stream::buffer::Buffer;
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

/// A decision that may need more bytes.
enum Look<T> {
    Known(T),
    More,
}

/// Whether the `(` at `p` starts a game (the reader's `game_start_at`).
fn game_start_at(data: &[u8], p: usize, eof: bool) -> Look<bool> {
    let q = ws_from(data, p + 1);
    match data.get(q) {
        None if !eof => Look::More,
        Some(b';') => Look::Known(true),
        Some(b) if b.is_ascii_alphabetic() => {
            let mut r = q;
            while r < data.len() && data[r].is_ascii_alphabetic() {
                r += 1;
            }
            let r = ws_from(data, r);
            match data.get(r) {
                None if !eof => Look::More,
                Some(b'[') => Look::Known(true),
                _ => Look::Known(false),
            }
        }
        _ => Look::Known(false),
    }
}

/// Whether the `(` at `p` inside a game opens `(;GM[` or `(;FF[` (the reader's `new_game_inside`).
fn new_game_inside(data: &[u8], p: usize, eof: bool) -> Look<bool> {
    let q = ws_from(data, p + 1);
    match data.get(q) {
        None if !eof => return Look::More,
        Some(b';') => {}
        _ => return Look::Known(false),
    }
    let q = ws_from(data, q + 1);
    match data.get(q..q + 3) {
        None if !eof => Look::More,
        Some(b"GM[") | Some(b"FF[") => Look::Known(true),
        _ => Look::Known(false),
    }
}

/// The raw `CA` value of the root node starting at `from` (just after the game's `(`), found as
/// `scan::root_info` finds it; `Look::More` when the window ends before the root node does.
/// (A copy of the `CA` half of `scan::root_info` that can tell "undecided" from "absent".)
fn root_charset(data: &[u8], from: usize, eof: bool) -> Look<Option<&[u8]>> {
    let mut label = None;
    let mut i = from;
    let mut seen_semicolon = false;
    let mut ident: &[u8] = &[];
    while i < data.len() {
        match data[i] {
            b';' => {
                if seen_semicolon {
                    return Look::Known(label);
                }
                seen_semicolon = true;
                i += 1;
            }
            b'(' | b')' => return Look::Known(label),
            b'[' => {
                let scan::End::At(e) = scan::value_end(data, i + 1, Charset::Utf8, usize::MAX) else {
                    break;
                };
                let mut up = ident.iter().filter(|c| c.is_ascii_uppercase());
                if (up.next(), up.next(), up.next()) == (Some(&b'C'), Some(&b'A'), None) && label.is_none() {
                    label = Some(&data[i + 1..e]);
                }
                i = e + 1;
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                let s = i;
                while i < data.len() && data[i].is_ascii_alphabetic() {
                    i += 1;
                }
                ident = &data[s..i];
            }
            _ => i += 1,
        }
    }
    if eof {
        Look::Known(label)
    } else {
        Look::More
    }
}

/// Where the token scan of a game stopped.
enum Tokens {
    /// The game ends just before this index.
    End(usize),
    /// The window ended: resume at this index with this depth.
    More(usize, u32),
}

/// Scans a game's tokens from `i` with `depth` open parentheses, as the reader's `token` does.
fn tokens(data: &[u8], mut i: usize, mut depth: u32, cs: Charset, eof: bool) -> Tokens {
    let multibyte = cs.has_ascii_trail_bytes();
    loop {
        // Moves and points are short: look at a few bytes before calling memchr.
        let near = data.len().min(i + 8);
        let j = match data[i..near].iter().position(|&b| matches!(b, b'[' | b'(' | b')')) {
            Some(k) => i + k,
            None => match memchr::memchr3(b'[', b'(', b')', &data[near..]) {
                Some(k) => near + k,
                None => return if eof { Tokens::End(data.len()) } else { Tokens::More(data.len(), depth) },
            },
        };
        match data[j] {
            // A two-byte value (`[pd]`) without escapes, in a charset without ASCII trail bytes.
            b'[' if !multibyte
                && data.get(j + 3) == Some(&b']')
                && !matches!(data[j + 1], b'\\' | b']')
                && !matches!(data[j + 2], b'\\' | b']') =>
            {
                i = j + 4;
            }
            b'[' => match scan::value_end(data, j + 1, cs, usize::MAX) {
                scan::End::At(e) => i = e + 1,
                _ if eof => return Tokens::End(data.len()),
                _ => return Tokens::More(j, depth),
            },
            b'(' => match new_game_inside(data, j, eof) {
                Look::More => return Tokens::More(j, depth),
                Look::Known(true) => return Tokens::End(j),
                Look::Known(false) => {
                    depth += 1;
                    i = j + 1;
                }
            },
            _ => {
                depth -= 1;
                if depth == 0 {
                    return Tokens::End(j + 1);
                }
                i = j + 1;
            }
        }
    }
}

/// What is known so far about the game being cut.
#[derive(Clone, Copy, Debug)]
struct Game {
    start: u64,
    charset: Option<Charset>,
    /// When the charset was detected: the offset of the root's unknown `CA` label if it had one.
    detected: Option<Option<u64>>,
    /// Token scan: resume offset and depth.
    pos: u64,
    depth: u32,
}

/// A game cut out of the window (stream offsets).
struct Cut {
    start: u64,
    end: u64,
    position: Position,
    charset: Option<Charset>,
    junk: Option<(WarningKind, Position)>,
    start_warning: Option<(WarningKind, Position)>,
}

/// Cuts SGF games out of an [`io::Read`](std::io::Read); see the [module docs](self).
///
/// ```
/// use kifu::stream::{Splitter as _, Shifted};
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
pub struct Splitter<R> {
    buf: Buffer<R>,
    config: Config,
    started: bool,
    done: bool,
    /// A charset fixed for every game (a UTF-8 BOM at the start of the stream).
    forced: Option<Charset>,
    games: u64,
    /// Between games: where the scan resumes.
    pos: u64,
    junk: Option<Position>,
    /// The last game ended in an error: no junk warning for what is skipped after it.
    recovering: bool,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `read` (no need to wrap it in a `BufReader`: the splitter has its own
    /// window). `config.limits.max_game_len` bounds the window.
    pub fn new(read: R, config: Config) -> Splitter<R> {
        Splitter {
            buf: Buffer::new(read),
            config,
            started: false,
            done: false,
            forced: None,
            games: 0,
            pos: 0,
            junk: None,
            recovering: false,
        }
    }

    /// The number of games cut so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The size of the window in bytes: the splitter's memory besides the reader's own.
    pub fn window_len(&self) -> usize {
        self.buf.capacity()
    }

    /// The next game, an error (I/O, a game over the size limit), or `None` at the end.
    pub fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        if self.done {
            return None;
        }
        match self.step() {
            Ok(Some(cut)) => {
                let base = self.buf.base();
                let bytes = &self.buf.data()[(cut.start - base) as usize..(cut.end - base) as usize];
                Some(Ok(GameChunk {
                    bytes,
                    offset: cut.start,
                    line: cut.position.line,
                    column: cut.position.column,
                    context: ChunkContext { charset: cut.charset, header: &[] },
                    junk: cut.junk,
                    start_warning: cut.start_warning,
                }))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => Some(Err(e)),
        }
    }

    /// Refills the window keeping everything from `keep`; `Ok(false)` at the end of the stream.
    fn fill(&mut self, keep: u64) -> Result<bool, Error> {
        self.buf.fill(keep).inspect_err(|_| self.done = true)
    }

    fn step(&mut self) -> Result<Option<Cut>, Error> {
        if !self.started {
            self.started = true;
            while self.buf.data().len() < 3 && self.fill(0)? {}
            let head = self.buf.data();
            if head.len() >= 2 && (head[..2] == [0xFF, 0xFE] || head[..2] == [0xFE, 0xFF]) {
                self.done = true;
                let pos = self.buf.position(0);
                return Err(Error::new(
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
        let recovering = std::mem::replace(&mut self.recovering, false);
        let Some(g) = self.find_game()? else {
            let junk = self.junk.take().filter(|_| !recovering);
            let end = self.buf.end_offset();
            return Ok(junk.map(|p| {
                let kind = if self.games == 0 { WarningKind::JunkBeforeGame } else { WarningKind::JunkAfterGames };
                let position = self.buf.position(end);
                Cut { start: end, end, position, charset: None, junk: Some((kind, p)), start_warning: None }
            }));
        };
        let kind = if self.games == 0 { WarningKind::JunkBeforeGame } else { WarningKind::JunkBetweenGames };
        let junk = self.junk.take().filter(|_| !recovering).map(|p| (kind, p));
        self.games += 1;
        let position = self.buf.position(g);
        let mut game = Game { start: g, charset: None, detected: None, pos: g + 1, depth: 1 };
        let end = loop {
            if let Some(end) = self.scan_game(&mut game) {
                break end;
            }
            if self.buf.end_offset() - g > self.config.limits.max_game_len {
                self.pos = g + 1;
                self.recovering = true;
                return Err(Error::new(ErrorKind::LimitExceeded(Limit::GameSize), position, "game too large"));
            }
            self.fill(g)?;
        };
        self.pos = end;
        let cs = game.charset.unwrap_or(Charset::Utf8);
        // A charset detected here is fixed for the chunk's reader, which would otherwise detect
        // again (chardetng is the most expensive step per byte of the whole read) and, for a game
        // cut short by `(;GM[`, over a different range. The unknown-label warning that fixing it
        // silences in the reader is carried instead.
        let mut charset = self.forced;
        let mut start_warning = None;
        if let (None, Some(label_at)) = (self.forced, game.detected) {
            charset = Some(cs);
            // A label the UTF-8 root scan found past the game's end (after a value whose escape
            // only the detected charset undoes) is not this game's: no warning for it here.
            start_warning =
                label_at.filter(|&at| at < end).map(|at| (WarningKind::UnknownCharset, self.buf.position(at)));
        }
        Ok(Some(Cut { start: g, end, position, charset, junk, start_warning }))
    }

    /// Finds the next game start from `self.pos`, noting junk; `None` at the end of the stream.
    fn find_game(&mut self) -> Result<Option<u64>, Error> {
        enum Out {
            Found(usize),
            Junk(usize),
            Need(usize),
        }
        loop {
            let (data, base, eof) = (self.buf.data(), self.buf.base(), self.buf.eof());
            let mut i = (self.pos - base) as usize;
            let junk = self.junk.is_some();
            let out = loop {
                if junk {
                    i = memchr::memchr(b'(', &data[i..]).map_or(data.len(), |k| i + k);
                } else {
                    i = ws_from(data, i);
                }
                if i >= data.len() {
                    break Out::Need(i);
                }
                if data[i] == b'(' {
                    match game_start_at(data, i, eof) {
                        Look::Known(true) => break Out::Found(i),
                        Look::More => break Out::Need(i),
                        Look::Known(false) => {}
                    }
                }
                if !junk {
                    break Out::Junk(i);
                }
                i += 1;
            };
            match out {
                Out::Found(i) => {
                    self.pos = base + i as u64;
                    return Ok(Some(self.pos));
                }
                Out::Junk(i) => {
                    self.junk = Some(self.buf.position(base + i as u64));
                    self.pos = base + i as u64 + 1;
                }
                Out::Need(i) => {
                    self.pos = base + i as u64;
                    if eof {
                        return Ok(None);
                    }
                    self.fill(self.pos)?;
                }
            }
        }
    }

    /// Goes on cutting `game`; `Some(end)` once its end is known.
    fn scan_game(&mut self, game: &mut Game) -> Option<u64> {
        let (data, base, eof) = (self.buf.data(), self.buf.base(), self.buf.eof());
        let g = (game.start - base) as usize;
        if game.charset.is_none() {
            if let Some(f) = self.forced {
                game.charset = Some(f);
            } else {
                let Look::Known(label) = root_charset(data, g + 1, eof) else {
                    return None;
                };
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
        match tokens(data, (game.pos - base) as usize, game.depth, cs, eof) {
            Tokens::End(e) => Some(base + e as u64),
            Tokens::More(i, depth) => {
                game.pos = base + i as u64;
                game.depth = depth;
                None
            }
        }
    }
}

impl<R: Read> crate::stream::Splitter for Splitter<R> {
    fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        Splitter::next_game(self)
    }

    fn format(&self) -> Format {
        Format::Sgf
    }
}

impl<R> std::fmt::Debug for Splitter<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Splitter").field("games", &self.games).field("pos", &self.pos).finish_non_exhaustive()
    }
}
