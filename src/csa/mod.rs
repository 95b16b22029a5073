//! CSA shogi records, V2.2 and V3.0: a zero-copy pull reader and typed parsers for its values.
//!
//! [`Reader`] reads a byte slice holding one game or several separated by `/` lines, and returns
//! one [`Event`](crate::Event) per call. The tokenizer (`lex`) cuts lines (LF, CR, CRLF) and
//! comma-joined statements with `memchr`; the reader maps each statement to events. Moves are
//! read as bytes (no UTF-8 validation); nothing is allocated after the file's charset is known.
//!
//! # Costs
//! A move (`+7776FU`), with a whole-second time on the next line or after a comma (`T12`,
//! `+7776FU,T12`), a time line alone, and a `'**` evaluation line are read in place by one hot
//! path: the move and the eight bytes after it as two words, the PV's line end sixteen bytes at
//! a time, no tokenizer call and no read-ahead (anything unusual falls back to the general path,
//! which gives the same events); the 40 pieces of `PI` are a table walk. Other lines cost one
//! search for the line end or a comma, whichever comes first (eight bytes at a time on short
//! lines, `memchr3` past 64 bytes); comments and names are never validated or decoded. Once per
//! file the header is looked at line by line before the first move, and an undeclared file's
//! UTF-8 check skips its ASCII ends 64 bytes at a time. [`Reader`] allocates only when it
//! creates an `Error`; charset detection of a file that is neither UTF-8 nor declared runs
//! chardetng once per file. `skip_game` is a `memchr` scan for the next `/` line.
//!
//! # Mapping
//! | CSA | events |
//! |---|---|
//! | start of a game | `GameStart { offset }` |
//! | `V2.2`, `V3.0` | `Info(FormatVersion)`, name `V`; in a V3.0 file, repeated for every game after a `/` |
//! | `'CSA encoding=X`, `'encoding=X` | `Info(Charset)` |
//! | `N+` / `N-` | `Info(BlackName)` / `Info(WhiteName)` |
//! | `$EVENT` `$SITE` `$START_TIME` `$END_TIME` `$OPENING` | `Info(Event / Place / Date / EndDate / Opening)` |
//! | `$TIME_LIMIT` `$TIME` `$TIME+` `$TIME-` | `Info(TimeLimit)` (typed: [`parse_time_limit`], [`parse_time`]) |
//! | `$MAX_MOVES` `$JISHOGI` `$NOTE` (rule [`TextRule::CsaNote`](crate::TextRule::CsaNote)), other keys | `Info(Other)`, name `$KEY` |
//! | `PI…` | `Setup::Shogi` for the 40 standard pieces, then `Setup::ShogiRemove` per removed piece |
//! | `P1`–`P9`, `P+`/`P-` (`00` = hand, `00AL`) | one `Setup::Shogi` per piece (hand pieces with `square: None`) |
//! | `+` / `-` | `Turn` |
//! | `+7776FU` | `Node`, `Move(Move::Shogi(..))` (piece as written; `from: None` for `00`) |
//! | `T12`, `T2.655` | `Clock { kind: ElapsedMs }` for the last move's side |
//! | `'*text` | `Comment` |
//! | `'** 113 -3334FU` | `Evaluation { score, pv }` ([`pv_moves`] reads the PV as CSA or USI moves) |
//! | `'text` | `Comment` after the first move; before it, `Property` named `'` (or `'*`) |
//! | `%TORYO` … | the `ending` of `GameEnd` (an unknown `%X`: `Property` named `%`, then `Ending::Other`) |
//! | `/` | `GameEnd` of this game; the next line starts the next game |
//!
//! Comments before the first move become `Property` events because the event order has no node
//! to attach a comment to before the first move (CSA has no root node). A `T` after a `%`
//! special gives a `Clock` for the side that made the special. Statements after `%` stay in the
//! game (comments, `T`, `$END_TIME`); moves after it are dropped with a warning.
//!
//! # Charsets
//! Fixed once per file before the first event: a UTF-8 BOM; else an `'CSA encoding=` or
//! `'encoding=` line before the first move; else, for a `V3.0` file, Shift_JIS (the V3.0
//! default) unless the bytes are valid UTF-8; else the detection rule of
//! [`detect_charset`](crate::text::detect_charset) over the file. Line ends and commas are never
//! trail bytes of Shift_JIS or EUC-JP, so the tokenizer does not step over two-byte characters.
//!
//! # Dialects (lenient mode: read, with a `CsaDialect` warning)
//! Board rows whose spaces were lost or collapsed; empty `P+`/`P-` lines; `'**評価値=N`;
//! `T=12` and `T1:30`; `$TIMET+:`; a first move glued onto the end of a comment line. A game
//! with moves but no start position gets the standard position (`MissingValue`); a missing turn
//! line is taken from the first move (`MissingValue`).
//!
//! # Splitting
//! [`chunks`] cuts a multi-game file into [`GameChunk`](crate::input::GameChunk)s with a `memchr`
//! scan; [`Reader::with_context`] reads one with the file's charset and V3.0 version line.
//!
//! # Writing
//! [`write::Writer`] writes events back as CSA (V2.2 or V3.0), streaming, main line only.
//!
//! # Errors
//! Binary data (`NotAGameRecord`) and limits end the game; reading resumes after the next `/`
//! line. Strict mode turns every warning into such an error.
//!
//! ```
//! use kifu::{Event, Move, Color, Square, Piece};
//!
//! let csa = b"V2.2\nN+Sente\nPI\n+\n+7776FU,T12\n-3334FU\nT6\n%TORYO\n";
//! let events: Vec<_> = kifu::csa::Reader::new(csa).collect::<Result<_, _>>().unwrap();
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Shogi(m)) => Some(*m), _ => None }).collect();
//! assert_eq!(moves[0].to, Square::new(7, 6));
//! assert_eq!(moves[1].color, Color::White);
//! assert!(matches!(events.last(), Some(Event::GameEnd { ending: Some(kifu::Ending::Resign), .. })));
//! ```

mod board;
pub mod check;
mod lex;
mod pv;
mod reader;
pub mod split;
mod time;
pub mod write;

pub use pv::{parse_evaluation, parse_move, parse_usi_move, pv_moves, PvMove, PvMoves, UsiMove};
pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner, CONTEXT_LEN};
pub use time::{
    parse_count, parse_date, parse_elapsed, parse_seconds_ms, parse_time, parse_time_limit, DateTime, TimeControl,
};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Csa, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file by
/// [`chunks`] or a splitter: the context's charset and `V3.0` header apply to it.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// Whether `head` (the first bytes of an input) looks like CSA, judged by its line starts, as a
/// CSA file is a list of statements each led by its command character.
///
/// A leading `'CSA encoding=` line is `Yes`. Otherwise the lines that are not blank or comments
/// are sorted into CSA statements (a version, `N+`/`N-`, a `$KEY:`, a position row, a turn, a
/// move, a time, a `%` special, `/`) and other lines, and the head must hold the frame of a
/// record (a version, a position row, a turn or a move line):
/// - the first such line is a statement: `Yes` when every line is one, `Maybe` when at most one
///   in five is not (a dialect the reader warns about), else `No`;
/// - up to `MAX_JUNK` (3) other lines come first (a header a tool added): `Maybe` when every
///   later line is a statement and they hold a version or a position row, else `No`.
///
/// So text that merely quotes CSA (a README line `P1–P9 plus …`, a markdown block after prose
/// and closed by its fence, `+7776FU` inside a sentence) is `No`. A last line without its end,
/// which may be cut by the head's length, is not judged; a run of `SURE_RUN` (16) statements from
/// the first line on, framing a record, answers `Yes` without reading further.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    if head.starts_with(b"'CSA encoding=") {
        return Confidence::Yes;
    }
    // The bytes up to the last line end; a head without one is a single (maybe cut) line.
    let whole = match memchr::memrchr2(b'\n', b'\r', head) {
        Some(e) => &head[..e],
        None => head,
    };
    let (mut junk, mut csa, mut other, mut frame) = (0usize, 0usize, 0usize, Frame::None);
    let mut rest = whole;
    while !rest.is_empty() {
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let line = time::trim(&rest[..end]);
        rest = rest.get(end + 1..).unwrap_or(&[]);
        if line.is_empty() || line[0] == b'\'' {
            continue;
        }
        match statement(line) {
            Some(f) => {
                csa += 1;
                frame = frame.max(f);
                // A clean run this long from the first line is a record: the rest need not be read.
                if junk == 0 && other == 0 && frame > Frame::None && csa >= SURE_RUN {
                    return Confidence::Yes;
                }
            }
            None if csa == 0 && junk < MAX_JUNK => junk += 1,
            None if csa == 0 => return Confidence::No,
            None => other += 1,
        }
    }
    match (junk, frame) {
        (_, Frame::None) => Confidence::No,
        (0, _) if other == 0 => Confidence::Yes,
        (0, _) if other * 4 <= csa => Confidence::Maybe,
        (1.., Frame::Start) if other == 0 => Confidence::Maybe,
        _ => Confidence::No,
    }
}

/// How many lines that are not CSA may come before the first statement (see [`sniff`]).
const MAX_JUNK: usize = 3;

/// How many statements in a row, from the first line on and framing a record, make the answer
/// `Yes` without reading the rest of the head.
const SURE_RUN: usize = 16;

/// How much of a record's frame a statement gives, least first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Frame {
    /// None: a name, a `$KEY:`, a time, a `%` special, `/`.
    None,
    /// A turn or a move line.
    Play,
    /// A version or a position row: the start of a record.
    Start,
}

/// The frame the first statement of a line (up to a `,`) gives, or `None` when it is no CSA
/// statement.
fn statement(line: &[u8]) -> Option<Frame> {
    let s = time::trim(line.split(|&c| c == b',').next().unwrap_or(line));
    let rest = s.get(2..).unwrap_or(&[]);
    let upper_or_digit = |r: &[u8]| r.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    let key = |r: &[u8]| r.iter().all(|c| c.is_ascii_uppercase() || matches!(c, b'_' | b'+' | b'-'));
    match s {
        [b'V', d, ..] if d.is_ascii_digit() => {
            s[1..].iter().all(|c| c.is_ascii_digit() || *c == b'.').then_some(Frame::Start)
        }
        [b'N', b'+' | b'-', ..] => Some(Frame::None),
        [b'$', ..] => memchr::memchr(b':', s).is_some_and(|i| i > 1 && key(&s[1..i])).then_some(Frame::None),
        [b'P', b'I' | b'+' | b'-', ..] => upper_or_digit(rest).then_some(Frame::Start),
        [b'P', b'1'..=b'9', ..] => rest
            .iter()
            .all(|c| c.is_ascii_uppercase() || matches!(c, b' ' | b'*' | b'+' | b'-'))
            .then_some(Frame::Start),
        [b'+' | b'-'] => Some(Frame::Play),
        [b'+' | b'-', ..] => parse_move(s).map(|_| Frame::Play),
        [b'T', ..] => {
            s[1..].iter().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b':' | b'=')).then_some(Frame::None)
        }
        [b'%', ..] => key(&s[1..]).then_some(Frame::None),
        [b'/'] => Some(Frame::None),
        _ => None,
    }
}
