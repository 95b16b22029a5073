//! Lines of a KIF file and the characters in them: where a line ends, how long a character is
//! in the file's charset (so a Shift_JIS trail byte such as `\` or `|` is never read as ASCII),
//! and what kind of line a line is, judged by its first characters. The reader, the game
//! scanner, the splitter and the sniffer all classify lines with [`classify`].

use super::glyphs::{self, Word};

/// The byte encoding the line scanner compares words in: UTF-8 or CP932 (Shift_JIS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Enc {
    /// UTF-8 (and ASCII, and charsets the scanner has no table for).
    Utf8 = 0,
    /// CP932 / Shift_JIS: two-byte characters whose second byte may be ASCII.
    Sjis = 1,
}

/// The end of the line starting at `at` (before its CR/LF) and the start of the next one.
#[inline]
pub(crate) fn line_end(input: &[u8], at: usize) -> (usize, usize) {
    match memchr::memchr2(b'\n', b'\r', &input[at..]) {
        Some(k) => {
            let e = at + k;
            let next = if input[e] == b'\r' && input.get(e + 1) == Some(&b'\n') { e + 2 } else { e + 1 };
            (e, next)
        }
        None => (input.len(), input.len()),
    }
}

/// Whether `w` is written at `b[i..]` (compared byte by byte: the words are a few bytes long,
/// shorter than a call to `memcmp` is worth).
#[inline(always)]
pub(crate) fn at(b: &[u8], i: usize, w: Word, enc: Enc) -> bool {
    let w = w[enc as usize];
    match b.get(i..i.wrapping_add(w.len())) {
        Some(r) => {
            let mut k = 0;
            while k < w.len() {
                if r[k] != w[k] {
                    return false;
                }
                k += 1;
            }
            true
        }
        None => false,
    }
}

/// The length of `w` in `enc`.
#[inline]
pub(crate) fn len(w: Word, enc: Enc) -> usize {
    w[enc as usize].len()
}

/// The length of the character at `b[i]` (at least 1, at most what is left).
#[inline]
pub(crate) fn char_len(b: &[u8], i: usize, enc: Enc) -> usize {
    let c = b[i];
    let n = match enc {
        Enc::Utf8 => match c {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        },
        Enc::Sjis => {
            if matches!(c, 0x81..=0x9F | 0xE0..=0xFC) {
                2
            } else {
                1
            }
        }
    };
    n.min(b.len() - i)
}

/// `i` moved past ASCII spaces, tabs and ideographic spaces (U+3000).
#[inline]
pub(crate) fn skip_spaces(b: &[u8], mut i: usize, enc: Enc) -> usize {
    loop {
        match b.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(_) if at(b, i, glyphs::IDSP, enc) => i += len(glyphs::IDSP, enc),
            _ => return i,
        }
    }
}

/// `b` without trailing ASCII spaces, tabs and ideographic spaces (found on character
/// boundaries).
pub(crate) fn trim_end(b: &[u8], enc: Enc) -> &[u8] {
    let (mut i, mut end) = (0, 0);
    while i < b.len() {
        let n = if at(b, i, glyphs::IDSP, enc) {
            len(glyphs::IDSP, enc)
        } else if matches!(b[i], b' ' | b'\t') {
            1
        } else {
            let n = char_len(b, i, enc);
            end = i + n;
            n
        };
        i += n;
    }
    &b[..end]
}

/// The first colon (`:` or full-width `：`) of `b` on a character boundary: where it starts and
/// where the value after it starts.
pub(crate) fn colon(b: &[u8], enc: Enc) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            // An ASCII byte is a character of its own in both charsets, and `：` does not start
            // with one: a line of ASCII (a USI game the sniffers look at) costs a compare a byte.
            if c == b':' {
                return Some((i, i + 1));
            }
            i += 1;
            continue;
        }
        if at(b, i, glyphs::COLON, enc) {
            return Some((i, i + len(glyphs::COLON, enc)));
        }
        i += char_len(b, i, enc);
    }
    None
}

/// What a line is, by its first characters (see the module docs of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing but spaces.
    Blank,
    /// `#…`: a program comment (`#KIF version=2.0 encoding=…`).
    Program,
    /// `<ply> <move>`: a move (`real`) or a special move (`投了`).
    Move {
        /// Whether the text is a move (one that reads or not) rather than a special: see
        /// [`is_move_text`].
        real: bool,
    },
    /// `変化：N手`.
    Variation,
    /// `*…`.
    Comment,
    /// `&…`.
    Bookmark,
    /// `まで…`.
    Summary,
    /// A header: `KEY：value`, a hand, a diagram line, the side to move, the column header.
    Head,
    /// Anything else.
    Other,
}

impl Kind {
    /// Whether a line of this kind belongs to a game's header, so that after a game's moves it
    /// starts the next game.
    #[inline]
    pub(crate) fn starts_game(self) -> bool {
        matches!(self, Kind::Head | Kind::Program)
    }

    /// Whether a line of this kind is part of the moves section (the body).
    #[inline]
    pub(crate) fn is_body(self) -> bool {
        matches!(self, Kind::Move { .. } | Kind::Variation | Kind::Summary)
    }
}

/// The words that open a header line without a colon.
const HEAD_WORDS: [Word; 6] = [
    glyphs::BLACK_TURN,
    glyphs::SHITATE_TURN,
    glyphs::WHITE_TURN,
    glyphs::UWATE_TURN,
    glyphs::ROTATED,
    glyphs::MOVES_HEADER,
];

/// The kind of `line` (without its line end).
#[inline]
pub(crate) fn classify(line: &[u8], enc: Enc) -> Kind {
    match enc {
        Enc::Utf8 => classify_in::<false>(line),
        Enc::Sjis => classify_in::<true>(line),
    }
}

/// [`classify`] in one charset (CP932 when `SJIS`): the charset's tests are constants.
#[inline(always)]
fn classify_in<const SJIS: bool>(line: &[u8]) -> Kind {
    let enc = if SJIS { Enc::Sjis } else { Enc::Utf8 };
    let mut i = 0;
    while let Some(b' ' | b'\t') = line.get(i) {
        i += 1;
    }
    match line.get(i) {
        None => Kind::Blank,
        Some(b'#') => Kind::Program,
        Some(b'*') => Kind::Comment,
        Some(b'&') => Kind::Bookmark,
        Some(b'|') => Kind::Head,
        Some(b'+') if line.get(i + 1) == Some(&b'-') => Kind::Head,
        Some(b'0'..=b'9') => {
            i += 1;
            while let Some(b'0'..=b'9') = line.get(i) {
                i += 1;
            }
            while let Some(b' ') = line.get(i) {
                i += 1;
            }
            // The common move: a full-width file digit right after the spaces.
            if glyphs::file_digit(line, i, SJIS).is_some() {
                return Kind::Move { real: true };
            }
            let j = skip_spaces(line, i, enc);
            Kind::Move { real: is_move_text(line, j, enc) }
        }
        Some(_) => classify_words(line, i, enc),
    }
}

/// [`classify`] for a line that starts with a word rather than ASCII punctuation or a digit.
fn classify_words(line: &[u8], i: usize, enc: Enc) -> Kind {
    let i = skip_spaces(line, i, enc);
    if i == line.len() {
        return Kind::Blank;
    }
    if at(line, i, glyphs::VARIATION, enc) {
        return Kind::Variation;
    }
    if at(line, i, glyphs::SUMMARY, enc) {
        return Kind::Summary;
    }
    // The file numbers above a diagram.
    if glyphs::file_digit(line, i, enc == Enc::Sjis).is_some() {
        return Kind::Head;
    }
    if HEAD_WORDS.iter().any(|&w| at(line, i, w, enc)) {
        return Kind::Head;
    }
    match colon(&line[i..], enc) {
        Some((k, _)) if k > 0 && !line[i..i + k].contains(&b' ') => Kind::Head,
        _ => Kind::Other,
    }
}

/// Whether a destination (a full-width file digit or `同`) starts at `b[j]`, after an optional
/// side mark.
#[inline]
fn is_move_start(b: &[u8], j: usize, enc: Enc) -> bool {
    let k = match glyphs::MARKS.iter().find(|&&w| at(b, j, w, enc)) {
        Some(&w) => j + len(w, enc),
        None => j,
    };
    glyphs::file_digit(b, k, enc == Enc::Sjis).is_some() || at(b, k, glyphs::SAME, enc)
}

/// Whether the text after a move line's number (at `b[j]`, past its spaces) is read as a move,
/// one that reads or one that does not, rather than a special move (`投了`, or any other word):
/// a destination after an optional side mark, or no word at all (the line ends, or a time's
/// `(` comes first). [`classify`] gives it as a move line's `real`, which the layout scan counts
/// and the KIF reader reads by (`moves::general` decides alike), so a variation attaches where
/// the reader puts the line.
#[inline]
pub(crate) fn is_move_text(b: &[u8], j: usize, enc: Enc) -> bool {
    is_move_start(b, j, enc) || matches!(b.get(j), None | Some(b'('))
}
