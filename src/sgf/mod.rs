//! SGF `FF[1]`–`FF[4]`: a zero-copy pull reader.
//!
//! [`Reader`] reads a byte slice holding one game or a collection and returns one [`Event`]
//! per call. What it does with real files:
//!
//! - **Collections and junk**: a game starts at `(` followed by `;` (or by a property, when the
//!   `;` is missing); anything else between games (mail headers, stray parentheses, `()`) is
//!   skipped with one warning per run.
//! - **Identifiers**: `FF[3]` lower-case letters are dropped (`AddBlack` = `AB`) with a warning;
//!   an identifier with lower-case letters or digits that names no property of any FF version
//!   (`C1`, `Ab`) is kept verbatim as an `Event::Property` with a `nonstandard_ident` warning.
//! - **Lenient starts**, as Sabaki reads them: a root without `;` (`(TE[…]`, `(B[hh];W[ii])`,
//!   `missing_semicolon`) and, at the very start of the input, a game without `(`
//!   (`;B[hh];W[ii]`, `missing_paren`).
//! - **Values**: `\` escapes are honoured when looking for the closing `]`; text is unescaped
//!   only by [`Text::decode`](crate::Text::decode). Compressed point lists (`AB[aa:cc]`) give
//!   one `Setup`/`Markup` event per point. `B[]` is a pass, and so is `B[tt]` on boards up to
//!   19×19. `SZ[w:h]` goes up to 52.
//! - **Mapping**: `B`/`W` → `Move`; `AB`/`AW`/`AE` → `Setup`; `PL` → `Turn`; `C` → `Comment`;
//!   `N` → `Name`; `CR MA SQ TR SL DD VW TB TW LB AR LN` → `Markup`; `BL`/`WL`/`OB`/`OW` →
//!   `Clock`; game info (`PB`, `KM`, `RE`, `SZ`, `CA`, `FF`, …, in any node) → `Info`; every
//!   other property → `Property`, verbatim.
//! - **Charsets**, fixed before the game's first event: a UTF-8 BOM; else `CA[]`, found by a
//!   look-ahead over the root node wherever it stands; else the detection rule of
//!   [`detect_charset`](crate::text::detect_charset). In Shift_JIS, GBK and Big5, two-byte
//!   characters are stepped over whole, so a `]` or `\` second byte does not end a value.
//!   UTF-16 input must be transcoded first ([`crate::input::prepare`]).
//! - **Recovery**: problems become `Warning` events. An error (an unterminated value at the end
//!   of input, a limit) ends the game; reading resumes at the next game. A game whose `)` is
//!   missing is closed when the next `(;GM[` or `(;FF[` appears, so one broken game does not
//!   swallow the rest of a collection.
//!
//! ```
//! use kifu::{Event, Move, Point, Color};
//!
//! let events: Vec<_> = kifu::sgf::Reader::new(b"(;SZ[9];B[cc];W[])").collect::<Result<_, _>>().unwrap();
//! assert_eq!(events[4], Event::Move(Move::Go { color: Color::Black, point: Some(Point::new(2, 2)) }));
//! assert_eq!(events[6], Event::Move(Move::Go { color: Color::White, point: None }));
//! ```
//!
//! [`Event`]: crate::Event

pub mod check;
pub mod props;
mod reader;
mod scan;
pub mod split;
pub mod write;

pub use reader::Reader;
pub use split::{Scanner, Splitter};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(Splitter::new(read, config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file: the
/// context's charset, if any, is fixed for it.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    let reader = Reader::with_config(input, config);
    match context.charset {
        Some(charset) => reader.with_charset(charset),
        None => reader,
    }
}

/// Whether `head` (the first bytes of an input) looks like SGF.
///
/// `Yes` when the file starts (after white space and a UTF-8 BOM) with `(` then `;`, as every
/// SGF reader expects, or with one of the lenient starts: a root without `;` (`(TE[`, `(B[hh]`),
/// or nodes without `(` (`;B[hh];W[ii]`). `Maybe` when junk comes first (SGFC skips text before
/// the first game tree too) and a later `(;` opens what reads as a game tree: it stands at a
/// line or word start (after white space or a parenthesis, so not in a string literal,
/// inline code or a regular expression: `"(;`, `` `(; ``, `\(;`) and what follows is a property
/// sequence (`(;GM[1]…`) up to the tree's close or the end of the head. Prose or code that only
/// mentions `(;` is `No`.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let start = skip_space(head, 0);
    let at = &head[start..];
    let lenient = match at.first() {
        Some(b'(') => {
            let i = skip_space(at, 1);
            at.get(i) == Some(&b';') || property_at(at, i)
        }
        Some(b';') => property_at(at, skip_space(at, 1)),
        _ => false,
    };
    if lenient {
        return Confidence::Yes;
    }
    // A tree opens with `(`, white space and `;`: found from its `;`, which is rare outside SGF
    // (a shogi move line has two `(` and no `;`), each `;` naming at most one `(`, in order.
    for q in memchr::memchr_iter(b';', head) {
        let Some(p) = head[..q].iter().rposition(|b| !b.is_ascii_whitespace()) else { continue };
        if head[p] != b'(' {
            continue;
        }
        let before_ok = p == 0 || matches!(head[p - 1], b'(' | b')') || head[p - 1].is_ascii_whitespace();
        if before_ok && plausible_tree(&head[p..]) {
            return Confidence::Maybe;
        }
    }
    Confidence::No
}

/// The index of the first byte at or after `i` that is not ASCII white space.
fn skip_space(s: &[u8], i: usize) -> usize {
    let i = i.min(s.len());
    i + s[i..].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(s.len() - i)
}

/// Whether a property starts at `s[i]`: an identifier (an upper-case letter, then letters, as
/// in `B` or FF\[3\]'s `GaMe`) followed by `[` after optional white space.
fn property_at(s: &[u8], i: usize) -> bool {
    if !s.get(i).is_some_and(u8::is_ascii_uppercase) {
        return false;
    }
    let end = i + s[i..].iter().position(|b| !b.is_ascii_alphabetic()).unwrap_or(s.len() - i);
    s.get(skip_space(s, end)) == Some(&b'[')
}

/// Whether `s`, which starts with `(`, reads as an SGF game tree up to its close or to the end
/// of `s`: `(`, `;` and a property first, then only nodes, properties (an identifier and one or
/// more `[…]` values), subtrees and white space. One pass, no recursion (a depth counter).
fn plausible_tree(s: &[u8]) -> bool {
    let first = skip_space(s, 1);
    if s.get(first) != Some(&b';') || !property_at(s, skip_space(s, first + 1)) {
        return false;
    }
    let mut depth = 1usize;
    let mut i = first;
    while i < s.len() {
        match s[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return true;
                }
            }
            b';' => {}
            c if c.is_ascii_whitespace() => {}
            c if c.is_ascii_uppercase() => {
                if !property_at(s, i) {
                    return false;
                }
                // Step over the identifier and its values; a value may run past the head.
                i = skip_space(s, i + s[i..].iter().position(|b| !b.is_ascii_alphabetic()).unwrap_or(s.len() - i));
                while s.get(i) == Some(&b'[') {
                    match value_end(s, i + 1) {
                        Some(e) => i = skip_space(s, e + 1),
                        None => return true,
                    }
                }
                continue;
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

/// The index of the `]` that closes a property value whose text starts at `s[i]` (a `\` escapes
/// the next byte), or `None` when the value runs to the end of `s`.
fn value_end(s: &[u8], mut i: usize) -> Option<usize> {
    while i < s.len() {
        match s[i] {
            b']' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}
