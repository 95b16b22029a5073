//! Replaying games on the boards of `kifu::position` for `kifu stats --replay` and `kifu check
//! --replay`: every illegal move with where it is.

use kifu::position::go::{replay, ReplayOptions};
use kifu::position::shogi::ShogiPosition;
use kifu::{Event, EventSource, Format};

/// One illegal move.
pub struct Illegal {
    /// Byte offset in the file.
    pub offset: u64,
    /// The kind's stable name (`occupied`, `suicide`, `ko`, … for Go; the shogi position's kinds).
    pub kind: &'static str,
    /// Its number among the game's (main-line) moves, from 1.
    pub number: u32,
}

/// Every illegal move of every game of `bytes` (Go games along their main line; CSA games move
/// by move), in file order.
pub fn illegal_moves(bytes: &[u8], config: kifu::Config) -> Vec<Illegal> {
    match kifu::AnyReader::detect(bytes, config) {
        Some(mut reader) => {
            let format = reader.format();
            illegal_moves_in(&mut reader, format)
        }
        None => Vec::new(),
    }
}

/// Every illegal move of every game `reader` gives (a source of `format`).
pub fn illegal_moves_in<S: EventSource + ?Sized>(reader: &mut S, format: Format) -> Vec<Illegal> {
    let mut out = Vec::new();
    if format.kind() == kifu::GameKind::Shogi {
        let mut pos = ShogiPosition::new();
        let mut number = 0;
        loop {
            let played = match reader.next_event() {
                None => break,
                Some(Err(_)) => continue,
                Some(Ok(ev)) => {
                    if let Event::GameStart { .. } = ev {
                        number = 0;
                    }
                    number += matches!(ev, Event::Move(_)) as u32;
                    pos.apply(&ev)
                }
            };
            if let Err(kind) = played {
                let at = reader.event_offset().unwrap_or(0);
                out.push(Illegal { offset: at, kind: kind.as_str(), number });
            }
        }
        return out;
    }
    let options = ReplayOptions::default();
    loop {
        match replay(reader, &options) {
            Ok(None) => break,
            Ok(Some(r)) => out.extend(r.illegal.iter().map(|m| Illegal {
                offset: m.offset.unwrap_or(r.offset),
                kind: m.kind.as_str(),
                number: m.number,
            })),
            Err(_) => continue, // counted as an error by the plain reading pass
        }
    }
    out
}
