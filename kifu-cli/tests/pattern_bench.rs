//! Pattern search speed (ignored by default: a measurement, run with
//! `cargo test --release -p kifu-cli --test pattern_bench -- --ignored --nocapture`).
//!
//! Indexes the corpus, then copies its Go games' rows within the `games` table until there are
//! at least 100,000 Go games (SQL `INSERT … SELECT`: the same rows again, so the same bytes to
//! read and replay as real games), and times `find_pattern` for 7×7 corner patterns drawn
//! (seeded) from random Go games at random move numbers (the corner with the most stones, the
//! main line's moves replayed on a 19×19 board), on this one thread. Prints each query's time,
//! the median and the time per 100,000 games, wall and this thread's CPU time (the machine is
//! shared). Asserts nothing: a measurement.

mod common;

use common::rng::XorShift;
use std::time::Instant;

#[test]
#[ignore]
fn pattern_query_speed() {
    let Some(corpus) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("kifu-pattern-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("c.sqlite");
    let t = Instant::now();
    kifu_index::build(&[&corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    println!("index built in {:.2} s", t.elapsed().as_secs_f64());
    let conn = kifu_index::open_existing(&db).unwrap();
    let blob: (i64, i64) = conn
        .query_row("SELECT count(*), sum(length(pattern)) FROM games WHERE pattern IS NOT NULL", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    let moves: i64 =
        conn.query_row("SELECT sum(moves) FROM games WHERE pattern IS NOT NULL", [], |r| r.get(0)).unwrap();
    println!(
        "pattern column: {} Go games, {} bytes, {:.1} bytes a game, {:.2} bytes a move",
        blob.0,
        blob.1,
        blob.1 as f64 / blob.0 as f64,
        blob.1 as f64 / moves as f64
    );
    // The patterns' sources, before the copies.
    let games: Vec<(String, u64, u32)> = {
        let mut st = conn
            .prepare("SELECT f.path, g.offset, g.moves FROM games g JOIN files f ON f.id = g.file_id WHERE g.pattern IS NOT NULL AND g.moves > 0 ORDER BY g.id")
            .unwrap();
        let rows =
            st.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64, r.get::<_, i64>(2)? as u32))).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let cols: Vec<String> = {
        let mut st = conn.prepare("SELECT name FROM pragma_table_info('games') WHERE name != 'id'").unwrap();
        let rows = st.query_map([], |r| r.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let cols = cols.join(", ");
    drop(conn);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut copies = 1;
    let mut go: i64 = blob.0;
    while go < 100_000 {
        conn.execute(&format!("INSERT INTO games({cols}) SELECT {cols} FROM games WHERE pattern IS NOT NULL"), [])
            .unwrap();
        go *= 2;
        copies *= 2;
    }
    let total: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
    println!("{go} Go games ({copies} copies), {total} games in the table");
    drop(conn);

    let mut rng = XorShift::new(77);
    // The rows alone: what reading them costs before any replay.
    for _ in 0..3 {
        let cpu0 = thread_cpu();
        let conn = kifu_index::open_existing(&db).unwrap();
        let mut st = conn.prepare("SELECT id, winner, pattern FROM games WHERE pattern IS NOT NULL").unwrap();
        let mut rows = st.query([]).unwrap();
        let (mut n, mut bytes) = (0u64, 0usize);
        while let Some(r) = rows.next().unwrap() {
            n += 1;
            bytes += r.get_ref(2).unwrap().as_blob().map_or(0, <[u8]>::len);
        }
        let cpu = thread_cpu() - cpu0;
        println!(
            "reading the rows alone: {n} rows, {bytes} bytes, CPU {cpu:.3} s ({:.3} s per 100,000)",
            cpu * 1e5 / n as f64
        );
    }
    let (mut times, mut cpus) = (Vec::new(), Vec::new());
    for _ in 0..12 {
        let (path, offset, moves) = &games[(rng.next() % games.len() as u64) as usize];
        let number = 20 + (rng.next() % (*moves as u64).saturating_sub(19).max(1)) as u32;
        let number = number.min(*moves);
        let bytes = std::fs::read(path).unwrap();
        let bytes = kifu::text::transcode_utf16(&bytes).unwrap_or(bytes);
        // The 7×7 corner around the game's top left corner at that move, from its SGF.
        let (row, _) = kifu_index::read_game(&bytes, *offset).unwrap();
        let line = row.main_line.unwrap_or_default();
        let mut sgf = String::from("(;SZ[19]");
        for m in line.trim_matches(|c| c == '(' || c == ')').split(';').filter(|m| !m.is_empty()).take(number as usize)
        {
            sgf.push(';');
            sgf.push_str(m);
        }
        sgf.push(')');
        let mut board = kifu::position::go::Board::new(19, 19).unwrap();
        for ev in kifu::sgf::Reader::new(sgf.as_bytes()) {
            if let Ok(kifu::Event::Move(kifu::Move::Go { color, point })) = ev {
                let _ = board.play(color, point);
            }
        }
        // The corner with the most stones, seen as the top left one.
        let at = |flip: u8, x: u8, y: u8| {
            let x = if flip & 1 != 0 { 18 - x } else { x };
            let y = if flip & 2 != 0 { 18 - y } else { y };
            board.get(kifu::Point::new(x, y))
        };
        let flip = (0..4u8).max_by_key(|&f| (0..49u8).filter(|i| at(f, i % 7, i / 7).is_some()).count()).unwrap_or(0);
        let mut diagram = String::new();
        for y in 0..7 {
            if y > 0 {
                diagram.push('/');
            }
            for x in 0..7 {
                diagram.push(match at(flip, x, y) {
                    Some(kifu::Color::Black) => 'X',
                    Some(kifu::Color::White) => 'O',
                    None => '.',
                });
            }
        }
        let pattern = kifu_index::Pattern::from_diagram(&diagram, kifu_index::Anchor::Corner).unwrap();
        let t = Instant::now();
        let cpu0 = thread_cpu();
        let conn = kifu_index::open_existing(&db).unwrap();
        let r = kifu_index::find_pattern(&conn, &pattern, &kifu_index::Query::default()).unwrap();
        let s = t.elapsed().as_secs_f64();
        let cpu = thread_cpu() - cpu0;
        times.push(s);
        cpus.push(cpu);
        println!(
            "{diagram} (from {path}@{offset}#{number}): {} games, {} searched, wall {:.3} s, CPU {:.3} s, {:.2} µs CPU a game, {:.3} s CPU per 100,000",
            r.games,
            r.scanned,
            s,
            cpu,
            cpu * 1e6 / r.scanned as f64,
            cpu * 1e5 / r.scanned as f64
        );
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    cpus.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let (med, cpu) = (times[times.len() / 2], cpus[cpus.len() / 2]);
    println!(
        "7x7 corner pattern over {go} Go games: median wall {med:.3} s ({:.3} s per 100,000 games), median CPU of this thread {cpu:.3} s ({:.3} s per 100,000 games)",
        med * 1e5 / go as f64,
        cpu * 1e5 / go as f64
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// This thread's CPU time in seconds (Linux: `/proc/thread-self/schedstat`, nanoseconds on a
/// CPU), 0 elsewhere: on a loaded machine the wall time also counts the time other processes
/// ran.
fn thread_cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
}
