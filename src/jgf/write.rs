//! Writing a Go game as JGF: v2 in Seki's layout, v1 in ngGo's.
//!
//! The writer takes a [`GameTree`], not events: a JGF document puts the header (the `record`,
//! `game`, `rules`, `board`… sections and the players) before the tree and groups each node's
//! events by key (one `move` object, one `setup` list, one `markup` list…), so it needs a node's
//! events, and the game's information, before it writes their first byte. The tree is walked with
//! an explicit stack (no recursion); each node's events are read a few times over, one pass per
//! key, which costs no allocation. Nothing is allocated beyond the output buffer and the stack,
//! except where [`escape::pieces`] must decode a text (SGF, XML or CSA escapes). A JSON reader's
//! pass-through value is copied when it is strict JSON (checked by a loop that keeps the open
//! containers in the bits of a `u64`), else written as a string.
//!
//! ```
//! use bumpalo::Bump;
//! use kifu::jgf::write::{write, Version};
//!
//! let mut sgf = kifu::sgf::Reader::new(b"(;SZ[9]PB[Lee]KM[6.5];B[cc]C[hi](;W[gg])(;W[gc]))");
//! let bump = Bump::new();
//! let tree = kifu::tree::build(&bump, &mut sgf).unwrap().unwrap();
//! let mut out = Vec::new();
//! write(&tree, Version::V2, &mut out).unwrap();
//! let json = std::str::from_utf8(&out).unwrap();
//! assert!(json.starts_with(r#"{"record":{"version":2},"game":{"type":"go"},"rules":{"komi":6.5}"#));
//! assert!(json.contains(r#"{"move":{"color":"black","x":2,"y":2},"comments":["hi"]},{"variations":[["#));
//! ```
//!
//! ## What each version holds
//! - Header: every `Info` goes to its section (v2: `record`, `source`, `game`, `event`, `rules`,
//!   `board`, `players` as Seki's `{black: {…}, white: {…}}`; v1: `record`, `game` with its
//!   `players` array, `dates` and `time`, `board`); an info of the root node goes there too, so
//!   it reads back in the game node. Game-node properties become top-level keys (their value
//!   verbatim when it is strict JSON, else as a string). `record.version` is always the
//!   version written, `game.type` always `go`, `record.charset` is `UTF-8` when the game had a
//!   charset at all.
//! - Nodes: `move` (v2 `{color, x, y}` or `{color, pass: true}` with the mover's `timeLeft` and
//!   `periodsLeft`; v1 `{B: [x, y]}` or `{B: "pass"}`), `setup`, `markup` (labels with their
//!   text), `score` (territory), `turn`, `name`, `comments` (one string per comment), and every
//!   property (and an info below the root) as a key of its own.
//! - Variations: v2 a last node `{"variations": [[…], […]]}`, v1 a bare array `[[…], […]]`.
//!
//! ## What JGF loses
//! The round-trip tests (`tests/jgf_write.rs`, `tests/converted_chain.rs`) assert exactly these.
//! | event | v2 | v1 |
//! |---|---|---|
//! | a shogi game | refused ([`Refused`]), nothing written | the same |
//! | a second move in a node | dropped | the same |
//! | clocks (`Clock`) | the mover's time and periods left in its `move` (first of each); others dropped | a player's time and periods left under ngGo's SGF keys (`"BL": "12.5"`, `"OB": "3"`, read back as properties of that SGF spelling), first of each per player; others dropped |
//! | marks `Dim`, `Visible` | read back as `Other` marks | the same |
//! | arrows and lines | their end point | the same |
//! | a mark without a point | dropped | the same |
//! | a point off the board (the board size info's, 19×19 without one) | dropped by the reader | the same |
//! | evaluations, warnings | dropped | the same |
//! | several comments in a node | read back as one, joined by newlines | kept |
//! | several names in a node | the first | the first |
//! | a second info of one key | dropped (several dates: `dates`) | dropped (dates kept) |
//! | `FF`, `GM` | the version written, `go` | the same |
//! | `CA` | `UTF-8` (the output's charset) | the same |
//! | game information of the root node | read back in the game node (the header) | the same |
//! | a property of several values | kept, as a JSON array of strings | the same |
//! | an info below the root | a key of its own, read back as a property of that name | the same |

use crate::event::{ClockKind, Color, Event, Info, InfoKey, MarkupKind, Move, Setup};
use crate::text::{escape, Text, TextRule};
use crate::tree::{GameTree, NodeId};

/// Which JGF to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// JGF v2, Seki's layout.
    V2,
    /// JGF v1, ngGo's layout.
    V1,
}

/// A game JGF cannot hold: a shogi game (the output is left as it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a shogi game cannot be written as JGF (JGF holds Go games)")
    }
}

impl std::error::Error for Refused {}

/// Writes `tree` as one JGF document of `version`, followed by a newline, with a fresh
/// [`Writer`].
pub fn write(tree: &GameTree<'_>, version: Version, out: &mut Vec<u8>) -> Result<(), Refused> {
    Writer::new().write(tree, version, out)
}

/// A JGF writer that keeps its walk stack between games (no allocation once it has grown).
#[derive(Debug, Default)]
pub struct Writer {
    /// For each open variation group: the next sibling to write as a variation (or `NONE`).
    stack: Vec<u32>,
    /// Moves of the last game written left out: a node holds one move in JGF, and the moves
    /// after a node's first (`;B[aa]W[bb]`, which SGF allows) have no place.
    left_out: u64,
}

const NONE: u32 = u32::MAX;

/// Whether a tree holds a shogi move or setup.
pub(crate) fn is_shogi(tree: &GameTree<'_>) -> bool {
    tree.nodes()
        .any(|n| tree.events(n).any(|e| matches!(e, Event::Move(Move::Shogi(_)) | Event::Setup(Setup::Shogi { .. }))))
}

/// Appends `"…"`: the text decoded and escaped as a JSON string.
pub(crate) fn string(t: &Text<'_>, out: &mut Vec<u8>) {
    out.push(b'"');
    escape::pieces(t, |p| escape::json_string(p, out));
    out.push(b'"');
}

/// Appends `"s"`.
pub(crate) fn str_lit(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    escape::json_string(s, out);
    out.push(b'"');
}

/// Appends a key and its colon, after a comma unless `first`.
fn key(first: &mut bool, k: &str, out: &mut Vec<u8>) {
    if !*first {
        out.push(b',');
    }
    *first = false;
    str_lit(k, out);
    out.push(b':');
}

/// Appends a key given as bytes (a property's name).
fn key_bytes(first: &mut bool, k: &[u8], out: &mut Vec<u8>) {
    if !*first {
        out.push(b',');
    }
    *first = false;
    string(&Text::new(k, TextRule::Plain, crate::text::Charset::Utf8), out);
    out.push(b':');
}

/// Whether `raw` is one strict JSON value (RFC 8259; white space around it allowed), nested at
/// most 64 deep. A loop with the open containers as bits of a `u64`: no recursion, no allocation.
fn is_strict_json(raw: &[u8]) -> bool {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Value,
        ValueOrEnd,
        KeyOrEnd,
        Key,
        Colon,
        After,
    }
    if std::str::from_utf8(raw).is_err() {
        return false;
    }
    let b = raw;
    let (mut i, mut stack, mut depth, mut s) = (0usize, 0u64, 0u32, S::Value);
    loop {
        while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        let Some(&c) = b.get(i) else { return depth == 0 && s == S::After };
        match s {
            S::Value | S::ValueOrEnd => {
                if c == b']' && s == S::ValueOrEnd {
                    (stack, depth, s, i) = (stack >> 1, depth - 1, S::After, i + 1);
                    continue;
                }
                match c {
                    b'{' | b'[' => {
                        if depth == 64 {
                            return false;
                        }
                        stack = stack << 1 | u64::from(c == b'{');
                        depth += 1;
                        i += 1;
                        s = if c == b'{' { S::KeyOrEnd } else { S::ValueOrEnd };
                        continue;
                    }
                    b'"' => match string_end(b, i) {
                        Some(e) => i = e,
                        None => return false,
                    },
                    b't' if b[i..].starts_with(b"true") => i += 4,
                    b'f' if b[i..].starts_with(b"false") => i += 5,
                    b'n' if b[i..].starts_with(b"null") => i += 4,
                    _ => {
                        let mut e = i;
                        while b.get(e).is_some_and(|c| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
                            e += 1;
                        }
                        if !escape::is_json_number(&b[i..e]) {
                            return false;
                        }
                        i = e;
                    }
                }
                s = S::After;
            }
            S::KeyOrEnd | S::Key => {
                if c == b'}' && s == S::KeyOrEnd {
                    (stack, depth, s, i) = (stack >> 1, depth - 1, S::After, i + 1);
                    continue;
                }
                match (c, string_end(b, i)) {
                    (b'"', Some(e)) => (i, s) = (e, S::Colon),
                    _ => return false,
                }
            }
            S::Colon => {
                if c != b':' {
                    return false;
                }
                (i, s) = (i + 1, S::Value);
            }
            S::After => {
                let object = stack & 1 == 1;
                match c {
                    _ if depth == 0 => return false,
                    b',' => (i, s) = (i + 1, if object { S::Key } else { S::Value }),
                    b'}' if object => (stack, depth, i) = (stack >> 1, depth - 1, i + 1),
                    b']' if !object => (stack, depth, i) = (stack >> 1, depth - 1, i + 1),
                    _ => return false,
                }
            }
        }
    }
}

/// The end (after the closing quote) of the strict JSON string starting at `b[i]`: escapes
/// checked, surrogates paired, no control characters.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let hex = |j: usize| -> Option<u32> {
        let h = b.get(j..j + 4)?;
        h.iter().try_fold(0u32, |a, &d| Some(a * 16 + (d as char).to_digit(16)?))
    };
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *b.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' => {
                    let u = hex(j + 2)?;
                    j += 6;
                    if (0xDC00..0xE000).contains(&u) {
                        return None;
                    }
                    if (0xD800..0xDC00).contains(&u) {
                        if b.get(j..j + 2) != Some(b"\\u") || !(0xDC00..0xE000).contains(&hex(j + 2)?) {
                            return None;
                        }
                        j += 6;
                    }
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => j += 1,
        }
    }
}

/// Appends a value: a JSON value kept verbatim (a `Plain` text from a JSON reader that is strict
/// JSON), a number where `numeric` and the text is one, else a string.
pub(crate) fn value(t: &Text<'_>, numeric: bool, out: &mut Vec<u8>) {
    let raw = t.raw();
    if t.rule() == TextRule::Plain && is_strict_json(raw) {
        out.extend_from_slice(raw.trim_ascii());
        return;
    }
    let plain =
        matches!(t.rule(), TextRule::Plain | TextRule::JsonString | TextRule::SgfSimpleText | TextRule::SgfText);
    if numeric && plain && escape::is_json_number(raw) {
        out.extend_from_slice(raw);
        return;
    }
    string(t, out);
}

/// A property's value: one SGF value as a string, several as an array of strings, any other
/// text as [`value`].
fn property_value(t: &Text<'_>, out: &mut Vec<u8>) {
    if t.rule() == TextRule::SgfValues {
        let n = t.sgf_values().count();
        if n != 1 {
            out.push(b'[');
        }
        for (i, v) in t.sgf_values().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            string(&v, out);
        }
        if n != 1 {
            out.push(b']');
        }
    } else {
        value(t, false, out);
    }
}

/// Appends seconds given in milliseconds as a JSON number that the readers (which take it as an
/// `f64` and round down to the millisecond) read back as `ms`: `12`, `12.5`, `0.025`, and, where
/// the shortest decimal lands just below `ms`, half a millisecond more (`1046.4945`).
pub(crate) fn seconds(ms: u64, out: &mut Vec<u8>) {
    let start = out.len();
    exact_seconds(ms, out);
    let keep = ms % 1000;
    if keep != 0 {
        let written = std::str::from_utf8(&out[start..]).ok();
        if written.and_then(|w| w.parse::<f64>().ok()).is_some_and(|f| (f * 1000.0) as u64 != ms) {
            let decimals = out.len() - start - digits(ms / 1000) - 1;
            out.extend_from_slice(&b"00"[..3 - decimals]);
            out.push(b'5');
        }
    }
}

/// Appends seconds given in milliseconds, as SGF writes them: `12`, `12.5`, `0.025`.
pub(crate) fn exact_seconds(ms: u64, out: &mut Vec<u8>) {
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

/// The number of decimal digits of `v`.
fn digits(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// Appends a decimal number.
fn number(v: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(v, out)
}

/// Where an info goes in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A field of a section (`numeric`: written as a number when it is one).
    Field(Section, &'static str, bool),
    /// A field named by the info itself (`InfoKey::Other`).
    Named(Section),
    Date,
    Size,
    Player(Color, &'static str),
    /// Written by the writer itself (version, type, charset).
    Own,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Record,
    Source,
    Game,
    Event,
    Rules,
    Board,
    /// v1: `game.time`.
    Time,
}

fn slot(v: Version, i: &Info<'_>) -> Slot {
    use InfoKey as K;
    use Section as S;
    let v2 = v == Version::V2;
    let f = |s, n| Slot::Field(s, n, false);
    match i.key() {
        K::FormatVersion | K::GameType | K::Charset => Slot::Own,
        K::Application => f(S::Record, if v2 { "generator" } else { "application" }),
        K::Transcriber => f(S::Record, "transcriber"),
        K::Annotator => f(if v2 { S::Game } else { S::Record }, "annotator"),
        K::Source => f(if v2 { S::Source } else { S::Record }, if v2 { "name" } else { "source" }),
        K::Copyright => f(if v2 { S::Source } else { S::Record }, "copyright"),
        K::GameName => f(S::Game, "name"),
        K::Result => f(S::Game, "result"),
        K::Date => Slot::Date,
        K::EndDate => f(S::Game, "endDate"),
        K::Opening => f(S::Game, "opening"),
        K::GameComment => f(S::Game, "description"),
        K::Event => f(if v2 { S::Event } else { S::Game }, if v2 { "name" } else { "event" }),
        K::Place => f(if v2 { S::Event } else { S::Game }, "location"),
        K::Round => f(if v2 { S::Event } else { S::Game }, "round"),
        K::Rules => f(if v2 { S::Rules } else { S::Game }, if v2 { "ruleset" } else { "rules" }),
        K::Komi => Slot::Field(if v2 { S::Rules } else { S::Game }, "komi", true),
        K::Handicap => Slot::Field(if v2 { S::Rules } else { S::Game }, "handicap", true),
        K::TimeLimit => Slot::Field(if v2 { S::Rules } else { S::Time }, if v2 { "time" } else { "main" }, true),
        K::Overtime => f(if v2 { S::Rules } else { S::Time }, "overtime"),
        K::BoardSize => Slot::Size,
        K::BlackName => Slot::Player(Color::Black, "name"),
        K::WhiteName => Slot::Player(Color::White, "name"),
        K::BlackRank => Slot::Player(Color::Black, "rank"),
        K::WhiteRank => Slot::Player(Color::White, "rank"),
        K::BlackTeam => Slot::Player(Color::Black, "team"),
        K::WhiteTeam => Slot::Player(Color::White, "team"),
        _ => Slot::Named(match i.name() {
            b"format" | b"comment" | b"sgf" => S::Record,
            b"url" => S::Source,
            b"allowSuicide" | b"disallowRepeats" | b"numberOfPeriods" | b"timePerPeriod" => S::Rules,
            b"cutOffTop" | b"cutOffBottom" | b"cutOffLeft" | b"cutOffRight" | b"coordinates" | b"cutoff" => S::Board,
            _ => S::Game,
        }),
    }
}

/// The game's information: the infos of the game node, then the root node's.
fn infos<'b>(tree: &GameTree<'b>) -> impl Iterator<Item = Info<'b>> {
    tree.events(NodeId::GAME).chain(tree.events(NodeId(1))).filter_map(|e| match e {
        Event::Info(i) => Some(i),
        _ => None,
    })
}

/// Whether the `k`th info `i` is the first with its slot (and name, for named ones).
fn first_of<'b>(tree: &GameTree<'b>, v: Version, k: usize, i: &Info<'b>) -> bool {
    let s = slot(v, i);
    !infos(tree).take(k).any(|j| slot(v, &j) == s && (!matches!(s, Slot::Named(_)) || j.name() == i.name()))
}

/// The number of the board size info's sides: `19`, or `19:13` as width and height.
fn board_size(t: &Text<'_>) -> Option<(u64, u64)> {
    let mut s = [0u8; 16];
    let mut n = 0;
    escape::pieces(t, |p| {
        for &b in p.as_bytes() {
            if n < s.len() {
                s[n] = b;
            }
            n += 1;
        }
    });
    let s = s.get(..n)?.trim_ascii();
    let num = |b: &[u8]| -> Option<u64> {
        if b.is_empty() || b.len() > 3 || !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(b.iter().fold(0, |a, d| a * 10 + u64::from(d - b'0')))
    };
    match s.iter().position(|&b| b == b':') {
        Some(p) => Some((num(s[..p].trim_ascii())?, num(s[p + 1..].trim_ascii())?)),
        None => num(s).map(|n| (n, n)),
    }
}

impl Writer {
    /// A writer with an empty stack.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Appends `tree` as one JGF document of `version` and a newline; see the
    /// [module docs](self). A shogi game is refused and nothing is written.
    pub fn write(&mut self, tree: &GameTree<'_>, version: Version, out: &mut Vec<u8>) -> Result<(), Refused> {
        if is_shogi(tree) {
            return Err(Refused);
        }
        self.left_out = 0;
        out.push(b'{');
        let mut first = true;
        self.header(tree, version, &mut first, out);
        key(&mut first, "tree", out);
        self.tree(tree, version, out);
        out.extend_from_slice(b"}\n");
        Ok(())
    }

    /// Moves the last game written left out: each move of a node after its first (a node of
    /// JGF holds one move). A caller reports them (`kifu convert` does).
    pub fn moves_left_out(&self) -> u64 {
        self.left_out
    }

    fn header(&mut self, tree: &GameTree<'_>, v: Version, first: &mut bool, out: &mut Vec<u8>) {
        let sections: &[Section] = match v {
            Version::V2 => &[Section::Record, Section::Source, Section::Game, Section::Event, Section::Rules],
            Version::V1 => &[Section::Record, Section::Source, Section::Game, Section::Rules],
        };
        for &s in sections {
            let mark = out.len();
            key(first, section_name(s), out);
            out.push(b'{');
            let mut f = true;
            match s {
                Section::Record => {
                    key(&mut f, "version", out);
                    out.push(if v == Version::V2 { b'2' } else { b'1' });
                    if infos(tree).any(|i| i.key() == InfoKey::Charset) {
                        key(&mut f, "charset", out);
                        out.extend_from_slice(b"\"UTF-8\"");
                    }
                }
                Section::Game => {
                    key(&mut f, "type", out);
                    out.extend_from_slice(b"\"go\"");
                }
                _ => {}
            }
            self.fields(tree, v, s, &mut f, out);
            if s == Section::Game {
                if v == Version::V1 {
                    players(tree, v, &mut f, out);
                    if infos(tree).any(|i| matches!(slot(v, &i), Slot::Field(Section::Time, ..))) {
                        key(&mut f, "time", out);
                        out.push(b'{');
                        let mut t = true;
                        self.fields(tree, v, Section::Time, &mut t, out);
                        out.push(b'}');
                    }
                }
                dates(tree, v, &mut f, out);
            }
            out.push(b'}');
            if f {
                // An empty section (never the first): take it back.
                out.truncate(mark);
            }
        }
        // The board.
        let size = infos(tree).find(|i| i.key() == InfoKey::BoardSize).and_then(|i| board_size(&i.value()));
        let named = infos(tree).any(|i| slot(v, &i) == Slot::Named(Section::Board));
        if size.is_some() || named {
            key(first, "board", out);
            out.push(b'{');
            let mut f = true;
            match size {
                Some((w, h)) if w == h && v == Version::V2 => {
                    key(&mut f, "size", out);
                    number(w, out);
                }
                Some((w, h)) => {
                    key(&mut f, "width", out);
                    number(w, out);
                    key(&mut f, "height", out);
                    number(h, out);
                }
                None => {}
            }
            self.fields(tree, v, Section::Board, &mut f, out);
            out.push(b'}');
        }
        if v == Version::V2 {
            players(tree, v, first, out);
        }
        // The game node's properties, as top-level keys.
        for e in tree.events(NodeId::GAME) {
            if let Event::Property(p) = e {
                if !matches!(p.name(), b"tree" | b"record" | b"game" | b"board" | b"players" | b"rules" | b"event") {
                    key_bytes(first, p.name(), out);
                    property_value(&p.value(), out);
                }
            }
        }
    }

    fn fields(&mut self, tree: &GameTree<'_>, v: Version, s: Section, f: &mut bool, out: &mut Vec<u8>) {
        for (k, i) in infos(tree).enumerate() {
            let (name, numeric): (&[u8], bool) = match slot(v, &i) {
                Slot::Field(sec, n, num) if sec == s => (n.as_bytes(), num),
                Slot::Named(sec) if sec == s && !i.name().is_empty() => (i.name(), false),
                _ => continue,
            };
            if !first_of(tree, v, k, &i) {
                continue;
            }
            key_bytes(f, name, out);
            value(&i.value(), numeric, out);
        }
    }

    /// The tree array: nodes in sequence, a branch as a variations node (v2) or a bare array of
    /// arrays (v1) at the end of its sequence. An explicit stack holds, for each open branch,
    /// the next child to write as a variation.
    fn tree(&mut self, tree: &GameTree<'_>, v: Version, out: &mut Vec<u8>) {
        self.stack.clear();
        let open_group: &[u8] = if v == Version::V2 { b"{\"variations\":[[" } else { b"[[" };
        let close_group: &[u8] = if v == Version::V2 { b"]}]" } else { b"]]" };
        out.push(b'[');
        let mut at = NodeId::GAME;
        let mut first = true;
        loop {
            let child = tree.first_child(at);
            match child {
                None => {
                    // The sequence ends; close finished branch groups, open the next variation.
                    out.push(b']');
                    loop {
                        match self.stack.pop() {
                            None => return,
                            Some(NONE) => out.extend_from_slice(close_group),
                            Some(s) => {
                                let s = NodeId(s);
                                out.extend_from_slice(b",[");
                                self.stack.push(tree.next_sibling(s).map_or(NONE, |n| n.0));
                                self.left_out += node(tree, v, s, out);
                                at = s;
                                break;
                            }
                        }
                    }
                }
                Some(c) => {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    match tree.next_sibling(c) {
                        None => {}
                        Some(s) => {
                            out.extend_from_slice(open_group);
                            self.stack.push(s.0);
                        }
                    }
                    self.left_out += node(tree, v, c, out);
                    at = c;
                }
            }
        }
    }
}

fn section_name(s: Section) -> &'static str {
    match s {
        Section::Record => "record",
        Section::Source => "source",
        Section::Game => "game",
        Section::Event => "event",
        Section::Rules => "rules",
        Section::Board => "board",
        Section::Time => "time",
    }
}

/// `dates`, or v2's `date` when there is one.
fn dates(tree: &GameTree<'_>, v: Version, f: &mut bool, out: &mut Vec<u8>) {
    let n = infos(tree).filter(|i| i.key() == InfoKey::Date).count();
    if n == 0 {
        return;
    }
    if n == 1 && v == Version::V2 {
        key(f, "date", out);
    } else {
        key(f, "dates", out);
        out.push(b'[');
    }
    let mut sep = false;
    for i in infos(tree).filter(|i| i.key() == InfoKey::Date) {
        if sep {
            out.push(b',');
        }
        sep = true;
        string(&i.value(), out);
    }
    if n > 1 || v == Version::V1 {
        out.push(b']');
    }
}

/// The players: v2 `"players":{"black":{…},"white":{…}}`, v1 `"players":[{"color":"black",…}]`.
fn players(tree: &GameTree<'_>, v: Version, f: &mut bool, out: &mut Vec<u8>) {
    let has = |c: Color| infos(tree).any(|i| matches!(slot(v, &i), Slot::Player(pc, _) if pc == c));
    if !has(Color::Black) && !has(Color::White) {
        return;
    }
    key(f, "players", out);
    out.push(if v == Version::V2 { b'{' } else { b'[' });
    let mut pf = true;
    for c in [Color::Black, Color::White] {
        if !has(c) {
            continue;
        }
        let name = if c == Color::Black { "black" } else { "white" };
        let mut g = true;
        if v == Version::V2 {
            key(&mut pf, name, out);
            out.push(b'{');
        } else {
            if !pf {
                out.push(b',');
            }
            pf = false;
            out.extend_from_slice(b"{");
            key(&mut g, "color", out);
            str_lit(name, out);
        }
        for (k, i) in infos(tree).enumerate() {
            if let Slot::Player(pc, field) = slot(v, &i) {
                if pc == c && first_of(tree, v, k, &i) {
                    key(&mut g, field, out);
                    string(&i.value(), out);
                }
            }
        }
        out.push(b'}');
    }
    out.push(if v == Version::V2 { b'}' } else { b']' });
}

/// The events written for a node: the root also takes the game node's events other than its
/// information and properties (which went to the header), and leaves its own infos to the header.
pub(crate) fn node_events<'b>(tree: &GameTree<'b>, n: NodeId) -> impl Iterator<Item = Event<'b>> {
    let root = n == NodeId(1) && tree.parent(n) == Some(NodeId::GAME);
    let game = if root { tree.events(NodeId::GAME) } else { tree.events(NodeId(u32::MAX)) };
    game.filter(|e| !matches!(e, Event::Info(_) | Event::Property(_)))
        .chain(tree.events(n).filter(move |e| !(root && matches!(e, Event::Info(_)))))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A point as `{"x":…,"y":…` (left open for a label).
fn xy(p: crate::event::Point, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"x\":");
    number(u64::from(p.x), out);
    out.extend_from_slice(b",\"y\":");
    number(u64::from(p.y), out);
}

/// A v1 point: `[x,y]`.
fn pair(p: crate::event::Point, out: &mut Vec<u8>) {
    out.push(b'[');
    number(u64::from(p.x), out);
    out.push(b',');
    number(u64::from(p.y), out);
    out.push(b']');
}

/// The JGF name of a mark kind, and whether it is written in the `markup` list.
fn mark_name(k: MarkupKind, v: Version) -> Option<&'static str> {
    Some(match k {
        MarkupKind::Triangle => "triangle",
        MarkupKind::Circle => "circle",
        MarkupKind::Square => "square",
        MarkupKind::Cross => "mark",
        MarkupKind::Selected => {
            if v == Version::V2 {
                "select"
            } else {
                "selected"
            }
        }
        MarkupKind::Label => "label",
        MarkupKind::Arrow => "arrow",
        MarkupKind::Line => "line",
        MarkupKind::Dim => "dim",
        MarkupKind::Visible => "visible",
        _ => return None,
    })
}

const MARKS: [MarkupKind; 10] = [
    MarkupKind::Triangle,
    MarkupKind::Circle,
    MarkupKind::Square,
    MarkupKind::Cross,
    MarkupKind::Selected,
    MarkupKind::Label,
    MarkupKind::Arrow,
    MarkupKind::Line,
    MarkupKind::Dim,
    MarkupKind::Visible,
];

/// Writes one node object.
const NAME: u32 = 1;
const MOVE: u32 = 2;
const SETUP: u32 = 4;
const MARK: u32 = 8;
const TURN: u32 = 16;
const COMMENT: u32 = 32;
const CLOCK: u32 = 64;
const OTHER: u32 = 128;

/// Gives the moves it left out (see [`Writer::moves_left_out`]).
fn node(tree: &GameTree<'_>, v: Version, n: NodeId, out: &mut Vec<u8>) -> u64 {
    out.push(b'{');
    let mut f = true;
    // Which kinds of events the node has (one pass), so that each key's pass over the
    // node's events runs only when it will find something.
    let mut has = 0u32;
    let mut moves = 0u64;
    for e in node_events(tree, n) {
        moves += matches!(e, Event::Move(_)) as u64;
        has |= match e {
            Event::Name(_) => NAME,
            Event::Move(_) => MOVE,
            Event::Setup(_) => SETUP,
            Event::Markup(_) => MARK,
            Event::Turn(_) => TURN,
            Event::Comment(_) => COMMENT,
            Event::Clock(_) => CLOCK,
            Event::Property(_) | Event::Info(_) => OTHER,
            _ => 0,
        };
    }
    let evs = |bit: u32| node_events(tree, if has & bit != 0 { n } else { NodeId(u32::MAX) });
    if v == Version::V1 && n == NodeId(1) {
        key(&mut f, "root", out);
        out.extend_from_slice(b"true");
    }
    // The name.
    if let Some(t) = evs(NAME).find_map(|e| if let Event::Name(t) = e { Some(t) } else { None }) {
        key(&mut f, "name", out);
        string(&t, out);
    }
    // The move (the first one) and its mover's clocks.
    if let Some((color, point)) = evs(MOVE).find_map(|e| match e {
        Event::Move(Move::Go { color, point }) => Some((color, point)),
        _ => None,
    }) {
        key(&mut f, "move", out);
        let cname = color_name(color);
        match v {
            Version::V2 => {
                out.extend_from_slice(b"{\"color\":");
                str_lit(cname, out);
                match point {
                    Some(p) => {
                        out.extend_from_slice(b",\"x\":");
                        number(u64::from(p.x), out);
                        out.extend_from_slice(b",\"y\":");
                        number(u64::from(p.y), out);
                    }
                    None => out.extend_from_slice(b",\"pass\":true"),
                }
                let clock = |kind| {
                    evs(CLOCK).find_map(|e| match e {
                        Event::Clock(c) if c.kind == kind && c.color == Some(color) => Some(c.value),
                        _ => None,
                    })
                };
                if let Some(ms) = clock(ClockKind::TimeLeftMs) {
                    out.extend_from_slice(b",\"timeLeft\":");
                    seconds(ms, out);
                }
                if let Some(p) = clock(ClockKind::PeriodsLeft) {
                    out.extend_from_slice(b",\"periodsLeft\":");
                    number(p, out);
                }
                out.push(b'}');
            }
            Version::V1 => {
                out.extend_from_slice(if color == Color::Black { b"{\"B\":" } else { b"{\"W\":" });
                match point {
                    Some(p) => pair(p, out),
                    None => out.extend_from_slice(b"\"pass\""),
                }
                out.push(b'}');
            }
        }
    }
    // Setup stones.
    let setup = |c: Option<Color>| {
        evs(SETUP).filter_map(move |e| match e {
            Event::Setup(Setup::Go { color, point }) if color == c => Some(point),
            _ => None,
        })
    };
    let kinds: [(Option<Color>, &str, &str); 3] =
        [(Some(Color::Black), "black", "B"), (Some(Color::White), "white", "W"), (None, "clear", "E")];
    if kinds.iter().any(|k| setup(k.0).next().is_some()) {
        key(&mut f, "setup", out);
        out.push(if v == Version::V2 { b'[' } else { b'{' });
        let mut g = true;
        for (c, v2name, v1name) in kinds {
            if setup(c).next().is_none() {
                continue;
            }
            if v == Version::V2 {
                if !g {
                    out.push(b',');
                }
                g = false;
                out.extend_from_slice(b"{\"type\":");
                str_lit(v2name, out);
                out.extend_from_slice(b",\"coords\":[");
            } else {
                key(&mut g, v1name, out);
                out.push(b'[');
            }
            for (i, p) in setup(c).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if v == Version::V2 {
                    xy(p, out);
                    out.push(b'}');
                } else {
                    pair(p, out);
                }
            }
            out.extend_from_slice(if v == Version::V2 { b"]}" } else { b"]" });
        }
        out.push(if v == Version::V2 { b']' } else { b'}' });
    }
    // Marks, one entry per kind (and per name of an `Other` mark).
    let marks = |k: MarkupKind| {
        evs(MARK).filter_map(move |e| match e {
            Event::Markup(m) if m.kind == k && m.point().is_some() => Some(m),
            _ => None,
        })
    };
    let others = || {
        evs(MARK).filter_map(|e| match e {
            Event::Markup(m) if m.kind == MarkupKind::Other && m.point().is_some() => Some(m),
            _ => None,
        })
    };
    if MARKS.iter().any(|&k| marks(k).next().is_some()) || others().next().is_some() {
        key(&mut f, "markup", out);
        out.push(if v == Version::V2 { b'[' } else { b'{' });
        let mut g = true;
        for k in MARKS {
            if marks(k).next().is_none() {
                continue;
            }
            let Some(name) = mark_name(k, v) else { continue };
            mark_list(v, &mut g, &str_text(name), marks(k), out);
        }
        // `Other` marks: one entry per mark, named by its label.
        for m in others() {
            mark_list(v, &mut g, &m.label(), std::iter::once(m), out);
        }
        out.push(if v == Version::V2 { b']' } else { b'}' });
    }
    // Territory.
    let terr = |k: MarkupKind| marks(k);
    if terr(MarkupKind::TerritoryBlack).next().is_some() || terr(MarkupKind::TerritoryWhite).next().is_some() {
        key(&mut f, "score", out);
        out.push(if v == Version::V2 { b'[' } else { b'{' });
        let mut g = true;
        for (k, v2name, v1name) in
            [(MarkupKind::TerritoryBlack, "black", "B"), (MarkupKind::TerritoryWhite, "white", "W")]
        {
            if terr(k).next().is_none() {
                continue;
            }
            if v == Version::V2 {
                if !g {
                    out.push(b',');
                }
                g = false;
                out.extend_from_slice(b"{\"color\":");
                str_lit(v2name, out);
                out.extend_from_slice(b",\"coords\":[");
            } else {
                key(&mut g, v1name, out);
                out.push(b'[');
            }
            for (i, m) in terr(k).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let Some(p) = m.point() else { continue };
                if v == Version::V2 {
                    xy(p, out);
                    out.push(b'}');
                } else {
                    pair(p, out);
                }
            }
            out.extend_from_slice(if v == Version::V2 { b"]}" } else { b"]" });
        }
        out.push(if v == Version::V2 { b']' } else { b'}' });
    }
    // The player to move.
    if let Some(c) = evs(TURN).find_map(|e| if let Event::Turn(c) = e { Some(c) } else { None }) {
        key(&mut f, "turn", out);
        match v {
            Version::V2 => str_lit(color_name(c), out),
            Version::V1 => str_lit(if c == Color::Black { "B" } else { "W" }, out),
        }
    }
    // Comments.
    if has & COMMENT != 0 {
        key(&mut f, "comments", out);
        out.push(b'[');
        let mut sep = false;
        for e in evs(COMMENT) {
            if let Event::Comment(t) = e {
                if sep {
                    out.push(b',');
                }
                sep = true;
                string(&t, out);
            }
        }
        out.push(b']');
    }
    // v1: clocks as ngGo keeps them, under their SGF keys (the first of each).
    let mut clock_keys = [false; 4];
    if v == Version::V1 {
        for e in evs(CLOCK) {
            let Event::Clock(c) = e else { continue };
            let (k, name) = match (c.kind, c.color) {
                (ClockKind::TimeLeftMs, Some(Color::Black)) => (0, "BL"),
                (ClockKind::TimeLeftMs, Some(Color::White)) => (1, "WL"),
                (ClockKind::PeriodsLeft, Some(Color::Black)) => (2, "OB"),
                (ClockKind::PeriodsLeft, Some(Color::White)) => (3, "OW"),
                _ => continue,
            };
            if clock_keys[k] {
                continue;
            }
            clock_keys[k] = true;
            key(&mut f, name, out);
            out.push(b'"');
            if c.kind == ClockKind::TimeLeftMs {
                exact_seconds(c.value, out);
            } else {
                number(c.value, out);
            }
            out.push(b'"');
        }
    }
    let clock_key = |name: &[u8]| match name {
        b"BL" => clock_keys[0],
        b"WL" => clock_keys[1],
        b"OB" => clock_keys[2],
        b"OW" => clock_keys[3],
        _ => false,
    };
    // Properties, and infos below the root, as keys of their own.
    for e in evs(OTHER) {
        match e {
            Event::Property(p) if !is_node_key(p.name()) && !clock_key(p.name()) => {
                key_bytes(&mut f, p.name(), out);
                property_value(&p.value(), out);
            }
            Event::Info(i) => {
                let name = if i.name().is_empty() { i.key().as_str().as_bytes() } else { i.name() };
                if !is_node_key(name) {
                    key_bytes(&mut f, name, out);
                    value(&i.value(), false, out);
                }
            }
            _ => {}
        }
    }
    out.push(b'}');
    moves.saturating_sub(1)
}

/// A static name as a text.
fn str_text(s: &'static str) -> Text<'static> {
    Text::new(s.as_bytes(), TextRule::Plain, crate::text::Charset::Utf8)
}

/// The keys a node's own events use: a property of that name would be read as them.
fn is_node_key(name: &[u8]) -> bool {
    matches!(
        name,
        b"move" | b"setup" | b"markup" | b"score" | b"turn" | b"name" | b"comments" | b"variations" | b"root"
    )
}

/// One markup entry: v2 `{"type":name,"coords":[{x,y[,text]}…]}`, v1 `name:[[x,y[,text]]…]`.
fn mark_list<'m>(
    v: Version,
    g: &mut bool,
    name: &Text<'_>,
    marks: impl Iterator<Item = crate::event::Markup<'m>>,
    out: &mut Vec<u8>,
) {
    if !*g {
        out.push(b',');
    }
    *g = false;
    if v == Version::V2 {
        out.extend_from_slice(b"{\"type\":");
        string(name, out);
        out.extend_from_slice(b",\"coords\":[");
    } else {
        string(name, out);
        out.extend_from_slice(b":[");
    }
    for (i, m) in marks.enumerate() {
        let Some(p) = m.point() else { continue };
        if i > 0 {
            out.push(b',');
        }
        let label = (m.kind == MarkupKind::Label).then(|| m.label());
        match v {
            Version::V2 => {
                xy(p, out);
                if let Some(l) = label {
                    out.extend_from_slice(b",\"text\":");
                    string(&l, out);
                }
                out.push(b'}');
            }
            Version::V1 => {
                out.push(b'[');
                number(u64::from(p.x), out);
                out.push(b',');
                number(u64::from(p.y), out);
                if let Some(l) = label {
                    out.push(b',');
                    string(&l, out);
                }
                out.push(b']');
            }
        }
    }
    out.extend_from_slice(if v == Version::V2 { b"]}" } else { b"]" });
}

#[cfg(test)]
mod tests {
    use super::is_strict_json;

    #[test]
    fn strict_json_values() {
        for ok in [
            &b"1"[..],
            b" -0.5e3 ",
            b"true",
            b"null",
            br#""a\"\u00e9\ud83d\ude00""#,
            br#"{"a":[1,{"b":null},[]],"c":{}}"#,
            b"[]",
            b"{}",
        ] {
            assert!(is_strict_json(ok), "{}", String::from_utf8_lossy(ok));
            assert!(serde_json::from_slice::<serde_json::Value>(ok).is_ok());
        }
        for bad in [
            &b""[..],
            b"01",
            b"[1,]",
            b"{a:1}",
            b"{'a':1}",
            b"[1] 2",
            b"[1",
            b"{\"a\" 1}",
            b"\"\\ud800\"",
            b"\"\x01\"",
            b"\"\\q\"",
            b"// c\n1",
            b"\xff",
            b"tru",
            b"[1]]",
        ] {
            assert!(!is_strict_json(bad), "{}", String::from_utf8_lossy(bad));
        }
        let deep = "[".repeat(65) + &"]".repeat(65);
        assert!(!is_strict_json(deep.as_bytes()));
        let ok = "[".repeat(64) + &"]".repeat(64);
        assert!(is_strict_json(ok.as_bytes()));
    }
}
