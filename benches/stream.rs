//! Streams benchmarks over sgf/collections (read through `KIFU_CORPUS` or ../shared/corpus):
//! - `skip`: reading every event with the slice reader vs skipping every game with `skip_game`;
//! - `split`: the slice reader on the whole file vs the splitter + chunk reader over `io::Read`;
//! - `parallel`: `stream::read_games` over the collections folder on 1 and 2 threads;
//! - `formats`: for a multi-game CSA file and a many-game Jago document built from the converted
//!   corpus, the slice reader vs `stream::splitter` + chunk reader over `io::Read`.
//!
//! `cargo bench --bench stream -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::stream::{self, read_games, Options};
use kifu::{Config, Event, EventSource, Format};
use std::hint::black_box;
use std::path::PathBuf;

fn collections() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus")))
        .join("sgf/collections");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: no corpus at {} (set KIFU_CORPUS)", dir.display());
        None
    }
}

fn load(dir: &PathBuf) -> Vec<u8> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        all.extend_from_slice(&std::fs::read(f).unwrap());
        all.push(b'\n');
    }
    all
}

/// Pulls every event; returns (games, moves).
fn read_all(source: &mut impl EventSource) -> (u64, u64) {
    let (mut games, mut moves) = (0, 0);
    while let Some(item) = source.next_event() {
        match item {
            Ok(Event::GameStart { .. }) => games += 1,
            Ok(Event::Move(_)) => moves += 1,
            _ => {}
        }
    }
    (games, moves)
}

fn benches(c: &mut Criterion) {
    let Some(dir) = collections() else { return };
    let data = load(&dir);
    let (games, moves) = read_all(&mut kifu::sgf::Reader::new(&data));
    assert!(games > 10_000, "{games} games");

    let mut g = c.benchmark_group("skip");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("read_events", |b| {
        b.iter(|| assert_eq!(read_all(&mut kifu::sgf::Reader::new(black_box(&data))), (games, moves)))
    });
    g.bench_function("skip_game", |b| {
        b.iter(|| {
            let mut r = kifu::sgf::Reader::new(black_box(&data));
            let mut n = 0;
            while r.skip_game().unwrap() {
                n += 1;
            }
            assert_eq!(n, games);
        })
    });
    g.finish();

    let mut g = c.benchmark_group("split");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("slice_reader", |b| b.iter(|| read_all(&mut kifu::sgf::Reader::new(black_box(&data)))));
    g.bench_function("splitter_only", |b| {
        b.iter(|| {
            let mut split = kifu::sgf::Splitter::new(black_box(&data[..]), Config::default());
            let mut n = 0;
            while let Some(chunk) = split.next_game() {
                n += chunk.unwrap().bytes.len() as u64;
            }
            n
        })
    });
    g.bench_function("splitter_and_reader", |b| {
        b.iter(|| {
            let mut split = kifu::sgf::Splitter::new(black_box(&data[..]), Config::default());
            let mut total = (0, 0);
            while let Some(chunk) = split.next_game() {
                let chunk = chunk.unwrap();
                let (g, m) = read_all(&mut stream::read_chunk(Format::Sgf, &chunk, Config::default()));
                total = (total.0 + g, total.1 + m);
            }
            assert_eq!(total, (games, moves));
        })
    });
    g.finish();

    let mut g = c.benchmark_group("parallel");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(data.len() as u64));
    for threads in [1, 2] {
        g.bench_function(format!("read_games_{threads}_threads"), |b| {
            let options = Options { threads, ..Options::default() };
            b.iter(|| {
                let mut total = (0, 0);
                read_games(
                    [&dir],
                    &options,
                    |game| read_all(&mut game.events()),
                    |_, r| {
                        // SOURCES.tsv is not a game record.
                        if let Ok((g, m)) = r {
                            total = (total.0 + g, total.1 + m);
                        }
                    },
                );
                assert_eq!(total, (games, moves));
            })
        });
    }
    g.finish();
}

/// A multi-game input of `format` built from the converted corpus folder `sub`.
fn multi_game(format: Format, sub: &str) -> Option<Vec<u8>> {
    let dir = collections()?.parent()?.parent()?.join("converted").join(sub);
    let mut files: Vec<_> = std::fs::read_dir(&dir).ok()?.map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut all = match format {
        Format::Jago => b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec(),
        _ => Vec::new(),
    };
    for f in files.iter().filter(|p| p.extension().is_some_and(|e| e == "csa" || e == "xml")) {
        let bytes = std::fs::read(f).unwrap();
        match format {
            Format::Jago => {
                for c in kifu::jago::Splitter::new(&bytes) {
                    all.extend_from_slice(c.bytes);
                    all.push(b'\n');
                }
            }
            _ => {
                all.extend_from_slice(&bytes);
                all.extend_from_slice(b"\n/\n");
            }
        }
    }
    if format == Format::Jago {
        all.extend_from_slice(b"</Go>\n");
    }
    Some(all)
}

fn format_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("formats");
    g.sample_size(10);
    for (format, sub) in [(Format::Csa, "csa-cshogi"), (Format::Jago, "xml-gogui")] {
        let Some(data) = multi_game(format, sub) else { return };
        let expect = read_all(&mut kifu::AnyReader::new(format, &data, Config::default()));
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function(format!("{format:?}_slice_reader"), |b| {
            b.iter(|| read_all(&mut kifu::AnyReader::new(format, black_box(&data), Config::default())))
        });
        g.bench_function(format!("{format:?}_splitter_and_reader"), |b| {
            b.iter(|| {
                let mut split = stream::splitter(format, Box::new(black_box(&data[..])), Config::default());
                let mut total = (0, 0);
                while let Some(chunk) = split.next_game() {
                    let chunk = chunk.unwrap();
                    let (g, m) = read_all(&mut stream::read_chunk(format, &chunk, Config::default()));
                    total = (total.0 + g, total.1 + m);
                }
                assert_eq!(total, expect);
            })
        });
    }
    g.finish();
}

criterion_group!(stream_benches, benches, format_benches);
criterion_main!(stream_benches);
