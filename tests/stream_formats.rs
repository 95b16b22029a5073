//! Every format through the streams layer (`stream::splitter` + `stream::read_chunk`) against
//! the format's reader over the whole input as one slice: the same events and error positions,
//! up to the first error, whatever the reads return (1–7 bytes per read, or everything at once).
//! Multi-game CSA files, Jago documents with many `<GoGame>`s and concatenated JSON documents
//! are built from the corpus; each corpus file is checked on its own too.

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

#[test]
fn corpus_files_of_every_format() {
    let sets: &[(Format, &str, &[&str])] = &[
        (Format::Csa, "csa", &[".csa"]),
        (Format::Jago, "jago-xml", &[".xml"]),
        (Format::Jgf2, "jgf-v2", &[".json", ".jgf", ".jgf5", ".js"]),
        (Format::Jgf1, "jgf-v1", &[".json", ".jgf", ".jgf5", ".js"]),
        (Format::GoJson, "gocaml", &[".json"]),
    ];
    for &(format, sub, exts) in sets {
        let mut n = 0;
        for path in corpus(sub, exts) {
            let bytes = std::fs::read(&path).unwrap();
            if kifu::detect(&bytes) != Some(format) {
                continue;
            }
            check(format, &bytes, &path.display().to_string());
            n += 1;
        }
        eprintln!("{sub}: {n} files");
    }
}

/// A multi-game CSA file: corpus games (V2.2, each with its own header) separated by `/` lines,
/// in a file that declares its encoding and version once.
#[test]
fn csa_multi_game_stream() {
    let files = corpus("converted/csa-cshogi", &[".csa"]);
    if files.is_empty() {
        return;
    }
    let mut big = b"'CSA encoding=UTF-8\nV3.0\n".to_vec();
    for (i, f) in files.iter().take(300).enumerate() {
        if i > 0 {
            big.extend_from_slice(if i % 3 == 0 { b"/\r\n" } else { b"/\n" });
        }
        big.extend_from_slice(&std::fs::read(f).unwrap());
    }
    let chunks = check(Format::Csa, &big, "csa multi-game");
    assert_eq!(chunks, 300);
}

/// One `<Go>` document holding the games of many GoGui files.
#[test]
fn jago_many_games_stream() {
    let files = corpus("converted/xml-gogui", &[".xml"]);
    if files.is_empty() {
        return;
    }
    let mut big = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    let mut games = 0;
    for f in files.iter().take(150) {
        let bytes = std::fs::read(f).unwrap();
        for c in kifu::jago::Splitter::new(&bytes) {
            big.extend_from_slice(c.bytes);
            big.push(b'\n');
            games += 1;
        }
    }
    big.extend_from_slice(b"</Go>\n");
    assert_eq!(check(Format::Jago, &big, "jago many games"), games);
}

/// Concatenated JSON documents (one per line, or one after the other) of each JSON format.
#[test]
fn concatenated_json_streams() {
    let sets: &[(Format, &str)] =
        &[(Format::Jgf2, "converted/jgf2-seki"), (Format::Jgf1, "converted/jgf1-nggo"), (Format::GoJson, "gocaml")];
    for &(format, sub) in sets {
        let files = corpus(sub, &[".json", ".jgf"]);
        let mut big = Vec::new();
        let mut docs = 0;
        for (i, f) in files.iter().enumerate() {
            let bytes = std::fs::read(f).unwrap();
            if kifu::detect(&bytes) != Some(format) || docs >= 120 {
                continue;
            }
            // Documents that read without an error on their own.
            if slice_items(format, &bytes, Config::lenient()).last().is_some_and(|l| l.starts_with("error")) {
                continue;
            }
            big.extend_from_slice(bytes.trim_ascii());
            big.extend_from_slice(if i % 2 == 0 { b"\n" } else { b"  " });
            docs += 1;
        }
        if docs == 0 {
            continue;
        }
        let chunks = check(format, &big, sub);
        assert_eq!(chunks, docs, "{sub}");
    }
}

/// Hand-written edge cases of the JSON document scanner.
#[test]
fn json_edge_cases() {
    let cases: &[(Format, &[u8])] = &[
        (Format::Jgf2, b""),
        (Format::Jgf2, b"  \n "),
        (Format::Jgf2, b"{\"a\": \"}\"}{\"b\": [1, {\"c\": \"\\\"]\"}]}"),
        (Format::Jgf2, b"// c\n{\"a\": 1} /* x */ ; {\"b\": 2};\n"),
        (Format::Jgf2, b"var jgf = {game: {name: 'a}b'}}\n{}"),
        (Format::Jgf2, b"{\"a\": 1} junk {\"b\": 2}"),
        (Format::Jgf2, b"oops\n{\"a\": 1}\n{\"b\": 2}"),
        (Format::Jgf2, b"{\"a\": 1}\n{\"b\": "),
        (Format::Jgf1, b"[{\"move\": {\"B\": [3, 3]}}]\n[{\"move\": {\"W\": [4, 4]}}]"),
        (Format::GoJson, b"{\"players\": {}}\n[1]\n{\"board\": {}}"),
        (Format::GoJson, b"\xEF\xBB\xBF{\"players\": {}}\n\n{\"board\": {}}\n"),
    ];
    for (i, (format, bytes)) in cases.iter().enumerate() {
        check(*format, bytes, &format!("case {i}: {}", String::from_utf8_lossy(bytes)));
    }
}

/// The game-size limit through the generic streaming splitter: the game over the limit is an
/// error, the games around it are read, and the window stays bounded.
#[test]
fn game_size_limit_on_every_streaming_scanner() {
    let mut config = Config::default();
    config.limits.max_game_len = 1000;
    let filler = "x".repeat(300_000);
    let cases: &[(Format, String)] = &[
        (Format::Csa, format!("PI\n+\n+7776FU\n/\n'{filler}\n/\nPI\n-\n-3334FU\n")),
        (
            Format::Jago,
            format!("<Go><GoGame/><GoGame><!-- {filler} --></GoGame><GoGame><Black at='A1'/></GoGame></Go>"),
        ),
        (Format::Jgf2, format!("{{\"a\": 1}}\n{{\"b\": \"{filler}\"}}\n{{\"c\": 2}}")),
    ];
    for (format, input) in cases {
        let mut split = stream::splitter(*format, Box::new(input.as_bytes()), config);
        let mut seen = Vec::new();
        while let Some(chunk) = split.next_game() {
            seen.push(chunk.map(|c| c.bytes.len()).map_err(|e| e.kind()));
        }
        assert_eq!(seen.len(), 3, "{format:?}: {seen:?}");
        assert_eq!(seen[1], Err(kifu::ErrorKind::LimitExceeded(kifu::Limit::GameSize)), "{format:?}");
        assert!(seen[0].is_ok() && seen[2].is_ok(), "{format:?}: {seen:?}");
    }
}

/// Corpus files with bytes flipped, inserted and deleted (xorshift, fixed seed) through the
/// streams layer 1–7 bytes at a time: no panic, chunks in order and equal to the input's bytes;
/// for the JSON formats, the slice reader's items up to the first error. (CSA and Jago are not
/// compared item by item: a chunk's reader gets the file's charset fixed, so an unknown
/// `'CSA encoding=` label warns only in the whole file, and Jago markup outside `<GoGame>`,
/// which the chunks leave out, warns only there.)
#[test]
fn mutated_inputs_through_streams() {
    let sets: &[(Format, &str, &[&str])] = &[
        (Format::Jgf2, "converted/jgf2-seki", &[".jgf"]),
        (Format::Jgf1, "converted/jgf1-nggo", &[".jgf"]),
        (Format::GoJson, "gocaml", &[".json"]),
        (Format::Csa, "csa", &[".csa"]),
        (Format::Jago, "jago-xml", &[".xml"]),
    ];
    let mut rng = common::rng::XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut next = move || rng.next();
    let mut cases = 0;
    for &(format, sub, exts) in sets {
        for path in corpus(sub, exts).iter().take(40) {
            let original = std::fs::read(path).unwrap();
            if original.is_empty() {
                continue;
            }
            // Two documents (or games) one after the other, then mutations.
            let mut base = original[..original.len().min(20_000)].to_vec();
            base.extend_from_slice(if format == Format::Csa { b"\n/\n" } else { b"\n" });
            base.extend_from_slice(&original[..original.len().min(20_000)]);
            for _ in 0..4 {
                let mut bytes = base.clone();
                for _ in 0..1 + next() % 6 {
                    let at = (next() % bytes.len() as u64) as usize;
                    let special = b"{}[]\"'/\\\n*;<>!-";
                    let b =
                        if next() % 2 == 0 { special[(next() % special.len() as u64) as usize] } else { next() as u8 };
                    match next() % 3 {
                        0 => bytes[at] = b,
                        1 => bytes.insert(at, b),
                        _ => {
                            bytes.remove(at);
                        }
                    }
                }
                for config in [Config::lenient(), Config::strict()] {
                    let (got, _) = stream_items(format, Dribble::new(&bytes, next(), 7), &bytes, config);
                    if matches!(format, Format::Jgf2 | Format::Jgf1 | Format::GoJson) {
                        let expect = slice_items(format, &bytes, config);
                        compare(&expect, &got, &format!("{} mutated", path.display()));
                    }
                }
                cases += 1;
            }
        }
    }
    assert!(cases > 100, "{cases}");
}
