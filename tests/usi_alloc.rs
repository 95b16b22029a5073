//! Allocations while reading USI from a slice, with a counting global allocator (its own test
//! binary, because the allocator is global): none after the first game, lenient or strict.

mod common;

use kifu::{Config, Event, EventSource};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

#[test]
fn no_allocation_after_the_first_game() {
    let Some(dir) = common::corpus_dir("usi/tsshogi") else { return };
    // The generated games, one line each, in one slice (the dataset layout).
    let mut all = Vec::new();
    for p in common::files(&dir, &[".usi"]) {
        all.extend_from_slice(&std::fs::read(p).unwrap());
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    for config in [Config::default(), Config::strict()] {
        let mut r = kifu::usi::Reader::with_config(&all, config);
        let (mut games, mut moves, mut after_first) = (0, 0u64, None);
        while let Some(ev) = r.next_event() {
            match ev.expect("generated games read without errors") {
                Event::GameEnd { .. } => {
                    games += 1;
                    after_first.get_or_insert_with(common::alloc::allocations);
                }
                Event::Move(_) => moves += 1,
                _ => {}
            }
        }
        let allocs = common::alloc::allocations() - after_first.unwrap();
        eprintln!("{games} games, {moves} moves, {allocs} allocations after the first");
        assert_eq!(games, 300);
        assert!(moves > 300);
        assert_eq!(allocs, 0, "allocations after the first game");
    }
}
