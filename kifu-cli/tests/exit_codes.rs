//! The exit-code rule of every subcommand (0 clean, 1 problems in records, 2 a usage or I/O
//! problem with an argument), `PATH@OFFSET` errors, and closed pipes, run on the binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn samples() -> PathBuf {
    common::workspace_root().join("samples")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-exit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs kifu; returns (exit code, stdout, stderr).
fn kifu<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(KIFU).args(args).output().unwrap();
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().expect("exited, not killed"), s(&out.stdout), s(&out.stderr))
}

fn p(path: &Path) -> String {
    path.to_str().unwrap().to_owned()
}

#[test]
fn clean_records_exit_0() {
    let sgf = p(&samples().join("collection.sgf"));
    let db = temp("clean").join("i.sqlite");
    for args in [
        vec!["stats".to_owned(), sgf.clone()],
        vec!["tree".to_owned(), sgf.clone()],
        vec!["show".to_owned(), format!("{sgf}@65")],
        vec!["index".to_owned(), "--db".to_owned(), p(&db), p(&samples())],
        vec!["find".to_owned(), "--db".to_owned(), p(&db), "--result".to_owned(), "b".to_owned()],
    ] {
        let (code, _, err) = kifu(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
}

#[test]
fn problems_in_records_exit_1_and_strict_counts_warnings() {
    let d = temp("problems");
    let broken = d.join("broken.sgf");
    std::fs::write(&broken, "(;GM[1]SZ[19];B[pd];W[").unwrap();
    for cmd in ["stats", "check", "tree", "events"] {
        let (code, _, err) = kifu(&[cmd, &p(&broken)]);
        assert_eq!(code, 1, "{cmd}: {err}");
    }
    // A warning alone is clean, and a problem with --strict.
    let warned = d.join("warned.sgf");
    std::fs::write(&warned, "junk before (;GM[1];B[pd])").unwrap();
    assert_eq!(kifu(&["stats", &p(&warned)]).0, 0);
    assert_eq!(kifu(&["stats", "--strict", &p(&warned)]).0, 1);
    assert_eq!(kifu(&["check", "--strict", &p(&warned)]).0, 1);
}

#[test]
fn argument_problems_exit_2_and_create_nothing() {
    let d = temp("usage");
    let db = d.join("new.sqlite");
    let (code, _, err) = kifu(&["index", "--db", &p(&db), "/nonexistent/kifu.sgf"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/kifu.sgf"), "{err}");
    assert!(!db.exists(), "a usage error created the index");
    for cmd in ["stats", "check", "tree", "events", "show"] {
        let (code, out, err) = kifu(&[cmd, "/nonexistent/kifu.sgf"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        // `check` lists it with the problems it found, on standard output.
        assert!(err.contains("/nonexistent/kifu.sgf") || out.contains("/nonexistent/kifu.sgf"), "{cmd}: {err}");
    }
    // A file named on the command line that is not a game record (a JPEG's first bytes).
    let photo = d.join("photo.sgf");
    std::fs::write(&photo, b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00").unwrap();
    for cmd in ["stats", "check", "events"] {
        assert_eq!(kifu(&[cmd, &p(&photo)]).0, 2, "{cmd}");
    }
    // …while in a directory it is only skipped.
    std::fs::copy(samples().join("collection.sgf"), d.join("games.sgf")).unwrap();
    let (code, out, _) = kifu(&["stats", "--json", &p(&d)]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"skipped\":1"), "{out}");
    // A missing index.
    assert_eq!(kifu(&["find", "--db", &p(&d.join("none.sqlite"))]).0, 2);
    assert_eq!(kifu(&["find", "--db", &p(&db), "--from", "2005/03"]).0, 2);
}

#[test]
fn offsets_are_checked_with_distinct_messages() {
    let sgf = p(&samples().join("collection.sgf"));
    let cases: [(String, &str); 6] = [
        (format!("{sgf}@66"), "no game starts at byte 66; the nearest game starts are at bytes 65 and 329"),
        (format!("{sgf}@abc"), "bad offset `abc`"),
        (format!("{sgf}@-5"), "bad offset `-5`"),
        (format!("{sgf}@999999"), "offset past the end of the input"),
        (p(&samples()), "is a directory"),
        ("/nonexistent/a.sgf@5".to_owned(), "no such file"),
    ];
    for cmd in ["show", "tree"] {
        for (arg, message) in &cases {
            let (code, out, err) = kifu(&[cmd, arg]);
            assert_eq!(code, 2, "{cmd} {arg}: {out}");
            assert!(err.contains(message), "{cmd} {arg}: {err}");
        }
    }
    // A real game start reads that game, not the next one.
    let (code, out, _) = kifu(&["tree", "--moves", &format!("{sgf}@329")]);
    let (_, all, _) = kifu(&["tree", "--moves", &sgf]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), all.lines().nth(1).unwrap());
}

/// Every subcommand with its standard output closed before it writes: it ends without a panic.
#[test]
fn closed_pipes_end_quietly() {
    let d = temp("pipes");
    let db = d.join("i.sqlite");
    assert_eq!(kifu(&["index", "--db", &p(&db), &p(&samples())]).0, 0);
    let sgf = p(&samples().join("collection.sgf"));
    let dbs = p(&db);
    let runs: Vec<Vec<&str>> = vec![
        vec!["stats", &sgf],
        vec!["check", &sgf],
        vec!["tree", &sgf],
        vec!["events", &sgf],
        vec!["show", &sgf],
        vec!["find", "--db", &dbs],
        vec!["index", "--db", &dbs, &sgf],
    ];
    for args in runs {
        let mut child = Command::new(KIFU).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take()); // like `| head -0`: the reader has gone
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.status.code().is_some_and(|c| c <= 2), "{args:?}: {:?}", out.status);
    }
}

/// UTF-16 without a byte-order mark (recognised by the NUL pattern of its ASCII) is read alike
/// by stats, check and index.
#[test]
fn utf16_without_a_bom_is_read_by_every_command() {
    let d = temp("utf16");
    let path = d.join("u16.sgf");
    let bytes: Vec<u8> = "(;GM[1]PB[Lee Sedol];B[pd];W[dp])".encode_utf16().flat_map(u16::to_le_bytes).collect();
    std::fs::write(&path, bytes).unwrap();
    let (code, out, _) = kifu(&["stats", "--json", &p(&path)]);
    assert_eq!(code, 0);
    assert!(out.contains("\"games\":1") && out.contains("\"moves\":2"), "{out}");
    let (code, out, _) = kifu(&["check", &p(&path)]);
    assert_eq!(code, 0);
    assert!(out.contains("1 games: 0 warnings, 0 errors"), "{out}");
    let db = d.join("i.sqlite");
    let (code, out, _) = kifu(&["index", "--json", "--db", &p(&db), &p(&path)]);
    assert_eq!(code, 0);
    assert!(out.contains("\"games\":1"), "{out}");
}

/// `index` and `export` make a file named on the command line that is not a game record a
/// usage problem (exit 2), as `stats` does; `export` then leaves no output behind. A file named
/// and reached again through its folder is indexed once.
#[test]
fn index_and_export_name_a_non_record() {
    let d = temp("named");
    let text = d.join("notes.txt");
    std::fs::write(&text, "not a game record\n").unwrap();
    let game = d.join("game.sgf");
    std::fs::copy(samples().join("ear-reddening.sgf"), &game).unwrap();
    let db = d.join("i.sqlite");
    let (code, _, err) = kifu(&["index", "--db", &p(&db), &p(&game), &p(&text)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("notes.txt: not a game record"), "{err}");
    // Unchanged on the next run, and still named.
    assert_eq!(kifu(&["index", "--db", &p(&db), &p(&text)]).0, 2);
    // In a folder it is only counted; the file named and in the folder is one row.
    let db2 = d.join("j.sqlite");
    let (code, out, err) = kifu(&["index", "--json", "--db", &p(&db2), &p(&game), &p(&d)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"games\":1"), "{out}");
    // export: exit 2 and no output.
    let arrow = d.join("out.arrow");
    let (code, _, err) = kifu(&["export", "--arrow-ipc", &p(&arrow), &p(&game), &p(&text)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("notes.txt: not a game record"), "{err}");
    assert!(!arrow.exists());
    let pq = d.join("pq");
    let (code, _, err) = kifu(&["export", "--parquet", &p(&pq), &p(&game), &p(&text)]);
    assert_eq!(code, 2, "{err}");
    assert!(!pq.exists());
}

/// `export --arrow-ipc FILE` does not overwrite FILE without `--force`, and never when FILE is
/// one of its inputs.
#[test]
fn export_keeps_existing_files() {
    let d = temp("export-force");
    let game = d.join("game.sgf");
    std::fs::copy(samples().join("ear-reddening.sgf"), &game).unwrap();
    let before = std::fs::read(&game).unwrap();
    let arrow = d.join("out.arrow");
    std::fs::write(&arrow, "precious").unwrap();
    let (code, _, err) = kifu(&["export", "--arrow-ipc", &p(&arrow), &p(&game)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    assert_eq!(std::fs::read(&arrow).unwrap(), b"precious");
    assert_eq!(kifu(&["export", "--force", "--arrow-ipc", &p(&arrow), &p(&game)]).0, 0);
    assert!(std::fs::read(&arrow).unwrap().starts_with(b"ARROW1"));
    for force in [false, true] {
        let mut args = vec!["export".to_owned(), "--arrow-ipc".to_owned(), p(&game), p(&game)];
        if force {
            args.push("--force".to_owned());
        }
        let (code, _, err) = kifu(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("the output is also an input"), "{err}");
        assert_eq!(std::fs::read(&game).unwrap(), before);
    }
}

/// A compressed input that cannot be read to its end (here cut short) is an I/O problem: named
/// on the command line, exit 2 for `stats` and `check` alike (`check` said 1 before
/// 2026-11-29); found in a folder, an error of the run (exit 1). `check` lists it as an `io`
/// error.
#[test]
fn a_compressed_input_cut_short_is_an_io_problem() {
    use std::io::Write;
    let d = temp("cut-gz");
    let sgf = "(;GM[1]SZ[19]PB[a]PB[b];B[pd];W[dp])\n".repeat(2000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(sgf.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let path = d.join("games.sgf.gz");
    std::fs::write(&path, &gz[..gz.len() * 2 / 3]).unwrap();
    for cmd in ["stats", "check"] {
        let (code, _, err) = kifu(&[cmd, &p(&path)]);
        assert_eq!(code, 2, "{cmd} named: {err}");
        let (code, _, err) = kifu(&[cmd, &p(&d)]);
        assert_eq!(code, 1, "{cmd} in a folder: {err}");
    }
    let (_, out, _) = kifu(&["check", "--json", &p(&path)]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let last = v["problems"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["kind"].as_str(), last["severity"].as_str()), (Some("io"), Some("error")), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}
