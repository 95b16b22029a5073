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
    let mut run = |files: &[Vec<u8>]| {
        let mut games = 0;
        for f in files {
            let mut r = kifu::sgf::Reader::new(f);
            let mut stream = kifu::sgf::Reader::new(f);
            loop {
                bump.reset();
                let Some(t) = builder.build(&bump, &mut r).unwrap() else { break };
                games += 1;
                out.clear();
                writer.moves(&t, &mut out);
                writer.sgf(&t, &mut out);
                line.clear();
                assert!(kifu::tree::write_main_line_moves(&mut stream, &mut line).unwrap());
            }
        }
        games
    };
    let first = run(&files);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let second = run(&files);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(first, second);
    assert_eq!(after - before, 0, "allocations in the second pass over {second} games");
}
