//! Streams: whole games from any [`io::Read`](std::io::Read), compressed files and archives, and
//! parallel reading.
//!
//! Readers parse byte slices. For input that is not one slice (stdin, a gzip stream, an archive
//! member, a file larger than memory) [`splitter`] cuts whole games out of the stream into
//! [`GameChunk`]s, with the format's boundary scanner ([`crate::split`]: SGF games, CSA `/`
//! lines, Jago `<GoGame>` elements, concatenated JSON documents); the format's slice reader
//! parses each chunk, and [`Shifted`] moves the chunk reader's offsets, lines and columns to the
//! whole stream, so that events read this way equal the events of the whole stream read as one
//! slice (up to the first error; the few exceptions are in each scanner's docs: a CSA stream
//! without a charset declaration has its charset detected over its first 64 KiB, Jago markup
//! outside `<GoGame>` elements is not in any chunk).
//!
//! ```
//! use kifu::stream::{self, Splitter as _};
//! use kifu::{Config, Event, EventSource, Format};
//!
//! let file = &b"(;GM[1]PB[a];B[aa])\n(;GM[1]PB[b];B[bb])"[..];
//! let mut split = stream::splitter(Format::Sgf, Box::new(file), Config::default());
//! let mut moves = 0;
//! while let Some(chunk) = split.next_game() {
//!     let chunk = chunk.unwrap();
//!     let mut events = stream::read_chunk(Format::Sgf, &chunk, Config::default());
//!     while let Some(ev) = events.next_event() {
//!         if let Event::Move(_) = ev.unwrap() {
//!             moves += 1;
//!         }
//!     }
//! }
//! assert_eq!(moves, 2);
//! ```
//!
//! - [`inputs`]: files, directories, `-` (stdin), `.gz`/`.bz2`/`.xz`/`.zst` streams and
//!   `.zip`/`.tar`/`.7z` archives (detected by their magic bytes, `.tar.gz`/`.tar.zst`/`.tar.xz`
//!   through the decompressor), each member named `archive.zip!member.sgf`; a decompressed
//!   stream stops at [`inputs::MAX_EXPANSION`] times the bytes read (a bomb).
//! - [`Splitter`] and [`Streaming`] live in [`crate::split`] (re-exported here).
//! - [`whole`]: an input small enough read whole and parsed from its slice, a larger one
//!   streamed.
//! - [`parallel`]: a driver that feeds game chunks to worker threads and returns results in
//!   input order ([`read_games`]).
//!
//! Memory: a splitter holds a window of the stream that grows only when one game does not fit in
//! it (to about 1.25 × the largest game + 64 KiB), whatever the format; nothing else grows with
//! the stream's size. Measured through the CLI (`kifu stats -`, a 1.07 GB multi-game CSA file and
//! a 1.08 GB Jago document of 194,012 games on stdin): 16.5 MB and 13.3 MB peak resident memory.

pub mod inputs;
pub mod parallel;
pub mod whole;

pub use inputs::{for_each_input, for_each_input_in, is_packed, read_input, walk, walk_dir, Input, Walk};
pub use parallel::{read_games, Game, Options};

pub use crate::split::{Splitter, Streaming};

use crate::error::{Error, Position};
use crate::event::{Event, Warning};
use crate::format::Format;
use crate::input::{Config, EventSource, GameChunk};

/// Generates [`splitter`] from the registry's rows (their `split` column).
macro_rules! splitters {
    ($($format:ident {
        reader: $($reader:ident)::+, sniff: $sniff:path, open: $open:path, split: $split:path $(, $column:ident: $value:path)*
    }),* $(,)?) => {
        /// The splitter for `format` over `read`: a [`Streaming`] splitter driven by the format's
        /// boundary scanner, so memory stays bounded by the largest game whatever the stream's
        /// size.
        pub fn splitter<'r>(format: Format, read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn Splitter + 'r> {
            match format {
                $(Format::$format => $split(read, config),)*
            }
        }
    };
}

crate::registry::for_each_format!(splitters);

/// The slice reader of one format, chosen at run time: [`AnyReader`](crate::AnyReader), given a
/// chunk's context with [`AnyReader::with_context`](crate::AnyReader::with_context).
pub type FormatReader<'a> = crate::AnyReader<'a>;

/// The events of one chunk, with offsets in the whole stream.
pub type ChunkReader<'a> = Shifted<FormatReader<'a>>;

/// The reader of `format` over `chunk`, its offsets moved to the whole stream; the chunk's
/// charset context is applied.
pub fn read_chunk<'a>(format: Format, chunk: &GameChunk<'a>, config: Config) -> ChunkReader<'a> {
    Shifted::new(crate::AnyReader::with_context(format, chunk.bytes, config, chunk.context), chunk, config)
}

/// An event source over one chunk whose offsets, lines and columns are moved to the whole stream:
/// `GameStart` and `Warning` offsets by the chunk's offset, error positions by its offset, line
/// and column. It returns the chunk's junk warning (see [`GameChunk::junk`]) first and its
/// start warning ([`GameChunk::start_warning`]) after the `GameStart`, as `Err`s in strict mode.
///
/// Costs: one match per event; no allocation.
#[derive(Debug)]
pub struct Shifted<S> {
    inner: S,
    offset: u64,
    line: u64,
    column: u64,
    junk: Option<(crate::WarningKind, Position)>,
    /// Where the junk before the chunk stands (kept for [`EventSource::locate`] once its warning
    /// is given: its bytes are not the chunk's).
    junk_at: Option<Position>,
    start_warning: Option<(crate::WarningKind, Position)>,
    queued: Option<Warning>,
    /// The game was refused (strict mode, a start warning): nothing more from this chunk.
    ended: bool,
    strict: bool,
}

impl<S: EventSource> Shifted<S> {
    /// Wraps `inner`, a reader of `chunk.bytes`.
    pub fn new(inner: S, chunk: &GameChunk<'_>, config: Config) -> Shifted<S> {
        Shifted {
            inner,
            offset: chunk.offset,
            line: chunk.line,
            column: chunk.column,
            junk: chunk.junk,
            junk_at: chunk.junk.map(|(_, p)| p),
            start_warning: chunk.start_warning,
            queued: None,
            ended: false,
            strict: config.is_strict(),
        }
    }

    /// The wrapped reader (its offsets are relative to the chunk).
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    fn shift_error(&self, e: Error) -> Error {
        e.shifted(self.offset, self.line, self.column)
    }
}

/// The fields of a [`Shifted`] that moving one event needs (borrowed beside its inner reader).
struct Shift<'s> {
    offset: u64,
    line: u64,
    column: u64,
    start_warning: &'s mut Option<(crate::WarningKind, Position)>,
    queued: &'s mut Option<Warning>,
    ended: &'s mut bool,
    strict: bool,
}

impl Shift<'_> {
    /// `item`, an event or error of the chunk's reader, moved to the whole stream.
    #[inline]
    fn apply<'e>(self, item: Option<Result<Event<'e>, Error>>) -> Option<Result<Event<'e>, Error>> {
        match item {
            Some(Ok(Event::GameStart { offset: o })) => {
                if let Some((kind, pos)) = self.start_warning.take() {
                    let w = Warning { kind, offset: pos.offset };
                    if self.strict {
                        *self.ended = true;
                        return Some(Err(Error::strict(w, pos)));
                    }
                    *self.queued = Some(w);
                }
                Some(Ok(Event::GameStart { offset: o + self.offset }))
            }
            Some(Ok(Event::Warning(w))) => {
                Some(Ok(Event::Warning(Warning { kind: w.kind, offset: w.offset + self.offset })))
            }
            Some(Err(e)) => Some(Err(e.shifted(self.offset, self.line, self.column))),
            other => other,
        }
    }
}

impl<S> Shifted<S> {
    /// What comes before the chunk reader's next event: the junk warning, a queued start
    /// warning, or the end (`Some(None)`) of a refused game; `None` when the reader is next.
    #[inline]
    fn pending<'e>(&mut self) -> Option<Option<Result<Event<'e>, Error>>> {
        if !(self.junk.is_some() || self.queued.is_some() || self.ended) {
            return None;
        }
        if let Some((kind, pos)) = self.junk.take() {
            let w = Warning { kind, offset: pos.offset };
            return Some(Some(if self.strict { Err(Error::strict(w, pos)) } else { Ok(Event::Warning(w)) }));
        }
        if let Some(w) = self.queued.take() {
            return Some(Some(Ok(Event::Warning(w))));
        }
        Some(None)
    }

    /// The inner reader and the shift of its events, borrowed apart.
    #[inline]
    fn parts(&mut self) -> (&mut S, Shift<'_>) {
        let Shifted { inner, offset, line, column, start_warning, queued, ended, strict, .. } = self;
        (inner, Shift { offset: *offset, line: *line, column: *column, start_warning, queued, ended, strict: *strict })
    }
}

impl<S: EventSource> EventSource for Shifted<S> {
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        // The common case first and thin: an event the chunk's reader gives, passed on as it
        // is unless it holds an offset (a game start, a warning) or is an error.
        if let Some(before) = self.pending() {
            return before;
        }
        let (inner, shift) = self.parts();
        shift.apply(inner.next_event())
    }

    fn skip_game(&mut self) -> Result<bool, Error> {
        self.junk = None;
        self.queued = None;
        self.start_warning = None;
        self.inner.skip_game().map_err(|e| self.shift_error(e))
    }

    fn skip_variation(&mut self) -> Result<(), Error> {
        // A start warning not yet given goes with the variation, as the reader's own would.
        self.queued = None;
        self.inner.skip_variation().map_err(|e| self.shift_error(e))
    }

    /// The position of a stream offset inside this chunk, or of the junk before it (other
    /// offsets before it, and those the chunk's reader cannot tell, have line 0).
    fn locate(&mut self, offset: u64) -> Position {
        if let Some(p) = self.junk_at.filter(|p| p.offset == offset) {
            return p;
        }
        if offset < self.offset {
            return Position { offset, line: 0, column: 0 };
        }
        let p = self.inner.locate(offset - self.offset);
        if p.line == 0 {
            return Position { offset, line: 0, column: 0 };
        }
        p.shifted(self.offset, self.line, self.column)
    }

    /// The chunk's reader's answer, moved to the whole stream.
    fn event_offset(&self) -> Option<u64> {
        self.inner.event_offset().map(|o| o + self.offset)
    }
}

/// The same events as [`EventSource::next_event`], borrowing the input rather than the reader
/// (when the chunk's reader is such an iterator, as every format's is).
impl<'a, S: EventSource + Iterator<Item = Result<Event<'a>, Error>>> Iterator for Shifted<S> {
    type Item = Result<Event<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(before) = self.pending() {
            return before;
        }
        let (inner, shift) = self.parts();
        shift.apply(inner.next())
    }
}
