//! Writing events as SGF FF\[4\]: one event at a time, one node after another.
//!
//! This module knows SGF's syntax — property identifiers, point letters, value escaping, what a
//! node may hold — and nothing of trees; the canonical writer of whole games
//! (`kifu::tree::write`) walks a tree and hands each node's events to a [`NodeWriter`]. It
//! streams: each event is written when it comes, and the only state is the current node's
//! properties (their positions in the output) and points, so the output buffer is the only
//! memory that grows.
//!
//! What one event becomes:
//! - Go moves `B[pd]`, passes `B[]` (an FF\[3\] `B[tt]` was read as a pass, so it is written
//!   `B[]`); setup `AB[aa]`, `AW[aa]`, `AE[aa]`; `PL[B]`; one point per value (no `aa:cc`
//!   rectangles).
//! - Comments, names, info and property values: text decoded from its own rule and charset and
//!   re-escaped (`\` and `]`, and `:` in labels), so the output is UTF-8; the root says
//!   `FF[4]GM[1]CA[UTF-8]` ([`NodeWriter::root`]), whatever the input's `FF`, `GM` and `CA` were
//!   (a JGF `"go"` is `GM[1]`; a number is kept). `AP` is composed (`name:version`): a value
//!   without `:` (another format's free text, `Seki v4.3.0`) gets an empty version
//!   (`AP[Seki v4.3.0:]`), the same application for the canonical comparison. A property is
//!   written under its upper-case letters (`AddBlack` → `AB`; a name with a digit, `B5L`,
//!   verbatim), each of its values in brackets (an unknown property keeps all of its values).
//! - Marks: `CR[aa]`, `LB[aa:text]`, `AR[aa:bb]`; times left in seconds (`BL[12.5]`), periods
//!   left as a count (`OB[3]`).
//! - Shogi moves and setup: refused ([`Refusal::Shogi`]): SGF has no shogi notation.
//!
//! One property of a kind per node, as FF\[4\] requires; each repair is reported as a
//! [`Repair`] (never silently):
//! - a second comment is joined to the first, a blank line between ([`RepairKind::CommentJoined`]);
//! - a second move starts a new node ([`RepairKind::MoveSplit`]);
//! - a list property (setup, marks, an unknown property) that comes back after another one in
//!   the same node has its values merged into the first list ([`RepairKind::ListMerged`]);
//!   consecutive values of one property are one list and no repair;
//! - a second single-valued property (name, game info, `PL`, a clock, a known SGF property such
//!   as `KO`) is left out, the first kept ([`RepairKind::DuplicateDropped`]);
//! - a point the board cannot hold (off the board of the root's `SZ`, default 19×19, as a
//!   compressed list `AW[ff:zz]` gives) is left out ([`RepairKind::OffBoard`]), as is a point
//!   given twice in one node's setup or marks ([`RepairKind::PointRepeated`]).
//!
//! Lines break before a node (`;` or `(`) once the current line holds
//! [`LINE_WIDTH`] bytes or more, never inside a value.
//!
//! Writing allocates nothing beyond the output buffer once the writer's scratch has grown,
//! except for a [`Repair`] (its strings) and text in another charset than UTF-8 or another rule
//! than SGF's (one string per value, from [`Text::decode`]).
//!
//! ## Known losses
//! What a round trip (read → tree → write → read) does not give back, and why. The canonical
//! comparison ([`crate::tree::GameTree::canonical_diff`]) skips the first group ([`writes`] is
//! false for them); `tests/sgf_write.rs` asserts the second over the corpus.
//!
//! | Loss | Why |
//! |---|---|
//! | `FF`, `GM`, `CA` as the input had them | regenerated: `FF[4]GM[1]CA[UTF-8]` (a numeric `GM` kept) |
//! | the spelling of text (escapes, charset, an `AP` without version) | decoded and re-escaped; compared decoded |
//! | engine evaluations; clock readings other than time or periods left | SGF has no property for them |
//! | marks of [`MarkupKind::Other`]; info with no SGF name and a name that is no SGF identifier | no SGF spelling |
//! | properties whose name has no upper-case letter | not an SGF identifier |
//! | a repaired node (see [`RepairKind`]) | the repair itself: joined comments, split nodes, merged lists, dropped duplicates and points |
//!
//! ```
//! use kifu::sgf::write::NodeWriter;
//! use kifu::{Color, Event, Move, Point, Setup};
//!
//! let (mut out, mut repairs) = (Vec::new(), Vec::new());
//! let mut node = NodeWriter::new();
//! node.begin_game(&out);
//! for p in [Point::new(3, 3), Point::new(15, 15), Point::new(20, 3)] {
//!     node.event(&Event::Setup(Setup::Go { color: Some(Color::Black), point: p }), &mut out, &mut repairs).unwrap();
//! }
//! node.start_node(false, &mut out);
//! node.event(&Event::Move(Move::Go { color: Color::White, point: None }), &mut out, &mut repairs).unwrap();
//! assert_eq!(out, b"AB[dd][pp];W[]");
//! assert_eq!(repairs[0].kind.as_str(), "off_board"); // `ud` is off a 19×19 board
//! ```

mod repair;
mod value;

pub use repair::{Refusal, Repair, RepairKind};
pub use value::escape;

use super::props::{info_ident, is_defined, markup_ident, point_letters};
use crate::event::{ClockKind, Color, Event, InfoKey, MarkupKind, Move, Point, Setup, ShogiMove};
use crate::text::{Text, TextRule};

/// A line is broken before the next node once it holds this many bytes.
pub const LINE_WIDTH: usize = 72;

/// How a repeated property of one node is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Values merged into one list.
    List,
    /// The first kept.
    Single,
}

/// One property written in the current node: where its name starts and its values end.
#[derive(Clone, Copy, Debug)]
struct Slot {
    name: usize,
    len: usize,
    end: usize,
}

/// No slot or position: [`NodeWriter`]'s `pending` and `last` when there is none.
const NONE: usize = usize::MAX;

/// Bits for the points of a 52×52 board.
const POINT_WORDS: usize = (52 * 52usize).div_ceil(64);

/// Writes the events of SGF nodes (see the [module docs](self)): call [`NodeWriter::begin_game`]
/// at a game's start, [`NodeWriter::root`] for the root's format properties,
/// [`NodeWriter::start_node`] for each further node, and [`NodeWriter::event`] for each event.
/// Keeps its scratch (the current node's properties) between games.
///
/// Within a node the output must only grow (the writer merges repeated properties in place);
/// between nodes the caller may take it away (write it out and clear it).
#[derive(Clone, Debug)]
pub struct NodeWriter {
    slots: Vec<Slot>,
    /// Where the node's first property starts when it is a move written by
    /// [`NodeWriter::go_move`]'s fast path ([`NONE`]: no such move): kept out of `slots` (a
    /// push per move) until another event of the node needs them. Always the node's first
    /// property, so no later insertion moves it; its value holds no `]`, so it ends at the
    /// first one. (One word, not a [`Slot`]: the fast path stores as little as it can.)
    pending: usize,
    /// The slot the last event wrote to, or [`NONE`] (values of one property in a row make one
    /// list).
    last: usize,
    /// A bit for each identifier in `slots` ([`ident_bit`]): most properties are new to their
    /// node, and a clear bit says so without comparing every slot's name.
    present: u64,
    moved: bool,
    /// The node holds move properties (a move, a clock, `KO`…), setup properties.
    has_move_props: bool,
    has_setup: bool,
    size: (u8, u8),
    /// Where the current output line starts, and how far `out` has been searched for newlines.
    line: usize,
    scanned: usize,
    offset: Option<u64>,
    /// Points of the node's setup, and of its marks, already written.
    setup: [u64; POINT_WORDS],
    marks: [u64; POINT_WORDS],
    /// Whether `setup` or `marks` has a bit set.
    points: bool,
    /// Whether text values were written since `scanned`.
    texts: bool,
}

impl Default for NodeWriter {
    fn default() -> NodeWriter {
        NodeWriter {
            slots: Vec::new(),
            pending: NONE,
            last: NONE,
            present: 0,
            moved: false,
            has_move_props: false,
            has_setup: false,
            size: (19, 19),
            line: 0,
            scanned: 0,
            offset: None,
            setup: [0; POINT_WORDS],
            marks: [0; POINT_WORDS],
            points: false,
            texts: false,
        }
    }
}

impl NodeWriter {
    /// A writer for a 19×19 board at the start of a node.
    pub fn new() -> NodeWriter {
        NodeWriter::default()
    }

    /// Starts a game whose text begins at the end of `out`: a 19×19 board (until
    /// [`NodeWriter::set_board_size`] or an `SZ` event says otherwise), a new line count, a new
    /// node.
    pub fn begin_game(&mut self, out: &[u8]) {
        self.size = (19, 19);
        self.line = out.len();
        self.scanned = out.len();
        self.texts = false;
        self.clear_node();
    }

    /// The board's size (columns, rows), for telling points off the board; SGF's `SZ` as the
    /// root says it, which may come after the points it bounds.
    pub fn set_board_size(&mut self, columns: u8, rows: u8) {
        self.size = (columns.clamp(1, 52), rows.clamp(1, 52));
    }

    /// The byte offset in its input of the event about to be written, for the repairs it may
    /// cause (`None`: unknown).
    pub fn set_offset(&mut self, offset: Option<u64>) {
        self.offset = offset;
    }

    /// Writes the root's format properties, `FF[4]GM[n]CA[UTF-8]`, into the current node (right
    /// after the root's `;`). `game` is the root's `GM` value, if any (`1`, or another format's
    /// `go`); a value that is neither a number nor a name of Go becomes `1` with a
    /// [`RepairKind::GameType`] repair.
    pub fn root(&mut self, game: Option<&Text<'_>>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        self.root_of(game, false, out, repairs)
    }

    /// [`root`](Self::root) for a game holding Go moves or setup stones: its `GM` value, if it is
    /// not Go's (`1`, or a name of Go), is written as `1` with a [`RepairKind::GameType`] repair.
    /// (A reader gives Go moves in a game whose `GM` came after them, in a malformed root; its
    /// `GM` written first would make a reader read them as another game's properties.)
    pub fn root_of_go(&mut self, game: Option<&Text<'_>>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        self.root_of(game, true, out, repairs)
    }

    fn root_of(&mut self, game: Option<&Text<'_>>, go: bool, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        out.extend_from_slice(b"FF[4]GM[");
        let start = out.len();
        if let Some(t) = game {
            let d = t.decode();
            let v = d.text.trim();
            let number = !v.is_empty() && v.len() <= 3 && v.bytes().all(|b| b.is_ascii_digit()) && v != "0";
            if go && number && v != "1" {
                repairs.push(Repair::new(RepairKind::GameType, b"GM", v, self.offset));
            } else if number {
                out.extend_from_slice(v.as_bytes());
            } else if !["go", "baduk", "weiqi", "igo"].iter().any(|g| v.eq_ignore_ascii_case(g)) {
                repairs.push(Repair::new(RepairKind::GameType, b"GM", v, self.offset));
            }
        }
        if out.len() == start {
            out.push(b'1');
        }
        out.extend_from_slice(b"]CA[UTF-8]");
    }

    /// Starts a new node: a line break when the line is full, `(` when `paren` (the node opens
    /// a variation), then `;`.
    #[inline]
    pub fn start_node(&mut self, paren: bool, out: &mut Vec<u8>) {
        if out.len() < self.scanned {
            // The caller took the output away (flushed it): count the line from here.
            self.line = out.len();
            self.scanned = out.len();
        }
        // Only text values hold newlines.
        if self.texts {
            if let Some(i) = last_newline(&out[self.scanned.min(out.len())..]) {
                self.line = self.scanned + i + 1;
            }
            self.texts = false;
        }
        if out.len().saturating_sub(self.line) >= LINE_WIDTH {
            out.push(b'\n');
            self.line = out.len();
        }
        self.scanned = out.len();
        if paren {
            out.push(b'(');
        }
        out.push(b';');
        self.clear_node();
    }

    fn clear_node(&mut self) {
        self.slots.clear();
        self.present = 0;
        self.pending = NONE;
        self.last = NONE;
        self.moved = false;
        self.has_move_props = false;
        self.has_setup = false;
        if self.points {
            self.setup = [0; POINT_WORDS];
            self.marks = [0; POINT_WORDS];
            self.points = false;
        }
    }

    /// [`NodeWriter::event`] for a Go move (`None`: a pass), which is never refused: the
    /// common case, a node's first property, is written in one piece.
    #[inline]
    pub fn go_move(&mut self, color: Color, point: Option<Point>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        if !self.slots.is_empty() || self.pending != NONE {
            // Cannot fail: only shogi is refused.
            let _ = self.event_slow(&Event::Move(Move::Go { color, point }), out, repairs);
            return;
        }
        let at = out.len();
        let c = if color == Color::Black { b'B' } else { b'W' };
        match point.and_then(point_letters) {
            Some([x, y]) => out.extend_from_slice(&[c, b'[', x, y, b']']),
            None if point.is_none() => out.extend_from_slice(&[c, b'[', b']']),
            None => out.extend_from_slice(&[c, b'[', b'_', b'_', b']']),
        }
        self.moved_first(at);
    }

    /// [`NodeWriter::start_node`] then [`NodeWriter::go_move`]: a node that opens with a move,
    /// the most common node of all, written in one piece when the line has room for it.
    #[inline(always)]
    pub fn move_node(
        &mut self,
        paren: bool,
        color: Color,
        point: Option<Point>,
        out: &mut Vec<u8>,
        repairs: &mut Vec<Repair>,
    ) {
        let len = out.len();
        let letters = match point {
            Some(p) if !(paren | self.texts | self.points) => point_letters(p),
            _ => None,
        };
        match letters {
            // What `start_node` does when no text or point was written since the last node,
            // and a move on the board.
            Some([x, y]) if len >= self.scanned => {
                let len = if len - self.line >= LINE_WIDTH {
                    out.push(b'\n');
                    self.line = len + 1;
                    len + 1
                } else {
                    len
                };
                self.scanned = len;
                self.slots.clear();
                self.present = 0;
                self.has_setup = false;
                let c = if color == Color::Black { b'B' } else { b'W' };
                out.extend_from_slice(&[b';', c, b'[', x, y, b']']);
                self.moved_first(len + 1);
            }
            _ => self.move_node_slow(paren, color, point, out, repairs),
        }
    }

    /// [`NodeWriter::move_node`] the long way: a variation, a pass, text in the last node.
    #[inline(never)]
    fn move_node_slow(
        &mut self,
        paren: bool,
        color: Color,
        point: Option<Point>,
        out: &mut Vec<u8>,
        repairs: &mut Vec<Repair>,
    ) {
        self.start_node(paren, out);
        self.go_move(color, point, out, repairs);
    }

    /// Records a move written as the node's first property, at `at`.
    #[inline(always)]
    fn moved_first(&mut self, at: usize) {
        self.pending = at;
        self.last = 0;
        self.moved = true;
        self.has_move_props = true;
    }

    /// Appends `ev` to the current node (see the [module docs](self)); events that SGF does not
    /// write ([`writes`] is false) append nothing. Every change made to keep the node valid is
    /// pushed to `repairs`. A shogi move or setup is refused, and nothing is written.
    #[inline]
    pub fn event(&mut self, ev: &Event<'_>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) -> Result<(), Refusal> {
        if let Event::Move(Move::Go { color, point }) = *ev {
            self.go_move(color, point, out, repairs);
            return Ok(());
        }
        self.event_slow(ev, out, repairs)
    }

    /// [`NodeWriter::event`] but for Go moves that open a node.
    #[inline(never)]
    fn event_slow(&mut self, ev: &Event<'_>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) -> Result<(), Refusal> {
        if self.pending != NONE {
            let at = std::mem::replace(&mut self.pending, NONE);
            // (A move that is no longer in `out` gets a slot `find` never matches.)
            let end = match out.get(at..).and_then(|o| o.iter().position(|&b| b == b']')) {
                Some(i) => at + i + 1,
                None => usize::MAX,
            };
            if let Some(ident) = out.get(at..at + 1) {
                self.present |= ident_bit(ident);
            }
            self.slots.push(Slot { name: at, len: 1, end });
        }
        self.texts |=
            matches!(ev, Event::Comment(_) | Event::Name(_) | Event::Info(_) | Event::Property(_) | Event::Markup(_));
        match *ev {
            Event::Move(Move::Go { color, point: p }) => {
                let ident: &[u8] = if color == Color::Black { b"B" } else { b"W" };
                if self.moved || self.has_setup {
                    let kind = if self.moved { RepairKind::MoveSplit } else { RepairKind::SetupSplit };
                    let v = p.and_then(point_letters).unwrap_or(*b"  ");
                    repairs.push(Repair::new(kind, ident, String::from_utf8_lossy(&v).trim(), self.offset));
                    self.start_node(false, out);
                }
                self.moved = true;
                self.has_move_props = true;
                self.put(ident, Rule::Single, out, repairs, |out| {
                    out.push(b'[');
                    if let Some(p) = p {
                        out.extend_from_slice(&point_letters(p).unwrap_or(*b"__"));
                    }
                    out.push(b']');
                });
            }
            Event::Move(Move::Shogi(_)) | Event::Setup(Setup::Shogi { .. } | Setup::ShogiRemove { .. }) => {
                return Err(Refusal::Shogi)
            }
            Event::Setup(Setup::Go { color, point: p }) => {
                let ident: &[u8] = match color {
                    Some(Color::Black) => b"AB",
                    Some(Color::White) => b"AW",
                    None => b"AE",
                };
                if let Some(xy) = self.check_point(ident, p, true, repairs) {
                    self.setup_prop(ident, &xy, out, repairs);
                    self.put(ident, Rule::List, out, repairs, |out| {
                        out.extend_from_slice(&[b'[', xy[0], xy[1], b']']);
                    });
                }
            }
            Event::Turn(c) => {
                self.setup_prop(b"PL", if c == Color::Black { b"B" } else { b"W" }, out, repairs);
                self.put(b"PL", Rule::Single, out, repairs, |out| {
                    out.extend_from_slice(if c == Color::Black { b"[B]" } else { b"[W]" })
                });
            }
            Event::Markup(m) => {
                let Some(ident) = markup_ident(m.kind) else { return Ok(()) };
                let ident = ident.as_bytes();
                let mut at = None;
                if let Some(p) = m.point() {
                    // Lines and arrows may share points; other marks may not.
                    let unique = m.to().is_none();
                    let Some(xy) = self.check_point(ident, p, unique, repairs) else { return Ok(()) };
                    let to = match m.to() {
                        Some(q) => match self.check_point(ident, q, false, repairs) {
                            Some(q) => Some(q),
                            None => return Ok(()),
                        },
                        None => None,
                    };
                    at = Some((xy, to));
                }
                self.put(ident, Rule::List, out, repairs, |out| {
                    out.push(b'[');
                    if let Some((xy, to)) = at {
                        out.extend_from_slice(&xy);
                        if let Some(q) = to {
                            out.push(b':');
                            out.extend_from_slice(&q);
                        } else if m.kind == MarkupKind::Label {
                            out.push(b':');
                            value::text(&m.label(), true, out);
                        }
                    }
                    out.push(b']');
                });
            }
            Event::Comment(t) => self.comment(&t, out, repairs),
            Event::Name(t) => self.put(b"N", Rule::Single, out, repairs, |out| bracketed(&t, out)),
            Event::Clock(c) => {
                let ident: &[u8] = match (c.kind, c.color) {
                    (ClockKind::TimeLeftMs, Some(Color::Black)) => b"BL",
                    (ClockKind::TimeLeftMs, Some(Color::White)) => b"WL",
                    (ClockKind::PeriodsLeft, Some(Color::Black)) => b"OB",
                    (ClockKind::PeriodsLeft, Some(Color::White)) => b"OW",
                    _ => return Ok(()),
                };
                self.move_prop(ident, out, repairs);
                self.put(ident, Rule::Single, out, repairs, |out| {
                    out.push(b'[');
                    if c.kind == ClockKind::TimeLeftMs {
                        seconds(c.value, out);
                    } else {
                        number(c.value, out);
                    }
                    out.push(b']');
                });
            }
            Event::Info(i) => {
                let ident = match info_ident(i.key()) {
                    Some(_) if regenerated(i.key()) => return Ok(()),
                    Some(id) => id.as_bytes(),
                    // The format's own name, when it is an SGF identifier.
                    None if sgf_name(i.name()) => i.name(),
                    None => return Ok(()),
                };
                if i.key() == InfoKey::BoardSize && self.find(b"SZ", out).is_none() {
                    if let Some((w, h)) = board_size(&i.value()) {
                        self.set_board_size(w, h);
                    }
                }
                if i.key() == InfoKey::TimeLimit {
                    self.time_limit(&i.value(), out, repairs);
                    return Ok(());
                }
                let application = i.key() == InfoKey::Application;
                self.put(ident, Rule::Single, out, repairs, |out| {
                    let start = out.len();
                    bracketed(&i.value(), out);
                    // `AP` is `name:version`; another format's free text gets an empty version.
                    if application && !composed(&out[start + 1..out.len() - 1]) {
                        out.insert(out.len() - 1, b':');
                    }
                });
            }
            Event::Property(p) => {
                let mut buf = [0u8; 32];
                let name = p.name();
                let ident: &[u8] = if name.iter().any(u8::is_ascii_digit) || name.iter().all(u8::is_ascii_uppercase) {
                    name
                } else if p.value().rule() == TextRule::Plain && name.iter().any(u8::is_ascii_uppercase) {
                    // A line format's own capitalised key (UGF's `Lang`, `Crypt`; their values
                    // are plain text): its letters in capitals, a private property, never the
                    // SGF property its capitals would name (`Crypt` is not `C`, a comment). Keys
                    // with other characters are left out. SGF's own properties, and those Jago
                    // XML's `<SGF type>` and JGF carry, keep FF[3]'s rule below.
                    if name.len() > buf.len() || !name.iter().all(u8::is_ascii_alphabetic) {
                        return Ok(());
                    }
                    buf[..name.len()].copy_from_slice(name);
                    buf[..name.len()].make_ascii_uppercase();
                    if is_defined(&buf[..name.len()]) {
                        // (`Ko` would read back as SGF's `KO`.)
                        return Ok(());
                    }
                    &buf[..name.len()]
                } else {
                    // FF[3]'s long identifiers keep their capitals (`AddBlack` is `AB`); a name
                    // with more capitals than that is left out with a repair, never cut short
                    // (it would read back as another property).
                    let mut n = 0;
                    for &b in name.iter().filter(|b| b.is_ascii_uppercase()) {
                        if n == buf.len() {
                            let value = String::from_utf8_lossy(p.value().raw());
                            repairs.push(Repair::new(RepairKind::InvalidValue, name, &value, self.offset));
                            return Ok(());
                        }
                        buf[n] = b;
                        n += 1;
                    }
                    &buf[..n]
                };
                if ident.is_empty() {
                    return Ok(());
                }
                let rule = if is_defined(ident) { Rule::Single } else { Rule::List };
                if matches!(ident, b"KO" | b"MN" | b"TE" | b"BM" | b"DO" | b"IT") {
                    self.move_prop(ident, out, repairs);
                }
                // A property event holds all of a property's values, so one that comes again
                // in the node is a repeated property even right after the first: its merge is
                // a repair (`put` reports only merges across other properties).
                let (again, before) = (rule == Rule::List && self.find(ident, out).is_some(), repairs.len());
                self.put(ident, rule, out, repairs, |out| {
                    let start = out.len();
                    for v in p.value().sgf_values() {
                        bracketed(&v, out);
                    }
                    if out.len() == start {
                        out.extend_from_slice(b"[]");
                    }
                });
                if again && repairs.len() == before {
                    let raw = p.value().raw();
                    let raw = raw.strip_prefix(b"[").and_then(|r| r.strip_suffix(b"]")).unwrap_or(raw);
                    let value = String::from_utf8_lossy(raw);
                    repairs.push(Repair::new(RepairKind::ListMerged, ident, &value, self.offset));
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
        Ok(())
    }

    /// Before a setup property: a new node when this one holds move properties.
    fn setup_prop(&mut self, ident: &[u8], value: &[u8], out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        if self.has_move_props {
            repairs.push(Repair::new(RepairKind::SetupSplit, ident, &String::from_utf8_lossy(value), self.offset));
            self.start_node(false, out);
        }
        self.has_setup = true;
    }

    /// Before a move property other than a move: a new node when this one holds setup.
    fn move_prop(&mut self, ident: &[u8], out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        if self.has_setup {
            repairs.push(Repair::new(RepairKind::SetupSplit, ident, "", self.offset));
            self.start_node(false, out);
        }
        self.has_move_props = true;
    }

    /// `TM`: FF\[4\] wants a real number of seconds.
    fn time_limit(&mut self, t: &Text<'_>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        let d;
        let text = match t.as_plain_ascii() {
            Some(s) => s,
            None => {
                d = t.decode();
                &d.text
            }
        };
        let v = text.trim();
        if !is_real(v) || v.len() != text.len() {
            repairs.push(Repair::new(RepairKind::InvalidValue, b"TM", text, self.offset));
            if !is_real(v) {
                return;
            }
        }
        self.put(b"TM", Rule::Single, out, repairs, |out| {
            out.push(b'[');
            out.extend_from_slice(v.as_bytes());
            out.push(b']');
        });
    }

    /// The point's letters, or `None` (with a repair) when it is off the board or, for `unique`
    /// kinds, already in the node's setup or marks.
    fn check_point(&mut self, ident: &[u8], p: Point, unique: bool, repairs: &mut Vec<Repair>) -> Option<[u8; 2]> {
        let letters = point_letters(p);
        let Some(xy) = letters.filter(|_| p.x < self.size.0 && p.y < self.size.1) else {
            let v = letters.map_or_else(|| format!("{},{}", p.x, p.y), |xy| String::from_utf8_lossy(&xy).into_owned());
            repairs.push(Repair::new(RepairKind::OffBoard, ident, &v, self.offset));
            return None;
        };
        if unique {
            let bit = p.y as usize * 52 + p.x as usize;
            let set = if matches!(ident, b"AB" | b"AW" | b"AE") { &mut self.setup } else { &mut self.marks };
            if set[bit / 64] & 1 << (bit % 64) != 0 {
                repairs.push(Repair::new(RepairKind::PointRepeated, ident, &String::from_utf8_lossy(&xy), self.offset));
                return None;
            }
            set[bit / 64] |= 1 << (bit % 64);
            self.points = true;
        }
        Some(xy)
    }

    /// The index of the current node's property `ident`, if written (and still in `out`).
    fn find(&self, ident: &[u8], out: &[u8]) -> Option<usize> {
        if self.present & ident_bit(ident) == 0 {
            return None;
        }
        // (Names are one or two letters: compared here, not by a call to `memcmp`.)
        let same = |s: &Slot| {
            s.len == ident.len() && out.get(s.name..s.end).is_some_and(|o| o.iter().zip(ident).all(|(a, b)| a == b))
        };
        self.slots.iter().rposition(same)
    }

    /// Writes the values `values` writes (brackets included) under `ident`, as `rule` says when
    /// the node already has that property.
    fn put(
        &mut self,
        ident: &[u8],
        rule: Rule,
        out: &mut Vec<u8>,
        repairs: &mut Vec<Repair>,
        values: impl FnOnce(&mut Vec<u8>),
    ) {
        let at = out.len();
        let Some(i) = self.find(ident, out) else {
            out.extend_from_slice(ident);
            values(out);
            self.slots.push(Slot { name: at, len: ident.len(), end: out.len() });
            self.present |= ident_bit(ident);
            self.last = self.slots.len() - 1;
            return;
        };
        values(out);
        if rule == Rule::Single || self.last != i {
            let kind = if rule == Rule::Single { RepairKind::DuplicateDropped } else { RepairKind::ListMerged };
            repairs.push(Repair::new(kind, ident, &value_text(&out[at..]), self.offset));
        }
        if rule == Rule::Single {
            out.truncate(at);
        } else {
            self.last = i;
            let to = self.slots[i].end;
            self.insert(i, to, at, out);
        }
    }

    /// Moves the bytes written at `at..` to `to` (the end of slot `i` or just before it), keeping
    /// the slots' positions right.
    fn insert(&mut self, i: usize, to: usize, at: usize, out: &mut [u8]) {
        let d = out.len() - at;
        if to < at {
            out[to..].rotate_right(d);
        }
        // (A slot beyond `at` would mean the node's output was taken away: `find` does not
        // find such a slot, so none reaches here.)
        self.slots[i].end += d;
        for s in &mut self.slots[i + 1..] {
            s.name += d;
            s.end += d;
        }
    }

    /// A comment: a second one in the node is joined to the first.
    fn comment(&mut self, t: &Text<'_>, out: &mut Vec<u8>, repairs: &mut Vec<Repair>) {
        let Some(i) = self.find(b"C", out) else {
            self.put(b"C", Rule::Single, out, repairs, |out| bracketed(t, out));
            return;
        };
        let at = out.len();
        out.extend_from_slice(b"\n\n");
        value::text(t, false, out);
        repairs.push(Repair::new(RepairKind::CommentJoined, b"C", &value_text(&out[at + 2..]), self.offset));
        self.last = i;
        let to = self.slots[i].end - 1;
        self.insert(i, to, at, out);
    }
}

/// Whether an escaped value holds an unescaped `:`.
fn composed(value: &[u8]) -> bool {
    let mut escaped = false;
    for &b in value {
        match b {
            b':' if !escaped => return true,
            b'\\' if !escaped => escaped = true,
            _ => escaped = false,
        }
    }
    false
}

/// An `AP` value without the `:` the writer adds to one that has none (`name` = `name:`).
fn application(v: &str) -> &str {
    match v.strip_suffix(':') {
        Some(name) if !name.contains(':') => name,
        _ => v,
    }
}

/// Whether `s` is an SGF Real: `[+-]digits[.digits]`.
fn is_real(s: &str) -> bool {
    let s = s.as_bytes();
    let s = match s.first() {
        Some(b'+' | b'-') => &s[1..],
        _ => s,
    };
    let (int, frac) = match s.iter().position(|&b| b == b'.') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, &b"0"[..]),
    };
    let digits = |p: &[u8]| !p.is_empty() && p.iter().all(u8::is_ascii_digit);
    digits(int) && digits(frac)
}

/// Whether the root writes this key itself ([`NodeWriter::root`]).
fn regenerated(key: InfoKey) -> bool {
    matches!(key, InfoKey::FormatVersion | InfoKey::GameType | InfoKey::Charset)
}

/// Whether a format's own name of an info key is an SGF identifier.
fn sgf_name(name: &[u8]) -> bool {
    !name.is_empty() && name.iter().all(u8::is_ascii_uppercase)
}

/// `SZ`'s value: `19` or `19:13`.
pub fn board_size(t: &Text<'_>) -> Option<(u8, u8)> {
    let d;
    let s = match t.as_plain_ascii() {
        Some(s) => s,
        None => {
            d = t.decode();
            &d.text
        }
    }
    .trim();
    // (Byte by byte: `str::split_once` costs more than the rest for a value like `19`.)
    let (w, h) = match s.bytes().position(|b| b == b':') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, s),
    };
    let (w, h) = (w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?);
    (w > 0 && h > 0).then_some((w.min(52), h.min(52)))
}

/// The bit of [`NodeWriter`]'s `present` for a property identifier: one of 64, from its first
/// two letters and its length (identifiers sharing a bit are told apart by their slots).
#[inline]
fn ident_bit(ident: &[u8]) -> u64 {
    let (a, b) = (ident.first().copied().unwrap_or(0), ident.get(1).copied().unwrap_or(0));
    1 << ((a as u32 * 5 + b as u32 * 3 + ident.len() as u32) % 64)
}

/// Where the last line break of `written` is: out of line, since it runs once after text
/// (a root's game information) and not per move.
#[inline(never)]
fn last_newline(written: &[u8]) -> Option<usize> {
    memchr::memrchr(b'\n', written)
}

/// The text of bracketed values for a repair's message.
fn value_text(bytes: &[u8]) -> String {
    let b = bytes.strip_prefix(b"[").unwrap_or(bytes);
    let b = b.strip_suffix(b"]").unwrap_or(b);
    String::from_utf8_lossy(b).into_owned()
}

fn bracketed(t: &Text<'_>, out: &mut Vec<u8>) {
    out.push(b'[');
    value::text(t, false, out);
    out.push(b']');
}

/// Milliseconds as seconds: `12.5`, `7.02`, `3`.
fn seconds(ms: u64, out: &mut Vec<u8>) {
    let (secs, ms) = (ms / 1000, ms % 1000);
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
}

/// Whether [`NodeWriter::event`] writes anything for `ev` (see the [module docs](self) for what
/// it leaves out).
pub fn writes(ev: &Event<'_>) -> bool {
    match ev {
        Event::Evaluation(_) => false,
        Event::Clock(c) => c.color.is_some() && c.kind != ClockKind::ElapsedMs,
        Event::Markup(m) => markup_ident(m.kind).is_some(),
        Event::Info(i) => match info_ident(i.key()) {
            Some(_) => !regenerated(i.key()),
            None => sgf_name(i.name()),
        },
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
/// name, except for [`InfoKey::Other`]; `CA` by key only, since the writer re-encodes text;
/// `AP` without the `:` the writer adds to a value that has none); other events compared whole.
pub(crate) fn same(p: &Event<'_>, q: &Event<'_>) -> bool {
    match (p, q) {
        (Event::Comment(a), Event::Comment(b)) | (Event::Name(a), Event::Name(b)) => a.decode().text == b.decode().text,
        (Event::Info(a), Event::Info(b)) if a.key() == InfoKey::Application && b.key() == InfoKey::Application => {
            application(&a.value().decode().text) == application(&b.value().decode().text)
        }
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

/// Appends `n` in decimal.
fn number(n: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(n, out)
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
