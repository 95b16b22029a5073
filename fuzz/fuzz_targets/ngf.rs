//! Fuzzes the NGF reader: the checks of every line-based reader (`fuzz/common/reader_checks.rs`),
//! chunks that cover the games (plus trailing junk), and the Go board replaying what the reader
//! gives.
//! Seed corpus: `fuzz/corpus/ngf/` (CI copies ../shared/corpus/ngf/ files there; not committed).
#![no_main]

use kifu::position::go::{replay, ReplayOptions};
use libfuzzer_sys::fuzz_target;

#[macro_use]
#[path = "../common/reader_checks.rs"]
mod reader_checks;
#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let (_, games) = reader_checks!(ngf, input);
    assert!(kifu::ngf::chunks(input).count() <= games + 1);
    skips::check(input, |_| false, kifu::ngf::Reader::new);
    let mut r = kifu::ngf::Reader::new(input);
    while let Ok(Some(_)) = replay(&mut r, &ReplayOptions::default()) {}
});
