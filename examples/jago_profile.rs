//! The Jago bench's workload as a plain program, for `valgrind --tool=callgrind`: every game of
//! converted/xml-gogui in one document, read once by the bare quick-xml loop (`bare_quick_xml`)
//! and once by kifu's reader (`kifu_events`); compare their instruction counts with
//! `--toggle-collect='*bare_quick_xml*'` and `--toggle-collect='*kifu_events*'`.
//!
//! `valgrind --tool=callgrind --toggle-collect='*kifu_events*' target/release/examples/jago_profile`
use kifu::{Event, EventSource};
use std::hint::black_box;
use std::path::PathBuf;

#[inline(never)]
fn bare_quick_xml(bytes: &[u8]) -> u64 {
    let mut r = quick_xml::Reader::from_reader(bytes);
    let mut n = 0u64;
    loop {
        match r.read_event() {
            Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e)) => {
                n += 1;
                for a in e.attributes() {
                    n += a.unwrap().value.len() as u64;
                }
            }
            Ok(quick_xml::events::Event::Eof) => return n,
            Ok(_) => n += 1,
            Err(e) => panic!("{e}"),
        }
    }
}

#[inline(never)]
fn kifu_events(bytes: &[u8]) -> u64 {
    let mut r = kifu::jago::Reader::new(bytes);
    let mut n = 0u64;
    while let Some(item) = r.next_event() {
        if let Event::Move(_) = item.unwrap() {
            n += 1;
        }
    }
    n
}

fn main() {
    let dir = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
        .join("converted/xml-gogui");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    let mut doc = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    for p in &paths {
        let bytes = std::fs::read(p).unwrap();
        let s = memchr::memmem::find(&bytes, b"<GoGame").unwrap();
        let e = memchr::memmem::rfind(&bytes, b"</GoGame>").unwrap() + 9;
        doc.extend_from_slice(&bytes[s..e]);
        doc.push(b'\n');
    }
    doc.extend_from_slice(b"</Go>\n");
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(bare_quick_xml(black_box(&doc)));
    }
    let bare = t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(kifu_events(black_box(&doc)));
    }
    let ours = t.elapsed().as_secs_f64();
    let mb = (doc.len() * rounds) as f64 / 1e6;
    println!(
        "{} bytes; bare quick-xml {:.1} MB/s, kifu {:.1} MB/s ({:.0}%)",
        doc.len(),
        mb / bare,
        mb / ours,
        bare / ours * 100.0
    );
}
