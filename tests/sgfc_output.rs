//! SGFC, the reference SGF checker, on kifu's SGF: for every corpus SGF file that SGFC reads
//! without an error, SGFC finds no error in what `kifu::tree::Writer::sgf` writes for it; and
//! for every game of converted/ (JGF v2, JGF v1, GoGui XML) whose SGF source SGFC reads without
//! an error, none in what we write for the converted file.
//!
//! SGFC is built once from ../shared/tools/sgfc (its `build.sh` prints the binary's path) into
//! a folder of this target directory. When it cannot be built the test is skipped with the
//! reason, except under `CI=true`, where that is a failure.

mod common;

use bumpalo::Bump;
use kifu::tree::{Builder, Writer};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The SGFC binary, built on first use; `None` (after printing why) when it cannot be.
fn sgfc() -> Option<&'static Path> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        let script = common::workspace_root().join("../shared/tools/sgfc/build.sh");
        let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfc-build");
        let why = match Command::new("bash").arg(&script).arg(&out_dir).output() {
            Ok(o) if o.status.success() => {
                let path = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
                if path.is_file() {
                    return Some(path);
                }
                format!("{} printed no binary: {}", script.display(), String::from_utf8_lossy(&o.stderr))
            }
            Ok(o) => format!("{} failed: {}", script.display(), String::from_utf8_lossy(&o.stderr)),
            Err(e) => format!("cannot run {}: {e}", script.display()),
        };
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but SGFC cannot be built: {why}");
        }
        eprintln!("skipped: SGFC cannot be built: {why}");
        None
    })
    .as_deref()
}

/// SGFC's error lines for a file (warnings are not errors).
fn errors(sgfc: &Path, file: &Path) -> Vec<String> {
    let o = Command::new(sgfc).arg(file).output().expect("SGFC runs");
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    text.lines().filter(|l| l.contains(" - Error ") || l.contains("Fatal error")).map(str::to_owned).collect()
}

/// Every game of `bytes` (any format) in the full canonical form, a newline after each: one
/// collection.
fn ours(bytes: &[u8]) -> Vec<u8> {
    let data = kifu::input::prepare(bytes);
    let Some(mut r) = kifu::AnyReader::detect(&data, kifu::Config::default()) else { return Vec::new() };
    let (mut b, mut w, mut bump, mut out) = (Builder::new(), Writer::new(), Bump::new(), Vec::new());
    loop {
        bump.reset();
        match b.build(&bump, &mut r) {
            Ok(Some(t)) => {
                w.sgf(&t, &mut out).expect("a Go game");
                out.push(b'\n');
            }
            Ok(None) => break,
            Err(_) => continue,
        }
    }
    out
}

#[test]
fn sgfc_finds_no_error_in_our_output() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let Some(sgfc) = sgfc() else { return };
    let files = common::files(&dir, &[".sgf"]);
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sgfc-output-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    let chunk = files.len().div_ceil(threads).max(1);
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .enumerate()
            .map(|(k, part)| {
                let tmp = tmp.join(format!("{k}.sgf"));
                s.spawn(move || {
                    let (mut checked, mut refused_input, mut bad) = (0, 0, Vec::new());
                    for f in part {
                        if !errors(sgfc, f).is_empty() {
                            refused_input += 1;
                            continue;
                        }
                        checked += 1;
                        std::fs::write(&tmp, ours(&std::fs::read(f).unwrap())).unwrap();
                        let e = errors(sgfc, &tmp);
                        if !e.is_empty() {
                            bad.push(format!("{}: {}", f.display(), e.join(" | ")));
                        }
                    }
                    (checked, refused_input, bad)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    std::fs::remove_dir_all(&tmp).ok();
    let checked: usize = results.iter().map(|r| r.0).sum();
    let with_errors: usize = results.iter().map(|r| r.1).sum();
    let bad: Vec<&String> = results.iter().flat_map(|r| &r.2).collect();
    eprintln!(
        "SGFC: {} files; {with_errors} with SGFC errors as input (not checked); {checked} checked, {} with errors in our output",
        files.len(),
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "SGFC errors in our output of {} files:\n{}",
        bad.len(),
        bad.iter().take(40).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn sgfc_finds_no_error_in_our_sgf_of_converted_games() {
    let Some(corpus) = common::corpus() else { return };
    let Some(sgfc) = sgfc() else { return };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sgfc-converted-{}.sgf", std::process::id()));
    let (mut checked, mut bad) = (0, Vec::new());
    for folder in ["jgf2-seki", "jgf1-nggo", "xml-gogui"] {
        let dir = corpus.join("converted").join(folder);
        let names = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
        for row in names.lines().skip(1) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (output, status, source) = (cols[0], cols[4], cols[cols.len() - 1]);
            if status != "ok" || !errors(sgfc, &corpus.join(source)).is_empty() {
                continue;
            }
            checked += 1;
            std::fs::write(&tmp, ours(&std::fs::read(dir.join(output)).unwrap())).unwrap();
            let e = errors(sgfc, &tmp);
            if !e.is_empty() {
                bad.push(format!("{folder}/{output}: {}", e.join(" | ")));
            }
        }
    }
    std::fs::remove_file(&tmp).ok();
    eprintln!("SGFC: {checked} converted games checked, {} with errors in our output", bad.len());
    assert!(checked > 0);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
