//! CSA reading speed: kifu's reader next to the `csa` crate (`csa::parse_csa`) on the same bytes,
//! in one run. The input is every UTF-8 single-game file of converted/csa-cshogi that the `csa`
//! crate parses (it takes `&str`, so it pays for UTF-8 validation; kifu pays for its charset
//! detection, which validates UTF-8 too). kifu's time includes `T` parsing and the evaluation
//! comments. Reads the corpus from `KIFU_CORPUS` or `../shared/corpus`.
//!
//! The speed bar of the CSA reader (issue 22: at least 600 MB/s) is the `csa/kifu_reader` figure:
//! the library's slice reader, one `Reader` per file, every event pulled (so per-file costs, the
//! charset check and header, are in it). Criterion's MiB/s are 2^20 bytes; MB/s = MiB/s × 1.049.
//! `profiling/csa_profile.rs` runs the same workload under callgrind.
//!
//! Run: `cargo bench --bench csa`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::EventSource;
use std::hint::black_box;

mod common;
#[path = "common/csa_work.rs"]
mod csa_work;
use csa_work::{csa_crate, kifu_read};

fn corpus_files() -> Option<Vec<Vec<u8>>> {
    csa_work::files(&common::corpus()?)
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
