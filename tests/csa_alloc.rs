//! Zero allocations after the first game: reading the CSA corpus from slices with a counting
//! global allocator. Its own test binary, because the allocator is global.

mod common;

use kifu::{Event, EventSource};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Reads every event (and looks at every text's raw bytes, time and evaluation) of `bytes`.
fn read_all(bytes: &[u8]) -> u64 {
    let mut r = kifu::csa::Reader::new(bytes);
    let mut n = 0u64;
    while let Some(ev) = r.next_event() {
        match ev.expect("corpus files read without errors") {
            Event::Comment(t) => n += t.raw().len() as u64,
            Event::Clock(c) => n += c.value,
            Event::Evaluation(e) => n += e.pv.len() as u64,
            Event::Info(i) => n += i.value().raw().len() as u64,
            _ => n += 1,
        }
    }
    n
}

#[test]
fn no_allocation_after_the_first_game() {
    let Some(corpus) = common::corpus() else { return };
    // UTF-8 files of every shape (single games, multi-game files, V3.0) and the Shift_JIS ones.
    let mut paths = common::files(&corpus.join("converted/csa-cshogi"), &[".csa"]);
    paths.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]));
    paths.extend(common::files(&corpus.join("csa"), &[".csa"]));
    let files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    // The first game (warms up anything lazy, e.g. charset tables).
    let mut total = read_all(&files[0]);
    let mut per_file_allocs = Vec::new();
    for (p, f) in paths.iter().zip(&files).skip(1) {
        ALLOCS.store(0, Ordering::Relaxed);
        COUNTING.store(true, Ordering::Relaxed);
        total += read_all(f);
        COUNTING.store(false, Ordering::Relaxed);
        let n = ALLOCS.load(Ordering::Relaxed);
        if n > 0 {
            per_file_allocs.push((p.display().to_string(), n));
        }
    }
    assert!(total > 0);
    // Charset detection of a file that is not UTF-8 and declares nothing runs chardetng, which
    // allocates once per file; every other file reads with no allocation at all.
    let unexpected: Vec<_> = per_file_allocs
        .iter()
        .filter(|(p, _)| !(p.contains("/sjis/") || p.contains("kifujs-2005_YAMADA_GPS") || p.contains("kifujs-chudan")))
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:?}");
}
