//! The GIB reader: one hand-written case per rule of `shared/specs/gib-ngf-ugf-notes.md` (GIB
//! part) and of the module's mapping, every corpus file (with its moves, players, result, komi
//! and handicap asserted), the moves against Sabaki's reading (`gib.js`, redone here in a few
//! lines: every `STO` line, nothing else), and hostile input.

mod common;

use kifu::kit::check_contract;
use kifu::{Charset, Color, Config, ErrorKind, Event, EventSource, Format, InfoKey, Move, Point, WarningKind};

/// The events of `input`, read leniently (panics on an error).
fn events(input: &[u8]) -> Vec<Event<'_>> {
    kifu::gib::Reader::new(input).collect::<Result<_, _>>().unwrap()
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

fn property(evs: &[Event], name: &str) -> Option<String> {
    evs.iter().find_map(|e| match e {
        Event::Property(p) if p.name() == name.as_bytes() => Some(p.value().to_string_lossy()),
        _ => None,
    })
}

/// A game with the given header lines and game-block lines.
fn game(header: &[&str], block: &[&str]) -> &'static [u8] {
    let mut s = String::from("\\HS\n");
    for h in header {
        s += &format!("\\[{h}\\]\n");
    }
    s += "\\HE\n\\GS\n2 1 0\n10 0 &4\n";
    for b in block {
        s += b;
        s += "\n";
    }
    s += "\\GE\n";
    Box::leak(s.into_bytes().into_boxed_slice())
}

#[test]
fn layout_header_and_game_blocks() {
    let g = game(&["GIBOKIND=Global", "GAMELECNAME="], &["INI 0 1 0 &4 ", "STO 0 2 1 15 3 "]);
    let evs = events(g);
    assert!(matches!(evs[0], Event::GameStart { offset: 0 }));
    assert!(matches!(evs[1], Event::Node));
    assert_eq!(info(&evs, InfoKey::BoardSize).as_deref(), Some("19"));
    // Unknown keys and empty values are properties named by their key.
    assert_eq!(property(&evs, "GIBOKIND").as_deref(), Some("Global"));
    assert_eq!(property(&evs, "GAMELECNAME").as_deref(), Some(""));
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(15, 3)))]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { length, .. }) if *length == g.len() as u64));
    assert!(warnings(&evs).is_empty());
}

#[test]
fn keys_are_open_ended() {
    // `GAMEWIMAG` (sabaki-utf8.gib) is not in gibson's list.
    let evs = events(game(&["GAMEWIMAG=x", "SOMETHINGNEW=1"], &[]));
    assert_eq!(property(&evs, "GAMEWIMAG").as_deref(), Some("x"));
    assert_eq!(property(&evs, "SOMETHINGNEW").as_deref(), Some("1"));
}

#[test]
fn players_and_ranks() {
    let evs = events(game(&["GAMEWHITENAME=ddt666 (4D)", "GAMEBLACKNAME=harpmaster(3D)"], &[]));
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("ddt666"));
    assert_eq!(info(&evs, InfoKey::WhiteRank).as_deref(), Some("4D"));
    assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("harpmaster"));
    assert_eq!(info(&evs, InfoKey::BlackRank).as_deref(), Some("3D"));
    // Two `(`, or a `)` not at the end: the whole value is the name, as Sabaki reads it.
    let evs = events(game(&["GAMEWHITENAME=a (b) (c)", "GAMEBLACKNAME=x (y) z"], &[]));
    assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some("a (b) (c)"));
    assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some("x (y) z"));
    assert_eq!(info(&evs, InfoKey::WhiteRank), None);
}

#[test]
fn date_place_name_comment() {
    let evs = events(game(
        &["GAMEDATE=2020- 8- 4-11- 7-47", "GAMEPLACE=Tygem Baduk", "GAMENAME=Rank", "GAMECOMMENT=nice"],
        &[],
    ));
    assert_eq!(info(&evs, InfoKey::Date).as_deref(), Some("2020- 8- 4-11- 7-47"));
    assert_eq!(info(&evs, InfoKey::Place).as_deref(), Some("Tygem Baduk"));
    assert_eq!(info(&evs, InfoKey::GameName).as_deref(), Some("Rank"));
    assert_eq!(info(&evs, InfoKey::GameComment).as_deref(), Some("nice"));
    // An empty value gives no information, only the property.
    let evs = events(game(&["GAMECOMMENT="], &[]));
    assert_eq!(info(&evs, InfoKey::GameComment), None);
    assert_eq!(property(&evs, "GAMECOMMENT").as_deref(), Some(""));
}

fn main_info(list: &str) -> Vec<Event<'static>> {
    events(game(&[&format!("GAMEINFOMAIN={list}")], &[]))
}

#[test]
fn result_codes() {
    let cases = [
        ("GRLT:0,ZIPSU:35,", Some("B+3.5")),
        ("GRLT:1,ZIPSU:245,", Some("W+24.5")),
        ("GRLT:1,ZIPSU:110,", Some("W+11")),
        ("GRLT:3,ZIPSU:0,", Some("B+R")),
        ("GRLT:4,ZIPSU:0,", Some("W+R")),
        ("GRLT:7,ZIPSU:0,", Some("B+T")),
        ("GRLT:8,ZIPSU:0,", Some("W+T")),
        ("GRLT:6,ZIPSU:0,", Some("W+F")),
        ("GRLT:255,ZIPSU:0,", Some("Void")),
    ];
    for (list, want) in cases {
        let evs = main_info(list);
        assert_eq!(info(&evs, InfoKey::Result).as_deref(), want, "{list}");
        assert!(warnings(&evs).is_empty(), "{list}");
        assert!(property(&evs, "GAMEINFOMAIN").is_some());
    }
    // A code that names no result, or a win on points without its score.
    for list in ["GRLT:2,ZIPSU:0,", "GRLT:0,", "GRLT:x,"] {
        let evs = main_info(list);
        assert_eq!(info(&evs, InfoKey::Result), None, "{list}");
        assert_eq!(warnings(&evs), [WarningKind::BadValue], "{list}");
    }
}

#[test]
fn komi_is_gongje_over_ten_and_main_time_from_gtime() {
    let evs = main_info("GBKIND:3,GTIME:600-30-3,GRLT:4,ZIPSU:0,DUM:0,GONGJE:65,TCNT:152,AUSZ:0");
    assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("6.5"));
    assert_eq!(info(&evs, InfoKey::TimeLimit).as_deref(), Some("600"));
    assert_eq!(info(&main_info("GONGJE:0,"), InfoKey::Komi).as_deref(), Some("0"));
    assert_eq!(info(&main_info("GONGJE:75,"), InfoKey::Komi).as_deref(), Some("7.5"));
    // GB2312 text in GTIME (sabaki-gb2312.gib) gives no main time.
    assert_eq!(info(&main_info("GTIME:\u{65e0},GONGJE:0,"), InfoKey::TimeLimit), None);
    // Past 400 points.
    let evs = main_info("GONGJE:99999,");
    assert_eq!((info(&evs, InfoKey::Komi), warnings(&evs)), (None, vec![WarningKind::BadKomi]));
}

#[test]
fn gametag_fills_what_infomain_did_not_give() {
    // With tabs inside, as in the Ekenstein files.
    let tag = "GAMETAG=S0,R0,D0,G65,W4,Z0,T30-1-600,\t\tC2020:08:21:22:55,\t\tI:x,L:21";
    let evs = events(game(&[tag], &[]));
    assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("6.5"));
    assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some("W+R"));
    assert_eq!(info(&evs, InfoKey::Date).as_deref(), Some("2020:08:21:22:55"));
    // After GAMEINFOMAIN and GAMEDATE, the tag gives nothing more.
    let evs = events(game(
        &["GAMEDATE=2020- 8-21", "GAMEINFOMAIN=GRLT:1,ZIPSU:5,GONGJE:75,", "GAMETAG=G65,W4,Z0,C2020:08:21"],
        &[],
    ));
    let infos = |k| evs.iter().filter(|e| matches!(e, Event::Info(i) if i.key() == k)).count();
    assert_eq!((infos(InfoKey::Result), infos(InfoKey::Komi), infos(InfoKey::Date)), (1, 1, 1));
    assert_eq!(info(&evs, InfoKey::Result).as_deref(), Some("W+0.5"));
    assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some("7.5"));
}

#[test]
fn counter_lines_are_skipped_and_ini_gives_the_handicap() {
    let evs = events(game(&[], &["INI 0 1 0 &4 ", "STO 0 2 1 3 3 "]));
    assert_eq!(info(&evs, InfoKey::Handicap), None);
    assert!(setups(&evs).is_empty());
    assert!(warnings(&evs).is_empty());
    // Text glued to the INI line (sabaki-gb2312.gib): the fourth token only.
    let evs = events(game(&[], &["INI 0 1 5 &4\u{5728}272 ", "STO 0 2 2 16 13 "]));
    assert_eq!(info(&evs, InfoKey::Handicap).as_deref(), Some("5"));
    let sgf: Vec<_> =
        setups(&evs).iter().map(|p| format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)).collect();
    assert_eq!(sgf, ["dp", "pd", "dd", "pp", "jj"]);
    assert_eq!(moves(&evs), [(Color::White, Some(Point::new(16, 13)))]);
    // Tygem's layout for 2 and 3 stones (KaTrain and Sabaki place the same).
    let evs = events(game(&[], &["INI 0 1 2 &4"]));
    assert_eq!(setups(&evs), [Point::new(3, 15), Point::new(15, 3)]);
    let evs = events(game(&[], &["INI 0 1 3 &4"]));
    assert_eq!(setups(&evs), [Point::new(3, 15), Point::new(15, 3), Point::new(3, 3)]);
    // A handicap past 9, or not a number.
    for bad in ["INI 0 1 12 &4", "INI 0 1 x &4", "INI"] {
        let evs = events(game(&[], &[bad]));
        assert_eq!(warnings(&evs), [WarningKind::BadHandicap], "{bad}");
        assert!(setups(&evs).is_empty());
    }
}

#[test]
fn sto_moves_and_ski_passes() {
    let evs = events(game(&[], &["STO 0 2 1 0 0 ", "STO 0 3 2 18 18 ", "SKI 0 4", "SKI 0 5", "STO 0 6 1 9 10"]));
    assert_eq!(
        moves(&evs),
        [
            (Color::Black, Some(Point::new(0, 0))),
            (Color::White, Some(Point::new(18, 18))),
            (Color::Black, None),
            (Color::White, None),
            (Color::Black, Some(Point::new(9, 10))),
        ]
    );
    // Every move in a node of its own.
    let nodes = evs.iter().filter(|e| matches!(e, Event::Node)).count();
    assert_eq!(nodes, 1 + 5);
    // A pass in a handicap game before any move is White's.
    let evs = events(game(&[], &["INI 0 1 2 &4", "SKI 0 2"]));
    assert_eq!(moves(&evs), [(Color::White, None)]);
}

#[test]
fn bad_move_lines_are_dropped_with_a_warning() {
    let cases = [
        ("STO 0 2 3 3 3", WarningKind::BadValue),
        ("STO 0 2 1 x 3", WarningKind::BadPoint),
        ("STO 0 2 1 3", WarningKind::BadPoint),
        ("STO 0 2 1 19 3", WarningKind::PointOffBoard),
        ("MOVE 1 2", WarningKind::UnknownLine),
    ];
    for (line, kind) in cases {
        let evs = events(game(&[], &[line, "STO 0 3 2 4 4"]));
        assert_eq!(warnings(&evs), [kind], "{line}");
        assert_eq!(moves(&evs), [(Color::White, Some(Point::new(4, 4)))], "{line}");
        // Strict mode: an error, inside the game.
        let items: Vec<_> = kifu::gib::Reader::with_config(game(&[], &[line]), Config::strict()).collect();
        assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::Strict(kind))), "{line}");
    }
}

#[test]
fn header_oddities() {
    // No closing `\]`: repaired, the value runs to the line's end.
    let g = b"\\HS\n\\[GAMENAME=Rank\n\\HE\n\\GS\n\\GE\n";
    let evs = events(g);
    assert_eq!(info(&evs, InfoKey::GameName).as_deref(), Some("Rank"));
    assert_eq!(warnings(&evs), [WarningKind::Repaired]);
    // A line that is no header line.
    let evs = events(b"\\HS\nhello\n\\HE\n\\GS\n\\GE\n");
    assert_eq!(warnings(&evs), [WarningKind::UnknownLine]);
    // No `\HE`: `\GS` opens the game block all the same.
    let evs = events(b"\\HS\n\\GS\nSTO 0 2 1 1 1\n\\GE\n");
    assert_eq!(moves(&evs).len(), 1);
    assert!(warnings(&evs).is_empty());
}

#[test]
fn crlf_and_bom_and_leading_spaces() {
    let g = b"\xEF\xBB\xBF\\HS\r\n\\[GAMEBLACKNAME=Lee (9D)\\]\r\n\\HE\r\n\\GS\r\n  STO 0 2 1 3 3 \r\n\\GE\r\n";
    let evs = events(g);
    assert_eq!(info(&evs, InfoKey::BlackRank).as_deref(), Some("9D"));
    assert_eq!(moves(&evs), [(Color::Black, Some(Point::new(3, 3)))]);
    assert!(warnings(&evs).is_empty());
    assert!(matches!(evs[0], Event::GameStart { offset: 3 }));
}

#[test]
fn several_games_junk_and_cut_games() {
    let mut two = game(&["GAMENAME=a"], &["STO 0 2 1 1 1"]).to_vec();
    two.extend_from_slice(b"junk\n\n");
    two.extend_from_slice(game(&["GAMENAME=b"], &["STO 0 2 1 2 2"]));
    let evs = events(&two);
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameStart { .. })).count(), 2);
    assert_eq!(warnings(&evs), [WarningKind::UnknownLine]);
    // A game without `\GE` ends at the next `\HS`, truncated.
    let cut = b"\\HS\n\\HE\n\\GS\nSTO 0 2 1 1 1\n\\HS\n\\HE\n\\GS\nSTO 0 2 1 2 2\n\\GE\n";
    let evs = events(cut);
    assert_eq!(warnings(&evs), [WarningKind::Truncated]);
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 2);
    assert_eq!(moves(&evs).len(), 2);
    // skip_game agrees.
    let mut r = kifu::gib::Reader::new(cut);
    assert!(r.skip_game().unwrap());
    assert!(r.skip_game().unwrap());
    assert!(!r.skip_game().unwrap());
    // A game without a header.
    let evs = events(b"\\GS\n2 1 0\nSTO 0 2 1 1 1\n\\GE\n");
    assert_eq!(moves(&evs).len(), 1);
}

#[test]
fn charsets_are_detected_per_game() {
    // EUC-KR "흑" and GBK "黑" names in two games of one file.
    let mut file = b"\\HS\n\\[GAMEBLACKNAME=\xC8\xE6\xB1\xE2\xBB\xE7 (1\xB1\xDE)\\]\n\\HE\n\\GS\n\\GE\n".to_vec();
    file.extend_from_slice("\\HS\n\\[GAMEBLACKNAME=\u{6734}\u{627f}\u{534e}\\]\n\\HE\n\\GS\n\\GE\n".as_bytes());
    let mut charsets = Vec::new();
    for ev in kifu::gib::Reader::new(&file) {
        if let Event::Info(i) = ev.unwrap() {
            charsets.push(i.value().charset());
        }
    }
    assert_eq!(charsets.iter().filter(|c| **c == Charset::EucKr).count(), 2, "{charsets:?}");
    assert_eq!(charsets.last(), Some(&Charset::Utf8));
    // A fixed charset overrides detection.
    let evs: Vec<_> = kifu::gib::Reader::new(&file).with_charset(Charset::Gb18030).collect::<Result<_, _>>().unwrap();
    assert!(evs.iter().all(
        |e| !matches!(e, Event::Info(i) if i.key() == InfoKey::BlackName && i.value().charset() != Charset::Gb18030)
    ));
}

#[test]
fn detection_and_registry() {
    let g = game(&["GAMENAME=x"], &["STO 0 2 1 1 1"]);
    assert_eq!(kifu::detect(g), Some(Format::Gib));
    assert_eq!(Format::Gib.kind(), kifu::GameKind::Go);
    assert_eq!(Format::from_name("gib"), Some(Format::Gib));
    assert_eq!(kifu::detect(b"In GIB files, \\HS starts the header.\n"), None);
    let mut r = kifu::AnyReader::detect(g, Config::default()).unwrap();
    let mut n = 0;
    while let Some(ev) = r.next_event() {
        n += matches!(ev.unwrap(), Event::Move(_)) as usize;
    }
    assert_eq!(n, 1);
}

struct Expect {
    file: &'static str,
    moves: usize,
    passes: usize,
    black: &'static str,
    white: &'static str,
    result: Option<&'static str>,
    komi: &'static str,
    handicap: usize,
    charset: Charset,
}

const EXPECT: &[Expect] = &[
    Expect {
        file: "ekenstein-K_002odc_4D__Menskit_4D__202008212255.gib",
        moves: 152,
        passes: 0,
        black: "Menskit",
        white: "K_002odc",
        result: Some("W+R"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::Utf8,
    },
    Expect {
        file: "ekenstein-Menskit_1D__zxcv2358_1D__202006291602.gib",
        moves: 262,
        passes: 2,
        black: "zxcv2358",
        white: "Menskit",
        result: Some("W+24.5"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::Utf8,
    },
    Expect {
        file: "ekenstein-Menskit_4D__W_003ej9_4D__202009051109.gib",
        moves: 59,
        passes: 0,
        black: "W_003ej9",
        white: "Menskit",
        result: Some("W+F"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::Utf8,
    },
    Expect {
        file: "ekenstein-ddt666_4D__Menskit_4D__202008041107.gib",
        moves: 159,
        passes: 0,
        black: "Menskit",
        white: "ddt666",
        result: Some("B+R"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::Utf8,
    },
    Expect {
        file: "katrain-test.gib",
        moves: 232,
        passes: 0,
        black: "kim",
        white: "wildsim1",
        result: Some("W+T"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::Utf8,
    },
    Expect {
        file: "sabaki-euc-kr.gib",
        moves: 49,
        passes: 0,
        black: "dustkd1015",
        white: "dongjik",
        result: Some("B+T"),
        komi: "6.5",
        handicap: 0,
        charset: Charset::EucKr,
    },
    Expect {
        file: "sabaki-gb2312.gib",
        moves: 268,
        passes: 0,
        black: "\u{77f3}\u{4e0b}\u{4e4b}\u{81e3}",
        white: "harpmaster",
        result: Some("W+11"),
        komi: "0",
        handicap: 5,
        charset: Charset::Gb18030,
    },
    Expect {
        file: "sabaki-utf8.gib",
        moves: 118,
        passes: 0,
        black: "jy512",
        white: "leejw977",
        result: Some("Void"),
        komi: "0",
        handicap: 3,
        charset: Charset::Utf8,
    },
];

#[test]
fn corpus_files() {
    let Some(dir) = common::corpus_dir("gib") else { return };
    let files = common::files(&dir, &[".gib"]);
    assert_eq!(files.len(), 10);
    let mut checked = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(kifu::detect(&bytes), Some(Format::Gib), "{name}");
        let evs = events(&bytes);
        assert!(warnings(&evs).is_empty(), "{name}: {:?}", warnings(&evs));
        assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 1);
        let c = check_contract(&bytes, &mut kifu::gib::Reader::new(&bytes), false);
        assert_eq!(c.games, 1, "{name}");
        // Every game replays without an illegal move.
        let opts = kifu::position::go::ReplayOptions::default();
        let r = kifu::position::go::replay(&mut kifu::gib::Reader::new(&bytes), &opts).unwrap().unwrap();
        assert!(r.illegal.is_empty(), "{name}: {:?}", r.illegal);
        assert_eq!((r.size, r.setup as usize), ((19, 19), setups(&evs).len()), "{name}");
        let Some(x) = EXPECT.iter().find(|x| x.file == name) else { continue };
        let m = moves(&evs);
        assert_eq!(m.len(), x.moves, "{name}");
        assert_eq!(m.iter().filter(|(_, p)| p.is_none()).count(), x.passes, "{name}");
        assert_eq!(info(&evs, InfoKey::BlackName).as_deref(), Some(x.black), "{name}");
        assert_eq!(info(&evs, InfoKey::WhiteName).as_deref(), Some(x.white), "{name}");
        assert_eq!(info(&evs, InfoKey::Result).as_deref(), x.result, "{name}");
        assert_eq!(info(&evs, InfoKey::Komi).as_deref(), Some(x.komi), "{name}");
        assert_eq!(setups(&evs).len(), x.handicap, "{name}");
        let charset = evs.iter().find_map(|e| match e {
            Event::Info(i) if i.key() == InfoKey::BlackName => Some(i.value().charset()),
            _ => None,
        });
        assert_eq!(charset, Some(x.charset), "{name}");
        checked += 1;
    }
    assert_eq!(checked, EXPECT.len());
}

/// Sabaki's reading (`gib.js`): a move for every trimmed line starting `STO` with six
/// space-separated fields (colour `1` Black, else White), nothing for `SKI`.
fn sabaki_moves(text: &str) -> Vec<(Color, Point)> {
    text.split('\n')
        .map(str::trim)
        .filter(|l| l.starts_with("STO"))
        .filter_map(|l| {
            let e: Vec<_> = l.split(' ').collect();
            if e.len() < 6 {
                return None;
            }
            let c = if e[3] == "1" { Color::Black } else { Color::White };
            Some((c, Point::new(e[4].parse().ok()?, e[5].parse().ok()?)))
        })
        .collect()
}

/// Sabaki's result and komi from `GAMEINFOMAIN` (`GRLT`, `ZIPSU`, `GONGJE`), where it gives one.
fn sabaki_result_komi(text: &str) -> (Option<String>, Option<String>) {
    let Some(line) = text.lines().find(|l| l.trim().starts_with("\\[GAMEINFOMAIN=")) else { return (None, None) };
    let field = |k: &str| {
        line.split(',')
            .find_map(|it| it.trim_start_matches("\\[GAMEINFOMAIN=").strip_prefix(k))
            .and_then(|v| v.parse::<u32>().ok())
    };
    let result = match (field("GRLT:"), field("ZIPSU:")) {
        (Some(3), Some(_)) => Some("B+R".to_string()),
        (Some(4), Some(_)) => Some("W+R".to_string()),
        (Some(7), Some(_)) => Some("B+T".to_string()),
        (Some(8), Some(_)) => Some("W+T".to_string()),
        (Some(g @ (0 | 1)), Some(z)) => Some(format!("{}+{}", if g == 0 { 'B' } else { 'W' }, z as f64 / 10.0)),
        _ => None,
    };
    (result, field("GONGJE:").map(|k| format!("{}", k as f64 / 10.0)))
}

#[test]
fn moves_agree_with_sabaki_but_for_passes() {
    let Some(dir) = common::corpus_dir("gib") else { return };
    let mut passes = 0;
    let mut differing_results = Vec::new();
    for path in common::files(&dir, &[".gib"]) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let evs = events(&bytes);
        let ours: Vec<_> = moves(&evs).into_iter().filter_map(|(c, p)| Some((c, p?))).collect();
        // Sabaki decodes the whole file first; the moves are ASCII in every charset.
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(ours, sabaki_moves(&text), "{name}");
        // The one difference in moves: SKI passes, which Sabaki drops.
        let ski = text.lines().filter(|l| l.trim_start().starts_with("SKI")).count();
        assert_eq!(moves(&evs).len() - ours.len(), ski, "{name}");
        passes += ski;
        let (result, komi) = sabaki_result_komi(&text);
        assert_eq!(info(&evs, InfoKey::Komi), komi, "{name}");
        match result {
            Some(r) => assert_eq!(info(&evs, InfoKey::Result), Some(r), "{name}"),
            // Codes Sabaki does not map: 6 (disconnection) and 255 (unfinished).
            None => differing_results.push(info(&evs, InfoKey::Result).unwrap()),
        }
    }
    assert_eq!(passes, 2);
    differing_results.sort();
    assert_eq!(differing_results, ["Void", "W+F"]);
}

#[test]
fn hostile_input() {
    // Truncated at every byte of a corpus-like game: no panic, the contract holds.
    let g = game(
        &["GAMEBLACKNAME=Lee (9D)", "GAMEINFOMAIN=GRLT:1,ZIPSU:5,GONGJE:65,"],
        &["INI 0 1 3 &4", "STO 0 2 2 3 3", "SKI 0 3"],
    );
    for n in 0..g.len() {
        for strict in [false, true] {
            let config = if strict { Config::strict() } else { Config::lenient() };
            check_contract(&g[..n], &mut kifu::gib::Reader::with_config(&g[..n], config), strict);
        }
    }
    // Huge numbers.
    let evs = events(game(
        &["GAMEINFOMAIN=GRLT:99999999999999,ZIPSU:99999999999999,GONGJE:99999999999999,"],
        &["STO 0 2 1 99999999999 3", "INI 0 1 99999999999999999 &4"],
    ));
    assert_eq!(moves(&evs).len(), 0);
    assert_eq!(warnings(&evs).len(), 4);
    // 10^6 move lines, then binary junk.
    let mut big = b"\\HS\n\\HE\n\\GS\n".to_vec();
    for i in 0..1_000_000u32 {
        if i % 2 == 0 {
            big.extend_from_slice(format!("STO 0 {} 1 {} {}\n", i, i % 19, (i / 19) % 19).as_bytes());
        } else {
            big.extend_from_slice(b"SKI 0 1\n");
        }
    }
    big.extend_from_slice(b"\\GE\n\x00\xff\xfe binary \x01\n");
    let c = check_contract(&big, &mut kifu::gib::Reader::new(&big), false);
    assert_eq!(c.games, 1);
    let limited = Config::default().with_limits(kifu::Limits::default().with_max_nodes(1000));
    let items: Vec<_> = kifu::gib::Reader::with_config(&big, limited).collect();
    assert!(items.iter().any(|i| matches!(i, Err(e) if e.kind() == ErrorKind::LimitExceeded(kifu::Limit::Nodes))));
    // Binary junk alone: warnings, no game, no panic.
    let junk: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let c = check_contract(&junk, &mut kifu::gib::Reader::new(&junk), false);
    assert_eq!(c.games, 0);
}

/// Throughput of the slice reader on the corpus files concatenated to about 100 MB (run with
/// `cargo test --release --test gib -- --ignored --nocapture`; prints, asserts only counts).
#[test]
#[ignore]
fn throughput() {
    let Some(dir) = common::corpus_dir("gib") else { return };
    let mut one = Vec::new();
    for p in common::files(&dir, &[".gib"]) {
        one.extend_from_slice(&std::fs::read(p).unwrap());
    }
    let all = one.repeat(100_000_000 / one.len());
    let games = all.len() / one.len() * 10;
    for k in 0..6 {
        let t = std::time::Instant::now();
        // The first runs with the charset fixed: the cost of detection.
        let mut r = kifu::gib::Reader::new(&all);
        if k < 3 {
            r = r.with_charset(Charset::Utf8);
        }
        let (mut n, mut ends) = (0u64, 0);
        while let Some(ev) = r.next_event() {
            match ev.unwrap() {
                Event::GameEnd { .. } => ends += 1,
                Event::Move(_) => n += 1,
                _ => {}
            }
        }
        let s = t.elapsed().as_secs_f64();
        assert_eq!(ends, games);
        eprintln!(
            "gib: {:.1} MB in {s:.3} s = {:.0} MB/s ({n} moves)",
            all.len() as f64 / 1e6,
            all.len() as f64 / 1e6 / s
        );
    }
}
