//! Zero allocations on the hot path: after the first game, reading the SGF corpus from a slice
//! allocates nothing; decoding UTF-8 text without escapes borrows.

mod common;

use kifu::{Event, EventSource};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.load(Ordering::Relaxed)
}

/// Reads every event of `bytes`, touching each value, and returns (games, allocations made
/// after the first game started).
fn read(bytes: &[u8]) -> (u64, u64) {
    let mut r = kifu::sgf::Reader::new(bytes);
    let mut games = 0;
    let mut before = 0;
    let mut sink = 0usize;
    while let Some(ev) = r.next_event() {
        match ev {
            Ok(Event::GameStart { .. }) => {
                games += 1;
                if games == 2 {
                    before = allocs();
                }
            }
            Ok(Event::Info(i)) => sink += i.value().raw().len(),
            Ok(Event::Comment(t)) => sink += t.raw().len(),
            Ok(Event::Warning(w)) => sink += w.offset as usize,
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
    }
    std::hint::black_box(sink);
    let after = if games >= 2 { allocs() - before } else { 0 };
    (games, after)
}

// One test function only: the counter is global to this test binary.
#[test]
fn no_allocation_after_the_first_game() {
    // Decoding UTF-8 without escapes borrows.
    let t = kifu::Text::new("柯洁".as_bytes(), kifu::TextRule::SgfSimpleText, kifu::Charset::Utf8);
    let before = allocs();
    let d = t.decode();
    assert!(matches!(d.text, std::borrow::Cow::Borrowed("柯洁")));
    assert_eq!(allocs(), before);

    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let mut total_games = 0;
    for f in common::files(&dir, &[".sgf"]) {
        let bytes = std::fs::read(&f).unwrap();
        let (games, after_first) = read(&bytes);
        assert_eq!(after_first, 0, "{}: {after_first} allocations after the first game", f.display());
        total_games += games;
    }
    assert_eq!(total_games, 11_257);
    // A collection built from every real-ai game, read from one slice.
    let Some(dir) = common::corpus_dir("sgf/real-ai") else { return };
    let mut all = Vec::new();
    for f in common::files(&dir, &[".sgf"]) {
        all.extend_from_slice(&std::fs::read(&f).unwrap());
        all.push(b'\n');
    }
    let (games, after_first) = read(&all);
    assert_eq!(games, 7259);
    assert_eq!(after_first, 0);
}
