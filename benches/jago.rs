//! Jago XML throughput next to a bare quick-xml loop over the same bytes, in one run.
//!
//! `cargo bench --bench jago` (reads the corpus from `KIFU_CORPUS` or `../shared/corpus`).
//! Inputs: every game of converted/xml-gogui in one document (6.4 MB), and the same files read
//! one reader per file.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::{Event, EventSource};
use std::hint::black_box;

mod common;
use common::corpus;

fn files(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn one_document(files: &[Vec<u8>]) -> Vec<u8> {
    let mut doc = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    for bytes in files {
        let s = memchr::memmem::find(bytes, b"<GoGame").unwrap();
        let e = memchr::memmem::rfind(bytes, b"</GoGame>").unwrap() + 9;
        doc.extend_from_slice(&bytes[s..e]);
        doc.push(b'\n');
    }
    doc.extend_from_slice(b"</Go>\n");
    doc
}

/// The baseline: quick-xml's `read_event()` from a slice, iterating every element's attributes.
fn bare_quick_xml(bytes: &[u8]) -> u64 {
    let mut r = quick_xml::Reader::from_reader(bytes);
    let mut n = 0u64;
    loop {
        match r.read_event() {
            Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e)) => {
                n += 1;
                for a in e.attributes() {
                    n += a.unwrap().value.len() as u64;
                }
            }
            Ok(quick_xml::events::Event::Eof) => return n,
            Ok(_) => n += 1,
            Err(e) => panic!("{e}"),
        }
    }
}

fn kifu_events(bytes: &[u8]) -> u64 {
    let mut r = kifu::jago::Reader::new(bytes);
    let mut n = 0u64;
    while let Some(item) = r.next_event() {
        if let Event::Move(_) = item.unwrap() {
            n += 1;
        }
    }
    n
}

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
    let files = files(&dir.join("converted/xml-gogui"));
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
    g.bench_function("quick-xml bare loop", |b| {
        b.iter(|| files.iter().map(|f| bare_quick_xml(black_box(f))).sum::<u64>())
    });
    g.bench_function("kifu jago events", |b| b.iter(|| files.iter().map(|f| kifu_events(black_box(f))).sum::<u64>()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
