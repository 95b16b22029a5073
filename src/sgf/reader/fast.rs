//! The hot paths, taken inside a game while nothing is pending, queued or out of place (see
//! `window`): a node's `;`, a move `B[pd]` on the board, and a property of one value that
//! gives one event (game information, a comment, a node name, a clock, a pass, one setup stone or
//! mark), each read in one step. Anything else, or any doubt (an escape the charset makes
//! ambiguous, a limit, a value that would warn), goes to the general path with the reader's state
//! as it was (white space before the token skipped at most), and the general path gives the same
//! event: the unit tests below and `tests/sgf_speed.rs` hold the two to each other.

use super::props::{self, Kind};
use super::scan;
use super::{color, is_ws, Reader};
use crate::event::{Clock, ClockKind, Event, Info, InfoKey, Move, Point};
use crate::text::{Charset, Text, TextRule};

impl<'a> Reader<'a> {
    /// The event at `p` (inside `window`, `b` the byte there) when it is neither a node nor a
    /// move that `next_item` reads itself ([`Reader::fast_node`], [`Reader::fast_move`]), or
    /// `None` for the general path.
    #[inline(always)]
    pub(super) fn fast(&mut self, p: usize, b: u8) -> Option<Event<'a>> {
        match b {
            b'A'..=b'Z' => self.one_value(p),
            b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c => self.fast_after_ws(p),
            _ => None,
        }
    }

    /// As [`Reader::fast`] at white space: skipped as the general path's first step would
    /// (`token`), then the token after it.
    #[inline(never)]
    fn fast_after_ws(&mut self, p: usize) -> Option<Event<'a>> {
        let p = self.ws_from(p + 1);
        self.pos = p;
        match *self.window.get(p)? {
            b';' => Some(self.fast_node(p)),
            b @ (b'B' | b'W') => match self.fast_move(p) {
                Some(point) => Some(Event::Move(Move::Go { color: color(b == b'B'), point: Some(point) })),
                None => self.one_value(p),
            },
            b'A'..=b'Z' => self.one_value(p),
            _ => None,
        }
    }

    /// A node's `;` at `p` (the window holds no more bytes than the node limit allows nodes:
    /// see `next_item`).
    #[inline(always)]
    pub(super) fn fast_node(&mut self, p: usize) -> Event<'a> {
        self.nodes += 1;
        self.event_at = p;
        self.pos = p + 1;
        Event::Node
    }

    /// The point of a move `B[xy]` or `W[xy]` at `p` on the board, its property ending there
    /// (read: the reader is past it).
    #[inline(always)]
    pub(super) fn fast_move(&mut self, p: usize) -> Option<Point> {
        // Eight bytes at once: `[` and `]` in place, lower-case letters on the board (an
        // upper-case letter, past `z`, takes the general path), and the byte after the value
        // neither a second value's `[` nor white space.
        let Some(w) = self.window.get(p..).and_then(<[u8]>::first_chunk::<8>) else {
            return self.short_move(p);
        };
        let w = u64::from_le_bytes(*w);
        // The usual `B[pd];`, then any `B[pd]` whose property ends there.
        if w & 0x0000_ffff_0000_ff00 != 0x0000_3b5d_0000_5b00
            && (w & 0x0000_00ff_0000_ff00 != 0x0000_005d_0000_5b00
                || CONTINUES[(w >> 40) as u8 as usize] && !ends_property(self.input, p + 5))
        {
            return None;
        }
        let (x, y) = (((w >> 16) as u8).wrapping_sub(b'a'), ((w >> 24) as u8).wrapping_sub(b'a'));
        if x >= self.lower[0] || y >= self.lower[1] {
            return None;
        }
        self.pos = p + 5;
        self.event_at = p + 1;
        Some(Point::new(x, y))
    }

    /// [`Reader::fast_move`] where fewer than eight bytes of the window are left.
    #[cold]
    fn short_move(&mut self, p: usize) -> Option<Point> {
        let input = self.input;
        let Some(&[b'[', x, y, b']']) = input.get(p + 1..p + 5) else {
            return None;
        };
        // Letters that are not coordinates map to 255, which no board size passes.
        let (x, y) = (scan::COORD[x as usize], scan::COORD[y as usize]);
        if x >= self.width || y >= self.height || !ends_property(input, p + 5) {
            return None;
        }
        self.pos = p + 5;
        self.event_at = p + 1;
        Some(Point::new(x, y))
    }

    /// A property at `p` of one or two upper-case letters, its one value right after them, that
    /// gives one event without a warning; `None` (nothing changed) otherwise.
    #[inline(never)]
    fn one_value(&mut self, p: usize) -> Option<Event<'a>> {
        let input = self.input;
        let (v, kind) = match *input.get(p..p + 3)? {
            [a, b'[', _] => (p + 1, props::short_kind(a, None)),
            [a, b, b'['] => (p + 2, props::short_kind(a, Some(b))),
            _ => return None,
        };
        if kind == Kind::Other {
            return None;
        }
        let cs = self.charset;
        let limit = self.config.limits.max_value_len;
        // Most values are short: their `]` is found in the first eight bytes, which also tell
        // whether the value is ASCII. Longer ones (or a first `\`) take the general scan.
        let s = v + 1;
        let word = input.get(s..).and_then(<[u8]>::first_chunk::<8>).map(|w| u64::from_le_bytes(*w));
        let (e, ascii) = match word.map(|w| (w, scan::close_or_escape(w))) {
            Some((w, Some(k))) if (w >> (8 * k)) as u8 == b']' && k <= limit && !cs.has_ascii_trail_bytes() => {
                let before = (1u64 << (8 * k)) - 1;
                (s + k, w & before & 0x8080_8080_8080_8080 == 0)
            }
            _ => match scan::value_end(input, s, cs, limit) {
                scan::End::At(e) => (e, input[s..e].is_ascii()),
                _ => return None,
            },
        };
        if !ends_property(input, e + 1) {
            return None;
        }
        let value = &input[v + 1..e];
        let event = match kind {
            Kind::Info(key) => {
                if key == InfoKey::BoardSize && scan::parse_size(value).is_none() {
                    return None;
                }
                let rule = if props::info_is_text(key) { TextRule::SgfText } else { TextRule::SgfSimpleText };
                Event::Info(Info::new(key, &input[p..v], Text::new(value, rule, cs), &input[p..e]))
            }
            Kind::Comment => Event::Comment(Text::new(value, TextRule::SgfText, cs)),
            Kind::Name => Event::Name(Text::new(value, TextRule::SgfSimpleText, cs)),
            Kind::Move(black) => {
                let point = match scan::point(value) {
                    scan::Pt::Empty => None,
                    scan::Pt::At(pt) if pt == Point::new(19, 19) && self.width <= 19 && self.height <= 19 => None,
                    scan::Pt::At(pt) if value.len() == 2 && !self.off_board(pt) => Some(pt),
                    _ => return None,
                };
                Event::Move(Move::Go { color: color(black), point })
            }
            Kind::Setup(_) | Kind::Mark(_) => match scan::point_or_rect(value) {
                scan::Rect::One(pt) if !self.off_board(pt) => self.point_event(kind, pt),
                _ => return None,
            },
            Kind::TimeLeft(black) => Event::Clock(Clock {
                color: Some(color(black)),
                kind: ClockKind::TimeLeftMs,
                value: scan::parse_millis(value)?,
            }),
            Kind::Periods(black) => Event::Clock(Clock {
                color: Some(color(black)),
                kind: ClockKind::PeriodsLeft,
                value: std::str::from_utf8(scan::trim(value)).ok()?.parse().ok()?,
            }),
            _ => return None,
        };
        if !ascii
            && cs == Charset::Utf8
            && matches!(event, Event::Info(_) | Event::Comment(_) | Event::Name(_))
            && std::str::from_utf8(value).is_err()
        {
            // The general path warns first.
            return None;
        }
        self.pos = e + 1;
        self.event_at = v;
        Some(event)
    }
}

/// The bytes after a value that may let a second value follow: `[` and white space.
static CONTINUES: [bool; 256] = {
    let mut t = [false; 256];
    t[b'[' as usize] = true;
    let mut i = 0;
    while i < 256 {
        t[i] = t[i] || is_ws(i as u8);
        i += 1;
    }
    t
};

/// Whether the property whose value ended just before `i` has no second value: no `[` follows,
/// after white space.
#[inline(always)]
pub(super) fn ends_property(input: &[u8], i: usize) -> bool {
    match input.get(i) {
        Some(&c) if CONTINUES[c as usize] => c != b'[' && input.get(super::ws_from(input, i + 1)) != Some(&b'['),
        _ => true,
    }
}
