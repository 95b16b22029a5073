//! Fuzzes the SGF reader: no panic, balanced variations within each game, offsets in bounds,
//! progress, and strict mode never accepts an input that lenient mode rejects.
#![no_main]

use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

fn check(data: &[u8], config: Config) -> (u64, u64) {
    let mut r = kifu::sgf::Reader::with_config(data, config);
    let (mut games, mut errors) = (0u64, 0u64);
    let mut depth: i64 = 0;
    let mut in_game = false;
    let mut items = 0usize;
    while let Some(item) = r.next_event() {
        items += 1;
        assert!(items <= 4 * data.len() + 16, "no progress");
        match item {
            Ok(Event::GameStart { offset }) => {
                assert!(offset as usize <= data.len());
                assert!(!in_game);
                in_game = true;
                depth = 0;
                games += 1;
            }
            Ok(Event::VariationStart(_)) => depth += 1,
            Ok(Event::VariationEnd) => {
                depth -= 1;
                assert!(depth >= 0, "unbalanced variation end");
            }
            Ok(Event::GameEnd { length, .. }) => {
                assert_eq!(depth, 0, "game ended with open variations");
                assert!(length as usize <= data.len());
                in_game = false;
            }
            Ok(Event::Warning(w)) => assert!(w.offset as usize <= data.len()),
            Ok(Event::Info(i)) => {
                let _ = i.value().decode();
            }
            Ok(Event::Comment(t)) | Ok(Event::Name(t)) => {
                let _ = t.decode();
            }
            Ok(_) => {}
            Err(e) => {
                assert!(e.offset() as usize <= data.len());
                errors += 1;
                in_game = false;
            }
        }
    }
    (games, errors)
}

fuzz_target!(|data: &[u8]| {
    let (lenient_games, lenient_errors) = check(data, Config::default());
    let (_, strict_errors) = check(data, Config::strict());
    // Strict accepts a subset of what lenient accepts.
    if strict_errors == 0 {
        assert_eq!(lenient_errors, 0);
    }
    let _ = lenient_games;
});
