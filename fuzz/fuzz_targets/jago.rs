//! Fuzz the Jago XML reader: no panic, the stream's contract (`kifu::kit`), strict ⊆ lenient
//! (strict errs wherever lenient warns or errs), skip_game and the splitter agree with reading on
//! game counts for clean input.
#![no_main]

use kifu::kit::Contract;
use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

#[path = "../common/skips.rs"]
mod skips;

/// Reads everything; returns (games completed, warnings, errors) after checking the stream's
/// contract (`kifu::kit`), that text decodes and that points are in range.
fn run(data: &[u8], config: Config) -> (usize, usize, usize) {
    let mut contract = Contract::new(data.len(), config.is_strict());
    for item in kifu::jago::Reader::with_config(data, config) {
        contract.item(item.as_ref());
        match item {
            Ok(Event::Info(i)) => {
                let _ = i.value().decode();
            }
            Ok(Event::Comment(t)) | Ok(Event::Name(t)) => {
                let _ = t.decode();
            }
            Ok(Event::Markup(m)) => {
                let _ = m.label().decode();
                if let Some(p) = m.point() {
                    assert!(p.x < 52 && p.y < 52);
                }
            }
            Ok(Event::Move(kifu::Move::Go { point: Some(p), .. })) => assert!(p.x < 52 && p.y < 52),
            Ok(Event::Property(p)) => {
                let _ = p.value().decode();
            }
            _ => {}
        }
    }
    let c = contract.finish();
    (c.games, c.warnings, c.errors)
}

fuzz_target!(|data: &[u8]| {
    let (games, warnings, errors) = run(data, Config::default());
    let (_, _, strict_errors) = run(data, Config::strict());
    if warnings + errors > 0 {
        assert!(strict_errors > 0, "strict accepted what lenient warned about");
    } else {
        assert_eq!(strict_errors, 0);
    }
    // skip_game always ends; on clean input whose every `</GoGame` closes a game, it sees the
    // same games as reading.
    let closes = data.windows(8).filter(|w| w == b"</GoGame").count();
    if warnings + errors == 0 && closes == games {
        let mut r = kifu::jago::Reader::new(data);
        let mut skipped = 0;
        while r.skip_game().unwrap() {
            skipped += 1;
            assert!(skipped <= games);
        }
        assert_eq!(skipped, games);
    } else {
        let mut r = kifu::jago::Reader::new(data);
        let mut n = 0;
        while let Ok(true) = r.skip_game() {
            n += 1;
            assert!(n <= data.len() + 1);
        }
    }
    // Games read with warnings are only skipped (see `skips::check`).
    skips::check(data, |game| game.iter().any(|s| s.contains("Warning")), kifu::jago::Reader::new);
    for chunk in kifu::jago::Splitter::new(data) {
        assert!(chunk.offset as usize + chunk.bytes.len() <= data.len());
        let _ = run(chunk.bytes, Config::default());
    }
});
