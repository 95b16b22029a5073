//! Fuzzes the UGF reader: the checks of every line-based reader (`fuzz/common/reader_checks.rs`),
//! chunks that cover the games (plus trailing junk), and the Go board replaying what the reader
//! gives.
//! Seed corpus: `fuzz/corpus/ugf/` (CI copies ../shared/corpus/ugf/ files there; not committed).
#![no_main]

use kifu::position::go::{replay, ReplayOptions};
use libfuzzer_sys::fuzz_target;

#[macro_use]
#[path = "../common/reader_checks.rs"]
mod reader_checks;
#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let (_, games) = reader_checks!(ugf, input);
    assert!(kifu::ugf::chunks(input).count() <= games + 1);
    skips::check(input, |_| false, kifu::ugf::Reader::new);
    let mut r = kifu::ugf::Reader::new(input);
    while let Ok(Some(_)) = replay(&mut r, &ReplayOptions::default()) {}
});
