//! Positions of variations (`kifu index --variations`) against brute force: the oracle builds
//! each game's tree with `kifu::tree` and replays the path from the game's start to every leaf
//! on the library's boards, a fresh board per path; every node's positions (before each move,
//! and the end of each leaf) are compared with what `find_position` and `explore` answer (Go: in
//! all eight orientations, by an implementation of the symmetries of its own). A game counts
//! once a position: its smallest move number there, the first node in depth-first order among
//! equal ones. Also: nested variations by hand (found with the flag, not without; a ko at a
//! branch point), deep nesting, and incremental runs (files added, changed, deleted;
//! a run without the flag after one with it; the flag given to an index built without; the
//! positions file deleted) against fresh builds.

mod common;

use common::brute::{load, Grid, Pos};
use common::rng::XorShift;
use kifu::position::go::{parse_size, ReplayOptions, Replayer};
use kifu::position::shogi::ShogiPosition;
use kifu::{Event, InfoKey, Move, Point};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-variations-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One position of a game's tree: the game's offset, the move number, the position, the move
/// played next (`None`: the end of a leaf), the node (pre-order) and the event's place in it,
/// and whether the node is on the main line.
struct Seen<'a> {
    offset: u64,
    number: u32,
    pos: &'a Pos,
    next: Option<Move>,
    order: (u32, u32),
    main: bool,
}

/// Every position of every node of every game of one file (`kinds`: the games' offsets, shogi
/// or not), each path from the game's start to a leaf replayed on a fresh board.
fn tree_positions(bytes: &[u8], kinds: &HashMap<u64, bool>, mut f: impl FnMut(&Seen<'_>)) {
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return };
    let mut builder = kifu::tree::Builder::new();
    loop {
        let bump = bumpalo::Bump::new();
        let tree = match builder.build(&bump, &mut reader) {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(_) => continue,
        };
        let Some(&shogi) = kinds.get(&tree.offset()) else { continue };
        let main: BTreeSet<usize> = tree.main_line().map(|n| n.index()).collect();
        for leaf in tree.nodes().filter(|&n| tree.first_child(n).is_none()) {
            let mut path = vec![leaf];
            while let Some(p) = tree.parent(*path.last().unwrap()) {
                path.push(p);
            }
            path.reverse();
            let mut go = Replayer::new(ReplayOptions::default());
            let mut size = (19, 19);
            let mut sh = ShogiPosition::new();
            let mut number = 0u32;
            let snapshot = |go: &Replayer, sh: &ShogiPosition, size| {
                if shogi {
                    Pos::Shogi(sh.sfen())
                } else {
                    Pos::Go(Grid::of(go.board(), size))
                }
            };
            for &n in &path {
                let on_main = main.contains(&n.index());
                // A node's moves after its other events (`GameTree::events` gives the node's
                // first move first; the records put board sizes and setup before moves).
                let (moves, other): (Vec<Event>, Vec<Event>) =
                    tree.events(n).partition(|e| matches!(e, Event::Move(_)));
                for (k, ev) in other.into_iter().chain(moves).enumerate() {
                    let order = (n.index() as u32, k as u32);
                    match (shogi, ev) {
                        (false, Event::Move(m @ Move::Go { color, point })) => {
                            let pos = snapshot(&go, &sh, size);
                            f(&Seen { offset: tree.offset(), number, pos: &pos, next: Some(m), order, main: on_main });
                            number += 1;
                            go.play(color, point);
                        }
                        (true, Event::Move(m @ Move::Shogi(sm))) => {
                            let pos = snapshot(&go, &sh, size);
                            f(&Seen { offset: tree.offset(), number, pos: &pos, next: Some(m), order, main: on_main });
                            number += 1;
                            let _ = sh.play(sm);
                        }
                        (_, Event::Move(_)) => {}
                        (true, ev) => {
                            let _ = sh.apply(&ev);
                        }
                        (false, ev) => {
                            if let Event::Info(i) = ev {
                                if i.key() == InfoKey::BoardSize {
                                    if let Some(s) = parse_size(i.value().raw()) {
                                        size = s;
                                    }
                                }
                            }
                            go.event(&ev);
                        }
                    }
                }
            }
            let pos = snapshot(&go, &sh, size);
            let order = (leaf.index() as u32, u32::MAX);
            f(&Seen {
                offset: tree.offset(),
                number,
                pos: &pos,
                next: None,
                order,
                main: main.contains(&leaf.index()),
            });
        }
    }
}

/// The text of a Go move through orientation `k` of `from`, then the first of the points the
/// query's own symmetries (`stab`) take it to, in SGF order; a shogi move as it is.
fn move_text(next: Option<Move>, from: &Pos, q: &Pos) -> String {
    let (Some(Move::Go { color, point }), Pos::Go(g), Pos::Go(q)) = (next, from, q) else {
        return kifu_index::move_text(next);
    };
    let o = g.orientations();
    let k = (0..8).find(|&k| o[k] == *q).unwrap();
    let qo = q.orientations();
    let stab: Vec<usize> = (0..8).filter(|&u| qo[u] == *q).collect();
    let point = point.map(|p| {
        if p.x >= g.w || p.y >= g.h {
            return Point::new(52, 52);
        }
        let t = g.map(k, (p.x, p.y));
        let best = stab.iter().map(|&u| q.map(u, t)).min_by_key(|&(x, y)| (y, x)).unwrap();
        Point::new(best.0, best.1)
    });
    kifu_index::move_text(Some(Move::Go { color, point }))
}

/// A position's key for matching: Go grids by their canonical orientation.
fn key(p: &Pos) -> Pos {
    match p {
        Pos::Go(g) => Pos::Go(g.canonical()),
        Pos::Shogi(s) => Pos::Shogi(s.clone()),
    }
}

fn query(p: &Pos) -> kifu_index::Position {
    match p {
        Pos::Go(g) => kifu_index::Position::from_sgf_setup(&g.setup()).unwrap(),
        Pos::Shogi(s) => kifu_index::Position::from_sfen(s).unwrap(),
    }
}

/// The index's games: path, offset, shogi or not, variations, errors.
fn games(conn: &rusqlite::Connection) -> Vec<(String, u64, bool, u64, u64)> {
    let mut st = conn
        .prepare(
            "SELECT f.path, g.offset, g.kind, g.variations, g.errors FROM games g JOIN files f ON f.id = g.file_id",
        )
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)? as u64,
                r.get::<_, String>(2)? == "shogi",
                r.get::<_, i64>(3)? as u64,
                r.get::<_, i64>(4)? as u64,
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

fn build(paths: &[&Path], db: &Path, variations: bool) -> kifu_index::Summary {
    let mut o = kifu_index::Options::new(db);
    o.variations = variations;
    kifu_index::build(paths, &o, &mut kifu_index::Silent).unwrap()
}

/// Checks `queries` on the index at `db` (built with variations from the files of `games`)
/// against the oracle: the games found, each one's move number and next move, and explore's
/// counts. Returns how many queries had a hit in another orientation.
fn check(db: &Path, queries: &[Pos], games: &[(String, u64, bool, u64, u64)]) -> usize {
    let conn = kifu_index::open_existing(db).unwrap();
    let broken: BTreeSet<(String, u64)> = games.iter().filter(|g| g.4 > 0).map(|g| (g.0.clone(), g.1)).collect();
    let mut by_file: BTreeMap<String, HashMap<u64, bool>> = BTreeMap::new();
    for (p, o, s, _, _) in games {
        by_file.entry(p.clone()).or_default().insert(*o, *s);
    }
    let wanted: HashMap<Pos, Vec<usize>> = queries.iter().enumerate().fold(HashMap::new(), |mut m, (i, q)| {
        m.entry(key(q)).or_insert_with(Vec::new).push(i);
        m
    });
    // Per query, per game: the first (move number, node, place) there, with the move's text.
    type Firsts = BTreeMap<(String, u64), ((u32, (u32, u32)), String)>;
    let mut want: Vec<Firsts> = vec![BTreeMap::new(); queries.len()];
    for (path, kinds) in &by_file {
        tree_positions(&load(Path::new(path)), kinds, |s| {
            let Some(qs) = wanted.get(&key(s.pos)) else { return };
            for &i in qs {
                let first = (s.number, s.order);
                let text = move_text(s.next, s.pos, &queries[i]);
                let e = want[i].entry((path.clone(), s.offset)).or_insert((first, text.clone()));
                if first < e.0 {
                    *e = (first, text);
                }
            }
        });
    }
    let mut turned = 0;
    for (i, q) in queries.iter().enumerate() {
        let pos = query(q);
        let hits = kifu_index::find_position(&conn, db, &pos, &kifu_index::Query::default()).unwrap();
        let got: BTreeMap<(String, u64), (u32, String)> = hits
            .iter()
            .map(|h| ((h.hit.path.clone(), h.hit.offset as u64), (h.number, kifu_index::move_text(h.next))))
            .filter(|(g, _)| !broken.contains(g))
            .collect();
        let expected: BTreeMap<(String, u64), (u32, String)> = want[i]
            .iter()
            .filter(|(g, _)| !broken.contains(*g))
            .map(|(g, ((n, _), t))| (g.clone(), (*n, t.clone())))
            .collect();
        assert!(!expected.is_empty(), "query {i}: drawn from a game, found there");
        if got != expected {
            let only_got: Vec<_> = got.iter().filter(|(g, v)| expected.get(*g) != Some(v)).take(5).collect();
            let only_want: Vec<_> = expected.iter().filter(|(g, v)| got.get(*g) != Some(v)).take(5).collect();
            panic!(
                "query {i}: {} found, {} wanted; index {only_got:?}; oracle {only_want:?}",
                got.len(),
                expected.len()
            );
        }
        turned += hits.iter().any(|h| h.symmetry != 0) as usize;
        let table = kifu_index::explore(&conn, db, &pos, 1).unwrap();
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for (g, (_, text)) in &want[i] {
            if !broken.contains(g) {
                *counts.entry(text.clone()).or_default() += 1;
            }
        }
        let got: BTreeMap<String, u64> = table.moves.iter().map(|c| (kifu_index::move_text(c.next), c.games)).collect();
        if broken.is_empty() {
            assert_eq!(got, counts, "query {i}: {q:?}");
        } else {
            // Games that ended in an error count in the index (their tree is not built here).
            for (m, n) in &counts {
                assert!(got.get(m).is_some_and(|g| g >= n), "query {i}: {m}");
            }
        }
    }
    turned
}

#[test]
fn variation_positions_equal_brute_force_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp("corpus");
    let db = dir.join("c.sqlite");
    let summary = build(&[&corpus], &db, true);
    assert!(summary.variations);
    let conn = kifu_index::open_existing(&db).unwrap();
    let all = games(&conn);
    drop(conn);
    // Positions drawn (seeded) from nodes off the main line of games with variations: 80 Go, 40
    // shogi.
    let mut rng = XorShift::new(2525);
    let mut queries = Vec::new();
    for (shogi, want) in [(false, 80), (true, 40)] {
        let mut pool: Vec<&(String, u64, bool, u64, u64)> =
            all.iter().filter(|g| g.2 == shogi && g.3 > 0 && g.4 == 0).collect();
        pool.sort();
        assert!(pool.len() >= 20, "{} games with variations", pool.len());
        while queries.len() < want + if shogi { 80 } else { 0 } {
            let g = pool[(rng.next() % pool.len() as u64) as usize];
            let kinds: HashMap<u64, bool> = [(g.1, g.2)].into();
            let mut off_main = Vec::new();
            tree_positions(&load(Path::new(&g.0)), &kinds, |s| {
                if !s.main {
                    off_main.push(s.pos.clone());
                }
            });
            if !off_main.is_empty() {
                queries.push(off_main[(rng.next() % off_main.len() as u64) as usize].clone());
            }
        }
    }
    // Some Go positions turned or reflected: found in the games' own orientation.
    let turned: Vec<Pos> = queries
        .iter()
        .filter_map(|q| if let Pos::Go(g) = q { Some(g) } else { None })
        .enumerate()
        .filter(|(i, _)| i % 4 == 0)
        .map(|(i, g)| Pos::Go(g.orientations()[1 + i % 7].clone()))
        .collect();
    queries.extend(turned);
    let turned = check(&db, &queries, &all);
    assert!(turned > 0, "some hits in another orientation");
    // Without variations, some of these positions are in no game.
    let main_db = dir.join("m.sqlite");
    build(&[&corpus], &main_db, false);
    let conn = kifu_index::open_existing(&main_db).unwrap();
    let missing = queries
        .iter()
        .filter(|q| kifu_index::find_position(&conn, &main_db, &query(q), &Default::default()).unwrap().is_empty())
        .count();
    assert!(missing > 0, "every position drawn from a variation was on some main line");
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every position of hand-written games with nested variations (child and sibling branches,
/// setup in a variation, a ko taken at a branch point and retaken in the next branch), against
/// the oracle.
#[test]
fn nested_variations_by_hand() {
    let dir = temp("hand");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    let nested = "(;GM[1]SZ[9];B[cc];W[gg](;B[cg];W[gc])(;B[ee](;W[dd];B[ff])(;W[ef](;B[fe])(;B[de];W[ed]))))";
    // White's bb takes cb: a ko. The first branch plays elsewhere; in the second Black retakes
    // at once (illegal: left unplayed) and White plays hh.
    let ko = "(;GM[1]SZ[9]AB[ba][ab][cb][bc]AW[ca][db][cc];W[bb](;B[ee];W[ff])(;B[cb];W[hh]))";
    let setup = "(;GM[1]SZ[9];B[ee](;AB[aa][ab];W[cc])(;SZ[7];W[dd])(;AE[ee];W[ee]))";
    std::fs::write(data.join("nested.sgf"), nested).unwrap();
    std::fs::write(data.join("ko.sgf"), ko).unwrap();
    std::fs::write(data.join("setup.sgf"), setup).unwrap();
    let db = dir.join("v.sqlite");
    build(&[&data], &db, true);
    let conn = kifu_index::open_existing(&db).unwrap();
    let all = games(&conn);
    drop(conn);
    // Every position of every node.
    let mut queries = BTreeSet::new();
    for (path, offset, shogi, _, _) in &all {
        tree_positions(&load(Path::new(path)), &[(*offset, *shogi)].into(), |s| {
            queries.insert(s.pos.clone());
        });
    }
    let queries: Vec<Pos> = queries.into_iter().collect();
    assert!(queries.len() > 20);
    check(&db, &queries, &all);

    // The ko held across the branch: the board with Black's retake played is in no game.
    let retaken = kifu_index::Position::from_sgf_setup("SZ[9]AB[ba][ab][cb][bc]AW[ca][db][cc][hh]").unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    assert!(kifu_index::find_position(&conn, &db, &retaken, &Default::default()).unwrap().is_empty());
    let held = kifu_index::Position::from_sgf_setup("SZ[9]AB[ba][ab][bc]AW[ca][db][cc][bb][hh]").unwrap();
    let hits = kifu_index::find_position(&conn, &db, &held, &Default::default()).unwrap();
    assert_eq!(hits.iter().map(|h| (h.number, h.next)).collect::<Vec<_>>(), [(3, None)]);
    drop(conn);

    // The commands: found with --variations, not without.
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let run = |args: &[&str]| {
        let out = Command::new(kifu).args(args).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let deep = "(;SZ[9];B[cc];W[gg];B[ee];W[ef];B[de];W[ed])";
    let (with, without) = (dir.join("with.sqlite"), dir.join("without.sqlite"));
    let d = data.to_str().unwrap();
    run(&["index", d, "--db", with.to_str().unwrap(), "--variations"]);
    run(&["index", d, "--db", without.to_str().unwrap()]);
    let (out, _) = run(&["find", "--db", with.to_str().unwrap(), "--position", deep]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("nested.sgf") && out.contains("\t#6\t"), "{out}");
    let (out, _) = run(&["find", "--db", without.to_str().unwrap(), "--position", deep]);
    assert_eq!(out.lines().count(), 0, "{out}");
    // The setting is remembered, and said so.
    let (out, err) = run(&["index", d, "--db", with.to_str().unwrap(), "--json"]);
    assert!(out.contains("\"variations\":true"), "{out}");
    assert!(err.contains("--variations"), "{err}");
    let help = run(&["index", "--help"]).0;
    assert!(help.contains("--variations"), "{help:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Variations nested as deep as the SGF reader reads (its limit is 10,000 levels; 10^5 levels of
/// events, with no reader in between, are the `variations` module's unit test), each level with
/// a second child (a pass) after the nested one: a board snapshot held for every level. The
/// passes reach no new position, so the postings are the main line's, one per position at its
/// first move number. 10^5 levels: the reader's limit, an error in the file's row, no crash.
#[test]
fn deep_nesting() {
    let dir = temp("deep");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let too_deep = dir.join("too-deep.sgf");
    std::fs::write(&too_deep, format!("(;GM[1]{})", "(;B[aa]".repeat(100_000) + &")".repeat(100_000))).unwrap();
    let out = Command::new(kifu)
        .args(["index", too_deep.to_str().unwrap(), "--db", dir.join("t.sqlite").to_str().unwrap(), "--variations"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 errors"));
    let n = 9_990;
    let point = |i: usize| {
        let p = (i * 7 + i / 361) % 361;
        format!("{}{}", (b'a' + (p % 19) as u8) as char, (b'a' + (p / 19) as u8) as char)
    };
    let colour = |i: usize| if i.is_multiple_of(2) { 'B' } else { 'W' };
    let mut deep = String::from("(;GM[1]SZ[19]");
    let mut line = String::from("(;GM[1]SZ[19]");
    for i in 0..n {
        deep.push_str(&format!("(;{}[{}]", colour(i), point(i)));
        line.push_str(&format!(";{}[{}]", colour(i), point(i)));
    }
    for i in (0..n).rev() {
        deep.push(')');
        if i > 0 {
            // The second child of move i-1's node: a pass by the side to move.
            deep.push_str(&format!("(;{}[])", colour(i)));
        }
    }
    deep.push(')');
    line.push(')');
    std::fs::write(data.join("deep.sgf"), &deep).unwrap();
    let line_dir = dir.join("line");
    std::fs::create_dir_all(&line_dir).unwrap();
    std::fs::write(line_dir.join("line.sgf"), &line).unwrap();
    let (db, line_db) = (dir.join("d.sqlite"), dir.join("l.sqlite"));
    let out = Command::new(kifu)
        .args(["index", data.to_str().unwrap(), "--db", db.to_str().unwrap(), "--variations", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    build(&[&line_dir], &line_db, false);
    let postings = |db: &Path| {
        let conn = kifu_index::open_existing(db).unwrap();
        kifu_index::dump_postings(&conn, db).unwrap()
    };
    let got: Vec<(u64, u32, u32)> = postings(&db).into_iter().map(|p| (p.0, p.3, p.4)).collect();
    let mut first: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
    for p in postings(&line_db) {
        let e = first.entry(p.0).or_insert((p.3, p.4));
        *e = (*e).min((p.3, p.4));
    }
    let want: Vec<(u64, u32, u32)> = first.into_iter().map(|(h, (m, x))| (h, m, x)).collect();
    assert!(want.len() > 300, "{} positions", want.len());
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files added, changed and deleted, runs with and without the flag: the postings of a fresh
/// build, every time.
#[test]
fn incremental_runs_equal_fresh_builds() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp("incr");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    // Corpus files with variations (SGF and KIF), found through an index of the corpus.
    let probe = dir.join("probe.sqlite");
    build(&[&corpus.join("sgf"), &corpus.join("kif")], &probe, false);
    let conn = kifu_index::open_existing(&probe).unwrap();
    let mut files: Vec<(String, bool)> =
        games(&conn).into_iter().filter(|g| g.3 > 0 && g.4 == 0 && !g.0.contains('!')).map(|g| (g.0, g.2)).collect();
    drop(conn);
    files.sort();
    files.dedup();
    let go: Vec<_> = files.iter().filter(|f| !f.1).take(6).collect();
    let shogi: Vec<_> = files.iter().filter(|f| f.1).take(4).collect();
    assert!(go.len() == 6 && shogi.len() == 4, "{files:?}");
    for (i, (path, _)) in go.iter().chain(shogi.iter()).enumerate() {
        let name = Path::new(path).file_name().unwrap().to_string_lossy().into_owned();
        std::fs::copy(path, data.join(format!("{i}-{name}"))).unwrap();
    }
    let dump = |db: &Path| {
        let conn = kifu_index::open_existing(db).unwrap();
        kifu_index::dump_postings(&conn, db).unwrap()
    };
    let fresh = |name: &str, variations: bool| {
        let db = dir.join(format!("{name}.sqlite"));
        build(&[&data], &db, variations);
        let d = dump(&db);
        for suffix in ["", "-wal", "-shm", ".positions", ".positions.top"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        d
    };
    let db = dir.join("db.sqlite");
    let first = build(&[&data], &db, true);
    assert!(first.variations && !first.variations_changed);
    assert_eq!(dump(&db), fresh("f1", true));
    let main_only = fresh("m1", false);
    assert!(dump(&db).len() > main_only.len());

    // Add a file, change one (a variation appended to its first game), delete one.
    std::fs::copy(go[0].0.as_str(), data.join("added.sgf")).unwrap();
    let sgf_name = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "sgf") && !p.ends_with("added.sgf"))
        .unwrap();
    let mut text = std::fs::read(&sgf_name).unwrap();
    let end = text.iter().position(|&b| b == b')').unwrap();
    text.splice(end..end, b"(;B[aa];W[ab](;B[ba])(;B[bb]))".iter().copied());
    std::fs::write(&sgf_name, text).unwrap();
    let victim = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("7-"))
        .unwrap();
    std::fs::remove_file(victim).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = build(&[&data], &db, true);
    assert_eq!((second.files_read, second.files_deleted), (2, 1));
    assert_eq!(dump(&db), fresh("f2", true));

    // Without the flag: still variations (remembered), nothing read again.
    let third = build(&[&data], &db, false);
    assert!(third.variations && !third.variations_changed);
    assert_eq!(third.files_read, 0);
    assert_eq!(dump(&db), fresh("f3", true));
    // A change read without the flag is read with variations.
    std::fs::copy(shogi[0].0.as_str(), data.join("added2.kif")).unwrap();
    build(&[&data], &db, false);
    let with = fresh("f4", true);
    assert_eq!(dump(&db), with);

    // An index built without, then the flag: every file read again.
    let plain = dir.join("plain.sqlite");
    build(&[&data], &plain, false);
    assert_eq!(dump(&plain), fresh("m2", false));
    let on = build(&[&data], &plain, true);
    assert!(on.variations && on.variations_changed);
    assert_eq!(on.files_read, on.files_seen);
    assert_eq!(dump(&plain), with);

    // The positions file deleted: the next run without the flag goes back to main lines.
    std::fs::remove_file(format!("{}.positions", db.display())).unwrap();
    let off = build(&[&data], &db, false);
    assert!(!off.variations && off.variations_changed);
    assert_eq!(dump(&db), fresh("m3", false));
    std::fs::remove_dir_all(&dir).unwrap();
}
