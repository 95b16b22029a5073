//! The USI reader's output pinned by a digest: every event (its Debug text), the offset the
//! reader gives for it, every warning and error, in lenient and strict mode and with small
//! limits, over every file of `usi/` (all its folders): each whole file, its prefixes (cut at
//! every 61st byte: a token or line cut anywhere), copies with bytes changed at random places
//! (a space, a `+`, a `*`, a letter or digit out of range, a line end: the slow paths), all
//! the files in one slice with blank, junk and CRLF lines between them, and the splitter's
//! chunks of that slice. A speed change to the reader must leave these digests as they are; a
//! change of behaviour updates them on purpose.

mod common;

use common::rng::XorShift;
use kifu::{Config, EventSource, Limits};

/// FNV-1a, 64 bits: stable across Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The configurations every input is read with: lenient, strict, and lenient with limits a
/// real game reaches (40 moves, 300 bytes a game).
fn configs() -> [Config; 3] {
    let small = Limits::default().with_max_nodes(40).with_max_game_len(300);
    [Config::default(), Config::strict(), Config::default().with_limits(small)]
}

/// Counts of what was hashed: events, errors.
#[derive(Default, Debug, PartialEq, Eq, Clone, Copy)]
struct Counts {
    events: u64,
    errors: u64,
}

/// Every event, offset and error of `input` read with each configuration, hashed; with
/// `skip`, every third game is skipped after its `GameStart` (the `skip_game` path).
fn read_all(h: &mut Fnv, input: &[u8], skip: bool, n: &mut Counts) {
    for config in configs() {
        let mut r = kifu::usi::Reader::with_config(input, config);
        let mut games = 0u64;
        // Errors end a game and the reader resumes: bound the pulls in case it did not.
        for _ in 0..1 << 22 {
            let Some(item) = r.next_event() else { break };
            match item {
                Ok(e) => {
                    n.events += 1;
                    h.add(format!("{e:?}").as_bytes());
                    if matches!(e, kifu::Event::GameStart { .. }) {
                        games += 1;
                        if skip && games % 3 == 0 {
                            h.add(format!("skip {:?}", r.skip_game()).as_bytes());
                        }
                    }
                }
                Err(e) => {
                    n.errors += 1;
                    h.add(format!("error {:?} {e}", e.kind()).as_bytes());
                }
            }
            h.add(format!("@{:?}", r.event_offset()).as_bytes());
        }
        h.add(format!("| {}", r.games()).as_bytes());
    }
}

/// The bytes a mutation puts in: each path of the token reader has one that leads to it.
const MUTANTS: &[u8] = b" \t+*PKpG0j1a9i\n\r-x\xff";

/// A copy of `bytes` with a few bytes changed or removed at random places.
fn mutate(bytes: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..1 + rng.next() % 3 {
        if out.is_empty() {
            break;
        }
        let at = (rng.next() % out.len() as u64) as usize;
        match rng.next() % 4 {
            0 => {
                out.remove(at);
            }
            _ => out[at] = MUTANTS[(rng.next() % MUTANTS.len() as u64) as usize],
        }
    }
    out
}

/// The digest of the whole `usi/` folder, and its counts.
fn digest() -> Option<(u64, Counts)> {
    let dir = common::corpus_dir("usi")?;
    let mut h = Fnv::new();
    let mut n = Counts::default();
    let mut rng = XorShift::new(23);
    let mut all = Vec::new();
    for (k, path) in common::files(&dir, &[""]).iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        h.add(path.strip_prefix(&dir).unwrap().to_string_lossy().as_bytes());
        read_all(&mut h, &bytes, false, &mut n);
        for cut in (1..bytes.len()).step_by(61) {
            read_all(&mut h, &bytes[..cut], false, &mut n);
        }
        for _ in 0..8 {
            read_all(&mut h, &mutate(&bytes, &mut rng), false, &mut n);
        }
        // One slice of every file, with what may come between games.
        all.extend_from_slice(&bytes);
        match k % 5 {
            0 => all.extend_from_slice(b"\n\n"),
            1 => all.extend_from_slice(b"\njunk between games\n"),
            2 => all.extend_from_slice(b"\r\n  \t \r\n"),
            _ => all.push(b'\n'),
        }
    }
    read_all(&mut h, &all, false, &mut n);
    read_all(&mut h, &all, true, &mut n);
    for chunk in kifu::usi::chunks(&all) {
        h.add(format!("chunk {} {} {}:{}", chunk.offset, chunk.bytes.len(), chunk.line, chunk.column).as_bytes());
    }
    Some((h.0, n))
}

#[test]
fn usi_reader_output_is_pinned() {
    let Some((hash, n)) = digest() else { return };
    eprintln!("usi digest {hash:#018x}, {n:?}");
    // (0x61a8_4994_99cb_cead until moves the board refuses became `IllegalMove` warnings, not
    // `BadValue`: the same events and errors; 0xc233_da5b_8a90_b061 until the strict error of a
    // refused move said how many moves after it were not read: the same events and errors.)
    assert_eq!((hash, n.events, n.errors), (0xa87d_d745_8f63_b019, 3_368_197, 287_305), "got {hash:#x}");
}

/// Pulls every event of `input` (the profiled function: `--toggle-collect='*drain_usi*'`).
#[inline(never)]
fn drain_usi(input: &[u8]) -> u64 {
    let mut r = kifu::usi::Reader::new(input);
    let mut n = 0;
    while let Some(ev) = r.next_event() {
        n += 1 + ev.is_err() as u64;
    }
    n
}

/// A profile's workload, not a test: every file of `usi/` (all folders) in one slice, read
/// `ROUNDS` times (1 unless set). Instructions per byte:
/// `valgrind --tool=callgrind --toggle-collect='*drain_usi*' target/release/deps/usi_digest-*
/// --ignored --exact usi_read_once --nocapture`, the total over the bytes it prints.
#[test]
#[ignore = "a profile's workload, not a test: run by hand"]
fn usi_read_once() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let mut all = Vec::new();
    for p in common::files(&dir, &[".usi", ".sfen"]) {
        all.extend_from_slice(&std::fs::read(p).unwrap());
        if !all.ends_with(b"\n") {
            all.push(b'\n');
        }
    }
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut events = 0;
    for _ in 0..rounds {
        events += drain_usi(std::hint::black_box(&all));
    }
    eprintln!("{} bytes x {rounds}, {events} events", all.len());
    assert!(events > 0);
}
