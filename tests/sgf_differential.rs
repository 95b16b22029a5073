//! Differential test: where the sgf-parse crate reads a corpus file, its main-line moves equal
//! ours.

mod common;

use kifu::{Color, Event, EventSource, Move};

type Mv = (Color, Option<(u8, u8)>);

/// Our main line (first child at every branch): with child branches, it is every move up to the
/// first `VariationEnd`. `None` when the reader warned before the end of the main line: the file
/// is malformed there and the two readers may repair it differently.
fn ours(bytes: &[u8]) -> Option<Vec<Mv>> {
    let mut r = kifu::sgf::Reader::new(bytes);
    let mut out = Vec::new();
    while let Some(ev) = r.next_event() {
        match ev.unwrap() {
            Event::Move(Move::Go { color, point }) => out.push((color, point.map(|p| (p.x, p.y)))),
            Event::VariationEnd | Event::GameEnd { .. } => break,
            Event::Warning(w) if w.kind != kifu::WarningKind::InvalidText => return None,
            _ => {}
        }
    }
    Some(out)
}

fn theirs(text: &str) -> Option<Vec<Mv>> {
    use sgf_parse::go::{Move as M, Prop};
    let trees = sgf_parse::go::parse(text).ok()?;
    let root = trees.first()?;
    let small = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) => *w <= 19 && *h <= 19,
        _ => true,
    };
    let mut out = Vec::new();
    for node in root.main_variation() {
        for p in node.properties() {
            let (color, mv) = match p {
                Prop::B(m) => (Color::Black, m),
                Prop::W(m) => (Color::White, m),
                _ => continue,
            };
            let point = match mv {
                M::Pass => None,
                M::Move(pt) if small && pt.x == 19 && pt.y == 19 => None,
                M::Move(pt) => Some((pt.x, pt.y)),
            };
            out.push((color, point));
        }
    }
    Some(out)
}

#[test]
fn main_lines_match_sgf_parse() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let (mut compared, mut refused, mut warned) = (0, 0, 0);
    for f in common::files(&dir, &[".sgf"]) {
        let bytes = std::fs::read(&f).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else { continue };
        // sgf-parse reads one collection; compare the first game of single-game files.
        let Some(expected) = theirs(text) else {
            refused += 1;
            continue;
        };
        let Some(got) = ours(&bytes) else {
            warned += 1;
            continue;
        };
        assert_eq!(got, expected, "{}", f.display());
        compared += 1;
    }
    eprintln!("compared {compared} files; sgf-parse refused {refused}; kifu repaired {warned}");
    assert!(compared >= 7000, "only {compared} files compared");
}
