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
