//! Skipping without events: the rest of a game or of a variation found by a bracket scan
//! (`scan::tree_end`), and the rest of the [`EventSource`] interface.

use super::scan;
use super::{Reader, State};
use crate::error::{Error, ErrorKind, Position, WarningKind};
use crate::event::Event;
use crate::input::EventSource;

impl<'a> Reader<'a> {
    /// Skips to the end of the game that contains `self.pos` at the current depth.
    pub(super) fn skip_to_game_end(&mut self) -> Result<(), Error> {
        self.pending = None;
        self.queued = None;
        self.window = &[];
        match scan::tree_end(self.input, self.pos, self.depth, self.charset, true) {
            scan::TreeEnd::Closed(end) | scan::TreeEnd::NewGame(end) => {
                self.pos = end;
                self.state = State::Between;
                self.depth = 0;
                Ok(())
            }
            // As the event path: a value the input ends in is an error, not a truncated game.
            scan::TreeEnd::OpenValue(p) => Err(self.open_value(p)),
            // (`More` only comes from a streaming window, never from the whole input.) A game
            // without `(` whose own tree is all that is open ends with the input.
            scan::TreeEnd::Eof { depth } => {
                self.pos = self.input.len();
                self.state = State::Done;
                if self.config.is_strict() && !(self.bare && depth == 1) {
                    let pos = self.position(self.input.len());
                    return Err(Error::new(ErrorKind::UnexpectedEof, pos, "the input ended inside a game"));
                }
                Ok(())
            }
            scan::TreeEnd::More { .. } => {
                self.pos = self.input.len();
                self.state = State::Done;
                if self.config.is_strict() {
                    let pos = self.position(self.input.len());
                    return Err(Error::new(ErrorKind::UnexpectedEof, pos, "the input ended inside a game"));
                }
                Ok(())
            }
        }
    }
}

impl EventSource for Reader<'_> {
    #[inline]
    fn next_event(&mut self) -> Option<Result<Event<'_>, Error>> {
        self.next_item()
    }

    /// Skips to just after the current game's end (or the whole next game) with a bracket scan
    /// that builds no events. The scan finds the end the event path finds; a value the input
    /// ends in is the event path's `UnexpectedEof` error. Limits (value size, game size, nodes)
    /// are not applied to what is skipped.
    fn skip_game(&mut self) -> Result<bool, Error> {
        match self.state {
            // (A game without `(` skipped at its start skips its warning with it.)
            State::InGame | State::Starting => {
                self.state = State::InGame;
                self.skip_to_game_end()?;
                Ok(true)
            }
            State::Closing => {
                self.state = State::Between;
                self.depth = 0;
                Ok(true)
            }
            State::Done => Ok(false),
            State::Between => loop {
                match self.next_item() {
                    None => return Ok(false),
                    Some(Err(e)) => return Err(e),
                    Some(Ok(Event::GameStart { .. })) => {
                        self.skip_to_game_end()?;
                        return Ok(true);
                    }
                    Some(Ok(_)) => {}
                }
            },
        }
    }

    /// Skips the rest of the innermost open variation (consuming its `VariationEnd`), or, when no
    /// variation is open, up to the game's `GameEnd` (which is still returned), with the bracket
    /// scan of [`skip_game`](EventSource::skip_game). A game cut short inside the variation (the
    /// input ends, or a `(;GM[` starts a new game) goes on with the ends of the variations still
    /// open and its `GameEnd`; its `Truncated` warning, which the event path gives before the
    /// skipped `VariationEnd`, is skipped with it (strict mode: the event path's error).
    fn skip_variation(&mut self) -> Result<(), Error> {
        if self.state == State::Starting {
            self.state = State::InGame;
        }
        if self.state != State::InGame {
            return Ok(());
        }
        self.pending = None;
        self.queued = None;
        self.window = &[];
        match scan::tree_end(self.input, self.pos, 1, self.charset, true) {
            // The game lost its `)`: a new game starts at `end` (see `scan::new_game_at`). Close
            // what is open, as the event path does; its `Truncated` warning came before this
            // variation's end, so it is skipped with it (strict mode errs, as the event path does).
            scan::TreeEnd::NewGame(end) => {
                self.pos = end;
                self.closing = self.depth.saturating_sub(2);
                self.state = State::Closing;
                // (A game without `(`, no variation open, is not cut short: it has no `)`.)
                if self.config.is_strict() && !(self.bare && self.depth == 1) {
                    self.warn(WarningKind::Truncated, end)?;
                }
                Ok(())
            }
            scan::TreeEnd::Closed(end) => {
                if self.depth > 1 {
                    // As the event path's `)`.
                    self.pos = end;
                    self.depth -= 1;
                    self.after_variation = true;
                    self.warned_after_variation = false;
                    self.in_node = true;
                } else {
                    self.pos = end - 1;
                }
                Ok(())
            }
            scan::TreeEnd::OpenValue(p) => Err(self.open_value(p)),
            // Parentheses still open at the end of the input: the same, with the error the event
            // path gives in strict mode.
            // (`More` only comes from a streaming window, never from the whole input.)
            scan::TreeEnd::Eof { depth } => {
                self.pos = self.input.len();
                // A game without `(`, no variation open: the input's end is the game's.
                let whole = self.bare && self.depth == 1 && depth == 1;
                if self.config.is_strict() && !whole {
                    let end = self.input.len();
                    let e = self.error(ErrorKind::UnexpectedEof, end, "the input ended inside a game");
                    self.state = State::Done;
                    return Err(e);
                }
                self.closing = self.depth.saturating_sub(2);
                self.state = State::Closing;
                Ok(())
            }
            scan::TreeEnd::More { .. } => {
                self.pos = self.input.len();
                if self.config.is_strict() {
                    self.eof_in_game()?;
                }
                self.closing = self.depth.saturating_sub(2);
                self.state = State::Closing;
                Ok(())
            }
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.lines.locate(self.input, offset)
    }

    fn event_offset(&self) -> Option<u64> {
        Some(self.event_at as u64)
    }
}
