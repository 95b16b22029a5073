//! The final position of a game: its main line's board-changing events, recorded while the
//! game is read ([`Moves`]) and replayed when it ends on the boards of `kifu::position`
//! ([`Moves::replay`]), on the thread that read it.
//!
//! Recording first keeps the boards out of the reading loop (a push per main-line move; side
//! variations never reach a board). The replay (a Go board's captures, a shogi position's
//! legality checks) is about 0.7 G of the 4.5 G instructions of a `kifu index` run over the
//! corpus, and stays on the reading threads: `--threads N` is what the run may use, N readers
//! and a writer that only writes (a fifth of a core). An earlier version let the writer replay
//! games when the machine had a core besides the readers: one reader on two cores finished in
//! 0.41 s rather than 0.48 s (medians of 11 runs), by taking a second core that `--threads 1`
//! had not asked for.

use kifu::position::go::{parse_size, ReplayOptions, Replayer, Rules};
use kifu::position::shogi::{ShogiPosition, SFEN_MAX};
use kifu::{Color, Event, InfoKey, Move, Setup};
use std::cell::RefCell;

thread_local! {
    /// This thread's Go replayer, kept from game to game so that its board is allocated once
    /// ([`Replayer::finish_game`]).
    static GO: RefCell<Replayer> = RefCell::new(Replayer::new(ReplayOptions::default()));
}

/// One main-line event that changes a board, owned (it outlives the input it was read from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// A move, Go or shogi.
    Move(Move),
    /// Setup: a stone or piece placed or removed.
    Setup(Setup),
    /// The side to move.
    Turn(Color),
    /// Go: the board size (`None`: unreadable).
    Size(Option<(u8, u8)>),
    /// Go: the rules, as far as suicide goes.
    Rules(Rules),
}

impl Step {
    /// The event a board takes for this step (a move, setup or the side to move); `None` for
    /// the board size and rules, which the Go replayer takes by their own calls.
    fn event(self) -> Option<Event<'static>> {
        match self {
            Step::Move(m) => Some(Event::Move(m)),
            Step::Setup(s) => Some(Event::Setup(s)),
            Step::Turn(c) => Some(Event::Turn(c)),
            Step::Size(_) | Step::Rules(_) => None,
        }
    }
}

/// A game's main line as far as its boards go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    steps: Vec<Step>,
}

/// What the replay gives: stones captured by Black and White (Go), and a hash of the final
/// position (Go: the board's Zobrist hash; shogi: xxh3-64 of the SFEN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Final {
    pub captures: Option<(u32, u32)>,
    pub hash: Option<u64>,
}

impl Moves {
    /// Starts a new game, keeping the allocation.
    pub fn clear(&mut self) {
        self.steps.clear();
    }

    /// Records a main-line move.
    #[inline]
    pub fn push_move(&mut self, m: Move) {
        self.steps.push(Step::Move(m));
    }

    /// Records a main-line event other than a move, when it changes a board (setup, turn,
    /// board size, rules); ignores the rest.
    pub fn push_event(&mut self, ev: &Event<'_>) {
        let step = match *ev {
            Event::Move(m) => Step::Move(m),
            Event::Setup(s) => Step::Setup(s),
            Event::Turn(c) => Step::Turn(c),
            Event::Info(i) if i.key() == InfoKey::BoardSize => Step::Size(parse_size(i.value().raw())),
            Event::Info(i) if i.key() == InfoKey::Rules => Step::Rules(Rules::from_name(&i.value().decode().text)),
            _ => return,
        };
        self.steps.push(step);
    }

    /// Replays the steps on a Go board (`shogi == false`) or a shogi position. Illegal moves are
    /// left unplayed (`kifu stats --replay` and `kifu check` report them).
    pub fn replay(&self, shogi: bool) -> Final {
        if shogi {
            let mut pos = ShogiPosition::new();
            for &s in &self.steps {
                if let Step::Move(Move::Shogi(m)) = s {
                    let _ = pos.play(m);
                } else if let Some(ev) = s.event() {
                    let _ = pos.apply(&ev);
                }
            }
            let mut sfen = [0; SFEN_MAX];
            return Final { captures: None, hash: Some(xxhash_rust::xxh3::xxh3_64(pos.sfen_bytes(&mut sfen))) };
        }
        GO.with_borrow_mut(|go| {
            let mut i = 0;
            loop {
                // A run of Go moves (most steps) in one call, then the step that ends it.
                let run = self.steps.get(i..).unwrap_or_default().iter();
                i += go.play_all(run.map_while(|s| match *s {
                    Step::Move(Move::Go { color, point }) => Some((color, point)),
                    _ => None,
                }));
                let Some(&s) = self.steps.get(i) else { break };
                i += 1;
                match s {
                    Step::Size(size) => go.set_size(size),
                    Step::Rules(r) => go.set_rules(r),
                    _ => {
                        if let Some(ev) = s.event() {
                            go.event(&ev);
                        }
                    }
                }
            }
            let r = go.finish_game();
            Final { captures: Some(r.captures), hash: Some(r.hash) }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(sgf: &[u8]) -> Moves {
        let mut m = Moves::default();
        for ev in kifu::sgf::Reader::new(sgf) {
            let ev = ev.unwrap();
            match ev {
                Event::Move(mv) => m.push_move(mv),
                _ => m.push_event(&ev),
            }
        }
        m
    }

    /// The recorded steps replay to what the library's replay of the same game gives, game
    /// after game on this thread's one replayer (boards of other sizes and rules before).
    #[test]
    fn replay_equals_the_library_replay() {
        let games: [&[u8]; 6] = [
            b"(;SZ[9]AB[ba];W[aa];B[ab];W[];B[cc])",
            b"(;AB[ba];SZ[5];W[aa];B[ab])",
            b"(;SZ[4]RU[NZ]AB[ba][ab];W[aa])",
            b"(;SZ[4]AB[ba][ab];W[aa])",
            // Setup and an illegal move between runs of moves; then 19×19 without SZ.
            b"(;SZ[5];B[aa];W[aa];B[ab];AW[cc]AE[aa];W[dd];B[ee];W[ed];B[ba];W[de];B[ee])",
            b"(;B[pd];W[dp];B[];W[pd];AB[aa];W[ss];B[ss])",
        ];
        for g in games {
            let want =
                kifu::position::go::replay(&mut kifu::sgf::Reader::new(g), &Default::default()).unwrap().unwrap();
            let got = record(g).replay(false);
            assert_eq!(
                got,
                Final { captures: Some(want.captures), hash: Some(want.hash) },
                "{}",
                String::from_utf8_lossy(g)
            );
        }
        // Black's ab captures White's aa; under NZ rules White's suicide is played (a capture
        // for Black), without them it is illegal and left unplayed.
        let captures: Vec<_> = games.iter().map(|g| record(g).replay(false).captures).collect();
        assert_eq!(captures, [Some((1, 0)), Some((1, 0)), Some((1, 0)), Some((0, 0)), Some((0, 1)), Some((0, 0))]);
    }

    #[test]
    fn shogi_replay_hashes_the_final_sfen() {
        let csa = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n";
        let mut m = Moves::default();
        let mut pos = ShogiPosition::new();
        for ev in kifu::csa::Reader::new(csa) {
            let ev = ev.unwrap();
            m.push_event(&ev);
            let _ = pos.apply(&ev);
        }
        assert_eq!(pos.ply(), 3);
        assert_eq!(m.replay(true).hash, Some(xxhash_rust::xxh3::xxh3_64(pos.sfen().as_bytes())));
        assert_eq!(m.replay(true).captures, None);
    }
}
