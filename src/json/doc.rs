//! What the readers that read one JSON document per game (Go game JSON, JKF) share: the
//! document's [`Cursor`], the events read from it for the caller, and the rules around them —
//! an extension is a warning, the end of the input inside a game or a tokenizer error ends the
//! game with an error and reading resumes at the next line that starts with `{`, and after a
//! document comes the end, another document (JSON lines), or junk. Each reader keeps what its
//! schema needs and reads a game into [`Doc::out`] in its own `read_game`.
//!
//! (JGF reads its documents event by event on its own engine, `jgf::engine`, with a bounded
//! queue, and does not use this.)

use super::{Cursor, LexErrorKind, Raw, Tok};
use crate::error::{Error, ErrorKind, Position, WarningKind};
use crate::event::Event;
use crate::input::LineIndex;
use crate::kit::report;

/// A JSON document being read into events (see the [module docs](self)).
#[derive(Debug)]
pub(crate) struct Doc<'a> {
    /// The whole input.
    pub(crate) input: &'a [u8],
    /// The tokenizer, with the value read ahead with its key.
    pub(crate) lex: Cursor<'a>,
    /// Line starts, found on demand for positions.
    pub(crate) lines: LineIndex,
    /// The current game's events, read ahead.
    pub(crate) out: Vec<Event<'a>>,
    /// The next event of `out` to hand out.
    pub(crate) next: usize,
    /// Nothing more to read.
    pub(crate) done: bool,
}

/// What [`Doc::step`] found for the reader to do.
pub(crate) enum Step<'a> {
    /// Hand out this item.
    Item(Result<Event<'a>, Error>),
    /// Read the next game into [`Doc::out`].
    Read,
    /// The input is over.
    End,
}

type R<T> = Result<T, Error>;

impl<'a> Doc<'a> {
    /// A document over `input` read with `lex`, with room for `events` events.
    pub(crate) fn new(input: &'a [u8], lex: Cursor<'a>, events: usize) -> Doc<'a> {
        Doc { input, lex, lines: LineIndex::new(), out: Vec::with_capacity(events), next: 0, done: false }
    }

    /// The position of byte `offset`.
    pub(crate) fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// Queues a warning of `kind` at `offset`.
    #[inline]
    pub(crate) fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.out.push(report::warning(kind, offset));
    }

    /// Ends the game with an error; resumes at the next line starting with `{`, or ends.
    pub(crate) fn error(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.out.clear();
        self.next = 0;
        self.lex.clear_pending();
        let input = self.input;
        let mut p = offset.min(input.len());
        self.done = true;
        while let Some(k) = memchr::memchr(b'\n', &input[p..]) {
            p += k + 1;
            if input.get(p) == Some(&b'{') {
                self.lex.restart(p);
                self.done = false;
                break;
            }
        }
        Error::new(kind, pos, message)
    }

    /// The next token; extensions become warnings and are skipped. The common case is inlined
    /// into the callers; the rest is `tok_slow`.
    #[inline(always)]
    pub(crate) fn tok(&mut self) -> R<Tok<'a>> {
        if let Some(t) = self.lex.take_pending() {
            return Ok(t);
        }
        match self.lex.next_plain() {
            Ok(t) => Ok(t),
            Err(r) => self.tok_slow(r),
        }
    }

    /// The next key of an object (or its end), like `tok`; a plain `"key": value` member is read
    /// in one step and its value kept for the next `tok`, which the caller makes at once.
    #[inline(always)]
    pub(crate) fn key_tok(&mut self) -> R<Tok<'a>> {
        match self.lex.next_key() {
            Some(t) => Ok(t),
            None => self.tok(),
        }
    }

    #[inline(never)]
    fn tok_slow(&mut self, mut r: Raw) -> R<Tok<'a>> {
        loop {
            match r.kind {
                Raw::EXTENSION => self.warn(WarningKind::JsonExtension, r.offset),
                Raw::END => {
                    let end = self.input.len();
                    return Err(self.error(ErrorKind::UnexpectedEof, end, "the input ended inside the game"));
                }
                Raw::ERROR => {
                    let e = self.lex.take_error();
                    return Err(self.error(e.kind.error_kind(), e.offset, e.message));
                }
                _ => return Ok(self.lex.tok_of(r)),
            }
            r = self.lex.next_raw();
        }
    }

    /// Skips the rest of a value whose first token is `t`; returns the offset after it.
    #[inline]
    pub(crate) fn finish(&mut self, t: Tok<'a>) -> R<usize> {
        match self.lex.skip_rest(t) {
            Ok((end, ext)) => {
                if ext {
                    self.warn(WarningKind::JsonExtension, t.offset);
                }
                Ok(end)
            }
            Err(e) => Err(self.error(e.kind.error_kind(), e.offset, e.message)),
        }
    }

    /// A value of the wrong type at `t`: a `wrong_type` warning, and the value skipped.
    #[inline]
    pub(crate) fn skip_wrong_type(&mut self, t: Tok<'a>) -> R<()> {
        self.warn(WarningKind::WrongType, t.offset);
        self.finish(t).map(|_| ())
    }

    /// The next event read ahead that is not a warning, if there is one: the common case of a
    /// reader's next pull, inlined there (the rest is [`Doc::step`]).
    #[inline(always)]
    pub(crate) fn ready(&mut self) -> Option<Event<'a>> {
        match self.out.get(self.next) {
            Some(&e) if !matches!(e, Event::Warning(_)) => {
                self.next += 1;
                Some(e)
            }
            _ => None,
        }
    }

    /// What comes next when [`Doc::ready`] had nothing: an event read ahead (a warning is an
    /// error that ends the game when `strict`); or, once they are all out, the end of the input,
    /// another document to read (JSON lines), or junk after the last one (a warning, then the
    /// end).
    #[inline]
    pub(crate) fn step(&mut self, strict: bool) -> Step<'a> {
        loop {
            if let Some(&e) = self.out.get(self.next) {
                self.next += 1;
                if let Event::Warning(w) = e {
                    if strict {
                        let err = report::promoted(w, self.input, &mut self.lines);
                        let _ = self.error(ErrorKind::Strict(w.kind), w.offset as usize, "");
                        return Step::Item(Err(err));
                    }
                }
                return Step::Item(Ok(e));
            }
            if self.done {
                return Step::End;
            }
            if self.lex.is_done() {
                // After a document: the end, or another document.
                self.out.clear();
                self.next = 0;
                match self.lex.next_token() {
                    Ok(Some(t)) => {
                        self.warn(WarningKind::JsonExtension, t.offset);
                        continue;
                    }
                    Ok(None) => {
                        self.done = true;
                        return Step::End;
                    }
                    Err(e) if e.kind == LexErrorKind::Trailing && self.input[e.offset] == b'{' => {
                        self.lex.restart(e.offset);
                    }
                    Err(e) => {
                        self.done = true;
                        self.warn(WarningKind::JunkAfterGames, e.offset);
                        continue;
                    }
                }
            } else if self.input[self.lex.offset()..].iter().all(u8::is_ascii_whitespace) {
                self.done = true;
                return Step::End;
            }
            return Step::Read;
        }
    }

    /// The first part of `skip_game`: `true` when the current game's events were read ahead and
    /// are now dropped; `false` when the reader must pull events up to the next game's start.
    pub(crate) fn skip_read_ahead(&mut self) -> bool {
        if self.next > 0 && self.next < self.out.len() {
            self.next = self.out.len();
            return true;
        }
        false
    }
}
