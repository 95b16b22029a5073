//! JSON formats on the shared corpus, each next to serde_json building a `Value` from the same
//! bytes, plus the tokenizer comparison (kifu's tokenizer, jiter, serde_json) that chose the
//! tokenizer. Run: `cargo bench --bench json -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::json::{Dialect, Tokenizer};
use std::hint::black_box;

mod common;
use common::corpus;

fn load(dir: &std::path::Path, ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.into_iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn count_events<'a>(it: impl Iterator<Item = Result<kifu::Event<'a>, kifu::Error>>) -> u64 {
    let mut n = 0;
    for e in it {
        e.unwrap();
        n += 1;
    }
    n
}

fn serde_value(files: &[Vec<u8>]) -> usize {
    files.iter().map(|f| serde_json::from_slice::<serde_json::Value>(f).unwrap().is_object() as usize).sum()
}

fn readers(c: &mut Criterion) {
    let Some(corpus) = corpus() else { return };
    let sets: [(&str, &str, &str); 3] =
        [("jgf2", "converted/jgf2-seki", "jgf"), ("jgf1", "converted/jgf1-nggo", "jgf"), ("gojson", "gocaml", "json")];
    for (name, sub, ext) in sets {
        let files = load(&corpus.join(sub), ext);
        let bytes: usize = files.iter().map(Vec::len).sum();
        // Check the counts once: every file reads and has events.
        let events: u64 = files
            .iter()
            .map(|f| match name {
                "jgf2" => count_events(kifu::jgf::v2::Reader::new(f)),
                "jgf1" => count_events(kifu::jgf::v1::Reader::new(f)),
                _ => count_events(kifu::gocaml::Reader::new(f)),
            })
            .sum();
        assert!(events > files.len() as u64 * 3);
        let mut g = c.benchmark_group(format!("read/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function("kifu", |b| {
            b.iter(|| {
                let mut n = 0;
                for f in &files {
                    n += match name {
                        "jgf2" => count_events(kifu::jgf::v2::Reader::new(f)),
                        "jgf1" => count_events(kifu::jgf::v1::Reader::new(f)),
                        _ => count_events(kifu::gocaml::Reader::new(f)),
                    };
                }
                black_box(n)
            })
        });
        g.bench_function("serde_json_value", |b| b.iter(|| black_box(serde_value(&files))));
        g.finish();
    }
}

fn tokenizers(c: &mut Criterion) {
    let Some(corpus) = corpus() else { return };
    let files = load(&corpus.join("converted/jgf2-seki"), "jgf");
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("tokenize/jgf2-seki");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("kifu_tokenizer", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for f in &files {
                let mut t = Tokenizer::new(f, Dialect::Strict, 1 << 16);
                while let Some(tok) = t.next_token().unwrap() {
                    black_box(tok);
                    n += 1;
                }
            }
            black_box(n)
        })
    });
    g.bench_function("jiter_skip", |b| {
        b.iter(|| {
            for f in &files {
                let mut j = jiter::Jiter::new(f);
                j.next_skip().unwrap();
                j.finish().unwrap();
            }
        })
    });
    g.bench_function("jiter_value", |b| {
        b.iter(|| {
            for f in &files {
                black_box(jiter::JsonValue::parse(f, false).unwrap());
            }
        })
    });
    g.bench_function("serde_json_value", |b| b.iter(|| black_box(serde_value(&files))));
    g.finish();
}

criterion_group!(benches, readers, tokenizers);
criterion_main!(benches);
