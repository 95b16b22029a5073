//! The main line follows the first variation, with or without a move in it (issue 20, point 8):
//! the tree, the moves-only writer (`kifu tree --moves`), the main-line writers, the adapter
//! `MainLine` and the passive `MainLineTracker` (the index's) all agree.

use bumpalo::Bump;
use kifu::tree::{self, MainLine, MainLineTracker, Writer};
use kifu::{Event, EventSource};

/// The main line's moves as `B[aa];W[ff]`.
fn joined(moves: impl IntoIterator<Item = kifu::Move>) -> String {
    let mut out = Vec::new();
    for (i, m) in moves.into_iter().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        tree::write_move(m, &mut out);
    }
    String::from_utf8(out).unwrap()
}

/// `(;B[aa];W[ff])` as `B[aa];W[ff]`.
fn strip(line: &[u8]) -> String {
    let s = std::str::from_utf8(line).unwrap();
    s.trim_start_matches("(;").trim_start_matches('(').trim_end_matches(')').to_string()
}

fn tree_main_line(sgf: &[u8]) -> String {
    let bump = Bump::new();
    let t = tree::build(&bump, &mut kifu::sgf::Reader::new(sgf)).unwrap().unwrap();
    joined(t.main_line().flat_map(|n| t.moves(n)))
}

fn writer_main_line(sgf: &[u8]) -> String {
    let bump = Bump::new();
    let t = tree::build(&bump, &mut kifu::sgf::Reader::new(sgf)).unwrap().unwrap();
    let mut out = Vec::new();
    Writer::new().main_line(&t, &mut out);
    strip(&out)
}

fn streaming_main_line(sgf: &[u8]) -> String {
    let mut out = Vec::new();
    assert!(tree::write_main_line_moves(&mut kifu::sgf::Reader::new(sgf), &mut out).unwrap());
    strip(&out)
}

fn adapter_main_line(sgf: &[u8]) -> String {
    let mut main = MainLine::new(kifu::sgf::Reader::new(sgf));
    let mut moves = Vec::new();
    while let Some(ev) = main.next_event() {
        match ev.unwrap() {
            Event::Move(m) => moves.push(m),
            Event::VariationStart(_) | Event::VariationEnd => panic!("the adapter passes no variations"),
            _ => {}
        }
    }
    joined(moves)
}

fn tracker_main_line(sgf: &[u8]) -> String {
    let mut track = MainLineTracker::new();
    let mut moves = Vec::new();
    for ev in kifu::sgf::Reader::new(sgf) {
        let ev = ev.unwrap();
        if track.feed(&ev) {
            if let Event::Move(m) = ev {
                moves.push(m);
            }
        }
    }
    joined(moves)
}

/// The moves-only form, and the main line of that form read back.
fn moves_form(sgf: &[u8]) -> (String, String) {
    let bump = Bump::new();
    let t = tree::build(&bump, &mut kifu::sgf::Reader::new(sgf)).unwrap().unwrap();
    let mut out = Vec::new();
    tree::write_moves(&t, &mut out);
    // (`()`, a game without moves, reads back as no game.)
    let back = if out == b"()" { String::new() } else { tree_main_line(&out) };
    (String::from_utf8(out).unwrap(), back)
}

fn check(sgf: &[u8], main: &str, form: &str) {
    let what = String::from_utf8_lossy(sgf);
    assert_eq!(tree_main_line(sgf), main, "tree: {what}");
    assert_eq!(writer_main_line(sgf), main, "Writer::main_line: {what}");
    assert_eq!(streaming_main_line(sgf), main, "write_main_line_moves: {what}");
    assert_eq!(adapter_main_line(sgf), main, "MainLine: {what}");
    assert_eq!(tracker_main_line(sgf), main, "MainLineTracker: {what}");
    let (written, back) = moves_form(sgf);
    assert_eq!(written, form, "write_moves: {what}");
    assert_eq!(back, main, "write_moves read back: {what}");
}

#[test]
fn a_first_variation_without_a_move_is_the_main_line() {
    // The case: `tree --moves` gave `(;B[aa];W[ff];B[fg])`.
    check(b"(;GM[1]SZ[19];B[aa];W[ff](;N[main])(;B[fg]))", "B[aa];W[ff]", "(;B[aa];W[ff](;)(;B[fg]))");
    // Several moveless nodes down the first variation, and more variations after it.
    check(b"(;GM[1];B[aa](;C[x](;N[y])(;W[cc]))(;W[bb]))", "B[aa]", "(;B[aa](;)(;W[cc])(;W[bb]))");
    // At the root: the game's main line has no move at all.
    check(b"(;GM[1](;N[x])(;B[aa]))", "", "(;(;)(;B[aa]))");
    check(b"(;GM[1](;N[x];C[y])(;B[aa])(;B[bb]))", "", "(;(;)(;B[aa])(;B[bb]))");
}

#[test]
fn moveless_nodes_elsewhere_are_still_dropped() {
    // A first variation that reaches a move is the main line as before.
    check(b"(;GM[1];B[aa](;C[x];W[bb])(;W[cc]))", "B[aa];W[bb]", "(;B[aa](;W[bb])(;W[cc]))");
    // A later variation without a move changes nothing.
    check(b"(;GM[1];B[aa](;W[bb])(;C[x]))", "B[aa];W[bb]", "(;B[aa];W[bb])");
    // A first variation without a move and no other: nothing to keep apart.
    check(b"(;GM[1];B[aa](;C[x]))", "B[aa]", "(;B[aa])");
    check(b"(;GM[1];B[aa](;C[x])(;N[y]))", "B[aa]", "(;B[aa])");
    // An empty game, a game with only setup.
    check(b"(;GM[1])", "", "()");
    check(b"(;GM[1]AB[aa](;C[x])(;N[y]))", "", "()");
}

#[test]
fn a_game_without_paren_has_the_same_main_line() {
    // The lenient starts give the trees their bracketed forms give.
    check(b";GM[1];B[aa];W[ff](;N[main])(;B[fg])", "B[aa];W[ff]", "(;B[aa];W[ff](;)(;B[fg]))");
    check(b"(B[aa];W[ff](;N[main])(;B[fg]))", "B[aa];W[ff]", "(;B[aa];W[ff](;)(;B[fg]))");
}
