//! The main line of a game from its events, and its canonical moves-only string.
//!
//! # Canonical main-line string
//! Exactly what `kifu tree --moves` prints for the main line, so that the same game read from SGF,
//! JGF or XML gets the same string and so the same hash:
//!
//! - `(` then one `;` node per main-line move then `)`: `(;B[pd];W[dp];B[])`;
//! - Go moves in SGF coordinates (`aa` top left, `A`–`Z` beyond 26), a pass as `B[]`/`W[]`;
//! - shogi moves in CSA notation without brackets, a drop from `00`: `(;+7776FU;-3334FU;+0055KA)`;
//! - nodes without a move (the root, setup, comments) do not appear; a game without moves is `()`.
//!
//! Moves are written by [`kifu::tree::write_move`], the writer of `kifu tree --moves`. The
//! tracker here follows the main line within the indexer's single pass over the events (the
//! tree module's adapter instead skips side variations, which would need a second pass).
//!
//! # Which nodes are on the main line
//! The library's rule ([`kifu::tree::MainLineTracker`], the rule of the main-line adapter, the
//! tree and `kifu tree --moves`): the first child at every branching, read from the flat event
//! stream without a tree. A [`Branch::Child`](kifu::Branch::Child) variation opened from the main
//! line continues it (the first one only: when it closes, the main line is over); a
//! [`Branch::Sibling`](kifu::Branch::Sibling) variation is an alternative to the current node and
//! never on the main line, which continues after it.

use kifu::Move;

pub use kifu::tree::MainLineTracker as MainLine;

/// Appends one move as a canonical node (`;B[pd]`, `;W[]`, `;+7776FU`), written by the tree
/// module's moves-only writer so that the index and `kifu tree --moves` agree byte for byte.
#[inline]
pub fn push_move(out: &mut Vec<u8>, m: &Move) {
    out.push(b';');
    kifu::tree::write_move(*m, out);
}

/// The canonical main-line string of the first game in `events` (a convenience for tests and
/// `kifu show`; the indexer builds it incrementally).
#[cfg(test)]
pub fn canonical<'a>(events: impl IntoIterator<Item = kifu::Event<'a>>) -> String {
    use kifu::Event;
    let mut line = MainLine::default();
    let mut out = b"(".to_vec();
    for ev in events {
        line.feed(&ev);
        match ev {
            Event::Move(m) if line.on_main() => push_move(&mut out, &m),
            Event::GameEnd { .. } => break,
            _ => {}
        }
    }
    out.push(b')');
    String::from_utf8(out).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu::{Branch, Color, Event, Point, ShogiMove, Square};

    fn go(c: Color, p: Option<(u8, u8)>) -> Event<'static> {
        Event::Move(Move::Go { color: c, point: p.map(|(x, y)| Point::new(x, y)) })
    }

    #[test]
    fn sgf_shape() {
        let ev = kifu::sgf::Reader::new(b"(;SZ[19];B[pd];W[dp](;B[];W[qq])(;B[aa]))").map(Result::unwrap);
        assert_eq!(canonical(ev), "(;B[pd];W[dp];B[];W[qq])");
        let ev = kifu::sgf::Reader::new(b"(;SZ[19]AB[aa])").map(Result::unwrap);
        assert_eq!(canonical(ev), "()");
    }

    #[test]
    fn sibling_branches_are_off_the_main_line() {
        use Color::*;
        let evs = [
            Event::GameStart { offset: 0 },
            Event::Node,
            go(Black, Some((15, 3))),
            Event::VariationStart(Branch::Sibling),
            Event::Node,
            go(Black, Some((0, 0))),
            Event::VariationEnd,
            Event::Node,
            go(White, None),
            Event::GameEnd { length: 0, ending: None },
        ];
        assert_eq!(canonical(evs), "(;B[pd];W[])");
    }

    #[test]
    fn shogi_and_large_boards() {
        let m = |c, from: Option<(u8, u8)>, to: (u8, u8), p| {
            Event::Move(Move::Shogi(ShogiMove {
                color: c,
                from: from.map(|(f, r)| Square::new(f, r)),
                to: Square::new(to.0, to.1),
                piece: p,
            }))
        };
        let evs = [
            Event::GameStart { offset: 0 },
            Event::Node,
            m(Color::Black, Some((7, 7)), (7, 6), kifu::Piece::Pawn),
            m(Color::White, None, (5, 5), kifu::Piece::Bishop),
            go(Color::Black, Some((26, 51))),
        ];
        assert_eq!(canonical(evs), "(;+7776FU;-0055KA;B[AZ])");
    }
}
