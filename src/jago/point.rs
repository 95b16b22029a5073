//! Jago's point and number forms: `Q16` (a column letter without `I`, then the row counted from
//! the bottom), two-letter columns beyond 25, the DTD's numeric `4,10`, `PASS`; move numbers and
//! times in seconds.

use crate::event::Point;

/// Largest board side kifu represents (as SGF).
pub(crate) const MAX_SIZE: u8 = 52;

/// What a point value says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pt {
    /// Empty (or white space only): a pass for a move, an error elsewhere.
    Empty,
    /// `PASS` in any case.
    Pass,
    /// A point on the board.
    At(Point),
    /// A point that can be represented but lies outside the board (column beyond the size).
    OffBoard(Point),
    /// Not a point.
    Bad,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `raw` without leading and trailing XML white space.
pub(crate) fn trim(raw: &[u8]) -> &[u8] {
    let mut s = 0;
    let mut e = raw.len();
    while s < e && is_ws(raw[s]) {
        s += 1;
    }
    while e > s && is_ws(raw[e - 1]) {
        e -= 1;
    }
    &raw[s..e]
}

/// A column letter's index, skipping `I` (`A`=0 … `H`=7, `J`=8 … `Z`=24), any case.
#[inline]
fn letter(b: u8) -> Option<u8> {
    match b.to_ascii_uppercase() {
        c @ b'A'..=b'H' => Some(c - b'A'),
        c @ b'J'..=b'Z' => Some(c - b'A' - 1),
        _ => None,
    }
}

/// A positive decimal number of at most 3 digits.
fn small_number(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 3 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
}

/// Parses a Jago point on a board of side `size`.
///
/// - `Q16`: column letters skip `I`; rows count from the bottom, so on 19×19 `A19` is (0, 0)
///   and `T1` is (18, 18). Case does not matter.
/// - Two letters number the columns after `Z` (25): `AA` = 25, `AB` = 26, … `AZ` = 49, `BA` = 50
///   (the first letter counts blocks of 25, from 1).
/// - `4,10`: the DTD's numeric form for large boards, column and row from 1, the row counted
///   from the bottom as in `D10`.
/// - `PASS`, and the empty value (white space only).
pub(crate) fn parse(raw: &[u8], size: u8) -> Pt {
    // The usual form, one letter and one or two digits (`Q16`), without the general path's
    // trimming and searching; the same checks below.
    let (col, row) = match *raw {
        [a, d] if d.is_ascii_digit() => (letter(a), u32::from(d - b'0')),
        [a, d, e] if d.is_ascii_digit() && e.is_ascii_digit() => {
            (letter(a), u32::from(d - b'0') * 10 + u32::from(e - b'0'))
        }
        _ => (None, 0),
    };
    if let Some(col) = col {
        return on_board(u32::from(col), row, size);
    }
    let s = trim(raw);
    if s.is_empty() {
        return Pt::Empty;
    }
    if s.eq_ignore_ascii_case(b"pass") {
        return Pt::Pass;
    }
    let (col, row) = if let Some(c) = memchr::memchr(b',', s) {
        match (small_number(trim(&s[..c])), small_number(trim(&s[c + 1..]))) {
            (Some(x), Some(y)) if x >= 1 => (x - 1, y),
            _ => return Pt::Bad,
        }
    } else {
        let digits = s.iter().position(u8::is_ascii_digit).unwrap_or(s.len());
        let col = match &s[..digits] {
            [a] => letter(*a).map(u32::from),
            [a, b] => match (letter(*a), letter(*b)) {
                (Some(a), Some(b)) => Some(25 + 25 * u32::from(a) + u32::from(b)),
                _ => None,
            },
            _ => None,
        };
        match (col, small_number(&s[digits..])) {
            (Some(c), Some(r)) => (c, r),
            _ => return Pt::Bad,
        }
    };
    on_board(col, row, size)
}

/// The point at zero-based column `col` and row `row` counted from the bottom from 1.
#[inline]
fn on_board(col: u32, row: u32, size: u8) -> Pt {
    if row == 0 || row > u32::from(size) || col >= u32::from(MAX_SIZE) {
        return Pt::Bad;
    }
    let p = Point::new(col as u8, (u32::from(size) - row) as u8);
    if col >= u32::from(size) {
        Pt::OffBoard(p)
    } else {
        Pt::At(p)
    }
}

/// A board size: a decimal number from 1 to 52, white space around allowed.
pub(crate) fn parse_size(raw: &[u8]) -> Option<u8> {
    match small_number(trim(raw)) {
        Some(n @ 1..=52) => Some(n as u8),
        _ => None,
    }
}

/// A move number: decimal digits (white space around allowed), up to `u32::MAX`.
pub(crate) fn parse_number(raw: &[u8]) -> Option<u32> {
    let s = trim(raw);
    if s.is_empty() || s.len() > 10 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = s.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    u32::try_from(n).ok()
}

/// A time in seconds (`1753.0`, `12`, `1.0E7` as Java writes large doubles) as milliseconds,
/// rounded. Negative, non-finite or absurdly large values are refused.
pub(crate) fn parse_seconds_ms(raw: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(trim(raw)).ok()?;
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    let ms = (v * 1000.0).round();
    if !ms.is_finite() || !(0.0..=9.0e15).contains(&ms) {
        return None;
    }
    Some(ms as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_skip_i_and_rows_count_from_the_bottom() {
        assert_eq!(parse(b"A19", 19), Pt::At(Point::new(0, 0)));
        assert_eq!(parse(b"T1", 19), Pt::At(Point::new(18, 18)));
        assert_eq!(parse(b"J10", 19), Pt::At(Point::new(8, 9)));
        assert_eq!(parse(b" q16\n", 19), Pt::At(Point::new(15, 3)));
        assert_eq!(parse(b"I5", 19), Pt::Bad);
        assert_eq!(parse(b"A20", 19), Pt::Bad);
        assert_eq!(parse(b"A0", 19), Pt::Bad);
        assert_eq!(parse(b"U1", 19), Pt::OffBoard(Point::new(19, 18)));
        assert_eq!(parse(b"PASS", 19), Pt::Pass);
        assert_eq!(parse(b"pass", 19), Pt::Pass);
        assert_eq!(parse(b"  ", 19), Pt::Empty);
        assert_eq!(parse(b"Q", 19), Pt::Bad);
        assert_eq!(parse(b"16", 19), Pt::Bad);
        assert_eq!(parse(b"Q16x", 19), Pt::Bad);
    }

    #[test]
    fn the_short_form_reads_as_the_general_path() {
        // A leading space sends the same point through the general path.
        for size in [1, 9, 13, 19, 25, 52] {
            for a in (b'0'..=b'9').chain(b'A'..=b'Z').chain(b'a'..=b'z') {
                for row in 0..=120u32 {
                    let mut short = vec![a];
                    short.extend_from_slice(row.to_string().as_bytes());
                    if row < 10 && row % 3 == 0 {
                        short.insert(1, b'0');
                    }
                    let mut long = vec![b' '];
                    long.extend_from_slice(&short);
                    assert_eq!(parse(&short, size), parse(&long, size), "{}", String::from_utf8_lossy(&short));
                }
            }
        }
    }

    #[test]
    fn two_letter_columns_and_numeric_form() {
        assert_eq!(parse(b"Z1", 52), Pt::At(Point::new(24, 51)));
        assert_eq!(parse(b"AA1", 52), Pt::At(Point::new(25, 51)));
        assert_eq!(parse(b"AZ52", 52), Pt::At(Point::new(49, 0)));
        assert_eq!(parse(b"BB52", 52), Pt::At(Point::new(51, 0)));
        assert_eq!(parse(b"BC52", 52), Pt::Bad);
        assert_eq!(parse(b"4,10", 19), Pt::At(Point::new(3, 9)));
        assert_eq!(parse(b"30, 1", 40), Pt::At(Point::new(29, 39)));
        assert_eq!(parse(b"0,1", 19), Pt::Bad);
        assert_eq!(parse(b"4,", 19), Pt::Bad);
    }

    #[test]
    fn numbers_and_times() {
        assert_eq!(parse_size(b"19"), Some(19));
        assert_eq!(parse_size(b"53"), None);
        assert_eq!(parse_size(b"0"), None);
        assert_eq!(parse_number(b"12"), Some(12));
        assert_eq!(parse_number(b"1.0"), None);
        assert_eq!(parse_seconds_ms(b"1753.0"), Some(1_753_000));
        assert_eq!(parse_seconds_ms(b"0.0015"), Some(2));
        assert_eq!(parse_seconds_ms(b"1.0E7"), Some(10_000_000_000));
        assert_eq!(parse_seconds_ms(b"-1"), None);
        assert_eq!(parse_seconds_ms(b"NaN"), None);
        assert_eq!(parse_seconds_ms(b"abc"), None);
    }
}
