//! Fuzzes the CSA reader: no panic, games framed by GameStart/GameEnd, offsets in bounds, every
//! Node followed by a Move, progress, strict ⊆ lenient, skip_game agrees with reading, and the
//! shogi position never panics on what the reader gives.
//! Seed corpus: `fuzz/corpus/csa_reader/` (copy ../shared/corpus/csa/*.csa there; not committed).
#![no_main]

use kifu::position::shogi::ShogiPosition;
use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

#[path = "../common/skips.rs"]
mod skips;

fuzz_target!(|input: &[u8]| {
    let cap = input.len() * 4 + 100;
    let lenient: Vec<_> = kifu::csa::Reader::new(input).take(cap).collect();
    assert!(lenient.len() < cap, "no progress");
    let (mut in_game, mut after_err, mut expect_move) = (false, false, false);
    for item in &lenient {
        match item {
            Err(e) => {
                assert!(e.offset() <= input.len() as u64);
                assert!(in_game);
                (in_game, after_err, expect_move) = (false, true, false);
            }
            Ok(ev) => {
                if after_err {
                    assert!(matches!(ev, Event::GameStart { .. }));
                    after_err = false;
                }
                if expect_move {
                    assert!(matches!(ev, Event::Move(_)));
                    expect_move = false;
                }
                match ev {
                    Event::GameStart { offset } => {
                        assert!(!in_game && *offset <= input.len() as u64);
                        in_game = true;
                    }
                    Event::GameEnd { length, .. } => {
                        assert!(in_game && *length <= input.len() as u64);
                        in_game = false;
                    }
                    Event::Warning(w) => assert!(w.offset <= input.len() as u64),
                    Event::Node => expect_move = true,
                    _ => assert!(in_game),
                }
            }
        }
    }
    assert!(!in_game);
    let strict: Vec<_> = kifu::csa::Reader::with_config(input, Config::strict()).collect();
    if strict.iter().all(|i| i.is_ok()) {
        assert!(lenient.iter().zip(&strict).all(|(l, s)| l.as_ref().ok() == s.as_ref().ok()));
        assert_eq!(lenient.len(), strict.len());
    }
    if lenient.iter().all(|i| i.is_ok()) {
        let games = lenient.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count();
        let mut r = kifu::csa::Reader::new(input);
        let mut skipped = 0;
        while r.skip_game().unwrap() {
            skipped += 1;
        }
        assert_eq!(skipped, games);
    }
    skips::check(input, |_| false, kifu::csa::Reader::new);
    let mut pos = ShogiPosition::new();
    for ev in lenient.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
});
