//! The Go game JSON snapshot reader: the corpus, and a hand-written case for every key and rule.

mod common;

use common::events::{moves, warnings};
use kifu::{Clock, ClockKind, Color, Config, ErrorKind, Event, EventSource, InfoKey, WarningKind};

fn read(input: &[u8]) -> Vec<Event<'_>> {
    kifu::gocaml::Reader::new(input).collect::<Result<_, _>>().unwrap()
}

#[test]
fn corpus_files_read_and_keep_every_stone() {
    let Some(dir) = common::corpus_dir("gocaml") else { return };
    let files = common::files(&dir, &[".json"]);
    assert_eq!(files.len(), 15);
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let ev: Vec<_> = kifu::gocaml::Reader::with_config(&bytes, Config::strict())
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(kifu::detect(&bytes), Some(kifu::Format::GoJson), "{name}");
        // Every stone of the board is one move, in counter order.
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let n = v["board"]["black"].as_array().unwrap().len() + v["board"]["white"].as_array().unwrap().len();
        let stones = moves(&ev).iter().filter(|m| m.1.is_some()).count();
        assert_eq!(stones, n, "{name}");
        let mut counters: Vec<(u64, Color, (u8, u8))> = Vec::new();
        for (key, color) in [("black", Color::Black), ("white", Color::White)] {
            for s in v["board"][key].as_array().unwrap() {
                let p = (s["col"].as_u64().unwrap() as u8, s["row"].as_u64().unwrap() as u8);
                counters.push((s["cur_stones"].as_u64().unwrap(), color, p));
            }
        }
        counters.sort_by_key(|c| (c.0, c.1 == Color::White));
        let want: Vec<_> = counters.iter().map(|c| (c.1, Some(c.2))).collect();
        let got: Vec<_> = moves(&ev).into_iter().filter(|m| m.1.is_some()).collect();
        assert_eq!(got, want, "{name}");
        let turn = if v["config"]["turn"] == "b" { Color::Black } else { Color::White };
        assert!(ev.contains(&Event::Turn(turn)), "{name}");
        assert!(matches!(ev.last(), Some(Event::GameEnd { .. })));
    }
}

const GAME: &[u8] = br#"{
  "players": {
    "p1": {"byoyomi": 5, "game_time": 30, "id": "Player One",
           "prisoners": [{"col": 5, "row": 3, "cur_stones": 3}, {"col": -1, "row": -1, "cur_stones": 4}]},
    "p2": {"byoyomi": 4, "game_time": 20, "id": "Player Two", "prisoners": []}
  },
  "board": {"size": 9,
    "black": [{"col": 4, "row": 3, "cur_stones": 3}, {"col": 2, "row": 2, "cur_stones": 1}],
    "white": [{"col": 6, "row": 6, "cur_stones": 4}]},
  "config": {"byoyomi_period": 60, "komi": 6.500000, "turn": "b"}
}"#;

#[test]
fn snapshot_as_events() {
    let ev = read(GAME);
    assert!(warnings(&ev).is_empty(), "{:?}", warnings(&ev));
    let infos: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some((i.key(), i.value().decode().text.into_owned())),
            _ => None,
        })
        .collect();
    assert_eq!(
        infos,
        [
            (InfoKey::BlackName, "Player One".into()),
            (InfoKey::WhiteName, "Player Two".into()),
            (InfoKey::BoardSize, "9".into()),
            (InfoKey::Other, "60".into()),
            (InfoKey::Komi, "6.500000".into()),
        ]
    );
    // Stones by counter; the white stone at (5, 3) captured by move 3 is a property there;
    // White's pass after move 4 comes from p1's prisoners. (Counter 2 is a lost stone.)
    let body: Vec<_> = ev
        .iter()
        .skip_while(|e| !matches!(e, Event::Node))
        .filter(|e| !matches!(e, Event::GameEnd { .. }))
        .map(|e| match e {
            Event::Property(p) => {
                format!("prop {} {}", String::from_utf8_lossy(p.name()), p.value().decode().text.replace(' ', ""))
            }
            other => format!("{other:?}"),
        })
        .collect();
    let want = [
        "Node",
        "Node",
        "Move(Go { color: Black, point: Some(Point { x: 2, y: 2 }) })",
        "Node",
        "Move(Go { color: Black, point: Some(Point { x: 4, y: 3 }) })",
        "prop prisoners {\"col\":5,\"row\":3,\"cur_stones\":3}",
        "Node",
        "Move(Go { color: White, point: Some(Point { x: 6, y: 6 }) })",
        "Node",
        "Move(Go { color: White, point: None })",
        "Turn(Black)",
        "Clock(Clock { color: Some(Black), kind: TimeLeftMs, value: 30000 })",
        "Clock(Clock { color: Some(Black), kind: PeriodsLeft, value: 5 })",
        "Clock(Clock { color: Some(White), kind: TimeLeftMs, value: 20000 })",
        "Clock(Clock { color: Some(White), kind: PeriodsLeft, value: 4 })",
    ];
    assert_eq!(body, want);
    assert!(ev.contains(&Event::Clock(Clock { color: Some(Color::White), kind: ClockKind::PeriodsLeft, value: 4 })));
}

#[test]
fn equal_counters_keep_black_first_and_turn_other_than_b_is_white() {
    let ev = read(
        br#"{"players":{"p1":{"id":"a","prisoners":[]},"p2":{"id":"b","prisoners":[]}},
        "board":{"size":5,"white":[{"col":1,"row":1,"cur_stones":2}],"black":[{"col":0,"row":0,"cur_stones":2}]},
        "config":{"komi":0.5,"turn":"x"}}"#,
    );
    assert_eq!(moves(&ev), [(Color::Black, Some((0, 0))), (Color::White, Some((1, 1)))]);
    assert!(ev.contains(&Event::Turn(Color::White)));
}

#[test]
fn malformed_input_gives_warnings_never_panics() {
    let base = |board: &str, extra: &str| {
        format!(
            r#"{{"players":{{"p1":{{"id":"a","prisoners":[]}},"p2":{{"id":"b","prisoners":[]}}}},"board":{board},"config":{{"komi":1,"turn":"b"}}{extra}}}"#
        )
    };
    let cases: Vec<(String, WarningKind)> = vec![
        (base(r#"{"size":8,"black":[],"white":[]}"#, ""), WarningKind::BadBoardSize),
        (base(r#"{"size":1,"black":[],"white":[]}"#, ""), WarningKind::BadBoardSize),
        (base(r#"{"size":99,"black":[],"white":[]}"#, ""), WarningKind::BadBoardSize),
        (base(r#"{"size":9,"black":[{"col":1,"row":1,"cur_stones":"x"}],"white":[]}"#, ""), WarningKind::BadValue),
        (base(r#"{"size":9,"black":[{"col":1,"row":1,"cur_stones":-4}],"white":[]}"#, ""), WarningKind::BadValue),
        (base(r#"{"size":9,"black":[{"col":1,"row":1}],"white":[]}"#, ""), WarningKind::MissingValue),
        (base(r#"{"size":9,"black":[{"col":10,"row":1,"cur_stones":1}],"white":[]}"#, ""), WarningKind::PointOffBoard),
        (base(r#"{"size":9,"black":[{"row":1,"cur_stones":1}],"white":[]}"#, ""), WarningKind::MissingValue),
        (base(r#"{"size":9,"black":3,"white":[]}"#, ""), WarningKind::WrongType),
        (base(r#"{"size":9,"black":[5],"white":[]}"#, ""), WarningKind::WrongType),
        (base(r#"{"size":9,"black":[],"white":[],"extra":1}"#, ""), WarningKind::UnknownKey),
        (base(r#"{"size":9,"black":[],"white":[]}"#, r#","history":[]"#), WarningKind::UnknownKey),
        (base(r#"[]"#, ""), WarningKind::WrongType),
        (r#"{"board":{"size":9,"black":[],"white":[]}}"#.to_string(), WarningKind::MissingValue),
        (r#"{"players":{"p1":{}},"board":{},"config":{}}"#.to_string(), WarningKind::MissingValue),
    ];
    for (input, kind) in &cases {
        let ev = read(input.as_bytes());
        assert!(warnings(&ev).contains(kind), "{input}: {:?}", warnings(&ev));
        let err = kifu::gocaml::Reader::with_config(input.as_bytes(), Config::strict()).find_map(|e| e.err()).unwrap();
        assert!(matches!(err.kind(), ErrorKind::Strict(_)), "{input}");
    }
    // A malformed counter sends the stone last.
    let input = base(
        r#"{"size":9,"black":[{"col":1,"row":1,"cur_stones":"x"},{"col":2,"row":2,"cur_stones":5}],"white":[]}"#,
        "",
    );
    let ev = read(input.as_bytes());
    assert_eq!(moves(&ev), [(Color::Black, Some((2, 2))), (Color::Black, Some((1, 1)))]);
}

#[test]
fn truncated_and_non_objects_are_errors() {
    for cut in 1..GAME.len() - 1 {
        let items: Vec<_> = kifu::gocaml::Reader::new(&GAME[..cut]).collect();
        let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
        if GAME[..cut].iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        assert_eq!(errs.len(), 1, "cut {cut}");
        assert_eq!(errs[0].kind(), ErrorKind::UnexpectedEof, "cut {cut}");
    }
    let err = kifu::gocaml::Reader::new(b"[1]").find_map(|e| e.err()).unwrap();
    assert_eq!(err.kind(), ErrorKind::NotAGameRecord);
    let mut r = kifu::gocaml::Reader::new(GAME);
    assert!(r.skip_game().unwrap());
    assert!(r.next_event().is_none());
    assert_eq!(kifu::Format::GoJson.as_str(), "gojson");
}

/// Fuzz find (gocaml, crash-84841a2b): after a syntax error, reading resumed at the next line
/// starting with `{`, but a warning came before that game's GameStart.
#[test]
fn after_an_error_the_next_item_is_a_game_start() {
    let src = b"{\"players\": {\"p1\": {\0\0\0 }\n{\"players\":{},\"board\":{\"size\":9,\"black\":[],\"white\":[]},\"config\":{}}\n";
    let items: Vec<_> = kifu::gocaml::Reader::new(src).collect();
    assert!(items[0].is_err(), "{items:?}");
    assert!(matches!(items[1], Ok(Event::GameStart { offset }) if offset > 0), "{items:?}");
    assert!(matches!(items.last(), Some(Ok(Event::GameEnd { .. }))));
}

/// Prisoners are matched to their stone's counter whatever order they come in (several on one
/// counter keep their reading order; passes matching no stone come last, in reading order), and
/// a snapshot with many stones and many prisoners is read in time proportional to its size.
#[test]
fn prisoners_in_any_order_and_many_of_them() {
    let ev = read(
        br#"{"players":{"p1":{"id":"a","prisoners":[
              {"col":-1,"row":-1,"cur_stones":9},{"col":3,"row":3,"cur_stones":3},
              {"col":4,"row":4,"cur_stones":3},{"col":-1,"row":-1,"cur_stones":8}]},
            "p2":{"id":"b","prisoners":[{"col":-1,"row":-1,"cur_stones":1}]}},
        "board":{"size":5,"black":[{"col":0,"row":0,"cur_stones":3}],"white":[{"col":1,"row":1,"cur_stones":1}]},
        "config":{"komi":0.5,"turn":"b"}}"#,
    );
    let props: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Property(p) => Some(p.value().decode().text.replace(' ', "")),
            _ => None,
        })
        .collect();
    assert_eq!(props, [r#"{"col":3,"row":3,"cur_stones":3}"#, r#"{"col":4,"row":4,"cur_stones":3}"#]);
    assert_eq!(
        moves(&ev),
        [
            (Color::White, Some((1, 1))),
            (Color::Black, None), // p2 holds Black's pass after counter 1
            (Color::Black, Some((0, 0))),
            (Color::White, None), // counter 9, then 8: no stone there, reading order
            (Color::White, None),
        ]
    );

    let n = 50_000;
    let mut json = String::from(r#"{"players":{"p1":{"id":"a","prisoners":["#);
    for i in 0..n {
        json.push_str(&format!(r#"{}{{"col":1,"row":1,"cur_stones":{}}}"#, if i > 0 { "," } else { "" }, n - i));
    }
    json.push_str(r#"]},"p2":{"id":"b","prisoners":[]}},"board":{"size":19,"black":["#);
    for i in 0..n {
        json.push_str(&format!(
            r#"{}{{"col":{},"row":{},"cur_stones":{}}}"#,
            if i > 0 { "," } else { "" },
            i % 19,
            (i / 19) % 19,
            i + 1
        ));
    }
    json.push_str(r#"],"white":[]},"config":{"komi":0.5,"turn":"b"}}"#);
    let ev = read(json.as_bytes());
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Property(_))).count(), n);
    assert_eq!(moves(&ev).len(), n);
}

/// A stone object of integers is read in one step, any other token by token: both give the same
/// fields, warnings and pass-through properties (an unknown member keeps its raw value), and a
/// counter too long for an integer is a bad value either way.
#[test]
fn stone_objects_in_one_step_and_token_by_token_agree() {
    let game = |stones: &str| {
        format!(
            r#"{{"players":{{"p1":{{"id":"a","prisoners":[]}},"p2":{{"id":"b","prisoners":[]}}}},
            "board":{{"size":9,"black":[{stones}],"white":[]}},"config":{{"komi":1,"turn":"b"}}}}"#
        )
    };
    let props = |ev: &[Event<'_>]| -> Vec<(Vec<u8>, Vec<u8>)> {
        ev.iter()
            .filter_map(|e| match e {
                Event::Property(p) => Some((p.name().to_vec(), p.value().raw().to_vec())),
                _ => None,
            })
            .collect()
    };
    // Integers only (one step), then a string member among them (token by token).
    let fast = game(r#"{"col": 1, "row": 2, "z": -7, "cur_stones": 3}, { "cur_stones" : 4 , "row":0,"col":0 }"#);
    let slow = game(r#"{"col": 1, "row": 2, "z": -7, "cur_stones": 3, "s": "x"}, {"cur_stones":4,"row":0,"col":0}"#);
    let (fast_ev, slow_ev) = (read(fast.as_bytes()), read(slow.as_bytes()));
    assert_eq!(moves(&fast_ev), [(Color::Black, Some((1, 2))), (Color::Black, Some((0, 0)))]);
    assert_eq!(moves(&slow_ev), moves(&fast_ev));
    assert_eq!(props(&fast_ev), [(b"z".to_vec(), b"-7".to_vec())]);
    assert_eq!(props(&slow_ev), [(b"z".to_vec(), b"-7".to_vec()), (b"s".to_vec(), b"x".to_vec())]);
    let at = |s: &str, pat: &str| s.find(pat).unwrap() as u64;
    assert!(
        fast_ev.contains(&Event::Warning(kifu::Warning { kind: WarningKind::UnknownKey, offset: at(&fast, "\"z\"") }))
    );
    // Five members (one more than a step takes), and 20- and 38-digit counters (the nines are
    // a fuzz find: the 19th digit overflowed an i64 before the length check said no).
    for stones in [
        r#"{"col":1,"row":2,"cur_stones":3,"a":1,"b":2}"#,
        r#"{"col":1,"row":2,"cur_stones":12345678901234567890}"#,
        r#"{"col":1,"row":2,"cur_stones":99999999999999999999999999999999999916}"#,
        r#"{"col":1,"row":2,"cur_stones":-1}"#,
    ] {
        let input = game(stones);
        let ev = read(input.as_bytes());
        assert_eq!(moves(&ev), [(Color::Black, Some((1, 2)))], "{stones}");
        let bad = warnings(&ev).contains(&WarningKind::BadValue);
        assert_eq!(bad, !stones.contains("\"a\""), "{stones}");
    }
}

#[test]
fn nesting_too_deep_in_a_skipped_value_is_a_depth_limit_error() {
    // An unknown key's value and a value of the wrong type are skipped; nesting past the limit
    // there is the depth limit, as it is where the reader reads token by token (it was a syntax
    // error in skipped values before the JSON readers shared `json::Doc`).
    let config = Config::default().with_limits(kifu::Limits::default().with_max_depth(10));
    let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
    for input in [format!(r#"{{"x": {deep}}}"#), format!(r#"{{"config": {{"komi": {deep}}}}}"#)] {
        let items: Vec<_> = kifu::gocaml::Reader::with_config(input.as_bytes(), config).collect();
        let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
        assert_eq!(errs.len(), 1, "{input}");
        assert_eq!(errs[0].kind(), ErrorKind::LimitExceeded(kifu::error::Limit::Depth), "{input}");
        // Within the limit the same values are read past.
        let shallow = input.replace(&deep, "[[[]]]");
        let items: Vec<_> = kifu::gocaml::Reader::with_config(shallow.as_bytes(), config).collect();
        assert!(items.iter().all(Result::is_ok), "{shallow}");
    }
}
