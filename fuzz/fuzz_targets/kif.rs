//! Fuzzes the KIF reader: the checks of every line-based reader (`fuzz/common/reader_checks.rs`),
//! chunks that cover the games, and the shogi position never panicking on what the reader gives.
//! Seed corpus: `fuzz/corpus/kif/` (CI copies ../shared/corpus/kif/ files there; not committed).
#![no_main]

use kifu::position::shogi::ShogiPosition;
use libfuzzer_sys::fuzz_target;

#[macro_use]
#[path = "../common/reader_checks.rs"]
mod reader_checks;
#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let (lenient, games) = reader_checks!(kif, input);
    assert!(kifu::kif::chunks(input).count() <= games.max(1));
    skips::check(input, |_| false, kifu::kif::Reader::new);
    let mut pos = ShogiPosition::new();
    for ev in lenient.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
});
