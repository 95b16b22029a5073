//! The check every reader's fuzz target shares for `skip_game`: skipping game `k` at its
//! `GameStart` and reading on gives the full read less game `k`'s items, through its `GameEnd`
//! (warnings inside it are not returned). A game that ended in an error is only skipped (no
//! panic, progress): where the error is one that only reading the content reveals (a JGF
//! document of the wrong shape, a CSA line of binary data), the skip does not see it and lands at
//! the end of the game's framing, while the event path resynchronises on its own terms.

use kifu::EventSource;

/// Checks the first few games of `data` with readers made by `new` (default configuration).
/// Inputs whose full read hit a limit are passed over: skips apply no limits. A game for which
/// `unchecked(game's bytes as the event path framed them)` holds is only skipped too (the Jago
/// skip is a substring search for `</GoGame`, documented to end early where broken XML hides
/// that end tag inside a tag).
pub fn check<'a, R: EventSource>(data: &'a [u8], unchecked: fn(&[u8]) -> bool, new: impl Fn(&'a [u8]) -> R) {
    let mut r = new(data);
    let mut all = Vec::new();
    while let Some(item) = r.next_event() {
        all.push(format!("{item:?}"));
        if all.len() > 20_000 {
            return;
        }
    }
    if all.iter().any(|s| s.contains("LimitExceeded")) {
        return;
    }
    // (index of GameStart, index to resume at)
    let mut games = Vec::new();
    let mut start = None;
    for (i, s) in all.iter().enumerate() {
        if s.starts_with("Ok(GameStart") {
            start = Some(i);
        } else if s.starts_with("Ok(GameEnd") {
            if let Some(g) = start.take() {
                let (from, len) = (number_after(&all[g], "offset: "), number_after(s, "length: "));
                let bytes = data.get(from..from.saturating_add(len)).unwrap_or(&[]);
                games.push((g, if unchecked(bytes) { usize::MAX } else { i + 1 }));
            }
        } else if s.starts_with("Err") {
            if let Some(g) = start.take() {
                games.push((g, usize::MAX));
            }
        }
    }
    for &(g, resume) in games.iter().take(4) {
        let mut r = new(data);
        let mut got = Vec::new();
        while let Some(item) = r.next_event() {
            got.push(format!("{item:?}"));
            if got.len() == g + 1 {
                match r.skip_game() {
                    Ok(skipped) => assert!(skipped, "skip_game at a GameStart skipped nothing"),
                    Err(e) => got.push(format!("{:?}", Err::<(), _>(e))),
                }
            }
            assert!(got.len() <= 16 * data.len() + 64, "no progress after a skip");
        }
        if resume != usize::MAX {
            let want: Vec<String> = all[..=g].iter().chain(&all[resume..]).cloned().collect();
            assert_eq!(got, want, "skipping the game at item {g}");
        }
    }
}

/// The number after `key` in an item's debug text (0 if none).
fn number_after(s: &str, key: &str) -> usize {
    let Some(i) = s.find(key) else { return 0 };
    s[i + key.len()..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap_or(0)
}

/// Every game is checked. (Unused by the Jago target, which has its own rule.)
#[allow(dead_code)]
pub fn all_checked(_: &[u8]) -> bool {
    false
}
