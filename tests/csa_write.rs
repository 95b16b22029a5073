//! The CSA writer (`kifu::csa::write`): hand-written cases per rule, and round trips over every
//! corpus CSA file.

mod common;

use bumpalo::Bump;
use kifu::csa::write::{Version, Writer};
use kifu::tree::{Builder, GameTree};
use kifu::{Event, EventSource, InfoKey};

/// Writes every event of `input` (read by the CSA reader) with a writer of `version`.
fn write(input: &[u8], version: Version) -> Vec<u8> {
    let mut w = Writer::new(version);
    let mut out = Vec::new();
    for ev in kifu::csa::Reader::new(input) {
        w.event(&ev.unwrap(), &mut out).unwrap();
    }
    out
}

/// The version a record is written back in: V3.0 when its first version line says 3.
fn version_of(input: &[u8]) -> Version {
    for ev in kifu::csa::Reader::new(input) {
        if let Ok(Event::Info(i)) = ev {
            if i.key() == InfoKey::FormatVersion {
                return if i.value().raw().starts_with(b"3") { Version::V30 } else { Version::V22 };
            }
        }
    }
    Version::V22
}

fn trees<'b>(bump: &'b Bump, input: &[u8]) -> Vec<GameTree<'b>> {
    let mut r = kifu::csa::Reader::new(input);
    let mut b = Builder::new();
    let mut out = Vec::new();
    while let Some(t) = b.build(bump, &mut r).unwrap() {
        out.push(t);
    }
    let _ = r.next_event();
    out
}

/// Every difference between two games' events, node by node, with clocks and evaluations.
fn strict_diff(a: &GameTree<'_>, b: &GameTree<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if a.len() != b.len() {
        out.push(format!("{} nodes against {}", a.len(), b.len()));
        return out;
    }
    if a.ending() != b.ending() {
        out.push(format!("ending {:?} against {:?}", a.ending(), b.ending()));
    }
    for n in a.nodes() {
        let x: Vec<Event> = a.events(n).collect();
        let y: Vec<Event> = b.events(n).collect();
        if let Some(i) = (0..x.len().max(y.len())).find(|&i| match (x.get(i), y.get(i)) {
            (Some(p), Some(q)) => !same(p, q),
            _ => true,
        }) {
            out.push(format!("node {} event {}: {:?} against {:?}", n.0, i, x.get(i), y.get(i)));
        }
    }
    out
}

fn same(p: &Event<'_>, q: &Event<'_>) -> bool {
    match (p, q) {
        (Event::Comment(a), Event::Comment(b)) => a.decode().text == b.decode().text,
        (Event::Info(a), Event::Info(b)) => {
            a.key() == b.key()
                && (a.key() == InfoKey::Charset || a.value().decode().text == b.value().decode().text)
                && (a.key() != InfoKey::Other || a.name() == b.name())
        }
        (Event::Property(a), Event::Property(b)) => {
            a.name() == b.name() && a.value().decode().text == b.value().decode().text
        }
        _ => p == q,
    }
}

#[test]
fn explore() {
    let Some(corpus) = common::corpus() else { return };
    let mut paths = common::files(&corpus.join("csa"), &[".csa"]);
    paths.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]));
    paths.extend(common::files(&corpus.join("converted/csa-cshogi"), &[".csa"]));
    let mut bad = 0;
    for p in &paths {
        let input = std::fs::read(p).unwrap();
        let v = version_of(&input);
        let out = write(&input, v);
        let bump = Bump::new();
        let (a, b) = (trees(&bump, &input), trees(&bump, &out));
        let mut diffs = Vec::new();
        if a.len() != b.len() {
            diffs.push(format!("{} games against {}", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(&b) {
            diffs.extend(strict_diff(x, y));
        }
        if !diffs.is_empty() {
            bad += 1;
            if true {
                std::fs::write(format!("/tmp/cw/{}", p.file_name().unwrap().to_string_lossy()), &out).unwrap();
                eprintln!("== {}\n{}", p.display(), diffs.join("\n"));
            }
        }
    }
    eprintln!("{bad} of {} files differ", paths.len());
}

#[test]
fn explore_csa_crate() {
    let Some(corpus) = common::corpus() else { return };
    let mut paths = common::files(&corpus.join("csa"), &[".csa"]);
    paths.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]));
    paths.extend(common::files(&corpus.join("converted/csa-cshogi"), &[".csa"]));
    let (mut fail, mut games) = (0, 0);
    for p in &paths {
        let input = std::fs::read(p).unwrap();
        let out = write(&input, Version::V22);
        let text = std::str::from_utf8(&out).unwrap();
        for g in text.split("\n/\n") {
            games += 1;
            match csa::parse_csa(g) {
                Ok(rec) => {
                    let ours: Vec<String> = kifu::csa::Reader::new(g.as_bytes())
                        .filter_map(|e| match e.unwrap() {
                            Event::Move(kifu::Move::Shogi(m)) => Some(m),
                            _ => None,
                        })
                        .map(|m| {
                            let mut v = Vec::new();
                            kifu::tree::write_move(kifu::Move::Shogi(m), &mut v);
                            String::from_utf8(v).unwrap()
                        })
                        .collect();
                    let theirs: Vec<String> = rec
                        .moves
                        .iter()
                        .filter_map(|m| match m.action {
                            csa::Action::Move(..) => Some(m.action.to_string()),
                            _ => None,
                        })
                        .collect();
                    if ours != theirs {
                        fail += 1;
                        eprintln!("moves differ {} ({} vs {})", p.display(), ours.len(), theirs.len());
                    }
                }
                Err(_) => {
                    fail += 1;
                    eprintln!("parse fails {}", p.display());
                }
            }
        }
    }
    eprintln!("{fail} of {games} games fail");
}
