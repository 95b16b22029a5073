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
                self.lex.seek_within(next);
                self.stmt_offset = p;
                Some(Event::Clock(Clock { color: self.last_color, kind: ClockKind::ElapsedMs, value }))
            }
            b'\'' => self.fast_evaluation(p),
            _ => None,
        }
    }

    /// A move at `p` read as one word with the byte after it: the move then LF, maybe followed
    /// by a line `T` and whole seconds, or the move, a comma, `T` and whole seconds.
    #[inline(always)]
    fn fast_move(&mut self, p: usize) -> Option<Event<'a>> {
        let input = self.input;
        let w = u64::from_le_bytes(*input.get(p..)?.first_chunk::<8>()?);
        let after = (w >> 56) as u8;
        if after != b'\n' && after != b',' {
            return None;
        }
        let m = move_from(w as u8, (w >> 8) as u32, (w >> 40) as u8, (w >> 48) as u8)?;
        let t = p + 8;
        let timed = if t < self.hot_end && input.get(t) == Some(&b'T') { whole_seconds(input, t + 1) } else { None };
        match timed {
            Some((value, next)) => {
                self.lex.seek_within(next);
                self.pending = Pending::MoveClock(m, t, value);
            }
            // A comma-joined line whose second statement is not read here.
            None if after == b',' => return None,
            None => {
                self.lex.seek_within(t);
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
        let mut v: i32 = 0;
        for k in 0..n {
            v = v * 10 + ((x >> (8 * k)) & 0xff) as i32;
        }
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
        self.lex.seek_within(next);
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
