//! The Jago benchmark's workload, shared by `benches/jago.rs` and `profiling/jago_profile.rs`
//! (which runs it under callgrind): the corpus files, the same games as one document, the bare
//! quick-xml loop and kifu's reader. Not inlined, so that callgrind can count each alone.

use kifu::{Event, EventSource};
use std::path::Path;

/// The files of converted/xml-gogui under `corpus`, sorted by name.
pub fn files(corpus: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<_> = std::fs::read_dir(corpus.join("converted/xml-gogui"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Every `<GoGame>` of `files` in one `<Go>` document.
pub fn one_document(files: &[Vec<u8>]) -> Vec<u8> {
    let mut doc = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Go>\n".to_vec();
    for bytes in files {
        let s = memchr::memmem::find(bytes, b"<GoGame").unwrap();
        let e = memchr::memmem::rfind(bytes, b"</GoGame>").unwrap() + 9;
        doc.extend_from_slice(&bytes[s..e]);
        doc.push(b'\n');
    }
    doc.extend_from_slice(b"</Go>\n");
    doc
}

/// The baseline: quick-xml's `read_event()` from a slice, iterating every element's attributes.
#[inline(never)]
pub fn bare_quick_xml(bytes: &[u8]) -> u64 {
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

/// kifu's Jago reader: every event; returns the number of moves.
#[inline(never)]
pub fn kifu_events(bytes: &[u8]) -> u64 {
    let mut r = kifu::jago::Reader::new(bytes);
    let mut n = 0u64;
    while let Some(item) = r.next_event() {
        if let Event::Move(_) = item.unwrap() {
            n += 1;
        }
    }
    n
}

/// The bare loop, one reader per file.
#[inline(never)]
pub fn bare_per_file(files: &[Vec<u8>]) -> u64 {
    files.iter().map(|f| bare_quick_xml(f)).sum()
}

/// kifu's reader, one per file.
#[inline(never)]
pub fn kifu_per_file(files: &[Vec<u8>]) -> u64 {
    files.iter().map(|f| kifu_events(f)).sum()
}
