//! Reads the given files into memory, then pulls every event from each `ROUNDS` times (default 5)
//! and prints the throughput of the reading alone (with `SKIP=1`, of `skip_game` instead).
//!
//! `cargo run --release --example throughput -- FILE...`
use kifu::EventSource;

fn main() {
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let files: Vec<Vec<u8>> = std::env::args().skip(1).map(|p| std::fs::read(p).expect("read")).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let skip = std::env::var_os("SKIP").is_some();
    let mut events = 0u64;
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for f in &files {
            let Some(mut r) = kifu::AnyReader::detect(f, kifu::Config::default()) else { continue };
            if skip {
                while r.skip_game().unwrap_or(false) {
                    events += 1;
                }
            } else {
                while let Some(ev) = r.next_event() {
                    events += ev.is_ok() as u64;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{events} events, {:.1} MB/s", (bytes * rounds) as f64 / secs / 1e6);
}
