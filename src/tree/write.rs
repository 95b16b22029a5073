//! The canonical SGF writer: one game, one line (values keep their own newlines).
//!
//! Canonical form, the same for any input format:
//! - Parentheses only where a node has more than one child; children in file order.
//! - Full form ([`write_sgf`]): every node's events in the tree's order (a node's first move
//!   first), consecutive values of one property grouped (`AB[aa][bb]`), one point per value (no
//!   `aa:cc` rectangles), text decoded and re-escaped (`\\` and `]`, and `:` in labels), so the
//!   output is UTF-8 and `CA` is written as `CA[UTF-8]`. Moves `B[pd]`, passes `B[]`; times in
//!   seconds (`BL[12.5]`). The game node's events (node 0: what comes before the first node,
//!   e.g. CSA game information) are written in the root node. Events with no SGF property are
//!   left out: engine evaluations, clock readings other than time or periods left, marks of
//!   [`MarkupKind::Other`](crate::MarkupKind::Other), info whose key has no SGF name and whose own
//!   name is not an SGF identifier. Shogi moves are written as CSA moves (`;+7776FU`), shogi
//!   setup as `XS[+77FU]` (a piece in hand `XS[+00FU]`, an emptied square `XS[77]`).
//! - Moves only ([`write_moves`]): only moves; nodes without a move are dropped and their
//!   children promoted in their place; a node with two moves becomes two nodes; an empty game
//!   is `()`; a game whose first moves are alternatives starts with an empty node
//!   (`(;(;B[aa])(;B[bb]))`). Shogi: `(;+7776FU;-3334FU)`.
//!
//! Reading the full form back with [`crate::sgf::Reader`] gives the same game
//! ([`GameTree::canonical_eq`]), with one exception: the reader takes `(;GM[` or `(;FF[` inside a
//! game for the start of a new game (its recovery for collections whose games lost their `)`),
//! so a variation whose first node starts with `GM` or `FF` does not read back.
//!
//! Hashing: render into a reused `Vec<u8>` (no allocation once it has grown) and hash the bytes;
//! the index uses xxh3 of [`write_moves`] output.

use super::main_line::{Step as Track, Tracker};
use super::{GameTree, NodeId, NONE};
use crate::error::Error;
use crate::event::{ClockKind, Color, Event, InfoKey, Move, Point, Setup, ShogiMove};
use crate::input::EventSource;

/// Writes `tree` in the full canonical form (see the [module docs](crate::tree::write)), appending to `out`.
pub fn write_sgf(tree: &GameTree<'_>, out: &mut Vec<u8>) {
    Writer::new().sgf(tree, out)
}

/// Writes `tree` in the moves-only canonical form, appending to `out`.
pub fn write_moves(tree: &GameTree<'_>, out: &mut Vec<u8>) {
    Writer::new().moves(tree, out)
}

/// Reads one game from `source` and writes its main line's moves (`(;B[pd];W[dd])`, `()` when
/// there are none), building no tree and copying no text. Returns `Ok(false)` at the end of
/// input. Gives the same bytes as [`Writer::main_line`] on the game's tree.
///
/// On an error, `out` is left as it was and the error returned (in lenient mode the next call
/// reads the next game).
pub fn write_main_line_moves<S: EventSource + ?Sized>(source: &mut S, out: &mut Vec<u8>) -> Result<bool, Error> {
    let start = out.len();
    match main_line_moves(source, out) {
        Ok(started) => Ok(started),
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

fn main_line_moves<S: EventSource + ?Sized>(source: &mut S, out: &mut Vec<u8>) -> Result<bool, Error> {
    let mut track = Tracker::default();
    let mut started = false;
    let mut any = false;
    loop {
        let ev = match source.next_event() {
            None => break,
            Some(ev) => ev?,
        };
        let step = track.step(&ev);
        if let Track::Emit = step {
            match ev {
                Event::GameStart { .. } => {
                    started = true;
                    out.push(b'(');
                }
                Event::Move(m) if started => {
                    any = true;
                    out.push(b';');
                    write_move(m, out);
                }
                Event::GameEnd { .. } if started => break,
                _ => {}
            }
            continue;
        }
        track.act(step, source)?;
    }
    if started {
        if !any {
            out.truncate(out.len() - 1);
            out.extend_from_slice(b"()");
        } else {
            out.push(b')');
        }
    }
    Ok(started)
}

/// The writers, with scratch space kept between games (so that writing allocates nothing once
/// the scratch and the output have grown).
#[derive(Debug, Default)]
pub struct Writer {
    /// Moves-only: number of output children of each node (after promotion).
    kids: Vec<u32>,
    /// Moves-only: the nearest proper ancestor with a move (0 at the top).
    up: Vec<u32>,
    /// Moves-only: number of moves per node.
    moves: Vec<u32>,
}

impl Writer {
    /// A writer with empty scratch space.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Full canonical form; see [`write_sgf`].
    pub fn sgf(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) {
        out.push(b'(');
        let merged = tree.first_child(NodeId::GAME).is_some_and(|c| tree.next_sibling(c).is_none());
        let mut props = Props { last: None };
        for step in tree.walk() {
            match step {
                super::Step::Enter(n) if n == NodeId::GAME => {
                    out.push(b';');
                    props.node(tree, n, out);
                }
                super::Step::Enter(n) => {
                    if n.0 == 1 && merged {
                        props.node(tree, n, out);
                        continue;
                    }
                    if tree.has_siblings(n) {
                        out.push(b'(');
                    }
                    out.push(b';');
                    props.last = None;
                    props.node(tree, n, out);
                }
                super::Step::Leave(n) => {
                    if n != NodeId::GAME && tree.has_siblings(n) {
                        out.push(b')');
                    }
                }
            }
        }
        out.push(b')');
    }

    /// Moves-only canonical form; see [`write_moves`].
    pub fn moves(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) {
        let n = tree.len();
        self.moves.clear();
        self.moves.extend(tree.nodes().map(|i| tree.move_count(i) as u32));
        self.kids.clear();
        self.kids.resize(n, 0);
        for i in (1..n).rev() {
            let p = tree.nodes[i].parent as usize;
            self.kids[p] += if self.moves[i] > 0 { 1 } else { self.kids[i] };
        }
        self.up.clear();
        self.up.resize(n, NONE);
        for i in 1..n {
            let p = tree.nodes[i].parent;
            self.up[i] = if p == 0 || self.moves[p as usize] > 0 { p } else { self.up[p as usize] };
        }
        if n == 0 || self.moves[0] == 0 && self.kids[0] == 0 {
            out.extend_from_slice(b"()");
            return;
        }
        out.push(b'(');
        if self.moves[0] == 0 && self.kids[0] > 1 {
            out.push(b';');
        }
        for step in tree.walk() {
            match step {
                super::Step::Enter(x) => {
                    let i = x.index();
                    if self.moves[i] == 0 {
                        continue;
                    }
                    if i != 0 && self.kids[self.up[i] as usize] > 1 {
                        out.push(b'(');
                    }
                    for m in tree.moves(x) {
                        out.push(b';');
                        write_move(m, out);
                    }
                }
                super::Step::Leave(x) => {
                    let i = x.index();
                    if i != 0 && self.moves[i] > 0 && self.kids[self.up[i] as usize] > 1 {
                        out.push(b')');
                    }
                }
            }
        }
        out.push(b')');
    }

    /// The main line's moves of `tree` (`(;B[pd];W[dd])`, `()` when there are none).
    pub fn main_line(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) {
        out.push(b'(');
        for n in tree.main_line() {
            for m in tree.moves(n) {
                out.push(b';');
                write_move(m, out);
            }
        }
        out.push(b')');
    }
}

/// Appends `n` in decimal.
fn number(mut n: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

fn point(p: Point, out: &mut Vec<u8>) {
    match p.sgf() {
        Some(xy) => out.extend_from_slice(&xy),
        None => out.extend_from_slice(b"__"),
    }
}

fn shogi(m: ShogiMove, out: &mut Vec<u8>) {
    out.push(if m.color == Color::Black { b'+' } else { b'-' });
    let from = m.from.map_or([b'0', b'0'], |s| [digit(s.file), digit(s.rank)]);
    out.extend_from_slice(&from);
    out.extend_from_slice(&[digit(m.to.file), digit(m.to.rank)]);
    out.extend_from_slice(m.piece.csa().as_bytes());
}

fn digit(v: u8) -> u8 {
    if v < 10 {
        b'0' + v
    } else {
        b'?'
    }
}

/// Appends a move as the moves-only form writes it: `B[pd]`, `W[]` (a pass), `+7776FU` (shogi,
/// `00` for a drop). Shared by every writer of canonical main lines (the index hashes them).
#[inline]
pub fn write_move(m: Move, out: &mut Vec<u8>) {
    match m {
        Move::Go { color, point: p } => {
            // One copy per move: this runs for every move of every game the index reads.
            let c = if color == Color::Black { b'B' } else { b'W' };
            match p {
                None => out.extend_from_slice(&[c, b'[', b']']),
                Some(p) => {
                    let [x, y] = p.sgf().unwrap_or(*b"__");
                    out.extend_from_slice(&[c, b'[', x, y, b']']);
                }
            }
        }
        Move::Shogi(s) => shogi(s, out),
    }
}

/// Appends `text` escaped for an SGF value (`\` and `]`; also `:` when `compose`).
fn escaped(text: &str, compose: bool, out: &mut Vec<u8>) {
    for &b in text.as_bytes() {
        if b == b'\\' || b == b']' || compose && b == b':' {
            out.push(b'\\');
        }
        out.push(b);
    }
}

/// Whether the full canonical form writes `ev` (see the module docs for what it leaves out).
pub(crate) fn written(ev: &Event<'_>) -> bool {
    match ev {
        Event::Evaluation(_) => false,
        Event::Clock(c) => c.color.is_some() && c.kind != ClockKind::ElapsedMs,
        Event::Markup(m) => m.kind.sgf().is_some(),
        Event::Info(i) => {
            i.key().sgf().is_some() || !i.name().is_empty() && i.name().iter().all(u8::is_ascii_uppercase)
        }
        Event::Property(p) => p.name().iter().any(u8::is_ascii_uppercase),
        Event::Move(_) | Event::Setup(_) | Event::Turn(_) | Event::Comment(_) | Event::Name(_) => true,
        Event::GameStart { .. }
        | Event::Node
        | Event::VariationStart(_)
        | Event::VariationEnd
        | Event::Warning(_)
        | Event::GameEnd { .. } => false,
    }
}

/// Writes a node's properties, grouping consecutive values of one identifier.
struct Props {
    /// The identifier of the property being written, if values may still be appended to it.
    last: Option<&'static str>,
}

impl Props {
    fn open(&mut self, ident: &'static str, out: &mut Vec<u8>) {
        if self.last != Some(ident) {
            out.extend_from_slice(ident.as_bytes());
            self.last = Some(ident);
        }
        out.push(b'[');
    }

    fn node(&mut self, tree: &GameTree<'_>, n: NodeId, out: &mut Vec<u8>) {
        for ev in tree.events(n) {
            self.event(&ev, out);
        }
    }

    fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>) {
        match *ev {
            Event::Move(Move::Go { color, point: p }) => {
                self.open(if color == Color::Black { "B" } else { "W" }, out);
                if let Some(p) = p {
                    point(p, out);
                }
                out.push(b']');
            }
            Event::Move(Move::Shogi(m)) => {
                self.last = None;
                shogi(m, out);
            }
            Event::Setup(Setup::Go { color, point: p }) => {
                self.open(
                    match color {
                        Some(Color::Black) => "AB",
                        Some(Color::White) => "AW",
                        None => "AE",
                    },
                    out,
                );
                point(p, out);
                out.push(b']');
            }
            Event::Setup(Setup::Shogi { color, piece, square }) => {
                self.open("XS", out);
                out.push(if color == Color::Black { b'+' } else { b'-' });
                let sq = square.map_or([b'0', b'0'], |s| [digit(s.file), digit(s.rank)]);
                out.extend_from_slice(&sq);
                out.extend_from_slice(piece.csa().as_bytes());
                out.push(b']');
            }
            Event::Setup(Setup::ShogiRemove { square }) => {
                self.open("XS", out);
                out.extend_from_slice(&[digit(square.file), digit(square.rank), b']']);
            }
            Event::Turn(c) => {
                self.open("PL", out);
                out.extend_from_slice(if c == Color::Black { b"B]" } else { b"W]" });
            }
            Event::Markup(m) => {
                let Some(ident) = m.kind.sgf() else { return };
                self.open(ident, out);
                if let Some(p) = m.point() {
                    point(p, out);
                    if let Some(q) = m.to() {
                        out.push(b':');
                        point(q, out);
                    } else if m.kind == crate::MarkupKind::Label {
                        out.push(b':');
                        escaped(&m.label().decode().text, true, out);
                    }
                }
                out.push(b']');
            }
            Event::Comment(t) => {
                self.open("C", out);
                escaped(&t.decode().text, false, out);
                out.push(b']');
            }
            Event::Name(t) => {
                self.open("N", out);
                escaped(&t.decode().text, false, out);
                out.push(b']');
            }
            Event::Clock(c) => {
                let ident = match (c.kind, c.color) {
                    (ClockKind::TimeLeftMs, Some(Color::Black)) => "BL",
                    (ClockKind::TimeLeftMs, Some(Color::White)) => "WL",
                    (ClockKind::PeriodsLeft, Some(Color::Black)) => "OB",
                    (ClockKind::PeriodsLeft, Some(Color::White)) => "OW",
                    _ => return,
                };
                self.open(ident, out);
                if c.kind == ClockKind::TimeLeftMs {
                    let (secs, ms) = (c.value / 1000, c.value % 1000);
                    number(secs, out);
                    if ms != 0 {
                        let digits = [b'0' + (ms / 100) as u8, b'0' + (ms / 10 % 10) as u8, b'0' + (ms % 10) as u8];
                        let keep = if ms % 10 != 0 {
                            3
                        } else if ms % 100 != 0 {
                            2
                        } else {
                            1
                        };
                        out.push(b'.');
                        out.extend_from_slice(&digits[..keep]);
                    }
                } else {
                    number(c.value, out);
                }
                out.push(b']');
            }
            Event::Info(i) => {
                let ident = match i.key().sgf() {
                    Some(id) => id,
                    None => {
                        // The format's own name, when it is an SGF identifier.
                        let name = i.name();
                        if name.is_empty() || !name.iter().all(u8::is_ascii_uppercase) {
                            return;
                        }
                        self.last = None;
                        out.extend_from_slice(name);
                        out.push(b'[');
                        escaped(&i.value().decode().text, false, out);
                        out.push(b']');
                        return;
                    }
                };
                self.open(ident, out);
                if i.key() == InfoKey::Charset {
                    out.extend_from_slice(b"UTF-8");
                } else {
                    escaped(&i.value().decode().text, false, out);
                }
                out.push(b']');
            }
            Event::Property(p) => {
                let start = out.len();
                out.extend(p.name().iter().copied().filter(u8::is_ascii_uppercase));
                if out.len() == start {
                    return;
                }
                self.last = None;
                for v in p.value().sgf_values() {
                    out.push(b'[');
                    escaped(&v.decode().text, false, out);
                    out.push(b']');
                }
            }
            Event::Evaluation(_)
            | Event::GameStart { .. }
            | Event::Node
            | Event::VariationStart(_)
            | Event::VariationEnd
            | Event::Warning(_)
            | Event::GameEnd { .. } => {}
        }
    }
}
