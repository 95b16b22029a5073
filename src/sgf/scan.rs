//! Byte-level SGF scanning that builds no events: value ends, where games start and end (the
//! game-start rule, the `(;GM[` / `(;FF[` new-game rule, whole-game skips), the root-node
//! look-ahead for `CA` and `SZ`, and the parsing of points, sizes and times. The game rules take
//! an `eof` flag: the slice reader passes `true` (the whole input), the streaming scanner
//! (`split`) `false` until its window ends the stream, and gets `More` where the window ends too
//! soon: one definition of where a game starts and ends for both.

use crate::event::Point;
use crate::text::Charset;

/// Where a value ends.
pub(crate) enum End {
    /// At this index (`input[i] == b']'`).
    At(usize),
    /// The input ended first.
    Eof,
    /// Longer than the limit.
    TooLong,
}

/// Finds the `]` that closes a value starting at `start`, honouring `\` escapes and, for
/// Shift_JIS/GBK/Big5, two-byte characters whose second byte is `]` or `\`.
#[inline]
pub(crate) fn value_end(input: &[u8], start: usize, cs: Charset, limit: usize) -> End {
    let stop = start.saturating_add(limit).saturating_add(1).min(input.len());
    let hay = &input[..stop];
    if cs.has_ascii_trail_bytes() {
        let mut i = start;
        while i < hay.len() {
            let b = hay[i];
            if b == b'\\' || cs.is_pair_at(hay, i) {
                i += 2;
            } else if b == b']' {
                return End::At(i);
            } else {
                i += 1;
            }
        }
        return if stop < input.len() { End::TooLong } else { End::Eof };
    }
    // Short values (points, names, dates) are the common case: look at eight bytes at a time
    // (`]` and `\\` differ in their last bit only) before paying memchr's set-up cost.
    let mut i = start;
    let short = start.saturating_add(32).min(hay.len());
    while i < short {
        match hay[i..].first_chunk::<8>() {
            Some(w) => match close_or_escape(u64::from_le_bytes(*w)) {
                Some(k) => {
                    let j = i + k;
                    if hay[j] == b']' {
                        return End::At(j);
                    }
                    i = j + 2;
                }
                None => i += 8,
            },
            None => {
                // Fewer than eight bytes left before the limit or the end.
                match hay[i] {
                    b']' => return End::At(i),
                    b'\\' => i += 2,
                    _ => i += 1,
                }
            }
        }
    }
    while i < hay.len() {
        match memchr::memchr2(b']', b'\\', &hay[i..]) {
            None => break,
            Some(k) => {
                let j = i + k;
                if hay[j] == b']' {
                    return End::At(j);
                }
                i = j + 2;
            }
        }
    }
    if stop < input.len() {
        End::TooLong
    } else {
        End::Eof
    }
}

/// The index of the first `]` or `\\` among the eight bytes of `w` (little-endian), if any.
#[inline(always)]
pub(crate) fn close_or_escape(w: u64) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // `]` is 0x5d and `\\` 0x5c: with the last bit set both are 0x5d, and xor makes them zero.
    let x = (w | ONES) ^ (ONES * 0x5d);
    // The classic zero-byte test: exact for the lowest zero byte (a borrow only marks bytes
    // above a zero one).
    let z = x.wrapping_sub(ONES) & !x & (ONES * 0x80);
    if z == 0 {
        None
    } else {
        Some(z.trailing_zeros() as usize / 8)
    }
}

/// [`value_end`] for a UTF-8 value without a limit, the first eight bytes looked at inline (most
/// values are short).
#[inline(always)]
pub(crate) fn short_value_end(input: &[u8], start: usize) -> End {
    if let Some(w) = input.get(start..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*w);
        if let Some(k) = close_or_escape(w) {
            if (w >> (8 * k)) as u8 == b']' {
                return End::At(start + k);
            }
        }
    }
    value_end(input, start, Charset::Utf8, usize::MAX)
}

/// A decision that may need bytes past the end of the input given (a streaming window); with
/// the whole input (`eof`), always `Known`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Look<T> {
    /// Decided.
    Known(T),
    /// The bytes given end before the answer does.
    More,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

#[inline]
fn ws_from(input: &[u8], mut p: usize) -> usize {
    while p < input.len() && is_ws(input[p]) {
        p += 1;
    }
    p
}

/// Whether the `(` at `p`, met between games, starts a game: `(` ws* `;`, or `(` ws* ident ws*
/// `[` (a game whose `;` is missing).
#[inline]
pub(crate) fn game_start_at(input: &[u8], p: usize, eof: bool) -> Look<bool> {
    let q = ws_from(input, p + 1);
    match input.get(q) {
        None if !eof => Look::More,
        Some(b';') => Look::Known(true),
        _ => ident_then_value(input, q, eof),
    }
}

/// Whether the `;` at `p`, the first byte of the input after white space (and a UTF-8 BOM),
/// starts a game that lost its `(`: `;` ws* ident ws* `[` (`;B[hh];W[ii]`). Only the start of
/// the input is looked at: elsewhere a `;` is junk, as prose and code between games hold many.
#[inline]
pub(crate) fn bare_game_at(input: &[u8], p: usize, eof: bool) -> Look<bool> {
    if input.get(p) != Some(&b';') {
        return Look::Known(false);
    }
    ident_then_value(input, ws_from(input, p + 1), eof)
}

/// Whether a property identifier (a letter, then letters and digits) stands at `q`, followed
/// (after white space) by a value's `[`.
#[inline]
fn ident_then_value(input: &[u8], q: usize, eof: bool) -> Look<bool> {
    match input.get(q) {
        None if !eof => Look::More,
        Some(b) if b.is_ascii_alphabetic() => {
            let mut r = q;
            while r < input.len() && input[r].is_ascii_alphanumeric() {
                r += 1;
            }
            let r = ws_from(input, r);
            match input.get(r) {
                None if !eof => Look::More,
                Some(b'[') => Look::Known(true),
                _ => Look::Known(false),
            }
        }
        _ => Look::Known(false),
    }
}

/// The index just after the `)` that closes a game tree, scanning from `from` with `depth` open
/// parentheses; `None` if the input ends first. A game that lost its `)` ends where a new game
/// surely starts ([`new_game_at`]): the index of that `(` is returned.
pub(crate) fn game_end(input: &[u8], from: usize, depth: u32, cs: Charset) -> Option<usize> {
    match tree_end(input, from, depth, cs, true) {
        TreeEnd::Closed(e) | TreeEnd::NewGame(e) => Some(e),
        TreeEnd::Eof { .. } | TreeEnd::OpenValue(_) | TreeEnd::More { .. } => None,
    }
}

/// How a scanned game tree ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TreeEnd {
    /// Its `)` was found; the index just after it.
    Closed(usize),
    /// A new game surely starts at this index before the tree closed (see [`new_game_at`]).
    NewGame(usize),
    /// The input ended with parentheses still open (every value closed).
    Eof {
        /// The parentheses still open (the `depth` given counts; 1 = only the tree scanned).
        depth: u32,
    },
    /// The value whose `[` stands at this index is not closed before the input ends: the event
    /// path reads it as an error (`UnexpectedEof`), not as a truncated game.
    OpenValue(usize),
    /// Not at the end of the input (`eof` false): the bytes given end first; the scan goes on
    /// from `at` with `depth` open parentheses once more bytes are known.
    More {
        /// Where to resume.
        at: usize,
        /// The parentheses open there.
        depth: u32,
    },
}

/// As [`game_end`], telling a closed tree from one cut short by a new game or by the end of the
/// input; with `eof` false (a streaming window), `More` where the bytes given end before the
/// answer. It brackets as the reader's event path does (tests/stream.rs compares them): a `[`
/// opens a value that only an unescaped `]` closes; outside a value a stray `]` is junk. Limits
/// on value and game sizes are not applied: skipping builds nothing. A plain byte loop: in real
/// files the bytes that matter (`[`, `(`, `)`) come every few bytes, too often for memchr to pay
/// off; long values are crossed by [`value_end`], which does use memchr.
pub(crate) fn tree_end(input: &[u8], from: usize, mut depth: u32, cs: Charset, eof: bool) -> TreeEnd {
    let n = input.len();
    let open_value =
        |open: usize, depth: u32| if eof { TreeEnd::OpenValue(open) } else { TreeEnd::More { at: open, depth } };
    let mut i = from;
    while i < n {
        let b = input[i];
        i += 1;
        match b {
            b'[' => {
                let open = i - 1;
                if cs.has_ascii_trail_bytes() {
                    match value_end(input, i, cs, usize::MAX) {
                        End::At(e) => i = e + 1,
                        _ => return open_value(open, depth),
                    }
                    continue;
                }
                // Two-letter values (points) are most of a game: step over them at once. Neither
                // letter may be `\` (an escape) or `]` (`[])]` is an empty value, then `)`).
                if let Some(&[a, b, b']']) = input.get(i..i + 3) {
                    if !matches!(a, b'\\' | b']') && !matches!(b, b'\\' | b']') {
                        i += 3;
                        continue;
                    }
                }
                // Inline for short values; memchr once a value proves long.
                let short_end = (i + 32).min(n);
                loop {
                    if i >= short_end {
                        match value_end(input, i, cs, usize::MAX) {
                            End::At(e) => i = e + 1,
                            _ => return open_value(open, depth),
                        }
                        break;
                    }
                    let c = input[i];
                    i += 1;
                    if c == b']' {
                        break;
                    }
                    if c == b'\\' {
                        i += 1;
                    }
                }
            }
            b'(' => match new_game_at(input, i - 1, eof) {
                Look::Known(true) => return TreeEnd::NewGame(i - 1),
                Look::Known(false) => depth += 1,
                Look::More => return TreeEnd::More { at: i - 1, depth },
            },
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return TreeEnd::Closed(i);
                }
            }
            _ => {}
        }
    }
    if eof {
        TreeEnd::Eof { depth }
    } else {
        TreeEnd::More { at: n, depth }
    }
}

/// Whether the `(` at `p`, met inside a game, surely opens a new game (`(;GM[` or `(;FF[`,
/// white space allowed): the game before it lost its closing parenthesis. `GM` and `FF` are root
/// properties, which cannot stand in a variation.
#[inline]
pub(crate) fn new_game_at(input: &[u8], p: usize, eof: bool) -> Look<bool> {
    let q = ws_from(input, p + 1);
    match input.get(q) {
        None if !eof => return Look::More,
        Some(b';') => {}
        _ => return Look::Known(false),
    }
    let q = ws_from(input, q + 1);
    match input.get(q..q + 3) {
        None if !eof => Look::More,
        Some(b"GM[") | Some(b"FF[") => Look::Known(true),
        _ => Look::Known(false),
    }
}

/// What the root node says about how to read the game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RootInfo<'a> {
    /// The raw `CA` value.
    pub(crate) charset: Option<&'a [u8]>,
    /// The raw `SZ` value.
    pub(crate) size: Option<&'a [u8]>,
    /// The raw `GM` value.
    pub(crate) game: Option<&'a [u8]>,
}

/// Looks over the root node (from just after the game's `(`) for `CA`, `SZ` and `GM`, wherever they
/// stand in it. The look-ahead reads values byte-wise (no charset is known yet); it stops at the
/// second node, a variation or the end of the game (or of the input: with `eof` false, `More`
/// when the bytes given end before the root node does).
pub(crate) fn root_info(input: &[u8], from: usize, eof: bool) -> Look<RootInfo<'_>> {
    let mut info = RootInfo::default();
    let mut i = from;
    let mut seen_semicolon = false;
    let mut ident: &[u8] = &[];
    while i < input.len() {
        let b = input[i];
        match b {
            b';' => {
                if seen_semicolon {
                    return Look::Known(info);
                }
                seen_semicolon = true;
                // A value after the `;` has no identifier (as the reader sees it).
                ident = &[];
                i += 1;
            }
            b'(' | b')' => return Look::Known(info),
            b'[' => {
                let End::At(e) = short_value_end(input, i + 1) else {
                    break;
                };
                let value = &input[i + 1..e];
                i = e + 1;
                if let [a, b] = *ident {
                    // The common case: two upper-case letters, or an identifier that cannot be
                    // one of the three.
                    if !matches!((a, b), (b'C', b'A') | (b'S', b'Z') | (b'G', b'M')) && b.is_ascii_uppercase() {
                        continue;
                    }
                }
                let mut up = ident.iter().filter(|c| c.is_ascii_uppercase());
                let (a, b2, c) = (up.next(), up.next(), up.next());
                // An identifier with a digit (`C1A`) maps to no property.
                let plain = || !ident.iter().any(u8::is_ascii_digit);
                match (a, b2, c) {
                    (Some(b'C'), Some(b'A'), None) if info.charset.is_none() && plain() => info.charset = Some(value),
                    (Some(b'S'), Some(b'Z'), None) if info.size.is_none() && plain() => info.size = Some(value),
                    (Some(b'G'), Some(b'M'), None) if info.game.is_none() && plain() => info.game = Some(value),
                    _ => {}
                }
                if info.charset.is_some() && info.size.is_some() && info.game.is_some() {
                    return Look::Known(info);
                }
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                let s = i;
                while i < input.len() && IDENT[input[i] as usize] {
                    i += 1;
                }
                ident = &input[s..i];
            }
            _ => {
                // Only white space may stand between an identifier and its value: after anything
                // else the reader reports the identifier without a value and the value without
                // an identifier (`GM\xfe[2]` is no `GM[2]`).
                if !is_ws(b) {
                    ident = &[];
                }
                i += 1;
            }
        }
    }
    if eof {
        Look::Known(info)
    } else {
        Look::More
    }
}

/// Whether a raw `GM` value says Go: `1`, around white space and `\` escapes (`GM[\1]` is `1`
/// once unescaped, as the tree and the writer see it).
pub(crate) fn is_go(v: &[u8]) -> bool {
    let mut chars = trim(v).iter().filter(|&&c| c != b'\\');
    chars.next() == Some(&b'1') && chars.next().is_none()
}

/// `SZ[19]` or `SZ[19:13]`: (columns, rows), each 1–52.
pub(crate) fn parse_size(v: &[u8]) -> Option<(u8, u8)> {
    // The common case, one or two digits.
    if let [a @ b'0'..=b'9', rest @ ..] = v {
        let n = match *rest {
            [] => a - b'0',
            [b @ b'0'..=b'9'] => (a - b'0') * 10 + (b - b'0'),
            _ => 0,
        };
        if n > 0 {
            return if n <= 52 { Some((n, n)) } else { None };
        }
    }
    let v = trim(v);
    let (w, h) = match v.iter().position(|&b| b == b':') {
        Some(c) => (num(trim(&v[..c]))?, num(trim(&v[c + 1..]))?),
        None => {
            let n = num(v)?;
            (n, n)
        }
    };
    if (1..=52).contains(&w) && (1..=52).contains(&h) {
        Some((w as u8, h as u8))
    } else {
        None
    }
}

fn num(v: &[u8]) -> Option<u32> {
    if v.is_empty() || v.len() > 6 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u32, |n, &d| n * 10 + (d - b'0') as u32))
}

/// ASCII white space trimmed from both ends.
pub(crate) fn trim(v: &[u8]) -> &[u8] {
    let s = v.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(v.len());
    let e = v.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(s, |e| e + 1);
    &v[s..e]
}

/// A point value.
pub(crate) enum Pt {
    /// Empty value (a pass for moves).
    Empty,
    /// Two letters.
    At(Point),
    /// Anything else.
    Bad,
}

/// SGF coordinate letters: `a`–`z` = 0–25, `A`–`Z` = 26–51, anything else 255.
pub(crate) static COORD: [u8; 256] = {
    let mut t = [255u8; 256];
    let mut i = 0;
    while i < 26 {
        t[b'a' as usize + i] = i as u8;
        t[b'A' as usize + i] = 26 + i as u8;
        i += 1;
    }
    t
};

/// The bytes of a property identifier after its first letter: letters and digits.
pub(crate) static IDENT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).is_ascii_alphanumeric();
        i += 1;
    }
    t
};

#[inline]
pub(crate) fn coord(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b - b'a'),
        b'A'..=b'Z' => Some(b - b'A' + 26),
        _ => None,
    }
}

/// Parses a point (`pd`), the empty value, or fails.
#[inline]
pub(crate) fn point(v: &[u8]) -> Pt {
    match v {
        [] => Pt::Empty,
        [a, b] => match (coord(*a), coord(*b)) {
            (Some(x), Some(y)) => Pt::At(Point::new(x, y)),
            _ => Pt::Bad,
        },
        _ => {
            let t = trim(v);
            if t.len() == v.len() {
                Pt::Bad
            } else {
                point(t)
            }
        }
    }
}

/// A point or a compressed rectangle (`aa:cc`).
pub(crate) enum Rect {
    Empty,
    One(Point),
    Many(Point, Point),
    Bad,
}

/// Parses a point-list value.
pub(crate) fn point_or_rect(v: &[u8]) -> Rect {
    match v.iter().position(|&b| b == b':') {
        None => match point(v) {
            Pt::Empty => Rect::Empty,
            Pt::At(p) => Rect::One(p),
            Pt::Bad => Rect::Bad,
        },
        Some(c) => match (point(&v[..c]), point(&v[c + 1..])) {
            (Pt::At(a), Pt::At(b)) if a == b => Rect::One(a),
            (Pt::At(a), Pt::At(b)) => Rect::Many(a, b),
            _ => Rect::Bad,
        },
    }
}

/// The index of the `:` that separates a composed value, skipping escaped colons and two-byte
/// characters.
pub(crate) fn compose_split(v: &[u8], cs: Charset) -> Option<usize> {
    let multi = cs.has_ascii_trail_bytes();
    let mut i = 0;
    while i < v.len() {
        let b = v[i];
        if b == b'\\' || (multi && cs.is_pair_at(v, i)) {
            i += 2;
        } else if b == b':' {
            return Some(i);
        } else {
            i += 1;
        }
    }
    None
}

/// A real number of seconds (`1753.0`, `30`, `-1.5` is refused) as milliseconds.
pub(crate) fn parse_millis(v: &[u8]) -> Option<u64> {
    let v = trim(v);
    let v = v.strip_prefix(b"+").unwrap_or(v);
    let (int, frac) = match v.iter().position(|&b| b == b'.') {
        Some(d) => (&v[..d], &v[d + 1..]),
        None => (v, &v[v.len()..]),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if int.len() > 12 || !int.iter().all(u8::is_ascii_digit) || !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let secs = int.iter().fold(0u64, |n, &d| n * 10 + (d - b'0') as u64);
    let mut ms = 0u64;
    for (i, &d) in frac.iter().take(3).enumerate() {
        ms += (d - b'0') as u64 * [100, 10, 1][i];
    }
    Some(secs * 1000 + ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size(b"19"), Some((19, 19)));
        assert_eq!(parse_size(b"19:13"), Some((19, 13)));
        assert_eq!(parse_size(b" 9 "), Some((9, 9)));
        assert_eq!(parse_size(b"53"), None);
        assert_eq!(parse_size(b"0"), None);
        assert_eq!(parse_size(b"x"), None);
    }

    #[test]
    fn millis() {
        assert_eq!(parse_millis(b"1753.0"), Some(1_753_000));
        assert_eq!(parse_millis(b"30"), Some(30_000));
        assert_eq!(parse_millis(b"0.25"), Some(250));
        assert_eq!(parse_millis(b"-1"), None);
        assert_eq!(parse_millis(b""), None);
    }

    /// The eight-bytes-at-a-time search finds what a byte loop finds, for every placing of `]`,
    /// `\\` and their neighbours (`[`, `^`, `|`, `}`, `\x5d ^ 0x80`, 0) in a word.
    #[test]
    fn close_or_escape_is_a_byte_search() {
        let bytes = [b']', b'\\', b'[', b'^', b'|', b'}', 0xdd, 0xdc, 0, b'a', 0xff, 0x5e];
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut w = [0u8; 8];
            for (k, b) in w.iter_mut().enumerate() {
                *b = bytes[((seed >> (k * 5)) % bytes.len() as u64) as usize];
            }
            let want = w.iter().position(|&b| b == b']' || b == b'\\');
            assert_eq!(close_or_escape(u64::from_le_bytes(w)), want, "{w:?}");
        }
        for i in 0..8 {
            for c in [b']', b'\\'] {
                let mut w = [b'a'; 8];
                w[i] = c;
                assert_eq!(close_or_escape(u64::from_le_bytes(w)), Some(i));
            }
        }
    }

    /// `value_end` as a byte loop would find it, across escapes at every offset and the limit.
    #[test]
    fn value_ends() {
        let byte_loop = |input: &[u8], start: usize, limit: usize| {
            let stop = start.saturating_add(limit).saturating_add(1).min(input.len());
            let mut i = start;
            while i < stop {
                match input[i] {
                    b']' => return Some(i),
                    b'\\' => i += 2,
                    _ => i += 1,
                }
            }
            None
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let alphabet = [b'a', b'a', b'a', b'a', b'\\', b']', b']', 0xe4, b' '];
        for len in 0..80 {
            for _ in 0..200 {
                let input: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                for start in 0..len.min(3) {
                    for limit in [0, 1, 5, 8, 9, 31, 40, usize::MAX] {
                        let got = match value_end(&input, start, Charset::Utf8, limit) {
                            End::At(e) => Some(e),
                            _ => None,
                        };
                        assert_eq!(got, byte_loop(&input, start, limit), "{input:?} {start} {limit}");
                    }
                }
            }
        }
    }

    #[test]
    fn game_ends() {
        let s = b"(;C[a)b\\]](;B[aa]))rest";
        assert_eq!(game_end(s, 1, 1, Charset::Utf8), Some(19));
        assert_eq!(game_end(b"(;C[", 1, 1, Charset::Utf8), None);
    }

    #[test]
    fn root_lookahead() {
        let s = b"(;PB[x]CA[GB2312]SZ[9];CA[no])";
        let Look::Known(r) = root_info(s, 1, true) else { panic!() };
        assert_eq!(r.charset, Some(&b"GB2312"[..]));
        assert_eq!(r.size, Some(&b"9"[..]));
    }
}
