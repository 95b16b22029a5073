//! The movement tables of the shogi position, built at compile time: per piece its step and
//! slide directions, per square and line the room to the edge, and per pair of squares the
//! line and distance between them or a knight's jump ([`RAY`], 6.5 KB).

use super::NO_SQUARE;
use crate::event::Piece;

pub(super) const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
pub(super) const SILVER: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
pub(super) const KING: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
pub(super) const DIAG: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
pub(super) const ORTH: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];

/// The bit of a one-square direction (file, rank offsets in -1..=1), as Black sees it.
pub(super) const fn direction_bit(f: i8, r: i8) -> u16 {
    1 << ((f + 1) + 3 * (r + 1))
}

pub(super) const fn direction_bits(offsets: &[(i8, i8)]) -> u16 {
    let mut bits = 0;
    let mut i = 0;
    while i < offsets.len() {
        bits |= direction_bit(offsets[i].0, offsets[i].1);
        i += 1;
    }
    bits
}

/// Per piece (in [`Piece::ALL`] order), the directions it steps one square in, as Black sees
/// them (the knight's jumps are not among them).
pub(super) const STEPS: [u16; 14] = {
    let gold = direction_bits(GOLD);
    [
        direction_bit(0, -1),
        0,
        0,
        direction_bits(SILVER),
        gold,
        0,
        0,
        direction_bits(KING),
        gold,
        gold,
        gold,
        gold,
        direction_bits(ORTH),
        direction_bits(DIAG),
    ]
};

/// Per piece, the directions it slides in (any distance over empty squares).
pub(super) const SLIDES: [u16; 14] = [
    0,
    direction_bit(0, -1),
    0,
    0,
    0,
    direction_bits(DIAG),
    direction_bits(ORTH),
    0,
    0,
    0,
    0,
    0,
    direction_bits(DIAG),
    direction_bits(ORTH),
];

/// The eight lines out of a square that [`ShogiPosition::attacked`](super::ShogiPosition::attacked) walks, as (file, rank) steps.
pub(super) const LINES: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// Per line, the step between its squares in `ShogiPosition::board` (files run right to left).
pub(super) const STEP: [isize; 8] = {
    let mut s = [0; 8];
    let mut d = 0;
    while d < 8 {
        s[d] = LINES[d].1 as isize * 9 - LINES[d].0 as isize;
        d += 1;
    }
    s
};

/// Per square (board index) and line, how many squares there are to the edge of the board.
pub(super) const ROOM: [[u8; 8]; 81] = {
    let mut t = [[0; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let (f, r) = (9 - (i % 9) as i8, (i / 9) as i8 + 1);
        let mut d = 0;
        while d < 8 {
            let (a, b) = (room(LINES[d].0, f), room(LINES[d].1, r));
            t[i][d] = if a < b { a } else { b } as u8;
            d += 1;
        }
        i += 1;
    }
    t
};

/// Squares from `at` (1–9) to the edge going `step` (-1, 0, 1) along one axis (8: no limit).
pub(super) const fn room(step: i8, at: i8) -> i8 {
    match step {
        1 => 9 - at,
        -1 => at - 1,
        _ => 8,
    }
}

/// Per attacking colour (Black, White) and line, the direction bit an attacker on that line
/// needs to move back towards the square: (-df, -dr) for Black, (df, dr) for White (whose
/// offsets are mirrored).
pub(super) const TOWARD: [[u16; 8]; 2] = {
    let mut t = [[0; 8]; 2];
    let mut d = 0;
    while d < 8 {
        let (f, r) = LINES[d];
        t[0][d] = direction_bit(-f, -r);
        t[1][d] = direction_bit(f, r);
        d += 1;
    }
    t
};

/// Per moving colour (Black, White) and line, the direction bit (as Black sees it, like
/// [`STEPS`] and [`SLIDES`]) of a move along that line.
pub(super) const ALONG: [[u16; 8]; 2] = {
    let mut t = [[0; 8]; 2];
    let mut d = 0;
    while d < 8 {
        let (f, r) = LINES[d];
        t[0][d] = direction_bit(f, r);
        t[1][d] = direction_bit(-f, -r);
        d += 1;
    }
    t
};

/// The index in [`LINES`] of the line (file, rank steps in -1..=1, not both 0).
#[inline]
pub(super) const fn line(f: i8, r: i8) -> usize {
    let b = ((f + 1) + 3 * (r + 1)) as usize;
    b - (b > 4) as usize
}

/// Per pair of board indices (from, to): `d | distance << 4` when `to` lies on line `d` of
/// [`LINES`] out of `from`, else [`BLACK_JUMP`] or [`WHITE_JUMP`] when `to` is a knight's jump
/// away for that colour, else [`NO_RAY`] (also for `from == to`).
pub(super) const RAY: [[u8; 81]; 81] = {
    let mut t = [[NO_RAY; 81]; 81];
    let mut i = 0;
    while i < 81 {
        let mut j = 0;
        while j < 81 {
            // Files run right to left in board order.
            let df = (i % 9) as i8 - (j % 9) as i8;
            let dr = (j / 9) as i8 - (i / 9) as i8;
            let (af, ar) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            if af == 1 && ar == 2 {
                t[i][j] = if dr < 0 { BLACK_JUMP } else { WHITE_JUMP };
            } else if af + ar != 0 && (af == 0 || ar == 0 || af == ar) {
                let distance = if af > ar { af } else { ar };
                t[i][j] = line(df / distance, dr / distance) as u8 | (distance as u8) << 4;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// See [`RAY`].
pub(super) const NO_RAY: u8 = 0xFF;
/// See [`RAY`]: a Black knight's jump (two ranks towards rank 1).
pub(super) const BLACK_JUMP: u8 = 0xFE;
/// See [`RAY`]: a White knight's jump.
pub(super) const WHITE_JUMP: u8 = 0xFD;

/// Per attacking colour (Black, White) and board index, the board indices a knight of that
/// colour jumps to it from ([`NO_SQUARE`] for none, off the board).
pub(super) const KNIGHT_FROM: [[[u8; 2]; 81]; 2] = {
    let mut t = [[[NO_SQUARE; 2]; 81]; 2];
    let jumps = [BLACK_JUMP, WHITE_JUMP];
    let mut w = 0;
    while w < 2 {
        let mut j = 0;
        while j < 81 {
            let mut k = 0;
            let mut i = 0;
            while i < 81 {
                if RAY[i][j] == jumps[w] {
                    t[w][j][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            j += 1;
        }
        w += 1;
    }
    t
};

/// Per attacking colour (Black, White) and board code, the lines (bit `d` for line `d` of
/// [`LINES`]) along which that piece attacks a square it is next to: 0 for the other colour's
/// pieces and empty squares. Built from [`STEPS`], [`SLIDES`] and [`TOWARD`].
pub(super) const NEAR: [[u8; 32]; 2] = piece_lines(&TOWARD, true);

/// Like [`NEAR`], for a piece two or more squares away (sliders only).
pub(super) const FAR: [[u8; 32]; 2] = piece_lines(&TOWARD, false);

/// Per board code, the lines (bit `d` for line `d` of [`LINES`]) along which that piece moves
/// one square: [`STEPS`] and [`SLIDES`] turned to its colour by [`ALONG`]; 0 for an empty square.
/// (Each colour's pieces have codes of their own, so both colours fit one row.)
pub(super) const MOVES_NEAR: [u8; 32] = both_colours(piece_lines(&ALONG, true));

/// Like [`MOVES_NEAR`], for two or more squares (sliders only).
pub(super) const MOVES_FAR: [u8; 32] = both_colours(piece_lines(&ALONG, false));

/// Per colour and board code, the lines `dirs[colour]` gives for that colour's piece's reach one
/// square away (`near`: steps and slides) or farther (slides only); 0 for other codes.
const fn piece_lines(dirs: &[[u16; 8]; 2], near: bool) -> [[u8; 32]; 2] {
    let mut t = [[0; 32]; 2];
    let mut w = 0;
    while w < 2 {
        let mut p = 0;
        while p < 14 {
            let reach = if near { STEPS[p] | SLIDES[p] } else { SLIDES[p] };
            let mut d = 0;
            while d < 8 {
                if reach & dirs[w][d] != 0 {
                    t[w][1 + p + 16 * w] |= 1 << d;
                }
                d += 1;
            }
            p += 1;
        }
        w += 1;
    }
    t
}

/// The two colours' rows of [`piece_lines`] in one (their codes do not overlap).
const fn both_colours(t: [[u8; 32]; 2]) -> [u8; 32] {
    let mut out = [0; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = t[0][i] | t[1][i];
        i += 1;
    }
    out
}

/// Per board code, the [`RAY`] value of that piece's jump: [`BLACK_JUMP`] or [`WHITE_JUMP`] for
/// a knight, 0 (no ray) for the rest.
pub(super) const JUMPS: [u8; 32] = {
    let mut t = [0; 32];
    t[1 + Piece::Knight as usize] = BLACK_JUMP;
    t[1 + Piece::Knight as usize + 16] = WHITE_JUMP;
    t
};
