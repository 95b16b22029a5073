//! The NGF reader: one hand-written case per rule of `shared/specs/gib-ngf-ugf-notes.md` (NGF
//! part) and of the module's mapping, every corpus file (moves, players, result, komi, handicap
//! asserted), the moves and header against Sabaki's reading (`ngf.js`, redone here in a few
//! lines), and hostile input.

mod common;

use kifu::kit::check_contract;
use kifu::{Charset, Color, Config, ErrorKind, Event, EventSource, Format, InfoKey, Move, Point, WarningKind};

fn events(input: &[u8]) -> Vec<Event<'_>> {
    kifu::ngf::Reader::new(input).collect::<Result<_, _>>().unwrap()
}

fn info(evs: &[Event], key: InfoKey) -> Option<String> {
    evs.iter().find_map(|e| match e {
        Event::Info(i) if i.key() == key => Some(i.value().to_string_lossy()),
        _ => None,
    })
}

fn moves(evs: &[Event]) -> Vec<(Color, Option<Point>)> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Move(Move::Go { color, point }) => Some((*color, *point)),
            _ => None,
        })
        .collect()
}

fn setups(evs: &[Event]) -> Vec<Point> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Setup(kifu::Setup::Go { color: Some(Color::Black), point }) => Some(*point),
            _ => None,
        })
        .collect()
}

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.kind),
            _ => None,
        })
        .collect()
}

/// A standard game: the twelve header lines with the given size, players, handicap, komi,
/// result, then the move lines.
fn game(size: &str, handicap: &str, komi: &str, result: &str, moves: &[&str]) -> &'static [u8] {
    let mut s = format!(
        "Rated game\n{size}\nLQC         9DP\nace550      7D*\nwww.cyberoro.com\n{handicap}\n0\n{komi}\n20170316 [09:37]\n5\n{result}\n{}\n",
        moves.len()
    );
    for m in moves {
        s += m;
        s += "\n";
    }
    Box::leak(s.into_bytes().into_boxed_slice())
}

#[test]
fn header_lines_by_position() {
    let evs = events(game("19", "0", "7", "Black wins by 0.5!", &["PMABBREER"]));
    assert!(matches!(evs[0], Event::GameStart { offset: 0 }));
    assert!(matches!(evs[1], Event::Node));
    assert_eq!(info(&evs, InfoKey::GameName).as_deref(), Some("Rated game"));
    assert_eq!(info(&evs, InfoKey::BoardSize).as_deref(), Some("19"));
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("LQC"));
    assert_eq!(info(&evs, InfoKey::WhiteRank).as_deref(), Some("9DP"));
    assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("ace550"));
    assert_eq!(info(&evs, InfoKey::BlackRank).as_deref(), Some("7D*"));
    assert_eq!(info(&evs, InfoKey::Place).as_deref(), Some("www.cyberoro.com"));
    assert_eq!(info(&evs, InfoKey::Date).as_deref(), Some("20170316"));
    assert_eq!(info(&evs, InfoKey::Handicap), None);
    assert!(warnings(&evs).is_empty());
    // A name with a space is kept whole; a line of one word is a name without rank.
    let g = b"t\n19\nHoninbo Shusaku 4D\nGennan\n";
    let evs = events(g);
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("Honinbo Shusaku"));
    assert_eq!(info(&evs, InfoKey::WhiteRank).as_deref(), Some("4D"));
    assert_eq!((info(&evs, InfoKey::BlackName).as_deref(), info(&evs, InfoKey::BlackRank)), (Some("Gennan"), None));
}

#[test]
fn komi_is_an_integer_plus_a_half_in_even_games() {
    assert_eq!(info(&events(game("19", "0", "7", "", &[])), InfoKey::Komi).as_deref(), Some("7.5"));
    assert_eq!(info(&events(game("19", "0", "0", "", &[])), InfoKey::Komi).as_deref(), Some("0.5"));
    // With a handicap, as written.
    assert_eq!(info(&events(game("19", "2", "0", "", &[])), InfoKey::Komi).as_deref(), Some("0"));
    let evs = events(game("19", "0", "x", "", &[]));
    assert_eq!((info(&evs, InfoKey::Komi), warnings(&evs)), (None, vec![WarningKind::BadKomi]));
}

#[test]
fn results() {
    let cases = [
        ("Black wins by 0.5!", "B+0.5"),
        ("White wins by  resign!", "W+R"),
        ("Black wins by resign!", "B+R"),
        ("White wins by time!", "W+T"),
        ("Black lose by 3.5!", "W+3.5"),
        ("White lose by 12!", "B+12"),
    ];
    for (text, want) in cases {
        assert_eq!(info(&events(game("19", "0", "6", text, &[])), InfoKey::Result).as_deref(), Some(want), "{text}");
    }
    // No winner named: the sentence as written.
    assert_eq!(info(&events(game("19", "0", "6", "Jigo", &[])), InfoKey::Result).as_deref(), Some("Jigo"));
}

#[test]
fn handicap_stones_in_tygem_layout() {
    let evs = events(game("19", "2", "0", "", &["PMABWQRRQ"]));
    assert_eq!(info(&evs, InfoKey::Handicap).as_deref(), Some("2"));
    assert_eq!(setups(&evs), [Point::new(3, 15), Point::new(15, 3)]);
    let evs = events(game("13", "4", "0", "", &[]));
    assert_eq!(setups(&evs), [Point::new(3, 9), Point::new(9, 3), Point::new(3, 3), Point::new(9, 9)]);
    // The stones come after the header, before the first move.
    let at = |f: fn(&Event) -> bool| evs.iter().position(f).unwrap();
    assert!(at(|e| matches!(e, Event::Info(_))) < at(|e| matches!(e, Event::Setup(_))));
    for bad in ["12", "x"] {
        assert_eq!(warnings(&events(game("19", bad, "0", "", &[]))), [WarningKind::BadHandicap], "{bad}");
    }
}

#[test]
fn board_size() {
    let evs = events(game("9", "0", "6", "", &["PMABBJJJJ", "PMACBKKKK"]));
    assert_eq!(info(&evs, InfoKey::BoardSize).as_deref(), Some("9"));
    // `K` is the 10th line: off a 9×9 board.
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(8, 8)))]);
    assert_eq!(warnings(&evs), [WarningKind::PointOffBoard]);
    assert_eq!(warnings(&events(game("99", "0", "6", "", &[]))), [WarningKind::BadBoardSize]);
}

#[test]
fn move_lines() {
    let evs = events(game("19", "0", "6", "", &["PMABBREER", "PMACWBBBB", "PMADBTTTT", "PMAEWAAAA"]));
    assert_eq!(
        moves(&evs),
        [
            (Color::Black, Some(Point::new(16, 3))),
            (Color::White, Some(Point::new(0, 0))),
            (Color::Black, Some(Point::new(18, 18))),
            (Color::White, None),
        ]
    );
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::Node)).count(), 1 + 4);
    // Off the board, not letters, the reversed pair differing.
    let evs = events(game("19", "0", "6", "", &["PMABBUUUU", "PMABBa1a1", "PMABBREXX"]));
    assert_eq!(warnings(&evs), [WarningKind::PointOffBoard, WarningKind::BadPoint, WarningKind::Repaired]);
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(16, 3)))]);
    // Strict mode: the warning is an error inside the game.
    let items: Vec<_> =
        kifu::ngf::Reader::with_config(game("19", "0", "6", "", &["PMABBUUUU"]), Config::strict()).collect();
    assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::Strict(WarningKind::PointOffBoard))));
}

#[test]
fn move_numbers_are_base_26() {
    assert_eq!(kifu::ngf::move_number(*b"AB"), Some(1));
    assert_eq!(kifu::ngf::move_number(*b"MV"), Some(333));
    assert_eq!(kifu::ngf::move_number(*b"HH"), Some(189));
    assert_eq!(kifu::ngf::move_number(*b"a1"), None);
}

#[test]
fn gi_dialect() {
    let gi = "GI\u{97e9}\u{56fd}\u{5341}\u{6bb5}\u{6218}\nGI\u{6734}\u{627f}\u{534e} \u{521d}\u{6bb5}\nGI\u{674e}\u{8f7d}\u{96c4} \u{4e94}\u{6bb5}\nGI\nGI\nGI2006-9-5\nGI19\nGI0\nGI0\nGI6\nGI2\nPMABBREER\nPMACWEEEE\n";
    let evs = events(gi.as_bytes());
    assert_eq!(info(&evs, InfoKey::GameName).as_deref(), Some("\u{97e9}\u{56fd}\u{5341}\u{6bb5}\u{6218}"));
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("\u{6734}\u{627f}\u{534e}"));
    assert_eq!(info(&evs, InfoKey::WhiteRank).as_deref(), Some("\u{521d}\u{6bb5}"));
    assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("\u{674e}\u{8f7d}\u{96c4}"));
    assert_eq!(info(&evs, InfoKey::Date).as_deref(), Some("2006-9-5"));
    assert_eq!(info(&evs, InfoKey::BoardSize).as_deref(), Some("19"));
    assert_eq!(moves(&evs).len(), 2);
    assert!(warnings(&evs).is_empty());
    assert_eq!(kifu::detect(gi.as_bytes()), Some(Format::Ngf));
    // In GB2312, as the holdout file: detected per game.
    let (gb, _, _) = encoding_rs::GB18030.encode(gi);
    let evs = events(&gb);
    let black = evs.iter().find_map(|e| match e {
        Event::Info(i) if i.key() == InfoKey::BlackName => Some(i.value()),
        _ => None,
    });
    assert_eq!(black.unwrap().charset(), Charset::Gb18030);
    assert_eq!(black.unwrap().to_string_lossy(), "\u{674e}\u{8f7d}\u{96c4}");
}

#[test]
fn several_games_and_blank_lines() {
    let mut two = game("19", "0", "6", "", &["PMABBREER", "", "PMACWEEEE"]).to_vec();
    two.extend_from_slice(b"\n\n");
    two.extend_from_slice(game("19", "0", "6", "", &["PMABBDDDD"]));
    let evs = events(&two);
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 2);
    assert_eq!(moves(&evs).len(), 3);
    assert!(warnings(&evs).is_empty());
    let mut r = kifu::ngf::Reader::new(&two);
    assert!(r.skip_game().unwrap() && r.skip_game().unwrap() && !r.skip_game().unwrap());
    // A header longer than twelve lines (no move line yet): unknown lines.
    let long = b"t\n19\nw\nb\ns\n0\n0\n6\n20200101\n5\nr\n0\nextra\nPMABBDDDD\n";
    assert_eq!(warnings(&events(long)), [WarningKind::UnknownLine]);
    // CRLF and a BOM.
    let crlf = String::from_utf8(game("19", "0", "6", "Black wins by 2.5!", &["PMABBREER"]).to_vec())
        .unwrap()
        .replace('\n', "\r\n");
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(crlf.as_bytes());
    let evs = events(&bom);
    assert_eq!((info(&evs, InfoKey::Result).as_deref(), moves(&evs).len()), (Some("B+2.5"), 1));
    assert!(warnings(&evs).is_empty());
}

#[test]
fn detection_and_registry() {
    let g = game("19", "0", "6", "", &["PMABBREER"]);
    assert_eq!(kifu::detect(g), Some(Format::Ngf));
    assert_eq!(Format::Ngf.kind(), kifu::GameKind::Go);
    assert_eq!(Format::from_name("ngf"), Some(Format::Ngf));
}

/// Sabaki's reading (`ngf.js`): a move for every trimmed line of 7 or more bytes starting `PM`
/// with `B` or `W` at 4, x and y the letters at 5 and 6 minus `B` (`AA` is `[-1, -1]`, which its
/// SGF writes as a pass).
fn sabaki_moves(text: &str) -> Vec<(Color, Option<Point>)> {
    text.split('\n')
        .map(str::trim)
        .filter(|l| l.len() >= 7 && l.starts_with("PM") && matches!(&l[4..5], "B" | "W"))
        .map(|l| {
            let b = l.as_bytes();
            let c = if b[4] == b'B' { Color::Black } else { Color::White };
            let (x, y) = (b[5] as i32 - 66, b[6] as i32 - 66);
            (c, (x >= 0 && y >= 0).then(|| Point::new(x as u8, y as u8)))
        })
        .collect()
}

#[test]
fn corpus_files_and_sabaki() {
    let Some(dir) = common::corpus_dir("ngf") else { return };
    let files = common::files(&dir, &[".ngf"]);
    assert_eq!(files.len(), 2);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(kifu::detect(&bytes), Some(Format::Ngf), "{name}");
        let evs = events(&bytes);
        assert!(warnings(&evs).is_empty(), "{name}");
        check_contract(&bytes, &mut kifu::ngf::Reader::new(&bytes), false);
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(moves(&evs), sabaki_moves(&text), "{name}");
        // The count on line 11 is the last move's number.
        let lines: Vec<_> = text.lines().collect();
        let last = lines.iter().rev().find(|l| l.starts_with("PM")).unwrap().as_bytes();
        assert_eq!(kifu::ngf::move_number([last[2], last[3]]), lines[11].trim().parse().ok());
        assert_eq!(moves(&evs).len(), lines[11].trim().parse::<usize>().unwrap());
        let r = kifu::position::go::replay(&mut kifu::ngf::Reader::new(&bytes), &Default::default()).unwrap().unwrap();
        assert!(r.illegal.is_empty(), "{name}");
        match name.as_str() {
            "sabaki-even.ngf" => {
                assert_eq!(moves(&evs).len(), 333);
                assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("CYY"));
                assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("LQC"));
                assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some("B+0.5"));
                assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("7.5"));
                assert!(setups(&evs).is_empty());
            }
            "sabaki-handicap2.ngf" => {
                assert_eq!(moves(&evs).len(), 189);
                assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("p81587"));
                assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("ace550"));
                assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some("W+R"));
                // Sabaki writes no KM for a komi of 0; the reader gives it as written.
                assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("0"));
                assert_eq!(setups(&evs), [Point::new(3, 15), Point::new(15, 3)]);
                assert_eq!(moves(&evs)[0].0, Color::White);
            }
            other => panic!("unexpected corpus file {other}"),
        }
    }
}

#[test]
fn hostile_input() {
    let g = game("19", "2", "0", "White wins by  resign!", &["PMABWQRRQ", "PMACBEEEE", "PMADWAAAA"]);
    for n in 0..g.len() {
        for strict in [false, true] {
            let config = if strict { Config::strict() } else { Config::lenient() };
            check_contract(&g[..n], &mut kifu::ngf::Reader::with_config(&g[..n], config), strict);
        }
    }
    let evs = events(game("99999999999999", "99999999999", "99999999999999", "Black wins by 99999999999!", &[]));
    assert_eq!(warnings(&evs), [WarningKind::BadBoardSize, WarningKind::BadHandicap, WarningKind::BadKomi]);
    let mut big = game("19", "0", "6", "", &[]).to_vec();
    for i in 0..1_000_000u32 {
        let (x, y) = (b'B' + (i % 19) as u8, b'B' + (i / 19 % 19) as u8);
        big.extend_from_slice(&[b'P', b'M', b'A', b'B', b'B', x, y, y, x, b'\n']);
    }
    big.extend_from_slice(b"\x00\xff binary\n");
    let c = check_contract(&big, &mut kifu::ngf::Reader::new(&big), false);
    assert_eq!(c.games, 2);
    let limited = Config::default().with_limits(kifu::Limits::default().with_max_nodes(1000));
    let items: Vec<_> = kifu::ngf::Reader::with_config(&big, limited).collect();
    assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::LimitExceeded(kifu::Limit::Nodes))));
    let junk: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
    check_contract(&junk, &mut kifu::ngf::Reader::new(&junk), false);
}

/// A fuzz find (the CI's ngf target): a game of one bare `GI` line and its moves, after a
/// standard game, has an empty root node followed straight by its move nodes. That is a valid
/// stream (an SGF `(;;B[aa])` is the same), so the fuzz targets' rule now exempts the root.
#[test]
fn a_bare_gi_game_has_an_empty_root() {
    let mut input = game("19", "0", "5", "Black wins by resign!", &["PMABBDDDD"]).to_vec();
    input.extend_from_slice(b"GI\nPMABBDDDD\nPMACWQPPQ\n");
    let evs = events(&input);
    let second = evs.iter().rposition(|e| matches!(e, Event::GameStart { .. })).unwrap();
    assert!(matches!(evs[second + 1..second + 4], [Event::Node, Event::Node, Event::Move(_)]), "{evs:?}");
    assert_eq!(moves(&evs[second..]).len(), 2);
    let items: Vec<_> = kifu::ngf::Reader::new(&input).collect();
    kifu::kit::check_items(&input, &items, false);
}
