//! The state machine KIF's and KI2's readers share: the file's charset, a game's start (its
//! layout found by [`scan`]), its header lines, its start position handed out one
//! piece at a time, the stack of the lines of play being read (a `変化` block entered where it
//! branches off, left at its end), the queue of events one step produced, and the game's end.
//!
//! A reader holds a [`Game`] and implements [`Dialect`]: how its lines are classified and its
//! moves counted, and its own step inside a game (KIF reads a move per line, KI2 several moves
//! per line, resolved on a board of its own); [`next_item`] and [`skip_game`] drive both.

use super::board::{self, Handicap, Row, HAND_KINDS, STANDARD};
use super::charset::{charset_label, declared, is_binary, utf8, Utf8};
use super::glyphs;
use super::lex::{self, Enc, Kind};
use super::scan::{self, Block, DROPPED};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Branch, Color, Ending, Event, Info, InfoKey, Move, Piece, Property, Setup, ShogiMove, Square};
use crate::input::{Config, LineIndex};
use crate::kit::queue::EventQueue;
use crate::kit::report;
use crate::text::{Charset, Text, TextRule};

/// Where a reader is in its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// The file's charset has not been fixed yet.
    Init,
    /// Between games.
    Between,
    /// Inside a game.
    InGame,
    /// Nothing more.
    Done,
}

/// A start-position line being handed out one piece at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Expand {
    None,
    /// The standard position without a handicap's pieces, then the side to move.
    Standard {
        next: u8,
        removed: &'static [(u8, u8)],
        turn: Color,
    },
    /// A diagram row.
    Row {
        row: Row,
        next: u8,
        rank: u8,
        at: usize,
    },
    /// A hand.
    Hand {
        color: Color,
        counts: [u8; 7],
        k: u8,
    },
}

/// A line of play being read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Its block in the game's layout.
    pub block: u32,
    /// The next line to read.
    pub pos: usize,
    /// Where its lines end.
    pub end: usize,
    /// The ply of its last node (the block's first ply - 1 before its first move).
    pub ply: u32,
    /// Its next variation in `kids`.
    pub kid: usize,
    /// A special move ended it.
    pub ended: bool,
    /// The destination of its last move (for `同`).
    pub last_to: Option<Square>,
    /// Inside a line of several moves (KI2): where the line ends (0 outside one), and where the
    /// next line starts.
    pub line_end: usize,
    pub line_next: usize,
    /// The ply after its last node (a move skipped with its turn passing makes none).
    pub node_next: u32,
    /// The first ply a variation given as a sibling of its last node may replace: the ply after
    /// the node before it (`u32::MAX` before its first node). One ply unless moves were skipped
    /// just before the last node.
    pub sibling_from: u32,
    /// The destination of its last node, and of the node before it (a sibling's `同`).
    pub node_to: Option<Square>,
    pub sibling_to: Option<Square>,
}

impl Frame {
    /// A line of play of `block` whose lines lie in `pos..end`, before the move after `ply`; its
    /// next variation is `kids[kid]`; `同` at its first move goes to `last_to`.
    pub fn new(block: u32, pos: usize, end: usize, ply: u32, kid: usize, last_to: Option<Square>) -> Frame {
        Frame {
            block,
            pos,
            end,
            ply,
            kid,
            ended: false,
            last_to,
            line_end: 0,
            line_next: 0,
            node_next: ply.saturating_add(1),
            sibling_from: u32::MAX,
            node_to: last_to,
            sibling_to: None,
        }
    }

    /// Moves the line on by one move at `ply`, a node, that went to `to`.
    #[inline(always)]
    pub fn advance(&mut self, ply: u32, to: Square) {
        self.last_to = Some(to);
        self.ply = ply;
        self.sibling_from = self.node_next;
        self.node_next = ply.saturating_add(1);
        self.sibling_to = self.node_to;
        self.node_to = Some(to);
    }

    /// Moves the line on by a move at `ply` skipped with its turn passing (no node): one that
    /// does not read (`to` is `None`: the next `同` has no square), or that no piece can make
    /// (`同` after it means `to`).
    #[inline(always)]
    pub fn skip(&mut self, ply: u32, to: Option<Square>) {
        self.last_to = to;
        self.ply = ply;
    }
}

/// What tells the two formats apart where the shared machine speaks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flavor {
    /// The `#` lines that give a version and a charset (`#KIF`, and for KI2 `#KI2` too).
    pub programs: &'static [&'static [u8]],
    /// The error message for binary data in a game.
    pub binary: &'static str,
}

/// A reader's state outside its own step: the file, the game being read, its lines of play.
#[derive(Debug)]
pub(crate) struct Game<'a> {
    pub input: &'a [u8],
    pub config: Config,
    pub state: State,
    pub charset: Charset,
    pub enc: Enc,
    flavor: Flavor,
    /// A charset fixed by the caller.
    pub forced: Option<Charset>,
    /// An unknown declared charset, reported after the first `GameStart`.
    charset_warning: Option<usize>,
    /// Where the next game starts (between games).
    pub pos: usize,
    pub games: u64,
    // --- per game ---
    game_start: usize,
    game_end: usize,
    handicap: Option<(Handicap, usize)>,
    diagram: bool,
    diagram_row: u8,
    turn_line: Option<Color>,
    pub started: bool,
    pub start_color: Color,
    kings: [u8; 2],
    pub ending: Option<Ending>,
    pub nodes: u64,
    pub expand: Expand,
    pub queue: EventQueue<'a, 8>,
    /// The move of the `Node` just given, given before anything queued after it.
    pub pending_move: Option<ShogiMove>,
    pub blocks: Vec<Block>,
    pub kids: Vec<u32>,
    stack: Vec<u32>,
    pub frames: Vec<Frame>,
    pub pending_error: Option<Error>,
    pub stmt_offset: usize,
    pub lines: LineIndex,
}

/// What a reader adds to the shared machine.
pub(crate) trait Dialect<'a> {
    /// The shared state.
    fn game(&mut self) -> &mut Game<'a>;
    /// A line's kind, as the layout scan and the reader see it.
    fn classify(line: &[u8], enc: Enc) -> Kind;
    /// The moves a body line holds and whether it ends a block's moves (see `scan::game`).
    fn count(line: &[u8], kind: Kind, enc: Enc) -> (u32, bool);
    /// A game has started (its first frame pushed).
    fn started(&mut self) {}
    /// A start-position piece has been given (`square` `None`: to a hand).
    fn placed(&mut self, _color: Color, _piece: Piece, _square: Option<Square>) {}
    /// One step inside a game; `None` when it gave no event.
    fn step(&mut self) -> Option<Result<Event<'a>, Error>>;
}

/// The next event of a reader: what one step left pending first (the move of its `Node`, then
/// the queue, then an error), then the start position being expanded, then the next step.
#[inline(always)]
pub(crate) fn next_item<'a, R: Dialect<'a>>(r: &mut R) -> Option<Result<Event<'a>, Error>> {
    loop {
        let g = r.game();
        if let Some(m) = g.pending_move.take() {
            return Some(Ok(Event::Move(Move::Shogi(m))));
        }
        if let Some(ev) = g.queue.pop() {
            return Some(Ok(ev));
        }
        if let Some(e) = g.pending_error.take() {
            return Some(Err(e));
        }
        if !matches!(g.expand, Expand::None) {
            if let Some(x) = g.expand_step() {
                if let Ok(Event::Setup(Setup::Shogi { color, piece, square })) = x {
                    r.placed(color, piece, square);
                }
                return Some(x);
            }
            continue;
        }
        match g.state {
            State::InGame => {
                if let Some(x) = r.step() {
                    return Some(x);
                }
            }
            State::Between => {
                if g.at_end() {
                    return None;
                }
                return Some(Ok(start_game(r)));
            }
            State::Init => g.init_file(),
            State::Done => return None,
        }
    }
}

/// Starts the game at the reader's position. (This, `init_file` and `expand_step` are kept out
/// of line, so that `next_item` stays small enough to be inlined into the caller's loop.)
#[inline(never)]
fn start_game<'a, R: Dialect<'a>>(r: &mut R) -> Event<'a> {
    let g = r.game();
    let enc = g.enc;
    let ev = g.start_game(|l| R::classify(l, enc), |l, k| R::count(l, k, enc));
    r.started();
    ev
}

/// Skips to the end of the current game (or the whole next game) without building events:
/// the game's end is known from its layout.
pub(crate) fn skip_game<'a, R: Dialect<'a>>(r: &mut R) -> Result<bool, Error> {
    let g = r.game();
    if g.state == State::Init {
        g.init_file();
    }
    match g.state {
        State::InGame => {
            g.skip_rest();
            Ok(true)
        }
        State::Between => {
            if g.at_end() {
                return Ok(false);
            }
            start_game(r);
            r.game().skip_rest();
            Ok(true)
        }
        State::Init | State::Done => Ok(false),
    }
}

impl<'a> Game<'a> {
    /// The state of a reader of `input` that has read nothing yet.
    pub(crate) fn new(input: &'a [u8], config: Config, flavor: Flavor) -> Game<'a> {
        Game {
            input,
            config,
            state: State::Init,
            charset: Charset::Utf8,
            enc: Enc::Utf8,
            flavor,
            forced: None,
            charset_warning: None,
            pos: 0,
            games: 0,
            game_start: 0,
            game_end: 0,
            handicap: None,
            diagram: false,
            diagram_row: 0,
            turn_line: None,
            started: false,
            start_color: Color::Black,
            kings: [0; 2],
            ending: None,
            nodes: 0,
            expand: Expand::None,
            queue: EventQueue::new(),
            pending_move: None,
            blocks: Vec::new(),
            kids: Vec::new(),
            stack: Vec::new(),
            frames: Vec::new(),
            pending_error: None,
            stmt_offset: 0,
            lines: LineIndex::new(),
        }
    }

    /// Fixes the charset: a caller's, a BOM (UTF-8), a `#KIF … encoding=` line, else UTF-8 when
    /// the whole input is valid UTF-8, else CP932.
    #[inline(never)]
    pub(crate) fn init_file(&mut self) {
        let input = self.input;
        let mut start = 0;
        let mut forced = self.forced;
        if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
            start = 3;
            forced = forced.or(Some(Charset::Utf8));
        }
        let declared = match forced {
            Some(_) => None,
            None => declared(input, start).and_then(|(label, at)| match charset_label(label) {
                Some(c) => Some(c),
                None => {
                    self.charset_warning = Some(at);
                    None
                }
            }),
        };
        // A file declared UTF-8 that is not (a CP932 copy that kept the line) is read as CP932.
        let valid = || utf8(&input[start..]) == Utf8::Valid;
        self.charset = match (forced, declared) {
            (Some(c), _) => c,
            (None, Some(Charset::Utf8)) if !valid() => Charset::ShiftJis,
            (None, Some(c)) => c,
            (None, None) if valid() => Charset::Utf8,
            (None, None) => Charset::ShiftJis,
        };
        self.enc = if self.charset == Charset::ShiftJis { Enc::Sjis } else { Enc::Utf8 };
        self.pos = start;
        self.state = State::Between;
    }

    /// Between games: whether only white space is left (then nothing more is read).
    fn at_end(&mut self) -> bool {
        let rest = &self.input[self.pos.min(self.input.len())..];
        if rest.iter().all(u8::is_ascii_whitespace) {
            self.pos = self.input.len();
            self.state = State::Done;
            return true;
        }
        false
    }

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// An error that ends the current game: reading resumes with the next game.
    pub(crate) fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.skip_rest();
        Error::new(kind, pos, message)
    }

    /// Drops the rest of the current game.
    pub(crate) fn skip_rest(&mut self) {
        self.pos = self.game_end;
        self.queue.clear();
        self.pending_move = None;
        self.expand = Expand::None;
        self.frames.clear();
        self.state = State::Between;
    }

    /// A warning event, or in strict mode the error it becomes (the game is then skipped).
    pub(crate) fn warn(&mut self, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let r = report::problem(self.config.is_strict(), kind, offset, self.input, &mut self.lines);
        if r.is_err() {
            self.skip_rest();
        }
        r
    }

    /// Queues a warning after the event being returned (in strict mode, the error instead).
    pub(crate) fn queue_warning(&mut self, kind: WarningKind, offset: usize) -> Result<(), Error> {
        let w = self.warn(kind, offset)?;
        self.queue.push(w);
        Ok(())
    }

    #[inline]
    pub(crate) fn text(&self, b: &'a [u8]) -> Text<'a> {
        Text::new(b, TextRule::Plain, self.charset)
    }

    /// A special move word as a `Property` named by it, with no value.
    pub(crate) fn special(&self, word: &'a [u8]) -> Event<'a> {
        Event::Property(Property::new(word, self.text(&word[word.len()..]), word))
    }

    /// Starts the game at `pos`: finds its layout, resets the per-game state, pushes the main
    /// line's frame; queues the warnings its start gives.
    fn start_game(
        &mut self,
        classify: impl Fn(&[u8]) -> Kind,
        count: impl Fn(&[u8], Kind) -> (u32, bool),
    ) -> Event<'a> {
        let at = self.pos;
        self.game_start = at;
        self.game_end = scan::game(self.input, at, self.enc, classify, count, &mut self.blocks, &mut self.stack);
        self.games += 1;
        self.state = State::InGame;
        self.handicap = None;
        self.diagram = false;
        self.diagram_row = 0;
        self.turn_line = None;
        self.started = false;
        self.start_color = Color::Black;
        self.kings = [0; 2];
        self.ending = None;
        self.nodes = 0;
        self.expand = Expand::None;
        self.stmt_offset = at;
        self.kids.clear();
        let blocks = &self.blocks;
        self.kids.extend((1..blocks.len() as u32).filter(|&k| blocks[k as usize].parent != DROPPED));
        self.kids.sort_unstable_by_key(|&k| {
            let b = &blocks[k as usize];
            (b.parent, b.ply, k)
        });
        self.frames.clear();
        self.frames.push(Frame::new(0, at, self.blocks[0].end, 0, 0, None));
        let mut problems = None;
        if self.games == 1 {
            problems = self.charset_warning.take().map(|at| (WarningKind::UnknownCharset, at));
        }
        if (self.game_end - at) as u64 > self.config.limits.max_game_len {
            self.pending_error = Some(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
            return Event::GameStart { offset: at as u64 };
        }
        let dropped = self.blocks.iter().skip(1).filter(|b| b.parent == DROPPED).map(|b| b.header);
        for (kind, off) in
            problems.into_iter().chain(dropped.map(|h| (WarningKind::Repaired, h))).collect::<SmallList>()
        {
            if let Err(e) = self.queue_warning(kind, off) {
                self.pending_error = Some(e);
                break;
            }
        }
        Event::GameStart { offset: at as u64 }
    }

    fn end_game(&mut self) -> Event<'a> {
        self.state = State::Between;
        self.pos = self.game_end;
        Event::GameEnd { length: (self.game_end - self.game_start) as u64, ending: self.ending }
    }

    /// The first of `block`'s variations in `kids`.
    fn first_kid(&self, block: u32) -> usize {
        let blocks = &self.blocks;
        self.kids.partition_point(|&k| blocks[k as usize].parent < block)
    }

    /// Frame `fi` has no lines left: the start position if the body never began, else a
    /// variation after its last move, else the frame is left (`VariationEnd`, or the game's
    /// end after the main line).
    pub(crate) fn frame_end(&mut self, fi: usize) -> Option<Result<Event<'a>, Error>> {
        if !self.started {
            return self.begin_body();
        }
        if let Some(r) = self.enter_kid(fi, true) {
            return Some(r);
        }
        self.frames.pop();
        if self.frames.is_empty() {
            return Some(Ok(self.end_game()));
        }
        Some(Ok(Event::VariationEnd))
    }

    /// Opens the next variation of frame `fi` that branches here: one replacing its last move
    /// (before its next move, or at its end), or one after its last move (at its end). Drops,
    /// with a warning, a variation that can no longer be placed.
    ///
    /// A move skipped with its turn passing (one that does not read, or that no piece can make)
    /// makes no node, so a variation replacing it is not a sibling of the node before it: it
    /// waits for the next node and becomes its sibling (another continuation of the same
    /// position), or, at the line's end, a child of the last node.
    pub(crate) fn enter_kid(&mut self, fi: usize, at_end: bool) -> Option<Result<Event<'a>, Error>> {
        let f = self.frames[fi];
        let &k = self.kids.get(f.kid)?;
        let b = self.blocks[k as usize];
        if b.parent != f.block {
            return None;
        }
        // It replaces a skipped move after the last node.
        let after_skip = b.ply >= f.node_next && b.ply <= f.ply;
        if after_skip && !at_end {
            return None;
        }
        let sibling = !after_skip && b.ply >= f.sibling_from && b.ply < f.node_next;
        let child = at_end && (after_skip || b.ply == f.ply + 1);
        if !sibling && !child {
            if b.ply > f.ply && !at_end {
                return None;
            }
            self.frames[fi].kid += 1;
            return Some(self.warn(WarningKind::Repaired, b.header));
        }
        self.frames[fi].kid += 1;
        if self.frames.len() > self.config.limits.max_depth as usize {
            return Some(Err(self.fail(
                ErrorKind::LimitExceeded(Limit::Depth),
                b.header,
                "variations nested too deep",
            )));
        }
        let last_to = if sibling { f.sibling_to } else { f.node_to };
        let kid = self.first_kid(k);
        self.frames.push(Frame::new(k, b.body, b.end, b.ply - 1, kid, last_to));
        self.stmt_offset = b.header;
        Some(Ok(Event::VariationStart(if sibling { Branch::Sibling } else { Branch::Child })))
    }

    /// The start position, before the first move: the diagram's side to move, or the standard
    /// position without the handicap's pieces.
    pub(crate) fn begin_body(&mut self) -> Option<Result<Event<'a>, Error>> {
        self.started = true;
        if self.diagram {
            let c = self.turn_line.unwrap_or(Color::Black);
            self.start_color = c;
            return Some(Ok(Event::Turn(c)));
        }
        let (removed, problem) = match self.handicap {
            None => (&[][..], None),
            Some((Handicap::Known(r), _)) => (r, None),
            Some((Handicap::Other, at)) => (&[][..], Some((WarningKind::MissingValue, at))),
            Some((Handicap::Unknown, at)) => (&[][..], Some((WarningKind::UnknownKey, at))),
        };
        let turn = self.turn_line.unwrap_or(if removed.is_empty() { Color::Black } else { Color::White });
        self.start_color = turn;
        self.expand = Expand::Standard { next: 0, removed, turn };
        problem.map(|(kind, at)| self.warn(kind, at))
    }

    /// One event of the start-position line being expanded; `None` when it is finished.
    #[inline(never)]
    fn expand_step(&mut self) -> Option<Result<Event<'a>, Error>> {
        match &mut self.expand {
            Expand::None => None,
            Expand::Standard { next, removed, turn } => {
                while (*next as usize) < STANDARD.len() {
                    let (color, piece, file, rank) = STANDARD[*next as usize];
                    *next += 1;
                    if !removed.contains(&(file, rank)) {
                        let square = Some(Square::new(file, rank));
                        return Some(Ok(Event::Setup(Setup::Shogi { color, piece, square })));
                    }
                }
                let turn = *turn;
                self.expand = Expand::None;
                Some(Ok(Event::Turn(turn)))
            }
            Expand::Row { row, next, rank, at } => {
                while (*next as usize) < 9 {
                    let k = *next as usize;
                    *next += 1;
                    if let Some((color, piece)) = row.cells[k] {
                        let (square, at) = (Some(Square::new(9 - k as u8, *rank)), *at);
                        let ev = Event::Setup(Setup::Shogi { color, piece, square });
                        if piece == Piece::King {
                            let n = &mut self.kings[color as usize];
                            *n = n.saturating_add(1);
                            if *n > 1 {
                                return Some(self.queue_warning(WarningKind::BadValue, at).map(|_| ev));
                            }
                        }
                        return Some(Ok(ev));
                    }
                }
                self.expand = Expand::None;
                None
            }
            Expand::Hand { color, counts, k } => {
                while (*k as usize) < 7 {
                    let n = &mut counts[*k as usize];
                    if *n > 0 {
                        *n -= 1;
                        let piece = HAND_KINDS[*k as usize];
                        return Some(Ok(Event::Setup(Setup::Shogi { color: *color, piece, square: None })));
                    }
                    *k += 1;
                }
                self.expand = Expand::None;
                None
            }
        }
    }

    /// A line of frame `fi` (at `at`, of `kind`) that is not a move: a comment or bookmark (a
    /// `Property` before the first move), a `#` line, a header line; blank lines, summaries and
    /// `変化` headers give nothing; anything else a warning (an error for binary data).
    pub(crate) fn line(&mut self, kind: Kind, line: &'a [u8], at: usize, ply: u32) -> Option<Result<Event<'a>, Error>> {
        match kind {
            Kind::Comment | Kind::Bookmark => {
                let mark = line.iter().position(|&c| c == b'*' || c == b'&').unwrap_or(0);
                let (name, value) = line[mark..].split_at(1);
                let text = self.text(value);
                Some(Ok(match (ply == 0, kind) {
                    (true, _) => Event::Property(Property::new(name, text, &line[mark..])),
                    (false, Kind::Comment) => Event::Comment(text),
                    (false, _) => Event::Name(text),
                }))
            }
            Kind::Program => self.program(line),
            Kind::Head => self.head(line, at),
            Kind::Blank | Kind::Summary | Kind::Variation | Kind::Move { .. } => None,
            Kind::Other => {
                if is_binary(line) {
                    let message = self.flavor.binary;
                    Some(Err(self.fail(ErrorKind::NotAGameRecord, at, message)))
                } else {
                    Some(self.warn(WarningKind::UnknownLine, at))
                }
            }
        }
    }

    /// A `#` line: `#KIF version=… encoding=…` (or another of the flavor's) gives its version
    /// and charset; others nothing.
    fn program(&mut self, line: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        if !self.flavor.programs.iter().any(|p| line.starts_with(p)) {
            return None;
        }
        let mut first = None;
        for (name, key) in [(&b"version"[..], InfoKey::FormatVersion), (b"encoding", InfoKey::Charset)] {
            let Some(k) = memchr::memmem::find(line, name) else { continue };
            let Some(v) = line.get(k + name.len() + 1..).filter(|_| line.get(k + name.len()) == Some(&b'=')) else {
                continue;
            };
            let n = v.iter().position(|c| c.is_ascii_whitespace()).unwrap_or(v.len());
            let whole = &line[k..k + name.len() + 1 + n];
            let ev = Event::Info(Info::new(key, &whole[..name.len()], self.text(&v[..n]), whole));
            match first {
                None => first = Some(ev),
                Some(_) => self.queue.push(ev),
            }
        }
        first.map(Ok)
    }

    /// A header line (before the moves): a key and value, a hand, a diagram line, the side to
    /// move.
    fn head(&mut self, line: &'a [u8], at: usize) -> Option<Result<Event<'a>, Error>> {
        let enc = self.enc;
        let i = lex::skip_spaces(line, 0, enc);
        if self.started {
            return Some(self.warn(WarningKind::Repaired, at));
        }
        match line.get(i) {
            Some(b'|') => {
                self.diagram = true;
                let rank_guess = self.diagram_row.saturating_add(1);
                self.diagram_row = rank_guess;
                return match board::row(line, enc) {
                    Ok(row) => {
                        let rank = row.rank.unwrap_or(rank_guess);
                        if !(1..=9).contains(&rank) {
                            return Some(self.warn(WarningKind::BadValue, at));
                        }
                        self.expand = Expand::Row { row, next: 0, rank, at };
                        None
                    }
                    Err(off) => Some(self.warn(WarningKind::BadValue, at + off)),
                };
            }
            Some(b'+') => {
                if !self.diagram {
                    self.diagram_row = 0;
                }
                return None;
            }
            _ => {}
        }
        for (w, color) in [
            (glyphs::BLACK_TURN, Color::Black),
            (glyphs::SHITATE_TURN, Color::Black),
            (glyphs::WHITE_TURN, Color::White),
            (glyphs::UWATE_TURN, Color::White),
        ] {
            if lex::at(line, i, w, enc) {
                self.turn_line = Some(color);
                return None;
            }
        }
        if lex::at(line, i, glyphs::MOVES_HEADER, enc)
            && line.get(i + lex::len(glyphs::MOVES_HEADER, enc)) == Some(&b'-')
        {
            return None;
        }
        if glyphs::file_digit(line, i, enc == Enc::Sjis).is_some() {
            return None;
        }
        let body = &line[i..];
        let Some((k, v)) = lex::colon(body, enc) else {
            // `盤面回転` and other words alone.
            let word = lex::trim_end(body, enc);
            return Some(Ok(self.special(word)));
        };
        let name = lex::trim_end(&body[..k], enc);
        let value_start = lex::skip_spaces(body, v, enc);
        let value = lex::trim_end(&body[value_start..], enc);
        let value_end = value_start + value.len();
        let whole = &body[..value_end];
        let value = &body[value_start..value_end];
        let is = |w: glyphs::Word| name == w[enc as usize];
        let hand_color = if is(glyphs::BLACK_HAND) || is(glyphs::SHITATE_HAND) {
            Some(Color::Black)
        } else if is(glyphs::WHITE_HAND) || is(glyphs::UWATE_HAND) {
            Some(Color::White)
        } else {
            None
        };
        if let Some(color) = hand_color {
            let mut counts = [0u8; 7];
            let r = board::hand(value, enc, &mut counts);
            self.expand = Expand::Hand { color, counts, k: 0 };
            return match r {
                Ok(()) => None,
                Err(off) => Some(self.warn(WarningKind::BadValue, at + i + value_start + off)),
            };
        }
        let text = Text::new(value, TextRule::CsaNote, self.charset);
        let Some(&(_, key)) = glyphs::KEYS.iter().find(|(w, _)| name == w[enc as usize]) else {
            return Some(Ok(Event::Property(Property::new(name, text, whole))));
        };
        if key == InfoKey::Handicap {
            self.handicap = Some((board::handicap(value, enc), at));
        }
        if is(glyphs::TURN_KEY) {
            // `手番：先` / `手番：後`: the first character of a side's name.
            let first = |w: glyphs::Word| {
                let w = w[enc as usize];
                !value.is_empty() && value.starts_with(&w[..lex::char_len(w, 0, enc)])
            };
            if first(glyphs::WHITE_TURN) || first(glyphs::UWATE_TURN) {
                self.turn_line = Some(Color::White);
            } else if first(glyphs::BLACK_TURN) || first(glyphs::SHITATE_TURN) {
                self.turn_line = Some(Color::Black);
            }
        }
        Some(Ok(Event::Info(Info::new(key, name, text, whole))))
    }
}

/// The few warnings a game start gives, collected before they are queued.
type SmallList = Vec<(WarningKind, usize)>;
