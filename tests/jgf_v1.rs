//! Hand-written cases for every key and rule of JGF v1 (ngGo) and each class of bad input.

mod common;

use common::events::{moves, warnings};
use kifu::json::Dialect;
use kifu::{
    Branch, Color, Config, ErrorKind, Event, EventSource, InfoKey, Limit, MarkupKind, Move, Point, Setup, WarningKind,
};

fn read(input: &[u8]) -> Vec<Event<'_>> {
    kifu::jgf::v1::Reader::new(input).collect::<Result<_, _>>().unwrap()
}

fn mv(color: Color, x: u8, y: u8) -> Event<'static> {
    Event::Move(Move::Go { color, point: Some(Point::new(x, y)) })
}

#[test]
fn header_keys() {
    let src = br#"{"record":{"application":"ngGo v1.0.0","version":1,"charset":"UTF-8","transcriber":"T",
      "annotator":"A","source":"S","copyright":"C","comment":"rc","sgf":{}},
     "game":{"type":"go","name":"N","players":[{"color":"black","name":"B","rank":"9p","team":"x"},
       {"color":"white","name":"W","rank":"1d"}],"komi":6.5,"handicap":"2","result":"W+4.5","rules":"Japanese",
       "time":{"type":"Byo-yomi","main":7200,"overtime":60},"dates":["2011-04-22"],"location":"Seoul",
       "event":"E","round":"R","opening":"O","comment":"gc"},
     "board":{"width":19,"height":19,"coordinates":true,"cutoff":["right","bottom"]},
     "player":{"variation_markup":true},
     "tree":[{"root":true}]}"#;
    let ev = read(src);
    let infos: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect();
    let has = |k: InfoKey, n: &str, v: &str| {
        assert!(infos.iter().any(|(a, b, c)| *a == k && b == n && c == v), "{k:?} {n} {v}: {infos:#?}")
    };
    has(InfoKey::Application, "application", "ngGo v1.0.0");
    has(InfoKey::FormatVersion, "version", "1");
    has(InfoKey::Charset, "charset", "UTF-8");
    has(InfoKey::Transcriber, "transcriber", "T");
    has(InfoKey::Annotator, "annotator", "A");
    has(InfoKey::Source, "source", "S");
    has(InfoKey::Copyright, "copyright", "C");
    has(InfoKey::Other, "comment", "rc");
    has(InfoKey::GameType, "type", "go");
    has(InfoKey::GameName, "name", "N");
    has(InfoKey::BlackName, "name", "B");
    has(InfoKey::BlackRank, "rank", "9p");
    has(InfoKey::BlackTeam, "team", "x");
    has(InfoKey::WhiteName, "name", "W");
    has(InfoKey::Komi, "komi", "6.5");
    has(InfoKey::Handicap, "handicap", "2");
    has(InfoKey::Result, "result", "W+4.5");
    has(InfoKey::Rules, "rules", "Japanese");
    has(InfoKey::Other, "type", "Byo-yomi");
    has(InfoKey::TimeLimit, "main", "7200");
    has(InfoKey::Overtime, "overtime", "60");
    has(InfoKey::Date, "dates", "2011-04-22");
    has(InfoKey::Place, "location", "Seoul");
    has(InfoKey::Event, "event", "E");
    has(InfoKey::Round, "round", "R");
    has(InfoKey::Opening, "opening", "O");
    has(InfoKey::GameComment, "comment", "gc");
    has(InfoKey::Other, "coordinates", "true");
    has(InfoKey::Other, "cutoff", r#"["right","bottom"]"#);
    has(InfoKey::BoardSize, "", "19");
    assert!(ev.iter().any(|e| matches!(e, Event::Property(p) if p.name() == b"player")));
    assert!(warnings(&ev).is_empty(), "{:?}", warnings(&ev));
}

#[test]
fn both_coordinate_dialects_and_passes() {
    let ev = read(
        br#"{"tree":[{"root":true},{"move":{"B":"cd"}},{"move":{"W":[3,2]}},{"move":{"B":"pass"}},
        {"move":{"W":""}},{"move":{"B":"tt"}},{"move":{"W":[19,19]}}]}"#,
    );
    assert_eq!(
        moves(&ev),
        [
            (Color::Black, Some((2, 3))),
            (Color::White, Some((3, 2))),
            (Color::Black, None),
            (Color::White, None),
            (Color::Black, None),
            (Color::White, None)
        ]
    );
    // `tt` and ngGo's [19, 19] on a 19×19 board are passes, with a warning.
    assert_eq!(warnings(&ev), [WarningKind::TtPass, WarningKind::TtPass]);
}

#[test]
fn comments_markup_setup_score_turn_and_raw_keys() {
    let ev = read(
        br#"{"board":{"width":9,"height":9},"tree":[{"root":true,"SY":"Cgoban 1.9.2","BL":["35999","1"],
        "comments":["plain",{"name":"C. Ommentator","timestamp":"2014-12-08 14:30","comment":"detailed"}],
        "markup":{"triangle":["aa",[1,0]],"circle":["me"],"square":[[2,2]],"mark":["ad"],"select":["ae"],
                  "happy":["ah"],"sad":["bh"],"label":[["ab","A"],[3,4,"B"]]},
        "setup":{"B":["ba",[1,1]],"W":[[2,1]],"E":["cc"]},
        "score":{"B":["ii"],"W":[[7,8]]},
        "turn":"W"},
        {"name":"Node name","solution":true,"mode":"solve","move":{"B":"ee"}}]}"#,
    );
    let comments: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Comment(t) => Some(t.decode().text.into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(comments, ["plain", "detailed"]);
    let props: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Property(p) => {
                Some((String::from_utf8_lossy(p.name()).into_owned(), p.value().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect();
    for (n, v) in [
        ("SY", "Cgoban 1.9.2"),
        ("BL", r#"["35999","1"]"#),
        ("name", "C. Ommentator"),
        ("timestamp", "2014-12-08 14:30"),
        ("solution", "true"),
        ("mode", "solve"),
    ] {
        assert!(props.contains(&(n.to_string(), v.to_string())), "{n}: {props:?}");
    }
    // "me" is off a 9×9 board: warned and dropped.
    assert_eq!(warnings(&ev), [WarningKind::PointOffBoard]);
    let marks: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Markup(m) => {
                let p = m.point().unwrap();
                Some((m.kind, p.x, p.y, m.label().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect();
    use MarkupKind as M;
    let want: Vec<_> = [
        (M::Triangle, 0, 0, ""),
        (M::Triangle, 1, 0, ""),
        (M::Square, 2, 2, ""),
        (M::Cross, 0, 3, ""),
        (M::Selected, 0, 4, ""),
        (M::Other, 0, 7, "happy"),
        (M::Other, 1, 7, "sad"),
        (M::Label, 0, 1, "A"),
        (M::Label, 3, 4, "B"),
        (M::TerritoryBlack, 8, 8, ""),
        (M::TerritoryWhite, 7, 8, ""),
    ]
    .iter()
    .map(|(k, x, y, l)| (*k, *x, *y, l.to_string()))
    .collect();
    assert_eq!(marks, want);
    let setup: Vec<_> = ev.iter().filter(|e| matches!(e, Event::Setup(_))).copied().collect();
    let s = |c, x, y| Event::Setup(Setup::Go { color: c, point: Point::new(x, y) });
    assert_eq!(
        setup,
        [s(Some(Color::Black), 1, 0), s(Some(Color::Black), 1, 1), s(Some(Color::White), 2, 1), s(None, 2, 2)]
    );
    assert!(ev.contains(&Event::Turn(Color::White)));
    assert!(ev.iter().any(|e| matches!(e, Event::Name(t) if t.raw() == b"Node name")));
}

#[test]
fn a_file_that_is_only_a_tree_with_nested_variation_arrays() {
    let ev = read(
        br#"[{"root":true},{"move":{"B":"aa"}},
        [[{"move":{"W":"bb"}},[[{"move":{"B":"cc"}}],[{"move":{"B":"dd"}}]]],
         [{"move":{"W":"ee"}}]]]"#,
    );
    use Event::*;
    let body: Vec<_> = ev.iter().filter(|e| !matches!(e, GameStart { .. } | GameEnd { .. })).copied().collect();
    assert_eq!(
        body,
        [
            Node,
            Node,
            mv(Color::Black, 0, 0),
            VariationStart(Branch::Child),
            Node,
            mv(Color::White, 1, 1),
            VariationStart(Branch::Child),
            Node,
            mv(Color::Black, 2, 2),
            VariationEnd,
            VariationStart(Branch::Child),
            Node,
            mv(Color::Black, 3, 3),
            VariationEnd,
            VariationEnd,
            VariationStart(Branch::Child),
            Node,
            mv(Color::White, 4, 4),
            VariationEnd,
        ]
    );
}

#[test]
fn node_after_a_variation_group_is_one_more_child() {
    let ev = read(br#"[{"root":true},[[{"move":{"B":"aa"}}]],{"move":{"B":"bb"}}]"#);
    assert_eq!(warnings(&ev), [WarningKind::NodeAfterVariations]);
    let starts = ev.iter().filter(|e| matches!(e, Event::VariationStart(_))).count();
    let ends = ev.iter().filter(|e| matches!(e, Event::VariationEnd)).count();
    assert_eq!((starts, ends), (2, 2));
}

#[test]
fn bad_input_is_a_clean_warning() {
    let cases: &[(&[u8], WarningKind)] = &[
        (br#"[{"move":{"B":"a"}}]"#, WarningKind::BadPoint),
        (br#"[{"move":{"B":[1]}}]"#, WarningKind::BadPoint),
        (br#"[{"move":{"B":[1,"x"]}}]"#, WarningKind::BadPoint),
        (br#"[{"move":{"B":true}}]"#, WarningKind::BadPoint),
        (br#"[{"move":{}}]"#, WarningKind::MissingValue),
        (br#"[{"move":"B"}]"#, WarningKind::WrongType),
        (br#"[{"move":{"B":[30,2]}}]"#, WarningKind::PointOffBoard),
        (br#"[{"move":{"B":"aa","W":"bb"}}]"#, WarningKind::DuplicateKey),
        (br#"[{"setup":{"X":["aa"]}}]"#, WarningKind::UnknownKey),
        (br#"[{"setup":["aa"]}]"#, WarningKind::WrongType),
        (br#"[{"markup":{"circle":["pass"]}}]"#, WarningKind::BadPoint),
        (br#"[{"turn":"X"}]"#, WarningKind::BadValue),
        (br#"[{"root":"yes"}]"#, WarningKind::WrongType),
        (br#"[{"comments":[1]}]"#, WarningKind::WrongType),
        (br#"[[{"move":{"B":"aa"}}]]"#, WarningKind::WrongType),
    ];
    for (input, kind) in cases {
        let ev = read(input);
        let w: Vec<_> = ev
            .iter()
            .filter_map(|e| match e {
                Event::Warning(w) => Some(*w),
                _ => None,
            })
            .collect();
        assert_eq!(w.first().map(|w| w.kind), Some(*kind), "{}", String::from_utf8_lossy(input));
        let err = kifu::jgf::v1::Reader::with_config(input, Config::strict()).find_map(|e| e.err()).unwrap();
        assert_eq!(err.kind(), ErrorKind::Strict(*kind));
        assert_eq!(err.offset(), w[0].offset);
    }
}

#[test]
fn a_million_nested_variation_arrays_exceed_the_depth_limit() {
    let n = 1_000_000;
    let mut s = b"[{\"root\":true}".to_vec();
    for _ in 0..n {
        s.extend_from_slice(b",[[{}");
    }
    for _ in 0..n {
        s.extend_from_slice(b"]]");
    }
    s.push(b']');
    let err = kifu::jgf::v1::Reader::new(&s).find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded(Limit::Depth));
    // With the limit raised, it still never recurses (the tokenizer's stack is a Vec).
    let config = Config::default().with_limits(kifu::Limits::unlimited());
    let ev: Vec<_> = kifu::jgf::v1::Reader::with_config(&s, config).collect::<Result<_, _>>().unwrap();
    let starts = ev.iter().filter(|e| matches!(e, Event::VariationStart(_))).count();
    assert_eq!(starts, n);
}

#[test]
fn truncated_files_are_errors() {
    let full = br#"[{"root":true},{"move":{"B":[1,2]}},[[{"move":{"W":"aa"}}]]]"#;
    for cut in 1..full.len() {
        let items: Vec<_> = kifu::jgf::v1::Reader::new(&full[..cut]).collect();
        let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
        assert_eq!(errs.len(), 1, "cut {cut}");
        assert_eq!(errs[0].kind(), ErrorKind::UnexpectedEof);
    }
}

#[test]
fn lenient_spec_text_and_detection() {
    let src = b"JGF = {\n\trecord: { version: 1, },\n\ttree: [ { root: true }, { move: {B: \"mm\"} }, { setup: [ B: [ [4,16] ], ] }, { score: { B: [ [0,0], ... ] } } ]\n};\n";
    let ev: Vec<_> = kifu::jgf::v1::Reader::with_dialect(src, Config::default(), Dialect::Lenient)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(moves(&ev), [(Color::Black, Some((12, 12)))]);
    assert!(ev.contains(&Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(4, 16) })));
    assert!(warnings(&ev).iter().all(|w| *w == WarningKind::JsonExtension));
    assert_eq!(kifu::detect(src), Some(kifu::Format::Jgf1));
    assert_eq!(kifu::detect(br#"[{"root":true},{"move":{"B":"aa"}}]"#), Some(kifu::Format::Jgf1));
    assert_eq!(kifu::detect(br#"{"record":{"version":1},"tree":[{"root":true}]}"#), Some(kifu::Format::Jgf1));
    assert_eq!(kifu::Format::Jgf1.as_str(), "jgf1");
    let mut r = kifu::jgf::v1::Reader::new(br#"[{"root":true}]"#);
    assert!(r.skip_game().unwrap());
    assert!(r.next_event().is_none());
}
