//! The fuzz target of a line-based Go format (GIB, NGF, UGF), written once: no panic, the
//! stream's contract (`kifu::kit`), errors inside games, every Node followed by a Move (but the
//! root's), strict ⊆ lenient, skip_game agrees with reading, chunks cover the games (plus
//! trailing junk), and the Go board replays what the reader gives.

/// `go_lines_target!(gib)`: the `fuzz_target!` of `kifu::gib`.
macro_rules! go_lines_target {
    ($format:ident) => {
        use kifu::kit::Contract;
        use kifu::position::go::{replay, ReplayOptions};
        use kifu::{Config, Event, EventSource};
        use libfuzzer_sys::fuzz_target;

        #[path = "../common/skips.rs"]
        mod skips;

        fuzz_target!(|input: &[u8]| {
            let cap = input.len() * 16 + 64;
            let lenient: Vec<_> = kifu::$format::Reader::new(input).take(cap).collect();
            assert!(lenient.len() < cap, "no progress");
            let mut contract = Contract::new(input.len(), false);
            let mut after_node = false;
            for item in &lenient {
                if item.is_err() {
                    assert!(contract.in_game(), "errors happen inside games");
                }
                contract.item(item.as_ref());
                if std::mem::take(&mut after_node) && item.is_ok() {
                    // The root node holds game information and setup; every other node a move.
                    assert!(!matches!(item, Ok(Event::Node)), "{item:?} after Node");
                }
                after_node = matches!(item, Ok(Event::Node));
            }
            contract.finish();
            let strict: Vec<_> = kifu::$format::Reader::with_config(input, Config::strict()).collect();
            kifu::kit::check_items(input, &strict, true);
            if strict.iter().all(|i| i.is_ok()) {
                assert!(lenient.iter().zip(&strict).all(|(l, s)| l.as_ref().ok() == s.as_ref().ok()));
                assert_eq!(lenient.len(), strict.len());
            }
            let games = lenient.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count();
            if lenient.iter().all(|i| i.is_ok()) {
                let mut r = kifu::$format::Reader::new(input);
                let mut skipped = 0;
                while r.skip_game().unwrap() {
                    skipped += 1;
                }
                assert_eq!(skipped, games);
            }
            assert!(kifu::$format::chunks(input).count() <= games + 1);
            skips::check(input, |_| false, kifu::$format::Reader::new);
            let mut r = kifu::$format::Reader::new(input);
            while let Ok(Some(_)) = replay(&mut r, &ReplayOptions::default()) {}
        });
    };
}
