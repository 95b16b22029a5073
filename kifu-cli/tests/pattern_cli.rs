//! Hand-written cases of `kifu find --pattern` and of `find --duplicates` up to symmetry: a
//! pattern in each corner, the eight orientations of one game, colour swap, a capture inside
//! the pattern, side and centre anchors, SGF setup with a region, and the command's output.

use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-pattern-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Orientation `k` of a point of a 19 × 19 board: bit 0 flips columns, bit 1 rows, bit 2 swaps
/// them.
fn orient(k: u8, (x, y): (u8, u8)) -> (u8, u8) {
    let x1 = if k & 1 != 0 { 18 - x } else { x };
    let y1 = if k & 2 != 0 { 18 - y } else { y };
    if k & 4 != 0 {
        (y1, x1)
    } else {
        (x1, y1)
    }
}

fn sgf_point((x, y): (u8, u8)) -> String {
    format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
}

/// A game of `moves` (Black first) seen through orientation `k`.
fn game(k: u8, moves: &[(u8, u8)], result: &str, swap: bool) -> String {
    let mut s = format!("(;GM[1]SZ[19]RE[{result}]");
    for (i, &m) in moves.iter().enumerate() {
        let black = (i % 2 == 0) != swap;
        s.push_str(&format!(";{}[{}]", if black { 'B' } else { 'W' }, sgf_point(orient(k, m))));
    }
    s.push(')');
    s
}

fn index(d: &Path) -> (rusqlite::Connection, PathBuf) {
    let db = d.join("i.sqlite");
    kifu_index::build(&[d.join("g")], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    (kifu_index::open_existing(&db).unwrap(), db)
}

fn search(
    conn: &rusqlite::Connection,
    diagram: &str,
    anchor: kifu_index::Anchor,
    swap: bool,
) -> kifu_index::PatternSearch {
    let mut p = kifu_index::Pattern::from_diagram(diagram, anchor).unwrap();
    p.swap_colors = swap;
    kifu_index::find_pattern(conn, &p, &kifu_index::Query::default()).unwrap()
}

/// (file name, move number, continuation, swapped) per hit.
fn summary(r: &kifu_index::PatternSearch) -> Vec<(String, u32, String, bool)> {
    let mut v: Vec<_> = r
        .hits
        .iter()
        .map(|h| {
            let name = Path::new(&h.hit.path).file_name().unwrap().to_string_lossy().into_owned();
            (name, h.number, h.next.text(), h.swapped)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_corner_every_orientation_colour_swap_and_duplicates() {
    let d = dir("corners");
    std::fs::create_dir_all(d.join("g")).unwrap();
    // A corner sequence: B 3-3, W attaches, B hanes, W extends, then Black elsewhere.
    let moves = [(2, 2), (3, 2), (3, 3), (4, 3), (15, 15)];
    for k in 0..8 {
        std::fs::write(d.join(format!("g/o{k}.sgf")), game(k, &moves, "B+R", false)).unwrap();
    }
    // The same shape with the colours swapped (White plays it), won by White.
    std::fs::write(d.join("g/swapped.sgf"), game(3, &moves, "W+R", true)).unwrap();
    // Another game altogether.
    std::fs::write(d.join("g/other.sgf"), game(0, &[(9, 9), (3, 3)], "W+2.5", false)).unwrap();
    let (conn, _) = index(&d);

    // After B 3-3 and W's attachment: the 5×5 corner `..../..XO` etc.
    let diagram = "...../...../..XO./...../.....";
    let r = search(&conn, diagram, kifu_index::Anchor::Corner, false);
    let want: Vec<_> = (0..8).map(|k| (format!("o{k}.sgf"), 2, "B[dd]".to_owned(), false)).collect();
    assert_eq!(summary(&r), want);
    assert_eq!(r.games, 8);
    assert_eq!(r.moves.len(), 1);
    assert_eq!((r.moves[0].games, r.moves[0].black_wins, r.moves[0].white_wins), (8, 8, 0));

    // With colour swap the swapped game comes too, its move and its result seen from the
    // pattern's colours.
    let r = search(&conn, diagram, kifu_index::Anchor::Corner, true);
    assert_eq!(r.games, 9);
    let s = summary(&r);
    assert!(s.contains(&("swapped.sgf".to_owned(), 2, "B[dd]".to_owned(), true)), "{s:?}");
    assert_eq!((r.moves[0].games, r.moves[0].black_wins, r.moves[0].white_wins), (9, 9, 0));

    // The start of every game matches an empty corner; the first move is seen in the corner's
    // frame (`other` starts in the centre: outside a 3×3 corner it is a tenuki).
    let r = search(&conn, "*../.../...", kifu_index::Anchor::Corner, false);
    let s = summary(&r);
    assert_eq!(s.len(), 10);
    assert!(s.iter().all(|h| h.1 == 0));
    assert!(s.contains(&("o5.sgf".to_owned(), 0, "B[cc]".to_owned(), false)), "{s:?}");
    assert!(s.contains(&("other.sgf".to_owned(), 0, "B tenuki".to_owned(), false)), "{s:?}");

    // Side and centre anchors find the corner shape too (a side pattern may sit in the corner);
    // a centre pattern's continuation is relative to the diagram.
    // (The colour-swapped game has the shape too, turned half a turn, with its own colours:
    // Black's 2nd and 4th moves around White's 3rd.)
    let r = search(&conn, "..XO./...X./.....", kifu_index::Anchor::Anywhere, false);
    let mut want: Vec<_> = (0..8).map(|k| (format!("o{k}.sgf"), 3, "W[eb]".to_owned(), false)).collect();
    want.push(("swapped.sgf".to_owned(), 4, "W tenuki".to_owned(), false));
    assert_eq!(summary(&r), want);
    let r = search(&conn, ".XO/..X", kifu_index::Anchor::Anywhere, false);
    assert_eq!(r.games, 9);
    assert!(summary(&r).iter().take(8).all(|h| h.1 == 3 && h.2 == "W tenuki"), "{:?}", summary(&r));
    let r = search(&conn, "..XO./...X./.....", kifu_index::Anchor::Side, false);
    assert_eq!(r.games, 0);

    // SGF setup with a region: where the region is, in every orientation.
    let p = kifu_index::Pattern::from_sgf("AB[cc]AW[dc]", Some("aa:ee")).unwrap();
    let r = kifu_index::find_pattern(&conn, &p, &kifu_index::Query::default()).unwrap();
    assert_eq!(r.games, 8);
    // A region off the corner stays where it is.
    let p = kifu_index::Pattern::from_sgf("AB[cc]AW[dc]", Some("bb:ee")).unwrap();
    assert_eq!(kifu_index::find_pattern(&conn, &p, &kifu_index::Query::default()).unwrap().games, 8);
    let p = kifu_index::Pattern::from_sgf("AB[jj]", None).unwrap();
    assert_eq!(kifu_index::find_pattern(&conn, &p, &kifu_index::Query::default()).unwrap().games, 1);

    // Duplicates up to symmetry: the eight orientations are one group; the colour-swapped game
    // and the other game are not duplicates.
    let q = kifu_index::Query { duplicates: true, ..Default::default() };
    let hits = kifu_index::find(&conn, &q).unwrap();
    let groups = kifu_index::duplicate_groups(&hits);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].len(), 8);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn captures_inside_the_pattern() {
    let d = dir("captures");
    std::fs::create_dir_all(d.join("g")).unwrap();
    // White's corner stone at aa is captured by Black's ab at move 3; White then plays ca.
    std::fs::write(d.join("g/cap.sgf"), "(;GM[1]SZ[19]RE[B+R];B[ba];W[aa];B[ab];W[ca])").unwrap();
    let (conn, _) = index(&d);
    let r = search(&conn, "OX*/.**/***", kifu_index::Anchor::Corner, false);
    assert_eq!(summary(&r), [("cap.sgf".to_owned(), 2, "B[ab]".to_owned(), false)]);
    // After the capture the corner point is empty again.
    let r = search(&conn, ".X./X../...", kifu_index::Anchor::Corner, false);
    assert_eq!(summary(&r), [("cap.sgf".to_owned(), 3, "W[ca]".to_owned(), false)]);
    // The shape with White still in the corner never has Black at ab.
    assert_eq!(search(&conn, "OX./X../...", kifu_index::Anchor::Corner, false).games, 0);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_command() {
    let d = dir("cli");
    std::fs::create_dir_all(d.join("g")).unwrap();
    std::fs::write(d.join("g/a.sgf"), "(;GM[1]SZ[19]PB[Kato]RE[B+R];B[pd];W[qc];B[qd])").unwrap();
    let (_, db) = index(&d);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["find", "--db"])
        .arg(&db)
        .args(["--pattern", "..../..../..O./...X", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"count\":1,"), "{text}");
    assert!(text.contains("\"position_move\":2,\"next\":\"B[dc]\""), "{text}");
    assert!(text.contains("\"moves\":[{\"move\":\"B[dc]\",\"games\":1,\"black_wins\":1"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["find", "--db"])
        .arg(&db)
        .args(["--pattern", "..../..../..O./...X", "--player", "nobody"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("# 0 games"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["find", "--db"])
        .arg(&db)
        .args(["--pattern", "..Q"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected X, O"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn incremental_runs_equal_a_fresh_build() {
    let d = dir("incremental");
    std::fs::create_dir_all(d.join("g")).unwrap();
    let moves = [(2, 2), (3, 2), (3, 3), (4, 3)];
    std::fs::write(d.join("g/a.sgf"), game(0, &moves, "B+R", false)).unwrap();
    std::fs::write(d.join("g/b.sgf"), game(5, &moves, "W+R", false)).unwrap();
    std::fs::write(d.join("g/c.sgf"), game(0, &[(9, 9)], "B+R", false)).unwrap();
    let (conn, db) = index(&d);
    let diagram = "...../...../..XO./...../.....";
    assert_eq!(search(&conn, diagram, kifu_index::Anchor::Corner, false).games, 2);
    drop(conn);
    // Change one file (another orientation and a longer game), delete one, add one.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(d.join("g/a.sgf"), game(6, &[(2, 2), (3, 2), (2, 3), (15, 3)], "W+R", false)).unwrap();
    std::fs::remove_file(d.join("g/b.sgf")).unwrap();
    std::fs::write(d.join("g/e.sgf"), game(3, &moves, "B+R", false)).unwrap();
    kifu_index::build(&[d.join("g")], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let fresh_db = d.join("fresh.sqlite");
    kifu_index::build(&[d.join("g")], &kifu_index::Options::new(&fresh_db), &mut kifu_index::Silent).unwrap();
    let fresh = kifu_index::open_existing(&fresh_db).unwrap();
    for swap in [false, true] {
        let a = search(&conn, diagram, kifu_index::Anchor::Corner, swap);
        let b = search(&fresh, diagram, kifu_index::Anchor::Corner, swap);
        assert_eq!(summary(&a), summary(&b));
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.scanned, 3);
    }
    let s = summary(&search(&conn, diagram, kifu_index::Anchor::Corner, false));
    assert_eq!(
        s,
        [("a.sgf".to_owned(), 2, "B[cd]".to_owned(), false), ("e.sgf".to_owned(), 2, "B[dd]".to_owned(), false)]
    );
    std::fs::remove_dir_all(&d).unwrap();
}
