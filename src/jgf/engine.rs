//! The engine both JGF readers share: its state (the explicit context stack, the event queue),
//! the game loop over JSON tokens, games and documents, errors and warnings. Its other jobs are
//! in the submodules: [`values`] (one value and the events it becomes), [`header`] (sections,
//! board, players), [`tree`] (nodes and variations) and [`flat`] (flat move and point objects).
//! The node-level keys of each version are mapped in `v1.rs` and `v2.rs`.

mod flat;
mod header;
mod tree;
mod values;

pub(crate) use flat::Flat;

use super::sizes::board_size_text;
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{span, Branch, Color, Event, Info, InfoKey, Point, Property};
use crate::input::{Config, LineIndex};
use crate::json::{parse_int, Cursor, Dialect, LexError, LexErrorKind, Raw, Tok, Token, Tokenizer};
use crate::kit::queue::EventQueue;
use crate::kit::report;
use crate::text::{Charset, Text, TextRule};

/// Which JGF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V2,
}

/// A header section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    Record,
    Source,
    Game,
    Event,
    Rules,
    Board,
    /// `settings` (v2), `player` (v1), `meta`: passed through as properties.
    PassThrough,
    /// v1 `game.time`.
    Time,
}

/// What the open JSON container means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx<'a> {
    /// Waiting for the top-level value.
    Root,
    /// The top-level object.
    Top,
    Section(Section),
    /// `players` as an array of player objects.
    PlayersArray,
    /// `players` as an object keyed by colour (Seki's writer).
    PlayersObject,
    /// One player object.
    Player,
    /// A list of nodes: the tree (`variation == false`) or one variation.
    Seq {
        variation: bool,
        after_variations: bool,
        extra_open: bool,
    },
    /// A node object. `started`: its `Node` event is out; `vars`: it held `variations`.
    Node {
        started: bool,
        vars: bool,
    },
    /// v2 `variations` array / v1 bare variation group: each element is one variation.
    VarGroup,
    /// v2 markup/setup/score list of `{type, coords}` entries.
    TypedList(List),
    /// One `{type, coords}` entry; `kind` once the type is known.
    TypedEntry(List, Option<Kind<'a>>),
    /// An array of point objects of one kind.
    Coords(Kind<'a>),
    /// v1: an object keyed by markup type, or setup/score keyed by `B`/`W`/`E`.
    KeyedList(List),
    /// v1: an array of points (letters or `[x, y]`) of one kind.
    Points(Kind<'a>),
}

/// Which list a typed entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum List {
    Markup,
    Setup,
    Score,
}

/// What a point in a list becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind<'a> {
    Markup(crate::event::MarkupKind),
    /// `Other` markup with its own name (happy, sad, diamond…).
    OtherMarkup(&'a [u8]),
    Setup(Option<Color>),
    /// An unknown type: points are skipped.
    Skip,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Between,
    InGame,
    Done,
}

/// Pending events held inline; more spill, never drop (see [`EventQueue`]).
const QUEUE: usize = 32;

/// Fields of a player object, kept until its colour is known.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PlayerBuf<'a> {
    pub color: Option<Color>,
    pub name: Option<(&'a [u8], Text<'a>)>,
    pub rank: Option<(&'a [u8], Text<'a>)>,
    pub team: Option<(&'a [u8], Text<'a>)>,
    pub bad_color: bool,
}

/// The shared reader state. See the [module docs](super) for the mapping.
#[derive(Debug)]
pub(crate) struct Engine<'a> {
    pub input: &'a [u8],
    /// The tokenizer, with the value read ahead with its key.
    pub lex: Cursor<'a>,
    pub config: Config,
    pub version: Version,
    lines: LineIndex,
    queue: EventQueue<'a, QUEUE>,
    phase: Phase,
    pub ctx: Vec<Ctx<'a>>,
    pub game_start: usize,
    pub games: u64,
    pub nodes: u64,
    pub var_depth: u32,
    pub width: u8,
    pub height: u8,
    pub board_seen: bool,
    pub board_w: Option<(u8, usize)>,
    pub board_h: Option<(u8, usize)>,
    pub player: PlayerBuf<'a>,
}

/// The JSON nesting allowed for a variation depth limit: each variation level costs up to three
/// JSON levels (`{"variations":[[`), plus the header.
fn json_depth(max_depth: u32) -> usize {
    (max_depth as usize).saturating_mul(3).saturating_add(16)
}

impl<'a> Engine<'a> {
    pub fn new(input: &'a [u8], config: Config, dialect: Dialect, version: Version) -> Engine<'a> {
        Engine {
            input,
            lex: Cursor::new(Tokenizer::new(input, dialect, json_depth(config.limits.max_depth))),
            config,
            version,
            lines: LineIndex::new(),
            queue: EventQueue::new(),
            phase: Phase::Between,
            ctx: Vec::with_capacity(256),
            game_start: 0,
            games: 0,
            nodes: 0,
            var_depth: 0,
            width: 19,
            height: 19,
            board_seen: false,
            board_w: None,
            board_h: None,
            player: PlayerBuf::default(),
        }
    }

    pub fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// Queues an event (never dropped: see [`EventQueue`]).
    #[inline]
    pub fn push(&mut self, e: Event<'a>) {
        self.queue.push(e);
    }

    /// Queues a warning (promoted to an error when it comes out in strict mode).
    pub fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.queue.push(report::warning(kind, offset));
    }

    /// An error that ends the game; reading resumes at the next line that starts a JSON
    /// document (JSON lines), or ends.
    pub fn error(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.abort(offset);
        Error::new(kind, pos, message)
    }

    fn abort(&mut self, offset: usize) {
        self.lex.clear_pending();
        self.queue.clear();
        self.ctx.clear();
        let input = self.input;
        let mut p = offset.min(input.len());
        loop {
            match memchr::memchr(b'\n', &input[p..]) {
                Some(k) => {
                    p += k + 1;
                    if matches!(input.get(p), Some(b'{' | b'[')) {
                        self.lex.restart(p);
                        self.phase = Phase::Between;
                        return;
                    }
                }
                None => {
                    self.lex.restart(input.len());
                    self.phase = Phase::Done;
                    return;
                }
            }
        }
    }

    pub fn lex_error(&mut self, e: LexError) -> Error {
        self.error(e.kind.error_kind(), e.offset, e.message)
    }

    /// The next token of the game; extensions become warnings (queued) and are skipped.
    /// The common case is inlined into the callers; the rest is `token_slow`.
    #[inline(always)]
    pub fn token(&mut self) -> Result<Tok<'a>, Error> {
        if let Some(t) = self.lex.take_pending() {
            return Ok(t);
        }
        match self.lex.next_plain() {
            Ok(t) => Ok(t),
            Err(r) => self.token_slow(r),
        }
    }

    /// The next key of an object (or its end), like `token`; a plain `"key": value` member is
    /// read in one step and its value kept for the next `token`, which the caller makes at once.
    #[inline(always)]
    pub fn key_token(&mut self) -> Result<Tok<'a>, Error> {
        match self.lex.next_key() {
            Some(t) => Ok(t),
            None => self.token(),
        }
    }

    #[inline(never)]
    fn token_slow(&mut self, mut r: Raw) -> Result<Tok<'a>, Error> {
        loop {
            match r.kind {
                Raw::EXTENSION => self.warn(WarningKind::JsonExtension, r.offset),
                Raw::END => {
                    let end = self.input.len();
                    return Err(self.error(ErrorKind::UnexpectedEof, end, "the input ended inside the game"));
                }
                Raw::ERROR => {
                    let e = self.lex.take_error();
                    return Err(self.lex_error(e));
                }
                _ => return Ok(self.lex.tok_of(r)),
            }
            r = self.lex.next_raw();
        }
    }

    /// The next item for the caller: a queued event, or the next step of the game loop.
    #[inline]
    pub fn next_item(
        &mut self,
        step: fn(&mut Engine<'a>, Tok<'a>) -> Result<(), Error>,
    ) -> Option<Result<Event<'a>, Error>> {
        loop {
            match self.queue.pop_checked(self.config.is_strict()) {
                Some(Ok(e)) => return Some(Ok(e)),
                Some(Err(w)) => {
                    let e = report::promoted(w, self.input, &mut self.lines);
                    self.abort(w.offset as usize);
                    return Some(Err(e));
                }
                None => {}
            }
            match self.phase {
                Phase::Done => return None,
                Phase::Between => {
                    if let Err(e) = self.between() {
                        return Some(Err(e));
                    }
                }
                Phase::InGame => {
                    if self.ctx.is_empty() {
                        // The top-level value is complete.
                        let length = self.lex.offset().saturating_sub(self.game_start) as u64;
                        self.push(Event::GameEnd { length, ending: None });
                        self.phase = Phase::Between;
                        continue;
                    }
                    let at = self.lex.offset();
                    if at.saturating_sub(self.game_start) as u64 > self.config.limits.max_game_len {
                        let e = self.error(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large");
                        return Some(Err(e));
                    }
                    let r = self.token().and_then(|t| step(self, t));
                    if let Err(e) = r {
                        return Some(Err(e));
                    }
                }
            }
        }
    }

    /// Between games: the end, or the start of the (next) document.
    fn between(&mut self) -> Result<(), Error> {
        let start;
        if !self.lex.is_done() {
            // The first document, or a restart after an error.
            let from = self.lex.offset();
            let rest = &self.input[from..];
            let Some(k) = rest.iter().position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t')) else {
                self.phase = Phase::Done;
                return Ok(());
            };
            start = if from == 0 && self.input.starts_with(&[0xEF, 0xBB, 0xBF]) { 0 } else { from + k };
        } else {
            match self.lex.next_token() {
                Ok(Some(t)) => {
                    self.warn(WarningKind::JsonExtension, t.offset);
                    return Ok(());
                }
                Ok(None) => {
                    self.phase = Phase::Done;
                    return Ok(());
                }
                Err(e) if e.kind == LexErrorKind::Trailing && matches!(self.input[e.offset], b'{' | b'[') => {
                    self.lex.restart(e.offset);
                    start = e.offset;
                }
                Err(e) => {
                    self.warn(WarningKind::JunkAfterGames, e.offset);
                    self.phase = Phase::Done;
                    self.lex.restart(self.input.len());
                    return Ok(());
                }
            }
        }
        self.games += 1;
        self.game_start = start;
        self.nodes = 0;
        self.var_depth = 0;
        self.width = 19;
        self.height = 19;
        self.board_seen = false;
        self.board_w = None;
        self.board_h = None;
        self.ctx.clear();
        self.ctx.push(Ctx::Root);
        self.phase = Phase::InGame;
        self.push(Event::GameStart { offset: start as u64 });
        Ok(())
    }

    /// Skips the rest of the current game (or the next game) without building events.
    pub fn skip_game(&mut self, step: fn(&mut Engine<'a>, Tok<'a>) -> Result<(), Error>) -> Result<bool, Error> {
        loop {
            match self.phase {
                Phase::Done => return Ok(false),
                Phase::Between => {
                    match self.next_item(step) {
                        None => return Ok(false),
                        Some(Err(e)) => return Err(e),
                        Some(Ok(Event::GameStart { .. })) => {}
                        Some(Ok(_)) => continue,
                    }
                    if self.phase != Phase::InGame {
                        continue;
                    }
                }
                Phase::InGame => {}
            }
            // In a game: run the tokenizer to the end of the document.
            self.queue.clear();
            while !self.lex.is_done() {
                match self.lex.next_token() {
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) => return Err(self.lex_error(e)),
                }
            }
            self.ctx.clear();
            self.phase = Phase::Between;
            return Ok(true);
        }
    }
}
