//! The hot path, taken at a line start inside a game while nothing is pending, queued, expanded
//! or out of place (see `Reader::hot_end`): a move line (`+7776FU`, maybe with a whole-second
//! time after a comma or on the next line: `+7776FU,T12`, `T12`), a whole-second time line and
//! a `'**` evaluation line, each read in place from the input in one step, without the
//! tokenizer and without reading ahead. Anything else, or any doubt (a CR, a fraction of a
//! second, a blank, a limit, a line cut by the end of the input), goes to the general path with
//! the reader's state as it was, and the general path gives the same events: the unit tests in
//! `tests.rs` and `tests/xml_csa_speed.rs` hold the two to each other.

use super::{Pending, Reader};
use crate::csa::lex;
use crate::csa::pv::move_from;
use crate::event::{Clock, ClockKind, Evaluation, Event};

impl<'a> Reader<'a> {
    /// The event of the line at `p` (a line start below `hot_end`) read in place, or `None`
    /// (nothing changed) for the general path. A move gives `Node` and leaves its `Move` (and
    /// the `Clock` of a time read with it) pending.
    #[inline(always)]
    pub(super) fn fast(&mut self, p: usize) -> Option<Event<'a>> {
        match *self.input.get(p)? {
            b'+' | b'-' => self.fast_move(p),
            b'T' if self.last_color.is_some() => {
                let (value, next) = whole_seconds(self.input, p + 1)?;
                self.lex.next_line_at(next);
                self.stmt_offset = p;
                Some(Event::Clock(Clock { color: self.last_color, kind: ClockKind::ElapsedMs, value }))
            }
            b'\'' => self.fast_evaluation(p),
            _ => None,
        }
    }

    /// A move at `p` read as one word with the byte after it, and the next eight bytes as a
    /// second word: the move then LF, maybe followed by a line `T` and whole seconds, or the
    /// move, a comma, `T` and whole seconds. Fewer than sixteen bytes left take the general path.
    #[inline(always)]
    fn fast_move(&mut self, p: usize) -> Option<Event<'a>> {
        let input = self.input;
        let (w, next_word) = input.get(p..)?.first_chunk::<16>()?.split_first_chunk::<8>()?;
        let (w, next_word) = (u64::from_le_bytes(*w), u64::from_le_bytes(*next_word.first_chunk::<8>()?));
        let after = (w >> 56) as u8;
        if after != b'\n' && after != b',' {
            return None;
        }
        let m = move_from(w as u8, (w >> 8) as u32, (w >> 40) as u8, (w >> 48) as u8)?;
        let t = p + 8;
        let timed = if next_word as u8 == b'T' && t < self.hot_end { seconds_at(input, t, next_word) } else { None };
        match timed {
            Some((value, next)) => {
                self.lex.next_line_at(next);
                self.pending = Pending::MoveClock(m, t, value);
            }
            // A comma-joined line whose second statement is not read here.
            None if after == b',' => return None,
            None => {
                self.lex.next_line_at(t);
                self.pending = Pending::Move(m);
            }
        }
        self.stmt_offset = p;
        self.moves += 1;
        self.last_color = Some(m.color);
        Some(Event::Node)
    }

    /// The usual `'**` line at `p`: one blank, a score of one to seven digits with an optional
    /// `-`, then the line end, or one blank and the PV up to a LF or CR; read a word at a time.
    /// The same event as `parse_evaluation` on the line gives; `None` (nothing changed) for any
    /// other shape.
    #[inline(never)]
    fn fast_evaluation(&mut self, p: usize) -> Option<Event<'a>> {
        let input = self.input;
        let head = input.get(p..)?.first_chunk::<4>()?;
        if head != b"'** " {
            return None;
        }
        let neg = input.get(p + 4) == Some(&b'-');
        let first = p + 4 + neg as usize;
        // The digits: each byte XOR `0` is 0-9 exactly for a digit; the lowest byte that is not
        // has its high bit set after adding 0x76 (or had it before).
        let x = u64::from_le_bytes(*input.get(first..)?.first_chunk::<8>()?) ^ splat(b'0');
        let n = ((x.wrapping_add(splat(0x76)) | x) & splat(0x80)).trailing_zeros() as usize / 8;
        if n == 0 || n > 7 {
            return None;
        }
        let v = digits_value(x, n) as i32;
        let q = first + n;
        let (pv_start, e) = match input.get(q) {
            Some(b'\n' | b'\r') => (q, q),
            Some(b' ') if !matches!(input.get(q + 1), Some(b' ' | b'\t')) => (q + 1, control_at(input, q + 1)),
            _ => return None,
        };
        if e - p > self.config.limits.max_value_len {
            return None;
        }
        // A control byte other than a line end (a tab in the PV) takes the general path.
        let next = lex::line_after(input, e)?;
        let pv = input.get(pv_start..e)?;
        self.lex.next_line_at(next);
        self.stmt_offset = p;
        let score = Some(if neg { -v } else { v });
        Some(Event::Evaluation(Evaluation { score, pv }))
    }
}

/// A whole number of seconds (1 to 11 digits) from `at` up to a line end or the end of the
/// input: its milliseconds and the start of the next line.
#[inline(always)]
fn whole_seconds(input: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut q = at;
    let mut v = 0u64;
    while let Some(&c) = input.get(q) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v * 10 + d as u64;
        q += 1;
        if q - at > 11 {
            return None;
        }
    }
    if q == at {
        return None;
    }
    Some((v * 1000, lex::line_after(input, q)?))
}

/// [`whole_seconds`] after the `T` at `t`, given the eight bytes from `t` as a word: one or
/// two digits and the line end read from the word, longer numbers by [`whole_seconds`].
#[inline(always)]
fn seconds_at(input: &[u8], t: usize, word: u64) -> Option<(u64, usize)> {
    let (d0, d1) = (((word >> 8) as u8).wrapping_sub(b'0'), ((word >> 16) as u8).wrapping_sub(b'0'));
    let (v, n) = match (d0, d1) {
        (0..=9, 10..) => (d0 as u64, 1),
        (0..=9, _) if !((word >> 24) as u8).is_ascii_digit() => (d0 as u64 * 10 + d1 as u64, 2),
        (0..=9, _) => return whole_seconds(input, t + 1),
        _ => return None,
    };
    let e = t + 1 + n;
    let next = if (word >> (8 * (n + 1))) as u8 == b'\n' { e + 1 } else { lex::line_after(input, e)? };
    Some((v * 1000, next))
}

/// The number written by the lowest `n` bytes of `x` (1 to 7), each a digit's value 0-9, the
/// first the most significant: pairs, then fours, then eights combined at once.
#[inline(always)]
fn digits_value(x: u64, n: usize) -> u64 {
    // The digits moved to the top bytes, zeros (leading zeros) below them.
    let v = (x & ((1u64 << (8 * n)) - 1)) << (8 * (8 - n));
    let v = (v.wrapping_mul(10).wrapping_add(v >> 8)) & 0x00FF_00FF_00FF_00FF;
    let v = (v.wrapping_mul(100).wrapping_add(v >> 16)) & 0x0000_FFFF_0000_FFFF;
    (v.wrapping_mul(10_000).wrapping_add(v >> 32)) & 0xFFFF_FFFF
}

/// Eight copies of a byte.
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The first ASCII control byte below 0x0E (LF, CR, a tab…) at or after `s`, or the input's
/// length: sixteen bytes at a time, then eight, then one.
#[inline(always)]
fn control_at(input: &[u8], s: usize) -> usize {
    // The high bit of each byte below 0x0E (exact for the lowest such byte).
    let below = |w: u64| w.wrapping_sub(splat(0x0E)) & !w & splat(0x80);
    let at = |i: usize, m: u64| i + (m.trailing_zeros() / 8) as usize;
    let mut i = s;
    while let Some(c) = input.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let w = u128::from_le_bytes(*c);
        let (ma, mb) = (below(w as u64), below((w >> 64) as u64));
        if ma != 0 {
            return at(i, ma);
        }
        if mb != 0 {
            return at(i + 8, mb);
        }
        i += 16;
    }
    if let Some(c) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let m = below(u64::from_le_bytes(*c));
        if m != 0 {
            return at(i, m);
        }
        i += 8;
    }
    while input.get(i).is_some_and(|&c| c >= 0x0E) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    #[test]
    fn digits_value_reads_one_to_seven_digits() {
        for text in ["0", "7", "12", "09", "100", "4321", "98765", "123456", "9999999", "0000001"] {
            let mut w = [0u8; 8];
            for (i, c) in text.bytes().enumerate() {
                w[i] = c - b'0';
            }
            // Bytes above the digits are ignored.
            w[text.len()] = 0x3a;
            let x = u64::from_le_bytes(w);
            assert_eq!(super::digits_value(x, text.len()), text.parse::<u64>().unwrap(), "{text}");
        }
    }
}
