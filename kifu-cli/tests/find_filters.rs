//! `kifu find`'s filters, order, pages, counts, CSV, export and `--errors`, run as a binary: on a
//! hand-made folder of records with known answers, and on the corpus index against a brute-force
//! oracle (every game's JSON filtered in the test). CSV is read back by an RFC 4180 parser of
//! the test's own.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-find-filters-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    Command::new(KIFU).args(args).output().unwrap()
}

fn kifu(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "kifu {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(args: &[&str]) -> String {
    String::from_utf8(kifu(args).stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = kifu(args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("kifu {args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// `kifu find --db DB ARGS --json`'s games.
fn games(db: &Path, args: &[&str]) -> Vec<Value> {
    let mut a = vec!["find", "--db", db.to_str().unwrap(), "--json"];
    a.extend_from_slice(args);
    let v = json(&a);
    let games = v["games"].as_array().unwrap().clone();
    assert_eq!(v["count"].as_u64().unwrap() as usize, games.len());
    games
}

/// `kifu find --db DB ARGS --count`, as text and as JSON (which must agree).
fn count(db: &Path, args: &[&str]) -> usize {
    let mut a = vec!["find", "--db", db.to_str().unwrap(), "--count"];
    a.extend_from_slice(args);
    let n: usize = stdout(&a).trim().parse().unwrap();
    a.push("--json");
    assert_eq!(json(&a)["count"].as_u64().unwrap() as usize, n);
    n
}

/// The files of the games, by name (the hand-made folder's names are unique).
fn names(games: &[Value]) -> Vec<String> {
    games
        .iter()
        .map(|g| Path::new(g["path"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// An RFC 4180 reader: records of fields, quoted fields with doubled quotes, CRLF (or LF) ends.
fn parse_csv(s: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = s.chars().peekable();
    let mut quoted = false;
    // Whether a record has begun (text after the last line end).
    let mut started = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c != '"' {
                field.push(c);
            } else if chars.peek() == Some(&'"') {
                chars.next();
                field.push('"');
            } else {
                quoted = false;
            }
            continue;
        }
        match c {
            '"' => {
                assert!(field.is_empty(), "a quote inside an unquoted field: {field}");
                quoted = true;
            }
            ',' => record.push(std::mem::take(&mut field)),
            '\r' | '\n' => {
                if c == '\r' {
                    assert_eq!(chars.next(), Some('\n'), "CR without LF");
                }
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                started = false;
                continue;
            }
            c => field.push(c),
        }
        started = true;
    }
    assert!(!quoted, "unterminated quoted field");
    if started {
        record.push(field);
        records.push(record);
    }
    records
}

/// A JSON value as the CSV writes it (null is an empty field).
fn csv_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The CSV of `args` read back equals the JSON of `args`, row by row and column by column.
fn assert_csv_is_json(db: &Path, args: &[&str]) -> usize {
    let mut a = vec!["find", "--db", db.to_str().unwrap(), "--format", "csv"];
    a.extend_from_slice(args);
    let rows = parse_csv(&stdout(&a));
    let games = games(db, args);
    let header = &rows[0];
    assert_eq!(header[0], "path");
    assert_eq!(rows.len() - 1, games.len(), "{args:?}");
    for (row, g) in rows[1..].iter().zip(&games) {
        assert_eq!(row.len(), header.len());
        let obj = g.as_object().unwrap();
        for (k, cell) in header.iter().zip(row) {
            assert_eq!(cell, &csv_text(&obj[k]), "{args:?}: column {k} of {g}");
        }
        // Every JSON field is a column.
        assert!(obj.keys().all(|k| header.contains(k)), "{header:?} vs {g}");
    }
    games.len()
}

const A: &str = "(;GM[1]FF[4]SZ[19]PB[Honinbo Shusaku]BR[4d]PW[Gennan Inseki]WR[8段]DT[1846-09-11]\
    EV[Castle game]PC[Osaka]KM[0]RE[B+2];B[qd];W[dc];B[pq];W[oc];B[cp];W[qo])";
const B: &str = "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]WR[NR]DT[2016-03-13]\
    EV[Google DeepMind Challenge Match]PC[Seoul, Korea]KM[7.5]RE[W+R]\
    ;B[pd];W[dd];B[pq];W[dp];B[fc];W[cf];B[qk];W[nc];B[pf];W[jd])";
const C: &str = "(;GM[1]FF[4]SZ[19]PB[fox1]BR[5段]PW[fox2]WR[7段]DT[2017-01-01]KM[375]RE[B+R]\
    ;B[pd];W[dp];B[pp];W[dd])";
const D: &str = "(;GM[1]FF[4]SZ[9]PB[Kid]BR[15k]PW[Teacher]WR[1d]HA[2]AB[cc][gg]KM[0.5]DT[2005-06]\
    RE[W+3.5];W[gc];B[cg];W[ee])";
const E: &str = "(;GM[1]FF[4]SZ[13]PB[Smith, John]PW[Doe \"the\" Second]EV[Club, \"open\"]DT[2010]KM[6.5]\
    RE[B+0.5];B[jj])";
const F: &str = "V2.2\nN+Habu Yoshiharu\nN-Sato Amahiko\n$EVENT:Meijin\n$START_TIME:2017/04/05 09:00:00\n\
    PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n";
const G: &str = "(;GM[1]PB[Broken]PW[Game]C[unterminated";

/// The hand-made folder, indexed: `(folder, db)`.
fn small(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp(name);
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    for (f, text) in [("a.sgf", A), ("b.sgf", B), ("c.sgf", C), ("d.sgf", D), ("e.sgf", E), ("f.csa", F), ("g.sgf", G)]
    {
        std::fs::write(data.join(f), text).unwrap();
    }
    std::fs::write(data.join("readme.txt"), "not a record").unwrap();
    let db = dir.join("db.sqlite");
    let out = run(&["index", data.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "g.sgf has an error: {}", String::from_utf8_lossy(&out.stderr));
    (dir, db)
}

#[test]
fn each_filter_on_a_small_folder() {
    let (dir, db) = small("filters");
    let q = |args: &[&str]| sorted(names(&games(&db, args)));
    let v = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(q(&[]).len(), 7);
    assert_eq!(q(&["--black", "shusaku"]), v(&["a.sgf"]));
    assert_eq!(q(&["--white", "shusaku"]), v(&[] as &[&str]));
    assert_eq!(q(&["--white", "sato"]), v(&["f.csa"]));
    assert_eq!(q(&["--black", "sato"]), v(&[] as &[&str]));
    assert_eq!(q(&["--player", "sato"]), v(&["f.csa"]));
    assert_eq!(q(&["--black", "lee", "--white", "alphago"]), v(&["b.sgf"]));
    // Ranks: `9p`, `8段` (8d), `5段`/`7段`, `15k`, `1d`, `4d`.
    assert_eq!(q(&["--rank", "9p"]), v(&["b.sgf"]));
    assert_eq!(q(&["--rank", "8d"]), v(&["a.sgf"]));
    assert_eq!(q(&["--rank", "5d..9d"]), v(&["a.sgf", "c.sgf"]));
    assert_eq!(q(&["--rank", "9d..5d"]), v(&["a.sgf", "c.sgf"]));
    assert_eq!(q(&["--rank", "..1k"]), v(&["d.sgf"]));
    assert_eq!(q(&["--rank", "1d..4d"]), v(&["a.sgf", "d.sgf"]));
    assert_eq!(q(&["--rank", "1p.."]), v(&["b.sgf"]));
    assert_eq!(q(&["--rank", "20k"]), v(&[] as &[&str]));
    // Sizes: shogi boards are 9 too.
    assert_eq!(q(&["--size", "9"]), v(&["d.sgf", "f.csa"]));
    assert_eq!(q(&["--size", "9", "--kind", "go"]), v(&["d.sgf"]));
    assert_eq!(q(&["--size", "13x13"]), v(&["e.sgf"]));
    assert_eq!(q(&["--kind", "shogi"]), v(&["f.csa"]));
    assert_eq!(q(&["--kind", "go"]).len(), 6);
    assert_eq!(q(&["--handicap", "2"]), v(&["d.sgf"]));
    assert_eq!(q(&["--handicap", "0"]).len(), 6);
    // Komi: Fox's KM[375] is 7.5.
    assert_eq!(q(&["--komi", "7.5"]), v(&["b.sgf", "c.sgf"]));
    assert_eq!(q(&["--komi", "0"]), v(&["a.sgf"]));
    assert_eq!(q(&["--komi", "0.5..6.5"]), v(&["d.sgf", "e.sgf"]));
    assert_eq!(q(&["--komi", "..0"]), v(&["a.sgf"]));
    assert_eq!(q(&["--komi", "7.."]), v(&["b.sgf", "c.sgf"]));
    // Moves: a 6, b 10, c 4, d 3, e 1, f 4.
    assert_eq!(q(&["--moves", "4"]), v(&["c.sgf", "f.csa"]));
    assert_eq!(q(&["--moves", "5.."]), v(&["a.sgf", "b.sgf"]));
    assert_eq!(q(&["--moves", "1..3"]), v(&["d.sgf", "e.sgf"]));
    assert_eq!(q(&["--place", "seoul"]), v(&["b.sgf"]));
    assert_eq!(q(&["--place", "osaka", "--event", "castle"]), v(&["a.sgf"]));
    // Filters combine with the old ones, with --position and --duplicates.
    assert_eq!(q(&["--kind", "go", "--from", "2010", "--result", "B"]), v(&["c.sgf", "e.sgf"]));
    assert_eq!(q(&["--position", "pd dd pq", "--komi", "7.5"]), v(&["b.sgf"]));
    assert_eq!(q(&["--position", "pd dd pq", "--komi", "0"]), v(&[] as &[&str]));
    assert_eq!(count(&db, &["--position", "pd dp pp", "--rank", "5d.."]), 1);
    assert_eq!(count(&db, &["--duplicates", "--kind", "go"]), 0);
    // Bad values are usage errors (exit 2), with the flag named.
    for bad in [["--rank", "strong"], ["--moves", ".."], ["--komi", "x"], ["--size", "big"]] {
        let mut a = vec!["find", "--db", db.to_str().unwrap()];
        a.extend_from_slice(&bad);
        let out = run(&a);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(bad[0]), "{bad:?}");
    }
    // The table's lines are as before: `path@offset`, date, players, result, moves, event.
    let line = stdout(&["find", "--db", db.to_str().unwrap(), "--black", "shusaku"]);
    assert!(
        line.ends_with("a.sgf@0\t1846-09-11\tHoninbo Shusaku (4d) - Gennan Inseki (8段)\tB+2\t6 moves\tCastle game\n")
    );
    // JSON keeps its fields and adds kind, board_size, komi, handicap, place.
    let g = &games(&db, &["--black", "fox1"])[0];
    assert_eq!(g["kind"], "go");
    assert_eq!(g["board_size"], "19");
    assert_eq!(g["komi"], 7.5);
    assert_eq!(g["place"], Value::Null);
    assert_eq!(g["black_rank"], "5段");
    assert_eq!(g["main_hash"].as_str().unwrap().len(), 16);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sort_pages_count_csv_on_a_small_folder() {
    let (dir, db) = small("sort");
    let q = |args: &[&str]| names(&games(&db, args));
    // Dates: a 1846, d 2005-06, e 2010, b 2016, c 2017-01-01, f 2017-04-05; g has none (last).
    let by_date = ["a.sgf", "d.sgf", "e.sgf", "b.sgf", "c.sgf", "f.csa", "g.sgf"];
    assert_eq!(q(&["--sort", "date"]), by_date);
    // Descending: the dated games reversed, the undated still last.
    assert_eq!(q(&["--sort", "date", "--desc"]), ["f.csa", "c.sgf", "b.sgf", "e.sgf", "d.sgf", "a.sgf", "g.sgf"]);
    // Ties (c and f, 4 moves) by path.
    assert_eq!(
        q(&["--sort", "moves", "--desc", "--kind", "go"]),
        ["b.sgf", "a.sgf", "c.sgf", "d.sgf", "e.sgf", "g.sgf"]
    );
    assert_eq!(q(&["--sort", "black", "--limit", "2"]), ["g.sgf", "c.sgf"]);
    assert_eq!(q(&["--sort", "komi", "--kind", "go", "--limit", "3"]), ["a.sgf", "d.sgf", "e.sgf"]);
    // Pages concatenate to the whole, and --count counts a page.
    let all = q(&["--sort", "date"]);
    let mut pages = Vec::new();
    for off in (0..all.len()).step_by(3) {
        let o = off.to_string();
        let page = q(&["--sort", "date", "--limit", "3", "--offset", &o]);
        assert_eq!(count(&db, &["--limit", "3", "--offset", &o]), page.len());
        pages.extend(page);
    }
    assert_eq!(pages, all);
    assert_eq!(count(&db, &[]), 7);
    assert_eq!(count(&db, &["--offset", "5"]), 2);
    assert_eq!(count(&db, &["--kind", "go"]) + count(&db, &["--kind", "shogi"]), 7);
    let csv = stdout(&["find", "--db", db.to_str().unwrap(), "--count", "--format", "csv"]);
    assert_eq!(parse_csv(&csv), [vec!["count".to_string()], vec!["7".to_string()]]);
    // CSV: quotes and commas round-trip (e.sgf's names and event).
    assert_eq!(assert_csv_is_json(&db, &[]), 7);
    assert_eq!(assert_csv_is_json(&db, &["--black", "smith"]), 1);
    let e = stdout(&["find", "--db", db.to_str().unwrap(), "--format", "csv", "--black", "smith"]);
    assert!(e.contains("\"Smith, John\",,\"Doe \"\"the\"\" Second\""), "{e}");
    // With --position the CSV has the position's columns too.
    let p = stdout(&["find", "--db", db.to_str().unwrap(), "--format", "csv", "--position", "pd dd pq"]);
    let rows = parse_csv(&p);
    assert_eq!(rows[0][rows[0].len() - 3..], ["position_move", "symmetry", "next"]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][rows[0].len() - 3..], ["3", "0", "W[dp]"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Main-line hashes of every game of `file`, through a fresh index of it.
fn main_hashes(dir: &Path, file: &Path) -> BTreeMap<String, usize> {
    let db = dir.join(format!("{}.sqlite", file.file_name().unwrap().to_string_lossy()));
    let _ = std::fs::remove_file(&db);
    kifu(&["index", file.to_str().unwrap(), "--db", db.to_str().unwrap(), "--no-positions"]);
    assert!(!Path::new(&format!("{}.positions", db.display())).exists(), "--no-positions wrote positions");
    let mut m = BTreeMap::new();
    for g in games(&db, &[]) {
        *m.entry(g["main_hash"].as_str().unwrap().to_owned()).or_insert(0) += 1;
    }
    m
}

fn hash_counts(games: &[Value]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for g in games {
        *m.entry(g["main_hash"].as_str().unwrap().to_owned()).or_insert(0) += 1;
    }
    m
}

#[test]
fn export_and_errors_on_a_small_folder() {
    let (dir, db) = small("export");
    let d = db.to_str().unwrap();
    // SGF: the Go games without errors, read again, give the same main lines.
    let out = dir.join("out.sgf");
    let o = out.to_str().unwrap();
    let r = run(&["find", "--db", d, "--kind", "go", "--moves", "1..", "--export", "sgf", "-o", o]);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(main_hashes(&dir, &out), hash_counts(&games(&db, &["--kind", "go", "--moves", "1.."])));
    // An output that exists is kept without --force.
    let r = run(&["find", "--db", d, "--kind", "go", "--export", "sgf", "-o", o]);
    assert_eq!(r.status.code(), Some(2));
    // The broken game is not written (exit 1), the shogi game is refused by SGF.
    let r = run(&["find", "--db", d, "--export", "sgf", "-o", o, "--force", "--json"]);
    assert_eq!(r.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!((v["games"].as_u64(), v["refused"].as_u64()), (Some(5), Some(2)));
    // CSA: the shogi game, the same main line.
    let csa = dir.join("out.csa");
    kifu(&["find", "--db", d, "--kind", "shogi", "--export", "csa", "-o", csa.to_str().unwrap()]);
    assert_eq!(main_hashes(&dir, &csa), hash_counts(&games(&db, &["--kind", "shogi"])));
    // Every writer takes the games of its kind.
    for (to, kind) in [
        ("csa3", "shogi"),
        ("kif", "shogi"),
        ("kifu", "shogi"),
        ("usi", "shogi"),
        ("ki2", "shogi"),
        ("ki2u", "shogi"),
        ("jkf", "shogi"),
        ("jgf", "go"),
        ("jgf1", "go"),
        ("xml", "go"),
        ("json", "go"),
    ] {
        let file = dir.join(format!("all.{to}"));
        // The Go game JSON is a board snapshot: read again, handicap stones become moves.
        let filter = if to == "json" {
            vec!["--kind", kind, "--moves", "1..", "--handicap", "0"]
        } else {
            vec!["--kind", kind, "--moves", "1.."]
        };
        let mut args = vec!["find", "--db", d, "--export", to, "-o", file.to_str().unwrap(), "--json"];
        args.extend_from_slice(&filter);
        let r = run(&args);
        assert_eq!(r.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&r.stderr));
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        let n = count(&db, &filter);
        assert_eq!(v["games"].as_u64().unwrap() as usize, n, "{to}");
        let files = v["files"].as_array().unwrap();
        assert!(!files.is_empty());
        // One-game formats: one file a game, numbered.
        if ["jgf", "jgf1", "xml", "json", "jkf"].contains(&to) && n > 1 {
            assert_eq!(files.len(), n, "{to}");
        }
        let mut hashes = BTreeMap::new();
        for f in files {
            for (h, c) in main_hashes(&dir, Path::new(f.as_str().unwrap())) {
                *hashes.entry(h).or_insert(0) += c;
            }
        }
        assert_eq!(hashes, hash_counts(&games(&db, &filter)), "{to}");
    }
    // --errors: exactly g.sgf, with why.
    let v = json(&["find", "--db", d, "--errors", "--json"]);
    assert_eq!(v["count"], 1);
    let f = &v["files"][0];
    assert!(f["path"].as_str().unwrap().ends_with("g.sgf"));
    assert_eq!((f["errors"].as_u64(), f["games"].as_u64()), (Some(1), Some(1)));
    assert!(f["error"].as_str().unwrap().contains(':'), "{f}");
    let table = stdout(&["find", "--db", d, "--errors"]);
    assert_eq!(table.lines().count(), 1);
    assert!(table.contains("g.sgf\t1 errors\t"));
    assert_eq!(stdout(&["find", "--db", d, "--errors", "--count"]), "1\n");
    let csv = parse_csv(&stdout(&["find", "--db", d, "--errors", "--format", "csv"]));
    assert_eq!(csv[0], ["path", "format", "games", "warnings", "errors", "error"]);
    assert_eq!(csv.len(), 2);
    // --errors is about files: game filters are refused.
    assert_eq!(run(&["find", "--db", d, "--errors", "--kind", "go"]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A field of a game as text (for the oracle).
fn text(g: &Value, k: &str) -> Option<String> {
    g[k].as_str().map(str::to_owned)
}

fn contains(g: &Value, k: &str, needle: &str) -> bool {
    text(g, k).is_some_and(|s| s.to_ascii_lowercase().contains(&needle.to_ascii_lowercase()))
}

#[test]
fn filters_against_brute_force_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp("corpus");
    let db = dir.join("db.sqlite");
    kifu_index::build(&[&corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let all = games(&db, &[]);
    assert!(all.len() > 10_000);
    assert_eq!(count(&db, &[]), all.len());
    // Each filter against the same filter applied by the test to every game.
    let moves = |g: &Value| g["moves"].as_i64().unwrap();
    let komi = |g: &Value| g["komi"].as_f64();
    let rank_in = |g: &Value, lo: i32, hi: i32| {
        ["black_rank", "white_rank"]
            .iter()
            .any(|k| text(g, k).and_then(|r| kifu_index::rank_value(&r)).is_some_and(|v| v >= lo && v <= hi))
    };
    type Oracle<'a> = Box<dyn Fn(&Value) -> bool + 'a>;
    let cases: Vec<(Vec<&str>, Oracle)> = vec![
        (vec!["--kind", "go"], Box::new(|g| g["kind"] == "go")),
        (vec!["--kind", "shogi"], Box::new(|g| g["kind"] == "shogi")),
        (vec!["--size", "9"], Box::new(|g| g["board_size"] == "9")),
        (vec!["--size", "13"], Box::new(|g| g["board_size"] == "13")),
        (vec!["--handicap", "2"], Box::new(|g| g["handicap"] == 2)),
        (vec!["--handicap", "0"], Box::new(|g| g["handicap"].as_i64().unwrap_or(0) == 0)),
        (vec!["--komi", "7.5"], Box::new(move |g| komi(g) == Some(7.5))),
        (vec!["--komi", "5.5..6.5"], Box::new(move |g| komi(g).is_some_and(|k| (5.5..=6.5).contains(&k)))),
        (vec!["--komi", "..0"], Box::new(move |g| komi(g).is_some_and(|k| k <= 0.0))),
        (vec!["--moves", "200.."], Box::new(move |g| moves(g) >= 200)),
        (vec!["--moves", "..50"], Box::new(move |g| moves(g) <= 50)),
        (vec!["--moves", "100..150"], Box::new(move |g| (100..=150).contains(&moves(g)))),
        (vec!["--black", "lee"], Box::new(|g| contains(g, "black_name", "lee"))),
        (vec!["--white", "lee"], Box::new(|g| contains(g, "white_name", "lee"))),
        (vec!["--place", "tokyo"], Box::new(|g| contains(g, "place", "tokyo"))),
        (vec!["--rank", "9p"], Box::new(move |g| rank_in(g, 209, 209))),
        (vec!["--rank", "5d..9d"], Box::new(move |g| rank_in(g, 105, 109))),
        (vec!["--rank", "..1k"], Box::new(move |g| rank_in(g, i32::MIN, 99))),
        (
            vec!["--kind", "go", "--komi", "6.5", "--moves", "150..", "--rank", "1d.."],
            Box::new(move |g| {
                g["kind"] == "go" && komi(g) == Some(6.5) && moves(g) >= 150 && rank_in(g, 101, i32::MAX)
            }),
        ),
    ];
    for (args, oracle) in &cases {
        let want: Vec<&Value> = all.iter().filter(|g| oracle(g)).collect();
        let got = games(&db, args);
        assert_eq!(got.len(), want.len(), "{args:?}");
        assert!(got.iter().zip(&want).all(|(a, b)| a == *b), "{args:?}");
        assert_eq!(count(&db, args), want.len(), "{args:?}");
        eprintln!("{args:?}: {} games", want.len());
    }
    assert_eq!(count(&db, &["--kind", "go"]) + count(&db, &["--kind", "shogi"]), all.len());
    // Order: each sort field's order holds (absent values last), ties by path and offset.
    for field in ["date", "moves", "komi", "black"] {
        for desc in [false, true] {
            let mut args = vec!["--sort", field];
            if desc {
                args.push("--desc");
            }
            let got = games(&db, &args);
            assert_eq!(got.len(), all.len());
            let key = |g: &Value| match field {
                "date" => text(g, "date").map(|d| (d, 0.0)),
                "black" => text(g, "black_name").map(|d| (d.to_ascii_lowercase(), 0.0)),
                "moves" => Some((String::new(), g["moves"].as_f64().unwrap())),
                _ => g["komi"].as_f64().map(|k| (String::new(), k)),
            };
            for w in got.windows(2) {
                match (key(&w[0]), key(&w[1])) {
                    (Some(a), Some(b)) => {
                        let ord = a.partial_cmp(&b).unwrap();
                        let ord = if desc { ord.reverse() } else { ord };
                        assert!(ord.is_le(), "--sort {field} desc={desc}: {a:?} before {b:?}");
                    }
                    (None, Some(_)) => panic!("--sort {field}: a game without it before one with it"),
                    _ => {}
                }
            }
        }
    }
    // Pages concatenate to the whole.
    let whole = games(&db, &["--sort", "date"]);
    let mut pages = Vec::new();
    for off in (0..whole.len()).step_by(5000) {
        pages.extend(games(&db, &["--sort", "date", "--limit", "5000", "--offset", &off.to_string()]));
    }
    assert!(pages == whole, "pages differ from the whole");
    // CSV reads back as the JSON.
    assert_eq!(assert_csv_is_json(&db, &[]), all.len());
    assert!(assert_csv_is_json(&db, &["--position", "pd dd", "--limit", "200"]) > 0);
    // --errors: exactly the files the index recorded with errors.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut st = conn.prepare("SELECT path FROM files WHERE errors > 0 ORDER BY path").unwrap();
    let want: Vec<String> = st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    let v = json(&["find", "--db", db.to_str().unwrap(), "--errors", "--json"]);
    let got: Vec<String> = v["files"].as_array().unwrap().iter().map(|f| text(f, "path").unwrap()).collect();
    assert_eq!(got, want);
    // Export: every Go game as one SGF collection, read again, has the main lines of the games
    // it came from. A game whose record has warnings may be repaired into another main line
    // (a property after a variation joins the node before it in the tree); those are named.
    let out = dir.join("go.sgf");
    let r =
        run(&["find", "--db", db.to_str().unwrap(), "--kind", "go", "--export", "sgf", "-o", out.to_str().unwrap()]);
    assert!(r.status.code().is_some_and(|c| c <= 1));
    let got = main_hashes(&dir, &out);
    let want = hash_counts(&games(&db, &["--kind", "go"]));
    let mut warned: BTreeMap<String, bool> = BTreeMap::new();
    let mut st =
        conn.prepare("SELECT printf('%016x', main_hash), warnings, errors FROM games WHERE kind = 'go'").unwrap();
    for row in st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))).unwrap() {
        let (h, w, e) = row.unwrap();
        *warned.entry(h).or_insert(false) |= w > 0 || e > 0;
    }
    let mut differ = 0;
    for h in got.keys().chain(want.keys()) {
        if got.get(h) != want.get(h) {
            differ += 1;
            assert!(
                warned.get(h).copied().unwrap_or(true),
                "main line {h}: {:?} exported, {:?} found, and its records had no warnings",
                got.get(h),
                want.get(h)
            );
        }
    }
    eprintln!("export: {} main lines, {differ} differ (records with warnings or errors)", want.len());
    assert!(differ < 20, "{differ} main lines differ");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Query times on the corpus index, in process (no assertion on time: figures for the notes).
/// `cargo test --release -p kifu-cli --test find_filters -- --ignored --nocapture`.
#[test]
#[ignore]
fn query_times_on_the_corpus() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp("times");
    let db = dir.join("db.sqlite");
    kifu_index::build(&[&corpus], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let q = |f: &dyn Fn(&mut kifu_index::Query)| {
        let mut q = kifu_index::Query::default();
        f(&mut q);
        q
    };
    let s = |v: &str| Some(v.to_owned());
    let cases: Vec<(&str, kifu_index::Query, bool)> = vec![
        ("--count", q(&|_| {}), true),
        ("--kind go --count", q(&|q| q.kind = s("go")), true),
        ("--rank 5d..9d --count", q(&|q| q.rank = s("5d..9d")), true),
        ("--komi 7.5 --moves 200.. --count", q(&|q| (q.komi, q.moves) = (s("7.5"), s("200.."))), true),
        (
            "--size 9 --handicap 0 --place tokyo --count",
            q(&|q| (q.size, q.handicap, q.place) = (s("9"), Some(0), s("tokyo"))),
            true,
        ),
        ("--sort date --limit 20", q(&|q| (q.sort, q.limit) = (s("date"), Some(20))), false),
        (
            "--sort moves --desc --limit 20",
            q(&|q| (q.sort, q.descending, q.limit) = (s("moves"), true, Some(20))),
            false,
        ),
        (
            "--sort black --limit 20 --offset 10000",
            q(&|q| (q.sort, q.limit, q.offset) = (s("black"), Some(20), Some(10_000))),
            false,
        ),
        ("--black lee --sort date", q(&|q| (q.black, q.sort) = (s("lee"), s("date"))), false),
        ("(every game) --sort date", q(&|q| q.sort = s("date")), false),
    ];
    for (name, query, count) in &cases {
        let mut times = Vec::new();
        let mut n = 0;
        for _ in 0..31 {
            let t = std::time::Instant::now();
            n = if *count {
                kifu_index::count(&conn, query).unwrap() as usize
            } else {
                kifu_index::find(&conn, query).unwrap().len()
            };
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        eprintln!("{name}: {n} games, median {:.2} ms, max {:.2} ms", times[15], times[30]);
    }
    let t = std::time::Instant::now();
    let files = kifu_index::error_files(&conn).unwrap();
    eprintln!("--errors: {} files, {:.2} ms", files.len(), t.elapsed().as_secs_f64() * 1e3);
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `find --export` says and counts what the target has no place for, as `convert` does, the
/// game named `PATH@OFFSET`: the events USI or KI2 lack, the characters CP932 lacks, a JGF
/// node's second move; `left_out` in `--json`, `N left out` in the summary; the exit status
/// unchanged. (Before, none of them was said: the summary had no such count.)
#[test]
fn export_says_and_counts_what_the_target_leaves_out() {
    let dir = temp("left-out");
    let data = dir.join("games");
    std::fs::create_dir_all(&data).unwrap();
    let kif = data.join("t.kifu");
    std::fs::write(
        &kif,
        "先手：이세돌\n後手：B\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n*good\n   2 ３四歩(33)   ( 0:02/00:00:03)\n",
    )
    .unwrap();
    let sgf = data.join("two.sgf");
    std::fs::write(&sgf, "(;SZ[9];B[aa]W[bb];B[cc])").unwrap();
    let db = dir.join("db.sqlite");
    kifu(&["index", data.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    let (kif, sgf) = (kif.to_str().unwrap(), sgf.to_str().unwrap());
    for (to, kind, left_out, lines) in [
        ("usi", "shogi", 6, vec![format!("kifu: {kif}@0: left out 6 events USI has no place for (info, comments, times, endings other than USI's…)")]),
        (
            "ki2",
            "shogi",
            5,
            vec![
                format!("kifu: {kif}@0: left out 3 characters CP932 cannot hold (written as &#N;)"),
                format!("kifu: {kif}@0: left out 2 events KI2 has no place for (times, evaluations, info and properties after the first move…)"),
            ],
        ),
        ("kifu", "shogi", 0, vec![]),
        ("jgf", "go", 1, vec![format!("kifu: {sgf}@0: left out 1 moves after a node's first (a JGF node holds one move)")]),
    ] {
        let out = dir.join(format!("out.{to}"));
        let args = ["find", "--db", db.to_str().unwrap(), "--kind", kind, "--export", to, "-o", out.to_str().unwrap(), "--json"];
        let r = run(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(0), "{to}: {err}");
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!((v["games"].as_u64(), v["left_out"].as_u64()), (Some(1), Some(left_out)), "{to}: {err}");
        let said: Vec<&str> = err.lines().filter(|l| l.contains("left out")).collect();
        assert_eq!(said, lines, "{to}");
        // The summary line says it too.
        let r = run(&["find", "--db", db.to_str().unwrap(), "--kind", kind, "--export", to]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains(&format!(" repairs, {left_out} left out, ")), "{to}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
