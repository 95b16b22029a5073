//! Allocations while reading GIB, NGF and UGF from a slice, with a counting global allocator (its
//! own test binary, because the allocator is global): none after the first game. Each format's
//! corpus files, one after another in one slice, many times over.

mod common;

use kifu::{Event, EventSource};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// The corpus files of `sub` concatenated `times` times.
fn concatenated(sub: &str, ext: &str, times: usize) -> Option<Vec<u8>> {
    let dir = common::corpus_dir(sub)?;
    let mut one = Vec::new();
    for p in common::files(&dir, &[ext]) {
        one.extend_from_slice(&std::fs::read(p).unwrap());
        if !one.ends_with(b"\n") {
            one.push(b'\n');
        }
    }
    Some(one.repeat(times))
}

/// Reads every event of `r`; returns the games and the allocations after the first game.
fn count(mut r: impl EventSource) -> (usize, u64) {
    let (mut games, mut n, mut after_first) = (0, 0u64, None);
    while let Some(ev) = r.next_event() {
        match ev.expect("corpus games read without errors") {
            Event::GameEnd { .. } => {
                games += 1;
                after_first.get_or_insert_with(common::alloc::allocations);
            }
            Event::Comment(t) => n += t.raw().len() as u64,
            Event::Info(i) => n += i.value().raw().len() as u64,
            _ => n += 1,
        }
    }
    assert!(n > 0);
    (games, common::alloc::allocations() - after_first.unwrap())
}

#[test]
fn gib_allocates_nothing_after_the_first_game() {
    let Some(all) = concatenated("gib", ".gib", 20) else { return };
    let (games, allocs) = count(kifu::gib::Reader::new(&all));
    assert_eq!(games, 200);
    assert_eq!(allocs, 0, "{allocs} allocations after the first game");
}

#[test]
fn ngf_allocates_nothing_after_the_first_game() {
    let Some(all) = concatenated("ngf", ".ngf", 100) else { return };
    let (games, allocs) = count(kifu::ngf::Reader::new(&all));
    assert_eq!(games, 200);
    assert_eq!(allocs, 0, "{allocs} allocations after the first game");
}

#[test]
fn ugf_allocates_nothing_after_the_first_game() {
    let Some(all) = concatenated("ugf", ".ugf", 100) else { return };
    let (games, allocs) = count(kifu::ugf::Reader::new(&all));
    assert_eq!(games, 100);
    assert_eq!(allocs, 0, "{allocs} allocations after the first game");
}
