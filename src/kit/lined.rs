//! What the readers of the line-based Go formats (GIB, NGF, UGF) share, written once: where
//! reading is in the input, the games started, the charset (fixed by the caller or a UTF-8 BOM,
//! else found per game), the events queued for the caller and the error strict mode makes of a
//! queued warning, an error kept for after them, the offset of the line that made the last
//! event, and positions. Each reader keeps its own states, its game boundaries, what it does
//! when an error drops the rest of a game, and its loop (the queue is popped there: a method
//! here that popped it cost each event 4 more instructions).

use super::queue::EventQueue;
use super::report;
use crate::error::{Error, ErrorKind, Position, WarningKind};
use crate::event::Warning;
use crate::input::{ChunkContext, Config, LineIndex};
use crate::text::{Charset, Text, TextRule};

/// The end of the line starting at `pos` (before its `\n`) and where the next line starts.
#[inline]
pub(crate) fn line_end(input: &[u8], pos: usize) -> (usize, usize) {
    match memchr::memchr(b'\n', &input[pos..]) {
        Some(k) => (pos + k, pos + k + 1),
        None => (input.len(), input.len()),
    }
}

/// A line reader's shared state (see the [module docs](self)).
#[derive(Debug)]
pub(crate) struct Lined<'a> {
    /// The whole input.
    pub(crate) input: &'a [u8],
    pub(crate) config: Config,
    /// The next line to read.
    pub(crate) pos: usize,
    /// The games started so far.
    pub(crate) games: u64,
    /// The charset every game is read in, when the caller or a BOM fixed it.
    pub(crate) forced: Option<Charset>,
    /// The current game's charset.
    pub(crate) charset: Charset,
    /// The current game's first byte.
    pub(crate) game_start: usize,
    pub(crate) queue: EventQueue<'a, 16>,
    /// An error to hand out once the queue is empty.
    pub(crate) pending_error: Option<Error>,
    /// The offset of the line that produced the last event.
    pub(crate) stmt_offset: usize,
    pub(crate) lines: LineIndex,
}

impl<'a> Lined<'a> {
    /// The state at the start of `input` (after a UTF-8 BOM, which fixes the charset).
    pub(crate) fn new(input: &'a [u8], config: Config) -> Lined<'a> {
        let bom = input.starts_with(&[0xEF, 0xBB, 0xBF]);
        Lined {
            input,
            config,
            pos: if bom { 3 } else { 0 },
            games: 0,
            forced: bom.then_some(Charset::Utf8),
            charset: Charset::Utf8,
            game_start: 0,
            queue: EventQueue::new(),
            pending_error: None,
            stmt_offset: 0,
            lines: LineIndex::new(),
        }
    }

    /// A game cut out of a larger file by a splitter: the context's charset (a BOM of the file)
    /// is used.
    pub(crate) fn context(&mut self, context: ChunkContext<'a>) {
        if let Some(c) = context.charset {
            self.forced = Some(c);
        }
    }

    /// The position of byte `offset`.
    pub(crate) fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// An error at `offset` (the reader drops the rest of its game).
    pub(crate) fn error(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        Error::new(kind, self.position(offset), message)
    }

    /// Queues a warning of `kind` at `offset`.
    #[inline]
    pub(crate) fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.queue.push(report::warning(kind, offset));
    }

    /// `raw` as a text of the current game's charset.
    #[inline]
    pub(crate) fn text(&self, raw: &'a [u8]) -> Text<'a> {
        Text::new(raw, TextRule::Plain, self.charset)
    }

    /// The error strict mode makes of the queued warning `w` (the reader then drops the rest
    /// of its game).
    pub(crate) fn promoted(&mut self, w: Warning) -> Error {
        report::promoted(w, self.input, &mut self.lines)
    }
}
