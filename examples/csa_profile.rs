//! The CSA bench's workload as a plain program, for `valgrind --tool=callgrind`: reads every
//! UTF-8 single-game file of converted/csa-cshogi that the `csa` crate parses, then pulls every
//! event from each `ROUNDS` times (default 1) in `kifu_read`, alternating with the `csa` crate
//! (`NO_CSA=1` leaves it out), and prints the throughput of the fastest round of each.
//!
//! `NO_CSA=1 valgrind --tool=callgrind --toggle-collect='*kifu_read*' target/release/examples/csa_profile`
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

#[inline(never)]
fn csa_crate(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut moves, mut secs) = (0, 0);
    for f in files {
        let rec = csa::parse_csa(std::str::from_utf8(f).unwrap()).unwrap();
        moves += rec.moves.len() as u64;
        secs += rec.moves.iter().filter_map(|m| m.time).map(|t| t.as_secs()).sum::<u64>();
    }
    (moves, secs)
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
    // Rounds alternate between kifu and the `csa` crate; the fastest round of each is reported
    // (the machine is shared: the minimum is the least disturbed).
    let (mut best, mut best_csa) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let start = std::time::Instant::now();
        black_box(kifu_read(black_box(&files)));
        best = best.min(start.elapsed().as_secs_f64());
        if std::env::var_os("NO_CSA").is_none() {
            let start = std::time::Instant::now();
            black_box(csa_crate(black_box(&files)));
            best_csa = best_csa.min(start.elapsed().as_secs_f64());
        }
    }
    let mb = bytes as f64 / 1e6;
    println!(
        "{} files, {} bytes: kifu {:.1} MB/s, csa crate {:.1} MB/s ({:.1}x; fastest of {rounds} rounds)",
        files.len(),
        bytes,
        mb / best,
        mb / best_csa,
        best_csa / best
    );
}
