//! Fuzzes the Go board with random plays, passes and setups on boards of every size (points on
//! and off the board, suicide allowed or not): no panic; an illegal move changes nothing; a legal
//! one puts the stone there (unless it was an allowed suicide); captures only grow; the Zobrist
//! hash always equals the hash of a fresh board set up with the same stones; a board reset is
//! empty.
#![no_main]

use arbitrary::Arbitrary;
use kifu::position::go::{Board, Rules};
use kifu::{Color, Point};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Play { white: bool, x: u8, y: u8 },
    Pass { white: bool },
    Set { color: Option<bool>, x: u8, y: u8 },
}

#[derive(Arbitrary, Debug)]
struct Game {
    width: u8,
    height: u8,
    allow_suicide: bool,
    ops: Vec<Op>,
}

fn color(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

fn stones(b: &Board) -> Vec<Option<Color>> {
    let (w, h) = b.size();
    (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))).map(|p| b.get(p)).collect()
}

fuzz_target!(|g: Game| {
    let (w, h) = (1 + g.width % 25, 1 + g.height % 25);
    let mut b = Board::with_rules(w, h, Rules { allow_suicide: g.allow_suicide }).unwrap();
    for op in g.ops.iter().take(3000) {
        let before = stones(&b);
        let caps = (b.captures(Color::Black), b.captures(Color::White));
        match *op {
            Op::Play { white, x, y } => {
                let p = Point::new(x % (w + 2), y % (h + 2));
                match b.play(color(white), Some(p)) {
                    Err(_) => assert_eq!(stones(&b), before, "an illegal move changes nothing"),
                    Ok(played) if played.suicided == 0 => assert_eq!(b.get(p), Some(color(white))),
                    Ok(_) => assert_eq!(b.get(p), None, "a suicide removes the stone"),
                }
            }
            Op::Pass { white } => assert!(b.play(color(white), None).is_ok()),
            Op::Set { color: c, x, y } => {
                let p = Point::new(x % (w + 2), y % (h + 2));
                assert_eq!(b.set(p, c.map(color)), x % (w + 2) < w && y % (h + 2) < h);
            }
        }
        assert!(b.captures(Color::Black) >= caps.0 && b.captures(Color::White) >= caps.1);
    }
    let mut fresh = Board::new(w, h).unwrap();
    for (i, c) in stones(&b).into_iter().enumerate() {
        if c.is_some() {
            fresh.set(Point::new((i % w as usize) as u8, (i / w as usize) as u8), c);
        }
    }
    assert_eq!(b.hash(), fresh.hash(), "the hash depends on the stones only");
    // Reset (to the transposed size, then back) is an empty board like a new one.
    for (rw, rh) in [(h, w), (w, h)] {
        assert!(b.reset(rw, rh, Rules::default()));
        assert_eq!((b.hash(), b.stones(), b.ko()), (Board::new(rw, rh).unwrap().hash(), (0, 0), None));
    }
});
