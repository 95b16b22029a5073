//! Archives and compressed streams added to the inputs: 7z (solid blocks, decoded once), zstd and
//! tar inside zstd or xz read the same games and moves as the loose files; truncated and corrupt
//! ones report the member and go on; decompression bombs stop at
//! `kifu::stream::inputs::MAX_EXPANSION` with an error that names the member.
//!
//! The archives are built here: 7z with sevenz-rust2's writer (LZMA2; `push_archive_entries`
//! makes one solid block of many members), zstd with the zstd crate.
#![cfg(feature = "compression")]

mod common;

use kifu::stream::{self, inputs::EXPANSION_ALLOWANCE, inputs::MAX_EXPANSION, Splitter as _};
use kifu::{Config, ErrorKind, Event, EventSource, Move};
use sevenz_rust2::{encoder_options::Lzma2Options, ArchiveEntry, ArchiveWriter, SourceReader};
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

/// One game as read: its offset, its Go moves, the kind of the error that ended it.
type GameSeen = (u64, Vec<(kifu::Color, Option<(u8, u8)>)>, Option<ErrorKind>);

/// What reading one input gave: its games, or the error met opening or reading it.
#[derive(Debug, PartialEq)]
enum Seen {
    Games(Vec<GameSeen>),
    /// `format: None`: not a game record.
    Other,
    /// An error opening the input, or an I/O error while splitting it (after the games before it).
    Failed(Vec<GameSeen>, ErrorKind, String),
}

/// Every input under `paths`, read through the streams layer, in order: (name, what was seen).
fn read(paths: &[PathBuf]) -> Vec<(String, Seen)> {
    let mut out = Vec::new();
    stream::for_each_input(paths, |name, input| {
        let seen = match input {
            Err(e) => Seen::Failed(Vec::new(), e.kind(), e.to_string()),
            Ok(input) => match input.format {
                None => Seen::Other,
                Some(format) => {
                    let config = Config::default();
                    let mut split = stream::splitter(format, input.reader, config);
                    let mut games = Vec::new();
                    let mut failed = None;
                    while let Some(chunk) = split.next_game() {
                        let chunk = match chunk {
                            Ok(c) => c,
                            Err(e) if e.kind() == ErrorKind::Io => {
                                failed = Some((e.kind(), e.to_string()));
                                break;
                            }
                            Err(e) => {
                                games.push((e.offset(), Vec::new(), Some(e.kind())));
                                continue;
                            }
                        };
                        let mut moves = Vec::new();
                        let mut error = None;
                        let mut reader = stream::read_chunk(format, &chunk, config);
                        while let Some(ev) = reader.next_event() {
                            match ev {
                                Ok(Event::Move(Move::Go { color, point })) => {
                                    moves.push((color, point.map(|p| (p.x, p.y))))
                                }
                                Ok(_) => {}
                                Err(e) => {
                                    error = Some(e.kind());
                                    break;
                                }
                            }
                        }
                        games.push((chunk.offset, moves, error));
                    }
                    match failed {
                        Some((kind, message)) => Seen::Failed(games, kind, message),
                        None => Seen::Games(games),
                    }
                }
            },
        };
        out.push((name.to_owned(), seen));
    });
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-archives-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const HAND_A: &[u8] = b"(;GM[1]FF[4]SZ[19]PB[Black]PW[White];B[pd];W[dp];B[pp];W[dd])\n";
const HAND_B: &[u8] = b"(;GM[1]SZ[9];B[ee](;W[ce];B[gc])(;W[gg]))\n(;GM[1];B[aa];W[tt])";
/// `n` games of 60 moves each, the moves drawn from a fixed pseudo-random sequence (so that
/// they compress as real games do, about 4 times).
fn varied(n: usize) -> Vec<u8> {
    let mut rng = common::rng::XorShift::new(n as u64);
    let mut out = Vec::new();
    for _ in 0..n {
        out.extend_from_slice(b"(;GM[1]SZ[19]");
        for i in 0..60 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let (x, y) = (b'a' + (rng.next() % 19) as u8, b'a' + (rng.next() % 19) as u8);
            out.extend_from_slice(format!(";{c}[{}{}]", x as char, y as char).as_bytes());
        }
        out.extend_from_slice(b")\n");
    }
    out
}

const HAND_BROKEN: &[u8] = b"(;GM[1];B[aa])\n(;GM[1];B[bb]C[this comment never ends";

/// The games every archive holds, as (relative name, bytes), in order: hand-written ones, then
/// Fox's games and AlphaGo Zero's from the corpus (when it is there).
fn games() -> Vec<(String, Vec<u8>)> {
    let mut g = vec![
        ("hand/a.sgf".to_owned(), HAND_A.to_vec()),
        ("hand/b.sgf".to_owned(), HAND_B.to_vec()),
        ("hand/broken.sgf".to_owned(), HAND_BROKEN.to_vec()),
        ("hand/readme.txt".to_owned(), b"Games from the Fox server.\n".to_vec()),
    ];
    for sub in ["CGI_Fox_Go_Server", "AlphaGo_Zero"] {
        let Some(dir) = common::corpus_dir(&format!("sgf/real-ai/{sub}")) else { continue };
        let (files, _) = stream::walk(&dir);
        for file in files {
            let rel = file.strip_prefix(&dir).unwrap().to_str().unwrap().replace('\\', "/");
            g.push((format!("{sub}/{rel}"), std::fs::read(&file).unwrap()));
        }
    }
    g
}

/// The games written as loose files under `dir`, in the walk's order.
fn loose(dir: &Path, games: &[(String, Vec<u8>)]) -> PathBuf {
    let root = dir.join("loose");
    for (name, bytes) in games {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root
}

/// A 7z archive of `games`: the first half in one solid block, the next ones in a second solid
/// block, the last three one block each (non-solid), then a directory and an empty file.
fn sevenz(games: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    w.set_content_methods(vec![Lzma2Options::from_level(1).into()]);
    let n = games.len();
    let (solid, single) = games.split_at(n - 3.min(n));
    let (first, second) = solid.split_at(solid.len() / 2);
    for block in [first, second] {
        if block.is_empty() {
            continue;
        }
        let entries = block.iter().map(|(name, _)| ArchiveEntry::new_file(name)).collect();
        let readers = block.iter().map(|(_, bytes)| SourceReader::new(&bytes[..])).collect();
        w.push_archive_entries(entries, readers).unwrap();
    }
    for (name, bytes) in single {
        w.push_archive_entry(ArchiveEntry::new_file(name), Some(&bytes[..])).unwrap();
    }
    w.push_archive_entry::<&[u8]>(ArchiveEntry::new_directory("empty-dir"), None).unwrap();
    w.push_archive_entry::<&[u8]>(ArchiveEntry::new_file("empty.sgf"), None).unwrap();
    w.finish().unwrap().into_inner()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn tar(games: &[(String, Vec<u8>)]) -> Vec<u8> {
    let members: Vec<(&str, Vec<u8>)> = games.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    common::archive::tar_of(&members)
}

/// `seen` with each name's `prefix` taken off (and the empty file and readme left out).
fn relative(seen: Vec<(String, Seen)>, prefix: &str) -> Vec<(String, Seen)> {
    seen.into_iter()
        .map(|(n, s)| (n.strip_prefix(prefix).unwrap_or_else(|| panic!("{n} not under {prefix}")).to_owned(), s))
        .filter(|(n, _)| n != "empty.sgf")
        .collect()
}

#[test]
fn sevenz_tar_zst_tar_xz_and_zst_read_as_the_loose_files() {
    let dir = temp_dir("same");
    let games = games();
    let root = loose(&dir, &games);
    // The loose files, in the walk's (sorted) order; archives hold them in `games()` order.
    let want = {
        let mut w = relative(read(std::slice::from_ref(&root)), &format!("{}/", root.display()));
        let order: Vec<&String> = games.iter().map(|(n, _)| n).collect();
        w.sort_by_key(|(n, _)| order.iter().position(|o| *o == n).unwrap());
        w
    };
    assert_eq!(want.len(), games.len());
    let moves: usize = want
        .iter()
        .map(|(_, s)| match s {
            Seen::Games(g) => g.iter().map(|g| g.1.len()).sum(),
            _ => 0,
        })
        .sum();
    assert!(moves >= 13, "{moves} moves");
    assert!(matches!(&want[2].1, Seen::Games(g) if g.len() == 2 && g[1].2 == Some(ErrorKind::UnexpectedEof)));
    assert_eq!(want[3].1, Seen::Other);

    let archive_7z = dir.join("fox.7z");
    std::fs::write(&archive_7z, sevenz(&games)).unwrap();
    let tar_zst = dir.join("fox.tar.zst");
    std::fs::write(&tar_zst, zstd(&tar(&games))).unwrap();
    let tar_xz = dir.join("fox.tar.xz");
    std::fs::write(&tar_xz, xz(&tar(&games))).unwrap();
    // Content, not the name, says what a file is: a 7z inside zstd, read from memory.
    let in_zst = dir.join("fox.bin");
    std::fs::write(&in_zst, zstd(&sevenz(&games))).unwrap();
    for archive in [&archive_7z, &tar_zst, &tar_xz, &in_zst] {
        let got = relative(read(std::slice::from_ref(archive)), &format!("{}!", archive.display()));
        assert!(got == want, "{} reads otherwise than the loose files", archive.display());
    }
    // The empty file is a member too (with no game).
    let names: Vec<String> = read(std::slice::from_ref(&archive_7z)).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.last().unwrap(), &format!("{}!empty.sgf", archive_7z.display()));
    assert!(!names.iter().any(|n| n.ends_with("empty-dir")));

    // A .zst alone is one stream: two games files concatenated and compressed as two frames.
    let one = dir.join("two.sgf.zst");
    std::fs::write(&one, [zstd(HAND_A), zstd(HAND_B)].concat()).unwrap();
    let got = read(std::slice::from_ref(&one));
    let plain = dir.join("two.sgf");
    std::fs::write(&plain, [HAND_A, HAND_B].concat()).unwrap();
    let want = read(std::slice::from_ref(&plain));
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].1, want[0].1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_member_is_read_by_name_from_a_solid_block() {
    let dir = temp_dir("by-name");
    let games = games();
    let archive = dir.join("fox.7z");
    std::fs::write(&archive, sevenz(&games)).unwrap();
    for (name, bytes) in [&games[1], &games[games.len() / 2], &games[games.len() - 1]] {
        let got = stream::read_input(&format!("{}!{name}", archive.display())).unwrap();
        assert!(got == *bytes, "{name}");
    }
    let e = stream::read_input(&format!("{}!no/such.sgf", archive.display())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of `seen`, for the inputs whose name ends with `suffix`.
fn games_of<'s>(seen: &'s [(String, Seen)], suffix: &str) -> &'s Seen {
    &seen.iter().find(|(n, _)| n.ends_with(suffix)).unwrap_or_else(|| panic!("no {suffix}")).1
}

#[test]
fn truncated_zst_and_tar_zst_report_the_member_and_go_on() {
    let dir = temp_dir("truncated-zst");
    let many = varied(2000);
    let cut = dir.join("a.sgf.zst");
    let whole = zstd(&many);
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let tar_cut = dir.join("b.tar.zst");
    let games = vec![("x.sgf".to_owned(), many.clone()), ("y.sgf".to_owned(), HAND_B.to_vec())];
    let whole = zstd(&tar(&games));
    std::fs::write(&tar_cut, &whole[..whole.len() / 2]).unwrap();
    let next = dir.join("c.sgf");
    std::fs::write(&next, HAND_B).unwrap();

    let seen = read(&[cut.clone(), tar_cut.clone(), next.clone()]);
    // The first games of the cut stream are read; then an I/O error names the input.
    match games_of(&seen, "a.sgf.zst") {
        Seen::Failed(games, ErrorKind::Io, _) => {
            assert!(games.len() > 10 && games.len() < 2000, "{} games", games.len());
            assert!(games.iter().all(|g| g.1.len() == 60 && g.2.is_none()));
        }
        other => panic!("{other:?}"),
    }
    // In the tar, the member being read reports the error.
    assert!(matches!(games_of(&seen, "b.tar.zst!x.sgf"), Seen::Failed(g, ErrorKind::Io, _) if !g.is_empty()));
    // And the next input is read.
    assert_eq!(seen.last().unwrap().0, next.display().to_string());
    assert!(matches!(&seen.last().unwrap().1, Seen::Games(g) if g.len() == 2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_or_corrupt_7z_reports_the_member_and_goes_on() {
    let dir = temp_dir("truncated-7z");
    // Two solid blocks of 40 members each, then one member alone.
    let member = |i: usize| (format!("g{i:03}.sgf"), varied(5 + i));
    let games: Vec<(String, Vec<u8>)> = (0..83).map(member).collect();
    let bytes = sevenz(&games);
    let next = dir.join("next.sgf");
    std::fs::write(&next, HAND_B).unwrap();

    // Cut: the header (at the end) is lost; the archive is reported, the next input read.
    let cut = dir.join("cut.7z");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let seen = read(&[cut.clone(), next.clone()]);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(matches!(&seen[0].1, Seen::Failed(g, ErrorKind::Io, m) if g.is_empty() && m.contains("7z")), "{seen:?}");
    assert!(matches!(&seen[1].1, Seen::Games(g) if g.len() == 2));

    // A byte changed in the first solid block: a member of that block fails (by its data or its
    // checksum), each later member of the block is reported not read, the next blocks are read.
    let mut bad = bytes.clone();
    bad[32 + 200] ^= 0x55;
    let corrupt = dir.join("corrupt.7z");
    std::fs::write(&corrupt, &bad).unwrap();
    let seen = read(&[corrupt.clone(), next.clone()]);
    let failed = seen.iter().position(|(_, s)| matches!(s, Seen::Failed(..))).expect("a member fails");
    assert!(failed < 40, "{failed}");
    let not_read = |s: &Seen| matches!(s, Seen::Failed(g, ErrorKind::Io, m) if g.is_empty() && m.contains("not read"));
    let first_block_rest: Vec<&(String, Seen)> =
        seen.iter().skip(failed + 1).take_while(|(n, _)| n.rsplit('!').next().unwrap() < "g040.sgf").collect();
    assert!(!first_block_rest.is_empty());
    for (n, s) in &first_block_rest {
        assert!(not_read(s) || n.ends_with(&format!("g{:03}.sgf", failed)), "{n}: {s:?} after the failed member");
    }
    // Every member of the second block, the single one and the next input are read whole.
    for i in 41..83 {
        let want_moves = 60 * (5 + i);
        match games_of(&seen, &format!("!g{i:03}.sgf")) {
            Seen::Games(g) => assert_eq!(g.iter().map(|g| g.1.len()).sum::<usize>(), want_moves, "g{i:03}"),
            other => panic!("g{i:03}: {other:?}"),
        }
    }
    assert!(matches!(&seen.last().unwrap().1, Seen::Games(g) if g.len() == 2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader of `len` bytes: `game` again and again (cut at the end).
struct Repeat {
    game: &'static [u8],
    at: usize,
    left: u64,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.left > 0 {
            let take = (buf.len() - n).min(self.game.len() - self.at).min(self.left as usize);
            buf[n..n + take].copy_from_slice(&self.game[self.at..self.at + take]);
            n += take;
            self.left -= take as u64;
            self.at = (self.at + take) % self.game.len();
        }
        Ok(n)
    }
}

#[test]
fn a_zst_bomb_stops_at_the_limit_naming_the_input() {
    let dir = temp_dir("bomb-zst");
    // A gigabyte of one game again and again: about 40 KB compressed.
    let mut source = Repeat { game: HAND_A, at: 0, left: 1 << 30 };
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
    std::io::copy(&mut source, &mut e).unwrap();
    let bomb = e.finish().unwrap();
    assert!((bomb.len() as u64) < (1 << 30) / MAX_EXPANSION / 10, "{} bytes", bomb.len());
    let path = dir.join("bomb.sgf.zst");
    std::fs::write(&path, &bomb).unwrap();
    let seen = read(std::slice::from_ref(&path));
    match &seen[0].1 {
        Seen::Failed(games, ErrorKind::Io, message) => {
            // The games before the limit are read; reading stops near the limit.
            let limit = EXPANSION_ALLOWANCE + MAX_EXPANSION * bomb.len() as u64;
            let read = games.len() as u64 * HAND_A.len() as u64;
            assert!(read <= limit && read > EXPANSION_ALLOWANCE / 2, "{read} bytes of games, limit {limit}");
            assert!(message.contains("bomb.sgf.zst") && message.contains("decompression bomb"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_7z_bomb_stops_at_the_limit_naming_the_member() {
    let dir = temp_dir("bomb-7z");
    // 96 MiB of zeros (not a game record: nobody reads it, the archive reader reads past it) in
    // one solid block with a game after it, which is then not read; a game alone after them.
    let zeros = Repeat { game: &[0; 4096], at: 0, left: 96 << 20 };
    let mut w = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    w.set_content_methods(vec![Lzma2Options::from_level(1).into()]);
    let entries = vec![ArchiveEntry::new_file("zeros.sgf"), ArchiveEntry::new_file("after.sgf")];
    let readers: Vec<SourceReader<Box<dyn Read>>> =
        vec![SourceReader::new(Box::new(zeros)), SourceReader::new(Box::new(HAND_A))];
    w.push_archive_entries(entries, readers).unwrap();
    w.push_archive_entry(ArchiveEntry::new_file("alone.sgf"), Some(HAND_B)).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    assert!(((96 << 20) as u64) > EXPANSION_ALLOWANCE + MAX_EXPANSION * bytes.len() as u64, "{}", bytes.len());
    let path = dir.join("bomb.7z");
    std::fs::write(&path, &bytes).unwrap();
    let seen = read(std::slice::from_ref(&path));
    let name = |m: &str| format!("{}!{m}", path.display());
    assert_eq!(seen[0], (name("zeros.sgf"), Seen::Other));
    match &seen[1] {
        (n, Seen::Failed(g, ErrorKind::Io, message)) if *n == name("zeros.sgf") && g.is_empty() => {
            assert!(message.contains("zeros.sgf") && message.contains("decompression bomb"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&seen[2], (n, Seen::Failed(_, ErrorKind::Io, m)) if *n == name("after.sgf") && m.contains("not read"))
    );
    // The member alone is its own block, but the archive's budget is spent: it fails too.
    assert_eq!(seen.len(), 4, "{seen:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `seen`'s names with `prefix` taken off, sorted by name (7-Zip orders members its own way).
fn by_name(seen: Vec<(String, Seen)>, prefix: &str) -> Vec<(String, Seen)> {
    let mut s = relative(seen, prefix);
    s.sort_by(|a, b| a.0.cmp(&b.0));
    s
}

/// An archive made by 7-Zip 25.01 itself (`7zz a -t7z -ms=on -mx=9`, one solid LZMA2 block) of
/// the repository's samples/ reads as the loose samples do.
#[test]
fn the_samples_archived_by_7zip_read_as_the_loose_samples() {
    let root = common::workspace_root();
    let samples = root.join("samples");
    let archive = root.join("tests/data/samples-7zip.7z");
    let want = by_name(read(std::slice::from_ref(&samples)), &format!("{}/", samples.display()));
    let got = by_name(read(std::slice::from_ref(&archive)), &format!("{}!", archive.display()));
    assert!(want.len() >= 15, "{} samples", want.len());
    assert_eq!(got.iter().map(|(n, _)| n).collect::<Vec<_>>(), want.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for ((name, g), (_, w)) in got.iter().zip(&want) {
        assert_eq!(g, w, "{name}");
    }
}

/// 7-Zip's program (`7zz`, `7z` or `7za`), if one is on the PATH; under `CI=true` its absence is
/// a failure (`.ci/run` installs Debian's 7zip).
fn seven_zip() -> Option<&'static str> {
    let found = ["7zz", "7z", "7za"].into_iter().find(|exe| {
        std::process::Command::new(exe).arg("i").stdout(std::process::Stdio::null()).status().is_ok_and(|s| s.success())
    });
    if found.is_none() {
        assert!(std::env::var("CI").map(|v| v != "true").unwrap_or(true), "CI=true but 7-Zip (7zz) is not installed");
        eprintln!("skipped: 7-Zip (7zz, 7z or 7za) is not on the PATH");
    }
    found
}

/// Archives made by 7-Zip itself, with each of its methods and solid modes (one solid block,
/// none, a block every 3 files, BCJ2's four streams), read as the loose files: Fox's archives are
/// 7-Zip's, not sevenz-rust2's. Deflate64, which the decoder lacks, is reported for each
/// member, naming the method, and reading goes on.
#[test]
fn archives_made_by_7zip_read_as_the_loose_files() {
    let Some(exe) = seven_zip() else { return };
    let dir = temp_dir("7zip");
    let games = games();
    let root = loose(&dir, &games);
    let want = by_name(read(std::slice::from_ref(&root)), &format!("{}/", root.display()));
    assert_eq!(want.len(), games.len());
    let options: [&[&str]; 10] = [
        &["-ms=on", "-mx=9"],
        &["-ms=off"],
        &["-ms=3f"],
        &["-m0=LZMA"],
        &["-m0=PPMd"],
        &["-m0=BZip2"],
        &["-m0=Deflate"],
        &["-m0=Copy"],
        &["-mf=BCJ2"],
        &["-m0=Deflate64"],
    ];
    for (i, opts) in options.iter().enumerate() {
        let archive = dir.join(format!("made-{i}.7z"));
        let status = std::process::Command::new(exe)
            .args(["a", "-t7z", "-bd", "-bso0"])
            .args(*opts)
            .arg(&archive)
            .arg(".")
            .current_dir(&root)
            .status()
            .unwrap();
        assert!(status.success(), "7-Zip {opts:?}");
        let got = by_name(read(std::slice::from_ref(&archive)), &format!("{}!", archive.display()));
        assert_eq!(got.len(), want.len(), "{opts:?}");
        if opts == &["-m0=Deflate64"] {
            for (name, seen) in &got {
                assert!(
                    matches!(seen, Seen::Failed(g, ErrorKind::Io, m) if g.is_empty() && m.contains("DEFLATE64")),
                    "{name}: {seen:?}"
                );
            }
            continue;
        }
        for ((name, g), (_, w)) in got.iter().zip(&want) {
            assert!(g == w, "{opts:?} {name}: {g:?} against {w:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
