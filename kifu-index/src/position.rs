//! The final position of a game: its main line's board-changing events, recorded while the
//! game is read ([`Moves`]) and replayed when it ends on the boards of `kifu::position`
//! ([`Moves::replay`]), on the thread that read it.
//!
//! Recording first keeps the boards out of the reading loop (a push per main-line move; side
//! variations never reach a board). The replay (a Go board's captures, a shogi position's
//! legality checks) is about 0.7 G of the 4.5 G instructions of a `kifu index` run over the
//! corpus, and stays on the reading threads: `--threads N` is what the run may use, N readers
//! and a writer that only writes (a fifth of a core). An earlier version let the writer replay
//! games when the machine had a core besides the readers: one reader on two cores finished in
//! 0.41 s rather than 0.48 s (medians of 11 runs), by taking a second core that `--threads 1`
//! had not asked for.
//!
//! With variations (`kifu index --variations`) the same list holds every node's steps, with the
//! tree's shape beside them ([`Mark`]s); `variations` replays that, and copies the main line's
//! steps out for [`Moves::replay`] and [`Moves::visit`].

use crate::symmetry::GoHash;
use kifu::position::go::{parse_size, ReplayOptions, Replayer, Rules};
use kifu::position::shogi::{ShogiPosition, SFEN_MAX};
use kifu::{Color, Event, InfoKey, Move, Setup};
use std::cell::RefCell;

thread_local! {
    /// This thread's Go replayer, kept from game to game so that its board is allocated once
    /// ([`Replayer::finish_game`]).
    static GO: RefCell<Replayer> = RefCell::new(Replayer::new(ReplayOptions::default()));
}

/// One main-line event that changes a board, owned (it outlives the input it was read from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A move, Go or shogi.
    Move(Move),
    /// Setup: a stone or piece placed or removed.
    Setup(Setup),
    /// The side to move.
    Turn(Color),
    /// Go: the board size (`None`: unreadable).
    Size(Option<(u8, u8)>),
    /// Go: the rules, as far as suicide goes.
    Rules(Rules),
    /// Shogi: a move the reader skipped with its turn passing (a KI2 move no piece can make, a
    /// KIF, KI2 or CSA move that does not read: see [`kifu::WarningKind::passes_turn`]); the other
    /// side is to move.
    Pass,
}

/// Passes the turn of `pos` to the other side.
pub(crate) fn pass_turn(pos: &mut ShogiPosition) {
    let _ = pos.apply(&Event::Turn(pos.side_to_move().opponent()));
}

/// With variations (`variations`), the tree's shape between the steps: a node, a variation's
/// start and end, each with whether the events after it are on the main line. Kept beside the
/// steps (not among them: the main line's replay stays as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A node starts (the events after it are its own; `main`: it is on the main line).
    Node { main: bool },
    /// A variation starts (`sibling`: [`kifu::Branch::Sibling`]); `main` as for a node.
    Branch { sibling: bool, main: bool },
    /// A variation ends; `main` as for a node.
    BranchEnd { main: bool },
}

impl Step {
    /// The event a board takes for this step (a move, setup or the side to move); `None` for
    /// the board size and rules, which the Go replayer takes by their own calls.
    pub(crate) fn event(self) -> Option<Event<'static>> {
        match self {
            Step::Move(m) => Some(Event::Move(m)),
            Step::Setup(s) => Some(Event::Setup(s)),
            Step::Turn(c) => Some(Event::Turn(c)),
            Step::Size(_) | Step::Rules(_) | Step::Pass => None,
        }
    }
}

/// A game's main line as far as its boards go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    steps: Vec<Step>,
    /// With variations: the tree's marks, each before the step at its index.
    marks: Vec<(u32, Mark)>,
}

/// What the replay gives: stones captured by Black and White (Go), and a hash of the final
/// position (Go: the board's Zobrist hash; shogi: xxh3-64 of the SFEN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Final {
    pub captures: Option<(u32, u32)>,
    pub hash: Option<u64>,
}

impl Moves {
    /// Starts a new game, keeping the allocation.
    pub fn clear(&mut self) {
        self.steps.clear();
        self.marks.clear();
    }

    /// Records a main-line move.
    #[inline]
    pub fn push_move(&mut self, m: Move) {
        self.steps.push(Step::Move(m));
    }

    /// Records one step as it is (a step of another list).
    pub(crate) fn push_step(&mut self, s: Step) {
        self.steps.push(s);
    }

    /// Records a mark of the tree's shape before the next step.
    pub(crate) fn push_mark(&mut self, m: Mark) {
        self.marks.push((self.steps.len().min(u32::MAX as usize) as u32, m));
    }

    /// The steps recorded, and the marks between them.
    pub(crate) fn steps(&self) -> (&[Step], &[(u32, Mark)]) {
        (&self.steps, &self.marks)
    }

    /// Records a main-line event other than a move, when it changes a board (setup, turn,
    /// board size, rules, a shogi move skipped with its turn passing); ignores the rest.
    #[inline(always)]
    pub fn push_event(&mut self, ev: &Event<'_>) {
        let step = match *ev {
            Event::Move(m) => Step::Move(m),
            Event::Setup(s) => Step::Setup(s),
            Event::Turn(c) => Step::Turn(c),
            Event::Warning(w) if w.kind.passes_turn() => Step::Pass,
            Event::Info(i) if i.key() == InfoKey::BoardSize => Step::Size(parse_size(i.value().raw())),
            Event::Info(i) if i.key() == InfoKey::Rules => Step::Rules(Rules::from_name(&i.value().decode().text)),
            _ => return,
        };
        self.steps.push(step);
    }

    /// Replays the steps on a Go board (`shogi == false`) or a shogi position. Illegal moves are
    /// left unplayed (`kifu stats --replay` and `kifu check` report them). With `postings`, also
    /// appends one [`Posting`] per position of the main line (see [`Moves::visit`]).
    pub fn replay(&self, shogi: bool, postings: Option<&mut Vec<Posting>>) -> Final {
        if let Some(out) = postings {
            return self.visit(shogi, |v| {
                out.push(Posting { hash: v.hash, mv: v.number, next: v.next });
                true
            });
        }
        if shogi {
            let mut pos = ShogiPosition::new();
            for &s in &self.steps {
                if let Step::Move(Move::Shogi(m)) = s {
                    let _ = pos.play(m);
                } else if s == Step::Pass {
                    pass_turn(&mut pos);
                } else if let Some(ev) = s.event() {
                    let _ = pos.apply(&ev);
                }
            }
            let mut sfen = [0; SFEN_MAX];
            return Final { captures: None, hash: Some(xxhash_rust::xxh3::xxh3_64(pos.sfen_bytes(&mut sfen))) };
        }
        GO.with_borrow_mut(|go| {
            let mut i = 0;
            loop {
                // A run of Go moves (most steps) in one call, then the step that ends it.
                let run = self.steps.get(i..).unwrap_or_default().iter();
                i += go.play_all(run.map_while(|s| match *s {
                    Step::Move(Move::Go { color, point }) => Some((color, point)),
                    _ => None,
                }));
                let Some(&s) = self.steps.get(i) else { break };
                i += 1;
                match s {
                    Step::Size(size) => go.set_size(size),
                    Step::Rules(r) => go.set_rules(r),
                    _ => {
                        if let Some(ev) = s.event() {
                            go.event(&ev);
                        }
                    }
                }
            }
            let r = go.finish_game();
            Final { captures: Some(r.captures), hash: Some(r.hash) }
        })
    }

    /// Replays the steps as [`Moves::replay`] does and shows `visit` every position of the main
    /// line: the one before each move (with that move as `next`), then the final one (`next`
    /// 0). A position is the board after the moves before it and the setup since (a Go
    /// position: the stones and the board size, see `symmetry`; shogi: what the SFEN holds,
    /// board, side to move and hands, see [`shogi_zobrist`]). Moves are numbered among the game's moves of its own kind (a shogi move in
    /// a Go game, or the reverse, is skipped), from 0. `visit` returns `false` to stop.
    pub fn visit(&self, shogi: bool, mut visit: impl FnMut(&Visit<'_>) -> bool) -> Final {
        if shogi {
            let mut pos = ShogiPosition::new();
            let mut hash = shogi_zobrist(&pos);
            // Setup changed the position since `hash` was made: it is made afresh once, before
            // the next move (a CSA game's starting position is forty setup events).
            let mut stale = false;
            let mut number = 0;
            let mut go_on = true;
            for &s in &self.steps {
                if let Step::Move(Move::Shogi(m)) = s {
                    if stale {
                        hash = shogi_zobrist(&pos);
                        stale = false;
                    }
                    if go_on {
                        go_on = visit(&Visit {
                            hash,
                            sym: 0,
                            number,
                            next: shogi_next(m),
                            go: None,
                            play: None,
                            board: None,
                            shogi: Some(&pos),
                        });
                    }
                    number += 1;
                    // What the move can change: its squares, the mover's hand, the side to move.
                    let part = |pos: &ShogiPosition| {
                        let mut h = m.from.map_or(0, |f| square_key(pos, f)) ^ square_key(pos, m.to);
                        h ^= hand_keys(pos, m.color);
                        h ^ side_key(pos)
                    };
                    let before = part(&pos);
                    if pos.play(m).is_ok() {
                        hash ^= before ^ part(&pos);
                    }
                } else if s == Step::Pass {
                    let before = side_key(&pos);
                    pass_turn(&mut pos);
                    hash ^= before ^ side_key(&pos);
                } else if let Some(ev) = s.event() {
                    let _ = pos.apply(&ev);
                    stale = true;
                }
            }
            if stale {
                hash = shogi_zobrist(&pos);
            }
            if go_on {
                visit(&Visit { hash, sym: 0, number, next: 0, go: None, play: None, board: None, shogi: Some(&pos) });
            }
            let mut sfen = [0; SFEN_MAX];
            return Final { captures: None, hash: Some(xxhash_rust::xxh3::xxh3_64(pos.sfen_bytes(&mut sfen))) };
        }
        GO.with_borrow_mut(|go| {
            HASH.with_borrow_mut(|sym| {
                let mut size = (19, 19);
                sym.reset(19, 19);
                let mut number = 0;
                let mut go_on = true;
                for &s in &self.steps {
                    match s {
                        Step::Move(Move::Go { color, point }) => {
                            if go_on {
                                let (hash, s) = sym.key();
                                let next = go_next(color, point.map(|p| (p.x, p.y)), s, sym.size());
                                go_on = visit(&Visit {
                                    hash,
                                    sym: s,
                                    number,
                                    next,
                                    go: Some(sym),
                                    play: Some((color, point)),
                                    board: go.board(),
                                    shogi: None,
                                });
                            }
                            number += 1;
                            let illegal = go.play(color, point);
                            match (illegal, point, go.board()) {
                                (false, Some(p), Some(b)) if go_on => sym.after_move(b, color, p.x, p.y),
                                _ => {}
                            }
                        }
                        Step::Move(Move::Shogi(_)) => {}
                        Step::Size(sz) => {
                            go.set_size(sz);
                            size = sz.unwrap_or(size);
                            resync(go, sym, size);
                        }
                        Step::Rules(r) => go.set_rules(r),
                        _ => {
                            if let Some(ev) = s.event() {
                                go.event(&ev);
                            }
                            resync(go, sym, size);
                        }
                    }
                }
                if go_on {
                    let (hash, s) = sym.key();
                    visit(&Visit {
                        hash,
                        sym: s,
                        number,
                        next: s as u32,
                        go: Some(sym),
                        play: None,
                        board: go.board(),
                        shogi: None,
                    });
                }
                let r = go.finish_game();
                Final { captures: Some(r.captures), hash: Some(r.hash) }
            })
        })
    }
}

/// This thread's Go replayer and symmetric hashes (those [`Moves::visit`] uses), for a replay of
/// its own; it must leave the replayer as [`Replayer::finish_game`] does.
pub(crate) fn with_go<R>(f: impl FnOnce(&mut Replayer, &mut GoHash) -> R) -> R {
    GO.with_borrow_mut(|go| HASH.with_borrow_mut(|sym| f(go, sym)))
}

/// Makes the hashes follow the library's board after a step other than a move.
pub(crate) fn resync(go: &Replayer, sym: &mut GoHash, size: (u8, u8)) {
    match go.board() {
        Some(b) => sym.load(b),
        None => sym.reset(size.0, size.1),
    }
}

thread_local! {
    /// This thread's symmetric hashes, kept from game to game.
    static HASH: RefCell<GoHash> = RefCell::new(GoHash::default());
}

/// One position of a game's main line as the index stores it: its hash, the number of moves
/// before it, and the move played next with the symmetry (see [`go_next`], [`shogi_next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posting {
    pub hash: u64,
    pub mv: u32,
    pub next: u32,
}

/// A position shown by [`Moves::visit`].
pub struct Visit<'a> {
    /// The position's hash (Go: the smallest of the eight symmetric hashes; shogi: see
    /// [`shogi_zobrist`]).
    pub hash: u64,
    /// Go: the symmetry that takes the game's board to the canonical one.
    pub sym: u8,
    /// Moves before this position.
    pub number: u32,
    /// The move played next, encoded ([`go_next`], [`shogi_next`]); 0 (Go: the symmetry alone)
    /// at the end.
    pub next: u32,
    /// Go: the board's eight hashes.
    pub go: Option<&'a GoHash>,
    /// Go: the move played next as the game has it (colour, point; `None` for a pass), `None`
    /// at the end: what `next` encodes, before the symmetry (read by `pattern`).
    pub play: Option<(Color, Option<kifu::Point>)>,
    /// Go: the library's board (`None` before the first stone: empty); read by `pattern`.
    pub board: Option<&'a kifu::position::go::Board>,
    /// Shogi: the position.
    pub shogi: Option<&'a ShogiPosition>,
}

/// A shogi position's hash: a Zobrist hash of what its SFEN holds — a key per (square,
/// colour, piece), per (colour, piece in hand, count) and one for White to move, XORed — so
/// equal SFENs (board, side to move, hands) give equal hashes. Kept move by move (the squares
/// a move touches, the mover's hand, the side: `Moves::visit`), made afresh after setup; a
/// tenth of the cost of writing and hashing each position's SFEN.
pub fn shogi_zobrist(pos: &ShogiPosition) -> u64 {
    let mut h = side_key(pos);
    for file in 1..=9 {
        for rank in 1..=9 {
            h ^= square_key(pos, kifu::Square::new(file, rank));
        }
    }
    h ^ hand_keys(pos, Color::Black) ^ hand_keys(pos, Color::White)
}

const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays a shogi move on `pos` and keeps `hash` (its [`shogi_zobrist`]) up to date, as
/// [`Moves::visit`] does; an illegal move is left unplayed.
pub(crate) fn shogi_play(pos: &mut ShogiPosition, hash: &mut u64, m: kifu::ShogiMove) {
    let part = |pos: &ShogiPosition| {
        let mut h = m.from.map_or(0, |f| square_key(pos, f)) ^ square_key(pos, m.to);
        h ^= hand_keys(pos, m.color);
        h ^ side_key(pos)
    };
    let before = part(pos);
    if pos.play(m).is_ok() {
        *hash ^= before ^ part(pos);
    }
}

/// The key of a piece on a square: `mix(0x7368_6f67_6900_0000 ^ (at * 14 + piece))`, where
/// `at` is `(file * 10 + rank) * 2`, plus 1 for White, and `piece` its index in
/// [`kifu::Piece::ALL`]; made once, at compile time (a hash of a move looks up four).
static SQUARE_KEYS: [u64; 200 * 14] = {
    let mut t = [0; 200 * 14];
    let mut k = 0;
    while k < t.len() {
        t[k] = mix(0x7368_6f67_6900_0000 ^ k as u64);
        k += 1;
    }
    t
};

/// The key of `n` pieces of a kind in a hand, for `n` below 32:
/// `mix(0x6861_6e64_0000_0000 ^ (kind << 16 | n))`, where `kind` is the piece's index in
/// [`kifu::Piece::ALL`], plus 7 for White; made once, at compile time.
static HAND_KEYS: [[u64; 32]; 14] = {
    let mut t = [[0; 32]; 14];
    let mut kind = 0;
    while kind < 14 {
        let mut n = 0;
        while n < 32 {
            t[kind][n] = mix(0x6861_6e64_0000_0000 ^ ((kind as u64) << 16 | n as u64));
            n += 1;
        }
        kind += 1;
    }
    t
};

/// The key of what stands on `sq` (0 when empty).
#[inline]
fn square_key(pos: &ShogiPosition, sq: kifu::Square) -> u64 {
    let Some((c, p)) = pos.get(sq) else { return 0 };
    // `Piece` is declared in the order of `Piece::ALL`.
    let at = (sq.file as usize * 10 + sq.rank as usize) * 2 + (c == Color::White) as usize;
    SQUARE_KEYS.get(at * 14 + p as usize).copied().unwrap_or(0)
}

/// The keys of `color`'s hand.
#[inline]
fn hand_keys(pos: &ShogiPosition, color: Color) -> u64 {
    let c = (color == Color::White) as usize;
    kifu::Piece::ALL[..7].iter().enumerate().fold(0, |h, (i, &p)| match pos.hand(color, p) {
        0 => h,
        n => {
            let kind = c * 7 + i;
            h ^ HAND_KEYS[kind]
                .get(n as usize)
                .copied()
                .unwrap_or_else(|| mix(0x6861_6e64_0000_0000 ^ ((kind as u64) << 16 | n as u64)))
        }
    })
}

/// The key of the side to move (0 for Black).
#[inline]
fn side_key(pos: &ShogiPosition) -> u64 {
    if pos.side_to_move() == Color::White {
        mix(0x7369_6465)
    } else {
        0
    }
}

/// A Go move in the canonical orientation, with the symmetry `sym` that took the game's board
/// (of size `size`) there: `code << 3 | sym`, where the code is 1 for Black's pass, 2 for
/// White's, `3 + 2 (X + W Y) + colour` for a point (`X`, `Y` on the canonical `W` × `H` board,
/// colour 0 Black, 1 White); 0 is the end of the game.
pub fn go_next(color: Color, point: Option<(u8, u8)>, sym: u8, size: (u8, u8)) -> u32 {
    let c = (color == Color::White) as u32;
    let code = match point {
        None => 1 + c,
        Some(p) if p.0 < size.0 && p.1 < size.1 => {
            let (x, y) = crate::symmetry::apply(sym, size, p);
            let (w, _) = crate::symmetry::dims(sym, size.0, size.1);
            3 + 2 * (x as u32 + w as u32 * y as u32) + c
        }
        // Off the board (an illegal move): kept as a pass of its colour would not be; as the
        // end (no move) neither: the highest code.
        Some(_) => 3 + 2 * (52 * 52) + c,
    };
    code << 3 | sym as u32
}

/// A shogi move as a number: `1 + ((from × 81 + to) × 14 + piece) × 2 + colour`, where `from`
/// is 0 for a drop and `1 + (file-1) × 9 + rank-1` otherwise, `to` is `(file-1) × 9 + rank-1`,
/// `piece` the piece on `to` after the move (its index in [`kifu::Piece::ALL`]) and colour 0 for
/// Black (sente).
pub fn shogi_next(m: kifu::ShogiMove) -> u32 {
    let sq = |s: kifu::Square| (s.file.clamp(1, 9) as u32 - 1) * 9 + s.rank.clamp(1, 9) as u32 - 1;
    let from = m.from.map_or(0, |f| 1 + sq(f));
    let piece = kifu::Piece::ALL.iter().position(|&p| p == m.piece).unwrap_or(0) as u32;
    1 + ((from * 81 + sq(m.to)) * 14 + piece) * 2 + (m.color == Color::White) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(sgf: &[u8]) -> Moves {
        let mut m = Moves::default();
        for ev in kifu::sgf::Reader::new(sgf) {
            let ev = ev.unwrap();
            match ev {
                Event::Move(mv) => m.push_move(mv),
                _ => m.push_event(&ev),
            }
        }
        m
    }

    /// The recorded steps replay to what the library's replay of the same game gives, game
    /// after game on this thread's one replayer (boards of other sizes and rules before).
    #[test]
    fn replay_equals_the_library_replay() {
        let games: [&[u8]; 6] = [
            b"(;SZ[9]AB[ba];W[aa];B[ab];W[];B[cc])",
            b"(;AB[ba];SZ[5];W[aa];B[ab])",
            b"(;SZ[4]RU[NZ]AB[ba][ab];W[aa])",
            b"(;SZ[4]AB[ba][ab];W[aa])",
            // Setup and an illegal move between runs of moves; then 19×19 without SZ.
            b"(;SZ[5];B[aa];W[aa];B[ab];AW[cc]AE[aa];W[dd];B[ee];W[ed];B[ba];W[de];B[ee])",
            b"(;B[pd];W[dp];B[];W[pd];AB[aa];W[ss];B[ss])",
        ];
        for g in games {
            let want =
                kifu::position::go::replay(&mut kifu::sgf::Reader::new(g), &Default::default()).unwrap().unwrap();
            let got = record(g).replay(false, None);
            assert_eq!(
                got,
                Final { captures: Some(want.captures), hash: Some(want.hash) },
                "{}",
                String::from_utf8_lossy(g)
            );
        }
        // Black's ab captures White's aa; under NZ rules White's suicide is played (a capture
        // for Black), without them it is illegal and left unplayed.
        let captures: Vec<_> = games.iter().map(|g| record(g).replay(false, None).captures).collect();
        assert_eq!(captures, [Some((1, 0)), Some((1, 0)), Some((1, 0)), Some((0, 0)), Some((0, 1)), Some((0, 0))]);
    }

    /// The hash kept move by move equals the hash made afresh, position after position, and
    /// equal SFENs reached by other orders of moves hash alike.
    /// The tables hold the keys their formulas give (the positions files written before them
    /// hashed with the formulas).
    #[test]
    fn shogi_key_tables_hold_the_mixed_keys() {
        for (k, &key) in SQUARE_KEYS.iter().enumerate() {
            assert_eq!(key, mix(0x7368_6f67_6900_0000 ^ k as u64));
        }
        for (kind, row) in HAND_KEYS.iter().enumerate() {
            for (n, &key) in row.iter().enumerate() {
                assert_eq!(key, mix(0x6861_6e64_0000_0000 ^ ((kind as u64) << 16 | n as u64)));
            }
        }
    }

    #[test]
    fn shogi_zobrist_follows_the_moves() {
        let usi = b"position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f B*5e 2f2e 5e7g+ 8i7g 4a3b\n";
        let mut m = Moves::default();
        let mut pos = ShogiPosition::new();
        let mut fresh = Vec::new();
        for ev in kifu::usi::Reader::new(usi) {
            let ev = ev.unwrap();
            if let Event::Move(Move::Shogi(_)) = ev {
                fresh.push(shogi_zobrist(&pos));
            }
            m.push_event(&ev);
            let _ = pos.apply(&ev);
        }
        fresh.push(shogi_zobrist(&pos));
        let mut kept = Vec::new();
        m.visit(true, |v| {
            kept.push(v.hash);
            true
        });
        assert_eq!(kept, fresh);
        assert_eq!(kept.len(), 11);
        let a = b"position startpos moves 7g7f 3c3d 2g2f\n";
        let b = b"position startpos moves 2g2f 3c3d 7g7f\n";
        let last = |usi: &[u8]| {
            let mut m = Moves::default();
            for ev in kifu::usi::Reader::new(usi) {
                m.push_event(&ev.unwrap());
            }
            let mut h = 0;
            m.visit(true, |v| {
                h = v.hash;
                true
            });
            h
        };
        assert_eq!(last(a), last(b));
        assert_ne!(last(a), kept[0]);
    }

    #[test]
    fn shogi_replay_hashes_the_final_sfen() {
        let csa = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n";
        let mut m = Moves::default();
        let mut pos = ShogiPosition::new();
        for ev in kifu::csa::Reader::new(csa) {
            let ev = ev.unwrap();
            m.push_event(&ev);
            let _ = pos.apply(&ev);
        }
        assert_eq!(pos.ply(), 3);
        assert_eq!(m.replay(true, None).hash, Some(xxhash_rust::xxh3::xxh3_64(pos.sfen().as_bytes())));
        assert_eq!(m.replay(true, None).captures, None);
    }
}
