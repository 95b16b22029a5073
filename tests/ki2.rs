//! KI2 reader: the corpus (every generated game replays to its move count, final SFEN and
//! branch count in `ki2/tsshogi/index.tsv`; every real file reads without error and agrees with
//! what tsshogi read from it; `skc-4` agrees with its expected JKF; the CP932/UTF-8 pairs give
//! the same events; the same game in KI2, KIF and CSA gives the same moves; the event contract
//! and streaming hold) and hand-written cases for each rule, hostile input and detection.

mod common;

use kifu::ki2::Reader;
use kifu::kit::check_contract;
use kifu::position::shogi::ShogiPosition;
use kifu::tree::MainLineTracker;
use kifu::{
    Branch, Color, Config, Ending, Event, EventSource, Format, InfoKey, Move, Piece, Setup, ShogiMove, Square,
    WarningKind,
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
                pos = ShogiPosition::new();
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

fn ki2_files(dir: &Path) -> Vec<PathBuf> {
    common::files(dir, &[".ki2", ".ki2u"])
}

// ---------------------------------------------------------------- corpus

#[test]
fn generated_games_match_the_index() {
    let Some(dir) = common::corpus_dir("ki2/tsshogi") else { return };
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
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let text = std::fs::read_to_string(dir.join("tsshogi-reading.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c[0].ends_with(".json") {
            continue;
        }
        let bytes = read(&dir.join(c[0]));
        let evs = events(&bytes);
        assert_eq!(warnings(&evs), [], "{}", c[0]);
        let g = games(&bytes);
        assert_eq!(g.len(), 1, "{}", c[0]);
        let g = &g[0];
        assert_eq!(g.moves.len(), c[3].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g.sfen.as_deref(), Ok(c[4]), "{}", c[0]);
        assert_eq!(g.branches, c[5].parse::<usize>().unwrap(), "{}", c[0]);
        let ending = match c.get(6).copied().unwrap_or("") {
            "resign" => Some(Ending::Resign),
            "interrupt" => Some(Ending::Interrupted),
            "mate" => Some(Ending::Checkmate),
            // `まで2手で先手の反則負け`: Black lost.
            "foulLose" => Some(Ending::IllegalActionBlack),
            // `まで61手詰` (kifujs-9fu), `まで2手で封じ手` (kifujs-fuujite): tsshogi reads no
            // special move from the summary; kifu reads the ending it names.
            "any" => g.ending,
            // No summary line: no ending.
            "" => None,
            other => panic!("{other}"),
        };
        assert_eq!(g.ending, ending, "{}", c[0]);
        n += 1;
    }
    assert!(n >= 18, "{n}");
}

#[test]
fn every_file_reads_keeps_the_contract_and_is_detected() {
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let files = ki2_files(&dir);
    assert!(files.len() >= 318, "{}", files.len());
    for f in &files {
        let bytes = read(f);
        let name = f.display();
        let c = check_contract(&bytes, &mut Reader::new(&bytes), false);
        assert_eq!((c.games, c.errors), (1, 0), "{name}");
        check_contract(&bytes, &mut Reader::with_config(&bytes, Config::strict()), true);
        assert_eq!(kifu::detect(&bytes), Some(Format::Ki2), "{name}");
        for cut in (0..bytes.len()).step_by(97) {
            check_contract(&bytes[..cut], &mut Reader::new(&bytes[..cut]), false);
        }
    }
}

/// The piece's CSA name, as JKF writes it.
fn csa(p: Piece) -> &'static str {
    ["FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"][p as usize]
}

#[test]
fn skc_4_agrees_with_its_expected_jkf() {
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let jkf: serde_json::Value = serde_json::from_slice(&read(&dir.join("skc-4.json"))).unwrap();
    let want = jkf["moves"].as_array().unwrap();
    for file in ["skc-4.ki2", "skc-4.ki2u"] {
        let bytes = read(&dir.join(file));
        let evs = events(&bytes);
        assert_eq!(warnings(&evs), [], "{file}");
        // Per move (index 0: the start), its move and its comments, in order.
        let mut got: Vec<(Option<ShogiMove>, Vec<String>)> = vec![(None, Vec::new())];
        for ev in &evs {
            match ev {
                Event::Move(Move::Shogi(m)) => got.push((Some(*m), Vec::new())),
                Event::Comment(t) => got.last_mut().unwrap().1.push(t.decode().text.into_owned()),
                _ => {}
            }
        }
        assert_eq!(got.len(), want.len(), "{file}");
        for (k, ((m, comments), w)) in got.iter().zip(want).enumerate() {
            let jc: Vec<&str> =
                w["comments"].as_array().map(|a| a.iter().map(|c| c.as_str().unwrap()).collect()).unwrap_or_default();
            assert_eq!(comments, &jc, "{file} move {k}");
            let (Some(m), Some(j)) = (m, w.get("move")) else {
                assert!(m.is_none() && w.get("move").is_none(), "{file} move {k}");
                continue;
            };
            let promote = j["promote"].as_bool() == Some(true);
            let before = if promote { m.piece.unpromoted() } else { m.piece };
            assert_eq!(csa(before), j["piece"].as_str().unwrap(), "{file} move {k}");
            let sq =
                |v: &serde_json::Value| Square::new(v["x"].as_u64().unwrap() as u8, v["y"].as_u64().unwrap() as u8);
            assert_eq!(m.to, sq(&j["to"]), "{file} move {k}");
            assert_eq!(m.from, j.get("from").map(sq), "{file} move {k}");
            let color = if j["color"].as_u64() == Some(0) { Color::Black } else { Color::White };
            assert_eq!(m.color, color, "{file} move {k}");
        }
        // The JKF has no special move; the KI2's `まで102手で上手の勝ち` is a resignation.
        assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
    }
}

/// An event with its text decoded and offsets left out, to compare the same game in two
/// charsets or formats.
fn norm(ev: &Event) -> Option<String> {
    let d = |t: kifu::Text| t.decode().text.into_owned();
    Some(match ev {
        Event::Info(i) => format!("info {:?} {}", i.key(), d(i.value())),
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
        Event::Clock(_) => return None,
        ev => format!("{ev:?}"),
    })
}

#[test]
fn cp932_and_utf8_pairs_give_the_same_events() {
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let pairs = [("skc-4.ki2", "skc-4.ki2u"), ("kifujs-8mai.ki2", "kifujs-8mai.ki2u")];
    for (a, b) in pairs {
        let (a, b) = (read(&dir.join(a)), read(&dir.join(b)));
        let a: Vec<_> = events(&a).iter().filter_map(norm).collect();
        let b: Vec<_> = events(&b).iter().filter_map(norm).collect();
        assert_eq!(a, b);
    }
}

#[test]
fn the_same_game_in_ki2_kif_and_csa_gives_the_same_tree() {
    let Some(ki2) = common::corpus_dir("ki2/tsshogi") else { return };
    let Some(kif) = common::corpus_dir("kif/tsshogi") else { return };
    let Some(csa) = common::corpus_dir("converted/csa-cshogi") else { return };
    let text = std::fs::read_to_string(ki2.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let stem = c[0].split('.').next().unwrap();
        let kif_path = [".kif", ".kifu"].iter().map(|e| kif.join(format!("{stem}{e}"))).find(|p| p.exists()).unwrap();
        let a = read(&ki2.join(c[0]));
        let b = read(&kif_path);
        // Everything but times (KI2 has none) and the `まで` summary's place: the trees.
        let a: Vec<_> = events(&a).iter().filter_map(norm).collect();
        let b: Vec<_> = kifu::kif::Reader::new(&b).map(|e| e.unwrap()).filter_map(|e| norm(&e)).collect();
        assert_eq!(a, b, "{stem}");
        // And the main line is the CSA source's.
        let path = if csa.join(c[1]).exists() { csa.join(c[1]) } else { csa.join("sjis").join(c[1]) };
        let bytes = read(&path);
        let csa_moves: Vec<ShogiMove> = kifu::csa::Reader::new(&bytes)
            .filter_map(|e| match e.unwrap() {
                Event::Move(Move::Shogi(m)) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(games(&read(&ki2.join(c[0])))[0].moves, csa_moves, "{stem}");
        n += 1;
    }
    assert_eq!(n, 300);
}

#[test]
fn streaming_equals_the_slice_reader() {
    let Some(dir) = common::corpus_dir("ki2") else { return };
    let mut all = Vec::new();
    for f in ki2_files(&dir).iter().filter(|f| f.extension().unwrap() == "ki2u").take(60) {
        let bytes = read(f);
        let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&bytes);
        all.extend_from_slice(bytes);
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    let slice: Vec<String> = Reader::new(&all).map(|e| format!("{:?}", e.unwrap())).collect();
    let games = slice.iter().filter(|s| s.starts_with("GameStart")).count();
    assert!(games >= 40, "{games}");
    for step in [1usize, 7, 4096] {
        let read = common::dribble::Dribble::new(&all[..], step as u64, step);
        let mut split = kifu::stream::splitter(Format::Ki2, Box::new(read), Config::default());
        let mut out = Vec::new();
        while let Some(chunk) = split.next_game() {
            let chunk = chunk.unwrap();
            let mut r = kifu::stream::read_chunk(Format::Ki2, &chunk, Config::default());
            while let Some(ev) = r.next_event() {
                out.push(format!("{:?}", ev.unwrap()));
            }
        }
        assert_eq!(out, slice, "reads of {step}");
    }
    assert_eq!(kifu::ki2::chunks(&all).count(), games);
}

// ---------------------------------------------------------------- rules

fn moves_of(ki2: &str) -> Vec<ShogiMove> {
    events(ki2.as_bytes())
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Shogi(m)) => Some(*m),
            _ => None,
        })
        .collect()
}

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank)
}

/// A record starting from a diagram with these pieces (`v` before a White piece), Black to move
/// unless `white` (kings on 5九 and 5一 unless given), then `moves`.
fn from_diagram(pieces: &[(&str, u8, u8)], black_hand: &str, white: bool, moves: &str) -> String {
    let mut cells = vec![vec![" ・".to_string(); 9]; 9];
    cells[8][4] = " 玉".into();
    cells[0][4] = "v玉".into();
    for &(p, f, r) in pieces {
        cells[r as usize - 1][9 - f as usize] = if p.starts_with('v') { p.into() } else { format!(" {p}") };
    }
    let ranks = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let mut s = String::from("後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for (r, row) in cells.iter().enumerate() {
        s.push('|');
        s.extend(row.iter().map(String::as_str));
        s.push_str(&format!("|{}\n", ranks[r]));
    }
    s.push_str(&format!("+---------------------------+\n先手の持駒：{black_hand}\n"));
    if white {
        s.push_str("後手番\n");
    }
    s.push_str(moves);
    s
}

fn from_of(ki2: &str) -> Option<Square> {
    let evs = events(ki2.as_bytes());
    assert_eq!(warnings(&evs), [], "{ki2}");
    moves_of(ki2)[0].from
}

#[test]
fn direction_words_pick_the_piece() {
    // 右 / 左 (Black's right: the lower files), and White's right: the higher files.
    let golds = [("金", 6, 9), ("金", 4, 9), ("v金", 6, 1), ("v金", 4, 1)];
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金右\n")), Some(sq(4, 9)));
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金左\n")), Some(sq(6, 9)));
    assert_eq!(from_of(&from_diagram(&golds, "なし", true, "△５二金右\n")), Some(sq(6, 1)));
    assert_eq!(from_of(&from_diagram(&golds, "なし", true, "△５二金左\n")), Some(sq(4, 1)));
    // 直: straight forward, beside a piece coming from the side.
    let golds = [("金", 5, 9), ("金", 4, 9)];
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金直\n")), Some(sq(5, 9)));
    // 上 (and 行, 入) / 引 / 寄.
    let silvers = [("銀", 4, 7), ("銀", 4, 9)];
    assert_eq!(from_of(&from_diagram(&silvers, "なし", false, "▲５八銀引\n")), Some(sq(4, 7)));
    assert_eq!(from_of(&from_diagram(&silvers, "なし", false, "▲５八銀上\n")), Some(sq(4, 9)));
    assert_eq!(from_of(&from_diagram(&silvers, "なし", false, "▲５八銀行\n")), Some(sq(4, 9)));
    assert_eq!(from_of(&from_diagram(&silvers, "なし", false, "▲５八銀入\n")), Some(sq(4, 9)));
    let golds = [("金", 6, 8), ("金", 4, 9)];
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金寄\n")), Some(sq(6, 8)));
    // Two words: 右上 among three.
    let golds = [("金", 6, 9), ("金", 4, 9), ("金", 4, 8)];
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金右上\n")), Some(sq(4, 9)));
    assert_eq!(from_of(&from_diagram(&golds, "なし", false, "▲５八金左\n")), Some(sq(6, 9)));
    // Sliders are blocked by the first piece on their line.
    let rooks = [("飛", 9, 8), ("飛", 1, 8), ("歩", 7, 8)];
    assert_eq!(from_of(&from_diagram(&rooks, "なし", false, "▲５八飛\n")), Some(sq(1, 8)));
    // 龍 and 馬 with 右/左.
    let dragons = [("龍", 9, 5), ("龍", 1, 5)];
    assert_eq!(from_of(&from_diagram(&dragons, "なし", false, "▲５五龍右\n")), Some(sq(1, 5)));
    assert_eq!(from_of(&from_diagram(&dragons, "なし", false, "▲５五竜左\n")), Some(sq(9, 5)));
}

#[test]
fn drops_need_dai_only_when_a_board_piece_could_move_there() {
    let gold = [("金", 4, 9)];
    // 打: a drop though the gold on 4九 could move there.
    let m = moves_of(&from_diagram(&gold, "金", false, "▲５八金打\n"));
    assert_eq!((m[0].from, m[0].piece), (None, Piece::Gold));
    // Without 打 the board's gold moves.
    assert_eq!(from_of(&from_diagram(&gold, "金", false, "▲５八金\n")), Some(sq(4, 9)));
    // No board gold reaches 5五: a drop.
    assert_eq!(from_of(&from_diagram(&gold, "金", false, "▲５五金\n")), None);
    // The drop leaves the hand: a second one has no piece.
    let ki2 = from_diagram(&[], "金", false, "▲５五金    △５二玉    ▲１一金\n");
    let evs = events(ki2.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::NoPieceCanMove]);
}

#[test]
fn no_or_several_candidates_warn_and_strict_mode_errs() {
    // No piece: skipped with a warning.
    let ki2 = from_diagram(&[], "なし", false, "▲５五飛\n");
    let evs = events(ki2.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::NoPieceCanMove]);
    assert!(moves_of(&ki2).is_empty());
    let e = Reader::with_config(ki2.as_bytes(), Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::NoPieceCanMove));
    // Several: the first is made, with a warning after it.
    let golds = [("金", 6, 9), ("金", 4, 9)];
    let ki2 = from_diagram(&golds, "なし", false, "▲５八金\n");
    assert_eq!(warnings(&events(ki2.as_bytes())), [WarningKind::AmbiguousMove]);
    assert_eq!(moves_of(&ki2).len(), 1);
    let e = Reader::with_config(ki2.as_bytes(), Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::AmbiguousMove));
    // Words that fit no piece.
    let ki2 = from_diagram(&golds, "なし", false, "▲５八金引\n");
    assert_eq!(warnings(&events(ki2.as_bytes())), [WarningKind::NoPieceCanMove]);
    // Geometry leaves two, but one is pinned to the king by the rook on 5五: the other moves.
    let pinned = [("金", 5, 8), ("金", 6, 7), ("v飛", 5, 5)];
    assert_eq!(from_of(&from_diagram(&pinned, "なし", false, "▲６八金\n")), Some(sq(6, 7)));
}

/// A move no piece can make is skipped, but its turn passes: the next move is read for the side
/// its mark names, from the board without the skipped move, and `同` names the skipped move's
/// square (before, the next move was read for the same side again and failed in turn).
#[test]
fn a_skipped_move_passes_the_turn() {
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲７六歩    △８四歩    ▲２六歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::NoPieceCanMove]);
    let m = moves_of(text);
    let got: Vec<_> = m.iter().map(|m| (m.color, m.from, m.to)).collect();
    assert_eq!(
        got,
        [
            (Color::Black, Some(sq(7, 7)), sq(7, 6)),
            (Color::White, Some(sq(3, 3)), sq(3, 4)),
            (Color::White, Some(sq(8, 3)), sq(8, 4)),
            (Color::Black, Some(sq(2, 7)), sq(2, 6)),
        ]
    );
    // `同` after a skipped move names its square: Black's pawn on 2七 cannot reach 2四, White's
    // on 2三 can.
    let text = "手合割：平手\n▲２四歩    △同　歩    ▲２六歩\n";
    assert_eq!(warnings(&events(text.as_bytes())), [WarningKind::NoPieceCanMove]);
    let m = moves_of(text);
    let got: Vec<_> = m.iter().map(|m| (m.color, m.from, m.to)).collect();
    assert_eq!(got, [(Color::White, Some(sq(2, 3)), sq(2, 4)), (Color::Black, Some(sq(2, 7)), sq(2, 6))]);
}

#[test]
fn same_square_promotions_and_specials() {
    let m = moves_of("▲７六歩    △３四歩    ▲２二角成  △同　銀\n");
    assert_eq!((m[2].from, m[2].to, m[2].piece), (Some(sq(8, 8)), sq(2, 2), Piece::Horse));
    assert_eq!((m[3].from, m[3].to, m[3].piece), (Some(sq(3, 1)), sq(2, 2), Piece::Silver));
    // `同` without the space.
    let m = moves_of("▲７六歩 △３四歩 ▲２二角不成 △同銀\n");
    assert_eq!((m[2].piece, m[3].to), (Piece::Bishop, sq(2, 2)));
    // 不成 and 成 on a lance.
    let lance = [("香", 1, 5)];
    let m = moves_of(&from_diagram(&lance, "なし", false, "▲１二香不成\n"));
    assert_eq!(m[0].piece, Piece::Lance);
    let m = moves_of(&from_diagram(&lance, "なし", false, "▲１二香成\n"));
    assert_eq!(m[0].piece, Piece::ProLance);
    // 成香 moves as a gold.
    let m = moves_of(&from_diagram(&[("成香", 1, 3)], "なし", false, "▲２二成香\n"));
    assert_eq!((m[0].from, m[0].piece), (Some(sq(1, 3)), Piece::ProLance));
    // A special move written like a move, and the summaries.
    let evs = events("▲７六歩    △投了\n".as_bytes());
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
    for (summary, ending) in [
        ("まで1手で先手の勝ち", Ending::Resign),
        ("まで1手で時間切れにより先手の勝ち", Ending::TimeUp),
        ("まで1手で後手の反則負け", Ending::IllegalActionWhite),
        ("まで1手で後手の反則勝ち", Ending::IllegalMove),
        ("まで1手で先手の入玉勝ち", Ending::DeclareWin),
        ("まで1手で中断", Ending::Interrupted),
        ("まで1手で千日手", Ending::Repetition),
        ("まで1手で持将棋", Ending::Impasse),
        ("まで1手で詰み", Ending::Checkmate),
        ("まで1手詰", Ending::Checkmate),
        ("まで1手で不詰", Ending::NoCheckmate),
    ] {
        let ki2 = format!("▲７六歩\n{summary}\n");
        let evs = events(ki2.as_bytes());
        assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(e), .. }) if *e == ending), "{summary}");
    }
    let evs = events("▲７六歩\nまで1手\n".as_bytes());
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: None, .. })));
}

/// Each warning's kind and byte offset.
fn warnings_at(evs: &[Event]) -> Vec<(WarningKind, u64)> {
    evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some((w.kind, w.offset)) } else { None }).collect()
}

/// The offset of `what` in `text` (its first occurrence).
fn at(text: &str, what: &str) -> u64 {
    text.find(what).unwrap() as u64
}

/// Every move in event order (variations included): its side, origin and destination.
fn played(text: &str) -> Vec<(Color, Option<Square>, Square)> {
    moves_of(text).iter().map(|m| (m.color, m.from, m.to)).collect()
}

/// A mark naming the side not to move: the move is that side's (one `WrongSide` warning at its
/// mark), and the side to move follows the marks from there (before, each later move was read
/// for the other side and failed: three `NoPieceCanMove`).
#[test]
fn a_wrong_mark_flips_the_side_to_move() {
    let text = "手合割：平手\n▲７六歩    ▲２六歩    △３四歩    ▲２五歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::WrongSide, at(text, "▲２六歩"))]);
    assert_eq!(
        played(text),
        [
            (Color::Black, Some(sq(7, 7)), sq(7, 6)),
            (Color::Black, Some(sq(2, 7)), sq(2, 6)),
            (Color::White, Some(sq(3, 3)), sq(3, 4)),
            (Color::Black, Some(sq(2, 6)), sq(2, 5)),
        ]
    );
    // The warning comes right after its move.
    let i = evs.iter().position(|e| matches!(e, Event::Warning(_))).unwrap();
    assert!(matches!(evs[i - 1], Event::Move(Move::Shogi(m)) if m.to == sq(2, 6)));
    // Strict mode: an error at the mark.
    let e = Reader::with_config(text.as_bytes(), Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::WrongSide));
    assert_eq!(e.position().offset, at(text, "▲２六歩"));
    // The other marks (☗☖ ▼▽) too.
    let text = "手合割：平手\n☗７六歩    ☗２六歩    ☖３四歩    ▼２五歩    ▽８四歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::WrongSide, at(text, "☗２六歩"))]);
    let colors: Vec<_> = played(text).iter().map(|m| m.0).collect();
    assert_eq!(colors, [Color::Black, Color::Black, Color::White, Color::Black, Color::White]);
    // A second wrong mark flips back.
    let text = "手合割：平手\n▲７六歩    ▲２六歩    ▲２五歩    △３四歩\n";
    let w = [(WarningKind::WrongSide, at(text, "▲２六歩")), (WarningKind::WrongSide, at(text, "▲２五歩"))];
    assert_eq!(warnings_at(&events(text.as_bytes())), w);
    let colors: Vec<_> = played(text).iter().map(|m| m.0).collect();
    assert_eq!(colors, [Color::Black, Color::Black, Color::Black, Color::White]);
}

/// A wrong mark on the first move: the record's first mover is the marked side.
#[test]
fn a_wrong_mark_on_the_first_move() {
    let text = "手合割：平手\n△３四歩    ▲７六歩    △８四歩\nまで3手で後手の勝ち\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::WrongSide, at(text, "△３四歩"))]);
    assert_eq!(
        played(text),
        [
            (Color::White, Some(sq(3, 3)), sq(3, 4)),
            (Color::Black, Some(sq(7, 7)), sq(7, 6)),
            (Color::White, Some(sq(8, 3)), sq(8, 4)),
        ]
    );
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
}

/// A mark is a slip when the side to move can make the move (whether or not the marked side
/// could too): the move is the side to move's, `BadValue` after it, and the side to move goes on
/// as numbered. A move neither side can make follows its mark and is skipped with its
/// `NoPieceCanMove` alone.
#[test]
fn a_mark_slip_and_a_move_no_side_can_make() {
    let text = "手合割：平手\n▲７六歩    ▲３四歩    ▲２六歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::BadValue, at(text, "▲３四歩"))]);
    assert_eq!(
        played(text),
        [
            (Color::Black, Some(sq(7, 7)), sq(7, 6)),
            (Color::White, Some(sq(3, 3)), sq(3, 4)),
            (Color::Black, Some(sq(2, 7)), sq(2, 6)),
        ]
    );
    // Black cannot take its own horse on 2二; White's silver can: a slip.
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  ▲同　銀    ▲２六歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::BadValue, at(text, "▲同"))]);
    let m = played(text);
    assert_eq!((m[3], m[4].0), ((Color::White, Some(sq(3, 1)), sq(2, 2)), Color::Black));
    // Both bishops reach 5五: the side to move (White) wins, the mark is a slip.
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲２六歩    ▲５五角    ▲２五歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::BadValue, at(text, "▲５五角"))]);
    let m = played(text);
    assert_eq!((m[3], m[4]), ((Color::White, Some(sq(2, 2)), sq(5, 5)), (Color::Black, Some(sq(2, 6)), sq(2, 5))));
    // No pawn of either side reaches 5五: skipped as Black's (its mark), White to move next.
    let text = "手合割：平手\n▲７六歩    ▲５五歩    △３四歩    ▲２六歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::NoPieceCanMove, at(text, "▲５五歩"))]);
    assert_eq!(
        played(text),
        [
            (Color::Black, Some(sq(7, 7)), sq(7, 6)),
            (Color::White, Some(sq(3, 3)), sq(3, 4)),
            (Color::Black, Some(sq(2, 7)), sq(2, 6)),
        ]
    );
}

/// Variations take the side to move their line had before the move they replace: one
/// branching before a wrong mark (or at it) reads as numbered, one after it in the flipped
/// parity; all without a warning of their own.
#[test]
fn variations_around_a_wrong_mark() {
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲２六歩    ▲２五歩    △８四歩    ▲２四歩\n\n変化：6手\n▲６八銀    △８五歩\n\n変化：4手\n△８四歩    ▲２五歩\n\n変化：3手\n▲１六歩    △１四歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::WrongSide, at(text, "▲２五歩"))]);
    let shape: Vec<String> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Shogi(m)) => {
                let c = if m.color == Color::Black { "b" } else { "w" };
                Some(format!("{c}{}{}", m.to.file, m.to.rank))
            }
            Event::VariationStart(Branch::Sibling) => Some("(".into()),
            Event::VariationStart(Branch::Child) => Some("(child".into()),
            Event::VariationEnd => Some(")".into()),
            _ => None,
        })
        .collect();
    assert_eq!(
        shape,
        [
            "b76", "w34", "b26", "(", "b16", "w14", ")", "b25", "(", "w84", "b25", ")", "w84", "b24", "(", "b68",
            "w85", ")"
        ]
    );
    // Every line replays on a board: each move's origin was found for its side.
    let m = moves_of(text);
    assert!(m.iter().all(|m| m.from.is_some()), "{m:?}");
    assert_eq!((m[10].color, m[10].from, m[10].piece), (Color::Black, Some(sq(7, 9)), Piece::Silver));
    // A wrong mark inside a variation stays in it: the main line after it reads as numbered.
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲２六歩\n\n変化：2手\n▲２六歩    △３四歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(
        warnings_at(&evs),
        [(WarningKind::WrongSide, at(text, "変化") + at(&text[text.find("変化").unwrap()..], "▲"))]
    );
    // Events: ▲７六歩 △３四歩 (variation: ▲２六歩 △３四歩) ▲２六歩.
    let colors: Vec<_> = played(text).iter().map(|m| m.0).collect();
    assert_eq!(colors, [Color::Black, Color::White, Color::Black, Color::White, Color::Black]);
}

/// A special move written with a mark: any side can end a game, so a mark naming the side not
/// to move is a slip (`BadValue` at the mark, after the special), and the special stays the
/// side to move's: `GameEnd` names the ending of the side to move, the parity does not flip.
/// A right mark gives nothing.
#[test]
fn a_special_moves_mark_is_checked() {
    let evs = events("手合割：平手\n▲７六歩    △投了\n".as_bytes());
    assert_eq!(warnings_at(&evs), []);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
    let text = "手合割：平手\n▲７六歩    ▲投了\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::BadValue, at(text, "▲投了"))]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
    // The warning comes after the move before it, before `GameEnd`.
    let n = evs.len();
    assert!(matches!(evs[n - 3], Event::Move(_)) && matches!(evs[n - 2], Event::Warning(_)), "{evs:?}");
    // `反則負け` is the side to move's (White), whatever its mark says.
    let text = "手合割：平手\n▲７六歩    ▲反則負け\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::BadValue, at(text, "▲反則負け"))]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::IllegalActionWhite), .. })));
    let evs = events("手合割：平手\n▲７六歩    △反則負け\n".as_bytes());
    assert_eq!(warnings_at(&evs), []);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::IllegalActionWhite), .. })));
    // On the first move, with the other marks.
    let text = "手合割：平手\n☖中断\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::BadValue, at(text, "☖中断"))]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Interrupted), .. })));
    // After a wrong-side move flipped the parity, the side to move is the flipped one.
    let text = "手合割：平手\n▲７六歩    ▲２六歩    △投了\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::WrongSide, at(text, "▲２六歩"))]);
    // In a variation: its `Property`, then the warning.
    let text = "手合割：平手\n▲７六歩    △３四歩\n\n変化：2手\n▲中断\n";
    let evs = events(text.as_bytes());
    let off = at(text, "変化") + at(&text[text.find("変化").unwrap()..], "▲");
    assert_eq!(warnings_at(&evs), [(WarningKind::BadValue, off)]);
    let i = evs.iter().position(|e| matches!(e, Event::Warning(_))).unwrap();
    assert!(matches!(&evs[i - 1], Event::Property(p) if p.name() == "中断".as_bytes()), "{evs:?}");
    // Strict mode: an error at the mark.
    let text = "手合割：平手\n▲７六歩    ▲投了\n";
    let e = Reader::with_config(text.as_bytes(), Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::BadValue));
    assert_eq!(e.position().offset, at(text, "▲投了"));
}

/// A move written without its mark is the side to move's, with `MissingValue` after it (at its
/// first byte); a line that starts with one is a line of moves (after moves, not a header that
/// starts the next game).
#[test]
fn unmarked_moves_are_the_side_to_moves() {
    let text = "手合割：平手\n７六歩    ３四歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(
        warnings_at(&evs),
        [(WarningKind::MissingValue, at(text, "７六歩")), (WarningKind::MissingValue, at(text, "３四歩"))]
    );
    assert_eq!(played(text), [(Color::Black, Some(sq(7, 7)), sq(7, 6)), (Color::White, Some(sq(3, 3)), sq(3, 4))]);
    // The warning comes right after its move.
    let i = evs.iter().position(|e| matches!(e, Event::Warning(_))).unwrap();
    assert!(matches!(evs[i - 1], Event::Move(Move::Shogi(m)) if m.to == sq(7, 6)));
    // Among marked moves, `同` and words, CP932 too; a line of them after moves.
    let text = "手合割：平手\n▲７六歩    ３四歩    ▲２二角成\n同　銀    ▲４八銀    ３二金\n";
    let w = [
        (WarningKind::MissingValue, at(text, "３四歩")),
        (WarningKind::MissingValue, at(text, "同")),
        (WarningKind::MissingValue, at(text, "３二金")),
    ];
    assert_eq!(warnings_at(&events(text.as_bytes())), w);
    let m = played(text);
    assert_eq!((m.len(), m[3], m[5].0), (6, (Color::White, Some(sq(3, 1)), sq(2, 2)), Color::White));
    let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    let evs = events(&sjis);
    assert_eq!(warnings(&evs), [WarningKind::MissingValue; 3]);
    assert_eq!(games(&sjis).len(), 1);
    assert_eq!(games(text.as_bytes())[0].moves.len(), 6);
    // One the side to move cannot make: skipped with its `NoPieceCanMove` alone, the turn
    // passes (no mark names another side).
    let text = "手合割：平手\n▲７六歩    ５五歩    ▲２六歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::NoPieceCanMove, at(text, "５五歩"))]);
    assert_eq!(played(text), [(Color::Black, Some(sq(7, 7)), sq(7, 6)), (Color::Black, Some(sq(2, 7)), sq(2, 6))]);
    // A mark slip's other warnings come after `MissingValue`.
    let text = "手合割：平手\n７六歩    ３四歩    ２二角成    同　銀    ５五角\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::MissingValue; 5]);
    // Strict mode: an error at the move.
    let text = "手合割：平手\n▲７六歩    ３四歩\n";
    let e = Reader::with_config(text.as_bytes(), Config::strict()).find_map(Result::err).unwrap();
    assert_eq!(e.kind(), kifu::ErrorKind::Strict(WarningKind::MissingValue));
    assert_eq!(e.position().offset, at(text, "３四歩"));
    // Variations count them: `変化：3手` replaces the third move.
    let text = "手合割：平手\n７六歩    ３四歩    ２六歩\n\n変化：3手\n１六歩\n";
    let m = played(text);
    assert_eq!(m.iter().map(|m| m.2).collect::<Vec<_>>(), [sq(7, 6), sq(3, 4), sq(2, 6), sq(1, 6)]);
    assert!(events(text.as_bytes()).contains(&Event::VariationStart(Branch::Sibling)));
    // Only marked moves make a head KI2's.
    assert_eq!(kifu::ki2::sniff("７六歩    ３四歩\n".as_bytes()), kifu::format::Confidence::No);
}

/// Header, comment, `変化`, `まで` and diagram lines, and words that only start like a move,
/// are never read as moves.
#[test]
fn text_that_only_looks_like_moves() {
    let text = "先手：７六歩\n同日：２〇二六年\n*７六歩\n&同　銀\n▲７六歩    △３四歩\n*同　銀\nまで2手で後手の勝ち\n\n変化：2手\n△８四歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), []);
    assert_eq!(moves_of(text).len(), 3);
    assert_eq!(games(text.as_bytes()).len(), 1);
    // The file numbers above a diagram stay a header line.
    let text = from_diagram(&[("歩", 7, 7)], "なし", false, "▲７六歩\n");
    assert_eq!(warnings(&events(text.as_bytes())), []);
    assert_eq!(moves_of(&text).len(), 1);
    // A line that starts with a word like a move but goes on is not a move line.
    let text = "手合割：平手\n▲７六歩\n同銀行のこと\n";
    assert_eq!(moves_of(text).len(), 1);
    assert!(!warnings(&events(text.as_bytes())).contains(&WarningKind::MissingValue));
}

/// Unmarked text after a token on its line that is neither white space nor a move: skipped,
/// one `Repaired` warning at its first byte per stretch (up to the next mark, or the next move
/// without a mark after white space).
#[test]
fn unmarked_text_after_a_move_is_skipped_with_a_warning() {
    let text = "手合割：平手\n▲７六歩 (好手)    △３四歩\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::Repaired, at(text, "(好手)"))]);
    assert_eq!(played(text), [(Color::Black, Some(sq(7, 7)), sq(7, 6)), (Color::White, Some(sq(3, 3)), sq(3, 4))]);
    // One warning per stretch, however many words; right after the move too.
    let text = "手合割：平手\n▲７六歩x　好手 悪手\t△３四歩 これも\n";
    assert_eq!(
        warnings_at(&events(text.as_bytes())),
        [(WarningKind::Repaired, at(text, "x")), (WarningKind::Repaired, at(text, "これも"))]
    );
    assert_eq!(moves_of(text).len(), 2);
    // A stretch ends at a move without its mark after white space.
    let text = "手合割：平手\n▲７六歩 好手 ３四歩\n";
    let w = [(WarningKind::Repaired, at(text, "好手")), (WarningKind::MissingValue, at(text, "３四歩"))];
    assert_eq!(warnings_at(&events(text.as_bytes())), w);
    assert_eq!(moves_of(text).len(), 2);
    // A KIF-style origin after a move, `(77)` (tsshogi's pattern allows it), is part of the
    // token: passed over without a warning; a malformed one is text.
    let text = "手合割：平手\n▲７六歩(77)    ３四歩(33)    ▲２六歩(2)\n";
    let w = [(WarningKind::MissingValue, at(text, "３四歩")), (WarningKind::Repaired, at(text, "(2)"))];
    assert_eq!(warnings_at(&events(text.as_bytes())), w);
    assert_eq!(moves_of(text).len(), 3);
    // White space alone (ASCII, tab, U+3000) gives nothing.
    let text = "手合割：平手\n▲７六歩　\t △３四歩 　\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), []);
    // After a special move, CP932 too.
    let text = "手合割：平手\n▲７六歩    △投了 です\n";
    assert_eq!(warnings_at(&events(text.as_bytes())), [(WarningKind::Repaired, at(text, "です"))]);
    let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    let w = warnings_at(&events(&sjis));
    assert_eq!(
        w,
        [(WarningKind::Repaired, encoding_rs::SHIFT_JIS.encode(&text[..text.find("です").unwrap()]).0.len() as u64)]
    );
}

#[test]
fn headers_comments_and_variations() {
    let ki2 = "先手：A\n後手：B\n手合割：香落ち\n*開始前\n△３四歩    ▲７六歩\n*一行目\n*二行目\n&しおり\n△８四歩    ▲２六歩    △８五歩\nまで5手で中断\n\n変化：4手\n▲６八銀    △８五歩\n\n変化：2手\n▲２六歩\n";
    let evs = events(ki2.as_bytes());
    assert_eq!(warnings(&evs), []);
    let names: Vec<_> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) if i.key() == InfoKey::BlackName => Some(i.value().decode().text.into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["A"]);
    // The handicap removes White's lance on 1一, and White moves first.
    assert!(!evs.iter().any(|e| matches!(e, Event::Setup(Setup::Shogi { square: Some(s), .. }) if *s == sq(1, 1))));
    assert!(evs.contains(&Event::Turn(Color::White)));
    let shape: Vec<String> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Move(Move::Shogi(m)) => Some(format!("{}{}", m.to.file, m.to.rank)),
            Event::Comment(t) => Some(format!("*{}", t.decode().text)),
            Event::Name(t) => Some(format!("&{}", t.decode().text)),
            Event::Property(p) if p.name() == b"*" => Some(format!("*{}", p.value().decode().text)),
            Event::VariationStart(Branch::Sibling) => Some("(".into()),
            Event::VariationStart(Branch::Child) => Some("(child".into()),
            Event::VariationEnd => Some(")".into()),
            _ => None,
        })
        .collect();
    // The 変化 of move 2 comes after move 2's comments, in the middle of the moves line.
    assert_eq!(
        shape,
        [
            "*開始前",
            "34",
            "76",
            "*一行目",
            "*二行目",
            "&しおり",
            "(",
            "26",
            ")",
            "84",
            "26",
            "(",
            "68",
            "85",
            ")",
            "85"
        ]
    );
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Interrupted), .. })));
}

#[test]
fn line_ends_charsets_and_bad_tokens() {
    let text = "先手：表\n▲７六歩    △３四歩\n▲２二角成  △同　銀\nまで4手で後手の勝ち";
    let base: Vec<_> = events(text.as_bytes()).iter().filter_map(norm).collect();
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(events(crlf.as_bytes()).iter().filter_map(norm).collect::<Vec<_>>(), base);
    let sjis = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    assert_eq!(events(&sjis).iter().filter_map(norm).collect::<Vec<_>>(), base);
    let bom = [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat();
    assert_eq!(events(&bom).iter().filter_map(norm).collect::<Vec<_>>(), base);
    assert_eq!(moves_of(text).len(), 4);
    // A token that does not read: a warning, and reading goes on at the next mark. Its turn
    // passes, so a move of the same side after it (a move written again?) is the marked side's,
    // with `WrongSide`.
    let evs = events("▲７六歩    △３x歩    △３四歩\n".as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::UnreadableMove, WarningKind::WrongSide]);
    assert_eq!(moves_of("▲７六歩    △３x歩    △３四歩\n").len(), 2);
    // Cut inside the last token.
    let evs = events("▲７六歩    △３".as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::Truncated]);
}

#[test]
fn hostile_input_is_bounded() {
    // 10^6 nested 変化: the depth limit ends the game with an error.
    // (The rooks go to and fro, so that every move can be made.)
    let mv = |n: u32| match (n % 2, n.div_ceil(2) % 2) {
        (1, 1) => "▲１八飛",
        (1, _) => "▲２八飛",
        (_, 1) => "△９二飛",
        _ => "△８二飛",
    };
    let mut ki2 = format!("{}\n", mv(1));
    for n in 2..1_000_000 {
        ki2.push_str(&format!("変化：{n}手\n{}\n", mv(n)));
    }
    let c = check_contract(ki2.as_bytes(), &mut Reader::new(ki2.as_bytes()), false);
    assert_eq!(c.errors, 1);
    // A 100 MB comment: an error (over the value limit), nothing copied.
    let mut big = String::from("▲７六歩\n*");
    big.push_str(&"あ".repeat(35_000_000));
    big.push('\n');
    let c = check_contract(big.as_bytes(), &mut Reader::new(big.as_bytes()), false);
    assert_eq!(c.errors, 1);
    // Shift_JIS pairs cut in half, anywhere.
    let sjis = encoding_rs::SHIFT_JIS
        .encode("手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で後手の勝ち\n")
        .0
        .into_owned();
    for cut in 0..sjis.len() {
        let mut b = sjis[..cut].to_vec();
        b.extend_from_slice(&sjis[cut + 1..]);
        check_contract(&b, &mut Reader::new(&b), false);
        check_contract(&b, &mut Reader::with_config(&b, Config::strict()), true);
    }
    // A line of 10^5 moves no piece can make: one warning each, no more.
    let line = "▲５五飛".repeat(100_000);
    let evs = events(line.as_bytes());
    assert_eq!(warnings(&evs).len(), 100_000);
}

#[test]
fn multi_game_files_split_at_headers() {
    let ki2 = "先手：A\n▲７六歩\nまで1手で中断\n\n先手：B\n▲２六歩    △８四歩\n";
    let g = games(ki2.as_bytes());
    assert_eq!(g.len(), 2);
    assert_eq!((g[0].moves.len(), g[1].moves.len()), (1, 2));
    assert_eq!(kifu::ki2::chunks(ki2.as_bytes()).count(), 2);
}

#[test]
fn detection() {
    assert_eq!(kifu::detect("#KI2 version=2.0 encoding=UTF-8\n".as_bytes()), Some(Format::Ki2));
    assert_eq!(kifu::detect("手合割：平手\n先手：A\n後手：B\n▲７六歩　△３四歩\n".as_bytes()), Some(Format::Ki2));
    // KIF's move lines and column header are KIF's.
    assert_eq!(kifu::detect("先手：A\n後手：B\n   1 ７六歩(77)\n".as_bytes()), Some(Format::Kif));
    assert_eq!(kifu::ki2::sniff("手数----指手---------消費時間--\n▲７六歩\n".as_bytes()), kifu::format::Confidence::No);
    assert_eq!(kifu::ki2::sniff("Some prose\nwith: colons\n".as_bytes()), kifu::format::Confidence::No);
    assert_eq!(kifu::ki2::sniff("▲ is a triangle\n".as_bytes()), kifu::format::Confidence::No);
    // A short record with a stray line (before 2026-11-29: not a game record); stray lines
    // outnumbering its lines are not one.
    assert_eq!(kifu::detect("棋戦：X\nよい対局\n▲７六歩 △３四歩\n".as_bytes()), Some(Format::Ki2));
    assert_eq!(kifu::detect("▲７六歩 △３四歩\nfoo\nbar\n".as_bytes()), None);
    // A number alone on a line is not a KIF move line that would make the head KIF's.
    let text = "棋戦：X\n先手：A\n後手：B\n▲７六歩 △３四歩\n2024\n▲２六歩 △８四歩\n▲２五歩 △８五歩\n";
    assert_eq!(kifu::detect(text.as_bytes()), Some(Format::Ki2));
    if let Some(dir) = common::corpus_dir("kif") {
        for f in common::files(&dir, &[".kif", ".kifu"]) {
            assert_ne!(kifu::detect(&read(&f)), Some(Format::Ki2), "{}", f.display());
        }
    }
}

/// A move, or another special move, after the special move that ended its line is skipped with
/// one `MoveAfterEnd` warning each at its first byte (text there stays `Repaired`); the game's
/// ending is the first special's.
#[test]
fn a_move_after_the_end_is_move_after_end() {
    let text = "手合割：平手\n▲７六歩    △投了    ▲２六歩 好手 △中断\n";
    let w = [
        (WarningKind::MoveAfterEnd, at(text, "▲２六歩")),
        (WarningKind::Repaired, at(text, "好手")),
        (WarningKind::MoveAfterEnd, at(text, "△中断")),
    ];
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), w);
    assert_eq!(moves_of(text).len(), 1);
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Resign), .. })));
}

/// A marked move whose destination or piece does not read (`△３x歩`) is skipped with
/// `UnreadableMove`, and its turn passes: the marks after it agree, and a `変化：N手` block
/// counts it (before 2026-11-29: `bad_value`, then `wrong_side` at the next move, and the
/// variation attached one move off, after the move it should replace).
#[test]
fn a_move_that_does_not_read_passes_its_turn() {
    let text = "手合割：平手\n▲７六歩    △３x歩    ▲２六歩    △８四歩\n\n変化：4手\n△４四歩\n";
    let evs = events(text.as_bytes());
    assert_eq!(warnings_at(&evs), [(WarningKind::UnreadableMove, at(text, "x歩"))]);
    let (moves, sibling) = common::events::shogi_moves_and_sibling(&evs, Square::new(4, 4));
    assert_eq!(moves, common::events::skipped_white_move_game());
    assert!(sibling, "the variation replaces the fourth move");
    // A variation replacing the skipped move itself: no node stands for it, so the variation is
    // the next node's sibling (after ▲７六歩, △３四歩 beside ▲２六歩); before, it was given as
    // ▲７六歩's sibling, a White move in place of Black's first. The same for a move no piece
    // can make.
    for skipped in ["△３x歩", "△５五角"] {
        let text = format!("手合割：平手\n▲７六歩    {skipped}    ▲２六歩    △８四歩\n\n変化：2手\n△３四歩\n");
        let evs = events(text.as_bytes());
        assert_eq!(warnings_at(&evs).len(), 1, "{skipped}");
        let (moves, sibling) = common::events::shogi_moves_and_sibling(&evs, Square::new(3, 4));
        let expected =
            [(Color::Black, sq(7, 6)), (Color::Black, sq(2, 6)), (Color::White, sq(3, 4)), (Color::White, sq(8, 4))];
        assert_eq!(moves, expected, "{skipped}");
        assert!(sibling, "{skipped}: the variation replaces the second move");
    }
    // A mark followed by something that is neither a move nor a special move's word is no move.
    let text = "手合割：平手\n▲７六歩    △    ▲２六歩\n";
    let kinds: Vec<WarningKind> = warnings_at(&events(text.as_bytes())).iter().map(|w| w.0).collect();
    assert!(!kinds.contains(&WarningKind::UnreadableMove), "{kinds:?}");
}

/// A KIF-style origin written after a KI2 move (`▲５八金(69)`) names the piece that moved when
/// it can make the move, settling what the board alone cannot (two golds reach 58 at the start);
/// one whose square holds no such piece is a slip: `BadValue` at the move, and the board decides
/// (before 2026-11-29 the origin was passed over, unchecked).
#[test]
fn a_written_origin_names_the_piece() {
    for (origin, from) in [("69", sq(6, 9)), ("49", sq(4, 9))] {
        let text = format!("手合割：平手\n▲５八金({origin})\n");
        assert_eq!(warnings(&events(text.as_bytes())), [], "{origin}");
        assert_eq!(played(&text), [(Color::Black, Some(from), sq(5, 8))], "{origin}");
    }
    // Without it, or with a square the gold is not on: ambiguous, the first taken.
    let text = "手合割：平手\n▲５八金\n";
    assert_eq!(warnings(&events(text.as_bytes())), [WarningKind::AmbiguousMove]);
    let text = "手合割：平手\n▲５八金(79)\n";
    assert_eq!(warnings(&events(text.as_bytes())), [WarningKind::BadValue, WarningKind::AmbiguousMove]);
    assert_eq!(played(text), [(Color::Black, Some(sq(4, 9)), sq(5, 8))]);
    // With direction words that agree, the slip alone.
    let text = "手合割：平手\n▲５八金右(79)\n";
    assert_eq!(warnings(&events(text.as_bytes())), [WarningKind::BadValue]);
    assert_eq!(played(text), [(Color::Black, Some(sq(4, 9)), sq(5, 8))]);
    // An origin that agrees with the board changes nothing.
    let text = "手合割：平手\n▲７六歩(77)    △３四歩(33)\n";
    assert_eq!(warnings(&events(text.as_bytes())), []);
    assert_eq!(played(text), [(Color::Black, Some(sq(7, 7)), sq(7, 6)), (Color::White, Some(sq(3, 3)), sq(3, 4))]);
}
