//! Allocations of `kifu::dialect::Normalize` (its own test binary: the counting allocator is
//! global): over many Fox, OGS and IGS games one after another in one slice, nothing is
//! allocated after each kind's first game — the held events and the ready queue are reused —
//! beyond what the reader itself allocates (measured without the normaliser).

mod common;

use kifu::dialect::Normalize;
use kifu::Event;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// Allocations while pulling every event of `bytes`, counted from the end of the `warm`-th
/// game.
fn allocations(bytes: &[u8], normalize: bool, warm: usize) -> (u64, usize) {
    let store = bumpalo::Bump::new();
    let reader = kifu::sgf::Reader::new(bytes);
    let it: Box<dyn Iterator<Item = Result<Event<'_>, kifu::Error>>> =
        if normalize { Box::new(Normalize::with_store(reader, &store)) } else { Box::new(reader) };
    let (mut games, mut from, mut warnings) = (0, None, 0);
    for item in it {
        match item.expect("reads") {
            Event::GameEnd { .. } => {
                games += 1;
                if games == warm {
                    from = Some(common::alloc::allocations());
                }
            }
            Event::Warning(_) => warnings += 1,
            _ => {}
        }
    }
    (common::alloc::allocations() - from.expect("enough games"), warnings)
}

#[test]
fn no_allocation_after_the_first_games() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let mut one = Vec::new();
    for f in ["katrain-ogs.sgf", "katago-foxlike.sgf", "katrain-panda1.sgf", "katrain-fox_sgf_works.sgf"] {
        one.extend_from_slice(&std::fs::read(dir.join(f)).unwrap());
        one.push(b'\n');
    }
    // A Fox handicap game without its stones, with a dotted date (the store's one date).
    one.extend_from_slice("(;GM[1]SZ[19]DT[2016.10.25 12:30]BR[9段]KM[375]HA[4]AP[foxwq];W[qq];B[cc])\n".as_bytes());
    let mut all = Vec::new();
    for _ in 0..50 {
        all.extend_from_slice(&one);
    }
    let (reader_only, _) = allocations(&all, false, 5);
    let (normalized, warnings) = allocations(&all, true, 5);
    assert!(warnings >= 50 * 10, "the rules fired: {warnings} warnings");
    assert_eq!(normalized, reader_only, "the normaliser allocated after the first games");
}
