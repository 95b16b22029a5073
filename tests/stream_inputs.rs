//! Inputs: directories, compressed files and archives read member by member; the parallel
//! driver gives the same results, in the same order, on any number of threads.
#![cfg(all(feature = "compression", feature = "parallel"))]

mod common;

use kifu::stream::{read_games, Game, Options};
use kifu::{ErrorKind, Event, EventSource};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a worker reports for one game.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Summary {
    offset: u64,
    moves: u32,
    nodes: u32,
    warnings: u32,
    error: Option<(ErrorKind, u64)>,
}

fn summarise(game: Game<'_>) -> Summary {
    let mut s = Summary { offset: game.chunk.offset, moves: 0, nodes: 0, warnings: 0, error: None };
    let mut events = game.events();
    while let Some(item) = events.next_event() {
        match item {
            Ok(Event::Move(_)) => s.moves += 1,
            Ok(Event::Node) => s.nodes += 1,
            Ok(Event::Warning(_)) => s.warnings += 1,
            Ok(_) => {}
            Err(e) => {
                s.error = Some((e.kind(), e.offset()));
                break;
            }
        }
    }
    s
}

type Outcome = Vec<(String, Result<Summary, ErrorKind>)>;

fn run(paths: &[PathBuf], threads: usize, batch_bytes: usize) -> Outcome {
    let mut out = Vec::new();
    let options = Options { threads, batch_bytes, ..Options::default() };
    read_games(paths, &options, summarise, |name, r| out.push((name.to_string(), r.map_err(|e| e.kind()))));
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const GOOD_A: &[u8] = b"(;GM[1]FF[4];B[aa];W[bb])\n(;GM[1];B[cc])\n";
const GOOD_B: &[u8] = b"(;GM[1]SZ[9];B[dd](;W[ee])(;W[ff]))";
const BROKEN: &[u8] = b"(;GM[1];B[aa])\n(;GM[1];B[bb]C[this comment never ends";
const README: &[u8] = b"This archive holds SGF games.\n";

fn gz(bytes: &[u8]) -> Vec<u8> {
    common::archive::gzip(bytes)
}

/// The members every archive holds, in order.
fn members() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("a.sgf", GOOD_A.to_vec()),
        ("README.txt", README.to_vec()),
        ("broken.sgf", BROKEN.to_vec()),
        ("sub/b.sgf", GOOD_B.to_vec()),
        ("sub/c.sgf.gz", gz(GOOD_B)),
    ]
}

fn zip_bytes() -> Vec<u8> {
    common::archive::zip_of(&members())
}

fn tar_bytes() -> Vec<u8> {
    common::archive::tar_of(&members())
}

/// The outcome expected for the members of an archive named `name`.
/// Per game: input name, and (offset, moves, error kind) or the input's error kind.
type Brief = Vec<(String, Result<(u64, u32, Option<ErrorKind>), ErrorKind>)>;

fn expected(name: &str) -> Brief {
    let m = |member: &str| format!("{name}!{member}");
    vec![
        (m("a.sgf"), Ok((0, 2, None))),
        (m("a.sgf"), Ok((26, 1, None))),
        (m("README.txt"), Err(ErrorKind::NotAGameRecord)),
        (m("broken.sgf"), Ok((0, 1, None))),
        (m("broken.sgf"), Ok((15, 1, Some(ErrorKind::UnexpectedEof)))),
        (m("sub/b.sgf"), Ok((0, 3, None))),
        (m("sub/c.sgf.gz"), Ok((0, 3, None))),
    ]
}

fn brief(outcome: &Outcome) -> Brief {
    outcome.iter().map(|(n, r)| (n.clone(), r.clone().map(|s| (s.offset, s.moves, s.error.map(|e| e.0))))).collect()
}

#[test]
fn archives_are_read_member_by_member() {
    let dir = temp_dir("archives");
    let zip = dir.join("games.zip");
    std::fs::write(&zip, zip_bytes()).unwrap();
    let tgz = dir.join("games.tar.gz");
    std::fs::write(&tgz, gz(&tar_bytes())).unwrap();
    // Content, not the name, says what a file is.
    let tbz = dir.join("games.bin");
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(&tar_bytes()).unwrap();
    std::fs::write(&tbz, e.finish().unwrap()).unwrap();
    let xz = dir.join("one.sgf.xz");
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(GOOD_B).unwrap();
    std::fs::write(&xz, e.finish().unwrap()).unwrap();
    // A zip inside a gzip stream is read from memory.
    let zgz = dir.join("games.zip.gz");
    std::fs::write(&zgz, gz(&zip_bytes())).unwrap();

    for (path, threads) in [(&zip, 1), (&zip, 2), (&tgz, 1), (&tgz, 2), (&tbz, 2), (&zgz, 2)] {
        let name = path.display().to_string();
        assert_eq!(brief(&run(std::slice::from_ref(path), threads, 64)), expected(&name), "{name} on {threads}");
        // With large batches the archive is opened and read whole by a worker.
        assert_eq!(brief(&run(std::slice::from_ref(path), threads, 1 << 20)), expected(&name), "{name} whole");
    }
    let got = brief(&run(std::slice::from_ref(&xz), 1, 64));
    assert_eq!(got, [(xz.display().to_string(), Ok((0, 3, None)))]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_member_is_reported_and_reading_goes_on() {
    let dir = temp_dir("corrupt");
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let long: Vec<u8> = GOOD_A.iter().copied().cycle().take(GOOD_A.len() * 200).collect();
    for name in ["first.sgf", "bad.sgf", "last.sgf"] {
        w.start_file(name, opts).unwrap();
        w.write_all(&long).unwrap();
    }
    let mut bytes = w.finish().unwrap().into_inner();
    // Damage the middle of the second member's compressed data.
    let second = bytes.windows(7).position(|w| w == b"bad.sgf").unwrap();
    for b in &mut bytes[second + 40..second + 60] {
        *b ^= 0x5A;
    }
    let zip = dir.join("damaged.zip");
    std::fs::write(&zip, &bytes).unwrap();
    for threads in [1, 2] {
        let out = run(std::slice::from_ref(&zip), threads, 1024);
        let name = |m: &str| format!("{}!{m}", zip.display());
        let count = |m: &str| out.iter().filter(|(n, r)| *n == name(m) && r.is_ok()).count();
        assert_eq!(count("first.sgf"), 400);
        assert_eq!(count("last.sgf"), 400);
        let errors: Vec<_> = out.iter().filter(|(_, r)| r.is_err()).collect();
        assert!(!errors.is_empty() && errors.iter().all(|(n, _)| *n == name("bad.sgf")), "{errors:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn directories_and_missing_paths() {
    let dir = temp_dir("dir");
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("b/two.sgf"), GOOD_B).unwrap();
    std::fs::write(dir.join("a.sgf"), GOOD_A).unwrap();
    std::fs::write(dir.join("notes.txt"), README).unwrap();
    let missing = dir.join("missing.sgf");
    let out = brief(&run(&[dir.clone(), missing.clone()], 2, 16));
    let n = |p: &Path| p.display().to_string();
    assert_eq!(
        out,
        [
            (n(&dir.join("a.sgf")), Ok((0, 2, None))),
            (n(&dir.join("a.sgf")), Ok((26, 1, None))),
            (n(&dir.join("b/two.sgf")), Ok((0, 3, None))),
            (n(&dir.join("notes.txt")), Err(ErrorKind::NotAGameRecord)),
            (n(&missing), Err(ErrorKind::Io)),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Parallel reading gives the same results in the same order as one thread, on one big
/// collection per file (sgf/collections) and on many small files (sgf/gnugo-sources, real-ai).
#[test]
fn parallel_equals_one_thread_on_corpus() {
    let Some(sgf) = common::corpus_dir("sgf") else { return };
    for sub in ["collections", "gnugo-sources", "edge", "real-ai/AlphaGo"] {
        let paths = [sgf.join(sub)];
        let one = run(&paths, 1, 256 * 1024);
        let games = one.iter().filter(|(_, r)| r.is_ok()).count();
        let moves: u32 = one.iter().filter_map(|(_, r)| r.as_ref().ok()).map(|s| s.moves).sum();
        assert!(games > 0);
        for (threads, batch) in [(2, 256 * 1024), (2, 4096), (3, 1)] {
            let many = run(&paths, threads, batch);
            assert!(many == one, "{sub}: {threads} threads, batches of {batch} bytes differ from one thread");
        }
        eprintln!("{sub}: {games} games, {moves} moves, same on 1, 2 and 3 threads");
    }
}

/// A ≥ 1 GB collection generated on the fly from the corpus collections, gzip-compressed and
/// decompressed as streams, through the splitter: the window stays at the largest game plus a
/// constant. (`cargo test --release --test stream_inputs -- --ignored`; the peak RSS of the same
/// pipeline on stdin is measured with `profiling/stream_count.rs`.)
#[test]
#[ignore]
fn one_gigabyte_through_gzip_in_bounded_memory() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let files: Vec<Vec<u8>> = common::files(&dir, &[".sgf"]).iter().map(|p| std::fs::read(p).unwrap()).collect();
    struct Cycle {
        files: Vec<Vec<u8>>,
        file: usize,
        pos: usize,
        left: u64,
    }
    impl std::io::Read for Cycle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Ok(0);
            }
            let f = &self.files[self.file];
            let n = buf.len().min(f.len() - self.pos);
            buf[..n].copy_from_slice(&f[self.pos..self.pos + n]);
            self.pos += n;
            if self.pos == f.len() {
                self.pos = 0;
                self.file = (self.file + 1) % self.files.len();
            }
            self.left = self.left.saturating_sub(n as u64);
            Ok(n)
        }
    }
    let source = Cycle { files, file: 0, pos: 0, left: 1 << 30 };
    let gz = flate2::read::GzEncoder::new(source, flate2::Compression::fast());
    let plain = flate2::read::MultiGzDecoder::new(gz);
    let mut split = kifu::sgf::Splitter::new(plain, kifu::Config::default());
    let (mut games, mut bytes, mut largest) = (0u64, 0u64, 0usize);
    while let Some(chunk) = split.next_game() {
        let chunk = chunk.unwrap();
        games += 1;
        largest = largest.max(chunk.bytes.len());
        bytes = chunk.offset + chunk.bytes.len() as u64;
    }
    assert!(bytes >= 1 << 30, "{bytes}");
    assert!(split.window_len() <= largest * 5 / 4 + 64 * 1024, "window {} largest {largest}", split.window_len());
    eprintln!("{games} games, {bytes} bytes, largest game {largest}, window {}", split.window_len());
}

/// Every file of sgf/edge read through `read_games` (which transcodes UTF-16 streams) gives the
/// same totals (moves, nodes, warnings) as the slice reader on `kifu::input::prepare`d bytes,
/// for the files the slice reader reads without an error.
#[test]
fn edge_files_through_inputs_equal_slice_totals() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let mut compared = 0;
    let mut utf16 = 0;
    for path in common::files(&dir, &[".sgf"]) {
        let raw = std::fs::read(&path).unwrap();
        let bytes = kifu::input::prepare(&raw);
        let mut want = (0u32, 0u32, 0u32, 0u32);
        let mut failed = false;
        for item in kifu::sgf::Reader::new(&bytes) {
            match item {
                Ok(Event::GameStart { .. }) => want.0 += 1,
                Ok(Event::Move(_)) => want.1 += 1,
                Ok(Event::Node) => want.2 += 1,
                Ok(Event::Warning(_)) => want.3 += 1,
                Ok(_) => {}
                Err(_) => failed = true,
            }
        }
        if failed || kifu::detect(&bytes).is_none() {
            continue;
        }
        let out = run(std::slice::from_ref(&path), 1, 1 << 20);
        let mut got = (0u32, 0u32, 0u32, 0u32);
        for (_, r) in &out {
            let s = r.as_ref().unwrap();
            // A chunk with no bytes only carries the junk after the last game.
            got.0 += (s.nodes > 0 || s.moves > 0 || s.offset < bytes.len() as u64) as u32;
            got.1 += s.moves;
            got.2 += s.nodes;
            got.3 += s.warnings;
        }
        assert_eq!(got, want, "{}", path.display());
        compared += 1;
        utf16 += (raw.starts_with(&[0xFF, 0xFE]) || raw.starts_with(&[0xFE, 0xFF])) as u32;
    }
    assert!(compared > 100 && utf16 >= 1, "{compared} files, {utf16} UTF-16");
}

/// A panic in the worker closure reaches the caller (no deadlock waiting for its batch).
#[test]
fn a_worker_panic_propagates() {
    let dir = temp_dir("panic");
    std::fs::write(dir.join("a.sgf"), GOOD_A.repeat(100)).unwrap();
    let options = Options { threads: 2, batch_bytes: 64, ..Options::default() };
    let r = std::panic::catch_unwind(|| {
        read_games([&dir], &options, |game| assert!(game.chunk.offset < 500, "boom"), |_, _| {});
    });
    assert!(r.is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// CSA files (read whole, then cut by `kifu::csa::chunks`) through the same driver: the same
/// games and moves as the CSA slice reader, on one and two threads.
#[test]
fn csa_through_read_games() {
    let Some(dir) = common::corpus_dir("csa") else { return };
    let files = common::files(&dir, &[".csa"]);
    let mut want = (0u32, 0u32);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for item in kifu::csa::Reader::new(&bytes) {
            match item {
                Ok(Event::GameStart { .. }) => want.0 += 1,
                Ok(Event::Move(_)) => want.1 += 1,
                _ => {}
            }
        }
    }
    let one = run(&files, 1, 1 << 20);
    let got = one.iter().filter_map(|(_, r)| r.as_ref().ok()).fold((0, 0), |a, s| (a.0 + 1, a.1 + s.moves));
    assert_eq!(got, want);
    assert!(run(&files, 2, 4096) == one);
}

/// `read_input` gives the bytes of one input by the name `for_each_input` gives it: a plain file,
/// a compressed file (decompressed), a member (nested too); an archive's own name or a missing
/// member is an error that says so.
#[test]
fn read_input_by_name() {
    let dir = temp_dir("read-input");
    let zip = dir.join("games.zip");
    std::fs::write(&zip, zip_bytes()).unwrap();
    let tgz = dir.join("games.tar.gz");
    std::fs::write(&tgz, gz(&tar_bytes())).unwrap();
    let plain = dir.join("b.sgf");
    std::fs::write(&plain, GOOD_B).unwrap();
    let one = dir.join("b.sgf.gz");
    std::fs::write(&one, gz(GOOD_B)).unwrap();
    let name = |p: &Path, m: &str| format!("{}{m}", p.display());
    assert_eq!(kifu::stream::read_input(&name(&plain, "")).unwrap(), GOOD_B);
    assert_eq!(kifu::stream::read_input(&name(&one, "")).unwrap(), GOOD_B);
    for archive in [&zip, &tgz] {
        assert_eq!(kifu::stream::read_input(&name(archive, "!a.sgf")).unwrap(), GOOD_A);
        assert_eq!(kifu::stream::read_input(&name(archive, "!sub/b.sgf")).unwrap(), GOOD_B);
        // A compressed member inside an archive is decompressed under the member's own name.
        assert_eq!(kifu::stream::read_input(&name(archive, "!sub/c.sgf.gz")).unwrap(), GOOD_B);
        let e = kifu::stream::read_input(&name(archive, "")).unwrap_err();
        assert!(e.message().contains("is an archive"), "{e}");
        let e = kifu::stream::read_input(&name(archive, "!nope.sgf")).unwrap_err();
        assert_eq!((e.kind(), e.message()), (ErrorKind::Io, "no such archive member"));
    }
    // What for_each_input names, read_input finds.
    let mut names = Vec::new();
    kifu::stream::for_each_input([&zip], |n, _| names.push(n.to_owned()));
    assert_eq!(names.len(), members().len());
    for n in &names {
        assert!(kifu::stream::read_input(n).is_ok(), "{n}");
    }
    assert!(kifu::stream::read_input(&name(&dir, "/missing.sgf")).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `walk` gives `Path` order (by component) without sorting whole paths, and a symbolic link
/// cycle ends.
#[test]
fn walk_order_and_link_cycles() {
    let dir = temp_dir("walk");
    for d in ["a", "a/b", "a-b", "a.x", "Z", "a/b/c"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    for f in ["a.sgf", "a/x.sgf", "a/b.sgf", "a/b/c/d.sgf", "a-b/y.sgf", "a.x/z.sgf", "Z/1.sgf", "b", "a0"] {
        std::fs::write(dir.join(f), "(;)").unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(&dir, dir.join("a/b/loop")).unwrap();
    let (files, errors) = kifu::stream::walk(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    let mut sorted: Vec<PathBuf> = files.iter().filter(|p| !p.to_string_lossy().contains("loop")).cloned().collect();
    sorted.sort();
    let direct: Vec<PathBuf> = files.iter().filter(|p| !p.to_string_lossy().contains("loop")).cloned().collect();
    assert_eq!(direct, sorted);
    assert_eq!(direct.len(), 9);
    // The link leads back to a directory walked already: not followed, and the walk ends.
    assert_eq!(files.len(), 9, "{files:?}");
    // A link to a directory outside is followed.
    #[cfg(unix)]
    {
        let outside = temp_dir("walk-outside");
        std::fs::write(outside.join("o.sgf"), "(;)").unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        let (files, _) = kifu::stream::walk(&dir);
        assert!(files.contains(&dir.join("link/o.sgf")) && files.len() == 10, "{files:?}");
        let _ = std::fs::remove_dir_all(&outside);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files around the sniffed head's length (a file shorter than it is read to the size its `stat`
/// gave, with no read to find its end) and an empty file: every byte reaches the reader, through
/// `for_each_input` and `read_games` alike.
#[test]
fn files_around_the_head_length_are_read_whole() {
    let dir = temp_dir("head-length");
    let n = kifu::detect::SNIFF_LEN;
    let mut expect = Vec::new();
    for len in [n - 1, n, n + 1, 3 * n] {
        // One game, its comment padding the file to `len` bytes.
        let pad = len - "(;GM[1]C[];B[aa])".len();
        let text = format!("(;GM[1]C[{}];B[aa])", "x".repeat(pad));
        assert_eq!(text.len(), len);
        let path = dir.join(format!("f{len:05}.sgf"));
        std::fs::write(&path, &text).unwrap();
        expect.push((path.display().to_string(), text.into_bytes()));
    }
    std::fs::write(dir.join("g-empty.sgf"), "").unwrap();
    let mut seen = Vec::new();
    kifu::stream::for_each_input([&dir], |name, input| {
        let mut bytes = Vec::new();
        if let Ok(mut input) = input {
            std::io::Read::read_to_end(&mut input.reader, &mut bytes).unwrap();
        }
        seen.push((name.to_string(), bytes));
    });
    let empty = seen.pop().unwrap();
    assert_eq!((empty.0.ends_with("g-empty.sgf"), empty.1.len()), (true, 0));
    assert_eq!(seen, expect);
    for threads in [1, 2] {
        let out = run(std::slice::from_ref(&dir), threads, 1 << 20);
        let moves: Vec<u32> = out.iter().filter_map(|(_, r)| r.as_ref().ok().map(|s| s.moves)).collect();
        assert_eq!(moves, [1, 1, 1, 1], "{out:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A compressed file found by a walk whose games make more than `Options::whole`: the worker
/// that opens it learns so only by reading, then cuts it and spreads its games over the pool:
/// the same games in the same order on one, two and three threads.
#[test]
fn a_large_compressed_walked_file_is_spread() {
    let dir = temp_dir("spread-gz");
    let mut big = Vec::new();
    for i in 0..400 {
        big.extend_from_slice(format!("(;GM[1]C[game {i}];B[aa];W[bb])\n").as_bytes());
    }
    std::fs::write(dir.join("a.sgf"), GOOD_A).unwrap();
    std::fs::write(dir.join("b.sgf.gz"), gz(&big)).unwrap();
    std::fs::write(dir.join("c.sgf"), GOOD_B).unwrap();
    let run = |threads: usize| {
        let options = Options { threads, whole: 2000, batch_bytes: 500, ..Options::default() };
        let mut out = Vec::new();
        read_games([&dir], &options, summarise, |name, r| out.push((name.to_string(), r.map_err(|e| e.kind()))));
        out
    };
    let one = run(1);
    assert_eq!(one.iter().filter(|(n, _)| n.ends_with("b.sgf.gz")).count(), 400, "cut into games");
    assert_eq!(one.len(), 402);
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);
    std::fs::remove_dir_all(&dir).unwrap();
}
