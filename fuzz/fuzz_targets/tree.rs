//! Arbitrary bytes through the SGF reader into trees: no panic, the stream's contract
//! (`kifu::kit`), tree invariants, the canonical SGF reads back as the same game, the main line
//! agrees with the tree, no panic in strict mode, the Go game JSON snapshot's loss counts bounded
//! by the tree's events.
#![no_main]

use bumpalo::Bump;
use kifu::tree::{self, Builder, GameTree, MainLine, Step, Writer};
use kifu::{Config, Event, EventSource};
use libfuzzer_sys::fuzz_target;

fn check(t: &GameTree<'_>, w: &mut Writer) {
    for n in t.nodes().skip(1) {
        assert!(t.parent(n).unwrap() < n);
    }
    let mut open = 0i64;
    for s in t.walk() {
        open += if let Step::Enter(_) = s { 1 } else { -1 };
        assert!(open >= 0);
    }
    assert_eq!(open, 0);
    let kids: usize = t.nodes().map(|n| t.children(n).count()).sum();
    assert_eq!(kids, t.len() - 1);
    let (mut out, mut repairs) = (Vec::new(), Vec::new());
    w.sgf_with_repairs(t, &mut out, &mut repairs).unwrap();
    // A repaired game differs where it was repaired.
    if repairs.is_empty() {
        let bump = Bump::new();
        let back = tree::build(&bump, &mut kifu::sgf::Reader::new(&out)).unwrap().unwrap();
        assert!(t.canonical_eq(&back), "{:?}", t.canonical_diff(&back));
    }
    out.clear();
    w.moves(t, &mut out);
    // The Go game JSON snapshot: written (or refused), and what it counts as left out is at
    // most every event of the tree.
    let mut snapshot = kifu::gocaml::write::Writer::new();
    out.clear();
    if snapshot.write(t, &mut out).is_ok() {
        let events: u64 = t.nodes().map(|n| t.events(n).count() as u64).sum();
        assert!(snapshot.off_main() + snapshot.unwritten() <= events);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Builder::new();
    let mut w = Writer::new();
    let mut counts = [0usize; 2];
    let mut paths = Vec::new();
    let mut errors = 0;
    for (k, config) in [Config::default(), Config::strict()].into_iter().enumerate() {
        kifu::kit::check_contract(data, &mut kifu::sgf::Reader::with_config(data, config), k == 1);
        let mut r = kifu::sgf::Reader::with_config(data, config);
        for _ in 0..100_000 {
            let bump = Bump::new();
            match b.build(&bump, &mut r) {
                Ok(Some(t)) => {
                    assert!(t.offset() <= data.len() as u64);
                    check(&t, &mut w);
                    counts[k] += 1;
                    if k == 0 {
                        paths.push(t.main_line().flat_map(|n| t.moves(n)).collect::<Vec<_>>());
                    }
                }
                Ok(None) => break,
                Err(_) => errors += (k == 0) as usize,
            }
        }
    }
    // Strict mode stops each broken game at its first problem and skips the rest of it, so it
    // never builds more games than lenient mode.
    assert!(counts[1] <= counts[0], "strict {} > lenient {}", counts[1], counts[0]);
    // Without errors, the main-line adapter gives each tree's first path (or a subsequence:
    // events that come back to a main-line node after a `)` are dropped by the adapter).
    if errors == 0 {
        let mut main = MainLine::new(kifu::sgf::Reader::new(data));
        let mut moves = Vec::new();
        let mut game = 0;
        while let Some(ev) = main.next_event() {
            match ev.unwrap() {
                Event::Move(m) => moves.push(m),
                Event::GameEnd { .. } => {
                    let path = &paths[game];
                    let mut rest = path.iter();
                    assert!(moves.iter().all(|m| rest.any(|p| p == m)), "a subsequence of the path");
                    moves.clear();
                    game += 1;
                }
                _ => {}
            }
        }
        assert_eq!(game, paths.len());
    }
});
