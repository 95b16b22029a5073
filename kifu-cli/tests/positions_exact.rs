//! Position search against brute force on the corpus: 200 positions drawn (seeded) from random
//! games at random move numbers, Go and shogi; the games `find_position` returns, the move
//! number where each first reaches the position and the move it played there, and every count
//! of `explore`, equal what a replay of every game of the corpus on the library's boards finds
//! (Go: comparing boards in all eight orientations, by an implementation of the symmetries of
//! its own: rotations by a quarter turn and one reflection).

mod common;

use common::brute::{index_corpus, indexed_games, load, replay_file, Grid, Pos};
use common::rng::XorShift;
use kifu::{Move, Point};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The point a Go move reaches through orientation `k` of `from` (the game's board), then the
/// first of the points the query's own symmetries (`stab`, orientations of `q` equal to it)
/// take it to, in SGF order.
fn orient(m: Move, from: &Grid, k: usize, q: &Grid, stab: &[usize]) -> String {
    let Move::Go { color, point } = m else { unreachable!() };
    let point = point.map(|p| {
        if p.x >= from.w || p.y >= from.h {
            return Point::new(52, 52);
        }
        let t = from.map(k, (p.x, p.y));
        let best = stab.iter().map(|&u| q.map(u, t)).min_by_key(|&(x, y)| (y, x)).unwrap();
        Point::new(best.0, best.1)
    });
    kifu_index::move_text(Some(Move::Go { color, point }))
}

#[test]
fn positions_equal_brute_force_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let (dir, db, conn) = index_corpus(&corpus, "positions-exact");
    let (games, by_file) = indexed_games(&conn);

    // 200 positions: 150 from Go games, 50 from shogi games, at random move numbers.
    let mut rng = XorShift::new(25);
    let go_games: Vec<_> = games.iter().filter(|g| !g.2).collect();
    let shogi_games: Vec<_> = games.iter().filter(|g| g.2).collect();
    let mut picks = Vec::new();
    for i in 0..200 {
        let pool = if i < 150 { &go_games } else { &shogi_games };
        let g = pool[(rng.next() % pool.len() as u64) as usize];
        let number = (rng.next() % (g.3 as u64 + 1)) as u32;
        picks.push((g.0.clone(), g.1, number));
    }

    // The query positions, by brute force.
    let mut queries: Vec<Pos> = Vec::new();
    for (path, offset, number) in &picks {
        let mut found = None;
        replay_file(&load(Path::new(path)), &by_file[path], |o, n, pos, _| {
            if o == *offset && n == *number && found.is_none() {
                found = Some(pos.clone());
            }
        });
        queries.push(found.unwrap_or_else(|| panic!("{path}@{offset}#{number}: no such position")));
    }
    // Their orientations, stabilisers and signatures.
    let mut by_sig: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut by_sfen: HashMap<String, Vec<usize>> = HashMap::new();
    let mut stabs: Vec<Vec<usize>> = Vec::new();
    for (i, q) in queries.iter().enumerate() {
        match q {
            Pos::Go(g) => {
                by_sig.entry(g.signature()).or_default().push(i);
                let o = g.orientations();
                stabs.push((0..8).filter(|&k| o[k] == *g).collect());
            }
            Pos::Shogi(s) => {
                by_sfen.entry(s.clone()).or_default().push(i);
                stabs.push(vec![0]);
            }
        }
    }

    // Brute force: every position of every game; per query, each game's first time there.
    let mut want: Vec<BTreeMap<(String, u64), (u32, String)>> = vec![BTreeMap::new(); queries.len()];
    for (path, kinds) in &by_file {
        replay_file(&load(Path::new(path)), kinds, |offset, number, pos, next| {
            let hits: Vec<(usize, String)> = match pos {
                Pos::Shogi(s) => by_sfen
                    .get(s)
                    .map_or(Vec::new(), |qs| qs.iter().map(|&i| (i, kifu_index::move_text(next))).collect()),
                Pos::Go(g) => {
                    let Some(qs) = by_sig.get(&g.signature()) else { return };
                    let o = g.orientations();
                    qs.iter()
                        .filter_map(|&i| {
                            let Pos::Go(q) = &queries[i] else { unreachable!() };
                            let k = (0..8).find(|&k| o[k] == *q)?;
                            let text = match next {
                                None => kifu_index::move_text(None),
                                Some(m) => orient(m, g, k, q, &stabs[i]),
                            };
                            Some((i, text))
                        })
                        .collect()
                }
            };
            for (i, text) in hits {
                want[i].entry((path.clone(), offset)).or_insert((number, text));
            }
        });
    }

    // The index's answers.
    let mut bytes_cache: HashMap<String, Vec<u8>> = HashMap::new();
    let mut checked_go_symmetric = 0;
    for (i, (path, offset, number)) in picks.iter().enumerate() {
        let bytes = bytes_cache.entry(path.clone()).or_insert_with(|| load(Path::new(path)));
        let pos = kifu_index::Position::from_game(bytes, *offset, *number).unwrap();
        let hits = kifu_index::find_position(&conn, &db, &pos, &kifu_index::Query::default()).unwrap();
        let got: BTreeMap<(String, u64), (u32, String)> = hits
            .iter()
            .map(|h| ((h.hit.path.clone(), h.hit.offset as u64), (h.number, kifu_index::move_text(h.next))))
            .collect();
        assert_eq!(got, want[i], "{path}@{offset}#{number}");
        assert!(got.contains_key(&(path.clone(), *offset)), "{path}@{offset}#{number}: the game itself");
        // `find --position Q --count`, from the postings or a frequent position's table.
        let counted = kifu_index::count_position(&conn, &db, &pos, &kifu_index::Query::default()).unwrap();
        assert_eq!(counted, want[i].len() as u64, "{path}@{offset}#{number}: --count");
        checked_go_symmetric += hits.iter().any(|h| h.symmetry != 0) as usize;
        // Every continuation count.
        let table = kifu_index::explore(&conn, &db, &pos, 1).unwrap();
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for (_, text) in want[i].values() {
            *counts.entry(text.clone()).or_default() += 1;
        }
        let got: BTreeMap<String, u64> = table.moves.iter().map(|c| (kifu_index::move_text(c.next), c.games)).collect();
        assert_eq!(got, counts, "{path}@{offset}#{number}");
        assert_eq!(table.games, want[i].len() as u64);
    }
    // Some queries were met in another orientation (the check above covered them).
    assert!(checked_go_symmetric > 0);
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}
