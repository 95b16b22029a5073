//! The KI2 pull reader: a game's layout is found first (the core's `scan`: its end and its
//! `変化` blocks), then its lines are read in tree order, one event per call, with an explicit
//! stack of the lines of play being read (a `変化` block is read where it branches off, then
//! the line it branches from goes on). What KI2 shares with KIF (the charset, headers, start
//! positions, the stack of lines of play) is the core's `kit::kakinoki::game`; here are KI2's
//! own steps: several moves to a line, each written without its origin and resolved against
//! the board each line of play keeps (and the board before its last move, where a variation
//! replacing that move starts).

use super::token::{self, classify, Token};
use crate::error::{Error, ErrorKind, Limit, Position, WarningKind};
use crate::event::{Branch, Color, Ending, Event, Piece, ShogiMove, Square};
use crate::input::{ChunkContext, Config};
use crate::kit::kakinoki::game::{self, Dialect, Flavor, Game};
use crate::kit::kakinoki::lex::{self, line_end, Enc, Kind};
use crate::kit::kakinoki::reach::{self, Board, Undo, MAX_CANDIDATES};
use crate::text::Charset;

/// What KI2 tells the shared machine.
const FLAVOR: Flavor = Flavor { programs: &[b"#KIF", b"#KI2"], binary: "binary data, not a KI2 record" };

/// The board of a line of play after its last move, and what takes that move back (where a
/// variation replacing it starts); kept beside the shared machine's frames (in
/// `Reader::boards`, one per frame) so that a frame stays small to copy.
#[derive(Clone, Copy, Debug)]
struct Boards {
    board: Board,
    undo: Undo,
    /// The line's moves are read in the other parity than their numbers give (an odd number of
    /// wrong-side moves so far, see [`Reader`]): the side to move is flipped.
    flip: bool,
    /// `flip` before the last move (a variation replacing that move starts with it).
    flip_before: bool,
}

impl Boards {
    fn new(board: Board, flip: bool) -> Boards {
        Boards { board, undo: Undo::NONE, flip, flip_before: flip }
    }
}

/// Whether `color` (the side to move) can make the move `w` to `to` on `board`, whatever its
/// mark says: onto a square without a piece of its own, a drop (`打`, or no piece that can move
/// there, as [`Reader::play`] reads it) from its hand onto an empty one, or a move of a piece
/// the words leave.
fn resolves(board: &Board, w: &token::Written, color: Color, to: Square) -> bool {
    let held = board.get(to);
    if held.is_some_and(|(c, _)| c == color) {
        return false;
    }
    let in_hand = board.in_hand(color, w.piece) > 0 && held.is_none();
    if w.drop {
        return in_hand;
    }
    let mut c = [Square::new(0, 0); MAX_CANDIDATES];
    let n = board.reach(color, w.piece, to, &mut c);
    if n == 0 {
        return in_hand && w.promote.is_none();
    }
    reach::filter(&mut c, n, color, to, w.words) > 0
}

/// Reads KI2 records from a byte slice, returning one [`Event`] per call; see the
/// [module docs](super) for the mapping.
///
/// # The side to move and the marks
/// A move is read for the side to move: the start position's side on odd moves of a line, the
/// other on even ones, unless a wrong-side move flipped that parity. A move whose mark (`▲`
/// `☗` `▼` Black, `△` `☖` `▽` White) names the other side is read as the side to move's when
/// that side can make it (a piece of its own the words leave can move there, not onto its own
/// piece, or a drop from its hand onto an empty square): the mark is a slip, `BadValue` after
/// the move, and the parity stays (as the reader did before it followed marks). Otherwise the mark
/// wins: the move is the marked side's, with a `WrongSide` warning after it (at its mark), and
/// the parity flips from there, so that the marks after it read cleanly (a record missing a
/// move, or with a wrong mark, gives one warning, not one per later move); when the marked
/// side cannot make it either, it is skipped with its `NoPieceCanMove` warning alone (and the
/// parity flips all the same). A variation starts with the parity its line had before the move
/// it replaces (`変化：N手` replaces move N, so a flip at move N or later does not reach it, one
/// before N does), and a flip inside it stays in it.
///
/// A special move written with a mark (`▲投了`, `△中断`) is the side to move's whatever its
/// mark: any side can resign or stop a game, so by the rule above a mark naming the other side
/// is a slip, `BadValue` after the special (after its `Property` in a variation; on the main
/// line before `GameEnd`), and the parity stays: `GameEnd`'s ending is the side to move's (it
/// resigned; `反則負け` gives its `IllegalAction…`), as the count of moves says. A right mark
/// gives nothing.
///
/// A move without a mark (`７六歩`) is the side to move's (no mark names another side, nothing
/// flips): `MissingValue` after it at its first byte, before any other warning of the move;
/// when the side to move cannot make it, it is skipped with its `NoPieceCanMove` alone. Unmarked
/// text that is not such a move where a token starts (after a move, a special or another
/// unmarked move) is skipped up to the next mark or the next unmarked move after white space:
/// one `Repaired` warning per stretch, at its first byte.
///
/// A marked move that does not read (`▲７x歩`: a mark, then a file digit or `同`) is skipped
/// with `UnreadableMove` (`Truncated` at the input's end), and its turn passes, as for a move no
/// piece can make: the marks after it and a `変化：N手` block count it as the record does
/// (before 2026-11-29 it was `BadValue` and its turn did not pass, so the next move was the
/// wrong side's and a variation after it attached one move off). A mark followed by anything
/// else that is not a special move's word is skipped with `BadValue` and is no move.
///
/// (Trying the mark first, whenever the marked side can make the move, reads a record missing
/// a move a little better and one with a mistyped mark much worse: on 40 corpus games each
/// with one mark swapped, 46 warnings and 99 replay errors against 40 and 0.)
#[derive(Debug)]
pub struct Reader<'a> {
    g: Game<'a>,
    /// A board per frame of `g` (after a game's error, until the next game starts, maybe more).
    boards: Vec<Boards>,
}

impl<'a> Reader<'a> {
    /// A lenient reader with default limits over `input`.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_config(input, Config::default())
    }

    /// A reader with the given configuration.
    pub fn with_config(input: &'a [u8], config: Config) -> Reader<'a> {
        Reader { g: Game::new(input, config, FLAVOR), boards: Vec::new() }
    }

    /// Fixes the charset, overriding declarations and detection.
    pub fn with_charset(mut self, charset: Charset) -> Reader<'a> {
        self.g.forced = Some(charset);
        self
    }

    /// Reads a game cut out of a larger file by a splitter: the context's charset is used.
    pub fn with_context(mut self, context: ChunkContext<'a>) -> Reader<'a> {
        if let Some(c) = context.charset {
            self.g.forced = Some(c);
        }
        self
    }

    /// The charset of the file (known after the first event).
    pub fn charset(&self) -> Charset {
        self.g.charset
    }

    /// The input being read.
    pub fn input(&self) -> &'a [u8] {
        self.g.input
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.g.games
    }

    #[inline]
    fn next_item(&mut self) -> Option<Result<Event<'a>, Error>> {
        game::next_item(self)
    }

    /// Keeps a board per frame after the shared machine entered a variation of frame `fi` (the
    /// frame's board, its last move taken back for a sibling) or left a frame.
    fn sync_boards(&mut self, fi: usize, r: &Option<Result<Event<'a>, Error>>) {
        let n = self.g.frames.len();
        if n > self.boards.len() {
            let l = &self.boards[fi];
            let (mut board, mut flip) = (l.board, l.flip);
            if matches!(r, Some(Ok(Event::VariationStart(Branch::Sibling)))) {
                board.undo(&l.undo);
                flip = l.flip_before;
            }
            self.boards.push(Boards::new(board, flip));
        } else {
            self.boards.truncate(n);
        }
    }

    /// Whether frame `fi`'s next variation branches from it (else the shared `enter_kid` has
    /// nothing to do).
    #[inline]
    fn kid_here(&self, fi: usize) -> bool {
        let g = &self.g;
        let f = &g.frames[fi];
        g.kids.get(f.kid).is_some_and(|&k| g.blocks.get(k as usize).is_some_and(|b| b.parent == f.block))
    }

    /// The next token of the move line frame `fi` is in: a move, resolved against the frame's
    /// board, or a special move; `None` at the line's end.
    fn token(&mut self, fi: usize) -> Option<Result<Event<'a>, Error>> {
        let enc = self.g.enc;
        let f = self.g.frames[fi];
        let seg = &self.g.input[..f.line_end];
        let i = lex::skip_spaces(seg, f.pos, enc);
        if i >= f.line_end {
            let fr = &mut self.g.frames[fi];
            fr.pos = f.line_next;
            fr.line_end = 0;
            return None;
        }
        let (tok, after) = token::token(seg, i, enc);
        if tok != Token::Text && !f.ended && self.kid_here(fi) {
            // The variations that replace the last move come before the next one.
            let r = self.g.enter_kid(fi, false);
            self.sync_boards(fi, &r);
            if r.is_some() {
                return r;
            }
        }
        self.g.stmt_offset = i;
        // The next token starts right after a move or special (white space, a mark or text
        // after it is judged then); after a bad token or text, at the next mark or move (see
        // `token::next_token`): progress either way.
        self.g.frames[fi].pos = match tok {
            Token::Move(_) | Token::Special { .. } => after.max(i + 1),
            Token::Bad(_) => token::next_token(seg, after.max(i + 1), enc),
            Token::Text => token::next_token(seg, i + lex::char_len(seg, i, enc).max(1), enc),
        };
        if tok == Token::Text {
            // A stretch of unmarked text that is not a move: skipped.
            return Some(self.g.warn(WarningKind::Repaired, i));
        }
        if f.ended {
            // A move (or a token marked as one) after the special move that ended the line:
            // skipped.
            return Some(self.g.warn(WarningKind::MoveAfterEnd, i));
        }
        let ply = f.ply + 1;
        let color =
            if (ply % 2 == 1) != self.boards[fi].flip { self.g.start_color } else { self.g.start_color.opponent() };
        match tok {
            Token::Move(w) => self.play(fi, w, color, ply, i),
            Token::Special { color: mark, word, ending, known } => {
                self.g.frames[fi].ended = true;
                // Any side can end the game: a mark naming the other side is a slip, and the
                // special stays the side to move's (the one `GameEnd` names).
                let slip = mark != color;
                let prop = self.g.special(word);
                if fi != 0 {
                    if slip {
                        if let Err(e) = self.g.queue_warning(WarningKind::BadValue, i) {
                            return Some(Err(e));
                        }
                    }
                    return Some(Ok(prop));
                }
                self.g.ending = Some(ending.unwrap_or(match color {
                    Color::Black => Ending::IllegalActionBlack,
                    Color::White => Ending::IllegalActionWhite,
                }));
                if !known {
                    self.g.queue.push(prop);
                    if let Err(e) = self.g.queue_warning(WarningKind::UnknownKey, i) {
                        return Some(Err(e));
                    }
                }
                if slip {
                    if let Err(e) = self.g.queue_warning(WarningKind::BadValue, i) {
                        return Some(Err(e));
                    }
                }
                None
            }
            Token::Bad(off) => {
                let truncated = f.line_end == self.g.input.len() && self.g.frames[fi].pos >= f.line_end;
                let shaped = token::is_move_shaped(seg, i, enc);
                let kind = match (truncated, shaped) {
                    (true, _) => WarningKind::Truncated,
                    (false, true) => WarningKind::UnreadableMove,
                    (false, false) => WarningKind::BadValue,
                };
                if shaped {
                    // A move whose destination or piece does not read (`▲７x歩`): skipped, but
                    // its turn passes, as the layout scan counts it (a `変化：N手` block counts
                    // it too) and as the marks after it say.
                    self.pass(fi, ply);
                }
                Some(self.g.warn(kind, off))
            }
            Token::Text => None,
        }
    }

    /// A move of frame `fi` read at `at` for the side to move `color` (or its mark's, see
    /// [`Reader`]): its origin found on the board (a drop when it says `打`, or when no piece on
    /// the board can move there and the hand has one).
    fn play(
        &mut self,
        fi: usize,
        w: token::Written,
        color: Color,
        ply: u32,
        at: usize,
    ) -> Option<Result<Event<'a>, Error>> {
        let f = &self.g.frames[fi];
        let Some(to) = w.to.or(f.last_to) else {
            return Some(self.g.warn(WarningKind::BadValue, at));
        };
        let (mut bad, mut wrong, mut color) = (None, false, color);
        let l = &mut self.boards[fi];
        l.flip_before = l.flip;
        // No mark: the side to move's move, `MissingValue` after it.
        let missing = w.color.is_none().then_some(WarningKind::MissingValue);
        if let Some(mark) = w.color.filter(|&c| c != color) {
            if !resolves(&l.board, &w, color, to) {
                // The side to move cannot make it: the marked side's move, and the parity
                // flips.
                color = mark;
                l.flip = !l.flip;
                wrong = true;
            } else {
                bad = Some(WarningKind::BadValue);
            }
        }
        let mut piece = w.piece;
        if w.promote == Some(true) {
            match piece.promoted() {
                Some(p) => piece = p,
                None => bad = Some(WarningKind::BadValue),
            }
        }
        let board = &self.boards[fi].board;
        let mut c = [Square::new(0, 0); MAX_CANDIDATES];
        let n = if w.drop { 0 } else { board.reach(color, w.piece, to, &mut c) };
        // A written origin (`▲５八金(69)`) names the piece when it can make the move (direction
        // words or not); one that cannot is a slip: `BadValue`, and the board decides.
        let written = w.origin.filter(|o| !w.drop && c[..n].contains(o));
        let slip = (w.origin.is_some() && written.is_none()).then_some(WarningKind::BadValue);
        let from = if written.is_some() {
            written
        } else if w.drop || (n == 0 && w.promote.is_none() && board.in_hand(color, w.piece) > 0) {
            if w.promote.is_some() || w.piece.is_promoted() || w.piece == Piece::King || board.get(to).is_some() {
                bad = Some(WarningKind::BadValue);
            }
            None
        } else {
            let k = reach::filter(&mut c, n, color, to, w.words);
            if k == 0 {
                return Some(self.skip(fi, to, ply, at));
            }
            let mut pick = c[0];
            if k > 1 {
                // Geometry leaves several: keep those that do not leave the own king in check.
                let (mut legal, mut first) = (0, pick);
                for &from in &c[..k] {
                    let mut b = *board;
                    b.play(ShogiMove { color, from: Some(from), to, piece });
                    if !b.in_check(color) {
                        if legal == 0 {
                            first = from;
                        }
                        legal += 1;
                    }
                }
                if legal == 1 {
                    pick = first;
                } else {
                    bad = Some(WarningKind::AmbiguousMove);
                }
            }
            Some(pick)
        };
        self.g.nodes += 1;
        if self.g.nodes > self.g.config.limits.max_nodes {
            return Some(Err(self.g.fail(ErrorKind::LimitExceeded(Limit::Nodes), at, "too many moves")));
        }
        let m = ShogiMove { color, from, to, piece };
        self.g.frames[fi].advance(ply, to);
        let l = &mut self.boards[fi];
        l.undo = l.board.play_undo(m);
        self.g.pending_move = Some(m);
        for kind in [missing, wrong.then_some(WarningKind::WrongSide), slip, bad].into_iter().flatten() {
            if let Err(e) = self.g.queue_warning(kind, at) {
                return Some(Err(e));
            }
        }
        Some(Ok(Event::Node))
    }

    /// A move of frame `fi` at `ply` that does not read: nothing is played, and its turn passes
    /// (the next `同` has no square to refer to).
    fn pass(&mut self, fi: usize, ply: u32) {
        self.g.frames[fi].skip(ply, None);
        self.boards[fi].undo = Undo::NONE;
    }

    /// A move of frame `fi` that no piece can make (at `at`, to `to`, ply `ply`): a
    /// `NoPieceCanMove` warning, and the move is skipped but its turn passes, so that the next
    /// move is read for the side its mark names (`同` after it means `to`); the board stays as
    /// it was, and a variation replacing the move starts from it.
    fn skip(&mut self, fi: usize, to: Square, ply: u32, at: usize) -> Result<Event<'a>, Error> {
        self.g.frames[fi].skip(ply, Some(to));
        self.boards[fi].undo = Undo::NONE;
        self.g.warn(WarningKind::NoPieceCanMove, at)
    }

    /// A `まで…` line: the game's ending on the main line (when no special move gave one), a
    /// `Property` named by its special move word in a variation.
    fn summary(&mut self, fi: usize, line: &'a [u8]) -> Option<Result<Event<'a>, Error>> {
        let (ending, word) = token::summary(line, self.g.enc)?;
        let f = &mut self.g.frames[fi];
        if f.ended {
            return None;
        }
        f.ended = true;
        if fi != 0 {
            return Some(Ok(self.g.special(word)));
        }
        self.g.ending = Some(ending);
        None
    }
}

impl<'a> Dialect<'a> for Reader<'a> {
    #[inline(always)]
    fn game(&mut self) -> &mut Game<'a> {
        &mut self.g
    }

    fn classify(line: &[u8], enc: Enc) -> Kind {
        classify(line, enc)
    }

    fn count(line: &[u8], _kind: Kind, enc: Enc) -> (u32, bool) {
        token::count(line, enc)
    }

    fn started(&mut self) {
        self.boards.clear();
        self.boards.push(Boards::new(Board::default(), false));
    }

    fn placed(&mut self, color: Color, piece: Piece, square: Option<Square>) {
        self.boards[0].board.put(color, piece, square);
    }

    /// One line of the current line of play (a move line: one token of it), or a step between
    /// lines.
    fn step(&mut self) -> Option<Result<Event<'a>, Error>> {
        let fi = self.g.frames.len() - 1;
        let f = self.g.frames[fi];
        if f.pos < f.line_end {
            return self.token(fi);
        }
        if f.pos >= f.end {
            let r = self.g.frame_end(fi);
            self.sync_boards(fi, &r);
            return r;
        }
        let g = &mut self.g;
        let input = g.input;
        let (e, next) = line_end(input, f.pos);
        let line = &input[f.pos..e];
        let kind = classify(line, g.enc);
        if kind.is_body() && !g.started {
            return g.begin_body();
        }
        g.frames[fi].pos = next;
        g.stmt_offset = f.pos;
        if line.len() > g.config.limits.max_value_len {
            return Some(Err(g.fail(ErrorKind::LimitExceeded(Limit::ValueSize), f.pos, "line too long")));
        }
        match kind {
            Kind::Move { .. } => {
                // Its tokens are read one per step, from the line's start.
                let fr = &mut g.frames[fi];
                fr.pos = f.pos;
                fr.line_end = e;
                fr.line_next = next;
                None
            }
            Kind::Summary => self.summary(fi, line),
            _ => g.line(kind, line, f.pos, f.ply),
        }
    }
}

crate::kit::source::event_source! { Reader, next_item;
    /// The byte offset of the line that produced the last event.
    fn event_offset(&self) -> Option<u64> {
        Some(self.g.stmt_offset as u64)
    }

    /// Skips to the end of the current game (or the whole next game) without building events:
    /// the game's end is known from its layout.
    fn skip_game(&mut self) -> Result<bool, Error> {
        game::skip_game(self)
    }

    fn locate(&mut self, offset: u64) -> Position {
        self.g.lines.locate(self.g.input, offset)
    }
}
