//! The Arrow games table (feature `arrow`): every kind of row fits the schema, the values are the
//! index's for the same games, the move codes decode to the main line the library reads, batches
//! stay within their size, and a column of record texts gives each row's games.
#![cfg(feature = "arrow")]

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{Array, BinaryArray, RecordBatch, StringArray};
use kifu::{Event, EventSource, Move};
use kifu_index::arrow::{
    decode_go_move, decode_shogi_move, games_batches, games_schema, parse_records, records_schema, BatchOptions,
    GamesBuilder,
};
use std::path::{Path, PathBuf};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-arrow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn all(inputs: &[PathBuf], options: &BatchOptions) -> (Vec<RecordBatch>, kifu_index::arrow::BatchSummary) {
    let mut out = Vec::new();
    let summary = games_batches(inputs, options, |b| {
        out.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    (out, summary)
}

fn text(b: &RecordBatch, col: &str, i: usize) -> Option<String> {
    let a = b.column_by_name(col).unwrap().as_string::<i32>();
    a.is_valid(i).then(|| a.value(i).to_string())
}

fn u64_at(b: &RecordBatch, col: &str, i: usize) -> Option<u64> {
    let a = b.column_by_name(col).unwrap();
    let a = a.as_primitive::<UInt64Type>();
    a.is_valid(i).then(|| a.value(i))
}

fn u32_at(b: &RecordBatch, col: &str, i: usize) -> u32 {
    b.column_by_name(col).unwrap().as_primitive::<UInt32Type>().value(i)
}

fn codes(b: &RecordBatch, i: usize) -> Vec<u32> {
    let l = b.column_by_name("moves").unwrap().as_list::<i32>().value(i);
    l.as_primitive::<UInt32Type>().values().to_vec()
}

/// The main line's moves as the library's main-line adapter reads them, game by game.
fn library_main_lines(bytes: &[u8]) -> Vec<Vec<Move>> {
    let mut reader = kifu::AnyReader::detect(bytes, kifu::Config::default()).unwrap();
    let mut tracker = kifu::tree::MainLineTracker::new();
    let mut games = Vec::new();
    while let Some(Ok(ev)) = reader.next_event() {
        let on_main = tracker.feed(&ev);
        match ev {
            Event::GameStart { .. } => games.push(Vec::new()),
            Event::Move(m) if on_main => games.last_mut().unwrap().push(m),
            _ => {}
        }
    }
    games
}

fn decode(b: &RecordBatch, i: usize) -> Vec<Move> {
    let (w, h) = (
        b.column_by_name("width").unwrap().as_primitive::<arrow_array::types::UInt8Type>().value(i),
        b.column_by_name("height").unwrap().as_primitive::<arrow_array::types::UInt8Type>().value(i),
    );
    let shogi = text(b, "kind", i).as_deref() == Some("shogi");
    codes(b, i)
        .into_iter()
        .map(|c| if shogi { Move::Shogi(decode_shogi_move(c).unwrap().0) } else { decode_go_move(c, w, h).unwrap() })
        .collect()
}

#[test]
fn every_kind_of_row_fits_the_schema() {
    let mut b = GamesBuilder::new();
    // A good game, a game cut short by an error, a shogi game, an empty input.
    let sgf = b"(;GM[1]SZ[9]PB[a]RE[B+R]KM[6.5]HA[2];B[cc];W[])(;GM[1];B[dd];W[";
    b.push_events("x.sgf", kifu::Format::Sgf, kifu::AnyReader::detect(sgf, kifu::Config::default()).unwrap());
    let csa = std::fs::read(samples().join("yagura-opening.csa")).unwrap();
    b.push_events("y.csa", kifu::Format::Csa, kifu::AnyReader::detect(&csa, kifu::Config::default()).unwrap());
    b.push_events("z.sgf", kifu::Format::Sgf, std::iter::empty());
    b.push_error(None, "w", None, "nothing");
    let batch = b.finish();
    assert_eq!(batch.schema(), games_schema());
    assert_eq!(batch.num_rows(), 4);
    assert_eq!(text(&batch, "black_name", 0).as_deref(), Some("a"));
    assert_eq!(text(&batch, "winner", 0).as_deref(), Some("B"));
    assert_eq!(codes(&batch, 0), [2 * 9 + 2, 1 << 12 | 81]);
    assert_eq!(u32_at(&batch, "errors", 1), 1);
    assert!(text(&batch, "error", 1).is_some());
    assert_eq!(u64_at(&batch, "length", 1), None);
    assert_eq!(text(&batch, "kind", 2).as_deref(), Some("shogi"));
    assert_eq!(text(&batch, "format", 3), None);
    assert_eq!(text(&batch, "error", 3).as_deref(), Some("nothing"));
    assert_eq!(b.finish().num_rows(), 0, "finish starts the builder afresh");
    let mut r = GamesBuilder::with_rows();
    r.push_error(Some(7), "", None, "x");
    assert_eq!(r.finish().schema(), records_schema());
}

/// The batches hold what the index holds for the same games (its reading: the same collector).
#[test]
fn values_equal_the_index() {
    let dir = temp_dir("index");
    let db = dir.join("games.sqlite");
    kifu_index::build(&[samples()], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let hits = kifu_index::find(&conn, &kifu_index::Query::default()).unwrap();
    let (batches, summary) = all(&[samples()], &BatchOptions::default());
    assert_eq!(summary.games as usize, hits.len());
    let mut rows = Vec::new();
    for b in &batches {
        for i in 0..b.num_rows() {
            rows.push((b, i));
        }
    }
    for h in &hits {
        let name = Path::new(&h.path).file_name().unwrap().to_str().unwrap();
        let &(b, i) = rows
            .iter()
            .find(|(b, i)| {
                text(b, "source", *i).unwrap().ends_with(name) && u64_at(b, "offset", *i) == Some(h.offset as u64)
            })
            .unwrap_or_else(|| panic!("{}@{} is in the batches", h.path, h.offset));
        assert_eq!(text(b, "date", i), h.date, "{name}");
        assert_eq!(text(b, "black_name", i), h.black, "{name}");
        assert_eq!(text(b, "white_rank", i), h.white_rank, "{name}");
        assert_eq!(text(b, "result_raw", i), h.result, "{name}");
        assert_eq!(text(b, "winner", i), h.winner, "{name}");
        assert_eq!(text(b, "event", i), h.event, "{name}");
        assert_eq!(u32_at(b, "num_moves", i) as i64, h.moves, "{name}");
        assert_eq!(u64_at(b, "main_hash", i).unwrap() as i64, h.hash, "{name}");
        assert_eq!(text(b, "opening", i).unwrap(), h.opening, "{name}");
        assert_eq!(codes(b, i).len() as i64, h.moves, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The move codes decode to the main line the library reads, game by game, Go and shogi.
#[test]
fn moves_decode_to_the_main_line() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples()).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut checked = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let Some(reader) = kifu::AnyReader::detect(&bytes, kifu::Config::default()) else { continue };
        let format = reader.format();
        let mut b = GamesBuilder::new();
        b.push_events("f", format, reader);
        let batch = b.finish();
        let want = library_main_lines(&bytes);
        assert_eq!(batch.num_rows(), want.len(), "{}", f.display());
        for (i, w) in want.iter().enumerate() {
            assert_eq!(&decode(&batch, i), w, "{} game {i}", f.display());
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked}");
}

/// The move codes are on the board the game ends with, whenever its size is given: before the
/// moves, after them (the codes made move by move on 19 × 19 are made again), twice (the first
/// wins), empty then given, unreadable (19 × 19: also a size past 52); with passes and points
/// off the board.
#[test]
fn codes_on_the_board_the_game_gives() {
    let games: &[(&[u8], (u8, u8))] = &[
        (b"(;SZ[9];B[cc];W[];B[jj])", (9, 9)),
        (b"(;B[cc];W[pd];SZ[9];B[ss];W[])", (9, 9)),
        (b"(;B[cc];SZ[13];W[pd];SZ[9];B[aa])", (13, 13)),
        (b"(;SZ[];B[cc];SZ[5:7];W[de];B[ee])", (5, 7)),
        (b"(;SZ[x];B[cc];W[])", (19, 19)),
        (b"(;SZ[60];B[zz];W[ZZ];B[AA])", (19, 19)),
        (b"(;SZ[52];B[zz];W[ZZ];B[AA])", (52, 52)),
        (b"(;B[cc];W[dd])", (19, 19)),
        (b"(;SZ[19];B[cc];W[dd])", (19, 19)),
    ];
    // The builder reads `19` without parsing it: what parsing gives.
    assert_eq!(kifu::position::go::parse_size(b"19"), Some((19, 19)));
    for &(sgf, size) in games {
        let mut b = GamesBuilder::new();
        b.push_events("f", kifu::Format::Sgf, kifu::sgf::Reader::new(sgf));
        let batch = b.finish();
        let (w, h) = (
            batch.column_by_name("width").unwrap().as_primitive::<arrow_array::types::UInt8Type>().value(0),
            batch.column_by_name("height").unwrap().as_primitive::<arrow_array::types::UInt8Type>().value(0),
        );
        assert_eq!((w, h), size, "{}", String::from_utf8_lossy(sgf));
        let want: Vec<u32> =
            library_main_lines(sgf)[0].iter().map(|&m| kifu_index::arrow::encode_go_move(m, w, h).unwrap()).collect();
        assert_eq!(codes(&batch, 0), want, "{}", String::from_utf8_lossy(sgf));
    }
}

/// Promotions are marked: the samples' yagura game promotes no piece, a game that does is read
/// from CSA.
#[test]
fn shogi_promotion_bit() {
    let csa = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n";
    let mut b = GamesBuilder::new();
    b.push_events("p.csa", kifu::Format::Csa, kifu::AnyReader::detect(csa, kifu::Config::default()).unwrap());
    let batch = b.finish();
    let decoded: Vec<_> = codes(&batch, 0).into_iter().map(|c| decode_shogi_move(c).unwrap()).collect();
    let promoted: Vec<bool> = decoded.iter().map(|d| d.1).collect();
    assert_eq!(promoted, [false, false, true, false, false]);
    assert_eq!(decoded[4].0.from, None);
    assert_eq!(decoded[4].0.piece, kifu::Piece::Bishop);
}

#[test]
fn batches_are_bounded_and_in_order() {
    let dir = temp_dir("bounded");
    let mut sgf = String::new();
    for i in 0..25 {
        sgf.push_str(&format!("(;GM[1]PB[p{i}];B[aa])\n"));
    }
    std::fs::write(dir.join("a.sgf"), &sgf).unwrap();
    // A file of one game before and after the file of many: its row comes back owned and is
    // appended on the calling thread, in order with the batches of the large file.
    std::fs::write(dir.join("0.sgf"), "(;GM[1]PB[first];B[cc])").unwrap();
    std::fs::write(dir.join("b.sgf"), "(;GM[1]PB[b];B[bb])").unwrap();
    std::fs::write(dir.join("c.txt"), "not a record").unwrap();
    for (threads, batch_games) in [(1, 4), (2, 4), (2, 100)] {
        let options = BatchOptions { batch_games, threads, ..Default::default() };
        let (batches, summary) = all(std::slice::from_ref(&dir), &options);
        assert!(batches.iter().all(|b| b.num_rows() <= batch_games && b.num_rows() > 0));
        let names: Vec<String> =
            batches.iter().flat_map(|b| (0..b.num_rows()).map(move |i| text(b, "black_name", i).unwrap())).collect();
        let mut want: Vec<String> = vec!["first".into()];
        want.extend((0..25).map(|i| format!("p{i}")));
        want.push("b".into());
        assert_eq!(names, want);
        assert_eq!((summary.files, summary.skipped, summary.games), (3, 1, 27));
    }
    // The first error of `each` stops the reading.
    let mut calls = 0;
    let r = games_batches(std::slice::from_ref(&dir), &BatchOptions { batch_games: 4, ..Default::default() }, |_| {
        calls += 1;
        Err("stop")
    });
    assert_eq!((r.unwrap_err(), calls), ("stop", 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_of_a_column() {
    let gz = {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b"(;GM[1]PB[gz];B[aa])").unwrap();
        e.finish().unwrap()
    };
    let utf16: Vec<u8> = "\u{feff}(;GM[1]PB[u16];B[bb])".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let rows: Vec<Option<&[u8]>> = vec![
        Some(b"(;GM[1]PB[a];B[pd])(;GM[1]PB[b];B[dd])"),
        None,
        Some(b"hello"),
        Some(&gz),
        Some(&utf16),
        Some(b"(;GM[1]PB[c];B[pd];W["),
        Some(b""),
    ];
    let column = BinaryArray::from_opt_vec(rows.clone());
    for threads in [1, 3] {
        let out = parse_records(&column, &BatchOptions { threads, ..Default::default() }).unwrap();
        assert_eq!(out.schema(), records_schema());
        let row = out.column_by_name("row").unwrap().as_primitive::<UInt64Type>().values().to_vec();
        assert_eq!(row, [0, 0, 1, 2, 3, 4, 5, 6]);
        let names: Vec<Option<String>> = (0..out.num_rows()).map(|i| text(&out, "black_name", i)).collect();
        assert_eq!(names[..2], [Some("a".into()), Some("b".into())]);
        assert_eq!(names[4..7], [Some("gz".into()), Some("u16".into()), Some("c".into())]);
        for i in [2, 3, 7] {
            assert!(text(&out, "error", i).is_some(), "row {i} has an error");
            assert_eq!(text(&out, "kind", i), None);
        }
        assert!(text(&out, "error", 6).is_some(), "the game cut short has its error");
    }
    // Strings too, and many rows over several threads keep their order.
    let many: Vec<String> = (0..2000).map(|i| format!("(;GM[1]PB[p{i}];B[aa])")).collect();
    let out = parse_records(&StringArray::from(many), &BatchOptions { threads: 4, ..Default::default() }).unwrap();
    assert_eq!(out.num_rows(), 2000);
    assert!((0..2000).all(|i| text(&out, "black_name", i) == Some(format!("p{i}"))));
    // Another type is an error, not a panic.
    let ints = arrow_array::UInt32Array::from(vec![1, 2]);
    assert_eq!(parse_records(&ints, &BatchOptions::default()).unwrap_err().kind(), kifu_index::ErrorKind::Usage);
}

/// An input larger than the streams layer reads whole (16 MiB) is cut into games, each read on
/// its own: the rows come back in order, in batches within their size.
#[test]
fn a_large_input_is_read_game_by_game() {
    let dir = temp_dir("large");
    let comment = "x".repeat(100_000);
    let mut sgf = String::new();
    for i in 0..180 {
        sgf.push_str(&format!("(;GM[1]PB[p{i}]C[{comment}];B[aa])\n"));
    }
    assert!(sgf.len() > kifu::stream::whole::WHOLE_LIMIT);
    std::fs::write(dir.join("large.sgf"), &sgf).unwrap();
    let options = BatchOptions { batch_games: 50, threads: 2, ..Default::default() };
    let (batches, summary) = all(std::slice::from_ref(&dir), &options);
    assert_eq!(batches.iter().map(RecordBatch::num_rows).collect::<Vec<_>>(), [50, 50, 50, 30]);
    let names: Vec<String> =
        batches.iter().flat_map(|b| (0..b.num_rows()).map(move |i| text(b, "black_name", i).unwrap())).collect();
    assert_eq!(names, (0..180).map(|i| format!("p{i}")).collect::<Vec<_>>());
    let offsets: Vec<u64> =
        batches.iter().flat_map(|b| (0..b.num_rows()).map(move |i| u64_at(b, "offset", i).unwrap())).collect();
    let want: Vec<u64> = sgf.match_indices("(;GM").map(|(o, _)| o as u64).collect();
    assert_eq!(offsets, want);
    assert_eq!(summary.games, 180);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `replay` (the default) the final position's columns are null and every other column
/// is what the replaying reading gives; with it, they hold the replay's values (a Go game's
/// captures, every game's final hash).
#[test]
fn replay_only_on_request() {
    let read = |replay: bool| {
        let (batches, _) = all(&[samples()], &BatchOptions { replay, threads: 1, ..Default::default() });
        arrow_select::concat::concat_batches(&games_schema(), batches.iter()).unwrap()
    };
    let (plain, replayed) = (read(false), read(true));
    assert_eq!(plain.num_rows(), replayed.num_rows());
    let finals = ["captures_black", "captures_white", "final_hash"];
    for f in finals {
        assert_eq!(plain.column_by_name(f).unwrap().null_count(), plain.num_rows(), "{f} is null without replay");
    }
    assert!(replayed.column_by_name("final_hash").unwrap().null_count() < replayed.num_rows() / 4);
    let go = (0..replayed.num_rows()).filter(|&i| text(&replayed, "kind", i).as_deref() == Some("go")).count();
    let captures = replayed.column_by_name("captures_black").unwrap();
    assert_eq!(captures.len() - captures.null_count(), go, "Go games have captures");
    for (i, field) in games_schema().fields().iter().enumerate() {
        if !finals.contains(&field.name().as_str()) {
            assert_eq!(plain.column(i), replayed.column(i), "{}", field.name());
        }
    }
    let mut b = GamesBuilder::new();
    assert!(!b.replay());
    b.set_replay(true);
    assert!(b.replay());
}

/// The warnings the reader gives over one input, counted as `kifu stats` counts them.
fn reader_warnings(bytes: &[u8]) -> (u64, u64) {
    let Some(mut reader) = kifu::AnyReader::detect(bytes, kifu::Config::default()) else { return (0, 0) };
    let (mut warnings, mut games) = (0, 0);
    while let Some(item) = reader.next_event() {
        match item {
            Ok(Event::Warning(_)) => warnings += 1,
            Ok(Event::GameStart { .. }) => games += 1,
            _ => {}
        }
    }
    (warnings, games)
}

/// Warnings between games count in a row (before a game: that game's; after an input's last
/// game: that game's), so the rows of an input add up to every warning its reader gave, by
/// every path: a builder, `games_batches`, a column of records (`"junk (;B[aa])"` has its
/// `junk_before_game`).
#[test]
fn warnings_between_games_are_counted() {
    let cases: [&[u8]; 5] = [
        b"junk (;B[aa])",
        b"(;B[aa]) junk",
        b"(;B[aa]))(;B[bb]) x (;W[cc])",
        b"x (;B[aa];W[bb] (;B[cc]) y",
        b"((;B[aa]))",
    ];
    let dir = temp_dir("warnings");
    for (i, case) in cases.iter().enumerate() {
        let (want, games) = reader_warnings(case);
        assert!(want > 0 && games > 0, "case {i} gives warnings");
        let mut b = GamesBuilder::new();
        b.push_events("x", kifu::Format::Sgf, kifu::AnyReader::detect(case, kifu::Config::default()).unwrap());
        let batch = b.finish();
        let sum = |b: &RecordBatch| {
            b.column_by_name("warnings")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .values()
                .iter()
                .map(|&w| u64::from(w))
                .sum::<u64>()
        };
        assert_eq!(sum(&batch), want, "builder, case {i}");
        let records = parse_records(&BinaryArray::from_vec(vec![*case]), &BatchOptions::default()).unwrap();
        assert_eq!(sum(&records), want, "parse_records, case {i}");
        let f = dir.join(format!("{i}.sgf"));
        std::fs::write(&f, case).unwrap();
        let (batches, _) = all(&[f], &BatchOptions::default());
        assert_eq!(batches.iter().map(sum).sum::<u64>(), want, "games_batches, case {i}");
    }
    let records = parse_records(&BinaryArray::from_vec(vec![&b"junk (;B[aa])"[..]]), &BatchOptions::default()).unwrap();
    assert_eq!(u32_at(&records, "warnings", 0), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Over the corpus's SGF edge cases (junk, stray parentheses, unterminated games), every input
/// that holds a game gives rows whose warnings add up to its reader's (what `kifu stats` counts).
#[test]
fn corpus_edge_warnings_add_up() {
    let corpus = std::env::var_os("KIFU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let edge = corpus.join("sgf/edge");
    if !edge.is_dir() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true but no corpus at {}", edge.display());
        println!("skipped: no corpus at {}", edge.display());
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&edge).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut want, mut checked) = (0, 0);
    for f in &files {
        let (w, games) = reader_warnings(&std::fs::read(f).unwrap());
        if games > 0 {
            want += w;
            checked += 1;
        }
    }
    let (batches, summary) = all(&[edge], &BatchOptions::default());
    let got: u64 = batches
        .iter()
        .map(|b| {
            b.column_by_name("warnings")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .values()
                .iter()
                .map(|&w| u64::from(w))
                .sum::<u64>()
        })
        .sum();
    assert!(checked > 50 && want > 50, "{checked} files, {want} warnings");
    assert_eq!(got, want, "over {} games", summary.games);
}
