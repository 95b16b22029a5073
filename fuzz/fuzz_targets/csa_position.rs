//! Fuzzes the shogi position with random event sequences (setups, turns, moves and drops of any
//! piece between any squares, including off-board ones): no panic; an illegal move leaves the
//! position unchanged; a legal one changes the side to move; the SFEN stays well formed.
#![no_main]

use arbitrary::Arbitrary;
use kifu::position::shogi::ShogiPosition;
use kifu::{Color, Event, Move, Piece, Setup, ShogiMove, Square};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Start,
    Standard,
    Put { white: bool, piece: u8, file: u8, rank: u8, hand: bool },
    Remove { file: u8, rank: u8 },
    Turn { white: bool },
    Move { white: bool, drop: bool, from: (u8, u8), to: (u8, u8), piece: u8 },
}

fn piece(p: u8) -> Piece {
    Piece::ALL[p as usize % Piece::ALL.len()]
}

fn color(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

fuzz_target!(|ops: Vec<Op>| {
    let mut pos = ShogiPosition::new();
    for op in ops.iter().take(2000) {
        let ev = match *op {
            Op::Start => Event::GameStart { offset: 0 },
            Op::Standard => {
                pos = ShogiPosition::startpos();
                continue;
            }
            Op::Put { white, piece: p, file, rank, hand } => Event::Setup(Setup::Shogi {
                color: color(white),
                piece: piece(p),
                square: (!hand).then_some(Square::new(file % 11, rank % 11)),
            }),
            Op::Remove { file, rank } => Event::Setup(Setup::ShogiRemove { square: Square::new(file % 11, rank % 11) }),
            Op::Turn { white } => Event::Turn(color(white)),
            Op::Move { white, drop, from, to, piece: p } => Event::Move(Move::Shogi(ShogiMove {
                color: color(white),
                from: (!drop).then_some(Square::new(from.0 % 11, from.1 % 11)),
                to: Square::new(to.0 % 11, to.1 % 11),
                piece: piece(p),
            })),
        };
        let before = pos;
        match pos.apply(&ev) {
            Err(_) => assert_eq!(pos, before, "an illegal move changes nothing"),
            Ok(Some(_)) => assert_ne!(pos.side_to_move(), before.side_to_move()),
            Ok(None) => {}
        }
        let sfen = pos.sfen();
        assert_eq!(sfen.split(' ').next().unwrap().split('/').count(), 9);
    }
});
