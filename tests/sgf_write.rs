//! The SGF FF[4] writer (`kifu::sgf::write` through `kifu::tree::Writer`): a hand-written case
//! for each of its rules, the corpus round trip (read → tree → write → read gives the same tree
//! by the full canonical comparison, except in the games the writer repaired, which are counted
//! by repair kind and asserted exactly), and the allocation count.

mod common;

use bumpalo::Bump;
use kifu::sgf::write::{NodeWriter, Refusal, Repair, RepairKind, LINE_WIDTH};
use kifu::tree::{self, Builder, GameTree, Writer};
use kifu::{AnyReader, Color, Config, Event, Move, Point, Setup};
use std::collections::BTreeMap;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// The first game of `input` (any format) written with its repairs.
fn write(input: &[u8]) -> (String, Vec<Repair>) {
    let data = kifu::input::prepare(input);
    let mut r = AnyReader::detect(&data, Config::default()).expect("a game record");
    let bump = Bump::new();
    let t = tree::build(&bump, &mut r).unwrap().unwrap();
    let (mut out, mut repairs) = (Vec::new(), Vec::new());
    Writer::new().sgf_with_repairs(&t, &mut out, &mut repairs).unwrap();
    (String::from_utf8(out).expect("UTF-8 output"), repairs)
}

fn kinds(repairs: &[Repair]) -> Vec<&'static str> {
    repairs.iter().map(|r| r.kind.as_str()).collect()
}

fn tree_of<'b>(bump: &'b Bump, sgf: &[u8]) -> GameTree<'b> {
    tree::build(bump, &mut kifu::sgf::Reader::new(sgf)).unwrap().unwrap()
}

/// Writes `input` and reads the output back: the same game (no repair was needed).
fn round_trips(input: &[u8]) -> String {
    let (out, repairs) = write(input);
    assert!(repairs.is_empty(), "{repairs:?}");
    let bump = Bump::new();
    let a = tree_of(&bump, input);
    let b = tree_of(&bump, out.as_bytes());
    assert!(a.canonical_eq(&b), "{:?}\n{out}", a.canonical_diff(&b));
    out
}

#[test]
fn root_says_ff4_gm1_and_utf8() {
    assert_eq!(round_trips(b"(;SZ[9];B[cc])"), "(;FF[4]GM[1]CA[UTF-8]SZ[9];B[cc])");
    // The input's FF, GM and CA are replaced, wherever they stand in the root.
    assert_eq!(round_trips(b"(;CA[latin1]SZ[9]FF[3]GM[1];B[cc])"), "(;FF[4]GM[1]CA[UTF-8]SZ[9];B[cc])");
    // A numeric GM is kept.
    assert!(write(b"(;GM[2];B[cc])").0.starts_with("(;FF[4]GM[2]CA[UTF-8];"));
    // An unknown game name becomes GM[1], reported.
    let (out, repairs) = write(b"(;GM[chess];B[cc])");
    assert!(out.starts_with("(;FF[4]GM[1]CA[UTF-8];"), "{out}");
    assert_eq!(kinds(&repairs), ["game_type"]);
    assert_eq!(repairs[0].to_string(), "GM[chess]: game type written as GM[1] (node 0)");
    // A GM given after the Go setup and moves it would have changed (after a variation, where
    // the reader already read them as Go's): written first as GM[2], they would read back as
    // Othello's properties, so it becomes GM[1], reported (found by the `tree` fuzz target).
    let (out, repairs) = write(b"(;FF[4](;AB[ag])(;B[dp])GM[2])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8](;AB[ag])(;B[dp]))");
    assert_eq!(kinds(&repairs), ["game_type"]);
    assert_eq!(repairs[0].to_string(), "GM[2]: game type written as GM[1] (node 0)");
    // Where the GM comes first, the game is read as that game's: written as it was.
    let (out, repairs) = write(b"(;GM[2](;AB[ag])(;B[dp]))");
    assert!(out.starts_with("(;FF[4]GM[2]CA[UTF-8]"), "{out}");
    assert!(repairs.is_empty(), "{repairs:?}");
}

#[test]
fn other_formats_get_sgf_values() {
    let root = common::workspace_root();
    // JGF says `"version": 2` and `"game": "go"`: FF[4] and GM[1] in SGF.
    for f in ["samples/ear-reddening.jgf", "samples/ear-reddening-v1.jgf", "samples/ear-reddening.xml"] {
        let (out, repairs) = write(&std::fs::read(root.join(f)).unwrap());
        assert!(out.starts_with("(;FF[4]GM[1]CA[UTF-8]"), "{f}: {out}");
        assert!(!out.contains("FF[2]") && !out.contains("GM[go]"), "{f}: {out}");
        assert!(repairs.is_empty(), "{f}: {repairs:?}");
    }
    // `AP` is `name:version` in SGF: another format's free text (JGF "generator": "Seki v4.3.0")
    // gets an empty version, and compares equal to itself without it.
    let (out, _) = write(b"{\"record\":{\"version\":\"2.0.0\",\"generator\":\"Seki v4.3.0\"},\"game\":{\"type\":\"go\"},\"moves\":[{\"B\":[3,3]}]}");
    assert!(out.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[Seki v4.3.0:]"), "{out}");
    assert_eq!(round_trips(b"(;AP[YuanYu]AN[a:b];B[aa])"), "(;FF[4]GM[1]CA[UTF-8]AP[YuanYu:]AN[a:b];B[aa])");
    assert_eq!(round_trips(b"(;AP[kifu:1.0])"), "(;FF[4]GM[1]CA[UTF-8]AP[kifu:1.0])");
    // A Shift_JIS file without CA comes out as UTF-8 with CA[UTF-8].
    let (out, _) = write(&std::fs::read(root.join("samples/shift-jis-no-charset.sgf")).unwrap());
    assert!(out.starts_with("(;FF[4]GM[1]CA[UTF-8]SZ[19]PB[ソーソ]PW[表示]EV[第1期 棋聖戦]C[コミ6目半]"), "{out}");
    // The same in a hand-made file: CA[Shift_JIS] with a 0x5C trail byte (ソ) in a value.
    let (out, _) = write(b"(;CA[Shift_JIS]PB[\x83\x5c]C[a\\]b];B[aa])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]PB[ソ]C[a\\]b];B[aa])");
}

#[test]
fn shogi_is_refused() {
    let csa = std::fs::read(common::workspace_root().join("samples/yagura-opening.csa")).unwrap();
    let mut r = AnyReader::detect(&csa, Config::default()).unwrap();
    let bump = Bump::new();
    let t = tree::build(&bump, &mut r).unwrap().unwrap();
    let (mut out, mut repairs) = (b"kept".to_vec(), Vec::new());
    let e = Writer::new().sgf_with_repairs(&t, &mut out, &mut repairs).unwrap_err();
    assert_eq!(e, Refusal::Shogi);
    assert_eq!(e.as_str(), "shogi_not_sgf");
    assert!(e.to_string().contains("SGF has no shogi moves"), "{e}");
    assert_eq!((out.as_slice(), repairs.len()), (&b"kept"[..], 0), "nothing written");
    assert_eq!(tree::write_sgf(&t, &mut out), Err(Refusal::Shogi));
}

#[test]
fn passes_are_empty_values() {
    // FF[3]'s `tt` on 19×19 is a pass: written `B[]` under FF[4].
    assert_eq!(round_trips(b"(;FF[3];B[tt];W[];B[aa])"), "(;FF[4]GM[1]CA[UTF-8];B[];W[];B[aa])");
    // On a larger board `tt` is a point.
    assert_eq!(round_trips(b"(;SZ[21];B[tt])"), "(;FF[4]GM[1]CA[UTF-8]SZ[21];B[tt])");
}

#[test]
fn every_property_kept_and_escaped() {
    // Unknown properties verbatim with all their values; escapes in text, labels and unknown
    // values; FF[3] long identifiers shortened.
    let out =
        round_trips(b"(;XX[a][b\\]c][d:e]YY[]PlayerBlack[Lee \\\\ Sedol];C[x\\]y\\\\z:]LB[aa:1\\:2][bb:\\]]N[n])");
    assert_eq!(
        out,
        "(;FF[4]GM[1]CA[UTF-8]XX[a][b\\]c][d:e]YY[]PB[Lee \\\\ Sedol];C[x\\]y\\\\z:]LB[aa:1\\:2][bb:\\]]N[n])"
    );
    // Known properties without an event of their own, soft line breaks, white space.
    let out = round_trips(b"(;GC[two\\\nparts\r\nand a line]TM[60]OT[5x30];B[aa]KO[]MN[3]BM[1])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]GC[twoparts\nand a line]TM[60]OT[5x30];B[aa]KO[]MN[3]BM[1])");
}

#[test]
fn a_second_comment_is_joined() {
    let (out, repairs) = write(b"(;C[one]B[aa]C[two]C[three])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]B[aa]C[one\n\ntwo\n\nthree])");
    assert_eq!(kinds(&repairs), ["comment_joined", "comment_joined"]);
    assert_eq!(repairs[0].to_string(), "C[two]: second comment in one node joined to the first (node 1)");
    assert_eq!((repairs[0].property.as_str(), repairs[0].node, repairs[0].offset), ("C", Some(1), None));
}

#[test]
fn a_second_move_starts_a_node() {
    let (out, repairs) = write(b"(;SZ[9];B[cc]C[x]W[dd]N[y];B[])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]SZ[9];B[cc]C[x];W[dd]N[y];B[])");
    assert_eq!(kinds(&repairs), ["move_split"]);
    assert_eq!(repairs[0].to_string(), "W[dd]: second move in one node written in a new node (node 2)");
    // Setup beside a move is split too (FF[4] forbids mixing them), and so is a single PL.
    let (out, repairs) = write(b"(;SZ[9];AB[aa]B[cc];W[dd]PL[B])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]SZ[9];B[cc];AB[aa];W[dd];PL[B])");
    assert_eq!(kinds(&repairs), ["setup_split", "setup_split"]);
}

#[test]
fn repeated_properties_merge_or_keep_the_first() {
    // Lists: merged into the first, in order; consecutive values are one list (no repair).
    let (out, repairs) = write(b"(;AB[aa]AB[bb]AW[cc]AB[dd]CR[ee]AW[ff]CR[gg]XX[1]PB[x]XX[2])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]AB[aa][bb][dd]AW[cc][ff]CR[ee][gg]XX[1][2]PB[x])");
    assert_eq!(kinds(&repairs), ["list_merged", "list_merged", "list_merged", "list_merged"]);
    assert_eq!(
        repairs[0].to_string(),
        "AB[dd]: property repeated in one node: values merged into its first list (node 1)"
    );
    // Single values: the first kept.
    let (out, repairs) = write(b"(;PB[a]PB[b]N[x]N[y];B[aa]BL[10]BL[20]KO[]KO[];PL[B]PL[W])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]PB[a]N[x];B[aa]BL[10]KO[];PL[B])");
    assert_eq!(kinds(&repairs), ["duplicate_dropped"; 5]);
    assert_eq!(
        repairs[0].to_string(),
        "PB[b]: property repeated in one node: the first kept, this one left out (node 1)"
    );
    // Every output reads back without two properties of a kind in a node.
    let bump = Bump::new();
    let t = tree_of(&bump, out.as_bytes());
    let mut again = Vec::new();
    let mut repairs = Vec::new();
    Writer::new().sgf_with_repairs(&t, &mut again, &mut repairs).unwrap();
    assert_eq!((String::from_utf8(again).unwrap(), repairs.len()), (out, 0));
}

#[test]
fn points_off_the_board_are_left_out() {
    // A compressed list running off a 19×19 board, read point by point.
    let (out, repairs) = write(b"(;SZ[19]AW[ff:zz])");
    let on_board: Vec<String> = (5u8..19)
        .flat_map(|y| (5u8..19).map(move |x| format!("[{}{}]", (b'a' + x) as char, (b'a' + y) as char)))
        .collect();
    assert_eq!(out, format!("(;FF[4]GM[1]CA[UTF-8]SZ[19]AW{})", on_board.concat()));
    assert_eq!(repairs.len(), 21 * 21 - 14 * 14);
    assert!(repairs.iter().all(|r| r.kind == RepairKind::OffBoard && r.property == "AW"));
    assert_eq!(repairs[0].to_string(), "AW[tf]: point off the board left out (node 1)");
    // SZ after the points, a rectangular board, marks and arrows.
    let (out, repairs) = write(b"(;AB[ia]SZ[9:5]CR[af]AR[aa:af]TR[ae];B[cc])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]AB[ia]SZ[9:5]TR[ae];B[cc])");
    assert_eq!(kinds(&repairs), ["off_board", "off_board"]);
    // A point given twice in one node's setup, or in its marks.
    let (out, repairs) = write(b"(;AB[aa][aa]AW[aa]CR[bb]SQ[bb]LN[aa:bb][aa:cc])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]AB[aa]CR[bb]LN[aa:bb][aa:cc])");
    assert_eq!(kinds(&repairs), ["point_repeated"; 3]);
}

#[test]
fn time_limit_must_be_seconds() {
    let (out, repairs) = write(b"(;TM[30:00(5x1:00)]PB[a];B[aa])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]PB[a];B[aa])");
    assert_eq!(kinds(&repairs), ["invalid_value"]);
    assert_eq!(repairs[0].to_string(), "TM[30:00(5x1:00)]: value not valid in FF[4]: trimmed, or left out (node 1)");
    let (out, repairs) = write(b"(;TM[ 1800 ])");
    assert_eq!((out.as_str(), kinds(&repairs)), ("(;FF[4]GM[1]CA[UTF-8]TM[1800])", vec!["invalid_value"]));
}

#[test]
fn collections_and_line_breaks() {
    // Three games written into one buffer (a newline after each) read back as three games.
    let mut input = Vec::new();
    for g in 0..3u8 {
        input.extend_from_slice(b"(;GM[1]SZ[19]C[a comment that is long enough to fill a good part of a line]");
        for i in 0..60u8 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            input.extend_from_slice(
                format!(";{c}[{}{}]", (b'a' + i % 19) as char, (b'a' + (i / 19 + g) % 19) as char).as_bytes(),
            );
        }
        input.extend_from_slice(
            b"(;B[ss];W[rr])(;B[rs]C[a long comment: it stays on one line even past the width, never broken inside])\n",
        );
    }
    let mut r = kifu::sgf::Reader::new(&input);
    let bump = Bump::new();
    let (mut w, mut out) = (Writer::new(), Vec::new());
    let mut trees = Vec::new();
    while let Some(t) = tree::build(&bump, &mut r).unwrap() {
        w.sgf(&t, &mut out).unwrap();
        out.push(b'\n');
        trees.push(t);
    }
    assert_eq!(trees.len(), 3);
    let text = String::from_utf8(out.clone()).unwrap();
    let mut back = kifu::sgf::Reader::new(&out);
    for t in &trees {
        let b = tree::build(&bump, &mut back).unwrap().unwrap();
        assert!(t.canonical_eq(&b), "{:?}", t.canonical_diff(&b));
    }
    assert!(tree::build(&bump, &mut back).unwrap().is_none());
    // Lines break only before a node (`;` or `(;`), once a line holds LINE_WIDTH bytes: a line
    // is longer only by its last node, and a value is never cut.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3 * 5, "{text}");
    for (i, l) in lines.iter().enumerate() {
        let next = lines.get(i + 1).copied().unwrap_or("");
        assert!(
            next.is_empty() || next.starts_with(';') || next.starts_with("(;") || l.ends_with(')'),
            "{l:?} then {next:?}"
        );
        let last_node = l.rfind(';').unwrap_or(0);
        assert!(last_node <= LINE_WIDTH + 2 || l.starts_with("(;FF"), "{l:?}");
    }
    assert!(text.contains("C[a long comment: it stays on one line even past the width, never broken inside]"));
}

#[test]
fn node_writer_streams_events() {
    let (mut out, mut repairs) = (Vec::new(), Vec::new());
    let mut w = NodeWriter::new();
    w.begin_game(&out);
    out.extend_from_slice(b"(;");
    w.root(None, &mut out, &mut repairs);
    w.set_offset(Some(40));
    let evs = [
        Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(3, 3) }),
        Event::Setup(Setup::Go { color: Some(Color::Black), point: Point::new(19, 3) }),
    ];
    for ev in &evs {
        w.event(ev, &mut out, &mut repairs).unwrap();
    }
    w.start_node(false, &mut out);
    let pass = Event::Move(Move::Go { color: Color::White, point: None });
    w.event(&pass, &mut out, &mut repairs).unwrap();
    out.push(b')');
    assert_eq!(out, b"(;FF[4]GM[1]CA[UTF-8]AB[dd];W[])");
    assert_eq!(repairs[0].to_string(), "AB[td]: point off the board left out (byte 40)");
    assert!(kifu::sgf::write::writes(&pass));
}

#[test]
fn node_writer_output_may_be_taken_away_between_nodes() {
    // Every event of a game, straight from the reader (no tree), the output flushed after each
    // node: the same text as the tree writer's.
    let input = b"(;SZ[9]C[a]AB[aa]C[b];B[bb]C[x];W[cc]C[y]C[z];B[dd])";
    let (mut out, mut flushed, mut repairs) = (Vec::new(), Vec::new(), Vec::new());
    let mut w = NodeWriter::new();
    let mut first = true;
    for ev in kifu::sgf::Reader::new(input) {
        match ev.unwrap() {
            Event::GameStart { .. } => {
                w.begin_game(&out);
                out.push(b'(');
            }
            Event::Node if first => {
                first = false;
                out.push(b';');
                w.root(None, &mut out, &mut repairs);
            }
            Event::Node => {
                flushed.append(&mut out);
                w.start_node(false, &mut out);
            }
            Event::GameEnd { .. } => out.push(b')'),
            ev => w.event(&ev, &mut out, &mut repairs).unwrap(),
        }
    }
    flushed.append(&mut out);
    let want = "(;FF[4]GM[1]CA[UTF-8]SZ[9]C[a\n\nb]AB[aa];B[bb]C[x];W[cc]C[y\n\nz];B[dd])";
    assert_eq!(String::from_utf8(flushed).unwrap(), want);
    assert_eq!(write(input).0, want);
    assert_eq!(kinds(&repairs), ["comment_joined", "comment_joined"]);
}

// ---------------------------------------------------------------------------------------------
// The corpus.

/// Games of the SGF corpus (7556 files, 18795 games) that the writer repairs, by repair kind (a
/// game counts once per kind): the known losses of the round trip (see `kifu::sgf::write`'s
/// table). Every other game reads back as the same tree.
const REPAIRED_GAMES: &[(&str, usize)] = &[
    // `GN[][]` in real-ai's Tian_Xia_Wu_Gou files, `AP` twice (katago-foxlike)…
    ("duplicate_dropped", 208),
    // FF[3] free-text `TM` (`30:00(5x1:00)`, `60 minutes + …`) in gnugo-sources and edge.
    ("invalid_value", 34),
    // sgfmill-props-repeated-identifiers.sgf.
    ("list_merged", 1),
    // Two moves in one node (sgfmill-err-property-after-variation.sgf…).
    ("move_split", 4),
    // gogui-size-after-invalid-points.sgf.
    ("off_board", 1),
    // `PL` beside a move (sabaki-utf16le.sgf, gnugo semeai problems).
    ("setup_split", 9),
];

/// Every corpus game written, read back (the same tree unless repaired), written again (the same
/// bytes), and read by sgf-parse too.
#[test]
fn corpus_round_trip() {
    let Some(dir) = common::corpus_dir("sgf") else { return };
    let files = common::files(&dir, &[".sgf"]);
    let (mut b, mut w) = (Builder::new(), Writer::new());
    let (mut out, mut again, mut repairs, mut more) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut games, mut same) = (0usize, 0usize);
    let mut repaired: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut examples: BTreeMap<&'static str, String> = BTreeMap::new();
    let mut bump = Bump::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let data = kifu::input::prepare(&bytes);
        let mut r = kifu::sgf::Reader::new(&data);
        loop {
            bump.reset();
            let t = match b.build(&bump, &mut r) {
                Ok(Some(t)) => t,
                Ok(None) => break,
                Err(_) => continue,
            };
            games += 1;
            out.clear();
            repairs.clear();
            w.sgf_with_repairs(&t, &mut out, &mut repairs).unwrap();
            // An independent reader, the sgf-parse crate, reads every game we write.
            let text = std::str::from_utf8(&out).unwrap_or_else(|e| panic!("{}: not UTF-8: {e}", f.display()));
            if let Err(e) = sgf_parse::parse(text) {
                panic!("{} game at {}: sgf-parse: {e}\n{text}", f.display(), t.offset());
            }
            let bump2 = Bump::new();
            let t2 = tree::build(&bump2, &mut kifu::sgf::Reader::new(&out))
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", f.display(), String::from_utf8_lossy(&out)))
                .unwrap();
            let diff = t.canonical_diff(&t2);
            if repairs.is_empty() {
                if let Some(d) = diff {
                    panic!("{} game at {}: {d}\n{}", f.display(), t.offset(), String::from_utf8_lossy(&out));
                }
                same += 1;
            }
            let mut seen: Vec<&'static str> = repairs.iter().map(|r| r.kind.as_str()).collect();
            seen.sort();
            seen.dedup();
            for k in seen {
                *repaired.entry(k).or_default() += 1;
                examples.entry(k).or_insert_with(|| format!("{}@{}", f.display(), t.offset()));
            }
            // The output is a fixed point: written again, the same bytes and no repair.
            again.clear();
            more.clear();
            w.sgf_with_repairs(&t2, &mut again, &mut more).unwrap();
            assert!(more.is_empty(), "{}: {more:?}", f.display());
            assert_eq!(out, again, "{}", f.display());
        }
    }
    eprintln!(
        "round trip: {} files, {games} games, {same} without repairs the same tree; repaired: {repaired:?}",
        files.len()
    );
    for (k, e) in &examples {
        eprintln!("  e.g. {k}: {e}");
    }
    let want: BTreeMap<&str, usize> = REPAIRED_GAMES.iter().copied().collect();
    assert_eq!(repaired, want, "games repaired, by kind");
}

/// Writing allocates nothing once the writer's scratch and the output buffer have grown
/// (second pass over sgf/collections; games the writer repairs are left out, since a repair
/// carries its own strings).
#[test]
fn writing_allocates_nothing_after_the_first_pass() {
    let Some(dir) = common::corpus_dir("sgf/collections") else { return };
    let files: Vec<Vec<u8>> = common::files(&dir, &[".sgf"]).iter().map(|p| std::fs::read(p).unwrap()).collect();
    let (mut b, mut w, mut bump) = (Builder::new(), Writer::new(), Bump::new());
    let (mut out, mut repairs) = (Vec::new(), Vec::new());
    let mut pass = |counted: bool| {
        let (mut writes, mut allocs, mut events) = (0u64, 0u64, 0u64);
        for f in &files {
            let mut r = kifu::sgf::Reader::new(f);
            loop {
                bump.reset();
                let Some(t) = b.build(&bump, &mut r).unwrap() else { break };
                out.clear();
                repairs.clear();
                let before = common::alloc::allocations();
                w.sgf_with_repairs(&t, &mut out, &mut repairs).unwrap();
                let n = common::alloc::allocations() - before;
                if repairs.is_empty() {
                    writes += 1;
                    allocs += n;
                    events += t.nodes().map(|n| t.events(n).count() as u64).sum::<u64>();
                }
            }
        }
        if counted {
            eprintln!("second pass: {writes} games ({events} events) written, {allocs} allocations");
        }
        (writes, allocs)
    };
    pass(false);
    let (writes, allocs) = pass(true);
    assert!(writes > 0);
    assert_eq!(allocs, 0, "allocations while writing {writes} games");
}

/// Two unknown properties of one name in a row in one node are merged into one list, and that
/// is a repair too (a fuzz find of the tree target: the merge was silent).
#[test]
fn a_repeated_unknown_property_is_a_reported_merge() {
    let (out, repairs) = write(b"(;X[1];X[2]X[3])");
    assert!(out.contains(";X[2][3]"), "{out}");
    assert_eq!(kinds(&repairs), ["list_merged"]);
    assert_eq!(
        repairs[0].to_string(),
        "X[3]: property repeated in one node: values merged into its first list (node 2)"
    );
}

/// A fuzz find (the CI's tree target): an FF[3]-style identifier with more capitals than the
/// writer keeps was cut short, and read back as another property. FF[3]'s long names still keep
/// their capitals; a name with more than 32 is left out with an `invalid_value` repair.
#[test]
fn a_long_identifier_is_left_out_not_cut_short() {
    let (out, repairs) = write(b"(;B[aa]CoPyright[x];AddBlack[bb])");
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]B[aa]CP[x];AB[bb])");
    assert!(repairs.is_empty());
    let long = format!("(;B[aa]{}h[aO)] junk)", "O".repeat(77));
    let (out, repairs) = write(long.as_bytes());
    assert_eq!(out, "(;FF[4]GM[1]CA[UTF-8]B[aa])");
    assert_eq!(kinds(&repairs), ["invalid_value"]);
    let (_, repairs) = write(format!("(;B[aa]{}h[x])", "O".repeat(33)).as_bytes());
    assert_eq!(kinds(&repairs), ["invalid_value"]);
    let (out, repairs) = write(format!("(;B[aa]{}h[x])", "O".repeat(32)).as_bytes());
    assert_eq!(out, format!("(;FF[4]GM[1]CA[UTF-8]B[aa]{}[x])", "O".repeat(32)));
    assert!(repairs.is_empty());
}

#[test]
fn another_formats_capitalised_keys_become_private_properties() {
    // UGF's `Lang` and `Crypt` are its own keys, not FF[3] long names: `L` is an old label
    // property and `C` a comment, so their capitals alone would change what they say.
    let ugf = b"[Header]\nVer=UGF3,200\nLang=SJIS\nCrypt=0,PLAIN_UGF_FILE,READ_WRITE\nSize=19\n[Data]\nQP,B1,1,0\n";
    let (out, repairs) = write(ugf);
    assert!(out.contains("LANG[SJIS]"), "{out}");
    assert!(out.contains("CRYPT[0,PLAIN_UGF_FILE,READ_WRITE]"), "{out}");
    assert!(!out.contains("L[") && !out.contains("C["), "{out}");
    assert!(repairs.is_empty());
    // An SGF file's FF[3] long names still name SGF properties by their capitals.
    let (out, _) = write(b"(;FF[3]Lang[y];B[aa])");
    assert!(out.contains("L[y]"), "{out}");
}
