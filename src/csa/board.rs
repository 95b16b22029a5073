//! Start-position statements turned into setup events one piece at a time: `PI` (the standard
//! position, then its removed pieces), `P1`–`P9` rows and `P+`/`P-` piece lists with `00AL`.
//! Each expander is a small cursor over the statement's bytes; nothing is allocated.

use crate::event::{Color, Piece, Setup, Square};

/// The standard start position, Black's pieces first: (colour, piece, file, rank).
pub(crate) const STANDARD: [(Color, Piece, u8, u8); 40] = {
    use Color::{Black as B, White as W};
    use Piece::*;
    [
        (B, Lance, 9, 9),
        (B, Knight, 8, 9),
        (B, Silver, 7, 9),
        (B, Gold, 6, 9),
        (B, King, 5, 9),
        (B, Gold, 4, 9),
        (B, Silver, 3, 9),
        (B, Knight, 2, 9),
        (B, Lance, 1, 9),
        (B, Bishop, 8, 8),
        (B, Rook, 2, 8),
        (B, Pawn, 9, 7),
        (B, Pawn, 8, 7),
        (B, Pawn, 7, 7),
        (B, Pawn, 6, 7),
        (B, Pawn, 5, 7),
        (B, Pawn, 4, 7),
        (B, Pawn, 3, 7),
        (B, Pawn, 2, 7),
        (B, Pawn, 1, 7),
        (W, Lance, 9, 1),
        (W, Knight, 8, 1),
        (W, Silver, 7, 1),
        (W, Gold, 6, 1),
        (W, King, 5, 1),
        (W, Gold, 4, 1),
        (W, Silver, 3, 1),
        (W, Knight, 2, 1),
        (W, Lance, 1, 1),
        (W, Rook, 8, 2),
        (W, Bishop, 2, 2),
        (W, Pawn, 9, 3),
        (W, Pawn, 8, 3),
        (W, Pawn, 7, 3),
        (W, Pawn, 6, 3),
        (W, Pawn, 5, 3),
        (W, Pawn, 4, 3),
        (W, Pawn, 3, 3),
        (W, Pawn, 2, 3),
        (W, Pawn, 1, 3),
    ]
};

/// How many of each unpromoted kind a set has (pawn, lance, knight, silver, gold, bishop, rook,
/// king).
pub(crate) const MAX_PIECES: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

/// Index of a piece's unpromoted kind in [`MAX_PIECES`].
#[inline]
pub(crate) fn kind_index(p: Piece) -> usize {
    match p.unpromoted() {
        Piece::Pawn => 0,
        Piece::Lance => 1,
        Piece::Knight => 2,
        Piece::Silver => 3,
        Piece::Gold => 4,
        Piece::Bishop => 5,
        Piece::Rook => 6,
        _ => 7,
    }
}

/// The unpromoted kinds in [`MAX_PIECES`] order.
pub(crate) const KINDS: [Piece; 8] =
    [Piece::Pawn, Piece::Lance, Piece::Knight, Piece::Silver, Piece::Gold, Piece::Bishop, Piece::Rook, Piece::King];

/// What one step of an expander gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A setup event.
    Setup(Setup),
    /// The rest could not be read (offset of the bad byte); the expander is finished.
    Bad(usize),
    /// A board row that was readable but not in the fixed 3-byte cell layout.
    Dialect,
    /// Finished.
    Done,
}

/// Whether a `P1`–`P9` row is in the exact layout of the spec: nine 3-byte cells (` * ` or a
/// sign and a piece name).
pub(crate) fn is_fixed_row(cells: &[u8]) -> bool {
    cells.len() == 27
        && cells
            .chunks_exact(3)
            .all(|c| c == b" * " || (matches!(c[0], b'+' | b'-') && Piece::from_csa(&c[1..]).is_some()))
}

/// Reads a board row leniently: spaces are skipped, `*` is an empty square, `+XX`/`-XX` a piece.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    pub rank: u8,
    pub pos: usize,
    pub cell: u8,
    pub fixed: bool,
}

impl Row {
    /// The next piece of the row in `cells` (the bytes after `Pn`).
    pub fn step(&mut self, cells: &[u8]) -> Step {
        loop {
            while self.pos < cells.len() && matches!(cells[self.pos], b' ' | b'\t') {
                self.pos += 1;
            }
            if self.pos >= cells.len() {
                return if self.fixed { Step::Done } else { self.finish() };
            }
            if self.cell >= 9 {
                return Step::Bad(self.pos);
            }
            let c = cells[self.pos];
            if c == b'*' {
                self.pos += 1;
                self.cell += 1;
                continue;
            }
            let color = match c {
                b'+' => Color::Black,
                b'-' => Color::White,
                _ => return Step::Bad(self.pos),
            };
            let Some(piece) = cells.get(self.pos + 1..self.pos + 3).and_then(Piece::from_csa) else {
                return Step::Bad(self.pos);
            };
            self.pos += 3;
            let file = 9 - self.cell;
            self.cell += 1;
            return Step::Setup(Setup::Shogi { color, piece, square: Some(Square::new(file, self.rank)) });
        }
    }

    fn finish(&mut self) -> Step {
        // Report the dialect once.
        if self.fixed {
            Step::Done
        } else {
            self.fixed = true;
            Step::Dialect
        }
    }
}

/// One item of a `P+`/`P-` list or of a `PI` removal list: a square (`None` for `00`) and a
/// piece name, or `AL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Piece(Option<Square>, Piece),
    All,
}

/// Reads the next 4-byte item at `*pos` in `b` (trailing spaces allowed). `Ok(None)` at the end,
/// `Err(offset)` when the bytes are not an item.
pub(crate) fn next_item(b: &[u8], pos: &mut usize) -> Result<Option<Item>, usize> {
    let rest = &b[*pos..];
    if rest.iter().all(|&c| c == b' ' || c == b'\t') {
        *pos = b.len();
        return Ok(None);
    }
    let &[f, r, p1, p2, ..] = rest else {
        return Err(*pos);
    };
    let square = match (f, r) {
        (b'0', b'0') => None,
        (b'1'..=b'9', b'1'..=b'9') => Some(Square::new(f - b'0', r - b'0')),
        _ => return Err(*pos),
    };
    let item = if &[p1, p2] == b"AL" && square.is_none() {
        Item::All
    } else {
        match Piece::from_csa(&[p1, p2]) {
            Some(p) => Item::Piece(square, p),
            None => return Err(*pos),
        }
    };
    *pos += 4;
    Ok(Some(item))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows() {
        assert!(is_fixed_row(b"-KY-KE-GI-KI-OU-KI-GI-KE-KY"));
        assert!(is_fixed_row(b" * -HI *  *  *  *  * -KA * "));
        assert!(!is_fixed_row(b" * -HI * * * * * -KA *"));
        let cells = b" * -HI * * * * * -KA *";
        let mut row = Row { rank: 2, pos: 0, cell: 0, fixed: false };
        let mut got = vec![];
        loop {
            match row.step(cells) {
                Step::Setup(s) => got.push(s),
                Step::Dialect => got.push(Setup::ShogiRemove { square: Square::new(0, 0) }),
                Step::Done => break,
                Step::Bad(p) => panic!("bad at {p}"),
            }
        }
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], Setup::Shogi { color: Color::White, piece: Piece::Rook, square: Some(Square::new(8, 2)) });
    }

    #[test]
    fn items() {
        let b = b"00KI82HI00AL  ";
        let mut p = 0;
        assert_eq!(next_item(b, &mut p), Ok(Some(Item::Piece(None, Piece::Gold))));
        assert_eq!(next_item(b, &mut p), Ok(Some(Item::Piece(Some(Square::new(8, 2)), Piece::Rook))));
        assert_eq!(next_item(b, &mut p), Ok(Some(Item::All)));
        assert_eq!(next_item(b, &mut p), Ok(None));
        let mut p = 0;
        assert_eq!(next_item(b"0K", &mut p), Err(0));
    }
}
