//! The CSA bench's workload as a plain program, for `valgrind --tool=callgrind`: reads every
//! UTF-8 single-game file of converted/csa-cshogi that the `csa` crate parses, then pulls every
//! event from each `ROUNDS` times (default 1) in `kifu_read`, alternating with the `csa` crate
//! (`NO_CSA=1` leaves it out), and prints the throughput of the fastest round of each.
//!
//! `NO_CSA=1 valgrind --tool=callgrind --toggle-collect='*kifu_read*' target/release/examples/csa_profile`
use std::hint::black_box;

#[path = "../benches/common/mod.rs"]
mod common;
#[path = "../benches/common/csa_work.rs"]
mod csa_work;
use csa_work::{csa_crate, kifu_read};

fn main() {
    let Some(files) = common::corpus().and_then(|c| csa_work::files(&c)) else { return };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
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
