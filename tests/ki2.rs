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
