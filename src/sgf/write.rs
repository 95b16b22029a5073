//! Writing events as SGF text: one event (or one node's worth of events) at a time.
//!
//! This module knows SGF's syntax — property identifiers, point letters, value escaping — and
//! nothing of trees; the canonical writer of whole games (`kifu::tree::write`) walks a tree
//! and hands each node's events to a [`NodeWriter`].
//!
//! What one event becomes:
//! - Go moves `B[pd]`, passes `B[]`; setup `AB[aa]`, `AW[aa]`, `AE[aa]`; `PL[B]`; one point per
//!   value (no `aa:cc` rectangles); points beyond 52×52 as `__`.
//! - Comments, names, info and property values: text decoded and re-escaped (`\` and `]`, and
//!   `:` in labels), so the output is UTF-8 and `CA` is written as `CA[UTF-8]`. A property is
//!   written under its upper-case letters (`AddBlack` → `AB`; a name with a digit, `B5L`,
//!   verbatim), each of its values in brackets.
//! - Marks: `CR[aa]`, `LB[aa:text]`, `AR[aa:bb]`; times left in seconds (`BL[12.5]`), periods
//!   left as a count (`OB[3]`).
//! - Shogi moves as CSA moves (`+7776FU`, `00` for a drop) outside any property; shogi setup as
//!   `XS[+77FU]` (a piece in hand `XS[+00FU]`, an emptied square `XS[77]`).
//! - Left out ([`writes`] says which): engine evaluations, clock readings other than a player's
//!   time or periods left, marks of [`MarkupKind::Other`], info whose key has no SGF property and
//!   whose own name is not an SGF identifier, properties whose name has no upper-case letter,
//!   and the stream's structure (game start and end, nodes, variations, warnings).
//!
//! ```
//! use kifu::sgf::write::NodeWriter;
//! use kifu::{Color, Event, Move, Point, Setup};
//!
//! let mut out = Vec::new();
//! let mut node = NodeWriter::new();
//! for p in [Point::new(3, 3), Point::new(15, 15)] {
//!     node.event(&Event::Setup(Setup::Go { color: Some(Color::Black), point: p }), &mut out);
//! }
//! node.event(&Event::Move(Move::Go { color: Color::White, point: None }), &mut out);
//! assert_eq!(out, b"AB[dd][pp]W[]");
//! ```

use super::props::{info_ident, markup_ident, point_letters};
use crate::event::{ClockKind, Color, Event, InfoKey, MarkupKind, Move, Point, Setup, ShogiMove};

/// Writes the events of one SGF node, grouping consecutive values of one property
/// (`AB[aa][bb]`). Call [`NodeWriter::new_node`] where a node starts (after writing its `;`).
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeWriter {
    /// The identifier of the property being written, if values may still be appended to it.
    last: Option<&'static str>,
}

impl NodeWriter {
    /// A writer at the start of a node.
    pub fn new() -> NodeWriter {
        NodeWriter::default()
    }

    /// Starts a new node: the next value opens its property even if the last one had the same
    /// identifier.
    pub fn new_node(&mut self) {
        self.last = None;
    }

    fn open(&mut self, ident: &'static str, out: &mut Vec<u8>) {
        if self.last != Some(ident) {
            out.extend_from_slice(ident.as_bytes());
            self.last = Some(ident);
        }
        out.push(b'[');
    }

    /// Appends `ev` as SGF (see the [module docs](self)); events that SGF does not write
    /// ([`writes`] is false) append nothing.
    #[inline]
    pub fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>) {
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
                let Some(ident) = markup_ident(m.kind) else { return };
                self.open(ident, out);
                if let Some(p) = m.point() {
                    point(p, out);
                    if let Some(q) = m.to() {
                        out.push(b':');
                        point(q, out);
                    } else if m.kind == MarkupKind::Label {
                        out.push(b':');
                        escape(&m.label().decode().text, true, out);
                    }
                }
                out.push(b']');
            }
            Event::Comment(t) => {
                self.open("C", out);
                escape(&t.decode().text, false, out);
                out.push(b']');
            }
            Event::Name(t) => {
                self.open("N", out);
                escape(&t.decode().text, false, out);
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
                let ident = match info_ident(i.key()) {
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
                        escape(&i.value().decode().text, false, out);
                        out.push(b']');
                        return;
                    }
                };
                self.open(ident, out);
                if i.key() == InfoKey::Charset {
                    out.extend_from_slice(b"UTF-8");
                } else {
                    escape(&i.value().decode().text, false, out);
                }
                out.push(b']');
            }
            Event::Property(p) => {
                let start = out.len();
                out.extend(ident(p.name()));
                if out.len() == start {
                    return;
                }
                self.last = None;
                for v in p.value().sgf_values() {
                    out.push(b'[');
                    escape(&v.decode().text, false, out);
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

/// Whether [`NodeWriter::event`] writes anything for `ev` (see the [module docs](self) for what
/// it leaves out).
pub fn writes(ev: &Event<'_>) -> bool {
    match ev {
        Event::Evaluation(_) => false,
        Event::Clock(c) => c.color.is_some() && c.kind != ClockKind::ElapsedMs,
        Event::Markup(m) => markup_ident(m.kind).is_some(),
        Event::Info(i) => {
            info_ident(i.key()).is_some() || !i.name().is_empty() && i.name().iter().all(u8::is_ascii_uppercase)
        }
        Event::Property(p) => ident(p.name()).next().is_some(),
        Event::Move(_) | Event::Setup(_) | Event::Turn(_) | Event::Comment(_) | Event::Name(_) => true,
        Event::GameStart { .. }
        | Event::Node
        | Event::VariationStart(_)
        | Event::VariationEnd
        | Event::Warning(_)
        | Event::GameEnd { .. } => false,
    }
}

/// Whether two events say the same thing in SGF once text is decoded: comments, names, info,
/// property values and labels compared decoded (so escapes and charsets do not matter), property
/// names without `FF[3]` lower-case letters, info by key and value (not by the format's own
/// name, except for [`InfoKey::Other`]; `CA` by key only, since the writer re-encodes text);
/// other events compared whole.
pub(crate) fn same(p: &Event<'_>, q: &Event<'_>) -> bool {
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

/// A property's name as written: without FF\[3\] lower-case letters (`AddBlack` = `AB`), or
/// verbatim when it holds a digit (`B5L`, `c2`: a non-standard identifier the reader kept as it
/// is; its upper-case letters alone could name another property, `BL`).
fn ident(name: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let verbatim = name.iter().any(u8::is_ascii_digit);
    name.iter().copied().filter(move |b| verbatim || b.is_ascii_uppercase())
}

/// Appends a move as one property with its value, without grouping: `B[pd]`, `W[]` (a pass),
/// `+7776FU` (shogi, as CSA writes it, `00` for a drop). The moves-only canonical form and the
/// index's main-line hashes are made of these.
///
/// ```
/// use kifu::{Color, Move, Point};
///
/// let mut out = Vec::new();
/// kifu::sgf::write::write_move(Move::Go { color: Color::Black, point: Some(Point::new(15, 3)) }, &mut out);
/// assert_eq!(out, b"B[pd]");
/// ```
#[inline]
pub fn write_move(m: Move, out: &mut Vec<u8>) {
    match m {
        Move::Go { color, point: p } => {
            // One copy per move: this runs for every move of every game the index reads.
            let c = if color == Color::Black { b'B' } else { b'W' };
            match p {
                None => out.extend_from_slice(&[c, b'[', b']']),
                Some(p) => {
                    let [x, y] = point_letters(p).unwrap_or(*b"__");
                    out.extend_from_slice(&[c, b'[', x, y, b']']);
                }
            }
        }
        Move::Shogi(s) => shogi(s, out),
    }
}

/// Appends `text` escaped for an SGF value: a `\` before each `\` and `]`, and before each `:`
/// when `compose` (the text is one half of a composed value such as a label's).
pub fn escape(text: &str, compose: bool, out: &mut Vec<u8>) {
    for &b in text.as_bytes() {
        if b == b'\\' || b == b']' || compose && b == b':' {
            out.push(b'\\');
        }
        out.push(b);
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

#[inline]
fn point(p: Point, out: &mut Vec<u8>) {
    match point_letters(p) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Clock, Markup, Piece, Square};
    use crate::text::{Charset, Text, TextRule};

    fn write(events: &[Event<'_>]) -> String {
        let mut out = Vec::new();
        let mut w = NodeWriter::new();
        for ev in events {
            w.event(ev, &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn groups_and_escapes() {
        let text = Text::new(br"a\]b:c", TextRule::SgfText, Charset::Utf8);
        let black = |x| Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(x, 0) });
        let out = write(&[
            black(0),
            black(1),
            Event::Comment(text),
            Event::Markup(Markup::with_label(MarkupKind::Label, Some(Point::new(2, 2)), text)),
            Event::Markup(Markup::new(MarkupKind::Arrow, Some(Point::new(0, 0)), Some(Point::new(51, 52)))),
        ]);
        assert_eq!(out, r"AB[aa][ba]C[a\]b:c]LB[cc:a\]b\:c]AR[aa:__]");
    }

    #[test]
    fn clocks_shogi_and_left_out() {
        let clock = |kind, value| Event::Clock(Clock { color: Some(Color::White), kind, value });
        let shogi = ShogiMove { color: Color::White, from: None, to: Square::new(5, 5), piece: Piece::Pawn };
        let evs = [
            clock(ClockKind::TimeLeftMs, 12_500),
            clock(ClockKind::TimeLeftMs, 7_020),
            clock(ClockKind::PeriodsLeft, 3),
            clock(ClockKind::ElapsedMs, 3),
            Event::Move(Move::Shogi(shogi)),
            Event::Setup(Setup::ShogiRemove { square: Square::new(7, 7) }),
            Event::Markup(Markup::new(MarkupKind::Other, Some(Point::new(0, 0)), None)),
            Event::Node,
        ];
        assert_eq!(write(&evs), "WL[12.5][7.02]OW[3]-0055FUXS[77]");
        let kept: Vec<bool> = evs.iter().map(writes).collect();
        assert_eq!(kept, [true, true, true, false, true, true, false, false]);
    }

    #[test]
    fn new_node_reopens() {
        let mut out = Vec::new();
        let mut w = NodeWriter::new();
        let b = Event::Move(Move::Go { color: Color::Black, point: None });
        w.event(&b, &mut out);
        w.event(&b, &mut out);
        out.push(b';');
        w.new_node();
        w.event(&b, &mut out);
        assert_eq!(out, b"B[][];B[]");
    }
}
