//! Pattern search against brute force on the corpus: 50 corner, side and centre patterns
//! (3×3 to 7×7, some with `*`, some searched with colours swapped) drawn (seeded) from random Go
//! games at random move numbers; the games `find_pattern` returns, the move number where each
//! first shows the pattern and the move played there, and every count of the continuation
//! table, equal what a replay of every Go game of the corpus on the library's board finds.
//!
//! The oracle has its own orientations (quarter turns and a mirror, as positions_exact.rs) and
//! its own method: the board read point by point at every position; a placement is checked in
//! full at the start, and afterwards wherever a point changed to what the placement needs there
//! (a pattern that was absent can only appear through such a point).

mod common;

use common::rng::XorShift;
use kifu::position::go::{parse_size, ReplayOptions, Replayer};
use kifu::{Color, Event, EventSource, InfoKey, Move, Point};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Orientation `k` (0–3 quarter turns; 4–7 the mirror image turned) of a `w` × `h` board: the
/// oriented board's size, and where each point `x + w y` goes.
fn orientation(k: usize, w: u8, h: u8) -> ((u8, u8), Vec<(u8, u8)>) {
    let mut out = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h {
        for x in 0..w {
            let (mut px, mut py, mut cw, mut ch) = (x, y, w, h);
            if k >= 4 {
                px = cw - 1 - px;
            }
            for _ in 0..k % 4 {
                (px, py) = (ch - 1 - py, px);
                (cw, ch) = (ch, cw);
            }
            out.push((px, py));
        }
    }
    let dims = if k % 2 == 1 { (h, w) } else { (w, h) };
    (dims, out)
}

/// The eight orientations of a board size: forward maps and inverse maps (oriented point →
/// game point).
struct Orient {
    dims: Vec<(u8, u8)>,
    fwd: Vec<Vec<(u8, u8)>>,
    inv: Vec<Vec<(u8, u8)>>,
}

impl Orient {
    fn new(w: u8, h: u8) -> Orient {
        let (mut dims, mut fwd, mut inv) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..8 {
            let (d, f) = orientation(k, w, h);
            let mut i = vec![(0, 0); w as usize * h as usize];
            for (n, &(x, y)) in f.iter().enumerate() {
                i[x as usize + d.0 as usize * y as usize] = ((n % w as usize) as u8, (n / w as usize) as u8);
            }
            dims.push(d);
            fwd.push(f);
            inv.push(i);
        }
        Orient { dims, fwd, inv }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Corner,
    Side,
    Anywhere,
}

struct Pat {
    w: u8,
    h: u8,
    /// b'.', b'X', b'O', b'*'.
    cells: Vec<u8>,
    anchor: Anchor,
    swap: bool,
}

impl Pat {
    fn diagram(&self) -> String {
        self.cells.chunks(self.w as usize).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect::<Vec<_>>().join("/")
    }

    /// What cell `i` needs as a board value (0 empty, 1 Black, 2 White), `None` for anything.
    fn need(&self, i: usize, swap: bool) -> Option<u8> {
        match (self.cells[i], swap) {
            (b'.', _) => Some(0),
            (b'X', false) | (b'O', true) => Some(1),
            (b'O', false) | (b'X', true) => Some(2),
            _ => None,
        }
    }

    fn offset_ok(&self, (bw, bh): (u8, u8), ox: i32, oy: i32) -> bool {
        let fits = ox >= 0 && oy >= 0 && ox + self.w as i32 <= bw as i32 && oy + self.h as i32 <= bh as i32;
        fits && match self.anchor {
            Anchor::Corner => ox == 0 && oy == 0,
            Anchor::Side => oy == 0,
            Anchor::Anywhere => true,
        }
    }

    /// Whether the placement (orientation `k`, offset, swap) matches `cells` (a `w` × `h` board).
    #[allow(clippy::too_many_arguments)]
    fn matches(&self, o: &Orient, cells: &[u8], w: u8, k: usize, ox: u8, oy: u8, swap: bool) -> bool {
        let bw = o.dims[k].0 as usize;
        let ok = |i: usize| {
            let Some(need) = self.need(i, swap) else { return true };
            let (cx, cy) = (i % self.w as usize, i / self.w as usize);
            let (gx, gy) = o.inv[k][ox as usize + cx + bw * (oy as usize + cy)];
            cells[gx as usize + w as usize * gy as usize] == need
        };
        // Stones first: they fail soonest.
        (0..self.cells.len()).filter(|&i| self.cells[i] != b'.').all(ok)
            && (0..self.cells.len()).filter(|&i| self.cells[i] == b'.').all(ok)
    }

    /// Every matching placement.
    fn all_matches(&self, o: &Orient, cells: &[u8], w: u8) -> Vec<(usize, u8, u8, bool)> {
        let mut out = Vec::new();
        for k in 0..8 {
            let (bw, bh) = o.dims[k];
            for oy in 0..bh {
                for ox in 0..bw {
                    if !self.offset_ok((bw, bh), ox as i32, oy as i32) {
                        continue;
                    }
                    for swap in [false, true] {
                        if (!swap || self.swap) && self.matches(o, cells, w, k, ox, oy, swap) {
                            out.push((k, ox, oy, swap));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether a placement through game point `g` (now `state`) matches: only the cells that
    /// need `state` (`by_state`), and for a corner or side pattern only the cells where the
    /// anchor lets the point fall.
    fn any_through(
        &self,
        o: &Orient,
        cells: &[u8],
        w: u8,
        g: usize,
        state: u8,
        by_state: &[Vec<(usize, bool)>; 3],
    ) -> bool {
        for k in 0..8 {
            let (tx, ty) = o.fwd[k][g];
            if self.anchor != Anchor::Anywhere && ty >= self.h {
                continue;
            }
            if self.anchor == Anchor::Corner && tx >= self.w {
                continue;
            }
            for &(i, swap) in &by_state[state as usize] {
                let (cx, cy) = ((i % self.w as usize) as i32, (i / self.w as usize) as i32);
                let ox = tx as i32 - cx;
                let oy = ty as i32 - cy;
                if self.offset_ok(o.dims[k], ox, oy) && self.matches(o, cells, w, k, ox as u8, oy as u8, swap) {
                    return true;
                }
            }
        }
        false
    }

    /// The cells (with the colour swap) that need each state.
    fn by_state(&self) -> [Vec<(usize, bool)>; 3] {
        let mut out = [Vec::new(), Vec::new(), Vec::new()];
        for i in 0..self.cells.len() {
            for swap in [false, true] {
                if swap && !self.swap {
                    continue;
                }
                if let Some(n) = self.need(i, swap) {
                    out[n as usize].push((i, swap));
                }
            }
        }
        out
    }

    /// The continuation at a matching position (see kifu-index's pattern.rs docs).
    fn label(&self, o: &Orient, w: u8, h: u8, matches: &[(usize, u8, u8, bool)], next: Option<Move>) -> (String, bool) {
        let swapped = matches.iter().all(|m| m.3);
        let Some(Move::Go { color, point }) = next else { return ("end".into(), swapped) };
        let color = if swapped { color.opponent() } else { color };
        let c = if color == Color::Black { 'B' } else { 'W' };
        let Some(p) = point else { return (format!("{c}[]"), swapped) };
        if p.x >= w || p.y >= h {
            return (format!("{c} tenuki"), swapped);
        }
        let g = p.x as usize + w as usize * p.y as usize;
        let best = matches
            .iter()
            .filter(|m| m.3 == swapped)
            .filter_map(|&(k, ox, oy, _)| {
                let (tx, ty) = o.fwd[k][g];
                let (rx, ry) = (tx as i32 - ox as i32, ty as i32 - oy as i32);
                (rx >= 0 && ry >= 0 && rx < self.w as i32 && ry < self.h as i32).then_some((ry, rx))
            })
            .min();
        match best {
            Some((ry, rx)) => {
                (kifu_index::move_text(Some(Move::Go { color, point: Some(Point::new(rx as u8, ry as u8)) })), swapped)
            }
            None => (format!("{c} tenuki"), swapped),
        }
    }
}

/// What [`replay_file`] calls for each position: offset, number, width, height, cells, next.
type Visit<'a> = dyn FnMut(u64, u32, u8, u8, &[u8], Option<Move>) + 'a;

/// Every main-line position of every Go game of one file: `f(offset, number, w, h, cells, next)`.
fn replay_file(bytes: &[u8], go_games: &HashMap<u64, ()>, mut f: impl FnMut(u64, u32, u8, u8, &[u8], Option<Move>)) {
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return };
    struct Game {
        offset: u64,
        go: Replayer,
        size: (u8, u8),
        number: u32,
        cells: Vec<u8>,
    }
    fn snapshot(g: &mut Game) -> (u8, u8) {
        let (w, h) = g.go.board().map_or(g.size, |b| b.size());
        g.cells.clear();
        g.cells.resize(w as usize * h as usize, 0);
        if let Some(b) = g.go.board() {
            for y in 0..h {
                for x in 0..w {
                    g.cells[x as usize + w as usize * y as usize] = match b.get(Point::new(x, y)) {
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                        None => 0,
                    };
                }
            }
        }
        (w, h)
    }
    let mut line = kifu::tree::MainLineTracker::new();
    let mut game: Option<Game> = None;
    let end = |game: &mut Option<Game>, f: &mut Visit| {
        if let Some(mut g) = game.take() {
            let (w, h) = snapshot(&mut g);
            f(g.offset, g.number, w, h, &g.cells, None);
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
            if go_games.contains_key(&offset) {
                game = Some(Game {
                    offset,
                    go: Replayer::new(ReplayOptions::default()),
                    size: (19, 19),
                    number: 0,
                    cells: Vec::new(),
                });
            }
            continue;
        }
        let Some(g) = game.as_mut() else { continue };
        if let Event::Move(m) = ev {
            if !line.on_main() {
                continue;
            }
            if let Move::Go { color, point } = m {
                let (w, h) = snapshot(g);
                f(g.offset, g.number, w, h, &g.cells, Some(m));
                g.number += 1;
                g.go.play(color, point);
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
        if let Event::Setup(_) | Event::Info(_) = ev {
            if let Event::Info(i) = ev {
                if i.key() == InfoKey::BoardSize {
                    if let Some(s) = parse_size(i.value().raw()) {
                        g.size = s;
                    }
                }
            }
            g.go.event(&ev);
        }
    }
    end(&mut game, &mut f);
}

fn load(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    kifu::text::transcode_utf16(&bytes).unwrap_or(bytes)
}

/// Per pattern: (path, offset) → (first move number, continuation).
type Want = Vec<BTreeMap<(String, u64), (u32, String, bool)>>;

/// Brute force: every pattern against every position of every Go game.
fn brute_force(by_file: &BTreeMap<String, HashMap<u64, ()>>, pats: &[Pat]) -> Want {
    let mut want: Want = vec![BTreeMap::new(); pats.len()];
    let mut orients: HashMap<(u8, u8), Orient> = HashMap::new();
    for (path, games) in by_file {
        let mut current: Option<u64> = None;
        let mut prev: Vec<u8> = Vec::new();
        let mut prev_size = (0, 0);
        let mut done = vec![false; pats.len()];
        let by_state: Vec<_> = pats.iter().map(Pat::by_state).collect();
        replay_file(&load(Path::new(path)), games, |offset, number, w, h, cells, next| {
            if current != Some(offset) {
                current = Some(offset);
                done.iter_mut().for_each(|d| *d = false);
                prev_size = (0, 0);
            }
            let o = orients.entry((w, h)).or_insert_with(|| Orient::new(w, h));
            let fresh = prev_size != (w, h);
            let changed: Vec<usize> =
                if fresh { Vec::new() } else { (0..cells.len()).filter(|&g| cells[g] != prev[g]).collect() };
            for (i, p) in pats.iter().enumerate() {
                if done[i] {
                    continue;
                }
                let hit = if fresh {
                    !p.all_matches(o, cells, w).is_empty()
                } else {
                    changed.iter().any(|&g| p.any_through(o, cells, w, g, cells[g], &by_state[i]))
                };
                if hit {
                    done[i] = true;
                    let m = p.all_matches(o, cells, w);
                    assert!(!m.is_empty());
                    let (label, swapped) = p.label(o, w, h, &m, next);
                    want[i].insert((path.clone(), offset), (number, label, swapped));
                }
            }
            prev.clear();
            prev.extend_from_slice(cells);
            prev_size = (w, h);
        });
    }
    want
}

#[test]
fn patterns_equal_brute_force_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("kifu-pattern-exact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("c.sqlite");
    kifu_index::build(&[&corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();

    // Every Go game: path, offset, moves, winner.
    let mut games: Vec<(String, u64, u32, Option<String>)> = Vec::new();
    {
        let mut st = conn
            .prepare(
                "SELECT f.path, g.offset, g.moves, g.winner FROM games g JOIN files f ON f.id = g.file_id
                 WHERE g.kind = 'go' ORDER BY g.id",
            )
            .unwrap();
        let rows = st
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64, r.get::<_, i64>(2)? as u32, r.get(3)?))
            })
            .unwrap();
        games.extend(rows.map(Result::unwrap));
    }
    let winners: HashMap<(String, u64), Option<String>> =
        games.iter().map(|g| ((g.0.clone(), g.1), g.3.clone())).collect();
    let mut by_file: BTreeMap<String, HashMap<u64, ()>> = BTreeMap::new();
    for (p, o, _, _) in &games {
        by_file.entry(p.clone()).or_default().insert(*o, ());
    }

    // 50 patterns from random games at random move numbers.
    let mut rng = XorShift::new(2501);
    let mut pats = Vec::new();
    let mut sources = Vec::new();
    while pats.len() < 50 {
        let g = &games[(rng.next() % games.len() as u64) as usize];
        let number = (rng.next() % (g.2 as u64 + 1)) as u32;
        let mut grid = None;
        replay_file(&load(Path::new(&g.0)), &by_file[&g.0], |o, n, w, h, cells, _| {
            if o == g.1 && n == number && grid.is_none() {
                grid = Some((w, h, cells.to_vec()));
            }
        });
        let Some((w, h, cells)) = grid else { continue };
        let i = pats.len();
        let anchor = [Anchor::Corner, Anchor::Side, Anchor::Anywhere][i % 3];
        let k = (rng.next() % 8) as usize;
        let o = Orient::new(w, h);
        let (bw, bh) = o.dims[k];
        let (pw, ph) = (3 + (rng.next() % 5) as u8, 3 + (rng.next() % 5) as u8);
        if pw > bw || ph > bh {
            continue;
        }
        let (ox, oy) = match anchor {
            Anchor::Corner => (0, 0),
            Anchor::Side => ((rng.next() % (bw - pw + 1) as u64) as u8, 0),
            Anchor::Anywhere => ((rng.next() % (bw - pw + 1) as u64) as u8, (rng.next() % (bh - ph + 1) as u64) as u8),
        };
        let wild = i % 4 == 1;
        let mut pcells = Vec::new();
        for cy in 0..ph {
            for cx in 0..pw {
                let (gx, gy) = o.inv[k][(ox + cx) as usize + bw as usize * (oy + cy) as usize];
                let v = cells[gx as usize + w as usize * gy as usize];
                pcells.push(if wild && rng.next().is_multiple_of(4) { b'*' } else { [b'.', b'X', b'O'][v as usize] });
            }
        }
        pats.push(Pat { w: pw, h: ph, cells: pcells, anchor, swap: i % 5 == 4 });
        sources.push((g.0.clone(), g.1, number));
    }

    let want = brute_force(&by_file, &pats);

    let mut total = 0;
    for (i, p) in pats.iter().enumerate() {
        let anchor = match p.anchor {
            Anchor::Corner => kifu_index::Anchor::Corner,
            Anchor::Side => kifu_index::Anchor::Side,
            Anchor::Anywhere => kifu_index::Anchor::Anywhere,
        };
        let mut pattern = kifu_index::Pattern::from_diagram(&p.diagram(), anchor).unwrap();
        pattern.swap_colors = p.swap;
        let r = kifu_index::find_pattern(&conn, &pattern, &kifu_index::Query::default()).unwrap();
        let what = format!("pattern {i} {} {:?} swap {} from {:?}", p.diagram(), p.anchor, p.swap, sources[i]);
        let got: BTreeMap<(String, u64), (u32, String, bool)> = r
            .hits
            .iter()
            .map(|h| ((h.hit.path.clone(), h.hit.offset as u64), (h.number, h.next.text(), h.swapped)))
            .collect();
        assert_eq!(got.len(), want[i].len(), "{what}");
        assert_eq!(got, want[i], "{what}");
        let (path, offset, number) = &sources[i];
        let own = got.get(&(path.clone(), *offset)).unwrap_or_else(|| panic!("{what}: its own game"));
        assert!(own.0 <= *number, "{what}");
        // The continuation table, counted from the brute force's answers.
        let mut counts: BTreeMap<String, (u64, u64, u64, u64)> = BTreeMap::new();
        for (key, (_, label, swapped)) in &want[i] {
            let c = counts.entry(label.clone()).or_default();
            c.0 += 1;
            let w = winners[key].as_deref();
            let w = match (w, swapped) {
                (Some("B"), false) | (Some("W"), true) => "B",
                (Some("W"), false) | (Some("B"), true) => "W",
                (Some("draw"), _) => "draw",
                _ => "",
            };
            c.1 += (w == "B") as u64;
            c.2 += (w == "W") as u64;
            c.3 += (w == "draw") as u64;
        }
        let table: BTreeMap<String, (u64, u64, u64, u64)> =
            r.moves.iter().map(|c| (c.next.text(), (c.games, c.black_wins, c.white_wins, c.draws))).collect();
        assert_eq!(table, counts, "{what}");
        assert_eq!(r.games, want[i].len() as u64);
        total += want[i].len();
        println!("{what}: {} games", want[i].len());
    }
    assert!(total > 50);
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}
