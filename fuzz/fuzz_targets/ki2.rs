//! Fuzzes the KI2 reader: no panic, the stream's contract (`kifu::kit`), errors inside games,
//! every Node followed by a Move, strict ⊆ lenient, skip_game agrees with reading, chunks cover
//! the games, the shogi position never panics on what the reader gives, and the KI2 writer
//! writes what the reader gives (in both charsets) without a panic, as text the reader reads.
//! Seed corpus: `fuzz/corpus/ki2/` (CI copies ../shared/corpus/ki2/ files there; not committed).
#![no_main]

use kifu::kit::Contract;
use kifu::position::shogi::ShogiPosition;
use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let cap = input.len() * 16 + 64;
    let lenient: Vec<_> = kifu::ki2::Reader::new(input).take(cap).collect();
    assert!(lenient.len() < cap, "no progress");
    let mut contract = Contract::new(input.len(), false);
    let mut expect_move = false;
    for item in &lenient {
        if item.is_err() {
            assert!(contract.in_game(), "errors happen inside games");
        }
        contract.item(item.as_ref());
        if std::mem::take(&mut expect_move) && item.is_ok() {
            assert!(matches!(item, Ok(Event::Move(_))), "{item:?} after Node");
        }
        expect_move = matches!(item, Ok(Event::Node));
    }
    contract.finish();
    let strict: Vec<_> = kifu::ki2::Reader::with_config(input, Config::strict()).collect();
    kifu::kit::check_items(input, &strict, true);
    if strict.iter().all(|i| i.is_ok()) {
        assert!(lenient.iter().zip(&strict).all(|(l, s)| l.as_ref().ok() == s.as_ref().ok()));
        assert_eq!(lenient.len(), strict.len());
    }
    let games = lenient.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count();
    if lenient.iter().all(|i| i.is_ok()) {
        let mut r = kifu::ki2::Reader::new(input);
        let mut skipped = 0;
        while r.skip_game().unwrap() {
            skipped += 1;
        }
        assert_eq!(skipped, games);
    }
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
