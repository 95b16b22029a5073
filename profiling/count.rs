//! Counts games, nodes, moves, warnings and errors in the files given on the command line.
//!
//! `cargo run --release --example count -- FILE...`
use kifu::{Event, EventSource};

fn main() {
    let (mut games, mut nodes, mut moves, mut warnings, mut errors, mut bytes) = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let start = std::time::Instant::now();
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).expect("read");
        bytes += data.len() as u64;
        let data = kifu::input::prepare(&data);
        let mut r = kifu::sgf::Reader::new(&data);
        while let Some(ev) = r.next_event() {
            match ev {
                Ok(Event::GameStart { .. }) => games += 1,
                Ok(Event::Node) => nodes += 1,
                Ok(Event::Move(_)) => moves += 1,
                Ok(Event::Warning(w)) => {
                    warnings += 1;
                    if std::env::var_os("VERBOSE").is_some() {
                        eprintln!("{path}: warning {:?}", w);
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    errors += 1;
                    eprintln!("{path}: {e}");
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "games {games} nodes {nodes} moves {moves} warnings {warnings} errors {errors} bytes {bytes} {:.1} MB/s",
        bytes as f64 / secs / 1e6
    );
}
