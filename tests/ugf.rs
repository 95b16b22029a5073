//! The UGF/UGI reader: one hand-written case per rule of `shared/specs/gib-ngf-ugf-notes.md`
//! (UGF part) and of the module's mapping, the corpus file (moves, players, result, komi), its
//! moves against Sabaki's reading (`ugf.js`, redone here in a few lines), and hostile input.

mod common;

use kifu::kit::check_contract;
use kifu::{Color, Config, ErrorKind, Event, EventSource, Format, InfoKey, Move, Point, WarningKind};

fn events(input: &[u8]) -> Vec<Event<'_>> {
    kifu::ugf::Reader::new(input).collect::<Result<_, _>>().unwrap()
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

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.kind),
            _ => None,
        })
        .collect()
}

fn property(evs: &[Event], name: &str) -> Option<String> {
    evs.iter().find_map(|e| match e {
        Event::Property(p) if p.name() == name.as_bytes() => Some(p.value().to_string_lossy()),
        _ => None,
    })
}

/// What each node holds, in order: `root`, `B qd`, `W pass`, `C text`, `AB dp`.
fn outline(evs: &[Event]) -> Vec<String> {
    let sgf = |p: &Point| format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char);
    let mut out = Vec::new();
    for e in evs {
        match e {
            Event::Node => out.push("node".to_string()),
            Event::Move(Move::Go { color, point }) => {
                out.push(format!("{} {}", color.letter(), point.as_ref().map_or("pass".into(), sgf)))
            }
            Event::Setup(kifu::Setup::Go { color: Some(c), point }) => {
                out.push(format!("A{} {}", c.letter(), sgf(point)))
            }
            Event::Comment(t) => out.push(format!("C {}", t.to_string_lossy())),
            _ => {}
        }
    }
    out
}

fn game(header: &[&str], data: &[&str], extra: &str) -> &'static [u8] {
    let mut s = String::from("[Header]\n");
    for h in header {
        s += h;
        s += "\n";
    }
    s += "[Data]\n";
    for d in data {
        s += d;
        s += "\n";
    }
    s += extra;
    Box::leak(s.into_bytes().into_boxed_slice())
}

#[test]
fn header_keys() {
    let evs = events(game(
        &[
            "Ver=UGF3,200",
            "Lang=SJIS",
            "Title=2019,PANDA-NET,",
            "Place=PANDA-NET",
            "Date=2019/03/08,22:09:00,2019/03/09,07:16:59",
            "Rule=JPN",
            "Size=19",
            "Hdcp=0,6.50",
            "Writer=PANDA-EGG ver 9.40 beta",
            "Copyright=PANDANET INC.",
            "Comment=",
            "PlayerB=kaziwami,7d,,panda@.jp",
            "PlayerW=YINNI,8d,,x@y",
        ],
        &[],
        "",
    ));
    assert!(matches!(evs[0], Event::GameStart { offset: 0 }));
    assert!(matches!(evs[1], Event::Node));
    let want = [
        (InfoKey::FormatVersion, "UGF3,200"),
        (InfoKey::GameName, "2019,PANDA-NET,"),
        (InfoKey::Place, "PANDA-NET"),
        (InfoKey::Date, "2019/03/08"),
        (InfoKey::Rules, "JPN"),
        (InfoKey::BoardSize, "19"),
        (InfoKey::Komi, "6.50"),
        (InfoKey::Application, "PANDA-EGG ver 9.40 beta"),
        (InfoKey::Copyright, "PANDANET INC."),
        (InfoKey::BlackName, "kaziwami"),
        (InfoKey::BlackRank, "7d"),
        (InfoKey::WhiteName, "YINNI"),
        (InfoKey::WhiteRank, "8d"),
    ];
    for (k, v) in want {
        assert_eq!(info(&evs, k).as_deref(), Some(v), "{k:?}");
    }
    assert_eq!(info(&evs, InfoKey::Handicap), None);
    assert_eq!(info(&evs, InfoKey::GameComment), None);
    assert_eq!(property(&evs, "Lang").as_deref(), Some("SJIS"));
    assert_eq!(property(&evs, "Comment").as_deref(), Some(""));
    assert!(warnings(&evs).is_empty());
}

#[test]
fn negative_komi_and_handicap() {
    let evs = events(game(&["Hdcp=0,-5.50"], &[], ""));
    assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("-5.50"));
    let evs = events(game(&["Hdcp=3,0.50"], &[], ""));
    assert_eq!(info(&evs, InfoKey::Handicap).as_deref(), Some("3"));
}

#[test]
fn winner() {
    for (v, want) in
        [("B,7.50", "B+7.5"), ("W,0.50", "W+0.5"), ("W,12", "W+12"), ("B,R", "B+R"), ("W,Time", "W+T"), ("B", "B+")]
    {
        let evs = events(game(&[&format!("Winner={v}")], &[], ""));
        assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some(want), "{v}");
        assert!(warnings(&evs).is_empty());
    }
    for v in ["X,1", "B,7.25", "B,??"] {
        let evs = events(game(&[&format!("Winner={v}")], &[], ""));
        assert_eq!(info(&evs, InfoKey::Result), None, "{v}");
        assert_eq!(warnings(&evs), [WarningKind::BadValue], "{v}");
        assert!(property(&evs, "Winner").is_some());
    }
}

#[test]
fn rows_count_from_the_bottom() {
    let evs = events(game(&["Size=19"], &["QP,B1,1,0", "DP,W1,2,0", "AA,B1,3,0", "SS,W1,4,0"], ""));
    assert_eq!(outline(&evs), ["node", "node", "B qd", "node", "W dd", "node", "B as", "node", "W sa"]);
    // On a 9×9 board.
    let evs = events(game(&["Size=9"], &["AA,B1,1,0", "II,W1,2,0"], ""));
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(0, 8))), (Color::White, Some(Point::new(8, 0)))]);
}

#[test]
fn passes_off_the_board() {
    // `YA` (the last moves of sabaki-review.ugi) is outside a 19×19 board: a pass.
    let evs = events(game(&["Size=19"], &["QP,B1,1,0", "YA,W1,2,0", "YA,B1,3,0"], ""));
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(16, 3))), (Color::White, None), (Color::Black, None)]);
    assert!(warnings(&evs).is_empty());
}

#[test]
fn node_zero_is_a_handicap_stone() {
    let evs = events(game(&["Size=19", "Hdcp=2,0.50"], &["DD,B1,0,0", "PP,B1,0,0", "QD,W1,1,0"], ""));
    assert_eq!(outline(&evs), ["node", "AB dp", "AB pd", "node", "W qp"]);
    // After a move, a node-0 stone is dropped with a warning.
    let evs = events(game(&[], &["QD,W1,1,0", "DD,B1,0,0"], ""));
    assert_eq!(warnings(&evs), [WarningKind::BadValue]);
}

#[test]
fn bad_data_lines() {
    for (line, kind) in [
        ("QD,X1,1,0", WarningKind::BadValue),
        ("Q,B1,1,0", WarningKind::BadPoint),
        ("Q1,B1,1,0", WarningKind::BadPoint),
        ("QD,B1", WarningKind::BadPoint),
    ] {
        let evs = events(game(&[], &[line, "DD,W1,2,0"], ""));
        assert_eq!(warnings(&evs), [kind], "{line}");
        assert_eq!(moves(&evs).len(), 1, "{line}");
        let items: Vec<_> = kifu::ugf::Reader::with_config(game(&[], &[line], ""), Config::strict()).collect();
        assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::Strict(kind))), "{line}");
    }
    // Lower-case letters are read as upper-case ones (gofish upper-cases every line).
    assert_eq!(moves(&events(game(&[], &["qp,b1,1,0"], ""))), [(Color::Black, Some(Point::new(16, 3)))]);
}

#[test]
fn review_comments_go_to_node_n_minus_1() {
    let extra = "[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,17,16\n[ReviewComment]\n.Comment,1\nabout the game\n.Comment,2\nfirst move\nsecond line\n.Comment,3\nreply\n";
    let evs = events(game(&["Size=19"], &["QP,B1,1,0", "DP,W1,2,0"], extra));
    assert_eq!(
        outline(&evs),
        ["node", "C about the game", "node", "B qd", "C first move\nsecond line", "node", "W dd", "C reply"]
    );
    assert!(warnings(&evs).is_empty());
    // A comment on a node that never comes.
    let evs = events(game(&[], &["QP,B1,1,0"], "[ReviewComment]\n.Comment,9\nlost\n"));
    assert_eq!(warnings(&evs), [WarningKind::BadValue]);
    // Comments in a game without moves go to the root.
    let evs = events(game(&[], &[], "[ReviewComment]\n.Comment,1\nroot\n"));
    assert_eq!(outline(&evs), ["node", "C root"]);
}

#[test]
fn sections_and_blank_lines() {
    let g = b"\n[Header]\n\nSize=19\n\n[Figure]\nanything\n[Data]\nQP,B1,1,0\n\n[Strange]\nx\n";
    let evs = events(g);
    assert_eq!(moves(&evs).len(), 1);
    assert_eq!(warnings(&evs), [WarningKind::UnknownLine]);
    // A header line without `=`.
    assert_eq!(warnings(&events(game(&["nonsense"], &[], ""))), [WarningKind::UnknownLine]);
    // Two games, junk before the first, CRLF.
    let two = b"junk\r\n[Header]\r\nSize=19\r\n[Data]\r\nQP,B1,1,0\r\n[Header]\r\nSize=9\r\n[Data]\r\nAA,W1,1,0\r\n";
    let evs = events(two);
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 2);
    assert_eq!(warnings(&evs), [WarningKind::UnknownLine]);
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(16, 3))), (Color::White, Some(Point::new(0, 8)))]);
    let mut r = kifu::ugf::Reader::new(two);
    assert!(r.skip_game().unwrap() && r.skip_game().unwrap() && !r.skip_game().unwrap());
}

#[test]
fn detection_and_registry() {
    let g = game(&["Ver=UGF3,200", "Size=19"], &["QP,B1,1,0"], "");
    assert_eq!(kifu::detect(g), Some(Format::Ugf));
    assert_eq!(Format::Ugf.kind(), kifu::GameKind::Go);
    assert_eq!(Format::from_name("ugf"), Some(Format::Ugf));
    // An INI file with other keys is not UGF (nor CSA).
    assert_eq!(kifu::detect(b"[Header]\nHdVer=1\n[Data]\nQD,B1,1,0\n"), None);
}

/// Sabaki's reading (`ugf.js`): every `[Data]` line of node > 0 a move, x the first letter, y
/// `size − (letter − 'A') − 1`; its SGF keeps points off the board as points.
fn sabaki_moves(text: &str, size: u8) -> Vec<(Color, (i32, i32))> {
    let mut mode = "";
    let mut out = Vec::new();
    for line in text.split('\n').map(str::trim) {
        if line.starts_with('[') && line.ends_with(']') {
            mode = &line[1..line.len() - 1];
            continue;
        }
        if mode == "Data" && !line.is_empty() {
            let f: Vec<_> = line.split(',').collect();
            if f[2].parse::<u32>().unwrap() > 0 {
                let b = f[0].as_bytes();
                let c = if f[1].starts_with('B') { Color::Black } else { Color::White };
                out.push((c, ((b[0] - b'A') as i32, size as i32 - (b[1] - b'A') as i32 - 1)));
            }
        }
    }
    out
}

#[test]
fn corpus_file_and_sabaki() {
    let Some(dir) = common::corpus_dir("ugf") else { return };
    let files = common::files(&dir, &[".ugf", ".ugi"]);
    assert_eq!(files.len(), 1);
    let bytes = std::fs::read(&files[0]).unwrap();
    assert_eq!(kifu::detect(&bytes), Some(Format::Ugf));
    let evs = events(&bytes);
    assert!(warnings(&evs).is_empty());
    check_contract(&bytes, &mut kifu::ugf::Reader::new(&bytes), false);
    let ours: Vec<_> =
        moves(&evs).into_iter().map(|(c, p)| (c, p.map(|p| (p.x as i32, p.y as i32)).unwrap())).collect();
    assert_eq!(ours, sabaki_moves(&String::from_utf8_lossy(&bytes), 19));
    assert_eq!(ours.len(), 254);
    assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("kaziwami"));
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("YINNI"));
    // Sabaki writes `B+7.50`; the reader gives the SGF form.
    assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some("B+7.5"));
    assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("-5.50"));
    assert_eq!(info(&evs, InfoKey::Handicap), None);
    let r = kifu::position::go::replay(&mut kifu::ugf::Reader::new(&bytes), &Default::default()).unwrap().unwrap();
    assert!(r.illegal.is_empty());
    // `[ReviewNode]` lists the same moves again: `NODE,<n>,<colour>,<x>,<y>`, 1-based, rows from the bottom.
    let text = String::from_utf8_lossy(&bytes);
    let review: Vec<_> = text
        .lines()
        .filter_map(|l| l.strip_prefix("NODE,"))
        .map(|l| l.split(',').map(|v| v.parse::<i32>().unwrap()).collect::<Vec<_>>())
        .filter(|v| v[1] != 0)
        .map(|v| (if v[1] == 1 { Color::Black } else { Color::White }, (v[2] - 1, 19 - v[3])))
        .collect();
    assert_eq!(review, ours[..review.len()]);
    assert!(review.len() > 200);
}

#[test]
fn hostile_input() {
    let g = game(
        &["Size=19", "Hdcp=2,0.5", "Winner=W,R"],
        &["DD,B1,0,0", "QP,W1,1,0", "YA,B1,2,0"],
        "[ReviewComment]\n.Comment,2\nx\n",
    );
    for n in 0..g.len() {
        for strict in [false, true] {
            let config = if strict { Config::strict() } else { Config::lenient() };
            check_contract(&g[..n], &mut kifu::ugf::Reader::with_config(&g[..n], config), strict);
        }
    }
    let evs = events(game(
        &["Size=99999999999", "Winner=B,99999999999.5"],
        &["QP,B1,99999999999,0"],
        "[ReviewComment]\n.Comment,99999999999\n",
    ));
    assert_eq!(warnings(&evs), [WarningKind::BadBoardSize, WarningKind::BadValue, WarningKind::BadPoint]);
    let mut big = b"[Header]\nSize=19\n[Data]\n".to_vec();
    for i in 0..1_000_000u32 {
        big.extend_from_slice(&[b'A' + (i % 19) as u8, b'A' + (i / 19 % 19) as u8, b',', b'B', b'1', b',']);
        big.extend_from_slice(format!("{},0\n", i + 1).as_bytes());
    }
    big.extend_from_slice(b"\x00\xff binary\n");
    let c = check_contract(&big, &mut kifu::ugf::Reader::new(&big), false);
    assert_eq!(c.games, 1);
    let limited = Config::default().with_limits(kifu::Limits::default().with_max_nodes(1000));
    let items: Vec<_> = kifu::ugf::Reader::with_config(&big, limited).collect();
    assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::LimitExceeded(kifu::Limit::Nodes))));
    let junk: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
    check_contract(&junk, &mut kifu::ugf::Reader::new(&junk), false);
}
