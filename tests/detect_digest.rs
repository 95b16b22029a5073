//! Detection pinned by a digest: every sniffer's answer and [`kifu::detect`]'s choice on the head
//! of every corpus file (all folders, `non-records/` too) and on heads cut inside it (after each
//! of its first lines, in the middle of a line, at a third and two thirds of the head, at every
//! 509th byte: a stream's first read may end anywhere). A speed change to a sniffer or to the
//! detection driver must leave the digest as it is; a change of behaviour updates it on purpose.
//!
//! Set `KIFU_DETECT_DUMP=path` to write one line per head (file, cut, answers) for a diff.

mod common;

use kifu::format::{Confidence, Format, Sniffer, SNIFF_LEN};
use std::fmt::Write as _;

/// Every registered sniffer, by name, in the registry's order.
const SNIFFERS: &[(&str, Sniffer)] = &[
    ("sgf", kifu::sgf::sniff),
    ("jgf2", kifu::jgf::sniff_v2),
    ("jgf1", kifu::jgf::sniff_v1),
    ("gojson", kifu::gocaml::sniff),
    ("jago", kifu::jago::sniff),
    ("gib", kifu::gib::sniff),
    ("ngf", kifu::ngf::sniff),
    ("ugf", kifu::ugf::sniff),
    ("csa", kifu::csa::sniff),
    ("kif", kifu::kif::sniff),
    ("ki2", kifu::ki2::sniff),
    ("usi", kifu::usi::sniff),
    ("jkf", kifu::jkf::sniff),
];

/// FNV-1a, 64 bits: stable across Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The lengths at which `head` is cut: whole, after each of its first eight line ends, in the
/// middle of the first lines, at a third and at two thirds, and at every 509th byte.
fn cuts(head: &[u8]) -> Vec<usize> {
    let mut out = vec![head.len()];
    let mut last = 0;
    for (n, e) in memchr::memchr_iter(b'\n', head).take(8).enumerate() {
        out.push(e + 1);
        if n < 3 {
            out.push((last + e) / 2);
        }
        last = e + 1;
    }
    out.extend([head.len() / 3, head.len() * 2 / 3]);
    out.extend((509..head.len()).step_by(509));
    out.sort_unstable();
    out.dedup();
    out
}

fn letter(c: Confidence) -> char {
    match c {
        Confidence::No => '-',
        Confidence::Maybe => '?',
        Confidence::Yes => 'Y',
    }
}

/// The answers on one head: each sniffer's letter, then the detected format.
fn answers(head: &[u8]) -> String {
    let mut s: String = SNIFFERS.iter().map(|(_, sniff)| letter(sniff(head))).collect();
    let format = kifu::detect(head);
    let _ = write!(s, " {}", format.map_or("none", Format::as_str));
    s
}

#[test]
fn sniffer_table_is_the_registry() {
    // Every format has its sniffer here, so a new format is not left out of the digest.
    assert_eq!(SNIFFERS.len(), Format::ALL.len());
    for (&(name, _), format) in SNIFFERS.iter().zip(Format::ALL) {
        assert_eq!(name, format.as_str());
    }
    // And the table's answers agree with `detect` on a record of each family.
    assert_eq!(answers(b"(;GM[1]FF[4];B[pd])").split(' ').nth(1), Some("sgf"));
    assert_eq!(answers("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n".as_bytes()).split(' ').nth(1), Some("kif"));
}

#[test]
fn detection_on_every_corpus_head() {
    let Some(corpus) = common::corpus() else { return };
    let dump = std::env::var_os("KIFU_DETECT_DUMP");
    let mut text = String::new();
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut files, mut heads) = (0u64, 0u64);
    let mut formats = [0u64; 14];
    for path in common::files(&corpus, &[""]) {
        let bytes = std::fs::read(&path).unwrap();
        let head = &bytes[..bytes.len().min(SNIFF_LEN)];
        let rel = path.strip_prefix(&corpus).unwrap().to_string_lossy().replace('\\', "/");
        h.add(rel.as_bytes());
        for cut in cuts(head) {
            let a = answers(&head[..cut]);
            h.add(&(cut as u64).to_le_bytes());
            h.add(a.as_bytes());
            if cut == head.len() {
                let f =
                    kifu::detect(head).map_or(Format::ALL.len(), |f| Format::ALL.iter().position(|&g| g == f).unwrap());
                formats[f] += 1;
            }
            if dump.is_some() {
                let _ = writeln!(text, "{rel} {cut} {a}");
            }
            heads += 1;
        }
        files += 1;
    }
    if let Some(p) = dump {
        std::fs::write(p, text).unwrap();
    }
    eprintln!("detected on whole heads (registry order, then none): {formats:?}");
    assert_eq!(
        (h.0, files, heads),
        (0xf648_ba31_5bd1_5195, 15416, 242_616),
        "got {:#x}, {files} files, {heads} heads",
        h.0
    );
}
