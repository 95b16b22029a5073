//! Jago XML throughput next to a bare quick-xml loop over the same bytes, in one run.
//!
//! `cargo bench --bench jago` (reads the corpus from `KIFU_CORPUS` or `../shared/corpus`).
//! Inputs: every game of converted/xml-gogui in one document (6.4 MB), and the same files read
//! one reader per file.
//!
//! The speed bar of the Jago reader (issue 22: at least 90% of the bare loop) compares
//! `kifu jago events` with `quick-xml bare loop` within each group, `jago-one-document` and
//! `jago-per-file`. `profiling/jago_profile.rs` counts the same workloads under callgrind.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::EventSource;
use std::hint::black_box;

mod common;
use common::corpus;

#[path = "common/jago_work.rs"]
mod jago_work;
use jago_work::{bare_per_file, bare_quick_xml, kifu_events, kifu_per_file, one_document};

fn kifu_skip(bytes: &[u8]) -> u64 {
    let mut r = kifu::jago::Reader::new(bytes);
    let mut n = 0u64;
    while r.skip_game().unwrap() {
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let Some(dir) = corpus() else {
        eprintln!("skipped: corpus not found (set KIFU_CORPUS)");
        return;
    };
    let files = jago_work::files(&dir);
    let doc = one_document(&files);
    let total: usize = files.iter().map(Vec::len).sum();
    assert_eq!(kifu_events(&doc), 182_236);
    assert_eq!(kifu_skip(&doc), 1148);

    let mut g = c.benchmark_group("jago-one-document");
    g.sample_size(10).warm_up_time(std::time::Duration::from_secs(1));
    g.measurement_time(std::time::Duration::from_secs(3));
    g.throughput(Throughput::Bytes(doc.len() as u64));
    g.bench_function("quick-xml bare loop", |b| b.iter(|| bare_quick_xml(black_box(&doc))));
    g.bench_function("kifu jago events", |b| b.iter(|| kifu_events(black_box(&doc))));
    g.bench_function("kifu jago skip_game", |b| b.iter(|| kifu_skip(black_box(&doc))));
    g.finish();

    let mut g = c.benchmark_group("jago-per-file");
    g.sample_size(10).warm_up_time(std::time::Duration::from_secs(1));
    g.measurement_time(std::time::Duration::from_secs(3));
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("quick-xml bare loop", |b| b.iter(|| bare_per_file(black_box(&files))));
    g.bench_function("kifu jago events", |b| b.iter(|| kifu_per_file(black_box(&files))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
