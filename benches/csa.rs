//! CSA reading speed: kifu's reader next to the `csa` crate (`csa::parse_csa`) on the same bytes,
//! in one run. The input is every UTF-8 single-game file of converted/csa-cshogi that the `csa`
//! crate parses (it takes `&str`, so it pays for UTF-8 validation; kifu pays for its charset
//! detection, which validates UTF-8 too). kifu's time includes `T` parsing and the evaluation
//! comments. Reads the corpus from `KIFU_CORPUS` or `../shared/corpus`.
//!
//! Run: `cargo bench --bench csa`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::{Event, EventSource};
use std::hint::black_box;
use std::path::PathBuf;

fn corpus_files() -> Option<Vec<Vec<u8>>> {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
        .join("converted/csa-cshogi");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: corpus not found at {} (set KIFU_CORPUS)", dir.display());
        return None;
    };
    let mut paths: Vec<_> =
        rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "csa")).collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|b| std::str::from_utf8(b).is_ok_and(|s| csa::parse_csa(s).is_ok()))
        .collect();
    Some(files)
}

/// kifu: every event of every file; returns (moves, clock milliseconds) so nothing is optimised away.
fn kifu_read(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut moves, mut ms) = (0, 0);
    for f in files {
        let mut r = kifu::csa::Reader::new(f);
        while let Some(ev) = r.next_event() {
            match ev.unwrap() {
                Event::Move(_) => moves += 1,
                Event::Clock(c) => ms += c.value,
                _ => {}
            }
        }
    }
    (moves, ms)
}

fn csa_crate(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut moves, mut secs) = (0, 0);
    for f in files {
        let rec = csa::parse_csa(std::str::from_utf8(f).unwrap()).unwrap();
        moves += rec.moves.len() as u64;
        secs += rec.moves.iter().filter_map(|m| m.time).map(|t| t.as_secs()).sum::<u64>();
    }
    (moves, secs)
}

fn bench(c: &mut Criterion) {
    let Some(files) = corpus_files() else { return };
    let bytes: usize = files.iter().map(Vec::len).sum();
    let (moves, _) = kifu_read(&files);
    eprintln!("{} files, {} bytes, {} moves", files.len(), bytes, moves);
    let mut g = c.benchmark_group("csa");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_secs(1));
    g.measurement_time(std::time::Duration::from_secs(3));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("kifu_reader", |b| b.iter(|| black_box(kifu_read(black_box(&files)))));
    g.bench_function("kifu_skip_game", |b| {
        b.iter(|| {
            let mut n = 0;
            for f in &files {
                let mut r = kifu::csa::Reader::new(black_box(f));
                while r.skip_game().unwrap() {
                    n += 1;
                }
            }
            black_box(n)
        })
    });
    g.bench_function("csa_crate_parse_csa", |b| b.iter(|| black_box(csa_crate(black_box(&files)))));
    g.bench_function("memchr_lines_baseline", |b| {
        b.iter(|| black_box(files.iter().map(|f| memchr::memchr_iter(b'\n', f).count()).sum::<usize>()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
