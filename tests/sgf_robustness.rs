//! Robustness of the SGF reader: recovery after corrupt games, limits, hostile nesting and
//! sizes, and a deterministic replay of mutated corpus files.

mod common;

use kifu::kit::Contract;
use kifu::{Config, ErrorKind, Event, EventSource, Limit, Limits};

/// Every game of `bytes` as (start offset, the Debug text of each of its events and errors).
fn games(bytes: &[u8]) -> Vec<(u64, Vec<String>)> {
    let mut r = kifu::sgf::Reader::new(bytes);
    let mut out: Vec<(u64, Vec<String>)> = Vec::new();
    while let Some(ev) = r.next_event() {
        match ev {
            Ok(Event::GameStart { offset }) => out.push((offset, Vec::new())),
            Ok(Event::Warning(w)) => {
                // Warnings carry absolute offsets: make them relative to the game.
                let base = out.last().map_or(0, |g| g.0);
                if let Some(g) = out.last_mut() {
                    g.1.push(format!("warning {:?} +{}", w.kind, w.offset.saturating_sub(base)));
                }
            }
            Ok(ev) => {
                if let Some(g) = out.last_mut() {
                    g.1.push(format!("{ev:?}"));
                }
            }
            Err(e) => {
                if let Some(g) = out.last_mut() {
                    g.1.push(format!("error {:?}", e.kind()));
                }
            }
        }
    }
    out
}

/// The byte ranges of the lines (one game per line) of a collection.
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out
}

#[test]
fn corrupting_one_game_changes_no_other_game() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let bytes = std::fs::read(dir.join("tom-2005-06.sgf")).unwrap();
    let clean = games(&bytes);
    let ls = lines(&bytes);
    assert_eq!(clean.len(), ls.len());
    let n = ls.len();
    // Each corruption: a name and a function from the game's bytes to the corrupted bytes.
    type Corrupt = fn(&[u8]) -> Vec<u8>;
    let corruptions: &[(&str, Corrupt)] = &[
        ("stray open paren", |g| insert(g, g.len() / 2, b"(")),
        ("stray close paren", |g| insert(g, g.len() / 2, b")")),
        ("missing final paren", |g| g[..g.len() - 1].to_vec()),
        ("deleted bracket", |g| {
            let i = g.len() / 2 + g[g.len() / 2..].iter().position(|&b| b == b']').unwrap();
            let mut v = g.to_vec();
            v.remove(i);
            v
        }),
        ("value without ident", |g| insert(g, g.len() / 2, b"[xx]")),
        ("binary junk", |g| insert(g, g.len() / 3, &[0, 0xff, 0xfe, 7, b';', 0x80])),
        ("escaped bracket", |g| {
            let i = g.len() / 2 + g[g.len() / 2..].iter().position(|&b| b == b']').unwrap();
            insert(g, i, b"\\")
        }),
        ("junk property", |g| insert(g, g.len() / 2, b"+-*/ 12")),
        ("nested variations left open", |g| insert(g, g.len() / 2, b"(;B[aa](;W[bb]")),
        ("empty variation", |g| insert(g, g.len() / 2, b"()")),
    ];
    for k in [0, n / 2, n - 1] {
        for (name, corrupt) in corruptions {
            let (s, e) = ls[k];
            let bad_game = corrupt(&bytes[s..e]);
            let delta = bad_game.len() as i64 - (e - s) as i64;
            let mut bad = bytes[..s].to_vec();
            bad.extend_from_slice(&bad_game);
            bad.extend_from_slice(&bytes[e..]);
            let got = games(&bad);
            let (game_lo, game_hi) = (s as u64, (s as i64 + bad_game.len() as i64) as u64);
            // Games that start outside the corrupted range must be exactly the clean ones.
            let others: Vec<(u64, Vec<String>)> = got
                .into_iter()
                .filter(|(o, _)| *o < game_lo || *o >= game_hi)
                .map(|(o, ev)| if o >= game_hi { ((o as i64 - delta) as u64, ev) } else { (o, ev) })
                .collect();
            let expected: Vec<(u64, Vec<String>)> =
                clean.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, g)| g.clone()).collect();
            assert_eq!(others.len(), expected.len(), "{name} in game {k}");
            for (a, b) in others.iter().zip(&expected) {
                assert_eq!(a, b, "{name} in game {k} changed game at {}", b.0);
            }
        }
    }
}

fn insert(g: &[u8], at: usize, what: &[u8]) -> Vec<u8> {
    let mut v = g[..at].to_vec();
    v.extend_from_slice(what);
    v.extend_from_slice(&g[at..]);
    v
}

fn nested(depth: usize) -> Vec<u8> {
    let mut v = b"(;GM[1]".to_vec();
    for _ in 0..depth {
        v.extend_from_slice(b"(;B[aa]");
    }
    v.extend(std::iter::repeat_n(b')', depth + 1));
    v
}

fn big_comment(len: usize) -> Vec<u8> {
    let mut v = b"(;GM[1]C[".to_vec();
    v.resize(v.len() + len, b'x');
    v.extend_from_slice(b"];B[aa])");
    v
}

/// Reads everything; returns (events, the first error's kind).
fn drain(bytes: &[u8], config: Config) -> (u64, Option<ErrorKind>) {
    let mut r = kifu::sgf::Reader::with_config(bytes, config);
    let mut n = 0;
    let mut err = None;
    while let Some(ev) = r.next_event() {
        match ev {
            Ok(_) => n += 1,
            Err(e) => {
                err.get_or_insert(e.kind());
            }
        }
    }
    (n, err)
}

#[test]
fn hostile_sizes_hit_the_default_limits() {
    let (_, err) = drain(&nested(1_000_000), Config::default());
    assert_eq!(err, Some(ErrorKind::LimitExceeded(Limit::Depth)));
    let (_, err) = drain(&big_comment(100 << 20), Config::default());
    assert_eq!(err, Some(ErrorKind::LimitExceeded(Limit::ValueSize)));
}

#[test]
fn raised_limits_read_them_fully_on_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let config = Config::default().with_limits(Limits::unlimited());
            let (n, err) = drain(&nested(1_000_000), config);
            assert_eq!(err, None);
            // GameStart, Node, Info, then per level VariationStart, Node, Move, VariationEnd; GameEnd.
            assert_eq!(n, 3 + 4 * 1_000_000 + 1);
            let (n, err) = drain(&big_comment(100 << 20), config);
            assert_eq!(err, None);
            assert_eq!(n, 7);
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn unterminated_value_at_end_of_input_is_a_clean_error() {
    let input = b"(;GM[1]C[this never ends";
    let mut r = kifu::sgf::Reader::new(input);
    let items: Vec<_> = std::iter::from_fn(|| r.next_event().map(|e| e.map(|e| format!("{e:?}")))).collect();
    let err = items.iter().find_map(|i| i.as_ref().err()).expect("an error");
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(err.position().offset, 8);
    assert_eq!((err.position().line, err.position().column), (1, 9));
    // Nothing follows the error.
    assert!(items.last().unwrap().is_err());
}

/// xorshift64*: a tiny deterministic generator for mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SPECIAL: &[u8] = b"()[];\\:BWAC \n\xff\xe5";

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() + 1);
        match rng.below(4) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] = SPECIAL[rng.below(SPECIAL.len())];
            }
            1 => v.insert(at, SPECIAL[rng.below(SPECIAL.len())]),
            2 if !v.is_empty() => {
                v.remove(at.min(v.len() - 1));
            }
            _ => v.truncate(at),
        }
    }
    v
}

/// The stream's contract (`kifu::kit`: progress, framing, balanced variations, offsets in
/// bounds, a GameStart after an error, no warnings in strict mode) on any input, leniently and
/// strictly; text decodes without panic.
fn check_invariants(data: &[u8]) {
    for strict in [false, true] {
        let config = if strict { Config::strict() } else { Config::default() };
        let mut r = kifu::sgf::Reader::with_config(data, config);
        let mut contract = Contract::new(data.len(), strict);
        while let Some(item) = r.next_event() {
            contract.item(item.as_ref());
            match item {
                Ok(Event::Comment(t)) | Ok(Event::Name(t)) => {
                    t.decode();
                }
                Ok(Event::Info(i)) => {
                    i.value().decode();
                }
                _ => {}
            }
        }
        contract.finish();
    }
}

#[test]
fn mutated_corpus_files_keep_the_invariants() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let files = common::files(&dir, &[".sgf"]);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    for f in files.iter().step_by(7) {
        let bytes = std::fs::read(f).unwrap();
        let bytes = &bytes[..bytes.len().min(64 << 10)];
        for _ in 0..4 {
            check_invariants(&mutate(&mut rng, bytes));
            runs += 1;
        }
    }
    assert!(runs > 1000, "{runs}");
}
