//! Tests of the shogi position: hand-written cases, and the table-driven code against
//! reference versions (movement offsets, whole-board checks, `fmt` SFEN) on random positions.

use super::*;

/// (file, rank) offsets, for Black (forward = towards rank 1).
type Offsets = &'static [(i8, i8)];

/// (steps, slides) of a piece, for Black.
fn movement(p: Piece) -> (Offsets, Offsets) {
    match p {
        Piece::Pawn => (&[(0, -1)], &[]),
        Piece::Lance => (&[], &[(0, -1)]),
        Piece::Knight => (&[(-1, -2), (1, -2)], &[]),
        Piece::Silver => (SILVER, &[]),
        Piece::Gold | Piece::ProPawn | Piece::ProLance | Piece::ProKnight | Piece::ProSilver => (GOLD, &[]),
        Piece::King => (KING, &[]),
        Piece::Bishop => (&[], DIAG),
        Piece::Rook => (&[], ORTH),
        Piece::Horse => (ORTH, DIAG),
        Piece::Dragon => (DIAG, ORTH),
    }
}

impl ShogiPosition {
    /// Whether `p` of colour `c` on `from` attacks `to` on this board (both on the board).
    fn reaches(&self, from: Square, to: Square, c: Color, p: Piece) -> bool {
        self.reaches_at(idx(from), idx(to), code(c, p))
    }

    /// The square of `c`'s (first) king.
    fn king(&self, c: Color) -> Option<Square> {
        let i = self.king_index(c)?;
        Some(Square::new(9 - (i % 9) as u8, (i / 9) as u8 + 1))
    }
}

/// `sfen` through `fmt`, square by square (the reference for `ShogiPosition::sfen_bytes`).
fn sfen_reference(pos: &ShogiPosition) -> String {
    use std::fmt::Write;
    fn letter(p: Piece) -> char {
        match p {
            Piece::Pawn => 'P',
            Piece::Lance => 'L',
            Piece::Knight => 'N',
            Piece::Silver => 'S',
            Piece::Gold => 'G',
            Piece::Bishop => 'B',
            Piece::Rook => 'R',
            _ => 'K',
        }
    }
    let mut out = String::new();
    for rank in 1..=9u8 {
        let mut empty = 0;
        for file in (1..=9u8).rev() {
            match pos.get(Square::new(file, rank)) {
                None => empty += 1,
                Some((c, p)) => {
                    if empty > 0 {
                        write!(out, "{empty}").unwrap();
                        empty = 0;
                    }
                    if p.is_promoted() {
                        out.push('+');
                    }
                    let l = letter(p.unpromoted());
                    out.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        if rank < 9 {
            out.push('/');
        }
    }
    out.push_str(if pos.side == Color::Black { " b " } else { " w " });
    let mut any = false;
    for c in [Color::Black, Color::White] {
        for i in (0..7).rev() {
            let n = pos.hands[color_index(c)][i];
            if n == 0 {
                continue;
            }
            any = true;
            if n > 1 {
                write!(out, "{n}").unwrap();
            }
            let l = letter(HAND[i]);
            out.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
        }
    }
    if !any {
        out.push('-');
    }
    out
}

/// `attacked` by brute force: every piece of `by` on the board asked whether it reaches.
fn attacked_brute(pos: &ShogiPosition, sq: Square, by: Color) -> bool {
    (0..81).any(|i| {
        let from = Square::new(9 - (i % 9) as u8, (i / 9) as u8 + 1);
        matches!(pos.get(from), Some((c, p)) if c == by && reaches_reference(pos, from, sq, c, p))
    })
}

/// Whether `p` of colour `c` on `from` attacks `to`, worked out from its movement offsets
/// (the reference for `ShogiPosition::reaches`).
fn reaches_reference(pos: &ShogiPosition, from: Square, to: Square, c: Color, p: Piece) -> bool {
    let sign: i8 = if c == Color::Black { 1 } else { -1 };
    let df = (to.file as i8 - from.file as i8) * sign;
    let dr = (to.rank as i8 - from.rank as i8) * sign;
    if df == 0 && dr == 0 {
        return false;
    }
    let (steps, slides) = movement(p);
    if steps.iter().any(|&(f, r)| f == df && r == dr) {
        return true;
    }
    for &(f, r) in slides {
        // Is (df, dr) a positive multiple of (f, r)?
        let k = if f != 0 { df / f } else { dr / r };
        if k <= 0 || f * k != df || r * k != dr {
            continue;
        }
        // Squares strictly between must be empty.
        return (1..k).all(|i| {
            let sq = Square::new((from.file as i8 + f * i * sign) as u8, (from.rank as i8 + r * i * sign) as u8);
            pos.get(sq).is_none()
        });
    }
    false
}

/// `ShogiPosition::make` through `get` and `put` on a copy (the reference: everything but
/// the checks that need the whole board).
fn play_unchecked_king_reference(pos: &mut ShogiPosition, m: ShogiMove) -> Result<Played, Illegal> {
    if m.color != pos.side {
        return Err(Illegal::WrongSide);
    }
    if !valid(m.to) {
        return Err(Illegal::BadMovement);
    }
    let target = pos.get(m.to);
    let played = match m.from {
        None => {
            let i = HAND.iter().position(|&h| h == m.piece).ok_or(Illegal::BadDropPiece)?;
            if target.is_some() {
                return Err(Illegal::DropOnOccupied);
            }
            if pos.hands[color_index(m.color)][i] == 0 {
                return Err(Illegal::NotInHand);
            }
            if dead(m.color, m.piece, m.to) {
                return Err(Illegal::MustPromote);
            }
            if m.piece == Piece::Pawn
                && (1..=9).any(|r| pos.get(Square::new(m.to.file, r)) == Some((m.color, Piece::Pawn)))
            {
                return Err(Illegal::Nifu);
            }
            pos.hands[color_index(m.color)][i] -= 1;
            pos.put(m.to, Some((m.color, m.piece)));
            Played { captured: None, promoted: false }
        }
        Some(from) => {
            if !valid(from) {
                return Err(Illegal::NoPiece);
            }
            let (owner, on) = pos.get(from).ok_or(Illegal::NoPiece)?;
            if owner != m.color {
                return Err(Illegal::NotOwnPiece);
            }
            let promoted = if m.piece == on {
                false
            } else if on.promoted() == Some(m.piece) {
                true
            } else {
                return Err(Illegal::PieceMismatch);
            };
            if promoted && !in_zone(m.color, from) && !in_zone(m.color, m.to) {
                return Err(Illegal::PromotionOutsideZone);
            }
            if !reaches_reference(pos, from, m.to, m.color, on) {
                return Err(Illegal::BadMovement);
            }
            if let Some((c, _)) = target {
                if c == m.color {
                    return Err(Illegal::CaptureOwn);
                }
            }
            if !promoted && dead(m.color, on, m.to) {
                return Err(Illegal::MustPromote);
            }
            let captured = target.map(|(_, p)| p);
            if let Some(p) = captured {
                if let Some(i) = HAND.iter().position(|&h| h == p.unpromoted()) {
                    let h = &mut pos.hands[color_index(m.color)][i];
                    *h = h.saturating_add(1);
                }
            }
            pos.put(from, None);
            pos.put(m.to, Some((m.color, m.piece)));
            Played { captured, promoted }
        }
    };
    pos.side = m.color.opponent();
    pos.ply += 1;
    Ok(played)
}

/// Whether `c` has a legal move, by trying every pair of squares and every drop on copies
/// (the reference for `ShogiPosition::has_legal_move`).
fn has_legal_move_reference(pos: &ShogiPosition, c: Color) -> bool {
    let mut probe = *pos;
    probe.side = c;
    for i in 0..81usize {
        let from = Square::new(9 - (i % 9) as u8, (i / 9) as u8 + 1);
        let Some((owner, p)) = probe.get(from) else { continue };
        if owner != c {
            continue;
        }
        for j in 0..81usize {
            let to = Square::new(9 - (j % 9) as u8, (j / 9) as u8 + 1);
            if !reaches_reference(&probe, from, to, c, p) || matches!(probe.get(to), Some((o, _)) if o == c) {
                continue;
            }
            let mut next = probe;
            next.put(from, None);
            next.put(to, Some((c, p)));
            if !next.in_check(c) {
                return true;
            }
        }
    }
    for (k, &piece) in HAND.iter().enumerate() {
        if probe.hands[color_index(c)][k] == 0 {
            continue;
        }
        for j in 0..81usize {
            let to = Square::new(9 - (j % 9) as u8, (j / 9) as u8 + 1);
            let mut next = probe;
            if play_unchecked_king_reference(&mut next, ShogiMove { color: c, from: None, to, piece }).is_ok()
                && !next.in_check(c)
            {
                return true;
            }
        }
    }
    false
}

#[test]
fn direction_tables_agree_with_movement() {
    for (i, &p) in Piece::ALL.iter().enumerate() {
        let (steps, slides) = movement(p);
        let steps = steps.iter().filter(|&&(f, r)| f.abs() <= 1 && r.abs() <= 1).copied().collect::<Vec<_>>();
        assert_eq!(STEPS[i], direction_bits(&steps), "{p:?}");
        assert_eq!(SLIDES[i], direction_bits(slides), "{p:?}");
    }
}

/// A small random source for the tests: `rand(n)` is in `0..n`.
fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

#[test]
fn attacked_equals_brute_force_on_random_positions() {
    let mut rand = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut attacked = 0;
    for _ in 0..3000 {
        let mut pos = ShogiPosition::new();
        for _ in 0..rand(30) + 1 {
            let sq = Square::new(1 + rand(9) as u8, 1 + rand(9) as u8);
            let c = if rand(2) == 0 { Color::Black } else { Color::White };
            // Now and then a square emptied, or a king (several of one colour too).
            let piece = match rand(8) {
                0 => None,
                1 => Some((c, Piece::King)),
                _ => Some((c, Piece::ALL[rand(14) as usize])),
            };
            pos.put(sq, piece);
            // The kept king squares are the first kings in board order.
            for c in [Color::Black, Color::White] {
                let first = (0..81u8)
                    .map(|i| Square::new(9 - i % 9, i / 9 + 1))
                    .find(|&sq| pos.get(sq) == Some((c, Piece::King)));
                assert_eq!(pos.king(c), first);
            }
        }
        for i in 0..81u8 {
            let sq = Square::new(9 - i % 9, i / 9 + 1);
            for by in [Color::Black, Color::White] {
                let want = attacked_brute(&pos, sq, by);
                assert_eq!(pos.attacked(sq, by), want, "{sq:?} by {by:?} in {}", pos.sfen());
                attacked += want as u32;
            }
        }
    }
    assert!(attacked > 10_000, "{attacked}");
}

/// A random board: up to 40 pieces (kings among them, now and then two of a colour or
/// none), a few pieces in hand.
fn random_position(rand: &mut impl FnMut(u64) -> u64) -> ShogiPosition {
    let mut pos = ShogiPosition::new();
    for _ in 0..rand(40) + 1 {
        let sq = Square::new(1 + rand(9) as u8, 1 + rand(9) as u8);
        let c = if rand(2) == 0 { Color::Black } else { Color::White };
        let piece = if rand(12) == 0 { Piece::King } else { Piece::ALL[rand(14) as usize] };
        pos.put(sq, Some((c, piece)));
    }
    for c in 0..2 {
        for h in 0..7 {
            if rand(4) == 0 {
                pos.hands[c][h] = 1 + rand(3) as u8;
            }
        }
    }
    pos.side = if rand(2) == 0 { Color::Black } else { Color::White };
    pos
}

#[test]
fn reaches_equals_movement_offsets_on_random_positions() {
    let mut rand = xorshift(0x2545_F491_4F6C_DD1D);
    let mut reached = 0;
    for _ in 0..300 {
        let pos = random_position(&mut rand);
        for (i, j) in (0..81u8).flat_map(|i| (0..81u8).map(move |j| (i, j))) {
            let (from, to) = (Square::new(9 - i % 9, i / 9 + 1), Square::new(9 - j % 9, j / 9 + 1));
            for c in [Color::Black, Color::White] {
                for p in Piece::ALL {
                    let want = reaches_reference(&pos, from, to, c, p);
                    assert_eq!(pos.reaches(from, to, c, p), want, "{p:?} {c:?} {from:?} {to:?} in {}", pos.sfen());
                    reached += want as u32;
                }
            }
        }
    }
    assert!(reached > 100_000, "{reached}");
}

#[test]
fn has_legal_move_equals_trying_every_pair_on_random_positions() {
    let mut rand = xorshift(0xD1B5_4A32_D192_ED03);
    let (mut none, mut some) = (0, 0);
    for n in 0..4000 {
        let mut pos = random_position(&mut rand);
        // Few pieces of the side asked about, so that having no move is not rare.
        if n % 2 == 0 {
            for i in 0..81 {
                if pos.board[i] != 0 && pos.board[i] & 16 == 0 && pos.board[i] & 15 != KING_CODE && rand(4) != 0 {
                    pos.set(i, 0);
                }
            }
        }
        for c in [Color::Black, Color::White] {
            let want = has_legal_move_reference(&pos, c);
            assert_eq!(pos.has_legal_move(c), want, "{c:?} in {}", pos.sfen());
            if want {
                some += 1;
            } else {
                none += 1;
            }
        }
    }
    assert!(none > 50 && some > 1000, "{none} without a move, {some} with");
}

#[test]
fn sfen_bytes_equal_formatting_on_random_positions() {
    let mut rand = xorshift(0x853C_49E6_748F_EA9B);
    for n in 0..3000 {
        let mut pos = random_position(&mut rand);
        if n % 3 == 0 {
            // Big hands: two- and three-digit counts.
            for h in pos.hands.iter_mut().flatten() {
                *h = rand(256) as u8;
            }
        }
        let want = sfen_reference(&pos);
        assert_eq!(pos.sfen(), want);
        let mut buf = [0; SFEN_MAX];
        assert_eq!(pos.sfen_bytes(&mut buf), want.as_bytes());
        assert_eq!(format!("{pos:?}"), format!("ShogiPosition({want})"));
    }
    // The longest: every square a promoted piece, 255 of each piece in both hands.
    let mut pos = ShogiPosition::new();
    for i in 0..81 {
        pos.set(i, code(if i % 2 == 0 { Color::Black } else { Color::White }, Piece::Dragon));
    }
    pos.hands = [[255; 7]; 2];
    let mut buf = [0; SFEN_MAX];
    assert_eq!(pos.sfen_bytes(&mut buf).len(), SFEN_MAX);
    assert_eq!(pos.sfen(), sfen_reference(&pos));
}

/// The size the module docs give.
#[test]
fn position_is_104_bytes() {
    assert_eq!(std::mem::size_of::<ShogiPosition>(), 104);
}

#[test]
fn piece_codes_follow_piece_all() {
    for (i, p) in Piece::ALL.into_iter().enumerate() {
        assert_eq!(piece_index(p) as usize, i);
        assert_eq!(hand_index(p), HAND.iter().position(|&h| h == p));
    }
}

/// `play` through the references: `play_unchecked_king_reference`, then both kings looked
/// at whole, and `has_legal_move_reference` for a pawn drop that checks.
fn play_reference(pos: &ShogiPosition, m: ShogiMove) -> Result<(Played, ShogiPosition), Illegal> {
    let mut next = *pos;
    let played = play_unchecked_king_reference(&mut next, m)?;
    if next.in_check(m.color) {
        return Err(Illegal::KingInCheck);
    }
    let them = m.color.opponent();
    if m.from.is_none() && m.piece == Piece::Pawn && next.in_check(them) && !has_legal_move_reference(&next, them) {
        return Err(Illegal::PawnDropMate);
    }
    Ok((played, next))
}

/// `play` on a copy of `pos`, asserted equal to [`play_reference`]: the same answer and
/// position; a move taken back leaves every field as it was, one played keeps the king
/// squares that `put` would.
fn play_checked(pos: &ShogiPosition, m: ShogiMove) -> Result<(Played, ShogiPosition), Illegal> {
    let mut fast = *pos;
    let got = fast.play(m).map(|p| (p, fast));
    let want = play_reference(pos, m);
    assert_eq!(got, want, "{m:?} in {}", pos.sfen());
    match want {
        Err(_) => assert_eq!(
            (fast.board, fast.hands, fast.side, fast.ply, fast.kings, fast.checks),
            (pos.board, pos.hands, pos.side, pos.ply, pos.kings, pos.checks),
            "{m:?} in {}",
            pos.sfen()
        ),
        Ok((_, next)) => assert_eq!(fast.kings, next.kings, "{m:?} in {}", pos.sfen()),
    }
    want
}

/// Every move (drops of each hand kind, each piece to each square, promoted or not) tried
/// on random positions, where pawn-drop mates and moves into check are common.
#[test]
fn play_equals_reference_on_random_positions() {
    let mut rand = xorshift(0x6A09_E667_F3BC_C908);
    let mut found = [0; 3];
    for _ in 0..1500 {
        let mut pos = random_position(&mut rand);
        let c = pos.side;
        pos.hands[color_index(c)][0] = 1;
        // The opponent's king near its edge now and then, where a pawn drop can mate.
        if rand(2) == 0 {
            let sq =
                Square::new(1 + rand(9) as u8, if c == Color::Black { 1 + rand(2) as u8 } else { 8 + rand(2) as u8 });
            pos.put(sq, Some((c.opponent(), Piece::King)));
        }
        for i in 0..81u8 {
            let to = Square::new(9 - i % 9, i / 9 + 1);
            let mut tries: Vec<ShogiMove> =
                HAND.iter().map(|&piece| ShogiMove { color: c, from: None, to, piece }).collect();
            for j in 0..81u8 {
                let from = Square::new(9 - j % 9, j / 9 + 1);
                if let Some((_, p)) = pos.get(from) {
                    tries.push(ShogiMove { color: c, from: Some(from), to, piece: p });
                    tries.extend(p.promoted().map(|q| ShogiMove { color: c, from: Some(from), to, piece: q }));
                }
            }
            for m in tries {
                match play_checked(&pos, m) {
                    Ok(_) => found[0] += 1,
                    Err(Illegal::KingInCheck) => found[1] += 1,
                    Err(Illegal::PawnDropMate) => found[2] += 1,
                    Err(_) => {}
                }
            }
        }
    }
    assert!(found[0] > 10_000 && found[1] > 10_000 && found[2] > 300, "{found:?} legal, into check, pawn-drop mates");
}

/// The move-by-move play, which looks only where a move can change whether a king is
/// attacked, agrees with looking at both kings whole after every move, on random games
/// (every legal move of a position is found by trying them all) with setup now and then.
#[test]
fn play_equals_whole_board_checks_on_random_games() {
    let mut rand = xorshift(0x1234_5678_9ABC_DEF1);
    let squares: Vec<Square> = (1..=9).flat_map(|f| (1..=9).map(move |r| Square::new(f, r))).collect();
    let (mut played, mut checks) = (0, 0);
    for _ in 0..40 {
        let mut pos = ShogiPosition::startpos();
        for _ in 0..150 {
            if rand(30) == 0 {
                // Setup: a piece put or taken away somewhere.
                let sq = squares[rand(81) as usize];
                let c = if rand(2) == 0 { Color::Black } else { Color::White };
                let piece = if rand(3) == 0 { None } else { Some((c, Piece::ALL[rand(14) as usize])) };
                pos.put(sq, piece);
            }
            let c = pos.side_to_move();
            let mut legal = Vec::new();
            let drops =
                [Piece::Pawn, Piece::Lance, Piece::Knight, Piece::Silver, Piece::Gold, Piece::Bishop, Piece::Rook];
            for &to in &squares {
                let mut tries: Vec<ShogiMove> =
                    drops.iter().map(|&piece| ShogiMove { color: c, from: None, to, piece }).collect();
                for &from in &squares {
                    if let Some((o, p)) = pos.get(from) {
                        if o == c {
                            tries.push(ShogiMove { color: c, from: Some(from), to, piece: p });
                            if let Some(q) = p.promoted() {
                                tries.push(ShogiMove { color: c, from: Some(from), to, piece: q });
                            }
                        }
                    }
                }
                for m in tries {
                    if play_checked(&pos, m).is_ok() {
                        legal.push(m);
                    }
                }
            }
            let Some(&m) = legal.get(rand(legal.len().max(1) as u64) as usize) else { break };
            pos.play(m).unwrap();
            played += 1;
            checks += pos.in_check(pos.side_to_move()) as u32;
        }
    }
    assert!(played > 2000 && checks > 20, "{played} moves, {checks} checks");
}

fn mv(s: &str) -> ShogiMove {
    crate::csa::parse_move(s.as_bytes()).unwrap()
}

#[test]
fn start_sfen() {
    assert_eq!(ShogiPosition::startpos().sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -");
}

#[test]
fn basic_moves() {
    let mut p = ShogiPosition::startpos();
    assert_eq!(p.play(mv("+7776FU")), Ok(Played { captured: None, promoted: false }));
    assert_eq!(p.play(mv("+2726FU")), Err(Illegal::WrongSide));
    assert_eq!(p.play(mv("-8822KA")), Err(Illegal::NotOwnPiece));
    assert_eq!(p.play(mv("-5554FU")), Err(Illegal::NoPiece));
    assert_eq!(p.play(mv("-3334KI")), Err(Illegal::PieceMismatch));
    assert_eq!(p.play(mv("-3335FU")), Err(Illegal::BadMovement));
    assert_eq!(p.play(mv("-2233KA")), Err(Illegal::CaptureOwn));
    assert_eq!(p.play(mv("-2277KA")), Err(Illegal::BadMovement));
    p.play(mv("-3334FU")).unwrap();
    assert_eq!(p.play(mv("+8822UM")).unwrap(), Played { captured: Some(Piece::Bishop), promoted: true });
    assert_eq!(p.hand(Color::Black, Piece::Bishop), 1);
}
