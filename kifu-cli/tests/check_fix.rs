//! `kifu check --fix -o OUT`: repaired SGF written through the SGF writer, each repair listed,
//! nothing overwritten without `--force`, nothing created on a usage error.

use std::path::PathBuf;
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-check-fix-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kifu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(KIFU).args(args).output().unwrap();
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), s(&out.stdout), s(&out.stderr))
}

/// Two moves in a node, two comments in a node, and a second move in another.
const BROKEN: &str = "(;FF[4]GM[1]SZ[19];B[aa]W[ab];C[one]C[two];B[cc]B[dd])";

#[test]
fn one_file_is_repaired_into_one_file() {
    let d = temp("one");
    let (input, output) = (d.join("in.sgf"), d.join("out.sgf"));
    std::fs::write(&input, BROKEN).unwrap();
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    let (code, out, err) = kifu(&["check", "--fix", "-o", o, i]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("repair move_split: W[ab]"), "{out}");
    assert!(out.contains("repair comment_joined: C[two]"), "{out}");
    assert!(out.contains("1 files written with 3 repairs\n"), "{out}");
    let fixed = std::fs::read_to_string(&output).unwrap();
    assert_eq!(fixed, "(;FF[4]GM[1]CA[UTF-8]SZ[19];B[aa];W[ab];C[one\n\ntwo];B[cc];B[dd])\n");
    // The output checks clean of what was repaired.
    let (code, out, _) = kifu(&["check", o]);
    assert_eq!(code, 0);
    assert!(out.ends_with("1 games: 0 warnings, 0 errors\n"), "{out}");

    // Never overwritten without --force (exit 2, the file unchanged); with it, written again.
    std::fs::write(&output, "keep").unwrap();
    let (code, _, err) = kifu(&["check", "--fix", "-o", o, i]);
    assert_eq!(code, 2);
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "keep");
    let (code, _, _) = kifu(&["check", "--fix", "--force", "-o", o, i]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&output).unwrap(), fixed);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn usage_errors_create_nothing() {
    let d = temp("usage");
    let input = d.join("in.sgf");
    std::fs::write(&input, BROKEN).unwrap();
    // --fix needs -o; -o needs --fix.
    assert_eq!(kifu(&["check", "--fix", input.to_str().unwrap()]).0, 2);
    assert_eq!(kifu(&["check", "-o", d.join("x").to_str().unwrap(), input.to_str().unwrap()]).0, 2);
    // Several inputs need a directory, not a file.
    let file = d.join("file.sgf");
    std::fs::write(&file, "x").unwrap();
    let (code, _, err) = kifu(&["check", "--fix", "-o", file.to_str().unwrap(), d.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_directory_is_repaired_into_a_directory_and_shogi_is_refused() {
    let d = temp("dir");
    let (src, out_dir) = (d.join("src"), d.join("out"));
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::write(src.join("sub/a.sgf"), BROKEN).unwrap();
    std::fs::write(src.join("b.jgf"), std::fs::read(common_sample("ear-reddening.jgf")).unwrap()).unwrap();
    std::fs::write(src.join("c.csa"), "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
    let (code, out, err) = kifu(&["check", "--json", "--fix", "-o", out_dir.to_str().unwrap(), src.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["fixed"], 2);
    assert_eq!(v["repairs"].as_array().unwrap().len(), 3);
    assert_eq!(v["repairs"][0]["kind"], "move_split");
    assert_eq!(v["repairs"][0]["property"], "W");
    assert_eq!(v["refused"][0]["message"].as_str().unwrap().split(':').next(), Some("shogi_not_sgf"));
    // Written at their paths under the folder, `.sgf` added to other extensions.
    assert!(out_dir.join("sub/a.sgf").is_file());
    assert!(out_dir.join("b.jgf.sgf").is_file());
    assert!(!out_dir.join("c.csa.sgf").exists());
    // Every file written reads back clean of the node rules.
    let (_, out, _) = kifu(&["check", "--json", out_dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for p in v["problems"].as_array().unwrap() {
        let kind = p["kind"].as_str().unwrap();
        assert!(!matches!(kind, "two_moves" | "duplicate_property" | "move_and_setup"), "{p}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn common_sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples").join(name)
}

/// Inputs are checked on worker threads but their repaired records are written one input after
/// another, in input order: a file named twice (here in its folder and by its path) is checked
/// twice, counted as two files, and its second output is refused as existing, whatever the
/// number of threads.
#[test]
fn an_input_named_twice_is_written_once() {
    let d = temp("twice");
    let dir = d.join("in");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.sgf"), BROKEN).unwrap();
    let a = dir.join("a.sgf");
    for threads in ["1", "2"] {
        let out = d.join(format!("out{threads}"));
        let (i, f, o) = (dir.to_str().unwrap(), a.to_str().unwrap(), out.to_str().unwrap());
        let (code, stdout, err) = kifu(&["check", "--threads", threads, "--fix", "-o", o, i, f]);
        assert_eq!(code, 2, "{stdout}{err}");
        assert_eq!(err.matches("exists (use --force to overwrite)").count(), 1, "{err}");
        // (The repairs of both readings are listed, as before.)
        assert!(stdout.contains("1 files written with 6 repairs\n"), "{stdout}");
        assert!(stdout.ends_with("2 files (0 skipped), 2 games: 6 warnings, 0 errors\n"), "{stdout}");
        assert!(out.join("a.sgf").exists());
    }
    std::fs::remove_dir_all(&d).unwrap();
}
