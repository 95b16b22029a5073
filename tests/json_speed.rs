//! Fixed workloads for profiling what a whole-process run of the JSON formats spends per file
//! besides the reader: the three JSON sniffers on each file's head, as the detector calls them.
//! Ignored (no timing is asserted); run under callgrind, e.g.
//! `valgrind --tool=callgrind target/release/deps/json_speed-* --ignored --test-threads 1 sniffers`
//! with `ROUNDS` (default 100) and `DIR` (default the corpus's `gocaml`).

mod common;

#[test]
#[ignore]
fn sniffers_on_heads() {
    let dir = match std::env::var_os("DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => match common::corpus_dir("gocaml") {
            Some(d) => d,
            None => return,
        },
    };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(100);
    let heads: Vec<Vec<u8>> = common::files(&dir, &[".json", ".jgf"])
        .iter()
        .map(|p| {
            let mut b = std::fs::read(p).unwrap();
            b.truncate(kifu::format::SNIFF_LEN);
            b
        })
        .collect();
    let mut yes = 0;
    for _ in 0..rounds {
        for h in &heads {
            let answers = [kifu::jgf::sniff_v2(h), kifu::jgf::sniff_v1(h), kifu::gocaml::sniff(h)];
            yes += answers.iter().filter(|&&a| a == kifu::format::Confidence::Yes).count();
        }
    }
    // Every head is one of the three formats.
    assert_eq!(yes, rounds * heads.len());
}
