//! Lenient starts and identifiers as Sabaki reads them (issue 20, point 8): a game whose root
//! lacks `;`, a game without `(`, identifiers with lower-case letters or digits; each read with a
//! warning, through the slice reader and the streaming splitter alike.

mod common;

use common::events::{moves, warnings};
use kifu::stream::Shifted;
use kifu::{Color, Config, Event, EventSource, WarningKind};

/// Every event of `bytes` through the slice reader (lenient); panics on an error.
fn events(bytes: &[u8]) -> Vec<Event<'_>> {
    kifu::sgf::Reader::new(bytes).collect::<Result<_, _>>().expect("no error")
}

/// The events as one line each (`Debug`), through the slice reader, up to the first error.
fn slice_lines(bytes: &[u8], config: Config) -> Vec<String> {
    let mut out = Vec::new();
    for item in kifu::sgf::Reader::with_config(bytes, config) {
        match item {
            Ok(ev) => out.push(format!("{ev:?}")),
            Err(e) => {
                out.push(format!("error {:?} at {}", e.kind(), e.position()));
                break;
            }
        }
    }
    out
}

/// The same through the streaming splitter, reading `max` bytes at a time.
fn stream_lines(bytes: &[u8], config: Config, max: usize) -> Vec<String> {
    struct Small<'a>(&'a [u8], usize);
    impl std::io::Read for Small<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut out = Vec::new();
    let mut split = kifu::sgf::Splitter::new(Small(bytes, max), config);
    'chunks: while let Some(chunk) = split.next_game() {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                out.push(format!("error {:?} at {}", e.kind(), e.position()));
                break;
            }
        };
        let reader = match chunk.context.charset {
            Some(c) => kifu::sgf::Reader::with_config(chunk.bytes, config).with_charset(c),
            None => kifu::sgf::Reader::with_config(chunk.bytes, config),
        };
        let mut events = Shifted::new(reader, &chunk, config);
        while let Some(item) = events.next_event() {
            match item {
                Ok(ev) => out.push(format!("{ev:?}")),
                Err(e) => {
                    out.push(format!("error {:?} at {}", e.kind(), e.position()));
                    break 'chunks;
                }
            }
        }
    }
    out
}

/// The splitter gives the slice reader's events, lenient and strict, whatever the reads return.
fn same_through_splitter(bytes: &[u8]) {
    for config in [Config::lenient(), Config::strict()] {
        let want = slice_lines(bytes, config);
        for max in [1, 2, 3, 7, 4096] {
            assert_eq!(stream_lines(bytes, config, max), want, "{:?} max {max}", String::from_utf8_lossy(bytes));
        }
    }
}

fn names(events: &[Event<'_>]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Property(p) => Some((
                String::from_utf8_lossy(p.name()).into_owned(),
                String::from_utf8_lossy(p.value().raw()).into_owned(),
            )),
            _ => None,
        })
        .collect()
}

fn games(events: &[Event<'_>]) -> usize {
    events.iter().filter(|e| matches!(e, Event::GameStart { .. })).count()
}

#[test]
fn root_without_semicolon_is_read_with_a_warning() {
    // The start of a real Nihon Ki-in file: `(TE[` with no `;`.
    let ev = events(b"(TE[x]PB[a];B[aa])");
    assert_eq!(games(&ev), 1);
    assert_eq!(warnings(&ev), [WarningKind::MissingSemicolon]);
    assert_eq!(moves(&ev), [(Color::Black, Some((0, 0)))]);
    let ev = events(b"(B[hh];W[ii])");
    assert_eq!(warnings(&ev), [WarningKind::MissingSemicolon]);
    assert_eq!(moves(&ev), [(Color::Black, Some((7, 7))), (Color::White, Some((8, 8)))]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Node)).count(), 2);
    // White space, and an identifier with a digit, before the first value.
    let ev = events(b"  ( \n C1 [x];B[aa])");
    assert_eq!(games(&ev), 1);
    assert_eq!(warnings(&ev), [WarningKind::MissingSemicolon, WarningKind::NonstandardIdent]);
    assert_eq!(names(&ev), [("C1".to_string(), "[x]".to_string())]);
}

#[test]
fn game_without_paren_is_read_with_a_warning() {
    let bytes = b";B[hh];W[ii]";
    let ev = events(bytes);
    assert_eq!(ev[0], Event::GameStart { offset: 0 });
    assert_eq!(warnings(&ev), [WarningKind::MissingParen]);
    match ev[1] {
        Event::Warning(w) => assert_eq!((w.kind, w.offset), (WarningKind::MissingParen, 0)),
        ref other => panic!("{other:?}"),
    }
    assert_eq!(moves(&ev), [(Color::Black, Some((7, 7))), (Color::White, Some((8, 8)))]);
    assert_eq!(ev.last(), Some(&Event::GameEnd { length: bytes.len() as u64, ending: None }));
    // Leading white space, a BOM, variations, a closing `)` of its own and a game after it.
    let ev = events(b"\xEF\xBB\xBF \n;GM[1]\n;B[aa](;W[bb])(;W[cc]))\n(;B[dd])");
    assert_eq!(games(&ev), 2);
    assert_eq!(warnings(&ev), [WarningKind::MissingParen]);
    assert_eq!(moves(&ev).len(), 4);
    // Strict mode: an error, at the `;`.
    let mut r = kifu::sgf::Reader::with_config(b";B[hh]", Config::strict());
    assert!(matches!(r.next(), Some(Ok(Event::GameStart { offset: 0 }))));
    let e = r.next().unwrap().unwrap_err();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::MissingParen));
    assert_eq!(e.position().offset, 0);
    // A variation the input ends in is still truncated.
    let ev = events(b";B[aa](;W[bb]");
    assert_eq!(warnings(&ev), [WarningKind::MissingParen, WarningKind::Truncated]);
    // With an unknown charset: both warnings, the charset's first.
    let ev = events(b";CA[klingon]B[aa]");
    assert_eq!(warnings(&ev), [WarningKind::UnknownCharset, WarningKind::MissingParen]);
}

#[test]
fn a_semicolon_elsewhere_is_junk() {
    // Only the start of the input may hold a game without `(`.
    for bytes in [&b"x ;B[hh];W[ii]"[..], b"(;B[aa]) ;B[hh]", b";x;B[hh]", b"; B", b";;B[aa]"] {
        let ev = events(bytes);
        assert!(!moves(&ev).contains(&(Color::Black, Some((7, 7)))), "{:?}", String::from_utf8_lossy(bytes));
        assert!(!warnings(&ev).contains(&WarningKind::MissingParen), "{:?}", String::from_utf8_lossy(bytes));
    }
}

#[test]
fn nonstandard_identifiers_are_kept_with_a_warning() {
    let ev = events(b"(;GM[1]C1[x]b[y]Ab[z][w]MULTIGOGM[1]XX[2];B[aa]c2 [v])");
    assert_eq!(
        names(&ev),
        [("C1", "[x]"), ("b", "[y]"), ("Ab", "[z][w]"), ("MULTIGOGM", "[1]"), ("XX", "[2]"), ("c2", "[v]")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // One warning for each identifier that is not FF[4] syntax; upper-case private ones are FF[4].
    assert_eq!(warnings(&ev), [WarningKind::NonstandardIdent; 4]);
    let at: Vec<u64> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.offset),
            _ => None,
        })
        .collect();
    assert_eq!(at, [7, 12, 16, 47]);
}

#[test]
fn ff3_identifiers_keep_their_meaning() {
    let ev = events(b"(;GaMe[1]AddBlack[aa]Comment[hi]PlayerBlack[x];White[bb]Name[n])");
    assert_eq!(names(&ev), Vec::<(String, String)>::new());
    assert_eq!(warnings(&ev), [WarningKind::LowercaseIdent]);
    assert!(ev.iter().any(|e| matches!(e, Event::Comment(_))));
    assert!(ev.iter().any(|e| matches!(e, Event::Name(_))));
    assert!(ev.iter().any(|e| matches!(e, Event::Setup(_))));
    assert_eq!(moves(&ev), [(Color::White, Some((1, 1)))]);
    // An unknown lower-case one after a known one: its own warning.
    // `Lettered` is FF[3]'s `L` (no event of its own): passed through, but not non-standard.
    let ev = events(b"(;Lettered[aa]AddBlack[aa]Foo[x])");
    assert_eq!(warnings(&ev), [WarningKind::LowercaseIdent, WarningKind::NonstandardIdent]);
    assert_eq!(names(&ev), [("Lettered", "[aa]"), ("Foo", "[x]")].map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn a_digit_in_the_root_is_not_ca_or_sz() {
    let ev = events(b"(;C1A[klingon]S1Z[5];B[ss])");
    assert_eq!(warnings(&ev), [WarningKind::NonstandardIdent, WarningKind::NonstandardIdent]);
    assert_eq!(moves(&ev), [(Color::Black, Some((18, 18)))]);
}

#[test]
fn lenient_starts_through_the_splitter() {
    let cases: &[&[u8]] = &[
        b";B[hh];W[ii]",
        b"  \r\n;B[hh];W[ii]",
        b"\xEF\xBB\xBF;B[hh](;W[ii])(;W[jj]))junk(;B[aa])",
        b";GM[1];B[aa](;W[bb]",
        b";GM[1];B[aa](;W[bb](;GM[1];B[cc])",
        b";CA[klingon]C[\xff\xfe];B[aa]",
        b";C[never ends",
        b";B[aa]\n(;GM[1];W[bb])",
        b"x;B[hh]",
        b";x[hh]",
        b"(TE[x]PB[a];B[aa])(B[hh];W[ii])",
        b"(C1[x];B[aa])( c2 [y])",
        b"(;GM[1]C1[x]b[y]Ab[z][w]MULTIGOGM[1];B[aa]c2 [v]AddBlack[bb])",
    ];
    for bytes in cases {
        same_through_splitter(bytes);
    }
}

#[test]
fn skipping_a_game_without_paren() {
    // skip_game from its start lands on the next game; its `)` or the input's end closes it.
    for config in [Config::lenient(), Config::strict()] {
        let bytes = b";B[aa](;W[bb])(;W[cc]))\n(;B[dd])";
        let mut r = kifu::sgf::Reader::with_config(bytes, config);
        assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { offset: 0 }))));
        assert!(r.skip_game().unwrap());
        assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { offset: 24 }))));
        let mut r = kifu::sgf::Reader::with_config(b";B[aa](;W[bb])(;W[cc])", config);
        assert!(r.skip_game().unwrap());
        assert!(!r.skip_game().unwrap());
    }
    // skip_variation with no variation open goes to the game's end, which the input's end is.
    let mut r = kifu::sgf::Reader::with_config(b";B[aa];W[bb]", Config::strict());
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { .. }))));
    r.skip_variation().unwrap();
    assert!(matches!(r.next_event(), Some(Ok(Event::GameEnd { length: 12, .. }))));
    assert!(r.next_event().is_none());
    // A variation the input ends in is cut short: strict mode errs as the event path does.
    let mut r = kifu::sgf::Reader::with_config(b";B[aa](;W[bb]", Config::strict());
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { .. }))));
    assert!(r.skip_variation().is_err());
}

/// The corpus's files with such starts (read here with the reader itself: detecting them as SGF
/// is the sniffer's job).
#[test]
fn corpus_files_with_lenient_starts() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    for (name, games_want) in [("sabaki-encoding-nihon-kiin.sgf", 1), ("sgfmill-gametree-without-semicolon.sgf", 1)] {
        let Ok(bytes) = std::fs::read(dir.join(name)) else { continue };
        let ev = events(&bytes);
        assert_eq!(games(&ev), games_want, "{name}");
        assert_eq!(warnings(&ev)[0], WarningKind::MissingSemicolon, "{name}");
        assert!(!moves(&ev).is_empty(), "{name}");
        same_through_splitter(&bytes);
    }
}
