//! JKF shogi records (json-kifu-format, the JSON of Kifu for JS; also written by tsshogi and
//! ShogiHome): a reader on the shared JSON tokenizer, its sniffer, its splitter and a writer.
//!
//! # Mapping
//! | JKF | events |
//! |---|---|
//! | a document `{…}` | `GameStart { offset }` … `GameEnd { length, ending }` |
//! | `header` `{"先手": "…", …}` | one `Info` per key, named by it: `先手`/`下手` `BlackName`, `後手`/`上手` `WhiteName`, `開始日時` `Date`, `終了日時` `EndDate`, `棋戦` `Event`, `場所` `Place`, `表題` `GameName`, `戦型` `Opening`, `持ち時間` `TimeLimit`, `秒読み` `Overtime`, `手合割` `Handicap`, `備考` `GameComment`; any other key `Info(Other)` (JKF's header keys are free strings, so every one is game information) |
//! | `initial` missing, `null`, or `{"preset": "HIRATE"}` … `"10"` | one `Setup::Shogi` per piece of the standard position without the preset's pieces (rank 1 to 9, file 9 to 1), then `Turn` (Black for `HIRATE`, White for a handicap) |
//! | `{"preset": "OTHER", "data": {color, board, hands}}` | one `Setup::Shogi` per piece of `board[x-1][y-1]` (same order), one per piece in `hands` (`square: None`, Black's hand first), then `Turn(color)` |
//! | `moves[0]` | its `comments` are `Comment`s of the root (the start position) |
//! | `moves[n]` with `move` | `Node`, `Move(Move::Shogi)` (the piece after the move: `piece` promoted when `promote` is true; no `from` is a drop; `same` with no `to` is the previous move's square), `Clock { kind: ElapsedMs }` from `time.now`, a `Comment` per string of `comments` |
//! | `moves[n]` with `special` (`TORYO`, `CHUDAN`, `SENNICHITE`, `TIME_UP`, `ILLEGAL_MOVE`, `+ILLEGAL_ACTION`, `-ILLEGAL_ACTION`, `JISHOGI`, `KACHI`, `HIKIWAKE`, `MATTA`, `TSUMI`, `FUZUMI`, `ERROR`, and CSA's `OUTE_SENNICHITE`, `MAX_MOVES`) | on the main line, the `ending` of `GameEnd`; in a fork, a `Property` named `special`; its `time` a `Clock` of the side to move and its `comments` `Comment`s, both on the last node |
//! | `forks: [[…], […]]` on `moves[n]` | after move n's events, per fork `VariationStart(Sibling)` (the fork's first move replaces move n), its moves, `VariationEnd` |
//!
//! `time.total` is not read: it is the sum of the `now` times of one side along the line, which
//! the writer computes again. `relative` (`L`, `C`, `R`, `U`, `M`, `D`, `H`) and `capture` are
//! checked for their type and not read: the move says the same with the position.
//!
//! # Order
//! Events come in the order above whatever the order of the keys: a document whose `moves` come
//! before its `header` or `initial` is read in two passes (the moves are skipped, then read
//! again from their offset), and the fields of a move object are put in event order when the
//! object ends. Only `forks` must follow the other keys of its object (every writer puts it
//! last): a field after it still belongs to the move (the current node after `VariationEnd` is
//! the move's node again), but a `move` after it is `Repaired` and dropped.
//!
//! # Recovery (lenient mode: a warning, and reading goes on)
//! A value of the wrong JSON type (`WrongType`, skipped), an unknown key (`UnknownKey`: at the
//! top a `Property` with its raw value, elsewhere skipped), a missing `header`, `moves`, `to`,
//! `color` or `piece` (`MissingValue`, the move dropped), a bad number, square, piece, preset,
//! hand count or special (`BadValue` or `UnknownKey`), a move after a special move of the main
//! line (`MoveAfterEnd`; the move is read). Forks nested deeper than [`Limits::max_depth`](crate::Limits) and the other
//! limits end the game with an error, as do JSON syntax errors; strict mode turns every warning
//! into an error. Forks are read with an explicit stack, never by recursion.
//!
//! # Costs
//! One pass over the document's tokens into an event buffer that the reader keeps (the second
//! pass only for the moves of a document that writes them first): no allocation after the first
//! game but the growth of that buffer and of the fork stack.
//!
//! ```
//! use kifu::{Event, Move, Piece, Square};
//! let jkf = r#"{"header":{"先手":"A"},"moves":[{},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"special":"TORYO"}]}"#;
//! let events: Vec<_> = kifu::jkf::Reader::new(jkf.as_bytes()).collect::<Result<_, _>>().unwrap();
//! let m = events.iter().find_map(|e| match e { Event::Move(Move::Shogi(m)) => Some(*m), _ => None }).unwrap();
//! assert_eq!((m.from, m.to, m.piece), (Some(Square::new(7, 7)), Square::new(7, 6), Piece::Pawn));
//! assert!(matches!(events.last(), Some(Event::GameEnd { ending: Some(kifu::Ending::Resign), .. })));
//! ```

mod reader;
mod tables;
pub mod write;

pub use reader::Reader;

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole documents out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(
        crate::format::Format::Jkf,
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

/// Whether `head` looks like JKF: `Yes` for an object (after white space and a BOM) with a
/// `"moves"` key and a `"header"` key (both required by the schema); `Maybe` for one with
/// `"moves"` and a JKF move (`"move":{` and `"piece"`) or an `initial` preset but no header.
/// JGF (`"tree"`, `"record"`) and Go game JSON (`"players"`) are never JKF.
pub fn sniff(head: &[u8]) -> Confidence {
    let h = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let p = h.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(h.len());
    if h.get(p) != Some(&b'{') {
        return Confidence::No;
    }
    let has = |s: &[u8]| memchr::memmem::find(h, s).is_some();
    if has(b"\"tree\"") || has(b"\"record\"") || has(b"\"players\"") || !has(b"\"moves\"") {
        return Confidence::No;
    }
    let jkf_move = (has(b"\"move\":{") || has(b"\"move\": {")) && has(b"\"piece\"");
    let preset = has(b"\"preset\"");
    if has(b"\"header\"") {
        Confidence::Yes
    } else if jkf_move || preset {
        Confidence::Maybe
    } else {
        Confidence::No
    }
}
