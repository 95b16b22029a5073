//! `kifu check` on an input too large to be read whole (over 16 MiB, the streams layer's
//! `WHOLE_LIMIT`): it is checked game by game, holding a game rather than the input, and every
//! finding is the one the same game gives in a small file, at the same line, column and offset
//! of the whole input. The oracle is the small file, checked whole.

use std::path::Path;
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

/// One game with a finding of each source (the format's rules: `PB` twice; the reader: a point
/// off the board; the replay: an occupied point), a long comment, and a stray line after it.
fn unit() -> String {
    let pad = "a comment of some length. ".repeat(300);
    format!("(;GM[1]FF[4]SZ[9]PB[a]PB[b]C[{pad}]\n;B[aa];W[aa]\n;B[zz])\nstray\n")
}

fn check(path: &Path, threads: &str) -> serde_json::Value {
    let out =
        Command::new(KIFU).args(["check", "--json", "--replay", "--threads", threads]).arg(path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A problem as (kind, line, column, offset, message), the message of a junk warning cut to its
/// kind's (the excerpt of junk between games is the input's, which a game cut from a large
/// input does not hold).
type Row = (String, u64, u64, u64, String);

fn rows(v: &serde_json::Value) -> Vec<Row> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let kind = p["kind"].as_str().unwrap().to_owned();
            let mut message = p["message"].as_str().unwrap().to_owned();
            if kind.starts_with("junk_") {
                message.truncate(message.find(": ").unwrap_or(message.len()));
            }
            let n = |k: &str| p[k].as_u64().unwrap();
            (kind, n("line"), n("column"), n("offset"), message)
        })
        .collect()
}

#[test]
fn an_input_over_16_mib_is_checked_game_by_game_where_a_small_one_is_checked_whole() {
    let dir = std::env::temp_dir().join(format!("kifu-check-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let unit = unit();
    let (len, lines) = (unit.len() as u64, unit.matches('\n').count() as u64);
    // The oracle: two games, checked whole.
    let small = dir.join("two.sgf");
    std::fs::write(&small, unit.repeat(2)).unwrap();
    let two = rows(&check(&small, "1"));
    let (first, second): (Vec<Row>, Vec<Row>) = two.into_iter().partition(|r| r.3 < len);
    assert_eq!(first.len(), 5, "{first:?}");
    assert_eq!(second.len(), 5, "{second:?}");
    // The large file: enough games for 17 MiB.
    let n = (17 << 20) / len + 1;
    let large = dir.join("large.sgf");
    std::fs::write(&large, unit.repeat(n as usize)).unwrap();
    let mut expected = first;
    for k in 1..n {
        for r in &second {
            // Junk after a game in the middle of the file is junk between games.
            let kind = if k < n - 1 && r.0 == "junk_after_games" { "junk_between_games" } else { r.0.as_str() };
            let message = if kind == r.0 { r.4.clone() } else { "bytes between games were skipped".to_owned() };
            expected.push((kind.to_owned(), r.1 + (k - 1) * lines, r.2, r.3 + (k - 1) * len, message));
        }
    }
    for threads in ["1", "2"] {
        let v = check(&large, threads);
        assert_eq!(v["games"].as_u64(), Some(n));
        assert_eq!(v["warnings"].as_u64(), Some(5 * n));
        let got = rows(&v);
        assert_eq!(got.len(), expected.len());
        if let Some(i) = (0..got.len()).find(|&i| got[i] != expected[i]) {
            panic!("--threads {threads}: problem {i} is {:?}, expected {:?}", got[i], expected[i]);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
