//! The SGF pull reader: a byte-level tokenizer and the mapping of properties to events, in one
//! state machine that returns one event per call and never recurses.

use super::props::{self, Ident, Kind};
use super::scan;
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{
    Branch, Clock, ClockKind, Color, Event, Info, InfoKey, Markup, MarkupKind, Move, Point, Property, Setup, Warning,
};
use crate::input::{Config, EventSource, LineIndex};
use crate::text::{detect_charset, Charset, Text, TextRule};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Outside any game: looking for the next `(`.
    Between,
    /// A game without `(` has started: its `MissingParen` warning comes next, then as `InGame`.
    Starting,
    /// Inside a game tree.
    InGame,
    /// Closing a game that was cut short: `closing` VariationEnds, then GameEnd.
    Closing,
    /// Nothing more.
    Done,
}

/// The property whose values are being turned into events, one value (or point) per call.
#[derive(Clone, Copy, Debug)]
struct Pending<'a> {
    kind: Kind,
    /// The identifier as written.
    name: &'a [u8],
    /// A compressed point list being expanded: (x0, y0, x1, y1, next x, next y).
    rect: Option<[u8; 6]>,
}

/// Reads SGF from a byte slice, returning one [`Event`] per call; see the [module docs](super).
#[derive(Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    config: Config,
    state: State,
    /// Open parentheses of the current game (1 = inside the game tree itself).
    depth: u32,
    game_start: usize,
    /// The offset past which the game exceeds `max_game_len`.
    game_limit: usize,
    games: u64,
    nodes: u64,
    charset: Charset,
    /// A charset fixed from outside the game (BOM, or the caller).
    forced: Option<Charset>,
    /// `input[.0...1]` is known to be valid UTF-8, and `.1` is the first invalid byte (or the end).
    utf8_valid: (usize, usize),
    width: u8,
    height: u8,
    /// A variation has closed at the current depth (so a following node is out of place).
    after_variation: bool,
    /// `PropertyAfterVariation` was reported for the current `after_variation` stretch.
    warned_after_variation: bool,
    /// The current node has been opened (false just after `(` until `;`).
    in_node: bool,
    pending: Option<Pending<'a>>,
    /// A move read ahead with its node by the hot path, returned by the next call:
    /// [0 = none, 1 = black, 2 = white; x; y].
    stash: [u8; 3],
    /// The hot path may run while `pos < fast_until` (0 forces the slow path).
    fast_until: usize,
    /// FF[3] lower-case identifiers were reported in this game (once per game is enough).
    warned_lowercase: bool,
    /// The current game lost its `(` (`;B[hh];W[ii]` at the start of the input): the end of
    /// the input closes it.
    bare: bool,
    queued: Option<Event<'a>>,
    closing: u32,
    /// The last error ended a game; suppress the junk warning for what is skipped after it.
    recovering: bool,
    lines: LineIndex,
    /// Where the token or value of the last event started (see `EventSource::event_offset`):
    /// the value's `[` for events read from a property value, else the token.
    event_at: usize,
}

/// Result of looking at a `(` between games.
enum Start {
    /// A game starts here.
    Game,
    /// Not a game start.
    No,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        let mut r = Reader {
            input,
            pos: 0,
            config,
            state: State::Between,
            depth: 0,
            game_start: 0,
            game_limit: usize::MAX,
            games: 0,
            nodes: 0,
            charset: Charset::Utf8,
            forced: None,
            utf8_valid: (1, 0),
            width: 19,
            height: 19,
            after_variation: false,
            warned_after_variation: false,
            in_node: false,
            pending: None,
            stash: [0; 3],
            fast_until: 0,
            warned_lowercase: false,
            bare: false,
            queued: None,
            closing: 0,
            recovering: false,
            lines: LineIndex::new(),
            event_at: 0,
        };
        if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
            r.pos = 3;
            r.forced = Some(Charset::Utf8);
        }
        r
    }

    /// Fixes the charset of every game, overriding `CA[]` and detection (e.g. from a file-level
    /// declaration the caller knows about).
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.forced = Some(charset);
        self
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The byte offset the reader has reached.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The charset of the current (or last) game.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// The board size (columns, rows) of the current game (19×19 until `SZ` says otherwise).
    pub fn board_size(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    fn error(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        // Resume at the next game: inside a game, skip the rest of it with a bracket scan (no
        // `(;` of its own variations is taken for a new game); a game being closed because the
        // next one starts resumes right there; between games, after the error's position.
        match self.state {
            State::InGame | State::Starting => {
                let end = scan::game_end(self.input, self.pos, self.depth, self.charset);
                self.pos = end.unwrap_or(self.input.len());
            }
            State::Closing => {}
            State::Between | State::Done => {
                self.pos = self.pos.max(offset.saturating_add(1)).min(self.input.len());
            }
        }
        self.state = State::Between;
        self.depth = 0;
        self.pending = None;
        self.queued = None;
        self.stash = [0; 3];
        self.fast_until = 0;
        self.recovering = true;
        Error::new(kind, pos, message)
    }

    /// A warning event, or in strict mode the error it becomes.
    fn warn(&mut self, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let w = Warning { kind, offset: offset as u64 };
        if self.config.is_strict() {
            let pos = self.position(offset);
            let e = Error::strict(w, pos);
            let _ = self.error(ErrorKind::Strict(kind), offset, "");
            return Err(e);
        }
        Ok(Event::Warning(w))
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        let input = self.input;
        let mut p = self.pos;
        while p < input.len() && is_ws(input[p]) {
            p += 1;
        }
        self.pos = p;
    }

    fn ws_from(&self, mut p: usize) -> usize {
        while p < self.input.len() && is_ws(self.input[p]) {
            p += 1;
        }
        p
    }

    /// Whether a `(` at `p` starts a game (the rule of [`scan::game_start_at`]).
    #[inline]
    fn game_start_at(&self, p: usize) -> Start {
        match scan::game_start_at(self.input, p, true) {
            scan::Look::Known(true) => Start::Game,
            _ => Start::No,
        }
    }

    /// Whether a `;` at `p` starts a game without `(` (the rule of [`scan::bare_game_at`]): only
    /// as the first thing in the input, before any game.
    fn bare_game_at(&self, p: usize) -> bool {
        let first = self.ws_from(if self.input.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 });
        self.games == 0 && p == first && matches!(scan::bare_game_at(self.input, p, true), scan::Look::Known(true))
    }

    /// Whether a `(` at `p` inside a game opens what is surely a new game (`(;GM[` or `(;FF[`):
    /// the previous game lost its closing parenthesis (the rule of [`scan::new_game_at`]).
    #[inline]
    fn new_game_inside(&self, p: usize) -> bool {
        matches!(scan::new_game_at(self.input, p, true), scan::Look::Known(true))
    }

    /// The hot path: a stashed move, or a node (`;`) in the middle of a game, with the move that
    /// follows it stashed when it is a plain `B[xy]`/`W[xy]` on the board. Everything else goes
    /// through [`Reader::next_slow`], which also decides whether the next call may take the hot
    /// path (`fast_until`: only inside a game, with nothing pending or queued, no variation just
    /// closed, and within the game-size limit).
    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        if self.stash[0] != 0 {
            let color = if self.stash[0] == 1 { Color::Black } else { Color::White };
            let point = Some(Point::new(self.stash[1], self.stash[2]));
            self.stash[0] = 0;
            self.event_at = self.pos - 4;
            return Some(Ok(Event::Move(Move::Go { color, point })));
        }
        let p = self.pos;
        let input = self.input;
        if p < self.fast_until && input[p] == b';' && self.nodes < self.config.limits.max_nodes {
            self.nodes += 1;
            self.event_at = p;
            self.in_node = true;
            self.pos = p + 1;
            if let Some(&[c @ (b'B' | b'W'), b'[', x, y, b']']) = input.get(p + 1..p + 6) {
                // Letters that are not coordinates map to 255, which no board size passes.
                let (x, y) = (scan::COORD[x as usize], scan::COORD[y as usize]);
                if x < self.width && y < self.height && ends_property(input.get(p + 6)) {
                    self.pos = p + 6;
                    self.stash = [if c == b'B' { 1 } else { 2 }, x, y];
                }
            }
            return Some(Ok(Event::Node));
        }
        let item = self.next_slow();
        self.fast_until = if self.state == State::InGame
            && self.pending.is_none()
            && self.queued.is_none()
            && !self.after_variation
        {
            self.game_limit.saturating_add(1).min(self.input.len())
        } else {
            0
        };
        item
    }

    #[inline(never)]
    fn next_slow(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            if self.queued.is_some() {
                if let Some(ev) = self.queued.take() {
                    return Some(Ok(ev));
                }
            }
            match self.state {
                State::InGame => {
                    if let Some(p) = self.pending {
                        match self.next_value(p) {
                            Some(r) => return Some(r),
                            None => continue,
                        }
                    }
                    return Some(self.token());
                }
                State::Between => return self.between(),
                State::Starting => {
                    self.state = State::InGame;
                    return Some(self.warn(WarningKind::MissingParen, self.game_start));
                }
                State::Closing => {
                    if self.closing > 0 {
                        self.closing -= 1;
                        return Some(Ok(Event::VariationEnd));
                    }
                    self.state = State::Between;
                    self.depth = 0;
                    return Some(Ok(Event::GameEnd { length: (self.pos - self.game_start) as u64, ending: None }));
                }
                State::Done => return None,
            }
        }
    }

    /// Between games: skip junk (warning once per run of junk) and start the next game.
    fn between(&mut self) -> Option<Result<Event<'a>, Error>> {
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

    fn start_game(&mut self, at: usize) -> Result<Event<'a>, Error> {
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
        if let Some(sz) = root.size {
            if let Some((w, h)) = scan::parse_size(sz) {
                self.width = w;
                self.height = h;
            }
        }
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
    fn detect(&mut self, at: usize) -> Charset {
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

    /// One token inside a game.
    #[inline(always)]
    fn token(&mut self) -> Result<Event<'a>, Error> {
        let input = self.input;
        self.skip_ws();
        let p = self.pos;
        self.event_at = p;
        let Some(&b) = input.get(p) else {
            return self.eof_in_game();
        };
        match b {
            b';' => {
                self.pos = p + 1;
                self.open_node(p)
            }
            b'A'..=b'Z' | b'a'..=b'z' if self.after_variation && !self.warned_after_variation => {
                self.warned_after_variation = true;
                self.warn(WarningKind::PropertyAfterVariation, p)
            }
            b'B' | b'W' if self.in_node => {
                // Fast path for the commonest property: a move with a two-letter point.
                if let Some(&[b'[', x, y, b']']) = input.get(p + 1..p + 5) {
                    if let (Some(x), Some(y), true) = (scan::coord(x), scan::coord(y), ends_property(input.get(p + 5)))
                    {
                        let pt = Point::new(x, y);
                        if x < self.width && y < self.height {
                            self.pos = p + 5;
                            let point = Some(pt);
                            return Ok(Event::Move(Move::Go { color: color(b == b'B'), point }));
                        }
                    }
                }
                self.property(p)
            }
            b'A'..=b'Z' | b'a'..=b'z' => self.property(p),
            b'(' => {
                if self.new_game_inside(p) {
                    if self.bare && self.depth == 1 {
                        // A game without `(` has no `)` to lose: the next game ends it.
                        self.state = State::Between;
                        self.depth = 0;
                        return Ok(Event::GameEnd { length: (p - self.game_start) as u64, ending: None });
                    }
                    self.closing = self.depth - 1;
                    self.state = State::Closing;
                    return self.warn(WarningKind::Truncated, p);
                }
                // An empty variation `()` is dropped with a warning.
                let q = self.ws_from(p + 1);
                if input.get(q) == Some(&b')') {
                    self.pos = q + 1;
                    return self.warn(WarningKind::EmptyVariation, p);
                }
                if self.depth >= self.config.limits.max_depth {
                    return Err(self.error(ErrorKind::LimitExceeded(Limit::Depth), p, "variations nested too deeply"));
                }
                let had_node = self.in_node;
                self.pos = p + 1;
                self.depth += 1;
                self.after_variation = false;
                self.in_node = false;
                if !had_node {
                    // `((;a)(;b))`: the enclosing game tree has no node of its own.
                    self.queued = Some(Event::VariationStart(Branch::Child));
                    return self.warn(WarningKind::SequenceWithoutNode, p);
                }
                Ok(Event::VariationStart(Branch::Child))
            }
            b')' => {
                self.pos = p + 1;
                self.depth -= 1;
                self.in_node = true;
                if self.depth == 0 {
                    self.state = State::Between;
                    return Ok(Event::GameEnd { length: (self.pos - self.game_start) as u64, ending: None });
                }
                self.after_variation = true;
                self.warned_after_variation = false;
                Ok(Event::VariationEnd)
            }
            b'[' => {
                // A value with no identifier: skip it.
                let (_, end) = self.value_at(p)?;
                self.pos = end + 1;
                self.warn(WarningKind::ValueWithoutIdent, p)
            }
            _ => {
                let mut q = p + 1;
                while q < input.len()
                    && !matches!(input[q], b';' | b'(' | b')' | b'[' | b'A'..=b'Z' | b'a'..=b'z')
                    && !is_ws(input[q])
                {
                    q += 1;
                }
                self.pos = q;
                self.warn(WarningKind::Repaired, p)
            }
        }
    }

    #[inline(always)]
    fn open_node(&mut self, p: usize) -> Result<Event<'a>, Error> {
        self.nodes += 1;
        if self.nodes > self.config.limits.max_nodes || p > self.game_limit || self.after_variation {
            return self.open_node_slow(p);
        }
        self.in_node = true;
        Ok(Event::Node)
    }

    #[cold]
    fn open_node_slow(&mut self, p: usize) -> Result<Event<'a>, Error> {
        if self.nodes > self.config.limits.max_nodes {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Nodes), p, "too many nodes in one game"));
        }
        if p > self.game_limit {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::GameSize), p, "game too large"));
        }
        self.in_node = true;
        if self.after_variation {
            self.after_variation = false;
            let w = self.warn(WarningKind::NodeAfterVariation, p)?;
            self.queued = Some(Event::Node);
            return Ok(w);
        }
        Ok(Event::Node)
    }

    /// End of input inside a game: lenient mode closes the game with a warning, strict errs.
    fn eof_in_game(&mut self) -> Result<Event<'a>, Error> {
        let end = self.input.len();
        if self.bare && self.depth == 1 {
            // A game without `(` ends with the input.
            self.pos = end;
            self.state = State::Between;
            self.depth = 0;
            return Ok(Event::GameEnd { length: (end - self.game_start) as u64, ending: None });
        }
        if self.config.is_strict() {
            let e = self.error(ErrorKind::UnexpectedEof, end, "the input ended inside a game");
            self.state = State::Done;
            return Err(e);
        }
        self.closing = self.depth.saturating_sub(1);
        self.state = State::Closing;
        self.warn(WarningKind::Truncated, end)
    }

    /// Finds the value starting with `[` at `p`: returns (start, end) with `input[end] == b']'`.
    fn value_at(&mut self, p: usize) -> Result<(usize, usize), Error> {
        let start = p + 1;
        let limit = self.config.limits.max_value_len;
        match scan::value_end(self.input, start, self.charset, limit) {
            scan::End::At(e) => Ok((start, e)),
            scan::End::Eof => Err(self.open_value(p)),
            scan::End::TooLong => {
                Err(self.error(ErrorKind::LimitExceeded(Limit::ValueSize), p, "value larger than the limit"))
            }
        }
    }

    /// The error for a value whose `[` at `p` is never closed: the input ends inside it, so
    /// reading stops (no game can follow).
    fn open_value(&mut self, p: usize) -> Error {
        self.pos = self.input.len();
        let e = self.error(ErrorKind::UnexpectedEof, p, "unterminated value at end of input");
        self.state = State::Done;
        e
    }

    /// A property identifier at `p`.
    fn property(&mut self, p: usize) -> Result<Event<'a>, Error> {
        let input = self.input;
        let mut q = p;
        while q < input.len() && scan::IDENT[input[q] as usize] {
            q += 1;
        }
        let name = &input[p..q];
        if !self.in_node {
            // `(B[aa])`: the node's `;` is missing.
            self.in_node = true;
            self.nodes += 1;
            self.queued = Some(Event::Node);
            return self.warn(WarningKind::MissingSemicolon, p);
        }
        let v = self.ws_from(q);
        if input.get(v) != Some(&b'[') {
            self.pos = v;
            return self.warn(WarningKind::IdentWithoutValue, p);
        }
        self.pos = v;
        let kind = if name.len() <= 2 && name.iter().all(u8::is_ascii_uppercase) {
            props::kind(name)
        } else {
            let id = Ident::normalise(name);
            // A digit (`C1`) makes an identifier no FF version defines, whatever its letters.
            let digit = name.iter().any(u8::is_ascii_digit);
            let known = !(digit || id.overlong || id.as_bytes().is_empty());
            let kind = if known { props::kind(id.as_bytes()) } else { Kind::Other };
            if (digit || name.iter().any(u8::is_ascii_lowercase)) && !(known && props::is_defined(id.as_bytes())) {
                // Not FF[4] syntax, and no FF[3] reading gives it a meaning: kept verbatim as an
                // unknown property, with a warning each time.
                self.pending = Some(Pending { kind, name, rect: None });
                return self.warn(WarningKind::NonstandardIdent, p);
            }
            if !self.warned_lowercase && name.iter().any(u8::is_ascii_lowercase) {
                self.warned_lowercase = true;
                self.pending = Some(Pending { kind, name, rect: None });
                return self.warn(WarningKind::LowercaseIdent, p);
            }
            kind
        };
        if let Kind::Info(key) = kind {
            // The common case of game info: one value. Read it here, without the machinery for
            // lists of values.
            if key != InfoKey::BoardSize {
                let (s, e) = self.value_at(v)?;
                if input.get(self.ws_from(e + 1)) != Some(&b'[') {
                    self.pos = e + 1;
                    self.event_at = v;
                    let rule = if props::info_is_text(key) { TextRule::SgfText } else { TextRule::SgfSimpleText };
                    let value = &input[s..e];
                    let info = Info::new(key, name, Text::new(value, rule, self.charset), &input[p..e]);
                    return self.text_event(Event::Info(info), value, s);
                }
            }
        }
        let pending = Pending { kind, name, rect: None };
        self.pending = Some(pending);
        match self.next_value(pending) {
            Some(r) => r,
            // Not reached: a value follows the identifier and every kind but `Other` (handled
            // by `pass_through`) gives an event for it. Kept total rather than panicking.
            None => self.warn(WarningKind::Repaired, p),
        }
    }

    /// The next event from the pending property, or `None` when it has no more values.
    fn next_value(&mut self, mut pend: Pending<'a>) -> Option<Result<Event<'a>, Error>> {
        loop {
            if let Some(r) = pend.rect.as_mut() {
                let pt = Point::new(r[4], r[5]);
                if r[4] < r[2] {
                    r[4] += 1;
                } else if r[5] < r[3] {
                    r[4] = r[0];
                    r[5] += 1;
                } else {
                    pend.rect = None;
                }
                self.pending = Some(pend);
                return Some(Ok(self.point_event(pend.kind, pt)));
            }
            let v = self.ws_from(self.pos);
            if self.input.get(v) != Some(&b'[') {
                self.pos = v;
                self.pending = None;
                return None;
            }
            self.event_at = v;
            if pend.kind == Kind::Other {
                return Some(self.pass_through(pend.name, v));
            }
            let (s, e) = match self.value_at(v) {
                Ok(x) => x,
                Err(err) => return Some(Err(err)),
            };
            self.pos = e + 1;
            // Most properties have one value: when no `[` follows, finish the property now
            // rather than on the next call.
            let next = self.ws_from(e + 1);
            let more = self.input.get(next) == Some(&b'[');
            self.pending = if more { Some(pend) } else { None };
            let value = &self.input[s..e];
            match self.value_event(&mut pend, v, s, e, value) {
                Some(r) => {
                    if pend.rect.is_some() {
                        self.pending = Some(pend);
                    }
                    return Some(r);
                }
                None => {
                    if pend.rect.is_some() {
                        continue;
                    }
                    if !more {
                        self.pending = None;
                        return None;
                    }
                }
            }
        }
    }

    fn point_event(&self, kind: Kind, pt: Point) -> Event<'a> {
        match kind {
            Kind::Setup(c) => Event::Setup(Setup::Go { color: c.map(color), point: pt }),
            Kind::Mark(m) => Event::Markup(Markup::new(m, Some(pt), None)),
            _ => Event::Markup(Markup::new(MarkupKind::Other, Some(pt), None)),
        }
    }

    fn off_board(&self, pt: Point) -> bool {
        pt.x >= self.width || pt.y >= self.height
    }

    /// The event for one value `input[s..e]` (its `[` at `v`); `None` to go on to the next value
    /// (after starting a rectangle in `pend`).
    fn value_event(
        &mut self,
        pend: &mut Pending<'a>,
        v: usize,
        s: usize,
        e: usize,
        value: &'a [u8],
    ) -> Option<Result<Event<'a>, Error>> {
        let cs = self.charset;
        match pend.kind {
            Kind::Move(black) => {
                let c = color(black);
                let point = match scan::point(value) {
                    scan::Pt::Empty => None,
                    scan::Pt::At(pt) if pt == Point::new(19, 19) && self.width <= 19 && self.height <= 19 => None,
                    scan::Pt::At(pt) => {
                        if self.off_board(pt) || value.len() != 2 {
                            // Off the board, or a point with white space around it (`B[ bc]`):
                            // the move is kept, after a warning.
                            self.queued = Some(Event::Move(Move::Go { color: c, point: Some(pt) }));
                            let kind =
                                if value.len() != 2 { WarningKind::Repaired } else { WarningKind::PointOffBoard };
                            return Some(self.warn(kind, s));
                        }
                        Some(pt)
                    }
                    scan::Pt::Bad => return Some(self.warn(WarningKind::BadPoint, s)),
                };
                Some(Ok(Event::Move(Move::Go { color: c, point })))
            }
            Kind::Setup(_) | Kind::Mark(_) => match scan::point_or_rect(value) {
                scan::Rect::One(pt) => {
                    let ev = self.point_event(pend.kind, pt);
                    if self.off_board(pt) {
                        self.queued = Some(ev);
                        return Some(self.warn(WarningKind::PointOffBoard, s));
                    }
                    Some(Ok(ev))
                }
                scan::Rect::Many(a, b) => {
                    if a.x > b.x || a.y > b.y {
                        let (lo, hi) = (Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)));
                        pend.rect = Some([lo.x, lo.y, hi.x, hi.y, lo.x, lo.y]);
                        return Some(self.warn(WarningKind::BadRectangle, s));
                    }
                    if self.off_board(b) {
                        pend.rect = Some([a.x, a.y, b.x, b.y, a.x, a.y]);
                        return Some(self.warn(WarningKind::PointOffBoard, s));
                    }
                    pend.rect = Some([a.x, a.y, b.x, b.y, a.x, a.y]);
                    None
                }
                scan::Rect::Empty => match pend.kind {
                    // The elist properties: `DD[]`/`VW[]` clear, an empty `TB[]`/`TW[]` marks no
                    // territory; each is one mark without a point, so it round-trips.
                    Kind::Mark(
                        m @ (MarkupKind::Dim
                        | MarkupKind::Visible
                        | MarkupKind::TerritoryBlack
                        | MarkupKind::TerritoryWhite),
                    ) => Some(Ok(Event::Markup(Markup::new(m, None, None)))),
                    _ => Some(self.warn(WarningKind::BadPoint, s)),
                },
                scan::Rect::Bad => Some(self.warn(WarningKind::BadPoint, s)),
            },
            Kind::Label => {
                let colon = scan::compose_split(value, cs);
                let (pt, label) = match colon {
                    Some(c) => (&value[..c], &value[c + 1..]),
                    None => (value, &value[value.len()..]),
                };
                match scan::point(pt) {
                    scan::Pt::At(p) => Some(Ok(Event::Markup(Markup::with_label(
                        MarkupKind::Label,
                        Some(p),
                        Text::new(label, TextRule::SgfSimpleText, cs),
                    )))),
                    _ => Some(self.warn(WarningKind::BadPoint, s)),
                }
            }
            Kind::Pair(m) => {
                let pair = scan::compose_split(value, cs).and_then(|c| {
                    match (scan::point(&value[..c]), scan::point(&value[c + 1..])) {
                        (scan::Pt::At(a), scan::Pt::At(b)) => Some((a, b)),
                        _ => None,
                    }
                });
                match pair {
                    Some((a, b)) => Some(Ok(Event::Markup(Markup::new(m, Some(a), Some(b))))),
                    None => Some(self.warn(WarningKind::BadPoint, s)),
                }
            }
            Kind::Turn => match scan::trim(value) {
                b"B" | b"b" | b"1" => Some(Ok(Event::Turn(Color::Black))),
                b"W" | b"w" | b"2" => Some(Ok(Event::Turn(Color::White))),
                _ => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Comment => Some(self.text_event(Event::Comment(Text::new(value, TextRule::SgfText, cs)), value, s)),
            Kind::Name => Some(self.text_event(Event::Name(Text::new(value, TextRule::SgfSimpleText, cs)), value, s)),
            Kind::TimeLeft(black) => match scan::parse_millis(value) {
                Some(ms) => {
                    Some(Ok(Event::Clock(Clock { color: Some(color(black)), kind: ClockKind::TimeLeftMs, value: ms })))
                }
                None => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Periods(black) => match std::str::from_utf8(scan::trim(value)).ok().and_then(|t| t.parse().ok()) {
                Some(n) => {
                    Some(Ok(Event::Clock(Clock { color: Some(color(black)), kind: ClockKind::PeriodsLeft, value: n })))
                }
                None => Some(self.warn(WarningKind::BadValue, s)),
            },
            Kind::Info(key) => {
                let rule = if props::info_is_text(key) { TextRule::SgfText } else { TextRule::SgfSimpleText };
                let name_start = pend.name.as_ptr() as usize - self.input.as_ptr() as usize;
                let whole = &self.input[name_start..e];
                let _ = v;
                if key == InfoKey::BoardSize && scan::parse_size(value).is_none() {
                    self.queued = Some(Event::Info(Info::new(key, pend.name, Text::new(value, rule, cs), whole)));
                    return Some(self.warn(WarningKind::BadBoardSize, s));
                }
                Some(self.text_event(
                    Event::Info(Info::new(key, pend.name, Text::new(value, rule, cs), whole)),
                    value,
                    s,
                ))
            }
            Kind::Other => None,
        }
    }

    /// `ev` carries the text `value` (at offset `s`): in a UTF-8 game, invalid UTF-8 is reported
    /// by a warning before the event (the text still decodes, lossily).
    fn text_event(&mut self, ev: Event<'a>, value: &[u8], s: usize) -> Result<Event<'a>, Error> {
        if self.charset == Charset::Utf8 && !value.is_ascii() {
            if let Err(e) = std::str::from_utf8(value) {
                self.queued = Some(ev);
                return self.warn(WarningKind::InvalidText, s + e.valid_up_to());
            }
        }
        Ok(ev)
    }

    /// A property passed through: all its values at once.
    fn pass_through(&mut self, name: &'a [u8], first: usize) -> Result<Event<'a>, Error> {
        let mut v = first;
        let mut last_end;
        loop {
            let (_, e) = self.value_at(v)?;
            last_end = e + 1;
            v = self.ws_from(last_end);
            if self.input.get(v) != Some(&b'[') {
                break;
            }
        }
        self.pos = last_end;
        self.pending = None;
        let name_start = name.as_ptr() as usize - self.input.as_ptr() as usize;
        let values = Text::new(&self.input[first..last_end], TextRule::SgfValues, self.charset);
        Ok(Event::Property(Property::new(name, values, &self.input[name_start..last_end])))
    }

    /// Skips to the end of the game that contains `self.pos` at the current depth.
    fn skip_to_game_end(&mut self) -> Result<(), Error> {
        self.pending = None;
        self.queued = None;
        self.stash = [0; 3];
        self.fast_until = 0;
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

/// Whether the byte after a value surely ends its property (no second value can follow): the
/// fast paths take a move only then.
#[inline]
fn ends_property(next: Option<&u8>) -> bool {
    !matches!(next, Some(b'[' | b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c))
}

fn color(black: bool) -> Color {
    if black {
        Color::Black
    } else {
        Color::White
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Event<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.next_item()
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
        self.stash = [0; 3];
        self.fast_until = 0;
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
