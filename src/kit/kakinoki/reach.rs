//! A small shogi board for KI2, whose moves name no origin: which own pieces of a kind can
//! move to a square (sliders blocked by the first piece on their line), the relative-direction
//! words (`右 左 直 上 寄 引`) that pick among them, whether a move leaves the own king in check,
//! and the moves themselves applied (captures go to the mover's hand).
//!
//! The board is a padded mailbox: 13 rows of 11 cells, the nine files of a rank between two
//! wall cells and two wall rows above and below the nine ranks, so a step or a knight's jump
//! from any square lands on a cell of the array and a slide stops at a wall without a bounds
//! test of its own. Cells are bytes (`0` empty, else the piece's index + 1, plus 16 for White,
//! [`WALL`] off the board); each piece kind's steps and slides are precomputed cell offsets. A
//! lookup walks back from the destination along each way the piece moves, so a move costs a
//! few dozen byte reads. Nothing here allocates.

use crate::event::{Color, Piece, ShogiMove, Square};

/// One way a piece moves, as (file delta, rank delta) seen by Black (forward is rank - 1).
type Step = (i8, i8);

const GOLD: &[Step] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const SILVER: &[Step] = &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const KING: &[Step] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1)];
const ORTH: &[Step] = &[(0, -1), (0, 1), (1, 0), (-1, 0)];
const DIAG: &[Step] = &[(1, -1), (-1, -1), (1, 1), (-1, 1)];

/// The single steps and the slides of `piece` (as Black).
const fn ways(piece: Piece) -> (&'static [Step], &'static [Step]) {
    match piece {
        Piece::Pawn => (&[(0, -1)], &[]),
        Piece::Lance => (&[], &[(0, -1)]),
        Piece::Knight => (&[(1, -2), (-1, -2)], &[]),
        Piece::Silver => (SILVER, &[]),
        Piece::Gold | Piece::ProPawn | Piece::ProLance | Piece::ProKnight | Piece::ProSilver => (GOLD, &[]),
        Piece::King => (KING, &[]),
        Piece::Bishop => (&[], DIAG),
        Piece::Rook => (&[], ORTH),
        Piece::Horse => (ORTH, DIAG),
        Piece::Dragon => (DIAG, ORTH),
    }
}

/// Cells in a row of the mailbox: a wall, files 1 to 9, a wall.
const ROW: usize = 11;
/// Cells of the mailbox: two wall rows, ranks 1 to 9, two wall rows.
const CELLS: usize = ROW * 13;
/// A cell off the board.
const WALL: u8 = 0xFF;

/// The ways of one piece kind as cell offsets (as Black: the cell a piece stands on is the
/// destination's cell minus the offset), steps first, then slides: `n_steps` steps and
/// `n_slides` slides in `d`.
#[derive(Clone, Copy)]
struct Ways {
    d: [i8; 8],
    n_steps: u8,
    n_slides: u8,
}

/// [`Ways`] by [`Piece`] index.
const WAYS: [Ways; 14] = {
    let mut out = [Ways { d: [0; 8], n_steps: 0, n_slides: 0 }; 14];
    let mut p = 0;
    while p < 14 {
        let (steps, slides) = ways(Piece::ALL[p]);
        let mut k = 0;
        while k < steps.len() {
            out[p].d[k] = steps[k].0 + steps[k].1 * ROW as i8;
            k += 1;
        }
        let mut j = 0;
        while j < slides.len() {
            out[p].d[k + j] = slides[j].0 + slides[j].1 * ROW as i8;
            j += 1;
        }
        out[p].n_steps = steps.len() as u8;
        out[p].n_slides = slides.len() as u8;
        p += 1;
    }
    out
};

/// The most pieces of one kind that can reach one square (a king's eight neighbours).
pub(crate) const MAX_CANDIDATES: usize = 8;

/// Which of several pieces moved, as KI2 writes it after the piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Words {
    /// `右` (`Some(true)`) or `左` (`Some(false)`), from the mover's side of the board.
    pub right: Option<bool>,
    /// `直`: straight forward.
    pub straight: bool,
    /// `上` (`Some(Motion::Up)`), `引`, `寄`.
    pub motion: Option<Motion>,
}

/// The vertical part of a move, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Motion {
    /// `上` (also `行`, `入`): forward.
    Up,
    /// `引`: backward.
    Back,
    /// `寄`: sideways.
    Side,
}

/// A shogi position: the pieces on the board and in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The mailbox (see the module docs).
    cells: [u8; CELLS],
    /// Counts in hand by [`Piece`] index (unpromoted kinds), Black then White.
    hands: [[u8; 8]; 2],
}

/// What a move changed on a [`Board`], to take it back: two cells (their place and what they
/// held; cell 0, a wall, for none) and two hand counts (their place, colour × 8 + kind, and
/// the count; `u8::MAX` for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undo {
    from: (u8, u8),
    to: (u8, u8),
    hands: [(u8, u8); 2],
}

impl Undo {
    /// Undoes nothing.
    pub(crate) const NONE: Undo = Undo { from: (0, WALL), to: (0, WALL), hands: [(u8::MAX, 0); 2] };
}

/// The hand a captured piece goes to, by [`Piece`] index (its unpromoted kind; none, `u8::MAX`,
/// for a king).
const HAND_KIND: [u8; 16] = {
    let mut out = [u8::MAX; 16];
    let mut p = 0;
    while p < 14 {
        out[p] = match Piece::ALL[p] {
            Piece::King => u8::MAX,
            Piece::ProPawn => Piece::Pawn as u8,
            Piece::ProLance => Piece::Lance as u8,
            Piece::ProKnight => Piece::Knight as u8,
            Piece::ProSilver => Piece::Silver as u8,
            Piece::Horse => Piece::Bishop as u8,
            Piece::Dragon => Piece::Rook as u8,
            k => k as u8,
        };
        p += 1;
    }
    out
};

/// The empty mailbox: walls around 81 empty cells.
const EMPTY: [u8; CELLS] = {
    let mut cells = [WALL; CELLS];
    let mut rank = 1;
    while rank <= 9 {
        let mut file = 1;
        while file <= 9 {
            cells[(rank + 1) * ROW + file] = 0;
            file += 1;
        }
        rank += 1;
    }
    cells
};

impl Default for Board {
    fn default() -> Board {
        Board { cells: EMPTY, hands: [[0; 8]; 2] }
    }
}

/// The mailbox cell of a square on the board.
#[inline]
fn index(sq: Square) -> Option<usize> {
    ((1..=9).contains(&sq.file) && (1..=9).contains(&sq.rank)).then(|| (sq.rank as usize + 1) * ROW + sq.file as usize)
}

/// The square of a mailbox cell on the board.
#[inline]
fn square(i: usize) -> Square {
    Square::new((i % ROW) as u8, (i / ROW).saturating_sub(1) as u8)
}

#[inline]
fn cell(color: Color, piece: Piece) -> u8 {
    piece as u8 + 1 + if color == Color::White { 16 } else { 0 }
}

impl Board {
    /// The piece on `sq`.
    #[inline]
    pub(crate) fn get(&self, sq: Square) -> Option<(Color, Piece)> {
        let c = self.cells[index(sq)?];
        if c == 0 || c == WALL {
            return None;
        }
        let color = if c > 16 { Color::White } else { Color::Black };
        Some((color, Piece::ALL[(c - 1) as usize & 15]))
    }

    /// Puts a piece on `sq` (`None`: in `color`'s hand, unpromoted).
    pub(crate) fn put(&mut self, color: Color, piece: Piece, sq: Option<Square>) {
        match sq.and_then(index) {
            Some(i) => self.cells[i] = cell(color, piece),
            None if sq.is_none() && piece != Piece::King => {
                let n = &mut self.hands[color as usize][piece.unpromoted() as usize];
                *n = n.saturating_add(1);
            }
            None => {}
        }
    }

    /// How many of `piece` `color` holds in hand.
    pub(crate) fn in_hand(&self, color: Color, piece: Piece) -> u8 {
        if piece.is_promoted() || piece == Piece::King {
            return 0;
        }
        self.hands[color as usize][piece as usize]
    }

    /// Plays a move (not checked): the origin is emptied (or a piece leaves the hand), a captured
    /// piece goes to the mover's hand, unpromoted.
    #[inline]
    pub(crate) fn play(&mut self, m: ShogiMove) {
        let Some(to) = index(m.to) else { return };
        match m.from.and_then(index) {
            Some(from) => self.cells[from] = 0,
            None => {
                let n = &mut self.hands[m.color as usize][m.piece.unpromoted() as usize & 7];
                *n = n.saturating_sub(1);
            }
        }
        let taken = self.cells[to];
        if taken != 0 {
            let taken = Piece::ALL[(taken - 1) as usize & 15];
            if taken != Piece::King {
                let n = &mut self.hands[m.color as usize][taken.unpromoted() as usize];
                *n = n.saturating_add(1);
            }
        }
        self.cells[to] = cell(m.color, m.piece);
    }

    /// [`Board::play`], returning what undoes it.
    #[inline]
    pub(crate) fn play_undo(&mut self, m: ShogiMove) -> Undo {
        let mut u = Undo::NONE;
        let Some(to) = index(m.to) else { return u };
        let c = m.color as usize & 1;
        match m.from.and_then(index) {
            Some(from) => {
                u.from = (from as u8, self.cells[from]);
                self.cells[from] = 0;
            }
            None => {
                let k = m.piece.unpromoted() as usize & 7;
                let n = &mut self.hands[c][k];
                u.hands[0] = ((c * 8 + k) as u8, *n);
                *n = n.saturating_sub(1);
            }
        }
        let taken = self.cells[to];
        u.to = (to as u8, taken);
        if taken != 0 {
            let k = HAND_KIND[(taken - 1) as usize & 15];
            if let Some(n) = self.hands[c].get_mut(k as usize) {
                u.hands[1] = ((c * 8 + k as usize) as u8, *n);
                *n = n.saturating_add(1);
            }
        }
        self.cells[to] = cell(m.color, m.piece);
        u
    }

    /// Takes back the move [`Board::play_undo`] played (the board must be as it left it).
    #[inline]
    pub(crate) fn undo(&mut self, u: &Undo) {
        // In the reverse order of the changes.
        for &(k, n) in u.hands.iter().rev() {
            if let Some(h) = self.hands.get_mut(k as usize / 8) {
                h[k as usize % 8] = n;
            }
        }
        for (i, c) in [u.to, u.from] {
            if let Some(cell) = self.cells.get_mut(i as usize) {
                *cell = c;
            }
        }
    }

    /// The squares of `color`'s pieces of kind `piece` that can move to `to` (written into `out`;
    /// their number is returned), in a fixed order: the piece's steps, then its slides (sliders
    /// blocked by the first piece on their line).
    #[inline]
    pub(crate) fn reach(&self, color: Color, piece: Piece, to: Square, out: &mut [Square; MAX_CANDIDATES]) -> usize {
        let Some(t) = index(to) else { return 0 };
        let own = cell(color, piece);
        let w = &WAYS[piece as usize];
        // White's ways are Black's turned round.
        let sign: isize = if color == Color::White { -1 } else { 1 };
        let (steps, slides) = w.d.split_at(usize::from(w.n_steps).min(8));
        let slides = &slides[..usize::from(w.n_slides).min(slides.len())];
        let mut n = 0;
        for &d in steps {
            // The piece stands one step back from `to` (a step from a square on the board lands
            // inside the mailbox).
            let from = t.wrapping_sub((d as isize * sign) as usize);
            if self.cells.get(from) == Some(&own) && n < MAX_CANDIDATES {
                out[n] = square(from);
                n += 1;
            }
        }
        for &d in slides {
            let d = (d as isize * sign) as usize;
            let mut from = t;
            // Every line ends at a wall: each turn moves one cell back along it.
            loop {
                from = from.wrapping_sub(d);
                let c = self.cells.get(from).copied().unwrap_or(WALL);
                if c != 0 {
                    if c == own && n < MAX_CANDIDATES {
                        out[n] = square(from);
                        n += 1;
                    }
                    break;
                }
            }
        }
        n
    }

    /// Whether `color`'s king stands attacked by the other side.
    pub(crate) fn in_check(&self, color: Color) -> bool {
        let king = cell(color, Piece::King);
        let Some(i) = self.cells.iter().position(|&c| c == king) else { return false };
        let sq = square(i);
        let mut out = [Square::new(0, 0); MAX_CANDIDATES];
        Piece::ALL.iter().any(|&p| self.reach(color.opponent(), p, sq, &mut out) > 0)
    }
}

/// Keeps in `c[..n]` the squares that fit `words` for a move by `color` to `to`; returns how many
/// are left.
pub(crate) fn filter(c: &mut [Square; MAX_CANDIDATES], n: usize, color: Color, to: Square, words: Words) -> usize {
    // Forward for the mover: rank going down for Black, up for White.
    let fwd = |from: Square| -> i8 {
        let d = from.rank as i8 - to.rank as i8;
        if color == Color::White {
            -d
        } else {
            d
        }
    };
    let mut n = n;
    if let Some(m) = words.motion {
        n = retain(c, n, |s| match m {
            Motion::Up => fwd(s) > 0,
            Motion::Back => fwd(s) < 0,
            Motion::Side => fwd(s) == 0,
        });
    }
    if words.straight {
        n = retain(c, n, |s| s.file == to.file && fwd(s) > 0);
    }
    if let Some(right) = words.right {
        // Right from the mover's side: lower files for Black, higher for White.
        let key = |s: Square| if color == Color::White { -(s.file as i8) } else { s.file as i8 };
        let best = c[..n].iter().map(|&s| if right { key(s) } else { -key(s) }).min();
        if let Some(best) = best {
            n = retain(c, n, |s| (if right { key(s) } else { -key(s) }) == best);
        }
    }
    n
}

/// Keeps the squares of `c[..n]` that `keep` accepts, in order; returns how many.
fn retain(c: &mut [Square; MAX_CANDIDATES], n: usize, keep: impl Fn(Square) -> bool) -> usize {
    let mut k = 0;
    for i in 0..n {
        if keep(c[i]) {
            c[k] = c[i];
            k += 1;
        }
    }
    k
}

/// The words that tell a move from `from` to `to` by `color`'s `piece` apart from the other
/// candidates `others` (which hold `from` too), as tsshogi writes them: `直` for a straight
/// step forward when another can come, `上`/`引`/`寄` when that alone tells it apart, else
/// `右`/`左` (with the motion when the side alone does not). `long`: the piece is a 龍 or 馬,
/// for which `直` is not written.
pub(crate) fn words_for(color: Color, from: Square, to: Square, others: &[Square], long: bool) -> Words {
    let mut none = Words::default();
    if others.len() <= 1 {
        return none;
    }
    let mut buf = [Square::new(0, 0); MAX_CANDIDATES];
    let count = |w: Words, buf: &mut [Square; MAX_CANDIDATES]| {
        buf[..others.len()].copy_from_slice(others);
        let n = filter(buf, others.len(), color, to, w);
        (n, buf[..n].contains(&from))
    };
    let motion = {
        let d = from.rank as i8 - to.rank as i8;
        let d = if color == Color::White { -d } else { d };
        match d {
            0 => Motion::Side,
            d if d > 0 => Motion::Up,
            _ => Motion::Back,
        }
    };
    let fwd_straight = from.file == to.file && motion == Motion::Up;
    // 直 where it names the piece alone (not for the long-range 龍 and 馬: they use 右/左).
    let straight = Words { straight: true, ..none };
    if fwd_straight && !long && count(straight, &mut buf) == (1, true) {
        return straight;
    }
    let m = Words { motion: Some(motion), ..none };
    if count(m, &mut buf) == (1, true) {
        return m;
    }
    for right in [true, false] {
        let w = Words { right: Some(right), ..none };
        if count(w, &mut buf) == (1, true) {
            return w;
        }
        let wm = Words { right: Some(right), motion: Some(motion), ..none };
        if count(wm, &mut buf) == (1, true) {
            return wm;
        }
    }
    none.motion = Some(motion);
    none
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r)
    }

    #[test]
    fn reach_blocks_sliders_and_mirrors_white() {
        let mut b = Board::default();
        b.put(Color::Black, Piece::Rook, Some(sq(2, 8)));
        b.put(Color::Black, Piece::Pawn, Some(sq(2, 7)));
        let mut out = [sq(0, 0); MAX_CANDIDATES];
        assert_eq!(b.reach(Color::Black, Piece::Rook, sq(2, 6), &mut out), 0);
        assert_eq!(b.reach(Color::Black, Piece::Rook, sq(5, 8), &mut out), 1);
        assert_eq!(b.reach(Color::Black, Piece::Pawn, sq(2, 6), &mut out), 1);
        b.put(Color::White, Piece::Knight, Some(sq(8, 1)));
        assert_eq!(b.reach(Color::White, Piece::Knight, sq(7, 3), &mut out), 1);
        assert_eq!(b.reach(Color::White, Piece::Knight, sq(7, 2), &mut out), 0);
        // Golds at 6九 and 4九 to 5八: 右 is 4九 for Black.
        b.put(Color::Black, Piece::Gold, Some(sq(6, 9)));
        b.put(Color::Black, Piece::Gold, Some(sq(4, 9)));
        let n = b.reach(Color::Black, Piece::Gold, sq(5, 8), &mut out);
        assert_eq!(n, 2);
        let w = Words { right: Some(true), ..Words::default() };
        let k = filter(&mut out, n, Color::Black, sq(5, 8), w);
        assert_eq!(&out[..k], &[sq(4, 9)]);
        assert_eq!(words_for(Color::Black, sq(4, 9), sq(5, 8), &[sq(6, 9), sq(4, 9)], false), w);
    }

    #[test]
    fn undo_takes_a_move_back() {
        let mut b = Board::default();
        b.put(Color::Black, Piece::Rook, Some(sq(5, 9)));
        b.put(Color::White, Piece::ProPawn, Some(sq(5, 5)));
        b.put(Color::Black, Piece::Pawn, None);
        let before = b;
        for m in [
            ShogiMove { color: Color::Black, from: Some(sq(5, 9)), to: sq(5, 5), piece: Piece::Dragon },
            ShogiMove { color: Color::Black, from: None, to: sq(4, 4), piece: Piece::Pawn },
            // A drop on a piece (bad input) changes two hand counts, of the same kind here.
            ShogiMove { color: Color::Black, from: None, to: sq(5, 5), piece: Piece::Pawn },
            ShogiMove { color: Color::Black, from: Some(sq(0, 5)), to: sq(5, 10), piece: Piece::Pawn },
        ] {
            let mut a = before;
            let u = a.play_undo(m);
            let mut c = before;
            c.play(m);
            assert_eq!(a, c);
            a.undo(&u);
            assert_eq!(a, before, "{m:?}");
        }
        let mut a = before;
        a.undo(&Undo::NONE);
        assert_eq!(a, before);
    }

    #[test]
    fn play_captures_into_hand_and_check() {
        let mut b = Board::default();
        b.put(Color::White, Piece::King, Some(sq(5, 1)));
        b.put(Color::Black, Piece::Rook, Some(sq(5, 9)));
        b.put(Color::White, Piece::ProPawn, Some(sq(5, 5)));
        assert!(!b.in_check(Color::White));
        b.play(ShogiMove { color: Color::Black, from: Some(sq(5, 9)), to: sq(5, 5), piece: Piece::Rook });
        assert_eq!(b.in_hand(Color::Black, Piece::Pawn), 1);
        assert!(b.in_check(Color::White));
    }
}
