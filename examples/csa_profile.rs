//! The CSA bench's workload as a plain program, for `valgrind --tool=callgrind`: reads every
//! UTF-8 single-game file of converted/csa-cshogi that the `csa` crate parses, then pulls every
//! event from each `ROUNDS` times (default 1) in `kifu_read` and prints the byte count.
//!
//! `valgrind --tool=callgrind --toggle-collect='*kifu_read*' target/release/examples/csa_profile`
use kifu::{Event, EventSource};
use std::hint::black_box;
use std::path::PathBuf;

#[inline(never)]
fn kifu_read(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut moves, mut ms) = (0, 0);
    for f in files {
        let mut r = kifu::csa::Reader::new(f);
        while let Some(ev) = r.next_event() {
            match ev.unwrap() {
                Event::Move(_) => moves += 1,
                Event::Clock(c) => ms += c.value,
                _ => {}
            }
        }
    }
    (moves, ms)
}

fn main() {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
        .join("converted/csa-cshogi");
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "csa"))
        .collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|b| std::str::from_utf8(b).is_ok_and(|s| csa::parse_csa(s).is_ok()))
        .collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(kifu_read(black_box(&files)));
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{} files, {} bytes, {:.1} MB/s", files.len(), bytes, (bytes * rounds) as f64 / secs / 1e6);
}
