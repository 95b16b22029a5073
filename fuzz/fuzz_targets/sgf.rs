//! Fuzzes the SGF reader and its checks (`sgf::check::lint`): no panic, the stream's contract (`kifu::kit::check_contract`: progress,
//! framing, balanced variations, offsets in bounds…), strict mode never accepts an input that
//! lenient mode rejects, and the bracket scans behind `skip_game` and `skip_variation` end games
//! and variations where the event path does.
#![no_main]

use kifu::kit::Contract;
use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

/// Reads `data` checking the stream's contract (`kifu::kit`) and that text decodes; returns
/// (games, errors).
fn check(data: &[u8], config: Config) -> (u64, u64) {
    let mut r = kifu::sgf::Reader::with_config(data, config);
    let mut contract = Contract::new(data.len(), config.is_strict());
    while let Some(item) = r.next_event() {
        contract.item(item.as_ref());
        match item {
            Ok(Event::Info(i)) => {
                let _ = i.value().decode();
            }
            Ok(Event::Comment(t)) | Ok(Event::Name(t)) => {
                let _ = t.decode();
            }
            _ => {}
        }
    }
    let c = contract.finish();
    (c.games as u64, c.errors as u64)
}

/// The full read's items as strings.
fn items(data: &[u8]) -> Vec<String> {
    kifu::sgf::Reader::new(data).map(|i| format!("{i:?}")).collect()
}

/// Reads `data`, calling `skip` (`skip_game` or `skip_variation`) once, right after item `at`;
/// returns the items, with the skip's error (if any) in their place.
fn read_skipping(
    data: &[u8],
    at: usize,
    skip: fn(&mut kifu::sgf::Reader<'_>) -> Result<(), kifu::Error>,
) -> Vec<String> {
    let mut r = kifu::sgf::Reader::new(data);
    let mut got = Vec::new();
    while let Some(item) = r.next_event() {
        got.push(format!("{item:?}"));
        if got.len() == at + 1 {
            if let Err(e) = skip(&mut r) {
                got.push(format!("{:?}", Err::<(), _>(e)));
            }
        }
    }
    got
}

/// Skipping a game at its `GameStart`, or a variation at its `VariationStart`, then reading on
/// gives the full read less the skipped items (warnings inside them included; the once-a-game
/// `LowercaseIdent` may then come later). Not checked where a limit stopped the full read (skips
/// apply no limits).
fn check_skips(data: &[u8]) {
    let all = items(data);
    if all.len() > 20_000 || all.iter().any(|s| s.contains("LimitExceeded")) {
        return;
    }
    let (mut stack, mut ends) = (Vec::new(), Vec::new());
    let mut game = None;
    for (i, s) in all.iter().enumerate() {
        if s.starts_with("Ok(GameStart") {
            game = Some(i);
        } else if s.starts_with("Ok(VariationStart") {
            stack.push(i);
        } else if s.starts_with("Ok(VariationEnd") {
            if let Some(v) = stack.pop() {
                ends.push((v, i + 1, false));
            }
        } else if s.starts_with("Ok(GameEnd") || s.starts_with("Err") {
            // An error ends the game: a skip runs into it and returns it.
            let next = if s.starts_with("Err") { i } else { i + 1 };
            for v in stack.drain(..) {
                ends.push((v, i, false));
            }
            if let Some(g) = game.take() {
                ends.push((g, next, true));
            }
        }
    }
    ends.sort();
    let (mut games, mut variations) = (0, 0);
    for &(start, resume, is_game) in &ends {
        if (is_game && games >= 4) || (!is_game && variations >= 4) {
            continue;
        }
        let got = if is_game {
            games += 1;
            read_skipping(data, start, |r| r.skip_game().map(drop))
        } else {
            variations += 1;
            read_skipping(data, start, |r| r.skip_variation())
        };
        let want: Vec<String> = all[..=start].iter().chain(&all[resume..]).cloned().collect();
        // `LowercaseIdent` comes once per game, at the first such identifier the reader sees:
        // after a skip over the first one, at a later one.
        let once =
            |v: Vec<String>| -> Vec<String> { v.into_iter().filter(|s| !s.contains("LowercaseIdent")).collect() };
        assert_eq!(once(got), once(want), "skipping item {start} ({})", all[start]);
    }
}

fuzz_target!(|data: &[u8]| {
    check_skips(data);
    // The FF[4] checks of `kifu check`: no panic, every finding inside the input.
    let mut found = Vec::new();
    kifu::sgf::check::lint(data, &mut found);
    assert!(found.iter().all(|w| w.offset <= data.len() as u64), "{found:?}");
    let (lenient_games, lenient_errors) = check(data, Config::default());
    let (_, strict_errors) = check(data, Config::strict());
    // Strict accepts a subset of what lenient accepts.
    if strict_errors == 0 {
        assert_eq!(lenient_errors, 0);
    }
    let _ = lenient_games;
});
