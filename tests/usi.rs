//! USI reader: the corpus (every generated game replays to its move count and final SFEN in
//! `usi/tsshogi/index.tsv`; every real file reads without error and agrees with what tsshogi
//! read from it; the event contract and streaming hold on every file; the same game in USI and
//! CSA gives the same moves) and hand-written cases for each rule, hostile input and detection.

mod common;

use kifu::kit::check_contract;
use kifu::position::shogi::ShogiPosition;
use kifu::usi::Reader;
use kifu::{Color, Config, Ending, Event, EventSource, Format, Move, Piece, Setup, ShogiMove, Square, WarningKind};
use std::path::{Path, PathBuf};

fn events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(w.kind) } else { None }).collect()
}

fn moves(evs: &[Event]) -> Vec<ShogiMove> {
    evs.iter().filter_map(|e| if let Event::Move(Move::Shogi(m)) = e { Some(*m) } else { None }).collect()
}

/// What one game of a file gives: moves, final SFEN (replayed), ending.
#[derive(Debug)]
struct Game {
    moves: Vec<ShogiMove>,
    sfen: Result<String, String>,
    ending: Option<Ending>,
}

fn games(input: &[u8]) -> Vec<Game> {
    let mut out = Vec::new();
    let mut r = Reader::new(input);
    let mut pos = ShogiPosition::new();
    let (mut moves, mut bad) = (Vec::new(), None);
    while let Some(ev) = r.next() {
        let ev = ev.unwrap_or_else(|e| panic!("{e}"));
        match ev {
            Event::GameEnd { ending, .. } => {
                let sfen = match bad.take() {
                    Some(b) => Err(b),
                    None => Ok(pos.sfen()),
                };
                out.push(Game { moves: std::mem::take(&mut moves), sfen, ending });
                continue;
            }
            Event::Move(Move::Shogi(m)) => moves.push(m),
            _ => {}
        }
        if bad.is_none() {
            if let Err(i) = pos.apply(&ev) {
                bad = Some(format!("{i:?} at {:?}", r.event_offset()));
            }
        }
    }
    out
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

fn usi_files(dir: &Path) -> Vec<PathBuf> {
    common::files(dir, &[".usi", ".sfen"])
}

// ---------------------------------------------------------------- corpus

#[test]
fn generated_games_match_the_index() {
    let Some(dir) = common::corpus_dir("usi/tsshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let bytes = read(&dir.join(c[0]));
        let g = games(&bytes);
        assert_eq!(g.len(), 1, "{}", c[0]);
        assert_eq!(warnings(&events(&bytes)), [], "{}", c[0]);
        assert_eq!(g[0].moves.len(), c[2].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g[0].sfen.as_deref(), Ok(c[3]), "{}", c[0]);
        let resigned = c[6].ends_with("+resign");
        assert_eq!(g[0].ending, resigned.then_some(Ending::Resign), "{}", c[0]);
        n += 1;
    }
    assert_eq!(n, 300);
}

#[test]
fn real_files_agree_with_tsshogi() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let text = std::fs::read_to_string(dir.join("tsshogi-reading.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let (file, k) = c[0].split_once('#').map_or((c[0], 1), |(f, k)| (f, k.parse::<usize>().unwrap()));
        let bytes = read(&dir.join(file));
        let g = games(&bytes);
        let g = &g[k - 1];
        assert_eq!(g.moves.len(), c[3].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g.sfen.as_deref(), Ok(c[4]), "{}", c[0]);
        n += 1;
    }
    assert!(n >= 3, "{n}");
}

#[test]
fn every_file_reads_keeps_the_contract_and_is_detected() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let files = usi_files(&dir);
    assert!(files.len() >= 301, "{}", files.len());
    for f in &files {
        let bytes = read(f);
        let name = f.display();
        let lines = bytes.split(|&c| c == b'\n').filter(|l| !l.is_empty()).count();
        let c = check_contract(&bytes, &mut Reader::new(&bytes), false);
        assert_eq!((c.games, c.errors, c.warnings), (lines, 0, 0), "{name}");
        check_contract(&bytes, &mut Reader::with_config(&bytes, Config::strict()), true);
        assert_eq!(kifu::detect(&bytes), Some(Format::Usi), "{name}");
        // Every prefix, cut anywhere, keeps the contract.
        for cut in (0..bytes.len()).step_by(37) {
            check_contract(&bytes[..cut], &mut Reader::new(&bytes[..cut]), false);
        }
    }
}

#[test]
fn the_same_game_in_csa_gives_the_same_moves() {
    let Some(dir) = common::corpus_dir("usi/tsshogi") else { return };
    let Some(csa) = common::corpus_dir("converted/csa-cshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1).take(60) {
        let c: Vec<&str> = line.split('\t').collect();
        let Some(src) = common::files(&csa, &[c[1]]).into_iter().next() else { continue };
        let usi = read(&dir.join(c[0]));
        let csa_bytes = read(&src);
        let a = moves(&events(&usi));
        let b: Vec<ShogiMove> = kifu::csa::Reader::new(&csa_bytes)
            .filter_map(|e| match e {
                Ok(Event::Move(Move::Shogi(m))) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(a, b, "{}", c[0]);
        n += 1;
    }
    assert!(n >= 50, "{n}");
}

#[test]
fn streaming_equals_the_slice_reader() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let mut all = Vec::new();
    for f in usi_files(&dir).iter().take(80) {
        all.extend_from_slice(&read(f));
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
        // Junk and blank lines between games go with the next game.
        all.extend_from_slice(b"\n# a note\n\r\n");
    }
    all.extend_from_slice(b"trailing junk");
    let slice: Vec<String> = Reader::new(&all).map(|e| format!("{:?}", e.unwrap())).collect();
    for buf in [1usize, 7, 4096, 1 << 20] {
        let read = common::dribble::Dribble::new(&all, buf as u64, buf);
        let mut split = kifu::stream::splitter(Format::Usi, Box::new(read), Config::default());
        let mut out = Vec::new();
        while let Some(chunk) = split.next_game() {
            let chunk = chunk.unwrap();
            let mut r = kifu::stream::read_chunk(Format::Usi, &chunk, Config::default());
            while let Some(ev) = r.next_event() {
                out.push(format!("{:?}", ev.unwrap()));
            }
        }
        assert_eq!(out, slice, "buffer {buf}");
    }
    let chunks: Vec<_> = kifu::usi::chunks(&all).collect();
    // One chunk per game, and one for the junk after the last.
    let games = slice.iter().filter(|e| e.starts_with("GameStart")).count();
    assert!(games >= 80);
    assert_eq!(chunks.len(), games + 1);
}

// ---------------------------------------------------------------- rules

#[test]
fn startpos_gives_the_standard_position() {
    for text in [
        &b"position startpos\n"[..],
        b"startpos",
        b"position startpos moves",
        b"moves",
        b"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ] {
        let evs = events(text);
        let setups = evs.iter().filter(|e| matches!(e, Event::Setup(_))).count();
        assert_eq!(setups, 40, "{text:?}");
        assert!(matches!(evs[0], Event::GameStart { offset: 0 }));
        assert_eq!(evs[41], Event::Turn(Color::Black));
        assert!(matches!(evs[42], Event::GameEnd { ending: None, .. }), "{text:?}");
        assert_eq!(evs.len(), 43);
        assert_eq!(
            evs[1],
            Event::Setup(Setup::Shogi { color: Color::White, piece: Piece::Lance, square: Some(Square::new(9, 1)) })
        );
    }
}

#[test]
fn moves_promotions_drops_and_captures() {
    let evs = events(b"position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n");
    let m = moves(&evs);
    assert_eq!(m.len(), 5);
    assert_eq!(
        m[0],
        ShogiMove { color: Color::Black, from: Some(Square::new(7, 7)), to: Square::new(7, 6), piece: Piece::Pawn }
    );
    assert_eq!(m[2].piece, Piece::Horse);
    assert_eq!((m[3].color, m[3].piece), (Color::White, Piece::Silver));
    assert_eq!(m[4], ShogiMove { color: Color::Black, from: None, to: Square::new(4, 5), piece: Piece::Bishop });
    assert_eq!(warnings(&evs), []);
    let nodes = evs.iter().filter(|e| matches!(e, Event::Node)).count();
    assert_eq!(nodes, 5);
}

#[test]
fn sfen_starts_with_hands_and_side() {
    let evs = events(b"position sfen 4k4/9/9/9/9/9/9/9/4K4 w G2p 3 moves P*5h G*5b\n");
    let hand: Vec<_> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Setup(Setup::Shogi { color, piece, square: None }) => Some((*color, *piece)),
            _ => None,
        })
        .collect();
    assert_eq!(hand, [(Color::Black, Piece::Gold), (Color::White, Piece::Pawn), (Color::White, Piece::Pawn)]);
    assert!(evs.contains(&Event::Turn(Color::White)));
    let m = moves(&evs);
    assert_eq!((m[0].color, m[0].piece, m[0].from), (Color::White, Piece::Pawn, None));
    assert_eq!((m[1].color, m[1].piece), (Color::Black, Piece::Gold));
    // The same without `position`, without the move number, and a game with no moves.
    assert_eq!(moves(&events(b"sfen 4k4/9/9/9/9/9/9/9/4K4 w G2p moves P*5h G*5b")), m);
    let evs = events(b"sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n");
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::Setup(_))).count(), 2);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: None, .. })));
}

#[test]
fn terminal_words_are_endings() {
    for (w, e) in [
        ("resign", Ending::Resign),
        ("win", Ending::DeclareWin),
        ("draw", Ending::Draw),
        ("rep_draw", Ending::Repetition),
        ("timeout", Ending::TimeUp),
        ("break", Ending::Interrupted),
    ] {
        let text = format!("position startpos moves 7g7f {w}\n");
        let evs = events(text.as_bytes());
        assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(x), .. }) if *x == e), "{w}");
        assert_eq!(warnings(&evs), []);
    }
    let evs = events(b"position startpos moves 7g7f resign 3c3d");
    assert_eq!(warnings(&evs), [WarningKind::MoveAfterEnd]);
    assert_eq!(moves(&evs).len(), 1);
}

#[test]
fn one_game_per_line_with_junk_and_blank_lines() {
    let text = b"position startpos moves 7g7f\r\n\nnot a game\nposition startpos moves 2g2f 8c8d\n\n";
    let evs = events(text);
    let starts: Vec<u64> =
        evs.iter().filter_map(|e| if let Event::GameStart { offset } = e { Some(*offset) } else { None }).collect();
    assert_eq!(starts, [0, 42]);
    assert_eq!(warnings(&evs), [WarningKind::UnknownLine]);
    let lengths: Vec<u64> =
        evs.iter().filter_map(|e| if let Event::GameEnd { length, .. } = e { Some(*length) } else { None }).collect();
    assert_eq!(lengths, [30, 34]);
    assert_eq!(moves(&evs).len(), 3);
    let c = check_contract(text, &mut Reader::new(text), false);
    assert_eq!((c.games, c.warnings, c.errors), (2, 1, 0));
}

/// A token that is no move is a `BadValue`; a move that reads but that the reader's board
/// refuses is an `IllegalMove` (the name `kifu check --replay` gives illegal moves). Either way
/// the rest of the line is dropped.
#[test]
fn bad_moves_warn_and_drop_the_rest_of_the_line() {
    use WarningKind::{BadValue, IllegalMove};
    for (text, kind) in [
        (&b"position startpos moves 7g7f 7g7f 3c3d"[..], IllegalMove), // nothing on 7g
        (b"position startpos moves 3c3d", IllegalMove),                // White's pawn on Black's turn
        (b"position startpos moves 7g7f 3c3d 7i6h+", IllegalMove),     // a silver promoting outside the zone
        (b"position startpos moves 7g7f 3c3d 6i5h+", IllegalMove),     // a gold cannot promote
        (b"position startpos moves 7g7f 3c3d P*5e", IllegalMove),      // no pawn in hand
        (b"position startpos moves 7g7f 3c3d 7i6i", IllegalMove),      // own piece captured
        (b"position startpos moves 7g7f 3c3d 7g7g", IllegalMove),      // a move to its own square
        (b"position startpos moves 7g7f 3c3d P*7f", IllegalMove),      // a drop on a piece (none in hand either)
        (b"position startpos moves 7g7f 3c3d 7z7f", BadValue),         // not a move
        (b"position startpos moves 7g7f 3c3d hello", BadValue),
    ] {
        let evs = events(text);
        let m = moves(&evs);
        if text.ends_with(b"7i6h+") {
            // USI does not check promotion zones: the reader keeps the move.
            assert_eq!(m.len(), 3);
            continue;
        }
        assert_eq!(warnings(&evs), [kind], "{:?}", String::from_utf8_lossy(text));
        assert!(m.len() <= 2);
        assert!(matches!(evs.last(), Some(Event::GameEnd { .. })));
        assert!(Reader::with_config(text, Config::strict()).any(|e| e.is_err()));
    }
}

/// A refused move's warning keeps its kind and offset (the move's first byte), and its message
/// (`Warning::message_in`, the strict error's `message()`) says what the reader left unread
/// after it: the moves of the rest of the line, and a terminal word after them.
#[test]
fn a_refused_move_says_how_many_moves_after_it_were_not_read() {
    let base = "a move that cannot be played in the position";
    for (text, at, unread) in [
        (&b"position startpos moves 7g7f 7g7f 3c3d 8h2b+\n"[..], 29, "(skipped, and the 2 moves after it, not read)"),
        (b"position startpos moves 7g7f 7g7f 3c3d", 29, "(skipped, and the move after it, not read)"),
        (b"position startpos moves 7g7f 7g7f\r\n", 29, "(skipped, with nothing after it)"),
        (
            b"position startpos moves 3c3d  7g7f\t2g2f resign",
            24,
            "(skipped, and the 2 moves after it and `resign`, not read)",
        ),
        (b"position startpos moves 7g7f 7g7f resign 3c3d", 29, "(skipped, and `resign` after it, not read)"),
        // A token that does not read is unread all the same; the next line is another game.
        (
            b"position startpos moves 7g7f 7g7f 7z7f\nposition startpos moves 2g2f",
            29,
            "(skipped, and the move after it, not read)",
        ),
    ] {
        let name = String::from_utf8_lossy(text);
        let evs = events(text);
        let w: Vec<_> = evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(*w) } else { None }).collect();
        assert_eq!(w.len(), 1, "{name:?}");
        assert_eq!((w[0].kind, w[0].offset), (WarningKind::IllegalMove, at), "{name:?}");
        let want = format!("{base} {unread}");
        assert_eq!(kifu::lint::message(text, &w[0]), want, "{name:?}");
        assert_eq!(kifu::usi::illegal_move_message(text, at), want, "{name:?}");
        // The kind's own message, for a consumer without the input, is as it was.
        assert_eq!(w[0].kind.message(), format!("{base} (skipped, with the rest of its line)"));
        let err = Reader::with_config(text, Config::strict()).find_map(Result::err).unwrap();
        assert_eq!((err.kind(), err.offset()), (kifu::ErrorKind::Strict(WarningKind::IllegalMove), at), "{name:?}");
        assert_eq!(err.message(), want, "{name:?}");
    }
    // Offsets outside the input, or on the line's end, do not panic.
    assert_eq!(kifu::usi::illegal_move_message(b"7g7f", 99), format!("{base} (skipped, with nothing after it)"));
    assert_eq!(kifu::usi::illegal_move_message(b"", u64::MAX), format!("{base} (skipped, with nothing after it)"));
}

#[test]
fn bad_starts_are_errors_with_offsets() {
    for (text, at) in [
        (&b"position startpo moves 7g7f"[..], 9),
        (b"position", 8),
        (b"position sfen 4k4/9/9/9/9/9/9/9 b - 1", 31),
        (b"sfen 4k4/9/9/9/9/9/9/9/4K4 x - 1", 27),
        (b"sfen 4k4/9/9/9/9/9/9/9/4K4 b 20P 1", 30),
    ] {
        let items: Vec<_> = Reader::new(text).collect();
        let err = items.iter().find_map(|e| e.as_ref().err()).unwrap_or_else(|| panic!("{text:?}"));
        assert_eq!(err.kind(), kifu::ErrorKind::Syntax, "{text:?}");
        assert_eq!(err.position().offset, at, "{:?}", String::from_utf8_lossy(text));
        check_contract(text, &mut Reader::new(text), false);
    }
}

#[test]
fn hostile_input() {
    // Binary data, a huge hand count, a long line of moves back and forth, NULs.
    // (Junk between games is a warning, binary or not: errors belong to games.)
    let items: Vec<_> = Reader::new(b"\x00\x01\x02 garbage\n").collect();
    assert!(matches!(items[..], [Ok(Event::Warning(w))] if w.kind == WarningKind::UnknownLine), "{items:?}");
    let mut long = b"position startpos moves".to_vec();
    for _ in 0..100_000 {
        long.extend_from_slice(b" 5i5h 5a5b 5h5i 5b5a");
    }
    let c = check_contract(&long, &mut Reader::new(&long), false);
    assert_eq!((c.games, c.errors), (1, 0));
    let config = Config::default().with_limits(kifu::Limits::default().with_max_nodes(10));
    let items: Vec<_> = Reader::with_config(&long, config).collect();
    assert!(items.iter().any(|e| e.is_err()));
    let mut r = Reader::new(&long);
    assert!(r.skip_game().unwrap());
    assert!(r.next().is_none());
}

#[test]
fn detection() {
    assert_eq!(kifu::detect(b"position startpos moves 7g7f 3c3d\n"), Some(Format::Usi));
    assert_eq!(kifu::detect(b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n"), Some(Format::Usi));
    assert_ne!(kifu::detect(b"position startpos is a word in the USI protocol.\n"), Some(Format::Usi));
    assert_ne!(kifu::detect(b"sfen strings describe positions\n"), Some(Format::Usi));
}

/// Detection judges the first non-blank line, and a USI line that goes wrong after its start is
/// USI all the same: the file reads as it would with a good first line before it, the bad line
/// giving the reader's warning (or, for a start that does not read, its error), not "not a game
/// record".
#[test]
fn a_malformed_first_line_is_still_usi() {
    let good = b"position startpos moves 2g2f\n";
    for line in [
        &b"position startpos moves 7g7f 7g7x"[..],
        b"position startpos moves 7g7f hello 3c3d",
        b"position startpos moves 7g7f 7g7f",
        b"position startpos 7g7f junk",
        b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 mvoes G*5b",
        b"sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 5i5h 5i5h?",
        b"position sfen 4k4/9/9/9/9/9/9/9/4KX b - 1 moves 5i5h",
        b"startpos moves 7g7f 3c3",
    ] {
        let first = [line, b"\n", good].concat();
        let second = [good, line, b"\n"].concat();
        let text = String::from_utf8_lossy(line);
        assert_eq!(kifu::detect(&first), Some(Format::Usi), "{text}");
        assert_eq!(kifu::detect(&second), Some(Format::Usi), "{text}");
        // The same problems, whichever line comes first.
        let problems = |input: &[u8]| {
            let mut kinds: Vec<String> = Reader::new(input)
                .map(|e| match e {
                    Ok(Event::Warning(w)) => w.kind.as_str().to_owned(),
                    Ok(_) => String::new(),
                    Err(e) => e.kind().as_str().to_owned(),
                })
                .filter(|k| !k.is_empty())
                .collect();
            kinds.sort();
            kinds
        };
        assert!(!problems(&first).is_empty(), "{text}");
        assert_eq!(problems(&first), problems(&second), "{text}");
        let mut any = kifu::AnyReader::detect(&first, Config::default()).unwrap();
        assert_eq!(any.format(), Format::Usi);
        let mut ends = 0;
        while let Some(e) = any.next_event() {
            ends += matches!(e, Ok(Event::GameEnd { .. })) as usize;
        }
        assert!(ends >= 1, "{text}");
    }
    // Blank lines before the first game.
    assert_eq!(kifu::detect(b"\n\r\n  \nposition startpos moves 7g7f\n"), Some(Format::Usi));
    // Prose that only begins with the words is still no record.
    for prose in [
        &b"position startpos is where a game begins.\n"[..],
        b"position sfen garbage\n",
        b"startpos is the standard start\n",
        b"\n\nposition of the stones\n",
    ] {
        assert_eq!(kifu::detect(prose), None, "{}", String::from_utf8_lossy(prose));
    }
}

/// A fuzz find: `skip_game` right after the `GameStart` of a game whose SFEN is bad skipped
/// the next game instead (the error, still to be given, is what ends this one).
#[test]
fn skipping_a_game_whose_start_failed() {
    let input = b"position sfen lnsgkgsnl/7b1/\0\0 w - 1 moves 1a1b\nposition startpos moves 7g7f\n";
    let mut r = kifu::usi::Reader::new(input);
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { offset: 0 }))));
    assert!(r.skip_game().unwrap());
    let next = r.next_event().unwrap().unwrap();
    assert!(matches!(next, Event::GameStart { offset } if offset > 0), "{next:?}");
}
