//! Writing a shogi game as JKF (one line of JSON, UTF-8), from a [`GameTree`].
//!
//! The writer takes a tree, not events: JKF puts an alternative to move n *inside* move n's
//! object (`forks`), while a reader may give it as a `Child` variation after move n - 1
//! (before move n is known), and JKF's `header` and `initial` must be complete before the
//! moves. The tree is walked with an explicit stack (no recursion), one frame per open `forks`
//! holding the board before and after the forked move.
//!
//! JKF wants what the events do not say: the piece *before* the move with `promote`, the
//! `capture`d piece and `same`. The writer keeps a board (81 squares, no legality) from the
//! start position's `Setup` events and the moves: the piece on `from` is the moving piece, and
//! a move promotes when that piece promotes to the event's piece. `time.total` is the sum of the
//! mover's `now` times along the line.
//!
//! ```
//! use bumpalo::Bump;
//! let csa = b"V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT12\n-3334FU\nT5\n%TORYO\n";
//! let bump = Bump::new();
//! let tree = kifu::tree::build(&bump, &mut kifu::csa::Reader::new(csa)).unwrap().unwrap();
//! let mut out = Vec::new();
//! kifu::jkf::write::write(&tree, &mut out).unwrap();
//! let json = std::str::from_utf8(&out).unwrap();
//! assert!(json.starts_with(r#"{"header":{"先手":"Sente","後手":"Gote"},"initial":{"preset":"HIRATE"},"moves":[{},"#));
//! assert!(json.contains(r#"{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"time":{"now":{"m":0,"s":12},"total":{"h":0,"m":0,"s":12}}}"#));
//! assert!(json.ends_with(r#"{"special":"TORYO"}]}"#));
//! ```
//!
//! ## What JKF loses
//! The round-trip tests (`tests/jkf.rs`) assert exactly these.
//! | event | written as |
//! |---|---|
//! | a Go game | refused ([`Refused`]), nothing written |
//! | `Info` | a `header` key: the info's own name when it is a JKF key of the same meaning, else JKF's key for it (`先手`, `開始日時`…), else (`Other`) its own name; a second value of one key is dropped |
//! | a start position | a `preset` when it is the standard position without a preset's pieces with its side to move, else `OTHER` and `data`; no `Setup` at all is `HIRATE` (read back as the standard position) |
//! | hand pieces | counts per piece (read back in the order rook, bishop, gold, silver, knight, lance, pawn) |
//! | `Clock { ElapsedMs }` | `time.now` in whole seconds (milliseconds dropped); the second clock of a node with a special move the special's time; other clocks dropped |
//! | `Evaluation` | a comment `** <score> <pv>` (tsshogi's and shogi-kifu-converter's spelling of CSA's `'**` lines), read back as a `Comment` |
//! | properties of the game node named `*` (KIF's and KI2's `*` lines before the first move), or `'` and `'*` after its `Turn` (CSA's `'` lines between the start position and the first move) | comments of `moves[0]`, as JKF's own converters write them; read back as the game node's `Comment`s |
//! | clocks and other properties of the game node, `Name`, `Markup`, `Property` (but `special`), a second move in a node | dropped |
//! | `relative` | not written (it needs the legal moves of the position); `promote: false` is not written either |
//! | `GameEnd`'s ending | a last `{"special": …}` on the main line (`Ending::Other`: not written) |
//! | a `Property` named `special` (a fork's special move) | a `{"special": …}` element after its node |
//! | a node without a move (other than the game node) | an element without `move`: read back with a `missing_value` warning, its comments and clocks on the node before |

use super::tables::{header_key, standard, HEADER, PRESETS, SPECIALS};
use crate::event::{ClockKind, Color, Event, InfoKey, Move, Piece, Setup, ShogiMove, Square};
use crate::text::{escape, Charset, Text, TextRule};
use crate::tree::{GameTree, NodeId};

/// A game JKF cannot hold: a Go game (the output is left as it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JKF holds shogi games only")
    }
}

impl std::error::Error for Refused {}

type Board = [[Option<(Color, Piece)>; 9]; 9];

/// What a line needs as it is written: the board, each side's total time, the last square.
#[derive(Clone, Copy, Debug)]
struct State {
    board: Board,
    totals: [u64; 2],
    last_to: Option<Square>,
}

/// An open `forks`: the node whose object holds it, the next fork to write, the state before
/// and after the node's move, and a special move to write after the node.
struct Frame<'b> {
    node: NodeId,
    next: Option<NodeId>,
    before: State,
    after: State,
    special: Option<Text<'b>>,
}

/// Appends the game as one JKF document (no final newline).
pub fn write(tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<(), Refused> {
    write_counting(tree, out).map(|_| ())
}

/// [`write()`], also giving how many of the game's events JKF has no place for were left out:
/// the rows of the module's table of losses that are dropped or not written (an `Info` with no JKF key or a
/// second value of one key; clocks other than the ones written; the game node's clocks,
/// properties, names and markup; `Name`, `Markup`, a `Property` other than `special`, a second
/// move, and setup, a turn or info after the start, in a later node; a setup square off the
/// board; an `Ending::Other`). Lost precision (milliseconds) and what JKF derives (`relative`)
/// are not counted.
///
/// ```
/// use bumpalo::Bump;
/// // A bookmark (`&`, a `Name`) has no place in JKF.
/// let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n&定跡\n   2 ３四歩(33)\n";
/// let bump = Bump::new();
/// let tree = kifu::tree::build(&bump, &mut kifu::kif::Reader::new(kif.as_bytes())).unwrap().unwrap();
/// let mut out = Vec::new();
/// assert_eq!(kifu::jkf::write::write_counting(&tree, &mut out), Ok(1));
/// ```
pub fn write_counting(tree: &GameTree<'_>, out: &mut Vec<u8>) -> Result<u64, Refused> {
    let mut lost = 0;
    let go = tree
        .nodes()
        .any(|n| tree.events(n).any(|e| matches!(e, Event::Move(Move::Go { .. }) | Event::Setup(Setup::Go { .. }))));
    if go {
        return Err(Refused);
    }
    out.extend_from_slice(b"{\"header\":{");
    header(tree, out, &mut lost);
    out.extend_from_slice(b"},\"initial\":");
    let mut state = State { board: [[None; 9]; 9], totals: [0; 2], last_to: None };
    initial(tree, &mut state.board, out, &mut lost);
    out.extend_from_slice(b",\"moves\":[{");
    let mut first = true;
    // Whether the start position's side to move was given (CSA's `+` or `-` line).
    let mut turn = false;
    for e in tree.events(NodeId::GAME) {
        match e {
            Event::Comment(t) => comment(&mut first, &t, out),
            // KIF's and KI2's `*` lines before the first move, and CSA's `'` lines between the
            // start position and the first move, which their readers make properties of the
            // game node: the start position's comments, where JKF's own converters put them
            // (shogi-kifu-converter's expected JKF in the corpus). CSA's `'` lines before the
            // position (`'Max_Moves:256`) are the file's notes, which they drop: so does this.
            Event::Property(p) if p.is_start_comment(turn) => comment(&mut first, &p.value(), out),
            Event::Turn(_) => turn = true,
            // Written by `header` and `initial` (which count what they leave out).
            Event::Info(_) | Event::Setup(_) => {}
            e => lost += content(&e) as u64,
        }
    }
    if !first {
        out.push(b']');
    }
    out.push(b'}');
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut cur = tree.first_child(NodeId::GAME);
    let mut last_main = None;
    // Whether the next element follows another in its list (moves[0] was written).
    let mut comma = true;
    loop {
        if let Some(n) = cur {
            if comma {
                out.push(b',');
            }
            comma = true;
            let before = state;
            let special = element(tree, n, &mut state, out, &mut lost);
            if stack.is_empty() {
                last_main = Some(n);
            }
            let is_first = tree.parent(n).and_then(|p| tree.first_child(p)) == Some(n);
            if let Some(s) = tree.next_sibling(n).filter(|_| is_first) {
                out.extend_from_slice(b",\"forks\":[");
                stack.push(Frame { node: n, next: Some(s), before, after: state, special });
                comma = !open_fork(tree, &mut stack, &mut state, &mut cur, out, true);
                continue;
            }
            out.push(b'}');
            if let Some(s) = special {
                special_element(&s, out);
            }
            cur = tree.first_child(n);
            continue;
        }
        // The line ended: the main line, or a fork (the next fork, or back to its node's line).
        let Some(_) = stack.last() else { break };
        out.push(b']');
        if open_fork(tree, &mut stack, &mut state, &mut cur, out, false) {
            comma = false;
            continue;
        }
        let Some(f) = stack.pop() else { break };
        out.extend_from_slice(b"]}");
        if let Some(s) = f.special {
            special_element(&s, out);
        }
        state = f.after;
        cur = tree.first_child(f.node);
        comma = true;
    }
    if let Some(end) = tree.ending() {
        if let Some(&(name, _)) = SPECIALS.iter().find(|(_, e)| *e == end) {
            let time = last_main.and_then(|n| clocks(tree, n).nth(1));
            out.extend_from_slice(b",{\"special\":");
            str_lit(name, out);
            if let Some(ms) = time {
                out.extend_from_slice(b",\"time\":");
                time_value(ms, None, out);
                // `element` counted every clock of the node after its first as left out.
                lost -= 1;
            }
            out.push(b'}');
        } else {
            lost += 1;
        }
    }
    out.extend_from_slice(b"]}");
    Ok(lost)
}

/// Whether `e` is something the record says (not a warning about it, nor the tree's
/// structure), to count when it is left out.
fn content(e: &Event<'_>) -> bool {
    !matches!(
        e,
        Event::Warning(_)
            | Event::GameStart { .. }
            | Event::GameEnd { .. }
            | Event::Node
            | Event::VariationStart(_)
            | Event::VariationEnd
    )
}

/// Opens the next fork of the frame on top (writing `[`, after a comma unless `first`), from
/// the board before the forked move; `false` when it has none left.
fn open_fork(
    tree: &GameTree<'_>,
    stack: &mut [Frame<'_>],
    state: &mut State,
    cur: &mut Option<NodeId>,
    out: &mut Vec<u8>,
    first: bool,
) -> bool {
    let Some(f) = stack.last_mut() else { return false };
    let Some(s) = f.next else { return false };
    if !first {
        out.push(b',');
    }
    out.push(b'[');
    *state = f.before;
    *cur = Some(s);
    f.next = tree.next_sibling(s);
    true
}

/// The clocks of a node (elapsed milliseconds).
fn clocks<'t>(tree: &'t GameTree<'_>, n: NodeId) -> impl Iterator<Item = u64> + 't {
    tree.events(n).filter_map(|e| match e {
        Event::Clock(c) if c.kind == ClockKind::ElapsedMs => Some(c.value),
        _ => None,
    })
}

/// Writes node `n`'s object up to its closing brace (left open for `forks`); returns a special
/// move it holds (a `Property` named `special`).
/// Counts in `lost` the node's events it leaves out: every clock after the one written with the
/// move (the caller takes back the one it writes as a special move's time), a second move, and
/// the events JKF has no place for.
fn element<'b>(
    tree: &GameTree<'b>,
    n: NodeId,
    state: &mut State,
    out: &mut Vec<u8>,
    lost: &mut u64,
) -> Option<Text<'b>> {
    out.push(b'{');
    let mut first = true;
    let mut special = None;
    let mv = tree.moves(n).find_map(|m| match m {
        Move::Shogi(m) => Some(m),
        Move::Go { .. } => None,
    });
    // The move written, and its time.
    let mut kept = (mv.is_some(), false);
    if let Some(m) = mv {
        key(&mut first, "move", out);
        write_move(m, state, out);
        if let Some(ms) = clocks(tree, n).next() {
            let i = m.color as usize;
            state.totals[i] = state.totals[i].saturating_add(ms / 1000 * 1000);
            key(&mut first, "time", out);
            time_value(ms, Some(state.totals[i]), out);
            kept.1 = true;
        }
    }
    let mut comments = true;
    for e in tree.events(n) {
        match e {
            Event::Move(Move::Shogi(_)) if kept.0 => kept.0 = false,
            Event::Clock(c) if kept.1 && c.kind == ClockKind::ElapsedMs => kept.1 = false,
            Event::Comment(t) => {
                open_comment(&mut first, &mut comments, out);
                string(&t, out);
            }
            Event::Evaluation(v) => {
                // As tsshogi and shogi-kifu-converter keep CSA's `'**` lines: `** 41 -4132KI`.
                open_comment(&mut first, &mut comments, out);
                out.extend_from_slice(b"\"**");
                if let Some(s) = v.score {
                    out.push(b' ');
                    if s < 0 {
                        out.push(b'-');
                    }
                    number(u64::from(s.unsigned_abs()), out);
                }
                if !v.pv.is_empty() {
                    out.push(b' ');
                    escape::pieces(&Text::new(v.pv, TextRule::Plain, Charset::Utf8), |p| escape::json_string(p, out));
                }
                out.push(b'"');
            }
            Event::Property(p) if p.name() == b"special" => special = Some(p.value()),
            e => *lost += content(&e) as u64,
        }
    }
    if !comments {
        out.push(b']');
    }
    special
}

/// Opens `comments` before a node's first comment, else writes the comma between two.
fn open_comment(first: &mut bool, closed: &mut bool, out: &mut Vec<u8>) {
    if *closed {
        key(first, "comments", out);
        out.push(b'[');
        *closed = false;
    } else {
        out.push(b',');
    }
}

/// A special move element `{"special": …}` after a node.
fn special_element(s: &Text<'_>, out: &mut Vec<u8>) {
    out.extend_from_slice(b",{\"special\":");
    string(s, out);
    out.push(b'}');
}

/// `{"color":…,"from":…,"to":…,"piece":…,"same":…,"promote":…,"capture":…}`, and the move
/// made on the board.
fn write_move(m: ShogiMove, state: &mut State, out: &mut Vec<u8>) {
    let at = |s: Square| (usize::from(s.file.clamp(1, 9) - 1), usize::from(s.rank.clamp(1, 9) - 1));
    let mut piece = m.piece;
    let mut promote = false;
    if let Some(from) = m.from {
        let (x, y) = at(from);
        if let Some((_, before)) = state.board[x][y] {
            if before.promoted() == Some(m.piece) {
                piece = before;
                promote = true;
            }
        }
        state.board[x][y] = None;
    }
    let (x, y) = at(m.to);
    let capture = state.board[x][y].filter(|&(c, p)| c != m.color && p != Piece::King).map(|(_, p)| p);
    state.board[x][y] = Some((m.color, m.piece));
    out.extend_from_slice(b"{\"color\":");
    out.push(if m.color == Color::Black { b'0' } else { b'1' });
    if let Some(from) = m.from {
        out.extend_from_slice(b",\"from\":");
        place(from, out);
    }
    out.extend_from_slice(b",\"to\":");
    place(m.to, out);
    out.extend_from_slice(b",\"piece\":");
    str_lit(piece.csa(), out);
    if state.last_to == Some(m.to) {
        out.extend_from_slice(b",\"same\":true");
    }
    if promote {
        out.extend_from_slice(b",\"promote\":true");
    }
    if let Some(p) = capture {
        out.extend_from_slice(b",\"capture\":");
        str_lit(p.csa(), out);
    }
    out.push(b'}');
    state.last_to = Some(m.to);
}

fn place(s: Square, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"x\":");
    number(u64::from(s.file), out);
    out.extend_from_slice(b",\"y\":");
    number(u64::from(s.rank), out);
    out.push(b'}');
}

/// `{"now":{"m":…,"s":…},"total":{"h":…,"m":…,"s":…}}` (whole seconds); without `total` when
/// `None`.
fn time_value(ms: u64, total: Option<u64>, out: &mut Vec<u8>) {
    let s = ms / 1000;
    out.extend_from_slice(b"{\"now\":{\"m\":");
    number(s / 60, out);
    out.extend_from_slice(b",\"s\":");
    number(s % 60, out);
    out.push(b'}');
    let t = total.unwrap_or(ms) / 1000;
    out.extend_from_slice(b",\"total\":{\"h\":");
    number(t / 3600, out);
    out.extend_from_slice(b",\"m\":");
    number(t / 60 % 60, out);
    out.extend_from_slice(b",\"s\":");
    number(t % 60, out);
    out.extend_from_slice(b"}}");
}

/// The game node's infos as header members.
fn header(tree: &GameTree<'_>, out: &mut Vec<u8>, lost: &mut u64) {
    let mut first = true;
    let mut written: Vec<String> = Vec::new();
    for e in tree.events(NodeId::GAME) {
        let Event::Info(i) = e else { continue };
        let own = Text::new(i.name(), TextRule::Plain, i.value().charset());
        let mut name = String::new();
        escape::pieces(&own, |p| name.push_str(p));
        let same_meaning = !name.is_empty() && header_key(name.as_bytes()) == i.key();
        let name = if same_meaning {
            name
        } else if let Some(&(k, _)) = HEADER.iter().find(|(_, key)| *key == i.key()) {
            k.to_string()
        } else if i.key() == InfoKey::Other && !name.is_empty() {
            name
        } else {
            *lost += 1;
            continue;
        };
        if written.contains(&name) {
            *lost += 1;
            continue;
        }
        key(&mut first, &name, out);
        string(&i.value(), out);
        written.push(name);
    }
}

/// `initial`: a preset when the start position is one, else `OTHER` and its data; fills the
/// board.
fn initial(tree: &GameTree<'_>, board: &mut Board, out: &mut Vec<u8>, lost: &mut u64) {
    let mut hands = [[0u8; 14]; 2];
    let mut turn = Color::Black;
    let mut any = false;
    for e in tree.events(NodeId::GAME) {
        match e {
            Event::Setup(Setup::Shogi { color, piece, square }) => {
                any = true;
                match square {
                    Some(s) if (1..=9).contains(&s.file) && (1..=9).contains(&s.rank) => {
                        board[usize::from(s.file - 1)][usize::from(s.rank - 1)] = Some((color, piece))
                    }
                    Some(_) => *lost += 1,
                    None => {
                        let h = &mut hands[color as usize][piece_index(piece)];
                        *h = h.saturating_add(1);
                    }
                }
            }
            Event::Setup(Setup::ShogiRemove { square: s })
                if (1..=9).contains(&s.file) && (1..=9).contains(&s.rank) =>
            {
                board[usize::from(s.file - 1)][usize::from(s.rank - 1)] = None;
            }
            Event::Setup(Setup::ShogiRemove { .. }) => *lost += 1,
            Event::Turn(c) => turn = c,
            _ => {}
        }
    }
    if !any {
        for file in 1..=9u8 {
            for rank in 1..=9u8 {
                board[usize::from(file - 1)][usize::from(rank - 1)] = standard(file, rank);
            }
        }
        out.extend_from_slice(b"{\"preset\":\"HIRATE\"}");
        return;
    }
    let empty_hands = hands.iter().all(|h| h.iter().all(|&n| n == 0));
    let preset = PRESETS.iter().find(|(_, removed)| {
        let want = if removed.is_empty() { Color::Black } else { Color::White };
        empty_hands
            && turn == want
            && (1..=9u8).all(|f| {
                (1..=9u8).all(|r| {
                    let expect = standard(f, r).filter(|_| !removed.contains(&(f, r)));
                    board[usize::from(f - 1)][usize::from(r - 1)] == expect
                })
            })
    });
    if let Some(&(name, _)) = preset {
        out.extend_from_slice(b"{\"preset\":");
        str_lit(name, out);
        out.push(b'}');
        return;
    }
    out.extend_from_slice(b"{\"preset\":\"OTHER\",\"data\":{\"color\":");
    out.push(if turn == Color::Black { b'0' } else { b'1' });
    out.extend_from_slice(b",\"board\":[");
    for (x, col) in board.iter().enumerate() {
        if x > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for (y, sq) in col.iter().enumerate() {
            if y > 0 {
                out.push(b',');
            }
            match sq {
                Some((c, p)) => {
                    out.extend_from_slice(b"{\"color\":");
                    out.push(if *c == Color::Black { b'0' } else { b'1' });
                    out.extend_from_slice(b",\"kind\":");
                    str_lit(p.csa(), out);
                    out.push(b'}');
                }
                None => out.extend_from_slice(b"{}"),
            }
        }
        out.push(b']');
    }
    out.extend_from_slice(b"],\"hands\":[");
    for (i, h) in hands.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'{');
        let mut first = true;
        for (j, &n) in h.iter().enumerate() {
            if n > 0 {
                key(&mut first, Piece::ALL[j].csa(), out);
                number(u64::from(n), out);
            }
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}}");
}

fn piece_index(p: Piece) -> usize {
    Piece::ALL.iter().position(|&q| q == p).unwrap_or(0)
}

/// A comment into `comments` (opened before the first).
fn comment(first: &mut bool, t: &Text<'_>, out: &mut Vec<u8>) {
    if *first {
        out.extend_from_slice(b"\"comments\":[");
        *first = false;
    } else {
        out.push(b',');
    }
    string(t, out);
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

/// Appends `"…"`: the text decoded and escaped as a JSON string.
fn string(t: &Text<'_>, out: &mut Vec<u8>) {
    out.push(b'"');
    escape::pieces(t, |p| escape::json_string(p, out));
    out.push(b'"');
}

fn str_lit(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    escape::json_string(s, out);
    out.push(b'"');
}

/// Appends a decimal number.
fn number(v: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(v, out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers() {
        let mut out = Vec::new();
        super::number(0, &mut out);
        super::number(1234, &mut out);
        assert_eq!(out, b"01234");
    }
}
