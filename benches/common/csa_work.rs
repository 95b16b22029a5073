//! The CSA benchmark's workload, shared by `benches/csa.rs` and `profiling/csa_profile.rs` (which
//! runs it under callgrind): the corpus files both readers take, and one pass of each reader.

use kifu::{Event, EventSource};
use std::path::Path;

/// Every UTF-8 single-game file of converted/csa-cshogi under `corpus` that the `csa` crate
/// parses (it takes `&str`), sorted by name; `None` when the folder is missing.
pub fn files(corpus: &Path) -> Option<Vec<Vec<u8>>> {
    let rd = std::fs::read_dir(corpus.join("converted/csa-cshogi")).ok()?;
    let mut paths: Vec<_> =
        rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "csa")).collect();
    paths.sort();
    let files = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|b| std::str::from_utf8(b).is_ok_and(|s| csa::parse_csa(s).is_ok()))
        .collect();
    Some(files)
}

/// kifu: every event of every file; returns (moves, clock milliseconds) so nothing is optimised
/// away. Not inlined, so that callgrind can count it alone (`--toggle-collect='*kifu_read*'`).
#[inline(never)]
pub fn kifu_read(files: &[Vec<u8>]) -> (u64, u64) {
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

/// The `csa` crate on the same files: (moves, clock seconds).
#[inline(never)]
pub fn csa_crate(files: &[Vec<u8>]) -> (u64, u64) {
    let (mut moves, mut secs) = (0, 0);
    for f in files {
        let rec = csa::parse_csa(std::str::from_utf8(f).unwrap()).unwrap();
        moves += rec.moves.len() as u64;
        secs += rec.moves.iter().filter_map(|m| m.time).map(|t| t.as_secs()).sum::<u64>();
    }
    (moves, secs)
}
