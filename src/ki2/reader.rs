//! The KI2 pull reader: a game's layout is found first (the core's `scan`: its end and its
//! `変化` blocks), then its lines are read in tree order, one event per call, with an explicit
//! stack of the lines of play being read (a `変化` block is read where it branches off, then
//! the line it branches from goes on). Each line of play keeps its board, and the board before
//! its last move (where a variation replacing that move starts): a move, written without its
//! origin, is resolved against it.

use super::token::{self, classify, Token};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Branch, Color, Ending, Event, Info, InfoKey, Move, Piece, Property, Setup, ShogiMove, Square};
use crate::input::{ChunkContext, Config, LineIndex};
use crate::kit::kakinoki::board::{self, Handicap, Row, HAND_KINDS, STANDARD};
use crate::kit::kakinoki::charset::{charset_label, declared, is_binary};
use crate::kit::kakinoki::glyphs;
use crate::kit::kakinoki::lex::{self, line_end, Enc, Kind};
use crate::kit::kakinoki::reach::{self, Board, Undo, MAX_CANDIDATES};
use crate::kit::kakinoki::scan::{self, Block, DROPPED};
use crate::kit::queue::EventQueue;
use crate::kit::report;
use crate::text::{Charset, Text, TextRule};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
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
enum Expand {
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
struct Frame {
    /// Its block in the game's layout.
    block: u32,
    /// The next line to read.
    pos: usize,
    /// Where its lines end.
    end: usize,
    /// The ply of its last node (the block's first ply - 1 before its first move).
    ply: u32,
    /// Its next variation in `kids`.
    kid: usize,
    /// A special move ended it.
    ended: bool,
    /// The destinations of its last two moves (for `同`).
    last_to: Option<Square>,
    prev_to: Option<Square>,
    /// Inside a move line: where the line ends, and where the next line starts.
    line_end: usize,
    line_next: usize,
}

/// The board of a line of play after its last move, and what takes that move back (where a
/// variation replacing it starts); kept beside [`Frame`] (in `Reader::boards`) so that a frame
/// stays small to copy.
#[derive(Clone, Copy, Debug)]
struct Boards {
    board: Board,
    undo: Undo,
}

impl Boards {
    fn new(board: Board) -> Boards {
        Boards { board, undo: Undo::NONE }
    }
}

/// Reads KI2 records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    config: Config,
    state: State,
    charset: Charset,
    enc: Enc,
    /// A charset fixed by the caller.
    forced: Option<Charset>,
    /// An unknown declared charset, reported after the first `GameStart`.
    charset_warning: Option<usize>,
    /// Where the next game starts (between games).
    pos: usize,
    games: u64,
    // --- per game ---
    game_start: usize,
    game_end: usize,
    handicap: Option<(Handicap, usize)>,
    diagram: bool,
    diagram_row: u8,
    turn_line: Option<Color>,
    started: bool,
    start_color: Color,
    kings: [u8; 2],
    ending: Option<Ending>,
    nodes: u64,
    expand: Expand,
    queue: EventQueue<'a, 8>,
    /// The move of the `Node` just given, given before anything queued after it.
    pending_move: Option<ShogiMove>,
    blocks: Vec<Block>,
    kids: Vec<u32>,
    stack: Vec<u32>,
    frames: Vec<Frame>,
    boards: Vec<Boards>,
    pending_error: Option<Error>,
    stmt_offset: usize,
    lines: LineIndex,
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader {
            input,
            config,
            state: State::Init,
            charset: Charset::Utf8,
            enc: Enc::Utf8,
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
            boards: Vec::new(),
            pending_error: None,
            stmt_offset: 0,
            lines: LineIndex::new(),
        }
    }

    /// Fixes the charset, overriding declarations and detection.
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.forced = Some(charset);
        self
    }

    /// Reads a game cut out of a larger file by a splitter: the context's charset is used.
    pub fn with_context(mut self, context: ChunkContext<'a>) -> Reader<'a> {
        if let Some(c) = context.charset {
            self.forced = Some(c);
        }
        self
    }

    /// The charset of the file (known after the first event).
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Fixes the charset: a caller's, a BOM (UTF-8), a `#KIF … encoding=` line, else UTF-8 when
    /// the whole input is valid UTF-8, else CP932.
    fn init_file(&mut self) {
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
        let valid = || std::str::from_utf8(&input[start..]).is_ok();
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

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// An error that ends the current game: reading resumes with the next game.
    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.skip_rest();
        Error::new(kind, pos, message)
    }

    /// Drops the rest of the current game.
    fn skip_rest(&mut self) {
        self.pos = self.game_end;
        self.queue.clear();
        self.pending_move = None;
        self.expand = Expand::None;
        self.frames.clear();
        self.boards.clear();
        self.state = State::Between;
    }

    /// A warning event, or in strict mode the error it becomes (the game is then skipped).
    fn warn(&mut self, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let r = report::problem(self.config.is_strict(), kind, offset, self.input, &mut self.lines);
        if r.is_err() {
            self.skip_rest();
        }
        r
    }

    /// Queues a warning after the event being returned (in strict mode, the error instead).
    fn queue_warning(&mut self, kind: WarningKind, offset: usize) -> Result<(), Error> {
        let w = self.warn(kind, offset)?;
        self.queue.push(w);
        Ok(())
    }

    #[inline]
    fn text(&self, b: &'a [u8]) -> Text<'a> {
        Text::new(b, TextRule::Plain, self.charset)
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            if let Some(m) = self.pending_move.take() {
                return Some(Ok(Event::Move(Move::Shogi(m))));
            }
            if let Some(ev) = self.queue.pop() {
                return Some(Ok(ev));
            }
            if let Some(e) = self.pending_error.take() {
                return Some(Err(e));
            }
            if !matches!(self.expand, Expand::None) {
                if let Some(r) = self.expand_step() {
                    return Some(r);
                }
                continue;
            }
            match self.state {
                State::InGame => {
                    if let Some(r) = self.step() {
                        return Some(r);
                    }
                }
                State::Between => {
                    let rest = &self.input[self.pos.min(self.input.len())..];
                    if rest.iter().all(u8::is_ascii_whitespace) {
                        self.pos = self.input.len();
                        self.state = State::Done;
                        return None;
                    }
                    return Some(Ok(self.start_game()));
                }
                State::Init => self.init_file(),
                State::Done => return None,
            }
        }
    }

    fn start_game(&mut self) -> Event<'a> {
        let at = self.pos;
        self.game_start = at;
        self.game_end = scan::game(
            self.input,
            at,
            self.enc,
            |l| classify(l, self.enc),
            |l, _| token::count(l, self.enc),
            &mut self.blocks,
            &mut self.stack,
        );
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
        self.boards.clear();
        self.frames.push(Frame {
            block: 0,
            pos: at,
            end: self.blocks[0].end,
            ply: 0,
            kid: 0,
            ended: false,
            last_to: None,
            prev_to: None,
            line_end: 0,
            line_next: 0,
        });
        self.boards.push(Boards::new(Board::default()));
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

    /// One line of the current line of play, or a step between lines; `None` when it gave no
    /// event.
    fn step(&mut self) -> Option<Result<Event<'a>, Error>> {
        let fi = self.frames.len() - 1;
        let f = self.frames[fi];
        if f.pos < f.line_end {
            return self.token(fi);
        }
        if f.pos >= f.end {
            if !self.started {
                return self.begin_body();
            }
            if let Some(r) = self.enter_kid(fi, true) {
                return Some(r);
            }
            self.frames.pop();
            self.boards.pop();
            if self.frames.is_empty() {
                return Some(Ok(self.end_game()));
            }
            return Some(Ok(Event::VariationEnd));
        }
        let input = self.input;
        let (e, next) = line_end(input, f.pos);
        let line = &input[f.pos..e];
        let kind = classify(line, self.enc);
        if kind.is_body() && !self.started {
            return self.begin_body();
        }
        self.frames[fi].pos = next;
        self.stmt_offset = f.pos;
        if line.len() > self.config.limits.max_value_len {
            return Some(Err(self.fail(ErrorKind::LimitExceeded(Limit::ValueSize), f.pos, "line too long")));
        }
        match kind {
            Kind::Move { .. } => {
                // Its tokens are read one per step, from the line's start.
                let fr = &mut self.frames[fi];
                fr.pos = f.pos;
                fr.line_end = e;
                fr.line_next = next;
                None
            }
            Kind::Summary => self.summary(fi, line),
            Kind::Comment | Kind::Bookmark => {
                let mark = line.iter().position(|&c| c == b'*' || c == b'&').unwrap_or(0);
                let (name, value) = line[mark..].split_at(1);
                let text = self.text(value);
                Some(Ok(match (f.ply == 0, kind) {
                    (true, _) => Event::Property(Property::new(name, text, &line[mark..])),
                    (false, Kind::Comment) => Event::Comment(text),
                    (false, _) => Event::Name(text),
                }))
            }
            Kind::Program => self.program(line),
            Kind::Head => self.head(line, f.pos),
            Kind::Blank | Kind::Variation => None,
            Kind::Other => {
                if is_binary(line) {
                    Some(Err(self.fail(ErrorKind::NotAGameRecord, f.pos, "binary data, not a KI2 record")))
                } else {
                    Some(self.warn(WarningKind::UnknownLine, f.pos))
                }
            }
        }
    }

    /// Whether frame `fi`'s next variation branches from it (else [`Reader::enter_kid`] has
    /// nothing to do).
    #[inline]
    fn kid_here(&self, fi: usize) -> bool {
        let f = &self.frames[fi];
        self.kids.get(f.kid).is_some_and(|&k| self.blocks.get(k as usize).is_some_and(|b| b.parent == f.block))
    }

    /// Opens the next variation of frame `fi` that branches here: one replacing its last move
    /// (before its next move, or at its end), or one after its last move (at its end). Drops,
    /// with a warning, a variation that can no longer be placed.
    fn enter_kid(&mut self, fi: usize, at_end: bool) -> Option<Result<Event<'a>, Error>> {
        let f = self.frames[fi];
        let &k = self.kids.get(f.kid)?;
        let b = self.blocks[k as usize];
        if b.parent != f.block {
            return None;
        }
        let own = self.blocks[f.block as usize].ply;
        let sibling = b.ply == f.ply && f.ply >= own;
        let child = at_end && b.ply == f.ply + 1;
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
        let last_to = if sibling { f.prev_to } else { f.last_to };
        let mut board = self.boards[fi].board;
        if sibling {
            board.undo(&self.boards[fi].undo);
        }
        let kid = self.first_kid(k);
        self.frames.push(Frame {
            block: k,
            pos: b.body,
            end: b.end,
            ply: b.ply - 1,
            kid,
            ended: false,
            last_to,
            prev_to: None,
            line_end: 0,
            line_next: 0,
        });
        self.boards.push(Boards::new(board));
        self.stmt_offset = b.header;
        Some(Ok(Event::VariationStart(if sibling { Branch::Sibling } else { Branch::Child })))
    }

    /// The start position, before the first move: the diagram's side to move, or the standard
    /// position without the handicap's pieces.
    fn begin_body(&mut self) -> Option<Result<Event<'a>, Error>> {
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
    fn expand_step(&mut self) -> Option<Result<Event<'a>, Error>> {
        match &mut self.expand {
            Expand::None => None,
            Expand::Standard { next, removed, turn } => {
                while (*next as usize) < STANDARD.len() {
                    let (color, piece, file, rank) = STANDARD[*next as usize];
                    *next += 1;
                    if !removed.contains(&(file, rank)) {
                        let square = Some(Square::new(file, rank));
                        self.boards[0].board.put(color, piece, square);
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
                        self.boards[0].board.put(color, piece, square);
                        if piece == crate::event::Piece::King {
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
                        let (piece, color) = (HAND_KINDS[*k as usize], *color);
                        self.boards[0].board.put(color, piece, None);
                        return Some(Ok(Event::Setup(Setup::Shogi { color, piece, square: None })));
                    }
                    *k += 1;
                }
                self.expand = Expand::None;
                None
            }
        }
    }

    /// The next token of the move line frame `fi` is in: a move, resolved against the frame's
    /// board, or a special move; `None` at the line's end.
    fn token(&mut self, fi: usize) -> Option<Result<Event<'a>, Error>> {
        let enc = self.enc;
        let f = self.frames[fi];
        let seg = &self.input[..f.line_end];
        let i = lex::skip_spaces(seg, f.pos, enc);
        if i >= f.line_end {
            let fr = &mut self.frames[fi];
            fr.pos = f.line_next;
            fr.line_end = 0;
            return None;
        }
        if !f.ended && self.kid_here(fi) {
            // The variations that replace the last move come before the next one.
            if let Some(r) = self.enter_kid(fi, false) {
                return Some(r);
            }
        }
        self.stmt_offset = i;
        let (tok, after) = token::token(seg, i, enc);
        // The next token starts at the next side mark (after a bad token too: progress).
        self.frames[fi].pos = token::next_mark_after_spaces(seg, after.max(i + 1), enc);
        if f.ended {
            return Some(self.warn(WarningKind::Repaired, i));
        }
        let ply = f.ply + 1;
        let color = if ply % 2 == 1 { self.start_color } else { self.start_color.opponent() };
        match tok {
            Token::Move(w) => self.play(fi, w, color, ply, i),
            Token::Special { word, ending, known } => {
                self.frames[fi].ended = true;
                let prop = Event::Property(Property::new(word, self.text(&word[word.len()..]), word));
                if fi != 0 {
                    return Some(Ok(prop));
                }
                self.ending = Some(ending.unwrap_or(match color {
                    Color::Black => Ending::IllegalActionBlack,
                    Color::White => Ending::IllegalActionWhite,
                }));
                if !known {
                    self.queue.push(prop);
                    if let Err(e) = self.queue_warning(WarningKind::UnknownKey, i) {
                        return Some(Err(e));
                    }
                }
                None
            }
            Token::Bad(off) => {
                let kind = if f.line_end == self.input.len() && self.frames[fi].pos >= f.line_end {
                    WarningKind::Truncated
                } else {
                    WarningKind::BadValue
                };
                Some(self.warn(kind, off))
            }
        }
    }

    /// A move of frame `fi` read at `at`: its origin found on the board (a drop when it says
    /// `打`, or when no piece on the board can move there and the hand has one).
    fn play(
        &mut self,
        fi: usize,
        w: token::Written,
        color: Color,
        ply: u32,
        at: usize,
    ) -> Option<Result<Event<'a>, Error>> {
        let f = &self.frames[fi];
        let Some(to) = w.to.or(f.last_to) else {
            return Some(self.warn(WarningKind::BadValue, at));
        };
        let mut bad = (w.color != color).then_some(WarningKind::BadValue);
        let mut piece = w.piece;
        if w.promote == Some(true) {
            match piece.promoted() {
                Some(p) => piece = p,
                None => bad = Some(WarningKind::BadValue),
            }
        }
        let board = &self.boards[fi].board;
        let mut c = [Square::new(0, 0); MAX_CANDIDATES];
        let n = if w.drop { 0 } else { board.reach(color, w.piece, to, &mut c) };
        let from = if w.drop || (n == 0 && w.promote.is_none() && board.in_hand(color, w.piece) > 0) {
            if w.promote.is_some() || w.piece.is_promoted() || w.piece == Piece::King || board.get(to).is_some() {
                bad = Some(WarningKind::BadValue);
            }
            None
        } else {
            let k = reach::filter(&mut c, n, color, to, w.words);
            if k == 0 {
                return Some(self.warn(WarningKind::NoPieceCanMove, at));
            }
            let mut pick = c[0];
            if k > 1 {
                // Geometry leaves several: keep those that do not leave the own king in check.
                let (mut legal, mut first) = (0, pick);
                for &from in &c[..k] {
                    let mut b = *board;
                    b.play(ShogiMove { color, from: Some(from), to, piece });
                    if !b.in_check(color) {
                        if legal == 0 {
                            first = from;
                        }
                        legal += 1;
                    }
                }
                if legal == 1 {
                    pick = first;
                } else {
                    bad = Some(WarningKind::AmbiguousMove);
                }
            }
            Some(pick)
        };
        self.nodes += 1;
        if self.nodes > self.config.limits.max_nodes {
            return Some(Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves")));
        }
        let m = ShogiMove { color, from, to, piece };
        let f = &mut self.frames[fi];
        f.prev_to = f.last_to;
        f.last_to = Some(to);
        f.ply = ply;
        let l = &mut self.boards[fi];
        l.undo = l.board.play_undo(m);
        self.pending_move = Some(m);
        if let Some(kind) = bad {
            if let Err(e) = self.queue_warning(kind, at) {
                return Some(Err(e));
            }
        }
        Some(Ok(Event::Node))
    }

    /// A `まで…` line: the game's ending on the main line (when no special move gave one), a
    /// `Property` named by its special move word in a variation.
    fn summary(&mut self, fi: usize, line: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        let (ending, word) = token::summary(line, self.enc)?;
        let f = &mut self.frames[fi];
        if f.ended {
            return None;
        }
        f.ended = true;
        if fi != 0 {
            return Some(Ok(Event::Property(Property::new(word, self.text(&word[word.len()..]), word))));
        }
        self.ending = Some(ending);
        None
    }

    /// A `#` line: `#KI2 version=… encoding=…` (or `#KIF …`) gives its version and charset;
    /// others nothing.
    fn program(&mut self, line: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        if !line.starts_with(b"#KIF") && !line.starts_with(b"#KI2") {
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
            return Some(Ok(Event::Property(Property::new(word, self.text(&word[word.len()..]), word))));
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

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the line that produced the last event.
    fn event_offset(&self) -> Option<u64> {
        Some(self.stmt_offset as u64)
    }

    /// Skips to the end of the current game (or the whole next game) without building events:
    /// the game's end is known from its layout.
    fn skip_game(&mut self) -> Result<bool, Error> {
        if self.state == State::Init {
            self.init_file();
        }
        match self.state {
            State::InGame => {
                self.skip_rest();
                Ok(true)
            }
            State::Between => {
                let rest = &self.input[self.pos.min(self.input.len())..];
                if rest.iter().all(u8::is_ascii_whitespace) {
                    self.pos = self.input.len();
                    self.state = State::Done;
                    return Ok(false);
                }
                self.start_game();
                self.skip_rest();
                Ok(true)
            }
            State::Init | State::Done => Ok(false),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.lines.locate(self.input, offset)
    }
}
