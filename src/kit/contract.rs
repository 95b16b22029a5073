//! The [`EventSource`] contract, checked: what every reader promises about the shape of its
//! stream, whatever the input. The integration tests and every fuzz target that reads events
//! check it with [`check_contract`] (or item by item with [`Contract`]), so that the rule is
//! written once.
//!
//! This is public only so that `tests/` and `fuzz/` (separate crates) can call it, and hidden
//! from the docs because it is not API: it panics on a violation, which is what a test wants
//! and what a library must never do on input.
//!
//! The contract:
//! - **progress**: at most `16 × input length + 64` items;
//! - **offsets in bounds**: a `GameStart`'s offset, a `GameEnd`'s length, a warning's offset and
//!   an error's offset are at most the input's length;
//! - **framing**: `GameStart` only between games, `GameEnd` only inside one, the input ends
//!   between games, and every event but a warning comes inside a game;
//! - **variations balance**: `VariationEnd` never closes more than was opened, and a game ends
//!   with none open;
//! - **after an error**, the game is over: the next item is a `GameStart`, a later error (at a
//!   greater offset: no repeated error), or the end;
//! - **strict mode** gives no warnings (each one is an error).

use crate::error::Error;
use crate::event::Event;
use crate::input::EventSource;

/// What a checked stream held.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Items (events and errors).
    pub items: usize,
    /// Games completed (`GameEnd`s).
    pub games: usize,
    /// Warnings.
    pub warnings: usize,
    /// Errors.
    pub errors: usize,
}

/// The contract, checked one item at a time (see the [module docs](self)).
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Contract {
    len: u64,
    strict: bool,
    in_game: bool,
    depth: u64,
    /// The offset of the last error, while no `GameStart` came after it.
    after_error: Option<u64>,
    counts: Counts,
}

impl Contract {
    /// A checker for a stream read from `input_len` bytes, in strict mode or not.
    pub fn new(input_len: usize, strict: bool) -> Contract {
        Contract {
            len: input_len as u64,
            strict,
            in_game: false,
            depth: 0,
            after_error: None,
            counts: Counts::default(),
        }
    }

    /// Checks the next item. Panics on a violation.
    pub fn item(&mut self, item: Result<&Event<'_>, &Error>) {
        self.counts.items += 1;
        assert!(self.counts.items as u64 <= 16 * self.len + 64, "no progress: {} items", self.counts.items);
        let ev = match item {
            Err(e) => {
                assert!(e.offset() <= self.len, "error offset {} past the input ({})", e.offset(), self.len);
                if let Some(last) = self.after_error {
                    assert!(e.offset() > last, "repeated error at {} after one at {last}: {e}", e.offset());
                }
                self.after_error = Some(e.offset());
                self.counts.errors += 1;
                self.in_game = false;
                self.depth = 0;
                return;
            }
            Ok(ev) => ev,
        };
        if self.after_error.is_some() {
            assert!(matches!(ev, Event::GameStart { .. }), "{ev:?} after an error (a GameStart was due)");
            self.after_error = None;
        }
        match *ev {
            Event::GameStart { offset } => {
                assert!(!self.in_game, "GameStart inside a game");
                assert!(offset <= self.len, "GameStart offset {offset} past the input ({})", self.len);
                self.in_game = true;
                self.depth = 0;
            }
            Event::GameEnd { length, .. } => {
                assert!(self.in_game, "GameEnd outside a game");
                assert_eq!(self.depth, 0, "a game ended with variations open");
                assert!(length <= self.len, "GameEnd length {length} past the input ({})", self.len);
                self.in_game = false;
                self.counts.games += 1;
            }
            Event::Warning(w) => {
                assert!(!self.strict, "a warning in strict mode: {w:?}");
                assert!(w.offset <= self.len, "warning offset {} past the input ({})", w.offset, self.len);
                self.counts.warnings += 1;
            }
            Event::VariationStart(_) => {
                assert!(self.in_game, "VariationStart outside a game");
                self.depth += 1;
            }
            Event::VariationEnd => {
                assert!(self.in_game, "VariationEnd outside a game");
                assert!(self.depth > 0, "VariationEnd with no variation open");
                self.depth -= 1;
            }
            _ => assert!(self.in_game, "{ev:?} outside a game"),
        }
    }

    /// Whether the stream is inside a game (between its `GameStart` and its `GameEnd` or error).
    pub fn in_game(&self) -> bool {
        self.in_game
    }

    /// Checks the end of the stream and returns what it held. Panics on a violation.
    pub fn finish(self) -> Counts {
        assert!(!self.in_game, "the input ended inside a game");
        self.counts
    }
}

/// Reads `reader` (over `input`) to the end, checking the contract on every item; returns what
/// the stream held. Panics on a violation.
#[doc(hidden)]
pub fn check_contract<R: EventSource>(input: &[u8], reader: &mut R, strict: bool) -> Counts {
    let mut c = Contract::new(input.len(), strict);
    while let Some(item) = reader.next_event() {
        c.item(item.as_ref());
    }
    c.finish()
}

/// Checks the contract on items already read from `input`; returns what they held. Panics on a
/// violation.
#[doc(hidden)]
pub fn check_items(input: &[u8], items: &[Result<Event<'_>, Error>], strict: bool) -> Counts {
    let mut c = Contract::new(input.len(), strict);
    for item in items {
        c.item(item.as_ref());
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Error, ErrorKind, Position};

    #[test]
    fn readers_keep_the_contract() {
        let sgf = b"(;GM[1];B[aa](;W[bb])(;W[cc]))junk(;B[zz]";
        let c = check_contract(sgf, &mut crate::sgf::Reader::new(sgf), false);
        assert_eq!((c.games, c.errors), (2, 0));
        let c = check_contract(sgf, &mut crate::sgf::Reader::with_config(sgf, Config::strict()), true);
        assert!(c.errors > 0 && c.warnings == 0);
    }

    #[test]
    #[should_panic(expected = "GameEnd outside a game")]
    fn a_stray_game_end_is_caught() {
        let mut c = Contract::new(10, false);
        c.item(Ok(&Event::GameEnd { length: 1, ending: None }));
    }

    #[test]
    #[should_panic(expected = "after an error")]
    fn an_event_after_an_error_is_caught() {
        let mut c = Contract::new(10, false);
        c.item(Ok(&Event::GameStart { offset: 0 }));
        c.item(Err(&Error::new(ErrorKind::Syntax, Position { offset: 3, line: 1, column: 4 }, "x")));
        c.item(Ok(&Event::Node));
    }
}
