//! One row per game from the event stream: players, date, result, komi, counts, opening and
//! main-line hash, without building a tree.
//!
//! Cost: per game, one string holding the decoded text of each info value kept (first
//! occurrence of each key) and the opening ([`Texts`]), and the final position, replayed when
//! the game ends from a reused list of its main line's moves (see `position`); a reused buffer
//! for the canonical main line (hashed with xxh3-64 when the game ends; only the opening, its
//! first [`OPENING_MOVES`] moves, is kept).
//!
//! Per move (most of the events), a few counters and six bytes of the canonical line: until a
//! game's first variation every node is on its main line, so the main-line tracker is not fed
//! (it is brought up to date at the first variation), and a Go move's node is written in one
//! copy. On sgf/collections this took the Arrow export from 4.1 to 2.4 times the instructions
//! of `kifu stats` (one thread).
//!
//! With variations (`kifu index --variations`), a game's every board-changing event is recorded
//! with the tree's shape, with no linear state, and replayed when the game ends (`variations`);
//! without, nothing of that runs (its flag is tested only off the main line and in games that
//! have variations, not per move or node of a linear game).

use super::mainline::{push_move, MainLine};
use super::normalize;
use super::position::{Final, Mark, Moves, Posting};
use super::texts::{Field, Texts};
use kifu::{Ending, Event, EventSource, Format, InfoKey, Move};

/// How many main-line moves the `opening` column holds.
pub const OPENING_MOVES: usize = 20;

/// Go or shogi: the library's [`kifu::GameKind`].
pub use kifu::GameKind as Kind;

/// Everything the `games` table holds about one game (see `schema.rs` for the columns).
#[derive(Clone, Debug, Default)]
pub struct GameRow {
    /// Byte offset of the game's start in its file (decompressed, UTF-16 transcoded).
    pub offset: u64,
    /// `None` when the game ended in an error rather than its `GameEnd`.
    pub length: Option<u64>,
    /// Go or shogi, when the game says or its moves tell.
    pub kind: Option<Kind>,
    /// The text values as written (decoded, trimmed; the first occurrence of each key), and the
    /// opening: see [`GameRow::text`].
    pub texts: Texts,
    /// How a CSA game ended (`%TORYO`…), with the side that made the last move.
    pub ending: Option<(Ending, Option<kifu::Color>)>,
    /// Main-line moves.
    pub moves: u64,
    /// Every move, variations included.
    pub moves_total: u64,
    /// Nodes (positions) in the whole tree.
    pub nodes: u64,
    /// Variations (branches off a main line).
    pub variations: u64,
    /// Comments.
    pub comments: u64,
    /// Warnings the reader gave.
    pub warnings: u64,
    /// Errors the reader gave (at most one: an error ends a game).
    pub errors: u64,
    /// xxh3-64 of the canonical main-line string.
    pub main_hash: u64,
    /// Stones captured by Black and White (Go), and a hash of the final position (the Go
    /// board's Zobrist hash, or for shogi xxh3-64 of the final SFEN): the main line's setup and
    /// moves replayed on the boards of `kifu::position` by the collector as the game ended.
    pub final_pos: Final,
    /// The whole canonical main line, kept only when asked for (`kifu show`).
    pub main_line: Option<String>,
    /// Every position of the main line (see `position::Moves::visit`), when the collector was
    /// asked for them.
    pub(crate) positions: Vec<Posting>,
    /// The normalised values, computed on the reading thread when the game ends (so that the
    /// writer thread only writes).
    pub norm: Normalised,
    // -- pattern search (`pattern`) --
    /// Go, with positions: the main line as board changes (`games.pattern`, see `pattern`).
    pub(crate) pattern: Option<Vec<u8>>,
    /// The main-line hash up to the board's symmetries (`games.sym_hash`): Go with positions,
    /// else the main-line hash.
    pub(crate) sym_hash: u64,
}

/// A game's normalised date, result, komi, handicap and time control.
#[derive(Clone, Debug, Default)]
pub struct Normalised {
    /// See [`GameRow::date`].
    pub date: Option<String>,
    /// See [`GameRow::outcome`].
    pub outcome: normalize::Outcome,
    /// See [`GameRow::komi`].
    pub komi: Option<f64>,
    /// See [`GameRow::handicap`].
    pub handicap: Option<i64>,
    /// See [`GameRow::time_control`].
    pub time_control: Option<String>,
}

impl GameRow {
    /// A text value: board size (`19`, `19:13`; 19 for Go and 9 for shogi when the game does not
    /// say), players, date, event, result, komi… as written, or the opening: the first
    /// [`OPENING_MOVES`] main-line moves, canonical, `;`-separated (`B[pd];W[dp]`).
    pub fn text(&self, f: Field) -> Option<&str> {
        self.texts.get(f)
    }

    /// Normalised date (see [`normalize::date`]).
    pub fn date(&self) -> Option<String> {
        self.text(Field::Date).and_then(normalize::date)
    }

    /// Parsed result: from the result text, else from a CSA ending.
    pub fn outcome(&self) -> normalize::Outcome {
        let o = self.text(Field::Result).map(normalize::result).unwrap_or_default();
        if o.winner.is_some() {
            return o;
        }
        match self.ending {
            Some((e, last)) => ending_outcome(e, last),
            None => o,
        }
    }

    /// Normalised komi (see [`normalize::komi`]).
    pub fn komi(&self) -> Option<f64> {
        self.text(Field::Komi).and_then(normalize::komi)
    }

    /// Handicap stones as a number.
    pub fn handicap(&self) -> Option<i64> {
        self.text(Field::Handicap).and_then(|h| h.trim().parse().ok())
    }

    /// `TM` and `OT` together: `3600 + 5x30 byo-yomi`, or whichever is present.
    pub fn time_control(&self) -> Option<String> {
        match (self.text(Field::TimeLimit), self.text(Field::Overtime)) {
            // `format!` made this a tenth of a game row's cost.
            (Some(t), Some(o)) => {
                let mut s = String::with_capacity(t.len() + 3 + o.len());
                s.push_str(t);
                s.push_str(" + ");
                s.push_str(o);
                Some(s)
            }
            (Some(t), None) => Some(t.to_owned()),
            (None, Some(o)) => Some(o.to_owned()),
            (None, None) => None,
        }
    }
}

/// The winner of a CSA game from its `%` ending, given who made the last move (the side to move
/// is the other one): the side to move loses by `%TORYO`/`%TIME_UP` and wins by `%KACHI`;
/// `%OUTE_SENNICHITE` loses for the checking side (the last mover); `%SENNICHITE`, `%HIKIWAKE`
/// are draws; `%±ILLEGAL_ACTION` loses for the named side; `%TSUMI` wins for the last mover
/// (reason `checkmate`) and `%ILLEGAL_MOVE` loses for it.
pub fn ending_outcome(e: Ending, last: Option<kifu::Color>) -> normalize::Outcome {
    use kifu::Color::*;
    let side = |c: kifu::Color| if c == Black { "B" } else { "W" };
    let (winner, reason) = match e {
        Ending::Resign => (last.map(side), Some("resign")),
        Ending::TimeUp => (last.map(side), Some("time")),
        Ending::DeclareWin => (last.map(|c| side(c.opponent())), None),
        Ending::PerpetualCheck => (last.map(|c| side(c.opponent())), None),
        Ending::Repetition | Ending::Draw => (Some("draw"), None),
        Ending::IllegalActionBlack => (Some("W"), Some("forfeit")),
        Ending::IllegalActionWhite => (Some("B"), Some("forfeit")),
        // `%TSUMI`: the last move mated; `%ILLEGAL_MOVE`: the last move was illegal.
        Ending::Checkmate => (last.map(side), Some("checkmate")),
        Ending::IllegalMove => (last.map(|c| side(c.opponent())), Some("forfeit")),
        _ => (None, None),
    };
    normalize::Outcome { winner, margin: None, reason }
}

/// What one file gave.
#[derive(Debug, Default)]
pub struct FileScan {
    pub format: Option<Format>,
    /// The charset of the first text value (the file's declared or detected charset).
    pub charset: Option<&'static str>,
    pub games: Vec<GameRow>,
    pub warnings: u64,
    pub errors: u64,
    /// The first error's message, with its line and column.
    pub first_error: Option<String>,
}

/// Builds [`GameRow`]s from events.
#[derive(Default)]
pub struct Collector {
    row: Option<GameRow>,
    line: MainLine,
    /// No variation started or ended since the game's `GameStart`: every node is on the main
    /// line, and [`Collector::line`] has not been fed its nodes (it is brought up to date at the
    /// first variation: see [`Collector::leave_linear`]).
    linear: bool,
    /// The canonical main line so far (ASCII).
    buf: Vec<u8>,
    /// Nodes of the canonical line not written as `;B[xy]` with letters `a`–`z` or as a pass
    /// `;B[]` (large boards, shogi moves): with none, the Arrow builder reads the line without
    /// checks.
    odd_nodes: u64,
    /// Passes (`;B[]`, `;W[]`) on the canonical line: with none (and no odd node), the Arrow
    /// builder reads it six bytes a node.
    passes: u64,
    /// The game's lines of play (its variations are one fewer).
    leaves: kifu::tree::LeafCounter,
    /// Record the main line's moves for the replay (`!skip_final || with_positions`, as they
    /// were when the game started).
    record: bool,
    // Counters of the hot events, kept here rather than in the row (no `Option` to look through).
    nodes: u64,
    moves: u64,
    moves_total: u64,
    move_kind: Option<Kind>,
    /// The main line's board-changing events, recorded for the final position.
    pub(crate) main_moves: Moves,
    /// Keep the whole main line in [`GameRow::main_line`].
    pub keep_main_line: bool,
    /// Fill [`GameRow::positions`].
    pub with_positions: bool,
    /// With [`Collector::with_positions`]: the positions of every node of every variation too
    /// (see `variations`).
    pub with_variations: bool,
    /// This game records its whole tree (`with_variations` and `with_positions` as the game
    /// started): every board-changing event and the tree's marks go to `main_moves`, and the
    /// tracker is fed every node (no linear state).
    tree: bool,
    /// The main line's steps, copied out of the tree's (`variations::replay`).
    tree_main: Moves,
    /// The tree replay's buffers.
    tree_scratch: crate::variations::Scratch,
    // -- pattern search --
    /// Records the pattern column of a Go game (see `pattern`).
    pattern: crate::pattern::Recorder,
    /// Setup or a board size came after the main line's first move.
    late_setup: bool,
    /// Leave [`GameRow::final_pos`] empty: no replay when the game ends (the Arrow games table
    /// without `replay`; ignored with [`Collector::with_positions`]).
    pub skip_final: bool,
}

impl Collector {
    /// Whether the last event fed is on the main line (a move is when its node is): the Arrow
    /// builder follows the main line with this rather than a tracker of its own.
    #[cfg(feature = "arrow")]
    #[inline]
    pub fn on_main(&self) -> bool {
        self.row.is_some() && self.line_on_main()
    }

    /// The canonical main line (`(;B[pd];W[dp])`, see `mainline`) of the game finished last,
    /// until the next `GameStart`: the Arrow builder reads its Go move codes from it rather than
    /// keeping a list of its own move by move.
    #[cfg(feature = "arrow")]
    #[inline]
    pub fn main_line_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Whether every node of [`Collector::main_line_bytes`] is a six-byte `;B[xy]` or `;W[xy]`
    /// with `x`, `y` letters `a`–`z`, or a pass `;B[]`, `;W[]` (no point past 26, no shogi
    /// move), and how many passes it holds.
    #[cfg(feature = "arrow")]
    #[inline]
    pub fn main_line_plain(&self) -> (bool, u64) {
        (self.odd_nodes == 0, self.passes)
    }

    /// Whether an event arriving now is on the main line (the tracker's answer).
    #[inline(always)]
    fn line_on_main(&self) -> bool {
        self.linear || self.line.on_main()
    }

    /// Feeds the main-line tracker `ev`. While the game has had no variation (`linear`), nodes
    /// and the events within them leave the tracker's state as it is (every node is on the
    /// main line, at its tip), so they are not fed: the first `VariationStart` or
    /// `VariationEnd` feeds it the game's nodes so far, then the event. `GameEnd` ends the
    /// linear state (the tracker is off the line after it).
    #[inline(always)]
    fn track(&mut self, ev: &Event<'_>) {
        if !self.linear {
            self.line.feed(ev);
            if self.tree {
                self.record_tree(ev);
            }
            return;
        }
        match ev {
            Event::VariationStart(_) | Event::VariationEnd => {
                self.leave_linear();
                self.line.feed(ev);
            }
            Event::GameEnd { .. } => {
                self.linear = false;
                self.line.feed(ev);
            }
            _ => {}
        }
    }

    /// Brings the tracker up to date with the game's nodes so far (all on the main line).
    #[cold]
    fn leave_linear(&mut self) {
        self.linear = false;
        for _ in 0..self.nodes {
            self.line.feed(&Event::Node);
        }
    }

    /// Feeds one event; returns a finished row at `GameEnd`. Nodes and moves (most events) take
    /// an inlined fast path (a move does not change the main-line state; a node moves it on).
    #[inline(always)]
    pub fn feed(&mut self, ev: &Event<'_>, charset: &mut Option<&'static str>) -> Option<GameRow> {
        match ev {
            Event::Node => {
                self.feed_node();
                None
            }
            Event::Move(m) => {
                self.on_move(m);
                None
            }
            _ => self.feed_other(ev, charset),
        }
    }

    /// [`Collector::feed`] of an `Event::Node`, for a loop that matched it already.
    #[inline(always)]
    pub fn feed_node(&mut self) {
        self.nodes += 1;
        self.leaves.node();
        if !self.linear {
            self.line.feed(&Event::Node);
            if self.tree {
                self.main_moves.push_mark(Mark::Node { main: self.line.on_main() });
            }
        }
    }

    /// [`Collector::feed`] of an `Event::Move`, for a loop that matched it already; says
    /// whether the move is on the main line of an open game (as [`Collector::on_main`] would).
    #[cfg(feature = "arrow")]
    #[inline(always)]
    pub fn feed_move(&mut self, m: &Move) -> bool {
        self.on_move(m) && self.row.is_some()
    }

    /// Counts a move and, on the main line, records it; says whether it was on the main line.
    #[inline(always)]
    fn on_move(&mut self, m: &Move) -> bool {
        self.moves_total += 1;
        if self.move_kind.is_none() {
            self.move_kind = Some(if matches!(m, Move::Shogi(_)) { Kind::Shogi } else { Kind::Go });
        }
        if !self.line_on_main() {
            if self.tree {
                self.main_moves.push_move(*m);
            }
            return false;
        }
        self.moves += 1;
        // Recorded for the replay only (none without it: see `skip_final`).
        if self.record {
            self.main_moves.push_move(*m);
        }
        match push_canonical(&mut self.buf, m) {
            Node::Plain => {}
            Node::Pass => self.passes += 1,
            Node::Odd => self.odd_nodes += 1,
        }
        true
    }

    fn feed_other(&mut self, ev: &Event<'_>, charset: &mut Option<&'static str>) -> Option<GameRow> {
        if let Event::GameStart { offset } = *ev {
            let unfinished = self.finish(None);
            self.row = Some(GameRow { offset, ..GameRow::default() });
            self.line.reset();
            self.line.feed(ev);
            self.tree = self.with_variations && self.with_positions;
            self.linear = !self.tree;
            self.buf.clear();
            self.buf.push(b'(');
            self.odd_nodes = 0;
            self.passes = 0;
            self.leaves.reset();
            self.record = !self.skip_final || self.with_positions;
            self.nodes = 0;
            self.moves = 0;
            self.moves_total = 0;
            self.move_kind = None;
            self.main_moves.clear();
            self.late_setup = false;
            return unfinished;
        }
        self.row.as_ref()?;
        self.track(ev);
        if self.line_on_main()
            && (matches!(ev, Event::Setup(_) | Event::Turn(_) | Event::Info(_))
                || matches!(ev, Event::Warning(w) if w.kind.passes_turn()))
            && (!self.skip_final || self.with_positions)
        {
            self.main_moves.push_event(ev);
            self.note_late_setup(ev);
        }
        let last_mover = if let Event::GameEnd { ending: Some(_), .. } = ev { self.last_mover() } else { None };
        let row = self.row.as_mut()?;
        match *ev {
            Event::VariationStart(b) => self.leaves.variation_start(b),
            Event::VariationEnd => self.leaves.variation_end(),
            Event::Setup(s) if row.kind.is_none() => {
                row.kind = Some(if matches!(s, kifu::Setup::Go { .. }) { Kind::Go } else { Kind::Shogi });
            }
            Event::Comment(_) => row.comments += 1,
            Event::Warning(_) => row.warnings += 1,
            Event::Info(info) => {
                let v = info.value();
                if charset.is_none() {
                    *charset = Some(v.charset().name());
                }
                let field = match info.key() {
                    InfoKey::BlackName => Field::BlackName,
                    InfoKey::WhiteName => Field::WhiteName,
                    InfoKey::BlackRank => Field::BlackRank,
                    InfoKey::WhiteRank => Field::WhiteRank,
                    InfoKey::BlackTeam => Field::BlackTeam,
                    InfoKey::WhiteTeam => Field::WhiteTeam,
                    InfoKey::Date => Field::Date,
                    InfoKey::Event => Field::Event,
                    InfoKey::Round => Field::Round,
                    InfoKey::Place => Field::Place,
                    InfoKey::Result => Field::Result,
                    InfoKey::Komi => Field::Komi,
                    InfoKey::Handicap => Field::Handicap,
                    InfoKey::Rules => Field::Rules,
                    InfoKey::TimeLimit => Field::TimeLimit,
                    InfoKey::Overtime => Field::Overtime,
                    InfoKey::BoardSize => Field::BoardSize,
                    InfoKey::GameName => Field::GameName,
                    InfoKey::GameType => {
                        match v.raw().trim_ascii() {
                            b"1" => row.kind = Some(Kind::Go),
                            b"8" => row.kind = Some(Kind::Shogi),
                            _ => {}
                        }
                        return None;
                    }
                    _ => return None,
                };
                if !row.texts.has(field) {
                    // Printable ASCII without escapes (nearly every value) is its own decoding,
                    // and its only white space is the space: no decoding, an ASCII trim.
                    match plain_ascii(&v) {
                        Some(s) => row.texts.set_once_ascii(field, s.trim_ascii()),
                        None => row.texts.set_once(field, v.decode().text.trim()),
                    }
                }
            }
            Event::GameEnd { length, ending } => {
                row.length = Some(length);
                row.ending = ending.map(|e| (e, last_mover));
                self.leaves.close();
                return self.finish(None);
            }
            _ => {}
        }
        None
    }

    /// Where the opening ([`OPENING_MOVES`] nodes) ends in the canonical line: found when the
    /// game ends rather than watched for move by move. Six bytes a node when every node is
    /// plain; else the start of the node after it (each node starts with `;` and holds no
    /// other), or the line's end.
    fn opening_end(&self) -> usize {
        if self.odd_nodes == 0 && self.passes == 0 {
            return (1 + 6 * OPENING_MOVES).min(self.buf.len());
        }
        let mut nodes = self.buf.iter().enumerate().filter(|&(_, &b)| b == b';');
        nodes.nth(OPENING_MOVES).map_or(self.buf.len(), |(i, _)| i)
    }

    /// The side that made the main line's last move, read from the canonical line (each node
    /// starts `;B[`/`;W[` or `;+`/`;-`, and none holds another `;`): not kept move by move,
    /// as only a CSA ending needs it.
    fn last_mover(&self) -> Option<kifu::Color> {
        if self.moves == 0 {
            return None;
        }
        let i = self.buf.iter().rposition(|&b| b == b';')?;
        match self.buf.get(i + 1) {
            Some(b'B' | b'+') => Some(kifu::Color::Black),
            Some(b'W' | b'-') => Some(kifu::Color::White),
            _ => None,
        }
    }

    /// Records an event off the main line (one on it is recorded as without variations), or a
    /// variation's start or end, in a game that records its whole tree (`track`, once the
    /// tracker has been fed the event).
    #[cold]
    fn record_tree(&mut self, ev: &Event<'_>) {
        let main = self.line.on_main();
        match *ev {
            Event::Setup(_) | Event::Turn(_) | Event::Info(_) if !main => self.main_moves.push_event(ev),
            Event::Warning(w) if !main && w.kind.passes_turn() => self.main_moves.push_event(ev),
            Event::VariationStart(b) => {
                self.main_moves.push_mark(Mark::Branch { sibling: b == kifu::Branch::Sibling, main })
            }
            Event::VariationEnd => self.main_moves.push_mark(Mark::BranchEnd { main }),
            _ => {}
        }
    }

    /// Ends the open game (at `GameEnd`, at an error, or at the end of input), if any.
    pub fn finish(&mut self, error: Option<()>) -> Option<GameRow> {
        // No game open (a `GameStart`, an error or the input's end after a finished game):
        // nothing moved (`take` would copy the whole empty row out and back).
        self.row.as_ref()?;
        let mut row = self.row.take()?;
        row.nodes = self.nodes;
        row.moves = self.moves;
        row.moves_total = self.moves_total;
        if row.kind.is_none() {
            row.kind = self.move_kind;
        }
        if error.is_some() {
            row.errors += 1;
            self.leaves.close();
        }
        row.variations = self.leaves.leaves().saturating_sub(1);
        self.leaves.reset();
        let moves_end = self.opening_end();
        let opening = self.buf.get(2.min(self.buf.len())..moves_end).unwrap_or(b"");
        // ASCII by construction (`write_move`): borrowed as it is, never converted.
        match std::str::from_utf8(opening) {
            Ok(o) => row.texts.set_once(Field::Opening, o),
            Err(_) => row.texts.set_once(Field::Opening, &String::from_utf8_lossy(opening)),
        }
        self.buf.push(b')');
        row.main_hash = xxhash_rust::xxh3::xxh3_64(&self.buf);
        if self.keep_main_line {
            row.main_line = Some(String::from_utf8_lossy(&self.buf).into_owned());
        }
        if row.kind.is_none() {
            row.kind = Some(Kind::Go);
        }
        // Replayed from the collector's own list: no copy of it for the row.
        let shogi = row.kind == Some(Kind::Shogi);
        // The whole tree's positions; then `main_moves` holds the main line's steps, as it
        // does without variations, for the final position and the pattern column.
        let tree = self.tree.then(|| {
            self.tree_main.clear();
            let (steps, marks) = self.main_moves.steps();
            let p = crate::variations::replay(steps, marks, shogi, &mut self.tree_main, &mut self.tree_scratch);
            std::mem::swap(&mut self.main_moves, &mut self.tree_main);
            p
        });
        self.tree = false;
        row.sym_hash = row.main_hash;
        row.final_pos = if self.with_positions && !shogi {
            self.replay_go(&mut row)
        } else if self.with_positions {
            let mut out = Vec::with_capacity(self.moves as usize + 1);
            let fin = self.main_moves.replay(shogi, Some(&mut out));
            row.positions = out;
            fin
        } else if self.skip_final {
            super::position::Final::default()
        } else {
            self.main_moves.replay(shogi, None)
        };
        if let Some(p) = tree {
            row.positions = p;
        }
        row.norm = Normalised {
            date: row.date(),
            outcome: row.outcome(),
            komi: row.komi(),
            handicap: row.handicap(),
            time_control: row.time_control(),
        };
        // SGF's default is 19; shogi is always 9.
        row.texts.set_once(Field::BoardSize, if row.kind == Some(Kind::Shogi) { "9" } else { "19" });
        Some(row)
    }
}

/// The raw bytes of `v` when [`kifu::text::Text::as_plain_ascii`] would give them (decoding would
/// give them back: printable ASCII, no `\\`, under a rule whose only escapes start with `\\`),
/// checked eight at a time rather than one, and not validated as UTF-8 again (ASCII: see
/// [`Texts::set_once_ascii`]). Every info value of every game passes here.
#[inline]
fn plain_ascii<'a>(v: &kifu::text::Text<'a>) -> Option<&'a [u8]> {
    use kifu::text::TextRule;
    if !matches!(v.rule(), TextRule::Plain | TextRule::SgfText | TextRule::SgfSimpleText | TextRule::SgfValues) {
        return None;
    }
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `x` is below `n` (n <= 128) / is zero: exact as a whole-word answer.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH != 0;
    let raw = v.raw();
    let mut words = raw.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        if x & HIGH != 0 || below(x, 0x20) || below(x ^ (ONES * 0x7F), 1) || below(x ^ (ONES * u64::from(b'\\')), 1) {
            return None;
        }
    }
    words.remainder().iter().all(|&b| (b' '..=b'~').contains(&b) && b != b'\\').then_some(raw)
}

/// The shape of a canonical node (see `Collector::main_line_plain`, with the `arrow` feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// `;B[xy]` or `;W[xy]`, `x` and `y` letters `a`–`z`.
    Plain,
    /// `;B[]` or `;W[]`.
    Pass,
    /// Anything else (a point past 26, a shogi move).
    Odd,
}

/// Appends one move as a canonical node, as [`push_move`] does (the same bytes): a Go move on
/// the first 26 columns and rows (`;B[pd]`, every move of a 19 × 19 game) or a pass written
/// here in one copy, the rest by `push_move`; says which shape it wrote.
#[inline(always)]
fn push_canonical(buf: &mut Vec<u8>, m: &Move) -> Node {
    if let Move::Go { color, point } = *m {
        let c = if color == kifu::Color::Black { b'B' } else { b'W' };
        match point {
            Some(p) if p.x < 26 && p.y < 26 => {
                buf.extend_from_slice(&[b';', c, b'[', b'a' + p.x, b'a' + p.y, b']']);
                return Node::Plain;
            }
            None => {
                buf.extend_from_slice(&[b';', c, b'[', b']']);
                return Node::Pass;
            }
            Some(_) => {}
        }
    }
    push_move(buf, m);
    Node::Odd
}

// -- pattern search: the Go replay that also records the pattern column --
impl Collector {
    /// Notes setup (or a board size) after the main line's first move: the pattern recorder
    /// then compares the whole board at each position.
    fn note_late_setup(&mut self, ev: &Event<'_>) {
        if self.moves > 0 {
            self.late_setup |= match ev {
                Event::Setup(_) => true,
                Event::Info(i) => i.key() == InfoKey::BoardSize,
                _ => false,
            };
        }
    }

    /// A Go game's positions (as `Moves::replay` gives them), its pattern column and its
    /// symmetric hash, in one replay.
    fn replay_go(&mut self, row: &mut GameRow) -> Final {
        let mut out = Vec::with_capacity(self.moves as usize + 1);
        let rec = &mut self.pattern;
        let late = self.late_setup;
        rec.start();
        let fin = self.main_moves.visit(false, |v| {
            out.push(Posting { hash: v.hash, mv: v.number, next: v.next });
            rec.visit(v, late);
            true
        });
        row.positions = out;
        row.pattern = Some(rec.blob().to_vec());
        row.sym_hash = rec.symmetric_hash();
        fin
    }
}

/// [`scan_with`] without variations.
#[cfg(test)]
pub fn scan(bytes: &[u8], config: kifu::Config, positions: bool) -> Option<FileScan> {
    scan_with(bytes, config, positions, false)
}

/// Reads every game of `bytes` (one file, or one member of an archive) into rows, with every
/// position of its main line (`positions`) and of its variations too (`variations`). `None` when
/// no format recognises the bytes. One file is read by one worker: a database of many files
/// keeps every core busy, a single huge file does not (the streams layer's chunks could spread
/// it).
pub fn scan_with(bytes: &[u8], config: kifu::Config, positions: bool, variations: bool) -> Option<FileScan> {
    thread_local! {
        /// This thread's collector, kept from file to file: its buffers (the canonical main
        /// line, the main line's moves) grow to the longest game once, not in every file (most
        /// files hold one game: growing them was two thirds of the index's allocations).
        static COLLECTOR: std::cell::RefCell<Collector> = std::cell::RefCell::new(Collector::default());
    }
    let mut reader = kifu::AnyReader::detect(bytes, config)?;
    COLLECTOR.with_borrow_mut(|c| {
        c.with_positions = positions;
        c.with_variations = variations;
        Some(collect(&mut reader, c))
    })
}

/// Reads every game of `reader` into rows with `c` (which holds no game between files).
fn collect(reader: &mut kifu::AnyReader<'_>, c: &mut Collector) -> FileScan {
    let mut scan = FileScan { format: Some(reader.format()), ..FileScan::default() };
    let mut charset = None;
    loop {
        let item = reader.next_event();
        match item {
            None => break,
            Some(Ok(ev)) => {
                if let Event::Warning(_) = ev {
                    scan.warnings += 1;
                }
                if let Some(row) = c.feed(&ev, &mut charset) {
                    scan.games.push(row);
                }
            }
            Some(Err(e)) => {
                scan.errors += 1;
                if scan.first_error.is_none() {
                    let p = e.position();
                    scan.first_error = Some(format!("{}:{}: {}", p.line, p.column, e.message()));
                }
                if let Some(row) = c.finish(Some(())) {
                    scan.games.push(row);
                }
            }
        }
    }
    if let Some(row) = c.finish(None) {
        scan.games.push(row);
    }
    scan.charset = charset;
    scan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_from_a_collection() {
        let s = scan(
            b"(;GM[1]SZ[19]PB[Lee]PW[Cho]BR[9p]DT[2005-03-12]RE[W+3.5]KM[650];B[pd];W[dp](;B[qq])(;B[aa]))\n\
              (;SZ[9]C[x];B[cc]C[y])",
            kifu::Config::default(),
            false,
        )
        .unwrap();
        assert_eq!(s.games.len(), 2);
        let g = &s.games[0];
        assert_eq!(g.text(Field::BlackName), Some("Lee"));
        assert_eq!(g.text(Field::BlackRank), Some("9p"));
        assert_eq!(g.date().as_deref(), Some("2005-03-12"));
        assert_eq!(g.outcome().winner, Some("W"));
        assert_eq!(g.komi(), Some(6.5));
        assert_eq!((g.moves, g.moves_total, g.nodes, g.variations), (3, 4, 5, 1));
        assert_eq!(g.text(Field::Opening), Some("B[pd];W[dp];B[qq]"));
        assert_eq!(g.main_hash, xxhash_rust::xxh3::xxh3_64(b"(;B[pd];W[dp];B[qq])"));
        assert_eq!(g.offset, 0);
        let h = &s.games[1];
        assert_eq!((h.text(Field::BoardSize), h.comments, h.moves), (Some("9"), 2, 1));
        assert!(h.offset > 0);
        assert_eq!(s.charset, Some("UTF-8"));
    }

    /// The collector's main-line state (fed the tracker only from a game's first variation on)
    /// against a tracker fed every event, after every event, and the main-line moves it counts.
    fn same_main_line<'a>(events: impl IntoIterator<Item = Event<'a>>) {
        let mut c = Collector::default();
        let mut t = MainLine::default();
        let (mut charset, mut moves, mut games) = (None, 0u64, Vec::new());
        for (i, ev) in events.into_iter().enumerate() {
            if let Event::Move(_) = ev {
                moves += t.on_main() as u64;
            }
            t.feed(&ev);
            if let Some(row) = c.feed(&ev, &mut charset) {
                games.push(row.moves);
            }
            assert_eq!(c.line_on_main(), t.on_main(), "after event {i}: {ev:?}");
            if let Event::GameEnd { .. } = ev {
                assert_eq!(games.last(), Some(&moves), "after event {i}");
                moves = 0;
            }
        }
    }

    #[test]
    fn main_line_as_the_tracker_follows_it() {
        for sgf in [
            &b"(;GM[1];B[pd];W[dp](;B[qq];W[cc])(;B[aa]))"[..],
            b"(;GM[1](;B[pd];W[dp])(;B[aa]))(;B[cc];W[dd];B[ee])",
            b"(;GM[1];B[pd](;W[dp](;B[qq])(;B[rr];W[ss]))(;W[aa]);B[bb])",
            b"(;GM[1];B[pd](;W[dp];B[qq](;W[rr])(;W[ss]))(;W[aa];B[bb](;W[cc])))(;B[dd])",
            b"(;GM[1]AB[aa];B[pd];C[x];W[dp])",
            b"(;GM[1];B[pd]))(;W[dp];B[aa])",
        ] {
            same_main_line(kifu::sgf::Reader::new(sgf).map(Result::unwrap));
        }
        use kifu::{Branch, Color::*, Point};
        let go = |c, x, y| Event::Move(Move::Go { color: c, point: Some(Point::new(x, y)) });
        // A sibling branch is off the main line; the line goes on after it.
        same_main_line([
            Event::GameStart { offset: 0 },
            Event::Node,
            go(Black, 15, 3),
            Event::VariationStart(Branch::Sibling),
            Event::Node,
            go(Black, 0, 0),
            Event::VariationEnd,
            Event::Node,
            go(White, 3, 15),
            Event::GameEnd { length: 0, ending: None },
            Event::GameStart { offset: 9 },
            Event::VariationStart(Branch::Sibling),
            Event::Node,
            go(Black, 0, 0),
            Event::VariationEnd,
            Event::Node,
            go(White, 1, 1),
            Event::GameEnd { length: 0, ending: None },
        ]);
    }

    #[test]
    fn canonical_nodes_as_push_move_writes_them() {
        use kifu::{Color, Point, ShogiMove, Square};
        let mut moves = vec![];
        for color in [Color::Black, Color::White] {
            moves.push(Move::Go { color, point: None });
            for y in 0..60u8 {
                for x in 0..60u8 {
                    moves.push(Move::Go { color, point: Some(Point::new(x, y)) });
                }
            }
            let s = ShogiMove { color, from: None, to: Square::new(5, 5), piece: kifu::Piece::Bishop };
            moves.push(Move::Shogi(s));
        }
        for m in moves {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let shape = push_canonical(&mut a, &m);
            push_move(&mut b, &m);
            assert_eq!(a, b, "{m:?}");
            let six = matches!(a[..], [b';', b'B' | b'W', b'[', b'a'..=b'z', b'a'..=b'z', b']']);
            let pass = matches!(a[..], [b';', b'B' | b'W', b'[', b']']);
            assert_eq!(shape == Node::Plain, six, "{m:?}");
            assert_eq!(shape == Node::Pass, pass, "{m:?}");
        }
    }

    #[test]
    fn plain_ascii_as_the_library_says() {
        use kifu::text::{Charset, Text, TextRule};
        let mut values: Vec<Vec<u8>> = vec![vec![], b"Lee Sedol".to_vec(), b"2005-03-12 and more text".to_vec()];
        for len in [1usize, 7, 8, 9, 16, 17] {
            for at in [0, len / 2, len - 1] {
                for b in 0..=255u8 {
                    let mut v = vec![b'a'; len];
                    v[at] = b;
                    values.push(v);
                }
            }
        }
        for rule in [
            TextRule::Plain,
            TextRule::SgfText,
            TextRule::SgfSimpleText,
            TextRule::SgfValues,
            TextRule::JsonString,
            TextRule::XmlText,
        ] {
            for charset in [Charset::Utf8, Charset::Latin1] {
                for v in &values {
                    let t = Text::new(v, rule, charset);
                    let fast = plain_ascii(&t).map(|b| std::str::from_utf8(b).unwrap());
                    assert_eq!(fast, t.as_plain_ascii(), "{v:?} {rule:?}");
                }
            }
        }
    }

    #[test]
    fn opening_is_twenty_moves() {
        let mut sgf = String::from("(;");
        for i in 0..30u8 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            sgf.push_str(&format!(";{c}[{}a]", (b'a' + i % 19) as char));
        }
        sgf.push(')');
        let s = scan(sgf.as_bytes(), kifu::Config::default(), false).unwrap();
        let g = &s.games[0];
        assert_eq!(g.moves, 30);
        let opening = g.text(Field::Opening).unwrap();
        assert_eq!(opening.matches(';').count(), 19);
        assert!(opening.starts_with("B[aa];W[ba]") && opening.ends_with("B[sa];W[aa]"), "{opening}");
    }

    /// The opening, found when the game ends, is the first twenty nodes of the canonical line
    /// whatever their shapes (plain, passes, points past 26) and however many moves there are.
    #[test]
    fn opening_of_every_node_shape() {
        for moves in [0usize, 1, 19, 20, 21, 45] {
            for shape in 0..4 {
                let mut sgf = String::from("(;GM[1]SZ[52]");
                let mut nodes = Vec::new();
                for i in 0..moves {
                    let c = if i % 2 == 0 { 'B' } else { 'W' };
                    let v = match (shape, i % 3) {
                        (1, 0) | (3, 1) => String::new(),
                        (2, 1) | (3, 2) => "ZZ".to_string(),
                        _ => format!("{}a", (b'a' + (i % 19) as u8) as char),
                    };
                    sgf.push_str(&format!(";{c}[{v}]"));
                    nodes.push(format!("{c}[{v}]"));
                }
                sgf.push(')');
                let s = scan(sgf.as_bytes(), kifu::Config::default(), false).unwrap();
                let want = nodes.iter().take(OPENING_MOVES).cloned().collect::<Vec<_>>().join(";");
                let want = (!want.is_empty()).then_some(want.as_str());
                assert_eq!(s.games[0].text(Field::Opening), want, "{sgf}");
            }
        }
    }

    #[test]
    fn csa_endings() {
        use kifu::Color::*;
        assert_eq!(ending_outcome(Ending::Resign, Some(Black)).winner, Some("B"));
        assert_eq!(ending_outcome(Ending::TimeUp, Some(White)).winner, Some("W"));
        assert_eq!(ending_outcome(Ending::DeclareWin, Some(White)).winner, Some("B"));
        assert_eq!(ending_outcome(Ending::Repetition, Some(White)).winner, Some("draw"));
        assert_eq!(ending_outcome(Ending::IllegalActionBlack, None).winner, Some("W"));
        assert_eq!(ending_outcome(Ending::Interrupted, Some(White)).winner, None);
        assert_eq!(ending_outcome(Ending::Checkmate, Some(White)).winner, Some("W"));
        assert_eq!(ending_outcome(Ending::Checkmate, Some(White)).reason, Some("checkmate"));
        assert_eq!(ending_outcome(Ending::IllegalMove, Some(Black)).winner, Some("W"));
    }
}
