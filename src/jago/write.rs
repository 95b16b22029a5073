//! Writing a Go game as Jago XML (`<Go><GoGame>…`), through quick-xml's writer.
//!
//! The writer takes a [`GameTree`], not events: the `<Information>` block comes before the nodes
//! and gathers the game information wherever the tree holds it, a `<Node>` carries its name and
//! clocks as attributes before its children, and a branch is written in Jago's sibling form (the
//! first child goes on in the sequence, each later child is a `<Variation>` right after the first
//! child's node, and the first child's line continues after them), so a node's events and its
//! children must be known before its first byte. The walk uses an explicit stack (no recursion).
//! Elements go through [`quick_xml::Writer`] over the output buffer; their content (attributes,
//! escaped text) is built in a scratch buffer the [`Writer`] keeps, so nothing is allocated per
//! node once the buffers have grown, except where [`escape::pieces`] must decode a text (SGF or
//! CSA escapes).
//!
//! ```
//! use bumpalo::Bump;
//!
//! let mut sgf = kifu::sgf::Reader::new(b"(;SZ[9]PB[Lee];B[cc]C[a<b](;W[gg])(;W[gc]))");
//! let bump = Bump::new();
//! let tree = kifu::tree::build(&bump, &mut sgf).unwrap().unwrap();
//! let mut out = Vec::new();
//! kifu::jago::write::write(&tree, &mut out).unwrap();
//! let xml = std::str::from_utf8(&out).unwrap();
//! assert!(xml.contains("<Information><BoardSize>9</BoardSize><BlackPlayer>Lee</BlackPlayer></Information>"));
//! assert!(xml.contains(r#"<Node><Black at="C7"/><Comment><P>a&lt;b</P></Comment></Node><Node><White at="G3"/></Node><Variation><Node><White at="G7"/></Node></Variation>"#));
//! ```
//!
//! ## What each event becomes
//! | event | XML |
//! |---|---|
//! | info with an `<Information>` field (first of its key) | that field; the game name as `<GoGame name>` |
//! | other info (and a second of one key) | `<SGF type="EV">` (its SGF identifier, or its own name) in the first node |
//! | info of another key with an XML name of its own | an `<Information>` child of that name |
//! | move (the first of a node) | `<Black at="Q16"/>`, a pass `at=""` |
//! | setup | `<AddBlack>`, `<AddWhite>`, `<Delete>` |
//! | marks | `<Mark>` (cross), `type="square|circle|triangle"`, `territory="black|white"`, `label="…"`, another kind's name as its `type` |
//! | selected, dimmed, visible, arrow, line marks | `<SGF type="SL|DD|VW|AR|LN">` with SGF points |
//! | turn | `<BlackToPlay/>`, `<WhiteToPlay/>` |
//! | comment | `<Comment>`, one `<P>` per line |
//! | name, time left (first of a node, of each colour) | `<Node name blacktime whitetime>` |
//! | periods left, a second move, name or time | `<SGF type="OB|OW|B|W|N|BL|WL">` |
//! | property (and an info below the root) | `<SGF type="XX">`, one `<Arg>` per value |
//!
//! ## What Jago XML loses
//! The round-trip tests (`tests/jago_write.rs`, `tests/converted_chain.rs`) assert exactly these.
//! | event | |
//! |---|---|
//! | a shogi game | refused ([`Refused`]), nothing written |
//! | evaluations, clocks other than a player's time or periods left, warnings | dropped |
//! | a property of several values (SGF values, or a JSON array of strings) | read back as one, its values joined by newlines |
//! | a point off the board (Jago's letters need the board size: the `<BoardSize>`, 19 without one, so a board that is not square counts as 19×19) | dropped |
//! | an info of no known key (`InfoKey::Other`) whose name is not an XML name | an `<SGF type>` of that name, read back as a property |
//! | an info of no key nor name | dropped |
//! | a second move, name or time left in a node; selected, dimmed, visible marks, arrows, lines | kept as `<SGF>` elements, read back as the events (or properties) of that SGF spelling; a second move thus comes back as a property `B`/`W`, not a move, and is counted in [`Writer::moves_left_out`] |
//! | game information of the game node | read back in the root node |

use crate::event::{ClockKind, Color, Event, InfoKey, MarkupKind, Move, Point, Setup};
use crate::text::{escape, Text};
use crate::tree::{GameTree, NodeId};
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event as X};

/// A game Jago XML cannot hold: a shogi game (nothing is written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a shogi game cannot be written as Jago XML (Jago XML holds Go games)")
    }
}

impl std::error::Error for Refused {}

/// Writes `tree` as one Jago XML document (declaration, `<Go>`, one `<GoGame>`) with a fresh
/// [`Writer`].
pub fn write(tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
    Writer::new().write(tree, out)
}

/// A Jago XML writer that keeps its walk stack and scratch buffer between games.
#[derive(Debug, Default)]
pub struct Writer {
    stack: Vec<Frame>,
    /// An element's content (name and attributes) or an escaped text, before quick-xml writes it.
    scratch: Vec<u8>,
    /// Moves of the last game written after their node's first, kept as `<SGF type="B|W">`.
    left_out: u64,
}

/// What the walk does when a sequence ends.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// Close a `<Variation>`.
    Close,
    /// Write `sibling` as the next variation of first child `node`, then go on below `node`.
    Next { node: u32, sibling: u32 },
    /// Go on below `node` (its variations are written).
    Resume(u32),
}

const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The `<Information>` field of a key.
fn field(key: InfoKey) -> Option<&'static str> {
    Some(match key {
        InfoKey::Application => "Application",
        InfoKey::BoardSize => "BoardSize",
        InfoKey::BlackName => "BlackPlayer",
        InfoKey::BlackRank => "BlackRank",
        InfoKey::WhiteName => "WhitePlayer",
        InfoKey::WhiteRank => "WhiteRank",
        InfoKey::Date => "Date",
        InfoKey::TimeLimit => "Time",
        InfoKey::Komi => "Komi",
        InfoKey::Result => "Result",
        InfoKey::Handicap => "Handicap",
        InfoKey::Transcriber => "User",
        InfoKey::Copyright => "Copyright",
        InfoKey::Annotator => "Annotation",
        InfoKey::BlackTeam => "BlackTeam",
        InfoKey::WhiteTeam => "WhiteTeam",
        InfoKey::Round => "Round",
        InfoKey::Rules => "Rules",
        InfoKey::Source => "Source",
        _ => return None,
    })
}

/// The SGF identifier Jago's `<SGF type>` reads as an info of `key`.
fn sgf_ident(key: InfoKey) -> Option<&'static str> {
    Some(match key {
        InfoKey::Event => "EV",
        InfoKey::Place => "PC",
        InfoKey::Overtime => "OT",
        InfoKey::GameName => "GN",
        InfoKey::Opening => "ON",
        InfoKey::GameComment => "GC",
        InfoKey::Charset => "CA",
        InfoKey::FormatVersion => "FF",
        InfoKey::GameType => "GM",
        InfoKey::Round => "RO",
        InfoKey::Date => "DT",
        InfoKey::BlackName => "PB",
        InfoKey::WhiteName => "PW",
        InfoKey::BlackRank => "BR",
        InfoKey::WhiteRank => "WR",
        InfoKey::BlackTeam => "BT",
        InfoKey::WhiteTeam => "WT",
        InfoKey::Komi => "KM",
        InfoKey::Handicap => "HA",
        InfoKey::Result => "RE",
        InfoKey::Rules => "RU",
        InfoKey::TimeLimit => "TM",
        InfoKey::Annotator => "AN",
        InfoKey::Source => "SO",
        InfoKey::Copyright => "CP",
        InfoKey::Transcriber => "US",
        InfoKey::Application => "AP",
        InfoKey::BoardSize => "SZ",
        _ => return None,
    })
}

/// Whether `name` is an XML name we may write as an element (ASCII letters, digits, `_`, `-`,
/// `.`; a letter or `_` first; not the reader's own element names).
fn is_xml_name(name: &[u8]) -> bool {
    matches!(name.first(), Some(b'A'..=b'Z' | b'a'..=b'z' | b'_'))
        && name.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && !name.starts_with(b"xml")
        && !name.starts_with(b"XML")
        && !matches!(
            name,
            b"Node" | b"Nodes" | b"Variation" | b"Black" | b"White" | b"Comment" | b"SGF" | b"Arg" | b"P" | b"Mark"
        )
}

/// The board side Jago's points are counted with: the board size info as Jago's reader takes it
/// (a number from 1 to 52), 19 without one.
fn board_side(tree: &GameTree<'_>) -> u8 {
    let mut side = None;
    for e in tree.events(NodeId::GAME).chain(tree.events(NodeId(1))) {
        if let Event::Info(i) = e {
            if i.key() == InfoKey::BoardSize && side.is_none() {
                let raw = i.value().raw().trim_ascii();
                side = match raw {
                    [d] if d.is_ascii_digit() => Some(d - b'0'),
                    [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => Some((a - b'0') * 10 + (b - b'0')),
                    _ => Some(19),
                }
                .filter(|n| (1..=52).contains(n))
                .or(Some(19));
            }
        }
    }
    side.unwrap_or(19)
}

/// Appends a Jago point (`Q16`; `AA1` beyond 25 columns); `false` when the point is off the board.
fn jago_point(p: Point, side: u8, out: &mut Vec<u8>) -> bool {
    if p.y >= side || p.x >= 52 {
        return false;
    }
    if p.x < 25 {
        out.push(LETTERS[p.x as usize]);
    } else {
        let c = p.x - 25;
        out.push(LETTERS[(c / 25) as usize]);
        out.push(LETTERS[(c % 25) as usize]);
    }
    number(u64::from(side - p.y), out);
    true
}

/// Appends SGF point letters (`aa`; `A`–`Z` from 26).
fn sgf_point(p: Point, out: &mut Vec<u8>) {
    let l = |v: u8| {
        if v < 26 {
            b'a' + v
        } else if v < 52 {
            b'A' + v - 26
        } else {
            b'_'
        }
    };
    out.push(l(p.x));
    out.push(l(p.y));
}

/// Appends a decimal number.
fn number(v: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(v, out)
}

/// Seconds from milliseconds: `12`, `12.5`, `0.025` (Jago's reader rounds to the millisecond).
fn seconds(ms: u64, out: &mut Vec<u8>) {
    number(ms / 1000, out);
    let frac = ms % 1000;
    if frac != 0 {
        let d = [b'0' + (frac / 100) as u8, b'0' + (frac / 10 % 10) as u8, b'0' + (frac % 10) as u8];
        let keep = if frac % 10 != 0 {
            3
        } else if frac % 100 != 0 {
            2
        } else {
            1
        };
        out.push(b'.');
        out.extend_from_slice(&d[..keep]);
    }
}

fn is_shogi(tree: &GameTree<'_>) -> bool {
    tree.nodes()
        .any(|n| tree.events(n).any(|e| matches!(e, Event::Move(Move::Shogi(_)) | Event::Setup(Setup::Shogi { .. }))))
}

/// The game's information: the game node's infos, then the root's.
fn infos<'b>(tree: &GameTree<'b>) -> impl Iterator<Item = crate::event::Info<'b>> {
    tree.events(NodeId::GAME).chain(tree.events(NodeId(1))).filter_map(|e| match e {
        Event::Info(i) => Some(i),
        _ => None,
    })
}

/// Whether the `k`th info is the first of its key (for keys with an `<Information>` field).
fn first_of_key(tree: &GameTree<'_>, k: usize, key: InfoKey) -> bool {
    !infos(tree).take(k).any(|j| j.key() == key)
}

/// The scratch buffer as text (always UTF-8: it holds escaped `str`s and ASCII).
fn as_str(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or_default()
}

impl Writer {
    /// A writer with empty buffers.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Appends `tree` as one Jago XML document; see the [module docs](self). A shogi game is
    /// refused and nothing is written.
    pub fn write(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
        if is_shogi(tree) {
            return Err(Refused);
        }
        self.left_out = 0;
        let side = board_side(tree);
        out.extend_from_slice(b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        let mut w = quick_xml::Writer::new(out);
        self.start(&mut w, "Go");
        // <GoGame name="…">
        self.scratch.clear();
        self.scratch.extend_from_slice(b"GoGame");
        let game_name = infos(tree).find(|i| i.key() == InfoKey::GameName);
        if let Some(n) = game_name {
            self.attr("name", &n.value());
        }
        self.emit(&mut w, Kind::Start, 6);
        self.start(&mut w, "Information");
        for (k, i) in infos(tree).enumerate() {
            if let Some(f) = field(i.key()) {
                if first_of_key(tree, k, i.key()) {
                    self.text_element(&mut w, f, &i.value());
                }
            } else if i.key() == InfoKey::Other && sgf_ident(i.key()).is_none() && is_xml_name(i.name()) {
                self.text_element(&mut w, as_str(i.name()), &i.value());
            }
        }
        self.end(&mut w, "Information");
        self.start(&mut w, "Nodes");
        self.tree(tree, side, &mut w);
        self.end(&mut w, "Nodes");
        self.end(&mut w, "GoGame");
        self.end(&mut w, "Go");
        w.into_inner().push(b'\n');
        Ok(())
    }

    /// Moves the last game written left out: each move of a node after its first. A Jago XML
    /// node holds one move; the others are kept as `<SGF type="B">`/`<SGF type="W">` elements,
    /// which readers (kifu's, GoGui's) read back as SGF properties, not as moves. A caller
    /// reports them (`kifu convert --to xml` does).
    pub fn moves_left_out(&self) -> u64 {
        self.left_out
    }

    /// The nodes in Jago's sibling form, with an explicit stack.
    fn tree(&mut self, tree: &GameTree<'_>, side: u8, w: &mut quick_xml::Writer<&mut Vec<u8>>) {
        self.stack.clear();
        let mut cur = tree.first_child(NodeId::GAME);
        loop {
            if let Some(x) = cur {
                self.node(tree, x, side, w);
                let first = tree.parent(x).and_then(|p| tree.first_child(p)) == Some(x);
                match tree.next_sibling(x) {
                    Some(s) if first => {
                        self.stack.push(Frame::Next { node: x.0, sibling: s.0 });
                        cur = None;
                    }
                    _ => cur = tree.first_child(x),
                }
                continue;
            }
            match self.stack.pop() {
                None => return,
                Some(Frame::Close) => self.end(w, "Variation"),
                Some(Frame::Next { node, sibling }) => {
                    self.stack.push(match tree.next_sibling(NodeId(sibling)) {
                        Some(s) => Frame::Next { node, sibling: s.0 },
                        None => Frame::Resume(node),
                    });
                    self.stack.push(Frame::Close);
                    self.start(w, "Variation");
                    cur = Some(NodeId(sibling));
                }
                Some(Frame::Resume(node)) => cur = tree.first_child(NodeId(node)),
            }
        }
    }

    /// One `<Node>` with its children.
    fn node(&mut self, tree: &GameTree<'_>, n: NodeId, side: u8, w: &mut quick_xml::Writer<&mut Vec<u8>>) {
        let root = n == NodeId(1) && tree.parent(n) == Some(NodeId::GAME);
        let game = if root { tree.events(NodeId::GAME) } else { tree.events(NodeId(u32::MAX)) };
        let evs = || game.clone().chain(tree.events(n));
        // <Node name blacktime whitetime>
        self.scratch.clear();
        self.scratch.extend_from_slice(b"Node");
        let name = evs().find_map(|e| if let Event::Name(t) = e { Some(t) } else { None });
        if let Some(t) = name {
            self.attr("name", &t);
        }
        let time = |c: Color| {
            evs().find_map(|e| match e {
                Event::Clock(k) if k.kind == ClockKind::TimeLeftMs && k.color == Some(c) => Some(k.value),
                _ => None,
            })
        };
        for (c, a) in [(Color::Black, " blacktime=\""), (Color::White, " whitetime=\"")] {
            if let Some(ms) = time(c) {
                self.scratch.extend_from_slice(a.as_bytes());
                seconds(ms, &mut self.scratch);
                self.scratch.push(b'"');
            }
        }
        self.emit(w, Kind::Start, 4);
        let (mut moves, mut names) = (0, 0);
        let mut times = [false; 2];
        for e in evs() {
            match e {
                Event::Move(Move::Go { color, point }) => {
                    moves += 1;
                    if moves > 1 {
                        self.left_out += 1;
                        self.sgf_start(w, if color == Color::Black { "B" } else { "W" });
                        self.arg_point(w, point, None);
                        self.end(w, "SGF");
                        continue;
                    }
                    self.point_element(w, if color == Color::Black { "Black" } else { "White" }, point, side, None);
                }
                Event::Setup(Setup::Go { color, point }) => {
                    let el = match color {
                        Some(Color::Black) => "AddBlack",
                        Some(Color::White) => "AddWhite",
                        None => "Delete",
                    };
                    self.point_element(w, el, Some(point), side, None);
                }
                Event::Markup(m) => {
                    let attr: Option<(&str, Text<'_>)> = match m.kind {
                        MarkupKind::Cross => None,
                        MarkupKind::Square => Some(("type", str_text("square"))),
                        MarkupKind::Circle => Some(("type", str_text("circle"))),
                        MarkupKind::Triangle => Some(("type", str_text("triangle"))),
                        MarkupKind::TerritoryBlack => Some(("territory", str_text("black"))),
                        MarkupKind::TerritoryWhite => Some(("territory", str_text("white"))),
                        MarkupKind::Label => Some(("label", m.label())),
                        MarkupKind::Other => Some(("type", m.label())),
                        k => {
                            let ident = match k {
                                MarkupKind::Selected => "SL",
                                MarkupKind::Dim => "DD",
                                MarkupKind::Visible => "VW",
                                MarkupKind::Arrow => "AR",
                                MarkupKind::Line => "LN",
                                _ => continue,
                            };
                            self.sgf_start(w, ident);
                            match m.point() {
                                Some(p) => self.arg_point(w, Some(p), m.to()),
                                None => {
                                    self.start(w, "Arg");
                                    self.end(w, "Arg");
                                }
                            }
                            self.end(w, "SGF");
                            continue;
                        }
                    };
                    if let Some(p) = m.point() {
                        self.point_element(w, "Mark", Some(p), side, attr);
                    }
                }
                Event::Turn(c) => {
                    self.scratch.clear();
                    self.scratch.extend_from_slice(if c == Color::Black { b"BlackToPlay" } else { b"WhiteToPlay" });
                    self.emit(w, Kind::Empty, 11);
                }
                Event::Comment(t) => {
                    self.start(w, "Comment");
                    self.paragraphs(w, &t);
                    self.end(w, "Comment");
                }
                Event::Name(t) => {
                    names += 1;
                    if names > 1 {
                        self.sgf_start(w, "N");
                        self.arg(w, &t);
                        self.end(w, "SGF");
                    }
                }
                Event::Clock(c) => {
                    let ident = match (c.kind, c.color) {
                        (ClockKind::TimeLeftMs, Some(col)) => {
                            let seen = &mut times[col as usize];
                            if !*seen {
                                *seen = true;
                                continue;
                            }
                            if col == Color::Black {
                                "BL"
                            } else {
                                "WL"
                            }
                        }
                        (ClockKind::PeriodsLeft, Some(Color::Black)) => "OB",
                        (ClockKind::PeriodsLeft, Some(Color::White)) => "OW",
                        _ => continue,
                    };
                    self.sgf_start(w, ident);
                    self.start(w, "Arg");
                    self.scratch.clear();
                    if c.kind == ClockKind::TimeLeftMs {
                        seconds(c.value, &mut self.scratch);
                    } else {
                        number(c.value, &mut self.scratch);
                    }
                    self.emit(w, Kind::Text, 0);
                    self.end(w, "Arg");
                    self.end(w, "SGF");
                }
                Event::Info(i) => {
                    if root {
                        // In `<Information>` (or `<GoGame name>`) already?
                        let k = infos(tree).position(|j| same_info(&j, &i));
                        let header = k.is_some_and(|k| {
                            (field(i.key()).is_some() || i.key() == InfoKey::GameName) && first_of_key(tree, k, i.key())
                                || i.key() == InfoKey::Other && is_xml_name(i.name())
                        });
                        if header {
                            continue;
                        }
                    }
                    let own = (!i.name().is_empty()).then(|| as_str(i.name())).filter(|n| !n.is_empty());
                    let ident = if root { sgf_ident(i.key()).or(own) } else { own.or(sgf_ident(i.key())) };
                    let Some(ident) = ident else { continue };
                    self.sgf_start(w, ident);
                    self.arg(w, &i.value());
                    self.end(w, "SGF");
                }
                Event::Property(p) => {
                    let name = String::from_utf8_lossy(p.name());
                    if name.is_empty() {
                        continue;
                    }
                    self.sgf_start(w, &name);
                    let v = p.value();
                    if v.rule() == crate::text::TextRule::SgfValues {
                        for v in v.sgf_values() {
                            self.arg(w, &v);
                        }
                    } else if v.rule() == crate::text::TextRule::Plain && escape::is_json_string_array(v.raw()) {
                        // A JSON reader's pass-through of several values: one line each.
                        self.arg(w, &Text::new(v.raw(), crate::text::TextRule::JsonStringArray, v.charset()));
                    } else {
                        self.arg(w, &p.value());
                    }
                    self.end(w, "SGF");
                }
                _ => {}
            }
        }
        self.end(w, "Node");
    }

    /// `<El at="Q16" attr="…"/>`, or `at=""` for a pass; nothing for a point off the board.
    fn point_element(
        &mut self,
        w: &mut quick_xml::Writer<&mut Vec<u8>>,
        el: &str,
        p: Option<Point>,
        side: u8,
        attr: Option<(&str, Text<'_>)>,
    ) {
        self.scratch.clear();
        self.scratch.extend_from_slice(el.as_bytes());
        if let Some((a, v)) = attr {
            self.attr(a, &v);
        }
        self.scratch.extend_from_slice(b" at=\"");
        if let Some(p) = p {
            if !jago_point(p, side, &mut self.scratch) {
                return;
            }
        }
        self.scratch.push(b'"');
        self.emit(w, Kind::Empty, el.len());
    }

    /// Appends ` name="value"` to the scratch buffer.
    fn attr(&mut self, name: &str, v: &Text<'_>) {
        self.scratch.push(b' ');
        self.scratch.extend_from_slice(name.as_bytes());
        self.scratch.extend_from_slice(b"=\"");
        let s = &mut self.scratch;
        escape::pieces(v, |p| escape::xml_attribute(p, s));
        self.scratch.push(b'"');
    }

    fn sgf_start(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, ident: &str) {
        self.scratch.clear();
        self.scratch.extend_from_slice(b"SGF type=\"");
        escape::xml_attribute(ident, &mut self.scratch);
        self.scratch.push(b'"');
        self.emit(w, Kind::Start, 3);
    }

    /// `<Arg>text</Arg>`.
    fn arg(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, t: &Text<'_>) {
        self.start(w, "Arg");
        self.scratch.clear();
        let s = &mut self.scratch;
        escape::pieces(t, |p| escape::xml_text(p, s));
        self.emit(w, Kind::Text, 0);
        self.end(w, "Arg");
    }

    /// `<Arg>aa</Arg>` (or `aa:bb`, or empty for a pass).
    fn arg_point(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, p: Option<Point>, to: Option<Point>) {
        self.start(w, "Arg");
        self.scratch.clear();
        if let Some(p) = p {
            sgf_point(p, &mut self.scratch);
            if let Some(q) = to {
                self.scratch.push(b':');
                sgf_point(q, &mut self.scratch);
            }
        }
        self.emit(w, Kind::Text, 0);
        self.end(w, "Arg");
    }

    /// A comment's lines as `<P>` paragraphs.
    fn paragraphs(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, t: &Text<'_>) {
        self.scratch.clear();
        self.scratch.extend_from_slice(b"<P>");
        let s = &mut self.scratch;
        escape::pieces(t, |p| {
            for (i, line) in p.split('\n').enumerate() {
                if i > 0 {
                    s.extend_from_slice(b"</P><P>");
                }
                escape::xml_text(line, s);
            }
        });
        self.scratch.extend_from_slice(b"</P>");
        self.emit(w, Kind::Text, 0);
    }

    /// `<f>text</f>`.
    fn text_element(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, f: &str, t: &Text<'_>) {
        self.start(w, f);
        self.scratch.clear();
        let s = &mut self.scratch;
        escape::pieces(t, |p| escape::xml_text(p, s));
        self.emit(w, Kind::Text, 0);
        self.end(w, f);
    }

    fn start(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, name: &str) {
        let _ = w.write_event(X::Start(BytesStart::new(name)));
    }

    fn end(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, name: &str) {
        let _ = w.write_event(X::End(BytesEnd::new(name)));
    }

    /// Writes the scratch buffer as a start tag, an empty element (its name `name_len` bytes
    /// long) or escaped text.
    fn emit(&mut self, w: &mut quick_xml::Writer<&mut Vec<u8>>, kind: Kind, name_len: usize) {
        let s = as_str(&self.scratch);
        let _ = match kind {
            Kind::Start => w.write_event(X::Start(BytesStart::from_content(s, name_len))),
            Kind::Empty => w.write_event(X::Empty(BytesStart::from_content(s, name_len))),
            Kind::Text => w.write_event(X::Text(BytesText::from_escaped(s))),
        };
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Start,
    Empty,
    Text,
}

fn str_text(s: &'static str) -> Text<'static> {
    Text::new(s.as_bytes(), crate::text::TextRule::Plain, crate::text::Charset::Utf8)
}

fn same_info(a: &crate::event::Info<'_>, b: &crate::event::Info<'_>) -> bool {
    a.key() == b.key() && a.name().as_ptr() == b.name().as_ptr() && a.value().raw().as_ptr() == b.value().raw().as_ptr()
}
