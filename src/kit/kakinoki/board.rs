//! Start positions: the rows of a board diagram (`| ・ ・v歩v玉|一`), the pieces in hand
//! (`後手の持駒：飛二　角　金四`), and the standard position with a handicap's pieces removed.
//! Each is read whole into a small fixed array, then handed out one piece at a time.

use super::glyphs;
use super::lex::{at, len, skip_spaces, Enc};
use super::moves::{numeral_at, piece_at};
use crate::event::{Color, Piece};

/// The nine cells of a diagram row (file 9 first) and its rank, if written after the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub cells: [Option<(Color, Piece)>; 9],
    pub rank: Option<u8>,
}

/// Reads a diagram row starting with `|`; `Err` with the offset where it went wrong.
pub(crate) fn row(b: &[u8], enc: Enc) -> Result<Row, usize> {
    let mut i = b.iter().position(|&c| c == b'|').ok_or(0usize)? + 1;
    let mut cells = [None; 9];
    for cell in &mut cells {
        let color = match b.get(i) {
            Some(b' ' | b'+' | b'^') => Color::Black,
            Some(b'v' | b'V') => Color::White,
            _ if at(b, i, glyphs::IDSP, enc) || at(b, i, glyphs::EMPTY, enc) => {
                // A cell written without its mark (an empty square `・` or a full-width space).
                i += if at(b, i, glyphs::IDSP, enc) { len(glyphs::IDSP, enc) } else { len(glyphs::EMPTY, enc) };
                continue;
            }
            _ => return Err(i),
        };
        i += 1;
        if at(b, i, glyphs::EMPTY, enc) {
            i += len(glyphs::EMPTY, enc);
        } else if at(b, i, glyphs::IDSP, enc) {
            i += len(glyphs::IDSP, enc);
        } else if let Some((p, n)) = piece_at(b, i, enc) {
            *cell = Some((color, p));
            i += n;
        } else {
            return Err(i);
        }
    }
    if b.get(i) != Some(&b'|') {
        return Err(i);
    }
    let rank = numeral_at(b, i + 1, enc);
    Ok(Row { cells, rank })
}

/// The kinds a hand holds, in the order the reader gives them.
pub(crate) const HAND_KINDS: [Piece; 7] =
    [Piece::Rook, Piece::Bishop, Piece::Gold, Piece::Silver, Piece::Knight, Piece::Lance, Piece::Pawn];

/// Reads the pieces of a hand line's value (`飛二　角　金四`, `なし`) into counts by
/// [`HAND_KINDS`]; `Err` with the offset of the first item that is not a hand piece (the counts
/// read so far are kept in `counts`).
pub(crate) fn hand(b: &[u8], enc: Enc, counts: &mut [u8; 7]) -> Result<(), usize> {
    let mut i = skip_spaces(b, 0, enc);
    if at(b, i, glyphs::NONE, enc) {
        return Ok(());
    }
    while i < b.len() {
        let (piece, n) = piece_at(b, i, enc).ok_or(i)?;
        let k = HAND_KINDS.iter().position(|&p| p == piece).ok_or(i)?;
        i += n;
        let mut count = 0u8;
        if at(b, i, glyphs::TEN, enc) {
            count = 10;
            i += len(glyphs::TEN, enc);
        }
        if let Some(d) = numeral_at(b, i, enc) {
            count += d;
            i += len(glyphs::NUMERALS[0], enc);
        }
        counts[k] = counts[k].saturating_add(count.max(1)).min(18);
        i = skip_spaces(b, i, enc);
    }
    Ok(())
}

/// The standard position, White's pieces first: (color, piece, file, rank).
pub(crate) const STANDARD: [(Color, Piece, u8, u8); 40] = {
    use Color::{Black as B, White as W};
    use Piece::*;
    const BACK: [Piece; 9] = [Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance];
    let mut out = [(B, Pawn, 0, 0); 40];
    let mut f = 0;
    while f < 9 {
        out[f] = (W, BACK[f], 9 - f as u8, 1);
        out[11 + f] = (W, Pawn, 9 - f as u8, 3);
        out[20 + f] = (B, Pawn, 9 - f as u8, 7);
        out[31 + f] = (B, BACK[f], 9 - f as u8, 9);
        f += 1;
    }
    out[9] = (W, Rook, 8, 2);
    out[10] = (W, Bishop, 2, 2);
    out[29] = (B, Bishop, 8, 8);
    out[30] = (B, Rook, 2, 8);
    out
};

/// What a `手合割` value names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Handicap {
    /// A known name: the squares of White's pieces it removes (none for `平手`).
    Known(&'static [(u8, u8)]),
    /// `その他`: the position is in the diagram.
    Other,
    /// A name the reader does not know (`詰将棋`).
    Unknown,
}

/// The handicap a `手合割` value names (spaces anywhere in it are ignored).
pub(crate) fn handicap(value: &[u8], enc: Enc) -> Handicap {
    // The value without spaces, compared word by word: every known name is short.
    let mut buf = [0u8; 64];
    let mut n = 0;
    let mut i = 0;
    while i < value.len() {
        let j = skip_spaces(value, i, enc);
        if j > i {
            i = j;
            continue;
        }
        let c = super::lex::char_len(value, i, enc);
        if n + c > buf.len() {
            return Handicap::Unknown;
        }
        buf[n..n + c].copy_from_slice(&value[i..i + c]);
        n += c;
        i += c;
    }
    let name = &buf[..n];
    if name == glyphs::OTHER_HANDICAP[enc as usize] {
        return Handicap::Other;
    }
    glyphs::HANDICAPS
        .iter()
        .find(|(w, _)| w[enc as usize] == name)
        .map_or(Handicap::Unknown, |&(_, removed)| Handicap::Known(removed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_hands_and_handicaps() {
        let r = row("| ・ ・ ・ ・ ・ ・ ・v歩v玉|一".as_bytes(), Enc::Utf8).unwrap();
        assert_eq!(r.rank, Some(1));
        assert_eq!(r.cells[7], Some((Color::White, Piece::Pawn)));
        assert_eq!(r.cells[8], Some((Color::White, Piece::King)));
        assert!(r.cells[..7].iter().all(Option::is_none));
        let sjis = encoding_rs::SHIFT_JIS.encode("| ・ 龍 ・ ・ ・ ・ ・ ・ ・|九").0;
        let r = row(&sjis, Enc::Sjis).unwrap();
        assert_eq!((r.rank, r.cells[1]), (Some(9), Some((Color::Black, Piece::Dragon))));
        assert!(row("| ・ ・|".as_bytes(), Enc::Utf8).is_err());
        let mut counts = [0; 7];
        hand("飛二　角 金四　歩十八".as_bytes(), Enc::Utf8, &mut counts).unwrap();
        assert_eq!(counts, [2, 1, 4, 0, 0, 0, 18]);
        let mut counts = [0; 7];
        hand("なし".as_bytes(), Enc::Utf8, &mut counts).unwrap();
        assert_eq!(counts, [0; 7]);
        assert!(hand("玉".as_bytes(), Enc::Utf8, &mut counts).is_err());
        assert_eq!(handicap("平手　　".as_bytes(), Enc::Utf8), Handicap::Known(&[]));
        assert_eq!(handicap("香落ち".as_bytes(), Enc::Utf8), Handicap::Known(&[(1, 1)]));
        assert_eq!(handicap("その他".as_bytes(), Enc::Utf8), Handicap::Other);
        assert_eq!(handicap("詰将棋".as_bytes(), Enc::Utf8), Handicap::Unknown);
        let sjis = encoding_rs::SHIFT_JIS.encode("右七枚落ち").0;
        assert!(matches!(handicap(&sjis, Enc::Sjis), Handicap::Known(r) if r.len() == 7));
    }
}
