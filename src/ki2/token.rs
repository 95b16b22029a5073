//! KI2's own line grammar: which lines hold moves (a side mark first, or a move written without
//! its mark), one move token (`▲７六歩`, `△同　銀左上成`, `▲５五角打`, `７六歩`) read into its
//! parts, where the next token starts, and the ending a `まで…` summary names (KI2 writes no
//! special move: `まで3手で先手の勝ち`).

use crate::event::{Color, Ending, Piece, Square};
use crate::kit::kakinoki::codes::{code_at, codes, word_code, Lookup};
use crate::kit::kakinoki::glyphs::{self, Word};
use crate::kit::kakinoki::lex::{self, at, len, skip_spaces, Enc, Kind};
use crate::kit::kakinoki::moves::{self, promotion, target_at, DROP_CODE};
use crate::kit::kakinoki::reach::{Motion, Words};

/// The kind of a KI2 line: a line opened by a side mark, or by a move without its mark (see
/// [`unmarked`]), holds moves; the rest as in KIF (a line opened by a full-width digit that
/// is not a move, `  ９ ８ ７…` above a diagram, stays a header line).
#[inline]
pub(crate) fn classify(line: &[u8], enc: Enc) -> Kind {
    match enc {
        Enc::Utf8 => classify_in::<false>(line),
        Enc::Sjis => classify_in::<true>(line),
    }
}

/// [`classify`] in one charset (CP932 when `SJIS`).
#[inline(always)]
fn classify_in<const SJIS: bool>(line: &[u8]) -> Kind {
    let enc = if SJIS { Enc::Sjis } else { Enc::Utf8 };
    let i = skip_spaces(line, 0, enc);
    if mark_at(line, i, enc).is_some() || unmarked_in::<SJIS>(line, i).is_some() {
        Kind::Move { real: true }
    } else {
        match lex::classify(line, enc) {
            // A KIF move line (`1 ７六歩(77)`) is not KI2.
            Kind::Move { .. } => Kind::Other,
            k => k,
        }
    }
}

/// The codes of [`glyphs::MARKS`], per charset.
static MARK_CODES: [Lookup; 2] = [Lookup::new(&codes(glyphs::MARKS, 0)), Lookup::new(&codes(glyphs::MARKS, 1))];

/// The side mark at `b[i]`: the side it names and its length.
#[inline]
pub(crate) fn mark_at(b: &[u8], i: usize, enc: Enc) -> Option<(Color, usize)> {
    // Every mark starts with E2 in UTF-8 and 81 in CP932 (so a CP932 `FF FF`, a mark the
    // charset cannot write, is never read as one).
    if !matches!(b.get(i), Some(0xE2 | 0x81)) {
        return None;
    }
    let (c, n) = code_at(b, i, enc)?;
    let k = MARK_CODES[enc as usize].find(c)?;
    Some((if k % 2 == 0 { Color::Black } else { Color::White }, n))
}

/// One token of a move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// A move, as written.
    Move(Written),
    /// A special move written like a move (`▲投了`): the side its mark names, its word and
    /// ending, as in KIF.
    Special { color: Color, word: &'a [u8], ending: Option<Ending>, known: bool },
    /// A side mark and what follows it, not a token: the offset where reading stopped.
    Bad(usize),
    /// Text without a side mark that is not a move (see [`unmarked`]).
    Text,
}

/// A KI2 move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    /// The side its mark names (`None`: written without a mark).
    pub color: Option<Color>,
    /// The destination (`None` for `同`).
    pub to: Option<Square>,
    /// The piece before the move.
    pub piece: Piece,
    /// The words that tell which piece moved.
    pub words: Words,
    /// `成` (`Some(true)`), `不成` (`Some(false)`).
    pub promote: Option<bool>,
    /// `打`.
    pub drop: bool,
    /// A KIF-style origin written after the move (`(77)`), which tsshogi's pattern allows.
    pub origin: Option<Square>,
}

/// Reads the token at `b[i]` (a side mark, or a move without its mark: else [`Token::Text`]);
/// returns it and the offset after it (`b` ends at the line's end).
#[inline]
pub(crate) fn token(b: &[u8], i: usize, enc: Enc) -> (Token<'_>, usize) {
    match enc {
        Enc::Utf8 => token_in::<false>(b, i),
        Enc::Sjis => token_in::<true>(b, i),
    }
}

/// [`token`] in one charset (CP932 when `SJIS`): the charset's tests are constants.
#[inline(always)]
fn token_in<const SJIS: bool>(b: &[u8], i: usize) -> (Token<'_>, usize) {
    let enc = if SJIS { Enc::Sjis } else { Enc::Utf8 };
    let Some((color, n)) = mark_at(b, i, enc) else {
        return match unmarked_in::<SJIS>(b, i) {
            Some((w, j)) => (Token::Move(w), j),
            None => (Token::Text, i),
        };
    };
    match target_at(b, i + n, enc) {
        Ok((to, piece, j)) => {
            let (w, j) = modifiers(b, j, enc, Written::new(Some(color), to, piece));
            (Token::Move(w), j)
        }
        Err(bad) => {
            let j = i + n;
            // A destination that does not read is a bad move, not a special.
            if moves::destination_starts(b, j, enc) {
                return (Token::Bad(bad), bad);
            }
            for &(w, ending) in &glyphs::SPECIALS {
                if at(b, j, w, enc) {
                    let end = j + len(w, enc);
                    return (Token::Special { color, word: &b[j..end], ending, known: true }, end);
                }
            }
            match moves::special(b, j, enc) {
                Some((word, _, _)) if mark_at(word, 0, enc).is_none() && !word.is_empty() => {
                    (Token::Special { color, word, ending: Some(Ending::Other), known: false }, j + word.len())
                }
                _ => (Token::Bad(bad), bad),
            }
        }
    }
}

impl Written {
    fn new(color: Option<Color>, to: Option<Square>, piece: Piece) -> Written {
        Written { color, to, piece, words: Words::default(), promote: None, drop: false, origin: None }
    }
}

/// The direction words, `成`/`不成` and `打` of a move whose piece ends at `b[j]`, and the
/// offset after them and after a KIF-style origin, `(77)`, that tsshogi's pattern allows last
/// (kept in [`Written::origin`]: the reader takes it when its piece can make the move).
#[inline(always)]
fn modifiers(b: &[u8], j: usize, enc: Enc, mut w: Written) -> (Written, usize) {
    // Most moves end at the piece: a space, the next mark or the line's end follows (no
    // direction word, `成`, `不成` or `打` starts with a byte of those).
    if matches!(b.get(j), None | Some(b' ' | b'\t' | 0xE2 | 0x81)) {
        return (w, j);
    }
    let (words, j) = words(b, j, enc);
    let (promote, mut j) = promotion(b, j, enc);
    if let Some((c, k)) = code_at(b, j, enc) {
        if c == DROP_CODE[enc as usize] {
            w.drop = true;
            j += k;
        }
    }
    if let Some(&[b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')']) = b.get(j..j + 4) {
        w.origin = Some(Square::new(f - b'0', r - b'0'));
        j += 4;
    }
    w.words = words;
    w.promote = promote;
    (w, j)
}

/// A move written without its side mark at `b[i]` (tsshogi reads the mark as optional:
/// `７六歩`, `同　銀左上成`), and the offset after it: a destination (or `同`) and a piece, its
/// words, and then white space, a side mark or the line's end (so that a word that merely
/// starts like a move, `同銀行：…`, is not one). Its side is the side to move's.
#[inline]
pub(crate) fn unmarked(b: &[u8], i: usize, enc: Enc) -> Option<(Written, usize)> {
    match enc {
        Enc::Utf8 => unmarked_in::<false>(b, i),
        Enc::Sjis => unmarked_in::<true>(b, i),
    }
}

/// [`unmarked`] in one charset (CP932 when `SJIS`).
#[inline(always)]
fn unmarked_in<const SJIS: bool>(b: &[u8], i: usize) -> Option<(Written, usize)> {
    let enc = if SJIS { Enc::Sjis } else { Enc::Utf8 };
    // Every destination starts with a full-width digit or `同`: one byte rules out most text.
    let lead = *b.get(i)?;
    if !(if SJIS { matches!(lead, 0x82 | 0x93) } else { matches!(lead, 0xEF | 0xE5) }) {
        return None;
    }
    let (to, piece, j) = target_at(b, i, enc).ok()?;
    let (w, j) = modifiers(b, j, enc, Written::new(None, to, piece));
    let ends =
        j == b.len() || matches!(b[j], b' ' | b'\t') || at(b, j, glyphs::IDSP, enc) || mark_at(b, j, enc).is_some();
    ends.then_some((w, j))
}

/// The direction words, each with what it sets: 0 `右`, 1 `左`, 2 `直`, 3 `上` (and `行`,
/// `入`), 4 `引`, 5 `寄`.
const WORDS: [(Word, u8); 8] = [
    (glyphs::RIGHT, 0),
    (glyphs::LEFT, 1),
    (glyphs::STRAIGHT, 2),
    (glyphs::UP, 3),
    (glyphs::GO, 3),
    (glyphs::ENTER, 3),
    (glyphs::BACK, 4),
    (glyphs::SIDE, 5),
];

/// The codes of [`WORDS`] (each one character), per charset.
static WORD_CODES: [Lookup; 2] = {
    const fn list(enc: usize) -> [u32; 8] {
        let mut out = [0; 8];
        let mut k = 0;
        while k < 8 {
            out[k] = word_code(WORDS[k].0, enc);
            k += 1;
        }
        out
    }
    [Lookup::new(&list(0)), Lookup::new(&list(1))]
};

/// The direction words at `b[i]` (`右`/`左`/`直`, then `上`/`行`/`入`/`引`/`寄`, in any order).
#[inline]
fn words(b: &[u8], mut i: usize, enc: Enc) -> (Words, usize) {
    let mut w = Words::default();
    while let Some((c, n)) = code_at(b, i, enc) {
        let Some(k) = WORD_CODES[enc as usize].find(c) else { break };
        match WORDS[k].1 {
            0 => w.right = Some(true),
            1 => w.right = Some(false),
            2 => w.straight = true,
            3 => w.motion = Some(Motion::Up),
            4 => w.motion = Some(Motion::Back),
            _ => w.motion = Some(Motion::Side),
        }
        i += n;
    }
    (w, i)
}

/// Where the next token of the line may start after `i`, inside text that is not one (a bad
/// token, or unmarked text): the next side mark, or a move without its mark right after white
/// space (see [`unmarked`]), else the line's end. Walks the line character by character
/// (only such text is walked).
pub(crate) fn next_token(b: &[u8], mut i: usize, enc: Enc) -> usize {
    let mut space = false;
    while i < b.len() {
        if mark_at(b, i, enc).is_some() || (space && unmarked(b, i, enc).is_some()) {
            return i;
        }
        let idsp = at(b, i, glyphs::IDSP, enc);
        space = idsp || matches!(b[i], b' ' | b'\t');
        i += if idsp { len(glyphs::IDSP, enc) } else { lex::char_len(b, i, enc).max(1) };
    }
    b.len()
}

/// Whether the marked token at `b[i]` has a move's shape (its mark, then a file digit or `同`):
/// one that does not read ([`Token::Bad`]) is still a move of the record, skipped by the reader
/// with its turn passing, and counted by [`count`].
pub(crate) fn is_move_shaped(b: &[u8], i: usize, enc: Enc) -> bool {
    mark_at(b, i, enc).is_some_and(|(_, k)| moves::destination_starts(b, i + k, enc))
}

/// The real moves of a move line and whether a special move ends its line of play there (for
/// the layout scan): its tokens walked as the reader walks them (a mark and then a
/// destination or `同` is a move, even one that does not read; a mark and a special move's word
/// a special move; a mark and anything else passed over, as the reader passes it over with a
/// `BadValue`; a move without its mark a move; other text is passed over).
pub(crate) fn count(line: &[u8], enc: Enc) -> (u32, bool) {
    let mut n = 0u32;
    let mut i = skip_spaces(line, 0, enc);
    while i < line.len() {
        let (tok, after) = token(line, i, enc);
        i = match tok {
            Token::Move(_) => after,
            Token::Special { .. } => return (n, true),
            Token::Bad(_) => next_token(line, after.max(i + 1), enc),
            Token::Text => next_token(line, i + lex::char_len(line, i, enc).max(1), enc),
        };
        let counts = match tok {
            Token::Move(_) => true,
            Token::Bad(_) => is_move_shaped(line, i, enc),
            _ => false,
        };
        n = n.saturating_add(counts as u32);
        i = skip_spaces(line, i, enc);
    }
    (n, false)
}

/// What a `まで…` summary line says: the ending (`None` when it names none the reader knows),
/// and the word naming it, from the line (`中断`) or, for a result (`先手の勝ち`), KIF's special
/// move word for it (`投了`) in the charset.
pub(crate) fn summary(line: &[u8], enc: Enc) -> Option<(Ending, &[u8])> {
    let mut i = skip_spaces(line, 0, enc);
    if !at(line, i, glyphs::SUMMARY, enc) {
        return None;
    }
    i += len(glyphs::SUMMARY, enc);
    while line.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b',') {
        i += 1;
    }
    // `まで、…`
    if at(line, i, ["、".as_bytes(), b"\x81\x41"], enc) {
        i += len(["、".as_bytes(), b"\x81\x41"], enc);
    }
    if at(line, i, glyphs::TE, enc) {
        i += len(glyphs::TE, enc);
    }
    if at(line, i, glyphs::DE, enc) {
        i += len(glyphs::DE, enc);
    }
    let mut timeup = false;
    if at(line, i, glyphs::ON_TIME, enc) {
        timeup = true;
        i += len(glyphs::ON_TIME, enc);
    }
    let side = [
        (glyphs::KEYS[0].0, Color::Black),
        (glyphs::KEYS[1].0, Color::Black),
        (glyphs::KEYS[2].0, Color::White),
        (glyphs::KEYS[3].0, Color::White),
    ]
    .iter()
    .find(|&&(w, _)| at(line, i, w, enc) && at(line, i + len(w, enc), glyphs::NO, enc))
    .map(|&(w, c)| (c, len(w, enc) + len(glyphs::NO, enc)));
    if let Some((color, n)) = side {
        let j = i + n;
        for &(w, ending) in &glyphs::RESULTS {
            if at(line, j, w, enc) {
                let ending = match (timeup, ending) {
                    (true, _) => Ending::TimeUp,
                    (false, Some(e)) => e,
                    (false, None) if color == Color::Black => Ending::IllegalActionBlack,
                    (false, None) => Ending::IllegalActionWhite,
                };
                return Some((ending, special_word(ending, enc)));
            }
        }
        return None;
    }
    glyphs::SPECIALS.iter().find(|&&(w, _)| at(line, i, w, enc)).and_then(|&(w, ending)| {
        let word = &line[i..i + len(w, enc)];
        ending.map(|e| (e, word))
    })
}

/// KIF's special move word for an ending (`Resign`: `投了`), in the charset.
pub(crate) fn special_word(ending: Ending, enc: Enc) -> &'static [u8] {
    let want = match ending {
        Ending::IllegalActionBlack | Ending::IllegalActionWhite => None,
        e => Some(e),
    };
    glyphs::SPECIALS.iter().find(|&&(_, e)| e == want).map_or(&b""[..], |&(w, _)| w[enc as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> Token<'_> {
        token(s.as_bytes(), 0, Enc::Utf8).0
    }

    #[test]
    fn tokens() {
        let Token::Move(w) = tok("△同　銀左上成") else { panic!() };
        assert_eq!(
            (w.color, w.to, w.piece, w.promote, w.drop),
            (Some(Color::White), None, Piece::Silver, Some(true), false)
        );
        assert_eq!(w.words, Words { right: Some(false), straight: false, motion: Some(Motion::Up) });
        let Token::Move(w) = tok("▲５五角打") else { panic!() };
        assert!(w.drop && w.to == Some(Square::new(5, 5)));
        assert!(matches!(tok("▲投了"), Token::Special { ending: Some(Ending::Resign), .. }));
        let Token::Move(w) = tok("７六歩") else { panic!() };
        assert_eq!((w.color, w.to), (None, Some(Square::new(7, 6))));
        assert_eq!(tok("７六歩x"), Token::Text);
        assert_eq!(token("▲７六歩(77)　△".as_bytes(), 0, Enc::Utf8).1, "▲７六歩(77)".len());
        assert_eq!(token("７六歩(77)".as_bytes(), 0, Enc::Utf8).1, "７六歩(77)".len());
        assert_eq!(token("▲７六歩(7)".as_bytes(), 0, Enc::Utf8).1, "▲７六歩".len());
        assert_eq!(tok("  ９ ８ ７"), Token::Text);
        let line = "▲７六歩    △３四歩    ▲同　成桂";
        assert_eq!(count(line.as_bytes(), Enc::Utf8), (3, false));
        assert_eq!(count("▲７六歩 △投了".as_bytes(), Enc::Utf8), (1, true));
        assert_eq!(count("▲７六歩 ３四歩 x △２六歩".as_bytes(), Enc::Utf8), (3, false));
        assert_eq!(count("７六歩 ▲７x歩 △２六歩".as_bytes(), Enc::Utf8), (3, false));
        assert_eq!(count("７六歩 ▲x △２六歩".as_bytes(), Enc::Utf8), (1, true));
    }

    #[test]
    fn no_modifier_starts_with_a_byte_that_ends_a_move() {
        // `token`'s shortcut after the piece relies on it.
        for w in WORDS.iter().map(|w| w.0).chain([glyphs::PROMOTE, glyphs::NO_PROMOTE, glyphs::DROP]) {
            for form in w {
                assert!(!matches!(form[0], b' ' | b'\t' | 0xE2 | 0x81), "{form:?}");
            }
        }
    }

    #[test]
    fn summaries() {
        let s = |t: &str| summary(t.as_bytes(), Enc::Utf8).map(|(e, _)| e);
        assert_eq!(s("まで3手で先手の勝ち"), Some(Ending::Resign));
        assert_eq!(s("まで165手で時間切れにより後手の勝ち"), Some(Ending::TimeUp));
        assert_eq!(s("まで2手で先手の反則負け"), Some(Ending::IllegalActionBlack));
        assert_eq!(s("まで2手で後手の反則勝ち"), Some(Ending::IllegalMove));
        assert_eq!(s("まで71手で先手の入玉勝ち"), Some(Ending::DeclareWin));
        assert_eq!(s("まで61手詰"), Some(Ending::Checkmate));
        assert_eq!(s("まで3手で中断"), Some(Ending::Interrupted));
        assert_eq!(s("まで2手で封じ手"), Some(Ending::Interrupted));
        assert_eq!(s("まで3手で不詰"), Some(Ending::NoCheckmate));
        assert_eq!(s("まで3手"), None);
        assert_eq!(summary("まで3手で先手の勝ち".as_bytes(), Enc::Utf8).unwrap().1, "投了".as_bytes());
    }
}
