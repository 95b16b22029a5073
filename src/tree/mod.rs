//! Game trees in an arena, the main line without a tree, and the canonical SGF writer.
//!
//! - [`build()`] (or a reusable [`Builder`]) pulls one game from any [`EventSource`](crate::EventSource) and stores it
//!   in a [`bumpalo::Bump`] as a [`GameTree`]: nodes with their events, children in file order,
//!   `u32` node indices. Text is copied into the arena, so a tree outlives the source's buffer
//!   (slice, `io::Read` chunk, decompressor) and one lifetime serves every input.
//! - [`MainLine`] adapts any event source to yield only the main line (the first child at every
//!   branch), building nothing; [`MainLineTracker`] applies the same rule to events the caller
//!   pulls itself.
//! - [`write_sgf`] renders a Go tree as SGF FF\[4\] (lines broken between nodes; a shogi tree is
//!   refused), [`Writer::sgf_with_repairs`] also reports what it repaired; [`write_moves`] and
//!   [`write_main_line_moves`] give the moves-only form, one line, which is what the index hashes.
//!
//! ## The shape of a tree
//! Node 0 ([`NodeId::GAME`]) is the game itself: it holds the events that come before the first
//! `Node` (game information in CSA, nothing in SGF). Every `Node` event makes a node; the first one
//! (SGF's root node) is node 1, a child of node 0. Nodes are numbered in depth-first pre-order, so
//! `0..len` is a depth-first walk, a node's subtree is a contiguous range and a parent always has
//! a smaller index than its children. `VariationStart(Branch::Child)` opens a branch below the
//! current node, `VariationStart(Branch::Sibling)` one beside it (as Jago XML writes); both give
//! the tree SGF would give.
//!
//! ## Costs
//! A node takes 8 bytes; its first Go or shogi move is stored inside the node, setup stones and
//! marks take 16 bytes per run of up to six in a row, other events 16 bytes each plus their text, and a node that has such events 8 bytes more in an index. On
//! the SGF corpus a tree takes about 1.4 times the game's bytes. Building allocates in the arena
//! only when the game ends (exact-size slices, the largest last), and uses scratch vectors that a [`Builder`] keeps between games: after a
//! warm-up, building allocates nothing on the heap. Nothing here recurses: building, walking,
//! comparing and writing use loops, and dropping a tree frees plain slices.
//!
//! ```
//! use bumpalo::Bump;
//! use kifu::tree;
//!
//! let mut reader = kifu::sgf::Reader::new(b"(;SZ[9];B[cc](;W[gg];B[gc])(;W[cg]))");
//! let bump = Bump::new();
//! let game = tree::build(&bump, &mut reader).unwrap().unwrap();
//! assert_eq!(game.len(), 6); // the game node, the root, B[cc], W[gg], B[gc], W[cg]
//! let main: Vec<_> = game.main_line().flat_map(|n| game.moves(n)).collect();
//! assert_eq!(main.len(), 3);
//! let mut out = Vec::new();
//! tree::write_moves(&game, &mut out);
//! assert_eq!(out, b"(;B[cc](;W[gg];B[gc])(;W[cg]))");
//! ```

mod build;
mod compare;
mod leaves;
mod main_line;
mod record;
pub mod write;

pub use build::{build, Builder};
pub use compare::Difference;
pub use leaves::LeafCounter;
pub use main_line::{MainLine, MainLineTracker};
pub use write::{write_main_line_moves, write_move, write_moves, write_sgf, Writer};

use crate::event::{Color, Ending, Event, Move, Piece, Point, ShogiMove, Square, Warning};
use record::Rec;

/// A node's index in its [`GameTree`]: depth-first pre-order, node 0 being the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The game node: parent of the first node (SGF's root node).
    pub const GAME: NodeId = NodeId(0);

    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

pub(crate) const NONE: u32 = u32::MAX;

/// One node in the arena: 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeRec {
    /// Parent index (`NONE` for node 0).
    pub(crate) parent: u32,
    /// The node's first move packed inline, plus flags (see `packed`).
    pub(crate) packed: u32,
}

/// The inline move and flags of a node, packed in a `u32`.
pub(crate) mod packed {
    use super::*;

    /// The node has a next sibling, found in `GameTree::siblings`.
    pub(crate) const HAS_SIBLING: u32 = 1 << 31;
    /// The node has records, found through `GameTree::rec_index`.
    pub(crate) const HAS_RECS: u32 = 1 << 27;
    const KIND_SHIFT: u32 = 28;
    const KIND_MASK: u32 = 7 << KIND_SHIFT;
    const GO_POINT: u32 = 1;
    const GO_PASS: u32 = 2;
    const SHOGI: u32 = 3;

    /// Packs a move, or `None` when it does not fit (coordinates out of range).
    #[inline]
    pub(crate) fn pack(m: Move) -> Option<u32> {
        match m {
            Move::Go { color, point } => {
                let c = (color == Color::White) as u32;
                Some(match point {
                    None => GO_PASS << KIND_SHIFT | c,
                    Some(p) => GO_POINT << KIND_SHIFT | c | (p.x as u32) << 1 | (p.y as u32) << 9,
                })
            }
            Move::Shogi(s) => {
                let sq_ok = |q: Square| q.file < 16 && q.rank < 16;
                if !sq_ok(s.to) || !s.from.is_none_or(sq_ok) {
                    return None;
                }
                let from = s.from.unwrap_or(Square::new(0, 0));
                Some(
                    SHOGI << KIND_SHIFT
                        | (s.color == Color::White) as u32
                        | (s.from.is_none() as u32) << 1
                        | (from.file as u32) << 2
                        | (from.rank as u32) << 6
                        | (s.to.file as u32) << 10
                        | (s.to.rank as u32) << 14
                        | (s.piece as u32) << 18,
                )
            }
        }
    }

    /// The inline move, if any.
    pub(crate) fn unpack(v: u32) -> Option<Move> {
        let color = if v & 1 == 1 { Color::White } else { Color::Black };
        match (v & KIND_MASK) >> KIND_SHIFT {
            GO_POINT => Some(Move::Go { color, point: Some(Point::new((v >> 1) as u8, (v >> 9) as u8)) }),
            GO_PASS => Some(Move::Go { color, point: None }),
            SHOGI => {
                let sq = |shift: u32| Square::new((v >> shift & 15) as u8, (v >> (shift + 4) & 15) as u8);
                let piece = Piece::ALL[((v >> 18 & 15) as usize).min(Piece::ALL.len() - 1)];
                let from = (v >> 1 & 1 == 0).then(|| sq(2));
                Some(Move::Shogi(ShogiMove { color, from, to: sq(10), piece }))
            }
            _ => None,
        }
    }

    /// Whether a move is stored inline.
    pub(crate) fn has_move(v: u32) -> bool {
        v & KIND_MASK != 0
    }
}

/// One game as a tree in an arena; see the [module docs](self) for its shape.
///
/// A `GameTree` is `Copy`: it is a handful of slices into the arena.
#[derive(Clone, Copy, Debug)]
pub struct GameTree<'b> {
    pub(crate) nodes: &'b [NodeRec],
    pub(crate) recs: &'b [Rec],
    pub(crate) text: &'b [u8],
    /// `(node, next sibling)` for every node that has a next sibling, sorted by node.
    pub(crate) siblings: &'b [(u32, u32)],
    /// `(node, first record)` for every node that has records, sorted by node.
    pub(crate) rec_index: &'b [(u32, u32)],
    pub(crate) warnings: &'b [Warning],
    pub(crate) offset: u64,
    pub(crate) length: Option<u64>,
    pub(crate) ending: Option<Ending>,
}

impl<'b> GameTree<'b> {
    /// Byte offset of the game in its input (from `GameStart`).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The game's length in bytes (from `GameEnd`), or `None` when the source ended without one.
    pub fn length(&self) -> Option<u64> {
        self.length
    }

    /// How the game ended, where the format records it (CSA `%TORYO`…).
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Every warning the source reported for this game, in stream order (including the ones
    /// just before its `GameStart`, such as skipped junk).
    pub fn warnings(&self) -> &'b [Warning] {
        self.warnings
    }

    /// Number of nodes, the game node included (so at least 1).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the game has no node besides the game node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Bytes of arena memory the tree's slices take (the arena's own chunk overhead aside).
    pub fn arena_bytes(&self) -> usize {
        std::mem::size_of_val(self.nodes)
            + std::mem::size_of_val(self.recs)
            + self.text.len()
            + std::mem::size_of_val(self.siblings)
            + std::mem::size_of_val(self.rec_index)
            + std::mem::size_of_val(self.warnings)
    }

    /// Every node id in depth-first pre-order (`0..len`).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = NodeId> + DoubleEndedIterator {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The parent of a node; `None` for the game node (and for ids out of range).
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        let p = self.nodes.get(node.index())?.parent;
        (p != NONE).then_some(NodeId(p))
    }

    /// The first child of a node (pre-order puts it right after its parent).
    pub fn first_child(&self, node: NodeId) -> Option<NodeId> {
        let c = node.0.checked_add(1)?;
        (self.nodes.get(c as usize)?.parent == node.0).then_some(NodeId(c))
    }

    /// The next sibling of a node, in file order (a binary search among the tree's branches).
    pub fn next_sibling(&self, node: NodeId) -> Option<NodeId> {
        let n = self.nodes.get(node.index())?;
        if n.packed & packed::HAS_SIBLING == 0 {
            return None;
        }
        let i = self.siblings.binary_search_by_key(&node.0, |s| s.0).ok()?;
        Some(NodeId(self.siblings[i].1))
    }

    /// Whether the node has a sibling before or after it (so SGF writes it in parentheses).
    pub fn has_siblings(&self, node: NodeId) -> bool {
        match self.nodes.get(node.index()) {
            Some(n) if n.parent != NONE => n.packed & packed::HAS_SIBLING != 0 || n.parent + 1 != node.0,
            _ => false,
        }
    }

    /// The children of a node, in file order.
    pub fn children(&self, node: NodeId) -> Children<'_, 'b> {
        Children { tree: self, next: self.first_child(node) }
    }

    /// Number of edges from the game node (the game node has depth 0). Costs O(depth).
    pub fn depth(&self, node: NodeId) -> usize {
        let mut d = 0;
        let mut n = node;
        while let Some(p) = self.parent(n) {
            d += 1;
            n = p;
        }
        d
    }

    /// The main line: the game node, then the first child of each node down to a leaf.
    pub fn main_line(&self) -> MainPath<'_, 'b> {
        MainPath { tree: self, next: (!self.nodes.is_empty()).then_some(NodeId::GAME) }
    }

    /// A depth-first walk that says when each node is entered and left (for writers that need
    /// the structure). Uses no stack: pre-order and parent links are enough.
    pub fn walk(&self) -> Walk<'_, 'b> {
        Walk { tree: self, pos: 0, open: NONE }
    }

    /// The node's events in order: its inline move first, then the rest as they came. Text
    /// borrows the arena. Structural events (`Node`, variations, `GameStart`/`GameEnd`) and
    /// warnings are not stored per node.
    pub fn events(&self, node: NodeId) -> NodeEvents<'b> {
        let (inline, recs) = self.node_parts(node);
        NodeEvents { inline, recs, at: 0, text: self.text }
    }

    /// The node's moves (usually zero or one), in order.
    pub fn moves(&self, node: NodeId) -> impl Iterator<Item = Move> + 'b {
        let (inline, recs) = self.node_parts(node);
        inline.into_iter().chain(recs.iter().filter_map(|r| match r {
            Rec::Move(m) => Some(*m),
            _ => None,
        }))
    }

    /// Number of moves in a node.
    pub fn move_count(&self, node: NodeId) -> usize {
        self.moves(node).count()
    }

    pub(crate) fn node_parts(&self, node: NodeId) -> (Option<Move>, &'b [Rec]) {
        let Some(n) = self.nodes.get(node.index()) else { return (None, &[]) };
        let mut recs: &'b [Rec] = &[];
        if n.packed & packed::HAS_RECS != 0 {
            if let Ok(k) = self.rec_index.binary_search_by_key(&node.0, |e| e.0) {
                let start = self.rec_index[k].1 as usize;
                let end = self.rec_index.get(k + 1).map_or(self.recs.len(), |e| e.1 as usize);
                recs = self.recs.get(start..end).unwrap_or(&[]);
            }
        }
        (packed::unpack(n.packed), recs)
    }

    /// The first difference between two trees read canonically, or `None` when they are the same
    /// game: same shape, and in each node the same events with text compared decoded (so escapes
    /// and charsets do not matter), property names compared without `FF[3]` lower-case letters,
    /// info compared by key and value (not by the format's own name; `CA` by key only, since a
    /// canonical writer re-encodes text). Warnings, offsets and lengths are ignored, and so are
    /// the events the canonical SGF writer leaves out (see [`write_sgf`]), so a tree and the tree
    /// read back from its canonical SGF compare equal.
    pub fn canonical_diff(&self, other: &GameTree<'_>) -> Option<Difference> {
        compare::canonical_diff(self, other)
    }

    /// Whether two trees are the same game read canonically (see [`GameTree::canonical_diff`]).
    pub fn canonical_eq(&self, other: &GameTree<'_>) -> bool {
        self.canonical_diff(other).is_none()
    }
}

/// Exact equality: same shape, same events with the same raw text and rules, same warnings,
/// offset, length and ending.
impl PartialEq for GameTree<'_> {
    fn eq(&self, other: &GameTree<'_>) -> bool {
        self.len() == other.len()
            && self.offset == other.offset
            && self.length == other.length
            && self.ending == other.ending
            && self.warnings == other.warnings
            && self.nodes().all(|n| self.parent(n) == other.parent(n) && self.events(n).eq(other.events(n)))
    }
}

/// The children of a node; see [`GameTree::children`].
#[derive(Clone, Debug)]
pub struct Children<'t, 'b> {
    tree: &'t GameTree<'b>,
    next: Option<NodeId>,
}

impl Iterator for Children<'_, '_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let n = self.next?;
        self.next = self.tree.next_sibling(n);
        Some(n)
    }
}

/// The main line's nodes; see [`GameTree::main_line`].
#[derive(Clone, Debug)]
pub struct MainPath<'t, 'b> {
    tree: &'t GameTree<'b>,
    next: Option<NodeId>,
}

impl Iterator for MainPath<'_, '_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let n = self.next?;
        self.next = self.tree.first_child(n);
        Some(n)
    }
}

/// A step of a depth-first walk; see [`GameTree::walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The walk reaches a node (before its children).
    Enter(NodeId),
    /// The walk leaves a node (after its children).
    Leave(NodeId),
}

/// A depth-first walk; see [`GameTree::walk`].
#[derive(Clone, Debug)]
pub struct Walk<'t, 'b> {
    tree: &'t GameTree<'b>,
    /// The next node to enter.
    pos: u32,
    /// The innermost node entered and not yet left.
    open: u32,
}

impl Iterator for Walk<'_, '_> {
    type Item = Step;
    fn next(&mut self) -> Option<Step> {
        let nodes = self.tree.nodes;
        if let Some(n) = nodes.get(self.pos as usize) {
            if n.parent == self.open {
                self.open = self.pos;
                self.pos += 1;
                return Some(Step::Enter(NodeId(self.open)));
            }
        }
        if self.open == NONE {
            return None;
        }
        let left = self.open;
        self.open = nodes[left as usize].parent;
        Some(Step::Leave(NodeId(left)))
    }
}

/// The events of one node; see [`GameTree::events`].
#[derive(Clone, Debug)]
pub struct NodeEvents<'b> {
    inline: Option<Move>,
    recs: &'b [Rec],
    /// The next event within `recs[0]` (a run of points holds several).
    at: usize,
    text: &'b [u8],
}

impl<'b> Iterator for NodeEvents<'b> {
    type Item = Event<'b>;
    fn next(&mut self) -> Option<Event<'b>> {
        if let Some(m) = self.inline.take() {
            return Some(Event::Move(m));
        }
        let (first, rest) = self.recs.split_first()?;
        let ev = first.event_at(self.at, self.text);
        self.at += 1;
        if self.at >= first.len() {
            self.recs = rest;
            self.at = 0;
        }
        Some(ev)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_small() {
        assert_eq!(std::mem::size_of::<NodeRec>(), 8);
    }

    #[test]
    fn packed_moves_round_trip() {
        let moves = [
            Move::Go { color: Color::Black, point: Some(Point::new(0, 0)) },
            Move::Go { color: Color::White, point: Some(Point::new(51, 51)) },
            Move::Go { color: Color::White, point: Some(Point::new(255, 254)) },
            Move::Go { color: Color::Black, point: None },
            Move::Shogi(ShogiMove {
                color: Color::Black,
                from: Some(Square::new(7, 7)),
                to: Square::new(7, 6),
                piece: Piece::Pawn,
            }),
            Move::Shogi(ShogiMove { color: Color::White, from: None, to: Square::new(1, 9), piece: Piece::Dragon }),
        ];
        for m in moves {
            let p = packed::pack(m).unwrap();
            assert!(packed::has_move(p) && p & (packed::HAS_SIBLING | packed::HAS_RECS) == 0);
            assert_eq!(packed::unpack(p), Some(m));
            assert_eq!(packed::unpack(p | packed::HAS_SIBLING | packed::HAS_RECS), Some(m));
        }
        let big =
            Move::Shogi(ShogiMove { color: Color::White, from: None, to: Square::new(16, 1), piece: Piece::Pawn });
        assert_eq!(packed::pack(big), None);
        assert_eq!(packed::unpack(0), None);
    }
}
