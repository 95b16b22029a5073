//! Pandanet UGF/UGI records (`.ugf`, `.ugi`, written by PANDA-EGG): a zero-copy pull reader,
//! its sniffer and its streaming splitter.
//!
//! No specification was published; this follows the files and the public readers as
//! `shared/specs/gib-ngf-ugf-notes.md` records them (Sabaki, gofish after A. Brouwer's page). A
//! game is INI-like sections: `[Header]` (`Key=value` lines), `[Data]` (one line per move),
//! and optionally `[Figure]`, `[ReviewNode]`, `[ReviewComment]`; blank lines may separate them.
//! A new `[Header]` line starts the next game.
//!
//! # Mapping
//! | UGF | events |
//! |---|---|
//! | `[Header]` … the next `[Header]` or the end | `GameStart { offset }`, `Node` (the root) … `GameEnd { length }` |
//! | `Ver=UGF3,200`, `Title=`, `Place=`, `Rule=`, `Copyright=`, `Writer=`, `Comment=` | `Info(FormatVersion)`, `Info(GameName)`, `Info(Place)`, `Info(Rules)`, `Info(Copyright)`, `Info(Application)`, `Info(GameComment)`, raw |
//! | `Date=2019/03/08,22:09:00,2019/03/09,07:16:59` | `Info(Date)` `2019/03/08` (the first field) |
//! | `Size=19` | `Info(BoardSize)` (2–52; else `bad_board_size`, 19 is used) |
//! | `Hdcp=<handicap>,<komi>` (`0,-5.50`: komi may be negative) | `Info(Handicap)` when 2 or more, `Info(Komi)` as written |
//! | `PlayerB=name,rank,,email`, `PlayerW=…` | `Info(BlackName)`, `Info(BlackRank)` (White's the same) |
//! | `Winner=B,7.50` | `Info(Result)` `B+7.5` (`R…` resignation, `T…` time, no margin `B+`); a winner other than `B`/`W` or a margin that is not a number `bad_value` and the `Property` |
//! | any other key (`Lang`, `Crypt`, `Ptime`, `Moves`, `CoordinateType`…), and empty values | `Property` (name = key), raw |
//! | `[Data]` `QP,B1,1,0`: point, colour + number, node, time | `Node`, `Move::Go`: x = first letter − `A`, the row letter counted **from the bottom** (`A` the bottom row), so y = size − 1 − (letter − `A`); a point off the board (`YA`) is a pass; node `0`: a `Setup` stone in the root (a handicap stone) |
//! | `[ReviewComment]` `.Comment,<n>` and the lines after it | `Comment` on node `n − 1` (as Sabaki reads it; node 0 is the root), given when that node's move is; a comment whose node never comes `bad_value` |
//! | `[Figure]`, `[ReviewNode]` (`NODE,<n>,<colour>,<x>,<y>`, the same moves again), `[ReviewComment]`'s own lines | nothing; another section `unknown_line` and its lines nothing |
//!
//! Review variations are not read: the corpus has none (its `[ReviewNode]` lists the main line
//! again), and no reader or page shows how a `.ugi` file records a branch.
//!
//! # Recovery (lenient mode: a warning, and reading goes on)
//! A line that is not `Key=value` in `[Header]` (`unknown_line`), a `[Data]` line with a colour
//! other than `B`/`W` (`bad_value`), a point that is not two letters or no node number
//! (`bad_point`), a node-0 stone after a move (`bad_value`) — the line is dropped; lines before
//! the first `[Header]` (`unknown_line`). The limits end the game with an error; strict mode
//! turns every warning into such an error.
//!
//! # Charsets
//! UGF declares `Lang=SJIS` even in ASCII files. A UTF-8 BOM makes every game UTF-8; otherwise
//! each game's charset is detected on its bytes by [`crate::text::detect_charset`].
//!
//! # Costs
//! Per game: one pass to frame it and find `[ReviewComment]`, its charset detected, then one
//! pass over its lines (and one over its comments). Nothing is allocated but an `Error`.
//!
//! ```
//! use kifu::{Event, InfoKey, Move, Point};
//!
//! let ugf = b"[Header]\nSize=19\nHdcp=0,-5.50\nWinner=B,7.50\nPlayerB=kaziwami,7d,,\n[Data]\nQP,B1,1,0\nYA,W1,2,0\n[ReviewComment]\n.Comment,2\nnice\n";
//! let events: Vec<_> = kifu::ugf::Reader::new(ugf).collect::<Result<_, _>>().unwrap();
//! let info = |k| events.iter().find_map(|e| match e { Event::Info(i) if i.key() == k => Some(i.value().to_string_lossy()), _ => None });
//! assert_eq!((info(InfoKey::Komi).unwrap(), info(InfoKey::Result).unwrap()), ("-5.50".into(), "B+7.5".into()));
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Go { point, .. }) => Some(*point), _ => None }).collect();
//! assert_eq!(moves, [Some(Point::new(16, 3)), None]);
//! assert!(events.iter().any(|e| matches!(e, Event::Comment(t) if t.raw() == b"nice")));
//! ```

mod reader;
pub mod split;

pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Ugf, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// The header keys every UGF file has (one of them makes the header UGF's).
const KEYS: [&[u8]; 6] = [b"Ver=", b"Size=", b"Hdcp=", b"PlayerB=", b"PlayerW=", b"Winner="];

/// Whether `head` (the first bytes of an input) is UGF: `Yes` when its first non-blank line is
/// `[Header]`, a line of the header starts with one of UGF's own keys (`Ver=`, `Size=`, `Hdcp=`,
/// `PlayerB=`, `PlayerW=`, `Winner=`), and a `[Data]` line follows (or the head ends inside the
/// header); else `No`. An INI file with other keys is not UGF.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let mut lines = head.split(|&c| c == b'\n').map(<[u8]>::trim_ascii).filter(|l| !l.is_empty());
    if !lines.next().is_some_and(reader::is_start) {
        return Confidence::No;
    }
    let mut known = false;
    for l in lines {
        if let Some(s) = reader::section(l) {
            return if known && s.eq_ignore_ascii_case(b"Data") { Confidence::Yes } else { Confidence::No };
        }
        known |= KEYS.iter().any(|k| l.starts_with(k));
    }
    if known && head.len() >= crate::format::SNIFF_LEN {
        Confidence::Yes
    } else {
        Confidence::No
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"[Header]\nVer=UGF3,200\nSize=19\n[Data]\nQP,B1,1,0\n"), Confidence::Yes);
        assert_eq!(sniff(b"\xEF\xBB\xBF\r\n[Header]\r\nHdcp=0,6.50\r\n\r\n[Data]\r\n"), Confidence::Yes);
        // An INI file, or a header without its data.
        assert_eq!(sniff(b"[Header]\nHdVer=1\n[Data]\nQD,B1,1,0\n"), Confidence::No);
        assert_eq!(sniff(b"[Header]\nSize=19\n"), Confidence::No);
        assert_eq!(sniff(b"; config\n[Header]\nSize=19\n[Data]\n"), Confidence::No);
        assert_eq!(sniff(b""), Confidence::No);
    }
}
