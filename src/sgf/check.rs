//! The checks of SGF that reading does not make: what the FF\[4\] specification says about
//! properties, nodes and paths, as SGFC checks it. [`lint`] scans the input's bytes (no events,
//! no tree) and reports each finding as a [`Warning`] positioned at the property's identifier:
//!
//! | kind | what |
//! | --- | --- |
//! | `duplicate_property` | a property given twice in one node (SGFC error 28) |
//! | `move_and_setup` | a move (`B`, `W`, `KO`, `MN`) and setup (`AB`, `AW`, `AE`, `PL`) in one node (30) |
//! | `two_moves` | `B` and `W` in one node (37) |
//! | `annotation_without_move` | `KO`, `BM`, `DO`, `IT` or `TE` in a node without a move (43) |
//! | `root_property_outside_root` | `FF`, `GM`, `SZ`, `CA`, `AP` or `ST` after the root node |
//! | `game_info_twice` | game information in two nodes of one path |
//! | `too_many_values` | several values for a property that takes one (13) |
//! | `empty_value` | an empty value where the property's type has no empty form (17) |
//! | `expected_number`, `expected_real`, `expected_double`, `expected_compose`, `expected_empty` | a value of the wrong type (14, 15, 23) |
//! | `bad_result`, `bad_date`, `bad_komi`, `bad_handicap` | `RE`, `DT`, `KM`, `HA` not in their FF\[4\] form (15, 33) |
//! | `unknown_property` | an identifier that no FF version defines (warning 35) |
//! | `unknown_to_version` | a property the file's FF version does not define (warning 40; no `FF` is FF\[1\]) |
//! | `not_go` | `GM` other than 1: not a Go record |
//!
//! Values the reader itself checks (points, `SZ`, `PL`, `BL`/`WL`/`OB`/`OW`) and syntax (lenient
//! starts, junk, identifiers with digits) are the reader's warnings and are not repeated here.
//!
//! The scan never recurses: a stack holds, for each open `(`, whether game information was seen
//! on the path before it. Its memory is that stack plus one node's properties.
//!
//! ```
//! use kifu::sgf::check::lint;
//! use kifu::WarningKind;
//!
//! let mut found = Vec::new();
//! lint(b"(;FF[4]GM[1]SZ[19];B[aa]W[ab];C[one]C[two])", &mut found);
//! let kinds: Vec<_> = found.iter().map(|w| (w.kind, w.offset)).collect();
//! assert_eq!(kinds, [(WarningKind::TwoMoves, 24), (WarningKind::DuplicateProperty, 36)]);
//! ```

use super::scan::{self, End, Look};
use crate::error::WarningKind;
use crate::event::Warning;
use crate::text::{detect_charset, Charset};

/// Every finding of the checks in the module docs over `input` (one game or a collection),
/// appended to `out` in input order within each node.
pub fn lint(input: &[u8], out: &mut Vec<Warning>) {
    let mut l = Linter {
        input,
        out,
        all_utf8: std::str::from_utf8(input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input)).is_ok()
            || input.starts_with(b"\xEF\xBB\xBF"),
        node: Vec::new(),
        stack: Vec::new(),
        game: Game::default(),
        found: Vec::new(),
    };
    l.run();
}

/// A property of the current node.
#[derive(Clone, Copy)]
struct Prop {
    /// The identifier's upper-case letters (FF\[3\] `AddBlack` is `AB`), or the identifier as
    /// written when it holds a digit; the first 8 bytes.
    id: [u8; 8],
    len: u8,
    /// Where the identifier starts.
    at: usize,
}

impl Prop {
    fn id(&self) -> &[u8] {
        &self.id[..self.len as usize]
    }
}

/// What is known of the game being scanned.
#[derive(Default)]
struct Game {
    /// The `FF` of the root (1 when absent), known when the root node ends.
    ff: u8,
    /// Nodes of the game so far (the root is node 1).
    nodes: u64,
    /// Game information was seen on the current path.
    info_seen: bool,
    /// Game information was seen in the current node.
    info_here: bool,
}

struct Linter<'a, 'o> {
    input: &'a [u8],
    out: &'o mut Vec<Warning>,
    all_utf8: bool,
    /// The current node's properties.
    node: Vec<Prop>,
    /// For each open `(` of the game: whether game information was on the path before it.
    stack: Vec<bool>,
    game: Game,
    /// The findings of the node being ended, sorted before they are reported (kept for its
    /// capacity).
    found: Vec<(WarningKind, usize)>,
}

impl Linter<'_, '_> {
    fn warn(&mut self, kind: WarningKind, at: usize) {
        self.out.push(Warning { kind, offset: at as u64 });
    }

    fn run(&mut self) {
        let input = self.input;
        let mut p = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        // Between games: the reader's game-start rule.
        while p < input.len() {
            if input[p] == b'(' && matches!(scan::game_start_at(input, p, true), Look::Known(true)) {
                p = self.game(p);
            } else {
                p += 1;
            }
        }
    }

    /// Scans the game whose `(` is at `start`; returns where scanning resumes.
    fn game(&mut self, start: usize) -> usize {
        let input = self.input;
        self.game = Game { ff: 1, ..Game::default() };
        self.node.clear();
        self.stack.clear();
        let cs = self.charset(start);
        let mut p = start + 1;
        let mut depth = 1u32;
        let mut in_node = false;
        // A root without `;` (`(TE[…]`): its properties make the first node.
        let mut ident: Option<Prop> = None;
        let mut values = 0u32;
        while p < input.len() {
            let b = input[p];
            match b {
                b'[' => {
                    let e = match scan::value_end(input, p + 1, cs, usize::MAX) {
                        End::At(e) => e,
                        _ => break,
                    };
                    if let Some(prop) = ident {
                        if !in_node {
                            self.open_node();
                            in_node = true;
                        }
                        values += 1;
                        if values == 1 {
                            self.property(prop);
                        }
                        self.value(prop, values, &input[p + 1..e], cs);
                    }
                    p = e + 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                    p += 1;
                    continue;
                }
                _ => {}
            }
            ident = None;
            values = 0;
            match b {
                b'(' => {
                    if depth >= 1 && matches!(scan::new_game_at(input, p, true), Look::Known(true)) {
                        // A game that lost its `)`: the reader closes it here.
                        break;
                    }
                    self.end_node(in_node);
                    in_node = false;
                    self.stack.push(self.game.info_seen);
                    depth += 1;
                    p += 1;
                }
                b')' => {
                    self.end_node(in_node);
                    in_node = false;
                    p += 1;
                    depth -= 1;
                    if depth == 0 {
                        return p;
                    }
                    self.game.info_seen = self.stack.pop().unwrap_or(false);
                }
                b';' => {
                    self.end_node(in_node);
                    self.open_node();
                    in_node = true;
                    p += 1;
                    // The common node, one move and nothing else (`;B[pd];`): nothing to check,
                    // so it is stepped over whole.
                    if let Some(&[b'B' | b'W', b'[', x, y, b']', next]) = input.get(p..p + 6) {
                        if !matches!(x, b'\\' | b']')
                            && !matches!(y, b'\\' | b']')
                            && matches!(next, b';' | b'(' | b')')
                        {
                            self.node.clear();
                            in_node = false;
                            p += 5;
                        }
                    }
                }
                b'A'..=b'Z' | b'a'..=b'z' => {
                    let s = p;
                    while p < input.len() && input[p].is_ascii_alphanumeric() {
                        p += 1;
                    }
                    ident = Some(prop(&input[s..p], s));
                }
                _ => p += 1,
            }
        }
        self.end_node(in_node);
        p.max(start + 1)
    }

    /// The game's charset, as the reader fixes it: UTF-8 when the whole input is, else the
    /// root's `CA`, else detection over the game's bytes.
    fn charset(&mut self, start: usize) -> Charset {
        if self.all_utf8 {
            return Charset::Utf8;
        }
        let input = self.input;
        if let Look::Known(root) = scan::root_info(input, start + 1, true) {
            if let Some(c) = root.charset.and_then(Charset::from_label) {
                return c;
            }
        }
        let end = scan::game_end(input, start + 1, 1, Charset::Utf8).unwrap_or(input.len());
        detect_charset(&input[start..end])
    }

    fn open_node(&mut self) {
        self.node.clear();
        self.game.nodes += 1;
        self.game.info_here = false;
    }

    /// A property's identifier, at its first value: the checks of one property against the
    /// node so far and the path.
    fn property(&mut self, prop: Prop) {
        let id = prop.id();
        if self.node.iter().any(|q| q.id() == id) {
            self.warn(WarningKind::DuplicateProperty, prop.at);
        }
        let root = self.game.nodes == 1;
        let def = definition(id);
        if let Some(d) = def {
            if d.class == Class::Root && !root {
                self.warn(WarningKind::RootPropertyOutsideRoot, prop.at);
            }
            if d.class == Class::Info {
                if self.game.info_seen && !self.game.info_here {
                    self.warn(WarningKind::GameInfoTwice, prop.at);
                }
                self.game.info_here = true;
            }
            // The root's FF is known once the root ends; later nodes are checked here.
            if !root && d.versions & (1 << self.game.ff.min(4)) == 0 {
                self.warn(WarningKind::UnknownToVersion, prop.at);
            }
        } else if !id.iter().any(u8::is_ascii_digit) {
            // Identifiers with digits are the reader's `nonstandard_ident`.
            self.warn(WarningKind::UnknownProperty, prop.at);
        }
        self.node.push(prop);
    }

    /// One value of `prop` (the `n`th).
    fn value(&mut self, prop: Prop, n: u32, v: &[u8], cs: Charset) {
        let Some(def) = definition(prop.id()) else { return };
        let at = prop.at;
        if n == 2 && !def.list {
            self.warn(WarningKind::TooManyValues, at);
        }
        if n > 1 && !def.list {
            return;
        }
        let t = scan::trim(v);
        if t.is_empty() {
            if !matches!(def.ty, Ty::None | Ty::ElistPoint | Ty::Move | Ty::Text | Ty::Checked) {
                self.warn(WarningKind::EmptyValue, at);
            }
            return;
        }
        let ok = |k: bool, kind: WarningKind, me: &mut Self| {
            if !k {
                me.warn(kind, at);
            }
        };
        match def.ty {
            Ty::Number => ok(is_number(t), WarningKind::ExpectedNumber, self),
            Ty::Real => ok(is_real(t), WarningKind::ExpectedReal, self),
            Ty::Double => ok(t == b"1" || t == b"2", WarningKind::ExpectedDouble, self),
            Ty::None => ok(false, WarningKind::ExpectedEmpty, self),
            Ty::Compose | Ty::Label => ok(scan::compose_split(v, cs).is_some(), WarningKind::ExpectedCompose, self),
            Ty::Figure => ok(scan::compose_split(v, cs).is_some(), WarningKind::ExpectedCompose, self),
            Ty::Result => ok(is_result(t), WarningKind::BadResult, self),
            Ty::Date => ok(is_date(t), WarningKind::BadDate, self),
            Ty::Komi => ok(is_real(t), WarningKind::BadKomi, self),
            Ty::Handicap => ok(is_number(t) && t[0] != b'-', WarningKind::BadHandicap, self),
            Ty::Game => {
                if !scan::is_go(v) {
                    self.warn(WarningKind::NotGo, at);
                }
            }
            Ty::Version => {
                let ff = match t {
                    b"1" => 1,
                    b"2" => 2,
                    b"3" => 3,
                    b"4" => 4,
                    _ => {
                        self.warn(WarningKind::ExpectedNumber, at);
                        return;
                    }
                };
                if self.game.nodes == 1 {
                    self.game.ff = ff;
                }
            }
            Ty::SimpleText | Ty::Text | Ty::Move | Ty::ElistPoint | Ty::Checked => {}
        }
    }

    /// The node ends: the checks over its whole set of properties.
    fn end_node(&mut self, in_node: bool) {
        if !in_node {
            return;
        }
        let has = |id: &[u8]| self.node.iter().find(|p| p.id() == id).map(|p| p.at);
        let (b, w) = (has(b"B"), has(b"W"));
        let moved = b.or(w);
        let mut found = std::mem::take(&mut self.found);
        if let (Some(b), Some(w)) = (b, w) {
            found.push((WarningKind::TwoMoves, b.max(w)));
        }
        let first_move = self.node.iter().find(|p| matches!(p.id(), b"B" | b"W" | b"KO" | b"MN")).map(|p| p.at);
        let first_setup = self.node.iter().find(|p| matches!(p.id(), b"AB" | b"AW" | b"AE" | b"PL")).map(|p| p.at);
        if let (Some(m), Some(s)) = (first_move, first_setup) {
            found.push((WarningKind::MoveAndSetup, m.max(s)));
        }
        if moved.is_none() {
            for p in &self.node {
                if matches!(p.id(), b"KO" | b"BM" | b"DO" | b"IT" | b"TE") {
                    found.push((WarningKind::AnnotationWithoutMove, p.at));
                }
            }
        }
        // The root's properties against the FF version, known now.
        if self.game.nodes == 1 {
            let ff = self.game.ff.min(4);
            for p in &self.node {
                if definition(p.id()).is_some_and(|d| d.versions & (1 << ff) == 0) {
                    found.push((WarningKind::UnknownToVersion, p.at));
                }
            }
        }
        if self.game.info_here {
            self.game.info_seen = true;
        }
        found.sort_by_key(|f| f.1);
        for &(kind, at) in &found {
            self.warn(kind, at);
        }
        found.clear();
        self.found = found;
        self.node.clear();
    }
}

/// A property's identifier as the checks compare it.
fn prop(raw: &[u8], at: usize) -> Prop {
    let mut id = [0u8; 8];
    let mut len = 0;
    let digits = raw.iter().any(u8::is_ascii_digit);
    for &c in raw {
        if (digits || c.is_ascii_uppercase()) && len < 8 {
            id[len] = c;
            len += 1;
        }
    }
    Prop { id, len: len as u8, at }
}

/// The kinds of node a property belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Root,
    Info,
    Other,
}

/// A property's value type, with the game-information values that have a form of their own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    None,
    Number,
    Real,
    Double,
    SimpleText,
    Text,
    Move,
    /// Points or stones the reader checks (`AB`, `CR`, …; `DD`, `VW`, `TB`, `TW` may be empty).
    ElistPoint,
    /// Checked by the reader (`SZ`, `PL`, clocks).
    Checked,
    Compose,
    Label,
    /// `FG`: empty, or `number:text`.
    Figure,
    Result,
    Date,
    Komi,
    Handicap,
    Game,
    Version,
}

/// What the specification says of one property.
#[derive(Clone, Copy)]
struct Def {
    /// Bit `n` set: defined in `FF[n]`.
    versions: u8,
    class: Class,
    ty: Ty,
    /// A list (several values allowed).
    list: bool,
}

const FF1234: u8 = 0b11110;
const FF34: u8 = 0b11000;
const FF4: u8 = 0b10000;
const FF12: u8 = 0b00110;
const FF123: u8 = 0b01110;
const FF3: u8 = 0b01000;

/// The property table of FF\[1\]–FF\[4\] (the versions each property belongs to as SGFC 2.0
/// lists them).
fn definition(id: &[u8]) -> Option<Def> {
    use Class::*;
    use Ty::*;
    let d = |versions, class, ty, list| Some(Def { versions, class, ty, list });
    if id.is_empty() || id.len() > 2 {
        return Option::None;
    }
    // On the two bytes rather than the slice: a jump table, not a comparison per arm.
    match (id[0], id.get(1).copied()) {
        (b'B', Option::None) | (b'W', Option::None) => d(FF1234, Other, Move, false),
        (b'A', Some(b'B')) | (b'A', Some(b'W')) | (b'A', Some(b'E')) => d(FF1234, Other, ElistPoint, true),
        (b'N', Option::None) => d(FF1234, Other, SimpleText, false),
        (b'C', Option::None) => d(FF1234, Other, Text, false),
        (b'B', Some(b'L')) | (b'W', Some(b'L')) => d(FF1234, Other, Checked, false),
        (b'O', Some(b'B')) | (b'O', Some(b'W')) => d(FF34, Other, Checked, false),
        (b'F', Some(b'F')) => d(FF1234, Root, Version, false),
        (b'C', Some(b'A')) => d(FF4, Root, SimpleText, false),
        (b'G', Some(b'M')) => d(FF1234, Root, Game, false),
        (b'S', Some(b'Z')) => d(FF1234, Root, Checked, false),
        (b'S', Some(b'T')) => d(FF4, Root, Number, false),
        (b'A', Some(b'P')) => d(FF4, Root, Compose, false),
        (b'G', Some(b'N'))
        | (b'P', Some(b'B'))
        | (b'P', Some(b'W'))
        | (b'B', Some(b'R'))
        | (b'W', Some(b'R'))
        | (b'P', Some(b'C'))
        | (b'E', Some(b'V'))
        | (b'R', Some(b'O'))
        | (b'S', Some(b'O'))
        | (b'U', Some(b'S')) => d(FF1234, Info, SimpleText, false),
        (b'G', Some(b'C')) => d(FF1234, Info, Text, false),
        (b'D', Some(b'T')) => d(FF1234, Info, Date, false),
        (b'R', Some(b'E')) => d(FF1234, Info, Result, false),
        (b'K', Some(b'M')) => d(FF1234, Info, Komi, false),
        (b'H', Some(b'A')) => d(FF1234, Info, Handicap, false),
        (b'T', Some(b'M')) => d(FF1234, Info, Real, false),
        (b'K', Some(b'I')) => d(FF12, Info, Number, false),
        (b'B', Some(b'T'))
        | (b'W', Some(b'T'))
        | (b'R', Some(b'U'))
        | (b'A', Some(b'N'))
        | (b'O', Some(b'N'))
        | (b'C', Some(b'P')) => d(FF34, Info, SimpleText, false),
        (b'O', Some(b'T')) => d(FF4, Info, SimpleText, false),
        (b'L', Option::None) => d(FF12, Other, ElistPoint, true),
        (b'M', Option::None) => d(FF12, Other, ElistPoint, true),
        (b'L', Some(b'B')) => d(FF34, Other, Label, true),
        (b'A', Some(b'R')) | (b'L', Some(b'N')) => d(FF4, Other, Compose, true),
        (b'M', Some(b'A')) | (b'T', Some(b'R')) | (b'C', Some(b'R')) => d(FF34, Other, ElistPoint, true),
        (b'S', Some(b'Q')) | (b'D', Some(b'D')) => d(FF4, Other, ElistPoint, true),
        (b'T', Some(b'B')) | (b'T', Some(b'W')) | (b'S', Some(b'L')) | (b'V', Some(b'W')) => {
            d(FF1234, Other, ElistPoint, true)
        }
        (b'P', Some(b'L')) => d(FF1234, Other, Checked, false),
        (b'V', Option::None) => d(FF1234, Other, Real, false),
        (b'G', Some(b'B')) | (b'G', Some(b'W')) | (b'T', Some(b'E')) | (b'B', Some(b'M')) => {
            d(FF1234, Other, Double, false)
        }
        (b'U', Some(b'C')) | (b'D', Some(b'M')) | (b'H', Some(b'O')) => d(FF34, Other, Double, false),
        (b'D', Some(b'O')) | (b'I', Some(b'T')) | (b'K', Some(b'O')) => d(FF34, Other, None, false),
        (b'F', Some(b'G')) => d(FF1234, Other, Figure, false),
        (b'M', Some(b'N')) => d(FF34, Other, Number, false),
        (b'P', Some(b'M')) => d(FF4, Other, Number, false),
        // FF[1]–FF[3] properties that FF[4] dropped.
        (b'B', Some(b'S')) | (b'W', Some(b'S')) => d(FF123, Info, Number, false),
        (b'C', Some(b'H')) => d(FF123, Other, Checked, false),
        (b'R', Some(b'G')) | (b'S', Some(b'C')) => d(FF123, Other, ElistPoint, true),
        (b'S', Some(b'I')) => d(FF3, Other, Checked, false),
        (b'I', Some(b'D')) => d(FF3, Info, SimpleText, false),
        (b'T', Some(b'C')) | (b'O', Some(b'M')) => d(FF3, Other, Number, false),
        (b'O', Some(b'P')) | (b'O', Some(b'V')) => d(FF3, Other, Real, false),
        (b'L', Some(b'T')) => d(FF3, Other, None, false),
        (b'S', Some(b'E')) => d(FF3, Other, ElistPoint, true),
        (b'E', Some(b'L')) => d(FF12, Other, Number, false),
        (b'E', Some(b'X')) => d(FF12, Other, Move, false),
        _ => Option::None,
    }
}

/// `[+-]digits`.
fn is_number(t: &[u8]) -> bool {
    let d = t.strip_prefix(b"+").or_else(|| t.strip_prefix(b"-")).unwrap_or(t);
    !d.is_empty() && d.iter().all(u8::is_ascii_digit)
}

/// `[+-]digits[.digits]` (a missing integer part, `.5`, is allowed as SGFC allows it).
fn is_real(t: &[u8]) -> bool {
    let d = t.strip_prefix(b"+").or_else(|| t.strip_prefix(b"-")).unwrap_or(t);
    let (int, frac) = match d.iter().position(|&c| c == b'.') {
        Some(i) => (&d[..i], Some(&d[i + 1..])),
        None => (d, None),
    };
    int.iter().all(u8::is_ascii_digit)
        && frac.is_none_or(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
        && (!int.is_empty() || frac.is_some())
}

/// FF\[4\] results: `0`, `Draw`, `Void`, `?`, or `B+`/`W+` then nothing, a score, `R`/`Resign`,
/// `T`/`Time` or `F`/`Forfeit`.
fn is_result(t: &[u8]) -> bool {
    match t {
        b"0" | b"Draw" | b"Void" | b"?" => true,
        [b'B' | b'W', b'+', rest @ ..] => {
            matches!(rest, b"" | b"R" | b"Resign" | b"T" | b"Time" | b"F" | b"Forfeit") || is_real(rest)
        }
        _ => false,
    }
}

/// FF\[4\] dates: comma-separated `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, where a later item may leave
/// out what it shares with the one before (`MM-DD`, `DD`).
fn is_date(t: &[u8]) -> bool {
    let digits = |s: &[u8], n: usize| s.len() == n && s.iter().all(u8::is_ascii_digit);
    let month = |s: &[u8]| digits(s, 2) && (b"01".as_slice()..=b"12".as_slice()).contains(&s);
    let day = |s: &[u8]| digits(s, 2) && (b"01".as_slice()..=b"31".as_slice()).contains(&s);
    t.split(|&c| c == b',').enumerate().all(|(i, item)| {
        let parts: Vec<&[u8]> = item.split(|&c| c == b'-').collect();
        match parts.as_slice() {
            [y] if digits(y, 4) => true,
            [y, m] if digits(y, 4) => month(m),
            [y, m, dd] => digits(y, 4) && month(m) && day(dd),
            [m, dd] if i > 0 => month(m) && day(dd),
            [dd] if i > 0 => day(dd),
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<(&'static str, u64)> {
        let mut out = Vec::new();
        lint(input.as_bytes(), &mut out);
        out.iter().map(|w| (w.kind.as_str(), w.offset)).collect()
    }

    #[test]
    fn forms() {
        assert!(is_result(b"B+R") && is_result(b"W+3.5") && is_result(b"Draw") && is_result(b"B+"));
        assert!(!is_result(b"draw") && !is_result(b"B+J") && !is_result(b"Black wins"));
        assert!(is_date(b"2018-04-27") && is_date(b"1996-05-06,07,08") && is_date(b"1996-12-31,1997-01-02"));
        assert!(is_date(b"1996-05") && is_date(b"1996") && !is_date(b"1996-13-01"));
        assert!(!is_date(b"2018.04.27") && !is_date(b"2016-12-31 21:18:19") && !is_date(b"18-04-27"));
        assert!(is_real(b"6.5") && is_real(b"-0.5") && is_real(b"7") && !is_real(b"6,5") && !is_real(b"60:00"));
    }

    #[test]
    fn a_clean_game_has_no_finding() {
        assert_eq!(
            kinds(
                "(;FF[4]GM[1]SZ[19]CA[UTF-8]AP[kifu:1]PB[a]RE[B+R]DT[2020-01-02]KM[6.5];B[aa];W[bb](;B[cc])(;B[dd]))"
            ),
            []
        );
    }

    #[test]
    fn node_rules() {
        assert_eq!(kinds("(;FF[4];B[aa]AB[bb])"), [("move_and_setup", 13)]);
        assert_eq!(kinds("(;FF[4];C[x]C[y])"), [("duplicate_property", 12)]);
        assert_eq!(kinds("(;FF[4];TE[1])"), [("annotation_without_move", 8)]);
        assert_eq!(kinds("(;FF[4];SZ[9])"), [("root_property_outside_root", 8)]);
        assert_eq!(kinds("(;FF[4]PB[a];B[aa]PW[b])"), [("game_info_twice", 18)]);
        // Game info in two variations is two paths.
        assert_eq!(kinds("(;FF[4];B[aa](;PB[a])(;PB[b]))"), []);
    }

    #[test]
    fn values_and_versions() {
        assert_eq!(kinds("(;FF[4]GN[a][b])"), [("too_many_values", 7)]);
        assert_eq!(kinds("(;FF[4]AP[foxwq])"), [("expected_compose", 7)]);
        assert_eq!(kinds("(;FF[4]GN[])"), [("empty_value", 7)]);
        assert_eq!(kinds("(;FF[4]TT[x])"), [("unknown_property", 7)]);
        assert_eq!(kinds("(;FF[3]AP[a:b])"), [("unknown_to_version", 7)]);
        assert_eq!(kinds("(;AP[a:b]FF[4])"), []);
        assert_eq!(kinds("(;FF[4]GM[2])"), [("not_go", 7)]);
        assert_eq!(kinds("(;FF[4]GM[\\1])"), []);
        assert_eq!(kinds("(;FF[4]ST[x])"), [("expected_number", 7)]);
        assert_eq!(kinds("(;FF[4]TM[60:00])"), [("expected_real", 7)]);
        assert_eq!(kinds("(;FF[4];B[aa]BM[3])"), [("expected_double", 13)]);
        assert_eq!(kinds("(;FF[4];B[aa]KO[x])"), [("expected_empty", 13)]);
        assert_eq!(kinds("(;FF[4]RE[Black wins])"), [("bad_result", 7)]);
        assert_eq!(kinds("(;FF[4]DT[2018.04.27])"), [("bad_date", 7)]);
        assert_eq!(kinds("(;FF[4]KM[6,5])"), [("bad_komi", 7)]);
        assert_eq!(kinds("(;FF[4]HA[two])"), [("bad_handicap", 7)]);
        assert_eq!(kinds("(;FF[4];W[aa]B[bb])"), [("two_moves", 13)]);
        // FF[3] long identifiers are their upper-case letters; a second game starts afresh.
        assert_eq!(kinds("(;FF[3]PlayerBlack[a]PB[b])(;FF[4]PB[a])"), [("duplicate_property", 21)]);
    }

    #[test]
    fn hostile_input_ends() {
        // Deep nesting is a stack, not recursion; unterminated values end the scan.
        let deep = "(;FF[4]".to_string() + &"(;C[x]".repeat(100_000) + &")".repeat(100_000);
        assert_eq!(kinds(&deep), []);
        assert_eq!(kinds("(;FF[4]C[never"), []);
        assert_eq!(kinds("(;FF[4]PB[a]PB[b]"), [("duplicate_property", 12)]);
    }
}
