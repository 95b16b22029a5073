//! Generates many distinct, legal Go games from a corpus, to build and measure a large index
//! (issue 25: the ≥ 1,000,000-game index).
//!
//! ```text
//! cargo run --release -p kifu-index --example gen_games -- CORPUS OUT_DIR [GAMES] [SEED] [PER_FILE]
//! # e.g.
//! cargo run --release -p kifu-index --example gen_games -- ../shared/corpus /tmp/gen 1000000 1 10000
//! kifu index /tmp/gen --db /tmp/gen.sqlite
//! KIFU_BENCH_DB=/tmp/gen.sqlite cargo test --release -p kifu-cli --test positions_bench -- --ignored --nocapture
//! ```
//!
//! What it makes: `GAMES` games (default 1,000,000) as SGF collections of `PER_FILE` games
//! (default 10,000) named `gen-00000.sgf`, `gen-00001.sgf`… in `OUT_DIR` (about 1.3 KB a game:
//! mind the disk, and remove the directory when done). Each game splices the opening of one
//! real game onto the continuation of another: the first `k` moves of game A (`k` drawn from
//! 1 to 80), then game B's moves from move `k + 1` on, played on the board A left, up to the
//! first that is not legal there (occupied, suicide, ko, or the wrong colour to move) or B's
//! end; a splice with fewer than 10 of B's moves is drawn again. Every move is checked on the
//! library's board (`kifu::position::go::Board`), so the games replay without an illegal move.
//! Players, date and result are B's. A game whose move list was made before is drawn again, so
//! the games are distinct. The sources are the 19×19 Go games of the corpus's SGF files without
//! setup stones whose main line is legal and at least 30 moves long.
//!
//! Deterministic: the same corpus, `SEED` (default 1) and counts give the same files. Games are
//! drawn in blocks of 4,096 in parallel, each block from its own seed, and duplicates are
//! removed in block order.

use kifu::position::go::{Board, Rules};
use kifu::{Color, Event, InfoKey, Move, Point};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A game of the corpus the generator splices.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its main line.
    pub moves: Vec<(Color, Option<Point>)>,
    /// `PB`, `PW`, `DT`, `RE` as SGF text (escaped).
    pub info: String,
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The usable games of one SGF file.
fn sources_of(bytes: &[u8], out: &mut Vec<Source>) {
    let mut line = kifu::tree::MainLineTracker::default();
    let mut moves = Vec::new();
    let mut info = String::new();
    let (mut size, mut setup, mut ok) = (19u8, false, true);
    for ev in kifu::sgf::Reader::new(bytes) {
        let Ok(ev) = ev else {
            ok = false;
            continue;
        };
        let main = line.feed(&ev);
        match &ev {
            Event::GameStart { .. } => {
                moves.clear();
                info.clear();
                (size, setup, ok) = (19, false, true);
            }
            Event::Info(i) if main => {
                let v = i.value().to_string_lossy();
                let tag = match i.key() {
                    InfoKey::BoardSize => {
                        size = v.trim().parse().unwrap_or(0);
                        None
                    }
                    InfoKey::BlackName => Some("PB"),
                    InfoKey::WhiteName => Some("PW"),
                    InfoKey::Date => Some("DT"),
                    InfoKey::Result => Some("RE"),
                    _ => None,
                };
                if let Some(tag) = tag {
                    info.push_str(&format!("{tag}[{}]", sgf_escape(&v)));
                }
            }
            Event::Setup(_) if main => setup = true,
            Event::Move(Move::Go { color, point }) if main => moves.push((*color, *point)),
            Event::GameEnd { .. }
                if ok && !setup && size == 19 && moves.len() >= 30 && legal_prefix(&moves) == moves.len() =>
            {
                out.push(Source { moves: std::mem::take(&mut moves), info: std::mem::take(&mut info) });
            }
            _ => {}
        }
    }
}

/// How many of `moves` are legal in turn from the empty board (colours alternating).
fn legal_prefix(moves: &[(Color, Option<Point>)]) -> usize {
    let mut b = Board::with_rules(19, 19, Rules::default()).expect("19×19");
    for (i, &(c, p)) in moves.iter().enumerate() {
        if (i > 0 && moves[i - 1].0 == c) || b.play(c, p).is_err() {
            return i;
        }
    }
    moves.len()
}

/// The SGF files under `dir`, sorted (so that the sources come in a fixed order).
fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(list) = std::fs::read_dir(dir) else { return };
    for e in list.flatten() {
        let p = e.path();
        if p.is_dir() {
            sgf_files(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
            out.push(p);
        }
    }
}

/// The usable games of the SGF files under `corpus`.
pub fn load(corpus: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    sgf_files(corpus, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        if let Ok(bytes) = std::fs::read(&f) {
            sources_of(&bytes, &mut out);
        }
    }
    out
}

/// xorshift64*: small and deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(xxhash_rust::xxh3::xxh3_64(&seed.to_le_bytes()) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One spliced game as SGF, or `None` if the splice is too short.
fn splice(sources: &[Source], rng: &mut Rng) -> Option<String> {
    let a = &sources[rng.below(sources.len() as u64) as usize];
    let b = &sources[rng.below(sources.len() as u64) as usize];
    let k = 1 + rng.below(80.min(a.moves.len() as u64 - 1)) as usize;
    let mut board = Board::with_rules(19, 19, Rules::default()).expect("19×19");
    let mut moves: Vec<(Color, Option<Point>)> = a.moves[..k].to_vec();
    for &(c, p) in &moves {
        board.play(c, p).ok()?;
    }
    for &(c, p) in b.moves.iter().skip(k) {
        if moves.last().is_some_and(|l| l.0 == c) || board.play(c, p).is_err() {
            break;
        }
        moves.push((c, p));
    }
    if moves.len() < k + 10 {
        return None;
    }
    let mut s = format!("(;GM[1]FF[4]SZ[19]{}", b.info);
    for (c, p) in moves {
        s.push_str(if c == Color::Black { ";B[" } else { ";W[" });
        if let Some(p) = p {
            s.push((b'a' + p.x) as char);
            s.push((b'a' + p.y) as char);
        }
        s.push(']');
    }
    s.push_str(")\n");
    Some(s)
}

/// Makes `n` distinct games from `sources` with `seed`, calling `emit` with each (SGF text, one
/// game) in order.
pub fn generate(sources: &[Source], n: u64, seed: u64, mut emit: impl FnMut(&str)) {
    use rayon::prelude::*;
    assert!(!sources.is_empty(), "no usable games in the corpus");
    const BLOCK: u64 = 4096;
    let mut seen = HashSet::with_capacity(n as usize);
    let mut made = 0u64;
    let mut block = 0u64;
    while made < n {
        // A round of blocks in parallel, then kept in block order.
        let blocks: Vec<Vec<String>> = (block..block + 16)
            .into_par_iter()
            .map(|i| {
                let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i);
                (0..BLOCK).filter_map(|_| splice(sources, &mut rng)).collect()
            })
            .collect();
        block += 16;
        for g in blocks.into_iter().flatten() {
            if made < n && seen.insert(xxhash_rust::xxh3::xxh3_128(g.as_bytes())) {
                emit(&g);
                made += 1;
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: gen_games CORPUS OUT_DIR [GAMES] [SEED] [PER_FILE]");
        std::process::exit(2);
    }
    let num = |i: usize, d: u64| args.get(i).map_or(d, |s| s.parse().expect("a number"));
    let (n, seed, per_file) = (num(2, 1_000_000), num(3, 1), num(4, 10_000).max(1));
    let out = PathBuf::from(&args[1]);
    std::fs::create_dir_all(&out).expect("the output directory");
    let t = std::time::Instant::now();
    let sources = load(Path::new(&args[0]));
    eprintln!("{} source games ({:?})", sources.len(), t.elapsed());
    let mut file: Option<std::io::BufWriter<std::fs::File>> = None;
    let (mut i, mut bytes) = (0u64, 0u64);
    generate(&sources, n, seed, |g| {
        if i % per_file == 0 {
            let path = out.join(format!("gen-{:05}.sgf", i / per_file));
            file = Some(std::io::BufWriter::new(std::fs::File::create(path).expect("an output file")));
        }
        file.as_mut().expect("open").write_all(g.as_bytes()).expect("written");
        i += 1;
        bytes += g.len() as u64;
    });
    drop(file);
    eprintln!("{i} games, {bytes} bytes in {} files ({:?})", i.div_ceil(per_file), t.elapsed());
}
