//! Between games: junk skipped (a warning once per run of it), the start of the next game
//! (its charset fixed: a BOM, the root's `CA`, or detection over the game's bytes).

use super::scan;
use super::{is_ws, Reader, Start, State};
use crate::error::{Error, ErrorKind, WarningKind};
use crate::event::Event;
use crate::text::{detect_charset, Charset};

impl<'a> Reader<'a> {
    /// Between games: skip junk (warning once per run of junk) and start the next game.
    pub(super) fn between(&mut self) -> Option<Result<Event<'a>, Error>> {
        let input = self.input;
        if self.pos == 0 && input.len() >= 2 && (input[..2] == [0xFF, 0xFE] || input[..2] == [0xFE, 0xFF]) {
            self.state = State::Done;
            let pos = self.position(0);
            return Some(Err(Error::new(
                ErrorKind::Encoding,
                pos,
                "UTF-16 input: transcode it first (kifu::input::prepare)",
            )));
        }
        let start = self.pos;
        let mut p = start;
        let mut junk: Option<usize> = None;
        let found = loop {
            while p < input.len() && is_ws(input[p]) {
                p += 1;
            }
            if p >= input.len() {
                break None;
            }
            if input[p] == b'(' {
                if let Start::Game = self.game_start_at(p) {
                    break Some(p);
                }
            }
            if input[p] == b';' && junk.is_none() && self.bare_game_at(p) {
                break Some(p);
            }
            if junk.is_none() {
                junk = Some(p);
            }
            p += 1;
            match memchr::memchr(b'(', &input[p..]) {
                Some(k) => p += k,
                None => p = input.len(),
            }
        };
        let recovering = std::mem::replace(&mut self.recovering, false);
        if let (Some(j), false) = (junk, recovering) {
            self.pos = found.unwrap_or(input.len());
            let kind = match (self.games, found) {
                (0, _) => WarningKind::JunkBeforeGame,
                (_, Some(_)) => WarningKind::JunkBetweenGames,
                (_, None) => WarningKind::JunkAfterGames,
            };
            return Some(self.warn(kind, j));
        }
        let Some(g) = found else {
            self.pos = input.len();
            self.state = State::Done;
            return None;
        };
        Some(self.start_game(g))
    }

    pub(super) fn start_game(&mut self, at: usize) -> Result<Event<'a>, Error> {
        self.game_start = at;
        self.event_at = at;
        self.game_limit = usize::try_from(self.config.limits.max_game_len).unwrap_or(usize::MAX).saturating_add(at);
        // A game without `(` starts at its first node's `;`, read as a token.
        self.bare = self.input[at] == b';';
        self.pos = if self.bare { at } else { at + 1 };
        self.depth = 1;
        self.games += 1;
        self.nodes = 0;
        self.after_variation = false;
        self.in_node = false;
        self.pending = None;
        self.warned_lowercase = false;
        self.state = State::InGame;
        let root = match scan::root_info(self.input, self.pos, true) {
            scan::Look::Known(root) => root,
            scan::Look::More => scan::RootInfo::default(),
        };
        self.width = 19;
        self.height = 19;
        self.not_go = root.game.is_some_and(|g| !scan::is_go(g));
        if let Some(sz) = root.size {
            if let Some((w, h)) = scan::parse_size(sz) {
                self.width = w;
                self.height = h;
            }
        }
        self.lower = [self.width.min(26), self.height.min(26)];
        let mut warning = None;
        self.charset = match (self.forced, root.charset) {
            (Some(c), _) => c,
            (None, Some(label)) => match Charset::from_label(label) {
                Some(c) => c,
                None => {
                    warning = Some(WarningKind::UnknownCharset);
                    self.detect(at)
                }
            },
            (None, None) => self.detect(at),
        };
        if let Some(w) = warning {
            let off = root.charset.map_or(at, |l| l.as_ptr() as usize - self.input.as_ptr() as usize);
            match self.warn(w, off) {
                Ok(ev) => self.queued = Some(ev),
                Err(e) => return Err(e),
            }
        }
        if self.bare {
            // Its warning comes after the game start (and a charset warning).
            self.state = State::Starting;
        }
        Ok(Event::GameStart { offset: at as u64 })
    }

    /// The detection rule over the bytes of the game starting at `at`. UTF-8 validity is checked
    /// once for the rest of the input and remembered, so a collection of games without `CA`
    /// costs one validation pass, not one per game; only a game that may hold the first invalid
    /// byte is cut out (a bracket scan) and given to the detector.
    pub(super) fn detect(&mut self, at: usize) -> Charset {
        let (from, to) = self.utf8_valid;
        if !(from <= at && at <= to) {
            let rest = &self.input[at..];
            let valid = match std::str::from_utf8(rest) {
                Ok(_) => rest.len(),
                Err(e) => e.valid_up_to(),
            };
            self.utf8_valid = (at, at + valid);
        }
        let valid_to = self.utf8_valid.1;
        if valid_to == self.input.len() {
            return Charset::Utf8;
        }
        let end = scan::game_end(self.input, at + 1, 1, Charset::Utf8).unwrap_or(self.input.len());
        if end <= valid_to {
            return Charset::Utf8;
        }
        detect_charset(&self.input[at..end])
    }
}
