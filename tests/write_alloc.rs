//! The JGF, Jago XML and Go game JSON writers allocate nothing per node or event: trees of the
//! converted corpus (Seki's JGF v2 and GoGui's Jago XML) are written once
//! to grow the writers' stacks and the output buffer, then written again with a counting global
//! allocator: no allocation at all.
//!
//! The only allocations a writer may make are [`kifu::text::escape::pieces`] decoding a text
//! whose rule it cannot stream (XML entities and paragraphs here): texts read from JSON (and
//! plain UTF-8) are streamed. So Seki's trees must cost nothing, and GoGui's at most one
//! allocation per such text and writer.

mod common;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

use bumpalo::Bump;
use kifu::tree::GameTree;

fn write_all(trees: &[GameTree<'_>], out: &mut Vec<u8>, w: &mut Writers) {
    for t in trees {
        out.clear();
        w.v2.write(t, kifu::jgf::write::Version::V2, out).unwrap();
        out.clear();
        w.v1.write(t, kifu::jgf::write::Version::V1, out).unwrap();
        out.clear();
        w.jago.write(t, out).unwrap();
        out.clear();
        w.gocaml.write(t, out).unwrap();
    }
}

#[derive(Default)]
struct Writers {
    v2: kifu::jgf::write::Writer,
    v1: kifu::jgf::write::Writer,
    jago: kifu::jago::write::Writer,
    gocaml: kifu::gocaml::write::Writer,
}

/// One test, so that no other test thread allocates while counting.
#[test]
fn writers_allocate_nothing_per_node() {
    let Some(corpus) = common::corpus() else { return };
    let bump = Bump::new();
    let mut trees = Vec::new();
    let mut b = kifu::tree::Builder::new();
    let mut seki = 0;
    for (folder, ext) in [("jgf2-seki", ".jgf"), ("xml-gogui", ".xml")] {
        for f in common::files(&corpus.join("converted").join(folder), &[ext]) {
            let bytes: &[u8] = bump.alloc_slice_copy(&std::fs::read(&f).unwrap());
            let mut push = |t| trees.push(t);
            if folder == "jgf2-seki" {
                let mut r = kifu::jgf::v2::Reader::new(bytes);
                while let Ok(Some(t)) = b.build(&bump, &mut r) {
                    push(t);
                }
            } else {
                let mut r = kifu::jago::Reader::new(bytes);
                while let Ok(Some(t)) = b.build(&bump, &mut r) {
                    push(t);
                }
            }
        }
        if folder == "jgf2-seki" {
            seki = trees.len();
        }
    }
    assert!(trees.len() > 3000, "{}", trees.len());
    let nodes: usize = trees.iter().map(|t| t.len()).sum();
    let (mut out, mut w) = (Vec::new(), Writers::default());
    // Warm-up: the stacks, boards and buffers grow to the largest game.
    let mut largest = 0;
    for t in &trees {
        let mut one = Vec::new();
        w.v2.write(t, kifu::jgf::write::Version::V2, &mut one).unwrap();
        w.v1.write(t, kifu::jgf::write::Version::V1, &mut one).unwrap();
        w.jago.write(t, &mut one).unwrap();
        w.gocaml.write(t, &mut one).unwrap();
        largest = largest.max(one.len());
    }
    out.reserve(largest);
    // What decoding each text once costs (XML entities, paragraphs, trimmed white space copy).
    fn texts<'b>(t: &GameTree<'b>) -> Vec<kifu::Text<'b>> {
        t.nodes()
            .flat_map(|n| t.events(n))
            .filter_map(|e| match e {
                kifu::Event::Comment(x) | kifu::Event::Name(x) => Some(x),
                kifu::Event::Info(i) => Some(i.value()),
                kifu::Event::Property(p) => Some(p.value()),
                kifu::Event::Markup(m) => Some(m.label()),
                _ => None,
            })
            .collect()
    }
    let all: Vec<kifu::Text<'_>> = trees.iter().flat_map(texts).collect();
    let before = common::alloc::allocations();
    for t in &all {
        std::hint::black_box(t.decode());
    }
    let decoding = common::alloc::allocations() - before;
    let before = common::alloc::allocations();
    write_all(&trees, &mut out, &mut w);
    let after = common::alloc::allocations();
    eprintln!(
        "{} trees, {nodes} nodes written 4 times: {} allocations (decoding every text once: {decoding})",
        trees.len(),
        after - before
    );
    // Only `Text::decode` allocates, each text once per writer at most (the snapshot writer
    // decodes none of these: its names and komi need no copy).
    assert!(after - before <= 3 * decoding, "{} allocations", after - before);
    // Seki's trees alone (texts read from JSON): nothing at all.
    let before = common::alloc::allocations();
    write_all(&trees[..seki], &mut out, &mut w);
    let after = common::alloc::allocations();
    assert_eq!(after - before, 0, "allocations writing Seki's {seki} trees");
    // For the record (not asserted): each writer's speed over Seki's trees.
    let input: usize = trees[..seki].iter().map(|t| t.arena_bytes()).sum();
    for (k, name) in ["JGF v2", "JGF v1", "Jago XML", "Go game JSON"].into_iter().enumerate() {
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for t in &trees[..seki] {
            out.clear();
            match k {
                0 => w.v2.write(t, kifu::jgf::write::Version::V2, &mut out).unwrap(),
                1 => w.v1.write(t, kifu::jgf::write::Version::V1, &mut out).unwrap(),
                2 => w.jago.write(t, &mut out).unwrap(),
                _ => w.gocaml.write(t, &mut out).unwrap(),
            }
            bytes += out.len();
        }
        let s = start.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {seki} trees ({:.1} MB of arena) in {:.3} s, {:.1} MB written, {:.0} MB/s out",
            input as f64 / 1e6,
            s,
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / s
        );
    }
}
