//! SGF reading throughput on the shared corpus, next to the sgf-parse crate on the same bytes.
//!
//! `cargo bench --bench sgf` (set `KIFU_CORPUS` if the corpus is not at `../shared/corpus`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::{Event, EventSource};
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::corpus;

fn load(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.retain(|p| p.extension().is_some_and(|e| e == "sgf"));
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Pulls every event; returns (games, moves) so the work cannot be optimised away.
fn kifu_events(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut games, mut moves) = (0, 0);
    for f in files {
        let mut r = kifu::sgf::Reader::new(f);
        while let Some(ev) = r.next_event() {
            match ev {
                Ok(Event::GameStart { .. }) => games += 1,
                Ok(Event::Move(_)) => moves += 1,
                _ => {}
            }
        }
    }
    (games, moves)
}

fn kifu_skip(files: &[Vec<u8>]) -> u64 {
    let mut games = 0;
    for f in files {
        let mut r = kifu::sgf::Reader::new(f);
        while r.skip_game().unwrap() {
            games += 1;
        }
    }
    games
}

fn sgf_parse(files: &[Vec<u8>]) -> u64 {
    let mut games = 0;
    for f in files {
        let text = std::str::from_utf8(f).unwrap();
        games += sgf_parse::parse(text).map(|g| g.len() as u64).unwrap_or(0);
    }
    games
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = corpus() else { return };
    let collections = load(&corpus.join("sgf/collections"));
    let bytes: usize = collections.iter().map(Vec::len).sum();
    assert_eq!(kifu_events(&collections).0, 11_257);
    assert_eq!(kifu_skip(&collections), 11_257);

    let mut g = c.benchmark_group("sgf/collections");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    g.bench_function("kifu events", |b| b.iter(|| black_box(kifu_events(black_box(&collections)))));
    g.bench_function("kifu skip_game", |b| b.iter(|| black_box(kifu_skip(black_box(&collections)))));
    g.bench_function("sgf-parse", |b| b.iter(|| black_box(sgf_parse(black_box(&collections)))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
