//! Special files: a FIFO inside a directory is left out of the walk (the run finishes), and a
//! FIFO named on the command line is read as a stream, by every subcommand that reads files.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-special-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Runs kifu with a deadline: a run that hangs fails the test instead of hanging it.
fn kifu_within(args: &[&str], seconds: u64) -> (i32, String) {
    let mut child = Command::new(KIFU).args(args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
            return (status.code().unwrap_or(-1), out);
        }
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("kifu {args:?} still running after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_fifo_in_a_directory_is_left_out() {
    let d = temp("dir");
    std::fs::copy(common::workspace_root().join("samples/collection.sgf"), d.join("games.sgf")).unwrap();
    mkfifo(&d.join("pipe.sgf"));
    let dir = d.to_str().unwrap();
    let (code, out) = kifu_within(&["stats", "--json", dir], 20);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"files\":1") && out.contains("\"games\":2"), "{out}");
    // Counted with the skipped files.
    assert!(out.contains("\"skipped\":1"), "{out}");
    let (code, out) = kifu_within(&["check", dir], 20);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("1 files (1 skipped), 2 games: 1 warnings, 0 errors\n"), "{out}");
    // And named with -v, on standard error.
    for sub in ["stats", "check"] {
        let out = Command::new(KIFU).args([sub, "-v", dir]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("skipped {}: not a regular file", d.join("pipe.sgf").display())), "{sub}: {err}");
    }
    let db = d.join("i.sqlite");
    let (code, out) = kifu_within(&["index", "--json", "--db", db.to_str().unwrap(), dir], 20);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"games\":2"), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_fifo_as_an_argument_is_read_as_a_stream() {
    let sample = std::fs::read(common::workspace_root().join("samples/collection.sgf")).unwrap();
    for cmd in ["stats", "check", "events", "tree", "show"] {
        let d = temp(cmd);
        let fifo = d.join("in.sgf");
        mkfifo(&fifo);
        let (path, bytes) = (fifo.clone(), sample.clone());
        // The writer blocks until kifu opens the FIFO for reading.
        let writer = std::thread::spawn(move || std::fs::write(path, bytes));
        let (code, out) = kifu_within(&[cmd, fifo.to_str().unwrap()], 20);
        writer.join().unwrap().unwrap();
        assert_eq!(code, 0, "{cmd}: {out}");
        assert!(!out.is_empty(), "{cmd}");
        if cmd == "stats" {
            assert!(out.contains("games 2"), "{out}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
