//! Pattern search (Go): the games where a region of points is black, white, empty or anything,
//! in any of the board's eight orientations (and, when asked, with the colours swapped), the
//! move number where it first appears, and what was played next there. This is what
//! `kifu find --pattern` prints.
//!
//! # Method (Kombilo's): a compact move list per game, replayed
//! The indexing pass stores, per Go game, its main line as board changes in the `games.pattern`
//! column ([`Recorder`]): two bytes an operation, `kind << 12 | point` (point `x + 52 y`), where
//! the kinds are a move that put its stone (0 Black, 1 White), a move that changed nothing (2
//! Black, 3 White: a pass `0xFFF`, a point off the board `0xFFE`, an illegal move), a stone taken
//! off by the move before (4: captures, precomputed), setup (5 Black, 6 White, 7 empty) and the
//! board's size (8, `w-1 | (h-1) << 6`, first). The captures come from the library's board as the
//! index replays the game for its positions (`position::Moves::visit`), so a pattern query
//! replays no rules: it sets and clears points. On the corpus: 9,017,548 bytes for 22,542 Go
//! games, 400 bytes a game, 2.16 bytes a move; the database grows from 12.0 to 22.0 MB. The
//! column goes when its row goes, so incremental runs keep it exact with no work of their own.
//!
//! A query reads `(id, winner, pattern)` row by row (streamed, nothing kept per game but the
//! matches) and replays each game on a 52 × 52 grid while keeping, for every placement of the
//! pattern (a symmetry, an offset the anchor allows, swapped colours or not), the number of its
//! points that do not match. A point that changes updates only the placements that cover it
//! (a table per board size: point → placements and what each needs there), so a move costs a
//! few adds and the question "does some placement match" is one compare: the pattern appears
//! when a count reaches zero. No per-game filter (Kombilo's bitmaps of points ever black or
//! ever white) yet: without one, a 7×7 corner pattern costs 2.5–2.8 µs of CPU a game, 0.26 s
//! per 100,000 games (`pattern_bench`), under the 1 s asked. Of that, reading the rows is
//! 0.027 s; the rest is the replay (mostly the updates of the placements covering the corners),
//! which such a filter would skip for the games it rules out: the next step if queries must
//! get faster.
//!
//! # What a match and its continuation are
//! - A position is the board before a move (numbered by the moves before it, 0 is the start with
//!   its setup), or the final one; the first position where some placement matches is where the
//!   pattern appears (what [`PatternHit::number`] gives).
//! - [`Anchor`]: `Corner`: the pattern's top left on the board's corner; `Side`: its top row on
//!   the edge, anywhere along it (corners too); `Anywhere`; `Fixed(x, y)`: its top left at
//!   `(x, y)` (SGF setup with a region). In each case in all eight orientations of the board.
//! - The continuation is the next move, seen from the pattern: a move inside the matched region
//!   is shown at its place in the pattern's own frame (for a corner pattern: on the board with
//!   the pattern in the top left corner; `Fixed`: where the region is; otherwise relative to the
//!   diagram's top left, `aa`). A move outside it is `tenuki`; a pass `B[]`; `end` when the game
//!   ended there. When several placements match at once, the move is taken through each and the
//!   first in SGF order (row, then column) of those inside wins (so a symmetric pattern shows one
//!   of the equivalent points, the same whatever the game's orientation).
//! - Colour swap: placements with swapped colours count only when no placement with the
//!   pattern's own colours matches at that position; the move's colour and the game's winner are
//!   then swapped too (the continuation says what the pattern's Black did and how it went).

use crate::position::Visit;
use crate::query::{find_in_each, Hit, Query};
use crate::symmetry::{apply, dims, invert};
use crate::Error;
use kifu::{Color, Move, Point};
use rusqlite::Connection;
use std::collections::HashMap;
use std::ops::ControlFlow;

/// Points on a side of the largest board (the grid's row length).
const N: usize = crate::symmetry::MAX;
/// A pass.
const PASS: u16 = 0xFFF;
/// A point off the board.
const OFF: u16 = 0xFFE;
const PLACE: u16 = 0;
const NOOP: u16 = 2;
const TAKE: u16 = 4;
const SET: u16 = 5;
const SIZE: u16 = 8;

fn code(c: Option<Color>) -> u8 {
    match c {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

/// Records a Go game's pattern column from the positions the index visits (see the [module
/// docs](self)): kept from game to game (its buffers are reused).
#[derive(Default)]
pub(crate) struct Recorder {
    out: Vec<u8>,
    /// The board as recorded so far: 0 empty, 1 Black, 2 White at `x + 52 y`.
    grid: Vec<u8>,
    size: (u8, u8),
    /// The move announced by the last position (colour, point), to record at the next.
    pending: Option<(Color, u16)>,
    /// The main line's moves (`colour << 12 | point`), for the symmetric hash.
    moves: Vec<u16>,
    started: bool,
    /// For each point `x + w y` of a board of `sym_size`: its point through each symmetry.
    sym_map: Vec<[u16; 8]>,
    sym_size: (u8, u8),
}

impl Recorder {
    /// Starts a game.
    pub fn start(&mut self) {
        self.out.clear();
        self.moves.clear();
        self.pending = None;
        self.started = false;
        if self.grid.len() != N * N {
            self.grid = vec![0; N * N];
        }
    }

    fn push(&mut self, kind: u16, point: u16) {
        self.out.extend_from_slice(&(kind << 12 | point).to_le_bytes());
    }

    /// Takes in one position of the main line (Go). `resync`: setup may have changed the board
    /// since the last move (the board is then compared point by point).
    pub fn visit(&mut self, v: &Visit<'_>, resync: bool) {
        let Some(g) = v.go else { return };
        let size = g.size();
        if !self.started {
            self.started = true;
            self.resize(size);
            self.diff(v.board, true);
        } else {
            if let Some((c, p)) = self.pending.take() {
                self.apply_move(c, p, v.board);
            }
            if size != self.size {
                self.resize(size);
                self.diff(v.board, true);
            } else if resync {
                self.diff(v.board, false);
            }
        }
        // The move as played (what `v.next` encodes through the symmetry, decoded here
        // before: a tenth of the recorder's instructions).
        self.pending = v.play.map(|(c, p)| {
            let code = match p {
                None => PASS,
                Some(p) if p.x < size.0 && p.y < size.1 => p.x as u16 + N as u16 * p.y as u16,
                Some(_) => OFF,
            };
            (c, code)
        });
        debug_assert_eq!(self.pending, decode_next(v.next, size));
        if let Some((c, p)) = self.pending {
            self.moves.push(((c == Color::White) as u16) << 12 | p);
        }
    }

    fn resize(&mut self, (w, h): (u8, u8)) {
        self.grid.fill(0);
        self.size = (w, h);
        self.push(SIZE, (w.max(1) as u16 - 1) | (h.max(1) as u16 - 1) << 6);
    }

    /// Records setup for every point where `board` differs from the grid (`fresh`: the grid
    /// was just emptied by `resize`).
    fn diff(&mut self, board: Option<&kifu::position::go::Board>, fresh: bool) {
        let Some(board) = board else {
            // No board yet: nothing was put on it (the grid is empty after `resize`; a look at
            // its 2,704 points for each game was a sixth of the recorder's instructions).
            if fresh || self.grid.iter().all(|&c| c == 0) {
                return;
            }
            return self.diff_with(None);
        };
        self.diff_with(Some(board))
    }

    fn diff_with(&mut self, board: Option<&kifu::position::go::Board>) {
        let (w, h) = self.size;
        for y in 0..h.min(N as u8) {
            for x in 0..w.min(N as u8) {
                let want = code(board.and_then(|b| b.get(Point::new(x, y))));
                let i = x as usize + N * y as usize;
                if self.grid[i] != want {
                    self.grid[i] = want;
                    self.push(SET + [2, 0, 1][want as usize], i as u16);
                }
            }
        }
    }

    /// Records the move of `c` at `p` that led to `board`: the stones it took are those the
    /// board lists ([`Board::removed`](kifu::position::go::Board::removed), in the order it
    /// took them: the same order a flood fill from each captured neighbour gives), so a move
    /// that took nothing needs a look at its own point only, and none needs a fill here. (Setup
    /// between the move and this position does not clear the board's list; its changes are
    /// then recorded by `diff`.)
    fn apply_move(&mut self, c: Color, p: u16, board: Option<&kifu::position::go::Board>) {
        let me = code(Some(c));
        let col = (c == Color::White) as u16;
        let (x, y) = ((p as usize % N) as u8, (p as usize / N) as u8);
        if p >= OFF || x >= self.size.0 || y >= self.size.1 || self.grid[p as usize] != 0 {
            self.push(
                NOOP + col,
                if p == PASS {
                    PASS
                } else if p >= OFF {
                    OFF
                } else {
                    p
                },
            );
            return;
        }
        let Some(board) = board else {
            self.push(NOOP + col, p);
            return;
        };
        let removed = board.removed();
        // Nothing taken and no stone there: the move was illegal. One stone taken and none
        // there: a lone stone's suicide, which changes nothing (recorded so since the column
        // began). Otherwise the stone went down, and the stones listed came off.
        if removed.len() <= 1 && board.get(Point::new(x, y)) != Some(c) {
            self.push(NOOP + col, p);
            return;
        }
        self.push(PLACE + col, p);
        self.grid[p as usize] = me;
        for q in removed {
            let n = q.x as usize + N * q.y as usize;
            if q.x < self.size.0 && q.y < self.size.1 && self.grid[n] != 0 {
                self.grid[n] = 0;
                self.push(TAKE, n as u16);
            }
        }
    }

    /// The game's pattern column.
    pub fn blob(&self) -> &[u8] {
        &self.out
    }

    /// The smallest over the eight symmetries of a hash of the main line's moves seen through
    /// it: the same for a game and its rotated or reflected copies (`games.sym_hash`). Each
    /// symmetry's hash is a multiply-and-mix chain over its transformed moves, the points
    /// transformed through a table made once per board size (a table lookup and a multiply per
    /// move and symmetry).
    pub fn symmetric_hash(&mut self) -> u64 {
        let (w, h) = self.size;
        if self.sym_size != (w, h) {
            self.sym_size = (w, h);
            self.sym_map.clear();
            for y in 0..h {
                for x in 0..w {
                    let mut m = [0u16; 8];
                    for (s, slot) in m.iter_mut().enumerate() {
                        let (tx, ty) = apply(s as u8, (w, h), (x, y));
                        *slot = tx as u16 + N as u16 * ty as u16;
                    }
                    self.sym_map.push(m);
                }
            }
        }
        let mut hs = [0u64; 8];
        for (s, hash) in hs.iter_mut().enumerate() {
            let (tw, th) = dims(s as u8, w, h);
            *hash = mix(0x7379_6d00 ^ (tw as u64) << 8 ^ th as u64);
        }
        for &m in &self.moves {
            let p = m & 0xFFF;
            let (x, y) = ((p as usize % N) as u8, (p as usize / N) as u8);
            let i = x as usize + w as usize * y as usize;
            match self.sym_map.get(i) {
                Some(t) if p < OFF && x < w && y < h => {
                    for (hash, &q) in hs.iter_mut().zip(t) {
                        *hash = (*hash ^ (m & 0xF000 | q) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
                    }
                }
                _ => {
                    for hash in hs.iter_mut() {
                        *hash = (*hash ^ m as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
                    }
                }
            }
        }
        hs.into_iter().map(mix).min().unwrap_or(0)
    }
}

/// SplitMix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The move a position's `next` (see `position::go_next`) names, in the game's own orientation:
/// colour and point (`PASS`, `OFF`); `None` at the end.
fn decode_next(next: u32, (w, h): (u8, u8)) -> Option<(Color, u16)> {
    let code = next >> 3;
    let sym = (next & 7) as u8;
    let color = |c: u32| if c == 0 { Color::Black } else { Color::White };
    match code {
        0 => None,
        1 | 2 => Some((color(code - 1), PASS)),
        _ => {
            let (idx, c) = ((code - 3) >> 1, (code - 3) & 1);
            let (cw, ch) = dims(sym, w, h);
            if idx >= cw as u32 * ch as u32 || cw == 0 {
                return Some((color(c), OFF));
            }
            let (x, y) = invert(sym, (w, h), ((idx % cw as u32) as u8, (idx / cw as u32) as u8));
            Some((color(c), x as u16 + N as u16 * y as u16))
        }
    }
}

/// Where a pattern may sit on the board (in each of its eight orientations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Its top left point on the board's top left corner.
    Corner,
    /// Its top row on the top edge, anywhere along it (corners included).
    Side,
    /// Anywhere on the board.
    Anywhere,
    /// Its top left point at `(x, y)`.
    Fixed(u8, u8),
}

/// What a point of a pattern needs.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const ANY: u8 = 3;

/// A Go pattern: a rectangle of points that must be black, white, empty or anything, and where
/// it may sit; [`find_pattern`] says what a match and its continuation are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    width: u8,
    height: u8,
    /// Row by row: `EMPTY`, `BLACK`, `WHITE` or `ANY`.
    cells: Vec<u8>,
    /// Where it may sit.
    pub anchor: Anchor,
    /// Also look for it with Black and White swapped.
    pub swap_colors: bool,
}

impl Pattern {
    /// A pattern from an ASCII diagram: rows separated by new lines, `/` or `|`, one character a
    /// point — `X` Black, `O` White, `.` (or `+`, `,`) empty, `*` (or `?`) anything; spaces are
    /// ignored, rows must have one length; at most 52 × 52.
    ///
    /// ```
    /// let p = kifu_index::Pattern::from_diagram("..O/.X./...", kifu_index::Anchor::Corner).unwrap();
    /// assert_eq!(p.size(), (3, 3));
    /// ```
    pub fn from_diagram(text: &str, anchor: Anchor) -> Result<Pattern, Error> {
        let mut cells = Vec::new();
        let mut width = None;
        let mut height = 0usize;
        for row in text.split(['\n', '/', '|']) {
            let row: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if row.is_empty() {
                continue;
            }
            if *width.get_or_insert(row.len()) != row.len() {
                return Err(Error::usage(format!(
                    "pattern: row {} has {} points, not {}",
                    height + 1,
                    row.len(),
                    width.unwrap_or(0)
                )));
            }
            for c in row {
                cells.push(match c {
                    'X' | 'x' => BLACK,
                    'O' | 'o' => WHITE,
                    '.' | '+' | ',' => EMPTY,
                    '*' | '?' => ANY,
                    c => return Err(Error::usage(format!("pattern: `{c}`: expected X, O, `.` or `*`"))),
                });
            }
            height += 1;
        }
        let width = width.unwrap_or(0);
        if width == 0 || width > N || height > N {
            return Err(Error::usage(format!("pattern: {width} x {height} points: expected 1 to 52 on a side")));
        }
        Ok(Pattern { width: width as u8, height: height as u8, cells, anchor, swap_colors: false })
    }

    /// A pattern from SGF setup (`AB[cc][dd]AW[dc]`, or a record starting with `(`): the
    /// stones inside `region` (two corners in SGF coordinates, `aa:gg`; without one, the
    /// smallest rectangle holding the stones), every other point of it empty, anchored where the
    /// region is ([`Anchor::Fixed`]).
    pub fn from_sgf(setup: &str, region: Option<&str>) -> Result<Pattern, Error> {
        let t = setup.trim();
        let sgf = if t.starts_with('(') { t.to_owned() } else { format!("(;GM[1]{})", t.trim_start_matches(';')) };
        let mut stones = Vec::new();
        for ev in kifu::sgf::Reader::new(sgf.as_bytes()) {
            match ev {
                Ok(kifu::Event::Setup(kifu::Setup::Go { color: Some(c), point })) => stones.push((point.x, point.y, c)),
                Ok(kifu::Event::GameEnd { .. }) => break,
                Ok(_) => {}
                Err(e) => return Err(Error::usage(format!("pattern: {}", e.message()))),
            }
        }
        let (x0, y0, x1, y1) = match region {
            Some(r) => {
                let pt = |s: &str| {
                    let b = s.trim().as_bytes();
                    (b.len() == 2 && b.iter().all(u8::is_ascii_lowercase)).then(|| (b[0] - b'a', b[1] - b'a'))
                };
                let (a, b) = r.split_once(':').unwrap_or((r, r));
                let (Some(a), Some(b)) = (pt(a), pt(b)) else {
                    return Err(Error::usage(format!("pattern region `{r}`: expected two SGF points, `aa:gg`")));
                };
                (a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1))
            }
            None => {
                if stones.is_empty() {
                    return Err(Error::usage("pattern: no stones and no region".to_owned()));
                }
                let xs = stones.iter().map(|s| s.0);
                let ys = stones.iter().map(|s| s.1);
                (
                    xs.clone().min().unwrap_or(0),
                    ys.clone().min().unwrap_or(0),
                    xs.max().unwrap_or(0),
                    ys.max().unwrap_or(0),
                )
            }
        };
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        if w as usize > N || h as usize > N || x1 as usize >= N || y1 as usize >= N {
            return Err(Error::usage("pattern: the region is larger than a board".to_owned()));
        }
        let mut cells = vec![EMPTY; w as usize * h as usize];
        for (x, y, c) in stones {
            if (x0..=x1).contains(&x) && (y0..=y1).contains(&y) {
                cells[(x - x0) as usize + w as usize * (y - y0) as usize] = code(Some(c));
            }
        }
        Ok(Pattern { width: w, height: h, cells, anchor: Anchor::Fixed(x0, y0), swap_colors: false })
    }

    /// Columns and rows.
    pub fn size(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    /// The pattern as a diagram, rows joined by `/`.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for (i, row) in self.cells.chunks(self.width as usize).enumerate() {
            if i > 0 {
                s.push('/');
            }
            s.extend(row.iter().map(|&c| ['.', 'X', 'O', '*'][c as usize & 3]));
        }
        s
    }

    /// Where a continuation inside the pattern is shown: the pattern's top left point.
    fn origin(&self) -> (u8, u8) {
        match self.anchor {
            Anchor::Fixed(x, y) => (x, y),
            _ => (0, 0),
        }
    }
}

/// One way the pattern can sit on a board.
#[derive(Clone, Copy, Debug)]
struct Placement {
    sym: u8,
    x: u8,
    y: u8,
    swap: bool,
}

/// A pattern's placements on one board size, and for every point the placements that cover it
/// with what each needs there.
struct Tables {
    size: (u8, u8),
    placements: Vec<Placement>,
    /// For point `i` (`x + 52 y`), its entries are `entries[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    entries: Vec<(u32, u8)>,
    /// Points that do not match on the empty board, per placement.
    initial: Vec<u16>,
    initial_zeros: u32,
}

impl Tables {
    fn new(p: &Pattern, (w, h): (u8, u8)) -> Tables {
        let (pw, ph) = (p.width, p.height);
        let mut placements = Vec::new();
        for sym in 0..8u8 {
            let (bw, bh) = dims(sym, w, h);
            if pw > bw || ph > bh {
                continue;
            }
            let offsets: Vec<(u8, u8)> = match p.anchor {
                Anchor::Corner => vec![(0, 0)],
                Anchor::Side => (0..=bw - pw).map(|x| (x, 0)).collect(),
                Anchor::Anywhere => (0..=bh - ph).flat_map(|y| (0..=bw - pw).map(move |x| (x, y))).collect(),
                Anchor::Fixed(x, y) => {
                    if x as usize + pw as usize <= bw as usize && y as usize + ph as usize <= bh as usize {
                        vec![(x, y)]
                    } else {
                        vec![]
                    }
                }
            };
            for (x, y) in offsets {
                for swap in [false, true] {
                    if !swap || p.swap_colors {
                        placements.push(Placement { sym, x, y, swap });
                    }
                }
            }
        }
        let mut per_point: Vec<Vec<(u32, u8)>> = vec![Vec::new(); N * N];
        let mut initial = Vec::with_capacity(placements.len());
        for (k, pl) in placements.iter().enumerate() {
            let mut stones = 0u16;
            for cy in 0..ph {
                for cx in 0..pw {
                    let mut need = p.cells[cx as usize + pw as usize * cy as usize];
                    if need == ANY {
                        continue;
                    }
                    if pl.swap && need != EMPTY {
                        need = 3 - need;
                    }
                    stones += (need != EMPTY) as u16;
                    let (gx, gy) = invert(pl.sym, (w, h), (pl.x + cx, pl.y + cy));
                    per_point[gx as usize + N * gy as usize].push((k as u32, need));
                }
            }
            initial.push(stones);
        }
        let mut start = Vec::with_capacity(N * N + 1);
        let mut entries = Vec::new();
        for list in &per_point {
            start.push(entries.len() as u32);
            entries.extend_from_slice(list);
        }
        start.push(entries.len() as u32);
        let initial_zeros = initial.iter().filter(|&&m| m == 0).count() as u32;
        Tables { size: (w, h), placements, start, entries, initial, initial_zeros }
    }
}

/// A replay of one game against the tables: the grid and each placement's mismatches.
struct Scan {
    grid: Vec<u8>,
    mismatches: Vec<u16>,
    zeros: u32,
}

impl Scan {
    fn reset(&mut self, t: &Tables) {
        self.grid.clear();
        self.grid.resize(N * N, 0);
        self.mismatches.clear();
        self.mismatches.extend_from_slice(&t.initial);
        self.zeros = t.initial_zeros;
    }

    #[inline]
    fn change(&mut self, t: &Tables, p: usize, new: u8) {
        let Some(old) = self.grid.get_mut(p) else { return };
        if *old == new {
            return;
        }
        let old = std::mem::replace(old, new);
        let (Some(&a), Some(&b)) = (t.start.get(p), t.start.get(p + 1)) else { return };
        for &(k, need) in t.entries.get(a as usize..b as usize).unwrap_or_default() {
            let (was, is) = (old != need, new != need);
            if was == is {
                continue;
            }
            let Some(m) = self.mismatches.get_mut(k as usize) else { continue };
            if is {
                self.zeros -= (*m == 0) as u32;
                *m += 1;
            } else {
                *m = m.saturating_sub(1);
                self.zeros += (*m == 0) as u32;
            }
        }
    }
}

/// The pattern's tables for each board size met, made when first needed.
struct Matcher<'p> {
    pattern: &'p Pattern,
    tables: Vec<Tables>,
    scan: Scan,
}

/// Where the pattern first appears in a game: the position's number, the matching placements
/// and the move played next (colour, point) in the game's orientation.
struct Found {
    number: u32,
    size: (u8, u8),
    placements: Vec<Placement>,
    next: Option<(Color, u16)>,
}

impl<'p> Matcher<'p> {
    fn new(pattern: &'p Pattern) -> Matcher<'p> {
        Matcher { pattern, tables: Vec::new(), scan: Scan { grid: Vec::new(), mismatches: Vec::new(), zeros: 0 } }
    }

    fn table_for(&mut self, size: (u8, u8)) -> usize {
        match self.tables.iter().position(|t| t.size == size) {
            Some(i) => i,
            None => {
                self.tables.push(Tables::new(self.pattern, size));
                self.tables.len() - 1
            }
        }
    }

    /// Replays a game's pattern column; where the pattern first appears, if it does.
    fn first(&mut self, ops: &[u8]) -> Option<Found> {
        let mut t = usize::MAX;
        let mut number = 0u32;
        let mut i = 0;
        let found_at = loop {
            let Some(s) = ops.get(i..i + 2) else {
                break (t != usize::MAX && self.scan.zeros > 0).then_some(i);
            };
            let op = u16::from_le_bytes([s[0], s[1]]);
            let (kind, p) = (op >> 12, (op & 0xFFF) as usize);
            if kind == SIZE {
                let size = ((p & 63) as u8 + 1, ((p >> 6) & 63) as u8 + 1);
                if size.0 as usize > N || size.1 as usize > N {
                    return None;
                }
                t = self.table_for(size);
                self.scan.reset(&self.tables[t]);
                i += 2;
                continue;
            }
            let table = self.tables.get(t)?;
            match kind {
                0..=3 => {
                    if self.scan.zeros > 0 {
                        break Some(i);
                    }
                    number += 1;
                    if kind < 2 {
                        self.scan.change(table, p, kind as u8 + 1);
                    }
                }
                TAKE => self.scan.change(table, p, 0),
                5..=7 => self.scan.change(table, p, [1, 2, 0][kind as usize - 5]),
                _ => {}
            }
            i += 2;
        }?;
        let table = &self.tables[t];
        let placements =
            table.placements.iter().zip(&self.scan.mismatches).filter(|(_, &m)| m == 0).map(|(p, _)| *p).collect();
        let next = ops.get(found_at..found_at + 2).map(|s| {
            let op = u16::from_le_bytes([s[0], s[1]]);
            (if op >> 12 & 1 == 0 { Color::Black } else { Color::White }, op & 0xFFF)
        });
        Some(Found { number, size: table.size, placements, next })
    }
}

/// A continuation as seen from the pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternMove {
    /// A move inside the pattern's region, at its place in the pattern's frame.
    At(Color, Point),
    /// A move outside the region.
    Tenuki(Color),
    /// A pass.
    Pass(Color),
    /// The game ended there.
    End,
}

impl PatternMove {
    /// `B[cd]`, `B tenuki`, `B[]` or `end`.
    pub fn text(&self) -> String {
        let c = |c: &Color| if *c == Color::Black { 'B' } else { 'W' };
        match self {
            PatternMove::At(color, p) => crate::move_text(Some(Move::Go { color: *color, point: Some(*p) })),
            PatternMove::Tenuki(color) => format!("{} tenuki", c(color)),
            PatternMove::Pass(color) => format!("{}[]", c(color)),
            PatternMove::End => "end".to_owned(),
        }
    }
}

/// The continuation and whether the colours were swapped, for a game where the pattern was
/// found (see the [module docs](self)).
fn continuation(p: &Pattern, f: &Found) -> (PatternMove, bool) {
    let swapped = f.placements.iter().all(|pl| pl.swap);
    let flip = |c: Color| if swapped { c.opponent() } else { c };
    let Some((c, point)) = f.next else { return (PatternMove::End, swapped) };
    if point == PASS {
        return (PatternMove::Pass(flip(c)), swapped);
    }
    let (x, y) = ((point as usize % N) as u8, (point as usize / N) as u8);
    let (w, h) = f.size;
    if point >= OFF || x >= w || y >= h {
        return (PatternMove::Tenuki(flip(c)), swapped);
    }
    let (ox, oy) = p.origin();
    let best = f
        .placements
        .iter()
        .filter(|pl| pl.swap == swapped)
        .filter_map(|pl| {
            let (tx, ty) = apply(pl.sym, (w, h), (x, y));
            let (rx, ry) = (tx.checked_sub(pl.x)?, ty.checked_sub(pl.y)?);
            (rx < p.width && ry < p.height).then_some((ry as u16 + oy as u16, rx as u16 + ox as u16))
        })
        .min();
    match best {
        Some((ry, rx)) => (PatternMove::At(flip(c), Point::new(rx as u8, ry as u8)), swapped),
        None => (PatternMove::Tenuki(flip(c)), swapped),
    }
}

/// A game where the pattern appears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternHit {
    /// The game, as [`find`](crate::find) gives it.
    pub hit: Hit,
    /// Moves played before the position where the pattern first appears.
    pub number: u32,
    /// The move played there, seen from the pattern.
    pub next: PatternMove,
    /// It appeared only with the colours swapped.
    pub swapped: bool,
}

/// One line of the continuation table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternContinuation {
    /// The move, seen from the pattern.
    pub next: PatternMove,
    /// Games that played it.
    pub games: u64,
    /// Of them, won by the pattern's Black (Black, or White when the colours were swapped).
    pub black_wins: u64,
    /// Won by the pattern's White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
}

/// What [`find_pattern`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSearch {
    /// The games (at most the query's limit), ordered as [`find`](crate::find) orders them.
    pub hits: Vec<PatternHit>,
    /// Games where the pattern appears and the other filters hold (all of them, whatever the
    /// limit).
    pub games: u64,
    /// The continuation table over those games, most played first.
    pub moves: Vec<PatternContinuation>,
    /// Go games replayed.
    pub scanned: u64,
}

/// The games of the index where `pattern` appears and `query` holds, with the continuation
/// table. Streams the `games` rows (memory: the matches only).
///
/// - A position is the board before a move (numbered by the moves before it; 0 is the start
///   with its setup) or the final one; [`PatternHit::number`] is the first position where some
///   placement of the pattern (a symmetry of the board, an offset its [`Anchor`] allows, the
///   colours swapped when [`Pattern::swap_colors`] is set) matches.
/// - The continuation is the next move seen from the pattern: inside the matched region, at its
///   place in the pattern's frame (a corner pattern: the board with the pattern in its top left
///   corner; [`Anchor::Fixed`]: where the region is; otherwise relative to the pattern's top
///   left, `aa`); outside it, a tenuki; when several placements match, the first inside in SGF
///   order (row, then column), so that a game and its rotated copies agree.
/// - Colour-swapped placements count only where no placement with the pattern's own colours
///   matches; the move's colour and the winner are then swapped (wins are the pattern's
///   Black's and White's).
/// - Only Go games indexed with positions have the pattern column (`Options::positions`).
pub fn find_pattern(conn: &Connection, pattern: &Pattern, query: &Query) -> Result<PatternSearch, Error> {
    let mut hits = Vec::new();
    let mut search = find_pattern_each(conn, pattern, query, |h| {
        hits.push(h);
        ControlFlow::Continue(())
    })?;
    search.hits = hits;
    Ok(search)
}

/// [`find_pattern`], its games handed to `each` as their rows are read (at most the query's
/// limit of them, in the same order; none after `each` breaks) rather than collected: the
/// [`PatternSearch`] it gives has every count and the whole continuation table, and no
/// [`hits`](PatternSearch::hits). Memory: the matches' move numbers and moves, not their
/// rows (`kifu find --pattern` of a 4-4 point over a million games, 769,182 matches: 60 MB at
/// its peak, where collecting them took 970 MB).
pub fn find_pattern_each(
    conn: &Connection,
    pattern: &Pattern,
    query: &Query,
    mut each: impl FnMut(PatternHit) -> ControlFlow<()>,
) -> Result<PatternSearch, Error> {
    let mut m = Matcher::new(pattern);
    // (game id, number, next, swapped, winner relative to the pattern: 0 none, 1 B, 2 W, 3
    // draw), sorted by id: a sorted list, not a map (a third of the memory, on a million games).
    let mut found: Vec<(u64, u32, PatternMove, bool, u8)> = Vec::new();
    let mut scanned = 0;
    {
        let mut st = conn.prepare("SELECT id, winner, pattern FROM games WHERE pattern IS NOT NULL")?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let blob = match r.get_ref(2)? {
                rusqlite::types::ValueRef::Blob(b) => b,
                _ => continue,
            };
            scanned += 1;
            let Some(f) = m.first(blob) else { continue };
            let (next, swapped) = continuation(pattern, &f);
            let mut winner = match r.get_ref(1)? {
                rusqlite::types::ValueRef::Text(b"B") => 1,
                rusqlite::types::ValueRef::Text(b"W") => 2,
                rusqlite::types::ValueRef::Text(b"draw") => 3,
                _ => 0,
            };
            if swapped && winner & 3 != 0 && winner != 3 {
                winner = 3 - winner;
            }
            found.push((r.get::<_, i64>(0)? as u64, f.number, next, swapped, winner));
        }
    }
    // (In id order already when SQLite reads the table in rowid order, as it does.)
    found.sort_unstable_by_key(|f| f.0);
    let ids: Vec<u64> = found.iter().map(|f| f.0).collect();
    let all = Query { limit: None, ..query.clone() };
    let mut table: HashMap<PatternMove, PatternContinuation> = HashMap::new();
    let (mut games, mut handed, mut open) = (0u64, 0u64, true);
    let limit = query.limit.unwrap_or(u64::MAX);
    if !ids.is_empty() {
        find_in_each(conn, &all, Some(&ids), &mut |id, hit| {
            let Ok(at) = ids.binary_search(&(id as u64)) else {
                return ControlFlow::Continue(());
            };
            let (_, number, next, swapped, winner) = found[at];
            let c = table.entry(next).or_insert(PatternContinuation {
                next,
                games: 0,
                black_wins: 0,
                white_wins: 0,
                draws: 0,
            });
            c.games += 1;
            c.black_wins += (winner == 1) as u64;
            c.white_wins += (winner == 2) as u64;
            c.draws += (winner == 3) as u64;
            games += 1;
            // Every game counts in the table; the first `limit` are handed on.
            if open && handed < limit {
                handed += 1;
                open = each(PatternHit { hit, number, next, swapped }).is_continue();
            }
            ControlFlow::Continue(())
        })?;
    }
    let mut moves: Vec<PatternContinuation> = table.into_values().collect();
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.next.text().cmp(&b.next.text())));
    Ok(PatternSearch { hits: Vec::new(), games, moves, scanned })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams() {
        let p = Pattern::from_diagram("X.O\n*..\n", Anchor::Corner).unwrap();
        assert_eq!((p.size(), p.diagram()), ((3, 2), "X.O/*..".to_owned()));
        assert!(Pattern::from_diagram("X./X", Anchor::Corner).is_err());
        assert!(Pattern::from_diagram("XQ", Anchor::Corner).is_err());
        assert!(Pattern::from_diagram("", Anchor::Corner).is_err());
        let q = Pattern::from_sgf("AB[cc]AW[dc]", Some("aa:dd")).unwrap();
        assert_eq!((q.diagram(), q.anchor), ("..../..../..XO/....".to_owned(), Anchor::Fixed(0, 0)));
    }

    #[test]
    fn next_moves_decode() {
        for sym in 0..8 {
            for &(x, y) in &[(0u8, 0u8), (3, 15), (18, 2)] {
                let n = crate::position::go_next(Color::White, Some((x, y)), sym, (19, 19));
                assert_eq!(decode_next(n, (19, 19)), Some((Color::White, x as u16 + 52 * y as u16)));
            }
        }
        assert_eq!(
            decode_next(crate::position::go_next(Color::Black, None, 3, (19, 19)), (19, 19)),
            Some((Color::Black, PASS))
        );
        assert_eq!(decode_next(5, (19, 19)), None);
    }
}
