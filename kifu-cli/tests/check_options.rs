//! `kifu check --select/--ignore KIND` and the summary by kind.

use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn check(args: &[&str], text: &str) -> (i32, serde_json::Value) {
    // One folder a call: tests run at once, and two may check with the same flags.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kifu-check-options-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.sgf");
    std::fs::write(&path, text).unwrap();
    let mut all = vec!["check", "--json", "--replay"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let out = Command::new(KIFU).args(&all).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (out.status.code().unwrap(), serde_json::from_slice(&out.stdout).unwrap())
}

/// Junk before the game (a warning), two illegal moves, and a game cut short (an error).
const GAME: &str = "junk (;GM[1]SZ[9];B[aa];W[aa];B[bb];W[bb];C[cut";

fn kinds(v: &serde_json::Value) -> Vec<(String, u64)> {
    v["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["kind"].as_str().unwrap().to_owned(), k["count"].as_u64().unwrap()))
        .collect()
}

#[test]
fn summary_by_kind_most_frequent_first() {
    let (code, v) = check(&[], GAME);
    assert_eq!(code, 1);
    let k = kinds(&v);
    assert_eq!(k[0], ("illegal_move".to_owned(), 2));
    assert_eq!(k.len(), 3, "{k:?}");
    assert_eq!(k.iter().map(|(_, n)| n).sum::<u64>(), v["problems"].as_array().unwrap().len() as u64);
}

#[test]
fn select_and_ignore_filter_kinds_and_the_exit_status() {
    let (code, v) = check(&["--select", "illegal_move"], GAME);
    assert_eq!((code, kinds(&v)), (0, vec![("illegal_move".to_owned(), 2)]));
    assert_eq!((v["warnings"].as_u64(), v["errors"].as_u64()), (Some(2), Some(0)));
    let (code, v) = check(&["--ignore", "illegal_move,junk_before_game"], GAME);
    assert_eq!(code, 1, "the error stays");
    assert_eq!(v["warnings"].as_u64(), Some(0));
    let (code, _) = check(&["--strict", "--select", "junk_before_game"], "junk (;GM[1];B[aa])");
    assert_eq!(code, 1, "a selected warning under --strict is a problem");
    let (code, _) = check(&["--strict", "--ignore", "junk_before_game"], "junk (;GM[1];B[aa])");
    assert_eq!(code, 0, "an ignored one is not");
}

/// A kind that no problem has (a typo) is a usage error naming it, not a clean run that hides
/// every problem.
#[test]
fn unknown_kinds_are_refused() {
    for flag in ["--select", "--ignore"] {
        let out = Command::new(KIFU).args(["check", flag, "illegal_move,bogus_kind", "-"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("unknown kind `bogus_kind`") && err.contains("junk_before_game"), "{err}");
    }
    // Every kind the summary names is accepted.
    let (_, v) = check(&[], GAME);
    for (kind, _) in kinds(&v) {
        let (code, _) = check(&["--select", &kind], GAME);
        assert_ne!(code, 2, "{kind}");
    }
}

/// A warning made an error by `--strict` reads as the warning did: its kind, its message and the
/// input where it stands.
#[test]
fn strict_errors_quote_the_input_as_warnings_do() {
    let text = "(;GM[1]SZ[19];B[pd];W[zz])";
    let (_, lenient) = check(&[], text);
    let (code, strict) = check(&["--strict"], text);
    assert_eq!(code, 1);
    // The off-board point's warning (the lenient run's `--replay` also finds the move illegal,
    // at the move, before it).
    let first = |v: &serde_json::Value| {
        let p = v["problems"].as_array().unwrap().iter().find(|p| p["kind"] != "illegal_move").unwrap();
        (p["kind"].as_str().unwrap().to_owned(), p["message"].as_str().unwrap().to_owned(), p["severity"].clone())
    };
    let (kind, message, severity) = first(&strict);
    assert_eq!(kind, "point_off_board");
    assert_eq!(severity, "error");
    assert!(message.ends_with(": W[zz]"), "{message}");
    assert_eq!((kind, message), {
        let (k, m, _) = first(&lenient);
        (k, m)
    });
}

/// A check whose lines pass a megabyte (written as the files are read, not held) gives every
/// line, the text and the JSON the same problems, in the same order, with `--select` applied.
#[test]
fn a_long_report_is_written_whole() {
    let dir = std::env::temp_dir().join(format!("kifu-check-long-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // 40 files of 250 games, each game with a bad komi and a point off the board.
    for f in 0..40 {
        let games: String =
            (0..250).map(|i| format!("(;GM[1]FF[4]SZ[19]PB[player {f}-{i}]KM[abc];B[pd];W[zz])\n")).collect();
        std::fs::write(dir.join(format!("{f:02}.sgf")), games).unwrap();
    }
    let run = |args: &[&str]| {
        let out = Command::new(KIFU).arg("check").args(args).arg(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[]);
    assert!(text.len() > 1 << 20, "{} bytes", text.len());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20_000 + 2 + 1);
    assert_eq!(lines[lines.len() - 1], "40 files (0 skipped), 10000 games: 20000 warnings, 0 errors");
    let json: serde_json::Value = serde_json::from_str(&run(&["--json"])).unwrap();
    let problems = json["problems"].as_array().unwrap();
    assert_eq!((json["warnings"].as_u64(), problems.len()), (Some(20_000), 20_000));
    for (line, p) in lines.iter().zip(problems) {
        let at =
            format!("{}:{}:{}: {}: ", p["path"].as_str().unwrap(), p["line"], p["column"], p["kind"].as_str().unwrap());
        assert!(line.starts_with(&at), "{line} / {at}");
    }
    let selected = run(&["--select", "bad_komi"]);
    assert_eq!(selected.lines().filter(|l| l.contains(": bad_komi: ")).count(), 10_000);
    assert!(selected.ends_with("10000 games: 10000 warnings, 0 errors\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
