//! Tree building against sgf-parse (which also builds a tree) on the same bytes: the SGF
//! collections of the shared corpus (`$KIFU_CORPUS` or `../shared/corpus`).
//!
//! `cargo bench --bench tree`: compare the ratios within one run (the machine is shared).

use bumpalo::Bump;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::tree::{Builder, Writer};
use kifu::EventSource;
use std::hint::black_box;

mod common;
use common::corpus;

fn files() -> Vec<Vec<u8>> {
    let Some(dir) = corpus() else { return Vec::new() };
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("sgf/collections"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Builds every game's tree; returns (games, nodes).
fn build_all(files: &[Vec<u8>], builder: &mut Builder, bump: &mut Bump) -> (usize, usize) {
    let (mut games, mut nodes) = (0, 0);
    for f in files {
        let mut r = kifu::sgf::Reader::new(f);
        loop {
            bump.reset();
            match builder.build(bump, &mut r).unwrap() {
                Some(t) => {
                    games += 1;
                    nodes += t.len();
                }
                None => break,
            }
        }
    }
    (games, nodes)
}

fn bench(c: &mut Criterion) {
    let files = files();
    if files.is_empty() {
        eprintln!("skipped: corpus not found (set KIFU_CORPUS)");
        return;
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let texts: Vec<&str> = files.iter().map(|f| std::str::from_utf8(f).unwrap()).collect();
    let (mut builder, mut bump) = (Builder::new(), Bump::new());
    let (games, nodes) = build_all(&files, &mut builder, &mut bump);
    let sgf_parse_games: usize = texts.iter().map(|t| sgf_parse::parse(t).unwrap().len()).sum();
    assert_eq!(games, sgf_parse_games);
    assert_eq!(games, 11_257);
    eprintln!("sgf/collections: {} files, {total} bytes, {games} games, {nodes} nodes", files.len());

    let mut g = c.benchmark_group("tree");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(10);
    g.bench_function("kifu events (sgf::Reader)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for f in &files {
                let mut r = kifu::sgf::Reader::new(f);
                while let Some(e) = r.next_event() {
                    black_box(e.unwrap());
                    n += 1;
                }
            }
            n
        })
    });
    g.bench_function("kifu tree::Builder", |b| {
        b.iter(|| assert_eq!(build_all(&files, &mut builder, &mut bump), (games, nodes)))
    });
    g.bench_function("kifu tree + write_moves", |b| {
        let mut w = Writer::new();
        let mut out = Vec::new();
        b.iter(|| {
            for f in &files {
                let mut r = kifu::sgf::Reader::new(f);
                loop {
                    bump.reset();
                    let Some(t) = builder.build(&bump, &mut r).unwrap() else { break };
                    out.clear();
                    w.moves(&t, &mut out);
                    black_box(&out);
                }
            }
        })
    });
    g.bench_function("sgf_parse::parse", |b| {
        b.iter(|| {
            let n: usize = texts.iter().map(|t| sgf_parse::parse(t).unwrap().len()).sum();
            assert_eq!(n, games);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
