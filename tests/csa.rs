//! CSA reader and shogi position: corpus tests (every file reads, every cshogi game replays to
//! its final SFEN, multi-game files equal their single files, golden JKF files agree) and
//! hand-written cases for every statement, every dialect and bad input.

mod common;

use kifu::csa::{self, Reader};
use kifu::kit::Contract;
use kifu::position::shogi::{Illegal, ShogiPosition};
use kifu::{
    Clock, ClockKind, Color, Config, Ending, Event, EventSource, InfoKey, Move, Piece, Setup, ShogiMove, Square,
    WarningKind,
};
use std::collections::BTreeMap;
use std::path::Path;

/// All events of `input` (lenient), panicking on an error.
fn events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(w.kind) } else { None }).collect()
}

fn moves(evs: &[Event]) -> Vec<ShogiMove> {
    evs.iter().filter_map(|e| if let Event::Move(Move::Shogi(m)) = e { Some(*m) } else { None }).collect()
}

/// Replays every game of `input`; returns each game's final SFEN or the first illegal move.
fn replay(input: &[u8]) -> Vec<Result<String, (Illegal, u64)>> {
    let mut r = Reader::new(input);
    let mut pos = ShogiPosition::new();
    let mut out = vec![];
    let mut bad = None;
    while let Some(ev) = r.next() {
        let ev = ev.unwrap_or_else(|e| panic!("{e}"));
        if let Event::GameEnd { .. } = ev {
            out.push(match bad.take() {
                Some(b) => Err(b),
                None => Ok(pos.sfen()),
            });
            continue;
        }
        if bad.is_none() {
            if let Err(i) = pos.apply(&ev) {
                bad = Some((i, kifu::EventSource::event_offset(&r).unwrap()));
            }
        }
    }
    out
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

// ---------------------------------------------------------------- corpus

#[test]
fn corpus_reads_without_errors() {
    let Some(corpus) = common::corpus() else { return };
    let mut files = common::files(&corpus.join("csa"), &[".csa"]);
    files.extend(common::files(&corpus.join("converted/csa-cshogi"), &[".csa"]));
    files.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]));
    assert!(files.len() > 2700, "{}", files.len());
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut games, mut n_moves) = (0, 0);
    for f in &files {
        let bytes = read(f);
        let (mut starts, mut ends) = (0, 0);
        for ev in Reader::new(&bytes) {
            match ev.unwrap_or_else(|e| panic!("{}: {e}", f.display())) {
                Event::Warning(w) => *kinds.entry(w.kind.as_str()).or_default() += 1,
                Event::GameStart { offset } => {
                    assert!(offset <= bytes.len() as u64);
                    starts += 1
                }
                Event::GameEnd { length, .. } => {
                    assert!(length <= bytes.len() as u64);
                    ends += 1
                }
                Event::Move(_) => n_moves += 1,
                _ => {}
            }
        }
        assert_eq!(starts, ends, "{}", f.display());
        assert!(starts >= 1, "{}", f.display());
        games += starts;
    }
    eprintln!("{} files, {games} games, {n_moves} moves, warnings: {kinds:?}", files.len());
}

/// index.tsv of csa-cshogi: file → (plies, ending, final SFEN).
fn cshogi_index(dir: &Path) -> BTreeMap<String, (usize, String, String)> {
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0].to_string(), (c[4].parse().unwrap(), c[5].to_string(), c[10].to_string()))
        })
        .collect()
}

fn ending_name(e: Option<Ending>) -> &'static str {
    match e {
        Some(Ending::Resign) => "%TORYO",
        Some(Ending::Interrupted) => "%CHUDAN",
        Some(Ending::Repetition) => "%SENNICHITE",
        Some(Ending::TimeUp) => "%TIME_UP",
        Some(Ending::IllegalMove) => "%ILLEGAL_MOVE",
        Some(Ending::Impasse) => "%JISHOGI",
        Some(Ending::DeclareWin) => "%KACHI",
        Some(Ending::Checkmate) => "%TSUMI",
        _ => "?",
    }
}

#[test]
fn cshogi_games_replay_to_final_sfen() {
    let Some(dir) = common::corpus_dir("converted/csa-cshogi") else { return };
    let index = cshogi_index(&dir);
    assert_eq!(index.len(), 2500);
    for (name, (plies, ending, sfen)) in &index {
        let path = if dir.join(name).exists() { dir.join(name) } else { dir.join("sjis").join(name) };
        let bytes = read(&path);
        let evs = events(&bytes);
        assert_eq!(moves(&evs).len(), *plies, "{name}");
        let end =
            evs.iter().rev().find_map(|e| if let Event::GameEnd { ending, .. } = e { Some(*ending) } else { None });
        assert_eq!(ending_name(end.unwrap()), ending, "{name}");
        let got = replay(&bytes);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].as_deref(), Ok(sfen.as_str()), "{name}");
    }
}

#[test]
fn tsshogi_games_replay_to_cshogi_final_sfen() {
    let Some(dir) = common::corpus_dir("converted/csa3-tsshogi") else { return };
    let index = cshogi_index(&dir.join("../csa-cshogi"));
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for l in text.lines().skip(1) {
        let c: Vec<&str> = l.split('\t').collect();
        let bytes = read(&dir.join(c[0]));
        let evs = events(&bytes);
        assert!(evs
            .iter()
            .any(|e| matches!(e, Event::Info(i) if i.key() == InfoKey::FormatVersion && i.value().raw() == b"3.0")));
        let got = replay(&bytes);
        assert_eq!(got[0].as_deref(), Ok(index[c[1]].2.as_str()), "{}", c[0]);
        // Times with milliseconds are kept exactly.
        if c[3] == "ms" {
            assert!(evs.iter().any(|e| matches!(e, Event::Clock(Clock { value, .. }) if value % 1000 != 0)));
        }
        n += 1;
    }
    assert_eq!(n, 200);
}

/// A game's events without offsets, for comparing the same game read from different files.
fn game_signature(evs: &[Event]) -> Vec<String> {
    evs.iter()
        .filter(|e| !matches!(e, Event::GameStart { .. } | Event::GameEnd { .. }))
        .map(|e| format!("{e:?}"))
        .chain(evs.iter().filter_map(|e| match e {
            Event::GameEnd { ending, .. } => Some(format!("end {ending:?}")),
            _ => None,
        }))
        .collect()
}

fn split_games<'a>(evs: &[Event<'a>]) -> Vec<Vec<Event<'a>>> {
    let mut out = vec![];
    for e in evs {
        if let Event::GameStart { .. } = e {
            out.push(vec![]);
        }
        out.last_mut().unwrap().push(*e);
    }
    out
}

#[test]
fn multi_game_files_equal_single_files() {
    let Some(dir) = common::corpus_dir("converted/csa-cshogi") else { return };
    let text = std::fs::read_to_string(dir.join("multi/multi-index.tsv")).unwrap();
    let mut n = 0;
    for l in text.lines().skip(1) {
        let (multi, singles) = l.split_once('\t').unwrap();
        let bytes = read(&dir.join(multi));
        let evs = events(&bytes);
        let games = split_games(&evs);
        let singles: Vec<&str> = singles.split(' ').collect();
        assert_eq!(games.len(), singles.len(), "{multi}");
        // skip_game agrees with reading: same number of games.
        let mut r = Reader::new(&bytes);
        let mut skipped = 0;
        while r.skip_game().unwrap() {
            skipped += 1;
        }
        assert_eq!(skipped, singles.len());
        // The splitter cuts the same games.
        let chunks: Vec<_> = csa::chunks(&bytes).collect();
        assert_eq!(chunks.len(), singles.len());
        for (c, g) in chunks.iter().zip(&games) {
            assert_eq!(Event::GameStart { offset: c.offset }, g[0]);
            let evs: Vec<_> = Reader::new(c.bytes).with_context(c.context).collect::<Result<_, _>>().unwrap();
            assert_eq!(game_signature(&evs), game_signature(g));
        }
        for (g, s) in games.iter().zip(&singles) {
            let single = read(&dir.join(s));
            let sevs = events(&single);
            assert_eq!(game_signature(g), game_signature(&sevs), "{multi} {s}");
            // GameStart/GameEnd frame exactly the game's bytes.
            let (Event::GameStart { offset }, Event::GameEnd { length, .. }) = (g[0], g[g.len() - 1]) else { panic!() };
            let chunk = &bytes[offset as usize..(offset + length) as usize];
            assert_eq!(game_signature(&events(chunk)), game_signature(&sevs));
            n += 1;
        }
    }
    assert_eq!(n, 150);
}

/// The JKF start position of a golden file, as SFEN.
fn jkf_initial(init: &serde_json::Value) -> String {
    let mut p = ShogiPosition::startpos();
    let remove = |p: &mut ShogiPosition, sqs: &[(u8, u8)]| {
        for &(f, r) in sqs {
            p.put(Square::new(f, r), None);
        }
    };
    match init["preset"].as_str().unwrap() {
        "HIRATE" => {}
        "KY" => remove(&mut p, &[(1, 1)]),
        "KA" => remove(&mut p, &[(2, 2)]),
        "HI" => remove(&mut p, &[(8, 2)]),
        "2" => remove(&mut p, &[(2, 2), (8, 2)]),
        "4" => remove(&mut p, &[(2, 2), (8, 2), (1, 1), (9, 1)]),
        "6" => remove(&mut p, &[(2, 2), (8, 2), (1, 1), (9, 1), (2, 1), (8, 1)]),
        "OTHER" => {
            let data = &init["data"];
            p = ShogiPosition::new();
            for (x, col) in data["board"].as_array().unwrap().iter().enumerate() {
                for (y, cell) in col.as_array().unwrap().iter().enumerate() {
                    if let Some(kind) = cell["kind"].as_str() {
                        let c = if cell["color"] == 0 { Color::Black } else { Color::White };
                        let piece = Piece::from_csa(kind.as_bytes()).unwrap();
                        p.put(Square::new(x as u8 + 1, y as u8 + 1), Some((c, piece)));
                    }
                }
            }
            for (ci, hand) in data["hands"].as_array().unwrap().iter().enumerate() {
                let c = if ci == 0 { Color::Black } else { Color::White };
                for (k, n) in hand.as_object().unwrap() {
                    for _ in 0..n.as_u64().unwrap() {
                        let piece = Piece::from_csa(k.as_bytes()).unwrap();
                        p.apply(&Event::Setup(Setup::Shogi { color: c, piece, square: None })).unwrap();
                    }
                }
            }
            p.set_side_to_move(if data["color"] == 0 { Color::Black } else { Color::White });
            return p.sfen();
        }
        other => panic!("preset {other}"),
    }
    if init["preset"] != "HIRATE" {
        p.set_side_to_move(Color::White);
    }
    p.sfen()
}

#[test]
fn golden_jkf_files_agree() {
    let Some(dir) = common::corpus_dir("csa") else { return };
    let mut n = 0;
    for json_path in common::files(&dir, &[".json"]) {
        let name = json_path.file_name().unwrap().to_string_lossy().to_string();
        if name.contains("schema") {
            continue;
        }
        let jkf: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        let bytes = read(&json_path.with_extension("csa"));
        let evs = events(&bytes);
        // Replay, remembering the start position and each move's promotion.
        let mut pos = ShogiPosition::new();
        let mut start = None;
        let mut promoted = vec![];
        let mut our_comments = vec![];
        let mut our_times = vec![];
        let mut after_turn = false;
        for e in &evs {
            if matches!(e, Event::Node) && start.is_none() {
                start = Some(pos.sfen());
            }
            match e {
                Event::Turn(_) => after_turn = true,
                Event::Property(p) if after_turn && (p.name() == b"'" || p.name() == b"'*") => {
                    our_comments.push(p.value().to_string_lossy())
                }
                Event::Comment(t) => our_comments.push(t.to_string_lossy()),
                Event::Evaluation(ev) => {
                    let mut s = format!("** {}", ev.score.unwrap());
                    if !ev.pv.is_empty() {
                        s.push(' ');
                        s.push_str(std::str::from_utf8(ev.pv).unwrap());
                    }
                    our_comments.push(s)
                }
                Event::Clock(Clock { kind: ClockKind::ElapsedMs, value, .. }) => {
                    our_times.push((promoted.len(), *value))
                }
                _ => {}
            }
            if let Some(p) = pos.apply(e).unwrap_or_else(|i| panic!("{name}: {i}")) {
                promoted.push(p.promoted);
            }
        }
        assert_eq!(start.unwrap_or_else(|| pos.sfen()), jkf_initial(&jkf["initial"]), "{name}");
        let ours = moves(&evs);
        let mut jkf_comments = vec![];
        let mut jkf_times = vec![];
        let mut k = 0;
        for entry in jkf["moves"].as_array().unwrap() {
            for c in entry["comments"].as_array().into_iter().flatten() {
                let c = c.as_str().unwrap();
                jkf_comments.push(c.strip_prefix('*').filter(|r| !r.starts_with('*')).unwrap_or(c).to_string());
            }
            let Some(m) = entry.get("move") else {
                if let Some(t) = entry.get("time") {
                    let now = &t["now"];
                    jkf_times.push((k, (now["m"].as_u64().unwrap() * 60 + now["s"].as_u64().unwrap()) * 1000));
                }
                continue;
            };
            let our = ours[k];
            k += 1;
            assert_eq!(our.color, if m["color"] == 0 { Color::Black } else { Color::White }, "{name} {k}");
            assert_eq!(our.to, Square::new(m["to"]["x"].as_u64().unwrap() as u8, m["to"]["y"].as_u64().unwrap() as u8));
            let from =
                m.get("from").map(|f| Square::new(f["x"].as_u64().unwrap() as u8, f["y"].as_u64().unwrap() as u8));
            assert_eq!(our.from, from, "{name} {k}");
            let piece = Piece::from_csa(m["piece"].as_str().unwrap().as_bytes()).unwrap();
            let promote = m["promote"] == true;
            assert_eq!(promoted[k - 1], promote, "{name} {k}");
            assert_eq!(our.piece, if promote { piece.promoted().unwrap() } else { piece }, "{name} {k}");
            if let Some(t) = entry.get("time") {
                let now = &t["now"];
                jkf_times.push((k, (now["m"].as_u64().unwrap() * 60 + now["s"].as_u64().unwrap()) * 1000));
            }
        }
        assert_eq!(k, ours.len(), "{name}");
        assert_eq!(our_times, jkf_times, "{name}");
        assert_eq!(our_comments, jkf_comments, "{name}");
        n += 1;
    }
    assert_eq!(n, 11);
}

// ---------------------------------------------------------------- hand-written cases

fn infos<'a>(evs: &[Event<'a>]) -> Vec<(InfoKey, String, String)> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().to_string_lossy()))
            }
            _ => None,
        })
        .collect()
}

fn ending(evs: &[Event]) -> Option<Ending> {
    evs.iter().rev().find_map(|e| if let Event::GameEnd { ending, .. } = e { Some(*ending) } else { None }).flatten()
}

const HIRATE: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

#[test]
fn spec_example_maps_every_statement() {
    let input = "'comment\nV2.2\nN+NAKAHARA\nN-YONENAGA\n$EVENT:13th WCSC\n$SITE:KAZUSA ARC\n\
$START_TIME:2003/05/03 10:30:00\n$END_TIME:2003/05/03 11:11:05\n$TIME_LIMIT:00:25+00\n$OPENING:YAGURA\n\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n\
+\n'before\n+2726FU\nT12\n-3334FU\nT6\n'after\n%CHUDAN\n";
    let evs = events(input.as_bytes());
    assert!(warnings(&evs).is_empty(), "{:?}", warnings(&evs));
    assert_eq!(evs[0], Event::GameStart { offset: 0 });
    let i = infos(&evs);
    let k: Vec<_> = i.iter().map(|x| (x.0, x.1.as_str(), x.2.as_str())).collect();
    assert_eq!(
        k,
        vec![
            (InfoKey::FormatVersion, "V", "2.2"),
            (InfoKey::BlackName, "N+", "NAKAHARA"),
            (InfoKey::WhiteName, "N-", "YONENAGA"),
            (InfoKey::Event, "$EVENT", "13th WCSC"),
            (InfoKey::Place, "$SITE", "KAZUSA ARC"),
            (InfoKey::Date, "$START_TIME", "2003/05/03 10:30:00"),
            (InfoKey::EndDate, "$END_TIME", "2003/05/03 11:11:05"),
            (InfoKey::TimeLimit, "$TIME_LIMIT", "00:25+00"),
            (InfoKey::Opening, "$OPENING", "YAGURA"),
        ]
    );
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::Setup(_))).count(), 40);
    // Comments before the first move are properties; after it, comments.
    assert!(matches!(evs[1], Event::Property(p) if p.name() == b"'" && p.value().raw() == b"comment"));
    assert!(evs.iter().any(|e| matches!(e, Event::Property(p) if p.value().raw() == b"before")));
    assert!(evs.iter().any(|e| matches!(e, Event::Comment(t) if t.raw() == b"after")));
    let m = moves(&evs);
    assert_eq!(
        m[0],
        ShogiMove { color: Color::Black, from: Some(Square::new(2, 7)), to: Square::new(2, 6), piece: Piece::Pawn }
    );
    let clocks: Vec<_> = evs.iter().filter_map(|e| if let Event::Clock(c) = e { Some(*c) } else { None }).collect();
    assert_eq!(clocks[0], Clock { color: Some(Color::Black), kind: ClockKind::ElapsedMs, value: 12_000 });
    assert_eq!(clocks[1], Clock { color: Some(Color::White), kind: ClockKind::ElapsedMs, value: 6_000 });
    assert_eq!(ending(&evs), Some(Ending::Interrupted));
    assert!(matches!(evs.last(), Some(Event::GameEnd { length, .. }) if *length == input.len() as u64));
    // Order: Node, Move, Clock.
    let node = evs.iter().position(|e| *e == Event::Node).unwrap();
    assert!(matches!(evs[node + 1], Event::Move(_)) && matches!(evs[node + 2], Event::Clock(_)));
    assert_eq!(
        replay(input.as_bytes())[0].as_deref(),
        Ok("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b -")
    );
}

#[test]
fn version_and_headers_are_typed() {
    let evs = events(b"V3.0\n$TIME:600+10+0\n$TIME+:300+0+5\n$TIME-:300+0+5\n$MAX_MOVES:256\n$JISHOGI:27\n$NOTE:a\\nb\\\\c\n$FOO:bar\nPI\n+\n");
    assert!(warnings(&evs).is_empty(), "{:?}", warnings(&evs));
    let i = infos(&evs);
    assert_eq!(i.iter().filter(|x| x.0 == InfoKey::TimeLimit).count(), 3);
    assert!(i.contains(&(InfoKey::Other, "$MAX_MOVES".into(), "256".into())));
    assert!(i.contains(&(InfoKey::Other, "$NOTE".into(), "a\nb\\c".into())));
    assert!(i.contains(&(InfoKey::Other, "$FOO".into(), "bar".into())));
    // Values of the wrong form warn but are kept.
    let evs = events(b"Vx\n$START_TIME: 19:03:15\n$TIME_LIMIT:25min\n$TIME:abc\n$MAX_MOVES:many\n$NOCOLON\n");
    assert_eq!(warnings(&evs), vec![WarningKind::BadValue; 6]);
    assert_eq!(infos(&evs).len(), 5);
    assert_eq!(csa::parse_time_limit(b"00:25+00").unwrap().base_ms, 1_500_000);
}

#[test]
fn handicap_pi_removes_after_placing() {
    let evs = events(b"PI82HI22KA\n-\n-3334FU\n");
    let setups: Vec<_> = evs.iter().filter_map(|e| if let Event::Setup(s) = e { Some(*s) } else { None }).collect();
    assert_eq!(setups.len(), 42);
    assert_eq!(setups[40], Setup::ShogiRemove { square: Square::new(8, 2) });
    assert_eq!(setups[41], Setup::ShogiRemove { square: Square::new(2, 2) });
    assert!(evs.contains(&Event::Turn(Color::White)));
    assert_eq!(
        replay(b"PI82HI22KA\n-\n-3334FU\n")[0].as_deref(),
        Ok("lnsgkgsnl/9/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")
    );
    // A removal that names the wrong piece warns.
    assert_eq!(warnings(&events(b"PI82KA\n-\n")), vec![WarningKind::BadValue]);
}

#[test]
fn piece_lines_hands_and_al() {
    let input = b"P-11OU\nP+22KI00KI00FU\nP-00AL\n+\n+0012FU\n";
    let evs = events(input);
    let setups: Vec<_> = evs.iter().filter_map(|e| if let Event::Setup(s) = e { Some(*s) } else { None }).collect();
    assert_eq!(setups[0], Setup::Shogi { color: Color::White, piece: Piece::King, square: Some(Square::new(1, 1)) });
    assert_eq!(setups[2], Setup::Shogi { color: Color::Black, piece: Piece::Gold, square: None });
    // AL: everything not yet placed (except the other king) goes to White's hand.
    let white_hand =
        setups.iter().filter(|s| matches!(s, Setup::Shogi { color: Color::White, square: None, .. })).count();
    assert_eq!(white_hand, 38 - 1 - 2);
    let r = replay(input);
    assert_eq!(r[0].as_deref(), Ok("8k/7GP/9/9/9/9/9/9/9 w G2r2b2g4s4n4l17p"));
    // Board given by rows with spaces collapsed (dialect) and an empty P+ line (dialect).
    let evs = events(b"P1 * * * * -OU * * * *\nP+\nP9 *  *  *  * +OU *  *  *  * \n+\n");
    assert_eq!(warnings(&evs), vec![WarningKind::CsaDialect, WarningKind::CsaDialect]);
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::Setup(_))).count(), 2);
    // Bad items.
    assert_eq!(warnings(&events(b"P+00OU\n")), vec![WarningKind::BadValue]);
    assert_eq!(warnings(&events(b"P+5X\n")), vec![WarningKind::BadValue]);
    assert_eq!(warnings(&events(b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-KY\n")), vec![WarningKind::BadValue]);
}

#[test]
fn times_and_their_dialects() {
    let evs = events(b"T5\nPI\n+\n+7776FU\nT2.655\n-3334FU\nT=3\n+2726FU\nT1:30\n-8384FU,T0.03\n%TORYO\nT7\n");
    let clocks: Vec<_> =
        evs.iter().filter_map(|e| if let Event::Clock(c) = e { Some((c.color, c.value)) } else { None }).collect();
    assert_eq!(
        clocks,
        vec![
            (None, 5000),
            (Some(Color::Black), 2655),
            (Some(Color::White), 3000),
            (Some(Color::Black), 90_000),
            (Some(Color::White), 30),
            (Some(Color::Black), 7000), // the resigning side's time
        ]
    );
    assert_eq!(warnings(&evs), vec![WarningKind::TimeWithoutMove, WarningKind::CsaDialect, WarningKind::CsaDialect]);
    assert_eq!(ending(&evs), Some(Ending::Resign));
    assert_eq!(warnings(&events(b"PI\n+\n+7776FU\nTx\n")), vec![WarningKind::BadValue]);
}

#[test]
fn comments_and_evaluations() {
    let input = "PI\n+\n'*start\n+7776FU\n'*move comment\n'** 113 -3334FU +2625FU #123\n'**評価値=-50\n'plain, with comma\n-3334FU\n'** 7g7f 3c3d\n";
    let evs = events(input.as_bytes());
    assert!(
        matches!(evs.iter().find(|e| matches!(e, Event::Property(_))), Some(Event::Property(p)) if p.name() == b"'*" && p.value().raw() == b"start")
    );
    let comments: Vec<_> =
        evs.iter().filter_map(|e| if let Event::Comment(t) = e { Some(t.to_string_lossy()) } else { None }).collect();
    assert_eq!(comments, vec!["move comment", "plain, with comma"]);
    let evals: Vec<_> = evs.iter().filter_map(|e| if let Event::Evaluation(v) = e { Some(*v) } else { None }).collect();
    assert_eq!(evals[0].score, Some(113));
    assert_eq!(evals[0].pv, b"-3334FU +2625FU #123");
    assert_eq!(csa::pv_moves(evals[0].pv).count(), 2);
    assert_eq!(evals[1].score, Some(-50));
    assert!(matches!(csa::pv_moves(evals[2].pv).next(), Some(Ok(csa::PvMove::Usi(_)))));
    assert_eq!(warnings(&evs), vec![WarningKind::CsaDialect]);
}

#[test]
fn every_special_move() {
    let cases: &[(&str, Ending)] = &[
        ("TORYO", Ending::Resign),
        ("CHUDAN", Ending::Interrupted),
        ("SENNICHITE", Ending::Repetition),
        ("OUTE_SENNICHITE", Ending::PerpetualCheck),
        ("TIME_UP", Ending::TimeUp),
        ("ILLEGAL_MOVE", Ending::IllegalMove),
        ("+ILLEGAL_ACTION", Ending::IllegalActionBlack),
        ("-ILLEGAL_ACTION", Ending::IllegalActionWhite),
        ("JISHOGI", Ending::Impasse),
        ("KACHI", Ending::DeclareWin),
        ("HIKIWAKE", Ending::Draw),
        ("MATTA", Ending::Matta),
        ("TSUMI", Ending::Checkmate),
        ("FUZUMI", Ending::NoCheckmate),
        ("ERROR", Ending::Error),
        ("MAX_MOVES", Ending::MaxMoves),
    ];
    for (name, e) in cases {
        let input = format!("PI\n+\n+7776FU\n%{name}\n");
        let evs = events(input.as_bytes());
        assert_eq!(ending(&evs), Some(*e), "{name}");
        assert!(warnings(&evs).is_empty());
        assert_eq!(evs.iter().filter(|e| **e == Event::Node).count(), 1, "specials are not moves");
    }
    let evs = events(b"PI\n+\n%FOO\n");
    assert!(evs.iter().any(|e| matches!(e, Event::Property(p) if p.name() == b"%" && p.value().raw() == b"FOO")));
    assert_eq!(ending(&evs), Some(Ending::Other));
    // A move after the special is dropped with a warning; a second special warns.
    let evs = events(b"PI\n+\n%TORYO\n+7776FU\n%CHUDAN\n$END_TIME:2020/01/01\n");
    assert_eq!(warnings(&evs), vec![WarningKind::MoveAfterEnd, WarningKind::DuplicateKey]);
    assert_eq!(moves(&evs).len(), 0);
    assert_eq!(ending(&evs), Some(Ending::Resign));
    assert!(infos(&evs).iter().any(|i| i.0 == InfoKey::EndDate));
}

#[test]
fn multi_game_files_and_v3_header() {
    let input = b"'CSA encoding=UTF-8\nV3.0\nN+a\nPI\n+\n+7776FU\n/\nN+b\nPI\n-\n-3334FU\n/\n\n";
    let evs = events(input);
    let games = split_games(&evs);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(infos(g).iter().any(|i| i.0 == InfoKey::FormatVersion && i.2 == "3.0"), "{:?}", infos(g));
    }
    assert!(infos(&games[0]).iter().any(|i| i.0 == InfoKey::Charset && i.2 == "UTF-8"));
    let Event::GameStart { offset } = games[1][0] else { panic!() };
    assert_eq!(&input[offset as usize..offset as usize + 3], b"N+b");
    // The `/` line belongs to neither game.
    let Event::GameEnd { length, .. } = games[0][games[0].len() - 1] else { panic!() };
    assert_eq!(input[length as usize], b'/');
    // Chunks read on their own give the same games (the version comes from the context).
    for (c, g) in csa::chunks(input).zip(&games) {
        let evs: Vec<_> = Reader::new(c.bytes).with_context(c.context).collect::<Result<_, _>>().unwrap();
        assert_eq!(game_signature(&evs), game_signature(g));
    }
    // skip_game agrees: two games, then none.
    let mut r = Reader::new(input);
    assert!(r.skip_game().unwrap());
    assert!(matches!(r.next(), Some(Ok(Event::GameStart { .. }))));
    assert!(r.skip_game().unwrap());
    assert!(!r.skip_game().unwrap());
    assert!(r.next().is_none());
}

#[test]
fn encodings() {
    // Shift_JIS declared by the V3.0 line, by Kifu for Windows' comment, by V3.0's default, and detected.
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("先手太郎");
    for head in [&b"'CSA encoding=SHIFT_JIS\nV3.0\n"[..], b"'encoding=Shift_JIS\nV2.2\n", b"V3.0\n", b"V2.2\n"] {
        let mut input = head.to_vec();
        input.extend_from_slice(b"N+");
        input.extend_from_slice(&sjis);
        input.extend_from_slice(b"\nPI\n+\n");
        let mut r = Reader::new(&input);
        let evs: Vec<_> = r.by_ref().collect::<Result<_, _>>().unwrap();
        assert_eq!(r.charset(), kifu::Charset::ShiftJis, "{}", String::from_utf8_lossy(head));
        assert!(infos(&evs).iter().any(|i| i.2 == "先手太郎"));
    }
    // A UTF-8 BOM; UTF-8 detected; an unknown declaration warns.
    let mut r = Reader::new("\u{feff}N+先手\n".as_bytes());
    let evs: Vec<_> = r.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(evs[0], Event::GameStart { offset: 3 });
    assert_eq!(r.charset(), kifu::Charset::Utf8);
    assert_eq!(warnings(&events(b"'CSA encoding=KLINGON\nV3.0\n")), vec![WarningKind::UnknownCharset]);
}

#[test]
fn dialects_missing_position_turn_and_glued_move() {
    // No position at all: the standard one is assumed, the first move says who moves; one
    // warning for the header missing (two alike, at the same place, said nothing more).
    let evs = events(b"+7776FU\n-3334FU\n");
    assert_eq!(warnings(&evs), vec![WarningKind::MissingValue]);
    assert!(evs.contains(&Event::Turn(Color::Black)));
    assert_eq!(
        replay(b"+7776FU\n-3334FU\n")[0].as_deref(),
        Ok("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -")
    );
    // Position without a turn line: the first move says who moves.
    let evs = events(b"PI82HI\n-3334FU\n");
    assert_eq!(warnings(&evs), vec![WarningKind::MissingValue]);
    assert!(evs.contains(&Event::Turn(Color::White)));
    // A first move glued onto a comment line.
    let evs = events(b"PI\n+\n'comment+7776FU\n-3334FU\n");
    assert_eq!(warnings(&evs), vec![WarningKind::CsaDialect]);
    assert_eq!(moves(&evs).len(), 2);
    assert!(evs.iter().any(|e| matches!(e, Event::Property(p) if p.value().raw() == b"comment")));
    // V2 without minor version, no version at all: no warning.
    assert!(warnings(&events(b"V2\nPI\n+\n")).is_empty());
    // $TIMET+ spelling.
    assert_eq!(warnings(&events(b"$TIMET+:600+10+0\n")), vec![WarningKind::CsaDialect]);
    // CRLF and CR line ends.
    assert_eq!(moves(&events(b"PI\r\n+\r\n+7776FU\r\nT1\r\n")).len(), 1);
    assert_eq!(moves(&events(b"PI\r+\r+7776FU\rT1\r")).len(), 1);
}

#[test]
fn bad_input() {
    // Binary data is not a game record: an error, then the next game (if any).
    let mut bin = vec![0u8, 1, 2, 0xff, b'\n'];
    bin.extend_from_slice(b"/\nPI\n+\n+7776FU\n");
    let items: Vec<_> = Reader::new(&bin).collect();
    let err = items.iter().find_map(|i| i.as_ref().err()).unwrap();
    assert_eq!(err.kind(), kifu::ErrorKind::NotAGameRecord);
    assert_eq!(err.position().line, 1);
    assert!(items.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count() == 2);
    assert!(items.iter().any(|i| matches!(i, Ok(Event::Move(_)))));
    // A file cut in the middle of a move.
    let evs = events(b"PI\n+\n+7776FU\n-33");
    assert_eq!(warnings(&evs), vec![WarningKind::Truncated]);
    assert!(matches!(evs.last(), Some(Event::GameEnd { .. })));
    // Unknown lines warn; empty input has no game.
    assert_eq!(warnings(&events(b"PI\n+\nhello\n")), vec![WarningKind::UnknownLine]);
    assert!(events(b"").is_empty());
    assert!(events(b"\n \n").is_empty());
    // Strict mode: the warning is an error at its line, and reading resumes at the next game.
    let items: Vec<_> = Reader::with_config(b"PI\n+\nhello\n+7776FU\n/\nPI\n+\n", Config::strict()).collect();
    let e = items.iter().find_map(|i| i.as_ref().err()).unwrap();
    assert_eq!(
        (e.kind(), e.position().line, e.position().column),
        (kifu::ErrorKind::Strict(WarningKind::UnknownLine), 3, 1)
    );
    let after: Vec<_> = items.iter().skip_while(|i| i.is_ok()).skip(1).collect();
    assert!(matches!(after[0], Ok(Event::GameStart { .. })));
    // Limits.
    let mut cfg = Config::default();
    cfg.limits.max_nodes = 1;
    let items: Vec<_> = Reader::with_config(b"PI\n+\n+7776FU\n-3334FU\n", cfg).collect();
    assert!(items
        .iter()
        .any(|i| matches!(i, Err(e) if e.kind() == kifu::ErrorKind::LimitExceeded(kifu::Limit::Nodes))));
}

#[test]
fn a_million_line_game() {
    let mut input = b"PI\n+\n".to_vec();
    for _ in 0..125_000 {
        input.extend_from_slice(b"+5958OU\nT1\n-5152OU\nT1\n+5859OU\nT1\n-5251OU\nT1\n");
    }
    let mut r = Reader::new(&input);
    let (mut nodes, mut clocks) = (0u64, 0u64);
    while let Some(ev) = r.next_event() {
        match ev.unwrap() {
            Event::Node => nodes += 1,
            Event::Clock(_) => clocks += 1,
            Event::Warning(w) => panic!("{w:?}"),
            _ => {}
        }
    }
    assert_eq!((nodes, clocks), (500_000, 500_000));
    // The kings walk up and back: the game replays to the start position (first 4,000 lines).
    let part = &input[..5 + 1_000 * 44];
    assert_eq!(replay(part)[0].as_deref(), Ok(HIRATE));
}

#[test]
fn illegal_moves_are_reported_with_their_offset() {
    let cases: &[(&str, Illegal)] = &[
        ("PI\n+\n-3334FU\n", Illegal::WrongSide),
        ("PI\n+\n+5554FU\n", Illegal::NoPiece),
        ("PI\n+\n+3334FU\n", Illegal::NotOwnPiece),
        ("PI\n+\n+7776KI\n", Illegal::PieceMismatch),
        ("PI\n+\n+7775FU\n", Illegal::BadMovement),
        ("PI\n+\n+8833KA\n", Illegal::BadMovement),
        ("PI\n+\n+6978KI\n-3334FU\n+7877KI\n", Illegal::CaptureOwn),
        ("PI\n+\n+7776TO\n", Illegal::PromotionOutsideZone),
        ("P-51OU\nP+59OU12FU\n+\n+1211FU\n", Illegal::MustPromote),
        ("P-51OU\nP+59OU33KE\n+\n+3321KE\n", Illegal::MustPromote),
        ("P-51OU\nP+59OU00KE\n+\n+0012KE\n", Illegal::MustPromote),
        ("PI\n+\n+0055FU\n", Illegal::NotInHand),
        ("PI\n+\n+0055TO\n", Illegal::BadDropPiece),
        ("P-51OU\nP+59OU77FU00FU\n+\n+0077FU\n", Illegal::DropOnOccupied),
        ("P-51OU\nP+59OU87FU00FU\n+\n+0084FU\n", Illegal::Nifu),
        ("P-11OU21KY\nP+23KI59OU00FU\n+\n+0012FU\n", Illegal::PawnDropMate),
        ("PI\n+\n+5957OU\n", Illegal::BadMovement),
        ("P-51OU55HI\nP+59OU58KI\n+\n+5848KI\n", Illegal::KingInCheck),
        ("P-51OU55HI\nP+59OU48KI\n+\n+4838KI\n", Illegal::KingInCheck),
    ];
    for (input, want) in cases {
        let r = replay(input.as_bytes());
        let Err((got, offset)) = r[0] else { panic!("{input:?} replayed legally: {:?}", r[0]) };
        assert_eq!(got, *want, "{input:?}");
        // The offset is the start of the illegal move's line.
        let last_move_line = input.trim_end().rfind('\n').map_or(0, |i| i + 1);
        assert_eq!(offset as usize, last_move_line, "{input:?}");
        let err = got.error(kifu::Position::locate(input.as_bytes(), offset));
        assert_eq!(err.kind(), kifu::ErrorKind::IllegalMove);
    }
}

#[test]
fn bad_setups_and_unchanged_position_after_an_illegal_move() {
    let mut pos = ShogiPosition::startpos();
    let hand_king = Event::Setup(Setup::Shogi { color: Color::Black, piece: Piece::King, square: None });
    assert_eq!(pos.apply(&hand_king), Err(Illegal::BadSetup));
    let hand_dragon = Event::Setup(Setup::Shogi { color: Color::Black, piece: Piece::Dragon, square: None });
    assert_eq!(pos.apply(&hand_dragon), Err(Illegal::BadSetup));
    let before = pos;
    let bad = Event::Move(Move::Shogi(csa::parse_move(b"+2625FU").unwrap()));
    assert_eq!(pos.apply(&bad), Err(Illegal::NoPiece));
    assert_eq!(pos, before);
    assert_eq!(pos.sfen(), HIRATE);
    // Offsets of moves in comma-joined lines point at the move itself.
    let input = b"PI\n+\n+7776FU,T1,-3334FU,T1,+2725FU\n";
    let r = replay(input);
    let Err((Illegal::BadMovement, off)) = r[0] else { panic!("{:?}", r[0]) };
    assert_eq!(&input[off as usize..off as usize + 7], b"+2725FU");
}

#[test]
fn strict_mode_reads_clean_corpus_files() {
    let Some(dir) = common::corpus_dir("converted/csa-cshogi") else { return };
    let mut strict_ok = 0;
    for f in common::files(&dir, &[".csa"]).iter().take(300) {
        let bytes = read(f);
        let lenient = events(&bytes);
        let strict: Result<Vec<_>, _> = Reader::with_config(&bytes, Config::strict()).collect();
        if warnings(&lenient).is_empty() {
            assert_eq!(strict.unwrap(), lenient, "{}", f.display());
            strict_ok += 1;
        } else {
            assert!(strict.is_err());
        }
    }
    assert!(strict_ok > 250, "{strict_ok}");
}

#[test]
fn pawn_drop_mate_rule_allows_check_that_is_not_mate_and_non_pawn_mates() {
    // Pawn drop check with an escape: legal.
    assert!(replay(b"P-11OU\nP+23KI59OU00FU\n+\n+0012FU\n")[0].is_ok());
    // Gold drop mate: legal.
    assert!(replay(b"P-11OU21KY\nP+23KI59OU00KI\n+\n+0012KI\n")[0].is_ok());
    // Pawn drop check where the pawn can be captured: legal.
    assert!(replay(b"P-11OU21KY\nP+59OU00FU\n+\n+0012FU\n")[0].is_ok());
    // Pawn drop mate: illegal.
    assert!(matches!(replay(b"P-11OU21KY\nP+23KI59OU00FU\n+\n+0012FU\n")[0], Err((Illegal::PawnDropMate, _))));
}

#[test]
fn sniffer() {
    use kifu::detect::Confidence;
    assert_eq!(kifu::detect(b"V2.2\nN+a\n"), Some(kifu::Format::Csa));
    assert_eq!(kifu::detect(b"'comment\nPI\n+\n"), Some(kifu::Format::Csa));
    assert_eq!(kifu::detect(b"'CSA encoding=UTF-8\nV3.0\n"), Some(kifu::Format::Csa));
    assert_eq!(kifu::detect(b"+7776FU\n"), Some(kifu::Format::Csa));
    // A junk line before a record is Maybe; before a mere `$` line (no record's frame) it is No.
    assert_eq!(csa::sniff(b"hello\nV2.2\nPI\n+\n+7776FU\n"), Confidence::Maybe);
    assert_eq!(csa::sniff(b"hello\n$EVENT:x\n"), Confidence::No);
    assert_eq!(kifu::detect(b"(;GM[1]FF[4])"), Some(kifu::Format::Sgf));
    assert_eq!(csa::sniff(b"# README\n"), Confidence::No);
}

// ---------------------------------------------------------------- robustness

/// Reads `input` leniently and strictly and checks the stream's contract (`kifu::kit`: progress,
/// framing, offsets in bounds, a GameStart after an error, no warnings in strict mode) and what
/// CSA adds: errors happen inside games, every Node is followed by a Move, strict reading that
/// succeeds gives the lenient events.
fn check_invariants(input: &[u8]) {
    let lenient: Vec<_> = Reader::new(input).take(input.len() * 4 + 100).collect();
    assert!(lenient.len() < input.len() * 4 + 100, "no progress");
    let mut contract = Contract::new(input.len(), false);
    let mut expect_move = false;
    for item in &lenient {
        if item.is_err() {
            assert!(contract.in_game(), "errors happen inside games");
        }
        contract.item(item.as_ref());
        if std::mem::take(&mut expect_move) && item.is_ok() {
            assert!(matches!(item, Ok(Event::Move(_))), "{item:?} after Node");
        }
        expect_move = matches!(item, Ok(Event::Node));
    }
    contract.finish();
    let strict: Vec<_> = Reader::with_config(input, Config::strict()).collect();
    kifu::kit::check_items(input, &strict, true);
    if strict.iter().all(|i| i.is_ok()) {
        let l: Vec<_> = lenient.iter().map(|i| i.as_ref().unwrap()).collect();
        let s: Vec<_> = strict.iter().map(|i| i.as_ref().unwrap()).collect();
        assert_eq!(l, s, "strict ⊆ lenient");
    }
    // skip_game sees as many games as reading does (when no error cut a game short).
    if lenient.iter().all(|i| i.is_ok()) {
        let games = lenient.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count();
        let mut r = Reader::new(input);
        let mut skipped = 0;
        while r.skip_game().unwrap() {
            skipped += 1;
        }
        assert_eq!(skipped, games);
    }
    // The position never panics on what the reader gives.
    let mut pos = ShogiPosition::new();
    for ev in lenient.iter().flatten() {
        let _ = pos.apply(ev);
    }
    let _ = pos.sfen();
}

#[test]
fn mutated_corpus_keeps_invariants() {
    let Some(corpus) = common::corpus() else { return };
    let mut files = common::files(&corpus.join("csa"), &[".csa"]);
    files.extend(common::files(&corpus.join("converted/csa-cshogi/multi"), &[".csa"]).into_iter().take(1));
    files.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]).into_iter().take(5));
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const BYTES: &[u8] = b"+-0123456789,'*%/\n\rTPIVN$: AL";
    for f in &files {
        let original = read(f);
        check_invariants(&original);
        for _ in 0..20 {
            let mut b = original.clone();
            for _ in 0..1 + next() % 8 {
                if b.is_empty() {
                    break;
                }
                let at = (next() % b.len() as u64) as usize;
                match next() % 4 {
                    0 => b[at] = BYTES[(next() % BYTES.len() as u64) as usize],
                    1 => b.insert(at, BYTES[(next() % BYTES.len() as u64) as usize]),
                    2 => {
                        b.remove(at);
                    }
                    _ => b.truncate(at),
                }
            }
            check_invariants(&b);
        }
    }
}

#[test]
fn fuzz_regressions_and_edge_inputs() {
    for input in [
        &b""[..],
        b"/",
        b"/\n/\n",
        b",,,",
        b"P",
        b"PI",
        b"P+",
        b"P-00AL\nP+00AL\n",
        b"P1",
        b"'",
        b"'**",
        b"%",
        b"T",
        b"+",
        b"+\n+\n-\n",
        b"\xef\xbb\xbf",
        b"'CSA encoding=",
        b"V3.0\n/\n/\n",
        b"PI99KY99KY\n",
        b"+0000FU\n",
        b"P+00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU\nP-00AL\n",
    ] {
        check_invariants(input);
    }
}

/// Every item of `input` with the reader's `event_offset` after it (errors as their kind).
fn items_with_offsets(input: &[u8], cfg: Config) -> Vec<(Result<Event<'_>, kifu::ErrorKind>, u64)> {
    let mut r = Reader::with_config(input, cfg);
    let mut v = Vec::new();
    while let Some(item) = r.next() {
        let item = item.map_err(|e| e.kind());
        v.push((item, r.event_offset().unwrap()));
    }
    v
}

/// The reader's in-place paths (a move alone or with `,T12`, a whole-second `T`, a `'**` line)
/// give the same events, offsets, warnings and limit errors as the statement path.
#[test]
fn in_place_lines_agree_with_statements() {
    let cfg = Config::default();
    // `+7776FU,T12` gives Node, Move, Clock as two lines do; the clock's offset is the `T`'s.
    let joined = items_with_offsets(b"PI\n+\n+7776FU,T12\r\n-3334FU,T0\n+2726FU,T3", cfg);
    let lines = items_with_offsets(b"PI\n+\n+7776FU\nT12\r\n-3334FU\nT0\n+2726FU\nT3", cfg);
    assert!(joined.iter().map(|(e, _)| e).eq(lines.iter().map(|(e, _)| e)));
    let clock_offsets: Vec<u64> =
        joined.iter().filter(|(e, _)| matches!(e, Ok(Event::Clock(_)))).map(|&(_, o)| o).collect();
    assert_eq!(clock_offsets, vec![13, 26, 37]);
    let move_offsets: Vec<u64> =
        joined.iter().filter(|(e, _)| matches!(e, Ok(Event::Move(_)))).map(|&(_, o)| o).collect();
    assert_eq!(move_offsets, vec![5, 18, 29]);
    // What the in-place path does not take goes through the statements: decimals, dialects,
    // trailing blanks, a third statement, twelve digits, a time with no move yet.
    let evs = events(b"PI\n+\nT1\n+7776FU,T1.5\n-3334FU,T=2\n+2726FU,T3 \n-8384FU,T4,'c\n+2625FU,T123456789012\n");
    let clocks: Vec<_> =
        evs.iter().filter_map(|e| if let Event::Clock(c) = e { Some((c.color, c.value)) } else { None }).collect();
    assert_eq!(
        clocks,
        vec![
            (None, 1000),
            (Some(Color::Black), 1500),
            (Some(Color::White), 2000),
            (Some(Color::Black), 3000),
            (Some(Color::White), 4000),
            (Some(Color::Black), 123_456_789_012_000),
        ]
    );
    assert_eq!(warnings(&evs), vec![WarningKind::TimeWithoutMove, WarningKind::CsaDialect]);
    assert!(evs.iter().any(|e| matches!(e, Event::Comment(t) if t.raw() == b"c")));
    // `'**` lines: CR LF, the end of the input, an empty one, the dialect; offsets are the line's.
    let v = items_with_offsets("PI\n+\n+7776FU\n'** 12 -3334FU\r\n'**\n'**評価値=5\n'** -7".as_bytes(), cfg);
    let evals: Vec<_> = v
        .iter()
        .filter_map(|(e, o)| if let Ok(Event::Evaluation(x)) = e { Some((x.score, x.pv, *o)) } else { None })
        .collect();
    assert_eq!(
        evals,
        vec![(Some(12), &b"-3334FU"[..], 13), (None, &b""[..], 29), (Some(5), &b""[..], 33), (Some(-7), &b""[..], 48)]
    );
    // Limits hold on the in-place path: a `'**` line longer than the largest value, a `,T` past
    // the largest game, the move after the last allowed one.
    let mut small = Config::default();
    small.limits.max_value_len = 8;
    let v = items_with_offsets(b"PI\n+\n+7776FU\n'** 1234567\n", small);
    assert!(v.iter().any(|(e, _)| *e == Err(kifu::ErrorKind::LimitExceeded(kifu::Limit::ValueSize))));
    let mut small = Config::default();
    small.limits.max_game_len = 12;
    let v = items_with_offsets(b"PI\n+\n+7776FU,T1\n", small);
    assert!(v.iter().any(|(e, _)| matches!(e, Ok(Event::Move(_)))));
    assert!(!v.iter().any(|(e, _)| matches!(e, Ok(Event::Clock(_)))));
    assert!(v.iter().any(|(e, _)| *e == Err(kifu::ErrorKind::LimitExceeded(kifu::Limit::GameSize))));
    let mut small = Config::default();
    small.limits.max_nodes = 1;
    let v = items_with_offsets(b"PI\n+\n+7776FU,T1\n-3334FU,T2\n", small);
    assert_eq!(v.iter().filter(|(e, _)| matches!(e, Ok(Event::Clock(_)))).count(), 1);
    assert!(v.iter().any(|(e, _)| *e == Err(kifu::ErrorKind::LimitExceeded(kifu::Limit::Nodes))));
    // In strict mode the in-place path changes nothing either.
    let strict: Vec<_> = Reader::with_config(b"PI\n+\n+7776FU,T12\n'** 5\n%TORYO\n", Config::strict())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert_eq!(strict.iter().filter(|e| matches!(e, Event::Clock(_) | Event::Evaluation(_))).count(), 2);
}

/// A `+`/`-` statement that does not read as a move is skipped with `UnreadableMove`
/// (`Truncated` when the input ends in it); the moves around it read as written.
#[test]
fn a_move_that_does_not_read_is_unreadable_move() {
    let evs = events(b"PI\n+\n+7776FU\n-33x4FU\n+2726FU\n");
    assert_eq!(warnings(&evs), vec![WarningKind::UnreadableMove]);
    assert_eq!(moves(&evs).len(), 2);
    let evs = events(b"PI\n+\n+7776FU\n-33");
    assert_eq!(warnings(&evs), vec![WarningKind::Truncated]);
}
