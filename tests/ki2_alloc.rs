//! Allocations while reading KI2 from a slice, with a counting global allocator (its own test
//! binary, because the allocator is global): after the first game, only the growth of the
//! reader's layout tables for a game with more variations than any before it.

mod common;

use kifu::{Event, EventSource};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

#[test]
fn no_allocation_after_the_first_game_but_table_growth() {
    let Some(dir) = common::corpus_dir("ki2/tsshogi") else { return };
    // The generated UTF-8 games, one after another in one slice (their header lines part them).
    let mut all = Vec::new();
    for p in common::files(&dir, &[".ki2u"]) {
        all.extend_from_slice(&std::fs::read(p).unwrap());
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    let mut r = kifu::ki2::Reader::new(&all);
    let (mut games, mut n, mut after_first) = (0, 0u64, None);
    while let Some(ev) = r.next_event() {
        match ev.expect("generated games read without errors") {
            Event::GameEnd { .. } => {
                games += 1;
                after_first.get_or_insert_with(common::alloc::allocations);
            }
            Event::Comment(t) => n += t.raw().len() as u64,
            Event::Info(i) => n += i.value().raw().len() as u64,
            Event::Warning(w) => panic!("{w:?}"),
            _ => n += 1,
        }
    }
    let allocs = common::alloc::allocations() - after_first.unwrap();
    eprintln!("{games} games, {allocs} allocations after the first");
    assert_eq!(games, 150);
    assert!(n > 0);
    // Each of the reader's four tables grows by doubling: a handful of allocations in all.
    assert!(allocs <= 16, "{allocs} allocations after the first game");
}
