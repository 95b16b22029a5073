//! Detection does not mistake prose or code for a game record (issue 20, point 6): every file of
//! the corpus's `non-records/` folder (READMEs, ChangeLogs, Texinfo, C, scripts that build SGF in
//! strings, pattern databases, images, PDFs) is detected as no format, by [`kifu::detect`] and
//! by the stream inputs path, while every record of the rest of the corpus is still detected;
//! and one hand-written case per rule of the SGF and CSA sniffers.

mod common;

use kifu::{detect, Format};
use std::path::Path;

/// The format the stream inputs path ([`kifu::stream::for_each_input`]) finds for one file,
/// which, unlike [`detect`] on the raw bytes, first transcodes a UTF-16 file.
fn stream_format(path: &Path) -> Option<Format> {
    let mut found = Vec::new();
    kifu::stream::for_each_input([path], |name, input| match input {
        Ok(input) => found.push(input.format),
        Err(e) => panic!("{name}: {e}"),
    });
    assert_eq!(found.len(), 1, "{} is one plain input", path.display());
    found[0]
}

#[test]
fn no_file_of_non_records_is_detected() {
    let Some(dir) = common::corpus_dir("non-records") else { return };
    let files = common::files(&dir, &[""]);
    assert!(files.len() >= 48, "non-records/ holds {} files", files.len());
    let mut wrong = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let (direct, streamed) = (detect(&bytes), stream_format(path));
        if direct.is_some() || streamed.is_some() {
            wrong.push(format!("{}: detect {direct:?}, stream inputs {streamed:?}", path.display()));
        }
    }
    assert!(wrong.is_empty(), "non-records detected as records:\n{}", wrong.join("\n"));
}

/// The format a record's extension promises, or `None` for a `.json` file, which may be JGF or
/// Go game JSON.
fn expected(name: &str) -> Option<&'static [Format]> {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "sgf" => Some(&[Format::Sgf]),
        "csa" => Some(&[Format::Csa]),
        "jgf" => Some(&[Format::Jgf1, Format::Jgf2]),
        "xml" => Some(&[Format::Jago]),
        "json" => Some(&[Format::Jgf1, Format::Jgf2, Format::GoJson]),
        _ => None,
    }
}

/// Record-extension files of the corpus that are rightly not detected, each with its reason.
const NOT_RECORDS: &[(&str, &str)] = &[
    ("sgf/edge/sgfmill-empty-input.sgf", "empty"),
    ("sgf/edge/sgfmill-empty-parens.sgf", "`()`: a tree with no node"),
    ("sgf/edge/sgfmill-junk-only.sgf", "`junk`: no game tree at all"),
    ("sgf/edge/sgfmill-value-only.sgf", "`[ag]`: a value with no property or tree"),
    ("sgf/edge/sgfmill-property-outside-gametree.sgf", "`B[ag]`: neither `(` nor `;` opens a game"),
    (
        "sgf/edge/sgfmill-tokenise-junk-then-tree-without-semicolon.sgf",
        "`junk (B[ah])`: after junk only a tree opened by `(;` is taken, and this one has no `;`",
    ),
];

/// Whether `rel` is a JSON Kifu Format file (shogi JSON, with its schema) of the shogi folders:
/// a format kifu does not read.
fn jkf(rel: &str) -> bool {
    rel.ends_with(".json") && ["csa/", "kif/", "ki2/"].iter().any(|d| rel.starts_with(d))
}

#[test]
fn every_record_of_the_corpus_is_detected() {
    let Some(corpus) = common::corpus() else { return };
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in common::files(&corpus, &[""]) {
        let rel = path.strip_prefix(&corpus).unwrap().to_string_lossy().replace('\\', "/");
        let Some(formats) = expected(&rel) else { continue };
        if rel.starts_with("non-records/") || jkf(&rel) || NOT_RECORDS.iter().any(|(p, _)| *p == rel) {
            continue;
        }
        checked += 1;
        match stream_format(&path) {
            Some(f) if formats.contains(&f) => {}
            other => wrong.push(format!("{rel}: {other:?}, expected one of {formats:?}")),
        }
    }
    assert!(checked > 10_000, "only {checked} record files checked");
    assert!(wrong.is_empty(), "records not detected as their format:\n{}", wrong.join("\n"));
    for (p, _) in NOT_RECORDS {
        let path = corpus.join(p);
        assert_eq!(stream_format(&path), None, "{p} is listed as not a record but is detected");
    }
}

#[test]
fn csa_quoted_in_prose_is_not_csa() {
    // A sentence quoting a move, and a line that starts like a position row.
    assert_eq!(detect(b"The first move was +7776FU, then -3334FU.\n"), None);
    assert_eq!(detect(b"Moves look like this:\n+7776FU\n-3334FU\n"), None);
    assert_eq!(detect(b"# Quirks\n  P1-P9 rows, then P+ and P- lines.\n"), None);
    assert_eq!(detect("  P1\u{2013}P9 plus `P+\u{2026}`\n".as_bytes()), None);
    // A markdown code block of CSA after prose.
    assert_eq!(detect(b"# A game\n\n```\nV2.2\nN+Sente\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n```\n"), None);
    // A UGF file (`[Header]` sections) is not CSA.
    assert_eq!(detect(b"[Header]\nHdVer=1\n[Data]\nQD,B1,1,0\n"), None);
}

#[test]
fn csa_records_are_csa() {
    assert_eq!(detect(b"V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"), Some(Format::Csa));
    assert_eq!(detect(b"'CSA encoding=UTF-8\nV3.0\n"), Some(Format::Csa));
    // Comments first; a position given by rows; moves with times after a comma.
    let rows = b"' a comment\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n+\n+7776FU,T12\n";
    assert_eq!(detect(rows), Some(Format::Csa));
    // No version, moves alone.
    assert_eq!(detect(b"+7776FU\n-3334FU\n"), Some(Format::Csa));
    // A last line cut by the head's length is not judged.
    assert_eq!(detect(b"V2.2\nPI\n+\n+7776FU\n-33"), Some(Format::Csa));
    // A header line a tool added before a whole record.
    assert_eq!(detect(b"Exported by some tool\nV2.2\nPI\n+\n+7776FU\n"), Some(Format::Csa));
    // But not prose and a version line alone, nor a record followed by prose again.
    assert_eq!(detect(b"Some words\n+7776FU\n"), None);
    assert_eq!(detect(b"a\nb\nc\nd\nV2.2\nPI\n+\n"), None);
    // Names alone frame no record.
    assert_eq!(detect(b"N+Sente\nN-Gote\n"), None);
}

#[test]
fn sgf_in_code_or_prose_is_not_sgf() {
    // C, Python and Perl building SGF in strings.
    assert_eq!(detect(b"/* write a game */\nfprintf(f, \"(;GM[1]FF[4]SZ[%d]\", size);\n"), None);
    assert_eq!(detect(b"import sys\nsgf = '(;GM[1]FF[4]SZ[19]'\n"), None);
    assert_eq!(detect(b"my $s = \"foo\" + \"(;GM[1]\";\n"), None);
    assert_eq!(detect(b"#!/usr/bin/perl\n$content =~ s/^\\(;//;\n$content .= ';';\n"), None);
    // Markdown inline code, even of a whole tiny game.
    assert_eq!(detect(b"# Notes\nA game starts with `(;` and `(;GM[1]GM[1])` is one.\n"), None);
    // Prose with a parenthesis that is not a game.
    assert_eq!(detect(b"Some text (; not a game) here.\n"), None);
    assert_eq!(detect(b"See sgf (;GM[1]FF[4] for the header) and more\n"), None);
}

#[test]
fn sgf_records_are_sgf() {
    assert_eq!(detect(b"(;GM[1]FF[4];B[pd])"), Some(Format::Sgf));
    assert_eq!(detect(b"\xEF\xBB\xBF \n(;GM[1];B[pd])"), Some(Format::Sgf));
    // A junk header line before a real game.
    assert_eq!(detect(b"Downloaded from some server\n(;GM[1]FF[4]SZ[19]PB[a]PW[b];B[pd];W[dp])\n"), Some(Format::Sgf));
    assert_eq!(detect(b"initial junk (;C[abc]KO[];B[bc])"), Some(Format::Sgf));
    // Junk, then a game whose comment runs past the head.
    let mut long = b"junk\n(;GM[1]C[".to_vec();
    long.extend(std::iter::repeat_n(b'x', 5000));
    assert_eq!(detect(&long), Some(Format::Sgf));
    // Lenient starts: a root without `;`, nodes without `(`.
    assert_eq!(detect(b"(TE[x]RD[2025-06-12];B[aa])"), Some(Format::Sgf));
    assert_eq!(detect(b"(B[hh])"), Some(Format::Sgf));
    assert_eq!(detect(b";B[hh];W[ii]"), Some(Format::Sgf));
    assert_eq!(detect(b"\xEF\xBB\xBF\r\n  ;B[hh];W[ii]"), Some(Format::Sgf));
    assert_eq!(detect(b"\t(\nB[hh])"), Some(Format::Sgf));
    // But not a comment line of an ini file or Lisp.
    assert_eq!(detect(b"; a comment\n[section]\n"), None);
}
