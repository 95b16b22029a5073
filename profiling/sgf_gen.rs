//! Writes an SGF collection of at least N bytes (the first argument; default 1.1 GB) to stdout,
//! generated on the fly by repeating the games of the corpus collections (`$KIFU_CORPUS/sgf/collections`,
//! else `../shared/corpus/sgf/collections`), so that a large stream can be piped through gzip
//! into `stream_count` without writing it to disk.

use std::io::Write;

fn main() {
    let want: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1_100_000_000);
    let corpus = std::env::var_os("KIFU_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let dir = corpus.join("sgf/collections");
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(d) => {
            d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "sgf")).collect()
        }
        Err(_) => return eprintln!("skipped: no corpus at {}", dir.display()),
    };
    files.sort();
    let data: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out.lock());
    let mut written = 0u64;
    while written < want {
        for d in &data {
            if out.write_all(d).and_then(|_| out.write_all(b"\n")).is_err() {
                return;
            }
            written += d.len() as u64 + 1;
        }
    }
    let _ = out.flush();
    eprintln!("wrote {written} bytes");
}
