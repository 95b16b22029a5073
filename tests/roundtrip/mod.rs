//! Shared by the writers' round-trip tests: a tree's canonical view with a target's known losses
//! applied, so that "read → write → read gives the same tree" can be asserted exactly.
//!
//! The view is the tree's shape (every node's parent) and, per node, its events as canonical SGF
//! (`kifu::sgf::write::NodeWriter`, one event at a time: text decoded, the events SGF leaves out
//! left out, as `GameTree::canonical_diff` compares them), sorted, because a JSON or XML node
//! groups its events by kind rather than keeping their order. The game node's events count as
//! the root's (a header reads back in the game node, an SGF root holds the game information).
//! Comments of one node are joined by newlines (what a JSON array of comments reads back as).
//! Each target's losses (the tables in the writers' module docs) are applied by [`Losses`].
#![allow(dead_code)]

use bumpalo::Bump;
use kifu::sgf::write::{writes, NodeWriter};
use kifu::text::{Charset, Text, TextRule};
use kifu::tree::{GameTree, NodeId};
use kifu::{ClockKind, Event, InfoKey, Markup, MarkupKind, Move, Setup};

/// What a target loses (see each writer's table).
#[derive(Clone, Copy, Debug, Default)]
pub struct Losses {
    /// Only the first move of a node is kept.
    pub one_move: bool,
    /// Which clocks survive: `None` all, `Some(true)` the mover's time and periods left (first
    /// of each), `Some(false)` none.
    pub clocks: Option<bool>,
    /// Clocks survive only as time left or periods left of a colour, first of each per colour.
    pub clocks_per_color: bool,
    /// `Dim` and `Visible` marks are lost.
    pub dim_visible: bool,
    /// Arrows and lines lose their end point.
    pub arrow_ends: bool,
    /// Marks other than these survive only as properties of the same SGF spelling (nothing lost).
    /// Only the first name of a node is kept.
    pub one_name: bool,
    /// `FF`, `GM` and the duplicate infos of one key (dates aside) are lost.
    pub header: bool,
    /// Several values of a property read back as one, joined by newlines.
    pub joined_values: bool,
    /// Turn (`PL`) lost.
    pub turn: bool,
    /// Points off the board (as the game's board size says, 19 without one) are dropped by the
    /// target's reader.
    pub off_board: bool,
    /// SGF's text rules: a line break in simple text (`GN`, `PB`…) reads back as a space, and
    /// `\r\n` as `\n`; every run of white space is compared as one space.
    pub sgf_text: bool,
}

/// The board size a tree's game information gives (19×19 without one).
pub fn board_size(t: &GameTree<'_>) -> (u8, u8) {
    for e in t.events(NodeId::GAME).chain(t.events(NodeId(1))) {
        if let Event::Info(i) = e {
            if i.key() == InfoKey::BoardSize {
                let s = i.value().decode().text.into_owned();
                let mut it = s.split(':').map(|p| p.trim().parse::<u8>().ok());
                return match (it.next().flatten(), it.next().flatten()) {
                    (Some(w), Some(h)) => (w, h),
                    (Some(w), None) => (w, w),
                    _ => (19, 19),
                };
            }
        }
    }
    (19, 19)
}

/// Every game of `bytes` as trees, read by `read` (a reader over the bytes), into `bump`.
pub fn trees<'b, S: kifu::EventSource>(bump: &'b Bump, mut source: S) -> Vec<GameTree<'b>> {
    let mut out = Vec::new();
    let mut b = kifu::tree::Builder::new();
    while let Ok(Some(t)) = b.build(bump, &mut source) {
        out.push(t);
    }
    out
}

/// Whether a tree holds shogi.
pub fn is_shogi(t: &GameTree<'_>) -> bool {
    t.nodes().any(|n| t.events(n).any(|e| matches!(e, Event::Move(Move::Shogi(_)) | Event::Setup(Setup::Shogi { .. }))))
}

/// A property name as the canonical writer spells it (no FF[3] lower-case letters).
fn canon_name(name: &[u8]) -> String {
    let verbatim = name.iter().any(u8::is_ascii_digit);
    let name: Vec<u8> = name.iter().copied().filter(|b| verbatim || b.is_ascii_uppercase()).collect();
    String::from_utf8_lossy(&name).into_owned()
}

/// One SGF value escaped as the canonical writer escapes it.
fn sgf_value(v: &str) -> String {
    format!("[{}]", v.replace('\\', "\\\\").replace(']', "\\]"))
}

fn render(e: &Event<'_>, joined: bool) -> String {
    if let Event::Property(p) = e {
        // A JSON array of strings (a pass-through of several values) as several values.
        if p.value().rule() == TextRule::Plain {
            if let Ok(serde_json::Value::Array(items)) = serde_json::from_slice::<serde_json::Value>(p.value().raw()) {
                if items.iter().all(|v| v.is_string()) {
                    let mut s = canon_name(p.name());
                    let values: Vec<&str> = items.iter().map(|v| v.as_str().unwrap_or_default()).collect();
                    if joined {
                        s.push_str(&sgf_value(&values.join("\n")));
                    } else {
                        for v in values {
                            s.push_str(&sgf_value(v));
                        }
                    }
                    return s;
                }
            }
        }
    }
    let (mut out, mut repairs) = (Vec::new(), Vec::new());
    // A shogi event (refused by SGF) has no SGF spelling: its debug form stands for it.
    if NodeWriter::new().event(e, &mut out, &mut repairs).is_err() {
        return format!("{e:?}");
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The canonical view of one tree: per node, its parent and its sorted canonical events.
pub fn view(t: &GameTree<'_>, l: &Losses) -> Vec<(Option<u32>, Vec<String>)> {
    let mut nodes = Vec::with_capacity(t.len());
    let (w, h) = board_size(t);
    let on = |p: Option<kifu::Point>| p.is_none_or(|p| p.x < w && p.y < h);
    for n in t.nodes() {
        let parent = t.parent(n).map(|p| p.0);
        if n == NodeId::GAME && t.len() > 1 {
            nodes.push((parent, Vec::new()));
            continue;
        }
        let root = n == NodeId(1);
        let evs: Vec<Event<'_>> =
            if root { t.events(NodeId::GAME).chain(t.events(n)).collect() } else { t.events(n).collect() };
        let mut out = Vec::new();
        let mut comments: Vec<String> = Vec::new();
        let mut mover = None;
        let (mut moves, mut names) = (0, 0);
        let mut seen_clocks: Vec<(Option<kifu::Color>, ClockKind)> = Vec::new();
        let mut seen_info: Vec<InfoKey> = Vec::new();
        for e in &evs {
            if let Event::Move(m) = e {
                if mover.is_none() {
                    mover = Some(m.color());
                }
            }
        }
        for e in evs {
            if !writes(&e) {
                continue;
            }
            if l.off_board {
                let off = match e {
                    Event::Move(Move::Go { point, .. }) => !on(point),
                    Event::Setup(Setup::Go { point, .. }) => !on(Some(point)),
                    Event::Markup(m) => !on(m.point()),
                    _ => false,
                };
                if off {
                    continue;
                }
            }
            match e {
                Event::Move(_) => {
                    moves += 1;
                    if l.one_move && moves > 1 {
                        continue;
                    }
                }
                Event::Name(_) => {
                    names += 1;
                    if l.one_name && names > 1 {
                        continue;
                    }
                }
                Event::Turn(_) if l.turn => continue,
                Event::Clock(c) => {
                    match l.clocks {
                        Some(false) => continue,
                        Some(true) if c.color != mover || mover.is_none() => continue,
                        _ => {}
                    }
                    if l.clocks.is_some() || l.clocks_per_color {
                        if seen_clocks.contains(&(c.color, c.kind)) {
                            continue;
                        }
                        seen_clocks.push((c.color, c.kind));
                    }
                }
                Event::Markup(m) => {
                    if m.point().is_none() && l.arrow_ends {
                        continue;
                    }
                    if l.dim_visible && matches!(m.kind, MarkupKind::Dim | MarkupKind::Visible) {
                        continue;
                    }
                    if l.arrow_ends && matches!(m.kind, MarkupKind::Arrow | MarkupKind::Line) {
                        out.push(render(&Event::Markup(Markup::new(m.kind, m.point(), None)), false));
                        continue;
                    }
                }
                Event::Info(i) if l.header && root => {
                    if matches!(i.key(), InfoKey::FormatVersion | InfoKey::GameType) {
                        continue;
                    }
                    if i.key() != InfoKey::Date && i.key() != InfoKey::Other {
                        if seen_info.contains(&i.key()) {
                            continue;
                        }
                        seen_info.push(i.key());
                    }
                }
                Event::Comment(c) => {
                    comments.push(c.decode().text.into_owned());
                    continue;
                }
                Event::Property(p) if l.joined_values && p.value().rule() == TextRule::SgfValues => {
                    let joined: Vec<String> = p.value().sgf_values().map(|v| v.decode().text.into_owned()).collect();
                    out.push(format!("{}{}", canon_name(p.name()), sgf_value(&joined.join("\n"))));
                    continue;
                }
                _ => {}
            }
            out.push(render(&e, l.joined_values));
        }
        if !comments.is_empty() {
            let joined = comments.join("\n");
            out.push(render(&Event::Comment(Text::new(joined.as_bytes(), TextRule::Plain, Charset::Utf8)), false));
        }
        if l.sgf_text {
            for e in &mut out {
                *e = e.split_whitespace().collect::<Vec<_>>().join(" ");
            }
        }
        out.sort();
        nodes.push((parent, out));
    }
    nodes
}

/// The first difference between two views, for a message.
pub fn diff(a: &[(Option<u32>, Vec<String>)], b: &[(Option<u32>, Vec<String>)]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} nodes against {}", a.len(), b.len()));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            let only_a: Vec<_> = x.1.iter().filter(|e| !y.1.contains(e)).collect();
            let only_b: Vec<_> = y.1.iter().filter(|e| !x.1.contains(e)).collect();
            return Some(format!(
                "node {i} (parents {:?}, {:?}; {} and {} events): only before {only_a:?}, only after {only_b:?}",
                x.0,
                y.0,
                x.1.len(),
                y.1.len()
            ));
        }
    }
    None
}
