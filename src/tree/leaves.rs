//! Counting a game's lines of play from its events, without building a tree.

use crate::event::{Branch, Event};

/// Counts the leaves of a game's tree (the ends of its lines of play; its variations are one
/// fewer) from its events as they come: a line ends when a variation or the game closes right
/// after a node. A [`Branch::Sibling`] variation (KIF, KI2, JKF, Jago XML) is an alternative to
/// the current node, and the line it left goes on after it: where that line stood is put back
/// when the variation closes, so a sibling after the main line's last node leaves that node a
/// leaf. After a [`Branch::Child`] variation (SGF), the line it branched from has no node of its
/// own. `kifu stats` and the index count with it.
///
/// Memory: one byte per open variation, kept from game to game.
///
/// ```
/// use kifu::tree::LeafCounter;
/// use kifu::{Branch, Event};
///
/// // A main line of two nodes and a sibling of its last node (as KIF and KI2 give them).
/// let mut c = LeafCounter::new();
/// for ev in [Event::Node, Event::Node, Event::VariationStart(Branch::Sibling), Event::Node, Event::VariationEnd] {
///     c.feed(&ev);
/// }
/// assert_eq!(c.close(), 2); // two lines: one variation
/// ```
#[derive(Clone, Debug, Default)]
pub struct LeafCounter {
    leaves: u64,
    last_was_node: bool,
    /// For each open variation: 2 + whether a node ended the line a sibling variation left, or
    /// 0 for a child variation.
    open: Vec<u8>,
}

impl LeafCounter {
    /// A counter for a new game.
    pub fn new() -> LeafCounter {
        LeafCounter::default()
    }

    /// Starts a new game (keeping the allocation).
    pub fn reset(&mut self) {
        self.leaves = 0;
        self.last_was_node = false;
        self.open.clear();
    }

    /// A node.
    #[inline(always)]
    pub fn node(&mut self) {
        self.last_was_node = true;
    }

    /// A variation opens.
    pub fn variation_start(&mut self, branch: Branch) {
        self.open.push(if branch == Branch::Sibling { 2 + self.last_was_node as u8 } else { 0 });
        self.last_was_node = false;
    }

    /// A variation closes.
    pub fn variation_end(&mut self) {
        self.leaves += self.last_was_node as u64;
        self.last_was_node = self.open.pop() == Some(3);
    }

    /// Feeds one event: `Node`, `VariationStart` and `VariationEnd` count, `GameStart` resets;
    /// the others are passed over.
    #[inline]
    pub fn feed(&mut self, ev: &Event<'_>) {
        match ev {
            Event::Node => self.node(),
            Event::VariationStart(b) => self.variation_start(*b),
            Event::VariationEnd => self.variation_end(),
            Event::GameStart { .. } => self.reset(),
            _ => {}
        }
    }

    /// Closes the game (at its end, or where an error ended it): its line ends, and the leaves
    /// so far are returned (a game without nodes has none).
    pub fn close(&mut self) -> u64 {
        self.leaves += self.last_was_node as u64;
        self.last_was_node = false;
        self.leaves
    }

    /// The leaves counted so far (the open line not among them).
    pub fn leaves(&self) -> u64 {
        self.leaves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(events: &[Event<'static>]) -> u64 {
        let mut c = LeafCounter::new();
        events.iter().for_each(|e| c.feed(e));
        c.close()
    }

    #[test]
    fn lines_of_play() {
        use Event::{Node as N, VariationEnd as E};
        let child = Event::VariationStart(Branch::Child);
        let sib = Event::VariationStart(Branch::Sibling);
        assert_eq!(count(&[]), 0);
        assert_eq!(count(&[N, N]), 1);
        // SGF `(;B[pd](;W[dp];B[pp])(;W[dd]))`: two children.
        assert_eq!(count(&[N, child, N, N, E, child, N, E]), 2);
        // A sibling of the last node, then one of a middle node.
        assert_eq!(count(&[N, N, sib, N, E]), 2);
        assert_eq!(count(&[N, sib, N, E, N]), 2);
        // Two siblings of the last node, the second with a sibling of its own at its end.
        assert_eq!(count(&[N, N, sib, N, E, sib, N, sib, N, E, E]), 4);
        // An empty sibling variation adds no line.
        assert_eq!(count(&[N, sib, E]), 1);
    }
}
