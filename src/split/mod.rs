//! Where games end: the one interface every format's boundary scanner offers, and the two
//! drivers built on it — a streaming splitter over any [`io::Read`](std::io::Read) and a cutter
//! over a byte slice — so that a format says once where its games start and end.
//!
//! A scanner ([`Scan`]) is fed a [`Window`]: the bytes of the stream seen so far that are still
//! kept, their stream offset, and whether the stream ends after them. It answers with a
//! [`Feed`]: a game spans these stream offsets, more bytes are needed (and which may be
//! dropped), the stream holds no more games, or an error. It keeps its own progress in stream
//! offsets, so that after a refill it goes on where it stopped instead of scanning again from the
//! game's start. This is the shape of quick-xml's `Parser::feed`, with a window in place of a
//! byte-at-a-time feed, so that scanners can use `memchr` over it.
//!
//! - [`Streaming`] drives a scanner over an `io::Read` through a window that grows only when one
//!   game does not fit in it: memory is about 1.25 × the largest game + 64 KiB, whatever the
//!   stream's size (see `buffer`).
//! - [`Slices`] drives the same scanner over a whole slice (a window that is the whole input,
//!   with the end known), for cutting a file in memory into games (to read them in parallel).
//!
//! The formats' scanners: [`crate::sgf::Scanner`], [`crate::csa::Scanner`],
//! [`crate::jago::Scanner`] and, for the JSON formats, [`crate::json::Scanner`] (concatenated
//! documents); [`crate::stream::splitter`] picks one by format.

pub(crate) mod buffer;
pub(crate) mod lines;

use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::format::Format;
use crate::input::{ChunkContext, Config, GameChunk};
use crate::text::Charset;
use buffer::{Buffer, Lines};
use std::io::Read;

/// Cuts whole games out of a stream; one implementation per format.
///
/// `next_game` returns `None` at the end of the stream. After an `Err` the splitter either goes
/// on with the next game (a game over the size limit) or returns `None` (an I/O error).
pub trait Splitter {
    /// The next game, an error, or `None` at the end.
    fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>>;

    /// The format this splitter cuts.
    fn format(&self) -> Format;
}

impl<S: Splitter + ?Sized> Splitter for Box<S> {
    fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        (**self).next_game()
    }
    fn format(&self) -> Format {
        (**self).format()
    }
}

/// The bytes a scanner is fed: `bytes()` are the stream's bytes from stream offset `base()`.
#[derive(Debug)]
pub struct Window<'w> {
    bytes: &'w [u8],
    base: u64,
    eof: bool,
    lines: &'w mut Lines,
}

impl<'w> Window<'w> {
    /// The bytes kept, from stream offset [`Window::base`].
    #[inline]
    pub fn bytes(&self) -> &'w [u8] {
        self.bytes
    }

    /// The stream offset of `bytes()[0]`.
    #[inline]
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Whether the stream ends after these bytes.
    #[inline]
    pub fn eof(&self) -> bool {
        self.eof
    }

    /// The stream offset just past the bytes.
    #[inline]
    pub fn end(&self) -> u64 {
        self.base + self.bytes.len() as u64
    }

    /// The index in `bytes()` of stream offset `at` (which must be in the window).
    #[inline]
    pub fn index(&self, at: u64) -> usize {
        (at.saturating_sub(self.base) as usize).min(self.bytes.len())
    }

    /// The line and column of stream offset `at`, which must be in the window and not before
    /// any offset asked for earlier: scanners ask in stream order, before asking for a refill
    /// that drops the byte.
    pub fn position(&mut self, at: u64) -> Position {
        buffer::locate(self.lines, self.bytes, self.base, at)
    }
}

/// One game found by a scanner (stream offsets and positions).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// Offset of the game's first byte.
    pub start: u64,
    /// Offset just past its last byte.
    pub end: u64,
    /// Line and column of `start`.
    pub position: Position,
    /// A charset fixed for the game's reader (see [`ChunkContext::charset`]).
    pub charset: Option<Charset>,
    /// The stream range of the file header every game needs (CSA's `V3.0` line, an XML
    /// prolog), see [`ChunkContext::header`]; empty when none.
    pub header: (u64, u64),
    /// Junk skipped before the game (see [`GameChunk::junk`]).
    pub junk: Option<(WarningKind, Position)>,
    /// A warning about the game's start (see [`GameChunk::start_warning`]).
    pub start_warning: Option<(WarningKind, Position)>,
}

impl Span {
    /// A game from `start` to `end` at `position`, with no context and no warning.
    pub fn new(start: u64, end: u64, position: Position) -> Span {
        Span { start, end, position, charset: None, header: (0, 0), junk: None, start_warning: None }
    }
}

/// A scanner's answer to a [`Window`].
#[derive(Debug)]
pub enum Feed {
    /// A game spans [`Span::start`, `Span::end`); the next feed goes on after it.
    Game(Span),
    /// The scanner needs bytes past the window; the bytes before stream offset `keep` will not
    /// be asked for again. (Never the answer when the window ends the stream.)
    Need {
        /// The first stream offset still needed.
        keep: u64,
    },
    /// No more games in the stream.
    End,
    /// An error that ends the stream (an input the format cannot be read from at all).
    Error(Error),
}

/// A resumable boundary scanner: where one format's games start and end (see the
/// [module docs](self)).
pub trait Scan {
    /// Looks at `window` and says where the next game is, or what is missing.
    fn feed(&mut self, window: &mut Window<'_>) -> Feed;

    /// The game being cut from stream offset `start` is larger than the limit: drop it, and go
    /// on after it as the format's reader would after such an error (the next feed's window
    /// may start anywhere after `start`).
    fn drop_game(&mut self, start: u64);
}

/// A streaming splitter: any [`Scan`] driven over an [`io::Read`](std::io::Read) through a
/// window that grows only when one game does not fit in it (see the [module docs](self)).
///
/// ```
/// use kifu::split::{Splitter as _, Streaming};
/// use kifu::{Config, Format};
///
/// let data = &b"(;GM[1];B[aa]) (;GM[1];W[bb])"[..];
/// let mut split = Streaming::new(Format::Sgf, data, kifu::sgf::Scanner::new(Config::default()), Config::default());
/// let mut offsets = Vec::new();
/// while let Some(chunk) = split.next_game() {
///     offsets.push(chunk.unwrap().offset);
/// }
/// assert_eq!(offsets, [0, 15]);
/// ```
pub struct Streaming<R, S> {
    buf: Buffer<R>,
    scanner: S,
    format: Format,
    config: Config,
    done: bool,
    games: u64,
    /// The file header every game needs, copied out of the window once, and its stream range.
    header: Vec<u8>,
    header_at: (u64, u64),
    /// Where the last game dropped for its size started: a scanner still asking to keep it (or
    /// less) is read on rather than reported again, so that every error makes progress.
    dropped: Option<u64>,
}

impl<R: Read, S: Scan> Streaming<R, S> {
    /// A splitter of `format` games over `read` (no need to wrap it in a `BufReader`: the
    /// splitter has its own window), cut by `scanner`. `config.limits.max_game_len` bounds the
    /// window.
    pub fn new(format: Format, read: R, scanner: S, config: Config) -> Streaming<R, S> {
        Streaming {
            buf: Buffer::new(read),
            scanner,
            format,
            config,
            done: false,
            games: 0,
            header: Vec::new(),
            header_at: (0, 0),
            dropped: None,
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

    /// The scanner.
    pub fn scanner(&self) -> &S {
        &self.scanner
    }

    /// The next game, an error (I/O, a game over the size limit), or `None` at the end.
    pub fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        if self.done {
            return None;
        }
        let span = loop {
            let feed = self.scanner.feed(&mut self.buf.window());
            match feed {
                Feed::Game(span) => break span,
                Feed::End => {
                    self.done = true;
                    return None;
                }
                Feed::Error(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
                Feed::Need { keep } => {
                    if self.buf.eof() {
                        // A scanner that asks for more at the end has nothing more to give.
                        self.done = true;
                        return None;
                    }
                    let keep = keep.max(self.buf.base());
                    let again = self.dropped.is_some_and(|d| keep <= d);
                    if self.buf.end_offset() - keep > self.config.limits.max_game_len && !again {
                        let position = self.buf.position(keep);
                        self.dropped = Some(keep);
                        self.scanner.drop_game(keep);
                        return Some(Err(Error::new(
                            ErrorKind::LimitExceeded(Limit::GameSize),
                            position,
                            "game too large",
                        )));
                    }
                    if let Err(e) = self.buf.fill(keep) {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            }
        };
        self.games += 1;
        let (base, data) = (self.buf.base(), self.buf.data());
        let index = |at: u64| (at.saturating_sub(base) as usize).min(data.len());
        if span.header != self.header_at {
            self.header_at = span.header;
            self.header.clear();
            self.header.extend_from_slice(&data[index(span.header.0)..index(span.header.1)]);
        }
        Some(Ok(GameChunk {
            bytes: &data[index(span.start)..index(span.end)],
            offset: span.start,
            line: span.position.line,
            column: span.position.column,
            context: ChunkContext { charset: span.charset, header: &self.header },
            junk: span.junk,
            start_warning: span.start_warning,
        }))
    }
}

impl<R: Read, S: Scan> Splitter for Streaming<R, S> {
    fn next_game(&mut self) -> Option<Result<GameChunk<'_>, Error>> {
        Streaming::next_game(self)
    }

    fn format(&self) -> Format {
        self.format
    }
}

impl<R, S> std::fmt::Debug for Streaming<R, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Streaming")
            .field("format", &self.format)
            .field("games", &self.games)
            .field("window", &self.buf.capacity())
            .finish_non_exhaustive()
    }
}

/// The games of a byte slice held whole in memory, cut by a [`Scan`]: an iterator of
/// [`GameChunk`]s borrowing the slice (errors end it).
#[derive(Debug)]
pub struct Slices<'a, S> {
    input: &'a [u8],
    scanner: S,
    lines: Lines,
    done: bool,
}

impl<'a, S: Scan> Slices<'a, S> {
    /// Cuts `input` with `scanner`.
    pub fn new(input: &'a [u8], scanner: S) -> Slices<'a, S> {
        Slices { input, scanner, lines: Lines::new(), done: false }
    }

    /// The scanner.
    pub fn scanner(&self) -> &S {
        &self.scanner
    }
}

impl<'a, S: Scan> Iterator for Slices<'a, S> {
    type Item = GameChunk<'a>;

    fn next(&mut self) -> Option<GameChunk<'a>> {
        if self.done {
            return None;
        }
        let input = self.input;
        let mut window = Window { bytes: input, base: 0, eof: true, lines: &mut self.lines };
        let Feed::Game(span) = self.scanner.feed(&mut window) else {
            self.done = true;
            return None;
        };
        let index = |at: u64| (at as usize).min(input.len());
        Some(GameChunk {
            bytes: &input[index(span.start)..index(span.end)],
            offset: span.start,
            line: span.position.line,
            column: span.position.column,
            context: ChunkContext { charset: span.charset, header: &input[index(span.header.0)..index(span.header.1)] },
            junk: span.junk,
            start_warning: span.start_warning,
        })
    }
}
