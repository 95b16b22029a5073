//! Position search with the twin (`--swap-colors` for Go, `--mirror` for shogi) against brute
//! force on the corpus, as `positions_exact.rs` does it without: 200 positions drawn (seeded)
//! from random games at random move numbers, Go and shogi, half of them queried as they are and
//! half as their twin (the colour-swapped stones, or the mirrored SFEN, made by this test: so
//! the game they came from is met through the twin); the games `find_position` returns, where
//! each first reaches the position or its twin, which of the two, and the move it played there
//! turned back into the query's terms, and every count of `explore`, equal what a replay of
//! every game of the corpus on the library's boards finds (Go: all eight orientations of the
//! position and of its colour swap; shogi: the SFEN and its mirror image). Then hand-written
//! cases: a game and its colour-swapped copy, a shogi game and its mirrored copy, positions
//! that are their own twin, a game through both the position and its twin.

mod common;

use common::brute::{index_corpus, indexed_games, load, replay_file, Grid, Pos};
use common::rng::XorShift;
use kifu::{Move, Point, ShogiMove, Square};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The same stones with Black and White exchanged.
fn swap(g: &Grid) -> Grid {
    let cells = g.cells.iter().map(|&c| [0, 2, 1][c as usize]).collect();
    Grid { w: g.w, h: g.h, cells }
}

/// An SFEN's board mirrored left to right: each rank's pieces (`+P`, `p`) and runs of empty
/// squares in reverse order; side to move and hands as they are.
fn mirror_sfen(sfen: &str) -> String {
    let (board, rest) = sfen.split_once(' ').unwrap_or((sfen, ""));
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut tokens: Vec<String> = Vec::new();
            let mut promoted = false;
            for c in rank.chars() {
                if c == '+' {
                    promoted = true;
                    continue;
                }
                tokens.push(if promoted { format!("+{c}") } else { c.to_string() });
                promoted = false;
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

/// A shogi move mirrored left to right (file f to 10 - f).
fn mirror_move(m: Option<Move>) -> Option<Move> {
    let sq = |s: Square| Square::new(10 - s.file, s.rank);
    m.map(|m| match m {
        Move::Shogi(s) => Move::Shogi(ShogiMove { from: s.from.map(sq), to: sq(s.to), ..s }),
        other => other,
    })
}

/// The point a Go move reaches through orientation `k` of `from` (the game's board), then the
/// first of the points the query's own symmetries (`stab`, orientations of `q` equal to it)
/// take it to, in SGF order; with the other colour when `swapped`.
fn orient(m: Move, from: &Grid, k: usize, q: &Grid, stab: &[usize], swapped: bool) -> String {
    let Move::Go { color, point } = m else { unreachable!() };
    let point = point.map(|p| {
        if p.x >= from.w || p.y >= from.h {
            return Point::new(52, 52);
        }
        let t = from.map(k, (p.x, p.y));
        let best = stab.iter().map(|&u| q.map(u, t)).min_by_key(|&(x, y)| (y, x)).unwrap();
        Point::new(best.0, best.1)
    });
    let color = if swapped { color.opponent() } else { color };
    kifu_index::move_text(Some(Move::Go { color, point }))
}

/// What brute force finds of a query in one game: the move number, the move played there (in
/// the query's terms) and whether it was the twin.
type Found = (u32, String, bool);

#[test]
fn twins_equal_brute_force_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let (dir, db, conn) = index_corpus(&corpus, "positions-swap-exact");
    let (games, by_file) = indexed_games(&conn);

    // 200 positions: 150 from Go games, 50 from shogi games, at random move numbers; every
    // other one queried as its twin.
    let mut rng = XorShift::new(2525);
    let go_games: Vec<_> = games.iter().filter(|g| !g.2).collect();
    let shogi_games: Vec<_> = games.iter().filter(|g| g.2).collect();
    let mut picks = Vec::new();
    for i in 0..200 {
        let pool = if i < 150 { &go_games } else { &shogi_games };
        let g = pool[(rng.next() % pool.len() as u64) as usize];
        let number = (rng.next() % (g.3 as u64 + 1)) as u32;
        picks.push((g.0.clone(), g.1, number, i % 2 == 1));
    }

    // The queried positions and their twins, by brute force.
    let mut queries: Vec<(Pos, Pos)> = Vec::new();
    for (path, offset, number, as_twin) in &picks {
        let mut found = None;
        replay_file(&load(Path::new(path)), &by_file[path], |o, n, pos, _| {
            if o == *offset && n == *number && found.is_none() {
                found = Some(pos.clone());
            }
        });
        let pos = found.unwrap_or_else(|| panic!("{path}@{offset}#{number}: no such position"));
        let twin = match &pos {
            Pos::Go(g) => Pos::Go(swap(g)),
            Pos::Shogi(s) => Pos::Shogi(mirror_sfen(s)),
        };
        queries.push(if *as_twin { (twin, pos) } else { (pos, twin) });
    }
    let mut by_sig: HashMap<u64, Vec<(usize, bool)>> = HashMap::new();
    let mut by_sfen: HashMap<String, Vec<(usize, bool)>> = HashMap::new();
    let mut stabs: Vec<Vec<usize>> = Vec::new();
    for (i, (q, t)) in queries.iter().enumerate() {
        for (p, is_twin) in [(q, false), (t, true)] {
            match p {
                Pos::Go(g) => by_sig.entry(g.signature()).or_default().push((i, is_twin)),
                Pos::Shogi(s) => by_sfen.entry(s.clone()).or_default().push((i, is_twin)),
            }
        }
        stabs.push(match q {
            Pos::Go(g) => {
                let o = g.orientations();
                (0..8).filter(|&k| o[k] == *g).collect()
            }
            Pos::Shogi(_) => vec![0],
        });
    }

    // Brute force: per query, each game's first time at the position or its twin (the
    // position first at the same move).
    let mut want: Vec<BTreeMap<(String, u64), Found>> = vec![BTreeMap::new(); queries.len()];
    for (path, kinds) in &by_file {
        replay_file(&load(Path::new(path)), kinds, |offset, number, pos, next| {
            let mut hits: Vec<(usize, bool, String)> = match pos {
                Pos::Shogi(s) => by_sfen.get(s).map_or(Vec::new(), |qs| {
                    qs.iter()
                        .map(|&(i, t)| (i, t, kifu_index::move_text(if t { mirror_move(next) } else { next })))
                        .collect()
                }),
                Pos::Go(g) => {
                    let Some(qs) = by_sig.get(&g.signature()) else { return };
                    let o = g.orientations();
                    qs.iter()
                        .filter_map(|&(i, t)| {
                            let (q, tw) = &queries[i];
                            let Pos::Go(target) = (if t { tw } else { q }) else { unreachable!() };
                            let k = (0..8).find(|&k| o[k] == *target)?;
                            let text = match next {
                                None => kifu_index::move_text(None),
                                Some(m) => orient(m, g, k, target, &stabs[i], t),
                            };
                            Some((i, t, text))
                        })
                        .collect()
                }
            };
            hits.sort_by_key(|h| (h.0, h.1));
            for (i, t, text) in hits {
                want[i].entry((path.clone(), offset)).or_insert((number, text, t));
            }
        });
    }

    // The index's answers.
    let mut bytes_cache: HashMap<String, Vec<u8>> = HashMap::new();
    let (mut twin_hits, mut twin_queries_met) = (0, 0);
    for (i, (path, offset, number, as_twin)) in picks.iter().enumerate() {
        let pos = match (&queries[i].0, as_twin) {
            (Pos::Go(g), true) => kifu_index::Position::from_sgf_setup(&g.setup()).unwrap(),
            (Pos::Shogi(s), true) => kifu_index::Position::from_sfen(s).unwrap(),
            _ => {
                let bytes = bytes_cache.entry(path.clone()).or_insert_with(|| load(Path::new(path)));
                kifu_index::Position::from_game(bytes, *offset, *number).unwrap()
            }
        };
        let pos = pos.also_twin();
        let what = format!("{path}@{offset}#{number}{}", if *as_twin { " (its twin)" } else { "" });
        let hits = kifu_index::find_position(&conn, &db, &pos, &kifu_index::Query::default()).unwrap();
        let got: BTreeMap<(String, u64), Found> = hits
            .iter()
            .map(|h| ((h.hit.path.clone(), h.hit.offset as u64), (h.number, kifu_index::move_text(h.next), h.twin)))
            .collect();
        assert_eq!(got, want[i], "{what}");
        let counted = kifu_index::count_position(&conn, &db, &pos, &kifu_index::Query::default()).unwrap();
        assert_eq!(counted, want[i].len() as u64, "{what}: --count");
        let me = got.get(&(path.clone(), *offset)).unwrap_or_else(|| panic!("{what}: the game itself"));
        // The game the query came from reached it (or, for a twin query, its twin) at latest there.
        assert!(me.0 <= *number, "{what}");
        twin_hits += hits.iter().filter(|h| h.twin).count();
        twin_queries_met += (*as_twin && me.2) as usize;
        // Every continuation count, and those through the twin; the tables' way and the games'.
        let table = kifu_index::explore(&conn, &db, &pos, 1).unwrap();
        let mut counts: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for (_, text, t) in want[i].values() {
            let c = counts.entry(text.clone()).or_default();
            c.0 += 1;
            c.1 += *t as u64;
        }
        let got: BTreeMap<String, (u64, u64)> =
            table.moves.iter().map(|c| (kifu_index::move_text(c.next), (c.games, c.twin_games))).collect();
        assert_eq!(got, counts, "{what}");
        assert_eq!(table.games, want[i].len() as u64, "{what}");
        assert_eq!(table.twin_games, want[i].values().filter(|f| f.2).count() as u64, "{what}");
        let mut by_games = kifu_index::explore_games(&conn, &db, &pos, 1).unwrap();
        let mut by_table = table;
        for t in [&mut by_games, &mut by_table] {
            t.moves.sort_by_key(|c| kifu_index::move_text(c.next));
        }
        assert_eq!(by_table, by_games, "{what}");
    }
    // Twins were met (the twin queries' own games, at least).
    assert!(twin_hits > 0 && twin_queries_met > 0, "{twin_hits} {twin_queries_met}");
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An index of `files` (name, text) in a fresh directory; returns the database and the directory.
fn index_of(name: &str, files: &[(&str, &str)]) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("kifu-swap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("g")).unwrap();
    for (f, text) in files {
        std::fs::write(dir.join("g").join(f), text).unwrap();
    }
    let db = dir.join("i.sqlite");
    kifu_index::build(&[dir.join("g")], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    (db, dir)
}

/// `(file name, move number, next move, twin)` of each hit.
fn hits(db: &Path, pos: &kifu_index::Position) -> Vec<(String, u32, String, bool)> {
    let conn = kifu_index::open_existing(db).unwrap();
    let mut out: Vec<_> = kifu_index::find_position(&conn, db, pos, &kifu_index::Query::default())
        .unwrap()
        .into_iter()
        .map(|h| {
            let name = Path::new(&h.hit.path).file_name().unwrap().to_string_lossy().into_owned();
            (name, h.number, kifu_index::move_text(h.next), h.twin)
        })
        .collect();
    out.sort();
    out
}

/// `(move, games, twin games, Black wins, White wins, players)` of each continuation, and the
/// games in all; the tables' way and the games' way agree.
type Row = (String, u64, u64, u64, u64, Vec<(String, u64)>);
fn table(db: &Path, pos: &kifu_index::Position) -> (u64, Vec<Row>) {
    let conn = kifu_index::open_existing(db).unwrap();
    let t = kifu_index::explore(&conn, db, pos, 1).unwrap();
    let mut g = kifu_index::explore_games(&conn, db, pos, 1).unwrap();
    let mut t2 = t.clone();
    t2.moves.sort_by_key(|c| kifu_index::move_text(c.next));
    g.moves.sort_by_key(|c| kifu_index::move_text(c.next));
    assert_eq!(t2, g);
    let rows = t
        .moves
        .iter()
        .map(|c| {
            let m = kifu_index::move_text(c.next);
            (m, c.games, c.twin_games, c.black_wins, c.white_wins, c.players.clone())
        })
        .collect();
    (t.games, rows)
}

#[test]
fn a_go_game_and_its_colour_swapped_copy() {
    let (db, dir) = index_of(
        "go",
        &[
            ("a.sgf", "(;GM[1]PB[Alice]PW[Bob]RE[B+R];B[pd];W[dp];B[pp];W[dd])"),
            // The same game with the colours exchanged, turned a quarter (pd -> dd ...).
            ("b.sgf", "(;GM[1]PB[Carol]PW[Dave]RE[W+R];W[dd];B[pd];W[dp];B[pp])"),
            // Another game through the swapped position only after its first moves.
            ("c.sgf", "(;GM[1]PB[Erin]PW[Fay]RE[B+R];B[aa];W[pd];B[dp];W[pp];B[qq])"),
        ],
    );
    let q = kifu_index::Position::from_go_moves("pd dp pp", 19).unwrap();
    // Without the flag: only the game itself.
    assert_eq!(hits(&db, &q), [("a.sgf".to_owned(), 3, "W[dd]".to_owned(), false)]);
    // With it: the swapped copy too, its move in the query's orientation and colours. b's
    // stones W dd, B pd, W dp are a's B pd, W dp, B pp swapped and turned; its next move
    // B[pp] is W[dd] in the query's terms. c reached {W pd, B dp, W pp} plus B aa: not it.
    let q = q.also_twin();
    assert_eq!(
        hits(&db, &q),
        [("a.sgf".to_owned(), 3, "W[dd]".to_owned(), false), ("b.sgf".to_owned(), 3, "W[dd]".to_owned(), true)]
    );
    // The table: both games play W[dd] (in the query's colours); b's White won, which is the
    // query's Black; its mover was Carol (Black in b, White in the query's terms).
    let (games, rows) = table(&db, &q);
    assert_eq!(games, 2);
    assert_eq!(rows, [("W[dd]".to_owned(), 2, 1, 2, 0, vec![("Bob".to_owned(), 1), ("Carol".to_owned(), 1)])]);
    // After one move: a, and b after W[dd] (swapped); c is not there (B aa is on the board).
    // b's B[pd] is W[dd] in the query's terms (dd, not pp: the first of the points the
    // position's own reflection through pd takes it to).
    let one = kifu_index::Position::from_go_moves("pd", 19).unwrap().also_twin();
    assert_eq!(
        hits(&db, &one),
        [("a.sgf".to_owned(), 1, "W[dp]".to_owned(), false), ("b.sgf".to_owned(), 1, "W[dd]".to_owned(), true)]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shogi_game_and_its_mirrored_copy() {
    let start_mirrored = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1";
    let b = format!("position sfen {start_mirrored} moves 3g3f 7c7d 8g8f\n");
    let (db, dir) = index_of("shogi", &[("a.usi", "position startpos moves 7g7f 3c3d 2g2f\n"), ("b.usi", &b)]);
    let q = kifu_index::Position::from_usi_moves("7g7f 3c3d").unwrap();
    assert_eq!(hits(&db, &q), [("a.usi".to_owned(), 2, "+2726FU".to_owned(), false)]);
    let q = q.also_twin();
    assert_eq!(
        hits(&db, &q),
        [("a.usi".to_owned(), 2, "+2726FU".to_owned(), false), ("b.usi".to_owned(), 2, "+2726FU".to_owned(), true)]
    );
    let (games, rows) = table(&db, &q);
    assert_eq!(games, 2);
    assert_eq!(rows[0].0, "+2726FU");
    assert_eq!((rows[0].1, rows[0].2), (2, 1));
    // The mirrored query finds the same games, the other way round.
    let m = kifu_index::Position::from_sfen(&mirror_sfen(&q.sfen.clone().unwrap())).unwrap();
    assert_eq!(m.twin.hash, q.hash);
    assert_eq!(m.hash, q.twin.hash);
    let h = hits(&db, &m.also_twin());
    assert_eq!(
        h,
        [("a.usi".to_owned(), 2, "+8786FU".to_owned(), true), ("b.usi".to_owned(), 2, "+8786FU".to_owned(), false)]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_position_that_is_its_own_twin_counts_once() {
    let (db, dir) = index_of(
        "own",
        &[
            ("a.sgf", "(;GM[1];B[pd];W[dd];B[pp])"),
            ("b.sgf", "(;GM[1];B[dd];W[pd];B[dp])"),
            ("c.sgf", "(;GM[1];W[pd];B[dd];W[qq])"),
            // A shogi position symmetric left to right: kings and a pawn each on file 5.
            ("s.usi", "position sfen 4k4/9/4p4/9/9/9/4P4/9/4K4 b - 1 moves 5g5f 5c5d\n"),
        ],
    );
    // {B pd, W dd} swapped is {W pd, B dd}: its mirror image. Each game once, as it is.
    let q = kifu_index::Position::from_go_moves("pd dd", 19).unwrap();
    assert_eq!(q.twin.hash, q.hash);
    let h = hits(&db, &q.clone().also_twin());
    assert_eq!(h, hits(&db, &q));
    assert_eq!(h.len(), 3, "{h:?}");
    assert!(h.iter().all(|x| !x.3));
    let (games, _) = table(&db, &q.also_twin());
    assert_eq!(games, 3);
    // The empty board is its own swap: every game once.
    let empty = kifu_index::Position::from_sgf_setup("SZ[19]").unwrap().also_twin();
    assert_eq!(hits(&db, &empty).len(), 3);
    assert_eq!(table(&db, &empty).0, 3);
    let s = kifu_index::Position::from_sfen("4k4/9/4p4/9/9/9/4P4/9/4K4 b - 1").unwrap();
    assert_eq!(s.twin.hash, s.hash);
    assert_eq!(hits(&db, &s.also_twin()), [("s.usi".to_owned(), 0, "+5756FU".to_owned(), false)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_through_the_position_and_its_twin_counts_once_at_the_first() {
    let (db, dir) = index_of(
        "both",
        &[
            // {B cc} at move 1, then setup makes it {W cc} before move 2.
            ("a.sgf", "(;GM[1]SZ[5]RE[B+R];B[cc];W[aa];AE[aa][cc]AW[cc];B[ee])"),
            // The other way round: {W cc} first, then {B cc}.
            ("b.sgf", "(;GM[1]SZ[5]RE[B+R];W[cc];B[aa];AE[aa][cc]AB[cc];W[ee])"),
        ],
    );
    let q = kifu_index::Position::from_go_moves("cc", 5).unwrap().also_twin();
    assert_eq!(
        hits(&db, &q),
        [("a.sgf".to_owned(), 1, "W[aa]".to_owned(), false), ("b.sgf".to_owned(), 1, "W[aa]".to_owned(), true)]
    );
    // Both games through both positions: the table from the games, each once; b's Black win
    // is the query's White's.
    let (games, rows) = table(&db, &q);
    assert_eq!(games, 2);
    assert_eq!(rows, [("W[aa]".to_owned(), 2, 1, 1, 1, vec![])]);
    std::fs::remove_dir_all(&dir).unwrap();
}
