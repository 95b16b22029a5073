//! Reading a file into a buffer against memory-mapping it (issue 22 asked which wins): walks the
//! folders given, then reads every file `MODE` (`read`: into one buffer per thread, kept between
//! files, as `kifu::stream` reads; `map`: `memmap2`), pulling every event (`WHAT=parse`, the
//! default) or touching a byte in 64 (`WHAT=touch`: the cost of getting the bytes alone), on
//! `THREADS` threads (default 1), and prints the wall and CPU time of that part.
//!
//! `cargo run --release --features parallel --example read_or_map -- map ../shared/corpus/sgf/collections`
//!
//! This program maps files with `unsafe` (a mapped file truncated by another process kills the
//! reader with `SIGBUS`, and one changed under it breaks `&[u8]`'s promise); the library does
//! not, see the `stream::whole` module docs for the figures.

use kifu::EventSource;
use rayon::prelude::*;
use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};

thread_local! {
    static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Every file under `root`, in sorted order.
fn walk(root: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("read_dir").map(|e| e.expect("entry").path()).collect();
        entries.sort();
        for e in entries.into_iter().rev() {
            if e.is_dir() {
                stack.push(e);
            } else {
                out.push(e);
            }
        }
    }
}

/// The events of `bytes` (with `parse`), or a sum of one byte in 64.
fn consume(bytes: &[u8], parse: bool) -> u64 {
    if !parse {
        return bytes.iter().step_by(64).map(|&b| b as u64).sum();
    }
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return 0 };
    let mut n = 0;
    while let Some(ev) = reader.next_event() {
        n += ev.is_ok() as u64;
    }
    n
}

fn one(path: &Path, map: bool, parse: bool) -> u64 {
    let mut file = std::fs::File::open(path).expect("open");
    if map {
        if file.metadata().expect("stat").len() == 0 {
            return 0;
        }
        // SAFETY: nothing else writes or truncates the corpus while this program runs (see the
        // module docs for why the library does not map files).
        let mapped = unsafe { memmap2::Mmap::map(&file) }.expect("mmap");
        consume(&mapped, parse)
    } else {
        BUF.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            file.read_to_end(&mut buf).expect("read");
            consume(&buf, parse)
        })
    }
}

/// The process's CPU time (user and system), in seconds.
fn cpu() -> f64 {
    // SAFETY: `getrusage` writes the struct it is given, which lives for the call.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("read");
    assert!(mode == "read" || mode == "map", "MODE is read or map");
    let threads: usize = std::env::var("THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    let parse = std::env::var("WHAT").map_or(true, |w| w != "touch");
    let mut files = Vec::new();
    for root in &args[1..] {
        walk(Path::new(root), &mut files);
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
    let (start, cpu_start) = (std::time::Instant::now(), cpu());
    let n: u64 = pool.install(|| files.par_iter().with_min_len(8).map(|p| one(p, mode == "map", parse)).sum());
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu() - cpu_start);
    println!(
        "{mode} threads {threads} {}: {} files, {n}, wall {:.2} ms, cpu {:.2} ms",
        if parse { "parse" } else { "touch" },
        files.len(),
        wall * 1e3,
        cpu * 1e3
    );
}
