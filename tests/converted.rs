//! The same game through every writer: for each file of converted/jgf2-seki, jgf1-nggo and
//! xml-gogui, the whole tree in moves-only canonical form (what `kifu tree --moves` prints)
//! equals the one read from its SGF source, except the files listed here with the reason.

mod common;

use bumpalo::Bump;
use kifu::tree::{Builder, Writer};
use kifu::{AnyReader, Config};
use std::path::Path;

/// Every game of `bytes` in moves-only form, one line per game.
fn moves(bytes: &[u8]) -> Vec<String> {
    let data = kifu::input::prepare(bytes);
    let mut r = AnyReader::detect(&data, Config::default()).expect("a game record");
    let (mut builder, mut writer, mut bump, mut out) = (Builder::new(), Writer::new(), Bump::new(), Vec::new());
    let mut lines = Vec::new();
    loop {
        bump.reset();
        match builder.build(&bump, &mut r) {
            Ok(None) => break,
            Ok(Some(t)) => {
                out.clear();
                writer.moves(&t, &mut out);
                lines.push(String::from_utf8(out.clone()).unwrap());
            }
            Err(e) => panic!("{e}"),
        }
    }
    lines
}

/// (folder, file, why the tree differs from the SGF source's).
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "jgf2-seki",
        "gnugo-00107.jgf",
        "FF[3] lower-case identifiers stop Seki's node regex: SZ is lost and tt becomes a point (MANIFEST.md)",
    ),
    ("xml-gogui", "gnugo-00107.xml", "B[tt]W[tt] in one node: GoGui keeps only the last move (MANIFEST.md)"),
];

fn check(folder: &str, corpus: &Path) -> (usize, Vec<(String, String)>) {
    let dir = corpus.join("converted").join(folder);
    let names = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
    let (mut same, mut differ) = (0, Vec::new());
    for row in names.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (output, status, source) = (cols[0], cols[4], cols[cols.len() - 1]);
        if status != "ok" {
            continue;
        }
        let ours = moves(&std::fs::read(dir.join(output)).unwrap());
        let sgf = moves(&std::fs::read(corpus.join(source)).unwrap());
        // Seki and ngGo merge a collection's trees into one; compare the first tree only then.
        let want = if sgf.len() > 1 { &sgf[..1] } else { &sgf[..] };
        if ours.as_slice() == want {
            same += 1;
        } else {
            differ.push((output.to_string(), format!("{:.120}\n   vs {:.120}", ours.join("|"), want.join("|"))));
        }
    }
    (same, differ)
}

#[test]
fn converted_trees_equal_their_sgf_sources() {
    let Some(corpus) = common::corpus() else { return };
    let mut unexplained = Vec::new();
    for folder in ["jgf2-seki", "jgf1-nggo", "xml-gogui"] {
        let (same, differ) = check(folder, &corpus);
        eprintln!("{folder}: {same} same, {} differ", differ.len());
        for (file, diff) in &differ {
            match EXCEPTIONS.iter().find(|e| e.0 == folder && e.1 == file) {
                Some(e) => eprintln!("  {file}: expected ({})", e.2),
                None => unexplained.push(format!("{folder}/{file}: {diff}")),
            }
        }
        assert!(same > 500, "{folder}: only {same} files agree");
    }
    assert!(unexplained.is_empty(), "{} unexplained:\n{}", unexplained.len(), unexplained.join("\n"));
}
