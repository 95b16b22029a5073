//! The Go formats without a spec of their own (GIB, NGF, UGF) through the streams layer
//! (`stream::splitter` + `stream::read_chunk`) against the format's reader over the whole input
//! as one slice: the same events and error positions, up to the first error, whatever the reads
//! return (1–7 bytes per read, or everything at once) — each corpus file, the corpus files of a
//! format concatenated into one stream, and hand-written edge cases. (The pattern of
//! `tests/stream_formats.rs`.)

mod common;

use common::dribble::Dribble;
use kifu::stream;
use kifu::{AnyReader, Config, EventSource, Format};
use std::io::Read;

/// The whole input's items (events, then the first error as kind and position), as strings.
fn slice_items(format: Format, bytes: &[u8], config: Config) -> Vec<String> {
    let mut r = AnyReader::new(format, bytes, config);
    let mut out = Vec::new();
    while let Some(item) = r.next_event() {
        match item {
            Ok(ev) => out.push(format!("{ev:?}")),
            Err(e) => {
                out.push(format!("error {:?} at {:?}", e.kind(), e.position()));
                break;
            }
        }
    }
    out
}

/// The items read through the streams layer, up to the first error; also checks that chunks are
/// in order and equal to the input's bytes at their offsets.
fn stream_items(format: Format, read: impl Read, whole: &[u8], config: Config) -> (Vec<String>, usize) {
    let mut split = stream::splitter(format, Box::new(read), config);
    let mut out = Vec::new();
    let mut last_end = 0;
    let mut chunks = 0;
    'chunks: while let Some(chunk) = split.next_game() {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                out.push(format!("error {:?} at {:?}", e.kind(), e.position()));
                break;
            }
        };
        chunks += 1;
        let (start, end) = (chunk.offset as usize, chunk.offset as usize + chunk.bytes.len());
        assert!(start >= last_end && end <= whole.len(), "chunk {start}..{end} after {last_end}");
        assert_eq!(chunk.bytes, &whole[start..end]);
        last_end = end;
        let mut r = stream::read_chunk(format, &chunk, config);
        while let Some(item) = r.next_event() {
            match item {
                Ok(ev) => out.push(format!("{ev:?}")),
                Err(e) => {
                    out.push(format!("error {:?} at {:?}", e.kind(), e.position()));
                    break 'chunks;
                }
            }
        }
    }
    (out, chunks)
}

/// Checks `bytes` through the streams layer, lenient and strict, whole and dribbled; returns the
/// number of chunks of the lenient whole read.
fn check(format: Format, bytes: &[u8], what: &str) -> usize {
    let mut chunks = 0;
    for config in [Config::lenient(), Config::strict()] {
        let expect = slice_items(format, bytes, config);
        let (got, n) = stream_items(format, bytes, bytes, config);
        compare(&expect, &got, what);
        if !config.is_strict() {
            chunks = n;
        }
        for (seed, max) in [(3, 7), (11, 1)] {
            if max == 1 && bytes.len() > 200_000 {
                continue;
            }
            let (got, _) = stream_items(format, Dribble::new(bytes, seed, max), bytes, config);
            compare(&expect, &got, &format!("{what} (reads of 1-{max} bytes)"));
        }
    }
    chunks
}

fn compare(expect: &[String], got: &[String], what: &str) {
    for (i, (e, g)) in expect.iter().zip(got).enumerate() {
        assert_eq!(e, g, "{what}: item {i}");
    }
    assert_eq!(expect.len(), got.len(), "{what}: item counts");
}

fn corpus(sub: &str, exts: &[&str]) -> Vec<std::path::PathBuf> {
    match common::corpus_dir(sub) {
        Some(dir) => common::files(&dir, exts),
        None => Vec::new(),
    }
}

/// Each corpus file on its own, then all of them (three times over) in one stream.
fn corpus_streams(format: Format, sub: &str, ext: &str) {
    let files = corpus(sub, &[ext]);
    let mut big = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        assert_eq!(check(format, &bytes, &f.display().to_string()), 1, "{}", f.display());
        big.extend_from_slice(&bytes);
    }
    if files.is_empty() {
        return;
    }
    let one = big.clone();
    big.extend_from_slice(&one);
    big.extend_from_slice(&one);
    assert_eq!(check(format, &big, sub), 3 * files.len());
}

#[test]
fn gib_corpus_streams() {
    corpus_streams(Format::Gib, "gib", ".gib");
}

#[test]
fn gib_edge_cases() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n \n",
        b"junk\n\\HS\n\\HE\n\\GS\nSTO 0 2 1 1 1\n\\GE\ntrailing junk",
        b"\\HS\n\\GS\nSTO 0 2 1 1 1\n\\HS\n\\GS\nSTO 0 2 1 2 2\n",
        b"\xEF\xBB\xBF\\HS\r\n\\[GAMENAME=x\\]\r\n\\HE\r\n\\GS\r\n\\GE",
        b"\\GS\n2 1 0\nSTO 0 2 9 1 1\nSKI 0 3\n\\GE\n\\GS\n\\GE\n",
        b"\\HS\n\\[GAMEINFOMAIN=GRLT:2,\\]\n\\HE\n\\GS\n\\GE\n\\HS\n",
    ];
    for (i, c) in cases.iter().enumerate() {
        check(Format::Gib, c, &format!("gib case {i}"));
    }
}

#[test]
fn ngf_corpus_streams() {
    corpus_streams(Format::Ngf, "ngf", ".ngf");
}

#[test]
fn ngf_edge_cases() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n\n",
        b"t\n19\nw 1D\nb 2D\ns\n0\n0\n6\n20200101\n5\nr\n1\nPMABBDDDD\n\nPMACWEEEE\n\n\nNext\n9\n",
        b"\xEF\xBB\xBFt\r\n19\r\nw\r\nb\r\ns\r\n2\r\n0\r\n0\r\nd\r\n5\r\nr\r\n1\r\nPMABWDDDD",
        b"GIa\nGIb c\nGId e\nGI\nGI\nGI2006-9-5\nGI19\nGI0\nGI0\nGI6\nGI2\nPMABBREER\nPMACWUUUU\nGIx\nPMABBDDDD\n",
    ];
    for (i, c) in cases.iter().enumerate() {
        check(Format::Ngf, c, &format!("ngf case {i}"));
    }
}

#[test]
fn ugf_corpus_streams() {
    corpus_streams(Format::Ugf, "ugf", ".ugf");
}

#[test]
fn ugf_edge_cases() {
    let cases: &[&[u8]] = &[
        b"",
        b"junk\n[Header]\nSize=19\n[Data]\nQP,B1,1,0\n[ReviewComment]\n.Comment,2\nhi\n[Header]\nSize=9\n[Data]\nAA,W1,1,0\ntrailing",
        b"\xEF\xBB\xBF[Header]\r\nHdcp=2,0.5\r\n[Data]\r\nDD,B1,0,0\r\nYA,W1,1,0",
        b"[Header]\n[Header]\n\n[header]\nx\n",
    ];
    for (i, c) in cases.iter().enumerate() {
        check(Format::Ugf, c, &format!("ugf case {i}"));
    }
}

/// Corpus files with a few random edits (a bit flipped, a byte of the formats' syntax inserted,
/// a byte removed, the file cut): the reader keeps the stream's contract, lenient and strict,
/// and streaming still equals slice reading.
#[test]
fn mutated_corpus_files() {
    let mut rng = common::rng::XorShift::new(24);
    let sets: &[(Format, &str, &str)] =
        &[(Format::Gib, "gib", ".gib"), (Format::Ngf, "ngf", ".ngf"), (Format::Ugf, "ugf", ".ugf")];
    let junk = b"\\[]=,:&HSGEPMABW 019\n\r\t.-";
    for &(format, sub, ext) in sets {
        for path in corpus(sub, &[ext]) {
            let bytes = std::fs::read(&path).unwrap();
            for _ in 0..150 {
                let mut v = bytes.clone();
                for _ in 0..1 + rng.next() % 4 {
                    if v.is_empty() {
                        break;
                    }
                    let at = (rng.next() % v.len() as u64) as usize;
                    match rng.next() % 4 {
                        0 => v[at] ^= 1 << (rng.next() % 8),
                        1 => v.insert(at, junk[(rng.next() % junk.len() as u64) as usize]),
                        2 => {
                            v.remove(at);
                        }
                        _ => v.truncate(at),
                    }
                }
                for strict in [false, true] {
                    let config = if strict { Config::strict() } else { Config::lenient() };
                    kifu::kit::check_contract(&v, &mut AnyReader::new(format, &v, config), strict);
                }
                check(format, &v, &format!("{} mutated", path.display()));
            }
        }
    }
}
