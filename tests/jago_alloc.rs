//! Allocation counts of the Jago reader, with a counting global allocator: zero allocations after
//! the first game when reading many games from one slice.

mod common;

use kifu::{Event, EventSource};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

fn allocs() -> u64 {
    common::alloc::allocations()
}

/// Every game of converted/xml-gogui in one `<Go>` document.
fn one_document(dir: &std::path::Path) -> Vec<u8> {
    let mut doc = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    for f in common::files(dir, &[".xml"]) {
        let bytes = std::fs::read(&f).unwrap();
        let s = memchr::memmem::find(&bytes, b"<GoGame").unwrap();
        let e = memchr::memmem::rfind(&bytes, b"</GoGame>").unwrap() + 9;
        doc.extend_from_slice(&bytes[s..e]);
        doc.push(b'\n');
    }
    doc.extend_from_slice(b"</Go>\n");
    doc
}

/// The counter is global: the cases run one after the other in one test.
#[test]
fn allocation_counts() {
    no_allocation_after_the_first_game();
    allocations_per_file_reader();
}

fn no_allocation_after_the_first_game() {
    let Some(dir) = common::corpus_dir("converted/xml-gogui") else { return };
    let doc = one_document(&dir);
    let mut reader = kifu::jago::Reader::new(&doc);
    let (mut games, mut events, mut after_first, mut after_100) = (0u64, 0u64, None, None);
    while let Some(item) = reader.next_event() {
        let ev = item.unwrap();
        events += 1;
        if let Event::GameEnd { .. } = ev {
            games += 1;
            if games == 1 {
                after_first = Some(allocs());
            }
            if games == 100 {
                after_100 = Some(allocs());
            }
        }
    }
    let extra = allocs() - after_first.unwrap();
    let extra_100 = allocs() - after_100.unwrap();
    eprintln!(
        "one document: {games} games, {events} events, {extra} allocations after the first game, {extra_100} after \
         the 100th"
    );
    assert_eq!(games, 1148);
    // Nothing allocates after the first game: the reader never does, and quick-xml's buffer of
    // open element names was made room for (128 levels) at the end of the first game.
    assert_eq!(extra, 0);
    assert_eq!(extra_100, 0);
    // skip_game restarts quick-xml after each skipped game (bounded memory): 2 small allocations.
    let mut reader = kifu::jago::Reader::new(&doc);
    assert!(reader.skip_game().unwrap());
    let before = allocs();
    let mut skipped = 1;
    while reader.skip_game().unwrap() {
        skipped += 1;
    }
    let n = allocs() - before;
    eprintln!("skip_game: {skipped} games, {n} allocations");
    assert_eq!(skipped, 1148);
    assert!(n <= 2 * skipped, "{n}");
}

fn allocations_per_file_reader() {
    let Some(dir) = common::corpus_dir("converted/xml-gogui") else { return };
    let files: Vec<Vec<u8>> = common::files(&dir, &[".xml"]).iter().map(|f| std::fs::read(f).unwrap()).collect();
    let before = allocs();
    let mut events = 0u64;
    for bytes in &files {
        let mut reader = kifu::jago::Reader::new(bytes);
        while let Some(item) = reader.next_event() {
            item.unwrap();
            events += 1;
        }
    }
    let n = allocs() - before;
    eprintln!(
        "{} files, {events} events, {n} allocations ({:.1} per file: quick-xml's name stack)",
        files.len(),
        n as f64 / files.len() as f64
    );
    // quick-xml's buffer of open element names grows once per reader; nothing else allocates.
    assert!(n <= 8 * files.len() as u64, "{n}");
}
