//! KI2 reading and writing speed on the generated corpus (`ki2/tsshogi`, 300 games), printed,
//! not asserted (a loaded machine says nothing about the code): run with
//! `cargo test --release --test ki2_speed -- --ignored --nocapture`. KIF's reader on the same
//! 300 games (`kif/tsshogi`) is printed beside it, for scale.
//!
//! `ki2_read_once` reads the 300 games once (`ROUNDS` times with that variable), for an
//! instruction profile: `valgrind --tool=callgrind target/release/deps/ki2_speed-* --ignored
//! --exact ki2_read_once`.

mod common;

use kifu::{Event, EventSource};
use std::time::Instant;

/// The files of `dir` with these extensions, concatenated, with a newline after each.
fn concat(dir: &std::path::Path, exts: &[&str]) -> Vec<u8> {
    let mut all = Vec::new();
    for p in common::files(dir, exts) {
        all.extend_from_slice(&std::fs::read(p).unwrap());
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    all
}

/// The best of `rounds` runs of `f` over `bytes` bytes, in MB/s.
fn speed(bytes: usize, rounds: usize, mut f: impl FnMut() -> u64) -> f64 {
    let mut best = f64::MAX;
    let mut sink = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        sink += f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    assert!(sink > 0);
    bytes as f64 / best / 1e6
}

fn count<S: EventSource>(mut r: S) -> u64 {
    let mut n = 0;
    while let Some(ev) = r.next_event() {
        ev.unwrap();
        n += 1;
    }
    n
}

#[test]
#[ignore = "a measure, not a test: run by hand"]
fn ki2_throughput() {
    let Some(ki2) = common::corpus_dir("ki2/tsshogi") else { return };
    let Some(kif) = common::corpus_dir("kif/tsshogi") else { return };
    for (name, exts) in [("UTF-8 .ki2u", &[".ki2u"][..]), ("CP932 .ki2", &[".ki2"][..])] {
        let all = concat(&ki2, exts);
        let mbs = speed(all.len(), 20, || count(kifu::ki2::Reader::new(&all)));
        eprintln!("ki2 read  {name}: {:.1} MB in one slice, {mbs:.0} MB/s", all.len() as f64 / 1e6);
        let events: Vec<Event> = kifu::ki2::Reader::new(&all).map(Result::unwrap).collect();
        let mut out = Vec::with_capacity(all.len() * 2);
        let mbs = speed(all.len(), 20, || {
            out.clear();
            let mut w = kifu::ki2::write::Writer::new(kifu::text::Charset::Utf8);
            for ev in &events {
                w.event(ev, &mut out);
            }
            out.len() as u64
        });
        eprintln!("ki2 write {name}: {mbs:.0} MB/s (of the input read)");
    }
    for (name, exts) in [("UTF-8 .kifu", &[".kifu"][..]), ("CP932 .kif", &[".kif"][..])] {
        let all = concat(&kif, exts);
        let mbs = speed(all.len(), 20, || count(kifu::kif::Reader::new(&all)));
        eprintln!("kif read  {name}: {:.1} MB in one slice, {mbs:.0} MB/s", all.len() as f64 / 1e6);
    }
}

#[test]
#[ignore = "a profile's workload, not a test: run by hand"]
fn ki2_read_once() {
    let Some(ki2) = common::corpus_dir("ki2/tsshogi") else { return };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let all = [concat(&ki2, &[".ki2u"]), concat(&ki2, &[".ki2"])];
    let mut events = 0;
    for _ in 0..rounds {
        for a in &all {
            events += count(kifu::ki2::Reader::new(a));
        }
    }
    assert!(events > 0);
}
