//! The same game through every writer of JSON and XML: for every Go game of the corpus's
//! converted/ folder (jgf2-seki, jgf1-nggo, xml-gogui: each file, and each file's SGF source),
//! SGF (or the converted file) → JGF v2 → Jago XML → JGF v1 → SGF: the tree read from the JGF v1
//! equals the original tree, with the losses of the three writers' tables and no others, and the
//! tree read from the final SGF equals the JGF v1 tree up to SGF's own text rules (simple text
//! holds no line break; `Losses::sgf_text`) — for the games the SGF writer does not repair (those
//! it repairs, counted here, are asserted by tests/sgf_write.rs). The shogi games of converted/ (csa-cshogi, csa3-tsshogi) are refused
//! by all three writers.

mod common;
mod roundtrip;

use bumpalo::Bump;
use kifu::tree::GameTree;
use roundtrip::{diff, is_shogi, trees, view, Losses};

/// Every loss of JGF v2, Jago XML and JGF v1 together.
fn losses() -> Losses {
    Losses {
        one_move: true,
        clocks: Some(true),
        dim_visible: true,
        arrow_ends: true,
        one_name: true,
        header: true,
        joined_values: true,
        off_board: true,
        ..Losses::default()
    }
}

/// Games the SGF writer repaired at the chain's last step (their repairs are tests/sgf_write.rs's).
static REPAIRED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// SGF → JGF v2 → Jago XML → JGF v1 → SGF; the trees compared with `t`'s.
fn chain(t: &GameTree<'_>, what: &str) -> Result<(), String> {
    let bump = Bump::new();
    let mut v2 = Vec::new();
    kifu::jgf::write::write(t, kifu::jgf::write::Version::V2, &mut v2).unwrap();
    let a = trees(&bump, kifu::jgf::v2::Reader::new(&v2));
    let mut xml = Vec::new();
    kifu::jago::write::write(&a[0], &mut xml).unwrap();
    let b = trees(&bump, kifu::jago::Reader::new(&xml));
    let mut v1 = Vec::new();
    kifu::jgf::write::write(&b[0], kifu::jgf::write::Version::V1, &mut v1).unwrap();
    serde_json::from_slice::<serde_json::Value>(&v1).map_err(|e| format!("{what}: {e}"))?;
    let c = trees(&bump, kifu::jgf::v1::Reader::new(&v1));
    if c.len() != 1 {
        return Err(format!("{what}: {} games at the end", c.len()));
    }
    let l = losses();
    if let Some(d) = diff(&view(t, &l), &view(&c[0], &l)) {
        return Err(format!("{what}: {d}"));
    }
    // The last step, back to SGF: the JGF v1 tree again, up to SGF's own text rules (a game the
    // SGF writer repairs is left to tests/sgf_write.rs, which asserts its repairs).
    let (mut sgf, mut repairs) = (Vec::new(), Vec::new());
    kifu::tree::Writer::new().sgf_with_repairs(&c[0], &mut sgf, &mut repairs).unwrap();
    let e = trees(&bump, kifu::sgf::Reader::new(&sgf));
    if e.len() != 1 {
        return Err(format!("{what}: {} SGF games at the end", e.len()));
    }
    if !repairs.is_empty() {
        REPAIRED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    let l = Losses { sgf_text: true, ..Losses::default() };
    match diff(&view(&c[0], &l), &view(&e[0], &l)) {
        Some(d) if repairs.is_empty() => Err(format!("{what}, back in SGF: {d}")),
        _ => Ok(()),
    }
}

#[test]
fn converted_games_survive_the_chain() {
    let Some(corpus) = common::corpus() else { return };
    let (mut games, mut failures) = (0usize, Vec::new());
    for folder in ["jgf2-seki", "jgf1-nggo", "xml-gogui"] {
        let dir = corpus.join("converted").join(folder);
        let names = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
        for row in names.lines().skip(1) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (output, source) = (cols[0], cols[cols.len() - 1]);
            let bump = Bump::new();
            // The converted file itself (a row whose conversion failed has none).
            let bytes = match std::fs::read(dir.join(output)) {
                Ok(b) => kifu::input::prepare(&b).into_owned(),
                Err(_) => Vec::new(),
            };
            let ts = match folder {
                "jgf2-seki" => trees(&bump, kifu::jgf::v2::Reader::new(&bytes)),
                "jgf1-nggo" => trees(&bump, kifu::jgf::v1::Reader::new(&bytes)),
                _ => trees(&bump, kifu::jago::Reader::new(&bytes)),
            };
            for t in &ts {
                games += 1;
                if let Err(e) = chain(t, &format!("{folder}/{output}")) {
                    failures.push(e);
                }
            }
            // Its SGF source (once: the three folders share their sources).
            if folder == "jgf2-seki" {
                let sgf = kifu::input::prepare(&std::fs::read(corpus.join(source)).unwrap()).into_owned();
                for t in trees(&bump, kifu::sgf::Reader::new(&sgf)).iter().filter(|t| !is_shogi(t)) {
                    games += 1;
                    if let Err(e) = chain(t, source) {
                        failures.push(e);
                    }
                }
            }
        }
    }
    eprintln!(
        "{games} games through the chain, {} differ; {} repaired by the SGF writer at the last step",
        failures.len(),
        REPAIRED.load(std::sync::atomic::Ordering::Relaxed)
    );
    for f in failures.iter().take(20) {
        eprintln!("{f:.1200}\n");
    }
    assert!(games > 5000, "{games}");
    assert!(failures.is_empty(), "{} of {games} games differ", failures.len());
}

#[test]
fn converted_shogi_games_are_refused() {
    let Some(corpus) = common::corpus() else { return };
    let mut refused = 0;
    for folder in ["csa-cshogi", "csa3-tsshogi"] {
        for f in common::files(&corpus.join("converted").join(folder), &[".csa"]) {
            let bytes = std::fs::read(&f).unwrap();
            let bump = Bump::new();
            for t in trees(&bump, kifu::csa::Reader::new(&bytes)) {
                assert!(is_shogi(&t), "{}", f.display());
                let mut out = Vec::new();
                assert!(kifu::jgf::write::write(&t, kifu::jgf::write::Version::V2, &mut out).is_err());
                assert!(kifu::jago::write::write(&t, &mut out).is_err());
                assert!(kifu::gocaml::write::write(&t, &mut out).is_err());
                assert!(out.is_empty());
                refused += 1;
            }
        }
    }
    assert!(refused > 100, "{refused}");
}

/// Mutated inputs give odd trees (points off the board, huge boards, empty games, deep
/// variations): every writer still finishes, and its output still parses (serde_json for JSON,
/// quick-xml to the end for XML).
#[test]
fn writers_stay_valid_on_mutated_games() {
    let Some(corpus) = common::corpus() else { return };
    let mut files = Vec::new();
    for (sub, ext) in [("sgf/edge", ".sgf"), ("jgf-v2", ""), ("jgf-v1", ""), ("jago-xml", ".xml"), ("gocaml", ".json")]
    {
        files.extend(common::files(&corpus.join(sub), &[ext]));
    }
    let mut rng = common::rng::XorShift::new(0x5eed_2026);
    let (mut written, mut out) = (0usize, Vec::new());
    for f in &files {
        let original = std::fs::read(f).unwrap();
        for round in 0..12 {
            let mut bytes = original.clone();
            if round > 0 && !bytes.is_empty() {
                for _ in 0..1 + rng.next() % 8 {
                    let i = (rng.next() % bytes.len() as u64) as usize;
                    const BYTES: &[u8] = b"[]{}():;,\"\\<>/&0123456789abzAZ \n";
                    bytes[i] = BYTES[(rng.next() % BYTES.len() as u64) as usize];
                }
            }
            let bump = Bump::new();
            let Some(mut r) = kifu::AnyReader::detect(&bytes, kifu::Config::default()) else { continue };
            let mut b = kifu::tree::Builder::new();
            while let Ok(Some(t)) = b.build(&bump, &mut r) {
                if is_shogi(&t) {
                    continue;
                }
                for v in [kifu::jgf::write::Version::V2, kifu::jgf::write::Version::V1] {
                    out.clear();
                    kifu::jgf::write::write(&t, v, &mut out).unwrap();
                    serde_json::from_slice::<serde_json::Value>(&out)
                        .unwrap_or_else(|e| panic!("{}: {e}\n{}", f.display(), String::from_utf8_lossy(&out)));
                }
                out.clear();
                kifu::gocaml::write::write(&t, &mut out).unwrap();
                serde_json::from_slice::<serde_json::Value>(&out).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                out.clear();
                kifu::jago::write::write(&t, &mut out).unwrap();
                let mut x = quick_xml::Reader::from_reader(&out[..]);
                let mut depth = 0i64;
                loop {
                    match x.read_event() {
                        Ok(quick_xml::events::Event::Eof) => break,
                        Ok(quick_xml::events::Event::Start(_)) => depth += 1,
                        Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                        Ok(_) => {}
                        Err(e) => panic!("{}: {e}\n{}", f.display(), String::from_utf8_lossy(&out)),
                    }
                }
                assert_eq!(depth, 0, "{}", f.display());
                written += 1;
            }
        }
    }
    assert!(written > 500, "{written}");
}
