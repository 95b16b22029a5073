//! A fixed workload for profiling the JSON readers with callgrind: reads every `*.EXT` file of
//! `DIR` into memory, then runs MODE over each file `ROUNDS` times (default 1). MODE is `jgf2`,
//! `jgf1`, `gojson` (the readers, every event pulled), `tok` (the tokenizer alone), `jiter` (jiter's `next_skip`), `serde`
//! (`serde_json::from_slice::<Value>`) or `none` (loading only, to subtract).
//!
//! `valgrind --tool=callgrind --dump-instr=no target/release/examples/jsonprof jgf2 ../shared/corpus/converted/jgf2-seki jgf`
use kifu::json::{Dialect, Tokenizer};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let mode = a[1].as_str();
    let mut paths: Vec<_> = std::fs::read_dir(&a[2])
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == a[3].as_str()))
        .collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut n = 0u64;
    for f in files.iter().cycle().take(files.len() * rounds) {
        match mode {
            "jgf2" => {
                for e in kifu::jgf::v2::Reader::new(f) {
                    e.unwrap();
                    n += 1
                }
            }
            "jgf1" => {
                for e in kifu::jgf::v1::Reader::new(f) {
                    e.unwrap();
                    n += 1
                }
            }
            "gojson" => {
                for e in kifu::gocaml::Reader::new(f) {
                    e.unwrap();
                    n += 1
                }
            }
            "tok" => {
                let mut t = Tokenizer::new(f, Dialect::Strict, 1 << 16);
                while let Some(x) = t.next_token().unwrap() {
                    std::hint::black_box(x);
                    n += 1
                }
            }
            "serde" => n += serde_json::from_slice::<serde_json::Value>(f).unwrap().is_object() as u64,
            "jiter" => {
                let mut j = jiter::Jiter::new(f);
                j.next_skip().unwrap();
                j.finish().unwrap();
                n += 1;
            }
            "none" => n += std::hint::black_box(f.len()) as u64,
            _ => panic!(),
        }
    }
    eprintln!("{n} items, {bytes} bytes");
}
