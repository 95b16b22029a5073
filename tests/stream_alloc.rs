//! The splitter path allocates nothing per game: after the first game, cutting every game of
//! the corpus collections out of an `io::Read` and pulling all its events makes no allocation.

mod common;

use kifu::{Config, EventSource, Format};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

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
            after_first = common::alloc::allocations();
        }
    }
    let extra = common::alloc::allocations() - after_first;
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

/// The same over the collections, whose games declare `CA[UTF-8]` (the label is read per game,
/// by the splitter and by the reader, without allocating).
#[test]
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
