//! Positions in the index, by hand: a game and its rotated and reflected copies give one hash
//! and aligned continuations; shogi positions by SFEN; incremental runs (files added, changed,
//! deleted; the positions file lost) leave exactly the postings of a fresh build; and the
//! `kifu find --position` / `kifu explore` commands.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-positions-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The moves of a game as SGF points, through a symmetry given as a function of (x, y).
fn sgf(moves: &[(u8, u8)], size: u8, f: impl Fn(u8, u8) -> (u8, u8)) -> String {
    let mut s = format!("(;GM[1]SZ[{size}]PB[b]PW[w]RE[B+R]DT[2001-02-03]");
    for (i, &(x, y)) in moves.iter().enumerate() {
        let (x, y) = f(x, y);
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(";{c}[{}{}]", (b'a' + x) as char, (b'a' + y) as char));
    }
    s.push(')');
    s
}

/// A symmetry of the board, as a function of the point.
type Symmetry = dyn Fn(u8, u8) -> (u8, u8);

fn build(dir: &Path, db: &Path) -> kifu_index::Summary {
    kifu_index::build(&[dir], &kifu_index::Options::new(db), &mut kifu_index::Silent).unwrap()
}

/// Every posting of the index at `db`, as `dump_postings` gives them.
fn dump(db: &Path) -> Vec<(u64, String, u64, u32, u32)> {
    let conn = kifu_index::open_existing(db).unwrap();
    kifu_index::dump_postings(&conn, db).unwrap()
}

/// Writes `n` generated 19×19 games into `data` (created), file `i` (named with `digits`
/// digits) holding `len(i)` moves stepping over the board by `(dx, dy)`.
fn write_games(data: &Path, n: u32, digits: usize, len: impl Fn(u32) -> u32, (dx, dy): (u32, u32)) {
    std::fs::create_dir_all(data).unwrap();
    for i in 0..n {
        let moves: Vec<(u8, u8)> =
            (0..len(i)).map(|k| (((i + dx * k) % 19) as u8, ((k * dy + i / 19) % 19) as u8)).collect();
        std::fs::write(data.join(format!("{i:0digits$}.sgf")), sgf(&moves, 19, |x, y| (x, y))).unwrap();
    }
}

#[test]
fn a_game_and_its_rotated_copies_meet() {
    let dir = temp("sym");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    // pd, dp, pp, then a capture-free middle; the copies turned, mirrored and transposed.
    let moves = [(15, 3), (3, 15), (15, 15), (2, 5), (16, 13), (13, 16)];
    let n = 18;
    let syms: [(&str, Box<Symmetry>); 4] = [
        ("id", Box::new(|x, y| (x, y))),
        ("turn", Box::new(move |x, y| (n - y, x))),
        ("mirror", Box::new(move |x, y| (n - x, y))),
        ("transpose", Box::new(|x, y| (y, x))),
    ];
    for (name, f) in &syms {
        std::fs::write(data.join(format!("{name}.sgf")), sgf(&moves, 19, f)).unwrap();
    }
    let db = dir.join("db.sqlite");
    build(&data, &db);
    let conn = kifu_index::open_existing(&db).unwrap();
    // After 3 moves, each copy reaches the position of the others; asked in the original's
    // orientation, every one of them played `cf` next (its own move turned back).
    for (name, _) in &syms {
        let bytes = std::fs::read(data.join(format!("{name}.sgf"))).unwrap();
        let p = kifu_index::Position::from_game(&bytes, 0, 3).unwrap();
        let q = kifu_index::Position::from_go_moves("pd dp pp", 19).unwrap();
        assert_eq!(p.hash, q.hash, "{name}");
        let hits = kifu_index::find_position(&conn, &db, &q, &kifu_index::Query::default()).unwrap();
        assert_eq!(hits.len(), 4);
        assert!(hits.iter().all(|h| h.number == 3 && kifu_index::move_text(h.next) == "W[cf]"), "{hits:?}");
        let table = kifu_index::explore(&conn, &db, &q, 1).unwrap();
        assert_eq!(table.games, 4);
        assert_eq!(table.moves.len(), 1);
        let c = &table.moves[0];
        assert_eq!((kifu_index::move_text(c.next), c.games, c.black_wins), ("W[cf]".to_owned(), 4, 4));
        assert_eq!(c.players, vec![("w".to_owned(), 4)]);
    }
    // Asked in the turned copy's orientation, the move is the turned one.
    let turned = kifu_index::Position::from_go_moves("pp dd dp", 19).unwrap();
    let table = kifu_index::explore(&conn, &db, &turned, 1).unwrap();
    assert_eq!(kifu_index::move_text(table.moves[0].next), "W[nc]");
    // The symmetries found: each copy's board taken onto the query's.
    let hits = kifu_index::find_position(&conn, &db, &turned, &kifu_index::Query::default()).unwrap();
    let mut syms: Vec<u8> = hits.iter().map(|h| h.symmetry).collect();
    syms.sort();
    syms.dedup();
    assert_eq!(syms.len(), 4, "{hits:?}");
    assert!(hits.iter().any(|h| h.hit.path.ends_with("turn.sgf") && h.symmetry == 0));
    // The empty board: one first move up to symmetry (the four 4-4 points are one, `dd`).
    let empty = kifu_index::Position::from_go_moves("", 19).unwrap();
    let table = kifu_index::explore(&conn, &db, &empty, 1).unwrap();
    assert_eq!(table.moves.len(), 1);
    assert_eq!(kifu_index::move_text(table.moves[0].next), "B[dd]");
    // Another board size is another position; SGF setup is a position like any other.
    let small = kifu_index::Position::from_go_moves("pd dp pp", 13);
    assert!(small.is_err() || small.unwrap().hash != turned.hash);
    let setup = kifu_index::Position::from_sgf_setup("AB[pd][pp]AW[dp]").unwrap();
    assert_eq!(setup.hash, turned.hash);
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shogi_positions_by_sfen_and_usi() {
    let dir = temp("shogi");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("a.usi"), "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    // The same position by another order of moves.
    std::fs::write(data.join("b.usi"), "position startpos moves 2g2f 3c3d 7g7f 8c8d\n").unwrap();
    let db = dir.join("db.sqlite");
    build(&data, &db);
    let conn = kifu_index::open_existing(&db).unwrap();
    let q = kifu_index::Position::from_usi_moves("7g7f 3c3d 2g2f").unwrap();
    let sfen = q.sfen.clone().unwrap();
    assert_eq!(kifu_index::Position::from_sfen(&sfen).unwrap().hash, q.hash);
    // The move number does not matter.
    let other_number = format!("{sfen} 99");
    assert_eq!(
        kifu_index::Position::from_sfen(&other_number).unwrap_or_else(|e| panic!("{other_number}: {e}")).hash,
        q.hash
    );
    let hits = kifu_index::find_position(&conn, &db, &q, &kifu_index::Query::default()).unwrap();
    assert_eq!(hits.len(), 2);
    let table = kifu_index::explore(&conn, &db, &q, 1).unwrap();
    let moves: Vec<String> = table.moves.iter().map(|c| kifu_index::move_text(c.next)).collect();
    assert_eq!(moves, ["-8384FU", "end"]);
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn incremental_runs_leave_the_postings_of_a_fresh_build() {
    let dir = temp("incr");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    let w = |name: &str, text: &str| std::fs::write(data.join(name), text).unwrap();
    w("a.sgf", "(;B[pd];W[dp];B[pp])");
    w("b.sgf", "(;B[dd];W[pp])(;B[qd];W[dc];B[cp])");
    w("c.csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n");
    let db = dir.join("inc.sqlite");
    build(&data, &db);
    // Add, change (another length, so the size differs), delete.
    w("d.sgf", "(;SZ[9];B[cc];W[gg];B[cg])");
    w("a.sgf", "(;B[pd];W[dd];B[pq];W[dp];B[qk])");
    std::fs::remove_file(data.join("b.sgf")).unwrap();
    let second = build(&data, &db);
    assert_eq!((second.files_read, second.files_deleted), (2, 1));

    let fresh_db = dir.join("fresh.sqlite");
    build(&data, &fresh_db);
    let fresh = dump(&fresh_db);
    assert_eq!(fresh.len(), 6 + 3 + 4, "{fresh:?}");
    assert_eq!(dump(&db), fresh);
    assert!(dump(&db).iter().all(|p| !p.1.is_empty()));

    // The positions file lost (or a run killed before writing it): the next run reads the
    // files whose games it lacks, and the postings are whole again.
    let pos = PathBuf::from(format!("{}.positions", db.display()));
    std::fs::remove_file(&pos).unwrap();
    let third = build(&data, &db);
    assert_eq!(third.files_read, 3);
    assert_eq!(dump(&db), fresh);
    // Nothing changed: nothing read, the file stays.
    let fourth = build(&data, &db);
    assert_eq!(fourth.files_read, 0);
    assert_eq!(dump(&db), fresh);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn find_position_and_explore_commands() {
    let dir = temp("cli");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("a.sgf"), "(;PB[Lee]PW[Cho]RE[W+R];B[pd];W[dp];B[pp];W[dd])").unwrap();
    std::fs::write(data.join("b.sgf"), "(;PB[Kim]PW[Park]RE[B+R];B[dd];W[pp];B[dp];W[pd])").unwrap();
    let db = dir.join("db.sqlite");
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let run = |args: &[&str]| {
        let out = Command::new(kifu).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let dbs = db.to_str().unwrap();
    run(&["index", data.to_str().unwrap(), "--db", dbs]);
    // b's position after 2 moves is a's after 2, mirrored: both are found from a's own. The
    // position is its own image in the diagonal through pd and dp, so pp (a's next move, and
    // b's dp mirrored) is shown as its first equivalent point, dd.
    let a2 = format!("{}#2", data.join("a.sgf").display());
    let out = run(&["find", "--db", dbs, "--position", &a2]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().all(|l| l.contains("\t#2\t") && l.ends_with("B[dd]")), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["find", "--db", dbs, "--position", &a2, "--json"])).unwrap();
    assert_eq!(json["count"], 2);
    assert_eq!(json["games"][0]["position_move"], 2);
    assert_eq!(json["games"][0]["next"], "B[dd]");
    // With another filter.
    let out = run(&["find", "--db", dbs, "--position", "pd dp", "--player", "kim"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    // Explore, by each form of the query.
    for q in [&["pd dp"][..], &["--moves", "pd dp"], &["--sgf", "AB[pd]AW[dp]"], &[&a2]] {
        let mut args = vec!["explore", "--db", dbs, "--json"];
        args.extend(q);
        let json: serde_json::Value = serde_json::from_str(&run(&args)).unwrap();
        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 1, "{json}");
        assert_eq!(moves[0]["move"], "B[dd]");
        assert_eq!((moves[0]["games"].as_u64(), moves[0]["black_wins"].as_u64()), (Some(2), Some(1)));
    }
    let table = run(&["explore", "--db", dbs, "pd dp", "--min-games", "3"]);
    assert_eq!(table.lines().count(), 2, "{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run killed once some batches are committed: the next run completes the positions (from
/// the log and by reading what is missing), equal to a fresh build's.
#[test]
fn a_killed_run_leaves_exact_positions() {
    let dir = temp("killed");
    let data = dir.join("games");
    write_games(&data, 1500, 5, |_| 60, (7, 3));
    let db = dir.join("k.sqlite");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["index", "--threads", "1", "--batch", "5", "--db", db.to_str().unwrap(), data.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        if child.try_wait().unwrap().is_some() {
            break;
        }
        let committed = rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row("SELECT count(*) FROM files", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0);
        if committed > 0 {
            child.kill().unwrap();
            break;
        }
    }
    let _ = child.wait();
    build(&data, &db);
    let fresh = dir.join("fresh.sqlite");
    build(&data, &fresh);
    let want = dump(&fresh);
    assert_eq!(want.len(), 1500 * 61);
    assert!(dump(&db) == want, "the postings differ from a fresh build's");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A memory budget of 1,024 postings: every few batches the postings go to a sorted run on
/// disk, and the runs are merged into the positions file. Fresh and incremental runs (files
/// added, changed, deleted) leave exactly the postings of a fresh build with the default
/// budget, and no run file behind.
#[test]
fn a_tiny_memory_budget_merges_runs_exactly() {
    let dir = temp("budget");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    let game = |i: u32, len: u32| {
        let moves: Vec<(u8, u8)> =
            (0..len).map(|k| (((i + 7 * k) % 19) as u8, ((k * 3 + i / 19) % 19) as u8)).collect();
        sgf(&moves, 19, |x, y| (x, y))
    };
    for i in 0..200u32 {
        std::fs::write(data.join(format!("{i:04}.sgf")), game(i, 40)).unwrap();
    }
    let db = dir.join("b.sqlite");
    let tiny = |db: &Path| {
        let mut o = kifu_index::Options::new(db);
        (o.positions_memory, o.batch, o.threads) = (1, 3, Some(1));
        kifu_index::build(&[&data], &o, &mut kifu_index::Silent).unwrap()
    };
    let first = tiny(&db);
    assert!(first.positions_runs >= 3, "{first:?}");
    let fresh = dir.join("fresh.sqlite");
    build(&data, &fresh);
    assert_eq!(dump(&fresh).len(), 200 * 41);
    assert!(dump(&db) == dump(&fresh));
    // Add, change, delete; then compare with a fresh build of what is there now.
    for i in 200..260u32 {
        std::fs::write(data.join(format!("{i:04}.sgf")), game(i, 30)).unwrap();
    }
    for i in (0..200u32).step_by(7) {
        std::fs::write(data.join(format!("{i:04}.sgf")), game(i + 1000, 25)).unwrap();
    }
    for i in (3..200u32).step_by(11) {
        std::fs::remove_file(data.join(format!("{i:04}.sgf"))).unwrap();
    }
    let second = tiny(&db);
    assert!(second.positions_runs >= 1, "{second:?}");
    let fresh2 = dir.join("fresh2.sqlite");
    build(&data, &fresh2);
    assert!(dump(&db) == dump(&fresh2), "the postings differ from a fresh build's");
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".run.") || n.ends_with(".tmp") || n.ends_with(".dir"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One transaction of more postings than their memory (a batch of 1,000 files, a budget of
/// 1,024 postings): they are logged and spilled between files, before a file that would not
/// fit, and the positions file is exactly a fresh build's.
#[test]
fn a_batch_larger_than_the_budget_spills_between_files() {
    let dir = temp("bigbatch");
    let data = dir.join("games");
    write_games(&data, 120, 4, |i| 30 + i % 50, (5, 7));
    let db = dir.join("b.sqlite");
    let mut o = kifu_index::Options::new(&db);
    (o.positions_memory, o.batch, o.threads) = (1, 1000, Some(1));
    let summary = kifu_index::build(&[&data], &o, &mut kifu_index::Silent).unwrap();
    // 120 files of 31 to 80 positions in lists of at most 512: a run at least every 16 files.
    assert!(summary.positions_runs >= 8, "{summary:?}");
    let fresh = dir.join("fresh.sqlite");
    build(&data, &fresh);
    let want = dump(&fresh);
    assert_eq!(want.len() as u32, (0..120u32).map(|i| 31 + i % 50).sum::<u32>());
    assert!(dump(&db) == want, "the postings differ from a fresh build's");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The continuation tables written for frequent positions (`DB.positions.top`) give exactly
/// what reading the games gives, and `find --position` on a frequent position gives what
/// `find`'s one statement gives: positions early in corpus games (many shared by 20 games or
/// more, the threshold here, including the empty board and symmetric one-stone boards), Go and
/// shogi.
#[test]
fn explore_tables_equal_reading_the_games() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp("tables");
    let db = dir.join("t.sqlite");
    let mut o = kifu_index::Options::new(&db);
    o.positions_summary_games = 20;
    kifu_index::build(&[&corpus], &o, &mut kifu_index::Silent).unwrap();
    assert!(PathBuf::from(format!("{}.positions.top", db.display())).exists());
    let conn = kifu_index::open_existing(&db).unwrap();
    let games: Vec<(String, u64, u32)> = {
        let mut st = conn
            .prepare("SELECT f.path, g.offset, g.moves FROM games g JOIN files f ON f.id = g.file_id ORDER BY g.id")
            .unwrap();
        let rows =
            st.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64, r.get::<_, i64>(2)? as u32))).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let mut rng = common::rng::XorShift::new(77);
    let mut frequent = 0;
    let mut checked = 0;
    let mut queries = vec![
        kifu_index::Position::from_go_moves("", 19).unwrap(),
        kifu_index::Position::from_go_moves("dd", 19).unwrap(),
        kifu_index::Position::from_go_moves("pd dp", 19).unwrap(),
        kifu_index::Position::from_usi_moves("7g7f 3c3d").unwrap(),
        kifu_index::Position::from_usi_moves("7g7f").unwrap(),
    ];
    while queries.len() < 300 {
        let (path, offset, moves) = &games[(rng.next() % games.len() as u64) as usize];
        let number = (rng.next() % (*moves as u64 + 1).min(12)) as u32;
        let bytes = std::fs::read(path).unwrap();
        let bytes = kifu::text::transcode_utf16(&bytes).unwrap_or(bytes);
        if let Ok(p) = kifu_index::Position::from_game(&bytes, *offset, number) {
            queries.push(p);
        }
    }
    for q in &queries {
        let fast = kifu_index::explore(&conn, &db, q, 1).unwrap();
        let slow = kifu_index::explore_games(&conn, &db, q, 1).unwrap();
        assert_eq!(fast, slow, "{q:?}");
        frequent += (slow.games >= 20) as u32;
        checked += 1;
        let fast = kifu_index::explore(&conn, &db, q, 3).unwrap();
        assert_eq!(fast, kifu_index::explore_games(&conn, &db, q, 3).unwrap());
        // find --position: the rows of many games read by id range and sorted here, as `find`'s
        // one statement gives them; with a limit too.
        for limit in [None, Some(7)] {
            let query = kifu_index::Query { limit, ..Default::default() };
            let fast = kifu_index::find_position(&conn, &db, q, &query).unwrap();
            assert!(fast == kifu_index::find_position_in_one_statement(&conn, &db, q, &query).unwrap(), "{q:?}");
        }
    }
    assert!(frequent >= 100, "{frequent} of {checked} positions had a table");
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `kifu find --position Q --count` (`count_position`) gives the number of games
/// `find_position` lists, whichever way it counts: from a frequent position's continuation
/// table (1,000 games or more), from the postings, from both for a position and its twin, or
/// through SQLite with a filter; with a limit and an offset too.
#[test]
fn counting_a_positions_games_agrees_with_listing_them() {
    let dir = temp("count");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    // 1,100 games opening pd dp (their positions up to there have continuation tables), the
    // third move and the length varying; 30 that White opens the same way (PL[W]: the
    // colour-swapped twins of the others' positions).
    for i in 0..1130u32 {
        let (first, second, pl) = if i < 1100 { ('B', 'W', "") } else { ('W', 'B', "PL[W]") };
        let mut s = format!("(;GM[1]SZ[19]{pl}PB[p{}]PW[q]RE[B+R]DT[2001-02-03];{first}[pd];{second}[dp]", i % 3);
        for k in 0..(i % 7) {
            let c = if k % 2 == 0 { first } else { second };
            s.push_str(&format!(";{c}[{}{}]", (b'c' + (i % 13) as u8) as char, (b'g' + k as u8) as char));
        }
        s.push(')');
        std::fs::write(data.join(format!("{i:04}.sgf")), s).unwrap();
    }
    let db = dir.join("c.sqlite");
    build(&data, &db);
    let conn = kifu_index::open_existing(&db).unwrap();
    let queries = [
        kifu_index::Query::default(),
        kifu_index::Query { limit: Some(7), ..Default::default() },
        kifu_index::Query { offset: Some(5), ..Default::default() },
        kifu_index::Query { player: Some("p1".into()), ..Default::default() },
        kifu_index::Query { moves: Some("4..".into()), limit: Some(100), ..Default::default() },
    ];
    let mut checked = 0;
    for q in ["(;SZ[19])", "pd", "pd dp", "pd dp cg", "pd dp eg dh", "aa"] {
        let pos = kifu_index::parse_position(q, 19, |_, _| None).unwrap();
        for pos in [pos.clone(), pos.also_twin()] {
            for query in &queries {
                let listed = kifu_index::find_position(&conn, &db, &pos, query).unwrap().len() as u64;
                let counted = kifu_index::count_position(&conn, &db, &pos, query).unwrap();
                assert_eq!(counted, listed, "{q} (twin {}) {query:?}", pos.with_twin);
                checked += (listed > 0) as usize;
            }
        }
    }
    assert!(checked >= 40, "{checked}");
    // The empty board and pd: all games, and 1,100 (+ 30 through the twin); the command says so.
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let count = |args: &[&str]| {
        let out =
            Command::new(kifu).args(["find", "--db", db.to_str().unwrap(), "--count"]).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(count(&["--position", "pd"]), "1100\n");
    assert_eq!(count(&["--position", "pd", "--swap-colors"]), "1130\n");
    assert_eq!(count(&["--position", "pd", "--json"]), "{\"count\":1100}\n");
    assert_eq!(count(&["--position", "(;SZ[19])", "--limit", "10"]), "10\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A listing larger than the chunk `find` writes at a time (a megabyte) comes out whole: as many
/// lines as games, and JSON that parses, in every format.
#[test]
fn a_long_listing_is_written_whole() {
    let dir = temp("long");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    // 5,000 games in 5 collections, every one through pd dp: past the 4,096th hit, where a
    // position's listing starts looking its games' postings up in a decoded copy.
    for f in 0..5u32 {
        let mut s = String::new();
        for i in 0..1000u32 {
            let name = format!("player-{f}-{i}-{}", "long-name-".repeat(30));
            s.push_str(&format!("(;GM[1]SZ[19]PB[{name}]PW[w{i}]RE[B+R]EV[Long event name {i}];B[pd];W[dp]"));
            s.push_str(&format!(";B[{}{}])\n", (b'a' + (i % 19) as u8) as char, (b'c' + (i / 19 % 10) as u8) as char));
        }
        std::fs::write(data.join(format!("{f}.sgf")), s).unwrap();
    }
    let db = dir.join("l.sqlite");
    build(&data, &db);
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let run = |args: &[&str]| {
        let out = Command::new(kifu).args(["find", "--db", db.to_str().unwrap()]).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for (args, twin) in
        [(&["--position", "pd dp"][..], false), (&["--position", "pd dp", "--swap-colors"], true), (&[], false)]
    {
        let table = run(args);
        let csv = run(&[args, &["--format", "csv"]].concat());
        let json = run(&[args, &["--json"]].concat());
        for out in [&table, &csv, &json] {
            assert!(out.len() > 1 << 20, "{args:?}: {} bytes, not past the chunk", out.len());
        }
        assert_eq!(table.lines().count(), 5000, "{args:?}");
        assert_eq!(csv.lines().count(), 5001, "{args:?}");
        assert!(csv.lines().skip(1).all(|l| l.starts_with(data.to_str().unwrap())), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let games = v["games"].as_array().unwrap();
        assert_eq!((v["count"].as_u64(), games.len()), (Some(5000), 5000), "{args:?}");
        assert!(games.iter().all(|g| g["black_name"].as_str().is_some_and(|b| b.starts_with("player-"))), "{args:?}");
        if twin {
            assert!(games.iter().all(|g| g["swapped"] == false));
        }
        // The three outputs list the same games in the same order.
        let at = |g: &serde_json::Value| format!("{}@{}", g["path"].as_str().unwrap(), g["offset"]);
        let from_json: Vec<String> = games.iter().map(at).collect();
        let from_table: Vec<String> = table.lines().map(|l| l.split('\t').next().unwrap().to_owned()).collect();
        assert_eq!(from_table, from_json, "{args:?}");
    }
    // The listing handed on hit by hit is the one statement's (an independent way to read the
    // games), past the 4,096th hit too; a listing stopped early stops there.
    let conn = kifu_index::open_existing(&db).unwrap();
    let all = kifu_index::Query::default();
    for twin in [false, true] {
        let mut pos = kifu_index::Position::from_go_moves("pd dp", 19).unwrap();
        if twin {
            pos = pos.also_twin();
        }
        let mut streamed = Vec::new();
        let n = kifu_index::find_position_each(&conn, &db, &pos, &all, |h| {
            streamed.push(h);
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let whole = kifu_index::find_position_in_one_statement(&conn, &db, &pos, &all).unwrap();
        assert_eq!((n, streamed.len()), (5000, 5000));
        assert_eq!(streamed, whole, "twin {twin}");
        let mut first = Vec::new();
        let n = kifu_index::find_position_each(&conn, &db, &pos, &all, |h| {
            first.push(h);
            if first.len() == 4100 {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!((n, &first[..]), (4100, &whole[..4100]));
    }
    let mut games = Vec::new();
    let n = kifu_index::find_each(&conn, &all, |h| {
        games.push(h);
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!((n, games), (5000, kifu_index::find(&conn, &all).unwrap()));
    let n = kifu_index::find_each(&conn, &all, |_| std::ops::ControlFlow::Break(())).unwrap();
    assert_eq!(n, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A JSON listing whose games are not the ones counted before them (here a positions file of
/// another index, with games this database does not have) says so and exits with 2; the table
/// lists what the database has.
#[test]
fn a_listing_that_is_not_its_count_says_so() {
    let dir = temp("mismatch");
    for (name, games) in
        [("a", "(;SZ[19];B[pd];W[dp])(;SZ[19];B[pd];W[dd])(;SZ[19];B[pd];W[pp])"), ("b", "(;SZ[19];B[pd];W[dp])")]
    {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        std::fs::write(dir.join(name).join("g.sgf"), games).unwrap();
        build(&dir.join(name), &dir.join(format!("{name}.sqlite")));
    }
    std::fs::copy(dir.join("a.sqlite.positions"), dir.join("b.sqlite.positions")).unwrap();
    let db = dir.join("b.sqlite");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(["find", "--db", db.to_str().unwrap()])
            .args(args)
            .output()
            .unwrap()
    };
    let json = run(&["--position", "pd", "--json"]);
    assert_eq!(json.status.code(), Some(2));
    let err = String::from_utf8_lossy(&json.stderr);
    assert!(err.contains("3 games counted but 1 listed") && err.contains("kifu index"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((v["count"].as_u64(), v["games"].as_array().unwrap().len()), (Some(3), 1));
    let table = run(&["--position", "pd"]);
    assert_eq!((table.status.code(), String::from_utf8_lossy(&table.stdout).lines().count()), (Some(0), 1));
    std::fs::remove_dir_all(&dir).unwrap();
}
