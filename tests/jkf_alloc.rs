//! Allocations while reading JKF from a slice, with a counting global allocator (its own test
//! binary, because the allocator is global): none after the first game but the growth of the
//! reader's event buffer and fork stack for a game larger or deeper than any before it.

mod common;

use kifu::{Event, EventSource};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

#[test]
fn no_allocation_after_the_first_game_but_buffer_growth() {
    let Some(dir) = common::corpus_dir("jkf/tsshogi") else { return };
    // The generated games, one document a line, in one slice; the largest first, so that the
    // buffers that first game sizes fit every later one.
    let mut docs: Vec<Vec<u8>> = common::files(&dir, &[".jkf"]).iter().map(|p| std::fs::read(p).unwrap()).collect();
    docs.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let mut all = Vec::new();
    for d in &docs {
        all.extend_from_slice(d);
        all.push(b'\n');
    }
    let mut r = kifu::jkf::Reader::new(&all);
    let (mut games, mut n, mut after_first) = (0, 0u64, None);
    while let Some(ev) = r.next_event() {
        match ev.expect("generated games read without errors") {
            Event::GameEnd { .. } => {
                games += 1;
                after_first.get_or_insert_with(common::alloc::allocations);
            }
            Event::Comment(t) => n += t.raw().len() as u64,
            Event::Info(i) => n += i.value().raw().len() as u64,
            _ => n += 1,
        }
    }
    let allocs = common::alloc::allocations() - after_first.unwrap();
    eprintln!("{games} games, {allocs} allocations after the first");
    assert_eq!(games, 300);
    assert!(n > 0);
    // The largest game sized the event buffer; no later game has deeper forks.
    assert_eq!(allocs, 0, "{allocs} allocations after the first game");
}
