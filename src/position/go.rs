//! A Go board that replays moves and setup, and a replay of a game's main line.
//!
//! [`Board`] keeps the stones of a board up to 52×52 (square or not) with a one-point border, so
//! neighbours need no bounds checks, one byte per point: the stone and how many of the point's
//! neighbours are empty. [`Board::play`] places a stone, removes the opponent's groups
//! left without liberties, then handles suicide as the [`Rules`] say (rejected by default; when
//! allowed, the player's own group is removed), and enforces simple ko (the immediate recapture
//! of a single stone that just captured a single stone). An illegal move leaves the board as it
//! was and says why ([`IllegalKind`]). Setup ([`Board::set`]) puts or removes stones without
//! captures (SGF `AB`/`AW`/`AE`, also over existing stones).
//!
//! Each position has a Zobrist hash ([`Board::hash`]): the XOR of one 64-bit key per stone (by
//! point and colour, from a fixed SplitMix64 sequence) and a key for the board size; it does not
//! include the side to move or the ko point. Equal positions on equal boards hash equally
//! whatever the order of play.
//!
//! Costs: a move that captures nothing and leaves its stone an empty neighbour (most moves) is a
//! few compares: it only looks at the new stone's four neighbours and their counts of empty
//! neighbours. Otherwise it is O(size of the groups next to it), with a flood fill over reused
//! scratch arrays that stops at the first stone with an empty neighbour. A board is four
//! fixed-size heap arrays (32 KiB, for any size); nothing allocates after [`Board::new`], and
//! [`Board::reset`] (or [`Replayer::finish_game`]) starts a new game on the same allocations:
//! a copy of the empty board kept for the last size (one `memcpy`), or for a new size the rows
//! of the new board written once. A [`Replayer`] dropped leaves its board to the next one made
//! on the same thread, so [`replay`] game after game allocates a board once per thread. No
//! recursion.
//!
//! ```
//! use kifu::position::go::{Board, IllegalKind};
//! use kifu::{Color, Point};
//!
//! let mut b = Board::new(9, 9).unwrap();
//! // Black surrounds the corner point aa; White's stone there is captured.
//! b.play(Color::White, Some(Point::new(0, 0))).unwrap();
//! b.play(Color::Black, Some(Point::new(1, 0))).unwrap();
//! let played = b.play(Color::Black, Some(Point::new(0, 1))).unwrap();
//! assert_eq!(played.captured, 1);
//! assert_eq!(b.get(Point::new(0, 0)), None);
//! assert_eq!(b.play(Color::Black, Some(Point::new(1, 0))), Err(IllegalKind::Occupied));
//! ```

use crate::error::Error;
use crate::event::{Color, Event, InfoKey, Move, Point, Setup};
use crate::input::EventSource;
use crate::tree::MainLine;
use std::cell::Cell;

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalKind {
    /// The point already holds a stone.
    Occupied,
    /// The stone would have no liberties and capture nothing, and the rules forbid suicide.
    Suicide,
    /// The move retakes a ko immediately.
    Ko,
    /// The point is outside the board.
    OffBoard,
}

impl IllegalKind {
    /// A stable snake_case name (`occupied`, `suicide`, `ko`, `off_board`).
    pub fn as_str(self) -> &'static str {
        match self {
            IllegalKind::Occupied => "occupied",
            IllegalKind::Suicide => "suicide",
            IllegalKind::Ko => "ko",
            IllegalKind::OffBoard => "off_board",
        }
    }
}

/// The rules a board enforces beyond captures and simple ko.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    /// Whether a move that leaves its own group without liberties is allowed (the group is then
    /// removed, as New Zealand, Tromp-Taylor and Ing rules say). Default: `false` (Japanese,
    /// Chinese, Korean, AGA).
    pub allow_suicide: bool,
}

impl Rules {
    /// The rules an SGF `RU` value names, as far as suicide goes: `NZ`, `New Zealand`,
    /// `Tromp-Taylor`/`TT`, `Ing`/`GOE` and KataGo's `suicidetrue` allow it; anything else does
    /// not.
    pub fn from_name(name: &str) -> Rules {
        let n = name.trim().to_ascii_lowercase();
        let allow = n.contains("suicidetrue")
            || (!n.contains("suicidefalse")
                && (matches!(n.as_str(), "nz" | "tt" | "ing" | "goe")
                    || n.contains("new zealand")
                    || n.contains("tromp")
                    || n.starts_with("ing ")
                    || n.contains("ing's")));
        Rules { allow_suicide: allow }
    }
}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Played {
    /// Opponent stones captured.
    pub captured: u32,
    /// Own stones removed by an allowed suicide.
    pub suicided: u32,
}

// A cell is one byte: its content in the low two bits (`EMPTY`, `BLACK`, `WHITE` or `EDGE`), and
// above them (`LIB` units) how many of its four neighbours are empty. So an opponent stone next
// to a move that has no empty neighbour left is exactly the byte `them`: one compare.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;
/// The content bits of a cell.
const CONTENT: u8 = 3;
/// One empty neighbour in a cell's count.
const LIB: u8 = 4;

fn cell(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Cells of the board's arrays: a power of two above the 2,916 (54 × 54) cells of the largest
/// padded board, so that an index masked with `CAP - 1` ([`at`]) needs no bounds check. Every
/// index the board computes is in its padded board already; the mask only tells the compiler.
const CAP: usize = 4096;

/// A cell index as the arrays take it (see [`CAP`]).
#[inline(always)]
fn at(i: usize) -> usize {
    i & (CAP - 1)
}

/// The Zobrist keys, one pair per cell (Black, White), worked out at compile time (64 KiB).
static KEYS: [[u64; 2]; CAP] = {
    let mut k = [[0; 2]; CAP];
    let mut i = 0;
    while i < CAP {
        k[i] = [splitmix64(2 * i as u64), splitmix64(2 * i as u64 + 1)];
        i += 1;
    }
    k
};

/// The Zobrist key of a stone of `color` (`BLACK`/`WHITE`) at cell `i` of the padded board:
/// `splitmix64(2i + color - 1)`, from a table. Keyed by the cell index (no division on the hot
/// path); the hash's seed holds the board size, so the same position on the same size always
/// hashes alike.
#[inline(always)]
fn key(i: usize, color: u8) -> u64 {
    KEYS[at(i)][(color as usize - 1) & 1]
}

/// A `vec![0; CAP]` as an array on the heap: no copy of it on the stack, and a zeroed
/// allocation (`calloc`) rather than a loop over the elements, which `vec![T::default(); CAP]`
/// in a generic function gives (35,000 instructions a board).
fn array<T>(v: Vec<T>) -> Box<[T; CAP]> {
    match v.into_boxed_slice().try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("a Vec of CAP elements is a [T; CAP]"),
    }
}

/// Puts a stone of `me` on the empty cell `i` of `cells` (rows of `stride`) and updates its
/// neighbours' counts, as [`Board::place`] does but for the hash; then tells whether the move is
/// done: most moves capture nothing and touch an empty point, that is no opponent neighbour is
/// left without an empty neighbour of its own (its byte would be exactly `them`) and the new
/// stone has one (its byte is more than `me`). A function of the array alone, so that the
/// compiler keeps it and `stride` in registers across the stores.
#[inline(always)]
fn place_quietly(cells: &mut [u8; CAP], i: usize, stride: usize, me: u8) -> bool {
    let them = me ^ (BLACK | WHITE);
    let ns = [i - 1, i + 1, i - stride, i + stride];
    cells[at(i)] |= me;
    for n in ns {
        cells[at(n)] = cells[at(n)].wrapping_sub(LIB);
    }
    let starved = ns.into_iter().fold(false, |s, n| s | (cells[at(n)] == them));
    !starved && cells[at(i)] != me
}

/// A Go board; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Board {
    width: u8,
    height: u8,
    /// Row stride of `cells` (width + 2).
    stride: usize,
    /// (width + 2) × (height + 2) cells with an `EDGE` border, each with its count of empty
    /// neighbours; the rest of the array is unused.
    cells: Box<[u8; CAP]>,
    hash: u64,
    /// The point the given colour may not play next (simple ko).
    ko: Option<(usize, u8)>,
    /// Stones captured by Black and by White.
    captures: [u32; 2],
    rules: Rules,
    // Flood-fill scratch: a generation mark per cell, and a stack with room for every cell (a
    // fill pushes a cell at most once: no capacity checks).
    mark: Box<[u32; CAP]>,
    generation: u32,
    stack: Box<[u16; CAP]>,
    /// The cells of an empty board of `blank_size`, which [`Board::reset`] copies for that size.
    blank: Box<[u8; CAP]>,
    blank_size: (u8, u8),
    /// The cells the last move took off, in the order taken: a list that grows at the first
    /// captures and is kept, so that a new board (one a game, or a copy at each variation, as
    /// `kifu stats --replay` makes them) costs nothing more to make or copy.
    removed: Vec<u16>,
}

impl Default for Board {
    /// An empty 19 × 19 board with the default [`Rules`].
    fn default() -> Board {
        Board::new(19, 19).expect("19 × 19 is in range")
    }
}

impl Board {
    /// An empty board of `width` × `height` (each 1–52) with the default [`Rules`].
    pub fn new(width: u8, height: u8) -> Option<Board> {
        Board::with_rules(width, height, Rules::default())
    }

    /// An empty board with the given rules.
    pub fn with_rules(width: u8, height: u8, rules: Rules) -> Option<Board> {
        let mut b = Board {
            width: 0,
            height: 0,
            stride: 0,
            cells: array(vec![0; CAP]),
            hash: 0,
            ko: None,
            captures: [0, 0],
            rules,
            mark: array(vec![0; CAP]),
            generation: 0,
            stack: array(vec![0; CAP]),
            blank: array(vec![0; CAP]),
            blank_size: (0, 0),
            removed: Vec::new(),
        };
        b.reset(width, height, rules).then_some(b)
    }

    /// Empties the board and gives it a new size (each 1–52) and rules, as
    /// [`Board::with_rules`] would make it, keeping its allocations (replaying many games on one
    /// board costs no allocation and only the rows of the new board to clear). Returns `false`,
    /// and leaves the board as it was, when the size is out of range.
    pub fn reset(&mut self, width: u8, height: u8, rules: Rules) -> bool {
        if !(1..=52).contains(&width) || !(1..=52).contains(&height) {
            return false;
        }
        let (w, h) = (width as usize, height as usize);
        let stride = w + 2;
        let len = stride * (h + 2);
        if self.blank_size == (width, height) {
            self.cells[..len].copy_from_slice(&self.blank[..len]);
        } else {
            self.build_blank(w, h);
            self.blank[..len].copy_from_slice(&self.cells[..len]);
            self.blank_size = (width, height);
        }
        self.width = width;
        self.height = height;
        self.stride = stride;
        self.hash = splitmix64(0x6b69_6675_0000_0000 | (width as u64) << 8 | height as u64);
        self.ko = None;
        self.captures = [0, 0];
        self.rules = rules;
        self.removed.clear();
        true
    }

    /// Empties the board as [`Board::reset`] does or, when `width` × `height` is out of range,
    /// as the default board (19 × 19, the default [`Rules`]): what a replayer falls back to for
    /// a game whose size it cannot play. Returns whether the asked size was taken.
    ///
    /// ```
    /// use kifu::position::go::{Board, Rules};
    ///
    /// let mut b = Board::default();
    /// assert!(b.reset_or_default(9, 9, Rules::default()));
    /// assert_eq!(b.size(), (9, 9));
    /// assert!(!b.reset_or_default(60, 9, Rules::default()));
    /// assert_eq!(b.size(), (19, 19));
    /// ```
    pub fn reset_or_default(&mut self, width: u8, height: u8, rules: Rules) -> bool {
        if self.reset(width, height, rules) {
            return true;
        }
        self.reset(19, 19, Rules::default());
        false
    }

    /// Writes the cells of an empty board of `w` × `h` at the start of `cells`.
    fn build_blank(&mut self, w: usize, h: usize) {
        let stride = w + 2;
        let cells = &mut self.cells[..stride * (h + 2)];
        // The border rows: an edge cell's only possible empty neighbour is the point beside it.
        let (first, rest) = cells.split_at_mut(stride);
        let (middle, last) = rest.split_at_mut(h * stride);
        for row in [first, last] {
            row.fill(EDGE | LIB);
            row[0] = EDGE;
            row[w + 1] = EDGE;
        }
        // The rows of the board: four empty neighbours, less one per side on the edge.
        for (y, row) in middle.chunks_exact_mut(stride).enumerate() {
            let n = 4 - (y == 0) as u8 - (y == h - 1) as u8;
            row.fill(n * LIB); // EMPTY is 0
            row[0] = EDGE | LIB;
            row[1] -= LIB;
            row[w] -= LIB;
            row[w + 1] = EDGE | LIB;
        }
    }

    /// Columns and rows.
    #[inline]
    pub fn size(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The Zobrist hash of the stones on the board and the board size.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `color` (removed opponent stones, including those removed by the
    /// opponent's own suicides).
    #[inline]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[(color == Color::White) as usize]
    }

    /// The stones the last move took off the board, in the order it took them: the opponent's
    /// groups it captured (each group from the stone next to the move, in the order left,
    /// right, above, below), then, after an allowed suicide, the mover's own group. Empty when
    /// that move took nothing, was a pass or was illegal, and after [`Board::reset`]; setup
    /// ([`Board::set`]) leaves it as it was. With it, a program that keeps its own view of the
    /// stones (a hash, a list of changes) follows a move without a flood fill of its own: the
    /// move's stone (unless it is listed here), less these points.
    ///
    /// ```
    /// use kifu::position::go::Board;
    /// use kifu::{Color, Point};
    /// let mut b = Board::new(9, 9).unwrap();
    /// b.play(Color::Black, Some(Point::new(1, 0))).unwrap();
    /// b.play(Color::White, Some(Point::new(0, 0))).unwrap();
    /// assert_eq!(b.removed().count(), 0);
    /// b.play(Color::Black, Some(Point::new(0, 1))).unwrap();
    /// assert_eq!(b.removed().collect::<Vec<_>>(), [Point::new(0, 0)]);
    /// ```
    #[inline]
    pub fn removed(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.removed.iter().map(|&i| self.point_of(i as usize))
    }

    /// The point where `color` may not play next because of ko, if any.
    pub fn ko(&self) -> Option<(Point, Color)> {
        let (i, c) = self.ko?;
        let p = self.point_of(i);
        Some((p, if c == BLACK { Color::Black } else { Color::White }))
    }

    fn index(&self, p: Point) -> Option<usize> {
        (p.x < self.width && p.y < self.height).then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }

    fn point_of(&self, i: usize) -> Point {
        Point::new((i % self.stride - 1) as u8, (i / self.stride - 1) as u8)
    }

    /// The stone at `p`, if any (and `None` off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.cells[at(self.index(p)?)] & CONTENT {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Number of stones of each colour (Black, White).
    pub fn stones(&self) -> (u32, u32) {
        let cells = &self.cells[..self.stride * (self.height as usize + 2)];
        let b = cells.iter().filter(|&&c| c & CONTENT == BLACK).count() as u32;
        let w = cells.iter().filter(|&&c| c & CONTENT == WHITE).count() as u32;
        (b, w)
    }

    /// Puts a stone of `color` on the empty point `i`; its neighbours lose an empty neighbour.
    #[inline(always)]
    fn place(&mut self, i: usize, color: u8) {
        self.cells[at(i)] |= color;
        self.hash ^= key(i, color);
        for n in self.neighbours(i) {
            self.cells[at(n)] = self.cells[at(n)].wrapping_sub(LIB);
        }
    }

    /// Takes the stone of `color` off point `i`; its neighbours gain an empty neighbour.
    #[inline(always)]
    fn lift(&mut self, i: usize, color: u8) {
        self.cells[at(i)] &= !CONTENT;
        self.hash ^= key(i, color);
        for n in self.neighbours(i) {
            self.cells[at(n)] = self.cells[at(n)].wrapping_add(LIB);
        }
    }

    /// Setup: puts a stone of `color` at `p`, or empties it (`None`), whatever was there, with no
    /// captures. Clears the ko. Returns `false` (and does nothing) off the board.
    pub fn set(&mut self, p: Point, color: Option<Color>) -> bool {
        let Some(i) = self.index(p) else { return false };
        let old = self.cells[at(i)] & CONTENT;
        if old != EMPTY {
            self.lift(i, old);
        }
        if let Some(c) = color {
            self.place(i, cell(c));
        }
        self.ko = None;
        true
    }

    /// Plays a move (`None` is a pass). On an illegal move the board is unchanged.
    #[inline(always)]
    pub fn play(&mut self, color: Color, point: Option<Point>) -> Result<Played, IllegalKind> {
        self.removed.clear();
        let Some(p) = point else {
            self.ko = None;
            return Ok(Played::default());
        };
        let i = self.index(p).ok_or(IllegalKind::OffBoard)?;
        if self.cells[at(i)] & CONTENT != EMPTY {
            return Err(IllegalKind::Occupied);
        }
        let me = cell(color);
        if self.ko == Some((i, me)) {
            return Err(IllegalKind::Ko);
        }
        self.hash ^= key(i, me);
        if place_quietly(&mut self.cells, i, self.stride, me) {
            self.ko = None;
            return Ok(Played::default());
        }
        match self.resolve(i, me) {
            Some(both) => Ok(Played { captured: both as u32, suicided: (both >> 32) as u32 }),
            None => Err(IllegalKind::Suicide),
        }
    }

    /// The rest of [`Board::play`] once the stone of `me` is on point `i` and some group next to
    /// it may have no liberty: captures, suicide and ko. Returns the stones captured and (in the
    /// high half) suicided, or `None` for a suicide the rules forbid (a pair of words, returned
    /// in registers, where a `Result<Played, _>` goes through memory).
    #[inline(never)]
    fn resolve(&mut self, i: usize, me: u8) -> Option<u64> {
        let them = me ^ (BLACK | WHITE);
        let mut captured = 0;
        let mut last_captured = 0;
        for n in self.neighbours(i) {
            if self.cells[at(n)] == them && !self.has_liberty(n, them) {
                last_captured = n;
                captured += self.remove_group(n);
            }
        }
        let mut suicided = 0;
        if captured == 0 && self.cells[at(i)] == me && !self.has_liberty(i, me) {
            if !self.rules.allow_suicide {
                self.lift(i, me);
                return None;
            }
            suicided = self.remove_group(i);
            self.captures[(me == BLACK) as usize] += suicided;
        }
        self.captures[(me == WHITE) as usize] += captured;
        // Simple ko: one stone captured by a lone stone left with that single liberty.
        self.ko = None;
        if captured == 1 && suicided == 0 {
            let lone = self.neighbours(i).into_iter().all(|n| self.cells[at(n)] & CONTENT != me);
            if lone && self.cells[at(i)] == me | LIB {
                self.ko = Some((last_captured, them));
            }
        }
        Some(captured as u64 | (suicided as u64) << 32)
    }

    /// Whether playing `color` at `point` would be legal now. Costs a copy of the board (four
    /// heap arrays, 32 KiB): for occasional questions, not a move generator.
    pub fn is_legal(&self, color: Color, point: Option<Point>) -> Result<(), IllegalKind> {
        let mut copy = self.clone();
        copy.play(color, point).map(|_| ())
    }

    #[inline(always)]
    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - 1, i + 1, i - self.stride, i + self.stride]
    }

    /// Whether the group of the stone of `colour` at `i`, which has no empty neighbour itself,
    /// has a liberty: first whether a stone next to it has one (the answer for most groups,
    /// without a flood fill), else [`Board::fill_finds_liberty`].
    #[inline(always)]
    fn has_liberty(&mut self, i: usize, colour: u8) -> bool {
        self.neighbours(i).into_iter().any(|n| {
            let c = self.cells[at(n)];
            c & CONTENT == colour && c >= LIB
        }) || self.fill_finds_liberty(i)
    }

    /// Whether the group of the stone at `i`, which has no empty neighbour itself, has a
    /// liberty: a flood fill that stops at the first stone of the group with an empty neighbour
    /// (seen when it is reached, before it is pushed).
    #[inline(never)]
    fn fill_finds_liberty(&mut self, i: usize) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let colour = self.cells[at(i)] & CONTENT;
        self.stack[0] = i as u16;
        let mut top = 1;
        self.mark[at(i)] = g;
        while top > 0 {
            top -= 1;
            let j = self.stack[at(top)] as usize;
            for n in self.neighbours(j) {
                let c = self.cells[at(n)];
                if c & CONTENT == colour {
                    // A stone of the group: its byte is `colour` plus `LIB` per empty neighbour.
                    if c >= LIB {
                        return true;
                    }
                    if self.mark[at(n)] != g {
                        self.mark[at(n)] = g;
                        self.stack[at(top)] = n as u16;
                        top += 1;
                    }
                }
            }
        }
        false
    }

    /// Removes the group at `i` (which `fill_finds_liberty` found without liberties); returns
    /// its size. Each stone is noted in `removed` ([`Board::removed`]) as it goes.
    fn remove_group(&mut self, i: usize) -> u32 {
        let colour = self.cells[at(i)] & CONTENT;
        self.lift(i, colour);
        self.note_removed(i);
        self.stack[0] = i as u16;
        let mut top = 1;
        let mut n = 1;
        while top > 0 {
            top -= 1;
            let j = self.stack[at(top)] as usize;
            for t in self.neighbours(j) {
                if self.cells[at(t)] & CONTENT == colour {
                    self.lift(t, colour);
                    self.note_removed(t);
                    self.stack[at(top)] = t as u16;
                    top += 1;
                    n += 1;
                }
            }
        }
        n
    }

    #[inline(always)]
    fn note_removed(&mut self, i: usize) {
        self.removed.push(i as u16);
    }
}

/// How [`replay`] treats a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReplayOptions {
    /// Rules to use instead of the game's own `RU` (which otherwise decides suicide; a game
    /// without `RU` forbids it).
    pub rules: Option<Rules>,
    /// Keep the hash of the position after every move in [`Replay::hashes`].
    pub record_hashes: bool,
}

/// An illegal move found by [`replay`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Why it is illegal.
    pub kind: IllegalKind,
    /// Where it is in the input (the source's [`EventSource::event_offset`]).
    pub offset: Option<u64>,
    /// Its number among the game's moves, from 1.
    pub number: u32,
    /// Who played it.
    pub color: Color,
    /// Where.
    pub point: Point,
}

/// What [`replay`] found in one game.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Replay {
    /// Byte offset of the game (its `GameStart`).
    pub offset: u64,
    /// Board size used.
    pub size: (u8, u8),
    /// Moves on the main line, passes and illegal moves included.
    pub moves: u32,
    /// Passes among them.
    pub passes: u32,
    /// Illegal moves (left unplayed: the board stays as it was and play goes on).
    pub illegal: Vec<IllegalMove>,
    /// Stones captured by Black and by White.
    pub captures: (u32, u32),
    /// Setup events applied.
    pub setup: u32,
    /// The hash of the final position.
    pub hash: u64,
    /// The hash after each move, when [`ReplayOptions::record_hashes`] is set.
    pub hashes: Vec<u64>,
    /// Shogi moves seen (not replayed here).
    pub other_moves: u32,
    /// The board size could not be read (the default 19×19 was used).
    pub bad_size: bool,
}

impl Drop for Replayer {
    /// Leaves the board for the thread's next replayer.
    fn drop(&mut self) {
        if let Some(b) = self.board.take() {
            let _ = SPARE.try_with(|s| s.set(Some(b)));
        }
    }
}

/// Parses an SGF-style board size (`19`, `19:13`).
pub fn parse_size(v: &[u8]) -> Option<(u8, u8)> {
    let s = std::str::from_utf8(v).ok()?.trim();
    let (w, h) = match s.split_once(':') {
        Some((w, h)) => (w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?),
        None => {
            let n = s.parse::<u8>().ok()?;
            (n, n)
        }
    };
    ((1..=52).contains(&w) && (1..=52).contains(&h)).then_some((w, h))
}

thread_local! {
    /// The board of the last [`Replayer`] dropped on this thread, for the next one to reset
    /// rather than allocate ([`replay`] makes a replayer per game). One board (32 KiB) a thread
    /// at most, kept until the thread ends.
    static SPARE: Cell<Option<Board>> = const { Cell::new(None) };
}

/// Replays games event by event; [`replay`] drives it along a main line. Feed it the events of
/// one line of play (no variations). [`Replayer::finish_game`] ends a game and starts the next
/// on the same board, so that a replayer kept for many games allocates its board once.
#[derive(Debug)]
pub struct Replayer {
    options: ReplayOptions,
    /// The board, made at the first move or setup and kept from game to game.
    board: Option<Board>,
    /// Whether `board` holds this game's position (else it is an earlier game's, to reset).
    live: bool,
    size: (u8, u8),
    rules: Rules,
    out: Replay,
    /// Whether a move was played (a later `SZ` then no longer resizes the board).
    moved: bool,
}

impl Replayer {
    /// A replayer for one game.
    pub fn new(options: ReplayOptions) -> Replayer {
        Replayer {
            options,
            board: None,
            live: false,
            size: (19, 19),
            rules: options.rules.unwrap_or_default(),
            out: Replay::default(),
            moved: false,
        }
    }

    /// The board as it stands (`None` before the first move or setup).
    #[inline]
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref().filter(|_| self.live)
    }

    /// This game's board: the kept one reset to the game's size and rules (19×19 and the default
    /// rules for a size out of range), or a new one, at the first move or setup.
    fn board_mut(&mut self) -> &mut Board {
        let (size, rules, live) = (self.size, self.rules, self.live);
        self.live = true;
        let b = self.board.get_or_insert_with(|| SPARE.try_with(Cell::take).ok().flatten().unwrap_or_default());
        if !live {
            b.reset_or_default(size.0, size.1, rules);
        }
        b
    }

    /// Applies one event; returns `true` when it was an illegal move (its offset can then be set
    /// with [`Replayer::set_offset`]).
    pub fn event(&mut self, ev: &Event<'_>) -> bool {
        let before = self.out.illegal.len();
        self.apply(ev);
        self.out.illegal.len() > before
    }

    /// Plays one Go move (the [`Event::Move`] case of [`Replayer::event`], for callers that have
    /// matched the event already); returns `true` when it was illegal (and left unplayed).
    #[inline]
    pub fn play(&mut self, color: Color, point: Option<Point>) -> bool {
        self.moved = true;
        self.out.moves += 1;
        let number = self.out.moves;
        self.out.passes += point.is_none() as u32;
        let played = match self.board.as_mut() {
            Some(b) if self.live => b.play(color, point),
            _ => self.board_mut().play(color, point),
        };
        let illegal = match played {
            Ok(_) => false,
            Err(kind) => {
                let point = point.unwrap_or(Point::new(0, 0));
                self.out.illegal.push(IllegalMove { kind, offset: None, number, color, point });
                true
            }
        };
        if self.options.record_hashes {
            let h = self.board_mut().hash();
            self.out.hashes.push(h);
        }
        illegal
    }

    /// Plays Go moves one after another as [`Replayer::play`] would one by one (the same counts,
    /// illegal moves and hashes), with the board looked up once: for callers that hold a game's
    /// moves in a list. Illegal moves are recorded without an offset. Returns how many moves it
    /// played (legal or not).
    pub fn play_all<I: IntoIterator<Item = (Color, Option<Point>)>>(&mut self, moves: I) -> usize {
        let mut moves = moves.into_iter();
        let Some((color, point)) = moves.next() else { return 0 };
        let before = self.out.moves;
        // The first move sets the game going (and makes the board) as any move does.
        self.play(color, point);
        if self.options.record_hashes {
            for (color, point) in moves {
                self.play(color, point);
            }
        } else if let Some(board) = self.board.as_mut() {
            let out = &mut self.out;
            let (mut number, mut passes) = (out.moves, out.passes);
            for (color, point) in moves {
                number += 1;
                passes += point.is_none() as u32;
                if let Err(kind) = board.play(color, point) {
                    let point = point.unwrap_or(Point::new(0, 0));
                    out.illegal.push(IllegalMove { kind, offset: None, number, color, point });
                }
            }
            (out.moves, out.passes) = (number, passes);
        }
        self.out.moves.wrapping_sub(before) as usize
    }

    /// Sets the input offset of the last illegal move reported.
    pub fn set_offset(&mut self, offset: Option<u64>) {
        if let Some(m) = self.out.illegal.last_mut() {
            m.offset = offset;
        }
    }

    /// The board size a game's `SZ` gives (the [`Event::Info`] case of [`Replayer::event`];
    /// `None`: unreadable, the default 19×19 stays). Before the first move it also resizes a
    /// board that setup has already put stones on; after it, it changes nothing.
    pub fn set_size(&mut self, size: Option<(u8, u8)>) {
        let Some(s) = size else {
            self.out.bad_size = true;
            return;
        };
        self.size = s;
        if !self.moved && self.live {
            if let Some(old) = self.board.take() {
                self.live = false;
                let b = self.board_mut();
                let (w, h) = old.size();
                for y in 0..h {
                    for x in 0..w {
                        let p = Point::new(x, y);
                        if let Some(c) = old.get(p) {
                            b.set(p, Some(c));
                        }
                    }
                }
            }
        }
    }

    /// The rules a game's `RU` names (ignored when [`ReplayOptions::rules`] overrides them).
    pub fn set_rules(&mut self, rules: Rules) {
        if self.options.rules.is_some() {
            return;
        }
        self.rules = rules;
        if let Some(b) = self.board.as_mut() {
            b.set_rules(rules);
        }
    }

    fn apply(&mut self, ev: &Event<'_>) {
        match *ev {
            Event::GameStart { offset } => self.out.offset = offset,
            Event::Info(i) if i.key() == InfoKey::BoardSize => self.set_size(parse_size(i.value().raw())),
            Event::Info(i) if i.key() == InfoKey::Rules => self.set_rules(Rules::from_name(&i.value().decode().text)),
            Event::Setup(Setup::Go { color, point }) => {
                self.out.setup += 1;
                self.board_mut().set(point, color);
            }
            Event::Move(Move::Go { color, point }) => {
                self.play(color, point);
            }
            Event::Move(Move::Shogi(_)) => self.out.other_moves += 1,
            _ => {}
        }
    }

    /// The summary.
    pub fn finish(mut self) -> Replay {
        self.finish_game()
    }

    /// The summary of this game (what [`Replayer::finish`] gives), and a fresh start for the next
    /// game with the same options: the board is kept, to be reset (not allocated) at the next
    /// game's first move or setup.
    pub fn finish_game(&mut self) -> Replay {
        let b = self.board_mut();
        let (hash, captures, size) = (b.hash(), (b.captures(Color::Black), b.captures(Color::White)), b.size());
        let mut out = std::mem::take(&mut self.out);
        out.hash = hash;
        out.captures = captures;
        out.size = size;
        self.live = false;
        self.size = (19, 19);
        self.rules = self.options.rules.unwrap_or_default();
        self.moved = false;
        out
    }
}

/// Replays the next game of `source` along its main line (first child at every branch);
/// `Ok(None)` at the end of input. The board size comes from `SZ` (19×19 without one), suicide
/// from `RU` unless `options.rules` says otherwise. Illegal moves are reported with the source's
/// [`event_offset`](EventSource::event_offset) and left unplayed.
///
/// ```
/// use kifu::position::go::{replay, IllegalKind, ReplayOptions};
///
/// let mut reader = kifu::sgf::Reader::new(b"(;SZ[9];B[aa];W[aa];B[])");
/// let r = replay(&mut reader, &ReplayOptions::default()).unwrap().unwrap();
/// assert_eq!((r.moves, r.passes), (3, 1));
/// assert_eq!(r.illegal[0].kind, IllegalKind::Occupied);
/// assert_eq!(r.illegal[0].offset, Some(15)); // the `[` of W[aa]
/// ```
pub fn replay<S: EventSource + ?Sized>(source: &mut S, options: &ReplayOptions) -> Result<Option<Replay>, Error> {
    let mut main = MainLine::new(source);
    let mut r = Replayer::new(*options);
    let mut started = false;
    while let Some(item) = main.next_event() {
        let ev = item?;
        let end = match ev {
            Event::GameStart { .. } => {
                started = true;
                false
            }
            Event::GameEnd { .. } => started,
            _ => false,
        };
        if started && r.event(&ev) {
            r.set_offset(main.event_offset());
        }
        if end {
            break;
        }
    }
    Ok(started.then(|| r.finish()))
}
