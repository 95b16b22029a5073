//! One game read from its byte offset, without reading the rest of the file: what `kifu show`
//! prints. The bytes are sliced at the offset (a `games.offset` from the index) and one game is
//! read from the slice with the format detected on the whole file's head; the row it gives is
//! the one the index holds, with the whole main line in canonical notation.

use crate::extract::{Collector, GameRow};
use crate::position::Moves;
use crate::{Error, ErrorKind};
use kifu::{Event, EventSource};

/// Reads the game at `offset` of `bytes` (a whole file as the readers see it: UTF-16
/// transcoded, decompressed): its row, with `main_line` set, and the file's format.
///
/// ```
/// let (row, format) = kifu_index::read_game(b"(;PB[a];B[pd])(;PB[b];B[dd])", 14).unwrap();
/// assert_eq!((row.offset, format), (14, kifu::Format::Sgf));
/// assert_eq!(row.main_line.as_deref(), Some("(;B[dd])"));
/// ```
pub fn read_game(bytes: &[u8], offset: u64) -> Result<(GameRow, kifu::Format), Error> {
    read_with_moves(bytes, offset).map(|(row, format, _)| (row, format))
}

/// [`read_game`], with the game's main line as its boards take it.
pub(crate) fn read_with_moves(bytes: &[u8], offset: u64) -> Result<(GameRow, kifu::Format, Moves), Error> {
    let format = kifu::detect(bytes).ok_or(Error::new(ErrorKind::NoGame, "not a game record kifu can read"))?;
    let slice = usize::try_from(offset)
        .ok()
        .and_then(|o| bytes.get(o..))
        .ok_or(Error::new(ErrorKind::BadOffset, "offset beyond the end of the file"))?;
    let mut reader = kifu::AnyReader::new(format, slice, kifu::Config::default());
    let mut c = Collector::default();
    c.keep_main_line = true;
    let mut charset = None;
    let mut row = None;
    let mut started = false;
    while let Some(item) = reader.next_event() {
        match item {
            Ok(ev) => {
                if let Event::GameStart { .. } = ev {
                    if started {
                        row = c.finish(None);
                        break;
                    }
                    started = true;
                }
                if let Some(r) = c.feed(&ev, &mut charset) {
                    row = Some(r);
                    break;
                }
            }
            Err(_) => {
                row = c.finish(Some(()));
                break;
            }
        }
    }
    let mut row = row.or_else(|| c.finish(None)).ok_or(Error::new(ErrorKind::NoGame, "no game at this offset"))?;
    row.offset += offset;
    Ok((row, format, std::mem::take(&mut c.main_moves)))
}
