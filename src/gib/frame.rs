//! Where GIB lines and games begin and end: the one rule the reader and the splitter share. A
//! game starts at a line `\HS` (or `\GS` for a game without a header) and ends just past its
//! `\GE` line; a game without `\GE` ends where the next `\HS` line starts, or at the input's end.
//!
//! Costs: `memmem` searches for `\GE` (and, inside the game found, for `\HS`); lines are cut
//! with `memchr`. Allocates nothing.

use memchr::memmem;
use std::sync::LazyLock;

pub(super) use crate::kit::lined::line_end;

/// A line without the ASCII white space around it (spaces, tabs, `\r`).
#[inline]
pub(super) fn trim(line: &[u8]) -> &[u8] {
    line.trim_ascii()
}

/// Whether a line (trimmed) opens a game: `\HS`, or `\GS` for a game without a header.
#[inline]
pub(super) fn is_start(line: &[u8]) -> bool {
    line == b"\\HS" || line == b"\\GS"
}

/// The first line in `input[from..to]` whose trimmed text is `marker` (a `\XX` marker): its
/// start and the start of the line after it.
fn find_marker(input: &[u8], from: usize, to: usize, marker: &'static [u8; 3]) -> Option<(usize, usize)> {
    static FINDERS: LazyLock<[memmem::Finder<'static>; 3]> =
        LazyLock::new(|| [memmem::Finder::new(b"\\GE"), memmem::Finder::new(b"\\HS"), memmem::Finder::new(b"\\HE")]);
    let finder = &FINDERS[match marker[1] {
        b'G' => 0,
        b'H' if marker[2] == b'S' => 1,
        _ => 2,
    }];
    let marker = &marker[..];
    let mut at = from;
    while at < to {
        let k = finder.find(&input[at..to])?;
        let hit = at + k;
        let line_start = input[..hit].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let (e, next) = line_end(input, hit);
        if line_start >= from && trim(&input[line_start..e]) == marker {
            return Some((line_start, next));
        }
        at = hit + marker.len();
    }
    None
}

/// The start of the `\HE` line in `input[from..to]`, or `to` when there is none.
pub(super) fn header_end(input: &[u8], from: usize, to: usize) -> usize {
    find_marker(input, from, to, b"\\HE").map_or(to, |(s, _)| s)
}

/// Where the game whose start line ends at `from` ends: just past its `\GE` line (`true`), or
/// at the start of the next `\HS` line or the input's end (`false`: the game is cut short).
/// `input` may be a window that ends before the stream does: the caller then asks again with
/// more bytes when the answer is not a `\GE` line whose line end is in `input`.
pub(super) fn game_end(input: &[u8], from: usize) -> (usize, bool) {
    let ge = find_marker(input, from, input.len(), b"\\GE");
    let limit = ge.map_or(input.len(), |(s, _)| s);
    if let Some((s, _)) = find_marker(input, from, limit, b"\\HS") {
        return (s, false);
    }
    match ge {
        Some((_, next)) => (next, true),
        None => (input.len(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_at_ge_or_the_next_header() {
        let two = b"\\HS\n\\HE\n\\GS\n\\GE\n\\HS\n";
        assert_eq!(game_end(two, 4), (16, true));
        let cut = b"\\HS\n\\GS\nSTO 0 1 1 2 3\n\\HS\n\\GE\n";
        assert_eq!(game_end(cut, 4), (22, false));
        assert_eq!(game_end(b"\\HS\n\\[X=\\GE\\]\n", 4), (14, false));
        assert_eq!(game_end(b"\\HS\n  \\GE \r\nx", 4), (12, true));
    }
}
