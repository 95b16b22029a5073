//! What the Go formats that do not list their own numbers share (GIB, NGF, UGF): the handicap
//! stones they leave to the reader, placed in Tygem's layout, and static decimal strings for
//! values they write in another unit (GIB komi ×10, NGF's integer komi meaning `x.5`), so that
//! an [`Info`](crate::event::Info) can borrow its text like every other event (from a table in
//! the binary, not from the input).
//!
//! Costs: the tables are built at compile time (2 × 4001 entries of 8 bytes); a lookup is an index.

use crate::event::{Color, Point};

/// The handicap stones Tygem places for `count` stones on a square board of `size`, in the order
/// Sabaki's `getHandicapPlacement(count, {tygem: true})` gives them: lower left, upper right,
/// upper left, lower right, then (odd sizes but 7) the centre for 5 and 7, the sides, the
/// centre. Boards of 6 lines or fewer, and counts below 2, get none; the list stops at `count`.
pub(crate) fn tygem_handicap(size: u8, count: u8) -> impl Iterator<Item = Point> {
    let mut out = [Point::new(0, 0); 9];
    let mut n = 0;
    if size > 6 && count >= 2 {
        let near = if size >= 13 { 3 } else { 2 };
        let far = size - near - 1;
        let mid = (size - 1) / 2;
        let mut push = |x: u8, y: u8| {
            if n < 9 {
                out[n] = Point::new(x, y);
                n += 1;
            }
        };
        push(near, far);
        push(far, near);
        push(near, near);
        push(far, far);
        if size % 2 == 1 && size != 7 {
            if count == 5 {
                push(mid, mid);
            }
            push(near, mid);
            push(far, mid);
            if count == 7 {
                push(mid, mid);
            }
            push(mid, near);
            push(mid, far);
            push(mid, mid);
        }
    }
    let n = n.min(count as usize);
    out.into_iter().take(n)
}

/// The largest number of tenths the tables hold (400.0).
pub(crate) const MAX_TENTHS: u32 = 4000;

const ENTRIES: usize = MAX_TENTHS as usize + 1;

/// `prefix` + the decimal form of `n` tenths (`65` → `6.5`, `60` → `6`, `5` → `0.5`), as
/// JavaScript's `(n / 10).toString()` writes it; entries are 8 bytes, the length in byte 7.
const fn table(prefix: &[u8]) -> [[u8; 8]; ENTRIES] {
    let mut t = [[0u8; 8]; ENTRIES];
    let mut n = 0;
    while n < ENTRIES {
        let mut e = [0u8; 8];
        let mut len = 0;
        let mut k = 0;
        while k < prefix.len() {
            e[len] = prefix[k];
            len += 1;
            k += 1;
        }
        let whole = n / 10;
        let tenth = n % 10;
        // Up to three digits of the whole part.
        if whole >= 100 {
            e[len] = b'0' + (whole / 100) as u8;
            len += 1;
        }
        if whole >= 10 {
            e[len] = b'0' + (whole / 10 % 10) as u8;
            len += 1;
        }
        e[len] = b'0' + (whole % 10) as u8;
        len += 1;
        if tenth != 0 {
            e[len] = b'.';
            e[len + 1] = b'0' + tenth as u8;
            len += 2;
        }
        e[7] = len as u8;
        t[n] = e;
        n += 1;
    }
    t
}

static BLACK: [[u8; 8]; ENTRIES] = table(b"B+");
static WHITE: [[u8; 8]; ENTRIES] = table(b"W+");

/// The decimal form of `n` tenths (`65` → `"6.5"`), or `None` above [`MAX_TENTHS`].
pub(crate) fn tenths(n: u32) -> Option<&'static [u8]> {
    let e = BLACK.get(n as usize)?;
    Some(&e[2..e[7] as usize])
}

/// An SGF result for a win by `n` tenths of a point (`W`, `245` → `"W+24.5"`), or `None` above
/// [`MAX_TENTHS`].
pub(crate) fn win_by_tenths(winner: Color, n: u32) -> Option<&'static [u8]> {
    let t = match winner {
        Color::Black => &BLACK,
        Color::White => &WHITE,
    };
    let e = t.get(n as usize)?;
    Some(&e[..e[7] as usize])
}

/// The leading decimal digits of `s` as a number (`None` without any, or past `u32`).
pub(crate) fn leading_number(s: &[u8]) -> Option<u32> {
    let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 || n > 9 {
        return None;
    }
    Some(s[..n].iter().fold(0u32, |v, &c| v * 10 + (c - b'0') as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(points: impl Iterator<Item = Point>) -> String {
        points.map(|p| format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn tygem_layout() {
        assert_eq!(sgf(tygem_handicap(19, 2)), "dp pd");
        assert_eq!(sgf(tygem_handicap(19, 3)), "dp pd dd");
        assert_eq!(sgf(tygem_handicap(19, 4)), "dp pd dd pp");
        assert_eq!(sgf(tygem_handicap(19, 5)), "dp pd dd pp jj");
        assert_eq!(sgf(tygem_handicap(19, 6)), "dp pd dd pp dj pj");
        assert_eq!(sgf(tygem_handicap(19, 7)), "dp pd dd pp dj pj jj");
        assert_eq!(sgf(tygem_handicap(19, 9)), "dp pd dd pp dj pj jd jp jj");
        assert_eq!(sgf(tygem_handicap(9, 2)), "cg gc");
        assert_eq!(sgf(tygem_handicap(8, 9)), "cf fc cc ff");
        assert_eq!(tygem_handicap(19, 1).count(), 0);
        assert_eq!(tygem_handicap(5, 4).count(), 0);
    }

    #[test]
    fn decimal_strings() {
        assert_eq!(tenths(65), Some(&b"6.5"[..]));
        assert_eq!(tenths(60), Some(&b"6"[..]));
        assert_eq!(tenths(5), Some(&b"0.5"[..]));
        assert_eq!(tenths(0), Some(&b"0"[..]));
        assert_eq!(tenths(4000), Some(&b"400"[..]));
        assert_eq!(tenths(4001), None);
        assert_eq!(win_by_tenths(Color::White, 245), Some(&b"W+24.5"[..]));
        assert_eq!(win_by_tenths(Color::Black, 3995), Some(&b"B+399.5"[..]));
        assert_eq!(leading_number(b"245,"), Some(245));
        assert_eq!(leading_number(b"x"), None);
        assert_eq!(leading_number(b"99999999999"), None);
    }
}
