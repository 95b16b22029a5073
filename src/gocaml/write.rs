//! Writing a Go game as a Go game JSON snapshot (Gocaml's `players`, `board`, `config`).
//!
//! The writer takes a [`GameTree`], not events: a snapshot is the position at the end of the
//! main line, which is known only once the whole line is replayed, and its stones are grouped by
//! colour. It replays the main line (the first child at every branch; a loop, no recursion) on a
//! board it keeps between games: each stone gets the counter `cur_stones` (1 for the first
//! stone placed, one more for each stone after it; passes do not count), a move removes the
//! opponent's stones left without liberties (and then its own group, if it has none), and each
//! captured stone goes to the capturer's `prisoners` with the capturing move's counter. A pass
//! is written as Gocaml does, `{"col": -1, "row": -1, "cur_stones": n}` in the opponent's
//! prisoners, `n` the counter of the last stone placed before it. A `prisoners` property (what
//! the reader gives for a snapshot's captured stones) goes back to the prisoners of the player
//! who moved in its node, with that move's counter. Flood fills use an explicit stack. Nothing
//! is allocated once the board and stack have grown to the largest board, except where
//! [`escape::pieces`] must decode a text.
//!
//! The rest of the snapshot: `players.p1` (Black) and `p2` (White) with `id` (the names),
//! `game_time` (the last time left of that player on the main line, in seconds) and `byoyomi`
//! (the last periods left); `board.size`; `config.komi`, `config.byoyomi_period` (an info of that
//! name) and `config.turn` (`"b"` or `"w"`: the last turn given on the main line, else the player
//! after the last move); the game node's other properties as top-level keys.
//!
//! ```
//! use bumpalo::Bump;
//!
//! let mut sgf = kifu::sgf::Reader::new(b"(;SZ[9]PB[A]PW[B];B[ba];W[aa];B[ab])");
//! let bump = Bump::new();
//! let tree = kifu::tree::build(&bump, &mut sgf).unwrap().unwrap();
//! let mut out = Vec::new();
//! kifu::gocaml::write::write(&tree, &mut out).unwrap();
//! let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
//! assert_eq!(json["board"]["black"].as_array().unwrap().len(), 2);
//! assert_eq!(json["board"]["white"].as_array().unwrap().len(), 0); // captured by B[ab]
//! assert_eq!(json["players"]["p1"]["prisoners"][0], serde_json::json!({"col": 0, "row": 0, "cur_stones": 3}));
//! assert_eq!(json["config"]["turn"], "w");
//! ```
//!
//! ## What a snapshot cannot hold
//! [`Writer::off_main`] counts the events of variations left out, [`Writer::unwritten`] those of
//! the main line (the rows below but the first, third and fourth: moves and setup stones are
//! what the stones and counters come to).
//!
//! | event | |
//! |---|---|
//! | a shogi game | refused ([`Refused`]) |
//! | variations (every node off the main line) | dropped |
//! | the order of the moves | only the order of the stones left on the board (their counters) and of the passes |
//! | captured stones' moves | only the captured stones and the capturing move's counter, as `prisoners` |
//! | setup stones | placed on the board like moves, so read back as moves |
//! | comments, names, marks, evaluations, properties of nodes other than the game node | dropped |
//! | game information other than names, board size, komi and `byoyomi_period` | dropped |
//! | clocks | the last time left and periods left of each player |
//! | a board that is not square | written with its larger side |

use crate::event::{ClockKind, Color, Event, InfoKey, Move, Point, Setup};
use crate::text::{escape, Text, TextRule};
use crate::tree::{GameTree, NodeId};

/// A game a snapshot cannot hold: a shogi game (nothing is written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a shogi game cannot be written as Go game JSON (it holds Go positions)")
    }
}

impl std::error::Error for Refused {}

/// Writes the snapshot of `tree` (one JSON object and a newline) with a fresh [`Writer`].
pub fn write(tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
    Writer::new().write(tree, out)
}

/// A snapshot writer that keeps its board, stacks and prisoner lists between games.
#[derive(Debug, Default)]
pub struct Writer {
    /// Per point: 0 empty, 1 black, 2 white.
    color: Vec<u8>,
    /// Per point: the stone's counter.
    counter: Vec<u64>,
    /// Per point: the flood fill that last visited it.
    mark: Vec<u32>,
    generation: u32,
    stack: Vec<u32>,
    group: Vec<u32>,
    /// The prisoners of Black and White: (col, row, counter); a pass is (-1, -1, counter).
    prisoners: [Vec<(i64, i64, u64)>; 2],
    /// Per node of the game being counted: whether it is on the main line.
    on_main: Vec<bool>,
    /// Events of variations left out so far (see [`Writer::off_main`]).
    off_main: u64,
    /// Events of the main line left out so far (see [`Writer::unwritten`]).
    unwritten: u64,
}

fn is_shogi(tree: &GameTree<'_>) -> bool {
    tree.nodes()
        .any(|n| tree.events(n).any(|e| matches!(e, Event::Move(Move::Shogi(_)) | Event::Setup(Setup::Shogi { .. }))))
}

fn side_of(color: Color) -> usize {
    (color == Color::White) as usize
}

fn stone_of(color: Color) -> u8 {
    1 + side_of(color) as u8
}

/// Appends a decimal number.
fn number(v: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(v, out)
}

fn signed(v: i64, out: &mut Vec<u8>) {
    if v < 0 {
        out.push(b'-');
    }
    number(v.unsigned_abs(), out);
}

/// Seconds from milliseconds (`12`, `12.5`), readable back exactly by a reader that rounds
/// down to the millisecond.
fn seconds(ms: u64, out: &mut Vec<u8>) {
    let start = out.len();
    number(ms / 1000, out);
    let frac = ms % 1000;
    if frac != 0 {
        out.push(b'.');
        out.extend_from_slice(&[b'0' + (frac / 100) as u8, b'0' + (frac / 10 % 10) as u8, b'0' + (frac % 10) as u8]);
        let f: Option<f64> = std::str::from_utf8(&out[start..]).ok().and_then(|s| s.parse().ok());
        if f.is_some_and(|f| (f * 1000.0) as u64 != ms) {
            out.push(b'5');
        }
    }
}

/// A JSON string of a text.
fn string(t: &Text<'_>, out: &mut Vec<u8>) {
    out.push(b'"');
    escape::pieces(t, |p| escape::json_string(p, out));
    out.push(b'"');
}

/// A value kept as a number when it is one, else a string.
fn value(t: &Text<'_>, out: &mut Vec<u8>) {
    let raw = t.raw();
    if matches!(t.rule(), TextRule::Plain | TextRule::JsonString | TextRule::SgfSimpleText | TextRule::SgfText)
        && escape::is_json_number(raw)
    {
        out.extend_from_slice(raw);
    } else {
        string(t, out);
    }
}

/// The integer after the key `name` in a small JSON object's raw text (`"col": 3`), if any.
fn int_field(raw: &[u8], name: &[u8]) -> Option<i64> {
    let mut i = 0;
    while let Some(p) = raw.get(i..).and_then(|r| r.windows(name.len()).position(|w| w == name)) {
        let at = i + p;
        i = at + name.len();
        let before = at.checked_sub(1).map(|b| raw[b]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        let mut j = i;
        if raw.get(j).is_some_and(|&b| b == b'"' || b == b'\'') {
            j += 1;
        }
        while raw.get(j).is_some_and(u8::is_ascii_whitespace) {
            j += 1;
        }
        if raw.get(j) != Some(&b':') {
            continue;
        }
        j += 1;
        while raw.get(j).is_some_and(u8::is_ascii_whitespace) {
            j += 1;
        }
        let neg = raw.get(j) == Some(&b'-');
        j += usize::from(neg);
        let s = j;
        while raw.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == s || j - s > 12 {
            return None;
        }
        let v = raw[s..j].iter().fold(0i64, |a, d| a * 10 + i64::from(d - b'0'));
        return Some(if neg { -v } else { v });
    }
    None
}

impl Writer {
    /// A writer with an empty board.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Events left out so far because they were off the main line: every event of every
    /// variation of the games written (a snapshot is the end of the main line).
    pub fn off_main(&self) -> u64 {
        self.off_main
    }

    /// Events of the main line left out so far because a snapshot has no place for them: the
    /// module's table of losses (comments, node names, markup, evaluations, properties of nodes
    /// other than the game node but `prisoners`, game information other than the names, board
    /// size, komi and `byoyomi_period` (and a second value of one of those), clocks other than
    /// each player's last time left and last periods left). Moves, setup stones and turns are
    /// not counted: the snapshot's stones, counters and turn are what they come to.
    ///
    /// ```
    /// use bumpalo::Bump;
    /// let mut sgf = kifu::sgf::Reader::new(b"(;SZ[9]PB[A]EV[Cup];B[ba]C[good](;W[aa])(;W[ab]))");
    /// let bump = Bump::new();
    /// let tree = kifu::tree::build(&bump, &mut sgf).unwrap().unwrap();
    /// let mut w = kifu::gocaml::write::Writer::new();
    /// w.write(&tree, &mut Vec::new()).unwrap();
    /// assert_eq!((w.unwritten(), w.off_main()), (2, 1)); // EV and C; the second W move
    /// ```
    pub fn unwritten(&self) -> u64 {
        self.unwritten
    }

    /// Adds what the snapshot of `tree` leaves out to [`Writer::off_main`] and
    /// [`Writer::unwritten`].
    fn count_losses(&mut self, tree: &GameTree<'_>) {
        self.on_main.clear();
        self.on_main.resize(tree.len(), false);
        for n in tree.main_line() {
            if let Some(m) = self.on_main.get_mut(n.0 as usize) {
                *m = true;
            }
        }
        // Infos are looked for in the game node, then node 1 (an SGF root node), and the first
        // of each key is kept; of each player's clocks of a kind, the last on the main line.
        let mut kept_info = [false; 5];
        let mut clocks = [[0u64; 2]; 2];
        for n in tree.nodes() {
            let main = self.on_main.get(n.0 as usize).copied().unwrap_or(false);
            for e in tree.events(n) {
                if !main {
                    self.off_main += 1;
                    continue;
                }
                let lost = match e {
                    Event::Move(_) | Event::Setup(_) | Event::Turn(_) => false,
                    Event::Clock(c) => match (c.kind, c.color) {
                        (ClockKind::TimeLeftMs, Some(col)) => {
                            clocks[0][side_of(col)] += 1;
                            false
                        }
                        (ClockKind::PeriodsLeft, Some(col)) => {
                            clocks[1][side_of(col)] += 1;
                            false
                        }
                        _ => true,
                    },
                    Event::Info(i) => {
                        let slot = match i.key() {
                            InfoKey::BlackName => Some(0),
                            InfoKey::WhiteName => Some(1),
                            InfoKey::BoardSize => Some(2),
                            InfoKey::Komi => Some(3),
                            InfoKey::Other if i.name() == b"byoyomi_period" => Some(4),
                            _ => None,
                        };
                        match slot {
                            Some(k) if n.0 <= 1 && !kept_info[k] => {
                                kept_info[k] = true;
                                false
                            }
                            _ => true,
                        }
                    }
                    // The game node's become top-level keys (but one with no name); a node's
                    // `prisoners` go back to the prisoner lists.
                    Event::Property(p) if n == NodeId::GAME => p.name().is_empty(),
                    Event::Property(p) => p.name() != b"prisoners",
                    _ => true,
                };
                self.unwritten += u64::from(lost);
            }
        }
        // Each player's clocks of a kind but the last.
        self.unwritten += clocks.iter().flatten().map(|&k| k.saturating_sub(1)).sum::<u64>();
    }

    /// Appends the snapshot of `tree`'s main line; see the [module docs](self). A shogi game is
    /// refused and nothing is written. What the snapshot leaves out is counted in
    /// [`Writer::off_main`] and [`Writer::unwritten`].
    pub fn write(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
        if is_shogi(tree) {
            return Err(Refused);
        }
        self.count_losses(tree);
        let infos = || {
            tree.events(NodeId::GAME).chain(tree.events(NodeId(1))).filter_map(|e| match e {
                Event::Info(i) => Some(i),
                _ => None,
            })
        };
        let size_info = infos().find(|i| i.key() == InfoKey::BoardSize);
        let size = size_info.map_or(19, |i| {
            let raw = i.value().raw();
            let mut best = 0u64;
            for part in raw.split(|&b| b == b':') {
                let p = part.trim_ascii();
                if !p.is_empty() && p.len() <= 2 && p.iter().all(u8::is_ascii_digit) {
                    best = best.max(p.iter().fold(0, |a, d| a * 10 + u64::from(d - b'0')));
                }
            }
            if (1..=52).contains(&best) {
                best as u8
            } else {
                19
            }
        });
        self.replay(tree, size);

        // The state at the end of the main line.
        let (mut turn, mut last_mover) = (None, None);
        let mut time = [None; 2];
        let mut periods = [None; 2];
        for n in tree.main_line() {
            for e in tree.events(n) {
                match e {
                    Event::Turn(c) => turn = Some(c),
                    Event::Move(Move::Go { color, .. }) => last_mover = Some(color),
                    Event::Clock(c) => {
                        let Some(col) = c.color else { continue };
                        match c.kind {
                            ClockKind::TimeLeftMs => time[side_of(col)] = Some(c.value),
                            ClockKind::PeriodsLeft => periods[side_of(col)] = Some(c.value),
                            ClockKind::ElapsedMs => {}
                        }
                    }
                    _ => {}
                }
            }
        }
        let turn = turn.or(last_mover.map(Color::opponent)).unwrap_or(Color::Black);

        out.extend_from_slice(b"{\"players\":{");
        for (i, color) in [(0, Color::Black), (1, Color::White)] {
            out.extend_from_slice(if i == 0 { b"\"p1\":{" } else { b",\"p2\":{" });
            let key = if color == Color::Black { InfoKey::BlackName } else { InfoKey::WhiteName };
            out.extend_from_slice(b"\"id\":");
            match infos().find(|x| x.key() == key) {
                Some(name) => string(&name.value(), out),
                None => out.extend_from_slice(b"\"\""),
            }
            if let Some(ms) = time[i] {
                out.extend_from_slice(b",\"game_time\":");
                seconds(ms, out);
            }
            if let Some(p) = periods[i] {
                out.extend_from_slice(b",\"byoyomi\":");
                number(p, out);
            }
            out.extend_from_slice(b",\"prisoners\":[");
            for (k, &(col, row, counter)) in self.prisoners[i].iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"col\":");
                signed(col, out);
                out.extend_from_slice(b",\"row\":");
                signed(row, out);
                out.extend_from_slice(b",\"cur_stones\":");
                number(counter, out);
                out.push(b'}');
            }
            out.extend_from_slice(b"]}");
        }
        out.extend_from_slice(b"},\"board\":{\"size\":");
        number(u64::from(size), out);
        for (name, stone) in [(",\"white\":[", 2u8), (",\"black\":[", 1u8)] {
            out.extend_from_slice(name.as_bytes());
            let mut first = true;
            for (i, &c) in self.color.iter().enumerate() {
                if c != stone {
                    continue;
                }
                if !first {
                    out.push(b',');
                }
                first = false;
                let (x, y) = (i % size as usize, i / size as usize);
                out.extend_from_slice(b"{\"col\":");
                number(x as u64, out);
                out.extend_from_slice(b",\"row\":");
                number(y as u64, out);
                out.extend_from_slice(b",\"cur_stones\":");
                number(self.counter[i], out);
                out.push(b'}');
            }
            out.push(b']');
        }
        out.extend_from_slice(b"},\"config\":{");
        if let Some(k) = infos().find(|i| i.key() == InfoKey::Komi) {
            out.extend_from_slice(b"\"komi\":");
            value(&k.value(), out);
            out.push(b',');
        }
        if let Some(b) = infos().find(|i| i.key() == InfoKey::Other && i.name() == b"byoyomi_period") {
            out.extend_from_slice(b"\"byoyomi_period\":");
            value(&b.value(), out);
            out.push(b',');
        }
        out.extend_from_slice(if turn == Color::Black { b"\"turn\":\"b\"}" } else { b"\"turn\":\"w\"}" });
        // The game node's properties (a snapshot's unknown keys).
        for e in tree.events(NodeId::GAME) {
            if let Event::Property(p) = e {
                if matches!(p.name(), b"players" | b"board" | b"config" | b"prisoners") || p.name().is_empty() {
                    continue;
                }
                out.push(b',');
                string(&Text::new(p.name(), TextRule::Plain, crate::text::Charset::Utf8), out);
                out.push(b':');
                string(&p.value(), out);
            }
        }
        out.extend_from_slice(b"}\n");
        Ok(())
    }

    /// Replays the main line onto the board and the prisoner lists.
    fn replay(&mut self, tree: &GameTree<'_>, size: u8) {
        let cells = usize::from(size) * usize::from(size);
        self.color.clear();
        self.color.resize(cells, 0);
        self.counter.clear();
        self.counter.resize(cells, 0);
        self.mark.clear();
        self.mark.resize(cells, 0);
        self.generation = 0;
        for p in &mut self.prisoners {
            p.clear();
        }
        let index =
            |p: Point| (p.x < size && p.y < size).then(|| usize::from(p.y) * usize::from(size) + usize::from(p.x));
        let mut counter = 0u64;
        for n in tree.main_line() {
            let mut mover = None;
            let mut mover_counter = counter;
            for e in tree.events(n) {
                match e {
                    Event::Setup(Setup::Go { color, point }) => {
                        let Some(i) = index(point) else { continue };
                        match color {
                            Some(c) => {
                                counter += 1;
                                self.color[i] = stone_of(c);
                                self.counter[i] = counter;
                            }
                            None => self.color[i] = 0,
                        }
                    }
                    Event::Move(Move::Go { color, point: None }) => {
                        mover.get_or_insert(color);
                        self.prisoners[side_of(color.opponent())].push((-1, -1, counter));
                    }
                    Event::Move(Move::Go { color, point: Some(p) }) => {
                        let Some(i) = index(p) else { continue };
                        counter += 1;
                        mover = Some(color);
                        mover_counter = counter;
                        self.color[i] = stone_of(color);
                        self.counter[i] = counter;
                        let (x, y) = (i % usize::from(size), i / usize::from(size));
                        let s = usize::from(size);
                        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                            if nx < 0 || ny < 0 || nx >= s as i64 || ny >= s as i64 {
                                continue;
                            }
                            let j = ny as usize * s + nx as usize;
                            if self.color[j] == stone_of(color.opponent()) {
                                self.capture_if_dead(j, s, color, counter);
                            }
                        }
                        self.capture_if_dead(i, s, color.opponent(), counter);
                    }
                    Event::Property(pr) if pr.name() == b"prisoners" => {
                        let Some(c) = mover else { continue };
                        let raw = pr.value().raw();
                        if let (Some(col), Some(row)) = (int_field(raw, b"col"), int_field(raw, b"row")) {
                            self.prisoners[side_of(c)].push((col, row, mover_counter));
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Removes the group at `start` when it has no liberty; its stones become prisoners of
    /// `capturer` with `counter`.
    fn capture_if_dead(&mut self, start: usize, size: usize, capturer: Color, counter: u64) {
        let own = self.color[start];
        if own == 0 {
            return;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        let g = self.generation;
        self.stack.clear();
        self.group.clear();
        self.stack.push(start as u32);
        self.mark[start] = g;
        while let Some(i) = self.stack.pop() {
            let i = i as usize;
            self.group.push(i as u32);
            let (x, y) = (i % size, i / size);
            let mut next = [usize::MAX; 4];
            if x > 0 {
                next[0] = i - 1;
            }
            if x + 1 < size {
                next[1] = i + 1;
            }
            if y > 0 {
                next[2] = i - size;
            }
            if y + 1 < size {
                next[3] = i + size;
            }
            for j in next {
                if j == usize::MAX {
                    continue;
                }
                match self.color[j] {
                    0 => return, // a liberty: the group lives
                    c if c == own && self.mark[j] != g => {
                        self.mark[j] = g;
                        self.stack.push(j as u32);
                    }
                    _ => {}
                }
            }
        }
        for k in 0..self.group.len() {
            let i = self.group[k] as usize;
            self.color[i] = 0;
            self.prisoners[side_of(capturer)].push(((i % size) as i64, (i / size) as i64, counter));
        }
    }
}
