//! Writing to standard output so that a closed pipe (`kifu … | head -1`) ends the command
//! quietly: `println!` panics when the reader has gone, these report it instead.

use std::io::Write;

/// Writes `s` to standard output; `false` when the output is closed (the caller stops).
pub fn print(s: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes()).and_then(|()| out.flush()).is_ok()
}

/// [`print`] with a line break after `s`.
pub fn println(s: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes()).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush()).is_ok()
}

/// Writes `s` to standard error, ignoring a closed stream (`eprint!` would panic).
pub fn eprint(s: &str) {
    let _ = std::io::stderr().lock().write_all(s.as_bytes());
}

/// Writes `b` to standard output; `false` when the output is closed (the caller stops).
pub fn print_bytes(b: &[u8]) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(b).and_then(|()| out.flush()).is_ok()
}

/// Writes `s` out and empties it once it holds a megabyte or more (a listing of a million games
/// is written as it is made, not held whole: 150 MB for the empty board's, in CSV); `false`
/// when the output is closed (the caller stops).
pub fn spill(s: &mut String) -> bool {
    if s.len() < 1 << 20 {
        return true;
    }
    let open = print(s);
    s.clear();
    open
}

/// [`spill`] as the answer of a closure a search hands its games to: `Continue` while the
/// output is open, `Break` once it is closed (and `open` says which, for what comes after).
pub fn go_on(s: &mut String, open: &mut bool) -> std::ops::ControlFlow<()> {
    *open = spill(s);
    if *open {
        std::ops::ControlFlow::Continue(())
    } else {
        std::ops::ControlFlow::Break(())
    }
}
