//! The KIF writer (`kifu::kif::write`): hand-written cases for each rule of its module table;
//! every corpus KIF file read, written in both charsets and read back gives the same events in
//! the same order (text compared decoded, the losses of the table applied by name); every CSA
//! file of the corpus written as KIF reads back with the same moves, times, comments and ending,
//! the rest counted; KIF → CSA → KIF keeps moves, times and comments; nothing is allocated per
//! node once the writer's buffers have grown.

mod common;

use bumpalo::Bump;
use kifu::kif::write::{Encoding, Options, Refused, Writer};
use kifu::tree::{Builder, GameTree};
use kifu::{ClockKind, Ending, Event, EventSource, InfoKey, Move};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

const UTF8: Options = Options { encoding: Encoding::Utf8, declare: false };
const CP932: Options = Options { encoding: Encoding::Cp932, declare: false };

/// Every game of a source as trees.
fn trees<'b, S: EventSource>(bump: &'b Bump, mut source: S) -> Vec<GameTree<'b>> {
    let mut b = Builder::new();
    let mut out = Vec::new();
    while let Some(t) = b.build(bump, &mut source).unwrap() {
        out.push(t);
    }
    out
}

/// Writes every game of a source as KIF; also gives the writer (its counts).
fn to_kif<S: EventSource>(source: S, options: Options) -> (Vec<u8>, Writer) {
    let bump = Bump::new();
    let mut w = Writer::new(options);
    let mut out = Vec::new();
    for t in trees(&bump, source) {
        w.write(&t, &mut out).unwrap();
    }
    (out, w)
}

fn kif(text: &str) -> String {
    String::from_utf8(to_kif(kifu::kif::Reader::new(text.as_bytes()), UTF8).0).unwrap()
}

/// One event as a round trip keeps it: text decoded, names decoded in the value's charset,
/// offsets and lengths left out; `None` for warnings.
fn norm(e: &Event<'_>) -> Option<String> {
    let name = |n: &[u8], t: kifu::Text<'_>| {
        kifu::Text::new(n, kifu::text::TextRule::Plain, t.charset()).decode().text.into_owned()
    };
    Some(match e {
        Event::Warning(_) => return None,
        Event::GameStart { .. } => "game_start".into(),
        Event::GameEnd { ending, .. } => format!("game_end {ending:?}"),
        Event::Info(i) => format!("info {:?} {} = {}", i.key(), name(i.name(), i.value()), i.value().decode().text),
        Event::Property(p) => format!("property {} = {}", name(p.name(), p.value()), p.value().decode().text),
        Event::Comment(t) => format!("comment {}", t.decode().text),
        Event::Name(t) => format!("name {}", t.decode().text),
        e => format!("{e:?}"),
    })
}

fn events<S: EventSource>(mut source: S) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(e) = source.next_event() {
        if let Some(s) = norm(&e.unwrap()) {
            out.push(s);
        }
    }
    out
}

/// The first place two event lists differ, for a message.
fn first_difference(a: &[String], b: &[String]) -> Option<String> {
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    Some(format!("event {i}: {:?} against {:?}", a.get(i), b.get(i)))
}

/// Events from a list (shapes and events no KIF reader gives).
struct List<'a> {
    events: &'a [Event<'a>],
    at: usize,
}

impl<'a> List<'a> {
    fn new(events: &'a [Event<'a>]) -> List<'a> {
        List { events, at: 0 }
    }
}

impl EventSource for List<'_> {
    fn next_event(&mut self) -> Option<Result<Event<'_>, kifu::Error>> {
        let e = self.events.get(self.at).copied();
        self.at += 1;
        e.map(Ok)
    }
}

// ---------------------------------------------------------------- rules

#[test]
fn header_lines_keep_their_keys_and_values() {
    let text = "#KIF version=2.0 encoding=UTF-8\n開始日時：2014/10/16 03:21:41\n対局日：2014/10/16\n先手：\n下手：羽生\n棋戦：名人戦\n備考：昼休\\n封じ手\n対局ID：1234\n盤面回転\n*はじめに\n&しおり\n手合割：平手\n手数----指手---------消費時間--\n";
    assert_eq!(kif(text), text);
    // Other formats' info by the shared key; what KIF has no key for is counted.
    let csa = "V2.2\nN+Sente\nN-Gote\n$EVENT:Meijin\n$START_TIME:2020/01/01\n$END_TIME:2020/01/02\n$OPENING:YAGURA\n$SITE:Tokyo\n$TIME_LIMIT:01:00+00\n$MAX_MOVES:256\nPI\n+\n";
    let (out, w) = to_kif(kifu::csa::Reader::new(csa.as_bytes()), UTF8);
    let want = "先手：Sente\n後手：Gote\n棋戦：Meijin\n開始日時：2020/01/01\n終了日時：2020/01/02\n戦型：YAGURA\n場所：Tokyo\n持ち時間：01:00+00\n$MAX_MOVES：256\n手合割：平手\n手数----指手---------消費時間--\n";
    assert_eq!(String::from_utf8(out).unwrap(), want);
    // The version line of CSA.
    assert_eq!(w.unwritten(), 1);
    // A line break in a value of another format becomes `\n`, a backslash `\\`.
    let sgf_like = kifu::Text::new(b"a\nb\\c", kifu::text::TextRule::Plain, kifu::text::Charset::Utf8);
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Info(kifu::Info::unnamed(InfoKey::GameComment, sgf_like)),
        Event::Info(kifu::Info::unnamed(InfoKey::Result, sgf_like)),
        Event::GameEnd { length: 0, ending: None },
    ];
    let (out, w) = to_kif(List::new(&evs), UTF8);
    assert_eq!(String::from_utf8(out).unwrap(), "備考：a\\nb\\\\c\n手数----指手---------消費時間--\n");
    assert_eq!(w.unwritten(), 1);
}

#[test]
fn moves_times_same_promotion_and_drops() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:16/00:00:16)\n   2 ３四歩(33)   ( 1:02/00:01:02)\n   3 ２二角成(88) ( 0:01/00:00:17)\n   4 同　銀(31)   (123:45/02:04:47)\n   5 ４五角打     ( 0:00/00:00:17)\n   6 投了         ( 0:03/02:04:50)\n";
    assert_eq!(kif(text), text);
    // A promoted piece moves without `成`; no time, no padding.
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 ４二飛(82)\n   5 ３三馬(22)\n   6 ４一飛(42)\n   7 ２一馬(33)\n   8 同　飛(41)\n";
    assert_eq!(kif(text), text);
    // A move of another format: the piece after the move (CSA `TO`) gives `成` from the board.
    let csa = "PI\n+\n+7776FU\nT3\n-3334FU\n+8822UM\n%TORYO\nT2\n";
    let (out, _) = to_kif(kifu::csa::Reader::new(csa.as_bytes()), UTF8);
    let want = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:03/00:00:03)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 投了         ( 0:02/00:00:02)\n";
    assert_eq!(String::from_utf8(out).unwrap(), want);
}

#[test]
fn specials_comments_and_bookmarks() {
    // An unknown special (a property and `Ending::Other`), comments and a bookmark after a move,
    // a comment after the special (where its time puts it).
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*いい手\n&栞\n   2 なにか\n";
    assert_eq!(kif(text), text);
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 切れ負け     ( 0:10/00:00:10)\n** -539\n";
    assert_eq!(kif(text), text);
    for (word, ending) in [
        ("中断", Ending::Interrupted),
        ("千日手", Ending::Repetition),
        ("持将棋", Ending::Impasse),
        ("反則勝ち", Ending::IllegalMove),
        ("入玉勝ち", Ending::DeclareWin),
        ("詰み", Ending::Checkmate),
        ("不詰", Ending::NoCheckmate),
    ] {
        let text = format!("手合割：平手\n手数----指手---------消費時間--\n   1 {word}\n");
        assert_eq!(kif(&text), text);
        let back: Vec<_> = kifu::kif::Reader::new(text.as_bytes()).map(Result::unwrap).collect();
        assert!(matches!(back.last(), Some(Event::GameEnd { ending: Some(e), .. }) if *e == ending));
    }
    // `反則負け` is the side to move's illegal action.
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 反則負け\n";
    assert_eq!(kif(text), text);
    // Endings KIF has no word for are counted.
    let evs = [Event::GameStart { offset: 0 }, Event::GameEnd { length: 0, ending: Some(Ending::Draw) }];
    let (out, w) = to_kif(List::new(&evs), UTF8);
    assert_eq!((String::from_utf8(out).unwrap().as_str(), w.unwritten()), ("手数----指手---------消費時間--\n", 1));
    // Text of other formats: a comment's lines, a comment before the first move, an evaluation.
    let t = |s: &'static str| kifu::Text::new(s.as_bytes(), kifu::text::TextRule::Plain, kifu::text::Charset::Utf8);
    let m = kifu::ShogiMove {
        color: kifu::Color::Black,
        from: Some(kifu::Square::new(7, 7)),
        to: kifu::Square::new(7, 6),
        piece: kifu::Piece::Pawn,
    };
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Comment(t("序\n盤")),
        Event::Node,
        Event::Move(Move::Shogi(m)),
        Event::Clock(kifu::Clock { color: Some(kifu::Color::Black), kind: ClockKind::ElapsedMs, value: 1500 }),
        Event::Clock(kifu::Clock { color: Some(kifu::Color::Black), kind: ClockKind::TimeLeftMs, value: 1500 }),
        Event::Comment(t("a\r\nb")),
        Event::Name(t("x\ny")),
        Event::Evaluation(kifu::Evaluation { score: Some(-12), pv: b"-3334FU" }),
        Event::GameEnd { length: 0, ending: None },
    ];
    let (out, w) = to_kif(List::new(&evs), UTF8);
    let want =
        "*序\n*盤\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n*a\n*b\n&x y\n** -12 -3334FU\n";
    assert_eq!(String::from_utf8(out).unwrap(), want);
    assert_eq!(w.unwritten(), 1);
}

#[test]
fn variations_come_after_the_main_line_deepest_first() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:02/00:00:02)+\n   2 ３四歩(33)   ( 0:01/00:00:01)+\n   3 ２六歩(27)   ( 0:01/00:00:03)\n   4 投了         ( 0:00/00:00:01)\n\n変化：2手\n   2 ８四歩(83)   ( 0:07/00:00:07)\n   3 ６八銀(79)   ( 0:02/00:00:04)+\n   4 中断\n\n変化：3手\n   3 同　角(88)\n\n変化：2手\n   2 ３二金(41)\n\n変化：1手\n   1 ２六歩(27)   ( 0:05/00:00:05)\n   2 ３四歩(33)   ( 0:03/00:00:03)\n";
    // (`同` in a variation is the branch's parent line's previous move; the second `変化：2手`
    // is the main line's, after the first one's own variations.)
    let back = kif(text);
    assert_eq!(back, text.replace("   2 ８四歩(83)   ( 0:07/00:00:07)\n", "   2 ８四歩(83)   ( 0:07/00:00:07)+\n"));
    let (a, b) = (events(kifu::kif::Reader::new(text.as_bytes())), events(kifu::kif::Reader::new(back.as_bytes())));
    assert_eq!(first_difference(&a, &b), None);
}

#[test]
fn start_positions_are_handicap_lines_or_diagrams() {
    let text = "手合割：香落ち\n手数----指手---------消費時間--\n   1 ３四歩(33)\n";
    assert_eq!(kif(text), text);
    // CSA's handicap start gains the `手合割` line.
    let (out, _) = to_kif(kifu::csa::Reader::new(b"PI11KY\n-\n-3334FU\n"), UTF8);
    assert_eq!(String::from_utf8(out).unwrap(), text);
    let diagram = "後手の持駒：飛　歩十八\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| 全 圭 杏 と 龍 馬 ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n後手番\n手数----指手---------消費時間--\n   1 ５二飛打\n";
    assert_eq!(kif(diagram), diagram);
    // The standard position with White to move is a diagram; Black's hand counts.
    let (out, _) = to_kif(
        kifu::usi::Reader::new(b"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2P 1\n"),
        UTF8,
    );
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("後手の持駒：なし\n") && out.contains("先手の持駒：歩二\n後手番\n"), "{out}");
    // A `手合割` that does not name the position: the diagram follows it.
    let other = format!("手合割：その他\n{diagram}");
    assert_eq!(kif(&other), other);
}

#[test]
fn cp932_output_and_the_kif_line() {
    let text = "先手：羽生\n*はじめ\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:02/00:00:02)+\n\n変化：1手\n   1 ２六歩(27)\n";
    let (out, _) = to_kif(kifu::kif::Reader::new(text.as_bytes()), CP932);
    assert_eq!(out, encoding_rs::SHIFT_JIS.encode(text).0.as_ref());
    // Read in CP932, written in CP932: the bytes are copied.
    let (again, _) = to_kif(kifu::kif::Reader::new(&out), CP932);
    assert_eq!(again, out);
    for (options, line) in [
        (Options { declare: true, ..UTF8 }, "#KIF version=2.0 encoding=UTF-8\n"),
        (Options { declare: true, ..CP932 }, "#KIF version=2.0 encoding=Shift_JIS\n"),
    ] {
        let (out, _) = to_kif(kifu::kif::Reader::new(text.as_bytes()), options);
        assert!(out.starts_with(line.as_bytes()));
        let evs: Vec<_> = events(kifu::kif::Reader::new(&out));
        assert_eq!(evs[1], "info FormatVersion version = 2.0");
        assert_eq!(evs[2], format!("info Charset encoding = {}", label(options)));
        assert_eq!(evs[3..], events(kifu::kif::Reader::new(text.as_bytes()))[1..]);
    }
}

/// A character CP932 lacks (Hangul, an emoji) is written as `&#N;` and counted, in a header
/// value, a comment and a bookmark; UTF-8 output and CP932 text copied as it is count none.
#[test]
fn characters_cp932_lacks_are_counted() {
    let text = "先手：이세돌\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*좋은 수 😀\n&☗\n   2 ３四歩(33)\n";
    let (out, w) = to_kif(kifu::kif::Reader::new(text.as_bytes()), CP932);
    assert_eq!(w.unencodable_chars(), 8);
    assert_eq!(out, encoding_rs::SHIFT_JIS.encode(text).0.as_ref());
    assert!(out.windows(8).any(|x| x == b"&#51060;"));
    // Counted across games, as `unwritten` is.
    let twice = format!("{text}\n{text}");
    assert_eq!(to_kif(kifu::kif::Reader::new(twice.as_bytes()), CP932).1.unencodable_chars(), 16);
    assert_eq!(to_kif(kifu::kif::Reader::new(text.as_bytes()), UTF8).1.unencodable_chars(), 0);
    let (again, w) = to_kif(kifu::kif::Reader::new(&out), CP932);
    assert_eq!((again, w.unencodable_chars()), (out, 0));
}

#[test]
fn games_follow_each_other_and_go_is_refused() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n手合割：平手\n手数----指手---------消費時間--\n   1 ２六歩(27)\n";
    assert_eq!(kif(text), text);
    // A game with nothing before its moves still starts a game of its own.
    let m = kifu::ShogiMove {
        color: kifu::Color::Black,
        from: Some(kifu::Square::new(7, 7)),
        to: kifu::Square::new(7, 6),
        piece: kifu::Piece::Pawn,
    };
    let one = [
        Event::GameStart { offset: 0 },
        Event::Node,
        Event::Move(Move::Shogi(m)),
        Event::GameEnd { length: 0, ending: None },
    ];
    let two: Vec<Event<'_>> = one.iter().chain(&one).copied().collect();
    let (out, _) = to_kif(List::new(&two), UTF8);
    let games = events(kifu::kif::Reader::new(&out)).iter().filter(|e| *e == "game_start").count();
    assert_eq!(games, 2);
    let bump = Bump::new();
    let go = trees(&bump, kifu::sgf::Reader::new(b"(;GM[1]SZ[9];B[aa])"));
    let mut out = b"kept".to_vec();
    assert_eq!(kifu::kif::write::write(&go[0], UTF8, &mut out), Err(Refused));
    assert_eq!(out, b"kept");
}

// ---------------------------------------------------------------- corpus

/// The label the reader gives for the written file's declared charset.
fn label(options: Options) -> &'static str {
    match options.encoding {
        Encoding::Utf8 => "UTF-8",
        Encoding::Cp932 => "Shift_JIS",
    }
}

/// A text as CP932 keeps it: a character CP932 lacks becomes `&#N;`.
fn cp932(s: &str) -> String {
    s.chars()
        .map(|c| {
            let mut b = [0; 4];
            match encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut b)).2 {
                true => format!("&#{};", c as u32),
                false => c.to_string(),
            }
        })
        .collect()
}

/// What reading the written file should give: the source's events with the losses of the
/// module's table that a KIF record meets: the `#KIF` line's charset becomes the output's;
/// CP932 lacks some characters.
fn expected(source: &[String], options: Options) -> Vec<String> {
    source
        .iter()
        .map(|e| match e.strip_prefix("info Charset encoding = ") {
            Some(_) => format!("info Charset encoding = {}", label(options)),
            None if options.encoding == Encoding::Cp932 => cp932(e),
            None => e.clone(),
        })
        .collect()
}

#[test]
fn corpus_kif_files_read_back_the_same_in_both_charsets() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let mut n = 0;
    for f in common::files(&dir, &[".kif", ".kifu"]) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.display();
        let source = events(kifu::kif::Reader::new(&bytes));
        for options in [UTF8, CP932] {
            let (out, w) = to_kif(kifu::kif::Reader::new(&bytes), options);
            let back = events(kifu::kif::Reader::new(&out));
            let want = expected(&source, options);
            if let Some(d) = first_difference(&want, &back) {
                panic!("{name} ({options:?}): {d}\n{}", String::from_utf8_lossy(&out));
            }
            assert_eq!(w.unwritten(), 0, "{name}");
        }
        n += 1;
    }
    assert!(n >= 350, "{n}");
}

/// What a game's main line says that KIF and CSA both keep: moves, times (whole seconds, with
/// their side), comments (one per line; an evaluation as the comment `* score pv` KIF reads it
/// back as; a comment before the first move too) and the ending, when KIF has a word for it.
#[derive(Debug, Default, PartialEq, Eq)]
struct Kept {
    moves: Vec<kifu::ShogiMove>,
    times: Vec<(Option<kifu::Color>, u64)>,
    comments: Vec<String>,
    header_comments: Vec<String>,
    ending: Option<Ending>,
}

/// Where two projections differ first, for a message.
fn kept_diff(a: &[Kept], b: &[Kept]) -> String {
    fn first<T: std::fmt::Debug + PartialEq>(what: &str, x: &[T], y: &[T]) -> Option<String> {
        let i = (0..x.len().max(y.len())).find(|&i| x.get(i) != y.get(i))?;
        Some(format!("{what} {i}: {:?} against {:?}", x.get(i), y.get(i)))
    }
    for (g, (x, y)) in a.iter().zip(b).enumerate() {
        let d = first("move", &x.moves, &y.moves)
            .or_else(|| first("time", &x.times, &y.times))
            .or_else(|| first("comment", &x.comments, &y.comments))
            .or_else(|| first("header comment", &x.header_comments, &y.header_comments))
            .or_else(|| (x.ending != y.ending).then(|| format!("ending {:?} against {:?}", x.ending, y.ending)));
        if let Some(d) = d {
            return format!("game {g}: {d}");
        }
    }
    format!("{} games against {}", a.len(), b.len())
}

fn kept<S: EventSource>(mut source: S) -> Vec<Kept> {
    let mut track = kifu::tree::MainLineTracker::new();
    let mut out = Vec::new();
    let mut g = Kept::default();
    let mut moved = false;
    let mut to_move = None;
    let mut turned = false;
    while let Some(e) = source.next_event() {
        let e = e.unwrap();
        if !track.feed(&e) {
            continue;
        }
        let comments = if moved { &mut g.comments } else { &mut g.header_comments };
        match e {
            Event::GameStart { .. } => (moved, turned) = (false, false),
            Event::Move(Move::Shogi(m)) => {
                g.moves.push(m);
                moved = true;
                to_move = Some(m.color.opponent());
            }
            Event::Turn(c) => (to_move, turned) = (Some(c), true),
            Event::Clock(c) if c.kind == ClockKind::ElapsedMs => g.times.push((c.color, c.value / 1000)),
            Event::Comment(t) => comments.extend(t.decode().text.lines().map(str::to_owned)),
            // KIF's `*` and CSA's `'` after the turn: comments on the start position.
            Event::Property(p) if p.is_start_comment(turned) => comments.push(p.value().decode().text.into_owned()),
            Event::Evaluation(v) => {
                let mut s = "*".to_owned();
                if let Some(x) = v.score {
                    s += &format!(" {x}");
                }
                if !v.pv.is_empty() {
                    s += &format!(" {}", String::from_utf8_lossy(v.pv));
                }
                comments.push(s);
            }
            Event::GameEnd { ending, .. } => {
                // (The writer's table: the side not to move's illegal action is the side to
                // move's win.)
                let ending = ending.map(|e| match (e, to_move) {
                    (Ending::IllegalActionBlack, Some(kifu::Color::White)) => Ending::IllegalMove,
                    (Ending::IllegalActionWhite, Some(kifu::Color::Black)) => Ending::IllegalMove,
                    (e, _) => e,
                });
                g.ending = ending.filter(|e| {
                    !matches!(
                        e,
                        Ending::Draw
                            | Ending::Matta
                            | Ending::MaxMoves
                            | Ending::Error
                            | Ending::PerpetualCheck
                            | Ending::Other
                    )
                });
                out.push(std::mem::take(&mut g));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn corpus_csa_files_read_back_with_their_moves_times_and_comments() {
    let Some(corpus) = common::corpus() else { return };
    let mut n = 0;
    for dir in [corpus.join("csa"), corpus.join("converted/csa-cshogi"), corpus.join("converted/csa3-tsshogi")] {
        for f in common::files(&dir, &[".csa"]) {
            let bytes = std::fs::read(&f).unwrap();
            let name = f.display();
            let want = kept(kifu::csa::Reader::new(&bytes));
            for options in [UTF8, CP932] {
                let (out, w) = to_kif(kifu::csa::Reader::new(&bytes), options);
                let got = kept(kifu::kif::Reader::new(&out));
                assert!(
                    got == want,
                    "{name} {options:?}: {}\n{}",
                    kept_diff(&got, &want),
                    String::from_utf8_lossy(&out)
                );
                // What is not written: CSA's version lines, endings KIF has no word for.
                let source = events(kifu::csa::Reader::new(&bytes));
                let versions = source.iter().filter(|e| e.starts_with("info FormatVersion")).count();
                let wordless = ["Draw", "Matta", "MaxMoves", "Error", "PerpetualCheck", "Other"];
                let endings =
                    source.iter().filter(|e| wordless.iter().any(|w| **e == format!("game_end Some({w})"))).count();
                assert_eq!(w.unwritten(), (versions + endings) as u64, "{name}");
            }
            n += 1;
        }
    }
    assert!(n >= 2700, "{n}");
}

#[test]
fn kif_to_csa_to_kif_keeps_moves_times_and_comments() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let mut n = 0;
    for f in common::files(&dir, &[".kif", ".kifu"]) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.display();
        let mut csa = Vec::new();
        let mut w = kifu::csa::write::Writer::new(kifu::csa::write::Version::V30);
        for e in kifu::kif::Reader::new(&bytes) {
            // (The CSA writer takes back a game it refuses; KIF games are shogi.)
            w.event(&e.unwrap(), &mut csa).unwrap();
        }
        let (back, _) = to_kif(kifu::csa::Reader::new(&csa), UTF8);
        let (mut a, b) = (kept(kifu::kif::Reader::new(&bytes)), kept(kifu::kif::Reader::new(&back)));
        // KIF's comments before the first move (a `Property` named `*`) come back (since
        // 2026-11-29: before, the CSA writer left them out). As its table says, a comment's
        // leading `*` is lost.
        for c in a.iter_mut().flat_map(|g| g.comments.iter_mut().chain(g.header_comments.iter_mut())) {
            if let Some(rest) = c.strip_prefix('*') {
                *c = rest.to_owned();
            }
        }
        assert!(a == b, "{name}: {}\n{}", kept_diff(&a, &b), String::from_utf8_lossy(&csa));
        n += 1;
    }
    assert!(n >= 350, "{n}");
}

#[test]
fn corpus_usi_files_read_back_with_their_moves() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let mut n = 0;
    for f in common::files(&dir, &[".usi", ".sfen"]) {
        let bytes = std::fs::read(&f).unwrap();
        let want = kept(kifu::usi::Reader::new(&bytes));
        for options in [UTF8, CP932] {
            let (out, _) = to_kif(kifu::usi::Reader::new(&bytes), options);
            let got = kept(kifu::kif::Reader::new(&out));
            assert!(got == want, "{}: {}\n{}", f.display(), kept_diff(&got, &want), String::from_utf8_lossy(&out));
            // The start position too (USI gives the setup in the diagram's order).
            let setup = |evs: Vec<String>| -> Vec<String> {
                evs.into_iter().filter(|e| e.starts_with("Setup") || e.starts_with("Turn")).collect()
            };
            assert_eq!(
                setup(events(kifu::kif::Reader::new(&out))).len(),
                setup(events(kifu::usi::Reader::new(&bytes))).len()
            );
        }
        n += 1;
    }
    assert!(n >= 301, "{n}");
}

#[test]
fn branches_below_a_node_are_written_as_variations() {
    // The shape SGF and JGF give (children of a node), not KIF's (siblings of a move).
    let m = |color, from: (u8, u8), to: (u8, u8), piece| {
        Event::Move(Move::Shogi(kifu::ShogiMove {
            color,
            from: Some(kifu::Square::new(from.0, from.1)),
            to: kifu::Square::new(to.0, to.1),
            piece,
        }))
    };
    use kifu::{Branch, Color::*, Piece::*};
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Node,
        m(Black, (7, 7), (7, 6), Pawn),
        Event::VariationStart(Branch::Child),
        Event::Node,
        m(White, (3, 3), (3, 4), Pawn),
        Event::Node,
        m(Black, (8, 8), (2, 2), Horse),
        Event::VariationEnd,
        Event::VariationStart(Branch::Child),
        Event::Node,
        m(White, (8, 3), (8, 4), Pawn),
        Event::VariationEnd,
        Event::GameEnd { length: 0, ending: Some(Ending::Resign) },
    ];
    let (out, _) = to_kif(List::new(&evs), UTF8);
    let want = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２二角成(88)\n   4 投了\n\n変化：2手\n   2 ８四歩(83)\n";
    assert_eq!(String::from_utf8(out.clone()).unwrap(), want);
    let bump = Bump::new();
    let (a, b) = (trees(&bump, List::new(&evs)), trees(&bump, kifu::kif::Reader::new(&out)));
    // The same tree (the read-back game node also holds the standard position's setup, the
    // table's loss for a start given by no setup event).
    let shape =
        |t: &GameTree<'_>| -> Vec<_> { t.nodes().map(|n| (t.parent(n), t.moves(n).collect::<Vec<_>>())).collect() };
    assert_eq!(shape(&a[0]), shape(&b[0]));
    assert_eq!(b[0].ending(), Some(Ending::Resign));
}

// ---------------------------------------------------------------- allocation

/// One test, so that no other test thread allocates while counting.
#[test]
fn writing_allocates_nothing_per_node() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let bump = Bump::new();
    let files: Vec<&[u8]> = common::files(&dir, &[".kif", ".kifu"])
        .iter()
        .map(|f| &*bump.alloc_slice_copy(&std::fs::read(f).unwrap()))
        .collect();
    let trees: Vec<GameTree<'_>> = files.iter().flat_map(|b| trees(&bump, kifu::kif::Reader::new(b))).collect();
    let nodes: usize = trees.iter().map(GameTree::len).sum();
    let mut out = Vec::new();
    for options in [UTF8, CP932] {
        let mut w = Writer::new(options);
        // Warm-up: the variation stack, the scratch string and the output grow.
        for t in &trees {
            out.clear();
            w.write(t, &mut out).unwrap();
        }
        let largest = trees
            .iter()
            .map(|t| {
                let mut one = Vec::new();
                w.write(t, &mut one).unwrap();
                one.len()
            })
            .max()
            .unwrap_or(0);
        out = Vec::with_capacity(largest);
        let before = common::alloc::allocations();
        for t in &trees {
            out.clear();
            w.write(t, &mut out).unwrap();
        }
        let allocs = common::alloc::allocations() - before;
        assert_eq!(allocs, 0, "{options:?}: {allocs} allocations writing {} trees, {nodes} nodes", trees.len());
        // For the record (not asserted): the speed of writing the corpus's trees.
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for t in &trees {
            out.clear();
            w.write(t, &mut out).unwrap();
            bytes += out.len();
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{options:?}: {} trees, {nodes} nodes, {:.2} MB written in {secs:.3} s",
            trees.len(),
            bytes as f64 / 1e6
        );
    }
}

/// CSA's comments on the start position (`'` lines between the turn line and the first move)
/// are KIF's `*` lines before the first move, and KI2's (before 2026-11-29 they were written as
/// a header named `'`, and KI2 left them out); a `'` line above the position is not one.
#[test]
fn csa_comments_on_the_start_position_are_kif_comments() {
    let csa = b"'a note\nPI\n+\n'on the start\n'*starred\n+7776FU\n";
    let (out, w) = to_kif(kifu::csa::Reader::new(csa), UTF8);
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("*on the start\n*starred\n手数----"), "{out}");
    assert!(out.starts_with("'：a note\n"), "{out}");
    assert_eq!(w.unwritten(), 0);
    let mut ki2 = Vec::new();
    let mut w = kifu::ki2::write::Writer::new(kifu::text::Charset::Utf8);
    for e in kifu::csa::Reader::new(csa) {
        w.event(&e.unwrap(), &mut ki2);
    }
    let ki2 = String::from_utf8(ki2).unwrap();
    assert!(ki2.contains("*on the start\n*starred\n▲７六歩"), "{ki2}");
}
