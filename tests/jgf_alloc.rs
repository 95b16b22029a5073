//! Zero allocations after the first game: JGF v2 and v1 read from one slice holding the whole
//! converted corpus (one document per line group), with a counting global allocator.

mod common;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

fn joined(sub: &str) -> Option<(Vec<u8>, usize)> {
    let dir = common::corpus_dir(sub)?;
    let files = common::files(&dir, &[".jgf"]);
    let mut all = Vec::new();
    for f in &files {
        all.extend_from_slice(&std::fs::read(f).unwrap());
        all.push(b'\n');
    }
    Some((all, files.len()))
}

fn check(mut reader: impl Iterator<Item = Result<kifu::Event<'static>, kifu::Error>>, games: usize) {
    // The first game may allocate (the reader's stacks).
    let mut seen = 0;
    for ev in reader.by_ref() {
        if let kifu::Event::GameEnd { .. } = ev.unwrap() {
            seen += 1;
            break;
        }
    }
    let before = common::alloc::allocations();
    let mut events = 0u64;
    for ev in reader {
        match ev {
            Ok(kifu::Event::GameEnd { .. }) => seen += 1,
            Ok(_) => events += 1,
            Err(e) => panic!("{e}"),
        }
    }
    let after = common::alloc::allocations();
    assert_eq!(seen, games);
    assert!(events > 100_000, "{events}");
    assert_eq!(after - before, 0, "allocations after the first game");
}

/// One test, so that no other test thread allocates while counting.
#[test]
fn jgf_readers_allocate_nothing_after_the_first_game() {
    let Some((all, n)) = joined("converted/jgf2-seki") else { return };
    let all: &'static [u8] = Vec::leak(all);
    check(kifu::jgf::v2::Reader::new(all), n);
    let Some((all, n)) = joined("converted/jgf1-nggo") else { return };
    let all: &'static [u8] = Vec::leak(all);
    check(kifu::jgf::v1::Reader::new(all), n);
}
