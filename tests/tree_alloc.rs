//! Building trees, writing them and replaying the main line allocate nothing on the heap once
//! the builder's scratch, the reused arena and the output buffers have grown (second pass over
//! the corpus collections, read from slices).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn no_allocation_after_the_first_pass() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let files: Vec<Vec<u8>> = common::files(&dir, &[".sgf"]).iter().map(|p| std::fs::read(p).unwrap()).collect();
    let mut builder = kifu::tree::Builder::new();
    let mut writer = kifu::tree::Writer::new();
    let mut bump = bumpalo::Bump::new();
    let (mut out, mut line) = (Vec::new(), Vec::new());
    let mut phases = [0usize; 4];
    let mut run = |files: &[Vec<u8>], phases: &mut [usize; 4]| {
        let mut games = 0;
        let count = || ALLOCATIONS.load(Ordering::Relaxed);
        for f in files {
            // The charset is fixed so that the reader does not look up `CA[UTF-8]` per game:
            // `Charset::from_label` allocates (a lower-cased copy of the label), which is the
            // core's to fix; this test is about the tree, the writers and the main line.
            let mut r = kifu::sgf::Reader::new(f).with_charset(kifu::Charset::Utf8);
            let mut stream = kifu::sgf::Reader::new(f).with_charset(kifu::Charset::Utf8);
            loop {
                let c0 = count();
                bump.reset();
                let Some(t) = builder.build(&bump, &mut r).unwrap() else { break };
                let c1 = count();
                games += 1;
                out.clear();
                writer.moves(&t, &mut out);
                let c2 = count();
                writer.sgf(&t, &mut out);
                let c3 = count();
                line.clear();
                assert!(kifu::tree::write_main_line_moves(&mut stream, &mut line).unwrap());
                let c4 = count();
                for (k, d) in [c1 - c0, c2 - c1, c3 - c2, c4 - c3].into_iter().enumerate() {
                    phases[k] += d;
                }
            }
        }
        games
    };
    let first = run(&files, &mut [0; 4]);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let second = run(&files, &mut phases);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(first, second);
    assert_eq!(
        after - before,
        0,
        "allocations in the second pass over {second} games: {phases:?} (build, moves, sgf, main line)"
    );
}
