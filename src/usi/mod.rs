//! USI records (`position` lines of the Universal Shogi Interface, stored one game per line in
//! `.usi`/`.sfen` files): a zero-copy pull reader, its sniffer and its streaming splitter.
//!
//! [`Reader`] reads a byte slice of lines; a line whose first token is `position`, `startpos`,
//! `sfen` or `moves` is a game, read token by token. USI moves name only squares, so the reader
//! keeps a small board (and the hands) to give the piece each move leaves on its square.
//!
//! # Mapping
//! | USI | events |
//! |---|---|
//! | a game line | `GameStart { offset }` … `GameEnd { length, ending }` (`length` includes the line end) |
//! | `position startpos`, `startpos`, a bare `moves …` | `Setup::Shogi` for each piece of the standard position (rank 1 first, file 9 first), `Turn(Black)` |
//! | `position sfen <board> <side> <hand> [<n>]`, `sfen …` | `Setup::Shogi` for each piece on the board in the same order, then each piece in hand (`square: None`; Black's first, by rook, bishop, gold, silver, knight, lance, pawn), then `Turn`; the move number gives nothing |
//! | `moves` | nothing |
//! | `7g7f`, `8h2b+` | `Node`, `Move(Move::Shogi(..))` with the piece on the destination after the move |
//! | `P*5e` | `Node`, `Move(Move::Shogi(..))` with `from: None` |
//! | `resign`, `win`, `draw`, `rep_draw`, `timeout`, `break` | the `ending` of `GameEnd` (`Resign`, `DeclareWin`, `Draw`, `Repetition`, `TimeUp`, `Interrupted`) |
//!
//! # Recovery (lenient mode: a warning, and reading goes on)
//! A non-blank line that is not a game (`UnknownLine`; blank lines give nothing); a move token
//! that cannot be read: `BadValue`; a move that reads but cannot be played on the board the
//! reader keeps (no piece of the side to move on its square, a move to its own square, a
//! promotion of a piece that cannot promote, a capture of one's own piece or a king, a drop on
//! an occupied square or of a piece not in hand): `IllegalMove`, the name `kifu check --replay`
//! gives the illegal moves it finds in other formats (the move is not given: USI does not name
//! its piece); after either, the rest of the line is dropped (for `IllegalMove`,
//! [`illegal_move_message`] says how many moves that is, and the strict error's message says it
//! too); tokens after a terminal word (one `MoveAfterEnd` at the first, the rest of the line
//! dropped). A start that
//! cannot be read (`position` without `startpos`/`sfen`, a bad SFEN) ends the game with a
//! `Syntax` error at the byte that does not fit; a line between games that is not a game (binary or not) is an `unknown_line` warning; the limits
//! (game size, moves) end the game with an error. Strict mode turns every warning into such an
//! error.
//!
//! # Costs
//! One pass over each line: a `memchr` for its end, then token by token. A move token followed
//! by one space or the line's end (nearly all of them) is read from six bytes at once: one
//! shape test (`+` or a space after four bytes), each square by two 256-entry tables and one
//! comparison, the drop letter, the promotion and the square of the event by table, then
//! checked and played on the 81-square board (about 90 instructions a move, 24 a byte on
//! `usi/`); anything else goes through the general token reader, which gives the same events.
//! The standard position written as an SFEN is copied, not read; the setup events come from a
//! bit set of the occupied cells. Nothing is allocated but an `Error`.
//!
//! ```
//! use kifu::{Event, Move, Piece, Square};
//!
//! let usi = b"position startpos moves 7g7f 3c3d 8h2b+ resign\n";
//! let events: Vec<_> = kifu::usi::Reader::new(usi).collect::<Result<_, _>>().unwrap();
//! let moves: Vec<_> = events.iter().filter_map(|e| match e { Event::Move(Move::Shogi(m)) => Some(*m), _ => None }).collect();
//! assert_eq!((moves[2].from, moves[2].to, moves[2].piece), (Some(Square::new(8, 8)), Square::new(2, 2), Piece::Horse));
//! assert!(matches!(events.last(), Some(Event::GameEnd { ending: Some(kifu::Ending::Resign), .. })));
//! ```

mod reader;
mod sfen;
pub mod split;
pub mod write;

pub use reader::Reader;
pub use split::{chunks, Chunks, Scanner};

use crate::format::Confidence;
use crate::input::{ChunkContext, Config};

/// The streaming splitter the registry gives for this format: whole games out of any
/// `io::Read`, memory bounded by the largest game (see [`crate::split`]).
pub(crate) fn splitter<'r>(read: Box<dyn std::io::Read + 'r>, config: Config) -> Box<dyn crate::split::Splitter + 'r> {
    Box::new(crate::split::Streaming::new(crate::format::Format::Usi, read, Scanner::new(config), config))
}

/// The reader the registry opens on one input, or on one game cut from a larger file.
pub(crate) fn open<'a>(input: &'a [u8], config: Config, context: ChunkContext<'a>) -> Reader<'a> {
    Reader::with_config(input, config).with_context(context)
}

/// The message of the reader's `illegal_move` warning (or of the strict error it becomes) at
/// byte `offset` of `input`, the refused move's first byte: the kind's message, saying what the
/// reader left unread after the move, the moves of the rest of its line and the terminal word
/// (`resign`…) if one follows them:
///
/// ```
/// let usi = b"position startpos moves 7g7f 7g7f 3c3d 8h2b+ resign\n";
/// assert_eq!(
///     kifu::usi::illegal_move_message(usi, 29),
///     "a move that cannot be played in the position (skipped, and the 2 moves after it and `resign`, not read)"
/// );
/// assert_eq!(
///     kifu::usi::illegal_move_message(b"position startpos moves 7g7f 7g7f", 29),
///     "a move that cannot be played in the position (skipped, with nothing after it)"
/// );
/// ```
///
/// Every token after the refused one and before a terminal word counts as a move (one that
/// does not read is unread all the same). An `offset` outside `input` gives the second form.
pub fn illegal_move_message(input: &[u8], offset: u64) -> String {
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(input.len());
    let line = &input[start..];
    let line = &line[..memchr::memchr2(b'\n', b'\r', line).unwrap_or(line.len())];
    // The refused move's token is the first; the rest are what the reader dropped.
    let mut tokens = line.split(|&b| b == b' ' || b == b'\t').filter(|t| !t.is_empty()).skip(1);
    let (mut moves, mut end) = (0usize, None);
    for t in tokens.by_ref() {
        if reader::special(t).is_some() {
            end = Some(t);
            break;
        }
        moves += 1;
    }
    let moves = match moves {
        0 => String::new(),
        1 => "the move after it".to_owned(),
        n => format!("the {n} moves after it"),
    };
    let unread = match (moves.is_empty(), end) {
        (true, None) => return format!("{BASE_MESSAGE} (skipped, with nothing after it)"),
        (false, None) => moves,
        (true, Some(w)) => format!("`{}` after it", String::from_utf8_lossy(w)),
        (false, Some(w)) => format!("{moves} and `{}`", String::from_utf8_lossy(w)),
    };
    format!("{BASE_MESSAGE} (skipped, and {unread}, not read)")
}

/// [`illegal_move_message`]'s words before its parenthesis.
const BASE_MESSAGE: &str = "a move that cannot be played in the position";

/// Whether `head` (the first bytes of an input) is USI, judged on its first non-blank line:
/// `Yes` when it starts with `position startpos`, `position sfen ` or `sfen `, its SFEN reads,
/// and every further token is `moves` (right after the start), a move or a terminal word (a
/// token cut by the head's end is not judged; after 24 valid tokens the rest is not read).
/// `Maybe` when it opens with one of those starts or with `startpos ` (tsshogi's shorthand) but
/// does not read to its end, and the rest shows it is USI all the same: an SFEN that reads, or
/// a later token that is `moves` or a move (`position startpos moves 7g7f 7g7x`): such a line
/// reads with the reader's warning (or error), as it would after a first line that reads.
/// Else `No` (prose that only begins with the words, `position startpos is where…`).
pub fn sniff(head: &[u8]) -> Confidence {
    let mut head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let (line, cut) = loop {
        match memchr::memchr(b'\n', head) {
            Some(e) => {
                let line = head[..e].strip_suffix(b"\r").unwrap_or(&head[..e]);
                if !reader::is_blank(line) {
                    break (line, false);
                }
                head = &head[e + 1..];
            }
            None => break (head, true),
        }
    };
    if valid_line(line, cut) {
        Confidence::Yes
    } else if opens_like_usi(line) {
        Confidence::Maybe
    } else {
        Confidence::No
    }
}

/// Whether a line is a USI game for [`sniff`] (`cut`: its last token may be unfinished).
fn valid_line(line: &[u8], cut: bool) -> bool {
    let mut i = if let Some(rest) = line.strip_prefix(b"position startpos") {
        if !rest.is_empty() && rest[0] != b' ' {
            return false;
        }
        17
    } else {
        let s = if line.starts_with(b"position sfen ") {
            14
        } else if line.starts_with(b"sfen ") {
            5
        } else {
            return false;
        };
        let mut board = sfen::Board::empty();
        match sfen::parse(line, s, &mut board) {
            Ok(j) => j,
            Err(_) => return false,
        }
    };
    let (mut first, mut valid) = (true, 0);
    while i < line.len() {
        // Single spaces between tokens, as every writer puts them.
        if line[i] != b' ' {
            return false;
        }
        i += 1;
        let n = memchr::memchr(b' ', &line[i..]).unwrap_or(line.len() - i);
        let t = &line[i..i + n];
        i += n;
        let last = i >= line.len();
        let ok = (first && t == b"moves") || sfen::token(t).is_some() || reader::special(t).is_some();
        if !(ok || (last && cut)) {
            return false;
        }
        first = false;
        valid += 1;
        if valid >= SURE_TOKENS {
            return true;
        }
    }
    true
}

/// Whether a line that [`valid_line`] refuses still opens as a USI game for [`sniff`]'s `Maybe`:
/// a start (`position startpos`, `startpos`, `position sfen `, `sfen `) followed by an SFEN that
/// reads, or by a token, anywhere on the line, that is `moves` or a move.
fn opens_like_usi(line: &[u8]) -> bool {
    let rest = line.strip_prefix(b"position ").unwrap_or(line);
    let after = if let Some(r) = rest.strip_prefix(b"startpos") {
        if !(r.is_empty() || r[0] == b' ') {
            return false;
        }
        r
    } else if let Some(r) = rest.strip_prefix(b"sfen ") {
        let mut board = sfen::Board::empty();
        if sfen::parse(line, line.len() - r.len(), &mut board).is_ok() {
            return true;
        }
        r
    } else {
        return false;
    };
    after.split(|&c| c == b' ').any(|t| t == b"moves" || sfen::token(t).is_some())
}

/// How many valid tokens after the start make [`sniff`] sure without reading further.
const SURE_TOKENS: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"position startpos moves 7g7f 3c3d\n"), Confidence::Yes);
        assert_eq!(sniff(b"position startpos\n"), Confidence::Yes);
        assert_eq!(sniff(b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n"), Confidence::Yes);
        assert_eq!(sniff(b"sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1"), Confidence::Yes);
        assert_eq!(sniff(b"position startpos moves 7g7f 3c3"), Confidence::Yes);
        assert_eq!(sniff(b"position startpos is where a game begins.\n"), Confidence::No);
        assert_eq!(sniff(b"sfen is a notation\n"), Confidence::No);
        assert_eq!(sniff(b"position startposition\n"), Confidence::No);
        assert_eq!(sniff(b""), Confidence::No);
        // The first non-blank line is judged.
        assert_eq!(sniff(b"\n  \r\nposition startpos moves 7g7f\n"), Confidence::Yes);
        assert_eq!(sniff(b"\n\n"), Confidence::No);
        // A USI start whose rest does not read: USI all the same, read with a warning.
        assert_eq!(sniff(b"position startpos moves 7g7f 7g7x\n"), Confidence::Maybe);
        assert_eq!(sniff(b"position startpos moves 7g7f 7g7f 3c3d\n"), Confidence::Yes);
        assert_eq!(sniff(b"position startpos moves 7g7f hello\n"), Confidence::Maybe);
        assert_eq!(sniff(b"position startpos junk 7g7f\n"), Confidence::Maybe);
        assert_eq!(sniff(b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 mvoes G*5b\n"), Confidence::Maybe);
        assert_eq!(sniff(b"position sfen 4k4/9/9/9/9/9/9/9/4KX b - 1 moves 5i5h\n"), Confidence::Maybe);
        assert_eq!(sniff(b"sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 junk\n"), Confidence::Maybe);
        assert_eq!(sniff(b"startpos moves 7g7f\n"), Confidence::Maybe);
        assert_eq!(sniff(b"\xEF\xBB\xBFstartpos moves 7g7f\n"), Confidence::Maybe);
        // Prose that begins with the words stays out.
        assert_eq!(sniff(b"position sfen garbage\n"), Confidence::No);
        assert_eq!(sniff(b"startpos is the standard start\n"), Confidence::No);
        assert_eq!(sniff(b"position of the stones\n"), Confidence::No);
    }
}
