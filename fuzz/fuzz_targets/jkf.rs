//! Fuzz target for JKF: the invariants of `fuzz/common/json_invariants.rs` (no panic, progress,
//! offsets in bounds, balanced variations, a GameStart after every error, strict mode a prefix of
//! lenient mode), every Node followed by its Move, skip_game agrees with reading, and the shogi
//! position never panics on what the reader gives.
//! Seed corpus: `fuzz/corpus/jkf/` (CI copies ../shared/corpus/ `*.jkf` files there; not committed).
#![no_main]

#[path = "../common/json_invariants.rs"]
mod json_invariants;
#[path = "../common/skips.rs"]
mod skips;

use kifu::position::shogi::ShogiPosition;
use kifu::Event;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    json_invariants::check(data, |data, config, dialect| kifu::jkf::Reader::with_dialect(data, config, dialect));
    skips::check(data, |_| false, kifu::jkf::Reader::new);
    let items: Vec<_> = kifu::jkf::Reader::new(data).take(data.len() * 16 + 64).collect();
    let mut expect_move = false;
    for item in &items {
        if std::mem::take(&mut expect_move) && item.is_ok() {
            assert!(matches!(item, Ok(Event::Move(_))), "{item:?} after Node");
        }
        expect_move = matches!(item, Ok(Event::Node));
    }
    let mut pos = ShogiPosition::new();
    for ev in items.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
});
