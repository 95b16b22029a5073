//! KIF reader: the corpus (every generated game replays to its move count, final SFEN and
//! branch count in `kif/tsshogi/index.tsv`; every real file reads without error and agrees with
//! what tsshogi read from it; the CP932/UTF-8 pairs give the same events; the same game in KIF
//! and CSA gives the same moves; the event contract and streaming hold on every file) and
//! hand-written cases for each rule, hostile input and detection.

mod common;

use kifu::kif::Reader;
use kifu::kit::check_contract;
use kifu::position::shogi::ShogiPosition;
use kifu::tree::MainLineTracker;
use kifu::{
    Branch, ClockKind, Color, Config, Ending, Event, EventSource, Format, InfoKey, Move, Piece, Setup, ShogiMove,
    Square, WarningKind,
};
use std::path::{Path, PathBuf};

fn events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(w.kind) } else { None }).collect()
}

/// What one game of a file gives: main-line moves, final SFEN (replayed on the main line),
/// number of variations, ending.
#[derive(Debug)]
struct Game {
    moves: Vec<ShogiMove>,
    sfen: Result<String, String>,
    branches: usize,
    ending: Option<Ending>,
}

fn games(input: &[u8]) -> Vec<Game> {
    let mut out = Vec::new();
    let mut r = Reader::new(input);
    let mut main = MainLineTracker::new();
    let mut pos = ShogiPosition::new();
    let (mut moves, mut branches, mut bad) = (Vec::new(), 0, None);
    while let Some(ev) = r.next() {
        let ev = ev.unwrap_or_else(|e| panic!("{e}"));
        let on_main = main.feed(&ev);
        match ev {
            Event::GameEnd { ending, .. } => {
                let sfen = match bad.take() {
                    Some(b) => Err(b),
                    None => Ok(pos.sfen()),
                };
                out.push(Game { moves: std::mem::take(&mut moves), sfen, branches, ending });
                branches = 0;
                continue;
            }
            Event::VariationStart(_) => branches += 1,
            Event::Move(Move::Shogi(m)) if on_main => moves.push(m),
            _ => {}
        }
        if on_main && bad.is_none() {
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

fn kif_files(dir: &Path) -> Vec<PathBuf> {
    common::files(dir, &[".kif", ".kifu"])
}

// ---------------------------------------------------------------- corpus

#[test]
fn generated_games_match_the_index() {
    let Some(dir) = common::corpus_dir("kif/tsshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let bytes = read(&dir.join(c[0]));
        let g = games(&bytes);
        assert_eq!(g.len(), 1, "{}", c[0]);
        let evs = events(&bytes);
        assert_eq!(warnings(&evs), [], "{}", c[0]);
        assert_eq!(g[0].moves.len(), c[2].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g[0].sfen.as_deref(), Ok(c[3]), "{}", c[0]);
        assert_eq!(g[0].branches, c[6].parse::<usize>().unwrap(), "{}", c[0]);
        n += 1;
    }
    assert_eq!(n, 300);
}

#[test]
fn real_files_agree_with_tsshogi() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let text = std::fs::read_to_string(dir.join("tsshogi-reading.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c[0].ends_with(".json") {
            continue;
        }
        let bytes = read(&dir.join(c[0]));
        let g = games(&bytes);
        assert_eq!(g.len(), 1, "{}", c[0]);
        let g = &g[0];
        assert_eq!(g.moves.len(), c[3].parse::<usize>().unwrap(), "{}", c[0]);
        if c[0] == "kifujs-fork-test.kif" {
            // Its 変化：2手 block writes move 5 twice (`5 ６六歩(67)`, `5 ４二銀(31)`): kifu warns
            // and reads the second as move 6 of that block (two blocks); tsshogi makes it a third
            // branch and reports a main-line position with a Black silver on 3一 after three
            // moves, which no reading of the main line gives.
            assert_eq!(
                (g.branches, g.sfen.as_deref()),
                (2, Ok("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w -"))
            );
            n += 1;
            continue;
        }
        assert_eq!(g.sfen.as_deref(), Ok(c[4]), "{}", c[0]);
        assert_eq!(g.branches, c[5].parse::<usize>().unwrap(), "{}", c[0]);
        let ending = match c.get(6).copied().unwrap_or("") {
            "resign" => Some(Ending::Resign),
            "interrupt" => Some(Ending::Interrupted),
            "mate" => Some(Ending::Checkmate),
            // `反則負け` after move 2: Black, the side to move, lost.
            "foulLose" => Some(Ending::IllegalActionBlack),
            "" | "start" => None,
            // tsshogi's last special of the file whatever line it is on.
            _ => g.ending,
        };
        assert_eq!(g.ending, ending, "{}", c[0]);
        n += 1;
    }
    assert!(n >= 35, "{n}");
}

#[test]
fn every_file_reads_keeps_the_contract_and_is_detected() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let files = kif_files(&dir);
    assert!(files.len() >= 340, "{}", files.len());
    for f in &files {
        let bytes = read(f);
        let name = f.display();
        let c = check_contract(&bytes, &mut Reader::new(&bytes), false);
        assert_eq!((c.games, c.errors), (1, 0), "{name}");
        check_contract(&bytes, &mut Reader::with_config(&bytes, Config::strict()), true);
        assert_eq!(kifu::detect(&bytes), Some(Format::Kif), "{name}");
        // Every prefix cut at a line end, and a few cut anywhere, keep the contract.
        for cut in (0..bytes.len()).step_by(97) {
            check_contract(&bytes[..cut], &mut Reader::new(&bytes[..cut]), false);
        }
    }
}

/// An event with its text decoded and offsets left out, to compare the same game in two charsets.
fn norm(ev: &Event) -> String {
    let d = |t: kifu::Text| t.decode().text.into_owned();
    match ev {
        Event::Info(i) => format!(
            "info {:?} {} {}",
            i.key(),
            d(kifu::Text::new(i.name(), kifu::TextRule::Plain, i.value().charset())),
            d(i.value())
        ),
        Event::Property(p) => format!(
            "prop {} {}",
            d(kifu::Text::new(p.name(), kifu::TextRule::Plain, p.value().charset())),
            d(p.value())
        ),
        Event::Comment(t) => format!("comment {}", d(*t)),
        Event::Name(t) => format!("name {}", d(*t)),
        Event::GameStart { .. } => "start".into(),
        Event::GameEnd { ending, .. } => format!("end {ending:?}"),
        Event::Warning(w) => format!("warning {:?}", w.kind),
        ev => format!("{ev:?}"),
    }
}

#[test]
fn cp932_and_utf8_pairs_give_the_same_events() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let mut pairs = 0;
    for f in common::files(&dir, &[".kif"]) {
        let utf8 = f.with_extension("kifu");
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("skc-") || !utf8.exists() {
            continue;
        }
        let (a, b) = (read(&f), read(&utf8));
        let a: Vec<String> = events(&a).iter().map(norm).collect();
        let b: Vec<String> = events(&b).iter().map(norm).collect();
        // The UTF-8 Shogidokoro file declares its charset where the CP932 one does not.
        let drop_charset = |v: Vec<String>| -> Vec<String> {
            v.into_iter().filter(|s| !s.starts_with("info Charset") && !s.starts_with("info FormatVersion")).collect()
        };
        assert_eq!(drop_charset(a), drop_charset(b), "{name}");
        pairs += 1;
    }
    assert!(pairs >= 5, "{pairs}");
}

#[test]
fn the_same_game_in_kif_and_csa_gives_the_same_moves() {
    let Some(dir) = common::corpus_dir("kif/tsshogi") else { return };
    let Some(csa) = common::corpus_dir("converted/csa-cshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let kif = games(&read(&dir.join(c[0])));
        let path = if csa.join(c[1]).exists() { csa.join(c[1]) } else { csa.join("sjis").join(c[1]) };
        let bytes = read(&path);
        let csa_moves: Vec<ShogiMove> = kifu::csa::Reader::new(&bytes)
            .filter_map(|e| match e.unwrap() {
                Event::Move(Move::Shogi(m)) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(kif[0].moves, csa_moves, "{}", c[0]);
    }
}

#[test]
fn streaming_equals_the_slice_reader() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let mut all = Vec::new();
    for f in kif_files(&dir).iter().filter(|f| f.extension().unwrap() == "kifu").take(40) {
        let bytes = read(f);
        let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&bytes);
        all.extend_from_slice(bytes);
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    let slice: Vec<String> = Reader::new(&all).map(|e| format!("{:?}", e.unwrap())).collect();
    // Files without a header line run on into the game before them.
    let games = slice.iter().filter(|s| s.starts_with("GameStart")).count();
    assert!(games >= 30, "{games}");
    for step in [1usize, 7, 4096] {
        let read = common::dribble::Dribble::new(&all[..], step as u64, step);
        let mut split = kifu::stream::splitter(Format::Kif, Box::new(read), Config::default());
        let mut out = Vec::new();
        while let Some(chunk) = split.next_game() {
            let chunk = chunk.unwrap();
            let mut r = kifu::stream::read_chunk(Format::Kif, &chunk, Config::default());
            while let Some(ev) = r.next_event() {
                out.push(format!("{:?}", ev.unwrap()));
            }
        }
        let first = out.iter().zip(&slice).position(|(a, b)| a != b).unwrap_or(out.len().min(slice.len()));
        assert_eq!(
            out.get(first.saturating_sub(2)..first + 2),
            slice.get(first.saturating_sub(2)..first + 2),
            "reads of {step} at {first}"
        );
        assert_eq!(out, slice, "reads of {step}");
    }
}

// ---------------------------------------------------------------- rules

fn moves_of(kif: &str) -> Vec<ShogiMove> {
    events(kif.as_bytes())
        .iter()
        .filter_map(|e| if let Event::Move(Move::Shogi(m)) = e { Some(*m) } else { None })
        .collect()
}

#[test]
fn moves_same_square_drops_promotions() {
    let kif = "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 ４五角打\n6 ５二金(41)\n";
    let m = moves_of(kif);
    assert_eq!(
        m[2],
        ShogiMove { color: Color::Black, from: Some(Square::new(8, 8)), to: Square::new(2, 2), piece: Piece::Horse }
    );
    assert_eq!(
        m[3],
        ShogiMove { color: Color::White, from: Some(Square::new(3, 1)), to: Square::new(2, 2), piece: Piece::Silver }
    );
    assert_eq!(m[4], ShogiMove { color: Color::Black, from: None, to: Square::new(4, 5), piece: Piece::Bishop });
    let g = games(kif.as_bytes());
    assert!(g[0].sfen.is_ok(), "{:?}", g[0].sfen);
}

#[test]
fn headers_map_to_info_keys() {
    let kif = "#KIF version=2.0 encoding=UTF-8\n開始日時：2014/10/16\n棋戦：名人戦\n先手：羽生\n後手：藤井\n対局ID：123\n手合割：平手　　\n備考：a\\nb\n手数----指手--\n1 ７六歩(77)\n";
    let evs = events(kif.as_bytes());
    let infos: Vec<(InfoKey, String)> = evs
        .iter()
        .filter_map(
            |e| if let Event::Info(i) = e { Some((i.key(), i.value().decode().text.into_owned())) } else { None },
        )
        .collect();
    assert_eq!(
        infos,
        [
            (InfoKey::FormatVersion, "2.0".into()),
            (InfoKey::Charset, "UTF-8".into()),
            (InfoKey::Date, "2014/10/16".into()),
            (InfoKey::Event, "名人戦".into()),
            (InfoKey::BlackName, "羽生".into()),
            (InfoKey::WhiteName, "藤井".into()),
            (InfoKey::Handicap, "平手".into()),
            (InfoKey::GameComment, "a\nb".into()),
        ]
    );
    assert!(evs.iter().any(|e| matches!(e, Event::Property(p) if p.name() == "対局ID".as_bytes())));
}

#[test]
fn handicaps_remove_pieces_and_white_moves_first() {
    for (name, removed) in
        [("香落ち", 1), ("角落ち", 1), ("二枚落ち", 2), ("左七枚落ち", 7), ("右七枚落ち", 7), ("十枚落ち", 10)]
    {
        let kif = format!("手合割：{name}\n1 ３四歩(33)\n");
        let evs = events(kif.as_bytes());
        let setups = evs.iter().filter(|e| matches!(e, Event::Setup(_))).count();
        assert_eq!(setups, 40 - removed, "{name}");
        assert!(evs.contains(&Event::Turn(Color::White)), "{name}");
        let g = games(kif.as_bytes());
        assert!(g[0].sfen.is_ok(), "{name}: {:?}", g[0].sfen);
    }
    let evs = events("手合割：詰将棋\n1 ７六歩(77)\n".as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::UnknownKey]);
}

#[test]
fn board_diagrams_with_hands_and_turn() {
    let kif = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・v歩v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金二　銀\n後手番\n1 １二玉(11)\n";
    let evs = events(kif.as_bytes());
    let hand = evs.iter().filter(|e| matches!(e, Event::Setup(Setup::Shogi { square: None, .. }))).count();
    assert_eq!(hand, 3);
    assert!(evs.contains(&Event::Turn(Color::White)));
    let g = games(kif.as_bytes());
    assert_eq!(g[0].sfen.as_deref(), Ok("7p1/8k/9/9/9/9/9/9/4K4 b 2GS"));
}

#[test]
fn specials_end_the_game_with_their_time() {
    for (word, ending) in [
        ("投了", Ending::Resign),
        ("中断", Ending::Interrupted),
        ("千日手", Ending::Repetition),
        ("持将棋", Ending::Impasse),
        ("切れ負け", Ending::TimeUp),
        ("反則勝ち", Ending::IllegalMove),
        ("反則負け", Ending::IllegalActionWhite),
        ("入玉勝ち", Ending::DeclareWin),
        ("詰み", Ending::Checkmate),
        ("不詰", Ending::NoCheckmate),
    ] {
        let kif = format!("1 ７六歩(77) ( 0:01/00:00:01)\n2 {word} ( 0:05/00:00:05)\nまで1手\n");
        let evs = events(kif.as_bytes());
        assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(e), .. }) if *e == ending), "{word}");
        let clocks: Vec<_> = evs
            .iter()
            .filter_map(|e| if let Event::Clock(c) = e { Some((c.color, c.kind, c.value)) } else { None })
            .collect();
        assert_eq!(
            clocks,
            [(Some(Color::Black), ClockKind::ElapsedMs, 1000), (Some(Color::White), ClockKind::ElapsedMs, 5000)]
        );
    }
}

#[test]
fn comments_bookmarks_and_variations() {
    let kif = "*start\n1 ７六歩(77)\n*first\n&mark\n2 ３四歩(33)\n3 ２六歩(27)\n\n変化：2手\n2 ８四歩(83)\n3 同　歩(84)?\n\n変化：3手\n3 ６八銀(79)\n\n変化：1手\n1 同　歩(27)\n";
    let evs = events(kif.as_bytes());
    let shape: Vec<String> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Node => Some("N".to_string()),
            Event::VariationStart(Branch::Sibling) => Some("(".into()),
            Event::VariationStart(Branch::Child) => Some("<".into()),
            Event::VariationEnd => Some(")".into()),
            Event::Comment(t) => Some(format!("c:{}", t.decode().text)),
            Event::Name(t) => Some(format!("n:{}", t.decode().text)),
            Event::Property(p) => Some(format!("p:{}", p.value().decode().text)),
            Event::Warning(w) => Some(format!("w:{:?}", w.kind)),
            _ => None,
        })
        .collect();
    // 変化：1手 comes right after move 1 and its comment (its `同` has no move before it: a
    // warning); 変化：3手 attaches to the 変化：2手 line, the nearest that reaches move 3.
    assert_eq!(shape.join(" "), "p:start N c:first n:mark ( w:BadValue ) N ( N N ( N ) ) N");
}

#[test]
fn hostile_input_is_bounded() {
    // 10^6 nested 変化: the depth limit ends the game with an error.
    let mut kif = String::from("1 ７六歩(77)\n");
    for n in 2..1_000_000 {
        kif.push_str(&format!("変化：{n}手\n{n} ７六歩(77)\n"));
    }
    let mut r = Reader::new(kif.as_bytes());
    let c = check_contract(kif.as_bytes(), &mut r, false);
    assert_eq!(c.errors, 1);
    // A 100 MB comment: an error (over the value limit), nothing copied.
    let mut big = String::from("1 ７六歩(77)\n*");
    big.push_str(&"あ".repeat(35_000_000));
    big.push('\n');
    let c = check_contract(big.as_bytes(), &mut Reader::new(big.as_bytes()), false);
    assert_eq!(c.errors, 1);
    // Shift_JIS pairs cut in half, anywhere.
    let sjis =
        encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)   ( 0:02/00:00:02)\n   2 投了\n").0.into_owned();
    for cut in 0..sjis.len() {
        let mut b = sjis[..cut].to_vec();
        b.extend_from_slice(&sjis[cut + 1..]);
        check_contract(&b, &mut Reader::new(&b), false);
        check_contract(&b, &mut Reader::with_config(&b, Config::strict()), true);
    }
    // 40 kings in a diagram: read, with a warning for each extra king.
    let mut diagram = String::from("+---------------------------+\n");
    for r in 0..9 {
        diagram.push('|');
        for f in 0..9 {
            diagram.push_str(if (r * 9 + f) % 2 == 0 && r * 9 + f < 80 { " 玉" } else { " ・" });
        }
        diagram.push_str("|\n");
    }
    diagram.push_str("+---------------------------+\n1 ５五玉(56)\n");
    let evs = events(diagram.as_bytes());
    assert!(warnings(&evs).iter().filter(|w| **w == WarningKind::BadValue).count() >= 38);
}

#[test]
fn multi_game_files_split_at_headers() {
    let kif = "先手：A\n1 ７六歩(77)\n2 投了\nまで1手\n\n先手：B\n1 ２六歩(27)\n";
    let g = games(kif.as_bytes());
    assert_eq!(g.len(), 2);
    assert_eq!((g[0].moves.len(), g[1].moves.len()), (1, 1));
    assert_eq!(kifu::kif::chunks(kif.as_bytes()).count(), 2);
}

#[test]
fn detection() {
    assert_eq!(kifu::detect("#KIF version=2.0\n".as_bytes()), Some(Format::Kif));
    assert_eq!(kifu::detect("先手：A\n後手：B\n   1 ７六歩(77)\n".as_bytes()), Some(Format::Kif));
    assert_eq!(kifu::detect("Some prose\nwith: colons\n".as_bytes()), None);
    // A short record with a stray line (before 2026-11-29: not a game record): its numbered
    // move lines that read are KIF's; stray lines alone, or outnumbering its lines, are not.
    assert_eq!(kifu::detect("   1 ７六歩(77)\n   2 ３四歩(33)\nfoo bar\n".as_bytes()), Some(Format::Kif));
    assert_eq!(kifu::detect("先手：A\nよい対局\n   1 ７六歩(77)\n".as_bytes()), Some(Format::Kif));
    assert_eq!(kifu::detect("   1 ７六歩(77)\nfoo bar\nbaz\n".as_bytes()), None);
    assert_eq!(kifu::detect("先手：A\n後手：B\nfoo bar\n".as_bytes()), None);
    assert_eq!(kifu::detect(b"V2.2\nPI\n+\n+7776FU\n"), Some(Format::Csa));
    // KI2 shares KIF's headers but writes its moves after a side mark.
    assert_eq!(kifu::detect("手合割：平手\n先手：A\n後手：B\n▲７六歩　△３四歩\n".as_bytes()), Some(Format::Ki2));
    if let Some(dir) = common::corpus_dir("ki2") {
        for f in common::files(&dir, &[".ki2", ".ki2u"]) {
            assert_ne!(kifu::detect(&read(&f)), Some(Format::Kif), "{}", f.display());
        }
    }
}

#[test]
fn shift_jis_second_bytes_never_end_a_token() {
    // 表 (95 5C), ソ (83 5C) and 能 (94 5C) end in `\`; ―(81 5C); the key 表題 holds one too.
    let text = "表題：表ソ能―|\n先手：ソ\n   1 ７六歩(77)   ( 0:02/00:00:02)\n*コメント表\\ソ\n   2 投了\n";
    let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    assert!(sjis.contains(&0x5C));
    let evs = events(&sjis);
    assert_eq!(warnings(&evs), []);
    let texts: Vec<String> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some(format!("{:?}={}", i.key(), i.value().decode().text)),
            Event::Comment(t) => Some(t.decode().text.into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["GameName=表ソ能―|", "BlackName=ソ", "コメント表\\ソ"]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
}

/// A move line, or another special move, after the special move that ended its line is skipped
/// with one `MoveAfterEnd` warning each; the game's ending is the first special's.
#[test]
fn a_move_after_the_end_is_move_after_end() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n   4 中断\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::MoveAfterEnd, WarningKind::MoveAfterEnd]);
    let at = |what: &str| text.find(what).unwrap() as u64;
    let offsets: Vec<u64> =
        evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(w.offset) } else { None }).collect();
    assert_eq!(offsets, [at("   3 "), at("   4 ")]);
    assert_eq!(moves_of(text).len(), 1);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
}

/// A numbered move line whose move does not read is skipped with `UnreadableMove`, and its turn
/// passes: the next line is the other side's move, and a `変化：N手` block counts it (before
/// 2026-11-29 a destination that did not read made the line an unknown special move that ended
/// the game, and any other unreadable move left the moves after it to the wrong side).
#[test]
fn a_move_that_does_not_read_passes_its_turn() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３x歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n\n変化：4手\n   4 ４四歩(43)\n";
    let evs = events(text.as_bytes());
    let found: Vec<(WarningKind, u64)> =
        evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some((w.kind, w.offset)) } else { None }).collect();
    assert_eq!(found, [(WarningKind::UnreadableMove, text.find("x歩").unwrap() as u64)]);
    let (moves, sibling) = common::events::shogi_moves_and_sibling(&evs, Square::new(4, 4));
    assert_eq!(moves, common::events::skipped_white_move_game());
    assert!(sibling, "the variation replaces the fourth move");
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: None, .. })));
    // A line with nothing after its number but a time, or nothing at all, or a garbled move
    // after a side mark, is a move that does not read too, for the layout (where the variation
    // attaches) as for the reader; before, the layout took the first two for a special move
    // ending the main line, and the reader the last two.
    for line in ["   2 ", "   2 (0:01/00:00:01)", "   2 ▲３x歩", "   2 △同x"] {
        for (ply, sq) in [(4, Square::new(4, 4)), (2, Square::new(3, 4))] {
            let replaced = if ply == 4 { "   4 ４四歩(43)" } else { "   2 ３四歩(33)" };
            let text = format!(
                "手合割：平手\n   1 ７六歩(77)\n{line}\n   3 ２六歩(27)\n   4 ８四歩(83)\n\n変化：{ply}手\n{replaced}\n"
            );
            let evs = events(text.as_bytes());
            assert_eq!(warnings(&evs), [WarningKind::UnreadableMove], "{line:?}, variation at {ply}");
            let (moves, sibling) = common::events::shogi_moves_and_sibling(&evs, sq);
            let mut expected = common::events::skipped_white_move_game();
            if ply == 2 {
                // No node stands for the skipped move: the variation replacing it is the next
                // node's sibling (after ▲７六歩, △３四歩 beside ▲２六歩), not ▲７六歩's.
                expected.insert(2, (Color::White, sq));
                expected.pop();
            }
            assert_eq!(moves, expected, "{line:?}");
            assert!(sibling, "{line:?}: the variation replaces move {ply}");
        }
    }
    // `同` with no square after it reads no better.
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 同x\n   3 ２六歩(27)\n";
    assert_eq!(warnings(&events(text.as_bytes())), [WarningKind::UnreadableMove]);
    assert_eq!(moves_of(text).iter().map(|m| m.color).collect::<Vec<_>>(), [Color::Black, Color::Black]);
}
