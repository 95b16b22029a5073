//! The SGF splitter and the stream adapter against the slice reader: the same events, offsets,
//! lines and columns, whatever the reads return; plus skip_game / skip_variation.

mod common;

use common::dribble::Dribble;
use kifu::stream::{self, Shifted};
use kifu::{Config, ErrorKind, Event, EventSource, Format, Position, WarningKind};
use std::io::Read;

/// One item of a stream, with the line:column of warnings.
#[derive(Debug, PartialEq)]
enum Item<'a> {
    Ev(Event<'a>, Option<Position>),
    Err(ErrorKind, Position),
}

/// The slice reader's items, up to and including the first error.
fn slice_items(bytes: &[u8], config: Config) -> Vec<Item<'_>> {
    let r = kifu::sgf::Reader::with_config(bytes, config);
    let mut out = Vec::new();
    let mut positions = Vec::new();
    for item in r {
        match item {
            Ok(ev) => {
                if let Event::Warning(w) = ev {
                    positions.push((out.len(), w.offset));
                }
                out.push(Item::Ev(ev, None));
            }
            Err(e) => {
                out.push(Item::Err(e.kind(), e.position()));
                break;
            }
        }
    }
    let mut lines = kifu::LineIndex::new();
    for (i, off) in positions {
        if let Item::Ev(_, p) = &mut out[i] {
            *p = Some(lines.locate(bytes, off));
        }
    }
    out
}

/// Reads `read` through the splitter and checks each item against `expect`, stopping at the
/// first error; returns the number of items compared. Also checks each chunk's line and column.
fn check_stream(read: impl Read, expect: &[Item<'_>], whole: &[u8], config: Config, what: &str) -> usize {
    let mut split = kifu::sgf::Splitter::new(read, config);
    let mut i = 0;
    let mut lines = kifu::LineIndex::new();
    'chunks: while let Some(chunk) = split.next_game() {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                assert_eq!(expect.get(i), Some(&Item::Err(e.kind(), e.position())), "{what}: item {i}");
                i += 1;
                break;
            }
        };
        if !chunk.bytes.is_empty() {
            let p = lines.locate(whole, chunk.offset);
            assert_eq!((chunk.line, chunk.column), (p.line, p.column), "{what}: chunk at {}", chunk.offset);
            assert_eq!(chunk.bytes, &whole[chunk.offset as usize..chunk.offset as usize + chunk.bytes.len()]);
        }
        let junk = chunk.junk;
        let mut events = Shifted::new(
            match chunk.context.charset {
                Some(c) => kifu::sgf::Reader::with_config(chunk.bytes, config).with_charset(c),
                None => kifu::sgf::Reader::with_config(chunk.bytes, config),
            },
            &chunk,
            config,
        );
        loop {
            let warning = match events.next_event() {
                None => break,
                Some(Err(e)) => {
                    let mut got = Item::Err(e.kind(), e.position());
                    // The one strict-mode difference: a game cut short by `(;GM[` ends its chunk,
                    // so the chunk's reader reports the end of input where the slice reader
                    // reports the truncation (same position).
                    if let (Some(Item::Err(ErrorKind::Strict(WarningKind::Truncated), p)), ErrorKind::UnexpectedEof) =
                        (expect.get(i), e.kind())
                    {
                        if *p == e.position() {
                            got = Item::Err(ErrorKind::Strict(WarningKind::Truncated), *p);
                        }
                    }
                    assert_eq!(expect.get(i), Some(&got), "{what}: item {i}");
                    i += 1;
                    break 'chunks;
                }
                Some(Ok(ev)) => {
                    match expect.get(i) {
                        Some(Item::Ev(want, _)) => assert_eq!(*want, ev, "{what}: item {i}"),
                        other => panic!("{what}: item {i}: expected {other:?}, got {ev:?}"),
                    }
                    match ev {
                        Event::Warning(w) => Some(w.offset),
                        _ => None,
                    }
                }
            };
            if let Some(off) = warning {
                // The junk before the chunk (or after the last game) is located too.
                let pos = events.locate(off);
                if off < chunk.offset || chunk.bytes.is_empty() {
                    assert_eq!(Some(pos), junk.map(|j| j.1), "{what}: a warning before the chunk is its junk");
                }
                if let Some(Item::Ev(_, want)) = expect.get(i) {
                    assert_eq!(*want, Some(pos), "{what}: position of item {i}");
                }
            }
            i += 1;
        }
    }
    assert_eq!(i, expect.len(), "{what}: the stream ended early");
    i
}

/// Checks `bytes` through the splitter with several read patterns, lenient and strict (strict up
/// to the first error).
fn check(bytes: &[u8], what: &str) {
    for config in [Config::lenient(), Config::strict()] {
        let expect = slice_items(bytes, config);
        check_stream(bytes, &expect, bytes, config, what);
        for (seed, max) in [(1, 1), (7, 7), (99, 3)] {
            check_stream(Dribble::new(bytes, seed, max), &expect, bytes, config, what);
        }
    }
}

#[test]
fn hand_written_cases() {
    let cases: &[(&str, &[u8])] = &[
        ("empty", b""),
        ("only ws", b" \n\r\n "),
        ("only junk", b"hello world"),
        ("one game", b"(;GM[1]FF[4]SZ[9];B[aa];W[bb])"),
        ("collection", b"(;GM[1];B[aa])\n(;GM[1];W[bb])\r\n(;GM[1];B[cc])\n"),
        ("junk before, between, after", b"From: x\n(;B[aa])\nmail\n(;W[bb])\n-- \nsig"),
        ("stray parens between", b"(;B[aa]) () ( x (;W[bb]) ) )"),
        ("game start without semicolon", b"(B[aa];W[bb]) (\n  PB [x];W[cc])"),
        ("paren not a game start", b"(x) (  \n  ) (;B[aa])"),
        ("variations", b"(;GM[1];B[aa](;W[bb];B[cc])(;W[cc](;B[dd])(;B[ee])))"),
        ("values with parens and escapes", b"(;C[a (;GM[1] ) b \\] c\\\\];B[aa]C[)])(;C[x])"),
        ("truncated by new game", b"(;GM[1];B[aa](;W[bb]\n(;GM[1];B[cc])(;FF[4]C[x](;B[dd])"),
        ("missing close paren at eof", b"(;GM[1];B[aa](;W[bb];B[cc]"),
        ("unterminated value", b"(;GM[1];B[aa])(;C[never ends"),
        ("utf-8 bom", b"\xEF\xBB\xBF(;GM[1]C[\xC3\xA9])(;C[\xE9])"),
        ("utf-16 bom", b"\xFF\xFE(\x00;\x00)\x00"),
        ("cr line ends", b"junk\r(;GM[1]\r;B[aa]\rC[x\r\ny])\r\r\n(;B[bb]\n;W[zz])\rjunk"),
        ("crlf between", b"\r\n\r\n(;B[aa])\r\n\r\nx\r\n(;B[bb])"),
        ("shift_jis trail backslash", b"(;CA[Shift_JIS]C[\x83\\];B[aa])(;CA[SJIS]C[\x83\\]];W[bb])(;C[ok])"),
        ("detected shift_jis", b"(;PB[\x8e\x9b\x90\xec\x83\\]C[\x83\x5c];B[aa])(;C[x])"),
        ("unknown charset", b"(;CA[klingon]C[\xff\xfe];B[aa])(;C[x])"),
        ("truncated no ca non-utf8", b"(;PB[\xe9\xe8](;B[aa]\n(;GM[1]C[\x83\\]];B[bb]))"),
        ("lowercase idents and junk inside", b"(;GaMe[1]AddBlack[aa][bb] ?? ;B[cc]W)(;[x]B[dd])"),
        ("bad points and sizes", b"(;SZ[5];B[zz];AB[aa:ee][ba:ab];SZ[99];W[tt])"),
        ("node after variation", b"(;B[aa](;W[bb]);B[cc])"),
    ];
    for (what, bytes) in cases {
        check(bytes, what);
    }
}

#[test]
fn large_game_grows_the_window() {
    let mut bytes = b"junk (;GM[1]C[".to_vec();
    for i in 0..300_000u32 {
        bytes.push(b"ab\\]\r\n(;)"[(i % 9) as usize]);
    }
    bytes.extend_from_slice(b"];B[aa])\n(;GM[1];W[bb])");
    let expect = slice_items(&bytes, Config::default());
    assert_eq!(check_stream(&bytes[..], &expect, &bytes, Config::default(), "large"), expect.len());
    check_stream(Dribble::new(&bytes, 5, 7), &expect, &bytes, Config::default(), "large dribble");
    let mut split = kifu::sgf::Splitter::new(&bytes[..], Config::default());
    while split.next_game().is_some() {}
    assert!(split.window_len() <= bytes.len() * 5 / 4 + 64 * 1024, "window {}", split.window_len());
}

#[test]
fn game_size_limit_resumes() {
    let mut config = Config::default();
    config.limits.max_game_len = 1000;
    let mut bytes = b"(;GM[1];B[aa])".to_vec();
    bytes.extend_from_slice(b"(;GM[1]C[");
    bytes.extend(std::iter::repeat_n(b'x', 200_000));
    bytes.extend_from_slice(b"])(;GM[1];W[bb])");
    let mut split = kifu::sgf::Splitter::new(&bytes[..], config);
    let mut seen = Vec::new();
    while let Some(chunk) = split.next_game() {
        match chunk {
            Ok(c) => seen.push(Ok(c.offset)),
            Err(e) => seen.push(Err((e.kind(), e.offset()))),
        }
    }
    assert_eq!(seen[0], Ok(0));
    assert_eq!(seen[1], Err((ErrorKind::LimitExceeded(kifu::Limit::GameSize), 14)));
    assert_eq!(*seen.last().unwrap(), Ok(bytes.len() as u64 - 14));
    assert!(split.window_len() < 400_000, "window {}", split.window_len());
}

#[test]
fn junk_warnings_come_with_the_chunk() {
    let bytes = b"xx(;B[aa])yy\n(;W[bb])zz";
    let mut split = kifu::sgf::Splitter::new(&bytes[..], Config::default());
    let mut junk = Vec::new();
    while let Some(chunk) = split.next_game() {
        let c = chunk.unwrap();
        junk.push((c.bytes.len(), c.junk.map(|(k, p)| (k, p.offset, p.line, p.column))));
    }
    assert_eq!(
        junk,
        [
            (8, Some((WarningKind::JunkBeforeGame, 0, 1, 1))),
            (8, Some((WarningKind::JunkBetweenGames, 10, 1, 11))),
            (0, Some((WarningKind::JunkAfterGames, 21, 2, 9))),
        ]
    );
}

#[test]
fn io_error_is_reported_and_ends() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            buf[..14].copy_from_slice(b"(;GM[1];B[aa])");
            Ok(14)
        }
    }
    let mut split = kifu::sgf::Splitter::new(Failing(3), Config::default());
    let mut games = 0;
    let mut errors = 0;
    while let Some(c) = split.next_game() {
        match c {
            Ok(_) => games += 1,
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Io);
                errors += 1;
            }
        }
    }
    assert_eq!((errors, split.next_game().is_none()), (1, true));
    assert!(games <= 3);
}

/// Every SGF file of the corpus folders.
fn corpus_files() -> Option<Vec<std::path::PathBuf>> {
    let dir = common::corpus_dir("sgf")?;
    Some(common::files(&dir, &[".sgf"]))
}

/// The whole SGF corpus through the splitter: every file read whole from a slice-like reader
/// with 64 KiB reads; every 7th file of real-ai and every file of the other folders dribbled
/// 1–7 bytes per read; collections also with reads of 1–4096 bytes. Then all the corpus files
/// concatenated into one stream (with junk between some), dribbled.
#[test]
fn corpus_through_splitter_equals_slice() {
    let Some(files) = corpus_files() else { return };
    let mut total = 0;
    let mut big = Vec::new();
    for (n, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let what = path.display().to_string();
        let expect = slice_items(&bytes, Config::default());
        total += check_stream(&bytes[..], &expect, &bytes, Config::default(), &what);
        let real_ai = what.contains("/real-ai/");
        if !real_ai || n % 7 == 0 {
            check_stream(Dribble::new(&bytes, n as u64, 7), &expect, &bytes, Config::default(), &what);
        }
        if what.contains("/collections/") {
            check_stream(Dribble::new(&bytes, n as u64, 4096), &expect, &bytes, Config::default(), &what);
        }
        if n % 3 == 0 && !bytes.starts_with(&[0xFF]) && !bytes.starts_with(&[0xFE]) && !bytes.starts_with(&[0xEF]) {
            big.extend_from_slice(&bytes);
            if n % 2 == 0 {
                big.extend_from_slice(b"\n-- junk --\n");
            }
        }
    }
    let expect = slice_items(&big, Config::default());
    check_stream(Dribble::new(&big, 42, 7), &expect, &big, Config::default(), "concatenated corpus");
    eprintln!(
        "{} files, {total} items compared; concatenated {} bytes, {} items",
        files.len(),
        big.len(),
        expect.len()
    );
}

/// Games of a slice: each game's items from GameStart to GameEnd (or the error), as strings.
fn games_of(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for item in kifu::sgf::Reader::new(bytes) {
        match item {
            Ok(ev @ Event::GameStart { .. }) => cur = Some(vec![format!("{ev:?}")]),
            Ok(ev @ Event::GameEnd { .. }) => {
                if let Some(mut g) = cur.take() {
                    g.push(format!("{ev:?}"));
                    games.push(g);
                }
            }
            Ok(ev) => {
                if let Some(g) = cur.as_mut() {
                    g.push(format!("{ev:?}"));
                }
            }
            Err(e) => {
                if let Some(mut g) = cur.take() {
                    g.push(format!("{e:?}"));
                    games.push(g);
                }
            }
        }
    }
    games
}

/// Reads with `skip` deciding, at each GameStart (by game index), whether to skip that game. A
/// skipped game is `None`, or the error that `skip_game` returned (as `Some([error])`).
fn games_with_skips(bytes: &[u8], skip: impl Fn(usize) -> bool) -> Vec<Option<Vec<String>>> {
    let mut r = kifu::sgf::Reader::new(bytes);
    let mut games = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    while let Some(item) = r.next_event() {
        let (start, end, text) = match &item {
            Ok(ev @ Event::GameStart { .. }) => (true, false, format!("{ev:?}")),
            Ok(ev @ Event::GameEnd { .. }) => (false, true, format!("{ev:?}")),
            Ok(ev) => (false, false, format!("{ev:?}")),
            Err(e) => (false, true, format!("{e:?}")),
        };
        if start {
            if skip(games.len()) {
                games.push(r.skip_game().err().map(|e| vec![format!("{e:?}")]));
                continue;
            }
            cur = Some(Vec::new());
        }
        if let Some(g) = cur.as_mut() {
            g.push(text);
            if end {
                games.push(cur.take());
            }
        }
    }
    games
}

/// `skip_game` at a game's start, then reading, gives the same following games as reading
/// everything: skipping every other game, and every third, over the corpus.
#[test]
fn skip_game_then_read_equals_read_on_corpus() {
    let Some(files) = corpus_files() else { return };
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let all = games_of(&bytes);
        for modulus in [2, 3] {
            let got = games_with_skips(&bytes, |i| i % modulus == 0);
            // A skipped game that the full read ends with an error (a value the input ends in)
            // gives the same error from `skip_game`.
            let want: Vec<Option<Vec<String>>> = all
                .iter()
                .enumerate()
                .map(|(i, g)| match (i % modulus != 0, g.last()) {
                    (true, _) => Some(g.clone()),
                    (false, Some(e)) if e.starts_with("Error") => Some(vec![e.clone()]),
                    (false, _) => None,
                })
                .collect();
            if got != want {
                mismatches.push(path.display().to_string());
                break;
            }
            checked += got.iter().flatten().count();
        }
    }
    eprintln!("{} files, {checked} games read after skips; mismatches: {mismatches:?}", files.len());
    assert!(mismatches.is_empty(), "skip_game differs from reading on {mismatches:?}");
}

/// Skips, in turn, each of the first `max` variations of `bytes` right after its
/// `VariationStart`, and checks that reading goes on with the events that follow the matching
/// `VariationEnd` in a full read (warnings inside the skipped variation are not returned; nothing
/// else differs). Returns how many variations were skipped.
fn check_skip_variation(bytes: &[u8], config: Config, max: usize, what: &str) -> usize {
    let all: Vec<String> = kifu::sgf::Reader::with_config(bytes, config).map(|i| format!("{i:?}")).collect();
    // The index just after each variation's matching end.
    let mut stack = Vec::new();
    let mut after = std::collections::HashMap::new();
    for (i, s) in all.iter().enumerate() {
        if s.starts_with("Ok(VariationStart") {
            stack.push(i);
        } else if s.starts_with("Ok(VariationEnd") {
            if let Some(start) = stack.pop() {
                after.insert(start, i + 1);
            }
        } else if s.starts_with("Ok(GameEnd") || s.starts_with("Err") {
            // A variation cut short by an error or the game's end: skipping it runs into the
            // same end.
            for start in stack.drain(..) {
                after.insert(start, i);
            }
        }
    }
    let mut sorted: Vec<(usize, usize)> = after.into_iter().collect();
    sorted.sort();
    let mut skipped = 0;
    for (k, &(start, resume)) in sorted.iter().take(max).enumerate() {
        let mut r = kifu::sgf::Reader::with_config(bytes, config);
        let mut got = Vec::new();
        while let Some(item) = r.next_event() {
            got.push(format!("{item:?}"));
            if got.len() == start + 1 {
                if let Err(e) = r.skip_variation() {
                    got.push(format!("{:?}", Err::<(), _>(e)));
                }
            }
        }
        let want: Vec<String> = all[..=start].iter().chain(&all[resume..]).cloned().collect();
        assert_eq!(got, want, "{what}: variation {k} (event {start})");
        skipped += 1;
    }
    skipped
}

/// `skip_variation` right after a `VariationStart` continues with the events that follow the
/// matching `VariationEnd` in a full read.
#[test]
fn skip_variation_equals_read_on_corpus() {
    let Some(files) = corpus_files() else { return };
    let mut skipped = 0;
    for path in files.iter().filter(|p| !p.display().to_string().contains("/real-ai/")) {
        let bytes = std::fs::read(path).unwrap();
        skipped += check_skip_variation(&bytes, Config::default(), 6, &path.display().to_string());
    }
    eprintln!("{skipped} variations skipped");
    assert!(skipped > 50);
}

/// Broken variations: the bracket scan behind `skip_variation` ends each where the event path
/// does, and leaves the reader as the event path would. Fuzz finds: `[])]` is an empty value, a
/// `)` and a stray `]` (the scan once stepped over it as a two-letter value); a value the input
/// ends in is the same error either way; a property after a skipped variation is warned about
/// even when one after an earlier variation was.
#[test]
fn skip_variation_equals_read_on_broken_variations() {
    let cases: [&[u8]; 9] = [
        b"(;B[aa](;W[bb];B[])]C[x])(;W[cc]))",
        b"(;B[aa](;W[bb])C[x](;W[cc])C[y])",
        b"(;B[aa](;W[bb](;B[])]W[cc])(;B[dd]))(;W[ee]))",
        b"(;B[aa](;W[b])]B[cc])(;W[dd]))",
        b"(;([",
        b"(;B[aa](;C[x\\",
        b"(;B[aa](;W[bb])(;C[unterminated",
        b"(;B[aa](;W[bb]",
        b"(;B[aa](;W[bb](;GM[1];B[cc]))",
    ];
    for case in cases {
        let what = String::from_utf8_lossy(case);
        assert!(check_skip_variation(case, Config::default(), usize::MAX, &what) > 0, "{what}");
    }
    // Strict mode: the game's end inside the skipped variation is the event path's error. (Where
    // the variation holds a warning, the event path errs there and the skip does not: the
    // skipped variation's warnings are not returned.)
    for case in [&cases[4], &cases[6], &cases[7], &cases[8]] {
        let what = format!("strict {}", String::from_utf8_lossy(case));
        assert!(check_skip_variation(case, Config::strict(), usize::MAX, &what) > 0, "{what}");
    }
}

#[test]
fn read_chunk_dispatches_by_format() {
    let bytes = b"(;GM[1];B[aa])";
    let mut split = stream::splitter(Format::Sgf, Box::new(&bytes[..]), Config::default());
    assert_eq!(split.format(), Format::Sgf);
    let chunk = split.next_game().unwrap().unwrap();
    let n = {
        let mut r = stream::read_chunk(Format::Sgf, &chunk, Config::default());
        let mut n = 0;
        while let Some(Ok(_)) = r.next_event() {
            n += 1;
        }
        n
    };
    assert_eq!(n, 6);
}

/// Corpus files with bytes flipped, inserted and deleted (xorshift, fixed seed) read through the
/// splitter 1–7 bytes at a time: no panic, and the same items as the slice reader up to the first
/// error.
#[test]
fn mutated_corpus_through_splitter_equals_slice() {
    let Some(files) = corpus_files() else { return };
    let mut rng = common::rng::XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut next = move || rng.next();
    let picked: Vec<_> = files.iter().filter(|p| !p.display().to_string().contains("/real-ai/")).collect();
    let mut cases = 0;
    for path in picked.iter().step_by(3) {
        let original = std::fs::read(path).unwrap();
        if original.is_empty() {
            continue;
        }
        let original = &original[..original.len().min(200_000)];
        for _ in 0..4 {
            let mut bytes = original.to_vec();
            for _ in 0..1 + next() % 8 {
                let at = (next() % bytes.len().max(1) as u64) as usize;
                let special = b"()[];\\\n\r\xEF\xFF\x83";
                let b = if next() % 2 == 0 { special[(next() % special.len() as u64) as usize] } else { next() as u8 };
                match next() % 3 {
                    0 if at < bytes.len() => bytes[at] = b,
                    1 => bytes.insert(at.min(bytes.len()), b),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            let expect = slice_items(&bytes, Config::default());
            check_stream(
                Dribble::new(&bytes, next(), 7),
                &expect,
                &bytes,
                Config::default(),
                &path.display().to_string(),
            );
            cases += 1;
        }
    }
    assert!(cases > 100, "{cases}");
}

/// Fuzz find (split, first byte = read size): a game with an unknown `CA[]` label, not UTF-8,
/// cut short by `(;FF[`: the slice reader detects its charset over bytes past its end; the
/// splitter fixes the same charset in the chunk and carries the unknown-label warning.
#[test]
fn fuzz_unknown_label_in_a_game_cut_short() {
    let input: &[u8] = b"(;GM[1]FF[4]CA[UTF-8]\x0aTM[1800]OT[8 ]PR[\xfbdp]C[\x88\xcd\x8c\xe9 io\x91\xbe]CA[Shift_\x01\
        \x00\x00\x19JI\x01\x10S]PW[\x8eR\x89\xba \x8c`\x8c\xe1] W\x89\x8e\x8c\xbah\x8c\xe1]\x0a;B[pd\
        ]\x0a;\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
        \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
        \xff\xff\xff\xff\xff\xff\xff\xff\x00W\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a;B(;PB[\x88\
        \xe4\x8eR \x97T\x91\xbe]CA[Shift_\x01\x00\x00\x19JIS]PW[\x8eR\x89\xba \x8c`\x8c\xe1]\x0a;B[p\
        d]\x0a;W[dp]C[z\x88\xcd\x8c\xe9 ios fun]*)[pd]0000000000000000000000000000000000000000000000\
        0\x00[d5555555555555555555555555555555000055555\x89\x8e\x8c\xbah\x8c\xe1]\x0a;B[pd[\x88\xcd\
        \x8c\xe9 ]\x0a;W\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a;B(;PB[\x88\xe4\x8eR \x97T\
        \x91\xbe]CA[Shift_\x01\x00\x00\x19JIS]PWios fu(;FF[4]AP[Primiview:3.1]GM[[\x8e\x89R\xba \x8c\
        `\x8c\xe1]\x0a;B[pd]\x0a;W[dp1]SZ[19]C[2\x0a)]PW[\x8eR]C[Gametree 2: game-info\x89";
    check(&input[1..], "fuzz crash b3d1ca49");
    let small = b"(;PB[\xe9t\xe9]CA[klingon]C[\x83\x5c\x83\x5c](;B[aa]\n(;GM[1]C[\x88\xe4 \x8e\x52 \x97\x54]))";
    check(small, "unknown label, cut short");
}

/// `skip_variation` right after `GameStart` through the splitter and `Shifted` gives what it gives
/// on the slice reader: the unknown-`CA` warning that would follow `GameStart` goes with the skip
/// (the splitter carries that warning in the chunk since it fixes the detected charset).
#[test]
fn skip_variation_after_game_start_drops_the_start_warning_as_the_reader_does() {
    let input: &[u8] = b"(;CA[klingon]C[\xff\xfe];B[aa])(;C[x])";
    let whole: Vec<String> = {
        let mut r = kifu::sgf::Reader::new(input);
        let mut out = vec![format!("{:?}", r.next_event())];
        r.skip_variation().unwrap();
        out.extend(r.map(|i| format!("{i:?}")));
        out
    };
    let mut chunked = Vec::new();
    let mut split = kifu::sgf::Splitter::new(input, Config::default());
    let mut first = true;
    while let Some(chunk) = split.next_game() {
        let chunk = chunk.unwrap();
        let reader = match chunk.context.charset {
            Some(c) => kifu::sgf::Reader::new(chunk.bytes).with_charset(c),
            None => kifu::sgf::Reader::new(chunk.bytes),
        };
        let mut events = Shifted::new(reader, &chunk, Config::default());
        if first {
            chunked.push(format!("{:?}", events.next_event()));
            events.skip_variation().unwrap();
            first = false;
        }
        while let Some(item) = events.next_event() {
            chunked.push(format!("{item:?}"));
        }
    }
    assert!(!whole.iter().any(|s| s.contains("UnknownCharset")), "{whole:?}");
    assert_eq!(chunked, whole);
}

/// A root `CA` label that the UTF-8 root scan finds past the game's end (the value ends in a
/// Shift_JIS character whose trail byte is `\`) is not carried as the game's warning: reading
/// the chunks does not ask the window for that offset before the junk's (which, in a debug
/// build, was a failed assertion), and the junk after the game keeps its own offset.
#[test]
fn a_ca_label_past_the_game_end_is_not_the_games_warning() {
    let input: &[u8] = b"(;C[\x8e\x9b\x90\xec\x83\\])x]CA[klingon]";
    let mut split = kifu::sgf::Splitter::new(input, Config::default());
    let mut items = Vec::new();
    while let Some(chunk) = split.next_game() {
        let chunk = chunk.unwrap();
        if let Some((kind, p)) = chunk.junk {
            items.push(format!("junk {kind:?} @{}", p.offset));
        }
        if let Some((kind, p)) = chunk.start_warning {
            items.push(format!("start {kind:?} @{}", p.offset));
        }
        if !chunk.bytes.is_empty() {
            items.push(format!(
                "game {}..{} {:?}",
                chunk.offset,
                chunk.offset as usize + chunk.bytes.len(),
                chunk.context.charset
            ));
        }
    }
    assert_eq!(items, ["game 0..12 Some(ShiftJis)", "junk JunkAfterGames @12"]);
}

/// Collects what a `Visit` loop sees: each game's start offset and its number of moves, and the
/// warnings' offsets.
struct Starts;

impl<'a> kifu::Visit<'a> for Starts {
    type Output = Vec<(u64, u32)>;

    fn visit<R>(self, reader: &mut R) -> Vec<(u64, u32)>
    where
        R: EventSource + Iterator<Item = Result<Event<'a>, kifu::Error>>,
    {
        let mut out = Vec::new();
        for item in reader {
            match item {
                Ok(Event::GameStart { offset }) => out.push((offset, 0)),
                Ok(Event::Move(_)) => out.last_mut().unwrap().1 += 1,
                Ok(Event::Warning(w)) => out.push((w.offset, u32::MAX)),
                _ => {}
            }
        }
        out
    }
}

/// `Options::whole` hands each small input to the worker whole: the same games, moves, offsets
/// and warnings as game by game (`Game::visit` over a cut game shifts its offsets), on one thread
/// and on two; an input larger than `whole` is still cut into games.
#[test]
fn whole_inputs_read_as_their_games() {
    let dir = std::env::temp_dir().join(format!("kifu-whole-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.sgf"), "junk (;GM[1];B[aa];W[bb])\n\n(;GM[1];B[cc]) tail").unwrap();
    std::fs::write(dir.join("b.sgf"), "(;GM[1];B[dd];W[ee];B[ff])").unwrap();
    std::fs::write(dir.join("c.csa"), "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n").unwrap();
    let run = |whole: usize, threads: usize| {
        let options = stream::Options { threads, whole, ..Default::default() };
        let mut seen = Vec::new();
        stream::read_games(
            [&dir],
            &options,
            |game| (game.chunk.bytes.len(), game.visit(Starts)),
            |input, r| {
                let (len, starts) = r.unwrap();
                seen.push((input.rsplit('/').next().unwrap().to_string(), len, starts));
            },
        );
        seen
    };
    type Seen = Vec<(String, usize, Vec<(u64, u32)>)>;
    let merged = |seen: Seen| {
        let mut by_input: Vec<(String, Vec<(u64, u32)>)> = Vec::new();
        for (input, _, starts) in seen {
            match by_input.last_mut() {
                Some((i, all)) if *i == input => all.extend(starts),
                _ => by_input.push((input, starts)),
            }
        }
        by_input
    };
    let games = run(0, 1);
    assert_eq!(games.len(), 6, "{games:?}"); // game by game (and the tail's chunk)
    let whole = run(1 << 20, 1);
    assert_eq!(whole.len(), 3, "{whole:?}"); // one call per input
    assert_eq!(whole[0].1, std::fs::metadata(dir.join("a.sgf")).unwrap().len() as usize);
    assert_eq!(merged(games.clone()), merged(whole.clone()));
    assert_eq!(
        merged(whole.clone())[0].1,
        vec![(0, u32::MAX), (5, 2), (27, 1), (42, u32::MAX)],
        "the junk and the tail are warnings at their offsets"
    );
    #[cfg(feature = "parallel")]
    {
        assert_eq!(run(1 << 20, 2), whole);
        assert_eq!(run(0, 2), games);
    }
    // An input over the limit is cut into games (on two threads by the worker that found it
    // larger than the limit: a walk gives no sizes).
    assert_eq!(run(30, 1).iter().filter(|(i, ..)| i == "a.sgf").count(), 3);
    #[cfg(feature = "parallel")]
    assert_eq!(run(30, 2), run(30, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A walked file larger than `Options::whole` is cut into games by the worker that opens it, and
/// its games are read by every worker in windows of batches: the same games, in the same order,
/// among small files before and after it, as on one thread; so are files given by name.
#[test]
fn a_large_walked_file_is_spread_over_the_workers() {
    let dir = std::env::temp_dir().join(format!("kifu-spread-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.sgf"), "(;GM[1];B[aa])").unwrap();
    let mut big = String::new();
    for i in 0..500 {
        let p = (b'a' + (i % 19) as u8) as char;
        big.push_str(&format!("(;GM[1]C[game {i}];B[{p}{p}];W[a{p}])\n"));
        if i == 250 {
            big.push_str("junk between games ");
        }
    }
    std::fs::write(dir.join("b.sgf"), &big).unwrap();
    std::fs::write(dir.join("c.sgf"), "(;GM[1];B[cc];W[dd])").unwrap();
    let run = |paths: &[std::path::PathBuf], threads: usize| {
        let options = stream::Options { threads, whole: 1000, batch_bytes: 300, ..Default::default() };
        let mut seen = Vec::new();
        stream::read_games(
            paths,
            &options,
            |game| (game.chunk.offset, game.visit(Starts)),
            |input, r| {
                let (offset, starts) = r.unwrap();
                seen.push((input.rsplit('/').next().unwrap().to_string(), offset, starts));
            },
        );
        seen
    };
    let walked = run(std::slice::from_ref(&dir), 1);
    assert_eq!(walked.len(), 502, "the small files whole, the big one game by game");
    assert_eq!(walked[1].1, 0);
    assert!(walked[1..501].windows(2).all(|w| w[0].1 < w[1].1), "games in order");
    assert!(walked.iter().any(|(_, _, starts)| starts.iter().any(|s| s.1 == u32::MAX)), "the junk's warning");
    #[cfg(feature = "parallel")]
    {
        assert_eq!(run(std::slice::from_ref(&dir), 2), walked);
        assert_eq!(run(std::slice::from_ref(&dir), 3), walked);
        let named = [dir.join("a.sgf"), dir.join("b.sgf"), dir.join("c.sgf")];
        assert_eq!(run(&named, 2), walked);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game cut from a larger input says where its events stand in the input, as the whole
/// input's reader does: `event_offset` after each move, and `locate` of each warning, the junk
/// between games included (which is not in the game's bytes).
#[test]
fn cut_games_locate_their_events_in_the_input() {
    let text = "junk\n(;GM[1];B[aa]\n;W[bb])\nmore junk (;GM[1];B[cc];W[zz]) tail";
    let dir = std::env::temp_dir().join(format!("kifu-cut-locate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.sgf");
    std::fs::write(&path, text).unwrap();
    // (move or warning, offset, line, column), in order.
    let of = |events: &mut dyn EventSource, out: &mut Vec<(bool, u64, u64, u64)>| {
        let mut warnings = Vec::new();
        while let Some(Ok(ev)) = events.next_event() {
            match ev {
                Event::Move(_) => out.push((true, events.event_offset().unwrap(), 0, 0)),
                Event::Warning(w) => warnings.push(w.offset),
                _ => {}
            }
        }
        for w in warnings {
            let p = events.locate(w);
            out.push((false, w, p.line, p.column));
        }
    };
    let mut whole = Vec::new();
    of(&mut kifu::AnyReader::detect(text.as_bytes(), Config::default()).unwrap(), &mut whole);
    let mut cut = Vec::new();
    let options = stream::Options { whole: 0, ..Default::default() };
    stream::read_games(
        [&path],
        &options,
        |game| {
            let mut found = Vec::new();
            of(&mut game.events(), &mut found);
            found
        },
        |_, r| cut.extend(r.unwrap()),
    );
    let key = |v: &mut Vec<(bool, u64, u64, u64)>| v.sort();
    key(&mut whole);
    key(&mut cut);
    assert_eq!(whole.iter().filter(|e| !e.0).count(), 4, "junk before, between and after, W[zz]: {whole:?}");
    assert_eq!(cut, whole);
    std::fs::remove_dir_all(&dir).unwrap();
}
