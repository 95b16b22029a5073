//! The brute-force side of the position-search tests (`positions_exact.rs`,
//! `positions_swap_exact.rs`): every game of a file replayed on the library's boards, each
//! position handed over with the move played there, and Go boards as grids with their eight
//! orientations, by an implementation of the symmetries of its own (rotations by a quarter turn
//! and one reflection), independent of `kifu_index::symmetry`.

use kifu::position::go::{parse_size, ReplayOptions, Replayer};
use kifu::position::shogi::ShogiPosition;
use kifu::{Color, Event, EventSource, InfoKey, Move, Point};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// A Go board as a grid: 0 empty, 1 Black, 2 White, row by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    pub w: u8,
    pub h: u8,
    pub cells: Vec<u8>,
}

impl Grid {
    pub fn of(board: Option<&kifu::position::go::Board>, size: (u8, u8)) -> Grid {
        let (w, h) = board.map_or(size, |b| b.size());
        let mut cells = vec![0; w as usize * h as usize];
        if let Some(b) = board {
            for y in 0..h {
                for x in 0..w {
                    cells[y as usize * w as usize + x as usize] = match b.get(Point::new(x, y)) {
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                        None => 0,
                    };
                }
            }
        }
        Grid { w, h, cells }
    }

    /// A quarter turn: the point (x, y) goes to (h-1-y, x) on an h × w board.
    pub fn turn(&self) -> Grid {
        let (w, h) = (self.w as usize, self.h as usize);
        let mut cells = vec![0; w * h];
        for y in 0..h {
            for x in 0..w {
                cells[x * h + (h - 1 - y)] = self.cells[y * w + x];
            }
        }
        Grid { w: self.h, h: self.w, cells }
    }

    /// The mirror image: (x, y) goes to (w-1-x, y).
    pub fn mirror(&self) -> Grid {
        let w = self.w as usize;
        let mut cells = self.cells.clone();
        for row in cells.chunks_mut(w) {
            row.reverse();
        }
        Grid { w: self.w, h: self.h, cells }
    }

    /// The eight orientations: turns 0–3, then the mirror image turned 0–3.
    pub fn orientations(&self) -> Vec<Grid> {
        let mut out = vec![self.clone()];
        for _ in 0..3 {
            out.push(out.last().unwrap().turn());
        }
        out.push(self.mirror());
        for _ in 0..3 {
            out.push(out.last().unwrap().turn());
        }
        out
    }

    /// Where orientation `k` of [`Grid::orientations`] takes point (x, y).
    pub fn map(&self, k: usize, (mut x, mut y): (u8, u8)) -> (u8, u8) {
        let (mut w, mut h) = (self.w, self.h);
        if k >= 4 {
            x = w - 1 - x;
        }
        for _ in 0..k % 4 {
            (x, y) = (h - 1 - y, x);
            (w, h) = (h, w);
        }
        (x, y)
    }

    /// The same for all orientations: the smallest of the eight.
    pub fn canonical(&self) -> Grid {
        self.orientations().into_iter().min().unwrap()
    }

    /// SGF setup for the grid (`SZ[n]` or `SZ[w:h]`, then `AB[..]AW[..]`).
    pub fn setup(&self) -> String {
        let letter = |v: u8| (if v < 26 { b'a' + v } else { b'A' + v - 26 }) as char;
        let mut s = if self.w == self.h { format!("SZ[{}]", self.w) } else { format!("SZ[{}:{}]", self.w, self.h) };
        for (colour, prop) in [(1, "AB"), (2, "AW")] {
            let points: Vec<String> = (0..self.cells.len())
                .filter(|&i| self.cells[i] == colour)
                .map(|i| format!("[{}{}]", letter((i % self.w as usize) as u8), letter((i / self.w as usize) as u8)))
                .collect();
            if !points.is_empty() {
                s.push_str(prop);
                s.push_str(&points.concat());
            }
        }
        s
    }

    /// A number the same for all orientations: stones by colour and distance to the edges.
    pub fn signature(&self) -> u64 {
        let (w, h) = (self.w as usize, self.h as usize);
        let mut s = (w.min(h) * 1000 + w.max(h)) as u64;
        for y in 0..h {
            for x in 0..w {
                let c = self.cells[y * w + x] as u64;
                if c != 0 {
                    let (a, b) = (x.min(w - 1 - x) as u64, y.min(h - 1 - y) as u64);
                    let v = c * 1_000_003 + a.min(b) * 1009 + a.max(b);
                    s = s.wrapping_add(v.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17));
                }
            }
        }
        s
    }
}

/// A position of a game as brute force sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pos {
    Go(Grid),
    Shogi(String),
}

/// What [`replay_file`] calls for each position: game offset, move number, position, next move.
type Visit<'a> = dyn FnMut(u64, u32, &Pos, Option<Move>) + 'a;

/// Every main-line position of every game of one file: `f(offset, number, position, next)`.
pub fn replay_file(bytes: &[u8], shogi_games: &HashMap<u64, bool>, mut f: impl FnMut(u64, u32, &Pos, Option<Move>)) {
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return };
    struct Game {
        offset: u64,
        shogi: bool,
        go: Replayer,
        size: (u8, u8),
        sh: ShogiPosition,
        number: u32,
    }
    let snapshot = |g: &Game| {
        if g.shogi {
            // Board, side to move and hands (the library's SFEN has no move number).
            Pos::Shogi(g.sh.sfen())
        } else {
            Pos::Go(Grid::of(g.go.board(), g.size))
        }
    };
    let mut line = kifu::tree::MainLineTracker::new();
    let mut game: Option<Game> = None;
    let end = |game: &mut Option<Game>, f: &mut Visit| {
        if let Some(g) = game.take() {
            f(g.offset, g.number, &snapshot(&g), None);
        }
    };
    while let Some(item) = reader.next_event() {
        let ev = match item {
            Ok(ev) => ev,
            Err(_) => {
                end(&mut game, &mut f);
                line.reset();
                continue;
            }
        };
        if let Event::GameStart { offset } = ev {
            end(&mut game, &mut f);
            line.reset();
            line.feed(&ev);
            let shogi = shogi_games.get(&offset).copied().unwrap_or(false);
            game = Some(Game {
                offset,
                shogi,
                go: Replayer::new(ReplayOptions::default()),
                size: (19, 19),
                sh: ShogiPosition::new(),
                number: 0,
            });
            continue;
        }
        let Some(g) = game.as_mut() else { continue };
        if let Event::Move(m) = ev {
            if !line.on_main() {
                continue;
            }
            match (g.shogi, m) {
                (false, Move::Go { color, point }) => {
                    f(g.offset, g.number, &snapshot(g), Some(m));
                    g.number += 1;
                    g.go.play(color, point);
                }
                (true, Move::Shogi(sm)) => {
                    f(g.offset, g.number, &snapshot(g), Some(m));
                    g.number += 1;
                    let _ = g.sh.play(sm);
                }
                _ => {}
            }
            continue;
        }
        line.feed(&ev);
        if let Event::GameEnd { .. } = ev {
            end(&mut game, &mut f);
            continue;
        }
        if !line.on_main() {
            continue;
        }
        match ev {
            Event::Setup(_) | Event::Turn(_) | Event::Info(_) => {
                if let Event::Info(i) = ev {
                    if i.key() == InfoKey::BoardSize {
                        if let Some(s) = parse_size(i.value().raw()) {
                            g.size = s;
                        }
                    }
                }
                if g.shogi {
                    let _ = g.sh.apply(&ev);
                } else {
                    g.go.event(&ev);
                }
            }
            // A shogi move the reader skipped while passing its turn (a KI2 move no piece can
            // make, a move that does not read): the other side is to move.
            Event::Warning(w) if g.shogi && w.kind.passes_turn() => {
                let _ = g.sh.apply(&Event::Turn(g.sh.side_to_move().opponent()));
            }
            _ => {}
        }
    }
    end(&mut game, &mut f);
}

/// A corpus file's bytes as the readers see them (UTF-16 transcoded).
pub fn load(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    kifu::text::transcode_utf16(&bytes).unwrap_or(bytes)
}

/// The corpus indexed into a fresh folder `kifu-NAME-PID` of the temporary directory: the
/// folder, the database's path and an open connection.
pub fn index_corpus(corpus: &Path, name: &str) -> (std::path::PathBuf, std::path::PathBuf, rusqlite::Connection) {
    let dir = std::env::temp_dir().join(format!("kifu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("c.sqlite");
    kifu_index::build(&[corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    (dir, db, conn)
}

/// Every game of an index, in id order: (path, offset, shogi, moves), and the same by file
/// (path → offset → shogi), as [`replay_file`] takes them.
#[allow(clippy::type_complexity)]
pub fn indexed_games(
    conn: &rusqlite::Connection,
) -> (Vec<(String, u64, bool, u32)>, BTreeMap<String, HashMap<u64, bool>>) {
    let mut st = conn
        .prepare("SELECT f.path, g.offset, g.kind, g.moves FROM games g JOIN files f ON f.id = g.file_id ORDER BY g.id")
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)? as u64,
                r.get::<_, String>(2)? == "shogi",
                r.get::<_, i64>(3)? as u32,
            ))
        })
        .unwrap();
    let games: Vec<_> = rows.map(Result::unwrap).collect();
    let mut by_file: BTreeMap<String, HashMap<u64, bool>> = BTreeMap::new();
    for (p, o, s, _) in &games {
        by_file.entry(p.clone()).or_default().insert(*o, *s);
    }
    (games, by_file)
}
