//! The check every reader's fuzz target shares for `skip_game`: skipping game `k` at its
//! `GameStart` and reading on gives the full read less game `k`'s items, through its `GameEnd` or
//! through the error that ended it. The skip lands where the event path resumes; what it
//! skipped, warnings and errors, it does not return (the SGF reader does return an error that
//! ends the input, a value never closed: either is accepted).

use kifu::EventSource;

/// Checks the first few games of `data` with readers made by `new` (default configuration).
/// Inputs whose full read hit a limit are passed over: skips apply no limits.
pub fn check<'a, R: EventSource>(data: &'a [u8], new: impl Fn(&'a [u8]) -> R) {
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
                games.push((g, i + 1));
            }
        } else if s.starts_with("Err") {
            if let Some(g) = start.take() {
                games.push((g, i));
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
            assert!(got.len() <= all.len() + 1, "no progress after a skip");
        }
        let want: Vec<String> = all[..=g].iter().chain(&all[resume..]).cloned().collect();
        if got != want && all.get(resume).is_some_and(|s| s.starts_with("Err")) {
            let without_error: Vec<String> = all[..=g].iter().chain(&all[resume + 1..]).cloned().collect();
            assert_eq!(got, without_error, "skipping the game at item {g}");
        } else {
            assert_eq!(got, want, "skipping the game at item {g}");
        }
    }
}
