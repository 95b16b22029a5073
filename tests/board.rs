//! The Go board: hand-written cases for each rule, and the replay of the SGF corpus.

mod common;

use kifu::position::go::{parse_size, replay, Board, IllegalKind, Replay, ReplayOptions, Replayer, Rules};
use kifu::{Color, Point};
use kifu::{Event, EventSource};

const B: Color = Color::Black;
const W: Color = Color::White;

/// A board from rows of `.`, `X` (black) and `O` (white), top row first.
fn board(rows: &[&str]) -> Board {
    let (w, h) = (rows[0].len() as u8, rows.len() as u8);
    let mut b = Board::new(w, h).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            let colour = match c {
                b'X' => Some(B),
                b'O' => Some(W),
                _ => None,
            };
            if colour.is_some() {
                assert!(b.set(Point::new(x as u8, y as u8), colour));
            }
        }
    }
    b
}

fn rows(b: &Board) -> Vec<String> {
    let (w, h) = b.size();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| match b.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

fn p(x: u8, y: u8) -> Option<Point> {
    Some(Point::new(x, y))
}

#[test]
fn single_capture_in_the_middle_and_on_edges() {
    // Middle of a 19×19 board.
    let mut b = Board::new(19, 19).unwrap();
    for (c, x, y) in [(W, 9, 9), (B, 8, 9), (B, 10, 9), (B, 9, 8)] {
        b.play(c, p(x, y)).unwrap();
    }
    assert_eq!(b.play(B, p(9, 10)).unwrap().captured, 1);
    assert_eq!(b.get(Point::new(9, 9)), None);
    assert_eq!(b.captures(B), 1);
    // Edge of a 13×13 board: two liberties suffice.
    let mut b = Board::new(13, 13).unwrap();
    b.play(W, p(6, 0)).unwrap();
    b.play(B, p(5, 0)).unwrap();
    b.play(B, p(7, 0)).unwrap();
    assert_eq!(b.play(B, p(6, 1)).unwrap().captured, 1);
    // Corner of a 9×9 board (bottom right).
    let mut b = Board::new(9, 9).unwrap();
    b.play(W, p(8, 8)).unwrap();
    b.play(B, p(7, 8)).unwrap();
    assert_eq!(b.play(B, p(8, 7)).unwrap().captured, 1);
    assert_eq!(b.stones(), (2, 0));
}

#[test]
fn multi_stone_captures_and_two_groups_at_once() {
    let mut b = board(&[
        ".XXX.", //
        "XOOOX", //
        "XO.OX", //
        "XOOOX", //
        ".XXX.",
    ]);
    // The white ring has one liberty, in its eye.
    let played = b.play(B, p(2, 2)).unwrap();
    assert_eq!(played.captured, 8);
    assert_eq!(rows(&b)[2], "X.X.X");
}

/// `Board::removed` lists what the last move took, group by group in the order of the move's
/// neighbours (left, right, above, below), each group from the stone next to the move; a pass,
/// an illegal move and a quiet move list nothing; setup leaves the list alone.
#[test]
fn removed_lists_the_stones_the_last_move_took() {
    let at = |v: &[(u8, u8)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
    let mut b = board(&[
        "XO.OX", //
        ".XOX.", //
        "..X..",
    ]);
    b.play(B, p(2, 0)).unwrap();
    assert_eq!(b.removed().collect::<Vec<_>>(), at(&[(1, 0), (3, 0), (2, 1)]));
    b.set(Point::new(4, 2), Some(W));
    assert_eq!(b.removed().len(), 3, "setup is not a move");
    b.play(W, None).unwrap();
    assert_eq!(b.removed().len(), 0, "a pass");
    b.play(B, p(2, 1)).unwrap();
    assert_eq!(b.removed().len(), 0, "a quiet move");
    // A group: the stone next to the move first, then the rest as they are reached.
    let mut b = board(&[".XXX.", "XOOOX", "XO.OX", "XOOOX", ".XXX."]);
    b.play(B, p(2, 2)).unwrap();
    let got = b.removed().collect::<Vec<_>>();
    assert_eq!((got.len(), got[0]), (8, Point::new(1, 2)));
    assert!(b.play(W, p(2, 2)).is_err());
    assert_eq!(b.removed().len(), 0, "an illegal move");
    // An allowed suicide lists the mover's own group, the move's point first.
    let mut b = board(&[".OX", "OOX", "XX."]);
    b.set_rules(Rules { allow_suicide: true });
    b.play(W, p(0, 0)).unwrap();
    assert_eq!(b.removed().collect::<Vec<_>>(), at(&[(0, 0), (1, 0), (0, 1), (1, 1)]));
    assert!(b.reset(3, 3, Rules::default()));
    assert_eq!(b.removed().len(), 0, "reset");
}

#[test]
fn two_groups_captured_by_one_move() {
    let mut b = board(&[
        "XO.OX", //
        ".XOX.", //
        "..X..",
    ]);
    // Three white groups whose last liberty is (2,0).
    let played = b.play(B, p(2, 0)).unwrap();
    assert_eq!(played.captured, 3);
    assert_eq!(rows(&b), ["X.X.X", ".X.X.", "..X.."]);
}

#[test]
fn suicide_is_rejected_by_default_and_allowed_when_the_rules_say() {
    let rows_ = [".X.", "X..", "..."];
    let mut b = board(&rows_);
    let hash = b.hash();
    assert_eq!(b.play(W, p(0, 0)), Err(IllegalKind::Suicide));
    assert_eq!(b.get(Point::new(0, 0)), None);
    assert_eq!(b.hash(), hash, "an illegal move leaves the board as it was");
    // Multi-stone suicide, allowed: the group is removed and counted for the opponent.
    let mut b = board(&[".OX", "OOX", "XX."]);
    b.set_rules(Rules { allow_suicide: true });
    let played = b.play(W, p(0, 0)).unwrap();
    assert_eq!((played.captured, played.suicided), (0, 4));
    assert_eq!(b.captures(B), 4);
    assert_eq!(rows(&b), ["..X", "..X", "XX."]);
    // Not a suicide when it captures.
    let mut b = board(&[".XO", "XO.", "O.."]);
    assert_eq!(b.play(W, p(0, 0)).unwrap().captured, 2);
    assert_eq!(Rules::from_name("NZ"), Rules { allow_suicide: true });
    assert_eq!(Rules::from_name("Tromp-Taylor"), Rules { allow_suicide: true });
    assert_eq!(Rules::from_name("koSIMPLEscoreAREAtaxNONEsui1"), Rules { allow_suicide: false });
    assert_eq!(Rules::from_name("koPOSITIONALscoreAREAsuicidetrue"), Rules { allow_suicide: true });
    assert_eq!(Rules::from_name("Japanese"), Rules { allow_suicide: false });
    assert_eq!(Rules::from_name("Chinese"), Rules { allow_suicide: false });
}

#[test]
fn simple_ko() {
    // . X O .
    // X O . O
    // . X O .
    let mut b = board(&[".XO.", "XO.O", ".XO.", "...."]);
    // Black takes the ko at (2,1), capturing (1,1).
    assert_eq!(b.play(B, p(2, 1)).unwrap().captured, 1);
    assert_eq!(b.ko(), Some((Point::new(1, 1), W)));
    // White may not retake at once.
    assert_eq!(b.play(W, p(1, 1)), Err(IllegalKind::Ko));
    // A ko threat elsewhere, an answer, then the retake is legal.
    b.play(W, p(3, 3)).unwrap();
    assert_eq!(b.ko(), None);
    b.play(B, p(0, 3)).unwrap();
    assert_eq!(b.play(W, p(1, 1)).unwrap().captured, 1);
    assert_eq!(b.ko(), Some((Point::new(2, 1), B)));
    // A pass also ends the ko.
    b.play(B, None).unwrap();
    assert_eq!(b.ko(), None);
    // Capturing two stones is not a ko.
    let mut b = board(&["XOO.", ".XOX", "..X.", "...."]);
    assert_eq!(b.play(B, p(3, 0)).unwrap().captured, 3);
    assert_eq!(b.ko(), None);
}

#[test]
fn setup_over_stones_and_passes() {
    let mut b = board(&["XO.", "...", "..."]);
    assert!(b.set(Point::new(0, 0), Some(W)));
    assert!(b.set(Point::new(1, 0), None));
    assert!(!b.set(Point::new(3, 0), Some(B)), "off the board");
    assert_eq!(rows(&b)[0], "O..");
    // Setup does not capture: a surrounded setup stone stays.
    let mut b = board(&[".X.", "X..", "..."]);
    b.set(Point::new(0, 0), Some(W));
    assert_eq!(b.get(Point::new(0, 0)), Some(W));
    // Passes change nothing.
    let h = b.hash();
    b.play(B, None).unwrap();
    b.play(W, None).unwrap();
    assert_eq!(b.hash(), h);
    // Occupied and off-board moves.
    assert_eq!(b.play(B, p(0, 0)), Err(IllegalKind::Occupied));
    assert_eq!(b.play(B, p(0, 3)), Err(IllegalKind::OffBoard));
}

#[test]
fn non_square_boards_and_sizes() {
    let mut b = Board::new(5, 2).unwrap();
    b.play(W, p(4, 1)).unwrap();
    b.play(B, p(3, 1)).unwrap();
    assert_eq!(b.play(B, p(4, 0)).unwrap().captured, 1);
    assert_eq!(b.play(B, p(5, 0)), Err(IllegalKind::OffBoard));
    assert_eq!(b.play(B, p(0, 2)), Err(IllegalKind::OffBoard));
    let mut b = Board::new(52, 1).unwrap();
    b.play(W, p(51, 0)).unwrap();
    assert_eq!(b.play(B, p(50, 0)).unwrap().captured, 1);
    assert!(Board::new(53, 19).is_none() && Board::new(0, 9).is_none());
    assert_eq!(parse_size(b"19"), Some((19, 19)));
    assert_eq!(parse_size(b" 19 : 13 "), Some((19, 13)));
    assert_eq!(parse_size(b"53"), None);
    assert_eq!(parse_size(b"x"), None);
}

#[test]
fn zobrist_hash_depends_on_the_position_only() {
    let mut a = Board::new(9, 9).unwrap();
    let mut b = Board::new(9, 9).unwrap();
    a.play(B, p(2, 2)).unwrap();
    a.play(W, p(6, 6)).unwrap();
    b.play(W, p(6, 6)).unwrap();
    b.play(B, p(2, 2)).unwrap();
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), Board::new(9, 9).unwrap().hash());
    assert_ne!(Board::new(9, 9).unwrap().hash(), Board::new(13, 13).unwrap().hash());
    // A capture restores the hash of the position without the captured stone.
    let mut c = board(&[".X.", "X..", "..."]);
    let before = c.hash();
    c.set(Point::new(2, 2), Some(W));
    c.set(Point::new(2, 2), None);
    assert_eq!(c.hash(), before);
}

#[test]
fn replay_reports_illegal_moves_with_offsets() {
    let sgf = b"(;SZ[5]AB[aa][ba]AW[ab];W[aa];B[bb];W[ab];B[cc];B[](;W[dd])(;W[ee]))";
    let mut r = kifu::sgf::Reader::new(sgf);
    let out = replay(&mut r, &ReplayOptions::default()).unwrap().unwrap();
    assert_eq!(out.size, (5, 5));
    assert_eq!(out.setup, 3);
    assert_eq!((out.moves, out.passes), (6, 1));
    assert_eq!(out.illegal.len(), 2);
    assert_eq!(out.illegal[0].kind, IllegalKind::Occupied);
    assert_eq!(out.illegal[0].number, 1);
    assert_eq!(out.illegal[0].offset, Some(25));
    assert_eq!(&sgf[25..29], b"[aa]");
    assert_eq!(out.illegal[1].kind, IllegalKind::Occupied);
    assert!(replay(&mut r, &ReplayOptions::default()).unwrap().is_none());
    // Suicide follows RU unless the options say otherwise.
    let sgf = b"(;SZ[3]RU[NZ]AB[ba][ab];W[aa])";
    let out = replay(&mut kifu::sgf::Reader::new(sgf), &ReplayOptions::default()).unwrap().unwrap();
    assert!(out.illegal.is_empty());
    assert_eq!(out.captures, (1, 0));
    let strict = ReplayOptions { rules: Some(Rules::default()), record_hashes: true };
    let out = replay(&mut kifu::sgf::Reader::new(sgf), &strict).unwrap().unwrap();
    assert_eq!(out.illegal[0].kind, IllegalKind::Suicide);
    assert_eq!(out.hashes.len(), 1);
    // SZ after the setup stones (GoGui's size-after-points files).
    let sgf = b"(;AB[aa][ii]SZ[9];W[ba])";
    let out = replay(&mut kifu::sgf::Reader::new(sgf), &ReplayOptions::default()).unwrap().unwrap();
    assert_eq!(out.size, (9, 9));
    assert!(out.illegal.is_empty());
}

/// Replays every game of sgf/real-ai and sgf/collections; prints every illegal move found.
/// Replays every game of `bytes` along its main line on `r`, one game after another
/// ([`Replayer::finish_game`] keeps the board), as [`replay`] does with a new replayer per game.
fn replay_reusing(r: &mut Replayer, bytes: &[u8]) -> Vec<Replay> {
    let mut main = kifu::tree::MainLine::new(kifu::sgf::Reader::new(bytes));
    let mut out = Vec::new();
    while let Some(item) = main.next_event() {
        let ev = item.unwrap();
        let end = matches!(ev, Event::GameEnd { .. });
        if r.event(&ev) {
            r.set_offset(main.event_offset());
        }
        if end {
            out.push(r.finish_game());
        }
    }
    out
}

/// The SGF corpus replays without surprises, and one replayer reused for all its games (boards
/// of every size one after another, reset instead of made anew) gives for each game exactly what
/// a new replayer gives: moves, illegal moves, captures, hash.
#[test]
fn corpus_replay_reports_illegal_moves() {
    let mut games = 0;
    let mut found = Vec::new();
    let mut reused = Replayer::new(ReplayOptions::default());
    let mut sizes = std::collections::BTreeSet::new();
    for sub in ["sgf/real-ai", "sgf/collections"] {
        let Some(dir) = common::corpus_dir(sub) else { return };
        for path in common::files(&dir, &[".sgf"]) {
            let bytes = std::fs::read(&path).unwrap();
            let mut r = kifu::sgf::Reader::new(&bytes);
            let mut lines = kifu::LineIndex::new();
            let mut fresh = Vec::new();
            while let Some(g) = replay(&mut r, &ReplayOptions::default()).unwrap() {
                fresh.push(g.clone());
                sizes.insert(g.size);
                games += 1;
                for m in &g.illegal {
                    let off = m.offset.unwrap();
                    let pos = lines.locate(&bytes, off);
                    let name = path.strip_prefix(&dir).unwrap().display().to_string();
                    found.push(format!(
                        "{sub}/{name}:{pos} move {} {:?} {} {}",
                        m.number,
                        m.color,
                        String::from_utf8_lossy(&kifu::sgf::props::point_letters(m.point).unwrap()),
                        m.kind.as_str()
                    ));
                }
            }
            assert_eq!(replay_reusing(&mut reused, &bytes), fresh, "{}", path.display());
        }
    }
    eprintln!("replayed {games} games; {} illegal moves:", found.len());
    for f in &found {
        eprintln!("  {f}");
    }
    assert!(games > 18_000);
    // Boards of other sizes (9, 13, 4, 7, 19) between the same reused replayer's games.
    let mut compared = 0;
    for sub in ["sgf/gnugo-sources", "sgf/edge"] {
        let Some(dir) = common::corpus_dir(sub) else { return };
        for path in common::files(&dir, &[".sgf"]) {
            let bytes = std::fs::read(&path).unwrap();
            let mut r = kifu::sgf::Reader::new(&bytes);
            let mut fresh = Vec::new();
            // Files with errors (some edge cases) are left out: `replay_reusing` unwraps.
            let Ok(()) = (|| {
                while let Some(g) = replay(&mut r, &ReplayOptions::default())? {
                    fresh.push(g);
                }
                Ok::<_, kifu::Error>(())
            })() else {
                continue;
            };
            sizes.extend(fresh.iter().map(|g| g.size));
            compared += fresh.len();
            assert_eq!(replay_reusing(&mut reused, &bytes), fresh, "{}", path.display());
        }
    }
    assert!(compared > 100 && sizes.len() >= 4, "{compared} {sizes:?}");
}

/// A deliberately plain board for the differential test below: no border, no hash, no scratch
/// reuse; every question answered by a fresh flood fill, and an illegal move undone by
/// restoring a copy.
#[derive(Clone)]
struct Reference {
    w: usize,
    h: usize,
    cells: Vec<Option<Color>>,
    captures: [u32; 2],
    ko: Option<(usize, Color)>,
    allow_suicide: bool,
}

impl Reference {
    fn new(w: u8, h: u8, allow_suicide: bool) -> Reference {
        let (w, h) = (w as usize, h as usize);
        Reference { w, h, cells: vec![None; w * h], captures: [0, 0], ko: None, allow_suicide }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.w, i / self.w);
        let mut v = Vec::new();
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.w {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - self.w);
        }
        if y + 1 < self.h {
            v.push(i + self.w);
        }
        v
    }

    /// The group at `i` and whether it has a liberty.
    fn group(&self, i: usize) -> (Vec<usize>, bool) {
        let c = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut group = Vec::new();
        let mut libs = false;
        seen[i] = true;
        while let Some(j) = stack.pop() {
            group.push(j);
            for n in self.neighbours(j) {
                if self.cells[n].is_none() {
                    libs = true;
                } else if self.cells[n] == c && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (group, libs)
    }

    fn play(&mut self, color: Color, x: u8, y: u8) -> Result<(u32, u32), IllegalKind> {
        let i = y as usize * self.w + x as usize;
        if self.cells[i].is_some() {
            return Err(IllegalKind::Occupied);
        }
        if self.ko == Some((i, color)) {
            return Err(IllegalKind::Ko);
        }
        let them = if color == B { W } else { B };
        let before = self.clone();
        self.cells[i] = Some(color);
        let mut captured = 0;
        let mut last = 0;
        for n in self.neighbours(i) {
            if self.cells[n] == Some(them) {
                let (g, libs) = self.group(n);
                if !libs {
                    last = n;
                    captured += g.len() as u32;
                    for s in g {
                        self.cells[s] = None;
                    }
                }
            }
        }
        let mut suicided = 0;
        let (own, libs) = self.group(i);
        if !libs {
            if !self.allow_suicide {
                *self = before;
                return Err(IllegalKind::Suicide);
            }
            suicided = own.len() as u32;
            for s in own {
                self.cells[s] = None;
            }
            self.captures[(color == B) as usize] += suicided;
        }
        self.captures[(color == W) as usize] += captured;
        self.ko = None;
        if captured == 1 && suicided == 0 {
            let ns = self.neighbours(i);
            let lone = ns.iter().all(|&n| self.cells[n] != Some(color));
            let empty = ns.iter().filter(|&&n| self.cells[n].is_none()).count();
            if lone && empty == 1 {
                self.ko = Some((last, them));
            }
        }
        Ok((captured, suicided))
    }
}

/// Random games on boards from 1×1 to 19×19, with setup mixed in and suicide allowed or not:
/// the board's every answer, stone, capture count and ko point equal the plain reference's, its
/// hash after every move equals the hash of a board set up from scratch with the reference's
/// stones, and `is_legal` on a random point agrees with the reference.
#[test]
fn random_games_equal_the_flood_fill_reference() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut moves = 0;
    let mut hashes = 0;
    let mut reused = Board::new(19, 19).unwrap();
    assert!(!reused.reset(0, 5, Rules::default()) && !reused.reset(5, 53, Rules::default()));
    assert_eq!(reused.size(), (19, 19));
    for game in 0..600 {
        let (w, h) = if game % 3 == 0 { (19, 19) } else { (1 + rand(7) as u8, 1 + rand(7) as u8) };
        let allow = game % 2 == 1;
        let mut b = Board::with_rules(w, h, Rules { allow_suicide: allow }).unwrap();
        // The same game on a board kept from the earlier games, reset.
        assert!(reused.reset(w, h, Rules { allow_suicide: allow }));
        assert_eq!((reused.hash(), reused.size(), reused.stones(), reused.ko()), (b.hash(), (w, h), (0, 0), None));
        assert_eq!((reused.captures(B), reused.captures(W), reused.rules()), (0, 0, b.rules()));
        let mut r = Reference::new(w, h, allow);
        let length = rand(4 * w as u64 * h as u64 + 10);
        for step in 0..length {
            let (x, y) = (rand(w as u64) as u8, rand(h as u64) as u8);
            let color = if rand(2) == 0 { B } else { W };
            if rand(40) == 0 {
                // Setup: a stone or an empty point, anywhere, with no captures.
                let c = if rand(3) == 0 { None } else { Some(color) };
                b.set(Point::new(x, y), c);
                reused.set(Point::new(x, y), c);
                r.cells[y as usize * w as usize + x as usize] = c;
                r.ko = None;
                continue;
            }
            let before = r.cells.clone();
            let got = b.play(color, p(x, y)).map(|pl| (pl.captured, pl.suicided));
            let want = r.play(color, x, y);
            assert_eq!(got, want, "game {game} step {step} {color:?} at ({x},{y}) on {w}x{h}");
            // `removed` lists each stone the move took once: those gone since, and the move's
            // own point after a suicide.
            let mut gone: Vec<usize> =
                (0..before.len()).filter(|&j| before[j].is_some() && r.cells[j].is_none()).collect();
            if matches!(got, Ok((_, s)) if s > 0) {
                gone.push(y as usize * w as usize + x as usize);
            }
            let mut listed: Vec<usize> = b.removed().map(|q| q.y as usize * w as usize + q.x as usize).collect();
            assert_eq!(listed.len(), got.map_or(0, |(c, s)| (c + s) as usize), "game {game} step {step}");
            listed.sort_unstable();
            gone.sort_unstable();
            assert_eq!(listed, gone, "game {game} step {step}");
            assert_eq!(reused.play(color, p(x, y)).map(|pl| (pl.captured, pl.suicided)), got);
            assert_eq!((reused.hash(), reused.ko()), (b.hash(), b.ko()), "game {game} step {step}");
            moves += 1;
            let ko = b.ko().map(|(pt, c)| (pt.y as usize * w as usize + pt.x as usize, c));
            assert_eq!(ko, r.ko, "game {game} step {step}");
            assert_eq!((b.captures(B), b.captures(W)), (r.captures[0], r.captures[1]));
            // The same stones set up from scratch hash alike: the chains never drift from them.
            let mut fresh = Board::new(w, h).unwrap();
            for (j, &c) in r.cells.iter().enumerate() {
                if c.is_some() {
                    fresh.set(Point::new((j % w as usize) as u8, (j / w as usize) as u8), c);
                }
            }
            assert_eq!(b.hash(), fresh.hash(), "game {game} step {step}");
            hashes += 1;
            // is_legal agrees with play on a random point, without changing the board.
            let (qx, qy) = (rand(w as u64) as u8, rand(h as u64) as u8);
            let qc = if rand(2) == 0 { B } else { W };
            let mut copy = r.clone();
            assert_eq!(b.is_legal(qc, p(qx, qy)), copy.play(qc, qx, qy).map(|_| ()), "game {game} step {step}");
        }
        let mut fresh = Board::new(w, h).unwrap();
        for y in 0..h {
            for x in 0..w {
                let c = r.cells[y as usize * w as usize + x as usize];
                assert_eq!(b.get(Point::new(x, y)), c, "game {game} at ({x},{y})");
                if c.is_some() {
                    fresh.set(Point::new(x, y), c);
                }
            }
        }
        assert_eq!(b.hash(), fresh.hash(), "game {game}");
        assert_eq!(
            (reused.stones(), reused.captures(B), reused.captures(W)),
            (b.stones(), b.captures(B), b.captures(W))
        );
    }
    assert!(moves > 30_000, "{moves}");
    assert_eq!(hashes, moves);
}

/// `Replayer::play_all` gives what `Replayer::play` move by move gives: counts, passes, illegal
/// moves with their numbers, captures, hash, and the hashes after each move when recorded.
#[test]
fn play_all_equals_play_one_by_one() {
    let moves = [
        (B, p(1, 0)),
        (W, p(0, 0)),
        (B, p(1, 0)), // occupied
        (B, p(0, 1)), // captures aa
        (W, None),
        (W, p(7, 7)), // off a 5×5 board
        (W, p(0, 0)), // suicide
        (B, p(2, 2)),
    ];
    for record_hashes in [false, true] {
        let options = ReplayOptions { record_hashes, ..Default::default() };
        let mut one = Replayer::new(options);
        let mut all = Replayer::new(options);
        for r in [&mut one, &mut all] {
            r.set_size(Some((5, 5)));
        }
        let illegal: usize = moves.iter().map(|&(c, pt)| one.play(c, pt) as usize).sum();
        let (a, b) = moves.split_at(3);
        let counted =
            all.play_all(std::iter::empty()) + all.play_all(a.iter().copied()) + all.play_all(b.iter().copied());
        assert_eq!((counted, illegal), (8, 3));
        let (one, all) = (one.finish(), all.finish());
        assert_eq!((all.moves, all.passes, all.captures, all.illegal.len()), (8, 1, (1, 0), 3));
        assert_eq!(all.illegal.iter().map(|m| m.number).collect::<Vec<_>>(), [3, 6, 7]);
        assert_eq!(all.hashes.len(), if record_hashes { 8 } else { 0 });
        assert_eq!(all, one);
    }
}
