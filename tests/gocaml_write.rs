//! The Go game JSON snapshot writer (`kifu::gocaml::write`): hand-written cases per rule; every
//! corpus snapshot reads back as the same tree; for every Go SGF game of the corpus, the
//! snapshot's stones are the final position of the main line as `kifu::position` replays it.
//! serde_json parses everything written.

mod common;
mod roundtrip;

use bumpalo::Bump;
use kifu::gocaml::write::{write, Writer};
use kifu::position::go::Board;
use kifu::{Color, Event, Move, Setup};
use roundtrip::{board_size, diff, is_shogi, trees, view, Losses};
use serde_json::{json, Value};

fn snapshot(sgf: &str) -> Value {
    let bump = Bump::new();
    let t = kifu::tree::build(&bump, &mut kifu::sgf::Reader::new(sgf.as_bytes())).unwrap().unwrap();
    let mut out = Vec::new();
    write(&t, &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn players_board_config() {
    let v = snapshot("(;SZ[9]PB[A \"x\"]PW[B]KM[6.5];B[cc]BL[100.5]OB[3];W[dd]WL[20](;B[ee])(;B[ff]PL[B]))");
    assert_eq!(v["players"]["p1"], json!({"id": "A \"x\"", "game_time": 100.5, "byoyomi": 3, "prisoners": []}));
    assert_eq!(v["players"]["p2"], json!({"id": "B", "game_time": 20, "prisoners": []}));
    assert_eq!(v["board"]["size"], 9);
    assert_eq!(
        v["board"]["black"],
        json!([{"col": 2, "row": 2, "cur_stones": 1}, {"col": 4, "row": 4, "cur_stones": 3}])
    );
    assert_eq!(v["board"]["white"], json!([{"col": 3, "row": 3, "cur_stones": 2}]));
    assert_eq!(v["config"], json!({"komi": 6.5, "turn": "w"}));
}

#[test]
fn captures_and_passes_are_prisoners() {
    // W[aa] is captured by B[ab]; then White passes, Black passes.
    let v = snapshot("(;SZ[5];B[ba];W[aa];B[ab];W[];B[];W[ee])");
    assert_eq!(
        v["players"]["p1"]["prisoners"],
        json!([{"col": 0, "row": 0, "cur_stones": 3}, {"col": -1, "row": -1, "cur_stones": 3}])
    );
    assert_eq!(v["players"]["p2"]["prisoners"], json!([{"col": -1, "row": -1, "cur_stones": 3}]));
    assert_eq!(v["board"]["white"], json!([{"col": 4, "row": 4, "cur_stones": 4}]));
    assert_eq!(v["config"]["turn"], "b");
    // Suicide removes the mover's own group; setup stones count as stones.
    let v = snapshot("(;SZ[3]AW[ba][ab];B[aa])");
    assert_eq!(v["board"]["black"], json!([]));
    assert_eq!(v["players"]["p2"]["prisoners"], json!([{"col": 0, "row": 0, "cur_stones": 3}]));
}

#[test]
fn shogi_is_refused() {
    let bump = Bump::new();
    let t = kifu::tree::build(&bump, &mut kifu::csa::Reader::new(b"V2.2\nPI\n+\n+7776FU\n")).unwrap().unwrap();
    let mut out = Vec::new();
    assert!(write(&t, &mut out).is_err());
    assert!(out.is_empty());
}

#[test]
fn corpus_snapshots_read_back_the_same() {
    let Some(dir) = common::corpus_dir("gocaml") else { return };
    let mut failures = Vec::new();
    let files = common::files(&dir, &[".json"]);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let bump = Bump::new();
        for t in trees(&bump, kifu::gocaml::Reader::new(&bytes)) {
            let mut out = Vec::new();
            write(&t, &mut out).unwrap();
            serde_json::from_slice::<Value>(&out).unwrap();
            let back = trees(&bump, kifu::gocaml::Reader::new(&out));
            let l = Losses::default();
            if let Some(d) = diff(&view(&t, &l), &view(&back[0], &l)) {
                failures.push(format!("{}: {d}\n{}", f.display(), String::from_utf8_lossy(&out)));
            }
        }
    }
    for f in &failures {
        eprintln!("{f:.1500}\n");
    }
    assert!(files.len() >= 15);
    assert!(failures.is_empty(), "{} of {} differ", failures.len(), files.len());
}

/// The stones of the main line's final position, as `kifu::position` plays it; `None` when a
/// move is illegal there (the snapshot writer places it anyway).
fn final_position(t: &kifu::tree::GameTree<'_>) -> Option<Vec<(u8, u8, Color)>> {
    let (w, h) = board_size(t);
    if w != h {
        return None;
    }
    let mut b = Board::new(w, h)?;
    for n in t.main_line() {
        for e in t.events(n) {
            match e {
                Event::Setup(Setup::Go { color, point }) => {
                    b.set(point, color);
                }
                Event::Move(Move::Go { color, point }) => {
                    b.play(color, point).ok()?;
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if let Some(c) = b.get(kifu::Point::new(x, y)) {
                out.push((x, y, c));
            }
        }
    }
    Some(out)
}

fn stones(v: &Value) -> Vec<(u8, u8, Color)> {
    let mut out = Vec::new();
    for (key, c) in [("black", Color::Black), ("white", Color::White)] {
        for s in v["board"][key].as_array().unwrap() {
            out.push((s["col"].as_u64().unwrap() as u8, s["row"].as_u64().unwrap() as u8, c));
        }
    }
    out.sort_by_key(|s| (s.1, s.0));
    out
}

#[test]
fn sgf_games_snapshot_their_final_position() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let (mut checked, mut illegal, mut writer, mut out) = (0, 0, Writer::new(), Vec::new());
    let mut failures = Vec::new();
    for f in common::files(&dir, &[".sgf"]) {
        let bytes = kifu::input::prepare(&std::fs::read(&f).unwrap()).into_owned();
        let bump = Bump::new();
        for t in trees(&bump, kifu::sgf::Reader::new(&bytes)).iter().filter(|t| !is_shogi(t)) {
            out.clear();
            writer.write(t, &mut out).unwrap();
            let v: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let Some(want) = final_position(t) else {
                illegal += 1;
                continue;
            };
            checked += 1;
            if stones(&v) != want {
                failures.push(f.display().to_string());
            }
        }
    }
    eprintln!("{checked} final positions checked, {illegal} games with a move kifu::position refuses");
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    assert!(checked > 5000, "{checked}");
    assert!(failures.is_empty(), "{} differ", failures.len());
}
