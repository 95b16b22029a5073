//! Go game JSON (Gocaml's snapshot format): `players`, `board`, `config`.
//!
//! The format stores a position, not a game: the stones on the board, each with a counter
//! `cur_stones`, the stones each player captured (`prisoners`, with the counter of the capturing
//! move), the players' clocks, komi and the side to move. [`Reader`] turns it into one game:
//!
//! - `GameStart`, then `Info`: `BlackName`/`WhiteName` (`p1.id`/`p2.id`; p1 is Black),
//!   `BoardSize` (`board.size`), `Komi` (`config.komi`, raw: `6.500000` stays as written),
//!   `Info(Other)` for `config.byoyomi_period`; then the root `Node`.
//! - **The order that can be recovered**: the stones on the board sorted by `cur_stones` (a new
//!   stone gets 1 + the largest counter on the board; passes do not advance it), one `Node` and
//!   `Move` each. Equal counters (one real file) keep Black first. Passes (`{col: -1, row: -1,
//!   cur_stones: n}` in the *opponent's* prisoners) become pass moves after move `n`; when
//!   both players passed after the same move, the player who did not play move `n` passes
//!   first. Captures: each captured stone is a `Property` named `prisoners` whose value is the
//!   raw prisoner object, on the node of the capturing move (`cur_stones` = that move's counter).
//! - **What cannot be recovered**: when and where the captured stones were played (their counter
//!   was overwritten), and so which moves are missing between the counters; the stones'
//!   placement order is exact only for stones still on the board. Replaying the moves gives the
//!   stored position (captured stones were never placed); it is not the real game.
//! - The snapshot's state comes last, on the final node: `Turn` (`config.turn`: `"b"` is Black,
//!   anything else White), and each player's `Clock`s (`game_time` seconds → `TimeLeftMs`,
//!   `byoyomi` → `PeriodsLeft`).
//! - Malformed input never panics: a bad or missing counter (`BadValue`, the stone goes last), a
//!   point off the board (`PointOffBoard`, dropped), a size outside odd 3..=23 (`BadBoardSize`;
//!   sizes up to 52 are still used for points), an unknown key (`UnknownKey`, passed through as a
//!   `Property`), a missing section or player (`MissingValue`), a value of the wrong JSON type
//!   (`WrongType`).
//!
//! Costs: the document is read in one pass into buffers that the reader keeps (no allocation
//! after the first game of that size), then the stones are sorted. The JSON nesting is bounded by
//! the schema; anything deeper is skipped by the tokenizer without recursion.

mod reader;
pub mod write;

pub use reader::Reader;

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(
        crate::format::Format::GoJson,
        read,
        crate::json::Scanner::new(config, false),
        config,
    ))
}

/// The reader the registry opens on one input (the JSON dialect that the mode gives, as
/// [`Reader::with_config`]); a JSON input has no chunk context.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, _context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config)
}

/// Whether `head` looks like a Go game JSON snapshot: an object with `"players"`, `"board"` and
/// `"cur_stones"` or `"config"`.
pub fn sniff(head: &[u8]) -> Confidence {
    let h = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let p = h.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(h.len());
    if h.get(p) != Some(&b'{') {
        return Confidence::No;
    }
    // Each key's finder is built once: building one per search cost more than the search.
    use memchr::memmem::Finder;
    static FINDERS: std::sync::OnceLock<[Finder<'static>; 4]> = std::sync::OnceLock::new();
    let [players, board, prisoners, cur_stones] = FINDERS.get_or_init(|| {
        [b"\"players\"".as_slice(), b"\"board\"", b"\"prisoners\"", b"\"cur_stones\""].map(Finder::new)
    });
    let has = |f: &Finder<'_>| f.find(h).is_some();
    if has(players) && has(board) && (has(prisoners) || has(cur_stones)) {
        Confidence::Yes
    } else {
        Confidence::No
    }
}
