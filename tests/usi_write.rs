//! The USI writer (`kifu::usi::write`): hand-written cases for each rule of its module table,
//! every corpus KIF, USI and CSA file (and the converted CSA files) written as USI and read back
//! with the same start position, moves, ending and final SFEN (replayed by
//! `kifu::position::shogi`), with the losses of the module's table counted exactly, USI read →
//! write giving the same bytes for the generated files, and no allocation per event.

mod common;

use kifu::position::shogi::ShogiPosition;
use kifu::text::{Charset, Text, TextRule};
use kifu::tree::MainLineTracker;
use kifu::usi::write::{terminal, Writer};
use kifu::{Branch, Clock, ClockKind, Color, Ending, Event, EventSource, Info, InfoKey, Move, Piece, Setup};
use kifu::{ShogiMove, Square};
use std::path::Path;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

fn write_events(events: &[Event<'_>]) -> (String, Writer) {
    let mut w = Writer::new();
    let mut out = Vec::new();
    for ev in events {
        w.event(ev, &mut out).unwrap();
    }
    (String::from_utf8(out).unwrap(), w)
}

fn usi(text: &str) -> Vec<Event<'_>> {
    kifu::usi::Reader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap()
}

fn mv(color: Color, from: Option<(u8, u8)>, to: (u8, u8), piece: Piece) -> Event<'static> {
    Event::Move(Move::Shogi(ShogiMove {
        color,
        from: from.map(|(f, r)| Square::new(f, r)),
        to: Square::new(to.0, to.1),
        piece,
    }))
}

fn put(color: Color, piece: Piece, square: Option<(u8, u8)>) -> Event<'static> {
    Event::Setup(Setup::Shogi { color, piece, square: square.map(|(f, r)| Square::new(f, r)) })
}

const START: Event<'static> = Event::GameStart { offset: 0 };
const END: Event<'static> = Event::GameEnd { length: 0, ending: None };

// ---------------------------------------------------------------- rules

#[test]
fn the_standard_start_is_startpos_and_moves_follow() {
    let text = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e resign\n";
    let (out, w) = write_events(&usi(text));
    assert_eq!(out, text);
    assert_eq!((w.games(), w.unwritten(), w.off_main()), (1, 0, 0));
    // No moves: the head alone; an ending without moves follows ` moves`.
    assert_eq!(write_events(&usi("position startpos\n")).0, "position startpos\n");
    assert_eq!(write_events(&usi("position startpos moves resign\n")).0, "position startpos moves resign\n");
    // `sfen` of the standard position with Black to move is `startpos`.
    let sfen = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n";
    assert_eq!(write_events(&usi(sfen)).0, "position startpos moves 7g7f\n");
}

#[test]
fn other_starts_are_sfen_with_side_hands_and_move_number_one() {
    // White to move in the standard position.
    let s = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n";
    assert_eq!(write_events(&usi(s)).0, s);
    // Hands: Black's first, rook … pawn, counts before letters (two digits too); the move number
    // becomes 1.
    let s = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b R2G13Pb2s18p 7 moves G*5b\n";
    let want = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b R2G13Pb2s18p 1 moves G*5b\n";
    assert_eq!(write_events(&usi(s)).0, want);
    // Promoted pieces on the board.
    let s = "position sfen +R3k3+b/9/9/9/9/9/9/9/4K3+p w - 1\n";
    assert_eq!(write_events(&usi(s)).0, s);
    // A KIF handicap (its setup in another order, White to move).
    let kif = "手合割：香落ち\n手数----指手---------消費時間--\n   1 ３四歩(33)\n";
    let evs: Vec<_> = kifu::kif::Reader::new(kif.as_bytes()).map(Result::unwrap).collect();
    let want = "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n";
    assert_eq!(write_events(&evs).0, want);
    // A removal (CSA `PI82HI`) empties the square.
    let csa = "PI82HI\n+\n+7776FU\n";
    let evs: Vec<_> = kifu::csa::Reader::new(csa.as_bytes()).map(Result::unwrap).collect();
    let want = "position sfen lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n";
    assert_eq!(write_events(&evs).0, want);
}

#[test]
fn promotion_is_written_only_when_the_piece_promotes() {
    // 8h2b+ promotes; the horse then moves (2b3c: no `+`), a dragon drops back (no `+`).
    let text = "position sfen 4k4/9/9/9/9/9/9/1B7/4K4 b - 1 moves 8h2b+ 5a4a 2b3c\n";
    let (out, _) = write_events(&usi(text));
    assert_eq!(out, text);
    // Without a turn, the first move's side is the side to move; without setup, `startpos`.
    let evs = [START, Event::Node, mv(Color::White, Some((3, 3)), (3, 4), Piece::Pawn), END];
    let (out, w) = write_events(&evs);
    assert_eq!(out, "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n");
    assert_eq!(w.unwritten(), 0);
}

#[test]
fn endings_have_six_words_and_the_rest_is_counted() {
    for (e, word) in [
        (Ending::Resign, "resign"),
        (Ending::DeclareWin, "win"),
        (Ending::Draw, "draw"),
        (Ending::Repetition, "rep_draw"),
        (Ending::TimeUp, "timeout"),
        (Ending::Interrupted, "break"),
    ] {
        assert_eq!(terminal(e), Some(word));
        let (out, w) = write_events(&[START, Event::GameEnd { length: 0, ending: Some(e) }]);
        assert_eq!(out, format!("position startpos moves {word}\n"));
        assert_eq!(w.unwritten(), 0);
        // And the reader gives the ending back.
        assert!(matches!(usi(&out).last(), Some(Event::GameEnd { ending: Some(x), .. }) if *x == e));
    }
    for e in [Ending::Impasse, Ending::Checkmate, Ending::IllegalMove, Ending::Matta, Ending::Other] {
        assert_eq!(terminal(e), None);
        let (out, w) = write_events(&[START, Event::GameEnd { length: 0, ending: Some(e) }]);
        assert_eq!((out.as_str(), w.unwritten()), ("position startpos\n", 1));
    }
}

#[test]
fn what_usi_cannot_hold_is_counted_and_variations_are_skipped() {
    let name = Text::new(b"Sente", TextRule::Plain, Charset::Utf8);
    let clock = Clock { color: Some(Color::Black), kind: ClockKind::ElapsedMs, value: 3000 };
    let evs = [
        START,
        Event::Info(Info::unnamed(InfoKey::BlackName, name)),
        Event::Node,
        mv(Color::Black, Some((7, 7)), (7, 6), Piece::Pawn),
        Event::Clock(clock),
        Event::Comment(name),
        Event::Name(name),
        Event::VariationStart(Branch::Sibling),
        Event::Node,
        mv(Color::Black, Some((2, 7)), (2, 6), Piece::Pawn),
        Event::Comment(name),
        Event::VariationEnd,
        Event::Node,
        mv(Color::White, Some((3, 3)), (3, 4), Piece::Pawn),
        // Setup and a turn after the first move.
        put(Color::Black, Piece::Gold, None),
        Event::Turn(Color::Black),
        // A drop of a promoted piece, a move off the board.
        Event::Node,
        mv(Color::Black, None, (5, 5), Piece::Dragon),
        mv(Color::Black, Some((0, 7)), (5, 5), Piece::Pawn),
        END,
    ];
    let (out, w) = write_events(&evs);
    assert_eq!(out, "position startpos moves 7g7f 3c3d\n");
    // Info, clock, comment, name, setup, turn, the two moves.
    assert_eq!(w.unwritten(), 8);
    // Node, move, comment of the variation.
    assert_eq!(w.off_main(), 3);
}

#[test]
fn games_are_lines_and_go_games_are_refused() {
    let text = "position startpos moves 7g7f\nposition startpos moves 2g2f resign\n";
    assert_eq!(write_events(&usi(text)).0, text);
    // A game that never ends is closed by the next one.
    let (out, _) = write_events(&[START, START, END]);
    assert_eq!(out, "position startpos\nposition startpos\n");
    let sgf = b"(;GM[1]SZ[9];B[aa])(;GM[1];B[bb])";
    let mut w = Writer::new();
    let mut out = b"before\n".to_vec();
    let mut errors = 0;
    for ev in kifu::sgf::Reader::new(sgf) {
        if let Err(e) = w.event(&ev.unwrap(), &mut out) {
            assert_eq!(e.kind(), kifu::ErrorKind::NotAGameRecord);
            errors += 1;
        }
    }
    assert_eq!((errors, out.as_slice()), (2, &b"before\n"[..]));
    let (out, _) = write_events(&usi("position startpos moves 7g7f\n"));
    assert_eq!(out, "position startpos moves 7g7f\n");
}

// ---------------------------------------------------------------- corpus

/// What a game is in USI: the start SFEN, the main line's moves, the final SFEN, the ending USI
/// has a word for.
#[derive(Debug, PartialEq, Eq)]
struct Game {
    start: String,
    moves: Vec<ShogiMove>,
    last: String,
    ending: Option<Ending>,
}

/// The games of a stream, main line only, with the number of events on the main line that USI
/// cannot hold (the module's table) and the number off it.
fn games<S: EventSource>(mut source: S) -> Option<(Vec<Game>, u64, u64)> {
    let mut out = Vec::new();
    let mut track = MainLineTracker::new();
    let (mut lost, mut off) = (0, 0);
    let mut pos = ShogiPosition::new();
    let mut game = None::<Game>;
    let mut setup = false;
    while let Some(ev) = source.next_event() {
        let ev = ev.ok()?;
        if !track.feed(&ev) {
            // (A warning is no event of the game: the writer ignores it wherever it is.)
            off += u64::from(!matches!(ev, Event::VariationStart(_) | Event::VariationEnd | Event::Warning(_)));
            continue;
        }
        match ev {
            Event::GameStart { .. } => {
                pos = ShogiPosition::new();
                setup = false;
                game = Some(Game { start: String::new(), moves: Vec::new(), last: String::new(), ending: None });
            }
            Event::Setup(_) | Event::Turn(_) => setup = true,
            Event::Move(Move::Shogi(m)) => {
                let g = game.as_mut()?;
                if g.moves.is_empty() {
                    if !setup {
                        pos = ShogiPosition::startpos();
                        pos.set_side_to_move(m.color);
                    }
                    g.start = pos.sfen();
                }
                g.moves.push(m);
            }
            Event::Info(_)
            | Event::Property(_)
            | Event::Comment(_)
            | Event::Name(_)
            | Event::Clock(_)
            | Event::Evaluation(_) => lost += 1,
            Event::GameEnd { ending, .. } => {
                let mut g = game.take()?;
                if g.moves.is_empty() {
                    if !setup {
                        pos = ShogiPosition::startpos();
                    }
                    g.start = pos.sfen();
                }
                g.ending = ending.filter(|&e| terminal(e).is_some());
                lost += u64::from(ending.is_some() && g.ending.is_none());
                g.last = pos.sfen();
                out.push(g);
            }
            _ => {}
        }
        pos.apply(&ev).ok()?;
    }
    Some((out, lost, off))
}

/// Writes a file's events as USI.
fn to_usi<S: EventSource>(mut source: S) -> (Vec<u8>, Writer) {
    let mut w = Writer::new();
    let mut out = Vec::new();
    while let Some(ev) = source.next_event() {
        w.event(&ev.unwrap(), &mut out).unwrap();
    }
    (out, w)
}

/// Every file of `dir` with `exts`, read by `read`, written as USI and read back: the same games
/// (start, moves, final SFEN, ending), losses counted exactly. Returns (files, games, skipped).
fn round_trip<'a, S: EventSource + 'a>(
    dir: &Path,
    exts: &[&str],
    read: impl Fn(&'a [u8]) -> S,
) -> (usize, usize, usize) {
    let (mut files, mut n, mut skipped) = (0, 0, 0);
    for f in common::files(dir, exts) {
        let bytes: &'a [u8] = Box::leak(std::fs::read(&f).unwrap().into_boxed_slice());
        let name = f.display();
        // A file whose moves do not replay (or that has an error) says nothing about the writer.
        let Some((want, lost, off)) = games(read(bytes)) else {
            skipped += 1;
            continue;
        };
        let (out, w) = to_usi(read(bytes));
        let (got, got_lost, got_off) = games(kifu::usi::Reader::new(&out)).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(got, want, "{name}");
        assert_eq!((got_lost, got_off), (0, 0), "{name}");
        assert_eq!((w.unwritten(), w.off_main()), (lost, off), "{name}");
        files += 1;
        n += want.len();
    }
    (files, n, skipped)
}

#[test]
fn corpus_kif_files_keep_their_games() {
    let Some(dir) = common::corpus_dir("kif") else { return };
    let (files, games, skipped) = round_trip(&dir, &[".kif", ".kifu"], kifu::kif::Reader::new);
    eprintln!("kif: {files} files, {games} games, {skipped} skipped");
    assert!(files >= 350 && skipped <= 2, "{files} {skipped}");
}

#[test]
fn corpus_usi_files_keep_their_games_and_bytes() {
    let Some(dir) = common::corpus_dir("usi") else { return };
    let (files, games, skipped) = round_trip(&dir, &[".usi", ".sfen"], kifu::usi::Reader::new);
    assert!(files >= 301 && games >= 303 && skipped == 0, "{files} {games} {skipped}");
    // The generated files write back byte for byte, but for `sfen` spelling the standard start
    // (a third of them) and move numbers.
    let mut same = 0;
    for f in common::files(&dir.join("tsshogi"), &[".usi"]) {
        let bytes = std::fs::read(&f).unwrap();
        let (out, _) = to_usi(kifu::usi::Reader::new(&bytes));
        let text = String::from_utf8(bytes).unwrap();
        let canonical = text.replace(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "position startpos",
        );
        assert_eq!(String::from_utf8(out).unwrap(), canonical, "{}", f.display());
        same += 1;
    }
    assert_eq!(same, 300);
}

#[test]
fn corpus_csa_files_keep_their_games() {
    let Some(corpus) = common::corpus() else { return };
    let (files, _, skipped) = round_trip(&corpus.join("csa"), &[".csa"], kifu::csa::Reader::new);
    assert!(files >= 25, "{files} {skipped}");
    for sub in ["csa-cshogi", "csa3-tsshogi"] {
        let (files, _, skipped) = round_trip(&corpus.join("converted").join(sub), &[".csa"], kifu::csa::Reader::new);
        eprintln!("{sub}: {files} files, {skipped} skipped");
        assert!(files >= 200 && skipped == 0, "{sub}: {files} {skipped}");
    }
}

// ---------------------------------------------------------------- allocation

#[test]
fn writing_allocates_nothing_per_event() {
    let Some(dir) = common::corpus_dir("kif/tsshogi") else { return };
    let files: Vec<Vec<u8>> =
        common::files(&dir, &[".kif", ".kifu"]).iter().map(|f| std::fs::read(f).unwrap()).collect();
    let events: Vec<Vec<Event<'_>>> =
        files.iter().map(|b| kifu::kif::Reader::new(b).filter_map(Result::ok).collect()).collect();
    let mut w = Writer::new();
    let mut out = Vec::new();
    let mut largest = 0;
    for evs in &events {
        out.clear();
        for ev in evs {
            w.event(ev, &mut out).unwrap();
        }
        largest = largest.max(out.len());
    }
    out = Vec::with_capacity(largest);
    let n: usize = events.iter().map(Vec::len).sum();
    let before = common::alloc::allocations();
    for evs in &events {
        out.clear();
        for ev in evs {
            w.event(ev, &mut out).unwrap();
        }
    }
    let allocs = common::alloc::allocations() - before;
    assert_eq!(allocs, 0, "{allocs} allocations writing {n} events");
}
