//! Tygem GIB records (`.gib`): a zero-copy pull reader, its sniffer and its streaming splitter.
//!
//! No specification was published; this follows the files and the public readers as
//! `shared/specs/gib-ngf-ugf-notes.md` records them (Sabaki, KaTrain, gibson's grammar). A game
//! is a header between lines `\HS` and `\HE` — one `\[KEY=value\]` per line — and a game block
//! between `\GS` and `\GE`. The board is always 19×19. A file may hold several games one after
//! another.
//!
//! # Mapping
//! | GIB | events |
//! |---|---|
//! | `\HS` (or `\GS` for a game without header) … `\GE` | `GameStart { offset }`, `Node` (the root), `Info(BoardSize)` `19` … `GameEnd { length }` (`length` includes the `\GE` line's end) |
//! | `\[GAMEBLACKNAME=Menskit (4D)\]` | `Info(BlackName)` `Menskit`, `Info(BlackRank)` `4D` (a rank when the value ends with its one `( … )`); `GAMEWHITENAME` the same for White |
//! | `\[GAMEDATE=…\]`, `GAMEPLACE`, `GAMENAME`, `GAMECOMMENT` | `Info(Date)`, `Info(Place)`, `Info(GameName)`, `Info(GameComment)`, raw |
//! | `\[GAMEINFOMAIN=…GTIME:600-30-3,GRLT:1,ZIPSU:245,…GONGJE:65…\]` | `Property` (name `GAMEINFOMAIN`), then `Info(TimeLimit)` `600`, `Info(Result)` `W+24.5`, `Info(Komi)` `6.5` (GONGJE ÷ 10) |
//! | result codes `GRLT` | `0`/`1` `B+`/`W+` ZIPSU ÷ 10, `3`/`4` `B+R`/`W+R`, `7`/`8` `B+T`/`W+T`, `6` `W+F` (White wins by disconnection), `255` `Void` (unfinished); other codes a `bad_value` warning |
//! | `\[GAMETAG=…G65,W4,Z0,…C2020:08:21:22:55…\]` | `Property` (name `GAMETAG`); its `W`/`Z` (result), `G` (komi) and `C` (date) only when nothing before gave them |
//! | any other `\[KEY=value\]`, and the keys above with an empty value | `Property` (name = key), raw; keys are open-ended |
//! | `2 1 0`, `153 0 &4` (counter lines) | nothing |
//! | `INI 0 1 <n> &4…` | nothing for `0`/`1`; for 2–9 `Info(Handicap)` and `Setup` of `n` black stones in Tygem's layout (`kit::go`), White then moves first |
//! | `STO 0 <n> <1\|2> <x> <y>` | `Node`, `Move::Go` (colour 1 Black, 2 White; x from the left, y from the top, 0-based, as SGF's) |
//! | `SKI 0 <n>` | `Node`, a pass (`point: None`) by the side to move (Sabaki and KaTrain drop these) |
//!
//! # Charsets
//! GIB declares none. A UTF-8 BOM makes every game UTF-8; otherwise each game's charset is
//! detected on its own bytes by [`crate::text::detect_charset`] (UTF-8, EUC-KR, GB18030/GBK…),
//! and its `Text` values carry it ([`Reader::with_charset`] fixes one).
//!
//! # Recovery (lenient mode: a warning, and reading goes on)
//! A line the game does not expect (`unknown_line`, also between games); a header line without
//! its closing `\]` (`repaired`; the value runs to the line's end); a `STO` with a colour other
//! than 1 or 2 (`bad_value`), coordinates that are not numbers (`bad_point`) or off the board
//! (`point_off_board`) — the line is dropped; a handicap that is not a number or above 9
//! (`bad_handicap`); a result code that names no result (`bad_value`), a komi past 400 points
//! (`bad_komi`); a game without `\GE` (`truncated`). The limits (game size, value size, moves)
//! end the game with an error. Strict mode turns every warning into such an error.
//!
//! # Costs
//! Per game: two `memmem` searches frame it and its charset is detected (one UTF-8 validation
//! for UTF-8 files); then one pass over its lines, a `memchr` for each line end; a move line is
//! read with a few byte comparisons. Nothing is allocated but an `Error`.
//!
//! ```
//! use kifu::{Event, InfoKey, Move, Point};
//!
//! let gib = b"\\HS\n\\[GAMEBLACKNAME=Lee (9D)\\]\n\\[GAMEINFOMAIN=GRLT:3,ZIPSU:0,GONGJE:65,\\]\n\\HE\n\\GS\n2 1 0\nINI 0 1 0 &4 \nSTO 0 2 1 15 3 \nSKI 0 3\n\\GE\n";
//! let events: Vec<_> = kifu::gib::Reader::new(gib).collect::<Result<_, _>>().unwrap();
//! let info = |k| events.iter().find_map(|e| match e { Event::Info(i) if i.key() == k => Some(i.value().to_string_lossy()), _ => None });
//! assert_eq!((info(InfoKey::BlackName).unwrap(), info(InfoKey::BlackRank).unwrap()), ("Lee".into(), "9D".into()));
//! assert_eq!((info(InfoKey::Result).unwrap(), info(InfoKey::Komi).unwrap()), ("B+R".into(), "6.5".into()));
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Go { point, .. }) => Some(*point), _ => None }).collect();
//! assert_eq!(moves, [Some(Point::new(15, 3)), None]);
//! ```

mod frame;
mod reader;
pub mod split;

pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Gib, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// Whether `head` (the first bytes of an input) is GIB: `Yes` when its first non-blank line is
/// `\HS`, or `\GS` followed by a counter line (digits) — lines no prose or code consists of;
/// else `No`.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let mut lines = head.split(|&c| c == b'\n').map(frame::trim).filter(|l| !l.is_empty());
    match lines.next() {
        Some(b"\\HS") => Confidence::Yes,
        Some(b"\\GS") if lines.next().is_some_and(|l| l[0].is_ascii_digit()) => Confidence::Yes,
        _ => Confidence::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"\\HS\n\\[GIBOKIND=Global\\]\n"), Confidence::Yes);
        assert_eq!(sniff(b"\xEF\xBB\xBF\r\n\\HS\r\n"), Confidence::Yes);
        assert_eq!(sniff(b"\\GS\n2 1 0\n"), Confidence::Yes);
        assert_eq!(sniff(b"\\GS\nthe game starts here\n"), Confidence::No);
        assert_eq!(sniff(b"A GIB file starts with \\HS\n"), Confidence::No);
        assert_eq!(sniff(b""), Confidence::No);
    }
}
