//! JKF reader and writer: the corpus (every generated game replays to its move count, final SFEN
//! and branch count in `jkf/tsshogi/index.tsv`; every real file reads without error and agrees
//! with tsshogi's reading; the expected-JKF twins `skc-*.json` agree with kifu's reading of
//! their CSA and KIF files; the same game in CSA, KIF, USI and JKF gives the same moves), the
//! writer (every JKF round trip, CSA → JKF → events, schema shape), and hand-written cases for
//! each rule, hostile input and detection.

mod common;

use bumpalo::Bump;
use kifu::jkf::Reader;
use kifu::kit::check_contract;
use kifu::position::shogi::ShogiPosition;
use kifu::tree::{GameTree, MainLineTracker, NodeId};
use kifu::{
    Branch, ClockKind, Color, Config, Ending, Event, EventSource, Format, InfoKey, Limits, Move, Piece, Setup,
    ShogiMove, Square, WarningKind,
};
use std::path::{Path, PathBuf};

fn events(input: &[u8]) -> Vec<Event<'_>> {
    Reader::new(input).collect::<Result<Vec<_>, _>>().unwrap_or_else(|e| panic!("{e}"))
}

fn warnings(evs: &[Event]) -> Vec<WarningKind> {
    evs.iter().filter_map(|e| if let Event::Warning(w) = e { Some(w.kind) } else { None }).collect()
}

fn moves(evs: &[Event]) -> Vec<ShogiMove> {
    evs.iter().filter_map(|e| if let Event::Move(Move::Shogi(m)) = e { Some(*m) } else { None }).collect()
}

/// What one game gives: main-line moves, final SFEN (replayed on the main line), ending.
#[derive(Debug)]
struct Game {
    moves: Vec<ShogiMove>,
    sfen: Result<String, String>,
    ending: Option<Ending>,
}

fn games<'a, R: EventSource + Iterator<Item = Result<Event<'a>, kifu::Error>>>(mut r: R) -> Vec<Game> {
    let mut out = Vec::new();
    let mut main = MainLineTracker::new();
    let mut pos = ShogiPosition::new();
    let (mut moves, mut bad) = (Vec::new(), None);
    while let Some(ev) = r.next() {
        let ev = ev.unwrap_or_else(|e| panic!("{e}"));
        let on_main = main.feed(&ev);
        match ev {
            Event::GameEnd { ending, .. } => {
                let sfen = match bad.take() {
                    Some(b) => Err(b),
                    None => Ok(pos.sfen()),
                };
                out.push(Game { moves: std::mem::take(&mut moves), sfen, ending });
                continue;
            }
            Event::Move(Move::Shogi(m)) if on_main => moves.push(m),
            _ => {}
        }
        if on_main && bad.is_none() {
            if let Err(i) = pos.apply(&ev) {
                bad = Some(format!("{i:?} at {:?}", r.event_offset()));
            }
        }
    }
    out
}

/// The number of branches (nodes that are not their parent's first child): what the corpus's
/// `branch_nodes` and `branch_points` columns count, tsshogi's count of forks (a position with
/// three continuations counts two).
fn branch_nodes(tree: &GameTree<'_>) -> usize {
    tree.nodes().filter(|&n| tree.parent(n).is_some_and(|p| tree.first_child(p) != Some(n))).count()
}

fn tree_of<'b, S: EventSource + ?Sized>(bump: &'b Bump, source: &mut S) -> GameTree<'b> {
    kifu::tree::build(bump, source).unwrap_or_else(|e| panic!("{e}")).expect("a game")
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

fn jkf_files(dir: &Path) -> Vec<PathBuf> {
    common::files(dir, &[".jkf"])
}

/// Every expected-JKF twin in the corpus.
fn skc_files() -> Vec<PathBuf> {
    let Some(root) = common::corpus() else { return Vec::new() };
    let mut out = Vec::new();
    for sub in ["csa", "kif", "ki2"] {
        for p in common::files(&root.join(sub), &[".json"]) {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("skc-") && !name.contains("schema") {
                out.push(p);
            }
        }
    }
    out
}

// ---------------------------------------------------------------- corpus

#[test]
fn generated_games_match_the_index() {
    let Some(dir) = common::corpus_dir("jkf/tsshogi") else { return };
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let (mut n, mut forked) = (0, 0);
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let bytes = read(&dir.join(c[0]));
        let g = games(Reader::new(&bytes));
        assert_eq!(g.len(), 1, "{}", c[0]);
        assert_eq!(warnings(&events(&bytes)), [], "{}", c[0]);
        assert_eq!(g[0].moves.len(), c[2].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g[0].sfen.as_deref(), Ok(c[3]), "{}", c[0]);
        let bump = Bump::new();
        let tree = tree_of(&bump, &mut Reader::new(&bytes));
        let b = c[6].parse::<usize>().unwrap();
        assert_eq!(branch_nodes(&tree), b, "{}", c[0]);
        forked += usize::from(b > 0);
        n += 1;
    }
    assert_eq!((n, forked), (300, 15));
}

#[test]
fn real_files_agree_with_tsshogi() {
    let Some(dir) = common::corpus_dir("jkf") else { return };
    let text = std::fs::read_to_string(dir.join("tsshogi-reading.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let bytes = read(&dir.join(c[0]));
        let g = games(Reader::new(&bytes));
        assert_eq!(g.len(), 1, "{}", c[0]);
        let g = &g[0];
        assert_eq!(g.moves.len(), c[3].parse::<usize>().unwrap(), "{}", c[0]);
        assert_eq!(g.sfen.as_deref(), Ok(c[4]), "{}", c[0]);
        let bump = Bump::new();
        let tree = tree_of(&bump, &mut Reader::new(&bytes));
        assert_eq!(branch_nodes(&tree), c[5].parse::<usize>().unwrap(), "{}", c[0]);
        let ending = match c.get(6).copied().unwrap_or("") {
            "resign" => Some(Ending::Resign),
            "" | "start" => None,
            other => panic!("{other}"),
        };
        assert_eq!(g.ending, ending, "{}", c[0]);
        n += 1;
    }
    assert_eq!(n, 7);
}

#[test]
fn every_file_reads_keeps_the_contract_and_is_detected() {
    let Some(dir) = common::corpus_dir("jkf") else { return };
    let mut files = jkf_files(&dir);
    files.extend(skc_files());
    assert!(files.len() >= 300 + 7 + 18, "{}", files.len());
    for f in &files {
        let bytes = read(f);
        let name = f.display();
        let c = check_contract(&bytes, &mut Reader::new(&bytes), false);
        assert_eq!((c.games, c.errors), (1, 0), "{name}");
        check_contract(&bytes, &mut Reader::with_config(&bytes, Config::strict()), true);
        assert_eq!(kifu::detect(&bytes), Some(Format::Jkf), "{name}");
        for cut in (0..bytes.len()).step_by(211) {
            check_contract(&bytes[..cut], &mut Reader::new(&bytes[..cut]), false);
        }
    }
}

/// The same game, as kifu reads it from a CSA or KIF file and from its JKF twin: per node of the
/// tree (same shape), the moves, the elapsed times and the comments.
fn node_view(tree: &GameTree<'_>, n: NodeId) -> (Vec<ShogiMove>, Vec<u64>, Vec<String>) {
    let mut m = Vec::new();
    let mut t = Vec::new();
    let mut c = Vec::new();
    for e in tree.events(n) {
        match e {
            Event::Move(Move::Shogi(x)) => m.push(x),
            Event::Clock(k) if k.kind == ClockKind::ElapsedMs => t.push(k.value),
            Event::Comment(s) => c.push(s.decode().text.into_owned()),
            // CSA's floodgate `'** 41 -4132KI` lines are evaluations; JKF keeps them as comments
            // (`** 41 -4132KI`).
            Event::Evaluation(v) => {
                let score = v.score.map_or(String::new(), |s| format!("{s} "));
                c.push(format!("** {score}{}", String::from_utf8_lossy(v.pv)).trim_end().to_string());
            }
            // KIF's `*` and CSA's `'` lines before the first move are properties of the game node;
            // JKF keeps them as `moves[0].comments`, read as comments of the game node.
            Event::Property(p) if n == NodeId::GAME && (p.name() == b"*" || p.name() == b"'") => {
                c.push(p.value().decode().text.into_owned())
            }
            _ => {}
        }
    }
    (m, t, c)
}

/// Compares two trees node by node (moves, times, comments and shape); the first difference.
/// `csa`: the game node's comments of `b` need only be the last of `a`'s (shogi-kifu-converter
/// keeps only the CSA comment lines between the start position and the first move; kifu's CSA
/// reader gives every `'` line before the first move).
fn compare(a: &GameTree<'_>, b: &GameTree<'_>, csa: bool) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} nodes against {}", a.len(), b.len()));
    }
    for n in a.nodes() {
        if a.parent(n) != b.parent(n) {
            return Some(format!("node {}: parent {:?} against {:?}", n.0, a.parent(n), b.parent(n)));
        }
        let (x, y) = (node_view(a, n), node_view(b, n));
        let same = if csa && n == NodeId::GAME { x.2.ends_with(&y.2) && x.0 == y.0 } else { x == y };
        if !same {
            return Some(format!("node {}: {x:?} against {y:?}", n.0));
        }
    }
    None
}

#[test]
fn expected_jkf_twins_agree_with_the_csa_and_kif_readers() {
    let files = skc_files();
    if files.is_empty() {
        return;
    }
    let mut compared = 0;
    for json in &files {
        let name = json.file_name().unwrap().to_string_lossy().to_string();
        let bytes = read(json);
        let bump = Bump::new();
        let ours = tree_of(&bump, &mut Reader::new(&bytes));
        let dir = json.parent().unwrap().file_name().unwrap().to_string_lossy().to_string();
        let stem = json.with_extension("");
        let twin = match dir.as_str() {
            "csa" => stem.with_extension("csa"),
            "kif" if stem.with_extension("kifu").exists() => stem.with_extension("kifu"),
            "kif" => stem.with_extension("kif"),
            // No KI2 reader on this branch: the KI2 twin is compared by tests/ki2.rs.
            _ => continue,
        };
        let tb = read(&twin);
        let theirs = if dir == "csa" {
            tree_of(&bump, &mut kifu::csa::Reader::new(&tb))
        } else {
            tree_of(&bump, &mut kifu::kif::Reader::new(&tb))
        };
        let diff = compare(&theirs, &ours, dir == "csa");
        match name.as_str() {
            // The JKF gives the final `詰み` a time (`now` 0:00), which the KIF line has not: one
            // more clock on the last node.
            "skc-everyday_20211107.json" => {
                let d = diff.unwrap_or_default();
                assert!(d.starts_with("node 20: ") && d.contains("], [0], [") && d.contains("], [0, 0], ["), "{d}");
            }
            _ => assert_eq!(diff, None, "{name}"),
        }
        compared += 1;
    }
    assert!(compared >= 15, "{compared}");
}

/// The start position's comments (`moves[0].comments`), as shogi-kifu-converter writes them in
/// the corpus's expected JKF: KIF's and KI2's `*` lines before the first move, and CSA's `'`
/// lines between the start position and the first move (not those before the position, the
/// file's notes).
#[test]
fn the_start_positions_comments_are_those_of_the_expected_jkf() {
    let mut compared = 0;
    for json in skc_files() {
        let stem = json.with_extension("");
        let Some(twin) =
            ["csa", "kifu", "kif", "ki2u", "ki2"].iter().map(|e| stem.with_extension(e)).find(|p| p.exists())
        else {
            continue;
        };
        let tb = read(&twin);
        let bump = Bump::new();
        let tree = match twin.extension().and_then(|e| e.to_str()) {
            Some("csa") => tree_of(&bump, &mut kifu::csa::Reader::new(&tb)),
            Some("kif" | "kifu") => tree_of(&bump, &mut kifu::kif::Reader::new(&tb)),
            _ => tree_of(&bump, &mut kifu::ki2::Reader::new(&tb)),
        };
        let ours: serde_json::Value = serde_json::from_slice(&write(&tree)).unwrap();
        let theirs: serde_json::Value = serde_json::from_slice(&read(&json)).unwrap();
        assert_eq!(ours["moves"][0]["comments"], theirs["moves"][0]["comments"], "{}", twin.display());
        compared += 1;
    }
    if common::corpus().is_some() {
        assert!(compared >= 18, "{compared}");
    }
}

/// The CSA source of a generated game (`converted/csa-cshogi/`, or its `sjis/` folder).
fn csa_source(name: &str) -> Option<PathBuf> {
    let root = common::corpus()?.join("converted/csa-cshogi");
    [root.join(name), root.join("sjis").join(name)].into_iter().find(|p| p.exists())
}

/// Main-line moves of a tree.
fn main_moves(tree: &GameTree<'_>) -> Vec<ShogiMove> {
    tree.main_line().flat_map(|n| node_view(tree, n).0).collect()
}

#[test]
fn the_same_game_in_csa_kif_usi_and_jkf_gives_the_same_tree() {
    let Some(dir) = common::corpus_dir("jkf/tsshogi") else { return };
    let root = dir.parent().unwrap().parent().unwrap().to_path_buf();
    let text = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let stem = c[0].trim_end_matches(".jkf");
        let jkf = read(&dir.join(c[0]));
        let bump = Bump::new();
        let ours = tree_of(&bump, &mut Reader::new(&jkf));
        // KIF, written by tsshogi from the same record: the same tree, times and comments.
        let kif_dir = root.join("kif/tsshogi");
        let kif = [kif_dir.join(format!("{stem}.kif")), kif_dir.join(format!("{stem}.kifu"))]
            .into_iter()
            .find(|p| p.exists())
            .expect("a KIF twin");
        let kb = read(&kif);
        let theirs = tree_of(&bump, &mut kifu::kif::Reader::new(&kb));
        assert_eq!(compare(&theirs, &ours, false), None, "{}", c[0]);
        // USI (main line only).
        let ub = read(&root.join(format!("usi/tsshogi/{stem}.usi")));
        let usi = tree_of(&bump, &mut kifu::usi::Reader::new(&ub));
        assert_eq!(main_moves(&usi), main_moves(&ours), "{}", c[0]);
        // The CSA source (main line; tsshogi made its branches from the PV comments).
        let src = csa_source(c[1]).expect("the CSA source");
        let cb = read(&src);
        let csa = tree_of(&bump, &mut kifu::csa::Reader::new(&cb));
        assert_eq!(main_moves(&csa), main_moves(&ours), "{}", c[0]);
        n += 1;
    }
    assert_eq!(n, 300);
}

// ---------------------------------------------------------------- the writer

fn write(tree: &GameTree<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    kifu::jkf::write::write(tree, &mut out).unwrap();
    out
}

/// What the schema asks (`csa/skc-json-kifu-format.schema.json`), checked on a serde_json value:
/// the keys and types of every level, walked with a stack.
fn check_schema(v: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let obj = v.as_object().ok_or("not an object")?;
    for k in obj.keys() {
        if !["header", "initial", "moves"].contains(&k.as_str()) {
            return Err(format!("top-level key {k}"));
        }
    }
    let header = obj.get("header").and_then(Value::as_object).ok_or("header")?;
    if header.values().any(|v| !v.is_string()) {
        return Err("a header value is not a string".into());
    }
    const PRESETS: [&str; 17] =
        ["HIRATE", "KY", "KY_R", "KA", "HI", "HIKY", "2", "3", "4", "5", "5_L", "6", "7_L", "7_R", "8", "10", "OTHER"];
    const KINDS: [&str; 14] = ["FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"];
    const SPECIALS: [&str; 14] = [
        "TORYO",
        "CHUDAN",
        "SENNICHITE",
        "TIME_UP",
        "ILLEGAL_MOVE",
        "+ILLEGAL_ACTION",
        "-ILLEGAL_ACTION",
        "JISHOGI",
        "KACHI",
        "HIKIWAKE",
        "MATTA",
        "TSUMI",
        "FUZUMI",
        "ERROR",
    ];
    if let Some(init) = obj.get("initial").filter(|v| !v.is_null()) {
        let init = init.as_object().ok_or("initial")?;
        let preset = init.get("preset").and_then(Value::as_str).ok_or("preset")?;
        if !PRESETS.contains(&preset) {
            return Err(format!("preset {preset}"));
        }
        if let Some(data) = init.get("data") {
            let color = data["color"].as_u64().ok_or("data.color")?;
            let board = data["board"].as_array().ok_or("data.board")?;
            let hands = data["hands"].as_array().ok_or("data.hands")?;
            if color > 1 || board.len() != 9 || hands.len() != 2 {
                return Err("data".into());
            }
            for col in board {
                for sq in col.as_array().ok_or("column")? {
                    let sq = sq.as_object().ok_or("square")?;
                    if sq.keys().any(|k| k != "color" && k != "kind") {
                        return Err("square key".into());
                    }
                    if let Some(k) = sq.get("kind") {
                        if !KINDS.contains(&k.as_str().ok_or("kind")?) {
                            return Err("kind".into());
                        }
                    }
                }
            }
            for h in hands {
                for (k, n) in h.as_object().ok_or("hand")? {
                    if !KINDS.contains(&k.as_str()) || !n.is_u64() {
                        return Err("hand".into());
                    }
                }
            }
        }
    }
    let moves = obj.get("moves").and_then(Value::as_array).ok_or("moves")?;
    let place = |p: &Value| -> Result<(), String> {
        let p = p.as_object().ok_or("place")?;
        let ok = p.len() == 2
            && p.get("x").and_then(Value::as_u64).is_some_and(|x| (1..=9).contains(&x))
            && p.get("y").and_then(Value::as_u64).is_some_and(|y| (1..=9).contains(&y));
        if ok {
            Ok(())
        } else {
            Err("place".into())
        }
    };
    let mut stack: Vec<&Value> = moves.iter().skip(1).collect();
    while let Some(m) = stack.pop() {
        let m = m.as_object().ok_or("element")?;
        for (k, v) in m {
            match k.as_str() {
                "comments" => {
                    if !v.as_array().ok_or("comments")?.iter().all(Value::is_string) {
                        return Err("comment".into());
                    }
                }
                "move" => {
                    let mv = v.as_object().ok_or("move")?;
                    for (mk, mvv) in mv {
                        match mk.as_str() {
                            "color" => {
                                if mvv.as_u64().is_none_or(|c| c > 1) {
                                    return Err("color".into());
                                }
                            }
                            "from" | "to" => place(mvv)?,
                            "piece" | "capture" => {
                                if !KINDS.contains(&mvv.as_str().ok_or("piece")?) {
                                    return Err("piece".into());
                                }
                            }
                            "same" | "promote" => {
                                mvv.as_bool().ok_or("bool")?;
                            }
                            other => return Err(format!("move key {other}")),
                        }
                    }
                    if !mv.contains_key("color") || !mv.contains_key("to") || !mv.contains_key("piece") {
                        return Err("move lacks a required key".into());
                    }
                }
                "time" => {
                    let t = v.as_object().ok_or("time")?;
                    for part in ["now", "total"] {
                        let p = t.get(part).and_then(Value::as_object).ok_or("time part")?;
                        if !p.get("m").is_some_and(Value::is_u64) || !p.get("s").is_some_and(Value::is_u64) {
                            return Err("time m/s".into());
                        }
                    }
                }
                "special" => {
                    if !SPECIALS.contains(&v.as_str().ok_or("special")?) {
                        return Err("special".into());
                    }
                }
                "forks" => {
                    for f in v.as_array().ok_or("forks")? {
                        stack.extend(f.as_array().ok_or("fork")?.iter());
                    }
                }
                other => return Err(format!("element key {other}")),
            }
        }
    }
    Ok(())
}

#[test]
fn every_jkf_round_trips_through_the_writer() {
    let Some(dir) = common::corpus_dir("jkf") else { return };
    let mut files = jkf_files(&dir);
    files.extend(skc_files());
    let mut n = 0;
    for f in &files {
        let bytes = read(f);
        let bump = Bump::new();
        let a = tree_of(&bump, &mut Reader::new(&bytes));
        let out = write(&a);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        check_schema(&v).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let b = tree_of(&bump, &mut Reader::new(&out));
        assert_eq!(a.canonical_diff(&b), None, "{}", f.display());
        assert_eq!(a.ending(), b.ending(), "{}", f.display());
        // What the writer adds, it keeps: a second round trip is the same bytes.
        let c = tree_of(&bump, &mut Reader::new(&out));
        assert_eq!(write(&c), out, "{}", f.display());
        n += 1;
    }
    assert!(n >= 320, "{n}");
}

/// The writer's count of what it leaves out: nothing for a JKF document read back (the round
/// trip above loses nothing), each kind of loss of the writer's table once.
#[test]
fn the_writer_counts_what_it_leaves_out() {
    let count = |tree: &GameTree<'_>| kifu::jkf::write::write_counting(tree, &mut Vec::new()).unwrap();
    if let Some(dir) = common::corpus_dir("jkf") {
        for f in jkf_files(&dir) {
            let bytes = read(&f);
            let bump = Bump::new();
            let tree = tree_of(&bump, &mut Reader::new(&bytes));
            let again = tree_of(&bump, &mut Reader::new(&write(&tree)));
            assert_eq!(count(&again), 0, "{}", f.display());
        }
    }
    let bump = Bump::new();
    // CSA's version (an info JKF has no key for) and a comment before the first move (a
    // property of the game node).
    let csa = b"V2.2\nN+A\nN-B\n'a note\nPI\n+\n+7776FU\nT12\n-3334FU\nT5\n%CHUDAN\n";
    let tree = tree_of(&bump, &mut kifu::csa::Reader::new(csa));
    assert_eq!(count(&tree), 2);
    // A comment between the start position and the first move is the position's, kept.
    let csa = b"V2.2\nN+A\nN-B\nPI\n+\n'a note\n+7776FU\nT12\n-3334FU\nT5\n%CHUDAN\n";
    let tree = tree_of(&bump, &mut kifu::csa::Reader::new(csa));
    assert_eq!(count(&tree), 1);
    // The special move's time (the last node's second clock) is written.
    let csa = b"N+A\nN-B\nPI\n+\n+7776FU\nT12\n-3334FU\nT5\n%TORYO\nT3\n";
    let tree = tree_of(&bump, &mut kifu::csa::Reader::new(csa));
    assert_eq!(count(&tree), 0);
    // A special move CSA does not know: the reader keeps it as a property of the last node
    // (no place in JKF) and ends the game with `Ending::Other` (no special move in JKF).
    let csa = b"N+A\nN-B\nPI\n+\n+7776FU\n%FOO\n";
    let tree = tree_of(&bump, &mut kifu::csa::Reader::new(csa));
    assert_eq!(tree.ending(), Some(kifu::Ending::Other));
    assert_eq!(count(&tree), 2);
    // A second value of one header key.
    let kif = "先手：A\n先手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let tree = tree_of(&bump, &mut kifu::kif::Reader::new(kif.as_bytes()));
    assert_eq!(count(&tree), 1);
}

#[test]
fn csa_games_through_jkf_keep_moves_times_and_comments() {
    let Some(root) = common::corpus() else { return };
    let mut files = common::files(&root.join("csa"), &[".csa"]);
    files.extend(common::files(&root.join("converted/csa-cshogi"), &[".csa"]).into_iter().step_by(7));
    let mut n = 0;
    for f in &files {
        let bytes = read(f);
        let mut r = kifu::csa::Reader::new(&bytes);
        loop {
            let bump = Bump::new();
            let Ok(Some(a)) = kifu::tree::build(&bump, &mut r) else { break };
            let out = write(&a);
            let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
            check_schema(&v).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let b = tree_of(&bump, &mut Reader::new(&out));
            // The game node's comments: the CSA reader gives `'` lines there as properties,
            // which JKF does not keep (the writer's loss table).
            assert_eq!(compare(&a, &b, true), None, "{}", f.display());
            n += 1;
        }
    }
    assert!(n >= 300, "{n}");
}

// ---------------------------------------------------------------- rules

/// A move object's JSON.
fn mv(color: u8, from: Option<(u8, u8)>, to: (u8, u8), piece: &str, extra: &str) -> String {
    let from = from.map_or(String::new(), |(x, y)| format!(r#""from":{{"x":{x},"y":{y}}},"#));
    format!(r#"{{"color":{color},{from}"to":{{"x":{},"y":{}}},"piece":"{piece}"{extra}}}"#, to.0, to.1)
}

fn doc(moves: &str) -> String {
    format!(r#"{{"header":{{}},"moves":[{{}}{moves}]}}"#)
}

fn setups(evs: &[Event]) -> Vec<Setup> {
    evs.iter().filter_map(|e| if let Event::Setup(s) = e { Some(*s) } else { None }).collect()
}

fn infos(evs: &[Event]) -> Vec<(InfoKey, String, String)> {
    evs.iter()
        .filter_map(|e| match e {
            Event::Info(i) => {
                Some((i.key(), String::from_utf8_lossy(i.name()).into_owned(), i.value().decode().text.into_owned()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn header_keys_are_infos() {
    let j = r#"{"header":{"先手":"A","後手":"B","下手":"C","上手":"D","開始日時":"2024/01/01","棋戦":"E\u0041","対局ID":"7"},"moves":[{}]}"#;
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), []);
    let got = infos(&evs);
    let want = [
        (InfoKey::BlackName, "先手", "A"),
        (InfoKey::WhiteName, "後手", "B"),
        (InfoKey::BlackName, "下手", "C"),
        (InfoKey::WhiteName, "上手", "D"),
        (InfoKey::Date, "開始日時", "2024/01/01"),
        (InfoKey::Event, "棋戦", "EA"),
        (InfoKey::Other, "対局ID", "7"),
    ];
    assert_eq!(got, want.map(|(k, n, v)| (k, n.to_string(), v.to_string())));
    // A value that is not a string is skipped with a warning.
    let evs = events(br#"{"header":{"x":1,"y":"2"},"moves":[{}]}"#);
    assert_eq!(warnings(&evs), [WarningKind::WrongType]);
    assert_eq!(infos(&evs).len(), 1);
}

#[test]
fn initial_presets_and_data() {
    // No initial, null and HIRATE: the standard position, Black to move.
    for j in [
        &doc("")[..],
        r#"{"header":{},"initial":null,"moves":[{}]}"#,
        r#"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{}]}"#,
    ] {
        let evs = events(j.as_bytes());
        assert_eq!(warnings(&evs), [], "{j}");
        let s = setups(&evs);
        assert_eq!(s.len(), 40, "{j}");
        assert_eq!(s[0], Setup::Shogi { color: Color::White, piece: Piece::Lance, square: Some(Square::new(9, 1)) });
        assert_eq!(s[39], Setup::Shogi { color: Color::Black, piece: Piece::Lance, square: Some(Square::new(1, 9)) });
        assert!(evs.contains(&Event::Turn(Color::Black)));
    }
    // A handicap: its pieces removed, White to move.
    for (preset, n) in
        [("KY", 39), ("KY_R", 39), ("HIKY", 38), ("2", 38), ("4", 36), ("5_L", 35), ("7_R", 33), ("10", 30)]
    {
        let j = format!(r#"{{"header":{{}},"initial":{{"preset":"{preset}"}},"moves":[{{}}]}}"#);
        let evs = events(j.as_bytes());
        assert_eq!(setups(&evs).len(), n, "{preset}");
        assert!(evs.contains(&Event::Turn(Color::White)), "{preset}");
    }
    let evs = events(br#"{"header":{},"initial":{"preset":"KY_R"},"moves":[{}]}"#);
    assert!(!setups(&evs).iter().any(|s| matches!(s, Setup::Shogi { square: Some(q), .. } if *q == Square::new(9, 1))));
    // OTHER: board[x-1][y-1], rank by rank from file 9; hands rook first; the turn.
    let mut board = vec![vec!["{}".to_string(); 9]; 9];
    board[4][0] = r#"{"color":1,"kind":"OU"}"#.into();
    board[4][8] = r#"{"color":0,"kind":"OU"}"#.into();
    board[0][2] = r#"{"color":1,"kind":"TO"}"#.into();
    let cols: Vec<String> = board.iter().map(|c| format!("[{}]", c.join(","))).collect();
    let j = format!(
        r#"{{"header":{{}},"initial":{{"preset":"OTHER","data":{{"color":1,"board":[{}],"hands":[{{"FU":2,"HI":1}},{{"KI":1}}]}}}},"moves":[{{}}]}}"#,
        cols.join(",")
    );
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), []);
    let b = |c, p, s: Option<(u8, u8)>| Setup::Shogi { color: c, piece: p, square: s.map(|(f, r)| Square::new(f, r)) };
    assert_eq!(
        setups(&evs),
        [
            b(Color::White, Piece::King, Some((5, 1))),
            b(Color::White, Piece::ProPawn, Some((1, 3))),
            b(Color::Black, Piece::King, Some((5, 9))),
            b(Color::Black, Piece::Rook, None),
            b(Color::Black, Piece::Pawn, None),
            b(Color::Black, Piece::Pawn, None),
            b(Color::White, Piece::Gold, None),
        ]
    );
    assert!(evs.contains(&Event::Turn(Color::White)));
    // OTHER without data, an unknown preset: the standard position, with a warning.
    let evs = events(br#"{"header":{},"initial":{"preset":"OTHER"},"moves":[{}]}"#);
    assert_eq!((warnings(&evs), setups(&evs).len()), (vec![WarningKind::MissingValue], 40));
    let evs = events(br#"{"header":{},"initial":{"preset":"9"},"moves":[{}]}"#);
    assert_eq!((warnings(&evs), setups(&evs).len()), (vec![WarningKind::UnknownKey], 40));
    // A hand count beyond 18 is a bad value (no flood of setups).
    let evs = events(br#"{"header":{},"initial":{"preset":"OTHER","data":{"color":0,"board":{},"hands":[{"FU":1000000},{}]}},"moves":[{}]}"#);
    assert_eq!((warnings(&evs), setups(&evs).len()), (vec![WarningKind::BadValue], 0));
}

#[test]
fn moves_promotions_drops_same_times_and_comments() {
    let j = doc(&format!(
        r#",{{"move":{},"time":{{"now":{{"m":1,"s":2}},"total":{{"h":0,"m":1,"s":2}}}},"comments":["a","b\n"]}},{{"move":{}}},{{"move":{}}},{{"move":{}}},{{"move":{}}}"#,
        mv(0, Some((7, 7)), (7, 6), "FU", ""),
        mv(1, Some((3, 3)), (3, 4), "FU", ""),
        mv(0, Some((8, 8)), (2, 2), "KA", r#","promote":true,"capture":"KA""#),
        r#"{"color":1,"from":{"x":3,"y":1},"same":true,"piece":"GI","capture":"UM"}"#,
        mv(0, None, (5, 5), "KA", r#","relative":"H""#),
    ));
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), []);
    let m = moves(&evs);
    assert_eq!(
        m[2],
        ShogiMove { color: Color::Black, from: Some(Square::new(8, 8)), to: Square::new(2, 2), piece: Piece::Horse }
    );
    // `same` without `to`: the previous move's square.
    assert_eq!(
        m[3],
        ShogiMove { color: Color::White, from: Some(Square::new(3, 1)), to: Square::new(2, 2), piece: Piece::Silver }
    );
    assert_eq!(m[4], ShogiMove { color: Color::Black, from: None, to: Square::new(5, 5), piece: Piece::Bishop });
    // Node, Move, Clock, Comments: in event order.
    let i = evs.iter().position(|e| *e == Event::Node).unwrap();
    assert!(
        matches!(evs[i + 2], Event::Clock(c) if c.value == 62_000 && c.kind == ClockKind::ElapsedMs && c.color == Some(Color::Black))
    );
    assert!(matches!(evs[i + 3], Event::Comment(t) if t.decode().text == "a"));
    assert!(matches!(evs[i + 4], Event::Comment(t) if t.decode().text == "b\n"));
    // Keys in another order (comments, time, move) give the same events.
    let k = doc(&format!(
        r#",{{"comments":["a"],"time":{{"now":{{"m":0,"s":3}},"total":{{"m":0,"s":3}}}},"move":{}}}"#,
        mv(0, Some((7, 7)), (7, 6), "FU", "")
    ));
    let evs = events(k.as_bytes());
    let i = evs.iter().position(|e| *e == Event::Node).unwrap();
    assert!(matches!(evs[i + 1], Event::Move(_)));
    assert!(matches!(evs[i + 2], Event::Clock(c) if c.value == 3000));
    assert!(matches!(evs[i + 3], Event::Comment(_)));
}

#[test]
fn root_comments_belong_to_the_game_node() {
    let j = format!(
        r#"{{"header":{{}},"moves":[{{"comments":["start"]}},{{"move":{}}}]}}"#,
        mv(0, Some((7, 7)), (7, 6), "FU", "")
    );
    let evs = events(j.as_bytes());
    let c = evs.iter().position(|e| matches!(e, Event::Comment(_))).unwrap();
    let n = evs.iter().position(|e| *e == Event::Node).unwrap();
    assert!(c < n);
    // A move in moves[0] is not a move of the game.
    let j = format!(r#"{{"header":{{}},"moves":[{{"move":{}}}]}}"#, mv(0, Some((7, 7)), (7, 6), "FU", ""));
    let evs = events(j.as_bytes());
    assert_eq!((moves(&evs).len(), warnings(&evs)), (0, vec![WarningKind::Repaired]));
}

#[test]
fn specials_end_the_game_or_are_properties_in_forks() {
    let all = [
        ("TORYO", Ending::Resign),
        ("CHUDAN", Ending::Interrupted),
        ("SENNICHITE", Ending::Repetition),
        ("TIME_UP", Ending::TimeUp),
        ("ILLEGAL_MOVE", Ending::IllegalMove),
        ("+ILLEGAL_ACTION", Ending::IllegalActionBlack),
        ("-ILLEGAL_ACTION", Ending::IllegalActionWhite),
        ("JISHOGI", Ending::Impasse),
        ("KACHI", Ending::DeclareWin),
        ("HIKIWAKE", Ending::Draw),
        ("MATTA", Ending::Matta),
        ("TSUMI", Ending::Checkmate),
        ("FUZUMI", Ending::NoCheckmate),
        ("ERROR", Ending::Error),
        ("OUTE_SENNICHITE", Ending::PerpetualCheck),
        ("MAX_MOVES", Ending::MaxMoves),
    ];
    for (name, ending) in all {
        let j = doc(&format!(
            r#",{{"move":{}}},{{"special":"{name}","time":{{"now":{{"m":0,"s":4}},"total":{{"m":0,"s":4}}}}}}"#,
            mv(0, Some((7, 7)), (7, 6), "FU", "")
        ));
        let evs = events(j.as_bytes());
        assert_eq!(warnings(&evs), [], "{name}");
        assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(e), .. }) if *e == ending), "{name}");
        // Its time: a clock of the side to move, on the last node.
        assert!(evs.iter().any(|e| matches!(e, Event::Clock(c) if c.value == 4000 && c.color == Some(Color::White))));
    }
    let j = doc(r#",{"special":"NANI"}"#);
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::UnknownKey]);
    assert!(evs.iter().any(|e| matches!(e, Event::Property(p) if p.name() == b"special")));
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: Some(Ending::Other), .. })));
    // A move after the special of the main line is read, with a warning.
    let j = doc(&format!(r#",{{"special":"TORYO"}},{{"move":{}}}"#, mv(0, Some((7, 7)), (7, 6), "FU", "")));
    let evs = events(j.as_bytes());
    assert_eq!((warnings(&evs), moves(&evs).len()), (vec![WarningKind::MoveAfterEnd], 1));
}

#[test]
fn forks_are_sibling_variations() {
    // 1. 7g7f (forks: [2g2f 8c8d], [5g5f]) 2. 3c3d; the first fork has a special move.
    let a = mv(0, Some((7, 7)), (7, 6), "FU", "");
    let b = mv(1, Some((3, 3)), (3, 4), "FU", "");
    let f1 = mv(0, Some((2, 7)), (2, 6), "FU", "");
    let f1b = mv(1, Some((8, 3)), (8, 4), "FU", "");
    let f2 = mv(0, Some((5, 7)), (5, 6), "FU", "");
    let j = doc(&format!(
        r#",{{"move":{a},"forks":[[{{"move":{f1}}},{{"move":{f1b}}},{{"special":"TORYO"}}],[{{"move":{f2}}}]]}},{{"move":{b}}}"#
    ));
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), []);
    let shape: Vec<&str> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Node => Some("node"),
            Event::VariationStart(Branch::Sibling) => Some("("),
            Event::VariationEnd => Some(")"),
            Event::Property(_) => Some("special"),
            _ => None,
        })
        .collect();
    assert_eq!(shape, ["node", "(", "node", "node", "special", ")", "(", "node", ")", "node"]);
    // The game's ending is the main line's (none here).
    assert!(matches!(evs.last(), Some(Event::GameEnd { ending: None, .. })));
    let bump = Bump::new();
    let tree = tree_of(&bump, &mut Reader::new(j.as_bytes()));
    assert_eq!(tree.children(NodeId::GAME).count(), 3);
    // `same` in a fork's first move is the square before the forked move.
    let j = doc(&format!(
        r#",{{"move":{a}}},{{"move":{b},"forks":[[{{"move":{{"color":1,"from":{{"x":6,"y":3}},"same":true,"piece":"FU"}}}}]]}}"#
    ));
    let m = moves(&events(j.as_bytes()));
    assert_eq!(m[2].to, Square::new(7, 6));
    // Forks on an element without a move, and a move after forks, are repaired.
    let j = doc(&format!(r#",{{"move":{a},"forks":[],"move":{b}}},{{"forks":[[]]}}"#));
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), [WarningKind::Repaired, WarningKind::MissingValue, WarningKind::Repaired]);
}

#[test]
fn documents_with_moves_first_are_read_in_event_order() {
    let j = format!(
        r#"{{"moves":[{{}},{{"move":{}}}],"initial":{{"preset":"KA"}},"header":{{"先手":"A"}}}}"#,
        mv(1, Some((3, 3)), (3, 4), "FU", "")
    );
    let evs = events(j.as_bytes());
    assert_eq!(warnings(&evs), []);
    let first_node = evs.iter().position(|e| *e == Event::Node).unwrap();
    let info = evs.iter().position(|e| matches!(e, Event::Info(_))).unwrap();
    let turn = evs.iter().position(|e| matches!(e, Event::Turn(_))).unwrap();
    assert!(info < first_node && turn < first_node);
    assert_eq!(setups(&evs).len(), 39);
    // Several documents one after another, the second of this order too.
    let two = format!("{j}\n{j}\n");
    let evs = events(two.as_bytes());
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::GameEnd { .. })).count(), 2);
    assert_eq!(moves(&evs).len(), 2);
}

#[test]
fn recovery_and_strict_mode() {
    let cases: [(&str, &[WarningKind]); 8] = [
        (r#"{"moves":[{}]}"#, &[WarningKind::MissingValue]),
        (r#"{"header":{}}"#, &[WarningKind::MissingValue]),
        (r#"{"header":{},"moves":[{}],"extra":[1,2]}"#, &[WarningKind::UnknownKey]),
        (
            r#"{"header":{},"moves":[{},{"move":{"color":0,"piece":"FU"}}]}"#,
            &[WarningKind::MissingValue, WarningKind::MissingValue],
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":10,"y":1},"piece":"FU"}}]}"#,
            &[WarningKind::BadValue, WarningKind::MissingValue, WarningKind::MissingValue],
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":1,"y":1},"piece":"XX"}}]}"#,
            &[WarningKind::BadValue, WarningKind::MissingValue, WarningKind::MissingValue],
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":1,"y":1},"piece":"KI","promote":true}}]}"#,
            &[WarningKind::BadValue],
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":1,"y":1},"piece":"FU","foo":1},"comments":"x"}]}"#,
            &[WarningKind::UnknownKey, WarningKind::WrongType],
        ),
    ];
    for (j, want) in cases {
        let evs = events(j.as_bytes());
        assert_eq!(warnings(&evs), want, "{j}");
        let strict: Vec<_> = Reader::with_config(j.as_bytes(), Config::strict()).collect();
        assert!(strict.iter().any(|e| e.is_err()), "{j}");
        check_contract(j.as_bytes(), &mut Reader::new(j.as_bytes()), false);
    }
    // Lenient JSON is read with a warning, strict JSON only in strict mode.
    let evs = events(b"{header: {}, moves: [{},],}");
    assert!(warnings(&evs).iter().all(|w| *w == WarningKind::JsonExtension));
}

// ---------------------------------------------------------------- hostile input

#[test]
fn deeply_nested_forks_are_a_clean_error() {
    let n = 1_000_000;
    let a = mv(0, Some((7, 7)), (7, 6), "FU", "");
    let mut j = String::from(r#"{"header":{},"moves":[{}"#);
    j.push(',');
    for _ in 0..n {
        j.push_str(&format!(r#"{{"move":{a},"forks":[["#));
    }
    let items: Vec<_> = Reader::new(j.as_bytes()).collect();
    let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].kind(), kifu::ErrorKind::LimitExceeded(kifu::error::Limit::Depth));
    // Under a small limit: the fork limit when the moves are read in place, the tokenizer's
    // nesting limit (three JSON levels a fork, and a margin) when they are skipped first (no
    // `initial` before them): the same error kind either way.
    let config = Config::default().with_limits(Limits::default().with_max_depth(10));
    let with_initial = j.replacen(r#""header":{},"#, r#""header":{},"initial":null,"#, 1);
    for (input, message) in [(&with_initial, "forks nested too deep"), (&j, "JSON nesting too deep")] {
        let items: Vec<_> = Reader::with_config(input.as_bytes(), config).collect();
        let errs: Vec<_> = items.iter().filter_map(|e| e.as_ref().err()).collect();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].kind(), kifu::ErrorKind::LimitExceeded(kifu::error::Limit::Depth));
        assert_eq!(errs[0].message(), message);
    }
    check_contract(j.as_bytes(), &mut Reader::new(j.as_bytes()), false);
    // Closed, 50 levels read fine.
    let mut j = String::from(r#"{"header":{},"moves":[{}"#);
    j.push(',');
    for _ in 0..50 {
        j.push_str(&format!(r#"{{"move":{a},"forks":[["#));
    }
    j.push_str(&format!(r#"{{"move":{a}}}"#));
    for _ in 0..50 {
        j.push_str("]]}");
    }
    j.push_str("]}");
    let evs = events(j.as_bytes());
    assert_eq!(evs.iter().filter(|e| matches!(e, Event::VariationStart(_))).count(), 50);
}

#[test]
fn hostile_inputs_keep_the_contract() {
    let Some(dir) = common::corpus_dir("jkf") else { return };
    let mut rng = common::rng::XorShift::new(23);
    for f in jkf_files(&dir).into_iter().step_by(10) {
        let bytes = read(&f);
        for _ in 0..20 {
            let mut m = bytes.clone();
            for _ in 0..1 + rng.next() % 4 {
                let i = (rng.next() as usize) % m.len();
                match rng.next() % 3 {
                    0 => m[i] = b"{}[],:\"0 x\\"[(rng.next() % 11) as usize],
                    1 => {
                        m.remove(i);
                    }
                    _ => m.insert(i, (rng.next() % 256) as u8),
                }
            }
            check_contract(&m, &mut Reader::new(&m), false);
            check_contract(&m, &mut Reader::with_config(&m, Config::strict()), true);
        }
    }
    for junk in [&b""[..], b"{", b"[", b"\xff\xfe", b"{\"header\":{},\"moves\":[{},{\"move\":", b"{}{}{}", b"null"] {
        check_contract(junk, &mut Reader::new(junk), false);
    }
}

// ---------------------------------------------------------------- streams and detection

#[test]
fn streaming_equals_slice_reading() {
    let Some(dir) = common::corpus_dir("jkf") else { return };
    let mut all = Vec::new();
    for f in jkf_files(&dir).into_iter().step_by(3) {
        all.extend_from_slice(&read(&f));
        all.push(b'\n');
    }
    let slice: Vec<String> = Reader::new(&all).map(|e| format!("{:?}", e.unwrap())).collect();
    let games = slice.iter().filter(|e| e.starts_with("GameStart")).count();
    assert!(games >= 100, "{games}");
    for buf in [1usize, 7, 4096, 1 << 20] {
        let read = common::dribble::Dribble::new(&all, buf as u64, buf);
        let mut split = kifu::stream::splitter(Format::Jkf, Box::new(read), Config::default());
        let mut out = Vec::new();
        let mut base = 0u64;
        while let Some(chunk) = split.next_game() {
            let chunk = chunk.unwrap();
            let mut r = kifu::stream::read_chunk(Format::Jkf, &chunk, Config::default());
            while let Some(ev) = r.next_event() {
                out.push(format!("{:?}", ev.unwrap()));
            }
            base += 1;
        }
        assert_eq!(base as usize, games);
        assert_eq!(out, slice, "buffer {buf}");
    }
}

#[test]
fn detection() {
    assert_eq!(kifu::detect(doc("").as_bytes()), Some(Format::Jkf));
    assert_eq!(
        kifu::jkf::sniff(br#"{"moves":[{},{"move":{"color":0,"to":{"x":7,"y":6},"piece":"FU"}}]}"#),
        kifu::format::Confidence::Maybe
    );
    for other in [
        &br#"{"tree":[{}],"moves":[]}"#[..],
        br#"{"players":{},"board":{},"moves":[]}"#,
        br#"[{"header":{},"moves":[]}]"#,
        b"header moves",
        br#"{"name":"x","list":[1,2]}"#,
    ] {
        assert_eq!(kifu::jkf::sniff(other), kifu::format::Confidence::No, "{}", String::from_utf8_lossy(other));
    }
}
