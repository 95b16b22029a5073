//! Replaying games on the boards of `kifu::position` for `kifu stats --replay` and `kifu check
//! --replay`: every illegal move with where it is.

use kifu::position::go::{parse_size, Board, IllegalKind, Rules};
use kifu::position::shogi::ShogiPosition;
use kifu::{Branch, Color, ErrorKind, Event, EventSource, Format, InfoKey, Move, Point, Setup, ShogiMove, WarningKind};

/// One illegal move.
pub struct Illegal {
    /// Byte offset in the file.
    pub offset: u64,
    /// The kind's stable name (`occupied`, `suicide`, `ko`, … for Go; the shogi position's kinds;
    /// the reader's warning kind for one the reader refused, see `by_reader`).
    pub kind: &'static str,
    /// Its number among the moves of its line of play, from 1.
    pub number: u32,
    /// The reader refused the move itself and said so (USI's `illegal_move` or KI2's
    /// `no_piece_can_move` warning, or its strict error): USI, whose moves do not name their
    /// piece, and KI2, whose moves do not name their origin, play them on a board of their own
    /// and give no move they cannot play, so the replay never sees it.
    pub by_reader: bool,
}

/// Whether a reader's warning of `kind` stands for a move it refused to give because it cannot
/// be played: USI's `illegal_move`, KI2's `no_piece_can_move` (their moves name no origin or no
/// piece, so the reader places each on a board of its own and skips one it cannot place).
fn refused(kind: WarningKind) -> bool {
    matches!(kind, WarningKind::IllegalMove | WarningKind::NoPieceCanMove)
}

/// Every illegal move of every game `reader` gives (a source of `format`), those the reader
/// refused itself included (see [`Illegal::by_reader`]).
pub fn illegal_moves_in<S: EventSource + ?Sized>(reader: &mut S, format: Format) -> Vec<Illegal> {
    let mut out = Vec::new();
    if format.kind() == kifu::GameKind::Shogi {
        let mut lines = ShogiLines::default();
        loop {
            let illegal = match reader.next_event() {
                None => break,
                Some(Err(e)) => {
                    if let ErrorKind::Strict(k) = e.kind() {
                        if refused(k) {
                            let (offset, number) = (e.position().offset, lines.number + 1);
                            out.push(Illegal { offset, kind: k.as_str(), number, by_reader: true });
                        }
                    }
                    continue;
                }
                Some(Ok(Event::Warning(w))) if refused(w.kind) => {
                    let number = lines.skipped();
                    out.push(Illegal { offset: w.offset, kind: w.kind.as_str(), number, by_reader: true });
                    continue;
                }
                // Another move the reader skipped (one that does not read): not an illegal
                // move, but its turn passes, as the reader passes it.
                Some(Ok(Event::Warning(w))) if w.kind.passes_turn() => {
                    lines.skipped();
                    continue;
                }
                Some(Ok(ev)) => lines.event(&ev),
            };
            if let Some((kind, number)) = illegal {
                let at = reader.event_offset().unwrap_or(0);
                out.push(Illegal { offset: at, kind, number, by_reader: false });
            }
        }
        return out;
    }
    let mut lines = Lines::default();
    loop {
        let illegal = match reader.next_event() {
            None => break,
            Some(Err(_)) => continue, // counted as an error by the plain reading pass
            Some(Ok(ev)) => lines.event(&ev),
        };
        if let Some((kind, number)) = illegal {
            let at = reader.event_offset().unwrap_or(lines.game_offset);
            out.push(Illegal { offset: at, kind: kind.as_str(), number, by_reader: false });
        }
    }
    out
}

/// Replays every line of a shogi game, variations included. A [`Branch::Sibling`] variation
/// (KIF's and KI2's `変化`, right after the move it replaces) starts from the position before
/// that move, a [`Branch::Child`] one from the current position; the line a variation left is
/// put back at its end. A move that cannot be played is not played, but its turn passes (the
/// next move is judged as its side's, not reported as `wrong_side` because of the one before).
/// Moves are numbered along their own line. A move by the side not to move that the reader
/// itself read as such (KI2's `wrong_side` warning after it: its mark named that side, and the
/// reader went on in the marks' parity) is reported, then played as its side's, as the reader
/// did, so that the moves after it are judged on the reader's board.
#[derive(Default)]
struct ShogiLines {
    pos: ShogiPosition,
    /// Moves on the current line so far.
    number: u32,
    /// The position and `number` before the current line's last move.
    before: (ShogiPosition, u32),
    /// Per open variation: the position and `number` of the line it left, and that line's
    /// `before`.
    saved: Vec<((ShogiPosition, u32), (ShogiPosition, u32))>,
    /// The last event was a move refused as `wrong_side`.
    wrong_side: Option<ShogiMove>,
}

impl ShogiLines {
    /// Applies one event; an illegal move's kind and number.
    fn event(&mut self, ev: &Event<'_>) -> Option<(&'static str, u32)> {
        let wrong_side = self.wrong_side.take();
        match *ev {
            Event::GameStart { .. } => {
                *self = ShogiLines::default();
                return None;
            }
            Event::VariationStart(branch) => {
                self.saved.push(((self.pos, self.number), self.before));
                if branch == Branch::Sibling {
                    (self.pos, self.number) = self.before;
                }
                return None;
            }
            Event::VariationEnd => {
                if let Some((line, before)) = self.saved.pop() {
                    ((self.pos, self.number), self.before) = (line, before);
                }
                return None;
            }
            Event::Warning(w) if w.kind == WarningKind::WrongSide => {
                // The reader played the move as its side's: so does the replay.
                if let Some(m) = wrong_side {
                    let side = self.pos.side_to_move();
                    self.pos.set_side_to_move(m.color);
                    if self.pos.apply(&Event::Move(Move::Shogi(m))).is_err() {
                        self.pos.set_side_to_move(side);
                    }
                }
                return None;
            }
            _ => {}
        }
        let mover = match *ev {
            Event::Move(Move::Shogi(m)) => {
                self.before = (self.pos, self.number);
                self.number += 1;
                Some(m.color)
            }
            _ => None,
        };
        let kind = self.pos.apply(ev).err()?;
        if let Some(c) = mover {
            let _ = self.pos.apply(&Event::Turn(c.opponent()));
            if let (Event::Move(Move::Shogi(m)), kifu::position::shogi::Illegal::WrongSide) = (ev, kind) {
                self.wrong_side = Some(*m);
            }
        }
        Some((kind.as_str(), self.number))
    }

    /// A move the reader skipped (and said so: a refused move, or one that does not read): its
    /// number; its turn passes, as the reader passes it (KIF, KI2, CSA; USI's reader drops the
    /// rest of the line).
    fn skipped(&mut self) -> u32 {
        self.before = (self.pos, self.number);
        self.number += 1;
        let side = self.pos.side_to_move().opponent();
        let _ = self.pos.apply(&Event::Turn(side));
        self.number
    }
}

/// One step of a line of play, kept to rebuild the position before a node.
#[derive(Clone, Copy)]
enum Step {
    Stone(Option<Color>, Point),
    Move(Color, Option<Point>),
}

/// What a variation changes, put back at its end.
struct Saved {
    board: Option<Board>,
    /// The line's length when the variation opened (after a sibling's split).
    len: usize,
    /// The steps a sibling variation took off the line (the current node's), to put back.
    path: Vec<Step>,
    number: u32,
    node: (usize, u32),
}

/// Replays every line of a Go game, variations included: the board is copied when a variation
/// opens and put back when it closes. A [`Branch::Child`] variation continues from the current
/// position; a [`Branch::Sibling`] one (Jago XML) is an alternative to the current node, so the
/// position before that node is rebuilt from the line's steps. Moves are numbered along their
/// own line.
#[derive(Default)]
struct Lines {
    board: Option<Board>,
    size: (u8, u8),
    rules: Rules,
    /// Moves on the current line so far.
    number: u32,
    /// The current line's setup and moves, in order.
    path: Vec<Step>,
    /// Where the current node starts: its index in `path`, and `number` then.
    node: (usize, u32),
    saved: Vec<Saved>,
    game_offset: u64,
    /// The last game's board, reset for the next game rather than made anew (a new board is
    /// 32 KiB to zero: a fifth of `kifu stats --replay`'s instructions on sgf/collections).
    spare: Option<Board>,
}

impl Lines {
    /// The line's board, made at its first setup or move: the spare one reset to the game's size
    /// and rules, or a new one (19 × 19 with the default rules when the size is out of range).
    fn board(&mut self) -> &mut Board {
        let (size, rules) = (self.size, self.rules);
        let spare = &mut self.spare;
        self.board.get_or_insert_with(|| {
            let mut b = spare.take().unwrap_or_default();
            b.reset_or_default(size.0, size.1, rules);
            b
        })
    }

    /// Applies one event; an illegal move's kind and number.
    fn event(&mut self, ev: &Event<'_>) -> Option<(IllegalKind, u32)> {
        match *ev {
            Event::GameStart { offset } => {
                let spare = self.board.take().or(self.spare.take());
                *self = Lines { size: (19, 19), game_offset: offset, spare, ..Lines::default() };
            }
            Event::Info(i) if i.key() == InfoKey::BoardSize && self.board.is_none() => {
                self.size = parse_size(i.value().raw()).unwrap_or((19, 19));
            }
            Event::Info(i) if i.key() == InfoKey::Rules => {
                self.rules = Rules::from_name(&i.value().decode().text);
                let rules = self.rules;
                if let Some(b) = self.board.as_mut() {
                    b.set_rules(rules);
                }
            }
            Event::Node => self.node = (self.path.len(), self.number),
            Event::Setup(Setup::Go { color, point }) => {
                self.board().set(point, color);
                self.path.push(Step::Stone(color, point));
            }
            Event::Move(Move::Go { color, point }) => {
                self.number += 1;
                self.path.push(Step::Move(color, point));
                if let Err(kind) = self.board().play(color, point) {
                    return Some((kind, self.number));
                }
            }
            Event::VariationStart(branch) => {
                let mut saved = Saved {
                    board: self.board.clone(),
                    len: self.path.len(),
                    path: Vec::new(),
                    number: self.number,
                    node: self.node,
                };
                if branch == Branch::Sibling {
                    // An alternative to the current node: back to the position before it.
                    let (at, number) = self.node;
                    saved.path = self.path.split_off(at.min(self.path.len()));
                    saved.len = self.path.len();
                    self.number = number;
                    self.rebuild();
                }
                self.saved.push(saved);
            }
            Event::VariationEnd => {
                if let Some(s) = self.saved.pop() {
                    self.path.truncate(s.len);
                    self.path.extend(s.path);
                    self.board = s.board;
                    self.number = s.number;
                    self.node = s.node;
                }
            }
            _ => {}
        }
        None
    }

    /// Replays `path` on a fresh board (illegal moves were reported when first met).
    fn rebuild(&mut self) {
        if let Some(b) = self.board.take() {
            self.spare = Some(b);
        }
        if self.path.is_empty() {
            return;
        }
        let path = std::mem::take(&mut self.path);
        let board = self.board();
        for step in &path {
            match *step {
                Step::Stone(color, point) => {
                    board.set(point, color);
                }
                Step::Move(color, point) => {
                    let _ = board.play(color, point);
                }
            }
        }
        self.path = path;
    }
}
