//! The SGF dialect rules of `kifu::dialect` (Fox, OGS, IGS): a hand-written case for each rule
//! (the forms of the real files the module docs name), the readers' own events left as the file
//! says, and the count of games each rule fires on in the corpus's real files.

mod common;

use kifu::dialect::{Dialect, Normalize};
use kifu::{Event, InfoKey, Move, Setup, WarningKind};

/// The events of `sgf` read through the normaliser (with a date store).
fn norm(sgf: &str) -> Vec<Event<'static>> {
    let bytes: &'static [u8] = Box::leak(sgf.as_bytes().to_vec().into_boxed_slice());
    let store: &'static bumpalo::Bump = Box::leak(Box::new(bumpalo::Bump::new()));
    let reader = kifu::sgf::Reader::new(bytes);
    Normalize::with_store(reader, store).map(|e| e.expect("reads")).collect()
}

fn raw(sgf: &str) -> Vec<Event<'static>> {
    let bytes: &'static [u8] = Box::leak(sgf.as_bytes().to_vec().into_boxed_slice());
    kifu::sgf::Reader::new(bytes).map(|e| e.expect("reads")).collect()
}

fn info(events: &[Event<'_>], key: InfoKey) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) if i.key() == key => Some(i.value().decode().text.into_owned()),
            _ => None,
        })
        .collect()
}

fn warnings(events: &[Event<'_>]) -> Vec<WarningKind> {
    common::events::warnings(events)
}

fn black_setup(events: &[Event<'_>]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Setup(Setup::Go { color: Some(kifu::Color::Black), point }) => Some((point.x, point.y)),
            _ => None,
        })
        .collect()
}

fn count(events: &[Event<'_>], f: impl Fn(&Event<'_>) -> bool) -> usize {
    events.iter().filter(|e| f(e)).count()
}

#[test]
fn fox_komi_in_stones() {
    for (km, points) in
        [("375", "7.5"), ("325", "6.5"), ("275", "5.5"), ("350", "7"), ("750", "7.5"), ("650", "6.5"), ("550", "5.5")]
    {
        // With AP[foxwq], and recognised by the value alone (the AP[YuanYu] files).
        for ap in ["AP[GNU Go:3.8]AP[foxwq]", "AP[YuanYu]"] {
            let e = norm(&format!("(;GM[1]FF[4]SZ[19]KM[{km}]HA[0]RU[Chinese]{ap};B[pd];W[dp])"));
            assert_eq!(info(&e, InfoKey::Komi), [points], "KM[{km}] {ap}");
            assert_eq!(warnings(&e), [WarningKind::FoxKomiInStones]);
        }
    }
    // The readers' stream says what the file says.
    assert_eq!(info(&raw("(;AP[foxwq]KM[375];B[pd])"), InfoKey::Komi), ["375"]);
    // Not Fox's table: left alone.
    for km in ["6.5", "0", "7.5", "300", "0.500000"] {
        let e = norm(&format!("(;AP[foxwq]KM[{km}];B[pd])"));
        assert_eq!(info(&e, InfoKey::Komi), [km]);
        assert!(warnings(&e).is_empty());
    }
}

#[test]
fn fox_handicap_placed() {
    // Fox leaves the stones out: White moves first.
    let e = norm("(;GM[1]SZ[19]HA[2]KM[0]AP[foxwq];W[qp];B[dd])");
    assert_eq!(black_setup(&e), [(3, 15), (15, 3)]);
    assert_eq!(warnings(&e), [WarningKind::FoxHandicapPlaced]);
    // The stones belong to the root: before the second node.
    let first_node = e.iter().position(|e| matches!(e, Event::Node)).unwrap();
    let second_node = first_node + 1 + e[first_node + 1..].iter().position(|e| matches!(e, Event::Node)).unwrap();
    let setup_at = e.iter().position(|e| matches!(e, Event::Setup(_))).unwrap();
    assert!(setup_at > first_node && setup_at < second_node);
    // Nine stones; six before 2018 with the side stones north and south (KataGo's rule).
    assert_eq!(black_setup(&norm("(;SZ[19]HA[9]AP[foxwq];W[qq])")).len(), 9);
    let six_old = black_setup(&norm("(;SZ[19]HA[6]DT[2017-05-01]AP[foxwq];W[qq])"));
    assert_eq!(six_old[4..], [(9, 3), (9, 15)]);
    let six_new = black_setup(&norm("(;SZ[19]HA[6]DT[2019-05-01]AP[foxwq];W[qq])"));
    assert_eq!(six_new[4..], [(3, 9), (15, 9)]);
    // Not applied: the stones are there (katago-foxlike puts them on "move 0"), Black moves
    // first, a handicap of one, not Fox.
    for sgf in [
        "(;SZ[19]HA[2]AP[foxwq]AB[pd][dp];W[qq])",
        "(;SZ[19]HA[2]KM[325]AP[foxwq];AB[pd][dp];W[dc];B[ce];)",
        "(;SZ[19]HA[2]AP[foxwq];B[pd];W[dp])",
        "(;SZ[19]HA[1]AP[foxwq];W[pd])",
        "(;SZ[19]HA[2]AP[CGoban:3];W[pd])",
    ] {
        let e = norm(sgf);
        assert!(!warnings(&e).contains(&WarningKind::FoxHandicapPlaced), "{sgf}");
        assert_eq!(black_setup(&e), black_setup(&raw(sgf)), "{sgf}");
    }
    // Fox's "move 0" (katago-foxlike.sgf): the stones of the node after the root go into the
    // root, and that node, empty then, is dropped.
    let sgf = "(;GM[1]SZ[19]HA[2]KM[325]AP[foxwq];AB[pd][dp];W[dc];B[ce];)";
    let e = norm(sgf);
    assert!(warnings(&e).contains(&WarningKind::FoxSetupAfterRoot));
    assert_eq!(count(&e, |e| matches!(e, Event::Node)), count(&raw(sgf), |e| matches!(e, Event::Node)) - 1);
    let second_node = e.iter().enumerate().filter(|(_, e)| matches!(e, Event::Node)).nth(1).unwrap().0;
    assert!(e[..second_node].iter().filter(|e| matches!(e, Event::Setup(_))).count() == 2);
    assert!(matches!(e[second_node + 1], Event::Move(_)));
    // With a comment (or a move) in that node, the node stays; its stones still move.
    let sgf = "(;SZ[19]HA[2]AP[foxwq];AB[pd][dp]C[hi];W[dc])";
    let e = norm(sgf);
    assert_eq!(count(&e, |e| matches!(e, Event::Node)), 3);
    let second_node = e.iter().enumerate().filter(|(_, e)| matches!(e, Event::Node)).nth(1).unwrap().0;
    assert_eq!(e[..second_node].iter().filter(|e| matches!(e, Event::Setup(_))).count(), 2);
    // KataGo's old-Fox header: AP[GNU Go:3.8] with an empty GN.
    let e = norm("(;GM[1]FF[4]SZ[19]GN[]HA[3]AP[GNU Go:3.8];W[qq])");
    assert_eq!(black_setup(&e).len(), 3);
}

#[test]
fn ranks_dates_and_igs() {
    let e = norm("(;AP[foxwq]BR[9段]WR[P9段]DT[2016.10.25 12:30];B[pd])");
    assert_eq!(info(&e, InfoKey::BlackRank), ["9d"]);
    assert_eq!(info(&e, InfoKey::WhiteRank), ["9p"]);
    assert_eq!(info(&e, InfoKey::Date), ["2016-10-25"]);
    let w = warnings(&e);
    assert_eq!(w.iter().filter(|k| **k == WarningKind::CjkRank).count(), 2);
    assert!(w.contains(&WarningKind::FoxDateTime));
    let e = norm("(;AP[foxwq]BR[15级]WR[14级]DT[2017-03-23 10:30:00];B[pd])");
    assert_eq!((info(&e, InfoKey::BlackRank), info(&e, InfoKey::WhiteRank)), (vec!["15k".into()], vec!["14k".into()]));
    assert_eq!(info(&e, InfoKey::Date), ["2017-03-23"]);
    // Without a store a dotted date stays as written, and no warning says otherwise.
    let bytes = b"(;AP[foxwq]DT[2016.10.25 12:30];B[pd])";
    let e: Vec<Event<'_>> = Normalize::new(kifu::sgf::Reader::new(bytes)).map(Result::unwrap).collect();
    assert_eq!(info(&e, InfoKey::Date), ["2016.10.25 12:30"]);
    assert!(warnings(&e).is_empty());
    // Not Fox: the date is left alone (the index reads such dates anyway).
    assert_eq!(info(&norm("(;DT[2016.10.25 12:30];B[pd])"), InfoKey::Date), ["2016.10.25 12:30"]);
    // IGS: rank marks and a value split across lines.
    let e = norm("(;GM[1]PC[IGS:  igs.joyjoy.net 6969]WR[11k+]BR[12k ]CoPyright[\n  Copyright (c) PANDANET Inc. 2020\n  Permission.\n]KM[0.500000];B[pd])");
    assert_eq!(info(&e, InfoKey::WhiteRank), ["11k"]);
    assert_eq!(info(&e, InfoKey::BlackRank), ["12k"]);
    assert!(info(&e, InfoKey::Copyright)[0].starts_with("Copyright (c) PANDANET"));
    let w = warnings(&e);
    assert!(w.contains(&WarningKind::IgsRankMark) && w.contains(&WarningKind::IgsSplitProperty), "{w:?}");
    // The same marks in a game of no dialect: left alone.
    assert_eq!(info(&norm("(;WR[11k+];B[pd])"), InfoKey::WhiteRank), ["11k+"]);
}

#[test]
fn ogs_nested_main_line() {
    let sgf = "(;GM[1]PC[OGS: https://online-go.com/game/1234]KM[6.5];B[qd](;W[dp](;B[pp](;W[dc]))))";
    let e = norm(sgf);
    assert_eq!(count(&e, |e| matches!(e, Event::VariationStart(_) | Event::VariationEnd)), 0);
    assert_eq!(warnings(&e), [WarningKind::OgsNestedMainLine]);
    let moves = |e: &[Event<'_>]| count(e, |e| matches!(e, Event::Move(Move::Go { .. })));
    assert_eq!(moves(&e), 4);
    assert_eq!(count(&e, |e| matches!(e, Event::Node)), 5);
    // A real variation stays: only the only-child variations lose their parentheses.
    let e = norm("(;PC[OGS: x];B[qd](;W[dp](;B[pp]))(;W[dd]))");
    assert_eq!(count(&e, |e| matches!(e, Event::VariationStart(_))), 2);
    assert_eq!(count(&e, |e| matches!(e, Event::VariationEnd)), 2);
    // The same nesting outside OGS: left as written.
    let e = norm("(;GM[1];B[qd](;W[dp](;B[pp])))");
    assert_eq!(count(&e, |e| matches!(e, Event::VariationStart(_))), 2);
    // The normalised stream keeps the contract.
    let items: Vec<Result<Event<'_>, kifu::Error>> = e.iter().copied().map(Ok).collect();
    kifu::kit::check_items(sgf.as_bytes(), &items, false);
}

#[test]
fn games_of_no_dialect_pass_unchanged() {
    let sgf = "(;GM[1]FF[4]SZ[19]KM[6.5]PB[a]BR[3d]DT[2020-01-01];B[pd]C[x](;W[dp])(;W[dd]))(;GM[1];B[aa])";
    assert_eq!(norm(sgf), raw(sgf));
}

/// Applies the normaliser to every SGF file under `sub` and counts, per warning kind, the games
/// it fired on.
/// Games per warning kind, games, games per dialect.
type Counts = (std::collections::BTreeMap<&'static str, usize>, usize, Vec<(Dialect, usize)>);

fn corpus_counts(sub: &str) -> Option<Counts> {
    let dir = common::corpus_dir(sub)?;
    let mut counts = std::collections::BTreeMap::new();
    let mut games = 0;
    let mut dialects: Vec<(Dialect, usize)> = Vec::new();
    for p in common::files(&dir, &[".sgf"]) {
        let bytes = std::fs::read(&p).unwrap();
        let store = bumpalo::Bump::new();
        let mut n = Normalize::with_store(kifu::sgf::Reader::new(&bytes), &store);
        let mut depth: i64 = 0;
        let mut fired: Vec<&'static str> = Vec::new();
        while let Some(item) = n.next() {
            let Ok(ev) = item else { continue };
            match ev {
                Event::VariationStart(_) => depth += 1,
                Event::VariationEnd => depth -= 1,
                Event::Warning(w) if !fired.contains(&w.kind.as_str()) => fired.push(w.kind.as_str()),
                Event::GameEnd { .. } => {
                    assert_eq!(depth, 0, "{}", p.display());
                    games += 1;
                    for k in fired.drain(..) {
                        *counts.entry(k).or_insert(0) += 1;
                    }
                    match dialects.iter_mut().find(|(d, _)| *d == n.dialect()) {
                        Some((_, c)) => *c += 1,
                        None => dialects.push((n.dialect(), 1)),
                    }
                }
                _ => {}
            }
        }
    }
    Some((counts, games, dialects))
}

#[test]
fn corpus_real_ai() {
    let Some((counts, games, dialects)) = corpus_counts("sgf/real-ai") else { return };
    eprintln!("real-ai: {games} games, {counts:?}, {dialects:?}");
    assert_eq!(games, 7259);
    let c = |k: &str| counts.get(k).copied().unwrap_or(0);
    // KM[750] 3,972 + KM[375] 32 + KM[650] 29 + KM[550] 1 (MANIFEST / grep).
    assert_eq!(c("fox_komi_in_stones"), 4034);
    assert_eq!(c("fox_handicap_placed"), 0);
    // Every handicap game of HA[2]+ in real-ai writes its stones on "move 0" (grep: 14).
    assert_eq!(c("fox_setup_after_root"), 14);
    assert_eq!(c("fox_date_time"), FOX_DATE_TIME);
    assert_eq!(c("cjk_rank"), CJK_RANK);
    assert_eq!(c("ogs_nested_main_line"), 0);
}

#[test]
fn corpus_edge() {
    let Some((counts, _games, _)) = corpus_counts("sgf/edge") else { return };
    eprintln!("edge: {counts:?}");
    let c = |k: &str| counts.get(k).copied().unwrap_or(0);
    // katago-foxlike (KM[325]).
    assert_eq!(c("fox_komi_in_stones"), 1);
    // katrain-ogs (112 nested variations).
    assert_eq!(c("ogs_nested_main_line"), OGS_EDGE);
    // katrain-panda1.
    assert_eq!(c("igs_rank_mark"), 1);
    assert_eq!(c("igs_split_property"), 1);
    assert_eq!(c("cjk_rank"), CJK_EDGE);
    assert_eq!(c("fox_handicap_placed"), 0);
    // katago-foxlike's "move 0".
    assert_eq!(c("fox_setup_after_root"), 1);
}

/// The `AP[YuanYu]` games with `DT[2016.10.25 12:30]` or `DT[2017-03-23 10:30:00]` (grep: 521).
const FOX_DATE_TIME: usize = 521;
/// Games with a `9段`-style rank (12,145 `[9段]` values among them).
const CJK_RANK: usize = 6189;
/// katrain-ogs (sabaki-complex, an OGS review re-saved by Sabaki, has no only-child variation).
const OGS_EDGE: usize = 1;
/// katago-foxlike (3段/5段), katrain-fox_sgf_works and katrain-fox_sgf_error (15级, 14级).
const CJK_EDGE: usize = 3;

#[test]
fn corpus_ogs_file_is_flat() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let bytes = std::fs::read(dir.join("katrain-ogs.sgf")).unwrap();
    let raw: Vec<Event<'_>> = kifu::sgf::Reader::new(&bytes).map(Result::unwrap).collect();
    let e: Vec<Event<'_>> = Normalize::new(kifu::sgf::Reader::new(&bytes)).map(Result::unwrap).collect();
    let vars = |e: &[Event<'_>]| count(e, |e| matches!(e, Event::VariationStart(_)));
    assert_eq!(vars(&raw), 112);
    assert_eq!(vars(&e), 0);
    let moves = |e: &[Event<'_>]| {
        e.iter().filter_map(|e| if let Event::Move(m) = e { Some(*m) } else { None }).collect::<Vec<_>>()
    };
    assert_eq!(moves(&e), moves(&raw));
    assert_eq!(moves(&e).len(), 113);
}

#[test]
fn ogs_too_long_is_left_nested() {
    // 20,000 nested moves: 80,000 events, past the hold limit (65,536).
    let mut sgf = String::from("(;GM[1]PC[OGS: https://online-go.com/game/1];B[aa]");
    let n = 20_000;
    for k in 0..n {
        let c = if k % 2 == 0 { 'W' } else { 'B' };
        sgf.push_str(&format!("(;{c}[{}{}]", (b'a' + (k % 19) as u8) as char, (b'a' + (k / 19 % 19) as u8) as char));
    }
    sgf.push_str(&")".repeat(n));
    sgf.push(')');
    let config = kifu::Config::default().with_limits(kifu::Limits::unlimited());
    let raw: Vec<Event<'_>> = kifu::sgf::Reader::with_config(sgf.as_bytes(), config).map(Result::unwrap).collect();
    let e: Vec<Event<'_>> =
        Normalize::new(kifu::sgf::Reader::with_config(sgf.as_bytes(), config)).map(Result::unwrap).collect();
    assert_eq!(warnings(&e), [WarningKind::OgsNestedTooLong]);
    let e_rest: Vec<Event<'_>> = e.iter().filter(|e| !matches!(e, Event::Warning(_))).copied().collect();
    let raw_rest: Vec<Event<'_>> = raw.iter().filter(|e| !matches!(e, Event::Warning(_))).copied().collect();
    assert_eq!(e_rest, raw_rest);
    // Below the limit, the same shape is flattened.
    let short = "(;PC[OGS: x];B[aa]".to_string() + &"(;W[bb]".repeat(2000) + &")".repeat(2000) + ")";
    let e = norm(&short);
    assert_eq!(count(&e, |e| matches!(e, Event::VariationStart(_))), 0);
}

#[test]
fn the_stream_contract_holds_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let mut files = common::files(&corpus.join("sgf/edge"), &[".sgf"]);
    files.extend(common::files(&corpus.join("sgf/gnugo-sources"), &[".sgf"]));
    files.extend(common::files(&corpus.join("sgf/real-ai/DeepZenGo"), &[".sgf"]));
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let store = bumpalo::Bump::new();
        let items: Vec<_> = Normalize::with_store(kifu::sgf::Reader::new(&bytes), &store).collect();
        kifu::kit::check_items(&bytes, &items, false);
        // Every game of the reader is still there, with its moves.
        let raw: Vec<_> = kifu::sgf::Reader::new(&bytes).collect();
        let games =
            |v: &[Result<Event<'_>, kifu::Error>]| v.iter().filter(|e| matches!(e, Ok(Event::GameEnd { .. }))).count();
        let moves = |v: &[Result<Event<'_>, kifu::Error>]| v.iter().filter(|e| matches!(e, Ok(Event::Move(_)))).count();
        assert_eq!((games(&items), moves(&items)), (games(&raw), moves(&raw)), "{}", p.display());
    }
}

#[test]
fn mutated_inputs_keep_the_contract() {
    let Some(dir) = common::corpus_dir("sgf/edge") else { return };
    let mut rng = common::rng::XorShift::new(24);
    let seeds: Vec<Vec<u8>> =
        ["katrain-ogs.sgf", "katago-foxlike.sgf", "katrain-panda1.sgf", "katrain-fox_sgf_error.sgf"]
            .iter()
            .map(|f| std::fs::read(dir.join(f)).unwrap())
            .collect();
    let alphabet = b"()[];\\\n BWKM375AP";
    for seed in &seeds {
        for _ in 0..300 {
            let mut m = seed.clone();
            for _ in 0..1 + rng.next() % 4 {
                if m.len() < 2 {
                    break;
                }
                let at = (rng.next() % m.len() as u64) as usize;
                match rng.next() % 3 {
                    0 => m[at] = alphabet[(rng.next() % alphabet.len() as u64) as usize],
                    1 => {
                        m.remove(at);
                    }
                    _ => m.truncate(at.max(1)),
                }
            }
            let store = bumpalo::Bump::new();
            let items: Vec<_> = Normalize::with_store(kifu::sgf::Reader::new(&m), &store).collect();
            kifu::kit::check_items(&m, &items, false);
        }
    }
}
