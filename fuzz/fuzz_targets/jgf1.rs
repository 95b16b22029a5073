//! Fuzz target for JGF v1: the invariants of `fuzz/common/json_invariants.rs` (no panic,
//! progress, offsets in bounds, balanced variations, a GameStart after every error, strict mode a
//! prefix of lenient mode). Seed corpus: the files of converted/jgf1-nggo.
#![no_main]

#[path = "../common/json_invariants.rs"]
mod json_invariants;
#[path = "../common/skips.rs"]
mod skips;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    json_invariants::check(data, |data, config, dialect| kifu::jgf::v1::Reader::with_dialect(data, config, dialect));
    skips::check(data, |_| false, kifu::jgf::v1::Reader::new);
});
