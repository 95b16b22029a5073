//! The text forms of a position to look for, shared by `kifu find --position Q`, `kifu explore
//! Q` and the Python `Index.find(position=…)`/`Index.explore`: [`parse_position`] tells them
//! apart and makes each a [`Position`]; reading a game's file is the caller's (the command reads
//! archive members, the Python binding files on disk).
//!
//! - `FILE[@OFFSET]#MOVE`: the position after move MOVE (0: the start) of the game at OFFSET
//!   of FILE (its first game without OFFSET), when FILE names a file;
//! - `moves:LIST` or a bare list: Go moves in SGF coordinates, Black first (`pd dp pp`, `pass`
//!   for a pass), or shogi moves in USI from the standard start (`7g7f 3c3d`)
//!   ([`Position::from_move_list`]);
//! - `sgf:SETUP` or anything with `[` or starting with `(`: SGF setup (`AB[pd][dp]AW[dd]`,
//!   `SZ[13]AB[cc]`) or a whole record (its final position: `(;SZ[13];B[cc];W[dd])`);
//! - `sfen:SFEN` or an SFEN (`lnsgkgsnl/1r5b1/… b - 1`, optionally with `moves …`).

use crate::{Error, Position};

/// Reads the position argument `q`; `size` is the board size of a bare Go move list.
///
/// `game(file, number)` is asked first when `q` has a `#`: `file` is the text before the last
/// `#` (`FILE` or `FILE@OFFSET`), `number` the move number after it (or why it is not one). It
/// answers `None` when `file` names no file (then `q` is read as the other forms), else the
/// position. The error says which form failed.
///
/// ```
/// let p = kifu_index::parse_position("moves:pd dp", 19, |_, _| None).unwrap();
/// assert_eq!(p, kifu_index::Position::from_go_moves("pd dp", 19).unwrap());
/// assert!(kifu_index::parse_position("sfen:nonsense", 19, |_, _| None).is_err());
/// ```
pub fn parse_position(
    q: &str,
    size: u8,
    game: impl FnOnce(&str, Result<u32, String>) -> Option<Result<Position, String>>,
) -> Result<Position, String> {
    let t = q.trim();
    if t.is_empty() {
        return Err("an empty position (the empty board is `sgf:SZ[19]`)".to_owned());
    }
    // `FILE#MOVE` whose FILE is not there: said if no other form reads `q` either.
    let mut no_file = None;
    let err = |e: Error, no_file: Option<&str>| match no_file {
        Some(f) => format!("{q}: no file `{f}` (FILE#MOVE), and not a position in another form ({e})"),
        None => format!("{q}: {e}"),
    };
    if let Some(m) = t.strip_prefix("moves:") {
        return Position::from_move_list(m, size).map_err(|e| err(e, None));
    }
    if let Some(s) = t.strip_prefix("sgf:") {
        return Position::from_sgf_setup(s).map_err(|e| err(e, None));
    }
    if let Some(s) = t.strip_prefix("sfen:") {
        return Position::from_sfen(s).map_err(|e| err(e, None));
    }
    if let Some((file, number)) = t.rsplit_once('#') {
        let n = number.parse().map_err(|_| format!("{q}: bad move number `{number}` after `#` (0, 1, 2…)"));
        if let Some(found) = game(file, n) {
            return found;
        }
        no_file = Some(file.split_once('@').map_or(file, |(f, _)| f));
    }
    if t.starts_with('(') || t.contains('[') {
        return Position::from_sgf_setup(t).map_err(|e| err(e, no_file));
    }
    if t.starts_with("sfen") || t.starts_with("position") || t.contains('/') {
        return Position::from_sfen(t).map_err(|e| err(e, no_file));
    }
    Position::from_move_list(t, size).map_err(|e| err(e, no_file))
}

impl Position {
    /// The position after a bare move list: Go moves in SGF coordinates (two letters, `pass`
    /// or `-` each; see [`Position::from_go_moves`]) on a `size` board, else shogi moves in USI
    /// from the standard start ([`Position::from_usi_moves`]).
    pub fn from_move_list(list: &str, size: u8) -> Result<Position, Error> {
        let go = list
            .split([' ', ',', ';', '\t', '\n'])
            .filter(|m| !m.is_empty())
            .all(|m| m == "pass" || m == "-" || (m.len() == 2 && m.bytes().all(|b| b.is_ascii_alphabetic())));
        if go {
            Position::from_go_moves(list, size)
        } else {
            Position::from_usi_moves(list)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each form is told apart; a file that is not there leaves `#` to the other forms, and a
    /// bad move number is only an error for a file that is.
    #[test]
    fn forms() {
        let go = Position::from_go_moves("pd dp", 19).unwrap();
        let none = |_: &str, _: Result<u32, String>| None;
        assert_eq!(parse_position("pd dp", 19, none).unwrap(), go);
        assert_eq!(parse_position("moves: pd,dp", 19, none).unwrap(), go);
        assert_eq!(parse_position("AB[pd]AW[dp]", 19, none).unwrap().hash, go.hash);
        assert_eq!(parse_position("sgf:(;B[pd];W[dp])", 19, none).unwrap(), go);
        let shogi = Position::from_usi_moves("7g7f").unwrap();
        assert_eq!(parse_position("7g7f", 19, none).unwrap(), shogi);
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        assert_eq!(parse_position(sfen, 19, none).unwrap().hash, shogi.hash);
        assert_eq!(parse_position(&format!("sfen:{sfen}"), 19, none).unwrap().hash, shogi.hash);
        // A file: the callback sees FILE[@OFFSET] and the number.
        let mut seen = None;
        let got = parse_position("a.sgf@12#3", 19, |f, n| {
            seen = Some((f.to_owned(), n.clone()));
            Some(Ok(go.clone()))
        });
        assert_eq!(got.unwrap(), go);
        assert_eq!(seen, Some(("a.sgf@12".to_owned(), Ok(3))));
        let bad = parse_position("a.sgf#x", 19, |_, n| Some(n.map(|_| go.clone())));
        assert!(bad.unwrap_err().contains("bad move number `x`"));
        assert!(parse_position("zz#x", 19, none).is_err());
    }

    /// A query that would be read as another position than the one written is refused, with
    /// why: a point off the board, a move on an occupied point, an illegal shogi move, an empty
    /// text, a `FILE#MOVE` whose file is not there.
    #[test]
    fn other_positions_are_refused() {
        let none = |_: &str, _: Result<u32, String>| None;
        for (q, why) in [
            ("zz", "point_off_board"),
            ("pd pd", "move 2 is illegal (occupied)"),
            ("AB[zz]", "point_off_board"),
            ("sgf:SZ[9]AB[kk]", "point_off_board"),
            ("7g7f 7g7f", "7g7f 7g7f"),
            ("7g7f 3c3d 2b3c+", "2b3c+"),
            ("sfen:garbage", "not a position"),
            ("", "an empty position"),
            ("none.sgf#3", "no file `none.sgf`"),
        ] {
            let e = parse_position(q, 19, none).unwrap_err();
            assert!(e.contains(why), "{q}: {e}");
        }
        // Legal ones, and a capture, still read.
        assert!(parse_position("pd dp pp dd", 19, none).is_ok());
        assert!(parse_position("ba aa ab", 9, none).is_ok());
        assert!(parse_position("7g7f 3c3d 8h2b+", 19, none).is_ok());
    }
}
