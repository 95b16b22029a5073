//! What every source of events offers, how it is configured, and how byte offsets become lines
//! and columns.
//!
//! Readers parse a byte slice (a file read into memory, or a memory map) and their events borrow
//! from it. Every reader implements [`EventSource`], so consumers (the tree builder, the main line,
//! the boards, the CLI) are written once for every format.

use crate::error::{Error, Position};
use crate::event::Event;

/// A pull source of events: the one interface every reader offers.
///
/// `next_event` returns `None` at the end of input. After an `Err` in lenient mode, the next item
/// is the next game's `GameStart` (or `None`); a source never returns the same error twice and
/// always makes progress.
pub trait EventSource {
    /// The next event, an error, or `None` at the end.
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>>;

    /// Skips the rest of the current game (or the whole next game, when called between games),
    /// ending just after its `GameEnd`. Returns `false` when there was no game left. Readers
    /// override this with a scan that builds no events; this default pulls and drops events.
    fn skip_game(&mut self) -> Result<bool, Error> {
        let mut seen = false;
        while let Some(item) = self.next_event() {
            match item? {
                Event::GameEnd { .. } => return Ok(true),
                Event::GameStart { .. } => seen = true,
                _ => {}
            }
        }
        Ok(seen)
    }

    /// Skips the rest of the innermost open variation, ending just after its `VariationEnd`
    /// (or before the `GameEnd` when no variation is open). This default pulls and drops events;
    /// readers override it.
    fn skip_variation(&mut self) -> Result<(), Error> {
        let mut depth = 0u64;
        loop {
            match self.next_event() {
                None => return Ok(()),
                Some(Err(e)) => return Err(e),
                Some(Ok(Event::VariationStart(_))) => depth += 1,
                Some(Ok(Event::VariationEnd)) => {
                    if depth == 0 {
                        return Ok(());
                    }
                    depth -= 1;
                }
                Some(Ok(Event::GameEnd { .. })) => return Ok(()),
                Some(Ok(_)) => {}
            }
        }
    }

    /// The line and column of a byte offset of this source's input (for warnings, which carry
    /// only the offset). Sources that cannot tell return line and column 0.
    fn locate(&mut self, offset: u64) -> Position {
        Position { offset, line: 0, column: 0 }
    }

    /// Where the last event returned was found in the input, when the source can tell. Events
    /// carry no offsets of their own; consumers use this to point at one (an illegal move, say).
    /// The default returns `None`.
    fn event_offset(&self) -> Option<u64> {
        None
    }
}

/// Forwards every method of [`EventSource`] through a pointer type.
macro_rules! forward_event_source {
    ($($ptr:ty),*) => {$(
        impl<S: EventSource + ?Sized> EventSource for $ptr {
            fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
                (**self).next_event()
            }
            fn skip_game(&mut self) -> Result<bool, Error> {
                (**self).skip_game()
            }
            fn skip_variation(&mut self) -> Result<(), Error> {
                (**self).skip_variation()
            }
            fn locate(&mut self, offset: u64) -> Position {
                (**self).locate(offset)
            }
            fn event_offset(&self) -> Option<u64> {
                (**self).event_offset()
            }
        }
    )*};
}

forward_event_source!(&mut S, Box<S>);

/// Limits that protect a reader from hostile input. Exceeding one is an error of kind
/// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) that ends the game.
///
/// `#[non_exhaustive]`: build one from [`Limits::default`] or [`Limits::unlimited`] and the
/// `with_…` methods (`Limits::default().with_max_depth(100)`), or set its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of variations. Default: 10,000 (real files stay below a few hundred).
    pub max_depth: u32,
    /// Largest single value (a comment, a name) in bytes. Default: 16 MiB.
    pub max_value_len: usize,
    /// Largest single game in bytes. Default: 256 MiB.
    pub max_game_len: u64,
    /// Most nodes in one game. Default: 10,000,000.
    pub max_nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_depth: 10_000, max_value_len: 16 << 20, max_game_len: 256 << 20, max_nodes: 10_000_000 }
    }
}

impl Limits {
    /// No practical limit (`u32::MAX` depth, `usize::MAX` value size…), for trusted input.
    pub fn unlimited() -> Limits {
        Limits { max_depth: u32::MAX, max_value_len: usize::MAX, max_game_len: u64::MAX, max_nodes: u64::MAX }
    }

    /// These limits with [`Limits::max_depth`] set to `n`.
    pub fn with_max_depth(self, n: u32) -> Limits {
        Limits { max_depth: n, ..self }
    }

    /// These limits with [`Limits::max_value_len`] set to `n` bytes.
    pub fn with_max_value_len(self, n: usize) -> Limits {
        Limits { max_value_len: n, ..self }
    }

    /// These limits with [`Limits::max_game_len`] set to `n` bytes.
    ///
    /// ```
    /// let limits = kifu::Limits::default().with_max_game_len(1 << 20).with_max_nodes(1000);
    /// assert_eq!((limits.max_game_len, limits.max_nodes, limits.max_depth), (1 << 20, 1000, 10_000));
    /// ```
    pub fn with_max_game_len(self, n: u64) -> Limits {
        Limits { max_game_len: n, ..self }
    }

    /// These limits with [`Limits::max_nodes`] set to `n`.
    pub fn with_max_nodes(self, n: u64) -> Limits {
        Limits { max_nodes: n, ..self }
    }
}

/// How a reader treats problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Report problems as `Warning` events and keep going (the default).
    #[default]
    Lenient,
    /// Turn every warning into an error.
    Strict,
}

/// A reader's configuration.
///
/// ```
/// let config = kifu::Config::default().with_mode(kifu::Mode::Strict);
/// assert_eq!(config.limits.max_depth, 10_000);
/// ```
///
/// `#[non_exhaustive]`: build one with [`Config::lenient`], [`Config::strict`] or
/// `Config::default()` and the `with_…` methods, or set its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Config {
    /// Lenient (default) or strict.
    pub mode: Mode,
    /// Limits on nesting and sizes.
    pub limits: Limits,
}

impl Config {
    /// The default lenient configuration.
    pub fn lenient() -> Config {
        Config::default()
    }

    /// The strict configuration with default limits.
    pub fn strict() -> Config {
        Config { mode: Mode::Strict, ..Config::default() }
    }

    /// This configuration in `mode`.
    pub fn with_mode(self, mode: Mode) -> Config {
        Config { mode, ..self }
    }

    /// This configuration with `limits`.
    ///
    /// ```
    /// let config = kifu::Config::strict().with_limits(kifu::Limits::unlimited());
    /// assert!(config.is_strict());
    /// ```
    pub fn with_limits(self, limits: Limits) -> Config {
        Config { limits, ..self }
    }

    /// Whether warnings become errors.
    pub fn is_strict(&self) -> bool {
        self.mode == Mode::Strict
    }
}

pub use crate::error::LineIndex;

/// One whole game cut out of a larger input by a splitter (see the streams layer): its bytes, its
/// offset in the stream, and what the file said before it that the game needs.
#[derive(Clone, Copy, Debug)]
pub struct GameChunk<'a> {
    /// The game's bytes.
    pub bytes: &'a [u8],
    /// Offset of `bytes[0]` in the whole stream.
    pub offset: u64,
    /// Line of `bytes[0]` in the whole stream, from 1.
    pub line: u64,
    /// Column of `bytes[0]` in the whole stream, from 1.
    pub column: u64,
    /// The file's context (charset from a BOM or file header, format header lines).
    pub context: ChunkContext<'a>,
    /// Bytes the splitter skipped as junk just before this game (or, when `bytes` is empty, after
    /// the last game): the warning a slice reader gives for them and their position in the
    /// stream. [`crate::stream::Shifted`] returns it before the game's events.
    pub junk: Option<(crate::error::WarningKind, Position)>,
    /// A warning about the game's start that a reader of `bytes` alone would not give, because
    /// the splitter fixed something for it in `context` (SGF: an unknown `CA[]` label when the
    /// splitter fixes the detected charset); [`crate::stream::Shifted`] returns it right after
    /// the game's `GameStart` (in strict mode, as an `Err` in place of the game).
    pub start_warning: Option<(crate::error::WarningKind, Position)>,
}

/// What a file says once that every game in it needs (see [`GameChunk`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChunkContext<'a> {
    /// A charset fixed by the file (a BOM, a CSA V3.0 `'CSA encoding=` line, an XML declaration),
    /// or already detected by the splitter for this game (SGF without a known `CA[]`).
    pub charset: Option<crate::text::Charset>,
    /// Format-specific header bytes that apply to every game (CSA V3.0 version line, XML prolog).
    pub header: &'a [u8],
}

/// Prepares raw file bytes for a reader: input that starts with a UTF-16 byte-order mark is
/// transcoded to UTF-8 (offsets then refer to the transcoded bytes); anything else is borrowed
/// unchanged. Readers handle a UTF-8 BOM themselves.
///
/// ```
/// let utf16 = [0xFF, 0xFE, b'(', 0, b';', 0, b')', 0];
/// assert_eq!(&*kifu::input::prepare(&utf16), b"(;)");
/// ```
pub fn prepare(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    match crate::text::transcode_utf16(bytes) {
        Some(v) => std::borrow::Cow::Owned(v),
        None => std::borrow::Cow::Borrowed(bytes),
    }
}
