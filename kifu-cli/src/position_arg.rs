//! The position argument of `kifu find --position Q` and `kifu explore Q`: which forms Q takes
//! and how each becomes a [`kifu_index::Position`].
//!
//! - `FILE[@OFFSET]#MOVE`: the position after move MOVE (0: the start) of the game at OFFSET
//!   of FILE (its first game without OFFSET); FILE may be an archive member (`a.zip!b.sgf`);
//! - `moves:LIST` or a bare list: Go moves in SGF coordinates, Black first (`pd dp pp`, `pass`
//!   for a pass), or shogi moves in USI from the standard start (`7g7f 3c3d`);
//! - `sgf:SETUP` or anything with `[`: SGF setup (`AB[pd][dp]AW[dd]`, `SZ[13]AB[cc]`), or a
//!   whole record starting with `(` (its final position: `(;SZ[13];B[cc];W[dd])`);
//! - `sfen:SFEN` or an SFEN (`lnsgkgsnl/1r5b1/… b - 1`, optionally with `moves …`).

use kifu_index::Position;
use std::path::Path;

/// Reads Q; `size` is the board size of a bare Go move list.
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
        let target = crate::target::parse(file)?;
        let exists = target.path.exists() || target.path.to_string_lossy().contains('!');
        if exists {
            let number: u32 =
                number.parse().map_err(|_| format!("{q}: bad move number `{number}` after `#` (0, 1, 2…)"))?;
            return from_file(&target.path, target.offset, number);
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
pub fn moves(list: &str, size: u8) -> Result<Position, kifu_index::Error> {
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

/// The position after move `number` of a game of a file.
pub fn from_file(path: &Path, offset: Option<u64>, number: u32) -> Result<Position, String> {
    let bytes = crate::target::load(path)?;
    if let Some(o) = offset {
        crate::target::check_start(path, &bytes, o)?;
    }
    let offset = offset.unwrap_or(0);
    Position::from_game(&bytes, offset, number).map_err(|e| format!("{}@{offset}#{number}: {e}", path.display()))
}
