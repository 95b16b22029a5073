//! Board sizes as SGF `SZ` text (`19`, `19:13`) from a static table, so that an
//! `Info(BoardSize)` built from JSON `width`/`height` numbers borrows nothing and allocates
//! nothing.

use crate::text::{Charset, Text, TextRule};

const MAX: usize = 52;

/// `"n"` for n in 0..=52, then `"w:h"` for every pair, each in a 5-byte slot with its length.
static SIZES: [([u8; 5], u8); (MAX + 1) * (MAX + 1)] = build();

const fn digits(n: usize, out: &mut [u8; 5], at: usize) -> usize {
    if n >= 10 {
        out[at] = b'0' + (n / 10) as u8;
        out[at + 1] = b'0' + (n % 10) as u8;
        at + 2
    } else {
        out[at] = b'0' + n as u8;
        at + 1
    }
}

const fn build() -> [([u8; 5], u8); (MAX + 1) * (MAX + 1)] {
    let mut t = [([0u8; 5], 0u8); (MAX + 1) * (MAX + 1)];
    let mut w = 0;
    while w <= MAX {
        let mut h = 0;
        while h <= MAX {
            let mut buf = [0u8; 5];
            let mut n = digits(w, &mut buf, 0);
            if w != h {
                buf[n] = b':';
                n = digits(h, &mut buf, n + 1);
            }
            t[w * (MAX + 1) + h] = (buf, n as u8);
            h += 1;
        }
        w += 1;
    }
    t
}

/// The SGF `SZ` text of a `w`×`h` board (both at most 52; larger values are clamped).
pub(crate) fn board_size_text(w: u8, h: u8) -> Text<'static> {
    let (w, h) = ((w as usize).min(MAX), (h as usize).min(MAX));
    let (buf, len) = &SIZES[w * (MAX + 1) + h];
    Text::new(&buf[..*len as usize], TextRule::Plain, Charset::Utf8)
}

#[cfg(test)]
mod tests {
    #[test]
    fn texts() {
        assert_eq!(super::board_size_text(19, 19).raw(), b"19");
        assert_eq!(super::board_size_text(19, 13).raw(), b"19:13");
        assert_eq!(super::board_size_text(9, 9).raw(), b"9");
        assert_eq!(super::board_size_text(5, 52).raw(), b"5:52");
    }
}
