//! A Go board that replays moves and setup, and a replay of a game's main line.
//!
//! [`Board`] keeps the stones of a board up to 52×52 (square or not) with a one-point border, so
//! neighbours need no bounds checks. [`Board::play`] places a stone, removes the opponent's groups
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
//! Costs: a move is O(size of the groups next to it) with a flood fill over reused scratch
//! vectors; nothing allocates after [`Board::new`]. No recursion.
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

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

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

/// Cells of the largest padded board (54 × 54).
const MAX_CELLS: usize = 54 * 54;

/// The Zobrist keys, two per cell, worked out at compile time (46 KiB).
static KEYS: [u64; 2 * MAX_CELLS] = {
    let mut k = [0; 2 * MAX_CELLS];
    let mut i = 0;
    while i < k.len() {
        k[i] = splitmix64(i as u64);
        i += 1;
    }
    k
};

/// The Zobrist key of a stone of `color` (`BLACK`/`WHITE`) at cell `i` of the padded board:
/// `splitmix64(2i + color - 1)`, from a table. Keyed by the cell index (no division on the hot
/// path); the hash's seed holds the board size, so the same position on the same size always
/// hashes alike.
#[inline]
fn key(i: usize, color: u8) -> u64 {
    KEYS[i * 2 + color as usize - 1]
}

/// A Go board; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Board {
    width: u8,
    height: u8,
    /// Row stride of `cells` (width + 2).
    stride: usize,
    /// (width + 2) × (height + 2) cells, with an `EDGE` border.
    cells: Vec<u8>,
    hash: u64,
    /// The point the given colour may not play next (simple ko).
    ko: Option<(usize, u8)>,
    /// Stones captured by Black and by White.
    captures: [u32; 2],
    rules: Rules,
    // Flood-fill scratch: a generation mark per cell, and a stack with room for every cell (a
    // fill pushes a cell at most once: no capacity checks).
    mark: Vec<u32>,
    generation: u32,
    stack: Vec<u16>,
}

impl Board {
    /// An empty board of `width` × `height` (each 1–52) with the default [`Rules`].
    pub fn new(width: u8, height: u8) -> Option<Board> {
        Board::with_rules(width, height, Rules::default())
    }

    /// An empty board with the given rules.
    pub fn with_rules(width: u8, height: u8, rules: Rules) -> Option<Board> {
        if !(1..=52).contains(&width) || !(1..=52).contains(&height) {
            return None;
        }
        let stride = width as usize + 2;
        let len = stride * (height as usize + 2);
        let mut cells = vec![EDGE; len];
        for y in 0..height as usize {
            for x in 0..width as usize {
                cells[(y + 1) * stride + x + 1] = EMPTY;
            }
        }
        Some(Board {
            width,
            height,
            stride,
            cells,
            hash: splitmix64(0x6b69_6675_0000_0000 | (width as u64) << 8 | height as u64),
            ko: None,
            captures: [0, 0],
            rules,
            mark: vec![0; len],
            generation: 0,
            stack: vec![0; len],
        })
    }

    /// Columns and rows.
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
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `color` (removed opponent stones, including those removed by the
    /// opponent's own suicides).
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[(color == Color::White) as usize]
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
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.cells[self.index(p)?] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Number of stones of each colour (Black, White).
    pub fn stones(&self) -> (u32, u32) {
        let b = self.cells.iter().filter(|&&c| c == BLACK).count() as u32;
        let w = self.cells.iter().filter(|&&c| c == WHITE).count() as u32;
        (b, w)
    }

    #[inline]
    fn put(&mut self, i: usize, v: u8) {
        let old = self.cells[i];
        if old == BLACK || old == WHITE {
            self.hash ^= key(i, old);
        }
        if v == BLACK || v == WHITE {
            self.hash ^= key(i, v);
        }
        self.cells[i] = v;
    }

    /// Setup: puts a stone of `color` at `p`, or empties it (`None`), whatever was there, with no
    /// captures. Clears the ko. Returns `false` (and does nothing) off the board.
    pub fn set(&mut self, p: Point, color: Option<Color>) -> bool {
        let Some(i) = self.index(p) else { return false };
        self.put(i, color.map_or(EMPTY, cell));
        self.ko = None;
        true
    }

    /// Plays a move (`None` is a pass). On an illegal move the board is unchanged.
    pub fn play(&mut self, color: Color, point: Option<Point>) -> Result<Played, IllegalKind> {
        let Some(p) = point else {
            self.ko = None;
            return Ok(Played::default());
        };
        let i = self.index(p).ok_or(IllegalKind::OffBoard)?;
        if self.cells[i] != EMPTY {
            return Err(IllegalKind::Occupied);
        }
        let me = cell(color);
        if self.ko == Some((i, me)) {
            return Err(IllegalKind::Ko);
        }
        let them = if me == BLACK { WHITE } else { BLACK };
        self.put(i, me);
        let mut captured = 0;
        let mut last_captured = 0;
        for n in self.neighbours(i) {
            if self.cells[n] == them && !self.has_liberty(n) {
                last_captured = n;
                captured += self.remove_group(n);
            }
        }
        let mut suicided = 0;
        if captured == 0 && !self.has_liberty(i) {
            if !self.rules.allow_suicide {
                self.put(i, EMPTY);
                return Err(IllegalKind::Suicide);
            }
            suicided = self.remove_group(i);
            self.captures[(me == BLACK) as usize] += suicided;
        }
        self.captures[(me == WHITE) as usize] += captured;
        // Simple ko: one stone captured by a lone stone left with that single liberty.
        self.ko = None;
        if captured == 1 && suicided == 0 {
            let lone = self.neighbours(i).into_iter().all(|n| self.cells[n] != me);
            let libs = self.neighbours(i).into_iter().filter(|&n| self.cells[n] == EMPTY).count();
            if lone && libs == 1 {
                self.ko = Some((last_captured, them));
            }
        }
        Ok(Played { captured, suicided })
    }

    /// Whether playing `color` at `point` would be legal now.
    pub fn is_legal(&self, color: Color, point: Option<Point>) -> Result<(), IllegalKind> {
        let mut copy = self.clone();
        copy.play(color, point).map(|_| ())
    }

    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - 1, i + 1, i - self.stride, i + self.stride]
    }

    /// Whether the group at `i` has a liberty: its stone's neighbours first (most stones touch
    /// an empty point; inlined), else a flood fill that stops at the first liberty.
    #[inline(always)]
    fn has_liberty(&mut self, i: usize) -> bool {
        self.neighbours(i).into_iter().any(|n| self.cells[n] == EMPTY) || self.fill_finds_liberty(i)
    }

    #[inline(never)]
    fn fill_finds_liberty(&mut self, i: usize) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        let g = self.generation;
        let colour = self.cells[i];
        self.stack[0] = i as u16;
        let mut top = 1;
        self.mark[i] = g;
        while top > 0 {
            top -= 1;
            let j = self.stack[top] as usize;
            for n in self.neighbours(j) {
                let c = self.cells[n];
                if c == EMPTY {
                    return true;
                }
                if c == colour && self.mark[n] != g {
                    self.mark[n] = g;
                    self.stack[top] = n as u16;
                    top += 1;
                }
            }
        }
        false
    }

    /// Removes the group at `i` (which `has_liberty` found without liberties); returns its size.
    fn remove_group(&mut self, i: usize) -> u32 {
        let colour = self.cells[i];
        self.put(i, EMPTY);
        self.stack[0] = i as u16;
        let mut top = 1;
        let mut n = 1;
        while top > 0 {
            top -= 1;
            let j = self.stack[top] as usize;
            for t in self.neighbours(j) {
                if self.cells[t] == colour {
                    self.put(t, EMPTY);
                    self.stack[top] = t as u16;
                    top += 1;
                    n += 1;
                }
            }
        }
        n
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

/// Replays games event by event; [`replay`] drives it along a main line. Feed it the events of
/// one line of play (no variations).
#[derive(Debug)]
pub struct Replayer {
    options: ReplayOptions,
    board: Option<Board>,
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
            size: (19, 19),
            rules: options.rules.unwrap_or_default(),
            out: Replay::default(),
            moved: false,
        }
    }

    /// The board as it stands (`None` before the first move or setup).
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    fn board_mut(&mut self) -> &mut Board {
        let (size, rules) = (self.size, self.rules);
        self.board.get_or_insert_with(|| {
            Board::with_rules(size.0, size.1, rules).unwrap_or_else(|| Board::new(19, 19).expect("19x19"))
        })
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
            Some(b) => b.play(color, point),
            None => self.board_mut().play(color, point),
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
        if !self.moved {
            if let Some(old) = self.board.take() {
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
        let b = self.board_mut();
        let (hash, captures, size) = (b.hash(), (b.captures(Color::Black), b.captures(Color::White)), b.size());
        self.out.hash = hash;
        self.out.captures = captures;
        self.out.size = size;
        self.out
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
