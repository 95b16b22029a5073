//! Guards the Jago XML and CSA readers' speed work: a digest of every item (event or error),
//! its `event_offset`, and every `skip_game` result, over the corpus folders converted/xml-gogui,
//! converted/csa-cshogi and csa/, read leniently and strictly. The expected digests were recorded
//! before the readers' hot paths were rewritten; a change of any event, offset, warning or error
//! changes them. (They depend on the corpus: if it grows, record them again from a commit known
//! to be right.)

mod common;

use kifu::{Config, EventSource};
use std::path::Path;

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Every item of `r` (its `Debug` text: the event with its borrowed bytes, or the error with its
/// kind, position and message) and the offset after it, then `(items, errors)`.
fn digest_items(h: &mut Fnv, r: &mut dyn EventSource) -> (u64, u64) {
    let (mut n, mut errors) = (0u64, 0u64);
    while let Some(item) = r.next_event() {
        n += 1;
        errors += item.is_err() as u64;
        h.write(format!("{item:?}").as_bytes());
        let offset = r.event_offset();
        h.write(format!("@{offset:?};").as_bytes());
        if n > 50_000_000 {
            panic!("no end");
        }
    }
    (n, errors)
}

/// The `skip_game` answers of `r` until it returns `false` or fails.
fn digest_skips(h: &mut Fnv, r: &mut dyn EventSource) {
    for _ in 0..1_000_000 {
        let s = r.skip_game();
        h.write(format!("{s:?}").as_bytes());
        if !matches!(s, Ok(true)) {
            return;
        }
    }
}

/// Opens a reader of one format on a file's bytes.
type Open = fn(&[u8], Config) -> Box<dyn EventSource + '_>;

fn digest(dir: &Path, ext: &str, open: Open) -> (String, u64, u64) {
    let mut h = Fnv::new();
    let (mut items, mut errors) = (0, 0);
    for p in common::files(dir, &[ext]) {
        let bytes = std::fs::read(&p).unwrap();
        h.write(p.file_name().unwrap().to_string_lossy().as_bytes());
        for config in [Config::default(), Config::strict()] {
            let (n, e) = digest_items(&mut h, &mut *open(&bytes, config));
            items += n;
            errors += e;
        }
        digest_skips(&mut h, &mut *open(&bytes, Config::default()));
    }
    (format!("{:016x}", h.0), items, errors)
}

fn csa(bytes: &[u8], config: Config) -> Box<dyn EventSource + '_> {
    Box::new(kifu::csa::Reader::with_config(bytes, config))
}

fn jago(bytes: &[u8], config: Config) -> Box<dyn EventSource + '_> {
    Box::new(kifu::jago::Reader::with_config(bytes, config))
}

fn check(sub: &str, ext: &str, open: Open, expected: &str) {
    let Some(dir) = common::corpus_dir(sub) else { return };
    let (d, items, errors) = digest(&dir, ext, open);
    eprintln!("{sub}: digest {d}, {items} items, {errors} errors");
    assert_eq!(d, expected, "{sub}: events, offsets, warnings or errors changed");
}

#[test]
fn jago_xml_gogui_events_unchanged() {
    check("converted/xml-gogui", ".xml", jago, "f6a90a6ae95995d1");
}

#[test]
fn csa_cshogi_events_unchanged() {
    check("converted/csa-cshogi", ".csa", csa, "71734dfd5e8b5b14");
}

#[test]
fn csa_folder_events_unchanged() {
    check("csa", ".csa", csa, "a0b635b4e4c8157a");
}

/// The evaluation of a `'**` line as the in-place path reads it (after the first move) and as
/// the statement path does (before the turn line, where the in-place path does not run).
#[test]
fn in_place_evaluations_agree_with_statements() {
    use kifu::Event;
    let eval = |input: &[u8]| {
        let evs: Vec<_> = kifu::csa::Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap();
        evs.into_iter()
            .filter_map(|e| if let Event::Evaluation(x) = e { Some((x.score, x.pv.to_vec())) } else { None })
            .collect::<Vec<_>>()
    };
    let lines: &[&[u8]] = &[
        b"'** 67",
        b"'**67",
        b"'**\t-67\t",
        b"'** +5 -3334FU +2625FU",
        b"'** 123456789 +7776FU",
        b"'** 1234567890 +7776FU",
        b"'** 2147483648",
        b"'** -0",
        b"'** 12x",
        b"'** 12.5",
        b"'** -",
        b"'**",
        b"'**  ",
        b"'** 7   ",
        b"'** 7 \t +7776FU  ",
        b"'** 99 #12345",
    ];
    for line in lines {
        for end in [&b"\n"[..], b"\r\n", b"\r", b""] {
            let mut slow = b"PI\n".to_vec();
            slow.extend_from_slice(line);
            slow.extend_from_slice(b"\n+\n+7776FU\n");
            let mut hot = b"PI\n+\n+7776FU\n".to_vec();
            hot.extend_from_slice(line);
            hot.extend_from_slice(end);
            let want = eval(&slow);
            assert_eq!(want.len(), 1);
            assert_eq!(eval(&hot), want, "{:?}", String::from_utf8_lossy(line));
        }
    }
}
