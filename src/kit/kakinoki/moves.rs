//! A move's shared parts (destination, piece, promotion: [`target`], [`promotion`]), the special
//! moves ([`special`]), and one KIF move line read into its parts: `<ply> <move> <time> [+]`, e.g.
//! `   1 ７六歩(77)   ( 0:16/00:00:16)+`, or a special move in place of the move (`投了`).
//!
//! The move is destination (`７六`, or `同` and an optional ideographic space), piece (`歩`,
//! `成銀`…), an optional `成` or `不成`, and the origin: `(77)` or `打` for a drop. The time is the
//! move's own time in any of the written forms (`m:ss`, `mm:ss`, `h:mm:ss`, with or without the
//! cumulative time after a `/`, spaces anywhere); only the first part is kept. A trailing `+`
//! (a variation follows) is ignored.

use super::codes::{code_at, codes, word_code, Lookup};
use super::glyphs;
use super::lex::{at, len, skip_spaces, Enc};
use crate::event::{Ending, Piece, Square};

/// A move as written: destination (`None` for `同`), piece before the move, promotion, origin
/// (`None` for a drop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    pub to: Option<Square>,
    pub piece: Piece,
    pub promote: bool,
    pub from: Option<Square>,
}

/// What follows the ply number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body<'a> {
    /// A move.
    Move(Written),
    /// A special move: its word, and the ending it gives when known (`反則負け` is known but
    /// its ending depends on the side to move: `known` with `ending: None`).
    Special { word: &'a [u8], ending: Option<Ending>, known: bool },
    /// Neither: the offset in the line where reading stopped.
    Bad(usize),
}

/// A move line read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveLine<'a> {
    /// The written move number (saturated).
    pub ply: u64,
    /// The move or special.
    pub body: Body<'a>,
    /// The move's own time in milliseconds, and where its `(` is in the line; `Err` with the
    /// offset for a time that could not be read.
    pub time: Option<Result<(u64, usize), usize>>,
}

/// The codes of the one-character piece names (the first 16 of [`glyphs::PIECES`]), per charset.
static PIECE_CODES: [Lookup; 2] = {
    const fn list(enc: usize) -> [u32; 16] {
        let mut out = [0; 16];
        let mut k = 0;
        while k < 16 {
            out[k] = word_code(glyphs::PIECES[k].0, enc);
            k += 1;
        }
        out
    }
    [Lookup::new(&list(0)), Lookup::new(&list(1))]
};
/// The codes of the numerals `一`–`九`, per charset.
static NUMERAL_CODES: [Lookup; 2] =
    [Lookup::new(&codes(glyphs::NUMERALS, 0)), Lookup::new(&codes(glyphs::NUMERALS, 1))];
const PROMOTE_CODE: [u32; 2] = [word_code(glyphs::PROMOTE, 0), word_code(glyphs::PROMOTE, 1)];
/// The code of `不`, the first character of [`glyphs::NO_PROMOTE`] (`不成`).
const NOT_CODE: [u32; 2] = [word_code(glyphs::NO_PROMOTE, 0), word_code(glyphs::NO_PROMOTE, 1)];
/// The code of [`glyphs::DROP`] (`打`).
pub(crate) const DROP_CODE: [u32; 2] = [word_code(glyphs::DROP, 0), word_code(glyphs::DROP, 1)];

/// The piece named at `b[i]` and the length of its name (a character of [`glyphs::PIECES`], or
/// `成` and `銀`/`桂`/`香`).
#[inline(always)]
pub(crate) fn piece_at(b: &[u8], i: usize, enc: Enc) -> Option<(Piece, usize)> {
    let (c, n) = code_at(b, i, enc)?;
    if let Some(k) = PIECE_CODES[enc as usize].find(c) {
        return Some((glyphs::PIECES[k].1, n));
    }
    if c != PROMOTE_CODE[enc as usize] {
        return None;
    }
    glyphs::PIECES[16..].iter().find(|&&(w, _)| at(b, i, w, enc)).map(|&(w, p)| (p, len(w, enc)))
}

/// The kanji rank numeral (`一`–`九`) at `b[i]`, as 1–9.
#[inline(always)]
pub(crate) fn numeral_at(b: &[u8], i: usize, enc: Enc) -> Option<u8> {
    let (c, _) = code_at(b, i, enc)?;
    NUMERAL_CODES[enc as usize].find(c).map(|k| k as u8 + 1)
}

/// Reads a move line (a line [`classify`](super::lex::classify) calls a move).
#[inline]
pub(crate) fn parse(line: &[u8], enc: Enc) -> MoveLine<'_> {
    match common(line, enc) {
        Some(m) => m,
        None => general(line, enc),
    }
}

/// [`parse`] of the line almost every record is made of, in one pass that backs out at the first
/// byte off its shape: spaces, the ply, spaces, a destination (`７六` or `同`), a one-character
/// piece, an optional `成`, the origin (`(77)` or `打`), then the time (its usual fixed layout
/// `( 0:16/00:00:16)` read from known places, any other through [`time`]). `None` for any
/// other line, which [`general`] reads; for a line it reads, the result is [`general`]'s, and
/// [`classify`](super::lex::classify) calls the line a real move (a reader that gets `Some`
/// need not classify the line).
#[inline]
pub(crate) fn common(line: &[u8], enc: Enc) -> Option<MoveLine<'_>> {
    match enc {
        Enc::Utf8 => common_in::<false>(line),
        Enc::Sjis => common_in::<true>(line),
    }
}

/// [`common`] in one charset (CP932 when `SJIS`), so that every character width is a constant.
#[inline(always)]
fn common_in<const SJIS: bool>(line: &[u8]) -> Option<MoveLine<'_>> {
    let enc = if SJIS { Enc::Sjis } else { Enc::Utf8 };
    // Every character of the move is one code: 2 bytes in CP932, 3 in UTF-8.
    let cw = if SJIS { 2 } else { 3 };
    let mut i = 0;
    while line.get(i) == Some(&b' ') {
        i += 1;
    }
    let start = i;
    let mut ply = 0u64;
    while let Some(&d) = line.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        ply = ply.saturating_mul(10).saturating_add(u64::from(d - b'0'));
        i += 1;
    }
    if i == start || i - start > 9 {
        return None;
    }
    while line.get(i) == Some(&b' ') {
        i += 1;
    }
    let to = if let Some(f) = glyphs::file_digit(line, i, SJIS) {
        let (c, _) = code_at(line, i + cw, enc)?;
        let r = NUMERAL_CODES[enc as usize].find(c)? as u8 + 1;
        i += 2 * cw;
        Some(Square::new(f, r))
    } else if at(line, i, glyphs::SAME, enc) {
        i = skip_spaces(line, i + cw, enc);
        None
    } else {
        return None;
    };
    let (c, _) = code_at(line, i, enc)?;
    let piece = glyphs::PIECES[PIECE_CODES[enc as usize].find(c)?].1;
    i += cw;
    let promote = at(line, i, glyphs::PROMOTE, enc);
    if promote {
        i += cw;
    }
    let from = match line.get(i..i.wrapping_add(4)) {
        Some(&[b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')']) => {
            i += 4;
            Some(Square::new(f - b'0', r - b'0'))
        }
        _ if at(line, i, glyphs::DROP, enc) => {
            i += cw;
            None
        }
        _ => return None,
    };
    while line.get(i) == Some(&b' ') {
        i += 1;
    }
    let mut time = None;
    if line.get(i) == Some(&b'(') {
        time = Some(match usual_time(line, i) {
            Some(ms) => Ok((ms, i)),
            None => self::time(line, i).map(|ms| (ms, i)).ok_or(i),
        });
    } else {
        let j = skip_spaces(line, i, enc);
        if line.get(j) == Some(&b'(') {
            time = Some(self::time(line, j).map(|ms| (ms, j)).ok_or(j));
        }
    }
    Some(MoveLine { ply, body: Body::Move(Written { to, piece, promote, from }), time })
}

/// `b` repeated in the bytes of a `u64` where `mask` has `FF`.
const fn bytes(b: u8, mask: u64) -> u64 {
    u64::from_le_bytes([b; 8]) & mask
}

/// The places of the digits in the two halves of `( m:ss/hh:mm:ss)` (the minutes' first one a
/// space or a digit).
const DIGITS: [u64; 2] =
    [u64::from_le_bytes([0, 255, 255, 0, 255, 255, 0, 255]), u64::from_le_bytes([255, 0, 255, 255, 0, 255, 255, 0])];
/// The other bytes of that layout, as they are written.
const PUNCT: [u64; 2] = [u64::from_le_bytes(*b"(00:00/0") & !DIGITS[0], u64::from_le_bytes(*b"0:00:00)") & !DIGITS[1]];

/// Whether the half `k` of the layout, `h`, has its punctuation and its digits: not zero when
/// not (a digit is `0x30`–`0x39`: high half `3`, and still `3` with 6 added; nothing carries
/// from one byte into the next once the high halves are `3`).
#[inline(always)]
fn off_layout(h: u64, k: usize) -> u64 {
    let (d, high) = (DIGITS[k], bytes(0xF0, DIGITS[k]));
    ((h & !d) ^ PUNCT[k])
        | ((h & high) ^ bytes(0x30, d))
        | (((h & d).wrapping_add(bytes(0x06, d)) & high) ^ bytes(0x30, d))
}

/// The time at `b[j]` in its usual layout, `( m:ss/hh:mm:ss)` or `(mm:ss/hh:mm:ss)`: the first
/// part in milliseconds, as [`time`] reads it; `None` for any other layout. The sixteen bytes
/// are checked as two numbers, every byte at once ([`off_layout`]).
#[inline]
fn usual_time(b: &[u8], j: usize) -> Option<u64> {
    let t: [u8; 16] = b.get(j..j.wrapping_add(16))?.try_into().ok()?;
    let (lo, hi) = t.split_at(8);
    let mut lo = u64::from_le_bytes(lo.try_into().ok()?);
    let hi = u64::from_le_bytes(hi.try_into().ok()?);
    let space = t[1] == b' ';
    if space {
        // A space before a one-digit minute reads as `0` (`0x20 | 0x10`).
        lo |= 0x10 << 8;
    }
    if off_layout(lo, 0) | off_layout(hi, 1) != 0 {
        return None;
    }
    let d = |k: usize| u64::from(t[k] & 0x0F);
    let m = if space { d(2) } else { d(1) * 10 + d(2) };
    Some((m * 60 + d(4) * 10 + d(5)) * 1000)
}

/// [`parse`] of any move line.
pub(crate) fn general(line: &[u8], enc: Enc) -> MoveLine<'_> {
    let mut i = 0;
    while i < line.len() && matches!(line[i], b' ' | b'\t') {
        i += 1;
    }
    let mut ply = 0u64;
    while let Some(d) = line.get(i).filter(|c| c.is_ascii_digit()) {
        ply = ply.saturating_mul(10).saturating_add(u64::from(d - b'0'));
        i += 1;
    }
    i = skip_spaces(line, i, enc);
    let (body, after) = match written(line, i, enc) {
        Ok((w, j)) => (Body::Move(w), j),
        // A destination that does not read (`３x歩`, `同x`, `▲３x歩`), or no text at all, is a
        // move that does not read, not a special move (the layout scan decides alike).
        Err(bad) if super::lex::is_move_text(line, i, enc) => {
            return MoveLine { ply, body: Body::Bad(bad), time: None }
        }
        Err(bad) => match special(line, i, enc) {
            Some((word, ending, known)) => (Body::Special { word, ending, known }, i + word.len()),
            None => return MoveLine { ply, body: Body::Bad(bad), time: None },
        },
    };
    let j = skip_spaces(line, after, enc);
    let time = (line.get(j) == Some(&b'(')).then(|| time(line, j).map(|ms| (ms, j)).ok_or(j));
    MoveLine { ply, body, time }
}

/// Whether a destination starts at `b[i]`: a file digit or `同` (a move that does not read
/// past it is still a move of the record, not a special move).
#[inline]
pub(crate) fn destination_starts(b: &[u8], i: usize, enc: Enc) -> bool {
    glyphs::file_digit(b, i, enc == Enc::Sjis).is_some() || at(b, i, glyphs::SAME, enc)
}

/// The destination (`None` for `同`) and piece written at `b[i]` (after an optional side mark),
/// and the offset after them, or the offset where they went wrong: the part KIF and KI2 moves
/// share.
#[inline]
pub(crate) fn target(b: &[u8], mut i: usize, enc: Enc) -> Result<(Option<Square>, Piece, usize), usize> {
    // (Every side mark starts with 0xE2 in UTF-8 and 0x81 in CP932.)
    if matches!(b.get(i), Some(0xE2 | 0x81)) {
        if let Some(k) = glyphs::MARKS.iter().find(|&&w| at(b, i, w, enc)) {
            i += len(*k, enc);
        }
    }
    target_at(b, i, enc)
}

/// [`target`] after the side mark: the destination and piece at `b[i]`.
#[inline(always)]
pub(crate) fn target_at(b: &[u8], mut i: usize, enc: Enc) -> Result<(Option<Square>, Piece, usize), usize> {
    let to = if let Some(f) = glyphs::file_digit(b, i, enc == Enc::Sjis) {
        i += if enc == Enc::Sjis { 2 } else { 3 };
        let r = numeral_at(b, i, enc).ok_or(i)?;
        i += len(glyphs::NUMERALS[0], enc);
        Some(Square::new(f, r))
    } else if at(b, i, glyphs::SAME, enc) {
        i += len(glyphs::SAME, enc);
        i = skip_spaces(b, i, enc);
        None
    } else {
        return Err(i);
    };
    let (piece, n) = piece_at(b, i, enc).ok_or(i)?;
    Ok((to, piece, i + n))
}

/// `成` (`Some(true)`), `不成` (`Some(false)`) or neither at `b[i]`, and the offset after it.
#[inline(always)]
pub(crate) fn promotion(b: &[u8], i: usize, enc: Enc) -> (Option<bool>, usize) {
    let e = enc as usize;
    match code_at(b, i, enc) {
        Some((c, n)) if c == PROMOTE_CODE[e] => (Some(true), i + n),
        Some((c, n)) if c == NOT_CODE[e] => match code_at(b, i + n, enc) {
            Some((c, k)) if c == PROMOTE_CODE[e] => (Some(false), i + n + k),
            _ => (None, i),
        },
        _ => (None, i),
    }
}

/// The KIF move written at `b[i]` and the offset after it, or the offset where it went wrong.
#[inline]
fn written(b: &[u8], i: usize, enc: Enc) -> Result<(Written, usize), usize> {
    let (to, piece, i) = target(b, i, enc)?;
    let (promote, mut i) = promotion(b, i, enc);
    let promote = promote == Some(true);
    let from = if at(b, i, glyphs::DROP, enc) {
        i += len(glyphs::DROP, enc);
        None
    } else {
        match b.get(i..i + 4) {
            Some([b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')']) => {
                i += 4;
                Some(Square::new(f - b'0', r - b'0'))
            }
            _ => return Err(i),
        }
    };
    Ok((Written { to, piece, promote, from }, i))
}

/// The special move at `b[i]`: its word (a known one, or any run of characters up to a space or
/// `(`), its ending and whether it is known.
pub(crate) fn special(b: &[u8], i: usize, enc: Enc) -> Option<(&[u8], Option<Ending>, bool)> {
    for &(w, ending) in &glyphs::SPECIALS {
        if at(b, i, w, enc) {
            let end = i + len(w, enc);
            let next = skip_spaces(b, end, enc);
            if next == b.len() || b[next] == b'(' || next > end {
                return Some((&b[i..end], ending, true));
            }
        }
    }
    let mut j = i;
    while j < b.len() && !matches!(b[j], b' ' | b'\t' | b'(') && !at(b, j, glyphs::IDSP, enc) {
        j += super::lex::char_len(b, j, enc);
    }
    (j > i).then(|| (&b[i..j], Some(Ending::Other), false))
}

/// Reads up to 9 ASCII digits at `b[*i]`.
#[inline]
fn number(b: &[u8], i: &mut usize) -> Option<u64> {
    let start = *i;
    let mut v = 0u64;
    while let Some(d) = b.get(*i).filter(|c| c.is_ascii_digit()) {
        v = v * 10 + u64::from(d - b'0');
        *i += 1;
        if *i - start > 9 {
            return None;
        }
    }
    (*i > start).then_some(v)
}

/// A time `(m:ss/h:mm:ss)` at `b[i]` (the `(`): the first part in milliseconds.
fn time(b: &[u8], i: usize) -> Option<u64> {
    let mut j = i + 1;
    let skip = |j: &mut usize| {
        while matches!(b.get(*j), Some(b' ' | b'\t')) {
            *j += 1;
        }
    };
    skip(&mut j);
    let first = clock(b, &mut j)?;
    skip(&mut j);
    if b.get(j) == Some(&b'/') {
        j += 1;
        skip(&mut j);
        clock(b, &mut j)?;
        skip(&mut j);
    }
    (b.get(j) == Some(&b')')).then_some(first)
}

/// `m:ss`, `h:mm:ss` (or a bare number of seconds) at `b[*j]`, in milliseconds.
fn clock(b: &[u8], j: &mut usize) -> Option<u64> {
    let mut secs = number(b, j)?;
    let mut parts = 1;
    while b.get(*j) == Some(&b':') && parts < 3 {
        *j += 1;
        let n = number(b, j)?;
        secs = secs.checked_mul(60)?.checked_add(n)?;
        parts += 1;
    }
    secs.checked_mul(1000)
}

#[cfg(test)]
mod tests {
    use super::super::lex::{classify, Kind};
    use super::*;

    fn utf8(s: &str) -> MoveLine<'_> {
        parse(s.as_bytes(), Enc::Utf8)
    }

    #[test]
    fn moves_and_times() {
        let m = utf8("   1 ７六歩(77)   ( 0:16/00:00:16)+");
        assert_eq!(m.ply, 1);
        let w =
            Written { to: Some(Square::new(7, 6)), piece: Piece::Pawn, promote: false, from: Some(Square::new(7, 7)) };
        assert_eq!(m.body, Body::Move(w));
        assert_eq!(m.time, Some(Ok((16_000, 21))));
        let m = utf8("  11 同　銀成(88)   (00:01 / 00:00:07)");
        assert!(matches!(m.body, Body::Move(Written { to: None, piece: Piece::Silver, promote: true, .. })));
        assert_eq!(m.time.unwrap().unwrap().0, 1000);
        let m = utf8("5 １四香打");
        assert!(matches!(m.body, Body::Move(Written { from: None, piece: Piece::Lance, .. })));
        assert_eq!(m.time, None);
        let m = utf8("  12 ６二成銀(71) ( 1:02:03/)");
        assert!(matches!(m.body, Body::Move(Written { piece: Piece::ProSilver, .. })));
        assert!(matches!(m.time, Some(Err(_))));
        let m = utf8("  12 ６二銀(71) ( 1:02:03)");
        assert_eq!(m.time.unwrap().unwrap().0, 3_723_000);
    }

    #[test]
    fn a_ply_of_many_digits_is_no_move_and_no_overflow() {
        // (A fuzz find: the ply was multiplied before its length was checked.)
        for enc in [Enc::Utf8, Enc::Sjis] {
            let line = b"18446744073709551616999 \xef\xbc\x97\xe5\x85\xad\xe6\xad\xa9(77)";
            assert!(common(line, enc).is_none());
            assert!(common(&[b'9'; 40], enc).is_none());
        }
    }

    #[test]
    fn the_common_shape_reads_as_the_general_reader_does() {
        let heads = ["   1 ", "12 ", "  1234  ", " 1\t", "\t3 ", "    ", "1234567890 "];
        let moves = [
            "７六歩(77)",
            "１一と(12)",
            "同　歩(66)",
            "同歩(66)",
            "同　　金(41)",
            "５五角打",
            "９九香打",
            "２二角成(88)",
            "２二角不成(88)",
            "３三成銀(44)",
            "３三銀成(44)",
            "３三銀成打",
            "▲７六歩(77)",
            "７六歩(07)",
            "７六歩(7",
            "７十歩(77)",
            "７六(77)",
            "7六歩(77)",
            "７六歩",
            "投了",
        ];
        let tails = [
            "",
            "   ( 0:16/00:00:16)",
            "( 0:16/00:00:16)+",
            "   (10:05/01:02:03)",
            " (00:01 / 00:00:07)",
            " ( 1:02:03/)",
            " ( 1:02:03)",
            "　( 0:01/00:00:01)",
            " (123:00/10:00:00)",
            " ( 0:16/00:00:16",
            " (0:1x/00:00:16)",
            " x",
            "\t( 9:59/99:59:59)",
            " (:0:16/00:00:16)",
            " ( 0:1:/00:00:16)",
            " ( 0:16/00:00:1:)",
            " ( 0:16/00:00:16]",
            " ( 0:16 00:00:16)",
        ];
        let mut common_lines = 0;
        for h in heads {
            for m in moves {
                for t in tails {
                    let text = format!("{h}{m}{t}");
                    let sjis = encoding_rs::SHIFT_JIS.encode(&text).0;
                    for (b, enc) in [(text.as_bytes(), Enc::Utf8), (&*sjis, Enc::Sjis)] {
                        if let Some(c) = common(b, enc) {
                            assert_eq!(c, general(b, enc), "{text} {enc:?}");
                            assert_eq!(classify(b, enc), Kind::Move { real: true }, "{text} {enc:?}");
                            common_lines += 1;
                        }
                    }
                }
            }
        }
        // The shapes the fast reading is for are read by it.
        assert!(common("   1 ７六歩(77)   ( 0:16/00:00:16)".as_bytes(), Enc::Utf8).is_some());
        assert!(common(&encoding_rs::SHIFT_JIS.encode("  11 同　銀成(88)   (10:01/00:00:07)+").0, Enc::Sjis).is_some());
        assert!(common_lines > 500, "{common_lines}");
    }

    #[test]
    fn the_usual_time_layout_reads_as_time_does() {
        assert_eq!(usual_time(b"( 0:16/00:00:16)", 0), Some(16_000));
        assert_eq!(usual_time(b"x(12:34/01:02:03)+", 1), Some(754_000));
        assert_eq!(usual_time(b"(00:00/00:00:00", 0), None);
        // Random strings of the layout's bytes and a few others, mostly in its shape.
        let alphabet = b"( 0123456789:/)x\xff";
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut some = 0;
        for _ in 0..200_000 {
            let mut t = *b"( 0:16/00:00:16)";
            for _ in 0..1 + (seed % 3) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                t[(seed >> 8) as usize % 16] = alphabet[(seed >> 20) as usize % alphabet.len()];
            }
            if let Some(ms) = usual_time(&t, 0) {
                assert_eq!(Some(ms), time(&t, 0), "{}", String::from_utf8_lossy(&t));
                some += 1;
            }
        }
        assert!(some > 10_000, "{some}");
    }

    #[test]
    fn pieces_and_numerals_by_code_are_the_tables() {
        for enc in [Enc::Utf8, Enc::Sjis] {
            for &(w, p) in &glyphs::PIECES {
                assert_eq!(piece_at(w[enc as usize], 0, enc), Some((p, len(w, enc))));
            }
            for (k, &w) in glyphs::NUMERALS.iter().enumerate() {
                assert_eq!(numeral_at(w[enc as usize], 0, enc), Some(k as u8 + 1));
            }
        }
        // Not continuation bytes: no character.
        assert_eq!(piece_at(&[0xE6, 0x2D, 0xA9], 0, Enc::Utf8), None);
        assert_eq!(piece_at("成".as_bytes(), 0, Enc::Utf8), None);
    }

    #[test]
    fn specials() {
        let m = utf8("  166 切れ負け     ( 0:00/00:11:55)");
        assert_eq!(m.body, Body::Special { word: "切れ負け".as_bytes(), ending: Some(Ending::TimeUp), known: true });
        let m = utf8("  4 詰み");
        assert!(matches!(m.body, Body::Special { ending: Some(Ending::Checkmate), .. }));
        let m = utf8("  4 なにか (0:01)");
        assert!(matches!(m.body, Body::Special { known: false, .. }));
        let sjis = encoding_rs::SHIFT_JIS.encode("   4 投了         ( 0:00/00:00:01)").0;
        assert!(matches!(parse(&sjis, Enc::Sjis).body, Body::Special { ending: Some(Ending::Resign), .. }));
    }
}
