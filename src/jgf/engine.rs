//! The machinery both JGF readers share: the game loop over JSON tokens, the explicit context
//! stack, the event queue, the header sections, players, sequences and variations, errors and
//! warnings. The node-level keys of each version are mapped in `v1.rs` and `v2.rs`.

use super::sizes::board_size_text;
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{span, Branch, Color, Event, Info, InfoKey, Point, Property};
use crate::input::{Config, LineIndex};
use crate::json::{parse_int, Dialect, LexError, LexErrorKind, Raw, Tok, Token, Tokenizer};
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
    pub lex: Tokenizer<'a>,
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
    /// The value of a member read in one step by `key_token`, for the next `token`.
    pending: Option<Tok<'a>>,
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
            lex: Tokenizer::new(input, dialect, json_depth(config.limits.max_depth)),
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
            pending: None,
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
        self.pending = None;
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
        if let Some(t) = self.pending.take() {
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
        match self.lex.next_key(&mut self.pending) {
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

    /// A node's `name`: a string becomes [`Event::Name`], anything else a `wrong_type` warning
    /// (and is skipped).
    pub fn name(&mut self) -> Result<(), Error> {
        self.string_value(Event::Name)
    }

    /// The next value, which should be a string: it becomes `event(text)`; anything else is a
    /// `wrong_type` warning and is skipped.
    pub fn string_value(&mut self, event: fn(Text<'a>) -> Event<'a>) -> Result<(), Error> {
        let t = self.token()?;
        match t.token {
            Token::String(s) => self.push(event(Text::new(s, TextRule::JsonString, Charset::Utf8))),
            _ => self.skip_wrong_type(t)?,
        }
        Ok(())
    }

    /// A value of the wrong type at `t`: a `wrong_type` warning, and the value skipped.
    pub fn skip_wrong_type(&mut self, t: Tok<'a>) -> Result<(), Error> {
        self.warn(WarningKind::WrongType, t.offset);
        self.finish_value(t).map(|_| ())
    }

    /// Skips the rest of a value whose first token `t` was just read; returns the offset after it.
    pub fn finish_value(&mut self, t: Tok<'a>) -> Result<usize, Error> {
        if matches!(t.token, Token::ObjectStart | Token::ArrayStart) {
            let depth = self.lex.depth();
            match self.lex.skip_open(depth) {
                Ok((end, ext)) => {
                    if ext {
                        self.warn(WarningKind::JsonExtension, t.offset);
                    }
                    Ok(end)
                }
                Err(e) => Err(self.lex_error(e)),
            }
        } else {
            Ok(self.lex.offset())
        }
    }

    /// The raw text of a value whose first token is `t`: a string's content (JsonString), or the
    /// JSON text of anything else (Plain). Consumes the rest of a container.
    pub fn value_text(&mut self, t: Tok<'a>) -> Result<Text<'a>, Error> {
        if let Token::String(s) = t.token {
            if s.len() > self.config.limits.max_value_len {
                return Err(self.error(ErrorKind::LimitExceeded(Limit::ValueSize), t.offset, "value too long"));
            }
            return Ok(Text::new(s, TextRule::JsonString, Charset::Utf8));
        }
        let end = self.finish_value(t)?;
        Ok(Text::new(&self.input[t.offset..end], TextRule::Plain, Charset::Utf8))
    }

    pub fn info(&self, key: InfoKey, name: &'a [u8], value: Text<'a>) -> Event<'a> {
        let whole = span(self.input, name, value.raw()).unwrap_or(&[]);
        Event::Info(Info::new(key, name, value, whole))
    }

    pub fn property(&self, name: &'a [u8], value: Text<'a>) -> Event<'a> {
        let whole = span(self.input, name, value.raw()).unwrap_or(&[]);
        Event::Property(Property::new(name, value, whole))
    }

    /// Reads the value after `name` and queues it as a property.
    pub fn pass_through(&mut self, name: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        let v = self.value_text(t)?;
        let e = self.property(name, v);
        self.push(e);
        Ok(())
    }

    /// After a key whose value must be an object or array: reads the value's first token and,
    /// when it is `open`, pushes `ctx`; otherwise warns (wrong type) and skips it.
    pub fn expect_open(&mut self, open: Token<'a>, ctx: Ctx<'a>) -> Result<(), Error> {
        let t = self.token()?;
        if t.token == open {
            self.ctx.push(ctx);
        } else {
            self.skip_wrong_type(t)?;
        }
        Ok(())
    }

    /// A small non-negative integer (board coordinate, size) from a number token.
    #[inline]
    pub fn small_int(t: Tok<'a>) -> Option<i64> {
        match t.token {
            Token::Number(n) => parse_int(n),
            _ => None,
        }
    }

    /// Checks a point against the board: `Ok(Some)` on the board; `Ok(None)` (after a warning)
    /// off it.
    #[inline]
    pub fn point(&mut self, x: i64, y: i64, offset: usize) -> Option<Point> {
        if (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y) {
            Some(Point::new(x as u8, y as u8))
        } else {
            self.warn(WarningKind::PointOffBoard, offset);
            None
        }
    }

    /// Whether (x, y) is the writer's `tt` pass (19, 19) on a board of at most 19×19.
    pub fn is_tt(&self, x: i64, y: i64) -> bool {
        x == 19 && y == 19 && self.width <= 19 && self.height <= 19
    }

    pub fn open_node(&mut self, offset: usize) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes > self.config.limits.max_nodes {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Nodes), offset, "too many nodes in one game"));
        }
        // A node after a variations node in the same sequence: one more child of the node
        // before the branch, i.e. one more variation, which stays open to the end of the sequence.
        let n = self.ctx.len();
        if n >= 2 {
            if let Ctx::Seq { variation, after_variations: true, extra_open: false } = self.ctx[n - 2] {
                self.warn(WarningKind::NodeAfterVariations, offset);
                self.open_variation(offset)?;
                self.ctx[n - 2] = Ctx::Seq { variation, after_variations: true, extra_open: true };
            }
        }
        self.push(Event::Node);
        Ok(())
    }

    pub fn open_variation(&mut self, offset: usize) -> Result<(), Error> {
        self.var_depth += 1;
        if self.var_depth > self.config.limits.max_depth {
            return Err(self.error(ErrorKind::LimitExceeded(Limit::Depth), offset, "variations nested too deeply"));
        }
        self.push(Event::VariationStart(Branch::Child));
        Ok(())
    }

    pub fn close_variation(&mut self) {
        self.var_depth = self.var_depth.saturating_sub(1);
        self.push(Event::VariationEnd);
    }

    /// Marks the sequence holding the current position as having seen a variations node.
    pub fn mark_variations(&mut self) {
        for c in self.ctx.iter_mut().rev() {
            if let Ctx::Seq { variation, extra_open, .. } = *c {
                *c = Ctx::Seq { variation, after_variations: true, extra_open };
                return;
            }
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

    // ---- the header ----

    /// The top-level value's first token.
    pub fn root(&mut self, t: Tok<'a>) -> Result<(), Error> {
        self.ctx.pop();
        match t.token {
            Token::ObjectStart => self.ctx.push(Ctx::Top),
            Token::ArrayStart => {
                // A file that is only the tree array (ngGo's demo files).
                if self.version == Version::V2 {
                    self.warn(WarningKind::MissingValue, t.offset);
                }
                self.ctx.push(Ctx::Seq { variation: false, after_variations: false, extra_open: false });
            }
            _ => {
                return Err(self.error(ErrorKind::NotAGameRecord, t.offset, "a JGF file holds a JSON object"));
            }
        }
        Ok(())
    }

    /// A key of the top-level object.
    pub fn top_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let section = match key {
            b"record" => Some(Section::Record),
            b"source" => Some(Section::Source),
            b"game" => Some(Section::Game),
            b"event" => Some(Section::Event),
            b"rules" => Some(Section::Rules),
            b"board" => Some(Section::Board),
            b"settings" | b"meta" | b"player" => Some(Section::PassThrough),
            _ => None,
        };
        if let Some(s) = section {
            if s == Section::PassThrough {
                return self.pass_through(key);
            }
            return self.expect_open(Token::ObjectStart, Ctx::Section(s));
        }
        match key {
            b"players" => {
                let t = self.token()?;
                match t.token {
                    Token::ArrayStart => self.ctx.push(Ctx::PlayersArray),
                    Token::ObjectStart => self.ctx.push(Ctx::PlayersObject),
                    _ => {
                        self.skip_wrong_type(t)?;
                    }
                }
                Ok(())
            }
            b"tree" => {
                if !self.board_seen {
                    self.look_ahead_board();
                }
                self.expect_open(
                    Token::ArrayStart,
                    Ctx::Seq { variation: false, after_variations: false, extra_open: false },
                )
            }
            _ => self.pass_through(key),
        }
    }

    /// The tree comes before `board`: find the board size in the rest of the top-level object
    /// with a throw-away tokenizer (no events), so that points can be checked. Rare: every
    /// known writer puts `board` first.
    fn look_ahead_board(&mut self) {
        let mut f = self.lex.clone();
        let depth = f.depth();
        // Skip the tree value.
        if f.skip_value().is_err() {
            return;
        }
        loop {
            let t = match f.next_token() {
                Ok(Some(t)) => t,
                _ => return,
            };
            match t.token {
                Token::Key(b"board") if f.depth() == depth => {
                    let Ok(Some(open)) = f.next_token() else { return };
                    if open.token != Token::ObjectStart {
                        return;
                    }
                    loop {
                        let Ok(Some(k)) = f.next_token() else { return };
                        match k.token {
                            Token::Key(name) => {
                                let Ok((v, _, _)) = f.skip_value() else { return };
                                let n = Self::small_int(v).filter(|n| (1..=52).contains(n)).map(|n| n as u8);
                                match (name, n) {
                                    (b"size", Some(n)) => (self.width, self.height) = (n, n),
                                    (b"width", Some(n)) => self.width = n,
                                    (b"height", Some(n)) => self.height = n,
                                    _ => {}
                                }
                            }
                            Token::ObjectEnd => return,
                            _ => {}
                        }
                    }
                }
                Token::Key(_) => {
                    if f.skip_value().is_err() {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// A key of a header section.
    pub fn section_key(&mut self, s: Section, key: &'a [u8]) -> Result<(), Error> {
        use InfoKey as K;
        let v1 = self.version == Version::V1;
        let info = match (s, key) {
            (Section::Record, b"version") => Some(K::FormatVersion),
            (Section::Record, b"charset") => Some(K::Charset),
            (Section::Record, b"generator" | b"application") => Some(K::Application),
            (Section::Record, b"transcriber") => Some(K::Transcriber),
            (Section::Record, b"annotator") => Some(K::Annotator),
            (Section::Record, b"source") => Some(K::Source),
            (Section::Record, b"copyright") => Some(K::Copyright),
            (Section::Record, b"format" | b"comment" | b"sgf") => Some(K::Other),
            (Section::Source, b"name") => Some(K::Source),
            (Section::Source, b"copyright") => Some(K::Copyright),
            (Section::Source, b"url") => Some(K::Other),
            (Section::Game, b"type") => Some(K::GameType),
            (Section::Game, b"name") => Some(K::GameName),
            (Section::Game, b"result") => Some(K::Result),
            (Section::Game, b"date" | b"dates") => Some(K::Date),
            (Section::Game, b"opening") => Some(K::Opening),
            (Section::Game, b"annotator") => Some(K::Annotator),
            (Section::Game, b"description" | b"comment") => Some(K::GameComment),
            (Section::Game, b"komi") => Some(K::Komi),
            (Section::Game, b"handicap") => Some(K::Handicap),
            (Section::Game, b"rules") => Some(K::Rules),
            (Section::Game, b"location") => Some(K::Place),
            (Section::Game, b"event") => Some(K::Event),
            (Section::Game, b"round") => Some(K::Round),
            (Section::Event, b"name") => Some(K::Event),
            (Section::Event, b"location") => Some(K::Place),
            (Section::Event, b"round") => Some(K::Round),
            (Section::Rules, b"ruleset") => Some(K::Rules),
            (Section::Rules, b"komi") => Some(K::Komi),
            (Section::Rules, b"handicap") => Some(K::Handicap),
            (Section::Rules, b"time") => Some(K::TimeLimit),
            (Section::Rules, b"overtime") => Some(K::Overtime),
            (Section::Rules, b"allowSuicide" | b"disallowRepeats" | b"numberOfPeriods" | b"timePerPeriod") => {
                Some(K::Other)
            }
            (Section::Time, b"main") => Some(K::TimeLimit),
            (Section::Time, b"overtime") => Some(K::Overtime),
            (Section::Time, b"type") => Some(K::Other),
            (Section::Board, b"cutOffTop" | b"cutOffBottom" | b"cutOffLeft" | b"cutOffRight") => Some(K::Other),
            (Section::Board, b"coordinates" | b"cutoff") => Some(K::Other),
            _ => None,
        };
        match (s, key) {
            (Section::Game, b"players") => return self.top_key(key),
            (Section::Game, b"time") if v1 || self.peek_is(b'{') => {
                return self.expect_open(Token::ObjectStart, Ctx::Section(Section::Time))
            }
            (Section::Board, b"size" | b"width" | b"height") => return self.board_key(key),
            (Section::Game, b"dates") => {
                let t = self.token()?;
                if t.token != Token::ArrayStart {
                    let v = self.value_text(t)?;
                    let e = self.info(K::Date, key, v);
                    self.push(e);
                    return Ok(());
                }
                // One Info(Date) per date.
                loop {
                    let d = self.token()?;
                    match d.token {
                        Token::ArrayEnd => return Ok(()),
                        Token::String(s) => {
                            let e = self.info(K::Date, key, Text::new(s, TextRule::JsonString, Charset::Utf8));
                            self.push(e);
                        }
                        _ => {
                            self.skip_wrong_type(d)?;
                        }
                    }
                }
            }
            _ => {}
        }
        let t = self.token()?;
        if let Some(k) = info {
            if matches!(t.token, Token::ObjectStart | Token::ArrayStart) && key != b"cutoff" && key != b"sgf" {
                self.warn(WarningKind::WrongType, t.offset);
            }
            let v = self.value_text(t)?;
            if !(key == b"sgf" && v.raw() == b"{}") {
                let e = self.info(k, key, v);
                self.push(e);
            }
        } else {
            let v = self.value_text(t)?;
            let e = self.property(key, v);
            self.push(e);
        }
        Ok(())
    }

    fn peek_is(&self, b: u8) -> bool {
        let rest = &self.input[self.lex.offset().min(self.input.len())..];
        rest.iter().find(|c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t' | b':')) == Some(&b)
    }

    fn board_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        let n = Self::small_int(t).filter(|n| (1..=52).contains(n));
        let Some(n) = n else {
            self.warn(WarningKind::BadBoardSize, t.offset);
            self.finish_value(t)?;
            return Ok(());
        };
        let n = n as u8;
        match key {
            b"size" => {
                self.board_w = Some((n, t.offset));
                self.board_h = Some((n, t.offset));
            }
            b"width" => self.board_w = Some((n, t.offset)),
            _ => self.board_h = Some((n, t.offset)),
        }
        Ok(())
    }

    /// The end of the `board` section: the board size as one `Info(BoardSize)` like SGF's `SZ`.
    pub fn board_end(&mut self, offset: usize) {
        let (w, h) = match (self.board_w, self.board_h) {
            (Some((w, _)), Some((h, _))) => (w, h),
            (Some((n, _)), None) | (None, Some((n, _))) => (n, n),
            (None, None) => {
                self.warn(WarningKind::MissingValue, offset);
                return;
            }
        };
        self.width = w;
        self.height = h;
        self.board_seen = true;
        self.push(Event::Info(Info::unnamed(InfoKey::BoardSize, board_size_text(w, h))));
    }

    /// A key of a player object.
    pub fn player_key(&mut self, key: &'a [u8]) -> Result<(), Error> {
        let t = self.token()?;
        match key {
            b"color" => {
                self.player.color = match t.token {
                    Token::String(b"black" | b"B" | b"b") => Some(Color::Black),
                    Token::String(b"white" | b"W" | b"w") => Some(Color::White),
                    _ => {
                        self.player.bad_color = true;
                        None
                    }
                };
                if self.player.color.is_none() {
                    let v = self.value_text(t)?;
                    let e = self.property(key, v);
                    self.push(e);
                }
            }
            b"name" | b"rank" | b"team" => {
                if !matches!(t.token, Token::String(_) | Token::Number(_)) {
                    self.warn(WarningKind::WrongType, t.offset);
                }
                let v = self.value_text(t)?;
                let slot = match key {
                    b"name" => &mut self.player.name,
                    b"rank" => &mut self.player.rank,
                    _ => &mut self.player.team,
                };
                *slot = Some((key, v));
            }
            _ => {
                let v = self.value_text(t)?;
                let e = self.info(InfoKey::Other, key, v);
                self.push(e);
            }
        }
        Ok(())
    }

    /// The end of a player object: its fields as Info events.
    pub fn player_end(&mut self, offset: usize) {
        let p = std::mem::take(&mut self.player);
        let Some(c) = p.color else {
            // A player of another colour (or none): the fields pass through.
            if !p.bad_color {
                self.warn(WarningKind::MissingValue, offset);
            }
            for (name, v) in [p.name, p.rank, p.team].into_iter().flatten() {
                let e = self.property(name, v);
                self.push(e);
            }
            return;
        };
        let black = c == Color::Black;
        let keys = if black {
            [InfoKey::BlackName, InfoKey::BlackRank, InfoKey::BlackTeam]
        } else {
            [InfoKey::WhiteName, InfoKey::WhiteRank, InfoKey::WhiteTeam]
        };
        for (k, f) in keys.into_iter().zip([p.name, p.rank, p.team]) {
            if let Some((name, v)) = f {
                let e = self.info(k, name, v);
                self.push(e);
            }
        }
    }

    /// One step of the header and tree structure shared by both versions; node keys and lists
    /// are left to `node`.
    #[inline]
    pub fn common_step(
        &mut self,
        t: Tok<'a>,
        node_key: fn(&mut Engine<'a>, &'a [u8], usize) -> Result<(), Error>,
    ) -> Result<bool, Error> {
        let Some(&top) = self.ctx.last() else { return Ok(true) };
        match (top, t.token) {
            (Ctx::Root, _) => self.root(t)?,
            (Ctx::Top, Token::Key(k)) => self.top_key(k)?,
            (Ctx::Top, Token::ObjectEnd) | (Ctx::PlayersArray, Token::ArrayEnd) => {
                self.ctx.pop();
            }
            (Ctx::Section(s), Token::Key(k)) => self.section_key(s, k)?,
            (Ctx::Section(s), Token::ObjectEnd) => {
                self.ctx.pop();
                if s == Section::Board {
                    self.board_end(t.offset);
                }
            }
            (Ctx::PlayersArray, Token::ObjectStart) => {
                self.player = PlayerBuf::default();
                self.ctx.push(Ctx::Player);
            }
            (Ctx::PlayersObject, Token::Key(k)) => {
                let color = match k {
                    b"black" => Some(Color::Black),
                    b"white" => Some(Color::White),
                    _ => None,
                };
                match color {
                    Some(c) => {
                        self.player = PlayerBuf { color: Some(c), ..PlayerBuf::default() };
                        self.expect_open(Token::ObjectStart, Ctx::Player)?;
                    }
                    None => self.pass_through(k)?,
                }
            }
            (Ctx::Player, Token::Key(k)) => self.player_key(k)?,
            (Ctx::Player, Token::ObjectEnd) => {
                self.ctx.pop();
                self.player_end(t.offset);
            }
            (Ctx::Seq { .. }, Token::ObjectStart) => self.ctx.push(Ctx::Node { started: false, vars: false }),
            (Ctx::Seq { variation, extra_open, .. }, Token::ArrayEnd) => {
                self.ctx.pop();
                if extra_open {
                    self.close_variation();
                }
                if variation {
                    self.close_variation();
                }
            }
            (Ctx::Node { started, vars }, Token::Key(k)) => {
                if k == b"variations" {
                    // A branch from the last regular node before it (this node, when it has
                    // keys of its own). Later nodes of the sequence follow the documented rule.
                    self.mark_variations();
                    let n = self.ctx.len();
                    self.ctx[n - 1] = Ctx::Node { started, vars: true };
                    return self.expect_open(Token::ArrayStart, Ctx::VarGroup).map(|()| true);
                }
                if !started {
                    self.open_node(t.offset)?;
                    let n = self.ctx.len();
                    self.ctx[n - 1] = Ctx::Node { started: true, vars };
                }
                node_key(self, k, t.offset)?;
                // The usual node has one key: when its `}` comes next, it is read here, one
                // trip through the game loop less (the same as the `ObjectEnd` arm below, as
                // the node is started).
                if self.pending.is_none()
                    && matches!(self.ctx.last(), Some(Ctx::Node { .. }))
                    && self.lex.next_object_end().is_some()
                {
                    self.ctx.pop();
                }
            }
            (Ctx::Node { started, vars }, Token::ObjectEnd) => {
                if !started && !vars {
                    self.open_node(t.offset)?;
                }
                self.ctx.pop();
            }
            (Ctx::VarGroup, Token::ArrayStart) => {
                self.open_variation(t.offset)?;
                self.ctx.push(Ctx::Seq { variation: true, after_variations: false, extra_open: false });
            }
            (Ctx::VarGroup, Token::ArrayEnd) => {
                self.ctx.pop();
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// An unexpected token for the context: a wrong type, warned and skipped.
    pub fn unexpected(&mut self, t: Tok<'a>) -> Result<(), Error> {
        match t.token {
            Token::ObjectEnd | Token::ArrayEnd => {
                // Cannot happen with a well-formed token stream for our contexts; pop to stay
                // in step.
                self.ctx.pop();
                Ok(())
            }
            Token::Key(k) => {
                // A key in an object whose keys we do not map: pass it through.
                self.pass_through(k)
            }
            _ => {
                self.skip_wrong_type(t)?;
                Ok(())
            }
        }
    }
}

/// The scalar fields of a flat object (a move, a point): each key's value token.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flat<'a> {
    pub x: Option<Tok<'a>>,
    pub y: Option<Tok<'a>>,
    pub color: Option<Tok<'a>>,
    pub text: Option<Tok<'a>>,
    pub pass: Option<Tok<'a>>,
    pub time_left: Option<Tok<'a>>,
    pub periods_left: Option<Tok<'a>>,
}

impl<'a> Engine<'a> {
    /// Reads a flat object after its `{`: known scalar keys into `f` (which starts empty);
    /// nested values are skipped with a wrong-type warning; other keys pass through as
    /// properties. (An out-parameter: returning the 224-byte `Flat` cost a copy per move.)
    pub fn read_flat(&mut self, f: &mut Flat<'a>) -> Result<(), Error> {
        loop {
            let t = self.key_token()?;
            let Token::Key(k) = t.token else {
                return Ok(());
            };
            let v = self.token()?;
            if matches!(v.token, Token::ObjectStart | Token::ArrayStart) {
                self.skip_wrong_type(v)?;
                continue;
            }
            let slot = match k {
                b"x" => &mut f.x,
                b"y" => &mut f.y,
                b"color" | b"type" => &mut f.color,
                b"text" => &mut f.text,
                b"pass" => &mut f.pass,
                b"timeLeft" => &mut f.time_left,
                b"periodsLeft" => &mut f.periods_left,
                _ => {
                    let text = self.value_text(v)?;
                    let e = self.property(k, text);
                    self.push(e);
                    continue;
                }
            };
            if slot.is_some() {
                self.warn(WarningKind::DuplicateKey, t.offset);
            }
            *slot = Some(v);
        }
    }

    /// The point of a flat object: `None` (after a warning) when x/y are missing, not integers,
    /// or off the board.
    pub fn flat_point(&mut self, f: &Flat<'a>, offset: usize) -> Option<Point> {
        let (Some(x), Some(y)) = (f.x, f.y) else {
            self.warn(WarningKind::MissingValue, offset);
            return None;
        };
        match (Self::small_int(x), Self::small_int(y)) {
            (Some(a), Some(b)) => self.point(a, b, x.offset),
            _ => {
                self.warn(WarningKind::WrongType, x.offset);
                None
            }
        }
    }
}
