//! One small hand-written case per rule of `specs/sgf-notes.md` and of the `kifu::sgf` module
//! docs: grammar, white space, junk, escapes, point lists, passes, board sizes, FF[3]
//! identifiers, the property index, game info anywhere, charsets, strict mode, recovery and
//! positions. Inline byte strings only; no corpus needed.

use kifu::event::{ClockKind, MarkupKind};
use kifu::input::{prepare, Config};
use kifu::sgf::Reader;
use kifu::{
    Branch, Charset, Clock, Color, ErrorKind, Event, EventSource, InfoKey, Limit, Move, Point, Setup, WarningKind,
};
use std::borrow::Cow;

/// Every event of a lenient read; panics on an error.
fn events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// The events without the GameEnd lengths and warning offsets, to compare inputs that differ
/// only in white space.
fn normalised(input: &[u8]) -> Vec<String> {
    events(input)
        .into_iter()
        .map(|e| match e {
            Event::GameStart { .. } => "GameStart".into(),
            Event::GameEnd { ending, .. } => format!("GameEnd({ending:?})"),
            Event::Warning(w) => format!("Warning({:?})", w.kind),
            Event::Info(i) => format!("Info({:?}, {})", i.key(), i.value().decode().text),
            Event::Property(p) => format!(
                "Property({}, {:?})",
                String::from_utf8_lossy(p.name()),
                p.value().sgf_values().map(|t| t.decode().text.into_owned()).collect::<Vec<_>>()
            ),
            Event::Comment(t) => format!("Comment({})", t.decode().text),
            e => format!("{e:?}"),
        })
        .collect()
}

/// The warnings of a lenient read: (kind, offset).
fn warnings(input: &[u8]) -> Vec<(WarningKind, u64)> {
    events(input)
        .into_iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some((w.kind, w.offset)),
            _ => None,
        })
        .collect()
}

fn go(color: Color, point: Option<(u8, u8)>) -> Event<'static> {
    Event::Move(Move::Go { color, point: point.map(|(x, y)| Point::new(x, y)) })
}

fn moves(input: &[u8]) -> Vec<Event<'_>> {
    events(input).into_iter().filter(|e| matches!(e, Event::Move(_))).collect()
}

fn setups(input: &[u8]) -> Vec<(Option<Color>, (u8, u8))> {
    events(input)
        .into_iter()
        .filter_map(|e| match e {
            Event::Setup(Setup::Go { color, point }) => Some((color, (point.x, point.y))),
            _ => None,
        })
        .collect()
}

/// (key, identifier as written, decoded value) of every Info event.
fn infos(input: &[u8]) -> Vec<(InfoKey, String, String)> {
    events(input)
        .into_iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect()
}

/// The decoded text of the first Comment.
fn comment(input: &[u8]) -> String {
    events(input)
        .into_iter()
        .find_map(|e| match e {
            Event::Comment(t) => Some(t.decode().text.into_owned()),
            _ => None,
        })
        .expect("a comment")
}

// ---------------------------------------------------------------------------------------------
// Grammar

#[test]
fn grammar_collection_tree_sequence_node_property() {
    let input = b"(;GM[1]AB[aa][bb];B[cc](;W[dd])(;W[ee];B[ff]))(;B[])";
    let ev = events(input);
    use Event::*;
    let want = vec![
        GameStart { offset: 0 },
        Node,
        // GM is game info; AB has two values: one Setup per value.
        ev[2],
        Setup(kifu::Setup::Go { color: Some(Color::Black), point: Point::new(0, 0) }),
        Setup(kifu::Setup::Go { color: Some(Color::Black), point: Point::new(1, 1) }),
        Node,
        go(Color::Black, Some((2, 2))),
        VariationStart(Branch::Child),
        Node,
        go(Color::White, Some((3, 3))),
        VariationEnd,
        VariationStart(Branch::Child),
        Node,
        go(Color::White, Some((4, 4))),
        Node,
        go(Color::Black, Some((5, 5))),
        VariationEnd,
        GameEnd { length: 46, ending: None },
        GameStart { offset: 46 },
        Node,
        go(Color::Black, None),
        GameEnd { length: 6, ending: None },
    ];
    assert_eq!(ev, want);
    assert!(matches!(ev[2], Event::Info(i) if i.key() == InfoKey::GameType && i.value().raw() == b"1"));
}

#[test]
fn grammar_property_with_several_values_passed_through() {
    // An unknown property keeps all its values in one Property event.
    let ev = events(b"(;XY[1][two] [3])");
    let Event::Property(p) = ev[2] else { panic!("{ev:?}") };
    assert_eq!(p.name(), b"XY");
    let vals: Vec<String> = p.value().sgf_values().map(|t| t.decode().text.into_owned()).collect();
    assert_eq!(vals, ["1", "two", "3"]);
}

#[test]
fn white_space_between_tokens_changes_nothing() {
    let compact: &[u8] = b"(;GM[1]SZ[9]AB[aa][bb]C[x];B[cc](;W[dd])(;W[ee]))";
    let spaced: &[u8] = b" \n( ;\tGM [1] SZ\r\n[9]\x0bAB[aa] [bb]\x0cC [x]\n;\nB[cc] ( ; W[dd] ) ( ;W [ee] ) ) \n";
    assert_eq!(normalised(compact), normalised(spaced));
    assert!(warnings(spaced).is_empty(), "{:?}", warnings(spaced));
}

#[test]
fn white_space_between_tokens_changes_nothing_for_moves_with_two_values() {
    // `B[aa][bb]` and `B [aa][bb]` must give the same events. The slow path gives two moves; the
    // fast path gives one move and ValueWithoutIdent.
    assert_eq!(normalised(b"(;B[aa][bb])"), normalised(b"(;B [aa][bb])"));
    assert_eq!(normalised(b"(;W[aa][])"), normalised(b"(;W [aa][])"));
}

// ---------------------------------------------------------------------------------------------
// Junk

#[test]
fn junk_before_between_and_after_games() {
    // A mail header, a parenthesis that opens no game, junk between games, a trailer.
    let input = b"From: someone\n(not a game) (;B[aa]) -- (;W[bb]) trailer )";
    let ev = events(input);
    let got: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(format!("{:?}@{}", w.kind, w.offset)),
            Event::GameStart { offset } => Some(format!("game@{offset}")),
            _ => None,
        })
        .collect();
    assert_eq!(got, ["JunkBeforeGame@0", "game@27", "JunkBetweenGames@36", "game@39", "JunkAfterGames@48"]);
    assert_eq!(moves(input).len(), 2);
}

#[test]
fn junk_is_one_warning_per_run_and_empty_games_are_junk() {
    assert_eq!(warnings(b"abc ) ( () (;)"), [(WarningKind::JunkBeforeGame, 0)]);
    assert_eq!(warnings(b"(;)\n() )\n(;)"), [(WarningKind::JunkBetweenGames, 4)]);
    assert!(events(b"").is_empty());
    assert!(events(b" \n\t").is_empty());
}

// ---------------------------------------------------------------------------------------------
// Escapes and text (Text::decode)

#[test]
fn text_escapes() {
    assert_eq!(comment(br"(;C[a\]b])"), "a]b");
    assert_eq!(comment(br"(;C[a\\b])"), r"a\b");
    assert_eq!(comment(br"(;C[a\:b])"), "a:b");
    assert_eq!(comment(br"(;C[\a\b])"), "ab", "a backslash before any other character is dropped");
    assert_eq!(comment(br"(;C[a\\])"), r"a\", "an escaped backslash before `]` does not escape it");
}

#[test]
fn text_soft_line_breaks() {
    for nl in [&b"\n"[..], b"\r", b"\r\n", b"\n\r"] {
        let input = [&b"(;C[soft\\"[..], nl, &b"break])"[..]].concat();
        assert_eq!(comment(&input), "softbreak", "{nl:?}");
    }
}

#[test]
fn text_newline_forms_become_lf() {
    for nl in [&b"\n"[..], b"\r", b"\r\n", b"\n\r"] {
        let input = [&b"(;C[one"[..], nl, &b"two"[..], nl, &b"three])"[..]].concat();
        assert_eq!(comment(&input), "one\ntwo\nthree", "{nl:?}");
    }
    // Two LFs are two newlines, but LF CR is one.
    assert_eq!(comment(b"(;C[a\n\nb])"), "a\n\nb");
    assert_eq!(comment(b"(;C[a\n\rb])"), "a\nb");
}

#[test]
fn text_other_white_space_becomes_space() {
    assert_eq!(comment(b"(;C[a\tb\x0bc\x0cd])"), "a b c d");
}

#[test]
fn simple_text_newlines_become_spaces() {
    let ev = events(b"(;PB[Lee\nSedol]N[move\r\n1\\\nx]GN[a\tb])");
    let texts: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some(i.value().decode().text.into_owned()),
            Event::Name(t) => Some(t.decode().text.into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["Lee Sedol", "move 1x", "a b"]);
    // Escapes in SimpleText too.
    assert_eq!(infos(br"(;PB[a\]b\\c])")[0].2, r"a]b\c");
    // GC is Text: its newlines stay.
    assert_eq!(infos(b"(;GC[a\nb])")[0].2, "a\nb");
}

#[test]
fn decode_borrows_when_nothing_changes() {
    let ev = events("(;PB[柯洁]C[plain text])".as_bytes());
    for e in ev {
        let t = match e {
            Event::Info(i) => i.value(),
            Event::Comment(t) => t,
            _ => continue,
        };
        assert!(matches!(t.decode().text, Cow::Borrowed(_)), "{t:?}");
    }
    let ev = events(br"(;C[a\]b])");
    let Event::Comment(t) = ev[2] else { panic!() };
    assert_eq!(t.raw(), br"a\]b", "events keep the raw bytes");
    assert!(matches!(t.decode().text, Cow::Owned(_)));
}

// ---------------------------------------------------------------------------------------------
// Points

#[test]
fn compressed_point_lists_one_event_per_point_in_rectangle_order() {
    let s = setups(b"(;AB[aa:cb]AW[dd]AE[ee:ef])");
    let b = Some(Color::Black);
    assert_eq!(
        s,
        [
            (b, (0, 0)),
            (b, (1, 0)),
            (b, (2, 0)),
            (b, (0, 1)),
            (b, (1, 1)),
            (b, (2, 1)),
            (Some(Color::White), (3, 3)),
            (None, (4, 4)),
            (None, (4, 5)),
        ]
    );
    // Markup lists expand too.
    let marks: Vec<(MarkupKind, Option<Point>)> = events(b"(;TR[aa:ab]SQ[bb])")
        .into_iter()
        .filter_map(|e| match e {
            Event::Markup(m) => Some((m.kind, m.point())),
            _ => None,
        })
        .collect();
    assert_eq!(
        marks,
        [
            (MarkupKind::Triangle, Some(Point::new(0, 0))),
            (MarkupKind::Triangle, Some(Point::new(0, 1))),
            (MarkupKind::Square, Some(Point::new(1, 1))),
        ]
    );
}

#[test]
fn compressed_point_list_with_unordered_corners() {
    // `cc:aa`: a BadRectangle warning, then the same nine points as `aa:cc`.
    let input = b"(;AB[cc:aa])";
    assert_eq!(warnings(input), [(WarningKind::BadRectangle, 5)]);
    assert_eq!(setups(input), setups(b"(;AB[aa:cc])"));
    assert_eq!(setups(input).len(), 9);
}

#[test]
fn passes() {
    let b = Color::Black;
    assert_eq!(moves(b"(;B[])"), [go(b, None)]);
    assert_eq!(moves(b"(;B[tt])"), [go(b, None)], "tt is a pass on 19x19");
    assert_eq!(moves(b"(;SZ[9];B[tt])"), [go(b, None)], "and on smaller boards");
    assert_eq!(moves(b"(;SZ[19:13];B[tt])"), [go(b, None)]);
    assert_eq!(moves(b"(;SZ[21];B[tt])"), [go(b, Some((19, 19)))], "a point on 21x21");
    assert_eq!(moves(b"(;SZ[20:9];W[tt])"), [go(Color::White, Some((19, 19)))]);
}

#[test]
fn board_sizes_up_to_52() {
    assert_eq!(moves(b"(;SZ[52];B[ZZ])"), [go(Color::Black, Some((51, 51)))]);
    assert!(warnings(b"(;SZ[52];B[ZZ])").is_empty());
    assert_eq!(moves(b"(;SZ[52:3];B[Zc])"), [go(Color::Black, Some((51, 2)))]);
    let mut r = Reader::new(b"(;SZ[25:7])");
    r.next();
    assert_eq!(r.board_size(), (25, 7));
    // Off the board for SZ[19:13] (19 columns, 13 rows): row 18.
    assert_eq!(warnings(b"(;SZ[19:13];B[as])"), [(WarningKind::PointOffBoard, 14)]);
    assert_eq!(moves(b"(;SZ[19:13];B[as])"), [go(Color::Black, Some((0, 18)))]);
}

#[test]
fn bad_board_sizes_are_warned() {
    for input in [&b"(;SZ[53])"[..], b"(;SZ[0])", b"(;SZ[x])", b"(;SZ[19:53])", b"(;SZ[])", b"(;SZ[-9])"] {
        let w = warnings(input);
        assert_eq!(w, [(WarningKind::BadBoardSize, 5)], "{}", String::from_utf8_lossy(input));
        // The Info event still comes, with the raw value.
        assert_eq!(infos(input).len(), 1);
    }
}

#[test]
fn empty_territory_lists_are_valid() {
    // sgf-notes.md: "TB, TW | go | elist of point (territory)", like DD and VW.
    for input in [&b"(;TB[])"[..], b"(;TW[])", b"(;DD[])", b"(;VW[])"] {
        assert!(warnings(input).is_empty(), "{}: {:?}", String::from_utf8_lossy(input), warnings(input));
        assert!(Reader::with_config(input, Config::strict()).all(|e| e.is_ok()));
    }
}

#[test]
fn bad_points_are_warned() {
    assert_eq!(warnings(b"(;B[a])"), [(WarningKind::BadPoint, 4)]);
    assert_eq!(warnings(b"(;B[a1])"), [(WarningKind::BadPoint, 4)]);
    assert!(moves(b"(;B[a1])").is_empty());
    assert_eq!(warnings(b"(;SZ[9];AB[jj])"), [(WarningKind::PointOffBoard, 11)]);
}

// ---------------------------------------------------------------------------------------------
// Identifiers

#[test]
fn ff3_lower_case_identifiers() {
    let input = b"(;FF[3]CoPyright[c]AddBlack[aa]PlayerBlack[p];White[bb])";
    let i = infos(input);
    assert_eq!(i[1], (InfoKey::Copyright, "CoPyright".into(), "c".into()), "the name is kept as written");
    assert_eq!(i[2].0, InfoKey::BlackName);
    assert_eq!(setups(input), [(Some(Color::Black), (0, 0))]);
    assert_eq!(moves(input), [go(Color::White, Some((1, 1)))]);
    // One warning per game, at the first such identifier.
    assert_eq!(warnings(input), [(WarningKind::LowercaseIdent, 7)]);
    assert_eq!(warnings(b"(;AddBlack[aa])(;AddWhite[bb]AddBlack[cc])").len(), 2);
}

// ---------------------------------------------------------------------------------------------
// The property index

#[test]
fn moves_setup_turn_comment_name() {
    let ev = events(b"(;AB[aa]AW[bb]AE[cc]PL[W]C[c]N[n];B[dd];W[ee];PL[B])");
    assert!(ev.contains(&Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(0, 0) })));
    assert!(ev.contains(&Event::Setup(Setup::Go { color: Some(Color::White), point: Point::new(1, 1) })));
    assert!(ev.contains(&Event::Setup(Setup::Go { color: None, point: Point::new(2, 2) })));
    assert!(ev.contains(&Event::Turn(Color::White)));
    assert!(ev.contains(&Event::Turn(Color::Black)));
    assert!(ev.iter().any(|e| matches!(e, Event::Comment(t) if t.raw() == b"c")));
    assert!(ev.iter().any(|e| matches!(e, Event::Name(t) if t.raw() == b"n")));
    assert!(ev.contains(&go(Color::Black, Some((3, 3)))));
    assert!(ev.contains(&go(Color::White, Some((4, 4)))));
}

#[test]
fn markup_properties() {
    let input = b"(;CR[aa]MA[ab]SQ[ac]TR[ad]SL[ae]DD[af]VW[ag]TB[ah]TW[ai]LB[aj:lab\\]el]AR[aa:bb]LN[cc:dd]DD[])";
    let marks: Vec<(MarkupKind, Option<Point>, Option<Point>, String)> = events(input)
        .into_iter()
        .filter_map(|e| match e {
            Event::Markup(m) => Some((m.kind, m.point(), m.to(), m.label().decode().text.into_owned())),
            _ => None,
        })
        .collect();
    let p = |x, y| Some(Point::new(x, y));
    let s = String::new;
    assert_eq!(
        marks,
        [
            (MarkupKind::Circle, p(0, 0), None, s()),
            (MarkupKind::Cross, p(0, 1), None, s()),
            (MarkupKind::Square, p(0, 2), None, s()),
            (MarkupKind::Triangle, p(0, 3), None, s()),
            (MarkupKind::Selected, p(0, 4), None, s()),
            (MarkupKind::Dim, p(0, 5), None, s()),
            (MarkupKind::Visible, p(0, 6), None, s()),
            (MarkupKind::TerritoryBlack, p(0, 7), None, s()),
            (MarkupKind::TerritoryWhite, p(0, 8), None, s()),
            (MarkupKind::Label, p(0, 9), None, "lab]el".into()),
            (MarkupKind::Arrow, p(0, 0), p(1, 1), s()),
            (MarkupKind::Line, p(2, 2), p(3, 3), s()),
            // DD[] (an empty elist) clears: a Dim markup with no point.
            (MarkupKind::Dim, None, None, s()),
        ]
    );
    assert!(warnings(input).is_empty());
}

#[test]
fn clock_properties() {
    let clocks: Vec<Clock> = events(b"(;B[aa]BL[12.5]OB[3];W[bb]WL[30]OW[0])")
        .into_iter()
        .filter_map(|e| match e {
            Event::Clock(c) => Some(c),
            _ => None,
        })
        .collect();
    let c = |color, kind, value| Clock { color: Some(color), kind, value };
    assert_eq!(
        clocks,
        [
            c(Color::Black, ClockKind::TimeLeftMs, 12_500),
            c(Color::Black, ClockKind::PeriodsLeft, 3),
            c(Color::White, ClockKind::TimeLeftMs, 30_000),
            c(Color::White, ClockKind::PeriodsLeft, 0),
        ]
    );
    assert_eq!(warnings(b"(;BL[soon])"), [(WarningKind::BadValue, 5)]);
    assert_eq!(warnings(b"(;OW[x])"), [(WarningKind::BadValue, 5)]);
}

#[test]
fn game_info_properties_map_to_info_keys() {
    use InfoKey::*;
    let table: &[(&str, InfoKey)] = &[
        ("AN", Annotator),
        ("AP", Application),
        ("BR", BlackRank),
        ("BT", BlackTeam),
        ("CA", Charset),
        ("CP", Copyright),
        ("DT", Date),
        ("EV", Event),
        ("FF", FormatVersion),
        ("GC", GameComment),
        ("GM", GameType),
        ("GN", GameName),
        ("HA", Handicap),
        ("KM", Komi),
        ("ON", Opening),
        ("OT", Overtime),
        ("PB", BlackName),
        ("PC", Place),
        ("PW", WhiteName),
        ("RE", Result),
        ("RO", Round),
        ("RU", Rules),
        ("SO", Source),
        ("SZ", BoardSize),
        ("TM", TimeLimit),
        ("US", Transcriber),
        ("WR", WhiteRank),
        ("WT", WhiteTeam),
    ];
    for &(id, key) in table {
        let value = match id {
            "CA" => "UTF-8",
            "SZ" => "19",
            "FF" => "4",
            _ => "1",
        };
        let input = format!("(;{id}[{value}])");
        let got = infos(input.as_bytes());
        assert_eq!(got, [(key, id.to_string(), value.to_string())], "{id}");
        assert_eq!(kifu::sgf::props::info_ident(key), Some(id));
    }
}

#[test]
fn other_properties_pass_through_with_raw_values() {
    for id in ["BM", "TE", "DO", "IT", "KO", "MN", "DM", "GB", "GW", "HO", "UC", "V", "ST", "MULTIGOGM"] {
        let input = format!("(;{id}[1\\]x][2])");
        let ev = events(input.as_bytes());
        let Event::Property(p) = ev[2] else { panic!("{id}: {ev:?}") };
        assert_eq!(p.name(), id.as_bytes());
        assert_eq!(p.value().raw(), br"[1\]x][2]", "{id}");
        let vals: Vec<String> = p.value().sgf_values().map(|t| t.decode().text.into_owned()).collect();
        assert_eq!(vals, ["1]x", "2"], "{id}");
    }
}

#[test]
fn game_info_in_a_non_root_node() {
    let input = b"(;GM[1]AB[aa];B[bb]PB[late](;W[cc]PW[branch one])(;W[dd]PW[branch two]))";
    let ev = events(input);
    let mut node = 0;
    let mut seen = Vec::new();
    for e in ev {
        match e {
            Event::Node => node += 1,
            Event::Info(i) => seen.push((node, i.key(), i.value().decode().text.into_owned())),
            _ => {}
        }
    }
    assert_eq!(
        seen,
        [
            (1, InfoKey::GameType, "1".into()),
            (2, InfoKey::BlackName, "late".into()),
            (3, InfoKey::WhiteName, "branch one".into()),
            (4, InfoKey::WhiteName, "branch two".into()),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Charsets

fn charset_of(input: &[u8]) -> Charset {
    let mut r = Reader::new(input);
    assert!(matches!(r.next(), Some(Ok(Event::GameStart { .. }))));
    r.charset()
}

#[test]
fn ca_declares_the_charset() {
    assert_eq!(infos(b"(;CA[ISO-8859-1]PB[Andr\xe9])")[1].2, "André");
    assert_eq!(infos(b"(;CA[latin1]PB[\xe9])")[1].2, "é");
    assert_eq!(infos("(;CA[UTF-8]PB[é])".as_bytes())[1].2, "é");
    // CA after the values it governs (found by a look-ahead over the root node).
    let i = infos(b"(;PB[\xb9\xc5\xc1\xa6]PW[x]CA[gb2312])");
    assert_eq!(i[0].2, "古力");
    assert_eq!(charset_of(b"(;PB[\xb9\xc5\xc1\xa6]PW[x]CA[gb2312])"), Charset::Gb18030);
    // The charset is fixed per game: the next game without CA is detected again.
    let two = [&b"(;CA[Latin1]PB[\xe9])"[..], "(;PB[é])".as_bytes()].concat();
    let i = infos(&two);
    assert_eq!((i[1].2.as_str(), i[2].2.as_str()), ("é", "é"));
    // The charset holds for the whole game, not only the root.
    assert_eq!(comment(b"(;CA[Latin1];B[aa]C[caf\xe9])"), "café");
}

#[test]
fn two_byte_charsets_keep_trail_bytes() {
    // Shift_JIS ソ = 83 5C, Big5 許 = B3 5C: a `\` trail byte is not an escape.
    assert_eq!(infos(b"(;CA[Shift_JIS]PB[\x83\x5c]PW[x])")[1].2, "ソ");
    assert_eq!(infos(b"(;CA[Big5]PB[\xb3\x5c]PW[x])")[1].2, "許");
    // GBK 0x81 0x5D: a `]` trail byte does not end the value.
    let i = infos(b"(;CA[GBK]PB[\x81\x5dA]PW[x])");
    assert_eq!(i.len(), 3);
    assert!(i[1].2.ends_with('A') && i[1].2.chars().count() == 2, "{:?}", i[1]);
    // An escape after a two-byte character still works.
    assert_eq!(comment(b"(;CA[Shift_JIS]C[\x83\x5c\\]])"), "ソ]");
}

#[test]
fn charsets_without_ca_are_detected() {
    // Valid UTF-8 without CA is UTF-8.
    assert_eq!(charset_of("(;PB[井山裕太]PW[一力遼]C[コミ6目半、白番中押し勝ち])".as_bytes()), Charset::Utf8);
    // Not UTF-8: the detection rule of kifu::text::detect_charset, game by game.
    let sjis = b"(;PB[\x88\xe4\x8e\x52\x97\x54\x91\xbe]C[\x83\x52\x83\x7e\x82\x55\x96\xda\x94\xbc\x81\x41\x94\x92\x94\xd4\x92\x86\x89\x9f\x82\xb5\x8f\x9f\x82\xbf])";
    assert_eq!(charset_of(sjis), kifu::text::detect_charset(sjis));
    assert_eq!(infos(sjis)[0].2, "井山裕太");
}

#[test]
fn unknown_ca_is_warned_and_detection_used() {
    let input = b"(;CA[klingon]PB[x])";
    assert_eq!(warnings(input), [(WarningKind::UnknownCharset, 5)]);
    assert_eq!(charset_of(input), Charset::Utf8);
}

#[test]
fn utf8_bom_and_utf16() {
    let bom = b"\xef\xbb\xbf(;PB[\xe6\x9d\x8e])";
    assert_eq!(events(bom)[0], Event::GameStart { offset: 3 });
    assert_eq!(infos(bom)[0].2, "李");
    for be in [false, true] {
        let text = "(;CA[UTF-16]PB[李])";
        let mut bytes = if be { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
        for u in text.encode_utf16() {
            bytes.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        assert_eq!(Reader::new(&bytes).next().unwrap().unwrap_err().kind(), ErrorKind::Encoding);
        let prepared = prepare(&bytes);
        assert_eq!(infos(&prepared)[1].2, "李", "be={be}");
        assert_eq!(charset_of(&prepared), Charset::Utf8);
    }
}

#[test]
fn invalid_utf8_in_a_utf8_game_is_warned_and_decoded_lossily() {
    let input = b"(;CA[UTF-8]PB[ab\xe5\x9b])";
    assert_eq!(warnings(input), [(WarningKind::InvalidText, 16)]);
    let ev = events(input);
    let d = ev
        .iter()
        .find_map(|e| match e {
            Event::Info(i) if i.key() == InfoKey::BlackName => Some(i.value().decode()),
            _ => None,
        })
        .unwrap();
    assert!(d.lossy);
    assert_eq!(d.text, "ab\u{fffd}");
}

// ---------------------------------------------------------------------------------------------
// Strict mode

#[test]
fn strict_mode_turns_each_warning_into_an_error() {
    use WarningKind::*;
    let cases: &[(&[u8], WarningKind)] = &[
        (b"junk (;)", JunkBeforeGame),
        (b"(;) junk (;)", JunkBetweenGames),
        (b"(;) junk", JunkAfterGames),
        (b"(;CA[UTF-8]C[\xff])", InvalidText),
        (b"(;CA[klingon])", UnknownCharset),
        (b"(;B[a])", BadPoint),
        (b"(;SZ[9];B[kk])", PointOffBoard),
        (b"(;PL[X])", BadValue),
        (b"(;B[aa]())", EmptyVariation),
        (b"(;GM[1];B[aa](;W[bb]\n(;GM[1])", Truncated),
        (b"(;SZ[99])", BadBoardSize),
        (b"(;AddBlack[aa])", LowercaseIdent),
        (b"(;[aa])", ValueWithoutIdent),
        (b"(;B;W[aa])", IdentWithoutValue),
        (b"(B[aa])", MissingSemicolon),
        (b"(;B[aa](;W[bb]);B[cc])", NodeAfterVariation),
        (b"(;B[aa]+)", Repaired),
        (b"(;AB[bb:aa])", BadRectangle),
    ];
    for &(input, kind) in cases {
        let name = String::from_utf8_lossy(input);
        let w = warnings(input);
        let Some(&(_, offset)) = w.iter().find(|(k, _)| *k == kind) else { panic!("{name}: no {kind:?} in {w:?}") };
        let err = Reader::with_config(input, Config::strict())
            .find_map(Result::err)
            .unwrap_or_else(|| panic!("{name}: strict gave no error"));
        assert_eq!(err.kind(), ErrorKind::Strict(w[0].0), "{name}");
        assert_eq!(w[0].0, kind, "{name}: {kind:?} must be the first warning");
        assert_eq!(err.offset(), offset, "{name}");
    }
}

#[test]
fn strict_mode_reports_the_end_of_input_inside_a_game_as_unexpected_eof() {
    // Lenient: Truncated, the open variation and the game are closed.
    let input = b"(;B[aa](;W[bb]";
    let ev = events(input);
    assert!(ev.contains(&Event::Warning(kifu::Warning { kind: WarningKind::Truncated, offset: 14 })));
    assert_eq!(ev.iter().filter(|e| **e == Event::VariationEnd).count(), 1);
    assert!(matches!(ev.last(), Some(Event::GameEnd { .. })));
    let err = Reader::with_config(input, Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn unterminated_value_is_an_error_in_both_modes() {
    for config in [Config::lenient(), Config::strict()] {
        let items: Vec<_> = Reader::with_config(b"(;B[aa];C[no end", config).collect();
        let last = items.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.kind(), ErrorKind::UnexpectedEof);
        assert_eq!(last.offset(), 9);
    }
}

// ---------------------------------------------------------------------------------------------
// Recovery

#[test]
fn after_an_error_the_next_item_is_the_next_game() {
    // Lenient: a value over the limit is an error; the next game is read.
    let mut config = Config::lenient();
    config.limits.max_value_len = 8;
    let input = b"(;C[ok])(;C[far too long];B[aa];W[bb])(;W[cc])";
    let items: Vec<_> = Reader::with_config(input, config).collect();
    let i = items.iter().position(Result::is_err).unwrap();
    assert_eq!(items[i].as_ref().unwrap_err().kind(), ErrorKind::LimitExceeded(Limit::ValueSize));
    assert_eq!(*items[i + 1].as_ref().unwrap(), Event::GameStart { offset: 38 });
    assert_eq!(items.iter().filter(|e| matches!(e, Ok(Event::GameStart { .. }))).count(), 3);
    // Strict: a warning in game 2 ends it; game 3 is read.
    let input = b"(;B[aa])(;B[bb];[x];W[cc])(;W[dd])";
    let items: Vec<_> = Reader::with_config(input, Config::strict()).collect();
    let i = items.iter().position(Result::is_err).unwrap();
    assert_eq!(items[i].as_ref().unwrap_err().kind(), ErrorKind::Strict(WarningKind::ValueWithoutIdent));
    assert_eq!(*items[i + 1].as_ref().unwrap(), Event::GameStart { offset: 26 });
}

#[test]
fn a_game_missing_its_close_paren_ends_at_the_next_game() {
    let input = b"(;GM[1];B[aa](;W[bb]\n(;GM[1];B[cc])";
    let ev = events(input);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::GameStart { .. })).count(), 2);
    assert_eq!(moves(input).len(), 3);
    let starts = ev.iter().filter(|e| matches!(e, Event::VariationStart(_))).count();
    assert_eq!(starts, ev.iter().filter(|e| **e == Event::VariationEnd).count());
}

#[test]
fn after_an_error_inside_a_variation_the_rest_of_the_game_is_skipped() {
    // A depth-limit error deep inside game 1 must not turn its nested variations into games.
    let mut input = b"(;GM[1]".to_vec();
    for _ in 0..20 {
        input.extend_from_slice(b"(;B[aa]");
    }
    input.extend_from_slice(&[b')'; 21]);
    let next = input.len() as u64;
    input.extend_from_slice(b"(;GM[1]C[next])");
    let mut config = Config::lenient();
    config.limits.max_depth = 5;
    let items: Vec<_> = Reader::with_config(&input, config).collect();
    let i = items.iter().position(Result::is_err).unwrap();
    assert_eq!(items[i].as_ref().unwrap_err().kind(), ErrorKind::LimitExceeded(Limit::Depth));
    assert_eq!(*items[i + 1].as_ref().unwrap(), Event::GameStart { offset: next });
    assert_eq!(items.iter().filter(|e| matches!(e, Ok(Event::GameStart { .. }))).count(), 2);
    // The same for a value over the limit in a game with a variation (kifu resumes at `(;W[bb])`).
    let mut config = Config::lenient();
    config.limits.max_value_len = 8;
    let input = b"(;C[ok])(;C[far too long];B[aa](;W[bb]))(;W[cc])";
    let items: Vec<_> = Reader::with_config(input, config).collect();
    let i = items.iter().position(Result::is_err).unwrap();
    assert_eq!(*items[i + 1].as_ref().unwrap(), Event::GameStart { offset: 40 });
    // The same in strict mode after a warning: `(;AddBlack[aa](;B[bb])(;W[cc]))` is one game.
    let items: Vec<_> = Reader::with_config(b"(;AddBlack[aa](;B[bb])(;W[cc]))", Config::strict()).collect();
    assert_eq!(items.iter().filter(|e| matches!(e, Ok(Event::GameStart { .. }))).count(), 1);
}

#[test]
fn property_after_a_variation_is_warned() {
    let input = b"(;B[aa](;W[bb])B[cc])";
    assert!(!warnings(input).is_empty(), "{:?}", events(input));
    assert!(Reader::with_config(input, Config::strict()).any(|e| e.is_err()));
}

#[test]
fn game_tree_without_a_node_is_warned() {
    let input = b"(;B[aa]((;W[bb])(;W[cc])))";
    assert!(!warnings(input).is_empty(), "{:?}", events(input));
    assert!(Reader::with_config(input, Config::strict()).any(|e| e.is_err()));
}

// ---------------------------------------------------------------------------------------------
// Positions

#[test]
fn error_positions_have_line_and_column() {
    let input = b"(;B[aa]\n;W[bb]\r\n;C[never closed";
    let err = Reader::new(input).find_map(Result::err).unwrap();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    let p = err.position();
    assert_eq!((p.offset, p.line, p.column), (18, 3, 3));
    assert_eq!(p.to_string(), "3:3");
    assert!(err.to_string().starts_with("3:3: unexpected_eof"), "{err}");
}

#[test]
fn warning_offsets_locate_to_line_and_column() {
    let input = b"(;SZ[9]\r\n;B[aa]\n;W[zz]\r;B[a])";
    let mut r = Reader::new(input);
    let mut offsets = Vec::new();
    for item in r.by_ref() {
        if let Event::Warning(w) = item.unwrap() {
            offsets.push((w.kind, w.offset));
        }
    }
    assert_eq!(offsets, [(WarningKind::PointOffBoard, 19), (WarningKind::BadPoint, 26)]);
    let p = r.locate(19);
    assert_eq!((p.line, p.column), (3, 4));
    let p = r.locate(26);
    assert_eq!((p.line, p.column), (4, 4));
    // Going back works too.
    let p = r.locate(2);
    assert_eq!((p.line, p.column), (1, 3));
    assert_eq!(kifu::Position::locate(input, 26), r.locate(26));
}

#[test]
fn strict_error_position_is_the_warning_position() {
    let input = b"(;GM[1]\n;B[aa]\n;[x])";
    let err = Reader::with_config(input, Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(err.kind(), ErrorKind::Strict(WarningKind::ValueWithoutIdent));
    assert_eq!((err.offset(), err.position().line, err.position().column), (16, 3, 2));
}

// ---------------------------------------------------------------------------------------------
// Limits

#[test]
fn limits_end_the_game_with_limit_exceeded() {
    let cases: &[(&[u8], Limit)] = &[
        (b"(;C[0123456789])(;B[aa])", Limit::ValueSize),
        (b"(;;;;;;)(;B[aa])", Limit::Nodes),
        (b"(;(;(;(;(;(;)))))))(;B[aa])", Limit::Depth),
        (b"(;C[a];B[aa];W[bb];B[cc];W[dd];B[ee])(;B[aa])", Limit::GameSize),
    ];
    for &(input, limit) in cases {
        let mut config = Config::lenient();
        match limit {
            Limit::ValueSize => config.limits.max_value_len = 5,
            Limit::Nodes => config.limits.max_nodes = 4,
            Limit::Depth => config.limits.max_depth = 3,
            Limit::GameSize => config.limits.max_game_len = 20,
            _ => unreachable!("a limit this test does not set"),
        }
        let items: Vec<_> = Reader::with_config(input, config).collect();
        let name = String::from_utf8_lossy(input);
        let i = items.iter().position(Result::is_err).unwrap_or_else(|| panic!("{name}: no error"));
        let err = items[i].as_ref().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded(limit), "{name}");
        assert!(err.offset() < input.len() as u64);
        // The next game is still read.
        let rest: Vec<_> = items[i + 1..].iter().map(|e| e.as_ref().unwrap()).collect();
        assert!(matches!(rest[0], Event::GameStart { .. }), "{name}: {rest:?}");
        assert!(rest.contains(&&go(Color::Black, Some((0, 0)))), "{name}");
        // With default limits the same input reads without error.
        assert!(Reader::new(input).all(|e| e.is_ok()), "{name}");
    }
}

#[test]
fn event_offsets_point_at_tokens_and_values() {
    use kifu::EventSource;
    let input = b"(;B[aa];W[bb]C[x])";
    let mut r = Reader::new(input);
    let mut seen = Vec::new();
    while let Some(ev) = r.next_event() {
        let name = ev.unwrap().name();
        seen.push((name, r.event_offset().unwrap()));
    }
    assert_eq!(
        seen,
        [("game_start", 0), ("node", 1), ("move", 3), ("node", 7), ("move", 9), ("comment", 14), ("game_end", 17)]
    );
}

/// `GM` other than 1 is not Go: no Go points are read (no moves, setup or marks, no `bad_point`
/// warnings for letters beyond the board); those properties pass through verbatim.
#[test]
fn a_game_that_is_not_go_has_no_go_points() {
    let input = b"(;GM[19]SZ[8];B[zz];W[e4]AB[aa:bb]CR[q1];B[aa])(;GM[2];W[bb])(;GM[1];B[aa])";
    assert_eq!(warnings(input), []);
    let names: Vec<_> = events(input).iter().map(|e| e.name()).collect();
    assert_eq!(names.iter().filter(|n| **n == "move").count(), 1, "{names:?}");
    assert!(!names.contains(&"setup") && !names.contains(&"markup"), "{names:?}");
    assert_eq!(names.iter().filter(|n| **n == "property").count(), 6, "{names:?}");
    // Also when the first FF[3] lower-case identifier's warning comes with it (a fuzz find).
    let names: Vec<_> = events(b"(;GM[2];dgB[id])").iter().map(|e| e.name()).collect();
    assert_eq!(names, ["game_start", "node", "info", "node", "warning", "property", "game_end"]);
}
