//! The peers' readers as whole processes, for `kifu stats` to be timed against in one run:
//! `cargo run --release --example peers -- PEER FILE...` reads every file whole and parses it
//! with that peer, printing the games (or documents, or lines) it read.
//!
//! | PEER | what it runs |
//! |---|---|
//! | `sgf-parse` | `sgf_parse::parse` on each file (SGF) |
//! | `serde-json` | `serde_json::from_slice::<Value>` on each file (JGF, Go JSON, JKF) |
//! | `quick-xml` | a bare `quick_xml::Reader` loop to the end of each file (Jago XML) |
//! | `csa` | the `csa` crate's `parse_csa` on each file (CSA) |
//! | `memchr` | `memchr::memchr_iter(b';', …)` over each file: the floor of any SGF reader |
//!
//! A directory argument is walked (its regular files, sorted).

use std::path::{Path, PathBuf};

fn files(args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if p.is_dir() {
            let mut stack = vec![p.to_path_buf()];
            while let Some(d) = stack.pop() {
                let mut entries: Vec<_> = std::fs::read_dir(&d).unwrap().flatten().map(|e| e.path()).collect();
                entries.sort();
                for e in entries {
                    if e.is_dir() {
                        stack.push(e);
                    } else {
                        out.push(e);
                    }
                }
            }
        } else {
            out.push(p.to_path_buf());
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((peer, paths)) = args.split_first() else {
        eprintln!("usage: peers sgf-parse|serde-json|quick-xml|csa|memchr FILE|DIR...");
        std::process::exit(2);
    };
    let (mut read, mut failed, mut bytes) = (0u64, 0u64, 0usize);
    let mut buf = Vec::new();
    for f in files(paths) {
        buf.clear();
        if let Ok(mut file) = std::fs::File::open(&f) {
            let _ = std::io::Read::read_to_end(&mut file, &mut buf);
        }
        bytes += buf.len();
        let n: Option<u64> = match peer.as_str() {
            "sgf-parse" => {
                std::str::from_utf8(&buf).ok().and_then(|t| sgf_parse::parse(t).ok()).map(|g| g.len() as u64)
            }
            "serde-json" => serde_json::from_slice::<serde_json::Value>(&buf).ok().map(|_| 1),
            "quick-xml" => {
                let mut r = quick_xml::Reader::from_reader(&buf[..]);
                let mut scratch = Vec::new();
                let mut elements = 0u64;
                loop {
                    match r.read_event_into(&mut scratch) {
                        Ok(quick_xml::events::Event::Eof) => break Some(elements),
                        Ok(quick_xml::events::Event::Start(_)) => elements += 1,
                        Ok(_) => {}
                        Err(_) => break None,
                    }
                    scratch.clear();
                }
            }
            "csa" => std::str::from_utf8(&buf).ok().and_then(|t| csa::parse_csa(t).ok()).map(|_| 1),
            "memchr" => Some(memchr::memchr_iter(b';', &buf).count() as u64),
            other => {
                eprintln!("unknown peer {other}");
                std::process::exit(2);
            }
        };
        match n {
            Some(n) => read += n,
            None => failed += 1,
        }
    }
    println!("{peer}: {read} read, {failed} files failed, {bytes} bytes");
}
