//! Hand-written cases for every key and rule of JGF v2 (Seki) and each class of bad input.

mod common;

use common::events::{moves, warnings};
use kifu::json::Dialect;
use kifu::{
    Branch, Clock, ClockKind, Color, Config, ErrorKind, Event, EventSource, InfoKey, Limit, MarkupKind, Move, Point,
    Setup, WarningKind,
};

fn read(input: &[u8]) -> Vec<Event<'_>> {
    kifu::jgf::v2::Reader::new(input).collect::<Result<_, _>>().unwrap()
}

fn lenient(input: &[u8]) -> Vec<Event<'_>> {
    kifu::jgf::v2::Reader::with_dialect(input, Config::default(), Dialect::Lenient).collect::<Result<_, _>>().unwrap()
}

fn infos<'a>(events: &[Event<'a>]) -> Vec<(InfoKey, String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect()
}

fn mv(color: Color, x: u8, y: u8) -> Event<'static> {
    Event::Move(Move::Go { color, point: Some(Point::new(x, y)) })
}

const HEADER: &[u8] = br#"{
 "record": {"format": "JGF", "version": 2, "charset": "UTF-8", "generator": "Seki v1.0.0", "transcriber": "Adam"},
 "source": {"name": "Go magazine", "url": "https://example.org", "copyright": "(c) 2014"},
 "game": {"type": "go", "name": "Lee vs Lee", "result": "W+4.5", "date": "2023-06-12",
          "dates": ["2011-04-22", "2011-04-23"], "opening": "Low chinese", "annotator": "An",
          "description": "desc"},
 "players": [{"color": "black", "name": "Lee Chang-Ho", "rank": "9p", "team": "", "country": "KR"},
             {"color": "white", "name": "Lee Sedol", "rank": "9p"}],
 "event": {"name": "Fujitsu", "location": "Seoul", "round": "Semi"},
 "rules": {"ruleset": "Japanese", "allowSuicide": false, "disallowRepeats": false, "komi": 6.5,
           "handicap": 0, "time": 7200, "overtime": "3x20 byo-yomi", "numberOfPeriods": 3, "timePerPeriod": 20},
 "board": {"width": 19, "height": 13, "cutOffTop": 5, "cutOffBottom": 0, "cutOffLeft": 10, "cutOffRight": 0},
 "settings": {"showLastMove": false},
 "meta": {"foo": "Bar"},
 "tree": [{}]
}"#;

#[test]
fn every_header_key_is_info_or_property() {
    let ev = read(HEADER);
    let got = infos(&ev);
    let has = |k: InfoKey, name: &str, v: &str| {
        assert!(got.iter().any(|(a, b, c)| *a == k && b == name && c == v), "{k:?} {name} {v} in {got:#?}")
    };
    has(InfoKey::Other, "format", "JGF");
    has(InfoKey::FormatVersion, "version", "2");
    has(InfoKey::Charset, "charset", "UTF-8");
    has(InfoKey::Application, "generator", "Seki v1.0.0");
    has(InfoKey::Transcriber, "transcriber", "Adam");
    has(InfoKey::Source, "name", "Go magazine");
    has(InfoKey::Other, "url", "https://example.org");
    has(InfoKey::Copyright, "copyright", "(c) 2014");
    has(InfoKey::GameType, "type", "go");
    has(InfoKey::GameName, "name", "Lee vs Lee");
    has(InfoKey::Result, "result", "W+4.5");
    has(InfoKey::Date, "date", "2023-06-12");
    has(InfoKey::Date, "dates", "2011-04-22");
    has(InfoKey::Date, "dates", "2011-04-23");
    has(InfoKey::Opening, "opening", "Low chinese");
    has(InfoKey::Annotator, "annotator", "An");
    has(InfoKey::GameComment, "description", "desc");
    has(InfoKey::BlackName, "name", "Lee Chang-Ho");
    has(InfoKey::BlackRank, "rank", "9p");
    has(InfoKey::BlackTeam, "team", "");
    has(InfoKey::Other, "country", "KR");
    has(InfoKey::WhiteName, "name", "Lee Sedol");
    has(InfoKey::WhiteRank, "rank", "9p");
    has(InfoKey::Event, "name", "Fujitsu");
    has(InfoKey::Place, "location", "Seoul");
    has(InfoKey::Round, "round", "Semi");
    has(InfoKey::Rules, "ruleset", "Japanese");
    has(InfoKey::Other, "allowSuicide", "false");
    has(InfoKey::Other, "disallowRepeats", "false");
    has(InfoKey::Komi, "komi", "6.5");
    has(InfoKey::Handicap, "handicap", "0");
    has(InfoKey::TimeLimit, "time", "7200");
    has(InfoKey::Overtime, "overtime", "3x20 byo-yomi");
    has(InfoKey::Other, "numberOfPeriods", "3");
    has(InfoKey::Other, "timePerPeriod", "20");
    has(InfoKey::Other, "cutOffTop", "5");
    has(InfoKey::BoardSize, "", "19:13");
    let props: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Property(p) => Some((String::from_utf8_lossy(p.name()).into_owned(), p.value().raw().to_vec())),
            _ => None,
        })
        .collect();
    assert!(props.contains(&("settings".into(), br#"{"showLastMove": false}"#.to_vec())), "{props:?}");
    assert!(props.contains(&("meta".into(), br#"{"foo": "Bar"}"#.to_vec())));
    assert!(warnings(&ev).is_empty(), "{:?}", warnings(&ev));
    assert_eq!(ev.first(), Some(&Event::GameStart { offset: 0 }));
    assert_eq!(ev.last(), Some(&Event::GameEnd { length: HEADER.len() as u64, ending: None }));
}

#[test]
fn version_string_size_and_players_object() {
    let ev = read(
        br#"{"record":{"version":"2.0.0"},"board":{"size":9},
            "players":{"black":{"name":"B"},"white":{"name":"W","rank":"2d"}},"tree":[]}"#,
    );
    let got = infos(&ev);
    assert!(got.contains(&(InfoKey::FormatVersion, "version".into(), "2.0.0".into())));
    assert!(got.contains(&(InfoKey::BoardSize, "".into(), "9".into())));
    assert!(got.contains(&(InfoKey::BlackName, "name".into(), "B".into())));
    assert!(got.contains(&(InfoKey::WhiteRank, "rank".into(), "2d".into())));
}

#[test]
fn moves_passes_and_clocks() {
    let ev = read(
        br#"{"tree":[{},
        {"move":{"color":"black","x":2,"y":3}},
        {"move":{"color":"white","pass":true}},
        {"move":{"color":"black","x":2,"y":4,"timeLeft":345,"periodsLeft":3}},
        {"move":{"x":15,"color":"white","y":15,"timeLeft":12.5}}]}"#,
    );
    assert_eq!(
        moves(&ev),
        [
            (Color::Black, Some((2, 3))),
            (Color::White, None),
            (Color::Black, Some((2, 4))),
            (Color::White, Some((15, 15)))
        ]
    );
    assert!(ev.contains(&Event::Clock(Clock {
        color: Some(Color::Black),
        kind: ClockKind::TimeLeftMs,
        value: 345_000
    })));
    assert!(ev.contains(&Event::Clock(Clock { color: Some(Color::Black), kind: ClockKind::PeriodsLeft, value: 3 })));
    assert!(ev.contains(&Event::Clock(Clock {
        color: Some(Color::White),
        kind: ClockKind::TimeLeftMs,
        value: 12_500
    })));
    assert_eq!(ev.iter().filter(|e| **e == Event::Node).count(), 5);
}

#[test]
fn comments_names_solution_turn() {
    let ev = read(
        br#"{"tree":[{"comments":["first","second \"quoted\""]},
        {"name":"Node name","comments":"plain","solution":true,"move":{"color":"black","x":0,"y":0}},
        {"turn":"white"}]}"#,
    );
    let comments: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Comment(t) => Some((t.rule(), t.decode().text.into_owned())),
            _ => None,
        })
        .collect();
    assert_eq!(
        comments,
        [
            (kifu::TextRule::JsonStringArray, "first\nsecond \"quoted\"".to_string()),
            (kifu::TextRule::JsonString, "plain".to_string())
        ]
    );
    assert!(ev.iter().any(|e| matches!(e, Event::Name(t) if t.decode().text == "Node name")));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Property(p) if p.name() == b"solution" && p.value().raw() == b"true")));
    assert!(ev.contains(&Event::Turn(Color::White)));
}

#[test]
fn markup_of_every_type_setup_and_score() {
    let ev = read(
        br#"{"board":{"size":9},"tree":[{
        "markup":[
          {"type":"triangle","coords":[{"x":1,"y":2}]},
          {"type":"square","coords":[{"x":1,"y":3}]},
          {"type":"circle","coords":[{"x":1,"y":4}]},
          {"type":"mark","coords":[{"x":1,"y":5}]},
          {"type":"select","coords":[{"x":1,"y":6}]},
          {"type":"selected","coords":[{"x":1,"y":7}]},
          {"type":"label","coords":[{"x":5,"y":3,"text":"A"}]},
          {"type":"diamond","coords":[{"x":2,"y":2}]},
          {"type":"happy","coords":[{"x":2,"y":3}]},
          {"type":"sad","coords":[{"x":2,"y":4}]},
          {"type":"arrow","coords":[{"x":3,"y":3}]},
          {"type":"line","coords":[{"x":3,"y":4}]},
          {"coords":[{"x":4,"y":4}],"type":"circle"}],
        "setup":[{"type":"black","coords":[{"x":0,"y":0},{"x":0,"y":1}]},
                 {"type":"white","coords":[{"x":1,"y":0}]},
                 {"type":"clear","coords":[{"x":1,"y":1}]}],
        "score":[{"color":"black","coords":[{"x":8,"y":8}]},{"color":"white","coords":[{"x":7,"y":8}]}]
        }]}"#,
    );
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
    let want = [
        (M::Triangle, 1, 2, ""),
        (M::Square, 1, 3, ""),
        (M::Circle, 1, 4, ""),
        (M::Cross, 1, 5, ""),
        (M::Selected, 1, 6, ""),
        (M::Selected, 1, 7, ""),
        (M::Label, 5, 3, "A"),
        (M::Other, 2, 2, "diamond"),
        (M::Other, 2, 3, "happy"),
        (M::Other, 2, 4, "sad"),
        (M::Arrow, 3, 3, ""),
        (M::Line, 3, 4, ""),
        (M::Circle, 4, 4, ""),
        (M::TerritoryBlack, 8, 8, ""),
        (M::TerritoryWhite, 7, 8, ""),
    ];
    let want: Vec<_> = want.iter().map(|(k, x, y, l)| (*k, *x, *y, l.to_string())).collect();
    assert_eq!(marks, want);
    let setup: Vec<_> = ev.iter().filter(|e| matches!(e, Event::Setup(_))).copied().collect();
    assert_eq!(
        setup,
        [
            Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(0, 0) }),
            Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(0, 1) }),
            Event::Setup(Setup::Go { color: Some(Color::White), point: Point::new(1, 0) }),
            Event::Setup(Setup::Go { color: None, point: Point::new(1, 1) }),
        ]
    );
}

#[test]
fn variations_are_child_branches() {
    let ev = read(
        br#"{"tree":[{},{"move":{"color":"black","x":0,"y":0}},
        {"variations":[
          [{"move":{"color":"white","x":1,"y":1}},{"move":{"color":"black","x":2,"y":2}}],
          [{"move":{"color":"white","x":3,"y":3}},
           {"variations":[[{"move":{"color":"black","x":4,"y":4}}],[{"move":{"color":"black","x":5,"y":5}}]]}]
        ]}]}"#,
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
            Node,
            mv(Color::Black, 2, 2),
            VariationEnd,
            VariationStart(Branch::Child),
            Node,
            mv(Color::White, 3, 3),
            VariationStart(Branch::Child),
            Node,
            mv(Color::Black, 4, 4),
            VariationEnd,
            VariationStart(Branch::Child),
            Node,
            mv(Color::Black, 5, 5),
            VariationEnd,
            VariationEnd,
        ]
    );
}

#[test]
fn node_after_variations_is_one_more_child() {
    // Seki's reader attaches the node after a variations node as one more child of the node
    // before the branch; kifu opens one more variation for it (and the rest of the sequence).
    let ev = read(
        br#"{"tree":[{},{"move":{"color":"black","x":0,"y":0}},
        {"variations":[[{"move":{"color":"white","x":1,"y":1}}]]},
        {"move":{"color":"white","x":2,"y":2}},{"move":{"color":"black","x":3,"y":3}}]}"#,
    );
    use Event::*;
    let body: Vec<_> =
        ev.iter().filter(|e| !matches!(e, GameStart { .. } | GameEnd { .. } | Warning(_))).copied().collect();
    assert_eq!(
        body,
        [
            Node,
            Node,
            mv(Color::Black, 0, 0),
            VariationStart(Branch::Child),
            Node,
            mv(Color::White, 1, 1),
            VariationEnd,
            VariationStart(Branch::Child),
            Node,
            mv(Color::White, 2, 2),
            Node,
            mv(Color::Black, 3, 3),
            VariationEnd,
        ]
    );
    assert_eq!(warnings(&ev), [WarningKind::NodeAfterVariations]);
    let strict = kifu::jgf::v2::Reader::with_config(br#"{"tree":[{},{"variations":[[{}]]},{}]}"#, Config::strict())
        .find_map(|e| e.err())
        .unwrap();
    assert_eq!(strict.kind(), ErrorKind::Strict(WarningKind::NodeAfterVariations));
}

#[test]
fn tree_before_board_is_checked_against_the_board() {
    let ev = read(br#"{"tree":[{},{"move":{"color":"black","x":10,"y":10}}],"board":{"size":9}}"#);
    assert!(moves(&ev).is_empty());
    assert_eq!(warnings(&ev), [WarningKind::PointOffBoard]);
    let ev = read(br#"{"tree":[{},{"move":{"color":"black","x":10,"y":10}}],"board":{"size":13}}"#);
    assert_eq!(moves(&ev), [(Color::Black, Some((10, 10)))]);
}

#[test]
fn tt_is_a_pass_on_small_boards() {
    let ev = read(br#"{"tree":[{},{"move":{"color":"black","x":19,"y":19}}]}"#);
    assert_eq!(moves(&ev), [(Color::Black, None)]);
    assert_eq!(warnings(&ev), [WarningKind::TtPass]);
    let ev = read(br#"{"board":{"size":21},"tree":[{},{"move":{"color":"black","x":19,"y":19}}]}"#);
    assert_eq!(moves(&ev), [(Color::Black, Some((19, 19)))]);
}

#[test]
fn wrong_types_missing_keys_and_off_board_are_warnings_with_offsets() {
    let cases: &[(&[u8], WarningKind)] = &[
        (br#"{"tree":[{"move":3}]}"#, WarningKind::WrongType),
        (br#"{"tree":[{"move":{"x":1,"y":1}}]}"#, WarningKind::MissingValue),
        (br#"{"tree":[{"move":{"color":"green","x":1,"y":1}}]}"#, WarningKind::BadValue),
        (br#"{"tree":[{"move":{"color":"black","x":"a","y":1}}]}"#, WarningKind::WrongType),
        (br#"{"tree":[{"move":{"color":"black","x":25,"y":1}}]}"#, WarningKind::PointOffBoard),
        (br#"{"tree":[{"move":{"color":"black","x":-1,"y":1}}]}"#, WarningKind::PointOffBoard),
        (br#"{"tree":[{"markup":{"type":"circle"}}]}"#, WarningKind::WrongType),
        (br#"{"tree":[{"setup":[{"type":"blue","coords":[{"x":1,"y":1}]}]}]}"#, WarningKind::BadValue),
        (br#"{"tree":[{"setup":[{"type":"black","coords":[{"x":1}]}]}]}"#, WarningKind::MissingValue),
        (br#"{"tree":[{"turn":"red"}]}"#, WarningKind::BadValue),
        (br#"{"tree":[{"comments":5}]}"#, WarningKind::WrongType),
        (br#"{"tree":[{"move":{"color":"black","x":1,"y":1,"timeLeft":-3}}]}"#, WarningKind::BadValue),
        (br#"{"board":{"size":99},"tree":[]}"#, WarningKind::BadBoardSize),
        (br#"{"board":{"cutOffTop":1},"tree":[]}"#, WarningKind::MissingValue),
        (br#"{"tree":[7]}"#, WarningKind::WrongType),
        (br#"{"tree":{}}"#, WarningKind::WrongType),
        (br#"{"game":"x","tree":[]}"#, WarningKind::WrongType),
        (br#"{"players":[{"name":"x"}],"tree":[]}"#, WarningKind::MissingValue),
        (br#"{"tree":[{"move":{"color":"black","color":"white","pass":true}}]}"#, WarningKind::DuplicateKey),
        (br#"{"tree":[]} x"#, WarningKind::JunkAfterGames),
        (b"\xEF\xBB\xBF{\"tree\":[]}", WarningKind::JsonExtension),
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
        assert!(w[0].offset <= input.len() as u64);
        // Strict mode: the same input is an error at the same offset.
        let err = kifu::jgf::v2::Reader::with_config(input, Config::strict()).find_map(|e| e.err()).unwrap();
        assert_eq!(err.kind(), ErrorKind::Strict(*kind));
        assert_eq!(err.offset(), w[0].offset);
        assert!(err.position().line >= 1);
    }
}

#[test]
fn truncated_and_broken_files_are_errors_with_positions() {
    let full = br#"{"tree":[{},{"move":{"color":"black","x":2,"y":3}},{"comments":["a"]}]}"#;
    for cut in 1..full.len() {
        let input = &full[..cut];
        let items: Vec<_> = kifu::jgf::v2::Reader::new(input).collect();
        let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
        assert_eq!(errs.len(), 1, "cut at {cut}");
        assert_eq!(errs[0].kind(), ErrorKind::UnexpectedEof, "cut at {cut}");
        assert!(errs[0].offset() <= cut as u64);
        // Nothing after the error.
        assert!(items.last().unwrap().is_err());
    }
    let err = kifu::jgf::v2::Reader::new(b"{\n\"tree\": [}\n").find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!((err.position().line, err.position().column), (2, 10));
    let err = kifu::jgf::v2::Reader::new(b"[1, 2]").find_map(|e| e.err());
    assert!(err.is_none(), "a bare array is read as a tree (with a warning)");
    let err = kifu::jgf::v2::Reader::new(b"\"x\"").find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::NotAGameRecord);
}

fn nested_v2(n: usize) -> Vec<u8> {
    let mut s = b"{\"tree\":[{}".to_vec();
    for _ in 0..n {
        s.extend_from_slice(b",{\"variations\":[[{}");
    }
    for _ in 0..n {
        s.extend_from_slice(b"]]}");
    }
    s.extend_from_slice(b"]}");
    s
}

#[test]
fn a_million_nested_variations_exceed_the_depth_limit() {
    let input = nested_v2(1_000_000);
    let items: Vec<_> = kifu::jgf::v2::Reader::new(&input).collect();
    let err = items.iter().find_map(|e| e.as_ref().err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded(Limit::Depth));
    assert!(err.offset() < input.len() as u64);
    // Within the limit, the same shape reads and balances.
    let ok = nested_v2(500);
    let ev = read(&ok);
    let starts = ev.iter().filter(|e| matches!(e, Event::VariationStart(_))).count();
    let ends = ev.iter().filter(|e| matches!(e, Event::VariationEnd)).count();
    assert_eq!((starts, ends), (500, 500));
}

#[test]
fn lenient_dialect_reads_the_spec_style() {
    let src = b"// comment\nexport const demo = {\n  record: {version: 2,},\n  tree: [ {move: {color: 'black', x: 1, y: 1}}, ],\n};\n";
    let ev = lenient(src);
    assert_eq!(moves(&ev), [(Color::Black, Some((1, 1)))]);
    assert!(warnings(&ev).iter().all(|w| *w == WarningKind::JsonExtension));
    assert!(warnings(&ev).len() >= 5);
    // A lenient reader reads the lenient dialect (`Dialect::for_mode`); the strict dialect
    // rejects it.
    assert_eq!(kifu::jgf::v2::Reader::new(src).collect::<Result<Vec<_>, _>>().unwrap(), ev);
    assert!(kifu::jgf::v2::Reader::with_dialect(src, Config::default(), Dialect::Strict).any(|e| e.is_err()));
    // Strict mode with the lenient dialect: the first extension is an error.
    let err =
        kifu::jgf::v2::Reader::with_dialect(src, Config::strict(), Dialect::Lenient).find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::Strict(WarningKind::JsonExtension));
    assert_eq!(err.offset(), 0);
}

#[test]
fn json_lines_are_several_games_and_errors_resume() {
    let src = b"{\"tree\":[{},{\"move\":{\"color\":\"black\",\"x\":1,\"y\":1}}]}\n{\"tree\":[{\"move\":}\n{\"tree\":[{},{\"move\":{\"color\":\"white\",\"x\":2,\"y\":2}}]}\n";
    let items: Vec<_> = kifu::jgf::v2::Reader::new(src).collect();
    let starts: Vec<_> = items
        .iter()
        .filter_map(|e| match e {
            Ok(Event::GameStart { offset }) => Some(*offset),
            _ => None,
        })
        .collect();
    assert_eq!(starts.len(), 3);
    let errs = items.iter().filter(|e| e.is_err()).count();
    assert_eq!(errs, 1);
    // After the error, the next item is the next game's start.
    let i = items.iter().position(|e| e.is_err()).unwrap();
    assert!(matches!(items[i + 1], Ok(Event::GameStart { .. })));
    let ok_moves: Vec<_> = items.iter().filter_map(|e| e.as_ref().ok()).copied().collect();
    assert_eq!(moves(&ok_moves), [(Color::Black, Some((1, 1))), (Color::White, Some((2, 2)))]);
}

#[test]
fn skip_game_builds_no_events_and_lands_on_the_next_game() {
    let src = b"{\"tree\":[{},{\"move\":{\"color\":\"black\",\"x\":1,\"y\":1}}]}\n{\"tree\":[{},{\"move\":{\"color\":\"white\",\"x\":2,\"y\":2}}]}\n";
    let mut r = kifu::jgf::v2::Reader::new(src);
    assert!(r.skip_game().unwrap());
    let rest: Vec<_> = r.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(moves(&rest), [(Color::White, Some((2, 2)))]);
    let mut r = kifu::jgf::v2::Reader::new(src);
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { .. }))));
    assert!(r.skip_game().unwrap());
    assert!(matches!(r.next_event(), Some(Ok(Event::GameStart { offset })) if offset > 0));
    assert!(r.skip_game().unwrap());
    assert!(!r.skip_game().unwrap());
}

#[test]
fn detection() {
    assert_eq!(kifu::detect(HEADER), Some(kifu::Format::Jgf2));
    assert_eq!(kifu::detect(br#"{"record":{"version":"2.0.0"},"tree":[{}]}"#), Some(kifu::Format::Jgf2));
    assert_eq!(
        kifu::detect(b"export const demo = {\n record: {version: 1},\n tree: [{markup: [{type: 'x', coords: []}]}]}"),
        Some(kifu::Format::Jgf2)
    );
    assert_eq!(kifu::Format::Jgf2.as_str(), "jgf2");
}

#[test]
fn game_size_and_node_limits() {
    let small = br#"{"tree":[{},{"move":{"color":"black","x":1,"y":1}}]}"#;
    let limits = kifu::Limits::default().with_max_game_len(20);
    let err =
        kifu::jgf::v2::Reader::with_config(small, Config::default().with_limits(limits)).find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded(Limit::GameSize));
    // Each document of a JSON-lines input counts alone.
    let mut lines = small.to_vec();
    lines.push(b'\n');
    lines.extend_from_slice(small);
    let limits = kifu::Limits::default().with_max_game_len(small.len() as u64 + 1);
    let ev: Vec<_> = kifu::jgf::v2::Reader::with_config(&lines, Config::default().with_limits(limits))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 2);
    let limits = kifu::Limits::default().with_max_nodes(1);
    let err =
        kifu::jgf::v2::Reader::with_config(small, Config::default().with_limits(limits)).find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded(Limit::Nodes));
    // skip_game right before GameEnd (the document already read to its end).
    let mut r = kifu::jgf::v2::Reader::new(b"{\"tree\":[]}");
    while let Some(e) = r.next_event() {
        if matches!(e.unwrap(), Event::Info(_) | Event::GameStart { .. }) {
            break;
        }
    }
    assert!(r.skip_game().unwrap());
    assert!(r.next_event().is_none());
}

/// Regression: a document starting after white space and a comment (Seki's demo module) once
/// overflowed the game-size check before the tokenizer had moved.
#[test]
fn leading_white_space_and_comment() {
    let src = b"\n  // demo\nexport const demo = {tree: [{}]}\n";
    let ev = lenient(src);
    assert_eq!(ev[0], Event::GameStart { offset: 3 });
    assert!(matches!(ev.last(), Some(Event::GameEnd { .. })));
    let ev = read(b"\n\n  {\"tree\":[{}]}");
    assert_eq!(ev[0], Event::GameStart { offset: 4 });
}
