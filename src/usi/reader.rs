//! The USI pull reader: each line that opens with a USI keyword is a game, read token by token
//! with a small board kept to name the piece each move moves; other non-blank lines are warned
//! about and skipped.

use super::sfen::{self, Board, Token, HAND_KINDS};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Color, Ending, Event, Move, Piece, Setup, ShogiMove, Square};
use crate::input::{ChunkContext, Config, LineIndex};
use crate::kit::report;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between games.
    Between,
    /// Giving the start position: the board's pieces ([`Reader::setup_left`]), then the hands
    /// (the hand slot to give next).
    Setup(u8),
    /// Reading the moves.
    Moves,
    /// The move of the `Node` just given ([`Reader::pending`]) is given next.
    Pending,
    /// Nothing more.
    Done,
}

/// The words that may open a game line.
const KEYWORDS: [&[u8]; 4] = [b"position", b"startpos", b"sfen", b"moves"];

/// The end of the line starting at `pos` (before any `\r\n`/`\n`) and where the next one starts.
#[inline]
pub(super) fn line_end(input: &[u8], pos: usize) -> (usize, usize) {
    match memchr::memchr(b'\n', &input[pos..]) {
        Some(k) => {
            let e = pos + k;
            let c = if e > pos && input[e - 1] == b'\r' { e - 1 } else { e };
            (c, e + 1)
        }
        None => (input.len(), input.len()),
    }
}

/// The first token of a line: its bytes after leading spaces, up to the next space.
fn first_token(line: &[u8]) -> &[u8] {
    let s = line.iter().position(|&c| c != b' ' && c != b'\t').unwrap_or(line.len());
    let rest = &line[s..];
    let n = rest.iter().position(|&c| c == b' ' || c == b'\t').unwrap_or(rest.len());
    &rest[..n]
}

/// Whether a line (without its line end) is a game: its first token is `position`, `startpos`,
/// `sfen` or `moves`. The reader and the splitter cut games by this one test.
pub(super) fn is_game_line(line: &[u8]) -> bool {
    let t = first_token(line);
    KEYWORDS.contains(&t)
}

/// Whether a line holds only spaces.
pub(super) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The ending a terminal word names.
pub(super) fn special(word: &[u8]) -> Option<Ending> {
    Some(match word {
        b"resign" => Ending::Resign,
        b"win" => Ending::DeclareWin,
        b"draw" => Ending::Draw,
        b"rep_draw" => Ending::Repetition,
        b"timeout" => Ending::TimeUp,
        b"break" => Ending::Interrupted,
        _ => return None,
    })
}

/// Reads USI records (one game per line) from a byte slice, returning one [`Event`] per call;
/// see the [module docs](super) for the mapping.
#[derive(Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    config: Config,
    state: State,
    /// Where the next line starts (between games).
    pos: usize,
    games: u64,
    // --- per game ---
    game_start: usize,
    /// The input up to the end of the game's text (before its line end).
    text: &'a [u8],
    /// Where the next line starts.
    game_end: usize,
    /// The next byte of the line to read (one past the line's end after [`Reader::quick`] read
    /// its last token).
    cur: usize,
    board: Board,
    /// The start position's board cells not given yet, one bit per index.
    setup_left: u128,
    /// The start position's hand pieces not given yet.
    hand_left: [[u8; 8]; 2],
    /// The side to move now.
    turn: Color,
    ending: Option<Ending>,
    nodes: u64,
    /// [`Reader::quick`] reads moves while [`Reader::nodes`] is below this: the node limit, or 0
    /// once a terminal word has been read (one comparison for both).
    quick_limit: u64,
    /// The move of the `Node` just given, given next (in [`State::Pending`]).
    pending: ShogiMove,
    pending_error: Option<Error>,
    /// An error ended the last game: junk lines up to the next game are dropped silently (a
    /// game start is what comes after an error, as every reader keeps it).
    recovering: bool,
    stmt_offset: usize,
    lines: LineIndex,
    /// Tests only: every move through [`Reader::step`], the general path [`Reader::quick`] is
    /// checked against.
    #[cfg(test)]
    general_only: bool,
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        let pos = if input.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
        Reader {
            input,
            config,
            state: State::Between,
            pos,
            games: 0,
            game_start: 0,
            text: &[],
            game_end: 0,
            cur: 0,
            board: Board::empty(),
            setup_left: 0,
            hand_left: [[0; 8]; 2],
            turn: Color::Black,
            ending: None,
            nodes: 0,
            quick_limit: 0,
            pending: NO_MOVE,
            pending_error: None,
            recovering: false,
            stmt_offset: 0,
            lines: LineIndex::new(),
            #[cfg(test)]
            general_only: false,
        }
    }

    /// Reads a game cut out of a larger file by a splitter (USI has no file-wide context).
    pub fn with_context(self, _context: ChunkContext<'a>) -> Reader<'a> {
        self
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    fn position(&mut self, offset: usize) -> Position {
        self.lines.locate(self.input, offset as u64)
    }

    /// An error that ends the current game: reading resumes with the next line.
    fn fail(&mut self, kind: ErrorKind, offset: usize, message: &str) -> Error {
        let pos = self.position(offset);
        self.skip_rest();
        self.recovering = true;
        Error::new(kind, pos, message)
    }

    /// Drops the rest of the current game.
    fn skip_rest(&mut self) {
        self.pos = self.game_end;
        self.state = State::Between;
    }

    /// A warning event, or in strict mode the error it becomes (the game is then skipped).
    fn warn(&mut self, kind: WarningKind, offset: usize) -> Result<Event<'a>, Error> {
        let r = report::problem(self.config.is_strict(), kind, offset, self.input, &mut self.lines);
        if r.is_err() && self.state != State::Between {
            self.skip_rest();
            self.recovering = true;
        }
        r
    }

    /// A token that cannot be read: a warning, and the rest of the line is dropped.
    fn bad(&mut self, offset: usize) -> Result<Event<'a>, Error> {
        self.cur = self.text.len();
        self.warn(WarningKind::BadValue, offset)
    }

    /// A move that reads but that the board refuses: an `IllegalMove` warning, and the rest of
    /// the line is dropped (the board cannot follow it). In strict mode the error's message says
    /// what was dropped ([`super::illegal_move_message`]), as `kifu check` says for the warning.
    fn illegal(&mut self, offset: usize) -> Result<Event<'a>, Error> {
        self.cur = self.text.len();
        if self.config.is_strict() {
            let pos = self.position(offset);
            let message = super::illegal_move_message(self.input, offset as u64);
            if self.state != State::Between {
                self.skip_rest();
                self.recovering = true;
            }
            return Err(Error::new(ErrorKind::Strict(WarningKind::IllegalMove), pos, message));
        }
        self.warn(WarningKind::IllegalMove, offset)
    }

    /// The next token of the game's line (skipping spaces): its offset and bytes.
    #[inline(always)]
    fn next_token(&mut self) -> Option<(usize, &'a [u8])> {
        let line = self.text;
        let mut i = self.cur;
        while let Some(b' ' | b'\t') = line.get(i) {
            i += 1;
        }
        if i >= line.len() {
            self.cur = i;
            return None;
        }
        // Tokens are short (a move is 4 or 5 bytes): a plain scan beats a `memchr` call, and it
        // starts after the first four bytes when none of them ends the token.
        let word = |c: u8| c != b' ' && c != b'\t';
        let mut j = match line.get(i + 1..i + 4) {
            Some(&[a, b, c]) if word(a) && word(b) && word(c) => i + 4,
            _ => i + 1,
        };
        while line.get(j).is_some_and(|&c| word(c)) {
            j += 1;
        }
        // After one space, where [`Reader::quick`] reads the next token.
        self.cur = j + (line.get(j) == Some(&b' ')) as usize;
        Some((i, &line[i..j]))
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        loop {
            match self.state {
                State::Pending => {
                    self.state = State::Moves;
                    return Some(Ok(Event::Move(Move::Shogi(self.pending))));
                }
                State::Moves => {
                    if self.quick() {
                        return Some(Ok(Event::Node));
                    }
                    if let Some(r) = self.step() {
                        return Some(r);
                    }
                }
                State::Setup(k) => return Some(Ok(self.setup_step(k))),
                State::Between => {
                    // Only a game's start sets it, and that leaves the game (`fail`).
                    if let Some(e) = self.pending_error.take() {
                        return Some(Err(e));
                    }
                    if let Some(r) = self.between() {
                        return Some(r);
                    }
                }
                State::Done => return None,
            }
        }
    }

    /// Looks at the next line between games: a game starts, a junk line gives a warning, a blank
    /// line nothing; `None` after a blank line.
    fn between(&mut self) -> Option<Result<Event<'a>, Error>> {
        let input = self.input;
        if self.pos >= input.len() {
            self.state = State::Done;
            return None;
        }
        let at = self.pos;
        let (e, next) = line_end(input, at);
        let line = &input[at..e];
        self.pos = next;
        if is_blank(line) {
            return None;
        }
        if !is_game_line(line) {
            // Junk between games, binary or not, is a warning: errors belong to games (the
            // contract every reader keeps); the sniffer keeps binary files away. After an error,
            // it is dropped silently up to the next game.
            if self.recovering {
                return None;
            }
            self.stmt_offset = at;
            return Some(self.warn(WarningKind::UnknownLine, at));
        }
        Some(Ok(self.start_game(at, e, next)))
    }

    /// Starts the game on the line `at..e`: reads its start position.
    fn start_game(&mut self, at: usize, e: usize, next: usize) -> Event<'a> {
        self.games += 1;
        self.recovering = false;
        self.game_start = at;
        self.text = &self.input[..e];
        self.game_end = next;
        self.cur = at;
        self.ending = None;
        self.nodes = 0;
        self.quick_limit = self.config.limits.max_nodes;
        #[cfg(test)]
        if self.general_only {
            self.quick_limit = 0;
        }
        self.stmt_offset = at;
        self.state = State::Setup(0);
        let start = Event::GameStart { offset: at as u64 };
        if (e - at) as u64 > self.config.limits.max_game_len {
            self.pending_error = Some(self.fail(ErrorKind::LimitExceeded(Limit::GameSize), at, "game too large"));
            return start;
        }
        if let Err(off) = self.head() {
            self.pending_error = Some(self.fail(ErrorKind::Syntax, off, "not a USI position"));
        }
        self.turn = self.board.turn;
        self.hand_left = self.board.hands;
        self.setup_left = self.board.placed;
        start
    }

    /// Reads `[position] (startpos | sfen <sfen>) [moves]` or `moves`; `Err` with the offset of
    /// what does not fit.
    fn head(&mut self) -> Result<(), usize> {
        let (mut at, mut t) = self.next_token().ok_or(self.cur)?;
        if t == b"position" {
            (at, t) = self.next_token().ok_or(self.cur)?;
        }
        match t {
            b"startpos" | b"moves" => {
                self.board = Board::START;
                if t == b"moves" {
                    return Ok(());
                }
            }
            b"sfen" => {
                let line = self.text;
                let mut i = self.cur;
                while line.get(i) == Some(&b' ') {
                    i += 1;
                }
                self.cur = sfen::parse(line, i, &mut self.board)?;
            }
            _ => return Err(at),
        }
        let save = self.cur;
        match self.next_token() {
            None => {}
            Some((_, b"moves")) => {}
            // Not `moves`: the move reader warns about it.
            Some(_) => self.cur = save,
        }
        Ok(())
    }

    /// One event of the start position: the pieces on the board (rank 1 first, file 9 first),
    /// the hands (Black's first), then the side to move.
    fn setup_step(&mut self, mut k: u8) -> Event<'a> {
        // The board: the lowest cell left of those the position placed.
        while self.setup_left != 0 {
            let i = self.setup_left.trailing_zeros() as usize;
            self.setup_left &= self.setup_left - 1;
            if let Some(&Some((color, piece))) = self.board.cells.get(i) {
                let square = Some(sfen::square(i));
                return Event::Setup(Setup::Shogi { color, piece, square });
            }
        }
        // Hands: slot 7 * side + kind, one piece at a time (counted down on a copy).
        while k < 14 {
            let (side, kind) = if k < 7 { (0, k as usize) } else { (1, k as usize - 7) };
            let n = &mut self.hand_left[side][kind & 7];
            if *n > 0 {
                *n -= 1;
                self.state = State::Setup(k);
                let color = if side == 0 { Color::Black } else { Color::White };
                return Event::Setup(Setup::Shogi { color, piece: HAND_KINDS[kind % 7], square: None });
            }
            k += 1;
        }
        self.state = State::Moves;
        Event::Turn(self.board.turn)
    }

    /// One token of the moves; `None` when it gave no event.
    fn step(&mut self) -> Option<Result<Event<'a>, Error>> {
        let Some((at, t)) = self.next_token() else {
            self.state = State::Between;
            self.pos = self.game_end;
            return Some(Ok(Event::GameEnd { length: (self.game_end - self.game_start) as u64, ending: self.ending }));
        };
        self.stmt_offset = at;
        if self.ending.is_some() {
            // Tokens after a terminal word.
            self.cur = self.text.len();
            return Some(self.warn(WarningKind::MoveAfterEnd, at));
        }
        let Some(tok) = sfen::token(t) else {
            if let Some(end) = special(t) {
                self.ending = Some(end);
                self.quick_limit = 0;
                return None;
            }
            return Some(self.bad(at));
        };
        let color = self.turn;
        let b = &mut self.board;
        let mv = match tok {
            Token::Move(from, to, promote) => {
                let (fi, ti) = (sfen::index(from), sfen::index(to));
                let Some((c, mut piece)) = b.cells[fi] else { return Some(self.illegal(at)) };
                if c != color || from == to {
                    return Some(self.illegal(at));
                }
                if promote {
                    match piece.promoted() {
                        Some(p) => piece = p,
                        None => return Some(self.illegal(at)),
                    }
                }
                if let Some((tc, taken)) = b.cells[ti] {
                    let k = sfen::HAND_SLOT[taken as usize].map(usize::from);
                    let (Some(k), true) = (k, tc != color) else { return Some(self.illegal(at)) };
                    let n = &mut b.hands[color as usize][k];
                    *n = n.saturating_add(1);
                }
                b.cells[fi] = None;
                b.cells[ti] = Some((color, piece));
                ShogiMove { color, from: Some(from), to, piece }
            }
            Token::Drop(piece, to) => {
                let ti = sfen::index(to);
                let k = sfen::HAND_SLOT[piece as usize].map_or(0, usize::from);
                let n = &mut b.hands[color as usize][k];
                if b.cells[ti].is_some() || *n == 0 {
                    return Some(self.illegal(at));
                }
                *n -= 1;
                b.cells[ti] = Some((color, piece));
                ShogiMove { color, from: None, to, piece }
            }
        };
        self.nodes += 1;
        if self.nodes > self.config.limits.max_nodes {
            return Some(Err(self.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves")));
        }
        self.turn = color.opponent();
        self.pending = mv;
        self.state = State::Pending;
        Some(Ok(Event::Node))
    }

    /// The common move token (`7g7f`, `8h2b+`, `P*5e`, at [`Reader::cur`] and followed by one
    /// space or the line's end) read and played in one go, its squares and piece looked up by
    /// table: `true` when it was, its `Node` to be given and its move pending, [`Reader::cur`]
    /// after the space. Anything else (a terminal word, a move the board refuses, the move limit
    /// reached, more spaces or a tab) is left untouched for [`Reader::step`], which reads it again
    /// and gives what it gives. (Kept out of line, so that `next_item` stays small enough to be
    /// inlined into the caller's loop: the `Move` after each `Node` then costs no call.)
    #[inline(never)]
    fn quick(&mut self) -> bool {
        if self.nodes >= self.quick_limit {
            return false;
        }
        let line = self.text;
        let i = self.cur;
        // Six bytes: the token, a `+` or a space, and a space; fewer at the line's end, where
        // the end reads as spaces.
        let [a, b, c, d, e, f] = match line.get(i..i + 6) {
            Some(&[a, b, c, d, e, f]) => [a, b, c, d, e, f],
            _ => padded(line.get(i..).unwrap_or_default()),
        };
        let (promote, j) = match (e, f) {
            (b' ', _) => (false, i + 5),
            (b'+', b' ') => (true, i + 6),
            _ => return false,
        };
        let Some(ti) = sfen::cell(c, d) else { return false };
        let color = self.turn;
        let board = &mut self.board;
        // A side's hand counts, indexed with a mask (slots are below 7): no bounds check.
        let hand = &mut board.hands[color as usize];
        let mv = if b == b'*' {
            let Some((k, piece)) = sfen::drop_slot(a) else { return false };
            let n = &mut hand[k & 7];
            if promote || *n == 0 || board.cells[ti].is_some() {
                return false;
            }
            *n -= 1;
            board.cells[ti] = Some((color, piece));
            ShogiMove { color, from: None, to: sfen::square(ti), piece }
        } else {
            let Some(fi) = sfen::cell(a, b) else { return false };
            let Some((c, mut piece)) = board.cells[fi] else { return false };
            if c != color {
                return false;
            }
            if promote {
                let Some(p) = sfen::PROMOTED[piece as usize] else { return false };
                piece = p;
            }
            // A move to its own square finds its own piece there, and is refused with captures
            // of one's own pieces.
            if let Some((tc, taken)) = board.cells[ti] {
                let Some(k) = sfen::HAND_SLOT[taken as usize] else { return false };
                if tc == color {
                    return false;
                }
                let n = &mut hand[k as usize & 7];
                *n = n.saturating_add(1);
            }
            board.cells[fi] = None;
            board.cells[ti] = Some((color, piece));
            ShogiMove { color, from: Some(sfen::square(fi)), to: sfen::square(ti), piece }
        };
        self.stmt_offset = i;
        // One past the line's end after its last token: `next_token` and this function read
        // `cur` only through `get`.
        self.cur = j;
        self.nodes += 1;
        self.turn = color.opponent();
        self.pending = mv;
        self.state = State::Pending;
        true
    }
}

/// The last bytes of a line (fewer than six) followed by spaces, for [`Reader::quick`].
#[cold]
fn padded(rest: &[u8]) -> [u8; 6] {
    let mut w = [b' '; 6];
    let n = rest.len().min(6);
    w[..n].copy_from_slice(&rest[..n]);
    w
}

/// A placeholder for [`Reader::pending`] before any move.
const NO_MOVE: ShogiMove = ShogiMove { color: Color::Black, from: None, to: Square::new(1, 1), piece: Piece::Pawn };

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the token that produced the last event.
    fn event_offset(&self) -> Option<u64> {
        Some(self.stmt_offset as u64)
    }

    /// Skips to the end of the current game (or the whole next game) without building events.
    fn skip_game(&mut self) -> Result<bool, Error> {
        // A game whose start already failed (a bad SFEN, too large): its error, not yet given,
        // is what ends it, so skipping the game drops the error.
        if self.pending_error.take().is_some() {
            return Ok(true);
        }
        match self.state {
            State::Setup(_) | State::Moves | State::Pending => {
                self.skip_rest();
                Ok(true)
            }
            State::Between => {
                let input = self.input;
                while self.pos < input.len() {
                    let (e, next) = line_end(input, self.pos);
                    let at = self.pos;
                    self.pos = next;
                    if is_game_line(&input[at..e]) {
                        self.games += 1;
                        return Ok(true);
                    }
                }
                self.state = State::Done;
                Ok(false)
            }
            State::Done => Ok(false),
        }
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.lines.locate(self.input, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::EventSource;

    /// Every event, its offset and every error of `input`, read with `config`, the quick path
    /// on or off.
    fn events(input: &[u8], config: Config, general_only: bool) -> Vec<String> {
        let mut r = Reader::with_config(input, config);
        r.general_only = general_only;
        let mut out = Vec::new();
        while let Some(e) = r.next_event() {
            let e = format!("{e:?}");
            out.push(format!("{e} @{:?}", r.event_offset()));
            assert!(out.len() < 1 << 20, "no progress");
        }
        out
    }

    fn same(input: &[u8]) {
        let small = crate::input::Limits::default().with_max_nodes(7);
        for config in [Config::default(), Config::strict(), Config::default().with_limits(small)] {
            assert_eq!(
                events(input, config, false),
                events(input, config, true),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    /// xorshift64.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn square_text(i: usize) -> [u8; 2] {
        let sq = sfen::square(i);
        [b'0' + sq.file, b'a' + sq.rank - 1]
    }

    /// A random game line: moves the board accepts (board moves that capture, promote or not,
    /// drops), and now and then a move it refuses, a bad token, a terminal word, two spaces, a
    /// tab, a `+` or a `*` too many.
    fn random_line(rng: &mut Rng) -> Vec<u8> {
        let mut board = Board::START;
        let mut line = b"position startpos moves".to_vec();
        let mut color = Color::Black;
        for _ in 0..rng.below(120) {
            line.extend_from_slice(match rng.below(40) {
                0 => b"  ",
                1 => b"\t",
                2 => b" \t ",
                _ => b" ",
            });
            match rng.below(60) {
                0 => line.extend_from_slice([&b"resign"[..], b"win", b"rep_draw", b"7g7"][rng.below(4)]),
                1 => line.extend_from_slice(&[b"1234567890abcdefghij+*PKpG"[rng.below(26)]; 4][..1 + rng.below(4)]),
                2 => {
                    // Any squares, any drop letter.
                    let (f, t) = (square_text(rng.below(81)), square_text(rng.below(81)));
                    if rng.below(2) == 0 {
                        line.extend_from_slice(&[f[0], f[1], t[0], t[1]]);
                    } else {
                        line.extend_from_slice(&[b"PLNSGBRKp"[rng.below(9)], b'*', t[0], t[1]]);
                    }
                }
                _ => {
                    let own: Vec<usize> =
                        (0..81).filter(|&i| matches!(board.cells[i], Some((c, _)) if c == color)).collect();
                    let hand: Vec<usize> = (0..7).filter(|&k| board.hands[color as usize][k] > 0).collect();
                    let empty: Vec<usize> = (0..81).filter(|&i| board.cells[i].is_none()).collect();
                    if !hand.is_empty() && rng.below(3) == 0 {
                        let (k, t) = (hand[rng.below(hand.len())], empty[rng.below(empty.len())]);
                        let t = square_text(t);
                        line.extend_from_slice(&[b"RBGSNLP"[k], b'*', t[0], t[1]]);
                        board.hands[color as usize][k] -= 1;
                        board.cells[t_index(t)] = Some((color, HAND_KINDS[k]));
                    } else {
                        let fi = own[rng.below(own.len())];
                        let targets: Vec<usize> = (0..81)
                            .filter(|&i| match board.cells[i] {
                                None => true,
                                Some((c, p)) => c != color && p != Piece::King,
                            })
                            .collect();
                        let ti = targets[rng.below(targets.len())];
                        let (_, mut piece) = board.cells[fi].unwrap();
                        let (f, t) = (square_text(fi), square_text(ti));
                        line.extend_from_slice(&[f[0], f[1], t[0], t[1]]);
                        if piece.promoted().is_some() && rng.below(4) == 0 {
                            line.push(b'+');
                            piece = piece.promoted().unwrap();
                        }
                        if let Some((_, taken)) = board.cells[ti] {
                            let k = sfen::HAND_SLOT[taken as usize].unwrap() as usize;
                            board.hands[color as usize][k] += 1;
                        }
                        board.cells[fi] = None;
                        board.cells[ti] = Some((color, piece));
                    }
                    color = color.opponent();
                }
            }
            if rng.below(50) == 0 {
                line.push([b'+', b'*', b'x'][rng.below(3)]);
            }
        }
        if rng.below(4) == 0 {
            line.push(b' ');
        }
        line
    }

    fn t_index(t: [u8; 2]) -> usize {
        sfen::cell(t[0], t[1]).unwrap()
    }

    #[test]
    fn quick_path_gives_what_the_general_path_gives() {
        // Every shape of move token, alone on a line and between others, at the line's end
        // and not.
        let shapes: [&[u8]; 14] = [
            b"7g7f", b"8h2b+", b"P*5e", b"2h2a+", b"7g7f+", b"P*5e+", b"K*5e", b"p*5e", b"7g7", b"7g7j", b"0a1b",
            b"7g7f=", b"7g", b"resign",
        ];
        for a in shapes {
            for b in shapes {
                for sep in [&b" "[..], b"  ", b"\t", b" \t"] {
                    for end in [&b""[..], b" ", b"\t", b"\r"] {
                        let mut line = b"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P2p 1 moves 7g7f 3c3d".to_vec();
                        for t in [a, b] {
                            line.extend_from_slice(sep);
                            line.extend_from_slice(t);
                        }
                        line.extend_from_slice(end);
                        same(&line);
                        line.push(b'\n');
                        same(&line);
                    }
                }
            }
        }
        let mut rng = Rng(0x2300_5eed);
        let mut all = Vec::new();
        for _ in 0..400 {
            let line = random_line(&mut rng);
            same(&line);
            all.extend_from_slice(&line);
            all.push(b'\n');
        }
        same(&all);
    }
}
