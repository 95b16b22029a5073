//! The eight symmetries of a Go board, and a Zobrist hash of the stones that is the same for a
//! position and its rotations and reflections.
//!
//! A symmetry `s` (0–7) maps a point `(x, y)` of a `w` × `h` board: bit 0 flips the columns
//! (`x → w-1-x`), bit 1 the rows (`y → h-1-y`), then bit 2 swaps columns and rows (the board
//! becomes `h` × `w`). Symmetry 0 is the identity; 3 is the half turn; 5 and 6 are the quarter
//! turns; 4 and 7 the two diagonal reflections.
//!
//! [`GoHash`] keeps, as stones are put and taken, the eight Zobrist hashes of the board seen
//! through each symmetry: `h[s]` = the key of the transformed board's size XOR one key per stone
//! (by its transformed point and its colour). The position's hash is the smallest of the eight
//! and its symmetry the first that gives it ([`GoHash::key`]): equal for every orientation of the
//! same stones. A non-square board's transposed orientations are `h` × `w` boards, so a 13×19
//! game and its transposed 19×13 copy meet too. The side to move, the ko and captures are not in
//! the hash (as the library's own board hash): a position is a set of stones on a board size.
//!
//! Costs: eight XORs per stone put or taken, with the eight keys of the point and colour side by
//! side in a per-size table (w × h × 2 × 8 keys, one 64-byte line a point and colour, made again
//! only when the board size changes): one load each, which the compiler makes four 16-byte
//! XORs. (A table of the transformed points, looked up in the 52 × 52 key table, cost twice the
//! instructions and eight scattered loads.)

use kifu::Color;

/// Points on a side of the largest board.
pub const MAX: usize = 52;

const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One key per point of a 52 × 52 board (`x + 52 y`) and colour (Black, White).
static KEYS: [[u64; 2]; MAX * MAX] = {
    let mut k = [[0; 2]; MAX * MAX];
    let mut i = 0;
    while i < MAX * MAX {
        k[i] = [
            splitmix64(0x6b69_6675_706f_7300 ^ (2 * i as u64)),
            splitmix64(0x6b69_6675_706f_7300 ^ (2 * i as u64 + 1)),
        ];
        i += 1;
    }
    k
};

/// The key of an empty board of `w` × `h`.
fn size_key(w: u8, h: u8) -> u64 {
    splitmix64(0x706f_7369_7469_6f6e ^ ((w as u64) << 8 | h as u64))
}

/// The size of a `w` × `h` board seen through symmetry `s`.
#[inline]
pub fn dims(s: u8, w: u8, h: u8) -> (u8, u8) {
    if s & 4 != 0 {
        (h, w)
    } else {
        (w, h)
    }
}

/// Where symmetry `s` takes the point `(x, y)` of a `w` × `h` board.
///
/// Without branches: a position's symmetry is as good as random, and the three tests on it
/// mispredicted about once a move, 2.4 M times on sgf/collections (cachegrind
/// `--branch-sim=yes`, `kifu index --threads 1`), when each move's next-move code is taken
/// through it. Each bit of `s` becomes a mask that picks one of the two values.
#[inline]
pub fn apply(s: u8, (w, h): (u8, u8), (x, y): (u8, u8)) -> (u8, u8) {
    let mask = |bit: u8| 0u8.wrapping_sub((s & bit != 0) as u8);
    let pick = |m: u8, no: u8, yes: u8| no ^ ((no ^ yes) & m);
    let x1 = pick(mask(1), x, w.wrapping_sub(1).wrapping_sub(x));
    let y1 = pick(mask(2), y, h.wrapping_sub(1).wrapping_sub(y));
    let swap = mask(4);
    (pick(swap, x1, y1), pick(swap, y1, x1))
}

/// The point of the `w` × `h` board that symmetry `s` takes to `(x, y)` (the inverse of
/// [`apply`]; `(w, h)` is the board before the symmetry).
#[inline]
pub fn invert(s: u8, (w, h): (u8, u8), (x, y): (u8, u8)) -> (u8, u8) {
    let (x1, y1) = if s & 4 != 0 { (y, x) } else { (x, y) };
    (if s & 1 != 0 { w - 1 - x1 } else { x1 }, if s & 2 != 0 { h - 1 - y1 } else { y1 })
}

/// The eight hashes of a board as stones come and go; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct GoHash {
    w: u8,
    h: u8,
    /// For each point `x + w y` and colour (Black, White): the key of the point through each
    /// symmetry (`KEYS` of the transformed point).
    keys: Vec<[[u64; 8]; 2]>,
    /// The size the keys were laid out for.
    map_size: (u8, u8),
    hashes: [u64; 8],
    /// 0 empty, 1 Black, 2 White, per point `x + w y`.
    stones: Vec<u8>,
}

impl Default for GoHash {
    fn default() -> GoHash {
        let mut g = GoHash { w: 0, h: 0, keys: Vec::new(), map_size: (0, 0), hashes: [0; 8], stones: Vec::new() };
        g.reset(19, 19);
        g
    }
}

fn code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

impl GoHash {
    /// An empty board of `w` × `h` (each 1–52).
    pub fn reset(&mut self, w: u8, h: u8) {
        (self.w, self.h) = (w, h);
        if self.map_size != (w, h) {
            self.keys.clear();
            for y in 0..h {
                for x in 0..w {
                    let mut k = [[0u64; 8]; 2];
                    for (c, keys) in k.iter_mut().enumerate() {
                        for (s, key) in keys.iter_mut().enumerate() {
                            let (tx, ty) = apply(s as u8, (w, h), (x, y));
                            *key = KEYS[tx as usize + MAX * ty as usize][c];
                        }
                    }
                    self.keys.push(k);
                }
            }
            self.map_size = (w, h);
        }
        for (s, hash) in self.hashes.iter_mut().enumerate() {
            let (tw, th) = dims(s as u8, w, h);
            *hash = size_key(tw, th);
        }
        self.stones.clear();
        self.stones.resize(w as usize * h as usize, 0);
    }

    /// The board's size.
    pub fn size(&self) -> (u8, u8) {
        (self.w, self.h)
    }

    #[inline]
    fn toggle(&mut self, i: usize, c: u8) {
        let k = &self.keys[i][(c as usize - 1) & 1];
        for (h, k) in self.hashes.iter_mut().zip(k) {
            *h ^= k;
        }
    }

    fn index(&self, x: u8, y: u8) -> Option<usize> {
        (x < self.w && y < self.h).then(|| x as usize + self.w as usize * y as usize)
    }

    /// Puts a stone of `color` at `(x, y)`, or empties it, with no captures (off the board:
    /// nothing).
    pub fn set(&mut self, x: u8, y: u8, color: Option<Color>) {
        let Some(i) = self.index(x, y) else { return };
        let old = self.stones[i];
        if old != 0 {
            self.toggle(i, old);
        }
        let new = color.map_or(0, code);
        if new != 0 {
            self.toggle(i, new);
        }
        self.stones[i] = new;
    }

    /// Follows a legal move of `color` at `(x, y)` that `board` (the library's board, after the
    /// move) has played: puts the stone, then takes off the stones the board says the move took
    /// ([`Board::removed`](kifu::position::go::Board::removed): captured groups, and the
    /// mover's own after an allowed suicide). Most moves take nothing, and then only the move's
    /// point changes: no neighbour is looked at and no group is filled here.
    pub fn after_move(&mut self, board: &kifu::position::go::Board, color: Color, x: u8, y: u8) {
        let Some(i) = self.index(x, y) else { return };
        let me = code(color);
        if self.stones[i] != 0 {
            let old = self.stones[i];
            self.toggle(i, old);
        }
        self.stones[i] = me;
        self.toggle(i, me);
        for p in board.removed() {
            let Some(j) = self.index(p.x, p.y) else { continue };
            let c = self.stones[j];
            if c != 0 {
                self.toggle(j, c);
                self.stones[j] = 0;
            }
        }
    }

    /// Copies the stones of the library's board (after setup, or a change of size).
    pub fn load(&mut self, board: &kifu::position::go::Board) {
        let (w, h) = board.size();
        self.reset(w, h);
        for y in 0..h {
            for x in 0..w {
                if let Some(c) = board.get(kifu::Point::new(x, y)) {
                    self.set(x, y, Some(c));
                }
            }
        }
    }

    /// The eight hashes, by symmetry.
    pub fn hashes(&self) -> [u64; 8] {
        self.hashes
    }

    /// The same board with Black and White exchanged (what `--swap-colors` also looks for): each
    /// stone's key of one colour taken out and the other's put in.
    pub fn swapped(&self) -> GoHash {
        let mut g = self.clone();
        for i in 0..g.stones.len() {
            let c = g.stones[i];
            if c != 0 {
                g.toggle(i, c);
                g.toggle(i, 3 - c);
                g.stones[i] = 3 - c;
            }
        }
        g
    }

    /// The position's hash (the smallest of the eight) and the first symmetry that gives it.
    ///
    /// Without branches: which of eight random hashes is the smallest cannot be predicted, and
    /// a compare-and-branch per symmetry mispredicted about twice a position, the index's most
    /// mispredicted branch (cachegrind `--branch-sim=yes`, `kifu index --threads 1` on
    /// sgf/collections: 2.49 M of its 16.2 M mispredicts).
    #[inline]
    pub fn key(&self) -> (u64, u8) {
        let (mut best, mut sym) = (self.hashes[0], 0u64);
        for (s, &h) in self.hashes.iter().enumerate().skip(1) {
            // All ones when `h` is smaller: a mask, so that both picks are arithmetic.
            let take = ((h < best) as u64).wrapping_neg();
            best = (h & take) | (best & !take);
            sym = (s as u64 & take) | (sym & !take);
        }
        (best, sym as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invert_undoes_apply() {
        for (w, h) in [(19, 19), (13, 9), (1, 5)] {
            for s in 0..8 {
                for y in 0..h {
                    for x in 0..w {
                        let t = apply(s, (w, h), (x, y));
                        let (tw, th) = dims(s, w, h);
                        assert!(t.0 < tw && t.1 < th);
                        assert_eq!(invert(s, (w, h), t), (x, y));
                    }
                }
            }
        }
    }

    #[test]
    fn every_orientation_has_one_hash() {
        let stones = [(3u8, 2u8, Color::Black), (15, 3, Color::White), (2, 16, Color::Black), (9, 9, Color::White)];
        let mut keys = Vec::new();
        for (w, h) in [(19u8, 19u8), (19, 13)] {
            for s in 0..8 {
                let mut g = GoHash::default();
                let (tw, th) = dims(s, w, h);
                g.reset(tw, th);
                for &(x, y, c) in &stones {
                    let (x, y) = (x.min(w - 1), y.min(h - 1));
                    let (tx, ty) = apply(s, (w, h), (x, y));
                    g.set(tx, ty, Some(c));
                }
                keys.push(((w, h), g.key().0));
            }
        }
        assert!(keys[..8].iter().all(|k| k.1 == keys[0].1));
        assert!(keys[8..].iter().all(|k| k.1 == keys[8].1));
        assert_ne!(keys[0].1, keys[8].1);
        // Another colour is another position.
        let mut a = GoHash::default();
        a.set(3, 3, Some(Color::Black));
        let mut b = GoHash::default();
        b.set(3, 3, Some(Color::White));
        assert_ne!(a.key().0, b.key().0);
    }

    /// The swapped board hashes as the same stones with the colours exchanged, set afresh; twice
    /// swapped is the board itself.
    #[test]
    fn swapped_exchanges_the_colours() {
        let stones = [(3u8, 2u8, Color::Black), (15, 3, Color::White), (2, 16, Color::Black)];
        let mut a = GoHash::default();
        let mut b = GoHash::default();
        for &(x, y, c) in &stones {
            a.set(x, y, Some(c));
            b.set(x, y, Some(c.opponent()));
        }
        assert_eq!(a.swapped().hashes(), b.hashes());
        assert_eq!(a.swapped().swapped().hashes(), a.hashes());
        assert_ne!(a.swapped().key().0, a.key().0);
        let empty = GoHash::default();
        assert_eq!(empty.swapped().hashes(), empty.hashes());
    }
}
