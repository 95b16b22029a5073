//! A shogi position that replays events and checks every move: the piece on the from-square and
//! its owner, the piece's movement (sliders blocked by pieces between), captures (never of one's
//! own piece), promotion (only unpromoted pieces that can promote, only when the move starts or
//! ends in the promotion zone), forced promotion (no pawn or lance on the last rank, no knight
//! on the last two), drops (a piece in hand, an empty square, no dead pieces, no second
//! unpromoted pawn on a file — nifu — and no pawn drop that mates), and never leaving one's own
//! king in check. It gives the captured piece of each move and the SFEN of any position.
//!
//! Costs: the position is a 104-byte `Copy` value. A move is checked and played in place (and
//! taken back if it proves illegal) in about 300 instructions: whether a piece reaches a square
//! is a lookup in a table per pair of squares (6.5 KB, built at compile time) and a bit test,
//! and whether a king is attacked is looked at only along the lines the move changes (all eight
//! lines and the knight squares around a king after it moves or after setup). The
//! pawn-drop-mate test, run only for a pawn drop that gives check, tries the defender's moves
//! until one is legal. Nothing allocates except [`ShogiPosition::sfen`]'s `String`
//! ([`ShogiPosition::sfen_bytes`] writes into a buffer).
//!
//! ```
//! use kifu::position::shogi::ShogiPosition;
//! use kifu::EventSource;
//!
//! let csa = b"PI\n+\n+7776FU\n-3334FU\n+8822UM\n";
//! let mut reader = kifu::csa::Reader::new(csa);
//! let mut pos = ShogiPosition::new();
//! let mut captured = vec![];
//! while let Some(ev) = reader.next_event() {
//!     if let Some(played) = pos.apply(&ev.unwrap()).unwrap() {
//!         captured.extend(played.captured);
//!     }
//! }
//! assert_eq!(captured, vec![kifu::Piece::Bishop]);
//! assert_eq!(pos.sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B");
//! ```

use crate::error::{Error, ErrorKind, Position};
use crate::event::{Color, Event, Move, Piece, Setup, ShogiMove, Square};
use std::fmt;
use tables::*;

mod tables;

/// Why a move (or setup) is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Illegal {
    /// The move is made by the side not to move.
    WrongSide,
    /// There is no piece on the from-square.
    NoPiece,
    /// The piece on the from-square belongs to the opponent.
    NotOwnPiece,
    /// The written piece is neither the piece on the from-square nor its promoted form.
    PieceMismatch,
    /// The piece cannot move from the from-square to the to-square (or a piece is in the way).
    BadMovement,
    /// The to-square holds one of the mover's own pieces.
    CaptureOwn,
    /// A promotion with neither square in the promotion zone.
    PromotionOutsideZone,
    /// A pawn or lance on the last rank, or a knight on the last two, without promoting.
    MustPromote,
    /// A drop of a piece that is not in the mover's hand.
    NotInHand,
    /// A drop of a promoted piece or a king.
    BadDropPiece,
    /// A drop on an occupied square.
    DropOnOccupied,
    /// A pawn dropped on a file that already holds the mover's unpromoted pawn (nifu).
    Nifu,
    /// A pawn drop that checkmates (uchifuzume).
    PawnDropMate,
    /// The move leaves the mover's own king in check.
    KingInCheck,
    /// A setup event that cannot be applied (a promoted piece or a king put in hand).
    BadSetup,
}

impl Illegal {
    /// A stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Illegal::WrongSide => "wrong_side",
            Illegal::NoPiece => "no_piece",
            Illegal::NotOwnPiece => "not_own_piece",
            Illegal::PieceMismatch => "piece_mismatch",
            Illegal::BadMovement => "bad_movement",
            Illegal::CaptureOwn => "capture_own",
            Illegal::PromotionOutsideZone => "promotion_outside_zone",
            Illegal::MustPromote => "must_promote",
            Illegal::NotInHand => "not_in_hand",
            Illegal::BadDropPiece => "bad_drop_piece",
            Illegal::DropOnOccupied => "drop_on_occupied",
            Illegal::Nifu => "nifu",
            Illegal::PawnDropMate => "pawn_drop_mate",
            Illegal::KingInCheck => "king_in_check",
            Illegal::BadSetup => "bad_setup",
        }
    }

    /// The error for this illegal move found at `position` of the input (kind
    /// [`ErrorKind::IllegalMove`]); a reader's `event_offset` and `locate` give the position.
    pub fn error(self, position: Position) -> Error {
        Error::new(ErrorKind::IllegalMove, position, format!("illegal move: {}", self.as_str()))
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The piece captured (as it stood on the board, promoted or not), if any.
    pub captured: Option<Piece>,
    /// Whether the move promoted its piece.
    pub promoted: bool,
}

/// Hand pieces, in this order: pawn, lance, knight, silver, gold, bishop, rook.
const HAND: [Piece; 7] =
    [Piece::Pawn, Piece::Lance, Piece::Knight, Piece::Silver, Piece::Gold, Piece::Bishop, Piece::Rook];

/// The index of `p` in [`HAND`] (the first seven pieces of [`Piece::ALL`]), if it can be held.
#[inline]
fn hand_index(p: Piece) -> Option<usize> {
    let i = p as usize;
    (i < HAND.len()).then_some(i)
}

/// The index of `p` in [`Piece::ALL`] (the order the enum declares them in).
#[inline]
fn piece_index(p: Piece) -> u8 {
    p as u8
}

/// What `ShogiPosition::board` holds for `p` of colour `c`.
#[inline]
fn code(c: Color, p: Piece) -> u8 {
    1 + piece_index(p) + if c == Color::White { 16 } else { 0 }
}

/// The board code of a king, without its colour bit.
const KING_CODE: u8 = 1 + Piece::King as u8;

/// A shogi position: board, hands and side to move. See the [module docs](self).
#[derive(Clone, Copy)]
pub struct ShogiPosition {
    /// Row-major from rank 1, file 9 to rank 9, file 1 (SFEN order); 0 = empty, else
    /// 1 + piece index + 16 for White.
    board: [u8; 81],
    hands: [[u8; 7]; 2],
    side: Color,
    ply: u32,
    /// Where each side's king is: 1 + the index in `board` of the first king of that colour in
    /// board order, 0 for none. A function of `board`, kept by `put`.
    kings: [u8; 2],
    /// Per colour, whether its king is attacked, when known ([`CHECK_UNKNOWN`] after any `put`
    /// from outside a move): lets [`ShogiPosition::play`] look only where a move can change it.
    checks: [u8; 2],
}

/// See `ShogiPosition::checks`.
const CHECK_UNKNOWN: u8 = 0;
const CHECK_NO: u8 = 1;
const CHECK_YES: u8 = 2;

/// What [`ShogiPosition::make`] changed beyond side and ply, to take a move back (board
/// indices and codes, all bytes, so that it travels in registers).
#[derive(Clone, Copy)]
struct Undo {
    played: Played,
    /// The board index moved from ([`NO_SQUARE`]: a drop) and what stood there.
    from: u8,
    moved: u8,
    /// The board index moved to and what stood there.
    to: u8,
    target: u8,
    /// The mover's hand slot that changed ([`NO_SQUARE`]: none) and what it held.
    hand: u8,
    held: u8,
    kings: [u8; 2],
}

/// See [`Undo`].
const NO_SQUARE: u8 = 0xFF;

/// Positions are equal when their boards, hands, sides to move and plies are (the kept king
/// squares and check states are derived from them).
impl PartialEq for ShogiPosition {
    fn eq(&self, o: &Self) -> bool {
        (self.board, self.hands, self.side, self.ply) == (o.board, o.hands, o.side, o.ply)
    }
}

impl Eq for ShogiPosition {}

impl std::hash::Hash for ShogiPosition {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.board, self.hands, self.side, self.ply).hash(h);
    }
}

impl Default for ShogiPosition {
    fn default() -> Self {
        ShogiPosition::new()
    }
}

#[inline]
fn idx(sq: Square) -> usize {
    (sq.rank as usize - 1) * 9 + (9 - sq.file as usize)
}

fn valid(sq: Square) -> bool {
    (1..=9).contains(&sq.file) && (1..=9).contains(&sq.rank)
}

fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Ranks (1–9, from the mover's far side) counted from the mover's point of view.
fn rel_rank(c: Color, rank: u8) -> u8 {
    match c {
        Color::Black => rank,
        Color::White => 10 - rank,
    }
}

fn in_zone(c: Color, sq: Square) -> bool {
    rel_rank(c, sq.rank) <= 3
}

/// Whether an unpromoted `p` of `c` on `sq` could never move again.
fn dead(c: Color, p: Piece, sq: Square) -> bool {
    let r = rel_rank(c, sq.rank);
    match p {
        Piece::Pawn | Piece::Lance => r == 1,
        Piece::Knight => r <= 2,
        _ => false,
    }
}

impl ShogiPosition {
    /// An empty board, empty hands, Black to move (what a CSA game starts from before its
    /// position statements).
    pub fn new() -> ShogiPosition {
        ShogiPosition {
            board: [0; 81],
            hands: [[0; 7]; 2],
            side: Color::Black,
            ply: 0,
            kings: [0; 2],
            checks: [CHECK_UNKNOWN; 2],
        }
    }

    /// The standard start position.
    pub fn startpos() -> ShogiPosition {
        let mut p = ShogiPosition::new();
        let back = [
            Piece::Lance,
            Piece::Knight,
            Piece::Silver,
            Piece::Gold,
            Piece::King,
            Piece::Gold,
            Piece::Silver,
            Piece::Knight,
            Piece::Lance,
        ];
        for f in 1..=9u8 {
            let piece = back[(f - 1) as usize];
            p.put(Square::new(f, 9), Some((Color::Black, piece)));
            p.put(Square::new(f, 1), Some((Color::White, piece)));
            p.put(Square::new(f, 7), Some((Color::Black, Piece::Pawn)));
            p.put(Square::new(f, 3), Some((Color::White, Piece::Pawn)));
        }
        p.put(Square::new(8, 8), Some((Color::Black, Piece::Bishop)));
        p.put(Square::new(2, 8), Some((Color::Black, Piece::Rook)));
        p.put(Square::new(2, 2), Some((Color::White, Piece::Bishop)));
        p.put(Square::new(8, 2), Some((Color::White, Piece::Rook)));
        p
    }

    /// The piece on `sq` (file and rank 1–9), with its owner.
    pub fn get(&self, sq: Square) -> Option<(Color, Piece)> {
        if !valid(sq) {
            return None;
        }
        let v = self.board[idx(sq)];
        if v == 0 {
            return None;
        }
        let color = if v & 16 != 0 { Color::White } else { Color::Black };
        Some((color, Piece::ALL[((v & 15) - 1) as usize]))
    }

    /// Puts a piece on `sq` (or empties it with `None`). Squares off the board are ignored.
    pub fn put(&mut self, sq: Square, piece: Option<(Color, Piece)>) {
        if !valid(sq) {
            return;
        }
        self.set(idx(sq), piece.map_or(0, |(c, p)| code(c, p)));
        self.checks = [CHECK_UNKNOWN; 2];
    }

    /// Sets board index `i` to `new` (a board code), keeping `kings` (not `checks`).
    #[inline(always)]
    fn set(&mut self, i: usize, new: u8) {
        let old = self.board[i];
        self.board[i] = new;
        if old & 15 == KING_CODE || new & 15 == KING_CODE {
            self.kings_after_set(i, old, new);
        }
    }

    /// `set`'s bookkeeping of `kings` when a king left or came to board index `i` (rare).
    #[cold]
    #[inline(never)]
    fn kings_after_set(&mut self, i: usize, old: u8, new: u8) {
        if old & 15 == KING_CODE && self.kings[(old >> 4) as usize] as usize == i + 1 {
            // The king found first left this square: look for another.
            let c = (old >> 4) as usize;
            self.kings[c] = self.board.iter().position(|&v| v == old).map_or(0, |k| k as u8 + 1);
        }
        if new & 15 == KING_CODE {
            let k = &mut self.kings[(new >> 4) as usize];
            if *k == 0 || i + 1 < *k as usize {
                *k = i as u8 + 1;
            }
        }
    }

    /// How many `piece` (unpromoted, not the king) `color` holds in hand.
    pub fn hand(&self, color: Color, piece: Piece) -> u8 {
        hand_index(piece).map_or(0, |i| self.hands[color_index(color)][i])
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, c: Color) {
        self.side = c;
    }

    /// Number of moves played since the position was set up.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Applies one event: `GameStart` empties the position, `Setup` places or removes pieces,
    /// `Turn` sets the side to move, a shogi `Move` is checked and played (answering what it
    /// did); other events change nothing.
    pub fn apply(&mut self, event: &Event<'_>) -> Result<Option<Played>, Illegal> {
        match *event {
            Event::GameStart { .. } => {
                *self = ShogiPosition::new();
                Ok(None)
            }
            Event::Setup(Setup::Shogi { color, piece, square }) => {
                match square {
                    Some(sq) => self.put(sq, Some((color, piece))),
                    None => {
                        let i = hand_index(piece).ok_or(Illegal::BadSetup)?;
                        let h = &mut self.hands[color_index(color)][i];
                        *h = h.saturating_add(1);
                    }
                }
                Ok(None)
            }
            Event::Setup(Setup::ShogiRemove { square }) => {
                self.put(square, None);
                Ok(None)
            }
            Event::Turn(c) => {
                self.side = c;
                Ok(None)
            }
            Event::Move(Move::Shogi(m)) => self.play(m).map(Some),
            _ => Ok(None),
        }
    }

    /// Checks and plays a move. On `Err` the position is unchanged.
    ///
    /// The move is played in place once its piece, movement, promotion and drop rules hold, and
    /// taken back in the rare case it turns out to leave the mover's king in check or to be a
    /// pawn-drop mate. Whether a king is attacked is known from move to move, so a move looks
    /// only where it can change that: the mover's king is looked at whole after a king move or
    /// when it was in check, else only along the line the moved piece left; the opponent's king,
    /// only from the moved piece and along that line. After setup (`put`) both are looked at
    /// whole once.
    pub fn play(&mut self, m: ShogiMove) -> Result<Played, Illegal> {
        let (c, them) = (m.color, m.color.opponent());
        let before = self.checks;
        let undo = self.make(m)?;
        let own_known_safe = before[color_index(c)] == CHECK_NO && m.piece != Piece::King;
        let own_attacked = if own_known_safe { self.discovered(undo.from, c) } else { self.in_check(c) };
        if own_attacked {
            self.unmake(undo, before);
            return Err(Illegal::KingInCheck);
        }
        let gives_check = if before[color_index(them)] == CHECK_NO {
            self.king_index(them).is_some_and(|k| {
                self.reaches_at(undo.to as usize, k, code(c, m.piece)) || self.discovered(undo.from, them)
            })
        } else {
            self.in_check(them)
        };
        if gives_check && m.from.is_none() && m.piece == Piece::Pawn && !self.has_legal_move(them) {
            self.unmake(undo, before);
            return Err(Illegal::PawnDropMate);
        }
        self.checks[color_index(c)] = CHECK_NO;
        self.checks[color_index(them)] = if gives_check { CHECK_YES } else { CHECK_NO };
        Ok(undo.played)
    }

    /// Whether `c`'s king is attacked along the line through board index `from` (a square just
    /// left; [`NO_SQUARE`] for none): the first piece met beyond it, looking from the king, is
    /// the opponent's and slides that way.
    #[inline(always)]
    fn discovered(&self, from: u8, c: Color) -> bool {
        let Some(k) = self.king_index(c) else { return false };
        let Some(&ray) = RAY[k].get(from as usize) else { return false };
        ray < 0x90 && self.attacker_on_line(k, (ray & 15) as usize, c.opponent() == Color::White)
    }

    /// Checks a move against everything but the rules that need the whole board (own king left
    /// in check, pawn-drop mate) and plays it: on `Err` nothing changed, on `Ok` the position
    /// is the one after the move (its `checks` unchanged) and the answer takes it back.
    #[inline(always)]
    fn make(&mut self, m: ShogiMove) -> Result<Undo, Illegal> {
        if m.color != self.side {
            return Err(Illegal::WrongSide);
        }
        if !valid(m.to) {
            return Err(Illegal::BadMovement);
        }
        let ci = color_index(m.color);
        let to = idx(m.to);
        let target = self.board[to];
        let new = code(m.color, m.piece);
        let mut undo = Undo {
            played: Played { captured: None, promoted: false },
            from: NO_SQUARE,
            moved: 0,
            to: to as u8,
            target,
            hand: NO_SQUARE,
            held: 0,
            kings: self.kings,
        };
        match m.from {
            None => {
                let i = hand_index(m.piece).ok_or(Illegal::BadDropPiece)?;
                if target != 0 {
                    return Err(Illegal::DropOnOccupied);
                }
                let held = self.hands[ci][i];
                if held == 0 {
                    return Err(Illegal::NotInHand);
                }
                if dead(m.color, m.piece, m.to) {
                    return Err(Illegal::MustPromote);
                }
                if m.piece == Piece::Pawn && (0..9).any(|r| self.board[r * 9 + to % 9] == new) {
                    return Err(Illegal::Nifu);
                }
                self.hands[ci][i] = held - 1;
                (undo.hand, undo.held) = (i as u8, held);
                self.set(to, new);
            }
            Some(from_sq) => {
                if !valid(from_sq) {
                    return Err(Illegal::NoPiece);
                }
                let from = idx(from_sq);
                let moved = self.board[from];
                if moved == 0 {
                    return Err(Illegal::NoPiece);
                }
                if (moved >> 4) as usize != ci {
                    return Err(Illegal::NotOwnPiece);
                }
                let promoted = if new == moved {
                    false
                } else if Piece::ALL[((moved & 15) - 1) as usize].promoted() == Some(m.piece) {
                    true
                } else {
                    return Err(Illegal::PieceMismatch);
                };
                if promoted && !in_zone(m.color, from_sq) && !in_zone(m.color, m.to) {
                    return Err(Illegal::PromotionOutsideZone);
                }
                if !self.reaches_at(from, to, moved) {
                    return Err(Illegal::BadMovement);
                }
                if target != 0 && (target >> 4) as usize == ci {
                    return Err(Illegal::CaptureOwn);
                }
                if !promoted && dead(m.color, m.piece, m.to) {
                    return Err(Illegal::MustPromote);
                }
                if target != 0 {
                    let captured = Piece::ALL[((target & 15) - 1) as usize];
                    undo.played.captured = Some(captured);
                    if let Some(i) = hand_index(captured.unpromoted()) {
                        let h = &mut self.hands[ci][i];
                        (undo.hand, undo.held) = (i as u8, *h);
                        *h = h.saturating_add(1);
                    }
                }
                undo.played.promoted = promoted;
                (undo.from, undo.moved) = (from as u8, moved);
                self.set(from, 0);
                self.set(to, new);
            }
        }
        self.side = m.color.opponent();
        self.ply += 1;
        Ok(undo)
    }

    /// Takes back the move [`make`](Self::make) played, restoring `checks` to `checks`.
    #[inline]
    fn unmake(&mut self, u: Undo, checks: [u8; 2]) {
        self.board[u.to as usize] = u.target;
        if u.from != NO_SQUARE {
            self.board[u.from as usize] = u.moved;
        }
        self.side = self.side.opponent();
        if u.hand != NO_SQUARE {
            self.hands[color_index(self.side)][u.hand as usize] = u.held;
        }
        self.ply -= 1;
        self.kings = u.kings;
        self.checks = checks;
    }

    /// Whether the piece of board code `v` on board index `from` attacks board index `to`: by
    /// [`RAY`], one bit of [`MOVES_NEAR`] for an adjacent square, [`JUMPS`] for a knight's jump,
    /// else a bit of [`MOVES_FAR`] and a walk over the squares between.
    #[inline(always)]
    fn reaches_at(&self, from: usize, to: usize, v: u8) -> bool {
        let v = v as usize & 31;
        let ray = RAY[from][to];
        if ray >= 0x90 {
            return ray == JUMPS[v];
        }
        let (d, distance) = ((ray & 15) as usize, ray >> 4);
        if distance == 1 {
            return MOVES_NEAR[v] >> d & 1 != 0;
        }
        if MOVES_FAR[v] >> d & 1 == 0 {
            return false;
        }
        let mut i = from as isize;
        for _ in 1..distance {
            i += STEP[d];
            if self.board[i as usize] != 0 {
                return false;
            }
        }
        true
    }

    /// The board index of `c`'s (first) king.
    #[inline]
    fn king_index(&self, c: Color) -> Option<usize> {
        (self.kings[color_index(c)] as usize).checked_sub(1)
    }

    /// Whether `sq` is attacked by a piece of `by`.
    ///
    /// Looks outward from `sq`: an attacker is the first piece met in one of the eight
    /// directions (a step if it is adjacent, a slide whatever the distance) or a knight a jump
    /// away, so at most eight short walks and two squares are looked at, and each piece met is
    /// judged by two bit tests (its step and slide directions), not by working out its moves.
    /// A square off the board is never attacked.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        if !valid(sq) {
            return false;
        }
        self.attacked_at(idx(sq), by == Color::White)
    }

    /// [`attacked`](Self::attacked) for board index `i0`, by White (`white`) or Black.
    #[inline]
    fn attacked_at(&self, i0: usize, white: bool) -> bool {
        if (0..8).any(|d| self.attacker_on_line(i0, d, white)) {
            return true;
        }
        // Knights jump two ranks forward: a knight attacking `i0` stands where it jumps from.
        let knight = 1 + piece_index(Piece::Knight) + if white { 16 } else { 0 };
        KNIGHT_FROM[white as usize][i0].iter().any(|&j| self.board.get(j as usize) == Some(&knight))
    }

    /// Whether the first piece met from board index `i0` along line `d` belongs to White
    /// (`white`) or Black and attacks back along it (a step when adjacent, a slide at any
    /// distance).
    #[inline(always)]
    fn attacker_on_line(&self, i0: usize, d: usize, white: bool) -> bool {
        let mut i = i0 as isize;
        for k in 0..ROOM[i0][d] {
            i += STEP[d];
            let v = self.board[i as usize] as usize & 31;
            if v != 0 {
                let lines = if k == 0 { NEAR[white as usize][v] } else { FAR[white as usize][v] };
                return lines >> d & 1 != 0;
            }
        }
        false
    }

    /// Whether `c`'s king is attacked (false when `c` has no king, as in tsume problems).
    pub fn in_check(&self, c: Color) -> bool {
        self.king_index(c).is_some_and(|k| self.attacked_at(k, c == Color::Black))
    }

    /// Whether `c` (to move) has any legal move. Promotion variants are not tried separately:
    /// they never change whether the mover's king is left in check.
    ///
    /// Each of `c`'s pieces tries the squares its lines of movement (from a table per piece)
    /// and the knight's jumps give, then each piece in hand every square; each move is played
    /// on a copy and taken back, and the first that leaves `c`'s king unattacked answers (a few
    /// hundred operations a move).
    pub fn has_legal_move(&self, c: Color) -> bool {
        let mut probe = *self;
        probe.side = c;
        let ci = color_index(c);
        let own = |v: u8| v != 0 && (v >> 4) as usize == ci;
        for (i, room) in ROOM.iter().enumerate() {
            let v = probe.board[i];
            if !own(v) {
                continue;
            }
            let (near, far) = (MOVES_NEAR[v as usize & 31], MOVES_FAR[v as usize & 31]);
            for d in 0..8 {
                let reach = if far >> d & 1 != 0 { room[d] } else { room[d].min(near >> d & 1) };
                let mut j = i as isize;
                for _ in 0..reach {
                    j += STEP[d];
                    let t = probe.board[j as usize];
                    if own(t) {
                        break;
                    }
                    if probe.safe_after(i, j as usize, c) {
                        return true;
                    }
                    if t != 0 {
                        break;
                    }
                }
            }
            if JUMPS[v as usize & 31] != 0 {
                let (f, r) = (9 - (i % 9) as i8, (i / 9) as i8 + 1);
                let r = if c == Color::White { r + 2 } else { r - 2 };
                for f in [f - 1, f + 1] {
                    if (1..=9).contains(&f) && (1..=9).contains(&r) {
                        let j = idx(Square::new(f as u8, r as u8));
                        if !own(probe.board[j]) && probe.safe_after(i, j, c) {
                            return true;
                        }
                    }
                }
            }
        }
        for (k, &piece) in HAND.iter().enumerate() {
            if probe.hands[ci][k] == 0 {
                continue;
            }
            for j in 0..81usize {
                let to = Square::new(9 - (j % 9) as u8, (j / 9) as u8 + 1);
                if let Ok(undo) = probe.make(ShogiMove { color: c, from: None, to, piece }) {
                    let safe = !probe.in_check(c);
                    probe.unmake(undo, probe.checks);
                    if safe {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `c`'s king is unattacked once the piece on board index `from` moves to `to`
    /// (unpromoted, capturing what stands there); the board is left as it was.
    fn safe_after(&mut self, from: usize, to: usize, c: Color) -> bool {
        let (moved, target, kings) = (self.board[from], self.board[to], self.kings);
        self.set(from, 0);
        self.set(to, moved);
        let safe = !self.in_check(c);
        self.board[from] = moved;
        self.board[to] = target;
        self.kings = kings;
        safe
    }

    /// The position in SFEN without the move number: board, side (`b`/`w`), hands (`-` when
    /// both are empty), e.g. `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -`.
    pub fn sfen(&self) -> String {
        let mut buf = [0; SFEN_MAX];
        String::from_utf8_lossy(self.sfen_bytes(&mut buf)).into_owned()
    }

    /// Writes [`sfen`](Self::sfen) to `out` without allocating.
    pub fn write_sfen(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mut buf = [0; SFEN_MAX];
        // The bytes are ASCII.
        out.write_str(std::str::from_utf8(self.sfen_bytes(&mut buf)).map_err(|_| fmt::Error)?)
    }

    /// The bytes of [`sfen`](Self::sfen) (ASCII), written into `buf`: without allocating or
    /// formatting, a byte or two a square.
    pub fn sfen_bytes<'b>(&self, buf: &'b mut [u8; SFEN_MAX]) -> &'b [u8] {
        let mut n = 0;
        let mut push = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        for (rank, squares) in self.board.chunks_exact(9).enumerate() {
            if rank > 0 {
                push(b'/');
            }
            let mut empty = 0;
            for &v in squares {
                if v == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    push(b'0' + empty);
                    empty = 0;
                }
                let letter = SFEN_LETTERS[((v & 15) - 1) as usize];
                if letter.len() == 2 {
                    push(b'+');
                }
                let l = letter[letter.len() - 1];
                push(if v & 16 != 0 { l.to_ascii_lowercase() } else { l });
            }
            if empty > 0 {
                push(b'0' + empty);
            }
        }
        for &b in if self.side == Color::Black { b" b " } else { b" w " } {
            push(b);
        }
        let mut any = false;
        for (c, hand) in self.hands.iter().enumerate() {
            for i in (0..7).rev() {
                let h = hand[i];
                if h == 0 {
                    continue;
                }
                any = true;
                if h >= 100 {
                    push(b'0' + h / 100);
                }
                if h >= 10 {
                    push(b'0' + h / 10 % 10);
                }
                if h > 1 {
                    push(b'0' + h % 10);
                }
                let l = SFEN_LETTERS[i][0];
                push(if c == 1 { l.to_ascii_lowercase() } else { l });
            }
        }
        if !any {
            push(b'-');
        }
        &buf[..n]
    }
}

/// The longest SFEN [`ShogiPosition::sfen`] gives, in bytes: nine ranks of nine promoted pieces
/// and eight `/` (170), the side (3), fourteen kinds in hand of up to 255 each (56).
pub const SFEN_MAX: usize = 229;

/// Per piece (in [`Piece::ALL`] order), its SFEN letters for Black.
const SFEN_LETTERS: [&[u8]; 14] =
    [b"P", b"L", b"N", b"S", b"G", b"B", b"R", b"K", b"+P", b"+L", b"+N", b"+S", b"+B", b"+R"];

impl fmt::Debug for ShogiPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ShogiPosition(")?;
        self.write_sfen(f)?;
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests;
