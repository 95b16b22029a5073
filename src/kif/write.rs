//! Writing a shogi game as KIF, in UTF-8 (`.kifu`) or CP932 (`.kif`) ([`Options`]).
//!
//! The writer takes a [`GameTree`], not events: KIF writes a game's variations after its main
//! line, the deepest branch point of each line first and each block followed by its own
//! variations (the order the reader attaches `変化` blocks by), which is the reverse of the
//! order events give them in, and events give a branch either beside the current node (KIF,
//! Jago) or below it (SGF, JGF): the tree has both in one shape. A game's special move (`投了`)
//! comes from its `GameEnd`, after every variation's events, and the `+` after a move with
//! variations is known only once they come. Holding the game costs what the tree costs (about
//! the game's size); the walk keeps an explicit stack of the variations still to write (no
//! recursion), and the writer keeps that stack and a scratch string between games, so that
//! nothing is allocated per node once they have grown.
//!
//! # What each event becomes
//! | event | KIF |
//! |---|---|
//! | `Info(FormatVersion)` named `version`, `Info(Charset)` | `#KIF version=… encoding=UTF-8` (or `Shift_JIS`: the output's), first in the game; [`Options::declare`] writes it for every game |
//! | `Info` named by a KIF key (`開始日時`, `対局日`, `先手`, `下手`, `消費時間`…) | `KEY：value`, the name as read |
//! | `Info(BlackName / WhiteName / Date / EndDate / Event / Opening / GameName / TimeLimit / Overtime / Place / Source / GameComment / Transcriber / Handicap)` of other formats | `先手` `後手` `開始日時` `終了日時` `棋戦` `戦型` `表題` `持ち時間` `秒読み` `場所` `出典` `備考` `記録係` `手合割` |
//! | `Info(Other)` with another name, `Property` before the first move (`対局ID：…`) | `NAME：value` (an empty `Property` alone, as `盤面回転`) |
//! | `Property` named `*` or `&` before the first move, or CSA's `'` and `'*` after the `Turn` ([`Property::is_start_comment`](crate::Property::is_start_comment)) | `*value`, `&value` |
//! | `Setup`, `Turn` (the game's) | where the first of them comes: `手合割：平手` or a handicap's name for those positions with their usual side to move (nothing when a `手合割` line already names it), else `後手の持駒：…`, a board diagram, `先手の持駒：…` and `後手番` when White moves first |
//! | `Move(Shogi)` | `   1 ７六歩(77)` (`同　` for the previous move's square, `成` when an unpromoted piece becomes promoted, `打` for a drop) and its `Clock(ElapsedMs)` of the mover as `( 0:16/00:00:16)` with the mover's total so far; `+` after a move that has variations |
//! | `Comment` | `*text`, one line per line of text (before the first move too) |
//! | `Name` | `&text` |
//! | `Evaluation` | `** score pv` (the floodgate comment) |
//! | `Property` with an empty value after a move (a special move in a variation, an unknown one) | `   5 word` |
//! | `GameEnd` with an ending | `投了` `中断` `千日手` `持将棋` `切れ負け` `反則勝ち` `反則負け` (the side to move's illegal action) `入玉勝ち` `詰み` `不詰` after the main line's last move, with the time a clock of the other side gives there |
//! | the end of the header | `手数----指手---------消費時間--` |
//! | a variation | a blank line, `変化：N手`, its moves, after the main line |
//!
//! No `まで…` summary line is written (readers need none, and tsshogi often writes none).
//!
//! Text in the output's charset is copied (a KIF record read in the charset it is written in
//! costs no decoding); other text is decoded and encoded. A header value's line breaks become
//! `\n` (read back by the `\n` escape of KIF values), a bookmark's become spaces.
//!
//! A Go game (a Go move or stone, a mark on a point, a board size or `GM[1]`) is refused
//! ([`Refused`]) and nothing is written.
//!
//! # Known losses (read → write → read)
//! | what | when |
//! |---|---|
//! | not written, counted in [`Writer::unwritten`]: info with no KIF key (`Round`, ranks, `Result`…); info, setup, a turn, properties with a value after the first move; clocks other than a move's own time and a special's; a second move's clock; setup with no KIF form (a king or promoted piece in hand, a square off the board); an ending KIF has no word for (`Draw`, `Matta`, `MaxMoves`, `Error`, `PerpetualCheck`, `Other` without its word); moves off the board; the version of another format (`V2.2`); a `Property` with an empty name or one a KIF line cannot hold; the events of a variation whose first node has no move | records of other formats |
//! | the `#KIF` line's `encoding` becomes the output's, and reads back at the line's place (the top) | converting between the charsets; records of other formats |
//! | a `手合割` info is added for a standard or handicap start (none for a standard start given by no setup event) | records of other formats |
//! | a start with no setup events reads back as the standard position | records that give none |
//! | setup events come back in the order KIF gives them (the standard position's, or White's hand, the rows from rank 1 and file 9, Black's hand), after the header | a start position given in another order (CSA `P1`–`P9`, USI) |
//! | a `Turn` comes back at the end of the header, and always | records without one |
//! | `Info(Other)` of another format reads back as a `Property` of its name | records of other formats |
//! | a comment before the first move reads back as a `Property` named `*`; a `Name` there as one named `&` | records of other formats |
//! | a comment with line breaks reads back as one comment per line | records of other formats |
//! | an evaluation reads back as a comment (`* score pv`) | CSA `'**` |
//! | a time loses its milliseconds | CSA V3.0 decimal times |
//! | a move's side comes back from the ply (the start's side, then alternating); a node's second move comes back as a node of its own; a node without a move adds its comments to the move before | records of other formats |
//! | `IllegalActionBlack`/`White` of the side not to move is written `反則勝ち` (the side to move wins) and reads back as `IllegalMove` | CSA `%-ILLEGAL_ACTION` after White's move |
//! | CP932: a character CP932 lacks becomes `&#N;`, counted in [`Writer::unencodable_chars`] | names, comments in UTF-8 records |
//!
//! ```
//! use bumpalo::Bump;
//! use kifu::kif::write::{Options, Writer};
//!
//! let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 投了         ( 0:00/00:00:00)\n";
//! let bump = Bump::new();
//! let tree = kifu::tree::build(&bump, &mut kifu::kif::Reader::new(kif.as_bytes())).unwrap().unwrap();
//! let mut out = Vec::new();
//! Writer::new(Options::default()).write(&tree, &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), kif);
//! ```

mod start;
mod text;
mod words;

use crate::event::{ClockKind, Color, Ending, Event, Info, InfoKey, Move, Setup, ShogiMove, Square};
use crate::kit::kakinoki::glyphs::KEYS;
use crate::text::{Charset, Text, TextRule};
use crate::tree::{GameTree, NodeId};
use start::{word, Start};
use text::{put, Mode, Scratch};

/// The charset a [`Writer`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// UTF-8, the `.kifu` files.
    #[default]
    Utf8 = 0,
    /// CP932 (Windows Shift_JIS), the `.kif` files.
    Cp932 = 1,
}

/// How a [`Writer`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// The output's charset. Default: UTF-8.
    pub encoding: Encoding,
    /// Start every game with `#KIF version=2.0 encoding=UTF-8` (or `Shift_JIS`), as Kifu for
    /// Windows and Shogidokoro do. Default: `false` (the line is written only when the record
    /// has one).
    pub declare: bool,
}

/// A Go game was refused: KIF records shogi only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Go game cannot be written as KIF, which records shogi only")
    }
}

impl std::error::Error for Refused {}

/// Writes `tree` as KIF with `options`, appending to `out`; see the [module docs](self).
///
/// # Errors
/// [`Refused`] for a Go game (nothing is appended).
pub fn write(tree: &GameTree<'_>, options: Options, out: &mut Vec<u8>) -> Result<(), Refused> {
    Writer::new(options).write(tree, out)
}

/// Where a line of play stands: its last move's ply, the players' total times (seconds),
/// the last move's square (for `同`) and which squares hold promoted pieces (for `成`).
#[derive(Clone, Copy, Debug)]
struct State {
    ply: u32,
    totals: [u64; 2],
    last_to: Option<Square>,
    /// The side to move.
    to_move: Color,
    /// Per square (rank 1 first, file 9 first): 0 empty, 1 a piece, 2 a promoted piece.
    board: [u8; 81],
}

/// A variation still to write: its first node and the state before it.
#[derive(Clone, Copy, Debug)]
struct Job {
    node: NodeId,
    state: State,
}

/// Writes shogi games as KIF, keeping its buffers between games; see the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Writer {
    options: Options,
    /// Events left out because KIF cannot hold them.
    unwritten: u64,
    jobs: Vec<Job>,
    /// The string texts are decoded into, and the count of characters CP932 lacked.
    scratch: Scratch,
}

/// Whether `ev` belongs to a Go game.
fn is_go(ev: &Event<'_>) -> bool {
    match ev {
        Event::Move(Move::Go { .. }) | Event::Setup(Setup::Go { .. }) | Event::Markup(_) => true,
        Event::Info(i) => match i.key() {
            InfoKey::BoardSize => true,
            InfoKey::GameType => i.value().decode().text.trim() == "1",
            _ => false,
        },
        _ => false,
    }
}

fn on_board(s: Square) -> bool {
    (1..=9).contains(&s.file) && (1..=9).contains(&s.rank)
}

fn index(s: Square) -> usize {
    (s.rank as usize - 1) * 9 + (9 - s.file as usize)
}

/// Whether a name is one of the KIF header keys the reader knows (in UTF-8 or CP932).
fn kif_key(name: &[u8]) -> bool {
    !name.is_empty() && KEYS.iter().any(|(w, _)| w[0] == name || w[1] == name)
}

/// Whether a property or info name (in `charset`) can be a KIF key: no colon, space or line
/// break in it, and no first character that makes the line another kind (`#`, `*`, `&`, `|`,
/// `+`, a digit). Read character by character in UTF-8 or CP932, so nothing is decoded.
fn safe_key(name: &[u8], charset: Charset) -> bool {
    if matches!(name.first(), None | Some(b'#' | b'*' | b'&' | b'|' | b'+' | b'0'..=b'9')) {
        return false;
    }
    let k = usize::from(charset == Charset::ShiftJis);
    let (colon, space) = (words::COLON[k], words::IDSP[k]);
    let mut i = 0;
    while i < name.len() {
        let rest = &name[i..];
        if rest.starts_with(colon) || rest.starts_with(space) {
            return false;
        }
        match name[i] {
            b':' | b' ' | b'\t' | b'\n' | b'\r' => return false,
            0x81..=0x9F | 0xE0..=0xFC if k == 1 => i += 2,
            _ => i += 1,
        }
    }
    true
}

/// `m:ss` (minutes right-aligned in two columns) or `hh:mm:ss`.
fn clock(secs: u64, hours: bool, out: &mut Vec<u8>) {
    let two = |n: u64, out: &mut Vec<u8>| out.extend_from_slice(&[b'0' + (n / 10 % 10) as u8, b'0' + (n % 10) as u8]);
    if hours {
        let h = secs / 3600;
        if h >= 100 {
            start::number(h, out);
        } else {
            two(h, out);
        }
        out.push(b':');
        two(secs / 60 % 60, out);
    } else {
        let m = secs / 60;
        if m < 10 {
            out.push(b' ');
        }
        start::number(m, out);
    }
    out.push(b':');
    two(secs % 60, out);
}

impl Writer {
    /// A writer with `options`.
    pub fn new(options: Options) -> Writer {
        Writer { options, unwritten: 0, jobs: Vec::new(), scratch: Scratch::default() }
    }

    /// The options written with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Events left out so far because KIF cannot hold them (see the module's table of losses).
    pub fn unwritten(&self) -> u64 {
        self.unwritten
    }

    /// Characters written so far as `&#N;` because CP932 lacks them (Hangul, emoji, `☗`… in
    /// names and comments of UTF-8 records; see the module's table of losses). Always 0 when
    /// writing UTF-8. A caller reports them (`kifu convert --to kif` does).
    pub fn unencodable_chars(&self) -> u64 {
        self.scratch.lacked
    }

    fn enc(&self) -> Encoding {
        self.options.encoding
    }

    /// Writes `tree` as KIF, appending to `out`.
    ///
    /// # Errors
    /// [`Refused`] for a Go game (nothing is appended).
    pub fn write(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
        if tree.nodes().any(|n| tree.events(n).any(|e| is_go(&e))) {
            return Err(Refused);
        }
        let state = self.header(tree, out);
        self.jobs.clear();
        let Some(first) = tree.first_child(NodeId::GAME) else {
            self.end(tree, None, &state, out);
            return Ok(());
        };
        self.line(tree, first, state, true, out);
        while let Some(job) = self.jobs.pop() {
            out.extend_from_slice(b"\n");
            word(words::VARIATION, self.enc(), out);
            start::number(u64::from(job.state.ply) + 1, out);
            word(words::PLY_SUFFIX, self.enc(), out);
            out.push(b'\n');
            self.line(tree, job.node, job.state, false, out);
        }
        Ok(())
    }

    /// The game node: the `#KIF` line, the header lines, the start position, the moves line.
    /// Returns the state before the first move.
    fn header(&mut self, tree: &GameTree<'_>, out: &mut Vec<u8>) -> State {
        let enc = self.enc();
        // What the whole header holds decides its first line and the start position's form.
        let (mut version, mut charset, mut handicap) = (None, false, None);
        let mut start = Start::empty();
        let (mut setups, mut turn) = (false, None);
        for e in tree.events(NodeId::GAME) {
            match e {
                Event::Info(i) if i.key() == InfoKey::FormatVersion && i.name() == b"version" => {
                    version = version.or(Some(i.value()))
                }
                Event::Info(i) if i.key() == InfoKey::Charset => charset = true,
                Event::Info(i) if i.key() == InfoKey::Handicap && handicap.is_none() => {
                    handicap = Some(start::named(i.value()))
                }
                Event::Setup(s) => {
                    setups = true;
                    if !start.apply(s) {
                        self.unwritten += 1;
                    }
                }
                Event::Turn(c) => turn = Some(c),
                _ => {}
            }
        }
        if !setups {
            start = Start::preset(&[]);
        }
        let first_mover = tree.main_line().flat_map(|n| tree.moves(n)).next().map(|m| m.color());
        let turn = turn.or(first_mover).unwrap_or(Color::Black);
        if self.options.declare || version.is_some() || charset {
            out.extend_from_slice(b"#KIF");
            match version {
                Some(v) => {
                    out.extend_from_slice(b" version=");
                    put(v, enc, Mode::Line, &mut self.scratch, out);
                }
                None if self.options.declare => out.extend_from_slice(b" version=2.0"),
                None => {}
            }
            if self.options.declare || charset {
                out.extend_from_slice(match enc {
                    Encoding::Utf8 => b" encoding=UTF-8",
                    Encoding::Cp932 => b" encoding=Shift_JIS",
                });
            }
            out.push(b'\n');
        }
        let mut placed = false;
        // A `Turn` came: CSA's `'` lines after it are comments on the start position.
        let mut turned = false;
        for e in tree.events(NodeId::GAME) {
            match e {
                Event::Info(i) => match i.key() {
                    InfoKey::FormatVersion if i.name() == b"version" => {}
                    InfoKey::Charset => {}
                    _ => self.info(i, out),
                },
                Event::Property(p) => {
                    let (name, value) = (p.name(), p.value());
                    match name {
                        b"&" => {
                            out.push(b'&');
                            put(value, enc, Mode::Line, &mut self.scratch, out);
                            out.push(b'\n');
                        }
                        // KIF's own `*`, and CSA's `'` comments on the start position.
                        _ if p.is_start_comment(turned) => {
                            out.push(b'*');
                            put(value, enc, Mode::Comment, &mut self.scratch, out);
                            out.push(b'\n');
                        }
                        _ if safe_key(name, value.charset()) => {
                            put(
                                Text::new(name, TextRule::Plain, value.charset()),
                                enc,
                                Mode::Line,
                                &mut self.scratch,
                                out,
                            );
                            let alone = value.raw().is_empty() && kif_word(name, words::ROTATED);
                            if !alone {
                                word(words::COLON, enc, out);
                                put(value, enc, Mode::Value, &mut self.scratch, out);
                            }
                            out.push(b'\n');
                        }
                        _ => self.unwritten += 1,
                    }
                }
                Event::Setup(_) | Event::Turn(_) => {
                    turned |= matches!(e, Event::Turn(_));
                    if !placed {
                        placed = true;
                        self.start(&start, turn, handicap, setups, out);
                    }
                }
                Event::Comment(t) => self.comment(t, out),
                Event::Name(t) => self.bookmark(t, out),
                Event::Evaluation(e) => self.evaluation(e, out),
                _ => self.unwritten += 1,
            }
        }
        if !placed {
            self.start(&start, turn, handicap, setups, out);
        }
        word(words::MOVES_LINE, enc, out);
        out.push(b'\n');
        let mut board = [0u8; 81];
        for (b, cell) in board.iter_mut().zip(start.cells) {
            *b = cell.map_or(0, |(_, p)| 1 + u8::from(p.is_promoted()));
        }
        State { ply: 0, totals: [0; 2], last_to: None, to_move: turn, board }
    }

    /// The start position's lines (see [`start`]).
    fn start(&mut self, s: &Start, turn: Color, handicap: Option<Option<usize>>, setups: bool, out: &mut Vec<u8>) {
        let enc = self.enc();
        match (handicap, s.preset_name(turn)) {
            (Some(Some(k)), Some(p)) if k == p => {}
            (None, Some(0)) if !setups => {}
            (None, Some(p)) => start::handicap_line(p, enc, out),
            _ => start::diagram(s, turn, enc, out),
        }
    }

    /// A header line for an info event.
    fn info(&mut self, i: Info<'_>, out: &mut Vec<u8>) {
        let enc = self.enc();
        let name = i.name();
        let value = i.value();
        if kif_key(name) {
            put(Text::new(name, TextRule::Plain, value.charset()), enc, Mode::Line, &mut self.scratch, out);
        } else if let Some(w) = words::key(i.key()) {
            word(w, enc, out);
        } else if i.key() == InfoKey::Other && safe_key(name, value.charset()) {
            put(Text::new(name, TextRule::Plain, value.charset()), enc, Mode::Line, &mut self.scratch, out);
        } else {
            self.unwritten += 1;
            return;
        }
        word(words::COLON, enc, out);
        put(value, enc, Mode::Value, &mut self.scratch, out);
        out.push(b'\n');
    }

    fn comment(&mut self, t: Text<'_>, out: &mut Vec<u8>) {
        out.push(b'*');
        put(t, self.enc(), Mode::Comment, &mut self.scratch, out);
        out.push(b'\n');
    }

    fn bookmark(&mut self, t: Text<'_>, out: &mut Vec<u8>) {
        out.push(b'&');
        put(t, self.enc(), Mode::Line, &mut self.scratch, out);
        out.push(b'\n');
    }

    fn evaluation(&mut self, e: crate::event::Evaluation<'_>, out: &mut Vec<u8>) {
        out.extend_from_slice(b"**");
        if let Some(s) = e.score {
            out.push(b' ');
            if s < 0 {
                out.push(b'-');
            }
            start::number(u64::from(s.unsigned_abs()), out);
        }
        if !e.pv.is_empty() {
            out.push(b' ');
            put(Text::new(e.pv, TextRule::Plain, Charset::Utf8), self.enc(), Mode::Line, &mut self.scratch, out);
        }
        out.push(b'\n');
    }

    /// One line of play from `first` down its first children; the variations of its moves are
    /// queued (see the [module docs](self) for their order).
    fn line(&mut self, tree: &GameTree<'_>, first: NodeId, mut state: State, main: bool, out: &mut Vec<u8>) {
        let mut node = Some(first);
        let mut special = None;
        while let Some(n) = node {
            if n != first || main {
                // The other children of this node's parent, in order, before the line goes on.
                let from = self.jobs.len();
                let mut s = tree.next_sibling(n);
                while let Some(x) = s {
                    if tree.moves(x).next().is_some() {
                        self.jobs.push(Job { node: x, state });
                    } else {
                        self.unwritten += subtree_events(tree, x);
                    }
                    s = tree.next_sibling(x);
                }
                self.jobs[from..].reverse();
            }
            let next = tree.first_child(n);
            let last = main && next.is_none();
            let plus = tree.next_sibling(n).is_some();
            special = self.node(tree, n, &mut state, last, plus, out);
            node = next;
        }
        if main {
            self.end(tree, special, &state, out);
        }
    }

    /// The main line's special move, when a clock has not placed it yet. `special`: it is
    /// already written (`Some(true)`) or the last node had none to give (`None`).
    fn end(&mut self, tree: &GameTree<'_>, special: Option<bool>, state: &State, out: &mut Vec<u8>) {
        if special == Some(true) {
            return;
        }
        match tree.ending().map(|e| (e, ending_word(e, state))) {
            Some((_, Some(w))) => {
                let w = w[self.enc() as usize];
                self.special(w, None, state, None, out);
            }
            Some((_, None)) => self.unwritten += 1,
            None => {}
        }
    }

    /// A special move line: `ply word` and its time, if any. `text`: the word as a record's
    /// text (a property's name) rather than a KIF word.
    fn special(
        &mut self,
        w: &[u8],
        text: Option<Text<'_>>,
        state: &State,
        time: Option<(Color, u64)>,
        out: &mut Vec<u8>,
    ) {
        self.ply(state.ply + 1, out);
        let at = out.len();
        match text {
            Some(t) => put(t, self.enc(), Mode::Line, &mut self.scratch, out),
            None => out.extend_from_slice(w),
        }
        if let Some((color, ms)) = time {
            let secs = ms / 1000;
            self.time(at, secs, state.totals[color as usize] + secs, out);
        }
        out.push(b'\n');
    }

    /// `   1 `: the ply right-aligned in four columns and a space.
    fn ply(&self, ply: u32, out: &mut Vec<u8>) {
        for limit in [1000, 100, 10] {
            if ply < limit {
                out.push(b' ');
            }
        }
        start::number(u64::from(ply), out);
        out.push(b' ');
    }

    /// Pads the move written from `at` to 13 columns (at least one space) and writes
    /// `( m:ss/hh:mm:ss)`.
    fn time(&self, at: usize, secs: u64, total: u64, out: &mut Vec<u8>) {
        let w = text::width(&out[at..], self.enc());
        for _ in 0..13usize.saturating_sub(w).max(1) {
            out.push(b' ');
        }
        out.push(b'(');
        clock(secs, false, out);
        out.push(b'/');
        clock(total, true, out);
        out.push(b')');
    }

    /// One node's events. `last`: the main line's last node, where the game's special move
    /// goes (where the other side's clock is, or a special's property, else after the node).
    /// Returns, for the last node, whether its special move was written.
    fn node(
        &mut self,
        tree: &GameTree<'_>,
        n: NodeId,
        state: &mut State,
        last: bool,
        plus: bool,
        out: &mut Vec<u8>,
    ) -> Option<bool> {
        let mover = tree.moves(n).next().map(|m| m.color());
        // The move's own time, and (on the main line's last node) the special's.
        let (mut own, mut other) = (None, None);
        for (k, e) in tree.events(n).enumerate() {
            if let Event::Clock(c) = e {
                let Some(color) = c.color.filter(|_| c.kind == ClockKind::ElapsedMs && mover.is_some()) else {
                    continue;
                };
                if own.is_none() && Some(color) == mover {
                    own = Some((k, c.value));
                } else if other.is_none() && last {
                    other = Some((k, (color, c.value)));
                }
            }
        }
        let ending = if last { tree.ending() } else { None };
        let mut written = false;
        let mut moves = 0;
        for (k, e) in tree.events(n).enumerate() {
            match e {
                Event::Move(Move::Shogi(m)) => {
                    moves += 1;
                    let time = if moves == 1 { own.map(|o| o.1) } else { None };
                    self.shogi_move(m, state, time, plus && moves == 1, out);
                }
                Event::Clock(_) if own.is_some_and(|o| o.0 == k) => {}
                Event::Clock(_) if other.is_some_and(|o| o.0 == k) => {
                    match ending.and_then(|e| ending_word(e, state)) {
                        // The special's time: the special comes here.
                        Some(w) if !written => {
                            let w = w[self.enc() as usize];
                            self.special(w, None, state, other.map(|o| o.1), out);
                            written = true;
                        }
                        // Already on the line of a special's property.
                        _ if written => {}
                        _ => self.unwritten += 1,
                    }
                }
                Event::Comment(t) => self.comment(t, out),
                Event::Name(t) => self.bookmark(t, out),
                Event::Evaluation(e) => self.evaluation(e, out),
                Event::Property(p) if p.value().raw().is_empty() && !p.name().is_empty() => {
                    // A special move the record names (one in a variation, an unknown one).
                    let takes = last && !written && ending == Some(Ending::Other);
                    let time = if takes { other.map(|o| o.1) } else { None };
                    let t = Text::new(p.name(), TextRule::Plain, p.value().charset());
                    self.special(&[], Some(t), state, time, out);
                    written |= takes;
                }
                _ => self.unwritten += 1,
            }
        }
        last.then_some(written)
    }

    /// A move line; updates the state.
    fn shogi_move(&mut self, m: ShogiMove, state: &mut State, time: Option<u64>, plus: bool, out: &mut Vec<u8>) {
        let enc = self.enc();
        if !on_board(m.to) || m.from.is_some_and(|f| !on_board(f)) {
            self.unwritten += 1;
            return;
        }
        state.ply += 1;
        self.ply(state.ply, out);
        let at = out.len();
        if state.last_to == Some(m.to) {
            word(words::SAME, enc, out);
        } else {
            match enc {
                Encoding::Utf8 => out.extend_from_slice(&[0xEF, 0xBC, 0x90 + m.to.file]),
                Encoding::Cp932 => out.extend_from_slice(&[0x82, 0x4F + m.to.file]),
            }
            word(words::NUMERALS[(m.to.rank - 1) as usize], enc, out);
        }
        let promotes = m.from.is_some_and(|f| state.board[index(f)] != 2) && m.piece.is_promoted();
        word(words::piece(if promotes { m.piece.unpromoted() } else { m.piece }, false), enc, out);
        match m.from {
            Some(f) => {
                if promotes {
                    word(words::PROMOTE, enc, out);
                }
                out.extend_from_slice(&[b'(', b'0' + f.file, b'0' + f.rank, b')']);
                state.board[index(f)] = 0;
            }
            None => word(words::DROP, enc, out),
        }
        state.board[index(m.to)] = 1 + u8::from(m.piece.is_promoted());
        state.last_to = Some(m.to);
        state.to_move = m.color.opponent();
        if let Some(ms) = time {
            let secs = ms / 1000;
            let total = &mut state.totals[m.color as usize];
            *total += secs;
            let total = *total;
            self.time(at, secs, total, out);
        }
        if plus {
            out.push(b'+');
        }
        out.push(b'\n');
    }
}

/// The special move that gives `e` back; an illegal action of the side not to move is the
/// side to move's win (`反則勝ち`, read back as [`Ending::IllegalMove`]).
fn ending_word(e: Ending, state: &State) -> Option<words::Word> {
    let e = match e {
        Ending::IllegalActionBlack if state.to_move == Color::White => Ending::IllegalMove,
        Ending::IllegalActionWhite if state.to_move == Color::Black => Ending::IllegalMove,
        e => e,
    };
    words::special(e)
}

/// Whether a name is the KIF word `w` (in either charset).
fn kif_word(name: &[u8], w: words::Word) -> bool {
    w[0] == name || w[1] == name
}

/// The events of a node's subtree (nodes are numbered in pre-order, so it is a range).
fn subtree_events(tree: &GameTree<'_>, node: NodeId) -> u64 {
    let mut end = None;
    let mut n = Some(node);
    while let Some(x) = n {
        if let Some(s) = tree.next_sibling(x) {
            end = Some(s.0);
            break;
        }
        n = tree.parent(x);
    }
    let end = end.unwrap_or(tree.len() as u32);
    (node.0..end).map(|k| tree.events(NodeId(k)).count() as u64).sum()
}
