//! SGF `FF[1]`–`FF[4]`: a zero-copy pull reader.
//!
//! [`Reader`] reads a byte slice holding one game or a collection and returns one [`Event`]
//! per call. What it does with real files:
//!
//! - **Collections and junk**: a game starts at `(` followed by `;` (or by a property, when the
//!   `;` is missing); anything else between games (mail headers, stray parentheses, `()`) is
//!   skipped with one warning per run.
//! - **Identifiers**: `FF[3]` lower-case letters are dropped (`AddBlack` = `AB`) with a warning.
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

/// Whether `head` (the first bytes of an input) looks like SGF: `(` then `;` after optional
/// white space, anywhere in the head (junk may come first).
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'(', &head[from..]) {
        let p = from + k;
        let rest = &head[p + 1..];
        let q = rest.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(rest.len());
        if rest.get(q) == Some(&b';') {
            let prefix = &head[..p];
            return if prefix.iter().all(u8::is_ascii_whitespace) { Confidence::Yes } else { Confidence::Maybe };
        }
        from = p + 1;
    }
    Confidence::No
}
