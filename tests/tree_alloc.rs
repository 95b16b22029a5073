//! Building trees, writing them and replaying the main line allocate nothing on the heap once
//! the builder's scratch, the reused arena and the output buffers have grown (second pass over
//! the corpus collections, read from slices).

mod common;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

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
        let count = || common::alloc::allocations() as usize;
        for f in files {
            let mut r = kifu::sgf::Reader::new(f);
            let mut stream = kifu::sgf::Reader::new(f);
            loop {
                let c0 = count();
                bump.reset();
                let Some(t) = builder.build(&bump, &mut r).unwrap() else { break };
                let c1 = count();
                games += 1;
                out.clear();
                writer.moves(&t, &mut out);
                let c2 = count();
                writer.sgf(&t, &mut out).unwrap();
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
    let before = common::alloc::allocations() as usize;
    let second = run(&files, &mut phases);
    let after = common::alloc::allocations() as usize;
    assert_eq!(first, second);
    assert_eq!(
        after - before,
        0,
        "allocations in the second pass over {second} games: {phases:?} (build, moves, sgf, main line)"
    );
}
