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
