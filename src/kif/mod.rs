//! KIF shogi records (Kakinoki's format, `.kif` in CP932 and `.kifu` in UTF-8): a zero-copy pull
//! reader, its sniffer and its streaming splitter.
//!
//! [`Reader`] reads a byte slice holding one game or several written one after another, and
//! returns one [`Event`](crate::Event) per call. Each line is judged by its first characters
//! (`lex`); a game's layout (its end, its `変化` blocks and the line each branches from) is found
//! by one scan of its lines (`scan`) before its events are given, so that variations come where
//! they branch off, in tree order, though the file writes them after the main line.
//!
//! # Mapping
//! | KIF | events |
//! |---|---|
//! | start of a game | `GameStart { offset }` |
//! | `#KIF version=2.0 encoding=Shift_JIS` | `Info(FormatVersion)` named `version`, `Info(Charset)` named `encoding`; other `#` lines nothing |
//! | `先手：`/`下手：`, `後手：`/`上手：` | `Info(BlackName)`, `Info(WhiteName)` |
//! | `開始日時` `終了日時` `対局日` `棋戦` `戦型` `表題` `持ち時間` (`先手持ち時間`, `後手持ち時間`) `秒読み` `場所` `掲載` `出典` `備考` `記録係` `手合割` | `Info(Date / EndDate / Date / Event / Opening / GameName / TimeLimit / Overtime / Place / Source / Source / GameComment / Transcriber / Handicap)` |
//! | the other keys of the notes (`消費時間`, `先手省略名`, `作品名`, `作者`, `手数`, `最大手数`, `持将棋`, `手番`…) | `Info(Other)` with the key as name |
//! | any other `KEY：value` (`対局ID：…`) | `Property` named `KEY` |
//! | `手合割：平手` / `香落ち` … `十枚落ち` (no diagram) | `Setup::Shogi` for each piece of the standard position without the handicap's pieces, then `Turn` (White after a handicap) |
//! | a board diagram, `先手の持駒：…`, `後手番` | one `Setup::Shogi` per piece (hand pieces with `square: None`), then `Turn` before the first move |
//! | `   1 ７六歩(77)   ( 0:16/00:00:16)` | `Node`, `Move(Move::Shogi(..))` (the piece after the move: `成` promotes it; `打` is a drop, `from: None`; `同` is the previous move's square), `Clock { kind: ElapsedMs }` |
//! | `投了`, `中断`, `千日手`, `持将棋`, `切れ負け`, `反則勝ち`, `反則負け`, `入玉勝ち`, `詰み`, `不詰`… | the `ending` of `GameEnd` (`Resign`, `Interrupted`, `Repetition`, `Impasse`, `TimeUp`, `IllegalMove`, `IllegalActionBlack/White` for the side to move, `DeclareWin`, `Checkmate`, `NoCheckmate`), its time a `Clock`; an unknown word `Property` named by it and `Ending::Other`; in a variation, a `Property` named by the word |
//! | `*text` | `Comment` after the first move; before it, `Property` named `*` |
//! | `&text` (bookmark) | `Name`; before the first move, `Property` named `&` |
//! | `変化：N手` and its moves | `VariationStart(Sibling)` right after the move N it replaces (or `VariationStart(Child)` after move N - 1 when the line has no move N), its moves, `VariationEnd` |
//! | `まで…`, `手数----指手--`, the `+---+` and file-number lines of a diagram, a trailing `+` | nothing |
//!
//! # Charsets
//! Fixed once per file before the first event: a caller's, a UTF-8 BOM, a `#KIF … encoding=` line
//! among the first `#` lines (but a file declared UTF-8 that is not valid UTF-8, a CP932 copy that
//! kept the line, is CP932), else UTF-8 when the whole input is valid UTF-8, else CP932. Lines are
//! compared as bytes in that charset, character by character, so a Shift_JIS second byte that is
//! `\` or `|` never ends a token; text is decoded only on request.
//!
//! # Games
//! A header line (a key and value, a hand, a diagram line, a `#` line) after a game's moves starts
//! the next game. [`chunks`] and the streaming splitter cut by the same rule.
//!
//! # Recovery (lenient mode: a warning, and reading goes on)
//! A move line whose move cannot be read (`UnreadableMove`, skipped, its turn passing;
//! `Truncated` at the end of the input); a move number or time that does not fit, a second king
//! of one side in a diagram, a diagram row or hand that cannot be read (`BadValue`); a move (or
//! special move) after the special move that ended its line (`MoveAfterEnd`, skipped); a `変化`
//! block that fits no line (`Repaired`); an unknown line (`UnknownLine`); an unknown handicap
//! name without a diagram
//! (`UnknownKey`, the standard position is used). Binary data (`NotAGameRecord`) and the limits
//! (value size, game size, moves, variation depth) end the game with an error. Strict mode turns
//! every warning into such an error.
//!
//! # Costs
//! Two passes over a game's lines: the layout scan (a `memchr` for the line end and a look at the
//! first bytes) and the reading (a move line is read in place with a few byte comparisons). The
//! reader keeps its layout tables between games: nothing is allocated after the first game but
//! an `Error`.
//!
//! ```
//! use kifu::{Event, Move, Square, Piece};
//!
//! let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 投了\n";
//! let events: Vec<_> = kifu::kif::Reader::new(kif.as_bytes()).collect::<Result<_, _>>().unwrap();
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Shogi(m)) => Some(*m), _ => None }).collect();
//! assert_eq!((moves[0].from, moves[0].to, moves[0].piece), (Some(Square::new(7, 7)), Square::new(7, 6), Piece::Pawn));
//! assert!(matches!(events.last(), Some(Event::GameEnd { ending: Some(kifu::Ending::Resign), .. })));
//! ```

mod reader;
pub mod split;
pub mod write;

pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner, CONTEXT_LEN};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};
use crate::kit::kakinoki::charset::{self, Utf8};
use crate::kit::kakinoki::lex::{self, classify, Enc, Kind};
use crate::kit::kakinoki::{glyphs, moves, scan, sniff};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Kif, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file (the
/// context's charset applies to it).
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// Whether `head` (the first bytes of an input) looks like KIF, judged line by line.
///
/// A leading `#KIF` line is `Yes`. Otherwise each whole line (a last line cut by the head's length
/// is not judged) is sorted: KIF lines (a move that reads as one, a known special move, a known
/// header key, a hand, a diagram row or frame, the side to move, the column header, `変化`,
/// `まで`), neutral lines (blank, `#`, `*`, `&`, other `KEY：value` lines) and other lines. `Yes`
/// when at least two lines are KIF and none is other; `Maybe` when at least three are KIF and at
/// most one in four of those is other, or when two to seven are KIF, one of them a move line
/// that reads, and at most one in two of those is other (a short record with a stray line); else
/// `No`. A line opened by a side mark (`▲７六歩`) is KI2,
/// whose headers are KIF's: `No`. `SURE_RUN` (12) KIF lines, one of them a move line, with no
/// other line before them answer `Yes` without reading further.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    if head.starts_with(b"#KIF") {
        return Confidence::Yes;
    }
    let whole = match memchr::memrchr2(b'\n', b'\r', head) {
        Some(e) => &head[..e],
        None => return Confidence::No,
    };
    let enc = match charset::utf8(whole) {
        Utf8::Valid | Utf8::Cut => Enc::Utf8,
        Utf8::Invalid => Enc::Sjis,
    };
    let (mut kif, mut other, mut moves, mut read) = (0usize, 0usize, false, 0usize);
    let mut pos = 0;
    while pos < whole.len() {
        let (e, next) = lex::line_end(whole, pos);
        let line = &whole[pos..e];
        pos = next.max(pos + 1);
        // A line opened by a side mark (`▲７六歩　△３四歩`) is KI2, whose headers are KIF's.
        let i = lex::skip_spaces(line, 0, enc);
        if glyphs::MARKS.iter().any(|&w| lex::at(line, i, w, enc)) {
            return Confidence::No;
        }
        let kind = classify(line, enc);
        match judge(line, kind, enc) {
            Some(true) => {
                kif += 1;
                read += matches!(kind, Kind::Move { .. }) as usize;
            }
            Some(false) => other += 1,
            None => {}
        }
        moves |= matches!(kind, Kind::Move { real: true });
        // A clean run this long, with a KIF move line (KI2 has none), is a record: the rest of
        // the head need not be read.
        if kif >= SURE_RUN && other == 0 && moves {
            return Confidence::Yes;
        }
    }
    match (kif, other) {
        (2.., 0) => Confidence::Yes,
        (3.., o) if o * 4 <= kif => Confidence::Maybe,
        // A short record with a stray line (`   1 ７六歩(77)`, `   2 ３四歩(33)`, `foo`): a
        // numbered move line that reads is KIF's alone.
        (2..8, o) if read > 0 && o * 2 <= kif => Confidence::Maybe,
        _ => Confidence::No,
    }
}

/// How many KIF lines, with no other line among them, make [`sniff()`] sure.
const SURE_RUN: usize = 12;

/// Whether a line of kind `kind` is KIF (`Some(true)`), neutral (`None`) or other
/// (`Some(false)`), for [`sniff()`].
fn judge(line: &[u8], kind: Kind, enc: Enc) -> Option<bool> {
    match kind {
        Kind::Blank | Kind::Program | Kind::Comment | Kind::Bookmark => None,
        Kind::Move { .. } => Some(match moves::parse(line, enc).body {
            moves::Body::Move(_) => true,
            moves::Body::Special { known, .. } => known,
            moves::Body::Bad(_) => false,
        }),
        Kind::Variation => Some(scan::variation_ply(line, enc).is_some()),
        Kind::Summary => Some(true),
        Kind::Other => Some(false),
        Kind::Head => sniff::judge_head(line, enc),
    }
}
