//! `--replay` replays every line of play, not only the main line: an illegal move inside a
//! variation is reported, numbered along its own line, and a variation leaves the position of the
//! line it branched from as it was (SGF child variations, Jago XML sibling variations).

use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

/// The `(line, kind, move number)` of every illegal move `kifu check --replay` reports.
fn illegal(name: &str, text: &str) -> Vec<(String, u32)> {
    let dir = std::env::temp_dir().join(format!("kifu-replay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(KIFU).args(["check", "--replay", "--json", path.to_str().unwrap()]).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "illegal_move")
        .map(|p| {
            let m = p["message"].as_str().unwrap();
            let n = m.rsplit_once("move ").unwrap().1.trim_end_matches(')').parse().unwrap();
            (m.split(' ').next().unwrap().to_owned(), n)
        })
        .collect()
}

#[test]
fn sgf_variations_are_replayed() {
    // Main line: W[cc] on Black's stone (move 4). Second variation: W[aa] on Black's first stone.
    // The first variation's B[cc] must not stay on the board for the second.
    let sgf = "(;GM[1]SZ[9];B[aa];W[bb](;B[cc];W[cc])(;B[dd];W[aa];B[cc]))";
    assert_eq!(illegal("v.sgf", sgf), [("occupied".to_owned(), 4), ("occupied".to_owned(), 4)]);
    // Nested variations, each back to its own branching point.
    let nested = "(;SZ[9];B[aa](;W[bb](;B[cc])(;B[bb]))(;W[aa]))";
    assert_eq!(illegal("n.sgf", nested), [("occupied".to_owned(), 3), ("occupied".to_owned(), 2)]);
}

#[test]
fn jago_sibling_variations_replace_the_node_they_follow() {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<Go><GoGame><Information><BoardSize>9</BoardSize></Information><Nodes>
<Black number="1" at="A9"/>
<White number="2" at="B8"/>
<Variation><White number="2" at="A9"/></Variation>
<Variation><White number="2" at="C7"/><Black number="3" at="C7"/></Variation>
<Black number="3" at="B8"/>
</Nodes></GoGame></Go>"#;
    // The first sibling replaces W B8 and plays on Black's A9 (move 2); the second plays C7
    // twice (move 3); the main line goes on from W B8, so B B8 is occupied (move 3).
    let found = illegal("s.xml", xml);
    assert_eq!(found, [("occupied".to_owned(), 2), ("occupied".to_owned(), 3), ("occupied".to_owned(), 3)]);
}
