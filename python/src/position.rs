//! The `position` argument of `Index.find` and `Index.explore`: the forms of `kifu find
//! --position Q` and `kifu explore Q` ([`kifu_index::parse_position`]), with FILE of
//! `FILE[@OFFSET]#MOVE` a file on disk (UTF-16 is transcoded; a member of an archive or a
//! compressed file is not read here).

use kifu_index::Position;
use std::path::Path;

/// Reads `q`; `size` is the board size of a bare Go move list. The error says which form failed.
pub fn parse(q: &str, size: u8) -> Result<Position, String> {
    kifu_index::parse_position(q, size, |file, number| {
        let (path, offset) = match file.rsplit_once('@') {
            Some((p, o)) if !p.is_empty() && o.bytes().all(|b| b.is_ascii_digit()) && !o.is_empty() => {
                (p, o.parse::<u64>().ok())
            }
            _ => (file, None),
        };
        Path::new(path).is_file().then(|| {
            let number = number?;
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let bytes = kifu::text::transcode_utf16(&bytes).unwrap_or(bytes);
            let offset = offset.unwrap_or(0);
            Position::from_game(&bytes, offset, number).map_err(|e| format!("{path}@{offset}#{number}: {e}"))
        })
    })
}
