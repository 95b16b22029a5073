//! KI2 shogi records (Kakinoki's short notation, `.ki2` in CP932 and `.ki2u` in UTF-8): a
//! zero-copy pull reader, its sniffer, its streaming splitter and a streaming writer
//! ([`write`](mod@write)).
//!
//! KI2 has KIF's headers, board diagrams, comments and `変化` blocks (the shared line grammar is
//! the core's `kit::kakinoki`), but writes its moves as in print: several to a line, each after
//! a side mark, without move numbers, times or origin squares (`▲７六歩    △３四歩    ▲同　角成`).
//! The reader keeps the board of each line of play and finds each move's origin on it.
//!
//! # Mapping
//! | KI2 | events |
//! |---|---|
//! | the headers, diagrams, hands, `手合割`, `*` comments, `&` bookmarks, `#KIF`/`#KI2` lines | as KIF reads them (see [`crate::kif`]) |
//! | `▲７六歩`, `△同　銀`, `▲５八金左`, `△２二角成`, `▲１二香不成`, `▲５五角打` (a KIF-style origin after it, `▲５八金(69)`, names the piece when that piece can make the move, and is otherwise a slip, `BadValue`, the board deciding; before 2026-11-29 it was passed over) | `Node`, `Move(Move::Shogi(..))`: the piece after the move (`成` promotes it), `from` the square of the one piece of that kind of the side to move that can move there (sliders blocked), picked by the words `右 左 直 上 寄 引` (`行`, `入` read as `上`); `打` or no piece that can move while the hand holds one: a drop, `from: None`; `同` is the previous move's square |
//! | `まで3手で先手の勝ち`, `…時間切れにより…の勝ち`, `…の反則勝ち`, `…先手の反則負け`, `…の入玉勝ち`, `…で中断`, `…で千日手`, `…で持将棋`, `…詰`/`詰み`, `…不詰`, `…封じ手` | the `ending` of `GameEnd` (`Resign`, `TimeUp`, `IllegalMove`, `IllegalActionBlack/White` for the side named, `DeclareWin`, `Interrupted`, `Repetition`, `Impasse`, `Checkmate`, `NoCheckmate`, `Interrupted`); in a variation, a `Property` named by KIF's special move word (`投了` for a win, else the word of the line) |
//! | a special move written like a move (`▲投了`) | as KIF's special move line, the side to move's (see below) |
//! | `７六歩`, `同　銀` (a move without its side mark, as tsshogi reads it) | the side to move's move, `MissingValue` after it (see below) |
//! | `変化：N手` and its moves | as in KIF: `VariationStart(Sibling)` right after the move N it replaces (`Child` after move N - 1 when the line has no move N), its moves, `VariationEnd` |
//!
//! # Moves that do not resolve
//! When the direction words leave several pieces, those whose move would leave the own king in
//! check are dropped. No piece left: a `NoPieceCanMove` warning and the move is skipped, but its
//! turn passes (the next move is read for the other side, `同` names its square; `kifu stats
//! --replay` counts the warning as an illegal move); several:
//! an `AmbiguousMove` warning after the move, made by the first of them (files order). `成` on a
//! piece that cannot promote, a drop onto a piece or of a piece that cannot be dropped:
//! `BadValue` after the move. Strict mode turns each into an error that ends the game.
//!
//! # Marks naming the side not to move
//! A move the side to move can make is read as its move, the mark a slip: `BadValue` after the
//! move. Otherwise the mark wins: the move is read as the marked side's, with a `WrongSide`
//! warning after it, and the side to move follows the marks from there on (a record missing a
//! move, or with a wrong mark, gives one warning, not one per later move). A variation starts
//! with the side to move its line had before the move it replaces. A special move (`▲投了`)
//! any side can make: its mark naming the other side is a slip, `BadValue` after it, and the
//! special stays the side to move's (the side `GameEnd` says ended the game). See [`Reader`]
//! for the whole rule.
//!
//! # Tokens without a mark
//! A move written without its mark (`７六歩`, `同　銀左`: a destination or `同`, a piece, its
//! words, then white space, a mark or the line's end) is read as the side to move's move, with a
//! `MissingValue` warning after it at its first byte (when the side to move cannot make it:
//! skipped with its `NoPieceCanMove` alone, and its turn passes); a line that starts with one
//! is a line of moves. Other text where a token would start (after a move, `▲７六歩 (好手)`) is
//! skipped with one `Repaired` warning at its first byte, up to the next mark or the next move
//! without a mark after white space. Header, comment (`*`), `変化`, `まで` and diagram lines
//! (`  ９ ８ ７…`) never read as moves. A move or special move after the special move that ended
//! its line is skipped with a `MoveAfterEnd` warning.
//!
//! # Charsets, games, recovery, costs
//! As KIF's: the charset is fixed once per file (a caller's, a BOM, a `#… encoding=` line, else
//! UTF-8 when valid, else CP932); a header line after a game's moves starts the next game;
//! a token that cannot be read is a `BadValue` warning (reading goes on at the next side mark,
//! or the next move without a mark after white space).
//! A move costs a look back from its destination along each way the piece moves: the reader
//! allocates nothing after the first game but an `Error`.
//!
//! ```
//! use kifu::{Event, Move, Square, Piece};
//!
//! let ki2 = "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で先手の勝ち\n";
//! let events: Vec<_> = kifu::ki2::Reader::new(ki2.as_bytes()).collect::<Result<_, _>>().unwrap();
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Shogi(m)) => Some(*m), _ => None }).collect();
//! assert_eq!((moves[2].from, moves[2].to, moves[2].piece), (Some(Square::new(8, 8)), Square::new(2, 2), Piece::Horse));
//! assert_eq!(moves[3].from, Some(Square::new(3, 1)));
//! assert!(matches!(events.last(), Some(Event::GameEnd { ending: Some(kifu::Ending::Resign), .. })));
//! ```

mod reader;
pub mod split;
mod token;
pub mod write;

pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner, CONTEXT_LEN};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};
use crate::kit::kakinoki::charset::{self, Utf8};
use crate::kit::kakinoki::lex::{self, Enc, Kind};
use crate::kit::kakinoki::{moves, scan, sniff as head};
use token::Token;

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Ki2, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file (the
/// context's charset applies to it).
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// Whether `head` (the first bytes of an input) looks like KI2, judged line by line.
///
/// A leading `#KI2` line is `Yes`. Otherwise each whole line (a last line cut by the head's
/// length is not judged, unless the head holds no line end) is sorted: KI2 lines (a line of
/// moves whose first token reads as one, a known header key, a hand, a diagram row or frame, the
/// side to move, `変化`, `まで`), neutral lines (blank, `#`, `*`, `&`, other `KEY：value` lines)
/// and other lines. A KIF move line (`1 ７六歩(77)`) or KIF's column header
/// (`手数----指手--`) is `No` at once: those are KIF's. `Yes` when a line of moves is among
/// them and no line is other; `Maybe` when one is and at most one in four of the KI2 lines is
/// other (one in two while fewer than eight lines are KI2: a short record with a stray line);
/// else `No`.
pub fn sniff(head: &[u8]) -> Confidence {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    if head.starts_with(b"#KI2") {
        return Confidence::Yes;
    }
    let whole = match memchr::memrchr2(b'\n', b'\r', head) {
        Some(e) => &head[..e],
        None => head,
    };
    let enc = match charset::utf8(whole) {
        Utf8::Valid | Utf8::Cut => Enc::Utf8,
        Utf8::Invalid => Enc::Sjis,
    };
    let (mut ki2, mut other, mut moves) = (0usize, 0usize, false);
    let mut pos = 0;
    while pos < whole.len() {
        let (e, next) = lex::line_end(whole, pos);
        let line = &whole[pos..e];
        pos = next.max(pos + 1);
        let judged = match token::classify(line, enc) {
            Kind::Blank | Kind::Program | Kind::Comment | Kind::Bookmark => None,
            Kind::Move { .. } => {
                let i = lex::skip_spaces(line, 0, enc);
                let ok = match token::token(line, i, enc).0 {
                    // A move without its mark is a KI2 line, but only a marked move (or
                    // special) makes the head KI2's.
                    Token::Move(w) => {
                        moves |= w.color.is_some();
                        true
                    }
                    Token::Special { known, .. } => {
                        moves |= known;
                        known
                    }
                    Token::Bad(_) | Token::Text => false,
                };
                Some(ok)
            }
            Kind::Variation => Some(scan::variation_ply(line, enc).is_some()),
            Kind::Summary => Some(true),
            Kind::Head => {
                let i = lex::skip_spaces(line, 0, enc);
                if lex::at(line, i, crate::kit::kakinoki::glyphs::MOVES_HEADER, enc)
                    && line.get(i + lex::len(crate::kit::kakinoki::glyphs::MOVES_HEADER, enc)) == Some(&b'-')
                {
                    return Confidence::No;
                }
                head::judge_head(line, enc)
            }
            Kind::Other => {
                // A KIF move line that reads as one (`1 ７六歩(77)`): KIF's. (A number alone,
                // `2024`, is a KIF line that does not read: other.)
                if matches!(lex::classify(line, enc), Kind::Move { real: true })
                    && matches!(moves::parse(line, enc).body, moves::Body::Move(_))
                {
                    return Confidence::No;
                }
                Some(false)
            }
        };
        match judged {
            Some(true) => ki2 += 1,
            Some(false) => other += 1,
            None => {}
        }
    }
    match (moves, other) {
        (true, 0) => Confidence::Yes,
        // At most one other line in four KI2 lines; in a short head (a header, a stray line, a
        // line of moves), one in two.
        (true, o) if o * 4 <= ki2 || (ki2 < 8 && o * 2 <= ki2) => Confidence::Maybe,
        _ => Confidence::No,
    }
}
