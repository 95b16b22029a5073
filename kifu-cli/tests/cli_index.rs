//! `kifu index`, `kifu find` and `kifu show`, run as a binary on temporary folders of hand-written
//! records and on the corpus: counts against `kifu stats`, random access by offset, incremental
//! runs, a killed run, bad input, filters and duplicates.

mod common;

use rusqlite::Connection;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

/// A fresh, empty temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-cli-index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kifu(args: &[&str]) -> Output {
    let out = Command::new(KIFU).args(args).output().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "kifu {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn kifu_json(args: &[&str]) -> Value {
    let out = kifu(args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("kifu {args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn index(db: &Path, paths: &[&Path], extra: &[&str]) -> Value {
    let mut args = vec!["index", "--json", "--db", db.to_str().unwrap()];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(extra);
    kifu_json(&args)
}

fn n(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("no {k} in {v}"))
}

/// Asserts the invariants of a database that a run (finished or killed) leaves: it opens, SQLite
/// finds no corruption, every file's `games` count equals its rows, and no game is orphaned.
fn assert_consistent(db: &Path) -> (u64, u64) {
    let c = Connection::open(db).unwrap();
    let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    let bad: i64 = c
        .query_row(
            "SELECT count(*) FROM files f WHERE f.games != (SELECT count(*) FROM games g WHERE g.file_id = f.id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(bad, 0, "files whose games rows are missing or extra");
    let orphans: i64 = c
        .query_row("SELECT count(*) FROM games WHERE file_id NOT IN (SELECT id FROM files)", [], |r| r.get(0))
        .unwrap();
    assert_eq!(orphans, 0);
    let files: i64 = c.query_row("SELECT count(*) FROM files", [], |r| r.get(0)).unwrap();
    let games: i64 = c.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
    (files as u64, games as u64)
}

const COLLECTION: &str =
    "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[Cho Hunhyun]WR[9p]EV[Kisei]DT[2005-03-12]RE[W+3.5]KM[6.5]\
;B[pd];W[dp](;B[pp];W[dd])(;B[dd]))\n\
(;GM[1]SZ[19]PB[Honinbo Shusaku]PW[Gennan Inseki]DT[1846-09-11,12]RE[B+2]KM[0];B[qd];W[dc];B[pq];W[oc])\n\
(;GM[1]SZ[9]PB[Fox player]PW[lee sedol]DT[2016.10.25]RE[B+R]KM[375];B[ee];W[];B[])\n";

const SINGLE: &str =
    "(;GM[1]SZ[19]PB[Ke Jie]PW[AlphaGo]EV[Future of Go]DT[2017-05-23]RE[W+0.5]KM[7.5];B[pd];W[dp];B[pp];W[dd])";

/// A folder with every kind of file: records, a README, a binary file, a broken record.
fn fixtures(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("collection.sgf"), COLLECTION).unwrap();
    std::fs::write(dir.join("sub/single.sgf"), SINGLE).unwrap();
    // The same game as `single.sgf` with different info and comments: a duplicate main line.
    std::fs::write(dir.join("sub/copy.sgf"), "(;FF[3]PB[Ke]PW[AG]C[root];B[pd]C[first];W[dp];B[pp];W[dd]TR[aa])")
        .unwrap();
    std::fs::write(dir.join("README.md"), "# Not a game record\n").unwrap();
    std::fs::write(dir.join("image.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01").unwrap();
    // A broken game: a value never closed.
    std::fs::write(dir.join("broken.sgf"), "(;PB[Broken];B[aa];W[bb").unwrap();
}

#[test]
fn index_then_find_and_show_on_fixtures() {
    let root = temp("fixtures");
    let dir = root.join("games");
    fixtures(&dir);
    let db = root.join("i.sqlite");
    let s = index(&db, &[&dir], &[]);
    assert_eq!(n(&s, "files_read"), 6);
    assert_eq!(n(&s, "files"), 6);
    assert_eq!(n(&s, "files_skipped"), 2, "{s}"); // README, image (as stats skips them)
    let stats = kifu_json(&["stats", "--json", dir.to_str().unwrap()]);
    assert_eq!(n(&s, "games"), n(&stats, "games"));
    assert_eq!(n(&s, "games"), 6); // 3 + 1 + 1 + the broken one
    assert!(n(&s, "errors") >= 1, "{s}"); // the broken game
    assert_consistent(&db);

    let c = Connection::open(&db).unwrap();
    let file = |name: &str| -> (Option<String>, i64, i64) {
        c.query_row("SELECT format, games, errors FROM files WHERE path LIKE ?1", [format!("%{name}")], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap()
    };
    assert_eq!(file("README.md"), (None, 0, 0));
    assert_eq!(file("image.png"), (None, 0, 0));
    assert_eq!(file("collection.sgf"), (Some("sgf".into()), 3, 0));
    let (f, g, e) = file("broken.sgf");
    assert_eq!((f.as_deref(), g), (Some("sgf"), 1));
    assert!(e >= 1);

    // Columns of the first game of the collection.
    type Who = (String, String, String, String);
    type What = (String, f64, String, f64, String, i64, i64, i64, String);
    let (who, what): (Who, What) = c
        .query_row(
            "SELECT black_name, black_rank, white_name, date, winner, margin, reason, komi, komi_raw, moves, nodes,
                    variations, opening FROM games g JOIN files f ON f.id = g.file_id
             WHERE f.path LIKE '%collection.sgf' AND g.game_index = 0",
            [],
            |r| {
                Ok((
                    (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?),
                    (
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        r.get(8)?,
                        r.get(9)?,
                        r.get(10)?,
                        r.get(11)?,
                        r.get(12)?,
                    ),
                ))
            },
        )
        .unwrap();
    assert_eq!(who, ("Lee Sedol".into(), "9p".into(), "Cho Hunhyun".into(), "2005-03-12".into()));
    assert_eq!(what, ("W".into(), 3.5, "points".into(), 6.5, "6.5".into(), 4, 6, 1, "B[pd];W[dp];B[pp];W[dd]".into()));
    // The Fox komi (KM[375] is 7.5 points by KataGo's table) and the SGF date shortcut.
    let (komi, date): (f64, String) = c
        .query_row("SELECT komi, date FROM games WHERE black_name = 'Fox player'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!((komi, date.as_str()), (7.5, "2016-10-25"));
    // The main-line hash is xxh3-64 of the canonical string.
    let h: i64 = c.query_row("SELECT main_hash FROM games WHERE black_name = 'Ke Jie'", [], |r| r.get(0)).unwrap();
    assert_eq!(h as u64, xxhash_rust::xxh3::xxh3_64(b"(;B[pd];W[dp];B[pp];W[dd])"));

    // kifu show at every offset of the collection gives its game and only it.
    let coll = dir.join("collection.sgf");
    let mut st = c
        .prepare("SELECT offset, black_name, moves FROM games g JOIN files f ON f.id = g.file_id WHERE f.path LIKE '%collection.sgf' ORDER BY offset")
        .unwrap();
    let rows: Vec<(u64, String, u64)> = st
        .query_map([], |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?, r.get::<_, i64>(2)? as u64)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let expected = ["(;B[pd];W[dp];B[pp];W[dd])", "(;B[qd];W[dc];B[pq];W[oc])", "(;B[ee];W[];B[])"];
    assert_eq!(rows.len(), 3);
    for ((offset, black, moves), line) in rows.iter().zip(expected) {
        let target = format!("{}@{offset}", coll.display());
        let g = kifu_json(&["show", "--json", &target]);
        assert_eq!(g["main_line"], line);
        assert_eq!(g["black_name"].as_str(), Some(black.as_str()));
        assert_eq!(g["offset"].as_u64(), Some(*offset));
        assert_eq!(g["moves"].as_u64(), Some(*moves));
    }
    let text = String::from_utf8(kifu(&["show", coll.to_str().unwrap()]).stdout).unwrap();
    assert!(text.contains("black_name: Lee Sedol") && text.contains("(;B[pd];W[dp];B[pp];W[dd])"), "{text}");
    let bad = Command::new(KIFU).args(["show", &format!("{}@99999", coll.display())]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));

    // kifu find.
    let d = db.to_str().unwrap();
    let find = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["find", "--json", "--db", d];
        a.extend_from_slice(args);
        let v = kifu_json(&a);
        let mut names: Vec<String> =
            v["games"].as_array().unwrap().iter().map(|g| g["black_name"].as_str().unwrap_or("").to_owned()).collect();
        names.sort();
        names
    };
    assert_eq!(find(&["--player", "lee sedol"]), ["Fox player", "Lee Sedol"]);
    assert_eq!(find(&["--player", "Shusaku"]), ["Honinbo Shusaku"]);
    assert_eq!(find(&["--event", "Kisei"]), ["Lee Sedol"]);
    assert_eq!(find(&["--from", "2005", "--to", "2016-10"]), ["Fox player", "Lee Sedol"]);
    assert_eq!(find(&["--to", "1900"]), ["Honinbo Shusaku"]);
    assert_eq!(find(&["--result", "W"]), ["Ke Jie", "Lee Sedol"]);
    assert_eq!(find(&["--result", "B", "--from", "2000"]), ["Fox player"]);
    assert_eq!(find(&["--opening", "B[pd];W[dp]"]), ["Ke", "Ke Jie", "Lee Sedol"]);
    assert_eq!(find(&["--opening", "pd dp pp dd"]), ["Ke", "Ke Jie", "Lee Sedol"]);
    assert_eq!(find(&["--opening", "(;B[ee];W[]"]), ["Fox player"]);
    assert!(find(&["--opening", "PD"]).is_empty(), "coordinates are case-sensitive");
    let dups = kifu_json(&["find", "--json", "--duplicates", "--db", d]);
    assert_eq!(dups["count"], 1, "{dups}");
    let group = dups["groups"][0]["games"].as_array().unwrap();
    assert_eq!(group.len(), 3, "{dups}"); // single.sgf, copy.sgf and the collection's first game
    assert!(
        Command::new(KIFU).args(["find", "--db", d, "--from", "yesterday"]).output().unwrap().status.code() == Some(2)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn incremental_runs() {
    let root = temp("incremental");
    let dir = root.join("games");
    fixtures(&dir);
    // An unreadable file: a dangling symbolic link.
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("nowhere.sgf"), dir.join("dangling.sgf")).unwrap();
    let db = root.join("i.sqlite");
    let first = index(&db, &[&dir], &["--threads", "2"]);
    assert_eq!(n(&first, "files_read"), n(&first, "files_seen"));
    #[cfg(unix)]
    {
        let c = Connection::open(&db).unwrap();
        let e: i64 = c.query_row("SELECT errors FROM files WHERE path LIKE '%dangling.sgf'", [], |r| r.get(0)).unwrap();
        assert_eq!(e, 1, "an unreadable file is one error");
    }
    // Nothing changed: nothing read.
    let again = index(&db, &[&dir], &[]);
    assert_eq!(n(&again, "files_read"), 0, "{again}");
    assert_eq!(n(&again, "files_unchanged"), n(&first, "files_seen"));
    assert_eq!(n(&again, "games"), n(&first, "games"));
    // A changed file is read again, and only it.
    let single = dir.join("sub/single.sgf");
    std::fs::write(&single, format!("{SINGLE}\n{SINGLE}")).unwrap();
    let f = std::fs::File::options().write(true).open(&single).unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).unwrap();
    drop(f);
    let changed = index(&db, &[&dir], &[]);
    assert_eq!(n(&changed, "files_read"), 1, "{changed}");
    assert_eq!(n(&changed, "games"), n(&first, "games") + 1);
    // A deleted file's rows go; a new file is read.
    std::fs::remove_file(dir.join("collection.sgf")).unwrap();
    std::fs::write(dir.join("new.sgf"), "(;B[aa])").unwrap();
    let deleted = index(&db, &[&dir], &[]);
    assert_eq!((n(&deleted, "files_read"), n(&deleted, "files_deleted")), (1, 1), "{deleted}");
    assert_eq!(n(&deleted, "games"), n(&first, "games") + 1 - 3 + 1);
    // A database inside the indexed folder does not index itself.
    let inner = dir.join("inner.sqlite");
    let a = index(&inner, &[&dir], &[]);
    let b = index(&inner, &[&dir], &[]);
    assert_eq!((n(&a, "files"), n(&b, "files_read")), (n(&deleted, "files"), 0), "{a} {b}");
    for f in ["inner.sqlite", "inner.sqlite-wal", "inner.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    // Indexing another folder into the same database keeps the first one's rows.
    let other = root.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("x.sgf"), "(;W[bb])").unwrap();
    let both = index(&db, &[&other], &[]);
    assert_eq!(n(&both, "games"), n(&deleted, "games") + 1);
    assert_consistent(&db);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_killed_run_leaves_a_consistent_database() {
    let root = temp("killed");
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    let mut game = String::from("(;GM[1]SZ[19]PB[Black]PW[White]");
    for i in 0..300u32 {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let x = (b'a' + (i % 19) as u8) as char;
        let y = (b'a' + (i / 19 % 19) as u8) as char;
        game.push_str(&format!(";{c}[{x}{y}]C[move {i}]"));
    }
    game.push(')');
    let files = 3000;
    for i in 0..files {
        std::fs::write(dir.join(format!("{i:05}.sgf")), &game).unwrap();
    }
    let db = root.join("i.sqlite");
    let mut child = Command::new(KIFU)
        .args(["index", "--threads", "1", "--batch", "5", "--db", db.to_str().unwrap(), dir.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once some batches are committed.
    let start = std::time::Instant::now();
    let mut killed_midway = false;
    while start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        if child.try_wait().unwrap().is_some() {
            break;
        }
        let committed = Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row("SELECT count(*) FROM files", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0);
        if committed > 0 {
            child.kill().unwrap();
            killed_midway = true;
            break;
        }
    }
    let _ = child.wait();
    let (f, g) = assert_consistent(&db);
    assert_eq!(f, g, "one game per file");
    if killed_midway {
        assert!(f < files, "the run had finished before the kill ({f} files)");
    } else {
        eprintln!("note: the run finished before it could be killed");
    }
    // The next run completes the index, reading only what is missing.
    let s = index(&db, &[&dir], &[]);
    assert_eq!(n(&s, "games"), files);
    assert_eq!(n(&s, "files_read"), files - f);
    assert_consistent(&db);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn mutated_files_never_stop_the_run() {
    let Some(corpus) = common::corpus_dir("sgf") else { return };
    let root = temp("mutated");
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = common::rng::XorShift::new(0x9E37_79B9_7F4A_7C15);
    let sources = common::files(&corpus.join("edge"), &[".sgf"]);
    for (i, src) in sources.iter().enumerate() {
        let mut bytes = std::fs::read(src).unwrap();
        for _ in 0..1 + rng.next() % 8 {
            if bytes.is_empty() {
                break;
            }
            let at = (rng.next() % bytes.len() as u64) as usize;
            match rng.next() % 3 {
                0 => bytes[at] ^= 1 << (rng.next() % 8),
                1 => bytes.insert(at, b"()[];\\\0\xff"[(rng.next() % 8) as usize]),
                _ => {
                    bytes.remove(at);
                }
            }
        }
        std::fs::write(dir.join(format!("{i:04}.sgf")), bytes).unwrap();
    }
    let db = root.join("i.sqlite");
    let s = index(&db, &[&dir], &[]);
    let stats = kifu_json(&["stats", "--json", dir.to_str().unwrap()]);
    assert_eq!(n(&s, "games"), n(&stats, "games"));
    assert_eq!(n(&s, "files"), sources.len() as u64);
    assert_consistent(&db);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn corpus_index_matches_stats_and_show() {
    let Some(corpus) = common::corpus_dir("sgf") else { return };
    let root = temp("corpus");
    let db = root.join("i.sqlite");
    let s = index(&db, &[&corpus], &[]);
    let stats = kifu_json(&["stats", "--json", corpus.to_str().unwrap()]);
    assert_eq!(n(&s, "games"), n(&stats, "games"), "index {s} vs stats {stats}");
    assert_eq!(n(&s, "files_read"), n(&stats, "files") + n(&stats, "skipped"));
    assert_eq!(n(&s, "errors"), n(&stats, "errors"));
    let (_, games) = assert_consistent(&db);
    assert_eq!(games, n(&stats, "games"));
    // A re-run reads nothing.
    let again = index(&db, &[&corpus], &[]);
    assert_eq!(n(&again, "files_read"), 0);

    // For a sample of rows (every collection's first, middle and last game, and every 97th game),
    // `kifu show PATH@OFFSET` reads the same game as the whole-file reading of the index.
    let c = Connection::open(&db).unwrap();
    let mut st = c
        .prepare(
            "SELECT f.path, g.offset, g.moves, g.main_hash, g.opening, ifnull(g.black_name, ''), g.game_index, f.games
             FROM games g JOIN files f ON f.id = g.file_id
             WHERE g.id % 97 = 0 OR (f.games > 1 AND g.game_index IN (0, f.games / 2, f.games - 1))
             ORDER BY g.id",
        )
        .unwrap();
    type Sample = (String, i64, i64, i64, String, String, i64, i64);
    let rows: Vec<Sample> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(rows.len() > 100, "{}", rows.len());
    for (path, offset, moves, hash, opening, black, _, _) in &rows {
        let g = kifu_json(&["show", "--json", &format!("{path}@{offset}")]);
        let line = g["main_line"].as_str().unwrap();
        assert_eq!(xxhash_rust::xxh3::xxh3_64(line.as_bytes()), *hash as u64, "{path}@{offset}");
        assert_eq!(g["moves"].as_i64(), Some(*moves), "{path}@{offset}");
        assert!(line[2.min(line.len())..].starts_with(opening.as_str()), "{path}@{offset}");
        assert_eq!(g["black_name"].as_str().unwrap_or(""), black, "{path}@{offset}");
        assert_eq!(g["offset"].as_i64(), Some(*offset));
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The index counts a game's variations as `kifu stats` does: a sibling variation of the main
/// line's last move (KIF, KI2, JKF and Jago XML give them so) leaves that move the end of a
/// line (before 2026-11-29 the index, `kifu show` and the Arrow export counted one variation
/// fewer there). By hand, and over the corpus's folders with variations.
#[test]
fn variations_are_counted_as_stats_counts_them() {
    let root = temp("variations");
    std::fs::create_dir_all(&root).unwrap();
    let f = root.join("last.ki2");
    std::fs::write(&f, "手合割：平手\n▲７六歩    △３四歩    ▲２六歩    △８四歩\n\n変化：4手\n△４四歩\n").unwrap();
    let g = kifu_json(&["show", "--json", &format!("{}@0", f.display())]);
    assert_eq!((g["moves"].as_u64(), g["variations"].as_u64()), (Some(4), Some(1)), "{g}");
    let Some(corpus) = common::corpus() else { return };
    // The index keeps paths as it walked them; one spelling for both sides.
    let corpus = corpus.canonicalize().unwrap();
    let db = root.join("i.sqlite");
    let c = {
        let dirs: Vec<PathBuf> = ["kif", "ki2", "jkf", "jago-xml"].iter().map(|d| corpus.join(d)).collect();
        let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        index(&db, &paths, &[]);
        Connection::open(&db).unwrap()
    };
    for d in ["kif", "ki2", "jkf", "jago-xml"] {
        let dir = corpus.join(d);
        let stats = kifu_json(&["stats", "--json", dir.to_str().unwrap()]);
        let pattern = format!("{}/%", dir.display());
        let indexed: i64 = c
            .query_row(
                "SELECT ifnull(sum(g.variations), 0) FROM games g JOIN files f ON f.id = g.file_id WHERE f.path LIKE ?1",
                [&pattern],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(indexed as u64, n(&stats, "variations"), "{d}");
        assert!(indexed > 0, "{d}: the folder has variations");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The same game in SGF, JGF v1/v2 and Jago XML (converted/: each written by a third-party tool
/// from a corpus SGF) gets the same main-line hash, for every game whose `names.tsv` row says the
/// writer kept the main line (`same`). Formats without a reader yet are skipped (their files have
/// no format in the index), so this test grows as readers land.
#[test]
fn same_game_same_hash_across_formats() {
    let Some(corpus) = common::corpus() else { return };
    let corpus = std::fs::canonicalize(corpus).unwrap();
    let root = temp("formats");
    let db = root.join("i.sqlite");
    let folders = ["jgf2-seki", "jgf1-nggo", "xml-gogui"];
    let converted: Vec<PathBuf> = folders.iter().map(|f| corpus.join("converted").join(f)).collect();
    let mut paths: Vec<&Path> = converted.iter().map(PathBuf::as_path).collect();
    let sgf = corpus.join("sgf");
    paths.push(&sgf);
    index(&db, &paths, &[]);
    let c = Connection::open(&db).unwrap();
    // (format, games, hash of the first game) of a file.
    let first = |path: &Path| -> Option<(Option<String>, i64, Option<i64>)> {
        c.query_row(
            "SELECT f.format, f.games, (SELECT main_hash FROM games g WHERE g.file_id = f.id ORDER BY offset LIMIT 1)
             FROM files f WHERE f.path = ?1",
            [path.to_string_lossy()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .ok()
    };
    let (mut compared, mut sources) = (0, 0);
    for dir in &converted {
        let tsv = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
        for line in tsv.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 9 || cols[4] != "ok" || cols[5] != "same" {
                continue;
            }
            // Every source is in the index (so that the comparison below cannot silently vanish).
            let src = first(&corpus.join(cols[8])).unwrap_or_else(|| panic!("{} not indexed", cols[8]));
            assert_eq!(src.0.as_deref(), Some("sgf"), "{}", cols[8]);
            sources += 1;
            let Some((Some(_), 1, Some(hash))) = first(&dir.join(cols[0])) else { continue };
            let (_, 1, Some(source)) = src else { continue };
            assert_eq!(hash, source, "{} vs {}", dir.join(cols[0]).display(), cols[8]);
            compared += 1;
        }
    }
    assert!(sources > 1000, "{sources}");
    eprintln!("{compared} converted games compared with their SGF source ({sources} sources found)");
    let _ = std::fs::remove_dir_all(&root);
}

/// Archives and compressed files: one row per member under its archive's row, offsets in the
/// decompressed member that `kifu tree` and `kifu show` reach again, broken archives counted as
/// errors, and incremental runs over archives.
#[test]
fn archives_and_compressed_files() {
    use common::archive::{gzip, tar_of, zip_of};
    let root = temp("archives");
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    let zip = zip_of(&[
        ("collection.sgf", COLLECTION.as_bytes().to_vec()),
        ("sub/single.sgf.gz", gzip(SINGLE.as_bytes())),
        ("README.md", b"# not a game\n".to_vec()),
        ("broken.sgf", b"(;PB[Broken];B[aa];W[bb".to_vec()),
    ]);
    std::fs::write(dir.join("games.zip"), &zip).unwrap();
    let tar =
        tar_of(&[("a/collection.sgf", COLLECTION.as_bytes().to_vec()), ("single.sgf", SINGLE.as_bytes().to_vec())]);
    std::fs::write(dir.join("games.tar.gz"), gzip(&tar)).unwrap();
    std::fs::write(dir.join("collection.sgf.gz"), gzip(COLLECTION.as_bytes())).unwrap();
    std::fs::write(dir.join("broken.zip"), &zip[..zip.len() / 2]).unwrap();
    let gz = gzip(COLLECTION.as_bytes());
    std::fs::write(dir.join("truncated.sgf.gz"), &gz[..gz.len() - 20]).unwrap();
    let db = root.join("a.sqlite");

    let s = index(&db, &[&dir], &[]);
    let stats = kifu_json(&["stats", "--json", dir.to_str().unwrap()]);
    assert_eq!(n(&s, "games"), n(&stats, "games"), "index {s} vs stats {stats}");
    // 5 in the zip (collection, single, the broken game), 4 in the tar, 3 in the .gz,
    // and the games read before the truncated gzip stream broke.
    assert!(n(&s, "games") >= 11, "{s}");
    let (files, games) = assert_consistent(&db);
    assert_eq!(games, n(&s, "games"));
    // 5 files on disk, 4 zip members, 2 tar members.
    assert_eq!(files, 5 + 4 + 2, "{s}");

    let c = Connection::open(&db).unwrap();
    let row = |sql: &str| -> (i64, Option<String>) { c.query_row(sql, [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap() };
    let zip_path = dir.join("games.zip").to_str().unwrap().to_owned();
    let (zip_id, _) = row(&format!("SELECT id, format FROM files WHERE path = '{zip_path}'"));
    let members: i64 = c.query_row("SELECT count(*) FROM files WHERE parent_id = ?1", [zip_id], |r| r.get(0)).unwrap();
    assert_eq!(members, 4);
    let (errors, error) = row("SELECT errors, error FROM files WHERE path LIKE '%broken.zip'");
    assert_eq!(errors, 1, "a broken archive is one error");
    assert!(error.is_some_and(|e| e.contains("zip")));
    let (errors, _) = row("SELECT errors, error FROM files WHERE path LIKE '%truncated.sgf.gz'");
    assert!(errors >= 1, "a truncated gzip stream is an error");
    let (errors, format) = row("SELECT errors, format FROM files WHERE path LIKE '%games.zip!broken.sgf'");
    assert_eq!((errors, format.as_deref()), (1, Some("sgf")));
    let (games_in, format) = row("SELECT games, format FROM files WHERE path LIKE '%games.zip!README.md'");
    assert_eq!((games_in, format), (0, None), "a member that is not a game record");

    // Every game row, read back from its member at its offset, is the line of the whole member.
    let mut st = c
        .prepare(
            "SELECT f.path, g.game_index, g.offset, g.main_hash FROM games g JOIN files f ON f.id = g.file_id
             WHERE g.errors = 0 ORDER BY f.path, g.game_index",
        )
        .unwrap();
    let rows: Vec<(String, i64, i64, i64)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap().map(Result::unwrap).collect();
    assert!(rows.len() >= 9, "{rows:?}");
    let mut checked_members = 0;
    for (path, i, offset, hash) in &rows {
        let whole = String::from_utf8(kifu(&["tree", "--moves", path]).stdout).unwrap();
        let target = format!("{path}@{offset}");
        let one = String::from_utf8(kifu(&["tree", "--moves", &target]).stdout).unwrap();
        assert_eq!(one.lines().next(), whole.lines().nth(*i as usize), "{target}");
        let shown = kifu_json(&["show", "--json", &target]);
        assert_eq!(shown["main_hash"].as_str().unwrap(), format!("{:016x}", *hash as u64), "{target}");
        checked_members += path.contains('!') as usize;
    }
    assert!(checked_members >= 6);
    // The same game in a zip member compressed again, in a tar.gz member and in a .gz file.
    let same: i64 = c
        .query_row(
            "SELECT count(DISTINCT f.path) FROM games g JOIN files f ON f.id = g.file_id
             WHERE g.black_name = 'Ke Jie'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let hashes: i64 = c
        .query_row("SELECT count(DISTINCT main_hash) FROM games WHERE black_name = 'Ke Jie'", [], |r| r.get(0))
        .unwrap();
    assert_eq!((same, hashes), (2, 1));
    drop(st);
    drop(c);

    // Nothing changed: nothing read. A touched archive is read again with its members; a deleted
    // one takes its members' rows along.
    assert_eq!(n(&index(&db, &[&dir], &[]), "files_read"), 0);
    let f = std::fs::File::options().write(true).open(dir.join("games.zip")).unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).unwrap();
    drop(f);
    let again = index(&db, &[&dir], &[]);
    assert_eq!((n(&again, "files_read"), n(&again, "games"), n(&again, "files")), (1, n(&s, "games"), files));
    std::fs::remove_file(dir.join("games.zip")).unwrap();
    let gone = index(&db, &[&dir], &[]);
    assert_eq!((n(&gone, "files_deleted"), n(&gone, "files")), (1, files - 5), "{gone}");
    assert_eq!(n(&gone, "games"), n(&s, "games") - 5);
    assert_consistent(&db);
    let _ = std::fs::remove_dir_all(&root);
}
