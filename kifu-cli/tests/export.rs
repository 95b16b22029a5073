//! `kifu export`: the Parquet files (hive partitions by year, bounded files) and the Arrow IPC
//! file hold `kifu stats`'s games with the library's values; `--from-index` exports an index's
//! files; usage errors create nothing.

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use std::path::{Path, PathBuf};
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn kifu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(KIFU).args(args).output().unwrap();
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), s(&out.stdout), s(&out.stderr))
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim()).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// Every `.parquet` file under `dir`, with its partition directory's name.
fn parquet_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                let part = p.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
                out.push((part, p));
            }
        }
    }
    out.sort();
    out
}

fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f).unwrap().build().unwrap();
    reader.map(Result::unwrap).collect()
}

fn text(b: &RecordBatch, col: &str, i: usize) -> Option<String> {
    let a = b.column_by_name(col).unwrap().as_string::<i32>();
    a.is_valid(i).then(|| a.value(i).to_string())
}

#[test]
fn parquet_by_year_holds_the_stats_games() {
    let d = temp("year");
    let out = d.join("out");
    let s = samples();
    let (code, stdout, err) = kifu(&["export", "--json", "--parquet", out.to_str().unwrap(), s.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    let summary = json(&stdout);
    let (_, stats, _) = kifu(&["stats", "--json", s.to_str().unwrap()]);
    let stats = json(&stats);
    assert_eq!(summary["games"], stats["games"]);
    assert_eq!(summary["files"], stats["files"]);
    let files = parquet_files(&out);
    assert_eq!(summary["output_files"].as_u64().unwrap() as usize, files.len());
    let mut rows = 0;
    for (part, path) in &files {
        assert!(part.starts_with("year="), "{part}");
        assert!(path.file_name().unwrap().to_str().unwrap().starts_with("part-"), "{}", path.display());
        for b in read_parquet(path) {
            assert_eq!(b.schema(), kifu_index::arrow::games_schema());
            for i in 0..b.num_rows() {
                // The partition is the year of the game's normalised date.
                let year = text(&b, "date", i).map(|d| d[..4].to_string());
                assert_eq!(part, &format!("year={}", year.as_deref().unwrap_or("__HIVE_DEFAULT_PARTITION__")));
                let moves = b.column_by_name("moves").unwrap().as_list::<i32>().value(i);
                let n = b.column_by_name("num_moves").unwrap().as_primitive::<UInt32Type>().value(i);
                assert_eq!(moves.len(), n as usize);
            }
            rows += b.num_rows();
        }
    }
    assert_eq!(rows as u64, stats["games"].as_u64().unwrap());
    // Shusaku's Ear-reddening game, in the samples in several Go formats: 1846.
    assert!(files.iter().any(|(p, _)| p == "year=1846"), "{files:?}");

    // The directory now holds files: a second export into it is a usage error.
    let (code, _, err) = kifu(&["export", "--parquet", out.to_str().unwrap(), s.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not empty"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn files_and_row_groups_are_bounded() {
    let d = temp("bounded");
    let input = d.join("many.sgf");
    let mut sgf = String::new();
    for i in 0..50 {
        sgf.push_str(&format!("(;GM[1]PB[p{i}]DT[2001-01-0{}];B[aa];W[bb])\n", 1 + i % 2));
    }
    std::fs::write(&input, sgf).unwrap();
    let out = d.join("out");
    let (code, stdout, err) = kifu(&[
        "export",
        "--partition",
        "none",
        "--file-rows",
        "20",
        "--row-group-rows",
        "8",
        "--parquet",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let files = parquet_files(&out);
    let names: Vec<String> = files.iter().map(|(_, p)| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]);
    let mut players = Vec::new();
    for (_, path) in &files {
        let f = std::fs::File::open(path).unwrap();
        let meta = parquet::file::reader::SerializedFileReader::new(f).unwrap();
        let meta = parquet::file::reader::FileReader::metadata(&meta);
        assert!(meta.file_metadata().num_rows() <= 20);
        assert!(meta.row_groups().iter().all(|g| g.num_rows() <= 8));
        let codec = meta.row_group(0).column(0).compression();
        assert!(matches!(codec, parquet::basic::Compression::ZSTD(_)), "{codec:?}");
        for b in read_parquet(path) {
            players.extend((0..b.num_rows()).map(|i| text(&b, "black_name", i).unwrap()));
        }
    }
    let want: Vec<String> = (0..50).map(|i| format!("p{i}")).collect();
    assert_eq!(players, want, "games in input order across the parts");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn arrow_ipc_and_from_index() {
    let d = temp("ipc");
    let s = samples();
    let ipc = d.join("games.arrow");
    let (code, stdout, err) = kifu(&["export", "--json", "--arrow-ipc", ipc.to_str().unwrap(), s.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    let games = json(&stdout)["games"].as_u64().unwrap();
    let reader = arrow_ipc::reader::FileReader::try_new(std::fs::File::open(&ipc).unwrap(), None).unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(batches.iter().map(|b| b.num_rows() as u64).sum::<u64>(), games);
    let hashes: Vec<u64> = batches
        .iter()
        .flat_map(|b| b.column_by_name("main_hash").unwrap().as_primitive::<UInt64Type>().values().to_vec())
        .collect();

    // The same games through an index: its files read again.
    let db = d.join("games.sqlite");
    let (code, _, err) = kifu(&["index", "--db", db.to_str().unwrap(), s.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let again = d.join("again.arrow");
    let (code, stdout, err) =
        kifu(&["export", "--json", "--from-index", db.to_str().unwrap(), "--arrow-ipc", again.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert_eq!(json(&stdout)["games"].as_u64().unwrap(), games);
    let reader = arrow_ipc::reader::FileReader::try_new(std::fs::File::open(&again).unwrap(), None).unwrap();
    let mut from_index: Vec<u64> = reader
        .map(Result::unwrap)
        .flat_map(|b| b.column_by_name("main_hash").unwrap().as_primitive::<UInt64Type>().values().to_vec())
        .collect();
    let mut want = hashes.clone();
    want.sort();
    from_index.sort();
    assert_eq!(from_index, want);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn usage_errors_create_nothing() {
    let d = temp("usage");
    let out = d.join("out");
    let missing = d.join("missing.sgf");
    let (code, _, err) = kifu(&["export", "--parquet", out.to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(!out.exists());
    // Neither output named, or both.
    let (code, _, _) = kifu(&["export", samples().to_str().unwrap()]);
    assert_eq!(code, 2);
    let (code, _, _) = kifu(&["export", "--parquet", "a", "--arrow-ipc", "b", samples().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!Path::new("a").exists() && !Path::new("b").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Row groups of many rows are encoded on several threads: the Parquet file holds exactly what
/// the Arrow IPC file of the same games holds, in order, in row groups of the size asked.
/// `--replay` fills the final position's columns, which are null without it.
#[test]
fn parallel_encoding_and_replay() {
    let d = temp("parallel");
    let input = d.join("many.sgf");
    let mut sgf = String::new();
    for i in 0..1500 {
        let (x, y) = ((b'a' + (i % 19) as u8) as char, (b'a' + (i / 19 % 19) as u8) as char);
        sgf.push_str(&format!("(;GM[1]PB[p{i}]DT[{}-01-01];B[{x}{y}];W[dd];B[])\n", 1990 + i % 3));
    }
    std::fs::write(&input, sgf).unwrap();
    let (pq, ipc, replayed) = (d.join("pq"), d.join("a.arrow"), d.join("r.arrow"));
    let args = ["--partition", "none", "--row-group-rows", "1000", "--threads", "3", "--parquet"];
    let (code, out, err) = kifu(&[&["export"][..], &args, &[pq.to_str().unwrap(), input.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{out}{err}");
    for (file, replay) in [(&ipc, false), (&replayed, true)] {
        let mut a = vec!["export", "--arrow-ipc", file.to_str().unwrap(), input.to_str().unwrap()];
        if replay {
            a.push("--replay");
        }
        assert_eq!(kifu(&a).0, 0);
    }
    let read_ipc = |p: &Path| -> RecordBatch {
        let r = arrow_ipc::reader::FileReader::try_new(std::fs::File::open(p).unwrap(), None).unwrap();
        let batches: Vec<RecordBatch> = r.map(Result::unwrap).collect();
        arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
    };
    let (want, replayed) = (read_ipc(&ipc), read_ipc(&replayed));
    let files = parquet_files(&pq);
    assert_eq!(files.len(), 1);
    let f = std::fs::File::open(&files[0].1).unwrap();
    let meta = parquet::file::reader::SerializedFileReader::new(f).unwrap();
    let groups: Vec<i64> =
        parquet::file::reader::FileReader::metadata(&meta).row_groups().iter().map(|g| g.num_rows()).collect();
    assert_eq!(groups, [1000, 500]);
    let batches = read_parquet(&files[0].1);
    let got = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    assert_eq!(got.num_rows(), 1500);
    for (i, field) in want.schema().fields().iter().enumerate() {
        assert_eq!(got.column(i).as_ref(), want.column(i).as_ref(), "{}", field.name());
    }
    let fin = |b: &RecordBatch| b.column_by_name("final_hash").unwrap().null_count();
    assert_eq!((fin(&want), fin(&replayed)), (1500, 0));
    let caps = replayed.column_by_name("captures_black").unwrap().as_primitive::<UInt32Type>().clone();
    assert_eq!(caps.null_count(), 0);
    std::fs::remove_dir_all(&d).unwrap();
}
