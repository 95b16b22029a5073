//! Server SGF dialects where `kifu` interprets values: `kifu convert --to sgf --normalize`
//! (written in the standard form, the rules applied reported), `kifu show` (the dialect, the
//! normalised ranks, komi and date) and the index's komi column (a Fox `KM[325]` game has komi
//! 6.5), on hand-written records and on the corpus's Fox, OGS and IGS files.

use rusqlite::Connection;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-cli-dialect-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `(stdout, stderr, status)`.
fn kifu(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(KIFU).args(args).output().expect("run kifu");
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (s(&out.stdout), s(&out.stderr), out.status.code().unwrap_or(-1))
}

fn corpus_edge() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    if !dir.join("MANIFEST.md").exists() {
        assert!(std::env::var("CI").map(|v| v != "true").unwrap_or(true), "CI=true but no corpus at {}", dir.display());
        eprintln!("skipped: corpus not found at {}", dir.display());
        return None;
    }
    Some(dir.join("sgf/edge"))
}

const FOX: &str =
    "(;GM[1]FF[4]SZ[19]GN[]DT[2016.10.25 12:30]PB[a]PW[b]BR[9段]WR[P9段]KM[325]HA[2]RU[Chinese]AP[foxwq];W[qq];B[cc])";

#[test]
fn convert_normalize_writes_the_standard_form() {
    let d = temp("convert");
    let f = d.join("fox.sgf");
    std::fs::write(&f, FOX).unwrap();
    let (out, err, code) = kifu(&["convert", "--to", "sgf", "--normalize", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for want in ["KM[6.5]", "BR[9d]", "WR[9p]", "DT[2016-10-25]", "AB[dp][pd]"] {
        assert!(out.contains(want), "{want} not in {out}");
    }
    for rule in ["fox_komi_in_stones", "fox_handicap_placed", "cjk_rank", "fox_date_time"] {
        assert!(err.contains(&format!("normalised {rule}")), "{rule} not in {err}");
    }
    // Without the flag, the file's own values.
    let (out, _, _) = kifu(&["convert", "--to", "sgf", f.to_str().unwrap()]);
    assert!(out.contains("KM[325]") && !out.contains("AB["), "{out}");
    // The written SGF reads back with the same moves, and nothing left to normalise but none.
    let g = d.join("norm.sgf");
    let (out, _, _) = kifu(&["convert", "--to", "sgf", "--normalize", f.to_str().unwrap()]);
    std::fs::write(&g, &out).unwrap();
    let (_, err, _) = kifu(&["convert", "--to", "sgf", "--normalize", g.to_str().unwrap()]);
    assert!(!err.contains("normalised"), "{err}");
    // Through the tree as well (JGF is written from a tree).
    let (out, err, code) = kifu(&["convert", "--to", "jgf", "--normalize", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("6.5"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn convert_normalize_on_the_corpus_files() {
    let Some(edge) = corpus_edge() else { return };
    let path = |n: &str| edge.join(n).to_str().unwrap().to_owned();
    // OGS: 112 nested variations written as one flat main line.
    let (out, err, _) = kifu(&["convert", "--to", "sgf", "--normalize", &path("katrain-ogs.sgf")]);
    assert_eq!(out.matches('(').count(), 1, "{out}");
    assert_eq!(out.matches(";B[").count() + out.matches(";W[").count(), 113);
    assert!(err.contains("normalised ogs_nested_main_line"), "{err}");
    let (out, _, _) = kifu(&["convert", "--to", "sgf", &path("katrain-ogs.sgf")]);
    assert_eq!(out.matches('(').count(), 113);
    // Fox: KataGo's foxlike file.
    let (out, _, _) = kifu(&["convert", "--to", "sgf", "--normalize", &path("katago-foxlike.sgf")]);
    assert!(out.contains("KM[6.5]") && out.contains("BR[3d]") && out.contains("WR[5d]"), "{out}");
    // IGS: Pandanet's header.
    let (out, err, _) = kifu(&["convert", "--to", "sgf", "--normalize", &path("katrain-panda1.sgf")]);
    assert!(out.contains("WR[11k]") && out.contains("BR[12k]") && out.contains("CP[Copyright"), "{out}");
    assert!(err.contains("normalised igs_split_property"), "{err}");
}

#[test]
fn show_and_index() {
    let d = temp("show");
    let f = d.join("fox.sgf");
    std::fs::write(&f, FOX).unwrap();
    let (out, err, code) = kifu(&["show", "--json", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["dialect"], "fox");
    assert_eq!(v["komi"], "325");
    assert_eq!(v["komi_normalised"], "6.5");
    assert_eq!(v["black_rank_normalised"], "9d");
    assert_eq!(v["white_rank_normalised"], "9p");
    assert_eq!(v["date_normalised"], "2016-10-25");
    let rules = v["dialect_rules"].as_str().unwrap();
    for r in ["fox_komi_in_stones", "fox_handicap_placed", "cjk_rank", "fox_date_time"] {
        assert!(rules.contains(r), "{r} not in {rules}");
    }
    // A game of no dialect.
    let g = d.join("plain.sgf");
    std::fs::write(&g, "(;GM[1]KM[6.5]BR[3d];B[pd])").unwrap();
    let (out, _, _) = kifu(&["show", "--json", g.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["dialect"], "standard");
    assert!(v.get("dialect_rules").is_none());
    // The index: the komi column holds points.
    let db = d.join("k.sqlite");
    let (_, err, code) = kifu(&["index", "--db", db.to_str().unwrap(), d.to_str().unwrap()]);
    assert!(code <= 1, "{err}");
    let c = Connection::open(&db).unwrap();
    let k: f64 = c.query_row("SELECT komi FROM games WHERE komi_raw = '325'", [], |r| r.get(0)).unwrap();
    assert_eq!(k, 6.5);
    let _ = std::fs::remove_dir_all(&d);
}
