//! The start position, written as its setup events come, in the form that reads back as the
//! same events in the same order:
//! - `PI` and its removals (`PI82HI22KA`) when the events are the 40 standard pieces in the
//!   order `PI` gives them, then emptied standard squares;
//! - else `P1`–`P9` rows while board pieces come in row order (rank 1 to 9, file 9 to 1), all
//!   nine rows written once rows are used;
//! - else `P+`/`P-` lines, a new line where the colour changes (`P+00FU00KI`, `P-55KA`).
//!
//! Nothing is buffered: the standard pieces are counted (and replayed from the table if the run
//! breaks off), rows are written cell by cell behind a cursor.

use crate::csa::board::STANDARD;
use crate::event::{Color, Piece, Setup, Square};

/// Where the start position's writing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Block {
    /// No setup event yet.
    Start,
    /// The first `n` events were `STANDARD[..n]` (nothing written yet).
    Standard(u8),
    /// The `PI` line is open (removals may follow).
    Pi,
    /// Rows: the next cell to write, `(rank - 1) * 9 + (9 - file)`, 0 to 81.
    Rows(u8),
    /// `P+`/`P-` lines: the colour of the open line, if one is open.
    Pieces(Option<Color>),
}

/// The start-position writer of one game.
#[derive(Clone, Copy, Debug)]
pub(super) struct Position {
    block: Block,
    /// Setup events that have no CSA form (a removal outside `PI`, a king or promoted piece in
    /// hand, a square off the board).
    pub(super) unwritten: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position { block: Block::Start, unwritten: 0 }
    }
}

fn standard(i: usize) -> Setup {
    let (color, piece, file, rank) = STANDARD[i];
    Setup::Shogi { color, piece, square: Some(Square::new(file, rank)) }
}

fn on_board(s: Square) -> bool {
    (1..=9).contains(&s.file) && (1..=9).contains(&s.rank)
}

fn cell_index(s: Square) -> u8 {
    (s.rank - 1) * 9 + (9 - s.file)
}

pub(super) fn sign(c: Color) -> u8 {
    if c == Color::Black {
        b'+'
    } else {
        b'-'
    }
}

fn square(s: Option<Square>, out: &mut Vec<u8>) {
    match s {
        Some(s) => out.extend_from_slice(&[b'0' + s.file, b'0' + s.rank]),
        None => out.extend_from_slice(b"00"),
    }
}

impl Position {
    /// One setup event.
    pub(super) fn setup(&mut self, s: Setup, out: &mut Vec<u8>) {
        match self.block {
            Block::Start | Block::Standard(_) => {
                let n = match self.block {
                    Block::Standard(n) => n,
                    _ => 0,
                };
                if s == standard(n as usize) {
                    self.block = Block::Standard(n + 1);
                    if n + 1 == 40 {
                        out.extend_from_slice(b"PI");
                        self.block = Block::Pi;
                    }
                    return;
                }
                self.replay(n, out);
                self.general(s, out);
            }
            Block::Pi => match s {
                Setup::ShogiRemove { square: sq } => match STANDARD.iter().find(|e| (e.2, e.3) == (sq.file, sq.rank)) {
                    Some(&(_, piece, _, _)) => {
                        square(Some(sq), out);
                        out.extend_from_slice(piece.csa().as_bytes());
                    }
                    None => self.unwritten += 1,
                },
                _ => {
                    out.push(b'\n');
                    self.block = Block::Pieces(None);
                    self.general(s, out);
                }
            },
            Block::Rows(_) | Block::Pieces(_) => self.general(s, out),
        }
    }

    /// The standard pieces counted so far, written in the general form.
    fn replay(&mut self, n: u8, out: &mut Vec<u8>) {
        self.block = Block::Start;
        for i in 0..n as usize {
            self.general(standard(i), out);
        }
    }

    /// Rows while pieces come in row order, else `P+`/`P-` lines.
    fn general(&mut self, s: Setup, out: &mut Vec<u8>) {
        let Setup::Shogi { color, piece, square: sq } = s else {
            self.unwritten += 1;
            return;
        };
        match sq {
            Some(q) if !on_board(q) => {
                self.unwritten += 1;
                return;
            }
            None if piece.is_promoted() || piece == Piece::King => {
                self.unwritten += 1;
                return;
            }
            _ => {}
        }
        if let (Block::Start, Some(_)) = (self.block, sq) {
            self.block = Block::Rows(0);
        }
        if let Block::Rows(next) = self.block {
            match sq.map(cell_index) {
                Some(at) if at >= next => {
                    for i in next..at {
                        cell(i, None, out);
                    }
                    cell(at, Some((color, piece)), out);
                    self.block = Block::Rows(at + 1);
                    return;
                }
                _ => {
                    fill_rows(next, 81, out);
                    self.block = Block::Pieces(None);
                }
            }
        }
        if self.block == Block::Start {
            self.block = Block::Pieces(None);
        }
        if let Block::Pieces(open) = self.block {
            if open != Some(color) {
                if open.is_some() {
                    out.push(b'\n');
                }
                out.extend_from_slice(&[b'P', sign(color)]);
                self.block = Block::Pieces(Some(color));
            }
            square(sq, out);
            out.extend_from_slice(piece.csa().as_bytes());
        }
    }

    /// Another line comes: ends the open line (the rest of a row, the `PI` or `P+` line); the
    /// position may go on after it.
    pub(super) fn break_line(&mut self, out: &mut Vec<u8>) {
        match self.block {
            Block::Start => {}
            Block::Standard(n) => {
                self.replay(n, out);
                self.break_line(out);
            }
            Block::Pi => {
                out.push(b'\n');
                self.block = Block::Pieces(None);
            }
            Block::Rows(next) => {
                let end = next.div_ceil(9) * 9;
                fill_rows(next, end, out);
                self.block = Block::Rows(end);
            }
            Block::Pieces(Some(_)) => {
                out.push(b'\n');
                self.block = Block::Pieces(None);
            }
            Block::Pieces(None) => {}
        }
    }

    /// The position is over (a turn, a move or the game's end comes): ends the open line and
    /// writes the rows not yet written.
    pub(super) fn finish(&mut self, out: &mut Vec<u8>) {
        self.break_line(out);
        if let Block::Rows(next) = self.block {
            fill_rows(next, 81, out);
            self.block = Block::Pieces(None);
        }
    }
}

/// Writes cells `from..to` empty.
fn fill_rows(from: u8, to: u8, out: &mut Vec<u8>) {
    for i in from..to {
        cell(i, None, out);
    }
}

/// Writes cell `i` of the rows: the row's `Pn` before its first cell, the line end after its
/// last.
fn cell(i: u8, piece: Option<(Color, Piece)>, out: &mut Vec<u8>) {
    if i % 9 == 0 {
        out.extend_from_slice(&[b'P', b'1' + i / 9]);
    }
    match piece {
        Some((c, p)) => {
            out.push(sign(c));
            out.extend_from_slice(p.csa().as_bytes());
        }
        None => out.extend_from_slice(b" * "),
    }
    if i % 9 == 8 {
        out.push(b'\n');
    }
}
