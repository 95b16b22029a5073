//! Small views of an event list that many tests compare.

use kifu::{Color, Event, Move, WarningKind};

/// The kinds of the warnings among `events`, in order.
pub fn warnings(events: &[Event<'_>]) -> Vec<WarningKind> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.kind),
            _ => None,
        })
        .collect()
}

/// The Go moves among `events`, as (colour, point or `None` for a pass).
pub fn moves(events: &[Event<'_>]) -> Vec<(Color, Option<(u8, u8)>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Go { color, point }) => Some((*color, point.map(|p| (p.x, p.y)))),
            _ => None,
        })
        .collect()
}
