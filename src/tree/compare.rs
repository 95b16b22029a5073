//! Canonical comparison of two trees (a loop over nodes; no recursion).

use super::{GameTree, NodeId};
use crate::sgf::write::{same, writes};

/// Where two trees differ; see [`GameTree::canonical_diff`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The first node (in pre-order) that differs.
    pub node: NodeId,
    /// What differs, for people: the two events (or shapes) side by side.
    pub what: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "node {}: {}", self.node.0, self.what)
    }
}

pub(super) fn canonical_diff(a: &GameTree<'_>, b: &GameTree<'_>) -> Option<Difference> {
    let n = a.len().max(b.len());
    for i in 0..n as u32 {
        let id = NodeId(i);
        if i as usize >= a.len() || i as usize >= b.len() {
            return Some(Difference { node: id, what: format!("{} nodes against {}", a.len(), b.len()) });
        }
        if a.parent(id) != b.parent(id) {
            return Some(Difference {
                node: id,
                what: format!("parent {:?} against {:?}", a.parent(id), b.parent(id)),
            });
        }
        let (mut x, mut y) = (a.events(id).filter(writes), b.events(id).filter(writes));
        loop {
            match (x.next(), y.next()) {
                (None, None) => break,
                (p, q) => {
                    let same = match (&p, &q) {
                        (Some(p), Some(q)) => same(p, q),
                        _ => false,
                    };
                    if !same {
                        return Some(Difference { node: id, what: format!("{p:?} against {q:?}") });
                    }
                }
            }
        }
    }
    None
}
