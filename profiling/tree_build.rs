//! Builds the tree of every game of the given files `ROUNDS` times (default 3) and prints the
//! throughput of building alone (files are read first). For profiling the tree builder:
//! `cargo run --release --example tree_build -- FILE...`
use kifu::tree::Builder;

fn main() {
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let files: Vec<Vec<u8>> = std::env::args().skip(1).map(|p| std::fs::read(p).expect("read")).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut builder = Builder::new();
    let mut bump = bumpalo::Bump::new();
    let (mut games, mut nodes) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for f in &files {
            let mut r = kifu::sgf::Reader::new(f);
            loop {
                bump.reset();
                match builder.build(&bump, &mut r) {
                    Ok(Some(t)) => {
                        games += 1;
                        nodes += t.len() as u64;
                    }
                    Ok(None) => break,
                    Err(_) => {}
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{games} games, {nodes} nodes, {:.1} MB/s", (bytes * rounds) as f64 / secs / 1e6);
}
