//! SFEN positions and USI move tokens: the four fields of an SFEN (`<board> <side> <hand>
//! [<move number>]`) read into a small fixed board, and one move token (`7g7f`, `8h2b+`, `P*5e`)
//! read into its squares. Nothing here allocates.

use crate::event::{Color, Piece, Square};

/// The standard start position, as `startpos` names it.
pub(super) const STARTPOS: &[u8] = b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The kinds a hand holds, in the order the reader gives them.
pub(super) const HAND_KINDS: [Piece; 7] =
    [Piece::Rook, Piece::Bishop, Piece::Gold, Piece::Silver, Piece::Knight, Piece::Lance, Piece::Pawn];

/// The place in [`HAND_KINDS`] of the kind a piece goes to hand as (its unpromoted kind), by
/// [`Piece`] index; `None` for a king.
pub(super) const HAND_SLOT: [Option<u8>; 14] = {
    let mut out = [None; 14];
    let mut p = 0;
    while p < 14 {
        let base = Piece::ALL[p].unpromoted();
        let mut k = 0;
        while k < 7 {
            if HAND_KINDS[k] as u8 == base as u8 {
                out[p] = Some(k as u8);
            }
            k += 1;
        }
        p += 1;
    }
    out
};

/// The most pieces of one kind a hand can hold (all eighteen pawns).
const MAX_HAND: u32 = 18;

/// A square's index on [`Board::cells`]: rank 1 first, file 9 first inside a rank (SFEN order).
#[inline]
pub(super) fn index(sq: Square) -> usize {
    (sq.rank as usize - 1) * 9 + (9 - sq.file as usize)
}

/// The square at an index of [`Board::cells`] (below 81), looked up by table.
#[inline(always)]
pub(super) fn square(i: usize) -> Square {
    SQUARES[i]
}

/// The square of each index of [`Board::cells`].
const SQUARES: [Square; 81] = {
    let mut out = [Square::new(1, 1); 81];
    let mut i = 0;
    while i < 81 {
        out[i] = Square::new(9 - (i % 9) as u8, (i / 9) as u8 + 1);
        i += 1;
    }
    out
};

/// The promoted form of each piece, by [`Piece`] index (`None` for a gold, a king or a piece
/// already promoted): [`Piece::promoted`] as a table.
pub(super) const PROMOTED: [Option<Piece>; 14] = {
    use Piece::*;
    let mut out = [None; 14];
    out[Pawn as usize] = Some(ProPawn);
    out[Lance as usize] = Some(ProLance);
    out[Knight as usize] = Some(ProKnight);
    out[Silver as usize] = Some(ProSilver);
    out[Bishop as usize] = Some(Horse);
    out[Rook as usize] = Some(Dragon);
    out
};

/// A start position: the pieces on the board, the hands and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    /// The 81 squares, in SFEN order (see [`index`]).
    pub cells: [Option<(Color, Piece)>; 81],
    /// Pieces in hand by [`HAND_KINDS`], Black's then White's (the eighth slot is never used:
    /// a side's seven counts are indexed with a mask, no bounds check).
    pub hands: [[u8; 8]; 2],
    /// The side to move.
    pub turn: Color,
    /// The cells given a piece when the position was read, one bit per index (moves do not
    /// keep it up): the reader gives the start position's pieces from it.
    pub placed: u128,
}

impl Board {
    /// An empty board, Black to move.
    pub const fn empty() -> Board {
        Board { cells: [None; 81], hands: [[0; 8]; 2], turn: Color::Black, placed: 0 }
    }

    /// The standard start position ([`STARTPOS`] read), built once at compile time: a game that
    /// starts from `startpos` copies it instead of reading the SFEN.
    pub const START: Board = {
        use Piece::*;
        const BACK: [Piece; 9] = [Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance];
        let mut b = Board::empty();
        let mut k = 0;
        while k < 9 {
            b.cells[k] = Some((Color::White, BACK[k]));
            b.cells[18 + k] = Some((Color::White, Pawn));
            b.cells[54 + k] = Some((Color::Black, Pawn));
            b.cells[72 + k] = Some((Color::Black, BACK[k]));
            k += 1;
        }
        // Rank 2: the rook on file 8, the bishop on file 2; rank 8 the other way round.
        b.cells[10] = Some((Color::White, Rook));
        b.cells[16] = Some((Color::White, Bishop));
        b.cells[64] = Some((Color::Black, Bishop));
        b.cells[70] = Some((Color::Black, Rook));
        let mut i = 0;
        while i < 81 {
            if b.cells[i].is_some() {
                b.placed |= 1 << i;
            }
            i += 1;
        }
        b
    };
}

/// The piece an SFEN letter names (either case), unpromoted.
fn letter(c: u8) -> Option<Piece> {
    Some(match c.to_ascii_uppercase() {
        b'P' => Piece::Pawn,
        b'L' => Piece::Lance,
        b'N' => Piece::Knight,
        b'S' => Piece::Silver,
        b'G' => Piece::Gold,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'K' => Piece::King,
        _ => return None,
    })
}

/// Reads an SFEN from `b[i..]` (fields separated by single spaces; the move number may be left
/// out) into `board`; returns where it ended (the end, or the space after it), or `Err` with the
/// offset of the first byte that does not fit.
pub(super) fn parse(b: &[u8], i: usize, board: &mut Board) -> Result<usize, usize> {
    // The standard position written out (as many writers give it): copied, not read.
    if let Some(rest) = b.get(i..).and_then(|r| r.strip_prefix(START_FIELDS)) {
        if matches!(rest.first(), None | Some(b' ')) {
            *board = Board::START;
            return Ok(move_number(b, i + START_FIELDS.len()));
        }
    }
    parse_fields(b, i, board)
}

/// [`parse`] without the copy of the standard position: every field read.
fn parse_fields(b: &[u8], mut i: usize, board: &mut Board) -> Result<usize, usize> {
    *board = Board::empty();
    // Board field.
    let (mut rank, mut file) = (0usize, 0usize);
    loop {
        let Some(&c) = b.get(i) else { return Err(i) };
        match c {
            b'1'..=b'9' => {
                file += (c - b'0') as usize;
                if file > 9 {
                    return Err(i);
                }
                i += 1;
            }
            b'/' => {
                if file != 9 || rank >= 8 {
                    return Err(i);
                }
                rank += 1;
                file = 0;
                i += 1;
            }
            b' ' => break,
            _ => {
                let promote = c == b'+';
                let k = if promote { i + 1 } else { i };
                let l = *b.get(k).ok_or(k)?;
                let mut piece = letter(l).ok_or(k)?;
                if promote {
                    piece = piece.promoted().ok_or(k)?;
                }
                if file >= 9 {
                    return Err(i);
                }
                let color = if l.is_ascii_uppercase() { Color::Black } else { Color::White };
                board.cells[rank * 9 + file] = Some((color, piece));
                board.placed |= 1 << (rank * 9 + file);
                file += 1;
                i = k + 1;
            }
        }
    }
    if rank != 8 || file != 9 {
        return Err(i);
    }
    i += 1;
    // Side to move.
    board.turn = match b.get(i) {
        Some(b'b') => Color::Black,
        Some(b'w') => Color::White,
        _ => return Err(i),
    };
    i += 1;
    if b.get(i) != Some(&b' ') {
        return Err(i);
    }
    i += 1;
    // Hand.
    if b.get(i) == Some(&b'-') {
        i += 1;
    } else {
        let start = i;
        let mut count: u32 = 0;
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => {
                    count = count * 10 + u32::from(c - b'0');
                    if count > MAX_HAND {
                        return Err(i);
                    }
                }
                b' ' => break,
                _ => {
                    let piece = letter(c).ok_or(i)?;
                    let k = HAND_KINDS.iter().position(|&p| p == piece).ok_or(i)?;
                    let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                    let n = &mut board.hands[color][k];
                    let total = u32::from(*n) + count.max(1);
                    if total > MAX_HAND {
                        return Err(i);
                    }
                    *n = total as u8;
                    count = 0;
                }
            }
            i += 1;
        }
        if i == start || count != 0 {
            return Err(i);
        }
    }
    match b.get(i) {
        None => Ok(i),
        Some(b' ') => Ok(move_number(b, i)),
        Some(_) => Err(i),
    }
}

/// The first three fields of [`STARTPOS`] (board, side, hand), which [`parse`] copies as
/// [`Board::START`] when they are followed by a space or the end.
const START_FIELDS: &[u8] = b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

/// After the hand field ending at `i` (the end, or the space before a move number): where the
/// SFEN ends, after the move number when one follows.
fn move_number(b: &[u8], i: usize) -> usize {
    let j = i + 1;
    let n = b[j.min(b.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
    if n > 0 && matches!(b.get(j + n), None | Some(b' ')) {
        return j + n;
    }
    i
}

/// The cell of [`Board::cells`] a file digit and a rank letter name (`7g`): two table lookups
/// and one comparison (see [`FILE_CELL`]); [`square`] gives its square.
#[inline(always)]
pub(super) fn cell(f: u8, r: u8) -> Option<usize> {
    let i = FILE_CELL[f as usize] as usize + RANK_CELL[r as usize] as usize;
    (i < 81).then_some(i)
}

/// What a file digit adds to a cell index (`'9'` 0 … `'1'` 8), by byte; [`NO_CELL`] for a
/// byte that is no file. With [`RANK_CELL`]'s part the sum is the cell, below 81 only when
/// both bytes are squares' (a `NO_CELL` alone makes it at least 128).
const FILE_CELL: [u8; 256] = {
    let mut out = [NO_CELL; 256];
    let mut f = 0;
    while f < 9 {
        out[(b'1' + f) as usize] = 8 - f;
        f += 1;
    }
    out
};

/// What a rank letter adds to a cell index (`'a'` 0, `'b'` 9 … `'i'` 72), by byte; [`NO_CELL`]
/// for a byte that is no rank.
const RANK_CELL: [u8; 256] = {
    let mut out = [NO_CELL; 256];
    let mut r = 0;
    while r < 9 {
        out[(b'a' + r) as usize] = 9 * r;
        r += 1;
    }
    out
};

/// What [`FILE_CELL`] and [`RANK_CELL`] hold for a byte that names no file or rank.
const NO_CELL: u8 = 0x80;

/// The [`HAND_KINDS`] slot and the piece of each letter a drop may name (`P`, `L`, `N`, `S`,
/// `G`, `B`, `R`: upper case, no king), by byte; `None` for every other byte.
const DROPS: [Option<(u8, Piece)>; 256] = {
    let mut out = [None; 256];
    let letters = *b"RBGSNLP";
    let mut k = 0;
    while k < 7 {
        out[letters[k] as usize] = Some((k as u8, HAND_KINDS[k]));
        k += 1;
    }
    out
};

/// The [`HAND_KINDS`] slot and the piece a drop's letter names, looked up by table.
#[inline(always)]
pub(super) fn drop_slot(c: u8) -> Option<(usize, Piece)> {
    DROPS[c as usize].map(|(k, p)| (k as usize, p))
}

/// A move token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// A board move: from, to, promotes.
    Move(Square, Square, bool),
    /// A drop of an unpromoted piece.
    Drop(Piece, Square),
}

/// A square written as a file digit and a rank letter (`7g`).
#[inline]
fn square_at(f: u8, r: u8) -> Option<Square> {
    let (f, r) = (f.wrapping_sub(b'1'), r.wrapping_sub(b'a'));
    (f < 9 && r < 9).then(|| Square::new(f + 1, r + 1))
}

/// Reads one move token, or `None` when it is not one.
#[inline(always)]
pub(super) fn token(t: &[u8]) -> Option<Token> {
    match *t {
        [p, b'*', f, r] if p.is_ascii_uppercase() && p != b'K' => Some(Token::Drop(letter(p)?, square_at(f, r)?)),
        [f1, r1, f2, r2] => Some(Token::Move(square_at(f1, r1)?, square_at(f2, r2)?, false)),
        [f1, r1, f2, r2, b'+'] => Some(Token::Move(square_at(f1, r1)?, square_at(f2, r2)?, true)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfens_and_tokens() {
        let mut b = Board::empty();
        assert_eq!(parse(STARTPOS, 0, &mut b), Ok(STARTPOS.len()));
        assert_eq!(b, Board::START);
        assert!(STARTPOS.starts_with(START_FIELDS));
        // The copy of the standard position against every field read: the fields, cut
        // anywhere, then each ending (a move number or not, a further token, junk).
        let mut g = Board::empty();
        for cut in 0..=START_FIELDS.len() {
            for tail in [&b""[..], b" ", b" 1", b" 12 moves", b" x", b" 1x", b"P", b"- 1", b"  1", b"\t1"] {
                for lead in [&b""[..], b"sfen "] {
                    let text = [lead, &START_FIELDS[..cut], tail].concat();
                    let (got, want) = (parse(&text, lead.len(), &mut b), parse_fields(&text, lead.len(), &mut g));
                    assert_eq!(got, want, "{}", String::from_utf8_lossy(&text));
                    if got.is_ok() {
                        assert_eq!(b, g, "{}", String::from_utf8_lossy(&text));
                    }
                }
            }
        }
        assert_eq!(parse(STARTPOS, 0, &mut b), Ok(STARTPOS.len()));
        assert_eq!(b.cells[0], Some((Color::White, Piece::Lance)));
        assert_eq!(b.cells[index(Square::new(2, 8))], Some((Color::Black, Piece::Rook)));
        assert_eq!(square(index(Square::new(3, 7))), Square::new(3, 7));
        let s = b"4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p moves";
        assert_eq!(parse(s, 0, &mut b), Ok(33 + 6));
        assert_eq!((b.turn, b.hands[1][6], b.hands[1][0]), (Color::White, 18, 2));
        assert!(parse(b"4k4/9/9 b - 1", 0, &mut b).is_err());
        assert!(parse(b"4k4/9/9/9/9/9/9/9/4K4 b 19P", 0, &mut b).is_err());
        assert!(parse(b"4k4/9/9/9/9/9/9/9/4K5 b -", 0, &mut b).is_err());
        assert!(parse(b"4k4/9/9/9/9/9/9/9/4+K4 b -", 0, &mut b).is_err());
        for (p, slot) in Piece::ALL.iter().zip(HAND_SLOT) {
            assert_eq!(slot.map(usize::from), HAND_KINDS.iter().position(|&k| k == p.unpromoted()), "{p:?}");
        }
        assert_eq!(token(b"7g7f"), Some(Token::Move(Square::new(7, 7), Square::new(7, 6), false)));
        assert_eq!(token(b"8h2b+"), Some(Token::Move(Square::new(8, 8), Square::new(2, 2), true)));
        assert_eq!(token(b"P*5e"), Some(Token::Drop(Piece::Pawn, Square::new(5, 5))));
        for (k, c) in b"RBGSNLP".iter().enumerate() {
            assert_eq!(letter(*c), Some(HAND_KINDS[k]));
            assert_eq!(drop_slot(*c), Some((k, HAND_KINDS[k])));
        }
        for c in [b'K', b'p', b'*', b'1', 0xFF] {
            assert_eq!(drop_slot(c), None);
        }
        for i in 0..81 {
            let sq = square(i);
            assert_eq!(cell(b'0' + sq.file, b'a' + sq.rank - 1), Some(i));
            assert_eq!(index(sq), i);
        }
        assert_eq!(cell(b'0', b'a'), None);
        assert_eq!(cell(b'1', b'j'), None);
        // The tables against the general reading of a square, for every pair of bytes.
        for f in 0..=255u8 {
            for r in 0..=255u8 {
                assert_eq!(cell(f, r).map(square), square_at(f, r), "{f} {r}");
                assert_eq!(cell(f, r), square_at(f, r).map(index), "{f} {r}");
            }
        }
        for p in Piece::ALL {
            assert_eq!(PROMOTED[p as usize], p.promoted(), "{p:?}");
        }
        for c in 0..=255u8 {
            let general = match token(&[c, b'*', b'5', b'e']) {
                Some(Token::Drop(p, _)) => HAND_KINDS.iter().position(|&k| k == p).map(|k| (k, p)),
                _ => None,
            };
            assert_eq!(drop_slot(c), general, "{c}");
        }
        for bad in [&b"K*5e"[..], b"p*5e", b"7g7j", b"7g7f=", b"resign", b"0a1b"] {
            assert_eq!(token(bad), None, "{bad:?}");
        }
    }
}
