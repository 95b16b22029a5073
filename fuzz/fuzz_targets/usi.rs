//! Fuzzes the USI reader: the checks of every line-based reader (`fuzz/common/reader_checks.rs`),
//! a chunk per game and one more for junk lines after the last (they carry its warnings, so
//! that streamed reading equals slice reading), and the shogi position never panicking.
//! Seed corpus: `fuzz/corpus/usi/` (CI copies ../shared/corpus/usi/ files there; not committed).
#![no_main]

use kifu::position::shogi::ShogiPosition;
use libfuzzer_sys::fuzz_target;

#[macro_use]
#[path = "../common/reader_checks.rs"]
mod reader_checks;
#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let (lenient, games) = reader_checks!(usi, input);
    assert!(kifu::usi::chunks(input).count() <= games + 1);
    skips::check(input, |_| false, kifu::usi::Reader::new);
    let mut pos = ShogiPosition::new();
    for ev in lenient.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
});
