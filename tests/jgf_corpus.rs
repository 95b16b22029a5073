//! JGF v1 and v2 on the shared corpus: every file reads, and the converted files' main lines,
//! comments, setup and markup agree with their SGF sources.

mod common;

use kifu::json::Dialect;
use kifu::{Color, Config, Event, EventSource, MarkupKind, Move, Point, Setup};
use std::path::Path;

/// The main line (first child at every branch) of a stream, computed from events alone.
#[derive(Debug, Default, PartialEq)]
struct MainLine {
    moves: Vec<(Color, Option<Point>)>,
    comments: Vec<String>,
    setup: Vec<(Option<bool>, Point)>,
    markup: usize,
}

fn main_line(src: &mut dyn EventSource) -> Result<MainLine, kifu::Error> {
    let mut out = MainLine::default();
    // (on the main line, the current node already has a child)
    let mut frames: Vec<(bool, bool)> = vec![(true, false)];
    while let Some(ev) = src.next_event() {
        let ev = ev?;
        let top = frames.len() - 1;
        match ev {
            Event::Node => {
                let f = &mut frames[top];
                if f.0 && f.1 {
                    f.0 = false;
                }
                f.1 = false;
            }
            Event::VariationStart(_) => {
                let (on, has) = frames[top];
                frames[top].1 = true;
                frames.push((on && !has, false));
            }
            Event::VariationEnd => {
                frames.pop();
            }
            Event::Move(Move::Go { color, point }) if frames[top].0 => out.moves.push((color, point)),
            Event::Comment(t) if frames[top].0 => out.comments.push(t.decode().text.trim_end().to_string()),
            Event::Setup(Setup::Go { color, point }) if frames[top].0 => {
                out.setup.push((color.map(|c| c == Color::Black), point))
            }
            Event::Markup(m) if frames[top].0 && !matches!(m.kind, MarkupKind::Visible | MarkupKind::Dim) => {
                out.markup += 1
            }
            Event::GameEnd { .. } => break,
            _ => {}
        }
    }
    Ok(out)
}

fn read_all(path: &Path, bytes: &[u8], v1: bool, dialect: Dialect) -> (usize, usize) {
    let mut n = 0;
    let mut games = 0;
    let config = Config::default();
    let it: Box<dyn Iterator<Item = Result<Event<'_>, kifu::Error>>> = if v1 {
        Box::new(kifu::jgf::v1::Reader::with_dialect(bytes, config, dialect))
    } else {
        Box::new(kifu::jgf::v2::Reader::with_dialect(bytes, config, dialect))
    };
    for ev in it {
        let ev = ev.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if matches!(ev, Event::GameStart { .. }) {
            games += 1;
        }
        n += 1;
    }
    (n, games)
}

#[test]
fn corpus_native_files_read() {
    let Some(corpus) = common::corpus() else { return };
    for (dir, v1) in [("jgf-v1", true), ("jgf-v2", false)] {
        for f in common::files(&corpus.join(dir), &[".jgf", ".jgf5", ".js"]) {
            let bytes = std::fs::read(&f).unwrap();
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            let js_like = name.ends_with(".js") || name.ends_with(".jgf5");
            let dialect = if js_like { Dialect::Lenient } else { Dialect::Strict };
            let (n, games) = read_all(&f, &bytes, v1, dialect);
            assert_eq!(games, 1, "{name}");
            assert!(n > 10, "{name}: {n} events");
            if !js_like {
                // Strict JSON files read in strict mode too.
                let strict = Config::strict();
                let errs = if v1 {
                    kifu::jgf::v1::Reader::with_config(&bytes, strict).filter(|e| e.is_err()).count()
                } else {
                    kifu::jgf::v2::Reader::with_config(&bytes, strict).filter(|e| e.is_err()).count()
                };
                assert_eq!(errs, 0, "{name} in strict mode");
            }
        }
    }
}

struct Row {
    file: String,
    source: String,
}

fn rows(dir: &Path) -> Vec<Row> {
    let tsv = std::fs::read_to_string(dir.join("names.tsv")).unwrap();
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let src_col = header.iter().position(|h| *h == "corpus_source").unwrap();
    lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Row { file: cols[0].to_string(), source: cols[src_col].to_string() }
        })
        .collect()
}

/// Compares every converted file with its SGF source; returns the files whose main line of
/// moves differs, with what differs.
fn compare(sub: &str, v1: bool) -> Option<(usize, Vec<String>, Vec<String>)> {
    let corpus = common::corpus()?;
    let dir = corpus.join(sub);
    let mut move_diffs = Vec::new();
    let mut other_diffs = Vec::new();
    let mut total = 0;
    for row in rows(&dir) {
        let bytes = std::fs::read(dir.join(&row.file)).unwrap();
        let sgf = std::fs::read(corpus.join(&row.source)).unwrap();
        let mut j: Box<dyn EventSource> = if v1 {
            Box::new(kifu::jgf::v1::Reader::new(&bytes))
        } else {
            Box::new(kifu::jgf::v2::Reader::new(&bytes))
        };
        let a = main_line(&mut j).unwrap_or_else(|e| panic!("{}: {e}", row.file));
        let b = main_line(&mut kifu::sgf::Reader::new(&sgf)).unwrap_or_else(|e| panic!("{}: {e}", row.source));
        total += 1;
        if a.moves != b.moves {
            let at = a.moves.iter().zip(&b.moves).position(|(x, y)| x != y).unwrap_or(a.moves.len().min(b.moves.len()));
            move_diffs.push(format!(
                "{}: {} vs {} moves, first difference at move {}: {:?} vs {:?}",
                row.file,
                a.moves.len(),
                b.moves.len(),
                at + 1,
                a.moves.get(at),
                b.moves.get(at)
            ));
        }
        let norm = |v: &[String]| v.iter().map(|s| s.replace("\r\n", "\n")).collect::<Vec<_>>();
        if norm(&a.comments) != norm(&b.comments) {
            let (ca, cb) = (norm(&a.comments), norm(&b.comments));
            let i = ca.iter().zip(&cb).position(|(x, y)| x != y).unwrap_or(ca.len().min(cb.len()));
            other_diffs.push(format!(
                "{}: comments differ ({} vs {}) at {i}: {:?} vs {:?}",
                row.file,
                ca.len(),
                cb.len(),
                ca.get(i).map(|s| s.chars().take(60).collect::<String>()),
                cb.get(i).map(|s| s.chars().take(60).collect::<String>())
            ));
        }
        let mut sa = a.setup.clone();
        let mut sb = b.setup.clone();
        sa.sort();
        sb.sort();
        if sa != sb {
            other_diffs.push(format!("{}: setup differs ({} vs {})", row.file, sa.len(), sb.len()));
        }
        if a.markup != b.markup {
            other_diffs.push(format!("{}: markup differs ({} vs {})", row.file, a.markup, b.markup));
        }
    }
    Some((total, move_diffs, other_diffs))
}

fn files(diffs: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = diffs.iter().map(|d| d.split(':').next().unwrap()).collect();
    v.dedup();
    v
}

#[test]
fn seki_main_lines_equal_sgf() {
    let Some((total, moves, other)) = compare("converted/jgf2-seki", false) else { return };
    eprintln!("jgf2-seki: {total} files, {} move differences, {} other", moves.len(), other.len());
    for d in moves.iter().chain(&other) {
        eprintln!("  {d}");
    }
    assert_eq!(total, 1949);
    // Documented writer bug (MANIFEST.md): in gnugo-00107 an FF[3] `VieW[]` stops Seki's node
    // regex, SZ is lost and the final `tt` pass became the point (19, 19) of a 19×19 board.
    assert_eq!(files(&moves), ["gnugo-00107.jgf"], "{moves:#?}");
    // Writer quirks seen here (not in MANIFEST.md): a value list broken across lines
    // (`AW[aa][bb]\n[cc]`) loses its values after the line break (setup in 00058 and 00106,
    // territory TB/TW in 00069, 00103, 00131, 00133); reading10 (00046) is a collection merged
    // into one tree with its second root's setup appended; in 00131 the last comment is lost.
    assert_eq!(
        files(&other),
        [
            "gnugo-00046.jgf",
            "gnugo-00058.jgf",
            "gnugo-00069.jgf",
            "gnugo-00103.jgf",
            "gnugo-00106.jgf",
            "gnugo-00131.jgf",
            "gnugo-00133.jgf"
        ],
        "{other:#?}"
    );
}

#[test]
fn nggo_main_lines_equal_sgf() {
    let Some((total, moves, other)) = compare("converted/jgf1-nggo", true) else { return };
    eprintln!("jgf1-nggo: {total} files, {} move differences, {} other", moves.len(), other.len());
    for d in moves.iter().chain(&other) {
        eprintln!("  {d}");
    }
    assert_eq!(total, 599);
    // ngGo's `tt` bug (MANIFEST.md: `B[tt]` written as [19, 19]) is read back as a pass with a
    // TtPass warning, so every main line agrees.
    assert!(moves.is_empty(), "{moves:#?}");
    // Writer quirks: the same line-break loss as Seki (00058 setup, 00069 territory),
    // reading10 (00046) merged with its second tree's setup appended, and one comment of the
    // main line missing from ngGo's output in three FF[3] problem files (00024, 00041, 00050;
    // the JGF has one comment where the SGF has two; cause in ngGo's regexes not traced).
    assert_eq!(
        files(&other),
        [
            "gnugo-00024.jgf",
            "gnugo-00041.jgf",
            "gnugo-00046.jgf",
            "gnugo-00050.jgf",
            "gnugo-00058.jgf",
            "gnugo-00069.jgf"
        ],
        "{other:#?}"
    );
}
