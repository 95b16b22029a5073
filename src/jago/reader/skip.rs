//! Skipping a game without building events: dropping what is queued and scanning for the end
//! of the game.

use super::*;

impl<'a> Reader<'a> {
    /// Skips to just after the current game's `</GoGame>` (building no events), or the whole next
    /// game when called between games.
    pub(super) fn skip_game_impl(&mut self) -> Result<bool, Error> {
        // Inside a `<GoGame/>` whose GameStart was returned: its GameEnd is queued (the next
        // GameStart or GameEnd in the queue is that GameEnd). Drop the game's queued events.
        if let Some(k) = self.queue.position(|e| matches!(e, Event::GameStart { .. } | Event::GameEnd { .. })) {
            if let Some(Event::GameEnd { .. }) = self.queue.get(k) {
                self.queue.discard(k + 1);
                return Ok(true);
            }
        }
        if self.depth == 0 {
            loop {
                match self.next_item() {
                    None => return Ok(false),
                    Some(Err(e)) => return Err(e),
                    Some(Ok(Event::GameStart { .. })) => break,
                    Some(Ok(_)) => {}
                }
            }
            if self.depth == 0 {
                // `<GoGame/>`: its GameEnd is queued.
                self.queue.clear();
                return Ok(true);
            }
        }
        self.queue.clear();
        self.unwind = None;
        self.mode = Mode::Normal;
        self.depth = 0;
        self.vars = 0;
        match find_game_end(self.input, self.tok.pos()) {
            Some(end) => {
                self.tok.restart(end);
                if self.doc == Doc::Prolog || self.doc == Doc::After {
                    // A game read as the root element.
                    self.doc = Doc::After;
                }
                Ok(true)
            }
            None => {
                let end = self.input.len();
                self.tok.restart(end);
                self.doc = Doc::Done;
                if self.config.is_strict() {
                    let pos = self.position(end);
                    return Err(Error::new(ErrorKind::UnexpectedEof, pos, "the input ended inside a game"));
                }
                Ok(true)
            }
        }
    }
}
