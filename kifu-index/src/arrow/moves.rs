//! The compact integer of one move, as the `moves` column holds it, and back.
//!
//! # Go: 13 bits
//! `color << 12 | index`, where `index` is the point `y * width + x` (`x` the column from the
//! left, `y` the row from the top, both from 0, as SGF's `aa` is (0, 0)), `width * height` for a
//! pass, and [`GO_OFF_BOARD`] for a point outside the board (a malformed record); `color` is 0
//! for Black and 1 for White. The board is the game's `width` × `height` (19 × 19 when the
//! record names no size), at most 52 × 52, so `index` < 2,705 fits 12 bits. On 19 × 19: `pd`
//! (x 15, y 3) by Black is 72, a White pass is 4,096 + 361 = 4,457; `code & 0xFFF` is the point.
//!
//! # Shogi: 20 bits
//! | bits | field |
//! |---|---|
//! | 0–6 | `to`: `(rank − 1) * 9 + (file − 1)` (CSA's file 1–9 from Black's right, rank 1–9 from the top: 11 is 0, 99 is 80); [`SHOGI_BAD_SQUARE`] when out of range |
//! | 7–13 | `from`: the same index, or 81 for a drop from the hand |
//! | 14–17 | `piece`: the piece on `to` after the move, as written, by its place in [`kifu::Piece::ALL`] (`FU` 0 … `OU` 7, `TO` 8 … `RY` 13) |
//! | 18 | promotion: the move promoted (the piece on `from` was the unpromoted form of `piece`, the board followed from the game's setup and earlier moves) |
//! | 19 | color: 0 Black (sente), 1 White (gote) |
//!
//! So `+7776FU` is to 5·9+6 = 51, from 6·9+6 = 60, piece 0: 51 | 60 << 7 = 7,731; a drop
//! `-0055KA` is 40 | 81 << 7 | 5 << 14 | 1 << 19.

use kifu::{Color, Move, Piece, Point, ShogiMove, Square};

/// The index of a Go point outside the board.
pub const GO_OFF_BOARD: u32 = 0xFFF;

/// The square index of a shogi square outside 1–9.
pub const SHOGI_BAD_SQUARE: u32 = 0x7F;

/// The `from` index of a shogi drop.
pub const SHOGI_DROP: u32 = 81;

/// The code of a Go move on a `width` × `height` board (see the module docs); `None` for a
/// shogi move.
///
/// ```
/// use kifu::{Color, Move, Point};
/// let m = Move::Go { color: Color::Black, point: Some(Point::new(15, 3)) };
/// assert_eq!(kifu_index::arrow::encode_go_move(m, 19, 19), Some(72));
/// ```
pub fn encode_go_move(m: Move, width: u8, height: u8) -> Option<u32> {
    let Move::Go { color, point } = m else { return None };
    let (w, h) = (u32::from(width), u32::from(height));
    let index = match point {
        None => w * h,
        Some(p) if p.x < width && p.y < height => u32::from(p.y) * w + u32::from(p.x),
        Some(_) => GO_OFF_BOARD,
    };
    Some(color_bit(color) << 12 | index)
}

/// The codes of the Go moves of a canonical main line (`(;B[pd];W[];+7776FU)`, as the index's
/// collector writes it: see `mainline`) on a `width` × `height` board, appended to `out`:
/// [`encode_go_move`]'s codes, read back from the line's letters (`a`–`z` 0–25, `A`–`Z`
/// 26–51; a point past 51 is written `__`, off every board). Nodes that are no Go move (a
/// shogi move in a mixed-up record) are left out. The builder makes a Go game's codes this way
/// when it ends, so that a move costs the reading nothing beyond the collector's own line.
///
/// `plain` says that every node is `;B[xy]` or `;W[xy]` with `x`, `y` letters `a`–`z`, or a pass
/// `;B[]`, `;W[]`, and `passes` how many passes there are (the collector knows: see
/// `Collector::main_line_plain`): the nodes are then read without a check, six bytes a node
/// without passes, and a node at a time with some.
pub(super) fn go_codes_of_line(line: &[u8], (plain, passes): (bool, u64), width: u8, height: u8, out: &mut Vec<u32>) {
    let (w, h) = (u32::from(width), u32::from(height));
    let nodes = line.strip_prefix(b"(").unwrap_or(line);
    let nodes = nodes.strip_suffix(b")").unwrap_or(nodes);
    if plain && passes == 0 && nodes.len() % 6 == 0 {
        let start = out.len();
        out.resize(start + nodes.len() / 6, 0);
        for (code, n) in out[start..].iter_mut().zip(nodes.chunks_exact(6)) {
            let (x, y) = (u32::from(n[3].wrapping_sub(b'a')), u32::from(n[4].wrapping_sub(b'a')));
            let index = if (x < w) & (y < h) { y * w + x } else { GO_OFF_BOARD };
            *code = u32::from(n[1] == b'W') << 12 | index;
        }
        return;
    }
    if plain {
        // A node at a time: `;B[]` (four bytes) or `;B[xy]` (six).
        out.reserve(nodes.len() / 4);
        let mut i = 0;
        while let Some(&[_, c, _, x, y, _]) = nodes.get(i..i + 6) {
            let white = u32::from(c == b'W') << 12;
            if x == b']' {
                out.push(white | (w * h));
                i += 4;
            } else {
                let (x, y) = (u32::from(x.wrapping_sub(b'a')), u32::from(y.wrapping_sub(b'a')));
                out.push(white | if (x < w) & (y < h) { y * w + x } else { GO_OFF_BOARD });
                i += 6;
            }
        }
        // The last node, if a pass (a node of six bytes was read above).
        if let Some(&[_, c, _, b']']) = nodes.get(i..) {
            out.push(u32::from(c == b'W') << 12 | (w * h));
        }
        return;
    }
    // Every node `;B[xy]` (a game without passes or shogi moves): six bytes each, each read
    // without a branch (the shape of all checked at the end).
    if nodes.len() % 6 == 0 {
        let start = out.len();
        out.resize(start + nodes.len() / 6, 0);
        let mut all = true;
        for (code, n) in out[start..].iter_mut().zip(nodes.chunks_exact(6)) {
            all &= (n[0] == b';') & (n[2] == b'[') & (n[5] == b']');
            *code = u32::from(n[1] == b'W') << 12 | go_index(n[3], n[4], w, h);
        }
        if all {
            return;
        }
        out.truncate(start);
    }
    let mut i = 0;
    while i < nodes.len() {
        i = slow_node(nodes, i, w, h, out);
    }
}

/// Reads the node at `line[i]` (any shape) as [`go_codes_of_line`] does; returns where the
/// next one starts (the line's length at its end).
fn slow_node(line: &[u8], i: usize, w: u32, h: u32, out: &mut Vec<u32>) -> usize {
    let node = line.get(i..).unwrap_or(b"");
    let len = match node {
        [b';', rest @ ..] => 1 + rest.iter().position(|&b| b == b';' || b == b')').unwrap_or(rest.len()),
        // `)` or anything else: the end.
        _ => return line.len(),
    };
    let color = |c: u8| u32::from(c == b'W') << 12;
    match node[..len] {
        [_, c @ (b'B' | b'W'), b'[', b']'] => out.push(color(c) | (w * h)),
        [_, c @ (b'B' | b'W'), b'[', x, y, b']'] => out.push(color(c) | go_index(x, y, w, h)),
        _ => {}
    }
    i + len
}

/// The point of letters `x`, `y` on a `w` × `h` board, or [`GO_OFF_BOARD`].
#[inline(always)]
fn go_index(x: u8, y: u8, w: u32, h: u32) -> u32 {
    let (x, y) = (LETTER[usize::from(x)], LETTER[usize::from(y)]);
    if (x < w) & (y < h) {
        y * w + x
    } else {
        GO_OFF_BOARD
    }
}

/// A coordinate letter of the canonical line: `a`–`z` 0–25, `A`–`Z` 26–51, anything else (`_`)
/// past every board.
static LETTER: [u32; 256] = {
    let mut t = [0xFFu32; 256];
    let mut i = 0;
    while i < 26 {
        t[b'a' as usize + i] = i as u32;
        t[b'A' as usize + i] = i as u32 + 26;
        i += 1;
    }
    t
};

/// The Go move of `code` on a `width` × `height` board; `None` for [`GO_OFF_BOARD`] or a code
/// that is not one of that board (an index past the pass, bits above 12).
///
/// ```
/// use kifu::{Color, Move, Point};
/// assert_eq!(kifu_index::arrow::decode_go_move(72, 19, 19), Some(Move::Go { color: Color::Black, point: Some(Point::new(15, 3)) }));
/// assert_eq!(kifu_index::arrow::decode_go_move(4096 + 361, 19, 19), Some(Move::Go { color: Color::White, point: None }));
/// ```
pub fn decode_go_move(code: u32, width: u8, height: u8) -> Option<Move> {
    if code >> 13 != 0 || width == 0 || height == 0 {
        return None;
    }
    let color = if code >> 12 == 1 { Color::White } else { Color::Black };
    let index = code & 0xFFF;
    let (w, h) = (u32::from(width), u32::from(height));
    let point = match index {
        i if i == w * h => None,
        i if i < w * h => Some(Point::new((i % w) as u8, (i / w) as u8)),
        _ => return None,
    };
    Some(Move::Go { color, point })
}

/// The code of a shogi move (see the module docs); `promotion` says whether it promoted.
///
/// ```
/// use kifu::{Color, Piece, ShogiMove, Square};
/// let m = ShogiMove { color: Color::Black, from: Some(Square::new(7, 7)), to: Square::new(7, 6), piece: Piece::Pawn };
/// assert_eq!(kifu_index::arrow::encode_shogi_move(&m, false), 7731);
/// ```
pub fn encode_shogi_move(m: &ShogiMove, promotion: bool) -> u32 {
    let from = m.from.map_or(SHOGI_DROP, square_index);
    square_index(m.to) | from << 7 | piece_index(m.piece) << 14 | u32::from(promotion) << 18 | color_bit(m.color) << 19
}

/// The shogi move of `code` and whether it promoted; `None` for a code no move has (a square
/// out of range, a piece past 13, bits above 19).
///
/// ```
/// use kifu::{Color, Piece, ShogiMove, Square};
/// let (m, promoted) = kifu_index::arrow::decode_shogi_move(40 | 81 << 7 | 5 << 14 | 1 << 19).unwrap();
/// assert_eq!(m, ShogiMove { color: Color::White, from: None, to: Square::new(5, 5), piece: Piece::Bishop });
/// assert!(!promoted);
/// ```
pub fn decode_shogi_move(code: u32) -> Option<(ShogiMove, bool)> {
    if code >> 20 != 0 {
        return None;
    }
    let to = square(code & 0x7F)?;
    let from = match (code >> 7) & 0x7F {
        SHOGI_DROP => None,
        i => Some(square(i)?),
    };
    let piece = *Piece::ALL.get(((code >> 14) & 0xF) as usize)?;
    let color = if (code >> 19) & 1 == 1 { Color::White } else { Color::Black };
    Some((ShogiMove { color, from, to, piece }, (code >> 18) & 1 == 1))
}

fn color_bit(c: Color) -> u32 {
    u32::from(c == Color::White)
}

fn square_index(s: Square) -> u32 {
    if (1..=9).contains(&s.file) && (1..=9).contains(&s.rank) {
        u32::from(s.rank - 1) * 9 + u32::from(s.file - 1)
    } else {
        SHOGI_BAD_SQUARE
    }
}

fn square(i: u32) -> Option<Square> {
    (i < 81).then(|| Square::new((i % 9) as u8 + 1, (i / 9) as u8 + 1))
}

fn piece_index(p: Piece) -> u32 {
    Piece::ALL.iter().position(|&q| q == p).unwrap_or(0) as u32
}

/// The board of a shogi game as far as the promotion bit needs it: which piece stands on each
/// square (owner not kept), from the setup and the moves so far.
#[derive(Clone, Debug)]
pub(super) struct ShogiBoard {
    squares: [Option<Piece>; 81],
}

impl Default for ShogiBoard {
    fn default() -> ShogiBoard {
        ShogiBoard { squares: [None; 81] }
    }
}

impl ShogiBoard {
    /// Empties the board for a new game.
    pub(super) fn clear(&mut self) {
        self.squares = [None; 81];
    }

    /// Applies a setup event.
    pub(super) fn setup(&mut self, s: &kifu::Setup) {
        match *s {
            kifu::Setup::Shogi { piece, square: Some(sq), .. } => self.put(sq, Some(piece)),
            kifu::Setup::ShogiRemove { square } => self.put(square, None),
            _ => {}
        }
    }

    /// Plays `m` and says whether it promoted.
    pub(super) fn play(&mut self, m: &ShogiMove) -> bool {
        let before = m.from.and_then(|f| self.get(f));
        if let Some(f) = m.from {
            self.put(f, None);
        }
        self.put(m.to, Some(m.piece));
        before.is_some_and(|b| b != m.piece && b.promoted() == Some(m.piece))
    }

    fn get(&self, sq: Square) -> Option<Piece> {
        self.squares.get(square_index(sq) as usize).copied().flatten()
    }

    fn put(&mut self, sq: Square, p: Option<Piece>) {
        if let Some(s) = self.squares.get_mut(square_index(sq) as usize) {
            *s = p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_round_trips_every_point_and_pass() {
        for (w, h) in [(19u8, 19u8), (9, 9), (13, 19), (52, 52), (1, 1)] {
            for color in [Color::Black, Color::White] {
                let mut points: Vec<Option<Point>> = vec![None];
                for y in 0..h {
                    for x in 0..w {
                        points.push(Some(Point::new(x, y)));
                    }
                }
                for point in points {
                    let m = Move::Go { color, point };
                    let code = encode_go_move(m, w, h).unwrap();
                    assert!(code < 1 << 13);
                    assert_eq!(decode_go_move(code, w, h), Some(m), "{w}x{h} {m:?}");
                }
            }
        }
    }

    #[test]
    fn codes_of_the_canonical_line_are_those_of_encode_go_move() {
        for (w, h) in [(19u8, 19u8), (9, 9), (13, 19), (52, 52), (1, 1), (4, 2)] {
            let mut moves: Vec<Move> = vec![];
            for color in [Color::Black, Color::White] {
                moves.push(Move::Go { color, point: None });
                for y in (0..60u8).chain([255]) {
                    for x in (0..60u8).chain([255]) {
                        moves.push(Move::Go { color, point: Some(Point::new(x, y)) });
                    }
                }
            }
            // A shogi move in a Go game's line: left out.
            let s = ShogiMove { color: Color::White, from: None, to: Square::new(5, 5), piece: Piece::Bishop };
            moves.insert(3, Move::Shogi(s));
            let mut line = b"(".to_vec();
            for m in &moves {
                crate::mainline::push_move(&mut line, m);
            }
            line.push(b')');
            let mut codes = vec![];
            go_codes_of_line(&line, (false, 0), w, h, &mut codes);
            let want: Vec<u32> = moves.iter().filter_map(|&m| encode_go_move(m, w, h)).collect();
            assert_eq!(codes, want, "{w}x{h}");
        }
        // Six-byte nodes only (the fast path), and the same with a pass at the end.
        for tail in [&b""[..], b";W[]"] {
            let mut line = b"(;B[pd];W[dp];B[ZZ];W[__]".to_vec();
            line.extend_from_slice(tail);
            line.push(b')');
            let mut codes = vec![];
            go_codes_of_line(&line, (false, 0), 52, 52, &mut codes);
            let mut want = vec![3 * 52 + 15, (1 << 12) | (15 * 52 + 3), 51 * 52 + 51, (1 << 12) | GO_OFF_BOARD];
            want.extend(tail.iter().take(1).map(|_| (1 << 12) | (52 * 52)));
            assert_eq!(codes, want);
        }
        let mut codes = vec![];
        // A plain line (lower-case letters only) read without checks: the same codes.
        for (w, h) in [(19u8, 19u8), (9, 9), (26, 26), (4, 2)] {
            let line = b"(;B[pd];W[dp];B[aa];W[zz];B[ba])";
            let (mut fast, mut slow) = (vec![], vec![]);
            go_codes_of_line(line, (true, 0), w, h, &mut fast);
            go_codes_of_line(line, (false, 0), w, h, &mut slow);
            assert_eq!(fast, slow, "{w}x{h}");
            // With passes anywhere (first, between, last, several in a row): read a node at a
            // time, the same codes as the checked reading.
            for line in [
                &b"(;B[];W[dp];B[aa];W[];B[];W[zz];B[ba];W[])"[..],
                b"(;B[])",
                b"(;B[];W[])",
                b"(;B[pd];W[];B[];W[])",
                b"(;B[pd];W[])",
            ] {
                let passes = line.windows(2).filter(|p| p == b"[]").count() as u64;
                let (mut fast, mut slow) = (vec![], vec![]);
                go_codes_of_line(line, (true, passes), w, h, &mut fast);
                go_codes_of_line(line, (false, 0), w, h, &mut slow);
                assert_eq!(fast, slow, "{w}x{h} {}", String::from_utf8_lossy(line));
                assert_eq!(fast.len(), line.iter().filter(|&&b| b == b';').count());
            }
        }
        go_codes_of_line(b"()", (true, 0), 19, 19, &mut codes);
        go_codes_of_line(b"()", (true, 1), 19, 19, &mut codes);
        go_codes_of_line(b"(", (false, 0), 19, 19, &mut codes);
        assert!(codes.is_empty());
    }

    #[test]
    fn go_codes_as_documented() {
        let b = |x, y| Move::Go { color: Color::Black, point: Some(Point::new(x, y)) };
        assert_eq!(encode_go_move(b(0, 0), 19, 19), Some(0));
        assert_eq!(encode_go_move(b(18, 18), 19, 19), Some(360));
        assert_eq!(encode_go_move(Move::Go { color: Color::Black, point: None }, 19, 19), Some(361));
        assert_eq!(encode_go_move(Move::Go { color: Color::White, point: None }, 9, 9), Some(4096 + 81));
        // x 3 on a board 4 wide and 2 high: y * width + x.
        assert_eq!(encode_go_move(b(3, 1), 4, 2), Some(7));
        // Off the board: its own code, which decodes to nothing.
        assert_eq!(encode_go_move(b(19, 0), 19, 19), Some(GO_OFF_BOARD));
        assert_eq!(decode_go_move(GO_OFF_BOARD, 19, 19), None);
        assert_eq!(decode_go_move(362, 19, 19), None);
        assert_eq!(decode_go_move(1 << 13, 19, 19), None);
        assert_eq!(decode_go_move(0, 0, 19), None);
        let shogi = ShogiMove { color: Color::Black, from: None, to: Square::new(5, 5), piece: Piece::Pawn };
        assert_eq!(encode_go_move(Move::Shogi(shogi), 19, 19), None);
    }

    #[test]
    fn shogi_round_trips_every_move_shape() {
        for color in [Color::Black, Color::White] {
            for &piece in &Piece::ALL {
                for to in 0..81u32 {
                    for from in [None, Some(0u32), Some(80), Some((to + 7) % 81)] {
                        for promotion in [false, true] {
                            let m = ShogiMove {
                                color,
                                from: from.map(|f| square(f).unwrap()),
                                to: square(to).unwrap(),
                                piece,
                            };
                            let code = encode_shogi_move(&m, promotion);
                            assert!(code < 1 << 20);
                            assert_eq!(decode_shogi_move(code), Some((m, promotion)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shogi_codes_as_documented() {
        let m = |c, from: Option<(u8, u8)>, to: (u8, u8), piece| ShogiMove {
            color: c,
            from: from.map(|(f, r)| Square::new(f, r)),
            to: Square::new(to.0, to.1),
            piece,
        };
        assert_eq!(encode_shogi_move(&m(Color::Black, Some((7, 7)), (7, 6), Piece::Pawn), false), 7731);
        assert_eq!(
            encode_shogi_move(&m(Color::White, None, (5, 5), Piece::Bishop), false),
            40 | 81 << 7 | 5 << 14 | 1 << 19
        );
        // 11 is 0, 99 is 80; the promoted horse is piece 12, with the promotion bit.
        assert_eq!(
            encode_shogi_move(&m(Color::Black, Some((8, 8)), (2, 2), Piece::Horse), true),
            10 | 70 << 7 | 12 << 14 | 1 << 18
        );
        assert_eq!(square_index(Square::new(1, 1)), 0);
        assert_eq!(square_index(Square::new(9, 9)), 80);
        // Out of range: a code that decodes to nothing.
        let bad = encode_shogi_move(&m(Color::Black, Some((0, 3)), (10, 1), Piece::Gold), false);
        assert_eq!(bad & 0x7F, SHOGI_BAD_SQUARE);
        assert_eq!(decode_shogi_move(bad), None);
        assert_eq!(decode_shogi_move(14 << 14), None);
        assert_eq!(decode_shogi_move(1 << 20), None);
    }

    #[test]
    fn board_tells_promotions() {
        let mut b = ShogiBoard::default();
        b.setup(&kifu::Setup::Shogi { color: Color::Black, piece: Piece::Bishop, square: Some(Square::new(8, 8)) });
        b.setup(&kifu::Setup::Shogi { color: Color::White, piece: Piece::Dragon, square: Some(Square::new(1, 1)) });
        let mv = |from: (u8, u8), to: (u8, u8), piece| ShogiMove {
            color: Color::Black,
            from: Some(Square::new(from.0, from.1)),
            to: Square::new(to.0, to.1),
            piece,
        };
        assert!(b.play(&mv((8, 8), (2, 2), Piece::Horse)));
        // A horse moving on, a dragon moving: no promotion.
        assert!(!b.play(&mv((2, 2), (3, 3), Piece::Horse)));
        assert!(!b.play(&mv((1, 1), (1, 2), Piece::Dragon)));
        // Nothing known on the square: no promotion.
        assert!(!b.play(&mv((5, 5), (5, 4), Piece::ProPawn)));
        b.setup(&kifu::Setup::ShogiRemove { square: Square::new(3, 3) });
        assert!(!b.play(&mv((3, 3), (3, 4), Piece::Horse)));
        b.clear();
        assert!(!b.play(&mv((1, 2), (1, 3), Piece::Dragon)));
    }
}
