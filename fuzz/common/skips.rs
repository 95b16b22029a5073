//! The check every reader's fuzz target shares for `skip_game`: skipping game `k` at its
//! `GameStart` and reading on gives the full read less game `k`'s items, through its `GameEnd`
//! (warnings inside it are not returned). A game that ended in an error is only skipped (no
//! panic, progress): where the error is one that only reading the content reveals (a JGF
//! document of the wrong shape, a CSA line of binary data), the skip does not see it and lands at
//! the end of the game's framing, while the event path resynchronises on its own terms.

use kifu::EventSource;

/// Checks the first few games of `data` with readers made by `new` (default configuration).
/// Inputs whose full read hit a limit are passed over: skips apply no limits. A game for which
/// `unchecked(its items from the full read)` holds is only skipped too (the Jago target passes
/// over games with warnings: its skip is a substring search for `</GoGame`, documented to be
/// approximate on broken markup, which the event path reads with warnings).
pub fn check<'a, R: EventSource>(data: &'a [u8], unchecked: fn(&[String]) -> bool, new: impl Fn(&'a [u8]) -> R) {
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
                games.push((g, if unchecked(&all[g..=i]) { usize::MAX } else { i + 1 }));
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
