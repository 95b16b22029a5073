//! The canonical SGF writer's walk over a tree: one game, one line (values keep their own
//! newlines). How each event is spelled in SGF is [`crate::sgf::write`]'s job; this module only
//! decides where nodes and variations go and which events each node holds.
//!
//! Canonical form, the same for any input format:
//! - Parentheses only where a node has more than one child; children in file order.
//! - Full form ([`write_sgf`]): every node's events in the tree's order (a node's first move
//!   first), written by a [`NodeWriter`]: consecutive values of
//!   one property grouped (`AB[aa][bb]`), one point per value (no `aa:cc` rectangles), text
//!   decoded and re-escaped, so the output is UTF-8 and `CA` is written as `CA[UTF-8]`. Moves
//!   `B[pd]`, passes `B[]`; times in seconds (`BL[12.5]`). The game node's events (node 0: what
//!   comes before the first node, e.g. CSA game information) are written in the root node.
//!   Events with no SGF property are left out (see [`crate::sgf::write::writes`]): engine
//!   evaluations, clock readings other than time or periods left, marks of
//!   [`MarkupKind::Other`](crate::MarkupKind::Other), info whose key has no SGF name and whose own
//!   name is not an SGF identifier. Shogi moves are written as CSA moves (`;+7776FU`), shogi
//!   setup as `XS[+77FU]` (a piece in hand `XS[+00FU]`, an emptied square `XS[77]`).
//! - Moves only ([`write_moves`]): only moves, each written by [`write_move`]; nodes without a
//!   move are dropped and their children promoted in their place; a node with two moves becomes
//!   two nodes; an empty game is `()`; a game whose first moves are alternatives starts with an
//!   empty node (`(;(;B[aa])(;B[bb]))`). The main line stays the main line: where it ends in
//!   nodes without a move while other variations there go on with moves, it is written as an
//!   empty first variation (`(;GM[1];B[aa](;N[x])(;W[bb]))` gives `(;B[aa](;)(;W[bb]))`), not
//!   dropped to let the next variation take its place. Shogi: `(;+7776FU;-3334FU)`.
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
use crate::event::Event;
use crate::input::EventSource;
pub use crate::sgf::write::write_move;
use crate::sgf::write::NodeWriter;

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
    /// Moves-only: first the main line below each node has no move (down to its leaf); then,
    /// for each node that writes moves, whether it gets an empty first variation (`(;)`).
    bare: Vec<bool>,
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
        let mut props = NodeWriter::new();
        for step in tree.walk() {
            match step {
                super::Step::Enter(n) if n == NodeId::GAME => {
                    out.push(b';');
                    node(&mut props, tree, n, out);
                }
                super::Step::Enter(n) => {
                    if n.0 == 1 && merged {
                        // The game node and the root are written as one SGF node.
                        node(&mut props, tree, n, out);
                        continue;
                    }
                    if tree.has_siblings(n) {
                        out.push(b'(');
                    }
                    out.push(b';');
                    props.new_node();
                    node(&mut props, tree, n, out);
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

/// Writes the events of tree node `n` into the SGF node being written.
fn node(props: &mut NodeWriter, tree: &GameTree<'_>, n: NodeId, out: &mut Vec<u8>) {
    for ev in tree.events(n) {
        props.event(&ev, out);
    }
}
