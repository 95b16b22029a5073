//! WBaduk / Cyberoro NGF records (`.ngf`): a zero-copy pull reader, its sniffer and its
//! streaming splitter.
//!
//! No specification was published; this follows the files and the public readers as
//! `shared/specs/gib-ngf-ugf-notes.md` records them (Sabaki, KaTrain). A game is a header of
//! lines read by their position, then one `PM` line per move. A file may hold several games:
//! after a move line, a line that is neither blank nor a move line starts the next game.
//!
//! # Mapping
//! | NGF | events |
//! |---|---|
//! | the game's first non-blank line … its last move line | `GameStart { offset }`, `Node` (the root) … `GameEnd { length }` |
//! | line 0, the title (`Rated game`) | `Info(GameName)` |
//! | line 1, the size (`19`) | `Info(BoardSize)` (2–52; else `bad_board_size`, 19 is used) |
//! | lines 2 and 3, White and Black (`LQC         9DP`) | `Info(WhiteName)` `LQC`, `Info(WhiteRank)` `9DP` (the words before the last, and the last word, raw: `DP` professional dan, `D` amateur dan, `K` kyu, `*` as written); line 3 the same for Black |
//! | line 4, the site | `Info(Place)` |
//! | line 5, the handicap | `Info(Handicap)` for 2–9, and after the header `Setup` of the stones in Tygem's layout (`kit::go`); above 9 or not a number `bad_handicap` |
//! | line 7, the komi, an integer | `Info(Komi)`: in an even game `7` means `7.5` (readers add 0.5); with a handicap as written; not a number `bad_komi` |
//! | line 8, date and time (`20170316 [09:37]`) | `Info(Date)` `20170316` (its first word) |
//! | line 10, the result sentence (`Black wins by 0.5!`, `White wins by  resign!`) | `Info(Result)` `B+0.5`, `W+R` (`resign` R, `time` T, else the last number; the winner from `lack win`/`hite lose` or `hite win`/`lack lose`); a sentence naming no winner as written |
//! | lines 6, 9 (unknown) and 11 (the number of moves) | nothing; header lines past 11 `unknown_line` |
//! | `PMABBREER`: `PM`, the move number in base 26 (`A` = 0: `AB` = 1, `MV` = 333, see [`move_number`]), `B`/`W`, two coordinate letters, the same two reversed | `Node`, `Move::Go`: x = first letter − `B`, y = second − `B` (from the top-left, as SGF's); `AA` a pass; off the board `point_off_board`, not letters `bad_point` (the line is dropped); a reversed pair that differs `repaired` |
//! | the `GI` dialect (every header line starts with `GI`: `GI韩国十段战`, `GI朴承华 初段`, …) | line 0 `Info(GameName)`, 1 White, 2 Black (as the standard order; no file shows which), 5 `Info(Date)`, 6 `Info(BoardSize)`; the other lines (their meaning is not known) nothing |
//!
//! # Charsets
//! NGF declares none. A UTF-8 BOM makes every game UTF-8; otherwise each game's charset is
//! detected on its header lines by [`crate::text::detect_charset`] (GB2312 files are read as
//! GB18030, its superset), and its `Text` values carry it ([`Reader::with_charset`] fixes one).
//!
//! # Costs
//! One pass over each line (the header's twice: once to detect its charset); a move line is read
//! with a few byte comparisons. Nothing is allocated but an `Error`.
//!
//! ```
//! use kifu::{Event, InfoKey, Move, Point};
//!
//! let ngf = b"Rated game\n19\nLQC         9DP\nCYY         9DP\nwww.cyberoro.com\n0\n0\n7\n20170316 [09:37]\n5\nBlack wins by 0.5!\n2\nPMABBREER\nPMACWAAAA\n";
//! let events: Vec<_> = kifu::ngf::Reader::new(ngf).collect::<Result<_, _>>().unwrap();
//! let info = |k| events.iter().find_map(|e| match e { Event::Info(i) if i.key() == k => Some(i.value().to_string_lossy()), _ => None });
//! assert_eq!((info(InfoKey::Komi).unwrap(), info(InfoKey::Result).unwrap()), ("7.5".into(), "B+0.5".into()));
//! assert_eq!(info(InfoKey::WhiteRank).unwrap(), "9DP");
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Go { point, .. }) => Some(*point), _ => None }).collect();
//! assert_eq!(moves, [Some(Point::new(16, 3)), None]);
//! ```

mod reader;
pub mod split;

pub use reader::{move_number, Reader};
pub use split::{chunks, Chunks, Scanner};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};
use reader::is_move_line;

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Ngf, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// Whether `head` (the first bytes of an input) is NGF: `Yes` for the standard header's shape
/// (line 1 a board size, lines 5, 7 and 11 numbers, line 8 starting with eight digits) followed
/// by a move line or the head's end, and for at least three `GI` header lines followed by a move
/// line; else `No`. No prose has that shape.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let mut lines = [&b""[..]; 13];
    let mut n = 0;
    let mut rest = head;
    while n < 13 {
        let Some(k) = memchr::memchr(b'\n', rest) else {
            if !rest.is_empty() {
                lines[n] = rest.trim_ascii();
                n += 1;
            }
            break;
        };
        lines[n] = rest[..k].trim_ascii();
        rest = &rest[k + 1..];
        n += 1;
    }
    let digits = |l: &[u8]| !l.is_empty() && l.len() <= 4 && l.iter().all(u8::is_ascii_digit);
    if n >= 12
        && digits(lines[1])
        && digits(lines[5])
        && digits(lines[7])
        && digits(lines[11])
        && lines[8].len() >= 8
        && lines[8][..8].iter().all(u8::is_ascii_digit)
        && (n == 12 || is_move_line(lines[12]))
    {
        return Confidence::Yes;
    }
    // The `GI` dialect: `GI` lines, then a move line.
    let gi = lines[..n].iter().take_while(|l| l.starts_with(b"GI")).count();
    if gi >= 3 {
        if gi < n && is_move_line(lines[gi]) {
            return Confidence::Yes;
        }
        if gi == n {
            let mut rest = rest.split(|&c| c == b'\n').map(<[u8]>::trim_ascii).skip_while(|l| l.starts_with(b"GI"));
            if rest.next().is_some_and(is_move_line) {
                return Confidence::Yes;
            }
        }
    }
    Confidence::No
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        let even = b"Rated game\n19\nLQC         9DP\nCYY         9DP\nwww.cyberoro.com\n0\n0\n7\n20170316 [09:37]\n5\nBlack wins by 0.5!\n333\nPMABBREER\n";
        assert_eq!(sniff(even), Confidence::Yes);
        assert_eq!(sniff(&even[..even.len() - 10]), Confidence::Yes);
        assert_eq!(sniff(b"GIa\nGIb\nGIc\nGI19\nPMABBREER\n"), Confidence::Yes);
        assert_eq!(sniff(b"GI is a word\nGIs\nGIven\nhello\n"), Confidence::No);
        let prose = b"Title\n19\nsome\nlines\nof\n5\ntext\n7\n20200101 was the day\n5\nand\n12\nthen prose\n";
        assert_eq!(sniff(prose), Confidence::No);
        assert_eq!(sniff(b""), Confidence::No);
    }
}
