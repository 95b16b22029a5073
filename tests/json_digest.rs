//! The JSON readers' output pinned by a digest: every event of JGF v2, JGF v1 and Go game JSON
//! over their corpus folders (its kind, its Debug text and the byte offsets of the slices it
//! borrows), every error and warning, in lenient and strict mode, on each whole file and on
//! prefixes of it (cut at every 97th byte of the small folders, every 4099th of the converted
//! ones: the error paths). A speed change to the tokenizer or
//! a reader must leave these digests as they are; a change of behaviour updates them on purpose.

mod common;

use kifu::{Config, Event};

/// FNV-1a, 64 bits: stable across Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    fn num(&mut self, n: u64) {
        self.add(&n.to_le_bytes());
    }
}

/// The byte offset of `s` in `input` (`u64::MAX` when it lies outside, e.g. a static slice).
fn offset_in(input: &[u8], s: &[u8]) -> u64 {
    let base = input.as_ptr() as usize;
    let p = s.as_ptr() as usize;
    if s.is_empty() || p < base || p + s.len() > base + input.len() {
        return u64::MAX;
    }
    (p - base) as u64
}

fn event(h: &mut Fnv, input: &[u8], e: &Event<'_>) {
    h.add(e.name().as_bytes());
    h.add(format!("{e:?}").as_bytes());
    let slices: [&[u8]; 2] = match e {
        Event::Info(i) => [i.name(), i.value().raw()],
        Event::Property(p) => [p.name(), p.value().raw()],
        Event::Comment(t) | Event::Name(t) => [t.raw(), &[]],
        Event::Markup(m) => [m.label().raw(), &[]],
        Event::Evaluation(v) => [v.pv, &[]],
        _ => [&[], &[]],
    };
    for s in slices {
        h.num(offset_in(input, s));
        h.num(s.len() as u64);
    }
    if let Event::Warning(w) = e {
        h.add(format!("{:?} {}", w.kind, w.offset).as_bytes());
    }
}

type Open = for<'a> fn(&'a [u8], Config) -> Box<dyn Iterator<Item = Result<Event<'a>, kifu::Error>> + 'a>;

fn read_all(h: &mut Fnv, input: &[u8], open: Open) -> (u64, u64) {
    let (mut events, mut errors) = (0, 0);
    for config in [Config::default(), Config::strict()] {
        // Errors end a game, and the reader may resume: bound the pulls in case it did not.
        for item in open(input, config).take(1 << 22) {
            match item {
                Ok(e) => {
                    events += 1;
                    event(h, input, &e);
                }
                Err(e) => {
                    errors += 1;
                    h.add(format!("error {:?} {e}", e.kind()).as_bytes());
                }
            }
        }
        h.add(b"|");
    }
    (events, errors)
}

fn digest(sub: &str, exts: &[&str], open: Open, cuts: usize) -> Option<(u64, u64, u64)> {
    let dir = common::corpus_dir(sub)?;
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut events, mut errors) = (0, 0);
    for path in common::files(&dir, exts) {
        let bytes = std::fs::read(&path).unwrap();
        h.add(path.file_name().unwrap().to_string_lossy().as_bytes());
        let (e, r) = read_all(&mut h, &bytes, open);
        events += e;
        errors += r;
        if cuts > 0 {
            for cut in (1..bytes.len()).step_by(cuts) {
                let (e, r) = read_all(&mut h, &bytes[..cut], open);
                events += e;
                errors += r;
            }
        }
    }
    Some((h.0, events, errors))
}

fn v2(input: &[u8], config: Config) -> Box<dyn Iterator<Item = Result<Event<'_>, kifu::Error>> + '_> {
    Box::new(kifu::jgf::v2::Reader::with_config(input, config))
}

fn v1(input: &[u8], config: Config) -> Box<dyn Iterator<Item = Result<Event<'_>, kifu::Error>> + '_> {
    Box::new(kifu::jgf::v1::Reader::with_config(input, config))
}

fn gojson(input: &[u8], config: Config) -> Box<dyn Iterator<Item = Result<Event<'_>, kifu::Error>> + '_> {
    Box::new(kifu::gocaml::Reader::with_config(input, config))
}

fn check(sub: &str, exts: &[&str], open: Open, cuts: usize, want: (u64, u64, u64)) {
    let Some(got) = digest(sub, exts, open, cuts) else { return };
    assert_eq!(got, want, "{sub}: digest, events, errors (got {:#x})", got.0);
}

#[test]
fn jgf_v2_spec_files() {
    check("jgf-v2", &[".jgf", ".jgf5", ".js"], v2, 97, (0x41f4384957cec931, 13439, 238));
}

#[test]
fn jgf_v1_spec_files() {
    check("jgf-v1", &[".jgf", ".jgf5"], v1, 97, (0x1a2238341bc98bd1, 24169, 309));
}

#[test]
fn go_game_json() {
    check("gocaml", &[".json"], gojson, 97, (0x99dafb34eb7b56b7, 1328, 512));
}

#[test]
fn converted_jgf_v2() {
    check("converted/jgf2-seki", &[".jgf"], v2, 4099, (0x46e4b4c43f5e08f3, 2957873, 9813));
}

#[test]
fn converted_jgf_v1() {
    check("converted/jgf1-nggo", &[".jgf"], v1, 4099, (0x32956c86a77b0c07, 578917, 1770));
}

/// The JSON sniffers' answers on the head of every corpus file (all folders), pinned the same
/// way: the detector's choice of format must not move when a sniffer gets faster.
#[test]
fn sniffers_on_every_corpus_head() {
    let Some(corpus) = common::corpus() else { return };
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let mut files = 0u64;
    for path in common::files(&corpus, &[""]) {
        let bytes = std::fs::read(&path).unwrap();
        let head = &bytes[..bytes.len().min(kifu::format::SNIFF_LEN)];
        // Also a head cut inside: the sniffers see partial documents in streams.
        for head in [head, &head[..head.len() / 3]] {
            let answers = [kifu::jgf::sniff_v2(head), kifu::jgf::sniff_v1(head), kifu::gocaml::sniff(head)];
            h.add(format!("{answers:?}").as_bytes());
        }
        files += 1;
    }
    assert_eq!((h.0, files), (0x217e_f15f_aa7a_e091, 15416), "got {:#x}", h.0);
}
