//! The canonical SGF writer's walk over a tree. How each event is spelled in SGF, and what a
//! node may hold, is [`crate::sgf::write`]'s job; this module only decides where nodes and
//! variations go and which events each node holds.
//!
//! Canonical form, the same for any input format:
//! - Parentheses only where a node has more than one child; children in file order.
//! - Full form ([`write_sgf`], [`Writer::sgf_with_repairs`]): SGF FF\[4\], valid for SGFC. The
//!   root starts `FF[4]GM[1]CA[UTF-8]`; then every node's events in the tree's order (a node's
//!   first move first), written by a [`NodeWriter`]: consecutive values of one property grouped
//!   (`AB[aa][bb]`), one point per value (no `aa:cc` rectangles), text decoded and re-escaped
//!   (UTF-8). Moves `B[pd]`, passes `B[]`; times in seconds (`BL[12.5]`). The game node's
//!   events (node 0: what comes before the first node, e.g. CSA game information) are written
//!   in the root node. What SGF has no property for is left out (see
//!   [`crate::sgf::write::writes`]). One property of a kind per node: a second comment is
//!   joined to the first, a second move (or setup beside a move) starts a new node, a repeated
//!   list is merged, a repeated single value and off-board points are left out, each reported
//!   as a [`Repair`] with its node. A line breaks before a node once it holds
//!   [`LINE_WIDTH`](crate::sgf::write::LINE_WIDTH) bytes. Shogi games are refused
//!   ([`Refusal::Shogi`]): SGF has no shogi moves.
//! - Moves only ([`write_moves`]): only moves, each written by [`write_move`]; nodes without a
//!   move are dropped and their children promoted in their place; a node with two moves becomes
//!   two nodes; an empty game is `()`; a game whose first moves are alternatives starts with an
//!   empty node (`(;(;B[aa])(;B[bb]))`). The main line stays the main line: where it ends in
//!   nodes without a move while other variations there go on with moves, it is written as an
//!   empty first variation (`(;GM[1];B[aa](;N[x])(;W[bb]))` gives `(;B[aa](;)(;W[bb]))`), not
//!   dropped to let the next variation take its place. Shogi: `(;+7776FU;-3334FU)`.
//!
//! Reading the full form back with [`crate::sgf::Reader`] gives the same game
//! ([`GameTree::canonical_eq`]) when no repair was made; the losses are listed in
//! [`crate::sgf::write`]'s module docs.
//!
//! Hashing: render into a reused `Vec<u8>` (no allocation once it has grown) and hash the bytes;
//! the index uses xxh3 of [`write_moves`] output.

use super::main_line::{Step as Track, Tracker};
use super::{GameTree, NodeId, NONE};
use crate::error::Error;
use crate::event::{Event, InfoKey};
use crate::input::EventSource;
use crate::sgf::write::{board_size, NodeWriter};
pub use crate::sgf::write::{write_move, Refusal, Repair, RepairKind};

/// Writes `tree` in the full canonical form (see the [module docs](crate::tree::write)),
/// appending to `out`; the repairs it makes are not reported (see [`Writer::sgf_with_repairs`]).
/// A shogi game is refused and nothing is appended.
pub fn write_sgf(tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refusal> {
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
    /// Moves-only: first the main line below each node has no move (down to its leaf); then,
    /// for each node that writes moves, whether it gets an empty first variation (`(;)`).
    bare: Vec<bool>,
    /// Full form: the SGF node writer and its scratch.
    props: NodeWriter,
    /// Full form: repairs when the caller does not want them.
    repairs: Vec<Repair>,
}

impl Writer {
    /// A writer with empty scratch space.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Full canonical form; see [`write_sgf`]. Repairs are made but not reported.
    pub fn sgf(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let mut repairs = std::mem::take(&mut self.repairs);
        repairs.clear();
        let r = self.sgf_with_repairs(tree, out, &mut repairs);
        self.repairs = repairs;
        r
    }

    /// Full canonical form (see the [module docs](self)), appending to `out` and pushing to
    /// `repairs` every change made to keep the output valid SGF ([`Repair`]: a second comment
    /// joined, a second move moved to a new node, a repeated list merged, a repeated
    /// single-valued property or an off-board point left out…), each with its tree node.
    ///
    /// A shogi game is refused ([`Refusal::Shogi`]): `out` and `repairs` are left as they were.
    /// Several games written into one `out` make an SGF collection (put a newline between them).
    ///
    /// ```
    /// use kifu::tree::{self, Writer};
    ///
    /// let bump = bumpalo::Bump::new();
    /// let t = tree::build(&bump, &mut kifu::sgf::Reader::new(b"(;SZ[9]C[a]C[b];B[cc]W[dd])")).unwrap().unwrap();
    /// let (mut out, mut repairs) = (Vec::new(), Vec::new());
    /// Writer::new().sgf_with_repairs(&t, &mut out, &mut repairs).unwrap();
    /// assert_eq!(out, b"(;FF[4]GM[1]CA[UTF-8]SZ[9]C[a\n\nb];B[cc];W[dd])");
    /// let kinds: Vec<_> = repairs.iter().map(|r| r.kind.as_str()).collect();
    /// assert_eq!(kinds, ["comment_joined", "move_split"]);
    /// ```
    pub fn sgf_with_repairs(
        &mut self,
        tree: &GameTree<'_>,
        out: &mut Vec<u8>,
        repairs: &mut Vec<Repair>,
    ) -> Result<(), Refusal> {
        let (start, first) = (out.len(), repairs.len());
        let r = self.full(tree, out, repairs);
        if r.is_err() {
            out.truncate(start);
            repairs.truncate(first);
        }
        r
    }

    fn full(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) -> Result<(), Refusal> {
        let props = &mut self.props;
        out.push(b'(');
        props.begin_game(out);
        let merged = tree.first_child(NodeId::GAME).is_some_and(|c| tree.next_sibling(c).is_none());
        // The root's board size and game type, wherever they stand in it.
        let mut game = None;
        let root = [Some(NodeId::GAME), merged.then_some(NodeId(1))];
        for ev in root.into_iter().flatten().flat_map(|n| tree.events(n)) {
            match ev {
                Event::Info(i) if i.key() == InfoKey::BoardSize && game.is_none() => {
                    if let Some((w, h)) = board_size(&i.value()) {
                        props.set_board_size(w, h);
                    }
                }
                Event::Info(i) if i.key() == InfoKey::GameType && game.is_none() => game = Some(i.value()),
                _ => {}
            }
        }
        for step in tree.walk() {
            match step {
                super::Step::Enter(n) => {
                    let before = repairs.len();
                    if n == NodeId::GAME {
                        out.push(b';');
                        // A game type that is not Go's, in a game read with Go moves or setup
                        // (its `GM` came after them): written as Go's, repaired.
                        if game.is_some() && plays_go(tree) {
                            props.root_of_go(game.as_ref(), out, repairs);
                        } else {
                            props.root(game.as_ref(), out, repairs);
                        }
                    } else if !(n.0 == 1 && merged) {
                        // (The game node and the root are written as one SGF node.)
                        props.start_node(tree.has_siblings(n), out);
                    }
                    for ev in tree.events(n) {
                        props.event(&ev, out, repairs)?;
                    }
                    for r in &mut repairs[before..] {
                        r.node = Some(n.0);
                    }
                }
                super::Step::Leave(n) => {
                    if n != NodeId::GAME && tree.has_siblings(n) {
                        out.push(b')');
                    }
                }
            }
        }
        out.push(b')');
        Ok(())
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
        // The main line below a node without a move that reaches its leaf without one: dropping
        // it would make the next variation the main line, so its parent writes it as `(;)`
        // (when there is a next variation with moves to write at all).
        self.bare.clear();
        self.bare.resize(n, false);
        for i in (0..n).rev() {
            let first = tree.first_child(NodeId(i as u32)).map(NodeId::index);
            self.bare[i] = self.moves[i] == 0 && first.is_none_or(|c| self.bare[c]);
        }
        for i in 0..n {
            let first = tree.first_child(NodeId(i as u32)).map(NodeId::index);
            let writes = i == 0 || self.moves[i] > 0;
            self.bare[i] = writes && self.kids[i] > 0 && first.is_some_and(|c| self.bare[c]);
            self.kids[i] += u32::from(self.bare[i]);
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
            if self.bare[0] {
                out.extend_from_slice(b"(;)");
            }
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
                    if self.bare[i] {
                        out.extend_from_slice(b"(;)");
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

/// Whether `tree` holds a Go move or Go setup stone.
fn plays_go(tree: &GameTree<'_>) -> bool {
    tree.nodes().any(|n| {
        tree.events(n).any(|e| {
            matches!(e, Event::Move(crate::event::Move::Go { .. }) | Event::Setup(crate::event::Setup::Go { .. }))
        })
    })
}
