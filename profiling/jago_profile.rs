//! The Jago bench's workload as a plain program, for `valgrind --tool=callgrind`: every game of
//! converted/xml-gogui in one document, read once by the bare quick-xml loop (`bare_quick_xml`)
//! and once by kifu's reader (`kifu_events`); compare their instruction counts with
//! `--toggle-collect='*bare_quick_xml*'` and `--toggle-collect='*kifu_events*'`.
//!
//! Then the same per file (`bare_per_file`, `kifu_per_file`; `ONE_DOCUMENT=1` leaves this out,
//! e.g. to count `kifu_events` for the one document alone).
//!
//! `valgrind --tool=callgrind --toggle-collect='*kifu_events*' target/release/examples/jago_profile`
use std::hint::black_box;

#[path = "../benches/common/mod.rs"]
mod common;
#[path = "../benches/common/jago_work.rs"]
mod jago_work;
use jago_work::{bare_per_file, bare_quick_xml, kifu_events, kifu_per_file};

fn main() {
    let Some(corpus) = common::corpus() else { return };
    let files = jago_work::files(&corpus);
    let doc = jago_work::one_document(&files);
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    // Rounds alternate between the two readers; the fastest round of each is reported (the
    // machine is shared: the minimum is the least disturbed).
    let best = |f: &dyn Fn() -> u64| {
        let t = std::time::Instant::now();
        black_box(f());
        t.elapsed().as_secs_f64()
    };
    let (mut bare, mut ours, mut bare_pf, mut ours_pf) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds {
        bare = bare.min(best(&|| bare_quick_xml(black_box(&doc))));
        ours = ours.min(best(&|| kifu_events(black_box(&doc))));
        if std::env::var_os("ONE_DOCUMENT").is_none() {
            bare_pf = bare_pf.min(best(&|| bare_per_file(black_box(&files))));
            ours_pf = ours_pf.min(best(&|| kifu_per_file(black_box(&files))));
        }
    }
    let mb = doc.len() as f64 / 1e6;
    println!(
        "one document, {} bytes: bare quick-xml {:.1} MB/s, kifu {:.1} MB/s ({:.0}%)",
        doc.len(),
        mb / bare,
        mb / ours,
        bare / ours * 100.0
    );
    let mb = files.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    println!(
        "per file: bare quick-xml {:.1} MB/s, kifu {:.1} MB/s ({:.0}%)",
        mb / bare_pf,
        mb / ours_pf,
        bare_pf / ours_pf * 100.0
    );
}
