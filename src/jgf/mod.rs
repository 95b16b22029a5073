//! JGF, the JSON Go Format: v2 (Seki) in [`v2`] and v1 (ngGo) in [`v1`], read as the same event
//! stream as SGF.
//!
//! Both readers pull tokens from the shared tokenizer of [`crate::json`] (strict JSON by default;
//! [`Dialect::Lenient`](crate::json::Dialect::Lenient) for the JS-like spec texts) and map them
//! with an explicit context stack: no recursion, and variations nested deeper than
//! [`Limits::max_depth`](crate::Limits::max_depth) are
//! [`LimitExceeded(Depth)`](crate::ErrorKind::LimitExceeded). Nothing is allocated per game once
//! the context stack and the tokenizer's nesting stack have grown to the deepest game seen.
//!
//! ## Header
//! Every key of the spec's sections is an `Info` (with the key's own name; `InfoKey::Other`
//! where the shared vocabulary has no key, e.g. `rules.allowSuicide`, `board.cutOffTop`);
//! unknown keys and the `settings`, `meta` and v1 `player` sections pass through as `Property`
//! events with their raw JSON value. `record.version` may be a number or a string
//! (`"2.0.0"`). `board.size`, or `width`/`height`, gives one `Info(BoardSize)` like SGF `SZ`
//! (`19`, `19:13`) when the `board` object ends. `players` may be an array of
//! `{color, name, rank, team}` or Seki's object `{black: {…}, white: {…}}`; `game.dates` gives
//! one `Info(Date)` per date. If the tree comes before `board`, a look-ahead (no events) finds
//! the board size first, so that points are checked against the right board.
//!
//! ## Tree
//! The first node of the tree is the root. A node after a variations node in the same sequence
//! (not in either spec) is read as Seki's reader does: as one more child of the node before the
//! branch. The reader emits a `NodeAfterVariations` warning and opens one more
//! `VariationStart(Child)` before it, closed at the end of the sequence, so the main line (the
//! first child at every branch) is the same as Seki's.
//!
//! Points are checked against the board: off the board is a `PointOffBoard` warning and the
//! point is dropped; a move at (19, 19) on a board of at most 19×19 is the writers' `tt` pass
//! (ngGo always writes SGF `tt` so) and becomes a pass with a `TtPass` warning.
//!
//! Documents may follow each other (JSON lines or concatenated JSON): each is one game. After an
//! error, reading resumes at the next line that starts with `{` or `[`, or ends.

mod engine;
mod sizes;
pub mod v1;
pub mod v2;

use crate::detect::Confidence;

fn skip_preamble(head: &[u8]) -> &[u8] {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let p = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    &head[p..]
}

/// Whether `head` looks like JGF v2: a JSON object with a `"tree"` key and a `record.version`
/// of 2 or `"2…"`, or Seki's `"move": {"color": …}` / `"variations"` layout.
pub fn sniff_v2(head: &[u8]) -> Confidence {
    let h = skip_preamble(head);
    if !h.starts_with(b"{") {
        return Confidence::No;
    }
    let finder = |s: &[u8]| memchr::memmem::find(h, s).is_some();
    let v2 = finder(b"\"version\":\"2") || finder(b"\"version\": \"2") || finder(b"\"version\":2") || finder(b"\"version\": 2");
    let seki = finder(b"\"generator\"") || finder(b"\"color\":\"black\",\"x\"") || finder(b"\"variations\"");
    if (finder(b"\"tree\"") || finder(b"\"record\"")) && (v2 || seki) {
        Confidence::Yes
    } else if finder(b"\"tree\"") && finder(b"\"move\"") && finder(b"\"color\"") {
        Confidence::Maybe
    } else {
        Confidence::No
    }
}

/// Whether `head` looks like JGF v1: a JSON object with `record.version` 1 or an ngGo
/// application, or a bare tree array whose first node has `"root": true`.
pub fn sniff_v1(head: &[u8]) -> Confidence {
    let h = skip_preamble(head);
    let finder = |s: &[u8]| memchr::memmem::find(h, s).is_some();
    if h.starts_with(b"[") {
        let rest = skip_preamble(&h[1..]);
        if rest.starts_with(b"{") && (finder(b"\"root\":true") || finder(b"\"root\": true")) {
            return Confidence::Yes;
        }
        return Confidence::No;
    }
    if !h.starts_with(b"{") {
        return Confidence::No;
    }
    let v1 = finder(b"\"version\":1") || finder(b"\"version\": 1") || finder(b"\"ngGo");
    let root = finder(b"\"root\":true") || finder(b"\"root\": true");
    if (finder(b"\"tree\"") || finder(b"\"record\"")) && (v1 || root) {
        Confidence::Yes
    } else {
        Confidence::No
    }
}
