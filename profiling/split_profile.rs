//! Reads the files named on the command line through the SGF splitter and the chunk reader, ten
//! times, pulling every event (a profiling target: `perf record` this example).

use kifu::{Config, EventSource, Format};

fn main() {
    let mut data = Vec::new();
    for p in std::env::args().skip(1) {
        data.extend_from_slice(&std::fs::read(p).unwrap());
    }
    let t = std::time::Instant::now();
    let mut slice = 0u64;
    for _ in 0..10 {
        let mut r = kifu::sgf::Reader::new(&data);
        while let Some(item) = r.next_event() {
            slice += item.is_ok() as u64;
        }
    }
    let slice_time = t.elapsed();
    let t = std::time::Instant::now();
    let mut events = 0u64;
    for _ in 0..10 {
        let mut split = kifu::sgf::Splitter::new(&data[..], Config::default());
        while let Some(chunk) = split.next_game() {
            let chunk = chunk.unwrap();
            let mut r = kifu::stream::read_chunk(Format::Sgf, &chunk, Config::default());
            while let Some(item) = r.next_event() {
                events += item.is_ok() as u64;
            }
        }
    }
    println!(
        "{events} events through the splitter in {:?}; {slice} events from the slice in {slice_time:?}",
        t.elapsed()
    );
}
