//! A character of a line read as one number (its code point in UTF-8, where every word of the
//! tables is three bytes long; its two bytes in CP932), and small tables from those numbers to
//! a word's place in a table of one-character words (pieces, numerals, side marks, direction
//! words), each looked up with one multiplication and one comparison instead of a walk along
//! the table.

use super::glyphs::Word;
use super::lex::Enc;

/// The character at `b[i]` as a number, and its length; `None` for anything but a three-byte
/// UTF-8 character or two CP932 bytes.
#[inline(always)]
pub(crate) fn code_at(b: &[u8], i: usize, enc: Enc) -> Option<(u32, usize)> {
    match enc {
        Enc::Utf8 => match b.get(i..i.wrapping_add(3))? {
            &[a @ 0xE0..=0xEF, x, y] if x & 0xC0 == 0x80 && y & 0xC0 == 0x80 => {
                Some((u32::from(a & 0x0F) << 12 | u32::from(x & 0x3F) << 6 | u32::from(y & 0x3F), 3))
            }
            _ => None,
        },
        Enc::Sjis => match b.get(i..i.wrapping_add(2))? {
            &[a, x] => Some((u32::from(a) << 8 | u32::from(x), 2)),
            _ => None,
        },
    }
}

/// [`code_at`] of a table word's first character, in charset `enc` (`FF FF`, a form the charset
/// cannot write, gives the number of those two bytes).
pub(crate) const fn word_code(w: Word, enc: usize) -> u32 {
    let b = w[enc];
    if enc == 0 {
        ((b[0] & 0x0F) as u32) << 12 | ((b[1] & 0x3F) as u32) << 6 | (b[2] & 0x3F) as u32
    } else {
        (b[0] as u32) << 8 | b[1] as u32
    }
}

/// The codes of `words` in charset `enc`.
pub(crate) const fn codes<const N: usize>(words: [Word; N], enc: usize) -> [u32; N] {
    let mut out = [0; N];
    let mut k = 0;
    while k < N {
        out[k] = word_code(words[k], enc);
        k += 1;
    }
    out
}

/// Slots of a [`Lookup`]: its hash is the top six bits of a product.
const SLOTS: usize = 64;
/// The place of an empty slot.
const EMPTY: u8 = u8::MAX;

/// A perfect hash from at most a few dozen codes to their place in the list they came from.
#[derive(Debug)]
pub(crate) struct Lookup {
    mul: u32,
    codes: [u32; SLOTS],
    places: [u8; SLOTS],
}

impl Lookup {
    /// The table of `codes` (the first of equal codes keeps its place), with a multiplier found
    /// at compile time for which no two different codes share a slot.
    pub(crate) const fn new(codes: &[u32]) -> Lookup {
        let mut mul: u32 = 0x9E37_79B1;
        let mut tries = 0;
        while tries < 10_000 {
            let mut t = Lookup { mul, codes: [0; SLOTS], places: [EMPTY; SLOTS] };
            let mut ok = true;
            let mut k = 0;
            while k < codes.len() && ok {
                let h = Lookup::slot(mul, codes[k]);
                if t.places[h] == EMPTY {
                    t.codes[h] = codes[k];
                    t.places[h] = k as u8;
                } else if t.codes[h] != codes[k] {
                    ok = false;
                }
                k += 1;
            }
            if ok {
                return t;
            }
            mul = mul.wrapping_add(0x6A09_E668) | 1;
            tries += 1;
        }
        panic!("no multiplier separates these codes");
    }

    #[inline(always)]
    const fn slot(mul: u32, code: u32) -> usize {
        (code.wrapping_mul(mul) >> 26) as usize
    }

    /// The place of `code` in the list, if it is there.
    #[inline(always)]
    pub(crate) fn find(&self, code: u32) -> Option<usize> {
        let h = Lookup::slot(self.mul, code);
        let place = self.places[h];
        (place != EMPTY && self.codes[h] == code).then_some(place as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::kakinoki::glyphs;

    #[test]
    fn lookups_find_each_word_and_nothing_else() {
        for enc in [0, 1] {
            let list = codes(glyphs::NUMERALS, enc);
            let t = Lookup::new(&list);
            for (k, &c) in list.iter().enumerate() {
                assert_eq!(t.find(c), Some(k));
            }
            assert_eq!(t.find(0), None);
            assert_eq!(t.find(list[0] + 1), list.iter().position(|&c| c == list[0] + 1));
        }
        // Equal codes: the first keeps its place.
        let t = Lookup::new(&[7, 9, 7]);
        assert_eq!((t.find(7), t.find(9), t.find(8)), (Some(0), Some(1), None));
        let s = "▲七".as_bytes();
        assert_eq!(code_at(s, 0, Enc::Utf8), Some((0x25B2, 3)));
        assert_eq!(code_at(s, 1, Enc::Utf8), None);
        assert_eq!(code_at(b"\x81\xa3", 0, Enc::Sjis), Some((0x81A3, 2)));
        assert_eq!(code_at(b"\x81", 0, Enc::Sjis), None);
    }
}
