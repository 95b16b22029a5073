//! Deterministic "mutated corpus" test for the JSON readers: bytes flipped, inserted and
//! deleted with a fixed xorshift seed; every reader in both dialects must not panic, must make
//! progress, keep offsets in bounds, balance its variations, and strict mode must be a prefix of
//! lenient mode.

mod common;

use kifu::json::Dialect;
use kifu::kit::Contract;
use kifu::{Config, Event};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

fn mutate(rng: &mut XorShift, bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    let n = 1 + rng.next() % 4;
    for _ in 0..n {
        if v.is_empty() {
            v.push(b'{');
        }
        let at = (rng.next() % v.len() as u64) as usize;
        let junk = b"{}[],:\"'/\\*0-9eEtrfn .;\n";
        match rng.next() % 4 {
            0 => v[at] ^= 1 << (rng.next() % 8),
            1 => v.insert(at, junk[(rng.next() % junk.len() as u64) as usize]),
            2 => {
                v.remove(at);
            }
            _ => v.truncate(at),
        }
    }
    v
}

type Make = for<'a> fn(&'a [u8], Config, Dialect) -> Box<dyn Iterator<Item = Result<Event<'a>, kifu::Error>> + 'a>;

fn v2<'a>(b: &'a [u8], c: Config, d: Dialect) -> Box<dyn Iterator<Item = Result<Event<'a>, kifu::Error>> + 'a> {
    Box::new(kifu::jgf::v2::Reader::with_dialect(b, c, d))
}
fn v1<'a>(b: &'a [u8], c: Config, d: Dialect) -> Box<dyn Iterator<Item = Result<Event<'a>, kifu::Error>> + 'a> {
    Box::new(kifu::jgf::v1::Reader::with_dialect(b, c, d))
}
fn go<'a>(b: &'a [u8], c: Config, d: Dialect) -> Box<dyn Iterator<Item = Result<Event<'a>, kifu::Error>> + 'a> {
    Box::new(kifu::gocaml::Reader::with_dialect(b, c, d))
}

/// Checks the stream's contract (`kifu::kit`) on one reader's items, and what the JSON readers
/// add (an error's line is at least 1, text decodes); returns the items for comparison.
fn check(make: Make, input: &[u8], config: Config, dialect: Dialect) -> Vec<Result<Event<'_>, String>> {
    let mut items = Vec::new();
    let mut contract = Contract::new(input.len(), config.is_strict());
    for item in make(input, config, dialect) {
        contract.item(item.as_ref());
        match &item {
            Ok(Event::Info(i)) => {
                let _ = i.value().decode();
            }
            Ok(Event::Comment(t) | Event::Name(t)) => {
                let _ = t.decode();
            }
            Err(e) => assert!(e.position().line >= 1),
            _ => {}
        }
        items.push(item.map_err(|e| e.to_string()));
    }
    contract.finish();
    items
}

#[test]
fn mutated_corpus_files() {
    let Some(corpus) = common::corpus() else { return };
    let mut inputs = Vec::new();
    for (dir, make) in [("jgf-v2", v2 as Make), ("jgf-v1", v1 as Make), ("gocaml", go as Make)] {
        for f in common::files(&corpus.join(dir), &[".jgf", ".jgf5", ".js", ".json"]) {
            inputs.push((std::fs::read(f).unwrap(), make));
        }
    }
    for (dir, make) in [("converted/jgf2-seki", v2 as Make), ("converted/jgf1-nggo", v1 as Make)] {
        // A sample: the gnugo files (variations, setup, markup).
        for f in common::files(&corpus.join(dir), &[".jgf"])
            .into_iter()
            .filter(|p| p.to_string_lossy().contains("gnugo-000"))
        {
            inputs.push((std::fs::read(f).unwrap(), make));
        }
    }
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    for (bytes, make) in &inputs {
        let rounds = if bytes.len() > 20_000 { 3 } else { 12 };
        for _ in 0..rounds {
            let m = mutate(&mut rng, bytes);
            for dialect in [Dialect::Strict, Dialect::Lenient] {
                let lenient = check(*make, &m, Config::default(), dialect);
                let strict = check(*make, &m, Config::strict(), dialect);
                // Strict ⊆ lenient: strict mode's items up to its first error are lenient's items
                // up to its first warning or error.
                let l: Vec<_> =
                    lenient.iter().take_while(|i| matches!(i, Ok(e) if !matches!(e, Event::Warning(_)))).collect();
                let s: Vec<_> = strict.iter().take_while(|i| i.is_ok()).collect();
                assert_eq!(s.len().min(l.len()), s.len(), "strict went further than lenient");
                assert_eq!(&l[..s.len()], &s[..]);
                runs += 1;
            }
        }
    }
    assert!(runs > 200, "{runs}");
}

#[test]
fn every_prefix_of_a_small_game_is_handled() {
    let game = br#"{"record":{"version":2},"board":{"size":9},"tree":[{"comments":["a\"b"]},{"move":{"color":"black","x":1,"y":1}},{"variations":[[{"move":{"color":"white","pass":true}}],[{"setup":[{"type":"black","coords":[{"x":0,"y":0}]}]}]]}]}"#;
    for cut in 0..=game.len() {
        for make in [v2 as Make, v1 as Make, go as Make] {
            for dialect in [Dialect::Strict, Dialect::Lenient] {
                check(make, &game[..cut], Config::default(), dialect);
            }
        }
    }
}
