//! The CSA tokenizer: cuts the input into statements. A statement is one line, or one part of a
//! line whose statements are joined by commas (`+7776FU,T12`). Comment (`'`), name (`N`) and
//! header (`$`) lines are never split: their text may contain commas. Lines end at LF, CR or
//! CRLF. Costs: one search per line for its end or a comma, whichever comes first (eight bytes at
//! a time, `memchr` past 64 bytes), and for a comma-joined line one more for its end; no
//! allocation, no UTF-8 validation.

/// One statement: its bytes (without the line end) and its offset in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stmt<'a> {
    /// Offset of the first byte.
    pub start: usize,
    /// The bytes, without the line end.
    pub bytes: &'a [u8],
    /// Whether this statement ends at the end of the input without a line end.
    pub at_eof: bool,
    /// Whether this statement is a whole line, not a part of a comma-joined one (only a whole
    /// line can be a game separator: [`find_separator`] and the splitter see lines).
    pub line: bool,
}

impl Stmt<'_> {
    /// Whether this statement is a game separator: a whole line that [`is_separator`].
    #[inline]
    pub fn is_separator(&self) -> bool {
        self.line && is_separator(self.bytes)
    }
}

/// Statement tokenizer over a slice.
#[derive(Clone, Debug)]
pub(crate) struct Lexer<'a> {
    input: &'a [u8],
    /// Next byte to read.
    pos: usize,
    /// End of the current line's content while inside a comma-joined line, else 0.
    line_end: usize,
    /// Where the line after the current comma-joined line starts.
    next_line: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(input: &'a [u8], pos: usize) -> Lexer<'a> {
        Lexer { input, pos, line_end: 0, next_line: 0 }
    }

    /// The offset of the next statement (or of the end).
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The start of the next line not yet read (the current position, or the line after a
    /// comma-joined line being read).
    pub fn line_start(&self) -> usize {
        if self.line_end > 0 {
            self.next_line
        } else {
            self.pos
        }
    }

    /// The current position when it is the start of a line (not inside a comma-joined line).
    #[inline]
    pub fn at_line_start(&self) -> Option<usize> {
        (self.line_end == 0).then_some(self.pos)
    }

    /// Moves to `pos`, which must be a line start.
    #[inline]
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.input.len());
        self.line_end = 0;
    }

    /// Moves from a line start to `pos`, a later line start at most the input's length (the hot
    /// path, which runs only at line starts: nothing of a comma-joined line is left to clear).
    #[inline(always)]
    pub fn next_line_at(&mut self, pos: usize) {
        debug_assert!(self.line_end == 0 && pos <= self.input.len());
        self.pos = pos;
    }

    /// The next statement, or `None` at the end of the input.
    #[inline]
    pub fn next_stmt(&mut self) -> Option<Stmt<'a>> {
        let input = self.input;
        if self.line_end > 0 {
            // Inside a comma-joined line.
            let start = self.pos;
            let rest = &input[start..self.line_end];
            return Some(match find1(b',', rest) {
                Some(i) => {
                    self.pos = start + i + 1;
                    Stmt { start, bytes: &rest[..i], at_eof: false, line: false }
                }
                None => {
                    let at_eof = self.line_end == input.len();
                    self.pos = self.next_line;
                    self.line_end = 0;
                    Stmt { start, bytes: rest, at_eof, line: false }
                }
            });
        }
        let start = self.pos;
        if start >= input.len() {
            return None;
        }
        let rest = &input[start..];
        // Comment, name and header lines are never split; in the others one search finds the
        // line end or a comma, whichever comes first.
        let splittable = !matches!(rest[0], b'\'' | b'N' | b'$');
        let (found, comma) = if splittable {
            match find3(b'\n', b'\r', b',', rest) {
                Some(i) if rest[i] == b',' => (find2(b'\n', b'\r', &rest[i..]).map(|j| i + j), Some(i)),
                f => (f, None),
            }
        } else {
            (find2(b'\n', b'\r', rest), None)
        };
        let (end, next) = match found {
            Some(i) => {
                let e = start + i;
                let n = if input[e] == b'\r' && input.get(e + 1) == Some(&b'\n') { e + 2 } else { e + 1 };
                (e, n)
            }
            None => (input.len(), input.len()),
        };
        let line = &input[start..end];
        if let Some(i) = comma {
            self.line_end = end;
            self.next_line = next;
            self.pos = start + i + 1;
            return Some(Stmt { start, bytes: &line[..i], at_eof: false, line: false });
        }
        self.pos = next;
        Some(Stmt { start, bytes: line, at_eof: end == input.len() && next == end, line: true })
    }
}

/// Lines and fields longer than this are searched with `memchr`, shorter ones a word at a time
/// (where `memchr`'s set-up costs more than the search).
const SHORT: usize = 64;

/// Eight copies of a byte.
#[inline(always)]
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The high bit of each byte of `x` that is zero (exact for the lowest such byte, which is all
/// the callers read).
#[inline(always)]
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(splat(1)) & !x & splat(0x80)
}

/// The eight bytes of `b` from `i` as a little-endian word.
#[inline(always)]
fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// `memchr2(x, y, b)` for the short lines and statements of CSA: eight bytes at a time, `memchr`
/// past [`SHORT`] bytes.
#[inline(always)]
pub(crate) fn find2(x: u8, y: u8, b: &[u8]) -> Option<usize> {
    let hit = |w: u64| zero_bytes(w ^ splat(x)) | zero_bytes(w ^ splat(y));
    find_by(b, hit, |c| c == x || c == y, |b| memchr::memchr2(x, y, b))
}

/// `memchr3(x, y, z, b)` as [`find2`] does it.
#[inline(always)]
pub(crate) fn find3(x: u8, y: u8, z: u8, b: &[u8]) -> Option<usize> {
    let hit = |w: u64| zero_bytes(w ^ splat(x)) | zero_bytes(w ^ splat(y)) | zero_bytes(w ^ splat(z));
    find_by(b, hit, |c| c == x || c == y || c == z, |b| memchr::memchr3(x, y, z, b))
}

/// `memchr(x, b)` as [`find2`] does it.
#[inline(always)]
pub(crate) fn find1(x: u8, b: &[u8]) -> Option<usize> {
    find_by(b, |w| zero_bytes(w ^ splat(x)), |c| c == x, |b| memchr::memchr(x, b))
}

#[inline(always)]
fn find_by(
    b: &[u8],
    hit: impl Fn(u64) -> u64,
    is: impl Fn(u8) -> bool,
    long: impl Fn(&[u8]) -> Option<usize>,
) -> Option<usize> {
    if b.len() < 8 {
        return b.iter().position(|&c| is(c));
    }
    let mut i = 0;
    while i + 8 <= b.len() {
        let m = hit(word(b, i));
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
        if i >= SHORT {
            return long(&b[i..]).map(|j| i + j);
        }
    }
    if i == b.len() {
        return None;
    }
    // The last eight bytes: those before `i` were searched already and hold no hit.
    let e = b.len() - 8;
    let m = hit(word(b, e));
    (m != 0).then(|| e + (m.trailing_zeros() / 8) as usize)
}

/// If a line ends at `e` (a line end there, or the end of the input), where the next line
/// starts.
#[inline(always)]
pub(crate) fn line_after(input: &[u8], e: usize) -> Option<usize> {
    match input.get(e) {
        None if e == input.len() => Some(e),
        Some(b'\n') => Some(e + 1),
        Some(b'\r') => Some(if input.get(e + 1) == Some(&b'\n') { e + 2 } else { e + 1 }),
        _ => None,
    }
}

/// Whether the line starting at `p` is a game separator: `/` then only spaces or tabs.
#[inline]
pub(crate) fn is_separator(line: &[u8]) -> bool {
    line.first() == Some(&b'/') && line[1..].iter().all(|&c| c == b' ' || c == b'\t')
}

/// The start of the next separator line (`/` alone) at or after `from`, which must be a line
/// start, and the start of the line after it. Builds nothing: a `memchr` for `/` and a check of
/// the bytes around it.
pub(crate) fn find_separator(input: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut p = from;
    while let Some(i) = memchr::memchr(b'/', &input[p..]) {
        let s = p + i;
        let at_line_start = s == from || matches!(input[s - 1], b'\n' | b'\r');
        if at_line_start {
            let rest = &input[s..];
            let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
            if is_separator(&rest[..end]) {
                let e = s + end;
                let next = if input.get(e) == Some(&b'\r') && input.get(e + 1) == Some(&b'\n') {
                    e + 2
                } else {
                    (e + 1).min(input.len())
                };
                return Some((s, next));
            }
        }
        p = s + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<(usize, &[u8])> {
        let mut l = Lexer::new(input, 0);
        let mut v = Vec::new();
        while let Some(s) = l.next_stmt() {
            v.push((s.start, s.bytes));
        }
        v
    }

    #[test]
    fn lines_and_commas() {
        let v = all(b"V2.2\r\n+7776FU,T12\r'a,b\n%TORYO");
        assert_eq!(v, vec![(0, &b"V2.2"[..]), (6, b"+7776FU"), (14, b"T12"), (18, b"'a,b"), (23, b"%TORYO")]);
        assert_eq!(all(b"a\n\nb\n"), vec![(0, &b"a"[..]), (2, b""), (3, b"b")]);
        assert_eq!(all(b"+1,"), vec![(0, &b"+1"[..]), (3, b"")]);
    }

    #[test]
    fn word_search_agrees_with_memchr() {
        // Every length up to past `SHORT`, every position of one or two hits, bytes around them
        // that differ by one bit.
        for len in 0..SHORT + 20 {
            for at in 0..=len {
                for second in [None, Some(at + 1), Some(at + 9), Some(len.saturating_sub(1))] {
                    let mut b: Vec<u8> = (0..len).map(|i| [b'a', 0x0b, 0x0c, 0x8a, 0x8d, 0x2d, 0x00][i % 7]).collect();
                    if at < len {
                        b[at] = b'\r';
                    }
                    if let Some(s) = second.filter(|&s| s < len) {
                        b[s] = b'\n';
                    }
                    assert_eq!(find2(b'\n', b'\r', &b), memchr::memchr2(b'\n', b'\r', &b), "{b:?}");
                    assert_eq!(find1(b'\n', &b), memchr::memchr(b'\n', &b), "{b:?}");
                    assert_eq!(find1(b',', &b), memchr::memchr(b',', &b), "{b:?}");
                    assert_eq!(find3(b',', b'-', b'\r', &b), memchr::memchr3(b',', b'-', b'\r', &b), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn separators() {
        let input = b"$START_TIME:2003/05/03\n'/\n/\nV2\n/ \r\n";
        assert_eq!(find_separator(input, 0), Some((26, 28)));
        assert_eq!(find_separator(input, 28), Some((31, 35)));
        assert_eq!(find_separator(input, 35), None);
    }
}
