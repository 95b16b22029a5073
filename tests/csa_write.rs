//! The CSA writer (`kifu::csa::write`): hand-written cases for each rule, round trips over every
//! corpus CSA file (read → write → read, compared canonically and event by event with clocks
//! and evaluations, the known losses of the module's table asserted exactly), the `csa` crate on
//! every V2.2 file written, and no allocation per event.

mod common;

use bumpalo::Bump;
use kifu::csa::write::{Version, Writer};
use kifu::text::{Charset, Text, TextRule};
use kifu::tree::{Builder, GameTree};
use kifu::{Branch, Clock, ClockKind, Color, Event, Info, InfoKey, Move, Piece, Setup, ShogiMove, Square};
use std::path::PathBuf;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// Writes every event of `input` (read by the CSA reader) with a writer of `version`.
fn write(input: &[u8], version: Version) -> Vec<u8> {
    let mut w = Writer::new(version);
    let mut out = Vec::new();
    for ev in kifu::csa::Reader::new(input) {
        w.event(&ev.unwrap(), &mut out).unwrap();
    }
    out
}

fn write_events(events: &[Event<'_>], version: Version) -> (String, Writer) {
    let mut w = Writer::new(version);
    let mut out = Vec::new();
    for ev in events {
        w.event(ev, &mut out).unwrap();
    }
    (String::from_utf8(out).unwrap(), w)
}

/// Every event of `input` but warnings, game starts and lengths (what a round trip keeps).
fn events(input: &[u8]) -> Vec<Event<'_>> {
    kifu::csa::Reader::new(input)
        .map(Result::unwrap)
        .filter_map(|e| match e {
            Event::Warning(_) => None,
            Event::GameStart { .. } => Some(Event::GameStart { offset: 0 }),
            Event::GameEnd { ending, .. } => Some(Event::GameEnd { length: 0, ending }),
            e => Some(e),
        })
        .collect()
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
    out
}

/// Two events the same once text is decoded (info by key and value, the charset by key only).
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

/// The first place two event lists differ, for a message.
fn first_difference(a: &[Event<'_>], b: &[Event<'_>]) -> Option<String> {
    let i = (0..a.len().max(b.len())).find(|&i| match (a.get(i), b.get(i)) {
        (Some(p), Some(q)) => !same(p, q),
        _ => true,
    })?;
    Some(format!("event {i}: {:?} against {:?}", a.get(i), b.get(i)))
}

const V22: Text<'static> = Text::new(b"2.2", TextRule::Plain, Charset::Utf8);
const V30: Text<'static> = Text::new(b"3.0", TextRule::Plain, Charset::Utf8);

/// Each known loss of the module's table that a round trip of the corpus meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Loss {
    /// The version's value becomes the writer's.
    VersionValue,
    /// V3.0: the charset declaration and the version go to the top (moved or added).
    V3Header,
    /// V2.2 from decimal times: milliseconds truncated.
    Milliseconds,
}

/// What reading the written file should give, by the table of losses: `events` (a whole file's)
/// changed as the writer of `version` changes them, with the losses that changed something.
fn expected<'a>(events: &[Event<'a>], version: Version) -> (Vec<Event<'a>>, Vec<Loss>) {
    let v3 = version == Version::V30;
    let value = if v3 { V30 } else { V22 };
    let is = |e: Option<&Event<'_>>, key| matches!(e, Some(Event::Info(i)) if i.key() == key);
    let mut out = Vec::new();
    let mut losses = Vec::new();
    let mut game = 0;
    let (mut seen_version, mut seen_charset) = (false, false);
    for (at, &ev) in events.iter().enumerate() {
        match ev {
            Event::GameStart { .. } => {
                game += 1;
                out.push(ev);
                (seen_version, seen_charset) = (false, false);
                if v3 {
                    // The header goes first: a loss unless it was there already.
                    let was_first = if game == 1 {
                        is(events.get(at + 1), InfoKey::Charset) && is(events.get(at + 2), InfoKey::FormatVersion)
                    } else {
                        is(events.get(at + 1), InfoKey::FormatVersion)
                    };
                    if !was_first {
                        losses.push(Loss::V3Header);
                    }
                    if game == 1 {
                        out.push(Event::Info(Info::unnamed(InfoKey::Charset, V30)));
                    }
                    out.push(Event::Info(Info::unnamed(InfoKey::FormatVersion, V30)));
                }
            }
            Event::Info(i) if i.key() == InfoKey::FormatVersion => {
                if i.value().raw() != value.raw() {
                    losses.push(Loss::VersionValue);
                }
                if v3 && !seen_version {
                    seen_version = true;
                    continue;
                }
                out.push(Event::Info(Info::unnamed(InfoKey::FormatVersion, value)));
            }
            Event::Info(i) if i.key() == InfoKey::Charset && v3 && game == 1 && !seen_charset => seen_charset = true,
            Event::Clock(c) if !v3 && c.value % 1000 != 0 => {
                losses.push(Loss::Milliseconds);
                out.push(Event::Clock(Clock { value: c.value / 1000 * 1000, ..c }));
            }
            e => out.push(e),
        }
    }
    losses.sort();
    losses.dedup();
    (out, losses)
}

/// Every CSA file of the corpus: its csa folder and the converted ones (cshogi's V2.2, single
/// and multi-game, UTF-8 and Shift_JIS; tsshogi's V3.0).
fn corpus_files() -> Option<Vec<PathBuf>> {
    let corpus = common::corpus()?;
    let mut paths = common::files(&corpus.join("csa"), &[".csa"]);
    paths.extend(common::files(&corpus.join("converted/csa-cshogi"), &[".csa"]));
    paths.extend(common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]));
    assert!(paths.len() > 2000, "{}", paths.len());
    Some(paths)
}

/// Read → write → read in `version` (`None`: the record's own), for every corpus file: the
/// events read back are the ones the table of losses predicts, exactly, and the trees are
/// canonically equal wherever no loss applies. Returns how many files met each loss.
fn round_trip(version: Option<Version>) -> Option<std::collections::BTreeMap<Loss, usize>> {
    let mut counts = std::collections::BTreeMap::new();
    for p in corpus_files()? {
        let input = std::fs::read(&p).unwrap();
        let v = version.unwrap_or_else(|| version_of(&input));
        let out = write(&input, v);
        let (want, losses) = expected(&events(&input), v);
        let got = events(&out);
        if let Some(d) = first_difference(&want, &got) {
            panic!("{} ({v:?}): {d}\n{}", p.display(), String::from_utf8_lossy(&out));
        }
        if losses.is_empty() {
            let bump = Bump::new();
            let (a, b) = (trees(&bump, &input), trees(&bump, &out));
            assert_eq!(a.len(), b.len(), "{}", p.display());
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x.canonical_diff(y), None, "{}", p.display());
                assert_eq!(x.ending(), y.ending(), "{}", p.display());
            }
        }
        for l in losses {
            *counts.entry(l).or_insert(0) += 1;
        }
    }
    Some(counts)
}

#[test]
fn corpus_round_trip_in_the_records_version() {
    let Some(counts) = round_trip(None) else { return };
    // The only loss: files that say `V2` or `V2.1` come back as `V2.2`.
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), [(Loss::VersionValue, 261)]);
}

#[test]
fn corpus_round_trip_in_v3() {
    let Some(counts) = round_trip(Some(Version::V30)) else { return };
    // Every V2 file's version says 3.0 now, and its header moves to the top (or is added).
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), [(Loss::VersionValue, 2025), (Loss::V3Header, 2534)]);
}

#[test]
fn corpus_round_trip_in_v22() {
    let Some(counts) = round_trip(Some(Version::V22)) else { return };
    // Every V3.0 file (and V2, V2.1) says 2.2 now; tsshogi's decimal times lose their milliseconds.
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), [(Loss::VersionValue, 461), (Loss::Milliseconds, 100)]);
}

/// tsshogi's V3.0 files read exactly the same after a round trip in V3.0: no loss at all.
#[test]
fn tsshogi_files_read_the_same() {
    let Some(corpus) = common::corpus() else { return };
    let paths = common::files(&corpus.join("converted/csa3-tsshogi"), &[".csa"]);
    assert_eq!(paths.len(), 200);
    for p in paths {
        let input = std::fs::read(&p).unwrap();
        assert_eq!(version_of(&input), Version::V30);
        let out = write(&input, Version::V30);
        assert_eq!(first_difference(&events(&input), &events(&out)), None, "{}", p.display());
        let bump = Bump::new();
        let (a, b) = (trees(&bump, &input), trees(&bump, &out));
        assert!(a.iter().zip(&b).all(|(x, y)| x.canonical_eq(y)) && a.len() == b.len());
    }
}

/// The `csa` crate parses every V2.2 file written from the corpus, game by game, and reads the
/// same moves.
#[test]
fn csa_crate_reads_every_v22_file() {
    let Some(paths) = corpus_files() else { return };
    let mut games = 0;
    for p in paths {
        let input = std::fs::read(&p).unwrap();
        let out = write(&input, Version::V22);
        let text = std::str::from_utf8(&out).unwrap();
        for g in text.split("\n/\n") {
            games += 1;
            let rec = csa::parse_csa(g).unwrap_or_else(|_| panic!("{}: the csa crate fails on\n{g}", p.display()));
            let ours: Vec<String> = events(g.as_bytes())
                .into_iter()
                .filter_map(|e| match e {
                    Event::Move(m) => Some(m),
                    _ => None,
                })
                .map(|m| {
                    let mut v = Vec::new();
                    kifu::tree::write_move(m, &mut v);
                    String::from_utf8(v).unwrap()
                })
                .collect();
            let theirs: Vec<String> = rec
                .moves
                .iter()
                .filter(|m| matches!(m.action, csa::Action::Move(..)))
                .map(|m| m.action.to_string())
                .collect();
            assert_eq!(ours, theirs, "{}", p.display());
        }
    }
    assert!(games > 2800, "{games}");
}

/// Writing allocates nothing per event once the output buffer has grown: every corpus file
/// written (UTF-8 ones; Shift_JIS text is transcoded straight into the buffer too) into a buffer
/// that keeps its capacity.
#[test]
fn no_allocation_per_event() {
    let Some(paths) = corpus_files() else { return };
    let files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let all: Vec<Vec<Event>> = files.iter().map(|f| events(f)).collect();
    let mut out = Vec::with_capacity(1 << 22);
    let before = common::alloc::allocations();
    let mut written = 0;
    for (i, evs) in all.iter().enumerate() {
        let mut w = Writer::new(if i % 2 == 0 { Version::V22 } else { Version::V30 });
        out.clear();
        for ev in evs {
            w.event(ev, &mut out).unwrap();
        }
        written += out.len();
    }
    assert_eq!(common::alloc::allocations() - before, 0);
    assert!(written > 1_000_000);
}

fn round_trips_exactly(csa: &str, version: Version) {
    let out = write(csa.as_bytes(), version);
    assert_eq!(String::from_utf8(out).unwrap(), csa);
}

#[test]
fn header_position_moves_times() {
    round_trips_exactly(
        "V2.2\nN+先手\nN-Gote\n$EVENT:Cup\n$SITE:Tokyo\n$START_TIME:2024/01/02 10:00:00\n$END_TIME:2024/01/02 12:00:00\n\
         $TIME_LIMIT:00:25+00\n$OPENING:YAGURA\n$MAX_MOVES:256\n'a header comment\nPI\n+\n+7776FU\nT12\n-3334FU\nT0\n\
         +8822UM\n-3122GI\n+0045KA\n%TORYO\n",
        Version::V22,
    );
    round_trips_exactly(
        "'CSA encoding=UTF-8\nV3.0\nN+a\nN-b\n$TIME:600+10+0\n$NOTE:line\\nnext\nPI\n+\n+7776FU\nT1.234\n-3334FU\nT2.5\n\
         +2726FU\nT3.05\n%TORYO\n",
        Version::V30,
    );
}

#[test]
fn times_per_version() {
    let csa = "V3.0\nPI\n+\n+7776FU\nT1.234\n-3334FU\nT2.5\n";
    let v22 = String::from_utf8(write(csa.as_bytes(), Version::V22)).unwrap();
    assert!(v22.contains("+7776FU\nT1\n-3334FU\nT2\n"), "{v22}");
    let v30 = String::from_utf8(write(csa.as_bytes(), Version::V30)).unwrap();
    assert!(v30.starts_with("'CSA encoding=UTF-8\nV3.0\nPI\n"), "{v30}");
    assert!(v30.contains("T1.234\n-3334FU\nT2.5\n"), "{v30}");
}

#[test]
fn every_special() {
    for s in [
        "TORYO",
        "CHUDAN",
        "SENNICHITE",
        "OUTE_SENNICHITE",
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
        "MAX_MOVES",
        "ERROR",
        // Not a special of the spec: read as `Ending::Other` with its name in a property, and
        // written back from the property.
        "FUYOKU",
    ] {
        round_trips_exactly(&format!("V2.2\nPI\n+\n+7776FU\nT3\n%{s}\n"), Version::V22);
        // A time after the special is the other side's: the special goes before it.
        round_trips_exactly(&format!("V2.2\nPI\n+\n+7776FU\nT3\n%{s}\nT10\n'*after\n"), Version::V22);
        round_trips_exactly(&format!("V2.2\nPI\n-\n%{s}\nT1\n"), Version::V22);
    }
    // Comments after the special read as comments of the last move either way: written after it.
    let out = write(b"V2.2\nPI\n+\n+7776FU\n%TORYO\n'*a\n", Version::V22);
    assert_eq!(out, b"V2.2\nPI\n+\n+7776FU\n'*a\n%TORYO\n");
}

#[test]
fn positions() {
    // PI with removals (a handicap).
    round_trips_exactly("PI82HI22KA\n-\n-3334FU\n", Version::V22);
    // Rows (a tsume problem), with hands.
    round_trips_exactly(
        "P1 *  *  *  *  *  *  * -FU-OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  * +FU * +KI\n\
         P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
         P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \n\
         P+00KI00GI\nP-00FU00FU\n+\n",
        Version::V22,
    );
    // Pieces one by one, colours interleaved, board pieces out of row order: rows while the
    // board pieces come in row order, then lines.
    let csa = b"P-11OU\nP+55KA00FU\nP-00HI\nP+22KI\n+\n";
    let out = write(csa, Version::V22);
    assert!(String::from_utf8_lossy(&out).ends_with("P9 *  *  *  *  *  *  *  *  * \nP+00FU\nP-00HI\nP+22KI\n+\n"));
    assert_eq!(first_difference(&events(csa), &events(&out)), None);
    round_trips_exactly("P+00FU\nP-11OU\nP+22KI\n+\n", Version::V22);
    // `00AL` becomes the pieces it stands for; the events are the same.
    let csa = b"P-51OU\nP+59OU00KI\nP-00AL\n+\n";
    let out = write(csa, Version::V22);
    assert!(String::from_utf8_lossy(&out).starts_with("P1 *  *  *  * -OU"), "{}", String::from_utf8_lossy(&out));
    assert_eq!(first_difference(&events(csa), &events(&out)), None);
    // A comment between rows: the rows go on after it.
    let csa = "P1 *  *  *  * -OU *  *  *  * \n'between\nP9 *  *  *  * +OU *  *  *  * \n+\n";
    let out = write(csa.as_bytes(), Version::V22);
    assert_eq!(first_difference(&events(csa.as_bytes()), &events(&out)), None);
    // A game with moves but no position reads with the standard one: written as `PI`.
    let out = write(b"+7776FU\n", Version::V22);
    assert_eq!(out, b"PI\n+\n+7776FU\n");
}

#[test]
fn comments_and_evaluations() {
    round_trips_exactly(
        "PI\n+\n+7776FU\n'*a comment, with a comma\n'** 113 -3334FU +2726FU\n'**\n'** -50\n'** +2726FU #12\n",
        Version::V22,
    );
    // A plain comment is written as `'*` (the same comment read back).
    let out = write(b"PI\n+\n+7776FU\n'plain\n", Version::V22);
    assert_eq!(out, b"PI\n+\n+7776FU\n'*plain\n");
    // Comments of another format: each line its own comment line; a leading `*` kept once.
    let m = ShogiMove { color: Color::Black, from: Some(Square::new(7, 7)), to: Square::new(7, 6), piece: Piece::Pawn };
    let text = Text::new(b"one\\]\ntwo", TextRule::SgfText, Charset::Utf8);
    let star = Text::new(b"*star", TextRule::Plain, Charset::Utf8);
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Turn(Color::Black),
        Event::Node,
        Event::Move(Move::Shogi(m)),
        Event::Comment(text),
        Event::Comment(star),
        Event::GameEnd { length: 0, ending: None },
    ];
    let (out, _) = write_events(&evs, Version::V22);
    assert_eq!(out, "+\n+7776FU\n'*one]\n'*two\n'*star\n");
    // KIF's comments on the start position (a `*` property, which its reader gives before the
    // position) are written after the turn line, where CSA's own come (before 2026-11-29 they
    // were left out); CSA's `'` lines above the position stay where they are.
    let kif = "先手：A\n*よい序盤\n*二行目\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let mut out = Vec::new();
    let mut w = Writer::new(Version::V22);
    for e in kifu::kif::Reader::new(kif.as_bytes()) {
        w.event(&e.unwrap(), &mut out).unwrap();
    }
    assert_eq!(w.unwritten(), 0);
    let out = String::from_utf8(out).unwrap();
    assert!(out.ends_with("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n'*よい序盤\n'*二行目\n+7776FU\n"), "{out}");
    let out = write(b"'a note\nPI\n+\n'on the start\n+7776FU\n", Version::V22);
    assert_eq!(out, b"'a note\nPI\n+\n'on the start\n+7776FU\n");
}

#[test]
fn charsets_are_transcoded() {
    // Shift_JIS names and comments come out as UTF-8.
    let (name, _, _) = encoding_rs::SHIFT_JIS.encode("先手");
    let mut csa = b"'encoding=Shift_JIS\nV2.2\nN+".to_vec();
    csa.extend_from_slice(&name);
    csa.extend_from_slice(b"\nPI\n+\n+7776FU\n'");
    csa.extend_from_slice(&name);
    csa.push(b'\n');
    csa.extend_from_slice(b"'** 100 +2726FU ");
    csa.extend_from_slice(&name);
    csa.push(b'\n');
    let out = write(&csa, Version::V22);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "'CSA encoding=UTF-8\nV2.2\nN+先手\nPI\n+\n+7776FU\n'*先手\n'** 100 +2726FU 先手\n"
    );
}

#[test]
fn games_are_separated() {
    round_trips_exactly("V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n-\n-3334FU\n%CHUDAN\n", Version::V22);
    // V3.0: one header for the file; later games take its version.
    let csa = "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\n/\nPI\n-\n-3334FU\n";
    round_trips_exactly(csa, Version::V30);
    assert_eq!(first_difference(&events(csa.as_bytes()), &events(&write(csa.as_bytes(), Version::V30))), None);
}

#[test]
fn go_is_refused() {
    let mut w = Writer::new(Version::V22);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    // A game with moves, one with a board size only, one with a mark only.
    let sgf = b"(;GM[1]SZ[9];B[cc])(;SZ[19])(;CR[aa])";
    let csa = b"V2.2\nPI\n+\n+7776FU\n";
    for ev in kifu::sgf::Reader::new(sgf).chain(kifu::csa::Reader::new(csa)) {
        if let Err(e) = w.event(&ev.unwrap(), &mut out) {
            errors.push(e);
        }
    }
    assert_eq!(errors.len(), 3);
    assert!(errors[0].message().contains("Go"), "{}", errors[0].message());
    // The Go game left nothing; the shogi game after it is written.
    assert_eq!(out, csa);
}

#[test]
fn variations_main_line_only() {
    let mv = |file: u8, color| {
        Event::Move(Move::Shogi(ShogiMove {
            color,
            from: Some(Square::new(file, 7)),
            to: Square::new(file, 6),
            piece: Piece::Pawn,
        }))
    };
    let (b, w) = (Color::Black, Color::White);
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Turn(b),
        Event::Node,
        mv(7, b),
        Event::VariationStart(Branch::Child),
        Event::Node,
        mv(3, w),
        Event::VariationStart(Branch::Child),
        Event::Node,
        mv(2, b),
        Event::VariationEnd,
        Event::VariationStart(Branch::Child),
        Event::Node,
        mv(1, b),
        Event::VariationEnd,
        Event::VariationEnd,
        Event::VariationStart(Branch::Child),
        Event::Node,
        mv(4, w),
        Event::VariationEnd,
        Event::GameEnd { length: 0, ending: None },
    ];
    let (out, writer) = write_events(&evs, Version::V22);
    assert_eq!(out, "+\n+7776FU\n-3736FU\n+2726FU\n");
    assert_eq!(writer.off_main(), 4);
    // The tree's main-line tracker agrees event by event.
    let mut tracker = kifu::tree::MainLineTracker::new();
    let main: Vec<Event> = evs.iter().copied().filter(|e| tracker.feed(e)).collect();
    assert_eq!(write_events(&main, Version::V22).0, out);
}

#[test]
fn what_csa_cannot_hold_is_counted() {
    let evs = [
        Event::GameStart { offset: 0 },
        Event::Info(Info::unnamed(InfoKey::Komi, V22)),
        Event::Info(Info::unnamed(InfoKey::Event, V22)),
        Event::Setup(Setup::ShogiRemove { square: Square::new(5, 5) }),
        Event::Setup(Setup::Shogi { color: Color::Black, piece: Piece::King, square: None }),
        Event::Turn(Color::Black),
        Event::Clock(Clock { color: Some(Color::Black), kind: ClockKind::TimeLeftMs, value: 5 }),
        Event::GameEnd { length: 0, ending: None },
    ];
    let (out, writer) = write_events(&evs, Version::V22);
    assert_eq!(out, "$EVENT:2.2\n+\n");
    assert_eq!(writer.unwritten(), 4);
}

/// Random event streams (any order, variations, squares off the board, texts with line breaks,
/// every clock kind): the writer never panics, writes UTF-8 that the CSA reader reads without an
/// error, and the moves read back are the main line's moves that are on the board.
#[test]
fn random_streams() {
    use kifu::{Ending, Property};
    let mut rng = common::rng::XorShift::new(21);
    let texts: [&[u8]; 6] = [b"plain", b"*star", b"two\nlines", b"", "漢字".as_bytes(), b"a,b"];
    let names: [&[u8]; 4] = [b"'", b"'*", b"$KEY", b"XY"];
    let keys = [InfoKey::BlackName, InfoKey::Event, InfoKey::TimeLimit, InfoKey::FormatVersion, InfoKey::Komi];
    let endings = [None, Some(Ending::Resign), Some(Ending::TimeUp), Some(Ending::Other)];
    for round in 0..3000 {
        let mut r = |n: u64| (rng.next() % n) as usize;
        let mut evs = vec![Event::GameStart { offset: 0 }];
        let mut depth = 0;
        for _ in 0..r(40) {
            let text =
                Text::new(texts[r(6)], if r(2) == 0 { TextRule::Plain } else { TextRule::SgfText }, Charset::Utf8);
            let sq = |r: &mut dyn FnMut(u64) -> usize| Square::new(r(11) as u8, r(11) as u8);
            let color = if r(2) == 0 { Color::Black } else { Color::White };
            let piece = Piece::ALL[r(14)];
            evs.push(match r(14) {
                0 => Event::Info(Info::unnamed(keys[r(5)], text)),
                1 => {
                    let name = names[r(4)];
                    Event::Property(Property::new(name, text, name))
                }
                2 | 3 => Event::Setup(Setup::Shogi { color, piece, square: (r(4) > 0).then(|| sq(&mut r)) }),
                4 => Event::Setup(Setup::ShogiRemove { square: sq(&mut r) }),
                5 => Event::Turn(color),
                6 | 7 => Event::Node,
                8 | 9 => Event::Move(Move::Shogi(ShogiMove {
                    color,
                    from: (r(4) > 0).then(|| sq(&mut r)),
                    to: sq(&mut r),
                    piece,
                })),
                10 => Event::Clock(Clock {
                    color: (r(3) > 0).then_some(color),
                    kind: [ClockKind::ElapsedMs, ClockKind::TimeLeftMs, ClockKind::PeriodsLeft][r(3)],
                    value: rng_value(&mut r),
                }),
                11 => Event::Comment(text),
                12 if depth < 3 => {
                    depth += 1;
                    Event::VariationStart(if r(3) == 0 { Branch::Sibling } else { Branch::Child })
                }
                _ if depth > 0 => {
                    depth -= 1;
                    Event::VariationEnd
                }
                _ => Event::Evaluation(kifu::Evaluation { score: (r(2) == 0).then_some(-5), pv: b"+7776FU" }),
            });
        }
        evs.extend(std::iter::repeat_n(Event::VariationEnd, depth));
        evs.push(Event::GameEnd { length: 0, ending: endings[r(4)] });
        for version in [Version::V22, Version::V30] {
            let (out, _) = write_events(&evs, version);
            let read: Vec<Event> = kifu::csa::Reader::new(out.as_bytes())
                .map(|e| e.unwrap_or_else(|e| panic!("round {round}: {e}\n{out}")))
                .collect();
            let moves = |evs: &[Event]| -> Vec<Move> {
                let mut t = kifu::tree::MainLineTracker::new();
                evs.iter()
                    .filter(|e| t.feed(e))
                    .filter_map(|e| match e {
                        Event::Move(m @ Move::Shogi(s))
                            if (1..=9).contains(&s.to.file)
                                && (1..=9).contains(&s.to.rank)
                                && s.from.is_none_or(|f| (1..=9).contains(&f.file) && (1..=9).contains(&f.rank)) =>
                        {
                            Some(*m)
                        }
                        _ => None,
                    })
                    .collect()
            };
            assert_eq!(moves(&evs), moves(&read), "round {round}:\n{out}");
        }
    }
}

fn rng_value(r: &mut dyn FnMut(u64) -> usize) -> u64 {
    r(10_000_000) as u64
}
