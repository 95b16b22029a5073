//! The index as a library, with no `kifu` binary: build an index of samples/, query it, read a
//! game back from its offset, and re-run it incrementally.

use std::path::{Path, PathBuf};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn temp_db(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifu-index-lib-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d.join("games.sqlite")
}

#[test]
fn build_query_show_and_rerun() {
    let db = temp_db("samples");
    let options = kifu_index::Options::new(&db);
    let first = kifu_index::build(&[samples()], &options, &mut kifu_index::Silent).unwrap();
    let files = std::fs::read_dir(samples()).unwrap().count() as u64;
    assert_eq!((first.files_seen, first.files_read, first.errors), (files, files, 0));
    assert_eq!(first.games, first.games_read);
    assert!(first.games >= files, "every sample holds a game: {first:?}");

    let conn = kifu_index::open_existing(&db).unwrap();
    // The Ear-reddening game is in the samples in four formats: one main line, one hash.
    let query = kifu_index::Query { player: Some("shusaku".into()), duplicates: true, ..Default::default() };
    let hits = kifu_index::find(&conn, &query).unwrap();
    let groups = kifu_index::duplicate_groups(&hits);
    assert_eq!(groups.len(), 1);
    assert!(groups[0].len() >= 4, "{hits:?}");
    assert!(groups[0].iter().all(|h| h.black.as_deref() == Some("Honinbo Shusaku")));

    // Each hit read back from its offset gives the row the index holds.
    for hit in groups[0] {
        let bytes = std::fs::read(&hit.path).unwrap();
        let (row, _) = kifu_index::read_game(&bytes, hit.offset as u64).unwrap();
        assert_eq!(row.main_hash as i64, hit.hash, "{}@{}", hit.path, hit.offset);
        assert_eq!(row.moves as i64, hit.moves);
        assert!(row.main_line.unwrap().starts_with(&format!("(;{}", &hit.opening[..5])));
    }

    // A bad date filter is a usage error; a missing index is reported as such.
    let bad = kifu_index::Query { from: Some("05/2005".into()), ..Default::default() };
    assert_eq!(kifu_index::find(&conn, &bad).unwrap_err().kind(), kifu_index::ErrorKind::Usage);
    let missing = kifu_index::open_existing(&db.with_file_name("none.sqlite")).unwrap_err();
    assert_eq!(missing.kind(), kifu_index::ErrorKind::NoIndex);
    drop(conn);

    // Nothing changed: nothing is read again.
    let second = kifu_index::build(&[samples()], &options, &mut kifu_index::Silent).unwrap();
    assert_eq!((second.files_read, second.files_unchanged, second.games), (0, files, first.games));
    std::fs::remove_dir_all(db.parent().unwrap()).unwrap();
}

/// Paths that cannot be read reach the caller's [`kifu_index::Progress`] and count as errors.
#[test]
fn progress_hears_of_missing_paths() {
    #[derive(Default)]
    struct Seen {
        missing: Vec<PathBuf>,
        done: u64,
    }
    impl kifu_index::Progress for Seen {
        fn path_error(&mut self, path: &Path, _: &std::io::Error) {
            self.missing.push(path.to_path_buf());
        }
        fn file_done(&mut self, _: u64, _: u64) {
            self.done += 1;
        }
    }
    let db = temp_db("progress");
    let mut seen = Seen::default();
    let paths = [samples().join("collection.sgf"), PathBuf::from("/nonexistent/kifu.sgf")];
    let s = kifu_index::build(&paths, &kifu_index::Options::new(&db), &mut seen).unwrap();
    assert_eq!(seen.missing, [PathBuf::from("/nonexistent/kifu.sgf")]);
    assert_eq!((s.errors, s.files_read, seen.done), (1, 1, 1));
    std::fs::remove_dir_all(db.parent().unwrap()).unwrap();
}

/// The filters, order and page of [`kifu_index::Query`] on the samples: each agrees with the
/// same filter applied to every hit, [`kifu_index::count`] with [`kifu_index::find`], pages with
/// the whole, and malformed values are usage errors.
#[test]
fn query_filters_order_and_pages() {
    let db = temp_db("filters");
    kifu_index::build(&[samples()], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let all = kifu_index::find(&conn, &kifu_index::Query::default()).unwrap();
    let q = |f: &dyn Fn(&mut kifu_index::Query)| {
        let mut q = kifu_index::Query::default();
        f(&mut q);
        q
    };
    let s = |v: &str| Some(v.to_owned());
    type Keep = Box<dyn Fn(&kifu_index::Hit) -> bool>;
    let checks: Vec<(kifu_index::Query, Keep)> = vec![
        (q(&|q| q.kind = s("shogi")), Box::new(|h| h.kind == "shogi")),
        (q(&|q| q.size = s("19")), Box::new(|h| h.board_size.as_deref() == Some("19"))),
        (q(&|q| q.moves = s("100..")), Box::new(|h| h.moves >= 100)),
        (q(&|q| q.black = s("shusaku")), Box::new(|h| h.black.as_deref().is_some_and(|b| b.contains("Shusaku")))),
        (
            q(&|q| q.rank = s("1d..")),
            Box::new(|h| {
                [&h.black_rank, &h.white_rank]
                    .iter()
                    .any(|r| r.as_deref().and_then(kifu_index::rank_value).is_some_and(|v| v >= 101))
            }),
        ),
    ];
    for (query, keep) in &checks {
        let want: Vec<&kifu_index::Hit> = all.iter().filter(|h| keep(h)).collect();
        let got = kifu_index::find(&conn, query).unwrap();
        assert_eq!(got.iter().collect::<Vec<_>>(), want, "{query:?}");
        assert_eq!(kifu_index::count(&conn, query).unwrap() as usize, want.len(), "{query:?}");
    }
    // Moves descending, ties by path; pages of 3 make the whole.
    let sorted = kifu_index::find(&conn, &q(&|q| (q.sort, q.descending) = (s("moves"), true))).unwrap();
    assert!(sorted.windows(2).all(|w| w[0].moves >= w[1].moves));
    let mut pages = Vec::new();
    for off in (0..sorted.len()).step_by(3) {
        let page = q(&|q| (q.sort, q.descending, q.limit, q.offset) = (s("moves"), true, Some(3), Some(off as u64)));
        pages.extend(kifu_index::find(&conn, &page).unwrap());
    }
    assert_eq!(pages, sorted);
    for bad in [
        q(&|q| q.rank = s("strong")),
        q(&|q| q.moves = s("..")),
        q(&|q| q.komi = s("x..")),
        q(&|q| q.size = s("big")),
        q(&|q| q.kind = s("chess")),
        q(&|q| q.sort = s("colour")),
    ] {
        assert_eq!(kifu_index::find(&conn, &bad).unwrap_err().kind(), kifu_index::ErrorKind::Usage, "{bad:?}");
    }
    // The samples are clean: no file with errors.
    assert_eq!(kifu_index::error_files(&conn).unwrap(), []);
    drop(conn);
    std::fs::remove_dir_all(db.parent().unwrap()).unwrap();
}

#[test]
fn duplicates_are_the_games_sharing_a_main_line_up_to_symmetry() {
    let db = temp_db("dups");
    let dir = db.parent().unwrap().join("games");
    std::fs::create_dir_all(&dir).unwrap();
    // A game, its copy rotated a quarter turn, and its copy reflected; a game alone; three
    // games without moves (setup only, or nothing), which share their empty main line but are
    // no duplicates; and a shogi game twice.
    let games = [
        "(;GM[1]SZ[19]PB[a];B[pd];W[dp];B[qp])",
        "(;GM[1]SZ[19]PB[b];B[pp];W[dd];B[dq])",
        "(;GM[1]SZ[19]PB[c];B[dd];W[pp];B[cp])",
        "(;GM[1]SZ[19]PB[d];B[pd];W[dd])",
        "(;GM[1]SZ[19]PB[e]AB[pd])",
        "(;GM[1]SZ[19]PB[f]AB[dd])",
        "(;GM[1]SZ[19]PB[g])",
    ];
    std::fs::write(dir.join("go.sgf"), games.concat()).unwrap();
    let shogi = "V2.2\nN+s\nN-t\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    std::fs::write(dir.join("s1.csa"), shogi).unwrap();
    std::fs::write(dir.join("s2.csa"), shogi).unwrap();
    kifu_index::build(&[&dir], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let dups = kifu_index::Query { duplicates: true, ..Default::default() };
    let hits = kifu_index::find(&conn, &dups).unwrap();
    let groups: Vec<Vec<&str>> = kifu_index::duplicate_groups(&hits)
        .iter()
        .map(|g| {
            let mut names: Vec<&str> = g.iter().map(|h| h.black.as_deref().unwrap_or("")).collect();
            names.sort();
            names
        })
        .collect();
    let mut groups = groups;
    groups.sort();
    assert_eq!(groups, [vec!["a", "b", "c"], vec!["s", "s"]]);
    assert_eq!(kifu_index::count(&conn, &dups).unwrap(), 5);
    // The same as grouping every game with moves by its symmetric hash.
    let all = kifu_index::find(&conn, &kifu_index::Query::default()).unwrap();
    let mut by_hash = std::collections::HashMap::<i64, u64>::new();
    for h in all.iter().filter(|h| h.moves > 0) {
        *by_hash.entry(h.symmetric_hash).or_default() += 1;
    }
    let brute: u64 = by_hash.values().filter(|&&n| n > 1).sum();
    assert_eq!(hits.len() as u64, brute);
}

#[test]
fn a_pattern_search_hands_its_games_on_and_counts_them_all() {
    let db = temp_db("pattern-each");
    let dir = db.parent().unwrap().join("games");
    std::fs::create_dir_all(&dir).unwrap();
    // Four games with a Black stone on a 4-4 point, one without.
    let games = [
        "(;GM[1]SZ[19]RE[B+R];B[pd];W[dp];B[qp])",
        "(;GM[1]SZ[19]RE[W+R];B[pp];W[dd];B[dq])",
        "(;GM[1]SZ[19]RE[B+R];B[dd];W[pp];B[cp])",
        "(;GM[1]SZ[19];B[pd];W[dd])",
        "(;GM[1]SZ[19];B[qd];W[cc])",
    ];
    std::fs::write(dir.join("go.sgf"), games.concat()).unwrap();
    kifu_index::build(&[&dir], &kifu_index::Options::new(&db), &mut kifu_index::Silent).unwrap();
    let conn = kifu_index::open_existing(&db).unwrap();
    let pattern = kifu_index::Pattern::from_diagram("..../..../..../...X", kifu_index::Anchor::Corner).unwrap();
    let whole = kifu_index::find_pattern(&conn, &pattern, &kifu_index::Query::default()).unwrap();
    assert_eq!((whole.games, whole.hits.len(), whole.scanned), (4, 4, 5));
    for (limit, stop_after) in [(None, usize::MAX), (Some(2), usize::MAX), (None, 1), (Some(3), 2)] {
        let query = kifu_index::Query { limit, ..Default::default() };
        let mut handed = Vec::new();
        let search = kifu_index::find_pattern_each(&conn, &pattern, &query, |h| {
            handed.push(h);
            if handed.len() == stop_after {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .unwrap();
        let n = (limit.unwrap_or(4) as usize).min(stop_after);
        assert_eq!(handed, whole.hits[..n], "{limit:?} {stop_after}");
        // The counts and the table are every game's, whatever was handed on.
        assert!(search.hits.is_empty());
        assert_eq!((search.games, &search.moves, search.scanned), (4, &whole.moves, 5));
        assert_eq!(
            kifu_index::find_pattern(&conn, &pattern, &query).unwrap().hits,
            whole.hits[..limit.unwrap_or(4) as usize]
        );
    }
}
