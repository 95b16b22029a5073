//! Writing shogi events as USI `position` lines, one game per line, one event at a time.
//!
//! The writer streams: a game's start position is gathered from its setup events into a small
//! fixed board (81 squares and two hands), written when the first move (or the game's end)
//! comes, and every move is then written as it comes. USI holds a start position and moves
//! only: no header, no comments, no times, no variations. The writer follows the main line
//! (the first child at every branch, the rule of `tree::MainLineTracker`) and skips every event
//! off it, counting them in [`Writer::off_main`]; what USI cannot hold is counted in
//! [`Writer::unwritten`].
//!
//! # What each event becomes
//! | event | USI |
//! |---|---|
//! | `GameStart` | a new line (the previous game's line ends) |
//! | `Setup::Shogi`, `Setup::ShogiRemove` (before the first move) | the start position: `position startpos` when it is the standard position with Black to move and empty hands, else `position sfen <board> <b\|w> <hands\|-> 1` (hands Black's first, each by rook, bishop, gold, silver, knight, lance, pawn, a count before a letter when above one) |
//! | `Turn` (before the first move) | the SFEN's side to move (without one, the first move's side) |
//! | `Move(Shogi)` | ` moves` before the first, then `7g7f`; `8h2b+` when an unpromoted piece becomes promoted (the writer keeps the board to know); a drop `P*5e` |
//! | `GameEnd` with `Resign`, `DeclareWin`, `Draw`, `Repetition`, `TimeUp`, `Interrupted` | `resign`, `win`, `draw`, `rep_draw`, `timeout`, `break` after the moves (after ` moves` when there are none) |
//! | `Node`, `VariationStart`, `VariationEnd`, `Warning` | nothing |
//!
//! A Go game (a Go move or stone, a mark on a point, a board size or `GM[1]` anywhere in it) is
//! refused with an error ([`ErrorKind::NotAGameRecord`]): the game's output is taken back and
//! the rest of the game is ignored; the next game is written as usual.
//!
//! # Known losses (read → write → read)
//! | what | when |
//! |---|---|
//! | not written, counted in [`Writer::unwritten`]: `Info`, `Property`, `Comment`, `Name`, `Clock`, `Evaluation` | always: USI has no header, comments or times |
//! | not written, counted in [`Writer::off_main`]: every event of a variation | records with variations |
//! | not written, counted in [`Writer::unwritten`]: an ending other than the six above (`Impasse`, `IllegalMove`, `Checkmate`…) | records of other formats |
//! | not written, counted in [`Writer::unwritten`]: setup or a turn after the first move; a move or setup off the board; a drop of a king or promoted piece; a hand over 18 of a kind | records of other formats |
//! | the setup events come back in SFEN order (the board rank 1 first, file 9 first, then the hands Black's first by rook … pawn), a piece set twice on a square once, and a `Turn` always | a start position given in another order (CSA `P+`, KIF handicaps) |
//! | a game without setup events starts from `startpos` (its setup and `Turn` read back) | records that give no start position |
//! | the SFEN's move number is 1 (the reader gives nothing for it) | an SFEN with another number |
//!
//! ```
//! use kifu::usi::write::Writer;
//!
//! let usi = b"position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e resign\n";
//! let mut writer = Writer::new();
//! let mut out = Vec::new();
//! for ev in kifu::usi::Reader::new(usi) {
//!     writer.event(&ev.unwrap(), &mut out).unwrap();
//! }
//! assert_eq!(out, usi);
//! ```

use super::sfen::{self, HAND_KINDS, STARTPOS};
use crate::error::{Error, ErrorKind, Position};
use crate::event::{Color, Ending, Event, InfoKey, Move, Piece, Setup, ShogiMove, Square};
use crate::kit::main_line::MainLine;

/// The most pieces of one kind a hand can hold (all eighteen pawns).
const MAX_HAND: u8 = 18;

/// Writes shogi events as USI; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Writer {
    /// The standard position's squares (what `startpos` names).
    standard: [Option<(Color, Piece)>; 81],
    /// Games written to the end.
    games: u64,
    /// Events left out because they are off the main line.
    off_main: u64,
    /// Events left out because USI cannot hold them.
    unwritten: u64,
    game: Game,
}

/// The state of the game being written.
#[derive(Clone, Copy, Debug)]
struct Game {
    /// Inside a game (between `GameStart` and `GameEnd`, and not refused).
    open: bool,
    /// Where the game's output starts in the buffer (taken back on an error).
    start: usize,
    main: MainLine,
    /// The board: the start position until the head is written, then the current position.
    cells: [Option<(Color, Piece)>; 81],
    /// Pieces in hand by [`HAND_KINDS`], Black's then White's.
    hands: [[u8; 7]; 2],
    /// The side to move the records gives.
    turn: Option<Color>,
    /// A setup event came.
    setup: bool,
    /// The `position …` head is written: the start position is fixed.
    head: bool,
    /// ` moves` is written.
    moves: bool,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            open: false,
            start: 0,
            main: MainLine::default(),
            cells: [None; 81],
            hands: [[0; 7]; 2],
            turn: None,
            setup: false,
            head: false,
            moves: false,
        }
    }
}

impl Default for Writer {
    fn default() -> Writer {
        Writer::new()
    }
}

/// Whether a square is on the board.
fn on_board(s: Square) -> bool {
    (1..=9).contains(&s.file) && (1..=9).contains(&s.rank)
}

/// The SFEN letter of an unpromoted piece (Black's, upper case).
fn letter(p: Piece) -> u8 {
    match p.unpromoted() {
        Piece::Pawn => b'P',
        Piece::Lance => b'L',
        Piece::Knight => b'N',
        Piece::Silver => b'S',
        Piece::Gold => b'G',
        Piece::Bishop => b'B',
        Piece::Rook => b'R',
        _ => b'K',
    }
}

/// A square as USI writes it: file digit, rank letter (`7g`).
fn square(s: Square) -> [u8; 2] {
    [b'0' + s.file, b'a' + s.rank - 1]
}

/// The word a USI line ends a game with, or `None` for endings USI has no word for.
pub fn terminal(e: Ending) -> Option<&'static str> {
    Some(match e {
        Ending::Resign => "resign",
        Ending::DeclareWin => "win",
        Ending::Draw => "draw",
        Ending::Repetition => "rep_draw",
        Ending::TimeUp => "timeout",
        Ending::Interrupted => "break",
        _ => return None,
    })
}

impl Writer {
    /// A writer before the first game.
    pub fn new() -> Writer {
        let mut board = sfen::Board::empty();
        // The constant always reads; an empty board would only make every start an SFEN.
        let _ = sfen::parse(STARTPOS, 0, &mut board);
        Writer { standard: board.cells, games: 0, off_main: 0, unwritten: 0, game: Game::default() }
    }

    /// Games written to their end so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Events left out because they were off the main line (in a variation).
    pub fn off_main(&self) -> u64 {
        self.off_main
    }

    /// Events left out because USI cannot hold them (see the module's table of losses).
    pub fn unwritten(&self) -> u64 {
        self.unwritten
    }

    /// Appends what `ev` becomes in USI to `out` (nothing for most events; the `position`
    /// head when the first move comes).
    ///
    /// # Errors
    /// An event of a Go game (see the [module docs](self)): the game's output is removed from
    /// `out`, and the game's remaining events are ignored.
    pub fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Event::GameStart { .. } = ev {
            if self.game.open {
                // A game that never ended: close it as it stands.
                self.end_game(None, out);
            }
            self.game = Game { open: true, start: out.len(), ..Game::default() };
        }
        if !self.game.open {
            return Ok(());
        }
        if is_go(ev) {
            return Err(self.refuse(out));
        }
        if !self.game.main.feed(ev) {
            if !matches!(ev, Event::VariationStart(_) | Event::VariationEnd) {
                self.off_main += 1;
            }
            return Ok(());
        }
        match *ev {
            Event::GameStart { .. } | Event::Node | Event::Warning(_) => {}
            Event::VariationStart(_) | Event::VariationEnd => {}
            Event::Setup(s) if !self.game.head => self.setup(s),
            Event::Turn(c) if !self.game.head => self.game.turn = Some(c),
            Event::Move(Move::Shogi(m)) => self.shogi_move(m, out),
            Event::GameEnd { ending, .. } => self.end_game(ending, out),
            _ => self.unwritten += 1,
        }
        Ok(())
    }

    /// One setup event into the start position.
    fn setup(&mut self, s: Setup) {
        let g = &mut self.game;
        match s {
            Setup::Shogi { color, piece, square: Some(sq) } if on_board(sq) => {
                g.cells[sfen::index(sq)] = Some((color, piece));
            }
            Setup::Shogi { color, piece, square: None } => match HAND_KINDS.iter().position(|&p| p == piece) {
                Some(k) if g.hands[color as usize][k] < MAX_HAND => g.hands[color as usize][k] += 1,
                _ => {
                    self.unwritten += 1;
                    return;
                }
            },
            Setup::ShogiRemove { square: sq } if on_board(sq) => g.cells[sfen::index(sq)] = None,
            _ => {
                self.unwritten += 1;
                return;
            }
        }
        g.setup = true;
    }

    /// The `position …` head, from the start position gathered (`first`: the side of the first
    /// move, for a record without a turn).
    fn head(&mut self, first: Option<Color>, out: &mut Vec<u8>) {
        let g = &mut self.game;
        g.head = true;
        if !g.setup {
            g.cells = self.standard;
        }
        let turn = g.turn.or(first).unwrap_or(Color::Black);
        if g.cells == self.standard && g.hands == [[0; 7]; 2] && turn == Color::Black {
            out.extend_from_slice(b"position startpos");
            return;
        }
        out.extend_from_slice(b"position sfen ");
        for rank in 0..9 {
            if rank > 0 {
                out.push(b'/');
            }
            let mut empty = 0u8;
            for cell in &g.cells[rank * 9..rank * 9 + 9] {
                let Some((color, piece)) = *cell else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    out.push(b'0' + empty);
                    empty = 0;
                }
                if piece.is_promoted() {
                    out.push(b'+');
                }
                let l = letter(piece);
                out.push(if color == Color::White { l.to_ascii_lowercase() } else { l });
            }
            if empty > 0 {
                out.push(b'0' + empty);
            }
        }
        out.extend_from_slice(if turn == Color::Black { b" b " } else { b" w " });
        let mut any = false;
        for (side, hand) in g.hands.iter().enumerate() {
            for (k, &n) in hand.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    if n >= 10 {
                        out.push(b'0' + n / 10);
                    }
                    out.push(b'0' + n % 10);
                }
                let l = letter(HAND_KINDS[k]);
                out.push(if side == 1 { l.to_ascii_lowercase() } else { l });
            }
        }
        if !any {
            out.push(b'-');
        }
        out.extend_from_slice(b" 1");
    }

    /// ` moves` once, before the first move or terminal word.
    fn moves_word(&mut self, out: &mut Vec<u8>) {
        if !self.game.moves {
            self.game.moves = true;
            out.extend_from_slice(b" moves");
        }
    }

    fn shogi_move(&mut self, m: ShogiMove, out: &mut Vec<u8>) {
        let drop_ok = m.from.is_some() || !(m.piece.is_promoted() || m.piece == Piece::King);
        if !on_board(m.to) || m.from.is_some_and(|f| !on_board(f)) || !drop_ok {
            self.unwritten += 1;
            return;
        }
        if !self.game.head {
            self.head(Some(m.color), out);
        }
        self.moves_word(out);
        let g = &mut self.game;
        let ti = sfen::index(m.to);
        out.push(b' ');
        match m.from {
            Some(from) => {
                let fi = sfen::index(from);
                let before = g.cells[fi];
                let promotes = m.piece.is_promoted() && before.is_none_or(|(_, p)| !p.is_promoted());
                out.extend_from_slice(&square(from));
                out.extend_from_slice(&square(m.to));
                if promotes {
                    out.push(b'+');
                }
                if let Some((c, taken)) = g.cells[ti] {
                    if c != m.color {
                        if let Some(k) = HAND_KINDS.iter().position(|&p| p == taken.unpromoted()) {
                            let n = &mut g.hands[m.color as usize][k];
                            *n = n.saturating_add(1);
                        }
                    }
                }
                g.cells[fi] = None;
            }
            None => {
                out.extend_from_slice(&[letter(m.piece), b'*']);
                out.extend_from_slice(&square(m.to));
                if let Some(k) = HAND_KINDS.iter().position(|&p| p == m.piece) {
                    let n = &mut g.hands[m.color as usize][k];
                    *n = n.saturating_sub(1);
                }
            }
        }
        g.cells[ti] = Some((m.color, m.piece));
    }

    fn end_game(&mut self, ending: Option<Ending>, out: &mut Vec<u8>) {
        if !self.game.head {
            self.head(None, out);
        }
        match ending.map(|e| (e, terminal(e))) {
            Some((_, Some(word))) => {
                self.moves_word(out);
                out.push(b' ');
                out.extend_from_slice(word.as_bytes());
            }
            Some((_, None)) => self.unwritten += 1,
            None => {}
        }
        out.push(b'\n');
        self.game.open = false;
        self.games += 1;
    }

    /// Takes back the game's output and ignores the rest of the game.
    fn refuse(&mut self, out: &mut Vec<u8>) -> Error {
        out.truncate(self.game.start);
        self.game.open = false;
        Error::new(
            ErrorKind::NotAGameRecord,
            Position::default(),
            "a Go game cannot be written as USI, which records shogi only",
        )
    }
}

/// Whether `ev` belongs to a Go game: a Go move or stone, a mark on a point, a board size, or
/// `GM[1]`.
fn is_go(ev: &Event<'_>) -> bool {
    match ev {
        Event::Move(Move::Go { .. }) | Event::Setup(Setup::Go { .. }) | Event::Markup(_) => true,
        Event::Info(i) => match i.key() {
            InfoKey::BoardSize => true,
            InfoKey::GameType => i.value().decode().text.trim() == "1",
            _ => false,
        },
        _ => false,
    }
}
