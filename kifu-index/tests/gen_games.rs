//! The game generator (`examples/gen_games.rs`) on a small run: 2,000 games from the corpus,
//! each replayed on the library's board without an illegal move, all distinct, and the same
//! games again from the same seed.

#[allow(dead_code)]
#[path = "../examples/gen_games.rs"]
mod gen_games;

use kifu::position::go::{replay, ReplayOptions};
use std::collections::HashSet;

fn corpus() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none_or(|v| v != "true"), "no corpus at {} under CI", dir.display());
    eprintln!("skipped: no corpus at {} (set KIFU_CORPUS)", dir.display());
    None
}

#[test]
fn generated_games_are_legal_and_distinct() {
    let Some(corpus) = corpus() else { return };
    let sources = gen_games::load(&corpus);
    assert!(sources.len() > 1000, "{} source games", sources.len());
    let mut games = Vec::new();
    gen_games::generate(&sources, 2000, 7, |g| games.push(g.to_owned()));
    assert_eq!(games.len(), 2000);
    let distinct: HashSet<&String> = games.iter().collect();
    assert_eq!(distinct.len(), 2000);
    for g in &games {
        let mut reader = kifu::sgf::Reader::new(g.as_bytes());
        let r = replay(&mut reader, &ReplayOptions::default()).unwrap().expect("a game");
        assert!(r.illegal.is_empty(), "{g}: {:?}", r.illegal);
        assert!(r.moves >= 11, "{g}");
    }
    // Deterministic.
    let mut again = Vec::new();
    gen_games::generate(&sources, 2000, 7, |g| again.push(g.to_owned()));
    assert!(again == games);
}
