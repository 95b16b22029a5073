//! Query latency of `find_position` and `explore` over an index of the whole corpus (ignored by
//! default: a measurement, run with
//! `cargo test --release -p kifu-cli --test positions_bench -- --ignored --nocapture`).
//! 1,000 positions drawn (seeded) from random games at random move numbers; each query opens
//! the index and the positions file as the `kifu` command would. Prints the median and 99th
//! percentile of `find_position_each` (every game handed on as the command prints them, and the
//! time to the first of them), `find_position` (a page of 100), `count_position` (`--count`)
//! and `explore`, and the
//! positions file's bytes per posting. Asserts only that each position
//! finds the game it was drawn from.
//!
//! With `KIFU_BENCH_DB=PATH` it measures the index at `PATH` instead (built beforehand, for
//! example from the generated games of `kifu-index/examples/gen_games.rs`, whose files must
//! still be there) and builds nothing.

mod common;

use common::rng::XorShift;
use std::time::Instant;

#[test]
#[ignore]
fn position_query_latency() {
    let dir = std::env::temp_dir().join(format!("kifu-positions-bench-{}", std::process::id()));
    let db = match std::env::var_os("KIFU_BENCH_DB") {
        Some(db) => std::path::PathBuf::from(db),
        None => {
            let Some(corpus) = common::corpus() else { return };
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let db = dir.join("c.sqlite");
            kifu_index::build(&[&corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
            db
        }
    };
    let conn = kifu_index::open_existing(&db).unwrap();
    let games: Vec<(String, u64, u32)> = {
        let mut st =
            conn.prepare("SELECT f.path, g.offset, g.moves FROM games g JOIN files f ON f.id = g.file_id ORDER BY f.path, g.offset").unwrap();
        let rows =
            st.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64, r.get::<_, i64>(2)? as u32))).unwrap();
        rows.map(Result::unwrap).collect()
    };
    drop(conn);
    let mut rng = XorShift::new(2025);
    let mut positions = Vec::new();
    let mut cache: Option<(String, Vec<u8>)> = None;
    for _ in 0..1000 {
        let (path, offset, moves) = &games[(rng.next() % games.len() as u64) as usize];
        let number = (rng.next() % (*moves as u64 + 1)) as u32;
        if cache.as_ref().is_none_or(|c| &c.0 != path) {
            cache = Some((path.clone(), std::fs::read(path).unwrap()));
        }
        let bytes = cache.as_ref().unwrap().1.clone();
        let bytes = kifu::text::transcode_utf16(&bytes).unwrap_or(bytes);
        positions.push((path.clone(), *offset, kifu_index::Position::from_game(&bytes, *offset, number).unwrap()));
    }
    let (mut find_ms, mut explore_ms, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    let (mut page_ms, mut count_ms, mut first_ms) = (Vec::new(), Vec::new(), Vec::new());
    for (path, offset, pos) in &positions {
        // Every game, handed on one by one as `kifu find --position Q` prints them; the time to
        // the first of them too.
        let t = Instant::now();
        let conn = kifu_index::open_existing(&db).unwrap();
        let (mut first_at, mut found) = (None, false);
        let listed = kifu_index::find_position_each(&conn, &db, pos, &kifu_index::Query::default(), |h| {
            first_at.get_or_insert_with(|| t.elapsed().as_secs_f64() * 1e3);
            found |= &h.hit.path == path && h.hit.offset as u64 == *offset;
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        find_ms.push(t.elapsed().as_secs_f64() * 1e3);
        first_ms.push(first_at.unwrap());
        assert!(found, "{path}@{offset}");
        // A page of 100 (`kifu find --position Q --limit 100`).
        let t = Instant::now();
        let conn = kifu_index::open_existing(&db).unwrap();
        let page = kifu_index::Query { limit: Some(100), ..Default::default() };
        let first = kifu_index::find_position(&conn, &db, pos, &page).unwrap();
        page_ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(first.len() as u64, listed.min(100));
        // `kifu find --position Q --count`.
        let t = Instant::now();
        let conn = kifu_index::open_existing(&db).unwrap();
        let n = kifu_index::count_position(&conn, &db, pos, &kifu_index::Query::default()).unwrap();
        count_ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(n, listed);
        sizes.push(listed);
        let t = Instant::now();
        let conn = kifu_index::open_existing(&db).unwrap();
        let table = kifu_index::explore(&conn, &db, pos, 1).unwrap();
        explore_ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert!(table.games >= 1);
    }
    let pct = |v: &mut Vec<f64>, p: f64| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[((v.len() - 1) as f64 * p).round() as usize]
    };
    sizes.sort();
    println!(
        "{} games; games per position: median {}, p99 {}, max {}",
        games.len(),
        sizes[sizes.len() / 2],
        sizes[sizes.len() * 99 / 100],
        sizes[sizes.len() - 1]
    );
    println!("find --position: median {:.2} ms, p99 {:.2} ms", pct(&mut find_ms, 0.5), pct(&mut find_ms, 0.99));
    println!("  its first game: median {:.2} ms, p99 {:.2} ms", pct(&mut first_ms, 0.5), pct(&mut first_ms, 0.99));
    println!("find --limit 100: median {:.2} ms, p99 {:.2} ms", pct(&mut page_ms, 0.5), pct(&mut page_ms, 0.99));
    println!("find --count:    median {:.2} ms, p99 {:.2} ms", pct(&mut count_ms, 0.5), pct(&mut count_ms, 0.99));
    println!("explore:         median {:.2} ms, p99 {:.2} ms", pct(&mut explore_ms, 0.5), pct(&mut explore_ms, 0.99));
    let file = std::fs::metadata(format!("{}.positions", db.display())).unwrap().len();
    let postings: u64 = games.iter().map(|g| g.2 as u64 + 1).sum();
    println!("positions file: {file} bytes, {postings} postings, {:.2} bytes a posting", file as f64 / postings as f64);
    let _ = std::fs::remove_dir_all(&dir);
}
