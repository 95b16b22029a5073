//! The SGF pull reader: a byte-level tokenizer and the mapping of properties to events, in one
//! state machine that returns one event per call and never recurses.

use super::props::{self, Kind};
use super::scan;
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Branch, Color, Event, Move, Point, Warning};
use crate::input::{Config, LineIndex};
use crate::text::Charset;

mod between;
mod fast;
mod skip;
#[cfg(test)]
mod tests;
mod values;

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
    /// The input the hot path may read tokens from (`input` up to the game-size limit and as
    /// many bytes as the node limit still allows nodes, while the hot path may run; else
    /// empty): it runs while `pos` is inside it.
    window: &'a [u8],
    /// The board size clamped to 26 (`a`-`z`): the hot path's moves use lower-case letters only.
    lower: [u8; 2],
    /// `FF[3]` lower-case identifiers were reported in this game (once per game is enough).
    warned_lowercase: bool,
    /// The root's `GM` is not 1: the game is not Go, so its moves, setup and marks are passed
    /// through as properties rather than read as Go points.
    not_go: bool,
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
const fn is_ws(b: u8) -> bool {
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
            window: &[],
            lower: [19, 19],
            warned_lowercase: false,
            not_go: false,
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
        self.window = &[];
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

    fn ws_from(&self, p: usize) -> usize {
        ws_from(self.input, p)
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

    /// The hot path ([`Reader::fast`]: a node, a plain move, a property of one value) while
    /// `pos` is inside `window`; everything else goes through [`Reader::next_slow`], which also
    /// decides whether the next call may take the hot path (`window`: only inside a game and a
    /// node, with nothing pending or queued, no variation just closed, a Go game, and within the
    /// game-size limit).
    #[inline(always)]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        // A node and a move return from their own branches, the event known there: a caller
        // that matches on the event can then go straight to its arm (one indirect jump less per
        // event, and a well-predicted one).
        let p = self.pos;
        if let Some(&b) = self.window.get(p) {
            if b == b';' {
                return Some(Ok(self.fast_node(p)));
            }
            if b == b'B' || b == b'W' {
                if let Some(point) = self.fast_move(p) {
                    return Some(Ok(Event::Move(Move::Go { color: color(b == b'B'), point: Some(point) })));
                }
            }
            if let Some(ev) = self.fast(p, b) {
                return Some(Ok(ev));
            }
        }
        let item = self.next_slow();
        let input = self.input;
        self.window = if self.state == State::InGame
            && self.in_node
            && self.pending.is_none()
            && self.queued.is_none()
            && !self.after_variation
            && !self.not_go
        {
            // Each node takes a byte at least: a window no longer than the nodes the limit still
            // allows cannot take the hot path past it.
            let nodes_left =
                usize::try_from(self.config.limits.max_nodes.saturating_sub(self.nodes)).unwrap_or(usize::MAX);
            &input[..self.game_limit.saturating_add(1).min(input.len()).min(self.pos.saturating_add(nodes_left))]
        } else {
            &[]
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
            b'B' | b'W' if self.in_node && !self.not_go => {
                // Fast path for the commonest property: a move with a two-letter point.
                if let Some(&[b'[', x, y, b']']) = input.get(p + 1..p + 5) {
                    if let (Some(x), Some(y), true) =
                        (scan::coord(x), scan::coord(y), fast::ends_property(input, p + 5))
                    {
                        let pt = Point::new(x, y);
                        if x < self.width && y < self.height {
                            self.pos = p + 5;
                            // Where the value starts, as for every event read from a value.
                            self.event_at = p + 1;
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
}

/// The first index from `p` that is not white space (or the end).
#[inline]
fn ws_from(input: &[u8], mut p: usize) -> usize {
    while p < input.len() && is_ws(input[p]) {
        p += 1;
    }
    p
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

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        self.next_item()
    }
}
