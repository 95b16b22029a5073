//! Shogi reading speed: KIF, KI2 and USI on the generated corpus (`kif/tsshogi`, `ki2/tsshogi`,
//! `usi/tsshogi`: the same 300 games in each format, half the KIF and KI2 files CP932, half
//! UTF-8), every event pulled. Two ways per format:
//! - `per_file`: a reader per file, as a program reading files does (each pays for its charset
//!   check, a UTF-8 validation of the whole file);
//! - `one_slice`: the files of one charset concatenated into one slice (a newline after each),
//!   read by one reader, then those of the other charset (a file's charset is the whole file's:
//!   CP932 games in a UTF-8 slice would be read as CP932); for USI this is the dataset layout,
//!   one game per line.
//!
//! The files are read into memory first; only the reading is timed. Reads the corpus from
//! `KIFU_CORPUS` or `../shared/corpus` and skips without it.
//!
//! Run: `cargo bench --bench shogi` (the throughput criterion prints is in bytes of the files).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::EventSource;
use std::hint::black_box;
use std::path::Path;

mod common;

/// The files of `dir` whose names end with one of `exts`, sorted, read whole.
fn files(dir: &Path, exts: &[&str]) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    paths.retain(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| exts.iter().any(|e| n.ends_with(e))));
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// The files one after another, a newline after each that lacks one.
fn concat(files: &[Vec<u8>]) -> Vec<u8> {
    let mut all = Vec::new();
    for f in files {
        all.extend_from_slice(f);
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    all
}

/// Pulls every event; the number of events (errors too: none are expected).
fn drain<S: EventSource>(mut r: S) -> u64 {
    let mut n = 0;
    while let Some(ev) = r.next_event() {
        n += 1 + ev.is_err() as u64;
    }
    n
}

fn read(format: &str, b: &[u8]) -> u64 {
    match format {
        "kif" => drain(kifu::kif::Reader::new(b)),
        "ki2" => drain(kifu::ki2::Reader::new(b)),
        _ => drain(kifu::usi::Reader::new(b)),
    }
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = common::corpus() else { return };
    // Each format's extensions, one per charset.
    for (format, exts) in [("kif", &[".kif", ".kifu"][..]), ("ki2", &[".ki2", ".ki2u"]), ("usi", &[".usi"])] {
        let dir = corpus.join(format).join("tsshogi");
        let files = files(&dir, exts);
        if files.is_empty() {
            eprintln!("skipped {format}: no files");
            continue;
        }
        let slices: Vec<Vec<u8>> = exts.iter().map(|e| concat(&self::files(&dir, &[e]))).collect();
        let bytes: usize = files.iter().map(Vec::len).sum();
        let events: u64 = files.iter().map(|f| read(format, f)).sum();
        let in_slices: u64 = slices.iter().map(|s| read(format, s)).sum();
        eprintln!(
            "{format}: {} files, {bytes} bytes, {events} events ({in_slices} in one slice per charset)",
            files.len()
        );
        let mut g = c.benchmark_group(format!("shogi_{format}"));
        g.sample_size(20);
        g.warm_up_time(std::time::Duration::from_secs(1));
        g.measurement_time(std::time::Duration::from_secs(3));
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function("per_file", |b| b.iter(|| files.iter().map(|f| read(format, black_box(f))).sum::<u64>()));
        g.throughput(Throughput::Bytes(slices.iter().map(Vec::len).sum::<usize>() as u64));
        g.bench_function("one_slice", |b| b.iter(|| slices.iter().map(|s| read(format, black_box(s))).sum::<u64>()));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
