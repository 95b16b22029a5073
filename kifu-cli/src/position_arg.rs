//! The position argument of `kifu find --position Q` and `kifu explore Q`: the forms of
//! [`kifu_index::parse_position`] (`FILE[@OFFSET]#MOVE`, a move list, SGF setup or a record, an
//! SFEN), with FILE read as `kifu show` reads it: a file, or an archive member (`a.zip!b.sgf`).

use kifu_index::Position;
use std::path::Path;

/// Reads Q; `size` is the board size of a bare Go move list.
pub fn parse(q: &str, size: u8) -> Result<Position, String> {
    kifu_index::parse_position(q, size, |file, number| {
        let target = match crate::target::parse(file) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let exists = target.path.exists() || target.path.to_string_lossy().contains('!');
        exists.then(|| number.and_then(|n| from_file(&target.path, target.offset, n)))
    })
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

/// `--swap-colors` (Go) and `--mirror` (shogi): the position looked up with its colour-swapped
/// or mirrored twin too ([`Position::also_twin`]); each flag on a position of the other game is
/// a usage error.
pub fn with_twin(pos: Position, swap_colors: bool, mirror: bool) -> Result<Position, String> {
    let shogi = pos.kind == kifu_index::Kind::Shogi;
    if swap_colors && shogi {
        return Err("--swap-colors is for Go positions (a shogi position: --mirror)".into());
    }
    if mirror && !shogi {
        return Err("--mirror is for shogi positions (a Go position: --swap-colors)".into());
    }
    Ok(if swap_colors || mirror { pos.also_twin() } else { pos })
}

/// The JSON field and table word of a hit through the twin: `swapped` (Go) or `mirrored`.
pub fn twin_word(pos: &Position) -> &'static str {
    if pos.kind == kifu_index::Kind::Shogi {
        "mirrored"
    } else {
        "swapped"
    }
}
