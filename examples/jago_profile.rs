//! The Jago bench's workload as a plain program, for `valgrind --tool=callgrind`: every game of
//! converted/xml-gogui in one document, read once by the bare quick-xml loop (`bare_quick_xml`)
//! and once by kifu's reader (`kifu_events`); compare their instruction counts with
//! `--toggle-collect='*bare_quick_xml*'` and `--toggle-collect='*kifu_events*'`.
//!
//! Then the same per file (`bare_per_file`, `kifu_per_file`; `ONE_DOCUMENT=1` leaves this out,
//! e.g. to count `kifu_events` for the one document alone).
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

#[inline(never)]
fn bare_per_file(files: &[Vec<u8>]) -> u64 {
    files.iter().map(|f| bare_quick_xml(f)).sum()
}

#[inline(never)]
fn kifu_per_file(files: &[Vec<u8>]) -> u64 {
    files.iter().map(|f| kifu_events(f)).sum()
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
    let files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let mut doc = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    for bytes in &files {
        let s = memchr::memmem::find(bytes, b"<GoGame").unwrap();
        let e = memchr::memmem::rfind(bytes, b"</GoGame>").unwrap() + 9;
        doc.extend_from_slice(&bytes[s..e]);
        doc.push(b'\n');
    }
    doc.extend_from_slice(b"</Go>\n");
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    // Rounds alternate between the two readers; the fastest round of each is reported (the
    // machine is shared: the minimum is the least disturbed).
    let best = |f: &dyn Fn() -> u64| {
        let t = std::time::Instant::now();
        black_box(f());
        t.elapsed().as_secs_f64()
    };
    let (mut bare, mut ours, mut bare_pf, mut ours_pf) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds {
        bare = bare.min(best(&|| bare_quick_xml(black_box(&doc))));
        ours = ours.min(best(&|| kifu_events(black_box(&doc))));
        if std::env::var_os("ONE_DOCUMENT").is_none() {
            bare_pf = bare_pf.min(best(&|| bare_per_file(black_box(&files))));
            ours_pf = ours_pf.min(best(&|| kifu_per_file(black_box(&files))));
        }
    }
    let mb = doc.len() as f64 / 1e6;
    println!(
        "one document, {} bytes: bare quick-xml {:.1} MB/s, kifu {:.1} MB/s ({:.0}%)",
        doc.len(),
        mb / bare,
        mb / ours,
        bare / ours * 100.0
    );
    let mb = files.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    println!(
        "per file: bare quick-xml {:.1} MB/s, kifu {:.1} MB/s ({:.0}%)",
        mb / bare_pf,
        mb / ours_pf,
        bare_pf / ours_pf * 100.0
    );
}
