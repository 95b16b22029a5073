//! Fuzzes the KI2 reader: the checks of every line-based reader (`fuzz/common/reader_checks.rs`),
//! chunks that cover the games, the shogi position never panicking on what the reader gives, and
//! the KI2 writer writing what the reader gives (in both charsets) as text the reader reads.
//! Seed corpus: `fuzz/corpus/ki2/` (CI copies ../shared/corpus/ki2/ files there; not committed).
#![no_main]

use kifu::position::shogi::ShogiPosition;
use libfuzzer_sys::fuzz_target;

#[macro_use]
#[path = "../common/reader_checks.rs"]
mod reader_checks;
#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let (lenient, games) = reader_checks!(ki2, input);
    assert!(kifu::ki2::chunks(input).count() <= games.max(1));
    skips::check(input, |_| false, kifu::ki2::Reader::new);
    let mut pos = ShogiPosition::new();
    for ev in lenient.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
    for charset in [kifu::text::Charset::Utf8, kifu::text::Charset::ShiftJis] {
        let mut w = kifu::ki2::write::Writer::new(charset);
        let mut out = Vec::new();
        for ev in lenient.iter().flatten() {
            w.event(ev, &mut out);
        }
        let back: Vec<_> = kifu::ki2::Reader::new(&out).take(out.len() * 16 + 64).collect();
        kifu::kit::check_items(&out, &back, false);
    }
});
