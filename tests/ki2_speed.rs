//! KI2 reading and writing speed on the generated corpus (`ki2/tsshogi`, 300 games), printed,
//! not asserted (a loaded machine says nothing about the code): run with
//! `cargo test --release --test ki2_speed -- --ignored --nocapture`. KIF's reader on the same
//! 300 games (`kif/tsshogi`) and USI's on the same games as lines (`usi/tsshogi`) are printed
//! beside it. Each reading figure is given twice: the best of 20 runs in wall time, and MB/s
//! of the thread's CPU time over about two seconds of runs (steadier on a loaded machine).
//!
//! `ki2_read_once` reads the 300 games once (`ROUNDS` times with that variable; `FORMAT=usi` or
//! `FORMAT=kif` for those formats' copies of the games), for an
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

/// This thread's CPU time (user + system) in seconds, from `/proc/thread-self/stat` (clock
/// ticks of 10 ms); `None` where there is no such file.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// `f` over `bytes` bytes run until it has taken about two seconds of CPU time: MB/s of CPU
/// time (what a loaded machine disturbs least; ±1 % from the 10 ms ticks).
fn cpu_speed(bytes: usize, mut f: impl FnMut() -> u64) -> Option<f64> {
    let start = cpu_seconds()?;
    let (mut rounds, mut sink) = (0usize, 0);
    let mut used = 0.0;
    while used < 2.0 {
        sink += f();
        rounds += 1;
        used = cpu_seconds()? - start;
    }
    assert!(sink > 0);
    Some((bytes * rounds) as f64 / used / 1e6)
}

/// Both figures of `f`, as printed.
fn speeds(bytes: usize, mut f: impl FnMut() -> u64) -> String {
    let best = speed(bytes, 20, &mut f);
    let cpu = cpu_speed(bytes, f).map_or("no CPU clock".into(), |c| format!("{c:.0} MB/s of CPU time"));
    format!("{best:.0} MB/s (best of 20), {cpu}")
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
        let mbs = speeds(all.len(), || count(kifu::ki2::Reader::new(&all)));
        eprintln!("ki2 read  {name}: {:.1} MB in one slice, {mbs}", all.len() as f64 / 1e6);
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
        let mbs = speeds(all.len(), || count(kifu::kif::Reader::new(&all)));
        eprintln!("kif read  {name}: {:.1} MB in one slice, {mbs}", all.len() as f64 / 1e6);
    }
    // The same games as USI lines, one game per line (the dataset layout).
    if let Some(usi) = common::corpus_dir("usi/tsshogi") {
        let all = concat(&usi, &[".usi"]);
        let mbs = speeds(all.len(), || count(kifu::usi::Reader::new(&all)));
        eprintln!("usi read  lines: {:.2} MB in one slice, {mbs}", all.len() as f64 / 1e6);
    }
}

#[test]
#[ignore = "a profile's workload, not a test: run by hand"]
fn ki2_read_once() {
    let Some(ki2) = common::corpus_dir("ki2/tsshogi") else { return };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    // `FORMAT=usi` or `FORMAT=kif`: that format's 300 games instead.
    let format = std::env::var("FORMAT").unwrap_or_default();
    let all = match format.as_str() {
        "usi" => vec![concat(&ki2.join("../../usi/tsshogi"), &[".usi"])],
        "kif" => {
            vec![concat(&ki2.join("../../kif/tsshogi"), &[".kifu"]), concat(&ki2.join("../../kif/tsshogi"), &[".kif"])]
        }
        _ => vec![concat(&ki2, &[".ki2u"]), concat(&ki2, &[".ki2"])],
    };
    let mut events = 0;
    for _ in 0..rounds {
        for a in &all {
            events += match format.as_str() {
                "usi" => count(kifu::usi::Reader::new(a)),
                "kif" => count(kifu::kif::Reader::new(a)),
                _ => count(kifu::ki2::Reader::new(a)),
            };
        }
    }
    assert!(events > 0);
}

/// Every event (and error, and its offset) of `r`, written into `out` with `Debug`.
fn dump<S: EventSource>(mut r: S, out: &mut String) {
    use std::fmt::Write;
    while let Some(ev) = r.next_event() {
        let _ = writeln!(out, "{ev:?}");
        let _ = writeln!(out, "@{:?}", r.event_offset());
    }
}

#[test]
#[ignore = "a digest to compare before and after a change, not a test: run by hand"]
fn shogi_events_digest() {
    // Every file of the kif, ki2 and usi folders through that format's reader, and a `skip_game`
    // pass: the digest printed (`DIGEST` names a file to write the whole dump to).
    let Some(corpus) = common::corpus() else { return };
    let mut out = String::new();
    for format in ["kif", "ki2", "usi"] {
        for p in common::files(&corpus.join(format), &[""]) {
            let b = std::fs::read(&p).unwrap();
            // The path inside the corpus, so that the digest is the same from every checkout.
            out.push_str(&format!("== {}\n", p.strip_prefix(&corpus).unwrap_or(&p).display()));
            match format {
                "kif" => dump(kifu::kif::Reader::new(&b), &mut out),
                "ki2" => dump(kifu::ki2::Reader::new(&b), &mut out),
                _ => dump(kifu::usi::Reader::new(&b), &mut out),
            }
        }
    }
    if let Ok(path) = std::env::var("DIGEST") {
        std::fs::write(path, &out).unwrap();
    }
    eprintln!("{} bytes of events, hash {:016x}", out.len(), {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        out.hash(&mut h);
        h.finish()
    });
}
