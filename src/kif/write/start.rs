//! The start position: gathered from a game's setup events into a small fixed board, then
//! written as `手合割：<name>` when it is the standard position or a handicap with its usual
//! side to move (or nothing, when a `手合割` line naming it is already written), else as a
//! board diagram with both hands and `後手番` when White moves first (the form tsshogi writes).

use super::words::{self, Word};
use super::Encoding;
use crate::event::{Color, Piece, Setup};
use crate::kit::kakinoki::board::STANDARD;
use crate::kit::kakinoki::glyphs::HANDICAPS;
use crate::text::{Charset, Text};

/// The kinds a hand holds, in the order the reader gives them.
const HAND_KINDS: [Piece; 7] =
    [Piece::Rook, Piece::Bishop, Piece::Gold, Piece::Silver, Piece::Knight, Piece::Lance, Piece::Pawn];

/// A square's index: rank 1 first, file 9 first (the diagram's order).
fn index(file: u8, rank: u8) -> usize {
    (rank as usize - 1) * 9 + (9 - file as usize)
}

/// A start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Start {
    pub cells: [Option<(Color, Piece)>; 81],
    /// Pieces in hand by [`HAND_KINDS`], Black's then White's.
    pub hands: [[u8; 7]; 2],
}

impl Start {
    /// An empty board.
    pub const fn empty() -> Start {
        Start { cells: [None; 81], hands: [[0; 7]; 2] }
    }

    /// The standard position without the pieces on `removed`.
    pub fn preset(removed: &[(u8, u8)]) -> Start {
        let mut s = Start::empty();
        for &(color, piece, file, rank) in &STANDARD {
            if !removed.contains(&(file, rank)) {
                s.cells[index(file, rank)] = Some((color, piece));
            }
        }
        s
    }

    /// Applies one setup event; `false` when it has no KIF form (a square off the board, a king
    /// or promoted piece in hand, more than 18 of a kind).
    pub fn apply(&mut self, s: Setup) -> bool {
        let on = |f: u8, r: u8| (1..=9).contains(&f) && (1..=9).contains(&r);
        match s {
            Setup::Shogi { color, piece, square: Some(q) } if on(q.file, q.rank) => {
                self.cells[index(q.file, q.rank)] = Some((color, piece));
            }
            Setup::Shogi { color, piece, square: None } => match HAND_KINDS.iter().position(|&p| p == piece) {
                Some(k) if self.hands[color as usize][k] < 18 => self.hands[color as usize][k] += 1,
                _ => return false,
            },
            Setup::ShogiRemove { square: q } if on(q.file, q.rank) => self.cells[index(q.file, q.rank)] = None,
            _ => return false,
        }
        true
    }

    /// The handicap (or `平手`) this is with `turn` to move: its index in `HANDICAPS`.
    pub fn preset_name(&self, turn: Color) -> Option<usize> {
        if self.hands != [[0; 7]; 2] {
            return None;
        }
        HANDICAPS.iter().position(|&(_, removed)| {
            let usual = if removed.is_empty() { Color::Black } else { Color::White };
            usual == turn && *self == Start::preset(removed)
        })
    }
}

/// The handicap a `手合割` value names (spaces ignored): its index in `HANDICAPS`. The value is
/// compared in its own charset (UTF-8 or CP932), so nothing is decoded.
pub(super) fn named(t: Text<'_>) -> Option<usize> {
    let k = match t.charset() {
        Charset::ShiftJis => 1,
        Charset::Utf8 => 0,
        _ => return named_str(&t.decode().text),
    };
    let space: &[u8] = words::IDSP[k];
    let (raw, mut buf, mut n, mut i) = (t.raw(), [0u8; 64], 0, 0);
    while i < raw.len() {
        if raw[i..].starts_with(space) {
            i += space.len();
            continue;
        }
        let len = match (k, raw[i]) {
            (_, b' ' | b'\t') => {
                i += 1;
                continue;
            }
            (1, 0x81..=0x9F | 0xE0..=0xFC) => 2,
            (0, 0xC0..=0xDF) => 2,
            (0, 0xE0..=0xEF) => 3,
            (0, 0xF0..=0xF7) => 4,
            _ => 1,
        };
        let len = len.min(raw.len() - i);
        if n + len > buf.len() {
            return None;
        }
        buf[n..n + len].copy_from_slice(&raw[i..i + len]);
        n += len;
        i += len;
    }
    HANDICAPS.iter().position(|(w, _)| w[k] == &buf[..n])
}

/// [`named`] for a decoded value.
fn named_str(value: &str) -> Option<usize> {
    let mut buf = [0u8; 64];
    let mut n = 0;
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        let len = c.len_utf8();
        if n + len > buf.len() {
            return None;
        }
        c.encode_utf8(&mut buf[n..]);
        n += len;
    }
    HANDICAPS.iter().position(|(w, _)| w[0] == &buf[..n])
}

/// Appends `w` in `enc`.
pub(super) fn word(w: Word, enc: Encoding, out: &mut Vec<u8>) {
    out.extend_from_slice(w[enc as usize]);
}

/// A count in kanji (`二`, `十`, `十八`); nothing for one.
pub(super) fn count(n: u8, enc: Encoding, out: &mut Vec<u8>) {
    if n >= 10 {
        word(words::TEN, enc, out);
    }
    if n % 10 >= 1 && n > 1 {
        word(words::NUMERALS[(n % 10 - 1) as usize], enc, out);
    }
}

/// `手合割：<name>` for `HANDICAPS[k]`.
pub(super) fn handicap_line(k: usize, enc: Encoding, out: &mut Vec<u8>) {
    word(words::HANDICAP_KEY, enc, out);
    word(words::COLON, enc, out);
    out.extend_from_slice(HANDICAPS[k].0[enc as usize]);
    out.push(b'\n');
}

/// A hand line: `先手の持駒：飛二　角` (`なし` when empty).
fn hand(s: &Start, color: Color, enc: Encoding, out: &mut Vec<u8>) {
    word(if color == Color::Black { words::BLACK_HAND } else { words::WHITE_HAND }, enc, out);
    let counts = s.hands[color as usize];
    if counts == [0; 7] {
        word(words::NONE, enc, out);
    }
    let mut first = true;
    for (k, &n) in counts.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if !first {
            word(words::IDSP, enc, out);
        }
        first = false;
        word(words::piece(HAND_KINDS[k], true), enc, out);
        count(n, enc, out);
    }
    out.push(b'\n');
}

/// The diagram: White's hand, the file numbers, the nine rows, Black's hand, `後手番` when
/// White moves first.
pub(super) fn diagram(s: &Start, turn: Color, enc: Encoding, out: &mut Vec<u8>) {
    hand(s, Color::White, enc, out);
    word(words::FILES_LINE, enc, out);
    out.extend_from_slice(b"\n+---------------------------+\n");
    for rank in 0..9 {
        out.push(b'|');
        for cell in &s.cells[rank * 9..rank * 9 + 9] {
            match *cell {
                None => word(words::EMPTY, enc, out),
                Some((color, piece)) => {
                    out.push(if color == Color::White { b'v' } else { b' ' });
                    word(words::piece(piece, true), enc, out);
                }
            }
        }
        out.push(b'|');
        word(words::NUMERALS[rank], enc, out);
        out.push(b'\n');
    }
    out.extend_from_slice(b"+---------------------------+\n");
    hand(s, Color::Black, enc, out);
    if turn == Color::White {
        word(words::WHITE_TURN, enc, out);
        out.push(b'\n');
    }
}

/// Appends a decimal number.
pub(super) fn number(n: u64, out: &mut Vec<u8>) {
    crate::text::escape::decimal(n, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextRule;

    #[test]
    fn presets_counts_and_names() {
        let s = Start::preset(&[]);
        assert_eq!(s.preset_name(Color::Black), Some(0));
        assert_eq!(s.preset_name(Color::White), None);
        let lance = Start::preset(&[(1, 1)]);
        assert_eq!(lance.preset_name(Color::White), Some(1));
        let utf8 = |s: &'static str| Text::new(s.as_bytes(), TextRule::Plain, Charset::Utf8);
        assert_eq!(named(utf8("平手　　")), Some(0));
        assert_eq!(named(utf8(" 香落ち")), Some(1));
        assert_eq!(named(utf8("詰将棋")), None);
        let sjis = encoding_rs::SHIFT_JIS.encode("右七枚落ち　").0;
        assert_eq!(named(Text::new(&sjis, TextRule::Plain, Charset::ShiftJis)), Some(13));
        assert_eq!(named_str("飛車落ち"), Some(4));
        for (n, want) in [(1, ""), (2, "二"), (10, "十"), (18, "十八"), (11, "十一")] {
            let mut out = Vec::new();
            count(n, Encoding::Utf8, &mut out);
            assert_eq!(out, want.as_bytes(), "{n}");
        }
    }
}
