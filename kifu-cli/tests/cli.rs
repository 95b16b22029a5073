//! The `kifu` tool: `stats` and `events`, run as a user would.

mod common;

use std::process::Command;

fn kifu(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu")).args(args).output().expect("run kifu");
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap_or(-1))
}

/// The value of `"key":` in a flat JSON object (numbers only).
fn field(json: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\":");
    let at = json.find(&pat).unwrap_or_else(|| panic!("{key} missing in {json}")) + pat.len();
    let rest = &json[at..];
    let end = rest.find([',', '}']).unwrap();
    rest[..end].parse().unwrap()
}

fn samples() -> String {
    format!("{}/samples", common::workspace_root().display())
}

#[test]
fn stats_json_on_the_samples() {
    let (out, _, code) = kifu(&["stats", "--json", &format!("{}/collection.sgf", samples())]);
    assert_eq!(code, 0);
    for key in ["files", "skipped", "games", "nodes", "moves", "variations", "warnings", "errors", "bytes", "seconds"] {
        field(&out, key);
    }
    assert_eq!(field(&out, "files"), 1.0);
    assert_eq!(field(&out, "games"), 2.0);
    // 26 moves in the first game; 8 in the second, whose W[tt] and B[] are passes.
    assert_eq!(field(&out, "moves"), 34.0);
    assert_eq!(field(&out, "nodes"), 36.0);
    assert_eq!(field(&out, "variations"), 0.0);
    assert_eq!(field(&out, "warnings"), 1.0); // the mail text before the first game
    assert_eq!(field(&out, "errors"), 0.0);
}

#[test]
fn stats_counts_variations_as_leaves_minus_one() {
    let (out, _, _) = kifu(&["stats", "--json", &format!("{}/problem-with-variations.sgf", samples())]);
    assert_eq!(field(&out, "variations"), 1.0);
    assert_eq!(field(&out, "moves"), 5.0);
}

#[test]
fn stats_counts_jago_sibling_variations() {
    // The main line goes on after a sibling variation: two leaves, one variation (as the same
    // game in JGF, whose variation is a child).
    for f in ["ear-reddening.xml", "ear-reddening.jgf"] {
        let (out, _, _) = kifu(&["stats", "--json", &format!("{}/{f}", samples())]);
        assert_eq!(field(&out, "variations"), 1.0, "{f}");
    }
}

#[test]
fn stats_skips_files_that_are_not_records() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("README.txt"), "not a game record\n").unwrap();
    std::fs::write(dir.join("a.sgf"), "(;B[aa];W[bb])").unwrap();
    std::fs::write(dir.join("broken.sgf"), "(;B[aa];C[never closed").unwrap();
    let (out, _, code) = kifu(&["stats", "--json", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1, "problems in records (the broken game) exit 1; the README is only skipped");
    assert_eq!(field(&out, "files"), 2.0);
    assert_eq!(field(&out, "skipped"), 1.0);
    assert_eq!(field(&out, "games"), 2.0);
    assert_eq!(field(&out, "errors"), 1.0);
}

/// The same counts on the calling thread, two workers and `--threads 0` (one per core, as
/// without the flag).
#[test]
fn stats_on_the_corpus_collections() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    for threads in ["1", "2", "0"] {
        let (out, _, code) = kifu(&["stats", "--json", "--threads", threads, dir.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(field(&out, "files"), 20.0);
        assert_eq!(field(&out, "skipped"), 1.0); // SOURCES.tsv
        assert_eq!(field(&out, "games"), 11_257.0);
        assert_eq!(field(&out, "nodes"), field(&out, "moves") + 11_257.0); // one root node per game
        assert_eq!(field(&out, "errors"), 0.0);
        assert_eq!(field(&out, "warnings"), 0.0);
    }
}

/// One thread reads each input whole from its slice; two cut inputs into games and read them on
/// workers: every count but `bytes` (whole inputs against games' own bytes) and `seconds` is the
/// same, lenient, strict and with `--replay`, on every corpus folder.
#[test]
fn stats_counts_do_not_depend_on_threads() {
    let Some(root) = common::corpus() else { return };
    let mut folders: Vec<_> =
        std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    folders.sort();
    assert!(folders.len() >= 10, "{folders:?}");
    for dir in &folders {
        for flag in [None, Some("--strict"), Some("--replay")] {
            let counts = |threads: &str| {
                let mut args = vec!["stats", "--json", "--threads", threads];
                args.extend(flag);
                args.push(dir.to_str().unwrap());
                let (out, _, code) = kifu(&args);
                let keys = [
                    "files",
                    "skipped",
                    "games",
                    "nodes",
                    "moves",
                    "variations",
                    "warnings",
                    "errors",
                    "illegal_moves",
                ];
                (code, keys.map(|k| if out.contains(&format!("\"{k}\"")) { field(&out, k) } else { -1.0 }))
            };
            assert_eq!(counts("1"), counts("2"), "{} {flag:?}", dir.display());
        }
    }
}

#[test]
fn events_prints_one_json_object_per_line() {
    let (out, _, code) = kifu(&["events", &format!("{}/problem-with-variations.sgf", samples())]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"{"event":"game_start","offset":0}"#);
    assert!(lines.contains(&r#"{"event":"info","key":"black_name","name":"PB","value":"Black to play"}"#));
    assert!(lines.contains(&r#"{"event":"move","color":"B","x":0,"y":1}"#));
    assert!(lines.contains(&r#"{"event":"variation_start","branch":"child"}"#));
    assert!(lines.contains(&r#"{"event":"markup","kind":"label","x":0,"y":1,"label":"A"}"#));
    assert!(lines.contains(&r#"{"event":"setup","color":"W","x":4,"y":0}"#));
    assert!(lines.contains(&r#"{"event":"turn","color":"B"}"#));
    // The escaped bracket and the soft line break are decoded.
    assert!(out.contains(r#"Black to play and live. The soft line break above is removed; ] is an escaped bracket."#));
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            r#"{{"event":"game_end","length":{},"ending":null}}"#,
            std::fs::metadata(format!("{}/problem-with-variations.sgf", samples())).unwrap().len() - 1
        )
    );
    let starts = lines.iter().filter(|l| l.contains("variation_start")).count();
    let ends = lines.iter().filter(|l| l.contains("variation_end")).count();
    assert_eq!((starts, ends), (2, 2));
}

#[test]
fn events_reports_passes_warnings_and_errors() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-ev-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.sgf");
    std::fs::write(&f, "junk\n(;W[];B[tt]C[x)").unwrap();
    let (out, _, code) = kifu(&["events", f.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1, "an error gives exit status 1");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(r#"{"event":"warning","kind":"junk_before_game""#), "{}", lines[0]);
    assert!(lines[0].ends_with(r#""offset":0,"line":1,"column":1}"#));
    assert!(lines.contains(&r#"{"event":"move","color":"W","pass":true}"#));
    assert!(lines.contains(&r#"{"event":"move","color":"B","pass":true}"#));
    let last = lines.last().unwrap();
    assert!(last.starts_with(r#"{"event":"error","kind":"unexpected_eof""#), "{last}");
    assert!(last.ends_with(r#""offset":17,"line":2,"column":13}"#), "{last}");
}

#[test]
fn check_lists_problems_with_positions_and_fails_on_errors() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("good.sgf"), "(;B[aa];W[bb])").unwrap();
    std::fs::write(dir.join("warn.sgf"), "junk\n(;B[aa];W[bb])").unwrap();
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    let (out, _, code) = kifu(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let warn = dir.join("warn.sgf");
    assert!(
        out.contains(&format!(
            "{}:1:1: junk_before_game: bytes before the first game were skipped: junk\n",
            warn.display()
        )),
        "{out}"
    );
    assert!(out.ends_with("2 files (1 skipped), 2 games: 1 warnings, 0 errors\n"), "{out}");

    std::fs::write(dir.join("bad.sgf"), "(;B[aa]\n;C[never closed").unwrap();
    let (out, _, code) = kifu(&["check", "--json", dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(field(&out, "errors"), 1.0);
    assert_eq!(field(&out, "warnings"), 1.0);
    assert!(out.contains(r#""line":2,"column":3,"offset":10,"severity":"error","kind":"unexpected_eof""#), "{out}");
    // Strict mode turns the warning into an error too, under the warning's own kind.
    let (out, _, code) = kifu(&["check", "--strict", "--json", warn.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains(r#""severity":"error","kind":"junk_before_game""#), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tree_prints_one_canonical_line_per_game() {
    let path = format!("{}/collection.sgf", samples());
    let (out, _, code) = kifu(&["tree", "--moves", &path]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("(;B[qd];W[dc];B[pq]"), "{}", lines[0]);
    assert_eq!(lines[1], "(;W[jd];B[jc];W[ic];B[kc];W[id];B[dj];W[];B[])");
    // `@OFFSET` reads only the game there (the second game starts after the mail text and the
    // first game).
    let bytes = std::fs::read(&path).unwrap();
    let second = bytes.windows(3).rposition(|w| w == b"(;G").unwrap();
    let (one, _, code) = kifu(&["tree", "--moves", &format!("{path}@{second}")]);
    assert_eq!(code, 0);
    assert_eq!(one.trim_end(), lines[1]);
    // The full form keeps setup, markup, comments and game info, and reads back to itself.
    let (full, _, _) = kifu(&["tree", &format!("{}/problem-with-variations.sgf", samples())]);
    assert!(
        full.contains("AB[ac][bc][cc][dc][db][da]") && full.contains("LB[ab:A]") && full.contains("TR[ab]"),
        "{full}"
    );
    let dir = std::env::temp_dir().join(format!("kifu-cli-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let again = dir.join("again.sgf");
    std::fs::write(&again, &full).unwrap();
    let (twice, _, _) = kifu(&["tree", again.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(twice, full);
}

#[test]
fn replay_counts_and_reports_illegal_moves() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // W[aa] plays on the stone Black just put there: the offset is its `[`.
    let f = dir.join("illegal.sgf");
    std::fs::write(&f, "(;SZ[9];B[aa];W[aa];B[bb])").unwrap();
    let (out, _, code) = kifu(&["stats", "--json", "--replay", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(field(&out, "illegal_moves"), 1.0);
    let (out, _, code) = kifu(&["check", "--replay", f.to_str().unwrap()]);
    assert_eq!(code, 0, "illegal moves are warnings");
    assert!(out.contains(&format!("{}:1:16: illegal_move: occupied (move 2)", f.display())), "{out}");
    // Without --replay there is no such field.
    let (out, _, _) = kifu(&["stats", "--json", f.to_str().unwrap()]);
    assert!(!out.contains("illegal_moves"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same illegal move (White's first move from 7g, where Black's pawn left) in USI, CSA and
/// KIF: `check --replay` reports one `illegal_move` for it and `stats --replay` counts one in
/// `illegal_moves`. CSA and KIF give the move and the replay finds it illegal; USI names no
/// piece, so its reader cannot give the move and says `illegal_move` itself (once, with or
/// without `--replay`; not `bad_value`).
#[test]
fn an_illegal_shogi_move_is_an_illegal_move_in_every_format() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-illegal-shogi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        ("a.usi", "position startpos moves 7g7f 7g7f\n"),
        ("a.csa", "V2.2\nPI\n+\n+7776FU\n-7776FU\n"),
        ("a.kifu", "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７六歩(77)\n"),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let f = f.to_str().unwrap();
        let (out, _, code) = kifu(&["stats", "--json", "--replay", f]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(field(&out, "illegal_moves"), 1.0, "{name}: {out}");
        for flags in [&["--replay"][..], &["--replay", "--strict"]] {
            let mut args = vec!["check", "--json"];
            args.extend(flags);
            args.push(f);
            let (out, _, _) = kifu(&args);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let kinds: Vec<&str> =
                v["problems"].as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
            assert_eq!(kinds, ["illegal_move"], "{name} {flags:?}: {out}");
        }
    }
    // USI: the reader's own warning, at the move, without --replay too; its message says what
    // the reader left unread after it (since 2026-11-28; before: "(skipped, with the rest of its
    // line)"), with --strict too.
    let usi = dir.join("a.usi");
    let (out, _, code) = kifu(&["check", usi.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let want = format!(
        "{}:1:30: illegal_move: a move that cannot be played in the position (skipped, with nothing after it): 7g7f\n",
        usi.display()
    );
    assert!(out.contains(&want), "{out}");
    std::fs::write(&usi, "position startpos moves 7g7f 7g7f 3c3d 8h2b+ resign\n").unwrap();
    for flags in [&[][..], &["--strict"]] {
        let mut args = vec!["check"];
        args.extend(flags);
        args.push(usi.to_str().unwrap());
        let (out, _, _) = kifu(&args);
        let want = format!(
            "{}:1:30: illegal_move: a move that cannot be played in the position (skipped, and the 2 moves after it \
             and `resign`, not read): 7g7f 3c3d 8h2b+ resign\n",
            usi.display()
        );
        assert!(out.contains(&want), "{flags:?}: {out}");
    }
    let (out, _, _) = kifu(&["events", usi.to_str().unwrap()]);
    let want = r#""kind":"illegal_move","message":"a move that cannot be played in the position (skipped, and the 2 moves after it and `resign`, not read)","offset":29"#;
    assert!(out.contains(want), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KI2 move no piece can make (Black's second ７六歩: the pawn left 7七) is the reader's
/// `no_piece_can_move` warning, and it is the record's one illegal move: `stats --replay` counts
/// it in `illegal_moves`, `check` reports it once (with or without `--replay`, `--strict` making
/// it an error), and the moves after it, read for the side their marks name, are legal (before,
/// `illegal_moves` was 0 and White's ８四歩 was read as Black's and failed in turn).
#[test]
fn a_ki2_move_no_piece_can_make_is_one_illegal_move() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-illegal-ki2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("a.ki2u");
    std::fs::write(&f, "手合割：平手\n▲７六歩    △３四歩    ▲７六歩    △８四歩    ▲２六歩\n").unwrap();
    let f = f.to_str().unwrap();
    let (out, _, code) = kifu(&["stats", "--json", "--replay", f]);
    assert_eq!(code, 0, "{out}");
    assert_eq!((field(&out, "illegal_moves"), field(&out, "warnings"), field(&out, "moves")), (1.0, 1.0, 4.0), "{out}");
    for flags in [&[][..], &["--replay"], &["--replay", "--strict"]] {
        let mut args = vec!["check", "--json"];
        args.extend(flags);
        args.push(f);
        let (out, _, _) = kifu(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let problems = v["problems"].as_array().unwrap();
        let got: Vec<(&str, u64)> =
            problems.iter().map(|p| (p["kind"].as_str().unwrap(), p["column"].as_u64().unwrap())).collect();
        assert_eq!(got, [("no_piece_can_move", 33)], "{flags:?}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KI2 mark naming the side not to move (the second move, `▲２六歩`) is the reader's one
/// `wrong_side` warning: the reader reads the move as Black's and the later moves in the marks'
/// parity, and the replay plays it as Black's too, so `▲２五歩` (the pawn from 2六) is legal.
/// `stats --replay` counts it once in `illegal_moves`; `check` reports it once, with or without
/// `--replay` (before, the reader gave three `no_piece_can_move` and one move).
#[test]
fn a_ki2_wrong_mark_is_one_finding() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-wrong-mark-ki2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("a.ki2u");
    std::fs::write(&f, "手合割：平手\n▲７六歩    ▲２六歩    △３四歩    ▲２五歩\n").unwrap();
    let f = f.to_str().unwrap();
    let (out, _, code) = kifu(&["stats", "--json", "--replay", f]);
    assert_eq!(code, 0, "{out}");
    assert_eq!((field(&out, "illegal_moves"), field(&out, "warnings"), field(&out, "moves")), (1.0, 1.0, 4.0), "{out}");
    for flags in [&[][..], &["--replay"]] {
        let mut args = vec!["check", "--json"];
        args.extend(flags);
        args.push(f);
        let (out, _, _) = kifu(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let problems = v["problems"].as_array().unwrap();
        let got: Vec<(&str, u64)> =
            problems.iter().map(|p| (p["kind"].as_str().unwrap(), p["column"].as_u64().unwrap())).collect();
        assert_eq!(got, [("wrong_side", 17)], "{flags:?}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A CSA move by the side not to move (`+2726FU` right after `+7776FU`) is one finding: CSA's
/// own rules report it as `wrong_side`, with or without `--replay` (`--strict` making it an
/// error), and the replay does not add `illegal_move: wrong_side (move 2)` for it (it did before
/// 2026-11-28); `stats --replay` counts it once in `illegal_moves`. The move is not played and
/// the side to move stays, so `-3334FU` and the second `+2726FU` are legal.
#[test]
fn a_csa_move_by_the_wrong_side_is_one_finding() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-wrong-side-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let problems = |args: &[&str]| -> Vec<(String, u64, u64, String)> {
        let (out, _, _) = kifu(args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let p = v["problems"].as_array().unwrap().iter();
        p.map(|p| {
            let s = |k: &str| p[k].as_str().unwrap().to_owned();
            (s("kind"), p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap(), s("severity"))
        })
        .collect()
    };
    let f = dir.join("w.csa");
    std::fs::write(&f, "V2.2\nPI\n+\n+7776FU\n+2726FU\n-3334FU\n+2726FU\n").unwrap();
    let f = f.to_str().unwrap();
    let (out, _, code) = kifu(&["stats", "--json", "--replay", f]);
    assert_eq!(code, 0, "{out}");
    assert_eq!((field(&out, "illegal_moves"), field(&out, "warnings"), field(&out, "moves")), (1.0, 0.0, 4.0), "{out}");
    for (flags, severity) in [(&[][..], "warning"), (&["--replay"], "warning"), (&["--replay", "--strict"], "error")] {
        let mut args = vec!["check", "--json"];
        args.extend(flags);
        args.push(f);
        let want = [("wrong_side".to_owned(), 5, 1, severity.to_owned())];
        assert_eq!(problems(&args), want, "{flags:?}");
    }
    let (out, _, code) = kifu(&["check", "--replay", f]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        format!(
            "{f}:5:1: wrong_side: a move by the side not to move: +2726FU\n       1 wrong_side (warning)\n\
             1 files (0 skipped), 1 games: 1 warnings, 0 errors\n"
        )
    );
    // Statements on one line, and a second game: one finding per move.
    let f = dir.join("c.csa");
    std::fs::write(&f, "V2.2\nPI\n+\n+7776FU,T1,+2726FU,T2\n-3334FU,-8384FU\n+2726FU\n/\nPI\n-\n+7776FU\n").unwrap();
    let f = f.to_str().unwrap();
    let (out, _, _) = kifu(&["stats", "--json", "--replay", f]);
    assert_eq!(field(&out, "illegal_moves"), 3.0, "{out}");
    let w = |line, column| ("wrong_side".to_owned(), line, column, "warning".to_owned());
    assert_eq!(problems(&["check", "--json", "--replay", f]), [w(4, 12), w(5, 9), w(10, 1)]);
    // A side-to-move line after a move is skipped by the reader, but CSA's rules take it as
    // written and find no wrong side: the replay's finding is then the move's one report.
    let f = dir.join("t.csa");
    std::fs::write(&f, "V2.2\nPI\n+\n+7776FU\n+\n+2726FU\n").unwrap();
    let f = f.to_str().unwrap();
    let (out, _, _) = kifu(&["check", "--replay", f]);
    assert!(out.contains(&format!("{f}:6:1: illegal_move: wrong_side (move 2)\n")), "{out}");
    assert!(!out.contains("wrong_side:"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A move after a special move that ended the game is one finding, `move_after_end`, in every
/// shogi format: before 2026-11-29 CSA said it twice (the reader's `repaired` and the rule
/// check's `move_after_end`), and not at all after `%MATTA`, which the reader ends the game at;
/// KIF, KI2 and USI said `repaired`, JKF `repaired` for a move it reads.
#[test]
fn a_move_after_the_end_is_one_finding() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-after-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jkf_move = r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}}"#;
    let cases = [
        ("toryo.csa", "V2.2\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n+2726FU\n".to_owned(), vec![(6, 1), (7, 1)]),
        ("matta.csa", "V2.2\nPI\n+\n+7776FU\n%MATTA\n-3334FU\n".to_owned(), vec![(6, 1)]),
        ("a.kif", "手合割：平手\n   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n".to_owned(), vec![(4, 1)]),
        ("a.ki2", "手合割：平手\n▲７六歩    △投了    ▲２六歩\n".to_owned(), vec![(2, 30)]),
        ("a.usi", "position startpos moves 7g7f resign 3c3d\n".to_owned(), vec![(1, 37)]),
        (
            "a.jkf",
            format!(
                r#"{{"header":{{}},"moves":[{{}},{{"move":{{"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"color":0,"piece":"FU"}}}},{{"special":"TORYO"}},{jkf_move}]}}"#
            ),
            vec![(1, 120)],
        ),
    ];
    for (name, text, at) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let f = f.to_str().unwrap();
        let (out, _, code) = kifu(&["check", "--json", f]);
        assert_eq!(code, 0, "{name}: {out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let found: Vec<(String, u64, u64)> = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (p["kind"].as_str().unwrap().to_owned(), p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap())
            })
            .collect();
        let want: Vec<_> = at.iter().map(|&(l, c)| ("move_after_end".to_owned(), l, c)).collect();
        assert_eq!(found, want, "{name}");
        let (out, _, _) = kifu(&["check", f]);
        assert!(out.contains(": move_after_end: a move after the game ended: "), "{name}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shogi move that does not read is one finding, `unreadable_move`, and its turn passes in the
/// reading, in the side-to-move check and in `--replay`: no `wrong_side` or `illegal_move` for
/// the move after it (before 2026-11-29 KI2 said `wrong_side` there, KIF read the moves after it
/// for the wrong side, or ended the game at it, and `--replay` found illegal moves).
#[test]
fn a_move_that_does_not_read_is_one_finding() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-unreadable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("a.kif", "手合割：平手\n   1 ７六歩(77)\n   2 ３x歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n", (3, 9)),
        ("a.ki2", "手合割：平手\n▲７六歩    △３x歩    ▲２六歩    △８四歩\n", (2, 23)),
        ("a.csa", "V2.2\nPI\n+\n+7776FU\n-33x4FU\n+2726FU\n-8384FU\n", (5, 1)),
    ];
    for (name, text, (line, column)) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let f = f.to_str().unwrap();
        for replay in [false, true] {
            let mut args = vec!["check", "--json"];
            if replay {
                args.push("--replay");
            }
            args.push(f);
            let (out, _, code) = kifu(&args);
            assert_eq!(code, 0, "{name}: {out}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let found: Vec<(&str, u64, u64)> = v["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p["kind"].as_str().unwrap(), p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap()))
                .collect();
            assert_eq!(found, [("unreadable_move", line, column)], "{name} replay {replay}");
        }
        let (out, _, _) = kifu(&["stats", "--json", "--replay", f]);
        assert_eq!(
            (field(&out, "illegal_moves"), field(&out, "moves"), field(&out, "warnings")),
            (0.0, 3.0, 1.0),
            "{name}"
        );
    }
    // The index passes the turn too (and at a KI2 move no piece can make): the position after
    // ▲７六歩, the skipped move and ▲２六歩 is found in every game, with White to move (before
    // 2026-11-29 the index left ▲２六歩 unplayed, as a move by the side not to move).
    std::fs::write(dir.join("none.ki2"), "手合割：平手\n▲７六歩    △５五飛    ▲２六歩    △８四歩\n").unwrap();
    let db = dir.join("i.sqlite");
    let (out, err, code) = kifu(&["index", "--db", db.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 1";
    let (out, _, code) = kifu(&["find", "--db", db.to_str().unwrap(), "--position", sfen, "--format", "csv"]);
    assert_eq!(code, 0, "{out}");
    let mut found: Vec<&str> =
        out.lines().skip(1).filter_map(|l| l.split(',').next()).filter_map(|p| p.rsplit('/').next()).collect();
    found.sort();
    assert_eq!(found, ["a.csa", "a.ki2", "a.kif", "none.ki2"], "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A USI file whose first line goes wrong after its start (a bad move) is read, with the
/// reader's warning, as when that line comes second: not "not a game record" (exit 2).
#[test]
fn a_usi_file_with_a_bad_first_line_is_read() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-usi-first-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (first, second) = (dir.join("first.usi"), dir.join("second.usi"));
    std::fs::write(&first, "position startpos moves 7g7f 7g7x\nposition startpos moves 2g2f\n").unwrap();
    std::fs::write(&second, "position startpos moves 2g2f\nposition startpos moves 7g7f 7g7x\n").unwrap();
    for f in [&first, &second] {
        let (out, err, code) = kifu(&["stats", "--json", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {err}", f.display());
        assert_eq!((field(&out, "files"), field(&out, "skipped")), (1.0, 0.0), "{out}");
        assert_eq!((field(&out, "games"), field(&out, "moves")), (2.0, 2.0), "{out}");
        assert_eq!((field(&out, "warnings"), field(&out, "errors")), (1.0, 0.0), "{out}");
        let (out, _, code) = kifu(&["check", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("bad_value: a value of the wrong form: 7g7x"), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_reads_compressed_files_and_stdin() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("kifu-cli-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("games.sgf.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(b"junk (;B[aa];W[bb])").unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let (out, _, code) = kifu(&["check", gz.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains(":1:1: junk_before_game:"), "{out}");
    assert!(out.ends_with("1 files (0 skipped), 1 games: 1 warnings, 0 errors\n"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"(;B[aa];W[bb])").unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(out, "1 files (0 skipped), 1 games: 0 warnings, 0 errors\n");
}

/// The main line follows the first variation even when it has no move: `tree --moves` keeps it
/// as `(;)`, and `show` prints the main line without the second variation's move.
#[test]
fn an_empty_first_variation_stays_the_main_line() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-empty-var-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("e.sgf");
    std::fs::write(&f, "(;GM[1]SZ[19];B[aa];W[ff](;N[main])(;B[fg]))").unwrap();
    let (moves, _, code) = kifu(&["tree", "--moves", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(moves.trim(), "(;B[aa];W[ff](;)(;B[fg]))");
    let (show, _, _) = kifu(&["show", "--json", &format!("{}@0", f.display())]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(show.contains(r#""main_line":"(;B[aa];W[ff])""#), "{show}");
}

/// A Shift_JIS KIF file: `events` gives its keys' names and `check` its excerpts decoded from
/// Shift_JIS (both were shown as UTF-8, garbled).
#[test]
fn shift_jis_names_and_excerpts_are_decoded() {
    let dir = std::env::temp_dir().join(format!("kifu-cli-sjis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sjis.kif");
    std::fs::write(&path, b"\x8aJ\x8en\x93\xfa\x8e\x9e\x81F2014/10/22 15:23:19\x0a\x8e\xe8\x8d\x87\x8a\x84\x81F\x95\xbd\x8e\xe8\x0a\x8e\xe8\x90\x94----\x8ew\x8e\xe8---------\x8f\xc1\x94\xef\x8e\x9e\x8a\xd4--\x0a   1 \x82V\x98Z\x95\xe0(77)\x0a   2 \x82R\x8el\x82w(33)\x0a").unwrap();
    let p = path.to_str().unwrap();
    let (out, _, _) = kifu(&["events", p]);
    assert!(out.contains("\"name\":\"開始日時\""), "{out}");
    let (out, _, _) = kifu(&["check", p]);
    // `３四Ｘ`: a move that does not read (an unknown special move, `unknown_key`, before
    // 2026-11-29), quoted from its first byte that does not read.
    assert!(out.contains("unreadable_move") && out.contains(": Ｘ(33)"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
