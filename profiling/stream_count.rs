//! Counts the games, moves and warnings of every input named on the command line (`-` for
//! stdin; files, directories, .gz/.bz2/.xz, .zip/.tar archives) through the streams layer, and
//! prints the largest game, the splitter's window and the process's peak memory.
//!
//! ```text
//! cargo run --release --example sgf_gen -- 1100000000 | gzip -1 | \
//!     /usr/bin/time -v cargo run --release --example stream_count -- -
//! ```

use kifu::stream::{self, Splitter as _};
use kifu::{Config, Event, EventSource};

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("-".into());
    }
    let config = Config::default();
    let (mut games, mut moves, mut warnings, mut errors, mut bytes, mut largest) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0usize);
    stream::for_each_input(&paths, |name, input| {
        let input = match input {
            Ok(i) => i,
            Err(e) => return eprintln!("{name}: {e}"),
        };
        let Some(format) = input.format else { return eprintln!("{name}: not a game record") };
        let mut split = kifu::sgf::Splitter::new(input.reader, config);
        while let Some(chunk) = split.next_game() {
            let chunk = match chunk {
                Ok(c) => c,
                Err(e) => {
                    errors += 1;
                    eprintln!("{name}: {e}");
                    continue;
                }
            };
            games += 1;
            bytes += chunk.bytes.len() as u64;
            largest = largest.max(chunk.bytes.len());
            let mut events = stream::read_chunk(format, &chunk, config);
            while let Some(item) = events.next_event() {
                match item {
                    Ok(Event::Move(_)) => moves += 1,
                    Ok(Event::Warning(_)) => warnings += 1,
                    Ok(_) => {}
                    Err(_) => errors += 1,
                }
            }
        }
        eprintln!("{name}: window {} bytes after {} games", split.window_len(), split.games());
        let _ = split.format();
    });
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM")).map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_string())
        })
        .unwrap_or_else(|| "?".into());
    println!(
        "games {games} moves {moves} warnings {warnings} errors {errors} game bytes {bytes} largest game {largest} bytes; peak RSS {peak} kB"
    );
}
