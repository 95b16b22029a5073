//! The `position` argument of `Index.find` and `Index.explore`: the forms of `kifu find
//! --position Q` and `kifu explore Q` (kifu-cli's `position_arg.rs`), each made into a
//! [`kifu_index::Position`]:
//!
//! - `FILE[@OFFSET]#MOVE`: the position after move MOVE (0: the start) of the game at byte
//!   OFFSET of FILE (its first game without OFFSET); FILE is a file on disk (UTF-16 is
//!   transcoded; a member of an archive or a compressed file is not read here);
//! - `moves:LIST` or a bare list: Go moves in SGF coordinates, Black first (`pd dp pp`, `pass`),
//!   on a `size` board, or shogi moves in USI from the standard start (`7g7f 3c3d`);
//! - `sgf:SETUP` or anything with `[` or starting with `(`: SGF setup (`AB[pd][dp]AW[dd]`) or a
//!   whole record (its final position);
//! - `sfen:SFEN` or an SFEN (`lnsgkgsnl/1r5b1/… b - 1`, optionally with `moves …`).

use kifu_index::Position;
use std::path::Path;

/// Reads `q`; `size` is the board size of a bare Go move list. The error says which form failed.
pub fn parse(q: &str, size: u8) -> Result<Position, String> {
    let err = |e: kifu_index::Error| format!("{q}: {e}");
    let t = q.trim();
    if let Some(m) = t.strip_prefix("moves:") {
        return moves(m, size).map_err(err);
    }
    if let Some(s) = t.strip_prefix("sgf:") {
        return Position::from_sgf_setup(s).map_err(err);
    }
    if let Some(s) = t.strip_prefix("sfen:") {
        return Position::from_sfen(s).map_err(err);
    }
    if let Some((file, number)) = t.rsplit_once('#') {
        let (path, offset) = match file.rsplit_once('@') {
            Some((p, o)) if !p.is_empty() && o.bytes().all(|b| b.is_ascii_digit()) && !o.is_empty() => {
                (p, o.parse::<u64>().ok())
            }
            _ => (file, None),
        };
        if Path::new(path).is_file() {
            let number: u32 =
                number.parse().map_err(|_| format!("{q}: bad move number `{number}` after `#` (0, 1, 2…)"))?;
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let bytes = kifu::text::transcode_utf16(&bytes).unwrap_or(bytes);
            let offset = offset.unwrap_or(0);
            return Position::from_game(&bytes, offset, number).map_err(|e| format!("{path}@{offset}#{number}: {e}"));
        }
    }
    if t.starts_with('(') || t.contains('[') {
        return Position::from_sgf_setup(t).map_err(err);
    }
    if t.starts_with("sfen") || t.starts_with("position") || t.contains('/') {
        return Position::from_sfen(t).map_err(err);
    }
    moves(t, size).map_err(err)
}

/// A bare move list: Go (two letters or `pass` each) or USI.
fn moves(list: &str, size: u8) -> Result<Position, kifu_index::Error> {
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
