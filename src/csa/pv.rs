//! Moves as text: one CSA move token (`+7776FU`), the `'**` evaluation comment of floodgate and
//! V3.0 (`'** 113 -3334FU +2625FU #12345`), and its principal variation as CSA or USI moves.
//!
//! Everything here borrows its input and allocates nothing.

use crate::event::{Color, Piece, ShogiMove, Square};

/// Parses one CSA move token: sign, from-square (`00` for a drop), to-square and the piece after
/// the move, e.g. `+7776FU` or `-0055KA`. Exactly seven bytes; `None` otherwise.
///
/// ```
/// use kifu::{csa::parse_move, Color, Piece, Square};
/// let m = parse_move(b"-0055KA").unwrap();
/// assert_eq!((m.color, m.from, m.to, m.piece), (Color::White, None, Square::new(5, 5), Piece::Bishop));
/// assert!(parse_move(b"+7776XX").is_none());
/// ```
#[inline]
pub fn parse_move(b: &[u8]) -> Option<ShogiMove> {
    let &[s, f1, r1, f2, r2, p1, p2] = b else { return None };
    move_from(s, u32::from_le_bytes([f1, r1, f2, r2]), p1, p2)
}

/// [`parse_move`] on the token's bytes: the sign, the four digits (a little-endian word) and the
/// piece's two letters. The digits are checked together.
#[inline(always)]
pub(crate) fn move_from(s: u8, d: u32, p1: u8, p2: u8) -> Option<ShogiMove> {
    let color = match s {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    // Every byte `0`-`9`: its high nibble is 3, and adding 6 to its low nibble does not carry.
    if d & 0xF0F0_F0F0 != 0x3030_3030 || d.wrapping_add(0x0606_0606) & 0xF0F0_F0F0 != 0x3030_3030 {
        return None;
    }
    let v = d & 0x0F0F_0F0F;
    // The high bit of each byte: whether that digit is not 0 (a digit is at most 9).
    let nonzero = v.wrapping_add(0x7F7F_7F7F) & 0x8080_8080;
    // to: both digits 1-9; from: 00, or both digits 1-9.
    if nonzero & 0x8080_0000 != 0x8080_0000 || !matches!(nonzero & 0x8080, 0 | 0x8080) {
        return None;
    }
    let piece = piece_from_bytes(p1, p2)?;
    let [f1, r1, f2, r2] = v.to_le_bytes();
    let from = if f1 == 0 { None } else { Some(Square::new(f1, r1)) };
    Some(ShogiMove { color, from, to: Square::new(f2, r2), piece })
}

/// The fourteen piece names by a perfect hash of their two letters (`(a * 15 + b) & 31`), each
/// name as a little-endian `u16` with its piece. A slot no name takes holds a name that hashes
/// to another slot (so no two letters match it) and a piece never given.
const PIECE_TABLE: [(u16, Piece); 32] = {
    let mut t = [(0u16, Piece::Pawn); 32];
    let mut h = 0;
    while h < 32 {
        let filler: [u8; 2] = if piece_hash(0, 0) == h { [0, 1] } else { [0, 0] };
        t[h] = (u16::from_le_bytes(filler), Piece::Pawn);
        h += 1;
    }
    let mut i = 0;
    while i < Piece::ALL.len() {
        let p = Piece::ALL[i];
        let name = match p {
            Piece::Pawn => *b"FU",
            Piece::Lance => *b"KY",
            Piece::Knight => *b"KE",
            Piece::Silver => *b"GI",
            Piece::Gold => *b"KI",
            Piece::Bishop => *b"KA",
            Piece::Rook => *b"HI",
            Piece::King => *b"OU",
            Piece::ProPawn => *b"TO",
            Piece::ProLance => *b"NY",
            Piece::ProKnight => *b"NK",
            Piece::ProSilver => *b"NG",
            Piece::Horse => *b"UM",
            Piece::Dragon => *b"RY",
        };
        t[piece_hash(name[0], name[1])] = (u16::from_le_bytes(name), p);
        i += 1;
    }
    t
};

#[inline]
const fn piece_hash(a: u8, b: u8) -> usize {
    (a.wrapping_mul(15).wrapping_add(b) & 31) as usize
}

/// `Piece::from_csa` on two bytes, by table: one comparison of both letters.
#[inline]
fn piece_from_bytes(a: u8, b: u8) -> Option<Piece> {
    let (name, p) = PIECE_TABLE[piece_hash(a, b)];
    (name == u16::from_le_bytes([a, b])).then_some(p)
}

/// What follows `'**` in an evaluation comment: the score (from Black's side) and the rest,
/// raw (the PV and an optional `#nodes`). The third item says whether the dialect
/// `'**評価値=N` (a label and `=` before the score) was read.
///
/// ```
/// use kifu::csa::parse_evaluation;
/// assert_eq!(parse_evaluation(b" 113 -3334FU +2625FU"), (Some(113), &b"-3334FU +2625FU"[..], false));
/// assert_eq!(parse_evaluation("評価値=-50".as_bytes()), (Some(-50), &b""[..], true));
/// ```
pub fn parse_evaluation(rest: &[u8]) -> (Option<i32>, &[u8], bool) {
    let t = trim_start(rest);
    // The usual form, a signed number of at most nine digits then a blank or the end, in one
    // pass; anything else takes the general path below.
    let (neg, first) = match t.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut i = first;
    let mut v: i32 = 0;
    while let Some(&c) = t.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 || i - first == 9 {
            break;
        }
        v = v * 10 + d as i32;
        i += 1;
    }
    if i > first && matches!(t.get(i), None | Some(b' ' | b'\t')) {
        return (Some(if neg { -v } else { v }), trim_start(&t[i..]), false);
    }
    let (t, dialect) = match t.first() {
        Some(b'0'..=b'9' | b'-' | b'+') | None => (t, false),
        Some(_) => match memchr::memchr(b'=', t) {
            Some(i) => (trim_start(&t[i + 1..]), true),
            None => (t, false),
        },
    };
    let end = t.iter().position(|&c| c == b' ' || c == b'\t').unwrap_or(t.len());
    match parse_i32(&t[..end]) {
        Some(v) => (Some(v), trim_start(&t[end..]), dialect),
        None => (None, t, dialect),
    }
}

fn parse_i32(b: &[u8]) -> Option<i32> {
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 10 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as i64;
    }
    i32::try_from(if neg { -v } else { v }).ok()
}

#[inline]
fn trim_start(b: &[u8]) -> &[u8] {
    let mut s = 0;
    while s < b.len() && matches!(b[s], b' ' | b'\t') {
        s += 1;
    }
    &b[s..]
}

/// A USI move (`7g7f`, `8h2b+`, `P*5e`): squares are converted to CSA numbering; the moving
/// piece is not written in USI, so only drops name one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsiMove {
    /// The square moved from, `None` for a drop.
    pub from: Option<Square>,
    /// The square moved to.
    pub to: Square,
    /// The dropped piece, for drops.
    pub drop: Option<Piece>,
    /// Whether the move promotes (`+` suffix).
    pub promote: bool,
}

/// Parses one USI move token.
///
/// ```
/// use kifu::{csa::parse_usi_move, Square};
/// let m = parse_usi_move(b"8h2b+").unwrap();
/// assert_eq!((m.from, m.to, m.promote), (Some(Square::new(8, 8)), Square::new(2, 2), true));
/// assert!(parse_usi_move(b"P*5e").unwrap().drop.is_some());
/// ```
pub fn parse_usi_move(b: &[u8]) -> Option<UsiMove> {
    let sq = |f: u8, r: u8| -> Option<Square> {
        ((b'1'..=b'9').contains(&f) && (b'a'..=b'i').contains(&r)).then(|| Square::new(f - b'0', r - b'a' + 1))
    };
    match b {
        [p, b'*', f, r] => {
            let piece = match p {
                b'P' => Piece::Pawn,
                b'L' => Piece::Lance,
                b'N' => Piece::Knight,
                b'S' => Piece::Silver,
                b'G' => Piece::Gold,
                b'B' => Piece::Bishop,
                b'R' => Piece::Rook,
                _ => return None,
            };
            Some(UsiMove { from: None, to: sq(*f, *r)?, drop: Some(piece), promote: false })
        }
        [f1, r1, f2, r2] => Some(UsiMove { from: Some(sq(*f1, *r1)?), to: sq(*f2, *r2)?, drop: None, promote: false }),
        [f1, r1, f2, r2, b'+'] => {
            Some(UsiMove { from: Some(sq(*f1, *r1)?), to: sq(*f2, *r2)?, drop: None, promote: true })
        }
        _ => None,
    }
}

/// One move of a principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PvMove {
    /// A CSA move (`-3334FU`).
    Csa(ShogiMove),
    /// A USI move (`3c3d`).
    Usi(UsiMove),
}

/// The moves of a principal variation (the `pv` of an [`Evaluation`](crate::Evaluation)),
/// one per white-space separated token; a `#nodes` token is skipped. A token that is neither a
/// CSA nor a USI move is returned as `Err(token)`.
///
/// ```
/// use kifu::csa::{pv_moves, PvMove};
/// let pv: Vec<_> = pv_moves(b"-3334FU +2625FU #1234").collect();
/// assert_eq!(pv.len(), 2);
/// assert!(matches!(pv[0], Ok(PvMove::Csa(_))));
/// assert!(matches!(pv_moves(b"7g7f").next(), Some(Ok(PvMove::Usi(_)))));
/// ```
pub fn pv_moves(pv: &[u8]) -> PvMoves<'_> {
    PvMoves { rest: pv }
}

/// Iterator returned by [`pv_moves`].
#[derive(Clone, Debug)]
pub struct PvMoves<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for PvMoves<'a> {
    type Item = Result<PvMove, &'a [u8]>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let t = trim_start(self.rest);
            if t.is_empty() {
                self.rest = t;
                return None;
            }
            let end = t.iter().position(|&c| c == b' ' || c == b'\t').unwrap_or(t.len());
            let (tok, rest) = t.split_at(end);
            self.rest = rest;
            if tok[0] == b'#' {
                continue;
            }
            if let Some(m) = parse_move(tok) {
                return Some(Ok(PvMove::Csa(m)));
            }
            if let Some(m) = parse_usi_move(tok) {
                return Some(Ok(PvMove::Usi(m)));
            }
            return Some(Err(tok));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_forms() {
        assert_eq!(parse_evaluation(b""), (None, &b""[..], false));
        assert_eq!(parse_evaluation(b" -30000"), (Some(-30000), &b""[..], false));
        assert_eq!(parse_evaluation(b" 99999999999"), (None, &b"99999999999"[..], false));
        assert_eq!(parse_evaluation(b" 5 #100"), (Some(5), &b"#100"[..], false));
    }

    #[test]
    fn piece_table_is_complete() {
        for p in Piece::ALL {
            let n = p.csa().as_bytes();
            assert_eq!(piece_from_bytes(n[0], n[1]), Some(p));
        }
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(piece_from_bytes(a, b), Piece::from_csa(&[a, b]));
            }
        }
    }

    #[test]
    fn every_square_form() {
        for t in [&b"+0011FU"[..], b"+9999RY", b"-1919TO"] {
            assert!(parse_move(t).is_some(), "{t:?}");
        }
        for t in [&b"+0911FU"[..], b"+9011FU", b"+1110FU", b"+1101FU", b"+A111FU", b"*1111FU", b"+1111F"] {
            assert!(parse_move(t).is_none(), "{t:?}");
        }
    }

    /// The plain byte-by-byte reading that `move_from`'s word checks replace.
    fn parse_move_bytewise(b: &[u8]) -> Option<ShogiMove> {
        let &[s, f1, r1, f2, r2, p1, p2] = b else { return None };
        let color = match s {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return None,
        };
        let digit = |c: u8| c.is_ascii_digit().then(|| c - b'0');
        let (f1, r1, f2, r2) = (digit(f1)?, digit(r1)?, digit(f2)?, digit(r2)?);
        let from = match (f1, r1) {
            (0, 0) => None,
            (1..=9, 1..=9) => Some(Square::new(f1, r1)),
            _ => return None,
        };
        if f2 == 0 || r2 == 0 {
            return None;
        }
        Some(ShogiMove { color, from, to: Square::new(f2, r2), piece: Piece::from_csa(&[p1, p2])? })
    }

    #[test]
    fn word_checks_agree_with_bytewise_reading() {
        // Every value of each digit byte with the others valid, and every mix of edge bytes.
        let edges = [0u8, b'/', b'0', b'1', b'5', b'9', b':', b'?', b'@', b'A', b'j', 0x7f, 0x80, 0xc9, 0xff];
        let mut cases = Vec::new();
        for i in 0..4 {
            for v in 0..=255u8 {
                let mut d = *b"7776";
                d[i] = v;
                cases.push(d);
                let mut d = *b"0055";
                d[i] = v;
                cases.push(d);
            }
        }
        for &a in &edges {
            for &b in &edges {
                for &c in &edges {
                    for &d in &edges {
                        cases.push([a, b, c, d]);
                    }
                }
            }
        }
        for d in cases {
            for (s, p) in [(b'+', *b"FU"), (b'-', *b"RY"), (b'*', *b"FU"), (b'+', *b"XX")] {
                let t = [s, d[0], d[1], d[2], d[3], p[0], p[1]];
                assert_eq!(parse_move(&t), parse_move_bytewise(&t), "{t:?}");
            }
        }
    }

    #[test]
    fn bad_tokens() {
        let v: Vec<_> = pv_moves(b"+7776FU junk").collect();
        assert_eq!(v[1], Err(&b"junk"[..]));
        assert!(parse_move(b"+0076FX").is_none());
        assert!(parse_move(b"+7006FU").is_none());
        assert!(parse_usi_move(b"K*5e").is_none());
    }
}
