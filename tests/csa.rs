//! CSA reader and shogi position: corpus tests (every file reads, every cshogi game replays to
//! its final SFEN, multi-game files equal their single files, golden JKF files agree) and
//! hand-written cases for every statement, every dialect and bad input.

mod common;

use kifu::csa::{self, Reader};
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
                bad = Some((i, r.event_offset()));
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
        let mut r = Reader::new(&bytes);
        let (mut starts, mut ends) = (0, 0);
        while let Some(ev) = r.next() {
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
        let end = evs.iter().rev().find_map(|e| if let Event::GameEnd { ending, .. } = e { Some(*ending) } else { None });
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
        assert!(evs.iter().any(|e| matches!(e, Event::Info(i) if i.key() == InfoKey::FormatVersion && i.value().raw() == b"3.0")));
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
                Event::Clock(Clock { kind: ClockKind::ElapsedMs, value, .. }) => our_times.push((promoted.len(), *value)),
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
            let from = m.get("from").map(|f| Square::new(f["x"].as_u64().unwrap() as u8, f["y"].as_u64().unwrap() as u8));
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
