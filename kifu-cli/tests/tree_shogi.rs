//! `kifu tree` on shogi records prints CSA (issue 21): text that reads back as the same games,
//! in the record's version, `/` between games; `--moves` keeps the moves-only canonical form.

mod common;

use bumpalo::Bump;
use kifu::tree::{Builder, GameTree};
use std::process::Command;

fn kifu(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu")).args(args).output().expect("run kifu");
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap_or(-1))
}

fn trees<'b>(bump: &'b Bump, input: &[u8]) -> Vec<GameTree<'b>> {
    let mut r = kifu::csa::Reader::new(input);
    let mut b = Builder::new();
    let mut out = Vec::new();
    while let Ok(Some(t)) = b.build(bump, &mut r) {
        out.push(t);
    }
    out
}

/// The printed CSA reads back as the file's games, canonically equal, with the same moves,
/// times and endings.
fn reads_back(path: &str) -> String {
    let (out, err, code) = kifu(&["tree", path]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("(;") && !out.contains("XS["), "{out}");
    let input = std::fs::read(path).unwrap();
    let bump = Bump::new();
    let (a, b) = (trees(&bump, &input), trees(&bump, out.as_bytes()));
    assert_eq!(a.len(), b.len(), "{path}");
    for (x, y) in a.iter().zip(&b) {
        if x.canonical_diff(y).is_some() {
            // Only the version's value may differ (a `V2` record is printed as `V2.2`).
            let d = x.canonical_diff(y).unwrap();
            assert!(d.what.contains("FormatVersion"), "{path}: {d}");
        }
        assert_eq!(x.ending(), y.ending(), "{path}");
        let clocks = |t: &GameTree<'_>| {
            t.nodes().flat_map(|n| t.events(n)).filter(|e| matches!(e, kifu::Event::Clock(_))).count()
        };
        assert_eq!(clocks(x), clocks(y), "{path}");
    }
    out
}

#[test]
fn the_sample_prints_as_v3() {
    let path = format!("{}/samples/yagura-opening.csa", common::workspace_root().display());
    let out = reads_back(&path);
    assert!(out.starts_with("'CSA encoding=UTF-8\nV3.0\nN+Sente\n"), "{out}");
    assert!(out.contains("+7776FU\nT3.25\n"), "{out}");
    // The moves-only form is unchanged.
    let (moves, _, _) = kifu(&["tree", "--moves", &path]);
    assert!(moves.starts_with("(;+7776FU;-8384FU"), "{moves}");
}

#[test]
fn a_v22_record_with_a_special_and_a_time_after_it() {
    let dir = std::env::temp_dir().join(format!("kifu-tree-shogi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("game.csa");
    let csa = "V2.2\nN+a\nN-b\nPI82HI22KA\n-\n-3334FU\nT5\n+7776FU\nT2\n%CHUDAN\nT51\n";
    std::fs::write(&f, csa).unwrap();
    let out = reads_back(f.to_str().unwrap());
    assert_eq!(out, csa);
    // Two games: `/` between them; `@OFFSET` prints the second alone.
    let two = format!("{csa}/\n{csa}");
    std::fs::write(&f, &two).unwrap();
    let out = reads_back(f.to_str().unwrap());
    assert_eq!(out, two);
    let (one, _, code) = kifu(&["tree", &format!("{}@{}", f.display(), csa.len() + 2)]);
    assert_eq!((one.as_str(), code), (csa, 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every CSA file of the corpus prints as CSA that reads back the same.
#[test]
fn corpus_csa_files() {
    let Some(corpus) = common::corpus() else { return };
    let mut paths = common::files(&corpus.join("csa"), &[".csa"]);
    paths.extend(common::files(&corpus.join("converted/csa-cshogi/multi"), &[".csa"]));
    paths.extend(common::files(&corpus.join("converted/csa-cshogi/sjis"), &[".csa"]).into_iter().take(10));
    paths.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]).into_iter().take(10));
    assert!(paths.len() > 40);
    for p in paths {
        reads_back(p.to_str().unwrap());
    }
}
