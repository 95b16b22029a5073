//! Canonical comparison of two trees (a loop over nodes; no recursion).

use super::{GameTree, NodeId};
use crate::event::{Event, InfoKey};

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
        let (mut x, mut y) = (a.events(id).filter(super::write::written), b.events(id).filter(super::write::written));
        loop {
            match (x.next(), y.next()) {
                (None, None) => break,
                (p, q) => {
                    let same = match (&p, &q) {
                        (Some(p), Some(q)) => same_event(p, q),
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

/// Property names without FF[3] lower-case letters (`AddBlack` = `AB`).
fn ident(name: &[u8]) -> impl Iterator<Item = u8> + '_ {
    name.iter().copied().filter(u8::is_ascii_uppercase)
}

/// Whether two events say the same thing once text is decoded.
pub(crate) fn same_event(p: &Event<'_>, q: &Event<'_>) -> bool {
    match (p, q) {
        (Event::Comment(a), Event::Comment(b)) | (Event::Name(a), Event::Name(b)) => a.decode().text == b.decode().text,
        (Event::Info(a), Event::Info(b)) => {
            a.key() == b.key()
                && (a.key() == InfoKey::Charset || a.value().decode().text == b.value().decode().text)
                && (a.key() != InfoKey::Other || ident(a.name()).eq(ident(b.name())))
        }
        (Event::Property(a), Event::Property(b)) => {
            ident(a.name()).eq(ident(b.name()))
                && a.value().sgf_values().map(|v| v.decode().text).eq(b.value().sgf_values().map(|v| v.decode().text))
        }
        (Event::Markup(a), Event::Markup(b)) => {
            a.kind == b.kind
                && a.point() == b.point()
                && a.to() == b.to()
                && a.label().decode().text == b.label().decode().text
        }
        _ => p == q,
    }
}
