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

/// The shogi moves of `events` as (side, destination), in event order (variations' too), and
/// whether the first move after a `VariationStart(Sibling)` goes to `to` (for the tests of a
/// skipped move, `a_move_that_does_not_read_passes_its_turn` in tests/kif.rs and tests/ki2.rs).
pub fn shogi_moves_and_sibling(events: &[Event<'_>], to: kifu::Square) -> (Vec<(Color, kifu::Square)>, bool) {
    let moves = events
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Shogi(m)) => Some((m.color, m.to)),
            _ => None,
        })
        .collect();
    let sibling = events.iter().position(|e| matches!(e, Event::VariationStart(kifu::Branch::Sibling)));
    let first = sibling.and_then(|v| {
        events[v..].iter().find_map(|e| match e {
            Event::Move(Move::Shogi(m)) => Some(m.to),
            _ => None,
        })
    });
    (moves, first == Some(to))
}

/// What [`shogi_moves_and_sibling`] gives for ▲７六歩, a skipped White move, ▲２六歩, △８四歩 and
/// a variation replacing the fourth move with △４四歩.
pub fn skipped_white_move_game() -> Vec<(Color, kifu::Square)> {
    let sq = kifu::Square::new;
    vec![(Color::Black, sq(7, 6)), (Color::Black, sq(2, 6)), (Color::White, sq(8, 4)), (Color::White, sq(4, 4))]
}
