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

/// Shogi variations are replayed from where they branch: KIF's and KI2's `変化：N手` replaces move
/// N, so it starts from the position before it; the line it left goes on as it was. (Before, a
/// variation's moves were played on after the main line's last move, each failing: the corpus's
/// kif/ and ki2/ gave 2,759 and 2,621 illegal moves, now 0.)
#[test]
fn shogi_variations_are_replayed() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n\n変化：3手\n   3 ７六歩(77)\n   4 ８四歩(83)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２二角成(88)\n";
    // In the variation of move 3, the pawn on 7七 has gone (move 1); in that of move 2, White's
    // pawn on 3三 is still there and blocks the bishop.
    // In file order (before 2026-11-29, in the order the reader gives the lines: the variation
    // of move 2 first).
    let want = [("no_piece".to_owned(), 3), ("bad_movement".to_owned(), 3)];
    assert_eq!(illegal("v.kifu", kif), want);
    // KI2 names no origin: the reader finds each on its line's board. Both variations are legal
    // (▲７八金 after ▲２六歩 is the gold from 6九), and so the replay finds
    // nothing; played on after the main line, ▲２六歩 would find no pawn on 2七.
    let ki2 = "手合割：平手\n▲７六歩    △３四歩    ▲２六歩    △８四歩\n\n変化：3手\n▲２六歩    △８四歩    ▲７八金\n\n変化：2手\n△８四歩    ▲２六歩\n";
    assert_eq!(illegal("v.ki2u", ki2), []);
}

/// An illegal shogi move is not played but its turn passes: the next move is judged as its own
/// side's, not reported as `wrong_side` because of the one before (before: `no_piece (move 3)`
/// and `wrong_side (move 4)` for one bad move).
#[test]
fn an_illegal_shogi_move_passes_the_turn() {
    let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7776FU\n-8384FU\n+2726FU\n";
    assert_eq!(illegal("t.csa", csa), [("no_piece".to_owned(), 3)]);
    // A move by the side not to move is reported once too: the side to move stays. In CSA that
    // one report is CSA's own `wrong_side` warning, not the replay's `illegal_move` (see cli.rs's
    // a_csa_move_by_the_wrong_side_is_one_finding).
    let csa = "V2.2\nPI\n+\n+7776FU\n+2726FU\n-3334FU\n+2726FU\n";
    assert_eq!(illegal("w.csa", csa), []);
}
