//! Guards the SGF slice reader's speed work: a digest of every item (event or error), its
//! `event_offset` and the reader's offset after it, and every `skip_game` answer, over every file
//! of the corpus's `sgf/` folder, read leniently and strictly, whole and cut short at three
//! places. The expected digest was recorded before the reader's hot paths were rewritten; a
//! change of any event, offset, warning or error changes it. (It depends on the corpus: if the
//! corpus grows, record it again from a commit known to be right.)
//!
//! Also a fixed workload for profiling, ignored (no timing is asserted): every event of
//! `sgf/collections` pulled from `kifu::sgf::Reader` as `benches/sgf.rs`'s "kifu events" does,
//! e.g. `valgrind --tool=callgrind target/release/deps/sgf_speed-* --ignored --test-threads 1
//! events_workload` (`ROUNDS`, default 1; `DIR`, default the corpus's `sgf/collections`).

mod common;

use kifu::{Config, Event, EventSource};

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Every item of a reader over `bytes` (its `Debug` text: the event with its borrowed bytes, or
/// the error with its kind, position and message), `event_offset` and `offset` after it; then
/// `(items, errors)`.
fn digest_items(h: &mut Fnv, bytes: &[u8], config: Config) -> (u64, u64) {
    let mut r = kifu::sgf::Reader::with_config(bytes, config);
    let (mut n, mut errors) = (0u64, 0u64);
    let mut line = String::new();
    while let Some(item) = r.next_event() {
        n += 1;
        errors += item.is_err() as u64;
        line.clear();
        use std::fmt::Write;
        write!(line, "{item:?}").unwrap();
        // (Where the reader stands after a node is left out: the hot path may have read ahead.)
        let node = matches!(item, Ok(Event::Node));
        drop(item);
        write!(line, "@{:?}", r.event_offset()).unwrap();
        if !node {
            write!(line, "/{}", r.offset()).unwrap();
        }
        line.push(';');
        h.write(line.as_bytes());
        assert!(n < 50_000_000, "no end");
    }
    (n, errors)
}

/// The `skip_game` answers of a reader over `bytes` until it returns `false` or fails.
fn digest_skips(h: &mut Fnv, bytes: &[u8], config: Config) {
    let mut r = kifu::sgf::Reader::with_config(bytes, config);
    for _ in 0..1_000_000 {
        let s = r.skip_game();
        h.write(format!("{s:?}@{};", r.offset()).as_bytes());
        if !matches!(s, Ok(true)) {
            return;
        }
    }
}

/// xorshift64: the cut places, the same on every run.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn digest(dir: &std::path::Path) -> (String, u64, u64) {
    let mut h = Fnv::new();
    let (mut items, mut errors) = (0, 0);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for p in common::files(dir, &[""]) {
        let bytes = std::fs::read(&p).unwrap();
        h.write(p.strip_prefix(dir).unwrap().to_string_lossy().as_bytes());
        let mut cuts = vec![bytes.len()];
        if !bytes.is_empty() {
            cuts.extend((0..3).map(|_| (next(&mut rng) % bytes.len() as u64) as usize));
        }
        for cut in cuts {
            let bytes = &bytes[..cut];
            h.write(format!("cut {cut}:").as_bytes());
            for config in [Config::default(), Config::strict()] {
                let (n, e) = digest_items(&mut h, bytes, config);
                items += n;
                errors += e;
                digest_skips(&mut h, bytes, config);
            }
        }
    }
    (format!("{:016x}", h.0), items, errors)
}

#[test]
fn sgf_events_unchanged() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let (d, items, errors) = digest(&dir);
    eprintln!("sgf: digest {d}, {items} items, {errors} errors");
    assert_eq!(d, "5c3ade759201043f", "events, offsets, warnings, errors or skip_game answers changed");
}

/// Every event read from a property value points at the value's `[`, whichever path read it: a
/// move right after its node's `;`, after white space, after another property, or with more
/// values after it.
#[test]
fn moves_point_at_their_value() {
    let offsets = |input: &[u8]| {
        let mut r = kifu::sgf::Reader::new(input);
        let mut seen = Vec::new();
        while let Some(ev) = r.next_event() {
            if let Ok(Event::Move(_)) = ev {
                seen.push(r.event_offset().unwrap());
            }
        }
        seen
    };
    assert_eq!(offsets(b"(;B[aa];W[bb])"), [3, 9]);
    assert_eq!(offsets(b"(;C[x]B[aa]; W[bb]\n;\nB[cc] )"), [7, 14, 22]);
    assert_eq!(offsets(b"(;B[aa] ;W [bb];B[cc][dd])"), [3, 11, 17, 21]);
}

#[test]
#[ignore]
fn events_workload() {
    let dir = match std::env::var_os("DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => match common::corpus_dir("sgf/collections") {
            Some(d) => d,
            None => return,
        },
    };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let files: Vec<Vec<u8>> = common::files(&dir, &[".sgf"]).iter().map(|p| std::fs::read(p).unwrap()).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let (mut games, mut moves) = (0u64, 0u64);
    for _ in 0..rounds {
        for f in &files {
            let mut r = kifu::sgf::Reader::new(f);
            while let Some(ev) = r.next_event() {
                match ev {
                    Ok(Event::GameStart { .. }) => games += 1,
                    Ok(Event::Move(_)) => moves += 1,
                    _ => {}
                }
            }
        }
    }
    eprintln!("{bytes} bytes, {games} games, {moves} moves");
    std::hint::black_box((games, moves));
}
