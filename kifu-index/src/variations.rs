//! Every position of every variation (`kifu index --variations`): a game's board-changing
//! events recorded with its tree's shape (`position::Mark`s, node and variation starts and ends,
//! between the steps where the flat event stream gave them) and replayed when the game ends, without building a
//! tree of the library's and without recursion.
//!
//! # The tree
//! The marks are read as `kifu::tree` builds its tree: node 0 is the game, a node is a child of
//! the current node, a [`Branch::Sibling`](kifu::Branch::Sibling) variation's first node a child
//! of the current node's parent (at the game node, of the game node), and a variation's end goes
//! back to the node before its start; an event belongs to the current node, children come in the
//! order they were read (the first is the main line's). The steps are grouped by node and the
//! children listed (two counting sorts), then the tree is walked depth first with a stack of its
//! own on the heap: one entry per open node of the path and one board snapshot per node of the
//! path with children still to visit (taken before its first child, restored for each later
//! one). A Go snapshot is two bits a point (91 bytes on 19 × 19), restored through setup with
//! the ko rebuilt (see `GoLine::restore`); a shogi position is copied whole. Memory is bounded by
//! the game's size; time is one step per event and one board per branch.
//!
//! # The postings
//! As on the main line (`position::Moves::visit`): before each move, the position with that move
//! as the move played next, numbered by the moves before it on its path (its depth in moves from
//! the game's start); at each leaf, its final position (`next` 0: Go, the symmetry alone). A game
//! passes through a position once in the index: its smallest move number there, and among equal
//! ones the first in the walk's order (the main line before its variations, see [`replay`]).
//!
//! The main line's steps (the marks say which events are on it, as the collector's tracker
//! decided) are copied into a list of their own for the final position and the pattern column,
//! which stay the main line's.

use crate::position::{go_next, resync, shogi_next, shogi_play, shogi_zobrist, with_go, Mark, Moves, Posting, Step};
use crate::symmetry::GoHash;
use kifu::position::go::{Replayer, Rules};
use kifu::position::shogi::ShogiPosition;
use kifu::{Color, Event, Move, Point, Setup};

/// No node.
const NONE: u32 = u32::MAX;

/// A thread's buffers for [`replay`], kept from game to game.
#[derive(Default)]
pub struct Scratch {
    /// Each node's parent (`NONE` for the game node).
    parent: Vec<u32>,
    /// Each step's node.
    owner: Vec<u32>,
    /// The steps' indices grouped by node (a node's from `first[n]` to `first[n + 1]`).
    first: Vec<u32>,
    by_node: Vec<u32>,
    /// The children of each node (from `kid_first[n]` to `kid_first[n + 1]`), in order.
    kid_first: Vec<u32>,
    kids: Vec<u32>,
    /// Where each open variation goes back to, while the marks are read.
    back: Vec<u32>,
    /// The walk: open nodes with their next child.
    path: Vec<(u32, u32)>,
    /// The positions shown, in the walk's order.
    out: Vec<Posting>,
    /// Their hashes, move numbers and places, to keep one a position.
    keep: Vec<(u64, u32, u32)>,
}

/// Replays the game recorded in `steps` and `marks` (the steps of every node, the tree's shape) on a Go board
/// (`shogi == false`) or a shogi position: returns every position of every node, one posting per
/// position (its smallest move number, the first in depth-first order among equal ones), and
/// fills `main` with the main line's steps.
pub fn replay(steps: &[Step], marks: &[(u32, Mark)], shogi: bool, main: &mut Moves, s: &mut Scratch) -> Vec<Posting> {
    shape(steps, marks, main, s);
    s.out.clear();
    if shogi {
        let mut line = ShogiLine::new();
        walk(steps, s, &mut line);
    } else {
        with_go(|go, sym| {
            let mut line = GoLine::new(go, sym);
            walk(steps, s, &mut line);
            go.finish_game();
        });
    }
    // One posting per position: the first of the smallest move number, kept in the walk's
    // order (runs of consecutive move numbers along each path, as the log stores them).
    s.keep.clear();
    s.keep.extend((0..s.out.len() as u32).map(|i| (s.out[i as usize].hash, s.out[i as usize].mv, i)));
    s.keep.sort_unstable();
    s.keep.dedup_by_key(|k| k.0);
    s.keep.sort_unstable_by_key(|k| k.2);
    s.keep.iter().map(|k| s.out[k.2 as usize]).collect()
}

/// Reads the marks into the tree (parents, steps by node, children) and copies the main line's
/// steps into `main`.
fn shape(steps: &[Step], marks: &[(u32, Mark)], main: &mut Moves, s: &mut Scratch) {
    for v in [&mut s.parent, &mut s.owner, &mut s.first, &mut s.by_node, &mut s.kid_first, &mut s.kids, &mut s.back] {
        v.clear();
    }
    s.parent.push(NONE);
    let (mut cur, mut on_main) = (0u32, true);
    let mut marks = marks.iter().peekable();
    for i in 0..=steps.len() {
        while let Some(&(_, mark)) = marks.next_if(|m| m.0 as usize <= i) {
            match mark {
                Mark::Node { main } => {
                    s.parent.push(cur);
                    cur = (s.parent.len() - 1) as u32;
                    on_main = main;
                }
                Mark::Branch { sibling, main } => {
                    s.back.push(cur);
                    if sibling && cur != 0 {
                        cur = s.parent[cur as usize];
                    }
                    on_main = main;
                }
                Mark::BranchEnd { main } => {
                    if let Some(r) = s.back.pop() {
                        cur = r;
                    }
                    on_main = main;
                }
            }
        }
        let Some(&step) = steps.get(i) else { break };
        if on_main {
            main.push_step(step);
        }
        s.owner.push(cur);
    }
    let n = s.parent.len();
    // Steps by node: counts, starts, then the indices in order.
    s.first.resize(n + 1, 0);
    for &o in &s.owner {
        s.first[o as usize + 1] += 1;
    }
    for i in 0..n {
        s.first[i + 1] += s.first[i];
    }
    s.by_node.resize(s.first[n] as usize, 0);
    let mut at: Vec<u32> = s.first[..n].to_vec();
    for (i, &o) in s.owner.iter().enumerate() {
        s.by_node[at[o as usize] as usize] = i as u32;
        at[o as usize] += 1;
    }
    // Children by parent, in the order they were made.
    s.kid_first.resize(n + 1, 0);
    for &p in &s.parent[1..] {
        s.kid_first[p as usize + 1] += 1;
    }
    for i in 0..n {
        s.kid_first[i + 1] += s.kid_first[i];
    }
    s.kids.resize(n - 1, 0);
    at.clear();
    at.extend_from_slice(&s.kid_first[..n]);
    for (c, &p) in s.parent.iter().enumerate().skip(1) {
        s.kids[at[p as usize] as usize] = c as u32;
        at[p as usize] += 1;
    }
}

/// A board that follows one path of the tree.
trait Line {
    /// Applies one step, showing the position before a move.
    fn apply(&mut self, step: Step, out: &mut Vec<Posting>);
    /// Shows the position at the end of a path.
    fn end(&mut self, out: &mut Vec<Posting>);
    /// Keeps the position (a node with children still to visit).
    fn save(&mut self);
    /// Goes back to the last position kept, forgetting it with `pop`.
    fn restore(&mut self, pop: bool);
}

/// Walks the tree depth first, the main line first, without recursion.
fn walk(steps: &[Step], s: &mut Scratch, line: &mut impl Line) {
    visit(steps, s, line, 0);
    if kids(s, 0).is_empty() {
        line.end(&mut s.out);
        return;
    }
    s.path.clear();
    s.path.push((0, 0));
    while let Some(top) = s.path.last_mut() {
        let (x, k) = *top;
        top.1 += 1;
        let range = kids(s, x);
        let count = range.len() as u32;
        if k == count {
            s.path.pop();
            continue;
        }
        if count > 1 {
            if k == 0 {
                line.save();
            } else {
                line.restore(k + 1 == count);
            }
        }
        let child = s.kids[range.start + k as usize];
        visit(steps, s, line, child);
        if kids(s, child).is_empty() {
            line.end(&mut s.out);
        } else {
            s.path.push((child, 0));
        }
    }
}

/// The children of node `n` (their places in `Scratch::kids`).
fn kids(s: &Scratch, n: u32) -> std::ops::Range<usize> {
    s.kid_first[n as usize] as usize..s.kid_first[n as usize + 1] as usize
}

/// Applies node `n`'s steps.
fn visit(steps: &[Step], s: &mut Scratch, line: &mut impl Line, n: u32) {
    for k in s.first[n as usize]..s.first[n as usize + 1] {
        line.apply(steps[s.by_node[k as usize] as usize], &mut s.out);
    }
}

/// A shogi position along a path.
struct ShogiLine {
    pos: ShogiPosition,
    hash: u64,
    /// Setup changed `pos` since `hash` was made: made afresh when next needed (a CSA game's
    /// starting position is forty setup events).
    stale: bool,
    number: u32,
    saved: Vec<(ShogiPosition, u64, u32)>,
}

impl ShogiLine {
    fn new() -> ShogiLine {
        let pos = ShogiPosition::new();
        ShogiLine { pos, hash: shogi_zobrist(&pos), stale: false, number: 0, saved: Vec::new() }
    }

    /// `hash`, made afresh if setup changed the position since.
    fn hash(&mut self) -> u64 {
        if self.stale {
            self.hash = shogi_zobrist(&self.pos);
            self.stale = false;
        }
        self.hash
    }
}

impl Line for ShogiLine {
    fn apply(&mut self, step: Step, out: &mut Vec<Posting>) {
        if let Step::Move(Move::Shogi(m)) = step {
            out.push(Posting { hash: self.hash(), mv: self.number, next: shogi_next(m) });
            self.number += 1;
            shogi_play(&mut self.pos, &mut self.hash, m);
        } else if step == Step::Pass {
            crate::position::pass_turn(&mut self.pos);
            self.stale = true;
        } else if let Some(ev) = step.event() {
            let _ = self.pos.apply(&ev);
            self.stale = true;
        }
    }

    fn end(&mut self, out: &mut Vec<Posting>) {
        out.push(Posting { hash: self.hash(), mv: self.number, next: 0 });
    }

    fn save(&mut self) {
        let hash = self.hash();
        self.saved.push((self.pos, hash, self.number));
    }

    fn restore(&mut self, pop: bool) {
        if let Some(&(pos, hash, number)) = self.saved.last() {
            (self.pos, self.hash, self.number, self.stale) = (pos, hash, number, false);
        }
        if pop {
            self.saved.pop();
        }
    }
}

/// A Go position kept by [`GoLine::save`]: what the replayer and the walk hold, the stones
/// (two bits a point, row by row, in `GoLine::stones` from `at`) and the ko.
struct GoSnap {
    number: u32,
    moved: bool,
    size: (u8, u8),
    rules: Rules,
    /// The board's size when there is one (`None`: no move or setup yet).
    board: Option<(u8, u8)>,
    ko: Option<(Point, Color)>,
    at: usize,
}

/// The library's Go replayer (and the symmetric hashes) along a path, stepped as
/// `Moves::visit` steps them.
struct GoLine<'a> {
    go: &'a mut Replayer,
    sym: &'a mut GoHash,
    number: u32,
    /// A move was played on the path (the replayer then no longer resizes its board).
    moved: bool,
    /// The board size the path last gave (19 × 19 before).
    size: (u8, u8),
    rules: Rules,
    saved: Vec<GoSnap>,
    stones: Vec<u8>,
}

impl<'a> GoLine<'a> {
    fn new(go: &'a mut Replayer, sym: &'a mut GoHash) -> GoLine<'a> {
        sym.reset(19, 19);
        GoLine {
            go,
            sym,
            number: 0,
            moved: false,
            size: (19, 19),
            rules: Rules::default(),
            saved: Vec::new(),
            stones: Vec::new(),
        }
    }

    fn setup(&mut self, point: Point, color: Option<Color>) {
        self.go.event(&Event::Setup(Setup::Go { color, point }));
    }

    /// Plays the move that made the ko `(p, c)` (`c` may not play at `p`) again: its stone at
    /// `q` taken off and the stone it captured put back at `p`, then played, on a board that
    /// otherwise holds the position already. Setup clears a ko; replaying the capture is the
    /// only way to get one back. `q` is a neighbour of `p` holding a lone stone of the other
    /// colour whose one liberty is `p` (as the board's ko rule requires of the capturing stone).
    fn rebuild_ko(&mut self, p: Point, c: Color) -> bool {
        let Some(b) = self.go.board() else { return false };
        let (w, h) = b.size();
        let near = |q: Point| {
            let (x, y) = (q.x as i16, q.y as i16);
            [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .into_iter()
                .filter(move |&(x, y)| x >= 0 && y >= 0 && x < w as i16 && y < h as i16)
                .map(|(x, y)| Point::new(x as u8, y as u8))
        };
        let them = c.opponent();
        let q = near(p).find(|&q| {
            b.get(q) == Some(them) && near(q).all(|n| if n == p { b.get(n).is_none() } else { b.get(n) == Some(c) })
        });
        let Some(q) = q else { return false };
        if b.get(p).is_some() {
            return false;
        }
        self.setup(q, None);
        self.setup(p, Some(c));
        self.go.play(them, Some(q));
        if self.go.board().and_then(|b| b.ko()) == Some((p, c)) {
            return true;
        }
        // Not as expected (it cannot be): the stones as they were, without the ko.
        self.setup(p, None);
        self.setup(q, Some(them));
        false
    }
}

impl Line for GoLine<'_> {
    fn apply(&mut self, step: Step, out: &mut Vec<Posting>) {
        match step {
            Step::Move(Move::Go { color, point }) => {
                let (hash, s) = self.sym.key();
                let next = go_next(color, point.map(|p| (p.x, p.y)), s, self.sym.size());
                out.push(Posting { hash, mv: self.number, next });
                self.number += 1;
                self.moved = true;
                let illegal = self.go.play(color, point);
                if let (false, Some(p), Some(b)) = (illegal, point, self.go.board()) {
                    self.sym.after_move(b, color, p.x, p.y);
                }
            }
            Step::Move(Move::Shogi(_)) => {}
            Step::Size(sz) => {
                self.go.set_size(sz);
                self.size = sz.unwrap_or(self.size);
                resync(self.go, self.sym, self.size);
            }
            Step::Rules(r) => {
                self.go.set_rules(r);
                self.rules = r;
            }
            _ => {
                if let Some(ev) = step.event() {
                    self.go.event(&ev);
                }
                resync(self.go, self.sym, self.size);
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Posting>) {
        let (hash, s) = self.sym.key();
        out.push(Posting { hash, mv: self.number, next: s as u32 });
    }

    fn save(&mut self) {
        let at = self.stones.len();
        let b = self.go.board();
        if let Some(b) = b {
            let (w, h) = b.size();
            let (mut byte, mut bits) = (0u8, 0);
            for y in 0..h {
                for x in 0..w {
                    let v = match b.get(Point::new(x, y)) {
                        None => 0,
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                    };
                    byte |= v << bits;
                    bits += 2;
                    if bits == 8 {
                        self.stones.push(byte);
                        (byte, bits) = (0, 0);
                    }
                }
            }
            if bits > 0 {
                self.stones.push(byte);
            }
        }
        self.saved.push(GoSnap {
            number: self.number,
            moved: self.moved,
            size: self.size,
            rules: self.rules,
            board: b.map(|b| b.size()),
            ko: b.and_then(|b| b.ko()),
            at,
        });
    }

    /// Makes the replayer hold the saved position afresh: a new game, its rules and size, the
    /// stones as setup, then (when a move had been played) the ko's capture played again or a
    /// pass (either way the replayer counts a move played, as it did), then the path's size.
    fn restore(&mut self, pop: bool) {
        let Some(snap) = self.saved.last() else { return };
        let GoSnap { number, moved, size, rules, board, ko, at } = *snap;
        self.go.finish_game();
        self.go.set_rules(rules);
        if let Some((w, h)) = board {
            self.go.set_size(Some((w, h)));
            self.setup(Point::new(0, 0), None);
            let mut i = 0usize;
            for y in 0..h {
                for x in 0..w {
                    let v = self.stones.get(at + i / 4).map_or(0, |b| b >> (2 * (i % 4)) & 3);
                    i += 1;
                    if v != 0 {
                        self.setup(Point::new(x, y), Some(if v == 1 { Color::Black } else { Color::White }));
                    }
                }
            }
            if moved {
                let rebuilt = ko.is_some_and(|(p, c)| self.rebuild_ko(p, c));
                if !rebuilt {
                    self.go.play(Color::Black, None);
                }
            }
        }
        if board.is_none() || moved {
            // (Without a move, the board has the path's size already.)
            self.go.set_size(Some(size));
        }
        (self.number, self.moved, self.size, self.rules) = (number, moved, size, rules);
        resync(self.go, self.sym, self.size);
        if pop {
            self.saved.pop();
            self.stones.truncate(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::Collector;
    use kifu::{Branch, Color, Event, Move, Point};

    fn go(i: usize, pass: bool) -> Event<'static> {
        let color = if i.is_multiple_of(2) { Color::Black } else { Color::White };
        let p = (i * 7 + i / 361) % 361;
        let point = (!pass).then(|| Point::new((p % 19) as u8, (p / 19) as u8));
        Event::Move(Move::Go { color, point })
    }

    /// The postings of one game fed to a collector (with variations or not), one per hash (its
    /// smallest move number), sorted.
    fn postings(events: &[Event<'static>], variations: bool) -> Vec<(u64, u32, u32)> {
        let mut c = Collector::default();
        (c.with_positions, c.with_variations) = (true, variations);
        let mut charset = None;
        let mut rows: Vec<_> = events.iter().filter_map(|e| c.feed(e, &mut charset)).collect();
        assert_eq!(rows.len(), 1);
        let mut first = std::collections::BTreeMap::new();
        for p in rows.remove(0).positions {
            let e = first.entry(p.hash).or_insert((p.mv, p.next));
            *e = (*e).min((p.mv, p.next));
        }
        first.into_iter().map(|(h, (m, n))| (h, m, n)).collect()
    }

    /// 10^5 nested variations, each level with a second child (a pass, child or sibling
    /// branch) after the nested one: no recursion (the test thread's stack is 2 MB), a snapshot
    /// for every level, and the postings of the main line alone (the passes reach no new
    /// position).
    #[test]
    fn deep_nesting_without_recursion() {
        let n = 100_000;
        let mut line = vec![Event::GameStart { offset: 0 }, Event::Node];
        line.extend((0..n).flat_map(|i| [Event::Node, go(i, false)]));
        line.push(Event::GameEnd { length: 0, ending: None });
        let want = postings(&line, false);
        assert!(want.len() > 300);
        for sibling in [false, true] {
            let mut deep = vec![Event::GameStart { offset: 0 }, Event::Node];
            for i in 0..n {
                deep.extend([Event::VariationStart(Branch::Child), Event::Node, go(i, false)]);
            }
            for i in (0..n).rev() {
                // Back at move i-1's node: a pass by the side to move as its second child, or
                // (a sibling branch, beside it) as the second child of move i-2's node.
                deep.push(Event::VariationEnd);
                if sibling && i > 1 {
                    deep.extend([Event::VariationStart(Branch::Sibling), Event::Node, go(i - 1, true)]);
                    deep.push(Event::VariationEnd);
                } else if !sibling && i > 0 {
                    deep.extend([Event::VariationStart(Branch::Child), Event::Node, go(i, true), Event::VariationEnd]);
                }
            }
            deep.push(Event::GameEnd { length: 0, ending: None });
            assert_eq!(postings(&deep, true), want, "sibling {sibling}");
        }
    }

    /// A sibling branch (Jago XML, KIF): another child of the current node's parent, replayed
    /// from the parent's position; the main line goes on after it.
    #[test]
    fn sibling_branches() {
        let as_child: Vec<Event<'static>> =
            kifu::sgf::Reader::new(b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd]))").map(Result::unwrap).collect();
        let m = |c, x, y| Event::Move(Move::Go { color: c, point: Some(Point::new(x, y)) });
        let (b, w) = (Color::Black, Color::White);
        let sibling = [
            Event::GameStart { offset: 0 },
            Event::Node,
            Event::Node,
            m(b, 0, 0),
            Event::Node,
            m(w, 1, 1),
            Event::VariationStart(Branch::Sibling),
            Event::Node,
            m(w, 3, 3),
            Event::VariationEnd,
            Event::Node,
            m(b, 2, 2),
            Event::GameEnd { length: 0, ending: None },
        ];
        assert_eq!(postings(&sibling, true), postings(&as_child, true));
        // Five positions: the empty board, after aa, after bb, after cc, after dd.
        assert_eq!(postings(&sibling, true).len(), 5);
        assert_eq!(postings(&sibling, false).len(), 4);
    }
}
