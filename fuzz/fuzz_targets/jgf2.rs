//! Fuzz target for JGF v2: the invariants of `fuzz/common/json_invariants.rs` (no panic,
//! progress, offsets in bounds, balanced variations, a GameStart after every error, strict mode a
//! prefix of lenient mode). Seed corpus: the files of converted/jgf2-seki.
#![no_main]

#[path = "../common/json_invariants.rs"]
mod json_invariants;
#[path = "../common/skips.rs"]
mod skips;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    json_invariants::check(data, |data, config, dialect| kifu::jgf::v2::Reader::with_dialect(data, config, dialect));
    skips::check(data, |_| false, kifu::jgf::v2::Reader::new);
});
